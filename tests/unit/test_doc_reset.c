/* sv_doc_reset: a document emptied for the next decode keeps its chunks,
 * and the next decode into it is exactly the decode into a new document
 * (same tree, same sv_doc_allocated, same limits), only on reused memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/serval.h"

/* A JSON text large enough for several arena chunks: n members, each a
 * string, a nested array and a number. */
static char *make_json(size_t n, size_t *len)
{
    size_t cap = n * 64 + 16;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t used = 0;
    s[used++] = '{';
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(s + used, cap - used, "%s\"key%zu\":[\"value %zu\",%zu,2.5,true]",
                         i ? "," : "", i % 97, i, i * 7);
        assert_true(w > 0 && (size_t)w < cap - used);
        used += (size_t)w;
    }
    s[used++] = '}';
    s[used] = '\0';
    *len = used;
    return s;
}

static sv_status decode_json(sv_doc *doc, const char *text, size_t len, sv_value *out)
{
    sv_error err;
    sv_error_clear(&err);
    return sv_json_decode(doc, text, len, NULL, out, &err);
}

/* Reset, decode again: the tree equals the one a new document gets, and so
 * does sv_doc_allocated (the limits see the same figures). */
static void test_reset_then_decode_equals_new_doc(void **state)
{
    (void)state;
    size_t len = 0;
    char *text = make_json(4000, &len);

    sv_doc *fresh = sv_doc_new(NULL);
    sv_value want;
    assert_int_equal(decode_json(fresh, text, len, &want), SV_OK);
    uint64_t fresh_bytes = sv_doc_allocated(fresh);
    assert_true(fresh_bytes > 256 * 1024); /* several chunks */

    sv_doc *doc = sv_doc_new(NULL);
    sv_value first;
    assert_int_equal(decode_json(doc, text, len, &first), SV_OK);
    for (int round = 0; round < 3; round++) {
        sv_doc_reset(doc);
        assert_int_equal(sv_doc_allocated(doc), 0);
        assert_int_equal(sv_doc_status(doc), SV_OK);
        assert_int_equal(sv_kind_of(sv_doc_root(doc)), SV_NULL);
        sv_value again;
        assert_int_equal(decode_json(doc, text, len, &again), SV_OK);
        assert_true(sv_equal(&again, &want));
        assert_int_equal(sv_doc_allocated(doc), fresh_bytes);
    }
    sv_doc_free(doc);
    sv_doc_free(fresh);
    free(text);
}

/* The kept chunks are the ones handed out again: the first block after a
 * reset is the first block before it, and nothing new is allocated for a
 * decode that fits the kept chunks. */
static void test_reset_reuses_chunks(void **state)
{
    (void)state;
    test_alloc t;
    test_alloc_init(&t, 0);
    size_t len = 0;
    char *text = make_json(2000, &len);
    sv_doc *doc = sv_doc_new(&t.alloc);
    void *first = sv_doc_alloc(doc, 8);
    sv_value v;
    assert_int_equal(decode_json(doc, text, len, &v), SV_OK);
    sv_doc_reset(doc);
    long calls = t.calls;
    assert_ptr_equal(sv_doc_alloc(doc, 8), first);
    assert_int_equal(decode_json(doc, text, len, &v), SV_OK);
    /* the decoder's scratch stacks and the intern table are its own; the
     * arena took nothing: fewer calls than a decode into a new document */
    long reused_calls = t.calls - calls;
    sv_doc *other = sv_doc_new(&t.alloc);
    calls = t.calls;
    (void)sv_doc_alloc(other, 8);
    assert_int_equal(decode_json(other, text, len, &v), SV_OK);
    long fresh_calls = t.calls - calls;
    assert_true(reused_calls < fresh_calls);
    sv_doc_free(other);
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
    free(text);
}

/* max_alloc counts from zero after a reset: a decode that needs 60% of the
 * cap succeeds every time, though two of them would not fit together. */
static void test_limit_counts_from_zero(void **state)
{
    (void)state;
    size_t len = 0;
    char *text = make_json(3000, &len);
    sv_doc *probe = sv_doc_new(NULL);
    sv_value v;
    assert_int_equal(decode_json(probe, text, len, &v), SV_OK);
    uint64_t need = sv_doc_allocated(probe);
    sv_doc_free(probe);

    sv_doc *doc = sv_doc_new(NULL);
    assert_int_equal(sv_doc_set_max_alloc(doc, need + need * 2 / 3), SV_OK);
    for (int round = 0; round < 4; round++) {
        assert_int_equal(decode_json(doc, text, len, &v), SV_OK);
        sv_doc_reset(doc);
    }
    /* and the cap itself stays: a decode needing more than it still fails */
    assert_int_equal(sv_doc_set_max_alloc(doc, need / 2), SV_OK);
    assert_int_equal(decode_json(doc, text, len, &v), SV_ERR_LIMIT);
    sv_doc_free(doc);
    free(text);
}

/* A document whose decode failed (limit hit, sticky status) is clean after a
 * reset: status OK, root null, and a decode into it succeeds. */
static void test_reset_after_error_is_clean(void **state)
{
    (void)state;
    test_alloc t;
    test_alloc_init(&t, 0);
    size_t len = 0;
    char *text = make_json(3000, &len);
    sv_doc *doc = sv_doc_new(&t.alloc);
    sv_doc_set_max_alloc(doc, 64 * 1024);
    sv_value v;
    assert_int_not_equal(decode_json(doc, text, len, &v), SV_OK);
    /* and the document's own sticky status, which refuses every allocation */
    assert_null(sv_doc_alloc(doc, 1 << 20));
    assert_int_equal(sv_doc_status(doc), SV_ERR_LIMIT);
    assert_null(sv_doc_alloc(doc, 8));
    sv_doc_reset(doc);
    assert_int_equal(sv_doc_status(doc), SV_OK);
    assert_int_equal(sv_kind_of(sv_doc_root(doc)), SV_NULL);
    assert_int_equal(sv_doc_allocated(doc), 0);
    /* small input under the same cap */
    const char small[] = "{\"a\":[1,2,\"three\"]}";
    assert_int_equal(decode_json(doc, small, sizeof small - 1, &v), SV_OK);
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    const sv_value *a = sv_map_getz(&v, "a");
    assert_int_equal(sv_kind_of(a), SV_ARRAY);
    assert_int_equal(sv_len(a), 3);
    assert_string_equal(sv_get_str(sv_array_at(a, 2), NULL), "three");
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
    free(text);
}

/* Interned strings go with the tree: after a reset, interning a string makes
 * a new copy in the reused memory, equal to the text asked for. */
static void test_reset_clears_interned_strings(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value a = sv_str_intern(doc, "alpha", 5);
    assert_int_equal(a.kind, SV_STRING);
    sv_doc_reset(doc);
    /* overwrite the old memory with another string first */
    sv_value b = sv_str(doc, "omega", 5);
    assert_int_equal(b.kind, SV_STRING);
    sv_value c = sv_str_intern(doc, "alpha", 5);
    assert_string_equal(sv_get_str(&c, NULL), "alpha");
    assert_string_equal(sv_get_str(&b, NULL), "omega");
    sv_doc_free(doc);
}

/* The keep setting: 0 frees every chunk on reset, the default keeps at
 * most SV_DEFAULT_RESET_KEEP bytes, chunks beyond are freed. */
static void test_reset_keep_bounds_memory(void **state)
{
    (void)state;
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    int64_t empty = t.live_bytes; /* the document itself */
    /* regular chunks up to 32 MiB: 64 MB in blocks that each fit a chunk */
    for (int i = 0; i < 64 * 1000; i++) assert_non_null(sv_doc_alloc(doc, 1000));
    assert_true(sv_doc_allocated(doc) > 2 * SV_DEFAULT_RESET_KEEP);
    sv_doc_reset(doc);
    assert_true(t.live_bytes - empty <= (int64_t)SV_DEFAULT_RESET_KEEP);
    assert_true(t.live_bytes - empty > 0);
    assert_int_equal(sv_doc_set_reset_keep(doc, 0), SV_OK);
    for (int i = 0; i < 8 * 1000; i++) assert_non_null(sv_doc_alloc(doc, 1000));
    sv_doc_reset(doc);
    assert_int_equal(t.live_bytes, empty);
    assert_int_equal(sv_doc_set_reset_keep(NULL, 0), SV_ERR_USAGE);
    sv_doc_reset(NULL); /* ignored */
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_then_decode_equals_new_doc),
        cmocka_unit_test(test_reset_reuses_chunks),
        cmocka_unit_test(test_limit_counts_from_zero),
        cmocka_unit_test(test_reset_after_error_is_clean),
        cmocka_unit_test(test_reset_clears_interned_strings),
        cmocka_unit_test(test_reset_keep_bounds_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
