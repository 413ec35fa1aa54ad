/* BSON and .brson written through a sink (serval/buf.h) without holding the
 * whole output: the BSON writer sizes every document first and streams the
 * rest (bson_measure.c), and a Brotli .brson compresses each window the
 * BSON writer hands over (brotli_sink.c). The bytes must be those of the
 * writer holding everything (itself checked against the engines' files by
 * test_bson, test_resonite and test_lossless), and the memory a window's,
 * not the output's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/bson.h"
#include "serval/resonite.h"
#include "serval/serval.h"

/* A sink that keeps what it is handed (growing), and fails from call
 * fail_at on (0: never) with SV_ERR_IO, as a full disk does. */
typedef struct collector {
    uint8_t *bytes;
    size_t len, cap;
    unsigned calls, fail_at;
    size_t largest;
} collector;

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    collector *c = ctx;
    c->calls++;
    if (c->fail_at && c->calls >= c->fail_at) return SV_ERR_IO;
    if (c->len + len > c->cap) {
        c->cap = (c->len + len) * 2;
        c->bytes = realloc(c->bytes, c->cap);
        assert_non_null(c->bytes);
    }
    memcpy(c->bytes + c->len, data, len);
    c->len += len;
    if (len > c->largest) c->largest = len;
    return SV_OK;
}

static void add(sv_doc *doc, sv_value *map, const char *key, sv_value v)
{
    assert_int_equal(sv_map_append_str(doc, map, key, v), SV_OK);
}

/* {"ID": "<guid-like>", "Data": data}: the shape of most of a Resonite tree. */
static sv_value member(sv_doc *doc, unsigned k, sv_value data)
{
    char id[40];
    snprintf(id, sizeof id, "%08x-1111-2222-3333-%012x", k * 2654435761u, k);
    sv_value m = sv_map(doc, 0);
    add(doc, &m, "ID", sv_strz(doc, id));
    add(doc, &m, "Data", data);
    return m;
}

/* A Resonite-shaped tree of n slots, about 330 bytes of BSON each: strings,
 * a "@" string (escaped with the URL convention), int32, int64, doubles
 * whole and not, bools, null, nested documents and arrays, a packed array
 * (written as a BSON array of doubles), and binary bytes. */
static sv_value slots_tree(sv_doc *doc, unsigned n)
{
    sv_value children = sv_array(doc, 0);
    for (unsigned k = 0; k < n; k++) {
        char name[32];
        snprintf(name, sizeof name, "Slot %u", k);
        sv_value slot = sv_map(doc, 0);
        add(doc, &slot, "Name", member(doc, k, sv_strz(doc, name)));
        add(doc, &slot, "Tag", member(doc, k + 1, k % 3 ? sv_null() : sv_strz(doc, "@tag")));
        add(doc, &slot, "Active", member(doc, k + 2, sv_bool(k % 2)));
        add(doc, &slot, "Order", member(doc, k + 3, sv_int((int64_t)k << 33)));
        add(doc, &slot, "Layer", member(doc, k + 4, sv_int_w((int32_t)k - 7, 4)));
        double xyz[3] = {k * 0.5, -1.0, k / 3.0};
        add(doc, &slot, "Position",
            member(doc, k + 5, sv_packed(doc, SV_ELEM_F64, SV_TAG_NONE, xyz, 3)));
        add(doc, &slot, "Scale", member(doc, k + 6, sv_f64(k * 0.25)));
        uint8_t blob[5] = {1, 2, 3, (uint8_t)k, 0};
        add(doc, &slot, "Blob", sv_bytes(doc, blob, sizeof blob));
        sv_value comps = sv_array(doc, 0);
        for (unsigned c = 0; c < k % 4; c++)
            assert_int_equal(sv_array_append(doc, &comps, member(doc, c, sv_int_w(c, 4))), SV_OK);
        add(doc, &slot, "Components", comps);
        assert_int_equal(sv_array_append(doc, &children, slot), SV_OK);
    }
    sv_value root = sv_map(doc, 0);
    add(doc, &root, "VersionNumber", sv_strz(doc, "2025.6.17.855"));
    sv_value object = member(doc, 7, sv_strz(doc, "Root"));
    add(doc, &object, "Children", children);
    add(doc, &root, "Object", object);
    assert_int_equal(sv_doc_status(doc), SV_OK);
    return root;
}

static sv_bson_opts urls_opts(void)
{
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = true;
    return o;
}

/* The BSON written whole (no sink). */
static void bson_whole(const sv_value *root, sv_buf *out)
{
    sv_bson_opts o = urls_opts();
    sv_error err;
    sv_buf_init(out, NULL);
    assert_int_equal(sv_bson_encode(root, &o, out, &err), SV_OK);
}

static void test_bson_streams_through_a_small_window(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = slots_tree(doc, 600);
    sv_buf whole;
    bson_whole(&root, &whole);
    assert_true(whole.len > 150000);

    sv_bson_opts o = urls_opts();
    sv_error err;
    sv_buf b;
    sv_buf_init(&b, NULL);
    collector col = {0};
    sv_buf_set_sink(&b, collect, &col, 256);
    assert_int_equal(sv_bson_encode(&root, &o, &b, &err), SV_OK);
    assert_int_equal(sv_buf_flush(&b), SV_OK);
    assert_int_equal(col.len, whole.len);
    assert_memory_equal(col.bytes, whole.data, whole.len);
    /* it streamed: a window and one element at a time, never the whole */
    assert_true(col.calls > whole.len / 1024);
    assert_true(col.largest < 1024);
    assert_true(b.cap <= 8192);
    /* and it reads back as the same tree writes */
    sv_value back;
    assert_int_equal(sv_bson_decode(doc, col.bytes, col.len, &o, &back, &err), SV_OK);

    free(col.bytes);
    sv_buf_free(&b);
    sv_buf_free(&whole);
    sv_doc_free(doc);
}

/* Every length the sizing pass records is the one the writer makes, for
 * documents of every size around the window (the lengths of the smallest
 * ones are written before a single byte of them is released). */
static void test_bson_stream_sizes_every_document(void **state)
{
    (void)state;
    for (unsigned n = 0; n < 40; n += 3) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root = slots_tree(doc, n);
        sv_buf whole;
        bson_whole(&root, &whole);
        for (size_t window = 1; window <= 4096; window *= 4) {
            sv_bson_opts o = urls_opts();
            sv_error err;
            sv_buf b;
            sv_buf_init(&b, NULL);
            collector col = {0};
            sv_buf_set_sink(&b, collect, &col, window);
            assert_int_equal(sv_bson_encode(&root, &o, &b, &err), SV_OK);
            assert_int_equal(sv_buf_flush(&b), SV_OK);
            assert_int_equal(col.len, whole.len);
            assert_memory_equal(col.bytes, whole.data, whole.len);
            free(col.bytes);
            sv_buf_free(&b);
        }
        sv_buf_free(&whole);
        sv_doc_free(doc);
    }
}

/* A sink that fails stops the writer with its error, and an error in the
 * tree (a key with a NUL) is reported as without a sink. */
static void test_bson_stream_errors(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = slots_tree(doc, 200);
    sv_bson_opts o = urls_opts();
    sv_error err;
    sv_error_clear(&err);
    sv_buf b;
    sv_buf_init(&b, NULL);
    collector col = {0};
    col.fail_at = 3;
    sv_buf_set_sink(&b, collect, &col, 64);
    assert_int_equal(sv_bson_encode(&root, &o, &b, &err), SV_ERR_IO);
    assert_int_equal(err.status, SV_ERR_IO);
    assert_int_equal(col.calls, 3);
    free(col.bytes);
    sv_buf_free(&b);

    sv_value bad = sv_map(doc, 0);
    assert_int_equal(sv_map_append(doc, &bad, sv_str(doc, "a\0b", 3), sv_int(1)), SV_OK);
    add(doc, &root, "Bad", bad);
    sv_buf_init(&b, NULL);
    memset(&col, 0, sizeof col);
    sv_buf_set_sink(&b, collect, &col, 64);
    sv_error_clear(&err);
    assert_int_equal(sv_bson_encode(&root, &o, &b, &err), SV_ERR_TYPE);
    assert_non_null(strstr(err.message, "NUL"));
    assert_memory_equal(err.path, "/Bad/", 5);
    free(col.bytes);
    sv_buf_free(&b);
    sv_doc_free(doc);
}

/* The .brson of a tree written whole: the BSON, then the container. */
static void brson_whole(const sv_value *root, int quality, int window, sv_buf *out)
{
    sv_bson_opts o = urls_opts();
    o.format = "resonite";
    sv_error err;
    sv_buf bson;
    sv_buf_init(&bson, NULL);
    assert_int_equal(sv_bson_encode(root, &o, &bson, &err), SV_OK);
    sv_resonite_opts ro;
    sv_resonite_opts_init(&ro);
    ro.brotli_quality = quality;
    ro.brotli_window = window;
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    sv_buf_init(out, NULL);
    assert_int_equal(sv_resonite_wrap(bson.data, bson.len, &c, &ro, out, &err), SV_OK);
    sv_buf_free(&bson);
}

/* Brotli fed window by window gives the bytes of one call over the whole
 * BSON, at the qualities that stream (2 to 11) and several window bits, the
 * output buffer with or without a sink of its own. */
static void test_brson_streamed_bytes_are_the_whole_ones(void **state)
{
    (void)state;
    static const struct {
        unsigned slots;
        int quality, window;
    } cases[] = {{4000, 2, 16}, {4000, 5, 16}, {4000, 9, 16}, {4000, 9, 22},
                 {4000, 4, 10}, {300, 10, 16}, {300, 11, 18}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root = slots_tree(doc, cases[i].slots);
        sv_buf whole;
        brson_whole(&root, cases[i].quality, cases[i].window, &whole);
        for (size_t out_window = 0; out_window <= 4096; out_window += 4096) {
            sv_resonite_opts ro;
            sv_resonite_opts_init(&ro);
            ro.brotli_quality = cases[i].quality;
            ro.brotli_window = cases[i].window;
            sv_error err;
            sv_buf b;
            sv_buf_init(&b, NULL);
            collector col = {0};
            if (out_window) sv_buf_set_sink(&b, collect, &col, out_window);
            assert_int_equal(sv_resonite_encode(&root, &ro, &b, &err), SV_OK);
            if (out_window) {
                assert_int_equal(sv_buf_flush(&b), SV_OK);
                assert_int_equal(col.len, whole.len);
                assert_memory_equal(col.bytes, whole.data, whole.len);
            } else {
                assert_int_equal(b.len, whole.len);
                assert_memory_equal(b.data, whole.data, whole.len);
            }
            free(col.bytes);
            sv_buf_free(&b);
        }
        sv_buf_free(&whole);
        sv_doc_free(doc);
    }
}

/* Writing a .brson through a sink holds a window of BSON, not all of it:
 * the peak of everything allocated stays far below the BSON's size. */
static void test_brson_stream_memory(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = slots_tree(doc, 15000); /* about 10 MB of BSON */
    sv_buf whole;
    bson_whole(&root, &whole);
    size_t bson_len = whole.len;
    sv_buf_free(&whole);
    assert_true(bson_len > 8000000);

    test_alloc t;
    test_alloc_init(&t, 0);
    sv_resonite_opts ro;
    sv_resonite_opts_init(&ro);
    ro.brotli_quality = 2; /* quick; the window logic is every quality's */
    sv_error err;
    sv_buf b;
    sv_buf_init(&b, &t.alloc);
    collector col = {0};
    sv_buf_set_sink(&b, collect, &col, 0);
    assert_int_equal(sv_resonite_encode(&root, &ro, &b, &err), SV_OK);
    assert_int_equal(sv_buf_flush(&b), SV_OK);
    print_message("BSON %zu bytes, .brson %zu, peak %lld bytes allocated\n", bson_len, col.len,
                  (long long)t.peak_bytes);
    assert_true(t.peak_bytes < (int64_t)bson_len / 2);
    sv_buf_free(&b);
    assert_int_equal(t.live_bytes, 0);

    /* it reads back as the tree */
    sv_doc *back = sv_doc_new(NULL);
    sv_value v;
    assert_int_equal(sv_resonite_decode(back, col.bytes, col.len, NULL, &v, &err), SV_OK);
    sv_buf again;
    sv_buf_init(&again, NULL);
    sv_resonite_opts_init(&ro);
    ro.brotli_quality = 2;
    assert_int_equal(sv_resonite_encode(&v, &ro, &again, &err), SV_OK);
    assert_int_equal(again.len, col.len);
    assert_memory_equal(again.data, col.bytes, col.len);
    sv_buf_free(&again);
    sv_doc_free(back);
    free(col.bytes);
    sv_doc_free(doc);
}

/* Every allocation of a streamed .brson write refused in turn: an error,
 * never a crash, and nothing leaked. */
static void test_brson_stream_out_of_memory(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = slots_tree(doc, 50);
    for (long fail = 1; fail < 200; fail++) {
        test_alloc t;
        test_alloc_init(&t, fail);
        sv_resonite_opts ro;
        sv_resonite_opts_init(&ro);
        sv_error err;
        sv_error_clear(&err);
        sv_buf b;
        sv_buf_init(&b, &t.alloc);
        collector col = {0};
        sv_buf_set_sink(&b, collect, &col, 64);
        sv_status st = sv_resonite_encode(&root, &ro, &b, &err);
        if (st == SV_OK) st = sv_buf_flush(&b);
        assert_true(st == SV_OK || st == SV_ERR_NOMEM);
        sv_buf_free(&b);
        free(col.bytes);
        assert_int_equal(t.live_bytes, 0);
        if (st == SV_OK && t.failures == 0) break;
    }
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bson_streams_through_a_small_window),
        cmocka_unit_test(test_bson_stream_sizes_every_document),
        cmocka_unit_test(test_bson_stream_errors),
        cmocka_unit_test(test_brson_streamed_bytes_are_the_whole_ones),
        cmocka_unit_test(test_brson_stream_memory),
        cmocka_unit_test(test_brson_stream_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
