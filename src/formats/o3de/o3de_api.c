/* The public entry points: options, default instances, load and store of
 * values and C structs, and the JsonSerialization file wrapper.
 * docs/formats/o3de.md, "What serval follows". */
#include <string.h>

#include "o3de_internal.h"
#include "o3de_struct_internal.h"

static sv_status finish(o3_ctx *c, sv_error *err)
{
    sv_status st = c->st;
    if (st == SV_OK && c->doc && sv_doc_status(c->doc) != SV_OK) {
        st = sv_doc_status(c->doc);
        st = sv_error_set(err, st, "o3de", 0, "out of memory");
    }
    o3_ctx_free(c);
    return st;
}

sv_status sv_o3de_default_value(const sv_schema *s, const sv_type *t, sv_doc *doc, sv_value *out,
                                sv_error *err)
{
    if (!s || !t || !doc || !out)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_default_value");
    o3_ctx c;
    sv_status ist = o3_ctx_init(&c, s, doc, NULL, false, err);
    if (ist != SV_OK) return ist;
    *out = o3_default_of(&c, t);
    return finish(&c, err);
}

sv_status sv_o3de_load(const sv_schema *s, const sv_type *t, const sv_value *json, sv_doc *doc,
                       sv_value *value, const sv_o3de_opts *opts, sv_o3de_result *result,
                       sv_error *err)
{
    if (result) *result = sv_o3de_result_make(SV_O3DE_READ_FIELD, SV_O3DE_CATASTROPHIC);
    if (!s || !t || !json || !doc || !value)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_load");
    o3_ctx c;
    sv_status ist = o3_ctx_init(&c, s, doc, opts, false, err);
    if (ist != SV_OK) return ist;
    sv_value cur = *value, out;
    o3_res r = o3_load(&c, t, json, &cur, &out, false);
    *value = out;
    if (result) *result = r;
    return finish(&c, err);
}

sv_status sv_o3de_store(const sv_schema *s, const sv_type *t, const sv_value *value,
                        const sv_value *def, sv_doc *doc, sv_value *json, const sv_o3de_opts *opts,
                        sv_o3de_result *result, sv_error *err)
{
    if (result) *result = sv_o3de_result_make(SV_O3DE_WRITE_VALUE, SV_O3DE_CATASTROPHIC);
    if (!s || !t || !value || !doc || !json)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_store");
    o3_ctx c;
    sv_status ist = o3_ctx_init(&c, s, doc, opts, true, err);
    if (ist != SV_OK) return ist;
    /* o3de.md, "Where serval differs from the documentation": a given default forces keepDefaults
     * off; without one, classes are compared with a default instance and other root types written
     * whole */
    sv_value made;
    if (def) {
        c.keep_defaults = false;
    } else if (!c.keep_defaults && t->kind == SV_TYPE_CLASS) {
        made = o3_default_class(&c, t->cls);
        def = &made;
    }
    *json = o3_empty_object(&c);
    o3_res r = o3_ok(&c) ? o3_store(&c, t, value, def, json)
                         : o3_r(SV_O3DE_WRITE_VALUE, SV_O3DE_CATASTROPHIC);
    if (result) *result = r;
    return finish(&c, err);
}

/* A class's type without touching the (read-only, shareable) schema. */
static sv_type class_type(const sv_schema_class *cls)
{
    sv_type t;
    memset(&t, 0, sizeof t);
    t.kind = SV_TYPE_CLASS;
    t.cls = cls;
    t.name = cls->name;
    t.text = cls->name;
    return t;
}

sv_status o3_load_struct_tree(const sv_schema *s, const sv_schema_class *cls, const sv_value *json,
                              void *st, const sv_alloc *alloc, const sv_o3de_opts *opts,
                              sv_o3de_result *result, sv_error *err)
{
    sv_type t = class_type(cls);
    sv_doc *doc = sv_doc_new(alloc);
    if (!doc) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    sv_value v;
    sv_status stt = sv_struct_to_value(s, cls, st, doc, &v, err);
    if (stt == SV_OK) stt = sv_o3de_load(s, &t, json, doc, &v, opts, result, err);
    if (stt == SV_OK) {
        sv_struct_free(s, cls, st, alloc);
        stt = sv_value_to_struct(s, cls, &v, alloc, st, err);
    }
    sv_doc_free(doc);
    return stt;
}

sv_status sv_o3de_load_struct(const sv_schema *s, const sv_schema_class *cls, const sv_value *json,
                              void *st, const sv_alloc *alloc, const sv_o3de_opts *opts,
                              sv_o3de_result *result, sv_error *err)
{
    if (result) *result = sv_o3de_result_make(SV_O3DE_READ_FIELD, SV_O3DE_CATASTROPHIC);
    if (!s || !cls || !json || !st || !cls->c)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_load_struct");
    int direct = o3_struct_direct(s, cls, alloc);
    if (direct < 0) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    if (!direct) return o3_load_struct_tree(s, cls, json, st, alloc, opts, result, err);
    /* straight into the struct (o3de_struct.c); leaves need a scratch
     * document for their small values, from the caller's allocator */
    sv_doc *doc = sv_doc_new(alloc);
    if (!doc) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    o3_ctx c;
    sv_status ist = o3_ctx_init(&c, s, doc, opts, false, err);
    if (ist != SV_OK) {
        sv_doc_free(doc);
        return ist;
    }
    o3_res r = o3_load_struct_direct(&c, cls, json, st, alloc);
    sv_status stt = finish(&c, err);
    sv_doc_free(doc);
    if (stt != SV_OK) {
        /* as the tree path: on failure nothing stays allocated */
        sv_struct_free(s, cls, st, alloc);
        return stt;
    }
    if (result) *result = r;
    return SV_OK;
}

static bool all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

sv_status sv_o3de_load_struct_text(const sv_schema *s, const sv_schema_class *cls, const char *text,
                                   size_t len, void *st, const sv_alloc *alloc,
                                   const sv_o3de_opts *opts, sv_o3de_result *result, sv_error *err)
{
    if (result) *result = sv_o3de_result_make(SV_O3DE_READ_FIELD, SV_O3DE_CATASTROPHIC);
    if (!s || !cls || (!text && len) || !st || !cls->c)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0,
                            "bad arguments to sv_o3de_load_struct_text");
    sv_o3de_opts o;
    sv_status ost = o3_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    opts = &o;
    sv_doc *doc = sv_doc_new(alloc);
    if (!doc) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    int direct = o3_struct_direct(s, cls, alloc);
    if (direct < 0) {
        sv_doc_free(doc);
        return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    }
    if (!o.report && all_zero(st, cls->c->size) && direct) {
        /* the streaming load (o3de_stream.c); it gives up on anything
         * unusual, leaving *st all zero for the tree path below */
        o3_ctx c;
        sv_status ist = o3_ctx_init(&c, s, doc, opts, false, err);
        if (ist != SV_OK) {
            sv_doc_free(doc);
            return ist;
        }
        o3_res r;
        bool done = o3_load_struct_stream(&c, cls, text ? text : "", len, st, alloc, &r);
        sv_status stt = finish(&c, err);
        if (done && stt == SV_OK) {
            sv_doc_free(doc);
            if (result) *result = r;
            return SV_OK;
        }
        if (done) sv_struct_free(s, cls, st, alloc);
        memset(st, 0, cls->c->size);
        if (err) sv_error_clear(err);
        sv_doc_free(doc);
        if (!(doc = sv_doc_new(NULL)))
            return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    }
    sv_value json;
    sv_limits read_limits = o.limits; /* the nesting the load walks, the text may hold */
    read_limits.max_depth = o3_opts_max_depth(&o);
    sv_status stt = sv_o3de_read(doc, text ? text : "", len, &read_limits, &json, err);
    if (stt == SV_OK) stt = sv_o3de_load_struct(s, cls, &json, st, alloc, opts, result, err);
    sv_doc_free(doc);
    return stt;
}

sv_status o3_store_struct_tree_text(const sv_schema *s, const sv_schema_class *cls, const void *st,
                                    int indent, sv_buf *out, const sv_o3de_opts *opts,
                                    sv_o3de_result *result, sv_error *err)
{
    sv_doc *doc = sv_doc_new(out->alloc);
    if (!doc) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    sv_value json;
    sv_status stt = sv_o3de_store_struct(s, cls, st, doc, &json, opts, result, err);
    if (stt == SV_OK) stt = sv_o3de_write(&json, indent, out, err);
    sv_doc_free(doc);
    return stt;
}

sv_status sv_o3de_store_struct_text(const sv_schema *s, const sv_schema_class *cls, const void *st,
                                    int indent, sv_buf *out, const sv_o3de_opts *opts,
                                    sv_o3de_result *result, sv_error *err)
{
    if (result) *result = sv_o3de_result_make(SV_O3DE_WRITE_VALUE, SV_O3DE_CATASTROPHIC);
    if (!s || !cls || !st || !out || !cls->c || indent < 0 || indent > 64)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0,
                            "bad arguments to sv_o3de_store_struct_text");
    int direct = o3_struct_direct(s, cls, out->alloc);
    if (direct < 0) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    if (!direct) return o3_store_struct_tree_text(s, cls, st, indent, out, opts, result, err);
    sv_doc *doc = sv_doc_new(out->alloc);
    if (!doc) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    o3_ctx c;
    sv_status ist = o3_ctx_init(&c, s, doc, opts, true, err);
    if (ist != SV_OK) {
        sv_doc_free(doc);
        return ist;
    }
    o3_res r = o3_store_struct_direct(&c, cls, st, out, indent);
    sv_status stt = finish(&c, err);
    if (stt == SV_OK && !sv_buf_ok(out))
        stt = sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    sv_doc_free(doc);
    if (stt == SV_OK && result) *result = r;
    return stt;
}

sv_status sv_o3de_store_struct(const sv_schema *s, const sv_schema_class *cls, const void *st,
                               sv_doc *doc, sv_value *json, const sv_o3de_opts *opts,
                               sv_o3de_result *result, sv_error *err)
{
    if (!s || !cls || !st || !doc || !json || !cls->c)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_store_struct");
    sv_type t = class_type(cls);
    sv_value v;
    sv_status stt = sv_struct_to_value(s, cls, st, doc, &v, err);
    if (stt != SV_OK) return stt;
    return sv_o3de_store(s, &t, &v, NULL, doc, json, opts, result, err);
}

static bool str_is(const sv_value *v, const char *s)
{
    size_t n;
    const char *t = sv_get_str(v, &n);
    return sv_kind_of(v) == SV_STRING && n == strlen(s) && memcmp(t, s, n) == 0;
}

bool sv_o3de_unwrap(const sv_value *json, const char **class_name, size_t *name_len,
                    const sv_value **class_data)
{
    if (sv_kind_of(json) != SV_MAP) return false;
    const sv_value *type = sv_map_get(json, "Type", 4);
    const sv_value *name = sv_map_get(json, "ClassName", 9);
    const sv_value *data = sv_map_get(json, "ClassData", 9);
    if (!str_is(type, "JsonSerialization") || sv_kind_of(name) != SV_STRING || !data) return false;
    if (class_name) *class_name = sv_get_str(name, name_len);
    if (class_data) *class_data = data;
    return true;
}

sv_status sv_o3de_wrap(sv_doc *doc, const char *class_name, const sv_value *class_data,
                       sv_value *out)
{
    if (!doc || !class_name || !class_data || !out) return SV_ERR_USAGE;
    sv_value w = sv_map(doc, 4);
    if (w.kind != SV_MAP) return SV_ERR_NOMEM;
    sv_pair *p = sv_pairs(&w);
    p[0].key = sv_str_intern(doc, "Type", 4);
    p[0].val = sv_strz(doc, "JsonSerialization");
    p[1].key = sv_str_intern(doc, "Version", 7);
    p[1].val = sv_uint(1);
    p[2].key = sv_str_intern(doc, "ClassName", 9);
    p[2].val = sv_strz(doc, class_name);
    p[3].key = sv_str_intern(doc, "ClassData", 9);
    p[3].val = *class_data;
    if (sv_doc_status(doc) != SV_OK) return sv_doc_status(doc);
    *out = w;
    return SV_OK;
}
