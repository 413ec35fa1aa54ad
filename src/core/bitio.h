/* Bounds-checked LSB-first bit reading and writing (internal).
 *
 * Bit k of the stream is (buf[k >> 3] >> (k & 7)) & 1, and an n-bit field
 * takes stream bits in order as value bits 0..n-1 (KingsIsle ObjectProperty,
 * docs/formats/kingsisle.md, "Bits"). A whole-byte field read at a byte
 * boundary is therefore its little-endian bytes.
 *
 * The reader loads 64 bits at a time from the byte position and shifts, so a
 * field of up to 57 bits costs one load; it keeps a sticky error like
 * sv_reader and records failures with byte and bit offsets. */
#ifndef SV_CORE_BITIO_H
#define SV_CORE_BITIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"
#include "serval/buf.h"
#include "serval/error.h"

typedef struct sv_bitreader {
    const uint8_t *data;
    uint64_t bit_len; /* total bits */
    uint64_t pos;     /* next bit */
    const char *format;
    sv_error *err;
    sv_status status;
} sv_bitreader;

static inline void sv__core_br_init(sv_bitreader *r, const void *data, size_t len,
                                    const char *format, sv_error *err)
{
    r->data = (const uint8_t *)data;
    r->bit_len = (uint64_t)len * 8u;
    r->pos = 0;
    r->format = format;
    r->err = err;
    r->status = SV_OK;
}

static inline bool sv__core_br_ok(const sv_bitreader *r)
{
    return r->status == SV_OK;
}
static inline uint64_t sv__core_br_remaining(const sv_bitreader *r)
{
    return r->status == SV_OK ? r->bit_len - r->pos : 0;
}

/* Records a failure at the current bit position (first one wins). */
sv_status sv__core_br_fail(sv_bitreader *r, sv_status status, const char *fmt, ...) SV_PRINTF(3, 4);

/* Loads up to 64 bits starting at byte index i (fewer at the end: zeros). */
static inline uint64_t sv__core_br_load64(const sv_bitreader *r, uint64_t i)
{
    uint64_t bytes = (r->bit_len + 7) / 8;
    uint64_t w = 0;
    if (i + 8 <= bytes) {
        w = sv__core_load64le(r->data + i);
    } else {
        for (uint64_t k = 0; i + k < bytes; k++) w |= (uint64_t)r->data[i + k] << (8 * k);
    }
    return w;
}

/* Reads n bits (0..64) as an unsigned value; 0 on failure. */
static inline uint64_t sv__core_br_read(sv_bitreader *r, unsigned n)
{
    if (r->status != SV_OK) return 0;
    if (n == 0) return 0;
    if (n > 64 || r->bit_len - r->pos < n) {
        sv__core_br_fail(r, SV_ERR_TRUNCATED, "%u-bit field needs %u bits, %llu left", n, n,
                         (unsigned long long)(r->bit_len - r->pos));
        return 0;
    }
    unsigned shift = (unsigned)(r->pos & 7);
    uint64_t v = sv__core_br_load64(r, r->pos >> 3) >> shift;
    if (shift + n > 64) { /* the field spills into a ninth byte */
        uint64_t hi = r->data[(r->pos >> 3) + 8];
        v |= hi << (64 - shift);
    }
    r->pos += n;
    return n == 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

/* Reads n bits (1..64) as a two's complement signed value. */
static inline int64_t sv__core_br_read_signed(sv_bitreader *r, unsigned n)
{
    uint64_t v = sv__core_br_read(r, n);
    if (n == 0 || n >= 64) return (int64_t)v;
    uint64_t sign = UINT64_C(1) << (n - 1);
    return (int64_t)((v ^ sign) - sign);
}

/* Skips to the next byte boundary. Returns the skipped padding bits (their
 * contents are undefined in KingsIsle data; a lossless rewrite keeps them). */
static inline unsigned sv__core_br_align(sv_bitreader *r)
{
    unsigned n = (unsigned)((8 - (r->pos & 7)) & 7);
    if (n == 0 || r->status != SV_OK) return 0;
    if (r->bit_len - r->pos < n) { /* partial last byte: padding may be missing */
        r->pos = r->bit_len;
        return 0;
    }
    return (unsigned)sv__core_br_read(r, n);
}

/* Byte offset / bit within it of the next bit. */
static inline uint64_t sv__core_br_byte_offset(const sv_bitreader *r)
{
    return r->pos >> 3;
}
static inline int sv__core_br_bit_offset(const sv_bitreader *r)
{
    return (int)(r->pos & 7);
}

/* ---- writer ---- */

typedef struct sv_bitwriter {
    sv_buf *out;
    uint64_t acc;  /* pending bits, LSB first */
    unsigned nacc; /* number of pending bits (< 8 after every call) */
} sv_bitwriter;

static inline void sv__core_bw_init(sv_bitwriter *w, sv_buf *out)
{
    w->out = out;
    w->acc = 0;
    w->nacc = 0;
}

/* Moves the whole bytes of the accumulator (nacc >= 8) to the output with
 * one 8-byte store at its end: the bytes past the whole ones land in the
 * buffer's spare room and are overwritten by the next store. On a failed
 * buffer (sticky) the bytes are dropped, as sv_buf_append drops them. */
static SV_ALWAYS_INLINE void sv__core_bw_spill(sv_bitwriter *w)
{
    sv_buf *b = w->out;
    unsigned k = w->nacc >> 3; /* 1..7: nacc <= 63 */
    if (sv_buf_ensure(b, 8) == SV_OK) {
        sv__core_store64le(b->data + b->len, w->acc);
        b->len += k;
    }
    w->acc >>= 8 * k;
    w->nacc &= 7;
}

/* Writes the low n bits (0..56) of v: one or, and a store when a byte is
 * complete. */
static SV_ALWAYS_INLINE void sv__core_bw_put(sv_bitwriter *w, uint64_t v, unsigned n)
{
    w->acc |= (v & ((UINT64_C(1) << n) - 1)) << w->nacc;
    w->nacc += n;
    if (w->nacc >= 8) sv__core_bw_spill(w);
}

/* Writes the low n bits (0..64) of v: up to 56 bits at a time (acc holds
 * fewer than 8 pending bits after every call, so nothing is lost). */
static inline void sv__core_bw_write(sv_bitwriter *w, uint64_t v, unsigned n)
{
    if (n > 56) {
        sv__core_bw_put(w, v, 32);
        v >>= 32;
        n -= 32;
    }
    sv__core_bw_put(w, v, n);
}

/* Appends n whole bytes; the stream must be at a byte boundary. */
static inline void sv__core_bw_bytes(sv_bitwriter *w, const void *p, size_t n)
{
    sv_buf_append(w->out, p, n);
}

/* Pads to a byte boundary with the given padding bits (0 for zeros). */
static inline void sv__core_bw_align(sv_bitwriter *w, unsigned pad_bits)
{
    if (w->nacc == 0) return;
    sv__core_bw_write(w, pad_bits, 8 - w->nacc);
}

/* Bits written so far, pending ones included. */
static inline uint64_t sv__core_bw_bit_len(const sv_bitwriter *w)
{
    return (uint64_t)w->out->len * 8u + w->nacc;
}

/* Flushes a partial last byte (zero high bits). */
static inline void sv__core_bw_flush(sv_bitwriter *w)
{
    if (w->nacc) {
        sv_buf_putc(w->out, (uint8_t)w->acc);
        w->acc = 0;
        w->nacc = 0;
    }
}

#endif
