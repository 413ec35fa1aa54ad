/* KingsIsle's own class-list XML (§7.2), read with expat:
 *   <ClassList><Class Name=... Base=...>
 *     <Property Name PropertyId Type Flags Container [Dynamic="true"]>
 *       [<Enum Name><Option Name Value/></Enum>]
 * The list carries no hashes: type tags are string_id(Name) and property
 * hashes are computed as §2.3 gives them. */
#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "formats/kingsisle/ki_internal.h"

typedef struct xprop {
    size_t name, type; /* offsets in the string pool */
    size_t name_len, type_len;
    uint32_t id, flags;
    bool dynamic;
    size_t first_opt, nopts;
} xprop;

typedef struct xopt {
    size_t name, len;
    uint32_t value;
} xopt;

typedef struct xl_ctx {
    sv_kingsisle_types *t;
    const char *source;
    sv_error *err;
    XML_Parser p;
    sv_status st;
    bool in_class, in_prop;
    sv_buf pool; /* strings of the class being read */
    size_t cls_name, cls_len;
    xprop *props;
    size_t nprops, props_cap;
    xopt *opts;
    size_t nopts, opts_cap;
    unsigned depth;
} xl_ctx;

static void fail(xl_ctx *c, sv_status st, const char *what)
{
    if (c->st != SV_OK) return;
    c->st = sv_error_set(c->err, st, KI_FORMAT, (uint64_t)XML_GetCurrentByteIndex(c->p),
                         "%s: line %lu: %s", c->source,
                         (unsigned long)XML_GetCurrentLineNumber(c->p), what);
    XML_StopParser(c->p, XML_FALSE);
}

static const char *attr(const char **a, const char *name)
{
    for (; a[0]; a += 2)
        if (strcmp(a[0], name) == 0) return a[1];
    return NULL;
}

static size_t pool_add(xl_ctx *c, const char *s, size_t *len)
{
    size_t off = c->pool.len, n = strlen(s);
    sv_buf_append(&c->pool, s, n + 1);
    *len = n;
    return off;
}

static bool parse_u32(const char *s, uint32_t *out)
{
    if (!s || !*s) return false;
    char *end;
    long long v = strtoll(s, &end, 0);
    if (*end || v < INT32_MIN || v > (long long)UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

static void on_start(void *ud, const char *el, const char **a)
{
    xl_ctx *c = ud;
    if (c->st != SV_OK) return;
    if (++c->depth > 64) return fail(c, SV_ERR_DEPTH, "elements nested too deeply");
    if (strcmp(el, "Class") == 0) {
        const char *n = attr(a, "Name");
        if (!n || c->in_class) return fail(c, SV_ERR_SYNTAX, "a <Class> without Name, or nested");
        c->in_class = true;
        c->pool.len = 0;
        c->nprops = c->nopts = 0;
        c->cls_name = pool_add(c, n, &c->cls_len);
    } else if (strcmp(el, "Property") == 0) {
        if (!c->in_class) return fail(c, SV_ERR_SYNTAX, "a <Property> outside <Class>");
        const char *n = attr(a, "Name"), *ty = attr(a, "Type"), *dyn = attr(a, "Dynamic");
        xprop p = {0};
        if (!n || !ty || !parse_u32(attr(a, "PropertyId"), &p.id) ||
            !parse_u32(attr(a, "Flags"), &p.flags))
            return fail(c, SV_ERR_SYNTAX, "a <Property> needs Name, Type, PropertyId and Flags");
        p.name = pool_add(c, n, &p.name_len);
        p.type = pool_add(c, ty, &p.type_len);
        p.dynamic = dyn && strcmp(dyn, "true") == 0;
        p.first_opt = c->nopts;
        if (!sv__core_mem_grow(c->t->alloc, (void **)&c->props, &c->props_cap, c->nprops + 1,
                               sizeof *c->props))
            return fail(c, SV_ERR_NOMEM, "out of memory");
        c->props[c->nprops++] = p;
        c->in_prop = true;
    } else if (strcmp(el, "Option") == 0) {
        if (!c->in_prop) return fail(c, SV_ERR_SYNTAX, "an <Option> outside <Property>");
        const char *n = attr(a, "Name");
        xopt o = {0};
        if (!n || !parse_u32(attr(a, "Value"), &o.value))
            return fail(c, SV_ERR_SYNTAX, "an <Option> needs Name and a numeric Value");
        if (!strcmp(n, "__DEFAULT") || !strcmp(n, "__BASECLASS")) return; /* §6.4 */
        o.name = pool_add(c, n, &o.len);
        if (!sv__core_mem_grow(c->t->alloc, (void **)&c->opts, &c->opts_cap, c->nopts + 1,
                               sizeof *c->opts))
            return fail(c, SV_ERR_NOMEM, "out of memory");
        c->opts[c->nopts++] = o;
        c->props[c->nprops - 1].nopts++;
    }
}

static void finish_class(xl_ctx *c)
{
    if (!sv_buf_ok(&c->pool)) return fail(c, SV_ERR_NOMEM, "out of memory");
    const char *pool = (const char *)c->pool.data;
    const sv_alloc *a = c->t->alloc;
    ki_prop_src *ps = c->nprops ? sv__core_mem_calloc(a, c->nprops, sizeof *ps) : NULL;
    ki_enum_opt *os = c->nopts ? sv__core_mem_calloc(a, c->nopts, sizeof *os) : NULL;
    if ((c->nprops && !ps) || (c->nopts && !os)) {
        sv__core_mem_free(a, ps, c->nprops, sizeof *ps);
        sv__core_mem_free(a, os, c->nopts, sizeof *os);
        return fail(c, SV_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < c->nopts; i++)
        os[i] = (ki_enum_opt){pool + c->opts[i].name, (uint32_t)c->opts[i].len, c->opts[i].value};
    for (size_t i = 0; i < c->nprops; i++) {
        const xprop *x = &c->props[i];
        ps[i] = (ki_prop_src){.name = pool + x->name,
                              .name_len = x->name_len,
                              .type = pool + x->type,
                              .type_len = x->type_len,
                              .id = x->id,
                              .flags = x->flags,
                              .dynamic = x->dynamic,
                              .opts = x->nopts ? os + x->first_opt : NULL,
                              .nopts = (uint32_t)x->nopts};
    }
    const char *name = pool + c->cls_name;
    uint32_t hash = ki_string_id((const uint8_t *)name, c->cls_len);
    sv_status st =
        ki_types_add_class(c->t, name, c->cls_len, hash, ps, c->nprops, c->source, c->err);
    sv__core_mem_free(a, ps, c->nprops, sizeof *ps);
    sv__core_mem_free(a, os, c->nopts, sizeof *os);
    if (st != SV_OK && c->st == SV_OK) {
        c->st = st;
        XML_StopParser(c->p, XML_FALSE);
    }
}

static void on_end(void *ud, const char *el)
{
    xl_ctx *c = ud;
    if (c->depth) c->depth--;
    if (c->st != SV_OK) return;
    if (strcmp(el, "Class") == 0) {
        c->in_class = false;
        finish_class(c);
    } else if (strcmp(el, "Property") == 0) {
        c->in_prop = false;
    }
}

sv_status ki_load_classlist_xml(sv_kingsisle_types *t, const uint8_t *data, size_t len,
                                const char *source, sv_error *err)
{
    xl_ctx c;
    memset(&c, 0, sizeof c);
    c.t = t;
    c.source = source;
    c.err = err;
    sv_buf_init(&c.pool, t->alloc);
    c.p = XML_ParserCreate("UTF-8");
    if (!c.p) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    XML_SetUserData(c.p, &c);
    XML_SetElementHandler(c.p, on_start, on_end);
    if (len > INT32_MAX) {
        XML_ParserFree(c.p);
        return sv_error_set(err, SV_ERR_LIMIT, KI_FORMAT, 0, "%s: too large", source);
    }
    if (XML_Parse(c.p, (const char *)data, (int)len, XML_TRUE) == XML_STATUS_ERROR && c.st == SV_OK)
        c.st =
            sv_error_set(err, SV_ERR_SYNTAX, KI_FORMAT, (uint64_t)XML_GetCurrentByteIndex(c.p),
                         "%s: line %lu: %s", source, (unsigned long)XML_GetCurrentLineNumber(c.p),
                         XML_ErrorString(XML_GetErrorCode(c.p)));
    XML_ParserFree(c.p);
    sv_buf_free(&c.pool);
    sv__core_mem_free(t->alloc, c.props, c.props_cap, sizeof *c.props);
    sv__core_mem_free(t->alloc, c.opts, c.opts_cap, sizeof *c.opts);
    return c.st;
}
