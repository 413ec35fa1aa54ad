/* The one JSON Pointer escaper, the path stack and the tree walker
 * (src/core/walk.c), and sv_visit on top of them. Expected pointers are the
 * ones RFC 6901 gives (section 5) or written out by hand from its rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/walk.h"
#include "serval/serval.h"

static char *escape(const char *key, size_t len, char *out, size_t cap)
{
    size_t n = sv__core_pointer_escape(out, cap, key, len);
    assert_true(n < cap);
    out[n] = 0;
    return out;
}

static void test_escape_tokens(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(escape("a/b", 3, out, sizeof out), "a~1b");
    assert_string_equal(escape("m~n", 3, out, sizeof out), "m~0n");
    assert_string_equal(escape("", 0, out, sizeof out), "");
    assert_string_equal(escape("~/", 2, out, sizeof out), "~0~1");
    assert_string_equal(escape("/~", 2, out, sizeof out), "~1~0");
    /* "~1" as a key is a tilde then a one: "~01", never read back as "/" */
    assert_string_equal(escape("~1", 2, out, sizeof out), "~01");
    /* the rest of the RFC's keys stand as they are */
    assert_string_equal(escape("c%d", 3, out, sizeof out), "c%d");
    assert_string_equal(escape("k\"l", 3, out, sizeof out), "k\"l");
    assert_string_equal(escape("i\\j", 3, out, sizeof out), "i\\j");
    assert_string_equal(escape(" ", 1, out, sizeof out), " ");
    /* bytes past a NUL are part of the key */
    assert_string_equal(escape("a\0/", 3, out, sizeof out) + 2, "~1");
}

static void test_escape_cut(void **state)
{
    (void)state;
    char out[8];
    memset(out, '#', sizeof out);
    /* "ab~0" needs 4; with room for 3 the "~0" is not split */
    assert_int_equal(sv__core_pointer_escape(out, 3, "ab~", 3), 2);
    assert_memory_equal(out, "ab#", 3);
    memset(out, '#', sizeof out);
    assert_int_equal(sv__core_pointer_escape(out, 3, "/xy", 3), 3);
    assert_memory_equal(out, "~1x#", 4);
    assert_int_equal(sv__core_pointer_escape(NULL, 0, "a/b", 3), 0);
    assert_int_equal(sv__core_pointer_escaped_len("a/b~", 4), 6);
    assert_int_equal(sv__core_pointer_escaped_len("", 0), 0);
}

static void test_pointer_append(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv__core_pointer_append(&b, "foo", 3);
    sv__core_pointer_append(&b, "", 0);
    sv__core_pointer_append(&b, "a/b~c", 5);
    assert_true(sv_buf_ok(&b));
    assert_int_equal(b.len, strlen("/foo//a~1b~0c"));
    assert_memory_equal(b.data, "/foo//a~1b~0c", b.len);
    sv_buf_free(&b);
}

static void test_path_stack(void **state)
{
    (void)state;
    sv_path p;
    sv__core_path_init(&p, NULL);
    assert_string_equal(sv__core_path_render(&p), "");
    assert_true(sv__core_path_push_key(&p, "foo", 3));
    assert_true(sv__core_path_push_index(&p, 0));
    assert_string_equal(sv__core_path_render(&p), "/foo/0");
    sv__core_path_pop(&p);
    assert_true(sv__core_path_push_index(&p, 18446744073709551615u));
    assert_string_equal(sv__core_path_render(&p), "/foo/18446744073709551615");
    sv__core_path_pop(&p);
    sv__core_path_pop(&p);
    assert_true(sv__core_path_push_key(&p, "m~n", 3));
    assert_true(sv__core_path_push_key(&p, "", 0));
    assert_string_equal(sv__core_path_render(&p), "/m~0n/");
    char small[8];
    assert_true(sv__core_path_push_key(&p, "abcdef", 6));
    sv__core_path_render_into(&p, small, sizeof small); /* "/m~0n//abcdef": innermost kept */
    assert_string_equal(small, "...cdef");
    sv__core_path_free(&p);
}

/* ---- sv_visit over the walker ---- */

typedef struct collect {
    char *text;
    size_t len, cap;
    unsigned max_depth;
    size_t visits;
} collect;

static bool collect_paths(void *ctx, const sv_value *v, unsigned depth, const char *path)
{
    (void)v;
    collect *c = ctx;
    size_t n = strlen(path);
    if (c->len + n + 2 > c->cap) {
        c->cap = 2 * (c->len + n + 2);
        c->text = realloc(c->text, c->cap);
        assert_non_null(c->text);
    }
    memcpy(c->text + c->len, path, n);
    c->len += n;
    c->text[c->len++] = '\n';
    c->text[c->len] = 0;
    if (depth > c->max_depth) c->max_depth = depth;
    c->visits++;
    return true;
}

static sv_value decode(sv_doc *doc, const char *json)
{
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_decode(doc, json, strlen(json), NULL, &v, &err), SV_OK);
    return v;
}

/* RFC 6901 section 5: the document and the pointer of each of its values. */
static void test_visit_rfc6901(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = decode(doc, "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2, "
                                "\"e^f\": 3, \"g|h\": 4, \"i\\\\j\": 5, \"k\\\"l\": 6, \" \": 7, "
                                "\"m~n\": 8}");
    collect c = {0};
    assert_true(sv_visit(&root, true, collect_paths, &c));
    assert_string_equal(c.text, "\n/foo\n/foo/0\n/foo/1\n/\n/a~1b\n/c%d\n/e^f\n/g|h\n/i\\j\n"
                                "/k\"l\n/ \n/m~0n\n");
    free(c.text);
    sv_doc_free(doc);
}

/* A path 1000 levels deep renders whole (the old walk cut it at 1 KiB). */
static void test_visit_deep_path(void **state)
{
    (void)state;
    enum { DEPTH = 1000 };
    sv_doc *doc = sv_doc_new(NULL);
    /* {"~/":{"~/":...[0]...}}: 999 maps and an array */
    size_t cap = DEPTH * 8 + 16, n = 0;
    char *json = malloc(cap);
    assert_non_null(json);
    for (int i = 0; i < DEPTH - 1; i++) n += (size_t)sprintf(json + n, "{\"~/\":");
    n += (size_t)sprintf(json + n, "[0]");
    for (int i = 0; i < DEPTH - 1; i++) json[n++] = '}';
    json[n] = 0;
    sv_value root = decode(doc, json);
    collect c = {0};
    assert_true(sv_visit(&root, true, collect_paths, &c));
    assert_int_equal(c.visits, DEPTH + 1);
    assert_int_equal(c.max_depth, DEPTH);
    /* the last line: "/~0~1" 999 times, then "/0" */
    char *want = malloc(DEPTH * 5 + 8);
    assert_non_null(want);
    size_t w = 0;
    for (int i = 0; i < DEPTH - 1; i++) w += (size_t)sprintf(want + w, "/~0~1");
    w += (size_t)sprintf(want + w, "/0\n");
    assert_true(c.len >= w);
    assert_string_equal(c.text + c.len - w, want);
    free(want);
    free(json);
    free(c.text);
    sv_doc_free(doc);
}

/* Deeper than sv_visit's 4096 levels: the walk ends with false, having
 * visited the 4097 values above the limit, and the C stack is not used per
 * level (this runs under ASan with its small stack too). */
static void test_visit_too_deep(void **state)
{
    (void)state;
    enum { DEPTH = 6000 };
    sv_doc *doc = sv_doc_new(NULL);
    sv_value inner = sv_int(7);
    for (int i = 0; i < DEPTH; i++) {
        sv_value a = sv_array(doc, 1);
        assert_int_equal(sv_kind_of(&a), SV_ARRAY);
        *sv_array_at(&a, 0) = inner;
        inner = a;
    }
    collect c = {0};
    assert_false(sv_visit(&inner, false, collect_paths, &c));
    assert_int_equal(c.visits, 4097);
    assert_int_equal(c.max_depth, 4096);
    free(c.text);
    sv_doc_free(doc);
}

static bool stop_at_second(void *ctx, const sv_value *v, unsigned depth, const char *path)
{
    (void)v;
    (void)depth;
    size_t *n = ctx;
    assert_string_equal(path, ""); /* want_path false */
    return ++*n < 2;
}

static void test_visit_stop(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = decode(doc, "[1, [2, 3], 4]");
    size_t n = 0;
    assert_false(sv_visit(&root, false, stop_at_second, &n));
    assert_int_equal(n, 2);
    sv_doc_free(doc);
}

/* The walker's parent and key, as sv_godot_check asks for them. */
static sv_step note_keys(void *ctx, sv_walker *w, const sv_value *v, unsigned depth)
{
    (void)v;
    char *log = ctx;
    const sv_value *key = sv__core_walker_key(w);
    const sv_value *parent = sv__core_walker_parent(w);
    char line[64];
    snprintf(line, sizeof line, "%u:%s:%s:%s;", depth, parent ? sv_kind_name(sv_kind_of(parent)) : "-",
             key ? sv_get_str(key, NULL) : "-", sv__core_walker_path(w));
    strcat(log, line);
    return sv_kind_of(v) == SV_MAP && depth > 0 ? SV_STEP_OVER : SV_STEP_INTO;
}

static void test_walker_parent_key(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = decode(doc, "{\"a\": [true], \"b\": {\"c\": 1}}");
    char log[256] = "";
    assert_int_equal(sv__core_walk_tree(&root, 10, NULL, note_keys, log), SV_WALK_DONE);
    /* "b" is stepped over: its "c" is not visited */
    assert_string_equal(log, "0:-:-:;1:map:a:/a;2:array:-:/a/0;1:map:b:/b;");
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_tokens),     cmocka_unit_test(test_escape_cut),
        cmocka_unit_test(test_pointer_append),    cmocka_unit_test(test_path_stack),
        cmocka_unit_test(test_visit_rfc6901),     cmocka_unit_test(test_visit_deep_path),
        cmocka_unit_test(test_visit_too_deep),    cmocka_unit_test(test_visit_stop),
        cmocka_unit_test(test_walker_parent_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
