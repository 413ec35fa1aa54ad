/* serval-bench: the deterministic generator of the typed-JSON document
 * (what it holds and why: gen_json.h and README.md).
 *
 * Every random draw is its own statement: C leaves the order in which a
 * function's arguments are evaluated unspecified, so two draws in one
 * expression could give different documents with different compilers. */
#include "gen_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/json.h>
#include <serval/value.h>

#include "harness.h"

/* Entities per arena: small enough to keep the generator's memory low,
 * large enough that making documents costs nothing. */
#define ENTITIES_PER_DOC 1024u

/* ---- the random stream (splitmix64) ------------------------------------------- */

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* 0 <= result < n, by multiply-and-shift (no modulo bias worth the name). */
static uint32_t rng_below(rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* A double in [0, 1) with all 53 bits random: exact, so the same everywhere. */
static double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* ---- pieces of an entity --------------------------------------------------------- */

static const char *const syllables[] = {"ka",  "ro",  "mi", "zen", "thal", "or",  "ex", "vi",
                                        "dra", "gon", "lu", "qua", "sel",  "tor", "ny", "bri"};
/* One name in eight gets one of these: JSON escapes and non-ASCII UTF-8. */
static const char *const specials[] = {"\n",
                                       "\"",
                                       "\t",
                                       "\\",
                                       "\x01",
                                       "/",
                                       " ",
                                       "\xc3\xa9",                 /* e acute */
                                       "Stra\xc3\x9f\x65",         /* Strasse, sharp s; \x65 = e */
                                       "\xe6\x97\xa5\xe6\x9c\xac", /* Nihon */
                                       "\xf0\x9f\x90\x89",         /* dragon, U+1F409 */
                                       "\xce\xa9"};                /* Omega */
static const char *const tag_words[] = {"npc",    "enemy", "boss", "loot",  "quest",
                                        "hidden", "a",     "bb",   "spawn", "static"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void append(char *buf, size_t *n, size_t cap, const char *s)
{
    size_t k = strlen(s);
    if (*n + k >= cap) return;
    memcpy(buf + *n, s, k);
    *n += k;
}

static sv_value make_name(sv_doc *doc, rng *r, uint64_t id)
{
    char buf[96];
    size_t n = 0;
    uint32_t parts = 2 + rng_below(r, 3);
    for (uint32_t i = 0; i < parts; i++) {
        uint32_t s = rng_below(r, COUNT(syllables));
        append(buf, &n, sizeof buf, syllables[s]);
    }
    if (rng_below(r, 8) == 0) {
        uint32_t s = rng_below(r, COUNT(specials));
        append(buf, &n, sizeof buf, specials[s]);
    }
    char num[24];
    snprintf(num, sizeof num, "_%llu", (unsigned long long)id);
    append(buf, &n, sizeof buf, num);
    return sv_str(doc, buf, n);
}

static sv_value make_tags(sv_doc *doc, rng *r)
{
    sv_value tags = sv_array(doc, 0);
    uint32_t count = 1 + rng_below(r, 4);
    for (uint32_t i = 0; i < count; i++) {
        sv_value item;
        if (rng_below(r, 4) == 0) {
            item = sv_int(rng_below(r, 100));
        } else {
            uint32_t w = rng_below(r, COUNT(tag_words));
            item = sv_str(doc, tag_words[w], strlen(tag_words[w]));
        }
        sv_array_append(doc, &tags, item);
    }
    return tags;
}

static sv_value make_stats(sv_doc *doc, rng *r)
{
    sv_value stats = sv_map(doc, 0);
    uint32_t strength = 1 + rng_below(r, 20);
    uint32_t dex_halves = rng_below(r, 40);
    double luck = rng_unit(r) * 2.0 - 1.0;
    /* One in 32 is tiny, so exponent notation (1.2e-13) is exercised too. */
    if (rng_below(r, 32) == 0) luck *= 1e-12;
    sv_map_append_str(doc, &stats, "str", sv_int(strength));
    sv_map_append_str(doc, &stats, "dex", sv_f64(dex_halves / 2.0)); /* short: 9.5, 12.0 */
    sv_map_append_str(doc, &stats, "luck", sv_f64(luck));            /* all 17 digits */
    return stats;
}

static sv_value make_blob(sv_doc *doc, rng *r)
{
    uint8_t bytes[16];
    uint32_t n = rng_below(r, 17);
    for (uint32_t i = 0; i < n; i++)
        bytes[i] = (uint8_t)rng_below(r, 256);
    return sv_bytes(doc, bytes, n);
}

static sv_value make_mesh(sv_doc *doc, rng *r)
{
    uint32_t count = 2000 + rng_below(r, 3000);
    sv_value mesh = sv_packed(doc, SV_ELEM_F32, SV_TAG_NONE, NULL, count);
    float *f = sv_value_buf(&mesh);
    for (uint32_t i = 0; f && i < count; i++)
        f[i] = (float)(rng_unit(r) * 20.0 - 10.0);
    return mesh;
}

/* One entity; index counts from 0. */
static sv_value make_entity(sv_doc *doc, rng *r, uint64_t index, bool *with_mesh)
{
    uint64_t id = 1000 + index;
    sv_value e = sv_object(doc, sv_str_intern(doc, "Entity", 6), 0);
    sv_map_append_str(doc, &e, "id", sv_int((int64_t)id));
    sv_map_append_str(doc, &e, "name", make_name(doc, r, id));

    float pos[3];
    for (int i = 0; i < 3; i++)
        pos[i] = (float)(rng_unit(r) * 2000.0 - 1000.0);
    sv_map_append_str(doc, &e, "pos", sv_tuple(doc, SV_TAG_VECTOR3, SV_ELEM_F32, pos));

    sv_value vel = sv_array(doc, 0);
    for (int i = 0; i < 3; i++)
        sv_array_append(doc, &vel, sv_f64(rng_unit(r) * 100.0 - 50.0));
    sv_map_append_str(doc, &e, "vel", vel);

    /* Half the hit points are round percentages, half carry all float32 digits. */
    uint32_t percent = rng_below(r, 101);
    float hp = rng_below(r, 2) ? (float)percent / 100.0f : (float)rng_unit(r);
    sv_map_append_str(doc, &e, "hp", sv_f32(hp));
    sv_map_append_str(doc, &e, "mass", sv_f64(rng_unit(r) * 500.0));
    sv_map_append_str(doc, &e, "active", sv_bool(rng_below(r, 4) != 0));
    sv_map_append_str(doc, &e, "tags", make_tags(doc, r));
    sv_map_append_str(doc, &e, "flags", sv_uint_w(rng_below(r, 256), 1));
    sv_map_append_str(doc, &e, "stats", make_stats(doc, r));
    sv_map_append_str(doc, &e, "blob", make_blob(doc, r));
    if (index % 8 == 3) sv_map_append_str(doc, &e, "parent", sv_ref(1000 + index / 2));
    *with_mesh = index % BENCH_JSON_MESH_EVERY == 1234;
    if (*with_mesh) sv_map_append_str(doc, &e, "mesh", make_mesh(doc, r));
    return e;
}

/* ---- the document -------------------------------------------------------------------- */

static bool fail(char *msg, size_t msg_size, sv_buf *out, sv_doc *doc, const char *why)
{
    snprintf(msg, msg_size, "generating the JSON input: %s", why);
    sv_doc_free(doc);
    sv_buf_free(out);
    return false;
}

bool bench_gen_json(size_t target_bytes, bench_json_doc *res, char *msg, size_t msg_size)
{
    double t0 = bench_now();
    memset(res, 0, sizeof *res);
    sv_buf out;
    sv_buf_init(&out, NULL);
    /* One allocation up front: the parent's memory stays near the text's size. */
    sv_buf_ensure(&out, target_bytes + (64u << 10));
    sv_buf_putc(&out, '[');

    rng r = {BENCH_JSON_SEED};
    sv_doc *doc = NULL;
    for (uint64_t index = 0;; index++) {
        if (index % ENTITIES_PER_DOC == 0) {
            sv_doc_free(doc);
            doc = sv_doc_new(NULL);
            if (!doc) return fail(msg, msg_size, &out, NULL, "out of memory");
        }
        bool with_mesh = false;
        sv_value e = make_entity(doc, &r, index, &with_mesh);
        if (sv_doc_status(doc) != SV_OK)
            return fail(msg, msg_size, &out, doc, sv_status_str(sv_doc_status(doc)));
        if (index) sv_buf_putc(&out, ',');
        sv_error err;
        sv_error_clear(&err);
        if (sv_json_encode(&e, NULL, &out, &err) != SV_OK) {
            char why[BENCH_MSG_MAX];
            sv_error_format(&err, why, sizeof why);
            return fail(msg, msg_size, &out, doc, why);
        }
        res->entities++;
        res->packed_arrays += with_mesh;
        if (out.len + 1 >= target_bytes) break;
    }
    sv_doc_free(doc);
    sv_buf_putc(&out, ']');
    sv_buf_putc(&out, '\0'); /* for the peers that want a C string; not counted */
    if (!sv_buf_ok(&out)) return fail(msg, msg_size, &out, NULL, "out of memory");
    size_t len = 0, cap = 0;
    res->text = (char *)sv_buf_take(&out, &len, &cap);
    res->len = len - 1;
    res->seconds = bench_now() - t0;
    return true;
}

void bench_json_doc_free(bench_json_doc *doc)
{
    /* The buffer came from the libc allocator, so free() is its release. */
    free(doc->text);
    memset(doc, 0, sizeof *doc);
}
