/* Whole-tree operations: deep equality, deep copy, walk. They recurse, so a
 * tree deeper than SV_TREE_MAX_DEPTH is refused (equal: false, copy: null,
 * visit: stops; the walk itself does not recurse) instead of exhausting the C stack. Decoders already bound the
 * depth of what they build (sv_limits.max_depth). */
#include <stdio.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "core/walk.h"

#define SV_TREE_MAX_DEPTH 4096u

static bool scalar_equal(const sv_value *a, const sv_value *b)
{
    switch (a->kind) {
    case SV_NULL: return true;
    case SV_BOOL: return a->as.b == b->as.b && a->len == b->len;
    case SV_INT:
    case SV_UINT:
    case SV_REF: return a->as.u == b->as.u;
    case SV_FLOAT:
        if (a->sub == 4) return memcmp(&a->as.f32, &b->as.f32, sizeof(float)) == 0;
        return a->as.u == b->as.u; /* bits: NaN == same NaN, 0.0 != -0.0 */
    case SV_STRING:
    case SV_BYTES: return a->len == b->len && memcmp(a->as.str, b->as.str, a->len) == 0;
    case SV_TUPLE:
    case SV_PACKED:
        return a->len == b->len &&
               memcmp(a->as.data, b->as.data, (size_t)a->len * sv_elem_size((sv_elem)a->sub)) == 0;
    default: return false;
    }
}

static bool equal_rec(const sv_value *a, const sv_value *b, unsigned depth);

static bool opt_equal(const sv_value *a, const sv_value *b, unsigned depth)
{
    if (!a || !b) return a == b;
    return equal_rec(a, b, depth);
}

static bool equal_rec(const sv_value *a, const sv_value *b, unsigned depth)
{
    if (depth > SV_TREE_MAX_DEPTH) return false;
    if (a->kind != b->kind || a->sub != b->sub || ((a->flags ^ b->flags) & ~SV_F_BORROWED) ||
        a->tag != b->tag || a->len != b->len)
        return false;
    switch (a->kind) {
    case SV_ARRAY: {
        if (!opt_equal(a->as.box->meta, b->as.box->meta, depth + 1)) return false;
        const sv_value *x = sv__core_items(a->as.box), *y = sv__core_items(b->as.box);
        for (uint32_t i = 0; i < a->len; i++)
            if (!equal_rec(&x[i], &y[i], depth + 1)) return false;
        return true;
    }
    case SV_MAP:
    case SV_OBJECT: {
        if (!opt_equal(a->as.box->meta, b->as.box->meta, depth + 1)) return false;
        if (!opt_equal(a->as.box->cls, b->as.box->cls, depth + 1)) return false;
        const sv_value x = *a, y = *b; /* local: the accessors' checks leave the loop */
        for (uint32_t i = 0; i < x.len; i++) {
            if (!equal_rec(sv_key_at(&x, i), sv_key_at(&y, i), depth + 1)) return false;
            if (!equal_rec(sv_val_at(&x, i), sv_val_at(&y, i), depth + 1)) return false;
        }
        return true;
    }
    default: return scalar_equal(a, b);
    }
}

bool sv_equal(const sv_value *a, const sv_value *b)
{
    if (!a || !b) return a == b;
    return equal_rec(a, b, 0);
}

static sv_value copy_rec(sv_doc *doc, const sv_value *v, unsigned depth);

static const sv_value *copy_opt(sv_doc *doc, const sv_value *v, unsigned depth, bool *ok)
{
    if (!v) return NULL;
    sv_value *c = sv_doc_alloc(doc, sizeof *c);
    if (!c) {
        *ok = false;
        return NULL;
    }
    *c = copy_rec(doc, v, depth);
    if (doc->status != SV_OK) *ok = false;
    return c;
}

static sv_value copy_rec(sv_doc *doc, const sv_value *v, unsigned depth)
{
    if (depth > SV_TREE_MAX_DEPTH) {
        if (doc->status == SV_OK) doc->status = SV_ERR_DEPTH;
        return sv_null();
    }
    sv_value r = *v;
    switch (v->kind) {
    case SV_STRING:
    case SV_BYTES: {
        char *p = sv_doc_alloc(doc, (size_t)v->len + 1);
        if (!p) return sv_null();
        memcpy(p, v->as.str, v->len);
        p[v->len] = '\0';
        r.as.str = p;
        r.flags = v->flags & ~SV_F_BORROWED & 0x0F; /* the copy is the document's */
        return r;
    }
    case SV_TUPLE:
    case SV_PACKED: {
        size_t n = (size_t)v->len * sv_elem_size((sv_elem)v->sub);
        void *p = sv_doc_alloc(doc, n);
        if (!p) return sv_null();
        if (n) memcpy(p, v->as.data, n);
        r.as.data = p;
        r.flags = v->flags & ~SV_F_BORROWED & 0x0F; /* the copy is the document's */
        return r;
    }
    case SV_ARRAY:
    case SV_MAP:
    case SV_OBJECT: {
        bool is_array = v->kind == SV_ARRAY;
        size_t isz = is_array ? sizeof(sv_value) : sizeof(sv_pair);
        sv_container *box = sv__core_box_new(doc, isz, v->len);
        if (!box) return sv_null();
        bool ok = true;
        box->meta = copy_opt(doc, v->as.box->meta, depth + 1, &ok);
        box->cls = copy_opt(doc, v->as.box->cls, depth + 1, &ok);
        for (uint32_t i = 0; ok && i < v->len; i++) {
            if (is_array) {
                sv__core_items(box)[i] = copy_rec(doc, &sv__core_items(v->as.box)[i], depth + 1);
            } else {
                /* reads through the accessors, builds today's pairs */
                sv__core_pairs(box)[i].key = copy_rec(doc, sv_key_at(v, i), depth + 1);
                sv__core_pairs(box)[i].val = copy_rec(doc, sv_val_at(v, i), depth + 1);
            }
            if (doc->status != SV_OK) ok = false;
        }
        if (!ok) return sv_null();
        r.as.box = box;
        return r;
    }
    default: return r;
    }
}

sv_value sv_copy(sv_doc *doc, const sv_value *v)
{
    if (!doc || !v) return sv_null();
    sv_value r = copy_rec(doc, v, 0);
    return doc->status == SV_OK ? r : sv_null();
}

/* ---- walk: sv_visit over the one walker (core/walk.c) ---- */

typedef struct visit_adapter {
    sv_visit_fn fn;
    void *ctx;
    bool want_path;
} visit_adapter;

static sv_step visit_one(void *ctx, sv_walker *w, const sv_value *v, unsigned depth)
{
    visit_adapter *a = ctx;
    const char *path = "";
    if (a->want_path && !(path = sv__core_walker_path(w))) return SV_STEP_STOP;
    return a->fn(a->ctx, v, depth, path) ? SV_STEP_INTO : SV_STEP_STOP;
}

bool sv_visit(const sv_value *root, bool want_path, sv_visit_fn fn, void *ctx)
{
    if (!root || !fn) return true;
    visit_adapter a = {fn, ctx, want_path};
    return sv__core_walk_tree(root, SV_TREE_MAX_DEPTH, NULL, visit_one, &a) == SV_WALK_DONE;
}

/* The deprecated sv_walk: its callback's context moved to the front. */
typedef struct walk_adapter {
    sv_walk_fn fn;
    void *ctx;
} walk_adapter;

static bool walk_one(void *ctx, const sv_value *v, unsigned depth, const char *path)
{
    const walk_adapter *a = ctx;
    return a->fn(v, depth, path, a->ctx);
}

bool sv_walk(const sv_value *root, bool want_path, sv_walk_fn fn, void *ctx)
{
    if (!root || !fn) return true;
    walk_adapter a = {fn, ctx};
    return sv_visit(root, want_path, walk_one, &a);
}
