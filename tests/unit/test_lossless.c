/* Every test vector and every real sample of every format comes back byte
 * for byte through typed JSON, as `serval dump` then
 * `serval conv --from json --to FMT` do it: decode, write typed JSON, read
 * it back (the same tree), encode; the bytes must be the input's.
 *
 * Inputs: tests/vectors/ (bson, resonite, noesis, the Godot 3.2.3 oracle's
 * and the spec's "enc" vectors) and ../../shared/samples/ (noesis-nsb,
 * brson, the data tree members of each resonitepackage), skipped with a
 * message when that folder is absent. JSON is its own typed JSON: its
 * vectors must reach serval's form in one trip and keep it.
 *
 * Also here, the cases that once did not come back: Noesis Bool bytes
 * other than 00/01, Godot 3 strings with surrogates and characters above
 * U+10FFFF, NodePaths with stale padding.
 *
 * With SERVAL_TEST_SINK_WINDOW=N in the environment (the CTest test
 * unit.test_lossless.window64) every encode of a trip writes through a sink
 * with a window of N bytes (serval/buf.h), as `conv -o FILE` does with
 * 1 MiB: an encoder that releases bytes it later patches or rereads, or
 * keeps an offset across a release, gives other bytes (or, under the
 * sanitizers, an invalid access). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_file.h"
#include "serval/serval.h"
#include "test_godot_util.h"

#define SAMPLES "../../shared/samples/"

static int failures, passed;

static void lfail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", what);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

static char *err_text(const sv_error *err)
{
    static char msg[512];
    sv_error_format(err, msg, sizeof msg);
    return msg;
}

/* The window of SERVAL_TEST_SINK_WINDOW, or 0 (encode straight into the
 * buffer). */
static size_t sink_window(void)
{
    const char *s = getenv("SERVAL_TEST_SINK_WINDOW");
    return s ? (size_t)strtoul(s, NULL, 10) : 0;
}

/* The sink: what it is handed, appended to the buffer the trip compares. */
static sv_status to_whole(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

/* The buffer an encoder writes into: out itself, or with a window set,
 * staging, whose sink appends to out. */
static sv_buf *sink_begin(sv_buf *staging, sv_buf *out)
{
    size_t window = sink_window();
    if (!window) return out;
    sv_buf_init(staging, NULL);
    sv_buf_set_sink(staging, to_whole, out, window);
    return staging;
}

/* The encoder's status st, after handing the rest of staging to out. */
static sv_status sink_end(sv_buf *used, sv_buf *out, sv_status st)
{
    if (used == out) return st;
    if (st == SV_OK) st = sv_buf_flush(used);
    sv_buf_free(used);
    return st;
}

static sv_status json_encode_via(const sv_value *v, sv_buf *out, sv_error *err)
{
    sv_buf staging, *b = sink_begin(&staging, out);
    sv_status st = sv_json_encode(v, NULL, b, err);
    return sink_end(b, out, st);
}

static sv_status format_encode_via(const sv_format *f, const sv_value *v, const sv_options *o,
                                   sv_buf *out, sv_error *err)
{
    sv_buf staging, *b = sink_begin(&staging, out);
    sv_status st = f->encode(v, o, b, err);
    return sink_end(b, out, st);
}

/* decode | typed JSON | read back (the same tree) | encode == data. */
static void json_trip(const char *what, const char *fmt, const sv_options *o, const uint8_t *data,
                      size_t len)
{
    const sv_format *f = sv_format_find(fmt);
    assert_non_null(f);
    sv_doc *doc = sv_doc_new(NULL), *doc2 = sv_doc_new(NULL);
    sv_value v, back;
    sv_error err;
    sv_error_clear(&err);
    sv_buf text, out;
    sv_buf_init(&text, NULL);
    sv_buf_init(&out, NULL);
    if (f->decode(doc, data, len, o, &v, &err) != SV_OK)
        lfail(what, "%s does not decode: %s", fmt, err_text(&err));
    else if (json_encode_via(&v, &text, &err) != SV_OK)
        lfail(what, "no typed JSON: %s", err_text(&err));
    else if (sv_json_decode(doc2, (const char *)text.data, text.len, NULL, &back, &err) != SV_OK)
        lfail(what, "its typed JSON does not read back: %s", err_text(&err));
    else if (!sv_equal(&v, &back))
        lfail(what, "its typed JSON reads back as another tree");
    else if (format_encode_via(f, &back, o, &out, &err) != SV_OK)
        lfail(what, "the tree from typed JSON does not encode: %s", err_text(&err));
    else if (out.len != len || memcmp(out.data, data, len) != 0)
        lfail(what, "%zu bytes back for %zu, not the same", out.len, len);
    else
        passed++;
    sv_buf_free(&text);
    sv_buf_free(&out);
    sv_doc_free(doc);
    sv_doc_free(doc2);
}

static void trip_file(const char *path, const uint8_t *data, size_t len, void *ctx)
{
    json_trip(path, (const char *)ctx, NULL, data, len);
}

static void folder(const char *dir, const char *fmt, const char *const *suffixes, int min)
{
    if (!sv_format_find(fmt)) { /* a build with the format left out (SERVAL_WITH_*) */
        printf("skipped: %s (the %s format is not built)\n", dir, fmt);
        return;
    }
    int n = test_each_file(dir, suffixes, trip_file, (void *)fmt);
    if (n < 0 && !strncmp(dir, SAMPLES, strlen(SAMPLES))) {
        printf("skipped: %s not found (the shared samples folder is absent)\n", dir);
        return;
    }
    if (n < min) lfail(dir, "%d files, expected at least %d", n, min);
}

static void test_vectors(void **state)
{
    (void)state;
    failures = passed = 0;
    static const char *const bson[] = {".bson", NULL};
    static const char *const resonite[] = {".brson", ".7zbson", ".lz4bson", NULL};
    static const char *const nsb[] = {".nsb", NULL};
    folder("vectors/bson", "bson", bson, 5);
    folder("vectors/resonite", "resonite", resonite, 6);
    folder("vectors/noesis", "noesis", nsb, 9);
    printf("vectors: %d round-trip byte for byte, %d failures\n", passed, failures);
    assert_int_equal(failures, 0);
}

#if SERVAL_WITH_GODOT
/* An index with the bytes inline (name, profile, options, source, kind,
 * hex, expected): its "enc" rows. */
static void godot_inline_index(const char *path)
{
    size_t len = 0;
    char *index = test_read_file(path, &len); /* NUL-terminated */
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        char *f[7];
        if (line[0] == '#' || tg_split_tabs(line, f, 7) != 7 || strcmp(f[4], "enc") != 0) continue;
        static uint8_t bin[4096];
        long n = tg_hex(f[5], bin, sizeof bin);
        assert_true(n >= 0);
        tg_opts o;
        tg_opts_parse(&o, f[2]);
        json_trip(f[0], f[1], &o.o, bin, (size_t)n);
    }
    free(index);
}

/* The Godot vectors that are an encoder's own output ("enc"): the 3.2.3
 * oracle (godot3), the spec's (each row names its profile) and
 * @gd-com/utils' (godot-doc). */
static void test_godot_vectors(void **state)
{
    (void)state;
    failures = passed = 0;
    size_t len = 0;
    char *index = test_read_file("vectors/godot/oracle/index.tsv", &len); /* NUL-terminated */
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        char *f[6];
        if (line[0] == '#' || tg_split_tabs(line, f, 6) != 6) continue;
        if (strncmp(f[1], "enc", 3) != 0) continue;
        char path[256];
        snprintf(path, sizeof path, "vectors/godot/oracle/%s.bin", f[0]);
        size_t n = 0;
        uint8_t *bin = tg_read_file(path, &n);
        assert_non_null(bin);
        tg_opts o;
        tg_opts_parse(&o, f[2]);
        json_trip(path, "godot3", &o.o, bin, n);
        free(bin);
    }
    free(index);
    godot_inline_index("vectors/godot/spec/index.tsv");
    godot_inline_index("vectors/godot/gdcom/index.tsv");
    printf("godot: %d vectors round-trip byte for byte, %d failures\n", passed, failures);
    assert_true(passed >= 450);
    assert_int_equal(failures, 0);
}
#endif

/* JSON: one trip reaches serval's own form (compact), which then stays. */
static void json_file(const char *path, const uint8_t *data, size_t len, void *ctx)
{
    (void)ctx;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_buf once;
    sv_buf_init(&once, NULL);
    if (sv_json_decode(doc, (const char *)data, len, NULL, &v, &err) != SV_OK ||
        json_encode_via(&v, &once, &err) != SV_OK)
        lfail(path, "%s", err_text(&err));
    else
        json_trip(path, "json", NULL, once.data, once.len);
    sv_buf_free(&once);
    sv_doc_free(doc);
}

static void test_json_vectors(void **state)
{
    (void)state;
    failures = passed = 0;
    static const char *const js[] = {".json", NULL};
    int n = test_each_file("vectors/json", js, json_file, NULL);
    assert_true(n >= 8);
    assert_int_equal(failures, 0);
}

#if SERVAL_WITH_RESONITE
/* The data tree members of a .resonitepackage. */
static void package_file(const char *path, const uint8_t *data, size_t len, void *ctx)
{
    int *members = ctx;
    sv_resonite_package *p = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_package_open(data, len, NULL, &p, &err) != SV_OK) {
        lfail(path, "does not open: %s", err_text(&err));
        return;
    }
    for (size_t i = 0; i < sv_resonite_package_count(p); i++) {
        sv_resonite_member m;
        assert_int_equal(sv_resonite_package_member(p, i, &m, &err), SV_OK);
        if (!m.is_data_tree) continue;
        sv_buf b;
        sv_buf_init(&b, NULL);
        assert_int_equal(sv_resonite_package_read(p, i, 0, &b, &err), SV_OK);
        char what[600];
        snprintf(what, sizeof what, "%s:%s", path, m.name);
        json_trip(what, "resonite", NULL, b.data, b.len);
        (*members)++;
        sv_buf_free(&b);
    }
    sv_resonite_package_close(p);
}

#endif

static void test_samples(void **state)
{
    (void)state;
    failures = passed = 0;
    static const char *const nsb[] = {".nsb", NULL};
    static const char *const brson[] = {".brson", NULL};
    static const char *const pkg[] = {".resonitepackage", NULL};
    folder(SAMPLES "noesis-nsb", "noesis", nsb, 6);
    folder(SAMPLES "brson", "resonite", brson, 3);
    int members = 0;
#if SERVAL_WITH_RESONITE
    int n = test_each_file(SAMPLES "resonitepackage", pkg, package_file, &members);
#else
    (void)pkg;
    int n = -1; /* the packages are Resonite's */
#endif
    if (n < 0)
        printf("skipped: %sresonitepackage not found (the shared samples folder is absent)\n",
               SAMPLES);
    else if (members < 2)
        lfail("resonitepackage", "%d data tree members in %d packages", members, n);
    printf("samples: %d round-trip byte for byte (%d package members), %d failures\n", passed,
           members, failures);
    assert_int_equal(failures, 0);
}

/* ---- the cases that once did not come back ------------------------------------ */

#if SERVAL_WITH_GODOT
/* Godot 3 strings: 3.2.3 decodes 1- to 6-byte sequences (godot_string.c), so
 * a String can hold a lone surrogate (ED A0 80 = U+D800) or a character
 * above U+10FFFF (F4 90 80 80 = U+110000; FD BF BF BF BF BF = U+7FFFFFFF).
 * Bytes: type 4 (String), length, the UTF-8, zero padding (spec §4). */
static void test_godot3_odd_strings(void **state)
{
    (void)state;
    failures = passed = 0;
    static const char *const hex[] = {
        "04000000 03000000 eda08000",         /* U+D800 */
        "04000000 07000000 61eda080edb08000", /* a, U+D800, U+DC00: two lone ones */
        "04000000 04000000 f4908080",         /* U+110000 */
        "04000000 06000000 fdbfbfbfbfbf0000", /* U+7FFFFFFF */
        "12000000 01000000 04000000 03000000 edb08000 02000000 01000000", /* {U+DC00: 1} */
        "0f000000 01000080 00000000 00000000 04000000 f4908080",          /* NodePath U+110000 */
    };
    for (size_t i = 0; i < sizeof hex / sizeof hex[0]; i++) {
        uint8_t bin[64];
        long n = tg_hex(hex[i], bin, sizeof bin);
        assert_true(n > 0);
        json_trip(hex[i], "godot3", NULL, bin, (size_t)n);
    }
    assert_int_equal(failures, 0);
    /* and what the typed JSON says for U+D800 */
    uint8_t bin[16];
    long n = tg_hex("04000000 03000000 eda08000", bin, sizeof bin);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_godot_opts o4, o;
    sv_godot_opts_init(&o4, SV_GODOT4);
    sv_godot_opts_init(&o, SV_GODOT3);
    assert_int_equal(sv_godot_decode(doc, bin, (size_t)n, &o4, &v, NULL, &err), SV_ERR_UTF8);
    assert_int_equal(sv_godot_decode(doc, bin, (size_t)n, &o, &v, NULL, &err), SV_OK);
    char *text = tg_json(&v);
    assert_string_equal(text, "{\"$str\":[55296]}");
    free(text);
    sv_doc_free(doc);
}

/* NodePaths whose padding holds stale bytes, as 3.2.3 writes them, and the
 * obsolete property flag: the bytes come back, the text is the path. */
static void test_godot_nodepath_padding(void **state)
{
    (void)state;
    failures = passed = 0;
    /* type 15, 2 names | 0x80000000, 1 subname, absolute; "ab" + 2 stale
     * bytes, "c" + 3, "xyz" + 1 */
    static const char stale[] =
        "0f000000 02000080 01000000 01000000 02000000 61627f11 01000000 63aabbcc 03000000 78797a01";
    uint8_t bin[64];
    long n = tg_hex(stale, bin, sizeof bin);
    json_trip("nodepath stale", "godot3", NULL, bin, (size_t)n);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    assert_int_equal(sv_godot_decode(doc, bin, (size_t)n, &o, &v, NULL, &err), SV_OK);
    char *text = tg_json(&v);
    assert_string_equal(text, "{\"$node_path\":{\"$array\":[\"/ab/c:xyz\"],"
                              "\"$meta\":{\"padding\":{\"$bytes\":\"fxGqu8wB\"}}}}");
    free(text);
    /* the path edited (other lengths): the padding is zeros again */
    sv_value *item = sv_array_at(&v, 0);
    *item = sv_strz(doc, "/ab/cd:xyz");
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_godot_encode(&v, &o, &b, &err), SV_OK);
    uint8_t want[64];
    long wn = tg_hex("0f000000 02000080 01000000 01000000 02000000 61620000 02000000 63640000 "
                     "03000000 78797a00",
                     want, sizeof want);
    assert_int_equal(b.len, (size_t)wn);
    assert_memory_equal(b.data, want, b.len);
    sv_buf_free(&b);
    /* zero padding stays a plain string; the property flag (bit 1) is kept */
    n = tg_hex("0f000000 01000080 00000000 02000000 01000000 61000000 01000000 62000000", bin,
               sizeof bin);
    json_trip("nodepath property flag", "godot3", NULL, bin, (size_t)n);
    n = tg_hex("0f000000 01000080 00000000 00000000 01000000 61000000", bin, sizeof bin);
    assert_int_equal(sv_godot_decode(doc, bin, (size_t)n, &o, &v, NULL, &err), SV_OK);
    text = tg_json(&v);
    assert_string_equal(text, "{\"$node_path\":\"a\"}");
    free(text);
    sv_doc_free(doc);
    assert_int_equal(failures, 0);
}

/* A Godot bool stored as 2 (the engine reads any nonzero u32 as true). */
static void test_godot_bool_value(void **state)
{
    (void)state;
    failures = passed = 0;
    uint8_t bin[16];
    long n = tg_hex("01000000 02000000", bin, sizeof bin);
    json_trip("bool 2", "godot3", NULL, bin, (size_t)n);
    json_trip("bool 2", "godot4", NULL, bin, (size_t)n);
    assert_int_equal(failures, 0);
}

/* hex through json_trip */
static void trip_hex(const char *what, const char *fmt, const char *hex)
{
    uint8_t bin[256];
    long n = tg_hex(hex, bin, sizeof bin);
    assert_true(n >= 0);
    json_trip(what, fmt, NULL, bin, (size_t)n);
}

/* decode hex, let edit change the tree, encode: the engine's bytes want */
static void edited(const char *fmt, const char *hex, void (*edit)(sv_doc *, sv_value *),
                   const char *want_hex)
{
    const sv_format *f = sv_format_find(fmt);
    uint8_t bin[256], want[256];
    long n = tg_hex(hex, bin, sizeof bin), wn = tg_hex(want_hex, want, sizeof want);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(f->decode(doc, bin, (size_t)n, NULL, &v, &err), SV_OK);
    edit(doc, &v);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(f->encode(&v, NULL, &b, &err), SV_OK);
    if (b.len != (size_t)wn || memcmp(b.data, want, b.len)) {
        char *got = tg_to_hex(b.data, b.len);
        fprintf(stderr, "edited %s: got %s, want %s\n", hex, got, want_hex);
        free(got);
    }
    assert_int_equal(b.len, (size_t)wn);
    assert_memory_equal(b.data, want, b.len);
    sv_buf_free(&b);
    sv_doc_free(doc);
}

static void edit_first_to_abc(sv_doc *doc, sv_value *v)
{
    *sv_array_at(v, 0) = sv_strz(doc, "abc");
}

static void edit_push_7(sv_doc *doc, sv_value *v)
{
    assert_int_equal(sv_array_append(doc, v, sv_int(7)), SV_OK);
}

static void edit_root_to_6(sv_doc *doc, sv_value *v)
{
    (void)doc;
    *sv_array_at(v, 0) = sv_int(6);
}

/* Bytes the engine reads but never writes come back (godot.md, "Bytes kept
 * beyond the value"); an edited value is written as the engine writes it.
 * Layouts from the spec (§2, §4, §5.1): 3.x Array 19, String 4,
 * PoolByteArray 20; 4.x Array 28, String 4. */
static void test_godot_kept_beyond(void **state)
{
    (void)state;
    failures = passed = 0;
    /* Array[Node] whose class name has a BOM and a padding byte 2a */
    trip_hex("typed block", "godot4", "1c000200 07000000 efbbbf4e 6f64652a 00000000");
    /* a key with a BOM, a value with a NUL and more */
    trip_hex("dict key BOM", "godot3",
             "12000000 01000000 04000000 04000000 efbbbf61 02000000 01000000");
    trip_hex("dict value NUL", "godot3",
             "12000000 01000000 02000000 01000000 04000000 03000000 61006200");
    /* a PoolByteArray without its padding, at the end of an Array */
    trip_hex("pba last", "godot3", "13000000 01000000 14000000 01000000 01");
    /* a root int with bit 8, in a store_var frame */
    trip_hex("framed root", "godot3", "08000000 02010000 05000000");
    assert_int_equal(failures, 0);
    /* edited: the String record no longer holds, the engine's bytes */
    edited("godot4", "1c000000 01000000 04000000 05000000 efbbbf61 62000000", edit_first_to_abc,
           "1c000000 01000000 04000000 03000000 61626300");
    /* an item after the unpadded PoolByteArray: its padding is written */
    edited("godot3", "13000000 01000000 14000000 01000000 01", edit_push_7,
           "13000000 02000000 14000000 01000000 01000000 02000000 07000000");
    /* the root stand-in with another value */
    edited("godot3", "02010000 05000000", edit_root_to_6, "02000000 06000000");
}

#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_json_vectors),
        cmocka_unit_test(test_samples),
#if SERVAL_WITH_GODOT
        cmocka_unit_test(test_godot_vectors),
        cmocka_unit_test(test_godot3_odd_strings),
        cmocka_unit_test(test_godot_nodepath_padding),
        cmocka_unit_test(test_godot_bool_value),
        cmocka_unit_test(test_godot_kept_beyond),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
