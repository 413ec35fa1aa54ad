/* The typed JSON writer's containers (docs/json.md): arrays, maps and
 * objects with their "$" forms, and the inline writing of their common items.
 *
 * Containers recurse; the depth is bounded (SV_JW_MAX_DEPTH) because a tree
 * built through the API can be arbitrarily deep. The loops keep the output
 * cursor in a local variable (a cursor), check the room with one compare
 * per item, and write the common items right there (write_item): untagged
 * finite float64s, int64s, short strings that need no escape, float32s,
 * narrow uints, bools and nulls, float32 tuples, short bytes, small arrays
 * of the first three (compact), and object keys from the key cache;
 * everything else is a call. Each loop exists twice, compact and
 * pretty (a constant parameter of an inline function), so that the compact
 * one has no layout tests. */
#include "core/base64.h"
#include "core/compiler.h"
#include "formats/json/json_write_internal.h"

#define SV_JW_MAX_DEPTH SV_MAX_DEPTH_LIMIT

#define LIT(s) s, sizeof(s) - 1

/* Room the inline paths of write_item may store into: the longest is a
 * float32 form, {"$f32": and a space (9), the number with its scratch bytes
 * (SV_FMT_F32_MAX) and '}'. */
#define FAST_ROOM (9 + SV_FMT_F32_MAX + 1)
_Static_assert(SV_FMT_F64_MAX <= FAST_ROOM && SV_FMT_INT_MAX <= FAST_ROOM &&
                   SV_JW_SHORT_ROOM <= FAST_ROOM,
               "every inline item fits FAST_ROOM");
_Static_assert(9 + SV_FMT_INT_MAX + 1 <= FAST_ROOM, "a narrow uint's form fits FAST_ROOM");
/* Room checked before an array item: its ',' and FAST_ROOM; before a
 * member: ',' and a remembered key (a constant-size copy) too. Pretty output
 * adds a newline, the indentation and its slack. */
#define ITEM_ROOM (1 + FAST_ROOM)
#define MEMBER_ROOM (1 + SV_JW_KEY_TEXT + FAST_ROOM)

/* A container loop's hold on the output: the cursor p, and lim, the last
 * position from which an item still has its room (room bytes) without a
 * check: one compare per item. lim is refreshed whenever the buffer may
 * have grown (after a call that wrote through w). */
typedef struct cursor {
    uint8_t *p;
    uintptr_t lim;
    size_t room;
} cursor;

static inline uintptr_t cursor_lim(const sv_jw *w, size_t room)
{
    uintptr_t end = (uintptr_t)w->end;
    return end >= room ? end - room : 0; /* (0: every item checks room_at) */
}

static inline cursor cursor_open(const sv_jw *w, size_t room)
{
    cursor c = {w->p, cursor_lim(w, room), room};
    return c;
}

/* At least n bytes at *pp, growing the buffer (and moving *pp with it)
 * when needed. false on failure. */
static inline bool room_at(sv_jw *w, uint8_t **pp, size_t n)
{
    if ((size_t)(w->end - *pp) >= n) return true;
    w->p = *pp;
    if (!sv__json_jw_grow(w, n)) return false;
    *pp = w->p;
    return true;
}

/* The per-item check: room bytes at c->p. */
static inline bool cursor_room(sv_jw *w, cursor *c)
{
    if ((uintptr_t)c->p <= c->lim) return true;
    if (!room_at(w, &c->p, c->room)) return false;
    c->lim = cursor_lim(w, c->room);
    return true;
}

/* Hands the output to a function that writes through w, and takes it back. */
static inline void cursor_lend(sv_jw *w, const cursor *c)
{
    w->p = c->p;
}

static inline void cursor_take(const sv_jw *w, cursor *c)
{
    c->p = w->p;
    c->lim = cursor_lim(w, c->room);
}

/* Calls fn (a writer named by the caller, so the call is direct once
 * inlined) on v with the output lent to it. */
static SV_ALWAYS_INLINE sv_status lend_call(sv_jw *w, cursor *c, const sv_value *v,
                                            sv_status (*fn)(sv_jw *, const sv_value *))
{
    cursor_lend(w, c);
    sv_status st = fn(w, v);
    cursor_take(w, c);
    return st;
}

/* ---- the common items, inline ----------------------------------------------- */

static inline bool f64_finite(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (bits & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
}

static inline bool f32_finite(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return (bits & 0x7f800000u) != 0x7f800000u;
}

/* The openings of the narrow uints, by width 1, 2, 4 (index width / 2),
 * padded with spaces: copied whole, the space kept when pretty. */
static const char uint_open[3][16] = {
    "{\"$u8\":        ", "{\"$u16\":       ", "{\"$u32\":       "};

/* Heads (sv__json_jw_head) of the values written inline. */
#define HEAD(kind, flags, sub, tag) sv__json_jw_head_of(kind, flags, sub, tag)

/* Room for a tuple of float32s written inline: its opening (copied whole),
 * a space, the brackets and '}', and per number its text with the
 * formatter's scratch bytes and a separator. */
#define F32_TUPLE_ROOM(n) (SV_JW_OPEN_MAX + 4 + (n) * (SV_FMT_F32_MAX + 2))

/* A tuple of finite float32s whose shape holds float32s (Vector2, Vector3,
 * Quaternion, Color, ...: the commonest tuples of game data), in typed mode,
 * with the room checked here: written at p as sv__json_jw_tuple would, and
 * the end returned. NULL, with nothing meaningful written, for any other
 * tuple (a malformed one, a non-finite number) or when the room is short:
 * the tuple writer does those. */
static SV_ALWAYS_INLINE uint8_t *f32_tuple(const sv_jw *w, uint8_t *p, const sv_value *v)
{
    const sv_jw_tag *t = &sv__jw_tags[v->tag < SV_TAG_COUNT ? v->tag : 0];
    size_t n = v->len;
    if (v->sub != SV_ELEM_F32 || t->kind != SV_TUPLE || t->elem != SV_ELEM_F32 || n != t->scalars ||
        !v->as.data || w->plain || (size_t)(w->end - p) < F32_TUPLE_ROOM(n))
        return NULL;
    memcpy(p, t->open, SV_JW_OPEN_MAX);
    p += t->open_len;
    *p = ' '; /* kept when pretty */
    p += w->pretty;
    *p++ = '[';
    const uint8_t *d = v->as.data;
    for (size_t j = 0; j < n; j++) {
        float f;
        memcpy(&f, d + 4 * j, 4);
        if (!f32_finite(f)) return NULL;
    }
    p += sv__core_fmt_f32s(d, n, w->pretty ? 2 : 1, (char *)p);
    memcpy(p, "]}", 2);
    return p + 2;
}

/* Bytes values up to this long (a hash, a small key, a blob of flags: the
 * bytes of game data are mostly short) are written inline, with their room
 * checked there: {"$bytes": and a space, the quoted base64, '}'. */
#define SHORT_BYTES 48
#define SHORT_BYTES_ROOM (11 + 2 + SHORT_BYTES / 3 * 4 + 1)

/* {"$bytes": "base64"} of a short bytes value in typed mode at p, the end
 * returned; NULL (nothing meaningful written) when it is not one or the room
 * is short: sv__json_jw_bytes writes it then. */
static SV_ALWAYS_INLINE uint8_t *short_bytes(const sv_jw *w, uint8_t *p, const sv_value *v)
{
    size_t n = v->len;
    if (n > SHORT_BYTES || w->plain || (!v->as.bytes && n) ||
        (size_t)(w->end - p) < SHORT_BYTES_ROOM)
        return NULL;
    memcpy(p, "{\"$bytes\": \"", 12); /* the space is kept when pretty */
    p += 10 + w->pretty;
    *p++ = '"';
    if (n) sv__core_base64_encode(v->as.bytes, n, (char *)p);
    p += (n + 2) / 3 * 4;
    memcpy(p, "\"}", 2);
    return p + 2;
}

/* Writes the item v at c->p (room: FAST_ROOM), exactly as sv__json_jw_value would.
 * The heads tested first are the commonest values whose text is fixed by
 * the head alone and which cannot fail: an untagged float64 without flags
 * (a bare number when finite), an untagged int64 without flags, an untagged
 * UTF-8 string that needs no escape (sv__json_jw_short_string). Then, by kind: an
 * untagged float32 ({"$f32": n} in typed mode), bool or null inline; the
 * other untagged values and tuples by a call to their kind's writer
 * (sv__jw_by_kind), tagged ones through sv__json_jw_value. */
/* The items of a small array of the commonest scalars (an entity's velocity,
 * its tags: untagged finite float64s, int64s and short strings that need no
 * escape), compact, written at p as sv__json_jw_array would, without its
 * call: the end, or NULL when the array is not such a one. Then nothing
 * meaningful was written, and the call writes the array or reports what is
 * wrong with it: what enter() and the array writer check first (a sink to
 * hand the output to, the depth, the storage, a "$meta" form, pretty
 * layout) is checked here before anything is written, and an item of any
 * other kind gives the array back to the call. Room: checked here. */
#define SMALL_ARRAY 8
#define SMALL_ARRAY_ROOM (1 + SMALL_ARRAY * (FAST_ROOM + 1))

static SV_ALWAYS_INLINE uint8_t *small_array(const sv_jw *w, uint8_t *p, const sv_value *v)
{
    const sv_container *box = v->as.box;
    uint32_t n = v->len;
    if (n - 1 >= SMALL_ARRAY || w->pretty || !box || box->meta || n > box->cap ||
        w->buf->sink != NULL || w->depth >= SV_JW_MAX_DEPTH ||
        (size_t)(w->end - p) < SMALL_ARRAY_ROOM)
        return NULL;
    const sv_value *items = (const sv_value *)(const void *)(box + 1); /* sv__core_items */
    *p++ = '[';
    for (uint32_t i = 0; i < n; i++) {
        const sv_value *x = &items[i];
        uint32_t h = sv__json_jw_head(x);
        if (h == HEAD(SV_FLOAT, 0, 8, 0) && f64_finite(x->as.f64)) {
            p += sv__core_fmt_f64(x->as.f64, (char *)p);
        } else if (h == HEAD(SV_INT, 0, 8, 0) && (!sv__json_jw_wide_i64(x->as.i) || w->plain)) {
            p += sv__json_jw_fmt_i64(x->as.i, p);
        } else if ((h & w->mask_string) == HEAD(SV_STRING, 0, 0, 0) && x->as.str) {
            p = sv__json_jw_short_string(p, x->as.str, x->len);
            if (!p) return NULL;
        } else {
            return NULL;
        }
        *p++ = ',';
    }
    p[-1] = ']';
    return p;
}

static SV_ALWAYS_INLINE sv_status write_item(sv_jw *w, cursor *c, const sv_value *v)
{
    uint8_t *p = c->p;
    uint32_t h = sv__json_jw_head(v);
    if (h == HEAD(SV_FLOAT, 0, 8, 0)) {
        if (f64_finite(v->as.f64)) {
            c->p = p + sv__core_fmt_f64(v->as.f64, (char *)p);
            return SV_OK;
        }
    } else if (h == HEAD(SV_INT, 0, 8, 0)) {
        if (!sv__json_jw_wide_i64(v->as.i) || w->plain) { /* (else its $int form, below) */
            c->p = p + sv__json_jw_fmt_i64(v->as.i, p);
            return SV_OK;
        }
    } else if ((h & w->mask_string) == HEAD(SV_STRING, 0, 0, 0)) {
        uint8_t *q = v->as.str ? sv__json_jw_short_string(p, v->as.str, v->len) : NULL;
        if (q) {
            c->p = q;
            return SV_OK;
        }
    }
    sv_jw_writer fn = sv__json_jw_value;
    if (v->tag == 0) {
        switch (v->kind) {
        case SV_FLOAT:
            if (v->sub == 4 && !w->plain && f32_finite(v->as.f32)) {
                /* {"$f32": and its space (pretty) in one 16-byte store */
                memcpy(p, "{\"$f32\":        ", 16);
                p += 8 + w->pretty;
                p += sv__core_fmt_f32(v->as.f32, (char *)p);
                *p = '}';
                c->p = p + 1;
                return SV_OK;
            }
            break;
        case SV_BOOL: {
            if (v->len) break; /* a kept stored value: write_bool's form */
            /* The text chosen with a mask, not a branch (GCC made one of
             * the conditional expressions here): a flag is true or false
             * at random from one object to the next. */
            uint64_t b = v->as.b != 0, t, f, m = 0 - b;
            memcpy(&t, "true\0\0\0\0", 8);
            memcpy(&f, "false\0\0\0", 8);
            t = (t & m) | (f & ~m);
            memcpy(p, &t, 8); /* room: FAST_ROOM */
            c->p = p + 5 - b;
            return SV_OK;
        }
        case SV_NULL:
            memcpy(p, "null", 4);
            c->p = p + 4;
            return SV_OK;
        case SV_UINT: {
            /* {"$u8": n}, {"$u16": n}, {"$u32": n} in typed mode (a game's
             * flags, ids, colours); a value too wide for its width goes to
             * the writer for its error, 64-bit ones for their forms */
            unsigned sub = v->sub;
            uint64_t u = v->as.u;
            if (w->plain || (sub != 1 && sub != 2 && sub != 4) || (u >> (8 * sub)) != 0) break;
            memcpy(p, uint_open[sub >> 1], 16);
            p += (sub == 1 ? 7 : 8) + w->pretty;
            p += sv__json_jw_fmt_u64(u, p);
            *p = '}';
            c->p = p + 1;
            return SV_OK;
        }
        default: break;
        }
        /* The containers and bytes of game data (an entity's arrays, maps
         * and blobs) by direct calls, tested one by one: through the table
         * (or a jump table), one branch would go to a different writer item
         * after item, which indirect branch prediction misses more often. */
        if (v->kind == SV_ARRAY) {
            uint8_t *q = small_array(w, p, v);
            if (q) {
                c->p = q;
                return SV_OK;
            }
            return lend_call(w, c, v, sv__json_jw_array);
        }
        if (v->kind == SV_MAP) return lend_call(w, c, v, sv__json_jw_map);
        if (v->kind == SV_BYTES) {
            uint8_t *q = short_bytes(w, p, v);
            if (q) {
                c->p = q;
                return SV_OK;
            }
            return lend_call(w, c, v, sv__json_jw_bytes);
        }
        fn = sv__jw_by_kind[v->kind];
    } else if (v->kind == SV_TUPLE) { /* its tag is its shape, part of its own form */
        uint8_t *q = f32_tuple(w, p, v);
        if (q) {
            c->p = q;
            return SV_OK;
        }
        fn = sv__json_jw_tuple;
    }
    return lend_call(w, c, v, fn);
}

/* ---- helpers for "$" forms with several keys ---------------------------------- */

/* Writes c ('{' or ','), the newline and indentation of a member (pretty),
 * and the member's key literal (with its ':'). */
static inline bool member_head(sv_jw *w, char c, const char *lit, size_t n)
{
    if (!sv__json_jw_need(w, w->ind + n + 3 + SV_JW_NL_SLACK)) return false;
    *w->p++ = (uint8_t)c;
    if (w->pretty) w->p = sv__json_jw_nl(w->p, w->ind);
    sv__json_jw_put_key_lit(w, lit, n);
    return true;
}

/* The closing '}' of a multi-key form opened at indentation outer. */
static inline bool close_form(sv_jw *w, size_t outer, char c)
{
    if (!sv__json_jw_need(w, outer + 2 + SV_JW_NL_SLACK)) return false;
    if (w->pretty) w->p = sv__json_jw_nl(w->p, outer);
    *w->p++ = (uint8_t)c;
    return true;
}

static sv_status write_meta(sv_jw *w, const sv_value *meta)
{
    if (!member_head(w, ',', LIT("\"$meta\":"))) return SV_ERR_NOMEM;
    sv_status st = sv__json_jw_value(w, meta);
    if (st) sv_error_path_key(w->err, "$meta", 5);
    return st;
}

/* Opens a container: the depth bound and the items' storage. */
static inline sv_status enter(sv_jw *w, const sv_value *v)
{
    if (SV_UNLIKELY(w->buf->sink != NULL)) {
        sv_status st = sv__json_jw_release(w);
        if (st) return st;
    }
    if (++w->depth > SV_JW_MAX_DEPTH)
        return sv_error_set(w->err, SV_ERR_DEPTH, SV_JW_FORMAT, 0,
                            "the tree nests deeper than %u containers", SV_JW_MAX_DEPTH);
    if (v->len > (v->as.box ? v->as.box->cap : 0))
        return sv__json_jw_malformed(
            w, v->as.box ? "more items than room" : "items without storage", v);
    return SV_OK;
}

/* Room for a container's items: the bound of an item plus, when pretty, its
 * newline and indentation ci. */
static inline size_t loop_room(size_t item, size_t ci, bool pretty)
{
    return item + (pretty ? ci + 1 + SV_JW_NL_SLACK : 0);
}

/* Lists of objects or maps (a document's entities) are written with the
 * header and first fields of the container PREFETCH_AHEAD items ahead asked
 * for (PREFETCH_LINES cache lines: a dozen fields as pairs): the tree is
 * far larger than the caches, and the container loops otherwise wait on
 * each container's memory in turn. The CPU time of the bench document's
 * encode falls by about 6%; further ahead, or more lines, did no better. */
#define PREFETCH_AHEAD 4
#define PREFETCH_LINES 6

static inline void prefetch_fields(const sv_value *a)
{
    if ((a->kind == SV_OBJECT || a->kind == SV_MAP) && a->as.box) {
        const char *b = (const char *)a->as.box;
        for (int k = 0; k < PREFETCH_LINES; k++) SV_PREFETCH_READ(b + 64 * k);
    }
}

/* Arrays (the document's list of entities) ask for the output WRITE_AHEAD
 * bytes past the cursor, for writing, one cache line at a time as the cursor moves on: a kept
 * output buffer larger than the caches otherwise reads each new line on
 * the store that first touches it. ahead is the next line to ask for; it
 * starts again from the cursor when the output moved (the buffer grew, or
 * a sink took the window). 4, 8 and 16 KiB ahead all took about 5% off the
 * bench document's encode; 1 KiB did no better than none. */
#define WRITE_AHEAD 8192

static inline uintptr_t prefetch_output(uintptr_t ahead, uintptr_t at)
{
    if (ahead < at || ahead - at > 2 * WRITE_AHEAD) ahead = at + WRITE_AHEAD;
    for (; ahead < at + WRITE_AHEAD + 64; ahead += 64) SV_PREFETCH_WRITE(ahead);
    return ahead;
}

/* ---- arrays ----------------------------------------------------------------- */

/* The items of a non-empty array, each preceded by '[' or ',' and, when
 * pretty (a constant in each copy of this loop), its newline at ci, then
 * the closing bracket (on its own line at outer when pretty: the loop's
 * room covers it). */
static SV_ALWAYS_INLINE sv_status array_items(sv_jw *w, const sv_value *items, uint32_t n,
                                              size_t outer, size_t ci, const bool pretty)
{
    cursor c = cursor_open(w, loop_room(ITEM_ROOM, ci, pretty));
    uint8_t open = '[';
    uintptr_t ahead = (uintptr_t)c.p + WRITE_AHEAD;
    for (uint32_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n) prefetch_fields(&items[i + PREFETCH_AHEAD]);
        ahead = prefetch_output(ahead, (uintptr_t)c.p);
        if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
        *c.p++ = open;
        open = ',';
        if (pretty) c.p = sv__json_jw_nl(c.p, ci);
        sv_status st = write_item(w, &c, &items[i]);
        if (st) {
            sv_error_path_index(w->err, i);
            return st;
        }
    }
    if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
    if (pretty) c.p = sv__json_jw_nl(c.p, outer);
    *c.p++ = ']';
    w->p = c.p;
    return SV_OK;
}

static SV_ALWAYS_INLINE sv_status array_body(sv_jw *w, const sv_value *items, uint32_t n)
{
    if (n == 0) {
        if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
        sv__json_jw_put(w, "[]", 2);
        return SV_OK;
    }
    if (!w->pretty) return array_items(w, items, n, 0, 0, false);
    size_t outer = w->ind, ci = outer + w->indent;
    w->ind = ci; /* the line a nested container starts on */
    sv_status st = array_items(w, items, n, outer, ci, true);
    w->ind = outer;
    return st;
}

sv_status sv__json_jw_array(sv_jw *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    sv_container *box = v->as.box;
    const sv_value *meta = box && !w->plain ? box->meta : NULL;
    size_t outer = w->ind;
    if (meta) { /* {"$array": [...], "$meta": m} */
        w->ind += w->indent;
        if (!member_head(w, '{', LIT("\"$array\":"))) return SV_ERR_NOMEM;
    }
    if ((st = array_body(w, box ? sv__core_items(box) : NULL, v->len)) != SV_OK) return st;
    if (meta) {
        if ((st = write_meta(w, meta)) != SV_OK) return st;
        w->ind = outer;
        if (!close_form(w, outer, '}')) return SV_ERR_NOMEM;
    }
    w->depth--;
    return SV_OK;
}

/* ---- object keys --------------------------------------------------------------- */

/* Returned when a key cannot be a JSON object key (not a status: callers
 * turn it into the $map form or an error). */
#define NOT_OBJECT_KEYS ((sv_status)SV_STATUS_COUNT)

/* Keys are looked up by the address of their bytes in an open-addressed
 * table: a key's home slot comes from a multiplicative hash (interned keys
 * sit a few bytes apart, which the low bits alone would map onto each
 * other), and a key that finds its home taken sits in one of the next
 * KEY_PROBES slots. An entry matches on the address and on the key value's
 * first 8 bytes (kind, flags, tag, length): only keys that passed
 * sv__json_jw_object_key and were written without error are entered, so a match
 * is a valid key with the same bytes and the same text. */
#define KEY_PROBES 4

static inline size_t key_home(const char *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> (64 - SV_JW_KEY_CACHE_BITS));
}

static inline uint64_t key_head(const sv_value *k)
{
    uint64_t h;
    memcpy(&h, k, sizeof h);
    return h;
}

/* Whether k is a remembered key: in its home slot or one of the next
 * KEY_PROBES - 1, where key_miss puts a key whose home slot is taken. */
static SV_ALWAYS_INLINE bool key_known(const sv_jw *w, const sv_value *k)
{
    const char *s = k->as.str;
    uint64_t head = key_head(k);
    size_t home = key_home(s);
    for (size_t j = 0; j < KEY_PROBES; j++) {
        const sv_jw_key *c = &w->keys[(home + j) & (SV_JW_KEY_CACHE - 1)];
        if (c->str == s && c->head == head) return true;
    }
    return false;
}

/* A key that is not in its home slot: the other slots, else writes it (a
 * non-key is NOT_OBJECT_KEYS) and remembers it when its text is short. */
static SV_NOINLINE sv_status key_miss(sv_jw *w, const sv_value *k, unsigned kflags)
{
    const char *s = k->as.str;
    uint64_t head = key_head(k);
    size_t home = key_home(s);
    sv_jw_key *free_slot = NULL;
    for (size_t j = 1; j < KEY_PROBES; j++) {
        sv_jw_key *c = &w->keys[(home + j) & (SV_JW_KEY_CACHE - 1)];
        if (c->str == s && c->head == head) {
            memcpy(w->p, c->text, SV_JW_KEY_TEXT);
            w->p += c->n;
            return SV_OK;
        }
        if (!free_slot && c->str == (const char *)w->keys) free_slot = c;
    }
    if (!sv__json_jw_object_key(w, k)) return NOT_OBJECT_KEYS;
    if (!s) return sv__json_jw_string(w, "", 0, kflags); /* an empty key without storage */
    size_t start = (size_t)(w->p - w->buf->data);        /* an offset: the buffer may move */
    unsigned f = kflags | ((k->flags & SV_F_UTF16) ? SV_JW_STR_WTF8 : 0u);
    sv_status st = sv__json_jw_string(w, s, k->len, f);
    if (st) return st;
    size_t n = (size_t)(w->p - w->buf->data) - start;
    if (n <= SV_JW_KEY_TEXT) {
        /* the home slot when it is free, else a free one nearby, else the
         * home slot's key gives way */
        sv_jw_key *c = &w->keys[home];
        if (c->str != (const char *)w->keys && free_slot) c = free_slot;
        c->str = s;
        c->head = head;
        c->n = n;
        memcpy(c->text, w->p - n, n);
    }
    return SV_OK;
}

/* Whether m is a map or an object, the containers sv_key_at and sv_val_at
 * read. */
static inline bool has_fields(const sv_value *m)
{
    return m->kind == SV_MAP || m->kind == SV_OBJECT;
}

/* Field i of m (a map or an object, i below its length: the callers' loop
 * bounds) through sv_key_at / sv_val_at, told that they answer: their NULL
 * case, which cannot happen here, would otherwise cost a test per field. */
#if defined(__GNUC__) || defined(__clang__)
#define FIELD_KNOWN(p)                                                                             \
    do {                                                                                           \
        if (!(p)) __builtin_unreachable();                                                         \
    } while (0)
#else
#define FIELD_KNOWN(p) ((void)0)
#endif

static SV_ALWAYS_INLINE const sv_value *field_key(const sv_value *m, uint32_t i)
{
    const sv_value *k = sv_key_at(m, i);
    FIELD_KNOWN(k);
    return k;
}

static SV_ALWAYS_INLINE const sv_value *field_val(const sv_value *m, uint32_t i)
{
    const sv_value *v = sv_val_at(m, i);
    FIELD_KNOWN(v);
    return v;
}

/* The fields of a map or object, read in the loops below as two strided
 * runs of values: the keys and the values of the pairs side by side (a step
 * of two values), or a compact object's values with the keys in its shape
 * (a step of one). The same fields sv_key_at and sv_val_at answer, but with
 * the layout read once per container: the loops store through the output
 * cursor, which the compiler cannot tell apart from the container, so each
 * accessor call read the layout again. */
typedef struct fields {
    const sv_value *key, *val;
    size_t step;
} fields;

static SV_ALWAYS_INLINE fields fields_of(const sv_value *m)
{
    const sv_container *box = m->as.box;
    fields f = {NULL, NULL, 2};
    if (!box) return f; /* (no fields: the callers' loops do not run) */
    if (box->layout == SV_LAYOUT_COMPACT) {
        f.key = sv_shape_keys((const sv_shape *)(const void *)box->cls);
        f.val = (const sv_value *)(const void *)(box + 1);
        f.step = 1;
    } else {
        const sv_pair *pairs = (const sv_pair *)(const void *)(box + 1);
        f.key = &pairs->key;
        f.val = &pairs->val;
    }
    return f;
}

/* The index of the field whose key is at key. */
static uint32_t field_index(const fields *f, const sv_value *key)
{
    return (uint32_t)((size_t)(key - f->key) / f->step);
}

static void path_of_field(sv_jw *w, const sv_value *key, uint32_t i)
{
    /* as sv_walk names it: a string key by its text, any other by position */
    if (key->kind == SV_STRING && key->as.str)
        sv_error_path_key(w->err, key->as.str, key->len);
    else
        sv_error_path_index(w->err, i);
}

/* ---- maps and objects ------------------------------------------------------ */

/* "key": value members of the map or object m, the first preceded by open
 * (a '{' or ','), the others by ',', then the closing '}' (on its own line
 * one level out when pretty); pretty is a constant in each copy of this
 * loop. A key that is not an object key stops the loop with NOT_OBJECT_KEYS
 * and its index in *bad. A bad key is reported at the map that holds it: the
 * key itself cannot be a readable path segment.
 *
 * Fields are read as fields_of lays them out, on every layout of a
 * container (pairs, or a compact object's values with the keys in its
 * shape), from a local copy of the container value: its kind and length
 * cannot change behind the loop's stores, so their checks are made once,
 * outside the loop. */
static SV_ALWAYS_INLINE sv_status members_loop(sv_jw *w, const sv_value *m, uint8_t open,
                                               uint32_t *bad, const bool pretty)
{
    const sv_value obj = *m;
    const uint32_t n = obj.len;
    /* (true for every caller: said here so that the accessors' own kind
     * test folds away inside the loop) */
    if (!has_fields(&obj)) return sv__json_jw_malformed(w, "fields of a non-map", m);
    size_t ci = w->ind, outer = ci - w->indent;
    unsigned kflags = SV_JW_STR_KEY | (w->plain ? 0u : SV_JW_STR_DOLLAR);
    cursor c = cursor_open(w, loop_room(MEMBER_ROOM, ci, pretty));
    const fields f = fields_of(&obj);
    /* Pointers walk the keys and the values; a field's index is only
     * needed on errors: fewer live counters than the loop has registers
     * for. */
    const sv_value *const end = f.key + (size_t)n * f.step;
    const sv_value *val = f.val;
    for (const sv_value *key = f.key; key != end; key += f.step, val += f.step) {
        if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
        *c.p++ = open;
        open = ',';
        if (pretty) c.p = sv__json_jw_nl(c.p, ci);
        const sv_jw_key *k = &w->keys[key_home(key->as.str)];
        if (k->str == key->as.str && k->head == key_head(key)) {
            memcpy(c.p, k->text, SV_JW_KEY_TEXT); /* one constant-size copy */
            c.p += k->n;
        } else {
            cursor_lend(w, &c);
            sv_status st = key_miss(w, key, kflags);
            if (st) {
                if (st == NOT_OBJECT_KEYS) *bad = field_index(&f, key);
                return st;
            }
            /* a long key may have used the room the value counted on */
            cursor_take(w, &c);
            if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
        }
        sv_status st = write_item(w, &c, val);
        if (st) {
            path_of_field(w, key, field_index(&f, key));
            return st;
        }
    }
    if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
    if (pretty) c.p = sv__json_jw_nl(c.p, outer);
    *c.p++ = '}';
    w->p = c.p;
    return SV_OK;
}

static SV_ALWAYS_INLINE sv_status members(sv_jw *w, const sv_value *m, uint8_t open, uint32_t *bad)
{
    return w->pretty ? members_loop(w, m, open, bad, true) : members_loop(w, m, open, bad, false);
}

/* {"k": v, ...}, or NOT_OBJECT_KEYS (with the index in *bad). */
static SV_ALWAYS_INLINE sv_status map_object_body(sv_jw *w, const sv_value *m, uint32_t *bad)
{
    if (m->len == 0) {
        if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
        sv__json_jw_put(w, "{}", 2);
        return SV_OK;
    }
    size_t outer = w->ind;
    w->ind += w->indent;
    sv_status st = members(w, m, '{', bad);
    w->ind = outer;
    return st;
}

/* The same, called (for plain objects, rarer than maps). */
static sv_status map_object_body_call(sv_jw *w, const sv_value *m, uint32_t *bad)
{
    return map_object_body(w, m, bad);
}

/* [[k, v], ...]: one pair per line, a pair's key and value on that line. */
static sv_status map_pairs_body(sv_jw *w, const sv_value *m)
{
    const sv_value map = *m; /* (a local copy: see members_loop) */
    const uint32_t n = map.len;
    if (!has_fields(&map)) return sv__json_jw_malformed(w, "fields of a non-map", m);
    if (n == 0) {
        if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
        sv__json_jw_put(w, "[]", 2);
        return SV_OK;
    }
    size_t outer = w->ind, ci = outer + w->indent;
    w->ind = ci;
    /* each check covers a separator, a bracket and an item */
    cursor c = cursor_open(w, loop_room(3 + ITEM_ROOM, ci, w->pretty));
    uint8_t open = '[';
    for (uint32_t i = 0; i < n; i++) {
        const sv_value *key = field_key(&map, i);
        if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
        *c.p++ = open;
        open = ',';
        if (w->pretty) c.p = sv__json_jw_nl(c.p, ci);
        *c.p++ = '[';
        sv_status st = write_item(w, &c, key);
        if (st) return st; /* as in members(): reported at the map */
        if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
        *c.p++ = ',';
        if (w->pretty) *c.p++ = ' ';
        if ((st = write_item(w, &c, field_val(&map, i))) != SV_OK) {
            path_of_field(w, key, i);
            return st;
        }
        if (!cursor_room(w, &c)) return SV_ERR_NOMEM;
        *c.p++ = ']';
    }
    w->p = c.p;
    w->ind = outer;
    return close_form(w, outer, ']') ? SV_OK : SV_ERR_NOMEM;
}

/* Whether every key of a map is an object key, so that the map is written as
 * {"k": v, ...} rather than as its list of pairs. The keys are looked at
 * before anything is written: writing optimistically and starting again at
 * a bad key would write nested maps again at every level, which a hostile
 * tree could make exponential. */
static bool all_object_keys(const sv_jw *w, const sv_value *m)
{
    const sv_value map = *m; /* (a local copy: see members_loop) */
    if (!has_fields(&map)) return false;
    const fields f = fields_of(&map);
    for (uint32_t i = 0; i < map.len; i++) {
        const sv_value *k = f.key + i * f.step;
        /* A remembered key passed these checks when it was written (in any
         * of its slots: a key whose home slot is taken would otherwise be
         * scanned again in every map that holds it). */
        if (key_known(w, k)) continue;
        if (!sv__json_jw_object_key(w, k)) return false;
        /* A key that is not UTF-8 text (from a Godot 3 string, say) can only
         * be written in a pair, as {"$str": ...}. */
        if (!sv__json_jw_text_ok(k->as.str, k->len, (k->flags & SV_F_UTF16) != 0)) return false;
    }
    return true;
}

sv_status sv__json_jw_map(sv_jw *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    sv_container *box = v->as.box;
    const sv_value *meta = w->plain || !box ? NULL : box->meta;
    uint32_t bad = 0;
    bool as_pairs = !all_object_keys(w, v);
    /* typed, a list of pairs is {"$map": [[k, v], ...]} (a single-key form:
     * the list opens on its line); with meta, either payload is
     * {"$map": ..., "$meta": m} */
    bool map_form = as_pairs && !w->plain;
    size_t outer = w->ind;
    if (meta) {
        w->ind += w->indent;
        if (!member_head(w, '{', LIT("\"$map\":"))) return SV_ERR_NOMEM;
    } else if (map_form) {
        if (!sv__json_jw_need(w, 9)) return SV_ERR_NOMEM;
        sv__json_jw_put_key_lit(w, LIT("{\"$map\":"));
    }
    st = as_pairs ? map_pairs_body(w, v) : map_object_body(w, v, &bad);
    if (st == NOT_OBJECT_KEYS) /* cannot happen: the keys were checked above */
        st = sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: map key");
    if (st) return st;
    if (meta) {
        if ((st = write_meta(w, meta)) != SV_OK) return st;
        w->ind = outer;
        if (!close_form(w, outer, '}')) return SV_ERR_NOMEM;
    } else if (map_form) {
        if (!sv__json_jw_need(w, 1)) return SV_ERR_NOMEM;
        *w->p++ = '}';
    }
    w->depth--;
    return SV_OK;
}

static bool class_ok(const sv_value *cls)
{
    return cls && ((cls->kind == SV_STRING && cls->tag == 0 && !(cls->flags & SV_F_UTF16) &&
                    (cls->as.str || !cls->len)) ||
                   cls->kind == SV_UINT);
}

static sv_status write_class(sv_jw *w, const sv_value *cls)
{
    sv_status st;
    if (cls->kind == SV_UINT) {
        /* a hash beyond 2^53 as {"$uint": "..."} (a string would be a name) */
        bool wide = !w->plain && sv__json_jw_wide_u64(cls->as.u);
        if (!sv__json_jw_need(w, SV_FMT_INT_MAX + 16)) return SV_ERR_NOMEM;
        if (wide) sv__json_jw_put_key_lit(w, LIT("{\"$uint\":"));
        w->p += sv__json_jw_fmt_u64_q(cls->as.u, w->p, wide);
        if (wide) *w->p++ = '}';
        return SV_OK;
    }
    st = sv__json_jw_string(w, cls->as.str, cls->len, 0);
    if (st) sv_error_path_key(w->err, "$class", 6);
    return st;
}

/* The two words of a value: its head (kind, flags, sub, tag, len) and its
 * payload (a string's address, a uint). */
static inline bool same_value_words(const sv_value *v, const uint64_t words[2])
{
    uint64_t x[2];
    memcpy(x, v, sizeof x);
    return x[0] == words[0] && x[1] == words[1];
}

/* "$class": and the class of an object whose class differs from the
 * previous object's (or was not remembered): checks it, writes it, and
 * remembers its text when short. Objects of one class usually come in
 * runs, and their class is interned: one copy writes the next ones. */
static SV_NOINLINE sv_status class_miss(sv_jw *w, const sv_value *v, const sv_value *cls)
{
    if (!class_ok(cls))
        return sv__json_jw_malformed(w, "an object's class must be a UTF-8 string or a uint hash",
                                     v);
    size_t start = (size_t)(w->p - w->buf->data);   /* an offset: the buffer may move */
    sv__json_jw_put_key_lit(w, LIT("\"$class\":")); /* room: reserved by the caller */
    sv_status st = write_class(w, cls);
    if (st) return st;
    size_t n = (size_t)(w->p - w->buf->data) - start;
    if (n <= SV_JW_KEY_TEXT) {
        memcpy(w->cls_words, cls, sizeof w->cls_words);
        w->cls_n = n;
        memcpy(w->cls_text, w->p - n, n);
    }
    return SV_OK;
}

static sv_status field_error(sv_jw *w, const sv_value *v, sv_status st, uint32_t bad)
{
    if (st != NOT_OBJECT_KEYS) return st;
    st = sv__json_jw_malformed(w, "an object's field names must be untagged UTF-8 strings", v);
    sv_error_path_index(w->err, bad);
    return st;
}

sv_status sv__json_jw_object(sv_jw *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    sv_container *box = v->as.box;
    if (!box) return sv__json_jw_malformed(w, "an object without a class", v);
    const sv_value *cls = box->cls; /* sv_object_class, read here: v is an object with storage */
    uint32_t n = v->len, bad = 0;
    if (!w->plain && (n || box->meta)) {
        /* {"$class": "X", "$meta": m, "k": v, ...} */
        size_t outer = w->ind;
        w->ind += w->indent;
        if (!sv__json_jw_need(w, w->ind + 2 + SV_JW_NL_SLACK + SV_JW_KEY_TEXT)) return SV_ERR_NOMEM;
        *w->p++ = '{';
        if (w->pretty) w->p = sv__json_jw_nl(w->p, w->ind);
        if (cls && same_value_words(cls, w->cls_words)) { /* checked when remembered */
            memcpy(w->p, w->cls_text, SV_JW_KEY_TEXT);
            w->p += w->cls_n;
        } else if ((st = class_miss(w, v, cls)) != SV_OK) {
            return st;
        }
        if (box->meta && (st = write_meta(w, box->meta)) != SV_OK) return st;
        if ((st = members(w, v, ',', &bad)) != SV_OK) return field_error(w, v, st, bad);
        w->ind = outer;
    } else {
        if (!class_ok(cls))
            return sv__json_jw_malformed(
                w, "an object's class must be a UTF-8 string or a uint hash", v);
        if (w->plain) {
            /* the class is left out */
            if ((st = map_object_body_call(w, v, &bad)) != SV_OK) return field_error(w, v, st, bad);
        } else {
            /* {"$class": "X"}: a single-key form with a scalar stays on one line */
            if (!sv__json_jw_need(w, 11)) return SV_ERR_NOMEM;
            sv__json_jw_put_key_lit(w, LIT("{\"$class\":"));
            if ((st = write_class(w, cls)) != SV_OK) return st;
            if (!sv__json_jw_need(w, 1)) return SV_ERR_NOMEM;
            *w->p++ = '}';
        }
    }
    w->depth--;
    return SV_OK;
}
