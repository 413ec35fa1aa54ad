/* The typed JSON writer (docs/json.md): entry point, dispatch on the value's
 * kind, tags, and the containers (arrays, maps, objects) with their "$" forms.
 * Scalars live in json_write_num.c and json_write_str.c.
 *
 * Containers recurse; the depth is bounded (SV_JW_MAX_DEPTH) because a tree
 * built through the API can be arbitrarily deep. Scalars inside containers
 * take an inline fast path (write_item) so the common leaves cost no call of
 * the general dispatch. A failure unwinds with the JSON Pointer path of the
 * failing value: each container level prepends its own segment. */
#include "json/json_write_internal.h"

#include "json/numconv.h"

#define SV_JW_MAX_DEPTH (SV_DEFAULT_MAX_DEPTH * 2)

_Static_assert(sizeof("{\"$packed_vector4\":") <= SV_JW_OPEN_MAX, "tag names fit");
const sv_jw_tag sv__jw_tags[SV_TAG_COUNT] = {
#define SV_X_TAG(id, name, kind, scalars, elem)                                                    \
    {"{\"$" name "\":", sizeof("{\"$" name "\":") - 1, kind, scalars, elem},
    SV_TAG_LIST(SV_X_TAG)
#undef SV_X_TAG
};

/* Room to reserve before each container item: ',' + newline + indentation +
 * slack, and enough for the scalars of the fast path. */
#define ITEM_ROOM(ind) ((ind) + 2 + SV_JW_NL_SLACK + SV_FMT_F64_MAX)

static sv_status write_value(sv_jw *w, const sv_value *v);
static sv_status write_array(sv_jw *w, const sv_value *v);
static sv_status write_map(sv_jw *w, const sv_value *v);
static sv_status write_object(sv_jw *w, const sv_value *v);
static sv_status write_ref(sv_jw *w, const sv_value *v);
static sv_status write_string_value(sv_jw *w, const sv_value *v);

bool sv__jw_grow(sv_jw *w, size_t n)
{
    sv_buf *b = w->buf;
    b->len = (size_t)(w->p - b->data);
    /* Large steps: ask for at least as much again as the buffer holds, so
     * a large output is copied by realloc a few times only. */
    size_t want = b->cap > 65536 ? b->cap : 65536;
    if (want < n) want = n;
    if (!sv_buf_reserve(b, want)) {
        sv_error_set(w->err, SV_ERR_NOMEM, SV_JW_FORMAT, 0,
                     "cannot grow the output beyond %zu bytes", b->len);
        return false;
    }
    w->p = b->data + b->len;
    w->end = b->data + b->cap;
    return true;
}

static sv_status nomem(void)
{
    return SV_ERR_NOMEM;
}

static inline void put(sv_jw *w, const char *s, size_t n)
{
    memcpy(w->p, s, n);
    w->p += n;
}

/* Writes s (a literal) and, when pretty, a space: the "key": part of a form. */
static inline void put_key_lit(sv_jw *w, const char *s, size_t n)
{
    put(w, s, n);
    if (w->pretty) *w->p++ = ' ';
}

static sv_status malformed(sv_jw *w, const char *what, const sv_value *v)
{
    return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: %s (kind %s)", what,
                        sv_kind_name((sv_kind)v->kind));
}

/* ---- the common leaves, inline --------------------------------------------- */

static inline bool f64_finite(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (bits & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
}

/* v without its wrapping tag (shape tags of tuples and packed arrays are
 * part of their own form). Inlined into the container loops: the common
 * leaves (null, bool, int64, finite float64, short UTF-8 strings) are written
 * right there, the other kinds cost one call. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline sv_status
write_untagged(sv_jw *w, const sv_value *v)
{
    switch (v->kind) {
    case SV_STRING:
        if (!(v->flags & SV_F_UTF16) && (v->as.str || !v->len))
            return sv__jw_string(w, v->as.str, v->len, 0);
        return write_string_value(w, v);
    case SV_INT:
        if (v->sub == 8 && !(v->flags & SV_F_EXPLICIT)) {
            if (!sv__jw_need(w, SV_FMT_INT_MAX)) return nomem();
            w->p += sv_fmt_i64(v->as.i, (char *)w->p);
            return SV_OK;
        }
        return sv__jw_int(w, v);
    case SV_FLOAT:
        if (v->sub == 8 && !(v->flags & SV_F_EXPLICIT) && f64_finite(v->as.f64)) {
            if (!sv__jw_need(w, SV_FMT_F64_MAX)) return nomem();
            w->p += sv_fmt_f64(v->as.f64, (char *)w->p);
            return SV_OK;
        }
        return sv__jw_float(w, v);
    case SV_BOOL:
        if (!sv__jw_need(w, 5)) return nomem();
        if (v->as.b)
            put(w, "true", 4);
        else
            put(w, "false", 5);
        return SV_OK;
    case SV_NULL:
        if (!sv__jw_need(w, 4)) return nomem();
        put(w, "null", 4);
        return SV_OK;
    case SV_UINT: return sv__jw_uint(w, v);
    case SV_BYTES: return sv__jw_bytes(w, v);
    case SV_ARRAY: return write_array(w, v);
    case SV_MAP: return write_map(w, v);
    case SV_OBJECT: return write_object(w, v);
    case SV_TUPLE: return sv__jw_tuple(w, v);
    case SV_PACKED: return sv__jw_packed(w, v);
    case SV_REF: return write_ref(w, v);
    default:
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: unknown kind %u",
                            (unsigned)v->kind);
    }
}

/* An item of a container: untagged values (and tuples, whose tag is their
 * shape) inline, tagged ones by a call. */
static inline sv_status write_item(sv_jw *w, const sv_value *v)
{
    if (v->tag == 0 || v->kind == SV_TUPLE) return write_untagged(w, v);
    return write_value(w, v);
}

/* ---- helpers for "$" forms with several keys ---------------------------------- */

/* Writes c ('{' or ','), the newline and indentation of a member (pretty),
 * and the member's key literal (with its ':'). */
static inline bool member_head(sv_jw *w, char c, const char *lit, size_t n)
{
    if (!sv__jw_need(w, w->ind + n + 3 + SV_JW_NL_SLACK)) return false;
    *w->p++ = (uint8_t)c;
    if (w->pretty) w->p = sv__jw_nl(w->p, w->ind);
    put_key_lit(w, lit, n);
    return true;
}

/* The closing '}' of a multi-key form opened at indentation outer. */
static inline bool close_form(sv_jw *w, size_t outer, char c)
{
    if (!sv__jw_need(w, outer + 2 + SV_JW_NL_SLACK)) return false;
    if (w->pretty) w->p = sv__jw_nl(w->p, outer);
    *w->p++ = (uint8_t)c;
    return true;
}

#define LIT(s) s, sizeof(s) - 1

static sv_status write_meta(sv_jw *w, const sv_value *meta)
{
    if (!member_head(w, ',', LIT("\"$meta\":"))) return nomem();
    sv_status st = write_value(w, meta);
    if (st) sv_error_path_key(w->err, "$meta", 5);
    return st;
}

static sv_status enter(sv_jw *w, const sv_value *v)
{
    if (++w->depth > SV_JW_MAX_DEPTH)
        return sv_error_set(w->err, SV_ERR_DEPTH, SV_JW_FORMAT, 0,
                            "the tree nests deeper than %u containers", SV_JW_MAX_DEPTH);
    if (v->len && !v->as.box) return malformed(w, "items without storage", v);
    if (v->as.box && v->len > v->as.box->cap) return malformed(w, "more items than room", v);
    return SV_OK;
}

/* ---- arrays ----------------------------------------------------------------- */

static sv_status array_body(sv_jw *w, const sv_value *items, uint32_t n)
{
    if (n == 0) {
        if (!sv__jw_need(w, 2)) return nomem();
        put(w, "[]", 2);
        return SV_OK;
    }
    size_t outer = w->ind, ci = outer + w->indent;
    w->ind = ci;
    uint8_t open = '[';
    for (uint32_t i = 0; i < n && i < SV_JW_PREFETCH_AHEAD; i++)
        sv__jw_prefetch(&items[i]);
    for (uint32_t i = 0; i < n; i++) {
        if (i + SV_JW_PREFETCH_AHEAD < n) sv__jw_prefetch(&items[i + SV_JW_PREFETCH_AHEAD]);
        if (i + SV_JW_PREFETCH_AHEAD / 2 < n)
            sv__jw_prefetch_items(&items[i + SV_JW_PREFETCH_AHEAD / 2]);
        if (!sv__jw_need(w, ITEM_ROOM(ci))) return nomem();
        *w->p++ = open;
        open = ',';
        if (w->pretty) w->p = sv__jw_nl(w->p, ci);
        sv_status st = write_item(w, &items[i]);
        if (st) {
            sv_error_path_index(w->err, i);
            return st;
        }
    }
    w->ind = outer;
    return close_form(w, outer, ']') ? SV_OK : nomem();
}

static sv_status write_array(sv_jw *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    const sv_container *box = v->as.box;
    const sv_value *items = box ? sv__items((sv_container *)box) : NULL;
    const sv_value *meta = box ? box->meta : NULL;
    if (meta && !w->plain) {
        size_t outer = w->ind;
        w->ind += w->indent;
        if (!member_head(w, '{', LIT("\"$array\":"))) return nomem();
        if ((st = array_body(w, items, v->len)) != SV_OK) return st;
        if ((st = write_meta(w, meta)) != SV_OK) return st;
        w->ind = outer;
        if (!close_form(w, outer, '}')) return nomem();
    } else if ((st = array_body(w, items, v->len)) != SV_OK) {
        return st;
    }
    w->depth--;
    return SV_OK;
}

/* ---- maps and objects ------------------------------------------------------ */

/* Returned by members() when a key cannot be a JSON object key (not a
 * status: callers turn it into the $map form or an error). */
#define NOT_OBJECT_KEYS ((sv_status)SV_STATUS_COUNT)

/* The first 4 bytes of a value (kind, flags, sub, tag) as one word. */
static inline uint32_t head_word(const sv_value *v)
{
    uint32_t h;
    memcpy(&h, v, sizeof h);
    return h;
}

/* An object key: an untagged UTF-8 string in typed mode, any string in
 * plain mode. One masked compare of the value's head (key_mask and key_want
 * are made from sv_values in sv_json_write, so no bit-field layout is
 * assumed). */
static inline bool object_key(const sv_jw *w, const sv_value *k)
{
    return (head_word(k) & w->key_mask) == w->key_want && (k->as.str || !k->len);
}

static void path_of_pair(sv_jw *w, const sv_pair *pr, uint32_t i)
{
    /* as sv_walk names it: a string key by its text, any other by position */
    if (pr->key.kind == SV_STRING && pr->key.as.str)
        sv_error_path_key(w->err, pr->key.as.str, pr->key.len);
    else
        sv_error_path_index(w->err, i);
}

/* "key": (and a space when pretty), from the key cache when it is there.
 * Room for SV_JW_KEY_TEXT bytes is reserved by the caller. A bad key is
 * reported at the map that holds it: the key itself cannot be a readable
 * path segment. */
static inline sv_status write_key(sv_jw *w, const sv_value *k, unsigned kflags)
{
    const char *s = k->as.str;
    uint32_t len = k->len;
    if (!s) return sv__jw_string(w, "", 0, kflags); /* an empty key without storage */
    /* multiplicative hash: interned keys sit a few bytes apart, which the
     * low bits alone would map onto each other */
    uint64_t h = ((uint64_t)(uintptr_t)s + len) * UINT64_C(0x9E3779B97F4A7C15);
    size_t slot = (size_t)(h >> (64 - SV_JW_KEY_CACHE_BITS));
    /* two ways: a key may sit in its slot or the neighbour (slot ^ 1) */
    sv_jw_key *c = &w->keys[slot];
    if (c->str != s || c->len != len) {
        sv_jw_key *c2 = &w->keys[slot ^ 1];
        if (c2->str == s && c2->len == len)
            c = c2;
        else if (c->str && !c2->str)
            c = c2; /* a miss: fill an empty way first */
    }
    if (c->str == s && c->len == len) {
        memcpy(w->p, c->text, SV_JW_KEY_TEXT);
        w->p += c->n;
        return SV_OK;
    }
    size_t start = (size_t)(w->p - w->buf->data);
    unsigned f = kflags | ((k->flags & SV_F_UTF16) ? SV_JW_STR_WTF8 : 0u);
    sv_status st = sv__jw_string(w, s, len, f);
    if (st) return st;
    size_t n = (size_t)(w->p - w->buf->data) - start;
    if (n <= SV_JW_KEY_TEXT) {
        c->str = s;
        c->len = len;
        c->n = (uint32_t)n;
        memcpy(c->text, w->buf->data + start, n);
    }
    return SV_OK;
}

/* "key": value members; the first is preceded by open (a '{' or ','), the
 * others by ','. A key that is not an object key stops the loop with
 * NOT_OBJECT_KEYS and its index in *bad. */
static sv_status members(sv_jw *w, const sv_pair *pairs, uint32_t n, uint8_t open, uint32_t *bad)
{
    size_t ci = w->ind;
    unsigned kflags = SV_JW_STR_KEY | (w->plain ? 0u : SV_JW_STR_DOLLAR);
    for (uint32_t i = 0; i < n && i < SV_JW_PREFETCH_AHEAD; i++)
        sv__jw_prefetch(&pairs[i].val);
    for (uint32_t i = 0; i < n; i++) {
        const sv_pair *pr = &pairs[i];
        if (i + SV_JW_PREFETCH_AHEAD < n) sv__jw_prefetch(&pairs[i + SV_JW_PREFETCH_AHEAD].val);
        if (!object_key(w, &pr->key)) {
            *bad = i;
            return NOT_OBJECT_KEYS;
        }
        if (!sv__jw_need(w, ci + 2 + SV_JW_NL_SLACK + SV_JW_KEY_TEXT)) return nomem();
        *w->p++ = open;
        open = ',';
        if (w->pretty) w->p = sv__jw_nl(w->p, ci);
        sv_status st = write_key(w, &pr->key, kflags);
        if (st) return st;
        if ((st = write_item(w, &pr->val)) != SV_OK) {
            path_of_pair(w, pr, i);
            return st;
        }
    }
    return SV_OK;
}

/* {"k": v, ...}, or NOT_OBJECT_KEYS (with the index in *bad). */
static sv_status map_object_body(sv_jw *w, const sv_pair *pairs, uint32_t n, uint32_t *bad)
{
    if (n == 0) {
        if (!sv__jw_need(w, 2)) return nomem();
        put(w, "{}", 2);
        return SV_OK;
    }
    size_t outer = w->ind;
    w->ind += w->indent;
    sv_status st = members(w, pairs, n, '{', bad);
    if (st) return st;
    w->ind = outer;
    return close_form(w, outer, '}') ? SV_OK : nomem();
}

/* [[k, v], ...]: one pair per line, a pair's key and value on that line. */
static sv_status map_pairs_body(sv_jw *w, const sv_pair *pairs, uint32_t n)
{
    if (n == 0) {
        if (!sv__jw_need(w, 2)) return nomem();
        put(w, "[]", 2);
        return SV_OK;
    }
    size_t outer = w->ind, ci = outer + w->indent;
    w->ind = ci;
    uint8_t open = '[';
    for (uint32_t i = 0; i < n; i++) {
        const sv_pair *pr = &pairs[i];
        if (!sv__jw_need(w, ci + 3 + SV_JW_NL_SLACK)) return nomem();
        *w->p++ = open;
        open = ',';
        if (w->pretty) w->p = sv__jw_nl(w->p, ci);
        *w->p++ = '[';
        sv_status st = write_item(w, &pr->key);
        if (st) return st; /* as in members(): reported at the map */
        if (!sv__jw_need(w, 2)) return nomem();
        *w->p++ = ',';
        if (w->pretty) *w->p++ = ' ';
        if ((st = write_item(w, &pr->val)) != SV_OK) {
            path_of_pair(w, pr, i);
            return st;
        }
        if (!sv__jw_need(w, 1)) return nomem();
        *w->p++ = ']';
    }
    w->ind = outer;
    return close_form(w, outer, ']') ? SV_OK : nomem();
}

/* The payload of a map: {"k": v, ...} when every key is an object key, else
 * the list of pairs. The keys are looked at before anything is written:
 * writing optimistically and starting again at a bad key would write nested
 * maps again at every level, which a hostile tree could make exponential. */
static sv_status map_payload(sv_jw *w, const sv_pair *pairs, uint32_t n, bool *as_pairs)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!object_key(w, &pairs[i].key)) {
            *as_pairs = true;
            return SV_OK;
        }
    }
    *as_pairs = false;
    sv_status st = map_object_body(w, pairs, n, &bad);
    if (st == NOT_OBJECT_KEYS) /* cannot happen: the keys were checked above */
        st = sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: map key");
    return st;
}

static sv_status write_map(sv_jw *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    const sv_container *box = v->as.box;
    const sv_pair *pairs = box ? sv__pairs((sv_container *)box) : NULL;
    const sv_value *meta = w->plain || !box ? NULL : box->meta;
    uint32_t n = v->len;
    bool as_pairs;
    if (meta) {
        /* {"$map": {...} or [[k, v], ...], "$meta": m} */
        size_t outer = w->ind;
        w->ind += w->indent;
        if (!member_head(w, '{', LIT("\"$map\":"))) return nomem();
        if ((st = map_payload(w, pairs, n, &as_pairs)) != SV_OK) return st;
        if (as_pairs && (st = map_pairs_body(w, pairs, n)) != SV_OK) return st;
        if ((st = write_meta(w, meta)) != SV_OK) return st;
        w->ind = outer;
        if (!close_form(w, outer, '}')) return nomem();
    } else {
        if ((st = map_payload(w, pairs, n, &as_pairs)) != SV_OK) return st;
        if (as_pairs && w->plain) {
            if ((st = map_pairs_body(w, pairs, n)) != SV_OK) return st;
        } else if (as_pairs) {
            /* {"$map": [[k, v], ...]}, a single-key form: the list opens on its line */
            if (!sv__jw_need(w, 9)) return nomem();
            put_key_lit(w, LIT("{\"$map\":"));
            if ((st = map_pairs_body(w, pairs, n)) != SV_OK) return st;
            if (!sv__jw_need(w, 1)) return nomem();
            *w->p++ = '}';
        }
    }
    w->depth--;
    return SV_OK;
}

static sv_status write_class(sv_jw *w, const sv_value *cls)
{
    sv_status st;
    if (cls->kind == SV_UINT) {
        if (!sv__jw_need(w, SV_FMT_INT_MAX)) return nomem();
        w->p += sv_fmt_u64(cls->as.u, (char *)w->p);
        return SV_OK;
    }
    st = sv__jw_string(w, cls->as.str, cls->len, 0);
    if (st) sv_error_path_key(w->err, "$class", 6);
    return st;
}

static sv_status field_error(sv_jw *w, const sv_value *v, sv_status st, uint32_t bad)
{
    if (st != NOT_OBJECT_KEYS) return st;
    st = malformed(w, "an object's field names must be untagged UTF-8 strings", v);
    sv_error_path_index(w->err, bad);
    return st;
}

static sv_status write_object(sv_jw *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    const sv_container *box = v->as.box;
    if (!box) return malformed(w, "an object without a class", v);
    const sv_value *cls = box->cls;
    if (!cls || !((cls->kind == SV_STRING && cls->tag == 0 && !(cls->flags & SV_F_UTF16) &&
                   (cls->as.str || !cls->len)) ||
                  cls->kind == SV_UINT))
        return malformed(w, "an object's class must be a UTF-8 string or a uint hash", v);
    const sv_pair *pairs = sv__pairs((sv_container *)box);
    uint32_t n = v->len, bad = 0;
    if (w->plain) {
        st = map_object_body(w, pairs, n, &bad); /* the class is left out */
    } else if (n == 0 && !box->meta) {
        /* {"$class": "X"}: a single-key form with a scalar stays on one line */
        if (!sv__jw_need(w, 11)) return nomem();
        put_key_lit(w, LIT("{\"$class\":"));
        if ((st = write_class(w, cls)) != SV_OK) return st;
        if (!sv__jw_need(w, 1)) return nomem();
        *w->p++ = '}';
    } else {
        size_t outer = w->ind;
        w->ind += w->indent;
        if (!member_head(w, '{', LIT("\"$class\":"))) return nomem();
        if ((st = write_class(w, cls)) != SV_OK) return st;
        if (box->meta && (st = write_meta(w, box->meta)) != SV_OK) return st;
        if ((st = members(w, pairs, n, ',', &bad)) != SV_OK) return field_error(w, v, st, bad);
        w->ind = outer;
        if (!close_form(w, outer, '}')) return nomem();
    }
    if (st) return field_error(w, v, st, bad);
    w->depth--;
    return SV_OK;
}

/* ---- other kinds ---------------------------------------------------------- */

static sv_status write_ref(sv_jw *w, const sv_value *v)
{
    if (!sv__jw_need(w, SV_FMT_INT_MAX + 12)) return nomem();
    if (!w->plain) put_key_lit(w, LIT("{\"$ref\":"));
    if (v->flags & SV_F_NULLREF)
        put(w, "null", 4);
    else
        w->p += sv_fmt_u64(v->as.u, (char *)w->p);
    if (!w->plain) *w->p++ = '}';
    return SV_OK;
}

static sv_status write_string_value(sv_jw *w, const sv_value *v)
{
    if (!v->as.str && v->len) return malformed(w, "a string without storage", v);
    bool utf16 = (v->flags & SV_F_UTF16) != 0;
    if (!utf16 || w->plain) return sv__jw_string(w, v->as.str, v->len, utf16 ? SV_JW_STR_WTF8 : 0);
    if (!sv__jw_need(w, 12)) return nomem();
    put_key_lit(w, LIT("{\"$utf16\":"));
    sv_status st = sv__jw_string(w, v->as.str, v->len, SV_JW_STR_WTF8);
    if (st) return st;
    if (!sv__jw_need(w, 1)) return nomem();
    *w->p++ = '}';
    return SV_OK;
}

/* The same, not inlined (for the rarer tagged values and the root). */
static sv_status write_untagged_call(sv_jw *w, const sv_value *v)
{
    return write_untagged(w, v);
}

static sv_status write_value(sv_jw *w, const sv_value *v)
{
    unsigned tag = v->tag;
    if (tag == 0) return write_untagged_call(w, v);
    if (tag >= SV_TAG_COUNT)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: unknown tag %u",
                            tag);
    const sv_jw_tag *t = &sv__jw_tags[tag];
    unsigned kind = v->kind;
    /* a shape is part of the tuple's or packed array's own form */
    if (kind == SV_TUPLE || (kind == SV_PACKED && t->kind == SV_PACKED))
        return write_untagged_call(w, v);
    if (t->kind != SV_KIND_COUNT && t->kind != kind)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0,
                            "malformed tree: tag %s does not apply to a %s",
                            sv_tag_name((sv_tag)tag), sv_kind_name((sv_kind)kind));
    if (w->plain) return write_untagged_call(w, v);
    /* {"$tag": value}: the value starts on the form's line, at its level */
    if (!sv__jw_need(w, SV_JW_OPEN_MAX + 1)) return nomem();
    memcpy(w->p, t->open, SV_JW_OPEN_MAX);
    w->p += t->open_len;
    if (w->pretty) *w->p++ = ' ';
    sv_status st = write_untagged_call(w, v);
    if (st) return st;
    if (!sv__jw_need(w, 1)) return nomem();
    *w->p++ = '}';
    return SV_OK;
}

/* ---- entry point ------------------------------------------------------------ */

sv_status sv_json_write(const sv_value *v, const sv_json_write_opts *opts, sv_buf *out,
                        sv_error *err)
{
    sv_error_clear(err);
    if (!v || !out)
        return sv_error_set(err, SV_ERR_USAGE, SV_JW_FORMAT, 0, "no value or no output buffer");
    if (!sv_buf_ok(out) || !sv_buf_reserve(out, 4096))
        return sv_error_set(err, SV_ERR_NOMEM, SV_JW_FORMAT, 0, "cannot allocate the output");
    sv_jw w;
    w.buf = out;
    w.err = err;
    w.p = out->data + out->len;
    w.end = out->data + out->cap;
    w.indent = opts && opts->indent > 0 ? (size_t)opts->indent : 0;
    w.ind = 0;
    w.depth = 0;
    w.pretty = w.indent > 0;
    w.plain = opts && opts->plain;
    for (size_t i = 0; i < SV_JW_KEY_CACHE; i++) {
        w.keys[i].str = NULL;
        w.keys[i].len = 0;
    }
    /* object keys: kind STRING, and in typed mode no tag and no UTF16 flag */
    sv_value want, mask;
    memset(&want, 0, sizeof want);
    memset(&mask, 0, sizeof mask);
    want.kind = SV_STRING;
    mask.kind = 0xF;
    if (!w.plain) {
        mask.flags = SV_F_UTF16;
        mask.tag = 0xFFFF;
    }
    w.key_want = head_word(&want);
    w.key_mask = head_word(&mask);
    size_t start = out->len;
    sv_status st = write_value(&w, v);
    /* on failure the buffer is left as it was (less any growth) */
    out->len = st == SV_OK ? (size_t)(w.p - out->data) : start;
    return st;
}
