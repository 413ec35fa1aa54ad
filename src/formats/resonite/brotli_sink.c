/* A .brson payload written without holding its BSON: the BSON writer
 * streams through a sink (serval/buf.h, bson_embed.h) and each window it
 * hands over goes straight into libbrotli's streaming encoder, whose output
 * is appended to the caller's buffer (and handed to its own sink, if any).
 *
 * The bytes are those of one BrotliEncoderCompressStream call over the whole
 * BSON (sv__compress_brotli_compress), for qualities 2 to 11: the encoder is
 * given the same parameters and size hint (the BSON's length, which the
 * writer's sizing pass knows before the first byte), copies its input into
 * its ring buffer and compresses a block only when the block is full or the
 * input ends; so where the input is cut into windows does not change the
 * output, as long as the last window is the one marked FINISH. Qualities 0
 * and 1 cut their blocks at the end of each call's input, so those are
 * written from the whole BSON (resonite_format.c).
 *
 * libbrotlienc ends the process when its allocator returns NULL (it is built
 * without BROTLI_ENCODER_CLEANUP_ON_OOM), so, as in compress/brotli.c, the
 * allocator never does (compress/brotli_mem.h): a refused allocation jumps
 * back to the sink call that started the encoder's work, which frees every
 * block the encoder holds (kept on a list) and fails the output. */
#include <brotli/encode.h>
#include <setjmp.h>
#include <string.h>

#include "compress/brotli_mem.h"
#include "compress/brotli_params.h"
#include "formats/resonite/resonite_internal.h"

struct sv__resonite_brotli_sink {
    sv__compress_brotli_mem mem; /* the encoder's blocks and its refusal jump */
    BrotliEncoderState *enc;
    sv_buf *out;
    uint64_t total, fed; /* the BSON's length and the bytes given so far */
    bool failed;
};

static void free_all(sv__resonite_brotli_sink *k)
{
    sv__compress_brotli_mem_free_all(&k->mem);
    k->enc = NULL; /* its memory was on the list */
}

sv__resonite_brotli_sink *sv__resonite_brotli_sink_new(sv_buf *out, int quality, int lgwin,
                                                       uint64_t total)
{
    const sv_alloc *a = out->alloc;
    sv__resonite_brotli_sink *k = a->malloc(a->ctx, sizeof *k);
    if (!k) return NULL;
    memset(k, 0, sizeof *k);
    k->mem.alloc = a;
    k->out = out;
    k->total = total;
    if (setjmp(k->mem.refused)) {
        free_all(k);
        a->free(a->ctx, k, sizeof *k);
        return NULL;
    }
    BrotliEncoderState *s = BrotliEncoderCreateInstance(sv__compress_brotli_mem_alloc,
                                                        sv__compress_brotli_mem_free, &k->mem);
    if (!s) {
        free_all(k);
        a->free(a->ctx, k, sizeof *k);
        return NULL;
    }
    /* the parameters sv__compress_brotli_compress sets, so the same bytes */
    sv__compress_brotli_set_params(s, quality, lgwin, total);
    k->enc = s;
    return k;
}

/* Gives the encoder len bytes and appends what it makes to out; finish
 * with the last of the BSON. Runs under k->mem.refused (the caller's setjmp). */
static bool feed(sv__resonite_brotli_sink *k, const uint8_t *in, size_t len, bool finish)
{
    BrotliEncoderOperation op = finish ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS;
    size_t avail_in = len;
    const uint8_t *next_in = in;
    for (;;) {
        /* room for what a call may make: the encoder keeps the rest */
        if (sv_buf_ensure(k->out, 64 * 1024) != SV_OK) return false;
        size_t avail_out = k->out->cap - k->out->len;
        uint8_t *next_out = k->out->data + k->out->len;
        if (!BrotliEncoderCompressStream(k->enc, op, &avail_in, &next_in, &avail_out, &next_out,
                                         NULL))
            return false;
        k->out->len = (size_t)(next_out - k->out->data);
        /* out's bytes are final: its own sink may take them */
        sv_buf_release(k->out);
        if (finish ? BrotliEncoderIsFinished(k->enc)
                   : avail_in == 0 && !BrotliEncoderHasMoreOutput(k->enc))
            return true;
    }
}

sv_status sv__resonite_brotli_sink_write(void *ctx, const uint8_t *data, size_t len)
{
    sv__resonite_brotli_sink *k = ctx;
    if (k->failed || !k->enc || len > k->total - k->fed) {
        k->failed = true;
        return SV_ERR_NOMEM;
    }
    if (setjmp(k->mem.refused)) {
        free_all(k);
        k->failed = true;
        return SV_ERR_NOMEM;
    }
    k->fed += len;
    if (!feed(k, data, len, k->fed == k->total)) {
        k->failed = true;
        return sv_buf_ok(k->out) ? SV_ERR_NOMEM : sv_buf_status(k->out);
    }
    return SV_OK;
}

bool sv__resonite_brotli_sink_done(const sv__resonite_brotli_sink *k)
{
    return !k->failed && k->enc && k->fed == k->total && BrotliEncoderIsFinished(k->enc);
}

void sv__resonite_brotli_sink_free(sv__resonite_brotli_sink *k)
{
    if (!k) return;
    if (k->enc) BrotliEncoderDestroyInstance(k->enc);
    free_all(k); /* nothing, unless the encoder forgot a block */
    k->mem.alloc->free(k->mem.alloc->ctx, k, sizeof *k);
}
