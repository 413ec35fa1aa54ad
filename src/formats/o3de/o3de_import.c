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
 * serval adds bounds O3DE lacks (chain length, import count, nesting), so a
 * hostile set of files ends in a report instead of unbounded work. */
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

static const o3_res IMPORT_OK = (o3_res)SV_O3DE_SUCCESS << 16 | SV_O3DE_COMPLETED << 8 | SV_O3DE_IMPORT;

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
    char *d = sv_mem_calloc(a, n + 1, 1);
    if (d) memcpy(d, s, n);
    return d;
}

static void free_str(const sv_alloc *a, char *s)
{
    if (s) sv_mem_free(a, s, strlen(s) + 1, 1);
}

sv_o3de_imports *sv_o3de_imports_new(const sv_alloc *alloc)
{
    if (!alloc) alloc = sv_alloc_libc();
    sv_o3de_imports *im = sv_mem_calloc(alloc, 1, sizeof *im);
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
    sv_mem_free(&a, im->dir, im->capdir, sizeof *im->dir);
    for (size_t i = 0; i < im->nfiles; i++) free_str(&a, im->files[i]);
    sv_mem_free(&a, im->files, im->capfiles, sizeof *im->files);
    sv_mem_free(&a, im, 1, sizeof *im);
}

size_t sv_o3de_imports_count(const sv_o3de_imports *im) { return im ? im->ndir : 0; }

bool sv_o3de_imports_at(const sv_o3de_imports *im, size_t i, const char **pointer,
                        const char **name, const char **resolved)
{
    if (!im || i >= im->ndir) return false;
    if (pointer) *pointer = im->dir[i].pointer;
    if (name) *name = im->dir[i].name;
    if (resolved) *resolved = im->dir[i].resolved;
    return true;
}

size_t sv_o3de_imports_file_count(const sv_o3de_imports *im) { return im ? im->nfiles : 0; }

const char *sv_o3de_imports_file_at(const sv_o3de_imports *im, size_t i)
{
    return im && i < im->nfiles ? im->files[i] : NULL;
}

/* AddImportDirective: one entry per (pointer, name). */
static sv_status add_directive(sv_o3de_imports *im, const char *pointer, const char *name,
                               const char *resolved)
{
    for (size_t i = 0; i < im->ndir; i++)
        if (!strcmp(im->dir[i].pointer, pointer) && !strcmp(im->dir[i].name, name))
            return SV_OK;
    if (!sv_mem_grow(&im->alloc, (void **)&im->dir, &im->capdir, im->ndir + 1, sizeof *im->dir))
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
    if (!sv_mem_grow(&im->alloc, (void **)&im->files, &im->capfiles, im->nfiles + 1,
                     sizeof *im->files))
        return SV_ERR_NOMEM;
    char *d = dup_str(&im->alloc, path);
    if (!d) return SV_ERR_NOMEM;
    im->files[im->nfiles++] = d;
    return SV_OK;
}

/* ---- options ------------------------------------------------------------- */

void sv_o3de_import_opts_init(sv_o3de_import_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->struct_size = (uint32_t)sizeof *opts;
    opts->nested = true;
}

typedef struct importer importer;
static char *join(importer *m, const char *from, const char *name, size_t name_len);

struct importer {
    sv_doc *doc;
    sv_o3de_import_fn load;
    void *load_ctx;
    bool nested;
    uint32_t max_chain, max_imports, max_depth;
    sv_o3de_report_fn report;
    void *report_ctx;
    sv_o3de_imports *found; /* NULL: nothing recorded */
    const char *chain[CHAIN_MAX + 1]; /* the files being resolved, root first */
    size_t nchain;
    uint32_t loaded;
    sv_status st; /* a hard failure (memory), sticky */
};

static sv_status take_opts(importer *m, sv_doc *doc, const sv_o3de_import_opts *o, sv_error *err)
{
    memset(m, 0, sizeof *m);
    if (!o || o->struct_size < offsetof(sv_o3de_import_opts, report_ctx) + sizeof(void *) ||
        !o->load)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0,
                            "sv_o3de_import_opts needs sv_o3de_import_opts_init and a load callback");
    m->doc = doc;
    m->load = o->load;
    m->load_ctx = o->load_ctx;
    m->nested = o->nested;
    m->max_chain = o->max_chain ? (o->max_chain < CHAIN_MAX ? o->max_chain : CHAIN_MAX) : CHAIN_DEFAULT;
    m->max_imports = o->max_imports ? o->max_imports : IMPORTS_DEFAULT;
    m->max_depth = o->max_depth ? o->max_depth : SV_DEFAULT_MAX_DEPTH;
    if (m->max_depth > SV_MAX_DEPTH_LIMIT) m->max_depth = SV_MAX_DEPTH_LIMIT;
    m->report = o->report;
    m->report_ctx = o->report_ctx;
    /* the document's own path, spelled as joined paths are, for the cycle check */
    const char *own = o->path ? o->path : "";
    m->chain[0] = join(m, "", own, strlen(own));
    m->nchain = 1;
    if (!m->chain[0]) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory resolving imports");
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

static bool catastrophic(o3_res r) { return o3_out(r) == SV_O3DE_CATASTROPHIC; }

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

/* ---- resolving ----------------------------------------------------------- */

static o3_res walk(importer *m, o3p_ctx *p, sv_value *node, uint32_t depth);

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

/* BaseJsonImporter::ApplyPatch: only a non-empty object or array patches. */
static void apply_patch(importer *m, sv_value *target, const sv_value *patch)
{
    sv_kind k = sv_kind_of(patch);
    if (!((k == SV_MAP || k == SV_ARRAY) && patch->len > 0)) return;
    sv_o3de_opts opts; /* O3DE patches with its default settings: no reports */
    sv_o3de_opts_init(&opts);
    sv_o3de_result r;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_o3de_apply_patch(m->doc, target, patch, SV_O3DE_MERGE_PATCH, &opts, &r, &err);
    if (st != SV_OK && m->st == SV_OK) m->st = st;
}

/* The object *node held directive d: it becomes the named document. */
static o3_res import_one(importer *m, o3p_ctx *p, sv_value *node, sv_value d, uint32_t depth)
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
    if (m->loaded >= m->max_imports)
        return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                      "Importing '%s' goes past the limit of %u imports.", path,
                      (unsigned)m->max_imports);
    m->loaded++;

    /* BaseJsonImporter::ResolveImport: load, keep the patch, replace */
    sv_value doc = sv_null();
    sv_error err;
    sv_error_clear(&err);
    sv_status st = m->load(m->load_ctx, path, m->doc, &doc, &err);
    if (st != SV_OK)
        /* O3DE reports this one at the file's path, not a JSON Pointer */
        return report(m, SV_O3DE_CATASTROPHIC, path, "Failed to import file '%s'. Reason: '%s'",
                      path, err.message[0] ? err.message : sv_status_str(st));
    sv_value patch = sv_null();
    if (sv_kind_of(&d) == SV_MAP) {
        const sv_value *pf = sv_map_get(&d, "patch", 5);
        if (pf) patch = *pf;
    }
    *node = doc;

    if (m->found) {
        sv_status rs = SV_OK;
        if (m->nchain == 1) rs = add_directive(m->found, o3p_path(p), name_z, path);
        if (rs == SV_OK) rs = add_file(m->found, path);
        if (rs != SV_OK) {
            m->st = rs;
            return o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
        }
    }

    if (m->nested) {
        /* ResolveNestedImports: the chain check comes after the load */
        for (size_t i = 0; i < m->nchain; i++)
            if (!strcmp(m->chain[i], path))
                return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                              "'%s' was already imported in this chain. This indicates a cyclic "
                              "dependency.",
                              path);
        if (m->nchain > m->max_chain)
            return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                          "Importing '%s' nests imports more than %u deep.", path,
                          (unsigned)m->max_chain);
        m->chain[m->nchain++] = path;
        o3p_ctx inner; /* the imported file's own JSON Pointers */
        o3p_init(&inner, m->doc, NULL);
        inner.report = m->report;
        inner.report_ctx = m->report_ctx;
        o3_res r = walk(m, &inner, node, depth);
        if (!sv_buf_ok(&inner.path) && m->st == SV_OK) m->st = SV_ERR_NOMEM;
        o3p_free(&inner);
        m->nchain--;
        if (catastrophic(r)) return r;
    }
    apply_patch(m, node, &patch);
    return IMPORT_OK;
}

static o3_res walk(importer *m, o3p_ctx *p, sv_value *node, uint32_t depth)
{
    if (m->st != SV_OK) return o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    if (depth >= m->max_depth)
        return report(m, SV_O3DE_CATASTROPHIC, o3p_path(p),
                      "The JSON is nested more than %u deep with its imports.",
                      (unsigned)m->max_depth);
    if (sv_kind_of(node) == SV_MAP) {
        for (uint32_t i = 0; i < node->len; i++) {
            sv_pair *pr = &sv_pairs(node)[i];
            size_t kn;
            const char *k = sv_get_str(&pr->key, &kn);
            if (kn == sizeof DIRECTIVE - 1 && !memcmp(k, DIRECTIVE, kn))
                /* the object is replaced: nothing after the directive is seen */
                return import_one(m, p, node, pr->val, depth);
            sv_kind vk = sv_kind_of(&pr->val);
            if (vk != SV_MAP && vk != SV_ARRAY) continue;
            size_t mark = o3p_push_key(p, k, kn);
            o3_res r = walk(m, p, &pr->val, depth + 1);
            o3p_pop(p, mark);
            if (catastrophic(r)) return r;
        }
    } else if (sv_kind_of(node) == SV_ARRAY) {
        for (uint32_t i = 0; i < node->len; i++) {
            sv_value *e = sv_array_at(node, i);
            sv_kind ek = sv_kind_of(e);
            if (ek != SV_MAP && ek != SV_ARRAY) continue;
            size_t mark = o3p_push_index(p, i);
            o3_res r = walk(m, p, e, depth + 1);
            o3p_pop(p, mark);
            if (catastrophic(r)) return r;
        }
    }
    return IMPORT_OK;
}

static sv_status finish(importer *m, o3p_ctx *p, o3_res r, sv_o3de_result *result, sv_error *err)
{
    bool path_ok = sv_buf_ok(&p->path);
    o3p_free(p);
    if (m->st == SV_OK && (!path_ok || sv_doc_status(m->doc) != SV_OK)) m->st = SV_ERR_NOMEM;
    if (m->st != SV_OK) return sv_error_set(err, m->st, "o3de", 0, "out of memory resolving imports");
    if (result) *result = r;
    return SV_OK;
}

sv_status sv_o3de_resolve_imports(sv_doc *doc, sv_value *json, const sv_o3de_import_opts *opts,
                                  sv_o3de_imports *found, sv_o3de_result *result, sv_error *err)
{
    if (result) *result = o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    if (!doc || !json)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_resolve_imports");
    importer m;
    sv_status st = take_opts(&m, doc, opts, err);
    if (st != SV_OK) return st;
    m.found = found;
    o3p_ctx p;
    o3p_init(&p, doc, NULL);
    o3_res r = walk(&m, &p, json, 0);
    /* O3DE's ResolveImports: Success unless something was Catastrophic */
    return finish(&m, &p, catastrophic(r) ? r : IMPORT_OK, result, err);
}

sv_status sv_o3de_restore_imports(sv_doc *doc, sv_value *json, const sv_o3de_import_opts *opts,
                                  const sv_o3de_imports *found, sv_o3de_result *result,
                                  sv_error *err)
{
    if (result) *result = o3_r(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC);
    if (!doc || !json || !found)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_restore_imports");
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
        (void)sv_map_put(doc, &imported, sv_strz(doc, DIRECTIVE), sv_strz(doc, d->name));
        m.nchain = 1;
        o3_res ir = walk(&m, &p, &imported, 0);
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
            (void)sv_map_put(doc, &dir, sv_strz(doc, "filename"), sv_strz(doc, d->name));
            (void)sv_map_put(doc, &dir, sv_strz(doc, "patch"), patch);
            (void)sv_map_put(doc, &restored, sv_strz(doc, DIRECTIVE), dir);
        } else {
            (void)sv_map_put(doc, &restored, sv_strz(doc, DIRECTIVE), sv_strz(doc, d->name));
        }
        *cur = restored;
    }
    return finish(&m, &p, catastrophic(r) ? r : IMPORT_OK, result, err);
}
