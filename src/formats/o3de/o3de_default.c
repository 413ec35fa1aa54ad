/* Default instances ("a default-constructed object"; docs/formats/o3de.md,
 * "What serval follows", Load), the serializer flags of each type and value
 * equality. */
#include <string.h>

#include "core/compiler.h"

#include "o3de_internal.h"

static const float identity_quat[4] = {0, 0, 0, 1};
static const float identity3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static const float identity34[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
static const float identity4[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
static const float identity_tf[8] = {0, 0, 0, 0, 0, 0, 1, 1};

static sv_value check(o3_ctx *c, sv_value v)
{
    if (sv_doc_status(c->doc) != SV_OK) o3_fail(c, sv_doc_status(c->doc), "out of memory");
    return v;
}

static sv_value prim_default(o3_ctx *c, sv_prim p)
{
    int w = sv_prim_int_width(p);
    if (w) return sv_prim_is_signed(p) ? sv_int_w(0, w) : sv_uint_w(0, w);
    switch (p) {
    case SV_PRIM_BOOL: return sv_bool(false);
    case SV_PRIM_F32: return sv_f32(0);
    case SV_PRIM_F64: return sv_f64(0);
    case SV_PRIM_STRING: return check(c, sv_str(c->doc, "", 0));
    case SV_PRIM_WSTRING: return sv_with_flags(check(c, sv_str(c->doc, "", 0)), SV_F_UTF16);
    case SV_PRIM_BYTES: return check(c, sv_bytes(c->doc, "", 0));
    case SV_PRIM_UUID:
        return sv_with_tag(check(c, sv_strz(c->doc, "00000000-0000-0000-0000-000000000000")),
                           SV_TAG_UUID);
    case SV_PRIM_VECTOR2: return check(c, sv_tuple(c->doc, SV_TAG_VECTOR2, SV_ELEM_F32, NULL));
    case SV_PRIM_VECTOR3: return check(c, sv_tuple(c->doc, SV_TAG_VECTOR3, SV_ELEM_F32, NULL));
    case SV_PRIM_VECTOR4: return check(c, sv_tuple(c->doc, SV_TAG_VECTOR4, SV_ELEM_F32, NULL));
    case SV_PRIM_COLOR: return check(c, sv_tuple(c->doc, SV_TAG_COLOR, SV_ELEM_F32, NULL));
    case SV_PRIM_QUATERNION:
        return check(c, sv_tuple(c->doc, SV_TAG_QUATERNION, SV_ELEM_F32, identity_quat));
    case SV_PRIM_MATRIX3X3:
        return check(c, sv_tuple(c->doc, SV_TAG_MATRIX3X3, SV_ELEM_F32, identity3));
    case SV_PRIM_MATRIX3X4:
        return check(c, sv_tuple(c->doc, SV_TAG_MATRIX3X4, SV_ELEM_F32, identity34));
    case SV_PRIM_MATRIX4X4:
        return check(c, sv_tuple(c->doc, SV_TAG_MATRIX4X4, SV_ELEM_F32, identity4));
    case SV_PRIM_TRANSFORM:
        return check(c, sv_tuple(c->doc, SV_TAG_TRANSFORM, SV_ELEM_F32, identity_tf));
    default: return sv_null();
    }
}

sv_value o3_default_class(o3_ctx *c, const sv_schema_class *cls)
{
    const o3_class_info *ci = o3_class(c, cls);
    if (c->depth > c->max_depth) {
        o3_fail(c, SV_ERR_DEPTH, "class default nests too deeply");
        return sv_null();
    }
    sv_value obj =
        sv_object(c->doc, sv_str_intern(c->doc, cls->name, strlen(cls->name)), ci->nfields);
    if (obj.kind != SV_OBJECT) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return sv_null();
    }
    sv_pair *p = sv_pairs(&obj);
    c->depth++;
    for (size_t i = 0; i < ci->nfields && o3_ok(c); i++) {
        const sv_schema_field *f = ci->fields[i];
        p[i].key = sv_str_intern(c->doc, f->name, strlen(f->name));
        p[i].val = f->def ? *f->def : o3_default_of(c, f->type);
    }
    c->depth--;
    return obj;
}

sv_value o3_default_of(o3_ctx *c, const sv_type *t)
{
    if (!t) return sv_null();
    switch (t->kind) {
    case SV_TYPE_PRIM: return prim_default(c, t->prim);
    case SV_TYPE_ENUM: {
        sv_prim u = t->enm->underlying;
        int w = sv_prim_int_width(u);
        return sv_with_tag(sv_prim_is_signed(u) ? sv_int_w(0, w) : sv_uint_w(0, w), SV_TAG_ENUM);
    }
    case SV_TYPE_CLASS: return o3_default_class(c, t->cls);
    case SV_TYPE_GENERIC: break;
    default: return sv_null();
    }
    switch (t->gen) {
    case SV_GEN_MAP:
    case SV_GEN_UMAP: return check(c, sv_map(c->doc, 0));
    case SV_GEN_ARRAY:
    case SV_GEN_PAIR:
    case SV_GEN_TUPLE: {
        size_t n = t->gen == SV_GEN_ARRAY ? t->array_len : t->nparams;
        sv_value a = check(c, sv_array(c->doc, n));
        if (a.kind != SV_ARRAY) return sv_null();
        sv_value *it = sv_array_items(&a);
        for (size_t i = 0; i < n && o3_ok(c); i++)
            it[i] = o3_default_of(c, t->params[t->gen == SV_GEN_ARRAY ? 0 : i]);
        return a;
    }
    case SV_GEN_OPTIONAL:
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE: return sv_null();
    default: return check(c, sv_array(c->doc, 0));
    }
}

bool o3_type_init_new(const sv_type *t)
{
    if (t->kind == SV_TYPE_PRIM)
        return t->prim != SV_PRIM_STRING && t->prim != SV_PRIM_WSTRING &&
               t->prim != SV_PRIM_BYTES && t->prim != SV_PRIM_ANY;
    return t->kind == SV_TYPE_GENERIC &&
           (t->gen == SV_GEN_ARRAY || t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE);
}

bool o3_type_manual_default(const sv_type *t)
{
    return t->kind == SV_TYPE_GENERIC &&
           (t->gen == SV_GEN_PTR || t->gen == SV_GEN_SHARED || t->gen == SV_GEN_UNIQUE);
}

const char *o3_type_label(const sv_type *t)
{
    return t->text ? t->text : "?";
}

static bool is_num(const sv_value *v)
{
    return v->kind == SV_INT || v->kind == SV_UINT || v->kind == SV_FLOAT;
}

static SV_NOINLINE bool fields_equal(const sv_value *a, const sv_value *b);

/* Equality of two values of one type: numbers by value, everything else by
 * contents, recursively (used for set and map keys and pointer defaults). */
static bool values_equal(const sv_value *a, const sv_value *b)
{
    if (is_num(a) && is_num(b)) {
        if (a->kind == SV_FLOAT || b->kind == SV_FLOAT) return sv_get_f64(a) == sv_get_f64(b);
        if (a->kind == b->kind) return a->as.u == b->as.u;
        return (a->kind == SV_INT ? a->as.i >= 0 : b->as.i >= 0) && a->as.u == b->as.u;
    }
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case SV_NULL: return true;
    case SV_BOOL: return a->as.b == b->as.b;
    case SV_STRING:
    case SV_BYTES: return a->len == b->len && memcmp(a->as.str, b->as.str, a->len) == 0;
    case SV_TUPLE:
    case SV_PACKED:
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (sv_number_at(a, i) != sv_number_at(b, i)) return false;
        return true;
    case SV_ARRAY: {
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!values_equal(sv_array_at(a, i), sv_array_at(b, i))) return false;
        return true;
    }
    case SV_MAP:
    case SV_OBJECT: return fields_equal(a, b);
    default: return sv_equal(a, b);
    }
}

/* Two MAPs or two OBJECTs: class, then field by field in order. Apart from
 * values_equal, which stays small enough to be inlined into its callers. */
static SV_NOINLINE bool fields_equal(const sv_value *a, const sv_value *b)
{
    if (a->len != b->len) return false;
    if (a->kind == SV_OBJECT) {
        size_t la, lb;
        const char *ca = sv_get_str(sv_object_class(a), &la);
        const char *cb = sv_get_str(sv_object_class(b), &lb);
        if (la != lb || memcmp(ca, cb, la) != 0) return false;
    }
    /* local copies: the accessors' checks leave the loop */
    const sv_value ma = *a, mb = *b;
    for (uint32_t i = 0; i < ma.len; i++)
        if (!values_equal(sv_key_at(&ma, i), sv_key_at(&mb, i)) ||
            !values_equal(sv_val_at(&ma, i), sv_val_at(&mb, i)))
            return false;
    return true;
}

bool o3_value_equal(o3_ctx *c, const sv_type *t, const sv_value *a, const sv_value *b)
{
    (void)c;
    (void)t;
    return values_equal(a, b);
}
