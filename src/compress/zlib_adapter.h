/* The one adapter over Debian's zlib (internal): raw deflate (RFC 1951, zip's
 * method 8) and zlib-wrapped streams (RFC 1950, KingsIsle ObjectProperty
 * compression, docs/formats/kingsisle.md, "Bits"), chosen by a parameter, and
 * CRC-32 for zip. Every z_stream gets the caller's sv_alloc for zalloc/zfree
 * (codec_alloc.h), so a counting or failing allocator sees zlib's memory.
 *
 * Inflation never lets the output grow past the room or size given, or the
 * caller's limit, and grows its buffer with what the stream has really
 * produced, so a small input that claims gigabytes costs at most what it
 * inflates to. */
#ifndef SV_COMPRESS_ZLIB_ADAPTER_H
#define SV_COMPRESS_ZLIB_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/alloc.h"
#include "serval/buf.h"
#include "serval/error.h"

/* Which framing the deflate data has. */
typedef enum sv_zlib_wrap {
    SV_ZLIB_RAW,     /* RFC 1951 alone: no header, no Adler-32 (zip) */
    SV_ZLIB_WRAPPED, /* RFC 1950: 2-byte header, deflate, Adler-32 */
    SV_ZLIB_GZIP,    /* RFC 1952: gzip header, deflate, CRC-32 (Godot's gzip blocks) */
} sv_zlib_wrap;

/* Inflates one stream of len bytes into dst[0..cap), the inflater's memory
 * from a (NULL: libc). *produced: bytes written. SV_OK when the stream ended
 * within cap with no input left over; SV_ERR_LIMIT: it has more than cap
 * bytes; SV_ERR_TRUNCATED: the input ends first; SV_ERR_TRAILING: input
 * after its end; SV_ERR_SYNTAX; SV_ERR_NOMEM. *why says it in words. */
sv_status sv__compress_zlib_inflate_into(const uint8_t *in, size_t len, sv_zlib_wrap wrap,
                                         uint8_t *dst, size_t cap, const sv_alloc *a,
                                         size_t *produced, const char **why);

/* Inflates one stream of len bytes that must give exactly size bytes,
 * appended to out; the inflater's memory comes from out's allocator. size
 * above max_out is SV_ERR_LIMIT before any work; a stream that inflates to
 * more or fewer bytes than size, or has bytes after its end, is an error
 * naming format and the input offset (base: the stream's offset in the
 * file). */
sv_status sv__compress_zlib_inflate_exact(const uint8_t *in, size_t len, sv_zlib_wrap wrap,
                                          uint64_t size, uint64_t max_out, const char *format,
                                          uint64_t base, sv_buf *out, sv_error *err);

/* Deflates in at level (0..9, or -1 for zlib's default) with zlib's default
 * window and memory level (what compress2 writes, for the wrapped form),
 * appended to out; memory from out's allocator. false when memory ran out. */
bool sv__compress_zlib_deflate(const uint8_t *in, size_t len, int level, sv_zlib_wrap wrap,
                               sv_buf *out);

/* CRC-32 (ISO-HDLC, zip's) of n bytes, continuing from crc (0 to start). */
uint32_t sv__compress_crc32(uint32_t crc, const uint8_t *p, size_t n);

#endif
