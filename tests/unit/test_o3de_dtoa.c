/* Doubles as RapidJSON's Writer prints them: the short cut for multiples of
 * 1/4 below 2^22 gives Grisu2's own text for every one of them, and known
 * texts of RapidJSON's layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/o3de/o3de_internal.h"

static void check(double d)
{
    char a[40], b[40];
    size_t na = o3_dtoa(d, a), nb = o3_dtoa_grisu(d, b);
    a[na] = 0;
    b[nb] = 0;
    if (strcmp(a, b) != 0) fail_msg("%.17g: short cut '%s', Grisu2 '%s'", d, a, b);
}

static void test_quarters_match_grisu2(void **state)
{
    (void)state;
    /* every multiple of 1/4 the short cut takes, both signs, up to 2^22
     * (4M values each way), then the edge and past it */
    for (uint32_t m = 1; m < (UINT32_C(1) << 24); m++) {
        check(m / 4.0);
        if ((m & 7) == 0) check(-(m / 4.0));
    }
    check(4194304.0);
    check(4194304.25);
    check(0.125);
    check(1e-300);
}

static void test_known_texts(void **state)
{
    (void)state;
    static const struct {
        double d;
        const char *text;
    } cases[] = {
        {0.25, "0.25"},         {0.5, "0.5"},           {0.75, "0.75"},
        {1.0, "1.0"},           {42.0, "42.0"},         {-3.5, "-3.5"},
        {100.0, "100.0"},       {120.0, "120.0"},       {123.75, "123.75"},
        {1000000.0, "1000000.0"}, {4194303.75, "4194303.75"}, {4194304.0, "4194304.0"},
        {0.1f, "0.10000000149011612"}, {1e21, "1e21"},    {1e-7, "1e-7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[40];
        size_t n = o3_dtoa(cases[i].d, buf);
        buf[n] = 0;
        assert_string_equal(buf, cases[i].text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quarters_match_grisu2),
        cmocka_unit_test(test_known_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
