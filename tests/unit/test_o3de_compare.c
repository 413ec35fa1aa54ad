/* O3DE's JsonSerialization::Compare: the order of JSON types (RapidJSON's
 * type enum), numbers as doubles, strings bytewise, arrays and objects by
 * size first, objects member by member in name order; and its scratch
 * memory taken from the caller's allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_o3de.h"

static int order_of(const char *a, const char *b)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value x = o3t_json(doc, a), y = o3t_json(doc, b);
    sv_error err;
    sv_error_clear(&err);
    int order = 99;
    assert_int_equal(sv_o3de_compare(NULL, &x, &y, &order, &err), SV_OK);
    sv_doc_free(doc);
    return order < 0 ? -1 : order > 0;
}

static void test_order(void **state)
{
    (void)state;
    /* Null < False < True < Object < Array < String < Number */
    static const char *const ranks[] = {"null", "false", "true", "{}", "[]", "\"\"", "0"};
    for (size_t i = 0; i < 7; i++)
        for (size_t j = 0; j < 7; j++)
            assert_int_equal(order_of(ranks[i], ranks[j]), i < j ? -1 : i > j);
    assert_int_equal(order_of("1", "1.0"), 0);
    assert_int_equal(order_of("-1", "2.5"), -1);
    assert_int_equal(order_of("\"ab\"", "\"b\""), -1);
    assert_int_equal(order_of("\"ab\"", "\"a\""), 1);
    assert_int_equal(order_of("[9]", "[1,2]"), -1);
    assert_int_equal(order_of("[1,3]", "[1,2]"), 1);
    /* members in name order, whatever order they are written in */
    assert_int_equal(order_of("{\"b\":1,\"a\":2}", "{\"a\":2,\"b\":1}"), 0);
    assert_int_equal(order_of("{\"z\":0}", "{\"a\":0,\"b\":0}"), -1);
    assert_int_equal(order_of("{\"a\":1,\"b\":0}", "{\"b\":0,\"a\":2}"), -1);
    assert_int_equal(order_of("{\"a\":0}", "{\"b\":0}"), -1);
}

/* An object of n members named m0..m(n-1), written last to first. */
static sv_value big_object(sv_doc *doc, int n, int last)
{
    char text[4096];
    size_t k = (size_t)snprintf(text, sizeof text, "{");
    for (int i = n - 1; i >= 0; i--)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s\"m%d\":%d", i == n - 1 ? "" : ",", i,
                              i == 0 ? last : i);
    snprintf(text + k, sizeof text - k, "}");
    return o3t_json(doc, text);
}

static void test_scratch_from_the_allocator(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value small_a = big_object(doc, 16, 1), small_b = big_object(doc, 16, 2);
    sv_value big_a = big_object(doc, 40, 1), big_b = big_object(doc, 40, 2);
    sv_error err;
    sv_error_clear(&err);
    int order = 0;
    test_alloc t;
    /* small objects: no allocation at all */
    test_alloc_init(&t, 0);
    assert_int_equal(sv_o3de_compare(&t.alloc, &small_a, &small_b, &order, &err), SV_OK);
    assert_true(order < 0);
    assert_int_equal(t.calls, 0);
    /* large ones: the scratch comes from the allocator and goes back */
    test_alloc_init(&t, 0);
    assert_int_equal(sv_o3de_compare(&t.alloc, &big_a, &big_b, &order, &err), SV_OK);
    assert_true(order < 0);
    assert_int_equal(t.calls, 1);
    assert_int_equal(t.live_bytes, 0);
    /* and its failure is an error, not an answer */
    test_alloc_init(&t, 1);
    order = 5;
    assert_int_equal(sv_o3de_compare(&t.alloc, &big_a, &big_b, &order, &err), SV_ERR_NOMEM);
    assert_int_equal(order, 0);
    assert_int_equal(t.live_bytes, 0);
    /* nested: the failure deep inside reaches the top */
    sv_value outer_a = sv_array(doc, 0), outer_b = sv_array(doc, 0);
    assert_int_equal(sv_array_append(doc, &outer_a, big_a), SV_OK);
    assert_int_equal(sv_array_append(doc, &outer_b, big_b), SV_OK);
    test_alloc_init(&t, 1);
    assert_int_equal(sv_o3de_compare(&t.alloc, &outer_a, &outer_b, &order, &err), SV_ERR_NOMEM);
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_compare(NULL, &outer_a, NULL, &order, &err), SV_ERR_USAGE);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_scratch_from_the_allocator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
