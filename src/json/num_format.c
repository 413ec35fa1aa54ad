/* Shortest round-trip formatting of doubles and floats, and integer formatting.
 *
 * Algorithm: Schubfach, from Raffaello Giulietti, "The Schubfach way to render
 * doubles" (2020; the algorithm behind Java 19's Double.toString). In short,
 * for a finite v = c * 2^q:
 *  - the rounding interval R = [vl, vr] holds every real that reads back as v
 *    (its ends are the midpoints to the neighbours; they belong to R when c is
 *    even, because reading rounds half to even);
 *  - k = floor(log10(width of R)), so R holds at most one multiple of
 *    10^(k+1) and at least one of 10^k;
 *  - v, vl and vr are scaled by 10^-k (times 4, to keep two fraction bits)
 *    with one 64x128-bit product each against a 128-bit upper approximation g
 *    of 10^-k, rounded to odd. Round-to-odd keeps every comparison with an
 *    even integer exact, which is all the decisions below need;
 *  - if one multiple of 10^(k+1) is in R it is the shortest (it has at most
 *    as many digits as anything else in R); otherwise the shortest have their
 *    last digit at 10^k, and the one closest to v among s = floor(v / 10^k) and
 *    s + 1 is taken (ties to even).
 * The paper proves that a 126-bit g keeps every fraction of the scaled values
 * either zero or far from 0 and 1; our g has 128 bits and our sticky test
 * (any of the 64 fraction bits below the result) needs a weaker margin.
 *
 * For float the same steps run with the top 64 bits of g (plus one) and a
 * 64x64-bit product; the sticky test then ignores the 32 lowest fraction bits,
 * which hold only approximation error. This was checked exhaustively over
 * all 2^32 floats against the 128-bit computation.
 *
 * Layout (docs/json.md "Numbers"): positional for 1e-7 <= |v| < 1e21 and for
 * zero, with ".0" on whole numbers; otherwise d[.ddd]e(+|-)x. */
#include "json/numconv.h"

#include <string.h>

#include "json/pow10_table.h"

/* "00" "01" ... "99": two digits per table read. */
static const char digit_pairs[201] = "00010203040506070809"
                                     "10111213141516171819"
                                     "20212223242526272829"
                                     "30313233343536373839"
                                     "40414243444546474849"
                                     "50515253545556575859"
                                     "60616263646566676869"
                                     "70717273747576777879"
                                     "80818283848586878889"
                                     "90919293949596979899";

/* clang-format off */
static const uint64_t pow10_u64[20] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
    UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
    UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
    UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
    UINT64_C(1000000000000000), UINT64_C(10000000000000000), UINT64_C(100000000000000000),
    UINT64_C(1000000000000000000), UINT64_C(10000000000000000000)};
/* clang-format on */

/* ---- integers ----------------------------------------------------------- */

/* Number of decimal digits of v (1 for 0). bits * 1233 / 4096 is
 * floor(log10(2^bits)) for bits <= 64, one comparison fixes the rest (v | 1
 * compares like v against the even powers of ten, and makes 0 count as 1). */
static inline int count_digits(uint64_t v)
{
    v |= 1;
    int bits = 64 - sv_clz64(v);
    int t = (bits * 1233) >> 12;
    return t - (v < pow10_u64[t]) + 1;
}

/* Writes exactly n digits of v ending at end (v < 10^n), two at a time, in
 * 32-bit arithmetic. */
static inline void write_small_backward(char *end, uint32_t v, int n)
{
    while (n >= 2) {
        uint32_t q = v / 100;
        uint32_t r = v - q * 100;
        end -= 2;
        memcpy(end, digit_pairs + 2 * r, 2);
        v = q;
        n -= 2;
    }
    if (n) *--end = (char)('0' + v);
}

/* Writes exactly 8 digits of v < 10^8 at p; the two halves are independent,
 * so the CPU works on both at once. */
static inline void write8(char *p, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v - hi * 10000;
    uint32_t a = hi / 100, b = hi - a * 100, c = lo / 100, d = lo - c * 100;
    memcpy(p, digit_pairs + 2 * a, 2);
    memcpy(p + 2, digit_pairs + 2 * b, 2);
    memcpy(p + 4, digit_pairs + 2 * c, 2);
    memcpy(p + 6, digit_pairs + 2 * d, 2);
}

/* Writes exactly n digits of v ending at end (v < 10^n). */
static inline void write_digits_backward(char *end, uint64_t v, int n)
{
    while (n > 8) {
        uint64_t q = v / 100000000;
        end -= 8;
        write8(end, (uint32_t)(v - q * 100000000));
        v = q;
        n -= 8;
    }
    write_small_backward(end, (uint32_t)v, n);
}

size_t sv_fmt_u64(uint64_t u, char *out)
{
    int n = count_digits(u);
    write_digits_backward(out + n, u, n);
    return (size_t)n;
}

size_t sv_fmt_i64(int64_t i, char *out)
{
    if (i < 0) {
        out[0] = '-';
        /* Negate in unsigned arithmetic: INT64_MIN has no positive int64. */
        return 1 + sv_fmt_u64((uint64_t)0 - (uint64_t)i, out + 1);
    }
    return sv_fmt_u64((uint64_t)i, out);
}

/* ---- layout ------------------------------------------------------------- */

/* The layout works with fixed-size block copies instead of digit loops: the
 * digits sit in a scratch buffer followed by '0' characters, and every copy
 * has a constant length, bounded so that nothing is written past
 * SV_FMT_F64_MAX / SV_FMT_F32_MAX bytes of out (bytes past the returned
 * length may be overwritten, which the size contract allows). */
#define ZERO_FILL 24

/* Exactly 17 digits of f < 10^17 (zero-padded) at d. */
static inline void digits17(char *d, uint64_t f)
{
    uint64_t hi = f / 100000000; /* < 10^9 */
    uint32_t lo = (uint32_t)(f - hi * 100000000);
    uint32_t top = (uint32_t)(hi / 100000000); /* < 10 */
    uint32_t mid = (uint32_t)(hi - (uint64_t)top * 100000000);
    d[0] = (char)('0' + top);
    write8(d + 1, mid);
    write8(d + 9, lo);
}

/* Exactly 9 digits of f < 10^9 at d. */
static inline void digits9(char *d, uint32_t f)
{
    uint32_t top = f / 100000000;
    d[0] = (char)('0' + top);
    write8(d + 1, f - top * 100000000);
}

/* e, sign, 1 to 3 digits; without branches on the digit count, which is
 * unpredictable on random data. Writes 5 bytes, returns the end. */
static inline char *write_exponent(char *p, int x)
{
    p[0] = 'e';
    p[1] = x < 0 ? '-' : '+';
    unsigned a = (unsigned)(x < 0 ? -x : x); /* < 1000 */
    unsigned h = a / 100, r = a - h * 100;
    char d[6] = {0};
    d[0] = (char)('0' + h);
    memcpy(d + 1, digit_pairs + 2 * r, 2);
    unsigned len = 1 + (a >= 10) + (a >= 100);
    memcpy(p + 2, d + 3 - len, 3); /* the last len of the 3 digits, + pad */
    return p + 2 + len;
}

/* Lays out the n significant digits at s (followed by at least ZERO_FILL '0'
 * characters) with value 0.s * 10^dp. maxd is 17 (double) or 9 (float), a
 * constant after inlining. */
static inline size_t layout(char *out, bool neg, const char *s, int n, int dp, int maxd)
{
    char *q = out + neg;
    out[0] = '-'; /* overwritten below when positive */

    /* -6 <= dp: |v| >= 1e-7; dp <= 21: |v| < 1e21 (judged on the shortest
     * digits, so the double nearest 1e-7 counts as 1e-7). */
    if (dp >= -6 && dp <= 21) {
        if (dp >= n) {
            /* Whole number: digits, the zeros after them, ".0". */
            memcpy(q, s, 21);
            memcpy(q + dp, ".0", 2);
            return (size_t)(q + dp + 2 - out);
        }
        if (dp > 0) {
            /* Point inside: integer part (dp < maxd), point, fraction in
             * 8-byte blocks (a second block only for short integer parts). */
            if (maxd > 9)
                memcpy(q, s, 16);
            else
                memcpy(q, s, 8);
            q[dp] = '.';
            memcpy(q + dp + 1, s + dp, 8);
            if (maxd > 9 && n - dp > 8) memcpy(q + dp + 9, s + dp + 8, 8);
            return (size_t)(q + n + 1 - out);
        }
        /* 0.000ddd */
        memcpy(q, "0.000000", 8);
        if (maxd > 9)
            memcpy(q + 2 - dp, s, 17);
        else
            memcpy(q + 2 - dp, s, 9);
        return (size_t)(q + 2 - dp + n - out);
    }

    /* Scientific: d[.ddd]e(+|-)x */
    q[0] = s[0];
    q[1] = '.';
    if (maxd > 9)
        memcpy(q + 2, s + 1, 16);
    else
        memcpy(q + 2, s + 1, 8);
    q += n > 1 ? n + 1 : 1;
    return (size_t)(write_exponent(q, dp - 1) - out);
}

/* Drops the trailing zeros of f (> 0), adding them to *e. Values from short
 * decimals have many: Schubfach gives up to 17 digits. */
static inline uint64_t strip_zeros(uint64_t f, int *e)
{
    if (f % 10 == 0) {
        while (f % 10000 == 0) {
            f /= 10000;
            *e += 4;
        }
        if (f % 100 == 0) {
            f /= 100;
            *e += 2;
        }
        if (f % 10 == 0) {
            f /= 10;
            *e += 1;
        }
    }
    return f;
}

/* Writes (neg ? -1 : 1) * f * 10^e, 0 < f < 10^17, in the JSON layout. */
static size_t write_decimal64(char *out, bool neg, uint64_t f, int e)
{
    char tmp[17 + ZERO_FILL];
    f = strip_zeros(f, &e);
    int n = count_digits(f);
    digits17(tmp, f);
    memset(tmp + 17, '0', ZERO_FILL);
    return layout(out, neg, tmp + 17 - n, n, e + n, 17);
}

/* The same for floats, 0 < f < 10^9. */
static size_t write_decimal32(char *out, bool neg, uint32_t f, int e)
{
    char tmp[9 + ZERO_FILL];
    f = (uint32_t)strip_zeros(f, &e);
    int n = count_digits(f);
    digits9(tmp, f);
    memset(tmp + 9, '0', ZERO_FILL);
    return layout(out, neg, tmp + 9 - n, n, e + n, 9);
}

/* ---- Schubfach ---------------------------------------------------------- */

/* floor(log10(2^e)): 78913 / 2^18 ~ log10(2). Checked exactly (rational
 * arithmetic) for |e| <= 1200; doubles need -1076 <= e <= 971. */
static inline int floor_log10_pow2(int e)
{
    return (e * 78913) >> 18;
}

/* floor(log10(3/4 * 2^e)) = floor(e log10(2) + log10(3/4)), with both
 * constants scaled by 2^32: 1292913986 ~ log10(2), 536607788 ~ -log10(3/4).
 * Checked exactly for |e| <= 1200. */
static inline int floor_log10_three_quarters_pow2(int e)
{
    return (int)(((int64_t)e * 1292913986 - 536607788) >> 32);
}

typedef struct {
    uint64_t digits;
    int exp10;
} decimal;

/* Round to odd of (g * cp) / 2^128 where g = ghi:glo: the integer part with
 * its lowest bit forced to 1 when the 64 fraction bits kept are nonzero. */
static inline uint64_t rop128(uint64_t ghi, uint64_t glo, uint64_t cp)
{
    uint64_t x_hi, y_hi;
    sv_mul128(glo, cp, &x_hi);
    uint64_t y_lo = sv_mul128(ghi, cp, &y_hi);
    uint64_t z_lo = y_lo + x_hi;
    y_hi += z_lo < y_lo;
    return y_hi | (z_lo != 0);
}

/* Round to odd of (g * cp) / 2^64 for floats: fraction bits below 2^-32 are
 * approximation error only (cp < 2^30, g - 10^-k scaled < 1). */
static inline uint64_t rop64(uint64_t g, uint64_t cp)
{
    uint64_t hi;
    uint64_t lo = sv_mul128(g, cp, &hi);
    return hi | ((lo >> 32) != 0);
}

/* The decision of section 9 of the paper, shared by both widths: s, t = s+1
 * bracket v (in units of 10^k), sp10 and tp10 the multiples of ten around.
 * Unlike Java, which wants at least two digits and skips the first test for
 * s < 100, we always make it: 20 * 2^-1074 must print as "1e-322". */
static inline decimal schubfach_pick(uint64_t vb, uint64_t vbl, uint64_t vbr, unsigned out, int k)
{
    decimal d;
    uint64_t s = vb >> 2;
    uint64_t sp10 = (s / 10) * 10;
    uint64_t tp10 = sp10 + 10;
    bool upin = vbl + out <= sp10 << 2;
    bool wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) {
        d.digits = upin ? sp10 : tp10;
        d.exp10 = k;
        return d;
    }
    uint64_t t = s + 1;
    bool uin = vbl + out <= s << 2;
    bool win = (t << 2) + out <= vbr;
    d.exp10 = k;
    if (uin != win) {
        d.digits = uin ? s : t;
        return d;
    }
    /* Both in R: the closer to v; vb compared with 4s + 2 (the midpoint). */
    uint64_t mid = (s + t) << 1;
    d.digits = (vb < mid || (vb == mid && !(s & 1))) ? s : t;
    return d;
}

/* c * 2^q with c the full significand (hidden bit included). */
static decimal shortest64(uint64_t c, int q)
{
    /* Irregular spacing: the binade's lowest value, where the gap below is
     * half the gap above (not for the smallest normal exponent). */
    bool irregular = c == (UINT64_C(1) << 52) && q != -1074;
    int k = irregular ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    int h = q + sv_floor_log2_pow10(-k) + 1;
    const uint64_t *g = sv_pow5_128[-k - SV_POW5_MIN];
    /* g = table + 1: an upper bound of 10^-k's significand, as the paper's. */
    uint64_t glo = g[1] + 1;
    uint64_t ghi = g[0] + (glo == 0);

    uint64_t cb = c << 2;
    uint64_t cbl = cb - (irregular ? 1 : 2);
    uint64_t cbr = cb + 2;
    uint64_t vb = rop128(ghi, glo, cb << h);
    uint64_t vbl = rop128(ghi, glo, cbl << h);
    uint64_t vbr = rop128(ghi, glo, cbr << h);
    return schubfach_pick(vb, vbl, vbr, (unsigned)(c & 1), k);
}

static decimal shortest32(uint32_t c, int q)
{
    bool irregular = c == (UINT32_C(1) << 23) && q != -149;
    int k = irregular ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    int h = q + sv_floor_log2_pow10(-k) + 1;
    uint64_t g = sv_pow5_128[-k - SV_POW5_MIN][0] + 1;

    uint64_t cb = (uint64_t)c << 2;
    uint64_t cbl = cb - (irregular ? 1 : 2);
    uint64_t cbr = cb + 2;
    uint64_t vb = rop64(g, cb << h);
    uint64_t vbl = rop64(g, cbl << h);
    uint64_t vbr = rop64(g, cbr << h);
    return schubfach_pick(vb, vbl, vbr, c & 1, k);
}

size_t sv_fmt_f64(double d, char *out)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    bool neg = bits >> 63;
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    int be = (int)((bits >> 52) & 0x7FF);

    if (be == 0 && frac == 0) {
        if (neg) {
            memcpy(out, "-0.0", 4);
            return 4;
        }
        memcpy(out, "0.0", 3);
        return 3;
    }
    uint64_t c;
    int q;
    if (be) {
        c = frac | (UINT64_C(1) << 52);
        q = be - 1075;
        /* Whole numbers below 2^53: every integer there is a double, so the
         * integer itself is the shortest text. */
        if (q <= 0 && q > -53) {
            uint64_t f = c >> -q;
            if (f << -q == c) return write_decimal64(out, neg, f, 0);
        }
    } else {
        c = frac;
        q = -1074;
    }
    decimal dec = shortest64(c, q);
    return write_decimal64(out, neg, dec.digits, dec.exp10);
}

size_t sv_fmt_f32(float f, char *out)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bool neg = bits >> 31;
    uint32_t frac = bits & ((UINT32_C(1) << 23) - 1);
    int be = (int)((bits >> 23) & 0xFF);

    if (be == 0 && frac == 0) {
        if (neg) {
            memcpy(out, "-0.0", 4);
            return 4;
        }
        memcpy(out, "0.0", 3);
        return 3;
    }
    uint32_t c;
    int q;
    if (be) {
        c = frac | (UINT32_C(1) << 23);
        q = be - 150;
        if (q <= 0 && q > -24) {
            uint32_t i = c >> -q;
            if (i << -q == c) return write_decimal32(out, neg, i, 0);
        }
    } else {
        c = frac;
        q = -149;
    }
    decimal dec = shortest32(c, q);
    return write_decimal32(out, neg, (uint32_t)dec.digits, dec.exp10);
}
