/* Schemas: C structs to and from the value tree through their descriptor
 * tables (sv_schema_bind). Layout rules are in include/serval/schema.h.
 * Recursion follows the data (a linked list of pointers nests), so it is
 * bounded by STRUCT_MAX_DEPTH; a pointer cycle ends there with an error. */
#include <string.h>

#include "core/native_int.h"
#include "schema/schema_internal.h"

#define STRUCT_MAX_DEPTH 1024u

typedef struct sctx {
    const sv_schema *s;
    sv_doc *doc;       /* to_value */
    const sv_alloc *a; /* from_value, free */
    sv_error *err;
} sctx;

static sv_status nomem(sctx *x)
{
    return sv__schema_fail(x->err, SV_ERR_NOMEM, "out of memory");
}

static sv_status too_deep(sctx *x)
{
    return sv__schema_fail(x->err, SV_ERR_DEPTH, "struct nests deeper than %u (a pointer cycle?)",
                           STRUCT_MAX_DEPTH);
}

/* The class of the struct a ptr<T> points to: by its class id member when T
 * has one, else T itself. NULL when the id names no class derived from T. */
static const sv_schema_class *pointee_class(const sv_schema *s, const sv_schema_class *t,
                                            const uint8_t *q)
{
    const sv_schema_field *idf = sv__schema_cls(t)->id_field;
    if (!idf) return t;
    uint32_t id;
    memcpy(&id, q + idf->c_offset, 4);
    const sv_schema_class *actual = sv__schema_class_by_cid(s, id);
    return actual && sv_schema_is_a(actual, t) ? actual : NULL;
}

/* ---- struct -> value --------------------------------------------------------------- */

static sv_status to_value(sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *aux,
                          sv_value *out, unsigned depth);

static sv_status class_to_value(sctx *x, const sv_schema_class *c, const uint8_t *p, sv_value *out,
                                unsigned depth)
{
    if (depth > STRUCT_MAX_DEPTH) return too_deep(x);
    if (!c->c)
        return sv__schema_fail(x->err, SV_ERR_UNSUPPORTED, "class '%s' has no C binding", c->name);
    size_t n;
    const sv_schema_field *const *all = sv_schema_class_fields(c, &n);
    sv_value obj = sv_object(x->doc, sv_str_intern(x->doc, c->name, strlen(c->name)), n);
    if (sv_doc_status(x->doc)) return nomem(x);
    sv_pair *pairs = sv_pairs(&obj);
    for (size_t i = 0; i < n; i++) {
        const sv_schema_field *f = all[i];
        pairs[i].key = sv_str_intern(x->doc, f->name, strlen(f->name));
        const uint8_t *aux = f->c->aux != SV_CFIELD_NO_AUX ? p + f->c->aux : NULL;
        sv_status st = to_value(x, f->type, p + f->c_offset, aux, &pairs[i].val, depth + 1);
        if (st) {
            sv_error_path_key(x->err, f->name, strlen(f->name));
            return st;
        }
    }
    *out = obj;
    return sv_doc_status(x->doc) ? nomem(x) : SV_OK;
}

static sv_status prim_to_value(sctx *x, const sv_type *t, const uint8_t *p, sv_value *out)
{
    int w = sv_prim_int_width(t->prim);
    if (w) {
        *out = sv_prim_is_signed(t->prim) ? sv_int_w(sv__core_native_int(p, w), w)
                                          : sv_uint_w(sv__core_native_uint(p, w), w);
        return SV_OK;
    }
    switch (t->prim) {
    case SV_PRIM_BOOL: {
        bool b;
        memcpy(&b, p, sizeof b);
        *out = sv_bool(b);
        return SV_OK;
    }
    case SV_PRIM_F32: {
        float f;
        memcpy(&f, p, 4);
        *out = sv_f32(f);
        return SV_OK;
    }
    case SV_PRIM_F64: {
        double d;
        memcpy(&d, p, 8);
        *out = sv_f64(d);
        return SV_OK;
    }
    case SV_PRIM_STRING:
    case SV_PRIM_WSTRING: {
        const char *str;
        memcpy(&str, p, sizeof str);
        *out = sv_strz(x->doc, str ? str : "");
        if (t->prim == SV_PRIM_WSTRING) *out = sv_with_flags(*out, SV_F_UTF16);
        break;
    }
    case SV_PRIM_BYTES: {
        sv_cbytes b;
        memcpy(&b, p, sizeof b);
        if (b.size && !b.data)
            return sv__schema_fail(x->err, SV_ERR_USAGE, "bytes with a size and no data");
        *out = sv_bytes(x->doc, b.data, b.size);
        break;
    }
    case SV_PRIM_UUID: {
        char text[39];
        sv_uuid u;
        memcpy(&u, p, sizeof u);
        sv_uuid_format(&u, false, text);
        *out = sv_with_tag(sv_str(x->doc, text, 36), SV_TAG_UUID);
        break;
    }
    default: /* math tuples: float[n] */
        *out = sv_tuple(x->doc, sv__schema_prim_tag(t->prim), SV_ELEM_F32, p);
        break;
    }
    return sv_doc_status(x->doc) ? nomem(x) : SV_OK;
}

static sv_status items_to_value(sctx *x, const sv_type *et, const uint8_t *base, size_t n,
                                sv_value *out, unsigned depth)
{
    size_t es = sv__schema_type_c_size(et);
    if (n > UINT32_MAX) return sv__schema_fail(x->err, SV_ERR_LIMIT, "array of %zu items", n);
    sv_value arr = sv_array(x->doc, n);
    if (sv_doc_status(x->doc)) return nomem(x);
    for (size_t i = 0; i < n; i++) {
        sv_status st = to_value(x, et, base + i * es, NULL, &sv_array_items(&arr)[i], depth + 1);
        if (st) {
            sv_error_path_index(x->err, i);
            return st;
        }
    }
    *out = arr;
    return SV_OK;
}

/* pair and tuple: a struct of their members (sv__schema_c_members lays it out). */
static sv_status members_to_value(sctx *x, const sv_type *t, const uint8_t *p, sv_value *out,
                                  unsigned depth)
{
    size_t offs[64];
    sv__schema_c_members(t->params, t->nparams, offs);
    sv_value arr = sv_array(x->doc, t->nparams);
    if (sv_doc_status(x->doc)) return nomem(x);
    for (uint32_t i = 0; i < t->nparams; i++) {
        sv_status st =
            to_value(x, t->params[i], p + offs[i], NULL, &sv_array_items(&arr)[i], depth + 1);
        if (st) {
            sv_error_path_index(x->err, i);
            return st;
        }
    }
    *out = arr;
    return SV_OK;
}

/* map and umap: a pointer to count {key, value} structs. */
static sv_status map_to_value(sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *aux,
                              sv_value *out, unsigned depth)
{
    size_t offs[2];
    size_t stride = sv__schema_c_members(t->params, 2, offs);
    const uint8_t *items;
    size_t n;
    memcpy(&items, p, sizeof items);
    memcpy(&n, aux, sizeof n);
    if (n && !items) return sv__schema_fail(x->err, SV_ERR_USAGE, "%zu entries and no array", n);
    if (n > UINT32_MAX) return sv__schema_fail(x->err, SV_ERR_LIMIT, "map of %zu entries", n);
    sv_value map = sv_map(x->doc, n);
    if (sv_doc_status(x->doc)) return nomem(x);
    sv_pair *pairs = sv_pairs(&map);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *item = items + i * stride;
        sv_status st = to_value(x, t->params[0], item + offs[0], NULL, &pairs[i].key, depth + 1);
        if (!st) st = to_value(x, t->params[1], item + offs[1], NULL, &pairs[i].val, depth + 1);
        if (st) {
            sv_error_path_index(x->err, i);
            return st;
        }
    }
    *out = map;
    return SV_OK;
}

static sv_status to_value(sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *aux,
                          sv_value *out, unsigned depth)
{
    *out = sv_null();
    if (depth > STRUCT_MAX_DEPTH) return too_deep(x);
    switch (t->kind) {
    case SV_TYPE_PRIM: return prim_to_value(x, t, p, out);
    case SV_TYPE_ENUM: {
        int w = sv_prim_int_width(t->enm->underlying);
        sv_value iv = sv_prim_is_signed(t->enm->underlying)
                          ? sv_int_w(sv__core_native_int(p, w), w)
                          : sv_uint_w(sv__core_native_uint(p, w), w);
        *out = sv_with_tag(iv, SV_TAG_ENUM);
        return SV_OK;
    }
    case SV_TYPE_CLASS: return class_to_value(x, t->cls, p, out, depth);
    default: break;
    }
    if (t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE)
        return members_to_value(x, t, p, out, depth);
    if (t->gen == SV_GEN_MAP || t->gen == SV_GEN_UMAP)
        return map_to_value(x, t, p, aux, out, depth);
    const sv_type *et = t->params[0];
    switch (t->gen) {
    case SV_GEN_ARRAY: return items_to_value(x, et, p, t->array_len, out, depth);
    case SV_GEN_OPTIONAL: {
        bool has;
        memcpy(&has, aux, sizeof has);
        return has ? to_value(x, et, p, NULL, out, depth + 1) : SV_OK;
    }
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE: {
        const uint8_t *q;
        memcpy(&q, p, sizeof q);
        if (!q) return SV_OK;
        if (et->kind != SV_TYPE_CLASS) return to_value(x, et, q, NULL, out, depth + 1);
        const sv_schema_class *actual = pointee_class(x->s, et->cls, q);
        if (!actual)
            return sv__schema_fail(x->err, SV_ERR_TYPE,
                                   "pointee's class id names no class derived from '%s'",
                                   et->cls->name);
        return class_to_value(x, actual, q, out, depth + 1);
    }
    default: { /* vector, list, set, uset: pointer and count */
        const uint8_t *items;
        size_t n;
        memcpy(&items, p, sizeof items);
        memcpy(&n, aux, sizeof n);
        if (n && !items) return sv__schema_fail(x->err, SV_ERR_USAGE, "%zu items and no array", n);
        return items_to_value(x, et, items, n, out, depth);
    }
    }
}

sv_status sv_struct_to_value(const sv_schema *s, const sv_schema_class *c, const void *st,
                             sv_doc *doc, sv_value *out, sv_error *err)
{
    sv_error_clear(err);
    if (!s || !c || !st || !doc || !out)
        return sv__schema_fail(err, SV_ERR_USAGE, "missing argument");
    if (!s->final) return sv__schema_fail(err, SV_ERR_USAGE, "schema is not finalised");
    sctx x = {s, doc, NULL, err};
    return class_to_value(&x, c, st, out, 0);
}

/* ---- freeing --------------------------------------------------------------------------- */

static void free_value(sctx *x, const sv_type *t, uint8_t *p, uint8_t *aux, unsigned depth);

static void free_class(sctx *x, const sv_schema_class *c, uint8_t *p, unsigned depth)
{
    if (depth > STRUCT_MAX_DEPTH || !c->c) return;
    size_t n;
    const sv_schema_field *const *all = sv_schema_class_fields(c, &n);
    for (size_t i = 0; i < n; i++) {
        const sv_schema_field *f = all[i];
        uint8_t *aux = f->c->aux != SV_CFIELD_NO_AUX ? p + f->c->aux : NULL;
        free_value(x, f->type, p + f->c_offset, aux, depth + 1);
    }
}

/* pair and tuple members in place; map entries and then their array. */
static void free_members(sctx *x, const sv_type *t, uint8_t *p, uint8_t *aux, unsigned depth)
{
    size_t offs[64];
    if (t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE) {
        sv__schema_c_members(t->params, t->nparams, offs);
        for (uint32_t i = 0; i < t->nparams; i++)
            free_value(x, t->params[i], p + offs[i], NULL, depth + 1);
        return;
    }
    size_t stride = sv__schema_c_members(t->params, 2, offs);
    uint8_t *items;
    size_t n;
    memcpy(&items, p, sizeof items);
    memcpy(&n, aux, sizeof n);
    if (!items) return;
    for (size_t i = 0; i < n; i++) {
        free_value(x, t->params[0], items + i * stride + offs[0], NULL, depth + 1);
        free_value(x, t->params[1], items + i * stride + offs[1], NULL, depth + 1);
    }
    x->a->free(x->a->ctx, items, n * stride);
}

static void free_value(sctx *x, const sv_type *t, uint8_t *p, uint8_t *aux, unsigned depth)
{
    if (depth > STRUCT_MAX_DEPTH) return;
    if (t->kind == SV_TYPE_PRIM) {
        if (t->prim == SV_PRIM_STRING || t->prim == SV_PRIM_WSTRING) {
            char *str;
            memcpy(&str, p, sizeof str);
            if (str) x->a->free(x->a->ctx, str, strlen(str) + 1);
        } else if (t->prim == SV_PRIM_BYTES) {
            sv_cbytes b;
            memcpy(&b, p, sizeof b);
            if (b.data) x->a->free(x->a->ctx, b.data, b.size);
        }
        return;
    }
    if (t->kind == SV_TYPE_CLASS) {
        free_class(x, t->cls, p, depth);
        return;
    }
    if (t->kind != SV_TYPE_GENERIC) return;
    if (t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE || t->gen == SV_GEN_MAP ||
        t->gen == SV_GEN_UMAP) {
        free_members(x, t, p, aux, depth);
        return;
    }
    const sv_type *et = t->params[0];
    size_t es = sv__schema_type_c_size(et);
    switch (t->gen) {
    case SV_GEN_ARRAY:
        for (size_t i = 0; i < t->array_len; i++) free_value(x, et, p + i * es, NULL, depth + 1);
        return;
    case SV_GEN_OPTIONAL: {
        bool has;
        memcpy(&has, aux, sizeof has);
        if (has) free_value(x, et, p, NULL, depth + 1);
        return;
    }
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE: {
        uint8_t *q;
        memcpy(&q, p, sizeof q);
        if (!q) return;
        size_t size = es;
        if (et->kind == SV_TYPE_CLASS) {
            const sv_schema_class *actual = pointee_class(x->s, et->cls, q);
            if (!actual) actual = et->cls;
            free_class(x, actual, q, depth + 1);
            size = actual->c->size;
        } else {
            free_value(x, et, q, NULL, depth + 1);
        }
        x->a->free(x->a->ctx, q, size);
        return;
    }
    default: {
        uint8_t *items;
        size_t n;
        memcpy(&items, p, sizeof items);
        memcpy(&n, aux, sizeof n);
        if (!items) return;
        for (size_t i = 0; i < n; i++) free_value(x, et, items + i * es, NULL, depth + 1);
        x->a->free(x->a->ctx, items, n * es);
        return;
    }
    }
}

void sv_struct_free(const sv_schema *s, const sv_schema_class *c, void *st, const sv_alloc *alloc)
{
    if (!s || !c || !st || !c->c) return;
    sctx x = {s, NULL, alloc ? alloc : sv_alloc_libc(), NULL};
    free_class(&x, c, st, 0);
    memset(st, 0, c->c->size);
}

/* ---- value -> struct ------------------------------------------------------------------ */

static sv_status from_value(sctx *x, const sv_type *t, const sv_value *v, uint8_t *p, uint8_t *aux,
                            unsigned depth);

static void *zalloc(sctx *x, size_t size)
{
    void *q = x->a->malloc(x->a->ctx, size);
    if (q) memset(q, 0, size);
    return q;
}

/* Fills the struct of class c at p from its natural object v. The class id
 * member (if c declares one) is c's id, not what the value says. */
static sv_status class_from_value(sctx *x, const sv_schema_class *c, const sv_value *v, uint8_t *p,
                                  unsigned depth)
{
    if (depth > STRUCT_MAX_DEPTH) return too_deep(x);
    if (!c->c)
        return sv__schema_fail(x->err, SV_ERR_UNSUPPORTED, "class '%s' has no C binding", c->name);
    const sv_schema_field *idf = c->c->id_field ? sv__schema_cls(c)->id_field : NULL;
    if (idf) sv__core_native_store(p + idf->c_offset, 4, c->c->class_id);
    size_t n;
    const sv_schema_field *const *all = sv_schema_class_fields(c, &n);
    for (size_t i = 0; i < n; i++) {
        const sv_schema_field *f = all[i];
        if (f == idf) continue;
        uint8_t *aux = f->c->aux != SV_CFIELD_NO_AUX ? p + f->c->aux : NULL;
        sv_status st = from_value(x, f->type, sv_val_at(v, i), p + f->c_offset, aux, depth + 1);
        if (st) {
            sv_error_path_key(x->err, f->name, strlen(f->name));
            return st;
        }
    }
    return SV_OK;
}

static sv_status prim_from_value(sctx *x, const sv_type *t, const sv_value *v, uint8_t *p)
{
    int w = sv_prim_int_width(t->prim);
    if (w) {
        sv__core_native_store(p, w, v->kind == SV_INT ? (uint64_t)v->as.i : v->as.u);
        return SV_OK;
    }
    switch (t->prim) {
    case SV_PRIM_BOOL: memcpy(p, &v->as.b, sizeof(bool)); return SV_OK;
    case SV_PRIM_F32: memcpy(p, &v->as.f32, 4); return SV_OK;
    case SV_PRIM_F64: memcpy(p, &v->as.f64, 8); return SV_OK;
    case SV_PRIM_STRING:
    case SV_PRIM_WSTRING: {
        if (memchr(v->as.str, 0, v->len))
            return sv__schema_fail(x->err, SV_ERR_RANGE,
                                   "string holds a NUL byte, which char * cannot");
        char *str = x->a->malloc(x->a->ctx, (size_t)v->len + 1);
        if (!str) return nomem(x);
        memcpy(str, v->as.str, v->len);
        str[v->len] = '\0';
        memcpy(p, &str, sizeof str);
        return SV_OK;
    }
    case SV_PRIM_BYTES: {
        sv_cbytes b = {NULL, v->len};
        if (v->len && !(b.data = x->a->malloc(x->a->ctx, v->len))) return nomem(x);
        if (v->len) memcpy(b.data, v->as.bytes, v->len);
        memcpy(p, &b, sizeof b);
        return SV_OK;
    }
    case SV_PRIM_UUID: {
        sv_uuid u;
        if (!sv_uuid_parse(v->as.str, v->len, &u))
            return sv__schema_fail(x->err, SV_ERR_SYNTAX, "not a UUID");
        memcpy(p, &u, sizeof u);
        return SV_OK;
    }
    default:
        memcpy(p, sv_numbers(v), sv__schema_prim_scalars(t->prim) * sizeof(float));
        return SV_OK;
    }
}

static sv_status items_from_value(sctx *x, const sv_type *et, const sv_value *v, uint8_t *base,
                                  unsigned depth)
{
    size_t es = sv__schema_type_c_size(et);
    for (uint32_t i = 0; i < v->len; i++) {
        sv_status st = from_value(x, et, sv_array_at(v, i), base + i * es, NULL, depth + 1);
        if (st) {
            sv_error_path_index(x->err, i);
            return st;
        }
    }
    return SV_OK;
}

/* pair and tuple members in place (v is an ARRAY of them); map entries into
 * a new array of {key, value} structs (v is a MAP). */
static sv_status members_from_value(sctx *x, const sv_type *t, const sv_value *v, uint8_t *p,
                                    uint8_t *aux, unsigned depth)
{
    size_t offs[64];
    if (t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE) {
        sv__schema_c_members(t->params, t->nparams, offs);
        for (uint32_t i = 0; i < t->nparams; i++) {
            sv_status st =
                from_value(x, t->params[i], sv_array_at(v, i), p + offs[i], NULL, depth + 1);
            if (st) {
                sv_error_path_index(x->err, i);
                return st;
            }
        }
        return SV_OK;
    }
    size_t stride = sv__schema_c_members(t->params, 2, offs);
    size_t n = v->len;
    if (!n) return SV_OK;
    if (n > SIZE_MAX / stride) return nomem(x);
    uint8_t *items = zalloc(x, n * stride);
    if (!items) return nomem(x);
    memcpy(p, &items, sizeof items);
    memcpy(aux, &n, sizeof n);
    for (size_t i = 0; i < n; i++) {
        const sv_value *prk = sv_key_at(v, i);
        const sv_value *prv = sv_val_at(v, i);
        uint8_t *item = items + i * stride;
        sv_status st = from_value(x, t->params[0], prk, item + offs[0], NULL, depth + 1);
        if (!st) st = from_value(x, t->params[1], prv, item + offs[1], NULL, depth + 1);
        if (st) {
            sv_error_path_index(x->err, i);
            return st;
        }
    }
    return SV_OK;
}

static sv_status from_value(sctx *x, const sv_type *t, const sv_value *v, uint8_t *p, uint8_t *aux,
                            unsigned depth)
{
    if (depth > STRUCT_MAX_DEPTH) return too_deep(x);
    switch (t->kind) {
    case SV_TYPE_PRIM: return prim_from_value(x, t, v, p);
    case SV_TYPE_ENUM:
        sv__core_native_store(p, sv_prim_int_width(t->enm->underlying),
                              v->kind == SV_INT ? (uint64_t)v->as.i : v->as.u);
        return SV_OK;
    case SV_TYPE_CLASS: return class_from_value(x, t->cls, v, p, depth);
    default: break;
    }
    if (t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE || t->gen == SV_GEN_MAP ||
        t->gen == SV_GEN_UMAP)
        return members_from_value(x, t, v, p, aux, depth);
    const sv_type *et = t->params[0];
    size_t es = sv__schema_type_c_size(et);
    switch (t->gen) {
    case SV_GEN_ARRAY: return items_from_value(x, et, v, p, depth);
    case SV_GEN_OPTIONAL: {
        bool has = v->kind != SV_NULL;
        memcpy(aux, &has, sizeof has);
        return has ? from_value(x, et, v, p, NULL, depth + 1) : SV_OK;
    }
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE: {
        if (v->kind == SV_NULL) return SV_OK;
        const sv_schema_class *actual = NULL;
        size_t size = es;
        if (et->kind == SV_TYPE_CLASS) {
            const sv_value *cls = sv_object_class(v);
            actual = sv_schema_class_by_name(x->s, cls->as.str, cls->len);
            if (!actual->c)
                return sv__schema_fail(x->err, SV_ERR_UNSUPPORTED, "class '%s' has no C binding",
                                       actual->name);
            if (sv__schema_cls(et->cls)->id_field && !actual->c->id_field)
                return sv__schema_fail(x->err, SV_ERR_UNSUPPORTED,
                                       "class '%s' has no C class id to point to it through '%s'",
                                       actual->name, et->cls->name);
            size = actual->c->size;
        }
        uint8_t *q = zalloc(x, size);
        if (!q) return nomem(x);
        memcpy(p, &q, sizeof q);
        return actual ? class_from_value(x, actual, v, q, depth + 1)
                      : from_value(x, et, v, q, NULL, depth + 1);
    }
    default: {
        size_t n = v->len;
        if (!n) return SV_OK;
        if (n > SIZE_MAX / es) return nomem(x);
        uint8_t *items = zalloc(x, n * es);
        if (!items) return nomem(x);
        memcpy(p, &items, sizeof items);
        memcpy(aux, &n, sizeof n);
        return items_from_value(x, et, v, items, depth);
    }
    }
}

sv_status sv_value_to_struct(const sv_schema *s, const sv_schema_class *c, const sv_value *v,
                             const sv_alloc *alloc, void *st, sv_error *err)
{
    sv_error_clear(err);
    if (!s || !c || !v || !st) return sv__schema_fail(err, SV_ERR_USAGE, "missing argument");
    if (!s->final) return sv__schema_fail(err, SV_ERR_USAGE, "schema is not finalised");
    if (!c->c)
        return sv__schema_fail(err, SV_ERR_UNSUPPORTED, "class '%s' has no C binding", c->name);
    sctx x = {s, NULL, alloc ? alloc : sv_alloc_libc(), err};
    memset(st, 0, c->c->size);
    /* read the value against the class first: plain JSON becomes natural
     * values, and every check is done before anything is allocated */
    sv_doc *tmp = sv_doc_new(x.a);
    if (!tmp) return nomem(&x);
    sv_value nat;
    sv_status rc = sv__schema_read_class(s, c, v, tmp, &nat, err);
    if (!rc) rc = class_from_value(&x, c, &nat, st, 0);
    sv_doc_free(tmp);
    if (rc) sv_struct_free(s, c, st, x.a);
    return rc;
}
