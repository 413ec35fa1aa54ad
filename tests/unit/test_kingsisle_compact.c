/* KingsIsle objects decoded as compact objects: an object whose class the
 * type list gives, with every property of the class and no other, holds
 * only its values, its field names once per class and document in a shape
 * (sv_object_shape). Everything else keeps the pair layout: objects of an
 * unknown class, objects with a property the list lacks, shallow objects
 * with an absent optional (delta-encoded) property.
 *
 * Whichever the layout, a user sees the same tree: the same typed JSON (the
 * CLI's golden dumps of tests/cli/cases/kingsisle-dump-*, written before
 * compact objects existed), the same bytes back, and a tree edited to hold
 * one more field (the core turns the object into pairs) encodes as the spec
 * says (§5.3, bytes worked out by hand below).
 *
 * Inputs: the hand-made vectors of tests/vectors/kingsisle/ and katsuba's
 * fixtures (../shared/samples/kingsisle/; skipped when absent). */
#include "test_kingsisle_util.h"

#define KV "vectors/kingsisle/"

static sv_kingsisle_types *load_types(const char *path)
{
    size_t len;
    uint8_t *text = kt_read(path, &len);
    if (!text || !len) fail_msg("missing %s", path);
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    assert_non_null(t);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_types_add(t, text, len, path, &err) != SV_OK)
        fail_msg("%s: %s", path, err.message);
    free(text);
    return t;
}

static sv_value decode_ok(sv_doc *doc, const uint8_t *bytes, size_t len, const sv_kingsisle_opts *o)
{
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, bytes, len, o, &v, &err) != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fail_msg("decode: %s", msg);
    }
    return v;
}

/* Encodes v and checks that the bytes are want. */
static void encodes_to(const sv_value *v, const sv_kingsisle_opts *o, const uint8_t *want,
                       size_t want_len, const char *what)
{
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_encode(v, o, &out, &err) != SV_OK)
        fail_msg("%s: encode: %s", what, err.message);
    if (out.len != want_len || memcmp(out.data, want, want_len) != 0)
        fail_msg("%s: encoded %zu bytes, expected the %zu of the input", what, out.len, want_len);
    sv_buf_free(&out);
}

/* The typed JSON of v (indent 2, as `serval dump` writes it), NUL-ended;
 * free() it. */
static char *typed_json(const sv_value *v)
{
    sv_json_encode_opts jo;
    sv_json_encode_opts_init(&jo);
    jo.indent = 2;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_encode(v, &jo, &out, &err) != SV_OK) fail_msg("typed JSON: %s", err.message);
    char *s = malloc(out.len + 1);
    assert_non_null(s);
    memcpy(s, out.data, out.len);
    s[out.len] = 0;
    sv_buf_free(&out);
    return s;
}

/* Objects in the tree, and how many of them are compact. */
static void count_objects(const sv_value *v, size_t *objects, size_t *compact)
{
    switch (sv_kind_of(v)) {
    case SV_OBJECT:
        (*objects)++;
        if (sv_object_shape(v)) (*compact)++;
        /* fall through */
    case SV_MAP:
        for (uint32_t i = 0; i < sv_len(v); i++) count_objects(sv_val_at(v, i), objects, compact);
        break;
    case SV_ARRAY:
        for (uint32_t i = 0; i < sv_len(v); i++) count_objects(sv_array_at(v, i), objects, compact);
        break;
    default: break;
    }
}

/* Every object of the tree in the pair layout (sv_object_expand): the
 * tree as the decoder built it before compact objects. */
static void expand_all(sv_doc *doc, sv_value *v)
{
    if (sv_kind_of(v) == SV_OBJECT) assert_int_equal(sv_object_expand(doc, v), SV_OK);
    if (sv_kind_of(v) == SV_OBJECT || sv_kind_of(v) == SV_MAP)
        for (uint32_t i = 0; i < sv_len(v); i++) expand_all(doc, sv_val_at(v, i));
    if (sv_kind_of(v) == SV_ARRAY)
        for (uint32_t i = 0; i < sv_len(v); i++) expand_all(doc, sv_array_at(v, i));
}

/* tests/cli/cases/kingsisle-dump-deep/stdout */
static const char tiny_deep_json[] = "{\n"
                                     "  \"$class\": \"class Tiny\",\n"
                                     "  \"$meta\": {\n"
                                     "    \"flags\": {\"$u32\": 1}\n"
                                     "  },\n"
                                     "  \"m_id\": {\"$u32\": 7},\n"
                                     "  \"m_on\": true,\n"
                                     "  \"m_name\": \"hi\",\n"
                                     "  \"m_pos\": {\"$vector3\": [1.0, 2.0, -0.5]},\n"
                                     "  \"m_kind\": {\"$enum\": \"B\"}\n"
                                     "}";

/* class Tiny (tiny-types.json), deep and shallow: the root is compact, its
 * shape lists the five properties in id order, and the typed JSON and the
 * bytes are those the pair layout gave. */
static void test_tiny_is_compact(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_types(KV "tiny-types.json");
    static const char *const names[] = {"m_id", "m_on", "m_name", "m_pos", "m_kind"};
    for (int shallow = 0; shallow < 2; shallow++) {
        size_t len;
        uint8_t *bytes = kt_read(shallow ? KV "tiny-shallow.bin" : KV "tiny-deep.bin", &len);
        assert_non_null(bytes);
        sv_kingsisle_opts o;
        sv_kingsisle_opts_init(&o);
        o.types = t;
        o.flags = 1;
        o.shallow = shallow;
        o.property_mask = 7;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root = decode_ok(doc, bytes, len, &o);
        const sv_shape *s = sv_object_shape(&root);
        if (!s)
            fail_msg("%s: the root of class Tiny is not a compact object",
                     shallow ? "shallow" : "deep");
        assert_int_equal(s->count, 5);
        size_t n;
        assert_string_equal(sv_get_str(&s->cls, &n), "class Tiny");
        assert_string_equal(sv_get_str(sv_object_class(&root), &n), "class Tiny");
        for (uint32_t i = 0; i < 5; i++) {
            assert_string_equal(sv_get_str(&sv_shape_keys(s)[i], &n), names[i]);
            assert_string_equal(sv_get_str(sv_key_at(&root, i), &n), names[i]);
        }
        assert_int_equal(sv_get_uint(sv_map_getz(&root, "m_id")), 7);
        encodes_to(&root, &o, bytes, len, shallow ? "tiny-shallow" : "tiny-deep");
        char *json = typed_json(&root);
        expand_all(doc, &root);
        assert_null(sv_object_shape(&root));
        char *pairs_json = typed_json(&root);
        assert_string_equal(json, pairs_json);
        if (!shallow) assert_string_equal(json, tiny_deep_json);
        encodes_to(&root, &o, bytes, len, shallow ? "tiny-shallow in pairs" : "tiny-deep in pairs");
        free(pairs_json);
        free(json);
        sv_doc_free(doc);
        free(bytes);
    }
    sv_kingsisle_types_free(t);
}

/* A compact object edited to hold one more field (a property by hash, raw
 * bits, as a class the list lacks reads) turns into pairs and encodes with
 * that property last: tiny-deep.bin's object size grows by the property's
 * 72 bits (552 + 72 = 624 = 0x270) and the property follows the last one
 * (§5.3: u32 size 72, u32 hash 12345 = 0x3039, then the 8 bits 0xAB). */
static void test_edited_compact_object(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_types(KV "tiny-types.json");
    size_t len;
    uint8_t *bytes = kt_read(KV "tiny-deep.bin", &len);
    assert_non_null(bytes);
    assert_int_equal(len, 77);
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    o.flags = 1;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = decode_ok(doc, bytes, len, &o);
    assert_non_null(sv_object_shape(&root));

    sv_value raw = sv_map(doc, 0);
    static const uint8_t ab = 0xAB;
    assert_int_equal(sv_map_append(doc, &raw, sv_str(doc, "bits", 4), sv_int(8)), SV_OK);
    assert_int_equal(sv_map_append(doc, &raw, sv_str(doc, "data", 4), sv_bytes(doc, &ab, 1)),
                     SV_OK);
    assert_int_equal(sv_map_append(doc, &root, sv_str(doc, "12345", 5), raw), SV_OK);
    assert_null(sv_object_shape(&root)); /* pairs now */
    assert_int_equal(sv_len(&root), 6);

    uint8_t want[86];
    memcpy(want, bytes, 77);
    want[8] = 0x70; /* the object's size: 0x228 -> 0x270 bits */
    want[9] = 0x02;
    static const uint8_t prop[9] = {0x48, 0, 0, 0, 0x39, 0x30, 0, 0, 0xAB};
    memcpy(want + 77, prop, sizeof prop);
    encodes_to(&root, &o, want, sizeof want, "tiny-deep with a field added");
    sv_doc_free(doc);
    free(bytes);
    sv_kingsisle_types_free(t);
}

/* unknown-class.bin (tests/cli/cases/kingsisle-dump-unknown-class): the root
 * (class Outer, both properties known) is compact, its child of class hash
 * 7777, which the list lacks, keeps pairs; without a type list nothing is
 * compact. */
static void test_unknown_class_keeps_pairs(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_types(KV "unknown-types.json");
    size_t len;
    uint8_t *bytes = kt_read(KV "unknown-class.bin", &len);
    assert_non_null(bytes);
    for (int with_types = 0; with_types < 2; with_types++) {
        sv_kingsisle_opts o;
        sv_kingsisle_opts_init(&o);
        o.types = with_types ? t : NULL;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root = decode_ok(doc, bytes, len, &o);
        size_t objects = 0, compact = 0;
        count_objects(&root, &objects, &compact);
        /* (without the list, the child is inside its field's raw bits) */
        assert_int_equal(objects, with_types ? 2 : 1);
        assert_int_equal(compact, with_types ? 1 : 0);
        if (with_types) {
            assert_non_null(sv_object_shape(&root));
            const sv_value *child = sv_map_getz(&root, "m_child");
            assert_int_equal(sv_kind_of(child), SV_OBJECT);
            assert_null(sv_object_shape(child));
            assert_int_equal(sv_get_uint(sv_object_class(child)), 7777);
        }
        encodes_to(&root, &o, bytes, len, "unknown-class");
        sv_doc_free(doc);
    }
    free(bytes);
    sv_kingsisle_types_free(t);
}

/* Every vector and fixture: decoded, every object turned into pairs, then
 * rewritten compact by the core (sv_compact_objects: also those the decoder
 * keeps in pairs, with their own shapes), the same bytes back each time. */
static void compact_all_round_trip(const uint8_t *bytes, size_t len, const sv_kingsisle_opts *o,
                                   const char *what)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = decode_ok(doc, bytes, len, o);
    expand_all(doc, &root);
    char *before = typed_json(&root);
    encodes_to(&root, o, bytes, len, what);
    assert_int_equal(sv_compact_objects(doc, &root), SV_OK);
    char *after = typed_json(&root);
    assert_string_equal(after, before);
    encodes_to(&root, o, bytes, len, what);
    free(before);
    free(after);
    sv_doc_free(doc);
}

static void test_vectors_all_compact(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_types(KV "tiny-types.json");
    sv_kingsisle_types *u = load_types(KV "unknown-types.json");
    static const struct {
        const char *file;
        bool shallow, unknown;
        uint32_t flags;
    } v[] = {
        {"tiny-deep.bin", false, false, 1},      {"tiny-deep-flags0.bin", false, false, 0},
        {"tiny-shallow.bin", true, false, 1},    {"unknown-class.bin", false, true, 0},
        {"unknown-in-list.bin", false, true, 0},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, KV "%s", v[i].file);
        size_t len;
        uint8_t *bytes = kt_read(path, &len);
        if (!bytes || !len) fail_msg("missing %s", path);
        sv_kingsisle_opts o;
        sv_kingsisle_opts_init(&o);
        o.types = v[i].unknown ? u : t;
        o.shallow = v[i].shallow;
        o.flags = v[i].flags;
        o.property_mask = 7;
        compact_all_round_trip(bytes, len, &o, v[i].file);
        o.types = NULL; /* schema-less: hashes and raw bits */
        if (!v[i].shallow) compact_all_round_trip(bytes, len, &o, v[i].file);
        free(bytes);
    }
    sv_kingsisle_types_free(t);
    sv_kingsisle_types_free(u);
}

static const char *const fixtures[] = {
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

/* katsuba's fixtures: every object compact but the root of
 * delta-encode-absent (its optional m_delta is absent: not the class's full
 * field list); the typed JSON reads back through JSON (pairs) to the same
 * tree, which encodes to the same bytes as the compact one; and the core's
 * sv_compact_objects changes nothing either. */
static void test_fixtures(void **state)
{
    (void)state;
    if (!kt_present()) return;
    sv_kingsisle_types *t = kt_types("types.json");
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char file[256];
        snprintf(file, sizeof file, "%s.bin", fixtures[i]);
        size_t len;
        uint8_t *bytes = kt_sample(file, &len);
        assert_non_null(bytes);
        sv_kingsisle_opts o;
        kt_config(fixtures[i], &o);
        o.types = t;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root = decode_ok(doc, bytes, len, &o);
        size_t objects = 0, compact = 0;
        count_objects(&root, &objects, &compact);
        bool absent = strcmp(fixtures[i], "delta-encode-absent") == 0;
        if (absent) {
            assert_null(sv_object_shape(&root));
            assert_int_equal(compact, objects - 1);
        } else if (compact != objects) {
            fail_msg("%s: %zu of %zu objects are compact", fixtures[i], compact, objects);
        }
        encodes_to(&root, &o, bytes, len, fixtures[i]);

        /* the same tree in pairs: the same typed JSON, the same bytes */
        char *compact_json = typed_json(&root);
        expand_all(doc, &root);
        char *expanded_json = typed_json(&root);
        assert_string_equal(compact_json, expanded_json);
        encodes_to(&root, &o, bytes, len, fixtures[i]);
        free(compact_json);
        free(expanded_json);

        /* and through its typed JSON (read back in pairs) */
        char *json = typed_json(&root);
        sv_doc *pdoc = sv_doc_new(NULL);
        sv_value pairs;
        sv_error err;
        sv_error_clear(&err);
        if (sv_json_decode(pdoc, json, strlen(json), NULL, &pairs, &err) != SV_OK)
            fail_msg("%s: typed JSON: %s", fixtures[i], err.message);
        size_t pobjects = 0, pcompact = 0;
        count_objects(&pairs, &pobjects, &pcompact);
        assert_int_equal(pobjects, objects);
        char *again = typed_json(&pairs);
        assert_string_equal(again, json);
        encodes_to(&pairs, &o, bytes, len, fixtures[i]);
        free(again);
        free(json);
        sv_doc_free(pdoc);
        sv_doc_free(doc);

        compact_all_round_trip(bytes, len, &o, fixtures[i]);
        free(bytes);
    }
    sv_kingsisle_types_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_is_compact),
        cmocka_unit_test(test_edited_compact_object),
        cmocka_unit_test(test_unknown_class_keeps_pairs),
        cmocka_unit_test(test_vectors_all_compact),
        cmocka_unit_test(test_fixtures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
