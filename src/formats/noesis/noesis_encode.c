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
    const nsb_feed *feed; /* transcoding: writes the data section (nsb_encode_chunk) */
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

/* Per component, its "class" value (NULL when it has none), for the
 * emitter's check that each object names its component's class. */
static sv_status component_classes(enc *e, const sv_value *comps, sv_buf *out)
{
    const sv_value *items = sv_array_items(comps);
    out->len = 0;
    for (uint32_t i = 0; i < comps->len; i++) {
        const sv_value *want = sv_map_getz(&items[i], "class");
        sv_buf_append(out, &want, sizeof want);
    }
    return sv_buf_ok(out) ? SV_OK
                          : sv_error_set(e->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
}

/* Bytes the encoder keeps while writing a chunk: the string lists (written
 * before their sizes are), their entries' offsets and an instance list
 * given as a plain array. */
typedef struct scratch {
    sv_buf strings, strings_at, md_strings, md_strings_at, list, classes;
} scratch;

static const sv_value *const *classes_of(const scratch *t)
{
    return (const sv_value *const *)(const void *)t->classes.data;
}

static sv_status discard(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return SV_OK;
}

/* The size of the data section the commands write for objects, found by
 * writing it into a small buffer whose sink drops the bytes: a streamed
 * output needs the size before the section, and this pass also checks every
 * field before a byte of the file is handed on (spec §B.7 writer 3). */
static sv_status data_size(enc *e, const nsb_cmds *cs, const sv_value *objects, uint32_t count,
                           const uint32_t *list, const sv_value *const *classes, uint64_t *size)
{
    sv_buf counter;
    sv_buf_init(&counter, e->out->alloc);
    sv_buf_set_sink(&counter, discard, NULL, (size_t)1 << 16);
    sv_status st = nsb_emit_run(cs, objects, count, list, classes, e->big, NULL, &counter, e->err);
    if (st == SV_OK && sv_buf_flush(&counter) != SV_OK) st = nsb_output_failed(&counter, e->err);
    *size = sv_buf_pos(&counter);
    sv_buf_free(&counter);
    return st;
}

static void put64(enc *e, uint64_t v)
{
    if (e->big)
        sv_put_u64be(e->out, v);
    else
        sv_put_u64le(e->out, v);
}

/* A block whose size is known: u64 size, then the bytes. */
static void put_block(enc *e, const sv_buf *b)
{
    put64(e, b->len);
    sv_buf_append(e->out, b->data, b->len);
    sv_buf_release(e->out);
}

static sv_status nomem(enc *e)
{
    return sv_error_set(e->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
}

/* The instance list's entries: little-endian on a little-endian host as
 * they are, a window at a time so that a streamed output never holds it
 * all; else one at a time. */
static void put_instances(enc *e, const uint32_t *list, uint32_t count)
{
    const uint16_t one = 1;
    if (!e->big && *(const uint8_t *)&one == 1) {
        const size_t piece =
            e->out->sink ? (e->out->window > 64 ? e->out->window : 64) / 4 : (size_t)count;
        for (size_t i = 0; i < count && sv_buf_ok(e->out); i += piece) {
            sv_buf_append(e->out, list + i, 4 * (count - i < piece ? count - i : piece));
            sv_buf_release(e->out);
        }
        return;
    }
    for (uint32_t i = 0; i < count && sv_buf_ok(e->out); i++) {
        put32(e, list[i]);
        sv_buf_release(e->out);
    }
}

/* After a run with the commands written as it went (nsb_cmds_out): when
 * the run failed or a command could not be converted, nsb_cmds_to_file
 * converts them again, so that a bad command is reported first, as when
 * the commands are converted before the data; when it finds nothing wrong,
 * its bytes replace the section and the run's own status stands. */
static sv_status cmds_out_finish(enc *e, nsb_cmds_out *w, sv_status st)
{
    if (st == SV_OK && nsb_cmds_out_end(w)) return SV_OK;
    sv_error why;
    sv_error_clear(&why);
    sv_buf file;
    sv_buf_init(&file, e->out->alloc);
    sv_status cst = nsb_cmds_to_file(w->src, w->len, false, w->offsets, w->name_count, &file, &why);
    if (cst == SV_OK && !sv_buf_ok(&file)) cst = nsb_output_failed(&file, &why);
    if (cst == SV_OK && st == SV_OK && sv_buf_ok(e->out) && file.len == w->len)
        memcpy(e->out->data + w->at, file.data, w->len);
    sv_buf_free(&file);
    if (cst != SV_OK) {
        if (e->err) *e->err = why; /* the commands' error replaces the run's */
        sv_error_path_key(e->err, "commands", 8);
        sv_error_path_key(e->err, "metadata", 8);
        return cst;
    }
    return st;
}

/* A chunk (spec §B.3). Every block but the components is written after its
 * size is known. With a sink on the output (sv_buf_set_sink) the chunk's
 * and the data's sizes are found first too (data_size), so nothing is
 * patched and the output streams: the buffer holds a window, not the file.
 * Without one, those two sizes are patched once their blocks are written,
 * which spares the sizing pass. */
static sv_status write_chunk(enc *e, const sv_value *chunk, scratch *t)
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
    const nsb_feed *feed = has_md && !objects && !data ? e->feed : NULL;
    if (!feed && !!objects == !!data)
        return type_error(e, NULL, "a chunk needs either \"objects\" or \"data\"");
    if (objects && (!has_md || objects->kind != SV_ARRAY))
        return type_error(e, "objects", "objects (an array) need metadata to be written");
    if (data && data->kind != SV_BYTES) return type_error(e, "data", "expected bytes");
    const bool stream = e->out->sink != NULL;
    /* Whole in the buffer and little-endian, the commands' file form is
     * written while the data is (noesis_cmds_out.c). */
    const bool cmds_with_data = !stream && objects && !e->big;
    nsb_cmds_out cmds_out = {0};

    t->strings.len = t->strings_at.len = t->md_strings.len = t->md_strings_at.len = 0;
    t->list.len = 0;
    sv_status st =
        nsb_strlist_write(strings, e->unicode, e->big, &t->strings, &t->strings_at, e->err);
    if (st != SV_OK) {
        sv_error_path_key(e->err, "strings", 7);
        return st;
    }
    const sv_value *cmds = has_md ? sv_map_getz(md, "commands") : NULL;
    const sv_value *md_strings = has_md ? sv_map_getz(md, "strings") : NULL;
    if (has_md) {
        if (sv_kind_of(cmds) != SV_BYTES) {
            sv_error_path_key(e->err, "commands", 8);
            return type_error(e, "metadata", "metadata commands must be bytes");
        }
        st = nsb_strlist_write(md_strings, e->unicode, e->big, &t->md_strings, &t->md_strings_at,
                               e->err);
        if (st != SV_OK) {
            sv_error_path_key(e->err, "strings", 7);
            sv_error_path_key(e->err, "metadata", 8);
            return st;
        }
    }
    if (!sv_buf_ok(&t->strings) || !sv_buf_ok(&t->strings_at) || !sv_buf_ok(&t->md_strings) ||
        !sv_buf_ok(&t->md_strings_at))
        return nomem(e);
    /* The instance list must be read before the data, whose refs it bounds. */
    const uint32_t *list = NULL;
    uint32_t count = 0;
    st = instance_list(e, sv_map_getz(chunk, "instances"), comps->len, &list, &count, &t->list);
    if (st != SV_OK) return st;
    nsb_cmds cs = {0};
    if (objects || feed) {
        if (objects && objects->len != count)
            return type_error(e, "objects", "there must be one object per instance");
        st = component_classes(e, comps, &t->classes);
        if (st != SV_OK) return st;
        cs = (nsb_cmds){cmds->as.bytes,
                        cmds->as.bytes + cmds->len,
                        0,
                        sv_array_items(md_strings),
                        md_strings->len,
                        NULL,
                        NULL,
                        e->err};
    }
    uint64_t md_size = has_md ? 16 + (uint64_t)t->md_strings.len + cmds->len : 0;
    uint64_t dsize = data ? data->len : feed ? feed->size : 0;
    if (stream && objects) {
        st = data_size(e, &cs, objects, count, list, classes_of(t), &dsize);
        if (st != SV_OK) {
            sv_error_path_key(e->err, "objects", 7);
            return st;
        }
    }

    /* chunkSize: the bytes after it (spec §B.3) */
    size_t chunk_at = e->out->len;
    put64(e, 8 + (uint64_t)t->strings.len + 8 + 8 * (uint64_t)comps->len + 8 + md_size + 8 +
                 4 * (uint64_t)count + 8 + dsize);
    put_block(e, &t->strings);
    st = write_components(e, comps, strings, (const uint32_t *)(void *)t->strings_at.data);
    if (st != SV_OK) return st;
    sv_buf_release(e->out);
    put64(e, md_size);
    if (has_md) {
        put_block(e, &t->md_strings);
        put64(e, cmds->len); /* the file form has the canonical form's length */
        const uint32_t *name_at = (const uint32_t *)(void *)t->md_strings_at.data;
        if (cmds_with_data)
            nsb_cmds_out_begin(&cmds_out, cmds->as.bytes, cmds->len, name_at, md_strings->len,
                               e->out);
        else
            st = nsb_cmds_to_file(cmds->as.bytes, cmds->len, e->big, name_at, md_strings->len,
                                  e->out, e->err);
        if (st != SV_OK) {
            sv_error_path_key(e->err, "commands", 8);
            sv_error_path_key(e->err, "metadata", 8);
            return st;
        }
    }
    put64(e, 4 * (uint64_t)count);
    put_instances(e, list, count);

    size_t data_at = e->out->len;
    uint64_t data_pos = sv_buf_pos(e->out) + 8;
    put64(e, dsize);
    if (data) {
        /* a window at a time, so that a streamed output never holds it all */
        const size_t piece = e->out->sink ? (e->out->window > 64 ? e->out->window : 64) : SIZE_MAX;
        for (size_t at = 0; at < data->len && sv_buf_ok(e->out); at += piece) {
            sv_buf_append(e->out, data->as.bytes + at,
                          data->len - at < piece ? data->len - at : piece);
            sv_buf_release(e->out);
        }
    } else {
        if (!sv_buf_ok(e->out)) return nsb_output_failed(e->out, e->err);
        st = feed ? feed->write(feed->ctx, &cs, list, classes_of(t), count, e->big, e->out, e->err)
                  : nsb_emit_run(&cs, objects, count, list, classes_of(t), e->big,
                                 cmds_with_data ? &cmds_out : NULL, e->out, e->err);
        if (st != SV_OK) sv_error_path_key(e->err, "objects", 7);
        if (cmds_with_data) st = cmds_out_finish(e, &cmds_out, st);
        if (st != SV_OK) return st;
    }
    sv_buf_release(e->out);
    if (!sv_buf_ok(e->out)) return nsb_output_failed(e->out, e->err);
    uint64_t wrote = sv_buf_pos(e->out) - data_pos;
    if (stream || feed) {
        /* the sizing pass and the writing pass ran the same commands */
        if (wrote != dsize)
            return sv_error_set(e->err, SV_ERR_TYPE, NSB_FORMAT, data_pos,
                                "the tree changed while it was written: the data took %llu "
                                "bytes, %llu were announced",
                                (unsigned long long)wrote, (unsigned long long)dsize);
        return SV_OK;
    }
    store64(e, data_at, wrote);
    store64(e, chunk_at, e->out->len - chunk_at - 8);
    return SV_OK;
}

static void scratch_init(scratch *t, const sv_alloc *alloc)
{
    sv_buf_init(&t->strings, alloc);
    sv_buf_init(&t->strings_at, alloc);
    sv_buf_init(&t->md_strings, alloc);
    sv_buf_init(&t->md_strings_at, alloc);
    sv_buf_init(&t->list, alloc);
    sv_buf_init(&t->classes, alloc);
}

/* Frees t; false when its instance list could not grow. */
static bool scratch_free(scratch *t)
{
    bool ok = sv_buf_ok(&t->list);
    sv_buf_free(&t->strings);
    sv_buf_free(&t->strings_at);
    sv_buf_free(&t->md_strings);
    sv_buf_free(&t->md_strings_at);
    sv_buf_free(&t->list);
    sv_buf_free(&t->classes);
    return ok;
}

/* spec §B.2: the main header. */
static void write_header(enc *e, uint16_t version, uint32_t chunks)
{
    put32(e, NSB_SIGNATURE);
    if (e->big) {
        sv_put_u16be(e->out, version);
        sv_put_u16be(e->out, e->unicode ? 1 : 0);
    } else {
        sv_put_u16le(e->out, version);
        sv_put_u16le(e->out, e->unicode ? 1 : 0);
    }
    put32(e, chunks);
}

void nsb_encode_header(const sv_noesis_opts *opts, bool big, bool unicode, unsigned version,
                       uint32_t chunks, sv_buf *out)
{
    enc e = {out, big, unicode, NULL, NULL};
    write_header(&e, (uint16_t)(opts->version ? (unsigned)opts->version : version), chunks);
}

sv_status nsb_encode_chunk(bool big, bool unicode, const sv_value *chunk, const nsb_feed *feed,
                           sv_buf *out, sv_error *err)
{
    enc e = {out, big, unicode, err, feed};
    scratch t;
    scratch_init(&t, out->alloc);
    sv_status st = write_chunk(&e, chunk, &t);
    if (!scratch_free(&t) && st == SV_OK) st = nomem(&e);
    if (st == SV_OK && !sv_buf_ok(out)) st = nsb_output_failed(out, err);
    return st;
}

sv_status nsb_encode(const sv_value *v, const sv_noesis_opts *opts, sv_buf *out, sv_error *err)
{
    enc e = {out, false, false, err, NULL};
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
    uint64_t flushed0 = out->flushed;
    write_header(&e, (uint16_t)version, chunks->len);
    scratch t;
    scratch_init(&t, out->alloc);
    const sv_value *items = sv_array_items(chunks);
    for (uint32_t i = 0; i < chunks->len && st == SV_OK; i++) {
        st = write_chunk(&e, &items[i], &t);
        if (st != SV_OK) {
            sv_error_path_index(err, i);
            sv_error_path_key(err, "chunks", 6);
        }
    }
    bool tmp_ok = scratch_free(&t);
    if (st == SV_OK && !sv_buf_ok(out))
        st = nsb_output_failed(out, err);
    else if (st == SV_OK && !tmp_ok)
        st = sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
    /* a failed encode leaves out as it was; bytes already handed to a sink
     * are the caller's to discard (buf.h) */
    if (st != SV_OK) out->len = out->flushed != flushed0 ? 0 : start < out->len ? start : out->len;
    return st;
}
