/* Type lists and serval schemas, both ways, and the schema loader that lets
 * `--schema` read wiztype JSON and class-list XML.
 *
 * KingsIsle type strings become schema types like this (docs/formats/
 * kingsisle.md has the table): the integer, float and string types their
 * primitives; Color, Vector3D, Quaternion, Matrix3x3 and Point<float> the
 * math primitives; Euler, Point, Size and Rect fixed arrays (array<f32,3>,
 * array<i32,2>, ...); the bit integers biN/buiN/s24/u24 value-less enums of
 * those names; enums enums of their type's name; objects the class when the
 * list has it (pointers ptr<class> or shared<class>), else any (objects are polymorphic: the tag decides);
 * dynamic properties vector<T>; types with no known encoding bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "formats/kingsisle/ki_internal.h"
#include "serval/schema.h"

/* ---- type list -> schema ------------------------------------------------------ */

static const char *prim_text(ki_kind k)
{
    switch (k) {
    case KI_BOOL: return "bool";
    case KI_I8: return "i8";
    case KI_U8: return "u8";
    case KI_I16: return "i16";
    case KI_U16:
    case KI_WCHAR: return "u16";
    case KI_I32: return "i32";
    case KI_U32: return "u32";
    case KI_F32: return "f32";
    case KI_F64: return "f64";
    case KI_I64: return "i64";
    case KI_U64: return "u64";
    case KI_STR: return "string";
    case KI_WSTR: return "wstring";
    case KI_COLOR: return "color";
    case KI_VEC3: return "vector3";
    case KI_QUAT: return "quaternion";
    case KI_MAT3: return "matrix3x3";
    case KI_POINT_F: return "vector2";
    case KI_EULER: return "array<f32,3>";
    case KI_SIZE_I:
    case KI_POINT_I: return "array<i32,2>";
    case KI_POINT_U8: return "array<u8,2>";
    case KI_POINT_U32: return "array<u32,2>";
    case KI_RECT_I: return "array<i32,4>";
    case KI_RECT_F: return "array<f32,4>";
    case KI_OPAQUE: return "bytes";
    default: return NULL;
    }
}

/* A class named in an object type: "class Foo", "class Foo*",
 * "class SharedPointer<class Foo>" all name "class Foo". *holder gets the
 * schema generic the property points through: "shared" for a SharedPointer,
 * "ptr" for a "*" type, NULL for an object held by value. The bytes are the
 * same either way (§5.1: a tag, then the body; tag 0 is null), but only a
 * pointer may hold an object of its own class: by value that would be an
 * infinite object, which the schema refuses. */
static void pointee(const char *t, size_t n, const char **name, size_t *len, const char **holder)
{
    static const char sp[] = "class SharedPointer<";
    *holder = NULL;
    if (n > sizeof sp && memcmp(t, sp, sizeof sp - 1) == 0 && t[n - 1] == '>') {
        t += sizeof sp - 1;
        n -= sizeof sp;
        *holder = "shared";
    }
    while (n && (t[n - 1] == '*' || t[n - 1] == ' ')) {
        if (t[n - 1] == '*' && !*holder) *holder = "ptr";
        n--;
    }
    *name = t;
    *len = n;
}

static bool plain_name(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '<' || s[i] == '>' || s[i] == ',' || (unsigned char)s[i] < 0x20) return false;
    return n > 0;
}

static sv_status enum_for(const sv_kingsisle_types *t, sv_schema *s, const ki_prop *p,
                          sv_error *err)
{
    if (sv_schema_enum_by_name(s, p->type, strlen(p->type))) return SV_OK; /* first one wins */
    sv_schema_enum *e;
    sv_status st = sv_schema_add_enum(s, p->type, SV_PRIM_U32, p->bits_enum, &e, err);
    for (uint32_t i = 0; st == SV_OK && p->enm && i < p->enm->n; i++) {
        const ki_enum_opt *o = &p->enm->opts[i];
        if (sv_schema_enum_value_by_name(e, o->name, o->len)) continue;
        st = sv_schema_enum_add(s, e, o->name, o->value, err);
    }
    (void)t;
    return st;
}

static sv_status bits_enum_for(sv_schema *s, const ki_prop *p, sv_error *err)
{
    if (sv_schema_enum_by_name(s, p->type, strlen(p->type))) return SV_OK;
    sv_prim under = p->kind == KI_BITS_S ? (p->bits <= 7 ? SV_PRIM_I8 : SV_PRIM_I32)
                                         : (p->bits <= 7 ? SV_PRIM_U8 : SV_PRIM_U32);
    sv_schema_enum *e;
    return sv_schema_add_enum(s, p->type, under, false, &e, err);
}

static sv_status field_type(const sv_kingsisle_types *t, sv_schema *s, const ki_prop *p,
                            sv_buf *text, sv_error *err)
{
    text->len = 0;
    const char *prim = prim_text((ki_kind)p->kind);
    sv_status st = SV_OK;
    if (p->dynamic) sv_buf_append(text, "vector<", 7);
    if (prim) {
        sv_buf_append(text, prim, strlen(prim));
    } else if (p->kind == KI_BITS_S || p->kind == KI_BITS_U) {
        st = bits_enum_for(s, p, err);
        sv_buf_append(text, p->type, strlen(p->type));
    } else if (p->kind == KI_ENUM) {
        if (!plain_name(p->type, strlen(p->type)))
            return sv_error_set(err, SV_ERR_UNSUPPORTED, KI_FORMAT, 0,
                                "enum type '%s' cannot be a schema name", p->type);
        st = enum_for(t, s, p, err);
        sv_buf_append(text, p->type, strlen(p->type));
    } else {
        const char *n, *holder;
        size_t len;
        pointee(p->type, strlen(p->type), &n, &len, &holder);
        if (plain_name(n, len) && ki_class_by_name(t, n, len)) {
            if (holder) {
                sv_buf_append(text, holder, strlen(holder));
                sv_buf_putc(text, '<');
            }
            sv_buf_append(text, n, len);
            if (holder) sv_buf_putc(text, '>');
        } else {
            sv_buf_append(text, "any", 3);
        }
    }
    if (p->dynamic) sv_buf_putc(text, '>');
    sv_buf_putc(text, 0);
    if (!sv_buf_ok(text)) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    return st;
}

sv_status sv_kingsisle_types_to_schema(const sv_kingsisle_types *t, sv_schema *s, sv_error *err)
{
    sv_buf text;
    sv_buf_init(&text, t->alloc);
    sv_status st = SV_OK;
    for (uint32_t i = 0; st == SV_OK && i < t->nclasses; i++) {
        const ki_class *c = t->classes[i];
        sv_schema_class *sc;
        /* the lists are flattened (§7.1): base properties are already in
         * each class, so no bases are declared */
        st = sv_schema_add_class(s, c->name, &sc, err);
        if (st != SV_OK) break;
        sv_schema_class_set_hash(sc, c->hash);
        for (uint32_t j = 0; st == SV_OK && j < c->nprops; j++) {
            const ki_prop *p = &c->props[j];
            st = field_type(t, s, p, &text, err);
            sv_schema_field *f;
            if (st == SV_OK)
                st = sv_schema_class_add_field(s, sc, p->name, (const char *)text.data, &f, err);
            if (st != SV_OK) break;
            sv_schema_field_set_hash(f, p->hash);
            sv_schema_field_set_id(f, p->id);
            sv_schema_field_set_flags(f, p->flags);
            /* the exact spelling: Point<int> and Size<int>, wchar_t and
             * unsigned short encode alike but are not the same type */
            st = sv_schema_field_set_native(s, f, p->type, err);
        }
    }
    sv_buf_free(&text);
    return st;
}

/* ---- schema -> type list -------------------------------------------------------- */

typedef struct rev {
    const char *type; /* KingsIsle spelling */
    int kind;         /* forced ki_kind, or -1 */
    bool dynamic, bits_enum;
    const sv_schema_enum *enm;
} rev;

static const char *ki_of_prim(sv_prim p)
{
    switch (p) {
    case SV_PRIM_BOOL: return "bool";
    case SV_PRIM_I8: return "char";
    case SV_PRIM_U8: return "unsigned char";
    case SV_PRIM_I16: return "short";
    case SV_PRIM_U16: return "unsigned short";
    case SV_PRIM_I32: return "int";
    case SV_PRIM_U32: return "unsigned int";
    case SV_PRIM_I64: return "__int64";
    case SV_PRIM_U64: return "unsigned __int64";
    case SV_PRIM_F32: return "float";
    case SV_PRIM_F64: return "double";
    case SV_PRIM_STRING: return "std::string";
    case SV_PRIM_WSTRING: return "std::wstring";
    case SV_PRIM_BYTES: return "class SerializedBuffer";
    case SV_PRIM_COLOR: return "class Color";
    case SV_PRIM_VECTOR2: return "class Point<float>";
    case SV_PRIM_VECTOR3: return "class Vector3D";
    case SV_PRIM_QUATERNION: return "class Quaternion";
    case SV_PRIM_MATRIX3X3: return "class Matrix3x3";
    default: return NULL;
    }
}

static const char *ki_of_array(const sv_type *el, uint32_t n)
{
    if (el->kind != SV_TYPE_PRIM) return NULL;
    if (el->prim == SV_PRIM_F32 && n == 3) return "class Euler";
    if (el->prim == SV_PRIM_I32 && n == 2) return "class Point<int>";
    if (el->prim == SV_PRIM_U8 && n == 2) return "class Point<unsigned char>";
    if (el->prim == SV_PRIM_U32 && n == 2) return "class Point<unsigned int>";
    if (el->prim == SV_PRIM_I32 && n == 4) return "class Rect<int>";
    if (el->prim == SV_PRIM_F32 && n == 4) return "class Rect<float>";
    return NULL;
}

static bool reverse(const sv_type *ty, rev *r)
{
    r->kind = -1;
    if (ty->kind == SV_TYPE_GENERIC &&
        (ty->gen == SV_GEN_VECTOR || ty->gen == SV_GEN_LIST || ty->gen == SV_GEN_SET ||
         ty->gen == SV_GEN_USET) &&
        !r->dynamic) {
        r->dynamic = true;
        return reverse(ty->params[0], r);
    }
    switch (ty->kind) {
    case SV_TYPE_PRIM:
        if (ty->prim == SV_PRIM_ANY) {
            r->type = "class PropertyClass";
            r->kind = KI_OBJECT;
            return true;
        }
        r->type = ki_of_prim(ty->prim);
        return r->type != NULL;
    case SV_TYPE_ENUM: {
        uint8_t bits;
        ki_kind k = ki_kind_of_type(ty->name, strlen(ty->name), &bits);
        r->type = ty->name;
        if ((k == KI_BITS_S || k == KI_BITS_U) && ty->enm->nvalues == 0) return true;
        r->kind = KI_ENUM;
        r->bits_enum = ty->enm->bits;
        r->enm = ty->enm;
        return true;
    }
    case SV_TYPE_CLASS:
        r->type = ty->name;
        r->kind = KI_OBJECT;
        return true;
    case SV_TYPE_GENERIC:
        if (ty->gen == SV_GEN_PTR || ty->gen == SV_GEN_SHARED || ty->gen == SV_GEN_UNIQUE ||
            ty->gen == SV_GEN_OPTIONAL) {
            const sv_type *in = ty->params[0];
            r->type = in->name ? in->name : "class PropertyClass";
            r->kind = KI_OBJECT;
            return in->kind == SV_TYPE_CLASS ||
                   (in->kind == SV_TYPE_PRIM && in->prim == SV_PRIM_ANY);
        }
        if (ty->gen == SV_GEN_ARRAY)
            return (r->type = ki_of_array(ty->params[0], ty->array_len)) != NULL;
        return false;
    default: return false;
    }
}

static sv_status add_schema_class(sv_kingsisle_types *t, const sv_schema_class *c, sv_buf *scratch,
                                  sv_error *err)
{
    size_t nf;
    const sv_schema_field *const *fs = sv_schema_class_fields(c, &nf);
    ki_prop_src *ps = nf ? sv__core_mem_calloc(t->alloc, nf, sizeof *ps) : NULL;
    if (nf && !ps) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    sv_status st = SV_OK;
    size_t nopts = 0;
    for (size_t i = 0; i < nf; i++) {
        const sv_type *ty = fs[i]->type;
        if (ty->kind == SV_TYPE_GENERIC && ty->gen == SV_GEN_VECTOR) ty = ty->params[0];
        if (ty->kind == SV_TYPE_ENUM) nopts += ty->enm->nvalues;
    }
    ki_enum_opt *opts = nopts ? sv__core_mem_calloc(t->alloc, nopts, sizeof *opts) : NULL;
    if (nopts && !opts) st = sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    size_t used = 0;
    for (size_t i = 0; st == SV_OK && i < nf; i++) {
        const sv_schema_field *f = fs[i];
        rev r = {0};
        if (!reverse(f->type, &r)) {
            st = sv_error_set(err, SV_ERR_UNSUPPORTED, KI_FORMAT, 0,
                              "class '%s', field '%s': type %s has no KingsIsle encoding", c->name,
                              f->name, f->type->text);
            break;
        }
        ki_prop_src *p = &ps[i];
        p->name = f->name;
        p->name_len = strlen(f->name);
        /* a type list's own spelling when the schema kept it (same encoding) */
        if (f->native && f->native[0] && r.kind != KI_ENUM) {
            uint8_t bits;
            ki_kind nk = ki_kind_of_type(f->native, strlen(f->native), &bits);
            if (nk != KI_OBJECT || r.kind == KI_OBJECT) r.type = f->native;
        }
        p->type = r.type;
        p->type_len = strlen(r.type);
        p->id = f->has_id ? f->id : (uint32_t)i;
        p->flags = f->flags;
        p->dynamic = r.dynamic;
        p->has_hash = f->has_hash;
        p->hash = f->hash;
        p->force_kind = r.kind < 0 ? 0 : (uint8_t)(r.kind + 1);
        p->force_bits_enum = r.bits_enum;
        if (r.enm && r.enm->nvalues <= nopts - used) {
            p->opts = opts + used;
            p->nopts = r.enm->nvalues;
            for (uint32_t k = 0; k < r.enm->nvalues; k++) {
                const sv_schema_enum_value *ev = &r.enm->values[k];
                opts[used++] =
                    (ki_enum_opt){ev->name, (uint32_t)strlen(ev->name), (uint32_t)ev->value};
            }
        }
    }
    (void)scratch;
    if (st == SV_OK) {
        uint32_t hash =
            c->has_hash ? c->hash : ki_string_id((const uint8_t *)c->name, strlen(c->name));
        st = ki_types_add_class(t, c->name, strlen(c->name), hash, ps, nf, "schema", err);
    }
    sv__core_mem_free(t->alloc, ps, nf, sizeof *ps);
    sv__core_mem_free(t->alloc, opts, nopts, sizeof *opts);
    return st;
}

sv_status sv_kingsisle_types_from_schema(const sv_alloc *alloc, const sv_schema *s,
                                         sv_kingsisle_types **out, sv_error *err)
{
    *out = NULL;
    if (!s || !sv_schema_is_final(s))
        return sv_error_set(err, SV_ERR_USAGE, KI_FORMAT, 0, "the schema is not finalised");
    sv_kingsisle_types *t = sv_kingsisle_types_new(alloc);
    if (!t) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    sv_status st = SV_OK;
    for (size_t i = 0; st == SV_OK && i < sv_schema_class_count(s); i++)
        st = add_schema_class(t, sv_schema_class_at(s, i), NULL, err);
    if (st != SV_OK) {
        sv_kingsisle_types_free(t);
        return st;
    }
    *out = t;
    return SV_OK;
}

/* ---- the schema loader ------------------------------------------------------------ */

static int loader_probe(const uint8_t *data, size_t len)
{
    return sv_kingsisle_types_probe(data, len, NULL);
}

static sv_status loader_load(sv_schema *s, const uint8_t *data, size_t len, const char *source,
                             sv_error *err)
{
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    if (!t) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    sv_status st = sv_kingsisle_types_add(t, data, len, source, err);
    if (st == SV_OK) st = sv_kingsisle_types_to_schema(t, s, err);
    sv_kingsisle_types_free(t);
    return st;
}

const sv_schema_loader sv_schema_loader_kingsisle = {
    "kingsisle", "KingsIsle type list (wiztype JSON v1/v2, class-list XML)", loader_probe,
    loader_load};
