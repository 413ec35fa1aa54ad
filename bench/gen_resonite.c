/* serval-bench: the Resonite workload input. The largest real sample is
 * scaled up by repeating its Object's children (bench/README.md, "Resonite
 * workloads"), which keeps the sample's own mix of keys, GUID strings,
 * int32/int64/double and nesting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/bson.h>
#include <serval/resonite.h>
#include <serval/value.h>

#include "gen_resonite.h"
#include "harness.h"

#define SAMPLE_NAME "ma-coresys.27422500.brson"

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

static uint8_t *find_sample(size_t *len, char *where, size_t where_size)
{
    const char *env = getenv("SERVAL_SAMPLES");
    const char *dirs[] = {env, "../shared/samples", "../../shared/samples",
                          "../../../shared/samples"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i]) continue;
        snprintf(where, where_size, "%s/brson/%s", dirs[i], SAMPLE_NAME);
        uint8_t *b = read_file(where, len);
        if (b) return b;
    }
    return NULL;
}

static size_t count_elements(const sv_value *v)
{
    size_t n = 1;
    sv_kind k = sv_kind_of(v);
    if (k == SV_ARRAY)
        for (size_t i = 0; i < sv_len(v); i++) n += count_elements(sv_array_at(v, i));
    else if (k == SV_MAP || k == SV_OBJECT)
        for (size_t i = 0; i < sv_len(v); i++) n += count_elements(sv_val_at(v, i));
    return n;
}

bool bench_gen_resonite(size_t target, bench_rs_input *out, char *msg, size_t msg_size)
{
    memset(out, 0, sizeof *out);
    double t0 = bench_now();
    size_t len;
    uint8_t *file = find_sample(&len, out->sample, sizeof out->sample);
    if (!file) {
        snprintf(msg, msg_size,
                 "the sample %s was not found (set SERVAL_SAMPLES to the samples folder)",
                 SAMPLE_NAME);
        return false;
    }
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    bool ok = false;
    if (sv_resonite_decode(doc, file, len, NULL, &root, &err) != SV_OK) {
        snprintf(msg, msg_size, "%s: %s", out->sample, err.message);
        goto done;
    }
    sv_value *kids = sv_map_getz(sv_map_getz(&root, "Object"), "Children");
    sv_value orig = *kids;
    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.resonite_urls = true;
    sv_buf one;
    sv_buf_init(&one, NULL);
    if (sv_bson_encode(&root, &bo, &one, &err) != SV_OK) {
        snprintf(msg, msg_size, "writing the sample's BSON: %s", err.message);
        sv_buf_free(&one);
        goto done;
    }
    /* how much one more copy of the children adds */
    sv_value two = sv_array(doc, 0);
    for (int r = 0; r < 2; r++)
        for (size_t i = 0; i < sv_len(&orig); i++)
            sv_array_append(doc, &two, *sv_array_at(&orig, i));
    *kids = two;
    sv_buf b2;
    sv_buf_init(&b2, NULL);
    if (sv_bson_encode(&root, &bo, &b2, &err) != SV_OK) {
        snprintf(msg, msg_size, "writing the doubled BSON: %s", err.message);
        sv_buf_free(&b2);
        sv_buf_free(&one);
        goto done;
    }
    size_t per = b2.len - one.len;
    size_t copies = target > one.len ? 1 + (target - one.len + per / 2) / per : 1;
    sv_buf_free(&b2);
    sv_buf_free(&one);
    sv_value many = sv_array(doc, 0);
    for (size_t r = 0; r < copies; r++)
        for (size_t i = 0; i < sv_len(&orig); i++)
            sv_array_append(doc, &many, *sv_array_at(&orig, i));
    *kids = many;
    out->copies = copies;
    out->elements = count_elements(&root);

    sv_buf bson;
    sv_buf_init(&bson, NULL);
    if (sv_bson_encode(&root, &bo, &bson, &err) != SV_OK) {
        snprintf(msg, msg_size, "writing the scaled BSON: %s", err.message);
        sv_buf_free(&bson);
        goto done;
    }
    sv_buf_putc(&bson, 0); /* the NUL the harness promises after the input */
    out->bson_len = bson.len - 1;
    out->bson = sv_buf_take(&bson, NULL, NULL);
    /* Resonite's own container: FrDT header, Brotli quality 9, window 16 */
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    sv_buf z;
    sv_buf_init(&z, NULL);
    if (sv_resonite_wrap(out->bson, out->bson_len, &c, NULL, &z, &err) != SV_OK) {
        snprintf(msg, msg_size, "compressing: %s", err.message);
        sv_buf_free(&z);
        goto done;
    }
    sv_buf_putc(&z, 0);
    out->brson_len = z.len - 1;
    out->brson = sv_buf_take(&z, NULL, NULL);
    out->seconds = bench_now() - t0;
    ok = true;
done:
    sv_doc_free(doc);
    free(file);
    return ok;
}
