/* Which merge step set each value of the Settings Registry: the leaves of
 * the registry after a step are compared with the registry before it (by
 * the rapidjson equality O3DE's patches use); a leaf that is new or changed
 * belongs to that step, the others keep the step they had. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/walk.h"
#include "o3de_patch_util.h"
#include "o3de_setreg.h"

typedef struct walk {
    const o3sr_origins *old;
    o3sr_origins out;
    size_t step;
    sv_buf path;
    bool bad;
} walk;

static int by_pointer(const void *a, const void *b)
{
    return strcmp(((const o3sr_leaf *)a)->pointer, ((const o3sr_leaf *)b)->pointer);
}

static void leaf(walk *w, const sv_value *v, const sv_value *was)
{
    const char *p = (const char *)w->path.data;
    size_t step = w->step;
    if (was && o3p_rj_equal(was, v, 0)) {
        o3sr_leaf key = {(char *)p, 0, NULL};
        const o3sr_leaf *old =
            w->old->n ? bsearch(&key, w->old->leaf, w->old->n, sizeof key, by_pointer) : NULL;
        if (old) step = old->step;
    }
    o3sr_leaf *l = realloc(w->out.leaf, (w->out.n + 1) * sizeof *l);
    if (!l) {
        w->bad = true;
        return;
    }
    w->out.leaf = l;
    l[w->out.n].pointer = strdup(p);
    l[w->out.n].step = step;
    l[w->out.n].value = v;
    if (!l[w->out.n].pointer)
        w->bad = true;
    else
        w->out.n++;
}

/* v in the new tree and was, the value at the same pointer in the old one
 * (NULL: none), walked together: each step looks the member up in was
 * through an index, so the walk is linear in the tree. */
static void visit(walk *w, const sv_value *v, const sv_value *was, unsigned depth)
{
    if (w->bad) return;
    if (depth > 1024) {
        w->bad = true;
        return;
    }
    sv_kind k = sv_kind_of(v);
    if ((k != SV_MAP && k != SV_ARRAY) || v->len == 0) {
        leaf(w, v, was);
        return;
    }
    o3sr_index x, y; /* was's members, v's own */
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    for (uint32_t i = 0; i < v->len && !w->bad; i++) {
        size_t mark = w->path.len;
        sv_buf_putc(&w->path, '/');
        if (k == SV_MAP) {
            const sv_value *pk = sv_key_at(v, i);
            const sv_value *pv = sv_val_at(v, i);
            size_t n;
            const char *s = sv_get_str(pk, &n);
            /* a name given twice: the first is the one found by name */
            bool dup_nomem = false;
            if (o3sr_index_get(&y, (sv_value *)v, s, n, &dup_nomem) != pv) {
                if (dup_nomem) w->bad = true;
                w->path.len = mark;
                continue;
            }
            sv__core_pointer_append_escaped(&w->path, s, n);
            sv_buf_putc(&w->path, 0);
            w->path.len--;
            bool nomem = false;
            const sv_value *sub = sv_kind_of(was) == SV_MAP
                                      ? o3sr_index_get(&x, (sv_value *)was, s, n, &nomem)
                                      : NULL;
            if (nomem) w->bad = true;
            visit(w, pv, sub, depth + 1);
        } else {
            char num[16];
            int n = snprintf(num, sizeof num, "%u", i);
            sv_buf_append(&w->path, num, (size_t)n);
            sv_buf_putc(&w->path, 0);
            w->path.len--;
            visit(w, sv_array_at(v, i), sv_kind_of(was) == SV_ARRAY ? sv_array_at(was, i) : NULL,
                  depth + 1);
        }
        w->path.len = mark;
        if (w->path.data) w->path.data[mark] = 0;
    }
    o3sr_index_free(&x);
    o3sr_index_free(&y);
}

bool o3sr_origins_update(o3sr_origins *o, const sv_value *before, const sv_value *after,
                         size_t step)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.old = o;
    w.step = step;
    sv_buf_init(&w.path, NULL);
    sv_buf_putc(&w.path, 0);
    w.path.len = 0;
    visit(&w, after, before, 0);
    if (!sv_buf_ok(&w.path)) w.bad = true;
    sv_buf_free(&w.path);
    if (w.bad) {
        o3sr_origins_free(&w.out);
        return false;
    }
    o3sr_origins_free(o);
    qsort(w.out.leaf, w.out.n, sizeof *w.out.leaf, by_pointer);
    *o = w.out;
    return true;
}

void o3sr_origins_free(o3sr_origins *o)
{
    for (size_t i = 0; i < o->n; i++) free(o->leaf[i].pointer);
    free(o->leaf);
    o->leaf = NULL;
    o->n = 0;
}
