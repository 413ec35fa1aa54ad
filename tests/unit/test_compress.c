/* The compression adapters (src/compress/): round trips through Debian's
 * libraries, the property bytes Resonite's LZMA settings give (spec
 * resonite A.3.2: 5D 00 00 20 00), and the decompressed-size limit, which
 * must stop a stream while it decompresses with no more memory spent than
 * the limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compress/compress.h"
#include "helper_alloc.h"
#include "helper_resonite.h"

/* Compressible but not trivial: text-like bytes from a fixed xorshift. */
static uint8_t *sample_bytes(size_t n)
{
    uint8_t *b = malloc(n);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (uint8_t)("abcdefgh  ID Data"[x % 17]);
    }
    return b;
}

static sv_decomp limit(uint64_t max)
{
    sv_decomp d = {.max_out = max, .format = "test"};
    return d;
}

static void test_brotli(void **state)
{
    (void)state;
    size_t n = 300000;
    uint8_t *in = sample_bytes(n);
    sv_buf c, d;
    sv_buf_init(&c, NULL);
    sv_buf_init(&d, NULL);
    assert_true(sv__compress_brotli_compress(in, n, 9, 16, &c));
    assert_true(c.len < n / 2);
    sv_decomp lim = limit(n);
    sv_error err = {0};
    sv_error_clear(&err);
    assert_int_equal(sv__compress_brotli_decompress(c.data, c.len, &lim, &d, &err), SV_OK);
    assert_int_equal(d.len, n);
    assert_memory_equal(d.data, in, n);
    /* one byte under the size: refused while decompressing */
    d.len = 0;
    lim = limit(n - 1);
    assert_int_equal(sv__compress_brotli_decompress(c.data, c.len, &lim, &d, &err), SV_ERR_LIMIT);
    /* cut short, and with a byte too many */
    d.len = 0;
    sv_error_clear(&err);
    lim = limit(n);
    assert_int_equal(sv__compress_brotli_decompress(c.data, c.len - 1, &lim, &d, &err), SV_ERR_TRUNCATED);
    uint8_t *more = rs_copy(c.data, c.len + 1);
    more[c.len] = 0;
    d.len = 0;
    sv_error_clear(&err);
    assert_int_equal(sv__compress_brotli_decompress(more, c.len + 1, &lim, &d, &err), SV_ERR_TRAILING);
    assert_int_equal(err.byte_offset, c.len);
    /* not Brotli at all (0xFF: a reserved window/meta-block combination) */
    d.len = 0;
    sv_error_clear(&err);
    assert_int_equal(sv__compress_brotli_decompress((const uint8_t *)"\xff\xff\xff\xff", 4, &lim, &d, &err),
                     SV_ERR_SYNTAX);
    free(more);
    sv_buf_free(&c);
    sv_buf_free(&d);
    free(in);
}

/* 64 MiB of zeros compress over a thousand times; with a 1 MiB limit the
 * decoder stops at the limit and the buffer never passes it. */
static void test_brotli_bomb(void **state)
{
    (void)state;
    size_t n = 64u << 20;
    uint8_t *zeros = calloc(1, n);
    sv_buf c;
    sv_buf_init(&c, NULL);
    assert_true(sv__compress_brotli_compress(zeros, n, 1, 22, &c));
    free(zeros);
    assert_true(c.len < n / 1000); /* a thousand times smaller than its output */
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_buf d;
    sv_buf_init(&d, &t.alloc);
    sv_decomp lim = limit(1u << 20);
    sv_error err = {0};
    sv_error_clear(&err);
    assert_int_equal(sv__compress_brotli_decompress(c.data, c.len, &lim, &d, &err), SV_ERR_LIMIT);
    /* the output stops at the limit; the decoder's own state (its 4 MiB ring
     * buffer for a 22-bit window, the 2 MiB one it grew from, its tables)
     * comes from the same allocator */
    assert_true(d.len <= (1u << 20));
    assert_true(t.peak_bytes <= (1 << 20) + 7 * (1 << 20));
    assert_true(t.peak_bytes > (1 << 22)); /* the ring buffer was counted */
    sv_buf_free(&d);
    assert_int_equal(t.live_bytes, 0);
    sv_buf_free(&c);
}

static void test_lzma(void **state)
{
    (void)state;
    size_t n = 200000;
    uint8_t *in = sample_bytes(n);
    sv_buf c, d;
    sv_buf_init(&c, NULL);
    sv_buf_init(&d, NULL);
    uint8_t props[5];
    assert_true(sv__compress_lzma_raw_compress(in, n, 1u << 21, 3, 0, 2, 32, props, &c));
    assert_memory_equal(props, "\x5d\x00\x00\x20\x00", 5); /* spec A.3.2 */
    sv_decomp lim = limit(n);
    sv_error err = {0};
    sv_error_clear(&err);
    size_t used = 0;
    assert_int_equal(sv__compress_lzma_raw_decompress(props, c.data, c.len, n, &lim, &d, &used, &err), SV_OK);
    assert_int_equal(d.len, n);
    assert_memory_equal(d.data, in, n);
    assert_int_equal(used, c.len); /* the end marker included */
    /* a smaller dictionary in the props (older files may differ): still read */
    d.len = 0;
    uint8_t small[5] = {0x5d, 0x00, 0x00, 0x01, 0x00};
    sv_buf c2;
    sv_buf_init(&c2, NULL);
    assert_true(sv__compress_lzma_raw_compress(in, n, 1u << 16, 3, 0, 2, 32, props, &c2));
    assert_memory_equal(props, small, 5);
    assert_int_equal(sv__compress_lzma_raw_decompress(props, c2.data, c2.len, n, &lim, &d, &used, &err),
                     SV_OK);
    assert_memory_equal(d.data, in, n);
    /* truncated data, bad props */
    d.len = 0;
    assert_int_equal(sv__compress_lzma_raw_decompress(props, c2.data, c2.len / 2, n, &lim, &d, &used, &err),
                     SV_ERR_TRUNCATED);
    d.len = 0;
    sv_error_clear(&err);
    uint8_t bad[5] = {225, 0, 0, 1, 0};
    assert_int_equal(sv__compress_lzma_raw_decompress(bad, c2.data, c2.len, n, &lim, &d, &used, &err),
                     SV_ERR_SYNTAX);
    sv_buf_free(&c);
    sv_buf_free(&c2);
    sv_buf_free(&d);
    free(in);
}

static void test_lz4(void **state)
{
    (void)state;
    size_t n = 100000;
    uint8_t *in = sample_bytes(n);
    uint8_t *dst = malloc(n);
    /* the HC state comes from the allocator given, and goes back to it */
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_lz4_hc *hc = sv__compress_lz4_hc_new(&t.alloc);
    assert_non_null(hc);
    assert_true(t.live_bytes >= 200000); /* LZ4_streamHC_t: 256 KiB in lz4 1.9 */
    size_t c = sv__compress_lz4_block_compress_hc(hc, in, n, dst, n - 1, 9);
    assert_true(c > 0 && c < n);
    sv_buf d;
    sv_buf_init(&d, NULL);
    sv_decomp lim = limit(n);
    sv_error err = {0};
    sv_error_clear(&err);
    assert_int_equal(sv__compress_lz4_block_decompress(dst, c, n, &lim, &d, &err), SV_OK);
    assert_memory_equal(d.data, in, n);
    /* the block must give exactly the size announced */
    d.len = 0;
    assert_int_equal(sv__compress_lz4_block_decompress(dst, c, n + 1, &lim, &d, &err), SV_ERR_SYNTAX);
    d.len = 0;
    sv_error_clear(&err);
    assert_int_equal(sv__compress_lz4_block_decompress(dst, c - 1, n, &lim, &d, &err), SV_ERR_SYNTAX);
    /* incompressible input does not fit in len - 1 */
    uint64_t x = 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        in[i] = (uint8_t)(x >> 32);
    }
    assert_int_equal(sv__compress_lz4_block_compress_hc(hc, in, n, dst, n - 1, 9), 0);
    assert_true(sv__compress_lz4_max_expansion(1) == 271);
    sv__compress_lz4_hc_free(hc);
    assert_int_equal(t.live_bytes, 0);
    test_alloc_init(&t, 1);
    assert_null(sv__compress_lz4_hc_new(&t.alloc));
    test_alloc_init(&t, 2);
    assert_null(sv__compress_lz4_hc_new(&t.alloc));
    assert_int_equal(t.live_bytes, 0);
    sv_buf_free(&d);
    free(dst);
    free(in);
}

/* The codecs' own memory (Brotli's and liblzma's states and windows) comes
 * from the allocator of the buffer they write to: with the output's room
 * reserved beforehand, the buffer needs no call, so every call counted is
 * the codec's; and all of it is given back. */
static void test_codec_memory_is_the_callers(void **state)
{
    (void)state;
    size_t n = 300000;
    uint8_t *in = sample_bytes(n);
    for (int codec = 0; codec < 2; codec++) {
        test_alloc t;
        test_alloc_init(&t, 0);
        sv_buf c, d;
        sv_buf_init(&c, &t.alloc);
        sv_buf_init(&d, &t.alloc);
        assert_true(sv_buf_ensure(&c, 2 * n) == SV_OK && sv_buf_ensure(&d, n) == SV_OK);
        long before = t.calls;
        uint8_t props[5];
        if (codec == 0)
            assert_true(sv__compress_brotli_compress(in, n, 9, 16, &c));
        else
            assert_true(sv__compress_lzma_raw_compress(in, n, 1u << 21, 3, 0, 2, 32, props, &c));
        long compress_calls = t.calls - before;
        /* Brotli q9: the state, hashers, histograms; LZMA: the match finder */
        assert_true(compress_calls >= 2);
        before = t.calls;
        sv_decomp lim = limit(n);
        sv_error err = {0};
        size_t used;
        if (codec == 0)
            assert_int_equal(sv__compress_brotli_decompress(c.data, c.len, &lim, &d, &err), SV_OK);
        else
            assert_int_equal(
                sv__compress_lzma_raw_decompress(props, c.data, c.len, n, &lim, &d, &used, &err), SV_OK);
        assert_true(t.calls - before >= 1); /* the decoder's state and window */
        assert_int_equal(d.len, n);
        assert_memory_equal(d.data, in, n);
        sv_buf_free(&c);
        sv_buf_free(&d);
        assert_int_equal(t.live_bytes, 0);
    }
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brotli),
        cmocka_unit_test(test_brotli_bomb),
        cmocka_unit_test(test_lzma),
        cmocka_unit_test(test_lz4),
        cmocka_unit_test(test_codec_memory_is_the_callers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
