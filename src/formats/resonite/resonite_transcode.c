/* Resonite to Resonite without the tree (resonite_transcode.h).
 *
 * Decoding a data tree keeps its container's framing and compression
 * (the root's meta) and the BSON, which the BSON writer gives back byte for
 * byte (bson.md, "What is not kept"); encoding compresses that BSON anew.
 * So the conversion is: unpack the container into the BSON, check the BSON
 * with the reader's own rules (sv_bson_validate), and compress it as the
 * writer would have compressed the tree's BSON (sv__resonite_rs_encode_bson,
 * the same container choice and the same Brotli bytes): the process holds
 * the compressed input and the BSON, not the tree besides. */
#include <string.h>

#include "formats/resonite/resonite_internal.h"
#include "formats/resonite/resonite_transcode.h"
#include "serval/bson.h"

/* ---- the writer's half -------------------------------------------------- */

/* Brotli through the window writer (brotli_sink.c), a window at a time, as
 * encode_brotli_streamed (resonite_format.c) compresses the BSON writer's
 * windows: the same parameters, size hint and header, so the same bytes. */
static sv_status brotli_streamed(const uint8_t *bson, size_t len, const sv_resonite_container *c,
                                 int q, int w, sv_buf *out, sv_error *err)
{
    size_t start = out->len;
    uint64_t flushed = out->flushed;
    sv__resonite_brotli_sink *sink = sv__resonite_brotli_sink_new(out, q, w, len);
    sv_status st = sink ? SV_OK : SV_ERR_NOMEM;
    if (sink) sv__resonite_rs_put_header(out, c);
    size_t step = out->sink && out->window ? out->window : SV_BUF_WINDOW;
    for (size_t at = 0; st == SV_OK && at < len; at += step) {
        size_t n = len - at < step ? len - at : step;
        st = sv__resonite_brotli_sink_write(sink, bson + at, n);
    }
    if (st == SV_OK && !sv__resonite_brotli_sink_done(sink)) st = SV_ERR_NOMEM;
    if (st != SV_OK)
        st = sv_error_set(err, st, RESONITE_FORMAT, 0, "Brotli compression failed (%s)",
                          st == SV_ERR_NOMEM ? "out of memory" : "the output failed");
    sv__resonite_brotli_sink_free(sink);
    /* nothing appended on failure, unless out's own sink has some of it */
    if (st != SV_OK && sv_buf_ok(out) && out->flushed == flushed) out->len = start;
    return st;
}

sv_status sv__resonite_rs_encode_bson(const uint8_t *bson, size_t len,
                                      const sv_resonite_container *c_in,
                                      const sv_resonite_opts *opts, sv_buf *out, sv_error *err)
{
    sv_resonite_container c = *c_in;
    sv__resonite_rs_resolve_container(&c, opts);
    int q, w;
    sv__resonite_rs_brotli_params(opts, &q, &w);
    /* sv_resonite_encode's choice: qualities 0 and 1 from the whole BSON */
    if (c.compression == SV_RESONITE_BROTLI && q >= 2)
        return brotli_streamed(bson, len, &c, q, w, out, err);
    return sv_resonite_wrap(bson, len, &c, opts, out, err);
}

/* ---- the whole conversion ------------------------------------------------ */

bool sv__resonite_transcode_self(const uint8_t *data, size_t len, const sv_options *in_opts,
                                 const sv_options *out_opts, sv_buf *out, sv_status *st,
                                 sv_error *err)
{
    sv_resonite_opts ri, ro;
    sv_error scratch;
    sv_error_clear(&scratch);
    if (sv__resonite_rs_options_from(in_opts, false, &ri, &scratch) != SV_OK ||
        sv__resonite_rs_options_from(out_opts, true, &ro, &scratch) != SV_OK ||
        ri.raw_strings != ro.raw_strings)
        return false;
    sv_limits lim = sv_limits_resolve(&ri.limits);
    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.limits = lim;
    bo.format = RESONITE_FORMAT;
    bo.resonite_urls = !ri.raw_strings;
    sv_resonite_container c = {SV_RESONITE_FRAMING_AUTO, SV_RESONITE_AUTO};
    /* From libc, not the caller's scratch document: an allocation refused
     * while unpacking (a hostile size) would leave the document's status
     * failed, and the tree path after it would then fail otherwise than the
     * decoder alone. The decompressors check max_alloc themselves. */
    sv_buf bson;
    sv_buf_init(&bson, NULL);
    bool done = sv_resonite_unwrap(data, len, &ri, &bson, &c, &scratch) == SV_OK &&
                sv_bson_validate(bson.data, bson.len, &bo, &scratch) == SV_OK;
    if (done) *st = sv__resonite_rs_encode_bson(bson.data, bson.len, &c, &ro, out, err);
    sv_buf_free(&bson);
    return done;
}
