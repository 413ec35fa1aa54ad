/* Correctly rounded decimal -> double / float, without locale or malloc.
 *
 * Three tiers, each exact where it answers:
 *  1. Clinger's fast path (William D. Clinger, "How to Read Floating Point
 *     Numbers Accurately", 1990): a mantissa that is exact in the target type
 *     times an exact power of ten is one correctly rounded IEEE operation.
 *  2. Eisel-Lemire (Daniel Lemire, "Number Parsing at a Gigabyte per Second",
 *     2021, after Michael Eisel): the first 19 significant digits w, times the
 *     truncated 128-bit significand of 5^q from pow10_table.c. Our variant
 *     keeps the full 192-bit product P (the third 64-bit limb only when the
 *     first 128 bits leave the rounding open) and reasons on its error: the
 *     table entry is a lower bound within one unit, so the exact product lies
 *     in [P, P + 2^64). Rounding is decided unless the bits below the kept
 *     ones fall in [half - 2^64, half), which never happens in practice; for
 *     0 <= q <= 55 the entry is exact, so exact ties are seen and go to even.
 *     When digits beyond the 19th were dropped, w and w + 1 must round alike.
 *  3. A big-integer comparison for whatever is left: the decimal (at most 800
 *     significant digits kept, then a sticky digit; a double halfway point has
 *     at most 767) is compared with the halfway point between candidates,
 *     starting from a lower bound that tier 2 computes.
 * Floats go through the same steps with 24-bit precision, never via double
 * (which would round twice). */
#include "core/numconv.h"
#include "core/num_scan.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/compiler.h"
#include "core/eisel_lemire.h"
#include "core/pow10_table.h"

/* The binary formats and the Eisel-Lemire step live in eisel_lemire.h,
 * which the typed JSON reader's fast path inlines too. */

/* ---- the decimal core ----------------------------------------------------- */

static const double exact_pow10_f64[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                           1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                           1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const float exact_pow10_f32[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                          1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

enum { CORE_DONE, CORE_OVERFLOW, CORE_OPEN };

static inline double bits_to_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline float bits_to_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Decides w * 10^q (w != 0; when truncated, a value strictly between that and
 * (w + 1) * 10^q) as result bits, or CORE_OPEN with a lower-bound candidate. */
static inline int decimal_core(uint64_t w, int64_t q, bool truncated, const sv_binfmt *f,
                               uint64_t *bits, uint64_t *low)
{
    if (q < f->q_zero) {
        *bits = 0;
        return CORE_DONE;
    }
    if (q > f->q_inf) {
        *bits = f->inf_bits;
        return CORE_OVERFLOW;
    }
    uint64_t b;
    *bits = 0;
    if (sv__core_eisel_lemire(w, (int)q, f, &b, low) == SV_EL_OPEN) {
        *bits = *low;
        return CORE_OPEN;
    }
    if (truncated) {
        uint64_t b2, low2;
        if (w == UINT64_MAX || sv__core_eisel_lemire(w + 1, (int)q, f, &b2, &low2) == SV_EL_OPEN ||
            b2 != b) {
            *bits = *low;
            return CORE_OPEN;
        }
    }
    *bits = b;
    return b == f->inf_bits ? CORE_OVERFLOW : CORE_DONE;
}

bool sv__core_decimal_to_f64(uint64_t mantissa, int64_t exp10, bool negative, bool truncated,
                             double *out)
{
    uint64_t sign = (uint64_t)negative << 63;
    if (mantissa == 0) {
        *out = bits_to_f64(sign);
        return true;
    }
#if FLT_EVAL_METHOD == 0
    if (!truncated && mantissa <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
        double d = (double)mantissa;
        d = exp10 < 0 ? d / exact_pow10_f64[-exp10] : d * exact_pow10_f64[exp10];
        *out = negative ? -d : d;
        return true;
    }
#endif
    uint64_t bits, low;
    int r = decimal_core(mantissa, exp10, truncated, &sv_binfmt_f64, &bits, &low);
    *out = bits_to_f64(sign | bits);
    return r == CORE_DONE;
}

/* ---- scanning ------------------------------------------------------------- */

/* The grammar over exactly [p, end), the first 19 significant digits and
 * the digit ranges the slow path reads again (num_scan.h). */
static bool scan_number(const char *p, const char *end, sv_num_scan *s)
{
    const char *e = sv__core_num_scan_token(p, end, s);
    return e && e == end;
}

/* ---- slow path: big-integer comparison ------------------------------------ */

/* Digits kept before the sticky one; a double halfway point has <= 767. */
#define SLOW_DIGITS 800
/* 4096 bits: the operands stay under ~2750 bits (digits < 10^801, 5^1143,
 * shifts that align the two sides to within a few bits). */
#define BIG_LIMBS 64

typedef struct {
    int n; /* limbs in use; v[n-1] != 0 unless n == 0 */
    uint64_t v[BIG_LIMBS];
} big;

static void big_set(big *b, uint64_t x)
{
    b->v[0] = x;
    b->n = x != 0;
}

/* b = b * m + a */
static void big_muladd(big *b, uint64_t m, uint64_t a)
{
    uint64_t carry = a;
    for (int i = 0; i < b->n; i++) {
        uint64_t hi, lo = sv__core_mul128(b->v[i], m, &hi);
        lo += carry;
        hi += lo < carry;
        b->v[i] = lo;
        carry = hi;
    }
    if (carry && b->n < BIG_LIMBS) b->v[b->n++] = carry;
}

static void big_mul_pow5(big *b, int e)
{
    while (e >= 27) {
        big_muladd(b, UINT64_C(7450580596923828125), 0); /* 5^27 < 2^64 */
        e -= 27;
    }
    uint64_t m = 1;
    while (e-- > 0) m *= 5;
    if (m > 1) big_muladd(b, m, 0);
}

static void big_shl(big *b, int bits)
{
    int limbs = bits / 64, r = bits % 64;
    /* The callers' bounds keep every operand far below BIG_LIMBS; the check
     * only guards memory. */
    if (b->n == 0 || b->n + limbs + 1 > BIG_LIMBS) return;
    int n = b->n + limbs;
    b->v[n] = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t x = b->v[i];
        if (r) {
            b->v[i + limbs + 1] |= x >> (64 - r);
            b->v[i + limbs] = x << r;
        } else {
            b->v[i + limbs] = x;
        }
    }
    for (int i = 0; i < limbs; i++) b->v[i] = 0;
    b->n = n + (b->v[n] != 0);
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

/* The exact value of the text as digits * 10^e10, digits < 10^801. Returns the
 * position dp of the decimal point relative to the first significant digit
 * (value = 0.d1d2... * 10^dp) through *dp; false when the value is zero. */
static bool slow_digits(const sv_num_scan *s, big *digits, int64_t *e10, int64_t *dp)
{
    int64_t pos = 0; /* dp before the explicit exponent */
    int nd = 0;
    bool seen = false, sticky = false;
    uint64_t chunk = 0;
    int chunk_len = 0;
    big_set(digits, 0);
    for (int part = 0; part < 2; part++) {
        const char *c = part ? s->fb : s->ib, *end = part ? s->fe : s->ie;
        for (; c < end; c++) {
            int d = *c - '0';
            if (!seen) {
                if (d == 0) {
                    if (part) pos--;
                    continue;
                }
                seen = true;
            }
            if (!part) pos++;
            if (nd == SLOW_DIGITS) {
                sticky |= d != 0;
                continue;
            }
            chunk = chunk * 10 + (uint64_t)d;
            nd++;
            if (++chunk_len == 19) {
                big_muladd(digits, UINT64_C(10000000000000000000), chunk);
                chunk = 0;
                chunk_len = 0;
            }
        }
    }
    if (!seen) return false;
    if (sticky) {
        /* Any nonzero tail below the 800th digit acts like one more digit 1:
         * both lie strictly between the same multiples of that digit's unit. */
        chunk = chunk * 10 + 1;
        chunk_len++;
        nd++;
    }
    if (chunk_len) {
        uint64_t scale = 1;
        for (int i = 0; i < chunk_len; i++) scale *= 10;
        big_muladd(digits, scale, chunk);
    }
    *dp = pos + s->exp;
    *e10 = *dp - nd;
    return true;
}

/* The correctly rounded bits of the text's value, given a candidate at or
 * below it and at most a few units under the result. */
static uint64_t slow_path(const sv_num_scan *s, const sv_binfmt *f, uint64_t cand)
{
    big digits;
    int64_t e10, dp;
    if (!slow_digits(s, &digits, &e10, &dp)) return 0;
    /* value in [10^(dp-1), 10^dp) */
    if (dp < f->q_zero) return 0;
    if (dp > f->q_inf + 2) return f->inf_bits;

    /* Compare digits * 10^e10 with (2m + 1) * 2^(e - 1): the powers of five
     * go to one side once, the powers of two are a shift per candidate. */
    big lhs = digits, five;
    big_set(&five, 1);
    if (e10 >= 0)
        big_mul_pow5(&lhs, (int)e10);
    else
        big_mul_pow5(&five, (int)-e10);

    uint64_t frac_mask = (UINT64_C(1) << (f->prec - 1)) - 1;
    for (int iter = 0; iter < 8 && cand < f->inf_bits; iter++) {
        uint64_t be = cand >> (f->prec - 1);
        uint64_t m = cand & frac_mask;
        int e = f->emin - f->prec + 1; /* subnormal unit */
        if (be) {
            m |= frac_mask + 1;
            e += (int)be - 1;
        }
        big a = lhs, b = five;
        big_muladd(&b, 2 * m + 1, 0);
        int64_t p2 = e10 - (e - 1);
        if (p2 >= 0)
            big_shl(&a, (int)p2);
        else
            big_shl(&b, (int)-p2);
        int c = big_cmp(&a, &b);
        if (c < 0) return cand;
        if (c == 0) return cand + (cand & 1); /* tie: the even one */
        cand++;
    }
    return cand >= f->inf_bits ? f->inf_bits : cand;
}

/* ---- entry points ---------------------------------------------------------- */

bool sv__core_parse_f64(const char *text, size_t len, double *out)
{
    sv_num_scan s;
    if (!scan_number(text, text + len, &s)) {
        *out = (len && text[0] == '-') ? -HUGE_VAL : HUGE_VAL;
        return false;
    }
    uint64_t sign = (uint64_t)s.neg << 63;
    if (s.mant == 0) {
        *out = bits_to_f64(sign);
        return true;
    }
#if FLT_EVAL_METHOD == 0
    if (!s.truncated && s.mant <= (UINT64_C(1) << 53) && s.exp10 >= -22 && s.exp10 <= 22) {
        double d = (double)s.mant;
        d = s.exp10 < 0 ? d / exact_pow10_f64[-s.exp10] : d * exact_pow10_f64[s.exp10];
        *out = s.neg ? -d : d;
        return true;
    }
#endif
    uint64_t bits, low;
    int r = decimal_core(s.mant, s.exp10, s.truncated, &sv_binfmt_f64, &bits, &low);
    if (r == CORE_OPEN) {
        bits = slow_path(&s, &sv_binfmt_f64, low);
        r = bits == sv_binfmt_f64.inf_bits ? CORE_OVERFLOW : CORE_DONE;
    }
    *out = bits_to_f64(sign | bits);
    return r == CORE_DONE;
}

bool sv__core_parse_f32(const char *text, size_t len, float *out)
{
    sv_num_scan s;
    if (!scan_number(text, text + len, &s)) {
        *out = (len && text[0] == '-') ? -HUGE_VALF : HUGE_VALF;
        return false;
    }
    uint32_t sign = (uint32_t)s.neg << 31;
    if (s.mant == 0) {
        *out = bits_to_f32(sign);
        return true;
    }
#if FLT_EVAL_METHOD == 0
    if (!s.truncated && s.mant <= (UINT64_C(1) << 24) && s.exp10 >= -10 && s.exp10 <= 10) {
        float x = (float)s.mant;
        x = s.exp10 < 0 ? x / exact_pow10_f32[-s.exp10] : x * exact_pow10_f32[s.exp10];
        *out = s.neg ? -x : x;
        return true;
    }
#endif
    uint64_t bits, low;
    int r = decimal_core(s.mant, s.exp10, s.truncated, &sv_binfmt_f32, &bits, &low);
    if (r == CORE_OPEN) {
        bits = slow_path(&s, &sv_binfmt_f32, low);
        r = bits == sv_binfmt_f32.inf_bits ? CORE_OVERFLOW : CORE_DONE;
    }
    *out = bits_to_f32(sign | (uint32_t)bits);
    return r == CORE_DONE;
}
