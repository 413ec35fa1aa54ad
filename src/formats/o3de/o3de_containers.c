/* Sequences (vector, list, set, unordered set), fixed arrays, pairs and
 * tuples. docs/formats/o3de.md, "What serval follows", Containers. */
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static bool is_sequence(sv_generic g)
{
    return g == SV_GEN_VECTOR || g == SV_GEN_LIST || g == SV_GEN_SET || g == SV_GEN_USET;
}

/* AZStd::set keeps its elements in the C++ comparator's order: numbers by
 * value, strings bytewise; other element types by O3DE's JSON Compare
 * order of the values themselves. */
static int native_cmp(o3_ctx *c, const sv_value *a, const sv_value *b)
{
    if ((a->kind == SV_INT || a->kind == SV_UINT || a->kind == SV_FLOAT) &&
        (b->kind == SV_INT || b->kind == SV_UINT || b->kind == SV_FLOAT)) {
        if (a->kind == SV_FLOAT || b->kind == SV_FLOAT) {
            double x = sv_get_f64(a), y = sv_get_f64(b);
            return x < y ? -1 : x > y;
        }
        if (a->kind == SV_INT && b->kind == SV_INT)
            return a->as.i < b->as.i ? -1 : a->as.i > b->as.i;
        if (a->kind == SV_UINT && b->kind == SV_UINT)
            return a->as.u < b->as.u ? -1 : a->as.u > b->as.u;
        if (a->kind == SV_INT && a->as.i < 0) return -1;
        if (b->kind == SV_INT && b->as.i < 0) return 1;
        return a->as.u < b->as.u ? -1 : a->as.u > b->as.u;
    }
    if (a->kind == SV_STRING && b->kind == SV_STRING) {
        size_t n = a->len < b->len ? a->len : b->len;
        int r = memcmp(a->as.str, b->as.str, n);
        return r ? r : (a->len < b->len ? -1 : a->len > b->len);
    }
    if (a->kind == SV_BOOL && b->kind == SV_BOOL) return (int)a->as.b - (int)b->as.b;
    return o3_compare_c(c, a, b);
}

static sv_value copy_array(o3_ctx *c, const sv_value *cur, bool clear)
{
    size_t n = (!clear && sv_kind_of(cur) == SV_ARRAY) ? cur->len : 0;
    sv_value a = sv_array(c->doc, n);
    if (a.kind != SV_ARRAY) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return a;
    }
    if (n) memcpy(sv_array_items(&a), sv_array_items(cur), n * sizeof(sv_value));
    return a;
}

static o3_res load_sequence(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                            sv_value *out)
{
    if (sv_kind_of(j) != SV_ARRAY)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Basic containers can only be read from an array.");
    bool clear = false;
    if (c->clear_containers && sv_kind_of(cur) == SV_ARRAY && cur->len) {
        /* the Clear step is reported, and the callback may veto it */
        o3_res cr = o3_rep(c, SV_O3DE_CLEAR, SV_O3DE_SUCCESS, "Clearing basic container.");
        if (o3_halted(cr)) return cr;
        clear = o3_out(cr) == SV_O3DE_SUCCESS;
    }
    sv_value arr = copy_array(c, cur, clear);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    const sv_type *elem = t->params[0];
    bool set = t->gen == SV_GEN_SET || t->gen == SV_GEN_USET;
    o3_res result = sv_o3de_result_none(RF);
    size_t added = 0;
    const sv_value *items = sv_array_items(j);
    for (uint32_t i = 0; i < j->len && o3_ok(c); i++) {
        size_t mark = o3_path_index(c, i);
        sv_value fresh = o3_default_of(c, elem), nv;
        /* an element that is not kept (halted, altered) is dropped whole,
         * so its default may be filled in place */
        if (fresh.kind == SV_OBJECT) c->fresh = fresh.as.box;
        o3_res r = o3_load(c, elem, &items[i], &fresh, &nv, true);
        c->fresh = NULL;
        if (o3_halted(r)) {
            /* O3DE returns what it gathered so far, without the halting code */
            o3_path_pop(c, mark);
            *out = arr;
            return result;
        }
        if (o3_altered(r)) {
            result = o3_combine(result, r);
            o3_path_pop(c, mark);
            continue;
        }
        if (set) {
            const sv_value *it = sv_array_items(&arr);
            size_t pos = arr.len;
            bool dup = false;
            for (size_t k = 0; k < arr.len; k++) {
                if (o3_value_equal(c, elem, &it[k], &nv)) {
                    dup = true;
                    break;
                }
            }
            if (dup) {
                result = o3_combine(result, o3_rep(c, RF, SV_O3DE_UNAVAILABLE,
                                                   "Unable to store element to basic container."));
                o3_path_pop(c, mark);
                continue;
            }
            if (t->gen == SV_GEN_SET) {
                pos = 0;
                while (pos < arr.len && native_cmp(c, &it[pos], &nv) < 0) pos++;
            }
            if (sv_array_append(c->doc, &arr, nv) != SV_OK)
                o3_fail(c, SV_ERR_NOMEM, "out of memory");
            sv_value *w = sv_array_items(&arr);
            memmove(w + pos + 1, w + pos, (arr.len - 1 - pos) * sizeof *w);
            w[pos] = nv;
        } else if (sv_array_append(c->doc, &arr, nv) != SV_OK) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
        }
        added++;
        result = o3_combine(result, r);
        o3_path_pop(c, mark);
    }
    *out = arr;
    if (j->len == 0)
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "No values provided for basic container.");
    if (added) result = o3_combine(result, o3_r(RF, SV_O3DE_SUCCESS));
    return o3_report(c, result, "Loaded basic container.");
}

/* AZStd::array<T,N>: at least N entries, extra entries skipped (o3de.md, "What serval follows",
 * Containers). */
static o3_res load_fixed(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                         sv_value *out, bool is_new)
{
    size_t n = t->array_len;
    if (o3_is_explicit_default(j)) { /* a new instance: every element defaulted */
        (void)is_new;
        *out = o3_default_of(c, t);
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Array set to defaults.");
    }
    if (sv_kind_of(j) != SV_ARRAY)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Fixed arrays can only be read from an array.");
    if (j->len < n)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Not enough entries in JSON array to load an AZStd::array from.");
    sv_value arr = sv_kind_of(cur) == SV_ARRAY && cur->len == n ? copy_array(c, cur, false)
                                                                : o3_default_of(c, t);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    sv_value *dst = sv_array_items(&arr);
    const sv_value *items = sv_array_items(j);
    o3_res result = sv_o3de_result_none(RF);
    for (size_t i = 0; i < n; i++) {
        size_t mark = o3_path_index(c, i);
        sv_value nv;
        o3_res r = o3_load(c, t->params[0], &items[i], &dst[i], &nv, true);
        o3_path_pop(c, mark);
        if (o3_halted(r)) return r;
        if (!o3_altered(r)) dst[i] = nv;
        result = o3_combine(result, r);
    }
    if (j->len > n)
        result = o3_combine(
            result, o3_rep(c, RF, SV_O3DE_SKIPPED, "Skipped entries past the end of the array."));
    *out = arr;
    return result;
}

/* pair and tuple: an entry whose load is Altered is skipped and the next
 * entry is tried for the same element (o3de.md, "What serval follows", Containers). */
static o3_res load_tuple(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                         sv_value *out)
{
    size_t n = t->nparams;
    if (o3_is_explicit_default(j)) {
        *out = o3_default_of(c, t);
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Tuple set to defaults.");
    }
    if (sv_kind_of(j) != SV_ARRAY)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Tuples can only be read from an array.");
    if (j->len < n)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Not enough entries in the JSON array to load the tuple.");
    sv_value arr = sv_kind_of(cur) == SV_ARRAY && cur->len == n ? copy_array(c, cur, false)
                                                                : o3_default_of(c, t);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    sv_value *dst = sv_array_items(&arr);
    const sv_value *items = sv_array_items(j);
    o3_res result = sv_o3de_result_none(RF);
    size_t entry = 0;
    for (size_t i = 0; i < n; i++) {
        o3_res r = o3_r(RF, SV_O3DE_UNSUPPORTED);
        while (entry < j->len) {
            size_t mark = o3_path_index(c, entry);
            sv_value nv;
            r = o3_load(c, t->params[i], &items[entry], &dst[i], &nv, true);
            o3_path_pop(c, mark);
            entry++;
            if (o3_halted(r)) return r;
            if (!o3_altered(r)) {
                dst[i] = nv;
                break;
            }
            result = o3_combine(result, r);
        }
        if (o3_altered(r)) break;
        result = o3_combine(result, r);
    }
    *out = arr;
    return result;
}

o3_res o3_load_container(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                         sv_value *out, bool is_new)
{
    *out = *cur;
    if (is_sequence(t->gen)) return load_sequence(c, t, j, cur, out);
    if (t->gen == SV_GEN_ARRAY) return load_fixed(c, t, j, cur, out, is_new);
    if (t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE) return load_tuple(c, t, j, cur, out);
    return o3_report(c, o3_r(RF, SV_O3DE_UNSUPPORTED),
                     "Reading into targets of type '%s' is not supported.", o3_type_label(t));
}

static o3_res store_sequence(o3_ctx *c, const sv_type *t, const sv_value *v, sv_value *j)
{
    const sv_type *elem = t->params[0];
    size_t n = sv_kind_of(v) == SV_ARRAY ? v->len : 0;
    if (n == 0) {
        if (!c->keep_defaults) return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Empty container.");
        *j = sv_array(c->doc, 0);
        return o3_rep(c, WV, SV_O3DE_SUCCESS, "Empty container stored.");
    }
    sv_value arr = sv_array(c->doc, n);
    if (arr.kind != SV_ARRAY) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return o3_r(WV, SV_O3DE_CATASTROPHIC);
    }
    sv_value *dst = sv_array_items(&arr);
    const sv_value *items = sv_array_items(v);
    o3_res result = sv_o3de_result_none(WV);
    for (size_t i = 0; i < n && o3_ok(c); i++) {
        size_t mark = o3_path_index(c, i);
        /* each element against a fresh default of its type (ReplaceDefault) */
        sv_value d = o3_default_of(c, elem);
        dst[i] = o3_empty_object(c);
        o3_res r = o3_store(c, elem, &items[i], &d, &dst[i]);
        o3_path_pop(c, mark);
        if (o3_halted(r)) return r;
        result = o3_combine(result, r);
    }
    if (t->gen == SV_GEN_USET) o3_sort_json(c, dst, n);
    *j = arr;
    return o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
}

/* Fixed arrays, pairs and tuples: element-wise against the default's
 * elements; all default means nothing is written. */
static o3_res store_fixed(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                          sv_value *j)
{
    size_t n = t->gen == SV_GEN_ARRAY ? t->array_len : t->nparams;
    sv_value arr = sv_array(c->doc, n);
    if (arr.kind != SV_ARRAY) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return o3_r(WV, SV_O3DE_CATASTROPHIC);
    }
    sv_value *dst = sv_array_items(&arr);
    o3_res result = sv_o3de_result_none(WV);
    bool all_default = true;
    for (size_t i = 0; i < n && o3_ok(c); i++) {
        const sv_type *et = t->params[t->gen == SV_GEN_ARRAY ? 0 : i];
        const sv_value *ev = sv_array_at(v, i);
        const sv_value *ed = def ? sv_array_at(def, i) : NULL;
        sv_value dv;
        if (!ev) {
            dv = o3_default_of(c, et);
            ev = &dv;
        }
        size_t mark = o3_path_index(c, i);
        dst[i] = o3_empty_object(c);
        o3_res r = o3_store(c, et, ev, ed, &dst[i]);
        o3_path_pop(c, mark);
        if (o3_halted(r)) return r;
        if (o3_out(r) != SV_O3DE_DEFAULTS_USED) all_default = false;
        result = o3_combine(result, r);
    }
    if (all_default && !c->keep_defaults) return o3_report(c, result, "All elements are defaults.");
    *j = arr;
    return result;
}

o3_res o3_store_container(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                          sv_value *j)
{
    if (is_sequence(t->gen)) return store_sequence(c, t, v, j);
    if (t->gen == SV_GEN_ARRAY || t->gen == SV_GEN_PAIR || t->gen == SV_GEN_TUPLE)
        return store_fixed(c, t, v, def, j);
    return o3_report(c, o3_r(WV, SV_O3DE_UNSUPPORTED),
                     "Storing values of type '%s' is not supported.", o3_type_label(t));
}
