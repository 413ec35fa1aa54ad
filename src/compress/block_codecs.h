/* Whole-block codecs with a known output size (internal): zstd frames,
 * FastLZ blocks and Brotli streams, as Godot's FileAccessCompressed stores
 * its blocks (godot-res's RSCC). The deflate and gzip blocks go through
 * zlib_adapter.h. */
#ifndef SV_COMPRESS_BLOCK_CODECS_H
#define SV_COMPRESS_BLOCK_CODECS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"

/* One zstd frame of len bytes that must decompress to exactly size bytes,
 * into dst (room for size bytes). false with *why set otherwise. */
bool sv__compress_zstd_decompress_exact(const uint8_t *in, size_t len, uint8_t *dst, size_t size,
                                        const char **why);
/* One frame at level (ZSTD_compressCCtx: content size, no checksum). */
bool sv__compress_zstd_compress(const uint8_t *in, size_t len, int level, sv_buf *out);

/* FastLZ 0.5.0 (levels 1 and 2, the level in the first byte's top bits):
 * the block's decompressed size into *produced; false when the block is
 * invalid or would write past cap bytes of dst. */
bool sv__compress_fastlz_decompress(const uint8_t *in, size_t len, uint8_t *dst, size_t cap,
                                    size_t *produced);
/* FastLZ 0.5.0 level 1 of len bytes (len < 65536, the level Godot uses for
 * such inputs); appends to out. */
bool sv__compress_fastlz1_compress(const uint8_t *in, size_t len, sv_buf *out);

/* One Brotli stream (RFC 7932) of len bytes that must decompress to
 * exactly size bytes, into dst (room for size bytes): never writes past
 * size, and stops as soon as the stream would give more. false with *why
 * set otherwise. (brotli.c: only in builds with libbrotli,
 * SERVAL_HAVE_BROTLI.) */
bool sv__compress_brotli_decompress_exact(const uint8_t *in, size_t len, uint8_t *dst, size_t size,
                                          const char **why);

#endif
