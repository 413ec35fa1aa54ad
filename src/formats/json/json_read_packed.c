/* The typed JSON reader: numbers inside "$" forms.
 *
 * Tuples ($vector3), packed arrays ($f32s, $packed_vector3) and the scalar
 * forms' numbers are converted here for their element type: a float32 is
 * rounded once, from the decimal to float32 (sv__json_jr_num_f32, never to a
 * double and then to a float), and an integer is range-checked for its
 * width. Plain decimals take a fast path straight from their digits.
 *
 * A shape's element type can be overridden by a "$elem" key that comes after
 * the payload. The payload is therefore converted with the shape's default
 * type while a conversion failure is only noted; if "$elem" names another
 * type, or something failed, the payload (whose syntax is known good by then)
 * is read again with the final type and its errors are reported. */
#include <string.h>

#include "core/value_internal.h"
#include "formats/json/json_read_internal.h"

#define WS_OR_NULL(p)                                                                              \
    do {                                                                                           \
        (p) = sv__json_jr_ws(r, (p));                                                              \
        if (!(p)) return NULL;                                                                     \
    } while (0)

/* Steps over the byte at p, then over whitespace. */
#define WS_OR_NULL_AFTER(p)                                                                        \
    do {                                                                                           \
        (p) = sv__json_jr_ws(r, (p) + 1);                                                          \
        if (!(p)) return NULL;                                                                     \
    } while (0)

/* At most this much of a token is quoted in a message. */
#define QUOTE_MAX 40
#define QUOTE(n)                                                                                   \
    (int)((n)->e - (n)->s > QUOTE_MAX ? QUOTE_MAX : (n)->e - (n)->s), (n)->s,                      \
        ((n)->e - (n)->s > QUOTE_MAX ? "..." : "")

/* ---- one number ------------------------------------------------------------------------- */

/* Stores an integer token that fits e (sv__json_jr_int_fits) as an e. */
static inline void store_int(const jr_num *n, sv_elem e, void *dst)
{
    jr_width x;
    switch (e) {
    case SV_ELEM_U8: x.u8 = (uint8_t)n->mag; break;
    case SV_ELEM_I8: x.i8 = (int8_t)sv__json_jr_int_of(n); break;
    case SV_ELEM_U16: x.u16 = (uint16_t)n->mag; break;
    case SV_ELEM_I16: x.i16 = (int16_t)sv__json_jr_int_of(n); break;
    case SV_ELEM_U32: x.u32 = (uint32_t)n->mag; break;
    case SV_ELEM_I32: x.i32 = (int32_t)sv__json_jr_int_of(n); break;
    case SV_ELEM_U64: x.u64 = n->mag; break;
    default: x.i64 = sv__json_jr_int_of(n); break;
    }
    memcpy(dst, &x, sv_elem_size(e));
}

static bool num_elem(jr *r, const jr_num *n, sv_elem e, void *dst, bool report)
{
    if (e == SV_ELEM_F32) {
        float f;
        if (sv__json_jr_num_f32(n, &f)) {
            memcpy(dst, &f, sizeof f);
            return true;
        }
        return report && sv__json_jr_fail(r, n->s, SV_ERR_RANGE,
                                          "%.*s%s is beyond the range of f32", QUOTE(n));
    }
    if (e == SV_ELEM_F64) {
        double d;
        if (sv__json_jr_num_f64(n, &d)) {
            memcpy(dst, &d, sizeof d);
            return true;
        }
        return report && sv__json_jr_fail(r, n->s, SV_ERR_RANGE,
                                          "%.*s%s is beyond the range of f64", QUOTE(n));
    }
    if (!n->is_int)
        return report && sv__json_jr_fail(r, n->s, SV_ERR_TYPE, "%.*s%s is not an integer (%s)",
                                          QUOTE(n), sv_elem_name(e));
    if (!sv__json_jr_int_fits(n, e))
        return report && sv__json_jr_fail(r, n->s, SV_ERR_RANGE, "%.*s%s is out of range for %s",
                                          QUOTE(n), sv_elem_name(e));
    store_int(n, e, dst);
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
    if (sv__json_jr_str_is(s, "nan")) {
        bits = f32 ? 0x7fc00000u : UINT64_C(0x7ff8000000000000);
    } else if (sv__json_jr_str_is(s, "inf")) {
        bits = f32 ? 0x7f800000u : UINT64_C(0x7ff0000000000000);
    } else if (sv__json_jr_str_is(s, "-inf")) {
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
        return report && sv__json_jr_fail(r, at, SV_ERR_SYNTAX,
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

/* The common element: a plain decimal of at most 19 digits without an
 * exponent, converted straight from its digits. Returns the pointer after
 * it, or NULL when the general path must decide (anything else, and every
 * value that does not fit: that path reports or defers it). */
static SV_ALWAYS_INLINE const char *fast_element(const char *p, const char *end, sv_elem e,
                                                 void *dst)
{
    if (p >= end) return NULL;
    const char *s = p;
    jr_dec dec;
    p = sv__json_jr_decimal_careful(p, end, &dec);
    if (!p) return NULL;
    size_t nf = dec.nf;
    jr_num n = {s, p, dec.m, -(int64_t)nf, dec.m, dec.neg, nf == 0, false, false};
    if (e == SV_ELEM_F32) {
        float f;
        if (!sv__json_jr_num_f32(&n, &f)) return NULL;
        memcpy(dst, &f, sizeof f);
        return p;
    }
    if (e == SV_ELEM_F64) {
        double d;
        if (!sv__json_jr_num_f64(&n, &d)) return NULL;
        memcpy(dst, &d, sizeof d);
        return p;
    }
    if (nf || !sv__json_jr_int_fits(&n, e)) return NULL;
    store_int(&n, e, dst);
    return p;
}

/* An integer written as a string ("9007199254740993"): the form the writer
 * uses for integers that a double cannot hold (docs/json.md, "Integers
 * beyond 2^53"), accepted for every integer element. The text must be an
 * integer literal as JSON writes it, -?(0|[1-9][0-9]*), and fit e; at is the
 * string's opening quote. */
static bool string_int(jr *r, const char *at, const jr_str *s, sv_elem e, void *dst, bool report)
{
    const char *t = s->s, *end = s->s + s->len;
    jr_num n = {t, end, 0, 0, 0, false, true, false, false};
    if (t < end && *t == '-') {
        n.neg = true;
        t++;
    }
    bool ok = t < end && (*t != '0' || t + 1 == end);
    for (const char *d = t; ok && d < end; d++) {
        if (*d < '0' || *d > '9') {
            ok = false;
        } else if (!n.big) {
            unsigned digit = (unsigned)(*d - '0');
            if (n.mag > (UINT64_MAX - digit) / 10)
                n.big = true;
            else
                n.mag = n.mag * 10 + digit;
        }
    }
    if (!ok)
        return report && sv__json_jr_fail(r, at, SV_ERR_TYPE, "\"%.*s%s\" is not an integer (%s)",
                                          QUOTE(&n), sv_elem_name(e));
    if (!sv__json_jr_int_fits(&n, e))
        return report && sv__json_jr_fail(r, at, SV_ERR_RANGE, "\"%.*s%s\" is out of range for %s",
                                          QUOTE(&n), sv_elem_name(e));
    store_int(&n, e, dst);
    return true;
}

/* One number (or special float string, or integer string) at p for elem, stored at dst.
 * Syntax errors always fail. A value that does not suit elem fails with an
 * error if report; otherwise it sets *bad, and once *bad is set nothing more
 * is converted (the caller reads the payload again to report it). */
const char *sv__json_jr_element(jr *r, const char *p, sv_elem e, void *dst, bool report, bool *bad,
                                const char *name)
{
    bool convert = report || !*bad;
    if (convert && sv__json_jr_is_number_start(p, r->end)) {
        const char *q = fast_element(p, r->end, e, dst);
        if (q) return q;
    }
    if (sv__json_jr_is_number_start(p, r->end)) {
        jr_num n;
        const char *q = sv__json_jr_scan_number(r, p, &n);
        if (!q) return NULL;
        if (convert && !num_elem(r, &n, e, dst, report)) {
            if (report) return NULL;
            *bad = true;
        }
        return q;
    }
    if (p < r->end && *p == '"') {
        jr_str s;
        const char *q = sv__json_jr_read_str(r, p, &s, false);
        if (!q) return NULL;
        if (!convert) return q;
        bool ok;
        if (e == SV_ELEM_F32 || e == SV_ELEM_F64) {
            ok = special_float(r, p, &s, e, dst, report);
        } else {
            ok = string_int(r, p, &s, e, dst, report);
        }
        if (!ok) {
            if (report) return NULL;
            *bad = true;
        }
        return q;
    }
    sv__json_jr_type_error(r, p, name, "a number");
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
    return sv__json_jr_fail(r, p, SV_ERR_DEPTH, "nesting is deeper than the limit of %u levels",
                            (unsigned)r->lim.max_depth);
}

/* Room for scalar n (of es bytes) in r->nbuf. */
static bool room(jr *r, size_t n, size_t es, const char *at)
{
    if (n >= UINT32_MAX)
        return sv__json_jr_fail(r, at, SV_ERR_LIMIT, "more than %lu numbers in one packed array",
                                (unsigned long)UINT32_MAX);
    if ((n + 1) * es <= r->ncap) return true;
    return sv__json_jr_reserve(r, (void **)&r->nbuf, &r->ncap, (n + 1) * es, at);
}

/* One item of a packed shape: '[' then sh->per numbers then ']'. */
static const char *item(jr *r, const char *p, const jr_shape *sh, sv_elem e, bool report, bool *bad,
                        size_t *n)
{
    const char *end = r->end;
    size_t es = sv_elem_size(e);
    if (p >= end || *p != '[') {
        sv__json_jr_type_error(r, p, sh->name, "arrays of numbers");
        return NULL;
    }
    if (!depth_ok(r, p, r->ftop + 3)) return NULL;
    WS_OR_NULL_AFTER(p);
    for (unsigned k = 0;; k++) {
        if (k == sh->per) {
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "an item of %s has %u numbers", sh->name,
                             sh->per);
            return NULL;
        }
        if (!room(r, *n, es, p)) return NULL;
        const char *q = sv__json_jr_element(r, p, e, r->nbuf + *n * es, report, bad, sh->name);
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
                sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "an item of %s has %u numbers, not %u",
                                 sh->name, sh->per, k + 1);
                return NULL;
            }
            return p + 1;
        }
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected ',' or ']' after a number");
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
        sv__json_jr_type_error(r, p, sh->name, "an array");
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
                sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "%s takes %u numbers", sh->name, sh->per);
                q = NULL;
            } else {
                if ((n + 1) * es > r->ncap && !room(r, n, es, p)) {
                    q = NULL;
                } else {
                    q = NULL;
                    if (!*bad) q = fast_element(p, end, e, r->nbuf + n * es);
                    if (!q)
                        q = sv__json_jr_element(r, p, e, r->nbuf + n * es, report, bad, sh->name);
                }
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
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected ',' or ']' in the payload of %s",
                             sh->name);
            return NULL;
        }
    }
    if (sh->exact && n != sh->per) {
        sv__json_jr_fail(r, p - 1, SV_ERR_SYNTAX, "%s takes %u numbers, not %zu", sh->name, sh->per,
                         n);
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
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected \"$elem\" after ','");
        return NULL;
    }
    p = sv__json_jr_read_str(r, p, &k, false);
    if (!p) return NULL;
    if (!sv__json_jr_str_is(&k, "$elem")) {
        sv__json_jr_fail(r, kq, SV_ERR_SYNTAX, "only \"$elem\" may follow the payload of %s", name);
        return NULL;
    }
    WS_OR_NULL(p);
    if (p >= end || *p != ':') {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected ':' after an object key");
        return NULL;
    }
    WS_OR_NULL_AFTER(p);
    const char *vq = p;
    if (p >= end || *p != '"') {
        sv__json_jr_type_error(r, p, "$elem", "an element type name");
        sv__json_jr_path_name(r, "$elem");
        return NULL;
    }
    p = sv__json_jr_read_str(r, p, &k, false);
    if (!p) {
        sv__json_jr_path_name(r, "$elem");
        return NULL;
    }
    *e = sv_elem_by_name(k.s, k.len);
    if (*e == SV_ELEM_NONE) {
        sv__json_jr_fail(
            r, vq, SV_ERR_SYNTAX,
            "unknown element type \"%.*s\" (u8, i8, u16, i16, u32, i32, u64, i64, f32 or f64)",
            (int)(k.len > QUOTE_MAX ? QUOTE_MAX : k.len), k.s);
        sv__json_jr_path_name(r, "$elem");
        return NULL;
    }
    return p;
}

/* A TUPLE or PACKED value of count scalars of e from r->nbuf. */
static bool numbers_value(jr *r, sv_kind kind, sv_elem e, sv_tag tag, size_t count, const char *at,
                          sv_value *out)
{
    size_t bytes = count * sv_elem_size(e); /* count < UINT32_MAX: no overflow */
    void *data = sv__json_jr_alloc(r, bytes, at);
    if (!data) return false;
    if (bytes) memcpy(data, r->nbuf, bytes);
    sv_value v = sv__core_make(kind, e, 0);
    v.tag = (uint16_t)tag;
    v.len = (uint32_t)count;
    v.as.data = data;
    *out = v;
    return true;
}

const char *sv__json_jr_shape_form(jr *r, const char *p, sv_tag tag, const char *name,
                                   sv_value *out)
{
    sv_kind kind = sv_tag_kind(tag);
    jr_shape sh = {name, sv_tag_scalars(tag), kind == SV_PACKED, kind == SV_TUPLE};
    sv_elem def = sv_tag_default_elem(tag), e = def;
    bool bad = false;
    size_t count = 0;
    const char *q = numbers(r, p, &sh, def, false, &bad, &count);
    if (!q) {
        sv__json_jr_path_name(r, name);
        return NULL;
    }
    q = elem_key(r, q, name, &e);
    if (!q) return NULL;
    if (e != def || bad) {
        bad = false;
        if (!numbers(r, p, &sh, e, true, &bad, &count)) {
            sv__json_jr_path_name(r, name);
            return NULL;
        }
    }
    return numbers_value(r, kind, e, tag, count, p, out) ? q : NULL;
}

const char *sv__json_jr_packed_form(jr *r, const char *p, sv_elem e, const char *name,
                                    sv_value *out)
{
    jr_shape sh = {name, 0, false, false};
    bool bad = false;
    size_t count = 0;
    const char *q = numbers(r, p, &sh, e, true, &bad, &count);
    if (!q || !numbers_value(r, SV_PACKED, e, SV_TAG_NONE, count, p, out)) return NULL;
    return q;
}
