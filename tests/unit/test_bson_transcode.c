/* sv_convert_transcode for BSON to BSON and Resonite to Resonite (what
 * `serval conv` calls for them: src/convert/convert_transcode_bson.c): for
 * every input it must give exactly what the tree path gives, decoding the
 * input (borrowing it, as the command decodes) and writing the tree with
 * sv_convert_encode: the same bytes, or the same error (status, format,
 * byte offset, path and message), with reader and writer options, into a
 * plain buffer and through sinks with tiny windows. And a checked input
 * goes through without a tree: the scratch document holds nothing for
 * BSON, only the BSON for a .brson.
 *
 * Inputs: every file of the test corpus (vectors of every format, the
 * samples when present, the fuzzers' regressions) as it is (most are
 * neither: the errors must match), the BSON and Resonite ones also cut
 * short (at every byte when small), a stream of two documents, and a
 * generated document of a few MB with an error near its end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_corpus.h"
#include "serval/config.h"
#include "serval/serval.h"

/* ---- options ------------------------------------------------------------ */

typedef struct opts_case {
    const char *name;
    const char *in_name, *in_value;   /* one reader option, or none */
    const char *out_name, *out_value; /* one writer option, or none */
} opts_case;

static const opts_case bson_cases[] = {
    {"none", NULL, NULL, NULL, NULL},
    {"urls both", "resonite-urls", "true", "resonite-urls", "true"},
    {"urls read only", "resonite-urls", "true", NULL, NULL},
    {"urls written only", NULL, NULL, "resonite-urls", "true"},
    {"stream", "stream", "true", NULL, NULL},
};

static const opts_case resonite_cases[] = {
    {"none", NULL, NULL, NULL, NULL},
    {"raw strings both", "raw-strings", "true", "raw-strings", "true"},
    {"raw strings read only", "raw-strings", "true", NULL, NULL},
    {"quality 5", NULL, NULL, "quality", "5"},
    {"quality 1 (whole)", NULL, NULL, "quality", "1"},
    {"window 18", NULL, NULL, "window", "18"},
    {"lz4", NULL, NULL, "compression", "lz4"},
    {"lzma", NULL, NULL, "compression", "lzma"},
    {"legacy framing", NULL, NULL, "framing", "legacy"},
    {"threads 1", "threads", "1", NULL, NULL},
};

static sv_options one_option(const char *const *name, const char *const *value)
{
    sv_options o;
    sv_options_init(&o);
    if (*name) {
        o.names = name;
        o.values = value;
        o.count = 1;
    }
    return o;
}

/* ---- an allocator that counts -------------------------------------------- */

typedef struct counted {
    size_t live, peak;
} counted;

static void *c_malloc(void *ctx, size_t n)
{
    counted *c = ctx;
    void *p = malloc(n);
    if (p && (c->live += n) > c->peak) c->peak = c->live;
    return p;
}

static void *c_realloc(void *ctx, void *p, size_t old, size_t n)
{
    counted *c = ctx;
    void *q = realloc(p, n);
    if (q) {
        c->live = c->live - old + n;
        if (c->live > c->peak) c->peak = c->live;
    }
    return q;
}

static void c_free(void *ctx, void *p, size_t n)
{
    counted *c = ctx;
    if (p) c->live -= n;
    free(p);
}

/* ---- the two paths ----------------------------------------------------- */

static size_t compared, same_bytes, same_errors;

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

/* The tree path, as conv takes it without sv_convert_transcode. */
static size_t tree_peak; /* the last via_tree's document's peak bytes */

static sv_status via_tree(const sv_format *f, const uint8_t *data, size_t len, const sv_options *in,
                          const sv_options *out_opts, sv_buf *out, sv_error *err)
{
    counted cnt = {0, 0};
    sv_alloc al = {c_malloc, c_realloc, c_free, &cnt};
    sv_doc *doc = sv_doc_new(&al);
    assert_non_null(doc);
    sv_options o = *in;
    o.borrow_input = true;
    sv_value root;
    sv_status st = f->decode(doc, data, len, &o, &root, err);
    if (st == SV_OK) {
        sv_convert_opts co;
        sv_convert_opts_init(&co);
        co.format_options = out_opts;
        st = sv_convert_encode(f, f, &root, &co, out, NULL, err);
        if (st != SV_OK) err->byte_offset = SV_ERROR_NO_OFFSET; /* as conv reports it */
    }
    sv_doc_free(doc);
    tree_peak = cnt.peak;
    return st;
}

static void fail_with(const char *what, const char *label, const char *oname, const sv_error *a,
                      const sv_error *b)
{
    char ma[600], mb[600];
    sv_error_format(a, ma, sizeof ma);
    sv_error_format(b, mb, sizeof mb);
    fail_msg("%s: %s (%s)\n  tree:   %s\n  stream: %s", label, what, oname, ma, mb);
}

/* Both paths on data; window: 0 a plain buffer, else a sink with that
 * window. Returns the scratch document's peak bytes on the way. */
static size_t compare_one(const char *label, const sv_format *f, const uint8_t *data, size_t len,
                          const opts_case *oc, size_t window)
{
    const char *in_n[1] = {oc->in_name}, *in_v[1] = {oc->in_value};
    const char *out_n[1] = {oc->out_name}, *out_v[1] = {oc->out_value};
    sv_options in = one_option(in_n, in_v), out_opts = one_option(out_n, out_v);

    sv_buf a, b, got;
    sv_buf_init(&a, NULL);
    sv_buf_init(&b, NULL);
    sv_buf_init(&got, NULL);
    assert_int_equal(sv_buf_append(&a, "<<", 2), SV_OK);
    if (window)
        sv_buf_set_sink(&b, collect, &got, window);
    else
        assert_int_equal(sv_buf_append(&b, "<<", 2), SV_OK);
    sv_error ea, eb;
    sv_error_clear(&ea);
    sv_error_clear(&eb);
    sv_status sa = via_tree(f, data, len, &in, &out_opts, &a, &ea);

    counted cnt = {0, 0};
    sv_alloc al = {c_malloc, c_realloc, c_free, &cnt};
    sv_doc *doc = sv_doc_new(&al);
    assert_non_null(doc);
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = &out_opts;
    assert_true(sv_convert_streams(f, f));
    sv_status sb = sv_convert_transcode(doc, f, f, data, len, &in, &co, &b, &eb);
    /* the scratch document is left empty */
    assert_int_equal(sv_doc_allocated(doc), 0);
    sv_doc_free(doc);
    if (window && sb == SV_OK) assert_int_equal(sv_buf_flush(&b), SV_OK);
    const sv_buf *bytes = window ? &got : &b;
    size_t skip = window ? 0 : 2;
    compared++;
    if (sa != sb) fail_with("statuses differ", label, oc->name, &ea, &eb);
    if (sa == SV_OK) {
        if (a.len - 2 != bytes->len - skip ||
            memcmp(a.data + 2, bytes->data + skip, a.len - 2) != 0)
            fail_msg("%s: bytes differ (%s, window %zu): tree %zu bytes, stream %zu", label,
                     oc->name, window, a.len - 2, bytes->len - skip);
        same_bytes++;
    } else {
        if (ea.byte_offset != eb.byte_offset || strcmp(ea.path, eb.path) != 0 ||
            strcmp(ea.message, eb.message) != 0 || strcmp(ea.format, eb.format) != 0)
            fail_with("errors differ", label, oc->name, &ea, &eb);
        /* a failed transcode leaves the output as it was */
        if (!window) assert_int_equal(b.len, 2);
        same_errors++;
    }
    sv_buf_free(&a);
    sv_buf_free(&b);
    sv_buf_free(&got);
    return cnt.peak;
}

static const sv_format *fmt(const char *name)
{
    const sv_format *f = sv_format_find(name);
    assert_non_null(f);
    return f;
}

/* Every option case, into a buffer and through windows of 1 and 4096. */
static void compare_all(const char *label, const sv_format *f, const uint8_t *data, size_t len)
{
    bool bson = !strcmp(f->name, "bson");
    const opts_case *cases = bson ? bson_cases : resonite_cases;
    size_t n = bson ? sizeof bson_cases / sizeof *bson_cases
                    : sizeof resonite_cases / sizeof *resonite_cases;
    for (size_t i = 0; i < n; i++) compare_one(label, f, data, len, &cases[i], 0);
    compare_one(label, f, data, len, &cases[0], 1);
    compare_one(label, f, data, len, &cases[0], 4096);
}

/* Cut short: at every byte when small, else at 64 places and near the end. */
static void compare_cuts(const char *label, const sv_format *f, const uint8_t *data, size_t len)
{
    const opts_case *none = !strcmp(f->name, "bson") ? &bson_cases[0] : &resonite_cases[0];
    size_t step = len <= 400 ? 1 : len / 64;
    for (size_t k = 0; k < len; k += step) compare_one(label, f, data, k, none, k % 2 ? 7 : 0);
    for (size_t k = len > 8 ? len - 8 : 0; k < len; k++) compare_one(label, f, data, k, none, 0);
}

/* ---- the corpus ----------------------------------------------------------- */

static void corpus_as_is(void **state)
{
    (void)state;
    const char *names[] = {"bson", "resonite"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (k == 1 && !SERVAL_WITH_RESONITE) continue;
        const sv_format *f = fmt(names[k]);
        for (size_t i = 0; i < test_corpus.count; i++) {
            const corpus_file *c = &test_corpus.files[i];
            compare_one(c->path, f, c->data, c->len, &bson_cases[0], 0);
        }
    }
}

/* The files a format takes: every option, every window, cut short. */
static void corpus_own(void **state)
{
    (void)state;
    const char *names[] = {"bson", "resonite"};
    size_t own = 0;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (k == 1 && !SERVAL_WITH_RESONITE) continue;
        const sv_format *f = fmt(names[k]);
        for (size_t i = 0; i < test_corpus.count; i++) {
            const corpus_file *c = &test_corpus.files[i];
            if (f->probe(c->data, c->len) <= 0) continue;
            compare_all(c->path, f, c->data, c->len);
            compare_cuts(c->path, f, c->data, c->len);
            own++;
        }
    }
    print_message("%zu BSON and Resonite files of the corpus\n", own);
    assert_true(own >= 10); /* at least the vectors' own */
}

/* ---- without the tree ------------------------------------------------------ */

static uint8_t *read_vector(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return p;
}

/* ---- streams and large documents ------------------------------------------ */

static void stream_of_two(void **state)
{
    (void)state;
    size_t la, lb;
    uint8_t *a = read_vector("vectors/bson/all_types.bson", &la);
    uint8_t *b = read_vector("vectors/bson/nesting.bson", &lb);
    uint8_t *both = malloc(la + lb);
    assert_non_null(both);
    memcpy(both, a, la);
    memcpy(both + la, b, lb);
    compare_all("two documents", fmt("bson"), both, la + lb);
    compare_cuts("two documents", fmt("bson"), both, la + lb);
    /* the second one broken: the error names it (/1) */
    both[la + lb - 1] = 1;
    compare_all("two documents, the second broken", fmt("bson"), both, la + lb);
    free(both);
    free(a);
    free(b);
}

/* A document of a few MB (many windows of output): {"items": [{"ID": "…",
 * "Data": n, "u": "@url…"} ...]}, built with the BSON writer. */
static sv_buf big_bson(size_t items)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    for (size_t i = 0; i < items; i++) {
        char id[40], url[60];
        snprintf(id, sizeof id, "id-%zu-\xc3\xa9", i);
        snprintf(url, sizeof url, "@lstore:///%zu", i * 7919);
        sv_value m = sv_map(doc, 0);
        assert_int_equal(sv_map_append_str(doc, &m, "ID", sv_strz(doc, id)), SV_OK);
        assert_int_equal(sv_map_append_str(doc, &m, "Data", sv_int(i)), SV_OK);
        assert_int_equal(sv_map_append_str(doc, &m, "u", sv_strz(doc, url)), SV_OK);
        assert_int_equal(sv_array_append(doc, &arr, m), SV_OK);
    }
    sv_value root = sv_map(doc, 0);
    assert_int_equal(sv_map_append_str(doc, &root, "items", arr), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_bson_encode(&root, NULL, &out, &err), SV_OK);
    sv_doc_free(doc);
    return out;
}

/* The bytes a document takes from its allocator for itself. */
static size_t bare_doc(void)
{
    counted cnt = {0, 0};
    sv_alloc al = {c_malloc, c_realloc, c_free, &cnt};
    sv_doc_free(sv_doc_new(&al));
    return cnt.peak;
}

/* Converting a checked input takes no memory of the scratch document
 * beyond what the document takes for itself (a .brson's BSON comes from
 * libc, so that a refused allocation leaves the document as it was), where
 * the tree path's document takes more than twice the BSON. */
static void no_tree(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = read_vector("vectors/bson/all_types.bson", &len);
    size_t peak = compare_one("all_types.bson", fmt("bson"), data, len, &bson_cases[0], 0);
    assert_int_equal(peak, bare_doc());
    free(data);
    sv_buf b = big_bson(60000);
    peak = compare_one("large", fmt("bson"), b.data, b.len, &bson_cases[0], 4096);
    assert_int_equal(peak, bare_doc());
    assert_true(tree_peak > 2 * b.len);
#if SERVAL_WITH_RESONITE
    sv_buf br;
    sv_buf_init(&br, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    assert_int_equal(sv_resonite_wrap(b.data, b.len, &c, NULL, &br, &err), SV_OK);
    peak = compare_one("large.brson", fmt("resonite"), br.data, br.len, &resonite_cases[0], 4096);
    assert_int_equal(peak, bare_doc());
    assert_true(tree_peak > 2 * b.len);
    sv_buf_free(&br);
#endif
    sv_buf_free(&b);
}

static void large_document(void **state)
{
    (void)state;
    sv_buf b = big_bson(60000);
    assert_true(b.len > 2000000);
    compare_all("large", fmt("bson"), b.data, b.len);
    compare_one("large, window 0", fmt("bson"), b.data, b.len, &bson_cases[0], 100000);
#if SERVAL_WITH_RESONITE
    sv_buf br;
    sv_buf_init(&br, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    assert_int_equal(sv_resonite_wrap(b.data, b.len, &c, NULL, &br, &err), SV_OK);
    compare_one("large.brson", fmt("resonite"), br.data, br.len, &resonite_cases[0], 0);
    compare_one("large.brson, window 4096", fmt("resonite"), br.data, br.len, &resonite_cases[0],
                4096);
    compare_one("large.brson, lz4", fmt("resonite"), br.data, br.len, &resonite_cases[6], 0);
    sv_buf_free(&br);
#endif
    /* an invalid UTF-8 byte in the last item's ID: the error after many
     * windows, with its path */
    size_t at = b.len;
    while (at > 0 && !(b.data[at - 1] == 0xa9 && b.data[at - 2] == 0xc3)) at--;
    assert_true(at > 0);
    b.data[at - 1] = 0xff;
    compare_one("large, broken", fmt("bson"), b.data, b.len, &bson_cases[0], 4096);
    compare_one("large, broken", fmt("bson"), b.data, b.len, &bson_cases[0], 0);
    sv_buf_free(&b);
}

static int report(void **state)
{
    (void)state;
    print_message("%zu comparisons: %zu same bytes, %zu same errors\n", compared, same_bytes,
                  same_errors);
    return test_corpus_teardown(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_tree),        cmocka_unit_test(stream_of_two),
        cmocka_unit_test(large_document), cmocka_unit_test(corpus_as_is),
        cmocka_unit_test(corpus_own),
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, report);
}
