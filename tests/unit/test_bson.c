/* BSON reader and writer on vectors written by libbson (tests/vectors/bson/,
 * made by make_vectors.c there: the values checked here are the ones that
 * program wrote), on the examples of bsonspec.org, and on trees built by
 * hand for the writer. Every vector must also come back byte for byte. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helper_resonite.h"
#include "serval/bson.h"
#include "serval/serval.h"

typedef struct loaded {
    uint8_t *bytes;
    size_t len;
    sv_doc *doc;
    sv_value root;
} loaded;

static void load(const char *name, bool urls, loaded *l)
{
    char path[256];
    snprintf(path, sizeof path, "vectors/bson/%s", name);
    l->bytes = rs_read_file(path, &l->len);
    assert_non_null(l->bytes);
    l->doc = sv_doc_new(NULL);
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = urls;
    sv_error err = {0};
    sv_error_clear(&err);
    sv_status st = sv_bson_decode(l->doc, l->bytes, l->len, &o, &l->root, &err);
    if (st != SV_OK) fail_msg("%s: %s", name, err.message);
    /* and back, byte for byte */
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_bson_encode(&l->root, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, l->len);
    assert_memory_equal(out.data, l->bytes, l->len);
    sv_buf_free(&out);
}

static void unload(loaded *l)
{
    sv_doc_free(l->doc);
    free(l->bytes);
}

static const sv_value *get(const sv_value *m, const char *k)
{
    const sv_value *v = sv_map_getz(m, k);
    if (!v) fail_msg("no key %s", k);
    return v;
}

static void expect_str(const sv_value *v, const char *s, unsigned tag)
{
    assert_int_equal(sv_kind_of(v), SV_STRING);
    assert_int_equal(sv_tag_of(v), tag);
    size_t n;
    const char *g = sv_get_str(v, &n);
    assert_int_equal(n, strlen(s));
    assert_memory_equal(g, s, n);
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void expect_class(const sv_value *v, const char *cls)
{
    assert_int_equal(sv_kind_of(v), SV_OBJECT);
    expect_str(sv_object_class(v), cls, SV_TAG_NONE);
}

static void test_all_types(void **state)
{
    (void)state;
    loaded l;
    load("all_types.bson", false, &l);
    const sv_value *r = &l.root;
    assert_int_equal(sv_kind_of(r), SV_MAP);
    assert_int_equal(sv_len(r), 25);
    /* keys in the order written */
    static const char *const keys[] = {
        "double", "string", "doc", "array", "bin0", "bin2",  "uuid",  "bin80", "undef",
        "oid",    "t",      "f",   "date",  "null", "regex", "dbptr", "code",  "symbol",
        "codews", "int32",  "ts",  "int64", "dec",  "min",   "max"};
    for (size_t i = 0; i < 25; i++)
        expect_str(sv_key_at(r, i), keys[i], SV_TAG_NONE);

    const sv_value *v = get(r, "double");
    assert_int_equal(sv_kind_of(v), SV_FLOAT);
    assert_int_equal(sv_width(v), 8);
    assert_false(sv_is_explicit(v));
    assert_true(sv_get_f64(v) == 1.5);
    expect_str(get(r, "string"), "h\xc3\xa9llo", SV_TAG_NONE);
    v = get(get(r, "doc"), "a");
    assert_int_equal(sv_kind_of(v), SV_INT);
    assert_int_equal(sv_width(v), 4);
    assert_true(sv_is_explicit(v));
    assert_int_equal(sv_get_int(v), 1);
    v = get(r, "array");
    assert_int_equal(sv_kind_of(v), SV_ARRAY);
    assert_int_equal(sv_len(v), 2);
    assert_null(sv_meta(v));
    expect_str(sv_array_at(v, 1), "two", SV_TAG_NONE);

    v = get(r, "bin0");
    assert_int_equal(sv_kind_of(v), SV_BYTES);
    assert_int_equal(sv_len(v), 3);
    assert_memory_equal(sv_get_str(v, NULL), "\x01\x02\x03", 3);
    v = get(r, "bin2"); /* subtype 2: the inner length is gone from the tree */
    expect_class(v, "bson.binary");
    assert_int_equal(sv_get_uint(get(v, "subtype")), 2);
    assert_int_equal(sv_len(get(v, "data")), 3);
    expect_str(get(r, "uuid"), "00010203-0405-0607-0809-0a0b0c0d0e0f", SV_TAG_UUID);
    v = get(r, "bin80");
    expect_class(v, "bson.binary");
    assert_int_equal(sv_get_uint(get(v, "subtype")), 0x80);
    assert_memory_equal(sv_get_str(get(v, "data"), NULL), "xyz", 3);
    expect_class(get(r, "undef"), "bson.undefined");
    expect_str(get(r, "oid"), "5f1e2d3c4b5a69788796a5b4", SV_TAG_OBJECTID);
    assert_int_equal(sv_kind_of(get(r, "t")), SV_BOOL);
    assert_true(sv_get_bool(get(r, "t")));
    assert_false(sv_get_bool(get(r, "f")));
    v = get(r, "date");
    assert_int_equal(sv_tag_of(v), SV_TAG_DATETIME);
    assert_int_equal(sv_get_int(v), 1700000000000LL);
    assert_int_equal(sv_kind_of(get(r, "null")), SV_NULL);
    v = get(r, "regex");
    assert_int_equal(sv_tag_of(v), SV_TAG_REGEX);
    expect_str(sv_array_at(v, 0), "^a.*b$", SV_TAG_NONE);
    expect_str(sv_array_at(v, 1), "im", SV_TAG_NONE);
    v = get(r, "dbptr");
    expect_class(v, "bson.dbpointer");
    expect_str(get(v, "namespace"), "db.coll", SV_TAG_NONE);
    expect_str(get(v, "id"), "5f1e2d3c4b5a69788796a5b4", SV_TAG_OBJECTID);
    expect_str(get(get(r, "code"), "code"), "function(){}", SV_TAG_NONE);
    expect_str(get(get(r, "symbol"), "symbol"), "sym", SV_TAG_NONE);
    v = get(r, "codews");
    expect_class(v, "bson.code_w_scope");
    expect_str(get(v, "code"), "x=1", SV_TAG_NONE);
    assert_int_equal(sv_get_int(get(get(v, "scope"), "x")), 1);
    v = get(r, "int32");
    assert_int_equal(sv_width(v), 4);
    assert_int_equal(sv_get_int(v), -5);
    v = get(r, "ts"); /* bsonspec: increment in the low 32 bits, seconds in the high */
    assert_int_equal(sv_kind_of(v), SV_UINT);
    assert_int_equal(sv_tag_of(v), SV_TAG_TIMESTAMP);
    assert_true(v->as.u == ((uint64_t)1700000000u << 32 | 7u));
    v = get(r, "int64");
    assert_int_equal(sv_kind_of(v), SV_INT);
    assert_int_equal(sv_width(v), 8);
    assert_false(sv_is_explicit(v));
    assert_int_equal(sv_get_int(v), -9000000000LL);
    /* decimal128 "1.5" = 15 x 10^-1: low 64 bits 15, high 0x303E << 48
     * (biased exponent 6175 << 49), little-endian */
    v = get(r, "dec");
    assert_int_equal(sv_tag_of(v), SV_TAG_DECIMAL128);
    assert_memory_equal(sv_get_str(v, NULL), "\x0f\0\0\0\0\0\0\0\0\0\0\0\0\0\x3e\x30", 16);
    assert_int_equal(sv_tag_of(get(r, "min")), SV_TAG_MINKEY);
    assert_int_equal(sv_tag_of(get(r, "max")), SV_TAG_MAXKEY);
    unload(&l);
}

static void test_doubles(void **state)
{
    (void)state;
    loaded l;
    load("doubles.bson", false, &l);
    assert_true(bits(get(&l.root, "nan")->as.f64) == UINT64_C(0x7ff8000000000000));
    assert_true(bits(get(&l.root, "inf")->as.f64) == UINT64_C(0x7ff0000000000000));
    assert_true(bits(get(&l.root, "ninf")->as.f64) == UINT64_C(0xfff0000000000000));
    assert_true(bits(get(&l.root, "nzero")->as.f64) == UINT64_C(0x8000000000000000));
    assert_true(sv_is_explicit(get(&l.root, "nzero")));
    assert_false(sv_is_explicit(get(&l.root, "f32")));
    /* spec resonite A.4: 0.42f widened is 0.41999998688697815 */
    assert_true(get(&l.root, "f32")->as.f64 == 0.41999998688697815);
    unload(&l);
}

static void test_nesting(void **state)
{
    (void)state;
    loaded l;
    load("nesting.bson", false, &l);
    assert_int_equal(sv_kind_of(get(&l.root, "e")), SV_MAP);
    assert_int_equal(sv_len(get(&l.root, "e")), 0);
    assert_int_equal(sv_kind_of(get(&l.root, "ea")), SV_ARRAY);
    assert_int_equal(sv_len(get(&l.root, "ea")), 0);
    const sv_value *m = get(&l.root, "m");
    assert_int_equal(sv_len(m), 2);
    /* whole doubles are explicit (written {"$f64": 3.0}, docs/formats/bson.md) */
    assert_true(sv_is_explicit(sv_array_at(sv_array_at(m, 1), 0)));
    assert_true(sv_get_f64(sv_array_at(sv_array_at(m, 1), 0)) == 3.0);
    assert_true(sv_get_f64(sv_array_at(sv_array_at(m, 1), 1)) == 4.0);
    const sv_value *e = get(&l.root, "eleven");
    assert_int_equal(sv_len(e), 11);
    assert_int_equal(sv_get_int(sv_array_at(e, 10)), 10);
    assert_null(sv_meta(e));
    unload(&l);
}

static void test_array_keys(void **state)
{
    (void)state;
    loaded l;
    load("array_keys.bson", false, &l);
    const sv_value *a = get(&l.root, "a");
    assert_int_equal(sv_kind_of(a), SV_ARRAY);
    const sv_value *keys = sv_meta(a);
    assert_non_null(keys);
    assert_int_equal(sv_len(keys), 2);
    expect_str(sv_array_at(keys, 0), "x", SV_TAG_NONE);
    expect_str(sv_array_at(keys, 1), "5", SV_TAG_NONE);
    unload(&l);
}

/* spec resonite A.5: "@x" is a URL, "@@x" the string "@x", "@" the string
 * "@"; "@@" (never written by Resonite) is kept as the URL "@". */
static void test_urls(void **state)
{
    (void)state;
    loaded l;
    load("urls.bson", true, &l);
    expect_str(get(&l.root, "url"), "packdb:///30a0bc21", SV_TAG_URL);
    expect_str(get(&l.root, "escaped"), "@mention", SV_TAG_NONE);
    expect_str(get(&l.root, "at"), "@", SV_TAG_NONE);
    expect_str(get(&l.root, "plain"), "Slot", SV_TAG_NONE);
    expect_str(get(&l.root, "atat"), "@", SV_TAG_URL);
    unload(&l);
    load("urls.bson", false, &l); /* without the convention: as they are */
    expect_str(get(&l.root, "url"), "@packdb:///30a0bc21", SV_TAG_NONE);
    expect_str(get(&l.root, "escaped"), "@@mention", SV_TAG_NONE);
    unload(&l);
}

/* The two examples of bsonspec.org's FAQ, bytes as printed there. */
static void test_bsonspec_examples(void **state)
{
    (void)state;
    static const uint8_t hello[] = "\x16\x00\x00\x00\x02hello\x00\x06\x00\x00\x00world\x00\x00";
    static const uint8_t awesome[] =
        "\x31\x00\x00\x00\x04\x42\x53\x4f\x4e\x00\x26\x00\x00\x00\x02\x30\x00\x08\x00\x00\x00"
        "awesome\x00\x01\x31\x00\x33\x33\x33\x33\x33\x33\x14\x40\x10\x32\x00\xc2\x07\x00\x00"
        "\x00\x00";
    const struct {
        const uint8_t *b;
        size_t n;
    } ex[] = {{hello, sizeof hello - 1}, {awesome, sizeof awesome - 1}};
    for (size_t i = 0; i < 2; i++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err = {0};
        uint8_t *copy = rs_copy(ex[i].b, ex[i].n);
        assert_int_equal(sv_bson_decode(doc, copy, ex[i].n, NULL, &v, &err), SV_OK);
        if (i == 0) expect_str(get(&v, "hello"), "world", SV_TAG_NONE);
        if (i == 1) {
            const sv_value *a = get(&v, "BSON");
            expect_str(sv_array_at(a, 0), "awesome", SV_TAG_NONE);
            assert_true(sv_get_f64(sv_array_at(a, 1)) == 5.05);
            assert_int_equal(sv_get_int(sv_array_at(a, 2)), 1986);
            assert_int_equal(sv_width(sv_array_at(a, 2)), 4);
        }
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_bson_encode(&v, NULL, &out, &err), SV_OK);
        assert_int_equal(out.len, ex[i].n);
        assert_memory_equal(out.data, ex[i].b, ex[i].n);
        sv_buf_free(&out);
        free(copy);
        sv_doc_free(doc);
    }
}

/* Trees that did not come from BSON: how each kind is written
 * (docs/formats/bson.md). Expected bytes assembled from bsonspec's grammar. */
static void test_write_other_trees(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value m = sv_map(doc, 0);
    sv_map_append_str(doc, &m, "i", sv_int(1));       /* int64 (JSON integers) */
    sv_map_append_str(doc, &m, "f", sv_f32(0.5f));    /* double */
    sv_map_append_str(doc, &m, "u", sv_uint_w(7, 2)); /* int32 */
    float xyz[3] = {1.0f, 2.0f, 3.0f};
    sv_map_append_str(doc, &m, "v", sv_tuple(doc, SV_TAG_VECTOR3, SV_ELEM_F32, xyz));
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err = {0};
    assert_int_equal(sv_bson_encode(&m, NULL, &out, &err), SV_OK);
    static const uint8_t want[] = "\x4b\x00\x00\x00"
                                  "\x12i\x00\x01\x00\x00\x00\x00\x00\x00\x00"
                                  "\x01"
                                  "f\x00\x00\x00\x00\x00\x00\x00\xe0\x3f"
                                  "\x10u\x00\x07\x00\x00\x00"
                                  "\x04v\x00\x26\x00\x00\x00"
                                  "\x01"
                                  "0\x00\x00\x00\x00\x00\x00\x00\xf0\x3f"
                                  "\x01"
                                  "1\x00\x00\x00\x00\x00\x00\x00\x00\x40"
                                  "\x01"
                                  "2\x00\x00\x00\x00\x00\x00\x00\x08\x40"
                                  "\x00"
                                  "\x00";
    assert_int_equal(out.len, sizeof want - 1);
    assert_memory_equal(out.data, want, sizeof want - 1);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void expect_write_error(const sv_value *v, const sv_bson_opts *o, sv_status st,
                               const char *path)
{
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err = {0};
    sv_error_clear(&err);
    assert_int_equal(sv_bson_encode(v, o, &out, &err), st);
    assert_string_equal(err.path, path);
    assert_true(err.message[0] != 0);
    assert_int_equal(out.len, 0); /* nothing appended */
    sv_buf_free(&out);
}

static void test_write_errors(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    sv_array_append(doc, &arr, sv_null());
    sv_array_append(doc, &arr, sv_ref(3));
    sv_value m = sv_map(doc, 0);
    sv_map_append_str(doc, &m, "a", arr);
    expect_write_error(&m, NULL, SV_ERR_TYPE, "/a/1");
    expect_write_error(&arr, NULL, SV_ERR_TYPE, ""); /* root not a map */

    sv_value k = sv_map(doc, 0);
    sv_map_append(doc, &k, sv_int(1), sv_null()); /* BSON keys are strings */
    expect_write_error(&k, NULL, SV_ERR_TYPE, "/0");
    sv_value nul = sv_map(doc, 0);
    sv_map_append(doc, &nul, sv_str(doc, "a\0b", 3), sv_null());
    expect_write_error(&nul, NULL, SV_ERR_TYPE, "/a"); /* the path text stops at the NUL */

    sv_value u = sv_map(doc, 0);
    sv_map_append_str(doc, &u, "id", sv_with_tag(sv_strz(doc, "not-a-uuid"), SV_TAG_UUID));
    expect_write_error(&u, NULL, SV_ERR_TYPE, "/id");
    sv_value big = sv_map(doc, 0);
    sv_map_append_str(doc, &big, "n", sv_uint(UINT64_MAX));
    expect_write_error(&big, NULL, SV_ERR_RANGE, "/n");
    /* Resonite URLs that would not read back as themselves */
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = true;
    sv_value url = sv_map(doc, 0);
    sv_map_append_str(doc, &url, "u", sv_with_tag(sv_strz(doc, ""), SV_TAG_URL));
    expect_write_error(&url, &o, SV_ERR_TYPE, "/u");
    sv_value url2 = sv_map(doc, 0);
    sv_map_append_str(doc, &url2, "u", sv_with_tag(sv_strz(doc, "@x"), SV_TAG_URL));
    expect_write_error(&url2, &o, SV_ERR_TYPE, "/u");
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_types),
        cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_array_keys),
        cmocka_unit_test(test_urls),
        cmocka_unit_test(test_bsonspec_examples),
        cmocka_unit_test(test_write_other_trees),
        cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
