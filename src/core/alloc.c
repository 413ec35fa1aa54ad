/* The libc allocator behind sv_alloc_libc(). */
#include <stdlib.h>

#include "serval/alloc.h"

static void *libc_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void *libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void libc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

static const sv_alloc libc_alloc = {libc_malloc, libc_realloc, libc_free, NULL};

const sv_alloc *sv_alloc_libc(void)
{
    return &libc_alloc;
}
