/* The memory of a libbrotlienc encoder, kept on a list (internal).
 *
 * libbrotlienc ends the process (exit) when its allocator returns NULL: it
 * is built without BROTLI_ENCODER_CLEANUP_ON_OOM. A library must report
 * out-of-memory instead, so this allocator never returns NULL to it: a
 * refused allocation longjmps to refused, which the caller set with setjmp
 * before any call into the encoder; the caller then gives every block back
 * with sv__compress_brotli_mem_free_all (the encoder's own cleanup never
 * runs). libbrotlienc is C and holds no other resource, so leaving its
 * frames this way is safe. Used by the one-call compressor (brotli.c) and by
 * the .brson writer that compresses its BSON window by window. */
#ifndef SV_COMPRESS_BROTLI_MEM_H
#define SV_COMPRESS_BROTLI_MEM_H

#include <setjmp.h>
#include <stddef.h>

#include "serval/alloc.h"

typedef struct sv__compress_brotli_block sv__compress_brotli_block;

typedef struct sv__compress_brotli_mem {
    const sv_alloc *alloc;
    sv__compress_brotli_block *blocks; /* every block the encoder holds */
    jmp_buf refused;                   /* where a refused allocation lands */
} sv__compress_brotli_mem;

/* The encoder's hooks: pass them to BrotliEncoderCreateInstance with the
 * sv__compress_brotli_mem as opaque. */
void *sv__compress_brotli_mem_alloc(void *opaque, size_t size);
void sv__compress_brotli_mem_free(void *opaque, void *p);
/* Gives back every block still on the list. */
void sv__compress_brotli_mem_free_all(sv__compress_brotli_mem *m);

#endif
