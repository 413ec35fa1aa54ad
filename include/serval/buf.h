/* serval: a growable output buffer.
 *
 * Encoders write into one sv_buf; it grows geometrically through the
 * allocator. A failed growth is sticky: later appends do nothing and
 * sv_buf_ok() turns false, so an encoder checks once at the end. */
#ifndef SERVAL_BUF_H
#define SERVAL_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "alloc.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    const sv_alloc *alloc;
    bool failed;
} sv_buf;

SV_API void sv_buf_init(sv_buf *b, const sv_alloc *alloc); /* alloc NULL = libc */
SV_API void sv_buf_free(sv_buf *b);
/* Makes room for at least extra more bytes. SV_ERR_NOMEM (and sticky) on
 * failure, or when the buffer failed before. */
SV_API sv_status sv_buf_expand(sv_buf *b, size_t extra);
static inline bool sv_buf_ok(const sv_buf *b)
{
    return !b->failed;
}

/* sv_buf_expand with the fast path inline: nothing to do when the room is
 * there. */
static inline sv_status sv_buf_ensure(sv_buf *b, size_t extra)
{
    if (b->cap - b->len >= extra) return b->failed ? SV_ERR_NOMEM : SV_OK;
    return sv_buf_expand(b, extra);
}
/* Append n bytes / one byte. On failure nothing is written, the buffer
 * stays failed (sticky) and SV_ERR_NOMEM is returned: an encoder may append
 * without looking and check sv_buf_ok once at the end. */
static inline sv_status sv_buf_append(sv_buf *b, const void *p, size_t n)
{
    sv_status st = sv_buf_ensure(b, n);
    if (st != SV_OK) return st;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return SV_OK;
}
static inline sv_status sv_buf_putc(sv_buf *b, uint8_t c)
{
    sv_status st = sv_buf_ensure(b, 1);
    if (st != SV_OK) return st;
    b->data[b->len++] = c;
    return SV_OK;
}

/* Deprecated names, kept for one release: true when the room is there. */
SV_API bool sv_buf_grow(sv_buf *b, size_t extra)
    SV_DEPRECATED("use sv_buf_expand, which returns sv_status");
SV_DEPRECATED("use sv_buf_ensure, which returns sv_status")
static inline bool sv_buf_reserve(sv_buf *b, size_t extra)
{
    return sv_buf_ensure(b, extra) == SV_OK;
}
/* Hands the bytes to the caller (who frees them with the buffer's allocator,
 * size cap) and leaves the buffer empty. */
SV_API uint8_t *sv_buf_take(sv_buf *b, size_t *len, size_t *cap);

#ifdef __cplusplus
}
#endif
#endif
