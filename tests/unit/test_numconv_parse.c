/* Tests for src/core/num_parse.c: correctly rounded decimal -> double and
 * float (sv__core_parse_f64, sv__core_parse_f32, sv__core_decimal_to_f64), and the table of
 * powers of five it shares with the formatter.
 *
 * The oracle is glibc, which is independent of our code: strtod and strtof
 * round correctly. Hand-written expectations come from the IEEE formats and
 * glibc, never from this code. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numconv.h"
#include "core/pow10_table.h"

/* Sample sizes, under 10 s under ASan. Each can be raised for a long local
 * soak, e.g. -DPARSE_RANDOM=100000000. */
#ifndef PARSE_RANDOM
#define PARSE_RANDOM 300000
#endif
#ifndef PARSE_HALFWAY
#define PARSE_HALFWAY 6000
#endif
#ifndef PARSE_LONG
#define PARSE_LONG 2000
#endif

/* ---- helpers ---------------------------------------------------------------- */

#include "helper_bits.h"

/* ---- parsing ------------------------------------------------------------- */

static void check_parse(const char *t)
{
    size_t n = strlen(t);
    double d = 0, g = strtod(t, NULL);
    bool ok = sv__core_parse_f64(t, n, &d);
    if (f64_bits(d) != f64_bits(g)) fail_msg("f64 %s: ours %a, glibc %a", t, d, g);
    assert_int_equal(ok, !isinf(g));
    float f = 0, gf = strtof(t, NULL);
    ok = sv__core_parse_f32(t, n, &f);
    if (f32_bits(f) != f32_bits(gf))
        fail_msg("f32 %s: ours %a, glibc %a", t, (double)f, (double)gf);
    assert_int_equal(ok, !isinf(gf));
}

static void test_parse_known(void **state)
{
    (void)state;
    double d;
    float f;
    assert_true(sv__core_parse_f64("1e-400", 6, &d));
    assert_true(f64_bits(d) == 0);
    assert_true(sv__core_parse_f64("-1e-400", 7, &d));
    assert_true(f64_bits(d) == UINT64_C(0x8000000000000000));
    assert_false(sv__core_parse_f64("1e400", 5, &d));
    assert_true(isinf(d) && d > 0);
    assert_false(sv__core_parse_f64("-1e400", 6, &d));
    assert_true(isinf(d) && d < 0);
    assert_true(sv__core_parse_f64("2.4703282292062328e-324", 23, &d));
    assert_true(d == 5e-324);
    assert_true(sv__core_parse_f64("2.4703282292062327e-324", 23, &d));
    assert_true(d == 0);
    assert_true(sv__core_parse_f64("1.7976931348623158e308", 22, &d));
    assert_true(d == DBL_MAX);
    assert_false(sv__core_parse_f64("1.7976931348623159e308", 22, &d));
    assert_true(isinf(d));
    assert_true(sv__core_parse_f64("0.1", 3, &d));
    assert_true(d == 0.1);
    assert_true(sv__core_parse_f64("-0", 2, &d));
    assert_true(f64_bits(d) == UINT64_C(0x8000000000000000));
    assert_true(sv__core_parse_f64("-0.0e+99999999999999999999", 26, &d));
    assert_true(f64_bits(d) == UINT64_C(0x8000000000000000));
    assert_false(sv__core_parse_f64("1e99999999999999999999", 22, &d));
    assert_true(sv__core_parse_f64("1e-99999999999999999999", 23, &d));
    assert_true(d == 0);
    /* The length bounds the text: no NUL needed. */
    assert_true(sv__core_parse_f64("1.5xyz", 3, &d));
    assert_true(d == 1.5);
    /* 2^53 + 1 is halfway: to even, below; any excess digit rounds up. */
    assert_true(sv__core_parse_f64("9007199254740993", 16, &d));
    assert_true(d == 9007199254740992.0);
    assert_true(sv__core_parse_f64("9007199254740993.0000000000000000000001", 39, &d));
    assert_true(d == 9007199254740994.0);

    assert_true(sv__core_parse_f32("3.4028235e38", 12, &f));
    assert_true(f == FLT_MAX);
    assert_false(sv__core_parse_f32("3.4028236e38", 12, &f));
    assert_true(isinf(f));
    assert_true(sv__core_parse_f32("1e-46", 5, &f));
    assert_true(f == 0);
    assert_true(sv__core_parse_f32("1e-45", 5, &f));
    assert_true(f == FLT_TRUE_MIN);
    assert_true(sv__core_parse_f32("0.1", 3, &f));
    assert_true(f == 0.1f);
    /* 16777217 is halfway between floats: to even. */
    assert_true(sv__core_parse_f32("16777217", 8, &f));
    assert_true(f == 16777216.0f);
    assert_true(sv__core_parse_f32("16777217.000000000000000001", 27, &f));
    assert_true(f == 16777218.0f);

    const char *same[] = {"0",
                          "-0",
                          "0.0",
                          "1",
                          "-1",
                          "0e0",
                          "0E+0",
                          "1E-0",
                          "123.456e-2",
                          "4.9406564584124654e-324",
                          "2.2250738585072011e-308",
                          "2.2250738585072012e-308",
                          "1.00000000000000011102230246251565404236316680908203125",
                          "1.00000000000000011102230246251565404236316680908203124",
                          "1.00000000000000011102230246251565404236316680908203126",
                          "7.0064923216240853546186479164495807e-46",
                          "7.0064923216240853546186479164495806e-46",
                          "1.4012984643248170709237295832899161e-45",
                          "179769313486231580793728971405301e276",
                          "3.40282356779733661637539395458142568448e38",
                          "3.40282356779733661637539395458142568447e38"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        check_parse(same[i]);
}

static void test_parse_rejects(void **state)
{
    (void)state;
    const char *bad[] = {"",    "-",    "+1",   "01",   "-01",  "1.",       ".5",    "1e",
                         "1e+", "1E-",  "1.e5", "0x10", "inf",  "nan",      "NaN",   " 1",
                         "1 ",  "1e5.", "--1",  "1,5",  "1.5.", "\xd9\xa3", "1e+-5", "00"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double d = 0;
        float f = 0;
        assert_false(sv__core_parse_f64(bad[i], strlen(bad[i]), &d));
        assert_false(sv__core_parse_f32(bad[i], strlen(bad[i]), &f));
    }
}

/* The JSON number grammar, written out plainly as the reference:
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_number_grammar(const char *t)
{
    size_t i = 0;
    if (t[i] == '-') i++;
    if (t[i] == '0') {
        i++;
    } else if (t[i] >= '1' && t[i] <= '9') {
        while (t[i] >= '0' && t[i] <= '9')
            i++;
    } else {
        return false;
    }
    if (t[i] == '.') {
        i++;
        if (!(t[i] >= '0' && t[i] <= '9')) return false;
        while (t[i] >= '0' && t[i] <= '9')
            i++;
    }
    if (t[i] == 'e' || t[i] == 'E') {
        i++;
        if (t[i] == '+' || t[i] == '-') i++;
        if (!(t[i] >= '0' && t[i] <= '9')) return false;
        while (t[i] >= '0' && t[i] <= '9')
            i++;
    }
    return t[i] == 0;
}

/* Short random strings over the number alphabet: the grammar is checked
 * exactly, and valid ones read as glibc reads them. */
static void test_parse_grammar_random(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789000.-+eE";
    char t[24];
    int valid = 0;
    for (int i = 0; i < 200000; i++) {
        int len = 1 + (int)(rnd() % 12);
        for (int k = 0; k < len; k++)
            t[k] = alphabet[rnd() % (sizeof alphabet - 1)];
        t[len] = 0;
        if (json_number_grammar(t)) {
            valid++;
            check_parse(t);
        } else {
            double d;
            float f;
            assert_false(sv__core_parse_f64(t, (size_t)len, &d));
            assert_false(sv__core_parse_f32(t, (size_t)len, &f));
        }
    }
    assert_true(valid > 1000);
}

/* A random decimal: 1..25 significant digits, some leading/trailing zeros,
 * positional or with an exponent in [-350, 350]. */
static void random_decimal(char *t, size_t size)
{
    char *p = t;
    if (rnd() & 1) *p++ = '-';
    int nd = 1 + (int)(rnd() % 25);
    int point = (int)(rnd() % (unsigned)(nd + 1));
    bool lead_zero = rnd() % 4 == 0;
    if (lead_zero) {
        *p++ = '0';
        *p++ = '.';
        for (int z = (int)(rnd() % 5); z > 0; z--)
            *p++ = '0';
        point = -1;
    }
    for (int i = 0; i < nd; i++) {
        if (i == point && i > 0) *p++ = '.';
        int d = (int)(rnd() % 10);
        if (i == 0 && !lead_zero && d == 0) d = 1 + (int)(rnd() % 9);
        *p++ = (char)('0' + d);
    }
    if (rnd() % 4) p += snprintf(p, size - (size_t)(p - t), "e%d", (int)(rnd() % 701) - 350);
    *p = 0;
}

static void test_parse_random(void **state)
{
    (void)state;
    char t[128];
    for (int i = 0; i < PARSE_RANDOM; i++) {
        random_decimal(t, sizeof t);
        check_parse(t);
    }
}

/* Appends digits to the significand of a "%.Ne" string (before the 'e'). */
static void insert_before_e(char *t, const char *digits)
{
    char *e = strchr(t, 'e');
    size_t k = strlen(digits);
    memmove(e + k, e, strlen(e) + 1);
    memcpy(e, digits, k);
}

/* The last nonzero significand digit of a "%.Ne" string, minus one unit in
 * the last place of the whole significand (the string's digits are exact). */
static void decrement_last(char *t)
{
    char *e = strchr(t, 'e');
    char *q = e - 1;
    while (*q == '0' || *q == '.') {
        if (*q == '0') *q = '9';
        q--;
    }
    (*q)--;
}

/* The exact decimal of a long double midpoint, then just above and below. */
static void check_midpoint_text(long double mid, int digits)
{
    static char t[1400];
    snprintf(t, sizeof t, "%.*Le", digits, mid);
    check_parse(t);
    insert_before_e(t, "000000000000000000000000000000001"); /* above: past 800 digits */
    check_parse(t);
    snprintf(t, sizeof t, "%.*Le", digits, mid);
    decrement_last(t); /* just below */
    check_parse(t);
}

/* Exact halfway points between neighbours, and just above and below them:
 * where a reader that rounds twice or approximates goes wrong. */
static void test_parse_halfway(void **state)
{
    (void)state;
#if LDBL_MANT_DIG >= 64
    /* The edges: zero and the smallest subnormal (2^-1075 ties to 0), the
     * subnormal/normal border, the overflow threshold (ties to "even" 2^1024,
     * infinity); the same for float. */
    check_midpoint_text(0x1p-1075L, 780);
    check_midpoint_text(0x3p-1075L, 780);
    check_midpoint_text(((long double)DBL_MIN + nextafter(DBL_MIN, 0)) / 2, 780);
    check_midpoint_text(((long double)DBL_MAX + 0x1p1024L) / 2, 780);
    check_midpoint_text(0x1p-150L, 200);
    check_midpoint_text(((long double)FLT_MIN + nextafterf(FLT_MIN, 0)) / 2, 200);
    check_midpoint_text(((long double)FLT_MAX + 0x1p128L) / 2, 200);
    double d;
    char e[1400];
    snprintf(e, sizeof e, "%.780Le", 0x1p-1075L);
    assert_true(sv__core_parse_f64(e, strlen(e), &d) && f64_bits(d) == 0);
    snprintf(e, sizeof e, "%.780Le", ((long double)DBL_MAX + 0x1p1024L) / 2);
    assert_false(sv__core_parse_f64(e, strlen(e), &d));
    assert_true(isinf(d));

    static char t[1400];
    for (int i = 0; i < PARSE_HALFWAY; i++) {
        double x;
        switch (i % 4) {
        case 0: x = f64_from_bits(rnd() >> 1); break;                           /* anywhere */
        case 1: x = f64_from_bits(rnd() % UINT64_C(0x0010000000000000)); break; /* subnormal */
        case 2: x = ldexp((double)(rnd() >> 11), (int)(rnd() % 120) - 60); break;
        default: x = (double)(rnd() >> 11 | 1); break;
        }
        double y = nextafter(x, INFINITY);
        if (!isfinite(y)) continue;
        long double mid = ((long double)x + (long double)y) / 2; /* exact */
        snprintf(t, sizeof t, "%.780Le", mid);
        check_parse(t);
        insert_before_e(t, "000000000000000000000000000000001"); /* above: past 800 digits */
        check_parse(t);
        snprintf(t, sizeof t, "%.780Le", mid);
        decrement_last(t); /* just below */
        check_parse(t);
        snprintf(t, sizeof t, "%.20Le", mid); /* a 21-digit approximation */
        check_parse(t);
    }
#endif
    /* Float halfway points, exact as doubles: reading through double would
     * round twice. */
    static char u[400];
    for (int i = 0; i < PARSE_HALFWAY; i++) {
        float x = f32_from_bits((uint32_t)(rnd() >> 33));
        if (i % 3 == 0) x = f32_from_bits((uint32_t)(rnd() % 0x800000u));
        float y = nextafterf(x, INFINITY);
        if (!isfinite(y)) continue;
        double mid = ((double)x + (double)y) / 2; /* exact */
        snprintf(u, sizeof u, "%.160e", mid);
        check_parse(u);
        snprintf(u, sizeof u, "%.160e", mid);
        insert_before_e(u, "0000000000000001");
        check_parse(u);
        snprintf(u, sizeof u, "%.160e", mid);
        decrement_last(u);
        check_parse(u);
        /* The double nearest the halfway point but just above or below. */
        snprintf(u, sizeof u, "%.17e", nextafter(mid, INFINITY));
        check_parse(u);
        snprintf(u, sizeof u, "%.17e", nextafter(mid, 0));
        check_parse(u);
    }
}

/* 800 digits and more: the slow path and its sticky digit. */
static void test_parse_long(void **state)
{
    (void)state;
    static char t[2200];
    for (int i = 0; i < PARSE_LONG; i++) {
        int nd = 780 + (int)(rnd() % 40);
        if (i % 4 == 0) nd = 1000 + (int)(rnd() % 900);
        char *p = t;
        *p++ = (char)('1' + rnd() % 9);
        *p++ = '.';
        for (int k = 1; k < nd; k++)
            *p++ = (char)('0' + rnd() % 10);
        snprintf(p, 32, "e%d", (int)(rnd() % 660) - 330);
        check_parse(t);
    }
    /* A halfway point followed by many zeros, then by a late 1. */
    snprintf(t, sizeof t, "%s", "1.00000000000000011102230246251565404236316680908203125");
    size_t len = strlen(t);
    memset(t + len, '0', 1000);
    t[len + 1000] = 0;
    check_parse(t);
    double d;
    assert_true(sv__core_parse_f64(t, strlen(t), &d));
    assert_true(d == 1.0);
    t[len + 999] = '1';
    check_parse(t);
    assert_true(sv__core_parse_f64(t, strlen(t), &d));
    assert_true(d == nextafter(1.0, 2.0));
    /* Many leading zeros after the point. */
    memset(t, '0', 1500);
    t[1] = '.';
    memcpy(t + 1500, "123e1400", 9);
    check_parse(t);
}

static void test_decimal_to_f64(void **state)
{
    (void)state;
    double d;
    assert_true(sv__core_decimal_to_f64(1, 0, false, false, &d));
    assert_true(d == 1.0);
    assert_true(sv__core_decimal_to_f64(0, 5, true, false, &d));
    assert_true(f64_bits(d) == UINT64_C(0x8000000000000000));
    assert_true(sv__core_decimal_to_f64(5, -324, false, false, &d));
    assert_true(d == 5e-324);
    assert_true(sv__core_decimal_to_f64(1, -400, false, false, &d));
    assert_true(d == 0);
    assert_false(sv__core_decimal_to_f64(1, 400, true, false, &d));
    assert_true(isinf(d) && d < 0);
    assert_true(sv__core_decimal_to_f64(17976931348623157, 292, false, false, &d));
    assert_true(d == DBL_MAX);
    /* 1.000000000000000111|02230246... : the first 19 digits, truncated,
     * straddle the halfway point between 1 and its successor. */
    assert_false(sv__core_decimal_to_f64(UINT64_C(1000000000000000111), -18, false, true, &d));
    /* Truncated but far from any halfway point: decided. */
    assert_true(sv__core_decimal_to_f64(UINT64_C(1234567890123456789), -18, false, true, &d));
    assert_true(d == strtod("1.2345678901234567891", NULL));

    /* Random agreement with glibc whenever it answers. */
    char t[64];
    int answered = 0, open = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t m = 1 + rnd() % UINT64_C(9999999999999999999);
        int64_t e = (int64_t)(rnd() % 700) - 350;
        bool trunc = rnd() & 1;
        bool ok = sv__core_decimal_to_f64(m, e, false, trunc, &d);
        snprintf(t, sizeof t, "%llu%se%lld", (unsigned long long)m, trunc ? "5" : "",
                 (long long)(trunc ? e - 1 : e));
        double g = strtod(t, NULL);
        if (ok) {
            answered++;
            if (f64_bits(d) != f64_bits(g)) fail_msg("%s: ours %a, glibc %a", t, d, g);
        } else if (isinf(d)) {
            assert_true(isinf(g)); /* overflow */
        } else {
            open++; /* left to sv__core_parse_f64 */
        }
    }
    /* Truncated inputs are left open when m and m + 1 round apart: about
     * 2^53 / m of them, a fraction of a percent here. */
    print_message("sv__core_decimal_to_f64: %d of 100000 answered, %d left open\n", answered, open);
    assert_true(answered > 80000);
    assert_true(open < 2000);
}

/* ---- the table -------------------------------------------------------------- */

static void test_pow5_table(void **state)
{
    (void)state;
    /* Exact entries: 5^q for q <= 55 fits in 128 bits. */
    __extension__ unsigned __int128 p = 1;
    for (int q = 0; q <= SV_POW5_EXACT_MAX; q++) {
        int len = 128;
        while (!(p >> (len - 1)))
            len--;
        assert_int_equal(len - 1, sv__core_floor_log2_pow5(q));
        __extension__ unsigned __int128 norm = p << (128 - len);
        assert_true(sv_pow5_128[q - SV_POW5_MIN][0] == (uint64_t)(norm >> 64));
        assert_true(sv_pow5_128[q - SV_POW5_MIN][1] == (uint64_t)norm);
        p *= 5;
    }
    /* 5^q * 5^-q = 1: the two truncated significands multiply to just under
     * 2^255 (each is short by less than one unit of 2^-127 relative). */
    for (int q = 1; q <= SV_POW5_MAX && -q >= SV_POW5_MIN; q++) {
        const uint64_t *a = sv_pow5_128[q - SV_POW5_MIN], *b = sv_pow5_128[-q - SV_POW5_MIN];
        /* 256-bit product, top two limbs are enough. */
        __extension__ unsigned __int128 hh = (unsigned __int128)a[0] * b[0];
        __extension__ unsigned __int128 hl = (unsigned __int128)a[0] * b[1];
        __extension__ unsigned __int128 lh = (unsigned __int128)a[1] * b[0];
        __extension__ unsigned __int128 ll = (unsigned __int128)a[1] * b[1];
        __extension__ unsigned __int128 low =
            (unsigned __int128)(uint64_t)hl + (uint64_t)lh + (uint64_t)(ll >> 64);
        __extension__ unsigned __int128 top = hh + (hl >> 64) + (lh >> 64) + (low >> 64);
        /* top = floor(product / 2^128): just below 2^127. */
        __extension__ unsigned __int128 limit = (unsigned __int128)1 << 127;
        assert_true(top < limit && limit - top < 8);
        assert_int_equal(sv__core_floor_log2_pow5(q) + sv__core_floor_log2_pow5(-q), -1);
    }
    /* floor(log2(5^q)) against long double logarithms (exact enough: the
     * fractional parts stay > 1e-4 away from integers here). */
    for (int q = SV_POW5_MIN; q <= SV_POW5_MAX; q++)
        assert_int_equal(sv__core_floor_log2_pow5(q), (int)floorl((long double)q * log2l(5.0L)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pow5_table),     cmocka_unit_test(test_parse_known),
        cmocka_unit_test(test_parse_rejects),  cmocka_unit_test(test_parse_grammar_random),
        cmocka_unit_test(test_decimal_to_f64), cmocka_unit_test(test_parse_random),
        cmocka_unit_test(test_parse_halfway),  cmocka_unit_test(test_parse_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
