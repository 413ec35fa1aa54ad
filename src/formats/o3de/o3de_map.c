/* Maps: an object when every stored key is a string (or the explicit
 * default, written "{}"), else [{"Key":k,"Value":v}]; unordered maps
 * sorted with O3DE's Compare. docs/formats/o3de.md, "What serval follows", Containers. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static int key_cmp(o3_ctx *c, const sv_value *a, const sv_value *b)
{
    if (a->kind == SV_STRING && b->kind == SV_STRING) {
        size_t n = a->len < b->len ? a->len : b->len;
        int r = memcmp(a->as.str, b->as.str, n);
        return r ? r : (a->len < b->len ? -1 : a->len > b->len);
    }
    if ((a->kind == SV_INT || a->kind == SV_UINT || a->kind == SV_FLOAT) &&
        (b->kind == SV_INT || b->kind == SV_UINT || b->kind == SV_FLOAT)) {
        if (a->kind == SV_INT && b->kind == SV_INT)
            return a->as.i < b->as.i ? -1 : a->as.i > b->as.i;
        if (a->kind == SV_UINT && b->kind == SV_UINT)
            return a->as.u < b->as.u ? -1 : a->as.u > b->as.u;
        double x = sv_get_f64(a), y = sv_get_f64(b);
        return x < y ? -1 : x > y;
    }
    return o3_compare_c(c, a, b);
}

/* One entry: the key and value loaded as new instances; a key that exists
 * already gets the value loaded on top of its current one. map is the
 * container o3_load_map made (sv_map, so in the pair layout): the ordered
 * insertion below moves its pairs. */
static o3_res load_entry(o3_ctx *c, const sv_type *t, sv_value *map, const sv_value *kj,
                         const sv_value *vj)
{
    const sv_type *kt = t->params[0], *vt = t->params[1];
    sv_value kd = o3_default_of(c, kt), key;
    o3_res rk = o3_load(c, kt, kj, &kd, &key, true);
    if (o3_halted(rk)) return rk;
    if (o3_altered(rk))
        return o3_combine(
            rk, o3_rep(c, RF, SV_O3DE_UNAVAILABLE,
                       "Unable to fully process an element for the associative container."));
    long at = -1;
    const sv_value m = *map; /* a local copy: the accessors' checks leave the loop */
    for (uint32_t i = 0; i < m.len; i++)
        if (o3_value_equal(c, kt, sv_key_at(&m, i), &key)) {
            at = (long)i;
            break;
        }
    sv_value vd = at >= 0 ? *sv_val_at(map, (size_t)at) : o3_default_of(c, vt), val;
    o3_res rv = o3_load(c, vt, vj, &vd, &val, at < 0);
    if (o3_halted(rv)) return rv;
    if (o3_altered(rv))
        return o3_combine(
            o3_combine(rk, rv),
            o3_rep(c, RF, SV_O3DE_UNAVAILABLE,
                   "Unable to fully process an element for the associative container."));
    if (at >= 0) {
        *sv_val_at(map, (size_t)at) = val;
    } else {
        if (sv_map_append(c->doc, map, key, val) != SV_OK) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            return o3_r(RF, SV_O3DE_CATASTROPHIC);
        }
        if (t->gen == SV_GEN_MAP) { /* AZStd::map keeps its keys ordered */
            sv_pair *p = sv_pairs(map);
            uint32_t pos = map->len - 1;
            sv_pair tmp = p[pos];
            while (pos > 0 && key_cmp(c, &p[pos - 1].key, &tmp.key) > 0) {
                p[pos] = p[pos - 1];
                pos--;
            }
            p[pos] = tmp;
        }
    }
    return o3_combine(rk, rv);
}

o3_res o3_load_map(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                   sv_value *out)
{
    *out = *cur;
    sv_kind k = sv_kind_of(j);
    if (k != SV_MAP && k != SV_ARRAY)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Associative containers can only be read from an array or object.");
    bool clear = false;
    if (c->clear_containers && sv_kind_of(cur) == SV_MAP && cur->len) {
        o3_res cr = o3_rep(c, SV_O3DE_CLEAR, SV_O3DE_SUCCESS, "Clearing associative container.");
        if (o3_halted(cr)) return cr;
        clear = o3_out(cr) == SV_O3DE_SUCCESS;
    }
    size_t n0 = (!clear && sv_kind_of(cur) == SV_MAP) ? cur->len : 0;
    sv_value map = sv_map(c->doc, n0);
    if (map.kind != SV_MAP) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return o3_r(RF, SV_O3DE_CATASTROPHIC);
    }
    sv_pair *mp = sv_pairs(&map); /* the new map: its pairs are filled here */
    for (size_t i = 0; i < n0; i++) {
        mp[i].key = *sv_key_at(cur, i);
        mp[i].val = *sv_val_at(cur, i);
    }
    o3_res result = sv_o3de_result_none(RF);
    static const sv_value no_member = {0};
    sv_value empty = o3_empty_object(c);
    for (uint32_t i = 0; i < j->len && o3_ok(c); i++) {
        o3_res r;
        size_t mark;
        if (k == SV_MAP) {
            const sv_value *mk = sv_key_at(j, i);
            size_t kn;
            const char *name = sv_get_str(mk, &kn);
            mark = o3_path_key(c, name, kn);
            /* the member name goes through the key type's serializer; "{}"
             * stands for the default key */
            const sv_value *kj = (kn == 2 && name[0] == '{' && name[1] == '}') ? &empty : mk;
            r = load_entry(c, t, &map, kj, sv_val_at(j, i));
        } else {
            const sv_value *e = sv_array_at(j, i);
            mark = o3_path_index(c, i);
            if (e->kind != SV_MAP) {
                r = o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                           "Entries of an associative container array must be objects.");
            } else {
                const sv_value *kj = sv_map_get(e, "Key", 3), *vj = sv_map_get(e, "Value", 5);
                r = load_entry(c, t, &map, kj ? kj : &empty, vj ? vj : &empty);
            }
        }
        (void)no_member;
        o3_path_pop(c, mark);
        if (o3_halted(r)) {
            *out = map;
            return r;
        }
        result = o3_combine(result, r);
    }
    *out = map;
    if (j->len == 0)
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "No values provided for associative container.");
    return o3_report(c, result, "Loaded associative container.");
}

typedef struct member_sort {
    sv_pair p;
    size_t index;
} member_sort;

static int member_cmp(void *ctx, const void *a, const void *b)
{
    const member_sort *x = a, *y = b;
    int r = o3_compare(ctx, &x->p.key, &y->p.key);
    if (!r) r = o3_compare(ctx, &x->p.val, &y->p.val);
    if (!r) r = x->index < y->index ? -1 : x->index > y->index;
    return r;
}

o3_res o3_store_map(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                    sv_value *j)
{
    (void)def;
    size_t n = sv_kind_of(v) == SV_MAP ? v->len : 0;
    if (n == 0) {
        if (!c->keep_defaults) return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Empty container.");
        *j = sv_array(c->doc, 0);
        return o3_rep(c, WV, SV_O3DE_SUCCESS, "Empty container stored.");
    }
    const sv_type *kt = t->params[0], *vt = t->params[1];
    member_sort *e = sv__core_mem_calloc(c->alloc, n, sizeof *e);
    if (!e) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return o3_r(WV, SV_O3DE_CATASTROPHIC);
    }
    o3_res result = sv_o3de_result_none(WV);
    bool all_strings = true;
    const sv_value vm = *v; /* a local copy: the accessors' checks leave the loop */
    for (size_t i = 0; i < n && o3_ok(c); i++) {
        size_t mark = o3_path_index(c, i);
        sv_value kd = o3_default_of(c, kt), vd = o3_default_of(c, vt);
        e[i].p.key = o3_empty_object(c);
        e[i].p.val = o3_empty_object(c);
        e[i].index = i;
        o3_res rk = o3_store(c, kt, sv_key_at(&vm, i), &kd, &e[i].p.key);
        o3_res rv = o3_halted(rk) ? rk : o3_store(c, vt, sv_val_at(&vm, i), &vd, &e[i].p.val);
        o3_path_pop(c, mark);
        if (o3_halted(rk) || o3_halted(rv)) {
            sv__core_mem_free(c->alloc, e, n, sizeof *e);
            return o3_halted(rk) ? rk : rv;
        }
        result = o3_combine(result, o3_combine(rk, rv));
        if (e[i].p.key.kind != SV_STRING && !o3_is_explicit_default(&e[i].p.key))
            all_strings = false;
    }
    if (!o3_ok(c)) {
        sv__core_mem_free(c->alloc, e, n, sizeof *e);
        return o3_r(WV, SV_O3DE_CATASTROPHIC);
    }
    sv_value out;
    if (all_strings) {
        for (size_t i = 0; i < n; i++)
            if (e[i].p.key.kind != SV_STRING) e[i].p.key = sv_str(c->doc, "{}", 2);
        o3_cmp k = {c->alloc, false};
        if (t->gen == SV_GEN_UMAP &&
            (!o3_sort(e, n, sizeof *e, member_cmp, &k, c->alloc) || k.nomem)) {
            sv__core_mem_free(c->alloc, e, n, sizeof *e);
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            return o3_r(WV, SV_O3DE_CATASTROPHIC);
        }
        out = sv_map(c->doc, n);
        if (out.kind == SV_MAP)
            for (size_t i = 0; i < n; i++) sv_pairs(&out)[i] = e[i].p;
    } else {
        out = sv_array(c->doc, n);
        if (out.kind == SV_ARRAY) {
            sv_value *dst = sv_array_items(&out);
            for (size_t i = 0; i < n; i++) {
                sv_value obj = sv_map(c->doc, 2);
                if (obj.kind != SV_MAP) break;
                sv_pair *op = sv_pairs(&obj);
                op[0].key = sv_str_intern(c->doc, "Key", 3);
                op[0].val = e[i].p.key;
                op[1].key = sv_str_intern(c->doc, "Value", 5);
                op[1].val = e[i].p.val;
                dst[i] = obj;
            }
            if (t->gen == SV_GEN_UMAP) o3_sort_json(c, dst, n);
        }
    }
    sv__core_mem_free(c->alloc, e, n, sizeof *e);
    if (sv_doc_status(c->doc) != SV_OK) o3_fail(c, sv_doc_status(c->doc), "out of memory");
    *j = out;
    return o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
}
