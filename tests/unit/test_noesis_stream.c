/* NSDH: what the decoder and the encoder hold.
 *
 *   - Encoding into a buffer with a sink (sv_buf_set_sink) streams: the
 *     sizes are found first, so the buffer holds about a window, not the
 *     file, and the bytes are the file's.
 *   - A chunk kept as bytes (raw) streams too; a sink's error is reported
 *     as that error.
 *   - A streamed encode checks every field before a byte reaches the sink.
 *   - An object of the wrong class is refused with its path.
 *   - The decoder's scratch grows with the fields open at once, not with
 *     the command stream: a long stream that makes no values decodes under
 *     a memory limit a little above the stream's size.
 *
 * The files are built here, byte by byte, from the layout of
 * docs/formats/noesis.md (B.3, B.4). */
#include "test_noesis_util.h"

static void put_le(sv_buf *b, uint64_t v, int w)
{
    for (int k = 0; k < w; k++) sv_buf_putc(b, (uint8_t)(v >> (8 * k)));
}

static void put_block(sv_buf *b, const sv_buf *block)
{
    put_le(b, block->len, 8);
    sv_buf_append(b, block->data, block->len);
}

/* A little-endian version 4 file of one chunk: class "A" (component 0,
 * version 1), the metadata strings "Text" (offset 0) and "Value" (offset 5),
 * the commands and data given, count instances of component 0. */
static sv_buf nsdh_file(const sv_buf *cmds, const sv_buf *data, uint32_t count)
{
    sv_buf strings, comps, md_strings, inst, chunk, file;
    sv_buf_init(&strings, NULL);
    sv_buf_init(&comps, NULL);
    sv_buf_init(&md_strings, NULL);
    sv_buf_init(&inst, NULL);
    sv_buf_init(&chunk, NULL);
    sv_buf_init(&file, NULL);
    sv_buf_append(&strings, "A", 2);
    put_le(&comps, 0, 4);
    put_le(&comps, 1, 4);
    sv_buf_append(&md_strings, "Text\0Value", 11);
    for (uint32_t i = 0; i < count; i++) put_le(&inst, 0, 4);
    put_block(&chunk, &strings);
    put_block(&chunk, &comps);
    put_le(&chunk, 16 + md_strings.len + cmds->len, 8); /* metadata: 16 + both blocks */
    put_block(&chunk, &md_strings);
    put_block(&chunk, cmds);
    put_block(&chunk, &inst);
    put_block(&chunk, data);
    sv_buf_append(&file, "HDSN", 4);
    put_le(&file, 4, 2); /* version */
    put_le(&file, 0, 2); /* 8-bit strings */
    put_le(&file, 1, 4); /* one chunk */
    put_block(&file, &chunk);
    assert_true(sv_buf_ok(&file));
    sv_buf_free(&strings);
    sv_buf_free(&comps);
    sv_buf_free(&md_strings);
    sv_buf_free(&inst);
    sv_buf_free(&chunk);
    return file;
}

/* count instances, each BeginInstance, String8 "Text" ("item N"), UInt32
 * "Value" (N * 7), EndInstance. */
static sv_buf items_file(uint32_t count)
{
    sv_buf cmds, data;
    sv_buf_init(&cmds, NULL);
    sv_buf_init(&data, NULL);
    for (uint32_t i = 0; i < count; i++) {
        sv_buf_putc(&cmds, 0x00);
        sv_buf_putc(&cmds, 0x14); /* String8, desc 0 ("Text") */
        put_le(&cmds, 0, 4);
        sv_buf_putc(&cmds, 0x0D); /* UInt32, desc 5 ("Value") */
        put_le(&cmds, 5, 4);
        sv_buf_putc(&cmds, 0x01);
        char text[32];
        int n = snprintf(text, sizeof text, "item %u", i);
        put_le(&data, (uint64_t)n, 4);
        sv_buf_append(&data, text, (size_t)n);
        put_le(&data, (uint64_t)i * 7, 4);
    }
    sv_buf file = nsdh_file(&cmds, &data, count);
    sv_buf_free(&cmds);
    sv_buf_free(&data);
    return file;
}

/* What a sink was handed: every byte, the number of calls, the largest. */
typedef struct collected {
    sv_buf bytes;
    size_t calls, largest;
} collected;

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    collected *c = ctx;
    c->calls++;
    if (len > c->largest) c->largest = len;
    return sv_buf_append(&c->bytes, data, len);
}

/* Encodes root through a sink of the given window; the encoder's status. */
static sv_status encode_streamed(const sv_value *root, size_t window, collected *c, sv_error *err)
{
    memset(c, 0, sizeof *c);
    sv_buf_init(&c->bytes, NULL);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_buf_set_sink(&out, collect, c, window);
    sv_error_clear(err);
    sv_status st = sv_noesis_encode(root, NULL, &out, err);
    if (st == SV_OK) st = sv_buf_flush(&out);
    sv_buf_free(&out);
    return st;
}

/* 3000 instances (a file of about 70 KB) through a 256-byte window: the
 * same bytes, handed over in pieces no larger than the window and the
 * largest thing written between two releases (an instance, a piece of the
 * command stream: well under 1 KB here), never the whole file. */
static void test_encode_streams_through_a_window(void **state)
{
    (void)state;
    sv_buf file = items_file(3000);
    assert_true(file.len > 60000);
    sv_value root;
    sv_doc *doc = nt_decode(file.data, file.len, &root);
    collected c;
    sv_error err;
    if (encode_streamed(&root, 256, &c, &err) != SV_OK) nt_fail_with(&err);
    nt_assert_same_bytes(file.data, file.len, &c.bytes);
    if (c.largest > 1024)
        fail_msg("the sink was handed %zu bytes at once (window 256): the output was held",
                 c.largest);
    assert_true(c.calls >= file.len / 1024);
    sv_buf_free(&c.bytes);
    sv_doc_free(doc);
    sv_buf_free(&file);
}

/* The same file read with raw (its data section kept as bytes, 40 KB):
 * the bytes are handed over a window at a time too. */
static void test_raw_data_streams(void **state)
{
    (void)state;
    sv_buf file = items_file(3000);
    sv_noesis_opts o;
    sv_noesis_opts_init(&o);
    o.raw = true;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_decode(doc, file.data, file.len, &o, &root, &err) != SV_OK) nt_fail_with(&err);
    assert_true(sv_len(nt_get(nt_at(nt_get(&root, "chunks"), 0), "data")) > 30000);
    collected c;
    if (encode_streamed(&root, 256, &c, &err) != SV_OK) nt_fail_with(&err);
    nt_assert_same_bytes(file.data, file.len, &c.bytes);
    if (c.largest > 1024) fail_msg("the sink was handed %zu bytes at once (window 256)", c.largest);
    sv_buf_free(&c.bytes);
    sv_doc_free(doc);
    sv_buf_free(&file);
}

/* A sink that fails (a full disk) ends the encode with the sink's status,
 * not "out of memory". */
static sv_status full_disk(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return SV_ERR_IO;
}

static void test_sink_error_is_reported(void **state)
{
    (void)state;
    sv_buf file = items_file(3000);
    sv_value root;
    sv_doc *doc = nt_decode(file.data, file.len, &root);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_buf_set_sink(&out, full_disk, NULL, 256);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, NULL, &out, &err), SV_ERR_IO);
    sv_buf_free(&out);
    sv_doc_free(doc);
    sv_buf_free(&file);
}

/* A field of the last instance that cannot be written: the streamed encode
 * fails with its path before the sink is handed a byte (the sizing pass
 * runs every command first). */
static void test_streamed_encode_checks_first(void **state)
{
    (void)state;
    sv_buf file = items_file(500);
    sv_value root;
    sv_doc *doc = nt_decode(file.data, file.len, &root);
    sv_value *objects = nt_get(nt_at(nt_get(&root, "chunks"), 0), "objects");
    sv_value *value = nt_get(nt_at(objects, 499), "Value");
    *value = sv_strz(doc, "not a number");
    collected c;
    sv_error err;
    assert_int_equal(encode_streamed(&root, 256, &c, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/499/Value");
    assert_int_equal(c.calls, 0);
    assert_int_equal(c.bytes.len, 0);
    sv_buf_free(&c.bytes);
    sv_doc_free(doc);
    sv_buf_free(&file);
}

/* An object whose class is not its component's is refused, with its path,
 * streamed or not. */
static void test_wrong_class_refused(void **state)
{
    (void)state;
    sv_buf file = items_file(3);
    sv_value root;
    sv_doc *doc = nt_decode(file.data, file.len, &root);
    sv_value *objects = nt_get(nt_at(nt_get(&root, "chunks"), 0), "objects");
    sv_value *obj = nt_at(objects, 1);
    sv_value *cls = sv_doc_alloc(doc, sizeof *cls);
    assert_non_null(cls);
    *cls = sv_strz(doc, "B");
    obj->as.box->cls = cls;
    for (int streamed = 0; streamed <= 1; streamed++) {
        sv_error err;
        sv_error_clear(&err);
        collected c;
        sv_status st;
        if (streamed) {
            st = encode_streamed(&root, 256, &c, &err);
            sv_buf_free(&c.bytes);
        } else {
            sv_buf out;
            sv_buf_init(&out, NULL);
            st = sv_noesis_encode(&root, NULL, &out, &err);
            sv_buf_free(&out);
        }
        assert_int_equal(st, SV_ERR_TYPE);
        assert_string_equal(err.path, "/chunks/0/objects/1");
        assert_non_null(strstr(err.message, "component's class"));
    }
    sv_doc_free(doc);
    sv_buf_free(&file);
}

/* One instance: BeginGroup* 0 "Text" over a body of 200,000 UInt8 "Value"
 * commands (1 MB of commands, no data, no values), EndGroup. The tree is
 * one object with an empty array, plus the command stream kept as bytes
 * (1 MB); a limit of 1.5 MB holds both. The decoder used to reserve 12
 * bytes per 5 of commands for its log of open fields (2.4 MB here). */
static void test_long_stream_small_scratch(void **state)
{
    (void)state;
    sv_buf cmds, data;
    sv_buf_init(&cmds, NULL);
    sv_buf_init(&data, NULL);
    sv_buf_putc(&cmds, 0x00);
    sv_buf_putc(&cmds, 0x82); /* BeginGroup, repeated */
    put_le(&cmds, 0, 4);      /* count 0 */
    put_le(&cmds, 0, 4);      /* desc 0: "Text" */
    for (int i = 0; i < 200000; i++) {
        sv_buf_putc(&cmds, 0x0B); /* UInt8 "Value" */
        put_le(&cmds, 5, 4);
    }
    sv_buf_putc(&cmds, 0x03);
    sv_buf_putc(&cmds, 0x01);
    sv_buf file = nsdh_file(&cmds, &data, 1);
    sv_noesis_opts o;
    sv_noesis_opts_init(&o);
    o.limits.max_alloc = 1536u * 1024u;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_decode(doc, file.data, file.len, &o, &root, &err) != SV_OK) nt_fail_with(&err);
    const sv_value *obj = nt_at(nt_get(nt_at(nt_get(&root, "chunks"), 0), "objects"), 0);
    assert_int_equal(sv_len(obj), 1);
    const sv_value *text = nt_get(obj, "Text");
    assert_int_equal(sv_kind_of(text), SV_ARRAY);
    assert_int_equal(sv_len(text), 0);
    sv_doc_free(doc);
    nt_round_trip(file.data, file.len);
    sv_buf_free(&file);
    sv_buf_free(&cmds);
    sv_buf_free(&data);
}

/* Every vector (both byte orders, unicode, versions 2 to 5, local values,
 * padding bools, no metadata) written through windows of 1, 7 and 4096
 * bytes: the same bytes as a plain encode (the input's). */
static void test_vectors_stream_in_any_window(void **state)
{
    (void)state;
    static const char *const names[] = {
        "all-commands.be.v5.nsb",         "all-commands.le.v2.nsb",
        "all-commands.le.v3.nsb",         "all-commands.le.v5.nsb",
        "all-commands.unicode.be.v4.nsb", "all-commands.unicode.le.v5.nsb",
        "local-values.le.v4.nsb",         "no-metadata.be.v3.nsb",
        "padding-bools.le.v4.nsb",
    };
    static const size_t windows[] = {1, 7, 4096};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "vectors/noesis/%s", names[i]);
        size_t len = 0;
        uint8_t *d = nt_read(path, &len);
        if (!d) fail_msg("missing vector %s", path);
        sv_value root;
        sv_doc *doc = nt_decode(d, len, &root);
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
            collected c;
            sv_error err;
            if (encode_streamed(&root, windows[w], &c, &err) != SV_OK) nt_fail_with(&err);
            nt_assert_same_bytes(d, len, &c.bytes);
            sv_buf_free(&c.bytes);
        }
        sv_doc_free(doc);
        free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_streams_through_a_window),
        cmocka_unit_test(test_raw_data_streams),
        cmocka_unit_test(test_sink_error_is_reported),
        cmocka_unit_test(test_streamed_encode_checks_first),
        cmocka_unit_test(test_wrong_class_refused),
        cmocka_unit_test(test_long_stream_small_scratch),
        cmocka_unit_test(test_vectors_stream_in_any_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
