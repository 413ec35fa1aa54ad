/* The typed JSON reader's fast paths (included by json_read.c only).
 *
 * Each function here handles the common shape of something in one pass and
 * returns NULL, having changed nothing (no error recorded, no arena memory
 * taken), when the text is anything else: then the general code, which
 * knows every rule and error message, reads it from the same point. So a
 * fast path only has to be right about what it accepts. They read:
 *   - plain decimals (at most 19 digits, no exponent), converted from their
 *     digits: by one IEEE division when both operands are exact (so the
 *     quotient is correctly rounded), longer digits to float64 by a 128-bit
 *     multiply (jr_lemire), the rare rest through numconv.h;
 *   - the key of a "$" form, through the reader's form cache;
 *   - the payload of the common one-key forms ($f32, $u8, $ref, $bytes,
 *     and tuples of the shape's own element type such as $vector3),
 *     straight into the value and its arena storage. */
#ifndef SV_JSON_READ_FAST_H
#define SV_JSON_READ_FAST_H

#include <float.h>

#include "core/base64.h"
#include "core/eisel_lemire.h"
#include "formats/json/json_read_internal.h"
#include "core/numconv.h"
#include "core/pow10_table.h"

/* ---- plain decimals --------------------------------------------------------------------- */

#if SV_SWAR
/* High bit of each byte of w below '0' (borrow) or above '9' (+0x46 reaches
 * 0x80); only the lowest flagged byte is exact, which is all we look at. */
static inline uint64_t jr_nondigits(uint64_t w)
{
    return ((w - UINT64_C(0x3030303030303030)) | (w + UINT64_C(0x4646464646464646))) &
           UINT64_C(0x8080808080808080);
}

/* The value of the first n digits (1 to 8) of w: shifted to the top bytes,
 * so that zeros come in front of them. */
static inline uint64_t jr_digits_n(uint64_t w, unsigned n)
{
    return jr_eight_digits((w - UINT64_C(0x3030303030303030)) << (8 * (8 - n)));
}
#endif

/* Scans -?(0|[1-9][0-9]*)(\.[0-9]+)? of at most 19 digits in all, followed by
 * no exponent, at p (below end). Returns the end of the token, or NULL for
 * anything else (longer, with an exponent, or not a number at all).
 *
 * With 40 bytes of input left, which covers the longest such token and the
 * 8-byte loads past its end, there is no bounds check. The integer digits
 * are one load (up to 7 of them; more go the careful way). When a point
 * follows them, the integer digits move up one byte over it and a '0'
 * takes byte 0, so that the digits on both sides make one run: "-18.0339"
 * is read as the run 0180339 (k = 2 integer digits, 4 after the point), 8
 * digits per load. Near the end of the input, sv__json_jr_decimal_careful. */
static SV_ALWAYS_INLINE const char *jr_decimal(const char *p, const char *end, jr_dec *d)
{
#if SV_SWAR
    static const uint64_t pow10[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};
    if (end - p >= 40) {
        bool neg = *p == '-';
        const char *s = p + neg;
        uint64_t a = sv__core_load64(s), na = jr_nondigits(a);
        if (!na) goto careful; /* 8 or more integer digits */
        unsigned k = (unsigned)__builtin_ctzll(na) >> 3;
        /* (&, not &&: whether k > 1 is a coin toss for the branch predictor) */
        if (k == 0 || ((k > 1) & (*s == '0'))) return NULL;
        if (s[k] != '.') { /* an integer */
            if ((s[k] | 0x20) == 'e') return NULL;
            d->m = jr_digits_n(a, k);
            d->nf = 0;
            d->neg = neg;
            return s + k;
        }
        uint64_t keep = jr_keep(~UINT64_C(0), k + 1); /* bytes 0..k */
        a = ((a << 8) & keep) | (a & ~keep) | '0';
        unsigned e; /* the run's length, the '0' in front included */
        uint64_t m;
        if ((na = jr_nondigits(a)) != 0) {
            e = (unsigned)__builtin_ctzll(na) >> 3; /* k + 1 to 7 */
            m = jr_digits_n(a, e);
        } else {
            uint64_t b = sv__core_load64(s + 8), nb = jr_nondigits(b);
            m = jr_digits_n(a, 8);
            if (!nb) {
                uint64_t c = sv__core_load64(s + 16), nc = jr_nondigits(c);
                if (!nc) return NULL; /* far more than 19 digits */
                m = m * 100000000 + jr_digits_n(b, 8);
                b = c;
                nb = nc;
                e = 16;
            } else {
                e = 8;
            }
            unsigned j = (unsigned)__builtin_ctzll(nb) >> 3;
            if (j) m = m * pow10[j] + jr_digits_n(b, j);
            e += j;
        }
        /* e - 1 digits, e - k - 1 of them after the point (m wraps past 19
         * digits, but then it is not used) */
        if (e == k + 1 || e > 20 || (s[e] | 0x20) == 'e') return NULL;
        d->m = m;
        d->nf = e - k - 1;
        d->neg = neg;
        return s + e;
    }
careful:;
#endif
    /* through a copy, so that d never escapes and stays in registers */
    jr_dec c = {0, 0, false};
    const char *q = sv__json_jr_decimal_careful(p, end, &c);
    *d = c;
    return q;
}

#if FLT_EVAL_METHOD == 0
/* Powers of ten that doubles (up to 10^22) and floats (up to 10^10) hold
 * exactly. */
static const double jr_exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const float jr_exact_pow10_f32[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                             1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
#define JR_EXACT_DIV 1
#else
#define JR_EXACT_DIV 0
#endif

#if JR_EXACT_DIV
#define JR_LEMIRE 1
/* The correctly rounded m / 10^nf for 2^53 < m < 10^19 and 1 <= nf <= 19
 * by the Eisel-Lemire step (eisel_lemire.h, inlined here with the double
 * format folded in); false when that step leaves it open (a product within
 * the table's error of a halfway point: sv__core_decimal_to_f64 decides). */
static SV_ALWAYS_INLINE bool jr_lemire(uint64_t m, unsigned nf, double *out)
{
    uint64_t bits, low;
    if (sv__core_eisel_lemire(m, -(int)nf, &sv_binfmt_f64, &bits, &low) != SV_EL_DONE) return false;
    memcpy(out, &bits, sizeof bits);
    return true;
}
#else
#define JR_LEMIRE 0
#endif

/* The float64 nearest to a decimal. An integer up to 2^53 and 10^nf (nf <=
 * 19) are exact doubles, so one IEEE division is the correctly rounded
 * quotient (Clinger's fast path); longer digits with 5 or more of them after
 * digits go to jr_lemire, the rest to sv__core_decimal_to_f64. False only when
 * that cannot decide from 19 digits (then the token is read in full by the
 * general path). */
static SV_ALWAYS_INLINE bool jr_dec_f64(uint64_t m, unsigned nf, bool neg, double *out)
{
    double x;
#if JR_EXACT_DIV
    if (m <= (UINT64_C(1) << 53)) {
        x = (double)m / jr_exact_pow10[nf];
    } else
#endif
#if JR_LEMIRE
        if (!jr_lemire(m, nf, &x))
#endif
        if (!sv__core_decimal_to_f64(m, -(int64_t)nf, false, false, &x)) return false;
    /* the sign as a bit, not a branch: it is as likely one way as the other */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits ^= (uint64_t)neg << 63;
    memcpy(out, &bits, sizeof bits);
    return true;
}

/* The float32 nearest to a decimal, rounded once from the decimal (as
 * sv__json_jr_num_f32 does). Up to 2^24 over 10^10, both operands are exact floats
 * and one float division rounds correctly. Up to 2^53, the correctly rounded
 * double d of the decimal x lies on the same side as x of every midpoint
 * between adjacent floats (midpoints are doubles and rounding is monotonic),
 * unless d is such a midpoint: its 29 bits below float precision are 1 and
 * 28 zeros; then, and outside the normal float range, false. */
static inline bool jr_dec_f32(const jr_dec *d, float *out)
{
#if JR_EXACT_DIV
    float f;
    if (d->m == 0) {
        f = 0.0f;
    } else if (d->m <= (UINT64_C(1) << 24) && d->nf <= 10) {
        f = (float)d->m / jr_exact_pow10_f32[d->nf];
    } else if (d->m <= (UINT64_C(1) << 53)) {
        double x = (double)d->m / jr_exact_pow10[d->nf];
        uint64_t bits;
        memcpy(&bits, &x, sizeof bits);
        if (!(x >= 0x1p-126 && x <= (double)FLT_MAX) ||
            (bits & UINT64_C(0x1FFFFFFF)) == UINT64_C(0x10000000))
            return false;
        f = (float)x;
    } else {
        return false;
    }
    uint32_t fb; /* the sign without a branch, as in jr_dec_f64 */
    memcpy(&fb, &f, sizeof fb);
    fb ^= (uint32_t)d->neg << 31;
    memcpy(out, &fb, sizeof fb);
    return true;
#else
    (void)d;
    (void)out;
    return false;
#endif
}

/* Integer element types: the largest non-negative value, and the width in
 * bytes (sv__json_jr_elem_signed says which are signed). */
static const uint64_t jr_elem_max[SV_ELEM_COUNT] = {0,         UINT8_MAX,  INT8_MAX,  UINT16_MAX,
                                                    INT16_MAX, UINT32_MAX, INT32_MAX, UINT64_MAX,
                                                    INT64_MAX, 0,          0};
static const uint8_t jr_elem_width[SV_ELEM_COUNT] = {0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

/* An integer decimal (nf == 0) that fits the integer type e: its union word
 * (two's complement, sign-extended to 64 bits) in *word. */
static inline bool jr_dec_int(const jr_dec *d, sv_elem e, uint64_t *word)
{
    uint64_t max = jr_elem_max[e];
    if (d->nf) return false;
    if (sv__json_jr_elem_signed(e)) {
        if (d->m > max + d->neg) return false;
    } else if (d->neg ? d->m != 0 : d->m > max) {
        return false;
    }
    *word = d->neg ? 0 - d->m : d->m;
    return true;
}

/* ---- arena room ---------------------------------------------------------------------------- */

/* The free space of the reader's current arena block when it has n bytes
 * (rounded to 8), else NULL. A fast path writes there and then takes the
 * room (r->bump.cur += jr_round8(n)) only once it has succeeded. */
static inline size_t jr_round8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static inline char *jr_room(jr *r, size_t n)
{
    return (size_t)(r->bump.end - r->bump.cur) >= jr_round8(n) && n <= SIZE_MAX - 7
               ? (char *)r->bump.cur
               : NULL;
}

/* ---- form keys -------------------------------------------------------------------------- */

#if SV_SWAR
/* The index of the first '"' in the 16 bytes w0, w1 (16 when none). The
 * zero-byte test (t - 1) & ~t & 0x80 is exact for the lowest zero byte of t
 * (a borrow only starts at a zero byte and only runs upwards). */
static inline unsigned jr_quote16(uint64_t w0, uint64_t w1)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t t = w0 ^ (ones * '"'), z = (t - ones) & ~t & highs;
    if (z) return (unsigned)__builtin_ctzll(z) >> 3;
    t = w1 ^ (ones * '"');
    z = (t - ones) & ~t & highs;
    if (z) return 8 + ((unsigned)__builtin_ctzll(z) >> 3);
    return 16;
}

/* The form cache's key for a name of n bytes (1 to 15) at s, followed by its
 * closing quote: the n + 1 bytes as two zero-padded words (16 bytes must be
 * readable at s). */
static inline jr_form_slot *jr_form_slot_of(jr *r, const char *s, unsigned n, uint64_t *w0,
                                            uint64_t *w1)
{
    *w0 = jr_keep(sv__core_load64(s), n + 1);
    *w1 = n + 1 > 8 ? jr_keep(sv__core_load64(s + 8), n + 1 - 8) : 0;
    uint64_t h = (*w0 ^ (*w1 * UINT64_C(0x9e3779b97f4a7c15))) * UINT64_C(0xbf58476d1ce4e5b9);
    return &r->forms[h >> (64 - JR_FORM_CACHE_BITS)];
}

/* The form whose key "$..." starts at p (the opening quote), when the form
 * cache knows it: *q gets the position after the key's closing quote. The
 * cache only holds names read in full and unescaped before, so a hit is a
 * valid key. Needs 18 readable bytes at p. */
static inline const jr_form_slot *jr_form_key(jr *r, const char *p, const char **q)
{
    unsigned n = jr_quote16(sv__core_load64(p + 2), sv__core_load64(p + 10));
    if (n == 0 || n >= 16) return NULL;
    uint64_t w0, w1;
    const jr_form_slot *slot = jr_form_slot_of(r, p + 2, n, &w0, &w1);
    if (slot->w0 != w0 || slot->w1 != w1) return NULL;
    *q = p + 3 + n;
    return slot;
}
#endif

/* ---- one-key forms ------------------------------------------------------------------------ */

/* {"$f32": 1.5}, {"$f64": 1.5} from the payload at p to the closing '}'. */
static inline const char *jr_float_fast(jr *r, const char *p, sv_elem e, sv_value *out)
{
    const char *end = r->end;
    jr_dec d;
    if (p >= end || !(p = jr_decimal(p, end, &d)) || p >= end || *p != '}') return NULL;
    if (e == SV_ELEM_F32) {
        float f;
        if (!jr_dec_f32(&d, &f)) return NULL;
        *out = jr_value(jr_hdr(SV_FLOAT, SV_F_EXPLICIT, 4, 0, 0), jr_f32_word(f));
    } else {
        double x;
        if (!jr_dec_f64(d.m, d.nf, d.neg, &x)) return NULL;
        uint64_t w;
        memcpy(&w, &x, sizeof w);
        *out = jr_value(jr_hdr(SV_FLOAT, SV_F_EXPLICIT, 8, 0, 0), w);
    }
    return p + 1;
}

/* {"$u8": 255} ... {"$i64": -5}, and {"$ref": 12} (e is SV_ELEM_NONE). */
static inline const char *jr_int_fast(jr *r, const char *p, sv_elem e, sv_value *out)
{
    const char *end = r->end;
    jr_dec d;
    uint64_t w;
    if (p >= end || !(p = jr_decimal(p, end, &d)) || p >= end || *p != '}') return NULL;
    if (e == SV_ELEM_NONE) { /* a reference: any uint64 */
        if (!jr_dec_int(&d, SV_ELEM_U64, &w)) return NULL;
        *out = jr_value(jr_hdr(SV_REF, 0, 0, 0, 0), w);
        return p + 1;
    }
    if (!jr_dec_int(&d, e, &w)) return NULL;
    *out = jr_value(jr_hdr(sv__json_jr_elem_signed(e) ? SV_INT : SV_UINT, SV_F_EXPLICIT,
                           jr_elem_width[e], 0, 0),
                    w);
    return p + 1;
}

/* {"$bytes": "AAEC"}: base64 without escapes, decoded straight into the
 * arena (the limits are those of the general path). */
static inline const char *jr_bytes_fast(jr *r, const char *p, sv_value *out)
{
    const char *end = r->end;
    if (p >= end || *p != '"') return NULL;
    const char *s = p + 1, *q = s;
#if SV_SWAR
    while (end - q >= 8) {
        uint64_t m = jr_special_bytes(sv__core_load64(q));
        if (m) {
            q += __builtin_ctzll(m) >> 3;
            goto found;
        }
        q += 8;
    }
#endif
    while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20 &&
           (unsigned char)*q < 0x80)
        q++;
#if SV_SWAR
found:
#endif
    if (end - q < 2 || q[0] != '"' || q[1] != '}') return NULL;
    size_t len = (size_t)(q - s), room = len / 4 * 3, n, bad;
    if ((room > 2 && room - 2 > r->lim.max_string) || room > UINT32_MAX) return NULL;
    uint8_t *buf = (uint8_t *)jr_room(r, room + 1);
    if (!buf || !sv__core_base64_decode(s, len, buf, &n, &bad) || n > r->lim.max_string)
        return NULL;
    buf[n] = 0;
    r->bump.cur += jr_round8(room + 1);
    *out = jr_value(jr_hdr(SV_BYTES, 0, 0, 0, n), jr_ptr_word(buf));
    return q + 2;
}

/* {"$vector3": [1.5, 2.0, 3.0]}: a tuple of the shape's own element type
 * (f32 or i32), each number converted once, straight into the arena.
 *
 * A number here is at most 21 bytes (a sign, 19 digits and a point: more go
 * the general way) and ", " follows it, so the whole tuple up to its "]}"
 * fits in 23 bytes a number and 3 more. With that much text left, every
 * byte looked at below is inside it, and the loop checks no bounds itself. */
static inline const char *jr_tuple_fast(jr *r, const char *p, const jr_form *fm, sv_value *out)
{
    const char *end = r->end;
    sv_elem e = (sv_elem)fm->elem;
    unsigned per = fm->per;
    size_t bytes = jr_round8((size_t)per * 4);
    /* the form's '{' is counted already; its '[' is one level more */
    if (!fm->tuple || per == 0 || r->ftop + 2 > r->lim.max_depth ||
        (e != SV_ELEM_F32 && e != SV_ELEM_I32) || (size_t)(r->bump.end - r->bump.cur) < bytes ||
        p >= end || (size_t)(end - p) < (size_t)per * 23 + 3 || *p != '[')
        return NULL;
    uint32_t *dst = (uint32_t *)(void *)r->bump.cur;
    p++;
    for (unsigned i = 0;;) {
        jr_dec d;
        if (!(p = jr_decimal(p, end, &d))) return NULL;
        if (e == SV_ELEM_F32) {
            float f;
            if (!jr_dec_f32(&d, &f)) return NULL;
            memcpy(&dst[i], &f, sizeof f);
        } else {
            uint64_t w;
            if (!jr_dec_int(&d, SV_ELEM_I32, &w)) return NULL;
            dst[i] = (uint32_t)w;
        }
        if (++i == per) break;
        if (*p != ',') return NULL;
        p += 1 + (p[1] == ' '); /* pretty text: ", " */
    }
    if (p[0] != ']' || p[1] != '}') return NULL; /* "$elem" and the rest */
    r->bump.cur += bytes;
    *out = jr_value(jr_hdr(SV_TUPLE, 0, e, fm->tag, per), jr_ptr_word(dst));
    return p + 2;
}

/* The payload of a one-key form at p, up to its closing '}' included. */
static SV_ALWAYS_INLINE const char *jr_leaf_fast(jr *r, const char *p, const jr_form *fm,
                                                 sv_value *out)
{
    switch (fm->id) {
    case JF_FLOAT: return jr_float_fast(r, p, (sv_elem)fm->elem, out);
    case JF_INT: return jr_int_fast(r, p, (sv_elem)fm->elem, out);
    case JF_REF: return jr_int_fast(r, p, SV_ELEM_NONE, out);
    case JF_BYTES: return jr_bytes_fast(r, p, out);
    case JF_SHAPE: return jr_tuple_fast(r, p, fm, out);
    default: return NULL;
    }
}

#endif
