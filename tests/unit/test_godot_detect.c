/* Detection of real Godot 3 files: values written by Godot 3.2.3 itself
 * (tests/vectors/godot/oracle/, kinds "enc" and "encnp": var2bytes output),
 * 200 of them drawn with a fixed seed, each as a raw file, as a store_var
 * file (a u32 length, then the Variant) and, in threes, as a stream of
 * store_var frames. Each must be detected as godot3, or reported as
 * ambiguous with godot3 among the equally good candidates; no file may be
 * detected as another format. And a file whose Variant is followed by bytes
 * it does not use is not a raw Variant, nor one store_var frame. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

#define ORACLE "vectors/godot/oracle/"
#define DRAW 200
#define MAX_NAMES 512

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

static bool read_file(const char *path, blob *b)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    b->p = malloc(1 << 20);
    if (!b->p) {
        fclose(f);
        return false;
    }
    b->n = fread(b->p, 1, 1 << 20, f);
    fclose(f);
    return true;
}

/* The names of the engine-written vectors without options. */
static size_t oracle_names(char names[][96], size_t max)
{
    FILE *f = fopen(ORACLE "index.tsv", "r");
    if (!f) return 0;
    char line[8192];
    size_t n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *name = strtok(line, "\t"), *kind = strtok(NULL, "\t"), *opts = strtok(NULL, "\t");
        if (!name || !kind || !opts) continue;
        if ((strcmp(kind, "enc") && strcmp(kind, "encnp")) || strcmp(opts, "-")) continue;
        snprintf(names[n++], 96, "%s", name);
    }
    fclose(f);
    return n;
}

static int failures;

/* data must be godot3, or ambiguous with godot3 among the tied. */
static void expect_godot3(const char *what, const char *name, const uint8_t *p, size_t n)
{
    sv_format_candidate c[8];
    size_t count = sv_format_detect_all(p, n, NULL, c, 8);
    if (count > 8) count = 8;
    bool ok = false;
    if (count > 0 && !sv_format_candidates_ambiguous(c, count)) {
        ok = !strcmp(c[0].format->name, "godot3");
    } else if (count > 0) {
        for (size_t i = 0; i < count && c[i].score == c[0].score; i++)
            if (!strcmp(c[i].format->name, "godot3")) ok = true;
    }
    /* the one-pick function must agree when there is no doubt */
    if (ok && !sv_format_candidates_ambiguous(c, count) &&
        sv_format_detect(p, n, NULL) != c[0].format)
        ok = false;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL %s (%s): %s%s\n", name, what,
                count ? (sv_format_candidates_ambiguous(c, count) ? "ambiguous, first " : "")
                      : "unknown",
                count ? c[0].format->name : "");
    }
}

static void put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void test_oracle_values_detected(void **state)
{
    (void)state;
    static char names[MAX_NAMES][96];
    size_t n = oracle_names(names, MAX_NAMES);
    assert_true(n >= DRAW);
    /* a fixed draw: xorshift32 from a fixed seed, Fisher-Yates over the names */
    uint32_t x = 2463534242u;
    for (size_t i = n - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        size_t j = x % (i + 1);
        char t[96];
        memcpy(t, names[i], 96);
        memcpy(names[i], names[j], 96);
        memcpy(names[j], t, 96);
    }
    size_t ambiguous = 0, stream_len = 0;
    uint8_t *stream = malloc(3u << 20);
    assert_non_null(stream);
    for (size_t i = 0; i < DRAW; i++) {
        char path[512];
        snprintf(path, sizeof path, ORACLE "%.95s.bin", names[i]);
        blob b = {NULL, 0};
        assert_true(read_file(path, &b));
        expect_godot3("raw", names[i], b.p, b.n);
        sv_format_candidate c[8];
        size_t cn = sv_format_detect_all(b.p, b.n, NULL, c, 8);
        if (sv_format_candidates_ambiguous(c, cn > 8 ? 8 : cn)) ambiguous++;

        uint8_t *framed = malloc(b.n + 4);
        put_u32le(framed, (uint32_t)b.n);
        memcpy(framed + 4, b.p, b.n);
        expect_godot3("store_var", names[i], framed, b.n + 4);

        /* three frames in a row: a .save of three store_var calls */
        memcpy(stream + stream_len, framed, b.n + 4);
        stream_len += b.n + 4;
        if (i % 3 == 2) {
            expect_godot3("store_var stream", names[i], stream, stream_len);
            stream_len = 0;
        }
        free(framed);
        free(b.p);
    }
    free(stream);
    fprintf(stderr, "%d values: %zu raw files ambiguous (godot3 among them), %d failures\n",
            DRAW, ambiguous, failures);
    assert_int_equal(failures, 0);
}

/* Godot 3 data that Godot 4 reads with bytes to spare, and the same with
 * bytes after it: not a raw Variant of either. */
static void test_trailing_bytes_are_not_raw(void **state)
{
    (void)state;
    /* 3.x int 5, then 4 more bytes */
    static const uint8_t in[] = {2, 0, 0, 0, 5, 0, 0, 0, 1, 2, 3, 4};
    sv_format_candidate c[8];
    size_t n = sv_format_detect_all(in, sizeof in, NULL, c, 8);
    for (size_t i = 0; i < n && i < 8; i++) {
        assert_string_not_equal(c[i].format->name, "godot3");
        assert_string_not_equal(c[i].format->name, "godot4");
    }
    const sv_format *g4 = sv_format_find("godot4");
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err); /* the first recorded error wins: start from none */
    assert_int_equal(g4->decode(doc, in, sizeof in, NULL, &v, &err), SV_ERR_TRAILING);
    assert_int_equal(err.byte_offset, 8);
    sv_doc_free(doc);
}

/* One store_var frame (int 5) and 4 bytes after it: framing=prefixed reads
 * the frame and refuses the rest at byte 12, its end, unless
 * trailing=allow. */
static void test_bytes_after_frame_refused(void **state)
{
    (void)state;
    static const uint8_t in[] = {8, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 1, 2, 3, 4};
    const sv_format *g3 = sv_format_find("godot3");
    const char *names[] = {"framing", "trailing"};
    const char *values[] = {"prefixed", "allow"};
    sv_options o;
    sv_options_init(&o);
    o.names = names;
    o.values = values;
    o.count = 1;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(g3->decode(doc, in, sizeof in, &o, &v, &err), SV_ERR_TRAILING);
    assert_int_equal(err.byte_offset, 12);
    assert_non_null(strstr(err.message, "4 bytes after the store_var frame"));
    o.count = 2;
    sv_error_clear(&err);
    assert_int_equal(g3->decode(doc, in, sizeof in, &o, &v, &err), SV_OK);
    /* the named framing of a root int is kept by a root stand-in */
    assert_int_equal(sv_kind_of(&v), SV_ARRAY);
    assert_int_equal(sv_len(&v), 1);
    assert_int_equal(sv_get_int(sv_array_at(&v, 0)), 5);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_values_detected),
        cmocka_unit_test(test_trailing_bytes_are_not_raw),
        cmocka_unit_test(test_bytes_after_frame_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
