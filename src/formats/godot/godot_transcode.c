/* A raw Godot Variant to the same profile without the whole tree.
 *
 * A Variant's bytes do not depend on its siblings', so the items of an
 * outermost Array (the pairs of an outermost Dictionary) are read one at a
 * time by the tree decoder's own item reader (gd_dec_item) into a scratch
 * document and written at once by the tree encoder's own item writer
 * (gd_item_enc_put), with the bytes the tree would keep for the item in its
 * container's record (godot_records.c) when it has any. Once the document
 * holds more than RESET_AT bytes it is emptied (its chunks kept) and both
 * sides forget what they remembered by address.
 *
 * What the tree path would do otherwise is left to it (the caller decodes
 * and encodes the tree): any error, bytes after the Variant or padding past
 * the input's end, and a Dictionary whose keys may repeat (the tree keeps
 * the first position and the last value). For that, a Dictionary is first
 * read through once writing nothing (its keys_differ pass), so that the
 * caller can start again when a key may repeat; then its output, as an
 * Array's, is handed to the sink as it goes: the output is never held
 * whole. An error in an Array fails the output anyway (the tree path's
 * decode gives the message). */
#include <string.h>

#include "core/byteio.h"
#include "core/mem.h"
#include "formats/godot/godot_decoder.h"
#include "formats/godot/godot_file_meta.h"
#include "formats/godot/godot_internal.h"
#include "formats/godot/godot_transcode.h"

/* Arena bytes after which the scratch document is emptied. */
#define RESET_AT ((uint64_t)1 << 20)

/* Whether opts names none of the format's own options (another format's,
 * as the command's default indent=0 for JSON output, are not read here)
 * and no schema: nothing but the limits, and borrow_input, which changes
 * no byte. */
static bool plain_options(const sv_options *o, sv_godot_profile profile)
{
    if (!o) return true;
    if (o->schema) return false;
    const sv_format *f = profile == SV_GODOT4 ? &sv_format_godot4 : &sv_format_godot3;
    for (size_t i = 0; i < o->count; i++)
        for (const sv_option_desc *d = f->options; d && d->name; d++)
            if (o->names[i] && !strcmp(o->names[i], d->name)) return false;
    return true;
}

/* The decode options of a conversion that fits, or false. */
static bool read_rules(sv_godot_profile profile, const sv_options *in_opts, sv_godot_opts *o)
{
    sv_error err;
    sv_error_clear(&err);
    if (gd_opts_from_registry(profile, in_opts, false, o, &err) != SV_OK) return false;
    /* the limits the framing probe reads with: the registry's decode then
     * reads the input raw at once (godot_file_meta.c, read_raw_first) */
    return gd_probe_reads_as(o);
}

bool sv__godot_transcode_fits(sv_godot_profile profile, const uint8_t *data, size_t len,
                              const sv_options *in_opts, const sv_options *out_opts)
{
    if (profile != SV_GODOT4 && profile != SV_GODOT3) return false;
    if (!data || !plain_options(in_opts, profile) || !plain_options(out_opts, profile))
        return false;
    /* whole words: every Variant is, and no PackedByteArray can end
     * without its padding; an outermost container has at least 8 bytes */
    if (len < 8 || (len & 3)) return false;
    sv_godot_opts o;
    if (!read_rules(profile, in_opts, &o)) return false;
    gd_rules r;
    gd_rules_init(&r, &o);
    /* objects=id reads no full Object, and the latest 4.x has no container
     * kind bits it ignores: the file's meta stays empty */
    if (r.full_objects || (r.prof->godot4_rules && (!r.typed_arrays || !r.typed_dicts)) ||
        r.max_depth < 1)
        return false;
    /* the tree of n input bytes takes fewer than 16 n bytes: the document's
     * cap, which would fail the tree path, is not reached */
    sv_limits lim = sv_limits_resolve(&o.limits);
    if (len > lim.max_alloc / 16) return false;
    /* a bare header (no flag bits: typed containers, ignored bits) and a
     * count without the old "shared" bit, that the bytes left can hold */
    uint32_t hdr = sv__core_load_u32le(data), count = sv__core_load_u32le(data + 4);
    bool arr = hdr == r.to_wire[GD_ARRAY], dict = hdr == r.to_wire[GD_DICTIONARY];
    if ((!arr && !dict) || (count & 0x80000000u) || count > (len - 8) / (dict ? 8 : 4))
        return false;
    /* raw framing: frames that fit are the probe's first answer */
    return len > GD_PROBE_MAX || !gd_probe_frames_fit(profile, data, len);
}

/* Root Dictionary keys seen so far, by gd_key_hash: an open-addressed set
 * (0: empty slot), grown at half full. Two keys with one hash may be the
 * same key: the tree path then decides. */
typedef struct key_set {
    uint64_t *slot;
    size_t cap, used;
} key_set;

/* Adds h; false when it was there (or out of memory). */
static bool key_set_add(key_set *s, uint64_t h)
{
    h |= 1; /* never 0 */
    if (2 * (s->used + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *n = sv__core_mem_calloc(NULL, cap, sizeof *n);
        if (!n) return false;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i]) continue;
            size_t j = (size_t)(s->slot[i] >> 7) & (cap - 1);
            while (n[j]) j = (j + 1) & (cap - 1);
            n[j] = s->slot[i];
        }
        sv__core_mem_free(NULL, s->slot, s->cap, sizeof *s->slot);
        s->slot = n;
        s->cap = cap;
    }
    size_t j = (size_t)(h >> 7) & (s->cap - 1);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == h) return false;
    s->slot[j] = h;
    s->used++;
    return true;
}

/* One item (a key, or a value) read: *rec gets the bytes its container's
 * record would keep (godot_records.c), or stays NULL. false: the tree path
 * must answer. */
static bool read_one(gd_dec *d, bool key, sv_value *v, sv_value *rec_store, const sv_value **rec)
{
    const uint8_t *at = d->rd.p;
    d->odd = false;
    *rec = NULL;
    if (gd_dec_item(d, 1, key, v) != SV_OK || sv_doc_status(d->doc) != SV_OK) return false;
    if (SV_UNLIKELY(d->odd)) {
        *rec_store = sv_bytes(d->doc, at, (size_t)(d->rd.p - at));
        if (sv_doc_status(d->doc) != SV_OK) return false;
        *rec = rec_store;
    }
    return true;
}

/* Empties the scratch document once it holds RESET_AT bytes; the decoder
 * (and the encoder, when there is one) forget what they kept by address. */
static void reset_when_full(sv_doc *doc, gd_dec *d, gd_item_enc *w)
{
    if (sv_doc_allocated(doc) < RESET_AT) return;
    sv_doc_reset(doc);
    gd_dec_forget(d); /* its cached values lived in doc */
    if (w) gd_item_enc_forget(w);
}

/* The pass before a Dictionary's output: every pair read, writing nothing.
 * true when the pairs read without an error, no two keys have one hash
 * (two with one hash may be the same key: the tree path then decides) and
 * nothing follows the Variant. */
static bool keys_differ(gd_dec *d, sv_doc *doc, uint32_t count)
{
    key_set keys = {0};
    bool ok = true;
    for (uint32_t i = 0; ok && i < count; i++) {
        sv_value k, v, krec, vrec;
        const sv_value *kr, *vr;
        ok = read_one(d, true, &k, &krec, &kr) && key_set_add(&keys, gd_key_hash(&k, d->godot4)) &&
             read_one(d, false, &v, &vrec, &vr);
        if (ok) reset_when_full(doc, d, NULL);
    }
    sv__core_mem_free(NULL, keys.slot, keys.cap, sizeof *keys.slot);
    sv_doc_reset(doc);
    return ok && dleft(d) == 0 && d->overrun == 0;
}

sv_status sv__godot_transcode(sv_godot_profile profile, sv_doc *doc, const uint8_t *data,
                              size_t len, const sv_options *in_opts, const sv_options *out_opts,
                              sv_buf *out, bool *redo, sv_error *err)
{
    *redo = true;
    sv_godot_opts io, oo;
    if (!doc || !sv__godot_transcode_fits(profile, data, len, in_opts, out_opts) ||
        !read_rules(profile, in_opts, &io) ||
        gd_opts_from_registry(profile, out_opts, true, &oo, err) != SV_OK ||
        oo.framing != SV_GODOT_RAW)
        return SV_ERR_UNSUPPORTED;
    io.borrow_input = true; /* the input outlives every item */
    gd_rules dr, er;
    gd_rules_init(&dr, &io);
    gd_rules_init(&er, &oo);
    uint32_t hdr = sv__core_load_u32le(data), count = sv__core_load_u32le(data + 4);
    bool dict = hdr == dr.to_wire[GD_DICTIONARY];
    unsigned t = dict ? GD_DICTIONARY : GD_ARRAY;
    if (er.to_wire[t] == 0xFF) return SV_ERR_UNSUPPORTED;

    sv_error derr, werr;
    sv_error_clear(&derr);
    sv_error_clear(&werr);
    gd_dec *d = sv__core_mem_calloc(NULL, 1, sizeof *d); /* its string cache is large */
    if (!d) return SV_ERR_NOMEM;
    gd_dec_init(d, doc, &dr, data, data + 8, len - 8, &derr);
    d->borrow_text = true;
    if (dict && !keys_differ(d, doc, count)) {
        sv__core_mem_free(NULL, d, 1, sizeof *d);
        return SV_ERR_UNSUPPORTED; /* nothing written: the tree path answers */
    }
    gd_item_enc *w = gd_item_enc_open(&er, true, out, &werr);
    if (!w) {
        sv__core_mem_free(NULL, d, 1, sizeof *d);
        return SV_ERR_NOMEM;
    }
    gd_dec_init(d, doc, &dr, data, data + 8, len - 8, &derr);
    d->borrow_text = true;
    sv_put_u32le(out, er.to_wire[t]);
    sv_put_u32le(out, count);
    bool ok = true;
    for (uint32_t i = 0; ok && i < count; i++) {
        sv_value k, v, krec, vrec;
        const sv_value *kr = NULL, *vr = NULL;
        if (dict) ok = read_one(d, true, &k, &krec, &kr) && gd_item_enc_put(w, &k, kr, 1) == SV_OK;
        ok = ok && read_one(d, false, &v, &vrec, &vr) && gd_item_enc_put(w, &v, vr, 1) == SV_OK;
        if (ok) reset_when_full(doc, d, w);
    }
    /* bytes after the Variant, or padding past the end: the tree's answer */
    ok = ok && dleft(d) == 0 && d->overrun == 0;
    gd_item_enc_close(w, ok);
    sv__core_mem_free(NULL, d, 1, sizeof *d);
    sv_doc_reset(doc);
    if (ok && !sv_buf_ok(out) && sv_buf_status(out) != SV_ERR_IO) ok = false;
    if (sv_buf_status(out) == SV_ERR_IO) {
        /* the sink failed: that is the answer, as the tree path's encode */
        *redo = false;
        return sv_error_set(err, SV_ERR_IO, er.fmt, SV_ERROR_NO_OFFSET, "%s",
                            "the output could not be written");
    }
    if (!ok) return SV_ERR_UNSUPPORTED;
    *redo = false;
    return SV_OK;
}
