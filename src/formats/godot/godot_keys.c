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
 * one key; otherwise decode, encode, decode would not give the same tree. */
#include <math.h>
#include <string.h>

#include "formats/godot/godot_internal.h"


/* Class of a tree value for key comparison: the Godot type it encodes to. */
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
    case SV_TUPLE: return 100 + t;
    case SV_PACKED: return 200 + t * 16 + v->sub;
    default: return -1;
    }
}

static bool num_eq(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* 3.x Pool float arrays: same bits and no NaN. */
static bool packed_floats_eq_v3(const sv_value *a, const sv_value *b)
{
    if (a->len != b->len || a->sub != b->sub) return false;
    size_t es = sv_elem_size((sv_elem)a->sub);
    if (memcmp(a->as.data, b->as.data, (size_t)a->len * es) != 0) return false;
    for (uint32_t i = 0; i < a->len; i++)
        if (isnan(sv_number_at(a, i))) return false;
    return true;
}

static bool numbers_eq(const sv_value *a, const sv_value *b, bool nan_aware)
{
    if (a->len != b->len) return false;
    if (a->sub == b->sub && (a->sub != SV_ELEM_F32 && a->sub != SV_ELEM_F64))
        return memcmp(a->as.data, b->as.data, (size_t)a->len * sv_elem_size((sv_elem)a->sub)) == 0;
    for (uint32_t i = 0; i < a->len; i++) {
        double x = sv_number_at(a, i), y = sv_number_at(b, i);
        if (!(nan_aware ? num_eq(x, y) : x == y)) return false;
    }
    return true;
}

static bool str_eq(const sv_value *a, const sv_value *b)
{
    return a->len == b->len &&
           (a->as.str == b->as.str || memcmp(a->as.str, b->as.str, a->len) == 0);
}

static bool dict_content_eq(const sv_value *a, const sv_value *b, bool godot4);

bool gd_key_equal(const sv_value *a, const sv_value *b, bool godot4)
{
    /* the common case first: two string keys */
    if (a->kind == SV_STRING && b->kind == SV_STRING && a->tag == b->tag) return str_eq(a, b);
    int ca = key_class(a, godot4);
    if (ca < 0 || ca != key_class(b, godot4)) return false;
    switch (ca) {
    case GD_NIL:
    case GD_CALLABLE: return true;
    case GD_RID: return godot4 ? sv_get_uint(a) == sv_get_uint(b) : true;
    case GD_OBJECT: return false; /* two decoded objects are two instances */
    case GD_BOOL: return a->as.b == b->as.b;
    case GD_INT: return a->as.u == b->as.u;
    case GD_FLOAT: return num_eq(sv_get_f64(a), sv_get_f64(b));
    case GD_STRING:
    case GD_STRING_NAME:
    case GD_NODE_PATH:
    case GD_PACKED_BYTE: return str_eq(a, b);
    case GD_SIGNAL:
    case GD_ARRAY:
    case GD_PACKED_STRING: {
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!gd_key_equal(sv_array_at(a, i), sv_array_at(b, i), godot4)) return false;
        return true;
    }
    case GD_DICTIONARY: return godot4 && dict_content_eq(a, b, godot4);
    default:
        if (ca >= 200 && !godot4 && (a->sub == SV_ELEM_F32 || a->sub == SV_ELEM_F64))
            return packed_floats_eq_v3(a, b);
        return numbers_eq(a, b, true); /* math tuples */
    }
}

/* 4.x Dictionary::recursive_equal: same size, every key of a in b with an
 * equal value (order does not matter). */
static bool dict_content_eq(const sv_value *a, const sv_value *b, bool godot4)
{
    if (a->len != b->len) return false;
    const sv_pair *pa = sv_pairs(a), *pb = sv_pairs(b);
    for (uint32_t i = 0; i < a->len; i++) {
        uint32_t j = 0;
        while (j < b->len && !gd_key_equal(&pa[i].key, &pb[j].key, godot4))
            j++;
        if (j == b->len || !gd_key_equal(&pa[i].val, &pb[j].val, godot4)) return false;
    }
    return true;
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h;
}

static uint64_t hash_double(double d)
{
    if (d == 0) d = 0; /* -0.0 and 0.0 alike */
    if (isnan(d)) return 0x7ff8;
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Equal keys (gd_key_equal) must get equal hashes; the reverse need not hold. */
uint64_t gd_key_hash(const sv_value *v, bool godot4)
{
    int c = key_class(v, godot4);
    uint64_t h = (uint64_t)(c + 1) * UINT64_C(0x100000001b3);
    switch (c) {
    case GD_BOOL: return mix(h, v->as.b);
    case GD_INT:
    case GD_OBJECT: return mix(h, v->as.u);
    case GD_RID: return godot4 ? mix(h, sv_get_uint(v)) : h;
    case GD_FLOAT: return mix(h, hash_double(sv_get_f64(v)));
    case GD_STRING:
    case GD_STRING_NAME:
    case GD_NODE_PATH:
    case GD_PACKED_BYTE: {
        uint64_t x = UINT64_C(0xcbf29ce484222325);
        for (uint32_t i = 0; i < v->len; i++)
            x = (x ^ (uint8_t)v->as.str[i]) * UINT64_C(0x100000001b3);
        return mix(h, x);
    }
    default:
        if (c >= 100 && v->len) return mix(mix(h, v->len), hash_double(sv_number_at(v, 0)));
        return mix(h, v->len);
    }
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

bool gd_map_dedupe(sv_doc *doc, sv_value *map, bool godot4, uint32_t *where)
{
    uint32_t n = map->len;
    if (n < 2) return true;
    sv_pair *p = sv_pairs(map);
    uint32_t out = 0;
    if (n <= 16 && small_string_keys_distinct(p, n)) return true;
    if (n <= 16) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = 0;
            while (j < out && !gd_key_equal(&p[j].key, &p[i].key, godot4))
                j++;
            if (where) where[i] = j;
            if (j < out)
                p[j].val = p[i].val;
            else
                p[out++] = p[i];
        }
        map->len = out;
        return true;
    }
    /* open addressing over pair indexes; the table lives in the arena and is
     * at most 4 x 4 bytes per pair, while each pair took at least 8 input bytes */
    uint32_t cap = 32;
    while (cap < n * 2u)
        cap *= 2;
    uint32_t *slot = sv_doc_alloc(doc, (size_t)cap * sizeof *slot);
    if (!slot) return false;
    memset(slot, 0xFF, (size_t)cap * sizeof *slot);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = (uint32_t)gd_key_hash(&p[i].key, godot4) & (cap - 1);
        for (;;) {
            if (slot[s] == UINT32_MAX) {
                slot[s] = out;
                if (where) where[i] = out;
                p[out++] = p[i];
                break;
            }
            if (gd_key_equal(&p[slot[s]].key, &p[i].key, godot4)) {
                if (where) where[i] = slot[s];
                p[slot[s]].val = p[i].val;
                break;
            }
            s = (s + 1) & (cap - 1);
        }
    }
    map->len = out;
    return true;
}
