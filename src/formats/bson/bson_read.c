/* BSON to the value tree (bson.h has the mapping).
 *
 * One pass from a pointer to an end, no callbacks: a document is checked
 * against the bytes that remain before anything is read from it (its int32
 * length must fit, and its last byte must be the 00 terminator), so every
 * element is then read against the document's own end. Children are
 * collected on two scratch stacks (pairs for documents, values for arrays)
 * and copied into the arena in one block when their document closes. Keys
 * go through a small direct-mapped cache in front of the document's intern
 * table, since a Resonite tree repeats a few dozen keys ("ID", "Data") tens
 * of thousands of times. Strings are copied into blocks carved from the
 * arena with a pointer bump (or, for input in the arena, point into it). */
#include <string.h>

#include "core/compiler.h"
#include "core/error_record.h"
#include "formats/bson/bson_opts.h"
#include "formats/bson/bson_reader.h"

/* ---- errors ---------------------------------------------------------------- */

SV_PRINTF(4, 5)
const uint8_t *sv__bson_br_fail(br *r, const uint8_t *at, sv_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(r->err, st, r->format, (uint64_t)(at - r->base), -1, fmt, ap);
    va_end(ap);
    return NULL;
}

const uint8_t *sv__bson_br_fail_alloc(br *r, const uint8_t *at)
{
    sv_status st = sv_doc_status(r->doc);
    if (st == SV_ERR_LIMIT)
        return sv__bson_br_fail(r, at, st, "the document would allocate more than %llu bytes",
                                (unsigned long long)r->max_alloc);
    return sv__bson_br_fail(r, at, SV_ERR_NOMEM, "out of memory");
}

/* ---- streaming input -------------------------------------------------------- */

/* Waits until the bytes before need are there. false: they never will be
 * (the producer stopped; its own error says why). */
SV_NOINLINE bool sv__bson_br_more(br *r, const uint8_t *need)
{
    if (!r->stream) return false;
    size_t have = r->stream->wait(r->stream->ctx, (size_t)(need - r->base));
    r->avail = r->base + have;
    return need <= r->avail;
}

const uint8_t *sv__bson_br_fail_stream(br *r, const uint8_t *at)
{
    return sv__bson_br_fail(r, at, SV_ERR_TRUNCATED, "the decompressed payload ends here");
}

/* The first 00 in [q, last), waiting for bytes as they come. */
static const uint8_t *find_nul(br *r, const uint8_t *q, const uint8_t *last)
{
    for (;;) {
        const uint8_t *lim = r->avail < last ? r->avail : last;
        const uint8_t *z = q < lim ? memchr(q, 0, (size_t)(lim - q)) : NULL;
        if (z || lim == last) return z;
        q = lim;
        if (!sv__bson_br_more(r, lim + 1)) return NULL;
    }
}

/* ---- memory ---------------------------------------------------------------- */

/* Grows a scratch stack (core/mem.h), recording the error. */
static bool grow(br *r, const uint8_t *at, void **buf, size_t *cap, size_t size, size_t need)
{
    sv_stack_grow g = {r->doc, &r->scratch, r->max_alloc, 256};
    sv_status st = sv__core_stack_grow_to(&g, buf, cap, size, need);
    if (st == SV_OK) return true;
    if (st == SV_ERR_NOMEM)
        sv__bson_br_fail(r, at, st, "out of memory");
    else
        sv__bson_br_fail(r, at, st, "the document would allocate more than %llu bytes",
                         (unsigned long long)r->max_alloc);
    return false;
}

/* 8-byte aligned room from the same blocks (containers). */
static inline void *bump_aligned(br *r, size_t n)
{
    return sv__core_bump_alloc(&r->bump, n);
}

/* A container of n items of item_size copied from items (sv__core_box_new's
 * layout, carved from the reader's blocks instead of one arena call each). */
static inline sv_container *make_box(br *r, const void *items, size_t n, size_t item_size)
{
    sv_container *box = bump_aligned(r, sizeof(sv_container) + n * item_size);
    if (!box) return NULL;
    /* the tree is written where the next boxes go (see PREFETCH_AHEAD): two
     * lines, as a box takes more than one on average (104 bytes for a
     * Resonite tree); 37 -> 35 ms against one line, while a second line of
     * the input gained nothing */
    PREFETCH_WRITE(box, PREFETCH_AHEAD);
    PREFETCH_WRITE(box, PREFETCH_AHEAD + 64);
    sv__core_box_init(box, n);
    /* most Resonite documents hold two pairs ({"ID", "Data"}): copied inline */
    size_t bytes = n * item_size;
    if (bytes == 2 * sizeof(sv_pair))
        memcpy(box + 1, items, 2 * sizeof(sv_pair));
    else if (bytes)
        memcpy(box + 1, items, bytes);
    return box;
}

/* ---- keys ------------------------------------------------------------------ */

/* Bit 7 of each byte that is 0 in v (exact for the lowest such byte, which
 * is all the key scan needs; little-endian). */
static inline uint64_t zero_bytes(uint64_t v)
{
    return (v - UINT64_C(0x0101010101010101)) & ~v & UINT64_C(0x8080808080808080);
}

/* The first 00 in [q, last), eight bytes at a time while there is room,
 * waiting for streamed bytes as find_nul does. */
static SV_ALWAYS_INLINE const uint8_t *find_nul_words(br *r, const uint8_t *q, const uint8_t *last)
{
    while ((size_t)(last - q) >= 8 && q + 8 <= r->avail) {
        uint64_t z = zero_bytes(sv__core_load64(q));
        if (z) return q + ((size_t)__builtin_ctzll(z) >> 3);
        q += 8;
    }
    return find_nul(r, q, last);
}

/* A key not in the cache (core/key_cache.h): checked, interned, cached. */
static bool key_miss(br *r, uint32_t h, const uint8_t *k, size_t n, uint64_t a, uint64_t b,
                     sv_value *out)
{
    if (!sv__core_utf8_valid(k, n)) {
        sv__bson_br_fail(r, k, SV_ERR_UTF8, "the key is not valid UTF-8");
        return false;
    }
    sv_value v = sv_str_intern(r->doc, (const char *)k, n);
    if (v.kind != SV_STRING) {
        sv__bson_br_fail_alloc(r, k);
        return false;
    }
    sv__core_key_put(r->cache, h, a, b, v.as.str, n);
    *out = v;
    return true;
}

/* key_miss through a local: the caller's key is then never in memory whose
 * address a call took, so it stays in registers until its pair is stored. */
static SV_ALWAYS_INLINE bool key_miss_into(br *r, uint32_t h, const uint8_t *k, size_t n,
                                           uint64_t a, uint64_t b, bval_out out)
{
    sv_value v;
    if (!key_miss(r, h, k, n, a, b, &v)) return false;
    bval_put(out, bval_of(v));
    return true;
}

/* The key at q, which must end (00) before last: its interned string in
 * *out, its length in *n. Returns the byte after its 00, NULL on failure. */
static SV_ALWAYS_INLINE const uint8_t *read_key(br *r, const uint8_t *q, const uint8_t *last,
                                                bool fast, bval_out out, size_t *n)
{
    /* When the whole document is there (fast), the 16 bytes may run past its
     * end into the bytes after it: they are input too (r->avail), and a key
     * whose 00 would be the document's own is sent to the careful path. */
    if (fast ? (size_t)(r->avail - q) >= 16 : (size_t)(last - q) >= 16 && ENSURE(r, q + 16)) {
        /* short keys, found and compared eight bytes at a time */
        uint64_t w0 = sv__core_load64le(q), z = zero_bytes(w0), a, b = 0;
        size_t len;
        if (z) {
            len = (size_t)__builtin_ctzll(z) >> 3;
            a = sv__core_key_keep(w0, len);
        } else {
            uint64_t w1 = sv__core_load64le(q + 8);
            z = zero_bytes(w1);
            if (!z) goto long_key;
            len = 8 + ((size_t)__builtin_ctzll(z) >> 3);
            a = w0;
            b = sv__core_key_keep(w1, len - 8);
        }
        if (fast && q + len >= last) goto long_key; /* runs into the document's 00 */
        uint32_t h = sv__core_key_hash(a, b, len, r->cache_mask);
        *n = len;
        const sv_key_slot *s = sv__core_key_find_short(r->cache, h, a, b, len);
        if (s) {
            bval_put(out, bval_ptr(SV_STRING, (uint32_t)len, s->str));
            return q + len + 1;
        }
        return key_miss_into(r, h, q, len, a, b, out) ? q + len + 1 : NULL;
    }
long_key:;
    const uint8_t *z = find_nul_words(r, q, last);
    if (!z) {
        if (r->avail < last) return sv__bson_br_fail_stream(r, r->avail);
        return sv__bson_br_fail(r, q, SV_ERR_TRUNCATED, "a key runs past the end of its document");
    }
    size_t len = (size_t)(z - q);
    uint64_t a, b;
    sv__core_key_words(q, len, false, &a, &b);
    uint32_t h = sv__core_key_hash(a, b, len, r->cache_mask);
    *n = len;
    const sv_key_slot *s = sv__core_key_find(r->cache, h, a, b, q, len);
    if (s) {
        bval_put(out, bval_ptr(SV_STRING, (uint32_t)len, s->str));
        return z + 1;
    }
    return key_miss_into(r, h, q, len, a, b, out) ? z + 1 : NULL;
}

/* The key at q when only checking: the same rules as read_key (it ends
 * with 00 before last, it is UTF-8) and the same errors, without interning.
 * Returns the byte after its 00, NULL on failure. */
static SV_ALWAYS_INLINE const uint8_t *check_key(br *r, const uint8_t *q, const uint8_t *last,
                                                 size_t *n)
{
    /* Keys of up to 7 bytes (nearly all: "ID", "Data", "Name"): found and
     * checked for ASCII in one word. The word may run past the document
     * into bytes after it that are there (input too); a key whose 00 is not
     * before last, or that is not ASCII, takes the general path below. */
    if ((size_t)(r->avail - q) >= 8) {
        uint64_t w = sv__core_load64le(q), z = zero_bytes(w);
        if (z) {
            size_t len = (size_t)__builtin_ctzll(z) >> 3;
            uint64_t below = len ? ~UINT64_C(0) >> (64 - 8 * len) : 0;
            if (q + len < last && !(w & below & UINT64_C(0x8080808080808080))) {
                *n = len;
                return q + len + 1;
            }
        }
    }
    const uint8_t *z = find_nul_words(r, q, last);
    if (!z) {
        if (r->avail < last) return sv__bson_br_fail_stream(r, r->avail);
        return sv__bson_br_fail(r, q, SV_ERR_TRUNCATED, "a key runs past the end of its document");
    }
    *n = (size_t)(z - q);
    if (!ascii_or_utf8(q, *n))
        return sv__bson_br_fail(r, q, SV_ERR_UTF8, "the key is not valid UTF-8");
    return z + 1;
}

/* Whether a double holds a whole number (or -0.0), NaN or an infinity.
 * Those are marked explicit, so the typed JSON writes them {"$f64": 1.0}:
 * JSON tools that print numbers through a double (jq 1.6 prints 1.0 as 1)
 * would otherwise turn them into integers, and the file's doubles into
 * int64s. NaN and infinities have only the "$f64" form, which reads back
 * explicit: marked so here, the tree is the same after a trip through it. */
static inline bool whole_double(uint64_t u)
{
    unsigned exp = (unsigned)(u >> 52) & 0x7FF;
    if (exp == 0x7FF) return true;        /* NaN, infinities */
    if (exp >= 1023 + 52) return true;    /* no fraction bits left */
    if (exp < 1023) return (u << 1) == 0; /* below 1: only zeros */
    return (u & ((UINT64_C(1) << (1075 - exp)) - 1)) == 0;
}

/* The payload word of a BOOL holding b (as.b, the rest of the word 0). */
static inline uint64_t bool_payload(uint8_t b)
{
    sv_value v = br_scalar(SV_BOOL, 0, 0, 0);
    v.as.b = b;
    return bval_of(v).u;
}

/* ---- elements ---------------------------------------------------------------- */

/* Every reader below takes fast: true when the whole enclosing document is
 * already there (always, unless a decompressor is still writing the input),
 * so that the waits for streamed bytes (ENSURE_F) compile away; and build:
 * false when only checking (sv_bson_validate), so that making values
 * compiles away while every check stays the same code. The documents are
 * read by four copies of the same code (read_body). */

static SV_ALWAYS_INLINE const uint8_t *read_value(br *r, unsigned type, const uint8_t *q,
                                                  const uint8_t *last, uint32_t depth, bool fast,
                                                  bool build, bval_out out);
static SV_ALWAYS_INLINE const uint8_t *read_doc(br *r, const uint8_t *p, const uint8_t *limit,
                                                uint32_t depth, bool is_array, bool in_whole,
                                                bool build, bval_out out);

static SV_ALWAYS_INLINE const uint8_t *read_string(br *r, const uint8_t *q, const uint8_t *last,
                                                   bool fast, bool build, bval_out out)
{
    const uint8_t *s = NULL;
    size_t n = 0;
    const uint8_t *next = read_string_bytes(r, q, last, fast, &s, &n);
    if (!next || !build) return next;
    unsigned tag = SV_TAG_NONE;
    if (r->urls && n > 1 && s[0] == '@') {
        if (s[1] != '@' || n == 2) tag = SV_TAG_URL;
        s++;
        n--;
    }
    if (r->in_arena) {
        /* BSON strings end with 00 in place, as tree strings must */
        bval_put(out, (bval){bval_head(SV_STRING, 0, 0, tag, (uint32_t)n), bval_ptr_word(s)});
    } else if (r->borrow) {
        bval_put(out, (bval){bval_head(SV_STRING, SV_F_BORROWED, 0, tag, (uint32_t)n),
                             bval_ptr_word(s)});
    } else {
        sv_value v;
        if (!copy_terminated(r, s, n, &v)) return sv__bson_br_fail_alloc(r, q);
        bval_put(out,
                 (bval){bval_head(SV_STRING, 0, 0, tag, (uint32_t)n), bval_ptr_word(v.as.str)});
    }
    return next;
}

static SV_ALWAYS_INLINE const uint8_t *read_value(br *r, unsigned type, const uint8_t *q,
                                                  const uint8_t *last, uint32_t depth, bool fast,
                                                  bool build, bval_out out)
{
    switch (type) {
    case BSON_DOUBLE: {
        if ((size_t)(last - q) < 8) return need(r, q, last, 8, "a double");
        if (!ENSURE_F(fast, r, q + 8)) return sv__bson_br_fail_stream(r, r->avail);
        uint64_t bits = sv__core_load_u64le(q);
        bval_put(out, (bval){bval_head(SV_FLOAT, whole_double(bits) ? SV_F_EXPLICIT : 0, 8, 0, 0),
                             bits});
        return q + 8;
    }
    case BSON_STRING: return read_string(r, q, last, fast, build, out);
    case BSON_DOCUMENT: return read_doc(r, q, last, depth + 1, false, fast, build, out);
    case BSON_ARRAY: return read_doc(r, q, last, depth + 1, true, fast, build, out);
    case BSON_BOOL:
        if (q >= last) return need(r, q, last, 1, "a bool");
        if (!ENSURE_F(fast, r, q + 1)) return sv__bson_br_fail_stream(r, r->avail);
        if (*q > 1)
            return sv__bson_br_fail(r, q, SV_ERR_SYNTAX, "a bool must be 00 or 01, not %02x", *q);
        bval_put(out, (bval){bval_head(SV_BOOL, 0, 0, 0, 0), bool_payload(*q)});
        return q + 1;
    case BSON_NULL: bval_put(out, (bval){bval_head(SV_NULL, 0, 0, 0, 0), 0}); return q;
    case BSON_INT32: {
        if ((size_t)(last - q) < 4) return need(r, q, last, 4, "an int32");
        if (!ENSURE_F(fast, r, q + 4)) return sv__bson_br_fail_stream(r, r->avail);
        bval_put(out, (bval){bval_head(SV_INT, SV_F_EXPLICIT, 4, 0, 0),
                             (uint64_t)(int64_t)(int32_t)sv__core_load_u32le(q)});
        return q + 4;
    }
    case BSON_INT64:
    case BSON_DATETIME: {
        if ((size_t)(last - q) < 8) return need(r, q, last, 8, "an int64");
        if (!ENSURE_F(fast, r, q + 8)) return sv__bson_br_fail_stream(r, r->avail);
        unsigned tag = type == BSON_DATETIME ? SV_TAG_DATETIME : SV_TAG_NONE;
        bval_put(out, (bval){bval_head(SV_INT, 0, 8, tag, 0), sv__core_load_u64le(q)});
        return q + 8;
    }
    default: {
        sv_value rare;
        const uint8_t *next = sv__bson_br_read_rare(r, type, q, last, depth, &rare);
        if (next) bval_put(out, bval_of(rare));
        return next;
    }
    }
}

/* ---- documents and arrays ------------------------------------------------------ */

/* The meta of an array whose keys are not "0", "1", ...: the ARRAY of its
 * keys as they are, so the writer gives back the same bytes (Newtonsoft's
 * reader does not check array keys, spec resonite A.4). Built on the first
 * key that differs: the earlier ones were the canonical ones. */
static bool array_keys_meta(br *r, const uint8_t *first, const uint8_t *last, sv_value *arr)
{
    /* Walk the array again: every element was checked by the first pass,
     * and all of it is there (fast). */
    size_t n = arr->len, i = 0;
    sv_value keys = sv_array(r->doc, n);
    if (keys.kind != SV_ARRAY) return false;
    sv_value *items = sv__core_items(keys.as.box);
    const uint8_t *q = first;
    while (q < last && i < n) {
        unsigned type = *q++;
        size_t klen = 0;
        bval key;
        q = read_key(r, q, last, true, BVAL_OUT(key), &klen);
        if (!q) return false;
        items[i] = bval_value(key);
        /* skip the value: read it again into a throwaway (cheap: rare path) */
        bval tmp;
        q = read_value(r, type, q, last, 0, true, true, BVAL_OUT(tmp));
        if (!q) return false;
        i++;
    }
    return sv_meta_set(r->doc, arr, keys) == SV_OK;
}

/* The eight copies of read_body (below): documents and arrays, whole or
 * streaming, building or checking. Not inlined: they are where the
 * recursion goes through. */
static SV_NOINLINE bval read_map_whole(br *r, const uint8_t *p, const uint8_t *last,
                                       uint32_t depth);
static SV_NOINLINE bval read_array_whole(br *r, const uint8_t *p, const uint8_t *last,
                                         uint32_t depth);
static SV_NOINLINE bval read_map_streaming(br *r, const uint8_t *p, const uint8_t *last,
                                           uint32_t depth);
static SV_NOINLINE bval read_array_streaming(br *r, const uint8_t *p, const uint8_t *last,
                                             uint32_t depth);
static SV_NOINLINE const uint8_t *check_map_whole(br *r, const uint8_t *p, const uint8_t *last,
                                                  uint32_t depth);
static SV_NOINLINE const uint8_t *check_array_whole(br *r, const uint8_t *p, const uint8_t *last,
                                                    uint32_t depth);
static SV_NOINLINE const uint8_t *check_map_streaming(br *r, const uint8_t *p, const uint8_t *last,
                                                      uint32_t depth);
static SV_NOINLINE const uint8_t *check_array_streaming(br *r, const uint8_t *p,
                                                        const uint8_t *last, uint32_t depth);

/* The elements of the document whose length is at p and whose 00 is at
 * last, then its container in *out. */
static SV_ALWAYS_INLINE const uint8_t *read_body(br *r, const uint8_t *p, const uint8_t *last,
                                                 uint32_t depth, bool is_array, bool fast,
                                                 bool build, bval_out out)
{
    const uint8_t *q = p + 4;
    size_t mark = is_array ? r->nitems : r->npairs;
    size_t index = 0; /* of the element being read, for an error's path */
    index_key idx = {{'0'}, 1};
    bool keyed = false; /* an array key was not its index */
    while (q < last) {
        const uint8_t *elem = q;
        /* Checking a stream: nothing before this element is read again
         * (a document that is all there is read within its own bytes). */
        if (!build && !fast && r->low)
            atomic_store_explicit(r->low, (size_t)(elem - r->base), memory_order_release);
        if (!ENSURE_F(fast, r, q + 1)) return sv__bson_br_fail_stream(r, r->avail);
        unsigned type = *q++;
        if (SV_UNLIKELY(!bson_type_known(type))) {
            if (type == 0)
                return sv__bson_br_fail(r, elem, SV_ERR_SYNTAX,
                                        "00 ends the document %zu bytes before its length",
                                        (size_t)(last - elem));
            return sv__bson_br_fail(r, elem, SV_ERR_SYNTAX, "unknown BSON element type 0x%02x",
                                    type);
        }
        /* the element's value and key, as plain scalars (see bval) */
        uint64_t vh = 0, vu = 0;
        const bval_out v = {&vh, &vu};
        if (is_array) {
            /* the key is nearly always its index: compared, not interned */
            const uint8_t *key = q;
            if (!keyed && (size_t)(last - q) > idx.len && ENSURE_F(fast, r, q + idx.len + 1) &&
                q[idx.len] == 0 && index_matches(&idx, q)) {
                q += idx.len + 1;
            } else {
                const uint8_t *z = find_nul(r, q, last);
                if (!z && r->avail < last) return sv__bson_br_fail_stream(r, r->avail);
                if (!z)
                    return sv__bson_br_fail(r, q, SV_ERR_TRUNCATED,
                                            "a key runs past the end of its document");
                if (!sv__core_utf8_valid(q, (size_t)(z - q)))
                    return sv__bson_br_fail(r, key, SV_ERR_UTF8, "the key is not valid UTF-8");
                keyed = true;
                q = z + 1;
            }
            q = read_value(r, type, q, last, depth, fast, build, v);
            if (!q) {
                if (!r->low) sv_error_path_index(r->err, index);
                return NULL;
            }
            index++;
            index_next(&idx);
            if (!build) continue;
            if (r->nitems == r->cap_items &&
                !grow(r, elem, (void **)&r->items, &r->cap_items, sizeof(sv_value), r->nitems + 1))
                return NULL;
            bval_store(&r->items[r->nitems++], (bval){vh, vu});
        } else {
            uint64_t kh = 0, ku = 0;
            const bval_out k = {&kh, &ku};
            size_t klen = 0;
            const uint8_t *key = q;
            q = build ? read_key(r, q, last, fast, k, &klen) : check_key(r, q, last, &klen);
            if (!q) return NULL;
            q = read_value(r, type, q, last, depth, fast, build, v);
            if (!q) {
                if (!r->low) sv_error_path_key(r->err, (const char *)key, klen);
                return NULL;
            }
            if (!build) continue;
            if (r->npairs == r->cap_pairs &&
                !grow(r, elem, (void **)&r->pairs, &r->cap_pairs, sizeof(sv_pair), r->npairs + 1))
                return NULL;
            sv_pair *pr = &r->pairs[r->npairs++];
            bval_store(&pr->key, (bval){kh, ku});
            bval_store(&pr->val, (bval){vh, vu});
        }
    }
    if (!fast) {
        /* (a whole document's 00 was checked before its elements) */
        if (!ENSURE(r, last + 1)) return sv__bson_br_fail_stream(r, r->avail);
        if (*last != 0)
            return sv__bson_br_fail(r, last, SV_ERR_SYNTAX, "the document does not end with 00");
    }
    if (!build) return last + 1;
    if (is_array) {
        size_t cnt = r->nitems - mark;
        sv_container *box = make_box(r, cnt ? r->items + mark : NULL, cnt, sizeof(sv_value));
        r->nitems = mark;
        if (!box) return sv__bson_br_fail_alloc(r, p);
        bval a = bval_ptr(SV_ARRAY, (uint32_t)cnt, box);
        if (keyed) {
            sv_value arr = bval_value(a);
            if (!array_keys_meta(r, p + 4, last, &arr)) return sv__bson_br_fail_alloc(r, p);
            a = bval_of(arr);
        }
        bval_put(out, a);
    } else {
        size_t cnt = r->npairs - mark;
        sv_container *box = make_box(r, cnt ? r->pairs + mark : NULL, cnt, sizeof(sv_pair));
        r->npairs = mark;
        if (!box) return sv__bson_br_fail_alloc(r, p);
        bval_put(out, bval_ptr(SV_MAP, (uint32_t)cnt, box));
    }
    return last + 1;
}

static SV_NOINLINE bval read_map_whole(br *r, const uint8_t *p, const uint8_t *last, uint32_t depth)
{
    bval v = {0, 0};
    if (!read_body(r, p, last, depth, false, true, true, BVAL_OUT(v))) v.head = 0;
    return v;
}
static SV_NOINLINE bval read_array_whole(br *r, const uint8_t *p, const uint8_t *last,
                                         uint32_t depth)
{
    bval v = {0, 0};
    if (!read_body(r, p, last, depth, true, true, true, BVAL_OUT(v))) v.head = 0;
    return v;
}
static SV_NOINLINE bval read_map_streaming(br *r, const uint8_t *p, const uint8_t *last,
                                           uint32_t depth)
{
    bval v = {0, 0};
    if (!read_body(r, p, last, depth, false, false, true, BVAL_OUT(v))) v.head = 0;
    return v;
}
static SV_NOINLINE bval read_array_streaming(br *r, const uint8_t *p, const uint8_t *last,
                                             uint32_t depth)
{
    bval v = {0, 0};
    if (!read_body(r, p, last, depth, true, false, true, BVAL_OUT(v))) v.head = 0;
    return v;
}
static SV_NOINLINE const uint8_t *check_map_whole(br *r, const uint8_t *p, const uint8_t *last,
                                                  uint32_t depth)
{
    bval unused;
    return read_body(r, p, last, depth, false, true, false, BVAL_OUT(unused));
}
static SV_NOINLINE const uint8_t *check_array_whole(br *r, const uint8_t *p, const uint8_t *last,
                                                    uint32_t depth)
{
    bval unused;
    return read_body(r, p, last, depth, true, true, false, BVAL_OUT(unused));
}
static SV_NOINLINE const uint8_t *check_map_streaming(br *r, const uint8_t *p, const uint8_t *last,
                                                      uint32_t depth)
{
    bval unused;
    return read_body(r, p, last, depth, false, false, false, BVAL_OUT(unused));
}
static SV_NOINLINE const uint8_t *check_array_streaming(br *r, const uint8_t *p,
                                                        const uint8_t *last, uint32_t depth)
{
    bval unused;
    return read_body(r, p, last, depth, true, false, false, BVAL_OUT(unused));
}

/* The document at p within limit. in_whole: limit is inside a document
 * that is all there, so this one is too (no waiting, no avail checks). */
static SV_ALWAYS_INLINE const uint8_t *read_doc(br *r, const uint8_t *p, const uint8_t *limit,
                                                uint32_t depth, bool is_array, bool in_whole,
                                                bool build, bval_out out)
{
    if (limit - p < 4)
        return sv__bson_br_fail(r, p, SV_ERR_TRUNCATED, "a document length needs 4 bytes");
    if (!ENSURE_F(in_whole, r, p + 4)) return sv__bson_br_fail_stream(r, r->avail);
    uint32_t n = sv__core_load_u32le(p);
    if (n < 5 || n > INT32_MAX)
        return sv__bson_br_fail(r, p, SV_ERR_SYNTAX, "document length %d is below the minimum of 5",
                                (int32_t)n);
    if (n > (size_t)(limit - p))
        return sv__bson_br_fail(r, p, SV_ERR_TRUNCATED,
                                "a document of %u bytes does not fit in the %zu bytes left", n,
                                (size_t)(limit - p));
    if (depth > r->max_depth)
        return sv__bson_br_fail(r, p, SV_ERR_DEPTH, "nesting deeper than %u", r->max_depth);
    const uint8_t *last = p + n - 1;
    PREFETCH_READ(p, PREFETCH_AHEAD);
    /* Checked first when the whole document is there (so hostile lengths
     * fail at once), at its end when it is still streaming in. */
    if (in_whole || last < r->avail) {
        if (*last != 0)
            return sv__bson_br_fail(r, last, SV_ERR_SYNTAX, "the document does not end with 00");
        if (!build)
            return is_array ? check_array_whole(r, p, last, depth)
                            : check_map_whole(r, p, last, depth);
        bval v = is_array ? read_array_whole(r, p, last, depth) : read_map_whole(r, p, last, depth);
        if (!v.head) return NULL;
        bval_put(out, v);
        return last + 1;
    }
    if (!build)
        return is_array ? check_array_streaming(r, p, last, depth)
                        : check_map_streaming(r, p, last, depth);
    bval v =
        is_array ? read_array_streaming(r, p, last, depth) : read_map_streaming(r, p, last, depth);
    if (!v.head) return NULL;
    bval_put(out, v);
    return last + 1;
}

const uint8_t *sv__bson_br_read_doc(br *r, const uint8_t *p, const uint8_t *limit, uint32_t depth,
                                    bool is_array, sv_value *out)
{
    bval v = {0, 0};
    *out = sv_null();
    if (r->check) return read_doc(r, p, limit, depth, is_array, false, false, BVAL_OUT(v));
    const uint8_t *next = read_doc(r, p, limit, depth, is_array, false, true, BVAL_OUT(v));
    if (next) *out = bval_value(v);
    return next;
}

br *sv__bson_br_open(sv_doc *doc, const uint8_t *data, size_t len, const sv_bson_opts *caller_opts,
                     bool in_arena, bool check, const sv__bson_stream *stream, sv_error *err,
                     size_t *size_out, sv_status *st)
{
    sv_bson_opts opts;
    sv_status ost = sv__bson_opts_read(&opts, caller_opts, err);
    *st = ost;
    if (ost != SV_OK) return NULL;
    sv_limits lim = sv_limits_resolve(&opts.limits);
    const char *format = opts.format ? opts.format : "bson";
    if (!check && !doc) {
        *st = sv_error_set(err, SV_ERR_USAGE, format, 0, "no document");
        return NULL;
    }
    /* checking needs no key cache (nothing is interned): the state is small */
    size_t slots = KEY_CACHE_MIN;
    while (slots < KEY_CACHE && slots * KEY_CACHE_BYTES < len) slots *= 2;
    const size_t size = offsetof(br, cache) + (check ? 0 : slots * sizeof(sv_key_slot));
    const sv_alloc *a = check ? sv_alloc_libc() : &doc->alloc;
    br *r = check ? a->malloc(a->ctx, size) : sv__core_doc_sys_alloc(doc, size);
    if (!r) {
        *st = sv_error_set(err, SV_ERR_NOMEM, format, 0, "out of memory");
        return NULL;
    }
    *size_out = size;
    memset(r, 0, size);
    r->doc = doc;
    r->check = check;
    if (!check) sv__core_bump_init_sized(&r->bump, doc, BUMP_FIRST, BUMP_MAX);
    r->base = data ? data : (const uint8_t *)"";
    r->err = err;
    r->format = format;
    r->max_depth = lim.max_depth < BSON_MAX_NESTING ? lim.max_depth : BSON_MAX_NESTING;
    r->max_string = lim.max_string;
    r->max_alloc = lim.max_alloc;
    r->urls = opts.resonite_urls;
    r->in_arena = in_arena;
    r->borrow = !in_arena && opts.borrow_input;
    r->stream = stream;
    r->avail = r->base + (stream ? stream->start : len);
    r->low = check && stream ? stream->low : NULL;
    if (!check) {
        r->cache_mask = (uint32_t)slots - 1;
        sv__core_key_cache_init(r->cache, slots);
        sv_doc_set_max_alloc(doc, lim.max_alloc);
    }
    return r;
}

void sv__bson_br_close(br *r, size_t size)
{
    if (r->check) {
        const sv_alloc *a = sv_alloc_libc();
        a->free(a->ctx, r, size);
        return;
    }
    const sv_alloc *a = &r->doc->alloc;
    if (r->pairs) a->free(a->ctx, r->pairs, r->cap_pairs * sizeof(sv_pair));
    if (r->items) a->free(a->ctx, r->items, r->cap_items * sizeof(sv_value));
    sv__core_doc_sys_free(r->doc, r, size);
}

const uint8_t *sv__bson_br_read_element(br *r, unsigned type, const uint8_t *q, const uint8_t *last,
                                        uint32_t depth, sv_value *out)
{
    bval v = {0, 0};
    const uint8_t *next = read_value(r, type, q, last, depth, true, true, BVAL_OUT(v));
    if (next) *out = bval_value(v);
    return next;
}

const uint8_t *sv__bson_br_read_key(br *r, const uint8_t *q, const uint8_t *last, sv_value *out)
{
    size_t n;
    bval k = {0, 0};
    const uint8_t *next = read_key(r, q, last, true, BVAL_OUT(k), &n);
    if (next) *out = bval_value(k);
    return next;
}

/* Decodes into doc, or only checks (check: sv_bson_validate, which
 * allocates nothing but the reader's own state; doc is NULL) the document
 * at data. */
static sv_status bson_read(sv_doc *doc, const uint8_t *data, size_t len,
                           const sv_bson_opts *caller_opts, bool in_arena, bool check,
                           const sv__bson_stream *stream, sv_value *out, sv_error *err)
{
    *out = sv_null();
    size_t size = 0;
    sv_status ost;
    br *r =
        sv__bson_br_open(doc, data, len, caller_opts, in_arena, check, stream, err, &size, &ost);
    if (!r) return ost;

    sv_status st = SV_OK;
    sv_value root;
    const uint8_t *end = r->base + len;
    const uint8_t *next = sv__bson_br_read_doc(r, r->base, end, 1, false, &root);
    if (!next) {
        st = err && err->status != SV_OK ? err->status : SV_ERR_SYNTAX;
    } else if (next != end) {
        sv__bson_br_fail(r, next, SV_ERR_TRAILING, "%zu bytes after the document",
                         (size_t)(end - next));
        st = SV_ERR_TRAILING;
    } else if (!check) {
        *out = root;
    }
    sv__bson_br_close(r, size);
    return st;
}

sv_status sv_bson_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_bson_opts *opts,
                         sv_value *out, sv_error *err)
{
    return bson_read(doc, data, len, opts, false, false, NULL, out, err);
}

sv_status sv__bson_decode_in_arena(sv_doc *doc, const uint8_t *data, size_t len,
                                   const sv_bson_opts *opts, const sv__bson_stream *stream,
                                   sv_value *out, sv_error *err)
{
    return bson_read(doc, data, len, opts, true, false, stream, out, err);
}

sv_status sv__bson_check(const uint8_t *data, size_t len, const sv_bson_opts *opts,
                         const sv__bson_stream *stream, sv_error *err)
{
    sv_value unused;
    return bson_read(NULL, data, len, opts, false, true, stream, &unused, err);
}

sv_status sv_bson_validate(const uint8_t *data, size_t len, const sv_bson_opts *opts, sv_error *err)
{
    return sv__bson_check(data, len, opts, NULL, err);
}
