/* Huge-page hints and scratch stack growth (mem.h). */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise */
#include <sys/mman.h>
#endif
#include "core/mem.h"

#include "core/doc_internal.h"

void sv_mem_hint_huge_pages(void *p, size_t size, size_t min_size)
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

sv_status sv_stack_grow_to(const sv_stack_grow *g, void **buf, size_t *cap, size_t size,
                           size_t need)
{
    if (need <= *cap) return SV_OK;
    if (need > SIZE_MAX / 4 / size) return SV_ERR_LIMIT;
    size_t ncap = *cap ? *cap * 2 : g->first;
    while (ncap < need)
        ncap *= 2;
    uint64_t others = *g->scratch - (uint64_t)*cap * size;
    uint64_t used = sv_doc_allocated(g->doc) + others;
    if (used > g->budget || (uint64_t)ncap * size > g->budget - used) {
        ncap = need; /* no head room for doubling: try the exact size */
        if (used > g->budget || (uint64_t)ncap * size > g->budget - used) return SV_ERR_LIMIT;
    }
    void *nb = sv__doc_scratch_realloc(g->doc, *buf, *cap * size, ncap * size);
    if (!nb) return SV_ERR_NOMEM;
    *buf = nb;
    *cap = ncap;
    *g->scratch = others + (uint64_t)ncap * size;
    return SV_OK;
}
