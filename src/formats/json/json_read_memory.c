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
#include "core/mem.h"
#include "formats/json/json_read_internal.h"

bool sv__json_jr_grow(jr *r, void **buf, size_t *cap, size_t size, size_t need, const char *at)
{
    if (need <= *cap) return true;
    sv_stack_grow g = {r->doc, &r->scratch, r->lim.max_alloc, 1024 / size + 1};
    sv_status st = sv__core_stack_grow_to(&g, buf, cap, size, need);
    if (st == SV_OK) return true;
    if (st == SV_ERR_NOMEM) return sv__json_jr_fail(r, at, st, "out of memory");
    return sv__json_jr_fail(r, at, st, "the document would allocate more than %llu bytes",
                            (unsigned long long)r->lim.max_alloc);
}

bool sv__json_jr_reserve(jr *r, void **buf, size_t *cap, size_t need, const char *at)
{
    return sv__json_jr_grow(r, buf, cap, 1, need, at);
}

/* The bump allocator's slow path, recording a failure at at. */
void *sv__json_jr_alloc_slow(jr *r, size_t n, const char *at)
{
    void *p = sv__core_bump_alloc_slow(&r->bump, n);
    if (!p) sv__json_jr_fail_alloc(r, at);
    return p;
}
