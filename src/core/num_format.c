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
 *  - if one multiple of 10^(k+1) is in R it is the shortest (it has at most
 *    as many digits as anything else in R); otherwise the shortest have their
 *    last digit at 10^k, and the one closest to v among s = floor(v / 10^k) and
 *    s + 1 is taken (ties to even).
 *
 * Two implementations of that decision:
 *  - shortest64 / shortest32, the paper's: v, vl and vr scaled by 10^-k
 *    (times 4, to keep two fraction bits) with one 64x128-bit product each
 *    against a 128-bit upper approximation g of 10^-k, rounded to odd.
 *    Round-to-odd keeps every comparison with an even integer exact, which is
 *    all the decisions need. The paper proves that a 126-bit g keeps every
 *    fraction of the scaled values either zero or far from 0 and 1; our g has
 *    128 bits and our sticky test (any of the 64 fraction bits below the
 *    result) needs a weaker margin. For float the same steps run with the top
 *    64 bits of g (plus one) and a 64x64-bit product; the sticky test then
 *    ignores the 32 lowest fraction bits, which hold only approximation error
 *    (checked over all 2^32 floats against the 128-bit computation);
 *  - shortest64_fast / shortest32_fast, used first: v alone, from one product,
 *    with an explicit error bound, deciding only when every comparison is
 *    clear of its threshold by more than that bound, and otherwise handing
 *    over to the exact code (see pick_fast). That is about half the work, and
 *    exact by construction.
 *
 * Three kinds of value skip the search: whole numbers below 2^53 (2^24 for
 * floats), which print as the integer and ".0"; values with at most 8
 * fraction bits and enough precision to spare (9.5, 0.0625, 1234.375: see
 * put_short_fraction), which print as their exact decimal value; and the
 * negative powers of two down to 2^-19 (2^-11), whose exact decimal value is
 * also the shortest (see fmt_f64_slow).
 *
 * The digits are then written without a loop: 16 of the 17 (doubles) come
 * out of one SSE2 register (a SWAR word pair elsewhere), the trailing zeros
 * are counted on them, and the layout places them with fixed-size stores.
 * Layout (docs/json.md "Numbers", JavaScript's Number.prototype.toString):
 * positional for 1e-6 <= |v| < 1e21 and for zero, with ".0" on whole
 * numbers; otherwise d[.ddd]e(+|-)x. The range is judged on the shortest
 * digits, so the double nearest 1e-6 (just below it) prints as 0.000001. */
#include "core/numconv.h"

#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "core/compiler.h"
#include "core/pow10_table.h"

/* The hot path is one function: calls between its parts cost more
 * instructions (saved registers) than the parts' own work. */

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
    int bits = 64 - sv__core_clz64(v);
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

size_t sv__core_fmt_u64(uint64_t u, char *out)
{
    int n = count_digits(u);
    write_digits_backward(out + n, u, n);
    return (size_t)n;
}

size_t sv__core_fmt_i64(int64_t i, char *out)
{
    if (i < 0) {
        out[0] = '-';
        /* Negate in unsigned arithmetic: INT64_MIN has no positive int64. */
        return 1 + sv__core_fmt_u64((uint64_t)0 - (uint64_t)i, out + 1);
    }
    return sv__core_fmt_u64((uint64_t)i, out);
}

/* ---- digits and layout ------------------------------------------------- */

/* The layout code works on digits held in registers, one digit per byte with
 * the first digit in the lowest byte, and writes them with fixed-size stores
 * at their final places: no digit loop, no scratch buffer, no memmove.
 * Stores may run past the returned length, never past SV_FMT_F64_MAX /
 * SV_FMT_F32_MAX bytes of out (numconv.h). */

/* '0' in every byte: turns digit values 0..9 into characters. */
#define ASCII_ZEROS UINT64_C(0x3030303030303030)

/* Stores w so that its lowest byte lands at p (little-endian order on every
 * host, which is what the shifts below assume). */
static inline void store64(char *p, uint64_t w)
{
    sv__core_store64le(p, w);
}

static inline void store32(char *p, uint32_t w)
{
    sv__core_store32le(p, w);
}

/* The 8 decimal digits of x < 10^8 as byte values 0..9, the first digit in
 * the lowest byte. SWAR: each step splits every lane of the word into its
 * high and low halves with one multiplication by a reciprocal, then moves the
 * low halves into the upper half of each lane with one multiply-add:
 *   x -> two 32-bit lanes of 4 digits -> four 16-bit lanes of 2 digits ->
 *   eight bytes of 1 digit.
 * The reciprocals are exact on the ranges used (checked in the comments); no
 * lane's product reaches into the next lane. */
static inline uint64_t digits8(uint32_t x)
{
    /* x / 10^4 = x * 109951163 >> 40 for x < 10^8: the error of the
     * reciprocal (2.1e-13 relative) moves the product by less than 2.1e-5
     * units, and x / 10^4 has fraction at most 0.9999. */
    uint64_t hi = (uint64_t)x * 109951163 >> 40;
    /* Lanes (low, high) = (hi, x - 10^4 hi). */
    uint64_t v = ((uint64_t)x << 32) + hi * (1 - (UINT64_C(10000) << 32));
    /* y / 100 = y * 10486 >> 20 for y < 10^4 (error < 0.0023 units, fraction
     * at most 0.99); the products stay below 2^27 within each 32-bit lane, and
     * the mask drops what the high lane shifts into the low one. */
    uint64_t h = (v * 10486 >> 20) & UINT64_C(0x0000007F0000007F);
    v = (v << 16) + h * (1 - (UINT64_C(100) << 16));
    /* y / 10 = y * 103 >> 10 for y < 100 (exact up to 178); products < 2^14
     * within each 16-bit lane. */
    uint64_t t = (v * 103 >> 10) & UINT64_C(0x000F000F000F000F);
    return (v << 8) + t * (1 - (UINT64_C(10) << 8));
}

/* Number of leading zero bytes of a nonzero word: in the digit words above,
 * the number of trailing zero digits. */
static inline int zero_digits_at_end(uint64_t raw)
{
    return sv__core_clz64(raw) >> 3;
}

/* The 16 digits of hi8 * 10^8 + lo8 as characters, the first 8 in *lo, the
 * last 8 in *hi; returns the number of digits up to the last nonzero one,
 * plus 1 (1 when all are zero): with a nonzero digit in front, the count of
 * significant digits. Portable; the SSE2 version below must agree with it
 * (checked by the test, which is why it is compiled there too). */
static inline SV_MAYBE_UNUSED int digits16_swar(uint32_t hi8, uint32_t lo8, uint64_t *lo,
                                                uint64_t *hi)
{
    uint64_t r1 = digits8(hi8), r2 = digits8(lo8);
    *lo = r1 | ASCII_ZEROS;
    *hi = r2 | ASCII_ZEROS;
    return r2 ? 17 - zero_digits_at_end(r2) : r1 ? 9 - zero_digits_at_end(r1) : 1;
}

/* digits16_t: 16 digit characters from digits16(hi8, lo8, &d), which returns
 * what digits16_swar returns; stored whole or the last 8 only, or read as
 * two words of 8 (first digit in the low byte). */
#if defined(__SSE2__) && defined(__x86_64__)
/* With SSE2 (every x86-64 has it) all 16 digits sit in one register, and the
 * steps of digits8 run on 16-bit lanes, where "x * m >> 16" is one
 * instruction (pmulhuw), so the reciprocals need no room above the lane:
 *   [hi8, lo8] -> 32-bit lanes (a, b), (c, d) of 4 digits, a = hi8 / 10^4
 *   (x * 109951163 >> 40, as in digits8) -> 16-bit lanes a a b b c c d d
 *   -> each pair (x / 100, x % 100): x * 10486 >> 20 for x < 10^4, as in
 *   digits8 -> 16 lanes of one digit, below. */
typedef struct {
    __m128i v;
} digits16_t;

static inline int digits16(uint32_t hi8, uint32_t lo8, digits16_t *d)
{
    __m128i v = _mm_set_epi64x((long long)lo8, (long long)hi8);
    __m128i a = _mm_srli_epi64(_mm_mul_epu32(v, _mm_set1_epi64x(109951163)), 40);
    /* Low 32 bits of each 64-bit lane: a + (x - 10^4 a) << 16, computed as
     * (x << 16) + a * (1 - 10^4 << 16) modulo 2^32. */
    __m128i ab = _mm_add_epi64(_mm_slli_epi64(v, 16),
                               _mm_mul_epu32(a, _mm_set1_epi64x((uint32_t)(1 - 10000 * 65536))));
    __m128i x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(ab, _MM_SHUFFLE(1, 1, 0, 0)),
                                    _MM_SHUFFLE(1, 1, 0, 0));
    __m128i hundreds = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi16(10486)), 4);
    /* Even lanes x / 100, odd lanes x - 100 (x / 100). */
    __m128i y =
        _mm_add_epi16(_mm_mullo_epi16(hundreds, _mm_set_epi16(-100, 1, -100, 1, -100, 1, -100, 1)),
                      _mm_and_si128(x, _mm_set_epi16(-1, 0, -1, 0, -1, 0, -1, 0)));
    /* y * 6554 = 65536 (y / 10) + 0.4 y for y < 100 (integer division): the
     * high half is y / 10, the low half 65536 frac(y / 10) + 0.4 y (< 40),
     * and 10 times that, over 65536, is y % 10 plus less than 0.007. */
    __m128i tens = _mm_mulhi_epu16(y, _mm_set1_epi16(6554));
    __m128i ones = _mm_mulhi_epu16(_mm_mullo_epi16(y, _mm_set1_epi16(6554)), _mm_set1_epi16(10));
    /* Low byte y / 10, high byte y % 10. */
    __m128i raw = _mm_or_si128(tens, _mm_slli_epi16(ones, 8));
    unsigned nonzero =
        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(raw, _mm_setzero_si128())) ^ 0xFFFFu;
    d->v = _mm_or_si128(raw, _mm_set1_epi8('0'));
    /* Bit i + 1 of 2 * nonzero + 1 is digit i; bit 0 stands for the digit in
     * front. */
    return 32 - __builtin_clz(2 * nonzero + 1);
}

static inline void store_digits16(char *p, digits16_t d)
{
    _mm_storeu_si128((__m128i *)(void *)p, d.v);
}

static inline void store_digits16_hi(char *p, digits16_t d)
{
    _mm_storel_epi64((__m128i *)(void *)p, _mm_unpackhi_epi64(d.v, d.v));
}

static inline uint64_t digits16_lo(digits16_t d)
{
    return (uint64_t)_mm_cvtsi128_si64(d.v);
}

static inline uint64_t digits16_hi(digits16_t d)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(d.v, d.v));
}
#else
typedef struct {
    uint64_t lo, hi;
} digits16_t;

static inline int digits16(uint32_t hi8, uint32_t lo8, digits16_t *d)
{
    return digits16_swar(hi8, lo8, &d->lo, &d->hi);
}

static inline void store_digits16(char *p, digits16_t d)
{
    store64(p, d.lo);
    store64(p + 8, d.hi);
}

static inline void store_digits16_hi(char *p, digits16_t d)
{
    store64(p, d.hi);
}

static inline uint64_t digits16_lo(digits16_t d)
{
    return d.lo;
}

static inline uint64_t digits16_hi(digits16_t d)
{
    return d.hi;
}
#endif

/* The decimal text of 0..399 without leading zeros, for exponents (|x| <= 324
 * for doubles): the characters from the low byte up, the length in the top
 * byte. Built by the preprocessor, 100 * h + 10 * t + o for each h, t, o. */
#define EXP_TEXT(h, t, o)                                                                          \
    ((h) ? (uint32_t)('0' + (h)) | (uint32_t)('0' + (t)) << 8 | (uint32_t)('0' + (o)) << 16 |      \
               UINT32_C(3) << 24                                                                   \
     : (t) ? (uint32_t)('0' + (t)) | (uint32_t)('0' + (o)) << 8 | UINT32_C(2) << 24                \
           : (uint32_t)('0' + (o)) | UINT32_C(1) << 24)
#define EXP_TEXT10(h, t)                                                                           \
    EXP_TEXT(h, t, 0), EXP_TEXT(h, t, 1), EXP_TEXT(h, t, 2), EXP_TEXT(h, t, 3), EXP_TEXT(h, t, 4), \
        EXP_TEXT(h, t, 5), EXP_TEXT(h, t, 6), EXP_TEXT(h, t, 7), EXP_TEXT(h, t, 8),                \
        EXP_TEXT(h, t, 9)
#define EXP_TEXT100(h)                                                                             \
    EXP_TEXT10(h, 0), EXP_TEXT10(h, 1), EXP_TEXT10(h, 2), EXP_TEXT10(h, 3), EXP_TEXT10(h, 4),      \
        EXP_TEXT10(h, 5), EXP_TEXT10(h, 6), EXP_TEXT10(h, 7), EXP_TEXT10(h, 8), EXP_TEXT10(h, 9)
static const uint32_t exp_text[400] = {EXP_TEXT100(0), EXP_TEXT100(1), EXP_TEXT100(2),
                                       EXP_TEXT100(3)};

/* 'e', the sign, then |x| (< 400). Writes at most 6 bytes; returns the end. */
static inline char *write_exponent(char *p, int x)
{
    uint32_t text = exp_text[x < 0 ? -x : x];
    p[0] = 'e';
    p[1] = x < 0 ? '-' : '+';
    store32(p + 2, text); /* the length byte lands past the end */
    return p + 2 + (text >> 24);
}

/* Decimal digits of a float's value: (neg ? -1 : 1) * f * 10^e. */
typedef struct {
    uint64_t f;
    int e;
} decimal;

/* Brings 0 < f < 10^want to exactly `want` digits, lowering e to match. */
static inline decimal normalize(uint64_t f, int e, int want)
{
    int n = count_digits(f);
    decimal d = {f * pow10_u64[want - n], e - (want - n)};
    return d;
}

/* Writes (neg ? -1 : 1) * f * 10^e, 10^16 <= f < 10^17, in the JSON layout:
 * value = 0.D * 10^dp with D the 17 digits: lead, then 16 in ds. */
static SV_ALWAYS_INLINE size_t write17(char *out, bool neg, uint64_t f, int e)
{
    uint64_t hi9 = f / 100000000; /* < 10^9 */
    uint32_t lo8 = (uint32_t)(f - hi9 * 100000000);
    uint32_t top = (uint32_t)hi9 / 100000000; /* 1..9 */
    uint32_t mid8 = (uint32_t)hi9 - top * 100000000;
    digits16_t ds;
    ptrdiff_t n = digits16(mid8, lo8, &ds); /* significant digits */
    char lead = (char)('0' + top);
    ptrdiff_t dp = (ptrdiff_t)e + 17;

    out[0] = '-'; /* overwritten by the first digit when positive */
    char *q = out + neg;
    if (dp >= 1 && dp <= 21) {
        q[0] = lead;
        store_digits16(q + 1, ds);
        if (dp < n) {
            /* Point after digit dp (<= 16): the point, then the rest again
             * one byte further, from the word that holds digit dp shifted
             * down to it. */
            unsigned s = (8 * (unsigned)(dp - 1)) & 63;
            q[dp] = '.';
            if (dp <= 9) {
                store64(q + dp + 1, digits16_lo(ds) >> s);
                store_digits16_hi(q + 10, ds);
            } else {
                store64(q + dp + 1, digits16_hi(ds) >> s);
            }
            return (size_t)neg + (size_t)n + 1;
        }
        /* Whole number: the 17 digits, zeros up to 21, ".0". */
        store64(q + 17, ASCII_ZEROS);
        memcpy(q + dp, ".0", 2);
        return (size_t)neg + (size_t)dp + 2;
    }
    if (dp <= 0 && dp >= -5) {
        /* 0.000ddd (|v| >= 1e-6) */
        memcpy(q, "0.000000", 8);
        char *p = q + 2 - dp;
        p[0] = lead;
        store_digits16(p + 1, ds);
        return (size_t)neg + (size_t)(2 - dp + n);
    }
    /* Scientific: d[.ddd]e(+|-)x */
    q[0] = lead;
    q[1] = '.';
    store_digits16(q + 2, ds);
    return (size_t)(write_exponent(q + (n > 1 ? n + 1 : 1), (int)dp - 1) - out);
}

/* The same for floats: 10^8 <= f < 10^9, D = lead, then 8 digits in w1. */
static SV_ALWAYS_INLINE size_t write9(char *out, bool neg, uint32_t f, int e)
{
    uint32_t top = f / 100000000; /* 1..9 */
    uint64_t r1 = digits8(f - top * 100000000);
    int n = r1 ? 9 - zero_digits_at_end(r1) : 1;
    uint64_t w1 = r1 | ASCII_ZEROS;
    char lead = (char)('0' + top);
    int dp = e + 9;

    out[0] = '-';
    char *q = out + neg;
    if (dp >= 1 && dp <= 21) {
        q[0] = lead;
        store64(q + 1, w1);
        if (dp < n) {
            /* dp <= 8 */
            q[dp] = '.';
            store64(q + dp + 1, w1 >> (8 * (dp - 1)));
            return (size_t)neg + (size_t)n + 1;
        }
        /* Zeros up to 21 in 12 bytes, to stay within SV_FMT_F32_MAX. */
        store64(q + 9, ASCII_ZEROS);
        memcpy(q + 17, "0000", 4);
        memcpy(q + dp, ".0", 2);
        return (size_t)neg + (size_t)dp + 2;
    }
    if (dp <= 0 && dp >= -5) {
        memcpy(q, "0.000000", 8);
        char *p = q + 2 - dp;
        p[0] = lead;
        store64(p + 1, w1);
        return (size_t)neg + (size_t)(2 - dp + n);
    }
    q[0] = lead;
    q[1] = '.';
    store64(q + 2, w1);
    return (size_t)(write_exponent(q + (n > 1 ? n + 1 : 1), dp - 1) - out);
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

/* Round to odd of (g * cp) / 2^128 where g = ghi:glo: the integer part with
 * its lowest bit forced to 1 when the 64 fraction bits kept are nonzero. */
static inline uint64_t rop128(uint64_t ghi, uint64_t glo, uint64_t cp)
{
    uint64_t x_hi, y_hi;
    sv__core_mul128(glo, cp, &x_hi);
    uint64_t y_lo = sv__core_mul128(ghi, cp, &y_hi);
    uint64_t z_lo = y_lo + x_hi;
    y_hi += z_lo < y_lo;
    return y_hi | (z_lo != 0);
}

/* Round to odd of (g * cp) / 2^64 for floats: fraction bits below 2^-32 are
 * approximation error only (cp < 2^30, g - 10^-k scaled < 1). */
static inline uint64_t rop64(uint64_t g, uint64_t cp)
{
    uint64_t hi;
    uint64_t lo = sv__core_mul128(g, cp, &hi);
    return hi | ((lo >> 32) != 0);
}

/* The decision of section 9 of the paper, shared by both widths: s, t = s+1
 * bracket v (in units of 10^k), sp10 and tp10 the multiples of ten around.
 * Unlike Java, which wants at least two digits and skips the first test for
 * s < 100, we always make it: 20 * 2^-1074 must print as "1e-322". */
static inline decimal schubfach_pick(uint64_t vb, uint64_t vbl, uint64_t vbr, unsigned out, int k)
{
    decimal d;
    d.e = k;
    uint64_t s = vb >> 2;
    uint64_t sp10 = (s / 10) * 10;
    uint64_t tp10 = sp10 + 10;
    /* x is in R when lo <= 4x <= hi. */
    uint64_t lo = vbl + out, hi = vbr - out;
    bool upin = lo <= sp10 << 2;
    bool wpin = tp10 << 2 <= hi;
    if (upin != wpin) {
        d.f = upin ? sp10 : tp10;
        return d;
    }
    uint64_t t = s + 1;
    bool uin = lo <= s << 2;
    bool win = t << 2 <= hi;
    if (uin != win) {
        d.f = uin ? s : t;
        return d;
    }
    /* Both in R: the closer to v; vb compared with 4s + 2 (the midpoint). */
    uint64_t mid = (s + t) << 1;
    d.f = (vb < mid || (vb == mid && !(s & 1))) ? s : t;
    return d;
}

/* Shortest digits of c * 2^q where the neighbours are equally far apart:
 * every double except the irregular ones below. */
static decimal shortest64(uint64_t c, int q)
{
    int k = floor_log10_pow2(q);
    int h = q + sv__core_floor_log2_pow10(-k) + 1; /* 1..4 */
    const uint64_t *g = sv_pow5_128[-k - SV_POW5_MIN];
    /* g = table + 1: an upper bound of 10^-k's significand, as the paper's. */
    uint64_t glo = g[1] + 1;
    uint64_t ghi = g[0] + (glo == 0);

    /* cb = 4c, cbl = cb - 2, cbr = cb + 2; each shifted left by h. */
    uint64_t cp = c << (h + 2);
    uint64_t half_gap = (uint64_t)2 << h;
    uint64_t vb = rop128(ghi, glo, cp);
    uint64_t vbl = rop128(ghi, glo, cp - half_gap);
    uint64_t vbr = rop128(ghi, glo, cp + half_gap);
    return schubfach_pick(vb, vbl, vbr, (unsigned)(c & 1), k);
}

/* The decision of schubfach_pick from an approximation of the scaled value
 * alone, or false when it is too close to call (then the exact Schubfach
 * decides; on random input about once in 2^50 values for doubles, 2^30 for
 * floats).
 *
 * In units of 10^k, R = [V - W/2, V + W/2] with V = c * W and
 * W = 2^q / 10^k in [1, 10). R holds at most one multiple of 10, since
 * W < 10; if it holds one, m (the multiple of 10 at or below V) or m + 10,
 * that is the answer (shortest, as in schubfach_pick); otherwise the integer
 * nearest V is (it is in R, as W >= 1), and that is what schubfach_pick
 * takes between s and t. So three comparisons decide: V - m against W/2,
 * m + 10 - V against W/2, and the fraction of V against 1/2.
 *
 * In: m, dist = (V - m) * 2^59 and half_w = W/2 * 2^59, dist and half_w each
 * below the true value by less than eps / 2. A decision is made only when
 * the compared quantities are more than eps away from the threshold: the
 * exact values then fall on the same side, ties and values exactly on an end
 * of R included (those are never decided here). (If V is a multiple of 10
 * and its approximation falls just below, m is 10 too low and dist just
 * below 10 * 2^59: the multiple of 10 nearest V is then m + 10, and that is
 * the one taken.)
 *
 * Only the multiple of 10 nearest V can be in R: were the other one in R,
 * the nearer one would be too, and R holds at most one. So the three cases
 * come down to one distance, from V to its nearest multiple of 10 (dist, or
 * ten - dist when V is in the upper half): below W/2 (clearly), that
 * multiple is the answer; above W/2 (clearly), the integer nearest V is,
 * unless V is too close to a tie. Each case is computed without a branch:
 * which one holds depends on where V falls between multiples of 10, which
 * random data makes unpredictable (R holds one with a chance of W / 10,
 * about 0.4 averaged over the binades), and a mispredicted branch costs more
 * than computing both. The error bounds hold for ten - dist as for dist
 * (ten - dist is above its true value by less than eps / 2), and V near the
 * middle between two multiples of 10 is 5 * 2^59 from both, far more than
 * W/2 + eps (W < 9.99): whichever is picked, the case is the same. */
static SV_ALWAYS_INLINE bool pick_fast(uint64_t m, uint64_t dist, uint64_t half_w, uint64_t eps,
                                       uint64_t *f)
{
    const uint64_t ten = (uint64_t)10 << 59, half = (uint64_t)1 << 58;
    uint64_t alt = ten - dist;
    bool upper = dist > alt; /* the nearest multiple of 10 is m + 10 */
    uint64_t to_ten = upper ? alt : dist;
    bool in = to_ten + eps < half_w;
    bool out = to_ten > half_w + eps;
    /* the fraction of V is dist's low 59 bits; it is within eps of 1/2 when
     * that of V + 1/2 + eps is within 2 eps of 0 (<< 5 keeps those 59 bits) */
    uint64_t up = dist + half;
    bool clear = (up + eps) << 5 > (2 * eps) << 5;
    /* m + 0 or 10 when in, else V rounded: selected with a mask, and the
     * result tested once (written as conditional expressions, GCC 12 made
     * a branch on in, which random data mispredicts four times in ten) */
    uint64_t in_mask = 0 - (uint64_t)in, r = up >> 59, ten_r = upper ? 10 : 0;
    *f = m + (r ^ ((r ^ ten_r) & in_mask));
    uint64_t decided = in_mask | (0 - (uint64_t)(out & clear));
    return decided != 0;
}

/* What shortest64_fast and shortest32_fast need of the exponent, for every
 * q = be - 1075, be the biased exponent of a double (floats use the same
 * rows), each field ready to use: k = floor_log10_pow2(q), the byte offset in
 * sv_pow5_128 of the row for 10^-(k+1), h' + 4 (see shortest64_fast) and
 * 9 - (h' + 4). Loads instead of two multiplications, their shifts and the
 * unpacking on the hot path. Built by the preprocessor from the same
 * formulas as floor_log10_pow2 and sv__core_floor_log2_pow10 (the test checks
 * every entry against them). */
typedef struct {
    int16_t k;
    uint16_t g_offset; /* bytes from sv_pow5_128 (rows of 16 bytes) */
    uint8_t h;         /* h' + 4: 1..4 */
    uint8_t h_shift;   /* 9 - h */
    uint16_t unused;   /* (8 bytes a row: the row's address is one scaled index) */
} exponent_info;

#define KH_K(be) (((-1075 + (be)) * 78913) >> 18)
#define KH_H(be) ((-1075 + (be)) + (-KH_K(be) - 1) + (((-KH_K(be) - 1) * 1217359) >> 19) + 5)
#define KH(be)                                                                                     \
    {                                                                                              \
        (int16_t) KH_K(be), (uint16_t)((-KH_K(be) - 1 - SV_POW5_MIN) * 16), (uint8_t)KH_H(be),     \
            (uint8_t)(9 - KH_H(be)), 0                                                             \
    }
#define KH4(b) KH(b), KH((b) + 1), KH((b) + 2), KH((b) + 3)
#define KH16(b) KH4(b), KH4((b) + 4), KH4((b) + 8), KH4((b) + 12)
#define KH64(b) KH16(b), KH16((b) + 16), KH16((b) + 32), KH16((b) + 48)
#define KH256(b) KH64(b), KH64((b) + 64), KH64((b) + 128), KH64((b) + 192)
static const exponent_info exponent_infos[2048] = {KH256(0),    KH256(256),  KH256(512),
                                                   KH256(768),  KH256(1024), KH256(1280),
                                                   KH256(1536), KH256(1792)};

/* sv_pow5_128's row for 10^-(k+1): its high word first. */
static inline const uint64_t *exponent_g(const exponent_info *x)
{
    return (const uint64_t *)(const void *)((const char *)sv_pow5_128 + x->g_offset);
}

/* Shortest digits of a normal, regular double c * 2^q from one 64x128-bit
 * product, or false (see pick_fast).
 *
 * The product is with 10^-(k+1), so it gives U = V / 10 = ui + uf / 2^64:
 * m = 10 ui and dist = 10 uf / 2^5, no division. h' + 4 (h' as h for k + 1,
 * -3..0) keeps the shift positive, and the integer part starts at bit 132.
 * W/2 * 2^59 = 5 T 2^(h' - 69) with T the table entry (128 bits).
 *
 * Errors: T is below 10^-(k+1)'s significand by less than one unit
 * (2^-75 in U), and the product's bits below uf are dropped (less than
 * 2^-64): U is below its true value by less than 2^-63, 0.33 units of 2^-59
 * in dist, which loses less than 5 more to the truncation of uf before the
 * multiplication by 5; half_w is below by less than 5.2 (the shift of T's top
 * word). So each is below by less than 8 = eps / 2, and the comparisons are
 * off by less than 10.6 units; the margin is 16. */
static SV_ALWAYS_INLINE bool shortest64_fast(uint64_t c, int q, decimal *out)
{
    const exponent_info *x = &exponent_infos[q + 1075];
    int h = x->h; /* h' + 4: 1..4 */
    const uint64_t *g = exponent_g(x);
    uint64_t ghi = g[0], glo = g[1];

    uint64_t cp = c << h; /* < 2^57 */
    uint64_t x_hi, y_hi;
    sv__core_mul128(glo, cp, &x_hi);
    uint64_t y_lo = sv__core_mul128(ghi, cp, &y_hi);
    uint64_t mid = y_lo + x_hi;
    y_hi += mid < y_lo;
    uint64_t ui = y_hi >> 4, uf = y_hi << 60 | mid >> 4;

    out->e = x->k;
    return pick_fast(10 * ui, (uf >> 4) * 5, (ghi >> x->h_shift) * 5, 16, &out->f);
}

/* The same for a normal, regular float, with T's top word only: U is then
 * below its true value by less than (c << h) / 2^68 + 2^-64 < 2^-40 + 2^-64,
 * less than 10 * 2^19 + 1 units of 2^-59 in dist (plus 5 for the truncation
 * of uf), which is below 2^23 = eps / 2. */
static SV_ALWAYS_INLINE bool shortest32_fast(uint32_t c, int q, decimal *out)
{
    const exponent_info *x = &exponent_infos[q + 1075];
    int h = x->h; /* 1..4 */
    uint64_t ghi = exponent_g(x)[0];

    uint64_t hi;
    uint64_t lo = sv__core_mul128(ghi, (uint64_t)c << h, &hi); /* hi < 2^32 */
    uint64_t uf = hi << 60 | lo >> 4;

    out->e = x->k;
    return pick_fast(10 * (hi >> 4), (uf >> 4) * 5, (ghi >> x->h_shift) * 5, (uint64_t)1 << 24,
                     &out->f);
}

/* The irregular doubles: c = 2^52 above the smallest normal binade, the
 * lowest value of a binade, where the gap below is half the gap above. */
static SV_COLD decimal shortest64_irregular(int q)
{
    uint64_t c = UINT64_C(1) << 52;
    int k = floor_log10_three_quarters_pow2(q);
    int h = q + sv__core_floor_log2_pow10(-k) + 1;
    const uint64_t *g = sv_pow5_128[-k - SV_POW5_MIN];
    uint64_t glo = g[1] + 1;
    uint64_t ghi = g[0] + (glo == 0);

    uint64_t cb = c << 2;
    uint64_t vb = rop128(ghi, glo, cb << h);
    uint64_t vbl = rop128(ghi, glo, (cb - 1) << h);
    uint64_t vbr = rop128(ghi, glo, (cb + 2) << h);
    return schubfach_pick(vb, vbl, vbr, 0, k);
}

static decimal shortest32(uint32_t c, int q)
{
    bool irregular = c == (UINT32_C(1) << 23) && q != -149;
    int k = irregular ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    int h = q + sv__core_floor_log2_pow10(-k) + 1;
    uint64_t g = sv_pow5_128[-k - SV_POW5_MIN][0] + 1;

    uint64_t cb = (uint64_t)c << 2;
    uint64_t cbl = cb - (irregular ? 1 : 2);
    uint64_t cbr = cb + 2;
    uint64_t vb = rop64(g, cb << h);
    uint64_t vbl = rop64(g, cbl << h);
    uint64_t vbr = rop64(g, cbr << h);
    return schubfach_pick(vb, vbl, vbr, c & 1, k);
}

/* ---- entry points ----------------------------------------------------------- */

static size_t put_zero(char *out, bool neg)
{
    memcpy(out, "-0.0", 4);
    if (neg) return 4;
    memcpy(out, "0.0", 3);
    return 3;
}

/* Writes u < 10^8 at p without leading zeros ("0" for 0); returns the digit
 * count. digits8 puts the leading zeros in the low bytes: shifted down past
 * them, the digits start at p. The last digit's byte stands in for the first
 * non-zero one when u is 0. Stores 8 bytes. */
static inline int put_up_to_8_digits(char *p, uint32_t u)
{
    uint64_t r = digits8(u);
    int lead = sv__core_ctz64(r | UINT64_C(1) << 56) >> 3;
    store64(p, (r | ASCII_ZEROS) >> (8 * lead));
    return 8 - lead;
}

/* 10^8 <= u < 2^53 < 10^16: the part above 10^8, then exactly 8 digits. */
static inline int put_9_to_16_digits(char *p, uint64_t u)
{
    uint64_t hi = u / 100000000;
    int n = put_up_to_8_digits(p, (uint32_t)hi);
    store64(p + n, digits8((uint32_t)(u - hi * 100000000)) | ASCII_ZEROS);
    return n + 8;
}

/* A value with few fraction bits, u / 2^j with u odd and 1 <= j <= 8,
 * is exactly a decimal with j fraction digits, the last of them a 5
 * (1 / 2^j = 5^j / 10^j). That decimal is the shortest that reads back
 * when half the gap to the next value, 2^(q-1) with q = -(j + tz) and tz
 * the trailing zero bits of the significand, is below 5 * 10^-j: any
 * decimal with fewer digits is at least that far from the value (the
 * nearest multiple of 10 to a number ending in 5 is 5 away), and of those
 * with as many digits the value itself is the closest. The condition is
 * 5^(j-1) < 2^(tz+1), that is tz >= short_fraction_min_tz[j]. A random
 * double has about 50 fraction bits; short ones come from halves, quarters
 * and the like (9.5, 0.75, 1234.375), common in game data. */
static const uint8_t short_fraction_min_tz[9] = {0, 0, 2, 4, 6, 9, 11, 13, 16};
static const uint32_t pow5_u32[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};

/* Writes u / 2^j (u < 2^54, 1 <= j <= 8, as above, or a whole number
 * u / 2 with j = 1 and u even: see few_fraction_bits): the whole part, the
 * point and the j fraction digits (u mod 2^j) * 5^j, zero-padded, from a
 * digits8 word shifted down to its last j digits. The value is at least
 * 2^-8 > 1e-6 and below 2^53 < 1e21, so the layout is positional. Stores at
 * most 26 bytes. */
static SV_ALWAYS_INLINE size_t put_short_fraction(char *out, bool neg, uint64_t u, int j)
{
    uint64_t whole = u >> j;
    uint32_t frac = (uint32_t)(u & ((UINT64_C(1) << j) - 1)) * pow5_u32[j]; /* < 10^j */
    out[0] = '-'; /* overwritten by the first digit when positive */
    char *p = out + neg;
    int n =
        whole < 100000000 ? put_up_to_8_digits(p, (uint32_t)whole) : put_9_to_16_digits(p, whole);
    p[n] = '.';
    store64(p + n + 1, (digits8(frac) | ASCII_ZEROS) >> (8 * (8 - j)));
    return (size_t)neg + (size_t)n + 1 + (size_t)j;
}

/* The fraction put_short_fraction writes for c * 2^q with j = -q - tz <= 8
 * fraction bits (tz: the trailing zero bits of c): u / 2^j with u = c >> tz,
 * or for a whole number (j <= 0) u = 2 * (c >> -q) over j = 1, whose one
 * fraction digit is the 0 of "12.0". Chosen with masks, not a branch: whole
 * numbers and halves alternate at random in game data (a stat of 9.5, then
 * 12.0), and a test on j missed about every other time. short_fraction_min_tz[1]
 * is 0, so a whole number never takes the search. */
typedef struct few_fraction_bits {
    uint64_t u;
    int j;
} few_fraction_bits;

static SV_ALWAYS_INLINE few_fraction_bits few_fraction_bits_of(uint64_t c, int tz, int j)
{
    /* (j + tz = -q: 0 to 60 here, a valid shift either way) */
    uint64_t whole_mask = 0 - (uint64_t)(j <= 0);
    uint64_t as_whole = (c >> (j + tz)) << 1, as_fraction = c >> tz;
    few_fraction_bits x;
    x.u = (as_whole & whole_mask) | (as_fraction & ~whole_mask);
    x.j = j ^ ((j ^ 1) & (int)whole_mask);
    return x;
}

/* Zero, subnormals, the lowest double of each binade and what
 * shortest64_fast cannot decide, off the common path. It takes the double
 * itself, so that the common path keeps nothing alive for it. */
static SV_COLD size_t fmt_f64_slow(double d, char *out)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    bool neg = bits >> 63;
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    int be = (int)((bits >> 52) & 0x7FF);
    decimal dec;
    if (be == 0) {
        if (frac == 0) return put_zero(out, neg);
        dec = shortest64(frac, -1074);
    } else if (frac == 0 && be > 1) {
        /* The lowest value of a binade has a nearer neighbour below, except
         * in the lowest binade, where the largest subnormal is as far below
         * as the next double is above. */
        int n = 1075 - 52 - be; /* the value is 2^-n */
        if (n >= 1 && n <= 19) {
            /* 0.5, 0.25, ...: 2^-n = 5^n 10^-n exactly (5^n = 10^n / 2^n),
             * and that is the shortest, because any decimal with fewer
             * digits is at least 5 * 10^-n away (the last digit of 5^n is
             * 5), more than the half gap above, 2^-n-53, while
             * 5^(n-1) < 2^53 (n <= 23; the table stops at 10^19). */
            dec.f = pow10_u64[n] >> n;
            dec.e = -n;
        } else {
            dec = shortest64_irregular(be - 1075);
        }
    } else {
        dec = shortest64(frac | (UINT64_C(1) << 52), be - 1075);
    }
    dec = normalize(dec.f, dec.e, 17);
    return write17(out, neg, dec.f, dec.e);
}

/* A double c * 2^q with at most 8 fraction bits, j = -q - tz of them (tz:
 * the trailing zero bits of c): a whole number (j <= 0), a short fraction
 * when it has the precision to spare (put_short_fraction), else the search.
 * Called, not inlined, so that the registers it uses are not saved on the
 * path of every other number. */
static SV_NOINLINE size_t fmt_f64_few_fraction_bits(double d, char *out, bool neg, uint64_t c,
                                                    int tz, int j)
{
    few_fraction_bits x = few_fraction_bits_of(c, tz, j);
    if (tz >= short_fraction_min_tz[x.j]) return put_short_fraction(out, neg, x.u, x.j);
    return fmt_f64_slow(d, out);
}

size_t sv__core_fmt_f64(double d, char *out)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    bool neg = bits >> 63;
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    int be = (int)((bits >> 52) & 0x7FF);
    if (be == 0) return fmt_f64_slow(d, out);

    uint64_t c = frac | (UINT64_C(1) << 52);
    int q = be - 1075;
    decimal dec;
    if (q <= 0) {
        /* Whole numbers below 2^53: every integer there is a double, so the
         * integer itself is the shortest text. (For q < -52 the test fails
         * by itself: c has at most 52 trailing zero bits.) Then values with
         * few fraction bits (put_short_fraction; j <= 8 keeps -q below 64). */
        int tz = sv__core_ctz64(c);
        /* j = -q - tz <= 8, written on be: one addition on the common path */
        if (be + tz >= 1075 - 8) return fmt_f64_few_fraction_bits(d, out, neg, c, tz, -q - tz);
    }
    /* frac == 0: the lowest double of a binade, see fmt_f64_slow. */
    if (frac == 0 || !shortest64_fast(c, q, &dec)) return fmt_f64_slow(d, out);
    /* A normal double's shortest digits number 16 or 17 (c >= 2^52 and
     * 1 <= 2^q / 10^k < 10 give 4.5e15 <= digits < 9.1e16). */
    unsigned short_by_one = dec.f < UINT64_C(10000000000000000);
    /* (unpredictable: a multiplication by 1 or 10, not a choice, which GCC
     * turned into a branch) */
    dec.f *= 1 + 9 * (uint64_t)short_by_one;
    dec.e -= (int)short_by_one;
    return write17(out, neg, dec.f, dec.e);
}

/* Zero, subnormals, the lowest float of each binade and what
 * shortest32_fast cannot decide. */
static SV_COLD size_t fmt_f32_slow(char *out, bool neg, uint32_t frac, int be)
{
    if (be == 0 && frac == 0) return put_zero(out, neg);
    int n = 150 - 23 - be; /* for frac == 0, the value is 2^-n */
    decimal dec;
    if (frac == 0 && n >= 1 && n <= 11) {
        /* 2^-n = 5^n 10^-n, the shortest while 5^(n-1) < 2^24 (see
         * fmt_f64_slow); 5^11 has 8 digits. */
        dec = normalize(pow10_u64[n] >> n, -n, 9);
    } else {
        dec = be ? shortest32(frac | (UINT32_C(1) << 23), be - 150) : shortest32(frac, -149);
        dec = normalize(dec.f, dec.e, 9);
    }
    return write9(out, neg, (uint32_t)dec.f, dec.e);
}

/* The same for floats. */
static SV_NOINLINE size_t fmt_f32_few_fraction_bits(char *out, bool neg, uint32_t c, int tz, int j,
                                                    int be)
{
    few_fraction_bits x = few_fraction_bits_of(c, tz, j);
    if (tz >= short_fraction_min_tz[x.j]) return put_short_fraction(out, neg, x.u, x.j);
    return fmt_f32_slow(out, neg, c & ((UINT32_C(1) << 23) - 1), be);
}

/* sv__core_fmt_f32, inlined into it and into the loop of sv__core_fmt_f32s. */
static SV_ALWAYS_INLINE size_t fmt_f32(float f, char *out)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bool neg = bits >> 31;
    uint32_t frac = bits & ((UINT32_C(1) << 23) - 1);
    int be = (int)((bits >> 23) & 0xFF);
    if (be == 0) return fmt_f32_slow(out, neg, frac, be);

    uint32_t c = frac | (UINT32_C(1) << 23);
    int q = be - 150;
    decimal dec;
    if (q <= 0) {
        /* Whole numbers below 2^24, then values with few fraction bits (see
         * sv__core_fmt_f64). */
        int tz = sv__core_ctz64(c);
        if (be + tz >= 150 - 8) return fmt_f32_few_fraction_bits(out, neg, c, tz, -q - tz, be);
    }
    if (frac == 0 || !shortest32_fast(c, q, &dec)) return fmt_f32_slow(out, neg, frac, be);
    /* 7 to 9 digits: c >= 2^23 and 1 <= W < 10 give 8.3e6 <= V < 1.7e8.
     * The digits short of 9, without a branch (unpredictable, as in
     * sv__core_fmt_f64): one multiplication by 1, 10 or 100. */
    unsigned short_by = (unsigned)(dec.f < 100000000) + (unsigned)(dec.f < 10000000);
    dec.f *= pow10_u64[short_by];
    dec.e -= (int)short_by;
    return write9(out, neg, (uint32_t)dec.f, dec.e);
}

size_t sv__core_fmt_f32(float f, char *out)
{
    return fmt_f32(f, out);
}

/* One call for a run of floats (a vector's or a colour's components): the
 * registers fmt_f32 needs are saved once, not once per number. Each number
 * is followed by ", " stored whole and advanced by sep, the last one taken
 * back. */
size_t sv__core_fmt_f32s(const void *data, size_t n, size_t sep, char *out)
{
    if (n == 0) return 0;
    /* (a pointer to the last number, compared after each: the loop keeps
     * fewer values alive than with a count, and none on the stack) */
    const unsigned char *d = (const unsigned char *)data;
    const unsigned char *last = d + 4 * (n - 1);
    char *p = out;
    for (;; d += 4) {
        float f;
        memcpy(&f, d, sizeof f);
        p += fmt_f32(f, p);
        if (d == last) return (size_t)(p - out);
        memcpy(p, ", ", 2);
        p += sep;
    }
}
