/* NoesisGUI to NoesisGUI without the tree (sv__noesis_format_transcode,
 * src/formats/noesis/noesis_transcode.c): for every input it must give
 * exactly what the registry's decode then encode give (what `serval conv`
 * does with a tree), the same bytes or the same error (status, byte offset,
 * path, message), with the reader's and the writer's options.
 *
 * Inputs: every file of the test corpus (Noesis vectors and samples, the
 * other formats' files, whose errors must match too, the fuzzers'
 * regressions), every Noesis file cut short at many lengths, the same through
 * a sink with tiny windows, and a generated file whose values take several
 * times the MiB at which the values' document is emptied, with errors placed
 * after the resets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/noesis/noesis_transcode.h"
#include "helper_corpus.h"
#include "serval/serval.h"

typedef struct opts_case {
    const char *name;
    const char *in_name, *in_value;   /* one reader option, or NULL */
    const char *out_name, *out_value; /* one writer option, or NULL */
} opts_case;

static const opts_case option_cases[] = {
    {"no options", NULL, NULL, NULL, NULL},
    {"-O version=2", NULL, NULL, "version", "2"},
    {"-O version=5", NULL, NULL, "version", "5"},
    {"-I raw=true", "raw", "true", NULL, NULL},
    {"-I raw=true -O version=3", "raw", "true", "version", "3"},
    {"-O version=9 (refused)", NULL, NULL, "version", "9"},
};
#define OPTION_CASES (sizeof option_cases / sizeof option_cases[0])

static size_t compared, same_bytes, failed_alike;

static void set_opt(sv_options *o, const char *const *name, const char *const *value)
{
    sv_options_init(o);
    if (*name) {
        o->names = name;
        o->values = value;
        o->count = 1;
    }
}

/* The tree path, as conv takes it: decode, then encode (appended to out). */
static sv_status via_tree(const uint8_t *data, size_t len, const sv_options *in,
                          const sv_options *out_opts, sv_buf *out, sv_error *err)
{
    const sv_format *nsb = sv_format_find("noesis");
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_value root;
    sv_status st = nsb->decode(doc, data, len, in, &root, err);
    if (st == SV_OK) st = nsb->encode(&root, out_opts, out, err);
    sv_doc_free(doc);
    return st;
}

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

/* Both paths on data with the options of oc; window: 0 = no sink, else the
 * transcoder writes through a sink of that window. */
static void compare_one(const char *label, const uint8_t *data, size_t len, const opts_case *oc,
                        size_t window)
{
    sv_options in, out_opts;
    set_opt(&in, &oc->in_name, &oc->in_value);
    set_opt(&out_opts, &oc->out_name, &oc->out_value);
    sv_buf a, b, sunk;
    sv_buf_init(&a, NULL);
    sv_buf_init(&b, NULL);
    sv_buf_init(&sunk, NULL);
    if (window) {
        sv_buf_set_sink(&b, collect, &sunk, window);
    } else {
        assert_int_equal(sv_buf_append(&a, "<<", 2), SV_OK);
        assert_int_equal(sv_buf_append(&b, "<<", 2), SV_OK);
    }
    sv_error ea, eb;
    sv_error_clear(&ea);
    sv_error_clear(&eb);
    sv_status sa = via_tree(data, len, &in, &out_opts, &a, &ea);
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_status sb = sv__noesis_format_transcode(doc, data, len, &in, &out_opts, &b, &eb);
    if (sb == SV_OK && window) sb = sv_buf_flush(&b);
    /* the scratch document is left empty */
    assert_int_equal(sv_doc_allocated(doc), 0);
    sv_doc_free(doc);
    compared++;
    if (sa != sb) {
        char ma[600], mb[600];
        sv_error_format(&ea, ma, sizeof ma);
        sv_error_format(&eb, mb, sizeof mb);
        fail_msg("%s (%s, len %zu, window %zu): statuses differ\n  tree:   %s\n  stream: %s", label,
                 oc->name, len, window, ma, mb);
    }
    const sv_buf *got = window ? &sunk : &b;
    if (sa == SV_OK) {
        if (a.len != got->len || memcmp(a.data, got->data, a.len) != 0) {
            size_t i = 0;
            while (i < a.len && i < got->len && a.data[i] == got->data[i]) i++;
            fail_msg("%s (%s, window %zu): bytes differ at %zu: tree %zu bytes, stream %zu",
                     label, oc->name, window, i, a.len, got->len);
        }
        same_bytes++;
    } else {
        if (ea.byte_offset != eb.byte_offset || strcmp(ea.path, eb.path) != 0 ||
            strcmp(ea.message, eb.message) != 0 || strcmp(ea.format, eb.format) != 0) {
            char ma[600], mb[600];
            sv_error_format(&ea, ma, sizeof ma);
            sv_error_format(&eb, mb, sizeof mb);
            fail_msg("%s (%s, len %zu, window %zu): errors differ\n  tree:   %s\n  stream: %s",
                     label, oc->name, len, window, ma, mb);
        }
        /* a failed transcode leaves the output as it was */
        if (!window) assert_int_equal(b.len, 2);
        failed_alike++;
    }
    sv_buf_free(&a);
    sv_buf_free(&b);
    sv_buf_free(&sunk);
}

static bool is_noesis(const corpus_file *f)
{
    return f->len >= 4 && (memcmp(f->data, "HDSN", 4) == 0 || memcmp(f->data, "NSDH", 4) == 0);
}

/* ---- the corpus ----------------------------------------------------------- */

static void corpus_all_options(void **state)
{
    (void)state;
    size_t noesis = 0, ok_before = same_bytes;
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *f = &test_corpus.files[i];
        noesis += is_noesis(f);
        for (size_t k = 0; k < OPTION_CASES; k++)
            compare_one(f->path, f->data, f->len, &option_cases[k], 0);
    }
    print_message("%zu Noesis files, %zu inputs written alike\n", noesis, same_bytes - ok_before);
    assert_true(noesis >= 10);               /* at least the vectors */
    assert_true(same_bytes - ok_before >= 40); /* the vectors, with 4 option cases each */
}

/* Cut short: at every length for small files, else at 300 lengths spread
 * over the file and every length of its first and last 64 bytes. */
static void corpus_cut(void **state)
{
    (void)state;
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *f = &test_corpus.files[i];
        if (!is_noesis(f)) continue;
        size_t step = f->len <= 2000 ? 1 : f->len / 300;
        for (size_t k = 0; k < f->len; k += step)
            compare_one(f->path, f->data, k, &option_cases[k % 4], 0);
        for (size_t k = 0; k < 64 && k < f->len; k++) {
            compare_one(f->path, f->data, k, &option_cases[0], 0);
            compare_one(f->path, f->data, f->len - 1 - k, &option_cases[0], 0);
        }
    }
}

/* Through a sink with tiny windows, as conv writes a file. */
static void corpus_windows(void **state)
{
    (void)state;
    static const size_t windows[] = {1, 7, 64, 4096};
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *f = &test_corpus.files[i];
        if (!is_noesis(f)) continue;
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++)
            compare_one(f->path, f->data, f->len, &option_cases[w % 4], windows[w]);
    }
}

/* ---- a file whose values take several MiB -------------------------------- */

static void put_le(sv_buf *b, uint64_t v, int w)
{
    for (int k = 0; k < w; k++) assert_int_equal(sv_buf_putc(b, (uint8_t)(v >> (8 * k))), SV_OK);
}

static void put_block(sv_buf *b, const sv_buf *block)
{
    put_le(b, block->len, 8);
    assert_int_equal(sv_buf_append(b, block->data, block->len), SV_OK);
}

/* metadata strings (byte offsets): Text 0, Value 5, Items 11, Ref 17, Name 21 */
enum { D_TEXT = 0, D_VALUE = 5, D_ITEMS = 11, D_REF = 17, D_NAME = 21 };

static void cmd(sv_buf *c, unsigned op, uint32_t count, long desc)
{
    put_le(c, op | (count != 1 ? 0x80u : 0), 1);
    if (count != 1) put_le(c, count, 4);
    if (desc >= 0) put_le(c, (uint64_t)desc, 4);
}

/* n instances of class "Item" (each: Text = a String8 whose text changes
 * with i, Value = u32 i, Items = Float32* 3, Ref = the previous instance,
 * Name = "n<i>"), then the root "Root" with a Ref to the last item. */
static sv_buf big_file(uint32_t n)
{
    sv_buf cmds, data, strings, comps, md, inst, chunk, file;
    sv_buf_init(&cmds, NULL);
    sv_buf_init(&data, NULL);
    sv_buf_init(&strings, NULL);
    sv_buf_init(&comps, NULL);
    sv_buf_init(&md, NULL);
    sv_buf_init(&inst, NULL);
    sv_buf_init(&chunk, NULL);
    sv_buf_init(&file, NULL);
    for (uint32_t i = 0; i < n; i++) {
        cmd(&cmds, 0, 1, -1);
        cmd(&cmds, 20, 1, D_TEXT);
        cmd(&cmds, 13, 1, D_VALUE);
        cmd(&cmds, 16, 3, D_ITEMS);
        cmd(&cmds, 6, 1, D_REF);
        cmd(&cmds, 20, 1, D_NAME);
        cmd(&cmds, 1, 1, -1);
        char text[64];
        int len = snprintf(text, sizeof text, "text %u of a long run %u", i * 7919u, i % 13);
        put_le(&data, (uint64_t)len, 4);
        assert_int_equal(sv_buf_append(&data, text, (size_t)len), SV_OK);
        put_le(&data, i, 4);
        for (int k = 0; k < 3; k++) put_le(&data, 0x3F800000u + i + (uint32_t)k, 4);
        put_le(&data, i ? i - 1 : 0xFFFFFFFFu, 4);
        len = snprintf(text, sizeof text, "n%u", i);
        put_le(&data, (uint64_t)len, 4);
        assert_int_equal(sv_buf_append(&data, text, (size_t)len), SV_OK);
        put_le(&inst, 0, 4);
    }
    cmd(&cmds, 0, 1, -1);
    cmd(&cmds, 6, 1, D_REF);
    cmd(&cmds, 1, 1, -1);
    put_le(&data, n - 1, 4);
    put_le(&inst, 1, 4);
    assert_int_equal(sv_buf_append(&strings, "Item\0Root", 10), SV_OK);
    put_le(&comps, 0, 4);
    put_le(&comps, 2, 4);
    put_le(&comps, 5, 4);
    put_le(&comps, 3, 4);
    static const char names[] = "Text\0Value\0Items\0Ref\0Name";
    assert_int_equal(sv_buf_append(&md, names, sizeof names), SV_OK);
    put_block(&chunk, &strings);
    put_block(&chunk, &comps);
    put_le(&chunk, 16 + md.len + cmds.len, 8);
    put_block(&chunk, &md);
    put_block(&chunk, &cmds);
    put_block(&chunk, &inst);
    put_block(&chunk, &data);
    assert_int_equal(sv_buf_append(&file, "HDSN", 4), SV_OK);
    put_le(&file, 4, 2);
    put_le(&file, 0, 2);
    put_le(&file, 1, 4);
    put_block(&file, &chunk);
    sv_buf_free(&cmds);
    sv_buf_free(&data);
    sv_buf_free(&strings);
    sv_buf_free(&comps);
    sv_buf_free(&md);
    sv_buf_free(&inst);
    sv_buf_free(&chunk);
    return file;
}

static void big_file_same_bytes(void **state)
{
    (void)state;
    /* about 4 MB of file; its tree takes several times the MiB at which the
     * values are dropped */
    sv_buf f = big_file(60000);
    for (size_t k = 0; k < 3; k++) compare_one("big file", f.data, f.len, &option_cases[k], 0);
    compare_one("big file", f.data, f.len, &option_cases[0], 1000);
    sv_buf_free(&f);
}

/* Errors after many resets: the offset and the path (the instance index
 * counts every instance before) as the tree path has them. */
static void big_file_errors(void **state)
{
    (void)state;
    sv_buf f = big_file(60000);
    uint8_t *t = malloc(f.len);
    assert_non_null(t);
    /* the last Item's Name "n59999": its length made too long (truncated) */
    const uint8_t *name = NULL;
    for (const uint8_t *p = f.data; p + 6 <= f.data + f.len; p++)
        if (memcmp(p, "n59999", 6) == 0) name = p;
    assert_non_null(name);
    size_t at = (size_t)(name - f.data) - 4;
    memcpy(t, f.data, f.len);
    t[at] = 0xFF;
    compare_one("big file, long name", t, f.len, &option_cases[0], 0);
    /* a Ref past the instance list in the last Item */
    memcpy(t, f.data, f.len);
    t[at - 4] = 0xF0, t[at - 3] = 0xFF, t[at - 2] = 0xFF, t[at - 1] = 0x0F;
    compare_one("big file, bad ref", t, f.len, &option_cases[1], 0);
    /* trailing bytes after the chunk: the data consumed, then the error */
    memcpy(t, f.data, f.len);
    compare_one("big file, cut", t, f.len - 3, &option_cases[0], 4096);
    free(t);
    sv_buf_free(&f);
}

static void summary(void **state)
{
    (void)state;
    print_message("%zu comparisons: %zu written alike, %zu failed alike\n", compared, same_bytes,
                  failed_alike);
    assert_true(failed_alike > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_all_options), cmocka_unit_test(corpus_cut),
        cmocka_unit_test(corpus_windows),     cmocka_unit_test(big_file_same_bytes),
        cmocka_unit_test(big_file_errors),    cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, test_corpus_teardown);
}
