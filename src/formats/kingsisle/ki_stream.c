/* The stream around the root object (§4): BINd magic, the manual zlib
 * wrapper, the stateful flags word, the compression marker and its zlib
 * payload; then the root object and whatever follows it in the last byte.
 * What a rewrite needs to give back the same bytes goes into the root
 * object's meta: the options the stream was read with (where not the
 * defaults), the stored flags, the marker, the original compressed payloads
 * (reused when they still inflate to the new bytes), padding bits after the
 * root and bytes after it. */
#include <stdlib.h>
#include <string.h>

#include "serval/buf_seekable.h"

#include "compress/zlib_adapter.h"
#include "core/byteio.h"
#include "core/doc_internal.h"
#include "formats/kingsisle/ki_internal.h"

/* ---- meta helpers ---------------------------------------------------------- */

typedef struct meta_list {
    sv_value keys[16], vals[16];
    unsigned n;
} meta_list;

static void meta_add(sv_doc *doc, meta_list *m, const char *key, sv_value v)
{
    m->keys[m->n] = sv_str_intern(doc, key, strlen(key));
    m->vals[m->n++] = v;
}

/* The root's meta: its own (padding) then the stream's entries. */
static sv_status attach_meta(sv_doc *doc, sv_value *root, const meta_list *m)
{
    if (!m->n) return SV_OK;
    const sv_value *old = sv_meta(root);
    sv_value meta = sv_map(doc, 0);
    for (uint32_t i = 0; i < sv_len(old); i++) {
        sv_map_append(doc, &meta, *sv_key_at(old, i), *sv_val_at(old, i));
    }
    for (unsigned i = 0; i < m->n; i++) sv_map_append(doc, &meta, m->keys[i], m->vals[i]);
    sv_meta_set(doc, root, meta);
    return sv_doc_status(doc);
}

/* The options that decide the bytes, where they are not the defaults, so
 * that an encode given none writes the same bytes (ki_opts_from_meta). The
 * mask and skip_deprecated only matter in shallow mode; the flags option
 * only when there is no stored word, which the "flags" entry records. */
static void record_options(sv_doc *doc, meta_list *m, const sv_kingsisle_opts *o)
{
    sv_kingsisle_opts def;
    sv_kingsisle_opts_init(&def);
    if (o->shallow) meta_add(doc, m, KI_META_SHALLOW, sv_bool(true));
    if (o->compress) meta_add(doc, m, KI_META_COMPRESS, sv_bool(true));
    if (o->flags && !(o->flags & SV_KI_STATEFUL_FLAGS))
        meta_add(doc, m, KI_META_OPTION_FLAGS, sv_uint_w(o->flags, 4));
    if (o->shallow && o->property_mask != def.property_mask)
        meta_add(doc, m, KI_META_PROPERTY_MASK, sv_uint_w(o->property_mask, 4));
    if (o->shallow && o->skip_deprecated) meta_add(doc, m, KI_META_SKIP_DEPRECATED, sv_bool(true));
}

static sv_status need(uint64_t have, uint64_t want, uint64_t at, const char *what, sv_error *err)
{
    if (have >= want) return SV_OK;
    return sv_error_set(err, SV_ERR_TRUNCATED, KI_FORMAT, at, "%s needs %llu bytes, %llu left",
                        what, (unsigned long long)want, (unsigned long long)have);
}

/* ---- decoding ---------------------------------------------------------------- */

/* Bytes of a zlib payload inflated ahead of the rest: enough for a flags
 * word, a marker, a nested size and the root's type tag. */
#define KI_HEAD 16

/* What the decoder will read first in an inflated stream, checked on its
 * first bytes (head, n of them) before the rest is inflated: the flags
 * word when flags say it is there, the compression marker and a nested
 * payload's stated size, else the root object's type tag (§4, §5.1). A
 * payload of zeros that states 1 GiB then stops after 16 bytes, not after
 * 1 GiB. What the head is too short to show is left to the decoder. */
static sv_status check_head(const uint8_t *h, size_t n, uint32_t flags, bool shallow,
                            const sv_kingsisle_types *types, const sv_limits *lim, sv_error *err)
{
    size_t off = 0;
    if (flags & SV_KI_STATEFUL_FLAGS) {
        if (n < 4) return SV_OK;
        flags = sv__core_load_u32le(h);
        off = 4;
    }
    if (flags & SV_KI_WITH_COMPRESSION) {
        if (n < off + 1) return SV_OK;
        if (h[off++]) { /* a nested payload: its stated size */
            if (n < off + 4) return SV_OK;
            uint32_t size = sv__core_load_u32le(h + off);
            if (size > lim->max_decompressed || size > lim->max_alloc)
                return sv_error_set(
                    err, SV_ERR_LIMIT, KI_FORMAT, off,
                    "the nested zlib payload says it inflates to %lu bytes, over "
                    "the %s limit of %llu",
                    (unsigned long)size,
                    size > lim->max_decompressed ? "decompressed-size" : "allocation",
                    (unsigned long long)(size > lim->max_decompressed ? lim->max_decompressed
                                                                      : lim->max_alloc));
            return SV_OK;
        }
    }
    if (n < off + 4) return SV_OK;
    uint32_t tag = sv__core_load_u32le(h + off);
    if (tag == 0)
        return sv_error_set(err, SV_ERR_SYNTAX, KI_FORMAT, off,
                            "the root object is null (type tag 0); the rest of the zlib payload "
                            "was not inflated");
    /* deep mode keeps a root of a class the list lacks as raw bits */
    if (shallow && !(types && ki_class_by_hash(types, tag)))
        return sv_error_set(err, SV_ERR_NOT_FOUND, KI_FORMAT, off,
                            "unknown type hash %lu (0x%08lx)%s; the rest of the zlib payload was "
                            "not inflated",
                            (unsigned long)tag, (unsigned long)tag,
                            types ? " in the type list" : ": shallow mode needs a type list");
    return SV_OK;
}

/* A u32-sized zlib payload (§4.2, §4.3) at z (zn bytes, at offset at in the
 * input) into out: the stated size checked against the allocation limit
 * too, and the head against what the decoder will read (check_head, with
 * inner_flags) before the rest is inflated. */
static sv_status inflate_payload(const uint8_t *z, size_t zn, uint32_t size, uint64_t at,
                                 uint32_t inner_flags, bool shallow,
                                 const sv_kingsisle_types *types, const sv_limits *lim, sv_buf *out,
                                 sv_error *err)
{
    if (size <= lim->max_decompressed) { /* (else sv__compress_zlib_inflate_exact says so) */
        if (size > lim->max_alloc)
            return sv_error_set(err, SV_ERR_LIMIT, KI_FORMAT, at,
                                "the zlib payload says it inflates to %lu bytes, over the "
                                "allocation limit of %llu",
                                (unsigned long)size, (unsigned long long)lim->max_alloc);
        uint8_t head[KI_HEAD];
        size_t got = 0;
        const char *why;
        size_t cap = size < KI_HEAD ? size : KI_HEAD;
        sv_status hst = sv__compress_zlib_inflate_into(z, zn, SV_ZLIB_WRAPPED, head, cap,
                                                       out->alloc, &got, &why);
        if (hst == SV_ERR_NOMEM) return sv_error_set(err, hst, KI_FORMAT, at, "out of memory");
        /* a stream that is invalid or short within its head is left to
         * the full inflation, which says where */
        if (hst == SV_OK || hst == SV_ERR_LIMIT) {
            sv_status st = check_head(head, got, inner_flags, shallow, types, lim, err);
            if (st != SV_OK) return st;
        }
    }
    return sv__compress_zlib_inflate_exact(z, zn, SV_ZLIB_WRAPPED, size, lim->max_decompressed,
                                           KI_FORMAT, at, out, err);
}

static sv_status read_body(sv_doc *doc, const uint8_t *p, size_t n, uint64_t base,
                           const sv_kingsisle_opts *o, uint32_t flags, bool shallow,
                           const sv_limits *lim, meta_list *m, sv_value *out, sv_error *err)
{
    ki_dec d;
    memset(&d, 0, sizeof d);
    sv__core_br_init(&d.br, p, n, KI_FORMAT, err);
    d.doc = doc;
    d.types = o->types;
    d.flags = flags;
    d.mask = o->property_mask;
    d.shallow = shallow;
    d.skip_deprecated = o->skip_deprecated;
    d.max_depth = lim->max_depth;
    d.max_string = lim->max_string;
    d.base = base;
    d.skip_unknown = o->skip_unknown_types;
    d.warn = o->warn;
    d.warn_ctx = o->warn_ctx;
    size_t nkeys = o->types ? o->types->total_props : 0;
    if (nkeys) {
        d.keys = sv__core_doc_scratch_realloc(doc, NULL, 0, nkeys * sizeof *d.keys);
        if (!d.keys) return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, base, "out of memory");
        memset(d.keys, 0, nkeys * sizeof *d.keys);
    }
    size_t nshapes = o->types ? o->types->nclasses : 0;
    if (nshapes) {
        d.shapes = sv__core_doc_scratch_realloc(doc, NULL, 0, nshapes * sizeof *d.shapes);
        if (!d.shapes) {
            sv__core_doc_scratch_free(doc, d.keys, nkeys * sizeof *d.keys);
            return sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, base, "out of memory");
        }
        memset(d.shapes, 0, nshapes * sizeof *d.shapes);
    }
    sv_value root;
    sv_status st = ki_read_object(&d, &root);
    if (st == SV_OK && sv_kind_of(&root) == SV_NULL) { /* §5.1 */
        d.br.pos = 0;
        st = ki_dec_fail(&d, SV_ERR_SYNTAX, "the root object is null (type tag 0)");
    }
    if (st == SV_OK && (d.br.pos & 7)) { /* the rest of the last byte */
        uint32_t tail = (uint32_t)sv__core_br_read(&d.br, (unsigned)(8 - (d.br.pos & 7)));
        if (tail) meta_add(doc, m, KI_META_TAIL, sv_uint_w(tail, 1));
    }
    if (st == SV_OK && d.br.pos < d.br.bit_len) {
        /* katsuba ignores bytes after the root; they are kept for the rewrite */
        size_t at = (size_t)(d.br.pos >> 3);
        meta_add(doc, m, "trailing", sv_bytes(doc, p + at, n - at));
    }
    sv__core_doc_scratch_free(doc, d.keys, nkeys * sizeof *d.keys);
    sv__core_doc_scratch_free(doc, (void *)d.shapes, nshapes * sizeof *d.shapes);
    sv__core_doc_scratch_free(doc, d.pads.v, d.pads.cap * sizeof *d.pads.v);
    sv__core_doc_scratch_free(doc, d.longs.v, d.longs.cap * sizeof *d.longs.v);
    sv__core_doc_scratch_free(doc, d.frames, d.frames_cap * sizeof *d.frames);
    sv__core_doc_scratch_free(doc, d.fields, d.fields_cap * sizeof *d.fields);
    if (st == SV_OK) st = attach_meta(doc, &root, m);
    if (st == SV_OK) *out = root;
    return st;
}

sv_status sv_kingsisle_decode(sv_doc *doc, const uint8_t *data, size_t len,
                              const sv_kingsisle_opts *opts, sv_value *out, sv_error *err)
{
    sv_kingsisle_opts o;
    sv_status ost = ki_opts_read(&o, opts, KI_FORMAT, err);
    if (ost != SV_OK) return ost;
    sv_limits lim = sv_limits_resolve(&o.limits);
    uint32_t flags = o.flags;
    bool shallow = o.shallow, manual = o.compress;
    meta_list m = {.n = 0};
    const uint8_t *p = data ? data : (const uint8_t *)"";
    size_t n = data ? len : 0;
    uint64_t base = 0;
    sv_status st = SV_OK;
    sv_buf z1, z2;
    sv_buf_init(&z1, &doc->alloc); /* the document's allocator sees inflated payloads */
    sv_buf_init(&z2, &doc->alloc);

    /* §4.4: BINd means a deep stream with stateful flags, whatever the options */
    if (n >= 4 && sv__core_load_u32le(p) == KI_BIND_MAGIC) {
        p += 4, n -= 4, base = 4;
        shallow = false;
        flags = SV_KI_STATEFUL_FLAGS;
        manual = false;
        meta_add(doc, &m, KI_META_BIND, sv_bool(true));
    } else {
        record_options(doc, &m, &o);
    }
    /* a decode-only option, recorded because the tree it makes is not the
     * whole stream (objects of unknown classes are null) */
    if (o.skip_unknown_types) meta_add(doc, &m, KI_META_SKIP_UNKNOWN_TYPES, sv_bool(true));
    if (manual) { /* §4.2: u32 uncompressed size, then zlib */
        if ((st = need(n, 5, base, "the manual zlib wrapper", err)) != SV_OK) goto done;
        uint32_t size = sv__core_load_u32le(p);
        st = inflate_payload(p + 4, n - 4, size, base + 4, flags, shallow, o.types, &lim, &z1, err);
        if (st != SV_OK) goto done;
        meta_add(doc, &m, KI_META_MANUAL_ZLIB, sv_bytes(doc, p + 4, n - 4));
        p = z1.data ? z1.data : (const uint8_t *)"", n = z1.len, base = 0;
    }
    if (flags & SV_KI_STATEFUL_FLAGS) { /* the stream's flags replace the caller's */
        if ((st = need(n, 4, base, "the serializer flags word", err)) != SV_OK) goto done;
        flags = sv__core_load_u32le(p);
        meta_add(doc, &m, KI_META_FLAGS, sv_uint_w(flags, 4));
        p += 4, n -= 4, base += 4;
    }
    if (flags & SV_KI_WITH_COMPRESSION) {
        if ((st = need(n, 1, base, "the compression marker", err)) != SV_OK) goto done;
        uint8_t marker = p[0];
        meta_add(doc, &m, KI_META_MARKER, sv_uint_w(marker, 1));
        p += 1, n -= 1, base += 1;
        if (marker) { /* u32 uncompressed size, then zlib; no size after marker 0 */
            if ((st = need(n, 5, base, "the compressed payload", err)) != SV_OK) goto done;
            uint32_t size = sv__core_load_u32le(p);
            st = inflate_payload(p + 4, n - 4, size, base + 4, 0, shallow, o.types, &lim, &z2, err);
            if (st != SV_OK) goto done;
            meta_add(doc, &m, KI_META_ZLIB, sv_bytes(doc, p + 4, n - 4));
            p = z2.data ? z2.data : (const uint8_t *)"", n = z2.len, base = 0;
        }
    }
    if ((st = sv_doc_status(doc)) != SV_OK) goto done;
    st = read_body(doc, p, n, base, &o, flags, shallow, &lim, &m, out, err);
done:
    sv_buf_free(&z1);
    sv_buf_free(&z2);
    /* an arena allocation that failed on the way, said once */
    if (st == SV_OK) st = sv_doc_status(doc);
    if (st != SV_OK)
        st = sv_error_set(err, st, KI_FORMAT, 0, "%s",
                          st == SV_ERR_NOMEM ? "out of memory" : sv_status_str(st));
    return st;
}

/* ---- encoding ---------------------------------------------------------------- */

/* Whether the zlib payload z still inflates to exactly these bytes (the
 * inflater's memory from alloc, the caller's). */
static bool same_payload(const sv_value *z, const uint8_t *bytes, size_t n, const sv_alloc *alloc)
{
    if (sv_kind_of(z) != SV_BYTES) return false;
    size_t zl;
    const uint8_t *zp = (const uint8_t *)sv_get_str(z, &zl);
    sv_buf tmp;
    sv_buf_init(&tmp, alloc);
    sv_error e;
    sv_error_clear(&e);
    bool same = sv__compress_zlib_inflate_exact(zp, zl, SV_ZLIB_WRAPPED, n, n, KI_FORMAT, 0, &tmp,
                                                &e) == SV_OK &&
                tmp.len == n && (n == 0 || memcmp(tmp.data, bytes, n) == 0);
    sv_buf_free(&tmp);
    return same;
}

/* u32 size + zlib of in: the original payload when it still fits, else new. */
static bool put_zlib(sv_buf *out, const uint8_t *in, size_t n, const sv_value *orig, int level)
{
    sv_put_u32le(out, (uint32_t)n);
    if (same_payload(orig, in, n, out->alloc)) {
        size_t zl;
        const char *zp = sv_get_str(orig, &zl);
        sv_buf_append(out, zp, zl);
        return sv_buf_ok(out);
    }
    return sv__compress_zlib_deflate(in, n, level, SV_ZLIB_WRAPPED, out);
}

/* Bytes dropped by the sizing pass's scratch buffer. */
static sv_status drop_bytes(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return SV_OK;
}

/* The sizing pass (ki_enc.sizes): the root encoded into a small scratch
 * buffer that hands its bytes to nothing, the deep sizes recorded; then e
 * is ready for the pass that writes them forward. */
static sv_status size_pass(ki_enc *e, const sv_value *v, const sv_alloc *alloc)
{
    sv_buf scratch;
    sv_buf_init(&scratch, alloc);
    sv_buf_set_sink(&scratch, drop_bytes, NULL, 64 * 1024);
    e->out = &scratch;
    sv__core_bw_init(&e->bw, &scratch);
    e->sizing = true;
    e->streams = true;
    sv_status st = ki_write_object(e, v);
    if (st == SV_OK && !sv_buf_ok(&scratch)) st = ki_enc_fail(e, SV_ERR_NOMEM, "out of memory");
    sv_buf_free(&scratch);
    e->sizing = false;
    e->size_next = 0;
    return st;
}

sv_status sv_kingsisle_encode(const sv_value *v, const sv_kingsisle_opts *opts, sv_buf *out,
                              sv_error *err)
{
    sv_kingsisle_opts o;
    sv_status ost = ki_opts_read(&o, opts, KI_FORMAT, err);
    if (ost != SV_OK) return ost;
    if (sv_kind_of(v) != SV_OBJECT)
        return sv_error_set(err, SV_ERR_TYPE, KI_FORMAT, 0,
                            "the root must be an object (a null root cannot be written)");
    const sv_value *meta = sv_meta(v);
    sv_status st = ki_opts_from_meta(&o, meta, err);
    if (st != SV_OK) return st;
    uint32_t flags = o.flags;
    bool shallow = o.shallow, manual = o.compress;
    bool bind = sv_get_bool(sv_map_getz(meta, KI_META_BIND));
    if (bind) {
        shallow = false;
        flags = SV_KI_STATEFUL_FLAGS;
        manual = false;
    }
    /* the stored word replaces the flags, and need not have bit 0 itself */
    bool stateful = (flags & SV_KI_STATEFUL_FLAGS) != 0;
    if (stateful) {
        const sv_value *f = sv_map_getz(meta, KI_META_FLAGS);
        if (f) flags = (uint32_t)sv_get_uint(f);
    }
    if (o.zlib_level < -1 || o.zlib_level > 9) o.zlib_level = 9;

    /* Without compression the object stream goes straight to out, after the
     * header; with it, into a buffer of its own that is compressed after. */
    bool marker_zlib = false;
    const sv_value *mk = sv_map_getz(meta, KI_META_MARKER);
    if (flags & SV_KI_WITH_COMPRESSION) marker_zlib = !(mk && sv_get_uint(mk) == 0);
    bool direct = !manual && !marker_zlib;
    sv_buf body, stream;
    sv_buf_init(&body, out->alloc);
    sv_buf_init(&stream, out->alloc);
    size_t start = out->len;
    if (direct) {
        if (bind) sv_put_u32le(out, KI_BIND_MAGIC);
        if (stateful) sv_put_u32le(out, flags);
        if (flags & SV_KI_WITH_COMPRESSION) sv_buf_putc(out, 0);
    }
    sv_buf *bodyp = direct ? out : &body;
    uint64_t body_start = sv_buf_pos(bodyp); /* (bytes a sink took count too) */
    uint64_t flushed_before = out->flushed;
    ki_enc e;
    memset(&e, 0, sizeof e);
    e.types = o.types;
    e.flags = flags;
    e.mask = o.property_mask;
    e.shallow = shallow;
    e.skip_deprecated = o.skip_deprecated;
    e.err = err;
    /* Into a sink the output goes in pieces. One that can patch (a file)
     * takes them as they come and has each deep size rewritten once known;
     * into any other, sizes cannot be patched, so they are found first, by
     * an encode whose bytes are dropped (a second walk of the tree). (With
     * zlib the stream is compressed whole: held, and patched.) */
    e.streams = direct && out->sink;
    e.forward = e.streams && !sv_buf_seekable_of(out);
    if (e.forward && !shallow) st = size_pass(&e, v, out->alloc);
    if (st == SV_OK) {
        e.out = bodyp;
        sv__core_bw_init(&e.bw, bodyp);
        st = ki_write_object(&e, v);
    }
    if (e.sizes) out->alloc->free(out->alloc->ctx, e.sizes, e.sizes_cap * sizeof *e.sizes);
    ki_enc_free_shapes(&e, out->alloc);
    if (st == SV_OK) {
        ki_write_tail(&e, (uint32_t)sv_get_uint(sv_map_getz(meta, KI_META_TAIL)));
        size_t tn;
        const char *tp = sv_get_str(sv_map_getz(meta, "trailing"), &tn);
        if (sv_kind_of(sv_map_getz(meta, "trailing")) == SV_BYTES) sv_buf_append(bodyp, tp, tn);
        /* a sink's own error (a full disk) is that error, not memory */
        sv_status bs = sv_buf_status(bodyp);
        if (bs != SV_OK)
            st = sv_error_set(err, bs, KI_FORMAT, 0, "%s",
                              bs == SV_ERR_NOMEM ? "out of memory" : "the output's sink failed");
    }
    if (st == SV_OK && sv_buf_pos(bodyp) - body_start > UINT32_MAX)
        st = sv_error_set(err, SV_ERR_RANGE, KI_FORMAT, 0, "a stream over 4 GiB");
    if (st != SV_OK || direct) goto done;

    if (stateful) sv_put_u32le(&stream, flags);
    if (flags & SV_KI_WITH_COMPRESSION) {
        const sv_value *zv = sv_map_getz(meta, KI_META_ZLIB);
        if (!marker_zlib) { /* stored raw, as it was */
            sv_buf_putc(&stream, 0);
            sv_buf_append(&stream, body.data, body.len);
        } else {
            /* §4.3: compressed when that is smaller (or as the tree says) */
            size_t at = stream.len;
            sv_buf_putc(&stream, mk ? (uint8_t)sv_get_uint(mk) : 1);
            if (!put_zlib(&stream, body.data, body.len, zv, o.zlib_level)) goto nomem;
            if (!mk && stream.len - at - 5 >= body.len) {
                stream.len = at;
                sv_buf_putc(&stream, 0);
                sv_buf_append(&stream, body.data, body.len);
            }
        }
    } else {
        sv_buf_append(&stream, body.data, body.len);
    }
    if (!sv_buf_ok(&stream)) goto nomem;
    if (bind) sv_put_u32le(out, KI_BIND_MAGIC);
    if (manual) {
        if (stream.len > UINT32_MAX) goto nomem;
        if (!put_zlib(out, stream.data, stream.len, sv_map_getz(meta, KI_META_MANUAL_ZLIB),
                      o.zlib_level))
            goto nomem;
    } else {
        sv_buf_append(out, stream.data, stream.len);
    }
    if (!sv_buf_ok(out)) goto nomem;
done:
    sv_buf_free(&body);
    sv_buf_free(&stream);
    /* (what a sink took already is the caller's to discard) */
    if (st != SV_OK) out->len = out->flushed == flushed_before ? start : 0;
    return st;
nomem:
    st = sv_error_set(err, SV_ERR_NOMEM, KI_FORMAT, 0, "out of memory");
    goto done;
}
