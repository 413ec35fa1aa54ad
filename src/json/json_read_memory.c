/* The typed JSON reader: its memory.
 *
 * Two kinds. Scratch (the value and frame stacks, the buffers for unescaped
 * keys and packed numbers) comes from the document's allocator (outside its
 * arena), grows geometrically and is freed
 * when sv_json_decode returns; it counts toward max_alloc like the document's
 * own memory, so a hostile input cannot grow it without bound. The tree
 * itself lives in the document's arena: small blocks are carved from blocks
 * the reader takes with sv_doc_alloc (1 KiB at first, doubling to 64 KiB),
 * so that a string or a container costs a pointer bump. */
#include <stdlib.h>

#include "core/doc_internal.h"
#include "json/json_read_internal.h"

bool sv_jr_grow(jr *r, void **buf, size_t *cap, size_t size, size_t need, const char *at)
{
    if (need <= *cap) return true;
    if (need > SIZE_MAX / 4 / size)
        return sv_jr_fail(r, at, SV_ERR_LIMIT, "too many values open at once");
    size_t ncap = *cap ? *cap : 1024 / size + 1;
    while (ncap < need)
        ncap *= 2;
    uint64_t others = r->scratch - (uint64_t)*cap * size;
    uint64_t budget = r->lim.max_alloc, used = sv_doc_allocated(r->doc) + others;
    if (used > budget || (uint64_t)ncap * size > budget - used) {
        ncap = need; /* no head room for doubling: try the exact size */
        if (used > budget || (uint64_t)ncap * size > budget - used)
            return sv_jr_fail(r, at, SV_ERR_LIMIT,
                              "the document would allocate more than %llu bytes",
                              (unsigned long long)budget);
    }
    void *nb = sv__doc_scratch_realloc(r->doc, *buf, *cap * size, ncap * size);
    if (!nb) return sv_jr_fail(r, at, SV_ERR_NOMEM, "out of memory");
    *buf = nb;
    *cap = ncap;
    r->scratch = others + (uint64_t)ncap * size;
    return true;
}

bool sv_jr_reserve(jr *r, void **buf, size_t *cap, size_t need, const char *at)
{
    return sv_jr_grow(r, buf, cap, 1, need, at);
}

/* The bump allocator's slow path, recording a failure at at. */
void *sv_jr_alloc_slow(jr *r, size_t n, const char *at)
{
    void *p = sv_bump_alloc_slow(&r->bump, n);
    if (!p) sv_jr_fail_alloc(r, at);
    return p;
}
