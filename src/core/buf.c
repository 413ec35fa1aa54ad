/* sv_buf: a growable byte buffer with a sticky failure flag, optionally in
 * front of a sink (buf.h). */
#include "serval/buf.h"

#include <stdint.h>

#include "core/mem.h"

void sv_buf_init(sv_buf *b, const sv_alloc *alloc)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->alloc = alloc ? alloc : sv_alloc_libc();
    b->failed = false;
    b->sink = NULL;
    b->sink_ctx = NULL;
    b->window = 0;
    b->flushed = 0;
    b->sink_error = SV_OK;
}

void sv_buf_set_sink(sv_buf *b, sv_buf_sink_fn fn, void *ctx, size_t window)
{
    b->sink = fn;
    b->sink_ctx = fn ? ctx : NULL;
    b->window = !fn ? 0 : window ? window : SV_BUF_WINDOW;
}

sv_status sv_buf_flush(sv_buf *b)
{
    if (b->failed) return sv_buf_status(b);
    if (!b->sink || !b->len) return SV_OK;
    sv_status st = b->sink(b->sink_ctx, b->data, b->len);
    if (st != SV_OK) {
        /* the output is cut short: nothing more may reach the sink, and the
         * encoder stops at its next check of sv_buf_ok */
        b->sink_error = st;
        b->failed = true;
        return st;
    }
    b->flushed += b->len;
    b->len = 0;
    return SV_OK;
}

sv_status sv_buf_status(const sv_buf *b)
{
    if (!b->failed) return SV_OK;
    return b->sink_error != SV_OK ? b->sink_error : SV_ERR_NOMEM;
}

void sv_buf_free(sv_buf *b)
{
    if (b->data) b->alloc->free(b->alloc->ctx, b->data, b->cap);
    b->data = NULL;
    b->len = b->cap = 0;
}

sv_status sv_buf_expand(sv_buf *b, size_t extra)
{
    if (b->failed) return SV_ERR_NOMEM;
    if (extra > SIZE_MAX - b->len) {
        b->failed = true;
        return SV_ERR_NOMEM;
    }
    size_t need = b->len + extra;
    if (need <= b->cap) return SV_OK;
    /* Grow by 1.5x at least, starting at 4 KiB, so appends are amortised O(1)
     * and a large output does not waste a whole doubling. */
    size_t cap = b->cap < 4096 ? 4096 : b->cap + b->cap / 2;
    if (cap < need) cap = need;
    uint8_t *p = b->data ? b->alloc->realloc(b->alloc->ctx, b->data, b->cap, cap)
                         : b->alloc->malloc(b->alloc->ctx, cap);
    if (!p) {
        b->failed = true;
        return SV_ERR_NOMEM;
    }
    b->data = p;
    b->cap = cap;
    return SV_OK;
}

/* Deprecated name of sv_buf_expand, kept for one release (buf.h). */
bool sv_buf_grow(sv_buf *b, size_t extra)
{
    return sv_buf_expand(b, extra) == SV_OK;
}

bool sv__core_buf_reserve_large(sv_buf *b, size_t n)
{
    size_t had = b->cap;
    if (sv_buf_ensure(b, n) != SV_OK) return false;
    /* Only room the buffer has just allocated, which the kernel has not
     * handed out yet: huge pages there save most page faults of the copy
     * to come. */
    if (b->cap != had) sv__core_mem_hint_huge_pages(b->data + b->len, n, (size_t)8 << 20);
    return true;
}

uint8_t *sv_buf_take(sv_buf *b, size_t *len, size_t *cap)
{
    uint8_t *p = b->data;
    if (len) *len = b->len;
    if (cap) *cap = b->cap;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}
