/* Compact objects (value.h, docs/value-tree.md): a shape holds the class and
 * field names once, the object only its values. Expected values: the fields
 * the test builds, and typed JSON text written out by hand (docs/json.md:
 * "$class" names an object's class, the other members are its fields in
 * order); a compact object must read, compare, copy, edit and encode exactly
 * as the pair-layout object of the same fields does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static void assert_str(const sv_value *v, const char *want)
{
    assert_non_null(v);
    assert_int_equal(sv_kind_of(v), SV_STRING);
    size_t n = 0;
    const char *s = sv_get_str(v, &n);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(s, want, n);
}

static const sv_shape *player_shape(sv_doc *doc)
{
    sv_value keys[2] = {sv_str_intern(doc, "name", 4), sv_str_intern(doc, "hp", 2)};
    return sv_shape_new(doc, sv_strz(doc, "Player"), keys, 2);
}

/* A compact Player {name: "Ann", hp: 42}. */
static sv_value make_player(sv_doc *doc, const sv_shape *shape, const char *name, int64_t hp)
{
    sv_value obj = sv_object_compact(doc, shape);
    assert_int_equal(sv_kind_of(&obj), SV_OBJECT);
    *sv_val_at(&obj, 0) = sv_strz(doc, name);
    *sv_val_at(&obj, 1) = sv_int(hp);
    return obj;
}

static char *typed_json(sv_doc *doc, const sv_value *v)
{
    sv_buf buf;
    sv_buf_init(&buf, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_encode(v, NULL, &buf, &err), SV_OK);
    char *s = sv_doc_alloc(doc, buf.len + 1);
    memcpy(s, buf.data, buf.len);
    s[buf.len] = '\0';
    sv_buf_free(&buf);
    return s;
}

/* Fields, class and kind read as the shape and the values say; no pairs. */
static void test_reads_through_the_accessors(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    const sv_shape *shape = player_shape(doc);
    assert_non_null(shape);
    assert_int_equal(shape->count, 2);
    sv_value obj = make_player(doc, shape, "Ann", 42);

    assert_int_equal(sv_len(&obj), 2);
    assert_ptr_equal(sv_object_shape(&obj), shape);
    assert_str(sv_object_class(&obj), "Player");
    assert_str(sv_key_at(&obj, 0), "name");
    assert_str(sv_val_at(&obj, 0), "Ann");
    assert_str(sv_key_at(&obj, 1), "hp");
    assert_int_equal(sv_get_int(sv_val_at(&obj, 1)), 42);
    assert_null(sv_key_at(&obj, 2));
    assert_null(sv_val_at(&obj, 2));
    assert_int_equal(sv_get_int(sv_map_getz(&obj, "hp")), 42);
    /* the pair layout's calls have nothing to hand out here */
    assert_null(sv_pairs(&obj));
    assert_null(sv_pair_at(&obj, 0));
    /* other values have no shape */
    sv_value plain = sv_object(doc, sv_strz(doc, "Player"), 0);
    assert_null(sv_object_shape(&plain));
    assert_null(sv_object_shape(NULL));
    sv_value map = sv_map(doc, 0);
    assert_null(sv_object_shape(&map));
    sv_doc_free(doc);
}

/* Two objects share one shape: the names are stored once. */
static void test_objects_share_their_shape(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    const sv_shape *shape = player_shape(doc);
    sv_value a = make_player(doc, shape, "Ann", 1);
    sv_value b = make_player(doc, shape, "Bo", 2);
    assert_ptr_equal(sv_key_at(&a, 0), sv_key_at(&b, 0));
    assert_ptr_equal(sv_object_class(&a), sv_object_class(&b));
    assert_ptr_not_equal(sv_val_at(&a, 0), sv_val_at(&b, 0));
    sv_doc_free(doc);
}

/* Same typed JSON, equal, copy equal: the layout is not part of the value. */
static void test_same_value_as_pairs(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value obj = make_player(doc, player_shape(doc), "Ann", 42);
    sv_value pairs = sv_object(doc, sv_strz(doc, "Player"), 0);
    assert_int_equal(sv_map_append_str(doc, &pairs, "name", sv_strz(doc, "Ann")), SV_OK);
    assert_int_equal(sv_map_append_str(doc, &pairs, "hp", sv_int(42)), SV_OK);

    assert_true(sv_equal(&obj, &pairs));
    assert_true(sv_equal(&pairs, &obj));
    assert_string_equal(typed_json(doc, &obj), "{\"$class\":\"Player\",\"name\":\"Ann\",\"hp\":42}");

    sv_doc *other = sv_doc_new(NULL);
    sv_value copy = sv_copy(other, &obj);
    assert_true(sv_equal(&copy, &obj));
    assert_str(sv_key_at(&copy, 1), "hp");
    sv_doc_free(other);

    *sv_val_at(&pairs, 1) = sv_int(43);
    assert_false(sv_equal(&obj, &pairs));
    sv_doc_free(doc);
}

/* Adding a field turns the object into pairs; the shape and the other
 * objects of it keep their two fields. Changing a value in place does not. */
static void test_append_expands_only_that_object(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    const sv_shape *shape = player_shape(doc);
    sv_value a = make_player(doc, shape, "Ann", 1);
    sv_value b = make_player(doc, shape, "Bo", 2);

    assert_int_equal(sv_map_set(doc, &a, "hp", sv_int(5)), SV_OK);
    assert_ptr_equal(sv_object_shape(&a), shape); /* a known field: in place */
    assert_int_equal(sv_map_set(doc, &a, "level", sv_int(3)), SV_OK);
    assert_null(sv_object_shape(&a));
    assert_non_null(sv_pairs(&a));
    assert_string_equal(typed_json(doc, &a),
                        "{\"$class\":\"Player\",\"name\":\"Ann\",\"hp\":5,\"level\":3}");
    assert_int_equal(shape->count, 2);
    assert_string_equal(typed_json(doc, &b), "{\"$class\":\"Player\",\"name\":\"Bo\",\"hp\":2}");
    sv_doc_free(doc);
}

/* Removing: by path (which has the document) expands and removes; the
 * document-less call refuses instead of touching the shared names. */
static void test_remove(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    const sv_shape *shape = player_shape(doc);
    sv_value root = sv_array(doc, 2);
    sv_array_items(&root)[0] = make_player(doc, shape, "Ann", 1);
    sv_array_items(&root)[1] = make_player(doc, shape, "Bo", 2);

    assert_int_equal(sv_map_remove_key(&sv_array_items(&root)[0], "name"), SV_ERR_USAGE);
    assert_int_equal(sv_map_remove_key(&sv_array_items(&root)[0], "nope"), SV_ERR_NOT_FOUND);
    assert_int_equal(sv_remove_path(doc, &root, "/0/name"), SV_OK);
    assert_string_equal(typed_json(doc, &root), "[{\"$class\":\"Player\",\"hp\":1},"
                                                "{\"$class\":\"Player\",\"name\":\"Bo\",\"hp\":2}]");
    assert_int_equal(sv_set_path(doc, &root, "/1/hp", sv_int(7)), SV_OK);
    assert_ptr_equal(sv_object_shape(&sv_array_items(&root)[1]), shape);

    sv_value obj = make_player(doc, shape, "Cy", 3);
    assert_int_equal(sv_object_expand(doc, &obj), SV_OK);
    assert_null(sv_object_shape(&obj));
    assert_int_equal(sv_map_remove_key(&obj, "name"), SV_OK);
    assert_string_equal(typed_json(doc, &obj), "{\"$class\":\"Player\",\"hp\":3}");
    assert_int_equal(sv_object_expand(doc, &obj), SV_OK); /* pairs already: nothing */
    sv_value num = sv_int(1);
    assert_int_equal(sv_object_expand(doc, &num), SV_ERR_TYPE);
    assert_int_equal(sv_object_expand(NULL, &obj), SV_ERR_USAGE);
    sv_doc_free(doc);
}

/* sv_compact_objects over a decoded typed-JSON tree: every object with a
 * class becomes compact, objects of one class and field list share a shape,
 * a different field list gets its own, maps stay maps, and the typed JSON is
 * the text it came from. */
static void test_compact_a_decoded_tree(void **state)
{
    (void)state;
    static const char text[] =
        "{\"list\":[{\"$class\":\"P\",\"a\":1,\"b\":[true,null]},{\"$class\":\"P\",\"a\":2,"
        "\"b\":{\"$class\":\"Q\"}},{\"$class\":\"P\",\"b\":0,\"a\":1},{\"$class\":\"R\",\"a\":1}],"
        "\"m\":{\"x\":1}}";
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_decode(doc, text, strlen(text), NULL, &root, &err), SV_OK);
    sv_doc *before_doc = sv_doc_new(NULL);
    sv_value before = sv_copy(before_doc, &root);

    assert_int_equal(sv_compact_objects(doc, &root), SV_OK);
    assert_string_equal(typed_json(doc, &root), text);
    assert_true(sv_equal(&root, &before));

    const sv_value *list = sv_map_getz(&root, "list");
    const sv_shape *s0 = sv_object_shape(sv_array_at(list, 0));
    assert_non_null(s0);
    assert_ptr_equal(sv_object_shape(sv_array_at(list, 1)), s0);
    const sv_shape *s2 = sv_object_shape(sv_array_at(list, 2)); /* b before a */
    const sv_shape *s3 = sv_object_shape(sv_array_at(list, 3)); /* class R */
    assert_non_null(s2);
    assert_non_null(s3);
    assert_ptr_not_equal(s2, s0);
    assert_ptr_not_equal(s3, s0);
    assert_non_null(sv_object_shape(sv_map_getz(sv_array_at(list, 1), "b"))); /* nested, empty */
    assert_null(sv_object_shape(sv_map_getz(&root, "m")));
    assert_null(sv_object_shape(&root));
    /* done twice: nothing left to do, same text */
    assert_int_equal(sv_compact_objects(doc, &root), SV_OK);
    assert_string_equal(typed_json(doc, &root), text);
    sv_doc_free(before_doc);
    sv_doc_free(doc);
}

/* Bad arguments: no shape, no crash. */
static void test_bad_arguments(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value key = sv_int(1);
    assert_null(sv_shape_new(doc, sv_strz(doc, "C"), &key, 1)); /* names are strings */
    assert_null(sv_shape_new(NULL, sv_strz(doc, "C"), NULL, 0));
    assert_null(sv_shape_new(doc, sv_null(), NULL, 0)); /* class: STRING or UINT */
    assert_null(sv_shape_new(doc, sv_uint(7), NULL, 1));
    assert_int_equal(sv_doc_status(doc), SV_OK); /* bad arguments do not fail the document */
    const sv_shape *empty = sv_shape_new(doc, sv_uint(7), NULL, 0);
    assert_non_null(empty);
    sv_value obj = sv_object_compact(doc, empty);
    assert_int_equal(sv_kind_of(&obj), SV_OBJECT);
    assert_int_equal(sv_len(&obj), 0);
    assert_int_equal(sv_get_uint(sv_object_class(&obj)), 7);
    sv_value none = sv_object_compact(doc, NULL);
    assert_int_equal(sv_kind_of(&none), SV_NULL);
    assert_int_equal(sv_compact_objects(NULL, &obj), SV_ERR_USAGE);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_through_the_accessors),
        cmocka_unit_test(test_objects_share_their_shape),
        cmocka_unit_test(test_same_value_as_pairs),
        cmocka_unit_test(test_append_expands_only_that_object),
        cmocka_unit_test(test_remove),
        cmocka_unit_test(test_compact_a_decoded_tree),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
