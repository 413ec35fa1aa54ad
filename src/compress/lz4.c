/* LZ4 blocks through Debian's liblz4 (spec resonite A.3.3: .lz4bson chunks
 * are LZ4 *block* format; the lz4net chunk stream around them is parsed in
 * src/formats/resonite/). */
#include <limits.h>
#include <lz4.h>
#include <lz4hc.h>

#include "compress/compress.h"

sv_status sv_lz4_block_decompress(const uint8_t *in, size_t len, size_t orig_len,
                                  const sv_decomp *d, sv_buf *out, sv_error *err)
{
    if (len > INT_MAX || orig_len > INT_MAX)
        return sv_error_set(err, SV_ERR_LIMIT, d->format, d->base,
                            "an LZ4 block of %zu bytes is beyond liblz4's 2 GiB", orig_len);
    if (!sv_buf_reserve(out, orig_len))
        return sv_error_set(err, SV_ERR_NOMEM, d->format, d->base, "out of memory");
    int n = LZ4_decompress_safe((const char *)in, (char *)out->data + out->len, (int)len,
                                (int)orig_len);
    if (n < 0 || (size_t)n != orig_len)
        return sv_error_set(err, SV_ERR_SYNTAX, d->format, d->base,
                            "invalid LZ4 block (%zu bytes that should give %zu)", len, orig_len);
    out->len += orig_len;
    return SV_OK;
}

size_t sv_lz4_block_compress_hc(const uint8_t *in, size_t len, uint8_t *dst, size_t cap, int level)
{
    if (len > INT_MAX || cap > INT_MAX) return 0;
    int n = LZ4_compress_HC((const char *)in, (char *)dst, (int)len, (int)cap, level);
    return n > 0 ? (size_t)n : 0;
}
