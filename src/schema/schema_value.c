/* Schemas: values of a type -- reading a value tree (typed JSON as read)
 * against a type into its natural value, and the zero value of a type.
 * Recursion follows the value's nesting, bounded by READ_MAX_DEPTH. */
#include <stdlib.h>
#include <string.h>

#include "schema/schema_internal.h"

#define READ_MAX_DEPTH 1024u

typedef struct rctx {
    const sv_schema *s;
    sv_doc *doc;
    sv_error *err;
} rctx;

static sv_status rd(rctx *r, const sv_type *t, const sv_value *v, sv_value *out, unsigned depth);
static sv_status zero(rctx *r, const sv_type *t, sv_value *out, unsigned depth);

static sv_status nomem(rctx *r)
{
    return sv__schema_fail(r->err, SV_ERR_NOMEM, "out of memory");
}

static sv_status check_doc(rctx *r)
{
    return sv_doc_status(r->doc) ? nomem(r) : SV_OK;
}

static sv_status want(rctx *r, const sv_type *t, const sv_value *v)
{
    return sv__schema_fail(r->err, SV_ERR_TYPE, "expected %s, got %s", t->text,
                           sv_kind_name(sv_kind_of(v)));
}

/* ---- scalars ------------------------------------------------------------------- */

static sv_status int_value(rctx *r, sv_prim p, uint64_t bits, bool neg_ok, bool from_signed,
                           const char *what, sv_value *out)
{
    int w = sv_prim_int_width(p);
    bool sig = sv_prim_is_signed(p);
    int64_t i = (int64_t)bits;
    bool fits;
    if (sig) {
        if (!from_signed && bits > (uint64_t)INT64_MAX)
            fits = false;
        else if (w == 8)
            fits = true;
        else {
            int64_t lim = (int64_t)1 << (8 * w - 1);
            fits = i >= -lim && i < lim;
        }
    } else {
        if (from_signed && i < 0)
            fits = false;
        else
            fits = w == 8 || bits < ((uint64_t)1 << (8 * w));
    }
    (void)neg_ok;
    if (!fits) {
        if (from_signed)
            return sv__schema_fail(r->err, SV_ERR_RANGE, "value %lld does not fit %s", (long long)i,
                                   what);
        return sv__schema_fail(r->err, SV_ERR_RANGE, "value %llu does not fit %s",
                               (unsigned long long)bits, what);
    }
    *out = sig ? sv_int_w(i, w) : sv_uint_w(bits, w);
    return SV_OK;
}

static sv_status read_int(rctx *r, const sv_type *t, sv_prim p, const sv_value *v, sv_value *out)
{
    if (v && v->kind == SV_INT) return int_value(r, p, (uint64_t)v->as.i, true, true, t->text, out);
    if (v && v->kind == SV_UINT) return int_value(r, p, v->as.u, true, false, t->text, out);
    return want(r, t, v);
}

static sv_status read_math(rctx *r, const sv_type *t, const sv_value *v, sv_value *out)
{
    sv_tag tag = sv__schema_prim_tag(t->prim);
    unsigned n = sv_tag_scalars(tag);
    float f[16];
    if (v && v->kind == SV_TUPLE && v->tag == tag && v->len == n) {
        for (unsigned i = 0; i < n; i++) f[i] = (float)sv_number_at(v, i);
    } else if (v && v->kind == SV_ARRAY) {
        if (v->len != n)
            return sv__schema_fail(r->err, SV_ERR_TYPE, "expected %s: %u numbers, got %u", t->text,
                                   n, (unsigned)v->len);
        for (unsigned i = 0; i < n; i++) {
            const sv_value *e = sv_array_at(v, i);
            sv_kind k = sv_kind_of(e);
            if (k != SV_INT && k != SV_UINT && k != SV_FLOAT) {
                sv__schema_fail(r->err, SV_ERR_TYPE, "expected a number, got %s", sv_kind_name(k));
                sv_error_path_index(r->err, i);
                return SV_ERR_TYPE;
            }
            f[i] = (float)sv_get_f64(e);
        }
    } else {
        return want(r, t, v);
    }
    *out = sv_tuple(r->doc, tag, SV_ELEM_F32, f);
    return check_doc(r);
}

static sv_status read_prim(rctx *r, const sv_type *t, const sv_value *v, sv_value *out)
{
    sv_kind k = sv_kind_of(v);
    switch (t->prim) {
    case SV_PRIM_BOOL:
        if (k != SV_BOOL) return want(r, t, v);
        *out = sv_bool(v->as.b);
        return SV_OK;
    case SV_PRIM_I8:
    case SV_PRIM_I16:
    case SV_PRIM_I32:
    case SV_PRIM_I64:
    case SV_PRIM_U8:
    case SV_PRIM_U16:
    case SV_PRIM_U32:
    case SV_PRIM_U64: return read_int(r, t, t->prim, v, out);
    case SV_PRIM_F32:
    case SV_PRIM_F64:
        if (k != SV_INT && k != SV_UINT && k != SV_FLOAT) return want(r, t, v);
        if (t->prim == SV_PRIM_F32)
            *out = k == SV_FLOAT && v->sub == 4 ? sv_f32(v->as.f32) : sv_f32((float)sv_get_f64(v));
        else
            *out = k == SV_FLOAT && v->sub == 4 ? sv_f64((double)v->as.f32) : sv_f64(sv_get_f64(v));
        return SV_OK;
    case SV_PRIM_STRING:
    case SV_PRIM_WSTRING: {
        if (k != SV_STRING) return want(r, t, v);
        *out = sv_str(r->doc, v->as.str, v->len);
        if (t->prim == SV_PRIM_WSTRING) *out = sv_with_flags(*out, SV_F_UTF16);
        return check_doc(r);
    }
    case SV_PRIM_BYTES:
        if (k != SV_BYTES) return want(r, t, v);
        *out = sv_bytes(r->doc, v->as.bytes, v->len);
        return check_doc(r);
    case SV_PRIM_UUID: {
        sv_uuid u;
        if (k != SV_STRING) return want(r, t, v);
        if (!sv_uuid_parse(v->as.str, v->len, &u))
            return sv__schema_fail(r->err, SV_ERR_SYNTAX, "'%.*s' is not a UUID",
                                   (int)(v->len > 60 ? 60 : v->len), v->as.str);
        char text[39];
        sv_uuid_format(&u, false, text);
        *out = sv_with_tag(sv_str(r->doc, text, 36), SV_TAG_UUID);
        return check_doc(r);
    }
    case SV_PRIM_ANY: *out = sv_copy(r->doc, v); return check_doc(r);
    default: return read_math(r, t, v, out);
    }
}

/* ---- enums --------------------------------------------------------------------- */

static sv_status enum_out(rctx *r, const sv_schema_enum *e, uint64_t bits, sv_value *out)
{
    int w = sv_prim_int_width(e->underlying);
    *out = sv_with_tag(sv_prim_is_signed(e->underlying) ? sv_int_w((int64_t)bits, w)
                                                        : sv_uint_w(bits, w),
                       SV_TAG_ENUM);
    (void)r;
    return SV_OK;
}

static sv_status enum_name(rctx *r, const sv_schema_enum *e, const char *p, size_t n,
                           uint64_t *bits)
{
    /* *bits is written on every path, the failure too, so a caller never
     * holds an unset value (gcc -O3 cannot see that the failure status is
     * never SV_OK). */
    *bits = 0;
    while (n && *p == ' ') p++, n--;
    while (n && p[n - 1] == ' ') n--;
    const sv_schema_enum_value *ev = sv_schema_enum_value_by_name(e, p, n);
    if (!ev)
        return sv__schema_fail(r->err, SV_ERR_NOT_FOUND, "'%.*s' is not a value of enum '%s'",
                               (int)(n > 60 ? 60 : n), p, e->name);
    *bits = ev->value;
    return SV_OK;
}

static sv_status read_enum(rctx *r, const sv_type *t, const sv_value *v, sv_value *out)
{
    const sv_schema_enum *e = t->enm;
    sv_kind k = sv_kind_of(v);
    if (k == SV_INT || k == SV_UINT) {
        sv_value iv;
        sv_status st = int_value(r, e->underlying, k == SV_INT ? (uint64_t)v->as.i : v->as.u, true,
                                 k == SV_INT, t->text, &iv);
        if (st) return st;
        return enum_out(r, e, iv.kind == SV_INT ? (uint64_t)iv.as.i : iv.as.u, out);
    }
    if (k != SV_STRING) return want(r, t, v);
    uint64_t bits = 0;
    if (!e->bits) {
        sv_status st = enum_name(r, e, v->as.str, v->len, &bits);
        if (st) return st;
        return enum_out(r, e, bits, out);
    }
    /* a bit-flag enum: "A|B|C", or "" for none */
    const char *p = v->as.str, *end = p + v->len;
    while (p < end) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *q = bar ? bar : end;
        uint64_t one;
        sv_status st = enum_name(r, e, p, (size_t)(q - p), &one);
        if (st) return st;
        bits |= one;
        p = bar ? bar + 1 : end;
    }
    return enum_out(r, e, bits, out);
}

/* ---- classes ------------------------------------------------------------------- */

/* The value of a field that the input leaves out: its default, else zero. */
static sv_status field_fill(rctx *r, const sv_schema_field *f, sv_value *out, unsigned depth)
{
    if (!f->def) return zero(r, f->type, out, depth + 1);
    if (r->s->final) {
        *out = sv_copy(r->doc, f->def);
        return check_doc(r);
    }
    /* while finalising, defaults of other classes may not be read yet */
    return rd(r, f->type, f->def, out, depth + 1);
}

/* Whether v lists every field of the class, in the class's order: the form
 * a read value has. Read by position, such a value keeps a field that a
 * derived one of the same name hides (both keys are in it, the hidden one
 * first), which a lookup by name could not tell apart. */
static bool in_field_order(const sv_value *v, const sv_schema_field *const *all, size_t nall)
{
    if (sv_len(v) != nall) return false;
    for (size_t i = 0; i < nall; i++) {
        const sv_value *pk = sv_key_at(v, (uint32_t)i);
        size_t klen;
        const char *key = sv_get_str(pk, &klen);
        if (pk->kind != SV_STRING || klen != strlen(all[i]->name) ||
            memcmp(key, all[i]->name, klen) != 0)
            return false;
    }
    return true;
}

static sv_status read_fields(rctx *r, const sv_schema_class *c, const sv_value *v, sv_value *out,
                             unsigned depth)
{
    size_t nall;
    const sv_schema_field *const *all = sv_schema_class_fields(c, &nall);
    sv_value obj = sv_object(r->doc, sv_str_intern(r->doc, c->name, strlen(c->name)), nall);
    if (check_doc(r)) return SV_ERR_NOMEM;
    sv_pair *pairs = sv_pairs(&obj);
    if (in_field_order(v, all, nall)) {
        sv_status st = SV_OK;
        for (size_t i = 0; i < nall && !st; i++) {
            const sv_value *pv = sv_val_at(v, (uint32_t)i);
            pairs[i].key = sv_str_intern(r->doc, all[i]->name, strlen(all[i]->name));
            st = rd(r, all[i]->type, pv, &pairs[i].val, depth + 1);
            if (st) sv_error_path_key(r->err, all[i]->name, strlen(all[i]->name));
        }
        if (!st) st = check_doc(r);
        *out = obj;
        return st;
    }
    /* which fields the input gave; a field hidden by a derived one of the
     * same name is filled like a missing one */
    uint8_t small[256];
    const sv_alloc *a = &r->s->alloc;
    uint8_t *given = nall <= sizeof small ? small : a->malloc(a->ctx, nall);
    if (!given) return nomem(r);
    memset(given, 0, nall);
    sv_status st = SV_OK;
    uint32_t n = sv_len(v);
    for (uint32_t i = 0; i < n && !st; i++) {
        const sv_value *pk = sv_key_at(v, i);
        const sv_value *pv = sv_val_at(v, i);
        size_t klen;
        const char *key = sv_get_str(pk, &klen);
        if (pk->kind != SV_STRING) {
            st = sv__schema_fail(r->err, SV_ERR_TYPE, "class '%s': field names must be strings",
                                 c->name);
            break;
        }
        size_t idx = sv__schema_field_index(c, key, klen);
        if (idx == SIZE_MAX) {
            st = sv__schema_fail(r->err, SV_ERR_NOT_FOUND, "class '%s' has no field '%.*s'",
                                 c->name, (int)(klen > 60 ? 60 : klen), key);
            sv_error_path_key(r->err, key, klen);
            break;
        }
        const sv_schema_field *f = all[idx];
        if (given[idx]) {
            st = sv__schema_fail(r->err, SV_ERR_SYNTAX, "field '%s' given twice", f->name);
            sv_error_path_key(r->err, key, klen);
            break;
        }
        given[idx] = 1;
        st = rd(r, f->type, pv, &pairs[idx].val, depth + 1);
        if (st) sv_error_path_key(r->err, key, klen);
    }
    for (size_t i = 0; i < nall && !st; i++) {
        pairs[i].key = sv_str_intern(r->doc, all[i]->name, strlen(all[i]->name));
        if (!given[i]) st = field_fill(r, all[i], &pairs[i].val, depth);
    }
    if (given != small) a->free(a->ctx, given, nall);
    if (!st) st = check_doc(r);
    *out = obj;
    return st;
}

/* An OBJECT's class, found in the schema by name or hash. */
static const sv_schema_class *object_class(rctx *r, const sv_value *v)
{
    const sv_value *cls = sv_object_class(v);
    if (cls && cls->kind == SV_STRING) return sv_schema_class_by_name(r->s, cls->as.str, cls->len);
    if (cls && cls->kind == SV_UINT && cls->as.u <= UINT32_MAX)
        return sv_schema_class_by_hash(r->s, (uint32_t)cls->as.u);
    return NULL;
}

static sv_status read_class(rctx *r, const sv_schema_class *c, bool derived_ok, const sv_value *v,
                            sv_value *out, unsigned depth)
{
    if (sv_kind_of(v) == SV_MAP) return read_fields(r, c, v, out, depth);
    if (sv_kind_of(v) != SV_OBJECT)
        return sv__schema_fail(r->err, SV_ERR_TYPE, "expected an object of class '%s', got %s",
                               c->name, sv_kind_name(sv_kind_of(v)));
    const sv_schema_class *actual = object_class(r, v);
    if (!actual) {
        const sv_value *cls = sv_object_class(v);
        if (cls && cls->kind == SV_STRING)
            return sv__schema_fail(r->err, SV_ERR_NOT_FOUND, "unknown class '%.*s'",
                                   (int)(cls->len > 60 ? 60 : cls->len), cls->as.str);
        return sv__schema_fail(r->err, SV_ERR_NOT_FOUND, "unknown class hash %llu",
                               (unsigned long long)sv_get_uint(cls));
    }
    if (actual != c && !(derived_ok && sv_schema_is_a(actual, c)))
        return sv__schema_fail(r->err, SV_ERR_TYPE, "expected an object of class '%s', got '%s'",
                               c->name, actual->name);
    return read_fields(r, actual, v, out, depth);
}

/* ---- generics ------------------------------------------------------------------- */

static sv_status read_items(rctx *r, const sv_type *t, const sv_value *v, sv_value *out,
                            unsigned depth)
{
    if (sv_kind_of(v) != SV_ARRAY) return want(r, t, v);
    uint32_t n = v->len;
    uint32_t need = t->gen == SV_GEN_ARRAY                            ? t->array_len
                    : t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE ? t->nparams
                                                                      : n;
    if (n != need)
        return sv__schema_fail(r->err, SV_ERR_TYPE, "expected %s: %u items, got %u", t->text,
                               (unsigned)need, (unsigned)n);
    sv_value arr = sv_array(r->doc, n);
    if (check_doc(r)) return SV_ERR_NOMEM;
    sv_value *dst = sv_array_items(&arr);
    for (uint32_t i = 0; i < n; i++) {
        const sv_type *et =
            t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE ? t->params[i] : t->params[0];
        sv_status st = rd(r, et, sv_array_at(v, i), &dst[i], depth + 1);
        if (st) {
            sv_error_path_index(r->err, i);
            return st;
        }
    }
    *out = arr;
    return SV_OK;
}

/* A map key: a plain JSON object gives string keys, so an integer key type
 * also takes a key written in decimal ("5"). */
static sv_status read_key(rctx *r, const sv_type *kt, const sv_value *k, sv_value *out,
                          unsigned depth)
{
    if (k->kind == SV_STRING && kt->kind == SV_TYPE_PRIM && sv_prim_int_width(kt->prim) && k->len &&
        k->len < 24) {
        char buf[24];
        memcpy(buf, k->as.str, k->len);
        buf[k->len] = '\0';
        char *end;
        sv_value num;
        if (buf[0] == '-') {
            long long i = strtoll(buf, &end, 10);
            num = sv_int(i);
        } else {
            unsigned long long u = strtoull(buf, &end, 10);
            num = sv_uint(u);
        }
        if (*end == '\0' && buf[0] != '+' && buf[0] != ' ') return rd(r, kt, &num, out, depth + 1);
    }
    return rd(r, kt, k, out, depth + 1);
}

static sv_status read_map(rctx *r, const sv_type *t, const sv_value *v, sv_value *out,
                          unsigned depth)
{
    if (sv_kind_of(v) != SV_MAP) return want(r, t, v);
    uint32_t n = v->len;
    sv_value map = sv_map(r->doc, n);
    if (check_doc(r)) return SV_ERR_NOMEM;
    sv_pair *dst = sv_pairs(&map);
    for (uint32_t i = 0; i < n; i++) {
        const sv_value *pk = sv_key_at(v, i);
        const sv_value *pv = sv_val_at(v, i);
        sv_status st = read_key(r, t->params[0], pk, &dst[i].key, depth);
        if (!st) st = rd(r, t->params[1], pv, &dst[i].val, depth + 1);
        if (st) {
            if (pk->kind == SV_STRING)
                sv_error_path_key(r->err, pk->as.str, pk->len);
            else
                sv_error_path_index(r->err, i);
            return st;
        }
    }
    *out = map;
    return SV_OK;
}

static sv_status rd(rctx *r, const sv_type *t, const sv_value *v, sv_value *out, unsigned depth)
{
    *out = sv_null();
    if (depth > READ_MAX_DEPTH)
        return sv__schema_fail(r->err, SV_ERR_DEPTH, "value nests deeper than %u", READ_MAX_DEPTH);
    switch (t->kind) {
    case SV_TYPE_PRIM: return read_prim(r, t, v, out);
    case SV_TYPE_ENUM: return read_enum(r, t, v, out);
    case SV_TYPE_CLASS: return read_class(r, t->cls, false, v, out, depth);
    case SV_TYPE_NAME:
        return sv__schema_fail(r->err, SV_ERR_USAGE, "type '%s' is not resolved", t->name);
    case SV_TYPE_GENERIC: break;
    }
    switch (t->gen) {
    case SV_GEN_MAP:
    case SV_GEN_UMAP: return read_map(r, t, v, out, depth);
    case SV_GEN_OPTIONAL:
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE:
        if (sv_kind_of(v) == SV_NULL) return SV_OK;
        if (t->gen != SV_GEN_OPTIONAL && t->params[0]->kind == SV_TYPE_CLASS)
            return read_class(r, t->params[0]->cls, true, v, out, depth);
        return rd(r, t->params[0], v, out, depth + 1);
    default: return read_items(r, t, v, out, depth);
    }
}

sv_status sv_schema_read_value(const sv_schema *s, const sv_type *t, const sv_value *v, sv_doc *doc,
                               sv_value *out, sv_error *err)
{
    sv_error_clear(err);
    if (!s || !t || !doc || !out) return sv__schema_fail(err, SV_ERR_USAGE, "missing argument");
    rctx r = {s, doc, err};
    return rd(&r, t, v, out, 0);
}

sv_status sv__schema_read_class(const sv_schema *s, const sv_schema_class *c, const sv_value *v,
                                sv_doc *doc, sv_value *out, sv_error *err)
{
    rctx r = {s, doc, err};
    return read_class(&r, c, false, v, out, 0);
}

/* ---- zero values ------------------------------------------------------------------ */

static sv_status zero(rctx *r, const sv_type *t, sv_value *out, unsigned depth)
{
    *out = sv_null();
    if (depth > READ_MAX_DEPTH)
        return sv__schema_fail(r->err, SV_ERR_DEPTH, "value nests deeper than %u", READ_MAX_DEPTH);
    switch (t->kind) {
    case SV_TYPE_PRIM: {
        sv_value z;
        switch (t->prim) {
        case SV_PRIM_BOOL: z = sv_bool(false); break;
        case SV_PRIM_STRING:
        case SV_PRIM_WSTRING: z = sv_strz(r->doc, ""); break;
        case SV_PRIM_BYTES: z = sv_bytes(r->doc, NULL, 0); break;
        case SV_PRIM_UUID: z = sv_strz(r->doc, "00000000-0000-0000-0000-000000000000"); break;
        case SV_PRIM_ANY: z = sv_null(); break;
        case SV_PRIM_F32: z = sv_f32(0.0f); break;
        case SV_PRIM_F64: z = sv_f64(0.0); break;
        default:
            if (sv_prim_int_width(t->prim)) {
                z = sv_int(0);
                break;
            }
            *out = sv_tuple(r->doc, sv__schema_prim_tag(t->prim), SV_ELEM_F32, NULL);
            return check_doc(r);
        }
        if (check_doc(r)) return SV_ERR_NOMEM;
        return rd(r, t, &z, out, depth);
    }
    case SV_TYPE_ENUM: return enum_out(r, t->enm, 0, out);
    case SV_TYPE_CLASS: {
        sv_value empty = sv_map(r->doc, 0);
        if (check_doc(r)) return SV_ERR_NOMEM;
        return read_fields(r, t->cls, &empty, out, depth);
    }
    case SV_TYPE_NAME:
        return sv__schema_fail(r->err, SV_ERR_USAGE, "type '%s' is not resolved", t->name);
    case SV_TYPE_GENERIC: break;
    }
    uint32_t n = 0;
    switch (t->gen) {
    case SV_GEN_MAP:
    case SV_GEN_UMAP: *out = sv_map(r->doc, 0); return check_doc(r);
    case SV_GEN_OPTIONAL:
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE: return SV_OK;
    case SV_GEN_ARRAY: n = t->array_len; break;
    case SV_GEN_PAIR:
    case SV_GEN_TUPLE: n = t->nparams; break;
    default: break;
    }
    sv_value arr = sv_array(r->doc, n);
    if (check_doc(r)) return SV_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        const sv_type *et = t->gen == SV_GEN_ARRAY ? t->params[0] : t->params[i];
        sv_status st = zero(r, et, &sv_array_items(&arr)[i], depth + 1);
        if (st) return st;
    }
    *out = arr;
    return SV_OK;
}

sv_status sv_schema_zero_value(const sv_schema *s, const sv_type *t, sv_doc *doc, sv_value *out,
                               sv_error *err)
{
    sv_error_clear(err);
    if (!s || !t || !doc || !out) return sv__schema_fail(err, SV_ERR_USAGE, "missing argument");
    rctx r = {s, doc, err};
    return zero(&r, t, out, 0);
}
