/* Schemas: merging a finalised schema into one being built. Each part of
 * the source is looked up once by name and either copied or compared, so a
 * merge is linear in the source's size. A part defined differently on the
 * two sides is a conflict that names both sources. */
#include <stdio.h>
#include <string.h>

#include "schema/schema_internal.h"

static const char *src_name(const char *source)
{
    return source && source[0] ? source : "(unnamed)";
}

static sv_status conflict(sv_error *err, const char *what, const char *name, const char *detail,
                          const char *a, const char *b)
{
    return sv__schema_fail(err, SV_ERR_SYNTAX, "%s '%s' %s in '%s' and in '%s'", what, name, detail,
                           src_name(a), src_name(b));
}

static sv_status merge_enum(sv_schema *dst, const sv_schema_enum *e, sv_error *err)
{
    const sv_schema_enum *d = sv_schema_enum_by_name(dst, e->name, strlen(e->name));
    if (d) {
        if (d->underlying != e->underlying || d->bits != e->bits || d->nvalues != e->nvalues)
            return conflict(err, "enum", e->name, "is defined differently", d->source, e->source);
        for (uint32_t i = 0; i < e->nvalues; i++)
            if (strcmp(d->values[i].name, e->values[i].name) != 0 ||
                d->values[i].value != e->values[i].value)
                return conflict(err, "enum", e->name, "has different values", d->source, e->source);
        return SV_OK;
    }
    if (sv_schema_class_by_name(dst, e->name, strlen(e->name)))
        return conflict(err, "enum", e->name, "is also a class", e->source,
                        sv_schema_class_by_name(dst, e->name, strlen(e->name))->source);
    sv_schema_enum *n;
    sv_status st = sv_schema_add_enum(dst, e->name, e->underlying, e->bits, &n, err);
    for (uint32_t i = 0; !st && i < e->nvalues; i++)
        st = sv_schema_enum_add(dst, n, e->values[i].name, e->values[i].value, err);
    if (!st) n->source = sv__schema_intern(dst, e->source, strlen(e->source));
    return st;
}

static bool same_field(const sv_schema_field *a, const sv_schema_field *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->type->text, b->type->text) == 0 &&
           a->flags == b->flags && a->has_hash == b->has_hash && a->hash == b->hash &&
           a->has_id == b->has_id && a->id == b->id && strcmp(a->native, b->native) == 0 &&
           !a->def == !b->def && (!a->def || sv_equal(a->def, b->def)) && a->c == b->c;
}

/* Compares a class that both sides define; the first difference is the
 * conflict reported. */
static sv_status compare_class(const sv_schema_class *d, const sv_schema_class *c, sv_error *err)
{
    char detail[120];
    if (d->has_hash != c->has_hash || d->hash != c->hash) {
        if (d->has_hash && c->has_hash)
            return sv__schema_fail(err, SV_ERR_SYNTAX,
                                   "class '%s' has hash %u in '%s' and hash %u in '%s'", c->name,
                                   d->hash, src_name(d->source), c->hash, src_name(c->source));
        return conflict(err, "class", c->name, "has a hash in only one of its definitions",
                        d->source, c->source);
    }
    if (d->has_uuid != c->has_uuid || memcmp(d->uuid.b, c->uuid.b, 16) != 0) {
        if (d->has_uuid && c->has_uuid) {
            char u1[39], u2[39];
            sv_uuid_format(&d->uuid, true, u1);
            sv_uuid_format(&c->uuid, true, u2);
            return sv__schema_fail(err, SV_ERR_SYNTAX,
                                   "class '%s' has UUID %s in '%s' and UUID %s in '%s'", c->name,
                                   u1, src_name(d->source), u2, src_name(c->source));
        }
        return conflict(err, "class", c->name, "has a UUID in only one of its definitions",
                        d->source, c->source);
    }
    if (d->has_version != c->has_version || d->version != c->version) {
        snprintf(detail, sizeof detail, "has version %u and version %u", d->version, c->version);
        return conflict(err, "class", c->name, detail, d->source, c->source);
    }
    const sv_schema__class_index *di = sv__schema_cls(d);
    bool bases_same = d->nbases == c->nbases;
    for (uint32_t i = 0; bases_same && i < c->nbases; i++)
        bases_same = strcmp(di->base_names[i], c->bases[i]->name) == 0;
    if (!bases_same)
        return conflict(err, "class", c->name, "has different bases", d->source, c->source);
    if (d->nfields != c->nfields)
        return conflict(err, "class", c->name, "has different fields", d->source, c->source);
    for (uint32_t i = 0; i < c->nfields; i++)
        if (!same_field(&d->fields[i], &c->fields[i])) {
            snprintf(detail, sizeof detail, "has a different field '%s'", c->fields[i].name);
            return conflict(err, "class", c->name, detail, d->source, c->source);
        }
    if (d->c != c->c)
        return conflict(err, "class", c->name, "is bound to different C structs", d->source,
                        c->source);
    return SV_OK;
}

static sv_status merge_class(sv_schema *dst, const sv_schema_class *c, sv_error *err)
{
    const sv_schema_class *d = sv_schema_class_by_name(dst, c->name, strlen(c->name));
    if (d) return compare_class(d, c, err);
    const sv_schema_enum *e = sv_schema_enum_by_name(dst, c->name, strlen(c->name));
    if (e) return conflict(err, "class", c->name, "is also an enum", c->source, e->source);
    sv_schema_class *n;
    sv_status st = sv_schema_add_class(dst, c->name, &n, err);
    if (st) return st;
    n->source = sv__schema_intern(dst, c->source, strlen(c->source));
    n->has_hash = c->has_hash, n->hash = c->hash;
    n->has_uuid = c->has_uuid, n->uuid = c->uuid;
    n->has_version = c->has_version, n->version = c->version;
    n->c = c->c;
    for (uint32_t i = 0; !st && i < c->nbases; i++)
        st = sv_schema_class_add_base(dst, n, c->bases[i]->name, err);
    for (uint32_t i = 0; !st && i < c->nfields; i++) {
        const sv_schema_field *f = &c->fields[i];
        sv_schema_field *nf;
        st = sv_schema_class_add_field(dst, n, f->name, f->type->text, &nf, err);
        if (st) break;
        nf->flags = f->flags;
        nf->has_hash = f->has_hash, nf->hash = f->hash;
        nf->has_id = f->has_id, nf->id = f->id;
        nf->c = f->c, nf->c_offset = f->c_offset, nf->c_size = f->c_size;
        if (f->native[0]) st = sv_schema_field_set_native(dst, nf, f->native, err);
        if (!st && f->def) st = sv_schema_field_set_default(dst, nf, f->def, err);
    }
    return st;
}

sv_status sv_schema_merge(sv_schema *dst, const sv_schema *src, sv_error *err)
{
    sv_error_clear(err);
    if (!dst || !src) return sv__schema_fail(err, SV_ERR_USAGE, "no schema");
    if (dst->final)
        return sv__schema_fail(err, SV_ERR_USAGE, "the target schema is already finalised");
    if (!src->final)
        return sv__schema_fail(err, SV_ERR_USAGE, "the merged schema is not finalised");
    for (size_t i = 0; i < src->nenums; i++) {
        sv_status st = merge_enum(dst, src->enums[i], err);
        if (st) return st;
    }
    for (size_t i = 0; i < src->nclasses; i++) {
        sv_status st = merge_class(dst, src->classes[i], err);
        if (st) return st;
    }
    return SV_OK;
}
