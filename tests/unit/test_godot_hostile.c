/* Godot Variant decoder on hostile input: every truncation of every oracle
 * vector, mutated bytes (the round-trip property), huge counts, depth bombs,
 * unknown types, bad UTF-8, out-of-memory at every allocation. Errors must
 * name the format, an offset inside the input and the path of the value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_file.h"
#include "serval/godot.h"
#include "serval/serval.h"
#include "test_godot_util.h"

static sv_status decode(sv_godot_profile prof, const uint8_t *p, size_t n, sv_doc *doc,
                        sv_value *out, sv_error *err)
{
    sv_godot_opts o;
    sv_godot_opts_init(&o, prof);
    o.full_objects = true;
    sv_error_clear(err);
    return sv_godot_decode(doc, p, n, &o, out, NULL, err);
}

/* The round-trip property for accepted bytes (the round-trip fuzz target checks it too). */
static void assert_round_trip(sv_godot_profile prof, const sv_value *tree)
{
    sv_godot_opts o;
    sv_godot_opts_init(&o, prof);
    o.full_objects = true;
    sv_buf b1, b2;
    sv_buf_init(&b1, NULL);
    sv_buf_init(&b2, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_godot_encode(tree, &o, &b1, &err), SV_OK);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value again;
    assert_int_equal(sv_godot_decode(doc, b1.data, b1.len, &o, &again, NULL, &err), SV_OK);
    assert_true(sv_equal(&again, tree));
    assert_int_equal(sv_godot_encode(&again, &o, &b2, &err), SV_OK);
    assert_int_equal(b1.len, b2.len);
    assert_memory_equal(b1.data, b2.data, b1.len);
    sv_doc_free(doc);
    sv_buf_free(&b1);
    sv_buf_free(&b2);
}

/* Calls fn(name, bytes, len) for every oracle vector. */
static int for_each_oracle(void (*fn)(const char *, const uint8_t *, size_t, void *), void *ctx)
{
    size_t len = 0;
    char *index = test_read_file("vectors/godot/oracle/index.tsv", &len); /* NUL-terminated */
    int n = 0;
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        char *f[6] = {0};
        /* f[2] is read below: a short line is a broken index, not a vector */
        if (tg_split_tabs(line, f, 6) != 6) fail_msg("index line without 6 fields: %s", line);
        if (strstr(f[2], "framing")) continue; /* raw Variants only */
        char path[256];
        snprintf(path, sizeof path, "vectors/godot/oracle/%s.bin", f[0]);
        size_t blen = 0;
        uint8_t *bin = tg_read_file(path, &blen);
        assert_non_null(bin);
        fn(f[0], bin, blen, ctx);
        free(bin);
        n++;
    }
    free(index);
    return n;
}

/* Every proper prefix: an error at an offset inside the prefix, or (a
 * PackedByteArray may lack its padding) a tree that round-trips. */
static void truncations(const char *name, const uint8_t *bin, size_t n, void *ctx)
{
    int *errors = ctx;
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *p = malloc(cut ? cut : 1);
        memcpy(p, bin, cut);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        sv_status st = decode(SV_GODOT3, p, cut, doc, &v, &err);
        if (st != SV_OK) {
            (*errors)++;
            if (!err.format || strcmp(err.format, "godot3") || err.byte_offset > cut) {
                fprintf(stderr, "%s cut at %zu: %s at %llu\n", name, cut, err.message,
                        (unsigned long long)err.byte_offset);
                fail();
            }
        } else {
            assert_round_trip(SV_GODOT3, &v);
        }
        sv_doc_free(doc);
        free(p);
    }
}

static void test_truncations(void **state)
{
    (void)state;
    int errors = 0;
    int n = for_each_oracle(truncations, &errors);
    printf("%d vectors, %d truncations refused\n", n, errors);
    assert_true(errors > 1000);
}

/* xorshift, fixed seed: the same mutations every run */
static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void mutations(const char *name, const uint8_t *bin, size_t n, void *ctx)
{
    int *accepted = ctx;
    (void)name;
    static const sv_godot_profile profs[] = {SV_GODOT3, SV_GODOT4, SV_GODOT_DOC};
    uint8_t *p = malloc(n);
    for (int round = 0; round < 24; round++) {
        memcpy(p, bin, n);
        int flips = 1 + (int)(next_rand() % 3);
        for (int k = 0; k < flips; k++) {
            size_t at = (size_t)(next_rand() % n);
            uint64_t r = next_rand();
            p[at] = (r & 1) ? (uint8_t)(r >> 8) : (uint8_t)(p[at] ^ (1u << ((r >> 8) & 7)));
        }
        sv_godot_profile prof = profs[round % 3];
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        if (decode(prof, p, n, doc, &v, &err) == SV_OK) {
            (*accepted)++;
            assert_round_trip(prof, &v);
        } else {
            assert_true(err.byte_offset <= n);
        }
        sv_doc_free(doc);
    }
    free(p);
}

static void test_mutations_round_trip(void **state)
{
    (void)state;
    int accepted = 0;
    for_each_oracle(mutations, &accepted);
    printf("%d mutated inputs accepted and round-tripped\n", accepted);
    assert_true(accepted > 100);
}

/* Counts far beyond the input: refused before anything that size is allocated. */
static void test_huge_counts(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"1c000000ffffff7f", "godot4"},                 /* Array of 2^31-1 */
        {"1b000000ffffff7f", "godot4"},                 /* Dictionary */
        {"1d000000ffffff7f", "godot4"},                 /* PackedByteArray */
        {"1e000000ffffff1f", "godot4"},                 /* PackedInt32Array: 2^29-1 (no overflow) */
        {"24000000aaaaaa0a", "godot4"},                 /* PackedVector3Array */
        {"22000000ffffff7f", "godot4"},                 /* PackedStringArray */
        {"1600000000000080ffffffff00000000", "godot4"}, /* NodePath subnames */
        {"18000000010000004100000000ffff7f", "godot4"}, /* Object properties (objects on) */
        {"0400000000ffff7f", "godot4"},                 /* String */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t in[64];
        long n = tg_hex(cases[i][0], in, sizeof in);
        assert_true(n > 0);
        test_alloc ta;
        test_alloc_init(&ta, 0);
        sv_doc *doc = sv_doc_new(&ta.alloc);
        sv_value v;
        sv_error err;
        assert_int_not_equal(decode(SV_GODOT4, in, (size_t)n, doc, &v, &err), SV_OK);
        assert_int_equal(err.status, SV_ERR_TRUNCATED);
        assert_true(err.byte_offset < (uint64_t)n);
        assert_true(ta.peak_bytes < 256 * 1024); /* the arena's first block, no more */
        sv_doc_free(doc);
        assert_int_equal(ta.live_bytes, 0);
    }
}

/* Nested arrays: depth 1024 decodes (the engine's MAX_RECURSION_DEPTH),
 * 1025 is refused with the path of the innermost level. */
static uint8_t *nested_arrays(unsigned levels, size_t *len)
{
    *len = (size_t)levels * 8 + 4;
    uint8_t *p = malloc(*len);
    for (unsigned i = 0; i < levels; i++)
        memcpy(p + 8 * i, "\x1c\x00\x00\x00\x01\x00\x00\x00", 8);
    memcpy(p + 8 * levels, "\x00\x00\x00\x00", 4);
    return p;
}

static void test_depth(void **state)
{
    (void)state;
    size_t n;
    uint8_t *ok = nested_arrays(1024, &n); /* the nil is at depth 1024 */
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(decode(SV_GODOT4, ok, n, doc, &v, &err), SV_OK);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT4);
    assert_int_equal(sv_godot_encode(&v, &o, &b, &err), SV_OK);
    assert_int_equal(b.len, n);
    assert_memory_equal(b.data, ok, n);
    sv_buf_free(&b);
    sv_doc_free(doc);
    free(ok);

    uint8_t *bomb = nested_arrays(1025, &n);
    doc = sv_doc_new(NULL);
    assert_int_equal(decode(SV_GODOT4, bomb, n, doc, &v, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 8 * 1025);
    /* the path is 1024 levels of /0, shortened at its outer end */
    assert_true(strlen(err.path) > 100 && strcmp(err.path + strlen(err.path) - 6, "/0/0/0") == 0);
    assert_non_null(strstr(err.message, "ERR_OUT_OF_MEMORY"));
    sv_doc_free(doc);
    /* a smaller limit from the options */
    sv_godot_opts lim;
    sv_godot_opts_init(&lim, SV_GODOT4);
    lim.limits.max_depth = 10;
    doc = sv_doc_new(NULL);
    sv_error_clear(&err);
    assert_int_equal(sv_godot_decode(doc, bomb, n, &lim, &v, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 8 * 11);
    sv_doc_free(doc);
    free(bomb);
    /* a limit beyond what the stack holds is taken as SV_MAX_DEPTH_LIMIT
     * (2048): a million levels end at level 2049, not in a crash */
    bomb = nested_arrays(1000000, &n);
    lim.limits.max_depth = 100000000;
    doc = sv_doc_new(NULL);
    sv_error_clear(&err);
    assert_int_equal(sv_godot_decode(doc, bomb, n, &lim, &v, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 8 * 2049);
    sv_doc_free(doc);
    free(bomb);
}

static size_t put_u32(uint8_t *p, size_t at, uint32_t x)
{
    memcpy(p + at, &x, 4); /* the test hosts are little-endian, as the format */
    return at + 4;
}

/* Repeated Dictionary keys found by hash over the whole key: 4.x
 * Dictionaries as keys match by content in any order (here 20 pairs, in
 * opposite orders: one key), and Vector3 keys that share x and z stay apart
 * while a true repeat takes the last value. */
static void test_repeated_keys(void **state)
{
    (void)state;
    uint8_t in[2048];
    size_t k = 0;
    k = put_u32(in, k, 27); /* Dictionary of 2: {D1: 1, D2: 2} */
    k = put_u32(in, k, 2);
    for (int d = 0; d < 2; d++) {
        k = put_u32(in, k, 27);
        k = put_u32(in, k, 20);
        for (uint32_t i = 0; i < 20; i++) {
            uint32_t x = d == 0 ? i : 19 - i;
            k = put_u32(in, k, 2); /* int x: int 100 + x */
            k = put_u32(in, k, x);
            k = put_u32(in, k, 2);
            k = put_u32(in, k, 100 + x);
        }
        k = put_u32(in, k, 2);
        k = put_u32(in, k, (uint32_t)d + 1);
    }
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(decode(SV_GODOT4, in, k, doc, &v, &err), SV_OK);
    assert_int_equal(sv_len(&v), 1);
    assert_int_equal(sv_get_int(sv_val_at(&v, 0)), 2);
    assert_int_equal(sv_len(sv_key_at(&v, 0)), 20);
    /* 3.x: Dictionaries are compared by reference, so two keys */
    in[0] = 18;
    in[8] = 18;
    in[8 + 8 + 20 * 16 + 8] = 18;
    assert_int_equal(decode(SV_GODOT3, in, k, doc, &v, &err), SV_OK);
    assert_int_equal(sv_len(&v), 2);

    /* 40 Vector3 keys (0, i, 0), then (0, 7, 0) again: 40 keys, the 8th
     * with the last value */
    k = 0;
    k = put_u32(in, k, 27);
    k = put_u32(in, k, 41);
    for (uint32_t i = 0; i <= 40; i++) {
        float y = (float)(i < 40 ? i : 7), zero = 0;
        k = put_u32(in, k, 9);
        memcpy(in + k, &zero, 4), memcpy(in + k + 4, &y, 4), memcpy(in + k + 8, &zero, 4);
        k += 12;
        k = put_u32(in, k, 2);
        k = put_u32(in, k, i);
    }
    assert_int_equal(decode(SV_GODOT4, in, k, doc, &v, &err), SV_OK);
    assert_int_equal(sv_len(&v), 40);
    assert_int_equal(sv_get_int(sv_val_at(&v, 7)), 40);
    assert_int_equal(sv_get_int(sv_val_at(&v, 8)), 8);
    sv_doc_free(doc);
}

/* Unknown types, bad UTF-8 deep inside: the offset and the path. */
static void test_error_positions(void **state)
{
    (void)state;
    uint8_t in[128];
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    /* {"a": [1, <type 99>]} */
    long n = tg_hex(
        "1b000000 01000000 04000000 01000000 61000000 1c000000 02000000 02000000 01000000 63000000",
        in, sizeof in);
    assert_int_equal(decode(SV_GODOT4, in, (size_t)n, doc, &v, &err), SV_ERR_TYPE);
    assert_int_equal(err.byte_offset, 36);
    assert_string_equal(err.path, "/a/1");
    assert_string_equal(err.format, "godot4");
    /* [ "ok", "\xc3(" ]: the offset of the bad byte */
    n = tg_hex("1c000000 02000000 04000000 02000000 6f6b0000 04000000 02000000 c3280000", in,
               sizeof in);
    assert_int_equal(decode(SV_GODOT4, in, (size_t)n, doc, &v, &err), SV_ERR_UTF8);
    assert_int_equal(err.byte_offset, 28);
    assert_string_equal(err.path, "/1");
    /* the same type byte is a Dictionary in 3.x and a Transform3D in 4.x */
    n = tg_hex("12000000 00000000", in, sizeof in);
    assert_int_equal(decode(SV_GODOT3, in, (size_t)n, doc, &v, &err), SV_OK);
    assert_int_equal(decode(SV_GODOT4, in, (size_t)n, doc, &v, &err), SV_ERR_TRUNCATED);
    /* godot-doc: 27 is a Vector3 array, 4.x's Dictionary */
    n = tg_hex("1b000000 00000000", in, sizeof in);
    assert_int_equal(decode(SV_GODOT_DOC, in, (size_t)n, doc, &v, &err), SV_OK);
    assert_int_equal(sv_tag_of(&v), SV_TAG_PACKED_VECTOR3);
    sv_doc_free(doc);
}

/* Out of memory at every allocation of a decode: a status, no leak. The
 * input is 2000 copies of the oracle's one-of-every-type array, so the
 * arena needs many chunks. */
static void test_out_of_memory(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *one = tg_read_file("vectors/godot/oracle/array_all_types.bin", &n);
    assert_non_null(one);
    size_t copies = 2000, len = 8 + copies * n;
    uint8_t *bin = malloc(len);
    memcpy(bin, "\x13\x00\x00\x00", 4); /* a 3.x Array */
    bin[4] = (uint8_t)copies;
    bin[5] = (uint8_t)(copies >> 8);
    bin[6] = bin[7] = 0;
    for (size_t i = 0; i < copies; i++)
        memcpy(bin + 8 + i * n, one, n);
    int failed_runs = 0;
    bool succeeded = false;
    for (long fail_at = 1; fail_at < 400 && !succeeded; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        sv_doc *doc = sv_doc_new(&ta.alloc);
        if (!doc) continue;
        sv_value v;
        sv_error err;
        sv_status st = decode(SV_GODOT3, bin, len, doc, &v, &err);
        if (st != SV_OK) {
            assert_true(st == SV_ERR_NOMEM || st == SV_ERR_LIMIT);
            failed_runs++;
        } else {
            succeeded = true;
            assert_int_equal(sv_len(&v), copies);
        }
        sv_doc_free(doc);
        assert_int_equal(ta.live_bytes, 0);
    }
    free(bin);
    free(one);
    printf("%d decodes ran out of memory cleanly before one had enough\n", failed_runs);
    assert_true(failed_runs > 3);
    assert_true(succeeded);
}

/* Trees the encoder cannot write: a clear error with the path. */
static void test_unencodable(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"godot4", "{\"a\":[1,{\"$ref\":3}]}", "/a/1"},
        {"godot4", "{\"a\":{\"$euler\":[1.0,2.0,3.0]}}", "/a"},
        {"godot3", "{\"$string_name\":\"x\"}", ""},
        {"godot3", "{\"$vector2i\":[1,2]}", ""},
        {"godot-doc", "{\"$callable\":null}", ""},
        {"godot4", "18446744073709551615", ""},
        {"godot4", "{\"$class\":\"Node\"}", ""}, /* full object without objects=full */
        {"godot4", "[\"a\\u0000b\"]", "/0"},     /* a NUL the engine would cut */
        {"godot4", "{\"$array\":[1],\"$meta\":{\"type\":\"Nope\"}}", ""},
        {"godot4", "{\"$signal\":[1,2]}", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_json_decode(doc, cases[i][1], strlen(cases[i][1]), NULL, &v, &err),
                         SV_OK);
        sv_buf b;
        sv_buf_init(&b, NULL);
        tg_opts o;
        tg_opts_parse(&o, "-");
        sv_status st = tg_encode(cases[i][0], &o, &v, &b, &err);
        if (st == SV_OK) fprintf(stderr, "case %zu encoded\n", i);
        assert_int_not_equal(st, SV_OK);
        assert_string_equal(err.path, cases[i][2]);
        assert_string_equal(err.format, cases[i][0]);
        sv_buf_free(&b);
        sv_doc_free(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncations),     cmocka_unit_test(test_mutations_round_trip),
        cmocka_unit_test(test_huge_counts),     cmocka_unit_test(test_depth),
        cmocka_unit_test(test_repeated_keys),
        cmocka_unit_test(test_error_positions), cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_unencodable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
