/* Floats widened to doubles, O3DE's usual numbers, through o3de_dtoa.c's
 * exact-float path: the texts RapidJSON's own Writer gave for a table of
 * floats (vectors/o3de/dtoa/rapidjson_floats.txt, made by RapidJSON, not by
 * serval), and Grisu2's digit-by-digit text (o3_dtoa_grisu) for a large
 * fixed sample of floats: every exponent, every significand's edges, the
 * neighbours of powers of two and ten, and random bit patterns. The float
 * entry (o3_ftoa), the double entry (o3_dtoa) and the path alone
 * (o3_dtoa_float_digits) are each compared. tests/tools/
 * o3de_ftoa_exhaustive.c does the same for every float. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/o3de/o3de_internal.h"
#include "helper_bits.h"
#include "helper_file.h"

/* Each entry's text for f and -f against want (f's text), counting the
 * wrong ones in wrong_texts and printing the first few. */
static int wrong_texts;
static void expect_texts(float f, const char *want)
{
    char a[40], b[40], c[40], neg[48];
    a[o3_ftoa(f, a)] = 0;
    b[o3_dtoa((double)f, b)] = 0;
    c[o3_ftoa(-f, c)] = 0;
    if (want[0] == '-')
        snprintf(neg, sizeof neg, "%s", want + 1);
    else
        snprintf(neg, sizeof neg, "-%s", want);
    if (strcmp(a, want) != 0 || strcmp(b, want) != 0 || strcmp(c, neg) != 0) {
        if (wrong_texts++ < 10)
            print_error("float 0x%08x: want '%s', o3_ftoa '%s' (negated '%s'), o3_dtoa '%s'\n",
                        f32_bits(f), want, a, c, b);
    }
}

/* One row of RapidJSON's float table: the float's bits in hex and the text
 * its Writer wrote; ctx counts the rows the exact-float path decides. */
static void float_row(const char *input, const char *want, void *ctx)
{
    float v = f32_from_bits((uint32_t)strtoul(input, NULL, 16));
    expect_texts(v, want);
    char alone[40];
    size_t n = o3_dtoa_float_digits(v, alone);
    if (n) {
        (*(int *)ctx)++;
        alone[n] = 0;
        if (strcmp(alone, want) != 0 && wrong_texts++ < 10)
            print_error("float %s: RapidJSON '%s', the exact-float path '%s'\n", input, want, alone);
    }
}

static void test_rapidjson_floats(void **state)
{
    (void)state;
    int by_path = 0;
    wrong_texts = 0;
    int rows = test_each_row("vectors/o3de/dtoa/rapidjson_floats.txt", float_row, &by_path);
    assert_true(rows >= 3500);
    /* most rows go through the path (not whole numbers, not subnormals,
     * not outside 10^-6 .. 10^7): a table it never sees checks nothing */
    assert_true(by_path >= 1200);
    assert_int_equal(wrong_texts, 0);
}

/* Every entry against Grisu2 digit by digit for f (and -f). */
static int wrong_vs_grisu, decided;
static void same_as_grisu2(float f)
{
    if (f == 0 || f != f || f - f != 0) return; /* Grisu2 takes finite non-zero numbers */
    char want[40];
    want[o3_dtoa_grisu((double)f, want)] = 0;
    int before = wrong_texts;
    expect_texts(f, want);
    char alone[40];
    size_t n = o3_dtoa_float_digits(f, alone);
    if (n) {
        decided++;
        alone[n] = 0;
        if (strcmp(alone, want) != 0 && wrong_texts++ < 10)
            print_error("float 0x%08x: Grisu2 '%s', the exact-float path '%s'\n", f32_bits(f), want,
                        alone);
    }
    wrong_vs_grisu += wrong_texts != before;
}

static void test_sample_matches_grisu2(void **state)
{
    (void)state;
    wrong_texts = wrong_vs_grisu = decided = 0;
    /* every exponent: the first and last eight significands, and the
     * middle */
    for (uint32_t e = 0; e < 255; e++) {
        for (uint32_t m = 0; m < 8; m++) {
            same_as_grisu2(f32_from_bits(e << 23 | m));
            same_as_grisu2(f32_from_bits(e << 23 | (0x7fffff - m)));
        }
        same_as_grisu2(f32_from_bits(e << 23 | 0x400000));
    }
    /* the floats nearest each power of ten, three ulps either way */
    for (int p = -45; p <= 38; p++) {
        char text[16];
        snprintf(text, sizeof text, "1e%d", p);
        uint32_t b = f32_bits(strtof(text, NULL));
        for (uint32_t j = b - 3; j <= b + 3; j++) same_as_grisu2(f32_from_bits(j));
    }
    /* random bit patterns (every exponent alike), and floats below 100
     * the way authored data has them */
    for (int i = 0; i < 1500000; i++) {
        uint64_t r = rnd();
        same_as_grisu2(f32_from_bits((uint32_t)r));
        same_as_grisu2((float)((double)(r >> 11) * 0x1p-53 * 200.0 - 100.0));
    }
    assert_int_equal(wrong_vs_grisu, 0);
    assert_true(decided >= 1500000);
}

/* A vector's components in one call: each number's own text, a comma
 * between them, nothing after the last (checked against o3_ftoa one at a
 * time, and one fixed vector against its text worked by hand). */
static void test_list_matches_single(void **state)
{
    (void)state;
    const float fixed[3] = {0.25f, -0.1f, 1000.0f};
    char buf[4 * 40], want[4 * 40];
    size_t n = o3_ftoa_list(fixed, 3, buf);
    buf[n] = 0;
    assert_string_equal(buf, "0.25,-0.10000000149011612,1000.0");
    for (int i = 0; i < 200000; i++) {
        float v[4];
        for (int j = 0; j < 4; j++) {
            uint64_t r = rnd();
            v[j] = (r & 1) ? f32_from_bits((uint32_t)(r >> 32))
                           : (float)((double)(r >> 11) * 0x1p-53 * 200.0 - 100.0);
            if (v[j] != v[j] || v[j] - v[j] != 0) v[j] = 0.5f;
        }
        size_t count = 1 + (size_t)(i % 4), w = 0;
        for (size_t j = 0; j < count; j++) {
            if (j) want[w++] = ',';
            w += o3_ftoa(v[j], want + w);
        }
        n = o3_ftoa_list(v, count, buf);
        if (n != w || memcmp(buf, want, w) != 0)
            fail_msg("vector %d: o3_ftoa_list '%.*s', one at a time '%.*s'", i, (int)n, buf, (int)w,
                     want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rapidjson_floats),
        cmocka_unit_test(test_sample_matches_grisu2),
        cmocka_unit_test(test_list_matches_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
