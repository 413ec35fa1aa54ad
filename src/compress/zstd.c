/* The adapter over Debian's libzstd (block_codecs.h). */
#include <zstd.h>

#include "compress/block_codecs.h"

bool sv__compress_zstd_decompress_exact(const uint8_t *in, size_t len, uint8_t *dst, size_t size,
                                        const char **why)
{
    /* The output room is exactly size: a frame that says or makes more
     * stops with dstSize_tooSmall, so nothing beyond size is ever written. */
    size_t r = ZSTD_decompress(dst, size, in, len);
    if (ZSTD_isError(r)) {
        *why = ZSTD_getErrorName(r);
        return false;
    }
    if (r != size) {
        *why = "the frame gives fewer bytes than the block holds";
        return false;
    }
    return true;
}

bool sv__compress_zstd_compress(const uint8_t *in, size_t len, int level, sv_buf *out)
{
    size_t bound = ZSTD_compressBound(len);
    if (sv_buf_ensure(out, bound) != SV_OK) return false;
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (!cctx) return false;
    size_t r = ZSTD_compressCCtx(cctx, out->data + out->len, bound, in, len, level);
    ZSTD_freeCCtx(cctx);
    if (ZSTD_isError(r)) return false;
    out->len += r;
    return true;
}
