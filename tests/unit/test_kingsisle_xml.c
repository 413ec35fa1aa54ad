/* KingsIsle XML object files: the §8 example read without a type list
 * (text, repeated elements as lists, nested classes), errors with line and
 * column, and every fixture (except the binary string, which XML text
 * cannot hold) converted binary -> XML -> binary through the type list:
 * the values survive (padding bits and compressed payloads are binary-only,
 * so both sides are compared with those left out). */
#include "test_kingsisle_util.h"

static const char example[] =
    "<Objects>\n"
    "  <Class Name=\"class Example\">\n"
    "    <m_someString>Test</m_someString>\n"
    "    <m_someInt>1337</m_someInt>\n"
    "    <m_someObject><Class Name=\"class SomeObject\"><m_x>1</m_x></Class></m_someObject>\n"
    "    <m_someTuple>1,0,0,1</m_someTuple>\n"
    "    <m_listOfStrings>A</m_listOfStrings><m_listOfStrings>B</m_listOfStrings>\n"
    "    <m_empty/>\n"
    "  </Class>\n"
    "</Objects>\n";

static void test_example_untyped(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)example, sizeof example - 1,
                                             NULL, &v, &err),
                     SV_OK);
    size_t n;
    assert_string_equal(sv_get_str(sv_object_class(&v), &n), "class Example");
    assert_string_equal(sv_get_str(kt_field(&v, "m_someString"), &n), "Test");
    assert_string_equal(sv_get_str(kt_field(&v, "m_someInt"), &n), "1337");
    const sv_value *o = kt_field(&v, "m_someObject");
    assert_string_equal(sv_get_str(sv_object_class(o), &n), "class SomeObject");
    assert_string_equal(sv_get_str(kt_field(o, "m_x"), &n), "1");
    const sv_value *l = kt_field(&v, "m_listOfStrings");
    assert_int_equal(sv_kind_of(l), SV_ARRAY);
    assert_int_equal(sv_len(l), 2);
    assert_string_equal(sv_get_str(sv_array_at(l, 1), &n), "B");
    assert_int_equal(sv_kind_of(kt_field(&v, "m_empty")), SV_NULL);
    /* and written back, read again: the same tree */
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_kingsisle_xml_encode(&v, NULL, &out, &err), SV_OK);
    sv_value w;
    assert_int_equal(sv_kingsisle_xml_decode(doc, out.data, out.len, NULL, &w, &err), SV_OK);
    assert_true(sv_equal(&v, &w));
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void expect_error(const char *xml, sv_status st, const char *text, uint32_t line)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, strlen(xml), NULL, &v, &err), st);
    if (!strstr(err.message, text)) fail_msg("message '%s' lacks '%s'", err.message, text);
    assert_int_equal(err.line, line);
    sv_doc_free(doc);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("<Objects>\n<Class Name=\"a\"><m_x>1</m_y></Class></Objects>", SV_ERR_SYNTAX,
                 "mismatched tag", 2);
    expect_error("<Root/>", SV_ERR_SYNTAX, "not <Objects>", 1);
    expect_error("<Objects>\n\n<Thing/></Objects>", SV_ERR_SYNTAX, "where a <Class> belongs", 3);
    expect_error("<Objects><Class><m/></Class></Objects>", SV_ERR_SYNTAX, "without a Name", 1);
    expect_error("<Objects></Objects>", SV_ERR_SYNTAX, "no <Class>", 0);
    /* a deep bomb stops at the depth limit */
    static char bomb[20 * 1100 + 64];
    strcpy(bomb, "<Objects><Class Name=\"a\">");
    for (int i = 0; i < 1100; i++) strcat(bomb, "<m><Class Name=\"a\">");
    expect_error(bomb, SV_ERR_DEPTH, "depth limit", 1);
}

static const char *const fixtures[] = {
    "all-scalars-deep",       "all-scalars-shallow",  "bit-integers-deep",
    "bit-integers-shallow",   "bitflags-combined",    "bitflags-empty-string",
    "bitflags-int",           "bitflags-string",      "deep-size-boundary",
    "delta-encode-absent",    "delta-encode-present", "deprecated-deep",
    "deprecated-shallow",     "empty-string-no-realign", "ends-with-bits-deep",
    "ends-with-bits-shallow", "list-compact",         "list-simple",
    "nested-lists",           "nested-object",        "property-mask",
    "scoped-enum-int",        "scoped-enum-string",   "strings-compact",
    "strings-deep",           "strings-shallow",      "with-compression",
};

/* A copy of an object tree without any meta (binary-only details). */
static sv_value strip(sv_doc *doc, const sv_value *v)
{
    if (sv_kind_of(v) == SV_ARRAY) {
        sv_value a = sv_array(doc, sv_len(v));
        for (uint32_t i = 0; i < sv_len(v); i++) sv_array_items(&a)[i] = strip(doc, sv_array_at(v, i));
        return a;
    }
    if (sv_kind_of(v) != SV_OBJECT) return sv_copy(doc, v);
    sv_value o = sv_object(doc, sv_copy(doc, sv_object_class(v)), sv_len(v));
    for (uint32_t i = 0; i < sv_len(v); i++) {
        sv_pairs(&o)[i].key = sv_copy(doc, sv_key_at(v, i));
        sv_pairs(&o)[i].val = strip(doc, sv_val_at(v, i));
    }
    return o;
}

static void test_fixtures_through_xml(void **state)
{
    (void)state;
    if (!kt_present()) return;
    sv_kingsisle_types *t = kt_types("types.json");
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char file[128];
        snprintf(file, sizeof file, "%s.bin", fixtures[i]);
        size_t len;
        uint8_t *bytes = kt_sample(file, &len);
        sv_kingsisle_opts o;
        kt_config(fixtures[i], &o);
        o.types = t;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value a, b;
        sv_error err;
        assert_int_equal(sv_kingsisle_decode(doc, bytes, len, &o, &a, &err), SV_OK);
        sv_buf xml, bin1, bin2;
        sv_buf_init(&xml, NULL), sv_buf_init(&bin1, NULL), sv_buf_init(&bin2, NULL);
        if (sv_kingsisle_xml_encode(&a, &o, &xml, &err) != SV_OK) fail_msg("%s: %s", fixtures[i], err.message);
        if (sv_kingsisle_xml_decode(doc, xml.data, xml.len, &o, &b, &err) != SV_OK)
            fail_msg("%s: %s (line %u)", fixtures[i], err.message, err.line);
        sv_value sa = strip(doc, &a);
        assert_int_equal(sv_kingsisle_encode(&sa, &o, &bin1, &err), SV_OK);
        if (sv_kingsisle_encode(&b, &o, &bin2, &err) != SV_OK) fail_msg("%s: %s", fixtures[i], err.message);
        if (bin1.len != bin2.len || memcmp(bin1.data, bin2.data, bin1.len))
            fail_msg("%s: the values changed through XML:\n%.*s", fixtures[i], (int)xml.len, xml.data);
        sv_buf_free(&xml), sv_buf_free(&bin1), sv_buf_free(&bin2);
        sv_doc_free(doc);
        free(bytes);
    }
    sv_kingsisle_types_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_untyped),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_fixtures_through_xml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
