/* KingsIsle: the serializer options a stream was read with are in the tree,
 * so that encoding it with no options gives the same bytes; an option the
 * caller gives wins over the recorded one.
 *
 * Inputs are the hand-made vectors of tests/vectors/kingsisle/ (tiny-shallow
 * and tiny-deep hold the same object, shallow and deep, with the stored
 * flags word 1 and property_mask 7; tiny-deep-flags0 is that deep object with
 * no flags word), streams assembled here from them by the spec's layout (a
 * marker byte 0 in front: flags 8, stored raw, §4.3), and katsuba's 28
 * fixtures with their configs when ../shared/samples is there. */
#include "test_kingsisle_util.h"

#include "compress/zlib_adapter.h"
#include "core/byteio.h"

#define KV "vectors/kingsisle/"

static sv_kingsisle_types *tiny_types;

static int setup(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = kt_read(KV "tiny-types.json", &len);
    assert_non_null(data);
    tiny_types = sv_kingsisle_types_new(NULL);
    assert_non_null(tiny_types);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_types_add(tiny_types, data, len, "tiny-types.json", &err), SV_OK);
    free(data);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sv_kingsisle_types_free(tiny_types);
    return 0;
}

static uint8_t *vector(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, KV "%s", name);
    uint8_t *b = kt_read(path, len);
    if (!b) fail_msg("%s is missing", path);
    return b;
}

static sv_doc *decode(const uint8_t *b, size_t n, const sv_kingsisle_opts *o, sv_value *root)
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

/* Encodes root with o and compares with want. */
static void expect_bytes(const sv_value *root, const sv_kingsisle_opts *o, const uint8_t *want,
                         size_t want_len, const char *what)
{
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_encode(root, o, &out, &err) != SV_OK) fail_msg("%s: encode: %s", what, err.message);
    if (out.len != want_len || memcmp(out.data, want, want_len) != 0)
        fail_msg("%s: %zu bytes written, the %zu expected differ", what, out.len, want_len);
    sv_buf_free(&out);
}

/* Only the type list: what the second command of `dump | conv` gives. */
static sv_kingsisle_opts types_only(const sv_kingsisle_types *t)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    return o;
}

static void test_shallow_recorded_and_used(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = vector("tiny-shallow.bin", &n);
    sv_kingsisle_opts o = types_only(tiny_types);
    o.shallow = true;
    o.flags = 1;
    o.property_mask = 7;
    sv_value root;
    sv_doc *doc = decode(b, n, &o, &root);
    const sv_value *meta = sv_meta(&root);
    assert_true(sv_get_bool(sv_map_getz(meta, "shallow")));
    assert_int_equal(sv_kind_of(sv_map_getz(meta, "property_mask")), SV_UINT);
    assert_int_equal(sv_get_uint(sv_map_getz(meta, "property_mask")), 7);
    assert_int_equal(sv_get_uint(sv_map_getz(meta, "flags")), 1);
    /* defaults are not recorded */
    assert_null(sv_map_getz(meta, "compress"));
    assert_null(sv_map_getz(meta, "option_flags"));
    assert_null(sv_map_getz(meta, "skip_deprecated"));

    sv_kingsisle_opts none = types_only(tiny_types);
    expect_bytes(&root, &none, b, n, "shallow tree, no options");
    sv_doc_free(doc);
    free(b);
}

static void test_deep_records_no_mask(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = vector("tiny-deep.bin", &n);
    sv_kingsisle_opts o = types_only(tiny_types);
    o.flags = 1;
    o.property_mask = 7; /* deep mode writes what the tree has: not recorded */
    sv_value root;
    sv_doc *doc = decode(b, n, &o, &root);
    const sv_value *meta = sv_meta(&root);
    assert_null(sv_map_getz(meta, "shallow"));
    assert_null(sv_map_getz(meta, "property_mask"));
    sv_kingsisle_opts none = types_only(tiny_types);
    expect_bytes(&root, &none, b, n, "deep tree, no options");
    none.types = NULL; /* schema-less */
    sv_doc_free(doc);
    o.types = NULL;
    doc = decode(b, n, &o, &root);
    expect_bytes(&root, &none, b, n, "schema-less deep tree, no options");
    sv_doc_free(doc);
    free(b);
}

/* Flags with no stored word (here 8: a marker byte, 0 = stored raw) are
 * recorded as option_flags. */
static void test_unstored_flags(void **state)
{
    (void)state;
    size_t n0;
    uint8_t *b0 = vector("tiny-deep-flags0.bin", &n0);
    uint8_t *b = malloc(n0 + 1);
    assert_non_null(b);
    b[0] = 0;
    memcpy(b + 1, b0, n0);
    sv_kingsisle_opts o = types_only(tiny_types);
    o.flags = SV_KI_WITH_COMPRESSION;
    sv_value root;
    sv_doc *doc = decode(b, n0 + 1, &o, &root);
    const sv_value *meta = sv_meta(&root);
    assert_int_equal(sv_get_uint(sv_map_getz(meta, "option_flags")), 8);
    assert_null(sv_map_getz(meta, "flags"));
    sv_kingsisle_opts none = types_only(tiny_types);
    expect_bytes(&root, &none, b, n0 + 1, "flags 8, no options");
    /* an explicit flags=0 wins: no marker */
    sv_kingsisle_opts zero = types_only(tiny_types);
    zero.given = SV_KI_OPT_FLAGS;
    expect_bytes(&root, &zero, b0, n0, "flags 8 tree, flags=0 given");
    sv_doc_free(doc);
    free(b);
    free(b0);
}

/* The option the caller gives wins over the recorded one: the shallow tree
 * written with shallow=false given is the deep vector. */
static void test_given_option_wins(void **state)
{
    (void)state;
    size_t n, nd;
    uint8_t *b = vector("tiny-shallow.bin", &n);
    uint8_t *deep = vector("tiny-deep.bin", &nd);
    sv_kingsisle_opts o = types_only(tiny_types);
    o.shallow = true;
    o.flags = 1;
    o.property_mask = 7;
    sv_value root;
    sv_doc *doc = decode(b, n, &o, &root);
    sv_kingsisle_opts w = types_only(tiny_types);
    w.shallow = false;
    w.given = SV_KI_OPT_SHALLOW;
    expect_bytes(&root, &w, deep, nd, "shallow tree, shallow=false given");
    /* a value other than the default counts as given without the bit */
    w.given = 0;
    w.flags = 0;
    w.shallow = false;
    w.property_mask = 7;
    expect_bytes(&root, &w, b, n, "shallow tree, the same mask given");
    sv_doc_free(doc);
    free(b);
    free(deep);
}

/* The manual zlib wrapper (compress) round trips with no options. The
 * wrapped stream is assembled here by the spec's layout (§4.2: u32 size of
 * the inner stream, then zlib), at level 6 where the encoder would use 9:
 * the payload written back must be the one that was read. */
static void test_compress_recorded(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = vector("tiny-shallow.bin", &n);
    sv_buf wrapped;
    sv_buf_init(&wrapped, NULL);
    sv_put_u32le(&wrapped, (uint32_t)n);
    assert_true(sv__compress_zlib_deflate(b, n, 6, SV_ZLIB_WRAPPED, &wrapped));

    sv_kingsisle_opts o = types_only(tiny_types);
    o.shallow = true;
    o.flags = 1;
    o.property_mask = 7;
    o.compress = true;
    sv_value root;
    sv_doc *doc = decode(wrapped.data, wrapped.len, &o, &root);
    assert_true(sv_get_bool(sv_map_getz(sv_meta(&root), "compress")));
    sv_kingsisle_opts none = types_only(tiny_types);
    expect_bytes(&root, &none, wrapped.data, wrapped.len, "compressed, no options");
    /* compress=false given: the inner stream alone */
    none.given = SV_KI_OPT_COMPRESS;
    expect_bytes(&root, &none, b, n, "compressed tree, compress=false given");
    sv_doc_free(doc);
    sv_buf_free(&wrapped);
    free(b);
}

/* A recorded option of the wrong kind is an error naming its meta key. */
static void test_bad_meta(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = vector("tiny-deep.bin", &n);
    sv_kingsisle_opts o = types_only(tiny_types);
    o.flags = 1;
    sv_value root;
    sv_doc *doc = decode(b, n, &o, &root);
    static const char *const cases[][2] = {
        {"shallow", "\"yes\""},
        {"property_mask", "-1"},
        {"option_flags", "{\"$u32\": 8}"}, /* beside a stored word */
    };
    const sv_value orig = *sv_meta(&root); /* the meta is the object's: kept aside */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sv_value meta = sv_map(doc, 0);
        const sv_value *old = &orig;
        for (uint32_t k = 0; k < sv_len(old); k++)
            sv_map_append(doc, &meta, *sv_key_at(old, k), *sv_val_at(old, k));
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_json_decode(doc, cases[i][1], strlen(cases[i][1]), NULL, &v, &err), SV_OK);
        sv_map_append(doc, &meta, sv_str_intern(doc, cases[i][0], strlen(cases[i][0])), v);
        sv_value r = root;
        assert_int_equal(sv_meta_set(doc, &r, meta), SV_OK);
        sv_kingsisle_opts none = types_only(tiny_types);
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error_clear(&err);
        assert_int_equal(sv_kingsisle_encode(&r, &none, &out, &err), SV_ERR_TYPE);
        char want[64];
        snprintf(want, sizeof want, "/$meta/%s", cases[i][0]);
        assert_string_equal(err.path, want);
        assert_int_equal(out.len, 0);
        sv_buf_free(&out);
    }
    sv_doc_free(doc);
    free(b);
}

/* katsuba's fixtures: decoded with their configs, written with none. */
static void test_fixtures_without_options(void **state)
{
    (void)state;
    if (!kt_present()) return;
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
    sv_kingsisle_types *t = kt_types("types.json");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char file[256];
        snprintf(file, sizeof file, "%s.bin", names[i]);
        size_t n;
        uint8_t *b = kt_sample(file, &n);
        assert_non_null(b);
        sv_kingsisle_opts o;
        kt_config(names[i], &o);
        o.types = t;
        sv_value root;
        sv_doc *doc = decode(b, n, &o, &root);
        sv_kingsisle_opts none = types_only(t);
        expect_bytes(&root, &none, b, n, names[i]);
        sv_doc_free(doc);
        free(b);
    }
    sv_kingsisle_types_free(t);
}

/* skip_deprecated decides the bytes in shallow mode. The stream without the
 * DEPRECATED property is deprecated-shallow.bin (flags word 1, the tag, then
 * m_normal, m_deprecated, m_after as u32) with m_deprecated's four bytes
 * cut out; it reads back with skip_deprecated recorded. */
static void test_skip_deprecated_recorded(void **state)
{
    (void)state;
    if (!kt_present()) return;
    sv_kingsisle_types *t = kt_types("types.json");
    size_t n;
    uint8_t *b = kt_sample("deprecated-shallow.bin", &n);
    assert_non_null(b);
    assert_int_equal(n, 20);
    uint8_t cut[16];
    memcpy(cut, b, 12);
    memcpy(cut + 12, b + 16, 4);
    sv_kingsisle_opts o;
    kt_config("deprecated-shallow", &o);
    o.types = t;
    o.skip_deprecated = true;
    sv_value root;
    sv_doc *doc = decode(cut, sizeof cut, &o, &root);
    assert_true(sv_get_bool(sv_map_getz(sv_meta(&root), "skip_deprecated")));
    assert_null(sv_map_getz(&root, "m_deprecated"));
    assert_int_equal(sv_get_uint(sv_map_getz(&root, "m_after")), 300);
    sv_kingsisle_opts none = types_only(t);
    expect_bytes(&root, &none, cut, sizeof cut, "skip_deprecated, no options");
    sv_doc_free(doc);
    free(b);
    sv_kingsisle_types_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shallow_recorded_and_used),
        cmocka_unit_test(test_deep_records_no_mask),
        cmocka_unit_test(test_unstored_flags),
        cmocka_unit_test(test_given_option_wins),
        cmocka_unit_test(test_compress_recorded),
        cmocka_unit_test(test_bad_meta),
        cmocka_unit_test(test_fixtures_without_options),
        cmocka_unit_test(test_skip_deprecated_recorded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
