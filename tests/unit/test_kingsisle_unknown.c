/* KingsIsle: objects of classes the type list lacks, as real type lists
 * are (server-only and newer classes are missing). In deep mode such an
 * object reads as it does without a list (hashes and raw bits, §5.3 "a
 * robust reader should skip unknown property hashes") and is written back
 * to the same bytes; a warning names the hash, the byte and bit of its tag
 * and its path; skip_unknown_types reads it as null instead (katsuba's -i:
 * "skip exactly obj_bits bits ... and yield null").
 *
 * The streams are written out below by the spec's layout (§5.1 aligned u32
 * tag; §5.3 u32 object_bits counted from its own field, then per property
 * {u32 prop_bits from the end of the previous item; u32 hash; value}), with
 * the hashes of tests/vectors/kingsisle/unknown-types.json; the same bytes
 * are that folder's unknown-class.bin and unknown-in-list.bin. */
#include "test_kingsisle_util.h"

#define KV "vectors/kingsisle/"

/* Outer{m_child: an object of class 7777 (not in the list) holding
 * property 4444 = 0xDEADBEEF, m_after: 5}. */
static const uint8_t unknown_child[] = {
    0xE8, 0x03, 0x00, 0x00, /* tag 1000: class Outer */
    0x60, 0x01, 0x00, 0x00, /* object_bits 352 = 32 + 224 + 96 */
    0xE0, 0x00, 0x00, 0x00, /* prop_bits 224 = 64 + 160 */
    0xD0, 0x07, 0x00, 0x00, /* hash 2000: m_child */
    0x61, 0x1E, 0x00, 0x00, /* byte 16: tag 7777, no class in the list */
    0x80, 0x00, 0x00, 0x00, /* object_bits 128 */
    0x60, 0x00, 0x00, 0x00, /* prop_bits 96 */
    0x5C, 0x11, 0x00, 0x00, /* hash 4444 */
    0xEF, 0xBE, 0xAD, 0xDE, /* its 32 bits */
    0x60, 0x00, 0x00, 0x00, /* prop_bits 96 */
    0xD2, 0x07, 0x00, 0x00, /* hash 2002: m_after */
    0x05, 0x00, 0x00, 0x00, /* 5 */
};

/* Outer{m_list: [Inner{m_v: 1}, an object of class 7777]}. */
static const uint8_t unknown_in_list[] = {
    0xE8, 0x03, 0x00, 0x00, /* tag 1000: class Outer */
    0xC0, 0x01, 0x00, 0x00, /* object_bits 448 = 32 + 416 */
    0xA0, 0x01, 0x00, 0x00, /* prop_bits 416 = 64 + 32 + 160 + 160 */
    0xD1, 0x07, 0x00, 0x00, /* hash 2001: m_list */
    0x02, 0x00, 0x00, 0x00, /* 2 elements */
    0xE9, 0x03, 0x00, 0x00, /* tag 1001: class Inner */
    0x80, 0x00, 0x00, 0x00, /* object_bits 128 */
    0x60, 0x00, 0x00, 0x00, /* prop_bits 96 */
    0xB8, 0x0B, 0x00, 0x00, /* hash 3000: m_v */
    0x01, 0x00, 0x00, 0x00, /* 1 */
    0x61, 0x1E, 0x00, 0x00, /* byte 40: tag 7777 */
    0x80, 0x00, 0x00, 0x00,
    0x60, 0x00, 0x00, 0x00,
    0x5C, 0x11, 0x00, 0x00,
    0xEF, 0xBE, 0xAD, 0xDE,
};

static sv_kingsisle_types *types;

static int setup(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = kt_read(KV "unknown-types.json", &len);
    assert_non_null(data);
    types = sv_kingsisle_types_new(NULL);
    assert_non_null(types);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_types_add(types, data, len, "unknown-types.json", &err), SV_OK);
    free(data);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sv_kingsisle_types_free(types);
    return 0;
}

/* The warnings of one decode. */
typedef struct warnings {
    unsigned n;
    sv_error w[4];
} warnings;

static void collect(void *ctx, const sv_error *w)
{
    warnings *ws = ctx;
    if (ws->n < 4) ws->w[ws->n] = *w;
    ws->n++;
}

static sv_doc *decode_ok(const uint8_t *b, size_t n, const sv_kingsisle_opts *o, sv_value *root)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, b, n, o, root, &err) != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fail_msg("decode: %s", msg);
    }
    return doc;
}

static void expect_encode(const sv_value *root, const sv_kingsisle_types *t, const uint8_t *want,
                          size_t want_len)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_encode(root, &o, &out, &err) != SV_OK) fail_msg("encode: %s", err.message);
    assert_int_equal(out.len, want_len);
    assert_memory_equal(out.data, want, want_len);
    sv_buf_free(&out);
}

/* The raw object as a list-less read gives it: class 7777, property 4444
 * as 32 raw bits EF BE AD DE. */
static void expect_raw_7777(const sv_value *obj)
{
    assert_int_equal(sv_kind_of(obj), SV_OBJECT);
    assert_int_equal(sv_kind_of(sv_object_class(obj)), SV_UINT);
    assert_int_equal(sv_get_uint(sv_object_class(obj)), 7777);
    const sv_value *raw = kt_field(obj, "4444");
    assert_int_equal(sv_get_uint(kt_field(raw, "bits")), 32);
    size_t n;
    const char *data = sv_get_str(kt_field(raw, "data"), &n);
    assert_int_equal(n, 4);
    assert_memory_equal(data, "\xEF\xBE\xAD\xDE", 4);
}

static void test_unknown_child_kept_raw(void **state)
{
    (void)state;
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = types;
    warnings ws = {0};
    o.warn = collect;
    o.warn_ctx = &ws;
    sv_value root;
    sv_doc *doc = decode_ok(unknown_child, sizeof unknown_child, &o, &root);
    size_t n;
    assert_string_equal(sv_get_str(sv_object_class(&root), &n), "class Outer");
    expect_raw_7777(kt_field(&root, "m_child"));
    assert_int_equal(sv_get_uint(kt_field(&root, "m_after")), 5);
    assert_int_equal(ws.n, 1);
    assert_int_equal(ws.w[0].byte_offset, 16);
    assert_int_equal(ws.w[0].bit_offset, 0);
    assert_string_equal(ws.w[0].path, "/m_child");
    assert_non_null(strstr(ws.w[0].message, "7777"));
    expect_encode(&root, types, unknown_child, sizeof unknown_child);
    sv_doc_free(doc);

    /* the object alone, without a list: the same node (a root is read
     * whatever its class; nested values stay raw bits), no warning */
    o.types = NULL;
    ws.n = 0;
    doc = decode_ok(unknown_child + 16, 20, &o, &root);
    expect_raw_7777(&root);
    assert_int_equal(ws.n, 0);
    sv_doc_free(doc);
}

static void test_unknown_in_list(void **state)
{
    (void)state;
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = types;
    warnings ws = {0};
    o.warn = collect;
    o.warn_ctx = &ws;
    sv_value root;
    sv_doc *doc = decode_ok(unknown_in_list, sizeof unknown_in_list, &o, &root);
    const sv_value *list = kt_field(&root, "m_list");
    assert_int_equal(sv_len(list), 2);
    size_t n;
    assert_string_equal(sv_get_str(sv_object_class(sv_array_at(list, 0)), &n), "class Inner");
    expect_raw_7777(sv_array_at(list, 1));
    assert_int_equal(ws.n, 1);
    assert_int_equal(ws.w[0].byte_offset, 40);
    assert_string_equal(ws.w[0].path, "/m_list/1");
    expect_encode(&root, types, unknown_in_list, sizeof unknown_in_list);
    sv_doc_free(doc);
}

/* A root of a class the list lacks stays raw bits, skip_unknown_types or
 * not (a null root is no stream, §5.1). */
static void test_unknown_root(void **state)
{
    (void)state;
    const uint8_t *obj = unknown_child + 16; /* the 20 bytes of the 7777 object */
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = types;
    o.skip_unknown_types = true;
    warnings ws = {0};
    o.warn = collect;
    o.warn_ctx = &ws;
    sv_value root;
    sv_doc *doc = decode_ok(obj, 20, &o, &root);
    expect_raw_7777(&root);
    assert_int_equal(ws.n, 1);
    assert_int_equal(ws.w[0].byte_offset, 0);
    assert_string_equal(ws.w[0].path, "");
    expect_encode(&root, types, obj, 20);
    sv_doc_free(doc);
}

static void test_skip_unknown_types(void **state)
{
    (void)state;
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = types;
    o.skip_unknown_types = true;
    sv_value root;
    sv_doc *doc = decode_ok(unknown_child, sizeof unknown_child, &o, &root);
    assert_int_equal(sv_kind_of(kt_field(&root, "m_child")), SV_NULL);
    assert_int_equal(sv_get_uint(kt_field(&root, "m_after")), 5); /* read on after the skip */
    assert_true(sv_get_bool(sv_map_getz(sv_meta(&root), "skip_unknown_types")));
    sv_doc_free(doc);

    doc = decode_ok(unknown_in_list, sizeof unknown_in_list, &o, &root);
    const sv_value *list = kt_field(&root, "m_list");
    assert_int_equal(sv_len(list), 2);
    assert_int_equal(sv_kind_of(sv_array_at(list, 0)), SV_OBJECT);
    assert_int_equal(sv_kind_of(sv_array_at(list, 1)), SV_NULL);
    sv_doc_free(doc);

    /* through the registry: -O skip_unknown_types=true */
    const char *names[] = {"skip_unknown_types"}, *values[] = {"true"};
    sv_options ro;
    sv_options_init(&ro);
    ro.names = names;
    ro.values = values;
    ro.count = 1;
    sv_error err;
    sv_error_clear(&err);
    const sv_format *f = sv_format_find("kingsisle");
    assert_non_null(f);
    doc = sv_doc_new(NULL);
    /* without a type list nothing is skipped: the whole property is raw bits */
    assert_int_equal(f->decode(doc, unknown_child, sizeof unknown_child, &ro, &root, &err), SV_OK);
    assert_int_equal(sv_get_uint(kt_field(kt_field(&root, "2000"), "bits")), 160);
    sv_doc_free(doc);
}

/* The skipped object's size is checked as a read one's is: past the
 * property that holds it, or smaller than its own field. */
static void test_skip_hostile_sizes(void **state)
{
    (void)state;
    uint8_t b[sizeof unknown_child];
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = types;
    o.skip_unknown_types = true;
    static const struct {
        uint8_t size;
        sv_status want;
    } cases[] = {{0xFF, SV_ERR_TRUNCATED}, {0x10, SV_ERR_SYNTAX}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(b, unknown_child, sizeof b);
        b[20] = cases[i].size; /* the 7777 object's object_bits */
        b[21] = cases[i].size == 0xFF ? 0x01 : 0x00;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_kingsisle_decode(doc, b, sizeof b, &o, &root, &err), cases[i].want);
        assert_int_equal(err.byte_offset, 20);
        assert_string_equal(err.path, "/m_child");
        sv_doc_free(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_child_kept_raw),
        cmocka_unit_test(test_unknown_in_list),
        cmocka_unit_test(test_unknown_root),
        cmocka_unit_test(test_skip_unknown_types),
        cmocka_unit_test(test_skip_hostile_sizes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
