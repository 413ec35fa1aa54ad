/* Doubles printed as O3DE's RapidJSON Writer prints them (1.1 with the
 * 2021 DigitGen rounding fix, see digit_gen):
 * Grisu2 digits (round-trip exact, not always the shortest) laid out by
 * RapidJSON's Prettify rules. docs/formats/o3de.md, "What serval follows", Text.
 *
 * Grisu2 is Florian Loitsch's algorithm ("Printing Floating-Point Numbers
 * Quickly and Accurately with Integers", PLDI 2010). The table below holds
 * 10^k for k = -348, -340, ..., 340 as a 64-bit significand rounded to
 * nearest and its binary exponent; it was computed with exact rational
 * arithmetic (Python fractions), and it is the table RapidJSON uses. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"
#include "o3de_float_powers.h" /* float_powers, for float_text */
#include "o3de_internal.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

typedef struct diyfp {
    uint64_t f;
    int e;
} diyfp;

static const uint64_t cached_f[87] = {
    UINT64_C(0xfa8fd5a0081c0288), UINT64_C(0xbaaee17fa23ebf76), UINT64_C(0x8b16fb203055ac76),
    UINT64_C(0xcf42894a5dce35ea), UINT64_C(0x9a6bb0aa55653b2d), UINT64_C(0xe61acf033d1a45df),
    UINT64_C(0xab70fe17c79ac6ca), UINT64_C(0xff77b1fcbebcdc4f), UINT64_C(0xbe5691ef416bd60c),
    UINT64_C(0x8dd01fad907ffc3c), UINT64_C(0xd3515c2831559a83), UINT64_C(0x9d71ac8fada6c9b5),
    UINT64_C(0xea9c227723ee8bcb), UINT64_C(0xaecc49914078536d), UINT64_C(0x823c12795db6ce57),
    UINT64_C(0xc21094364dfb5637), UINT64_C(0x9096ea6f3848984f), UINT64_C(0xd77485cb25823ac7),
    UINT64_C(0xa086cfcd97bf97f4), UINT64_C(0xef340a98172aace5), UINT64_C(0xb23867fb2a35b28e),
    UINT64_C(0x84c8d4dfd2c63f3b), UINT64_C(0xc5dd44271ad3cdba), UINT64_C(0x936b9fcebb25c996),
    UINT64_C(0xdbac6c247d62a584), UINT64_C(0xa3ab66580d5fdaf6), UINT64_C(0xf3e2f893dec3f126),
    UINT64_C(0xb5b5ada8aaff80b8), UINT64_C(0x87625f056c7c4a8b), UINT64_C(0xc9bcff6034c13053),
    UINT64_C(0x964e858c91ba2655), UINT64_C(0xdff9772470297ebd), UINT64_C(0xa6dfbd9fb8e5b88f),
    UINT64_C(0xf8a95fcf88747d94), UINT64_C(0xb94470938fa89bcf), UINT64_C(0x8a08f0f8bf0f156b),
    UINT64_C(0xcdb02555653131b6), UINT64_C(0x993fe2c6d07b7fac), UINT64_C(0xe45c10c42a2b3b06),
    UINT64_C(0xaa242499697392d3), UINT64_C(0xfd87b5f28300ca0e), UINT64_C(0xbce5086492111aeb),
    UINT64_C(0x8cbccc096f5088cc), UINT64_C(0xd1b71758e219652c), UINT64_C(0x9c40000000000000),
    UINT64_C(0xe8d4a51000000000), UINT64_C(0xad78ebc5ac620000), UINT64_C(0x813f3978f8940984),
    UINT64_C(0xc097ce7bc90715b3), UINT64_C(0x8f7e32ce7bea5c70), UINT64_C(0xd5d238a4abe98068),
    UINT64_C(0x9f4f2726179a2245), UINT64_C(0xed63a231d4c4fb27), UINT64_C(0xb0de65388cc8ada8),
    UINT64_C(0x83c7088e1aab65db), UINT64_C(0xc45d1df942711d9a), UINT64_C(0x924d692ca61be758),
    UINT64_C(0xda01ee641a708dea), UINT64_C(0xa26da3999aef774a), UINT64_C(0xf209787bb47d6b85),
    UINT64_C(0xb454e4a179dd1877), UINT64_C(0x865b86925b9bc5c2), UINT64_C(0xc83553c5c8965d3d),
    UINT64_C(0x952ab45cfa97a0b3), UINT64_C(0xde469fbd99a05fe3), UINT64_C(0xa59bc234db398c25),
    UINT64_C(0xf6c69a72a3989f5c), UINT64_C(0xb7dcbf5354e9bece), UINT64_C(0x88fcf317f22241e2),
    UINT64_C(0xcc20ce9bd35c78a5), UINT64_C(0x98165af37b2153df), UINT64_C(0xe2a0b5dc971f303a),
    UINT64_C(0xa8d9d1535ce3b396), UINT64_C(0xfb9b7cd9a4a7443c), UINT64_C(0xbb764c4ca7a44410),
    UINT64_C(0x8bab8eefb6409c1a), UINT64_C(0xd01fef10a657842c), UINT64_C(0x9b10a4e5e9913129),
    UINT64_C(0xe7109bfba19c0c9d), UINT64_C(0xac2820d9623bf429), UINT64_C(0x80444b5e7aa7cf85),
    UINT64_C(0xbf21e44003acdd2d), UINT64_C(0x8e679c2f5e44ff8f), UINT64_C(0xd433179d9c8cb841),
    UINT64_C(0x9e19db92b4e31ba9), UINT64_C(0xeb96bf6ebadf77d9), UINT64_C(0xaf87023b9bf0ee6b)};
static const int16_t cached_e[87] = {
    -1220, -1193, -1166, -1140, -1113, -1087, -1060, -1034, -1007, -980, -954, -927, -901,
    -874,  -847,  -821,  -794,  -768,  -741,  -715,  -688,  -661,  -635, -608, -582, -555,
    -529,  -502,  -475,  -449,  -422,  -396,  -369,  -343,  -316,  -289, -263, -236, -210,
    -183,  -157,  -130,  -103,  -77,   -50,   -24,   3,     30,    56,   83,   109,  136,
    162,   189,   216,   242,   269,   295,   322,   348,   375,   402,  428,  455,  481,
    508,   534,   561,   588,   614,   641,   667,   694,   720,   747,  774,  800,  827,
    853,   880,   907,   933,   960,   986,   1013,  1039,  1066};

static const uint64_t pow10_u64[20] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull,
                                       10000000000000000ull,
                                       100000000000000000ull,
                                       1000000000000000000ull,
                                       10000000000000000000ull};

#define HIDDEN_BIT (UINT64_C(1) << 52)

static diyfp from_double(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    int biased = (int)((u >> 52) & 0x7ff);
    uint64_t sig = u & (HIDDEN_BIT - 1);
    diyfp r;
    if (biased) {
        r.f = sig | HIDDEN_BIT;
        r.e = biased - 1075;
    } else {
        r.f = sig;
        r.e = -1074;
    }
    return r;
}

static diyfp normalize(diyfp x)
{
    int s = __builtin_clzll(x.f); /* x.f != 0: zero is written before Grisu2 */
    x.f <<= s;
    x.e -= s;
    return x;
}

/* The 128-bit product's high half, rounded on the dropped bits' top bit. */
static diyfp mul(diyfp a, diyfp b)
{
    unsigned __int128 p = (unsigned __int128)a.f * b.f;
    uint64_t h = (uint64_t)(p >> 64), l = (uint64_t)p;
    if (l & (UINT64_C(1) << 63)) h++;
    diyfp r = {h, a.e + b.e + 64};
    return r;
}

static void boundaries(diyfp v, diyfp *minus, diyfp *plus)
{
    diyfp pl = {(v.f << 1) + 1, v.e - 1};
    int s = __builtin_clzll(pl.f) - (63 - 53); /* bring the top bit to bit 53 */
    if (s > 0) {
        pl.f <<= s;
        pl.e -= s;
    }
    pl.f <<= 64 - 52 - 2;
    pl.e -= 64 - 52 - 2;
    diyfp mi;
    if (v.f == HIDDEN_BIT) {
        mi.f = (v.f << 2) - 1;
        mi.e = v.e - 2;
    } else {
        mi.f = (v.f << 1) - 1;
        mi.e = v.e - 1;
    }
    mi.f <<= mi.e - pl.e;
    mi.e = pl.e;
    *minus = mi;
    *plus = pl;
}

/* RapidJSON computes k = ceil((-61 - e) log10(2) + 347) in double
 * arithmetic; here in integers: x log10(2) is an integer only for x = 0,
 * otherwise its ceiling is its floor plus one, and (x * 78913) >> 18 is
 * floor(x log10(2)) for |x| <= 1200 (numconv's floor_log10_pow2; doubles
 * give |x| < 1100). It is the same k for every e (tests/unit/
 * test_o3de_dtoa.c compares whole texts over every exponent). */
static diyfp cached_power(int e, int *k10)
{
    int x = -61 - e;
    int k = 347 + (x == 0 ? 0 : ((x * 78913) >> 18) + 1);
    unsigned index = (unsigned)((k >> 3) + 1);
    *k10 = -(-348 + (int)index * 8);
    diyfp r = {cached_f[index], cached_e[index]};
    return r;
}

static int count_digits32(uint32_t n)
{
    if (n < 10) return 1;
    if (n < 100) return 2;
    if (n < 1000) return 3;
    if (n < 10000) return 4;
    if (n < 100000) return 5;
    if (n < 1000000) return 6;
    if (n < 10000000) return 7;
    if (n < 100000000) return 8;
    return 9;
}

/* The count (1..9, the digits of v, 1 <= v < 10^9) decimal digits of v at
 * buf, with constant-size stores (up to 9 bytes). The low eight digits are
 * computed side by side in one word (o3_eight_digits, as the typed JSON
 * writer's integers, json_write_internal.h). */
static inline int int_digits(char *buf, uint32_t v, int count)
{
    uint32_t top = v / 100000000, low = v - top * 100000000;
    uint64_t x = o3_eight_digits(low);
    if (count == 9) {
        buf[0] = (char)('0' + top);
        sv__core_store64le(buf + 1, x);
    } else {
        sv__core_store64le(buf, x >> (8 * (8 - count))); /* leading zeros shifted out */
    }
    return count;
}

static void grisu_round(char *buf, int len, uint64_t delta, uint64_t rest, uint64_t ten_kappa,
                        uint64_t wp_w)
{
    while (rest < wp_w && delta - rest >= ten_kappa &&
           (rest + ten_kappa < wp_w || wp_w - rest > rest + ten_kappa - wp_w)) {
        buf[len - 1]--;
        rest += ten_kappa;
    }
}

/* The end of the digits in the fraction: n digits, the last at 10^kappa
 * (kappa < 0), rounded towards w. */
static inline void fraction_end(char *buf, int n, int kappa, uint64_t delta, uint64_t p2,
                                uint64_t one, uint64_t wp_w, int *len, int *k)
{
    *k += kappa;
    *len = n;
    int index = -kappa;
    /* wp_w scaled to the digits' last place. O3DE's RapidJSON has the
     * 2021 fix (upstream commit bb06211, "Fix small errors in dtoa
     * output"): the factor comes from a 20-entry 64-bit table, so
     * rounding goes on up to 19 fraction digits; RapidJSON 1.1.0
     * stopped at 9 and wrote e.g. 10.100000381469729 where O3DE's
     * prefabs have 10.100000381469728. Past 19 the factor is 0 and
     * the digits stay as generated. The product wraps modulo 2^64
     * as RapidJSON's does. */
    grisu_round(buf, n, delta, p2, one, wp_w * (index < 20 ? pow10_u64[index] : 0));
}

/* int_digits with the decimal point already in place: the count digits of
 * v with '.' after the first point of them (1 <= point <= count), count + 1
 * bytes. The digits after the point are stored again one byte further up,
 * from the same word (no load of what was just stored). */
static inline void int_digits_point(char *buf, uint32_t v, int count, int point)
{
    uint32_t top = v / 100000000, low = v - top * 100000000;
    uint64_t x = o3_eight_digits(low);
    if (count == 9) {
        buf[0] = (char)('0' + top);
        sv__core_store64le(buf + 1, x);
        if (point < count) sv__core_store64le(buf + point + 1, x >> (8 * (point - 1)));
    } else {
        uint64_t y = x >> (8 * (8 - count)); /* leading zeros shifted out */
        sv__core_store64le(buf, y);
        if (point < count) sv__core_store64le(buf + point + 1, y >> (8 * point));
    }
    buf[point] = '.';
}

/* The digits go to buf with the count kept in a local: buf is char, which
 * may alias anything, so a count behind a pointer would be stored and
 * loaded again for every digit. Returns true when the digits are already
 * laid out with their decimal point (*len digits and the point, which is
 * prettify's text for them: see below), false when prettify still has to
 * lay them out. */
static O3_ALWAYS_INLINE bool digit_gen(diyfp w, diyfp mp, uint64_t delta, char *buf, int *len,
                                       int *k)
{
    diyfp one = {UINT64_C(1) << -mp.e, mp.e};
    uint64_t wp_w = mp.f - w.f;
    uint32_t p1 = (uint32_t)(mp.f >> -one.e);
    uint64_t p2 = mp.f & (one.f - 1);
    int kappa = count_digits32(p1);
    int n = 0;
    bool laid = false;
    if (p2 > delta && p1 - 1u < 999999999u) {
        /* Every remainder the loop below would test holds p2, so none is
         * within delta: it would write all of p1's digits and stop on none
         * of them. Written at once instead (most numbers with a fraction:
         * 17-digit ones always). */
        /* The digits will end in the fraction (there is at least one
         * more), so they are p1's kappa digits and n - kappa more, and the
         * decimal exponent prettify gets is k + kappa - n: the point goes
         * after the first kk = kappa + k of them (prettify's kk = len + k).
         * When that is within p1's digits (1 <= kk <= kappa), prettify
         * would move the digits after it up by one and write '.' there
         * (its second case: 0 < kk <= 21 and k < 0): written so at once,
         * and the fraction's digits one byte further up. */
        int kk = kappa + *k;
        if (kk >= 1 && kk <= kappa) {
            int_digits_point(buf, p1, kappa, kk);
            laid = true;
            buf++;
        } else {
            int_digits(buf, p1, kappa);
        }
        n = kappa;
        kappa = 0;
    }
    while (kappa > 0) {
        uint32_t d;
        /* constant divisors: the compiler turns each into a multiplication */
        switch (kappa) {
        case 9:
            d = p1 / 100000000;
            p1 %= 100000000;
            break;
        case 8:
            d = p1 / 10000000;
            p1 %= 10000000;
            break;
        case 7:
            d = p1 / 1000000;
            p1 %= 1000000;
            break;
        case 6:
            d = p1 / 100000;
            p1 %= 100000;
            break;
        case 5:
            d = p1 / 10000;
            p1 %= 10000;
            break;
        case 4:
            d = p1 / 1000;
            p1 %= 1000;
            break;
        case 3:
            d = p1 / 100;
            p1 %= 100;
            break;
        case 2:
            d = p1 / 10;
            p1 %= 10;
            break;
        case 1:
            d = p1;
            p1 = 0;
            break;
        default: d = 0; break;
        }
        /* a leading zero is written and then written over: no branch */
        buf[n] = (char)('0' + d);
        n += (d | (uint32_t)n) != 0;
        kappa--;
        uint64_t tmp = ((uint64_t)p1 << -one.e) + p2;
        if (tmp <= delta) {
            *k += kappa;
            *len = n;
            grisu_round(buf, n, delta, tmp, pow10_u64[kappa] << -one.e, wp_w);
            return false; /* (not laid: the digits end in p1) */
        }
    }
    const int shift = -one.e;
    const uint64_t mask = one.f - 1;
    if (n != 0) {
        /* Eight fraction digits at once when none of them ends the digits
         * (most numbers need 10 to 13 after the integer part): p2 * 10^8
         * >> shift (below 10^8, as p2 < 2^shift) is the eight digits the
         * loops below would write one or two at a time, and its low bits
         * the remainder after them. A stop within them (remainder r_j <
         * delta 10^j after digit j) would leave a remainder below delta
         * 10^8 after the eighth, as r_(j+1) <= 10 r_j; so when that one is
         * not below, none of the eight stops and they are written at once,
         * and when it is, the loops below find the stop from here. In 128
         * bits: p2 < 2^60 and 10^8 < 2^27. The remainder left is at least
         * the new delta, as the loops below need. */
        unsigned __int128 eight_more = (unsigned __int128)p2 * 100000000u;
        unsigned __int128 delta8 = (unsigned __int128)delta * 100000000u;
        uint64_t rest = (uint64_t)eight_more & mask;
        if (rest >= delta8) {
            sv__core_store64le(buf + n, o3_eight_digits((uint32_t)(eight_more >> shift)));
            n += 8;
            kappa -= 8;
            p2 = rest;
            delta = (uint64_t)delta8;
        }
    }
    if (n != 0 && shift <= 57) {
        /* The loop below two digits a step: p2 * 100 >> shift is the pair
         * (10 d1 + d2) and its low bits the remainder after both; p2 * 10
         * gives the remainder after the first alone, tested first. p2 <
         * 2^57 keeps p2 * 100 below 2^64, and delta stays below p2 while
         * the loop goes on (else it would have stopped), so delta * 100
         * does not wrap either. */
        for (;;) {
            uint64_t two_more = p2 * 100, delta2 = delta * 100;
            memcpy(buf + n, o3_digit_pairs + 2 * (two_more >> shift), 2);
            /* One test a pair: a stop after the first digit (remainder r <
             * delta1) is also one after the second, whose remainder is at
             * most 10 r < 10 delta1 = delta2; so the pair's test is made
             * first and the first digit's only when it passes (the one-digit
             * figures are only needed then). */
            if ((two_more & mask) < delta2) {
                uint64_t one_more = p2 * 10, delta1 = delta * 10;
                if ((one_more & mask) < delta1)
                    fraction_end(buf, n + 1, kappa - 1, delta1, one_more & mask, one.f, wp_w, len,
                                 k);
                else
                    fraction_end(buf, n + 2, kappa - 2, delta2, two_more & mask, one.f, wp_w, len,
                                 k);
                return laid;
            }
            n += 2;
            kappa -= 2;
            p2 = two_more & mask;
            delta = delta2;
        }
    }
    for (;;) {
        p2 *= 10;
        delta *= 10;
        char d = (char)(p2 >> shift);
        buf[n] = (char)('0' + d);
        /* (n is 0 only while p1 was 0: never for a normalized boundary, whose
         * p1 is at least 4; the rule is kept all the same) */
        n += n != 0 || d != 0;
        p2 &= mask;
        kappa--;
        if (p2 < delta) {
            fraction_end(buf, n, kappa, delta, p2, one.f, wp_w, len, k);
            return laid;
        }
    }
}

/* Grisu2's digits of value at buf: true when digit_gen laid them out
 * (*len digits and a point), false when prettify has to. */
static O3_ALWAYS_INLINE bool grisu2(double value, char *buf, int *len, int *k)
{
    diyfp v = from_double(value), wm, wp;
    boundaries(v, &wm, &wp);
    diyfp c_mk = cached_power(wp.e, k);
    diyfp w = mul(normalize(v), c_mk);
    diyfp wpk = mul(wp, c_mk), wmk = mul(wm, c_mk);
    wmk.f++;
    wpk.f--;
    return digit_gen(w, wpk, wpk.f - wmk.f, buf, len, k);
}

const char o3_digit_pairs[201] = "0001020304050607080910111213141516171819"
                                 "2021222324252627282930313233343536373839"
                                 "4041424344454647484950515253545556575859"
                                 "6061626364656667686970717273747576777879"
                                 "8081828384858687888990919293949596979899";

/* A whole number 2^22 <= N < 2^53 is written "N.0" without Grisu2, and
 * that is Grisu2's text, by the argument of quarter_text below with
 * integers for candidates: N's ulp u is at most 1 and Grisu2's delta about
 * u (3u/4 at a power of two), the upper boundary M+ about N + u/2. Digit
 * generation truncates M+ at 10^kappa for kappa = 9, 8, ... and stops at
 * the first truncation T with M+ - T < delta. Every truncation with kappa
 * >= 0 is a whole number at most M+ < N + 1, so one other than N is at
 * most N - 1, more than delta below M+: none stops before N's own digits,
 * which stop (M+ - N is about u/2 < delta) either at kappa = 0 or earlier
 * when N ends in zeros, which prettify writes back. The rounding step
 * lowers the last digit only when delta minus the remainder is at least
 * 10^kappa >= 1 > delta: never. N < 10^16 is below prettify's 10^21, so
 * the layout is the digits, ".0". The test compares with Grisu2 itself
 * over random and edge integers. */
static char *integer_text(uint64_t n, char *buf)
{
    char *p = buf;
    if (n < 1000000000) { /* up to nine digits: int_digits alone */
        p += int_digits(p, (uint32_t)n, count_digits32((uint32_t)n));
    } else { /* the digits above the low eight (n < 2^53 < 10^16: up to eight), then those */
        uint32_t hi = (uint32_t)(n / 100000000), lo = (uint32_t)(n - (uint64_t)hi * 100000000);
        p += int_digits(p, hi, count_digits32(hi));
        sv__core_store64le(p, o3_eight_digits(lo));
        p += 8;
    }
    memcpy(p, ".0", 2);
    return p + 2;
}

/* A positive multiple of 1/4 below 2^22 (integers, halves and quarters,
 * common in authored data) gets the text of its exact decimal without
 * Grisu2, and they are Grisu2's: Grisu2 stops at the first prefix of the
 * upper boundary within delta (about one ulp, at most 2^-30 here) of it;
 * every shorter decimal is at least 0.05 away from the value, the exact
 * one is half an ulp away, and rounding would need a digit step (at least
 * 0.01) below delta. Neither has trailing zeros: a zero digit leaves
 * Grisu2's remainder as it was, so it never ends the digits. Whole numbers
 * from 2^22 up to 2^53 go to integer_text. Returns the end of the text, or
 * NULL for anything else. tests/unit/test_o3de_dtoa.c checks both against
 * Grisu2 itself. */
static inline char *quarters_text(uint32_t m, char *buf);
static char *quarter_text(double d, char *buf)
{
    /* d > 0 (zero and the sign are handled by the caller) is in
     * [2^be, 2^(be+1)); a multiple of 1/4 below 2^22 has be in -2..21 and
     * no significand bit below 2^-2 (the lowest 50 - be of the 52 stored),
     * and 4d is then the significand shifted down by 50 - be. Integer
     * tests: a float compare here stalled on the conversion before it. */
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    int be = (int)(u >> 52) - 1023;
    if (be < -2 || be > 52) return NULL;
    uint64_t sig = (u & (HIDDEN_BIT - 1)) | HIDDEN_BIT;
    if (be > 21) { /* 2^22 <= d < 2^53: whole when no bit below 2^0 is set */
        if (sig & ((UINT64_C(1) << (52 - be)) - 1)) return NULL;
        return integer_text(sig >> (52 - be), buf);
    }
    if (sig & ((UINT64_C(1) << (50 - be)) - 1)) return NULL;
    return quarters_text((uint32_t)(sig >> (50 - be)), buf);
}

/* The text of m / 4 (0 < m < 2^24), as quarter_text says. */
static O3_ALWAYS_INLINE char *quarters_text(uint32_t m, char *buf)
{
    uint32_t ip = m >> 2;
    /* Laid out as prettify lays out those digits: the value is below
     * 10^21 and at least 0.25, so always positionally; the integer part
     * (its trailing zeros, which Grisu2 moves to the exponent, written back
     * by prettify), the point, then the fraction or "0" for an integer. */
    static const char frac_text[4][2] = {{'0', 0}, {'2', '5'}, {'5', 0}, {'7', '5'}};
    static const uint8_t frac_len[4] = {1, 2, 1, 2};
    unsigned f = m & 3;
    char *p = buf;
    if (ip == 0)
        *p++ = '0';
    else
        p += o3_put_digits(p, ip); /* ip < 2^22 < 10^8: one word, no digit count */
    *p++ = '.';
    memcpy(p, frac_text[f], 2);
    return p + frac_len[f];
}

static char *write_exponent(int k, char *p)
{
    if (k < 0) {
        *p++ = '-';
        k = -k;
    }
    if (k >= 100) {
        *p++ = (char)('0' + k / 100);
        k %= 100;
        *p++ = (char)('0' + k / 10);
        *p++ = (char)('0' + k % 10);
    } else if (k >= 10) {
        *p++ = (char)('0' + k / 10);
        *p++ = (char)('0' + k % 10);
    } else {
        *p++ = (char)('0' + k);
    }
    return p;
}

/* memmove(p + off, p, n) for the few digits a layout moves (n <= 24): all
 * loads before the stores, each load inside [p, p + n), so nothing past
 * the digits is read; no call for a library memmove. */
static inline void move_up(char *p, size_t n, size_t off)
{
    if (n > 24) {
        memmove(p + off, p, n); /* (Grisu2 gives at most 17 digits) */
    } else if (n >= 8) {
        uint64_t a = sv__core_load64(p), b = sv__core_load64(p + n - 8);
        uint64_t c = sv__core_load64(p + (n > 16 ? 8 : n - 8));
        memcpy(p + off, &a, 8);
        memcpy(p + off + (n > 16 ? 8 : n - 8), &c, 8);
        memcpy(p + off + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        memcpy(p + off, &a, 4);
        memcpy(p + off + n - 4, &b, 4);
    } else {
        for (size_t i = n; i-- > 0;) p[off + i] = p[i];
    }
}

/* RapidJSON's Prettify with maxDecimalPlaces = 324 (the Writer's default). */
static O3_ALWAYS_INLINE char *prettify(char *buf, int len, int k)
{
    int kk = len + k;
    if (k >= 0 && kk <= 21) {
        for (int i = len; i < kk; i++) buf[i] = '0';
        buf[kk] = '.';
        buf[kk + 1] = '0';
        return buf + kk + 2;
    }
    if (kk > 0 && kk <= 21) {
        move_up(buf + kk, (size_t)(len - kk), 1);
        buf[kk] = '.';
        return buf + len + 1;
    }
    if (kk > -6 && kk <= 0) {
        int offset = 2 - kk;
        move_up(buf, (size_t)len, (size_t)offset);
        buf[0] = '0';
        buf[1] = '.';
        for (int i = 2; i < offset; i++) buf[i] = '0';
        return buf + len + offset;
    }
    if (len == 1) {
        buf[1] = 'e';
        return write_exponent(kk - 1, buf + 2);
    }
    move_up(buf + 1, (size_t)(len - 1), 1);
    buf[1] = '.';
    buf[len + 1] = 'e';
    return write_exponent(kk - 1, buf + len + 2);
}

/* ---- doubles that are exact floats ----
 * Most of O3DE's numbers are floats widened to doubles. For those Grisu2's
 * digits are found from one product instead of digit by digit, with the
 * same w, M+ and delta as grisu2() above (the same products, rounded the
 * same way) and the same stop and rounding decisions, taken on the whole
 * digit string at once:
 *
 * With s = -M+.e and the fraction scaled by 10^J, D = floor(M+ 10^J / 2^s)
 * is every digit Grisu2 can write down to 10^-J and R = M+ 10^J mod 2^s the
 * remainder after them. Grisu2 stops at the first (coarsest) place where
 * the remainder is below delta (at or below, in the integer part). J is
 * taken as the fewest places with delta 10^J >= 2^s, so that Grisu2 stops
 * at 10^-J at the latest (its remainder there is below 2^s). The remainder
 * i places higher, times 10^J, is (D mod 10^i) 2^s + R (exact integers),
 * and its test is against Delta = delta 10^J < 10 2^s: so it can pass only
 * while D mod 10^i < 10, i.e. when the i - 1 digits above D's last are
 * zeros; that is all this looks at. Grisu2's rounding can move the last
 * digit only when it stops at 10^-J (one place higher, delta - remainder
 * >= 10^i 2^s cannot hold), with its remainder R and its wp_w * 10^J.
 * Integer-part stops (a fraction of zeros) are left to grisu2(). The
 * equality with grisu2() is checked over every positive finite float by
 * tests/tools/o3de_ftoa_exhaustive.c (a non-default target) and on a
 * sample by tests/unit/test_o3de_ftoa.c. */

/* The sixteen decimal digits of hi 10^8 + lo (each below 10^8, leading
 * zeros included) as two words of ASCII, the first digit in the lowest
 * byte of *first. With SSE2 the two halves of eight are split side by side
 * into four groups of four (x / 10^4 is x 109951163 >> 40, exact below
 * 10^8), each group copied into four 16-bit lanes, and lane j of a group
 * becomes its prefix of j + 1 digits, g / 10^(3 - j): (4 g * a_j >> 16) *
 * b_j >> 16, with a_j / 2^14 * b_j / 2^16 close enough to 10^(j - 3)
 * below 10^4 (1000: 8389 and 2^7; 100: 5243 and 2^11; 10: 13108 and 2^13;
 * 1: 2^15 and 2^15); a digit is its prefix less ten times the prefix one
 * lane before (none for the group's first). Without SSE2, o3_eight_digits
 * twice. */
static inline void sixteen_digits(uint32_t hi, uint32_t lo, uint64_t *first, uint64_t *second)
{
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i x = _mm_unpacklo_epi64(_mm_cvtsi32_si128((int)hi), _mm_cvtsi32_si128((int)lo));
    __m128i q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32(109951163)), 40);
    __m128i r = _mm_sub_epi32(x, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
    /* 16-bit lanes: q_hi r_hi 0 0 q_lo r_lo 0 0 -> q_hi r_hi q_hi r_hi q_lo ... */
    __m128i pairs = _mm_shuffle_epi32(_mm_or_si128(q, _mm_slli_epi64(r, 16)), 0xa0);
    __m128i spread = _mm_shufflehi_epi16(_mm_shufflelo_epi16(pairs, 0x50), 0x50);
    __m128i groups[2] = {_mm_unpacklo_epi32(spread, spread), _mm_unpackhi_epi32(spread, spread)};
    const __m128i mul_a = _mm_set_epi16(-32768, 13108, 5243, 8389, -32768, 13108, 5243, 8389);
    const __m128i mul_b = _mm_set_epi16(-32768, 8192, 2048, 128, -32768, 8192, 2048, 128);
    for (int i = 0; i < 2; i++) {
        __m128i prefix =
            _mm_mulhi_epu16(_mm_mulhi_epu16(_mm_slli_epi16(groups[i], 2), mul_a), mul_b);
        __m128i tens = _mm_slli_epi64(_mm_mullo_epi16(prefix, _mm_set1_epi16(10)), 16);
        groups[i] = _mm_sub_epi16(prefix, tens);
    }
    __m128i text = _mm_add_epi8(_mm_packus_epi16(groups[0], groups[1]), _mm_set1_epi8('0'));
    *first = (uint64_t)_mm_cvtsi128_si64(text);
    *second = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(text, text));
#else
    *first = o3_eight_digits(hi);
    *second = o3_eight_digits(lo);
#endif
}

/* x / 10 by a multiplication (exact for every 64-bit x): the compiler
 * may otherwise divide where it thinks the code cold, and a division
 * takes as long as the rest of a float's digits. */
static inline uint64_t div10(uint64_t x)
{
    return (uint64_t)(((unsigned __int128)x * UINT64_C(0xcccccccccccccccd)) >> 67);
}

/* The high half of a x b, rounded on the dropped half's top bit (mul). */
static inline uint64_t mul_high(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)(p >> 64) + (((uint64_t)p >> 63) & 1);
}

/* Grisu2's text of the double m 2^(be - 150) (a normal float: 2^23 <= m <
 * 2^24, 1 <= be <= 254), laid out as prettify lays it, at buf (at most 32
 * bytes stored, as o3_dtoa); the end of the text, or NULL when this path
 * leaves the number to grisu2() (then anything may have been written at
 * buf). */
static O3_ALWAYS_INLINE char *float_text(uint32_t m, int be, char *buf)
{
    const o3_float_power *fp = &float_powers[be];
    uint64_t cf = cached_f[fp->index];
    int s = fp->shift; /* 32..60 */
    /* the double's significand normalized is m 2^40; its boundaries (as
     * boundaries() makes them, at the same exponent) are that plus and
     * minus 2^10, or minus 2^9 below a power of two */
    uint64_t big = (uint64_t)m << 40;
    uint64_t mp = mul_high(big + (UINT64_C(1) << 10), cf) - 1;
    uint64_t mm = mul_high(big - (m == (UINT32_C(1) << 23) ? 1u << 9 : 1u << 10), cf) + 1;
    uint64_t delta = mp - mm, one = UINT64_C(1) << s;
    /* both candidate powers loaded before delta is known (they depend on
     * the exponent alone): the choice is a select, not a load that waits
     * for the two products */
    int narrow = delta < fp->threshold;
    int places = fp->places + narrow;
    uint64_t p10_few = pow10_u64[fp->places], p10_more = pow10_u64[fp->places + 1];
    uint64_t p10 = narrow ? p10_more : p10_few;
    unsigned __int128 scaled = (unsigned __int128)mp * p10;
    uint64_t high = (uint64_t)(scaled >> 64), low = (uint64_t)scaled;
    uint64_t dv = (high << (64 - s)) | (low >> s), rest = low & (one - 1);
    if (SV_UNLIKELY((high >> s) != 0 || dv < UINT64_C(1000000000000000) ||
                    dv >= UINT64_C(100000000000000000)))
        return NULL; /* (never, by the exhaustive check: 16 or 17 digits) */
    uint64_t big_delta = delta * p10;
    int n = 16 + (dv >= UINT64_C(10000000000000000)); /* D's digits */
    if (n <= places) return NULL;                     /* no integer digit: grisu2() decides */
    /* The stop and the rounding are decided on D itself, not on its text:
     * their branches then wait for two products, not for the digits
     * (which the processor writes meanwhile). */
    uint64_t above = div10(dv), last = dv - above * 10, next = div10(above);
    uint64_t stop_rest = (last << s) + rest; /* last <= 9 and s <= 60: no wrap */
    /* one digit dropped when its stop holds (strict in the fraction,
     * "at or below" in the integer part); more only while the digits
     * above the last are zeros (rare: a loop) */
    /* (& and |, not && and ||: on arbitrary digits each branch of those
     * would be a coin toss, mispredicted half the time) */
    int cut = (stop_rest < big_delta) | ((stop_rest == big_delta) & (places <= 1));
    if (SV_UNLIKELY(stop_rest <= big_delta && above == next * 10)) {
        cut = 0;
        for (int i = 1;; i++) {
            if (stop_rest < big_delta || places - i <= 0) cut = i;
            if (i + 1 >= n || above != next * 10) break; /* the digit above is not 0 */
            above = next;
            next = div10(above);
        }
    }
    if (cut >= places) return NULL; /* an integer-part stop */
    /* grisu_round's steps down of the last digit, counted at once: only
     * with no digit dropped (never below 0: a step needs big_delta - rest
     * >= 2^s, and big_delta <= last 2^s + rest, or the stop would have
     * been one place higher). Step j (from 0) is taken when rest + j 2^s
     * is below wp_w and closer to it after the step, i.e. (2j + 1) 2^s <
     * 2 (wp_w - rest), and big_delta - rest >= (j + 1) 2^s: both hold for
     * the j below a bound, so the count is the smaller bound. */
    /* (computed whatever cut is, and then kept or not, its bound's test
     * by a mask: a branch on either would be mispredicted about as often
     * as it is taken) */
    uint64_t wp_w = (mp - mul_high(big, cf)) * p10;
    uint64_t half = one >> 1, gap = wp_w - rest;
    uint64_t to_w = (((gap - half - 1) >> s) + 1) & -(uint64_t)((rest < wp_w) & (gap > half));
    uint64_t to_delta = (big_delta - rest) >> s;
    uint64_t down = to_w < to_delta ? to_w : to_delta;
    down = cut == 0 ? down : 0;
    /* D's 16 or 17 digits: the top one (hi 0..9), then sixteen in two words */
    /* (split by 10^8 first: the last eight digits then wait for one
     * division, not two) */
    uint64_t top = dv / 100000000; /* below 10^9 */
    uint32_t low8 = (uint32_t)(dv - top * 100000000);
    uint32_t hi = (uint32_t)top / 100000000;
    uint32_t mid8 = (uint32_t)top - hi * 100000000;
    uint64_t first, second;
    sixteen_digits(mid8, low8, &first, &second);
    second -= down << 56; /* the last digit, the top byte */
    /* prettify's decimal point: after kk digits (the cut moves the last
     * digit's exponent with the digits' count, not kk). Below 1 (kk
     * -5..0) the digits go after "0." and its zeros; from 1 up to 10^7
     * (kk 1..7) digit i goes to d[i] = buf[i + 1] (one byte up: right for
     * the digits after the point), and the first eight bytes are stored
     * again at the end with the point put in. Only stores: nothing is read
     * back. The rest (from 10^7, below 10^-6) go to grisu2(). */
    int k10 = 348 - 8 * (int)fp->index;
    int kk = n + k10 - places;
    char *d;
    if (kk <= 0 && kk > -6) {
        memcpy(buf, "0.000000", 8);
        d = buf + 2 - kk;
    } else if (kk >= 1 && kk <= 7) {
        d = buf + 1;
    } else {
        return NULL;
    }
    d[0] = (char)('0' + hi); /* (written over by the words when n is 16) */
    sv__core_store64le(d + n - 16, first);
    sv__core_store64le(d + n - 8, second);
    int len = n - cut;
    if (kk <= 0) return d + len;
    if (kk >= len) return NULL; /* a whole number's layout: prettify's */
    /* the first eight digits, the point after kk of them */
    unsigned long_d = (unsigned)n - 16; /* 1 for 17 digits: the top digit goes first */
    uint64_t head = first << (8 * long_d) | ((uint64_t)('0' + hi) & -(uint64_t)long_d);
    uint64_t before = (UINT64_C(1) << (8 * kk)) - 1;
    uint64_t after = ~(before << 8 | 0xff);
    sv__core_store64le(buf, (head & before) | (uint64_t)'.' << (8 * kk) | (head << 8 & after));
    return buf + len + 1;
}

/* Grisu2 and prettify for what the float's short cuts leave, out of line:
 * inlined, their registers would be saved on every float's way in. */
static SV_NOINLINE char *float_by_grisu2(float magnitude, char *p)
{
    int len, k;
    if (grisu2((double)magnitude, p, &len, &k)) return p + len + 1;
    return prettify(p, len, k);
}

/* A float's text: o3_dtoa((double)f, buf) with the float's own short cuts
 * (its multiples of 1/4 below 2^22, its whole numbers below 2^53) and
 * float_text, Grisu2 for what they leave. */
static O3_ALWAYS_INLINE size_t ftoa_text(float f, char *buf)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    char *p = buf;
    *p = '-'; /* kept by a negative number only: no branch on the sign */
    p += u >> 31;
    uint32_t a = u & 0x7fffffff;
    int be = (int)(a >> 23);
    if (SV_UNLIKELY(be == 0 || be == 255)) { /* zero, subnormals (and not finite) */
        if (a == 0) {
            memcpy(p, "0.0", 3);
            return (size_t)(p + 3 - buf);
        }
        return o3_dtoa((double)f, buf);
    }
    uint32_t m = (a & 0x7fffff) | (UINT32_C(1) << 23);
    char *e = NULL;
    /* f = m 2^(be - 150): 4 f = m 2^(be - 148), a whole number when no bit
     * of m below 2^(148 - be) is set; f >= 2^22 from be = 149 */
    if (be >= 125 && be <= 148) {
        if ((m & ((UINT32_C(1) << (148 - be)) - 1)) == 0) e = quarters_text(m >> (148 - be), p);
    } else if (be >= 150 && be <= 179) {
        e = integer_text((uint64_t)m << (be - 150), p);
    } else if (be == 149 && (m & 1) == 0) {
        e = integer_text(m >> 1, p);
    }
    if (!e) e = float_text(m, be, p);
    if (SV_UNLIKELY(!e)) {
        float magnitude;
        memcpy(&magnitude, &a, sizeof magnitude);
        e = float_by_grisu2(magnitude, p);
    }
    return (size_t)(e - buf);
}

static O3_ALWAYS_INLINE size_t dtoa_text(double d, char *buf)
{
    char *p = buf;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    if (d == 0) {
        if (u >> 63) *p++ = '-';
        memcpy(p, "0.0", 3);
        return (size_t)(p + 3 - buf);
    }
    if (d < 0) {
        *p++ = '-';
        d = -d;
    }
    char *q = quarter_text(d, p);
    if (q) return (size_t)(q - buf);
    /* an exact float (no significand bit below a float's, a normal
     * float's exponent): float_text */
    int dexp = (int)(u >> 52) & 0x7ff;
    if ((u & ((UINT64_C(1) << 29) - 1)) == 0 && dexp >= 1023 - 126 && dexp <= 1023 + 127) {
        q = float_text((uint32_t)((u & (HIDDEN_BIT - 1)) >> 29) | (UINT32_C(1) << 23), dexp - 896,
                       p);
        if (q) return (size_t)(q - buf);
    }
    int len, k;
    if (grisu2(d, p, &len, &k)) return (size_t)(p + len + 1 - buf);
    return (size_t)(prettify(p, len, k) - buf);
}

size_t o3_dtoa(double d, char *buf)
{
    return dtoa_text(d, buf);
}

size_t o3_dtoa_grisu(double d, char *buf)
{
    char *p = buf;
    if (d < 0) {
        *p++ = '-';
        d = -d;
    }
    int len, k;
    if (grisu2(d, p, &len, &k)) return (size_t)(p + len + 1 - buf);
    return (size_t)(prettify(p, len, k) - buf);
}

size_t o3_ftoa(float f, char *buf)
{
    return ftoa_text(f, buf);
}

size_t o3_ftoa_list(const float *f, size_t n, char *buf)
{
    char *p = buf;
    for (size_t i = 0; i < n; i++) {
        if (i) *p++ = ',';
        p += ftoa_text(f[i], p);
    }
    return (size_t)(p - buf);
}

size_t o3_dtoa_float_digits(float f, char *buf)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    int be = (int)((u >> 23) & 0xff);
    if (be == 0 || be == 255) return 0;
    char *p = buf;
    if (u >> 31) *p++ = '-';
    char *e = float_text((u & 0x7fffff) | (UINT32_C(1) << 23), be, p);
    return e ? (size_t)(e - buf) : 0;
}

size_t sv_o3de_format_double(double d, char *buf)
{
    return o3_dtoa(d, buf);
}
