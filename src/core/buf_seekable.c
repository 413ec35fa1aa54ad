/* A sink that can rewrite what it took (buf_seekable.h): an ordinary sink
 * whose function is seekable_write, so that an encoder can tell it from
 * any other and reach its patch function. */
#include "serval/buf_seekable.h"

#include <string.h>

static sv_status seekable_write(void *ctx, const uint8_t *data, size_t len)
{
    const sv_buf_seekable *s = ctx;
    return s->write(s->ctx, data, len);
}

void sv_buf_set_seekable_sink(sv_buf *b, const sv_buf_seekable *s, size_t window)
{
    /* (the buffer's context pointer is not const: seekable_write only reads) */
    if (s)
        sv_buf_set_sink(b, seekable_write, (void *)(uintptr_t)s, window);
    else
        sv_buf_set_sink(b, NULL, NULL, 0);
}

const sv_buf_seekable *sv_buf_seekable_of(const sv_buf *b)
{
    return b->sink == seekable_write ? (const sv_buf_seekable *)b->sink_ctx : NULL;
}

sv_status sv_buf_patch(sv_buf *b, uint64_t at, const void *data, size_t len)
{
    if (b->failed) return sv_buf_status(b);
    if (at > sv_buf_pos(b) || len > sv_buf_pos(b) - at) return SV_ERR_RANGE;
    const uint8_t *p = data;
    if (at < b->flushed) { /* the part the sink took */
        const sv_buf_seekable *s = sv_buf_seekable_of(b);
        if (!s) return SV_ERR_UNSUPPORTED;
        size_t n = b->flushed - at < len ? (size_t)(b->flushed - at) : len;
        sv_status st = s->patch(s->ctx, at, p, n);
        if (st != SV_OK) {
            b->sink_error = st;
            b->failed = true;
            return st;
        }
        p += n, len -= n, at += n;
    }
    if (len) memcpy(b->data + (at - b->flushed), p, len);
    return SV_OK;
}
