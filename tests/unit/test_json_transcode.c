/* sv_json_transcode (src/formats/json/json_transcode.c) and the conversion
 * `serval conv` makes with it (sv_convert_transcode): for every input it
 * must give exactly what sv_json_decode then sv_json_encode give, the same
 * bytes or the same error (status, byte offset, line, column, path and
 * message), with every reader and writer option.
 *
 * Inputs: every file of the test corpus (vectors of every format, the
 * samples when present, the fuzzers' regressions) as it is (most are not
 * JSON: the errors must match), the typed JSON of every tree a format
 * decodes from them (compact and pretty), each also inside an outermost
 * array (the path that streams) and cut short at every byte when small,
 * and a generated array large enough that the document is emptied many
 * times on the way (keys and classes change text across the resets, so a
 * writer or reader that remembered a freed key by its address would write
 * the wrong text), with errors placed after the resets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_corpus.h"
#include "serval/serval.h"

typedef struct opts_case {
    const char *name;
    bool comments, plain_in; /* reader */
    int indent;              /* writer */
    bool plain_out;
} opts_case;

static const opts_case option_cases[] = {
    {"typed, compact", false, false, 0, false},
    {"typed, indent 2", false, false, 2, false},
    {"typed, indent 16", false, false, 16, false},
    {"comments, compact", true, false, 0, false},
    {"plain in, plain out", false, true, 0, true},
    {"typed in, plain out, indent 3", false, false, 3, true},
    {"plain in, typed out", false, true, 1, false},
};
#define OPTION_CASES (sizeof option_cases / sizeof option_cases[0])

static size_t compared, streamed_ok, failed_alike;

/* The tree path: decode, then encode into out (appended). */
static sv_status via_tree(const char *text, size_t len, const sv_json_decode_opts *d,
                          const sv_json_encode_opts *e, sv_buf *out, sv_error *err)
{
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_value root;
    sv_status st = sv_json_decode(doc, text, len, d, &root, err);
    if (st == SV_OK) {
        st = sv_json_encode(&root, e, out, err);
        if (st != SV_OK) err->byte_offset = SV_ERROR_NO_OFFSET; /* as the transcoder says */
    }
    sv_doc_free(doc);
    return st;
}

static void fail_with(const char *what, const char *label, const opts_case *oc, const sv_error *a,
                      const sv_error *b)
{
    char ma[600], mb[600];
    sv_error_format(a, ma, sizeof ma);
    sv_error_format(b, mb, sizeof mb);
    fail_msg("%s: %s (%s)\n  tree:   %s\n  stream: %s", label, what, oc->name, ma, mb);
}

/* Both paths on text with the options of oc; prefix goes before the output
 * (the transcoder appends, as the encoder does). */
static void compare_one(const char *label, const char *text, size_t len, const opts_case *oc)
{
    sv_json_decode_opts d;
    sv_json_decode_opts_init(&d);
    d.allow_comments = oc->comments;
    d.plain = oc->plain_in;
    sv_json_encode_opts e;
    sv_json_encode_opts_init(&e);
    e.indent = oc->indent;
    e.plain = oc->plain_out;

    sv_buf a, b;
    sv_buf_init(&a, NULL);
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_buf_append(&a, "<<", 2), SV_OK);
    assert_int_equal(sv_buf_append(&b, "<<", 2), SV_OK);
    sv_error ea, eb;
    sv_error_clear(&ea);
    sv_error_clear(&eb);
    sv_status sa = via_tree(text, len, &d, &e, &a, &ea);
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_status sb = sv_json_transcode(doc, text, len, &d, &e, &b, &eb);
    /* the scratch document is left empty */
    assert_int_equal(sv_doc_allocated(doc), 0);
    sv_doc_free(doc);
    compared++;
    if (sa != sb) fail_with("statuses differ", label, oc, &ea, &eb);
    if (sa == SV_OK) {
        if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
            size_t i = 0;
            while (i < a.len && i < b.len && a.data[i] == b.data[i]) i++;
            fail_msg("%s: bytes differ at %zu (%s): tree %zu bytes, stream %zu", label, i,
                     oc->name, a.len, b.len);
        }
        streamed_ok++;
    } else {
        if (ea.byte_offset != eb.byte_offset || ea.line != eb.line || ea.column != eb.column ||
            strcmp(ea.path, eb.path) != 0 || strcmp(ea.message, eb.message) != 0 ||
            strcmp(ea.format, eb.format) != 0)
            fail_with("errors differ", label, oc, &ea, &eb);
        /* a failed transcode leaves the output as it was */
        assert_int_equal(b.len, 2);
        failed_alike++;
    }
    sv_buf_free(&a);
    sv_buf_free(&b);
}

static void compare_all_options(const char *label, const char *text, size_t len)
{
    for (size_t i = 0; i < OPTION_CASES; i++) compare_one(label, text, len, &option_cases[i]);
}

/* text inside an outermost array, twice, with and without whitespace. */
static void compare_in_arrays(const char *label, const char *text, size_t len, bool cuts)
{
    size_t cap = 2 * len + 16;
    char *w = malloc(cap);
    assert_non_null(w);
    for (int spaced = 0; spaced < 2; spaced++) {
        size_t n = 0;
        const char *open = spaced ? "[ " : "[", *sep = spaced ? " ,\n" : ",";
        memcpy(w + n, open, strlen(open));
        n += strlen(open);
        memcpy(w + n, text, len);
        n += len;
        memcpy(w + n, sep, strlen(sep));
        n += strlen(sep);
        memcpy(w + n, text, len);
        n += len;
        w[n++] = ']';
        compare_all_options(label, w, n);
        /* cut short anywhere: the same error (offset, path) both ways */
        if (cuts && !spaced)
            for (size_t k = 0; k < n; k++) compare_one(label, w, k, &option_cases[k % 3]);
    }
    free(w);
}

/* ---- the corpus ----------------------------------------------------------- */

static void corpus_as_is(void **state)
{
    (void)state;
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *f = &test_corpus.files[i];
        compare_all_options(f->path, (const char *)f->data, f->len);
    }
}

/* Every tree a format decodes from a corpus file, as typed JSON. */
static void corpus_dumped(void **state)
{
    (void)state;
    size_t nformats = 0;
    const sv_format *const *formats = sv_formats(&nformats);
    size_t dumped = 0;
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *f = &test_corpus.files[i];
        for (size_t k = 0; k < nformats; k++) {
            const sv_format *fmt = formats[k];
            if (!fmt->decode || !fmt->probe || fmt->probe(f->data, f->len) <= 0) continue;
            sv_doc *doc = sv_doc_new(NULL);
            assert_non_null(doc);
            sv_value root;
            sv_error err;
            sv_error_clear(&err);
            if (fmt->decode(doc, f->data, f->len, NULL, &root, &err) == SV_OK) {
                for (int indent = 0; indent <= 2; indent += 2) {
                    sv_buf text;
                    sv_buf_init(&text, NULL);
                    sv_json_encode_opts e;
                    sv_json_encode_opts_init(&e);
                    e.indent = indent;
                    if (sv_json_encode(&root, &e, &text, &err) == SV_OK) {
                        char label[300];
                        snprintf(label, sizeof label, "%s as %s, indent %d", f->path, fmt->name,
                                 indent);
                        compare_all_options(label, (const char *)text.data, text.len);
                        compare_in_arrays(label, (const char *)text.data, text.len,
                                          text.len <= 600);
                        dumped++;
                    }
                    sv_buf_free(&text);
                }
            }
            sv_doc_free(doc);
        }
    }
    print_message("%zu typed JSON texts from the corpus\n", dumped);
    assert_true(dumped >= 16); /* at least the vectors' own */
}

/* ---- a long array: the document emptied many times ----------------------- */

/* Appends one item; its keys, class and strings change with i / period, so
 * that text read after a reset differs from text read before it. */
static void entity(sv_buf *b, size_t i, size_t period)
{
    char s[512];
    size_t g = i / period;
    int n = snprintf(s, sizeof s,
                     "{\"$class\":\"Class%zu\",\"id\":%zu,\"key%zu\":\"v%zu\",\"name\":\"n\\u00e9%zu\","
                     "\"pos\":{\"$vector3\":[%zu.5,-1.25,%zu]},\"f\":{\"$f32\":0.%zu},"
                     "\"m\":{\"$map\":[[%zu,\"x\"]]},\"t\":[\"a%zu\",{\"k%zu\":null}]}",
                     g % 7, i, g, i, i, i, g, i % 1000, i, g, g % 11);
    assert_true(n > 0 && (size_t)n < sizeof s);
    assert_int_equal(sv_buf_append(b, s, (size_t)n), SV_OK);
    /* every 97th item a plain value, every 89th a bare map */
    if (i % 97 == 0) assert_int_equal(sv_buf_append(b, ",{\"$u8\":7}", 10), SV_OK);
    if (i % 89 == 0) assert_int_equal(sv_buf_append(b, ",{\"a\":{\"b\":[]}}", 15), SV_OK);
}

static sv_buf long_array(size_t items, size_t period)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_buf_putc(&b, '['), SV_OK);
    for (size_t i = 0; i < items; i++) {
        if (i) assert_int_equal(sv_buf_putc(&b, ','), SV_OK);
        entity(&b, i, period);
    }
    assert_int_equal(sv_buf_putc(&b, ']'), SV_OK);
    return b;
}

static void long_array_same_bytes(void **state)
{
    (void)state;
    /* about 6 MB of text, a tree of several times the 1 MiB at which the
     * document is emptied */
    sv_buf b = long_array(30000, 1000);
    compare_all_options("long array", (const char *)b.data, b.len);
    sv_buf_free(&b);
}

/* Errors after many resets: the path still counts every item before. */
static void long_array_errors(void **state)
{
    (void)state;
    sv_buf b = long_array(30000, 777);
    static const struct {
        const char *find, *put;
    } breaks[] = {
        {"\"key38\":\"v29999\"", "\"key38\":\"v29999\"x"}, /* syntax, in the last item */
        {"{\"$f32\":0.999}", "{\"$f32\":1e999}"},          /* range */
        {"\"a38\"", "\"a\\q\""},                            /* bad escape */
        {"\"Class2\"", "\"Class2\",\"$meta\":1"},           /* meta not after $class */
    };
    for (size_t k = 0; k < sizeof breaks / sizeof breaks[0]; k++) {
        /* the last occurrence: far past the first resets */
        const char *text = (const char *)b.data, *at = NULL;
        for (const char *p = text; (p = strstr(p, breaks[k].find)) != NULL; p++) at = p;
        assert_non_null(at);
        size_t pre = (size_t)(at - text), fl = strlen(breaks[k].find), pl = strlen(breaks[k].put);
        size_t n = b.len - fl + pl;
        char *t = malloc(n + 1);
        assert_non_null(t);
        memcpy(t, text, pre);
        memcpy(t + pre, breaks[k].put, pl);
        memcpy(t + pre + pl, text + pre + fl, b.len - pre - fl);
        t[n] = '\0';
        compare_one(breaks[k].find, t, n, &option_cases[k % OPTION_CASES]);
        /* and the same text cut short just after the break */
        compare_one(breaks[k].find, t, pre + pl + 1, &option_cases[0]);
        free(t);
    }
    /* too deep inside a late item: the depth limit as the tree path has it */
    sv_buf_free(&b);
}

/* ---- through a sink, and through sv_convert_transcode --------------------- */

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

static void sink_and_convert(void **state)
{
    (void)state;
    sv_buf text = long_array(5000, 300);
    const sv_format *json = sv_format_find("json");
    assert_non_null(json);
    sv_options in, out_opts;
    sv_options_init(&in);
    sv_options_init(&out_opts);
    static const char *const names[] = {"indent"}, *const values[] = {"4"};
    out_opts.names = names;
    out_opts.values = values;
    out_opts.count = 1;
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = &out_opts;

    /* the reference: decode, then sv_convert_encode */
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    assert_int_equal(json->decode(doc, text.data, text.len, &in, &root, &err), SV_OK);
    sv_buf want;
    sv_buf_init(&want, NULL);
    assert_int_equal(sv_convert_encode(json, json, &root, &co, &want, NULL, &err), SV_OK);
    sv_doc_free(doc);

    /* small windows: every release flushes */
    size_t windows[] = {1, 4096, 0};
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        sv_buf got, b;
        sv_buf_init(&got, NULL);
        sv_buf_init(&b, NULL);
        sv_buf_set_sink(&b, collect, &got, windows[w]);
        sv_doc *scratch = sv_doc_new(NULL);
        assert_true(sv_convert_streams(json, json));
        assert_int_equal(sv_convert_transcode(scratch, json, json, text.data, text.len, &in, &co,
                                              &b, &err),
                         SV_OK);
        assert_int_equal(sv_buf_flush(&b), SV_OK);
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.data, want.data, want.len);
        sv_doc_free(scratch);
        sv_buf_free(&b);
        sv_buf_free(&got);
    }
    /* other formats are declined, with nothing written */
    const sv_format *bson = sv_format_find("bson");
    if (bson) {
        sv_buf b;
        sv_buf_init(&b, NULL);
        sv_doc *scratch = sv_doc_new(NULL);
        assert_false(sv_convert_streams(json, bson));
        assert_int_equal(sv_convert_transcode(scratch, json, bson, text.data, text.len, &in, &co,
                                              &b, &err),
                         SV_ERR_UNSUPPORTED);
        assert_int_equal(b.len, 0);
        sv_doc_free(scratch);
        sv_buf_free(&b);
    }
    sv_buf_free(&want);
    sv_buf_free(&text);
}

static void small_cases(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "[]",       " [ ] ",        "[1]",         "[[]]",          "[{}]",      "[1,]",
        "[1 2]",    "[",            "[1,[2,{\"a\"", "[1]x",          "[1] [2]",   "{\"a\":[1,2]}",
        "1",        "\"s\"",        "null",        "[null,true,0]", "[\"\\ud800\"]",
        "[{\"$utf16\":\"a\"}]",     "[{\"$array\":[1],\"$meta\":{\"k\":1}}]",
        "[/*c*/1//x\n,2]",          "[{\"$$x\":1}]", "[{\"$nope\":1}]",
        "[{\"$map\":[[1,2]]},{\"$map\":{\"a\":1}}]",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        compare_all_options(texts[i], texts[i], strlen(texts[i]));
        for (size_t k = 0; k < strlen(texts[i]); k++)
            compare_one(texts[i], texts[i], k, &option_cases[k % OPTION_CASES]);
    }
    /* depth: the limit is the reader's in both paths */
    char deep[3000];
    size_t n = 0;
    for (int k = 0; k < 1100; k++) deep[n++] = '[';
    for (int k = 0; k < 1100; k++) deep[n++] = ']';
    compare_all_options("1100 levels", deep, n);
}

static int report(void **state)
{
    (void)state;
    print_message("%zu comparisons: %zu same bytes, %zu same errors\n", compared, streamed_ok,
                  failed_alike);
    return test_corpus_teardown(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_cases),
        cmocka_unit_test(corpus_as_is),
        cmocka_unit_test(corpus_dumped),
        cmocka_unit_test(long_array_same_bytes),
        cmocka_unit_test(long_array_errors),
        cmocka_unit_test(sink_and_convert),
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, report);
}
