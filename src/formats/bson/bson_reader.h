/* The BSON reader's state and the helpers its files share (internal):
 * bson_read.c is the reader (bson.h has the mapping, that file says how it
 * goes), bson_read_rare.c the element types Resonite never writes. */
#ifndef SV_FORMATS_BSON_READER_H
#define SV_FORMATS_BSON_READER_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "core/bump.h"
#include "core/byteio.h"
#include "core/compiler.h"
#include "core/doc_internal.h"
#include "core/key_cache.h"
#include "core/mem.h"
#include "core/value_internal.h"
#include "formats/bson/bson_internal.h"

/* Key cache slots: up to KEY_CACHE, fewer for a small document (one
 * slot per KEY_CACHE_BYTES of input, at least KEY_CACHE_MIN), since the
 * cache is set up again for every document of a stream. */
#define KEY_CACHE 2048u
#define KEY_CACHE_MIN 64u
#define KEY_CACHE_BYTES 16u

#define BUMP_FIRST 4096u
#define BUMP_MAX (256u * 1024u)

/* How far ahead of the document being read, and of the box being written,
 * the reader asks for the bytes it will touch next. Both are walked in
 * order, yet a decode bigger than the caches waited on memory at each new
 * line (perf: the first load of a document's last byte and the stores of
 * its box were a third of the samples) and the hardware prefetchers of the
 * test VM did not hide it. On the 100 MB Resonite input (serval-bench
 * resonite.bson-decode, one reset document, CPU ms per decode): 48 without,
 * 44 with the box's, 37 with both; 1, 2 and 4 KiB ahead within 1 ms. */
#define PREFETCH_AHEAD 2048u

/* (through an integer: the address may be past the input, which a
 * prefetch may name but pointer arithmetic may not) */
#define PREFETCH_READ(p, ahead) SV_PREFETCH_READ((uintptr_t)(p) + (ahead))
#define PREFETCH_WRITE(p, ahead) SV_PREFETCH_WRITE((uintptr_t)(p) + (ahead))

typedef struct br {
    sv_doc *doc;
    const uint8_t *base;
    sv_error *err;
    const char *format;
    uint32_t max_depth;
    uint64_t max_string;
    uint64_t max_alloc;
    bool urls;
    bool in_arena; /* the input lives in the document: strings may point into it */
    bool borrow;   /* the input outlives the tree: strings point into it, borrowed */
    /* Checking only (sv_bson_validate): every rule is applied, no value is
     * made and nothing is allocated; doc is NULL. */
    bool check;
    /* Streaming (bson_embed.h): the input is still being written; bytes
     * before avail are there. Without a stream, avail is the input's end,
     * which every bounds check already keeps reads within. */
    const uint8_t *avail;
    const sv__bson_stream *stream;
    _Atomic size_t *low; /* stream->low (checking only), or NULL */
    sv_pair *pairs;
    size_t npairs, cap_pairs;
    sv_value *items;
    size_t nitems, cap_items;
    uint64_t scratch;    /* bytes of the stacks */
    sv_bump bump;        /* strings and containers (core/bump.h) */
    uint32_t cache_mask; /* slots in cache - 1 (a power of two) */
    sv_key_slot cache[]; /* core/key_cache.h */
} br;

/* ---- shared functions (bson_read.c, bson_read_rare.c) ---------------------- */

/* Records a failure at byte at (first one wins); returns NULL. */
const uint8_t *sv__bson_br_fail(br *r, const uint8_t *at, sv_status st, const char *fmt, ...)
    SV_PRINTF(4, 5);
/* An allocation failed: NOMEM, or LIMIT when the document's cap was hit. */
const uint8_t *sv__bson_br_fail_alloc(br *r, const uint8_t *at);
/* Streamed input ended before at. */
const uint8_t *sv__bson_br_fail_stream(br *r, const uint8_t *at);
/* Waits until the bytes before need are there (streaming); false when they
 * never will be. */
bool sv__bson_br_more(br *r, const uint8_t *need);
#define ENSURE(r, ptr) ((ptr) <= (r)->avail || sv__bson_br_more((r), (ptr)))
/* ENSURE, known true at compile time when fast (the whole document is
 * there). */
#define ENSURE_F(fast, r, ptr) ((fast) || ENSURE(r, ptr))
/* The document at p (its length first), within limit. */
const uint8_t *sv__bson_br_read_doc(br *r, const uint8_t *p, const uint8_t *limit, uint32_t depth,
                                    bool is_array, sv_value *out);
/* The element types no Resonite file has (bson_read_rare.c). */
const uint8_t *sv__bson_br_read_rare(br *r, unsigned type, const uint8_t *q, const uint8_t *last,
                                     uint32_t depth, sv_value *out);

/* The reader of one document at data (bson_read.c): check, doc NULL, only
 * checks; *size gets what sv__bson_br_close frees. NULL with *st (and err) on
 * a failure. */
br *sv__bson_br_open(sv_doc *doc, const uint8_t *data, size_t len, const sv_bson_opts *opts,
                     bool in_arena, bool check, const sv__bson_stream *stream, sv_error *err,
                     size_t *size, sv_status *st);
void sv__bson_br_close(br *r, size_t size);
/* For the streaming decoder (bson_visit.c), in a whole document: the value
 * of an element of the given type (not a document or an array: those are
 * read into a tree) and a document key, as the tree reader reads them. */
const uint8_t *sv__bson_br_read_element(br *r, unsigned type, const uint8_t *q, const uint8_t *last,
                                        uint32_t depth, sv_value *out);
const uint8_t *sv__bson_br_read_key(br *r, const uint8_t *q, const uint8_t *last, sv_value *out);

/* ---- shared inline helpers -------------------------------------------------- */

static inline bool bson_type_known(unsigned t)
{
    return (t >= BSON_DOUBLE && t <= BSON_DECIMAL128) || t == BSON_MAXKEY || t == BSON_MINKEY;
}

/* "0", "1", ... kept as text and counted up in place. */
typedef struct index_key {
    char d[12];
    uint32_t len;
} index_key;

static inline bool index_matches(const index_key *k, const uint8_t *q)
{
    for (uint32_t i = 0; i < k->len; i++)
        if (q[i] != (uint8_t)k->d[i]) return false;
    return true;
}

static inline void index_next(index_key *k)
{
    int i = (int)k->len - 1;
    while (i >= 0 && k->d[i] == '9') k->d[i--] = '0';
    if (i >= 0) {
        k->d[i]++;
    } else {
        memmove(k->d + 1, k->d, k->len);
        k->d[0] = '1';
        k->len++;
    }
}

static SV_ALWAYS_INLINE uint8_t *bump(br *r, size_t n)
{
    return sv__core_bump_bytes(&r->bump, n);
}

/* Values built in one go (sv__core_make zeroes, then sets bitfields one by one,
 * which compilers do not always merge; this is the reader's hottest store). */
static SV_ALWAYS_INLINE sv_value br_scalar(sv_kind kind, unsigned sub, unsigned flags, uint64_t u)
{
    sv_value v = {.kind = kind & 0xF, .flags = flags & 0xF, .sub = (uint8_t)sub, .as.u = u};
    return v;
}

static SV_ALWAYS_INLINE sv_value br_ptr(sv_kind kind, uint32_t len, const void *p)
{
    sv_value v = {.kind = kind & 0xF, .len = len, .as.data = p};
    return v;
}

/* A value as the reader's hot loop holds it: the two 8-byte words of an
 * sv_value (its head, kind to len, and its payload). A struct with
 * bitfields that the elements fill in field by field is kept by the
 * compiler in pieces, on the stack, and put together again for each pair;
 * two plain words stay in registers from the element to its pair. */
typedef struct bval {
    uint64_t head;
    uint64_t u;
} bval;

_Static_assert(sizeof(bval) == sizeof(sv_value), "bval is an sv_value's two words");
_Static_assert(offsetof(sv_value, as) == sizeof(uint64_t), "the payload is the second word");

/* The head word of a value with these fields: the layout is the
 * compiler's own (the fields are set on a real sv_value), and constant
 * arguments fold into a constant. */
static SV_ALWAYS_INLINE uint64_t bval_head(sv_kind kind, unsigned flags, unsigned sub, unsigned tag,
                                           uint32_t len)
{
    sv_value v = {.kind = kind & 0xF,
                  .flags = flags & 0xF,
                  .sub = (uint8_t)sub,
                  .tag = (uint16_t)tag,
                  .len = len};
    uint64_t h;
    memcpy(&h, &v, sizeof h);
    return h;
}

/* The payload word of a value pointing at p (set on a real sv_value too:
 * where a pointer sits in the word is the host's). */
static SV_ALWAYS_INLINE uint64_t bval_ptr_word(const void *p)
{
    sv_value v;
    memset(&v, 0, sizeof v); /* the word's other bytes, where a pointer is 4 */
    v.as.data = p;
    uint64_t u;
    memcpy(&u, (const uint8_t *)&v + offsetof(sv_value, as), sizeof u);
    return u;
}

static SV_ALWAYS_INLINE bval bval_ptr(sv_kind kind, uint32_t len, const void *p)
{
    bval v = {bval_head(kind, 0, 0, 0, len), bval_ptr_word(p)};
    return v;
}

static SV_ALWAYS_INLINE bval bval_of(sv_value v)
{
    bval w;
    memcpy(&w, &v, sizeof w);
    return w;
}

static SV_ALWAYS_INLINE sv_value bval_value(bval w)
{
    sv_value v;
    memcpy(&v, &w, sizeof v);
    return v;
}

/* Where an element's value goes: two words, which the hot loop keeps as
 * two scalars of its own (a struct would again be kept whole, on the
 * stack). */
typedef struct bval_out {
    uint64_t *head, *u;
} bval_out;

#define BVAL_OUT(w) ((bval_out){&(w).head, &(w).u})

static SV_ALWAYS_INLINE void bval_put(bval_out o, bval w)
{
    *o.head = w.head;
    *o.u = w.u;
}

/* Stores w as the sv_value at dst. */
static SV_ALWAYS_INLINE void bval_store(void *dst, bval w)
{
    memcpy(dst, &w.head, sizeof w.head);
    memcpy((uint8_t *)dst + sizeof w.head, &w.u, sizeof w.u);
}

/* n bytes (n >= 1) from s to d, short ones as two overlapping fixed-size
 * copies that the compiler makes into plain moves (most Resonite strings
 * are 36-byte GUIDs: a libc call costs more than the copy). */
static SV_ALWAYS_INLINE void copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 16 && n <= 64) {
        if (n <= 32) {
            memcpy(d, s, 16);
            memcpy(d + n - 16, s + n - 16, 16);
        } else {
            memcpy(d, s, 32);
            memcpy(d + n - 32, s + n - 32, 32);
        }
    } else if (n >= 8 && n < 16) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else {
        memcpy(d, s, n);
    }
}

/* A STRING (or BYTES) value holding a copy of s[0..n) and a NUL. */
static SV_ALWAYS_INLINE bool copy_blob(br *r, sv_kind kind, const uint8_t *s, size_t n,
                                       sv_value *out)
{
    if (r->check) {
        *out = sv_null(); /* checking: the value is never looked at */
        return true;
    }
    uint8_t *p = bump(r, n + 1);
    if (!p) return false;
    memcpy(p, s, n);
    p[n] = 0;
    *out = br_ptr(kind, (uint32_t)n, p);
    return true;
}

/* A STRING value holding a copy of s[0..n] where s[n] is already the 00
 * (a BSON string's own terminator is copied with it). */
static SV_ALWAYS_INLINE bool copy_terminated(br *r, const uint8_t *s, size_t n, sv_value *out)
{
    uint8_t *p = bump(r, n + 1);
    if (!p) return false;
    copy_short(p, s, n + 1);
    *out = br_ptr(SV_STRING, (uint32_t)n, p);
    return true;
}

static inline const uint8_t *need(br *r, const uint8_t *q, const uint8_t *last, size_t n,
                                  const char *what)
{
    if ((size_t)(last - q) >= n) return q;
    return sv__bson_br_fail(r, q, SV_ERR_TRUNCATED, "%s needs %zu bytes, its document has %zu left",
                            what, n, (size_t)(last - q));
}

/* ASCII (nearly every Resonite string: GUIDs, type names) is checked a word
 * at a time here; anything else goes to the full UTF-8 check. */
static SV_ALWAYS_INLINE bool ascii_or_utf8(const uint8_t *s, size_t n)
{
    uint64_t acc = 0;
    if (n >= 8 && n <= 32) {
        /* names and most short strings: a fixed number of overlapping words */
        acc = sv__core_load64(s) | sv__core_load64(s + n - 8);
        if (n > 16) acc |= sv__core_load64(s + 8) | sv__core_load64(s + n - 16);
    } else if (n > 32 && n <= 64) {
        /* GUIDs (36 bytes, a third of a Resonite tree's values): the first
         * and the last 32 bytes, which overlap, without a loop */
        acc = sv__core_load64(s) | sv__core_load64(s + 8) | sv__core_load64(s + 16) |
              sv__core_load64(s + 24) | sv__core_load64(s + n - 32) | sv__core_load64(s + n - 24) |
              sv__core_load64(s + n - 16) | sv__core_load64(s + n - 8);
    } else if (n > 64) {
        for (size_t i = 0; i + 8 <= n; i += 8) acc |= sv__core_load64(s + i);
        acc |= sv__core_load64(s + n - 8); /* the tail, overlapping */
    } else {
        for (size_t i = 0; i < n; i++) acc |= s[i];
    }
    return !(acc & UINT64_C(0x8080808080808080)) || sv__core_utf8_valid(s, n);
}

/* The bytes of a BSON string (int32 length incl. the NUL, bytes, 00) at q,
 * within last; *s and *n get the text. Returns the byte after it. */
static SV_ALWAYS_INLINE const uint8_t *read_string_bytes(br *r, const uint8_t *q,
                                                         const uint8_t *last, bool fast,
                                                         const uint8_t **s, size_t *n)
{
    if (last - q < 4)
        return sv__bson_br_fail(r, q, SV_ERR_TRUNCATED, "a string length needs 4 bytes");
    if (!ENSURE_F(fast, r, q + 4)) return sv__bson_br_fail_stream(r, r->avail);
    uint32_t len = sv__core_load_u32le(q);
    if (len == 0 || len > INT32_MAX)
        return sv__bson_br_fail(r, q, SV_ERR_SYNTAX, "string length %d is not positive",
                                (int32_t)len);
    if ((size_t)(last - q - 4) < len)
        return sv__bson_br_fail(
            r, q, SV_ERR_TRUNCATED,
            "a string of %u bytes does not fit in the %zu bytes its document has left", len,
            (size_t)(last - q - 4));
    if (len - 1 > r->max_string)
        return sv__bson_br_fail(r, q, SV_ERR_LIMIT,
                                "a string of %u bytes is over the limit of %llu", len - 1,
                                (unsigned long long)r->max_string);
    if (!ENSURE_F(fast, r, q + 4 + len)) return sv__bson_br_fail_stream(r, r->avail);
    if (q[4 + len - 1] != 0)
        return sv__bson_br_fail(r, q + 4 + len - 1, SV_ERR_SYNTAX,
                                "the string does not end with 00");
    if (!ascii_or_utf8(q + 4, len - 1))
        return sv__bson_br_fail(r, q + 4, SV_ERR_UTF8, "the string is not valid UTF-8");
    *s = q + 4;
    *n = len - 1;
    return q + 4 + len;
}

/* A string value, with the Resonite "@" convention when asked
 * (spec resonite A.5: "@x" is the URL x, "@@x" the string "@x", "@" the
 * string "@"). "@@" alone is never written by Resonite (it would be the
 * escaped form of "@", which is not escaped); it is read as the URL "@",
 * which is written back as "@@", so the bytes survive. */

#endif
