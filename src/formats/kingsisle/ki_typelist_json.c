/* wiztype JSON type lists, version 1 and 2 (§7.1), read through serval's
 * JSON reader into a scratch tree and compiled into the type list. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "formats/kingsisle/ki_internal.h"
#include "serval/json.h"

typedef struct wz_ctx {
    sv_kingsisle_types *t;
    const char *source;
    sv_error *err;
    ki_prop_src *props;
    ki_enum_opt *opts;
    size_t props_cap, opts_cap;
} wz_ctx;

static sv_status bad(wz_ctx *c, const char *cls, const char *prop, const char *what)
{
    return sv_error_set(c->err, SV_ERR_SYNTAX, KI_FORMAT, 0, "%s: class '%s'%s%s%s: %s", c->source,
                        cls, prop ? ", property '" : "", prop ? prop : "", prop ? "'" : "", what);
}

static bool get_u32(const sv_value *v, uint32_t *out)
{
    sv_kind k = sv_kind_of(v);
    if (k == SV_INT) {
        int64_t i = sv_get_int(v);
        if (i < INT32_MIN || i > (int64_t)UINT32_MAX) return false;
        *out = (uint32_t)i; /* §6.4: values compare as u32 */
        return true;
    }
    if (k == SV_UINT) {
        uint64_t u = sv_get_uint(v);
        if (u > UINT32_MAX) return false;
        *out = (uint32_t)u;
        return true;
    }
    if (k == SV_STRING) { /* v2 with string-valued enum options */
        size_t n;
        const char *s = sv_get_str(v, &n);
        char buf[32];
        if (n == 0 || n >= sizeof buf) return false;
        memcpy(buf, s, n);
        buf[n] = 0;
        char *end;
        long long x = strtoll(buf, &end, 0);
        if (*end || x < INT32_MIN || x > (long long)UINT32_MAX) return false;
        *out = (uint32_t)x;
        return true;
    }
    return false;
}

/* enum_options: name -> int or numeric string; __DEFAULT and __BASECLASS are
 * not options (§6.4). The options of all properties share one array. */
static sv_status read_options(wz_ctx *c, const sv_value *eo, size_t *nopts, const char *cls,
                              const char *prop)
{
    if (sv_kind_of(eo) != SV_MAP) return SV_OK;
    for (uint32_t i = 0; i < sv_len(eo); i++) {
        size_t kn;
        const char *k = sv_get_str(sv_key_at(eo, i), &kn);
        if ((kn == 9 && !memcmp(k, "__DEFAULT", 9)) || (kn == 11 && !memcmp(k, "__BASECLASS", 11)))
            continue;
        uint32_t v;
        if (!get_u32(sv_val_at(eo, i), &v))
            return bad(c, cls, prop, "an enum option's value is not a number");
        if (!sv__core_mem_grow(c->t->alloc, (void **)&c->opts, &c->opts_cap, *nopts + 1,
                               sizeof *c->opts))
            return sv_error_set(c->err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
        c->opts[*nopts] = (ki_enum_opt){k, (uint32_t)kn, v};
        (*nopts)++;
    }
    return SV_OK;
}

static sv_status read_class(wz_ctx *c, const char *name, size_t name_len, const sv_value *cv)
{
    if (sv_kind_of(cv) != SV_MAP) return bad(c, name, NULL, "not a JSON object");
    uint32_t hash;
    if (!get_u32(sv_map_getz(cv, "hash"), &hash)) return bad(c, name, NULL, "no numeric \"hash\"");
    const sv_value *props = sv_map_getz(cv, "properties");
    size_t np = sv_kind_of(props) == SV_MAP ? sv_len(props) : 0;
    if (!sv__core_mem_grow(c->t->alloc, (void **)&c->props, &c->props_cap, np, sizeof *c->props))
        return sv_error_set(c->err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    size_t nopts = 0;
    /* first pass: options (their array may move while it grows) */
    size_t *first = np ? sv__core_mem_calloc(c->t->alloc, np + 1, sizeof *first) : NULL;
    if (np && !first) return sv_error_set(c->err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    sv_status st = SV_OK;
    for (size_t i = 0; i < np && st == SV_OK; i++) {
        first[i] = nopts;
        st = read_options(c, sv_map_getz(sv_val_at(props, i), "enum_options"), &nopts, name,
                          sv_get_str(sv_key_at(props, i), NULL));
    }
    if (np) first[np] = nopts;
    for (size_t i = 0; i < np && st == SV_OK; i++) {
        const sv_value *pv = sv_val_at(props, i);
        const char *pn = sv_get_str(sv_key_at(props, i), NULL);
        ki_prop_src *p = &c->props[i];
        memset(p, 0, sizeof *p);
        p->name = sv_get_str(sv_key_at(props, i), &p->name_len);
        const sv_value *type = sv_map_getz(pv, "type");
        if (sv_kind_of(type) != SV_STRING) {
            st = bad(c, name, pn, "no \"type\" string");
            break;
        }
        p->type = sv_get_str(type, &p->type_len);
        if (!get_u32(sv_map_getz(pv, "id"), &p->id) ||
            !get_u32(sv_map_getz(pv, "flags"), &p->flags)) {
            st = bad(c, name, pn, "no numeric \"id\" and \"flags\"");
            break;
        }
        const sv_value *h = sv_map_getz(pv, "hash");
        if (h) {
            if (!get_u32(h, &p->hash)) {
                st = bad(c, name, pn, "\"hash\" is not a number");
                break;
            }
            p->has_hash = true;
        }
        p->dynamic = sv_get_bool(sv_map_getz(pv, "dynamic"));
        p->opts = first[i + 1] > first[i] ? c->opts + first[i] : NULL;
        p->nopts = (uint32_t)(first[i + 1] - first[i]);
    }
    sv__core_mem_free(c->t->alloc, first, np + 1, sizeof *first);
    if (st != SV_OK) return st;
    return ki_types_add_class(c->t, name, name_len, hash, c->props, np, c->source, c->err);
}

sv_status ki_load_wiztype(sv_kingsisle_types *t, const uint8_t *data, size_t len,
                          const char *source, sv_error *err)
{
    sv_doc *doc = sv_doc_new(t->alloc);
    if (!doc) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    sv_json_decode_opts jo;
    sv_json_decode_opts_init(&jo);
    jo.plain = true; /* a type list is plain JSON: "$" keys mean nothing */
    sv_value root;
    sv_status st = sv_json_decode(doc, (const char *)data, len, &jo, &root, err);
    wz_ctx c = {t, source, err, NULL, NULL, 0, 0};
    if (st == SV_OK && sv_kind_of(&root) != SV_MAP)
        st = sv_error_set(err, SV_ERR_SYNTAX, KI_FORMAT, 0, "%s: not a JSON object", source);
    if (st == SV_OK) {
        const sv_value *ver = sv_map_getz(&root, "version");
        if (ver) { /* v2: {"version": 2, "classes": {"<hash>": {"name": ...}}} */
            const sv_value *classes = sv_map_getz(&root, "classes");
            if (sv_kind_of(classes) != SV_MAP)
                st = sv_error_set(err, SV_ERR_SYNTAX, KI_FORMAT, 0, "%s: no \"classes\" object",
                                  source);
            for (uint32_t i = 0; st == SV_OK && i < sv_len(classes); i++) {
                const sv_value *cv = sv_val_at(classes, i);
                const sv_value *nm = sv_map_getz(cv, "name");
                size_t nl;
                const char *n = sv_get_str(nm, &nl);
                if (sv_kind_of(nm) != SV_STRING)
                    st = bad(&c, sv_get_str(sv_key_at(classes, i), NULL), NULL,
                             "no \"name\" string");
                else
                    st = read_class(&c, n, nl, cv);
            }
        } else { /* v1: {"class Foo": {...}} */
            for (uint32_t i = 0; st == SV_OK && i < sv_len(&root); i++) {
                size_t nl;
                const char *n = sv_get_str(sv_key_at(&root, i), &nl);
                st = read_class(&c, n, nl, sv_val_at(&root, i));
            }
        }
    }
    sv__core_mem_free(t->alloc, c.props, c.props_cap, sizeof *c.props);
    sv__core_mem_free(t->alloc, c.opts, c.opts_cap, sizeof *c.opts);
    sv_doc_free(doc);
    return st;
}
