/* Schemas: the store -- making a schema, adding enums, classes, bases and
 * fields, and the lookups by name, hash and UUID. */
#include <string.h>

#include "schema/schema_internal.h"

const char *sv__schema_intern(sv_schema *s, const char *str, size_t len)
{
    sv_value v = sv_str_intern(s->doc, str, len);
    return v.kind == SV_STRING ? v.as.str : NULL;
}

void *sv__schema_zalloc(sv_schema *s, size_t size)
{
    void *p = sv_doc_alloc(s->doc, size ? size : 1);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

sv_schema *sv_schema_new(const sv_alloc *alloc)
{
    if (!alloc) alloc = sv_alloc_libc();
    sv_schema *s = alloc->malloc(alloc->ctx, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->alloc = *alloc;
    s->doc = sv_doc_new(alloc);
    if (!s->doc) {
        alloc->free(alloc->ctx, s, sizeof *s);
        return NULL;
    }
    s->source = "";
    return s;
}

static void free_index(sv_schema *s, uint32_t *tab, uint32_t cap)
{
    if (tab) s->alloc.free(s->alloc.ctx, tab, (size_t)cap * sizeof *tab);
}

void sv_schema_free(sv_schema *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nclasses; i++) {
        sv_schema__class_index *ci = sv__schema_cls(s->classes[i]);
        free_index(s, ci->by_name, ci->tab_cap);
        free_index(s, ci->by_hash, ci->tab_cap);
        free_index(s, ci->by_id, ci->tab_cap);
    }
    for (size_t i = 0; i < s->nenums; i++) {
        sv_schema__enum_index *ei = sv__schema_enm(s->enums[i]);
        free_index(s, ei->by_name, ei->tab_cap);
        free_index(s, ei->by_value, ei->tab_cap);
    }
    if (s->classes) s->alloc.free(s->alloc.ctx, s->classes, s->class_cap * sizeof *s->classes);
    if (s->enums) s->alloc.free(s->alloc.ctx, s->enums, s->enum_cap * sizeof *s->enums);
    sv__tab *tabs[] = {&s->class_names, &s->enum_names, &s->class_hashes,
                       &s->class_uuids, &s->class_ids,  &s->types};
    for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++)
        sv__schema_tab_free(tabs[i], &s->alloc);
    sv_doc_free(s->doc);
    sv_alloc a = s->alloc;
    a.free(a.ctx, s, sizeof *s);
}

sv_status sv_schema_set_source(sv_schema *s, const char *source)
{
    if (!s) return SV_ERR_USAGE;
    const char *src = sv__schema_intern(s, source ? source : "", source ? strlen(source) : 0);
    if (!src) return SV_ERR_NOMEM;
    s->source = src;
    return SV_OK;
}

bool sv_schema_is_final(const sv_schema *s)
{
    return s && s->final;
}

/* Grows a list of pointers by doubling (memory from the schema's allocator). */
static bool list_push(sv_schema *s, void ***list, size_t *n, size_t *cap, void *item)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        void **nl = s->alloc.realloc(s->alloc.ctx, *list, *cap * sizeof **list, nc * sizeof **list);
        if (!nl) return false;
        *list = nl;
        *cap = nc;
    }
    (*list)[(*n)++] = item;
    return true;
}

/* ---- name lookups ---------------------------------------------------------- */

typedef struct name_key {
    const char *name;
    size_t len;
} name_key;

static bool class_name_eq(const void *item, const void *key)
{
    const sv_schema_class *c = item;
    const name_key *k = key;
    return strncmp(c->name, k->name, k->len) == 0 && c->name[k->len] == '\0';
}

static bool enum_name_eq(const void *item, const void *key)
{
    const sv_schema_enum *e = item;
    const name_key *k = key;
    return strncmp(e->name, k->name, k->len) == 0 && e->name[k->len] == '\0';
}

const sv_schema_class *sv_schema_class_by_name(const sv_schema *s, const char *name, size_t len)
{
    if (!s || !name) return NULL;
    name_key k = {name, len};
    return sv__schema_tab_find(&s->class_names, sv__schema_hash_str(name, len), class_name_eq, &k);
}

const sv_schema_enum *sv_schema_enum_by_name(const sv_schema *s, const char *name, size_t len)
{
    if (!s || !name) return NULL;
    name_key k = {name, len};
    return sv__schema_tab_find(&s->enum_names, sv__schema_hash_str(name, len), enum_name_eq, &k);
}

static bool class_hash_eq(const void *item, const void *key)
{
    return ((const sv_schema_class *)item)->hash == *(const uint32_t *)key;
}

const sv_schema_class *sv_schema_class_by_hash(const sv_schema *s, uint32_t hash)
{
    if (!s) return NULL;
    return sv__schema_tab_find(&s->class_hashes, sv__schema_hash_u64(hash), class_hash_eq, &hash);
}

static bool class_uuid_eq(const void *item, const void *key)
{
    return memcmp(((const sv_schema_class *)item)->uuid.b, key, 16) == 0;
}

const sv_schema_class *sv_schema_class_by_uuid(const sv_schema *s, const sv_uuid *uuid)
{
    if (!s || !uuid) return NULL;
    return sv__schema_tab_find(&s->class_uuids, sv__schema_hash_str((const char *)uuid->b, 16),
                               class_uuid_eq, uuid->b);
}

size_t sv_schema_class_count(const sv_schema *s)
{
    return s ? s->nclasses : 0;
}
size_t sv_schema_enum_count(const sv_schema *s)
{
    return s ? s->nenums : 0;
}
const sv_schema_class *sv_schema_class_at(const sv_schema *s, size_t i)
{
    return s && i < s->nclasses ? s->classes[i] : NULL;
}
const sv_schema_enum *sv_schema_enum_at(const sv_schema *s, size_t i)
{
    return s && i < s->nenums ? s->enums[i] : NULL;
}

/* ---- adding ------------------------------------------------------------------ */

/* A new name must not be taken by a class, an enum, a primitive or a generic,
 * and must be usable inside a type expression. */
static sv_status check_new_name(sv_schema *s, const char *what, const char *name, sv_error *err)
{
    size_t len = strlen(name);
    if (len == 0) return sv__schema_fail(err, SV_ERR_SYNTAX, "%s name is empty", what);
    if (name[0] == ' ' || name[len - 1] == ' ' || strpbrk(name, "<>,\t\r\n"))
        return sv__schema_fail(err, SV_ERR_SYNTAX,
                               "%s name '%s' has a character a type expression cannot hold", what,
                               name);
    if (sv_prim_by_name(name, len) != SV_PRIM_COUNT ||
        sv_generic_by_name(name, len) != SV_GEN_COUNT)
        return sv__schema_fail(err, SV_ERR_SYNTAX, "%s name '%s' is a built-in type name", what,
                               name);
    if (sv_schema_class_by_name(s, name, len))
        return sv__schema_fail(err, SV_ERR_SYNTAX, "duplicate name '%s': already a class", name);
    if (sv_schema_enum_by_name(s, name, len))
        return sv__schema_fail(err, SV_ERR_SYNTAX, "duplicate name '%s': already an enum", name);
    return SV_OK;
}

static sv_status nomem(sv_error *err)
{
    return sv__schema_fail(err, SV_ERR_NOMEM, "out of memory");
}

static sv_status check_open(sv_schema *s, sv_error *err)
{
    if (!s) return sv__schema_fail(err, SV_ERR_USAGE, "no schema");
    if (s->final) return sv__schema_fail(err, SV_ERR_USAGE, "schema is already finalised");
    return SV_OK;
}

sv_status sv_schema_add_enum(sv_schema *s, const char *name, sv_prim underlying, bool bits,
                             sv_schema_enum **out, sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!name) return sv__schema_fail(err, SV_ERR_USAGE, "no enum name");
    if ((st = check_new_name(s, "enum", name, err))) return st;
    if (sv_prim_int_width(underlying) == 0)
        return sv__schema_fail(err, SV_ERR_TYPE,
                               "enum '%s': underlying type '%s' is not an integer", name,
                               sv_prim_name(underlying));
    sv_schema_enum *e = sv__schema_zalloc(s, sizeof *e);
    sv_schema__enum_index *ei = sv__schema_zalloc(s, sizeof *ei);
    const char *iname = sv__schema_intern(s, name, strlen(name));
    if (!e || !ei || !iname) return nomem(err);
    e->name = iname;
    e->underlying = underlying;
    e->bits = bits;
    e->source = s->source;
    e->index = (uint32_t)s->nenums;
    e->index_ = ei;
    if (!list_push(s, (void ***)&s->enums, &s->nenums, &s->enum_cap, e) ||
        !sv__schema_tab_put(&s->enum_names, &s->alloc, sv__schema_hash_str(iname, strlen(iname)),
                            e))
        return nomem(err);
    if (out) *out = e;
    return SV_OK;
}

/* Does v (bits, sign-extended for signed types) fit the integer type p? */
static bool fits(sv_prim p, uint64_t v)
{
    int w = sv_prim_int_width(p);
    if (w == 8) return true;
    if (sv_prim_is_signed(p)) {
        int64_t lim = (int64_t)1 << (8 * w - 1);
        int64_t i = (int64_t)v;
        return i >= -lim && i < lim;
    }
    return v < ((uint64_t)1 << (8 * w));
}

sv_status sv_schema_enum_add(sv_schema *s, sv_schema_enum *e, const char *name, uint64_t value,
                             sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!e || !name) return sv__schema_fail(err, SV_ERR_USAGE, "no enum or value name");
    size_t len = strlen(name);
    if (len == 0)
        return sv__schema_fail(err, SV_ERR_SYNTAX, "enum '%s': empty value name", e->name);
    if (!fits(e->underlying, value)) {
        if (sv_prim_is_signed(e->underlying))
            return sv__schema_fail(err, SV_ERR_RANGE,
                                   "enum '%s': value %lld of '%s' does not fit %s", e->name,
                                   (long long)(int64_t)value, name, sv_prim_name(e->underlying));
        return sv__schema_fail(err, SV_ERR_RANGE, "enum '%s': value %llu of '%s' does not fit %s",
                               e->name, (unsigned long long)value, name,
                               sv_prim_name(e->underlying));
    }
    /* duplicate names are found by sv_schema_finalize, in linear time */
    sv_schema__enum_index *ei = sv__schema_enm(e);
    if (e->nvalues == ei->value_cap) {
        uint32_t nc = ei->value_cap ? ei->value_cap * 2 : 8;
        void *nv = sv_doc_realloc(s->doc, (void *)e->values, ei->value_cap * sizeof *e->values,
                                  nc * sizeof *e->values);
        if (!nv) return nomem(err);
        e->values = nv;
        ei->value_cap = nc;
    }
    const char *iname = sv__schema_intern(s, name, len);
    if (!iname) return nomem(err);
    sv_schema_enum_value *vals = (sv_schema_enum_value *)e->values;
    vals[e->nvalues].name = iname;
    vals[e->nvalues].value = value;
    e->nvalues++;
    return SV_OK;
}

sv_status sv_schema_add_class(sv_schema *s, const char *name, sv_schema_class **out, sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!name) return sv__schema_fail(err, SV_ERR_USAGE, "no class name");
    if ((st = check_new_name(s, "class", name, err))) return st;
    sv_schema_class *c = sv__schema_zalloc(s, sizeof *c);
    sv_schema__class_index *ci = sv__schema_zalloc(s, sizeof *ci);
    const char *iname = sv__schema_intern(s, name, strlen(name));
    if (!c || !ci || !iname) return nomem(err);
    c->name = iname;
    c->source = s->source;
    c->index = (uint32_t)s->nclasses;
    c->index_ = ci;
    ci->pub = c;
    if (!list_push(s, (void ***)&s->classes, &s->nclasses, &s->class_cap, c) ||
        !sv__schema_tab_put(&s->class_names, &s->alloc, sv__schema_hash_str(iname, strlen(iname)),
                            c))
        return nomem(err);
    if (out) *out = c;
    return SV_OK;
}

void sv_schema_class_set_hash(sv_schema_class *c, uint32_t hash)
{
    if (!c) return;
    c->hash = hash;
    c->has_hash = true;
}

void sv_schema_class_set_uuid(sv_schema_class *c, const sv_uuid *uuid)
{
    if (!c || !uuid) return;
    c->uuid = *uuid;
    c->has_uuid = true;
}

void sv_schema_class_set_version(sv_schema_class *c, uint32_t version)
{
    if (!c) return;
    c->version = version;
    c->has_version = true;
}

sv_status sv_schema_class_add_base(sv_schema *s, sv_schema_class *c, const char *base,
                                   sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!c || !base) return sv__schema_fail(err, SV_ERR_USAGE, "no class or base name");
    sv_schema__class_index *ci = sv__schema_cls(c);
    if (c->nbases == ci->base_cap) {
        uint32_t nc = ci->base_cap ? ci->base_cap * 2 : 2;
        void *nb = sv_doc_realloc(s->doc, ci->base_names, ci->base_cap * sizeof *ci->base_names,
                                  nc * sizeof *ci->base_names);
        if (!nb) return nomem(err);
        ci->base_names = nb;
        ci->base_cap = nc;
    }
    const char *iname = sv__schema_intern(s, base, strlen(base));
    if (!iname) return nomem(err);
    ci->base_names[c->nbases++] = iname;
    return SV_OK;
}

bool sv__schema_reserve_fields(sv_schema *s, sv_schema_class *c, uint32_t n)
{
    sv_schema__class_index *ci = sv__schema_cls(c);
    if (n <= ci->field_cap) return true;
    void *nf = sv_doc_realloc(s->doc, (void *)c->fields, ci->field_cap * sizeof *c->fields,
                              (size_t)n * sizeof *c->fields);
    if (!nf) return false;
    c->fields = nf;
    ci->field_cap = n;
    return true;
}

sv_status sv_schema_class_add_field(sv_schema *s, sv_schema_class *c, const char *name,
                                    const char *type, sv_schema_field **out, sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!c || !name || !type) return sv__schema_fail(err, SV_ERR_USAGE, "no class, field or type");
    size_t len = strlen(name);
    if (len == 0)
        return sv__schema_fail(err, SV_ERR_SYNTAX, "class '%s': empty field name", c->name);
    /* duplicate names are found by sv_schema_finalize, in linear time */
    const sv_type *t;
    if ((st = sv_schema_parse_type(s, type, strlen(type), &t, err))) return st;
    sv_schema__class_index *ci = sv__schema_cls(c);
    if (c->nfields == ci->field_cap) {
        uint32_t nc = ci->field_cap ? ci->field_cap * 2 : 4;
        void *nf = sv_doc_realloc(s->doc, (void *)c->fields, ci->field_cap * sizeof *c->fields,
                                  nc * sizeof *c->fields);
        if (!nf) return nomem(err);
        c->fields = nf;
        ci->field_cap = nc;
    }
    const char *iname = sv__schema_intern(s, name, len);
    if (!iname) return nomem(err);
    sv_schema_field *f = (sv_schema_field *)&c->fields[c->nfields];
    memset(f, 0, sizeof *f);
    f->name = iname;
    f->native = "";
    f->type = t;
    f->owner = c;
    f->index = c->nfields++;
    if (out) *out = f;
    return SV_OK;
}

void sv_schema_field_set_hash(sv_schema_field *f, uint32_t hash)
{
    if (!f) return;
    f->hash = hash;
    f->has_hash = true;
}

void sv_schema_field_set_id(sv_schema_field *f, uint32_t id)
{
    if (!f) return;
    f->id = id;
    f->has_id = true;
}

void sv_schema_field_set_flags(sv_schema_field *f, uint32_t flags)
{
    if (f) f->flags = flags;
}

sv_status sv_schema_field_set_native(sv_schema *s, sv_schema_field *f, const char *native,
                                     sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!f || !native) return sv__schema_fail(err, SV_ERR_USAGE, "no field or native type");
    const char *n = sv__schema_intern(s, native, strlen(native));
    if (!n) return nomem(err);
    f->native = n;
    return SV_OK;
}

sv_status sv_schema_field_set_default(sv_schema *s, sv_schema_field *f, const sv_value *def,
                                      sv_error *err)
{
    sv_status st = check_open(s, err);
    if (st) return st;
    if (!f) return sv__schema_fail(err, SV_ERR_USAGE, "no field");
    if (!def) {
        f->def = NULL;
        return SV_OK;
    }
    sv_value *copy = sv__schema_zalloc(s, sizeof *copy);
    if (!copy) return nomem(err);
    *copy = sv_copy(s->doc, def);
    if (sv_doc_status(s->doc)) return nomem(err);
    f->def = copy;
    return SV_OK;
}
