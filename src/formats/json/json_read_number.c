/* The typed JSON reader: number tokens.
 *
 * A token is checked against RFC 8259 §6 (-?(0|[1-9][0-9]*)(\.[0-9]+)?
 * ([eE][+-]?[0-9]+)?) while its digits are gathered into a mantissa, so the
 * conversion (numconv.h) does not read the text again in the common case.
 * Digits are taken 8 at a time where the input allows. Short integers never
 * come here: json_read.c converts them inline. */
#include <float.h>
#include <math.h>

#include "core/value_internal.h"
#include "core/num_scan.h"
#include "core/numconv.h"
#include "formats/json/json_read_internal.h"

/* What a failed scan says, where it failed. */
static const char *fault_text(sv_num_fault f)
{
    switch (f) {
    case SV_NUM_LEADING_ZERO: return "leading zeros are not allowed";
    case SV_NUM_NO_FRACTION: return "expected a digit after '.'";
    case SV_NUM_NO_EXPONENT: return "expected a digit in the exponent";
    default: return "expected a digit after '-'";
    }
}

/* The careful scan, for tokens of more than 19 digits: it keeps the first 19
 * significant ones, notes whether a dropped one was non-zero and tracks the
 * integer magnitude while it fits. */
static const char *scan_long(jr *r, const char *p, jr_num *n)
{
    sv_num_scan s;
    const char *e = sv__core_num_scan_token(p, r->end, &s);
    if (!e) {
        sv__json_jr_fail(r, s.fault_at, SV_ERR_SYNTAX, "%s", fault_text(s.fault));
        return NULL;
    }
    n->s = p;
    n->e = e;
    n->mant = s.mant;
    n->exp10 = s.exp10;
    n->mag = s.mag;
    n->neg = s.neg;
    n->is_int = s.is_int;
    n->big = s.big;
    n->truncated = s.truncated;
    return e;
}

const char *sv__json_jr_scan_number(jr *r, const char *p, jr_num *n)
{
    /* One pass that gathers every digit into a uint64: exact up to 19
     * digits (leading zeros included), which is nearly every real number;
     * longer tokens are scanned again carefully. */
    const char *end = r->end, *s = p;
    bool neg = *p == '-';
    p += neg;
    const char *ds = p;
    uint64_t m = 0;
    p = jr_take_digits(p, end, &m);
    size_t digits = (size_t)(p - ds);
    if (digits == 0) {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "%s", fault_text(SV_NUM_NO_DIGIT));
        return NULL;
    }
    if (digits > 1 && *ds == '0') {
        sv__json_jr_fail(r, ds + 1, SV_ERR_SYNTAX, "%s", fault_text(SV_NUM_LEADING_ZERO));
        return NULL;
    }
    bool is_int = true;
    size_t frac = 0;
    if (p < end && *p == '.') {
        is_int = false;
        const char *fs = ++p;
        p = jr_take_digits(p, end, &m);
        frac = (size_t)(p - fs);
        if (frac == 0) {
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "%s", fault_text(SV_NUM_NO_FRACTION));
            return NULL;
        }
    }
    int64_t e = 0;
    if (p < end && (*p | 0x20) == 'e') {
        is_int = false;
        p++;
        bool eneg = false;
        if (p < end && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            p++;
        }
        if (p >= end || !sv__core_num_is_digit(p)) {
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "%s", fault_text(SV_NUM_NO_EXPONENT));
            return NULL;
        }
        p = sv__core_num_exp_digits(p, end, &e);
        if (eneg) e = -e;
    }
    if (digits + frac > 19) return scan_long(r, s, n);
    n->s = s;
    n->e = p;
    n->mant = m;
    n->exp10 = e - (int64_t)frac;
    n->mag = m;
    n->neg = neg;
    n->is_int = is_int;
    n->big = false;
    n->truncated = false;
    return p;
}

const char *sv__json_jr_decimal_careful(const char *p, const char *end, jr_dec *d)
{
    bool neg = *p == '-';
    p += neg;
    const char *ds = p;
    uint64_t m = 0;
    p = jr_take_digits(p, end, &m);
    size_t nd = (size_t)(p - ds), nf = 0;
    if (nd == 0 || nd > 19 || (nd > 1 && *ds == '0')) return NULL;
    if (p < end && *p == '.') {
        const char *fs = ++p;
        p = jr_take_digits(p, end, &m);
        nf = (size_t)(p - fs);
        if (nf == 0 || nd + nf > 19) return NULL;
    }
    if (p < end && (*p | 0x20) == 'e') return NULL;
    d->m = m;
    d->nf = (unsigned)nf;
    d->neg = neg;
    return p;
}

bool sv__json_jr_num_f64(const jr_num *n, double *out)
{
    double d;
    if (n->mant == 0) {
        d = 0.0; /* every digit was zero: the exponent does not matter */
    } else if (!sv__core_decimal_to_f64(n->mant, n->exp10, false, n->truncated, &d) &&
               !sv__core_parse_f64(n->s + n->neg, (size_t)(n->e - n->s) - n->neg, &d)) {
        return false;
    }
    if (isinf(d)) return false;
    *out = n->neg ? -d : d;
    return true;
}

#if FLT_EVAL_METHOD == 0
static const float exact_pow10_f32[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                          1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
#endif

bool sv__json_jr_num_f32(const jr_num *n, float *out)
{
    float f;
    if (n->mant == 0) {
        f = 0.0f;
        *out = n->neg ? -f : f;
        return true;
    }
#if FLT_EVAL_METHOD == 0
    /* Both operands exact floats, one IEEE operation: correctly rounded. */
    if (!n->truncated && n->mant <= (UINT64_C(1) << 24) && n->exp10 >= -10 && n->exp10 <= 10) {
        f = (float)n->mant;
        f = n->exp10 < 0 ? f / exact_pow10_f32[-n->exp10] : f * exact_pow10_f32[n->exp10];
        *out = n->neg ? -f : f;
        return true;
    }
    /* Through the correctly rounded double d of the decimal x. Every midpoint
     * m between two adjacent floats is a double, and rounding to double is
     * monotonic, so x < m gives d <= m and x > m gives d >= m: unless d is
     * itself such a midpoint, d lies on the same side of every midpoint as
     * x does, and rounding d to float gives the float nearest to x. In the
     * normal float range a double is a midpoint when its 29 fraction bits
     * below float precision are exactly 1 followed by 28 zeros. Otherwise,
     * and outside that range, sv__core_parse_f32 reads the text itself. */
    double d;
    if (sv__core_decimal_to_f64(n->mant, n->exp10, false, n->truncated, &d) && d >= 0x1p-126 &&
        d <= (double)FLT_MAX) {
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        if ((bits & UINT64_C(0x1FFFFFFF)) != UINT64_C(0x10000000)) {
            f = (float)d;
            *out = n->neg ? -f : f;
            return true;
        }
    }
#endif
    return sv__core_parse_f32(n->s, (size_t)(n->e - n->s), out);
}

bool sv__json_jr_num_value(jr *r, const jr_num *n, sv_value *out)
{
    sv_value v;
    if (n->is_int && !n->big) {
        if (!n->neg) {
            v = sv__core_make(n->mag <= (uint64_t)INT64_MAX ? SV_INT : SV_UINT, 8, 0);
            v.as.u = n->mag;
            *out = v;
            return true;
        }
        if (n->mag <= (uint64_t)INT64_MAX + 1) {
            v = sv__core_make(SV_INT, 8, 0);
            v.as.i = n->mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)n->mag;
            *out = v;
            return true;
        }
    }
    /* Fractions, exponents and integers beyond int64/uint64: float64. */
    double d;
    if (!sv__json_jr_num_f64(n, &d)) {
        size_t len = (size_t)(n->e - n->s);
        return sv__json_jr_fail(r, n->s, SV_ERR_RANGE,
                                "number %.*s%s is beyond the range of float64",
                                (int)(len > 40 ? 40 : len), n->s, len > 40 ? "..." : "");
    }
    v = sv__core_make(SV_FLOAT, 8, 0);
    v.as.f64 = d;
    *out = v;
    return true;
}
