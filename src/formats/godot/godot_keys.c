/* Dictionary keys: which two keys the engine takes for the same one.
 *
 * A decoded Dictionary inserts pairs in stream order, so a repeated key
 * keeps its first position and takes the last value (spec §6.4; 3.2.3
 * decodes {1:10, 1:11} as {1:11}). The comparison is Variant::hash_compare,
 * checked on 3.2.3 (tests/godot/gen.gd, "dedupe" vectors):
 *  - different Variant types never match (1 and 1.0 are two keys);
 *  - floats and the fields of math types match when == or both NaN, so
 *    0.0 and -0.0 are one key, and so are two NaNs;
 *  - strings, node paths, byte/int/string arrays match by content; Arrays
 *    element by element;
 *  - Dictionaries never match in 3.x (compared by reference) and match by
 *    content in 4.x (Dictionary::recursive_equal);
 *  - 3.x float Pool arrays match only with the same bits and no NaN (their
 *    hash is over the bytes, then == compares: [0.0] and [-0.0] are two keys,
 *    so are two [NAN]); 4.x compares them NaN-aware, like floats;
 *  - 4.x Dictionaries compare String and StringName keys by their text
 *    (StringLikeVariantComparator);
 *  - objects match only when they are the same instance, which two decoded
 *    objects never are; RID() matches RID() in 3.x.
 * One deliberate difference: a null Object and nil are two keys for the
 * engine, but both are written as nil (spec §5.4), so serval takes them for
 * one key; otherwise decode, encode, decode would not give the same tree.
 *
 * Hash and equality both follow one description of a key (key_rule): what
 * its class is and which parts of it count. The hash covers every part that
 * equality looks at (every number of a Vector3, every element of an Array,
 * every pair of a Dictionary), so keys that differ anywhere rarely collide,
 * and repeated-key detection stays linear however the keys are chosen. */
#include <math.h>
#include <string.h>

#include "core/doc_internal.h"
#include "formats/godot/godot_internal.h"

/* Class of a tree value for key comparison: the Godot type it encodes to.
 * Math tuples also split by integer or float elements, which compare
 * differently (by value or by ==). */
static int key_class(const sv_value *v, bool godot4)
{
    sv_tag t = sv_tag_of(v);
    switch (sv_kind_of(v)) {
    case SV_NULL: return t == SV_TAG_RID ? GD_RID : t == SV_TAG_CALLABLE ? GD_CALLABLE : GD_NIL;
    case SV_BOOL: return GD_BOOL;
    case SV_INT:
    case SV_UINT: return t == SV_TAG_RID ? GD_RID : t == SV_TAG_OBJECT_ID ? GD_OBJECT : GD_INT;
    case SV_FLOAT: return GD_FLOAT;
    case SV_STRING:
        if (t == SV_TAG_NODE_PATH) return GD_NODE_PATH;
        return (t == SV_TAG_STRING_NAME && !godot4) ? GD_STRING_NAME : GD_STRING;
    case SV_BYTES: return GD_PACKED_BYTE;
    case SV_ARRAY:
        if (t == SV_TAG_SIGNAL) return GD_SIGNAL;
        return gd_is_psa(v) ? GD_PACKED_STRING : GD_ARRAY;
    case SV_MAP: return GD_DICTIONARY;
    case SV_OBJECT: return GD_OBJECT;
    case SV_TUPLE: return 100 + t * 2 + (v->sub == SV_ELEM_F32 || v->sub == SV_ELEM_F64);
    case SV_PACKED: return 1000 + t * 16 + v->sub;
    default: return -1;
    }
}

static bool is_float_elem(uint8_t sub)
{
    return sub == SV_ELEM_F32 || sub == SV_ELEM_F64;
}

/* What decides whether two keys of one class are the same key. */
typedef enum key_rule {
    RULE_ALWAYS, /* every two keys of the class match (nil) */
    RULE_NEVER,  /* no two keys match (objects, 3.x Dictionaries) */
    RULE_WORD,   /* one 64-bit word (key_word) */
    RULE_BYTES,  /* the bytes of a string, node path or byte array */
    RULE_NUMS,   /* the numbers (num_atom): floats by ==, NaN matching NaN */
    RULE_BITS,   /* 3.x float Pool arrays: the bytes */
    RULE_SEQ,    /* the elements in order */
    RULE_DICT    /* the pairs in any order (4.x Dictionary::recursive_equal) */
} key_rule;

static bool has_nan(const sv_value *v)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (isnan(sv_number_at(v, i))) return true;
    return false;
}

static key_rule rule_of(const sv_value *v, int cls, bool godot4)
{
    switch (cls) {
    case GD_NIL:
    case GD_CALLABLE: return RULE_ALWAYS;
    case GD_RID: return godot4 ? RULE_WORD : RULE_ALWAYS;
    case GD_OBJECT: return RULE_NEVER; /* two decoded objects are two instances */
    case GD_BOOL:
    case GD_INT:
    case GD_FLOAT: return RULE_WORD;
    case GD_STRING:
    case GD_STRING_NAME:
    case GD_NODE_PATH:
    case GD_PACKED_BYTE: return RULE_BYTES;
    case GD_SIGNAL:
    case GD_ARRAY:
    case GD_PACKED_STRING: return RULE_SEQ;
    case GD_DICTIONARY: return godot4 ? RULE_DICT : RULE_NEVER;
    default:
        if (cls < 0) return RULE_NEVER;
        if (cls >= 1000 && !godot4 && is_float_elem(v->sub))
            return has_nan(v) ? RULE_NEVER : RULE_BITS; /* a NaN matches nothing */
        return RULE_NUMS;
    }
}

/* A float as a word that is equal exactly when the floats are == or both
 * NaN: -0.0 becomes 0.0 and every NaN one NaN. */
static uint64_t float_word(double d)
{
    if (d == 0) return 0;
    if (isnan(d)) return UINT64_C(0x7ff8000000000000);
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* RULE_WORD: the one word a scalar key compares by. */
static uint64_t key_word(const sv_value *v, int cls)
{
    switch (cls) {
    case GD_BOOL: return v->as.b;
    case GD_FLOAT: return float_word(sv_get_f64(v));
    case GD_RID: return sv_get_uint(v);
    default: return v->as.u;
    }
}

/* RULE_NUMS: number i of a tuple or packed array as a word; integers by
 * value (exact beyond 2^53), floats by float_word. Both keys of a class have
 * the same kind of elements, so words are compared like with like. */
static uint64_t num_atom(const sv_value *v, uint32_t i)
{
    if (is_float_elem(v->sub)) return float_word(sv_number_at(v, i));
    size_t es = sv_elem_size((sv_elem)v->sub);
    const uint8_t *p = (const uint8_t *)v->as.data + (size_t)i * es;
    switch ((sv_elem)v->sub) {
    case SV_ELEM_U8: return p[0];
    case SV_ELEM_I8: return (uint64_t)(int64_t)(int8_t)p[0];
    case SV_ELEM_U16: {
        uint16_t x;
        memcpy(&x, p, 2);
        return x;
    }
    case SV_ELEM_I16: {
        int16_t x;
        memcpy(&x, p, 2);
        return (uint64_t)(int64_t)x;
    }
    case SV_ELEM_U32: {
        uint32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    case SV_ELEM_I32: {
        int32_t x;
        memcpy(&x, p, 4);
        return (uint64_t)(int64_t)x;
    }
    default: {
        uint64_t x;
        memcpy(&x, p, 8);
        return x;
    }
    }
}

/* ---- the hash: every part that equality compares ---- */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h;
}

/* murmur3's finalizer: every input bit reaches every output bit, so the low
 * bits that pick a table slot depend on the whole key. */
static uint64_t fmix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

static uint64_t bytes_hash(const uint8_t *p, size_t n)
{
    uint64_t x = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) x = (x ^ p[i]) * UINT64_C(0x100000001b3);
    return x;
}

/* Equal keys (gd_key_equal) get equal hashes: each rule hashes exactly what
 * it compares. Recursion follows the key's nesting, which the decoder has
 * bounded by max_depth. */
uint64_t gd_key_hash(const sv_value *v, bool godot4)
{
    int c = key_class(v, godot4);
    uint64_t h = (uint64_t)(c + 1) * UINT64_C(0x100000001b3);
    switch (rule_of(v, c, godot4)) {
    case RULE_ALWAYS:
    case RULE_NEVER: return h;
    case RULE_WORD: return mix(h, key_word(v, c));
    case RULE_BYTES: return mix(h, bytes_hash((const uint8_t *)v->as.str, v->len));
    case RULE_BITS:
        return mix(h, bytes_hash(v->as.data, (size_t)v->len * sv_elem_size((sv_elem)v->sub)));
    case RULE_NUMS:
        h = mix(h, v->len);
        for (uint32_t i = 0; i < v->len; i++) h = mix(h, num_atom(v, i));
        return h;
    case RULE_SEQ:
        h = mix(h, v->len);
        for (uint32_t i = 0; i < v->len; i++) h = mix(h, gd_key_hash(sv_array_at(v, i), godot4));
        return h;
    case RULE_DICT: {
        /* a sum, so that the order of the pairs does not count */
        uint64_t sum = 0;
        const sv_value m = *v; /* a local copy: the accessors' checks leave the loop */
        for (uint32_t i = 0; i < m.len; i++)
            sum += fmix(
                mix(gd_key_hash(sv_key_at(&m, i), godot4), gd_key_hash(sv_val_at(&m, i), godot4)));
        return mix(mix(h, v->len), sum);
    }
    }
    return h;
}

/* ---- equality ---- */

typedef struct key_cmp {
    sv_doc *doc; /* scratch for comparing Dictionaries */
    bool godot4;
    bool nomem; /* a comparison ran out of memory */
} key_cmp;

static bool dict_eq(key_cmp *k, const sv_value *a, const sv_value *b);

static bool key_eq(key_cmp *k, const sv_value *a, const sv_value *b)
{
    /* the common case first: two string keys */
    if (a->kind == SV_STRING && b->kind == SV_STRING && a->tag == b->tag)
        return a->len == b->len &&
               (a->as.str == b->as.str || memcmp(a->as.str, b->as.str, a->len) == 0);
    int c = key_class(a, k->godot4);
    if (c != key_class(b, k->godot4)) return false;
    key_rule ra = rule_of(a, c, k->godot4), rb = rule_of(b, c, k->godot4);
    if (ra == RULE_NEVER || rb == RULE_NEVER) return false;
    switch (ra) {
    case RULE_ALWAYS: return true;
    case RULE_NEVER: return false;
    case RULE_WORD: return key_word(a, c) == key_word(b, c);
    case RULE_BYTES: return a->len == b->len && memcmp(a->as.str, b->as.str, a->len) == 0;
    case RULE_BITS:
        return a->len == b->len &&
               memcmp(a->as.data, b->as.data, (size_t)a->len * sv_elem_size((sv_elem)a->sub)) == 0;
    case RULE_NUMS:
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (num_atom(a, i) != num_atom(b, i)) return false;
        return true;
    case RULE_SEQ:
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!key_eq(k, sv_array_at(a, i), sv_array_at(b, i))) return false;
        return true;
    case RULE_DICT: return dict_eq(k, a, b);
    }
    return false;
}

/* Slot of hash h in a table of cap slots (a power of two). Callers mix in
 * the table's address, so that inputs cannot be made to crowd one run of
 * slots without knowing it. */
static uint32_t slot_of(uint64_t h, uint32_t cap)
{
    return (uint32_t)fmix(h) & (cap - 1);
}

/* 4.x Dictionary::recursive_equal: same size, every key of a in b with an
 * equal value, in any order. The keys of each are distinct (each was
 * deduplicated when decoded), so pairs in the same order settle it at once;
 * otherwise b's keys go in a hash table, so the check stays linear. */
static bool dict_eq(key_cmp *k, const sv_value *a, const sv_value *b)
{
    if (a->len != b->len) return false;
    /* local copies: the accessors' checks leave the loops */
    const sv_value ma = *a, mb = *b;
    uint32_t n = a->len, i = 0;
    while (i < n && key_eq(k, sv_key_at(&ma, i), sv_key_at(&mb, i))) {
        if (!key_eq(k, sv_val_at(&ma, i), sv_val_at(&mb, i))) return false;
        i++;
    }
    if (i == n) return true;
    uint32_t cap = 32;
    while (cap < n * 2u) cap *= 2;
    size_t bytes = (size_t)cap * sizeof(uint32_t);
    uint32_t *slot = sv__core_doc_scratch_realloc(k->doc, NULL, 0, bytes);
    if (!slot) {
        k->nomem = true;
        return false;
    }
    memset(slot, 0xFF, bytes);
    uint64_t seed = fmix((uint64_t)(uintptr_t)slot);
    for (uint32_t j = i; j < n; j++) {
        uint32_t s = slot_of(gd_key_hash(sv_key_at(&mb, j), k->godot4) ^ seed, cap);
        while (slot[s] != UINT32_MAX) s = (s + 1) & (cap - 1);
        slot[s] = j;
    }
    bool eq = true;
    for (; eq && i < n; i++) {
        uint32_t s = slot_of(gd_key_hash(sv_key_at(&ma, i), k->godot4) ^ seed, cap);
        while (slot[s] != UINT32_MAX && !key_eq(k, sv_key_at(&ma, i), sv_key_at(&mb, slot[s])))
            s = (s + 1) & (cap - 1);
        eq = slot[s] != UINT32_MAX && key_eq(k, sv_val_at(&ma, i), sv_val_at(&mb, slot[s]));
    }
    sv__core_doc_scratch_free(k->doc, slot, bytes);
    return eq && !k->nomem;
}

/* The usual small dictionary has untagged string keys that differ in their
 * length or first, second or last byte: then no two can be equal, which
 * integer compares tell faster than the general comparison. */
static bool small_string_keys_distinct(const sv_pair *p, uint32_t n)
{
    uint64_t sig[16];
    for (uint32_t i = 0; i < n; i++) {
        const sv_value *k = &p[i].key;
        if (k->kind != SV_STRING || k->tag != SV_TAG_NONE) return false;
        /* length, first, second and last byte (the NUL after the string
         * stands in for missing ones) */
        const uint8_t *b = (const uint8_t *)k->as.str;
        uint32_t n0 = k->len;
        sig[i] = (uint64_t)n0 | (uint64_t)b[0] << 32 | (uint64_t)(n0 ? b[1] : 0) << 40 |
                 (uint64_t)(n0 ? b[n0 - 1] : 0) << 48;
        for (uint32_t j = 0; j < i; j++)
            if (sig[j] == sig[i]) return false;
    }
    return true;
}

/* Whether key v can match another: keys that match nothing (objects, 3.x
 * Dictionaries, 3.x float Pool arrays holding a NaN) stay out of the table,
 * where any number of them would share one hash. */
static bool can_match(const sv_value *v, bool godot4)
{
    return rule_of(v, key_class(v, godot4), godot4) != RULE_NEVER;
}

bool gd_map_dedupe(sv_doc *doc, sv_value *map, bool godot4, uint32_t *where)
{
    uint32_t n = map->len;
    if (n < 2) return true;
    sv_pair *p = sv_pairs(map);
    uint32_t out = 0;
    key_cmp k = {doc, godot4, false};
    if (n <= 16 && small_string_keys_distinct(p, n)) return true;
    if (n <= 16) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = 0;
            while (j < out && !key_eq(&k, &p[j].key, &p[i].key)) j++;
            if (k.nomem) return false;
            if (where) where[i] = j;
            if (j < out)
                p[j].val = p[i].val;
            else
                p[out++] = p[i];
        }
        map->len = out;
        return true;
    }
    /* open addressing over pair indexes, with each entry's full hash so that
     * only keys with equal hashes are compared. The table lives in the arena
     * and takes at most 4 x 4 + 8 bytes per pair, while each pair took at
     * least 8 input bytes. */
    uint32_t cap = 32;
    while (cap < n * 2u) cap *= 2;
    uint32_t *slot = sv_doc_alloc(doc, (size_t)cap * sizeof *slot);
    uint64_t *hash = sv_doc_alloc(doc, (size_t)n * sizeof *hash);
    if (!slot || !hash) return false;
    memset(slot, 0xFF, (size_t)cap * sizeof *slot);
    uint64_t seed = fmix((uint64_t)(uintptr_t)slot);
    for (uint32_t i = 0; i < n; i++) {
        if (!can_match(&p[i].key, godot4)) {
            if (where) where[i] = out;
            p[out++] = p[i];
            continue;
        }
        uint64_t h = gd_key_hash(&p[i].key, godot4);
        uint32_t s = slot_of(h ^ seed, cap);
        for (;;) {
            uint32_t e = slot[s];
            if (e == UINT32_MAX) {
                slot[s] = out;
                hash[out] = h;
                if (where) where[i] = out;
                p[out++] = p[i];
                break;
            }
            if (hash[e] == h && key_eq(&k, &p[e].key, &p[i].key)) {
                if (where) where[i] = e;
                p[e].val = p[i].val;
                break;
            }
            if (k.nomem) return false;
            s = (s + 1) & (cap - 1);
        }
    }
    map->len = out;
    return true;
}
