/* RapidJSON's Grisu2 and Prettify, the slow straightforward way, as the
 * oracle of test_o3de_dtoa.c for the faster code in src/formats/o3de/. */
#ifndef SV_TEST_O3DE_DTOA_REFERENCE_H
#define SV_TEST_O3DE_DTOA_REFERENCE_H

#include <stdint.h>
#include <string.h>

/* The reference: RapidJSON's Grisu2 as serval first transcribed it
 * (src/formats/o3de/o3de_dtoa.c before its digit generation was made
 * faster): a digit a step, the cached power from a double, the layout
 * with memmove. Only here, as the oracle for the faster code. */
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

static diyfp cached_power(int e, int *k10)
{
    double dk = (-61 - e) * 0.30102999566398114 + 347;
    int k = (int)dk;
    if (dk - k > 0.0) k++;
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

static void grisu_round(char *buf, int len, uint64_t delta, uint64_t rest, uint64_t ten_kappa,
                        uint64_t wp_w)
{
    while (rest < wp_w && delta - rest >= ten_kappa &&
           (rest + ten_kappa < wp_w || wp_w - rest > rest + ten_kappa - wp_w)) {
        buf[len - 1]--;
        rest += ten_kappa;
    }
}

/* The digits go to buf with the count kept in a local: buf is char, which
 * may alias anything, so a count behind a pointer would be stored and
 * loaded again for every digit. */
static void ref_digit_gen(diyfp w, diyfp mp, uint64_t delta, char *buf, int *len, int *k)
{
    diyfp one = {UINT64_C(1) << -mp.e, mp.e};
    uint64_t wp_w = mp.f - w.f;
    uint32_t p1 = (uint32_t)(mp.f >> -one.e);
    uint64_t p2 = mp.f & (one.f - 1);
    int kappa = count_digits32(p1);
    int n = 0;
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
            return;
        }
    }
    const int shift = -one.e;
    const uint64_t mask = one.f - 1;
    for (;;) {
        p2 *= 10;
        delta *= 10;
        char d = (char)(p2 >> shift);
        buf[n] = (char)('0' + d);
        n += (d | n) != 0;
        p2 &= mask;
        kappa--;
        if (p2 < delta) {
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
            grisu_round(buf, n, delta, p2, one.f, wp_w * (index < 20 ? pow10_u64[index] : 0));
            return;
        }
    }
}

static void ref_grisu2(double value, char *buf, int *len, int *k)
{
    diyfp v = from_double(value), wm, wp;
    boundaries(v, &wm, &wp);
    diyfp c_mk = cached_power(wp.e, k);
    diyfp w = mul(normalize(v), c_mk);
    diyfp wpk = mul(wp, c_mk), wmk = mul(wm, c_mk);
    wmk.f++;
    wpk.f--;
    ref_digit_gen(w, wpk, wpk.f - wmk.f, buf, len, k);
}

static char *ref_write_exponent(int k, char *p)
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

/* RapidJSON's Prettify with maxDecimalPlaces = 324 (the Writer's default). */
static char *ref_prettify(char *buf, int len, int k)
{
    int kk = len + k;
    if (k >= 0 && kk <= 21) {
        for (int i = len; i < kk; i++) buf[i] = '0';
        buf[kk] = '.';
        buf[kk + 1] = '0';
        return buf + kk + 2;
    }
    if (kk > 0 && kk <= 21) {
        memmove(buf + kk + 1, buf + kk, (size_t)(len - kk));
        buf[kk] = '.';
        return buf + len + 1;
    }
    if (kk > -6 && kk <= 0) {
        int offset = 2 - kk;
        memmove(buf + offset, buf, (size_t)len);
        buf[0] = '0';
        buf[1] = '.';
        for (int i = 2; i < offset; i++) buf[i] = '0';
        return buf + len + offset;
    }
    if (len == 1) {
        buf[1] = 'e';
        return ref_write_exponent(kk - 1, buf + 2);
    }
    memmove(buf + 2, buf + 1, (size_t)(len - 1));
    buf[1] = '.';
    buf[len + 1] = 'e';
    return ref_write_exponent(kk - 1, buf + len + 2);
}

static size_t ref_dtoa(double d, char *buf)
{
    char *p = buf;
    if (d < 0) {
        *p++ = '-';
        d = -d;
    }
    int len, k;
    ref_grisu2(d, p, &len, &k);
    return (size_t)(ref_prettify(p, len, k) - buf);
}

#endif
