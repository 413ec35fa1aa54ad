/* Whole-tree operations: deep equality, deep copy, walk. They recurse, so a
 * tree deeper than SV_TREE_MAX_DEPTH is refused (equal: false, copy: null,
 * walk: stops) instead of exhausting the C stack. Decoders already bound the
 * depth of what they build (sv_limits.max_depth). */
#include <stdio.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"

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
        a->tag != b->tag ||
        a->len != b->len)
        return false;
    switch (a->kind) {
    case SV_ARRAY: {
        if (!opt_equal(a->as.box->meta, b->as.box->meta, depth + 1)) return false;
        const sv_value *x = sv__items(a->as.box), *y = sv__items(b->as.box);
        for (uint32_t i = 0; i < a->len; i++)
            if (!equal_rec(&x[i], &y[i], depth + 1)) return false;
        return true;
    }
    case SV_MAP:
    case SV_OBJECT: {
        if (!opt_equal(a->as.box->meta, b->as.box->meta, depth + 1)) return false;
        if (!opt_equal(a->as.box->cls, b->as.box->cls, depth + 1)) return false;
        const sv_pair *x = sv__pairs(a->as.box), *y = sv__pairs(b->as.box);
        for (uint32_t i = 0; i < a->len; i++) {
            if (!equal_rec(&x[i].key, &y[i].key, depth + 1)) return false;
            if (!equal_rec(&x[i].val, &y[i].val, depth + 1)) return false;
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
        sv_container *box = sv__box_new(doc, isz, v->len);
        if (!box) return sv_null();
        bool ok = true;
        box->meta = copy_opt(doc, v->as.box->meta, depth + 1, &ok);
        box->cls = copy_opt(doc, v->as.box->cls, depth + 1, &ok);
        for (uint32_t i = 0; ok && i < v->len; i++) {
            if (is_array) {
                sv__items(box)[i] = copy_rec(doc, &sv__items(v->as.box)[i], depth + 1);
            } else {
                sv__pairs(box)[i].key = copy_rec(doc, &sv__pairs(v->as.box)[i].key, depth + 1);
                sv__pairs(box)[i].val = copy_rec(doc, &sv__pairs(v->as.box)[i].val, depth + 1);
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

/* ---- walk ---- */

typedef struct walk_state {
    bool want_path;
    sv_walk_fn fn;
    void *ctx;
    char path[1024];
    size_t path_len;
    bool truncated;
} walk_state;

/* Appends one JSON Pointer segment; returns the old length to restore. */
static size_t path_push(walk_state *w, const sv_value *key, uint64_t index)
{
    size_t old = w->path_len;
    if (!w->want_path) return old;
    char seg[64];
    size_t n = 0;
    if (key && key->kind == SV_STRING) {
        seg[n++] = '/';
        for (uint32_t i = 0; i < key->len && n + 2 < sizeof seg; i++) {
            char c = key->as.str[i];
            if (c == '~' || c == '/') {
                seg[n++] = '~';
                seg[n++] = c == '~' ? '0' : '1';
            } else {
                seg[n++] = c;
            }
        }
    } else {
        n = (size_t)snprintf(seg, sizeof seg, "/%llu", (unsigned long long)index);
    }
    if (w->path_len + n + 1 > sizeof w->path) {
        w->truncated = true;
        return old;
    }
    memcpy(w->path + w->path_len, seg, n);
    w->path_len += n;
    w->path[w->path_len] = '\0';
    return old;
}

static void path_pop(walk_state *w, size_t old)
{
    w->path_len = old;
    w->path[old] = '\0';
}

static bool walk_rec(walk_state *w, const sv_value *v, unsigned depth)
{
    if (depth > SV_TREE_MAX_DEPTH) return false;
    if (!w->fn(v, depth, w->want_path ? w->path : "", w->ctx)) return false;
    if (v->kind == SV_ARRAY) {
        const sv_value *items = sv__items(v->as.box);
        for (uint32_t i = 0; i < v->len; i++) {
            size_t old = path_push(w, NULL, i);
            bool go = walk_rec(w, &items[i], depth + 1);
            path_pop(w, old);
            if (!go) return false;
        }
    } else if (v->kind == SV_MAP || v->kind == SV_OBJECT) {
        const sv_pair *pairs = sv__pairs(v->as.box);
        for (uint32_t i = 0; i < v->len; i++) {
            size_t old = path_push(w, &pairs[i].key, i);
            bool go = walk_rec(w, &pairs[i].val, depth + 1);
            path_pop(w, old);
            if (!go) return false;
        }
    }
    return true;
}

bool sv_walk(const sv_value *root, bool want_path, sv_walk_fn fn, void *ctx)
{
    if (!root || !fn) return true;
    walk_state w;
    w.want_path = want_path;
    w.fn = fn;
    w.ctx = ctx;
    w.path[0] = '\0';
    w.path_len = 0;
    w.truncated = false;
    return walk_rec(&w, root, 0);
}
