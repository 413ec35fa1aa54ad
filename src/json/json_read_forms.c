/* The typed JSON reader: "$" forms that hold no arbitrary value.
 *
 * Scalars ($i32, $f32, ...), $bytes, $utf16, $ref, packed numbers ($f32s)
 * and shapes ($vector3, $packed_vector3) are parsed here in one go, from the
 * payload to the closing '}'. The form knows its payload's type, so a float32
 * is read from its text with sv_parse_f32 (never through a double) and an
 * integer is range-checked for its width.
 *
 * A shape's element type can be overridden by a "$elem" key that comes after
 * the payload. The payload is therefore converted with the shape's default
 * type while a conversion failure is only noted; if "$elem" names another
 * type, or something failed, the payload (whose syntax is known good by then)
 * is read again with the final type and its errors are reported. */
#include <stdio.h>
#include <string.h>

#include "core/base64.h"
#include "core/value_internal.h"
#include "json/json_read_internal.h"
#include "json/numconv.h"

#define WS_OR_NULL(p)                 \
    do {                              \
        (p) = sv_jr_ws(r, (p));       \
        if (!(p)) return NULL;        \
    } while (0)

/* Steps over the byte at p, then over whitespace. */
#define WS_OR_NULL_AFTER(p)                 \
    do {                            \
        (p) = sv_jr_ws(r, (p) + 1); \
        if (!(p)) return NULL;        \
    } while (0)

/* At most this much of a token is quoted in a message. */
#define QUOTE_MAX 40
#define QUOTE(n) (int)((n)->e - (n)->s > QUOTE_MAX ? QUOTE_MAX : (n)->e - (n)->s), (n)->s, \
                 ((n)->e - (n)->s > QUOTE_MAX ? "..." : "")

static inline bool is_number_start(const char *p, const char *end)
{
    return p < end && (*p == '-' || (unsigned)((unsigned char)*p - '0') <= 9);
}

static inline bool str_is(const jr_str *s, const char *lit)
{
    size_t n = strlen(lit);
    return s->len == n && memcmp(s->s, lit, n) == 0;
}

/* ---- names ----------------------------------------------------------------------------- */

jr_form sv_jr_form_lookup(const char *s, size_t n)
{
    jr_form f = {JF_UNKNOWN, SV_ELEM_NONE, SV_TAG_NONE};
    jr_str k = {s, n};
    if (n == 0) return f;
    switch (s[0]) {
    case 'i':
    case 'u':
    case 'f': {
        if (str_is(&k, "utf16")) {
            f.id = JF_UTF16;
            return f;
        }
        bool plural = s[n - 1] == 's';
        sv_elem e = sv_elem_by_name(s, n - plural);
        if (e != SV_ELEM_NONE) {
            f.id = plural ? JF_PACKED : (e == SV_ELEM_F32 || e == SV_ELEM_F64) ? JF_FLOAT : JF_INT;
            f.elem = e;
            return f;
        }
        break;
    }
    case 'a':
        if (str_is(&k, "array")) f.id = JF_ARRAY;
        break;
    case 'b':
        if (str_is(&k, "bytes")) f.id = JF_BYTES;
        break;
    case 'c':
        if (str_is(&k, "class")) f.id = JF_CLASS;
        break;
    case 'e':
        if (str_is(&k, "elem")) f.id = JF_ELEM;
        break;
    case 'm':
        if (str_is(&k, "map")) f.id = JF_MAP;
        if (str_is(&k, "meta")) f.id = JF_META;
        break;
    case 'r':
        if (str_is(&k, "ref")) f.id = JF_REF;
        break;
    default:
        break;
    }
    if (f.id != JF_UNKNOWN) return f;
    sv_tag t = sv_tag_by_name(s, n);
    if (t != SV_TAG_NONE) {
        sv_kind kind = sv_tag_kind(t);
        f.id = kind == SV_TUPLE || kind == SV_PACKED ? JF_SHAPE : JF_TAG;
        f.tag = t;
    }
    return f;
}

/* The form's key as written: "$i32", "$f32s", "$vector3". */
static void form_name(jr_form f, char *buf, size_t size)
{
    switch (f.id) {
    case JF_INT:
    case JF_FLOAT: snprintf(buf, size, "$%s", sv_elem_name(f.elem)); break;
    case JF_PACKED: snprintf(buf, size, "$%ss", sv_elem_name(f.elem)); break;
    case JF_BYTES: snprintf(buf, size, "$bytes"); break;
    case JF_UTF16: snprintf(buf, size, "$utf16"); break;
    case JF_REF: snprintf(buf, size, "$ref"); break;
    default: snprintf(buf, size, "$%s", sv_tag_name(f.tag)); break;
    }
}

/* ---- errors ------------------------------------------------------------------------------ */

/* The payload at p is not what the form takes. */
static bool type_error(jr *r, const char *p, const char *name, const char *want)
{
    const char *found = NULL;
    if (p < r->end) {
        switch (*p) {
        case '"': found = "a string"; break;
        case '[': found = "an array"; break;
        case '{': found = "an object"; break;
        case 't': case 'f': found = "a boolean"; break;
        case 'n': found = "null"; break;
        default:
            if (is_number_start(p, r->end)) found = "a number";
            break;
        }
    }
    if (!found) return sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected %s (in %s)", want, name);
    return sv_jr_fail(r, p, SV_ERR_TYPE, "%s takes %s, not %s", name, want, found);
}

static void path_name(jr *r, const char *name)
{
    sv_error_path_key(r->err, name, strlen(name));
}

/* ---- integers and floats ----------------------------------------------------------------- */

static bool elem_signed(sv_elem e)
{
    return e == SV_ELEM_I8 || e == SV_ELEM_I16 || e == SV_ELEM_I32 || e == SV_ELEM_I64;
}

static bool int_fits(const jr_num *n, sv_elem e)
{
    if (n->big) return false;
    unsigned bits = (unsigned)sv_elem_size(e) * 8;
    uint64_t umax = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (!elem_signed(e)) return n->neg ? n->mag == 0 : n->mag <= umax;
    uint64_t smax = umax >> 1;
    return n->neg ? n->mag <= smax + 1 : n->mag <= smax;
}

static int64_t int_of(const jr_num *n)
{
    if (!n->neg) return (int64_t)n->mag;
    return n->mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)n->mag;
}

/* Converts a number token to elem and stores it at dst. When it does not
 * fit: an error if report, else just false. */
static bool num_elem(jr *r, const jr_num *n, sv_elem e, void *dst, bool report)
{
    if (e == SV_ELEM_F32) {
        float f;
        if (sv_parse_f32(n->s, (size_t)(n->e - n->s), &f)) {
            memcpy(dst, &f, sizeof f);
            return true;
        }
        return report && sv_jr_fail(r, n->s, SV_ERR_RANGE, "%.*s%s is beyond the range of f32", QUOTE(n));
    }
    if (e == SV_ELEM_F64) {
        double d;
        if (sv_jr_num_f64(n, &d)) {
            memcpy(dst, &d, sizeof d);
            return true;
        }
        return report && sv_jr_fail(r, n->s, SV_ERR_RANGE, "%.*s%s is beyond the range of f64", QUOTE(n));
    }
    if (!n->is_int)
        return report && sv_jr_fail(r, n->s, SV_ERR_TYPE, "%.*s%s is not an integer (%s)", QUOTE(n),
                                    sv_elem_name(e));
    if (!int_fits(n, e))
        return report && sv_jr_fail(r, n->s, SV_ERR_RANGE, "%.*s%s is out of range for %s", QUOTE(n),
                                    sv_elem_name(e));
    switch (e) {
    case SV_ELEM_U8: { uint8_t x = (uint8_t)n->mag; memcpy(dst, &x, 1); break; }
    case SV_ELEM_I8: { int8_t x = (int8_t)int_of(n); memcpy(dst, &x, 1); break; }
    case SV_ELEM_U16: { uint16_t x = (uint16_t)n->mag; memcpy(dst, &x, 2); break; }
    case SV_ELEM_I16: { int16_t x = (int16_t)int_of(n); memcpy(dst, &x, 2); break; }
    case SV_ELEM_U32: { uint32_t x = (uint32_t)n->mag; memcpy(dst, &x, 4); break; }
    case SV_ELEM_I32: { int32_t x = (int32_t)int_of(n); memcpy(dst, &x, 4); break; }
    case SV_ELEM_U64: { uint64_t x = n->mag; memcpy(dst, &x, 8); break; }
    default: { int64_t x = int_of(n); memcpy(dst, &x, 8); break; }
    }
    return true;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)(c | 0x20);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* A float written as a string: "nan", "inf", "-inf" or "nan:0x<bits>" where
 * the bits are a NaN of the element's width (docs/json.md, Scalars). */
static bool special_float(jr *r, const char *at, const jr_str *s, sv_elem e, void *dst, bool report)
{
    bool f32 = e == SV_ELEM_F32;
    uint64_t bits = 0;
    bool ok = true;
    if (str_is(s, "nan")) {
        bits = f32 ? 0x7fc00000u : UINT64_C(0x7ff8000000000000);
    } else if (str_is(s, "inf")) {
        bits = f32 ? 0x7f800000u : UINT64_C(0x7ff0000000000000);
    } else if (str_is(s, "-inf")) {
        bits = f32 ? 0xff800000u : UINT64_C(0xfff0000000000000);
    } else if (s->len > 6 && s->len <= 6 + (f32 ? 8u : 16u) && memcmp(s->s, "nan:0x", 6) == 0) {
        for (size_t i = 6; i < s->len && ok; i++) {
            int h = hexval(s->s[i]);
            ok = h >= 0;
            bits = bits << 4 | (uint64_t)(h & 15);
        }
        uint64_t expo = f32 ? 0x7f800000u : UINT64_C(0x7ff0000000000000);
        uint64_t frac = f32 ? 0x007fffffu : UINT64_C(0x000fffffffffffff);
        ok = ok && (bits & expo) == expo && (bits & frac) != 0;
    } else {
        ok = false;
    }
    if (!ok)
        return report && sv_jr_fail(r, at, SV_ERR_SYNTAX,
                                    "expected a number, \"nan\", \"inf\", \"-inf\" or "
                                    "\"nan:0x...\" with the bits of a NaN (%s)",
                                    sv_elem_name(e));
    if (f32) {
        uint32_t b = (uint32_t)bits;
        memcpy(dst, &b, 4);
    } else {
        memcpy(dst, &bits, 8);
    }
    return true;
}

/* One number (or special float string) at p for elem, stored at dst.
 * Syntax errors always fail. A value that does not suit elem fails with an
 * error if report; otherwise it sets *bad, and once *bad is set nothing more
 * is converted (the caller reads the payload again to report it). */
static const char *element(jr *r, const char *p, sv_elem e, void *dst, bool report, bool *bad,
                           const char *name)
{
    bool convert = report || !*bad;
    if (is_number_start(p, r->end)) {
        jr_num n;
        const char *q = sv_jr_scan_number(r, p, &n);
        if (!q) return NULL;
        if (convert && !num_elem(r, &n, e, dst, report)) {
            if (report) return NULL;
            *bad = true;
        }
        return q;
    }
    if (p < r->end && *p == '"') {
        jr_str s;
        const char *q = sv_jr_read_str(r, p, &s, false);
        if (!q) return NULL;
        if (!convert) return q;
        bool ok;
        if (e == SV_ELEM_F32 || e == SV_ELEM_F64) {
            ok = special_float(r, p, &s, e, dst, report);
        } else {
            ok = report && sv_jr_fail(r, p, SV_ERR_TYPE, "a string is not an integer (%s)",
                                      sv_elem_name(e));
        }
        if (!ok) {
            if (report) return NULL;
            *bad = true;
        }
        return q;
    }
    type_error(r, p, name, "a number");
    return NULL;
}

/* ---- tuples and packed arrays ------------------------------------------------------------- */

typedef struct jr_shape {
    const char *name; /* the form's key */
    unsigned per;     /* numbers per item (a tuple's count) */
    bool nested;      /* packed shape: items are arrays of per numbers */
    bool exact;       /* tuple: exactly per numbers */
} jr_shape;

static bool depth_ok(jr *r, const char *p, size_t depth)
{
    if (depth <= r->lim.max_depth) return true;
    return sv_jr_fail(r, p, SV_ERR_DEPTH, "nesting is deeper than the limit of %u levels",
                      (unsigned)r->lim.max_depth);
}

/* Room for scalar n (of es bytes) in r->nbuf. */
static bool room(jr *r, size_t n, size_t es, const char *at)
{
    if (n >= UINT32_MAX)
        return sv_jr_fail(r, at, SV_ERR_LIMIT, "more than %lu numbers in one packed array",
                          (unsigned long)UINT32_MAX);
    if ((n + 1) * es <= r->ncap) return true;
    return sv_jr_reserve(r, (void **)&r->nbuf, &r->ncap, (n + 1) * es, at);
}

/* One item of a packed shape: '[' then sh->per numbers then ']'. */
static const char *item(jr *r, const char *p, const jr_shape *sh, sv_elem e, bool report, bool *bad,
                        size_t *n)
{
    const char *end = r->end;
    size_t es = sv_elem_size(e);
    if (p >= end || *p != '[') {
        type_error(r, p, sh->name, "arrays of numbers");
        return NULL;
    }
    if (!depth_ok(r, p, r->ftop + 3)) return NULL;
    WS_OR_NULL_AFTER(p);
    for (unsigned k = 0;; k++) {
        if (k == sh->per) {
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "an item of %s has %u numbers", sh->name, sh->per);
            return NULL;
        }
        if (!room(r, *n, es, p)) return NULL;
        const char *q = element(r, p, e, r->nbuf + *n * es, report, bad, sh->name);
        if (!q) {
            sv_error_path_index(r->err, k);
            return NULL;
        }
        ++*n;
        WS_OR_NULL(q);
        p = q;
        if (p < end && *p == ',') {
            WS_OR_NULL_AFTER(p);
            continue;
        }
        if (p < end && *p == ']') {
            if (k + 1 != sh->per) {
                sv_jr_fail(r, p, SV_ERR_SYNTAX, "an item of %s has %u numbers, not %u", sh->name,
                           sh->per, k + 1);
                return NULL;
            }
            return p + 1;
        }
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected ',' or ']' after a number");
        return NULL;
    }
}

/* The payload array of a tuple or packed form, converted for e into r->nbuf.
 * *count gets the number of scalars. */
static const char *numbers(jr *r, const char *p, const jr_shape *sh, sv_elem e, bool report,
                           bool *bad, size_t *count)
{
    const char *end = r->end;
    size_t es = sv_elem_size(e), n = 0;
    if (p >= end || *p != '[') {
        type_error(r, p, sh->name, "an array");
        return NULL;
    }
    if (!depth_ok(r, p, r->ftop + 2)) return NULL;
    WS_OR_NULL_AFTER(p);
    if (p < end && *p == ']') {
        p++;
    } else {
        for (size_t i = 0;; i++) {
            const char *q;
            if (sh->nested) {
                q = item(r, p, sh, e, report, bad, &n);
            } else if (sh->exact && n == sh->per) {
                sv_jr_fail(r, p, SV_ERR_SYNTAX, "%s takes %u numbers", sh->name, sh->per);
                q = NULL;
            } else {
                q = room(r, n, es, p) ? element(r, p, e, r->nbuf + n * es, report, bad, sh->name) : NULL;
                n++;
            }
            if (!q) {
                sv_error_path_index(r->err, i);
                return NULL;
            }
            WS_OR_NULL(q);
            p = q;
            if (p < end && *p == ',') {
                WS_OR_NULL_AFTER(p);
                continue;
            }
            if (p < end && *p == ']') {
                p++;
                break;
            }
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected ',' or ']' in the payload of %s", sh->name);
            return NULL;
        }
    }
    if (sh->exact && n != sh->per) {
        sv_jr_fail(r, p - 1, SV_ERR_SYNTAX, "%s takes %u numbers, not %zu", sh->name, sh->per, n);
        return NULL;
    }
    *count = n;
    return p;
}

/* The optional "$elem": "<type>" after a shape's payload. p is after the
 * payload; returns the pointer after the element type (or p unchanged). */
static const char *elem_key(jr *r, const char *p, const char *name, sv_elem *e)
{
    const char *end = r->end;
    WS_OR_NULL(p);
    if (p >= end || *p != ',') return p;
    WS_OR_NULL_AFTER(p);
    const char *kq = p;
    jr_str k;
    if (p >= end || *p != '"') {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected \"$elem\" after ','");
        return NULL;
    }
    p = sv_jr_read_str(r, p, &k, false);
    if (!p) return NULL;
    if (!str_is(&k, "$elem")) {
        sv_jr_fail(r, kq, SV_ERR_SYNTAX, "only \"$elem\" may follow the payload of %s", name);
        return NULL;
    }
    WS_OR_NULL(p);
    if (p >= end || *p != ':') {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected ':' after an object key");
        return NULL;
    }
    WS_OR_NULL_AFTER(p);
    const char *vq = p;
    if (p >= end || *p != '"') {
        type_error(r, p, "$elem", "an element type name");
        path_name(r, "$elem");
        return NULL;
    }
    p = sv_jr_read_str(r, p, &k, false);
    if (!p) {
        path_name(r, "$elem");
        return NULL;
    }
    *e = sv_elem_by_name(k.s, k.len);
    if (*e == SV_ELEM_NONE) {
        sv_jr_fail(r, vq, SV_ERR_SYNTAX,
                   "unknown element type \"%.*s\" (u8, i8, u16, i16, u32, i32, u64, i64, f32 or f64)",
                   (int)(k.len > QUOTE_MAX ? QUOTE_MAX : k.len), k.s);
        path_name(r, "$elem");
        return NULL;
    }
    return p;
}

static const char *shape_form(jr *r, const char *p, sv_tag tag, const char *name, sv_value *out)
{
    sv_kind kind = sv_tag_kind(tag);
    jr_shape sh = {name, sv_tag_scalars(tag), kind == SV_PACKED, kind == SV_TUPLE};
    sv_elem def = sv_tag_default_elem(tag), e = def;
    bool bad = false;
    size_t count = 0;
    const char *q = numbers(r, p, &sh, def, false, &bad, &count);
    if (!q) {
        path_name(r, name);
        return NULL;
    }
    q = elem_key(r, q, name, &e);
    if (!q) return NULL;
    if (e != def || bad) {
        bad = false;
        if (!numbers(r, p, &sh, e, true, &bad, &count)) {
            path_name(r, name);
            return NULL;
        }
    }
    sv_value v = kind == SV_PACKED ? sv_packed(r->doc, e, tag, r->nbuf, count)
                                   : sv_tuple(r->doc, tag, e, r->nbuf);
    if (v.kind == SV_NULL) {
        sv_jr_fail_alloc(r, p);
        return NULL;
    }
    *out = v;
    return q;
}

/* ---- scalars, bytes, strings, references ------------------------------------------------- */

static const char *int_form(jr *r, const char *p, sv_elem e, const char *name, sv_value *out)
{
    if (!is_number_start(p, r->end)) {
        type_error(r, p, name, "an integer");
        return NULL;
    }
    jr_num n;
    const char *q = sv_jr_scan_number(r, p, &n);
    uint64_t scratch;
    if (!q || !num_elem(r, &n, e, &scratch, true)) return NULL;
    int w = (int)sv_elem_size(e);
    *out = elem_signed(e) ? sv_int_w(int_of(&n), w) : sv_uint_w(n.mag, w);
    return q;
}

static const char *float_form(jr *r, const char *p, sv_elem e, const char *name, sv_value *out)
{
    uint64_t buf = 0;
    bool bad = false;
    const char *q = element(r, p, e, &buf, true, &bad, name);
    if (!q) return NULL;
    if (e == SV_ELEM_F32) {
        float f;
        memcpy(&f, &buf, sizeof f);
        *out = sv_f32(f);
    } else {
        double d;
        memcpy(&d, &buf, sizeof d);
        *out = sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
    }
    return q;
}

static const char *bytes_form(jr *r, const char *p, const char *name, sv_value *out)
{
    if (p >= r->end || *p != '"') {
        type_error(r, p, name, "a base64 string");
        return NULL;
    }
    /* Scanned here rather than with sv_jr_read_str: max_string limits the
     * decoded bytes, not the base64 text, which is a third longer. */
    size_t len;
    bool esc;
    const char *q = sv_jr_scan_string(r, p, &len, &esc, false);
    if (!q) return NULL;
    const char *text = p + 1;
    if (esc) {
        if (!sv_jr_reserve(r, (void **)&r->sbuf, &r->scap, len + 1, p)) return NULL;
        sv_jr_unescape(p + 1, q, r->sbuf, false);
        text = r->sbuf;
    }
    size_t room = len / 4 * 3;
    if ((room > 2 && room - 2 > r->lim.max_string) || room > UINT32_MAX) {
        sv_jr_fail(r, p, SV_ERR_LIMIT, "bytes of about %zu bytes are over the limit of %llu", room,
                   (unsigned long long)r->lim.max_string);
        return NULL;
    }
    sv_value v = sv_bytes_uninit(r->doc, room);
    if (v.kind != SV_BYTES) {
        sv_jr_fail_alloc(r, p);
        return NULL;
    }
    size_t n = 0, bad = 0;
    if (!sv_base64_decode(text, len, sv_value_buf(&v), &n, &bad)) {
        /* Point at the offending character when the text is the string itself. */
        sv_jr_fail(r, esc ? p : p + 1 + bad, SV_ERR_SYNTAX,
                   "invalid base64 at character %zu of the string", bad);
        return NULL;
    }
    if (n > r->lim.max_string) {
        sv_jr_fail(r, p, SV_ERR_LIMIT, "bytes of %zu bytes are over the limit of %llu", n,
                   (unsigned long long)r->lim.max_string);
        return NULL;
    }
    v.len = (uint32_t)n;
    *out = v;
    return q + 1;
}

static bool literal_null(jr *r, const char *p)
{
    size_t avail = (size_t)(r->end - p), i = 0;
    while (i < 4 && i < avail && p[i] == "null"[i]) i++;
    if (i == 4) return true;
    return sv_jr_fail(r, p + i, SV_ERR_SYNTAX, "invalid literal (expected 'null')");
}

static const char *ref_form(jr *r, const char *p, const char *name, sv_value *out)
{
    if (p < r->end && *p == 'n') {
        if (!literal_null(r, p)) return NULL;
        *out = sv_ref_null();
        return p + 4;
    }
    if (!is_number_start(p, r->end)) {
        type_error(r, p, name, "an unsigned integer or null");
        return NULL;
    }
    jr_num n;
    const char *q = sv_jr_scan_number(r, p, &n);
    uint64_t scratch;
    if (!q || !num_elem(r, &n, SV_ELEM_U64, &scratch, true)) return NULL;
    *out = sv_ref(n.mag);
    return q;
}

const char *sv_jr_class_value(jr *r, const char *p, sv_value *out)
{
    if (p < r->end && *p == '"') {
        jr_str s;
        const char *q = sv_jr_read_str(r, p, &s, false);
        if (!q) return NULL;
        *out = sv_str_intern(r->doc, s.s, s.len);
        if (out->kind != SV_STRING) {
            sv_jr_fail_alloc(r, p);
            return NULL;
        }
        return q;
    }
    if (!is_number_start(p, r->end)) {
        type_error(r, p, "$class", "a class name (a string) or a class hash (an unsigned integer)");
        return NULL;
    }
    jr_num n;
    const char *q = sv_jr_scan_number(r, p, &n);
    uint64_t scratch;
    if (!q || !num_elem(r, &n, SV_ELEM_U64, &scratch, true)) return NULL;
    *out = sv_uint(n.mag);
    return q;
}

/* ---- the entry point --------------------------------------------------------------------- */

/* After the payload: whitespace, then the form's closing '}'. */
static const char *close_form(jr *r, const char *p, const char *name)
{
    WS_OR_NULL(p);
    if (p < r->end && *p == '}') return p + 1;
    if (p < r->end && *p == ',')
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "unexpected key after the payload of %s (expected '}')", name);
    else
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected '}' after the payload of %s", name);
    return NULL;
}

const char *sv_jr_leaf_form(jr *r, const char *p, jr_form form, sv_value *out)
{
    char name[48];
    form_name(form, name, sizeof name);
    const char *q;
    switch (form.id) {
    case JF_INT:
        q = int_form(r, p, form.elem, name, out);
        break;
    case JF_FLOAT:
        q = float_form(r, p, form.elem, name, out);
        break;
    case JF_BYTES:
        q = bytes_form(r, p, name, out);
        break;
    case JF_UTF16:
        if (p >= r->end || *p != '"') {
            type_error(r, p, name, "a string");
            q = NULL;
        } else {
            q = sv_jr_string_value(r, p, out, true);
            if (q) *out = sv_with_flags(*out, SV_F_UTF16);
        }
        break;
    case JF_REF:
        q = ref_form(r, p, name, out);
        break;
    case JF_PACKED: {
        jr_shape sh = {name, 0, false, false};
        bool bad = false;
        size_t count = 0;
        q = numbers(r, p, &sh, form.elem, true, &bad, &count);
        if (q) {
            *out = sv_packed(r->doc, form.elem, SV_TAG_NONE, r->nbuf, count);
            if (out->kind == SV_NULL) {
                sv_jr_fail_alloc(r, p);
                return NULL;
            }
        }
        break;
    }
    case JF_SHAPE:
        q = shape_form(r, p, form.tag, name, out);
        return q ? close_form(r, q, name) : NULL; /* shape_form names its own paths */
    default:
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "internal error: %s is not a leaf form", name);
        return NULL;
    }
    if (!q) {
        path_name(r, name);
        return NULL;
    }
    return close_form(r, q, name);
}
