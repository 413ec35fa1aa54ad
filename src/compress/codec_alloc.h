/* The caller's sv_alloc behind the codec libraries' own allocator hooks
 * (internal to src/compress/).
 *
 * libbrotli, liblzma and zlib hand their free function only the pointer,
 * while sv_alloc's free takes the block's size too (so that a counting
 * allocator can count). Each block therefore carries its size in a header of
 * SV_CODEC_HEADER bytes, which keeps the pointer given to the library as
 * aligned as the allocator's own (16 bytes: max_align_t on x86-64 and
 * AArch64). The libraries get the sv_alloc pointer as their opaque value; it
 * must outlive the codec state. */
#ifndef SV_COMPRESS_CODEC_ALLOC_H
#define SV_COMPRESS_CODEC_ALLOC_H

#include <stddef.h>

#include "serval/alloc.h"

#define SV_CODEC_HEADER 16u

/* size bytes from a (NULL: libc); NULL when it fails or size overflows. */
void *sv__compress_codec_malloc(const sv_alloc *a, size_t size);
/* Gives back a block of sv__compress_codec_malloc (p may be NULL). */
void sv__compress_codec_free(const sv_alloc *a, void *p);
/* a, or the libc allocator when a is NULL. */
const sv_alloc *sv__compress_codec_alloc_or_libc(const sv_alloc *a);

#endif
