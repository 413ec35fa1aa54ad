/* Thin adapter over Debian's zlib (internal): RFC 1950 streams whose
 * uncompressed size the container states up front (KingsIsle ObjectProperty
 * compression, spec kingsisle-objectproperty §4).
 *
 * Inflation never lets the output grow past the stated size or the caller's
 * limit, whichever is smaller, and grows its buffer with what the stream has
 * really produced, so a small input that claims gigabytes costs at most what
 * it inflates to. Errors name the caller's format and the input offset. */
#ifndef SV_COMPRESS_ZLIB_ADAPTER_H
#define SV_COMPRESS_ZLIB_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"

/* Inflates one zlib stream of len bytes that must give exactly size bytes.
 * size above max_out is SV_ERR_LIMIT before any work; a stream that inflates
 * to more or fewer bytes than size, or has bytes after its end, is an error.
 * base is the stream's offset in the file (for error offsets). *consumed (may
 * be NULL) gets the bytes of input the stream used. Appends to out. */
sv_status sv_zlib_inflate_exact(const uint8_t *in, size_t len, uint64_t size, uint64_t max_out,
                                const char *format, uint64_t base, sv_buf *out, sv_error *err);

/* Deflates in into a zlib stream at level (0..9, or -1 for zlib's default).
 * Appends to out; false when memory ran out. */
bool sv_zlib_deflate(const uint8_t *in, size_t len, int level, sv_buf *out);

#endif
