/* The readers of Godot, BSON, Resonite, pickle and the converter on compact
 * objects (docs/value-tree.md): a tree whose objects hold their field names
 * once in a shared shape gives the same bytes as the tree it was made from.
 *
 * Each real vector (Godot 3.2.3 and 4.6 oracle Variants, the spec's and
 * @gd-com's Godot vectors, Godot resources, BSON, Resonite data trees, and
 * the shared samples' .brson files when that folder is there) is decoded
 * and written before and after sv_compact_objects: in its own format (which
 * must also be the input's bytes for the vectors an engine wrote), as typed
 * JSON, as a pickle, and converted (sv_convert_encode, lossy, as `serval
 * conv` does) to typed JSON and to every tree format of this part of the
 * library. Every output after compaction must
 * be the output before it, byte for byte, and so must every refusal's
 * message (its path is read from the field names). A reader that looked at
 * an object's pairs instead of going through sv_key_at / sv_val_at reads
 * values as keys there and gives other bytes or another refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_file.h"
#include "serval/serval.h"
#include "test_godot_util.h"

#define SAMPLES "../../shared/samples/"

/* The targets of the conversions: typed JSON and the tree formats of this
 * part of the library, whose encoders the converter drives. */
static const char *const conv_targets[] = {"json",      "bson",     "godot3", "godot4",
                                           "godot-res", "resonite", NULL};

enum { OUT_FORMAT, OUT_JSON, OUT_PICKLE, OUT_CONV, OUT_COUNT = OUT_CONV + 6 };

/* One output: the status, the bytes, or the error's text. */
typedef struct outcome {
    sv_status st;
    sv_buf bytes;
    char why[512];
} outcome;

static int failures, trips, compacted;

static void cfail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", what);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

static void settle(outcome *o, sv_status st, const sv_error *err)
{
    o->st = st;
    o->why[0] = 0;
    if (st != SV_OK) sv_error_format(err, o->why, sizeof o->why);
}

/* Every output of v: in fmt (with o), typed JSON, pickle, conversions. */
static void write_all(const sv_format *f, const sv_options *o, const sv_value *v,
                      outcome out[OUT_COUNT])
{
    sv_error err;
    for (int i = 0; i < OUT_COUNT; i++) sv_buf_init(&out[i].bytes, NULL);
    sv_error_clear(&err);
    settle(&out[OUT_FORMAT], f->encode(v, o, &out[OUT_FORMAT].bytes, &err), &err);
    sv_error_clear(&err);
    settle(&out[OUT_JSON], sv_json_encode(v, NULL, &out[OUT_JSON].bytes, &err), &err);
#if SERVAL_WITH_PICKLE
    sv_error_clear(&err);
    settle(&out[OUT_PICKLE], sv_pickle_encode(v, NULL, &out[OUT_PICKLE].bytes, &err), &err);
#else
    settle(&out[OUT_PICKLE], SV_OK, &err);
#endif
    for (int t = 0; conv_targets[t]; t++) {
        outcome *c = &out[OUT_CONV + t];
        const sv_format *to = sv_format_find(conv_targets[t]);
        if (!to) { /* a build without the format */
            c->st = SV_OK;
            c->why[0] = 0;
            continue;
        }
        sv_convert_opts co;
        sv_convert_opts_init(&co);
        co.lossy = true;
        size_t changes = 0;
        sv_error_clear(&err);
        settle(c, sv_convert_encode(f, to, v, &co, &c->bytes, &changes, &err), &err);
    }
}

static const char *out_name(int i)
{
    switch (i) {
    case OUT_FORMAT: return "its own format";
    case OUT_JSON: return "typed JSON";
    case OUT_PICKLE: return "pickle";
    default: return conv_targets[i - OUT_CONV];
    }
}

/* How many objects of the tree are compact (sv_object_shape answers). */
static int count_compact(const sv_value *v)
{
    int n = 0;
    switch (sv_kind_of(v)) {
    case SV_ARRAY:
        for (uint32_t i = 0; i < sv_len(v); i++) n += count_compact(sv_array_at(v, i));
        break;
    case SV_OBJECT: n += sv_object_shape(v) != NULL; /* fall through */
    case SV_MAP:
        for (uint32_t i = 0; i < sv_len(v); i++) {
            n += count_compact(sv_key_at(v, i));
            n += count_compact(sv_val_at(v, i));
        }
        break;
    default: break;
    }
    if (sv_meta(v)) n += count_compact(sv_meta(v));
    return n;
}

/* decode; write everything; compact; write everything again: the same. When
 * exact, the first write in fmt must also be the input's bytes. */
static void compact_trip(const char *what, const char *fmt, const sv_options *o,
                         const uint8_t *data, size_t len, bool exact)
{
    const sv_format *f = sv_format_find(fmt);
    assert_non_null(f);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (f->decode(doc, data, len, o, &v, &err) != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        cfail(what, "%s does not decode: %s", fmt, msg);
        sv_doc_free(doc);
        return;
    }
    outcome before[OUT_COUNT], after[OUT_COUNT];
    write_all(f, o, &v, before);
    if (exact && (before[OUT_FORMAT].st != SV_OK || before[OUT_FORMAT].bytes.len != len ||
                  memcmp(before[OUT_FORMAT].bytes.data, data, len) != 0))
        cfail(what, "does not encode back to its own bytes (%s)", before[OUT_FORMAT].why);
    if (sv_compact_objects(doc, &v) != SV_OK) {
        cfail(what, "sv_compact_objects fails");
    } else {
        compacted += count_compact(&v);
        write_all(f, o, &v, after);
        for (int i = 0; i < OUT_COUNT; i++) {
            const outcome *b = &before[i], *a = &after[i];
            if (a->st != b->st || strcmp(a->why, b->why) != 0)
                cfail(what, "%s: compact gives status %d (%s), the tree gave %d (%s)", out_name(i),
                      a->st, a->why, b->st, b->why);
            else if (a->bytes.len != b->bytes.len ||
                     (b->bytes.len && memcmp(a->bytes.data, b->bytes.data, b->bytes.len) != 0))
                cfail(what, "%s: compact gives other bytes (%zu for %zu)", out_name(i),
                      a->bytes.len, b->bytes.len);
        }
        for (int i = 0; i < OUT_COUNT; i++) sv_buf_free(&after[i].bytes);
        trips++;
    }
    for (int i = 0; i < OUT_COUNT; i++) sv_buf_free(&before[i].bytes);
    sv_doc_free(doc);
}

static void trip_one(const char *path, const uint8_t *data, size_t len, void *ctx)
{
    compact_trip(path, (const char *)ctx, NULL, data, len, true);
}

/* compact_trip over every file of dir whose name ends with one of the
 * suffixes; how many, or -1 when dir is not there. */
static int folder(const char *dir, const char *fmt, const char *const *suffixes)
{
    return test_each_file(dir, suffixes, trip_one, (void *)fmt);
}

/* The rows of an oracle index (name, kind, options, ...; the bytes in
 * NAME.bin): every row written by the engine (kind "enc"/"encnp"; encnp's
 * NodePath padding is heap garbage, so only enc must give the input back).
 * extra: options every row takes (godot4's raw framing). */
static int oracle(const char *dir, const char *fmt, const char *extra)
{
    char path[512];
    snprintf(path, sizeof path, "%s/index.tsv", dir);
    size_t len = 0;
    char *index = test_read_file(path, &len); /* NUL-terminated */
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(index, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[6];
        if (line[0] == '#' || tg_split_tabs(line, f, 6) < 3) continue;
        if (strncmp(f[1], "enc", 3) != 0) continue;
        snprintf(path, sizeof path, "%s/%s.bin", dir, f[0]);
        size_t n = 0;
        uint8_t *bin = tg_read_file(path, &n);
        assert_non_null(bin);
        char spec[128];
        if (strcmp(f[2], "-") == 0)
            snprintf(spec, sizeof spec, "%s", extra);
        else
            snprintf(spec, sizeof spec, "%s%s%s", extra, *extra ? "," : "", f[2]);
        tg_opts o;
        tg_opts_parse(&o, spec);
        compact_trip(path, fmt, &o.o, bin, n, strcmp(f[1], "enc") == 0);
        free(bin);
        rows++;
    }
    free(index);
    return rows;
}

/* The rows of an index with the bytes inline (name, profile, options,
 * source, kind, hex, ...): its "enc" rows. */
static int inline_index(const char *path)
{
    size_t len = 0;
    char *index = test_read_file(path, &len); /* NUL-terminated */
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(index, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[7];
        if (line[0] == '#' || tg_split_tabs(line, f, 7) != 7 || strcmp(f[4], "enc") != 0) continue;
        static uint8_t bin[4096];
        long n = tg_hex(f[5], bin, sizeof bin);
        assert_true(n >= 0);
        tg_opts o;
        tg_opts_parse(&o, f[2]);
        compact_trip(f[0], f[1], &o.o, bin, (size_t)n, true);
        rows++;
    }
    free(index);
    return rows;
}

static void start(void)
{
    failures = trips = compacted = 0;
}

static void finish(const char *what, int min_trips, int min_compact)
{
    printf("%s: %d trees written alike before and after compaction (%d compact objects), "
           "%d failures\n",
           what, trips, compacted, failures);
    assert_int_equal(failures, 0);
    assert_true(trips >= min_trips);
    assert_true(compacted >= min_compact);
}

static void test_godot_variants(void **state)
{
    (void)state;
    if (!sv_format_find("godot3")) {
        skip();
        return;
    }
    start();
    oracle("vectors/godot/oracle", "godot3", "");
    oracle("vectors/godot/oracle4", "godot4", "framing=raw");
    inline_index("vectors/godot/spec/index.tsv");
    inline_index("vectors/godot/gdcom/index.tsv");
    /* objects=full rows: Object, Reference, Resource, Node2D, ... */
    finish("godot variants", 1000, 10);
}

static void test_godot_resources(void **state)
{
    (void)state;
    if (!sv_format_find("godot-res")) {
        skip();
        return;
    }
    static const char *const res[] = {".res", ".scn", NULL};
    start();
    assert_true(folder("vectors/godot-res/v3", "godot-res", res) >= 5);
    assert_true(folder("vectors/godot-res/v4", "godot-res", res) >= 5);
    assert_true(folder("vectors/godot-res/brotli4", "godot-res", res) >= 2);
    finish("godot resources", 12, 12);
}

static void test_bson_resonite(void **state)
{
    (void)state;
    if (!sv_format_find("bson") || !sv_format_find("resonite")) {
        skip();
        return;
    }
    static const char *const bson[] = {".bson", NULL};
    static const char *const resonite[] = {".brson", ".7zbson", ".lz4bson", NULL};
    start();
    assert_true(folder("vectors/bson", "bson", bson) >= 5);
    assert_true(folder("vectors/resonite", "resonite", resonite) >= 6);
    /* every Resonite root is a resonite.DataTree object */
    finish("bson and resonite vectors", 11, 6);
}

static void test_resonite_samples(void **state)
{
    (void)state;
    if (!sv_format_find("resonite")) {
        skip();
        return;
    }
    static const char *const brson[] = {".brson", NULL};
    start();
    int n = folder(SAMPLES "brson", "resonite", brson);
    if (n < 0) {
        printf("skipped: %sbrson not found (the shared samples folder is absent)\n", SAMPLES);
        return;
    }
    finish("resonite samples", 1, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_godot_variants),
        cmocka_unit_test(test_godot_resources),
        cmocka_unit_test(test_bson_resonite),
        cmocka_unit_test(test_resonite_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
