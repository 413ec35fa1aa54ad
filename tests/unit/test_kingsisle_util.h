/* Shared helpers of the KingsIsle tests: the fixture folder (katsuba's test
 * data, in ../shared/samples/kingsisle/ when present), file reading, the
 * fixtures' configs and type lists. */
#ifndef TEST_KINGSISLE_UTIL_H
#define TEST_KINGSISLE_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

#define KT_DIR "../../shared/samples/kingsisle/"

/* The whole file, or NULL (len 0) when it is not there. Free with free(). */
static inline uint8_t *kt_read(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *b = realloc(buf, cap);
            assert_non_null(b);
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (!got) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf ? buf : malloc(1);
}

static inline uint8_t *kt_sample(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, KT_DIR "%s", name);
    return kt_read(path, len);
}

/* Whether the fixtures are there; prints why a test skips when not. */
static inline int kt_present(void)
{
    FILE *f = fopen(KT_DIR "types.json", "rb");
    if (!f) {
        printf("skip: " KT_DIR " is absent (katsuba's fixtures); nothing to check\n");
        return 0;
    }
    fclose(f);
    return 1;
}

/* A type list from the fixture folder. */
static inline sv_kingsisle_types *kt_types(const char *name)
{
    size_t len;
    uint8_t *data = kt_sample(name, &len);
    assert_non_null(data);
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    assert_non_null(t);
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_kingsisle_types_add(t, data, len, name, &err);
    if (st != SV_OK) fail_msg("%s: %s", name, err.message);
    free(data);
    return t;
}

/* The options of a fixture's NAME.config.json. */
static inline void kt_config(const char *name, sv_kingsisle_opts *o)
{
    char file[256];
    int n = snprintf(file, sizeof file, "%s.config.json", name);
    if (n < 0 || (size_t)n >= sizeof file) fail_msg("fixture name too long: %s", name);
    size_t len;
    uint8_t *text = kt_sample(file, &len);
    assert_non_null(text);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_json_decode(doc, (const char *)text, len, NULL, &v, &err), SV_OK);
    sv_kingsisle_opts_init(o);
    o->shallow = sv_get_bool(sv_map_getz(&v, "shallow"));
    o->compress = sv_get_bool(sv_map_getz(&v, "compress"));
    o->flags = (uint32_t)sv_get_uint(sv_map_getz(&v, "flags"));
    o->property_mask = (uint32_t)sv_get_uint(sv_map_getz(&v, "property_mask"));
    sv_doc_free(doc);
    free(text);
}

/* Field name of an object, or fails the test. */
static inline const sv_value *kt_field(const sv_value *obj, const char *name)
{
    const sv_value *v = sv_map_getz(obj, name);
    if (!v) fail_msg("no field %s", name);
    return v;
}

#endif
