/* The direct store's per-class plans (o3de_struct_store.c walks them):
 * each field's offset, leaf kind and key text resolved once per class for
 * a whole store, not looked up again for every object. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "o3de_internal.h"
#include "o3de_struct_internal.h"
#include "schema/schema_internal.h"

o3_leaf o3s_leaf_of(const sv_type *t)
{
    o3_leaf l = {O3_OP_OTHER, 0, false, NULL, NULL, 0};
    if (t->kind == SV_TYPE_ENUM) {
        l.op = O3_OP_ENUM;
        l.enm = t->enm;
        l.width = (uint8_t)o3s_int_width(t->enm->underlying);
        l.sgn = o3s_int_signed(t->enm->underlying);
        return l;
    }
    if (t->kind == SV_TYPE_CLASS) {
        l.op = O3_OP_CLASS;
        return l;
    }
    if (t->kind != SV_TYPE_PRIM) return l;
    int w = o3s_int_width(t->prim);
    if (w) {
        l.op = O3_OP_INT;
        l.width = (uint8_t)w;
        l.sgn = o3s_int_signed(t->prim);
        return l;
    }
    switch (t->prim) {
    case SV_PRIM_F32: l.op = O3_OP_F32; break;
    case SV_PRIM_F64: l.op = O3_OP_F64; break;
    case SV_PRIM_BOOL: l.op = O3_OP_BOOL; break;
    case SV_PRIM_STRING: l.op = O3_OP_STRING; break;
    case SV_PRIM_VECTOR2: l.op = O3_OP_VEC2; break;
    case SV_PRIM_VECTOR3: l.op = O3_OP_VEC3; break;
    case SV_PRIM_VECTOR4: l.op = O3_OP_VEC4; break;
    case SV_PRIM_QUATERNION: l.op = O3_OP_QUAT; break;
    case SV_PRIM_COLOR: l.op = O3_OP_COLOR; break;
    default: break;
    }
    return l;
}

/* A counted sequence field: its element's kind, size and (for a leaf) the
 * fresh default every element is compared with, which is the same for
 * every element of every sequence of this field. A sequence whose element
 * does not fit that default's room goes the general way. */
static void plan_sequence(o3_sctx *x, o3_step *s)
{
    const sv_type *elem = s->t->params[0];
    size_t es = sv__schema_type_c_size(elem);
    if (!es || (elem->kind != SV_TYPE_CLASS && es > sizeof s->elem_default)) return;
    s->elem = elem;
    s->elem_size = es;
    s->elem_leaf = o3s_leaf_of(elem);
    if (elem->kind != SV_TYPE_CLASS) o3s_fresh_default(x, elem, s->elem_default);
    s->leaf.op = O3_OP_SEQ;
}

/* Whether every value of e is below O3_ENUM_BY_VALUE (a signed one not
 * negative); their count of slots by value (the largest plus one), or 0. */
static uint32_t enum_slots_by_value(const sv_schema_enum *e, bool sgn)
{
    uint64_t top = 0;
    for (uint32_t i = 0; i < e->nvalues; i++) {
        uint64_t v = e->values[i].value;
        if ((sgn && (int64_t)v < 0) || v >= O3_ENUM_BY_VALUE) return 0;
        if (v > top) top = v;
    }
    return (uint32_t)top + 1;
}

/* The names of an enum field's enumerators, each as the JSON text the
 * store writes (o3_write_string) in a slot of O3_ENUM_SLOT bytes: its
 * length, then the text, so that the walk copies a name in one fixed-size
 * move instead of measuring and scanning it. Enums with small values get
 * one slot per value, so that the walk finds a name by its value without
 * searching (o3_leaf.by_value; the first enumerator of a value is the one
 * a search finds); others one slot per enumerator, in their order. Slots
 * are only made for up to 256 enumerators whose texts all fit;
 * s->names_off stays UINT32_MAX otherwise (the name is written the long
 * way). */
static void plan_enum_names(o3_writer *tw, o3_step *s)
{
    sv_buf *b = tw->out;
    const sv_schema_enum *e = s->leaf.enm;
    if (!e || e->nvalues == 0 || e->nvalues > 256 || b->len > UINT32_MAX) return;
    if (s->leaf.width == 1 && s->leaf.sgn) return; /* the walk leaves these to the long way */
    uint32_t by_value = enum_slots_by_value(e, s->leaf.sgn);
    uint32_t nslots = by_value ? by_value : e->nvalues;
    size_t start = b->len;
    for (uint32_t k = 0; k < nslots * O3_ENUM_SLOT; k++) sv_buf_putc(b, 0);
    if (!sv_buf_ok(b)) return;
    for (uint32_t i = 0; i < e->nvalues; i++) {
        size_t slot = start + (size_t)(by_value ? e->values[i].value : i) * O3_ENUM_SLOT;
        if (b->data[slot]) continue; /* a value's first enumerator already there */
        size_t at = b->len;
        o3_write_string(tw, e->values[i].name, strlen(e->values[i].name));
        size_t len = b->len - at;
        if (!sv_buf_ok(b) || len >= O3_ENUM_SLOT) {
            if (sv_buf_ok(b)) b->len = start;
            return;
        }
        memcpy(b->data + slot + 1, b->data + at, len);
        b->data[slot] = (uint8_t)len;
        b->len = at;
    }
    s->names_off = (uint32_t)start;
    s->leaf.by_value = by_value;
    if (by_value && s->leaf.width == 4) s->leaf.op = O3_OP_ENUM4;
}

/* Whether a leaf of this kind writes within O3_MEMBER_ROOM and never grows
 * the buffer itself (the store's out_leaf): numbers, bools, vectors and
 * enumerators with their names' slots; not strings (any length) nor
 * enumerators written by name. */
static bool writes_bounded(const o3_leaf *l)
{
    switch ((o3_op)l->op) {
    case O3_OP_INT:
    case O3_OP_F32:
    case O3_OP_F64:
    case O3_OP_BOOL:
    case O3_OP_VEC2:
    case O3_OP_VEC3:
    case O3_OP_VEC4:
    case O3_OP_QUAT:
    case O3_OP_COLOR: return true;
    case O3_OP_ENUM:
    case O3_OP_ENUM4: return l->names != NULL;
    default: return false;
    }
}

static const o3_plan *build(o3_sctx *x, o3_plan *pl, const sv_schema_class *cls)
{
    const o3_class_info *ci = o3_class(x->c, cls);
    size_t n = ci->nfields;
    sv_buf b;
    sv_buf_init(&b, x->a);
    o3_writer tw = {&b, 0, NULL, false, SV_OK};
    pl->steps = n ? sv__core_mem_calloc(x->a, n, sizeof *pl->steps) : NULL;
    if (n && !pl->steps) goto nomem;
    for (size_t i = 0; i < n; i++) {
        const sv_schema_field *f = ci->fields[i];
        o3_step *s = &pl->steps[i];
        s->key_off = (uint32_t)b.len;
        o3_write_string(&tw, f->name, strlen(f->name));
        sv_buf_putc(&b, ':');
        s->key_len = (uint32_t)(b.len - s->key_off);
        s->off = f->c_offset;
        s->aux = f->c->aux;
        s->t = f->type;
        s->names_off = UINT32_MAX;
        if (f->type->kind == SV_TYPE_GENERIC) {
            if (s->aux != SV_CFIELD_NO_AUX && f->type->nparams >= 1) plan_sequence(x, s);
        } else if (f->type->kind != SV_TYPE_CLASS) {
            s->leaf = o3s_leaf_of(f->type);
            if (s->leaf.op == O3_OP_ENUM) plan_enum_names(&tw, s);
        }
    }
    for (int i = 0; i < O3_KEY_PAD; i++) sv_buf_putc(&b, 0);
    if (!sv_buf_ok(&b) || b.len > UINT32_MAX || !o3_ok(x->c)) goto nomem;
    pl->keys = (char *)sv_buf_take(&b, &pl->keys_len, &pl->keys_cap);
    if (!pl->keys) goto nomem;
    for (size_t i = 0; i < n; i++) {
        o3_step *s = &pl->steps[i];
        if (s->names_off != UINT32_MAX) s->leaf.names = pl->keys + s->names_off;
        s->bounded = s->key_len <= O3_KEY_PAD && writes_bounded(&s->leaf);
    }
    /* each run of members the walk makes room for at once: up to and
     * including the next one that is not bounded */
    for (size_t i = 0; i < n; i++) {
        uint32_t k = 1;
        while (k < O3_ROOM_MEMBERS && i + k < n && pl->steps[i + k - 1].bounded) k++;
        pl->steps[i].room_n = k;
    }
    pl->n = n;
    pl->ready = true;
    return pl;
nomem:
    sv_buf_free(&b);
    if (pl->steps) sv__core_mem_free(x->a, pl->steps, n, sizeof *pl->steps);
    pl->steps = NULL;
    o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
    return NULL;
}

const o3_plan *o3s_plan(o3_sctx *x, const sv_schema_class *cls)
{
    if (!x->plans) {
        x->plans = sv__core_mem_calloc(x->a, x->c->nclasses, sizeof *x->plans);
        if (!x->plans) {
            o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
            return NULL;
        }
    }
    o3_plan *pl = &x->plans[cls->index];
    return pl->ready ? pl : build(x, pl, cls);
}

void o3s_plans_free(o3_sctx *x)
{
    if (!x->plans) return;
    for (size_t i = 0; i < x->c->nclasses; i++) {
        o3_plan *pl = &x->plans[i];
        if (pl->keys) x->a->free(x->a->ctx, pl->keys, pl->keys_cap);
        if (pl->steps) sv__core_mem_free(x->a, pl->steps, pl->n, sizeof *pl->steps);
    }
    sv__core_mem_free(x->a, x->plans, x->c->nclasses, sizeof *x->plans);
    x->plans = NULL;
}
