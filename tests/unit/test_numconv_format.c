/* Tests for src/core/num_format.c: shortest float formatting and integer
 * formatting.
 *
 * The oracle is glibc, which is independent of our code: strtod/strtof round
 * correctly, and printf("%.*e") prints the correctly rounded digits of a
 * double's exact value. For each formatted value we check
 *   - the text follows the layout of docs/json.md "Numbers";
 *   - it reads back (ours and glibc's) to the same bits;
 *   - no text with fewer digits reads back: both neighbours with N-1 digits
 *     (glibc's correctly rounded one and the one on the other side) fail;
 *   - the N digits are glibc's "%.{N-1}e" digits, the closest N-digit
 *     decimal. The one documented exception: at the bottom of a binade the
 *     rounding interval is twice as wide above as below, so the closest
 *     N-digit decimal can fall outside below while a farther one above is
 *     inside; then our digits must be that one above (checked, see
 *     check_f64).
 * Hand-written expectations were taken from JavaScript's Number toString /
 * Python's repr (shortest digits) and glibc, never from this code.
 *
 * The file includes num_format.c itself, to reach its internal steps: the
 * fast decision must agree with the exact Schubfach wherever it decides, the
 * SSE2 digits with the portable ones (so both paths are tested on x86), and
 * the preprocessor-built tables with the formulas they come from. The
 * library's copy of num_format.c is then not linked into this program. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/num_format.c" /* before cmocka.h: its macros stay out of the code under test */

#include <cmocka.h>

#include "core/numconv.h"
#include "core/pow10_table.h"
#include "float_repr_vectors.h"

/* Sample sizes: about 13 s in all in the Debug ASan+UBSan build (make test),
 * 4 s in the release build. Every float was also compared once, outside the
 * tests, with the formatter this one replaced. Each size can be raised for a
 * long local soak, e.g. -DRANDOM_F64=100000000. */
#ifndef RANDOM_F64
#define RANDOM_F64 400000
#endif
#ifndef DECIMAL_F64
#define DECIMAL_F64 150000
#endif
#ifndef RANDOM_F32
#define RANDOM_F32 400000
#endif
#ifndef DECIMAL_F32
#define DECIMAL_F32 150000
#endif
#ifndef FAST_PATH_F64
#define FAST_PATH_F64 1000000
#endif
#ifndef FAST_PATH_F32
#define FAST_PATH_F32 300000
#endif
#ifndef SHORT_FRACTION_F64
#define SHORT_FRACTION_F64 1000000
#endif
#ifndef SHORT_FRACTION_F32_STRIDE
#define SHORT_FRACTION_F32_STRIDE 61 /* odd: every trailing zero count of u is met */
#endif
#ifndef DIGITS16_RANDOM
#define DIGITS16_RANDOM 200000
#endif

/* ---- helpers ---------------------------------------------------------------- */

#include "helper_bits.h"

/* Significant digits and the decimal exponent of the first one. */
typedef struct {
    char d[40];
    int n;
    int exp;
} sci;

/* Reads glibc's "%.*e" output: d[.ddd]e(+|-)xx; drops trailing zeros. */
static void parse_glibc_e(const char *s, sci *out)
{
    const char *p = s;
    if (*p == '-') p++;
    out->n = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') out->d[out->n++] = *p;
    assert_true(*p == 'e');
    out->exp = atoi(p + 1);
    while (out->n > 1 && out->d[out->n - 1] == '0')
        out->n--;
    out->d[out->n] = 0;
}

/* Checks that s follows the layout of docs/json.md "Numbers" and returns
 * its significant digits. */
static void parse_ours(const char *s, sci *out)
{
    const char *p = s;
    if (*p == '-') p++;
    out->n = 0;
    const char *e = strchr(p, 'e');
    if (e) {
        /* Scientific: one nonzero digit, optional .ddd without trailing zero,
         * e, a sign, an exponent without leading zeros, outside the
         * positional range. */
        assert_true(p[0] >= '1' && p[0] <= '9');
        out->d[out->n++] = p[0];
        if (p[1] == '.') {
            const char *q = p + 2;
            assert_true(q < e);
            for (; q < e; q++) {
                assert_true(*q >= '0' && *q <= '9');
                out->d[out->n++] = *q;
            }
            assert_true(e[-1] != '0');
        } else {
            assert_true(p + 1 == e);
        }
        assert_true(e[1] == '+' || e[1] == '-');
        assert_true(e[2] >= '1' && e[2] <= '9');
        for (const char *q = e + 2; *q; q++)
            assert_true(*q >= '0' && *q <= '9');
        out->exp = atoi(e + 1);
        assert_true(out->exp < -6 || out->exp > 20);
        out->d[out->n] = 0;
        return;
    }
    /* Positional: int part without leading zeros, '.', at least one digit. */
    const char *dot = strchr(p, '.');
    assert_non_null(dot);
    assert_true(dot > p);
    if (p[0] == '0') assert_true(dot == p + 1);
    const char *frac = dot + 1;
    size_t flen = strlen(frac);
    assert_true(flen >= 1);
    for (const char *q = p; q < dot; q++)
        assert_true(*q >= '0' && *q <= '9');
    for (const char *q = frac; *q; q++)
        assert_true(*q >= '0' && *q <= '9');
    /* A whole number ends in exactly ".0"; otherwise no trailing zero. */
    if (frac[flen - 1] == '0') assert_true(flen == 1);
    int int_len = (int)(dot - p);
    bool seen = false;
    int first = 0;
    for (int i = 0; i < int_len; i++) {
        if (!seen && p[i] == '0') continue;
        if (!seen) first = int_len - 1 - i;
        seen = true;
        out->d[out->n++] = p[i];
    }
    for (size_t i = 0; i < flen; i++) {
        if (!seen && frac[i] == '0') continue;
        if (!seen) first = -1 - (int)i;
        seen = true;
        out->d[out->n++] = frac[i];
    }
    if (!seen) {
        /* Zero: exactly "0.0" */
        assert_string_equal(p, "0.0");
        out->d[0] = '0';
        out->n = 1;
        out->exp = 0;
        out->d[1] = 0;
        return;
    }
    while (out->n > 1 && out->d[out->n - 1] == '0')
        out->n--;
    out->d[out->n] = 0;
    out->exp = first;
    assert_true(out->exp >= -6 && out->exp <= 20);
}

static void sci_to_text(const sci *s, char *buf, size_t size)
{
    if (s->n == 1)
        snprintf(buf, size, "%ce%d", s->d[0], s->exp);
    else
        snprintf(buf, size, "%c.%se%d", s->d[0], s->d + 1, s->exp);
}

/* The next decimal with the same number of digits above (dir > 0) or below
 * (dir < 0). */
static void sci_step(sci *s, int dir)
{
    if (dir > 0) {
        int i = s->n - 1;
        while (i >= 0 && s->d[i] == '9')
            s->d[i--] = '0';
        if (i < 0) {
            /* 99..9 -> 10^(exp+1) */
            s->d[0] = '1';
            s->n = 1;
            s->d[1] = 0;
            s->exp++;
        } else {
            s->d[i]++;
        }
        return;
    }
    bool power = s->d[0] == '1';
    for (int i = 1; i < s->n; i++)
        power &= s->d[i] == '0';
    if (power) {
        /* 10..0 -> 99..9 one decade lower, same digit count */
        memset(s->d, '9', (size_t)s->n);
        s->exp--;
        return;
    }
    int i = s->n - 1;
    while (s->d[i] == '0')
        s->d[i--] = '9';
    s->d[i]--;
}

/* ---- formatting: the oracle checks --------------------------------------- */

/* Formats into the middle of a guarded buffer: nothing may be written before
 * out or past out + room (numconv.h). Returns the text, NUL-terminated. */
static char *format_guarded(char *buf, size_t size, size_t room, double x, bool single)
{
    static char untouched[80];
    memset(untouched, 0x7f, sizeof untouched);
    assert_true(size <= sizeof untouched && 8 + room <= size);
    memset(buf, 0x7f, size);
    char *out = buf + 8;
    size_t n = single ? sv__core_fmt_f32((float)x, out) : sv__core_fmt_f64(x, out);
    assert_true(n > 0 && n <= room);
    assert_true(memcmp(buf, untouched, 8) == 0);
    assert_true(memcmp(out + room, untouched, size - 8 - room) == 0);
    out[n] = 0;
    return out;
}

static void check_f64(double x)
{
    char guarded[80], text[128];
    char *buf = format_guarded(guarded, sizeof guarded, SV_FMT_F64_MAX, x, false);
    size_t n = strlen(buf);

    sci ours;
    parse_ours(buf, &ours);
    assert_int_equal(buf[0] == '-', signbit(x) != 0);

    /* Round trip, ours and glibc's reader. */
    double back;
    assert_true(sv__core_parse_f64(buf, n, &back));
    if (f64_bits(back) != f64_bits(x)) fail_msg("%s does not read back as %a", buf, x);
    assert_true(f64_bits(strtod(buf, NULL)) == f64_bits(x));
    if (x == 0) return;

    int digits = ours.n;
    /* Fewer digits: neither (N-1)-digit neighbour reads back. */
    if (digits >= 2) {
        snprintf(text, sizeof text, "%.*e", digits - 2, x);
        double c = strtod(text, NULL);
        if (c == x) fail_msg("%s: %s has fewer digits and reads back", buf, text);
        sci other;
        parse_glibc_e(text, &other);
        /* glibc's result may have lost trailing zeros; restore the count. */
        while (other.n < digits - 1)
            other.d[other.n++] = '0';
        other.d[other.n] = 0;
        sci_step(&other, fabs(c) < fabs(x) ? 1 : -1);
        sci_to_text(&other, text, sizeof text);
        if (fabs(strtod(text, NULL)) == fabs(x))
            fail_msg("%s: %s has fewer digits and reads back", buf, text);
    }
    /* The digits are the closest N-digit decimal (glibc rounds correctly). */
    snprintf(text, sizeof text, "%.*e", digits - 1, x);
    sci best;
    parse_glibc_e(text, &best);
    if (strcmp(best.d, ours.d) != 0 || best.exp != ours.exp) {
        if (strtod(text, NULL) == x) fail_msg("%s: closest is %s (%a)", buf, text, x);
        /* Ours differs from the closest N-digit decimal, which does not
         * read back: only possible at the bottom of a binade (significand
         * field zero) where the interval below is half as wide. Ours must
         * then be the neighbour above. */
        if ((f64_bits(x) & ((UINT64_C(1) << 52) - 1)) != 0)
            fail_msg("%s: closest %s does not read back, not a binade bottom", buf, text);
        while (best.n < digits)
            best.d[best.n++] = '0';
        best.d[best.n] = 0;
        sci_step(&best, 1);
        if (strcmp(best.d, ours.d) != 0 || best.exp != ours.exp)
            fail_msg("%s: binade bottom %a, expected the neighbour above", buf, x);
    }
}

static void check_f32(float x)
{
    char guarded[80], text[128];
    char *buf = format_guarded(guarded, sizeof guarded, SV_FMT_F32_MAX, x, true);
    size_t n = strlen(buf);

    sci ours;
    parse_ours(buf, &ours);
    assert_int_equal(buf[0] == '-', signbit(x) != 0);

    float back;
    assert_true(sv__core_parse_f32(buf, n, &back));
    if (f32_bits(back) != f32_bits(x)) fail_msg("%s does not read back as %a", buf, (double)x);
    assert_true(f32_bits(strtof(buf, NULL)) == f32_bits(x));
    if (x == 0) return;

    int digits = ours.n;
    double xd = x; /* exact: printf sees the float's value */
    if (digits >= 2) {
        snprintf(text, sizeof text, "%.*e", digits - 2, xd);
        float c = strtof(text, NULL);
        if (c == x) fail_msg("%s: %s has fewer digits and reads back", buf, text);
        sci other;
        parse_glibc_e(text, &other);
        while (other.n < digits - 1)
            other.d[other.n++] = '0';
        other.d[other.n] = 0;
        sci_step(&other, fabsf(c) < fabsf(x) ? 1 : -1);
        sci_to_text(&other, text, sizeof text);
        if (fabsf(strtof(text, NULL)) == fabsf(x))
            fail_msg("%s: %s has fewer digits and reads back", buf, text);
    }
    snprintf(text, sizeof text, "%.*e", digits - 1, xd);
    sci best;
    parse_glibc_e(text, &best);
    if (strcmp(best.d, ours.d) != 0 || best.exp != ours.exp) {
        if (strtof(text, NULL) == x) fail_msg("%s: closest is %s (%a)", buf, text, xd);
        if ((f32_bits(x) & ((UINT32_C(1) << 23) - 1)) != 0)
            fail_msg("%s: closest %s does not read back, not a binade bottom", buf, text);
        while (best.n < digits)
            best.d[best.n++] = '0';
        best.d[best.n] = 0;
        sci_step(&best, 1);
        if (strcmp(best.d, ours.d) != 0 || best.exp != ours.exp)
            fail_msg("%s: binade bottom %a, expected the neighbour above", buf, xd);
    }
}

static void check_f64_both_signs(double x)
{
    check_f64(x);
    check_f64(-x);
}

static void check_f32_both_signs(float x)
{
    check_f32(x);
    check_f32(-x);
}

/* ---- formatting: hand-written expectations -------------------------------- */

static void expect_f64(double x, const char *want)
{
    char buf[SV_FMT_F64_MAX + 1];
    size_t n = sv__core_fmt_f64(x, buf);
    buf[n] = 0;
    assert_string_equal(buf, want);
}

static void expect_f32(float x, const char *want)
{
    char buf[SV_FMT_F32_MAX + 1];
    size_t n = sv__core_fmt_f32(x, buf);
    buf[n] = 0;
    assert_string_equal(buf, want);
}

static void test_fmt_f64_known(void **state)
{
    (void)state;
    /* Digits as JavaScript / Python repr print them; layout per json.md. */
    expect_f64(0.1, "0.1");
    expect_f64(0.1 + 0.2, "0.30000000000000004");
    expect_f64(1.0 / 3, "0.3333333333333333");
    expect_f64(2.0 / 3, "0.6666666666666666");
    expect_f64(5e-324, "5e-324");
    expect_f64(1e-323, "1e-323");
    expect_f64(1.5e-323, "1.5e-323");
    expect_f64(20 * 5e-324, "1e-322"); /* shortest is two digits shorter */
    expect_f64(1e21, "1e+21");
    expect_f64(1e20, "100000000000000000000.0");
    expect_f64(123456789012345680000.0, "123456789012345680000.0");
    expect_f64(9.999999999999999e20, "999999999999999900000.0");
    expect_f64(9223372036854775808.0, "9223372036854776000.0");
    expect_f64(1e23, "1e+23");
    expect_f64(1e100, "1e+100");
    expect_f64(DBL_MAX, "1.7976931348623157e+308");
    expect_f64(-DBL_MAX, "-1.7976931348623157e+308");
    expect_f64(DBL_MIN, "2.2250738585072014e-308");
    expect_f64(9007199254740992.0, "9007199254740992.0");
    expect_f64(9007199254740991.0, "9007199254740991.0");
    expect_f64(1e15 + 0.3, "1000000000000000.2");
    expect_f64(0.0, "0.0");
    expect_f64(-0.0, "-0.0");
    expect_f64(1.0, "1.0");
    expect_f64(-1.0, "-1.0");
    expect_f64(1.5, "1.5");
    expect_f64(100.0, "100.0");
    expect_f64(0.001, "0.001");
    expect_f64(123.25, "123.25");
    expect_f64(4.35, "4.35");
    expect_f64(12345.678, "12345.678");
    expect_f64(329771703.8, "329771703.8");
    expect_f64(3.141592653589793, "3.141592653589793");
    expect_f64(2.718281828459045, "2.718281828459045");
    expect_f64(-1e-10, "-1e-10");
    expect_f64(1e-6, "0.000001");
    expect_f64(5e-7, "5e-7");
    expect_f64(0.00001, "0.00001");
    expect_f64(0.000123, "0.000123");
    expect_f64(2.5e-6, "0.0000025");
    expect_f64(1.2345e-6, "0.0000012345");
    expect_f64(1.2345678901234567e-6, "0.0000012345678901234567");
}

static void test_fmt_f64_layout_boundaries(void **state)
{
    (void)state;
    /* 1e-6 <= |v| < 1e21 is positional (docs/json.md "Numbers"); the texts
     * are JavaScript's Number.prototype.toString (node), plus ".0". */
    expect_f64(1e-6, "0.000001");
    expect_f64(-1e-6, "-0.000001");
    expect_f64(nextafter(1e-6, 1), "0.0000010000000000000002");
    expect_f64(nextafter(1e-6, 0), "9.999999999999997e-7");
    expect_f64(9.99999999999999e-7, "9.99999999999999e-7");
    expect_f64(9.5e-7, "9.5e-7");
    expect_f64(1.5e-7, "1.5e-7");
    expect_f64(-1.5e-7, "-1.5e-7");
    expect_f64(1e-7, "1e-7");
    expect_f64(-1e-7, "-1e-7");
    expect_f64(1e-8, "1e-8");
    expect_f64(nextafter(1e21, 0), "999999999999999900000.0");
    expect_f64(1e21, "1e+21");
    expect_f64(1.5e21, "1.5e+21");
    expect_f64(1e22, "1e+22");
    expect_f64(1.7976931348623157e308, "1.7976931348623157e+308");
}

static void test_fmt_f32_known(void **state)
{
    (void)state;
    expect_f32(0.1f, "0.1");
    expect_f32(0.3f, "0.3");
    expect_f32(1.1f, "1.1");
    expect_f32(16777216.0f, "16777216.0");
    expect_f32(1e-45f, "1e-45");
    expect_f32(3e-45f, "3e-45");
    expect_f32(FLT_TRUE_MIN * 3, "4e-45");
    expect_f32(3.4028235e38f, "3.4028235e+38");
    expect_f32(-FLT_MAX, "-3.4028235e+38");
    expect_f32(FLT_MIN, "1.1754944e-38");
    expect_f32(1.0f / 3, "0.33333334");
    expect_f32(3.14159265f, "3.1415927");
    expect_f32(1e21f, "1e+21");
    expect_f32(1e20f, "100000000000000000000.0");
    expect_f32(nextafterf(1e21f, 0), "999999950000000000000.0");
    expect_f32(1e-6f, "0.000001");
    expect_f32(nextafterf(1e-6f, 0), "9.999999e-7");
    expect_f32(9.5e-7f, "9.5e-7");
    expect_f32(1.5e-7f, "1.5e-7");
    expect_f32(1e-7f, "1e-7");
    expect_f32(8.589973e9f, "8589974000.0");
    expect_f32(123456.79f, "123456.79");
    expect_f32(7.038531e-26f, "7.038531e-26");
    expect_f32(0.0f, "0.0");
    expect_f32(-0.0f, "-0.0");
    expect_f32(1.0f, "1.0");
    expect_f32(0.5f, "0.5");
}

/* The documented exception to "the digits are glibc's %.{N-1}e": at the
 * bottom of a binade the rounding interval reaches half as far below as
 * above, and for these powers of two the closest N-digit decimal lies below,
 * outside it, while the next one up is inside. The shortest digits are then
 * not the closest N-digit ones (Python's repr agrees for the doubles). */
static void expect_binade_bottom_f64(int e, const char *want)
{
    double x = ldexp(1.0, e);
    char closest[40];
    expect_f64(x, want);
    assert_true(strtod(want, NULL) == x);
    snprintf(closest, sizeof closest, "%.*e", (int)strcspn(want, "e") - 2, x);
    assert_string_not_equal(closest, want);
    assert_true(strtod(closest, NULL) != x);
}

static void expect_binade_bottom_f32(int e, const char *want)
{
    float x = ldexpf(1.0f, e);
    char closest[40];
    expect_f32(x, want);
    assert_true(strtof(want, NULL) == x);
    snprintf(closest, sizeof closest, "%.*e", (int)strcspn(want, "e") - 2, (double)x);
    assert_string_not_equal(closest, want);
    assert_true(strtof(closest, NULL) != x);
}

static void test_fmt_binade_bottom(void **state)
{
    (void)state;
    expect_binade_bottom_f64(-1017, "7.120236347223045e-307"); /* closest: ...044e-307 */
    expect_binade_bottom_f64(-921, "5.641232424577593e-278");  /* closest: ...592e-278 */
    expect_binade_bottom_f32(-96, "1.2621775e-29");            /* closest: 1.2621774e-29 */
    expect_binade_bottom_f32(87, "1.5474251e+26");             /* closest: 1.5474250e+26 */
    expect_binade_bottom_f32(90, "1.2379401e+27");             /* closest: 1.2379400e+27 */
}

/* Whole numbers below 2^53 (2^24 for floats) take their own path: the
 * integer's digits and ".0". glibc's "%.0f" gives the digits (exact for these
 * values); check_f64/check_f32 add the round-trip and shortest checks. */
static void expect_whole_f64(double x)
{
    char want[48];
    snprintf(want, sizeof want, "%.0f.0", x);
    expect_f64(x, want);
    snprintf(want, sizeof want, "%.0f.0", -x);
    expect_f64(-x, want);
    check_f64_both_signs(x);
}

static void expect_whole_f32(float x)
{
    char want[48];
    snprintf(want, sizeof want, "%.0f.0", (double)x);
    expect_f32(x, want);
    snprintf(want, sizeof want, "%.0f.0", (double)-x);
    expect_f32(-x, want);
    check_f32_both_signs(x);
}

static void test_fmt_whole_numbers(void **state)
{
    (void)state;
    expect_f64(11.0, "11.0");
    expect_f64(-3.0, "-3.0");
    expect_f64(100000000.0, "100000000.0");
    expect_f64(99999999.0, "99999999.0");
    expect_f32(11.0f, "11.0");
    expect_f32(-16777215.0f, "-16777215.0");
    /* Every digit count, at its ends (10^k - 1 and 10^k, 10^k + 1). */
    uint64_t p10 = 1;
    for (int k = 0; k <= 16; k++, p10 *= 10) {
        for (uint64_t u = p10 > 1 ? p10 - 1 : 1; u <= p10 + 1; u++) {
            if (u < (UINT64_C(1) << 53)) expect_whole_f64((double)u);
            if (u < (UINT64_C(1) << 24)) expect_whole_f32((float)u);
        }
    }
    /* Every exponent: 2^e and its neighbours, all ones, and random values of
     * each bit length (any trailing zero count: c << s for every shift). */
    for (int e = 0; e <= 53; e++) {
        uint64_t top = UINT64_C(1) << e;
        expect_whole_f64((double)top);
        if (e >= 1) expect_whole_f64((double)(top - 1));
        if (e < 53) expect_whole_f64((double)(top + 1));
        if (e <= 24) {
            expect_whole_f32((float)top);
            if (e >= 1) expect_whole_f32((float)(top - 1));
            if (e < 24) expect_whole_f32((float)(top + 1));
        }
        for (int i = 0; i < 200 && e >= 1; i++) {
            uint64_t u = top | (rnd() & (top - 1)); /* e + 1 bits */
            if (e < 53) expect_whole_f64((double)u);
            if (e < 24) expect_whole_f32((float)u);
        }
    }
    /* The smallest whole numbers, all of them. */
    for (uint32_t u = 1; u <= 30000; u++) {
        expect_whole_f64((double)u);
        expect_whole_f32((float)u);
    }
}

/* Values with at most 8 fraction bits print as their exact decimal value
 * when that is the shortest (put_short_fraction): u / 2^j, u odd, with the
 * significand's trailing zero count tz at least short_fraction_min_tz[j].
 * The expected texts are Python's repr(float) (shortest digits, independent
 * of this code; for float32 the shortest "%.{p}g" that struct.pack('<f')
 * reads back to the same bits), computed once and written here. For each j
 * where it matters, the first value with tz one below the minimum has a
 * shorter text than its exact decimal: the fast path must refuse it. */
static void test_fmt_short_fractions(void **state)
{
    (void)state;
    expect_f64(9.5, "9.5");
    expect_f64(-12.5, "-12.5");
    expect_f64(0.75, "0.75");
    expect_f64(0.0625, "0.0625");
    expect_f64(1234.375, "1234.375");
    expect_f64(0.00390625, "0.00390625");     /* 2^-8: the smallest j = 8 value */
    expect_f64(3.0 / 512, "0.005859375");      /* j = 9: the search */
    expect_f64(1.5 + 0x1p-46, "1.5000000000000142"); /* j = 46 */
    /* The edges of the table for doubles (53-bit significands): the largest
     * taken (tz at the minimum) and the first refused (tz one below). */
    expect_f64((0x1p53 - 1) / 2, "4503599627370495.5"); /* j = 1, tz = 0 */
    expect_f64((0x1p51 - 1) / 4, "562949953421311.75"); /* j = 2, tz = 2 */
    expect_f64((0x1p52 - 1) / 4, "1125899906842623.8"); /* tz = 1: refused */
    expect_f64((0x1p44 - 1) / 32, "549755813887.96875"); /* j = 5, tz = 9 */
    expect_f64((0x1p45 - 1) / 32, "1099511627775.9688"); /* tz = 8: refused */
    expect_f64((0x1p37 - 1) / 256, "536870911.99609375"); /* j = 8, tz = 16 */
    expect_f64((0x1p38 - 1) / 256, "1073741823.9960938"); /* tz = 15: refused */
    /* The same for floats (24-bit significands), every j. */
    expect_f32(9.5f, "9.5");
    expect_f32(-12.375f, "-12.375");
    expect_f32(0.0625f, "0.0625");
    expect_f32(0.00390625f, "0.00390625");
    expect_f32(8388607.5f, "8388607.5");   /* j = 1, tz = 0 */
    expect_f32(1048575.75f, "1048575.75"); /* j = 2, tz = 2 */
    expect_f32(2097151.75f, "2097151.8");  /* tz = 1: refused */
    expect_f32(131071.875f, "131071.875"); /* j = 3, tz = 4 */
    expect_f32(262143.875f, "262143.88");  /* refused */
    expect_f32(16383.9375f, "16383.9375"); /* j = 4, tz = 6 */
    expect_f32(32767.9375f, "32767.938");  /* refused */
    expect_f32(1023.96875f, "1023.96875"); /* j = 5, tz = 9 */
    expect_f32(2047.96875f, "2047.9688");  /* refused */
    expect_f32(127.984375f, "127.984375"); /* j = 6, tz = 11 */
    expect_f32(255.984375f, "255.98438");  /* refused */
    expect_f32(15.9921875f, "15.9921875"); /* j = 7, tz = 13 */
    expect_f32(31.9921875f, "31.992188");  /* refused */
    expect_f32(0.99609375f, "0.99609375"); /* j = 8, tz = 16 */
    expect_f32(1.99609375f, "1.9960938");  /* refused */
}

/* The fast path for few fraction bits against the exact search it skips
 * (fmt_f64_slow / fmt_f32_slow, which take any finite value), byte for
 * byte, and against the glibc oracle for some: random u / 2^j for j = 0 to
 * 10 (both sides of the path's range) and every size of u, both signs; for
 * floats, u / 2^j for j <= 9 and u below 2^24 in an odd stride. */
static void compare_with_search_f64(double x)
{
    char fast[SV_FMT_F64_MAX + 8], slow[SV_FMT_F64_MAX + 8];
    size_t n = sv__core_fmt_f64(x, fast), m = fmt_f64_slow(x, slow);
    if (n != m || memcmp(fast, slow, n) != 0)
        fail_msg("%a: %.*s, the search gives %.*s", x, (int)n, fast, (int)m, slow);
}

static void compare_with_search_f32(float x)
{
    char fast[SV_FMT_F32_MAX + 8], slow[SV_FMT_F32_MAX + 8];
    uint32_t bits = f32_bits(x);
    size_t n = sv__core_fmt_f32(x, fast);
    size_t m = fmt_f32_slow(slow, bits >> 31, bits & ((UINT32_C(1) << 23) - 1),
                            (int)((bits >> 23) & 0xFF));
    if (n != m || memcmp(fast, slow, n) != 0)
        fail_msg("%a: %.*s, the search gives %.*s", (double)x, (int)n, fast, (int)m, slow);
}

static void test_fmt_short_fractions_bulk(void **state)
{
    (void)state;
    for (int i = 0; i < SHORT_FRACTION_F64; i++) {
        uint64_t u = rnd() >> (11 + rnd() % 53); /* 0 to 53 bits */
        int j = (int)(rnd() % 11);
        double x = ldexp((double)u, -j) * (rnd() & 1 ? -1 : 1);
        compare_with_search_f64(x);
        if (i % 16 == 0) check_f64(x);
    }
    for (int j = 0; j <= 9; j++)
        for (uint32_t u = 1; u < (UINT32_C(1) << 24); u += SHORT_FRACTION_F32_STRIDE) {
            float x = ldexpf((float)u, -j);
            compare_with_search_f32(x);
            compare_with_search_f32(-x);
            if (u % 1024 == 1) check_f32(x);
        }
}

/* sv__core_fmt_f32s writes a run of floats exactly as sv__core_fmt_f32 one by
 * one with ',' or ", " between them, within its room (guard bytes after
 * n * (SV_FMT_F32_MAX + 2) stay untouched): runs of 1 to 16 numbers of
 * every kind (random bits, whole numbers, halves, short decimals). */
static void test_fmt_f32_runs(void **state)
{
    (void)state;
    enum { MAX_RUN = 16, ROOM = MAX_RUN * (SV_FMT_F32_MAX + 2) };
    for (int i = 0; i < 20000; i++) {
        size_t n = 1 + (size_t)(rnd() % MAX_RUN), sep = 1 + (size_t)(rnd() & 1);
        float f[MAX_RUN];
        for (size_t k = 0; k < n; k++) {
            uint64_t r = rnd();
            switch (r % 4) {
            case 0: f[k] = f32_from_bits((uint32_t)(r >> 32)); break;
            case 1: f[k] = (float)(int32_t)(r >> 40); break;
            case 2: f[k] = ldexpf((float)(uint32_t)(r >> 44), -(int)(r >> 8 & 7)); break;
            default: f[k] = (float)(r >> 32 & 0xFFFF) / 100.0f; break;
            }
            if (!isfinite(f[k])) f[k] = 1.5f;
        }
        char want[ROOM + 64], got[ROOM + 64];
        size_t wn = 0;
        for (size_t k = 0; k < n; k++) {
            char one[SV_FMT_F32_MAX + 1];
            size_t m = sv__core_fmt_f32(f[k], one);
            memcpy(want + wn, one, m);
            wn += m;
            if (k + 1 < n) {
                memcpy(want + wn, ", ", sep);
                wn += sep;
            }
        }
        memset(got, 0x5A, sizeof got);
        size_t gn = sv__core_fmt_f32s(f, n, sep, got);
        if (gn != wn || memcmp(got, want, wn) != 0)
            fail_msg("run of %zu: %.*s, one by one %.*s", n, (int)gn, got, (int)wn, want);
        for (size_t k = n * (SV_FMT_F32_MAX + 2); k < sizeof got; k++)
            assert_int_equal((unsigned char)got[k], 0x5A);
    }
}

/* 2^-n prints as its exact decimal value while that is the shortest (n <= 23
 * for doubles, 11 for floats); glibc's "%.nf" gives it. check_* adds the
 * oracle checks for every negative power, through the subnormals. */
static void test_fmt_negative_powers_of_two(void **state)
{
    (void)state;
    expect_f64(0.5, "0.5");
    expect_f64(0.25, "0.25");
    expect_f64(-0.125, "-0.125");
    expect_f32(0.5f, "0.5");
    expect_f32(-0.0009765625f, "-0.0009765625");
    char want[48];
    for (int n = 1; n <= 19; n++) {
        double x = ldexp(1.0, -n);
        snprintf(want, sizeof want, "%.*f", n, x);
        expect_f64(x, want);
        if (n <= 11) expect_f32((float)x, want);
    }
    for (int n = 1; n <= 1074; n++)
        check_f64_both_signs(ldexp(1.0, -n));
    for (int n = 1; n <= 149; n++)
        check_f32_both_signs(ldexpf(1.0f, -n));
}

/* ---- formatting: bulk oracle checks --------------------------------------- */

static void test_fmt_f64_special_values(void **state)
{
    (void)state;
    check_f64(0.0);
    check_f64(-0.0);
    check_f64_both_signs(DBL_MAX);
    check_f64_both_signs(DBL_MIN);
    check_f64_both_signs(DBL_TRUE_MIN);
    check_f64_both_signs(f64_from_bits(UINT64_C(0x000fffffffffffff))); /* max subnormal */
    check_f64_both_signs(1e21);
    check_f64_both_signs(nextafter(1e21, 0));
    check_f64_both_signs(nextafter(1e21, INFINITY));
    check_f64_both_signs(1e-6);
    check_f64_both_signs(nextafter(1e-6, 0));
    check_f64_both_signs(nextafter(1e-6, 1));
    check_f64_both_signs(1e-7);
    check_f64_both_signs(9007199254740992.0);
    check_f64_both_signs(9007199254740991.0);
    check_f64_both_signs(9007199254740994.0);
    /* Every exponent with significand field 0, 1 and all ones (all powers of
     * two are the first group). */
    for (uint64_t e = 0; e < 2047; e++) {
        check_f64_both_signs(f64_from_bits(e << 52 | (e ? 0 : 1)));
        check_f64(f64_from_bits(e << 52 | 1));
        check_f64(f64_from_bits(e << 52 | UINT64_C(0x000fffffffffffff)));
    }
    /* Subnormals with a small significand: the interval is wide there. */
    for (uint64_t m = 1; m < 3000; m++)
        check_f64(f64_from_bits(m));
    /* Integers, and all powers of ten that are doubles' neighbours. */
    for (int i = 0; i <= 1000000; i += 1 + (int)(rnd() % 37))
        check_f64((double)i);
    for (int e = -325; e <= 308; e++) {
        char t[32];
        snprintf(t, sizeof t, "1e%d", e);
        double p = strtod(t, NULL);
        check_f64(p);
        check_f64(nextafter(p, 0));
        check_f64(nextafter(p, INFINITY));
    }
}

static void test_fmt_f64_random_bits(void **state)
{
    (void)state;
    for (int i = 0; i < RANDOM_F64; i++) {
        double x = f64_from_bits(rnd());
        if (!isfinite(x)) continue;
        check_f64(x);
    }
}

/* Values that came from short decimals, as real data does: the shortest
 * output is often much shorter than 17 digits, and exercises the paths that
 * drop a digit. */
static void test_fmt_f64_random_decimals(void **state)
{
    (void)state;
    char t[64];
    for (int i = 0; i < DECIMAL_F64; i++) {
        int nd = 1 + (int)(rnd() % 17);
        uint64_t m = rnd() % UINT64_C(100000000000000000);
        int e = (int)(rnd() % 80) - 40;
        if (i % 8 == 0) e = (int)(rnd() % 640) - 325;
        snprintf(t, sizeof t, "%017llu", (unsigned long long)m);
        snprintf(t + nd, sizeof t - (size_t)nd, "e%d", e); /* keep nd digits */
        double x = strtod(t, NULL);
        if (!isfinite(x)) continue;
        check_f64(x);
        /* A neighbour, which needs more digits. */
        check_f64(nextafter(x, INFINITY));
    }
}

static void test_fmt_f32_values(void **state)
{
    (void)state;
    check_f32(0.0f);
    check_f32(-0.0f);
    check_f32_both_signs(FLT_MAX);
    check_f32_both_signs(FLT_MIN);
    check_f32_both_signs(FLT_TRUE_MIN);
    check_f32_both_signs(f32_from_bits(0x007fffff));
    check_f32_both_signs(1e21f);
    check_f32_both_signs(nextafterf(1e21f, 0));
    check_f32_both_signs(1e-6f);
    check_f32_both_signs(nextafterf(1e-6f, 0));
    check_f32_both_signs(1e-7f);
    check_f32_both_signs(16777216.0f);
    check_f32_both_signs(16777215.0f);
    /* Every float32 exponent: significand field 0, 1, all ones, random. */
    for (uint32_t e = 0; e < 255; e++) {
        check_f32_both_signs(f32_from_bits(e << 23 | (e ? 0 : 1)));
        check_f32(f32_from_bits(e << 23 | 1));
        check_f32(f32_from_bits(e << 23 | 0x7fffff));
        for (int i = 0; i < 64; i++)
            check_f32(f32_from_bits(e << 23 | (uint32_t)(rnd() & 0x7fffff)));
    }
    for (uint32_t m = 1; m < 5000; m++)
        check_f32(f32_from_bits(m));
    for (int i = 0; i <= 1000000; i += 1 + (int)(rnd() % 97))
        check_f32((float)i);
}

static void test_fmt_f32_random(void **state)
{
    (void)state;
    for (int i = 0; i < RANDOM_F32; i++) {
        float x = f32_from_bits((uint32_t)rnd());
        if (!isfinite(x)) continue;
        check_f32(x);
    }
    char t[64];
    for (int i = 0; i < DECIMAL_F32; i++) {
        int nd = 1 + (int)(rnd() % 9);
        unsigned long m = (unsigned long)(rnd() % 1000000000u);
        int e = (int)(rnd() % 90) - 48;
        snprintf(t, sizeof t, "%09lu", m);
        snprintf(t + nd, sizeof t - (size_t)nd, "e%d", e);
        float x = strtof(t, NULL);
        if (!isfinite(x)) continue;
        check_f32(x);
        check_f32(nextafterf(x, INFINITY));
    }
}

/* ---- integers ----------------------------------------------------------- */

static void expect_u64(uint64_t u)
{
    char buf[SV_FMT_INT_MAX + 1], want[32];
    size_t n = sv__core_fmt_u64(u, buf);
    buf[n] = 0;
    snprintf(want, sizeof want, "%llu", (unsigned long long)u);
    assert_string_equal(buf, want);
}

static void expect_i64(int64_t i)
{
    char buf[SV_FMT_INT_MAX + 1], want[32];
    size_t n = sv__core_fmt_i64(i, buf);
    buf[n] = 0;
    snprintf(want, sizeof want, "%lld", (long long)i);
    assert_string_equal(buf, want);
}

static void test_fmt_integers(void **state)
{
    (void)state;
    char buf[SV_FMT_INT_MAX + 1];
    size_t n = sv__core_fmt_i64(INT64_MIN, buf);
    buf[n] = 0;
    assert_string_equal(buf, "-9223372036854775808");
    n = sv__core_fmt_u64(UINT64_MAX, buf);
    buf[n] = 0;
    assert_string_equal(buf, "18446744073709551615");
    assert_int_equal(n, 20);
    n = sv__core_fmt_u64(0, buf);
    buf[n] = 0;
    assert_string_equal(buf, "0");

    uint64_t p = 1;
    for (int k = 0; k < 20; k++) {
        expect_u64(p - 1);
        expect_u64(p);
        expect_u64(p + 1);
        expect_i64((int64_t)(p - 1));
        expect_i64(-(int64_t)(p - 1));
        if (k < 19) p *= 10;
    }
    expect_i64(INT64_MAX);
    expect_i64(INT64_MIN);
    expect_i64(INT64_MIN + 1);
    for (int i = 0; i < 100000; i++) {
        uint64_t r = rnd() >> (rnd() % 64);
        expect_u64(r);
        expect_i64((int64_t)r);
        expect_i64((int64_t)rnd());
    }
}

/* ---- internals ---------------------------------------------------------- */

/* The next 8-digit decimal counter value: byte i holds digit i, the first
 * digit in the lowest byte (the layout of digits8). */
static uint64_t counter_next(uint64_t w)
{
    for (int b = 56; b >= 0; b -= 8) {
        if (((w >> b) & 0xFF) < 9) return w + ((uint64_t)1 << b);
        w &= ~((uint64_t)0xFF << b);
    }
    return w;
}

/* digits8 (the portable conversion, twice in digits16_swar) for every
 * x < 10^8, against a decimal counter: the first 7 digits counted, the last
 * one added. */
static void test_digits8_every_value(void **state)
{
    (void)state;
    uint64_t head = 0; /* digits of x / 10, in the first 7 bytes */
    for (uint32_t x = 0; x < 100000000; x += 10) {
        for (uint32_t d = 0; d < 10; d++) {
            uint64_t want = head | (uint64_t)d << 56;
            if (digits8(x + d) != want)
                fail_msg("digits8(%u) = %016llx", x + d, (unsigned long long)digits8(x + d));
        }
        head = counter_next(head | (uint64_t)9 << 56) & ~((uint64_t)0xFF << 56);
    }
}

/* digits16 (SSE2 where built) against digits16_swar and snprintf: every
 * 4-digit value in every lane, then random pairs. */
static void check_digits16(uint32_t hi8, uint32_t lo8)
{
    digits16_t d;
    int n = digits16(hi8, lo8, &d);
    uint64_t lo, hi;
    int n_swar = digits16_swar(hi8, lo8, &lo, &hi);
    char got[17], want[17];
    for (int i = 0; i < 8; i++) {
        got[i] = (char)(digits16_lo(d) >> (8 * i));
        got[8 + i] = (char)(digits16_hi(d) >> (8 * i));
    }
    got[16] = 0;
    snprintf(want, sizeof want, "%08u%08u", hi8, lo8);
    assert_string_equal(got, want);
    assert_true(lo == digits16_lo(d) && hi == digits16_hi(d));
    /* 1 + the number of digits up to the last nonzero one. */
    int last = 16;
    while (last > 0 && want[last - 1] == '0')
        last--;
    assert_int_equal(n, 1 + last);
    assert_int_equal(n_swar, 1 + last);
    char stored[24];
    memset(stored, 'x', sizeof stored);
    store_digits16(stored, d);
    assert_memory_equal(stored, want, 16);
    store_digits16_hi(stored, d);
    assert_memory_equal(stored, want + 8, 8);
}

static void test_digits16(void **state)
{
    (void)state;
    for (uint32_t g = 0; g < 10000; g++)
        check_digits16(g * 10001, g * 10001);
    check_digits16(0, 0);
    check_digits16(99999999, 99999999);
    for (int i = 0; i < DIGITS16_RANDOM; i++) {
        uint32_t a = (uint32_t)(rnd() % 100000000), b = (uint32_t)(rnd() % 100000000);
        /* Some with trailing zeros, which set the digit count. */
        if (i % 4 == 0) b = b / 10000 * 10000;
        if (i % 16 == 0) b = 0;
        check_digits16(a, b);
    }
}

/* The exponent text for every exponent the table covers. */
static void test_exponent_text(void **state)
{
    (void)state;
    for (int x = -399; x <= 399; x++) {
        char got[16], want[16];
        memset(got, 0, sizeof got);
        char *end = write_exponent(got, x);
        *end = 0;
        snprintf(want, sizeof want, "e%+d", x);
        assert_string_equal(got, want);
    }
}

/* exponent_infos, built by the preprocessor, against the functions it stands for,
 * and those against long double logarithms (no fractional part is near an
 * integer here: q log10(2) and k log2(10) are irrational but for q = k = 0). */
static void test_exponent_table(void **state)
{
    (void)state;
    for (int be = 1; be <= 2046; be++) {
        int q = be - 1075;
        int k = floor_log10_pow2(q);
        int h = q + sv__core_floor_log2_pow10(-k - 1) + 5;
        const exponent_info *x = &exponent_infos[be];
        assert_int_equal(x->k, k);
        assert_int_equal(x->h, h);
        assert_int_equal(x->h_shift, 9 - h);
        assert_ptr_equal(exponent_g(x), sv_pow5_128[-k - 1 - SV_POW5_MIN]);
        assert_true(h >= 1 && h <= 4);
        assert_int_equal(k, (int)floorl((long double)q * log10l(2.0L)));
        /* h - 4 = q + 1 + floor(log2(10^-(k+1))) */
        assert_int_equal(h - 4, q + 1 + (int)floorl(-(long double)(k + 1) * log2l(10.0L)));
        /* W = 2^q / 10^k: pick_fast needs 1 <= W < 9.99. */
        long double w = ldexpl(1.0L, q) / powl(10.0L, k);
        assert_true(w >= 1.0L && w < 9.99L);
    }
}

/* Wherever shortest64_fast decides, it must agree with the exact Schubfach,
 * digit for digit. It leaves to the exact code what falls within its margin
 * of a threshold: exact ties and exact ends of R, which need V = c 2^q / 10^k
 * to have few fraction bits, so |q| small (with q = -2, k = -1, V = 2.5 c is a
 * tie half the time); otherwise about 2^-50 of values. So for |q| >= 64 no
 * random double may be left over. */
static int fast_f64(uint64_t bits, int *declined)
{
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    int be = (int)((bits >> 52) & 0x7FF);
    if (be == 0 || be == 0x7FF || frac == 0) return 0;
    uint64_t c = frac | (UINT64_C(1) << 52);
    int q = be - 1075;
    decimal fast, exact = shortest64(c, q);
    if (!shortest64_fast(c, q, &fast)) {
        (*declined)++;
        return 1;
    }
    if (fast.f != exact.f || fast.e != exact.e)
        fail_msg("%016llx: fast %llue%d, exact %llue%d", (unsigned long long)bits,
                 (unsigned long long)fast.f, fast.e, (unsigned long long)exact.f, exact.e);
    return 1;
}

static void test_fast_path_f64(void **state)
{
    (void)state;
    int declined = 0, tried = 0, far_declined = 0;
    for (int i = 0; i < FAST_PATH_F64; i++) {
        uint64_t b = rnd();
        int q = (int)((b >> 52) & 0x7FF) - 1075;
        tried += fast_f64(b, q <= -64 || q >= 64 ? &far_declined : &declined);
    }
    print_message(
        "shortest64_fast: %d of %d random doubles left to the exact code, all with |q| < 64\n",
        declined, tried);
    assert_int_equal(far_declined, 0);

    declined = tried = 0;
    char t[64];
    for (int i = 0; i < FAST_PATH_F64 / 4; i++) {
        /* Short decimals and their neighbours, whole numbers above 2^53. */
        int nd = 1 + (int)(rnd() % 17);
        snprintf(t, sizeof t, "%017llu",
                 (unsigned long long)(rnd() % UINT64_C(100000000000000000)));
        snprintf(t + nd, sizeof t - (size_t)nd, "e%d", (int)(rnd() % 640) - 325);
        uint64_t b = f64_bits(strtod(t, NULL));
        tried += fast_f64(b, &declined);
        tried += fast_f64(b + 1, &declined);
        tried += fast_f64(b - 1, &declined);
        tried += fast_f64(f64_bits((double)(rnd() >> (rnd() % 12))), &declined);
    }
    /* Every exponent with the smallest and largest significands. */
    for (uint64_t e = 1; e < 2047; e++)
        for (uint64_t f = 1; f < 64; f++) {
            tried += fast_f64(e << 52 | f, &declined);
            tried += fast_f64(e << 52 | (((UINT64_C(1) << 52) - 1) ^ (f - 1)), &declined);
        }
    print_message("shortest64_fast: %d of %d decimal-like doubles left to the exact code\n",
                  declined, tried);
}

static int fast_f32(uint32_t bits, int *declined)
{
    uint32_t frac = bits & ((UINT32_C(1) << 23) - 1);
    int be = (int)((bits >> 23) & 0xFF);
    if (be == 0 || be == 0xFF || frac == 0) return 0;
    uint32_t c = frac | (UINT32_C(1) << 23);
    int q = be - 150;
    decimal fast, exact = shortest32(c, q);
    if (!shortest32_fast(c, q, &fast)) {
        (*declined)++;
        return 1;
    }
    if (fast.f != exact.f || fast.e != exact.e)
        fail_msg("%08x: fast %llue%d, exact %llue%d", bits, (unsigned long long)fast.f, fast.e,
                 (unsigned long long)exact.f, exact.e);
    return 1;
}

static void test_fast_path_f32(void **state)
{
    (void)state;
    int declined = 0, tried = 0, far_declined = 0;
    for (int i = 0; i < FAST_PATH_F32; i++) {
        uint32_t b = (uint32_t)rnd();
        int q = (int)((b >> 23) & 0xFF) - 150;
        tried += fast_f32(b, q <= -64 || q >= 64 ? &far_declined : &declined);
    }
    /* A third of the binade [1, 2), where ties are common (the stride is odd,
     * so every residue modulo a power of two is met). */
    for (uint32_t f = 0; f < (UINT32_C(1) << 23); f += 3)
        tried += fast_f32(UINT32_C(127) << 23 | f, &declined);
    print_message("shortest32_fast: %d of %d floats left to the exact code, all with |q| < 64\n",
                  declined, tried);
    assert_int_equal(far_declined, 0);
}

/* ---- against digits worked out by Python --------------------------------- */

/* The significant digits of a formatted number (no sign, point, leading or
 * trailing zeros) into ds, and the decimal exponent of the last one:
 * "-0.00125" -> "125", -5; "1.5e+300" -> "15", 299; "100.0" -> "1", 2. */
static void text_digits(const char *t, size_t n, char *ds, int *exp)
{
    size_t i = 0, nd = 0;
    int e = 0, frac = 0;
    bool point = false;
    if (i < n && t[i] == '-') i++;
    for (; i < n && t[i] != 'e'; i++) {
        if (t[i] == '.') {
            point = true;
            continue;
        }
        assert_true(t[i] >= '0' && t[i] <= '9');
        if (point) frac++;
        if (nd || t[i] != '0') ds[nd++] = t[i];
    }
    if (i < n) e = atoi(t + i + 1); /* 'e', sign, digits */
    e -= frac;
    while (nd > 1 && ds[nd - 1] == '0') {
        nd--;
        e++;
    }
    ds[nd] = '\0';
    *exp = e;
}

/* Every double of float_repr_vectors.h (random bits, powers of two and of
 * ten with their neighbours, subnormals, the extremes) prints Python's repr
 * digits, and the sign of its bits. */
static void test_fmt_f64_python_repr(void **state)
{
    (void)state;
    size_t count = sizeof f64_repr_vectors / sizeof f64_repr_vectors[0];
    assert_true(count > 3000);
    for (size_t i = 0; i < count; i++) {
        const f64_repr_vector *x = &f64_repr_vectors[i];
        double d;
        memcpy(&d, &x->bits, sizeof d);
        char out[SV_FMT_F64_MAX + 1], ds[32];
        size_t n = sv__core_fmt_f64(d, out);
        int e;
        text_digits(out, n, ds, &e);
        if (strcmp(ds, x->digits) != 0 || e != x->exp || (out[0] == '-') != (x->bits >> 63))
            fail_msg("%016llx: printed %.*s, Python's repr digits %se%d",
                     (unsigned long long)x->bits, (int)n, out, x->digits, x->exp);
    }
}

/* The same for floats, against digits worked out with exact rational
 * arithmetic (Python has no float32 repr). */
static void test_fmt_f32_python_shortest(void **state)
{
    (void)state;
    size_t count = sizeof f32_repr_vectors / sizeof f32_repr_vectors[0];
    assert_true(count > 2000);
    for (size_t i = 0; i < count; i++) {
        const f32_repr_vector *x = &f32_repr_vectors[i];
        float f;
        memcpy(&f, &x->bits, sizeof f);
        char out[SV_FMT_F32_MAX + 1], ds[32];
        size_t n = sv__core_fmt_f32(f, out);
        int e;
        text_digits(out, n, ds, &e);
        if (strcmp(ds, x->digits) != 0 || e != x->exp || (out[0] == '-') != (x->bits >> 31))
            fail_msg("%08x: printed %.*s, expected digits %se%d", x->bits, (int)n, out, x->digits,
                     x->exp);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_f64_known),
        cmocka_unit_test(test_fmt_f64_layout_boundaries),
        cmocka_unit_test(test_fmt_f32_known),
        cmocka_unit_test(test_fmt_binade_bottom),
        cmocka_unit_test(test_fmt_whole_numbers),
        cmocka_unit_test(test_fmt_negative_powers_of_two),
        cmocka_unit_test(test_fmt_short_fractions),
        cmocka_unit_test(test_fmt_short_fractions_bulk),
        cmocka_unit_test(test_fmt_f32_runs),
        cmocka_unit_test(test_fmt_integers),
        cmocka_unit_test(test_exponent_text),
        cmocka_unit_test(test_exponent_table),
        cmocka_unit_test(test_digits16),
        cmocka_unit_test(test_digits8_every_value),
        cmocka_unit_test(test_fast_path_f64),
        cmocka_unit_test(test_fast_path_f32),
        cmocka_unit_test(test_fmt_f64_special_values),
        cmocka_unit_test(test_fmt_f64_random_bits),
        cmocka_unit_test(test_fmt_f64_random_decimals),
        cmocka_unit_test(test_fmt_f32_values),
        cmocka_unit_test(test_fmt_f32_random),
        cmocka_unit_test(test_fmt_f64_python_repr),
        cmocka_unit_test(test_fmt_f32_python_shortest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
