/* serval-bench: the Godot workloads (Godot 3 Variant binary, the bytes of
 * var2bytes), with Godot 3.2.3 itself as the peer.
 *
 * godot.dicts.decode / godot.dicts.encode   mixed_dicts: an Array of 200,000
 *     Dictionaries {"id", "name", "pos" (Vector3), "hp" (float), "tags"}
 * godot.vec3.decode / godot.vec3.encode     packed_vec3: a PoolVector3Array
 *     of 4,000,000 elements (48 MB)
 * (the data: bench/gen_godot.c and, inside the engine, bench/godot/bench.gd).
 *
 * serval: sv_godot_decode (godot3 profile) into a fresh document
 * ("serval-reuse" for godot.dicts.decode: as the command decodes, into one
 * document reset between steps, sv_doc_reset, with borrow_input), and
 * sv_godot_encode of that tree into a fresh buffer. Setup checks that the
 * decoded tree encodes back to the input bytes.
 *
 * godot3.2.3: the engine's own var2bytes / bytes2var. Its setup runs
 * godot3-server once on bench/godot/bench.gd, which builds the same data,
 * writes var2bytes of it (which must be the input bytes, byte for byte,
 * before any time is trusted) and times every round itself with
 * OS.get_ticks_usec(), so engine start-up and data building are excluded;
 * each harness step then reports the next engine round (bench_ctx's
 * self_seconds). The engine's rounds run back to back in that one process,
 * not interleaved with serval's, and its memory column shows only the
 * harness child (the engine is another process). Without godot3-server
 * the peer fails with a message and the ratios say n/a. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <serval/godot.h>
#include <serval/value.h>

#include "gen_godot.h"
#include "harness.h"
#include "workloads.h"

#ifndef SERVAL_BENCH_GODOT_DIR
#define SERVAL_BENCH_GODOT_DIR "bench/godot"
#endif

/* ---- inputs: serval's godot3 encoding of the generated trees ---- */

typedef struct godot_input {
    bool tried, ok;
    uint8_t *bytes;
    size_t len;
    char msg[BENCH_MSG_MAX];
} godot_input;

static godot_input vec3_in, dicts_in;
static int engine_runs = 7; /* the harness's --runs, copied before the fork */

static bool make_input(godot_input *gi, bool vec3, const bench_opts *opts, bench_input *in,
                       char *msg, size_t msg_size)
{
    engine_runs = opts->runs;
    if (!gi->tried) {
        gi->tried = true;
        double t0 = bench_now();
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v =
            doc ? (vec3 ? bench_gen_godot_vec3(doc) : bench_gen_godot_dicts(doc)) : sv_null();
        sv_buf b;
        sv_buf_init(&b, NULL);
        sv_godot_opts o;
        sv_godot_opts_init(&o, SV_GODOT3);
        sv_error err;
        sv_error_clear(&err);
        if (!doc || sv_doc_status(doc) != SV_OK) {
            snprintf(gi->msg, sizeof gi->msg, "generating the data: out of memory");
        } else if (sv_godot_encode(&v, &o, &b, &err) != SV_OK) {
            snprintf(gi->msg, sizeof gi->msg, "encoding the data: %s", err.message);
        } else {
            sv_buf_putc(&b, 0); /* bench_input wants a NUL after the bytes */
            gi->len = b.len - 1;
            gi->bytes = b.data;
            gi->ok = true;
            printf("input: %s, Godot 3 var2bytes, %zu bytes (%.1f MB), generated in %.2f s\n",
                   vec3 ? "packed_vec3 (PoolVector3Array of 4,000,000)"
                        : "mixed_dicts (Array of 200,000 Dictionaries)",
                   gi->len, (double)gi->len / 1e6, bench_now() - t0);
        }
        if (!gi->ok) sv_buf_free(&b);
        sv_doc_free(doc);
    }
    if (!gi->ok) {
        snprintf(msg, msg_size, "%s", gi->msg);
        return false;
    }
    in->text = (const char *)gi->bytes;
    in->len = gi->len;
    return true;
}

static bool vec3_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    return make_input(&vec3_in, true, opts, in, msg, msg_size);
}

static bool dicts_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    return make_input(&dicts_in, false, opts, in, msg, msg_size);
}

/* ---- serval ---- */

static sv_godot_opts godot3_opts(void)
{
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    return o;
}

/* Decodes the input into doc; borrow: the tree may point into the input,
 * which outlives it (borrow_input, as the command decodes). */
static bool serval_decode_to(bench_ctx *ctx, sv_doc *doc, bool borrow, sv_value *v)
{
    sv_godot_opts o = godot3_opts();
    o.borrow_input = borrow;
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_decode(doc, (const uint8_t *)ctx->in->text, ctx->in->len, &o, v, NULL, &err) !=
        SV_OK)
        return bench_fail(ctx, "sv_godot_decode: %s at byte %llu", err.message,
                          (unsigned long long)err.byte_offset);
    return true;
}

static bool serval_decode_into(bench_ctx *ctx, sv_doc **doc, sv_value *v)
{
    *doc = sv_doc_new(ctx->alloc);
    if (!*doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    return serval_decode_to(ctx, *doc, false, v);
}

typedef struct serval_state {
    sv_doc *doc;
    sv_value tree;
    sv_buf out;
} serval_state;

static serval_state sst;

static bool serval_encode_into(bench_ctx *ctx, sv_buf *out)
{
    sv_buf_init(out, ctx->alloc);
    sv_godot_opts o = godot3_opts();
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_encode(&sst.tree, &o, out, &err) != SV_OK)
        return bench_fail(ctx, "sv_godot_encode: %s", err.message);
    ctx->out_size = out->len;
    return true;
}

/* Decode, encode, compare with the input: the tree must give the same bytes. */
static bool serval_setup_common(bench_ctx *ctx)
{
    if (!serval_decode_into(ctx, &sst.doc, &sst.tree)) return false;
    sv_buf b;
    if (!serval_encode_into(ctx, &b)) return false;
    bool same = b.len == ctx->in->len && memcmp(b.data, ctx->in->text, b.len) == 0;
    sv_buf_free(&b);
    ctx->out_size = 0;
    return same ? true : bench_fail(ctx, "decode then encode does not give the input back");
}

static bool serval_decode_setup(bench_ctx *ctx)
{
    if (!serval_setup_common(ctx)) return false;
    sv_doc_free(sst.doc);
    sst.doc = NULL;
    return true;
}

static bool serval_decode_step(bench_ctx *ctx)
{
    sv_doc *doc = NULL;
    sv_value v;
    bool ok = serval_decode_into(ctx, &doc, &v);
    ctx->made = doc;
    return ok;
}

static void serval_decode_after(bench_ctx *ctx)
{
    sv_doc_free(ctx->made);
}

/* "serval-reuse": one document for every step, reset after each with all
 * its chunks kept (sv_doc_reset), the tree borrowing from the input, as a
 * program decoding input after input does (the engine's rounds, too, run in one process whose allocator keeps
 * what the last round freed). Setup verifies as "serval" does, then
 * decodes once into the document (untimed) for the first step's chunks. */
static sv_doc *reuse_doc;

static bool serval_reuse_setup(bench_ctx *ctx)
{
    if (!serval_decode_setup(ctx)) return false;
    reuse_doc = sv_doc_new(ctx->alloc);
    if (!reuse_doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    sv_doc_set_reset_keep(reuse_doc, UINT64_MAX);
    sv_value v;
    if (!serval_decode_to(ctx, reuse_doc, true, &v)) return false;
    sv_doc_reset(reuse_doc);
    return true;
}

static bool serval_reuse_step(bench_ctx *ctx)
{
    sv_value v;
    return serval_decode_to(ctx, reuse_doc, true, &v);
}

static void serval_reuse_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_doc_reset(reuse_doc);
}

static bool serval_encode_step(bench_ctx *ctx)
{
    return serval_encode_into(ctx, &sst.out);
}

static void serval_encode_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_buf_free(&sst.out);
}

static const bench_impl serval_decode = {"serval", BENCH_MEM_ALLOC, serval_decode_setup,
                                         serval_decode_step, serval_decode_after};
static const bench_impl serval_reuse = {"serval-reuse", BENCH_MEM_ALLOC, serval_reuse_setup,
                                        serval_reuse_step, serval_reuse_after};
static const bench_impl serval_encode = {"serval", BENCH_MEM_ALLOC, serval_setup_common,
                                         serval_encode_step, serval_encode_after};

/* ---- Godot 3.2.3 ---- */

typedef struct engine_state {
    double *seconds; /* per round: the encode or the decode time */
    int count, next;
} engine_state;

static engine_state est;

/* The godot3-server to run: $SERVAL_GODOT3, else godot3-server on PATH. */
static const char *engine_binary(void)
{
    const char *e = getenv("SERVAL_GODOT3");
    return e && *e ? e : "godot3-server";
}

static bool engine_found(void)
{
    const char *bin = engine_binary();
    if (strchr(bin, '/')) return access(bin, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path) return false;
    char dir[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        if (n && n < sizeof dir - 64) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, bin);
            if (access(dir, X_OK) == 0) return true;
        }
        p += n;
        if (*p == ':') p++;
    }
    return false;
}

static bool same_file_bytes(const char *path, const bench_input *in)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool same = true;
    uint8_t buf[65536];
    size_t off = 0, n;
    while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (off + n > in->len || memcmp(buf, in->text + off, n) != 0) same = false;
        off += n;
    }
    fclose(f);
    return same && off == in->len;
}

/* Runs the engine once: engine_runs rounds; keeps the encode or decode times. */
static bool engine_setup(bench_ctx *ctx, const char *workload, bool decode)
{
    ctx->external = true; /* the engine works in its own process */
    ctx->unavailable = !engine_found();
    if (ctx->unavailable)
        return bench_fail(ctx,
                          "%s not found (Debian package godot3-server); the engine peer "
                          "is skipped",
                          engine_binary());
    char dir[] = "/tmp/serval-bench-godot.XXXXXX";
    if (!mkdtemp(dir)) return bench_fail(ctx, "mkdtemp failed");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && HOME='%s' XDG_DATA_HOME='%s' XDG_CONFIG_HOME='%s' LANG=en_US.UTF-8 "
             "LC_ALL=en_US.UTF-8 SERVAL_GODOT_WORKLOAD=%s SERVAL_GODOT_RUNS=%d "
             "SERVAL_GODOT_OUT='%s/out.bin' '%s' -s '%s/bench.gd' 2>/dev/null",
             dir, dir, dir, dir, workload, engine_runs, dir, engine_binary(),
             SERVAL_BENCH_GODOT_DIR);
    FILE *p = popen(cmd, "r");
    if (!p) return bench_fail(ctx, "cannot run %s", engine_binary());
    est.seconds = calloc((size_t)engine_runs + 1, sizeof *est.seconds);
    est.count = est.next = 0;
    char line[256];
    bool error = false;
    while (fgets(line, sizeof line, p)) {
        long enc_us = 0, dec_us = 0;
        if (sscanf(line, "run %ld %ld", &enc_us, &dec_us) == 2 && est.count < engine_runs)
            est.seconds[est.count++] = (double)(decode ? dec_us : enc_us) * 1e-6;
        else if (!strncmp(line, "error", 5))
            error = true;
    }
    int rc = pclose(p);
    char out[600];
    snprintf(out, sizeof out, "%s/out.bin", dir);
    bool same = same_file_bytes(out, ctx->in);
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    if (system(rm) != 0) { /* nothing to do about a leftover temp dir */
    }
    if (rc != 0 || error || est.count != engine_runs)
        return bench_fail(ctx, "the engine run failed (exit %d, %d of %d rounds)", rc, est.count,
                          engine_runs);
    if (!same)
        return bench_fail(ctx, "Godot's var2bytes differs from serval's godot3 encoding of "
                               "the same data: timings not trusted");
    return true;
}

static bool engine_step(bench_ctx *ctx)
{
    ctx->self_seconds = est.seconds[est.next % (est.count ? est.count : 1)];
    est.next++;
    return ctx->self_seconds > 0 ? true : bench_fail(ctx, "no engine time");
}

static bool engine_vec3_decode_setup(bench_ctx *ctx)
{
    return engine_setup(ctx, "packed_vec3", true);
}
static bool engine_vec3_encode_setup(bench_ctx *ctx)
{
    return engine_setup(ctx, "packed_vec3", false);
}
static bool engine_dicts_decode_setup(bench_ctx *ctx)
{
    return engine_setup(ctx, "mixed_dicts", true);
}
static bool engine_dicts_encode_setup(bench_ctx *ctx)
{
    return engine_setup(ctx, "mixed_dicts", false);
}

static const bench_impl engine_vec3_decode = {"godot3.2.3", BENCH_MEM_RSS, engine_vec3_decode_setup,
                                              engine_step, NULL};
static const bench_impl engine_vec3_encode = {"godot3.2.3", BENCH_MEM_RSS, engine_vec3_encode_setup,
                                              engine_step, NULL};
static const bench_impl engine_dicts_decode = {"godot3.2.3", BENCH_MEM_RSS,
                                               engine_dicts_decode_setup, engine_step, NULL};
static const bench_impl engine_dicts_encode = {"godot3.2.3", BENCH_MEM_RSS,
                                               engine_dicts_encode_setup, engine_step, NULL};

const bench_workload bench_workloads_godot[] = {
    {"godot.dicts.decode",
     "mixed_dicts bytes -> tree (sv_godot_decode vs Godot 3.2.3 bytes2var)",
     dicts_input,
     {&serval_decode, &engine_dicts_decode, &serval_reuse, NULL}},
    {"godot.dicts.encode",
     "mixed_dicts tree -> bytes (sv_godot_encode vs Godot 3.2.3 var2bytes)",
     dicts_input,
     {&serval_encode, &engine_dicts_encode, NULL}},
    {"godot.vec3.decode",
     "packed_vec3 bytes -> tree (sv_godot_decode vs Godot 3.2.3 bytes2var)",
     vec3_input,
     {&serval_decode, &engine_vec3_decode, NULL}},
    {"godot.vec3.encode",
     "packed_vec3 tree -> bytes (sv_godot_encode vs Godot 3.2.3 var2bytes)",
     vec3_input,
     {&serval_encode, &engine_vec3_encode, NULL}},
    {NULL, NULL, NULL, {NULL}},
};
