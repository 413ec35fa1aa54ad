/* .brson straight into the tree: Brotli decompression and BSON decoding at
 * the same time (whole worlds exceed 100 MB, docs/formats/resonite.md, and
 * the aim is end-to-end decoding within 1.2x of Brotli alone).
 *
 * The BSON document's first 4 bytes are its length. When that length is
 * plausible (within the decompressed-size limit and at most PLAUSIBLE_RATIO
 * times the compressed bytes), the whole BSON gets one block of the
 * document's arena: string values then point into it instead of being
 * copied, and, only when the caller allows a thread (threads=1), for large
 * payloads a second thread decompresses into the block while this one
 * decodes the BSON behind it (sv__bson_stream). Anything else
 * (a length the input does not justify: a possible bomb) is left to the
 * general path, which grows its buffer only as bytes really come out. */
#if defined(__linux__)
#define _GNU_SOURCE /* madvise, mremap */
#include <sys/mman.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"
#include "formats/bson/bson_embed.h"
#include "formats/resonite/resonite_internal.h"

/* Brotli on these trees compresses 13-15x (spec A.8 samples, the bench
 * input); a claim far beyond what the input can justify is not trusted with
 * an up-front allocation. */
#define PLAUSIBLE_RATIO 64u
/* Below this, a thread costs more than it saves. */
#define PIPE_MIN (1u << 20)
/* Bytes the producer decompresses between two hand-overs. */
#define PIPE_CHUNK (256u * 1024u)
/* While the reader waits for the producer, it faults in the payload pages
 * the producer will write next, PREFAULT_STEP at a time and at most
 * PREFAULT_AHEAD beyond what is written, so the producer (the critical
 * path: Brotli is slower than the BSON reader) does not stop for them. */
#define PREFAULT_STEP ((size_t)2 << 20)
#define PREFAULT_AHEAD ((size_t)32 << 20)
/* Reusing memory while checking (below): the payload bytes that are fresh
 * memory whatever the checker does, faulted in by the checker. */
#define WINDOW_FRESH ((size_t)4 << 20)

typedef struct pipe_state {
    sv_brotli_stream *dec;
    const uint8_t *in, *next_in;
    size_t in_len, avail_in;
    const sv_decomp *d;
    uint8_t *buf;
    size_t n;                /* the exact size the BSON length gives */
    _Atomic size_t produced; /* bytes of buf written */
    atomic_bool cancel;
    size_t faulted; /* the reader's: bytes of buf it has faulted in */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done;    /* under mu */
    sv_status st; /* the producer's result */
    sv_error err;
    /* Checking with reuse (window_*): the checker's low mark, the next
     * block to move away from behind it and the next block ahead to fill. */
    bool window;
    _Atomic size_t low;
    size_t next_src, next_dest;
} pipe_state;

/* ---- reuse of the payload's memory while checking -------------------------
 *
 * A check reads each byte once, front to back, so the memory behind it can
 * take the bytes ahead: whole 2 MiB blocks the checker has passed (its low
 * mark, sv__bson_stream.low) are moved, page tables and all, onto the next
 * blocks the producer will write (mremap: no copy, no zeroing). A 120 MB
 * payload then costs a few MiB of fresh pages instead of 120 MB of them,
 * whose zeroing alone took longer than the decompression. When the checker
 * lags (a long string), the producer simply writes into fresh pages.
 *
 * Both threads prepare blocks, under the pipe's mutex, always the next one
 * not yet prepared (the producer writes only into prepared blocks): the
 * checker while it waits for bytes (it is faster, and the moves then cost
 * the critical path nothing), the producer when it reaches a block the
 * checker has not prepared. */
#if defined(__linux__) && defined(MREMAP_FIXED)
#define WINDOW_BLOCK ((size_t)2 << 20)

/* Whether the next block behind the checker's low mark can be moved. */
static bool window_passed(const pipe_state *ps, size_t low)
{
    return ps->next_src < ps->next_dest && (ps->next_src + 1) * WINDOW_BLOCK <= low;
}

/* Prepares the next block: a passed one moved there, when reuse is true
 * and there is one; else it stays fresh memory. Under the mutex. */
static void window_next(pipe_state *ps, bool reuse)
{
    if (reuse) {
        uint8_t *src = ps->buf + ps->next_src * WINDOW_BLOCK;
        uint8_t *dst = ps->buf + ps->next_dest * WINDOW_BLOCK;
        /* on failure nothing moved: dst stays fresh memory */
        (void)mremap(src, WINDOW_BLOCK, WINDOW_BLOCK, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
        ps->next_src++;
    }
    ps->next_dest++;
}

/* The producer's: every block of [0, upto) prepared before it writes
 * there. Under the mutex. */
static void window_prepare(pipe_state *ps, size_t upto)
{
    size_t low = atomic_load_explicit(&ps->low, memory_order_acquire);
    while (ps->next_dest * WINDOW_BLOCK < upto && ps->next_dest * WINDOW_BLOCK < ps->n)
        window_next(ps, window_passed(ps, low));
}

/* The checker's, while it waits: every block it has passed moved ahead.
 * Under the mutex. */
static void window_recycle(pipe_state *ps)
{
    size_t low = atomic_load_explicit(&ps->low, memory_order_relaxed);
    while (ps->next_dest * WINDOW_BLOCK < ps->n && window_passed(ps, low)) window_next(ps, true);
}

/* n bytes of address space, WINDOW_BLOCK-aligned, or NULL; *map and
 * *map_len are what window_free gives back. */
static uint8_t *window_alloc(size_t n, void **map, size_t *map_len)
{
    size_t len = (n + WINDOW_BLOCK - 1) / WINDOW_BLOCK * WINDOW_BLOCK + WINDOW_BLOCK;
    void *p =
        mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *map = p;
    *map_len = len;
    uintptr_t a = ((uintptr_t)p + WINDOW_BLOCK - 1) & ~(uintptr_t)(WINDOW_BLOCK - 1);
    sv__core_mem_hint_huge_pages((void *)a, len - WINDOW_BLOCK, WINDOW_BLOCK);
    return (uint8_t *)a;
}

static void window_free(void *map, size_t map_len)
{
    munmap(map, map_len);
}
#define WINDOW_OK true
#else
static void window_prepare(pipe_state *ps, size_t upto)
{
    (void)ps;
    (void)upto;
}
static void window_recycle(pipe_state *ps)
{
    (void)ps;
}
static uint8_t *window_alloc(size_t n, void **map, size_t *map_len)
{
    (void)n;
    (void)map;
    (void)map_len;
    return NULL;
}
static void window_free(void *map, size_t map_len)
{
    (void)map;
    (void)map_len;
}
#define WINDOW_OK false
#endif

static uint64_t in_at(const pipe_state *ps)
{
    return ps->d->base + (uint64_t)(ps->in_len - ps->avail_in);
}

/* Decompresses up to PIPE_CHUNK more bytes. Returns false when finished
 * (ps->st says how). */
static bool produce_some(pipe_state *ps)
{
    size_t have = atomic_load_explicit(&ps->produced, memory_order_relaxed);
    uint8_t probe;
    size_t room = ps->n - have < PIPE_CHUNK ? ps->n - have : PIPE_CHUNK;
    uint8_t *next_out = room ? ps->buf + have : &probe;
    size_t avail_out = room ? room : 1, before = avail_out;
    if (ps->window) {
        pthread_mutex_lock(&ps->mu);
        window_prepare(ps, have + room);
        pthread_mutex_unlock(&ps->mu);
    }
    sv_brotli_result r = sv__compress_brotli_stream_step(ps->dec, &ps->next_in, &ps->avail_in,
                                                         &next_out, &avail_out);
    if (!room && avail_out != before) {
        ps->st = sv_error_set(&ps->err, SV_ERR_TRAILING, ps->d->format, in_at(ps),
                              "the decompressed payload is longer than the %zu bytes its BSON "
                              "length says",
                              ps->n);
        return false;
    }
    if (room)
        atomic_store_explicit(&ps->produced, have + (before - avail_out), memory_order_release);
    switch (r) {
    case SV_BROTLI_DONE:
        have = atomic_load_explicit(&ps->produced, memory_order_relaxed);
        if (have != ps->n)
            ps->st = sv_error_set(&ps->err, SV_ERR_TRUNCATED, ps->d->format, in_at(ps),
                                  "the decompressed payload has %zu bytes, its BSON length "
                                  "says %zu",
                                  have, ps->n);
        else if (ps->avail_in)
            ps->st = sv_error_set(&ps->err, SV_ERR_TRAILING, ps->d->format, in_at(ps),
                                  "%zu bytes after the end of the Brotli stream", ps->avail_in);
        return false;
    case SV_BROTLI_BAD:
        ps->st =
            sv_error_set(&ps->err, SV_ERR_SYNTAX, ps->d->format, in_at(ps),
                         "invalid Brotli stream: %s", sv__compress_brotli_stream_error(ps->dec));
        return false;
    case SV_BROTLI_NOMEM:
        ps->st = sv_error_set(&ps->err, SV_ERR_NOMEM, ps->d->format, in_at(ps), "out of memory");
        return false;
    case SV_BROTLI_MORE_INPUT:
        ps->st = sv_error_set(&ps->err, SV_ERR_TRUNCATED, ps->d->format, in_at(ps),
                              "the Brotli stream ends too early");
        return false;
    default: return true; /* needs more output: go on */
    }
}

static void *producer(void *arg)
{
    pipe_state *ps = arg;
    while (!atomic_load_explicit(&ps->cancel, memory_order_relaxed) && produce_some(ps)) {
        pthread_mutex_lock(&ps->mu);
        pthread_cond_broadcast(&ps->cv);
        pthread_mutex_unlock(&ps->mu);
    }
    pthread_mutex_lock(&ps->mu);
    ps->done = true;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
    return NULL;
}

/* Faults in the next PREFAULT_STEP of buf ahead of have, if that is within
 * PREFAULT_AHEAD; false when there is nothing (more) to do. The pages'
 * contents are not touched (MADV_POPULATE_WRITE, Linux 5.14), so this may
 * overlap the producer's writes; elsewhere it does nothing. */
static bool prefault_some(pipe_state *ps, size_t have)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = 4096;
    if (ps->faulted < have) ps->faulted = have;
    if (ps->faulted >= ps->n || ps->faulted - have >= PREFAULT_AHEAD) return false;
    size_t len = ps->n - ps->faulted < PREFAULT_STEP ? ps->n - ps->faulted : PREFAULT_STEP;
    uintptr_t start = ((uintptr_t)ps->buf + ps->faulted) & ~(page - 1);
    uintptr_t end = ((uintptr_t)ps->buf + ps->faulted + len) & ~(page - 1);
    ps->faulted += len;
    if (end > start && madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0)
        ps->faulted = ps->n; /* not supported here: stop trying */
    return true;
#else
    (void)ps;
    (void)have;
    return false;
#endif
}

static size_t pipe_wait(void *ctx, size_t need)
{
    pipe_state *ps = ctx;
    size_t have = atomic_load_explicit(&ps->produced, memory_order_acquire);
    if (have >= need) return have;
    /* the producer is behind: use the wait to fault in its next pages
     * (reusing memory, only the first few blocks, which are always fresh:
     * the checker has passed none yet) */
    while ((!ps->window || ps->faulted < WINDOW_FRESH) && prefault_some(ps, have)) {
        have = atomic_load_explicit(&ps->produced, memory_order_acquire);
        if (have >= need) return have;
    }
    pthread_mutex_lock(&ps->mu);
    if (ps->window) window_recycle(ps);
    while ((have = atomic_load_explicit(&ps->produced, memory_order_acquire)) < need && !ps->done)
        pthread_cond_wait(&ps->cv, &ps->mu);
    pthread_mutex_unlock(&ps->mu);
    return have;
}

/* The first SV_DECOMP_HEAD output bytes (the BSON length and the first
 * element's type) into first. */
static sv_status read_prefix(pipe_state *ps, uint8_t first[SV_DECOMP_HEAD], sv_error *err)
{
    size_t got = 0;
    while (got < SV_DECOMP_HEAD) {
        uint8_t *next_out = first + got;
        size_t avail_out = SV_DECOMP_HEAD - got;
        sv_brotli_result r = sv__compress_brotli_stream_step(ps->dec, &ps->next_in, &ps->avail_in,
                                                             &next_out, &avail_out);
        got = SV_DECOMP_HEAD - avail_out;
        if (got == SV_DECOMP_HEAD) return SV_OK;
        if (r == SV_BROTLI_BAD)
            return sv_error_set(err, SV_ERR_SYNTAX, ps->d->format, in_at(ps),
                                "invalid Brotli stream: %s",
                                sv__compress_brotli_stream_error(ps->dec));
        if (r == SV_BROTLI_NOMEM)
            return sv_error_set(err, SV_ERR_NOMEM, ps->d->format, in_at(ps), "out of memory");
        if (r != SV_BROTLI_MORE_OUTPUT)
            return sv_error_set(err, SV_ERR_TRUNCATED, ps->d->format, in_at(ps),
                                "the Brotli stream ends before a BSON length");
    }
    return SV_OK;
}

/* What reads the BSON as it comes out: decoding into a tree, or checking. */
typedef sv_status (*bson_consumer)(void *ctx, const uint8_t *bson, size_t n,
                                   const sv__bson_stream *stream, sv_error *err);

/* Decompresses the payload into one block of the BSON's own length (from
 * doc's arena, or, doc NULL, from a and freed before returning) while
 * consume reads it. *handled false: the length is not plausible, use the
 * general path. */
static sv_status brotli_pipe(const sv_alloc *a, sv_doc *doc, const uint8_t *in, size_t len,
                             const sv_decomp *d, int threads, bool window, bson_consumer consume,
                             void *ctx, bool *handled, bool *reader_failed, sv_error *err)
{
    *reader_failed = false;
    void *map = NULL;
    size_t map_len = 0;
    *handled = false;
    pipe_state ps;
    memset(&ps, 0, sizeof ps);
    ps.in = ps.next_in = in;
    ps.in_len = ps.avail_in = len;
    ps.d = d;
    /* the decoder's memory comes from a (for a document, its allocator: not
     * counted in the document's size, it is freed before this returns) */
    ps.dec = sv__compress_brotli_stream_new(a);
    if (!ps.dec) return SV_OK; /* the general path reports it */
    uint8_t first[SV_DECOMP_HEAD];
    sv_status st = SV_OK;
    if (read_prefix(&ps, first, &ps.err) != SV_OK) goto general; /* same error there */
    /* a head that is no BSON root, or a length over a limit, is reported by
     * the general path, which stops at the same bytes */
    const char *why;
    uint64_t n = sv__resonite_rs_bson_head(first, &why);
    if (n == 0 || n > d->max_out || (d->max_alloc && n > d->max_alloc) ||
        n > (uint64_t)len * PLAUSIBLE_RATIO + 65536)
        goto general;
    *handled = true;
    ps.n = (size_t)n;
    /* memory to reuse only with a second thread to check behind it */
    ps.window = window && !doc && threads >= 1 && ps.n >= PIPE_MIN;
    if (ps.window) {
        ps.buf = window_alloc(ps.n, &map, &map_len);
        ps.window = ps.buf != NULL;
    }
    if (!ps.buf) ps.buf = doc ? sv_doc_alloc(doc, ps.n) : a->malloc(a->ctx, ps.n);
    if (!ps.buf) {
        bool limit = doc && sv_doc_status(doc) == SV_ERR_LIMIT;
        st = sv_error_set(err, limit ? SV_ERR_LIMIT : SV_ERR_NOMEM, d->format, d->base,
                          "no room for the %zu-byte payload", ps.n);
        goto done;
    }
    if (!doc && !ps.window) sv__core_mem_hint_huge_pages(ps.buf, ps.n, PIPE_MIN);
    memcpy(ps.buf, first, SV_DECOMP_HEAD);
    atomic_store(&ps.produced, SV_DECOMP_HEAD);
    sv_error perr;
    sv_error_clear(&perr);
    /* no thread unless the caller allowed one (sv_resonite_opts.threads) */
    if (threads < 1 || ps.n < PIPE_MIN || pthread_mutex_init(&ps.mu, NULL) != 0) {
        ps.window = false; /* (nothing checks behind the producer) */
        while (produce_some(&ps)) {
        }
        st = ps.st == SV_OK ? consume(ctx, ps.buf, ps.n, NULL, &perr) : ps.st;
    } else {
        pthread_t t;
        bool threaded = pthread_cond_init(&ps.cv, NULL) == 0;
        if (threaded && pthread_create(&t, NULL, producer, &ps) != 0) {
            pthread_cond_destroy(&ps.cv);
            threaded = false;
        }
        if (threaded) {
            sv__bson_stream stream = {pipe_wait, &ps, SV_DECOMP_HEAD, ps.window ? &ps.low : NULL};
            st = consume(ctx, ps.buf, ps.n, &stream, &perr);
            atomic_store(&ps.cancel, st != SV_OK);
            pthread_join(t, NULL);
            pthread_cond_destroy(&ps.cv);
        } else {
            ps.window = false;
            while (produce_some(&ps)) {
            }
            if (ps.st == SV_OK) st = consume(ctx, ps.buf, ps.n, NULL, &perr);
        }
        pthread_mutex_destroy(&ps.mu);
    }
    /* The producer's error is the cause when there is one (the reader then
     * only saw the bytes stop). */
    if (ps.st != SV_OK) {
        st = ps.st;
        if (err && err->status == SV_OK) *err = ps.err;
    } else if (st != SV_OK) {
        *reader_failed = true;
        sv__resonite_rs_note_bson_error(&perr);
        if (err && err->status == SV_OK) *err = perr;
    }
    if (map)
        window_free(map, map_len);
    else if (!doc)
        a->free(a->ctx, ps.buf, ps.n);
    goto done;
general:
    *handled = false;
done:
    sv__compress_brotli_stream_free(ps.dec);
    return st;
}

typedef struct tree_ctx {
    sv_doc *doc;
    const sv_bson_opts *bo;
    sv_value *out;
} tree_ctx;

static sv_status into_tree(void *ctx, const uint8_t *bson, size_t n, const sv__bson_stream *stream,
                           sv_error *err)
{
    tree_ctx *t = ctx;
    return sv__bson_decode_in_arena(t->doc, bson, n, t->bo, stream, t->out, err);
}

sv_status sv__resonite_rs_brotli_tree(sv_doc *doc, const uint8_t *in, size_t len,
                                      const sv_decomp *d, const sv_bson_opts *bo, int threads,
                                      sv_value *out, bool *handled, sv_error *err)
{
    tree_ctx t = {doc, bo, out};
    bool reader_failed;
    sv_status st = brotli_pipe(&doc->alloc, doc, in, len, d, threads, false, into_tree, &t, handled,
                               &reader_failed, err);
    if (st != SV_OK) *out = sv_null();
    return st;
}

static sv_status check_only(void *ctx, const uint8_t *bson, size_t n, const sv__bson_stream *stream,
                            sv_error *err)
{
    return sv__bson_check(bson, n, ctx, stream, err);
}

sv_status sv__resonite_rs_brotli_check(const uint8_t *in, size_t len, const sv_decomp *d,
                                       const sv_bson_opts *bo, int threads, bool *handled,
                                       sv_error *err)
{
    /* With reuse first; a failure found that way is checked again without
     * it, for the error's path (sv__bson_stream.low). */
    sv_error first;
    sv_error_clear(&first);
    bool reader_failed = false;
    sv_status st = brotli_pipe(sv_alloc_libc(), NULL, in, len, d, threads, WINDOW_OK, check_only,
                               (void *)bo, handled, &reader_failed, &first);
    if (st != SV_OK && reader_failed && WINDOW_OK && threads >= 1)
        return brotli_pipe(sv_alloc_libc(), NULL, in, len, d, threads, false, check_only,
                           (void *)bo, handled, &reader_failed, err);
    if (st != SV_OK && err && err->status == SV_OK) *err = first;
    return st;
}
