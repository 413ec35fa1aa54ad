/* sv_convert_check and sv_convert_lower (serval/convert.h): every value a
 * target cannot write exactly is found in one walk, with its JSON Pointer;
 * lossy mode writes the nearest form. The BSON expected below is written
 * byte by byte from the BSON specification (bsonspec.org), not taken from
 * serval's output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_tree.h"
#include "serval/serval.h"

#if SERVAL_WITH_GODOT && SERVAL_WITH_BSON

/* What the callback saw, one line per change: "pointer|message|refused". */
typedef struct seen {
    char lines[16][256];
    int n;
} seen;

static void record(void *ctx, const sv_convert_change *c)
{
    seen *s = ctx;
    if (s->n == 16) return;
    snprintf(s->lines[s->n++], sizeof s->lines[0], "%s|%s|%d", c->pointer, c->message,
             c->refused ? 1 : 0);
    assert_non_null(c->what);
    if (c->refused)
        assert_null(c->becomes);
    else
        assert_non_null(c->becomes);
}

/* sv_convert_lower to format fmt in lossy mode, every change recorded in *s. */
static sv_status lower_lossy(const char *fmt, const sv_value *tree, seen *s, sv_value *out,
                             size_t *changes, sv_error *err)
{
    sv_convert_opts o;
    sv_convert_opts_init(&o);
    o.lossy = true;
    o.report = record;
    o.report_ctx = s;
    *changes = 0;
    sv_error_clear(err);
    return sv_convert_lower(test_doc, sv_format_find(fmt), tree, &o, out, changes, err);
}

static sv_value str(const char *s)
{
    return sv_strz(test_doc, s);
}

/* {"name": "x", "pos": Vector3(12.5, 0, -3.25), "path": PackedVector3Array
 * of (1, 2, 3) and (4, 5, 6)}, as the Godot decoder makes them. */
static sv_value godot_tree(void)
{
    const float pos[3] = {12.5f, 0.0f, -3.25f};
    const float path[6] = {1, 2, 3, 4, 5, 6};
    return tree_map(3, str("name"), str("x"), str("pos"),
                    sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, pos), str("path"),
                    sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, path, 6));
}

static void test_vector3_to_bson_refused_with_paths(void **state)
{
    (void)state;
    sv_value t = godot_tree();
    seen s = {0};
    sv_convert_opts o;
    sv_convert_opts_init(&o);
    o.report = record;
    o.report_ctx = &s;
    sv_error err;
    sv_error_clear(&err);
    size_t count = 0;
    assert_int_equal(sv_convert_check(sv_format_find("bson"), &t, &o, &count, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(count, 2);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.lines[0], "/pos|a vector3 has no BSON form|0");
    assert_string_equal(s.lines[1], "/path|a packed_vector3 of 2 items has no BSON form|0");
    /* the error names the first */
    assert_int_equal(err.status, SV_ERR_UNSUPPORTED);
    assert_string_equal(err.format, "bson");
    assert_string_equal(err.path, "/pos");
}

static void test_without_callback_the_first_stops(void **state)
{
    (void)state;
    sv_value t = godot_tree();
    sv_error err;
    sv_error_clear(&err);
    size_t count = 0;
    assert_int_equal(sv_convert_check(sv_format_find("bson"), &t, NULL, &count, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(count, 1);
    assert_string_equal(err.path, "/pos");
}

/* BSON of {"name": "x", "pos": [12.5, 0.0, -3.25], "path": [[1,2,3],[4,5,6]]}:
 * the tuple's float32 numbers become doubles, each item an array. */
/* clang-format off */
static const uint8_t expected_bson[] = {
    0x99, 0x00, 0x00, 0x00,                                     /* 153 bytes */
    0x02, 'n', 'a', 'm', 'e', 0x00, 0x02, 0x00, 0x00, 0x00, 'x', 0x00, /* "x" */
    0x04, 'p', 'o', 's', 0x00, 0x26, 0x00, 0x00, 0x00,          /* array, 38 bytes */
    0x01, '0', 0x00, 0, 0, 0, 0, 0, 0, 0x29, 0x40,              /* 12.5 */
    0x01, '1', 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x00,              /* 0.0 */
    0x01, '2', 0x00, 0, 0, 0, 0, 0, 0, 0x0A, 0xC0,              /* -3.25 */
    0x00,
    0x04, 'p', 'a', 't', 'h', 0x00, 0x57, 0x00, 0x00, 0x00,     /* array, 87 bytes */
    0x04, '0', 0x00, 0x26, 0x00, 0x00, 0x00,                    /* [1, 2, 3] */
    0x01, '0', 0x00, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F,              /* 1.0 */
    0x01, '1', 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x40,              /* 2.0 */
    0x01, '2', 0x00, 0, 0, 0, 0, 0, 0, 0x08, 0x40,              /* 3.0 */
    0x00,
    0x04, '1', 0x00, 0x26, 0x00, 0x00, 0x00,                    /* [4, 5, 6] */
    0x01, '0', 0x00, 0, 0, 0, 0, 0, 0, 0x10, 0x40,              /* 4.0 */
    0x01, '1', 0x00, 0, 0, 0, 0, 0, 0, 0x14, 0x40,              /* 5.0 */
    0x01, '2', 0x00, 0, 0, 0, 0, 0, 0, 0x18, 0x40,              /* 6.0 */
    0x00,
    0x00,                                                       /* end of "path" */
    0x00,                                                       /* end of the document */
};
/* clang-format on */

static void test_vector3_to_bson_lossy(void **state)
{
    (void)state;
    sv_value t = godot_tree();
    seen s = {0};
    sv_error err;
    size_t changes;
    sv_value out;
    assert_int_equal(lower_lossy("bson", &t, &s, &out, &changes, &err), SV_OK);
    assert_int_equal(changes, 2);
    assert_string_equal(s.lines[0], "/pos|a vector3 became an array of 3 numbers|0");
    assert_string_equal(
        s.lines[1], "/path|a packed_vector3 of 2 items became an array of 2 arrays of 3 numbers|0");
    /* the source tree is untouched */
    assert_int_equal(sv_kind_of(sv_map_getz(&t, "pos")), SV_TUPLE);
    const sv_value *pos = sv_map_getz(&out, "pos");
    assert_int_equal(sv_kind_of(pos), SV_ARRAY);
    assert_int_equal(sv_len(pos), 3);
    assert_true(sv_get_f64(sv_array_at(pos, 0)) == 12.5);
    assert_true(sv_get_f64(sv_array_at(pos, 2)) == -3.25);
    const sv_value *path = sv_map_getz(&out, "path");
    assert_int_equal(sv_len(path), 2);
    assert_true(sv_get_f64(sv_array_at(sv_array_at(path, 1), 2)) == 6.0);

    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_bson_encode(&out, NULL, &b, &err), SV_OK);
    assert_int_equal(b.len, sizeof expected_bson);
    assert_memory_equal(b.data, expected_bson, sizeof expected_bson);
    sv_buf_free(&b);
}

/* A tree as examples/player.json has it, to Godot 3: every value without
 * a Godot 3 type, in one walk, in tree order. */
static void test_player_to_godot3_reports_all(void **state)
{
    (void)state;
    sv_value player =
        tree_obj(str("Player"), 3, "name", str("Ann"), "skills",
                 tree_arr(1, sv_with_tag(str("dash"), SV_TAG_STRING_NAME)), "companion", sv_ref(2));
    sv_value t = tree_map(3, str("saved_at"), sv_with_tag(sv_int(1700000000000), SV_TAG_DATETIME),
                          str("player"), player, str("settings"),
                          tree_map(1, str("difficulty"), sv_with_tag(sv_int_w(2, 4), SV_TAG_ENUM)));
    seen s = {0};
    sv_convert_opts o;
    sv_convert_opts_init(&o);
    o.report = record;
    o.report_ctx = &s;
    size_t count = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_convert_check(sv_format_find("godot3"), &t, &o, &count, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(count, 5);
    assert_string_equal(s.lines[0], "/saved_at|an int tagged datetime has no Godot type|0");
    assert_string_equal(s.lines[1],
                        "/player|an object of class Player has no Godot type: a full object is "
                        "written only with objects=full|0");
    assert_string_equal(s.lines[2],
                        "/player/skills/0|a string tagged string_name has no Godot type|0");
    assert_string_equal(s.lines[3], "/player/companion|a ref has no Godot type|0");
    assert_string_equal(s.lines[4], "/settings/difficulty|an int tagged enum has no Godot type|0");

    /* Godot 4 has StringName; with objects=full the object is one too */
    const char *names[] = {"objects"}, *values[] = {"full"};
    sv_options fo;
    sv_options_init(&fo);
    fo.names = names;
    fo.values = values;
    fo.count = 1;
    o.format_options = &fo;
    s.n = 0;
    assert_int_equal(sv_convert_check(sv_format_find("godot4"), &t, &o, &count, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(count, 3);
    assert_string_equal(s.lines[0], "/saved_at|an int tagged datetime has no Godot type|0");
    assert_string_equal(s.lines[1], "/player/companion|a ref has no Godot type|0");
    assert_string_equal(s.lines[2], "/settings/difficulty|an int tagged enum has no Godot type|0");

    /* lossy: the datetime is its int, the enum its i32, the ref its target */
    o.lossy = true;
    s.n = 0;
    sv_value out;
    size_t changes = 0;
    assert_int_equal(
        sv_convert_lower(test_doc, sv_format_find("godot4"), &t, &o, &out, &changes, &err), SV_OK);
    assert_int_equal(changes, 3);
    const sv_value *at = sv_map_getz(&out, "saved_at");
    assert_int_equal(sv_kind_of(at), SV_INT);
    assert_int_equal(sv_tag_of(at), SV_TAG_NONE);
    assert_true(sv_get_int(at) == 1700000000000);
    const sv_value *comp = sv_map_getz(sv_map_getz(&out, "player"), "companion");
    assert_int_equal(sv_kind_of(comp), SV_INT);
    assert_int_equal(sv_get_int(comp), 2);
}

/* A float64 Vector3 in Godot 3 (float32 math): 0.5 is held exactly and is
 * written without a word; 0.1 is not, and the rounding is reported. */
static void test_godot3_rounding(void **state)
{
    (void)state;
    const double exact[3] = {0.5, -2.0, 1024.0}, inexact[3] = {0.1, 0, 0};
    sv_value t = tree_map(2, str("a"), sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F64, exact),
                          str("b"), sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F64, inexact));
    seen s = {0};
    sv_value out;
    size_t changes;
    sv_error err;
    assert_int_equal(lower_lossy("godot3", &t, &s, &out, &changes, &err), SV_OK);
    assert_int_equal(changes, 1);
    assert_string_equal(s.lines[0], "/b|a vector3 became a Vector3 of float32 numbers (rounded)|0");
    const sv_value *b = sv_map_getz(&out, "b");
    assert_int_equal(sv_elem_of(b), SV_ELEM_F32);
    assert_true(sv_number_at(b, 0) == (double)0.1f);
    /* godot4 writes float64 math with the 64-bit flag: exact */
    size_t count = 1;
    assert_int_equal(sv_convert_check(sv_format_find("godot4"), &t, NULL, &count, &err), SV_OK);
    assert_int_equal(count, 0);
}

/* No BSON number holds 2^63: refused even in lossy mode. Int keys become
 * their decimal text. */
static void test_bson_refusals_and_keys(void **state)
{
    (void)state;
    sv_value t = tree_map(2, str("big"), sv_uint(UINT64_C(9223372036854775808)), str("inv"),
                          tree_map(1, sv_int(42), str("map")));
    seen s = {0};
    sv_value out;
    size_t changes;
    sv_error err;
    assert_int_equal(lower_lossy("bson", &t, &s, &out, &changes, &err), SV_ERR_UNSUPPORTED);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.lines[0],
                        "/big|a uint has no BSON form: 9223372036854775808 is above int64|1");
    assert_string_equal(s.lines[1], "/inv/0|an int key 42 became the string key \"42\"|0");
    assert_string_equal(err.path, "/big");
    assert_true(sv_equal(&out, &t)); /* a failed lowering leaves *out the source */

    sv_value ok = tree_map(1, str("inv"), tree_map(1, sv_int(42), str("map")));
    s.n = 0;
    assert_int_equal(lower_lossy("bson", &ok, &s, &out, &changes, &err), SV_OK);
    const sv_value *key = sv_key_at(sv_map_getz(&out, "inv"), 0);
    assert_int_equal(sv_kind_of(key), SV_STRING);
    assert_string_equal(sv_get_str(key, NULL), "42");
}

/* The pointer of each report names the value's own way from the root, with
 * the escapes of RFC 6901 ("~" as "~0", "/" as "~1"), an index for an array
 * item and for an entry whose key is not a string, and again the right way
 * after a sibling's report and after a deeper one. */
static void test_report_paths_through_keys_and_items(void **state)
{
    (void)state;
    const float pos[3] = {1.0f, 2.0f, 3.0f};
    sv_value v3 = sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, pos);
    sv_value t = tree_arr(
        3, sv_int(0),
        tree_map(2, str("a/b"), tree_arr(2, sv_null(), tree_map(1, str("~k"), v3)), str("c"), v3),
        tree_map(2, sv_int(7), v3, str("d"), tree_arr(1, tree_arr(1, v3))));
    seen s = {0};
    sv_convert_opts o;
    sv_convert_opts_init(&o);
    o.report = record;
    o.report_ctx = &s;
    size_t count = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_convert_check(sv_format_find("bson"), &t, &o, &count, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(s.n, 6);
    /* a root array is a stream of documents: each item is a document's root */
    assert_string_equal(s.lines[0], "/0|an int has no BSON form: the root of a document is a map|1");
    assert_string_equal(s.lines[1], "/1/a~1b/1/~0k|a vector3 has no BSON form|0");
    assert_string_equal(s.lines[2], "/1/c|a vector3 has no BSON form|0");
    assert_string_equal(s.lines[3], "/2/0|an int key 7 has no BSON form|0");
    assert_string_equal(s.lines[4], "/2/0|a vector3 has no BSON form|0");
    assert_string_equal(s.lines[5], "/2/d/0/0|a vector3 has no BSON form|0");
    assert_string_equal(err.path, "/0");
}

static void test_json_holds_all_and_usage(void **state)
{
    (void)state;
    sv_value t = godot_tree();
    size_t count = 9;
    sv_error err;
    sv_error_clear(&err);
    assert_true(sv_convert_knows(sv_format_find("json")));
    assert_true(sv_convert_knows(sv_format_find("bson")));
    assert_int_equal(sv_convert_check(sv_format_find("json"), &t, NULL, &count, &err), SV_OK);
    assert_int_equal(count, 0);
#if SERVAL_WITH_KINGSISLE
    /* its encoder checks each value against the type list */
    assert_false(sv_convert_knows(sv_format_find("kingsisle")));
#endif
    sv_convert_opts zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(sv_convert_check(sv_format_find("bson"), &t, &zero, &count, &err),
                     SV_ERR_USAGE);
    /* a bad option of the target is the caller's error */
    const char *names[] = {"objects"}, *values[] = {"some"};
    sv_options fo;
    sv_options_init(&fo);
    fo.names = names;
    fo.values = values;
    fo.count = 1;
    sv_convert_opts o;
    sv_convert_opts_init(&o);
    o.format_options = &fo;
    sv_error_clear(&err);
    assert_int_equal(sv_convert_check(sv_format_find("godot4"), &t, &o, &count, &err),
                     SV_ERR_USAGE);
}

/* A Resonite data tree's root object and its container meta are the file's,
 * not values: Godot gets a Dictionary without a word; a URL has no Godot
 * type. BSON array keys that are not 0, 1, ... have none either. */
static void test_file_data_and_bson_types_to_godot(void **state)
{
    (void)state;
    sv_value keys = tree_arr(2, str("a"), str("b"));
    sv_value arr = tree_arr(2, sv_int(1), sv_int(2));
    assert_int_equal(sv_meta_set(test_doc, &arr, keys), SV_OK);
    sv_value root = tree_obj(str("resonite.DataTree"), 2, "URL",
                             sv_with_tag(str("resdb:///x"), SV_TAG_URL), "odd", arr);
    assert_int_equal(
        sv_meta_set(test_doc, &root,
                    tree_map(2, str("framing"), str("header"), str("compression"), str("brotli"))),
        SV_OK);
    seen s = {0};
    sv_value out;
    size_t changes;
    sv_error err;
    assert_int_equal(lower_lossy("godot4", &root, &s, &out, &changes, &err), SV_OK);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.lines[0], "/URL|a string tagged url became a String|0");
    assert_string_equal(s.lines[1], "/odd|an array became an Array (its keys dropped)|0");
    assert_int_equal(sv_kind_of(&out), SV_MAP);
    assert_null(sv_meta(&out)); /* the container's framing is not Godot's */
    assert_null(sv_meta(sv_map_getz(&out, "odd")));
    /* and it is written */
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_format_find("godot4")->encode(&out, NULL, &b, &err), SV_OK);
    sv_buf_free(&b);
#if SERVAL_WITH_RESONITE
    /* to Resonite, the same tree is exact */
    size_t count = 1;
    assert_int_equal(sv_convert_check(sv_format_find("resonite"), &root, NULL, &count, &err),
                     SV_OK);
    assert_int_equal(count, 0);
#endif
}

/* Godot 3 has typed arrays neither in its types nor on the wire: written
 * untyped, which is reported. A Godot 4 RID's id is not written by 3.x. */
static void test_godot3_typed_array_and_rid(void **state)
{
    (void)state;
    sv_value arr = tree_arr(1, sv_int(5));
    assert_int_equal(sv_meta_set(test_doc, &arr, tree_map(1, str("type"), str("int"))), SV_OK);
    sv_value t = tree_map(2, str("a"), arr, str("r"), sv_with_tag(sv_uint(77), SV_TAG_RID));
    seen s = {0};
    sv_convert_opts o;
    sv_convert_opts_init(&o);
    o.report = record;
    o.report_ctx = &s;
    size_t count = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_convert_check(sv_format_find("godot3"), &t, &o, &count, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(count, 2);
    assert_string_equal(s.lines[0],
                        "/a|a typed Array has no Godot type: godot3 writes typed arrays untyped|0");
    assert_string_equal(
        s.lines[1],
        "/r|a uint tagged rid has no Godot type: godot3 writes an RID without its id|0");
    /* Godot 4.4 keeps both */
    assert_int_equal(sv_convert_check(sv_format_find("godot4"), &t, &o, &count, &err), SV_OK);
    assert_int_equal(count, 0);
}

/* A tree deeper than the walk goes is refused, not a crash. */
static void test_depth_limit(void **state)
{
    (void)state;
    sv_value v = sv_int(1);
    for (int i = 0; i < 5000; i++)
        v = tree_arr(1, v);
    size_t count = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_convert_check(sv_format_find("godot4"), &v, NULL, &count, &err),
                     SV_ERR_DEPTH);
}

/* Every allocation of a lossy lowering may fail: an error, never a crash,
 * and nothing leaks once the document is freed. */
static void test_out_of_memory(void **state)
{
    (void)state;
    sv_value t = godot_tree();
    for (long n = 1; n < 200; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        sv_doc *doc = sv_doc_new(&ta.alloc);
        if (!doc) continue;
        sv_convert_opts o;
        sv_convert_opts_init(&o);
        o.lossy = true;
        sv_value out;
        sv_error err;
        sv_error_clear(&err);
        sv_status st = sv_convert_lower(doc, sv_format_find("bson"), &t, &o, &out, NULL, &err);
        assert_true(st == SV_OK || st == SV_ERR_NOMEM || st == SV_ERR_LIMIT);
        sv_doc_free(doc);
        assert_int_equal(ta.live_bytes, 0);
        if (st == SV_OK && ta.failures == 0) break;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_data_and_bson_types_to_godot),
        cmocka_unit_test(test_godot3_typed_array_and_rid),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_vector3_to_bson_refused_with_paths),
        cmocka_unit_test(test_without_callback_the_first_stops),
        cmocka_unit_test(test_vector3_to_bson_lossy),
        cmocka_unit_test(test_player_to_godot3_reports_all),
        cmocka_unit_test(test_godot3_rounding),
        cmocka_unit_test(test_bson_refusals_and_keys),
        cmocka_unit_test(test_json_holds_all_and_usage),
        cmocka_unit_test(test_report_paths_through_keys_and_items),
    };
    return cmocka_run_group_tests(tests, test_doc_setup, test_doc_teardown);
}

#else

int main(void)
{
    puts("test_convert: skipped (needs the Godot and BSON formats)");
    return 0;
}

#endif
