/* sv_doc: a document that owns an arena. Everything a document holds is
 * allocated here and freed at once by sv_doc_free. */
#include <stdint.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"

#define ARENA_FIRST_CHUNK 4096u
#define ARENA_MAX_CHUNK ((size_t)64 << 20)
#define ARENA_ALIGN 8u

sv_limits sv_limits_resolve(const sv_limits *lim)
{
    sv_limits r = {0, 0, 0, 0};
    if (lim) r = *lim;
    if (!r.max_depth) r.max_depth = SV_DEFAULT_MAX_DEPTH;
    if (r.max_depth > SV_MAX_DEPTH_LIMIT) r.max_depth = SV_MAX_DEPTH_LIMIT;
    if (!r.max_alloc) r.max_alloc = SV_DEFAULT_MAX_ALLOC;
    if (!r.max_string) r.max_string = SV_DEFAULT_MAX_STRING;
    if (!r.max_decompressed) r.max_decompressed = SV_DEFAULT_MAX_DECOMPRESSED;
    return r;
}

static void doc_fail(sv_doc *doc, sv_status status)
{
    if (doc->status == SV_OK) doc->status = status;
}

void *sv__core_doc_sys_alloc(sv_doc *doc, size_t size)
{
    if (doc->status != SV_OK) return NULL;
    if (size > doc->max_alloc || doc->allocated > doc->max_alloc - size) {
        doc_fail(doc, SV_ERR_LIMIT);
        return NULL;
    }
    void *p = doc->alloc.malloc(doc->alloc.ctx, size);
    if (!p) {
        doc_fail(doc, SV_ERR_NOMEM);
        return NULL;
    }
    doc->allocated += size;
    return p;
}

void sv__core_doc_sys_free(sv_doc *doc, void *p, size_t size)
{
    if (!p) return;
    doc->alloc.free(doc->alloc.ctx, p, size);
    doc->allocated -= size;
}

void *sv__core_doc_scratch_realloc(sv_doc *doc, void *p, size_t old_size, size_t new_size)
{
    if (!p) return doc->alloc.malloc(doc->alloc.ctx, new_size);
    return doc->alloc.realloc(doc->alloc.ctx, p, old_size, new_size);
}

void sv__core_doc_scratch_free(sv_doc *doc, void *p, size_t size)
{
    if (p) doc->alloc.free(doc->alloc.ctx, p, size);
}

sv_doc *sv_doc_new(const sv_alloc *alloc)
{
    if (!alloc) alloc = sv_alloc_libc();
    sv_doc *doc = alloc->malloc(alloc->ctx, sizeof *doc);
    if (!doc) return NULL;
    memset(doc, 0, sizeof *doc);
    doc->alloc = *alloc;
    doc->next_chunk = ARENA_FIRST_CHUNK;
    doc->max_alloc = SV_DEFAULT_MAX_ALLOC;
    doc->keep = SV_DEFAULT_RESET_KEEP;
    doc->status = SV_OK;
    doc->root = sv_null();
    return doc;
}

static void free_chunks(sv_doc *doc, sv_chunk *c)
{
    while (c) {
        sv_chunk *prev = c->prev;
        doc->alloc.free(doc->alloc.ctx, c, c->size);
        c = prev;
    }
}

void sv_doc_free(sv_doc *doc)
{
    if (!doc) return;
    free_chunks(doc, doc->chunk);
    free_chunks(doc, doc->spare);
    if (doc->intern) {
        doc->alloc.free(doc->alloc.ctx, doc->intern, (size_t)doc->intern_cap * sizeof *doc->intern);
    }
    sv_alloc a = doc->alloc;
    a.free(a.ctx, doc, sizeof *doc);
}

/* The regular chunks are the series FIRST, 2 FIRST, ... MAX, MAX, ... in the
 * order they were made, so keeping a prefix of them and handing it out again
 * in the same order gives the next decode the same chunks it would have
 * asked the allocator for: its sv_doc_allocated and its limits behave as in
 * a new document, only without fresh pages (whose first touches are what a
 * decode into new memory spends its system time on). Chunks of a single
 * block are freed: their sizes are the old document's. */
void sv_doc_reset(sv_doc *doc)
{
    if (!doc) return;
    /* The regular chunks in use, newest first: reversed onto the spare list
     * that is left (larger chunks the last decode did not reach). */
    sv_chunk *spare = doc->spare, *c = doc->chunk;
    while (c) {
        sv_chunk *prev = c->prev;
        if (c->regular) {
            c->prev = spare;
            spare = c;
        } else {
            doc->alloc.free(doc->alloc.ctx, c, c->size);
        }
        c = prev;
    }
    /* Keep the first doc->keep bytes of them. */
    uint64_t kept = 0;
    sv_chunk **link = &spare;
    while (*link && (*link)->size <= doc->keep - kept) {
        kept += (*link)->size;
        link = &(*link)->prev;
    }
    free_chunks(doc, *link);
    *link = NULL;
    if (doc->intern) {
        doc->alloc.free(doc->alloc.ctx, doc->intern, (size_t)doc->intern_cap * sizeof *doc->intern);
    }
    doc->spare = spare;
    doc->chunk = NULL;
    doc->cur = doc->end = doc->last = doc->cur_oversized = NULL;
    doc->next_chunk = ARENA_FIRST_CHUNK;
    doc->allocated = 0;
    doc->status = SV_OK;
    doc->root = sv_null();
    doc->intern = NULL;
    doc->intern_cap = 0;
    doc->intern_count = 0;
}

sv_status sv_doc_set_reset_keep(sv_doc *doc, uint64_t max_bytes)
{
    if (!doc) return SV_ERR_USAGE;
    doc->keep = max_bytes;
    return SV_OK;
}

sv_status sv_doc_set_max_alloc(sv_doc *doc, uint64_t max_bytes)
{
    if (!doc) return SV_ERR_USAGE;
    doc->max_alloc = max_bytes ? max_bytes : SV_DEFAULT_MAX_ALLOC;
    return SV_OK;
}

uint64_t sv_doc_allocated(const sv_doc *doc)
{
    return doc ? doc->allocated : 0;
}

sv_status sv_doc_status(const sv_doc *doc)
{
    return doc ? doc->status : SV_ERR_USAGE;
}

sv_value *sv_doc_root(sv_doc *doc)
{
    return doc ? &doc->root : NULL;
}

sv_status sv_doc_set_root(sv_doc *doc, sv_value root)
{
    if (!doc) return SV_ERR_USAGE;
    /* A failed allocation may have left holes (nulls) in the tree: the root
     * a caller would then find would not be what was decoded. */
    if (doc->status != SV_OK) return doc->status;
    doc->root = root;
    return SV_OK;
}

/* The next kept regular chunk when it is the size asked for, counted
 * against max_alloc as a fresh one would be; NULL otherwise (the status is
 * set when the limit refuses it). */
static sv_chunk *take_spare(sv_doc *doc, size_t size)
{
    while (doc->spare && doc->spare->size < size) { /* not expected: the series is fixed */
        sv_chunk *c = doc->spare;
        doc->spare = c->prev;
        doc->alloc.free(doc->alloc.ctx, c, c->size);
    }
    sv_chunk *c = doc->spare;
    if (!c || c->size != size) return NULL;
    if (size > doc->max_alloc || doc->allocated > doc->max_alloc - size) {
        doc_fail(doc, SV_ERR_LIMIT);
        return NULL;
    }
    doc->spare = c->prev;
    doc->allocated += size;
    return c;
}

/* Adds a chunk with at least need usable bytes. A request larger than half the
 * regular chunk size gets a chunk of exactly its size, placed behind the
 * current chunk so the current chunk's free space is not lost. */
static bool arena_add_chunk(sv_doc *doc, size_t need)
{
    const size_t header = (sizeof(sv_chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    bool oversized = need > doc->next_chunk / 2;
    size_t size = oversized ? need + header : doc->next_chunk;
    if (size < need + header) return false; /* overflow */
    sv_chunk *c = oversized ? NULL : take_spare(doc, size);
    if (!c) {
        if (doc->status != SV_OK) return false;
        c = sv__core_doc_sys_alloc(doc, size);
        if (!c) return false;
        c->size = size;
        c->regular = !oversized;
        /* Big chunks of a big document: transparent huge pages. Measured
         * against plain faulting and MADV_POPULATE_WRITE (with and without
         * the hint) on the 2-core VM, kernel 6.18, serval-bench --runs 3,
         * fresh document per run, user + sys ms: resonite.bson-decode
         * 119+171 plain, 76+46 huge, 117+168 populate, 105+138 both;
         * godot.dicts.decode 75+41, 57+18, 83+37, 77+62; json.parse 92+80,
         * 87+27, 103+85, 105+135. Populating zeroes the whole chunk, the
         * unused end of the last one too (rss +51 MB on the BSON run). The
         * real cure is no fresh pages at all: sv_doc_reset. */
        sv__core_mem_hint_huge_pages(c, size, (size_t)4 << 20);
    }
    if (oversized && doc->chunk) {
        /* keep the current chunk current; hand out this block directly */
        c->prev = doc->chunk->prev;
        doc->chunk->prev = c;
        doc->last = NULL;
        doc->cur_oversized = (uint8_t *)c + header;
        return true;
    }
    c->prev = doc->chunk;
    doc->chunk = c;
    doc->cur = (uint8_t *)c + header;
    doc->end = (uint8_t *)c + size;
    doc->cur_oversized = NULL;
    if (!oversized && doc->next_chunk < ARENA_MAX_CHUNK) doc->next_chunk *= 2;
    return true;
}

void *sv_doc_alloc(sv_doc *doc, size_t size)
{
    if (!doc || doc->status != SV_OK) return NULL;
    if (size == 0) size = 1;
    if (size > SIZE_MAX - ARENA_ALIGN) {
        doc_fail(doc, SV_ERR_LIMIT);
        return NULL;
    }
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if ((size_t)(doc->end - doc->cur) < size) {
        if (!arena_add_chunk(doc, size)) {
            doc_fail(doc, SV_ERR_NOMEM);
            return NULL;
        }
        if (doc->cur_oversized) {
            void *p = doc->cur_oversized;
            doc->cur_oversized = NULL;
            return p;
        }
    }
    void *p = doc->cur;
    doc->last = doc->cur;
    doc->cur += size;
    return p;
}

void *sv_doc_realloc(sv_doc *doc, void *ptr, size_t old_size, size_t new_size)
{
    if (!doc || doc->status != SV_OK) return NULL;
    if (!ptr) return sv_doc_alloc(doc, new_size);
    size_t old_r = (old_size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (new_size <= old_r) return ptr;
    size_t new_r = (new_size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    /* The last block of the current chunk can grow in place. */
    if ((uint8_t *)ptr == doc->last && doc->last + old_r == doc->cur &&
        (size_t)(doc->end - doc->last) >= new_r) {
        doc->cur = doc->last + new_r;
        return ptr;
    }
    void *p = sv_doc_alloc(doc, new_size);
    if (p) memcpy(p, ptr, old_size);
    return p;
}
