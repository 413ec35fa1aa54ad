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
/* Makes room for at least extra more bytes. false (and sticky) on failure. */
SV_API bool sv_buf_grow(sv_buf *b, size_t extra);
static inline bool sv_buf_ok(const sv_buf *b) { return !b->failed; }

static inline bool sv_buf_reserve(sv_buf *b, size_t extra)
{
    if (b->cap - b->len >= extra) return !b->failed;
    return sv_buf_grow(b, extra);
}
static inline void sv_buf_append(sv_buf *b, const void *p, size_t n)
{
    if (!sv_buf_reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
}
static inline void sv_buf_putc(sv_buf *b, uint8_t c)
{
    if (!sv_buf_reserve(b, 1)) return;
    b->data[b->len++] = c;
}
/* Hands the bytes to the caller (who frees them with the buffer's allocator,
 * size cap) and leaves the buffer empty. */
SV_API uint8_t *sv_buf_take(sv_buf *b, size_t *len, size_t *cap);

#ifdef __cplusplus
}
#endif
#endif
