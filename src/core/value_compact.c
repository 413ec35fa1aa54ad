/* Compact objects: a shape (class and field names, once per document) and
 * objects that hold only their values (docs/value-tree.md). Readers reach
 * both layouts through sv_key_at / sv_val_at; this file makes shapes and
 * compact objects, turns a compact object back into pairs before a change
 * that needs its own keys, and compacts a whole tree (a test aid that also
 * shrinks trees built with sv_object). */
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"

#define COMPACT_MAX_DEPTH 4096u

static void fail(sv_doc *doc, sv_status st)
{
    if (doc && doc->status == SV_OK) doc->status = st;
}

/* A shape of class cls with room for count field names after it (the
 * caller writes them): what sv_shape_new and sv_compact_objects share. */
static sv_shape *shape_alloc(sv_doc *doc, sv_value cls, size_t count)
{
    if (count > UINT32_MAX || count > (SIZE_MAX - sizeof(sv_shape)) / sizeof(sv_value)) {
        fail(doc, SV_ERR_LIMIT);
        return NULL;
    }
    sv_shape *shape = sv_doc_alloc(doc, sizeof *shape + count * sizeof(sv_value));
    if (!shape) return NULL;
    shape->cls = cls;
    shape->count = (uint32_t)count;
    shape->unused = 0;
    return shape;
}

const sv_shape *sv_shape_new(sv_doc *doc, sv_value cls, const sv_value *keys, size_t count)
{
    if (!doc) return NULL;
    /* bad arguments give NULL without making the document fail, as
     * sv_object does for a bad class */
    if ((cls.kind != SV_STRING && cls.kind != SV_UINT) || (count && !keys)) return NULL;
    for (size_t i = 0; i < count; i++)
        if (keys[i].kind != SV_STRING) return NULL; /* an object's field names are strings */
    sv_shape *shape = shape_alloc(doc, cls, count);
    if (shape && count) memcpy(shape + 1, keys, count * sizeof(sv_value));
    return shape;
}

sv_value sv_object_compact(sv_doc *doc, const sv_shape *shape)
{
    if (!doc || !shape) return sv_null();
    sv_container *box = sv__core_box_new(doc, sizeof(sv_value), shape->count);
    if (!box) return sv_null();
    sv__core_compact_init(box, shape);
    /* zero bytes are null values (kind SV_NULL is 0) */
    if (shape->count) memset(box + 1, 0, (size_t)shape->count * sizeof(sv_value));
    sv_value v = sv__core_make(SV_OBJECT, 0, 0);
    v.len = shape->count;
    v.as.box = box;
    return v;
}

sv_status sv__core_expand(sv_doc *doc, sv_value *obj, size_t cap)
{
    if (cap < obj->len) cap = obj->len;
    sv_container *old = obj->as.box;
    sv_container *box = sv__core_box_new(doc, sizeof(sv_pair), cap);
    if (!box) return doc->status != SV_OK ? doc->status : SV_ERR_NOMEM;
    box->meta = old->meta;
    box->cls = old->cls; /* the shape's class value: it lives in the document too */
    const sv_value *keys = sv_shape_keys((const sv_shape *)(const void *)old->cls);
    const sv_value *vals = sv__core_items(old);
    sv_pair *pairs = sv__core_pairs(box);
    for (uint32_t i = 0; i < obj->len; i++) {
        pairs[i].key = keys[i];
        pairs[i].val = vals[i];
    }
    obj->as.box = box;
    return SV_OK;
}

sv_status sv_object_expand(sv_doc *doc, sv_value *obj)
{
    if (!doc || !obj) return SV_ERR_USAGE;
    if (obj->kind != SV_MAP && obj->kind != SV_OBJECT) return SV_ERR_TYPE;
    if (!sv__core_is_compact(obj)) return SV_OK;
    return sv__core_expand(doc, obj, obj->len);
}

/* ---- sv_compact_objects ------------------------------------------------- */

/* The shapes met so far, by a hash of class and field names (open
 * addressing; the table doubles at half full). */
typedef struct shape_slot {
    const sv_shape *shape;
    uint64_t hash;
} shape_slot;

typedef struct shape_table {
    const sv_alloc *alloc; /* the document's: the table is freed at the end */
    shape_slot *slots;
    size_t cap, used;
} shape_table;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_fields(const sv_value *cls, const sv_value *obj)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint8_t kind = cls->kind;
    h = mix(h, &kind, 1);
    h = cls->kind == SV_STRING ? mix(h, cls->as.str, cls->len) : mix(h, &cls->as.u, 8);
    h = mix(h, &obj->len, sizeof obj->len);
    for (uint32_t i = 0; i < obj->len; i++) {
        const sv_value *k = sv_key_at(obj, i);
        h = mix(h, &k->len, sizeof k->len);
        h = mix(h, k->as.str, k->len);
    }
    return h;
}

static bool same_fields(const sv_shape *s, const sv_value *cls, const sv_value *obj)
{
    if (s->count != obj->len || !sv_equal(&s->cls, cls)) return false;
    const sv_value *keys = sv_shape_keys(s);
    for (uint32_t i = 0; i < obj->len; i++) {
        const sv_value *k = sv_key_at(obj, i);
        if (keys[i].len != k->len || memcmp(keys[i].as.str, k->as.str, k->len) != 0) return false;
    }
    return true;
}

static bool table_grow(shape_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    shape_slot *slots = t->alloc->malloc(t->alloc->ctx, cap * sizeof *slots);
    if (!slots) return false;
    memset(slots, 0, cap * sizeof *slots);
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].shape) continue;
        size_t j = t->slots[i].hash & (cap - 1);
        while (slots[j].shape) j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    if (t->slots) t->alloc->free(t->alloc->ctx, t->slots, t->cap * sizeof *t->slots);
    t->slots = slots;
    t->cap = cap;
    return true;
}

/* The shape of obj's class and field names: one met before, or a new one. */
static const sv_shape *shape_for(sv_doc *doc, shape_table *t, const sv_value *obj)
{
    const sv_value *cls = obj->as.box->cls;
    uint64_t h = hash_fields(cls, obj);
    if (t->used * 2 >= t->cap && !table_grow(t)) {
        fail(doc, SV_ERR_NOMEM);
        return NULL;
    }
    size_t j = h & (t->cap - 1);
    for (; t->slots[j].shape; j = (j + 1) & (t->cap - 1))
        if (t->slots[j].hash == h && same_fields(t->slots[j].shape, cls, obj))
            return t->slots[j].shape;
    /* the keys gathered straight into the block (can_compact checked that
     * they are strings, the class too) */
    sv_shape *s = shape_alloc(doc, *cls, obj->len);
    if (!s) return NULL;
    sv_value *keys = (sv_value *)(void *)(s + 1);
    for (uint32_t i = 0; i < obj->len; i++) keys[i] = *sv_key_at(obj, i);
    t->slots[j].shape = s;
    t->slots[j].hash = h;
    t->used++;
    return s;
}

/* A pair-layout OBJECT with a class and string keys: those become compact. */
static bool can_compact(const sv_value *v)
{
    if (v->kind != SV_OBJECT || v->as.box->layout != SV_LAYOUT_PAIRS) return false;
    const sv_value *cls = v->as.box->cls;
    if (!cls || (cls->kind != SV_STRING && cls->kind != SV_UINT)) return false;
    for (uint32_t i = 0; i < v->len; i++)
        if (sv_key_at(v, i)->kind != SV_STRING) return false;
    return true;
}

static bool compact_rec(sv_doc *doc, shape_table *t, sv_value *v, unsigned depth)
{
    if (depth > COMPACT_MAX_DEPTH) {
        fail(doc, SV_ERR_DEPTH);
        return false;
    }
    if (v->kind == SV_ARRAY) {
        sv_value *items = sv__core_items(v->as.box);
        for (uint32_t i = 0; i < v->len; i++)
            if (!compact_rec(doc, t, &items[i], depth + 1)) return false;
        return true;
    }
    if (v->kind != SV_MAP && v->kind != SV_OBJECT) return true;
    for (uint32_t i = 0; i < v->len; i++)
        if (!compact_rec(doc, t, sv_val_at(v, i), depth + 1)) return false;
    if (!can_compact(v)) return true;
    const sv_shape *s = shape_for(doc, t, v);
    if (!s) return false;
    sv_value obj = sv_object_compact(doc, s);
    if (obj.kind != SV_OBJECT) return false;
    obj.as.box->meta = v->as.box->meta;
    for (uint32_t i = 0; i < v->len; i++) *sv_val_at(&obj, i) = *sv_val_at(v, i);
    obj.tag = v->tag;
    obj.flags = v->flags;
    obj.sub = v->sub;
    *v = obj;
    return true;
}

sv_status sv_compact_objects(sv_doc *doc, sv_value *root)
{
    if (!doc || !root) return SV_ERR_USAGE;
    shape_table t = {&doc->alloc, NULL, 0, 0};
    bool ok = compact_rec(doc, &t, root, 0);
    if (t.slots) t.alloc->free(t.alloc->ctx, t.slots, t.cap * sizeof *t.slots);
    if (ok) return SV_OK;
    return doc->status != SV_OK ? doc->status : SV_ERR_NOMEM;
}
