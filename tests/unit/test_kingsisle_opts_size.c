/* sv_kingsisle_opts is versioned as every options struct is (registry.h):
 * the binary and XML codecs read only the members inside struct_size, and
 * refuse a struct never given to sv_kingsisle_opts_init (struct_size 0)
 * with SV_ERR_USAGE instead of running on defaults. */
#include "test_kingsisle_util.h"

static const char xml[] =
    "<Objects>\n"
    "  <Class Name=\"class Example\">\n"
    "    <m_someInt>1337</m_someInt>\n"
    "    <m_someObject><Class Name=\"class SomeObject\"><m_x>1</m_x></Class></m_someObject>\n"
    "  </Class>\n"
    "</Objects>\n";

#define END_OF(type, m) ((uint32_t)(offsetof(type, m) + sizeof(((type *)0)->m)))

static void assert_usage(sv_status st, const sv_error *err, const char *format)
{
    assert_int_equal(st, SV_ERR_USAGE);
    assert_string_equal(err->format, format);
    if (!strstr(err->message, "sv_kingsisle_opts.struct_size is 0"))
        fail_msg("message '%s' does not name the struct_size", err->message);
}

/* A deep stream with flags 0, which every default reads and writes back. */
static uint8_t *binary_vector(size_t *len)
{
    uint8_t *b = kt_read("vectors/kingsisle/tiny-deep-flags0.bin", len);
    if (!b || !*len) fail_msg("missing tests/vectors/kingsisle/tiny-deep-flags0.bin");
    return b;
}

/* The example as a tree, decoded with every default. */
static sv_value example_tree(sv_doc *doc)
{
    sv_value v;
    sv_error err;
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, sizeof xml - 1, NULL, &v,
                                             &err),
                     SV_OK);
    return v;
}

static void test_zeroed_struct_is_a_usage_error(void **state)
{
    (void)state;
    sv_kingsisle_opts zero;
    memset(&zero, 0, sizeof zero);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value tree = example_tree(doc), v;
    sv_error err;
    sv_buf out;
    sv_buf_init(&out, NULL);

    sv_error_clear(&err);
    assert_usage(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, sizeof xml - 1, &zero, &v,
                                         &err),
                 &err, "kingsisle-xml");
    sv_error_clear(&err);
    assert_usage(sv_kingsisle_xml_encode(&tree, &zero, &out, &err), &err, "kingsisle-xml");
    assert_int_equal(out.len, 0);

    /* the binary codec: a deep stream read with every default (no type
     * list: raw bits), then with the zeroed struct, then written */
    size_t len;
    uint8_t *bin = binary_vector(&len);
    sv_value raw;
    assert_int_equal(sv_kingsisle_decode(doc, bin, len, NULL, &raw, &err), SV_OK);
    sv_error_clear(&err);
    assert_usage(sv_kingsisle_decode(doc, bin, len, &zero, &v, &err), &err, "kingsisle");
    assert_int_equal(sv_kingsisle_encode(&raw, NULL, &out, &err), SV_OK);
    assert_memory_equal(out.data, bin, len);
    out.len = 0;
    sv_error_clear(&err);
    assert_usage(sv_kingsisle_encode(&raw, &zero, &out, &err), &err, "kingsisle");
    assert_int_equal(out.len, 0);

    free(bin);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

/* The XML reader took limits from any struct, whatever its struct_size. */
static void test_xml_limits_only_inside_struct_size(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.limits.max_depth = 1; /* the example nests deeper */
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, sizeof xml - 1, &o, &v,
                                             &err),
                     SV_ERR_DEPTH);
    /* an older struct that ends at the member before limits: limits stay
     * at their defaults, the depth set beyond it is not read */
    o.struct_size = END_OF(sv_kingsisle_opts, types);
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, sizeof xml - 1, &o, &v,
                                             &err),
                     SV_OK);
    /* one that ends inside limits: the same */
    o.struct_size = END_OF(sv_kingsisle_opts, limits) - 1;
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, sizeof xml - 1, &o, &v,
                                             &err),
                     SV_OK);
    o.struct_size = END_OF(sv_kingsisle_opts, limits);
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, sizeof xml - 1, &o, &v,
                                             &err),
                     SV_ERR_DEPTH);
    sv_doc_free(doc);
}

/* Every older size (the end of each member) is accepted by all four codecs. */
static void test_every_older_size_is_accepted(void **state)
{
    (void)state;
    const uint32_t sizes[] = {
        END_OF(sv_kingsisle_opts, shallow),       END_OF(sv_kingsisle_opts, compress),
        END_OF(sv_kingsisle_opts, flags),         END_OF(sv_kingsisle_opts, property_mask),
        END_OF(sv_kingsisle_opts, skip_deprecated), END_OF(sv_kingsisle_opts, zlib_level),
        END_OF(sv_kingsisle_opts, types),         END_OF(sv_kingsisle_opts, limits),
        END_OF(sv_kingsisle_opts, given),         END_OF(sv_kingsisle_opts, skip_unknown_types),
        END_OF(sv_kingsisle_opts, warn),          END_OF(sv_kingsisle_opts, warn_ctx),
        (uint32_t)sizeof(sv_kingsisle_opts),
    };
    sv_doc *doc = sv_doc_new(NULL);
    sv_value tree = example_tree(doc), v;
    sv_error err;
    size_t len;
    uint8_t *bin = binary_vector(&len);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        sv_kingsisle_opts o;
        sv_kingsisle_opts_init(&o);
        o.struct_size = sizes[i];
        sv_buf x, b;
        sv_buf_init(&x, NULL), sv_buf_init(&b, NULL);
        assert_int_equal(sv_kingsisle_xml_encode(&tree, &o, &x, &err), SV_OK);
        assert_int_equal(sv_kingsisle_xml_decode(doc, x.data, x.len, &o, &v, &err), SV_OK);
        assert_int_equal(sv_kingsisle_decode(doc, bin, len, &o, &v, &err), SV_OK);
        assert_int_equal(sv_kingsisle_encode(&v, &o, &b, &err), SV_OK);
        assert_int_equal(b.len, len);
        assert_memory_equal(b.data, bin, len);
        sv_buf_free(&x), sv_buf_free(&b);
    }
    free(bin);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zeroed_struct_is_a_usage_error),
        cmocka_unit_test(test_xml_limits_only_inside_struct_size),
        cmocka_unit_test(test_every_older_size_is_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
