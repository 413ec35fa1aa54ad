/* The output side every decompressor shares (internal): room that grows with
 * what has been produced, never past the limit, plus the optional exact size
 * a payload's first bytes announce. See compress.h. */
#ifndef SV_COMPRESS_DECOMP_OUT_H
#define SV_COMPRESS_DECOMP_OUT_H

#include "compress/compress.h"

typedef struct sv_decomp_out {
    sv_buf *buf;
    size_t start; /* out->len when decompression began */
    uint64_t cap; /* the most bytes this call may append */
    bool exact;   /* cap came from the payload's prefix: must be reached */
    bool prefix_seen;
} sv_decomp_out;

void sv__compress_decomp_out_init(sv_decomp_out *o, sv_buf *buf, const sv_decomp *d);
/* Makes free room after buf->len for more output: up to the cap, growing
 * geometrically from 64 KiB. Returns the room (0 when the cap is reached),
 * or SIZE_MAX with *st set when memory ran out. */
size_t sv__compress_decomp_out_room(sv_decomp_out *o, const sv_decomp *d, sv_status *st);
/* Call after appending: applies size_from_head once SV_DECOMP_HEAD bytes are there.
 * Returns SV_OK or an error already recorded in err at offset at. */
sv_status sv__compress_decomp_out_check(sv_decomp_out *o, const sv_decomp *d, uint64_t at,
                                        sv_error *err);
static inline uint64_t sv__compress_decomp_out_len(const sv_decomp_out *o)
{
    return o->buf->len - o->start;
}
/* The error for "the decoder wants to write past the cap". */
sv_status sv__compress_decomp_out_over(const sv_decomp_out *o, const sv_decomp *d, uint64_t at,
                                       sv_error *err);

#endif
