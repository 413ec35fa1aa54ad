/* Memory helpers every module shares (internal): the huge-page hint for
 * large blocks, the growth of a decoder's scratch stacks, and arrays from an
 * sv_alloc (so that no module calls malloc and friends itself). */
#ifndef SV_CORE_MEM_H
#define SV_CORE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/alloc.h"
#include "serval/buf.h"
#include "serval/error.h"
#include "serval/value.h"

/* Asks for transparent huge pages on the 2 MiB-aligned interior of
 * [p, p + size) when it spans at least min_size bytes. Call it only on a
 * block the caller has just allocated and owns. Large outputs and arena
 * chunks fault in tens of thousands of 4 KiB pages; with THP about eight
 * times fewer (measured with serval-bench json.parse). Only a hint: where
 * THP is off or the call is unknown nothing changes. */
void sv__core_mem_hint_huge_pages(void *p, size_t size, size_t min_size);

/* Faults in the whole pages of [from, to) with one call (MADV_POPULATE_WRITE)
 * instead of one page fault per 4 KiB as stores reach them: the writers
 * hand out a large output's room 2 MiB at a time this way (those faults were
 * a third of the time of writing a 50 MB document). A hint: where it is
 * refused, the pages fault in one by one. */
void sv__core_mem_populate(uint8_t *from, uint8_t *to);

/* sv_buf_reserve for one large write about to happen (a 48 MB packed
 * array copied at once): when the buffer grows for it, the new room gets
 * the huge-page hint. Buffers that grow by small appends do without: the
 * hint measured slower there (serval-bench json.write). */
bool sv__core_buf_reserve_large(sv_buf *b, size_t n);

/* A decoder's scratch stack (the values and frames it collects before a
 * container closes), from the document's allocator but outside its arena,
 * freed before the decoder returns. *scratch is the bytes all of the
 * decoder's stacks hold; they count with the document's own memory
 * against budget (max_alloc), so that hostile input cannot grow them
 * without bound. */
typedef struct sv_stack_grow {
    sv_doc *doc;
    uint64_t *scratch;
    uint64_t budget;
    size_t first; /* items the first block holds */
} sv_stack_grow;

/* Makes room for need items of size bytes in *buf (*cap items), growing
 * geometrically (or to exactly need when the budget has no room for more).
 * SV_OK; SV_ERR_LIMIT (the budget, or a count beyond SIZE_MAX / 4);
 * SV_ERR_NOMEM. Nothing changes on failure. */
sv_status sv__core_stack_grow_to(const sv_stack_grow *g, void **buf, size_t *cap, size_t size,
                                 size_t need);

/* Arrays of n items of size bytes from a (NULL: libc), which is handed the
 * block's size again when the array is freed or grown. */

/* A zeroed array; NULL when a refuses or n * size overflows. n 0 gives a
 * one-byte block (sv_alloc never sees a size of 0), freed the same way. */
void *sv__core_mem_calloc(const sv_alloc *a, size_t n, size_t size);
/* Frees an array of sv__core_mem_calloc or sv__core_mem_grow (p may be NULL). */
void sv__core_mem_free(const sv_alloc *a, void *p, size_t n, size_t size);
/* Makes room for need items in *p (*cap items), doubling from 16. false
 * when a refuses or the size overflows; nothing changes then. */
bool sv__core_mem_grow(const sv_alloc *a, void **p, size_t *cap, size_t need, size_t size);

#endif
