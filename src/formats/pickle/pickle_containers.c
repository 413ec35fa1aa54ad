/* The pickle writer: arrays, maps and objects.
 *
 * A map becomes a Python dict when typed JSON writes it as a JSON object
 * (every key an untagged UTF-8 string) and no key occurs twice, since a dict
 * would keep only one of them; otherwise it is a Map, a list of (key, value)
 * tuples, which is what typed JSON's {"$map": [[k, v], ...]} holds. An
 * object is an Object, a dict subclass with the class, or an ObjectPairs
 * when a field name occurs twice. Meta data goes into the wrapper's
 * attributes through BUILD. */
#include <stdlib.h>

#include "core/error_record.h"
#include "formats/pickle/pickle_internal.h"
#include "formats/json/json_write_internal.h"

static sv_status enter(sv_pk *w, const sv_value *v)
{
    if (++w->depth > w->max_depth)
        return sv_error_set(w->err, SV_ERR_DEPTH, SV_PK_FORMAT, 0,
                            "the tree nests deeper than %u containers", w->max_depth);
    if (v->len > (v->as.box ? v->as.box->cap : 0))
        return sv__pickle_pk_malformed(
            w, v->as.box ? "more items than room" : "items without storage", v);
    return SV_OK;
}

static void path_of_field(sv_pk *w, const sv_value *key, uint32_t i)
{
    if (key->kind == SV_STRING && key->as.str)
        sv_error_path_key(w->err, key->as.str, key->len);
    else
        sv_error_path_index(w->err, i);
}

/* ---- keys ------------------------------------------------------------------ */

/* A MAP or an OBJECT: always so where the writer calls it (its callers
 * switch on the kind); said once before a loop over sv_key_at / sv_val_at
 * on a local copy, it lets the compiler drop their kind check from the
 * loop (their range check goes with the loop's bound, the copy's len). */
static inline bool is_fields(const sv_value *m)
{
    return m->kind == SV_MAP || m->kind == SV_OBJECT;
}

static inline size_t key_home(const char *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 55) & (SV_PK_KEY_CACHE - 1);
}

/* An untagged string that is not from UTF-16: the kind of key a dict gets. */
static inline bool plain_string(const sv_value *k)
{
    return k->kind == SV_STRING && k->tag == 0 && !(k->flags & SV_F_UTF16) &&
           (k->as.str || !k->len);
}

static inline bool key_cached(const sv_pk *w, const sv_value *k)
{
    const sv_pk_key *c = &w->keys[key_home(k->as.str)];
    return c->str == k->as.str && c->len == k->len && k->as.str;
}

/* A dict key: from the memo when written before (the same address: keys are
 * interned), else written and memoized. */
static bool write_key(sv_pk *w, const sv_value *k)
{
    sv_pk_key *c = &w->keys[key_home(k->as.str)];
    if (c->str == k->as.str && c->len == k->len && k->as.str) return sv__pickle_pk_get(w, c->memo);
    if (!sv__pickle_pk_unicode(w, k->as.str, k->len) || !sv__pickle_pk_op(w, PK_MEMOIZE))
        return false;
    if (k->as.str) {
        c->str = k->as.str;
        c->len = k->len;
        c->memo = w->memo_next;
    }
    w->memo_next++;
    return true;
}

static inline bool same_key(const sv_value *a, const sv_value *b)
{
    return a->len == b->len &&
           (a->as.str == b->as.str || !a->len || memcmp(a->as.str, b->as.str, a->len) == 0);
}

static uint64_t key_hash(const sv_value *k)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ k->len;
    const uint8_t *s = (const uint8_t *)k->as.str;
    for (uint32_t i = 0; i < k->len; i++) h = (h ^ s[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* Whether two keys of a map of more than 12 (all plain strings) are equal:
 * an open-addressed table of field indices. */
static int large_has_duplicate(sv_pk *w, const sv_value *m)
{
    size_t cap = 16;
    while (cap < (size_t)m->len * 2) cap *= 2;
    if (cap > w->slots_cap) {
        uint32_t *s = (uint32_t *)realloc(w->slots, cap * sizeof *s);
        if (!s) return -1;
        w->slots = s;
        w->slots_cap = cap;
    }
    memset(w->slots, 0xFF, cap * sizeof *w->slots);
    for (uint32_t i = 0; i < m->len; i++) {
        const sv_value *key = sv_key_at(m, i);
        size_t at = (size_t)key_hash(key) & (cap - 1);
        while (w->slots[at] != UINT32_MAX) {
            if (same_key(key, sv_key_at(m, w->slots[at]))) return 1;
            at = (at + 1) & (cap - 1);
        }
        w->slots[at] = i;
    }
    return 0;
}

typedef enum {
    KEYS_OTHER,  /* a key that is not a dict key (an untagged UTF-8 string) */
    KEYS_UNIQUE, /* dict keys, all distinct: a dict holds them */
    KEYS_TWICE,  /* dict keys, one of them twice */
    KEYS_NOMEM
} key_verdict;

/* What the keys of map are. Each is checked; a small map's (the usual
 * one's), kept in a local array as they are read, are then compared with
 * each other, a larger one's go through large_has_duplicate. The keys are
 * read through sv_key_at (a compact object keeps them in a shared shape,
 * not beside its values) on a local copy of the map value, up to its own
 * length, after its kind is known, so that the accessors' checks leave the
 * loop. */
static key_verdict dict_key_verdict(sv_pk *w, const sv_value *map)
{
    const sv_value m = *map;
    if (!is_fields(&m)) return KEYS_OTHER;
    const sv_value *seen[12];
    for (uint32_t i = 0; i < m.len; i++) {
        const sv_value *k = sv_key_at(&m, i);
        if (!plain_string(k)) return KEYS_OTHER;
        if (!key_cached(w, k) && !sv__json_jw_text_ok(k->as.str, k->len, false)) return KEYS_OTHER;
        if (i < 12) seen[i] = k; /* compared below when the map has at most 12 */
    }
    if (m.len > 12) {
        int dup = large_has_duplicate(w, &m);
        return dup < 0 ? KEYS_NOMEM : dup ? KEYS_TWICE : KEYS_UNIQUE;
    }
    for (uint32_t i = 1; i < m.len; i++)
        for (uint32_t j = 0; j < i; j++)
            if (same_key(seen[i], seen[j])) return KEYS_TWICE;
    return KEYS_UNIQUE;
}

/* ---- items ---------------------------------------------------------------- */

static sv_status array_items(sv_pk *w, const sv_value *items, uint32_t n)
{
    if (n == 0) return SV_OK;
    if (!sv__pickle_pk_op(w, PK_MARK)) return sv__pickle_pk_nomem(w);
    for (uint32_t i = 0; i < n; i++) {
        sv_status st = sv__pickle_pk_value(w, &items[i]);
        if (st) {
            sv_error_path_index(w->err, i);
            return st;
        }
    }
    return sv__pickle_pk_op(w, PK_APPENDS) ? SV_OK : sv__pickle_pk_nomem(w);
}

/* MARK k v ... SETITEMS: the keys are known to be dict keys. */
static sv_status dict_items(sv_pk *w, const sv_value *map)
{
    const sv_value m = *map;
    if (m.len == 0 || !is_fields(&m)) return SV_OK;
    if (!sv__pickle_pk_op(w, PK_MARK)) return sv__pickle_pk_nomem(w);
    for (uint32_t i = 0; i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        if (!write_key(w, key)) return sv__pickle_pk_nomem(w);
        sv_status st = sv__pickle_pk_value(w, sv_val_at(&m, i));
        if (st) {
            path_of_field(w, key, i);
            return st;
        }
    }
    return sv__pickle_pk_op(w, PK_SETITEMS) ? SV_OK : sv__pickle_pk_nomem(w);
}

/* MARK (k, v) ... APPENDS. */
static sv_status pair_items(sv_pk *w, const sv_value *map)
{
    const sv_value m = *map;
    if (m.len == 0 || !is_fields(&m)) return SV_OK;
    if (!sv__pickle_pk_op(w, PK_MARK)) return sv__pickle_pk_nomem(w);
    for (uint32_t i = 0; i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        sv_status st = sv__pickle_pk_value(w, key);
        if (st == SV_OK) st = sv__pickle_pk_value(w, sv_val_at(&m, i));
        if (st) {
            path_of_field(w, key, i);
            return st;
        }
        if (!sv__pickle_pk_op(w, PK_TUPLE2)) return sv__pickle_pk_nomem(w);
    }
    return sv__pickle_pk_op(w, PK_APPENDS) ? SV_OK : sv__pickle_pk_nomem(w);
}

/* cls() through NEWOBJ: an empty instance of a list or dict subclass. */
static sv_status new_empty(sv_pk *w, unsigned cls)
{
    sv_status st = sv__pickle_pk_class(w, cls);
    if (st) return st;
    return sv__pickle_pk_op(w, PK_EMPTY_TUPLE) && sv__pickle_pk_op(w, PK_NEWOBJ)
               ? SV_OK
               : sv__pickle_pk_nomem(w);
}

/* {'meta': meta} BUILD */
static sv_status meta_state(sv_pk *w, const sv_value *meta)
{
    if (!sv__pickle_pk_state_begin(w, "meta")) return sv__pickle_pk_nomem(w);
    sv_status st = sv__pickle_pk_value(w, meta);
    if (st) {
        sv_error_path_key(w->err, "$meta", 5);
        return st;
    }
    return sv__pickle_pk_state_end(w) ? SV_OK : sv__pickle_pk_nomem(w);
}

/* ---- arrays, maps, objects ------------------------------------------------------ */

sv_status sv__pickle_pk_array(sv_pk *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    const sv_value *meta = v->as.box ? v->as.box->meta : NULL;
    const sv_value *items = v->as.box ? sv__core_items(v->as.box) : NULL;
    if (meta)
        st = new_empty(w, PKC_ARRAY);
    else if (!sv__pickle_pk_op(w, PK_EMPTY_LIST))
        st = sv__pickle_pk_nomem(w);
    if (st == SV_OK) st = array_items(w, items, v->len);
    if (st == SV_OK && meta) st = meta_state(w, meta);
    w->depth--;
    return st;
}

sv_status sv__pickle_pk_map(sv_pk *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    sv_container *box = v->as.box;
    const sv_value *meta = box ? box->meta : NULL;
    key_verdict keys = dict_key_verdict(w, v);
    if (keys == KEYS_NOMEM) return sv__pickle_pk_nomem(w);
    bool as_dict = keys == KEYS_UNIQUE;
    if (as_dict) {
        if (meta)
            st = new_empty(w, PKC_DICT);
        else if (!sv__pickle_pk_op(w, PK_EMPTY_DICT))
            st = sv__pickle_pk_nomem(w);
        if (st == SV_OK) st = dict_items(w, v);
    } else {
        st = new_empty(w, PKC_MAP);
        if (st == SV_OK) st = pair_items(w, v);
    }
    if (st == SV_OK && meta) st = meta_state(w, meta);
    w->depth--;
    return st;
}

static bool class_ok(const sv_value *cls)
{
    return cls && ((plain_string(cls) && sv__json_jw_text_ok(cls->as.str, cls->len, false)) ||
                   cls->kind == SV_UINT);
}

sv_status sv__pickle_pk_object(sv_pk *w, const sv_value *v)
{
    sv_status st = enter(w, v);
    if (st) return st;
    sv_container *box = v->as.box;
    if (!box) return sv__pickle_pk_malformed(w, "an object without a class", v);
    /* sv_object_class, not box->cls: a compact object's class is its shape's. */
    const sv_value *cls = sv_object_class(v);
    if (!class_ok(cls))
        return sv__pickle_pk_malformed(w, "an object's class must be a UTF-8 string or a uint hash",
                                       v);
    key_verdict keys = dict_key_verdict(w, v);
    if (keys == KEYS_OTHER)
        return sv__pickle_pk_malformed(w, "an object's field names must be untagged UTF-8 strings",
                                       v);
    if (keys == KEYS_NOMEM) return sv__pickle_pk_nomem(w);
    bool dup = keys == KEYS_TWICE;
    st = new_empty(w, dup ? PKC_OBJECT_PAIRS : PKC_OBJECT);
    if (st == SV_OK) st = dup ? pair_items(w, v) : dict_items(w, v);
    if (st) return st;
    /* {'cls': class, 'meta': meta} BUILD */
    if (!sv__pickle_pk_state_begin(w, "cls")) return sv__pickle_pk_nomem(w);
    bool ok = cls->kind == SV_UINT ? sv__pickle_pk_uint(w, cls->as.u)
                                   : sv__pickle_pk_unicode(w, cls->as.str, cls->len);
    if (!ok) return sv__pickle_pk_nomem(w);
    if (box->meta) {
        if (!sv__pickle_pk_unicode(w, "meta", 4)) return sv__pickle_pk_nomem(w);
        if ((st = sv__pickle_pk_value(w, box->meta)) != SV_OK) {
            sv_error_path_key(w->err, "$meta", 5);
            return st;
        }
    }
    if (!sv__pickle_pk_state_end(w)) return sv__pickle_pk_nomem(w);
    w->depth--;
    return SV_OK;
}
