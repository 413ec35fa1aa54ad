/* The format registry: lookup, detection by content and extension, options,
 * and the json format's decode/encode entry points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static void test_table_and_find(void **state)
{
    (void)state;
    size_t n = 0;
    const sv_format *const *all = sv_formats(&n);
    assert_true(n >= 1);
    assert_string_equal(all[0]->name, "json");
    assert_ptr_equal(sv_format_find("json"), all[0]);
    assert_null(sv_format_find("JSON")); /* names are exact */
    assert_null(sv_format_find("nope"));
    assert_null(sv_format_find(NULL));
    for (size_t i = 0; i < n; i++) {
        assert_non_null(all[i]->decode);
        assert_non_null(all[i]->description);
        assert_non_null(all[i]->extensions);
    }
}

static void test_detect(void **state)
{
    (void)state;
    const sv_format *json = sv_format_find("json");
    const uint8_t obj[] = "  {\"a\": 1}";
    assert_ptr_equal(sv_format_detect(obj, sizeof obj - 1, NULL), json);
    assert_ptr_equal(sv_format_detect(obj, sizeof obj - 1, "x.bin"), json);
    const uint8_t num[] = "42";
    assert_ptr_equal(sv_format_detect(num, 2, "save.JSON"), json);
    /* nothing, or bytes no probe accepts, is unknown whatever the name says */
    assert_null(sv_format_detect(NULL, 0, "empty.json"));
    const uint8_t zeros[4] = {0, 0, 0, 0};
    assert_null(sv_format_detect(zeros, sizeof zeros, "zeros.json"));
}

#if SERVAL_WITH_BSON
/* A BSON document cut off by the input's end ({"name": "Ann"}, 22 bytes,
 * without its last 6) is named BSON with SV_PROBE_TRUNCATED, below any whole
 * match; the whole document scores more, and text fits no BSON at all. */
static void test_detect_truncated(void **state)
{
    (void)state;
    static const uint8_t doc[] = {0x16, 0, 0, 0, 0x02, 'n', 'a', 'm', 'e', 0, 4, 0,
                                  0,    0, 'A', 'n', 'n', 0,   0,   0,   0, 0};
    const sv_format *bson = sv_format_find("bson");
    sv_format_candidate c[8];
    size_t n = sv_format_detect_all(doc, sizeof doc - 6, NULL, c, 8);
    assert_int_equal(n, 1);
    assert_ptr_equal(c[0].format, bson);
    assert_int_equal(c[0].score, SV_PROBE_TRUNCATED);
    n = sv_format_detect_all(doc, sizeof doc - 4, NULL, c, 8); /* still "...Ann\0" cut */
    assert_int_equal(n, 1);
    assert_int_equal(c[0].score, SV_PROBE_TRUNCATED);
    assert_true(bson->probe(doc, sizeof doc) > SV_PROBE_TRUNCATED);
    const uint8_t text[] = "xyzzy plugh";
    assert_int_equal(sv_format_detect_all(text, sizeof text - 1, NULL, c, 8), 0);
}
#endif

static void test_options(void **state)
{
    (void)state;
    const char *names[] = {"indent", "plain", "indent", "comments", "weird"};
    const char *values[] = {"2", "", "4", "no", "maybe"};
    sv_options o;
    sv_options_init(&o);
    o.names = names;
    o.values = values;
    o.count = 5;
    assert_string_equal(sv_options_get(&o, "indent"), "4"); /* the last one wins */
    assert_string_equal(sv_options_get(&o, "plain"), "");
    assert_null(sv_options_get(&o, "missing"));
    assert_null(sv_options_get(NULL, "indent"));
    assert_true(sv_options_flag(&o, "plain", false));      /* a bare flag is true */
    assert_false(sv_options_flag(&o, "comments", true));   /* "no" */
    assert_true(sv_options_flag(&o, "weird", true));       /* unknown text: the default */
    assert_false(sv_options_flag(&o, "weird", false));
    assert_true(sv_options_flag(&o, "missing", true));
}

static void test_json_format_round_trip(void **state)
{
    (void)state;
    const sv_format *json = sv_format_find("json");
    const char text[] = "// a comment\n{\"a\":[1,{\"$f32\":0.5}]}";
    const char *names[] = {"comments"};
    const char *values[] = {""};
    sv_options o;
    sv_options_init(&o);
    o.names = names;
    o.values = values;
    o.count = 1;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    /* without the option the comment is a syntax error at byte 0 */
    assert_int_equal(json->decode(doc, (const uint8_t *)text, sizeof text - 1, NULL, &v, &err),
                     SV_ERR_SYNTAX);
    assert_int_equal(err.byte_offset, 0);
    sv_error_clear(&err);
    assert_int_equal(json->decode(doc, (const uint8_t *)text, sizeof text - 1, &o, &v, &err), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(json->encode(&v, NULL, &out, &err), SV_OK);
    const char expect[] = "{\"a\":[1,{\"$f32\":0.5}]}";
    assert_int_equal(out.len, sizeof expect - 1);
    assert_memory_equal(out.data, expect, out.len);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

/* sv_build_info names every format of the registry (it is made from the
 * same manifest): "..., formats json godot4 ...", each name a whole word. */
static void test_build_info_names_every_format(void **state)
{
    (void)state;
    const char *info = strstr(sv_build_info(), ", formats ");
    assert_non_null(info);
    info += strlen(", formats ");
    size_t n = 0;
    const sv_format *const *all = sv_formats(&n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(all[i]->name);
        bool found = false;
        for (const char *p = info; (p = strstr(p, all[i]->name)) != NULL; p += len)
            if ((p == info || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) found = true;
        if (!found) fail_msg("sv_build_info lacks %s: %s", all[i]->name, sv_build_info());
    }
}

#if SERVAL_WITH_KINGSISLE
/* The type-list loaders: serval's own, then the one KingsIsle's hooks bring. */
static void test_schema_loaders(void **state)
{
    (void)state;
    size_t n = 0;
    const sv_schema_loader *const *l = sv_schema_loaders(&n);
    assert_int_equal(n, 2);
    assert_string_equal(l[0]->name, "serval");
    assert_string_equal(l[1]->name, "kingsisle");
    assert_ptr_equal(sv_schema_loaders(NULL), l); /* one table */
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_and_find),
        cmocka_unit_test(test_detect),
#if SERVAL_WITH_BSON
        cmocka_unit_test(test_detect_truncated),
#endif
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_json_format_round_trip),
        cmocka_unit_test(test_build_info_names_every_format),
#if SERVAL_WITH_KINGSISLE
        cmocka_unit_test(test_schema_loaders),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
