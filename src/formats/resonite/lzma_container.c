/* The .7zbson payload (spec resonite A.3.2): the 7-Zip SDK's LzmaHelper
 * layout, which is neither .lzma-alone nor xz nor .7z:
 *
 *   5 bytes  LZMA properties ((pb * 5 + lp) * 9 + lc, uint32 LE dictionary)
 *   int64 LE uncompressed size (the BSON length)
 *   int64 LE compressed size (the LZMA bytes that follow)
 *   raw LZMA1 data (the SDK writes no end marker; liblzma always does,
 *   which the SDK's decoder ignores since it stops at the size)
 *
 * And the Brotli sniff, which lives here with the other "is this legacy
 * payload mine" checks. */
#include <string.h>

#include "core/byteio.h"
#include "formats/resonite/resonite_internal.h"

#define LZMA_HEADER 21

sv_status sv__resonite_rs_lzma_decode(const uint8_t *in, size_t len, const sv_decomp *d,
                                      sv_buf *out, sv_error *err)
{
    if (len < LZMA_HEADER)
        return sv_error_set(err, SV_ERR_TRUNCATED, d->format, d->base + len,
                            "the LZMA header needs 21 bytes, %zu there", len);
    int64_t usize = (int64_t)sv__core_load_u64le(in + 5);
    int64_t csize = (int64_t)sv__core_load_u64le(in + 13);
    if (usize < 0 || csize < 0)
        return sv_error_set(err, SV_ERR_SYNTAX, d->format, d->base + 5,
                            "negative LZMA sizes (%lld, %lld)", (long long)usize, (long long)csize);
    /* Both sizes are checked before anything is allocated: the compressed
     * one against the bytes there, the other against the limit. */
    if ((uint64_t)csize > len - LZMA_HEADER)
        return sv_error_set(err, SV_ERR_TRUNCATED, d->format, d->base + 13,
                            "the LZMA header says %lld compressed bytes, %zu follow",
                            (long long)csize, len - LZMA_HEADER);
    if ((uint64_t)csize < len - LZMA_HEADER)
        return sv_error_set(err, SV_ERR_TRAILING, d->format, d->base + LZMA_HEADER + csize,
                            "%zu bytes after the LZMA data", len - LZMA_HEADER - (size_t)csize);
    sv_status lst =
        sv__compress_decomp_declared(d, (uint64_t)usize, d->base + 5, "the LZMA header", err);
    if (lst != SV_OK) return lst;
    sv_decomp dd = *d;
    dd.base = d->base + LZMA_HEADER;
    size_t used;
    sv_status st = sv__compress_lzma_raw_decompress(in, in + LZMA_HEADER, (size_t)csize,
                                                    (uint64_t)usize, &dd, out, &used, err);
    if (st != SV_OK) return st;
    return SV_OK;
}

bool sv__resonite_rs_lzma_encode(const uint8_t *in, size_t len, sv_buf *out)
{
    size_t start = out->len;
    uint8_t props[5];
    /* room for the header, filled once the sizes are known */
    if (sv_buf_ensure(out, LZMA_HEADER) != SV_OK) return false;
    out->len += LZMA_HEADER;
    if (!sv__compress_lzma_raw_compress(in, len, LZMA_RESONITE_DICT, 3, 0, 2, 32, props, out))
        return false;
    memcpy(out->data + start, props, 5);
    sv__core_store_u64le(out->data + start + 5, (uint64_t)len);
    sv__core_store_u64le(out->data + start + 13, (uint64_t)(out->len - start - LZMA_HEADER));
    return true;
}

bool sv__resonite_rs_lzma_sniff(const uint8_t *in, size_t len, bool *cut)
{
    if (cut) *cut = false;
    if (len < LZMA_HEADER + 5 || in[0] > 224) return false;
    uint64_t usize = sv__core_load_u64le(in + 5), csize = sv__core_load_u64le(in + 13);
    if (usize < 5 || usize > INT32_MAX) return false;
    if (csize == len - LZMA_HEADER) return true;
    /* compressed bytes announced, fewer there: a weaker sign than sizes
     * that match, so only with the properties the 7-Zip SDK's defaults
     * give (lc 3, lp 0, pb 2: 0x5D), a dictionary of at least 4 KiB, and
     * no more compressed bytes than LZMA makes of the size announced */
    if (csize > len - LZMA_HEADER && csize <= usize + usize / 2 + 1024 && in[0] == 0x5D &&
        sv__core_load_u32le(in + 1) >= 4096) {
        if (cut) *cut = true;
        return true;
    }
    return false;
}

sv_status sv__resonite_rs_brotli_sniff(const uint8_t *in, size_t len, const sv_alloc *a)
{
    uint8_t first[SV_DECOMP_HEAD];
    sv_status st = sv__compress_brotli_head(in, len, first, sizeof first, a);
    if (st != SV_OK) return st;
    const char *why;
    return sv__resonite_rs_bson_head(first, &why) != 0 ? SV_OK : SV_ERR_SYNTAX;
}
