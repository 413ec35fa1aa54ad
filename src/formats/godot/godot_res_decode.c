/* godot-res: reading an RSRC stream (spec §2) into the tree.
 *
 * One code path for every format version (spec §2.1): after the type and
 * the import-metadata offset come flags (u32) and uid (u64), the script
 * class when flags say so, then 11 reserved words; a format-3 file has
 * zeros in all of them. Everything the tree's values do not say (header
 * fields, the string table with its order, unused and repeated entries) goes
 * to the root's meta, so the writer gives the same bytes back. The bodies'
 * offsets are not kept: each must be where the previous body ends (as every
 * saver writes them), so the writer can derive them. */
#include <string.h>

#include "core/byteio.h"
#include "core/utf8.h"
#include "core/value_internal.h"
#include "formats/godot/godot_res_internal.h"

static sv_status nomem(gr_dec *d)
{
    sv_status st = sv_doc_status(d->doc);
    return gr_fail(d, d->pos, st != SV_OK ? st : SV_ERR_NOMEM, "no memory for the tree");
}

static sv_status read_header(gr_dec *d, bool rscc, sv_value *meta)
{
    sv_doc *doc = d->doc;
    if (!gr_need(d, 20, "header")) return d->err->status;
    const uint8_t *p = d->base + d->pos;
    uint32_t be = sv__core_load_u32le(p), real64 = sv__core_load_u32le(p + 4);
    d->pos += 8;
    d->c.be = be != 0;
    uint32_t major = gr_u32(d), minor = gr_u32(d), fmt = gr_u32(d);
    if (fmt > 6 || major > 4)
        return gr_fail(d, d->pos - 12, SV_ERR_UNSUPPORTED,
                       "engine %u.%u, resource format %u (Godot reads formats up to 6, engine 4)",
                       major, minor, fmt);
    d->c.ver_format = fmt;
    sv_map_append_str(doc, meta, "container", sv_strz(doc, rscc ? "RSCC" : "RSRC"));
    sv_map_append_str(doc, meta, "big_endian", sv_int(be));
    sv_map_append_str(doc, meta, "use_real64", sv_int(real64));
    sv_map_append_str(doc, meta, "ver_major", sv_int(major));
    sv_map_append_str(doc, meta, "ver_minor", sv_int(minor));
    sv_map_append_str(doc, meta, "ver_format", sv_int(fmt));
    sv_value type;
    sv_status st = gr_read_ustring(d, "main resource type", &type);
    if (st != SV_OK) return st;
    sv_map_append_str(doc, meta, "type", type);
    if (!gr_need(d, 20, "header after the type")) return d->err->status;
    sv_map_append_str(doc, meta, "import_offset", sv_int((int64_t)gr_u64(d)));
    uint32_t flags = gr_u32(d);
    d->c.real64 = flags & GR_FLAG_REAL64;
    sv_map_append_str(doc, meta, "flags", sv_int(flags));
    sv_map_append_str(doc, meta, "uid", sv_int((int64_t)gr_u64(d)));
    if (flags & GR_FLAG_SCRIPT_CLASS) {
        sv_value sc;
        st = gr_read_ustring(d, "script class", &sc);
        if (st != SV_OK) return st;
        sv_map_append_str(doc, meta, "script_class", sc);
    }
    if (!gr_need(d, 44, "reserved header words")) return d->err->status;
    sv_value res = sv_array(doc, 11);
    if (res.kind != SV_ARRAY) return nomem(d);
    for (int i = 0; i < 11; i++) sv_array_items(&res)[i] = sv_int(gr_u32(d));
    sv_map_append_str(doc, meta, "reserved", res);
    return sv_doc_status(doc) == SV_OK ? SV_OK : nomem(d);
}

static sv_status read_strings(gr_dec *d, sv_value *meta)
{
    size_t at = d->pos;
    if (!gr_need(d, 4, "string table count")) return d->err->status;
    uint32_t n = gr_u32(d);
    if (n > (d->len - d->pos) / 5)
        return gr_fail(d, at, SV_ERR_TRUNCATED, "string table of %u strings runs past the end", n);
    sv_value arr = sv_array(d->doc, n);
    d->strings.s = sv_doc_alloc(d->doc, (size_t)(n ? n : 1) * sizeof *d->strings.s);
    d->strings.len = sv_doc_alloc(d->doc, (size_t)(n ? n : 1) * sizeof *d->strings.len);
    d->names = sv_doc_alloc(d->doc, (size_t)(n ? n : 1) * sizeof *d->names);
    if (arr.kind != SV_ARRAY || !d->strings.s || !d->strings.len || !d->names) return nomem(d);
    memset(d->names, 0, (size_t)(n ? n : 1) * sizeof *d->names); /* NULL: not seen yet */
    for (uint32_t i = 0; i < n; i++) {
        sv_value *s = sv_array_at(&arr, i);
        sv_status st = gr_read_ustring(d, "string table entry", s);
        if (st != SV_OK) {
            sv_error_path_index(d->err, i);
            sv_error_path_key(d->err, "strings", 7);
            return st;
        }
        d->strings.s[i] = s->as.str;
        d->strings.len[i] = s->len;
    }
    d->strings.count = n;
    if (!gr_strtab_index(d->doc, &d->strings)) return nomem(d);
    sv_map_append_str(d->doc, meta, "strings", arr);
    return sv_doc_status(d->doc) == SV_OK ? SV_OK : nomem(d);
}

static sv_status read_externals(gr_dec *d, uint32_t flags, sv_value *list)
{
    size_t at = d->pos;
    if (!gr_need(d, 4, "external resource count")) return d->err->status;
    uint32_t n = gr_u32(d);
    if (n > (d->len - d->pos) / 10)
        return gr_fail(d, at, SV_ERR_TRUNCATED, "%u external resources run past the end", n);
    *list = sv_array(d->doc, n);
    if (list->kind != SV_ARRAY) return nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        sv_value m = sv_map(d->doc, 0), type, path;
        sv_status st = gr_read_ustring(d, "external resource type", &type);
        if (st == SV_OK) st = gr_read_ustring(d, "external resource path", &path);
        if (st == SV_OK && (flags & GR_FLAG_UIDS) && !gr_need(d, 8, "external resource uid"))
            st = d->err->status;
        if (st != SV_OK) {
            sv_error_path_index(d->err, i);
            sv_error_path_key(d->err, "external", 8);
            return st;
        }
        sv_map_append_str(d->doc, &m, "type", type);
        sv_map_append_str(d->doc, &m, "path", path);
        if (flags & GR_FLAG_UIDS) sv_map_append_str(d->doc, &m, "uid", sv_int((int64_t)gr_u64(d)));
        sv_array_items(list)[i] = m;
    }
    return sv_doc_status(d->doc) == SV_OK ? SV_OK : nomem(d);
}

/* One body (spec §2.5) as an object of its class, meta {"path": ...}. */
static sv_status read_body(gr_dec *d, sv_value path, sv_value *out)
{
    sv_value type;
    size_t tat = d->pos;
    sv_status st = gr_read_ustring(d, "resource type", &type);
    if (st != SV_OK) return st;
    /* a class name and the property names are the tree's object class and
     * field names, which the typed JSON holds as text only */
    if (!sv__core_utf8_valid((const uint8_t *)type.as.str, type.len))
        return gr_fail(d, tat, SV_ERR_UTF8, "resource type is not UTF-8");
    size_t at = d->pos;
    if (!gr_need(d, 4, "property count")) return d->err->status;
    uint32_t n = gr_u32(d);
    if (n > (d->len - d->pos) / 8)
        return gr_fail(d, at, SV_ERR_TRUNCATED, "%u properties run past the end", n);
    sv_value obj = sv_object(d->doc, type, n);
    if (obj.kind != SV_OBJECT) return nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        size_t nat = d->pos;
        if (!gr_need(d, 4, "property name")) return d->err->status;
        uint32_t r = gr_u32(d);
        if (r & 0x80000000u)
            return gr_fail(d, nat, SV_ERR_UNSUPPORTED,
                           "property %u's name is inline (savers write a string table index)", i);
        if (r >= d->strings.count)
            return gr_fail(d, nat, SV_ERR_RANGE, "property %u's name: string %u of a table of %u",
                           i, r, d->strings.count);
        sv_pair *p = sv_pair_at(&obj, i);
        if (!d->names[r]) {
            /* the first property of this name: checked and interned once,
             * for the thousands of bodies of one class that follow */
            if (gr_strtab_find(&d->strings, d->strings.s[r], d->strings.len[r]) != r)
                return gr_fail(d, nat, SV_ERR_UNSUPPORTED,
                               "property %u's name is string %u, a repeat of an earlier entry", i,
                               r);
            if (!sv__core_utf8_valid((const uint8_t *)d->strings.s[r], d->strings.len[r]))
                return gr_fail(d, nat, SV_ERR_UTF8, "property %u's name (string %u) is not UTF-8",
                               i, r);
            sv_value key = sv_str_intern(d->doc, d->strings.s[r], d->strings.len[r]);
            if (key.kind != SV_STRING || !key.as.str) return nomem(d);
            d->names[r] = key.as.str;
        }
        p->key = sv__core_str_value(d->names[r], d->strings.len[r]);
        st = gr_read_variant(d, 1, &p->val);
        if (st != SV_OK) {
            sv_error_path_key(d->err, d->strings.s[r], d->strings.len[r]);
            return st;
        }
    }
    sv_value m = sv_map(d->doc, 0);
    sv_map_append_str(d->doc, &m, "path", path);
    sv_meta_set(d->doc, &obj, m);
    *out = obj;
    return sv_doc_status(d->doc) == SV_OK ? SV_OK : nomem(d);
}

static sv_status read_internals(gr_dec *d, sv_value *list)
{
    size_t at = d->pos;
    if (!gr_need(d, 4, "internal resource count")) return d->err->status;
    uint32_t n = gr_u32(d);
    if (n > (d->len - d->pos) / 14)
        return gr_fail(d, at, SV_ERR_TRUNCATED, "%u internal resources run past the end", n);
    if (n == 0) return gr_fail(d, at, SV_ERR_SYNTAX, "no internal resource (the main one is last)");
    sv_value *paths = sv_doc_alloc(d->doc, (size_t)n * sizeof *paths);
    uint64_t *offs = sv_doc_alloc(d->doc, (size_t)n * sizeof *offs);
    *list = sv_array(d->doc, n);
    if (!paths || !offs || list->kind != SV_ARRAY) return nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        sv_status st = gr_read_ustring(d, "internal resource path", &paths[i]);
        if (st == SV_OK && !gr_need(d, 8, "internal resource offset")) st = d->err->status;
        if (st != SV_OK) {
            sv_error_path_index(d->err, i);
            sv_error_path_key(d->err, "internal", 8);
            return st;
        }
        offs[i] = gr_u64(d);
    }
    for (uint32_t i = 0; i < n; i++) {
        sv_status st = SV_OK;
        if (offs[i] != d->pos)
            st = gr_fail(d, d->pos, offs[i] > d->len ? SV_ERR_RANGE : SV_ERR_UNSUPPORTED,
                         "internal resource %u's body is recorded at offset %llu, not where the "
                         "one before ends (%zu)",
                         i, (unsigned long long)offs[i], d->pos);
        if (st == SV_OK) st = read_body(d, paths[i], sv_array_at(list, i));
        if (st != SV_OK) {
            sv_error_path_index(d->err, i);
            sv_error_path_key(d->err, "internal", 8);
            return st;
        }
    }
    return SV_OK;
}

sv_status gr_decode_stream(sv_doc *doc, const uint8_t *data, size_t len, bool rscc,
                           const sv_options *opts, sv_value *out, sv_error *err)
{
    sv_limits lim = sv_limits_resolve(opts ? &opts->limits : NULL);
    gr_dec d;
    memset(&d, 0, sizeof d);
    d.doc = doc;
    d.base = data;
    d.len = len;
    d.rscc = rscc;
    d.borrow = opts && opts->borrow_input;
    d.err = err;
    d.c.max_depth = lim.max_depth > SV_MAX_DEPTH_LIMIT ? SV_MAX_DEPTH_LIMIT : lim.max_depth;
    d.c.max_string = lim.max_string;
    sv_error scratch;
    if (!d.err) {
        sv_error_clear(&scratch);
        d.err = &scratch;
    }
    if (!rscc) {
        if (len < 4 || memcmp(data, "RSRC", 4))
            return gr_fail(&d, 0, SV_ERR_SYNTAX, "no \"RSRC\" magic");
        d.pos = 4;
    }
    sv_value meta = sv_map(doc, 0), ext, inl;
    sv_status st = read_header(&d, rscc, &meta);
    if (st == SV_OK) st = read_strings(&d, &meta);
    uint32_t flags = (uint32_t)sv_get_int(sv_map_getz(&meta, "flags"));
    if (st == SV_OK) st = read_externals(&d, flags, &ext);
    if (st == SV_OK) st = read_internals(&d, &inl);
    if (st != SV_OK) return st;
    if (d.len - d.pos < 4 || memcmp(d.base + d.pos, "RSRC", 4))
        return gr_fail(&d, d.pos, d.len - d.pos < 4 ? SV_ERR_TRUNCATED : SV_ERR_SYNTAX,
                       "no \"RSRC\" after the main resource");
    if (d.len - d.pos > 4)
        return gr_fail(&d, d.pos + 4, SV_ERR_TRAILING, "%zu bytes after the final \"RSRC\"",
                       d.len - d.pos - 4);
    sv_value root = sv_map(doc, 2);
    if (root.kind != SV_MAP) return nomem(&d);
    sv_pair *p = sv_pairs(&root);
    p[0].key = sv_str_intern(doc, "external", 8);
    p[0].val = ext;
    p[1].key = sv_str_intern(doc, "internal", 8);
    p[1].val = inl;
    sv_meta_set(doc, &root, meta);
    if (sv_doc_status(doc) != SV_OK) return nomem(&d);
    *out = root;
    return SV_OK;
}
