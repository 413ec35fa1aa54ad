/* KingsIsle ObjectProperty: katsuba's 28 fixtures (../shared/samples/
 * kingsisle/), each decoded with its config and the fixture type list, and
 * written back byte for byte; the two should-fail files; schema-less deep
 * decoding; the XML type list against the JSON one.
 *
 * Expected values are the ones katsuba's fixture generator wrote (spec §9's
 * worked examples: A, B, C, E, F, G, H, I, J, K) -- read off the bytes by the
 * spec, not by this code. */
#include "test_kingsisle_util.h"

static const char *const fixtures[] = {
    "all-scalars-deep",      "all-scalars-shallow",     "binary-string",
    "bit-integers-deep",     "bit-integers-shallow",    "bitflags-combined",
    "bitflags-empty-string", "bitflags-int",            "bitflags-string",
    "deep-size-boundary",    "delta-encode-absent",     "delta-encode-present",
    "deprecated-deep",       "deprecated-shallow",      "empty-string-no-realign",
    "ends-with-bits-deep",   "ends-with-bits-shallow",  "list-compact",
    "list-simple",           "nested-lists",            "nested-object",
    "property-mask",         "scoped-enum-int",         "scoped-enum-string",
    "strings-compact",       "strings-deep",            "strings-shallow",
    "with-compression",
};
#define NFIX (sizeof fixtures / sizeof fixtures[0])

static sv_kingsisle_types *types_json, *types_xml;

static int setup(void **state)
{
    (void)state;
    if (!kt_present()) return 0;
    types_json = kt_types("types.json");
    types_xml = kt_types("types.xml");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sv_kingsisle_types_free(types_json);
    sv_kingsisle_types_free(types_xml);
    return 0;
}

/* Decodes fixture name with its config and types; returns the document. */
static sv_doc *decode_fixture(const char *name, const sv_kingsisle_types *t, sv_value *root,
                              uint8_t **bytes, size_t *len)
{
    char file[256];
    snprintf(file, sizeof file, "%s.bin", name);
    *bytes = kt_sample(file, len);
    assert_non_null(*bytes);
    sv_kingsisle_opts o;
    kt_config(name, &o);
    o.types = t;
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_kingsisle_decode(doc, *bytes, *len, &o, root, &err);
    if (st != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fail_msg("%s: %s", name, msg);
    }
    return doc;
}

static void test_all_round_trip(void **state)
{
    (void)state;
    if (!types_json) return;
    size_t exact = 0;
    for (size_t i = 0; i < NFIX; i++) {
        sv_value root;
        uint8_t *bytes;
        size_t len;
        sv_doc *doc = decode_fixture(fixtures[i], types_json, &root, &bytes, &len);
        sv_kingsisle_opts o;
        kt_config(fixtures[i], &o);
        o.types = types_json;
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error err;
        sv_error_clear(&err);
        if (sv_kingsisle_encode(&root, &o, &out, &err) != SV_OK)
            fail_msg("%s: encode: %s", fixtures[i], err.message);
        if (out.len == len && memcmp(out.data, bytes, len) == 0)
            exact++;
        else
            print_error("%s: re-encoded bytes differ (%zu vs %zu bytes)\n", fixtures[i], out.len,
                        len);
        sv_buf_free(&out);
        sv_doc_free(doc);
        free(bytes);
    }
    printf("kingsisle fixtures: %zu/%zu decode, %zu/%zu byte-exact\n", NFIX, NFIX, exact, NFIX);
    assert_int_equal(exact, NFIX);
}

/* spec §9 A: every scalar of AllScalars, shallow. */
static void test_all_scalars(void **state)
{
    (void)state;
    if (!types_json) return;
    {
        sv_value r;
        uint8_t *b;
        size_t n;
        sv_doc *doc = decode_fixture("all-scalars-shallow", types_json, &r, &b, &n);
        size_t cl;
        assert_string_equal(sv_get_str(sv_object_class(&r), &cl), "class AllScalars");
        assert_true(sv_get_bool(kt_field(&r, "m_bool")));
        assert_int_equal(sv_get_int(kt_field(&r, "m_char")), -42);
        assert_int_equal(sv_get_uint(kt_field(&r, "m_uchar")), 200);
        assert_int_equal(sv_get_int(kt_field(&r, "m_short")), -1000);
        assert_int_equal(sv_get_uint(kt_field(&r, "m_ushort")), 50000);
        assert_int_equal(sv_get_int(kt_field(&r, "m_int")), -123456);
        assert_int_equal(sv_get_uint(kt_field(&r, "m_uint")), 0xDEADBEEFu);
        assert_true(kt_field(&r, "m_float")->as.f32 == 3.14159f);
        assert_true(kt_field(&r, "m_double")->as.f64 == 2.718281828);
        assert_true(sv_get_uint(kt_field(&r, "m_int64")) == UINT64_C(0x123456789ABCDEF0));
        sv_doc_free(doc);
        free(b);
    }
    /* §9 D: the deep variant's m_char is 7f, after 7 padding bits */
    sv_value r;
    uint8_t *b;
    size_t n;
    sv_doc *doc = decode_fixture("all-scalars-deep", types_json, &r, &b, &n);
    assert_int_equal(sv_get_int(kt_field(&r, "m_char")), 127);
    sv_doc_free(doc);
    free(b);
}

/* spec §9 B: the bit integers, shallow. */
static void test_bit_integers(void **state)
{
    (void)state;
    if (!types_json) return;
    static const char *const f[] = {"m_bi2", "m_bui2", "m_bi3", "m_bui3", "m_bi4", "m_bui4",
                                    "m_bi5", "m_bui5", "m_bi6", "m_bui6", "m_bi7", "m_bui7",
                                    "m_s24", "m_u24"};
    static const int64_t want[] = {-2, 3, -4, 7, -8, 15, -16, 31, -32, 63, -64, 127,
                                   -8388608, 16777215};
    const char *names[] = {"bit-integers-shallow"};
    for (int k = 0; k < 1; k++) {
        sv_value r;
        uint8_t *b;
        size_t n;
        sv_doc *doc = decode_fixture(names[k], types_json, &r, &b, &n);
        for (int i = 0; i < 14; i++) assert_int_equal(sv_get_int(kt_field(&r, f[i])), want[i]);
        sv_doc_free(doc);
        free(b);
    }
}

/* spec §9 E, F, G, H, I, K. */
static void test_shapes(void **state)
{
    (void)state;
    if (!types_json) return;
    sv_value r;
    uint8_t *b;
    size_t n, l;
    sv_doc *doc = decode_fixture("strings-shallow", types_json, &r, &b, &n);
    assert_string_equal(sv_get_str(kt_field(&r, "m_string"), &l), "Hello, World!");
    assert_int_equal(sv_get_str(kt_field(&r, "m_wstring"), &l)[0], 'W');
    assert_true(kt_field(&r, "m_wstring")->flags & SV_F_UTF16);
    sv_doc_free(doc), free(b);

    doc = decode_fixture("list-compact", types_json, &r, &b, &n);
    const sv_value *vals = kt_field(&r, "m_values");
    assert_int_equal(sv_len(vals), 10);
    for (uint32_t i = 0; i < 10; i++) assert_int_equal(sv_get_uint(sv_array_at(vals, i)), i);
    assert_int_equal(sv_get_uint(kt_field(&r, "m_count")), 10);
    sv_doc_free(doc), free(b);

    doc = decode_fixture("bitflags-string", types_json, &r, &b, &n);
    assert_string_equal(sv_get_str(kt_field(&r, "m_flags"), &l), "FLAG_B|FLAG_C");
    assert_int_equal(sv_tag_of(kt_field(&r, "m_flags")), SV_TAG_ENUM);
    sv_doc_free(doc), free(b);

    /* an integer enum the list names reads as its name (OPTION_B is 2) */
    doc = decode_fixture("scoped-enum-int", types_json, &r, &b, &n);
    assert_string_equal(sv_get_str(kt_field(&r, "m_enum"), &l), "OPTION_B");
    assert_int_equal(sv_tag_of(kt_field(&r, "m_enum")), SV_TAG_ENUM);
    sv_doc_free(doc), free(b);

    doc = decode_fixture("delta-encode-present", types_json, &r, &b, &n);
    assert_int_equal(sv_get_uint(kt_field(&r, "m_delta")), 999);
    assert_int_equal(sv_get_uint(kt_field(&r, "m_after")), 20);
    sv_doc_free(doc), free(b);
    doc = decode_fixture("delta-encode-absent", types_json, &r, &b, &n);
    assert_null(sv_map_getz(&r, "m_delta"));
    assert_int_equal(sv_get_uint(kt_field(&r, "m_after")), 20);
    sv_doc_free(doc), free(b);

    doc = decode_fixture("nested-object", types_json, &r, &b, &n);
    const sv_value *in = kt_field(&r, "m_inner");
    assert_string_equal(sv_get_str(sv_object_class(in), &l), "class Inner");
    assert_int_equal(sv_get_uint(kt_field(in, "m_value")), 42);
    assert_string_equal(sv_get_str(kt_field(in, "m_name"), &l), "nested");
    assert_int_equal(sv_get_uint(kt_field(&r, "m_count")), 1);
    sv_doc_free(doc), free(b);

    /* §9 K: shallow keeps the deprecated property by default */
    doc = decode_fixture("deprecated-shallow", types_json, &r, &b, &n);
    assert_int_equal(sv_get_uint(kt_field(&r, "m_normal")), 100);
    assert_int_equal(sv_get_uint(kt_field(&r, "m_deprecated")), 200);
    assert_int_equal(sv_get_uint(kt_field(&r, "m_after")), 300);
    sv_doc_free(doc), free(b);

    /* §10: katsuba's skip rule reads 200 for m_after and leaves 32 bits */
    {
        size_t len;
        uint8_t *bytes = kt_sample("deprecated-shallow.bin", &len);
        sv_kingsisle_opts o;
        kt_config("deprecated-shallow", &o);
        o.types = types_json;
        o.skip_deprecated = true;
        sv_error err;
        doc = sv_doc_new(NULL);
        assert_int_equal(sv_kingsisle_decode(doc, bytes, len, &o, &r, &err), SV_OK);
        assert_null(sv_map_getz(&r, "m_deprecated"));
        assert_int_equal(sv_get_uint(kt_field(&r, "m_after")), 200);
        assert_int_equal(sv_len(sv_map_getz(sv_meta(&r), "trailing")), 4); /* 2c010000 kept */
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_kingsisle_encode(&r, &o, &out, &err), SV_OK);
        assert_int_equal(out.len, len);
        assert_memory_equal(out.data, bytes, len);
        sv_buf_free(&out);
        free(bytes);
    }
    sv_doc_free(doc);

    /* §9 J: manual wrapper around flags 9 and a zero marker */
    doc = decode_fixture("with-compression", types_json, &r, &b, &n);
    assert_int_equal(sv_get_uint(sv_map_getz(sv_meta(&r), "flags")), 9);
    assert_int_equal(sv_get_uint(sv_map_getz(sv_meta(&r), "marker")), 0);
    sv_doc_free(doc), free(b);
}

/* The non-zero padding of the spec's list is kept in meta, and only there. */
static void test_padding_meta(void **state)
{
    (void)state;
    if (!types_json) return;
    sv_value r;
    uint8_t *b;
    size_t n;
    /* §9 H: 61 = present bit 1, padding 0x30 (the 7 bits above it: 0x30) */
    sv_doc *doc = decode_fixture("delta-encode-present", types_json, &r, &b, &n);
    const sv_value *pads = sv_map_getz(sv_meta(&r), "padding");
    assert_int_equal(sv_len(pads), 2);
    assert_int_equal(((const uint32_t *)sv_numbers(pads))[0], 0);
    assert_int_equal(((const uint32_t *)sv_numbers(pads))[1], 0x30);
    sv_doc_free(doc), free(b);
    doc = decode_fixture("deep-size-boundary", types_json, &r, &b, &n);
    assert_null(sv_map_getz(sv_meta(&r), "padding")); /* all padding is zero */
    sv_doc_free(doc), free(b);
}

static void expect_failure(const char *name, sv_status want, const char *text)
{
    char file[256];
    snprintf(file, sizeof file, "should-fail/%s.bin", name);
    size_t len;
    uint8_t *bytes = kt_sample(file, &len);
    assert_non_null(bytes);
    snprintf(file, sizeof file, "should-fail/%s", name);
    sv_kingsisle_opts o;
    kt_config(file, &o);
    o.types = types_json;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_decode(doc, bytes, len, &o, &v, &err), want);
    assert_non_null(strstr(err.message, text));
    sv_doc_free(doc);
    free(bytes);
}

static void test_should_fail(void **state)
{
    (void)state;
    if (!types_json) return;
    expect_failure("null-root", SV_ERR_SYNTAX, "root object is null");
    expect_failure("delta-encode-forbid-absent", SV_ERR_SYNTAX, "forbid delta encoding");
}

/* The class-list XML computes the hashes the JSON list carries (§2.3):
 * both lists give the same trees. */
static void test_xml_types_agree(void **state)
{
    (void)state;
    if (!types_json) return;
    assert_int_equal(sv_kingsisle_types_class_count(types_xml),
                     sv_kingsisle_types_class_count(types_json));
    for (size_t i = 0; i < NFIX; i++) {
        sv_value a, b;
        uint8_t *x, *y;
        size_t n;
        sv_doc *da = decode_fixture(fixtures[i], types_json, &a, &x, &n);
        sv_doc *db = decode_fixture(fixtures[i], types_xml, &b, &y, &n);
        if (!sv_equal(&a, &b)) fail_msg("%s: the XML type list decodes differently", fixtures[i]);
        sv_doc_free(da), sv_doc_free(db), free(x), free(y);
    }
}

/* Deep fixtures without a type list: hashes for names, raw bits, and the
 * same bytes back. */
static void test_schemaless_deep(void **state)
{
    (void)state;
    if (!types_json) return;
    int deep = 0;
    for (size_t i = 0; i < NFIX; i++) {
        sv_kingsisle_opts o;
        kt_config(fixtures[i], &o);
        if (o.shallow) continue;
        deep++;
        sv_value r;
        uint8_t *b;
        size_t n;
        sv_doc *doc = decode_fixture(fixtures[i], NULL, &r, &b, &n);
        assert_int_equal(sv_kind_of(sv_object_class(&r)), SV_UINT);
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error err;
        if (sv_kingsisle_encode(&r, &o, &out, &err) != SV_OK) fail_msg("%s: %s", fixtures[i], err.message);
        assert_int_equal(out.len, n);
        assert_memory_equal(out.data, b, n);
        sv_buf_free(&out);
        sv_doc_free(doc), free(b);
    }
    assert_int_equal(deep, 6);
    /* §9 C: the minimal deep object, by hash */
    sv_value r;
    uint8_t *b;
    size_t n;
    sv_doc *doc = decode_fixture("deep-size-boundary", NULL, &r, &b, &n);
    assert_int_equal(sv_get_uint(sv_object_class(&r)), 415829484);
    const sv_value *first = kt_field(&r, "1005712149");
    assert_int_equal(sv_get_uint(sv_map_getz(first, "bits")), 32);
    size_t l;
    assert_memory_equal(sv_get_str(sv_map_getz(first, "data"), &l), "\x11\x11\x11\x11", 4);
    sv_doc_free(doc), free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_round_trip), cmocka_unit_test(test_all_scalars),
        cmocka_unit_test(test_bit_integers),   cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_padding_meta),   cmocka_unit_test(test_should_fail),
        cmocka_unit_test(test_xml_types_agree), cmocka_unit_test(test_schemaless_deep),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
