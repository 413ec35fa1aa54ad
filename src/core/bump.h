/* A bump allocator over the document's arena, for decoders that make many
 * small blocks (strings, containers) one after another.
 *
 * sv_doc_alloc is already an arena, but a call per value costs; a decoder
 * takes blocks of 1 KiB, doubling to 64 KiB, and carves them with a pointer
 * bump. Blocks are freed with the document. Requests above 16 KiB go to the
 * document directly, so no block tail larger than a quarter block is wasted.
 *
 * Usage: sv_bump b; sv_bump_init(&b, doc); p = sv_bump_alloc(&b, n);
 * NULL means the document's allocation failed (sv_doc_status says why). */
#ifndef SV_CORE_BUMP_H
#define SV_CORE_BUMP_H

#include <stddef.h>
#include <stdint.h>

#include "serval/value.h"

typedef struct sv_bump {
    sv_doc *doc;
    uint8_t *cur, *end;
    size_t next; /* size of the next block */
} sv_bump;

void sv_bump_init(sv_bump *b, sv_doc *doc);
void *sv_bump_alloc_slow(sv_bump *b, size_t n);

/* n bytes, 8-byte aligned. */
static inline void *sv_bump_alloc(sv_bump *b, size_t n)
{
    size_t m = (n + 7) & ~(size_t)7;
    if (m >= n && (size_t)(b->end - b->cur) >= m) {
        void *p = b->cur;
        b->cur += m;
        return p;
    }
    return sv_bump_alloc_slow(b, n);
}

#endif
