/* Which merge step set each value of the Settings Registry: the leaves of
 * the registry after a step are compared with the registry before it (by
 * the rapidjson equality O3DE's patches use); a leaf that is new or changed
 * belongs to that step, the others keep the step they had. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "o3de_patch_util.h"
#include "o3de_setreg.h"

typedef struct walk {
    const o3sr_origins *old;
    const sv_value *before;
    o3sr_origins out;
    size_t step;
    sv_buf path;
    bool bad;
} walk;

static int by_pointer(const void *a, const void *b)
{
    return strcmp(((const o3sr_leaf *)a)->pointer, ((const o3sr_leaf *)b)->pointer);
}

/* The value at the JSON Pointer p under root (names and indices only). */
static const sv_value *at_pointer(const sv_value *root, const char *p)
{
    const sv_value *v = root;
    char tok[512];
    while (*p == '/' && v) {
        p++;
        size_t n = 0;
        while (*p && *p != '/' && n + 1 < sizeof tok) {
            char c = *p++;
            if (c == '~' && (*p == '0' || *p == '1')) c = *p++ == '1' ? '/' : '~';
            tok[n++] = c;
        }
        if (*p && *p != '/') return NULL; /* a name longer than tok */
        tok[n] = 0;
        if (sv_kind_of(v) == SV_MAP) {
            v = sv_map_get(v, tok, n);
        } else if (sv_kind_of(v) == SV_ARRAY) {
            char *end;
            unsigned long i = strtoul(tok, &end, 10);
            v = n && *end == 0 ? sv_array_at(v, i) : NULL;
        } else {
            return NULL;
        }
    }
    return v;
}

static void leaf(walk *w, const sv_value *v)
{
    const char *p = (const char *)w->path.data;
    size_t step = w->step;
    const sv_value *was = at_pointer(w->before, p);
    if (was && o3p_rj_equal(was, v, 0)) {
        o3sr_leaf key = {(char *)p, 0};
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
    if (!l[w->out.n].pointer) w->bad = true;
    else w->out.n++;
}

static void visit(walk *w, const sv_value *v, unsigned depth)
{
    if (w->bad) return;
    if (depth > 1024) {
        w->bad = true;
        return;
    }
    sv_kind k = sv_kind_of(v);
    if ((k != SV_MAP && k != SV_ARRAY) || v->len == 0) {
        leaf(w, v);
        return;
    }
    for (uint32_t i = 0; i < v->len && !w->bad; i++) {
        size_t mark = w->path.len;
        sv_buf_putc(&w->path, '/');
        if (k == SV_MAP) {
            const sv_pair *p = sv_pair_at(v, i);
            size_t n;
            const char *s = sv_get_str(&p->key, &n);
            /* a name given twice: the first is the one found by name */
            if (sv_map_get(v, s, n) != &p->val) {
                w->path.len = mark;
                continue;
            }
            for (size_t j = 0; j < n; j++) {
                if (s[j] == '~') sv_buf_append(&w->path, "~0", 2);
                else if (s[j] == '/') sv_buf_append(&w->path, "~1", 2);
                else sv_buf_putc(&w->path, (uint8_t)s[j]);
            }
            sv_buf_putc(&w->path, 0);
            w->path.len--;
            visit(w, &p->val, depth + 1);
        } else {
            char num[16];
            int n = snprintf(num, sizeof num, "%u", i);
            sv_buf_append(&w->path, num, (size_t)n);
            sv_buf_putc(&w->path, 0);
            w->path.len--;
            visit(w, sv_array_at(v, i), depth + 1);
        }
        w->path.len = mark;
        if (w->path.data) w->path.data[mark] = 0;
    }
}

bool o3sr_origins_update(o3sr_origins *o, const sv_value *before, const sv_value *after, size_t step)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.old = o;
    w.before = before;
    w.step = step;
    sv_buf_init(&w.path, NULL);
    sv_buf_putc(&w.path, 0);
    w.path.len = 0;
    visit(&w, after, 0);
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
