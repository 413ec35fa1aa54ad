/* Resonite data trees as a value tree and as a registry format
 * ("resonite"): container (frdt.c) + BSON (src/formats/bson/) + the
 * resonite.DataTree root that records the container (resonite.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/opts.h"
#include "core/value_internal.h"
#include "formats/bson/bson_embed.h"
#include "formats/resonite/resonite_internal.h"
#include "formats/resonite/resonite_opts.h"
#include "serval/bson.h"
#include "serval/registry.h"
#include "core/decode_root.h"

static const char *framing_name(sv_resonite_framing f)
{
    return f == SV_RESONITE_FRAMING_LEGACY ? "legacy" : "header";
}

/* The root: the BSON root's pairs as the fields of a resonite.DataTree
 * object (a MAP and an OBJECT share their storage, so this is a relabel),
 * with the container as meta. */
static bool make_root(sv_doc *doc, sv_value *root, const sv_resonite_container *c)
{
    sv_value cls = sv_str_intern(doc, RESONITE_CLASS, strlen(RESONITE_CLASS));
    sv_value *cp = sv_doc_alloc(doc, sizeof *cp);
    if (cls.kind != SV_STRING || !cp) return false;
    *cp = cls;
    root->kind = SV_OBJECT;
    root->as.box->cls = cp;
    sv_value meta = sv_map(doc, 0);
    if (meta.kind != SV_MAP) return false;
    if (sv_map_append_str(doc, &meta, "framing", sv_strz(doc, framing_name(c->framing))) != SV_OK ||
        sv_map_append_str(doc, &meta, "compression",
                          sv_strz(doc, sv_resonite_compression_name(c->compression))) != SV_OK)
        return false;
    return sv_meta_set(doc, root, meta) == SV_OK;
}

sv_status sv_resonite_decode(sv_doc *doc, const uint8_t *data, size_t len,
                             const sv_resonite_opts *opts, sv_value *out, sv_error *err)
{
    *out = sv_null();
    sv_resonite_opts o;
    sv_status ost = sv__resonite_rs_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    opts = &o;
    if (!doc) return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0, "no document");
    sv_limits lim = sv_limits_resolve(&opts->limits);
    sv_doc_set_max_alloc(doc, lim.max_alloc);
    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.limits = lim;
    bo.format = RESONITE_FORMAT;
    bo.resonite_urls = !opts->raw_strings;
    sv_resonite_container c = {SV_RESONITE_FRAMING_AUTO, SV_RESONITE_AUTO};
    size_t off = 0;
    sv_status st = sv__resonite_rs_container(data, len, opts, &doc->alloc, &c, &off, err);
    if (st != SV_OK) return st;
    bool handled = false;
    if (c.compression == SV_RESONITE_BROTLI) {
        /* the fast path: straight into the tree (brotli_tree.c) */
        sv_decomp d = {.max_out = lim.max_decompressed,
                       .format = RESONITE_FORMAT,
                       .base = off,
                       .size_from_head = sv__resonite_rs_bson_head,
                       .max_alloc = lim.max_alloc};
        st = sv__resonite_rs_brotli_tree(doc, data + off, len - off, &d, &bo, opts->threads, out,
                                         &handled, err);
    }
    if (!handled) {
        /* The BSON goes through the document's allocator, so it is counted
         * (and capped) with the tree, then freed. */
        sv_buf bson;
        sv_buf_init(&bson, &doc->alloc);
        st = sv_resonite_unwrap(data, len, opts, &bson, &c, err);
        if (st == SV_OK) {
            st = sv_bson_decode(doc, bson.data, bson.len, &bo, out, err);
            if (st != SV_OK) sv__resonite_rs_note_bson_error(err);
        }
        sv_buf_free(&bson);
    }
    if (st == SV_OK && !make_root(doc, out, &c)) {
        *out = sv_null();
        st = sv_error_set(err, sv_doc_status(doc) == SV_ERR_LIMIT ? SV_ERR_LIMIT : SV_ERR_NOMEM,
                          RESONITE_FORMAT, 0, "out of memory");
    }
    return st;
}

sv_status sv_resonite_validate(const uint8_t *data, size_t len, const sv_resonite_opts *opts,
                               sv_error *err)
{
    sv_resonite_opts o;
    sv_status st = sv__resonite_rs_opts_read(&o, opts, err);
    if (st != SV_OK) return st;
    opts = &o;
    sv_limits lim = sv_limits_resolve(&opts->limits);
    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.limits = lim;
    bo.format = RESONITE_FORMAT;
    bo.resonite_urls = !opts->raw_strings;
    sv_resonite_container c = {SV_RESONITE_FRAMING_AUTO, SV_RESONITE_AUTO};
    size_t off = 0;
    st = sv__resonite_rs_container(data, len, opts, sv_alloc_libc(), &c, &off, err);
    if (st != SV_OK) return st;
    bool handled = false;
    if (c.compression == SV_RESONITE_BROTLI) {
        sv_decomp d = {.max_out = lim.max_decompressed,
                       .format = RESONITE_FORMAT,
                       .base = off,
                       .size_from_head = sv__resonite_rs_bson_head,
                       .max_alloc = lim.max_alloc};
        st = sv__resonite_rs_brotli_check(data + off, len - off, &d, &bo, opts->threads, &handled,
                                          err);
    }
    if (!handled) {
        sv_buf bson;
        sv_buf_init(&bson, NULL);
        st = sv_resonite_unwrap(data, len, opts, &bson, &c, err);
        if (st == SV_OK) {
            st = sv_bson_validate(bson.data, bson.len, &bo, err);
            if (st != SV_OK) sv__resonite_rs_note_bson_error(err);
        }
        sv_buf_free(&bson);
    }
    return st;
}

/* The container recorded in a tree's meta (missing parts stay AUTO). */
static sv_status container_from_meta(const sv_value *v, sv_resonite_container *c, sv_error *err)
{
    const sv_value *meta = sv_meta(v);
    if (!meta) return SV_OK;
    const sv_value *f = sv_map_getz(meta, "framing"), *k = sv_map_getz(meta, "compression");
    if (f) {
        const char *s = sv_get_str(f, NULL);
        if (!strcmp(s, "header"))
            c->framing = SV_RESONITE_FRAMING_HEADER;
        else if (!strcmp(s, "legacy"))
            c->framing = SV_RESONITE_FRAMING_LEGACY;
        else
            return sv_error_set(err, SV_ERR_TYPE, RESONITE_FORMAT, 0,
                                "$meta framing must be \"header\" or \"legacy\"");
    }
    if (k && !sv_resonite_compression_parse(sv_get_str(k, NULL), &c->compression))
        return sv_error_set(err, SV_ERR_TYPE, RESONITE_FORMAT, 0,
                            "$meta compression must be \"brotli\", \"lzma\" or \"lz4\"");
    return SV_OK;
}

/* A Brotli payload written as the BSON writer streams (brotli_sink.c): the
 * BSON buffer holds one window at a time. The BSON writer's sink is set
 * before it starts (it streams only into a buffer with a sink); the Brotli
 * encoder behind it is made once the writer knows the BSON's length
 * (on_total), which the encoder's size hint needs. A tree the writer cannot
 * stream ends up whole in the buffer and is compressed from there. */
typedef struct brotli_pipe {
    sv_buf *out;
    const sv_resonite_container *c;
    int quality, window;
    bool streamed;
    sv__resonite_brotli_sink *sink; /* NULL when streamed: no memory */
} brotli_pipe;

static void pipe_total(void *ctx, uint64_t total)
{
    brotli_pipe *p = ctx;
    p->streamed = total != 0;
    if (!p->streamed) return;
    p->sink = sv__resonite_brotli_sink_new(p->out, p->quality, p->window, total);
    if (p->sink) sv__resonite_rs_put_header(p->out, p->c);
}

static sv_status pipe_write(void *ctx, const uint8_t *data, size_t len)
{
    brotli_pipe *p = ctx;
    return p->sink ? sv__resonite_brotli_sink_write(p->sink, data, len) : SV_ERR_NOMEM;
}

static sv_status encode_brotli_streamed(const sv_value *v, const sv_bson_opts *bo,
                                        const sv_resonite_container *c,
                                        const sv_resonite_opts *opts, int q, int w, sv_buf *out,
                                        sv_error *err)
{
    size_t start = out->len;
    uint64_t flushed = out->flushed;
    brotli_pipe p = {out, c, q, w, false, NULL};
    sv_buf bson;
    sv_buf_init(&bson, out->alloc);
    /* the window of out's sink, when it has one (tests make it small) */
    sv_buf_set_sink(&bson, pipe_write, &p, out->sink ? out->window : 0);
    sv_status st = sv__bson_encode_streamed(v, bo, &bson, pipe_total, &p, err);
    if (st == SV_OK && !p.streamed) {
        /* written whole: compressed from the buffer */
        st = sv_resonite_wrap(bson.data, bson.len, c, opts, out, err);
    } else if (st == SV_OK) {
        st = p.sink ? sv_buf_flush(&bson) : SV_ERR_NOMEM; /* the last window: the end */
        if (st == SV_OK && !sv__resonite_brotli_sink_done(p.sink)) st = SV_ERR_NOMEM;
        if (st != SV_OK)
            st = sv_error_set(err, st, RESONITE_FORMAT, 0, "Brotli compression failed (%s)",
                              st == SV_ERR_NOMEM ? "out of memory" : "the output failed");
    }
    sv__resonite_brotli_sink_free(p.sink);
    sv_buf_free(&bson);
    /* nothing appended on failure, unless out's own sink has some of it */
    if (st != SV_OK && sv_buf_ok(out) && out->flushed == flushed) out->len = start;
    return st;
}

void sv__resonite_rs_resolve_container(sv_resonite_container *c, const sv_resonite_opts *opts)
{
    /* options win over the meta, the meta over the defaults */
    if (opts->framing != SV_RESONITE_FRAMING_AUTO) c->framing = opts->framing;
    if (opts->compression != SV_RESONITE_AUTO) c->compression = opts->compression;
    if (c->framing == SV_RESONITE_FRAMING_AUTO) c->framing = SV_RESONITE_FRAMING_HEADER;
    if (c->compression == SV_RESONITE_AUTO) c->compression = SV_RESONITE_BROTLI;
}

sv_status sv_resonite_encode(const sv_value *v, const sv_resonite_opts *opts, sv_buf *out,
                             sv_error *err)
{
    sv_resonite_opts o;
    sv_status ost = sv__resonite_rs_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    opts = &o;
    sv_kind k = sv_kind_of(v);
    if (k != SV_MAP && k != SV_OBJECT)
        return sv_error_set(err, SV_ERR_TYPE, RESONITE_FORMAT, 0,
                            "a data tree's root must be a map or a resonite.DataTree object, "
                            "not a %s",
                            sv_kind_name(k));
    sv_resonite_container c = {SV_RESONITE_FRAMING_AUTO, SV_RESONITE_AUTO};
    sv_status st = container_from_meta(v, &c, err);
    if (st != SV_OK) return st;
    sv__resonite_rs_resolve_container(&c, opts);

    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.format = RESONITE_FORMAT;
    bo.resonite_urls = !opts->raw_strings;
    int q, w;
    sv__resonite_rs_brotli_params(opts, &q, &w);
    if (c.compression == SV_RESONITE_BROTLI && q >= 2)
        return encode_brotli_streamed(v, &bo, &c, opts, q, w, out, err);
    sv_buf bson;
    sv_buf_init(&bson, out->alloc);
    st = sv_bson_encode(v, &bo, &bson, err);
    if (st == SV_OK) st = sv_resonite_wrap(bson.data, bson.len, &c, opts, out, err);
    sv_buf_free(&bson);
    return st;
}

/* ---- the registry format ------------------------------------------------------ */

static int resonite_probe(const uint8_t *data, size_t len)
{
    if (len >= 4 && memcmp(data, "FrDT", 4) == 0) return 100;
    /* spec A.2.2: legacy files have no magic; these look inside */
    bool cut = false;
    if (sv__resonite_rs_lzma_sniff(data, len, &cut)) return cut ? SV_PROBE_TRUNCATED : 40;
    if (sv__resonite_rs_lz4net_sniff(data, len, &cut)) return cut ? SV_PROBE_TRUNCATED : 30;
    if (sv__resonite_rs_brotli_sniff(data, len, NULL) == SV_OK)
        return 20; /* a probe has no allocator */
    return 0;
}

static bool parse_int_opt(const char *s, int lo, int hi, int *out)
{
    if (!s || !*s) return false;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

/* Reading and writing take different option names, since conv hands the
 * same options to both sides: "container" says what is read, "compression"
 * what is written. */
sv_status sv__resonite_rs_options_from(const sv_options *opts, bool writing, sv_resonite_opts *r,
                                       sv_error *err)
{
    sv_resonite_opts_init(r);
    sv_options ro;
    sv_status st = sv__core_options_read(&ro, opts, RESONITE_FORMAT, err);
    if (st != SV_OK) return st;
    const sv_options *o = &ro;
    r->limits = o->limits;
    const char *name = writing ? "compression" : "container";
    const char *s = sv_options_get(o, name);
    if (s && !sv_resonite_compression_parse(s, &r->compression))
        return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0,
                            "option %s=%s: expected brotli, lzma or lz4", name, s);
    if ((s = sv_options_get(o, "framing"))) {
        if (!strcmp(s, "header"))
            r->framing = SV_RESONITE_FRAMING_HEADER;
        else if (!strcmp(s, "legacy"))
            r->framing = SV_RESONITE_FRAMING_LEGACY;
        else
            return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0,
                                "option framing=%s: expected header or legacy", s);
    }
    if ((s = sv_options_get(o, "quality")) && !parse_int_opt(s, 0, 11, &r->brotli_quality))
        return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0,
                            "option quality=%s: expected 0 to 11", s);
    if (s && r->brotli_quality == 0) r->brotli_quality = -1; /* 0 means "default" inside */
    if ((s = sv_options_get(o, "window")) && !parse_int_opt(s, 10, 24, &r->brotli_window))
        return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0,
                            "option window=%s: expected 10 to 24", s);
    r->raw_strings = sv_options_flag(o, "raw-strings", false);
    if ((s = sv_options_get(o, "threads")) && !parse_int_opt(s, 0, 1, &r->threads))
        return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0,
                            "option threads=%s: expected 0 or 1", s);
    return SV_OK;
}

static sv_status resonite_decode_fmt(sv_doc *doc, const uint8_t *data, size_t len,
                                     const sv_options *opts, sv_value *out, sv_error *err)
{
    sv_resonite_opts r;
    sv_status st = sv__resonite_rs_options_from(opts, false, &r, err);
    if (st != SV_OK) return st;
    st = sv_resonite_decode(doc, data, len, &r, out, err);
    return sv__core_decode_root(doc, st, out, "resonite", err);
}

static sv_status resonite_encode_fmt(const sv_value *v, const sv_options *opts, sv_buf *out,
                                     sv_error *err)
{
    sv_resonite_opts r;
    sv_status st = sv__resonite_rs_options_from(opts, true, &r, err);
    if (st != SV_OK) return st;
    return sv_resonite_encode(v, &r, out, err);
}

static sv_status resonite_validate_fmt(const uint8_t *data, size_t len, const sv_options *opts,
                                       sv_error *err)
{
    sv_resonite_opts r;
    sv_status st = sv__resonite_rs_options_from(opts, false, &r, err);
    if (st != SV_OK) return st;
    return sv_resonite_validate(data, len, &r, err);
}

static const char *const resonite_extensions[] = {"brson", "7zbson", "lz4bson", NULL};

static const sv_option_desc resonite_options[] = {
    {"container", "read: brotli, lzma or lz4 for a headerless file; checked against a header"},
    {"compression", "write: brotli, lzma or lz4; default the tree's $meta, else brotli"},
    {"framing", "write: header (FrDT) or legacy (none); default the tree's $meta, else header"},
    {"quality", "write: Brotli quality 0 to 11 (default 9, Resonite's)"},
    {"window", "write: Brotli window bits 10 to 24 (default 16, Resonite's)"},
    {"raw-strings", "strings as they are stored (no \"@\" URL convention)"},
    {"threads", "read: 1 lets a second thread decompress Brotli while the BSON is read "
                "(default 0: no threads)"},
    {NULL, NULL},
};

const sv_format sv_format_resonite = {
    .struct_size = sizeof(sv_format),
    .name = "resonite",
    .description = "Resonite/Neos data tree (FrDT header or legacy)",
    .extensions = resonite_extensions,
    .probe = resonite_probe,
    .decode = resonite_decode_fmt,
    .encode = resonite_encode_fmt,
    .options = resonite_options,
    .validate = resonite_validate_fmt,
};
