/* The dispatch of load and store by type (docs/formats/o3de.md,
 * "What serval follows", Load) and reflected classes: fields matched by lower-cased CRC-32, derived
 * before base; stored in field order with defaults omitted. */
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static o3_res load_generic(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                           sv_value *out, bool is_new)
{
    switch (t->gen) {
    case SV_GEN_MAP:
    case SV_GEN_UMAP: return o3_load_map(c, t, j, cur, out);
    case SV_GEN_PTR:
    case SV_GEN_SHARED:
    case SV_GEN_UNIQUE: return o3_load_pointer(c, t, j, cur, out);
    case SV_GEN_OPTIONAL:
        /* O3DE registers optional as deliberately unsupported (o3de.md, "`AZStd::any`") */
        return o3_rep(c, RF, SV_O3DE_INVALID,
                      "AZStd::optional isn't supported for JSON serialization.");
    default: return o3_load_container(c, t, j, cur, out, is_new);
    }
}

o3_res o3_load(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur, sv_value *out,
               bool is_new)
{
    *out = *cur;
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, RF, SV_O3DE_CATASTROPHIC, "The JSON is nested too deeply to load.");
    /* o3de.md, "What serval follows", Load: {} reaches a serializer only when it handles defaults
     * itself or initialises new instances; otherwise the value stays as it is */
    if (o3_is_explicit_default(j) && !o3_type_manual_default(t) && !(is_new && o3_type_init_new(t)))
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Value has an explicit default.");
    c->depth++;
    o3_res r;
    switch (t->kind) {
    case SV_TYPE_PRIM:
        if (t->prim == SV_PRIM_UUID)
            r = o3_load_uuid(c, j, cur, out);
        else if (t->prim == SV_PRIM_ANY)
            r = o3_load_any(c, j, cur, out);
        else if (t->prim >= SV_PRIM_VECTOR2 && t->prim <= SV_PRIM_TRANSFORM)
            r = o3_load_math(c, t->prim, j, cur, out, is_new);
        else if (o3_is_explicit_default(j)) {
            *out = o3_default_of(c, t); /* a new bool/int/float instance: false, 0, 0.0 */
            r = o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Value set to its default.");
        } else
            r = o3_load_prim(c, t->prim, j, cur, out);
        break;
    case SV_TYPE_ENUM: r = o3_load_enum(c, t->enm, j, cur, out); break;
    case SV_TYPE_CLASS: r = o3_load_class(c, t->cls, j, cur, out); break;
    case SV_TYPE_GENERIC: r = load_generic(c, t, j, cur, out, is_new); break;
    default:
        r = o3_report(c, o3_r(SV_O3DE_RETRIEVE_INFO, SV_O3DE_UNKNOWN),
                      "Failed to retrieve serialization information for %s.", o3_type_label(t));
    }
    c->depth--;
    return r;
}

o3_res o3_store(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def, sv_value *j)
{
    if (!o3_ok(c)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, WV, SV_O3DE_CATASTROPHIC, "The value is nested too deeply to store.");
    c->depth++;
    o3_res r;
    switch (t->kind) {
    case SV_TYPE_PRIM:
        if (t->prim == SV_PRIM_UUID)
            r = o3_store_uuid(c, v, def, j);
        else if (t->prim == SV_PRIM_ANY)
            r = o3_store_any(c, v, def, j);
        else if (t->prim >= SV_PRIM_VECTOR2 && t->prim <= SV_PRIM_TRANSFORM)
            r = o3_store_math(c, t->prim, v, def, j);
        else
            r = o3_store_prim(c, t->prim, v, def, j);
        break;
    case SV_TYPE_ENUM: r = o3_store_enum(c, t->enm, v, def, j); break;
    case SV_TYPE_CLASS: r = o3_store_class(c, t->cls, v, def, j); break;
    case SV_TYPE_GENERIC:
        switch (t->gen) {
        case SV_GEN_MAP:
        case SV_GEN_UMAP: r = o3_store_map(c, t, v, def, j); break;
        case SV_GEN_PTR:
        case SV_GEN_SHARED:
        case SV_GEN_UNIQUE: r = o3_store_pointer(c, t, v, def, j); break;
        case SV_GEN_OPTIONAL:
            r = o3_rep(c, WV, SV_O3DE_INVALID,
                       "AZStd::optional isn't supported for JSON serialization.");
            break;
        default: r = o3_store_container(c, t, v, def, j); break;
        }
        break;
    default:
        r = o3_report(c, o3_r(SV_O3DE_RETRIEVE_INFO, SV_O3DE_UNKNOWN),
                      "Failed to retrieve serialization information for %s.", o3_type_label(t));
    }
    c->depth--;
    return r;
}

/* The value of field i of an object: at its position when the object has
 * the full field list in order (what serval makes), else by name. */
static const sv_value *field_value(const sv_value *obj, size_t i, const sv_schema_field *f)
{
    if (sv_kind_of(obj) != SV_OBJECT && sv_kind_of(obj) != SV_MAP) return NULL;
    const sv_value *key = sv_key_at(obj, i);
    if (key) {
        size_t n;
        const char *k = sv_get_str(key, &n);
        if (k == f->name || (strlen(f->name) == n && memcmp(k, f->name, n) == 0))
            return sv_val_at(obj, i);
    }
    return sv_map_getz(obj, f->name);
}

/* A fresh object of the class holding cur's field values (the defaults for
 * fields cur lacks), so that loading can replace fields one by one. */
sv_value o3_writable_object(o3_ctx *c, const sv_schema_class *cls, const o3_class_info *ci,
                            const sv_value *cur, bool fresh)
{
    size_t n;
    const char *cn = sv_get_str(sv_object_class(cur), &n);
    if (sv_kind_of(cur) == SV_OBJECT && cur->len == ci->nfields && n == strlen(cls->name) &&
        memcmp(cn, cls->name, n) == 0) {
        if (fresh) return *cur; /* the load's own new default: filled in place */
        sv_value obj = sv_object(c->doc, *sv_object_class(cur), ci->nfields);
        if (obj.kind != SV_OBJECT) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            return obj;
        }
        sv_pair *p = sv_pairs(&obj); /* the new object: its pairs are filled here */
        const sv_value from = *cur;
        for (size_t i = 0; i < ci->nfields; i++) {
            p[i].key = *sv_key_at(&from, i);
            p[i].val = *sv_val_at(&from, i);
        }
        return obj;
    }
    sv_value obj = o3_default_class(c, cls);
    if (obj.kind != SV_OBJECT) return obj;
    for (size_t i = 0; i < ci->nfields; i++) {
        const sv_value *v = field_value(cur, i, ci->fields[i]);
        if (v) *sv_val_at(&obj, i) = *v;
    }
    return obj;
}

/* The value-tree side of o3_load_members: the field's new value replaces
 * its slot in the fresh object (a copy of the object value, whose fields
 * are the object's own). */
typedef struct tree_fields {
    o3_ctx *c;
    const o3_class_info *ci;
    sv_value obj;
} tree_fields;

static o3_res load_tree_field(void *state, size_t f, const sv_value *j)
{
    tree_fields *t = state;
    sv_value nv;
    sv_value *slot = sv_val_at(&t->obj, f);
    o3_res r = o3_load(t->c, t->ci->fields[f]->type, j, slot, &nv, false);
    *slot = nv;
    return r;
}

o3_res o3_load_class(o3_ctx *c, const sv_schema_class *cls, const sv_value *j, const sv_value *cur,
                     sv_value *out)
{
    *out = *cur;
    /* taken at once, so that no load below this one sees it */
    bool fresh = c->fresh && sv_kind_of(cur) == SV_OBJECT && cur->as.box == c->fresh;
    c->fresh = NULL;
    o3_res r;
    if (!o3_class_members_start(c, cls, j, &r)) return r;
    const o3_class_info *ci = o3_class(c, cls);
    sv_value obj = o3_writable_object(c, cls, ci, cur, fresh);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    tree_fields t = {c, ci, obj};
    r = o3_load_members(c, ci, j, load_tree_field, &t);
    *out = obj;
    return r;
}

o3_res o3_store_class(o3_ctx *c, const sv_schema_class *cls, const sv_value *v, const sv_value *def,
                      sv_value *j)
{
    const o3_class_info *ci = o3_class(c, cls);
    if (ci->nfields == 0)
        return c->keep_defaults
                   ? o3_rep(c, WV, SV_O3DE_SUCCESS, "Class didn't contain any elements to store.")
                   : o3_rep(c, WV, SV_O3DE_DEFAULTS_USED,
                            "Class didn't contain any elements to store.");
    sv_value obj = sv_map(c->doc, 0);
    o3_res result = sv_o3de_result_none(WV);
    for (size_t i = 0; i < ci->nfields && o3_ok(c); i++) {
        const sv_schema_field *f = ci->fields[i];
        const sv_value *fv = field_value(v, i, f);
        const sv_value *fd = def ? field_value(def, i, f) : NULL;
        sv_value dflt;
        if (!fv) { /* a field the value lacks is its default */
            dflt = o3_default_of(c, f->type);
            fv = &dflt;
        }
        size_t nl = strlen(f->name);
        size_t mark = o3_path_key(c, f->name, nl);
        sv_value fj = o3_empty_object(c);
        o3_res r = o3_store(c, f->type, fv, fd, &fj);
        o3_path_pop(c, mark);
        if (o3_halted(r)) return o3_report(c, r, "Storing of element has failed.");
        if (c->keep_defaults || o3_out(r) != SV_O3DE_DEFAULTS_USED)
            if (sv_map_append(c->doc, &obj, sv_str_intern(c->doc, f->name, nl), fj) != SV_OK)
                o3_fail(c, SV_ERR_NOMEM, "out of memory");
        result = o3_combine(result, r);
    }
    *j = obj;
    return result;
}
