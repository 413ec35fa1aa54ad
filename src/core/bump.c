/* The bump allocator's slow path (bump.h). */
#include "core/bump.h"

#define BUMP_FIRST 1024u
#define BUMP_MAX (64u * 1024u)

void sv_bump_init(sv_bump *b, sv_doc *doc)
{
    /* A non-NULL empty block: pointer arithmetic on NULL is undefined. */
    static uint8_t no_block[1];
    b->doc = doc;
    b->cur = b->end = no_block;
    b->next = BUMP_FIRST;
}

void *sv_bump_alloc_slow(sv_bump *b, size_t n)
{
    /* Big blocks go straight to the document; no tail is wasted. */
    if (n > BUMP_MAX / 4) return sv_doc_alloc(b->doc, n);
    n = (n + 7) & ~(size_t)7;
    size_t block = b->next;
    /* A request bigger than the next block (a 2 KiB container while blocks
     * are still 1 KiB) grows the block; n <= BUMP_MAX / 4 bounds this. */
    while (block < n)
        block *= 2;
    uint8_t *p = sv_doc_alloc(b->doc, block);
    if (!p) return NULL;
    b->cur = p + n;
    b->end = p + block;
    b->next = block < BUMP_MAX ? block * 2 : BUMP_MAX;
    return p;
}
