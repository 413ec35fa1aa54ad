/* Regressions of the BSON reader found in review, by ASan/UBSan and by the
 * fuzzer. Each input is built here byte by byte, so the expected tree is
 * known from the construction; each test failed (under the ASan+UBSan
 * build) before its fix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helper_resonite.h"
#include "serval/bson.h"
#include "serval/serval.h"

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* {"a": [0, 1, ..., n-1] as int32, "s": "tail"}: n elements make an array
 * container of 24 + 16n bytes, far above the reader's first 4 KiB block. */
static uint8_t *int_array_doc(uint32_t n, size_t *len)
{
    size_t cap = 64 + (size_t)n * 16;
    uint8_t *b = calloc(1, cap), *p = b + 4;
    *p++ = 0x04;
    *p++ = 'a';
    *p++ = 0;
    uint8_t *arr = p;
    p += 4;
    for (uint32_t i = 0; i < n; i++) {
        *p++ = 0x10;
        p += (size_t)sprintf((char *)p, "%u", i) + 1;
        put32(p, i);
        p += 4;
    }
    *p++ = 0;
    put32(arr, (uint32_t)(p - arr));
    *p++ = 0x02;
    *p++ = 's';
    *p++ = 0;
    put32(p, 5);
    memcpy(p + 4, "tail", 5);
    p += 9;
    *p++ = 0;
    put32(b, (uint32_t)(p - b));
    *len = (size_t)(p - b);
    return b;
}

static void check_int_array(const sv_value *root, uint32_t n)
{
    const sv_value *a = sv_map_getz(root, "a"), *s = sv_map_getz(root, "s");
    assert_non_null(a);
    assert_non_null(s);
    assert_int_equal(sv_kind_of(a), SV_ARRAY);
    assert_int_equal(sv_len(a), n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(sv_get_int(sv_array_at(a, i)), i);
    assert_string_equal(sv_get_str(s, NULL), "tail");
}

/* Found under ASan: a container larger than the current bump block but
 * at most BUMP_MAX/4 got a block of the old size and overran it
 * (sv__br_bump_slow). */
static void test_array_bigger_than_first_block(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {200, 1000, 3000, 4000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t len;
        uint8_t *b = int_array_doc(sizes[k], &len);
        uint8_t *in = rs_copy(b, len);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        sv_status st = sv_bson_decode(doc, in, len, NULL, &v, &err);
        if (st != SV_OK) fail_msg("%u elements: %s", sizes[k], err.message);
        check_int_array(&v, sizes[k]);
        sv_doc_free(doc);
        free(in);
        free(b);
    }
}

#if SERVAL_WITH_RESONITE
/* The same through the .brson path (sv__resonite_rs_brotli_tree, where it was first
 * seen): the BSON wrapped as a legacy Brotli payload, decoded with and
 * without the decompression thread. */
static void test_array_bigger_than_first_block_brson(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = int_array_doc(1000, &len);
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    sv_buf file;
    sv_buf_init(&file, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_resonite_wrap(b, len, &c, NULL, &file, &err), SV_OK);
    for (int threads = 0; threads <= 1; threads++) {
        sv_resonite_opts o;
        sv_resonite_opts_init(&o);
        o.threads = threads;
        o.raw_strings = true;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error_clear(&err);
        sv_status st = sv_resonite_decode(doc, file.data, file.len, &o, &v, &err);
        if (st != SV_OK) fail_msg("threads=%d: %s", threads, err.message);
        check_int_array(&v, 1000);
        sv_doc_free(doc);
    }
    sv_buf_free(&file);
    free(b);
}

#endif

/* fuzz/regressions/bson/ubsan-bson_read-772.bson: an empty document and an
 * empty array before any other element, so the scratch stacks were still
 * NULL when the empty containers were made (UBSan: "applying zero offset
 * to null pointer"). */
static void test_empty_containers_first(void **state)
{
    (void)state;
    /* clang-format off */
    static const uint8_t doc_bytes[] = {
        0x19, 0, 0, 0,                         /* 25 bytes */
        0x03, 'e', 0, 0x05, 0, 0, 0, 0,        /* "e": {} */
        0x04, 'e', 'a', 0, 0x05, 0, 0, 0, 0,   /* "ea": [] */
        0x0A, 'n', 0,                          /* "n": null (no bytes) */
        0};
    /* clang-format on */
    uint8_t *in = rs_copy(doc_bytes, sizeof doc_bytes);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_bson_decode(doc, in, sizeof doc_bytes, NULL, &v, &err);
    if (st != SV_OK) fail_msg("%s", err.message);
    assert_int_equal(sv_len(&v), 3);
    assert_int_equal(sv_kind_of(sv_map_getz(&v, "e")), SV_MAP);
    assert_int_equal(sv_len(sv_map_getz(&v, "e")), 0);
    assert_int_equal(sv_kind_of(sv_map_getz(&v, "ea")), SV_ARRAY);
    assert_int_equal(sv_len(sv_map_getz(&v, "ea")), 0);
    assert_int_equal(sv_kind_of(sv_map_getz(&v, "n")), SV_NULL);
    sv_doc_free(doc);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array_bigger_than_first_block),
#if SERVAL_WITH_RESONITE
        cmocka_unit_test(test_array_bigger_than_first_block_brson),
#endif
        cmocka_unit_test(test_empty_containers_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
