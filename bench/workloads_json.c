/* serval-bench: the JSON workloads.
 *
 * json.parse  text -> tree: sv_json_decode, RapidJSON Document::Parse,
 *             simdjson dom::parser::parse, jansson json_loadb, all on the same
 *             bytes (the generated document; simdjson's copy is padded).
 *             Timed: making the document and parsing; freeing the tree is not.
 * json.write  tree -> text: sv_json_encode (compact), RapidJSON
 *             Writer<StringBuffer> through Accept, jansson json_dumps
 *             (JSON_COMPACT); each writes its own tree, parsed from the same
 *             text before the timer starts. Timed: writing into a fresh
 *             buffer that grows as needed; freeing it is not. Both serval
 *             and RapidJSON grow theirs by realloc, so both pay the fresh
 *             output's first page touches (about 12,200 faults for 50 MB).
 *             serval-kept and rapidjson-kept write into a buffer kept from
 *             setup (sv_buf with len = 0; StringBuffer::Clear, which keeps
 *             its memory): no fresh pages, the writers alone. The target
 *             reads these two rows (targets.c, README.md).
 *
 * Before any timing, setup checks the answers: serval's parse succeeds and
 * writes back the identical bytes (the text is serval's canonical compact
 * output), and every peer parses the text without error into an array of
 * the same number of entities. */
#include <stdio.h>
#include <string.h>

#include <serval/json.h>
#include <serval/value.h>

#include "gen_json.h"
#include "harness.h"
#include "peers/peers.h"
#include "workloads.h"

/* ---- the input: generated once in the parent, shared by both workloads ---- */

static bench_json_doc json_doc;
static bool json_doc_tried, json_doc_ok;
static char json_doc_msg[BENCH_MSG_MAX];

static bool json_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!json_doc_tried) {
        json_doc_tried = true;
        json_doc_ok = bench_gen_json((size_t)(opts->size_mb * 1e6), &json_doc, json_doc_msg,
                                     sizeof json_doc_msg);
        if (json_doc_ok)
            printf("input: typed JSON, %zu bytes (%.1f MB), %zu Entity objects, %zu $f32s "
                   "arrays, seed 0x%016llx, generated in %.2f s\n",
                   json_doc.len, (double)json_doc.len / 1e6, json_doc.entities,
                   json_doc.packed_arrays, (unsigned long long)BENCH_JSON_SEED, json_doc.seconds);
    }
    if (!json_doc_ok) {
        snprintf(msg, msg_size, "%s", json_doc_msg);
        return false;
    }
    in->text = json_doc.text;
    in->len = json_doc.len;
    return true;
}

static bool check_items(bench_ctx *ctx, const char *who, size_t items)
{
    if (items == json_doc.entities) return true;
    return bench_fail(ctx, "%s read a top-level array of %zu items, expected %zu", who, items,
                      json_doc.entities);
}

/* ---- serval ------------------------------------------------------------------ */

typedef struct serval_tree {
    sv_doc *doc;
    sv_value root;
    sv_buf out;
} serval_tree;

static serval_tree serval_state; /* one per child */

static bool serval_read(bench_ctx *ctx, serval_tree *t)
{
    t->doc = sv_doc_new(ctx->alloc);
    if (!t->doc) return bench_fail(ctx, "sv_doc_new: out of memory");
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_decode(t->doc, ctx->in->text, ctx->in->len, NULL, &t->root, &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_json_decode: %s", why);
    }
    return true;
}

static bool serval_write(bench_ctx *ctx, serval_tree *t)
{
    sv_buf_init(&t->out, ctx->alloc);
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_encode(&t->root, NULL, &t->out, &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_json_encode: %s", why);
    }
    ctx->out_size = t->out.len;
    return true;
}

/* Compares serval's output with the input; names the first differing byte. */
static bool check_same_bytes(bench_ctx *ctx, const sv_buf *out)
{
    const char *a = ctx->in->text;
    const char *b = (const char *)out->data;
    size_t n = out->len < ctx->in->len ? out->len : ctx->in->len;
    size_t i = 0;
    while (i < n && a[i] == b[i])
        i++;
    if (i == ctx->in->len && i == out->len) return true;
    size_t from = i > 20 ? i - 20 : 0;
    int show_a = (int)((ctx->in->len - from) < 40 ? ctx->in->len - from : 40);
    int show_b = (int)((out->len - from) < 40 ? out->len - from : 40);
    return bench_fail(ctx,
                      "re-written text differs from the input at byte %zu (%zu vs %zu bytes): "
                      "input \"%.*s\" vs output \"%.*s\"",
                      i, ctx->in->len, out->len, show_a, a + from, show_b, b + from);
}

/* Parse, write back, compare: the text must be serval's own canonical form. */
static bool serval_verify(bench_ctx *ctx, serval_tree *t)
{
    if (!serval_read(ctx, t) || !serval_write(ctx, t)) return false;
    if (!check_same_bytes(ctx, &t->out)) return false;
    if (sv_kind_of(&t->root) != SV_ARRAY) return bench_fail(ctx, "the root is not an array");
    if (!check_items(ctx, "serval", sv_len(&t->root))) return false;
    sv_buf_free(&t->out);
    ctx->out_size = 0;
    return true;
}

static bool serval_parse_setup(bench_ctx *ctx)
{
    serval_tree *t = &serval_state;
    if (!serval_verify(ctx, t)) return false;
    sv_doc_free(t->doc);
    t->doc = NULL;
    return true;
}

static bool serval_parse_step(bench_ctx *ctx)
{
    bool ok = serval_read(ctx, &serval_state);
    ctx->made = serval_state.doc;
    return ok;
}

static void serval_parse_after(bench_ctx *ctx)
{
    sv_doc_free(ctx->made);
    serval_state.doc = NULL;
}

/* The tree stays for the timed writes. */
static bool serval_write_setup(bench_ctx *ctx)
{
    return serval_verify(ctx, &serval_state);
}

static bool serval_write_step(bench_ctx *ctx)
{
    return serval_write(ctx, &serval_state);
}

static void serval_write_after(bench_ctx *ctx)
{
    sv_buf_free(&serval_state.out);
}

/* ---- serval into a kept buffer ---------------------------------------------------- */

static sv_buf serval_kept_out; /* one per child, written by setup and kept */

static bool serval_kept_step(bench_ctx *ctx)
{
    serval_kept_out.len = 0;
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_encode(&serval_state.root, NULL, &serval_kept_out, &err) != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_json_encode: %s", why);
    }
    ctx->out_size = serval_kept_out.len;
    return true;
}

/* The tree, and the buffer written once (its pages touched) and checked. */
static bool serval_kept_setup(bench_ctx *ctx)
{
    if (!serval_verify(ctx, &serval_state)) return false;
    sv_buf_init(&serval_kept_out, ctx->alloc);
    return serval_kept_step(ctx) && check_same_bytes(ctx, &serval_kept_out);
}

static const bench_impl serval_parse = {"serval", BENCH_MEM_ALLOC, serval_parse_setup,
                                        serval_parse_step, serval_parse_after};
static const bench_impl serval_write_impl = {"serval", BENCH_MEM_ALLOC, serval_write_setup,
                                             serval_write_step, serval_write_after};
static const bench_impl serval_kept_impl = {"serval-kept", BENCH_MEM_ALLOC, serval_kept_setup,
                                            serval_kept_step, NULL};

/* ---- RapidJSON ------------------------------------------------------------------- */

#ifdef SERVAL_BENCH_RAPIDJSON
static bool rj_parse_once(bench_ctx *ctx, void **doc)
{
    size_t items = 0;
    *doc = bench_rj_parse(ctx->in->text, ctx->in->len, &items, ctx->msg, sizeof ctx->msg);
    return *doc != NULL && check_items(ctx, "RapidJSON", items);
}

static bool rj_parse_setup(bench_ctx *ctx)
{
    /* RapidJSON reads up to the NUL: there must be none before the end. */
    if (memchr(ctx->in->text, '\0', ctx->in->len))
        return bench_fail(ctx, "the text holds a NUL byte; RapidJSON would stop there");
    void *doc = NULL;
    bool ok = rj_parse_once(ctx, &doc);
    if (doc) bench_rj_free(doc);
    return ok;
}

static bool rj_parse_step(bench_ctx *ctx)
{
    size_t items = 0;
    ctx->made = bench_rj_parse(ctx->in->text, ctx->in->len, &items, ctx->msg, sizeof ctx->msg);
    return ctx->made != NULL;
}

static void rj_parse_after(bench_ctx *ctx)
{
    bench_rj_free(ctx->made);
}

static bool rj_write_step(bench_ctx *ctx)
{
    size_t size = 0;
    ctx->made = bench_rj_write(ctx->state, &size);
    ctx->out_size = size;
    return ctx->made ? true : bench_fail(ctx, "Writer failed");
}

static void rj_write_after(bench_ctx *ctx)
{
    bench_rj_free_text(ctx->made);
}

static bool rj_write_setup(bench_ctx *ctx)
{
    if (!rj_parse_setup(ctx) || !rj_parse_once(ctx, &ctx->state)) return false;
    if (!rj_write_step(ctx)) return false; /* warm-up, and it must work */
    rj_write_after(ctx);
    return true;
}

/* ctx->state is the document; the StringBuffer is kept from setup. */
static void *rj_kept_text;

static bool rj_kept_step(bench_ctx *ctx)
{
    size_t size = 0;
    if (!bench_rj_write_into(ctx->state, rj_kept_text, &size))
        return bench_fail(ctx, "Writer failed");
    ctx->out_size = size;
    return true;
}

static bool rj_kept_setup(bench_ctx *ctx)
{
    if (!rj_parse_setup(ctx) || !rj_parse_once(ctx, &ctx->state)) return false;
    rj_kept_text = bench_rj_text_new();
    if (!rj_kept_text) return bench_fail(ctx, "out of memory");
    return rj_kept_step(ctx); /* warm-up: the buffer's pages touched, and it must work */
}

static const bench_impl rj_parse = {"rapidjson", BENCH_MEM_RSS, rj_parse_setup, rj_parse_step,
                                    rj_parse_after};
static const bench_impl rj_write = {"rapidjson", BENCH_MEM_RSS, rj_write_setup, rj_write_step,
                                    rj_write_after};
static const bench_impl rj_kept = {"rapidjson-kept", BENCH_MEM_RSS, rj_kept_setup, rj_kept_step,
                                   NULL};
#endif

/* ---- simdjson (parse only: its DOM has no writer of its own) ---------------------- */

#ifdef SERVAL_BENCH_SIMDJSON
/* ctx->state is the padded copy of the text, made once per child. */
static bool sj_parse_setup(bench_ctx *ctx)
{
    ctx->state = bench_sj_pad(ctx->in->text, ctx->in->len);
    if (!ctx->state) return bench_fail(ctx, "out of memory");
    size_t items = 0;
    void *doc = bench_sj_parse(ctx->state, &items, ctx->msg, sizeof ctx->msg);
    if (!doc) return false;
    bench_sj_free(doc);
    return check_items(ctx, "simdjson", items);
}

static bool sj_parse_step(bench_ctx *ctx)
{
    size_t items = 0;
    ctx->made = bench_sj_parse(ctx->state, &items, ctx->msg, sizeof ctx->msg);
    return ctx->made != NULL;
}

static void sj_parse_after(bench_ctx *ctx)
{
    bench_sj_free(ctx->made);
}

static const bench_impl sj_parse = {"simdjson", BENCH_MEM_RSS, sj_parse_setup, sj_parse_step,
                                    sj_parse_after};
#endif

/* ---- jansson ------------------------------------------------------------------------ */

#ifdef SERVAL_BENCH_JANSSON
static bool jansson_parse_once(bench_ctx *ctx, void **doc)
{
    size_t items = 0;
    *doc = bench_jansson_parse(ctx->in->text, ctx->in->len, &items, ctx->msg, sizeof ctx->msg);
    return *doc != NULL && check_items(ctx, "jansson", items);
}

static bool jansson_parse_setup(bench_ctx *ctx)
{
    void *doc = NULL;
    bool ok = jansson_parse_once(ctx, &doc);
    if (doc) bench_jansson_free(doc);
    return ok;
}

static bool jansson_parse_step(bench_ctx *ctx)
{
    size_t items = 0;
    ctx->made = bench_jansson_parse(ctx->in->text, ctx->in->len, &items, ctx->msg, sizeof ctx->msg);
    return ctx->made != NULL;
}

static void jansson_parse_after(bench_ctx *ctx)
{
    bench_jansson_free(ctx->made);
}

static bool jansson_write_step(bench_ctx *ctx)
{
    ctx->made = bench_jansson_write(ctx->state);
    return ctx->made ? true : bench_fail(ctx, "json_dumps failed");
}

/* The length is taken here, outside the timer: json_dumps does not return it. */
static void jansson_write_after(bench_ctx *ctx)
{
    ctx->out_size = strlen(ctx->made);
    bench_jansson_free_text(ctx->made);
}

static bool jansson_write_setup(bench_ctx *ctx)
{
    if (!jansson_parse_once(ctx, &ctx->state)) return false;
    if (!jansson_write_step(ctx)) return false; /* warm-up, and it must work */
    jansson_write_after(ctx);
    return true;
}

static const bench_impl jansson_parse = {"jansson", BENCH_MEM_RSS, jansson_parse_setup,
                                         jansson_parse_step, jansson_parse_after};
static const bench_impl jansson_write = {"jansson", BENCH_MEM_RSS, jansson_write_setup,
                                         jansson_write_step, jansson_write_after};
#endif

/* ---- the table ------------------------------------------------------------------------ */

const bench_workload bench_workloads_json[] = {
    {"json.parse",
     "typed JSON text -> tree (sv_json_decode vs RapidJSON Parse vs simdjson DOM parse vs "
     "json_loadb)",
     json_input,
     {&serval_parse,
#ifdef SERVAL_BENCH_RAPIDJSON
      &rj_parse,
#endif
#ifdef SERVAL_BENCH_SIMDJSON
      &sj_parse,
#endif
#ifdef SERVAL_BENCH_JANSSON
      &jansson_parse,
#endif
      NULL}},
    {"json.write",
     "tree -> compact text (sv_json_encode vs RapidJSON Writer vs json_dumps; fresh and kept "
     "output buffers)",
     json_input,
     {&serval_write_impl,
#ifdef SERVAL_BENCH_RAPIDJSON
      &rj_write,
#endif
#ifdef SERVAL_BENCH_JANSSON
      &jansson_write,
#endif
      &serval_kept_impl,
#ifdef SERVAL_BENCH_RAPIDJSON
      &rj_kept,
#endif
      NULL}},
    {NULL, NULL, NULL, {NULL}}};
