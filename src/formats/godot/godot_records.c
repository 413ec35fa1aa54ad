/* Bytes the engine reads but never writes, kept so they come back.
 *
 * Godot's decoder forgives a lot (spec §7): header bits a type does not use,
 * padding that is not zero, a leading BOM, bytes after a string's NUL,
 * overlong 3.x UTF-8, a PackedStringArray element without its NUL, bit 31 of
 * a container count, a negative PackedStringArray count, a PackedByteArray
 * without its tail padding, a null Object in one of its older forms. Such
 * inputs decode to the same tree as the canonical bytes, so the tree alone
 * cannot give them back. serval keeps them in the meta of the container
 * around them, and only where the bytes differ from what the encoder writes,
 * so canonical data carries nothing extra:
 *
 *   "raw":    records [i, bytes] (Array, PackedStringArray) or
 *             [i, "key" | "value", bytes] (Dictionary): the whole Variant
 *             (a PackedStringArray element: its length, bytes and padding)
 *             that item i was read from;
 *   "header": the container's own header word, when it has ignored bits;
 *   "count":  the container's own count word (bit 31, a negative count);
 *   "dups":   a Dictionary that repeated a key: [place, bytes] for each pair
 *             the tree dropped, written back at its place in the stream;
 *   "blocks": [name, bytes] for a typed container's class name or script
 *             path ("type", "key", "value") read from bytes of its own;
 *   "root":   true on a one-item Array that stands for a root value that is
 *             no container (it has no meta of its own).
 *
 * A record is used only when its bytes still decode to the value in the
 * tree (checked on every encode), so an edited value drops its stale record
 * and is written canonically; a header or count word only contributes bits
 * that every reader ignores or that do not change the value. */
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_internal.h"

uint32_t gd_header_used(const gd_rules *r, unsigned t)
{
    const gd_math *m;
    switch (t) {
    case GD_INT:
    case GD_FLOAT: return GD_FLAG_64;
    case GD_OBJECT: return GD_FLAG_OBJECT_ID;
    case GD_ARRAY: return r->typed_arrays ? 3u << GD_ARRAY_KIND_SHIFT : 0;
    case GD_DICTIONARY:
        return r->typed_dicts ? (3u << GD_DICT_KEY_SHIFT | 3u << GD_DICT_VALUE_SHIFT) : 0;
    case GD_PACKED_VECTOR2:
    case GD_PACKED_VECTOR3:
    case GD_PACKED_VECTOR4: return r->prof->godot4_rules ? GD_FLAG_64 : 0;
    default: m = gd_math_of(t); return m && m->real && r->prof->godot4_rules ? GD_FLAG_64 : 0;
    }
}

bool gd_is_psa(const sv_value *v)
{
    const sv_value *m = sv_meta(v);
    if (sv_kind_of(m) == SV_MAP) m = sv_map_getz(m, "packed");
    return sv_kind_of(m) == SV_STRING && m->len == sizeof GD_PSA_META - 1 &&
           memcmp(m->as.str, GD_PSA_META, m->len) == 0;
}

/* ---- decoding: making records ---- */

static bool rec_add_value(sv_doc *doc, sv_value *list, uint32_t index, const char *part,
                          sv_value bytes)
{
    if (sv_kind_of(list) != SV_ARRAY) *list = sv_array(doc, 0);
    sv_value rec = sv_array(doc, part ? 3 : 2);
    sv_value *it = sv_array_items(&rec);
    if (!it) return false;
    it[0] = sv_int(index);
    if (part) it[1] = sv_str_intern(doc, part, strlen(part));
    it[part ? 2 : 1] = bytes;
    return sv_array_append(doc, list, rec) == SV_OK && sv_doc_status(doc) == SV_OK;
}

bool gd_rec_add(sv_doc *doc, sv_value *list, uint32_t index, const char *part, const uint8_t *p,
                size_t n)
{
    return rec_add_value(doc, list, index, part, sv_bytes(doc, p, n));
}

/* The record of stream item i and part (0 key, 1 value) in a list made by
 * the decoder (sorted), from *at on; NULL when there is none. */
static const sv_value *stream_record(const sv_value *list, uint32_t *at, uint32_t i, int part)
{
    while (sv_kind_of(list) == SV_ARRAY && *at < list->len) {
        const sv_value *it = sv_array_items(sv_array_at(list, *at));
        uint32_t ri = (uint32_t)it[0].as.i;
        int rp = it[1].len == 3 ? 0 : 1; /* "key" or "value" */
        if (ri > i || (ri == i && rp > part)) return NULL;
        (*at)++;
        if (ri == i && rp == part) return &it[2];
    }
    return NULL;
}

/* Godot keeps a repeated key at its first place with its last value (spec
 * §6.4). The tree's entry is written at the first place, with the first
 * value (a "value" record); each later pair is a "dups" record [place,
 * bytes] written as it was. The encoder checks the whole Dictionary. */
bool gd_dups_records(sv_doc *doc, gd_extra_in *x, const uint8_t *pairs, const uint32_t *off,
                     size_t end, const uint32_t *where, uint32_t count)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++)
        if (where[i] >= n) n = where[i] + 1;
    uint8_t *repeats = sv_doc_alloc(doc, n ? n : 1);
    if (!repeats) return false;
    memset(repeats, 0, n);
    for (uint32_t i = 0, next = 0; i < count; i++) {
        if (where[i] == next)
            next++;
        else
            repeats[where[i]] = 1;
    }
    sv_value raw = sv_null(), dups = sv_null();
    uint32_t at = 0;
    for (uint32_t i = 0, next = 0; i < count; i++) {
        size_t ks = off[2 * i], vs = off[2 * i + 1], e = i + 1 < count ? off[2 * i + 2] : end;
        const sv_value *krec = stream_record(&x->raw, &at, i, 0);
        const sv_value *vrec = stream_record(&x->raw, &at, i, 1);
        if (where[i] != next) {
            if (!gd_rec_add(doc, &dups, i, NULL, pairs + ks, e - ks)) return false;
            continue;
        }
        uint32_t j = next++;
        if (krec && !rec_add_value(doc, &raw, j, "key", *krec)) return false;
        if (repeats[j]) {
            if (!gd_rec_add(doc, &raw, j, "value", pairs + vs, e - vs)) return false;
        } else if (vrec && !rec_add_value(doc, &raw, j, "value", *vrec)) {
            return false;
        }
    }
    x->raw = raw;
    x->dups = dups;
    return true;
}

bool gd_block_add(sv_doc *doc, sv_value *list, const char *which, const uint8_t *p, size_t n)
{
    if (sv_kind_of(list) != SV_ARRAY) *list = sv_array(doc, 0);
    sv_value rec = sv_array(doc, 2);
    sv_value *it = sv_array_items(&rec);
    if (!it) return false;
    it[0] = sv_str_intern(doc, which, strlen(which));
    it[1] = sv_bytes(doc, p, n);
    return sv_array_append(doc, list, rec) == SV_OK && sv_doc_status(doc) == SV_OK;
}

bool gd_meta_extend(sv_doc *doc, sv_value *c, const gd_extra_in *x)
{
    if (!x->header_odd && !x->count_odd && sv_kind_of(&x->raw) != SV_ARRAY &&
        sv_kind_of(&x->dups) != SV_ARRAY && sv_kind_of(&x->blocks) != SV_ARRAY)
        return true;
    sv_value meta = sv_map(doc, 0);
    const sv_value *old = sv_meta(c);
    if (sv_kind_of(old) == SV_STRING) { /* a PackedStringArray's marker */
        if (sv_map_append_str(doc, &meta, "packed", *old) != SV_OK) return false;
    } else {
        for (uint32_t i = 0; old && i < old->len; i++) {
            const sv_value *pk = sv_key_at(old, i);
            const sv_value *pv = sv_val_at(old, i);
            if (sv_map_append(doc, &meta, *pk, *pv) != SV_OK) return false;
        }
    }
    if (x->header_odd && sv_map_append_str(doc, &meta, "header", sv_int(x->header)) != SV_OK)
        return false;
    if (x->count_odd && sv_map_append_str(doc, &meta, "count", sv_int(x->count)) != SV_OK)
        return false;
    if (sv_kind_of(&x->raw) == SV_ARRAY && sv_map_append_str(doc, &meta, "raw", x->raw) != SV_OK)
        return false;
    if (sv_kind_of(&x->dups) == SV_ARRAY && sv_map_append_str(doc, &meta, "dups", x->dups) != SV_OK)
        return false;
    if (sv_kind_of(&x->blocks) == SV_ARRAY &&
        sv_map_append_str(doc, &meta, "blocks", x->blocks) != SV_OK)
        return false;
    return sv_meta_set(doc, c, meta) == SV_OK && sv_doc_status(doc) == SV_OK;
}

bool gd_root_wrap(sv_doc *doc, sv_value *v, const uint8_t *p, size_t n)
{
    gd_extra_in x = {0};
    x.raw = x.dups = x.blocks = sv_null();
    if (!gd_rec_add(doc, &x.raw, 0, NULL, p, n)) return false;
    sv_value arr = sv_array(doc, 1);
    sv_value *it = sv_array_items(&arr);
    if (!it) return false;
    it[0] = *v;
    sv_value meta = sv_map(doc, 0);
    if (sv_map_append_str(doc, &meta, "root", sv_bool(true)) != SV_OK ||
        sv_map_append_str(doc, &meta, "raw", x.raw) != SV_OK ||
        sv_meta_set(doc, &arr, meta) != SV_OK)
        return false;
    *v = arr;
    return sv_doc_status(doc) == SV_OK;
}

/* ---- encoding: reading and using records ---- */

static bool key_is(const sv_value *k, const char *name)
{
    size_t n = strlen(name);
    return sv_kind_of(k) == SV_STRING && k->len == n && memcmp(k->as.str, name, n) == 0;
}

static bool u32_of(const sv_value *v, uint32_t *out)
{
    if (sv_kind_of(v) != SV_INT && sv_kind_of(v) != SV_UINT) return false;
    if (v->kind == SV_INT && (v->as.i < INT32_MIN || v->as.i > (int64_t)UINT32_MAX)) return false;
    if (v->kind == SV_UINT && v->as.u > UINT32_MAX) return false;
    *out = (uint32_t)(v->kind == SV_INT ? (uint64_t)v->as.i : v->as.u);
    return true;
}

bool gd_extra_read(const sv_value *meta, gd_extra *x, const char **why)
{
    memset(x, 0, sizeof *x);
    if (!meta) return true;
    if (sv_kind_of(meta) == SV_STRING) {
        x->packed = meta;
        return true;
    }
    if (sv_kind_of(meta) != SV_MAP) {
        *why = "container meta is a map";
        return false;
    }
    for (uint32_t i = 0; i < meta->len; i++) {
        const sv_value *pk = sv_key_at(meta, i);
        const sv_value *pv = sv_val_at(meta, i);
        if (key_is(pk, "type"))
            x->type = pv;
        else if (key_is(pk, "key"))
            x->key = pv;
        else if (key_is(pk, "value"))
            x->value = pv;
        else if (key_is(pk, "packed"))
            x->packed = pv;
        else if (key_is(pk, "root"))
            x->root = sv_kind_of(pv) == SV_BOOL && sv_get_bool(pv);
        else if (key_is(pk, "raw") && sv_kind_of(pv) == SV_ARRAY)
            x->raw = pv;
        else if (key_is(pk, "dups") && sv_kind_of(pv) == SV_ARRAY)
            x->dups = pv;
        else if (key_is(pk, "blocks") && sv_kind_of(pv) == SV_ARRAY)
            x->blocks = pv;
        else if (key_is(pk, "header") && u32_of(pv, &x->header))
            x->has_header = true;
        else if (key_is(pk, "count") && u32_of(pv, &x->count))
            x->has_count = true;
        else {
            *why = "unknown or ill-typed container meta entry (known: type, key, value, packed, "
                   "raw: [[i, bytes]...], dups: [[i, bytes]...], blocks: [[name, bytes]...], "
                   "header: u32, count: u32, root: true)";
            return false;
        }
        x->entries++;
    }
    return true;
}

const sv_value *gd_extra_block(const gd_extra *x, const char *which)
{
    for (uint32_t i = 0; x->blocks && i < x->blocks->len; i++) {
        const sv_value *rec = sv_array_at(x->blocks, i);
        const sv_value *it = sv_kind_of(rec) == SV_ARRAY ? sv_array_items(rec) : NULL;
        if (it && rec->len == 2 && key_is(&it[0], which) && sv_kind_of(&it[1]) == SV_BYTES)
            return &it[1];
    }
    return NULL;
}

/* part: -1 an Array item, 0 a Dictionary key, 1 its value. Records are kept
 * in the order they were made; one out of order is never used. */
const sv_value *gd_extra_record(gd_extra *x, uint32_t index, int part)
{
    if (!x->raw) return NULL;
    while (x->raw_at < x->raw->len) {
        const sv_value *rec = sv_array_at(x->raw, x->raw_at);
        const sv_value *it = sv_kind_of(rec) == SV_ARRAY ? sv_array_items(rec) : NULL;
        uint32_t want = part < 0 ? 2 : 3, ri;
        if (!it || rec->len != want || !u32_of(&it[0], &ri) ||
            sv_kind_of(&it[want - 1]) != SV_BYTES) {
            x->raw_at++; /* not a record: ignored */
            continue;
        }
        int rp = -1;
        if (part >= 0) rp = key_is(&it[1], "key") ? 0 : key_is(&it[1], "value") ? 1 : 2;
        if (ri > index || (ri == index && rp > part)) return NULL; /* a later item's */
        x->raw_at++;
        if (ri == index && rp == part) return &it[want - 1];
    }
    return NULL;
}

void gd_rec_ctx_free(gd_rec_ctx *c)
{
    if (c->scratch) sv_doc_free(c->scratch);
    c->scratch = NULL;
}

int gd_rec_emit(gd_rec_ctx *c, const gd_rules *r, const sv_value *rec, const sv_value *v,
                bool string, sv_buf *out)
{
    /* nothing to read back from a buffer that failed (its data may be NULL);
     * the scratch document takes its memory from the output's allocator */
    if (!sv_buf_ok(out)) return -1;
    if (!c->scratch && !(c->scratch = sv_doc_new(out->alloc))) return -1;
    const uint8_t *p = rec->as.bytes;
    size_t n = rec->len, used = 0;
    sv_value got;
    if (string) {
        /* length, bytes, padding: the element as the decoder reads it */
        if (n < 4 || sv_kind_of(v) != SV_STRING || v->tag != SV_TAG_NONE) return 0;
        uint32_t sl = sv__core_load_u32le(p);
        if (sl > n - 4 || 4 + (size_t)sl + ((4 - (sl & 3)) & 3) != n) return 0;
        size_t bad;
        if (!gd_string_make(c->scratch, (const char *)p + 4, sl, r->prof->godot4_rules, false, &got,
                            &bad))
            return 0;
        if (sv_doc_status(c->scratch) != SV_OK) return -1;
        if (got.len != v->len || (v->len && memcmp(got.as.str, v->as.str, v->len) != 0)) return 0;
        used = n;
    } else {
        sv_error err;
        sv_error_clear(&err);
        gd_rules bare = *r;
        bare.bare_root = true;
        if (n < 4 || gd_decode_value(c->scratch, &bare, p, p, n, &got, &used, &err) != SV_OK)
            return sv_doc_status(c->scratch) == SV_OK ? 0 : -1;
        /* every byte read, plus at most a PackedByteArray's missing padding */
        if (used < n || used - n > 3 || !sv_equal(&got, v)) return 0;
    }
    sv_buf_append(out, p, n);
    if (used > n) {
        /* the padding is written, and taken off again if nothing follows
         * (gd_rec_finish): in the middle of the output it must be there */
        static const uint8_t zeros[4] = {0};
        sv_buf_append(out, zeros, used - n);
        c->trim_end = sv_buf_pos(out); /* an output position: a sink may take bytes before it */
        c->trim = used - n;
    }
    return sv_buf_ok(out) ? 1 : -1;
}

int gd_rec_check_map(gd_rec_ctx *c, const gd_rules *r, size_t start, const sv_value *v, sv_buf *out)
{
    /* nothing to read back from a buffer that failed (its data may be NULL);
     * the scratch document takes its memory from the output's allocator */
    if (!sv_buf_ok(out)) return -1;
    if (!c->scratch && !(c->scratch = sv_doc_new(out->alloc))) return -1;
    gd_rules bare = *r;
    bare.bare_root = true;
    const uint8_t *p = out->data + start;
    size_t n = out->len - start, used = 0;
    sv_value got;
    sv_error err;
    sv_error_clear(&err);
    if (gd_decode_value(c->scratch, &bare, p, p, n, &got, &used, &err) != SV_OK)
        return sv_doc_status(c->scratch) == SV_OK ? 0 : -1;
    if (used < n || used - n > 3 || sv_kind_of(&got) != SV_MAP || got.len != v->len) return 0;
    for (uint32_t i = 0; i < v->len; i++) {
        if (!sv_equal(sv_key_at(&got, i), sv_key_at(v, i)) ||
            !sv_equal(sv_val_at(&got, i), sv_val_at(v, i)))
            return 0;
    }
    return 1;
}

void gd_rec_finish(gd_rec_ctx *c, sv_buf *out)
{
    if (c->trim && sv_buf_pos(out) == c->trim_end && out->len >= c->trim) out->len -= c->trim;
    c->trim = 0;
}
