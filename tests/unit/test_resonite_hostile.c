/* Resonite containers on hostile input: decompression bombs of each kind
 * stop at the limit (or sooner, at the size the BSON's first bytes give)
 * with the memory that was really spent staying near the limit, counted
 * by the test allocator; lengths and sizes that lie; every cut of a real
 * container. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compress/compress.h"
#include "helper_alloc.h"
#include "helper_resonite.h"
#include "serval/bson.h"
#include "serval/resonite.h"
#include "serval/serval.h"

/* Decodes with a counting allocator and the given decompressed-size limit;
 * returns the status, *peak the most bytes held at once. */
/* sv_resonite_opts.threads for decode_counted (the pipelined tests set it). */
static int decode_threads;
/* sv_resonite_opts.limits.max_alloc for decode_counted (0: the default). */
static uint64_t decode_max_alloc;

static sv_status decode_counted(const uint8_t *b, size_t n, uint64_t limit, int64_t *peak,
                                sv_error *err)
{
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.limits.max_decompressed = limit;
    o.limits.max_alloc = decode_max_alloc;
    o.threads = decode_threads;
    sv_value v;
    sv_error_clear(err);
    uint8_t *copy = rs_copy(b, n);
    sv_status st = sv_resonite_decode(doc, copy, n, &o, &v, err);
    free(copy);
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
    *peak = t.peak_bytes;
    return st;
}

/* What libbrotli's decoder holds for a stream with a 22-bit window (these
 * bombs): the 4 MiB ring buffer, the 2 MiB one it grew from while the
 * larger is made (libbrotli allocates the ring buffer in steps), and its
 * Huffman tables. It comes from the document's allocator, so it is counted. */
#define BROTLI_W22_STATE (7 * MIB)

/* n bytes whose first 4 are a BSON length claim, then a binary element's
 * type (so that the head is a plausible root) and zeros; claim 0: all
 * zeros. */
static uint8_t *bomb_payload(size_t n, uint32_t claim)
{
    uint8_t *p = calloc(1, n);
    memcpy(p, &claim, 4);
    if (claim) p[4] = 0x05;
    return p;
}

#define MIB (1u << 20)

static void test_brotli_bombs(void **state)
{
    (void)state;
    size_t n = 64 * MIB;
    sv_error err = {0};
    int64_t peak;
    struct {
        uint32_t claim;
        sv_status want;
    } cases[] = {
        {64 * MIB, SV_ERR_LIMIT}, /* claims more than the 1 MiB limit: stops after 4 bytes */
        {100, SV_ERR_TRAILING},   /* claims 100 bytes, goes on: stops at 100 */
        {0, SV_ERR_SYNTAX},       /* no plausible BSON length at all */
    };
    for (size_t i = 0; i < 3; i++) {
        uint8_t *p = bomb_payload(n, cases[i].claim);
        sv_buf z;
        sv_buf_init(&z, NULL);
        sv_buf_append(&z, "FrDT\0\0\0\0\x03", 9);
        assert_true(sv__compress_brotli_compress(p, n, 1, 22, &z));
        free(p);
        assert_true(z.len < n / 1000);
        assert_int_equal(decode_counted(z.data, z.len, 1 * MIB, &peak, &err), cases[i].want);
        /* not even the limit was spent on output; the rest is the Brotli
         * decoder's own state, which comes from the same allocator */
        assert_true(peak < 256 * 1024 + BROTLI_W22_STATE);
        assert_string_equal(err.format, "resonite");
        sv_buf_free(&z);
    }
    /* and with a claim inside the limit that the stream overruns */
    uint8_t *p = bomb_payload(n, 512 * 1024);
    sv_buf z;
    sv_buf_init(&z, NULL);
    sv_buf_append(&z, "FrDT\0\0\0\0\x03", 9);
    assert_true(sv__compress_brotli_compress(p, n, 1, 22, &z));
    free(p);
    assert_int_equal(decode_counted(z.data, z.len, 1 * MIB, &peak, &err), SV_ERR_TRAILING);
    assert_true(peak < 2 * MIB + BROTLI_W22_STATE);
    sv_buf_free(&z);
}

static void test_lzma_bombs(void **state)
{
    (void)state;
    sv_error err = {0};
    int64_t peak;
    /* a 21-byte header that claims 1 TiB: refused before any room is made */
    uint8_t h[9 + 21 + 8] = "FrDT\0\0\0\0\x02\x5d\x00\x00\x20\x00";
    uint64_t usize = (uint64_t)1 << 40, csize = 8;
    memcpy(h + 14, &usize, 8);
    memcpy(h + 22, &csize, 8);
    assert_int_equal(decode_counted(h, sizeof h, 1 * MIB, &peak, &err), SV_ERR_LIMIT);
    assert_int_equal(err.byte_offset, 14);
    assert_true(peak < 64 * 1024);
    /* a compressed size beyond the file, a negative size */
    csize = 9;
    memcpy(h + 22, &csize, 8);
    assert_int_equal(decode_counted(h, sizeof h, 1 * MIB, &peak, &err), SV_ERR_TRUNCATED);
    usize = (uint64_t)-1;
    memcpy(h + 14, &usize, 8);
    assert_int_equal(decode_counted(h, sizeof h, 1 * MIB, &peak, &err), SV_ERR_SYNTAX);
    /* a real stream of 64 MiB whose header claims it all: the limit refuses
     * it at once; and one whose BSON length claims more than it has */
    size_t n = 64 * MIB;
    uint8_t *p = bomb_payload(n, 64 * MIB);
    uint8_t props[5];
    sv_buf z;
    sv_buf_init(&z, NULL);
    sv_buf_append(&z, "FrDT\0\0\0\0\x02", 9);
    sv_buf_append(&z, h + 9, 21);
    assert_true(sv__compress_lzma_raw_compress(p, n, 1u << 21, 3, 0, 2, 32, props, &z));
    free(p);
    memcpy(z.data + 9, props, 5);
    usize = n;
    csize = z.len - 30;
    memcpy(z.data + 14, &usize, 8);
    memcpy(z.data + 22, &csize, 8);
    assert_int_equal(decode_counted(z.data, z.len, 1 * MIB, &peak, &err), SV_ERR_LIMIT);
    assert_true(peak < 64 * 1024);
    /* the size field says 512 KiB (within the limit), the BSON 64 MiB */
    usize = 512 * 1024;
    memcpy(z.data + 14, &usize, 8);
    assert_true(decode_counted(z.data, z.len, 1 * MIB, &peak, &err) != SV_OK);
    assert_true(peak < 1 * MIB);
    sv_buf_free(&z);
}

static void test_lz4_bombs(void **state)
{
    (void)state;
    sv_error err = {0};
    int64_t peak;
    /* a chunk that says 1 GiB out of 10 stored bytes */
    const uint8_t claim[] = "FrDT\0\0\0\0\x01\x03\x80\x80\x80\x80\x04\x0a"
                            "0123456789";
    assert_int_equal(decode_counted(claim, sizeof claim - 1, 0, &peak, &err), SV_ERR_SYNTAX);
    assert_true(peak < 64 * 1024);
    /* stored bytes beyond the file */
    const uint8_t cut[] = "FrDT\0\0\0\0\x01\x03\x10\x20\x01";
    assert_int_equal(decode_counted(cut, sizeof cut - 1, 0, &peak, &err), SV_ERR_TRUNCATED);
    /* a pass count (flags bits 2..4), which lz4net refuses */
    const uint8_t passes[] = "FrDT\0\0\0\0\x01\x07\x01\x01\x00";
    assert_int_equal(decode_counted(passes, sizeof passes - 1, 0, &peak, &err), SV_ERR_SYNTAX);
    /* compressed larger than its data, which lz4net refuses */
    const uint8_t bigger[] = "FrDT\0\0\0\0\x01\x03\x02\x03\x00\x00\x00";
    assert_int_equal(decode_counted(bigger, sizeof bigger - 1, 0, &peak, &err), SV_ERR_SYNTAX);
    /* a real stream: 64 chunks of 1 MiB (each a few KiB of LZ4), the BSON
     * length claiming 64 MiB: refused at the first chunk against a 1 MiB
     * limit, and stopped at the limit when the claim is 512 KiB */
    size_t n = 64 * MIB;
    uint8_t *p = bomb_payload(n, 64 * MIB);
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_LZ4};
    sv_buf z;
    sv_buf_init(&z, NULL);
    assert_int_equal(sv_resonite_wrap(p, n, &c, NULL, &z, &err), SV_OK);
    assert_true(z.len < n / 100);
    assert_int_equal(decode_counted(z.data, z.len, 1 * MIB, &peak, &err), SV_ERR_LIMIT);
    assert_true(peak < 2 * MIB + BROTLI_W22_STATE);
    sv_buf_free(&z);
    uint32_t small = 512 * 1024;
    memcpy(p, &small, 4);
    sv_buf_init(&z, NULL);
    assert_int_equal(sv_resonite_wrap(p, n, &c, NULL, &z, &err), SV_OK);
    assert_int_equal(decode_counted(z.data, z.len, 1 * MIB, &peak, &err), SV_ERR_TRAILING);
    assert_true(peak < 2 * MIB + BROTLI_W22_STATE);
    sv_buf_free(&z);
    free(p);
}

/* p compressed with one of the three codecs behind an FrDT header (Brotli
 * with Resonite's 64 KiB window). */
static sv_buf wrapped(const uint8_t *p, size_t n, sv_resonite_compression k)
{
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, k};
    sv_buf z;
    sv_buf_init(&z, NULL);
    sv_error err = {0};
    assert_int_equal(sv_resonite_wrap(p, n, &c, NULL, &z, &err), SV_OK);
    return z;
}

/* The data tree's root is checked on the first 5 decompressed bytes, before
 * the rest: a BSON length that claims the whole 4 MiB (within the 8 MiB
 * limit) followed by zeros, which end the document at byte 4, stops there;
 * a claim over max_alloc (1 MiB) is refused there. Neither spends the
 * 4 MiB: the peak is the decoders' state (Brotli's 64 KiB window, LZMA's
 * 2 MiB dictionary, nothing for LZ4) and the first output. */
static void test_root_checked_first(void **state)
{
    (void)state;
    const size_t n = 4 * MIB;
    const sv_resonite_compression kinds[] = {SV_RESONITE_BROTLI, SV_RESONITE_LZMA,
                                             SV_RESONITE_LZ4};
    for (size_t k = 0; k < 3; k++) {
        sv_error err = {0};
        int64_t peak;
        uint8_t *p = bomb_payload(n, (uint32_t)n);
        p[4] = 0; /* the end of a document that says it is 64 MiB */
        sv_buf z = wrapped(p, n, kinds[k]);
        assert_int_equal(decode_counted(z.data, z.len, 8 * MIB, &peak, &err), SV_ERR_SYNTAX);
        assert_non_null(strstr(err.message, "ends at byte 4, but its length says more"));
        assert_true(peak < 3 * MIB);
        sv_buf_free(&z);
        /* a plausible root, a length over the allocation limit */
        p[4] = 0x05;
        z = wrapped(p, n, kinds[k]);
        free(p);
        decode_max_alloc = 1 * MIB;
        assert_int_equal(decode_counted(z.data, z.len, 8 * MIB, &peak, &err), SV_ERR_LIMIT);
        decode_max_alloc = 0;
        assert_non_null(strstr(err.message, "over the allocation limit of 1048576"));
        assert_true(peak < 3 * MIB);
        sv_buf_free(&z);
    }
}

/* Every cut of the six containers of tests/vectors/resonite: an error with a
 * message, never a success (a cut loses bytes every payload needs). */
static void test_every_cut(void **state)
{
    (void)state;
    static const char *const files[] = {"tiny.brson",         "tiny.7zbson",
                                        "tiny.lz4bson",       "tiny-legacy.brson",
                                        "tiny-legacy.7zbson", "tiny-legacy.lz4bson"};
    for (size_t f = 0; f < 6; f++) {
        char path[128];
        snprintf(path, sizeof path, "vectors/resonite/%s", files[f]);
        size_t n;
        uint8_t *b = rs_read_file(path, &n);
        assert_non_null(b);
        for (size_t k = 0; k < n; k++) {
            sv_error err = {0};
            int64_t peak;
            sv_status st = decode_counted(b, k, 0, &peak, &err);
            if (st == SV_OK) fail_msg("%s cut at %zu decoded", files[f], k);
            assert_true(err.message[0] != 0);
        }
        free(b);
    }
}

/* A BSON document of about n bytes: {"i": [{"ID": "<guid>", "V": <double>}, ...]}. */
static sv_buf big_bson(size_t n)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    for (size_t i = 0; i * 70 < n; i++) {
        sv_value m = sv_map(doc, 0);
        char id[40];
        snprintf(id, sizeof id, "%08zx-0000-0000-0000-000000000000", i);
        sv_map_append_str(doc, &m, "ID", sv_strz(doc, id));
        sv_map_append_str(doc, &m, "V", sv_f64((double)i / 3));
        sv_array_append(doc, &arr, m);
    }
    sv_value root = sv_map(doc, 0);
    sv_map_append_str(doc, &root, "i", arr);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err = {0};
    assert_int_equal(sv_bson_encode(&root, NULL, &b, &err), SV_OK);
    sv_doc_free(doc);
    return b;
}

/* Large .brson payloads are decompressed by a second thread while the BSON
 * is read when the caller allows it (threads=1, brotli_tree.c): the result
 * must equal the one-thread path's and plain BSON's, and a failure on either
 * side must end both cleanly. threads=0 (the default) must give the same. */
static void pipelined_brotli(int threads)
{
    decode_threads = threads;
    sv_buf bson = big_bson(3u << 20);
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    sv_buf z;
    sv_buf_init(&z, NULL);
    sv_error err = {0};
    assert_int_equal(sv_resonite_wrap(bson.data, bson.len, &c, NULL, &z, &err), SV_OK);
    /* intact: the same tree as BSON decoded from memory */
    sv_doc *d1 = sv_doc_new(NULL), *d2 = sv_doc_new(NULL);
    sv_value t1, t2;
    sv_error_clear(&err);
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.threads = threads;
    assert_int_equal(sv_resonite_decode(d1, z.data, z.len, &o, &t1, &err), SV_OK);
    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.resonite_urls = true;
    assert_int_equal(sv_bson_decode(d2, bson.data, bson.len, &bo, &t2, &err), SV_OK);
    assert_true(sv_equal(sv_map_getz(&t1, "i"), sv_map_getz(&t2, "i")));
    sv_doc_free(d1);
    sv_doc_free(d2);
    /* the Brotli stream cut in half: the decompressing thread's error */
    int64_t peak;
    assert_int_equal(decode_counted(z.data, z.len / 2, 0, &peak, &err), SV_ERR_TRUNCATED);
    assert_non_null(strstr(err.message, "Brotli"));
    /* an unknown element type in the middle of the BSON: the reader's error
     * (the offset is in the BSON, the message says so) */
    size_t mid = bson.len / 2;
    while (bson.data[mid] != 0x02) /* the type byte of an "ID" string */
        mid++;
    bson.data[mid] = 0x20;
    z.len = 0;
    assert_int_equal(sv_resonite_wrap(bson.data, bson.len, &c, NULL, &z, &err), SV_OK);
    assert_int_equal(decode_counted(z.data, z.len, 0, &peak, &err), SV_ERR_SYNTAX);
    assert_int_equal(err.byte_offset, mid);
    assert_non_null(strstr(err.message, "decompressed BSON"));
    sv_buf_free(&z);
    sv_buf_free(&bson);
    decode_threads = 0;
}

static void test_pipelined_brotli(void **state)
{
    (void)state;
    pipelined_brotli(1);
}

static void test_unthreaded_brotli(void **state)
{
    (void)state;
    pipelined_brotli(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brotli_bombs),     cmocka_unit_test(test_lzma_bombs),
        cmocka_unit_test(test_lz4_bombs),        cmocka_unit_test(test_every_cut),
        cmocka_unit_test(test_root_checked_first),
        cmocka_unit_test(test_pipelined_brotli), cmocka_unit_test(test_unthreaded_brotli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
