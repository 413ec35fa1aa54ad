/* godot-res: writing an RSRC stream from the tree (spec §2), the inverse of
 * godot_res_decode.c. The header comes from the root's meta, the string
 * table is the meta's "strings" with every property name that is not in it
 * appended (a property added by an edit), and the bodies' offsets are
 * computed: each body follows the one before. */
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_res_internal.h"

static sv_status efail(sv_error *err, const char *path, sv_status st, const char *what)
{
    sv_status r = sv_error_set(err, st, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s", what);
    if (path) sv_error_path_key(err, path, strlen(path));
    return r;
}

/* An integer field of the meta, in [lo, hi]. */
static bool meta_int(const sv_value *meta, const char *name, int64_t lo, int64_t hi, int64_t def,
                     int64_t *out, sv_error *err)
{
    const sv_value *v = sv_map_getz(meta, name);
    if (!v) {
        *out = def;
        return true;
    }
    int64_t i = sv_get_int(v);
    if ((v->kind != SV_INT && v->kind != SV_UINT) || i < lo || i > hi ||
        (v->kind == SV_UINT && v->as.u > INT64_MAX)) {
        sv_status ignored_ = sv_error_set(err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET,
                                          "$meta.%s must be an integer from %lld to %lld", name,
                                          (long long)lo, (long long)hi);
        (void)ignored_;
        return false;
    }
    *out = i;
    return true;
}

static const sv_value *meta_str(const sv_value *meta, const char *name, bool required,
                                sv_error *err, bool *ok)
{
    const sv_value *v = sv_map_getz(meta, name);
    if ((!v && required) || (v && v->kind != SV_STRING)) {
        sv_status ignored_ = sv_error_set(err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET,
                                          "$meta.%s must be a string", name);
        (void)ignored_;
        *ok = false;
    }
    return v;
}

/* The string table: meta's strings, then the property names missing from it. */
static sv_status build_strings(sv_doc *doc, const sv_value *meta, const sv_value *inl, gr_strtab *t,
                               sv_error *err)
{
    const sv_value *arr = sv_map_getz(meta, "strings");
    if (arr && arr->kind != SV_ARRAY)
        return efail(err, NULL, SV_ERR_TYPE, "$meta.strings must be an array of strings");
    uint64_t cap = (uint64_t)sv_len(arr) + 1;
    for (uint32_t i = 0; i < inl->len; i++) cap += sv_len(sv_array_at(inl, i));
    if (cap > UINT32_MAX) return efail(err, NULL, SV_ERR_LIMIT, "too many strings");
    t->s = sv_doc_alloc(doc, (size_t)cap * sizeof *t->s);
    t->len = sv_doc_alloc(doc, (size_t)cap * sizeof *t->len);
    if (!t->s || !t->len) return efail(err, NULL, SV_ERR_NOMEM, "out of memory");
    t->count = 0;
    for (uint32_t i = 0; i < sv_len(arr); i++) {
        const sv_value *s = sv_array_at(arr, i);
        if (s->kind != SV_STRING)
            return efail(err, NULL, SV_ERR_TYPE, "$meta.strings holds a non-string");
        t->s[t->count] = s->as.str;
        t->len[t->count++] = s->len;
    }
    if (!gr_strtab_index(doc, t)) return efail(err, NULL, SV_ERR_NOMEM, "out of memory");
    bool added = false;
    for (uint32_t i = 0; i < inl->len; i++) {
        const sv_value *o = sv_array_at(inl, i);
        for (uint32_t k = 0; o->kind == SV_OBJECT && k < o->len; k++) {
            const sv_value *pk = sv_key_at(o, k);
            if (pk->kind != SV_STRING) continue; /* refused when written */
            if (gr_strtab_find(t, pk->as.str, pk->len) != UINT32_MAX) continue;
            bool seen = false; /* among the ones added (not yet hashed) */
            for (uint32_t j = sv_len(arr); j < t->count && !seen; j++)
                seen = t->len[j] == pk->len && !memcmp(t->s[j], pk->as.str, pk->len);
            if (seen) continue;
            t->s[t->count] = pk->as.str;
            t->len[t->count++] = pk->len;
            added = true;
        }
    }
    if (added && !gr_strtab_index(doc, t)) return efail(err, NULL, SV_ERR_NOMEM, "out of memory");
    return SV_OK;
}

static sv_status write_body(gr_enc *e, const sv_value *o)
{
    size_t n;
    const char *cls = sv_get_str(sv_object_class(o), &n);
    if (sv_kind_of(sv_object_class(o)) != SV_STRING)
        return efail(e->err, NULL, SV_ERR_TYPE, "an internal resource without a class name");
    gr_put_ustring(e, cls, n);
    gr_put_u32(e, o->len);
    for (uint32_t i = 0; i < o->len; i++) {
        const sv_value *pk = sv_key_at(o, i);
        const sv_value *pv = sv_val_at(o, i);
        if (pk->kind != SV_STRING)
            return efail(e->err, NULL, SV_ERR_TYPE, "a property name that is not a string");
        gr_put_u32(e, gr_strtab_find(e->strings, pk->as.str, pk->len));
        sv_status st = gr_write_variant(e, pv, 1);
        if (st != SV_OK) {
            sv_error_path_key(e->err, pk->as.str, pk->len);
            return st;
        }
    }
    return SV_OK;
}

static sv_status write_all(sv_doc *doc, const sv_value *root, sv_buf *out, uint64_t base,
                           sv_error *err)
{
    const sv_value *meta = sv_meta(root);
    const sv_value *ext = sv_map_getz(root, "external"), *inl = sv_map_getz(root, "internal");
    if (sv_kind_of(root) != SV_MAP || sv_kind_of(meta) != SV_MAP || sv_kind_of(ext) != SV_ARRAY ||
        sv_kind_of(inl) != SV_ARRAY || root->len != 2)
        return efail(err, NULL, SV_ERR_TYPE,
                     "a godot-res tree is {\"external\": [...], \"internal\": [...]} with the "
                     "header in its $meta (as serval dump writes it)");
    if (inl->len == 0)
        return efail(err, "internal", SV_ERR_TYPE, "no internal resource (the main one is last)");
    int64_t be, real64, major, minor, fmt, imp, flags, uid;
    if (!meta_int(meta, "big_endian", 0, UINT32_MAX, 0, &be, err) ||
        !meta_int(meta, "use_real64", 0, UINT32_MAX, 0, &real64, err) ||
        !meta_int(meta, "ver_major", 0, 4, 0, &major, err) ||
        !meta_int(meta, "ver_minor", 0, UINT32_MAX, 0, &minor, err) ||
        !meta_int(meta, "ver_format", 0, 6, 0, &fmt, err) ||
        !meta_int(meta, "import_offset", INT64_MIN, INT64_MAX, 0, &imp, err) ||
        !meta_int(meta, "flags", 0, UINT32_MAX, 0, &flags, err) ||
        !meta_int(meta, "uid", INT64_MIN, INT64_MAX, 0, &uid, err))
        return err ? err->status : SV_ERR_RANGE;
    bool ok = true;
    const sv_value *type = meta_str(meta, "type", true, err, &ok);
    const sv_value *sc =
        meta_str(meta, "script_class", (flags & GR_FLAG_SCRIPT_CLASS) != 0, err, &ok);
    if (!ok) return err ? err->status : SV_ERR_TYPE;
    const sv_value *res = sv_map_getz(meta, "reserved");
    if (res && (res->kind != SV_ARRAY || res->len != 11))
        return efail(err, NULL, SV_ERR_TYPE, "$meta.reserved must be 11 integers");
    gr_strtab strings;
    memset(&strings, 0, sizeof strings);
    sv_status st = build_strings(doc, meta, inl, &strings, err);
    if (st != SV_OK) return st;
    gr_enc e = {.out = out, .strings = &strings, .err = err};
    e.c.be = be != 0;
    e.c.real64 = flags & GR_FLAG_REAL64;
    e.c.ver_format = (uint32_t)fmt;
    e.c.max_depth = SV_MAX_DEPTH_LIMIT;
    uint8_t w[8];
    sv__core_store_u32le(w, (uint32_t)be);
    sv__core_store_u32le(w + 4, (uint32_t)real64);
    sv_buf_append(out, w, 8);
    gr_put_u32(&e, (uint32_t)major);
    gr_put_u32(&e, (uint32_t)minor);
    gr_put_u32(&e, (uint32_t)fmt);
    gr_put_ustring(&e, type->as.str, type->len);
    gr_put_u64(&e, (uint64_t)imp);
    gr_put_u32(&e, (uint32_t)flags);
    gr_put_u64(&e, (uint64_t)uid);
    if (flags & GR_FLAG_SCRIPT_CLASS) gr_put_ustring(&e, sc->as.str, sc->len);
    for (uint32_t i = 0; i < 11; i++) {
        const sv_value *r = res ? sv_array_at(res, i) : NULL;
        if (r && r->kind != SV_INT && r->kind != SV_UINT)
            return efail(err, NULL, SV_ERR_TYPE, "$meta.reserved must be 11 integers");
        gr_put_u32(&e, (uint32_t)sv_get_uint(r));
    }
    gr_put_u32(&e, strings.count);
    for (uint32_t i = 0; i < strings.count; i++) gr_put_ustring(&e, strings.s[i], strings.len[i]);
    gr_put_u32(&e, ext->len);
    for (uint32_t i = 0; i < ext->len; i++) {
        const sv_value *x = sv_array_at(ext, i);
        const sv_value *t = sv_map_getz(x, "type"), *p = sv_map_getz(x, "path"),
                       *u = sv_map_getz(x, "uid");
        bool uids = flags & GR_FLAG_UIDS;
        if (sv_kind_of(x) != SV_MAP || sv_kind_of(t) != SV_STRING || sv_kind_of(p) != SV_STRING ||
            (uids && sv_kind_of(u) != SV_INT) || x->len != (uids ? 3u : 2u)) {
            sv_error_path_index(err, i);
            return efail(
                err, "external", SV_ERR_TYPE,
                uids ? "an external resource is {\"type\", \"path\", \"uid\"} (flags has UIDS)"
                     : "an external resource is {\"type\", \"path\"} (flags has no UIDS)");
        }
        gr_put_ustring(&e, t->as.str, t->len);
        gr_put_ustring(&e, p->as.str, p->len);
        if (uids) gr_put_u64(&e, (uint64_t)u->as.i);
    }
    /* the offset table, then the bodies: each body is measured first, so
     * the table is written final and nothing is patched afterwards */
    uint64_t table = 4;
    for (uint32_t i = 0; i < inl->len; i++) {
        const sv_value *o = sv_array_at(inl, i);
        const sv_value *p = sv_map_getz(sv_meta(o), "path");
        if (o->kind != SV_OBJECT || sv_kind_of(p) != SV_STRING) {
            sv_error_path_index(err, i);
            return efail(
                err, "internal", SV_ERR_TYPE,
                "an internal resource is {\"$class\": type, \"$meta\": {\"path\": ...}, ...}");
        }
        table += 4 + (uint64_t)p->len + 1 + 8;
    }
    uint64_t *size = sv_doc_alloc(doc, (size_t)inl->len * sizeof *size);
    if (!size) return efail(err, NULL, SV_ERR_NOMEM, "out of memory");
    e.measure = true;
    for (uint32_t i = 0; i < inl->len; i++) {
        e.measured = 0;
        st = write_body(&e, sv_array_at(inl, i));
        if (st != SV_OK) {
            sv_error_path_index(err, i);
            sv_error_path_key(err, "internal", 8);
            return st;
        }
        size[i] = e.measured;
    }
    e.measure = false;
    gr_put_u32(&e, inl->len);
    uint64_t at = sv_buf_pos(out) - base - 4 + table;
    for (uint32_t i = 0; i < inl->len; i++) {
        const sv_value *o = sv_array_at(inl, i);
        const sv_value *p = sv_map_getz(sv_meta(o), "path");
        gr_put_ustring(&e, p->as.str, p->len);
        gr_put_u64(&e, at);
        at += size[i];
    }
    for (uint32_t i = 0; i < inl->len; i++) {
        uint64_t start = sv_buf_pos(out);
        st = write_body(&e, sv_array_at(inl, i));
        if (st == SV_OK && sv_buf_ok(out) && sv_buf_pos(out) - start != size[i])
            st = efail(err, NULL, SV_ERR_UNSUPPORTED,
                       "internal error: a body's size differs from its measure");
        if (st != SV_OK) {
            sv_error_path_index(err, i);
            sv_error_path_key(err, "internal", 8);
            return st;
        }
        sv_buf_release(out);
    }
    gr_put(&e, "RSRC", 4);
    if (sv_buf_ok(out)) return SV_OK;
    st = sv_buf_status(out);
    return efail(err, NULL, st,
                 st == SV_ERR_NOMEM ? "no memory for the output" : "the output failed");
}

sv_status gr_encode_stream(const sv_value *root, sv_buf *out, uint64_t base, sv_error *err)
{
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return efail(err, NULL, SV_ERR_NOMEM, "out of memory");
    sv_status st = write_all(doc, root, out, base, err);
    sv_doc_free(doc);
    return st;
}
