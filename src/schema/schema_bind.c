/* Schemas: binding C structs -- registering a descriptor table as a class,
 * and checking at finalize that every member's size fits its type's C form. */
#include <stddef.h>
#include <string.h>

#include "schema/schema_internal.h"

sv_status sv_schema_bind(sv_schema *s, const sv_cclass *cc, sv_error *err)
{
    sv_error_clear(err);
    if (!s || !cc || !cc->name || (cc->nfields && !cc->fields))
        return sv__schema_fail(err, SV_ERR_USAGE, "no schema or class descriptor");
    sv_schema_class *c;
    sv_status st = sv_schema_add_class(s, cc->name, &c, err);
    if (st) {
        sv__schema_path_prefix(err, "/classes/%zu/name", s->nclasses);
        return st;
    }
    c->c = cc;
    if (cc->base && (st = sv_schema_class_add_base(s, c, cc->base, err))) return st;
    for (size_t j = 0; j < cc->nfields; j++) {
        const sv_cfield *cf = &cc->fields[j];
        sv_schema_field *f;
        st = sv_schema_class_add_field(s, c, cf->name ? cf->name : "", cf->type ? cf->type : "", &f,
                                       err);
        if (st) {
            sv__schema_path_prefix(err, "/classes/%u/fields/%zu", c->index, j);
            return st;
        }
        f->c = cf;
        f->c_offset = cf->offset;
        f->c_size = cf->size;
    }
    return SV_OK;
}

bool sv__schema_type_needs_aux(const sv_type *t)
{
    if (t->kind != SV_TYPE_GENERIC) return false;
    switch (t->gen) {
    case SV_GEN_VECTOR:
    case SV_GEN_LIST:
    case SV_GEN_SET:
    case SV_GEN_USET:
    case SV_GEN_MAP:
    case SV_GEN_UMAP:
    case SV_GEN_OPTIONAL: return true;
    default: return false;
    }
}

/* Alignment of T as a struct member (not its preferred alignment, which
 * differs for 64-bit types on some 32-bit ABIs). */
#define ALIGN_PROBE(name, T)                                                                       \
    struct align_##name {                                                                          \
        char c;                                                                                    \
        T x;                                                                                       \
    };
ALIGN_PROBE(bool, bool)
ALIGN_PROBE(i8, int8_t)
ALIGN_PROBE(i16, int16_t)
ALIGN_PROBE(i32, int32_t)
ALIGN_PROBE(i64, int64_t)
ALIGN_PROBE(f32, float)
ALIGN_PROBE(f64, double)
ALIGN_PROBE(ptr, void *)
ALIGN_PROBE(str, char *)
ALIGN_PROBE(bytes, sv_cbytes)
ALIGN_PROBE(uuid, sv_uuid)
#define MEMBER_ALIGN(name) offsetof(struct align_##name, x)

static size_t int_align(int width)
{
    switch (width) {
    case 1: return MEMBER_ALIGN(i8);
    case 2: return MEMBER_ALIGN(i16);
    case 4: return MEMBER_ALIGN(i32);
    default: return MEMBER_ALIGN(i64);
    }
}

size_t sv__schema_type_c_align(const sv_type *t)
{
    switch (t->kind) {
    case SV_TYPE_PRIM:
        switch (t->prim) {
        case SV_PRIM_BOOL: return MEMBER_ALIGN(bool);
        case SV_PRIM_F64: return MEMBER_ALIGN(f64);
        case SV_PRIM_STRING:
        case SV_PRIM_WSTRING: return MEMBER_ALIGN(str);
        case SV_PRIM_BYTES: return MEMBER_ALIGN(bytes);
        case SV_PRIM_UUID: return MEMBER_ALIGN(uuid);
        case SV_PRIM_ANY: return 0;
        default:
            if (sv_prim_int_width(t->prim)) return int_align(sv_prim_int_width(t->prim));
            return MEMBER_ALIGN(f32); /* f32 and the float[n] math types */
        }
    case SV_TYPE_ENUM: return int_align(sv_prim_int_width(t->enm->underlying));
    case SV_TYPE_CLASS: return t->cls->c ? t->cls->c->align : 0;
    case SV_TYPE_NAME: return 0;
    case SV_TYPE_GENERIC: break;
    }
    switch (t->gen) {
    case SV_GEN_ARRAY:
    case SV_GEN_OPTIONAL: return sv__schema_type_c_align(t->params[0]);
    case SV_GEN_PAIR:
    case SV_GEN_TUPLE: {
        size_t a = 1;
        for (uint32_t i = 0; i < t->nparams; i++) {
            size_t pa = sv__schema_type_c_align(t->params[i]);
            if (!pa) return 0;
            if (pa > a) a = pa;
        }
        return a;
    }
    default: return MEMBER_ALIGN(ptr);
    }
}

size_t sv__schema_c_members(const sv_type *const *params, uint32_t n, size_t *offs)
{
    size_t off = 0, max_align = 1;
    for (uint32_t i = 0; i < n; i++) {
        const sv_type *p = params[i];
        size_t size = sv__schema_type_c_size(p), align = sv__schema_type_c_align(p);
        if (!size || !align || sv__schema_type_needs_aux(p)) return 0;
        off = (off + align - 1) / align * align;
        if (offs) offs[i] = off;
        off += size;
        if (align > max_align) max_align = align;
    }
    return (off + max_align - 1) / max_align * max_align;
}

size_t sv__schema_type_c_size(const sv_type *t)
{
    switch (t->kind) {
    case SV_TYPE_PRIM:
        switch (t->prim) {
        case SV_PRIM_BOOL: return sizeof(bool);
        case SV_PRIM_F32: return sizeof(float);
        case SV_PRIM_F64: return sizeof(double);
        case SV_PRIM_STRING:
        case SV_PRIM_WSTRING: return sizeof(char *);
        case SV_PRIM_BYTES: return sizeof(sv_cbytes);
        case SV_PRIM_UUID: return sizeof(sv_uuid);
        case SV_PRIM_ANY: return 0;
        default:
            if (sv_prim_int_width(t->prim)) return (size_t)sv_prim_int_width(t->prim);
            return sv__schema_prim_scalars(t->prim) * sizeof(float);
        }
    case SV_TYPE_ENUM: return (size_t)sv_prim_int_width(t->enm->underlying);
    case SV_TYPE_CLASS: return t->cls->c ? t->cls->c->size : 0;
    case SV_TYPE_NAME: return 0;
    case SV_TYPE_GENERIC: break;
    }
    switch (t->gen) {
    case SV_GEN_PAIR:
    case SV_GEN_TUPLE: return sv__schema_c_members(t->params, t->nparams, NULL);
    case SV_GEN_MAP:
    case SV_GEN_UMAP: return sv__schema_c_members(t->params, 2, NULL) ? sizeof(void *) : 0;
    default: break;
    }
    const sv_type *e = t->params[0];
    size_t es = sv__schema_type_c_size(e);
    if (es == 0 || sv__schema_type_needs_aux(e)) return 0;
    switch (t->gen) {
    case SV_GEN_ARRAY: return es * t->array_len;
    case SV_GEN_OPTIONAL: return es;
    default: return sizeof(void *); /* vector, list, set, uset, ptr, shared, unique */
    }
}

static sv_status bind_fail(sv_error *err, const sv_schema_class *c, const char *part, uint32_t j)
{
    if (part)
        sv__schema_set_path(err, "/classes/%u/fields/%u%s", c->index, j, part);
    else
        sv__schema_set_path(err, "/classes/%u", c->index);
    return err ? err->status : SV_ERR_TYPE;
}

static bool id_eq(const void *item, const void *key)
{
    return ((const sv_schema_class *)item)->c->class_id == *(const uint32_t *)key;
}

/* The class id member of c: its own descriptor's, else the nearest base's. */
static sv_status find_id_field(sv_schema *s, sv_schema_class *c, sv_error *err)
{
    const sv_schema_class *k = c;
    while (k && k->c && !k->c->id_field) k = k->nbases ? k->bases[0] : NULL;
    if (!k || !k->c) return SV_OK;
    const char *name = k->c->id_field;
    const sv_schema_field *f = sv_schema_field_by_name(c, name, strlen(name));
    if (!f || f->type->kind != SV_TYPE_PRIM || f->type->prim != SV_PRIM_U32 || !f->c) {
        sv__schema_fail(err, SV_ERR_TYPE,
                        "class '%s': class id member '%s' must be a bound u32 field", c->name,
                        name);
        return bind_fail(err, c, NULL, 0);
    }
    sv__schema_cls(c)->id_field = f;
    if (!c->c->id_field) return SV_OK; /* registers no id of its own */
    uint32_t id = c->c->class_id;
    const sv_schema_class *o =
        sv__schema_tab_find(&s->class_ids, sv__schema_hash_u64(id), id_eq, &id);
    if (o) {
        sv__schema_fail(err, SV_ERR_SYNTAX, "classes '%s' and '%s' have the same C class id %u",
                        o->name, c->name, id);
        return bind_fail(err, c, NULL, 0);
    }
    if (!sv__schema_tab_put(&s->class_ids, &s->alloc, sv__schema_hash_u64(id), c))
        return sv__schema_fail(err, SV_ERR_NOMEM, "out of memory");
    return SV_OK;
}

static sv_status check_class(sv_schema *s, sv_schema_class *c, sv_error *err)
{
    const sv_cclass *cc = c->c;
    if (c->nbases > 1) {
        sv__schema_fail(err, SV_ERR_UNSUPPORTED,
                        "class '%s': a bound C struct has at most one base", c->name);
        sv__schema_set_path(err, "/classes/%u/bases/1", c->index);
        return SV_ERR_UNSUPPORTED;
    }
    if (c->nbases == 1) {
        const sv_schema_class *b = c->bases[0];
        if (!b->c || b->c->size > cc->size) {
            sv__schema_fail(err, SV_ERR_TYPE,
                            b->c ? "class '%s': struct is smaller than its base '%s'"
                                 : "class '%s': base '%s' has no C binding",
                            c->name, b->name);
            sv__schema_set_path(err, "/classes/%u/bases/0", c->index);
            return SV_ERR_TYPE;
        }
    }
    for (uint32_t j = 0; j < c->nfields; j++) {
        const sv_schema_field *f = &c->fields[j];
        const sv_type *t = f->type;
        size_t need = sv__schema_type_c_size(t);
        if (!need) {
            sv__schema_fail(err, SV_ERR_UNSUPPORTED,
                            t->kind == SV_TYPE_CLASS ? "field '%s': class '%s' has no C binding"
                                                     : "field '%s': type '%s' has no C form",
                            f->name, t->kind == SV_TYPE_CLASS ? t->cls->name : t->text);
            return bind_fail(err, c, "/type", j);
        }
        bool aux = f->c->aux != SV_CFIELD_NO_AUX;
        if (aux != sv__schema_type_needs_aux(t)) {
            sv__schema_fail(err, SV_ERR_TYPE,
                            aux ? "field '%s': type '%s' takes no count or presence member"
                            : t->gen == SV_GEN_OPTIONAL
                                ? "field '%s': type '%s' needs a presence member (OPTIONAL)"
                                : "field '%s': type '%s' needs a count member (COUNTED)",
                            f->name, t->text);
            return bind_fail(err, c, "", j);
        }
        if (f->c_size != need) {
            sv__schema_fail(err, SV_ERR_TYPE,
                            "field '%s': member is %zu bytes, type '%s' needs %zu", f->name,
                            f->c_size, t->text, need);
            return bind_fail(err, c, "", j);
        }
        size_t auxsz = !aux ? 0 : t->gen == SV_GEN_OPTIONAL ? sizeof(bool) : sizeof(size_t);
        if (f->c_offset > cc->size || cc->size - f->c_offset < f->c_size ||
            (aux && (f->c->aux > cc->size || cc->size - f->c->aux < auxsz))) {
            sv__schema_fail(err, SV_ERR_RANGE, "field '%s': member lies outside the struct",
                            f->name);
            return bind_fail(err, c, "", j);
        }
    }
    return find_id_field(s, c, err);
}

sv_status sv__schema_check_bindings(sv_schema *s, sv_error *err)
{
    for (size_t i = 0; i < s->nclasses; i++) {
        sv_schema_class *c = s->classes[i];
        if (!c->c) continue;
        sv_status st = check_class(s, c, err);
        if (st) return st;
    }
    return SV_OK;
}

const sv_schema_class *sv__schema_class_by_cid(const sv_schema *s, uint32_t id)
{
    return sv__schema_tab_find(&s->class_ids, sv__schema_hash_u64(id), id_eq, &id);
}
