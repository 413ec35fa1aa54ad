/* Documents and their arena: allocation limits, failing allocators, growth
 * in place, and that a failed run frees everything it took. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/serval.h"

static void test_alloc_is_aligned_and_counted(void **state)
{
    (void)state;
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    assert_non_null(doc);
    for (size_t n = 1; n < 200; n += 7) {
        void *p = sv_doc_alloc(doc, n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 8, 0);
        memset(p, 0xAB, n);
    }
    /* a big block gets a chunk of its own */
    void *big = sv_doc_alloc(doc, 1 << 20);
    assert_non_null(big);
    memset(big, 0, 1 << 20);
    assert_true(sv_doc_allocated(doc) >= (1u << 20));
    assert_true((int64_t)sv_doc_allocated(doc) <= t.live_bytes);
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
}

static void test_max_alloc_limit(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_doc_set_max_alloc(doc, 64 * 1024);
    void *p = sv_doc_alloc(doc, 100 * 1024);
    assert_null(p);
    assert_int_equal(sv_doc_status(doc), SV_ERR_LIMIT);
    /* sticky: later small requests fail too, so a decoder checks once */
    assert_null(sv_doc_alloc(doc, 8));
    sv_doc_free(doc);
}

static void test_realloc_grows_last_block_in_place(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    char *p = sv_doc_alloc(doc, 16);
    memcpy(p, "0123456789abcdef", 16);
    char *q = sv_doc_realloc(doc, p, 16, 64);
    assert_ptr_equal(p, q);
    char *other = sv_doc_alloc(doc, 8);
    assert_non_null(other);
    char *r = sv_doc_realloc(doc, q, 64, 128); /* no longer last: moves, keeps contents */
    assert_ptr_not_equal(q, r);
    assert_memory_equal(r, "0123456789abcdef", 16);
    sv_doc_free(doc);
}

/* Builds a tree with every container kind and many strings; returns false if
 * any step failed. */
static bool build(sv_doc *doc)
{
    sv_value root = sv_map(doc, 0);
    for (int i = 0; i < 300; i++) {
        char key[16];
        int n = snprintf(key, sizeof key, "key%d", i);
        sv_value arr = sv_array(doc, 0);
        for (int j = 0; j < 5; j++) {
            if (sv_array_append(doc, &arr, sv_str(doc, key, (size_t)n)) != SV_OK) return false;
        }
        if (sv_map_append(doc, &root, sv_str_intern(doc, key, (size_t)n), arr) != SV_OK)
            return false;
    }
    sv_doc_set_root(doc, root);
    return sv_doc_status(doc) == SV_OK;
}

static void test_every_failing_allocation_is_clean(void **state)
{
    (void)state;
    /* Count the allocations of a successful run, then fail each one in turn:
     * every run must report failure and give back every byte. */
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    assert_true(build(doc));
    sv_doc_free(doc);
    long total = t.calls;
    assert_true(total > 3);
    for (long n = 1; n <= total; n++) {
        test_alloc_init(&t, n);
        doc = sv_doc_new(&t.alloc);
        if (doc) {
            assert_false(build(doc));
            assert_int_equal(sv_doc_status(doc), SV_ERR_NOMEM);
            sv_doc_free(doc);
        }
        assert_int_equal(t.live_bytes, 0);
    }
}

static void test_limits_resolve(void **state)
{
    (void)state;
    sv_limits l = sv_limits_resolve(NULL);
    assert_int_equal(l.max_depth, 1024);
    assert_true(l.max_alloc == (UINT64_C(4) << 30));
    assert_true(l.max_string == (UINT64_C(256) << 20));
    assert_true(l.max_decompressed == (UINT64_C(1) << 30));
    sv_limits mine = {16, 0, 100, 0};
    l = sv_limits_resolve(&mine);
    assert_int_equal(l.max_depth, 16);
    assert_int_equal(l.max_string, 100);
    assert_true(l.max_alloc == SV_DEFAULT_MAX_ALLOC);
}

static void test_buf_growth_and_failure(void **state)
{
    (void)state;
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_buf b;
    sv_buf_init(&b, &t.alloc);
    for (int i = 0; i < 100000; i++) sv_buf_putc(&b, (uint8_t)i);
    assert_true(sv_buf_ok(&b));
    assert_int_equal(b.len, 100000);
    assert_int_equal(b.data[99999], (uint8_t)99999);
    sv_buf_free(&b);
    assert_int_equal(t.live_bytes, 0);

    test_alloc_init(&t, 2); /* the second growth fails */
    sv_buf_init(&b, &t.alloc);
    sv_buf_append(&b, "x", 1);
    char big[8192] = {0};
    sv_buf_append(&b, big, sizeof big);
    assert_false(sv_buf_ok(&b));
    sv_buf_append(&b, "y", 1); /* sticky: ignored */
    assert_int_equal(b.len, 1);
    sv_buf_free(&b);
    assert_int_equal(t.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_is_aligned_and_counted),
        cmocka_unit_test(test_max_alloc_limit),
        cmocka_unit_test(test_realloc_grows_last_block_in_place),
        cmocka_unit_test(test_every_failing_allocation_is_clean),
        cmocka_unit_test(test_limits_resolve),
        cmocka_unit_test(test_buf_growth_and_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
