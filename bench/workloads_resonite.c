/* serval-bench: the Resonite workloads (bench/README.md, "Resonite
 * workloads"). The input is the largest Resonite sample scaled up to about
 * twice --size-mb (100 MB by default) by repeating its Object's children
 * (gen_resonite.c).
 *
 * resonite.bson-decode  BSON bytes -> tree: sv_bson_decode (with the "@" URL
 *                       convention, as the resonite format reads) into one
 *                       document reset between steps (sv_doc_reset),
 *                       strings borrowed from the input, as the command
 *                       decodes ("serval-reuse": the row the target reads,
 *                       printed first), or into a new document ("serval",
 *                       strings copied); libbson
 *                       iterating every element of the same bytes, Node's
 *                       bson BSON.deserialize; "serval-borrow": a new
 *                       document each step with the strings borrowed.
 * resonite.bson-encode  tree -> BSON: sv_bson_encode of the tree read in
 *                       setup ("serval-sink": through a 1 MiB-window
 *                       sink that compares and keeps nothing, as conv -o
 *                       writes), libbson building a new document from an
 *                       iteration, BSON.serialize of the deserialized object.
 * resonite.brson-decode .brson (FrDT + Brotli q9/w16) -> tree:
 *                       sv_resonite_decode with threads=0 ("serval", the
 *                       default) and threads=1 ("serval-thread": Brotli on
 *                       a second thread while the BSON is read); Brotli alone (libbrotli
 *                       BrotliDecoderDecompress into a buffer of the known
 *                       size: the floor any decoder has to pay); Node's
 *                       zlib.brotliDecompressSync + BSON.deserialize.
 *
 * Setup checks the answers: serval's tree writes back the identical bytes,
 * libbson and Node read the same document. */
#include <brotli/decode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/bson.h>
#include <serval/resonite.h>
#include <serval/value.h>

#include "gen_resonite.h"
#include "harness.h"
#include "peers/bson_peers.h"
#include "workloads.h"

static bench_rs_input rs_in;
static bool rs_tried, rs_ok;
static char rs_msg[BENCH_MSG_MAX];

static bool rs_generate(const bench_opts *opts)
{
    if (!rs_tried) {
        rs_tried = true;
        rs_ok = bench_gen_resonite((size_t)(opts->size_mb * 2e6), &rs_in, rs_msg, sizeof rs_msg);
        if (rs_ok)
            printf("input: %s, Object children x%zu: BSON %zu bytes (%.1f MB, %zu elements), "
                   ".brson %zu bytes, made in %.2f s; peers: libbson %s, %s\n",
                   rs_in.sample, rs_in.copies, rs_in.bson_len, (double)rs_in.bson_len / 1e6,
                   rs_in.elements, rs_in.brson_len, rs_in.seconds,
#ifdef SERVAL_BENCH_LIBBSON
                   bench_libbson_version(),
#else
                   "not built",
#endif
                   bench_node_version());
    }
    return rs_ok;
}

static bool bson_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!rs_generate(opts)) {
        snprintf(msg, msg_size, "%s", rs_msg);
        return false;
    }
    in->text = (const char *)rs_in.bson;
    in->len = rs_in.bson_len;
    return true;
}

static bool brson_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!rs_generate(opts)) {
        snprintf(msg, msg_size, "%s", rs_msg);
        return false;
    }
    in->text = (const char *)rs_in.brson;
    in->len = rs_in.brson_len;
    return true;
}

static const uint8_t *in_bytes(const bench_ctx *ctx)
{
    return (const uint8_t *)ctx->in->text;
}

static bool report(bench_ctx *ctx, const char *what, const sv_error *err)
{
    char why[BENCH_MSG_MAX];
    sv_error_format(err, why, sizeof why);
    return bench_fail(ctx, "%s: %s", what, why);
}

/* ---- serval ------------------------------------------------------------------- */

typedef struct rs_state {
    sv_doc *doc;
    sv_value root;
    sv_buf out;
} rs_state;

static rs_state serval_st;

/* BSON options with the Resonite "@" string convention. */
static sv_bson_opts urls_opts(void)
{
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = true;
    return o;
}

/* Decodes the input into doc; borrow: the tree's strings point into the
 * input, which outlives it (borrow_input, as the command decodes). */
static bool serval_read_into(bench_ctx *ctx, sv_doc *doc, bool borrow, sv_value *root)
{
    sv_error err;
    sv_error_clear(&err);
    sv_bson_opts urls = urls_opts();
    urls.borrow_input = borrow;
    if (sv_bson_decode(doc, in_bytes(ctx), ctx->in->len, &urls, root, &err) != SV_OK)
        return report(ctx, "sv_bson_decode", &err);
    return true;
}

static bool serval_read(bench_ctx *ctx, rs_state *s)
{
    s->doc = sv_doc_new(ctx->alloc);
    if (!s->doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    return serval_read_into(ctx, s->doc, false, &s->root);
}

static bool serval_write(bench_ctx *ctx, rs_state *s)
{
    sv_buf_init(&s->out, ctx->alloc);
    sv_error err;
    sv_error_clear(&err);
    sv_bson_opts urls = urls_opts();
    if (sv_bson_encode(&s->root, &urls, &s->out, &err) != SV_OK)
        return report(ctx, "sv_bson_encode", &err);
    ctx->out_size = s->out.len;
    return true;
}

/* Read, write back, compare byte for byte. */
static bool serval_verify(bench_ctx *ctx, rs_state *s)
{
    if (!serval_read(ctx, s) || !serval_write(ctx, s)) return false;
    if (s->out.len != ctx->in->len || memcmp(s->out.data, ctx->in->text, s->out.len) != 0)
        return bench_fail(ctx, "the re-written BSON differs from the input");
    sv_buf_free(&s->out);
    ctx->out_size = 0;
    return true;
}

static bool serval_decode_setup(bench_ctx *ctx)
{
    if (!serval_verify(ctx, &serval_st)) return false;
    sv_doc_free(serval_st.doc);
    serval_st.doc = NULL;
    return true;
}

static bool serval_decode_step(bench_ctx *ctx)
{
    return serval_read(ctx, &serval_st);
}

static void serval_decode_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_doc_free(serval_st.doc);
    serval_st.doc = NULL;
}

/* "serval-reuse": one document for every step, reset after each with all
 * its chunks kept (sv_doc_reset), strings borrowed, as a program decoding input after input
 * does: the steps write the tree into memory touched before instead of
 * fresh pages. Setup verifies as "serval" does, then decodes once into the
 * document (untimed) so that the first step finds the chunks too. */
static sv_doc *reuse_doc;

static bool serval_reuse_setup(bench_ctx *ctx)
{
    if (!serval_decode_setup(ctx)) return false;
    reuse_doc = sv_doc_new(ctx->alloc);
    if (!reuse_doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    sv_doc_set_reset_keep(reuse_doc, UINT64_MAX);
    sv_value root;
    if (!serval_read_into(ctx, reuse_doc, true, &root)) return false;
    sv_doc_reset(reuse_doc);
    return true;
}

static bool serval_reuse_step(bench_ctx *ctx)
{
    sv_value root;
    return serval_read_into(ctx, reuse_doc, true, &root);
}

static void serval_reuse_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_doc_reset(reuse_doc);
}

static bool serval_encode_setup(bench_ctx *ctx)
{
    return serval_verify(ctx, &serval_st);
}
static bool serval_encode_step(bench_ctx *ctx)
{
    return serval_write(ctx, &serval_st);
}
static void serval_encode_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_buf_free(&serval_st.out);
}

/* threads for sv_resonite_opts: 0 for "serval" (the library's default),
 * 1 for "serval-thread" (decompression on a second thread). */
static int brson_threads;

static bool serval_brson_once(bench_ctx *ctx, rs_state *s)
{
    s->doc = sv_doc_new(ctx->alloc);
    if (!s->doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    sv_error err;
    sv_error_clear(&err);
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.threads = brson_threads;
    if (sv_resonite_decode(s->doc, in_bytes(ctx), ctx->in->len, &o, &s->root, &err) != SV_OK)
        return report(ctx, "sv_resonite_decode", &err);
    return true;
}

static bool serval_brson_setup(bench_ctx *ctx)
{
    rs_state *s = &serval_st;
    if (!serval_brson_once(ctx, s)) return false;
    /* and back to the identical file */
    sv_buf_init(&s->out, ctx->alloc);
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_encode(&s->root, NULL, &s->out, &err) != SV_OK)
        return report(ctx, "sv_resonite_encode", &err);
    bool same = s->out.len == ctx->in->len && memcmp(s->out.data, ctx->in->text, s->out.len) == 0;
    sv_buf_free(&s->out);
    sv_doc_free(s->doc);
    s->doc = NULL;
    return same ? true : bench_fail(ctx, "the re-encoded .brson differs from the input");
}

static bool serval_brson_step(bench_ctx *ctx)
{
    brson_threads = 0;
    return serval_brson_once(ctx, &serval_st);
}

static bool serval_brson_thread_setup(bench_ctx *ctx)
{
    brson_threads = 1;
    return serval_brson_setup(ctx);
}

static bool serval_brson_thread_step(bench_ctx *ctx)
{
    brson_threads = 1;
    return serval_brson_once(ctx, &serval_st);
}

/* "serval-borrow": a new document each step, as "serval", with the strings
 * borrowed from the input as the command decodes (borrow_input): what the
 * string copies cost a fresh document. */
static bool serval_borrow_step(bench_ctx *ctx)
{
    serval_st.doc = sv_doc_new(ctx->alloc);
    if (!serval_st.doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    return serval_read_into(ctx, serval_st.doc, true, &serval_st.root);
}

/* "serval-sink" (encode): through a sink of the default window that
 * compares each piece with the input at its offset and keeps nothing, as
 * `conv -o FILE` writes (the sizing pass, then one window at a time). */
typedef struct cmp_sink {
    const uint8_t *want;
    size_t len, at;
    bool differs;
} cmp_sink;

static sv_status cmp_sink_take(void *ctx, const uint8_t *data, size_t len)
{
    cmp_sink *c = ctx;
    if (len > c->len - c->at || memcmp(c->want + c->at, data, len) != 0) c->differs = true;
    c->at += len < c->len - c->at ? len : c->len - c->at;
    return SV_OK;
}

static bool serval_sink_step(bench_ctx *ctx)
{
    cmp_sink c = {in_bytes(ctx), ctx->in->len, 0, false};
    sv_buf_init(&serval_st.out, ctx->alloc);
    sv_buf_set_sink(&serval_st.out, cmp_sink_take, &c, 0);
    sv_error err;
    sv_error_clear(&err);
    sv_bson_opts urls = urls_opts();
    if (sv_bson_encode(&serval_st.root, &urls, &serval_st.out, &err) != SV_OK)
        return report(ctx, "sv_bson_encode", &err);
    if (sv_buf_flush(&serval_st.out) != SV_OK) return bench_fail(ctx, "sv_buf_flush failed");
    if (c.differs || c.at != c.len)
        return bench_fail(ctx, "the streamed BSON differs from the input");
    ctx->out_size = c.at;
    return true;
}

static bool serval_sink_setup(bench_ctx *ctx)
{
    /* the tree "serval" encoded (read and checked again if it is gone),
     * and one streamed write checked before the timed ones */
    if (!serval_st.doc && !serval_verify(ctx, &serval_st)) return false;
    if (!serval_sink_step(ctx)) return false;
    sv_buf_free(&serval_st.out);
    ctx->out_size = 0;
    return true;
}

static const bench_impl serval_decode = {"serval", BENCH_MEM_ALLOC, serval_decode_setup,
                                         serval_decode_step, serval_decode_after};
static const bench_impl serval_reuse = {"serval-reuse", BENCH_MEM_ALLOC, serval_reuse_setup,
                                        serval_reuse_step, serval_reuse_after};
static const bench_impl serval_encode = {"serval", BENCH_MEM_ALLOC, serval_encode_setup,
                                         serval_encode_step, serval_encode_after};
static const bench_impl serval_borrow = {"serval-borrow", BENCH_MEM_ALLOC, serval_decode_setup,
                                         serval_borrow_step, serval_decode_after};
static const bench_impl serval_sink = {"serval-sink", BENCH_MEM_ALLOC, serval_sink_setup,
                                       serval_sink_step, serval_encode_after};
static const bench_impl serval_brson = {"serval", BENCH_MEM_ALLOC, serval_brson_setup,
                                        serval_brson_step, serval_decode_after};
static const bench_impl serval_brson_thread = {"serval-thread", BENCH_MEM_ALLOC,
                                               serval_brson_thread_setup, serval_brson_thread_step,
                                               serval_decode_after};

/* ---- Brotli alone ---------------------------------------------------------------- */

static uint8_t *brotli_out;

static bool brotli_step(bench_ctx *ctx)
{
    size_t n = rs_in.bson_len;
    if (BrotliDecoderDecompress(ctx->in->len - 9, in_bytes(ctx) + 9, &n, brotli_out) !=
            BROTLI_DECODER_RESULT_SUCCESS ||
        n != rs_in.bson_len)
        return bench_fail(ctx, "BrotliDecoderDecompress failed");
    return true;
}

static bool brotli_setup(bench_ctx *ctx)
{
    /* the output buffer is made once, untimed: Brotli alone at its fastest */
    brotli_out = malloc(rs_in.bson_len);
    if (!brotli_out) return bench_fail(ctx, "out of memory");
    if (!brotli_step(ctx)) return false;
    return memcmp(brotli_out, rs_in.bson, rs_in.bson_len) == 0
               ? true
               : bench_fail(ctx, "Brotli gave other bytes than the BSON");
}

static const bench_impl brotli_alone = {"brotli-only", BENCH_MEM_RSS, brotli_setup, brotli_step,
                                        NULL};

/* ---- libbson ----------------------------------------------------------------------- */

#ifdef SERVAL_BENCH_LIBBSON
static bool libbson_walk_step(bench_ctx *ctx)
{
    size_t n;
    return bench_libbson_walk(in_bytes(ctx), ctx->in->len, &n)
               ? true
               : bench_fail(ctx, "libbson stopped on invalid BSON");
}

static bool libbson_walk_setup(bench_ctx *ctx)
{
    size_t n;
    if (!bench_libbson_walk(in_bytes(ctx), ctx->in->len, &n))
        return bench_fail(ctx, "libbson stopped on invalid BSON");
    /* every element but the root document itself */
    if (n + 1 != rs_in.elements)
        return bench_fail(ctx, "libbson saw %zu elements, serval %zu", n + 1, rs_in.elements);
    return true;
}

static bool libbson_rebuild_step(bench_ctx *ctx)
{
    size_t n = 0;
    ctx->made = bench_libbson_rebuild(in_bytes(ctx), ctx->in->len, &n);
    ctx->out_size = n;
    return ctx->made ? true : bench_fail(ctx, "libbson could not rebuild the document");
}

static void libbson_rebuild_after(bench_ctx *ctx)
{
    bench_libbson_free(ctx->made);
}

static bool libbson_rebuild_setup(bench_ctx *ctx)
{
    if (!libbson_rebuild_step(ctx)) return false;
    bool same = ctx->out_size == ctx->in->len;
    libbson_rebuild_after(ctx);
    return same ? true : bench_fail(ctx, "libbson's rebuilt document has another size");
}

/* The encode peer times only the appends: the iteration that feeds them is
 * the decode workload's. */
static const bench_impl libbson_decode = {"libbson", BENCH_MEM_RSS, libbson_walk_setup,
                                          libbson_walk_step, NULL};
static const bench_impl libbson_encode = {"libbson", BENCH_MEM_RSS, libbson_rebuild_setup,
                                          libbson_rebuild_step, libbson_rebuild_after};
#endif

/* ---- Node --------------------------------------------------------------------------- */

static bench_node *node;

static bool node_setup(bench_ctx *ctx, const char *job)
{
    size_t count = 0;
    ctx->external = true; /* node does the work in its own process */
    node = bench_node_start(job, in_bytes(ctx), ctx->in->len, &count, ctx->msg, sizeof ctx->msg);
    /* It fails to start when node or the npm package is not installed. */
    if (!node) {
        ctx->unavailable = true;
        return false;
    }
    if (strcmp(job, "bson-encode") != 0 && count != 6)
        return bench_fail(ctx, "node read a root of %zu keys, expected 6", count);
    return true;
}

static bool node_step(bench_ctx *ctx)
{
    size_t size = 0;
    if (!bench_node_run(node, &size, ctx->msg, sizeof ctx->msg)) return false;
    ctx->out_size = size;
    return true;
}

static bool node_decode_setup(bench_ctx *ctx)
{
    return node_setup(ctx, "bson-decode");
}
static bool node_encode_setup(bench_ctx *ctx)
{
    return node_setup(ctx, "bson-encode");
}
static bool node_brson_setup(bench_ctx *ctx)
{
    return node_setup(ctx, "brson-decode");
}

static const bench_impl node_decode = {"node-bson", BENCH_MEM_RSS, node_decode_setup, node_step,
                                       NULL};
static const bench_impl node_encode = {"node-bson", BENCH_MEM_RSS, node_encode_setup, node_step,
                                       NULL};
static const bench_impl node_brson = {"node-zlib+bson", BENCH_MEM_RSS, node_brson_setup, node_step,
                                      NULL};

/* ---- the table ------------------------------------------------------------------------ */

#ifdef SERVAL_BENCH_LIBBSON
#define LIBBSON_DECODE &libbson_decode,
#define LIBBSON_ENCODE &libbson_encode,
#else
#define LIBBSON_DECODE
#define LIBBSON_ENCODE
#endif

const bench_workload bench_workloads_resonite[] = {
    {"resonite.bson-decode",
     "BSON -> tree (the largest sample scaled to ~2x --size-mb)",
     bson_input,
     /* first, the row the target reads (bench/README.md): one document
      * reset and reused between inputs, as the issue's program decodes */
     {&serval_reuse, &serval_decode, LIBBSON_DECODE &serval_borrow, &node_decode, NULL}},
    {"resonite.bson-encode",
     "tree -> BSON (same document)",
     bson_input,
     {&serval_encode, LIBBSON_ENCODE &serval_sink, &node_encode, NULL}},
    {"resonite.brson-decode",
     ".brson (FrDT + Brotli q9/w16) -> tree, against Brotli alone",
     brson_input,
     {&serval_brson, &serval_brson_thread, &brotli_alone, &node_brson, NULL}},
    {NULL, NULL, NULL, {NULL}},
};
