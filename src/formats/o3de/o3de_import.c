/* "$import" directives, resolved and restored as O3DE's JsonImportResolver
 * (ResolveImports / RestoreImports with BaseJsonImporter) does:
 *  - the object holding "$import" becomes the imported document, so the
 *    members beside the directive go with it;
 *  - a name joins the directory of the file that holds it;
 *  - imports inside the imported document resolve against its own path
 *    (a fresh JSON Pointer), and only then does the directive's patch apply;
 *  - a file already on the chain of imports is a cycle, Catastrophic;
 *  - only the resolved document's own directives are recorded for restoring,
 *    every loaded file is recorded as a dependency.
 * serval adds bounds O3DE lacks (chain length, file count, nesting, the
 * size the imports expand to), so a hostile set of files ends in a report
 * instead of unbounded work, and loads each file once per call: a cache
 * keyed by the file's identity holds its resolved tree, which directives
 * without a patch share (a patch copies what it changes), so a file named
 * a hundred times costs what one import costs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"
#include "o3de_patch_util.h"

#define DIRECTIVE "$import"
#define CHAIN_DEFAULT 32u
#define CHAIN_MAX 256u
#define IMPORTS_DEFAULT 1024u

static const o3_res IMPORT_OK =
    (o3_res)SV_O3DE_SUCCESS << 16 | SV_O3DE_COMPLETED << 8 | SV_O3DE_IMPORT;

/* ---- the record ---------------------------------------------------------- */

typedef struct directive {
    char *pointer, *name, *resolved; /* resolved may be NULL */
} directive;

struct sv_o3de_imports {
    sv_alloc alloc;
    directive *dir;
    size_t ndir, capdir;
    char **files;
    size_t nfiles, capfiles;
};

static char *dup_str(const sv_alloc *a, const char *s)
{
    size_t n = strlen(s);
    char *d = sv__core_mem_calloc(a, n + 1, 1);
    if (d) memcpy(d, s, n);
    return d;
}

static void free_str(const sv_alloc *a, char *s)
{
    if (s) sv__core_mem_free(a, s, strlen(s) + 1, 1);
}

sv_o3de_imports *sv_o3de_imports_new(const sv_alloc *alloc)
{
    if (!alloc) alloc = sv_alloc_libc();
    sv_o3de_imports *im = sv__core_mem_calloc(alloc, 1, sizeof *im);
    if (im) im->alloc = *alloc;
    return im;
}

void sv_o3de_imports_free(sv_o3de_imports *im)
{
    if (!im) return;
    sv_alloc a = im->alloc;
    for (size_t i = 0; i < im->ndir; i++) {
        free_str(&a, im->dir[i].pointer);
        free_str(&a, im->dir[i].name);
        free_str(&a, im->dir[i].resolved);
    }
    sv__core_mem_free(&a, im->dir, im->capdir, sizeof *im->dir);
    for (size_t i = 0; i < im->nfiles; i++) free_str(&a, im->files[i]);
    sv__core_mem_free(&a, im->files, im->capfiles, sizeof *im->files);
    sv__core_mem_free(&a, im, 1, sizeof *im);
}

size_t sv_o3de_imports_count(const sv_o3de_imports *im)
{
    return im ? im->ndir : 0;
}

bool sv_o3de_imports_at(const sv_o3de_imports *im, size_t i, const char **pointer,
                        const char **name, const char **resolved)
{
    if (!im || i >= im->ndir) return false;
    if (pointer) *pointer = im->dir[i].pointer;
    if (name) *name = im->dir[i].name;
    if (resolved) *resolved = im->dir[i].resolved;
    return true;
}

size_t sv_o3de_imports_file_count(const sv_o3de_imports *im)
{
    return im ? im->nfiles : 0;
}

const char *sv_o3de_imports_file_at(const sv_o3de_imports *im, size_t i)
{
    return im && i < im->nfiles ? im->files[i] : NULL;
}

/* AddImportDirective: one entry per (pointer, name). */
static sv_status add_directive(sv_o3de_imports *im, const char *pointer, const char *name,
                               const char *resolved)
{
    for (size_t i = 0; i < im->ndir; i++)
        if (!strcmp(im->dir[i].pointer, pointer) && !strcmp(im->dir[i].name, name)) return SV_OK;
    if (!sv__core_mem_grow(&im->alloc, (void **)&im->dir, &im->capdir, im->ndir + 1,
                           sizeof *im->dir))
        return SV_ERR_NOMEM;
    directive d = {dup_str(&im->alloc, pointer), dup_str(&im->alloc, name),
                   resolved ? dup_str(&im->alloc, resolved) : NULL};
    if (!d.pointer || !d.name || (resolved && !d.resolved)) {
        free_str(&im->alloc, d.pointer);
        free_str(&im->alloc, d.name);
        free_str(&im->alloc, d.resolved);
        return SV_ERR_NOMEM;
    }
    im->dir[im->ndir++] = d;
    return SV_OK;
}

sv_status sv_o3de_imports_add(sv_o3de_imports *im, const char *pointer, const char *name)
{
    if (!im || !pointer || !name) return SV_ERR_USAGE;
    return add_directive(im, pointer, name, NULL);
}

/* AddImportedFile: a set of paths. */
static sv_status add_file(sv_o3de_imports *im, const char *path)
{
    for (size_t i = 0; i < im->nfiles; i++)
        if (!strcmp(im->files[i], path)) return SV_OK;
    if (!sv__core_mem_grow(&im->alloc, (void **)&im->files, &im->capfiles, im->nfiles + 1,
                           sizeof *im->files))
        return SV_ERR_NOMEM;
    char *d = dup_str(&im->alloc, path);
    if (!d) return SV_ERR_NOMEM;
    im->files[im->nfiles++] = d;
    return SV_OK;
}

/* ---- options (sv_o3de_import_opts_init is in o3de_opts.c) ------------------ */

typedef struct importer importer;
static char *join(importer *m, const char *from, const char *name, size_t name_len);

/* One file, loaded once: its resolved tree before any directive's patch. */
typedef struct cached {
    const char *key; /* the identify callback's key, else the resolved path */
    sv_value value;  /* shared, read-only, by every directive without a patch */
    uint64_t cost;   /* bytes of that tree as if each import in it were a copy */
    uint32_t height; /* imports nested inside it, levels deep (0: none) */
    uint32_t below;  /* JSON levels walked below its root, imports included */
    bool resolving;  /* its own imports are being resolved: it is on the chain */
} cached;

struct importer {
    sv_doc *doc;
    sv_o3de_import_fn load;
    sv_o3de_import_id_fn identify;
    void *load_ctx;
    bool nested;
    uint32_t max_chain, max_imports, max_depth;
    sv_o3de_report_fn report;
    void *report_ctx;
    sv_o3de_imports *found;           /* NULL: nothing recorded */
    const char *chain[CHAIN_MAX + 1]; /* the files being resolved, root first */
    size_t nchain;
    uint32_t loaded; /* files loaded (cache misses) */
    cached **slots;  /* open addressing by key, in the document */
    size_t nslots, nused;
    size_t tallest;    /* the longest chain checked so far */
    uint32_t deepest;  /* the deepest JSON level walked so far */
    uint64_t max_cost; /* the document's allocation limit */
    sv_status st;      /* a hard failure (memory), sticky */
};

static sv_status take_opts(importer *m, sv_doc *doc, const sv_o3de_import_opts *caller,
                           sv_error *err)
{
    memset(m, 0, sizeof *m);
    sv_o3de_import_opts opts;
    sv_status ost = o3_import_opts_read(&opts, caller, err);
    if (ost != SV_OK) return ost;
    const sv_o3de_import_opts *o = &opts;
    if (!o->load) /* NULL opts too: the load callback is required */
        return sv_error_set(
            err, SV_ERR_USAGE, "o3de", 0,
            "sv_o3de_import_opts needs sv_o3de_import_opts_init and a load callback");
    m->doc = doc;
    m->load = o->load;
    m->load_ctx = o->load_ctx;
    m->nested = o->nested;
    m->max_chain =
        o->max_chain ? (o->max_chain < CHAIN_MAX ? o->max_chain : CHAIN_MAX) : CHAIN_DEFAULT;
    m->max_imports = o->max_imports ? o->max_imports : IMPORTS_DEFAULT;
    m->max_depth = o->max_depth ? o->max_depth : SV_DEFAULT_MAX_DEPTH;
    if (m->max_depth > SV_MAX_DEPTH_LIMIT) m->max_depth = SV_MAX_DEPTH_LIMIT;
    m->report = o->report;
    m->report_ctx = o->report_ctx;
    m->identify = o->identify;
    m->max_cost = doc->max_alloc;
    /* the document's own path, spelled as joined paths are, for the cycle check */
    const char *own = o->path ? o->path : "";
    m->chain[0] = join(m, "", own, strlen(own));
    m->nchain = 1;
    if (!m->chain[0])
        return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory resolving imports");
    return SV_OK;
}

static o3_res report(importer *m, sv_o3de_outcome o, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static o3_res report(importer *m, sv_o3de_outcome o, const char *path, const char *fmt, ...)
{
    o3_res r = o3_r(SV_O3DE_IMPORT, o);
    if (!m->report) return r;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return m->report(m->report_ctx, msg, r, path);
}

static bool catastrophic(o3_res r)
{
    return o3_out(r) == SV_O3DE_CATASTROPHIC;
}

/* ---- paths --------------------------------------------------------------- */

/* The directory of from (through its last '/') joined with name, as
 * AZ::IO::Path's RemoveFilename and operator/= make it on a POSIX host:
 * an absolute name replaces the directory. "." segments and doubled
 * separators are dropped, so that one file spelled two ways is still seen
 * as a cycle ("..", which symbolic links make ambiguous, stays). Made in
 * the document, which the path then lives as long as. */
static char *join(importer *m, const char *from, const char *name, size_t name_len)
{
    size_t dir = 0;
    if (name_len == 0 || name[0] != '/') {
        const char *slash = strrchr(from, '/');
        dir = slash ? (size_t)(slash - from) + 1 : 0;
    }
    size_t len = dir + name_len;
    char *raw = sv_doc_alloc(m->doc, len + 1);
    char *out = sv_doc_alloc(m->doc, len + 2);
    if (!raw || !out) return NULL;
    memcpy(raw, from, dir);
    memcpy(raw + dir, name, name_len);
    size_t n = 0;
    if (len && raw[0] == '/') out[n++] = '/';
    for (size_t i = 0; i < len;) {
        while (i < len && raw[i] == '/') i++;
        size_t j = i;
        while (j < len && raw[j] != '/') j++;
        if (j > i && !(j - i == 1 && raw[i] == '.')) {
            if (n > 0 && out[n - 1] != '/') out[n++] = '/';
            memcpy(out + n, raw + i, j - i);
            n += j - i;
        }
        i = j;
    }
    if (n == 0 && len) out[n++] = '.';
    out[n] = 0;
    return out;
}

/* ---- the cache of loaded files ------------------------------------------- */

static uint64_t hash_key(const char *k)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *k; k++) h = (h ^ (uint8_t)*k) * 1099511628211u;
    return h;
}

static cached *cache_find(const importer *m, const char *key)
{
    if (!m->nslots) return NULL;
    for (size_t i = (size_t)hash_key(key) & (m->nslots - 1);; i = (i + 1) & (m->nslots - 1)) {
        cached *c = m->slots[i];
        if (!c || !strcmp(c->key, key)) return c;
    }
}

static void cache_place(cached **slots, size_t nslots, cached *c)
{
    size_t i = (size_t)hash_key(c->key) & (nslots - 1);
    while (slots[i]) i = (i + 1) & (nslots - 1);
    slots[i] = c;
}

/* A new entry for key (copied into the document); NULL when out of memory.
 * The table stays at most half full; it lives in the document's arena, so
 * an outgrown table is left there (all of them together are at most twice
 * the last one). */
static cached *cache_add(importer *m, const char *key)
{
    if (2 * (m->nused + 1) > m->nslots) {
        size_t n = m->nslots ? 2 * m->nslots : 16;
        cached **slots = sv_doc_alloc(m->doc, n * sizeof *slots);
        if (!slots) return NULL;
        memset(slots, 0, n * sizeof *slots);
        for (size_t i = 0; i < m->nslots; i++)
            if (m->slots[i]) cache_place(slots, n, m->slots[i]);
        m->slots = slots;
        m->nslots = n;
    }
    cached *c = sv_doc_alloc(m->doc, sizeof *c);
    size_t kn = strlen(key);
    char *k = sv_doc_alloc(m->doc, kn + 1);
    if (!c || !k) return NULL;
    memcpy(k, key, kn + 1);
    memset(c, 0, sizeof *c);
    c->key = k;
    cache_place(m->slots, m->nslots, c);
    m->nused++;
    return c;
}

/* ---- sizes --------------------------------------------------------------- */

/* What one value takes, its own string bytes included (not its items'). */
static uint64_t own_cost(const sv_value *v)
{
    uint64_t c = sizeof(sv_value);
    if (sv_kind_of(v) == SV_STRING) c += (uint64_t)v->len + 1;
    return c;
}

/* The bytes of a tree no import was resolved in (a patch, a document loaded
 * without nesting): as deep as the reader allowed, so recursion is bounded. */
static uint64_t tree_cost(const sv_value *v)
{
    uint64_t c = own_cost(v);
    if (sv_kind_of(v) == SV_MAP) {
        for (uint32_t i = 0; i < v->len; i++)
            c += own_cost(sv_key_at(v, i)) + tree_cost(sv_val_at(v, i));
    } else if (sv_kind_of(v) == SV_ARRAY) {
        for (uint32_t i = 0; i < v->len; i++) c += tree_cost(sv_array_at(v, i));
    }
    return c;
}

/* ---- resolving ----------------------------------------------------------- */

static o3_res walk(importer *m, o3p_ctx *p, sv_value *node, uint32_t depth, uint64_t *cost);

/* The name a directive gives: a string, or an object's "filename" (missing:
 * empty, which names the directory and so fails to load, as in O3DE). */
static bool directive_name(const sv_value *d, const char **name, size_t *len)
{
    *name = "";
    *len = 0;
    if (sv_kind_of(d) == SV_STRING) {
        *name = sv_get_str(d, len);
        return true;
    }
    if (sv_kind_of(d) != SV_MAP) return false;
    const sv_value *f = sv_map_get(d, "filename", 8);
    if (f && sv_kind_of(f) == SV_STRING) *name = sv_get_str(f, len);
    return !f || sv_kind_of(f) == SV_STRING;
}

/* A merge patch changes only the objects along its own members' paths: a
 * fresh copy of each of those (the pairs, not what they hold) keeps the
 * shared tree as it was. Arrays and scalars the patch reaches are replaced
 * whole by the merge, never changed in place. */
static void unshare_for_patch(importer *m, sv_value *target, const sv_value *patch)
{
    if (sv_kind_of(patch) != SV_MAP || sv_kind_of(target) != SV_MAP) return;
    sv_value copy = sv_map(m->doc, target->len);
    if (sv_doc_status(m->doc) != SV_OK) return; /* finish() reports it */
    /* the new map: its pairs are filled here */
    sv_pair *cp = sv_pairs(&copy);
    for (uint32_t i = 0; i < target->len; i++) {
        cp[i].key = *sv_key_at(target, i);
        cp[i].val = *sv_val_at(target, i);
    }
    *target = copy;
    for (uint32_t i = 0; i < patch->len; i++) {
        const sv_value *pv = sv_val_at(patch, i);
        if (sv_kind_of(pv) != SV_MAP) continue;
        size_t kn;
        const char *k = sv_get_str(sv_key_at(patch, i), &kn);
        sv_value *cur = sv_map_get(target, k, kn); /* the member the merge will change */
        if (cur) unshare_for_patch(m, cur, pv);
    }
}

/* BaseJsonImporter::ApplyPatch: only a non-empty object or array patches. */
static void apply_patch(importer *m, sv_value *target, const sv_value *patch)
{
    sv_kind k = sv_kind_of(patch);
    if (!((k == SV_MAP || k == SV_ARRAY) && patch->len > 0)) return;
    unshare_for_patch(m, target, patch);
    sv_o3de_opts opts; /* O3DE patches with its default settings: no reports */
    sv_o3de_opts_init(&opts);
    sv_o3de_result r;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_o3de_apply_patch(m->doc, target, patch, SV_O3DE_MERGE_PATCH, &opts, &r, &err);
    if (st != SV_OK && m->st == SV_OK) m->st = st;
}

/* O3DE reports a failed load at the file's path, not a JSON Pointer. */
static o3_res load_failed(importer *m, const char *path, sv_status st, const sv_error *err)
{
    return report(m, SV_O3DE_CATASTROPHIC, path, "Failed to import file '%s'. Reason: '%s'", path,
                  err->message[0] ? err->message : sv_status_str(st));
}

static o3_res cycle(importer *m, o3p_ctx *p, const char *path)
{
    return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                  "'%s' was already imported in this chain. This indicates a cyclic dependency.",
                  path);
}

static o3_res too_long_a_chain(importer *m, o3p_ctx *p, const char *path)
{
    return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                  "Importing '%s' nests imports more than %u deep.", path, (unsigned)m->max_chain);
}

static o3_res too_deep(importer *m, o3p_ctx *p)
{
    return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                  "The JSON is nested more than %u deep with its imports.", (unsigned)m->max_depth);
}

/* Loads the file at path into a new cache entry for key. */
static o3_res load_file(importer *m, o3p_ctx *p, const char *key, const char *path, cached **out)
{
    if (m->loaded >= m->max_imports)
        return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                      "Importing '%s' goes past the limit of %u imported files.", path,
                      (unsigned)m->max_imports);
    m->loaded++;
    sv_value doc = sv_null();
    sv_error err;
    sv_error_clear(&err);
    sv_status st = m->load(m->load_ctx, path, m->doc, &doc, &err);
    if (st != SV_OK) return load_failed(m, path, st, &err);
    cached *c = cache_add(m, key);
    if (!c) {
        m->st = SV_ERR_NOMEM;
        return o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    }
    c->value = doc;
    *out = c;
    return IMPORT_OK;
}

/* Resolves the imports inside a file just loaded (ResolveNestedImports). */
static o3_res resolve_file(importer *m, o3p_ctx *p, cached *c, const char *path, uint32_t depth)
{
    if (!m->nested) {
        c->cost = tree_cost(&c->value);
        return IMPORT_OK;
    }
    /* the chain check comes after the load, as in O3DE; a file named by
     * another spelling is found on the chain by its key (resolving) */
    for (size_t i = 0; i < m->nchain; i++)
        if (!strcmp(m->chain[i], path)) return cycle(m, p, path);
    if (m->nchain > m->max_chain) return too_long_a_chain(m, p, path);
    size_t tallest = m->tallest;
    uint32_t deepest = m->deepest;
    m->tallest = m->nchain;
    m->deepest = depth;
    c->resolving = true;
    m->chain[m->nchain++] = path;
    o3p_ctx inner; /* the imported file's own JSON Pointers */
    o3p_init(&inner, m->doc, NULL);
    inner.report = m->report;
    inner.report_ctx = m->report_ctx;
    o3_res r = walk(m, &inner, &c->value, depth, &c->cost);
    if (!sv_buf_ok(&inner.path) && m->st == SV_OK) m->st = SV_ERR_NOMEM;
    o3p_free(&inner);
    m->nchain--;
    c->resolving = false;
    c->height = (uint32_t)(m->tallest - (m->nchain));
    c->below = m->deepest - depth;
    if (tallest > m->tallest) m->tallest = tallest;
    if (deepest > m->deepest) m->deepest = deepest;
    return r;
}

/* A file resolved before, named again: its limits are checked as if it
 * were resolved here, from what its first resolution measured. */
static o3_res reuse_file(importer *m, o3p_ctx *p, const cached *c, const char *path, uint32_t depth)
{
    if (!m->nested) return IMPORT_OK;
    if (c->resolving) return cycle(m, p, path);
    if (m->nchain + c->height > m->max_chain) return too_long_a_chain(m, p, path);
    if ((uint64_t)depth + c->below >= m->max_depth) return too_deep(m, p);
    if (m->nchain + c->height > m->tallest) m->tallest = m->nchain + c->height;
    if (depth + c->below > m->deepest) m->deepest = depth + c->below;
    return IMPORT_OK;
}

/* The object *node held directive d: it becomes the named document; *cost
 * gets the bytes it expands to. */
static o3_res import_one(importer *m, o3p_ctx *p, sv_value *node, sv_value d, uint32_t depth,
                         uint64_t *cost)
{
    const char *name;
    size_t name_len;
    if (!directive_name(&d, &name, &name_len))
        return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                      "The \"$import\" directive is neither a file name nor an object whose "
                      "\"filename\" is a string.");
    if (memchr(name, 0, name_len))
        return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                      "The \"$import\" file name holds a NUL character.");
    char *path = join(m, m->chain[m->nchain - 1], name, name_len);
    char *name_z = sv_doc_alloc(m->doc, name_len + 1);
    if (!path || !name_z) {
        m->st = SV_ERR_NOMEM;
        return o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    }
    memcpy(name_z, name, name_len);
    name_z[name_len] = 0;

    /* which file this is: a known one is not loaded again */
    const char *key = path;
    char idkey[SV_O3DE_IMPORT_KEY_MAX];
    if (m->identify) {
        sv_error err;
        sv_error_clear(&err);
        idkey[0] = 0;
        sv_status st = m->identify(m->load_ctx, path, idkey, sizeof idkey, &err);
        if (st != SV_OK) return load_failed(m, path, st, &err);
        idkey[sizeof idkey - 1] = 0;
        key = idkey;
    }
    cached *c = cache_find(m, key);
    bool known = c != NULL;
    if (!known) {
        o3_res lr = load_file(m, p, key, path, &c);
        if (!c) return lr; /* not loaded */
    }
    if (m->found) {
        sv_status rs = SV_OK;
        if (m->nchain == 1) rs = add_directive(m->found, o3p_path(p), name_z, path);
        if (rs == SV_OK) rs = add_file(m->found, path);
        if (rs != SV_OK) {
            m->st = rs;
            return o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
        }
    }
    o3_res r = known ? reuse_file(m, p, c, path, depth) : resolve_file(m, p, c, path, depth);
    *node = c->value;
    if (catastrophic(r)) return r;

    /* BaseJsonImporter::ResolveImport: the directive's patch comes last */
    uint64_t total = c->cost;
    if (sv_kind_of(&d) == SV_MAP) {
        const sv_value *patch = sv_map_get(&d, "patch", 5);
        if (patch) {
            apply_patch(m, node, patch);
            total += tree_cost(patch);
        }
    }
    *cost += total;
    return IMPORT_OK;
}

/* Resolves the imports under *node; *cost gets the bytes of the tree it
 * becomes, counted as if every import were its own copy, and that must stay
 * within the document's allocation limit: past it, the tree would be too
 * big for anything that reads it whole (loading it into a type, printing
 * it), however little the shared trees take. */
static o3_res walk(importer *m, o3p_ctx *p, sv_value *node, uint32_t depth, uint64_t *cost)
{
    if (m->st != SV_OK) return o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    if (depth >= m->max_depth) return too_deep(m, p);
    if (depth > m->deepest) m->deepest = depth;
    uint64_t c = own_cost(node);
    o3_res r = IMPORT_OK;
    if (sv_kind_of(node) == SV_MAP) {
        for (uint32_t i = 0; i < node->len && !catastrophic(r); i++) {
            const sv_value *pk = sv_key_at(node, i);
            sv_value *pv = sv_val_at(node, i);
            size_t kn;
            const char *k = sv_get_str(pk, &kn);
            if (kn == sizeof DIRECTIVE - 1 && !memcmp(k, DIRECTIVE, kn)) {
                /* the object is replaced: nothing after the directive is seen */
                c = 0;
                r = import_one(m, p, node, *pv, depth, &c);
                break;
            }
            c += own_cost(pk);
            sv_kind vk = sv_kind_of(pv);
            if (vk != SV_MAP && vk != SV_ARRAY) {
                c += own_cost(pv);
                continue;
            }
            size_t mark = o3p_push_key(p, k, kn);
            r = walk(m, p, pv, depth + 1, &c);
            o3p_pop(p, mark);
        }
    } else if (sv_kind_of(node) == SV_ARRAY) {
        for (uint32_t i = 0; i < node->len && !catastrophic(r); i++) {
            sv_value *e = sv_array_at(node, i);
            sv_kind ek = sv_kind_of(e);
            if (ek != SV_MAP && ek != SV_ARRAY) {
                c += own_cost(e);
                continue;
            }
            size_t mark = o3p_push_index(p, i);
            r = walk(m, p, e, depth + 1, &c);
            o3p_pop(p, mark);
        }
    }
    if (catastrophic(r)) return r;
    if (c > m->max_cost || *cost > m->max_cost - c)
        return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                      "The imports expand the document past %llu bytes, the allocation limit.",
                      (unsigned long long)m->max_cost);
    *cost += c;
    return IMPORT_OK;
}

static sv_status finish(importer *m, o3p_ctx *p, o3_res r, sv_o3de_result *result, sv_error *err)
{
    bool path_ok = sv_buf_ok(&p->path);
    o3p_free(p);
    sv_status ds = sv_doc_status(m->doc);
    if (ds == SV_ERR_LIMIT) /* the document's allocation limit, not the machine's memory */
        return sv_error_set(err, ds, "o3de", SV_ERROR_NO_OFFSET,
                            "resolving imports needs more memory than the allocation limit");
    if (m->st == SV_OK && (!path_ok || ds != SV_OK)) m->st = SV_ERR_NOMEM;
    if (m->st != SV_OK)
        return sv_error_set(err, m->st, "o3de", SV_ERROR_NO_OFFSET,
                            "out of memory resolving imports");
    if (result) *result = r;
    return SV_OK;
}

sv_status sv_o3de_resolve_imports(sv_doc *doc, sv_value *json, const sv_o3de_import_opts *opts,
                                  sv_o3de_imports *found, sv_o3de_result *result, sv_error *err)
{
    if (result) *result = o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    if (!doc || !json)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0,
                            "bad arguments to sv_o3de_resolve_imports");
    importer m;
    sv_status st = take_opts(&m, doc, opts, err);
    if (st != SV_OK) return st;
    m.found = found;
    o3p_ctx p;
    o3p_init(&p, doc, NULL);
    uint64_t cost = 0;
    o3_res r = walk(&m, &p, json, 0, &cost);
    /* O3DE's ResolveImports: Success unless something was Catastrophic */
    return finish(&m, &p, catastrophic(r) ? r : IMPORT_OK, result, err);
}

sv_status sv_o3de_restore_imports(sv_doc *doc, sv_value *json, const sv_o3de_import_opts *opts,
                                  const sv_o3de_imports *found, sv_o3de_result *result,
                                  sv_error *err)
{
    if (result) *result = o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    if (!doc || !json || !found)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0,
                            "bad arguments to sv_o3de_restore_imports");
    importer m;
    sv_status st = take_opts(&m, doc, opts, err);
    if (st != SV_OK) return st;
    o3p_ctx p;
    o3p_init(&p, doc, NULL);
    o3_res r = IMPORT_OK;
    sv_kind root = sv_kind_of(json);
    for (size_t i = 0; (root == SV_MAP || root == SV_ARRAY) && i < found->ndir; i++) {
        const directive *d = &found->dir[i];
        o3p_pointer ptr;
        if (!o3p_pointer_parse(&ptr, d->pointer, strlen(d->pointer), &doc->alloc)) {
            m.st = SV_ERR_NOMEM;
            break;
        }
        sv_value *cur = ptr.valid ? o3p_get(json, &ptr, ptr.n) : NULL;
        o3p_pointer_free(&ptr);
        if (!cur) {
            /* O3DE would dereference nothing here; serval says so and goes on */
            r = o3_combine(r, report(&m, SV_O3DE_SKIPPED, d->pointer,
                                     "The import directive for '%s' points at nothing in the "
                                     "document.",
                                     d->name));
            continue;
        }
        /* the named document as it resolves now, without recording it */
        sv_value imported = sv_map(doc, 0);
        (void)sv_map_append(doc, &imported, sv_strz(doc, DIRECTIVE), sv_strz(doc, d->name));
        m.nchain = 1;
        uint64_t cost = 0;
        o3_res ir = walk(&m, &p, &imported, 0, &cost);
        if (catastrophic(ir)) {
            r = ir;
            break;
        }
        sv_value patch = sv_null();
        sv_o3de_opts popts; /* O3DE creates it with its default settings: no reports */
        sv_o3de_opts_init(&popts);
        sv_o3de_result pr;
        st = sv_o3de_create_patch(doc, &imported, cur, SV_O3DE_MERGE_PATCH, &patch, &popts, &pr,
                                  err);
        if (st != SV_OK) {
            o3p_free(&p);
            return st;
        }
        /* BaseJsonImporter::RestoreImport */
        sv_value restored = sv_map(doc, 0);
        sv_kind pk = sv_kind_of(&patch);
        if ((pk == SV_MAP || pk == SV_ARRAY) && patch.len > 0) {
            sv_value dir = sv_map(doc, 0);
            (void)sv_map_append(doc, &dir, sv_strz(doc, "filename"), sv_strz(doc, d->name));
            (void)sv_map_append(doc, &dir, sv_strz(doc, "patch"), patch);
            (void)sv_map_append(doc, &restored, sv_strz(doc, DIRECTIVE), dir);
        } else {
            (void)sv_map_append(doc, &restored, sv_strz(doc, DIRECTIVE), sv_strz(doc, d->name));
        }
        *cur = restored;
    }
    return finish(&m, &p, catastrophic(r) ? r : IMPORT_OK, result, err);
}
