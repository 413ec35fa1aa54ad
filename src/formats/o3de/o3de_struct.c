/* Loading JSON straight into bound C structs and storing them straight to
 * text, without building a value of the whole struct in between.
 *
 * The rules are the tree path's, step for step: the same dispatch prologue
 * (depth, the explicit default {}), the same leaf serializers (o3de_prim.c,
 * o3de_enum.c, o3de_math.c) called on one small value at a time, the class
 * and sequence walks of o3de_class.c and o3de_containers.c done on the C
 * memory in place, and the same results, messages and paths. Stored text is
 * what sv_o3de_write prints for the tree sv_o3de_store makes: a member whose
 * value turns out to be omitted is cut back off the buffer.
 *
 * The store half is o3de_struct_store.c.
 *
 * Only types whose C form is plain are taken this way: bool, integers,
 * floats, strings, enums, vector2/3/4, quaternion, color, classes bound
 * without a class id, and vector/list of those. Anything else (pointers,
 * maps, sets, fixed arrays, UUIDs, ...) goes through the tree path
 * (o3de_api.c), which gives the same answer more slowly. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/numconv.h"
#include "o3de_internal.h"
#include "o3de_struct_internal.h"
#include "schema/schema_internal.h"

#define RF SV_O3DE_READ_FIELD

/* ---- which types go direct ---- */

static bool direct_prim(sv_prim p)
{
    if (p == SV_PRIM_BOOL || p == SV_PRIM_F32 || p == SV_PRIM_F64 || p == SV_PRIM_STRING)
        return true;
    if (o3s_int_width(p)) return true;
    return p == SV_PRIM_VECTOR2 || p == SV_PRIM_VECTOR3 || p == SV_PRIM_VECTOR4 ||
           p == SV_PRIM_QUATERNION || p == SV_PRIM_COLOR;
}

/* state per class: 0 unknown, 1 being decided, 2 direct, 3 not */
static bool direct_type(const sv_type *t, uint8_t *state, unsigned depth);

static bool direct_class(const sv_schema_class *cls, uint8_t *state, unsigned depth)
{
    if (!cls->c || cls->c->id_field || depth > 64) return false;
    uint8_t *s = &state[cls->index];
    if (*s >= 2) return *s == 2;
    if (*s == 1) return true; /* a cycle through a vector: decided by the rest */
    *s = 1;
    size_t n;
    const sv_schema_field *const *f = sv_schema_class_fields(cls, &n);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) ok = f[i]->c && direct_type(f[i]->type, state, depth + 1);
    *s = ok ? 2 : 3;
    return ok;
}

static bool direct_type(const sv_type *t, uint8_t *state, unsigned depth)
{
    switch (t->kind) {
    case SV_TYPE_PRIM: return direct_prim(t->prim);
    case SV_TYPE_ENUM: return o3s_int_width(t->enm->underlying) != 0;
    case SV_TYPE_CLASS: return direct_class(t->cls, state, depth);
    case SV_TYPE_GENERIC:
        return (t->gen == SV_GEN_VECTOR || t->gen == SV_GEN_LIST) &&
               t->params[0]->kind != SV_TYPE_GENERIC && direct_type(t->params[0], state, depth + 1);
    default: return false;
    }
}

int o3_struct_direct(const sv_schema *s, const sv_schema_class *cls, const sv_alloc *alloc)
{
    size_t n = sv_schema_class_count(s);
    uint8_t *state = sv__core_mem_calloc(alloc, n, 1);
    if (!state) return -1; /* not a reason to take the other path */
    bool ok = direct_class(cls, state, 0);
    sv__core_mem_free(alloc, state, n, 1);
    return ok ? 1 : 0;
}

/* ---- the C memory of one value ---- */

/* The value of a leaf at p, as sv_struct_to_value makes it. Strings are
 * not copied: the value points at the C string (read only here). */
sv_value o3s_leaf_value(o3_sctx *x, const sv_type *t, const uint8_t *p)
{
    if (t->kind == SV_TYPE_ENUM) {
        sv_prim u = t->enm->underlying;
        int w = o3s_int_width(u);
        return sv_with_tag(o3s_int_signed(u) ? sv_int_w(sv__core_native_int(p, w), w)
                                             : sv_uint_w(sv__core_native_uint(p, w), w),
                           SV_TAG_ENUM);
    }
    sv_prim pr = t->prim;
    int w = o3s_int_width(pr);
    if (w)
        return o3s_int_signed(pr) ? sv_int_w(sv__core_native_int(p, w), w)
                                  : sv_uint_w(sv__core_native_uint(p, w), w);
    switch (pr) {
    case SV_PRIM_BOOL: {
        bool b;
        memcpy(&b, p, sizeof b);
        return sv_bool(b);
    }
    case SV_PRIM_F32: {
        float f;
        memcpy(&f, p, 4);
        return sv_f32(f);
    }
    case SV_PRIM_F64: {
        double d;
        memcpy(&d, p, 8);
        return sv_f64(d);
    }
    case SV_PRIM_STRING: {
        const char *str;
        memcpy(&str, p, sizeof str);
        sv_value v;
        memset(&v, 0, sizeof v);
        v.kind = SV_STRING;
        v.as.str = str ? str : "";
        v.len = (uint32_t)strlen(v.as.str);
        return v;
    }
    default: {
        sv_value v = sv_tuple(x->c->doc, sv__schema_prim_tag(pr), SV_ELEM_F32, p);
        if (v.kind != SV_TUPLE) o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
        return v;
    }
    }
}

/* Writes leaf value v back to p (when a load changed it). */
static void set_leaf(o3_sctx *x, const sv_type *t, uint8_t *p, const sv_value *old,
                     const sv_value *v)
{
    sv_prim pr = t->kind == SV_TYPE_ENUM ? t->enm->underlying : t->prim;
    int w = o3s_int_width(pr);
    if (w) {
        sv__core_native_store(p, w, o3s_int_signed(pr) ? (uint64_t)sv_get_int(v) : sv_get_uint(v));
        return;
    }
    switch (pr) {
    case SV_PRIM_BOOL: {
        bool b = sv_get_bool(v);
        memcpy(p, &b, sizeof b);
        return;
    }
    case SV_PRIM_F32: {
        float f = (float)sv_get_f64(v);
        memcpy(p, &f, 4);
        return;
    }
    case SV_PRIM_F64: {
        double d = sv_get_f64(v);
        memcpy(p, &d, 8);
        return;
    }
    case SV_PRIM_STRING: {
        if (v->as.str == old->as.str) return;
        if (memchr(v->as.str, 0, v->len)) {
            o3_fail(x->c, SV_ERR_RANGE, "string holds a NUL byte, which char * cannot");
            return;
        }
        char *str = x->a->malloc(x->a->ctx, (size_t)v->len + 1);
        if (!str) {
            o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
            return;
        }
        memcpy(str, v->as.str, v->len);
        str[v->len] = 0;
        char *prev;
        memcpy(&prev, p, sizeof prev);
        if (prev) x->a->free(x->a->ctx, prev, strlen(prev) + 1);
        memcpy(p, &str, sizeof str);
        return;
    }
    default: /* math: float[n] */
        memcpy(p, sv_numbers(v), (size_t)sv_len(v) * sizeof(float));
        return;
    }
}

/* Frees what a value at p owns (strings, items, nested classes). */
static void free_direct(o3_sctx *x, const sv_type *t, uint8_t *p, const uint8_t *aux)
{
    if (t->kind == SV_TYPE_PRIM && t->prim == SV_PRIM_STRING) {
        char *str;
        memcpy(&str, p, sizeof str);
        if (str) x->a->free(x->a->ctx, str, strlen(str) + 1);
        memset(p, 0, sizeof str);
    } else if (t->kind == SV_TYPE_CLASS) {
        sv_struct_free(x->c->s, t->cls, p, x->a);
    } else if (t->kind == SV_TYPE_GENERIC) {
        uint8_t *items;
        size_t n;
        memcpy(&items, p, sizeof items);
        memcpy(&n, aux, sizeof n);
        size_t es = sv__schema_type_c_size(t->params[0]);
        for (size_t i = 0; i < n && items; i++) free_direct(x, t->params[0], items + i * es, NULL);
        if (items) x->a->free(x->a->ctx, items, n * es);
        memset(p, 0, sizeof(void *));
        memset((uint8_t *)aux, 0, sizeof n);
    }
}

/* The default instance of a class as a struct (its fields' defaults). */
static const uint8_t *prototype(o3_sctx *x, const sv_schema_class *cls)
{
    if (x->proto[cls->index]) return x->proto[cls->index];
    uint8_t *p = sv__core_mem_calloc(x->a, 1, cls->c->size);
    if (!p) {
        o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
        return NULL;
    }
    sv_value d = o3_default_class(x->c, cls);
    sv_error err;
    sv_error_clear(&err);
    if (!o3_ok(x->c) || sv_value_to_struct(x->c->s, cls, &d, x->a, p, &err) != SV_OK) {
        sv__core_mem_free(x->a, p, 1, cls->c->size);
        o3_fail(x->c, err.status ? err.status : SV_ERR_NOMEM, "default instance");
        return NULL;
    }
    x->proto[cls->index] = p;
    return p;
}

/* A deep copy of the value at src (type t) into dst, allocated with x->a. */
static void clone_direct(o3_sctx *x, const sv_type *t, uint8_t *dst, const uint8_t *src,
                         uint8_t *daux, const uint8_t *saux)
{
    if (t->kind == SV_TYPE_PRIM && t->prim == SV_PRIM_STRING) {
        const char *s;
        memcpy(&s, src, sizeof s);
        char *d = NULL;
        if (s) {
            size_t n = strlen(s) + 1;
            d = x->a->malloc(x->a->ctx, n);
            if (d)
                memcpy(d, s, n);
            else
                o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
        }
        memcpy(dst, &d, sizeof d);
    } else if (t->kind == SV_TYPE_CLASS) {
        memcpy(dst, src, t->cls->c->size);
        size_t n;
        const sv_schema_field *const *f = sv_schema_class_fields(t->cls, &n);
        for (size_t i = 0; i < n; i++) {
            bool owns = (f[i]->type->kind == SV_TYPE_PRIM && f[i]->type->prim == SV_PRIM_STRING) ||
                        f[i]->type->kind == SV_TYPE_CLASS || f[i]->type->kind == SV_TYPE_GENERIC;
            if (!owns) continue;
            size_t aux = f[i]->c->aux;
            clone_direct(x, f[i]->type, dst + f[i]->c_offset, src + f[i]->c_offset,
                         aux != SV_CFIELD_NO_AUX ? dst + aux : NULL,
                         aux != SV_CFIELD_NO_AUX ? src + aux : NULL);
        }
    } else if (t->kind == SV_TYPE_GENERIC) {
        const uint8_t *items;
        size_t n;
        memcpy(&items, src, sizeof items);
        memcpy(&n, saux, sizeof n);
        size_t es = sv__schema_type_c_size(t->params[0]);
        uint8_t *copy = NULL;
        if (n && items) {
            copy = x->a->malloc(x->a->ctx, n * es);
            if (!copy) {
                o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
                n = 0;
            } else {
                memset(copy, 0, n * es);
                for (size_t i = 0; i < n; i++)
                    clone_direct(x, t->params[0], copy + i * es, items + i * es, NULL, NULL);
            }
        } else {
            n = 0;
        }
        memcpy(dst, &copy, sizeof copy);
        memcpy(daux, &n, sizeof n);
    } else {
        memcpy(dst, src, sv__schema_type_c_size(t));
    }
}

/* A fresh default of type t at dst (o3_default_of in C): the class's
 * default instance, an identity quaternion, else zeros. */
static void fresh_default(o3_sctx *x, const sv_type *t, uint8_t *dst)
{
    size_t es = sv__schema_type_c_size(t);
    memset(dst, 0, es);
    if (t->kind == SV_TYPE_CLASS) {
        const uint8_t *p = prototype(x, t->cls);
        if (p) clone_direct(x, t, dst, p, NULL, NULL);
    } else if (t->kind == SV_TYPE_PRIM && o3s_is_math(t->prim)) {
        sv_value d = o3_default_of(x->c, t);
        if (sv_kind_of(&d) == SV_TUPLE) memcpy(dst, sv_numbers(&d), (size_t)d.len * sizeof(float));
    }
}

/* ---- load ---- */

static o3_res ld(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, uint8_t *aux,
                 bool is_new);

/* The struct side of o3_load_members: the field loads in place. */
typedef struct struct_fields {
    o3_sctx *x;
    const o3_class_info *ci;
    uint8_t *p;
} struct_fields;

static inline o3_res load_struct_field(void *state, size_t fi, const sv_value *j)
{
    struct_fields *s = state;
    const sv_schema_field *f = s->ci->fields[fi];
    uint8_t *faux = f->c->aux != SV_CFIELD_NO_AUX ? s->p + f->c->aux : NULL;
    return ld(s->x, f->type, j, s->p + f->c_offset, faux, false);
}

/* o3_load_class, on the struct in place */
static o3_res ld_class(o3_sctx *x, const sv_schema_class *cls, const sv_value *j, uint8_t *p)
{
    o3_ctx *c = x->c;
    o3_res r;
    if (!o3_class_members_start(c, cls, j, &r)) return r;
    const o3_class_info *ci = o3_class(c, cls);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    struct_fields s = {x, ci, p};
    return o3_load_members(c, ci, j, load_struct_field, &s);
}

/* load_sequence (vector, list), on the pointer and count in place */
static o3_res ld_seq(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, uint8_t *aux)
{
    o3_ctx *c = x->c;
    if (sv_kind_of(j) != SV_ARRAY)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Basic containers can only be read from an array.");
    uint8_t *items;
    size_t n;
    memcpy(&items, p, sizeof items);
    memcpy(&n, aux, sizeof n);
    if (!items) n = 0;
    if (c->clear_containers && n) {
        o3_res cr = o3_rep(c, SV_O3DE_CLEAR, SV_O3DE_SUCCESS, "Clearing basic container.");
        if (o3_halted(cr)) return cr;
        if (o3_out(cr) == SV_O3DE_SUCCESS) {
            free_direct(x, t, p, aux);
            items = NULL;
            n = 0;
        }
    }
    const sv_type *elem = t->params[0];
    size_t es = sv__schema_type_c_size(elem);
    o3_res result = sv_o3de_result_none(RF);
    size_t added = 0;
    if (j->len) {
        /* room for every entry; trimmed to what was added at the end */
        size_t cap = n + j->len;
        uint8_t *grown = x->a->realloc(x->a->ctx, items, n * es, cap * es);
        if (!grown) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            return o3_r(RF, SV_O3DE_CATASTROPHIC);
        }
        items = grown;
        /* zeroed, so that whatever happens below the block can be freed */
        memset(items + n * es, 0, j->len * es);
        memcpy(p, &items, sizeof items); /* n still counts the old ones */
        const sv_value *in = sv_array_items(j);
        bool halted = false;
        for (uint32_t i = 0; i < j->len && o3_ok(c); i++) {
            size_t mark = o3_path_index(c, i);
            uint8_t *slot = items + (n + added) * es;
            fresh_default(x, elem, slot);
            o3_res r = ld(x, elem, &in[i], slot, NULL, true);
            o3_path_pop(c, mark);
            if (o3_halted(r) || o3_altered(r)) {
                free_direct(x, elem, slot, NULL);
                memset(slot, 0, es);
                if (o3_halted(r)) {
                    halted = true; /* O3DE keeps what it gathered, without this code */
                    break;
                }
                result = o3_combine(result, r);
                continue;
            }
            added++;
            result = o3_combine(result, r);
        }
        size_t total = n + added;
        uint8_t *fit = total ? x->a->realloc(x->a->ctx, items, cap * es, total * es) : NULL;
        if (!total) x->a->free(x->a->ctx, items, cap * es);
        if (total && !fit) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            fit = items; /* still cap * es: keep the count honest for freeing */
            total = cap;
        }
        memcpy(p, &fit, sizeof fit);
        memcpy(aux, &total, sizeof total);
        if (halted) return result;
    }
    if (j->len == 0)
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "No values provided for basic container.");
    if (added) result = o3_combine(result, o3_r(RF, SV_O3DE_SUCCESS));
    return o3_report(c, result, "Loaded basic container.");
}

/* ---- the common leaves without a reporting callback ----
 *
 * With no callback no message is ever made, so the plain cases are done
 * here, each giving the result code its serializer returns; conversions,
 * range failures and anything unusual take the serializer itself. */

static void int_range(sv_prim p, int64_t *lo, uint64_t *hi)
{
    int bits = 8 * o3s_int_width(p);
    if (o3s_int_signed(p)) {
        *hi = (UINT64_C(1) << (bits - 1)) - 1;
        *lo = -(int64_t)*hi - 1;
    } else {
        *lo = 0;
        *hi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    }
}

static bool json_num(const sv_value *j, double *d)
{
    switch (j->kind) {
    case SV_INT: *d = (double)j->as.i; return true;
    case SV_UINT: *d = (double)j->as.u; return true;
    case SV_FLOAT: *d = j->as.f64; return true;
    default: return false;
    }
}

static bool fast_load(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, o3_res *r)
{
    if (t->kind != SV_TYPE_PRIM) return false;
    sv_prim pr = t->prim;
    int w = o3s_int_width(pr);
    if (w) { /* JsonNumericCast of an integer: Convert/Success */
        int64_t lo;
        uint64_t hi;
        int_range(pr, &lo, &hi);
        if (j->kind == SV_INT) {
            if (j->as.i < lo || (j->as.i > 0 && (uint64_t)j->as.i > hi)) return false;
            sv__core_native_store(p, w, (uint64_t)j->as.i);
        } else if (j->kind == SV_UINT) {
            if (j->as.u > hi) return false;
            sv__core_native_store(p, w, j->as.u);
        } else {
            return false;
        }
        *r = o3_r(SV_O3DE_CONVERT, SV_O3DE_SUCCESS);
        return true;
    }
    double d;
    switch (pr) {
    case SV_PRIM_F32:
    case SV_PRIM_F64:
        if (!json_num(j, &d) || (pr == SV_PRIM_F32 && (d > FLT_MAX || d < -FLT_MAX))) return false;
        if (pr == SV_PRIM_F32) {
            float f = (float)d;
            memcpy(p, &f, 4);
        } else {
            memcpy(p, &d, 8);
        }
        *r = o3_r(SV_O3DE_CONVERT, SV_O3DE_SUCCESS);
        return true;
    case SV_PRIM_BOOL:
        if (j->kind != SV_BOOL) return false;
        memcpy(p, &j->as.b, sizeof(bool));
        *r = o3_r(RF, SV_O3DE_SUCCESS);
        return true;
    case SV_PRIM_STRING: {
        if (j->kind != SV_STRING) return false;
        sv_value old = o3s_leaf_value(x, t, p);
        set_leaf(x, t, p, &old, j);
        *r = o3_r(RF, SV_O3DE_SUCCESS);
        return true;
    }
    case SV_PRIM_VECTOR2:
    case SV_PRIM_VECTOR3:
    case SV_PRIM_VECTOR4:
    case SV_PRIM_QUATERNION:
    case SV_PRIM_COLOR: {
        bool color = pr == SV_PRIM_COLOR;
        size_t n = color ? 4 : (size_t)sv_tag_scalars(sv__schema_prim_tag(pr));
        if (j->kind != SV_ARRAY || j->len < (color ? 3 : n)) return false;
        size_t use = color && j->len < 4 ? 3 : n;
        const sv_value *it = sv_array_items(j);
        float f[4];
        for (size_t i = 0; i < use; i++) {
            /* colours take decimal literals only, unchecked; vectors any
             * number a float holds */
            if (color ? it[i].kind != SV_FLOAT : !json_num(&it[i], &d)) return false;
            if (color)
                d = it[i].as.f64;
            else if (d > FLT_MAX || d < -FLT_MAX)
                return false;
            f[i] = (float)d;
        }
        memcpy(p, f, use * sizeof(float));
        *r = o3_r(RF, use == n ? SV_O3DE_SUCCESS : SV_O3DE_PARTIAL_DEFAULTS);
        return true;
    }
    default: return false;
    }
}

/* o3_load's dispatch for the direct kinds */
static o3_res ld(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, uint8_t *aux,
                 bool is_new)
{
    o3_ctx *c = x->c;
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, RF, SV_O3DE_CATASTROPHIC, "The JSON is nested too deeply to load.");
    if (o3_is_explicit_default(j) && !o3_type_manual_default(t) && !(is_new && o3_type_init_new(t)))
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Value has an explicit default.");
    c->depth++;
    o3_res r;
    if (t->kind == SV_TYPE_CLASS) {
        r = ld_class(x, t->cls, j, p);
    } else if (t->kind == SV_TYPE_GENERIC) {
        r = ld_seq(x, t, j, p, aux);
    } else if (t->kind == SV_TYPE_PRIM && !o3s_is_math(t->prim) && o3_is_explicit_default(j)) {
        /* a new bool/int/float instance: false, 0, 0.0 */
        memset(p, 0, sv__schema_type_c_size(t));
        r = o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Value set to its default.");
    } else if (!c->report && fast_load(x, t, j, p, &r)) {
        /* done */
    } else {
        sv_value cur = o3s_leaf_value(x, t, p), out = cur;
        if (t->kind == SV_TYPE_ENUM)
            r = o3_load_enum(c, t->enm, j, &cur, &out);
        else if (o3s_is_math(t->prim))
            r = o3_load_math(c, t->prim, j, &cur, &out, is_new);
        else
            r = o3_load_prim(c, t->prim, j, &cur, &out);
        if (o3_ok(c) && memcmp(&out, &cur, sizeof out) != 0) set_leaf(x, t, p, &cur, &out);
    }
    c->depth--;
    return r;
}

/* ---- entry points ---- */

void o3s_done(o3_sctx *x)
{
    o3s_plans_free(x);
    if (!x->proto) return;
    for (size_t i = 0; i < x->c->nclasses; i++) {
        if (!x->proto[i]) continue;
        const sv_schema_class *cls = sv_schema_class_at(x->c->s, i);
        sv_struct_free(x->c->s, cls, x->proto[i], x->a);
        sv__core_mem_free(x->a, x->proto[i], 1, cls->c->size);
    }
    sv__core_mem_free(x->a, x->proto, x->c->nclasses, sizeof *x->proto);
}

o3_res o3_load_struct_direct(o3_ctx *c, const sv_schema_class *cls, const sv_value *json, void *obj,
                             const sv_alloc *alloc)
{
    o3_sctx x;
    if (!o3s_init(&x, c, alloc)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    sv_type t;
    o3s_class_type(&t, cls);
    o3_res r = ld(&x, &t, json, obj, NULL, false);
    o3s_done(&x);
    return r;
}

/* ---- for the streaming load (o3de_stream.c) ---- */

o3_res o3s_load(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, uint8_t *aux,
                bool is_new)
{
    return ld(x, t, j, p, aux, is_new);
}
void o3s_fresh_default(o3_sctx *x, const sv_type *t, uint8_t *dst)
{
    fresh_default(x, t, dst);
}
void o3s_class_type(sv_type *t, const sv_schema_class *cls)
{
    memset(t, 0, sizeof *t);
    t->kind = SV_TYPE_CLASS;
    t->cls = cls;
    t->name = t->text = cls->name;
}
const uint8_t *o3s_prototype(o3_sctx *x, const sv_schema_class *cls)
{
    return prototype(x, cls);
}
bool o3s_fast_load(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, o3_res *r)
{
    return fast_load(x, t, j, p, r);
}
void o3s_free(o3_sctx *x, const sv_type *t, uint8_t *p, const uint8_t *aux)
{
    free_direct(x, t, p, aux);
}
bool o3s_init(o3_sctx *x, o3_ctx *c, const sv_alloc *alloc)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->a = alloc ? alloc : sv_alloc_libc();
    x->proto = sv__core_mem_calloc(x->a, c->nclasses, sizeof *x->proto);
    if (!x->proto) o3_fail(c, SV_ERR_NOMEM, "out of memory");
    return x->proto != NULL;
}
