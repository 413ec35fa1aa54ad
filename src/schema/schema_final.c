/* Schemas: finalisation -- resolving base and type names, refusing cycles
 * and duplicates, building the ancestor and full field lists, reading the
 * defaults against their types and filling the hash and UUID tables.
 * Every step is linear in the schema's size (bounded by SV_BASE_MAX_DEPTH
 * and SV_RESOLVED_MAX for hostile inputs). */
#include <stdio.h>
#include <string.h>

#include "schema/schema_internal.h"

static sv_status nomem(sv_error *err)
{
    return sv__schema_fail(err, SV_ERR_NOMEM, "out of memory");
}

/* " (in 'a.json')", or "" when the part has no source name. */
static void source_note(char *buf, size_t size, const char *source)
{
    if (source && source[0])
        snprintf(buf, size, " (in '%s')", source);
    else
        buf[0] = '\0';
}

/* ---- duplicates among names: a temporary table, linear ----------------------- */

typedef const char *(*name_at_fn)(const void *arr, uint32_t i);

static const char *field_name_at(const void *arr, uint32_t i)
{
    return ((const sv_schema_field *)arr)[i].name;
}
static const char *value_name_at(const void *arr, uint32_t i)
{
    return ((const sv_schema_enum_value *)arr)[i].name;
}
static const char *base_name_at(const void *arr, uint32_t i)
{
    return ((const char *const *)arr)[i];
}

/* Index of the first name that repeats an earlier one, n when none, or
 * UINT32_MAX when out of memory. Names are compared by content: interning
 * gives up on long probe runs, so equal names are not always one pointer. */
static uint32_t first_duplicate(sv_schema *s, const void *arr, uint32_t n, name_at_fn name_at)
{
    if (n <= 16) {
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t k = 0; k < i; k++)
                if (strcmp(name_at(arr, i), name_at(arr, k)) == 0) return i;
        return n;
    }
    uint32_t cap = 32;
    while (cap < n * 2) cap *= 2;
    const char **t = s->alloc.malloc(s->alloc.ctx, cap * sizeof *t);
    if (!t) return UINT32_MAX;
    memset(t, 0, cap * sizeof *t);
    uint32_t dup = n;
    for (uint32_t i = 0; i < n && dup == n; i++) {
        const char *name = name_at(arr, i);
        uint32_t j = (uint32_t)sv__schema_hash_str(name, strlen(name)) & (cap - 1);
        for (; t[j]; j = (j + 1) & (cap - 1))
            if (strcmp(t[j], name) == 0) {
                dup = i;
                break;
            }
        t[j] = name;
    }
    s->alloc.free(s->alloc.ctx, t, cap * sizeof *t);
    return dup;
}

/* ---- enums ----------------------------------------------------------------------- */

static sv_status final_enums(sv_schema *s, sv_error *err)
{
    for (size_t i = 0; i < s->nenums; i++) {
        sv_schema_enum *e = s->enums[i];
        uint32_t d = first_duplicate(s, e->values, e->nvalues, value_name_at);
        if (d == UINT32_MAX) return nomem(err);
        if (d < e->nvalues) {
            sv__schema_fail(err, SV_ERR_SYNTAX, "enum '%s': duplicate value name '%s'", e->name,
                            e->values[d].name);
            sv__schema_set_path(err, "/enums/%zu/values/%u/0", i, d);
            return err ? err->status : SV_ERR_SYNTAX;
        }
        if (sv__schema_build_enum_index(s, e)) return nomem(err);
    }
    return SV_OK;
}

/* ---- bases -------------------------------------------------------------------------- */

static sv_status resolve_bases(sv_schema *s, sv_error *err)
{
    for (size_t i = 0; i < s->nclasses; i++) {
        sv_schema_class *c = s->classes[i];
        sv_schema__class_index *ci = sv__schema_cls(c);
        if (!c->nbases) continue;
        uint32_t d = first_duplicate(s, ci->base_names, c->nbases, base_name_at);
        if (d == UINT32_MAX) return nomem(err);
        if (d < c->nbases) {
            sv__schema_fail(err, SV_ERR_SYNTAX, "class '%s': base '%s' listed twice", c->name,
                            ci->base_names[d]);
            sv__schema_set_path(err, "/classes/%zu/bases/%u", i, d);
            return err ? err->status : SV_ERR_SYNTAX;
        }
        const sv_schema_class **bases = sv__schema_zalloc(s, c->nbases * sizeof *bases);
        if (!bases) return nomem(err);
        for (uint32_t j = 0; j < c->nbases; j++) {
            const char *bn = ci->base_names[j];
            bases[j] = sv_schema_class_by_name(s, bn, strlen(bn));
            if (!bases[j]) {
                sv_status st =
                    sv_schema_enum_by_name(s, bn, strlen(bn))
                        ? sv__schema_fail(err, SV_ERR_TYPE, "class '%s': base '%s' is an enum",
                                          c->name, bn)
                        : sv__schema_fail(err, SV_ERR_NOT_FOUND, "class '%s': unknown base '%s'",
                                          c->name, bn);
                sv__schema_set_path(err, "/classes/%zu/bases/%u", i, j);
                return st;
            }
        }
        c->bases = bases;
    }
    return SV_OK;
}

typedef struct frame {
    sv_schema_class *c;
    uint32_t next;
} frame;

static sv_status cycle_error(frame *stack, uint32_t top, const sv_schema_class *target,
                             sv_error *err)
{
    char msg[SV_ERROR_MSG_MAX];
    size_t o = 0;
    uint32_t from = top;
    while (stack[from].c != target) from--;
    for (uint32_t k = from; k <= top && o < sizeof msg; k++)
        o += (size_t)snprintf(msg + o, sizeof msg - o, "%s -> ", stack[k].c->name);
    if (o < sizeof msg) snprintf(msg + o, sizeof msg - o, "%s", target->name);
    sv__schema_fail(err, SV_ERR_SYNTAX, "cycle of bases: %s", msg);
    sv__schema_set_path(err, "/classes/%u/bases/%u", stack[top].c->index, stack[top].next - 1);
    return err ? err->status : SV_ERR_SYNTAX;
}

/* Depth-first over bases with an explicit stack: finds cycles, bounds the
 * depth and lists the classes bases-first in order[]. */
static sv_status order_classes(sv_schema *s, sv_schema_class **order, sv_error *err)
{
    frame stack[SV_BASE_MAX_DEPTH + 1];
    size_t n = 0;
    for (size_t r = 0; r < s->nclasses; r++) {
        if (sv__schema_cls(s->classes[r])->state == 2) continue;
        uint32_t top = 0;
        stack[0].c = s->classes[r];
        stack[0].next = 0;
        sv__schema_cls(s->classes[r])->state = 1;
        for (;;) {
            frame *f = &stack[top];
            if (f->next < f->c->nbases) {
                sv_schema_class *b = (sv_schema_class *)f->c->bases[f->next++];
                sv_schema__class_index *bi = sv__schema_cls(b);
                if (bi->state == 1) return cycle_error(stack, top, b, err);
                if (bi->state == 2) continue;
                if (top == SV_BASE_MAX_DEPTH) {
                    sv__schema_fail(err, SV_ERR_LIMIT, "class '%s': bases nest deeper than %u",
                                    f->c->name, SV_BASE_MAX_DEPTH);
                    sv__schema_set_path(err, "/classes/%u/bases/%u", f->c->index, f->next - 1);
                    return SV_ERR_LIMIT;
                }
                bi->state = 1;
                stack[++top] = (frame){b, 0};
                continue;
            }
            sv__schema_cls(f->c)->state = 2;
            order[n++] = f->c;
            if (top == 0) break;
            top--;
        }
    }
    return SV_OK;
}

/* Ancestors (each once, bases first) and the full field list of each class,
 * in bases-first order so every base is done before its derived classes. */
static sv_status build_lists(sv_schema *s, sv_schema_class **order, sv_error *err)
{
    uint64_t total = 0;
    for (size_t k = 0; k < s->nclasses; k++) {
        sv_schema_class *c = order[k];
        sv_schema__class_index *ci = sv__schema_cls(c);
        uint64_t nanc = 1;
        for (uint32_t j = 0; j < c->nbases; j++) {
            const sv_schema__class_index *bi = sv__schema_cls(c->bases[j]);
            nanc += bi->nanc;
            if (bi->levels + 1 > ci->levels) ci->levels = bi->levels + 1;
            if (ci->levels > SV_BASE_MAX_DEPTH) {
                sv__schema_fail(err, SV_ERR_LIMIT, "class '%s': bases nest deeper than %u", c->name,
                                SV_BASE_MAX_DEPTH);
                sv__schema_set_path(err, "/classes/%u/bases/%u", c->index, j);
                return SV_ERR_LIMIT;
            }
        }
        total += nanc;
        if (total > SV_RESOLVED_MAX) goto too_big;
        ci->anc = sv__schema_zalloc(s, (size_t)nanc * sizeof *ci->anc);
        if (!ci->anc) return nomem(err);
        uint32_t mark = c->index + 1, n = 0;
        uint64_t nall = 0;
        for (uint32_t j = 0; j < c->nbases; j++) {
            const sv_schema__class_index *bi = sv__schema_cls(c->bases[j]);
            for (uint32_t a = 0; a < bi->nanc; a++) {
                sv_schema__class_index *xi = sv__schema_cls(bi->anc[a]);
                if (xi->mark_class == mark) continue; /* reached through an earlier base */
                xi->mark_class = mark;
                ci->anc[n++] = bi->anc[a];
                nall += bi->anc[a]->nfields;
            }
        }
        ci->anc[n++] = c;
        ci->nanc = n;
        nall += c->nfields;
        total += nall;
        if (total > SV_RESOLVED_MAX) goto too_big;
        ci->all = sv__schema_zalloc(s, (size_t)nall * sizeof *ci->all);
        ci->anc_off = sv__schema_zalloc(s, (size_t)n * sizeof *ci->anc_off);
        if (!ci->all || !ci->anc_off) return nomem(err);
        uint32_t m = 0;
        for (uint32_t a = 0; a < n; a++) {
            ci->anc_off[a] = m;
            for (uint32_t f = 0; f < ci->anc[a]->nfields; f++)
                ci->all[m++] = &ci->anc[a]->fields[f];
        }
        ci->nall = m;
        if (sv__schema_build_field_index(s, c)) return nomem(err);
        continue;
    too_big:
        sv__schema_fail(err, SV_ERR_LIMIT, "class '%s': the full field lists exceed %u entries",
                        c->name, SV_RESOLVED_MAX);
        sv__schema_set_path(err, "/classes/%u", c->index);
        return SV_ERR_LIMIT;
    }
    return SV_OK;
}

/* ---- fields ----------------------------------------------------------------------- */

static sv_status check_fields(sv_schema *s, sv_error *err)
{
    for (size_t i = 0; i < s->nclasses; i++) {
        sv_schema_class *c = s->classes[i];
        uint32_t d = first_duplicate(s, c->fields, c->nfields, field_name_at);
        if (d == UINT32_MAX) return nomem(err);
        if (d < c->nfields) {
            sv__schema_fail(err, SV_ERR_SYNTAX, "class '%s': duplicate field name '%s'", c->name,
                            c->fields[d].name);
            sv__schema_set_path(err, "/classes/%zu/fields/%u/name", i, d);
            return err ? err->status : SV_ERR_SYNTAX;
        }
        for (uint32_t j = 0; j < c->nfields; j++) {
            sv_status st = sv__schema_type_resolve(s, c->fields[j].type, err);
            if (st) {
                sv__schema_set_path(err, "/classes/%zu/fields/%u/type", i, j);
                return st;
            }
        }
    }
    return SV_OK;
}

/* Types parsed on their own (not by a field) resolve when they can; an
 * unknown name there is no error of the schema's. */
static void resolve_other_types(sv_schema *s)
{
    for (uint32_t i = 0; i < s->types.cap; i++) {
        sv_type *t = (sv_type *)s->types.slots[i].item;
        if (!t || t->kind != SV_TYPE_NAME) continue;
        size_t len = strlen(t->name);
        if ((t->cls = sv_schema_class_by_name(s, t->name, len)))
            t->kind = SV_TYPE_CLASS;
        else if ((t->enm = sv_schema_enum_by_name(s, t->name, len)))
            t->kind = SV_TYPE_ENUM;
    }
}

/* A class must not contain itself by value (directly, in a fixed array, a
 * pair or tuple, or through a base): such a value would be infinite. */
static sv_status embed_visit(sv_schema_class *c, unsigned depth, sv_error *err);

static sv_status embed_type(sv_schema_class *c, uint32_t field, const sv_type *t, unsigned depth,
                            sv_error *err)
{
    if (t->kind == SV_TYPE_GENERIC) {
        if (t->gen != SV_GEN_ARRAY && t->gen != SV_GEN_PAIR && t->gen != SV_GEN_TUPLE) return SV_OK;
        for (uint32_t i = 0; i < t->nparams; i++) {
            sv_status st = embed_type(c, field, t->params[i], depth, err);
            if (st) return st;
        }
        return SV_OK;
    }
    if (t->kind != SV_TYPE_CLASS) return SV_OK;
    sv_schema_class *x = (sv_schema_class *)t->cls;
    sv_schema__class_index *xi = sv__schema_cls(x);
    if (xi->embed_state == 1 || depth >= SV_BASE_MAX_DEPTH) {
        if (xi->embed_state == 1)
            sv__schema_fail(err, SV_ERR_SYNTAX,
                            "class '%s' contains itself by value (field '%s' of '%s')", x->name,
                            c->fields[field].name, c->name);
        else
            sv__schema_fail(err, SV_ERR_LIMIT, "classes nest by value deeper than %u",
                            SV_BASE_MAX_DEPTH);
        sv__schema_set_path(err, "/classes/%u/fields/%u/type", c->index, field);
        return err ? err->status : SV_ERR_SYNTAX;
    }
    return xi->embed_state == 2 ? SV_OK : embed_visit(x, depth + 1, err);
}

static sv_status embed_visit(sv_schema_class *c, unsigned depth, sv_error *err)
{
    sv_schema__class_index *ci = sv__schema_cls(c);
    ci->embed_state = 1;
    for (uint32_t j = 0; j < c->nbases; j++) {
        sv_schema_class *b = (sv_schema_class *)c->bases[j];
        if (sv__schema_cls(b)->embed_state == 0) {
            sv_status st = embed_visit(b, depth + 1, err);
            if (st) return st;
        }
    }
    for (uint32_t j = 0; j < c->nfields; j++) {
        sv_status st = embed_type(c, j, c->fields[j].type, depth, err);
        if (st) return st;
    }
    ci->embed_state = 2;
    return SV_OK;
}

static sv_status read_defaults(sv_schema *s, sv_error *err)
{
    for (size_t i = 0; i < s->nclasses; i++) {
        sv_schema_class *c = s->classes[i];
        for (uint32_t j = 0; j < c->nfields; j++) {
            sv_schema_field *f = (sv_schema_field *)&c->fields[j];
            if (!f->def) continue;
            sv_value *nat = sv__schema_zalloc(s, sizeof *nat);
            if (!nat) return nomem(err);
            sv_status st = sv_schema_read_value(s, f->type, f->def, s->doc, nat, err);
            if (st) {
                sv__schema_path_prefix(err, "/classes/%zu/fields/%u/default", i, j);
                return st;
            }
            f->def = nat;
        }
    }
    return SV_OK;
}

/* ---- hashes and UUIDs ------------------------------------------------------------- */

static bool hash_eq(const void *item, const void *key)
{
    return ((const sv_schema_class *)item)->hash == *(const uint32_t *)key;
}
static bool uuid_eq(const void *item, const void *key)
{
    return memcmp(((const sv_schema_class *)item)->uuid.b, key, 16) == 0;
}

static sv_status fill_tables(sv_schema *s, sv_error *err)
{
    char n1[300], n2[300];
    for (size_t i = 0; i < s->nclasses; i++) {
        sv_schema_class *c = s->classes[i];
        if (c->has_hash) {
            uint64_t h = sv__schema_hash_u64(c->hash);
            const sv_schema_class *o = sv__schema_tab_find(&s->class_hashes, h, hash_eq, &c->hash);
            if (o) {
                source_note(n1, sizeof n1, o->source);
                source_note(n2, sizeof n2, c->source);
                sv__schema_fail(err, SV_ERR_SYNTAX,
                                "classes '%s'%s and '%s'%s have the same hash %u", o->name, n1,
                                c->name, n2, c->hash);
                sv__schema_set_path(err, "/classes/%zu/hash", i);
                return err ? err->status : SV_ERR_SYNTAX;
            }
            if (!sv__schema_tab_put(&s->class_hashes, &s->alloc, h, c)) return nomem(err);
        }
        if (c->has_uuid) {
            uint64_t h = sv__schema_hash_str((const char *)c->uuid.b, 16);
            const sv_schema_class *o = sv__schema_tab_find(&s->class_uuids, h, uuid_eq, c->uuid.b);
            if (o) {
                char u[39];
                sv_uuid_format(&c->uuid, true, u);
                source_note(n1, sizeof n1, o->source);
                source_note(n2, sizeof n2, c->source);
                sv__schema_fail(err, SV_ERR_SYNTAX,
                                "classes '%s'%s and '%s'%s have the same UUID %s", o->name, n1,
                                c->name, n2, u);
                sv__schema_set_path(err, "/classes/%zu/uuid", i);
                return err ? err->status : SV_ERR_SYNTAX;
            }
            if (!sv__schema_tab_put(&s->class_uuids, &s->alloc, h, c)) return nomem(err);
        }
    }
    return SV_OK;
}

sv_status sv_schema_finalize(sv_schema *s, sv_error *err)
{
    sv_error_clear(err);
    if (!s) return sv__schema_fail(err, SV_ERR_USAGE, "no schema");
    if (s->final) return SV_OK;
    if (s->broken) return sv__schema_fail(err, SV_ERR_USAGE, "schema failed to finalise before");
    s->broken = true; /* until every step has passed */
    sv_status st = final_enums(s, err);
    if (!st) st = resolve_bases(s, err);
    if (!st) {
        sv_schema_class **order =
            s->nclasses ? s->alloc.malloc(s->alloc.ctx, s->nclasses * sizeof *order) : NULL;
        if (s->nclasses && !order) return nomem(err);
        st = order_classes(s, order, err);
        if (!st) st = check_fields(s, err);
        if (!st) resolve_other_types(s);
        if (!st) st = build_lists(s, order, err);
        if (order) s->alloc.free(s->alloc.ctx, order, s->nclasses * sizeof *order);
    }
    for (size_t i = 0; !st && i < s->nclasses; i++)
        if (sv__schema_cls(s->classes[i])->embed_state == 0)
            st = embed_visit(s->classes[i], 0, err);
    if (!st) st = read_defaults(s, err);
    if (!st) st = fill_tables(s, err);
    if (!st) st = sv__schema_check_bindings(s, err);
    if (st) return st;
    if (sv_doc_status(s->doc)) return nomem(err);
    s->broken = false;
    s->final = true;
    return SV_OK;
}
