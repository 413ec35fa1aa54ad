/* Huge-page hints and scratch stack growth (mem.h). */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise */
#include <sys/mman.h>
#endif
#include "core/mem.h"

#include <string.h>

#include "core/doc_internal.h"

void sv__core_mem_populate(uint8_t *from, uint8_t *to)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = 4096;
    uintptr_t a = ((uintptr_t)from + page - 1) & ~(page - 1), e = (uintptr_t)to & ~(page - 1);
    if (e > a) (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
    (void)from;
    (void)to;
#endif
}

void sv__core_mem_hint_huge_pages(void *p, size_t size, size_t min_size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (size < min_size) return;
    uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)p + size) & ~(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
    (void)min_size;
#endif
}

sv_status sv__core_stack_grow_to(const sv_stack_grow *g, void **buf, size_t *cap, size_t size,
                                 size_t need)
{
    if (need <= *cap) return SV_OK;
    if (need > SIZE_MAX / 4 / size) return SV_ERR_LIMIT;
    size_t ncap = *cap ? *cap * 2 : g->first;
    while (ncap < need) ncap *= 2;
    uint64_t others = *g->scratch - (uint64_t)*cap * size;
    uint64_t used = sv_doc_allocated(g->doc) + others;
    if (used > g->budget || (uint64_t)ncap * size > g->budget - used) {
        ncap = need; /* no head room for doubling: try the exact size */
        if (used > g->budget || (uint64_t)ncap * size > g->budget - used) return SV_ERR_LIMIT;
    }
    void *nb = sv__core_doc_scratch_realloc(g->doc, *buf, *cap * size, ncap * size);
    if (!nb) return SV_ERR_NOMEM;
    *buf = nb;
    *cap = ncap;
    *g->scratch = others + (uint64_t)ncap * size;
    return SV_OK;
}

/* The bytes of an array of n items: at least 1, so that a zero-length array
 * is a real block from the allocator and is freed with the same size. */
static size_t array_bytes(size_t n, size_t size)
{
    return n && size ? n * size : 1;
}

void *sv__core_mem_calloc(const sv_alloc *a, size_t n, size_t size)
{
    if (!a) a = sv_alloc_libc();
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = array_bytes(n, size);
    void *p = a->malloc(a->ctx, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

void sv__core_mem_free(const sv_alloc *a, void *p, size_t n, size_t size)
{
    if (!p) return;
    if (!a) a = sv_alloc_libc();
    a->free(a->ctx, p, array_bytes(n, size));
}

bool sv__core_mem_grow(const sv_alloc *a, void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return true;
    if (!a) a = sv_alloc_libc();
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2) return false;
        n *= 2;
    }
    if (n > SIZE_MAX / size) return false;
    void *q = *p ? a->realloc(a->ctx, *p, array_bytes(*cap, size), n * size)
                 : a->malloc(a->ctx, n * size);
    if (!q) return false;
    *p = q;
    *cap = n;
    return true;
}
