/* The editing calls of serval/edit.h: sv_map_set / sv_object_set (replace in
 * place or add), sv_array_set, the removals, JSON Pointer paths (RFC 6901)
 * with sv_get_path / sv_set_path / sv_remove_path, and sv_file_decode.
 *
 * Expected values: the pointers and results of RFC 6901 section 5 (the
 * example document and what each pointer names), the rule of its section 4
 * that "~01" is "~1" and not "/", and the save tests/godot/gen.gd writes
 * (examples/player.godot3: gold 1250, inventory ["sword", "health potion",
 * "map of the caves"], position Vector3(12.5, 0, -3.25)). Run from tests/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serval/edit.h"
#include "serval/serval.h"

static sv_value parse(sv_doc *doc, const char *json)
{
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_decode(doc, json, strlen(json), NULL, &v, &err) != SV_OK)
        fail_msg("%s: %s", json, err.message);
    return v;
}

static void assert_str(const sv_value *v, const char *want)
{
    assert_non_null(v);
    assert_int_equal(sv_kind_of(v), SV_STRING);
    size_t n = 0;
    const char *s = sv_get_str(v, &n);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(s, want, n);
}

static void assert_int_at(sv_doc *doc, sv_value *root, const char *ptr, int64_t want)
{
    sv_value *v = sv_get_path(doc, root, ptr);
    if (!v) fail_msg("nothing at \"%s\"", ptr);
    assert_int_equal(sv_get_int(v), want);
}

/* RFC 6901 section 5: the example document (keys in its order). */
static const char rfc_doc[] = "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2, "
                              "\"e^f\": 3, \"g|h\": 4, \"i\\\\j\": 5, \"k\\\"l\": 6, \" \": 7, "
                              "\"m~n\": 8}";

static void test_rfc6901_examples(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = parse(doc, rfc_doc);
    assert_ptr_equal(sv_get_path(doc, &root, ""), &root); /* the whole document */
    sv_value *foo = sv_get_path(doc, &root, "/foo");
    assert_non_null(foo);
    assert_int_equal(sv_kind_of(foo), SV_ARRAY);
    assert_int_equal(sv_len(foo), 2);
    assert_str(sv_get_path(doc, &root, "/foo/0"), "bar");
    assert_str(sv_get_path(doc, &root, "/foo/1"), "baz");
    assert_int_at(doc, &root, "/", 0);
    assert_int_at(doc, &root, "/a~1b", 1);
    assert_int_at(doc, &root, "/c%d", 2);
    assert_int_at(doc, &root, "/e^f", 3);
    assert_int_at(doc, &root, "/g|h", 4);
    assert_int_at(doc, &root, "/i\\j", 5);
    assert_int_at(doc, &root, "/k\"l", 6);
    assert_int_at(doc, &root, "/ ", 7);
    assert_int_at(doc, &root, "/m~0n", 8);
    /* root NULL: the document's root */
    sv_doc_set_root(doc, root);
    assert_int_at(doc, NULL, "/m~0n", 8);
    sv_doc_free(doc);
}

/* Section 4: "~01" becomes "~1" (the ~0 is replaced first... and only once):
 * it names the key "~1", never "/". */
static void test_escape_order(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = parse(doc, "{\"~1\": 1, \"/\": 2, \"~\": 3, \"a~/b\": 4}");
    assert_int_at(doc, &root, "/~01", 1);
    assert_int_at(doc, &root, "/~1", 2);
    assert_int_at(doc, &root, "/~0", 3);
    assert_int_at(doc, &root, "/a~0~1b", 4);
    sv_doc_free(doc);
}

static void test_bad_pointers(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = parse(doc, rfc_doc);
    static const char *const bad[] = {
        "foo",      /* not empty and not starting with "/" */
        "/foo/2",   /* past the end */
        "/foo/-",   /* the element after the last: nothing to get */
        "/foo/01",  /* leading zero (section 4: array indices have none) */
        "/foo/+1",  /* not a decimal index */
        "/foo/-1",  /* nor this */
        "/foo/bar", /* a key on an array */
        "/foo/0/x", /* into a string */
        "/~2",      /* "~" followed by other than 0 or 1 */
        "/m~n",     /* a bare "~" */
        "/a/b",     /* "/" splits: there is no key "a" */
        "/nothere",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (sv_get_path(doc, &root, bad[i])) fail_msg("\"%s\" found something", bad[i]);
    assert_null(sv_get_path(doc, &root, "/foo/99999999999999999999999"));
    /* a bad escape is no pointer, for setting and removing too */
    assert_int_equal(sv_set_path(doc, &root, "/m~n", sv_int(1)), SV_ERR_NOT_FOUND);
    assert_int_equal(sv_remove_path(doc, &root, "/m~n"), SV_ERR_NOT_FOUND);
    /* setting: the parent must exist and be a container; indices in range */
    assert_int_equal(sv_set_path(doc, &root, "/nothere/x", sv_int(1)), SV_ERR_NOT_FOUND);
    assert_int_equal(sv_set_path(doc, &root, "/foo/0/x", sv_int(1)), SV_ERR_TYPE);
    assert_int_equal(sv_set_path(doc, &root, "/foo/5", sv_int(1)), SV_ERR_RANGE);
    assert_int_equal(sv_set_path(doc, &root, "/foo/x", sv_int(1)), SV_ERR_RANGE);
    assert_int_equal(sv_remove_path(doc, &root, "/nothere"), SV_ERR_NOT_FOUND);
    assert_int_equal(sv_remove_path(doc, &root, "/foo/2"), SV_ERR_NOT_FOUND);
    /* nothing changed */
    assert_int_equal(sv_len(&root), 10);
    assert_int_equal(sv_len(sv_get_path(doc, &root, "/foo")), 2);
    sv_doc_free(doc);
}

static void test_set_and_remove_paths(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = parse(doc, rfc_doc);
    /* replace keeps the pair's place */
    assert_int_equal(sv_set_path(doc, &root, "/a~1b", sv_int(100)), SV_OK);
    assert_int_equal(sv_len(&root), 10);
    assert_str(sv_key_at(&root, 2), "a/b");
    assert_int_equal(sv_get_int(sv_val_at(&root, 2)), 100);
    /* a new key is appended, its name unescaped */
    assert_int_equal(sv_set_path(doc, &root, "/x~0y~1z", sv_strz(doc, "new")), SV_OK);
    assert_int_equal(sv_len(&root), 11);
    assert_str(sv_key_at(&root, 10), "x~y/z");
    assert_str(sv_get_path(doc, &root, "/x~0y~1z"), "new");
    /* arrays: an index replaces, "-" appends */
    assert_int_equal(sv_set_path(doc, &root, "/foo/1", sv_strz(doc, "qux")), SV_OK);
    assert_int_equal(sv_set_path(doc, &root, "/foo/-", sv_strz(doc, "end")), SV_OK);
    assert_int_equal(sv_len(sv_get_path(doc, &root, "/foo")), 3);
    assert_str(sv_get_path(doc, &root, "/foo/1"), "qux");
    assert_str(sv_get_path(doc, &root, "/foo/2"), "end");
    /* removals move the rest up */
    assert_int_equal(sv_remove_path(doc, &root, "/foo/0"), SV_OK);
    assert_str(sv_get_path(doc, &root, "/foo/0"), "qux");
    assert_int_equal(sv_len(sv_get_path(doc, &root, "/foo")), 2);
    assert_int_equal(sv_remove_path(doc, &root, "/"), SV_OK);
    assert_null(sv_get_path(doc, &root, "/"));
    assert_str(sv_key_at(&root, 1), "a/b");
    assert_int_equal(sv_remove_path(doc, &root, "/m~0n"), SV_OK);
    assert_int_equal(sv_len(&root), 9);
    /* the edited tree writes as such */
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_encode(&root, NULL, &out, &err), SV_OK);
    const char want[] = "{\"foo\":[\"qux\",\"end\"],\"a/b\":100,\"c%d\":2,\"e^f\":3,\"g|h\":4,"
                        "\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"x~y/z\":\"new\"}";
    assert_int_equal(out.len, strlen(want));
    assert_memory_equal(out.data, want, out.len);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_map_object_array_calls(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value map = parse(doc, "{\"a\": 1, \"b\": 2}");
    /* replace: same length, same place (sv_map_put_str would add a duplicate) */
    assert_int_equal(sv_map_set(doc, &map, "a", sv_int(10)), SV_OK);
    assert_int_equal(sv_len(&map), 2);
    assert_str(sv_key_at(&map, 0), "a");
    assert_int_equal(sv_get_int(sv_val_at(&map, 0)), 10);
    /* add */
    assert_int_equal(sv_map_set(doc, &map, "c", sv_int(3)), SV_OK);
    assert_int_equal(sv_len(&map), 3);
    assert_str(sv_key_at(&map, 2), "c");
    /* remove */
    assert_int_equal(sv_map_remove_key(&map, "a"), SV_OK);
    assert_int_not_equal(sv_map_remove_key(&map, "a"), SV_OK);
    assert_int_equal(sv_len(&map), 2);
    assert_str(sv_key_at(&map, 0), "b");
    /* not a map */
    sv_value arr = parse(doc, "[1, 2, 3]");
    assert_int_equal(sv_map_set(doc, &arr, "a", sv_int(1)), SV_ERR_TYPE);
    assert_int_not_equal(sv_map_remove_key(&arr, "a"), SV_OK);

    /* objects: fields by name, the class kept */
    sv_value obj = parse(doc, "{\"$class\": \"Player\", \"name\": \"Ann\", \"hp\": 5}");
    assert_int_equal(sv_kind_of(&obj), SV_OBJECT);
    assert_int_equal(sv_object_set(doc, &obj, "hp", sv_int(7)), SV_OK);
    assert_int_equal(sv_object_set(doc, &obj, "mp", sv_int(2)), SV_OK);
    assert_int_equal(sv_len(&obj), 3);
    assert_int_equal(sv_get_int(sv_map_getz(&obj, "hp")), 7);
    assert_str(sv_key_at(&obj, 2), "mp");
    assert_str(sv_object_class(&obj), "Player");

    /* arrays */
    assert_int_equal(sv_array_set(&arr, 1, sv_strz(doc, "two")), SV_OK);
    assert_str(sv_array_at(&arr, 1), "two");
    assert_int_equal(sv_array_set(&arr, 3, sv_int(4)), SV_ERR_RANGE);
    assert_int_equal(sv_array_set(&map, 0, sv_int(4)), SV_ERR_TYPE);
    assert_int_equal(sv_array_remove_at(&arr, 0), SV_OK);
    assert_int_not_equal(sv_array_remove_at(&arr, 2), SV_OK);
    assert_int_equal(sv_len(&arr), 2);
    assert_str(sv_array_at(&arr, 0), "two");
    assert_int_equal(sv_get_int(sv_array_at(&arr, 1)), 3);
    sv_doc_free(doc);
}

/* A map with integer keys (a Godot Dictionary {1: "sword"}) takes the key in
 * decimal as a token. */
static void test_integer_keys(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = parse(doc, "{\"inv\": {\"$map\": [[1, \"sword\"], [7, \"potion\"]]}}");
    assert_str(sv_get_path(doc, &root, "/inv/7"), "potion");
    assert_str(sv_get_path(doc, &root, "/inv/1"), "sword");
    assert_null(sv_get_path(doc, &root, "/inv/2"));
    assert_int_equal(sv_set_path(doc, &root, "/inv/7", sv_strz(doc, "elixir")), SV_OK);
    assert_str(sv_get_path(doc, &root, "/inv/7"), "elixir");
    assert_int_equal(sv_len(sv_get_path(doc, &root, "/inv")), 2);
    sv_doc_free(doc);
}

static void check_player(sv_doc *doc, sv_value *root)
{
    assert_int_equal(sv_get_int(sv_get_path(doc, root, "/player/gold")), 1250);
    assert_int_equal(sv_get_int(sv_get_path(doc, root, "/player/level")), 12);
    assert_str(sv_get_path(doc, root, "/player/name"), "Ann");
    assert_str(sv_get_path(doc, root, "/player/inventory/1"), "health potion");
    sv_value *pos = sv_get_path(doc, root, "/player/position");
    assert_non_null(pos);
    assert_int_equal(sv_kind_of(pos), SV_TUPLE);
    assert_int_equal(sv_tag_of(pos), SV_TAG_VECTOR3);
    assert_true(sv_number_at(pos, 0) == 12.5 && sv_number_at(pos, 1) == 0.0 &&
                sv_number_at(pos, 2) == -3.25);
}

static void test_file_decode(void **state)
{
    (void)state;
    if (!sv_format_find("godot3")) {
        print_message("built without Godot: sv_file_decode not tested\n");
        skip();
    }
    sv_error err;
    sv_error_clear(&err);
    /* detected from the bytes */
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    if (sv_file_decode(doc, "../examples/player.godot3", NULL, NULL, &root, &err) != SV_OK)
        fail_msg("%s", err.message);
    check_player(doc, &root);
    /* edit, write back as Godot 3, read again */
    assert_int_equal(sv_set_path(doc, &root, "/player/gold", sv_int(9999)), SV_OK);
    const sv_format *g3 = sv_format_find("godot3");
    assert_non_null(g3);
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (g3->encode(&root, NULL, &out, &err) != SV_OK) fail_msg("%s", err.message);
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value back;
    if (g3->decode(doc2, out.data, out.len, NULL, &back, &err) != SV_OK) fail_msg("%s", err.message);
    assert_int_equal(sv_get_int(sv_get_path(doc2, &back, "/player/gold")), 9999);
    assert_str(sv_get_path(doc2, &back, "/player/inventory/2"), "map of the caves");
    sv_buf_free(&out);
    sv_doc_free(doc2);
    sv_doc_free(doc);

    /* a format named */
    doc = sv_doc_new(NULL);
    if (sv_file_decode(doc, "../examples/player.godot3", g3, NULL, &root, &err) != SV_OK)
        fail_msg("%s", err.message);
    check_player(doc, &root);
    sv_doc_free(doc);

    /* a missing file is an I/O error that names it */
    doc = sv_doc_new(NULL);
    sv_error_clear(&err);
    assert_int_equal(sv_file_decode(doc, "../examples/no-such-file.godot3", NULL, NULL, &root, &err),
                     SV_ERR_IO);
    assert_non_null(strstr(err.message, "no-such-file.godot3"));
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc6901_examples),     cmocka_unit_test(test_escape_order),
        cmocka_unit_test(test_bad_pointers),         cmocka_unit_test(test_set_and_remove_paths),
        cmocka_unit_test(test_map_object_array_calls), cmocka_unit_test(test_integer_keys),
        cmocka_unit_test(test_file_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
