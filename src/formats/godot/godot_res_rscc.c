/* godot-res: the RSCC container (FileAccessCompressed, spec §6).
 *
 * Reading checks every size before it allocates: the uncompressed total
 * against max_decompressed (and the document's allocation limit), the block
 * count against the bytes there are, the block sizes against the rest of
 * the input, and each block must decompress to exactly its share of the
 * total. The compressed blocks are kept in the meta, because compressors
 * differ between versions (Godot 3.2.3's zstd 1.4.4 is not Debian's): the
 * writer copies every block whose plaintext has not changed and compresses
 * only the others, with the engine's parameters (§6.2; Brotli, which Godot
 * only reads, at libbrotli's defaults). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_res_internal.h"
#include "serval/config.h"
#if SERVAL_WITH_GODOT_RSCC
#include "compress/block_codecs.h"
#include "compress/zlib_adapter.h"
#endif
#if SERVAL_WITH_GODOT_RSCC && SERVAL_HAVE_BROTLI
#include "compress/compress.h"
#endif

enum { MODE_FASTLZ, MODE_DEFLATE, MODE_ZSTD, MODE_GZIP, MODE_BROTLI, MODE_COUNT };

#if SERVAL_WITH_GODOT_RSCC
static const char *const mode_names[MODE_COUNT] = {"fastlz", "deflate", "zstd", "gzip", "brotli"};
#endif

/* Brotli (mode 4): Godot 4 only decompresses it and has no compressor to
 * match, so an edited block is compressed at libbrotli's defaults (quality
 * 11, window 22: what the brotli tool and Python's brotli.compress write).
 * Builds without libbrotli refuse the mode. */
#define BROTLI_QUALITY 11
#define BROTLI_LGWIN 22
#if SERVAL_WITH_GODOT_RSCC && SERVAL_HAVE_BROTLI
#define MODE_LAST MODE_BROTLI
#else
#define MODE_LAST MODE_GZIP
#endif

#if SERVAL_WITH_GODOT_RSCC
/* Decompresses one block of mode into dst (exactly size bytes). */
static bool block_decompress(unsigned mode, const uint8_t *in, size_t len, uint8_t *dst,
                             size_t size, const char **why)
{
    switch (mode) {
    case MODE_FASTLZ: {
        /* blocks under 16 bytes were padded to 16 before compressing */
        uint8_t small[16];
        uint8_t *to = size < 16 ? small : dst;
        size_t want = size < 16 ? 16 : size, got = 0;
        if (!sv__compress_fastlz_decompress(in, len, to, want, &got) || got != want) {
            *why = "invalid FastLZ block, or not of the block's size";
            return false;
        }
        if (size < 16) memcpy(dst, small, size);
        return true;
    }
    case MODE_DEFLATE:
    case MODE_GZIP: {
        size_t produced = 0;
        uint8_t probe;
        /* one byte more room than the block holds tells a longer stream */
        sv_status st = sv__compress_zlib_inflate_into(
            in, len, mode == MODE_GZIP ? SV_ZLIB_GZIP : SV_ZLIB_WRAPPED, size ? dst : &probe,
            size ? size : 0, NULL, &produced, why);
        if (st != SV_OK) return false;
        if (produced != size) {
            *why = "the stream gives another size than the block holds";
            return false;
        }
        return true;
    }
    case MODE_ZSTD: return sv__compress_zstd_decompress_exact(in, len, dst, size, why);
#if SERVAL_HAVE_BROTLI
    case MODE_BROTLI: return sv__compress_brotli_decompress_exact(in, len, dst, size, why);
#endif
    default: *why = "a mode this build does not read"; return false;
    }
}

static bool block_compress(unsigned mode, const uint8_t *in, size_t len, sv_buf *out)
{
    switch (mode) {
    case MODE_FASTLZ: {
        uint8_t pad[16] = {0};
        if (len < 16) {
            memcpy(pad, in, len);
            return sv__compress_fastlz1_compress(pad, 16, out);
        }
        return sv__compress_fastlz1_compress(in, len, out);
    }
    case MODE_DEFLATE: return sv__compress_zlib_deflate(in, len, -1, SV_ZLIB_WRAPPED, out);
    case MODE_GZIP: return sv__compress_zlib_deflate(in, len, -1, SV_ZLIB_GZIP, out);
    case MODE_ZSTD: return sv__compress_zstd_compress(in, len, 3, out);
#if SERVAL_HAVE_BROTLI
    case MODE_BROTLI:
        return sv__compress_brotli_compress(in, len, BROTLI_QUALITY, BROTLI_LGWIN, out);
#endif
    default: return false;
    }
}

#else
/* Built without zlib and zstd (SERVAL_WITH_GODOT_RSCC=OFF, for projects that
 * want Godot without a compression library): RSCC is refused up front. */
#define RSCC_OFF_MESSAGE                                                                           \
    "compressed resources (RSCC) are not in this build of serval (it was configured with "         \
    "SERVAL_WITH_GODOT_RSCC=OFF)"
#endif

sv_status gr_rscc_open(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                       const uint8_t **plain, size_t *plain_len, sv_value *meta, sv_error *err)
{
#if !SERVAL_WITH_GODOT_RSCC
    (void)doc, (void)data, (void)len, (void)opts, (void)plain, (void)plain_len, (void)meta;
    return sv_error_set(err, SV_ERR_UNSUPPORTED, GR_FORMAT, 0, RSCC_OFF_MESSAGE);
#else
    sv_limits lim = sv_limits_resolve(opts ? &opts->limits : NULL);
    if (len < 16)
        return sv_error_set(err, SV_ERR_TRUNCATED, GR_FORMAT, 0,
                            "RSCC header needs 16 bytes, %zu there", len);
    uint32_t mode = sv__core_load_u32le(data + 4), bs = sv__core_load_u32le(data + 8),
             total = sv__core_load_u32le(data + 12);
    if (mode >= MODE_COUNT)
        return sv_error_set(err, SV_ERR_SYNTAX, GR_FORMAT, 4,
                            "RSCC compression mode %u (0 to 4 exist)", mode);
    if (mode > MODE_LAST)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, GR_FORMAT, 4,
                            "RSCC with Brotli blocks (mode 4): this build of serval has no "
                            "libbrotli (configure finds it through pkg-config: libbrotli-dev)");
    if (bs == 0) return sv_error_set(err, SV_ERR_SYNTAX, GR_FORMAT, 8, "RSCC block size 0");
    if (total > lim.max_decompressed)
        return sv_error_set(err, SV_ERR_LIMIT, GR_FORMAT, 12,
                            "RSCC says it holds %u bytes, over the decompressed-size limit of %llu",
                            total, (unsigned long long)lim.max_decompressed);
    uint64_t bc = (uint64_t)total / bs + 1;
    if (bc > (len - 16) / 4)
        return sv_error_set(err, SV_ERR_TRUNCATED, GR_FORMAT, 16,
                            "RSCC block table of %llu blocks runs past the end of %zu bytes",
                            (unsigned long long)bc, len);
    uint64_t at = 16 + bc * 4, sum = 0;
    for (uint64_t i = 0; i < bc; i++) sum += sv__core_load_u32le(data + 16 + i * 4);
    if (sum > len - at || len - at - sum < 4)
        return sv_error_set(err, SV_ERR_TRUNCATED, GR_FORMAT, 16,
                            "RSCC blocks of %llu bytes in all run past the end of %zu bytes",
                            (unsigned long long)sum, len);
    if (len - at - sum > 4)
        return sv_error_set(err, SV_ERR_TRAILING, GR_FORMAT, at + sum + 4,
                            "%llu bytes after the RSCC container",
                            (unsigned long long)(len - at - sum - 4));
    if (memcmp(data + at + sum, data, 4))
        return sv_error_set(err, SV_ERR_SYNTAX, GR_FORMAT, at + sum,
                            "the RSCC container does not end with its magic");
    uint8_t *out = sv_doc_alloc(doc, total ? total : 1);
    sv_value blocks = sv_array(doc, (size_t)bc);
    if (!out || blocks.kind != SV_ARRAY)
        return sv_error_set(err, sv_doc_status(doc) != SV_OK ? sv_doc_status(doc) : SV_ERR_NOMEM,
                            GR_FORMAT, 12, "no memory for %u decompressed bytes", total);
    for (uint64_t i = 0; i < bc; i++) {
        uint32_t cs = sv__core_load_u32le(data + 16 + i * 4);
        size_t size = i + 1 < bc ? bs : total % bs;
        const char *why = "invalid block";
        if (!block_decompress(mode, data + at, cs, out + i * bs, size, &why))
            return sv_error_set(err, SV_ERR_SYNTAX, GR_FORMAT, at, "RSCC %s block %llu: %s",
                                mode_names[mode], (unsigned long long)i, why);
        sv_array_items(&blocks)[i] = sv_bytes(doc, data + at, cs);
        at += cs;
    }
    sv_value c = sv_map(doc, 0);
    sv_map_append_str(doc, &c, "mode", sv_strz(doc, mode_names[mode]));
    sv_map_append_str(doc, &c, "block_size", sv_int(bs));
    sv_map_append_str(doc, &c, "blocks", blocks);
    if (sv_doc_status(doc) != SV_OK)
        return sv_error_set(err, sv_doc_status(doc), GR_FORMAT, 0, "no memory for the tree");
    *meta = c;
    *plain = out;
    *plain_len = total;
    return SV_OK;
#endif
}

sv_status gr_rscc_write(const uint8_t *plain, size_t plain_len, const sv_value *meta, sv_buf *out,
                        sv_error *err)
{
#if !SERVAL_WITH_GODOT_RSCC
    (void)plain, (void)plain_len, (void)meta, (void)out;
    return sv_error_set(err, SV_ERR_UNSUPPORTED, GR_FORMAT, 0, RSCC_OFF_MESSAGE);
#else
    const sv_value *m = sv_map_getz(meta, "mode"), *b = sv_map_getz(meta, "block_size"),
                   *blocks = sv_map_getz(meta, "blocks");
    size_t n;
    const char *name = sv_get_str(m, &n);
    unsigned mode = MODE_COUNT;
    for (unsigned i = 0; i <= MODE_LAST && sv_kind_of(m) == SV_STRING; i++)
        if (strlen(mode_names[i]) == n && !memcmp(mode_names[i], name, n)) mode = i;
    int64_t bs = b ? sv_get_int(b) : 4096;
    if (mode == MODE_COUNT || bs <= 0 || bs > UINT32_MAX || (blocks && blocks->kind != SV_ARRAY))
        return sv_error_set(err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET,
                            "$meta.compression is {\"mode\": fastlz, deflate, zstd, gzip%s, "
                            "\"block_size\": 1 to 4294967295, \"blocks\": [bytes...]}",
                            MODE_LAST == MODE_BROTLI ? " or brotli"
                                                     : " (brotli needs a build with libbrotli)");
    if (plain_len > UINT32_MAX)
        return sv_error_set(err, SV_ERR_LIMIT, GR_FORMAT, SV_ERROR_NO_OFFSET,
                            "RSCC holds at most 4 GiB");
    size_t bc = plain_len / (size_t)bs + 1;
    uint8_t hdr[16];
    memcpy(hdr, "RSCC", 4);
    sv__core_store_u32le(hdr + 4, mode);
    sv__core_store_u32le(hdr + 8, (uint32_t)bs);
    sv__core_store_u32le(hdr + 12, (uint32_t)plain_len);
    sv_buf_append(out, hdr, 16);
    size_t table = out->len;
    for (size_t i = 0; i < bc; i++) sv_buf_append(out, "\0\0\0\0", 4);
    uint8_t *scratch = NULL;
    sv_status st = SV_OK;
    for (size_t i = 0; i < bc && st == SV_OK; i++) {
        size_t size = i + 1 < bc ? (size_t)bs : plain_len % (size_t)bs;
        const uint8_t *src = plain + i * (size_t)bs;
        size_t before = out->len;
        const sv_value *old = i < sv_len(blocks) ? sv_array_at(blocks, i) : NULL;
        bool copied = false;
        if (old && old->kind == SV_BYTES) {
            if (!scratch) scratch = malloc(((size_t)bs < plain_len ? (size_t)bs : plain_len) + 1);
            const char *why;
            if (scratch && block_decompress(mode, old->as.bytes, old->len, scratch, size, &why) &&
                !memcmp(scratch, src, size)) {
                sv_buf_append(out, old->as.bytes, old->len);
                copied = true;
            }
        }
        if (!copied && !block_compress(mode, src, size, out))
            st = sv_error_set(err, SV_ERR_NOMEM, GR_FORMAT, SV_ERROR_NO_OFFSET,
                              "RSCC: could not compress block %zu", i);
        if (sv_buf_ok(out))
            sv__core_store_u32le(out->data + table + i * 4, (uint32_t)(out->len - before));
    }
    free(scratch);
    sv_buf_append(out, "RSCC", 4);
    if (st == SV_OK && !sv_buf_ok(out))
        st = sv_error_set(err, SV_ERR_NOMEM, GR_FORMAT, SV_ERROR_NO_OFFSET,
                          "no memory for the output");
    return st;
#endif
}
