/* Bounds-checked little- and big-endian byte reading over memory (internal).
 *
 * The reader has a sticky error, as MPack's does: the first failure records
 * an sv_error (format, byte offset, message) and every later read returns 0
 * without touching memory, so a decoder can read a whole record and check
 * sv__core_rd_ok() once. */
#ifndef SV_CORE_BYTEIO_H
#define SV_CORE_BYTEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"
#include "serval/buf.h"
#include "serval/error.h"

typedef struct sv_reader {
    const uint8_t *base; /* start of the input (offsets are from here) */
    const uint8_t *p;    /* next byte */
    const uint8_t *end;
    const char *format; /* for error messages */
    sv_error *err;      /* may be NULL */
    sv_status status;
} sv_reader;

static inline void sv__core_rd_init(sv_reader *r, const void *data, size_t len, const char *format,
                                    sv_error *err)
{
    r->base = r->p = (const uint8_t *)data;
    r->end = r->base + len;
    r->format = format;
    r->err = err;
    r->status = SV_OK;
}

static inline bool sv__core_rd_ok(const sv_reader *r)
{
    return r->status == SV_OK;
}
static inline size_t sv__core_rd_offset(const sv_reader *r)
{
    return (size_t)(r->p - r->base);
}
static inline size_t sv__core_rd_remaining(const sv_reader *r)
{
    return r->status == SV_OK ? (size_t)(r->end - r->p) : 0;
}

/* Records a failure at the current offset (first one wins) and makes the
 * reader return zeros from now on. Returns the status. */
sv_status sv__core_rd_fail(sv_reader *r, sv_status status, const char *fmt, ...) SV_PRINTF(3, 4);

/* True if n more bytes are there; else records SV_ERR_TRUNCATED naming what. */
static inline bool sv__core_rd_need(sv_reader *r, size_t n, const char *what)
{
    if (r->status != SV_OK) return false;
    if ((size_t)(r->end - r->p) >= n) return true;
    sv__core_rd_fail(r, SV_ERR_TRUNCATED, "%s needs %zu bytes, %zu left", what, n,
                     (size_t)(r->end - r->p));
    return false;
}

/* Returns a pointer to the next n bytes and skips them (NULL on failure). */
static inline const uint8_t *sv__core_rd_bytes(sv_reader *r, size_t n, const char *what)
{
    if (!sv__core_rd_need(r, n, what)) return NULL;
    const uint8_t *p = r->p;
    r->p += n;
    return p;
}

static inline void sv__core_rd_skip(sv_reader *r, size_t n, const char *what)
{
    (void)sv__core_rd_bytes(r, n, what);
}

/* Loads: plain memcpy + shifts, which compilers turn into single moves. */
static inline uint16_t sv__core_load_u16le(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint16_t sv__core_load_u16be(const uint8_t *p)
{
    return (uint16_t)(p[1] | p[0] << 8);
}
static inline uint32_t sv__core_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint32_t sv__core_load_u32be(const uint8_t *p)
{
    return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}
static inline uint64_t sv__core_load_u64le(const uint8_t *p)
{
    return (uint64_t)sv__core_load_u32le(p) | (uint64_t)sv__core_load_u32le(p + 4) << 32;
}
static inline uint64_t sv__core_load_u64be(const uint8_t *p)
{
    return (uint64_t)sv__core_load_u32be(p) << 32 | (uint64_t)sv__core_load_u32be(p + 4);
}

#define SV_RD_DEFINE(name, type, n, load)                                                          \
    static inline type sv_rd_##name(sv_reader *r)                                                  \
    {                                                                                              \
        const uint8_t *p = sv__core_rd_bytes(r, n, #name);                                         \
        return p ? (type)load(p) : (type)0;                                                        \
    }

static inline uint8_t sv__core_load_u8(const uint8_t *p)
{
    return p[0];
}
SV_RD_DEFINE(u8, uint8_t, 1, sv__core_load_u8)
SV_RD_DEFINE(u16le, uint16_t, 2, sv__core_load_u16le)
SV_RD_DEFINE(u16be, uint16_t, 2, sv__core_load_u16be)
SV_RD_DEFINE(u32le, uint32_t, 4, sv__core_load_u32le)
SV_RD_DEFINE(u32be, uint32_t, 4, sv__core_load_u32be)
SV_RD_DEFINE(u64le, uint64_t, 8, sv__core_load_u64le)
SV_RD_DEFINE(u64be, uint64_t, 8, sv__core_load_u64be)
#undef SV_RD_DEFINE

static inline int8_t sv__core_rd_i8(sv_reader *r)
{
    return (int8_t)sv_rd_u8(r);
}
static inline int16_t sv__core_rd_i16le(sv_reader *r)
{
    return (int16_t)sv_rd_u16le(r);
}
static inline int32_t sv__core_rd_i32le(sv_reader *r)
{
    return (int32_t)sv_rd_u32le(r);
}
static inline int64_t sv__core_rd_i64le(sv_reader *r)
{
    return (int64_t)sv_rd_u64le(r);
}
static inline int16_t sv__core_rd_i16be(sv_reader *r)
{
    return (int16_t)sv_rd_u16be(r);
}
static inline int32_t sv__core_rd_i32be(sv_reader *r)
{
    return (int32_t)sv_rd_u32be(r);
}
static inline int64_t sv__core_rd_i64be(sv_reader *r)
{
    return (int64_t)sv_rd_u64be(r);
}

static inline float sv__core_rd_f32le(sv_reader *r)
{
    uint32_t u = sv_rd_u32le(r);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline double sv__core_rd_f64le(sv_reader *r)
{
    uint64_t u = sv_rd_u64le(r);
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static inline float sv__core_rd_f32be(sv_reader *r)
{
    uint32_t u = sv_rd_u32be(r);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline double sv__core_rd_f64be(sv_reader *r)
{
    uint64_t u = sv_rd_u64be(r);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Skips to the next multiple of align (a power of two) from the start;
 * the skipped bytes must be present. */
static inline void sv__core_rd_align(sv_reader *r, size_t align, const char *what)
{
    size_t off = sv__core_rd_offset(r);
    size_t pad = (align - (off & (align - 1))) & (align - 1);
    sv__core_rd_skip(r, pad, what);
}

/* ---- writing into an sv_buf ---- */

static inline void sv__core_store_u16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void sv__core_store_u16be(uint8_t *p, uint16_t v)
{
    p[1] = (uint8_t)v;
    p[0] = (uint8_t)(v >> 8);
}
static inline void sv__core_store_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void sv__core_store_u32be(uint8_t *p, uint32_t v)
{
    p[3] = (uint8_t)v;
    p[2] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)(v >> 16);
    p[0] = (uint8_t)(v >> 24);
}
static inline void sv__core_store_u64le(uint8_t *p, uint64_t v)
{
    sv__core_store_u32le(p, (uint32_t)v);
    sv__core_store_u32le(p + 4, (uint32_t)(v >> 32));
}
static inline void sv__core_store_u64be(uint8_t *p, uint64_t v)
{
    sv__core_store_u32be(p, (uint32_t)(v >> 32));
    sv__core_store_u32be(p + 4, (uint32_t)v);
}

#define SV_PUT_DEFINE(name, type, n, store)                                                        \
    static inline void sv_put_##name(sv_buf *b, type v)                                            \
    {                                                                                              \
        if (sv_buf_ensure(b, n) != SV_OK) return;                                                  \
        store(b->data + b->len, v);                                                                \
        b->len += n;                                                                               \
    }
SV_PUT_DEFINE(u16le, uint16_t, 2, sv__core_store_u16le)
SV_PUT_DEFINE(u16be, uint16_t, 2, sv__core_store_u16be)
SV_PUT_DEFINE(u32le, uint32_t, 4, sv__core_store_u32le)
SV_PUT_DEFINE(u32be, uint32_t, 4, sv__core_store_u32be)
SV_PUT_DEFINE(u64le, uint64_t, 8, sv__core_store_u64le)
SV_PUT_DEFINE(u64be, uint64_t, 8, sv__core_store_u64be)
#undef SV_PUT_DEFINE

static inline void sv__core_put_u8(sv_buf *b, uint8_t v)
{
    sv_buf_putc(b, v);
}
static inline void sv__core_put_f32le(sv_buf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    sv_put_u32le(b, u);
}
static inline void sv__core_put_f64le(sv_buf *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    sv_put_u64le(b, u);
}
static inline void sv__core_put_f32be(sv_buf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    sv_put_u32be(b, u);
}
static inline void sv__core_put_f64be(sv_buf *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    sv_put_u64be(b, u);
}
/* Appends zero bytes until the buffer length is a multiple of align
 * (measured from start, the offset where the encoded item began). */
static inline void sv__core_put_pad(sv_buf *b, size_t start, size_t align)
{
    size_t off = b->len - start;
    size_t pad = (align - (off & (align - 1))) & (align - 1);
    static const uint8_t zeros[16] = {0};
    while (pad) {
        size_t n = pad < sizeof zeros ? pad : sizeof zeros;
        sv_buf_append(b, zeros, n);
        pad -= n;
    }
}

#endif
