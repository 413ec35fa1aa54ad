/* serval-bench: the noesis workloads.
 *
 * noesis.decode  NSDH bytes -> tree: sv_noesis_decode with the metadata
 *                interpreter over a generated ~50 MB file (gen_noesis.c).
 *                Timed: making the document and decoding; freeing is not.
 *                Also into one document emptied between runs
 *                (serval-reused-doc, sv_doc_reset).
 * noesis.encode  tree -> NSDH bytes: sv_noesis_encode into a fresh buffer;
 *                also into a buffer kept between runs (serval-reused-out)
 *                and through a sink, as conv writes a file (serval-streamed);
 *                and NSDH bytes -> NSDH bytes through a sink without the
 *                tree (serval-transcode), what conv noesis -> noesis does.
 *
 * No other reader or writer of NSDH files exists (spec §0.5), so the peer is
 * memcpy of the same bytes into a buffer allocated once: the floor any
 * decoder or encoder that touches every byte is measured against.
 *
 * Before timing, setup checks the answer: the decode succeeds, visits every
 * instance, and the encode gives back the identical bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/noesis.h>
#include <serval/value.h>

#include "harness.h"
#include "workloads.h"

bool bench_gen_noesis(size_t target_bytes, uint8_t **data, size_t *len, size_t *instances,
                      char *msg, size_t msg_size);

static uint8_t *nsb_data;
static size_t nsb_len, nsb_instances;
static bool nsb_tried, nsb_ok;
static char nsb_msg[BENCH_MSG_MAX];

static bool noesis_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!nsb_tried) {
        nsb_tried = true;
        double t0 = bench_now();
        nsb_ok = bench_gen_noesis((size_t)(opts->size_mb * 1e6), &nsb_data, &nsb_len,
                                  &nsb_instances, nsb_msg, sizeof nsb_msg);
        if (nsb_ok)
            printf("input: NSDH v4 with metadata, %zu bytes (%.1f MB), %zu instances, "
                   "generated in %.2f s\n",
                   nsb_len, (double)nsb_len / 1e6, nsb_instances, bench_now() - t0);
    }
    if (!nsb_ok) {
        snprintf(msg, msg_size, "%s", nsb_msg);
        return false;
    }
    in->text = (const char *)nsb_data;
    in->len = nsb_len;
    return true;
}

/* ---- serval ---- */

typedef struct nsb_state {
    sv_doc *doc;
    sv_value root;
    sv_buf out;
} nsb_state;

static nsb_state st;

static bool decode_into(bench_ctx *ctx, sv_doc *doc)
{
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_decode(doc, (const uint8_t *)ctx->in->text, ctx->in->len, NULL, &st.root,
                         &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_noesis_decode: %s", why);
    }
    return true;
}

static bool decode(bench_ctx *ctx)
{
    st.doc = sv_doc_new(ctx->alloc);
    if (!st.doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    return decode_into(ctx, st.doc);
}

/* Encodes into out, after what it holds. */
static bool encode_into(bench_ctx *ctx, sv_buf *out)
{
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_encode(&st.root, NULL, out, &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_noesis_encode: %s", why);
    }
    ctx->out_size = out->len;
    return true;
}

static bool encode(bench_ctx *ctx)
{
    sv_buf_init(&st.out, ctx->alloc);
    return encode_into(ctx, &st.out);
}

static bool verify(bench_ctx *ctx)
{
    if (!decode(ctx) || !encode(ctx)) return false;
    const sv_value *chunk = sv_array_at(sv_map_getz(&st.root, "chunks"), 0);
    size_t objects = sv_len(sv_map_getz(chunk, "objects"));
    if (objects != nsb_instances)
        return bench_fail(ctx, "decoded %zu instances, the file has %zu", objects, nsb_instances);
    if (st.out.len != ctx->in->len || memcmp(st.out.data, ctx->in->text, st.out.len) != 0)
        return bench_fail(ctx, "the encoded file differs from the input");
    sv_buf_free(&st.out);
    ctx->out_size = 0;
    return true;
}

static bool decode_setup(bench_ctx *ctx)
{
    if (!verify(ctx)) return false;
    sv_doc_free(st.doc);
    st.doc = NULL;
    return true;
}
static bool decode_step(bench_ctx *ctx)
{
    bool ok = decode(ctx);
    ctx->made = st.doc;
    return ok;
}
static void decode_after(bench_ctx *ctx)
{
    sv_doc_free(ctx->made);
    st.doc = NULL;
}
static bool encode_setup(bench_ctx *ctx)
{
    return verify(ctx);
}
static bool encode_step(bench_ctx *ctx)
{
    return encode(ctx);
}
static void encode_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_buf_free(&st.out);
}

/* The same encode into an output buffer kept from one run to the next, as
 * the memcpy yardstick's is: the difference from "serval" is the fresh
 * output memory (its page faults), not the encoder. */
static sv_buf reused;
static bool reused_setup(bench_ctx *ctx)
{
    if (!encode_setup(ctx)) return false;
    sv_buf_init(&reused, ctx->alloc);
    return encode_into(ctx, &reused); /* the buffer's pages, touched once */
}
static bool reused_step(bench_ctx *ctx)
{
    reused.len = 0;
    return encode_into(ctx, &reused);
}

/* The same encode into a buffer with a sink, as serval conv writes a file:
 * the sizes are found by a first pass over the tree and the output streams
 * through a window (noesis_encode.c). The sink drops the bytes after
 * setup has checked them, so this is the encoder's cost, not a disk's. */
static size_t streamed_bytes;
static sv_buf streamed_copy; /* setup: what the sink was handed, to compare */
static sv_status drop(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx;
    streamed_bytes += len;
    return streamed_copy.alloc ? sv_buf_append(&streamed_copy, data, len) : SV_OK;
}
static bool streamed_run(bench_ctx *ctx)
{
    sv_buf out;
    sv_buf_init(&out, ctx->alloc);
    streamed_bytes = 0;
    sv_buf_set_sink(&out, drop, NULL, 0);
    bool ok = encode_into(ctx, &out) && sv_buf_flush(&out) == SV_OK;
    sv_buf_free(&out);
    ctx->out_size = streamed_bytes;
    return ok;
}
static bool streamed_setup(bench_ctx *ctx)
{
    if (!encode_setup(ctx)) return false;
    sv_buf_init(&streamed_copy, sv_alloc_libc());
    bool ok = streamed_run(ctx);
    bool same = streamed_copy.len == ctx->in->len &&
                memcmp(streamed_copy.data, ctx->in->text, streamed_copy.len) == 0;
    sv_buf_free(&streamed_copy);
    streamed_copy.alloc = NULL;
    if (ok && !same) return bench_fail(ctx, "the streamed encode differs from the input");
    return ok;
}
static bool streamed_step(bench_ctx *ctx)
{
    return streamed_run(ctx);
}

/* The same decode into one document emptied between runs (sv_doc_reset,
 * keeping all its chunks), as `serval` -j workers decode file after file:
 * the difference from "serval" is the fresh memory of a new document (its
 * page faults), not the decoder. */
static sv_doc *kept_doc;
static bool reused_doc_setup(bench_ctx *ctx)
{
    if (!decode_setup(ctx)) return false;
    kept_doc = sv_doc_new(ctx->alloc);
    if (!kept_doc || sv_doc_set_reset_keep(kept_doc, UINT64_MAX) != SV_OK)
        return bench_fail(ctx, "sv_doc_new: out of memory");
    return decode_into(ctx, kept_doc); /* the document's pages, touched once */
}
static bool reused_doc_step(bench_ctx *ctx)
{
    sv_doc_reset(kept_doc);
    return decode_into(ctx, kept_doc);
}

/* NSDH bytes -> NSDH bytes without the tree, through a sink, as `serval conv
 * --from noesis --to noesis -o FILE` writes (noesis_transcode.c): the decode
 * and the encode of the rows above in one pass, an instance at a time. */
sv_status sv__noesis_format_transcode(sv_doc *doc, const uint8_t *data, size_t len,
                                      const sv_options *in, const sv_options *out_opts,
                                      sv_buf *out, sv_error *err);
static sv_doc *transcode_doc;
static bool transcode_run(bench_ctx *ctx)
{
    sv_buf out;
    sv_buf_init(&out, ctx->alloc);
    streamed_bytes = 0;
    sv_buf_set_sink(&out, drop, NULL, 0);
    sv_error err;
    sv_error_clear(&err);
    sv_status s = sv__noesis_format_transcode(transcode_doc, (const uint8_t *)ctx->in->text,
                                              ctx->in->len, NULL, NULL, &out, &err);
    if (s == SV_OK) s = sv_buf_flush(&out);
    sv_buf_free(&out);
    ctx->out_size = streamed_bytes;
    if (s == SV_OK) return true;
    char why[BENCH_MSG_MAX];
    sv_error_format(&err, why, sizeof why);
    return bench_fail(ctx, "sv__noesis_format_transcode: %s", why);
}
static bool transcode_setup(bench_ctx *ctx)
{
    transcode_doc = sv_doc_new(ctx->alloc);
    if (!transcode_doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    sv_buf_init(&streamed_copy, sv_alloc_libc());
    bool ok = transcode_run(ctx);
    bool same = streamed_copy.len == ctx->in->len &&
                memcmp(streamed_copy.data, ctx->in->text, streamed_copy.len) == 0;
    sv_buf_free(&streamed_copy);
    streamed_copy.alloc = NULL;
    if (ok && !same) return bench_fail(ctx, "the transcoded file differs from the input");
    return ok;
}

static const bench_impl serval_decode = {"serval", BENCH_MEM_ALLOC, decode_setup, decode_step,
                                         decode_after};
static const bench_impl serval_reused_doc = {"serval-reused-doc", BENCH_MEM_ALLOC,
                                             reused_doc_setup, reused_doc_step, NULL};
static const bench_impl serval_reused = {"serval-reused-out", BENCH_MEM_ALLOC, reused_setup,
                                         reused_step, NULL};
static const bench_impl serval_encode = {"serval", BENCH_MEM_ALLOC, encode_setup, encode_step,
                                         encode_after};
static const bench_impl serval_streamed = {"serval-streamed", BENCH_MEM_ALLOC, streamed_setup,
                                           streamed_step, NULL};
static const bench_impl serval_transcode = {"serval-transcode", BENCH_MEM_ALLOC, transcode_setup,
                                            transcode_run, NULL};

/* ---- memcpy: the same bytes, copied once into a buffer allocated in setup ---- */

const bench_workload bench_workloads_noesis[] = {
    {"noesis.decode",
     "NSDH with metadata -> tree (sv_noesis_decode vs memcpy of the bytes)",
     noesis_input,
     {&serval_decode, &bench_memcpy_impl, &serval_reused_doc, NULL}},
    {"noesis.encode",
     "tree -> NSDH with metadata (sv_noesis_encode vs memcpy of the bytes)",
     noesis_input,
     {&serval_encode, &bench_memcpy_impl, &serval_reused, &serval_streamed, &serval_transcode,
      NULL}},
    {NULL, NULL, NULL, {NULL}},
};
