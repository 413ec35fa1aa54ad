/* LZ4 blocks through Debian's liblz4 (spec resonite A.3.3: .lz4bson chunks
 * are LZ4 *block* format; the lz4net chunk stream around them is parsed in
 * src/formats/resonite/). liblz4's LZ4_compress_HC takes its ~256 KiB state
 * from malloc; the state here comes from the caller's sv_alloc instead and
 * serves every block of a stream. */
#include <limits.h>
#include <lz4.h>
#include <lz4hc.h>

#include "compress/codec_alloc.h"
#include "compress/compress.h"

sv_status sv__compress_lz4_block_decompress(const uint8_t *in, size_t len, size_t orig_len,
                                            const sv_decomp *d, sv_buf *out, sv_error *err)
{
    if (len > INT_MAX || orig_len > INT_MAX)
        return sv_error_set(err, SV_ERR_LIMIT, d->format, d->base,
                            "an LZ4 block of %zu bytes is beyond liblz4's 2 GiB", orig_len);
    if (sv_buf_ensure(out, orig_len) != SV_OK)
        return sv_error_set(err, SV_ERR_NOMEM, d->format, d->base, "out of memory");
    int n = LZ4_decompress_safe((const char *)in, (char *)out->data + out->len, (int)len,
                                (int)orig_len);
    if (n < 0 || (size_t)n != orig_len)
        return sv_error_set(err, SV_ERR_SYNTAX, d->format, d->base,
                            "invalid LZ4 block (%zu bytes that should give %zu)", len, orig_len);
    out->len += orig_len;
    return SV_OK;
}

bool sv__compress_lz4_block_head(const uint8_t *in, size_t len, uint8_t *first, size_t n)
{
    /* the partial decoder may write up to its capacity: a fixed scratch,
     * zeroed, since on a malformed block it may count bytes it did not
     * write (the answer then changed with the stack's old contents: the
     * same input sniffed as LZ4 in one call and not in the next) */
    char tmp[64] = {0};
    if (n > sizeof tmp || len > INT_MAX) return false;
    int got = LZ4_decompress_safe_partial((const char *)in, tmp, (int)len, (int)n, (int)sizeof tmp);
    if (got < (int)n) return false;
    for (size_t i = 0; i < n; i++) first[i] = (uint8_t)tmp[i];
    return true;
}

struct sv_lz4_hc {
    const sv_alloc *alloc;
    void *state; /* LZ4_sizeofStateHC() bytes */
};

sv_lz4_hc *sv__compress_lz4_hc_new(const sv_alloc *a)
{
    a = sv__compress_codec_alloc_or_libc(a);
    sv_lz4_hc *hc = a->malloc(a->ctx, sizeof *hc);
    if (!hc) return NULL;
    hc->alloc = a;
    /* liblz4 wants the state aligned like a pointer; the allocator's blocks are */
    hc->state = a->malloc(a->ctx, (size_t)LZ4_sizeofStateHC());
    if (!hc->state) {
        a->free(a->ctx, hc, sizeof *hc);
        return NULL;
    }
    return hc;
}

void sv__compress_lz4_hc_free(sv_lz4_hc *hc)
{
    if (!hc) return;
    const sv_alloc *a = hc->alloc;
    a->free(a->ctx, hc->state, (size_t)LZ4_sizeofStateHC());
    a->free(a->ctx, hc, sizeof *hc);
}

size_t sv__compress_lz4_block_compress_hc(sv_lz4_hc *hc, const uint8_t *in, size_t len,
                                          uint8_t *dst, size_t cap, int level)
{
    if (len > INT_MAX || cap > INT_MAX) return 0;
    int n = LZ4_compress_HC_extStateHC(hc->state, (const char *)in, (char *)dst, (int)len, (int)cap,
                                       level);
    return n > 0 ? (size_t)n : 0;
}
