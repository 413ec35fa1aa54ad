/* The layout of KingsIsle XML object files: see ki_xml_layout.h. */
#include "formats/kingsisle/ki_xml_layout.h"

#include <string.h>

#include "core/mem.h"

#define KX_FORMAT "kingsisle-xml"

static bool is_space(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') return false;
    return true;
}

/* The writer's own gap before a tag at level: a line break, then level tabs. */
static void put_default(size_t level, sv_buf *out)
{
    sv_buf_putc(out, '\n');
    for (size_t i = 0; i < level; i++) sv_buf_putc(out, '\t');
}

static bool is_default(const kx_gap *g, size_t level)
{
    if (g->n != level + 1 || g->s[0] != '\n') return false;
    for (size_t i = 1; i < g->n; i++)
        if (g->s[i] != '\t') return false;
    return true;
}

void kx_layout_init(kx_layout *l, const sv_alloc *a)
{
    memset(l, 0, sizeof *l);
    l->alloc = a;
}

void kx_layout_free(kx_layout *l)
{
    sv__core_mem_free(l->alloc, l->open, l->open_cap, sizeof *l->open);
    sv__core_mem_free(l->alloc, l->close, l->close_cap, sizeof *l->close);
    l->open = l->close = NULL;
    l->open_cap = l->close_cap = 0;
}

/* ---- reading -------------------------------------------------------------------- */

static bool same_or_set(kx_layout *l, kx_gap *g, const char *s, size_t n)
{
    if (n > KX_GAP_MAX || !is_space(s, n))
        l->irregular = true;
    else if (!g->s)
        g->s = s, g->n = n;
    else if (g->n != n || memcmp(g->s, s, n) != 0)
        l->irregular = true;
    return true;
}

bool kx_layout_note(kx_layout *l, bool close, size_t level, const char *s, size_t n)
{
    if (l->irregular) return true;
    if (level >= KX_LEVELS_MAX) {
        l->irregular = true;
        return true;
    }
    kx_gap **arr = close ? &l->close : &l->open;
    size_t *cap = close ? &l->close_cap : &l->open_cap;
    size_t old = *cap;
    if (level >= old) {
        if (!sv__core_mem_grow(l->alloc, (void **)arr, cap, level + 1, sizeof **arr)) return false;
        memset(*arr + old, 0, (*cap - old) * sizeof **arr);
    }
    if (level + 1 > l->nlevels) l->nlevels = level + 1;
    return same_or_set(l, &(*arr)[level], s, n);
}

void kx_layout_note_end(kx_layout *l, const char *s, size_t n)
{
    kx_gap g = {NULL, 0};
    same_or_set(l, &g, s, n);
    l->end = g;
}

static kx_gap gap_at(const kx_gap *arr, size_t cap, size_t level)
{
    kx_gap none = {NULL, 0};
    return level < cap ? arr[level] : none;
}

/* The gaps by level up to the last seen one; null for a level not seen
 * (the writer's own), so the record never holds more than the input's
 * white space. */
static sv_value gaps_array(sv_doc *doc, const kx_gap *arr, size_t cap)
{
    sv_value a = sv_array(doc, 0);
    size_t n = cap;
    while (n && !arr[n - 1].s) n--;
    for (size_t i = 0; i < n; i++)
        if (sv_array_append(doc, &a, arr[i].s ? sv_str(doc, arr[i].s, arr[i].n) : sv_null()) !=
            SV_OK)
            break;
    return a;
}

sv_value kx_layout_record(const kx_layout *l, sv_doc *doc)
{
    if (l->irregular) return sv_null();
    bool own = !l->no_declaration && l->end.s && l->end.n == 1 && l->end.s[0] == '\n';
    for (size_t i = 0; own && i < l->nlevels; i++) {
        kx_gap o = gap_at(l->open, l->open_cap, i), c = gap_at(l->close, l->close_cap, i);
        own = (!o.s || is_default(&o, i)) && (!c.s || is_default(&c, i));
    }
    if (own) return sv_null();
    sv_value m = sv_map(doc, 0);
    if (l->no_declaration) sv_map_append_str(doc, &m, "declaration", sv_bool(false));
    sv_map_append_str(doc, &m, "open", gaps_array(doc, l->open, l->open_cap));
    sv_map_append_str(doc, &m, "close", gaps_array(doc, l->close, l->close_cap));
    sv_map_append_str(doc, &m, "end",
                      l->end.s ? sv_str(doc, l->end.s, l->end.n) : sv_strz(doc, ""));
    return m;
}

/* ---- writing -------------------------------------------------------------------- */

static sv_status bad(sv_error *err, const char *key, const char *want)
{
    sv_status st = sv_error_set(err, SV_ERR_TYPE, KX_FORMAT, 0, "the layout record %s", want);
    if (key) sv_error_path_key(err, key, strlen(key));
    sv_error_path_key(err, KX_LAYOUT_META, strlen(KX_LAYOUT_META));
    sv_error_path_key(err, "$meta", 5);
    return st;
}

static const char gap_rule[] =
    "must be white space (space, tab, CR, LF) of at most 256 bytes, or null";

/* A recorded gap: white space, or null for the writer's own. */
static bool gap_ok(const sv_value *v, kx_gap *g)
{
    g->s = NULL, g->n = 0;
    if (sv_kind_of(v) == SV_NULL) return true;
    if (sv_kind_of(v) != SV_STRING) return false;
    g->s = sv_get_str(v, &g->n);
    return g->n <= KX_GAP_MAX && is_space(g->s, g->n);
}

static sv_status gaps_from(kx_layout *l, const sv_value *a, bool close, sv_error *err)
{
    const char *key = close ? "close" : "open";
    if (!a) return SV_OK;
    if (sv_kind_of(a) != SV_ARRAY) return bad(err, key, "must be an array of strings");
    size_t n = sv_len(a);
    if (n > KX_LEVELS_MAX) return bad(err, key, "describes more levels than XML object files nest");
    kx_gap **arr = close ? &l->close : &l->open;
    size_t *cap = close ? &l->close_cap : &l->open_cap;
    if (n && !sv__core_mem_grow(l->alloc, (void **)arr, cap, n, sizeof **arr))
        return sv_error_set(err, SV_ERR_NOMEM, KX_FORMAT, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!gap_ok(sv_array_at(a, i), &(*arr)[i])) { /* a null entry stays NULL */
            sv_status st =
                sv_error_set(err, SV_ERR_TYPE, KX_FORMAT, 0, "the layout record gap %s", gap_rule);
            sv_error_path_index(err, i);
            sv_error_path_key(err, key, strlen(key));
            sv_error_path_key(err, KX_LAYOUT_META, strlen(KX_LAYOUT_META));
            sv_error_path_key(err, "$meta", 5);
            return st;
        }
    }
    /* entries past n stay NULL: the writer's own */
    for (size_t i = n; i < *cap; i++) (*arr)[i].s = NULL, (*arr)[i].n = 0;
    return SV_OK;
}

sv_status kx_layout_from_meta(kx_layout *l, const sv_value *root, sv_error *err)
{
    const sv_value *meta = root ? sv_meta(root) : NULL;
    const sv_value *rec = sv_kind_of(meta) == SV_MAP ? sv_map_getz(meta, KX_LAYOUT_META) : NULL;
    if (!rec) return SV_OK;
    if (sv_kind_of(rec) != SV_MAP) return bad(err, NULL, "must be a map");
    for (uint32_t i = 0; i < sv_len(rec); i++) {
        size_t kl;
        const char *k = sv_get_str(sv_key_at(rec, i), &kl);
        if (!k ||
            !((kl == 4 && !memcmp(k, "open", 4)) || (kl == 5 && !memcmp(k, "close", 5)) ||
              (kl == 3 && !memcmp(k, "end", 3)) || (kl == 11 && !memcmp(k, "declaration", 11)))) {
            sv_status st = sv_error_set(
                err, SV_ERR_TYPE, KX_FORMAT, 0,
                "the layout record has an unknown key (open, close, end, declaration)");
            if (k) sv_error_path_key(err, k, kl);
            sv_error_path_key(err, KX_LAYOUT_META, strlen(KX_LAYOUT_META));
            sv_error_path_key(err, "$meta", 5);
            return st;
        }
    }
    const sv_value *decl = sv_map_getz(rec, "declaration");
    if (decl) {
        if (sv_kind_of(decl) != SV_BOOL)
            return bad(err, "declaration", "declaration must be true or false");
        l->no_declaration = !sv_get_bool(decl);
    }
    sv_status st = gaps_from(l, sv_map_getz(rec, "open"), false, err);
    if (st == SV_OK) st = gaps_from(l, sv_map_getz(rec, "close"), true, err);
    if (st != SV_OK) return st;
    const sv_value *end = sv_map_getz(rec, "end");
    if (end && !gap_ok(end, &l->end)) {
        sv_status e =
            sv_error_set(err, SV_ERR_TYPE, KX_FORMAT, 0, "the layout record gap %s", gap_rule);
        sv_error_path_key(err, "end", 3);
        sv_error_path_key(err, KX_LAYOUT_META, strlen(KX_LAYOUT_META));
        sv_error_path_key(err, "$meta", 5);
        return e;
    }
    return SV_OK;
}

void kx_layout_put(const kx_layout *l, bool close, size_t level, sv_buf *out)
{
    kx_gap g = close ? gap_at(l->close, l->close_cap, level) : gap_at(l->open, l->open_cap, level);
    if (g.s)
        sv_buf_append(out, g.s, g.n);
    else
        put_default(level, out);
}

void kx_layout_put_end(const kx_layout *l, sv_buf *out)
{
    if (l->end.s)
        sv_buf_append(out, l->end.s, l->end.n);
    else
        sv_buf_putc(out, '\n');
}
