/* Allocation fault injection over every decoder and encoder
 * (docs/security.md).
 *
 * For every registered format and every input of the test corpus that the
 * format decodes (helper_corpus.h), the run is repeated with an allocator
 * that refuses the Nth allocation and every one after it, for N = 1, 2, ...
 * until a run makes no refused allocation. Each run must either
 *   - fail with SV_ERR_NOMEM, an error message, and every byte given back
 *     once the document (or the output buffer) is freed, or
 *   - succeed with exactly the result of the run without faults (a decoder
 *     may shrug off a refused optional allocation, never give a wrong tree).
 * Under the sanitizer build, ASan and LeakSanitizer watch the same runs for
 * memory errors and for leaks of memory taken outside the allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_corpus.h"
#include "serval/serval.h"
#if SERVAL_WITH_RESONITE
#include "compress/compress.h"
#include "compress/zip.h"
#include "helper_resonite.h"
#endif
#if SERVAL_WITH_O3DE
#include "helper_o3de.h"
#endif

/* No run needs more; a loop that reaches it means allocations without end. */
#define MAX_INJECTIONS 100000

/* The run without faults: a document owned by the caller, or NULL when the
 * format does not decode this input. */
/* The options a format cannot decode or encode without: godot-enc needs a
 * key (that of tests/vectors/godot-gdec/engine3). NULL for the others. */
static const sv_options *needed_options(const sv_format *f)
{
    static const char *const names[] = {"key"};
    static const char *const values[] = {
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"};
    static sv_options o;
    if (strcmp(f->name, "godot-enc") != 0) return NULL;
    sv_options_init(&o);
    o.names = names;
    o.values = values;
    o.count = 1;
    return &o;
}

static sv_doc *reference_decode(const sv_format *f, const corpus_file *in, sv_value *out)
{
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_error err;
    memset(&err, 0, sizeof err);
    if (f->decode(doc, in->data, in->len, needed_options(f), out, &err) != SV_OK) {
        sv_doc_free(doc);
        return NULL;
    }
    return doc;
}

static void check_failed_run(const sv_format *f, const corpus_file *in, const char *what, long n,
                             sv_status st, const sv_error *err)
{
    if (st == SV_ERR_NOMEM && err->status == st && err->message[0]) return;
    fail_msg("%s %s of %s, allocation %ld refused: status %s, error status %s, message '%s'",
             f->name, what, in->path, n, sv_status_name(st), sv_status_name(err->status),
             err->message);
}

/* Returns the number of runs it took. */
static long inject_decode(const sv_format *f, const corpus_file *in, const sv_value *ref)
{
    for (long n = 1; n <= MAX_INJECTIONS; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        sv_doc *doc = sv_doc_new(&t.alloc);
        if (!doc) {
            assert_int_equal(t.live_bytes, 0);
            continue;
        }
        sv_value v;
        sv_error err;
        memset(&err, 0, sizeof err);
        sv_status st = f->decode(doc, in->data, in->len, needed_options(f), &v, &err);
        if (st == SV_OK) {
            if (!sv_equal(&v, ref))
                fail_msg("%s decode of %s with allocation %ld refused gave a different tree",
                         f->name, in->path, n);
        } else {
            check_failed_run(f, in, "decode", n, st, &err);
        }
        long failures = t.failures;
        sv_doc_free(doc);
        if (t.live_bytes != 0)
            fail_msg("%s decode of %s, allocation %ld refused: %lld bytes not given back", f->name,
                     in->path, n, (long long)t.live_bytes);
        if (failures == 0) return n;
    }
    fail_msg("%s decode of %s: still allocating after %d runs", f->name, in->path, MAX_INJECTIONS);
    return 0;
}

static long inject_encode(const sv_format *f, const corpus_file *in, const sv_value *ref)
{
    sv_buf want;
    sv_buf_init(&want, NULL);
    sv_error err;
    memset(&err, 0, sizeof err);
    if (f->encode(ref, needed_options(f), &want, &err) != SV_OK) {
        /* Not every decodable input is encodable with default options
         * (fuzz_target.c checks that it is with the decoder's own); nothing
         * to inject into then. */
        sv_buf_free(&want);
        return 0;
    }
    for (long n = 1; n <= MAX_INJECTIONS; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        sv_buf b;
        sv_buf_init(&b, &t.alloc);
        memset(&err, 0, sizeof err);
        sv_status st = f->encode(ref, needed_options(f), &b, &err);
        if (st == SV_OK) {
            if (b.len != want.len || memcmp(b.data, want.data, b.len) != 0)
                fail_msg("%s encode of %s with allocation %ld refused gave other bytes", f->name,
                         in->path, n);
        } else {
            check_failed_run(f, in, "encode", n, st, &err);
        }
        long failures = t.failures;
        sv_buf_free(&b);
        if (t.live_bytes != 0)
            fail_msg("%s encode of %s, allocation %ld refused: %lld bytes not given back", f->name,
                     in->path, n, (long long)t.live_bytes);
        if (failures == 0) {
            sv_buf_free(&want);
            return n;
        }
    }
    fail_msg("%s encode of %s: still allocating after %d runs", f->name, in->path, MAX_INJECTIONS);
    return 0;
}

static void test_every_format_every_input(void **state)
{
    (void)state;
    size_t nformats;
    const sv_format *const *formats = sv_formats(&nformats);
    for (size_t i = 0; i < nformats; i++) {
        const sv_format *f = formats[i];
        size_t inputs = 0;
        long runs = 0;
        for (size_t k = 0; k < test_corpus.count; k++) {
            const corpus_file *in = &test_corpus.files[k];
            sv_value ref;
            sv_doc *doc = reference_decode(f, in, &ref);
            if (!doc) continue;
            inputs++;
            runs += inject_decode(f, in, &ref);
            if (f->encode) runs += inject_encode(f, in, &ref);
            sv_doc_free(doc);
        }
        printf("fault injection: %-10s %3zu inputs, %6ld runs\n", f->name, inputs, runs);
        /* Every format has inputs among the vectors and samples; without the
         * samples a format may have none in the repository alone. */
        if (inputs == 0 && test_corpus.samples_present)
            fail_msg("format %s decodes none of the test inputs", f->name);
    }
}

#if SERVAL_WITH_RESONITE || SERVAL_WITH_KINGSISLE
/* ---- the codecs, the zip reader and the KIWAD archive, call by call --------------- */

/* One run of a codec call with every allocation through a; returns its
 * status (SV_ERR_NOMEM when an allocation was refused) having freed all. */
typedef sv_status (*codec_run)(const sv_alloc *a, const void *ctx);

/* Fails allocation N = 1, 2, ... until a run refuses none: each run must
 * succeed or say SV_ERR_NOMEM, and give every byte back. */
static long inject_codec(const char *what, codec_run fn, const void *ctx)
{
    for (long n = 1; n <= MAX_INJECTIONS; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        sv_status st = fn(&t.alloc, ctx);
        if (st != SV_OK && st != SV_ERR_NOMEM)
            fail_msg("%s, allocation %ld refused: status %s", what, n, sv_status_name(st));
        if (t.failures && st == SV_OK)
            fail_msg("%s, allocation %ld refused: succeeded anyway", what, n);
        if (t.live_bytes != 0)
            fail_msg("%s, allocation %ld refused: %lld bytes not given back", what, n,
                     (long long)t.live_bytes);
        if (t.failures == 0) return n;
    }
    fail_msg("%s: still allocating after %d runs", what, MAX_INJECTIONS);
    return 0;
}

typedef struct bytes {
    const uint8_t *p;
    size_t n;
} bytes;
#endif

#if SERVAL_WITH_KINGSISLE
/* The KIWAD API whole: write an archive (zlib members and a stored .ogg),
 * open it, read every member with its CRC checked, and repack it with one
 * member changed, every allocation through a. */
static sv_status run_kiwad(const sv_alloc *a, const void *ctx)
{
    const bytes *in = ctx;
    const sv_kiwad_entry entries[] = {
        {"a/one.xml", in->p, in->n}, {"b.bin", in->p, 100}, {"music.ogg", in->p, 50}};
    sv_kiwad_write_opts opts;
    sv_kiwad_write_opts_init(&opts);
    opts.flags = 1;
    opts.level = 6;
    sv_error err;
    sv_error_clear(&err);
    sv_buf wad, member, repacked;
    sv_buf_init(&wad, a);
    sv_buf_init(&member, a);
    sv_buf_init(&repacked, a);
    sv_kiwad *k = NULL;
    sv_status st = sv_kiwad_write(entries, 3, &opts, &wad, &err);
    if (st == SV_OK) st = sv_kiwad_open(wad.data, wad.len, a, &k, &err);
    for (size_t i = 0; st == SV_OK && i < sv_kiwad_count(k); i++) {
        member.len = 0;
        st = sv_kiwad_read(k, i, NULL, true, &member, &err);
    }
    if (st == SV_OK) {
        const sv_kiwad_change changes[] = {{true, NULL, 0}, {false, in->p, 10}, {true, NULL, 0}};
        st = sv_kiwad_repack(k, changes, NULL, 0, 0, &repacked, &err);
    }
    if (st != SV_OK && (err.status != st || !err.message[0]))
        fail_msg("kiwad: status %s without its error message", sv_status_name(st));
    sv_kiwad_close(k);
    sv_buf_free(&repacked);
    sv_buf_free(&member);
    sv_buf_free(&wad);
    return st;
}

static void test_kiwad(void **state)
{
    (void)state;
    uint8_t text[20000];
    for (size_t i = 0; i < sizeof text; i++) text[i] = (uint8_t)("<Objects> class\n"[i % 16] ^ (i / 977));
    bytes in = {text, sizeof text};
    long runs = inject_codec("kiwad", run_kiwad, &in);
    printf("fault injection: kiwad     %6ld runs\n", runs);
}
#endif

#if SERVAL_WITH_RESONITE

static sv_status run_brotli_compress(const sv_alloc *a, const void *ctx)
{
    const bytes *in = ctx;
    sv_buf out;
    sv_buf_init(&out, a);
    bool ok = sv__compress_brotli_compress(in->p, in->n, 9, 16, &out);
    sv_buf_free(&out);
    return ok ? SV_OK : SV_ERR_NOMEM;
}

static sv_status run_brotli_decompress(const sv_alloc *a, const void *ctx)
{
    const bytes *in = ctx;
    sv_buf out;
    sv_buf_init(&out, a);
    sv_decomp d = {.max_out = 1u << 30, .format = "test"};
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv__compress_brotli_decompress(in->p, in->n, &d, &out, &err);
    sv_buf_free(&out);
    return st;
}

static sv_status run_lzma_compress(const sv_alloc *a, const void *ctx)
{
    const bytes *in = ctx;
    sv_buf out;
    sv_buf_init(&out, a);
    uint8_t props[5];
    bool ok = sv__compress_lzma_raw_compress(in->p, in->n, 1u << 16, 3, 0, 2, 32, props, &out);
    sv_buf_free(&out);
    return ok ? SV_OK : SV_ERR_NOMEM;
}

typedef struct lzma_input {
    uint8_t props[5];
    const uint8_t *p;
    size_t n, usize;
} lzma_input;

static sv_status run_lzma_decompress(const sv_alloc *a, const void *ctx)
{
    const lzma_input *in = ctx;
    sv_buf out;
    sv_buf_init(&out, a);
    sv_decomp d = {.max_out = 1u << 30, .format = "test"};
    sv_error err;
    sv_error_clear(&err);
    size_t used;
    sv_status st = sv__compress_lzma_raw_decompress(in->props, in->p, in->n, in->usize, &d, &out, &used, &err);
    sv_buf_free(&out);
    return st;
}

/* The whole package API: open, every member's description and bytes. */
static sv_status run_package(const sv_alloc *a, const void *ctx)
{
    const bytes *in = ctx;
    sv_resonite_package *p;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_resonite_package_open(in->p, in->n, a, &p, &err);
    if (st != SV_OK) return st;
    for (size_t i = 0; i < sv_resonite_package_count(p) && st == SV_OK; i++) {
        sv_resonite_member m;
        st = sv_resonite_package_member(p, i, &m, &err);
        sv_buf b;
        sv_buf_init(&b, a);
        if (st == SV_OK) st = sv_resonite_package_read(p, i, 0, &b, &err);
        sv_buf_free(&b);
    }
    if (st != SV_OK && (err.status != st || !err.message[0]))
        fail_msg("package: status %s without its error message", sv_status_name(st));
    sv_resonite_package_close(p);
    return st;
}

static sv_status run_zip_write(const sv_alloc *a, const void *ctx)
{
    const bytes *in = ctx;
    sv_buf out;
    sv_buf_init(&out, a);
    sv_zip_writer w;
    sv_error err;
    sv_error_clear(&err);
    sv__compress_zip_writer_init(&w, &out, 0, "zip");
    sv_status st = sv__compress_zip_writer_add(&w, "a", in->p, in->n, SV_ZIP_DEFLATED, 6, &err);
    if (st == SV_OK) st = sv__compress_zip_writer_add(&w, "b", in->p, 100, SV_ZIP_STORED, 0, &err);
    if (st == SV_OK) st = sv__compress_zip_writer_finish(&w, &err);
    sv__compress_zip_writer_free(&w);
    sv_buf_free(&out);
    return st;
}

static void test_codecs_and_zip(void **state)
{
    (void)state;
    size_t n = 100000;
    uint8_t *text = rs_text_bytes(n);
    bytes plain = {text, n};
    long runs = inject_codec("brotli compress", run_brotli_compress, &plain);
    sv_buf c;
    sv_buf_init(&c, NULL);
    assert_true(sv__compress_brotli_compress(text, n, 9, 22, &c));
    bytes br = {c.data, c.len};
    runs += inject_codec("brotli decompress", run_brotli_decompress, &br);
    printf("fault injection: brotli    %6ld runs\n", runs);

    runs = inject_codec("lzma compress", run_lzma_compress, &plain);
    lzma_input lz = {{0}, NULL, 0, n};
    sv_buf l;
    sv_buf_init(&l, NULL);
    assert_true(sv__compress_lzma_raw_compress(text, n, 1u << 16, 3, 0, 2, 32, lz.props, &l));
    lz.p = l.data;
    lz.n = l.len;
    runs += inject_codec("lzma decompress", run_lzma_decompress, &lz);
    printf("fault injection: lzma      %6ld runs\n", runs);

    runs = inject_codec("zip write", run_zip_write, &plain);
    /* a package written here, and the samples when they are there */
    sv_buf z;
    sv_buf_init(&z, NULL);
    sv_zip_writer w;
    sv_error err;
    sv_error_clear(&err);
    sv__compress_zip_writer_init(&w, &z, 0, "zip");
    assert_int_equal(sv__compress_zip_writer_add(&w, "R-Main.record", text, 500, SV_ZIP_DEFLATED, 6, &err),
                     SV_OK);
    assert_int_equal(sv__compress_zip_writer_add(&w, "Assets/x", c.data, c.len, SV_ZIP_STORED, 0, &err),
                     SV_OK);
    assert_int_equal(sv__compress_zip_writer_finish(&w, &err), SV_OK);
    sv__compress_zip_writer_free(&w);
    bytes pkg = {z.data, z.len};
    runs += inject_codec("package read", run_package, &pkg);
    static const char *samples[] = {PACKAGE_DIR "AvatarRootIdentification.resonitepackage",
                                    PACKAGE_DIR "loading_standin.resonitepackage"};
    for (size_t i = 0; i < 2; i++) {
        size_t len;
        uint8_t *d = rs_read_file(samples[i], &len);
        if (!d) continue;
        bytes s = {d, len};
        runs += inject_codec(samples[i], run_package, &s);
        free(d);
    }
    printf("fault injection: zip       %6ld runs\n", runs);
    sv_buf_free(&z);
    sv_buf_free(&l);
    sv_buf_free(&c);
    free(text);
}
#endif

#if SERVAL_WITH_O3DE
/* O3DE JSON: read, load into a default instance, store (stripped), write,
 * and apply and create a JSON Patch, all in one document on the failing
 * allocator. Every run ends in SV_ERR_NOMEM or in the text of the run
 * without faults, and the document and buffer give every byte back. */
static sv_status o3de_pipeline(const sv_alloc *alloc, const char *type, const char *text,
                               sv_buf *out, sv_error *err)
{
    sv_doc *doc = sv_doc_new(alloc);
    if (!doc) return SV_ERR_NOMEM;
    const sv_type *t = o3t_type(type);
    sv_value json, value, stored, patch;
    sv_o3de_result r;
    sv_status st = sv_o3de_read(doc, text, strlen(text), NULL, &json, err);
    if (st == SV_OK) st = sv_o3de_default_value(o3t_schema(), t, doc, &value, err);
    if (st == SV_OK) st = sv_o3de_load(o3t_schema(), t, &json, doc, &value, NULL, &r, err);
    if (st == SV_OK) st = sv_o3de_store(o3t_schema(), t, &value, NULL, doc, &stored, NULL, &r, err);
    if (st == SV_OK) st = sv_o3de_write(&stored, 4, out, err);
    if (st == SV_OK)
        st = sv_o3de_create_patch(doc, &json, &stored, SV_O3DE_JSON_PATCH, &patch, NULL, &r, err);
    if (st == SV_OK) st = sv_o3de_apply_patch(doc, &json, &patch, SV_O3DE_JSON_PATCH, NULL, &r, err);
    if (st == SV_OK) st = sv_o3de_write(&json, 0, out, err);
    sv_doc_free(doc);
    return st;
}

static void test_o3de(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"SimpleNested", "{\"nested\":{\"var1\":\"0x10\",\"VAR2\":7.5,\"x\":1},\"var_additional\":3}"},
        {"ComplexNullInheritedPointer",
         "{\"pointer\":{\"$type\":\"MultipleInheritence\",\"base_var\":1.0,\"base2_var3\":2.0}}"},
        {"SimpleEnumWrapper", "{\"enumClass\":\"option2\",\"rawEnum\":[\"RawOption1\",2]}"},
        {"ColorHolder", "{\"c\":{\"RGBA8\":[255,51,204,10]}}"},
        {"Vec3Holder", "// comment\n{\"v\":{\"X\":1.0,\"z\":3.0}}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sv_buf ref;
        sv_buf_init(&ref, NULL);
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(o3de_pipeline(NULL, cases[i][0], cases[i][1], &ref, &err), SV_OK);
        long n = 1;
        for (; n < MAX_INJECTIONS; n++) {
            test_alloc t;
            test_alloc_init(&t, n);
            sv_buf out;
            sv_buf_init(&out, &t.alloc);
            sv_error_clear(&err);
            sv_status st = o3de_pipeline(&t.alloc, cases[i][0], cases[i][1], &out, &err);
            if (st != SV_OK) {
                if (st != SV_ERR_NOMEM) fail_msg("o3de %s, fault %ld: status %d", cases[i][0], n, (int)st);
            } else {
                assert_int_equal(out.len, ref.len);
                assert_memory_equal(out.data, ref.data, ref.len);
            }
            sv_buf_free(&out);
            if (t.live_bytes != 0)
                fail_msg("o3de %s, fault %ld: %lld bytes not given back", cases[i][0], n,
                         (long long)t.live_bytes);
            if (t.failures == 0) break;
        }
        printf("fault injection: o3de %-28s %5ld runs\n", cases[i][0], n);
        sv_buf_free(&ref);
    }
    o3t_schema_free();
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_format_every_input),
#if SERVAL_WITH_RESONITE
        cmocka_unit_test(test_codecs_and_zip),
#endif
#if SERVAL_WITH_O3DE
        cmocka_unit_test(test_o3de),
#endif
#if SERVAL_WITH_KINGSISLE
        cmocka_unit_test(test_kiwad),
#endif
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, test_corpus_teardown);
}
