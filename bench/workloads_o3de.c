/* serval-bench: the O3DE JSON serialization workloads.
 *
 * o3de.load   text -> C structs: sv_o3de_read then sv_o3de_load_struct of a
 *             generated ~50 MB scene of nested registered structs (entities
 *             holding components, strings, vectors, quaternions, colours,
 *             enums, integer sequences), with every O3DE load rule applied
 *             (field names matched case-insensitively, conversions, default
 *             instances, results combined). Timed: reading the text and
 *             filling the structs; freeing is not.
 * o3de.store  C structs -> text: sv_o3de_store_struct_text (defaults
 *             omitted against the default instance, compact, as RapidJSON's
 *             Writer prints). Timed: into a fresh buffer (the "serval" row,
 *             the one the target compares: the "rapidjson" row writes into
 *             a new StringBuffer every run, so both pay the fresh output
 *             pages), and into a buffer kept from one run to the next
 *             ("serval-reused-out", beside "rapidjson-kept", one
 *             StringBuffer kept and cleared: the pair without the fresh
 *             pages).
 *
 * The peer is RapidJSON, the library O3DE itself uses, on the same text:
 * Document::Parse alone for o3de.load (no rules, no structs) and
 * Writer<StringBuffer> of the parsed document for o3de.store: it walks a
 * DOM whose keys are already strings and whose numbers are already
 * doubles, with no defaults to compare and no structs to walk. serval does
 * strictly more work in both.
 *
 * Before timing, setup checks the answers: the load reports Success and
 * storing the loaded structs gives back the input text byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/o3de.h>
#include <serval/schema.h>

#include "harness.h"
#include "peers/peers.h"
#include "workloads.h"

/* ---- the structs and their schema ---- */

typedef struct BenchComponent {
    uint32_t kind; /* enum BenchKind */
    char *name;
    float position[3];
    float rotation[4];
    float scale;
    bool enabled;
    int32_t *tags;
    size_t n_tags;
} BenchComponent;

typedef struct BenchEntity {
    uint64_t id;
    char *name;
    float color[4];
    BenchComponent *components;
    size_t n_components;
} BenchEntity;

typedef struct BenchScene {
    char *title;
    uint32_t version;
    BenchEntity *entities;
    size_t n_entities;
} BenchScene;

#define COMPONENT_FIELDS(X)                                                                        \
    X(BenchComponent, PLAIN, kind, _, "BenchKind")                                                 \
    X(BenchComponent, PLAIN, name, _, "string")                                                    \
    X(BenchComponent, PLAIN, position, _, "vector3")                                               \
    X(BenchComponent, PLAIN, rotation, _, "quaternion")                                            \
    X(BenchComponent, PLAIN, scale, _, "f32")                                                      \
    X(BenchComponent, PLAIN, enabled, _, "bool")                                                   \
    X(BenchComponent, COUNTED, tags, n_tags, "vector<i32>")
#define ENTITY_FIELDS(X)                                                                           \
    X(BenchEntity, PLAIN, id, _, "u64")                                                            \
    X(BenchEntity, PLAIN, name, _, "string")                                                       \
    X(BenchEntity, PLAIN, color, _, "color")                                                       \
    X(BenchEntity, COUNTED, components, n_components, "vector<BenchComponent>")
#define SCENE_FIELDS(X)                                                                            \
    X(BenchScene, PLAIN, title, _, "string")                                                       \
    X(BenchScene, PLAIN, version, _, "u32")                                                        \
    X(BenchScene, COUNTED, entities, n_entities, "vector<BenchEntity>")

static const sv_cfield component_fields[] = {COMPONENT_FIELDS(SV_CFIELD_X)};
static const sv_cfield entity_fields[] = {ENTITY_FIELDS(SV_CFIELD_X)};
static const sv_cfield scene_fields[] = {SCENE_FIELDS(SV_CFIELD_X)};
static const sv_cclass component_class = SV_CCLASS(BenchComponent, NULL, component_fields);
static const sv_cclass entity_class = SV_CCLASS(BenchEntity, NULL, entity_fields);
static const sv_cclass scene_class = SV_CCLASS(BenchScene, NULL, scene_fields);

static const char *const kind_names[] = {"Mesh", "Light", "Camera", "Script", "Collider"};

static sv_schema *make_schema(char *msg, size_t msg_size)
{
    sv_error err;
    sv_error_clear(&err);
    sv_schema *s = sv_schema_new(NULL);
    if (!s) {
        snprintf(msg, msg_size, "out of memory");
        return NULL;
    }
    sv_schema_enum *e = NULL;
    sv_status st = sv_schema_add_enum(s, "BenchKind", SV_PRIM_U32, false, &e, &err);
    for (uint64_t i = 0; st == SV_OK && i < 5; i++)
        st = sv_schema_enum_add(s, e, kind_names[i], i, &err);
    if (st == SV_OK) st = sv_schema_bind(s, &component_class, &err);
    if (st == SV_OK) st = sv_schema_bind(s, &entity_class, &err);
    if (st == SV_OK) st = sv_schema_bind(s, &scene_class, &err);
    if (st == SV_OK) st = sv_schema_finalize(s, &err);
    if (st != SV_OK) {
        sv_error_format(&err, msg, msg_size);
        sv_schema_free(s);
        return NULL;
    }
    return s;
}

/* ---- the generated scene ---- */

static uint64_t rng = 0x6f33646562656e63ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
/* Floats with short and long texts alike: quarters, and arbitrary values
 * that print as 17-digit widened doubles. */
static float next_float(void)
{
    uint64_t r = next_u64();
    if (r & 1) return (float)((int64_t)(r >> 40) % 4000) * 0.25f;
    return (float)((double)(r >> 11) / 9007199254740992.0 * 200.0 - 100.0);
}

static char *dup_name(const char *prefix, uint64_t n)
{
    char tmp[64];
    int len = snprintf(tmp, sizeof tmp, "%s_%llu", prefix, (unsigned long long)n);
    char *p = malloc((size_t)len + 1);
    if (p) memcpy(p, tmp, (size_t)len + 1);
    return p;
}

static bool fill_component(BenchComponent *c, uint64_t n)
{
    memset(c, 0, sizeof *c);
    uint64_t r = next_u64();
    c->kind = (uint32_t)(r % 5); /* 0 (Mesh) is the default: omitted */
    c->name = dup_name(kind_names[c->kind], n);
    for (int i = 0; i < 3; i++) c->position[i] = next_float();
    float q[4] = {0, 0, 0, 1}; /* identity (the default) one time in four */
    if (r & 0x30) {
        for (int i = 0; i < 4; i++) q[i] = next_float() / 100.0f;
    }
    memcpy(c->rotation, q, sizeof q);
    c->scale = (r & 0x100) ? 1.0f : next_float();
    c->enabled = (r & 0x200) != 0;
    c->n_tags = (size_t)(r >> 50) % 6;
    if (c->n_tags) {
        c->tags = malloc(c->n_tags * sizeof *c->tags);
        if (!c->tags) return false;
        for (size_t i = 0; i < c->n_tags; i++) c->tags[i] = (int32_t)(next_u64() % 200000) - 1000;
    }
    return c->name != NULL;
}

static bool fill_scene(BenchScene *sc, size_t entities)
{
    memset(sc, 0, sizeof *sc);
    sc->title = dup_name("GeneratedLevel", entities);
    sc->version = 3;
    sc->entities = calloc(entities ? entities : 1, sizeof *sc->entities);
    if (!sc->title || !sc->entities) return false;
    sc->n_entities = entities;
    uint64_t comp = 0;
    for (size_t i = 0; i < entities; i++) {
        BenchEntity *e = &sc->entities[i];
        e->id = next_u64() >> 1;
        e->name = dup_name("Entity", i);
        if (!e->name) return false;
        if (i % 3) {
            for (int k = 0; k < 4; k++) e->color[k] = (float)(next_u64() % 256) / 255.0f;
        }
        e->n_components = 1 + (size_t)(next_u64() % 5);
        e->components = calloc(e->n_components, sizeof *e->components);
        if (!e->components) return false;
        for (size_t k = 0; k < e->n_components; k++)
            if (!fill_component(&e->components[k], comp++)) return false;
    }
    return true;
}

/* serval's compact O3DE text of a scene. */
static bool store_text(const sv_schema *s, const sv_schema_class *cls, const BenchScene *sc,
                       const sv_alloc *alloc, sv_buf *out, char *msg, size_t msg_size)
{
    (void)alloc;
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r = 0;
    sv_status st = sv_o3de_store_struct_text(s, cls, sc, 0, out, NULL, &r, &err);
    if (st != SV_OK) {
        sv_error_format(&err, msg, msg_size);
        return false;
    }
    if (sv_o3de_result_processing(r) != SV_O3DE_COMPLETED) {
        snprintf(msg, msg_size, "store ended with %s/%s",
                 sv_o3de_processing_name(sv_o3de_result_processing(r)),
                 sv_o3de_outcome_name(sv_o3de_result_outcome(r)));
        return false;
    }
    return true;
}

static sv_schema *schema;
static const sv_schema_class *scene_cls;
static sv_buf text;
static size_t text_entities;
static bool input_tried, input_ok;
static char input_msg[BENCH_MSG_MAX];

static bool make_input(size_t target)
{
    schema = make_schema(input_msg, sizeof input_msg);
    if (!schema) return false;
    scene_cls = sv_schema_class_by_name(schema, "BenchScene", 10);
    /* Bytes per entity from a small scene, then the scene of the target size. */
    size_t entities = 1000;
    for (int pass = 0; pass < 2; pass++) {
        BenchScene sc;
        bool ok = fill_scene(&sc, entities);
        sv_buf_free(&text);
        sv_buf_init(&text, NULL);
        ok = ok && store_text(schema, scene_cls, &sc, NULL, &text, input_msg, sizeof input_msg);
        sv_struct_free(schema, scene_cls, &sc, NULL);
        if (!ok) return false;
        text_entities = entities;
        if (pass == 0) entities = (size_t)((double)target / ((double)text.len / 1000.0)) + 1;
    }
    sv_buf_putc(&text, '\0'); /* RapidJSON's NUL */
    if (!sv_buf_ok(&text)) return false;
    text.len--;
    return true;
}

static bool o3de_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!input_tried) {
        input_tried = true;
        double t0 = bench_now();
        input_ok = make_input((size_t)(opts->size_mb * 1e6));
        if (input_ok)
            printf("input: O3DE JSON, %zu bytes (%.1f MB), a BenchScene of %zu entities, "
                   "generated in %.2f s\n",
                   text.len, (double)text.len / 1e6, text_entities, bench_now() - t0);
    }
    if (!input_ok) {
        snprintf(msg, msg_size, "%s", input_msg[0] ? input_msg : "out of memory");
        return false;
    }
    in->text = (const char *)text.data;
    in->len = text.len;
    return true;
}

/* ---- serval ---- */

typedef struct o3_state {
    BenchScene scene;
    bool loaded;
    sv_buf out;
} o3_state;

static o3_state st;

static bool load(bench_ctx *ctx)
{
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r = 0;
    memset(&st.scene, 0, sizeof st.scene);
    sv_status s = sv_o3de_load_struct_text(schema, scene_cls, ctx->in->text, ctx->in->len, &st.scene,
                                           ctx->alloc, NULL, &r, &err);
    if (s != SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "load: %s", why);
    }
    st.loaded = true;
    if (sv_o3de_result_processing(r) != SV_O3DE_COMPLETED)
        return bench_fail(ctx, "load ended with %s/%s",
                          sv_o3de_processing_name(sv_o3de_result_processing(r)),
                          sv_o3de_outcome_name(sv_o3de_result_outcome(r)));
    return true;
}

static void unload(const sv_alloc *alloc)
{
    if (st.loaded) sv_struct_free(schema, scene_cls, &st.scene, alloc);
    st.loaded = false;
}

static bool store(bench_ctx *ctx)
{
    sv_buf_init(&st.out, ctx->alloc);
    if (!store_text(schema, scene_cls, &st.scene, ctx->alloc, &st.out, ctx->msg, sizeof ctx->msg))
        return false;
    ctx->out_size = st.out.len;
    return true;
}

static bool verify(bench_ctx *ctx)
{
    if (!load(ctx)) return false;
    if (st.scene.n_entities != text_entities)
        return bench_fail(ctx, "loaded %zu entities, the text has %zu", st.scene.n_entities,
                          text_entities);
    if (!store(ctx)) return false;
    if (st.out.len != ctx->in->len || memcmp(st.out.data, ctx->in->text, st.out.len) != 0)
        return bench_fail(ctx, "storing the loaded structs does not give the input back");
    sv_buf_free(&st.out);
    ctx->out_size = 0;
    return true;
}

static bool load_setup(bench_ctx *ctx)
{
    bool ok = verify(ctx);
    unload(ctx->alloc);
    return ok;
}
static bool load_step(bench_ctx *ctx)
{
    return load(ctx);
}
static void load_after(bench_ctx *ctx)
{
    unload(ctx->alloc);
}
static bool store_setup(bench_ctx *ctx)
{
    return verify(ctx);
}
static bool store_step(bench_ctx *ctx)
{
    return store(ctx);
}
static void store_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_buf_free(&st.out);
}

/* The same store into an output buffer kept from one run to the next, as
 * the other encoders' serval-reused-out rows: its pages were touched by
 * setup's store, so no run faults them in again. */
static sv_buf reused;
static bool reused_setup(bench_ctx *ctx)
{
    if (!verify(ctx)) return false;
    sv_buf_init(&reused, ctx->alloc);
    return store_text(schema, scene_cls, &st.scene, ctx->alloc, &reused, ctx->msg,
                      sizeof ctx->msg);
}
static bool reused_step(bench_ctx *ctx)
{
    reused.len = 0;
    if (!store_text(schema, scene_cls, &st.scene, ctx->alloc, &reused, ctx->msg, sizeof ctx->msg))
        return false;
    ctx->out_size = reused.len;
    return true;
}

static const bench_impl serval_load = {"serval", BENCH_MEM_ALLOC, load_setup, load_step,
                                       load_after};
static const bench_impl serval_store = {"serval", BENCH_MEM_ALLOC, store_setup, store_step,
                                        store_after};
static const bench_impl serval_reused = {"serval-reused-out", BENCH_MEM_ALLOC, reused_setup,
                                         reused_step, NULL};

/* ---- RapidJSON: parse alone, and write of the parsed document ---- */

#ifdef SERVAL_BENCH_RAPIDJSON
static bool rj_parse_setup(bench_ctx *ctx)
{
    size_t items = 0;
    void *doc = bench_rj_parse(ctx->in->text, ctx->in->len, &items, ctx->msg, sizeof ctx->msg);
    if (doc) bench_rj_free(doc);
    return doc != NULL;
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
    if (!ctx->made) return bench_fail(ctx, "RapidJSON's Writer failed");
    return true;
}
static void rj_write_after(bench_ctx *ctx)
{
    bench_rj_free_text(ctx->made);
}
static bool rj_write_setup(bench_ctx *ctx)
{
    size_t items = 0;
    ctx->state = bench_rj_parse(ctx->in->text, ctx->in->len, &items, ctx->msg, sizeof ctx->msg);
    if (!ctx->state || !rj_write_step(ctx)) return false;
    /* the same layout and number text: RapidJSON writes the input back */
    bool same = ctx->out_size == ctx->in->len;
    rj_write_after(ctx);
    if (!same) return bench_fail(ctx, "RapidJSON wrote %zu bytes, the input has %zu",
                                 ctx->out_size, ctx->in->len);
    return true;
}
/* The same write into one StringBuffer kept from setup (Clear() keeps its
 * memory): the like of serval-reused-out, printed beside the fresh pair. */
static void *rj_kept_text;
static bool rj_kept_step(bench_ctx *ctx)
{
    size_t size = 0;
    if (!bench_rj_write_into(ctx->state, rj_kept_text, &size))
        return bench_fail(ctx, "RapidJSON's Writer failed");
    ctx->out_size = size;
    return true;
}
static bool rj_kept_setup(bench_ctx *ctx)
{
    if (!rj_write_setup(ctx)) return false;
    rj_kept_text = bench_rj_text_new();
    if (!rj_kept_text) return bench_fail(ctx, "out of memory");
    return rj_kept_step(ctx); /* warm-up: the buffer's pages touched */
}
static const bench_impl rj_parse = {"rapidjson", BENCH_MEM_RSS, rj_parse_setup, rj_parse_step,
                                    rj_parse_after};
static const bench_impl rj_write = {"rapidjson", BENCH_MEM_RSS, rj_write_setup, rj_write_step,
                                    rj_write_after};
static const bench_impl rj_kept = {"rapidjson-kept", BENCH_MEM_RSS, rj_kept_setup, rj_kept_step,
                                   NULL};
#define RJ_PARSE &rj_parse,
#define RJ_WRITE &rj_write, &rj_kept,
#else
#define RJ_PARSE
#define RJ_WRITE
#endif

const bench_workload bench_workloads_o3de[] = {
    {"o3de.load",
     "O3DE JSON -> C structs with every rule (serval) vs RapidJSON's parse alone",
     o3de_input,
     {&serval_load, RJ_PARSE NULL}},
    {"o3de.store",
     "C structs -> O3DE JSON, defaults omitted (serval) vs RapidJSON's write alone",
     o3de_input,
     {&serval_store, &serval_reused, RJ_WRITE NULL}},
    {NULL, NULL, NULL, {NULL}},
};
