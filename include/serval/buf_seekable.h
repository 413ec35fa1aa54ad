/* serval: a sink that can also rewrite bytes it took earlier.
 *
 * An encoder whose format puts a length before the content it measures (a
 * KingsIsle deep-mode size) can only stream through a plain sink
 * (sv_buf_set_sink) by measuring everything first, a second walk over the
 * tree. When the output is a file, the bytes already handed over can be
 * rewritten instead: the encoder writes a placeholder, streams on, and
 * patches the placeholder once the content is written, in the buffer when
 * the bytes are still held, else through the sink's patch function (a
 * pwrite). One walk, and still only a window of output in memory.
 *
 * sv_buf_set_seekable_sink gives a buffer such a sink: an ordinary sink to
 * every encoder (sv_buf_release, sv_buf_flush work as before), which the
 * encoders that patch recognise by sv_buf_seekable_of. Patching now: a
 * KingsIsle stream without zlib, deep mode; every other encoder treats it
 * as a plain sink. */
#ifndef SERVAL_BUF_SEEKABLE_H
#define SERVAL_BUF_SEEKABLE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites len bytes at output offset at (bytes the sink took before, at +
 * len never past them). SV_OK, or an error that stops the output as a
 * failed write does. */
typedef sv_status (*sv_buf_patch_fn)(void *ctx, uint64_t at, const uint8_t *data, size_t len);

typedef struct sv_buf_seekable {
    sv_buf_sink_fn write; /* takes the bytes in order, as sv_buf_set_sink's fn */
    sv_buf_patch_fn patch;
    void *ctx; /* given to both */
} sv_buf_seekable;

/* Gives b the sink s (which must outlive its use by b; NULL: none). window
 * as sv_buf_set_sink's. */
SV_API void sv_buf_set_seekable_sink(sv_buf *b, const sv_buf_seekable *s, size_t window);
/* b's sink when it is one that can patch, else NULL. */
SV_API const sv_buf_seekable *sv_buf_seekable_of(const sv_buf *b);
/* Rewrites len bytes at output offset at (at + len <= sv_buf_pos(b)): in
 * the buffer where it still holds them, the rest through the sink's patch.
 * SV_OK; the buffer's status once it failed; SV_ERR_UNSUPPORTED (the buffer
 * untouched) when bytes to rewrite were handed to a sink that cannot patch,
 * SV_ERR_RANGE when they are not written yet; a patch's error fails the
 * buffer as a sink's error does. */
SV_API sv_status sv_buf_patch(sv_buf *b, uint64_t at, const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
