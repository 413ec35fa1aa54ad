/* The value tree: constructors, accessors, containers, tags, equality, copy,
 * walk. Expected values come from the definitions in value.h / tags.h. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static void test_value_is_16_bytes(void **state)
{
    (void)state;
    assert_int_equal(sizeof(sv_value), 16);
    assert_int_equal(sizeof(sv_pair), 32);
}

static void test_scalars(void **state)
{
    (void)state;
    sv_value v = sv_int(-5);
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_int_equal(sv_width(&v), 8);
    assert_false(sv_is_explicit(&v));
    assert_int_equal(sv_get_int(&v), -5);
    assert_int_equal(sv_get_uint(&v), 0); /* negative clamps to 0 */

    v = sv_int_w(300, 2);
    assert_int_equal(sv_width(&v), 2);
    assert_true(sv_is_explicit(&v));

    v = sv_uint(UINT64_MAX);
    assert_true(sv_get_uint(&v) == UINT64_MAX);
    assert_true(sv_get_int(&v) == INT64_MAX); /* saturates */

    v = sv_f32(0.1f);
    assert_int_equal(sv_width(&v), 4);
    assert_true(sv_is_explicit(&v));
    assert_true(sv_get_f64(&v) == (double)0.1f);

    v = sv_f64(-2.5);
    assert_int_equal(sv_width(&v), 8);
    assert_false(sv_is_explicit(&v));
    assert_int_equal(sv_get_int(&v), -2); /* truncation toward zero */

    v = sv_f64(NAN);
    assert_int_equal(sv_get_int(&v), 0);
    v = sv_f64(1e300);
    assert_true(sv_get_int(&v) == INT64_MAX);

    v = sv_bool(true);
    assert_true(sv_get_bool(&v));
    assert_int_equal(sv_get_int(&v), 1);

    v = sv_ref_null();
    assert_int_equal(sv_kind_of(&v), SV_REF);
    assert_true(v.flags & SV_F_NULLREF);
}

static void test_null_safety(void **state)
{
    (void)state;
    size_t n = 99;
    assert_int_equal(sv_kind_of(NULL), SV_NULL);
    assert_int_equal(sv_get_int(NULL), 0);
    assert_string_equal(sv_get_str(NULL, &n), "");
    assert_int_equal(n, 0);
    assert_null(sv_array_at(NULL, 0));
    assert_null(sv_map_getz(NULL, "a"));
    sv_value i = sv_int(1);
    assert_null(sv_array_at(&i, 0));
    assert_null(sv_pairs(&i));
    assert_null(sv_meta(&i));
    assert_null(sv_numbers(&i));
    assert_true(sv_number_at(&i, 0) == 0);
}

static void test_strings_and_interning(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value s = sv_str(doc, "a\0b", 3);
    size_t n;
    const char *p = sv_get_str(&s, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(p, "a\0b", 3);
    assert_int_equal(p[3], '\0'); /* always NUL-terminated after len */

    sv_value k1 = sv_str_intern(doc, "name", 4);
    sv_value k2 = sv_str_intern(doc, "name", 4);
    sv_value k3 = sv_str_intern(doc, "nam", 3);
    assert_ptr_equal(k1.as.str, k2.as.str);
    assert_ptr_not_equal(k1.as.str, k3.as.str);
    /* many keys force the table to grow and keep every one findable */
    char key[16];
    const char *first[1000];
    for (int i = 0; i < 1000; i++) {
        int len = snprintf(key, sizeof key, "k%d", i);
        sv_value k = sv_str_intern(doc, key, (size_t)len);
        first[i] = k.as.str;
    }
    for (int i = 0; i < 1000; i++) {
        int len = snprintf(key, sizeof key, "k%d", i);
        sv_value k = sv_str_intern(doc, key, (size_t)len);
        assert_ptr_equal(k.as.str, first[i]);
    }
    sv_value b = sv_bytes(doc, "\x00\xff", 2);
    assert_int_equal(sv_kind_of(&b), SV_BYTES);
    assert_int_equal(sv_len(&b), 2);
    assert_int_equal(sv_doc_status(doc), SV_OK);
    sv_doc_free(doc);
}

static void test_containers(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(sv_array_append(doc, &arr, sv_int(i)), SV_OK);
    assert_int_equal(sv_len(&arr), 100);
    for (int i = 0; i < 100; i++) assert_int_equal(sv_get_int(sv_array_at(&arr, (size_t)i)), i);
    assert_null(sv_array_at(&arr, 100));

    sv_value fixed = sv_array(doc, 3);
    assert_int_equal(sv_kind_of(sv_array_at(&fixed, 2)), SV_NULL); /* starts as nulls */

    sv_value map = sv_map(doc, 0);
    assert_int_equal(sv_map_append_str(doc, &map, "b", sv_int(1)), SV_OK);
    assert_int_equal(sv_map_append_str(doc, &map, "a", sv_int(2)), SV_OK);
    assert_int_equal(sv_map_append(doc, &map, sv_int(3), sv_strz(doc, "c")), SV_OK);
    assert_int_equal(sv_map_append_str(doc, &map, "a", sv_int(9)), SV_OK); /* duplicates are kept */
    assert_int_equal(sv_len(&map), 4);
    /* insertion order */
    assert_string_equal(sv_get_str(&sv_pair_at(&map, 0)->key, NULL), "b");
    assert_string_equal(sv_get_str(&sv_pair_at(&map, 1)->key, NULL), "a");
    assert_int_equal(sv_get_int(&sv_pair_at(&map, 2)->key), 3);
    /* lookup finds the first */
    assert_int_equal(sv_get_int(sv_map_getz(&map, "a")), 2);
    assert_null(sv_map_getz(&map, "zz"));

    sv_value obj = sv_object(doc, sv_strz(doc, "Player"), 0);
    assert_int_equal(sv_map_append_str(doc, &obj, "hp", sv_int(5)), SV_OK);
    assert_string_equal(sv_get_str(sv_object_class(&obj), NULL), "Player");
    assert_int_equal(sv_get_int(sv_map_getz(&obj, "hp")), 5);
    sv_value bad = sv_object(doc, sv_int(1), 0); /* class must be a string or uint */
    assert_int_equal(sv_kind_of(&bad), SV_NULL);

    assert_int_equal(sv_meta_set(doc, &arr, sv_strz(doc, "int")), SV_OK);
    assert_string_equal(sv_get_str(sv_meta(&arr), NULL), "int");
    sv_value i = sv_int(1);
    assert_int_not_equal(sv_meta_set(doc, &i, sv_null()), SV_OK);
    sv_doc_free(doc);
}

static void test_tuples_and_packed(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    float xyz[3] = {1.5f, -2.0f, 3.25f};
    sv_value t = sv_tuple(doc, SV_TAG_VECTOR3, SV_ELEM_F32, xyz);
    assert_int_equal(sv_kind_of(&t), SV_TUPLE);
    assert_int_equal(sv_len(&t), 3);
    assert_true(sv_number_at(&t, 1) == -2.0);
    assert_true(sv_number_at(&t, 3) == 0); /* out of range */
    /* a non-shape tag cannot make a tuple */
    sv_value bad = sv_tuple(doc, SV_TAG_STRING_NAME, SV_ELEM_F32, NULL);
    assert_int_equal(sv_kind_of(&bad), SV_NULL);

    int32_t ints[4] = {-1, 2, INT32_MIN, INT32_MAX};
    sv_value p = sv_packed(doc, SV_ELEM_I32, SV_TAG_NONE, ints, 4);
    assert_int_equal(sv_len(&p), 4);
    assert_true(sv_number_at(&p, 2) == (double)INT32_MIN);
    /* packed vector3 needs a multiple of 3 scalars */
    bad = sv_packed(doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, NULL, 4);
    assert_int_equal(sv_kind_of(&bad), SV_NULL);
    sv_value pv = sv_packed(doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, NULL, 6);
    assert_int_equal(sv_kind_of(&pv), SV_PACKED);
    assert_true(sv_number_at(&pv, 5) == 0);
    /* a count whose byte size overflows is refused, not wrapped */
    bad = sv_packed(doc, SV_ELEM_F64, SV_TAG_NONE, NULL, (size_t)UINT32_MAX + 1);
    assert_int_equal(sv_kind_of(&bad), SV_NULL);
    assert_int_equal(sv_doc_status(doc), SV_ERR_LIMIT);
    sv_doc_free(doc);
}

static void test_tables(void **state)
{
    (void)state;
    /* from tags.h */
    assert_string_equal(sv_tag_name(SV_TAG_VECTOR3), "vector3");
    assert_int_equal(sv_tag_scalars(SV_TAG_TRANSFORM3D), 12);
    assert_int_equal(sv_tag_scalars(SV_TAG_PROJECTION), 16);
    assert_int_equal(sv_tag_default_elem(SV_TAG_VECTOR2I), SV_ELEM_I32);
    assert_int_equal(sv_tag_kind(SV_TAG_PACKED_COLOR), SV_PACKED);
    assert_int_equal(sv_tag_by_name("quaternion", 10), SV_TAG_QUATERNION);
    assert_int_equal(sv_tag_by_name("string_name", 11), SV_TAG_STRING_NAME);
    assert_int_equal(sv_tag_by_name("vector", 6), SV_TAG_NONE);
    assert_int_equal(sv_tag_by_name("", 0), SV_TAG_NONE);
    for (int t = 1; t < SV_TAG_COUNT; t++) {
        const char *name = sv_tag_name((sv_tag)t);
        assert_int_equal(sv_tag_by_name(name, strlen(name)), t); /* names are unique */
    }
    assert_int_equal(sv_elem_by_name("f64", 3), SV_ELEM_F64);
    assert_int_equal(sv_elem_size(SV_ELEM_U16), 2);
    assert_int_equal(sv_elem_size(SV_ELEM_NONE), 0);
    assert_string_equal(sv_kind_name(SV_PACKED), "packed");
}

/* One version, three views: CMake's project(VERSION) (passed to this test
 * as SERVAL_PROJECT_VERSION), the generated macros and the library's
 * run-time answers must all agree. */
static void test_version(void **state)
{
    (void)state;
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", SERVAL_VERSION_MAJOR, SERVAL_VERSION_MINOR,
             SERVAL_VERSION_PATCH);
    assert_string_equal(text, SERVAL_PROJECT_VERSION);
    assert_string_equal(SERVAL_VERSION_STRING, SERVAL_PROJECT_VERSION);
    assert_string_equal(sv_version(), SERVAL_PROJECT_VERSION);
    assert_int_equal(SERVAL_VERSION_NUMBER,
                     SERVAL_VERSION_MAJOR * 10000 + SERVAL_VERSION_MINOR * 100 +
                         SERVAL_VERSION_PATCH);
    assert_int_equal(sv_version_number(), SERVAL_VERSION_NUMBER);
}

static sv_value build_sample(sv_doc *doc)
{
    sv_value root = sv_map(doc, 0);
    sv_value arr = sv_array(doc, 0);
    sv_array_append(doc, &arr, sv_f64(-0.0));
    sv_array_append(doc, &arr, sv_strz(doc, "x/y~z"));
    float c[4] = {1, 0.5f, 0, 1};
    sv_array_append(doc, &arr, sv_tuple(doc, SV_TAG_COLOR, SV_ELEM_F32, c));
    sv_meta_set(doc, &arr, sv_int(7));
    sv_map_append_str(doc, &root, "a/b", arr);
    sv_value obj = sv_object(doc, sv_uint(0xdeadbeef), 0);
    sv_map_append_str(doc, &obj, "m_x", sv_int_w(1, 4));
    sv_map_append(doc, &root, sv_int(1), obj);
    return root;
}

static void test_equal_and_copy(void **state)
{
    (void)state;
    sv_doc *d1 = sv_doc_new(NULL), *d2 = sv_doc_new(NULL);
    sv_value a = build_sample(d1);
    sv_value b = build_sample(d2);
    assert_true(sv_equal(&a, &b));
    sv_value c = sv_copy(d2, &a);
    assert_true(sv_equal(&a, &c));
    sv_doc_free(d1); /* the copy does not point into d1 */
    assert_true(sv_equal(&b, &c));

    /* floats compare by bits */
    sv_value z = sv_f64(0.0), nz = sv_f64(-0.0), n1 = sv_f64(NAN), n2 = sv_f64(NAN);
    assert_false(sv_equal(&z, &nz));
    assert_true(sv_equal(&n1, &n2));
    /* width, flags and tags matter */
    sv_value i8 = sv_int(5), i4 = sv_int_w(5, 4), t = sv_with_tag(sv_int(5), SV_TAG_RID);
    assert_false(sv_equal(&i8, &i4));
    assert_false(sv_equal(&i8, &t));
    /* meta matters */
    sv_value m1 = sv_array(d2, 0), m2 = sv_array(d2, 0);
    sv_meta_set(d2, &m1, sv_int(1));
    assert_false(sv_equal(&m1, &m2));
    sv_doc_free(d2);
}

typedef struct walk_log {
    char text[512];
    size_t len;
} walk_log;

static bool log_path(void *ctx, const sv_value *v, unsigned depth, const char *path)
{
    walk_log *w = ctx;
    w->len += (size_t)snprintf(w->text + w->len, sizeof w->text - w->len, "%u:%s:%s;", depth,
                               path, sv_kind_name(sv_kind_of(v)));
    return true;
}

static const char sample_walk[] = "0::map;1:/a~1b:array;2:/a~1b/0:float;2:/a~1b/1:string;"
                                  "2:/a~1b/2:tuple;1:/1:object;2:/1/m_x:int;";

static void test_visit(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = build_sample(doc);
    walk_log w = {{0}, 0};
    assert_true(sv_visit(&root, true, log_path, &w));
    /* JSON Pointer escapes: "a/b" -> a~1b; non-string keys use the pair index */
    assert_string_equal(w.text, sample_walk);
    sv_doc_free(doc);
}

/* The deprecated sv_walk: the context last, the same walk. */
static bool log_path_ctx_last(const sv_value *v, unsigned depth, const char *path, void *ctx)
{
    return log_path(ctx, v, depth, path);
}

static void test_walk_deprecated(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = build_sample(doc);
    walk_log w = {{0}, 0};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    assert_true(sv_walk(&root, true, log_path_ctx_last, &w));
#pragma GCC diagnostic pop
    assert_string_equal(w.text, sample_walk);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_is_16_bytes),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_null_safety),
        cmocka_unit_test(test_strings_and_interning),
        cmocka_unit_test(test_containers),
        cmocka_unit_test(test_tuples_and_packed),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_equal_and_copy),
        cmocka_unit_test(test_visit),
        cmocka_unit_test(test_walk_deprecated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
