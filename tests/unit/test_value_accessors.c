/* sv_key_at / sv_val_at: the field accessors every reader uses. Expected
 * values are the ones the test builds (value.h: field i of a map or object
 * is the i-th key appended with its value), and the fields a real decode of
 * typed JSON gives (docs/json.md: "$class" names an object's class, the
 * other members are its fields in order). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static void assert_key_str(const sv_value *key, const char *want)
{
    assert_non_null(key);
    assert_int_equal(sv_kind_of(key), SV_STRING);
    size_t n = 0;
    const char *s = sv_get_str(key, &n);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(s, want, n);
}

/* A map with keys of three kinds: each field's key and value come back in
 * order, and they are the very values sv_pair_at hands out (today's layout). */
static void test_map_fields_in_order(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value map = sv_map(doc, 0);
    assert_int_equal(sv_map_append_str(doc, &map, "b", sv_int(-7)), SV_OK);
    assert_int_equal(sv_map_append(doc, &map, sv_uint(3), sv_strz(doc, "three")), SV_OK);
    assert_int_equal(sv_map_append(doc, &map, sv_null(), sv_f32(1.5f)), SV_OK);
    assert_int_equal(sv_len(&map), 3);

    assert_key_str(sv_key_at(&map, 0), "b");
    assert_int_equal(sv_kind_of(sv_val_at(&map, 0)), SV_INT);
    assert_int_equal(sv_get_int(sv_val_at(&map, 0)), -7);

    assert_int_equal(sv_kind_of(sv_key_at(&map, 1)), SV_UINT);
    assert_int_equal(sv_get_uint(sv_key_at(&map, 1)), 3);
    assert_string_equal(sv_get_str(sv_val_at(&map, 1), NULL), "three");

    assert_int_equal(sv_kind_of(sv_key_at(&map, 2)), SV_NULL);
    assert_non_null(sv_key_at(&map, 2)); /* a null key is a key, not "absent" */
    assert_int_equal(sv_kind_of(sv_val_at(&map, 2)), SV_FLOAT);
    assert_int_equal(sv_width(sv_val_at(&map, 2)), 4);
    assert_true(sv_get_f64(sv_val_at(&map, 2)) == 1.5);

    for (size_t i = 0; i < 3; i++) {
        assert_ptr_equal(sv_key_at(&map, i), &sv_pair_at(&map, i)->key);
        assert_ptr_equal(sv_val_at(&map, i), &sv_pair_at(&map, i)->val);
    }
    sv_doc_free(doc);
}

/* The value is the document's own: a change through sv_val_at is what the
 * next reader (sv_map_get, an encoder) sees. */
static void test_value_writable_in_place(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value map = sv_map(doc, 0);
    assert_int_equal(sv_map_append_str(doc, &map, "gold", sv_int(10)), SV_OK);
    *sv_val_at(&map, 0) = sv_int(9999);
    assert_int_equal(sv_get_int(sv_map_getz(&map, "gold")), 9999);
    sv_doc_free(doc);
}

/* Fields of an object decoded from typed JSON: the class is not a field,
 * the fields come in the order of the text. */
static void test_object_from_typed_json(void **state)
{
    (void)state;
    static const char text[] = "{\"$class\":\"Player\",\"name\":\"Ann\",\"hp\":42}";
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_decode(doc, text, strlen(text), NULL, &root, &err), SV_OK);
    assert_int_equal(sv_kind_of(&root), SV_OBJECT);
    assert_int_equal(sv_len(&root), 2);
    assert_string_equal(sv_get_str(sv_object_class(&root), NULL), "Player");
    assert_key_str(sv_key_at(&root, 0), "name");
    assert_string_equal(sv_get_str(sv_val_at(&root, 0), NULL), "Ann");
    assert_key_str(sv_key_at(&root, 1), "hp");
    assert_int_equal(sv_get_int(sv_val_at(&root, 1)), 42);
    assert_null(sv_key_at(&root, 2));
    assert_null(sv_val_at(&root, 2));
    sv_doc_free(doc);
}

/* Past the end, on an empty map, on NULL and on every other kind: NULL,
 * never a pointer into memory that holds no field. */
static void test_out_of_range_and_other_kinds(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value map = sv_map(doc, 0);
    assert_null(sv_key_at(&map, 0));
    assert_null(sv_val_at(&map, 0));
    assert_int_equal(sv_map_append_str(doc, &map, "k", sv_bool(true)), SV_OK);
    assert_non_null(sv_key_at(&map, 0));
    assert_null(sv_key_at(&map, 1));
    assert_null(sv_val_at(&map, 1));
    assert_null(sv_key_at(&map, SIZE_MAX));
    assert_null(sv_val_at(&map, SIZE_MAX));
    /* room allocated past the count is not a field */
    sv_value roomy = sv_map(doc, 4);
    assert_int_equal(sv_len(&roomy), 4);
    assert_null(sv_key_at(&roomy, 4));
    assert_null(sv_key_at(NULL, 0));
    assert_null(sv_val_at(NULL, 0));

    uint8_t raw[3] = {1, 2, 3};
    float xyz[3] = {1, 2, 3};
    sv_value others[] = {
        sv_null(),
        sv_bool(true),
        sv_int(1),
        sv_uint(1),
        sv_f64(1),
        sv_strz(doc, "ab"),
        sv_bytes(doc, raw, sizeof raw),
        sv_array(doc, 2),
        sv_tuple(doc, SV_TAG_VECTOR3, SV_ELEM_F32, xyz),
        sv_packed(doc, SV_ELEM_U8, SV_TAG_NONE, raw, sizeof raw),
        sv_ref(1),
    };
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        assert_true(sv_kind_of(&others[k]) != SV_MAP && sv_kind_of(&others[k]) != SV_OBJECT);
        assert_null(sv_key_at(&others[k], 0));
        assert_null(sv_val_at(&others[k], 0));
    }
    assert_int_equal(sv_doc_status(doc), SV_OK);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_fields_in_order),
        cmocka_unit_test(test_value_writable_in_place),
        cmocka_unit_test(test_object_from_typed_json),
        cmocka_unit_test(test_out_of_range_and_other_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
