/* The bump allocator's slow path (bump.h). */
#include "core/bump.h"

void sv__core_bump_init_sized(sv_bump *b, sv_doc *doc, size_t first, size_t max)
{
    /* A non-NULL empty block: pointer arithmetic on NULL is undefined. */
    static uint8_t no_block[1];
    b->doc = doc;
    b->cur = b->end = no_block;
    b->next = first;
    b->max = max;
}

void sv__core_bump_init(sv_bump *b, sv_doc *doc)
{
    sv__core_bump_init_sized(b, doc, 1024u, 64u * 1024u);
}

void *sv__core_bump_alloc_slow(sv_bump *b, size_t n)
{
    /* Big blocks go straight to the document; no tail is wasted. */
    if (n > b->max / 4) return sv_doc_alloc(b->doc, n);
    n = (n + 7) & ~(size_t)7;
    size_t block = b->next;
    /* A request bigger than the next block (a 2 KiB container while blocks
     * are still 1 KiB) grows the block; n <= max / 4 bounds this. */
    while (block < n) block *= 2;
    uint8_t *p = sv_doc_alloc(b->doc, block);
    if (!p) return NULL;
    b->cur = p + n;
    b->end = p + block;
    b->next = block < b->max ? block * 2 : b->max;
    return p;
}
