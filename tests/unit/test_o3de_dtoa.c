/* Doubles as RapidJSON's Writer prints them: the short cuts for multiples of
 * 1/4 below 2^22 and whole numbers below 2^53 give Grisu2's own text, known
 * texts of RapidJSON's layout, a table of texts RapidJSON itself wrote
 * (vectors/o3de/dtoa/rapidjson_writer.txt), and every fractional number in
 * the real O3DE files written back with the file's own digits. */
#include <dirent.h>
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
#include "helper_file.h"
#include "o3de_dtoa_reference.h"

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

/* The whole numbers from 2^22 up to 2^53 the short cut writes as "N.0":
 * Grisu2's own text (and the reference's) for random ones of every size,
 * both signs, ones ending in zeros, and the edges. */
static uint64_t int_rng = UINT64_C(0x6f33646e756d6265);
static uint64_t next_int_rng(void)
{
    int_rng ^= int_rng << 13;
    int_rng ^= int_rng >> 7;
    int_rng ^= int_rng << 17;
    return int_rng;
}

static int integers_wrong;
static void check_integer(double d)
{
    if (d == 0) return; /* written before Grisu2 (and not by it) */
    char a[40], b[40], r[40];
    size_t na = o3_dtoa(d, a), nb = o3_dtoa_grisu(d, b), nr = ref_dtoa(d, r);
    a[na] = b[nb] = r[nr] = 0;
    if ((strcmp(a, b) != 0 || strcmp(a, r) != 0) && integers_wrong++ < 10)
        print_error("%.17g: short cut '%s', Grisu2 '%s', reference '%s'\n", d, a, b, r);
}

static void test_integers_match_grisu2(void **state)
{
    (void)state;
    integers_wrong = 0;
    for (int i = 0; i < 3000000; i++) {
        uint64_t v = next_int_rng();
        int bits = 23 + (int)(v % 31);                       /* 2^22 .. 2^53 - 1 */
        uint64_t n = (v >> 11) & ((UINT64_C(1) << bits) - 1); /* (v >> 11: 53 random bits) */
        n |= UINT64_C(1) << (bits - 1);
        check_integer((double)n);
        if (i & 1) check_integer(-(double)n);
        uint64_t p10 = 1;
        for (int z = (int)(v >> 58) % 16; z > 0 && n / p10 >= 10; z--) p10 *= 10;
        check_integer((double)(n / p10 * p10)); /* trailing zeros */
    }
    for (int e = 22; e <= 53; e++) {
        for (int64_t j = -3; j <= 3; j++) {
            check_integer((double)(int64_t)((UINT64_C(1) << e) + (uint64_t)j));
            check_integer(-(double)(int64_t)((UINT64_C(1) << e) + (uint64_t)j));
        }
    }
    uint64_t p = 1;
    for (int z = 0; z <= 16; z++, p *= 10) {
        check_integer((double)p);
        check_integer((double)(p - 1));
        check_integer((double)(p + 1));
    }
    check_integer(9007199254740992.0); /* 2^53 itself: Grisu2's way */
    check_integer(4194304.5);                /* not whole: Grisu2's way */
    assert_int_equal(integers_wrong, 0);
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
        /* whole numbers past 2^22, as RapidJSON's Writer wrote them */
        {4194305.0, "4194305.0"}, {-4194305.0, "-4194305.0"}, {67108864.0, "67108864.0"},
        {99999999.0, "99999999.0"}, {100000000.0, "100000000.0"}, {123456789.0, "123456789.0"},
        {1234567890.0, "1234567890.0"}, {5000000000.0, "5000000000.0"},
        {-8589934592.0, "-8589934592.0"}, {281474976710655.0, "281474976710655.0"},
        {1000000000000000.0, "1000000000000000.0"}, {4503599627370497.0, "4503599627370497.0"},
        {9007199254740990.0, "9007199254740990.0"}, {9007199254740991.0, "9007199254740991.0"},
        {9007199254740992.0, "9007199254740992.0"}, {4194304.5, "4194304.5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[40];
        size_t n = o3_dtoa(cases[i].d, buf);
        buf[n] = 0;
        assert_string_equal(buf, cases[i].text);
    }
}

/* One row of RapidJSON's table: the double's text and what its Writer wrote. */
static void writer_row(const char *input, const char *want, void *ctx)
{
    char got[40];
    got[o3_dtoa(strtod(input, NULL), got)] = 0;
    if (strcmp(got, want) != 0) {
        print_error("%s: RapidJSON '%s', serval '%s'\n", input, want, got);
        (*(int *)ctx)++;
    }
}

static void test_rapidjson_table(void **state)
{
    (void)state;
    int wrong = 0;
    int rows = test_each_row("vectors/o3de/dtoa/rapidjson_writer.txt", writer_row, &wrong);
    assert_true(rows >= 100);
    assert_int_equal(wrong, 0);
}

/* Every number with a fraction or exponent outside strings: parsed, written
 * back, and compared with the file's text. */
static int check_numbers_in(const char *path, int *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    int wrong = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            continue;
        }
        if (c != '-' && (c < '0' || c > '9')) continue;
        size_t end = i + 1;
        bool fraction = false;
        while (end < n && strchr("0123456789.eE+-", text[end])) {
            if (strchr(".eE", text[end])) fraction = true;
            end++;
        }
        if (fraction) {
            char want[64] = {0}, got[40];
            if (end - i >= sizeof want) fail_msg("%s: number too long at %zu", path, i);
            memcpy(want, text + i, end - i);
            got[o3_dtoa(strtod(want, NULL), got)] = 0;
            (*count)++;
            if (strcmp(got, want) != 0) {
                print_error("%s: file '%s', serval '%s'\n", path, want, got);
                wrong++;
            }
        }
        i = end - 1;
    }
    return wrong;
}

static int walk_real(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot open %s (tests run from tests/)", dir);
    int wrong = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        DIR *sub = opendir(path);
        if (sub) {
            closedir(sub);
            wrong += walk_real(path, count);
        } else if ((len > 7 && strcmp(e->d_name + len - 7, ".prefab") == 0) ||
                   (len > 7 && strcmp(e->d_name + len - 7, ".setreg") == 0)) {
            wrong += check_numbers_in(path, count);
        }
    }
    closedir(d);
    return wrong;
}

static void test_real_files_digits(void **state)
{
    (void)state;
    int count = 0;
    int wrong = walk_real("vectors/o3de/real", &count);
    /* the prefabs hold 92 fractional numbers; a walk that finds none
     * checks nothing */
    assert_true(count >= 90);
    assert_int_equal(wrong, 0);
}

/* The faster digit generation (several digits per step, the integer
 * part at once, the cached power in integers, the layout without memmove)
 * gives the reference's text, byte for byte. */
static uint64_t rng_state = UINT64_C(0x6f33646474616f61);
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int wrong_vs_reference;
static void same_as_reference(double d)
{
    if (d != d || d - d != 0 || d == 0) return; /* Grisu2 is for finite, non-zero numbers */
    char a[40], b[40], r[40];
    size_t na = o3_dtoa(d, a), nb = o3_dtoa_grisu(d, b), nr = ref_dtoa(d, r);
    a[na] = b[nb] = r[nr] = 0;
    if (strcmp(a, r) != 0 || strcmp(b, r) != 0) {
        if (wrong_vs_reference++ < 10)
            print_error("%a: reference '%s', o3_dtoa '%s', Grisu2 '%s'\n", d, r, a, b);
    }
}

static void test_matches_reference(void **state)
{
    (void)state;
    wrong_vs_reference = 0;
    for (int i = 0; i < 400000; i++) {
        uint64_t u = rng(), v = rng();
        double d;
        memcpy(&d, &u, sizeof d);
        same_as_reference(d); /* any bits: every exponent, subnormals */
        float f;
        uint32_t fb = (uint32_t)v;
        memcpy(&f, &fb, sizeof f);
        same_as_reference((double)f); /* widened floats: O3DE's vectors */
        same_as_reference((double)(float)((double)(v >> 11) * 0x1p-53 * 200.0 - 100.0));
        same_as_reference((double)(v >> 11) * 0x1p-53);                /* in (0, 1) */
        same_as_reference((double)(int64_t)(v % 2000000001) / 1000.0); /* short decimals */
        same_as_reference((double)(v >> (v & 63)));                    /* integers */
    }
    /* every binary exponent, with the smallest and largest significands */
    for (int e = 0; e < 2047; e++) {
        for (uint64_t m = 0; m < 4; m++) {
            uint64_t lo = (uint64_t)e << 52 | m,
                     hi = (uint64_t)e << 52 | (UINT64_C(0xFFFFFFFFFFFFF) - m);
            double a, b;
            memcpy(&a, &lo, sizeof a);
            memcpy(&b, &hi, sizeof b);
            same_as_reference(a);
            same_as_reference(-b);
        }
    }
    /* powers of ten and their neighbours */
    for (int p = -320; p <= 308; p++) {
        char text[16];
        snprintf(text, sizeof text, "1e%d", p);
        double d = strtod(text, NULL);
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        for (uint64_t j = u - 2; j <= u + 2; j++) {
            memcpy(&d, &j, sizeof d);
            same_as_reference(d);
        }
    }
    assert_int_equal(wrong_vs_reference, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quarters_match_grisu2),
        cmocka_unit_test(test_integers_match_grisu2),
        cmocka_unit_test(test_known_texts),
        cmocka_unit_test(test_rapidjson_table),
        cmocka_unit_test(test_real_files_digits),
        cmocka_unit_test(test_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
