/* Schemas: the serval schema file (JSON, docs/schema.md), and the table of
 * type-list loaders that sv_schema_load picks from by content.
 *
 *   {"serval_schema": 1,
 *    "enums": [{"name", "underlying", "bits", "values": [[name, value], ...]}],
 *    "classes": [{"name", "hash", "uuid", "version", "bases": [...],
 *                 "fields": [{"name", "type", "flags", "hash", "id", "native",
 *                             "default"}]}]}
 *
 * Members not listed here are ignored, so the format can grow. Every error
 * names the JSON Pointer of the member at fault. */
#include <stdio.h>
#include <string.h>

#include "serval/json.h"
#include "schema/schema_internal.h"

typedef struct fctx {
    sv_schema *s;
    sv_error *err;
} fctx;

static sv_status fail_at(sv_error *err, sv_status st, const char *path, const char *fmt,
                         const char *arg)
{
    sv__schema_fail(err, st, fmt, arg);
    sv__schema_set_path(err, "%s", path);
    return err ? err->status : st;
}

/* A member of an object (MAP) by name, or NULL. */
static const sv_value *member(const sv_value *obj, const char *name)
{
    return sv_map_getz(obj, name);
}

static const char *kind_text(const sv_value *v)
{
    switch (sv_kind_of(v)) {
    case SV_INT:
    case SV_UINT: return "an integer";
    case SV_FLOAT: return "a number";
    case SV_STRING: return "a string";
    case SV_BOOL: return "a boolean";
    case SV_NULL: return "null";
    case SV_ARRAY: return "an array";
    case SV_MAP:
    case SV_OBJECT: return "an object";
    default: return sv_kind_name(sv_kind_of(v));
    }
}

/* A string member as a NUL-terminated copy (names may not hold NUL). */
static sv_status get_string(fctx *f, const sv_value *v, const char *what, const char **out)
{
    if (sv_kind_of(v) != SV_STRING || v->tag)
        return sv__schema_fail(f->err, SV_ERR_TYPE, "%s must be a string, not %s", what,
                               kind_text(v));
    if (memchr(v->as.str, 0, v->len))
        return sv__schema_fail(f->err, SV_ERR_SYNTAX, "%s holds a NUL character", what);
    *out = v->as.str; /* the JSON reader NUL-terminates strings */
    return SV_OK;
}

/* An integer member in [0, max]. */
static sv_status get_uint(fctx *f, const sv_value *v, const char *what, uint64_t max, uint64_t *out)
{
    sv_kind k = sv_kind_of(v);
    if ((k != SV_INT && k != SV_UINT) || v->tag)
        return sv__schema_fail(f->err, SV_ERR_TYPE, "%s must be an integer, not %s", what,
                               kind_text(v));
    if ((k == SV_INT && v->as.i < 0) || (k == SV_INT ? (uint64_t)v->as.i : v->as.u) > max)
        return sv__schema_fail(f->err, SV_ERR_RANGE, "%s is out of range (0 to %llu)", what,
                               (unsigned long long)max);
    *out = k == SV_INT ? (uint64_t)v->as.i : v->as.u;
    return SV_OK;
}

static sv_status need_array(fctx *f, const sv_value *v, const char *what)
{
    if (sv_kind_of(v) != SV_ARRAY)
        return sv__schema_fail(f->err, SV_ERR_TYPE, "%s must be an array, not %s", what,
                               kind_text(v));
    return SV_OK;
}

static sv_status need_object(fctx *f, const sv_value *v, const char *what)
{
    if (sv_kind_of(v) != SV_MAP)
        return sv__schema_fail(f->err, SV_ERR_TYPE, "%s must be an object, not %s", what,
                               kind_text(v));
    return SV_OK;
}

/* ---- enums ------------------------------------------------------------------------ */

static sv_status read_enum_value(fctx *f, sv_schema_enum *e, const sv_value *pair)
{
    if (sv_kind_of(pair) != SV_ARRAY || pair->len != 2)
        return sv__schema_fail(f->err, SV_ERR_TYPE, "an enum value must be a [name, value] pair");
    const char *name;
    sv_status st = get_string(f, sv_array_at(pair, 0), "an enum value's name", &name);
    if (st) {
        sv_error_path_index(f->err, 0);
        return st;
    }
    const sv_value *v = sv_array_at(pair, 1);
    sv_kind k = sv_kind_of(v);
    if ((k != SV_INT && k != SV_UINT) || v->tag) {
        sv__schema_fail(f->err, SV_ERR_TYPE, "enum '%s': value of '%s' must be an integer, not %s",
                        e->name, name, kind_text(v));
        sv_error_path_index(f->err, 1);
        return SV_ERR_TYPE;
    }
    uint64_t bits = k == SV_INT ? (uint64_t)v->as.i : v->as.u;
    bool sig = sv_prim_is_signed(e->underlying);
    /* a negative literal for an unsigned type, or one above INT64_MAX for a
     * signed type, does not fit whatever its bits are */
    if ((k == SV_INT && v->as.i < 0 && !sig) || (k == SV_UINT && sig)) {
        if (k == SV_INT)
            sv__schema_fail(f->err, SV_ERR_RANGE, "enum '%s': value %lld of '%s' does not fit %s",
                            e->name, (long long)v->as.i, name, sv_prim_name(e->underlying));
        else
            sv__schema_fail(f->err, SV_ERR_RANGE, "enum '%s': value %llu of '%s' does not fit %s",
                            e->name, (unsigned long long)v->as.u, name,
                            sv_prim_name(e->underlying));
        sv_error_path_index(f->err, 1);
        return SV_ERR_RANGE;
    }
    st = sv_schema_enum_add(f->s, e, name, bits, f->err);
    if (st) sv_error_path_index(f->err, st == SV_ERR_RANGE ? 1 : 0);
    return st;
}

static sv_status read_enum(fctx *f, const sv_value *ev)
{
    sv_status st = need_object(f, ev, "an enum");
    if (st) return st;
    const sv_value *nv = member(ev, "name");
    const char *name, *under = "i32";
    if (!nv) return sv__schema_fail(f->err, SV_ERR_SYNTAX, "an enum needs a 'name'");
    if ((st = get_string(f, nv, "'name'", &name))) goto at_name;
    const sv_value *uv = member(ev, "underlying");
    if (uv && (st = get_string(f, uv, "'underlying'", &under))) goto at_under;
    sv_prim up = sv_prim_by_name(under, strlen(under));
    if (up == SV_PRIM_COUNT || !sv_prim_int_width(up)) {
        st = sv__schema_fail(f->err, SV_ERR_TYPE,
                             "enum '%s': underlying type '%s' is not an integer type", name, under);
        goto at_under;
    }
    const sv_value *bv = member(ev, "bits");
    if (bv && (sv_kind_of(bv) != SV_BOOL || bv->tag)) {
        sv__schema_fail(f->err, SV_ERR_TYPE, "'bits' must be true or false, not %s", kind_text(bv));
        sv_error_path_key(f->err, "bits", 4);
        return SV_ERR_TYPE;
    }
    sv_schema_enum *e;
    if ((st = sv_schema_add_enum(f->s, name, up, bv && bv->as.b, &e, f->err))) goto at_name;
    const sv_value *vals = member(ev, "values");
    if (!vals) return SV_OK;
    if ((st = need_array(f, vals, "'values'"))) goto at_values;
    for (uint32_t i = 0; i < vals->len; i++) {
        st = read_enum_value(f, e, sv_array_at(vals, i));
        if (st) {
            sv_error_path_index(f->err, i);
            goto at_values;
        }
    }
    return SV_OK;
at_name:
    sv_error_path_key(f->err, "name", 4);
    return st;
at_under:
    sv_error_path_key(f->err, "underlying", 10);
    return st;
at_values:
    sv_error_path_key(f->err, "values", 6);
    return st;
}

/* ---- classes ---------------------------------------------------------------------- */

static sv_status read_field(fctx *f, sv_schema_class *c, const sv_value *fv)
{
    sv_status st = need_object(f, fv, "a field");
    if (st) return st;
    const sv_value *nv = member(fv, "name"), *tv = member(fv, "type");
    const char *name, *type;
    if (!nv)
        return sv__schema_fail(f->err, SV_ERR_SYNTAX, "a field of class '%s' needs a 'name'",
                               c->name);
    if ((st = get_string(f, nv, "'name'", &name))) {
        sv_error_path_key(f->err, "name", 4);
        return st;
    }
    if (!tv) return sv__schema_fail(f->err, SV_ERR_SYNTAX, "field '%s' needs a 'type'", name);
    sv_schema_field *fld;
    if ((st = get_string(f, tv, "'type'", &type)) ||
        (st = sv_schema_class_add_field(f->s, c, name, type, &fld, f->err))) {
        sv_error_path_key(f->err, "type", 4);
        return st;
    }
    static const char *const u32_members[] = {"flags", "hash", "id"};
    static const char *const u32_what[] = {"'flags'", "'hash'", "'id'"};
    for (int k = 0; k < 3; k++) {
        const sv_value *v = member(fv, u32_members[k]);
        uint64_t u;
        if (!v) continue;
        if ((st = get_uint(f, v, u32_what[k], UINT32_MAX, &u))) {
            sv_error_path_key(f->err, u32_members[k], strlen(u32_members[k]));
            return st;
        }
        if (k == 0) sv_schema_field_set_flags(fld, (uint32_t)u);
        if (k == 1) sv_schema_field_set_hash(fld, (uint32_t)u);
        if (k == 2) sv_schema_field_set_id(fld, (uint32_t)u);
    }
    const sv_value *nat = member(fv, "native");
    if (nat) {
        const char *text;
        if ((st = get_string(f, nat, "'native'", &text)) ||
            (st = sv_schema_field_set_native(f->s, fld, text, f->err))) {
            sv_error_path_key(f->err, "native", 6);
            return st;
        }
    }
    const sv_value *dv = member(fv, "default");
    if (dv && (st = sv_schema_field_set_default(f->s, fld, dv, f->err))) {
        sv_error_path_key(f->err, "default", 7);
        return st;
    }
    return SV_OK;
}

static sv_status read_class(fctx *f, const sv_value *cv)
{
    sv_status st = need_object(f, cv, "a class");
    if (st) return st;
    const sv_value *nv = member(cv, "name");
    const char *name;
    if (!nv) return sv__schema_fail(f->err, SV_ERR_SYNTAX, "a class needs a 'name'");
    sv_schema_class *c;
    if ((st = get_string(f, nv, "'name'", &name)) ||
        (st = sv_schema_add_class(f->s, name, &c, f->err))) {
        sv_error_path_key(f->err, "name", 4);
        return st;
    }
    const sv_value *v;
    uint64_t u;
    if ((v = member(cv, "hash"))) {
        if ((st = get_uint(f, v, "'hash'", UINT32_MAX, &u))) {
            sv_error_path_key(f->err, "hash", 4);
            return st;
        }
        sv_schema_class_set_hash(c, (uint32_t)u);
    }
    if ((v = member(cv, "version"))) {
        if ((st = get_uint(f, v, "'version'", UINT32_MAX, &u))) {
            sv_error_path_key(f->err, "version", 7);
            return st;
        }
        sv_schema_class_set_version(c, (uint32_t)u);
    }
    if ((v = member(cv, "uuid"))) {
        const char *text;
        sv_uuid uu;
        if (!(st = get_string(f, v, "'uuid'", &text)) && !sv_uuid_parse(text, v->len, &uu))
            st = sv__schema_fail(f->err, SV_ERR_SYNTAX, "class '%s': '%.60s' is not a UUID", name,
                                 text);
        if (st) {
            sv_error_path_key(f->err, "uuid", 4);
            return st;
        }
        sv_schema_class_set_uuid(c, &uu);
    }
    if ((v = member(cv, "bases"))) {
        if ((st = need_array(f, v, "'bases'"))) goto at_bases;
        for (uint32_t i = 0; i < v->len; i++) {
            const char *base;
            if ((st = get_string(f, sv_array_at(v, i), "a base", &base)) ||
                (st = sv_schema_class_add_base(f->s, c, base, f->err))) {
                sv_error_path_index(f->err, i);
                goto at_bases;
            }
        }
    }
    if ((v = member(cv, "fields"))) {
        if ((st = need_array(f, v, "'fields'"))) goto at_fields;
        if (!sv__schema_reserve_fields(f->s, c, v->len))
            return sv__schema_fail(f->err, SV_ERR_NOMEM, "out of memory");
        for (uint32_t i = 0; i < v->len; i++) {
            if ((st = read_field(f, c, sv_array_at(v, i)))) {
                sv_error_path_index(f->err, i);
                goto at_fields;
            }
        }
    }
    return SV_OK;
at_bases:
    sv_error_path_key(f->err, "bases", 5);
    return st;
at_fields:
    sv_error_path_key(f->err, "fields", 6);
    return st;
}

static sv_status read_root(fctx *f, const sv_value *root)
{
    if (sv_kind_of(root) != SV_MAP)
        return fail_at(f->err, SV_ERR_TYPE, "", "a schema file must be a JSON object, not %s",
                       kind_text(root));
    const sv_value *ver = member(root, "serval_schema");
    if (!ver) return fail_at(f->err, SV_ERR_SYNTAX, "", "missing member 'serval_schema'%s", "");
    sv_kind k = sv_kind_of(ver);
    if ((k != SV_INT && k != SV_UINT) || ver->tag || ver->as.i != 1)
        return fail_at(f->err, SV_ERR_UNSUPPORTED, "/serval_schema",
                       "unsupported 'serval_schema' version (this reader knows 1)%s", "");
    const char *lists[2] = {"enums", "classes"};
    for (int l = 0; l < 2; l++) {
        const sv_value *arr = member(root, lists[l]);
        if (!arr) continue;
        sv_status st = need_array(f, arr, l ? "'classes'" : "'enums'");
        for (uint32_t i = 0; !st && i < arr->len; i++) {
            const sv_value *item = sv_array_at(arr, i);
            st = l ? read_class(f, item) : read_enum(f, item);
            if (st) sv_error_path_index(f->err, i);
        }
        if (st) {
            sv_error_path_key(f->err, lists[l], strlen(lists[l]));
            return st;
        }
    }
    return SV_OK;
}

sv_status sv_schema_decode(sv_schema *s, const char *text, size_t len, const char *source,
                           sv_error *err)
{
    sv_error_clear(err);
    if (!s || (!text && len)) return sv__schema_fail(err, SV_ERR_USAGE, "no schema or text");
    if (source && sv_schema_set_source(s, source))
        return sv__schema_fail(err, SV_ERR_NOMEM, "out of memory");
    sv_doc *doc = sv_doc_new(&s->alloc);
    if (!doc) return sv__schema_fail(err, SV_ERR_NOMEM, "out of memory");
    sv_value root;
    sv_status st = sv_json_decode(doc, text ? text : "", len, NULL, &root, err);
    if (st) {
        if (err) err->format = SV_SCHEMA_FORMAT;
    } else {
        fctx f = {s, err};
        st = read_root(&f, &root);
    }
    sv_doc_free(doc);
    return st;
}

/* ---- loaders ------------------------------------------------------------------------ */

/* The serval schema file: a JSON object whose first member is
 * "serval_schema" (after white space). */
static int serval_probe(const uint8_t *data, size_t len)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    if (i < len && data[i] == '[') return 10; /* JSON: the reader says what is wrong */
    if (i >= len || data[i] != '{') return 0;
    for (i++; i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n');)
        i++;
    static const char key[] = "\"serval_schema\"";
    if (len - i >= sizeof key - 1 && memcmp(data + i, key, sizeof key - 1) == 0) return 100;
    /* a JSON object that names the member later still gets a chance */
    for (; i + sizeof key - 1 <= len; i++)
        if (memcmp(data + i, key, sizeof key - 1) == 0) return 60;
    /* some other JSON object: other loaders score it higher if it is theirs,
     * else the serval reader says what is missing */
    return 10;
}

static sv_status serval_load(sv_schema *s, const uint8_t *data, size_t len, const char *source,
                             sv_error *err)
{
    return sv_schema_decode(s, (const char *)data, len, source, err);
}

/* The loader of serval's own schema files. The table of every loader,
 * sv_schema_loaders() (schema_loaders.c), adds those the formats' registry
 * hooks bring. */
const sv_schema_loader sv__schema_loader_serval = {
    "serval", "serval schema file (JSON, docs/schema.md)", serval_probe, serval_load};

sv_status sv_schema_load(const sv_alloc *alloc, const uint8_t *data, size_t len, const char *source,
                         sv_schema **out, sv_error *err)
{
    sv_error_clear(err);
    if (!out || (!data && len)) return sv__schema_fail(err, SV_ERR_USAGE, "missing argument");
    *out = NULL;
    size_t nloaders;
    const sv_schema_loader *const *loaders = sv_schema_loaders(&nloaders);
    const sv_schema_loader *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < nloaders; i++) {
        int score = loaders[i]->probe(data ? data : (const uint8_t *)"", len);
        if (score > best_score) best = loaders[i], best_score = score;
    }
    if (!best) {
        char names[128] = "";
        size_t o = 0;
        for (size_t i = 0; i < nloaders && o < sizeof names; i++)
            o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
                                  loaders[i]->name);
        return sv__schema_fail(err, SV_ERR_UNSUPPORTED,
                               "not a type list serval knows (loaders: %s)", names);
    }
    sv_schema *s = sv_schema_new(alloc);
    if (!s) return sv__schema_fail(err, SV_ERR_NOMEM, "out of memory");
    sv_status st = sv_schema_set_source(s, source ? source : "");
    if (st) st = sv__schema_fail(err, st, "out of memory");
    if (!st) st = best->load(s, data ? data : (const uint8_t *)"", len, source, err);
    if (!st) st = sv_schema_finalize(s, err);
    if (st) {
        sv_schema_free(s);
        return st;
    }
    *out = s;
    return SV_OK;
}
