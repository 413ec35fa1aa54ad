/* KingsIsle XML object files in another layout than serval's: two-space
 * indents with each <Class> on one line and its properties inline (the
 * layout of the XML members of the KIWAD samples), no declaration, CRLF
 * line ends, nested classes inline. Decoding records the white space
 * between tags in the root's meta ("xml_layout"), encoding reproduces it:
 * the same bytes, also through typed JSON. Edits keep the layout; a tree
 * without the record is written in serval's own; a record that lies is an
 * error naming its path. */
#include "test_kingsisle_util.h"

/* Written from the samples' visible layout. */
static const char inline_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Objects>\n"
    "  <Class Name=\"class Item42\"><m_id>42925</m_id><m_name>zone</m_name></Class>\n"
    "  <Class Name=\"class Item1\"><m_id>56182</m_id><m_name>fire</m_name></Class>\n"
    "</Objects>\n";

/* serval's own layout for the same values. */
static const char own_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Objects>\n"
    "\t<Class Name=\"class Item42\">\n"
    "\t\t<m_id>42925</m_id>\n"
    "\t\t<m_name>zone</m_name>\n"
    "\t</Class>\n"
    "\t<Class Name=\"class Item1\">\n"
    "\t\t<m_id>56182</m_id>\n"
    "\t\t<m_name>fire</m_name>\n"
    "\t</Class>\n"
    "</Objects>\n";

static sv_value decode(sv_doc *doc, const char *xml)
{
    sv_value v;
    sv_error err;
    sv_status st = sv_kingsisle_xml_decode(doc, (const uint8_t *)xml, strlen(xml), NULL, &v, &err);
    if (st != SV_OK) fail_msg("decode: %s", err.message);
    return v;
}

/* The encoding of v must be exactly want. */
static void expect_bytes(const sv_value *v, const char *want)
{
    sv_buf out;
    sv_error err;
    sv_buf_init(&out, NULL);
    sv_status st = sv_kingsisle_xml_encode(v, NULL, &out, &err);
    if (st != SV_OK) fail_msg("encode: %s at %s", err.message, err.path);
    if (out.len != strlen(want) || memcmp(out.data, want, out.len) != 0)
        fail_msg("wrote\n%.*s\nwanted\n%s", (int)out.len, (const char *)out.data, want);
    sv_buf_free(&out);
}

static void expect_round_trip(const char *xml)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, xml);
    expect_bytes(&v, xml);
    sv_doc_free(doc);
}

static const sv_value *layout_of(const sv_value *root)
{
    const sv_value *m = sv_meta(root);
    return sv_kind_of(m) == SV_MAP ? sv_map_getz(m, "xml_layout") : NULL;
}

static void expect_gaps(const sv_value *rec, const char *key, const char *const *want, size_t n)
{
    const sv_value *a = sv_map_getz(rec, key);
    assert_non_null(a);
    assert_int_equal(sv_len(a), n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = sv_get_str(sv_array_at(a, i), &len);
        assert_int_equal(len, strlen(want[i]));
        assert_memory_equal(s, want[i], len);
    }
}

static void test_inline_layout_is_recorded_and_written_back(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, inline_xml);
    const sv_value *rec = layout_of(&v);
    assert_non_null(rec);
    /* before <Objects>, each <Class>, each property; before </Objects>, </Class> */
    static const char *const open[] = {"\n", "\n  ", ""};
    static const char *const close[] = {"\n", ""};
    expect_gaps(rec, "open", open, 3);
    expect_gaps(rec, "close", close, 2);
    size_t n;
    assert_string_equal(sv_get_str(sv_map_getz(rec, "end"), &n), "\n");
    assert_null(sv_map_getz(rec, "declaration"));
    expect_bytes(&v, inline_xml);
    sv_doc_free(doc);
}

static void test_own_layout_has_no_record(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, own_xml);
    assert_null(sv_meta(&v));
    expect_bytes(&v, own_xml);
    sv_doc_free(doc);
}

static void test_other_layouts(void **state)
{
    (void)state;
    /* no declaration, CRLF, a nested class inline, an empty class, a null */
    expect_round_trip("<Objects>\r\n"
                      "    <Class Name=\"a\"><m_o><Class Name=\"b\"><m_x>1</m_x></Class></m_o><m_n/></Class>\r\n"
                      "    <Class Name=\"c\"></Class>\r\n"
                      "</Objects>");
    /* one class: the record is on the object */
    expect_round_trip("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Objects>\n <Class Name=\"a\">\n  <m_x>1</m_x>\n </Class>\n</Objects>\n\n");
    /* nested classes on their own lines, two spaces a level */
    expect_round_trip("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Objects>\n  <Class Name=\"a\">\n"
                      "    <m_o>\n      <Class Name=\"b\">\n        <m_x>1</m_x>\n      </Class>\n    </m_o>\n"
                      "  </Class>\n</Objects>\n");
}

static void test_through_typed_json(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, inline_xml);
    sv_buf json;
    sv_error err;
    sv_buf_init(&json, NULL);
    assert_int_equal(sv_json_encode(&v, NULL, &json, &err), SV_OK);
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value w;
    assert_int_equal(sv_json_decode(doc2, (const char *)json.data, json.len, NULL, &w, &err), SV_OK);
    expect_bytes(&w, inline_xml);
    sv_buf_free(&json);
    sv_doc_free(doc2);
    sv_doc_free(doc);
}

static void test_edits_keep_the_layout(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, inline_xml);
    /* a changed value */
    sv_value *name = (sv_value *)kt_field(sv_array_at(&v, 1), "m_name");
    *name = sv_strz(doc, "storm");
    /* an added object takes the gaps of its level */
    sv_value obj = sv_object(doc, sv_strz(doc, "class Item7"), 0);
    assert_int_equal(sv_map_append_str(doc, &obj, "m_id", sv_strz(doc, "7")), SV_OK);
    assert_int_equal(sv_array_append(doc, &v, obj), SV_OK);
    expect_bytes(&v, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<Objects>\n"
                     "  <Class Name=\"class Item42\"><m_id>42925</m_id><m_name>zone</m_name></Class>\n"
                     "  <Class Name=\"class Item1\"><m_id>56182</m_id><m_name>storm</m_name></Class>\n"
                     "  <Class Name=\"class Item7\"><m_id>7</m_id></Class>\n"
                     "</Objects>\n");
    /* a nested object deeper than the record: serval's own gaps there */
    sv_value inner = sv_object(doc, sv_strz(doc, "b"), 0);
    assert_int_equal(sv_map_append_str(doc, &inner, "m_x", sv_strz(doc, "1")), SV_OK);
    sv_value outer = sv_object(doc, sv_strz(doc, "a"), 0);
    assert_int_equal(sv_map_append_str(doc, &outer, "m_o", inner), SV_OK);
    sv_value one = sv_array(doc, 0);
    assert_int_equal(sv_array_append(doc, &one, outer), SV_OK);
    assert_int_equal(sv_meta_set(doc, &one, *sv_meta(&v)), SV_OK);
    expect_bytes(&one, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Objects>\n"
                       "  <Class Name=\"a\"><m_o>\n\t\t\t<Class Name=\"b\">\n\t\t\t\t<m_x>1</m_x>\n\t\t\t</Class>"
                       "\n\t\t</m_o></Class>\n</Objects>\n");
    sv_doc_free(doc);
}

static void test_without_record_own_layout(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, inline_xml);
    sv_value bare = sv_array(doc, 0);
    for (uint32_t i = 0; i < sv_len(&v); i++)
        assert_int_equal(sv_array_append(doc, &bare, *sv_array_at(&v, i)), SV_OK);
    expect_bytes(&bare, own_xml);
    sv_doc_free(doc);
}

static void test_irregular_layout_is_not_recorded(void **state)
{
    (void)state;
    /* two properties of one level with different gaps, and a comment: no
     * layout of one gap per level; written in serval's own */
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = decode(doc, "<Objects><Class Name=\"a\"> <m_x>1</m_x>  <m_y>2</m_y></Class></Objects>");
    assert_null(sv_meta(&v));
    v = decode(doc, "<Objects><Class Name=\"a\"><!-- c --><m_x>1</m_x></Class></Objects>");
    assert_null(sv_meta(&v));
    sv_doc_free(doc);
}

/* null in a record stands for serval's own gap at that level. */
static void test_null_gap_is_the_own(void **state)
{
    (void)state;
    const char json[] = "{\"$class\": \"a\", \"$meta\": {\"xml_layout\": {\"open\": [null, null, \"\"], "
                        "\"close\": [null, \"\"], \"end\": null}}, \"m_x\": \"1\"}";
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_json_decode(doc, json, strlen(json), NULL, &v, &err), SV_OK);
    expect_bytes(&v, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Objects>\n\t<Class Name=\"a\"><m_x>1</m_x></Class>\n</Objects>\n");
    sv_doc_free(doc);
}

/* A record given as typed JSON must fail to write with message and path. */
static void expect_refused(const char *meta_json, const char *path, const char *text)
{
    char json[1024];
    snprintf(json, sizeof json, "{\"$class\": \"a\", \"$meta\": {\"xml_layout\": %s}, \"m_x\": \"1\"}", meta_json);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_json_decode(doc, json, strlen(json), NULL, &v, &err), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_xml_encode(&v, NULL, &out, &err), SV_ERR_TYPE);
    assert_int_equal(out.len, 0);
    assert_string_equal(err.path, path);
    if (!strstr(err.message, text)) fail_msg("message '%s' lacks '%s'", err.message, text);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_lying_record_is_refused(void **state)
{
    (void)state;
    expect_refused("{\"open\": [\"\\n\", \"<x/>\"]}", "/$meta/xml_layout/open/1", "white space");
    expect_refused("{\"close\": [1]}", "/$meta/xml_layout/close/0", "white space");
    expect_refused("{\"open\": \"\\n\"}", "/$meta/xml_layout/open", "array");
    expect_refused("{\"end\": \"x\"}", "/$meta/xml_layout/end", "white space");
    expect_refused("{\"declaration\": \"no\"}", "/$meta/xml_layout/declaration", "true or false");
    expect_refused("{\"indent\": \"  \"}", "/$meta/xml_layout/indent", "unknown key");
    expect_refused("[1]", "/$meta/xml_layout", "map");
    /* a gap longer than any the reader records */
    char big[600];
    memset(big, ' ', 300);
    snprintf(big + 300, sizeof big - 300, "\"]}");
    char rec[700];
    snprintf(rec, sizeof rec, "{\"open\": [\"%s", big);
    expect_refused(rec, "/$meta/xml_layout/open/0", "at most 256");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_layout_is_recorded_and_written_back),
        cmocka_unit_test(test_own_layout_has_no_record),
        cmocka_unit_test(test_other_layouts),
        cmocka_unit_test(test_through_typed_json),
        cmocka_unit_test(test_edits_keep_the_layout),
        cmocka_unit_test(test_without_record_own_layout),
        cmocka_unit_test(test_irregular_layout_is_not_recorded),
        cmocka_unit_test(test_lying_record_is_refused),
        cmocka_unit_test(test_null_gap_is_the_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
