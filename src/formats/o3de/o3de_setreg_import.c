/* "$import" resolved in member order, as the Settings Registry resolves it
 * (O3DE's JsonImportResolver::ResolveImportsInOrder, PatchField and
 * LoadAndMergeImportFile in JsonImporter.cpp).
 *
 * An object is rebuilt member by member. "$import" merges its file (after
 * the directive's own "patch", a JSON Merge Patch) into what was built so
 * far, as a JSON Merge Patch, or as a JSON Patch when the file ends in
 * .jsonpatch or .setregpatch; then the imports inside the result are
 * resolved the same way against the imported file's directory. Any other
 * member is patched in: an object over the member of that name (which it
 * replaces whole, its own imports resolved), a scalar over it, and an
 * array is added as a new member even when one of that name is there:
 * O3DE then fills the member found first and leaves an empty array of the
 * same name at the end, which the merge that follows applies last. That is
 * what O3DE does, so it is kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "o3de_setreg.h"

typedef struct chain {
    const char *paths[257];
    size_t n;
} chain;

static sv_o3de_result res(sv_o3de_outcome o)
{
    return sv_o3de_result_make(SV_O3DE_IMPORT, o);
}

static void message(o3sr_import_ctx *c, const char *fmt, const char *a, const char *b)
{
    char line[1024];
    snprintf(line, sizeof line, fmt, a, b ? b : "");
    sv_buf_append(c->messages, line, strlen(line));
    sv_buf_putc(c->messages, '\n');
}

static bool hard_fail(o3sr_import_ctx *c, sv_status st, const char *msg)
{
    if (c->st == SV_OK) {
        c->st = st;
        c->st = sv_error_set(c->err, st, "o3de", SV_ERROR_NO_OFFSET, "%s", msg);
    }
    return false;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && memcmp(s + n - m, tail, m) == 0;
}

/* GetImportPaths: the directive's name joined to the importing file's
 * directory (an absolute name stands alone). NULL on a bad directive. */
static char *import_path(o3sr_import_ctx *c, const char *from, const sv_value *directive)
{
    const sv_value *name = directive;
    if (sv_kind_of(directive) == SV_MAP) name = sv_map_getz(directive, "filename");
    if (sv_kind_of(name) != SV_STRING) return NULL;
    size_t nlen;
    const char *n = sv_get_str(name, &nlen);
    const char *slash = strrchr(from, '/');
    size_t dlen = n[0] == '/' || !slash ? 0 : (size_t)(slash - from) + 1;
    char *p = malloc(dlen + nlen + 1);
    if (!p) {
        hard_fail(c, SV_ERR_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(p, from, dlen);
    memcpy(p + dlen, n, nlen);
    p[dlen + nlen] = 0;
    return p;
}

static sv_o3de_result resolve(o3sr_import_ctx *c, chain *ch, sv_value *target, const sv_value *src,
                              unsigned depth);

static bool note_file(o3sr_import_ctx *c, const char *path, unsigned depth)
{
    o3sr_imported *f = realloc(c->files, (c->nfiles + 1) * sizeof *f);
    if (!f) return hard_fail(c, SV_ERR_NOMEM, "out of memory");
    c->files = f;
    f[c->nfiles].path = strdup(path);
    f[c->nfiles].depth = depth;
    if (!f[c->nfiles].path) return hard_fail(c, SV_ERR_NOMEM, "out of memory");
    c->nfiles++;
    return true;
}

/* LoadAndMergeImportFile, then the nested imports of what it merged. */
static sv_o3de_result import_one(o3sr_import_ctx *c, chain *ch, sv_value *cur,
                                 const sv_value *directive, unsigned depth)
{
    char *path = import_path(c, ch->paths[ch->n - 1], directive);
    if (!path) {
        if (c->st) return res(SV_O3DE_CATASTROPHIC);
        message(c, "A \"$import\" directive in \"%s\" names no file.%s", ch->paths[ch->n - 1],
                NULL);
        return res(SV_O3DE_CATASTROPHIC);
    }
    sv_o3de_result r = res(SV_O3DE_SUCCESS);
    if (c->nfiles >= c->max_imports) {
        message(c, "Failed to import file \"%s\". Reason: \"more than %s files imported\"", path,
                "the allowed number of");
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    for (size_t i = 0; i < ch->n; i++) {
        if (strcmp(ch->paths[i], path) == 0) {
            message(
                c, "\"%s\" was already imported in this chain. This indicates a cyclic dependency.",
                path, NULL);
            r = res(SV_O3DE_CATASTROPHIC);
            goto done;
        }
    }
    if (ch->n >= c->max_chain || ch->n >= sizeof ch->paths / sizeof ch->paths[0]) {
        message(c, "Failed to import file \"%s\". Reason: \"imports nested too deeply\"", path,
                NULL);
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    sv_error lerr;
    sv_error_clear(&lerr);
    sv_value doc;
    sv_status st = c->load(c->load_ctx, path, c->doc, &doc, &lerr);
    if (st == SV_ERR_NOMEM || st == SV_ERR_LIMIT) {
        hard_fail(c, st, lerr.message);
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    if (st != SV_OK) {
        message(c, "Failed to import file \"%s\". Reason: \"%s\"", path, lerr.message);
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    if (!note_file(c, path, ch->n)) {
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    sv_o3de_opts po;
    sv_o3de_opts_init(&po);
    sv_o3de_result pr;
    const sv_value *patch =
        sv_kind_of(directive) == SV_MAP ? sv_map_getz(directive, "patch") : NULL;
    if (patch && !o3sr_merge_patch(c->doc, &doc, patch, 0)) {
        hard_fail(c, sv_doc_status(c->doc) ? sv_doc_status(c->doc) : SV_ERR_NOMEM, "out of memory");
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    bool as_patch = ends_with(path, ".jsonpatch") || ends_with(path, ".setregpatch");
    pr = res(SV_O3DE_SUCCESS);
    if (as_patch) {
        st = sv_o3de_apply_patch(c->doc, cur, &doc, SV_O3DE_JSON_PATCH, &po, &pr, c->err);
    } else {
        st = o3sr_merge_patch(c->doc, cur, &doc, 0) ? SV_OK
             : sv_doc_status(c->doc)                ? sv_doc_status(c->doc)
                                                    : SV_ERR_NOMEM;
    }
    if (st) {
        hard_fail(c, st, "merging an import failed");
        r = res(SV_O3DE_CATASTROPHIC);
        goto done;
    }
    if (sv_o3de_result_processing(pr) != SV_O3DE_COMPLETED) {
        /* reported; only a Catastrophic outcome stops the resolver */
        message(c,
                "Patching the imported JSON file \"%s\" into the target JSON document has failed.",
                path, NULL);
        if (sv_o3de_result_outcome(pr) == SV_O3DE_CATASTROPHIC) {
            r = res(SV_O3DE_CATASTROPHIC);
            goto done;
        }
    }
    /* ResolveNestedImportsInOrder: the merged object walked again with the
     * imported file on the chain */
    ch->paths[ch->n++] = path;
    sv_value merged = *cur;
    sv_o3de_result nr = resolve(c, ch, cur, &merged, depth);
    ch->n--;
    if (sv_o3de_result_outcome(nr) == SV_O3DE_CATASTROPHIC) r = nr;
done:
    free(path);
    return r;
}

/* Adds an empty container of kind k to cur (a member named name when cur
 * is an object) and returns the slot to fill: for an object, the first
 * member of that name, as rapidjson's FindMember finds it. */
static sv_value *add_slot(o3sr_import_ctx *c, sv_value *cur, o3sr_index *x, const sv_value *name,
                          sv_kind k)
{
    sv_value empty = k == SV_MAP ? sv_map(c->doc, 0) : sv_array(c->doc, 0);
    if (sv_kind_of(cur) == SV_MAP) {
        if (sv_map_append(c->doc, cur, *name, empty) != SV_OK) return NULL;
        o3sr_index_added(x, cur);
        size_t n;
        bool nomem = false;
        const char *s = sv_get_str(name, &n);
        return o3sr_index_get(x, cur, s, n, &nomem);
    }
    if (sv_array_append(c->doc, cur, empty) != SV_OK) return NULL;
    return sv_array_at(cur, cur->len - 1);
}

/* PatchField */
static sv_o3de_result patch_field(o3sr_import_ctx *c, chain *ch, sv_value *cur, o3sr_index *x,
                                  const sv_value *name, const sv_value *val, unsigned depth)
{
    sv_value *have = NULL;
    if (name && sv_kind_of(cur) == SV_MAP) {
        size_t n;
        bool nomem = false;
        const char *s = sv_get_str(name, &n);
        have = o3sr_index_get(x, cur, s, n, &nomem);
        if (nomem) {
            hard_fail(c, SV_ERR_NOMEM, "out of memory");
            return res(SV_O3DE_CATASTROPHIC);
        }
    }
    sv_kind k = sv_kind_of(val);
    if (k == SV_MAP && have) return resolve(c, ch, have, val, depth + 1);
    if (k == SV_MAP || k == SV_ARRAY) {
        sv_value *slot = add_slot(c, cur, x, name, k);
        if (!slot) {
            hard_fail(c, sv_doc_status(c->doc) ? sv_doc_status(c->doc) : SV_ERR_NOMEM,
                      "out of memory");
            return res(SV_O3DE_CATASTROPHIC);
        }
        return resolve(c, ch, slot, val, depth + 1);
    }
    sv_value copy = sv_copy(c->doc, val);
    if (have) {
        *have = copy;
    } else if (sv_kind_of(cur) == SV_MAP) {
        (void)sv_map_append(c->doc, cur, *name, copy);
        o3sr_index_added(x, cur);
    } else {
        (void)sv_array_append(c->doc, cur, copy);
    }
    return res(SV_O3DE_SUCCESS);
}

static sv_o3de_result resolve(o3sr_import_ctx *c, chain *ch, sv_value *target, const sv_value *src,
                              unsigned depth)
{
    if (c->st) return res(SV_O3DE_CATASTROPHIC);
    sv_kind k = sv_kind_of(src);
    if (k != SV_MAP && k != SV_ARRAY) {
        *target = sv_copy(c->doc, src);
        return res(SV_O3DE_SUCCESS);
    }
    if (depth > c->max_depth) {
        message(c, "\"%s\": the JSON is nested too deeply to resolve its imports.%s",
                ch->paths[ch->n - 1], NULL);
        return res(SV_O3DE_CATASTROPHIC);
    }
    sv_value cur = k == SV_MAP ? sv_map(c->doc, 0) : sv_array(c->doc, 0);
    sv_o3de_result all = res(SV_O3DE_SUCCESS);
    o3sr_index x;
    memset(&x, 0, sizeof x);
    for (uint32_t i = 0; i < src->len && !c->st; i++) {
        const sv_value *name = NULL, *val;
        if (k == SV_MAP) {
            const sv_value *pk = sv_key_at(src, i);
            const sv_value *pv = sv_val_at(src, i);
            name = pk;
            val = pv;
            size_t n;
            const char *s = sv_get_str(name, &n);
            if (n == 7 && memcmp(s, "$import", 7) == 0) {
                sv_o3de_result r = import_one(c, ch, &cur, val, depth);
                x.stale = true; /* the import changed cur */
                if (sv_o3de_result_outcome(r) == SV_O3DE_CATASTROPHIC) {
                    o3sr_index_free(&x);
                    return r;
                }
                continue;
            }
        } else {
            val = sv_array_at(src, i);
        }
        all = sv_o3de_result_combine(all, patch_field(c, ch, &cur, &x, name, val, depth));
    }
    o3sr_index_free(&x);
    if (c->st) return res(SV_O3DE_CATASTROPHIC);
    if (sv_doc_status(c->doc)) {
        hard_fail(c, sv_doc_status(c->doc), "out of memory");
        return res(SV_O3DE_CATASTROPHIC);
    }
    if (sv_o3de_result_processing(all) != SV_O3DE_COMPLETED) return all;
    *target = cur;
    return res(SV_O3DE_SUCCESS);
}

sv_o3de_result o3sr_resolve_in_order(o3sr_import_ctx *c, const char *path, const sv_value *src,
                                     sv_value *out)
{
    if (!c->max_chain) c->max_chain = 32;
    if (!c->max_imports) c->max_imports = 1024;
    if (!c->max_depth) c->max_depth = 1024;
    chain ch;
    ch.n = 1;
    ch.paths[0] = path;
    return resolve(c, &ch, out, src, 0);
}

void o3sr_import_free(o3sr_import_ctx *c)
{
    for (size_t i = 0; i < c->nfiles; i++) free(c->files[i].path);
    free(c->files);
    c->files = NULL;
    c->nfiles = 0;
}
