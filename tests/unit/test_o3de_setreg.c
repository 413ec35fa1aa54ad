/* The Settings Registry's pieces: the tag hash (FNV-1a 64, whose published
 * test vectors are used), which file names take part
 * (ExtractFileDescription), their order (IsLessThan, with the files of
 * O3DE's MergeSettingsFolder tests), RapidJSON's trailing-comma and
 * stop-when-done flags, the line finder, and "$import" in member order
 * (ResolveImportsInOrder, the cases of SettingsRegistryTests.cpp). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/o3de/o3de_setreg.h"
#include "helper_o3de.h"

static void test_tag_hash(void **state)
{
    (void)state;
    /* FNV-1a 64 test vectors (Fowler, Noll, Vo) */
    assert_true(o3sr_tag_hash("", 0) == 0xcbf29ce484222325ULL);
    assert_true(o3sr_tag_hash("a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(o3sr_tag_hash("foobar", 6) == 0x85944171f73967e8ULL);
    /* Specializations::Hash lower-cases first */
    assert_true(o3sr_tag_hash("FooBar", 6) == 0x85944171f73967e8ULL);
}

static o3sr_specs editor_test(void)
{
    o3sr_specs s = {0};
    const char *why;
    assert_true(o3sr_specs_add(&s, "editor", &why));
    assert_true(o3sr_specs_add(&s, "test", &why));
    return s;
}

static void test_describe(void **state)
{
    (void)state;
    o3sr_specs s = editor_test();
    o3sr_file f;
    const char *why;
    assert_true(o3sr_describe("Memory.setreg", &s, &f, &why));
    assert_int_equal(f.ntags, 1);
    assert_false(f.patch);
    assert_true(o3sr_describe("Memory.test.setregpatch", &s, &f, &why));
    assert_int_equal(f.ntags, 2);
    assert_true(f.patch);
    assert_true(o3sr_describe("Memory.EDITOR.setreg", &s, &f, &why));
    assert_false(o3sr_describe("Memory.wrong", &s, &f, &why));
    assert_false(o3sr_describe(".setreg", &s, &f, &why));
    assert_false(o3sr_describe("Memory", &s, &f, &why));
    assert_false(o3sr_describe("Memory.editor.editor.setreg", &s, &f, &why));
    assert_false(o3sr_describe("Memory.tools.setreg", &s, &f, &why));
    /* sixteen tags: one repeats or is not selected */
    assert_false(o3sr_describe("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.setreg", &s, &f, &why));
    const char *too;
    o3sr_specs many = {0};
    char tag[8];
    for (int i = 0; i < 15; i++) {
        snprintf(tag, sizeof tag, "t%d", i);
        assert_true(o3sr_specs_add(&many, tag, &too));
    }
    assert_false(o3sr_specs_add(&many, "t15", &too));
}

static void test_sort(void **state)
{
    (void)state;
    o3sr_specs s = editor_test();
    /* MergeSettingsFolder_MergeTestFiles_FilesAppliedInSpecializationOrder */
    const char *names[] = {"Memory.setreg", "Memory.editor.test.setreg", "Memory.editor.setreg",
                           "Memory.test.setreg"};
    o3sr_file f[4];
    const char *why;
    for (int i = 0; i < 4; i++) assert_true(o3sr_describe(names[i], &s, &f[i], &why));
    size_t a, b;
    assert_true(o3sr_sort(f, 4, &s, &a, &b));
    assert_string_equal(f[0].name, "Memory.setreg");
    assert_string_equal(f[1].name, "Memory.editor.setreg");
    assert_string_equal(f[2].name, "Memory.test.setreg");
    assert_string_equal(f[3].name, "Memory.editor.test.setreg");
    /* ..._DifferentlyNamedFiles_FilesAppliedInAlphabeticAndSpecializationOrder */
    const char *named[] = {"c.setreg", "a.editor.test.setreg", "b.editor.setreg", "c.test.setreg"};
    for (int i = 0; i < 4; i++) assert_true(o3sr_describe(named[i], &s, &f[i], &why));
    assert_true(o3sr_sort(f, 4, &s, &a, &b));
    assert_string_equal(f[0].name, "a.editor.test.setreg");
    assert_string_equal(f[1].name, "b.editor.setreg");
    assert_string_equal(f[2].name, "c.setreg");
    assert_string_equal(f[3].name, "c.test.setreg");
    /* ..._ConflictingSpecializations_ReportsErrorAndReturnsFalse */
    assert_true(o3sr_describe("Memory.test.editor.setreg", &s, &f[0], &why));
    assert_true(o3sr_describe("Memory.editor.test.setreg", &s, &f[1], &why));
    assert_false(o3sr_sort(f, 2, &s, &a, &b));
}

static void test_prepare_text(void **state)
{
    (void)state;
    char a[] = "{\"a\":1,}";
    assert_int_equal(o3sr_prepare_text(a, strlen(a)), 8);
    assert_string_equal(a, "{\"a\":1 }");
    char b[] = "\"BooleanValue\": false";
    assert_int_equal(o3sr_prepare_text(b, strlen(b)), 14);
    char c[] = "[1,2,] trailing";
    assert_int_equal(o3sr_prepare_text(c, strlen(c)), 6);
    assert_string_equal(c, "[1,2 ] trailing");
    char d[] = "{\"a\":\"x,}\", // c,\n}";
    o3sr_prepare_text(d, strlen(d));
    assert_string_equal(d, "{\"a\":\"x,}\"  // c,\n}");
}

static void test_find_line(void **state)
{
    (void)state;
    const char *t = "{\n  \"a\": {\n    \"b\": 2\n  },\n  \"c\": [1,\n 2],\n  \"d~/\": 0\n}";
    size_t n = strlen(t);
    assert_int_equal(o3sr_find_line(t, n, ""), 1);
    assert_int_equal(o3sr_find_line(t, n, "/a/b"), 3);
    assert_int_equal(o3sr_find_line(t, n, "/c/1"), 6);
    assert_int_equal(o3sr_find_line(t, n, "/d~0~1"), 7);
    assert_int_equal(o3sr_find_line(t, n, "/x"), 0);
    assert_int_equal(o3sr_find_line(t, n, "/c/2"), 0);
    /* all at once, in one pass */
    const char *ptrs[] = {"", "/a/b", "/c/1", "/d~0~1", "/x"};
    unsigned lines[5];
    o3sr_find_lines(t, n, ptrs, 5, lines);
    assert_int_equal(lines[0], 1);
    assert_int_equal(lines[1], 3);
    assert_int_equal(lines[2], 6);
    assert_int_equal(lines[3], 7);
    assert_int_equal(lines[4], 0);
}

/* Files for the in-order resolver, by path. */
typedef struct file { const char *path, *text; } file;
static const file *files_now;

static sv_status load(void *ctx, const char *path, sv_doc *doc, sv_value *out, sv_error *err)
{
    (void)ctx;
    for (const file *f = files_now; f->path; f++) {
        if (strcmp(f->path, path) == 0) return sv_o3de_read(doc, f->text, strlen(f->text), NULL, out, err);
    }
    return sv_error_set(err, SV_ERR_IO, "test", 0, "no such file");
}

static void resolve_case(const file *files, const char *root, const char *expected,
                         bool catastrophic)
{
    files_now = files;
    sv_doc *doc = sv_doc_new(NULL);
    sv_buf msgs;
    sv_buf_init(&msgs, NULL);
    sv_error err;
    sv_error_clear(&err);
    o3sr_import_ctx c;
    memset(&c, 0, sizeof c);
    c.doc = doc;
    c.load = load;
    c.messages = &msgs;
    c.err = &err;
    sv_value src = sv_null(), out = sv_null();
    for (const file *f = files; f->path; f++)
        if (strcmp(f->path, root) == 0) src = o3t_json(doc, f->text);
    sv_o3de_result r = o3sr_resolve_in_order(&c, root, &src, &out);
    assert_int_equal(c.st, SV_OK);
    if (catastrophic) {
        assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_CATASTROPHIC);
    } else {
        assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_SUCCESS);
        assert_string_equal(o3t_text(&out), expected);
    }
    o3sr_import_free(&c);
    sv_buf_free(&msgs);
    sv_doc_free(doc);
}

static void test_import_in_order(void **state)
{
    (void)state;
    /* MergeSettingsFile_JsonWithImport_MergesImportedFiles_InOrder */
    static const file f[] = {
        {"d/Memory.phone.setreg",
         "{ \"pre_field\": {\"first\": 7 }, \"$import\": \"Memory.os.setreg\", \"non_override\": 7,"
         " \"post_field\": {\"2nd\": \"twenty-one\"} }"},
        {"d/Memory.os.setreg",
         "{ \"$import\": { \"filename\": \"Memory.mobile.setreg\" }, \"non_override2\": \"Hello World\","
         " \"override_imported_settings\": \"override\" }"},
        {"d/Memory.mobile.setreg",
         "{ \"Memory\": 1, \"override_imported_settings\": \"initial\", \"pre_field\": {\"first\": 14,"
         " \"second\": \"fourteen\"}, \"post_field\": [2] }"},
        {NULL, NULL}};
    resolve_case(f, "d/Memory.phone.setreg",
                 "{\"pre_field\":{\"first\":14,\"second\":\"fourteen\"},\"Memory\":1,"
                 "\"override_imported_settings\":\"override\",\"post_field\":{\"2nd\":\"twenty-one\"},"
                 "\"non_override2\":\"Hello World\",\"non_override\":7}",
                 false);
    /* MergeSettingsFile_JsonWithImport_MultipleImports_MergesBasedOnOrder */
    static const file g[] = {
        {"number.setreg", "{ \"object_field\": { \"1\": 23, \"2\": 34 }}"},
        {"string.setreg", "{ \"object_field\": { \"1\": \"Hello\", \"3\": \"World\" }}"},
        {"aggregate.setreg", "{ \"$import\": \"string.setreg\", \"$import\": \"number.setreg\" }"},
        {NULL, NULL}};
    resolve_case(g, "aggregate.setreg", "{\"object_field\":{\"1\":23,\"3\":\"World\",\"2\":34}}", false);
    /* an array beside an import that makes one of that name: PatchField adds
     * a member and fills the first of that name, leaving an empty array */
    static const file h[] = {{"x.json", "{\"arr\":[9]}"},
                             {"a.setreg", "{\"$import\":\"x.json\",\"arr\":[1]}"},
                             {NULL, NULL}};
    resolve_case(h, "a.setreg", "{\"arr\":[1],\"arr\":[]}", false);
    /* a cycle and a missing file are catastrophic */
    static const file k[] = {{"k.setreg", "{\"$import\":\"k.setreg\"}"}, {NULL, NULL}};
    resolve_case(k, "k.setreg", NULL, true);
    static const file m[] = {{"m.setreg", "{\"$import\":\"none.setreg\"}"}, {NULL, NULL}};
    resolve_case(m, "m.setreg", NULL, true);
}

static void merge_case(const char *target, const char *patch, const char *expected)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t = o3t_json(doc, target), p = o3t_json(doc, patch);
    assert_true(o3sr_merge_patch(doc, &t, &p, 0));
    assert_string_equal(o3t_text(&t), expected);
    sv_doc_free(doc);
}

/* RFC 7386 appendix A, then objects large enough for the key index */
static void test_merge_patch(void **state)
{
    (void)state;
    merge_case("{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}");
    merge_case("{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}");
    merge_case("{\"a\":\"b\"}", "{\"a\":null}", "{}");
    merge_case("{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}");
    merge_case("{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}");
    merge_case("{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}");
    merge_case("{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{\"a\":{\"b\":\"d\"}}");
    merge_case("{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}", "{\"a\":[1]}");
    merge_case("[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]");
    merge_case("{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]");
    merge_case("{\"a\":\"foo\"}", "null", "null");
    merge_case("{\"a\":\"foo\"}", "\"bar\"", "\"bar\"");
    merge_case("{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}");
    merge_case("[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}");
    merge_case("{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}");
    /* 40 members: k39 removed, k5 replaced, k0's duplicate in the patch
     * applied to the first k0, one member added */
    char target[1024], patch[256], expected[1024];
    size_t t = 0, e = 0;
    t += (size_t)snprintf(target + t, sizeof target - t, "{");
    e += (size_t)snprintf(expected + e, sizeof expected - e, "{");
    for (int i = 0; i < 40; i++) {
        t += (size_t)snprintf(target + t, sizeof target - t, "%s\"k%d\":%d", i ? "," : "", i, i);
        if (i == 39) continue;
        if (i == 5) e += (size_t)snprintf(expected + e, sizeof expected - e, ",\"k5\":\"x\"");
        else if (i == 0) e += (size_t)snprintf(expected + e, sizeof expected - e, "\"k0\":2");
        else e += (size_t)snprintf(expected + e, sizeof expected - e, ",\"k%d\":%d", i, i);
    }
    snprintf(target + t, sizeof target - t, "}");
    snprintf(expected + e, sizeof expected - e, ",\"new\":1}");
    snprintf(patch, sizeof patch, "{\"k39\":null,\"k5\":\"x\",\"k0\":1,\"new\":1,\"k0\":2}");
    merge_case(target, patch, expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tag_hash),       cmocka_unit_test(test_describe),
        cmocka_unit_test(test_sort),           cmocka_unit_test(test_prepare_text),
        cmocka_unit_test(test_find_line),      cmocka_unit_test(test_import_in_order),
        cmocka_unit_test(test_merge_patch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
