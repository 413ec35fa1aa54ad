/* Schemas: the per-class field index (by name, hash and id over the full
 * field list), the per-enum value index, and is_a. */
#include <string.h>

#include "schema/schema_internal.h"

static uint32_t table_cap(uint32_t n)
{
    uint32_t cap = 16;
    while (cap < n * 2) cap *= 2;
    return cap;
}

static uint32_t *table_new(sv_schema *s, uint32_t cap)
{
    uint32_t *t = s->alloc.malloc(s->alloc.ctx, (size_t)cap * sizeof *t);
    if (t) memset(t, 0, (size_t)cap * sizeof *t);
    return t;
}

/* Puts index i under hash h, replacing an entry that same() says is equal
 * (the later entry wins: a derived class's field hides its base's). */
typedef bool (*same_fn)(const void *ctx, uint32_t a, uint32_t b);

static void table_put(uint32_t *t, uint32_t cap, uint64_t h, uint32_t i, same_fn same,
                      const void *ctx)
{
    uint32_t mask = cap - 1;
    for (uint32_t j = (uint32_t)h & mask;; j = (j + 1) & mask) {
        if (!t[j] || same(ctx, t[j] - 1, i)) {
            t[j] = i + 1;
            return;
        }
    }
}

static bool field_same_name(const void *ctx, uint32_t a, uint32_t b)
{
    const sv_schema_field *const *all = ctx;
    return strcmp(all[a]->name, all[b]->name) == 0;
}
static bool field_same_hash(const void *ctx, uint32_t a, uint32_t b)
{
    const sv_schema_field *const *all = ctx;
    return all[a]->hash == all[b]->hash;
}
static bool field_same_id(const void *ctx, uint32_t a, uint32_t b)
{
    const sv_schema_field *const *all = ctx;
    return all[a]->id == all[b]->id;
}

/* Each class indexes its own fields only (when it has more than
 * SV_FIELD_SCAN_MAX of them; fewer are scanned). A lookup in the full list
 * asks the class, then its ancestors from the nearest base out: a handful of
 * probes whatever the schema's size, and memory linear in the fields. */
sv_status sv__schema_build_field_index(sv_schema *s, sv_schema_class *c)
{
    sv_schema__class_index *ci = sv__schema_cls(c);
    if (c->nfields <= SV_FIELD_SCAN_MAX) return SV_OK;
    uint32_t cap = table_cap(c->nfields);
    ci->by_name = table_new(s, cap);
    ci->by_hash = table_new(s, cap);
    ci->by_id = table_new(s, cap);
    ci->tab_cap = cap;
    if (!ci->by_name || !ci->by_hash || !ci->by_id) return SV_ERR_NOMEM;
    const sv_schema_field **own = s->alloc.malloc(s->alloc.ctx, c->nfields * sizeof *own);
    if (!own) return SV_ERR_NOMEM;
    for (uint32_t i = 0; i < c->nfields; i++) own[i] = &c->fields[i];
    for (uint32_t i = 0; i < c->nfields; i++) {
        const sv_schema_field *f = own[i];
        table_put(ci->by_name, cap, sv__schema_hash_str(f->name, strlen(f->name)), i,
                  field_same_name, own);
        if (f->has_hash)
            table_put(ci->by_hash, cap, sv__schema_hash_u64(f->hash), i, field_same_hash, own);
        if (f->has_id) table_put(ci->by_id, cap, sv__schema_hash_u64(f->id), i, field_same_id, own);
    }
    s->alloc.free(s->alloc.ctx, own, c->nfields * sizeof *own);
    return SV_OK;
}

enum { BY_NAME, BY_HASH, BY_ID };

/* Index of an own field of c, or UINT32_MAX. */
static uint32_t own_find(const sv_schema_class *c, int by, const char *name, size_t len, uint64_t h,
                         uint32_t num)
{
    const sv_schema__class_index *ci = sv__schema_cls(c);
    if (!ci->tab_cap) {
        /* the last match: a later field of the same hash or id wins */
        for (uint32_t i = c->nfields; i-- > 0;) {
            const sv_schema_field *f = &c->fields[i];
            if (by == BY_NAME   ? strncmp(f->name, name, len) == 0 && f->name[len] == '\0'
                : by == BY_HASH ? f->has_hash && f->hash == num
                                : f->has_id && f->id == num)
                return i;
        }
        return UINT32_MAX;
    }
    const uint32_t *t = by == BY_NAME ? ci->by_name : by == BY_HASH ? ci->by_hash : ci->by_id;
    uint32_t mask = ci->tab_cap - 1;
    for (uint32_t j = (uint32_t)h & mask;; j = (j + 1) & mask) {
        if (!t[j]) return UINT32_MAX;
        const sv_schema_field *f = &c->fields[t[j] - 1];
        if (by == BY_NAME   ? strncmp(f->name, name, len) == 0 && f->name[len] == '\0'
            : by == BY_HASH ? f->hash == num
                            : f->id == num)
            return t[j] - 1;
    }
}

/* Position in c's full list of the field found, nearest class first. */
static size_t full_find(const sv_schema_class *c, int by, const char *name, size_t len,
                        uint32_t num)
{
    const sv_schema__class_index *ci = c ? sv__schema_cls(c) : NULL;
    if (!ci || !ci->all || (by == BY_NAME && !name)) return SIZE_MAX;
    uint64_t h = by == BY_NAME ? sv__schema_hash_str(name, len) : sv__schema_hash_u64(num);
    for (uint32_t a = ci->nanc; a-- > 0;) {
        uint32_t j = own_find(ci->anc[a], by, name, len, h, num);
        if (j != UINT32_MAX) return ci->anc_off[a] + j;
    }
    return SIZE_MAX;
}

size_t sv__schema_field_index(const sv_schema_class *c, const char *name, size_t len)
{
    return full_find(c, BY_NAME, name, len, 0);
}

const sv_schema_field *const *sv_schema_class_fields(const sv_schema_class *c, size_t *count)
{
    const sv_schema__class_index *ci = c ? sv__schema_cls(c) : NULL;
    if (count) *count = ci && ci->all ? ci->nall : 0;
    return ci ? ci->all : NULL;
}

const sv_schema_field *sv_schema_field_by_name(const sv_schema_class *c, const char *name,
                                               size_t len)
{
    size_t i = full_find(c, BY_NAME, name, len, 0);
    return i == SIZE_MAX ? NULL : sv__schema_cls(c)->all[i];
}

const sv_schema_field *sv_schema_field_by_hash(const sv_schema_class *c, uint32_t hash)
{
    size_t i = full_find(c, BY_HASH, NULL, 0, hash);
    return i == SIZE_MAX ? NULL : sv__schema_cls(c)->all[i];
}

const sv_schema_field *sv_schema_field_by_id(const sv_schema_class *c, uint32_t id)
{
    size_t i = full_find(c, BY_ID, NULL, 0, id);
    return i == SIZE_MAX ? NULL : sv__schema_cls(c)->all[i];
}

bool sv_schema_is_a(const sv_schema_class *derived, const sv_schema_class *base)
{
    if (!derived || !base) return false;
    if (derived == base) return true;
    /* the ancestors list is short (bases nest at most SV_BASE_MAX_DEPTH deep) */
    const sv_schema__class_index *ci = sv__schema_cls(derived);
    for (uint32_t i = 0; i < ci->nanc; i++)
        if (ci->anc[i] == base) return true;
    return false;
}

/* ---- enums --------------------------------------------------------------------- */

static bool value_same_name(const void *ctx, uint32_t a, uint32_t b)
{
    (void)ctx, (void)a, (void)b;
    return false; /* duplicates were refused before */
}
static bool value_keep_first(const void *ctx, uint32_t a, uint32_t b)
{
    (void)ctx, (void)a, (void)b;
    return false;
}

sv_status sv__schema_build_enum_index(sv_schema *s, sv_schema_enum *e)
{
    sv_schema__enum_index *ei = sv__schema_enm(e);
    if (e->nvalues <= SV_FIELD_SCAN_MAX) return SV_OK;
    uint32_t cap = table_cap(e->nvalues);
    ei->by_name = table_new(s, cap);
    ei->by_value = table_new(s, cap);
    ei->tab_cap = cap;
    if (!ei->by_name || !ei->by_value) return SV_ERR_NOMEM;
    uint32_t mask = cap - 1;
    for (uint32_t i = 0; i < e->nvalues; i++) {
        const sv_schema_enum_value *v = &e->values[i];
        table_put(ei->by_name, cap, sv__schema_hash_str(v->name, strlen(v->name)), i,
                  value_same_name, NULL);
        /* by value: the first registered name of a value is the one found */
        uint32_t j = (uint32_t)sv__schema_hash_u64(v->value) & mask;
        bool seen = false;
        for (; ei->by_value[j]; j = (j + 1) & mask)
            if (e->values[ei->by_value[j] - 1].value == v->value) {
                seen = true;
                break;
            }
        if (!seen)
            table_put(ei->by_value, cap, sv__schema_hash_u64(v->value), i, value_keep_first, NULL);
    }
    return SV_OK;
}

const sv_schema_enum_value *sv_schema_enum_value_by_name(const sv_schema_enum *e, const char *name,
                                                         size_t len)
{
    if (!e || !name) return NULL;
    const sv_schema__enum_index *ei = sv__schema_enm(e);
    if (!ei->tab_cap) {
        for (uint32_t i = 0; i < e->nvalues; i++) {
            const char *n = e->values[i].name;
            if (strncmp(n, name, len) == 0 && n[len] == '\0') return &e->values[i];
        }
        return NULL;
    }
    uint32_t mask = ei->tab_cap - 1;
    for (uint32_t j = (uint32_t)sv__schema_hash_str(name, len) & mask;; j = (j + 1) & mask) {
        if (!ei->by_name[j]) return NULL;
        const sv_schema_enum_value *v = &e->values[ei->by_name[j] - 1];
        if (strncmp(v->name, name, len) == 0 && v->name[len] == '\0') return v;
    }
}

const sv_schema_enum_value *sv_schema_enum_value_by_value(const sv_schema_enum *e, uint64_t value)
{
    if (!e) return NULL;
    const sv_schema__enum_index *ei = sv__schema_enm(e);
    if (!ei->tab_cap) {
        for (uint32_t i = 0; i < e->nvalues; i++)
            if (e->values[i].value == value) return &e->values[i];
        return NULL;
    }
    uint32_t mask = ei->tab_cap - 1;
    for (uint32_t j = (uint32_t)sv__schema_hash_u64(value) & mask;; j = (j + 1) & mask) {
        if (!ei->by_value[j]) return NULL;
        const sv_schema_enum_value *v = &e->values[ei->by_value[j] - 1];
        if (v->value == value) return v;
    }
}
