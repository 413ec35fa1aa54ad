/* Helpers shared by the test_noesis*.c programs (header only: each test is
 * its own program). Run from tests/, samples in ../../shared/samples. */
#ifndef TEST_NOESIS_UTIL_H
#define TEST_NOESIS_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/json.h"
#include "serval/noesis.h"
#include "serval/serval.h"

#define NSB_SAMPLES "../../shared/samples/noesis-nsb/"

/* Reads a whole file; NULL when it is not there. */
static inline uint8_t *nt_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* A sample, or skip the test (saying why) when the samples are absent. */
static inline uint8_t *nt_sample(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", NSB_SAMPLES, name);
    uint8_t *d = nt_read(path, len);
    if (!d) {
        printf("skipped: %s not found (the shared samples folder is absent)\n", path);
        skip();
    }
    return d;
}

static inline void nt_fail_with(const sv_error *err)
{
    char msg[512];
    sv_error_format(err, msg, sizeof msg);
    fail_msg("%s", msg);
}

/* Decodes (must succeed) into a new document. */
static inline sv_doc *nt_decode(const uint8_t *data, size_t len, sv_value *out)
{
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_decode(doc, data, len, NULL, out, &err) != SV_OK) nt_fail_with(&err);
    return doc;
}

/* Decoding must fail with status st at byte offset off; the message must
 * contain needle. Returns nothing; frees everything. */
static inline void nt_decode_fails(const uint8_t *data, size_t len, sv_status st, uint64_t off,
                                   const char *needle)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    sv_status got = sv_noesis_decode(doc, data, len, NULL, &v, &err);
    char msg[512];
    sv_error_format(&err, msg, sizeof msg);
    if (got != st || err.byte_offset != off || !strstr(err.message, needle))
        fail_msg("expected %s at byte %llu containing \"%s\", got %s: %s", sv_status_name(st),
                 (unsigned long long)off, needle, sv_status_name(got), msg);
    sv_doc_free(doc);
}

/* Encodes v (must succeed). The caller frees the buffer. */
static inline sv_buf nt_encode(const sv_value *v, const sv_noesis_opts *opts)
{
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_encode(v, opts, &out, &err) != SV_OK) nt_fail_with(&err);
    return out;
}

static inline void nt_assert_same_bytes(const uint8_t *want, size_t want_len, const sv_buf *got)
{
    size_t n = want_len < got->len ? want_len : got->len;
    size_t i = 0;
    while (i < n && want[i] == got->data[i]) i++;
    if (i != want_len || i != got->len)
        fail_msg("bytes differ at offset %zu (expected %zu bytes, got %zu)", i, want_len, got->len);
}

/* decode -> encode gives the same bytes, and decoding those gives an equal
 * tree; so do the same values with every instance in the pair layout
 * (sv_object_expand) and with every object compact (sv_compact_objects). */
static inline void nt_round_trip(const uint8_t *data, size_t len)
{
    sv_value v, w;
    sv_doc *doc = nt_decode(data, len, &v);
    sv_buf out = nt_encode(&v, NULL);
    nt_assert_same_bytes(data, len, &out);
    sv_doc *doc2 = nt_decode(out.data, out.len, &w);
    assert_true(sv_equal(&v, &w));
    sv_buf_free(&out);
    sv_doc_free(doc2);
    const sv_value *chunks = sv_map_getz(&v, "chunks");
    for (size_t c = 0; c < sv_len(chunks); c++) {
        sv_value *objects = sv_map_getz(sv_array_at(chunks, c), "objects");
        for (size_t i = 0; i < sv_len(objects); i++)
            if (sv_kind_of(sv_array_at(objects, i)) == SV_OBJECT)
                assert_int_equal(sv_object_expand(doc, sv_array_at(objects, i)), SV_OK);
    }
    out = nt_encode(&v, NULL);
    nt_assert_same_bytes(data, len, &out);
    sv_buf_free(&out);
    assert_int_equal(sv_compact_objects(doc, &v), SV_OK);
    out = nt_encode(&v, NULL);
    nt_assert_same_bytes(data, len, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

/* Paths into the tree. */
static inline sv_value *nt_get(const sv_value *v, const char *key)
{
    sv_value *r = sv_map_getz(v, key);
    if (!r) fail_msg("no key \"%s\"", key);
    return r;
}
static inline sv_value *nt_at(const sv_value *v, size_t i)
{
    sv_value *r = sv_array_at(v, i);
    if (!r) fail_msg("no item %zu", i);
    return r;
}
static inline void nt_assert_str(const sv_value *v, const char *want)
{
    assert_int_equal(sv_kind_of(v), SV_STRING);
    size_t n = 0;
    const char *s = sv_get_str(v, &n);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(s, want, n);
}
static inline void nt_assert_uint(const sv_value *v, int width, uint64_t want)
{
    assert_int_equal(sv_kind_of(v), SV_UINT);
    assert_int_equal(sv_width(v), width);
    assert_int_equal(sv_get_uint(v), want);
}
static inline void nt_assert_ref(const sv_value *v, int64_t target) /* -1 = null */
{
    assert_int_equal(sv_kind_of(v), SV_REF);
    if (target < 0) {
        assert_true(v->flags & SV_F_NULLREF);
    } else {
        assert_false(v->flags & SV_F_NULLREF);
        assert_int_equal(v->as.u, (uint64_t)target);
    }
}
static inline const char *nt_class(const sv_value *obj)
{
    const sv_value *c = sv_object_class(obj);
    assert_non_null(c);
    return sv_get_str(c, NULL);
}

/* ---- building files by hand: little-endian bytes appended to a fixed
 * buffer (room for every hand-made file of these tests) ---- */

typedef struct bld {
    uint8_t b[1 << 16];
    size_t n;
} bld;

static inline void u8(bld *f, uint8_t v)
{
    f->b[f->n++] = v;
}
static inline void u32(bld *f, uint32_t v)
{
    for (int i = 0; i < 4; i++) u8(f, (uint8_t)(v >> (8 * i)));
}
static inline void u64(bld *f, uint64_t v)
{
    for (int i = 0; i < 8; i++) u8(f, (uint8_t)(v >> (8 * i)));
}
static inline void raw(bld *f, const void *p, size_t n)
{
    if (n) memcpy(f->b + f->n, p, n); /* p may be NULL when n is 0 */
    f->n += n;
}

/* The file of one little-endian chunk (spec §B.3) with the class "Thing"
 * as component 0 (version 1), the metadata strings md (md_size bytes, each
 * NUL-terminated), the commands c, n instances of component 0 and the data
 * d. Returns the file offset of the data's size field (the data follows
 * it); the chunk's size is set. */
static inline size_t nt_thing_file(bld *f, const char *md, size_t md_size, const bld *c,
                                   const bld *d, uint32_t n)
{
    f->n = 0;
    raw(f, "HDSN\x04\x00\x00\x00\x01\x00\x00\x00", 12);
    u64(f, 0); /* chunkSize, set below */
    u64(f, 6);
    raw(f, "Thing", 6);
    u64(f, 8);
    u32(f, 0), u32(f, 1); /* component 0: "Thing", version 1 */
    u64(f, 16 + md_size + c->n);
    u64(f, md_size);
    raw(f, md, md_size);
    u64(f, c->n);
    raw(f, c->b, c->n);
    u64(f, 4ull * n);
    for (uint32_t i = 0; i < n; i++) u32(f, 0);
    const size_t data_size_at = f->n;
    u64(f, d->n);
    raw(f, d->b, d->n);
    for (int i = 0; i < 8; i++) f->b[12 + i] = (uint8_t)((uint64_t)(f->n - 20) >> (8 * i));
    return data_size_at;
}

/* The compact typed JSON of v, malloc'd and NUL-terminated. */
static inline char *nt_json_of(const sv_value *v)
{
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_encode(v, NULL, &out, &err) != SV_OK) nt_fail_with(&err);
    sv_buf_putc(&out, 0);
    return (char *)out.data;
}

#endif
