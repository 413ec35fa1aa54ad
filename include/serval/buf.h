/* serval: a growable output buffer, optionally in front of a sink.
 *
 * Encoders write into one sv_buf; it grows geometrically through the
 * allocator. A failed growth is sticky: later appends do nothing and
 * sv_buf_ok() turns false, so an encoder checks once at the end.
 *
 * A buffer given a sink (sv_buf_set_sink: a function that takes the bytes,
 * writing them to a file, a socket, a hash) need not hold the whole output.
 * An encoder that streams calls sv_buf_release at points where every byte
 * written so far is final (it will not patch or reread them) and it keeps
 * no pointer or offset into data: once the buffer holds a window of bytes
 * (about 1 MiB), release hands them to the sink and the buffer starts empty
 * again, so the output is written in window-sized pieces. An encoder that
 * patches earlier bytes (length prefixes written after the content) never
 * calls release while it may still patch them: its output stays whole in
 * the buffer. The caller ends with sv_buf_flush, which hands over what is
 * left. Without a sink (sv_buf_init's default, and a buffer whose new
 * fields are zero) release does nothing and the buffer holds everything,
 * as before.
 *
 * Streaming now: typed JSON (at the start of each container, and before
 * each item of an outermost array sv_json_transcode writes), a raw Godot
 * Variant (at each value and through packed arrays), BSON (after each
 * element: its lengths come from a sizing pass over the tree first), a
 * Resonite data tree with Brotli (each window of its BSON compressed as it
 * comes), a Godot binary resource, RSRC (after each resource and through
 * packed arrays; its bodies are measured first), NoesisGUI (after each
 * block, instance and window of the command stream; the data section is
 * measured first), a KingsIsle stream without zlib (after each property;
 * in deep mode its sizes are found by a first pass that writes nothing,
 * or patched in one pass through a sink that can rewrite: serval/buf_seekable.h);
 * every other encoder holds its output whole. A sink's
 * error ends the encode with that error (sv_buf_status), and the bytes
 * handed over so far are the caller's to discard.
 *
 * ABI: the sink's fields were added after failed (pre-1.0); code that
 * mirrors this struct's layout (a binding) must have them too. */
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

/* Takes len bytes of output (in order; len > 0). SV_OK, or an error that
 * stops the output: the buffer then fails (sticky), and sv_buf_status
 * returns that error. */
typedef sv_status (*sv_buf_sink_fn)(void *ctx, const uint8_t *data, size_t len);

/* What a sink is handed at a time when sv_buf_set_sink is given 0. */
#define SV_BUF_WINDOW ((size_t)1 << 20)

typedef struct sv_buf {
    uint8_t *data; /* the bytes not yet handed to the sink (all of them without one) */
    size_t len;
    size_t cap;
    const sv_alloc *alloc;
    bool failed;
    /* The sink, all zero for none (the fields after failed: a buffer
     * initialised field by field up to failed has no sink). */
    sv_buf_sink_fn sink;
    void *sink_ctx;
    size_t window;        /* release flushes once len reaches this */
    uint64_t flushed;     /* bytes handed to the sink: data[0] is output byte `flushed` */
    sv_status sink_error; /* the sink's error once it failed, else SV_OK */
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
/* Gives b a sink (fn NULL: none). window: the bytes held before release
 * hands them over; 0 means SV_BUF_WINDOW (a small window is for tests, to
 * make every release flush). Set it before the first byte is written. */
SV_API void sv_buf_set_sink(sv_buf *b, sv_buf_sink_fn fn, void *ctx, size_t window);
/* Hands every byte held to the sink, leaving the buffer empty (its room
 * kept). Nothing to do without a sink. SV_OK, or the status sv_buf_status
 * gives once the buffer failed. */
SV_API sv_status sv_buf_flush(sv_buf *b);
/* SV_OK; SV_ERR_NOMEM after a failed growth; the sink's error after it
 * failed. */
SV_API sv_status sv_buf_status(const sv_buf *b);

/* The encoder's promise that every byte written so far is final and that it
 * keeps no pointer or offset into data: with a sink, once window bytes are
 * held they are flushed (see above). Cheap enough to call per value. */
static inline void sv_buf_release(sv_buf *b)
{
    if (b->sink && b->len >= b->window) (void)sv_buf_flush(b);
}
/* The output position: bytes written so far, flushed or not. */
static inline uint64_t sv_buf_pos(const sv_buf *b)
{
    return b->flushed + b->len;
}

/* Hands the bytes to the caller (who frees them with the buffer's allocator,
 * size cap) and leaves the buffer empty. With a sink: the bytes not yet
 * flushed only. */
SV_API uint8_t *sv_buf_take(sv_buf *b, size_t *len, size_t *cap);

#ifdef __cplusplus
}
#endif
#endif
