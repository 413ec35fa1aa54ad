/* JSON Patch (RFC 6902) applied and created, and JSON Merge Patch created,
 * as O3DE's JsonMerger does: the RFC's appendix A examples, the cases of
 * TestCases_Patching.cpp the O3DE JSON notes give, result codes, messages
 * and paths. The expected documents keep RapidJSON's member order (a new
 * member is appended). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_o3de.h"

#define R sv_o3de_result_make

typedef struct log {
    char lines[16][200];
    int n;
    sv_o3de_result rewrite_halted; /* 0: leave results as they are */
} log_t;

static sv_o3de_result on_report(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    log_t *l = ctx;
    if (l->n < 16)
        snprintf(l->lines[l->n++], sizeof l->lines[0], "%s|%s|%s", path,
                 sv_o3de_outcome_name(sv_o3de_result_outcome(r)), message);
    if (l->rewrite_halted && sv_o3de_result_processing(r) == SV_O3DE_HALTED) return l->rewrite_halted;
    return r;
}

/* Applies patch to target; checks the document text, outcome, processing. */
static void apply_case(const char *target, const char *patch, const char *expected,
                       sv_o3de_outcome outcome, sv_o3de_processing processing)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t = o3t_json(doc, target), p = o3t_json(doc, patch);
    sv_o3de_result r = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_apply_patch(doc, &t, &p, SV_O3DE_JSON_PATCH, NULL, &r, &err), SV_OK);
    if (expected) assert_string_equal(o3t_text(&t), expected);
    assert_int_equal(sv_o3de_result_task(r), SV_O3DE_MERGE);
    assert_int_equal(sv_o3de_result_outcome(r), outcome);
    assert_int_equal(sv_o3de_result_processing(r), processing);
    sv_doc_free(doc);
}

#define OK SV_O3DE_SUCCESS, SV_O3DE_COMPLETED

static void test_rfc6902_appendix_a(void **state)
{
    (void)state;
    /* A.1 adding an object member */
    apply_case("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
               "{\"foo\":\"bar\",\"baz\":\"qux\"}", OK);
    /* A.2 adding an array element */
    apply_case("{\"foo\":[\"bar\",\"baz\"]}", "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
               "{\"foo\":[\"bar\",\"qux\",\"baz\"]}", OK);
    /* A.3 removing an object member */
    apply_case("{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"remove\",\"path\":\"/baz\"}]",
               "{\"foo\":\"bar\"}", OK);
    /* A.4 removing an array element */
    apply_case("{\"foo\":[\"bar\",\"qux\",\"baz\"]}", "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
               "{\"foo\":[\"bar\",\"baz\"]}", OK);
    /* A.5 replacing a value */
    apply_case("{\"baz\":\"qux\",\"foo\":\"bar\"}",
               "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
               "{\"baz\":\"boo\",\"foo\":\"bar\"}", OK);
    /* A.6 moving a value */
    apply_case("{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{\"corge\":\"grault\"}}",
               "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/thud\"}]",
               "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\",\"thud\":\"fred\"}}", OK);
    /* A.7 moving an array element */
    apply_case("{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
               "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
               "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}", OK);
    /* A.8 testing a value: success */
    apply_case("{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
               "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},"
               "{\"op\":\"test\",\"path\":\"/foo/1\",\"value\":2}]",
               "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}", OK);
    /* A.9 testing a value: error */
    apply_case("{\"baz\":\"qux\"}", "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]",
               "{\"baz\":\"qux\"}", SV_O3DE_TEST_FAILED, SV_O3DE_HALTED);
    /* A.10 adding a nested member object */
    apply_case("{\"foo\":\"bar\"}",
               "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]",
               "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}", OK);
    /* A.11 ignoring unrecognised elements */
    apply_case("{\"foo\":\"bar\"}",
               "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"xyz\":123}]",
               "{\"foo\":\"bar\",\"baz\":\"qux\"}", OK);
    /* A.12 adding to a nonexistent target */
    apply_case("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]",
               "{\"foo\":\"bar\"}", SV_O3DE_INVALID, SV_O3DE_HALTED);
    /* A.13 a duplicate "op": RapidJSON's FindMember takes the first one */
    apply_case("{\"foo\":\"bar\"}",
               "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"op\":\"remove\"}]",
               "{\"foo\":\"bar\",\"baz\":\"qux\"}", OK);
    /* A.14 ~ escape ordering */
    apply_case("{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]",
               "{\"/\":9,\"~1\":10}", OK);
    /* A.15 comparing strings and numbers */
    apply_case("{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":\"10\"}]",
               "{\"/\":9,\"~1\":10}", SV_O3DE_TEST_FAILED, SV_O3DE_HALTED);
    /* A.16 adding an array value */
    apply_case("{\"foo\":[\"bar\"]}",
               "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
               "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}", OK);
}

static void test_o3de_cases(void **state)
{
    (void)state;
    /* the spec's vector: a missing parent is Merge/Invalid/Halted */
    apply_case("{}", "[{\"op\":\"add\",\"path\":\"/nonexistent_key/new_member\",\"value\":\"someValue\"}]",
               "{}", SV_O3DE_INVALID, SV_O3DE_HALTED);
    /* "/" is the member named "" */
    apply_case("{\"test\":142}", "[{\"op\":\"add\",\"path\":\"/\",\"value\":242}]",
               "{\"test\":142,\"\":242}", OK);
    /* the root path replaces the whole document; remove of the root fails */
    apply_case("{\"a\":1}", "[{\"op\":\"add\",\"path\":\"\",\"value\":[1]}]", "[1]", OK);
    apply_case("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"\"}]", "{\"a\":1}", SV_O3DE_INVALID,
               SV_O3DE_HALTED);
    /* array index == size appends, > size is Invalid, leading zero is no index */
    apply_case("[1,2]", "[{\"op\":\"add\",\"path\":\"/2\",\"value\":3}]", "[1,2,3]", OK);
    apply_case("[1,2]", "[{\"op\":\"add\",\"path\":\"/3\",\"value\":3}]", "[1,2]", SV_O3DE_INVALID,
               SV_O3DE_HALTED);
    apply_case("[1,2]", "[{\"op\":\"add\",\"path\":\"/01\",\"value\":3}]", "[1,2]", SV_O3DE_INVALID,
               SV_O3DE_HALTED);
    /* add into a scalar parent is TypeMismatch */
    apply_case("{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a/b\",\"value\":3}]", "{\"a\":1}",
               SV_O3DE_TYPE_MISMATCH, SV_O3DE_HALTED);
    /* test compares numbers as doubles (Compare): 2 equals 2.0 */
    apply_case("[2]", "[{\"op\":\"test\",\"path\":\"/0\",\"value\":2.0}]", "[2]", OK);
    /* copy */
    apply_case("{\"a\":[1]}", "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/b\"}]",
               "{\"a\":[1],\"b\":[1]}", OK);
    /* move into its own child: the value is moved out and its slot removed,
     * then the add finds no parent (Invalid); the removal stays done */
    apply_case("{\"a\":{\"b\":1}}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/c\"}]", "{}",
               SV_O3DE_INVALID, SV_O3DE_HALTED);
    /* operations before a failing one stay applied */
    apply_case("{}", "[{\"op\":\"add\",\"path\":\"/x\",\"value\":1},{\"op\":\"remove\",\"path\":\"/y\"}]",
               "{\"x\":1}", SV_O3DE_INVALID, SV_O3DE_HALTED);
    /* malformed patches */
    apply_case("{}", "{}", "{}", SV_O3DE_TYPE_MISMATCH, SV_O3DE_HALTED);
    apply_case("{}", "[1]", "{}", SV_O3DE_TYPE_MISMATCH, SV_O3DE_HALTED);
    apply_case("{}", "[{\"path\":\"/a\"}]", "{}", SV_O3DE_MISSING, SV_O3DE_HALTED);
    apply_case("{}", "[{\"op\":1,\"path\":\"/a\"}]", "{}", SV_O3DE_TYPE_MISMATCH, SV_O3DE_HALTED);
    apply_case("{}", "[{\"op\":\"add\",\"value\":1}]", "{}", SV_O3DE_MISSING, SV_O3DE_HALTED);
    apply_case("{}", "[{\"op\":\"add\",\"path\":\"a\",\"value\":1}]", "{}", SV_O3DE_INVALID, SV_O3DE_HALTED);
    apply_case("{}", "[{\"op\":\"add\",\"path\":\"/a~2\",\"value\":1}]", "{}", SV_O3DE_INVALID,
               SV_O3DE_HALTED);
    apply_case("{}", "[{\"op\":\"add\",\"path\":\"/a\"}]", "{}", SV_O3DE_MISSING, SV_O3DE_HALTED);
    apply_case("{}", "[{\"op\":\"frobnicate\",\"path\":\"/a\"}]", "{}", SV_O3DE_UNKNOWN, SV_O3DE_HALTED);
    apply_case("{\"a\":1}", "[{\"op\":\"move\",\"path\":\"/b\"}]", "{\"a\":1}", SV_O3DE_MISSING,
               SV_O3DE_HALTED);
    apply_case("{\"a\":1}", "[{\"op\":\"copy\",\"from\":\"/z\",\"path\":\"/b\"}]", "{\"a\":1}",
               SV_O3DE_INVALID, SV_O3DE_HALTED);
    /* an empty patch: Success */
    apply_case("{\"a\":1}", "[]", "{\"a\":1}", OK);
}

/* ApplyPatch_UseJsonPatchWithCustomReportingCallback_ReportPartialSkip */
static void test_callback_turns_halted_into_partial_skip(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t = o3t_json(doc, "{}");
    sv_value p = o3t_json(doc, "[{\"op\":\"add\",\"path\":\"/nonexistent_key/new_member\",\"value\":"
                               "\"someValue\"},{\"op\":\"add\",\"path\":\"/test\",\"value\":\"someValue\"}]");
    log_t l;
    memset(&l, 0, sizeof l);
    l.rewrite_halted = R(SV_O3DE_MERGE, SV_O3DE_PARTIAL_SKIP);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.report = on_report;
    o.report_ctx = &l;
    sv_o3de_result r = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_apply_patch(doc, &t, &p, SV_O3DE_JSON_PATCH, &o, &r, &err), SV_OK);
    assert_string_equal(o3t_text(&t), "{\"test\":\"someValue\"}");
    assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_PARTIAL_SKIP);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    /* the failure at the entry's path, the success at the pointer */
    assert_int_equal(l.n, 2);
    assert_string_equal(l.lines[0],
                        "/0|Invalid|The target path for \"add\" operation does not exist.");
    assert_string_equal(l.lines[1], "/test|Success|Successfully applied \"add\" operation.");
    /* missing fields are reported at the field: /0/value */
    l.n = 0;
    l.rewrite_halted = 0;
    t = o3t_json(doc, "{}");
    p = o3t_json(doc, "[{\"op\":\"replace\",\"path\":\"/a\"}]");
    assert_int_equal(sv_o3de_apply_patch(doc, &t, &p, SV_O3DE_JSON_PATCH, &o, &r, &err), SV_OK);
    assert_string_equal(l.lines[0],
                        "/0/value|Missing|The required field \"value\" for \"replace\" operation is missing.");
    sv_doc_free(doc);
}

/* Creates a patch from source to target, checks its text and result, then
 * applies it to source and expects target back. */
static void create_case(sv_o3de_patch_kind kind, const char *source, const char *target,
                        const char *expected_patch, sv_o3de_outcome outcome)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value s = o3t_json(doc, source), t = o3t_json(doc, target), p;
    sv_o3de_result r = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_create_patch(doc, &s, &t, kind, &p, NULL, &r, &err), SV_OK);
    assert_string_equal(o3t_text(&p), expected_patch);
    assert_int_equal(sv_o3de_result_task(r), SV_O3DE_CREATE_PATCH);
    assert_int_equal(sv_o3de_result_outcome(r), outcome);
    if (sv_o3de_result_processing(r) == SV_O3DE_COMPLETED && outcome != SV_O3DE_DEFAULTS_USED) {
        /* equal as O3DE's Compare sees it (members in any order) */
        assert_int_equal(sv_o3de_apply_patch(doc, &s, &p, kind, NULL, &r, &err), SV_OK);
        assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
        int order = 1;
        assert_int_equal(sv_o3de_compare(NULL, &s, &t, &order, &err), SV_OK);
        assert_int_equal(order, 0);
    }
    sv_doc_free(doc);
}

static void test_create_json_patch(void **state)
{
    (void)state;
    /* the spec's example: arrays are diffed index by index */
    create_case(SV_O3DE_JSON_PATCH, "[\"foo\",\"bar\"]", "[\"foo\",\"hello\",\"bar\"]",
                "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":\"hello\"},"
                "{\"op\":\"add\",\"path\":\"/2\",\"value\":\"bar\"}]",
                SV_O3DE_PARTIAL_DEFAULTS); /* "foo" unchanged (DefaultsUsed) + a replace */
    /* identical: an empty patch with DefaultsUsed */
    create_case(SV_O3DE_JSON_PATCH, "{\"a\":[1,2]}", "{\"a\":[1,2]}", "[]", SV_O3DE_DEFAULTS_USED);
    /* new members in the target's order, then removals; nested paths escaped */
    create_case(SV_O3DE_JSON_PATCH, "{\"a\":1,\"gone\":2,\"x/y\":{\"k\":1}}",
                "{\"new\":true,\"a\":1,\"x/y\":{\"k\":2}}",
                "[{\"op\":\"add\",\"path\":\"/new\",\"value\":true},"
                "{\"op\":\"replace\",\"path\":\"/x~1y/k\",\"value\":2},"
                "{\"op\":\"remove\",\"path\":\"/gone\"}]",
                SV_O3DE_PARTIAL_DEFAULTS); /* "a" unchanged */
    /* surplus array entries removed from the last down */
    create_case(SV_O3DE_JSON_PATCH, "[1,2,3,4]", "[1]",
                "[{\"op\":\"remove\",\"path\":\"/3\"},{\"op\":\"remove\",\"path\":\"/2\"},"
                "{\"op\":\"remove\",\"path\":\"/1\"}]",
                SV_O3DE_PARTIAL_DEFAULTS); /* 1 unchanged */
    /* 1 and 1.0 are equal for RapidJSON's operator== */
    create_case(SV_O3DE_JSON_PATCH, "[1]", "[1.0]", "[]", SV_O3DE_DEFAULTS_USED);
    /* a type change is a replace */
    create_case(SV_O3DE_JSON_PATCH, "{\"a\":[1]}", "{\"a\":{\"b\":1}}",
                "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{\"b\":1}}]", SV_O3DE_SUCCESS);
}

static void test_create_merge_patch(void **state)
{
    (void)state;
    create_case(SV_O3DE_MERGE_PATCH, "{\"a\":\"b\",\"c\":1}", "{\"a\":\"x\"}",
                "{\"a\":\"x\",\"c\":null}", SV_O3DE_SUCCESS);
    create_case(SV_O3DE_MERGE_PATCH, "{\"a\":\"b\"}", "{\"a\":\"b\",\"n\":{\"m\":[1]}}",
                "{\"n\":{\"m\":[1]}}", SV_O3DE_PARTIAL_DEFAULTS); /* "a" unchanged */
    /* an unchanged nested object stays out: its result is DefaultsUsed (what
     * O3DE's NestedImportTest needs to restore {"$import":"nested_import.json"}) */
    create_case(SV_O3DE_MERGE_PATCH, "{\"o\":{\"k\":1}}", "{\"o\":{\"k\":1}}", "{}",
                SV_O3DE_DEFAULTS_USED);
    create_case(SV_O3DE_MERGE_PATCH, "{\"o\":{\"k\":1}}", "{\"o\":{\"k\":1,\"n\":{}}}",
                "{\"o\":{\"n\":{}}}", SV_O3DE_PARTIAL_DEFAULTS);
    /* a scalar target */
    create_case(SV_O3DE_MERGE_PATCH, "{\"a\":1}", "[1,2]", "[1,2]", SV_O3DE_SUCCESS);
    create_case(SV_O3DE_MERGE_PATCH, "3", "3", "null", SV_O3DE_DEFAULTS_USED);
    /* nulls cannot be written */
    create_case(SV_O3DE_MERGE_PATCH, "{\"a\":1}", "{\"a\":null}", "null", SV_O3DE_UNSUPPORTED);
    create_case(SV_O3DE_MERGE_PATCH, "[]", "{\"a\":null}", "null", SV_O3DE_UNSUPPORTED);
    create_case(SV_O3DE_MERGE_PATCH, "1", "null", "null", SV_O3DE_UNSUPPORTED);
}

static void test_options_refused(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t = o3t_json(doc, "{}"), p = o3t_json(doc, "[]");
    sv_o3de_opts zero;
    memset(&zero, 0, sizeof zero);
    sv_o3de_result r;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_apply_patch(doc, &t, &p, SV_O3DE_JSON_PATCH, &zero, &r, &err),
                     SV_ERR_USAGE);
    assert_int_equal(sv_o3de_create_patch(doc, &t, &p, SV_O3DE_JSON_PATCH, &p, &zero, &r, &err),
                     SV_ERR_USAGE);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc6902_appendix_a),
        cmocka_unit_test(test_o3de_cases),
        cmocka_unit_test(test_callback_turns_halted_into_partial_skip),
        cmocka_unit_test(test_create_json_patch),
        cmocka_unit_test(test_create_merge_patch),
        cmocka_unit_test(test_options_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
