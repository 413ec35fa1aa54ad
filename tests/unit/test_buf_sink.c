/* sv_buf's sink (serval/buf.h): what release flushes and when, the bytes the
 * sink sees (in order, none twice, none lost), a sink that fails (a full
 * disk), and the JSON writer streaming through a window far smaller than
 * its output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

/* A sink that keeps what it is handed, and fails from call fail_at on
 * (0: never) with SV_ERR_IO, as a write to a full disk does. */
typedef struct collector {
    uint8_t bytes[1 << 16];
    size_t len;
    unsigned calls, fail_at;
    size_t largest; /* the most bytes one call was handed */
} collector;

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    collector *c = ctx;
    c->calls++;
    if (c->fail_at && c->calls >= c->fail_at) return SV_ERR_IO;
    assert_true(len > 0);
    assert_true(c->len + len <= sizeof c->bytes);
    memcpy(c->bytes + c->len, data, len);
    c->len += len;
    if (len > c->largest) c->largest = len;
    return SV_OK;
}

static collector col;

static void test_no_sink_holds_everything(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_buf_append(&b, "hello", 5), SV_OK);
    sv_buf_release(&b);
    assert_int_equal(sv_buf_flush(&b), SV_OK);
    assert_int_equal(b.len, 5);
    assert_memory_equal(b.data, "hello", 5);
    assert_int_equal(sv_buf_pos(&b), 5);
    sv_buf_free(&b);

    /* a buffer over fixed room, set up without sv_buf_init (as the zip
     * writer patches a header): the sink's fields are zero, so no sink */
    uint8_t room[8];
    sv_buf fixed = {.data = room, .cap = sizeof room};
    assert_int_equal(sv_buf_append(&fixed, "abc", 3), SV_OK);
    sv_buf_release(&fixed);
    assert_int_equal(fixed.len, 3);
    assert_int_equal(sv_buf_status(&fixed), SV_OK);
}

static void test_release_flushes_a_full_window(void **state)
{
    (void)state;
    memset(&col, 0, sizeof col);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_set_sink(&b, collect, &col, 8);
    assert_int_equal(sv_buf_append(&b, "01234", 5), SV_OK);
    sv_buf_release(&b); /* 5 < 8: kept */
    assert_int_equal(col.calls, 0);
    assert_int_equal(b.len, 5);
    assert_int_equal(sv_buf_append(&b, "56789", 5), SV_OK);
    sv_buf_release(&b); /* 10 >= 8: all ten go */
    assert_int_equal(col.calls, 1);
    assert_int_equal(col.len, 10);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.flushed, 10);
    assert_int_equal(sv_buf_pos(&b), 10);
    /* bytes not released stay, however many: an encoder may still patch them */
    for (int i = 0; i < 26; i++) assert_int_equal(sv_buf_putc(&b, (uint8_t)('a' + i)), SV_OK);
    assert_int_equal(col.calls, 1);
    b.data[0] = 'A'; /* a patch of the first byte held */
    assert_int_equal(sv_buf_pos(&b), 36);
    assert_int_equal(sv_buf_flush(&b), SV_OK);
    assert_int_equal(col.calls, 2);
    assert_int_equal(b.len, 0);
    assert_int_equal(col.len, 36);
    assert_memory_equal(col.bytes, "0123456789Abcdefghijklmnopqrstuvwxyz", 36);
    /* an empty buffer: nothing to hand over */
    assert_int_equal(sv_buf_flush(&b), SV_OK);
    assert_int_equal(col.calls, 2);
    sv_buf_free(&b);
}

static void test_default_window(void **state)
{
    (void)state;
    memset(&col, 0, sizeof col);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_set_sink(&b, collect, &col, 0);
    assert_int_equal(b.window, (size_t)1 << 20);
    assert_int_equal(sv_buf_append(&b, "x", 1), SV_OK);
    sv_buf_release(&b);
    assert_int_equal(col.calls, 0);
    sv_buf_free(&b);
}

static void test_failing_sink_is_sticky(void **state)
{
    (void)state;
    memset(&col, 0, sizeof col);
    col.fail_at = 2;
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_set_sink(&b, collect, &col, 4);
    assert_int_equal(sv_buf_append(&b, "abcd", 4), SV_OK);
    sv_buf_release(&b);
    assert_int_equal(col.len, 4);
    assert_int_equal(sv_buf_append(&b, "efgh", 4), SV_OK);
    sv_buf_release(&b); /* the second call fails: the disk is full */
    assert_int_equal(col.calls, 2);
    assert_false(sv_buf_ok(&b));
    assert_int_equal(sv_buf_status(&b), SV_ERR_IO);
    /* nothing more is taken, and nothing more reaches the sink */
    assert_int_equal(sv_buf_append(&b, "ijkl", 4), SV_ERR_NOMEM);
    assert_int_equal(sv_buf_flush(&b), SV_ERR_IO);
    assert_int_equal(col.calls, 2);
    assert_int_equal(col.len, 4);
    assert_int_equal(sv_buf_pos(&b), 8);
    sv_buf_free(&b);
}

/* An array of n objects {"$class": "P", "i": k, "name": "item k"} as
 * typed JSON, written with indent through a window of `window` bytes
 * (0: no sink). */
static sv_status write_objects(sv_doc *doc, unsigned n, int indent, size_t window, sv_buf *out,
                               sv_error *err)
{
    sv_value arr = sv_array(doc, 0);
    for (unsigned k = 0; k < n; k++) {
        char name[32];
        snprintf(name, sizeof name, "item %u", k);
        sv_value obj = sv_object(doc, sv_strz(doc, "P"), 0);
        if (sv_map_append_str(doc, &obj, "i", sv_int((int64_t)k)) != SV_OK ||
            sv_map_append_str(doc, &obj, "name", sv_strz(doc, name)) != SV_OK ||
            sv_array_append(doc, &arr, obj) != SV_OK)
            return SV_ERR_NOMEM;
    }
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.indent = indent;
    if (window) sv_buf_set_sink(out, collect, &col, window);
    sv_status st = sv_json_encode(&arr, &o, out, err);
    if (st == SV_OK && window) st = sv_buf_flush(out);
    return st;
}

static void test_json_streams_through_a_small_window(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_buf whole, streamed;
    sv_buf_init(&whole, NULL);
    sv_buf_init(&streamed, NULL);
    memset(&col, 0, sizeof col);
    /* three objects by hand: the writer's typed JSON, compact */
    sv_status st = write_objects(doc, 3, 0, 16, &streamed, &err);
    if (st) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
    }
    assert_int_equal(st, SV_OK);
    static const char three[] = "[{\"$class\":\"P\",\"i\":0,\"name\":\"item 0\"},"
                                "{\"$class\":\"P\",\"i\":1,\"name\":\"item 1\"},"
                                "{\"$class\":\"P\",\"i\":2,\"name\":\"item 2\"}]";
    assert_int_equal(col.len, strlen(three));
    assert_memory_equal(col.bytes, three, strlen(three));
    assert_true(col.calls >= 2); /* it did stream */

    /* 1000 objects, pretty: the same bytes as written whole, handed over in
     * pieces of about the window */
    memset(&col, 0, sizeof col);
    sv_buf_free(&streamed);
    sv_buf_init(&streamed, NULL);
    assert_int_equal(write_objects(doc, 1000, 2, 0, &whole, &err), SV_OK);
    assert_int_equal(write_objects(doc, 1000, 2, 256, &streamed, &err), SV_OK);
    assert_int_equal(col.len, whole.len);
    assert_memory_equal(col.bytes, whole.data, whole.len);
    assert_true(col.calls > whole.len / 512);
    assert_true(col.largest < 512); /* a window and one object at most */
    assert_true(streamed.cap < 4096 * 2);
    sv_buf_free(&whole);
    sv_buf_free(&streamed);
    sv_doc_free(doc);
}

/* An array of small arrays ([k,0.5], which the writer writes inline when it
 * holds the whole output) through a small window: still handed over a
 * window at a time, as each container starts. */
static void test_json_small_arrays_through_a_small_window(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    for (unsigned k = 0; k < 2000; k++) {
        sv_value item = sv_array(doc, 0);
        assert_int_equal(sv_array_append(doc, &item, sv_int((int64_t)(k % 10))), SV_OK);
        assert_int_equal(sv_array_append(doc, &item, sv_f64(0.5)), SV_OK);
        assert_int_equal(sv_array_append(doc, &arr, item), SV_OK);
    }
    sv_error err;
    sv_buf whole, streamed;
    sv_buf_init(&whole, NULL);
    sv_buf_init(&streamed, NULL);
    assert_int_equal(sv_json_encode(&arr, NULL, &whole, &err), SV_OK);
    assert_int_equal(whole.len, 2000 * 8 + 1); /* "[" then "[k,0.5]," 2000 times, the last ']' */
    memset(&col, 0, sizeof col);
    sv_buf_set_sink(&streamed, collect, &col, 256);
    assert_int_equal(sv_json_encode(&arr, NULL, &streamed, &err), SV_OK);
    assert_int_equal(sv_buf_flush(&streamed), SV_OK);
    assert_int_equal(col.len, whole.len);
    assert_memory_equal(col.bytes, whole.data, whole.len);
    assert_true(col.largest < 512); /* a window and one item at most */
    sv_buf_free(&whole);
    sv_buf_free(&streamed);
    sv_doc_free(doc);
}

/* Outputs many times longer than the distance the array loop asks for the
 * output ahead (8 KiB), after a prefix of every length 0..63 (every
 * alignment of the cursor to a cache line), into a buffer that grows from
 * empty (the output moves) and into the same buffer kept (len = 0): the
 * text is the one worked out by hand for each object. */
static void test_json_long_outputs_at_every_alignment(void **state)
{
    (void)state;
    enum { N = 6000 };
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    sv_buf want, kept;
    sv_buf_init(&want, NULL);
    sv_buf_init(&kept, NULL);
    assert_int_equal(sv_buf_append(&want, "[", 1), SV_OK);
    for (unsigned k = 0; k < N; k++) {
        char name[32], one[96];
        snprintf(name, sizeof name, "item %u", k);
        sv_value obj = sv_object(doc, sv_strz(doc, "P"), 0);
        assert_int_equal(sv_map_append_str(doc, &obj, "i", sv_int((int64_t)k)), SV_OK);
        assert_int_equal(sv_map_append_str(doc, &obj, "name", sv_strz(doc, name)), SV_OK);
        assert_int_equal(sv_array_append(doc, &arr, obj), SV_OK);
        int m = snprintf(one, sizeof one, "%s{\"$class\":\"P\",\"i\":%u,\"name\":\"item %u\"}",
                         k ? "," : "", k, k);
        assert_int_equal(sv_buf_append(&want, one, (size_t)m), SV_OK);
    }
    assert_int_equal(sv_buf_append(&want, "]", 1), SV_OK);
    assert_true(want.len > 30 * 8192);
    static const char prefix[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    sv_error err;
    for (size_t pre = 0; pre < 64; pre++) {
        sv_buf grown;
        sv_buf_init(&grown, NULL);
        assert_int_equal(sv_buf_append(&grown, prefix, pre), SV_OK);
        assert_int_equal(sv_json_encode(&arr, NULL, &grown, &err), SV_OK);
        assert_int_equal(grown.len, pre + want.len);
        assert_memory_equal(grown.data, prefix, pre);
        assert_memory_equal(grown.data + pre, want.data, want.len);
        sv_buf_free(&grown);

        kept.len = 0;
        assert_int_equal(sv_buf_append(&kept, prefix, pre), SV_OK);
        assert_int_equal(sv_json_encode(&arr, NULL, &kept, &err), SV_OK);
        assert_int_equal(kept.len, pre + want.len);
        assert_memory_equal(kept.data + pre, want.data, want.len);
    }
    sv_buf_free(&want);
    sv_buf_free(&kept);
    sv_doc_free(doc);
}

static void test_json_stops_at_a_failing_sink(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_buf out;
    sv_buf_init(&out, NULL);
    memset(&col, 0, sizeof col);
    col.fail_at = 3;
    assert_int_equal(write_objects(doc, 200, 0, 64, &out, &err), SV_ERR_IO);
    assert_int_equal(err.status, SV_ERR_IO);
    char msg[512];
    sv_error_format(&err, msg, sizeof msg);
    assert_non_null(strstr(msg, "the output could not be written"));
    assert_int_equal(col.calls, 3); /* it stopped at the failure */
    sv_buf_free(&out);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_sink_holds_everything),
        cmocka_unit_test(test_release_flushes_a_full_window),
        cmocka_unit_test(test_default_window),
        cmocka_unit_test(test_failing_sink_is_sticky),
        cmocka_unit_test(test_json_streams_through_a_small_window),
        cmocka_unit_test(test_json_small_arrays_through_a_small_window),
        cmocka_unit_test(test_json_long_outputs_at_every_alignment),
        cmocka_unit_test(test_json_stops_at_a_failing_sink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
