/* Resource bounds on untrusted input, for every registered format (the
 * figures are the ones docs/security.md promises):
 *
 *  - peak allocation while decoding is at most mult * input size + base,
 *    with mult and base from the table below, measured over every input of
 *    the test corpus and over adversarial families (tiny values, empty
 *    containers, many keys, many strings) in every format that can encode
 *    them;
 *  - the nesting depth limit: a tree deeper than the limit, encoded in each
 *    format, fails to decode with SV_ERR_DEPTH (default limit and a low one);
 *  - the string length limit: a string longer than max_string fails with
 *    SV_ERR_LIMIT.
 * Memory is counted by the allocator given to the document, through which
 * every decoder takes its tree, its scratch and (where the library lets us)
 * its decompression buffers. */
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

/* docs/security.md, "Memory": peak bytes <= mult * input bytes + base. */
typedef struct bound {
    const char *format;
    unsigned mult;
    size_t base;
    /* For a compressed container: the size the bound is taken against, the
     * decompressed payload's (which max_decompressed caps). NULL: the input's. */
    size_t (*payload_size)(const uint8_t *data, size_t len);
} bound;

/* The table names every format; a build without one never looks its row up
 * (the test walks the formats built), but the Resonite row's payload helper
 * calls into that format, so it exists only with it. */
/* An RSCC resource: the stream it holds, as its header states it (the
 * decoder checks that statement against max_decompressed first). */
static size_t godot_res_payload(const uint8_t *data, size_t len)
{
    if (len < 16 || memcmp(data, "RSCC", 4)) return len;
    size_t total = (size_t)data[12] | (size_t)data[13] << 8 | (size_t)data[14] << 16 |
                   (size_t)data[15] << 24;
    return total > len ? total : len;
}

#if SERVAL_WITH_RESONITE
static size_t resonite_payload(const uint8_t *data, size_t len)
{
    sv_buf bson;
    sv_buf_init(&bson, NULL);
    sv_error err;
    size_t n = sv_resonite_unwrap(data, len, NULL, &bson, NULL, &err) == SV_OK ? bson.len : len;
    sv_buf_free(&bson);
    return n > len ? n : len;
}
#endif

static const bound bounds[] = {
    /* [[],[],...]: 3 input bytes make a 16-byte value plus a 24-byte
     * container header, held once on the reader's stack and once in the
     * arena, whose chunks grow by doubling. */
    {"json", 40, 256u << 10, NULL},
    /* An empty Array is 8 bytes: a 16-byte value and a 24-byte header. */
    {"godot4", 10, 256u << 10, NULL},
    {"godot3", 10, 256u << 10, NULL},
    {"godot-doc", 10, 256u << 10, NULL},
    /* An empty document in an array is 8 bytes (type, "0", length, end). */
    {"bson", 16, 256u << 10, NULL},
#if SERVAL_WITH_RESONITE
    {"resonite", 16, 256u << 10, resonite_payload},
#endif
    /* Each 4-byte field becomes a 32-byte key/value pair (docs/formats/noesis.md). */
    {"noesis", 12, 256u << 10, NULL},
    /* Without a type list (as here), each deep property of 8 header bytes
     * becomes a field, a {"bits", "data"} map, its bytes and its key: up to
     * ~300 bytes while the fields collect (docs/security.md). */
    {"kingsisle", 48, 256u << 10, NULL},
    /* An element <a/> (4 bytes) is a 32-byte field; a <Class Name=""> 16 bytes of object. */
    {"kingsisle-xml", 16, 256u << 10, NULL},
    /* A string table of empty strings: 5 bytes each become a 16-byte
     * value, its arena copy and the table's pointer, length and hash slot. */
    {"godot-res", 16, 256u << 10, godot_res_payload},
#if SERVAL_WITH_GODOT
    /* Without a key nothing is decrypted; with one, the plaintext (the
     * file's size) and the inner Variant tree (godot3's bound). */
    {"godot-enc", 12, 256u << 10, NULL},
    /* Each setting: its key string and a godot Variant (godot4's bound). */
    {"godot-project", 16, 256u << 10, NULL},
#endif
};

static const bound *bound_of(const char *format)
{
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (strcmp(bounds[i].format, format) == 0) return &bounds[i];
    return NULL;
}

/* Decodes with a counting allocator; returns the status and the peak. */
static sv_status measure(const sv_format *f, const uint8_t *data, size_t len,
                         const sv_options *opts, int64_t *peak)
{
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    assert_non_null(doc);
    sv_value v;
    sv_error err;
    memset(&err, 0, sizeof err);
    sv_status st = f->decode(doc, data, len, opts, &v, &err);
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
    *peak = t.peak_bytes;
    return st;
}

static double g_worst;

static void check_peak(const sv_format *f, const bound *b, const uint8_t *data, size_t len,
                       const char *what)
{
    int64_t peak;
    if (measure(f, data, len, NULL, &peak) != SV_OK) return;
    if (b->payload_size) len = b->payload_size(data, len);
    double limit = (double)b->mult * (double)len + (double)b->base;
    if ((double)peak > limit)
        fail_msg("%s: decoding %s (%zu bytes) peaked at %lld bytes, above %u x %zu + %zu", f->name,
                 what, len, (long long)peak, b->mult, len, b->base);
    if (len >= 4096) {
        double r = (double)(peak - (int64_t)b->base) / (double)len;
        if (r > g_worst) g_worst = r;
    }
}

/* ---- adversarial families, written as typed JSON and encoded per format ---- */

/* A JSON text: open, then n copies of unit (where "%u" becomes the index),
 * separated by commas, then close. */
static char *family_text(const char *open, const char *unit, const char *close, unsigned n,
                         size_t *len)
{
    size_t cap = strlen(open) + strlen(close) + (size_t)n * (strlen(unit) + 12) + 1;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t p = (size_t)snprintf(s, cap, "%s", open);
    for (unsigned i = 0; i < n; i++) {
        if (i) s[p++] = ',';
        p += (size_t)snprintf(s + p, cap - p, unit, i);
    }
    p += (size_t)snprintf(s + p, cap - p, "%s", close);
    *len = p;
    return s;
}

typedef struct family {
    const char *name, *open, *unit, *close;
} family;

/* Maps at the root, for the formats (BSON) whose root must be a document. */
static const family families[] = {
    {"small ints", "{\"a\":[", "0", "]}"},
    {"nulls", "{\"a\":[", "null", "]}"},
    {"empty arrays", "{\"a\":[", "[]", "]}"},
    {"empty maps", "{\"a\":[", "{}", "]}"},
    {"empty strings", "{\"a\":[", "\"\"", "]}"},
    {"many keys", "{", "\"k%u\":0", "}"},
    {"many small maps", "{\"a\":[", "{\"x\":%u}", "]}"},
    {"float32s", "{\"a\":[", "{\"$f32\":%u}", "]}"},
    {"vectors", "{\"a\":[", "{\"$vector3\":[%u,0,0]}", "]}"},
};

static void test_peak_allocation(void **state)
{
    (void)state;
    const sv_format *json = sv_format_find("json");
    size_t nformats;
    const sv_format *const *formats = sv_formats(&nformats);
    for (size_t i = 0; i < nformats; i++) {
        const sv_format *f = formats[i];
        const bound *b = bound_of(f->name);
        if (!b) fail_msg("format %s has no documented memory bound (docs/security.md)", f->name);
        g_worst = 0;
        size_t inputs = 0;
        for (size_t k = 0; k < test_corpus.count; k++, inputs++)
            check_peak(f, b, test_corpus.files[k].data, test_corpus.files[k].len,
                       test_corpus.files[k].path);
        if (!f->encode) continue;
        for (size_t k = 0; k < sizeof families / sizeof families[0]; k++) {
            for (unsigned n = 10; n <= 100000; n *= 10) {
                size_t tlen;
                char *text = family_text(families[k].open, families[k].unit, families[k].close, n,
                                         &tlen);
                sv_doc *doc = sv_doc_new(NULL);
                sv_value tree;
                sv_error err;
                assert_int_equal(json->decode(doc, (const uint8_t *)text, tlen, NULL, &tree, &err),
                                 SV_OK);
                sv_buf enc;
                sv_buf_init(&enc, NULL);
                if (f->encode(&tree, NULL, &enc, &err) == SV_OK) {
                    check_peak(f, b, enc.data, enc.len, families[k].name);
                    inputs++;
                }
                sv_buf_free(&enc);
                sv_doc_free(doc);
                free(text);
            }
        }
        printf("memory: %-10s %4zu inputs, worst (peak - base) / size = %.1f (bound %u)\n", f->name,
               inputs, g_worst, b->mult);
    }
}

/* ---- depth and string limits ------------------------------------------------------------ */

/* {"a":{"a":...{"a":0}...}} with depth maps. */
static sv_value nested_maps(sv_doc *doc, unsigned depth)
{
    sv_value v = sv_int(0);
    for (unsigned i = 0; i < depth; i++) {
        sv_value m = sv_map(doc, 0);
        assert_int_equal(sv_map_append_str(doc, &m, "a", v), SV_OK);
        v = m;
    }
    return v;
}

static void expect_decode_status(const sv_format *f, const sv_buf *enc, const sv_options *o,
                                 sv_status want, const char *what)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    memset(&err, 0, sizeof err);
    sv_status st = f->decode(doc, enc->data, enc->len, o, &v, &err);
    sv_doc_free(doc);
    if (st != want)
        fail_msg("%s: %s decoded with status %s, want %s (%s)", f->name, what,
                 sv_status_name(st), sv_status_name(want), err.message);
}

static void test_depth_limit(void **state)
{
    (void)state;
    size_t nformats;
    const sv_format *const *formats = sv_formats(&nformats);
    for (size_t i = 0; i < nformats; i++) {
        const sv_format *f = formats[i];
        if (!f->encode) continue;
        sv_doc *doc = sv_doc_new(NULL);
        sv_error err;
        /* 1100 maps: deeper than the default limit of 1024. */
        sv_value deep = nested_maps(doc, SV_DEFAULT_MAX_DEPTH + 76);
        sv_buf enc;
        sv_buf_init(&enc, NULL);
        if (f->encode(&deep, NULL, &enc, &err) == SV_OK)
            expect_decode_status(f, &enc, NULL, SV_ERR_DEPTH, "1100 nested maps");
        sv_buf_free(&enc);
        /* 20 maps against a limit of 10, and within a limit of 30. */
        sv_value d20 = nested_maps(doc, 20);
        sv_buf_init(&enc, NULL);
        if (f->encode(&d20, NULL, &enc, &err) == SV_OK) {
            sv_options o;
            sv_options_init(&o);
            o.limits.max_depth = 10;
            expect_decode_status(f, &enc, &o, SV_ERR_DEPTH, "20 nested maps, limit 10");
            o.limits.max_depth = 30;
            expect_decode_status(f, &enc, &o, SV_OK, "20 nested maps, limit 30");
            printf("depth: %-10s limit enforced\n", f->name);
        }
        sv_buf_free(&enc);
        sv_doc_free(doc);
    }
}

static void test_string_limit(void **state)
{
    (void)state;
    size_t nformats;
    const sv_format *const *formats = sv_formats(&nformats);
    enum { LONG = 100000 };
    char *text = malloc(LONG);
    assert_non_null(text);
    memset(text, 'x', LONG);
    for (size_t i = 0; i < nformats; i++) {
        const sv_format *f = formats[i];
        if (!f->encode) continue;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value m = sv_map(doc, 0);
        assert_int_equal(sv_map_append_str(doc, &m, "s", sv_str(doc, text, LONG)), SV_OK);
        sv_buf enc;
        sv_buf_init(&enc, NULL);
        sv_error err;
        if (f->encode(&m, NULL, &enc, &err) == SV_OK) {
            sv_options o;
            sv_options_init(&o);
            o.limits.max_string = LONG - 1;
            expect_decode_status(f, &enc, &o, SV_ERR_LIMIT, "a string one byte over the limit");
            o.limits.max_string = LONG;
            expect_decode_status(f, &enc, &o, SV_OK, "a string at the limit");
            printf("string: %-10s limit enforced\n", f->name);
        }
        sv_buf_free(&enc);
        sv_doc_free(doc);
    }
    free(text);
}

#if SERVAL_WITH_O3DE
/* O3DE JSON (docs/security.md, "O3DE JSON loading"): a recursive type loaded
 * from JSON nested deeper than max_depth halts with Catastrophic ("The JSON
 * is nested too deeply to load."), and reading plus loading stays within
 * O3DE_MULT x input + O3DE_BASE bytes of the document's allocator. */
#include "serval/o3de.h"

#define O3DE_MULT 40u
#define O3DE_BASE ((size_t)256 * 1024)

static const char o3de_schema[] =
    "{\"serval_schema\":1,\"classes\":[{\"name\":\"Node\",\"fields\":["
    "{\"name\":\"child\",\"type\":\"ptr<Node>\"},{\"name\":\"v\",\"type\":\"i32\"},"
    "{\"name\":\"list\",\"type\":\"vector<i32>\"},{\"name\":\"names\",\"type\":\"map<string,i32>\"},"
    "{\"name\":\"pos\",\"type\":\"vector<vector3>\"}]}]}";

static sv_o3de_result o3de_load_text(sv_schema *s, const char *text, size_t len, uint32_t max_depth,
                                     const sv_alloc *alloc, size_t *peak)
{
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(alloc ? alloc : &t.alloc);
    assert_non_null(doc);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *type = NULL;
    assert_int_equal(sv_schema_parse_type(s, "Node", 4, &type, &err), SV_OK);
    sv_value json, v;
    sv_o3de_result r = 0;
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.max_depth = max_depth;
    sv_limits lim = {0, 0, 0, 0};
    lim.max_depth = SV_MAX_DEPTH_LIMIT;
    assert_int_equal(sv_o3de_read(doc, text, len, &lim, &json, &err), SV_OK);
    assert_int_equal(sv_o3de_default_value(s, type, doc, &v, &err), SV_OK);
    assert_int_equal(sv_o3de_load(s, type, &json, doc, &v, &o, &r, &err), SV_OK);
    sv_doc_free(doc);
    if (peak) *peak = (size_t)t.peak_bytes;
    assert_int_equal(t.live_bytes, 0);
    return r;
}

/* {"child":{"child":...{"v":1}...}} n levels deep */
static char *nested_nodes(size_t n, size_t *len)
{
    char *text = malloc(n * 10 + 16);
    assert_non_null(text);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += (size_t)sprintf(text + k, "{\"child\":");
    k += (size_t)sprintf(text + k, "{\"v\":1}");
    for (size_t i = 0; i < n; i++) text[k++] = '}';
    text[k] = 0;
    *len = k;
    return text;
}

static void test_o3de_bounds(void **state)
{
    (void)state;
    sv_schema *s = NULL;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_schema_load(NULL, (const uint8_t *)o3de_schema, strlen(o3de_schema), "bounds", &s,
                                    &err),
                     SV_OK);
    /* depth: 100 nested pointees against a limit of 20 (each level is a
     * pointer and a class: two steps), and within the default */
    size_t len;
    char *text = nested_nodes(100, &len);
    sv_o3de_result r = o3de_load_text(s, text, len, 20, NULL, NULL);
    assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_CATASTROPHIC);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_HALTED);
    r = o3de_load_text(s, text, len, 0, NULL, NULL);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    free(text);
    /* 1500 levels (3000 steps): over the default max_depth of 1024, within
     * what the reader takes (SV_MAX_DEPTH_LIMIT) */
    text = nested_nodes(1500, &len);
    r = o3de_load_text(s, text, len, 0, NULL, NULL);
    assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_CATASTROPHIC);
    free(text);

    /* memory: families of many small things */
    size_t n = 200000;
    char *fam = malloc(n * 16 + 64);
    assert_non_null(fam);
    const char *what[3] = {"100000 zeros in a vector<i32>", "20000 short keys in a map<string,i32>",
                           "20000 [0.0,0.0,0.0] in a vector<vector3>"};
    for (int f = 0; f < 3; f++) {
        size_t k = 0;
        if (f == 0) {
            k += (size_t)sprintf(fam + k, "{\"list\":[");
            for (size_t i = 0; i < 100000; i++) k += (size_t)sprintf(fam + k, i ? ",0" : "0");
            k += (size_t)sprintf(fam + k, "]}");
        } else if (f == 1) {
            k += (size_t)sprintf(fam + k, "{\"names\":{");
            for (size_t i = 0; i < 20000; i++) k += (size_t)sprintf(fam + k, "%s\"%zx\":0", i ? "," : "", i);
            k += (size_t)sprintf(fam + k, "}}");
        } else {
            k += (size_t)sprintf(fam + k, "{\"pos\":[");
            for (size_t i = 0; i < 20000; i++) k += (size_t)sprintf(fam + k, "%s[0.0,0.0,0.0]", i ? "," : "");
            k += (size_t)sprintf(fam + k, "]}");
        }
        size_t peak = 0;
        r = o3de_load_text(s, fam, k, 0, NULL, &peak);
        assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
        printf("o3de memory: %-42s %8zu bytes in, peak %9zu (%.1fx)\n", what[f], k, peak,
               (double)peak / (double)k);
        if (peak > O3DE_MULT * k + O3DE_BASE)
            fail_msg("o3de %s: peak %zu > %u x %zu + %zu", what[f], peak, O3DE_MULT, k, O3DE_BASE);
    }
    free(fam);
    sv_schema_free(s);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peak_allocation),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_string_limit),
#if SERVAL_WITH_O3DE
        cmocka_unit_test(test_o3de_bounds),
#endif
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, test_corpus_teardown);
}
