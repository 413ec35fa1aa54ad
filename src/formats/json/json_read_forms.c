/* The typed JSON reader: "$" forms that hold no arbitrary value.
 *
 * Scalars ($i32, $f32, ...), $bytes, $utf16, $ref and, through
 * json_read_packed.c, packed numbers ($f32s) and shapes ($vector3,
 * $packed_vector3) are parsed here in one go, from the payload to the
 * closing '}'. Also here: which form a "$" key names, and the class of a
 * $class form. */
#include <string.h>

#include "core/base64.h"
#include "core/value_internal.h"
#include "formats/json/json_read_internal.h"

#define WS_OR_NULL(p)                                                                              \
    do {                                                                                           \
        (p) = sv__json_jr_ws(r, (p));                                                              \
        if (!(p)) return NULL;                                                                     \
    } while (0)

/* ---- names ----------------------------------------------------------------------------- */

/* Forms' keys as written, for messages and paths (static: no formatting on
 * the success path). */
static const char *const elem_keys[SV_ELEM_COUNT] = {
    "$", "$u8", "$i8", "$u16", "$i16", "$u32", "$i32", "$u64", "$i64", "$f32", "$f64",
};
static const char *const packed_keys[SV_ELEM_COUNT] = {
    "$", "$u8s", "$i8s", "$u16s", "$i16s", "$u32s", "$i32s", "$u64s", "$i64s", "$f32s", "$f64s",
};
/* The tag list (tags.h) as the reader needs it: the key as written, and
 * the kind (shapes are TUPLE or PACKED). */
typedef struct tag_row {
    const char *key;
    unsigned char kind;
} tag_row;

static const tag_row tag_rows[SV_TAG_COUNT] = {
#define SV_X_TAG_ROW(id, name, kind, scalars, elem) {"$" name, kind},
    SV_TAG_LIST(SV_X_TAG_ROW)
#undef SV_X_TAG_ROW
};

/* The width of an element type name's digits: "8", "16", "32", "64". */
static int width_digits(const char *s, size_t n)
{
    if (n == 1 && s[0] == '8') return 8;
    if (n != 2) return 0;
    if (s[0] == '1' && s[1] == '6') return 16;
    if (s[0] == '3' && s[1] == '2') return 32;
    if (s[0] == '6' && s[1] == '4') return 64;
    return 0;
}

/* "i8" .. "f64" (and with plural, "i8s" .. "f64s"): SV_ELEM_NONE if not. */
static sv_elem elem_of_name(const char *s, size_t n)
{
    if (n < 2) return SV_ELEM_NONE;
    int w = width_digits(s + 1, n - 1);
    switch (s[0]) {
    case 'u':
        return w == 8    ? SV_ELEM_U8
               : w == 16 ? SV_ELEM_U16
               : w == 32 ? SV_ELEM_U32
               : w == 64 ? SV_ELEM_U64
                         : SV_ELEM_NONE;
    case 'i':
        return w == 8    ? SV_ELEM_I8
               : w == 16 ? SV_ELEM_I16
               : w == 32 ? SV_ELEM_I32
               : w == 64 ? SV_ELEM_I64
                         : SV_ELEM_NONE;
    case 'f': return w == 32 ? SV_ELEM_F32 : w == 64 ? SV_ELEM_F64 : SV_ELEM_NONE;
    default: return SV_ELEM_NONE;
    }
}

jr_form sv__json_jr_form_lookup(const char *s, size_t n)
{
    jr_form f = {JF_UNKNOWN, SV_ELEM_NONE, 0, 0, SV_TAG_NONE};
    jr_str k = {s, n, false};
    if (n == 0) return f;
    switch (s[0]) {
    case 'i':
    case 'u':
    case 'f': {
        bool plural = s[n - 1] == 's';
        sv_elem e = elem_of_name(s, n - plural);
        if (e != SV_ELEM_NONE) {
            f.id = plural ? JF_PACKED : (e == SV_ELEM_F32 || e == SV_ELEM_F64) ? JF_FLOAT : JF_INT;
            f.elem = (uint8_t)e;
            return f;
        }
        if (sv__json_jr_str_is(&k, "utf16")) f.id = JF_UTF16;
        if (sv__json_jr_str_is(&k, "int") || sv__json_jr_str_is(&k, "uint")) {
            f.id = JF_WIDE;
            f.elem = s[0] == 'i' ? SV_ELEM_I64 : SV_ELEM_U64;
        }
        break;
    }
    case 'a':
        if (sv__json_jr_str_is(&k, "array")) f.id = JF_ARRAY;
        break;
    case 'b':
        if (sv__json_jr_str_is(&k, "bytes")) f.id = JF_BYTES;
        if (sv__json_jr_str_is(&k, "bool")) f.id = JF_BOOL;
        break;
    case 's':
        if (sv__json_jr_str_is(&k, "str")) f.id = JF_STR;
        break;
    case 'c':
        if (sv__json_jr_str_is(&k, "class")) f.id = JF_CLASS;
        break;
    case 'e':
        if (sv__json_jr_str_is(&k, "elem")) f.id = JF_ELEM;
        break;
    case 'm':
        if (sv__json_jr_str_is(&k, "map")) f.id = JF_MAP;
        if (sv__json_jr_str_is(&k, "meta")) f.id = JF_META;
        break;
    case 'r':
        if (sv__json_jr_str_is(&k, "ref")) f.id = JF_REF;
        break;
    default: break;
    }
    if (f.id != JF_UNKNOWN) return f;
    sv_tag t = sv_tag_by_name(s, n);
    if (t != SV_TAG_NONE) {
        unsigned kind = tag_rows[t].kind;
        f.id = kind == SV_TUPLE || kind == SV_PACKED ? JF_SHAPE : JF_TAG;
        f.tag = (uint16_t)t;
        if (f.id == JF_SHAPE) {
            f.elem = (uint8_t)sv_tag_default_elem(t);
            f.per = (uint8_t)sv_tag_scalars(t);
            f.tuple = kind == SV_TUPLE;
        }
    }
    return f;
}

static const char *form_name(jr_form f)
{
    switch (f.id) {
    case JF_INT:
    case JF_FLOAT: return (unsigned)f.elem < SV_ELEM_COUNT ? elem_keys[f.elem] : "$";
    case JF_PACKED: return (unsigned)f.elem < SV_ELEM_COUNT ? packed_keys[f.elem] : "$";
    case JF_BYTES: return "$bytes";
    case JF_UTF16: return "$utf16";
    case JF_WIDE: return f.elem == SV_ELEM_I64 ? "$int" : "$uint";
    case JF_REF: return "$ref";
    case JF_STR: return "$str";
    case JF_BOOL: return "$bool";
    default: return (unsigned)f.tag < SV_TAG_COUNT ? tag_rows[f.tag].key : "$";
    }
}

/* ---- errors ------------------------------------------------------------------------------ */

/* The payload at p is not what the form takes. */
bool sv__json_jr_type_error(jr *r, const char *p, const char *name, const char *want)
{
    const char *found = NULL;
    if (p < r->end) {
        switch (*p) {
        case '"': found = "a string"; break;
        case '[': found = "an array"; break;
        case '{': found = "an object"; break;
        case 't':
        case 'f': found = "a boolean"; break;
        case 'n': found = "null"; break;
        default:
            if (sv__json_jr_is_number_start(p, r->end)) found = "a number";
            break;
        }
    }
    if (!found) return sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected %s (in %s)", want, name);
    return sv__json_jr_fail(r, p, SV_ERR_TYPE, "%s takes %s, not %s", name, want, found);
}

static const char *close_form(jr *r, const char *p, const char *name);

/* ---- scalars, bytes, strings, references ------------------------------------------------- */

/* Whether p starts an integer's payload: a number, or an integer written as
 * a string (the form of integers beyond 2^53, docs/json.md). */
static bool int_start(const jr *r, const char *p)
{
    return sv__json_jr_is_number_start(p, r->end) || (p < r->end && *p == '"');
}

/* {"$i32": 5}, {"$u64": "18446744073709551615"}: explicit_width says the width is
 * the source's choice (not so for $int and $uint). */
static const char *int_form(jr *r, const char *p, sv_elem e, bool explicit_width, const char *name,
                            sv_value *out)
{
    if (!int_start(r, p)) {
        sv__json_jr_type_error(r, p, name, "an integer");
        return NULL;
    }
    jr_width x;
    bool bad = false;
    const char *q = sv__json_jr_element(r, p, e, &x, true, &bad, name);
    if (!q) return NULL;
    /* sv_int_w / sv_uint_w, inline */
    sv_value v = sv__core_make(sv__json_jr_elem_signed(e) ? SV_INT : SV_UINT,
                               (unsigned)sv_elem_size(e), explicit_width ? SV_F_EXPLICIT : 0);
    switch (e) {
    case SV_ELEM_U8: v.as.u = x.u8; break;
    case SV_ELEM_I8: v.as.i = x.i8; break;
    case SV_ELEM_U16: v.as.u = x.u16; break;
    case SV_ELEM_I16: v.as.i = x.i16; break;
    case SV_ELEM_U32: v.as.u = x.u32; break;
    case SV_ELEM_I32: v.as.i = x.i32; break;
    case SV_ELEM_U64: v.as.u = x.u64; break;
    default: v.as.i = x.i64; break;
    }
    *out = v;
    return q;
}

static const char *float_form(jr *r, const char *p, sv_elem e, const char *name, sv_value *out)
{
    uint64_t buf = 0;
    bool bad = false;
    const char *q = sv__json_jr_element(r, p, e, &buf, true, &bad, name);
    if (!q) return NULL;
    if (e == SV_ELEM_F32) {
        float f;
        memcpy(&f, &buf, sizeof f);
        sv_value v = sv__core_make(SV_FLOAT, 4, SV_F_EXPLICIT);
        v.as.u = 0;
        v.as.f32 = f;
        *out = v; /* sv_f32(f) */
    } else {
        double d;
        memcpy(&d, &buf, sizeof d);
        sv_value v = sv__core_make(SV_FLOAT, 8, SV_F_EXPLICIT);
        v.as.f64 = d;
        *out = v;
    }
    return q;
}

static const char *bytes_form(jr *r, const char *p, const char *name, sv_value *out)
{
    if (p >= r->end || *p != '"') {
        sv__json_jr_type_error(r, p, name, "a base64 string");
        return NULL;
    }
    /* Scanned here rather than with sv__json_jr_read_str: max_string limits the
     * decoded bytes, not the base64 text, which is a third longer. */
    size_t len;
    bool esc;
    const char *q = sv__json_jr_scan_string(r, p, &len, &esc, false);
    if (!q) return NULL;
    const char *text = p + 1;
    if (esc) {
        if (!sv__json_jr_reserve(r, (void **)&r->sbuf, &r->scap, len + 1, p)) return NULL;
        sv__json_jr_unescape(p + 1, q, r->sbuf, false);
        text = r->sbuf;
    }
    size_t room = len / 4 * 3;
    if ((room > 2 && room - 2 > r->lim.max_string) || room > UINT32_MAX) {
        sv__json_jr_fail(r, p, SV_ERR_LIMIT, "bytes of about %zu bytes are over the limit of %llu",
                         room, (unsigned long long)r->lim.max_string);
        return NULL;
    }
    uint8_t *buf = sv__json_jr_alloc(r, room + 1, p);
    if (!buf) return NULL;
    size_t n = 0, bad = 0;
    if (!sv__core_base64_decode(text, len, buf, &n, &bad)) {
        /* Point at the offending character when the text is the string itself. */
        sv__json_jr_fail(r, esc ? p : p + 1 + bad, SV_ERR_SYNTAX,
                         "invalid base64 at character %zu of the string", bad);
        return NULL;
    }
    if (n > r->lim.max_string) {
        sv__json_jr_fail(r, p, SV_ERR_LIMIT, "bytes of %zu bytes are over the limit of %llu", n,
                         (unsigned long long)r->lim.max_string);
        return NULL;
    }
    buf[n] = 0; /* like every string and bytes value */
    sv_value v = sv__core_make(SV_BYTES, 0, 0);
    v.len = (uint32_t)n;
    v.as.bytes = buf;
    *out = v;
    return q + 1;
}

static bool literal_null(jr *r, const char *p)
{
    size_t avail = (size_t)(r->end - p), i = 0;
    while (i < 4 && i < avail && p[i] == "null"[i]) i++;
    if (i == 4) return true;
    return sv__json_jr_fail(r, p + i, SV_ERR_SYNTAX, "invalid literal (expected 'null')");
}

static const char *ref_form(jr *r, const char *p, const char *name, sv_value *out)
{
    if (p < r->end && *p == 'n') {
        if (!literal_null(r, p)) return NULL;
        *out = sv_ref_null();
        return p + 4;
    }
    if (!int_start(r, p)) {
        sv__json_jr_type_error(r, p, name, "an unsigned integer or null");
        return NULL;
    }
    uint64_t u;
    bool bad = false;
    const char *q = sv__json_jr_element(r, p, SV_ELEM_U64, &u, true, &bad, name);
    if (q) *out = sv_ref(u);
    return q;
}

/* A class hash beyond 2^53, {"$uint": "..."} at p (a string alone would be
 * a class name): the uint's own form, its payload a number or a string. */
static const char *class_hash_form(jr *r, const char *p, sv_value *out)
{
    jr_str k;
    if (r->ftop + 1 > r->lim.max_depth) {
        sv__json_jr_fail(r, p, SV_ERR_DEPTH, "nesting is deeper than the limit of %u levels",
                         (unsigned)r->lim.max_depth);
        return NULL;
    }
    p++;
    WS_OR_NULL(p);
    const char *kq = p;
    if (p >= r->end || *p != '"' || !(p = sv__json_jr_read_str(r, p, &k, false))) {
        if (kq < r->end && *kq != '"')
            sv__json_jr_fail(r, kq, SV_ERR_SYNTAX, "expected \"$uint\" in a $class hash");
        return NULL;
    }
    if (!sv__json_jr_str_is(&k, "$uint")) {
        sv__json_jr_fail(r, kq, SV_ERR_TYPE, "$class takes a name, a hash or {\"$uint\": hash}");
        return NULL;
    }
    WS_OR_NULL(p);
    if (p >= r->end || *p != ':') {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected ':' after an object key");
        return NULL;
    }
    p++;
    WS_OR_NULL(p);
    const char *q = int_form(r, p, SV_ELEM_U64, false, "$uint", out);
    if (!q) {
        sv__json_jr_path_name(r, "$uint");
        return NULL;
    }
    return close_form(r, q, "$uint");
}

const char *sv__json_jr_class_value(jr *r, const char *p, sv_value *out)
{
    if (p < r->end && *p == '"') {
        jr_str s;
        const char *q = sv__json_jr_read_str(r, p, &s, false);
        if (!q) return NULL;
        return sv__json_jr_intern(r, &s, p, out) ? q : NULL;
    }
    if (p < r->end && *p == '{') return class_hash_form(r, p, out);
    if (!sv__json_jr_is_number_start(p, r->end)) {
        sv__json_jr_type_error(r, p, "$class",
                               "a class name (a string) or a class hash (an unsigned integer)");
        return NULL;
    }
    uint64_t u;
    bool bad = false;
    const char *q = sv__json_jr_element(r, p, SV_ELEM_U64, &u, true, &bad, "$class");
    if (q) *out = sv_uint(u);
    return q;
}

/* ---- strings that are not UTF-8, bools as stored ----------------------------------------- */

/* A code point as the original UTF-8 of RFC 2279 writes it (1 to 6 bytes,
 * up to 31 bits); d may be NULL (length only). */
static size_t long_char(uint32_t c, char *d)
{
    size_t n = c < 0x80        ? 1
               : c < 0x800     ? 2
               : c < 0x10000   ? 3
               : c < 0x200000  ? 4
               : c < 0x4000000 ? 5
                               : 6;
    if (!d) return n;
    if (n == 1) {
        d[0] = (char)c;
        return 1;
    }
    static const unsigned char lead[7] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
    for (size_t k = n - 1; k > 0; k--) {
        d[k] = (char)(0x80 | (c & 0x3F));
        c >>= 6;
    }
    d[0] = (char)(lead[n] | c);
    return n;
}

/* Matches the literal lit at p (after whitespace); NULL with an error if
 * it is not there. */
static const char *expect_lit(jr *r, const char *p, const char *lit, const char *name)
{
    WS_OR_NULL(p);
    size_t n = strlen(lit);
    if ((size_t)(r->end - p) < n || memcmp(p, lit, n) != 0) {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected %s in %s", lit, name);
        return NULL;
    }
    return p + n;
}

/* One pass over the pieces of a $str payload at p ('['): measures them
 * (dst NULL) or copies their bytes to dst. Returns the end of the payload
 * and the byte count in *len. The first pass reports every error. */
static const char *str_pieces(jr *r, const char *p, char *dst, size_t *len, const char *name)
{
    size_t n = 0;
    p++;
    WS_OR_NULL(p);
    bool first = true;
    while (p < r->end && *p != ']') {
        if (!first) {
            if (*p != ',') {
                sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected ',' or ']' in %s", name);
                return NULL;
            }
            p++;
            WS_OR_NULL(p);
        }
        first = false;
        if (p < r->end && *p == '"') { /* text: UTF-8, lone surrogates allowed */
            size_t dlen;
            bool esc;
            const char *q = sv__json_jr_scan_string(r, p, &dlen, &esc, true);
            if (!q) return NULL;
            if (dst && esc)
                sv__json_jr_unescape(p + 1, q, dst + n, true);
            else if (dst)
                memcpy(dst + n, p + 1, dlen);
            n += dlen;
            p = q + 1;
        } else if (sv__json_jr_is_number_start(p, r->end)) { /* one character by its number */
            uint32_t cp = 0;
            bool bad = false;
            const char *q = sv__json_jr_element(r, p, SV_ELEM_U32, &cp, true, &bad, name);
            if (!q) return NULL;
            if (cp > 0x7FFFFFFF) {
                sv__json_jr_fail(r, p, SV_ERR_RANGE, "%s: character %lu is beyond 31 bits", name,
                                 (unsigned long)cp);
                return NULL;
            }
            n += long_char(cp, dst ? dst + n : NULL);
            p = q;
        } else if (p < r->end && *p == '{') { /* {"$u8s": [...]}: bytes */
            const char *q = expect_lit(r, p + 1, "\"$u8s\"", name);
            if (!q || !(q = expect_lit(r, q, ":", name)) || !(q = expect_lit(r, q, "[", name)))
                return NULL;
            WS_OR_NULL(q);
            bool more = q < r->end && *q != ']';
            while (more) {
                uint8_t b = 0;
                bool bad = false;
                q = sv__json_jr_element(r, q, SV_ELEM_U8, &b, true, &bad, "$u8s");
                if (!q) return NULL;
                if (dst) dst[n] = (char)b;
                n++;
                WS_OR_NULL(q);
                more = q < r->end && *q == ',';
                if (more) {
                    q++;
                    WS_OR_NULL(q);
                }
            }
            if (!(q = expect_lit(r, q, "]", name)) || !(q = expect_lit(r, q, "}", name)))
                return NULL;
            p = q;
        } else {
            sv__json_jr_type_error(r, p, name, "strings, code points and {\"$u8s\": [...]} pieces");
            return NULL;
        }
        if (n > r->lim.max_string || n > UINT32_MAX) {
            sv__json_jr_fail(r, p, SV_ERR_LIMIT, "a string of %zu bytes is over the limit of %llu",
                             n, (unsigned long long)r->lim.max_string);
            return NULL;
        }
        WS_OR_NULL(p);
    }
    if (p >= r->end) {
        sv__json_jr_fail(r, p, SV_ERR_TRUNCATED, "unterminated %s", name);
        return NULL;
    }
    *len = n;
    return p + 1;
}

static const char *str_form(jr *r, const char *p, const char *name, sv_value *out)
{
    if (p >= r->end || *p != '[') {
        sv__json_jr_type_error(r, p, name, "an array of pieces");
        return NULL;
    }
    size_t len = 0;
    const char *q = str_pieces(r, p, NULL, &len, name);
    if (!q) return NULL;
    char *dst = sv__json_jr_alloc(r, len + 1, p);
    if (!dst) return NULL;
    size_t again = 0;
    str_pieces(r, p, dst, &again, name);
    dst[len] = '\0';
    *out = sv__core_str_value(dst, (uint32_t)len);
    return q;
}

/* {"$bool": true, "$raw": 127}: the payload and the "$raw" member, up to
 * the closing '}'. A plain {"$bool": b} is the bool b. */
static const char *bool_form(jr *r, const char *p, const char *name, sv_value *out)
{
    bool b;
    if ((size_t)(r->end - p) >= 4 && memcmp(p, "true", 4) == 0) {
        b = true;
        p += 4;
    } else if ((size_t)(r->end - p) >= 5 && memcmp(p, "false", 5) == 0) {
        b = false;
        p += 5;
    } else {
        sv__json_jr_type_error(r, p, name, "true or false");
        return NULL;
    }
    *out = sv_bool(b);
    WS_OR_NULL(p);
    if (p >= r->end || *p != ',') return p;
    const char *q = expect_lit(r, p + 1, "\"$raw\"", name);
    if (!q || !(q = expect_lit(r, q, ":", name))) return NULL;
    WS_OR_NULL(q);
    const char *at = q;
    uint32_t raw = 0;
    bool bad = false;
    q = sv__json_jr_element(r, q, SV_ELEM_U32, &raw, true, &bad, "$raw");
    if (!q) return NULL;
    if ((raw != 0) != b) {
        sv__json_jr_fail(r, at, SV_ERR_RANGE, "$raw %lu stands for %s, but $bool is %s",
                         (unsigned long)raw, raw ? "true" : "false", b ? "true" : "false");
        return NULL;
    }
    *out = sv_bool_raw(raw);
    return q;
}

/* ---- the entry point --------------------------------------------------------------------- */

/* After the payload: whitespace, then the form's closing '}'. */
static const char *close_form(jr *r, const char *p, const char *name)
{
    WS_OR_NULL(p);
    if (p < r->end && *p == '}') return p + 1;
    if (p < r->end && *p == ',')
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX,
                         "unexpected key after the payload of %s (expected '}')", name);
    else
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected '}' after the payload of %s", name);
    return NULL;
}

/* The offset of the first byte of s that is not WTF-8, or len: UTF-8 in
 * which a surrogate U+D800..U+DFFF may stand alone (ED A0..BF xx), but a high
 * one directly followed by a low one may not (WTF-8 writes that pair as one
 * 4-byte sequence). What a string from UTF-16 can hold. */
static size_t wtf8_prefix(const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str, *e = s + len;
    for (const unsigned char *c = s; c < e;) {
        int n = sv__json_jr_utf8_seq(c, e);
        if (n > 0) {
            c += n;
            continue;
        }
        bool surrogate = e - c >= 3 && c[0] == 0xED && c[1] >= 0xA0 && (c[2] & 0xC0) == 0x80;
        if (!surrogate) return (size_t)(c - s);
        if (c[1] <= 0xAF && e - c >= 6 && c[3] == 0xED && c[4] >= 0xB0 && (c[5] & 0xC0) == 0x80)
            return (size_t)(c - s); /* a high surrogate and a low one: a pair */
        c += 3;
    }
    return len;
}

/* $utf16: a string (lone surrogate escapes allowed, as older writers put
 * them), or {"$str": [pieces]} whose bytes are WTF-8 (surrogates as integer
 * pieces, the writer's form: {"$utf16": {"$str": ["a", 55296]}}). */
static const char *utf16_form(jr *r, const char *p, const char *name, sv_value *out)
{
    const char *q;
    if (p < r->end && *p == '"') {
        q = sv__json_jr_string_value(r, p, out, true);
    } else if (p < r->end && *p == '{') {
        const char *at = p;
        q = expect_lit(r, p + 1, "\"$str\"", name);
        if (!q || !(q = expect_lit(r, q, ":", name))) return NULL;
        WS_OR_NULL(q);
        q = str_form(r, q, "$str", out);
        if (!q || !(q = close_form(r, q, "$str"))) {
            sv__json_jr_path_name(r, "$str");
            return NULL;
        }
        size_t ok = wtf8_prefix(out->as.str, out->len);
        if (ok < out->len) {
            sv__json_jr_fail(
                r, at, SV_ERR_UTF8,
                "%s: byte %zu of the string is not WTF-8 (a UTF-16 string holds text and "
                "lone surrogates; a high surrogate and a low one in a row are one character)",
                name, ok);
            return NULL;
        }
    } else {
        sv__json_jr_type_error(r, p, name, "a string or {\"$str\": [pieces]}");
        return NULL;
    }
    if (q) *out = sv_with_flags(*out, SV_F_UTF16);
    return q;
}

const char *sv__json_jr_leaf_form(jr *r, const char *p, jr_form form, sv_value *out)
{
    const char *name = form_name(form);
    const char *q;
    switch (form.id) {
    case JF_INT: q = int_form(r, p, (sv_elem)form.elem, true, name, out); break;
    case JF_WIDE:
        q = int_form(r, p, (sv_elem)form.elem, false, name, out);
        /* At or below int64's maximum {"$uint": N} reads as {"$u64": N}, the
         * form the writer gives such a uint, so what it reads writes back
         * the same. */
        if (q && form.elem == SV_ELEM_U64 && out->as.u <= (uint64_t)INT64_MAX)
            out->flags |= SV_F_EXPLICIT;
        break;
    case JF_FLOAT: q = float_form(r, p, (sv_elem)form.elem, name, out); break;
    case JF_BYTES: q = bytes_form(r, p, name, out); break;
    case JF_UTF16: q = utf16_form(r, p, name, out); break;
    case JF_REF: q = ref_form(r, p, name, out); break;
    case JF_STR: q = str_form(r, p, name, out); break;
    case JF_BOOL: q = bool_form(r, p, name, out); break;
    case JF_PACKED: q = sv__json_jr_packed_form(r, p, (sv_elem)form.elem, name, out); break;
    case JF_SHAPE:
        q = sv__json_jr_shape_form(r, p, (sv_tag)form.tag, name, out);
        return q ? close_form(r, q, name) : NULL; /* shape_form names its own paths */
    default:
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "internal error: %s is not a leaf form", name);
        return NULL;
    }
    if (!q) {
        sv__json_jr_path_name(r, name);
        return NULL;
    }
    return close_form(r, q, name);
}
