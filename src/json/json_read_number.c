/* The typed JSON reader: number tokens.
 *
 * A token is checked against RFC 8259 §6 (-?(0|[1-9][0-9]*)(\.[0-9]+)?
 * ([eE][+-]?[0-9]+)?) while its first 19 significant digits are gathered,
 * so the conversion to double (numconv.h) does not read the text again in
 * the common case. Short integers never come here: json_read.c converts
 * them inline. */
#include <math.h>

#include "core/value_internal.h"
#include "json/json_read_internal.h"
#include "json/numconv.h"

static inline unsigned digit(const char *p) { return (unsigned)((unsigned char)*p - '0'); }

/* An exponent above this is saturated: 10^(1e9) is infinity either way and
 * the sum with the digit count below cannot overflow an int64. */
#define EXP_SATURATE 1000000000

const char *sv_jr_scan_number(jr *r, const char *p, jr_num *n)
{
    const char *end = r->end;
    uint64_t mant = 0, mag = 0;
    int64_t exp10 = 0;
    unsigned sig = 0, d;
    bool big = false, truncated = false;
    n->s = p;
    n->neg = false;
    n->is_int = true;
    if (*p == '-') {
        n->neg = true;
        p++;
    }
    if (p >= end || (d = digit(p)) > 9) {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a digit after '-'");
        return NULL;
    }
    if (d == 0) {
        p++;
        if (p < end && digit(p) <= 9) {
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "leading zeros are not allowed");
            return NULL;
        }
    } else {
        do {
            if (sig < 19) {
                mant = mant * 10 + d;
                sig++;
            } else {
                exp10++;
                truncated |= d != 0;
            }
            if (!big) {
                if (mag > (UINT64_MAX - d) / 10)
                    big = true;
                else
                    mag = mag * 10 + d;
            }
            p++;
        } while (p < end && (d = digit(p)) <= 9);
    }
    if (p < end && *p == '.') {
        n->is_int = false;
        p++;
        if (p >= end || (d = digit(p)) > 9) {
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a digit after '.'");
            return NULL;
        }
        do {
            if (mant == 0 && d == 0) {
                exp10--; /* a leading zero is not a significant digit */
            } else if (sig < 19) {
                mant = mant * 10 + d;
                sig++;
                exp10--;
            } else {
                truncated |= d != 0;
            }
            p++;
        } while (p < end && (d = digit(p)) <= 9);
    }
    if (p < end && (*p | 0x20) == 'e') {
        n->is_int = false;
        p++;
        bool eneg = false;
        if (p < end && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            p++;
        }
        if (p >= end || (d = digit(p)) > 9) {
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a digit in the exponent");
            return NULL;
        }
        int64_t e = 0;
        do {
            if (e < EXP_SATURATE) e = e * 10 + d;
            p++;
        } while (p < end && (d = digit(p)) <= 9);
        exp10 += eneg ? -e : e;
    }
    n->e = p;
    n->mant = mant;
    n->exp10 = exp10;
    n->mag = mag;
    n->big = big;
    n->truncated = truncated;
    return p;
}

bool sv_jr_num_f64(const jr_num *n, double *out)
{
    double d;
    if (n->mant == 0) {
        d = 0.0; /* every digit was zero: the exponent does not matter */
    } else if (!sv_decimal_to_f64(n->mant, n->exp10, false, n->truncated, &d) &&
               !sv_parse_f64(n->s + n->neg, (size_t)(n->e - n->s) - n->neg, &d)) {
        return false;
    }
    if (isinf(d)) return false;
    *out = n->neg ? -d : d;
    return true;
}

bool sv_jr_num_value(jr *r, const jr_num *n, sv_value *out)
{
    if (n->is_int && !n->big) {
        if (!n->neg) {
            if (n->mag <= (uint64_t)INT64_MAX) {
                *out = sv_int((int64_t)n->mag);
            } else {
                *out = sv_uint(n->mag);
            }
            return true;
        }
        if (n->mag <= (uint64_t)INT64_MAX) {
            *out = sv_int(-(int64_t)n->mag);
            return true;
        }
        if (n->mag == (uint64_t)INT64_MAX + 1) {
            *out = sv_int(INT64_MIN);
            return true;
        }
    }
    /* Fractions, exponents and integers beyond int64/uint64: float64. */
    double d;
    if (!sv_jr_num_f64(n, &d)) {
        size_t len = (size_t)(n->e - n->s);
        return sv_jr_fail(r, n->s, SV_ERR_RANGE, "number %.*s%s is beyond the range of float64",
                          (int)(len > 40 ? 40 : len), n->s, len > 40 ? "..." : "");
    }
    *out = sv_f64(d);
    return true;
}
