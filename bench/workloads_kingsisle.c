/* serval-bench: the kingsisle workloads.
 *
 * kingsisle.decode      deep stream -> tree with the type list: a generated
 *                       ~50 MB stream of 100,000 objects of katsuba's fixture
 *                       classes, nested (gen_kingsisle.c).
 * kingsisle.encode      tree -> the same bytes as users run it: "serval"
 *                       through a sink that can patch (conv -o's way: a
 *                       1 MiB window, each deep size rewritten once known;
 *                       here the bytes and patches are dropped, so only the
 *                       encoder is timed), the row the target reads; beside
 *                       it into a fresh buffer (serval-fresh-out: a library
 *                       caller's new sv_buf, 50 MB of fresh pages), into a
 *                       kept buffer (serval-reused-out: a server encoding
 *                       message after message) and through a plain sink
 *                       (serval-sink-plain: one that cannot patch, so the
 *                       sizes are found by a first pass over the tree).
 * kingsisle.decode-raw  the same stream without a type list: hashes and raw
 *                       bit strings.
 *
 * No other writer exists, and katsuba (the one reader) cannot be built
 * here, so the peer is memcpy of the same bytes into a buffer allocated
 * once. Timed: making the document and decoding (freeing is not); each
 * encode row. Setup checks the answer: 100,000 objects decoded and the
 * encoding gives back the identical bytes (through each sink too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/buf_seekable.h>
#include <serval/kingsisle.h>
#include <serval/value.h>

#include "harness.h"
#include "workloads.h"

#define KI_OBJECTS 100000

bool bench_gen_kingsisle(size_t target_bytes, size_t objects, uint8_t **data, size_t *len,
                         sv_kingsisle_types **types, char *msg, size_t msg_size);

static uint8_t *ki_data;
static size_t ki_len;
static sv_kingsisle_types *ki_types;
static bool ki_tried, ki_ok;
static char ki_msg[BENCH_MSG_MAX];

static bool ki_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!ki_tried) {
        ki_tried = true;
        double t0 = bench_now();
        ki_ok = bench_gen_kingsisle((size_t)(opts->size_mb * 1e6), KI_OBJECTS, &ki_data, &ki_len,
                                    &ki_types, ki_msg, sizeof ki_msg);
        if (ki_ok)
            printf("input: KingsIsle deep stream, %zu bytes (%.1f MB), %d objects, generated in "
                   "%.2f s\n",
                   ki_len, (double)ki_len / 1e6, KI_OBJECTS, bench_now() - t0);
    }
    if (!ki_ok) {
        snprintf(msg, msg_size, "%s", ki_msg);
        return false;
    }
    in->text = (const char *)ki_data;
    in->len = ki_len;
    return true;
}

typedef struct ki_state {
    sv_doc *doc;
    sv_value root;
    sv_buf out;
    bool raw;
} ki_state;

static ki_state st;

static sv_kingsisle_opts options(bool raw)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.flags = SV_KI_STATEFUL_FLAGS;
    o.types = raw ? NULL : ki_types;
    return o;
}

static bool decode(bench_ctx *ctx)
{
    st.doc = sv_doc_new(ctx->alloc);
    if (!st.doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    sv_kingsisle_opts o = options(st.raw);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(st.doc, (const uint8_t *)ctx->in->text, ctx->in->len, &o, &st.root,
                            &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_kingsisle_decode: %s", why);
    }
    return true;
}

/* Encodes into out, after what it holds. */
static bool encode_into(bench_ctx *ctx, sv_buf *out)
{
    sv_kingsisle_opts o = options(st.raw);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_encode(&st.root, &o, out, &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_kingsisle_encode: %s", why);
    }
    ctx->out_size = out->len;
    return true;
}

static bool encode(bench_ctx *ctx)
{
    sv_buf_init(&st.out, ctx->alloc);
    return encode_into(ctx, &st.out);
}

static size_t count_objects(const sv_value *v)
{
    size_t n = sv_kind_of(v) == SV_OBJECT;
    if (sv_kind_of(v) == SV_ARRAY)
        for (uint32_t i = 0; i < sv_len(v); i++) n += count_objects(sv_array_at(v, i));
    if (sv_kind_of(v) == SV_OBJECT)
        for (uint32_t i = 0; i < sv_len(v); i++) n += count_objects(sv_val_at(v, i));
    return n;
}

static bool verify(bench_ctx *ctx)
{
    if (!decode(ctx) || !encode(ctx)) return false;
    size_t n = st.raw ? 1 : count_objects(&st.root);
    if (!st.raw && n != KI_OBJECTS)
        return bench_fail(ctx, "decoded %zu objects, the stream has %d", n, KI_OBJECTS);
    if (st.out.len != ctx->in->len || memcmp(st.out.data, ctx->in->text, st.out.len) != 0)
        return bench_fail(ctx, "the encoded stream differs from the input");
    sv_buf_free(&st.out);
    ctx->out_size = 0;
    return true;
}

static bool decode_setup(bench_ctx *ctx)
{
    st.raw = false;
    if (!verify(ctx)) return false;
    sv_doc_free(st.doc);
    st.doc = NULL;
    return true;
}
static bool raw_setup(bench_ctx *ctx)
{
    st.raw = true;
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
    st.raw = false;
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

/* The encode through a sink, as conv writes a file: the bytes go out in
 * 1 MiB pieces and the output is never held whole. conv's sink is a file,
 * which can rewrite what it took (buf_seekable.h), so each deep size is
 * patched once known; a sink that cannot (serval-sink-plain) makes the
 * encoder find the sizes by a first pass. Timed with sinks that drop the
 * bytes; checked once with sinks that keep them. */
static sv_status drop(void *ctx, const uint8_t *data, size_t len)
{
    (void)ctx, (void)data, (void)len;
    return SV_OK;
}
static sv_status drop_patch(void *ctx, uint64_t at, const uint8_t *data, size_t len)
{
    (void)ctx, (void)at, (void)data, (void)len;
    return SV_OK;
}
static sv_status append(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}
/* A patch of the bytes append collected (a file's pwrite). */
static sv_status patch_kept(void *ctx, uint64_t at, const uint8_t *data, size_t len)
{
    sv_buf *all = ctx;
    if (at > all->len || len > all->len - at) return SV_ERR_RANGE;
    memcpy(all->data + at, data, len);
    return SV_OK;
}
static const sv_buf_seekable file_like = {append, patch_kept, NULL};
static const sv_buf_seekable dropping = {drop, drop_patch, NULL};

/* Whether the encode through a sink (seekable or not) gives the input. */
static bool sink_gives_input(bench_ctx *ctx, bool seekable)
{
    sv_buf all, piped;
    sv_buf_init(&all, NULL);
    sv_buf_init(&piped, ctx->alloc);
    sv_buf_seekable s = file_like;
    s.ctx = &all;
    if (seekable)
        sv_buf_set_seekable_sink(&piped, &s, 0);
    else
        sv_buf_set_sink(&piped, append, &all, 0);
    bool ok = encode_into(ctx, &piped) && sv_buf_flush(&piped) == SV_OK && sv_buf_ok(&all) &&
              all.len == ctx->in->len && memcmp(all.data, ctx->in->text, all.len) == 0;
    sv_buf_free(&piped);
    sv_buf_free(&all);
    if (!ok)
        return bench_fail(ctx, "the encoding through a %s sink differs from the input",
                          seekable ? "seekable" : "plain");
    return true;
}

static sv_buf sunk;
static bool sink_setup(bench_ctx *ctx)
{
    if (!encode_setup(ctx) || !sink_gives_input(ctx, true)) return false;
    sv_buf_init(&sunk, ctx->alloc);
    sv_buf_set_seekable_sink(&sunk, &dropping, 0);
    return true;
}
static bool plain_sink_setup(bench_ctx *ctx)
{
    if (!encode_setup(ctx) || !sink_gives_input(ctx, false)) return false;
    sv_buf_init(&sunk, ctx->alloc);
    sv_buf_set_sink(&sunk, drop, NULL, 0);
    return true;
}
static bool sink_step(bench_ctx *ctx)
{
    if (!encode_into(ctx, &sunk) || sv_buf_flush(&sunk) != SV_OK)
        return bench_fail(ctx, "the encode into a sink failed");
    ctx->out_size = (size_t)sunk.flushed;
    sunk.flushed = 0;
    return true;
}
static const bench_impl serval_decode = {"serval", BENCH_MEM_ALLOC, decode_setup, decode_step,
                                         decode_after};
static const bench_impl serval_reused = {"serval-reused-out", BENCH_MEM_ALLOC, reused_setup,
                                         reused_step, NULL};
static const bench_impl serval_sink = {"serval", BENCH_MEM_ALLOC, sink_setup, sink_step, NULL};
static const bench_impl serval_plain_sink = {"serval-sink-plain", BENCH_MEM_ALLOC, plain_sink_setup,
                                             sink_step, NULL};
static const bench_impl serval_raw = {"serval", BENCH_MEM_ALLOC, raw_setup, decode_step,
                                      decode_after};
static const bench_impl serval_fresh = {"serval-fresh-out", BENCH_MEM_ALLOC, encode_setup,
                                        encode_step, encode_after};

const bench_workload bench_workloads_kingsisle[] = {
    {"kingsisle.decode",
     "deep stream -> tree with the type list (sv_kingsisle_decode vs memcpy of the bytes)",
     ki_input,
     {&serval_decode, &bench_memcpy_impl, NULL}},
    {"kingsisle.encode",
     "tree -> deep stream through a 1 MiB sink that patches, as conv -o writes "
     "(sv_kingsisle_encode vs memcpy of the bytes)",
     ki_input,
     {&serval_sink, &bench_memcpy_impl, &serval_fresh, &serval_reused, &serval_plain_sink, NULL}},
    {"kingsisle.decode-raw",
     "deep stream -> tree without a type list: hashes and raw bits (vs memcpy)",
     ki_input,
     {&serval_raw, &bench_memcpy_impl, NULL}},
    {NULL, NULL, NULL, {NULL}},
};
