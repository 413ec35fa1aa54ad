/* KingsIsle type lists through the schema layer: sv_schema_load picks the
 * KingsIsle loader by content (wiztype JSON v1/v2, class-list XML), the
 * schema keeps the list's hashes, ids and flags, and a type list compiled
 * back from the schema decodes every fixture to the same tree as the list
 * itself; enum options without __DEFAULT and __BASECLASS (§6.4); property
 * order by id (§7.1). Expected hashes come from the spec's §2 table and the
 * katsuba-types test data. */
#include "test_kingsisle_util.h"

static sv_schema *load_schema(const char *name)
{
    size_t len;
    uint8_t *data = kt_sample(name, &len);
    assert_non_null(data);
    sv_schema *s = NULL;
    sv_error err;
    sv_status st = sv_schema_load(NULL, data, len, name, &s, &err);
    if (st != SV_OK) fail_msg("%s: %s", name, err.message);
    free(data);
    return s;
}

static void test_loader_picks_kingsisle(void **state)
{
    (void)state;
    if (!kt_present()) return;
    const char *names[] = {"types.json", "types.xml", "katsuba-types/types_v1.json",
                           "katsuba-types/types_v2.json"};
    for (int i = 0; i < 4; i++) {
        sv_schema *s = load_schema(names[i]);
        sv_schema_free(s);
    }
    /* katsuba-types: class EquipmentSetList 135649998 with m_equipmentSetList
     * 1788831224 (a list of shared pointers); Matrix3x3's hash 1479974833 */
    for (int i = 2; i < 4; i++) {
        sv_schema *s = load_schema(names[i]);
        const sv_schema_class *c = sv_schema_class_by_hash(s, 135649998);
        assert_non_null(c);
        assert_string_equal(c->name, "class EquipmentSetList");
        const sv_schema_field *f = sv_schema_field_by_hash(c, 1788831224);
        assert_non_null(f);
        assert_string_equal(f->name, "m_equipmentSetList");
        assert_int_equal(f->flags, 31);
        assert_non_null(sv_schema_class_by_hash(s, 1479974833));
        sv_schema_free(s);
    }
}

static void test_schema_fields(void **state)
{
    (void)state;
    if (!kt_present()) return;
    sv_schema *s = load_schema("types.json");
    const sv_schema_class *c = sv_schema_class_by_name(s, "class Bitflags", 14);
    assert_non_null(c);
    assert_int_equal(c->hash, sv_kingsisle_string_id("class Bitflags", 14));
    const sv_schema_field *f = sv_schema_field_by_name(c, "m_flags", 7);
    assert_non_null(f);
    assert_int_equal(f->hash, 2039400727);
    assert_int_equal(f->flags, 1048583);
    assert_int_equal(f->type->kind, SV_TYPE_ENUM);
    assert_true(f->type->enm->bits);
    assert_int_equal(f->type->enm->nvalues, 4); /* NONE, FLAG_A, FLAG_B, FLAG_C */
    assert_string_equal(f->type->enm->values[3].name, "FLAG_C");
    assert_int_equal(f->type->enm->values[3].value, 4);
    c = sv_schema_class_by_name(s, "class BitIntegers", 17);
    f = sv_schema_field_by_name(c, "m_bi5", 5);
    assert_int_equal(f->type->kind, SV_TYPE_ENUM);
    assert_string_equal(f->type->name, "bi5");
    assert_string_equal(f->native, "bi5");
    c = sv_schema_class_by_name(s, "class NestedLists", 17);
    f = sv_schema_field_by_name(c, "m_elements", 10);
    assert_int_equal(f->hash, 3208458572u); /* §2.3: above 2^31 */
    assert_string_equal(f->type->text, "vector<class ListElement>");
    /* compiled back, the list's own spellings come back with the schema */
    sv_kingsisle_types *t = NULL;
    sv_error err;
    assert_int_equal(sv_kingsisle_types_from_schema(NULL, s, &t, &err), SV_OK);
    bool seen = false;
    sv_kingsisle_class_info ci;
    for (size_t i = 0; sv_kingsisle_types_class_at(t, i, &ci); i++) {
        if (strcmp(ci.name, "class AllScalars") != 0) continue;
        sv_kingsisle_prop_info p;
        assert_true(sv_kingsisle_types_prop_at(t, i, 9, &p));
        assert_string_equal(p.name, "m_int64");
        assert_string_equal(p.type, "unsigned __int64");
        seen = true;
    }
    assert_true(seen);
    sv_kingsisle_types_free(t);
    sv_schema_free(s);
}

/* A list given by a wiztype v2 dump with __DEFAULT and __BASECLASS options
 * and properties out of id order. */
static void test_options_and_order(void **state)
{
    (void)state;
    static const char list[] =
        "{\"version\": 2, \"classes\": {\"77\": {\"name\": \"class T\", \"bases\": [], \"hash\": 77,"
        " \"properties\": {"
        "\"m_b\": {\"type\": \"enum Kind\", \"id\": 1, \"flags\": 2097159, \"dynamic\": false,"
        "  \"hash\": 5, \"enum_options\": {\"__DEFAULT\": \"A\", \"A\": 0, \"B\": \"2\","
        "  \"__BASECLASS\": \"x\"}},"
        "\"m_a\": {\"type\": \"int\", \"id\": 0, \"flags\": 7, \"dynamic\": false, \"hash\": 4}"
        "}}}}";
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    sv_error err;
    assert_int_equal(sv_kingsisle_types_add(t, (const uint8_t *)list, sizeof list - 1, "t", &err),
                     SV_OK);
    sv_kingsisle_prop_info p;
    assert_true(sv_kingsisle_types_prop_at(t, 0, 0, &p));
    assert_string_equal(p.name, "m_a");
    assert_int_equal(p.hash, 4); /* taken from the list, never recomputed */
    assert_true(sv_kingsisle_types_prop_at(t, 0, 1, &p));
    assert_string_equal(p.name, "m_b");
    assert_int_equal(p.nenum, 2);
    sv_kingsisle_types_free(t);
}

/* Several lists merge; a class of a hash already loaded is replaced (§7.1:
 * the last file wins). */
static void test_merge_last_wins(void **state)
{
    (void)state;
    static const char a[] =
        "{\"version\": 2, \"classes\": {"
        "\"5\": {\"name\": \"class A\", \"hash\": 5, \"properties\": {"
        "  \"m_x\": {\"type\": \"int\", \"id\": 0, \"flags\": 7, \"hash\": 1}}},"
        "\"6\": {\"name\": \"class B\", \"hash\": 6, \"properties\": {}}}}";
    static const char b[] =
        "{\"class A2\": {\"bases\": [], \"hash\": 5, \"properties\": {"
        "  \"m_y\": {\"type\": \"float\", \"id\": 0, \"flags\": 7, \"hash\": 2},"
        "  \"m_z\": {\"type\": \"bool\", \"id\": 1, \"flags\": 7, \"hash\": 3}}}}";
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    sv_error err;
    assert_int_equal(sv_kingsisle_types_add(t, (const uint8_t *)a, sizeof a - 1, "a", &err), SV_OK);
    assert_int_equal(sv_kingsisle_types_add(t, (const uint8_t *)b, sizeof b - 1, "b", &err), SV_OK);
    assert_int_equal(sv_kingsisle_types_class_count(t), 2);
    sv_kingsisle_class_info c;
    assert_true(sv_kingsisle_types_class_at(t, 0, &c));
    assert_string_equal(c.name, "class A2");
    assert_int_equal(c.hash, 5);
    assert_int_equal(c.nprops, 2);
    sv_kingsisle_prop_info p;
    assert_true(sv_kingsisle_types_prop_at(t, 0, 0, &p));
    assert_string_equal(p.name, "m_y");
    sv_kingsisle_types_free(t);
}

static const char *const fixtures[] = {
    "all-scalars-deep",    "all-scalars-shallow",  "binary-string",      "bit-integers-deep",
    "bit-integers-shallow", "bitflags-combined",   "bitflags-empty-string", "bitflags-int",
    "bitflags-string",     "deep-size-boundary",   "delta-encode-absent", "delta-encode-present",
    "deprecated-deep",     "deprecated-shallow",   "empty-string-no-realign", "ends-with-bits-deep",
    "ends-with-bits-shallow", "list-compact",      "list-simple",        "nested-lists",
    "nested-object",       "property-mask",        "scoped-enum-int",    "scoped-enum-string",
    "strings-compact",     "strings-deep",         "strings-shallow",    "with-compression",
};

static void test_bridge_round_trip(void **state)
{
    (void)state;
    if (!kt_present()) return;
    sv_kingsisle_types *direct = kt_types("types.json");
    sv_schema *s = load_schema("types.json");
    sv_kingsisle_types *bridged = NULL;
    sv_error err;
    assert_int_equal(sv_kingsisle_types_from_schema(NULL, s, &bridged, &err), SV_OK);
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char file[128];
        snprintf(file, sizeof file, "%s.bin", fixtures[i]);
        size_t len;
        uint8_t *bytes = kt_sample(file, &len);
        sv_kingsisle_opts o;
        kt_config(fixtures[i], &o);
        sv_doc *da = sv_doc_new(NULL), *db = sv_doc_new(NULL);
        sv_value a, b;
        o.types = direct;
        assert_int_equal(sv_kingsisle_decode(da, bytes, len, &o, &a, &err), SV_OK);
        o.types = bridged;
        if (sv_kingsisle_decode(db, bytes, len, &o, &b, &err) != SV_OK)
            fail_msg("%s: %s", fixtures[i], err.message);
        if (!sv_equal(&a, &b)) fail_msg("%s: trees differ through the schema", fixtures[i]);
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_kingsisle_encode(&b, &o, &out, &err), SV_OK);
        assert_int_equal(out.len, len);
        assert_memory_equal(out.data, bytes, len);
        sv_buf_free(&out);
        sv_doc_free(da), sv_doc_free(db), free(bytes);
    }
    sv_kingsisle_types_free(bridged);
    sv_kingsisle_types_free(direct);
    sv_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loader_picks_kingsisle),
        cmocka_unit_test(test_schema_fields),
        cmocka_unit_test(test_options_and_order),
        cmocka_unit_test(test_merge_last_wins),
        cmocka_unit_test(test_bridge_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
