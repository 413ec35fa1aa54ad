/* sv_o3de_load_text: O3DE JSON text loaded without its whole tree gives
 * what sv_o3de_read then sv_o3de_load give (value, result, every report
 * with its path and message, errors), and the document holds the value
 * alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/o3de.h"
#include "serval/serval.h"

static const char schema_text[] =
    "{\"serval_schema\": 1,"
    " \"enums\": [{\"name\": \"Mode\", \"underlying\": \"u8\", \"values\": [[\"Off\", 0], [\"On\", "
    "1]]}],"
    " \"classes\": ["
    "  {\"name\": \"Part\", \"fields\": [{\"name\": \"name\", \"type\": \"string\"},"
    "     {\"name\": \"pos\", \"type\": \"vector3\"}, {\"name\": \"tags\", \"type\": "
    "\"vector<i32>\"},"
    "     {\"name\": \"mode\", \"type\": \"Mode\"}, {\"name\": \"owner\", \"type\": "
    "\"ptr<Part>\"}]},"
    "  {\"name\": \"Special\", \"bases\": [\"Part\"], \"fields\": [{\"name\": \"power\", \"type\": "
    "\"f32\", \"default\": 2.5}]},"
    "  {\"name\": \"Scene\", \"fields\": [{\"name\": \"title\", \"type\": \"string\"},"
    "     {\"name\": \"parts\", \"type\": \"vector<Part>\"}, {\"name\": \"ids\", \"type\": "
    "\"list<u32>\"},"
    "     {\"name\": \"version\", \"type\": \"u32\", \"default\": 7}]}]}";

static sv_schema *schema;
static const sv_type *scene;

static int setup(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    if (sv_schema_load(NULL, (const uint8_t *)schema_text, strlen(schema_text), "test", &schema,
                       &err) != SV_OK)
        return -1;
    return sv_schema_parse_type(schema, "Scene", 5, &scene, &err) == SV_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    sv_schema_free(schema);
    return 0;
}

/* Every report as one line "path|task/processing/outcome|message". */
static sv_o3de_result record(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    sv_buf *b = ctx;
    char line[512];
    int n = snprintf(line, sizeof line, "%s|%s/%s/%s|%s\n", path,
                     sv_o3de_task_name(sv_o3de_result_task(r)),
                     sv_o3de_processing_name(sv_o3de_result_processing(r)),
                     sv_o3de_outcome_name(sv_o3de_result_outcome(r)), message);
    sv_buf_append(b, line, (size_t)n);
    return r;
}

typedef struct loaded {
    sv_doc *doc;
    sv_status st;
    sv_o3de_result result;
    sv_buf reports;
    sv_buf typed; /* the value as typed JSON */
    char message[256];
    uint64_t offset;
    size_t consumed; /* the last offset handed to the callback */
} loaded;

static void on_consumed(void *ctx, size_t upto)
{
    loaded *l = ctx;
    assert_true(upto >= l->consumed); /* only forward */
    l->consumed = upto;
}

/* Loads text into Scene's default through either way. */
static void load(const char *text, size_t len, bool streamed, bool clear, const sv_limits *limits,
                 loaded *l)
{
    memset(l, 0, sizeof *l);
    sv_buf_init(&l->reports, NULL);
    sv_buf_init(&l->typed, NULL);
    l->doc = sv_doc_new(NULL);
    assert_non_null(l->doc);
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_opts opts;
    sv_o3de_opts_init(&opts);
    opts.report = record;
    opts.report_ctx = &l->reports;
    opts.clear_containers = clear;
    sv_value v;
    assert_int_equal(sv_o3de_default_value(schema, scene, l->doc, &v, &err), SV_OK);
    if (clear) { /* a starting value with elements already in it */
        sv_value start;
        sv_doc *sd = l->doc;
        static const char start_text[] = "{\"parts\":[{\"name\":\"old\"}],\"ids\":[9]}";
        assert_int_equal(sv_o3de_read(sd, start_text, strlen(start_text), NULL, &start, &err),
                         SV_OK);
        assert_int_equal(sv_o3de_load(schema, scene, &start, sd, &v, NULL, NULL, &err), SV_OK);
        l->reports.len = 0;
    }
    if (streamed) {
        l->st = sv_o3de_load_text(schema, scene, text, len, limits, l->doc, &v, &opts, &l->result,
                                  on_consumed, l, &err);
    } else {
        sv_value json;
        l->st = sv_o3de_read(l->doc, text, len, limits, &json, &err);
        if (l->st == SV_OK)
            l->st = sv_o3de_load(schema, scene, &json, l->doc, &v, &opts, &l->result, &err);
    }
    if (l->st != SV_OK) {
        snprintf(l->message, sizeof l->message, "%s", err.message);
        l->offset = err.byte_offset;
        return;
    }
    sv_json_encode_opts jo;
    sv_json_encode_opts_init(&jo);
    assert_int_equal(sv_json_encode(&v, &jo, &l->typed, &err), SV_OK);
    sv_buf_putc(&l->typed, 0);
}

static void drop(loaded *l)
{
    sv_buf_free(&l->reports);
    sv_buf_free(&l->typed);
    sv_doc_free(l->doc);
}

/* The two ways agree on everything; returns the streamed document's
 * allocation and the tree way's through *tree_bytes. */
static uint64_t same_both_ways(const char *text, bool clear, uint64_t *tree_bytes)
{
    loaded a, b;
    load(text, strlen(text), false, clear, NULL, &a);
    load(text, strlen(text), true, clear, NULL, &b);
    assert_int_equal(a.st, b.st);
    assert_string_equal(a.message, b.message);
    assert_true(a.offset == b.offset);
    if (a.st == SV_OK) assert_int_equal(a.result, b.result);
    assert_int_equal(a.reports.len, b.reports.len);
    assert_memory_equal(a.reports.data, b.reports.data, a.reports.len);
    if (a.st == SV_OK) assert_string_equal((const char *)a.typed.data, (const char *)b.typed.data);
    uint64_t bytes = sv_doc_allocated(b.doc);
    if (tree_bytes) *tree_bytes = sv_doc_allocated(a.doc);
    drop(&a);
    drop(&b);
    return bytes;
}

/* A small scene against values written out by hand. */
static void test_known_value(void **state)
{
    (void)state;
    static const char text[] =
        "{\"title\": \"T\", \"parts\": [{\"name\": \"a\", \"pos\": [1, 2, 3],"
        " \"tags\": [4, 5], \"mode\": \"On\"}, {}], \"ids\": [3, 1]}";
    loaded l;
    load(text, strlen(text), true, false, NULL, &l);
    assert_int_equal(l.st, SV_OK);
    assert_string_equal(
        (const char *)l.typed.data,
        "{\"$class\":\"Scene\",\"title\":\"T\",\"parts\":[{\"$class\":\"Part\",\"name\":\"a\","
        "\"pos\":{\"$vector3\":[1.0,2.0,3.0]},\"tags\":[{\"$i32\":4},{\"$i32\":5}],"
        "\"mode\":{\"$enum\":{\"$u8\":1}},\"owner\":null},{\"$class\":\"Part\",\"name\":\"\","
        "\"pos\":{\"$vector3\":[0.0,0.0,0.0]},\"tags\":[],\"mode\":{\"$enum\":{\"$u8\":0}},"
        "\"owner\":null}],\"ids\":[{\"$u32\":3},{\"$u32\":1}],\"version\":{\"$u32\":7}}");
    assert_int_equal(sv_o3de_result_processing(l.result), SV_O3DE_COMPLETED);
    assert_int_equal(sv_o3de_result_outcome(l.result), SV_O3DE_PARTIAL_DEFAULTS);
    /* the whole text was read for the last time */
    assert_true(l.consumed > 0 && l.consumed <= strlen(text));
    drop(&l);
}

/* Shapes and outcomes: the same value, result and reports either way. */
static void test_same_as_tree(void **state)
{
    (void)state;
    static const char *const texts[] = {
        /* members in any order, unknown ones, $type, duplicates */
        "{\"parts\": [{\"name\": \"x\"}], \"title\": \"t\", \"nope\": 1, \"$type\": \"Scene\"}",
        "{\"parts\": [{\"name\": \"x\"}], \"parts\": [{\"name\": \"y\"}], \"TITLE\": \"t\"}",
        /* elements that are not objects (Unsupported), an explicit default */
        "{\"parts\": [1, {\"tags\": {}}, \"s\", [], {\"mode\": \"Nope\"}]}",
        /* a pointer with a derived class, an unknown one (Halted) */
        "{\"parts\": [{\"owner\": {\"$type\": \"Special\", \"power\": 4}}]}",
        "{\"parts\": [{\"name\": \"a\"}, {\"owner\": {\"$type\": \"Missing\"}}, {\"name\": \"b\"}],"
        " \"title\": \"after\"}",
        /* empty arrays, a list of numbers, conversions */
        "{\"parts\": [], \"ids\": []}",
        "{\"ids\": [1, \"0x10\", 2.5, -1, true], \"version\": \"12\"}",
        /* not an array, not an object, {} at the root */
        "{\"parts\": {\"a\": 1}}",
        "{\"parts\": 5, \"title\": 3}",
        "{}",
        "[1, 2]",
        "\"text\"",
        /* white space everywhere, strings with escapes and brackets */
        " \n{ \"parts\" :\t[ { \"name\" : \"a]}\\\"[{,\" } , {\"name\":\"\\\\\"} ] "
        ",\"title\":\"x\" }\r\n",
        /* the tree path's errors, with their offsets */
        "{\"parts\": [{\"name\": \"a\"},]}",
        "{\"parts\": [{\"name\": \"a\"} {\"name\": \"b\"}]}",
        "{\"parts\": [{\"name\": \"a\"}], \"title\": \"t\",}",
        "{\"parts\": [{\"name\": \"a\"}]} x",
        "{\"parts\": [{\"name\": \"a\"}]",
        "{\"parts\": [{\"name\": \"a}]}",
        "{\"parts\": [{\"name\": \"\xff\"}]}",
        "{\"parts\": [{\"name\": \"a\"} /* c */], \"title\": \"t\"}",
        "{\"parts\": [{\"name\": \"a\"}], // c\n \"title\": \"t\"}",
        "{\"parts\": [{\"pos\": [1, 2]}, {\"pos\": {\"X\": 4}}]}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        same_both_ways(texts[i], false, NULL);
        same_both_ways(texts[i], true, NULL); /* clear_containers on a value with elements */
    }
}

/* Nesting at the depth limit: what the tree path refuses is refused the
 * same way, what it takes is taken. */
static void test_depth_limit(void **state)
{
    (void)state;
    for (uint32_t limit = 3; limit <= 8; limit++) {
        for (int deep = 0; deep <= 6; deep++) {
            char text[256];
            int n = snprintf(text, sizeof text, "{\"parts\": [{\"name\": \"a\", \"x\": ");
            for (int k = 0; k < deep; k++) text[n++] = '[';
            for (int k = 0; k < deep; k++) text[n++] = ']';
            n += snprintf(text + n, sizeof text - (size_t)n, "%s}]}", deep ? "" : "0");
            sv_limits lim;
            memset(&lim, 0, sizeof lim);
            lim.max_depth = limit;
            loaded a, b;
            load(text, (size_t)n, false, false, &lim, &a);
            load(text, (size_t)n, true, false, &lim, &b);
            assert_int_equal(a.st, b.st);
            assert_string_equal(a.message, b.message);
            assert_true(a.offset == b.offset);
            if (a.st == SV_OK) {
                assert_int_equal(a.result, b.result);
                assert_string_equal((const char *)a.typed.data, (const char *)b.typed.data);
            }
            drop(&a);
            drop(&b);
        }
    }
}

/* A large scene (many runs of elements): the same answer, and the document
 * holds the value without the text's tree. */
static void test_large_scene(void **state)
{
    (void)state;
    sv_buf t;
    sv_buf_init(&t, NULL);
    sv_buf_append(&t, "{\"title\": \"big\", \"parts\": [", 27);
    for (int i = 0; i < 20000; i++) {
        char part[200];
        int n = snprintf(part, sizeof part,
                         "%s{\"name\": \"part_%d\", \"pos\": [%d.5, -1.25, %d], \"tags\": [%d, %d],"
                         " \"mode\": \"%s\"}",
                         i ? ", " : "", i, i, i * 3, i, -i, i % 3 ? "On" : "Off");
        sv_buf_append(&t, part, (size_t)n);
    }
    sv_buf_append(&t, "], \"ids\": [1, 2, 3]}", 20);
    sv_buf_putc(&t, 0);
    assert_true(sv_buf_ok(&t));
    uint64_t tree;
    uint64_t streamed = same_both_ways((const char *)t.data, false, &tree);
    /* the tree path's document holds the text's tree and the value; this
     * one the value (and the arena's last chunk) */
    assert_true(streamed * 3 < tree * 2);
    sv_buf_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_value),
        cmocka_unit_test(test_same_as_tree),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_large_scene),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
