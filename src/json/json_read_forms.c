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
#include "json/json_read_internal.h"

#define WS_OR_NULL(p)                                                                              \
    do {                                                                                           \
        (p) = sv_jr_ws(r, (p));                                                                    \
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

jr_form sv_jr_form_lookup(const char *s, size_t n)
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
        if (sv_jr_str_is(&k, "utf16")) f.id = JF_UTF16;
        break;
    }
    case 'a':
        if (sv_jr_str_is(&k, "array")) f.id = JF_ARRAY;
        break;
    case 'b':
        if (sv_jr_str_is(&k, "bytes")) f.id = JF_BYTES;
        break;
    case 'c':
        if (sv_jr_str_is(&k, "class")) f.id = JF_CLASS;
        break;
    case 'e':
        if (sv_jr_str_is(&k, "elem")) f.id = JF_ELEM;
        break;
    case 'm':
        if (sv_jr_str_is(&k, "map")) f.id = JF_MAP;
        if (sv_jr_str_is(&k, "meta")) f.id = JF_META;
        break;
    case 'r':
        if (sv_jr_str_is(&k, "ref")) f.id = JF_REF;
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
    case JF_REF: return "$ref";
    default: return (unsigned)f.tag < SV_TAG_COUNT ? tag_rows[f.tag].key : "$";
    }
}

/* ---- errors ------------------------------------------------------------------------------ */

/* The payload at p is not what the form takes. */
bool sv_jr_type_error(jr *r, const char *p, const char *name, const char *want)
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
            if (sv_jr_is_number_start(p, r->end)) found = "a number";
            break;
        }
    }
    if (!found) return sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected %s (in %s)", want, name);
    return sv_jr_fail(r, p, SV_ERR_TYPE, "%s takes %s, not %s", name, want, found);
}

/* ---- scalars, bytes, strings, references ------------------------------------------------- */

static const char *int_form(jr *r, const char *p, sv_elem e, const char *name, sv_value *out)
{
    if (!sv_jr_is_number_start(p, r->end)) {
        sv_jr_type_error(r, p, name, "an integer");
        return NULL;
    }
    union {
        uint8_t u8;
        int8_t i8;
        uint16_t u16;
        int16_t i16;
        uint32_t u32;
        int32_t i32;
        uint64_t u64;
        int64_t i64;
    } x;
    bool bad = false;
    const char *q = sv_jr_element(r, p, e, &x, true, &bad, name);
    if (!q) return NULL;
    /* sv_int_w / sv_uint_w, inline */
    sv_value v =
        sv__make(sv_jr_elem_signed(e) ? SV_INT : SV_UINT, (unsigned)sv_elem_size(e), SV_F_EXPLICIT);
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
    const char *q = sv_jr_element(r, p, e, &buf, true, &bad, name);
    if (!q) return NULL;
    if (e == SV_ELEM_F32) {
        float f;
        memcpy(&f, &buf, sizeof f);
        sv_value v = sv__make(SV_FLOAT, 4, SV_F_EXPLICIT);
        v.as.u = 0;
        v.as.f32 = f;
        *out = v; /* sv_f32(f) */
    } else {
        double d;
        memcpy(&d, &buf, sizeof d);
        sv_value v = sv__make(SV_FLOAT, 8, SV_F_EXPLICIT);
        v.as.f64 = d;
        *out = v;
    }
    return q;
}

static const char *bytes_form(jr *r, const char *p, const char *name, sv_value *out)
{
    if (p >= r->end || *p != '"') {
        sv_jr_type_error(r, p, name, "a base64 string");
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
    uint8_t *buf = sv_jr_alloc(r, room + 1, p);
    if (!buf) return NULL;
    size_t n = 0, bad = 0;
    if (!sv_base64_decode(text, len, buf, &n, &bad)) {
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
    buf[n] = 0; /* like every string and bytes value */
    sv_value v = sv__make(SV_BYTES, 0, 0);
    v.len = (uint32_t)n;
    v.as.bytes = buf;
    *out = v;
    return q + 1;
}

static bool literal_null(jr *r, const char *p)
{
    size_t avail = (size_t)(r->end - p), i = 0;
    while (i < 4 && i < avail && p[i] == "null"[i])
        i++;
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
    if (!sv_jr_is_number_start(p, r->end)) {
        sv_jr_type_error(r, p, name, "an unsigned integer or null");
        return NULL;
    }
    uint64_t u;
    bool bad = false;
    const char *q = sv_jr_element(r, p, SV_ELEM_U64, &u, true, &bad, name);
    if (q) *out = sv_ref(u);
    return q;
}

const char *sv_jr_class_value(jr *r, const char *p, sv_value *out)
{
    if (p < r->end && *p == '"') {
        jr_str s;
        const char *q = sv_jr_read_str(r, p, &s, false);
        if (!q) return NULL;
        return sv_jr_intern(r, &s, p, out) ? q : NULL;
    }
    if (!sv_jr_is_number_start(p, r->end)) {
        sv_jr_type_error(r, p, "$class",
                         "a class name (a string) or a class hash (an unsigned integer)");
        return NULL;
    }
    uint64_t u;
    bool bad = false;
    const char *q = sv_jr_element(r, p, SV_ELEM_U64, &u, true, &bad, "$class");
    if (q) *out = sv_uint(u);
    return q;
}

/* ---- the entry point --------------------------------------------------------------------- */

/* After the payload: whitespace, then the form's closing '}'. */
static const char *close_form(jr *r, const char *p, const char *name)
{
    WS_OR_NULL(p);
    if (p < r->end && *p == '}') return p + 1;
    if (p < r->end && *p == ',')
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "unexpected key after the payload of %s (expected '}')",
                   name);
    else
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected '}' after the payload of %s", name);
    return NULL;
}

const char *sv_jr_leaf_form(jr *r, const char *p, jr_form form, sv_value *out)
{
    const char *name = form_name(form);
    const char *q;
    switch (form.id) {
    case JF_INT: q = int_form(r, p, (sv_elem)form.elem, name, out); break;
    case JF_FLOAT: q = float_form(r, p, (sv_elem)form.elem, name, out); break;
    case JF_BYTES: q = bytes_form(r, p, name, out); break;
    case JF_UTF16:
        if (p >= r->end || *p != '"') {
            sv_jr_type_error(r, p, name, "a string");
            q = NULL;
        } else {
            q = sv_jr_string_value(r, p, out, true);
            if (q) *out = sv_with_flags(*out, SV_F_UTF16);
        }
        break;
    case JF_REF: q = ref_form(r, p, name, out); break;
    case JF_PACKED: q = sv_jr_packed_form(r, p, (sv_elem)form.elem, name, out); break;
    case JF_SHAPE:
        q = sv_jr_shape_form(r, p, (sv_tag)form.tag, name, out);
        return q ? close_form(r, q, name) : NULL; /* shape_form names its own paths */
    default:
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "internal error: %s is not a leaf form", name);
        return NULL;
    }
    if (!q) {
        sv_jr_path_name(r, name);
        return NULL;
    }
    return close_form(r, q, name);
}
