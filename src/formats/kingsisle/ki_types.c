/* The compiled type list: classes by hash and name, properties sorted by id
 * with their encoding resolved once (so the codec never compares type
 * strings per value, §13), and lookups by property hash and name. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "formats/kingsisle/ki_internal.h"

/* ---- leaf types (§6.1) ------------------------------------------------------ */

typedef struct leaf_row {
    const char *name;
    uint8_t kind, bits;
} leaf_row;

static const leaf_row leaf_rows[] = {
    {"bool", KI_BOOL, 0},
    {"char", KI_I8, 0},
    {"unsigned char", KI_U8, 0},
    {"short", KI_I16, 0},
    {"unsigned short", KI_U16, 0},
    {"wchar_t", KI_WCHAR, 0},
    {"int", KI_I32, 0},
    {"long", KI_I32, 0}, /* 32-bit, LLP64 */
    {"unsigned int", KI_U32, 0},
    {"unsigned long", KI_U32, 0},
    {"float", KI_F32, 0},
    {"double", KI_F64, 0},
    {"unsigned __int64", KI_U64, 0},
    {"gid", KI_U64, 0},
    {"union gid", KI_U64, 0},
    {"__int64", KI_I64, 0}, /* accepted defensively (§6.1) */
    {"long long", KI_I64, 0},
    {"unsigned long long", KI_U64, 0},
    {"bi2", KI_BITS_S, 2},
    {"bi3", KI_BITS_S, 3},
    {"bi4", KI_BITS_S, 4},
    {"bi5", KI_BITS_S, 5},
    {"bi6", KI_BITS_S, 6},
    {"bi7", KI_BITS_S, 7},
    {"bui2", KI_BITS_U, 2},
    {"bui3", KI_BITS_U, 3},
    {"bui4", KI_BITS_U, 4},
    {"bui5", KI_BITS_U, 5},
    {"bui6", KI_BITS_U, 6},
    {"bui7", KI_BITS_U, 7},
    {"s24", KI_BITS_S, 24},
    {"u24", KI_BITS_U, 24},
    {"std::string", KI_STR, 0},
    {"std::wstring", KI_WSTR, 0},
    {"class Color", KI_COLOR, 0},
    {"class Vector3D", KI_VEC3, 0},
    {"class Euler", KI_EULER, 0},
    {"class Quaternion", KI_QUAT, 0},
    {"class Matrix3x3", KI_MAT3, 0},
    {"class Size<int>", KI_SIZE_I, 0},
    {"class Point<int>", KI_POINT_I, 0},
    {"class Point<float>", KI_POINT_F, 0},
    {"class Point<unsigned char>", KI_POINT_U8, 0},
    {"class Point<unsigned int>", KI_POINT_U32, 0},
    {"class Rect<int>", KI_RECT_I, 0},
    {"class Rect<float>", KI_RECT_F, 0},
    /* no known encoding (§6.1): raw bits in deep mode, an error in shallow */
    {"class SerializedBuffer", KI_OPAQUE, 0},
    {"struct SimpleVert", KI_OPAQUE, 0},
    {"struct SimpleFace", KI_OPAQUE, 0},
};

ki_kind ki_kind_of_type(const char *type, size_t len, uint8_t *bits)
{
    *bits = 0;
    for (size_t i = 0; i < sizeof leaf_rows / sizeof leaf_rows[0]; i++) {
        if (strlen(leaf_rows[i].name) == len && memcmp(leaf_rows[i].name, type, len) == 0) {
            *bits = leaf_rows[i].bits;
            return (ki_kind)leaf_rows[i].kind;
        }
    }
    if (len >= 5 && memcmp(type, "enum ", 5) == 0) return KI_ENUM;
    return KI_OBJECT;
}

/* ---- the list ------------------------------------------------------------ */

sv_kingsisle_types *sv_kingsisle_types_new(const sv_alloc *alloc)
{
    sv_kingsisle_types *t = sv__core_mem_calloc(alloc, 1, sizeof *t);
    if (!t) return NULL;
    t->alloc = alloc;
    t->arena = sv_doc_new(alloc);
    if (!t->arena) {
        sv__core_mem_free(alloc, t, 1, sizeof *t);
        return NULL;
    }
    return t;
}

void sv_kingsisle_types_free(sv_kingsisle_types *t)
{
    if (!t) return;
    sv__core_mem_free(t->alloc, t->classes, t->cap, sizeof *t->classes);
    sv__core_mem_free(t->alloc, t->by_hash, t->tcap, sizeof *t->by_hash);
    sv__core_mem_free(t->alloc, t->by_name, t->tcap, sizeof *t->by_name);
    sv_doc_free(t->arena);
    sv__core_mem_free(t->alloc, t, 1, sizeof *t);
}

char *ki_types_strdup(sv_kingsisle_types *t, const char *s, size_t n)
{
    char *p = sv_doc_alloc(t->arena, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static uint32_t mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

const ki_class *ki_class_by_hash(const sv_kingsisle_types *t, uint32_t hash)
{
    if (!t || !t->tcap) return NULL;
    uint32_t m = t->tcap - 1;
    for (uint32_t i = mix32(hash) & m;; i = (i + 1) & m) {
        uint32_t slot = t->by_hash[i];
        if (!slot) return NULL;
        if (t->classes[slot - 1]->hash == hash) return t->classes[slot - 1];
    }
}

const ki_class *ki_class_by_name(const sv_kingsisle_types *t, const char *name, size_t len)
{
    if (!t || !t->tcap) return NULL;
    uint32_t m = t->tcap - 1;
    for (uint32_t i = name_hash(name, len) & m;; i = (i + 1) & m) {
        uint32_t slot = t->by_name[i];
        if (!slot) return NULL;
        const ki_class *c = t->classes[slot - 1];
        if (c->name_len == len && memcmp(c->name, name, len) == 0) return c;
    }
}

const ki_prop *ki_prop_by_hash(const ki_class *c, uint32_t hash)
{
    if (!c->hcap) return NULL;
    uint32_t m = c->hcap - 1;
    for (uint32_t i = mix32(hash) & m;; i = (i + 1) & m) {
        uint32_t slot = c->by_hash[i];
        if (!slot) return NULL;
        if (c->props[slot - 1].hash == hash) return &c->props[slot - 1];
    }
}

const ki_prop *ki_prop_by_name(const ki_class *c, const char *name, size_t len)
{
    if (!c->hcap) return NULL;
    uint32_t m = c->hcap - 1;
    for (uint32_t i = name_hash(name, len) & m;; i = (i + 1) & m) {
        uint32_t slot = c->by_name[i];
        if (!slot) return NULL;
        const ki_prop *p = &c->props[slot - 1];
        if (p->name_len == len && memcmp(p->name, name, len) == 0) return p;
    }
}

static void insert_slot(uint32_t *table, uint32_t cap, uint32_t start, uint32_t value)
{
    uint32_t m = cap - 1;
    uint32_t i = start & m;
    while (table[i]) i = (i + 1) & m;
    table[i] = value;
}

/* Puts property i of c in its hash and name tables, unless a property
 * before it has the same hash (or name): lookups keep finding that one, and
 * a run of equal keys does not grow a probe chain that each insert walks. */
static void index_prop(ki_class *c, ki_prop *ps, uint32_t i)
{
    uint32_t m = c->hcap - 1;
    uint32_t j = mix32(ps[i].hash) & m;
    while (c->by_hash[j] && ps[c->by_hash[j] - 1].hash != ps[i].hash) j = (j + 1) & m;
    if (!c->by_hash[j]) c->by_hash[j] = i + 1;
    j = name_hash(ps[i].name, ps[i].name_len) & m;
    for (;; j = (j + 1) & m) {
        uint32_t slot = c->by_name[j];
        if (!slot) {
            c->by_name[j] = i + 1;
            return;
        }
        const ki_prop *q = &ps[slot - 1];
        if (q->name_len == ps[i].name_len && memcmp(q->name, ps[i].name, q->name_len) == 0) return;
    }
}

/* Rebuilds both class tables at twice the size. */
static bool grow_tables(sv_kingsisle_types *t)
{
    uint32_t cap = t->tcap ? t->tcap * 2 : 64;
    uint32_t *h = sv__core_mem_calloc(t->alloc, cap, sizeof *h);
    uint32_t *n = sv__core_mem_calloc(t->alloc, cap, sizeof *n);
    if (!h || !n) {
        sv__core_mem_free(t->alloc, h, cap, sizeof *h);
        sv__core_mem_free(t->alloc, n, cap, sizeof *n);
        return false;
    }
    for (uint32_t i = 0; i < t->nclasses; i++) {
        const ki_class *c = t->classes[i];
        insert_slot(h, cap, mix32(c->hash), i + 1);
        insert_slot(n, cap, name_hash(c->name, c->name_len), i + 1);
    }
    sv__core_mem_free(t->alloc, t->by_hash, t->tcap, sizeof *t->by_hash);
    sv__core_mem_free(t->alloc, t->by_name, t->tcap, sizeof *t->by_name);
    t->by_hash = h;
    t->by_name = n;
    t->tcap = cap;
    return true;
}

static int by_id(const void *a, const void *b)
{
    const ki_prop *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->gidx < y->gidx ? -1 : (x->gidx > y->gidx);
}

static const ki_enum *make_enum(sv_kingsisle_types *t, const ki_prop_src *p)
{
    ki_enum *e = sv_doc_alloc(t->arena, sizeof *e);
    ki_enum_opt *o = p->nopts ? sv_doc_alloc(t->arena, p->nopts * sizeof *o) : NULL;
    if (!e || (p->nopts && !o)) return NULL;
    e->name = ki_types_strdup(t, p->type, p->type_len);
    if (!e->name) return NULL;
    for (uint32_t i = 0; i < p->nopts; i++) {
        o[i] = p->opts[i];
        o[i].name = ki_types_strdup(t, p->opts[i].name, p->opts[i].len);
        if (!o[i].name) return NULL;
    }
    e->opts = o;
    e->n = p->nopts;
    return e;
}

static bool fill_prop(sv_kingsisle_types *t, ki_prop *q, const ki_prop_src *p, uint32_t order)
{
    q->name = ki_types_strdup(t, p->name, p->name_len);
    q->type = ki_types_strdup(t, p->type, p->type_len);
    if (!q->name || !q->type) return false;
    q->name_len = (uint32_t)p->name_len;
    /* §2.3: the list's hash; computed only for lists that carry none (XML) */
    q->hash = p->has_hash ? p->hash
                          : sv_kingsisle_property_hash(p->type, p->type_len, p->name, p->name_len);
    q->id = p->id;
    q->flags = p->flags;
    q->dynamic = p->dynamic;
    q->gidx = order; /* the declaration order until sorted; replaced after */
    q->kind = (uint8_t)ki_kind_of_type(p->type, p->type_len, &q->bits);
    /* §6.4: an enum by its flags or by its "enum " spelling */
    if (p->force_kind) {
        q->kind = (uint8_t)(p->force_kind - 1);
        if (q->kind == KI_ENUM) {
            q->bits_enum = p->force_bits_enum;
            q->enm = make_enum(t, p);
            if (!q->enm) return false;
        }
        return true;
    }
    if (((p->flags & (SV_KI_PROP_BITS | SV_KI_PROP_ENUM)) || q->kind == KI_ENUM) &&
        q->kind != KI_STR && q->kind != KI_WSTR) {
        q->kind = KI_ENUM;
        q->bits = 0;
        q->bits_enum = (p->flags & SV_KI_PROP_BITS) != 0;
        q->enm = make_enum(t, p);
        if (!q->enm) return false;
    }
    return true;
}

sv_status ki_types_add_class(sv_kingsisle_types *t, const char *name, size_t name_len,
                             uint32_t hash, const ki_prop_src *props, size_t nprops,
                             const char *source, sv_error *err)
{
    if (nprops > UINT32_MAX / 4)
        return sv_error_set(err, SV_ERR_LIMIT, KI_FORMAT, 0, "%s: too many properties", source);
    ki_class *c = sv_doc_alloc(t->arena, sizeof *c);
    ki_prop *ps = nprops ? sv_doc_alloc(t->arena, nprops * sizeof *ps) : NULL;
    uint32_t hcap = 0;
    while (nprops && hcap < nprops * 2) hcap = hcap ? hcap * 2 : 8;
    uint32_t *ph = hcap ? sv_doc_alloc(t->arena, hcap * sizeof *ph) : NULL;
    uint32_t *pn = hcap ? sv_doc_alloc(t->arena, hcap * sizeof *pn) : NULL;
    if (!c || (nprops && (!ps || !ph || !pn))) goto nomem;
    memset(c, 0, sizeof *c);
    c->name = ki_types_strdup(t, name, name_len);
    if (!c->name) goto nomem;
    c->name_len = (uint32_t)name_len;
    c->hash = hash;
    if (nprops) memset(ps, 0, nprops * sizeof *ps);
    for (size_t i = 0; i < nprops; i++)
        if (!fill_prop(t, &ps[i], &props[i], (uint32_t)i)) goto nomem;
    /* §7.1: properties in id order (base-class properties have the lowest) */
    if (nprops > 1) qsort(ps, nprops, sizeof *ps, by_id);
    if (hcap) {
        memset(ph, 0, hcap * sizeof *ph);
        memset(pn, 0, hcap * sizeof *pn);
    }
    c->by_hash = ph;
    c->by_name = pn;
    c->hcap = hcap;
    for (size_t i = 0; i < nprops; i++) {
        ps[i].gidx = t->total_props++;
        index_prop(c, ps, (uint32_t)i);
    }
    c->props = ps;
    c->nprops = (uint32_t)nprops;

    /* the last list wins (§7.1): replace a class of the same hash in place */
    const ki_class *old = ki_class_by_hash(t, hash);
    if (old) {
        for (uint32_t i = 0; i < t->nclasses; i++)
            if (t->classes[i] == old) {
                c->index = i;
                t->classes[i] = c;
                if (old->name_len != c->name_len || memcmp(old->name, c->name, c->name_len))
                    insert_slot(t->by_name, t->tcap, name_hash(c->name, c->name_len), i + 1);
            }
        return SV_OK;
    }
    if (t->nclasses == t->cap) {
        size_t cap = t->cap;
        if (t->cap > UINT32_MAX / 2 || !sv__core_mem_grow(t->alloc, (void **)&t->classes, &cap,
                                                          (size_t)t->cap + 1, sizeof *t->classes))
            goto nomem;
        t->cap = (uint32_t)cap;
    }
    if ((t->nclasses + 1) * 2 > t->tcap && !grow_tables(t)) goto nomem;
    c->index = t->nclasses;
    t->classes[t->nclasses++] = c;
    insert_slot(t->by_hash, t->tcap, mix32(hash), t->nclasses);
    insert_slot(t->by_name, t->tcap, name_hash(c->name, c->name_len), t->nclasses);
    return SV_OK;
nomem:
    return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "%s: out of memory", source);
}

/* ---- summaries ------------------------------------------------------------ */

size_t sv_kingsisle_types_class_count(const sv_kingsisle_types *t)
{
    return t ? t->nclasses : 0;
}

bool sv_kingsisle_types_class_at(const sv_kingsisle_types *t, size_t i,
                                 sv_kingsisle_class_info *out)
{
    if (!t || i >= t->nclasses) return false;
    const ki_class *c = t->classes[i];
    out->name = c->name;
    out->hash = c->hash;
    out->nprops = c->nprops;
    return true;
}

bool sv_kingsisle_types_prop_at(const sv_kingsisle_types *t, size_t i, size_t j,
                                sv_kingsisle_prop_info *out)
{
    if (!t || i >= t->nclasses || j >= t->classes[i]->nprops) return false;
    const ki_prop *p = &t->classes[i]->props[j];
    out->name = p->name;
    out->type = p->type;
    out->hash = p->hash;
    out->id = p->id;
    out->flags = p->flags;
    out->dynamic = p->dynamic;
    out->nenum = p->enm ? p->enm->n : 0;
    return true;
}

/* ---- loading: the content tells the kind ------------------------------------ */

static size_t skip_ws(const uint8_t *d, size_t len, size_t i)
{
    while (i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
    return i;
}

int sv_kingsisle_types_probe(const uint8_t *data, size_t len, const char **kind)
{
    const char *k = "";
    int score = 0;
    size_t i = 0;
    if (len >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) i = 3;
    i = skip_ws(data, len, i);
    if (i < len && data[i] == '<') {
        /* the class list's root element, maybe after an XML declaration */
        const char *tag = "<ClassList";
        size_t tl = strlen(tag);
        for (size_t j = i; j + tl <= len && j < i + 512; j++)
            if (memcmp(data + j, tag, tl) == 0) {
                k = "class-list-xml";
                score = 90;
                break;
            }
    } else if (i < len && data[i] == '{') {
        i = skip_ws(data, len, i + 1);
        /* v2 starts with "version"; v1 with a class name ("class ...") and
         * its "bases"/"hash"/"properties" members (§7.1) */
        static const char v2[] = "\"version\"";
        if (len - i >= sizeof v2 - 1 && memcmp(data + i, v2, sizeof v2 - 1) == 0) {
            k = "wiztype-v2";
            score = 80;
        } else {
            size_t lim = len < 4096 ? len : 4096;
            bool bases = false, props = false;
            for (size_t j = i; j + 12 <= lim; j++) {
                if (!memcmp(data + j, "\"bases\"", 7)) bases = true;
                if (!memcmp(data + j, "\"properties\"", 12)) props = true;
            }
            if (bases && props) {
                k = "wiztype-v1";
                score = 70;
            }
        }
    }
    if (kind) *kind = k;
    return score;
}

sv_status sv_kingsisle_types_add(sv_kingsisle_types *t, const uint8_t *data, size_t len,
                                 const char *source, sv_error *err)
{
    if (!t) return sv_error_set(err, SV_ERR_USAGE, KI_FORMAT, 0, "no type list");
    if (!source) source = "<type list>";
    const char *kind;
    if (sv_kingsisle_types_probe(data, len, &kind) == 0)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, KI_FORMAT, 0,
                            "%s: not a wiztype JSON or class-list XML type list", source);
    if (kind[0] == 'c') return ki_load_classlist_xml(t, data, len, source, err);
    return ki_load_wiztype(t, data, len, source, err);
}
