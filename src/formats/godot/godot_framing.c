/* Framing (spec §1): raw Variants (var_to_bytes, PacketPeer) or a u32 length
 * before each one (FileAccess.store_var, StreamPeer.put_var; the prefix is
 * big-endian when StreamPeer.big_endian is set, the payload never is). A
 * stream of several prefixed Variants (a captured TCP stream, a .save file
 * of several store_var calls) is an array in the tree. */
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_internal.h"

static uint32_t load_prefix(const uint8_t *p, bool be)
{
    return be ? sv__core_load_u32be(p) : sv__core_load_u32le(p);
}

/* One prefixed frame at data[at]; *next = the offset after it. */
static sv_status decode_frame(sv_doc *doc, const gd_rules *r, const uint8_t *data, size_t len,
                              size_t at, bool be, sv_value *out, size_t *next, sv_error *err)
{
    if (len - at < 4)
        return sv_error_set(err, SV_ERR_TRUNCATED, r->fmt, at,
                            "length prefix needs 4 bytes, %zu left", len - at);
    uint32_t n = load_prefix(data + at, be);
    if (n > len - at - 4)
        return sv_error_set(err, SV_ERR_TRUNCATED, r->fmt, at,
                            "length prefix says %u bytes, %zu left", n, len - at - 4);
    size_t used = 0;
    /* the Variant sees only its frame; bytes it leaves unread are skipped,
     * as get_var does */
    sv_status st = gd_decode_value(doc, r, data, data + at + 4, n, out, &used, err);
    if (st != SV_OK) return st;
    *next = at + 4 + n;
    return SV_OK;
}

int gd_decode_frames_exact(sv_doc *doc, const gd_rules *r, const uint8_t *data, size_t len, bool be,
                           sv_value *out, size_t *frames, size_t *typed)
{
    sv_value arr = sv_array(doc, 0);
    size_t at = 0, n = 0, t = 0;
    while (at < len) {
        if (len - at < 8) return 0;
        uint32_t size = load_prefix(data + at, be);
        /* as the probe's exact_fit: whole words, one Variant filling them */
        if (size > len - at - 4 || size < 4 || (size & 3)) return 0;
        sv_error e;
        sv_error_clear(&e);
        size_t used = 0;
        sv_value v;
        sv_status st = gd_decode_value(doc, r, data, data + at + 4, size, &v, &used, &e);
        if (st == SV_ERR_NOMEM || sv_doc_status(doc) != SV_OK) return -1;
        if (st != SV_OK || used != size) return 0;
        if (sv_array_append(doc, &arr, v) != SV_OK) return -1;
        t += data[at + 4] != 0;
        at += 4 + (size_t)size;
        n++;
    }
    if (!n) return 0;
    *out = arr;
    *frames = n;
    *typed = t;
    return 1;
}

sv_status sv_godot_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_godot_opts *opts,
                          sv_value *out, size_t *consumed, sv_error *err)
{
    return gd_decode_framed(doc, data, len, opts, NULL, out, consumed, err);
}

sv_status gd_decode_framed(sv_doc *doc, const uint8_t *data, size_t len, const sv_godot_opts *opts,
                           gd_seen *seen, sv_value *out, size_t *consumed, sv_error *err)
{
    sv_value tmp;
    if (!out) out = &tmp;
    *out = sv_null();
    sv_godot_opts o;
    sv_status ost = gd_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    opts = &o;
    gd_rules r;
    gd_rules_init(&r, opts);
    r.seen = seen;
    if (!doc) return sv_error_set(err, SV_ERR_USAGE, r.fmt, 0, "no document");
    if (!data) len = 0;
    static const uint8_t empty[4] = {0};
    if (!data) data = empty;
    sv_godot_framing framing = opts->framing;
    bool be = opts->prefix_big_endian;
    if (framing == SV_GODOT_RAW)
        return gd_decode_value(doc, &r, data, data, len, out, consumed, err);
    if (framing == SV_GODOT_PREFIXED) {
        size_t next = 0;
        sv_status st = decode_frame(doc, &r, data, len, 0, be, out, &next, err);
        if (st == SV_OK && consumed) *consumed = next;
        return st;
    }
    /* a stream: frames until the end; each frame holds at least 4 bytes plus
     * its prefix, so the count is bounded before anything is allocated */
    sv_value arr = sv_array(doc, 0);
    size_t at = 0;
    for (uint64_t i = 0; at < len; i++) {
        sv_value v;
        sv_status st = decode_frame(doc, &r, data, len, at, be, &v, &at, err);
        if (st != SV_OK) {
            sv_error_path_index(err, i);
            return st;
        }
        if (sv_array_append(doc, &arr, v) != SV_OK)
            return sv_error_set(err, sv_doc_status(doc), r.fmt, at, "out of memory");
    }
    *out = arr;
    if (consumed) *consumed = at;
    return SV_OK;
}

static void patch_prefix(sv_buf *out, size_t at, bool be)
{
    uint32_t n = (uint32_t)(out->len - at - 4);
    if (be)
        sv__core_store_u32be(out->data + at, n);
    else
        sv__core_store_u32le(out->data + at, n);
}

static sv_status encode_frame(const gd_rules *r, const sv_value *v, bool be, sv_buf *out,
                              sv_error *err)
{
    size_t at = out->len;
    sv_put_u32le(out, 0);
    sv_status st = gd_encode_value(r, v, out, err);
    if (st != SV_OK) return st;
    if (out->len - at - 4 > UINT32_MAX)
        return sv_error_set(err, SV_ERR_RANGE, r->fmt, 0, "a Variant over 4 GiB cannot be framed");
    patch_prefix(out, at, be);
    return SV_OK;
}

sv_status sv_godot_encode(const sv_value *v, const sv_godot_opts *opts, sv_buf *out, sv_error *err)
{
    sv_godot_opts o;
    sv_status ost = gd_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    opts = &o;
    gd_rules r;
    gd_rules_init(&r, opts);
    if (!v || !out) return sv_error_set(err, SV_ERR_USAGE, r.fmt, 0, "no value or no buffer");
    sv_godot_framing framing = opts->framing;
    bool be = opts->prefix_big_endian;
    if (framing == SV_GODOT_RAW) return gd_encode_value_ex(&r, v, true, out, err);
    if (framing == SV_GODOT_PREFIXED) return encode_frame(&r, v, be, out, err);
    if (sv_kind_of(v) != SV_ARRAY || sv_tag_of(v) != SV_TAG_NONE || sv_meta(v))
        return sv_error_set(err, SV_ERR_TYPE, r.fmt, 0,
                            "framing=stream writes an array, one frame per item");
    const sv_value *items = sv_array_items(v);
    for (uint32_t i = 0; i < v->len; i++) {
        if (encode_frame(&r, &items[i], be, out, err) != SV_OK) {
            sv_error_path_index(err, i);
            return err ? err->status : SV_ERR_TYPE;
        }
    }
    return SV_OK;
}
