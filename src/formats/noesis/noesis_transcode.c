/* NoesisGUI to NoesisGUI without the tree (noesis_transcode.h). The decoder
 * runs as for a tree (noesis_decode.c) and hands each chunk, once its
 * framing is read, to the encoder's chunk writer (noesis_encode.c), which
 * asks for the data section when it gets there: the command interpreter
 * then makes one instance at a time and the emitter writes it at once. */
#include "formats/noesis/noesis_transcode.h"

#include "core/doc_internal.h"
#include "formats/noesis/noesis_internal.h"

sv_status sv__noesis_format_transcode(sv_doc *doc, const uint8_t *data, size_t len,
                                      const sv_options *in, const sv_options *out_opts, sv_buf *out,
                                      sv_error *err)
{
    sv_noesis_opts din, dout;
    sv_status st = nsb_registry_opts(in, &din, err);
    if (st != SV_OK) return st;
    if (nsb_registry_opts(out_opts, &dout, NULL) != SV_OK) {
        /* the encoder reads its options after a decode that succeeded */
        sv_value root;
        st = nsb_decode(doc, data, len, &din, &root, err);
        sv_doc_reset(doc);
        return st != SV_OK ? st : nsb_registry_opts(out_opts, &dout, err);
    }
    sv_doc *values = sv_doc_new(&doc->alloc);
    if (!values) return sv_error_set(err, SV_ERR_NOMEM, "noesis", 0, "out of memory");
    sv_limits lim = sv_limits_resolve(&din.limits);
    sv_doc_set_max_alloc(values, lim.max_alloc);
    size_t start = out->len;
    uint64_t flushed0 = out->flushed;
    nsb_stream stream = {&dout, out, values};
    st = nsb_decode_stream(doc, data, len, &din, &stream, err);
    if (st == SV_OK && !sv_buf_ok(out)) st = nsb_output_failed(out, err);
    sv_doc_free(values);
    sv_doc_reset(doc);
    /* as nsb_encode leaves it: bytes already handed to a sink are the
     * caller's to discard (buf.h) */
    if (st != SV_OK) out->len = out->flushed != flushed0 ? 0 : start < out->len ? start : out->len;
    return st;
}
