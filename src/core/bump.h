/* A bump allocator over the document's arena, for decoders that make many
 * small blocks (strings, containers) one after another.
 *
 * sv_doc_alloc is already an arena, but a call per value costs; a decoder
 * takes blocks (by default 1 KiB, doubling to 64 KiB) and carves them with a
 * pointer bump. Blocks are freed with the document. Requests above a quarter
 * of the largest block go to the document directly, so no block tail larger
 * than that is wasted.
 *
 * Usage: sv_bump b; sv__core_bump_init(&b, doc); p = sv__core_bump_alloc(&b, n);
 * NULL means the document's allocation failed (sv_doc_status says why).
 * sv__core_bump_alloc gives 8-byte aligned blocks (values, containers);
 * sv__core_bump_bytes unaligned ones (string bytes), packed tightly. */
#ifndef SV_CORE_BUMP_H
#define SV_CORE_BUMP_H

#include <stddef.h>
#include <stdint.h>

#include "serval/value.h"

typedef struct sv_bump {
    sv_doc *doc;
    uint8_t *cur, *end;
    size_t next; /* size of the next block */
    size_t max;  /* the largest block */
} sv_bump;

/* Blocks of 1 KiB doubling to 64 KiB. */
void sv__core_bump_init(sv_bump *b, sv_doc *doc);
/* Blocks of first bytes doubling to max (powers of two, first <= max). */
void sv__core_bump_init_sized(sv_bump *b, sv_doc *doc, size_t first, size_t max);
/* A new block (or a block of the document's for a big request) with n
 * bytes taken from its aligned start. */
void *sv__core_bump_alloc_slow(sv_bump *b, size_t n);

/* n bytes, 8-byte aligned. */
static inline void *sv__core_bump_alloc(sv_bump *b, size_t n)
{
    uintptr_t at = ((uintptr_t)b->cur + 7) & ~(uintptr_t)7;
    if (at <= (uintptr_t)b->end && n <= (uintptr_t)b->end - at) {
        b->cur = (uint8_t *)(at + n);
        return (void *)at;
    }
    return sv__core_bump_alloc_slow(b, n);
}

/* n bytes, unaligned. */
static inline uint8_t *sv__core_bump_bytes(sv_bump *b, size_t n)
{
    if ((size_t)(b->end - b->cur) >= n) {
        uint8_t *p = b->cur;
        b->cur += n;
        return p;
    }
    return sv__core_bump_alloc_slow(b, n);
}

#endif
