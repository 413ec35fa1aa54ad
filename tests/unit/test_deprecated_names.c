/* The names the value API had before every mutator returned sv_status are
 * kept for one release: they still compile (with a deprecation warning,
 * silenced for this file alone by tests/CMakeLists.txt) and still do what
 * they did, returning true for success and false for failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static void old_value_names(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0), map = sv_map(doc, 0), num = sv_int(1);
    assert_true(sv_array_push(doc, &arr, sv_int(7)));
    assert_true(sv_map_put(doc, &map, sv_int(1), sv_int(2)));
    assert_true(sv_map_put_str(doc, &map, "k", sv_int(3)));
    assert_true(sv_set_meta(doc, &arr, sv_int(4)));
    assert_int_equal(sv_get_int(sv_array_at(&arr, 0)), 7);
    assert_int_equal(sv_get_int(sv_map_getz(&map, "k")), 3);
    assert_int_equal(sv_get_int(sv_meta(&arr)), 4);
    assert_false(sv_array_push(doc, &num, sv_int(7)));
    assert_false(sv_map_put(doc, &arr, sv_int(1), sv_int(2)));
    assert_false(sv_map_put_str(doc, &num, "k", sv_int(3)));
    assert_false(sv_set_meta(doc, &num, sv_int(4)));

    assert_true(sv_map_remove(&map, "k"));
    assert_false(sv_map_remove(&map, "k"));
    assert_true(sv_array_remove(&arr, 0));
    assert_false(sv_array_remove(&arr, 0));
    assert_int_equal(sv_len(&map), 1);
    assert_int_equal(sv_len(&arr), 0);
    sv_doc_free(doc);
}

static void old_buffer_names(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_true(sv_buf_reserve(&b, 100));
    assert_true(sv_buf_grow(&b, 10000));
    assert_true(b.cap >= 10000);
    sv_buf_putc(&b, 'x');
    /* a size that cannot be added to the length: refused before allocating */
    assert_false(sv_buf_grow(&b, SIZE_MAX));
    assert_false(sv_buf_reserve(&b, 1));
    sv_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(old_value_names),
        cmocka_unit_test(old_buffer_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
