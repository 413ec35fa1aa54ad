/* Each prefab instance's patch applied to its template, operation by
 * operation, as O3DE's Link::UpdateTarget applies it (an operation that
 * halts is skipped, the others go on), telling apart why an operation does
 * not apply:
 *
 * - it names an entity, component or instance the template does not have
 *   (a key "Entity_[...]", "Component_[...]", "Instance_[...]",
 *   "ContainerEntity"), or "LinkId" at the root (O3DE adds it only after
 *   the patch), or the value it names is there and the operation still
 *   halts (a failed "test", an index past an array's end): it fails;
 * - it goes through a field the template's file leaves out: O3DE writes
 *   prefabs without default values and fills them in when it loads one, so
 *   without the component's type the operation can neither be applied nor
 *   called broken: it is unverified. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "o3de_patch_util.h"
#include "o3de_prefab.h"

#define MAX_NESTING 16
/* Templates loaded for one check, nested ones included: a template whose
 * instances fan out would otherwise take work exponential in its depth. */
#define MAX_LOADS 4096

typedef struct checker {
    sv_doc *doc;
    o3pf_load_fn load;
    void *load_ctx;
    o3pf_report *out;
    sv_status st;
    sv_error *err;
    char reason[512]; /* the last halting report of an operation */
    const char *chain[MAX_NESTING + 1];
    size_t depth;
    size_t loads;
    char inner[512]; /* why a nested template could not be had */
} checker;

static sv_o3de_result capture(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    checker *c = ctx;
    if (sv_o3de_result_processing(r) != SV_O3DE_COMPLETED)
        snprintf(c->reason, sizeof c->reason, "%s (at %s)", message, *path ? path : "/");
    return r;
}

static bool nomem(checker *c)
{
    if (!c->st)
        c->st = sv_error_set(c->err, sv_doc_status(c->doc) ? sv_doc_status(c->doc) : SV_ERR_NOMEM,
                             "o3de", SV_ERROR_NO_OFFSET, "out of memory");
    return false;
}

static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

static bool add(checker *c, o3pf_kind kind, const char *instance, const char *source, size_t index,
                const char *op, const char *path, const char *reason)
{
    o3pf_finding *f = realloc(c->out->f, (c->out->n + 1) * sizeof *f);
    if (!f) return nomem(c);
    c->out->f = f;
    o3pf_finding *n = &f[c->out->n];
    n->kind = kind;
    n->index = index;
    n->instance = dup_str(instance);
    n->source = dup_str(source);
    n->op = dup_str(op);
    n->path = dup_str(path);
    n->reason = dup_str(reason);
    c->out->n++;
    if (!n->instance || !n->source || !n->op || !n->path || !n->reason) return nomem(c);
    return true;
}

static bool identity_key(const char *name, size_t len, size_t at)
{
    static const char *const ids[] = {"Entity_[", "Component_[", "Instance_["};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(ids[i]);
        if (len > n && memcmp(name, ids[i], n) == 0 && name[len - 1] == ']') return true;
    }
    if (len == 15 && memcmp(name, "ContainerEntity", 15) == 0) return true;
    return at == 0 && len == 6 && memcmp(name, "LinkId", 6) == 0;
}

/* Why an operation on ptr (its first n tokens must exist) did not apply:
 * *kind and a reason naming the first token that is missing. false when
 * every token is there. */
static bool missing(sv_value *root, const o3p_pointer *ptr, size_t n, o3pf_kind *kind, char *why,
                    size_t size)
{
    for (size_t k = 0; k < n; k++) {
        sv_value *parent = o3p_get(root, ptr, k);
        if (o3p_get(root, ptr, k + 1)) continue;
        const o3p_token *t = &ptr->tok[k];
        char prefix[256];
        size_t w = 0;
        for (size_t j = 0; j < k && w + 2 < sizeof prefix; j++) {
            int m = snprintf(prefix + w, sizeof prefix - w, "/%.*s", (int)ptr->tok[j].len,
                             ptr->tok[j].name);
            if (m < 0) break;
            w += (size_t)m;
            if (w >= sizeof prefix) w = sizeof prefix - 1;
        }
        prefix[w] = 0;
        const char *where = w ? prefix : "the root";
        if (sv_kind_of(parent) == SV_ARRAY) {
            *kind = O3PF_FAILS;
            snprintf(why, size, "the array at %s has %u items, no item %.*s", where,
                     (unsigned)parent->len, (int)t->len, t->name);
        } else if (sv_kind_of(parent) != SV_MAP) {
            *kind = O3PF_FAILS;
            snprintf(why, size, "the template's %s is not an object or array", where);
        } else if (identity_key(t->name, t->len, k)) {
            *kind = O3PF_FAILS;
            snprintf(why, size, "the template has no \"%.*s\" in %s", (int)t->len, t->name, where);
        } else {
            *kind = O3PF_UNVERIFIED;
            snprintf(why, size,
                     "the template's file leaves out \"%.*s\" in %s (O3DE may fill in a "
                     "default there when it loads the template)",
                     (int)t->len, t->name, where);
        }
        return true;
    }
    return false;
}

static sv_status apply_one(checker *c, sv_value *dom, const sv_value *op, sv_o3de_result *r)
{
    sv_value one = sv_array(c->doc, 0);
    if (sv_array_append(c->doc, &one, *op) != SV_OK) return SV_ERR_NOMEM;
    sv_o3de_opts po;
    sv_o3de_opts_init(&po);
    po.report = capture;
    po.report_ctx = c;
    c->reason[0] = 0;
    return sv_o3de_apply_patch(c->doc, dom, &one, SV_O3DE_JSON_PATCH, &po, r, c->err);
}

static bool expand(checker *c, sv_value *dom);

/* Loads source's template and expands its own instances. */
static bool load_template(checker *c, const char *source, sv_value *out, char *why, size_t size)
{
    for (size_t i = 0; i < c->depth; i++) {
        if (strcmp(c->chain[i], source) == 0) {
            snprintf(why, size, "\"%s\" contains itself", source);
            return false;
        }
    }
    if (c->depth >= MAX_NESTING) {
        snprintf(why, size, "instances nested more than %d deep", MAX_NESTING);
        return false;
    }
    if (++c->loads > MAX_LOADS) {
        c->st =
            sv_error_set(c->err, SV_ERR_LIMIT, "o3de", SV_ERROR_NO_OFFSET,
                         "more than %d templates to load (nested instances included)", MAX_LOADS);
        return false;
    }
    sv_error lerr;
    sv_error_clear(&lerr);
    sv_status st = c->load(c->load_ctx, source, c->doc, out, &lerr);
    if (st == SV_ERR_NOMEM || st == SV_ERR_LIMIT) {
        c->st = sv_error_set(c->err, st, "o3de", SV_ERROR_NO_OFFSET, "%s", lerr.message);
        return false;
    }
    if (st) {
        snprintf(why, size, "the template \"%s\" cannot be loaded: %s", source, lerr.message);
        return false;
    }
    c->chain[c->depth++] = source;
    bool ok = expand(c, out);
    c->depth--;
    if (!ok && !c->st) snprintf(why, size, "in the template \"%s\": %.400s", source, c->inner);
    return ok;
}

/* The DOM O3DE holds for a template: each nested instance replaced by its
 * own template with its patches applied (operations that halt skipped). */
static bool expand(checker *c, sv_value *dom)
{
    sv_value *inst = sv_map_getz(dom, "Instances");
    if (sv_kind_of(inst) != SV_MAP) return true;
    for (uint32_t i = 0; i < inst->len && !c->st; i++) {
        sv_value *entry = sv_val_at(inst, i);
        const sv_value *src = sv_map_getz(entry, "Source");
        if (sv_kind_of(src) != SV_STRING) continue;
        const sv_value *patches = sv_map_getz(entry, "Patches");
        sv_value t;
        char why[512];
        if (!load_template(c, sv_get_str(src, NULL), &t, why, sizeof why)) {
            memcpy(c->inner, why, sizeof c->inner);
            return false;
        }
        for (uint32_t k = 0; k < sv_len(patches) && sv_kind_of(patches) == SV_ARRAY; k++) {
            sv_o3de_result r;
            if (apply_one(c, &t, sv_array_at(patches, k), &r)) return nomem(c);
        }
        *entry = t;
    }
    return !c->st;
}

static const char *str_of(const sv_value *v)
{
    return sv_kind_of(v) == SV_STRING ? sv_get_str(v, NULL) : "";
}

static bool check_instance(checker *c, const char *iname, sv_value *entry)
{
    const sv_value *src = sv_map_getz(entry, "Source");
    const sv_value *patches = sv_map_getz(entry, "Patches");
    const char *source = str_of(src);
    c->out->instances++;
    sv_value dom;
    char why[512];
    if (sv_kind_of(src) != SV_STRING) {
        return add(c, O3PF_NO_TEMPLATE, iname, "", 0, "", "", "the instance has no \"Source\"");
    }
    if (!load_template(c, source, &dom, why, sizeof why)) {
        if (c->st) return false;
        return add(c, O3PF_NO_TEMPLATE, iname, source, 0, "", "", why);
    }
    if (sv_kind_of(patches) != SV_ARRAY) return true;
    for (uint32_t k = 0; k < patches->len && !c->st; k++) {
        const sv_value *op = sv_array_at(patches, k);
        c->out->patches++;
        const char *opname = str_of(sv_map_getz(op, "op"));
        const char *path = str_of(sv_map_getz(op, "path"));
        sv_value before = dom;
        sv_o3de_result r;
        if (apply_one(c, &dom, op, &r)) return nomem(c);
        if (sv_o3de_result_processing(r) == SV_O3DE_COMPLETED) continue;
        dom = before;
        /* which part of the path is missing, on the DOM before the op */
        o3pf_kind kind = O3PF_FAILS;
        char reason[700];
        snprintf(reason, sizeof reason, "%s", c->reason[0] ? c->reason : "the operation halts");
        o3p_pointer ptr;
        const char *from = str_of(sv_map_getz(op, "from"));
        bool is_add = strcmp(opname, "add") == 0;
        bool moves = strcmp(opname, "move") == 0 || strcmp(opname, "copy") == 0;
        const char *which = moves && *from ? from : path;
        if (!o3p_pointer_parse(&ptr, which, strlen(which), &c->doc->alloc)) return nomem(c);
        if (ptr.valid) {
            size_t n = (is_add || (moves && !*from)) && ptr.n ? ptr.n - 1 : ptr.n;
            char why2[512];
            o3pf_kind k2;
            if (missing(&dom, &ptr, n, &k2, why2, sizeof why2)) {
                kind = k2;
                snprintf(reason, sizeof reason, "%s", why2);
            }
        }
        o3p_pointer_free(&ptr);
        if (!add(c, kind, iname, source, k, opname, path, reason)) return false;
    }
    return !c->st;
}

sv_status o3pf_check(sv_doc *doc, const sv_value *prefab, o3pf_load_fn load, void *load_ctx,
                     o3pf_report *out, sv_error *err)
{
    memset(out, 0, sizeof *out);
    checker c;
    memset(&c, 0, sizeof c);
    c.doc = doc;
    c.load = load;
    c.load_ctx = load_ctx;
    c.out = out;
    c.err = err;
    const sv_value *inst = sv_map_getz(prefab, "Instances");
    for (uint32_t i = 0; i < sv_len(inst) && sv_kind_of(inst) == SV_MAP && !c.st; i++) {
        size_t n;
        const char *name = sv_get_str(sv_key_at(inst, i), &n);
        char iname[300];
        snprintf(iname, sizeof iname, "/Instances/%.*s", (int)(n > 250 ? 250 : n), name);
        (void)check_instance(&c, iname, sv_val_at(inst, i));
    }
    if (!c.st && sv_doc_status(doc)) nomem(&c);
    return c.st;
}

void o3pf_report_free(o3pf_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->f[i].instance);
        free(r->f[i].source);
        free(r->f[i].op);
        free(r->f[i].path);
        free(r->f[i].reason);
    }
    free(r->f);
    memset(r, 0, sizeof *r);
}
