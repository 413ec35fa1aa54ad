/* serval-bench: the schema workloads.
 *
 * schema.load   a generated serval schema file of 100,000 classes (and 100
 *               enums) -> a finalised schema: sv_schema_load, which reads
 *               the JSON, builds the classes, resolves names and bases,
 *               reads defaults and fills the lookup tables.
 * schema.merge  the same classes as two loaded schemas of 50,000 each ->
 *               one finalised schema (sv_schema_merge twice, then finalise).
 *
 * The peer of schema.load is the JSON reader alone on the same bytes: the
 * part of the work that is not the schema's. Classes have 6 fields of mixed
 * types, a hash and a UUID; every tenth starts a chain of bases 10 deep.
 * Setup checks the answer: 100,000 classes, found by name, hash and UUID. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/json.h>
#include <serval/schema.h>

#include "harness.h"
#include "workloads.h"

#define SCHEMA_CLASSES 100000
#define SCHEMA_ENUMS 100

static char *schema_text, *half_text[2];
static size_t schema_len, half_len[2];

static void put(char **p, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char **p, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(*p + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < *cap - *len) {
            *len += (size_t)n;
            return;
        }
        *cap *= 2;
        *p = realloc(*p, *cap);
        if (!*p) abort();
    }
}

/* Classes [from, to) as one schema file, with every enum. */
static char *generate(int from, int to, size_t *len)
{
    size_t cap = 1 << 20;
    char *p = malloc(cap);
    if (!p) abort();
    *len = 0;
    put(&p, len, &cap, "{\"serval_schema\": 1, \"enums\": [");
    for (int e = 0; e < SCHEMA_ENUMS; e++)
        put(&p, len, &cap,
            "%s{\"name\": \"Enum%d\", \"underlying\": \"u16\", \"values\": [[\"A\", 0], [\"B\", "
            "1], [\"C\", 2], [\"D\", 3]]}",
            e ? ", " : "", e);
    put(&p, len, &cap, "], \"classes\": [");
    for (int c = from; c < to; c++) {
        put(&p, len, &cap, "%s{\"name\": \"Class%06d\", \"hash\": %u, ", c > from ? ",\n" : "", c,
            (unsigned)c * 2654435761u);
        put(&p, len, &cap, "\"uuid\": \"{%08X-0000-4000-8000-%012X}\", \"version\": %d, ", c, c,
            c % 5);
        if (c % 10) put(&p, len, &cap, "\"bases\": [\"Class%06d\"], ", c - 1);
        put(&p, len, &cap,
            "\"fields\": [{\"name\": \"id%d\", \"type\": \"u32\", \"hash\": %u, \"id\": %d},"
            " {\"name\": \"speed%d\", \"type\": \"f32\", \"default\": 1.5},"
            " {\"name\": \"name%d\", \"type\": \"string\", \"flags\": 7},"
            " {\"name\": \"tags%d\", \"type\": \"vector<string>\"},"
            " {\"name\": \"stats%d\", \"type\": \"map<string,i32>\"},"
            " {\"name\": \"kind%d\", \"type\": \"Enum%d\", \"default\": \"C\"}]}",
            c % 10, (unsigned)c, c % 10, c % 10, c % 10, c % 10, c % 10, c % 10, c % SCHEMA_ENUMS);
    }
    put(&p, len, &cap, "]}\n");
    return p;
}

static bool schema_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    (void)opts, (void)msg, (void)msg_size;
    if (!schema_text) {
        double t0 = bench_now();
        schema_text = generate(0, SCHEMA_CLASSES, &schema_len);
        half_text[0] = generate(0, SCHEMA_CLASSES / 2, &half_len[0]);
        half_text[1] = generate(SCHEMA_CLASSES / 2, SCHEMA_CLASSES, &half_len[1]);
        printf("input: serval schema file, %d classes, %d enums, %zu bytes (%.1f MB), generated "
               "in %.2f s\n",
               SCHEMA_CLASSES, SCHEMA_ENUMS, schema_len, (double)schema_len / 1e6,
               bench_now() - t0);
    }
    in->text = schema_text;
    in->len = schema_len;
    return true;
}

static bool report(bench_ctx *ctx, const char *what, const sv_error *err)
{
    char why[BENCH_MSG_MAX];
    sv_error_format(err, why, sizeof why);
    return bench_fail(ctx, "%s: %s", what, why);
}

static bool check(bench_ctx *ctx, const sv_schema *s)
{
    if (sv_schema_class_count(s) != SCHEMA_CLASSES)
        return bench_fail(ctx, "%zu classes, want %d", sv_schema_class_count(s), SCHEMA_CLASSES);
    const sv_schema_class *c = sv_schema_class_by_name(s, "Class054329", 11);
    sv_uuid u;
    sv_uuid_parse("{0000D439-0000-4000-8000-00000000D439}", 38, &u); /* 54329 = 0xD439 */
    if (!c || sv_schema_class_by_hash(s, 54329u * 2654435761u) != c ||
        sv_schema_class_by_uuid(s, &u) != c)
        return bench_fail(ctx, "lookups of Class054329 fail");
    size_t n;
    sv_schema_class_fields(c, &n);
    if (n != 60) return bench_fail(ctx, "Class054329 has %zu fields with its bases, want 60", n);
    return true;
}

static bool load_step(bench_ctx *ctx)
{
    sv_schema *s;
    sv_error err;
    if (sv_schema_load(ctx->alloc, (const uint8_t *)ctx->in->text, ctx->in->len, "bench.json", &s,
                       &err))
        return report(ctx, "sv_schema_load", &err);
    ctx->made = s;
    return true;
}
static void load_after(bench_ctx *ctx)
{
    sv_schema_free(ctx->made);
    ctx->made = NULL;
}
static bool load_setup(bench_ctx *ctx)
{
    if (!load_step(ctx)) return false;
    bool ok = check(ctx, ctx->made);
    load_after(ctx);
    return ok;
}

static const bench_impl serval_load = {"serval", BENCH_MEM_ALLOC, load_setup, load_step,
                                       load_after};

/* ---- the JSON reader alone ---- */

static bool json_step(bench_ctx *ctx)
{
    sv_doc *doc = sv_doc_new(ctx->alloc);
    sv_value root;
    sv_error err;
    if (!doc) return bench_fail(ctx, "out of memory");
    ctx->made = doc;
    if (sv_json_decode(doc, ctx->in->text, ctx->in->len, NULL, &root, &err))
        return report(ctx, "sv_json_decode", &err);
    return true;
}
static void json_after(bench_ctx *ctx)
{
    sv_doc_free(ctx->made);
    ctx->made = NULL;
}
static bool json_setup(bench_ctx *ctx)
{
    bool ok = json_step(ctx);
    json_after(ctx);
    return ok;
}

static const bench_impl json_only = {"json-read", BENCH_MEM_ALLOC, json_setup, json_step,
                                     json_after};

/* ---- merge ---- */

static sv_schema *halves[2];

static bool merge_step(bench_ctx *ctx)
{
    sv_schema *m = sv_schema_new(ctx->alloc);
    sv_error err;
    if (!m) return bench_fail(ctx, "out of memory");
    ctx->made = m;
    if (sv_schema_merge(m, halves[0], &err) || sv_schema_merge(m, halves[1], &err) ||
        sv_schema_finalize(m, &err))
        return report(ctx, "merge", &err);
    return true;
}
static bool merge_setup(bench_ctx *ctx)
{
    sv_error err;
    for (int i = 0; i < 2; i++)
        if (sv_schema_load(NULL, (const uint8_t *)half_text[i], half_len[i],
                           i ? "b.json" : "a.json", &halves[i], &err))
            return report(ctx, "sv_schema_load", &err);
    if (!merge_step(ctx)) return false;
    bool ok = check(ctx, ctx->made);
    load_after(ctx);
    return ok;
}

static const bench_impl serval_merge = {"serval", BENCH_MEM_ALLOC, merge_setup, merge_step,
                                        load_after};

const bench_workload bench_workloads_schema[] = {
    {"schema.load",
     "schema file of 100,000 classes -> finalised schema (vs the JSON reader alone)",
     schema_input,
     {&serval_load, &json_only, NULL}},
    {"schema.merge",
     "two schemas of 50,000 classes -> one merged, finalised schema",
     schema_input,
     {&serval_merge, NULL}},
    {NULL, NULL, NULL, {NULL}},
};
