/* A class whose property points to an object of its own class (a linked
 * list, a tree, a scene graph), as the game type lists have them: "class
 * HxNode*" or "class SharedPointer<class HxNode>". Only holding itself by
 * value would be an infinite object; through a pointer the list must load
 * (directly and as a schema, which is how --schema reads it) and the data
 * must decode and encode byte for byte. The streams are assembled by hand
 * from the spec's byte rules (kingsisle-objectproperty.md §0, §5). */
#include "test_kingsisle_util.h"

/* wiztype JSON v2 (§7.1). The hashes are the list's own (they are taken
 * from the list, never recomputed), chosen here so that the bytes below
 * are plain to read: class 0x11223344, m_value 0x0A0B0C0D, m_next
 * 0x01020304. Flags 31: written under the default mask 24. */
static const char wiztype[] =
    "{\"version\": 2, \"classes\": {\"287454020\": {\"name\": \"class HxNode\", \"hash\": 287454020,"
    " \"bases\": [\"PropertyClass\"], \"properties\": {"
    "  \"m_value\": {\"type\": \"unsigned int\", \"id\": 0, \"flags\": 31, \"dynamic\": false,"
    "               \"pointer\": false, \"hash\": 168496141},"
    "  \"m_next\": {\"type\": \"class HxNode*\", \"id\": 1, \"flags\": 31, \"dynamic\": false,"
    "              \"pointer\": true, \"hash\": 16909060}}}}}";

/* The same class in KI's class-list XML (§7.2), a SharedPointer beside the
 * raw pointer and a list of children. */
static const char classlist[] =
    "<ClassList><Class Name=\"class HxNode\" Base=\"class PropertyClass\">"
    "<Property Name=\"m_value\" PropertyId=\"0\" Type=\"unsigned int\" Flags=\"31\"/>"
    "<Property Name=\"m_next\" PropertyId=\"1\" Type=\"class HxNode*\" Flags=\"31\""
    " Pointer=\"true\"/>"
    "<Property Name=\"m_parent\" PropertyId=\"2\" Type=\"class SharedPointer&lt;class HxNode&gt;\""
    " Flags=\"31\"/>"
    "<Property Name=\"m_children\" PropertyId=\"3\" Type=\"class HxNode*\" Flags=\"31\""
    " Dynamic=\"true\" Pointer=\"true\"/>"
    "</Class></ClassList>";

/* HxNode{m_value 1, m_next HxNode{m_value 2, m_next null}}, shallow (§5.2,
 * flags 0: no flags word, no compression marker): each object is its
 * aligned u32 tag, then its properties in id order; unsigned int is an
 * aligned u32 (§6.1); a null object is the tag 0 alone (§5.1). */
static const uint8_t shallow[] = {
    0x44, 0x33, 0x22, 0x11, /* tag class HxNode */
    0x01, 0x00, 0x00, 0x00, /* m_value 1 */
    0x44, 0x33, 0x22, 0x11, /* m_next: tag class HxNode */
    0x02, 0x00, 0x00, 0x00, /*   m_value 2 */
    0x00, 0x00, 0x00, 0x00, /*   m_next: null */
};

/* The same deep (§5.3): after the tag a u32 object_bits (from its own start
 * to the end of the last value), then per property {u32 prop_bits, u32
 * hash, value} (everything here is aligned, so no padding). A u32 property
 * is 32 + 32 + 32 = 96 bits; the null m_next 96 too (its value is the tag
 * 0 alone). Inner object: object_bits = 32 + 96 + 96 = 224 (0xe0), its
 * value 32 (tag) + 224 = 256 bits, so the outer m_next is 64 + 256 = 320
 * (0x140) and the outer object_bits 32 + 96 + 320 = 448 (0x1c0). */
static const uint8_t deep[] = {
    0x44, 0x33, 0x22, 0x11, 0xc0, 0x01, 0x00, 0x00, /* tag, object_bits 448 */
    0x60, 0x00, 0x00, 0x00, 0x0d, 0x0c, 0x0b, 0x0a, 0x01, 0x00, 0x00, 0x00, /* m_value 1 */
    0x40, 0x01, 0x00, 0x00, 0x04, 0x03, 0x02, 0x01,                         /* m_next, 320 */
    0x44, 0x33, 0x22, 0x11, 0xe0, 0x00, 0x00, 0x00, /*   tag, object_bits 224 */
    0x60, 0x00, 0x00, 0x00, 0x0d, 0x0c, 0x0b, 0x0a, 0x02, 0x00, 0x00, 0x00, /* m_value 2 */
    0x60, 0x00, 0x00, 0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, /* m_next null */
};

static sv_schema *schema_of(const char *text, const char *name)
{
    sv_schema *s = NULL;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_schema_load(NULL, (const uint8_t *)text, strlen(text), name, &s, &err);
    if (st != SV_OK) fail_msg("%s: %s", name, err.message);
    return s;
}

/* The field's schema type: a pointer to the class itself. */
static void assert_points_to_self(const sv_schema *s, const char *field, const char *type)
{
    const sv_schema_class *c = sv_schema_class_by_name(s, "class HxNode", 12);
    assert_non_null(c);
    const sv_schema_field *f = sv_schema_field_by_name(c, field, strlen(field));
    assert_non_null(f);
    assert_string_equal(f->type->text, type);
}

static void test_wiztype_self_pointer_loads(void **state)
{
    (void)state;
    sv_schema *s = schema_of(wiztype, "hxnode.json");
    assert_points_to_self(s, "m_next", "ptr<class HxNode>");
    sv_schema_free(s);
}

static void test_classlist_self_pointer_loads(void **state)
{
    (void)state;
    sv_schema *s = schema_of(classlist, "hxnode.xml");
    assert_points_to_self(s, "m_next", "ptr<class HxNode>");
    assert_points_to_self(s, "m_parent", "shared<class HxNode>");
    assert_points_to_self(s, "m_children", "vector<ptr<class HxNode>>");
    /* and back to a type list that keeps the list's spelling, which the
     * property hash is made of (§2.3) */
    sv_kingsisle_types *t = NULL;
    sv_error err;
    assert_int_equal(sv_kingsisle_types_from_schema(NULL, s, &t, &err), SV_OK);
    sv_kingsisle_prop_info p;
    bool found = false;
    for (size_t j = 0; sv_kingsisle_types_prop_at(t, 0, j, &p); j++) {
        if (strcmp(p.name, "m_parent") != 0) continue;
        assert_string_equal(p.type, "class SharedPointer<class HxNode>");
        found = true;
    }
    assert_true(found);
    sv_kingsisle_types_free(t);
    sv_schema_free(s);
}

/* Decodes bytes with types, checks the two-deep list, encodes it back. */
static void round_trip(const sv_kingsisle_types *t, bool is_shallow, const uint8_t *bytes,
                       size_t len)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.shallow = is_shallow;
    o.types = t;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, bytes, len, &o, &v, &err) != SV_OK)
        fail_msg("%s: %s", is_shallow ? "shallow" : "deep", err.message);
    assert_int_equal(sv_kind_of(&v), SV_OBJECT);
    assert_string_equal(sv_get_str(sv_object_class(&v), NULL), "class HxNode");
    assert_int_equal(sv_get_uint(sv_map_getz(&v, "m_value")), 1);
    const sv_value *next = sv_map_getz(&v, "m_next");
    assert_int_equal(sv_kind_of(next), SV_OBJECT);
    assert_string_equal(sv_get_str(sv_object_class(next), NULL), "class HxNode");
    assert_int_equal(sv_get_uint(sv_map_getz(next, "m_value")), 2);
    assert_int_equal(sv_kind_of(sv_map_getz(next, "m_next")), SV_NULL);
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (sv_kingsisle_encode(&v, &o, &out, &err) != SV_OK) fail_msg("encode: %s", err.message);
    assert_int_equal(out.len, len);
    assert_memory_equal(out.data, bytes, len);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_linked_list_round_trips(void **state)
{
    (void)state;
    /* the list as the codec reads it */
    sv_kingsisle_types *direct = sv_kingsisle_types_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_types_add(direct, (const uint8_t *)wiztype, strlen(wiztype), "hxnode.json",
                               &err) != SV_OK)
        fail_msg("%s", err.message);
    round_trip(direct, true, shallow, sizeof shallow);
    round_trip(direct, false, deep, sizeof deep);
    sv_kingsisle_types_free(direct);
    /* and as --schema reads it: a schema, compiled back */
    sv_schema *s = schema_of(wiztype, "hxnode.json");
    sv_kingsisle_types *bridged = NULL;
    assert_int_equal(sv_kingsisle_types_from_schema(NULL, s, &bridged, &err), SV_OK);
    round_trip(bridged, true, shallow, sizeof shallow);
    round_trip(bridged, false, deep, sizeof deep);
    sv_kingsisle_types_free(bridged);
    sv_schema_free(s);
}

/* By value a class still may not hold itself. */
static void test_self_by_value_refused(void **state)
{
    (void)state;
    static const char by_value[] =
        "{\"version\": 2, \"classes\": {\"7\": {\"name\": \"class Loop\", \"hash\": 7,"
        " \"properties\": {\"m_self\": {\"type\": \"class Loop\", \"id\": 0, \"flags\": 31,"
        " \"hash\": 8}}}}}";
    sv_schema *s = NULL;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_schema_load(NULL, (const uint8_t *)by_value, strlen(by_value), "loop.json",
                                    &s, &err),
                     SV_ERR_SYNTAX);
    if (!strstr(err.message, "contains itself by value")) fail_msg("%s", err.message);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wiztype_self_pointer_loads),
        cmocka_unit_test(test_classlist_self_pointer_loads),
        cmocka_unit_test(test_linked_list_round_trips),
        cmocka_unit_test(test_self_by_value_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
