/* The document and its arena (internal). */
#ifndef SV_CORE_DOC_INTERNAL_H
#define SV_CORE_DOC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "serval/value.h"

/* Arena memory comes in chunks, each starting with this header. Chunks grow
 * geometrically so a large document needs few of them; an allocation bigger
 * than half the next chunk gets a chunk of its own. */
typedef struct sv_chunk {
    struct sv_chunk *prev; /* in doc->spare: the next spare chunk instead */
    size_t size;           /* bytes of the whole chunk, header included */
    bool regular;          /* one of the geometric series, not a block's own */
} sv_chunk;

/* Open-addressing table of interned strings: slot = the string's hash, its
 * length and its arena pointer. */
typedef struct sv_intern_slot {
    uint32_t hash;
    uint32_t len;
    const char *str;
} sv_intern_slot;

struct sv_doc {
    sv_alloc alloc;
    sv_chunk *chunk;        /* current chunk (newest) */
    uint8_t *cur, *end;     /* free space of the current chunk */
    uint8_t *last;          /* start of the last block handed out (for in-place growth) */
    uint8_t *cur_oversized; /* a just-made chunk of its own for one big block */
    size_t next_chunk;      /* size of the next regular chunk */
    /* Regular chunks sv_doc_reset kept, smallest (oldest) first: the next
     * regular chunks, taken again instead of fresh memory. */
    sv_chunk *spare;
    uint64_t keep;      /* bytes of chunks sv_doc_reset keeps */
    uint64_t allocated; /* bytes taken from the allocator */
    uint64_t max_alloc;
    sv_status status; /* sticky: first allocation failure */
    sv_value root;
    sv_intern_slot *intern;
    uint32_t intern_cap; /* power of two, or 0 */
    uint32_t intern_count;
};

/* sv_doc_alloc inline for decoders that make many small blocks: the same
 * block (8-byte aligned, as arena.c's ARENA_ALIGN) when it fits the current
 * chunk, else sv_doc_alloc itself. */
static inline void *sv__core_doc_alloc_fast(sv_doc *doc, size_t size)
{
    size_t room = (size_t)(doc->end - doc->cur);
    if (doc->status == SV_OK && size != 0 && size <= room) {
        size_t rounded = (size + 7) & ~(size_t)7;
        if (rounded <= room) {
            void *p = doc->cur;
            doc->last = doc->cur;
            doc->cur += rounded;
            return p;
        }
    }
    return sv_doc_alloc(doc, size);
}

/* Takes bytes from the document's allocator, counting them against max_alloc
 * (for memory the document owns outside the arena, e.g. the intern table). */
void *sv__core_doc_sys_alloc(sv_doc *doc, size_t size);
void sv__core_doc_sys_free(sv_doc *doc, void *p, size_t size);

/* Scratch memory of a decoder or encoder working on doc (stacks, buffers
 * freed before it returns): from the document's allocator, so an embedding
 * program's heap and the tests' fault injection see it, but neither counted
 * in sv_doc_allocated nor able to fail the document; the caller counts it
 * against its own budget. realloc with p NULL allocates; NULL on failure
 * (p is then still valid). */
void *sv__core_doc_scratch_realloc(sv_doc *doc, void *p, size_t old_size, size_t new_size);
void sv__core_doc_scratch_free(sv_doc *doc, void *p, size_t size);

#endif
