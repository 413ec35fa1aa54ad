/* The one careful scan of JSON number tokens (src/core/num_scan.h) that the
 * typed JSON reader, the text-to-float conversion and O3DE's loader share.
 * Expected values are worked out by hand from the token's digits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/num_scan.h"

static sv_num_scan scan_ok(const char *text, size_t want_len)
{
    sv_num_scan n;
    const char *end = text + strlen(text);
    const char *e = sv__core_num_scan_token(text, end, &n);
    assert_non_null(e);
    assert_int_equal((size_t)(e - text), want_len);
    return n;
}

static void test_short_and_long_integers(void **state)
{
    (void)state;
    sv_num_scan n = scan_ok("0", 1);
    assert_true(n.is_int && !n.big && !n.neg);
    assert_int_equal(n.mag, 0);
    n = scan_ok("-1234567,", 8); /* stops at the comma */
    assert_true(n.neg && n.is_int);
    assert_int_equal(n.mant, 1234567);
    assert_int_equal(n.mag, 1234567);
    assert_int_equal(n.exp10, 0);
    /* UINT64_MAX fits; one more does not */
    n = scan_ok("18446744073709551615", 20);
    assert_false(n.big);
    assert_true(n.mag == UINT64_MAX);
    assert_true(n.mant == UINT64_C(1844674407370955161));
    assert_int_equal(n.exp10, 1);
    assert_true(n.truncated); /* the dropped 20th digit is 5 */
    n = scan_ok("18446744073709551616", 20);
    assert_true(n.big);
    n = scan_ok("99999999999999999990", 20);
    assert_true(n.big);
    assert_false(scan_ok("10000000000000000000", 20).truncated);
    assert_true(scan_ok("123456789012345678901", 21).big);
}

static void test_fractions_and_exponents(void **state)
{
    (void)state;
    /* leading zeros of a fraction only scale */
    sv_num_scan n = scan_ok("0.000000000000000000001234", 26);
    assert_false(n.is_int);
    assert_int_equal(n.mant, 1234);
    assert_int_equal(n.exp10, -24);
    assert_false(n.truncated);
    /* 25 significant digits: 19 kept, 6 dropped ("789012", not zero) */
    n = scan_ok("1234567890.123456789012345", 26);
    assert_true(n.mant == UINT64_C(1234567890123456789));
    assert_int_equal(n.exp10, -9);
    assert_true(n.truncated);
    n = scan_ok("12.5E-3]", 7);
    assert_int_equal(n.mant, 125);
    assert_int_equal(n.exp, -3);
    assert_int_equal(n.exp10, -4);
    /* an exponent stops growing once past 10^9: nine 9s, then one more */
    n = scan_ok("1e99999999999999999999", 22);
    assert_true(n.exp == INT64_C(9999999999));
    n = scan_ok("1e+5", 4);
    assert_int_equal(n.exp10, 5);
}

static void expect_fault(const char *text, sv_num_fault f, size_t at)
{
    sv_num_scan n;
    assert_null(sv__core_num_scan_token(text, text + strlen(text), &n));
    assert_int_equal(n.fault, f);
    assert_int_equal((size_t)(n.fault_at - text), at);
}

static void test_faults(void **state)
{
    (void)state;
    expect_fault("-", SV_NUM_NO_DIGIT, 1);
    expect_fault("-x", SV_NUM_NO_DIGIT, 1);
    expect_fault("", SV_NUM_NO_DIGIT, 0);
    expect_fault("012", SV_NUM_LEADING_ZERO, 1);
    expect_fault("-00", SV_NUM_LEADING_ZERO, 2);
    expect_fault("1.", SV_NUM_NO_FRACTION, 2);
    expect_fault("1.e5", SV_NUM_NO_FRACTION, 2);
    expect_fault("1e", SV_NUM_NO_EXPONENT, 2);
    expect_fault("1E+", SV_NUM_NO_EXPONENT, 3);
}

/* The eight-at-a-time path and the digit-at-a-time path agree, across the
 * 19-digit edge, whatever the alignment of the token. */
static void test_block_boundaries(void **state)
{
    (void)state;
    char text[64];
    for (int len = 1; len <= 24; len++) {
        for (int i = 0; i < len; i++) text[i] = (char)('1' + i % 9);
        text[len] = 0;
        sv_num_scan n = scan_ok(text, (size_t)len);
        uint64_t want = 0;
        for (int i = 0; i < len && i < 19; i++) want = want * 10 + (uint64_t)(text[i] - '0');
        assert_true(n.mant == want);
        assert_int_equal(n.exp10, len > 19 ? len - 19 : 0);
        assert_int_equal(n.big, len > 20);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_and_long_integers),
        cmocka_unit_test(test_fractions_and_exponents),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_block_boundaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
