/* Status table, error details, JSON Pointer paths and the one-line format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static void test_status_table(void **state)
{
    (void)state;
    assert_string_equal(sv_status_str(SV_OK), "ok");
    assert_string_equal(sv_status_name(SV_ERR_TRUNCATED), "SV_ERR_TRUNCATED");
    assert_string_equal(sv_status_str(SV_ERR_DEPTH), "nesting deeper than the depth limit");
    assert_string_equal(sv_status_str((sv_status)999), "unknown status");
    assert_string_equal(sv_status_name((sv_status)-1), "SV_UNKNOWN");
    assert_string_equal(sv_status_str(SV_STATUS_COUNT), "unknown status");
    for (int s = 0; s < SV_STATUS_COUNT; s++) {
        assert_string_not_equal(sv_status_str((sv_status)s), "unknown status");
        assert_memory_equal(sv_status_name((sv_status)s), "SV_", 3);
    }
}

/* The numbers are ABI: a program built against an older header compares
 * with these literals. Reordering or inserting a status fails here. */
static void test_status_numbers(void **state)
{
    (void)state;
    assert_int_equal(SV_OK, 0);
    assert_int_equal(SV_ERR_TRUNCATED, 1);
    assert_int_equal(SV_ERR_SYNTAX, 2);
    assert_int_equal(SV_ERR_UTF8, 3);
    assert_int_equal(SV_ERR_RANGE, 4);
    assert_int_equal(SV_ERR_TYPE, 5);
    assert_int_equal(SV_ERR_TRAILING, 6);
    assert_int_equal(SV_ERR_DEPTH, 7);
    assert_int_equal(SV_ERR_LIMIT, 8);
    assert_int_equal(SV_ERR_REFUSED, 9);
    assert_int_equal(SV_ERR_NOMEM, 10);
    assert_int_equal(SV_ERR_IO, 11);
    assert_int_equal(SV_ERR_USAGE, 12);
    assert_int_equal(SV_ERR_UNSUPPORTED, 13);
    assert_int_equal(SV_ERR_NOT_FOUND, 14);
    assert_int_equal(SV_STATUS_COUNT, 15);
    /* and each number keeps its name */
    assert_string_equal(sv_status_name((sv_status)9), "SV_ERR_REFUSED");
    assert_string_equal(sv_status_name((sv_status)14), "SV_ERR_NOT_FOUND");
}

static void test_first_error_wins(void **state)
{
    (void)state;
    sv_error e;
    sv_error_clear(&e);
    assert_int_equal(e.status, SV_OK);
    assert_int_equal(e.bit_offset, -1);
    assert_int_equal(sv_error_set(&e, SV_ERR_SYNTAX, "json", 12, "expected '%c'", ','),
                     SV_ERR_SYNTAX);
    assert_int_equal(sv_error_set(&e, SV_ERR_RANGE, "json", 99, "later"), SV_ERR_SYNTAX);
    assert_int_equal(e.byte_offset, 12);
    assert_string_equal(e.message, "expected ','");
    /* NULL error pointers are allowed */
    assert_int_equal(sv_error_set(NULL, SV_ERR_RANGE, "x", 0, "y"), SV_ERR_RANGE);
}

static void test_paths(void **state)
{
    (void)state;
    sv_error e;
    sv_error_clear(&e);
    sv_error_path_index(&e, 3); /* no error yet: ignored */
    assert_string_equal(e.path, "");
    assert_int_equal(sv_error_set(&e, SV_ERR_UTF8, "json", 5, "bad byte"), SV_ERR_UTF8);
    /* unwinding from the inside out: /a~1b/0/c~0d */
    sv_error_path_key(&e, "c~d", 3);
    sv_error_path_index(&e, 0);
    sv_error_path_key(&e, "a/b", 3);
    assert_string_equal(e.path, "/a~1b/0/c~0d");

    /* a path too long keeps its innermost part behind "..." */
    sv_error_clear(&e);
    assert_int_equal(sv_error_set(&e, SV_ERR_DEPTH, "json", 0, NULL), SV_ERR_DEPTH);
    for (int i = 0; i < 200; i++) sv_error_path_index(&e, 7);
    assert_true(strlen(e.path) < SV_ERROR_PATH_MAX);
    assert_memory_equal(e.path, "...", 3);
    size_t n = strlen(e.path);
    assert_string_equal(e.path + n - 4, "/7/7");
}

static void test_format(void **state)
{
    (void)state;
    sv_error e;
    char buf[512];
    sv_error_clear(&e);
    assert_int_equal(sv_error_set(&e, SV_ERR_SYNTAX, "json", 12, "expected ',' or ']'"),
                     SV_ERR_SYNTAX);
    e.line = 2;
    e.column = 5;
    sv_error_path_index(&e, 0);
    sv_error_path_key(&e, "a", 1);
    sv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf,
                        "json: malformed input at byte 12 (line 2, column 5) at /a/0: expected ',' or ']'");

    sv_error_clear(&e);
    assert_int_equal(sv_error_set_bits(&e, SV_ERR_TRUNCATED, "kingsisle", 7, 3, "bool needs 1 bit"),
                     SV_ERR_TRUNCATED);
    sv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "kingsisle: input ends too early at byte 7 bit 3: bool needs 1 bit");

    sv_error_clear(&e);
    assert_int_equal(sv_error_set(&e, SV_ERR_NOMEM, NULL, 0, NULL), SV_ERR_NOMEM);
    sv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "serval: out of memory");

    /* snprintf semantics: the needed length is returned, output truncated */
    char small[8];
    int need = sv_error_format(&e, small, sizeof small);
    assert_int_equal(need, (int)strlen("serval: out of memory"));
    assert_string_equal(small, "serval:");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_table),
        cmocka_unit_test(test_status_numbers),
        cmocka_unit_test(test_first_error_wins),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
