/* Integers beyond ±2^53 in typed JSON (docs/json.md, "Integers beyond
 * 2^53"): the writer puts every integer that a double cannot hold exactly in
 * a string inside its form, and writes every other integer as before; the
 * reader takes both spellings everywhere. The boundaries are 2^53 =
 * 9007199254740992 (written as a number) and 2^53 + 1 (a string), on both
 * sides of zero, and the extremes of int64 and uint64. Every expected text is
 * written out by hand from the rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_tree.h"
#include "serval/serval.h"

#define P53 INT64_C(9007199254740992) /* 2^53 */

/* ---- helpers -------------------------------------------------------------- */

static void check_with(sv_value v, int indent, bool plain, const char *expected)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.indent = indent;
    o.plain = plain;
    sv_status st = sv_json_encode(&v, &o, &b, &err);
    if (st != SV_OK) {
        sv_buf_free(&b);
        fail_msg("write failed: %s (expected %s)", err.message, expected);
    }
    if (b.len != strlen(expected) || memcmp(b.data, expected, b.len) != 0) {
        fprintf(stderr, "got:      %.*s\nexpected: %s\n", (int)b.len, (const char *)b.data,
                expected);
        sv_buf_free(&b);
        fail_msg("output differs");
    }
    sv_buf_free(&b);
}

#define CHECK(v, exp) check_with((v), 0, false, (exp))

static sv_value rd(const char *text)
{
    sv_value v;
    sv_error err;
    sv_status st = sv_json_decode(test_doc, text, strlen(text), NULL, &v, &err);
    if (st != SV_OK) print_error("unexpected failure: %s\n  text: %s\n", err.message, text);
    assert_int_equal(st, SV_OK);
    return v;
}

/* Reading text fails with st at byte off, path path. */
static void check_error(const char *text, sv_status st, uint64_t off, const char *path)
{
    sv_value v;
    sv_error err;
    sv_status got = sv_json_decode(test_doc, text, strlen(text), NULL, &v, &err);
    if (got != st || err.byte_offset != off || strcmp(err.path, path) != 0)
        print_error("text: %s\n  got: %s at %llu path '%s' (%s)\n  want: %s at %llu path '%s'\n",
                    text, sv_status_name(got), (unsigned long long)err.byte_offset, err.path,
                    err.message, sv_status_name(st), (unsigned long long)off, path);
    assert_int_equal(got, st);
    assert_string_equal(err.format, "json");
    assert_int_equal(err.byte_offset, off);
    assert_string_equal(err.path, path);
}

static void expect_int(const char *text, sv_kind kind, bool explicit_width, int64_t i, uint64_t u)
{
    sv_value v = rd(text);
    assert_int_equal(sv_kind_of(&v), kind);
    assert_int_equal(sv_width(&v), 8);
    assert_int_equal(sv_is_explicit(&v), explicit_width);
    if (kind == SV_INT)
        assert_true(v.as.i == i);
    else
        assert_true(v.as.u == u);
}

/* ---- the writer ----------------------------------------------------------- */

static void test_write_int(void **state)
{
    (void)state;
    CHECK(sv_int(P53), "9007199254740992");
    CHECK(sv_int(P53 + 1), "{\"$int\":\"9007199254740993\"}");
    CHECK(sv_int(-P53), "-9007199254740992");
    CHECK(sv_int(-P53 - 1), "{\"$int\":\"-9007199254740993\"}");
    CHECK(sv_int(INT64_MIN), "{\"$int\":\"-9223372036854775808\"}");
    CHECK(sv_int(INT64_MAX), "{\"$int\":\"9223372036854775807\"}");
    /* pretty: a space after the colon, like every one-key form */
    check_with(sv_int(P53 + 1), 2, false, "{\"$int\": \"9007199254740993\"}");
    /* plain output is for tools that know no forms: numbers */
    check_with(sv_int(INT64_MIN), 0, true, "-9223372036854775808");
}

static void test_write_i64(void **state)
{
    (void)state;
    CHECK(sv_int_w(P53, 8), "{\"$i64\":9007199254740992}");
    CHECK(sv_int_w(P53 + 1, 8), "{\"$i64\":\"9007199254740993\"}");
    CHECK(sv_int_w(-P53, 8), "{\"$i64\":-9007199254740992}");
    CHECK(sv_int_w(-P53 - 1, 8), "{\"$i64\":\"-9007199254740993\"}");
    CHECK(sv_int_w(INT64_MIN, 8), "{\"$i64\":\"-9223372036854775808\"}");
    CHECK(sv_int_w(INT64_MAX, 8), "{\"$i64\":\"9223372036854775807\"}");
    check_with(sv_int_w(INT64_MAX, 8), 2, false, "{\"$i64\": \"9223372036854775807\"}");
}

static void test_write_uint(void **state)
{
    (void)state;
    CHECK(sv_uint((uint64_t)P53), "{\"$u64\":9007199254740992}");
    /* at or below int64's maximum a width-less uint reads back explicit either way */
    CHECK(sv_uint((uint64_t)P53 + 1), "{\"$u64\":\"9007199254740993\"}");
    CHECK(sv_uint((uint64_t)INT64_MAX), "{\"$u64\":\"9223372036854775807\"}");
    CHECK(sv_uint(UINT64_MAX), "{\"$uint\":\"18446744073709551615\"}");
    CHECK(sv_uint_w((uint64_t)P53, 8), "{\"$u64\":9007199254740992}");
    CHECK(sv_uint_w((uint64_t)P53 + 1, 8), "{\"$u64\":\"9007199254740993\"}");
    CHECK(sv_uint_w(UINT64_MAX, 8), "{\"$u64\":\"18446744073709551615\"}");
    check_with(sv_uint(UINT64_MAX), 2, false, "{\"$uint\": \"18446744073709551615\"}");
    check_with(sv_uint_w(UINT64_MAX, 8), 0, true, "18446744073709551615");
}

static void test_write_packed_and_tuples(void **state)
{
    (void)state;
    int64_t i64[6] = {P53, P53 + 1, -P53, -P53 - 1, INT64_MIN, INT64_MAX};
    CHECK(sv_packed(test_doc, SV_ELEM_I64, SV_TAG_NONE, i64, 6),
          "{\"$i64s\":[9007199254740992,\"9007199254740993\",-9007199254740992,"
          "\"-9007199254740993\",\"-9223372036854775808\",\"9223372036854775807\"]}");
    uint64_t u64[4] = {1, (uint64_t)P53, (uint64_t)P53 + 1, UINT64_MAX};
    CHECK(sv_packed(test_doc, SV_ELEM_U64, SV_TAG_NONE, u64, 4),
          "{\"$u64s\":[1,9007199254740992,\"9007199254740993\",\"18446744073709551615\"]}");
    check_with(sv_packed(test_doc, SV_ELEM_U64, SV_TAG_NONE, u64, 4), 2, false,
               "{\"$u64s\": [1, 9007199254740992, \"9007199254740993\", "
               "\"18446744073709551615\"]}");
    check_with(sv_packed(test_doc, SV_ELEM_U64, SV_TAG_NONE, u64, 4), 0, true,
               "[1,9007199254740992,9007199254740993,18446744073709551615]");
    int64_t v2[2] = {-P53 - 1, P53};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2I, SV_ELEM_I64, v2),
          "{\"$vector2i\":[\"-9007199254740993\",9007199254740992],\"$elem\":\"i64\"}");
    uint64_t pv[4] = {UINT64_MAX, 0, 1, (uint64_t)P53 + 1};
    CHECK(sv_packed(test_doc, SV_ELEM_U64, SV_TAG_PACKED_VECTOR2, pv, 4),
          "{\"$packed_vector2\":[[\"18446744073709551615\",0],[1,\"9007199254740993\"]],"
          "\"$elem\":\"u64\"}");
}

static void test_write_everywhere(void **state)
{
    (void)state;
    /* tags wrap the integer's own form */
    CHECK(sv_with_tag(sv_uint_w(UINT64_MAX, 8), SV_TAG_RID),
          "{\"$rid\":{\"$u64\":\"18446744073709551615\"}}");
    CHECK(sv_with_tag(sv_int(-P53 - 1), SV_TAG_DATETIME),
          "{\"$datetime\":{\"$int\":\"-9007199254740993\"}}");
    CHECK(sv_with_tag(sv_int(P53), SV_TAG_DATETIME), "{\"$datetime\":9007199254740992}");
    /* references */
    CHECK(sv_ref((uint64_t)P53), "{\"$ref\":9007199254740992}");
    CHECK(sv_ref((uint64_t)P53 + 1), "{\"$ref\":\"9007199254740993\"}");
    CHECK(sv_ref(UINT64_MAX), "{\"$ref\":\"18446744073709551615\"}");
    /* array items (the container writer's own path for width-less ints) */
    CHECK(tree_arr(3, sv_int(P53), sv_int(P53 + 1), sv_int(-P53 - 1)),
          "[9007199254740992,{\"$int\":\"9007199254740993\"},{\"$int\":\"-9007199254740993\"}]");
    /* map values and keys: a key that is no string makes the $map list */
    CHECK(tree_map(1, sv_str(test_doc, "id", 2), sv_int(INT64_MAX)),
          "{\"id\":{\"$int\":\"9223372036854775807\"}}");
    CHECK(tree_map(2, sv_uint(UINT64_MAX), sv_int(1), sv_int(P53), sv_int(2)),
          "{\"$map\":[[{\"$uint\":\"18446744073709551615\"},1],[9007199254740992,2]]}");
    /* meta data */
    sv_value a = tree_arr(0);
    assert_int_equal(
        sv_meta_set(test_doc, &a, tree_map(1, sv_str(test_doc, "n", 1), sv_int(INT64_MIN))), SV_OK);
    CHECK(a, "{\"$array\":[],\"$meta\":{\"n\":{\"$int\":\"-9223372036854775808\"}}}");
    /* a class hash: a string alone would be a class name */
    CHECK(tree_obj(sv_uint(UINT64_MAX), 1, "x", sv_int(1)),
          "{\"$class\":{\"$uint\":\"18446744073709551615\"},\"x\":1}");
    CHECK(tree_obj(sv_uint((uint64_t)P53), 1, "x", sv_int(1)),
          "{\"$class\":9007199254740992,\"x\":1}");
}

/* ---- the reader ----------------------------------------------------------- */

static void test_read_both_spellings(void **state)
{
    (void)state;
    /* bare literals, as before */
    expect_int("9007199254740993", SV_INT, false, P53 + 1, 0);
    expect_int("-9223372036854775808", SV_INT, false, INT64_MIN, 0);
    expect_int("18446744073709551615", SV_UINT, false, 0, UINT64_MAX);
    expect_int("{\"$i64\": 9223372036854775807}", SV_INT, true, INT64_MAX, 0);
    expect_int("{\"$u64\": 18446744073709551615}", SV_UINT, true, 0, UINT64_MAX);
    /* strings */
    expect_int("{\"$int\": \"9007199254740992\"}", SV_INT, false, P53, 0);
    expect_int("{\"$int\": \"9007199254740993\"}", SV_INT, false, P53 + 1, 0);
    expect_int("{\"$int\": \"-9007199254740992\"}", SV_INT, false, -P53, 0);
    expect_int("{\"$int\": \"-9007199254740993\"}", SV_INT, false, -P53 - 1, 0);
    expect_int("{\"$int\": \"-9223372036854775808\"}", SV_INT, false, INT64_MIN, 0);
    expect_int("{\"$int\": \"9223372036854775807\"}", SV_INT, false, INT64_MAX, 0);
    expect_int("{\"$uint\": \"9007199254740993\"}", SV_UINT, true, 0, (uint64_t)P53 + 1);
    expect_int("{\"$uint\": \"18446744073709551615\"}", SV_UINT, false, 0, UINT64_MAX);
    expect_int("{\"$i64\": \"-9007199254740993\"}", SV_INT, true, -P53 - 1, 0);
    expect_int("{\"$i64\": \"-9223372036854775808\"}", SV_INT, true, INT64_MIN, 0);
    expect_int("{\"$i64\": \"9223372036854775807\"}", SV_INT, true, INT64_MAX, 0);
    expect_int("{\"$u64\": \"9007199254740993\"}", SV_UINT, true, 0, (uint64_t)P53 + 1);
    expect_int("{\"$u64\": \"18446744073709551615\"}", SV_UINT, true, 0, UINT64_MAX);
    /* $int and $uint also take numbers, and small values */
    expect_int("{\"$int\": 5}", SV_INT, false, 5, 0);
    expect_int("{\"$uint\": 5}", SV_UINT, true, 0, 5); /* as {"$u64": 5} */
    expect_int("{\"$u64\": \"0\"}", SV_UINT, true, 0, 0);
    /* an escape spells the same string */
    expect_int("{\"$u64\": \"\\u0031\"}", SV_UINT, true, 0, 1);

    sv_value v = rd("{\"$ref\": \"18446744073709551615\"}");
    assert_int_equal(sv_kind_of(&v), SV_REF);
    assert_true(v.as.u == UINT64_MAX);
    v = rd("{\"$rid\": {\"$u64\": \"18446744073709551615\"}}");
    assert_int_equal(sv_tag_of(&v), SV_TAG_RID);
    assert_true(v.as.u == UINT64_MAX);
    v = rd("{\"$class\": {\"$uint\": \"18446744073709551615\"}, \"x\": 1}");
    const sv_value *cls = sv_object_class(&v);
    assert_non_null(cls);
    assert_int_equal(sv_kind_of(cls), SV_UINT);
    assert_true(cls->as.u == UINT64_MAX);
    v = rd("{\"$class\": {\"$uint\": 7}}");
    assert_true(sv_object_class(&v)->as.u == 7);
}

static void test_read_packed_strings(void **state)
{
    (void)state;
    sv_value v = rd("{\"$u64s\": [1, \"18446744073709551615\", 9007199254740993]}");
    assert_int_equal(sv_kind_of(&v), SV_PACKED);
    assert_int_equal(v.len, 3);
    uint64_t u[3];
    memcpy(u, v.as.data, sizeof u);
    assert_true(u[0] == 1 && u[1] == UINT64_MAX && u[2] == (uint64_t)P53 + 1);
    v = rd("{\"$i64s\": [\"-9223372036854775808\", \"9223372036854775807\"]}");
    int64_t i[2];
    memcpy(i, v.as.data, sizeof i);
    assert_true(i[0] == INT64_MIN && i[1] == INT64_MAX);
    v = rd("{\"$vector2i\": [\"-9007199254740993\", 2], \"$elem\": \"i64\"}");
    memcpy(i, v.as.data, sizeof i);
    assert_true(i[0] == -P53 - 1 && i[1] == 2);
    /* narrower elements take the string spelling too */
    v = rd("{\"$u8s\": [\"255\", 0]}");
    assert_int_equal(((const uint8_t *)v.as.data)[0], 255);
}

static void test_read_errors(void **state)
{
    (void)state;
    /* offsets: the opening quote of the string ({"$i64": at 0..8, '"' at 9) */
    check_error("{\"$i64\": \"9223372036854775808\"}", SV_ERR_RANGE, 9, "/$i64");
    check_error("{\"$i64\": \"-9223372036854775809\"}", SV_ERR_RANGE, 9, "/$i64");
    check_error("{\"$int\": \"9223372036854775808\"}", SV_ERR_RANGE, 9, "/$int");
    check_error("{\"$u64\": \"18446744073709551616\"}", SV_ERR_RANGE, 9, "/$u64");
    check_error("{\"$u64\": \"-1\"}", SV_ERR_RANGE, 9, "/$u64");
    check_error("{\"$uint\": \"99999999999999999999999\"}", SV_ERR_RANGE, 10, "/$uint");
    check_error("{\"$i32\": \"2147483648\"}", SV_ERR_RANGE, 9, "/$i32");
    /* not an integer as JSON writes one */
    check_error("{\"$int\": \"\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \"-\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \"01\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \"+1\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \" 1\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \"1.0\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \"1e3\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": \"0x10\"}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$int\": true}", SV_ERR_TYPE, 9, "/$int");
    check_error("{\"$uint\": 1.5}", SV_ERR_TYPE, 10, "/$uint");
    check_error("{\"$uint\": -1}", SV_ERR_RANGE, 10, "/$uint");
    check_error("{\"$ref\": \"x\"}", SV_ERR_TYPE, 9, "/$ref");
    /* element by element, with the element's index */
    check_error("{\"$u64s\": [1, \"18446744073709551616\"]}", SV_ERR_RANGE, 14, "/$u64s/1");
    check_error("{\"$i64s\": [\"1\", \"2x\"]}", SV_ERR_TYPE, 16, "/$i64s/1");
    /* a class hash in any other form */
    check_error("{\"$class\": {\"$u64\": 5}}", SV_ERR_TYPE, 12, "/$class");
    check_error("{\"$class\": {\"$uint\": \"-5\"}}", SV_ERR_RANGE, 21, "/$class/$uint");
}

/* Writing what was read gives the text back, for each spelling the writer
 * uses. */
static void test_round_trip(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "[9007199254740992,{\"$int\":\"9007199254740993\"},-9007199254740992,"
        "{\"$int\":\"-9007199254740993\"},{\"$int\":\"-9223372036854775808\"},"
        "{\"$int\":\"9223372036854775807\"},{\"$uint\":\"18446744073709551615\"},"
        "{\"$u64\":\"9007199254740993\"},{\"$u64\":9007199254740992},"
        "{\"$i64\":\"-9223372036854775808\"},{\"$u64\":\"18446744073709551615\"},"
        "{\"$u64s\":[1,\"18446744073709551615\"]},{\"$ref\":\"9007199254740993\"},"
        "{\"$class\":{\"$uint\":\"18446744073709551615\"},\"x\":1}]",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
        CHECK(rd(texts[k]), texts[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_int),
        cmocka_unit_test(test_write_i64),
        cmocka_unit_test(test_write_uint),
        cmocka_unit_test(test_write_packed_and_tuples),
        cmocka_unit_test(test_write_everywhere),
        cmocka_unit_test(test_read_both_spellings),
        cmocka_unit_test(test_read_packed_strings),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, test_doc_setup, test_doc_teardown);
}
