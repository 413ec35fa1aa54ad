/* KingsIsle encoding into a sink that can rewrite what it took
 * (serval/buf_seekable.h), as `serval conv -o FILE` writes: the deep sizes
 * are written as placeholders, the output reaches the sink while it is
 * encoded, and each size whose field the sink took already is rewritten
 * through the sink's patch, with no sizing pass first. The bytes must be
 * the input's for every window, the size fields that left the buffer must
 * come back through patch, and a patch's error must end the encode.
 *
 * Inputs: a linked list of two objects assembled from the spec's byte
 * rules (§5.3: sizes in bits, the object's before its properties), the
 * hand-made tests/vectors/kingsisle/tiny-deep.bin (a bool, so unaligned
 * fields and padding) and, when ../shared/samples/kingsisle/ is there,
 * katsuba's fixtures with their configs. */
#include <serval/buf_seekable.h>

#include "test_kingsisle_util.h"
#include "kingsisle_hxnode_vector.h"

#define KV "vectors/kingsisle/"

/* A file in memory: writes append, patches overwrite. */
typedef struct mem_file {
    uint8_t bytes[4096];
    size_t len;
    unsigned writes, patches;
    sv_status fail_patch; /* SV_OK, or what every patch returns */
} mem_file;

static sv_status file_write(void *ctx, const uint8_t *data, size_t len)
{
    mem_file *f = ctx;
    assert_true(f->len + len <= sizeof f->bytes);
    memcpy(f->bytes + f->len, data, len);
    f->len += len;
    f->writes++;
    return SV_OK;
}

static sv_status file_patch(void *ctx, uint64_t at, const uint8_t *data, size_t len)
{
    mem_file *f = ctx;
    if (f->fail_patch != SV_OK) return f->fail_patch;
    assert_true(at + len <= f->len); /* only what was written */
    memcpy(f->bytes + at, data, len);
    f->patches++;
    return SV_OK;
}

static sv_kingsisle_types *load_text(const char *text, const char *name)
{
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    assert_non_null(t);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_types_add(t, (const uint8_t *)text, strlen(text), name, &err) != SV_OK)
        fail_msg("%s: %s", name, err.message);
    return t;
}

/* Encodes v into a seekable sink of the given window; f gets the file. */
static sv_status encode_to_file(const sv_value *v, const sv_kingsisle_opts *o, size_t window,
                                mem_file *f, sv_error *err)
{
    sv_buf_seekable s = {.write = file_write, .patch = file_patch, .ctx = f};
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_buf_set_seekable_sink(&out, &s, window);
    sv_status st = sv_kingsisle_encode(v, o, &out, err);
    if (st == SV_OK) st = sv_buf_flush(&out);
    sv_buf_free(&out);
    return st;
}

/* Decodes bytes with o, encodes the tree through a file sink of each window
 * from 1 to 64 bytes and checks the file is the input. Returns the patches
 * of the 8-byte window. */
static unsigned file_same_bytes(const char *what, const sv_kingsisle_opts *o, const uint8_t *bytes,
                                size_t len)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, bytes, len, o, &v, &err) != SV_OK)
        fail_msg("%s: %s", what, err.message);
    unsigned patches8 = 0;
    for (size_t window = 1; window <= 64; window++) {
        mem_file f = {.len = 0};
        if (encode_to_file(&v, o, window, &f, &err) != SV_OK)
            fail_msg("%s, window %zu: %s", what, window, err.message);
        if (f.len != len || memcmp(f.bytes, bytes, len) != 0)
            fail_msg("%s, window %zu: the file differs from the input (%zu bytes, %zu expected)",
                     what, window, f.len, len);
        if (window == 8) patches8 = f.patches;
    }
    sv_doc_free(doc);
    return patches8;
}


static sv_kingsisle_opts opts_of(const sv_kingsisle_types *t, uint32_t flags)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    o.flags = flags;
    return o;
}

static void test_linked_list_patched(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(hxnode, "hxnode.json");
    sv_kingsisle_opts o = opts_of(t, 0);
    /* With 8 bytes held, the sink takes the outer object's size field
     * (448) with m_value, and the outer m_next's (320) with the inner
     * tag, before either is known: both come back through patch, and so
     * do the inner object's (224) and its m_next's; only the two m_value
     * fields end inside the window they began in. */
    unsigned patches = file_same_bytes("linked", &o, linked, sizeof linked);
    if (patches < 2)
        fail_msg("%u size fields rewritten through the sink with an 8-byte window; at least the "
                 "outer object's and its m_next's must be (no sizing pass)",
                 patches);
    sv_kingsisle_types_free(t);
}

static void test_tiny_deep(void **state)
{
    (void)state;
    size_t tl, len;
    uint8_t *types = kt_read(KV "tiny-types.json", &tl);
    uint8_t *bytes = kt_read(KV "tiny-deep.bin", &len);
    if (!types || !bytes) fail_msg(KV "tiny-types.json or tiny-deep.bin is missing");
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_types_add(t, types, tl, "tiny-types.json", &err), SV_OK);
    assert_int_equal(len, 77);
    sv_kingsisle_opts o = opts_of(t, SV_KI_STATEFUL_FLAGS);
    assert_true(file_same_bytes("tiny-deep", &o, bytes, len) >= 1); /* the object's size */
    sv_kingsisle_types_free(t);
    free(types);
    free(bytes);
}

/* katsuba's fixtures, shallow and deep, zlib included (held whole: the
 * stream is compressed after). */
static void test_fixtures(void **state)
{
    (void)state;
    static const char *const names[] = {
        "all-scalars-deep",      "all-scalars-shallow",    "binary-string",
        "bit-integers-deep",     "bit-integers-shallow",   "bitflags-combined",
        "bitflags-empty-string", "bitflags-int",           "bitflags-string",
        "deep-size-boundary",    "delta-encode-absent",    "delta-encode-present",
        "deprecated-deep",       "deprecated-shallow",     "empty-string-no-realign",
        "ends-with-bits-deep",   "ends-with-bits-shallow", "list-compact",
        "list-simple",           "nested-lists",           "nested-object",
        "property-mask",         "scoped-enum-int",        "scoped-enum-string",
        "strings-compact",       "strings-deep",           "strings-shallow",
        "with-compression",
    };
    if (!kt_present()) return;
    sv_kingsisle_types *t = kt_types("types.json");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char file[256];
        snprintf(file, sizeof file, "%s.bin", names[i]);
        size_t len;
        uint8_t *bytes = kt_sample(file, &len);
        assert_non_null(bytes);
        sv_kingsisle_opts o;
        kt_config(names[i], &o);
        o.types = t;
        (void)file_same_bytes(names[i], &o, bytes, len);
        free(bytes);
    }
    sv_kingsisle_types_free(t);
}

/* A patch that fails (a write error on the file) ends the encode with that
 * error, not with a success and a file of placeholders. */
static void test_patch_error(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(hxnode, "hxnode.json");
    sv_kingsisle_opts o = opts_of(t, 0);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, linked, sizeof linked, &o, &v, &err) != SV_OK)
        fail_msg("%s", err.message);
    mem_file f = {.len = 0, .fail_patch = SV_ERR_IO};
    assert_int_equal(encode_to_file(&v, &o, 8, &f, &err), SV_ERR_IO);
    assert_int_equal(err.status, SV_ERR_IO);
    sv_doc_free(doc);
    sv_kingsisle_types_free(t);
}

/* sv_buf_patch itself: bytes still held are rewritten in the buffer, bytes
 * the sink took go through patch (a range split between the two goes half
 * each way), and a plain sink or a range not yet written is refused. */
static sv_status drop(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return SV_OK;
}

static void test_buf_patch(void **state)
{
    (void)state;
    mem_file f = {.len = 0};
    sv_buf_seekable s = {.write = file_write, .patch = file_patch, .ctx = &f};
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_set_seekable_sink(&b, &s, 4);
    assert_ptr_equal(sv_buf_seekable_of(&b), &s);
    sv_buf_append(&b, "abcdef", 6);
    sv_buf_release(&b); /* the file: abcdef */
    sv_buf_append(&b, "ghij", 4);
    assert_int_equal(sv_buf_patch(&b, 4, "XYZW", 4), SV_OK); /* ef in the file, gh held */
    assert_int_equal(f.patches, 1);
    assert_memory_equal(f.bytes, "abcdXY", 6);
    assert_memory_equal(b.data, "ZWij", 4);
    assert_int_equal(sv_buf_patch(&b, 8, "12", 2), SV_OK); /* held only: no patch call */
    assert_int_equal(f.patches, 1);
    assert_int_equal(sv_buf_patch(&b, 9, "12", 2), SV_ERR_RANGE); /* byte 10 is not written */
    assert_int_equal(sv_buf_flush(&b), SV_OK);
    assert_int_equal(f.len, 10);
    assert_memory_equal(f.bytes, "abcdXYZW12", 10);
    f.fail_patch = SV_ERR_IO;
    assert_int_equal(sv_buf_patch(&b, 0, "!", 1), SV_ERR_IO);
    assert_int_equal(sv_buf_status(&b), SV_ERR_IO); /* the buffer failed, as on a write error */
    sv_buf_free(&b);

    sv_buf plain;
    sv_buf_init(&plain, NULL);
    sv_buf_set_sink(&plain, drop, NULL, 2);
    assert_null(sv_buf_seekable_of(&plain));
    sv_buf_append(&plain, "abc", 3);
    sv_buf_release(&plain);
    assert_int_equal(sv_buf_patch(&plain, 0, "x", 1), SV_ERR_UNSUPPORTED);
    assert_true(sv_buf_ok(&plain));
    sv_buf_free(&plain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linked_list_patched),
        cmocka_unit_test(test_tiny_deep),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_patch_error),
        cmocka_unit_test(test_buf_patch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
