/* `serval conv` from a Godot Variant to the same profile without the whole
 * tree (sv_convert_transcode, src/formats/godot/godot_transcode.c): for
 * every input it must give exactly what the registry's decode then
 * sv_convert_encode give, the same bytes or the same error (status, byte
 * offset, path and message), through a sink of any window.
 *
 * Inputs: every file of the test corpus (vectors of every format, the
 * engines' samples when present, the fuzzers' regressions) as it is, for
 * godot4 and godot3; every raw Variant among them inside an outermost Array
 * and Dictionary (the paths that go item by item), with a repeated key, and
 * cut short at every byte when small; and a generated Array of Dictionaries
 * large enough that the scratch document is emptied many times (keys and
 * strings change text across the resets), with odd bytes the tree keeps in
 * records (a bool stored as 2, nonzero string padding), with errors placed
 * after the output has gone to the sink, and as a Dictionary with a key
 * repeated at its end.
 *
 * Godot 3 and 4 codes (spec §3): 1 bool, 2 int, 4 String; Dictionary 18
 * (3.x) / 27 (4.x), Array 19 / 28. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_corpus.h"
#include "serval/serval.h"

static size_t compared, streamed, failed_alike;

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

/* The tree path, as the command takes it: decode borrowing the input, then
 * sv_convert_encode (an encode error has no input offset). */
static sv_status via_tree(const sv_format *f, const uint8_t *p, size_t n, const sv_options *in,
                          sv_buf *out, sv_error *err)
{
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_options o = *in;
    o.borrow_input = true;
    sv_value root;
    sv_error_clear(err);
    sv_status st = f->decode(doc, p, n, &o, &root, err);
    if (st == SV_OK) {
        sv_options oo;
        sv_options_init(&oo);
        sv_convert_opts co;
        sv_convert_opts_init(&co);
        co.format_options = &oo;
        st = sv_convert_encode(f, f, &root, &co, out, NULL, err);
        if (st != SV_OK) err->byte_offset = SV_ERROR_NO_OFFSET;
    }
    sv_doc_free(doc);
    return st;
}

/* sv_convert_transcode into got through a sink of the window (0: none). */
static sv_status via_transcode(const sv_format *f, const uint8_t *p, size_t n, const sv_options *in,
                               size_t window, sv_doc *scratch, sv_buf *got, sv_error *err)
{
    sv_options oo;
    sv_options_init(&oo);
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = &oo;
    sv_buf b;
    sv_buf_init(&b, NULL);
    if (window) sv_buf_set_sink(&b, collect, got, window);
    sv_error_clear(err);
    sv_status st = sv_convert_transcode(scratch, f, f, p, n, in, &co, window ? &b : got, err);
    if (window) {
        if (st == SV_OK) assert_int_equal(sv_buf_flush(&b), SV_OK);
        sv_buf_free(&b);
    }
    return st;
}

static void compare_with(const char *label, const sv_format *f, const uint8_t *p, size_t n,
                         const sv_options *in, size_t window)
{
    sv_buf want, got;
    sv_buf_init(&want, NULL);
    sv_buf_init(&got, NULL);
    sv_error we, ge;
    sv_status ws = via_tree(f, p, n, in, &want, &we);
    sv_doc *scratch = sv_doc_new(NULL);
    assert_non_null(scratch);
    sv_status gs = via_transcode(f, p, n, in, window, scratch, &got, &ge);
    sv_doc_free(scratch);
    if (gs != ws) {
        print_error("%s as %s (window %zu): status %s, the tree path %s\n  %s\n  %s\n", label,
                    f->name, window, sv_status_str(gs), sv_status_str(ws), ge.message, we.message);
        fail();
    }
    if (ws == SV_OK) {
        if (got.len != want.len || memcmp(got.data, want.data, want.len) != 0) {
            print_error("%s as %s (window %zu): other bytes (%zu, the tree path %zu)\n", label,
                        f->name, window, got.len, want.len);
            fail();
        }
    } else {
        if (ge.byte_offset != we.byte_offset || strcmp(ge.path, we.path) != 0 ||
            strcmp(ge.message, we.message) != 0) {
            print_error("%s as %s: error at %llu '%s' %s\n  the tree path at %llu '%s' %s\n", label,
                        f->name, (unsigned long long)ge.byte_offset, ge.path, ge.message,
                        (unsigned long long)we.byte_offset, we.path, we.message);
            fail();
        }
        failed_alike++;
    }
    compared++;
    sv_buf_free(&want);
    sv_buf_free(&got);
}

static const sv_format *fmt(const char *name)
{
    const sv_format *f = sv_format_find(name);
    assert_non_null(f);
    return f;
}

static void compare(const char *label, const sv_format *f, const uint8_t *p, size_t n)
{
    sv_options in;
    sv_options_init(&in);
    if (sv_convert_streams_input(f, f, p, n, &in, NULL)) streamed++;
    compare_with(label, f, p, n, &in, 0);
}

/* ---- building inputs ------------------------------------------------------ */

static void put32(sv_buf *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sv_buf_append(b, le, 4);
}

/* spec §4: a String Variant, its padding bytes pad (0: the engine's). */
static void put_string(sv_buf *b, const char *s, uint8_t pad)
{
    size_t n = strlen(s);
    put32(b, 4);
    put32(b, (uint32_t)n);
    sv_buf_append(b, s, n);
    while (b->len & 3) sv_buf_putc(b, (char)pad);
}

static void put_int(sv_buf *b, int32_t v)
{
    put32(b, 2);
    put32(b, (uint32_t)v);
}

/* The codes of the outermost containers. */
static uint32_t dict_code(const sv_format *f)
{
    return f->name[5] == '4' ? 27 : 18;
}
static uint32_t array_code(const sv_format *f)
{
    return f->name[5] == '4' ? 28 : 19;
}

/* ---- the corpus ----------------------------------------------------------- */

/* Whether p is one raw Variant that f reads with no file meta. */
static bool raw_variant(const sv_format *f, const uint8_t *p, size_t n)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    bool raw = f->decode(doc, p, n, NULL, &root, &err) == SV_OK && !sv_meta(&root);
    sv_doc_free(doc);
    return raw;
}

/* v inside an Array of three, a Dictionary {"k": v, 7: v}, and {"k": v,
 * "k": v} (a repeated key); each also cut at every byte when small. */
static void wrapped(const char *path, const sv_format *f, const uint8_t *v, size_t n)
{
    for (int shape = 0; shape < 3; shape++) {
        sv_buf b;
        sv_buf_init(&b, NULL);
        put32(&b, shape ? dict_code(f) : array_code(f));
        put32(&b, shape ? 2 : 3);
        for (int i = 0; i < (shape ? 2 : 3); i++) {
            if (shape == 1 && i == 1)
                put_int(&b, 7);
            else if (shape)
                put_string(&b, "k", 0);
            sv_buf_append(&b, v, n);
        }
        char label[300];
        snprintf(label, sizeof label, "%s in a%s", path,
                 shape == 0   ? "n Array"
                 : shape == 1 ? " Dictionary"
                              : " Dictionary with a repeated key");
        compare(label, f, b.data, b.len);
        if (b.len <= 400)
            for (size_t k = 0; k < b.len; k++) {
                char cut[340];
                snprintf(cut, sizeof cut, "%s, cut at %zu", label, k);
                compare(cut, f, b.data, k);
            }
        sv_buf_free(&b);
    }
}

static void corpus_files(void **state)
{
    (void)state;
    const sv_format *fs[2] = {fmt("godot4"), fmt("godot3")};
    size_t raw = 0;
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *c = &test_corpus.files[i];
        for (int k = 0; k < 2; k++) {
            compare(c->path, fs[k], c->data, c->len);
            if (c->len <= (1u << 20) && raw_variant(fs[k], c->data, c->len)) {
                wrapped(c->path, fs[k], c->data, c->len);
                raw++;
            }
        }
    }
    print_message("%zu raw Variants of the corpus wrapped\n", raw);
    assert_true(raw >= 20);
}

/* ---- a long Array: the scratch document emptied many times --------------- */

/* An Array of n Dictionaries {"name_<i/period>": "text <i>", "id": i,
 * "flag": bool stored as 2 every 7th (else 1), "note": a string with
 * nonzero padding every 11th}; at item bad (n: none) a String whose length
 * runs past the end. dict: a Dictionary {"e<i>": item} instead, its last
 * key repeating the first when dup. */
static sv_buf long_input(const sv_format *f, uint32_t n, uint32_t period, uint32_t bad, bool dict,
                         bool dup)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    put32(&b, dict ? dict_code(f) : array_code(f));
    put32(&b, n);
    char s[64];
    for (uint32_t i = 0; i < n; i++) {
        if (dict) {
            snprintf(s, sizeof s, "e%u", dup && i == n - 1 ? 0 : i);
            put_string(&b, s, 0);
        }
        put32(&b, dict_code(f));
        put32(&b, 4);
        snprintf(s, sizeof s, "name_%u", i / period);
        put_string(&b, s, 0);
        if (i == bad) {
            put32(&b, 4);
            put32(&b, 0x7fffff00u);
        } else {
            snprintf(s, sizeof s, "text %u", i);
            put_string(&b, s, 0);
        }
        put_string(&b, "id", 0);
        put_int(&b, (int32_t)i);
        put_string(&b, "flag", 0);
        put32(&b, 1);
        put32(&b, i % 7 ? 1 : 2);
        put_string(&b, "note", 0);
        put_string(&b, "odd", i % 11 ? 0 : 0x55);
    }
    return b;
}

static void long_array_same_bytes(void **state)
{
    (void)state;
    const sv_format *fs[2] = {fmt("godot4"), fmt("godot3")};
    for (int k = 0; k < 2; k++) {
        sv_buf in = long_input(fs[k], 40000, 300, UINT32_MAX, false, false);
        sv_options o;
        sv_options_init(&o);
        assert_true(sv_convert_streams(fs[k], fs[k]));
        assert_true(sv_convert_streams_input(fs[k], fs[k], in.data, in.len, &o, NULL));
        size_t windows[] = {0, 1, 4096};
        for (size_t w = 0; w < 3; w++)
            compare_with("long array", fs[k], in.data, in.len, &o, windows[w]);
        sv_buf_free(&in);
    }
}

/* The scratch document holds a window of items, not the tree: its peak is
 * a small part of the tree path's document's. */
static void long_array_memory(void **state)
{
    (void)state;
    const sv_format *f = fmt("godot4");
    sv_buf in = long_input(f, 40000, 300, UINT32_MAX, false, false);
    sv_options o;
    sv_options_init(&o);
    o.borrow_input = true;
    test_alloc tree_alloc, scratch_alloc;
    test_alloc_init(&tree_alloc, 0);
    test_alloc_init(&scratch_alloc, 0);
    sv_doc *doc = sv_doc_new(&tree_alloc.alloc);
    sv_value root;
    sv_error err;
    assert_int_equal(f->decode(doc, in.data, in.len, &o, &root, &err), SV_OK);
    sv_doc_free(doc);
    sv_doc *scratch = sv_doc_new(&scratch_alloc.alloc);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    assert_int_equal(sv_convert_transcode(scratch, f, f, in.data, in.len, &o, &co, &out, &err),
                     SV_OK);
    sv_doc_free(scratch);
    print_message("document peak: tree %lld bytes, item by item %lld bytes\n",
                  (long long)tree_alloc.peak_bytes, (long long)scratch_alloc.peak_bytes);
    assert_true(scratch_alloc.peak_bytes * 4 < tree_alloc.peak_bytes);
    sv_buf_free(&out);
    sv_buf_free(&in);
}

/* A Dictionary's output goes to the sink as it is made, as an Array's
 * does, once its keys are known to differ: when the conversion returns,
 * only the last window is left to flush. With a repeated key nothing reaches
 * the sink before the tree path starts over (the bytes are the tree's). */
static void long_dictionary_streams(void **state)
{
    (void)state;
    const sv_format *fs[2] = {fmt("godot4"), fmt("godot3")};
    sv_options o;
    sv_options_init(&o);
    for (int k = 0; k < 2; k++) {
        for (int dup = 0; dup <= 1; dup++) {
            sv_buf in = long_input(fs[k], 30000, 300, UINT32_MAX, true, dup);
            sv_buf want, got, b;
            sv_buf_init(&want, NULL);
            sv_buf_init(&got, NULL);
            sv_buf_init(&b, NULL);
            sv_error err;
            assert_int_equal(via_tree(fs[k], in.data, in.len, &o, &want, &err), SV_OK);
            sv_buf_set_sink(&b, collect, &got, 4096);
            sv_options oo;
            sv_options_init(&oo);
            sv_convert_opts co;
            sv_convert_opts_init(&co);
            co.format_options = &oo;
            sv_doc *scratch = sv_doc_new(NULL);
            assert_non_null(scratch);
            sv_error_clear(&err);
            assert_int_equal(
                sv_convert_transcode(scratch, fs[k], fs[k], in.data, in.len, &o, &co, &b, &err),
                SV_OK);
            if (!dup) assert_true(got.len + 4096 >= want.len); /* handed over as it went */
            assert_int_equal(sv_buf_flush(&b), SV_OK);
            assert_int_equal(got.len, want.len);
            assert_memory_equal(got.data, want.data, want.len);
            sv_doc_free(scratch);
            sv_buf_free(&b);
            sv_buf_free(&got);
            sv_buf_free(&want);
            sv_buf_free(&in);
        }
    }
}

/* Errors after resets and after the sink took part of the output, and a
 * Dictionary whose last key repeats its first (the tree path's answer). */
static void long_errors_and_dups(void **state)
{
    (void)state;
    const sv_format *fs[2] = {fmt("godot4"), fmt("godot3")};
    sv_options o;
    sv_options_init(&o);
    for (int k = 0; k < 2; k++) {
        uint32_t bads[] = {0, 1, 20000, 39999};
        for (size_t b = 0; b < 4; b++) {
            sv_buf in = long_input(fs[k], 40000, 300, bads[b], false, false);
            compare_with("long array, an error", fs[k], in.data, in.len, &o, 4096);
            compare_with("long array, an error", fs[k], in.data, in.len, &o, 0);
            sv_buf_free(&in);
        }
        /* bytes after the Variant: the trailing rule */
        sv_buf in = long_input(fs[k], 3000, 300, UINT32_MAX, false, false);
        put32(&in, 0);
        compare_with("long array and 4 bytes", fs[k], in.data, in.len, &o, 4096);
        sv_buf_free(&in);
        for (int dup = 0; dup <= 1; dup++) {
            sv_buf d = long_input(fs[k], 30000, 300, UINT32_MAX, true, dup);
            assert_true(sv_convert_streams_input(fs[k], fs[k], d.data, d.len, &o, NULL));
            compare_with(dup ? "long dictionary, a repeated key" : "long dictionary", fs[k], d.data,
                         d.len, &o, 4096);
            sv_buf_free(&d);
        }
    }
}

/* Options and framings the item-by-item path leaves to the tree path. */
static void not_streamed(void **state)
{
    (void)state;
    const sv_format *f = fmt("godot3");
    sv_buf in = long_input(f, 100, 10, UINT32_MAX, false, false);
    sv_options o;
    sv_options_init(&o);
    static const char *const names[] = {"objects"}, *const values[] = {"full"};
    sv_options opt = o;
    opt.names = names;
    opt.values = values;
    opt.count = 1;
    assert_true(sv_convert_streams_input(f, f, in.data, in.len, &o, NULL));
    assert_false(sv_convert_streams_input(f, f, in.data, in.len, &opt, NULL));
    compare_with("long array, objects=full", f, in.data, in.len, &opt, 0);
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = &opt;
    assert_false(sv_convert_streams_input(f, f, in.data, in.len, &o, &co));
    /* another format's option, as the command's indent=0 for JSON output:
     * the Godot encoder does not read it */
    static const char *const jnames[] = {"indent"}, *const jvalues[] = {"0"};
    sv_options other = o;
    other.names = jnames;
    other.values = jvalues;
    other.count = 1;
    co.format_options = &other;
    assert_true(sv_convert_streams_input(f, f, in.data, in.len, &o, &co));
    /* as one store_var frame */
    sv_buf framed;
    sv_buf_init(&framed, NULL);
    put32(&framed, (uint32_t)in.len);
    sv_buf_append(&framed, in.data, in.len);
    assert_false(sv_convert_streams_input(f, f, framed.data, framed.len, &o, NULL));
    compare_with("long array, store_var", f, framed.data, framed.len, &o, 0);
    assert_false(sv_convert_streams(f, fmt("godot4")));
    sv_buf_free(&framed);
    sv_buf_free(&in);
}

static int report(void **state)
{
    (void)state;
    print_message("%zu conversions compared, %zu went item by item, %zu failed alike\n", compared,
                  streamed, failed_alike);
    return test_corpus_teardown(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_files),      cmocka_unit_test(long_array_same_bytes),
        cmocka_unit_test(long_array_memory), cmocka_unit_test(long_errors_and_dups),
        cmocka_unit_test(long_dictionary_streams), cmocka_unit_test(not_streamed),
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, report);
}
