/* Decode: the main header and the chunk framing (spec §B.2, §B.3) into the
 * tree of docs/formats/noesis.md:
 *
 *   {"byte_order": "little", "version": {"$u16": 4}, "unicode": false,
 *    "chunks": [{"strings": [...], "components": [{"class": ..., "version": ...}],
 *                "metadata": null | {"strings": [...], "commands": {"$bytes": ...}},
 *                "instances": {"$u32s": [...]},
 *                "objects": [...]   (with metadata)   |   "data": {"$bytes": ...}}]}
 *
 * Every size is checked against the bytes that remain before anything is
 * made, and the chunk's blocks must fill its chunkSize exactly. */
#include <string.h>

#include "core/doc_internal.h"
#include "formats/noesis/noesis_internal.h"

typedef struct dec {
    sv_doc *doc;
    sv_reader r;
    bool big, unicode, raw;
    sv_limits lim;
    sv_error *err;
    const nsb_stream *stream; /* transcoding: each chunk is written once read */
} dec;

static uint16_t rd16(dec *d)
{
    return d->big ? sv_rd_u16be(&d->r) : sv_rd_u16le(&d->r);
}
static uint32_t rd32(dec *d)
{
    return d->big ? sv_rd_u32be(&d->r) : sv_rd_u32le(&d->r);
}
static uint64_t rd64(dec *d)
{
    return d->big ? sv_rd_u64be(&d->r) : sv_rd_u64le(&d->r);
}

static sv_status nomem(dec *d)
{
    sv_status st = sv_doc_status(d->doc);
    return sv_error_set(d->err, st != SV_OK ? st : SV_ERR_NOMEM, NSB_FORMAT,
                        sv__core_rd_offset(&d->r), "out of memory building the tree");
}

static bool put(dec *d, sv_value *map, const char *key, sv_value v)
{
    return sv_map_append_str(d->doc, map, key, v) == SV_OK;
}

/* A block: u64 size, then size bytes inside the chunk (spec §B.3: sizes
 * exclude their own 8-byte field). */
static sv_status read_block(dec *d, const uint8_t *chunk_end, const char *what, const uint8_t **p,
                            size_t *size)
{
    uint64_t off = sv__core_rd_offset(&d->r);
    uint64_t n = rd64(d);
    if (!sv__core_rd_ok(&d->r)) return d->r.status;
    size_t left = (size_t)(chunk_end - d->r.p);
    if (d->r.p > chunk_end || n > left)
        return sv_error_set(d->err, SV_ERR_TRUNCATED, NSB_FORMAT, off,
                            "%s size %llu exceeds the %zu bytes left in the chunk", what,
                            (unsigned long long)n, d->r.p > chunk_end ? (size_t)0 : left);
    *p = d->r.p;
    *size = (size_t)n;
    d->r.p += n;
    return SV_OK;
}

static sv_value strlist_array(dec *d, const nsb_strlist *sl)
{
    sv_value arr = sv_array(d->doc, sl->count);
    if (arr.kind == SV_ARRAY && sl->count)
        memcpy(sv_array_items(&arr), sl->entries, sl->count * sizeof(sv_value));
    return arr;
}

/* spec §B.3: { u32 classId (a BYTE offset into the string list); u32 version } */
static sv_status read_components(dec *d, const uint8_t *p, size_t size, const nsb_strlist *sl,
                                 sv_value *out, sv_value **classes)
{
    uint64_t base = (uint64_t)(p - d->r.base);
    if (size % 8)
        return sv_error_set(d->err, SV_ERR_SYNTAX, NSB_FORMAT, base - 8,
                            "component list size %zu is not a multiple of 8", size);
    size_t count = size / 8;
    *out = sv_array(d->doc, count);
    *classes = sv_doc_alloc(d->doc, (count ? count : 1) * sizeof(sv_value));
    if (out->kind != SV_ARRAY || !*classes) return nomem(d);
    sv_value *items = sv_array_items(out);
    for (size_t i = 0; i < count; i++) {
        const uint8_t *e = p + 8 * i;
        uint32_t class_id = d->big ? sv__core_load_u32be(e) : sv__core_load_u32le(e);
        uint32_t version = d->big ? sv__core_load_u32be(e + 4) : sv__core_load_u32le(e + 4);
        int64_t idx = nsb_strlist_find_start(sl, class_id);
        if (idx < 0) {
            sv_status st =
                sv_error_set(d->err, SV_ERR_RANGE, NSB_FORMAT, base + 8 * i,
                             "classId %u is not the offset of a string in the %zu-byte string "
                             "list",
                             class_id, sl->size);
            sv_error_path_index(d->err, i);
            return st;
        }
        const sv_value *name = &sl->entries[idx];
        sv_value c = sv_map(d->doc, 3);
        if (c.kind != SV_MAP) return nomem(d);
        c.len = 0;
        bool ok = put(d, &c, "class", *name) && put(d, &c, "version", sv_uint_w(version, 4));
        /* The class is found again by name; only when an earlier entry has
         * the same text does the tree need the entry's index. */
        int64_t first = 0;
        while (!nsb_strlist_entry_equal(&sl->entries[first], name)) first++;
        if (ok && first != idx) ok = put(d, &c, "string", sv_uint_w((uint64_t)idx, 4));
        if (!ok) return nomem(d);
        items[i] = c;
        /* Objects carry the class name; a name that is not UTF-8 (which the
         * typed JSON cannot hold as a class) is given as the component index. */
        sv_value cls = *name;
        cls.flags = 0;
        if (cls.kind != SV_STRING || !sv__core_utf8_valid(cls.as.bytes, cls.len)) cls = sv_uint(i);
        (*classes)[i] = cls;
    }
    return SV_OK;
}

/* spec §B.3: u32 component index per instance */
static sv_status read_instances(dec *d, const uint8_t *p, size_t size, size_t components,
                                sv_value *out)
{
    uint64_t base = (uint64_t)(p - d->r.base);
    if (size % 4)
        return sv_error_set(d->err, SV_ERR_SYNTAX, NSB_FORMAT, base - 8,
                            "instance list size %zu is not a multiple of 4", size);
    if (size / 4 > UINT32_MAX)
        return sv_error_set(d->err, SV_ERR_LIMIT, NSB_FORMAT, base - 8, "too many instances");
    *out = sv_packed(d->doc, SV_ELEM_U32, SV_TAG_NONE, NULL, size / 4);
    if (out->kind != SV_PACKED) return nomem(d);
    uint32_t *v = sv_value_buf(out);
    for (size_t i = 0; i < size / 4; i++) {
        v[i] = d->big ? sv__core_load_u32be(p + 4 * i) : sv__core_load_u32le(p + 4 * i);
        if (v[i] >= components) {
            sv_status st = sv_error_set(d->err, SV_ERR_RANGE, NSB_FORMAT, base + 4 * i,
                                        "instance %zu names component %u, but there are %zu", i,
                                        v[i], components);
            sv_error_path_index(d->err, i);
            return st;
        }
    }
    return SV_OK;
}

typedef struct chunk_blocks {
    const uint8_t *strings, *components, *md_strings, *md_commands, *instances, *data;
    size_t strings_size, components_size, md_strings_size, md_commands_size, instances_size,
        data_size;
    bool has_metadata;
} chunk_blocks;

static sv_status read_framing(dec *d, chunk_blocks *b)
{
    uint64_t off = sv__core_rd_offset(&d->r);
    uint64_t chunk_size = rd64(d);
    if (!sv__core_rd_ok(&d->r)) return d->r.status;
    if (chunk_size > (uint64_t)(d->r.end - d->r.p))
        return sv_error_set(d->err, SV_ERR_TRUNCATED, NSB_FORMAT, off,
                            "chunk size %llu exceeds the %zu bytes left in the file",
                            (unsigned long long)chunk_size, (size_t)(d->r.end - d->r.p));
    const uint8_t *end = d->r.p + chunk_size;
    sv_status st = read_block(d, end, "string list", &b->strings, &b->strings_size);
    if (st == SV_OK) st = read_block(d, end, "component list", &b->components, &b->components_size);
    const uint8_t *md;
    size_t md_size = 0;
    uint64_t md_off = sv__core_rd_offset(&d->r);
    if (st == SV_OK) st = read_block(d, end, "metadata", &md, &md_size);
    b->has_metadata = md_size > 0;
    if (st == SV_OK && b->has_metadata) {
        /* spec §B.3: metadataSize == 16 + mdStringsSize + mdCommandsSize;
         * when it is 0 neither inner block is there. */
        d->r.p = md;
        st = read_block(d, md + md_size, "metadata strings", &b->md_strings, &b->md_strings_size);
        if (st == SV_OK)
            st = read_block(d, md + md_size, "metadata commands", &b->md_commands,
                            &b->md_commands_size);
        if (st == SV_OK && d->r.p != md + md_size)
            st = sv_error_set(d->err, SV_ERR_SYNTAX, NSB_FORMAT, md_off,
                              "metadata size %zu is not 16 + %zu + %zu", md_size,
                              b->md_strings_size, b->md_commands_size);
    }
    if (st == SV_OK) st = read_block(d, end, "instance list", &b->instances, &b->instances_size);
    if (st == SV_OK) st = read_block(d, end, "data", &b->data, &b->data_size);
    if (st == SV_OK && d->r.p != end)
        st = sv_error_set(d->err, SV_ERR_SYNTAX, NSB_FORMAT, sv__core_rd_offset(&d->r),
                          "the chunk's blocks end %zu bytes before its size %llu says",
                          (size_t)(end - d->r.p), (unsigned long long)chunk_size);
    return st;
}

/* ---- transcoding: each instance written as soon as it is read ---- */

/* Values of one document are emptied once they take this many bytes. */
#define NSB_VALUES_RESET ((uint64_t)1 << 20)

typedef struct stream_ctx {
    dec *d;
    nsb_interp_in *in;
    nsb_emitter *em;
} stream_ctx;

static sv_status stream_instance(void *ctx, uint32_t n, const nsb_cmd *begin, const uint8_t *body,
                                 const sv_value *obj)
{
    stream_ctx *c = ctx;
    sv_status st = nsb_emitter_instance(c->em, body, begin, n, obj);
    /* the instance is written: its values are not needed any more */
    if (sv_doc_allocated(c->d->stream->values) >= NSB_VALUES_RESET)
        sv_doc_reset(c->d->stream->values);
    return st;
}

/* The data section, as the encoder asks for it (nsb_feed): the commands run
 * over the data, and each instance they make is written by the emitter. */
static sv_status stream_data(void *ctx, const nsb_cmds *cmds, const uint32_t *components,
                             const sv_value *const *classes, uint32_t instance_count, bool big,
                             sv_buf *out, sv_error *err)
{
    stream_ctx *c = ctx;
    c->em = nsb_emitter_new(cmds, instance_count, components, classes, big, out, err);
    if (!c->em) return SV_ERR_NOMEM;
    c->in->each = stream_instance;
    c->in->each_ctx = c;
    c->in->values = c->d->stream->values;
    sv_value objects, *names = NULL;
    sv_status st = nsb_interp_run(c->d->doc, c->in, &objects, &names);
    sv_doc_reset(c->d->stream->values);
    return nsb_emitter_end(c->em, st);
}

/* A chunk with metadata, framing read (in chunk), written through the
 * encoder with its data section from stream_data. The data takes as many
 * bytes as it did in the input: every tree the decoder makes is written
 * back byte for byte, and the encoder checks the size it announced. */
static sv_status stream_chunk(dec *d, nsb_interp_in *in, sv_value *chunk, size_t data_size)
{
    stream_ctx c = {d, in, NULL};
    nsb_feed feed = {data_size, stream_data, &c};
    return nsb_encode_chunk(d->big, d->unicode, chunk, &feed, d->stream->out, d->err);
}

static sv_status read_chunk(dec *d, sv_value *chunk)
{
    chunk_blocks b;
    memset(&b, 0, sizeof b);
    sv_status st = read_framing(d, &b);
    if (st != SV_OK) return st;
    const uint8_t *base = d->r.base;
    nsb_strlist strings, md_strings;
    st = nsb_strlist_read(d->doc, &strings, b.strings, b.strings_size, d->unicode, d->big, true,
                          (uint64_t)(b.strings - base), d->err);
    if (st != SV_OK) return st;
    sv_value components, instances, *classes = NULL;
    st = read_components(d, b.components, b.components_size, &strings, &components, &classes);
    if (st != SV_OK) {
        sv_error_path_key(d->err, "components", 10);
        return st;
    }
    st = read_instances(d, b.instances, b.instances_size, b.components_size / 8, &instances);
    if (st != SV_OK) {
        sv_error_path_key(d->err, "instances", 9);
        return st;
    }
    *chunk = sv_map(d->doc, 5);
    sv_value strings_arr = strlist_array(d, &strings);
    if (chunk->kind != SV_MAP || strings_arr.kind != SV_ARRAY) return nomem(d);
    chunk->len = 0;
    sv_value metadata = sv_null(), commands = sv_null();
    if (b.has_metadata) {
        st = nsb_strlist_read(d->doc, &md_strings, b.md_strings, b.md_strings_size, d->unicode,
                              d->big, true, (uint64_t)(b.md_strings - base), d->err);
        if (st != SV_OK) return st;
        /* Desc lookups by table when the list is small (it is tiny in
         * every real file); by binary search otherwise. */
        if (md_strings.size && md_strings.size <= (1u << 20)) {
            md_strings.index_of = sv_doc_alloc(d->doc, md_strings.size * sizeof(uint32_t));
            if (!md_strings.index_of) return nomem(d);
            memset(md_strings.index_of, 0xFF, md_strings.size * sizeof(uint32_t));
            for (uint32_t i = 0; i < md_strings.count; i++)
                md_strings.index_of[md_strings.starts[i]] = i;
        }
        metadata = sv_map(d->doc, 2);
        if (metadata.kind != SV_MAP) return nomem(d);
        metadata.len = 0;
        sv_value md_arr = strlist_array(d, &md_strings);
        commands = sv_bytes_uninit(d->doc, b.md_commands_size);
        if (md_arr.kind != SV_ARRAY || commands.kind != SV_BYTES) return nomem(d);
        st = nsb_cmds_from_file(b.md_commands, b.md_commands_size, d->big, &md_strings,
                                (uint64_t)(b.md_commands - base), sv_value_buf(&commands), d->err);
        if (st != SV_OK) {
            sv_error_path_key(d->err, "commands", 8);
            sv_error_path_key(d->err, "metadata", 8);
            return st;
        }
        if (!put(d, &metadata, "strings", md_arr) || !put(d, &metadata, "commands", commands))
            return nomem(d);
    }
    if (!put(d, chunk, "strings", strings_arr) || !put(d, chunk, "components", components) ||
        !put(d, chunk, "metadata", metadata) || !put(d, chunk, "instances", instances))
        return nomem(d);
    if (!b.has_metadata || d->raw) {
        /* spec §B.5: without metadata the data has no per-instance lengths;
         * it is kept whole. */
        sv_value data = sv_bytes(d->doc, b.data, b.data_size);
        if (data.kind != SV_BYTES || !put(d, chunk, "data", data)) return nomem(d);
        return d->stream ? nsb_encode_chunk(d->big, d->unicode, chunk, NULL, d->stream->out, d->err)
                         : SV_OK;
    }
    nsb_cmds cs = {commands.as.bytes,
                   commands.as.bytes + commands.len,
                   (uint64_t)(b.md_commands - base),
                   md_strings.entries,
                   md_strings.count,
                   d->doc,
                   NULL,
                   d->err};
    size_t nkeys = md_strings.count ? md_strings.count : 1;
    cs.keys = sv_doc_alloc(d->doc, nkeys * sizeof(sv_value));
    if (!cs.keys) return nomem(d);
    memset(cs.keys, 0, nkeys * sizeof(sv_value));
    nsb_interp_in in = {
        base,    &cs,    b.data,           b.data_size,       sv_numbers(&instances), instances.len,
        classes, d->big, d->lim.max_depth, d->lim.max_string, d->lim.max_alloc,       NULL,
        NULL,    NULL};
    if (d->stream) return stream_chunk(d, &in, chunk, b.data_size);
    sv_value objects;
    /* each instance's Name, for the view (scratch, freed here); without
     * any, no local-value group can be renamed and the view has no work */
    sv_value *names = NULL;
    st = nsb_interp_run(d->doc, &in, &objects, &names);
    if (st == SV_OK && names) st = nsb_view_apply(d->doc, &objects, names, d->err);
    if (names) sv__core_doc_scratch_free(d->doc, names, nsb_names_size(instances.len));
    if (st != SV_OK) {
        sv_error_path_key(d->err, "objects", 7);
        return st;
    }
    return put(d, chunk, "objects", objects) ? SV_OK : nomem(d);
}

static sv_status decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_noesis_opts *opts,
                        const nsb_stream *stream, sv_value *out, sv_error *err);

sv_status nsb_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_noesis_opts *opts,
                     sv_value *out, sv_error *err)
{
    return decode(doc, data, len, opts, NULL, out, err);
}

sv_status nsb_decode_stream(sv_doc *doc, const uint8_t *data, size_t len,
                            const sv_noesis_opts *opts, const nsb_stream *stream, sv_error *err)
{
    sv_value root;
    return decode(doc, data, len, opts, stream, &root, err);
}

static sv_status decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_noesis_opts *opts,
                        const nsb_stream *stream, sv_value *out, sv_error *err)
{
    dec d;
    memset(&d, 0, sizeof d);
    d.doc = doc;
    d.err = err;
    d.stream = stream;
    d.lim = sv_limits_resolve(&opts->limits);
    d.raw = opts->raw;
    sv_doc_set_max_alloc(doc, d.lim.max_alloc);
    sv__core_rd_init(&d.r, data, len, NSB_FORMAT, err);
    *out = sv_null();
    /* spec §B.2: the signature tells the byte order ("HDSN" on disk = little). */
    if (len < 12)
        return sv_error_set(err, SV_ERR_TRUNCATED, NSB_FORMAT, 0,
                            "the main header needs 12 bytes, the file has %zu", len);
    if (sv__core_load_u32le(data) == NSB_SIGNATURE)
        d.big = false;
    else if (sv__core_load_u32be(data) == NSB_SIGNATURE)
        d.big = true;
    else
        return sv_error_set(err, SV_ERR_SYNTAX, NSB_FORMAT, 0,
                            "not an NSDH file: the signature is neither \"HDSN\" nor \"NSDH\"");
    sv__core_rd_skip(&d.r, 4, "signature");
    uint16_t version = rd16(&d);
    uint16_t unicode = rd16(&d);
    uint32_t chunks = rd32(&d);
    if (version < NSB_VERSION_MIN || version > NSB_VERSION_MAX)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, NSB_FORMAT, 4,
                            "version %u is not supported (versions %d to %d)", version,
                            NSB_VERSION_MIN, NSB_VERSION_MAX);
    if (unicode > 1)
        return sv_error_set(err, SV_ERR_SYNTAX, NSB_FORMAT, 6,
                            "the unicode flag is %u (0 or 1 expected)", unicode);
    d.unicode = unicode == 1;
    /* A chunk takes at least its six size fields. */
    if (chunks > (len - 12) / 48)
        return sv_error_set(err, SV_ERR_TRUNCATED, NSB_FORMAT, 8,
                            "%u chunks cannot fit in the %zu bytes after the header", chunks,
                            len - 12);
    sv_value root = sv_map(doc, 4), arr = sv_array(doc, chunks);
    if (root.kind != SV_MAP || arr.kind != SV_ARRAY) return nomem(&d);
    if (stream) nsb_encode_header(stream->opts, d.big, d.unicode, version, chunks, stream->out);
    root.len = 0;
    sv_value *items = sv_array_items(&arr);
    for (uint32_t i = 0; i < chunks; i++) {
        sv_status st = read_chunk(&d, &items[i]);
        if (st != SV_OK) {
            sv_error_path_index(err, i);
            sv_error_path_key(err, "chunks", 6);
            return st;
        }
    }
    if (d.r.p != d.r.end)
        return sv_error_set(err, SV_ERR_TRAILING, NSB_FORMAT, sv__core_rd_offset(&d.r),
                            "%zu bytes after the last chunk", (size_t)(d.r.end - d.r.p));
    if (!put(&d, &root, "byte_order", sv_strz(doc, d.big ? "big" : "little")) ||
        !put(&d, &root, "version", sv_uint_w(version, 2)) ||
        !put(&d, &root, "unicode", sv_bool(d.unicode)) || !put(&d, &root, "chunks", arr))
        return nomem(&d);
    *out = root;
    return SV_OK;
}
