/* Encode: the tree of noesis_decode.c back to the main header and chunks
 * (spec §B.2, §B.3, writer of §B.7). Sizes are written as placeholders and
 * patched once their block is complete; string offsets (classId, and the
 * Desc offsets inside the kept command stream) follow from the entries in
 * order, so an unedited tree gives back the same bytes.
 *
 * Options: version=N (2..5) overrides the tree's version; a tree without one
 * is written at version 5 (spec §B.7 writer 1). */
#include <string.h>

#include "formats/noesis/noesis_internal.h"

typedef struct enc {
    sv_buf *out;
    bool big, unicode;
    sv_error *err;
} enc;

static sv_status type_error(enc *e, const char *key, const char *msg)
{
    sv_status st = sv_error_set(e->err, SV_ERR_TYPE, NSB_FORMAT, 0, "%s", msg);
    if (key) sv_error_path_key(e->err, key, strlen(key));
    return st;
}

static void put32(enc *e, uint32_t v)
{
    if (e->big)
        sv_put_u32be(e->out, v);
    else
        sv_put_u32le(e->out, v);
}

static void store64(enc *e, size_t at, uint64_t v)
{
    if (e->big)
        sv__core_store_u64be(e->out->data + at, v);
    else
        sv__core_store_u64le(e->out->data + at, v);
}

/* Starts a block: a u64 size placeholder. Returns where it is. */
static size_t block_begin(enc *e)
{
    size_t at = e->out->len;
    sv_put_u64le(e->out, 0);
    return at;
}

static void block_end(enc *e, size_t at)
{
    if (sv_buf_ok(e->out)) store64(e, at, e->out->len - at - 8);
}

/* A uint of the tree (any width) that fits max; def when absent. */
static sv_status get_uint(enc *e, const sv_value *map, const char *key, uint64_t max, bool need,
                          uint64_t def, uint64_t *out)
{
    /* *out is written on every path, errors too: the callers test the status
     * and never read it after a failure, but the compiler (gcc -O3) cannot
     * see that type_error never returns SV_OK. */
    *out = def;
    const sv_value *v = sv_map_getz(map, key);
    if (!v) {
        if (need) return type_error(e, key, "missing");
        return SV_OK;
    }
    if ((v->kind == SV_INT && v->as.i >= 0) || v->kind == SV_UINT) {
        if (v->as.u <= max) {
            *out = v->as.u;
            return SV_OK;
        }
    }
    return type_error(e, key, "expected an unsigned integer in range");
}

/* The entry index a component's class names: "string" if given, else the
 * first entry with the same text. */
static sv_status component_entry(enc *e, const sv_value *comp, const sv_value *strings,
                                 uint32_t *idx)
{
    const sv_value *cls = sv_map_getz(comp, "class");
    if (!cls || (cls->kind != SV_STRING && cls->kind != SV_BYTES))
        return type_error(e, "class", "a component needs a class name (string)");
    uint64_t explicit_idx;
    sv_status st = get_uint(e, comp, "string", UINT32_MAX, false, UINT64_MAX, &explicit_idx);
    if (st != SV_OK) return st;
    const sv_value *items = sv_array_items(strings);
    if (explicit_idx != UINT64_MAX) {
        if (explicit_idx >= strings->len || !nsb_strlist_entry_equal(&items[explicit_idx], cls))
            return type_error(e, "string", "not the index of a string with the class's name");
        *idx = (uint32_t)explicit_idx;
        return SV_OK;
    }
    for (uint32_t i = 0; i < strings->len; i++)
        if (nsb_strlist_entry_equal(&items[i], cls)) {
            *idx = i;
            return SV_OK;
        }
    return type_error(e, "class", "the class name is not in the chunk's string list");
}

static sv_status write_components(enc *e, const sv_value *comps, const sv_value *strings,
                                  const uint32_t *offsets)
{
    if (sv_kind_of(comps) != SV_ARRAY) return type_error(e, "components", "expected an array");
    size_t at = block_begin(e);
    const sv_value *items = sv_array_items(comps);
    for (uint32_t i = 0; i < comps->len; i++) {
        uint32_t idx = 0;
        uint64_t version = 0;
        sv_status st = sv_kind_of(&items[i]) == SV_MAP
                           ? component_entry(e, &items[i], strings, &idx)
                           : type_error(e, NULL, "a component must be a map");
        if (st == SV_OK) st = get_uint(e, &items[i], "version", UINT32_MAX, true, 0, &version);
        if (st != SV_OK) {
            sv_error_path_index(e->err, i);
            sv_error_path_key(e->err, "components", 10);
            return st;
        }
        put32(e, offsets[idx]);
        put32(e, (uint32_t)version);
    }
    block_end(e, at);
    return SV_OK;
}

/* The instance list: component indices, each < the component count. */
static sv_status instance_list(enc *e, const sv_value *v, uint32_t components,
                               const uint32_t **list, uint32_t *count, sv_buf *tmp)
{
    if (sv_kind_of(v) == SV_PACKED && v->sub == SV_ELEM_U32) {
        *list = sv_numbers(v);
        *count = v->len;
    } else if (sv_kind_of(v) == SV_ARRAY) {
        const sv_value *items = sv_array_items(v);
        for (uint32_t i = 0; i < v->len; i++) {
            uint32_t x = (uint32_t)sv_get_uint(&items[i]);
            if ((items[i].kind != SV_UINT && items[i].kind != SV_INT) || items[i].as.u > UINT32_MAX)
                return type_error(e, "instances", "instance entries are component indices");
            sv_buf_append(tmp, &x, 4);
        }
        if (!sv_buf_ok(tmp))
            return sv_error_set(e->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
        *list = (const uint32_t *)(void *)tmp->data;
        *count = v->len;
    } else {
        return type_error(e, "instances", "expected a packed u32 array of component indices");
    }
    for (uint32_t i = 0; i < *count; i++)
        if ((*list)[i] >= components) {
            sv_status st = sv_error_set(e->err, SV_ERR_RANGE, NSB_FORMAT, 0,
                                        "instance %u names component %u, but there are %u", i,
                                        (*list)[i], components);
            sv_error_path_index(e->err, i);
            sv_error_path_key(e->err, "instances", 9);
            return st;
        }
    return SV_OK;
}

/* Objects must name their component's class (the decoder made them so). */
static sv_status check_classes(enc *e, const sv_value *objects, const uint32_t *list,
                               const sv_value *comps)
{
    const sv_value *objs = sv_array_items(objects);
    const sv_value *comp_items = sv_array_items(comps);
    for (uint32_t i = 0; i < objects->len; i++) {
        const sv_value *cls = sv_kind_of(&objs[i]) == SV_OBJECT ? objs[i].as.box->cls : NULL;
        const sv_value *want = sv_map_getz(&comp_items[list[i]], "class");
        bool ok =
            cls && want &&
            ((cls->kind == SV_UINT && cls->as.u == list[i]) ||
             (cls->kind == SV_STRING && ((cls->as.str == want->as.str && cls->len == want->len) ||
                                         nsb_strlist_entry_equal(cls, want))));
        if (!ok) {
            sv_status st =
                sv_error_set(e->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                             "instance %u must be an object of its component's class", i);
            sv_error_path_index(e->err, i);
            sv_error_path_key(e->err, "objects", 7);
            return st;
        }
    }
    return SV_OK;
}

static sv_status write_chunk(enc *e, const sv_value *chunk, sv_buf *tmp)
{
    if (sv_kind_of(chunk) != SV_MAP) return type_error(e, NULL, "a chunk must be a map");
    const sv_value *strings = sv_map_getz(chunk, "strings");
    const sv_value *comps = sv_map_getz(chunk, "components");
    const sv_value *md = sv_map_getz(chunk, "metadata");
    const sv_value *objects = sv_map_getz(chunk, "objects");
    const sv_value *data = sv_map_getz(chunk, "data");
    if (sv_kind_of(comps) != SV_ARRAY) return type_error(e, "components", "expected an array");
    if (md && md->kind != SV_NULL && md->kind != SV_MAP)
        return type_error(e, "metadata", "expected null or a map");
    bool has_md = md && md->kind == SV_MAP;
    if (!!objects == !!data)
        return type_error(e, NULL, "a chunk needs either \"objects\" or \"data\"");
    if (objects && (!has_md || objects->kind != SV_ARRAY))
        return type_error(e, "objects", "objects (an array) need metadata to be written");
    if (data && data->kind != SV_BYTES) return type_error(e, "data", "expected bytes");

    size_t chunk_at = block_begin(e);
    size_t at = block_begin(e);
    tmp->len = 0;
    sv_status st = nsb_strlist_write(strings, e->unicode, e->big, e->out, tmp, e->err);
    if (st != SV_OK) {
        sv_error_path_key(e->err, "strings", 7);
        return st;
    }
    block_end(e, at);
    if (!sv_buf_ok(tmp)) return sv_error_set(e->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
    st = write_components(e, comps, strings, (const uint32_t *)(void *)tmp->data);
    if (st != SV_OK) return st;

    size_t md_at = block_begin(e);
    const sv_value *cmds = has_md ? sv_map_getz(md, "commands") : NULL;
    const sv_value *md_strings = has_md ? sv_map_getz(md, "strings") : NULL;
    if (has_md) {
        if (sv_kind_of(cmds) != SV_BYTES) {
            sv_error_path_key(e->err, "commands", 8);
            return type_error(e, "metadata", "metadata commands must be bytes");
        }
        at = block_begin(e);
        tmp->len = 0;
        st = nsb_strlist_write(md_strings, e->unicode, e->big, e->out, tmp, e->err);
        if (st == SV_OK && !sv_buf_ok(tmp))
            st = sv_error_set(e->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
        if (st != SV_OK) {
            sv_error_path_key(e->err, "strings", 7);
            sv_error_path_key(e->err, "metadata", 8);
            return st;
        }
        block_end(e, at);
        at = block_begin(e);
        st = nsb_cmds_to_file(cmds->as.bytes, cmds->len, e->big,
                              (const uint32_t *)(void *)tmp->data, md_strings->len, e->out, e->err);
        if (st != SV_OK) {
            sv_error_path_key(e->err, "commands", 8);
            sv_error_path_key(e->err, "metadata", 8);
            return st;
        }
        block_end(e, at);
    }
    block_end(e, md_at);

    /* The instance list must be read before the data, whose refs it bounds. */
    const uint32_t *list = NULL;
    uint32_t count = 0;
    tmp->len = 0;
    st = instance_list(e, sv_map_getz(chunk, "instances"), comps->len, &list, &count, tmp);
    if (st != SV_OK) return st;
    at = block_begin(e);
    if (sv_buf_ok(e->out)) {
        /* tmp may hold the list; write it before tmp is reused */
        for (uint32_t i = 0; i < count; i++) put32(e, list[i]);
    }
    block_end(e, at);

    at = block_begin(e);
    if (data) {
        sv_buf_append(e->out, data->as.bytes, data->len);
    } else {
        if (objects->len != count)
            return type_error(e, "objects", "there must be one object per instance");
        st = check_classes(e, objects, list, comps);
        if (st != SV_OK || !sv_buf_ok(e->out)) return st != SV_OK ? st : SV_ERR_NOMEM;
        nsb_cmds cs = {cmds->as.bytes,
                       cmds->as.bytes + cmds->len,
                       0,
                       sv_array_items(md_strings),
                       md_strings->len,
                       NULL,
                       NULL,
                       e->err};
        st = nsb_emit_run(&cs, objects, count, e->big, e->out, e->err);
        if (st != SV_OK) {
            sv_error_path_key(e->err, "objects", 7);
            return st;
        }
    }
    block_end(e, at);
    block_end(e, chunk_at);
    return SV_OK;
}

sv_status nsb_encode(const sv_value *v, const sv_noesis_opts *opts, sv_buf *out, sv_error *err)
{
    enc e = {out, false, false, err};
    if (sv_kind_of(v) != SV_MAP)
        return sv_error_set(err, SV_ERR_TYPE, NSB_FORMAT, 0,
                            "an NSDH tree is a map with \"chunks\" (docs/formats/noesis.md)");
    const sv_value *order = sv_map_getz(v, "byte_order");
    if (order) {
        size_t n;
        const char *s = sv_get_str(order, &n);
        if (order->kind == SV_STRING && n == 3 && memcmp(s, "big", 3) == 0)
            e.big = true;
        else if (!(order->kind == SV_STRING && n == 6 && memcmp(s, "little", 6) == 0))
            return type_error(&e, "byte_order", "expected \"little\" or \"big\"");
    }
    const sv_value *uni = sv_map_getz(v, "unicode");
    if (uni && uni->kind != SV_BOOL) return type_error(&e, "unicode", "expected true or false");
    e.unicode = uni && uni->as.b;
    uint64_t version;
    sv_status st =
        get_uint(&e, v, "version", NSB_VERSION_MAX, false, NSB_VERSION_DEFAULT, &version);
    if (st != SV_OK) return st;
    if (opts->version) {
        if (opts->version < NSB_VERSION_MIN || opts->version > NSB_VERSION_MAX)
            return sv_error_set(err, SV_ERR_USAGE, NSB_FORMAT, 0,
                                "version %d: expected 2, 3, 4 or 5 (or 0, the tree's)",
                                opts->version);
        version = (uint64_t)opts->version;
    }
    if (version < NSB_VERSION_MIN)
        return type_error(&e, "version", "versions 2 to 5 can be written");
    const sv_value *chunks = sv_map_getz(v, "chunks");
    if (sv_kind_of(chunks) != SV_ARRAY) return type_error(&e, "chunks", "expected an array");

    size_t start = out->len;
    put32(&e, NSB_SIGNATURE);
    if (e.big) {
        sv_put_u16be(out, (uint16_t)version);
        sv_put_u16be(out, e.unicode ? 1 : 0);
    } else {
        sv_put_u16le(out, (uint16_t)version);
        sv_put_u16le(out, e.unicode ? 1 : 0);
    }
    put32(&e, chunks->len);
    sv_buf tmp;
    sv_buf_init(&tmp, out->alloc);
    const sv_value *items = sv_array_items(chunks);
    for (uint32_t i = 0; i < chunks->len && st == SV_OK; i++) {
        st = write_chunk(&e, &items[i], &tmp);
        if (st != SV_OK) {
            sv_error_path_index(err, i);
            sv_error_path_key(err, "chunks", 6);
        }
    }
    bool tmp_ok = sv_buf_ok(&tmp);
    sv_buf_free(&tmp);
    if (st == SV_OK && (!sv_buf_ok(out) || !tmp_ok))
        st = sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
    if (st != SV_OK) out->len = start < out->len ? start : out->len;
    return st;
}
