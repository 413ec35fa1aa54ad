/* serval: the allocator interface.
 *
 * Every allocation serval makes goes through an sv_alloc, so an embedding
 * program can route memory to its own heap and tests can fail the Nth
 * allocation. Pass NULL anywhere an allocator is asked for to use libc. */
#ifndef SERVAL_ALLOC_H
#define SERVAL_ALLOC_H

#include "api.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_alloc {
    /* Returns NULL on failure. size is never 0. */
    void *(*malloc)(void *ctx, size_t size);
    /* Like realloc(3); old_size is the size of the block being resized. */
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    /* ptr may be NULL; size is the block's size (0 if ptr is NULL). */
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} sv_alloc;

/* The libc allocator (malloc/realloc/free). */
SV_API const sv_alloc *sv_alloc_libc(void);

#ifdef __cplusplus
}
#endif
#endif
