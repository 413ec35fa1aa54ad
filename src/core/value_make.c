/* Making values: scalars, strings, bytes, tuples, packed arrays, containers. */
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"

sv_value sv_null(void)
{
    return sv__core_make(SV_NULL, 0, 0);
}

sv_value sv_bool(bool b)
{
    sv_value v = sv__core_make(SV_BOOL, 0, 0);
    v.as.b = b;
    return v;
}

sv_value sv_bool_raw(uint32_t stored)
{
    sv_value v = sv__core_make(SV_BOOL, 0, 0);
    v.as.b = stored != 0;
    v.len = stored > 1 ? stored : 0;
    return v;
}

sv_value sv_int(int64_t i)
{
    sv_value v = sv__core_make(SV_INT, 8, 0);
    v.as.i = i;
    return v;
}

sv_value sv_uint(uint64_t u)
{
    sv_value v = sv__core_make(SV_UINT, 8, 0);
    v.as.u = u;
    return v;
}

static unsigned valid_width(int width)
{
    return (width == 1 || width == 2 || width == 4 || width == 8) ? (unsigned)width : 8u;
}

sv_value sv_int_w(int64_t i, int width)
{
    sv_value v = sv__core_make(SV_INT, valid_width(width), SV_F_EXPLICIT);
    v.as.i = i;
    return v;
}

sv_value sv_uint_w(uint64_t u, int width)
{
    sv_value v = sv__core_make(SV_UINT, valid_width(width), SV_F_EXPLICIT);
    v.as.u = u;
    return v;
}

sv_value sv_f64(double d)
{
    sv_value v = sv__core_make(SV_FLOAT, 8, 0);
    v.as.f64 = d;
    return v;
}

sv_value sv_f32(float f)
{
    sv_value v = sv__core_make(SV_FLOAT, 4, SV_F_EXPLICIT);
    v.as.u = 0;
    v.as.f32 = f;
    return v;
}

sv_value sv_ref(uint64_t target)
{
    sv_value v = sv__core_make(SV_REF, 0, 0);
    v.as.u = target;
    return v;
}

sv_value sv_ref_null(void)
{
    return sv__core_make(SV_REF, 0, SV_F_NULLREF);
}

sv_value sv_with_tag(sv_value v, sv_tag tag)
{
    v.tag = (uint16_t)tag;
    return v;
}

sv_value sv_with_flags(sv_value v, unsigned flags)
{
    v.flags = (v.flags | flags) & 0xF;
    return v;
}

/* Room for len bytes plus a NUL, as a STRING or BYTES value. */
static sv_value blob_new(sv_doc *doc, sv_kind kind, size_t len)
{
    if (!doc) return sv_null();
    if (len > UINT32_MAX) {
        if (doc->status == SV_OK) doc->status = SV_ERR_LIMIT;
        return sv_null();
    }
    char *p = sv_doc_alloc(doc, len + 1);
    if (!p) return sv_null();
    p[len] = '\0';
    sv_value v = sv__core_make(kind, 0, 0);
    v.len = (uint32_t)len;
    v.as.str = p;
    return v;
}

sv_value sv_str_uninit(sv_doc *doc, size_t len)
{
    return blob_new(doc, SV_STRING, len);
}
sv_value sv_bytes_uninit(sv_doc *doc, size_t len)
{
    return blob_new(doc, SV_BYTES, len);
}

sv_value sv_str(sv_doc *doc, const char *s, size_t len)
{
    sv_value v = blob_new(doc, SV_STRING, len);
    if (v.kind == SV_STRING && len) memcpy((char *)v.as.str, s, len);
    return v;
}

sv_value sv_strz(sv_doc *doc, const char *s)
{
    return sv_str(doc, s, s ? strlen(s) : 0);
}

sv_value sv_bytes(sv_doc *doc, const void *p, size_t len)
{
    sv_value v = blob_new(doc, SV_BYTES, len);
    if (v.kind == SV_BYTES && len) memcpy((char *)v.as.str, p, len);
    return v;
}

void *sv_value_buf(sv_value *v)
{
    if (!v) return NULL;
    switch (v->kind) {
    case SV_STRING:
    case SV_BYTES:
    case SV_TUPLE:
    case SV_PACKED: return v->flags & SV_F_BORROWED ? NULL : (void *)v->as.data;
    default: return NULL;
    }
}

static sv_value numbers_new(sv_doc *doc, sv_kind kind, sv_elem elem, sv_tag tag, const void *data,
                            size_t count)
{
    size_t esize = sv_elem_size(elem);
    if (!doc || !esize) return sv_null();
    if (count > UINT32_MAX || count > SIZE_MAX / esize) {
        if (doc->status == SV_OK) doc->status = SV_ERR_LIMIT;
        return sv_null();
    }
    void *p = sv_doc_alloc(doc, count * esize);
    if (!p) return sv_null();
    if (data) {
        if (count) memcpy(p, data, count * esize);
    } else {
        memset(p, 0, count * esize);
    }
    sv_value v = sv__core_make(kind, elem, 0);
    v.tag = (uint16_t)tag;
    v.len = (uint32_t)count;
    v.as.data = p;
    return v;
}

sv_value sv_tuple(sv_doc *doc, sv_tag shape, sv_elem elem, const void *data)
{
    if (sv_tag_kind(shape) != SV_TUPLE) return sv_null();
    return numbers_new(doc, SV_TUPLE, elem, shape, data, sv_tag_scalars(shape));
}

sv_value sv_packed(sv_doc *doc, sv_elem elem, sv_tag shape, const void *data, size_t count)
{
    if (shape != SV_TAG_NONE) {
        if (sv_tag_kind(shape) != SV_PACKED || count % sv_tag_scalars(shape) != 0) return sv_null();
    }
    return numbers_new(doc, SV_PACKED, elem, shape, data, count);
}

sv_value sv__core_packed_borrowed(sv_doc *doc, sv_elem elem, sv_tag shape, const void *data,
                                  size_t count)
{
    size_t esize = sv_elem_size(elem);
    if (!doc || !esize || !data) return sv_null();
    if (count > UINT32_MAX) {
        if (doc->status == SV_OK) doc->status = SV_ERR_LIMIT;
        return sv_null();
    }
    sv_value v = sv__core_make(SV_PACKED, elem, SV_F_BORROWED);
    v.tag = (uint16_t)shape;
    v.len = (uint32_t)count;
    v.as.data = data;
    return v;
}

sv_container *sv__core_box_new(sv_doc *doc, size_t item_size, size_t cap)
{
    if (!doc) return NULL;
    if (cap > UINT32_MAX || cap > (SIZE_MAX - sizeof(sv_container)) / item_size) {
        if (doc->status == SV_OK) doc->status = SV_ERR_LIMIT;
        return NULL;
    }
    sv_container *box = sv_doc_alloc(doc, sizeof(sv_container) + cap * item_size);
    if (!box) return NULL;
    sv__core_box_init(box, cap);
    return box;
}

static sv_value container_new(sv_doc *doc, sv_kind kind, size_t item_size, size_t count)
{
    sv_container *box = sv__core_box_new(doc, item_size, count);
    if (!box) return sv_null();
    /* zero bytes are null values (kind SV_NULL is 0) */
    if (count) memset(box + 1, 0, count * item_size);
    sv_value v = sv__core_make(kind, 0, 0);
    v.len = (uint32_t)count;
    v.as.box = box;
    return v;
}

sv_value sv_array(sv_doc *doc, size_t count)
{
    return container_new(doc, SV_ARRAY, sizeof(sv_value), count);
}

sv_value sv_map(sv_doc *doc, size_t count)
{
    return container_new(doc, SV_MAP, sizeof(sv_pair), count);
}

sv_value sv_object(sv_doc *doc, sv_value cls, size_t count)
{
    if (cls.kind != SV_STRING && cls.kind != SV_UINT) return sv_null();
    sv_value *c = sv_doc_alloc(doc, sizeof *c);
    if (!c) return sv_null();
    *c = cls;
    sv_value v = container_new(doc, SV_OBJECT, sizeof(sv_pair), count);
    if (v.kind == SV_OBJECT) v.as.box->cls = c;
    return v;
}

sv_value sv__core_array_from(sv_doc *doc, const sv_value *items, size_t n)
{
    sv_container *box = sv__core_box_new(doc, sizeof(sv_value), n);
    if (!box) return sv_null();
    if (n) memcpy(box + 1, items, n * sizeof(sv_value));
    sv_value v = sv__core_make(SV_ARRAY, 0, 0);
    v.len = (uint32_t)n;
    v.as.box = box;
    return v;
}

sv_value sv__core_pairs_from(sv_doc *doc, sv_kind kind, const sv_pair *pairs, size_t n)
{
    sv_container *box = sv__core_box_new(doc, sizeof(sv_pair), n);
    if (!box) return sv_null();
    if (n) memcpy(box + 1, pairs, n * sizeof(sv_pair));
    sv_value v = sv__core_make(kind, 0, 0);
    v.len = (uint32_t)n;
    v.as.box = box;
    return v;
}

/* Makes room for one more item, doubling the capacity in the arena. */
static bool container_reserve_one(sv_doc *doc, sv_value *c, size_t item_size)
{
    sv_container *box = c->as.box;
    if (c->len < box->cap) return true;
    if (c->len == UINT32_MAX) {
        if (doc->status == SV_OK) doc->status = SV_ERR_LIMIT;
        return false;
    }
    size_t cap = box->cap < 4 ? 4 : (size_t)box->cap * 2;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    size_t old_size = sizeof(sv_container) + (size_t)box->cap * item_size;
    sv_container *nb = sv_doc_realloc(doc, box, old_size, sizeof(sv_container) + cap * item_size);
    if (!nb) return false;
    nb->cap = (uint32_t)cap;
    c->as.box = nb;
    return true;
}

/* The status a failed arena allocation left (SV_ERR_NOMEM or SV_ERR_LIMIT). */
static sv_status alloc_failure(const sv_doc *doc)
{
    return doc->status != SV_OK ? doc->status : SV_ERR_NOMEM;
}

sv_status sv_array_append(sv_doc *doc, sv_value *arr, sv_value item)
{
    if (!doc || !arr) return SV_ERR_USAGE;
    if (arr->kind != SV_ARRAY) return SV_ERR_TYPE;
    if (!container_reserve_one(doc, arr, sizeof(sv_value))) return alloc_failure(doc);
    sv__core_items(arr->as.box)[arr->len++] = item;
    return SV_OK;
}

sv_status sv_map_append(sv_doc *doc, sv_value *map, sv_value key, sv_value val)
{
    if (!doc || !map) return SV_ERR_USAGE;
    if (map->kind != SV_MAP && map->kind != SV_OBJECT) return SV_ERR_TYPE;
    if (sv__core_is_compact(map)) {
        /* the new key has no place in the shared shape: pairs from here on */
        sv_status st = sv__core_expand(doc, map, (size_t)map->len + 1);
        if (st != SV_OK) return st;
    }
    if (!container_reserve_one(doc, map, sizeof(sv_pair))) return alloc_failure(doc);
    sv_pair *p = &sv__core_pairs(map->as.box)[map->len++];
    p->key = key;
    p->val = val;
    return SV_OK;
}

sv_status sv_map_append_str(sv_doc *doc, sv_value *map, const char *key, sv_value val)
{
    if (!doc || !map || !key) return SV_ERR_USAGE;
    if (map->kind != SV_MAP && map->kind != SV_OBJECT) return SV_ERR_TYPE;
    sv_value k = sv_str_intern(doc, key, strlen(key));
    if (k.kind != SV_STRING) return alloc_failure(doc);
    return sv_map_append(doc, map, k, val);
}

sv_status sv_meta_set(sv_doc *doc, sv_value *container, sv_value meta)
{
    if (!doc || !container) return SV_ERR_USAGE;
    if (container->kind != SV_ARRAY && container->kind != SV_MAP && container->kind != SV_OBJECT)
        return SV_ERR_TYPE;
    sv_value *m = sv_doc_alloc(doc, sizeof *m);
    if (!m) return alloc_failure(doc);
    *m = meta;
    container->as.box->meta = m;
    return SV_OK;
}

/* ---- deprecated names (value.h), kept for one release ---------------------- */

bool sv_array_push(sv_doc *doc, sv_value *arr, sv_value item)
{
    return sv_array_append(doc, arr, item) == SV_OK;
}

bool sv_map_put(sv_doc *doc, sv_value *map, sv_value key, sv_value val)
{
    return sv_map_append(doc, map, key, val) == SV_OK;
}

bool sv_map_put_str(sv_doc *doc, sv_value *map, const char *key, sv_value val)
{
    return sv_map_append_str(doc, map, key, val) == SV_OK;
}

bool sv_set_meta(sv_doc *doc, sv_value *container, sv_value meta)
{
    return sv_meta_set(doc, container, meta) == SV_OK;
}
