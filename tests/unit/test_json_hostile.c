/* The JSON reader on hostile input: every truncation, deep nesting, huge
 * numbers, long strings against max_string, the allocation limit, failed
 * allocations, invalid UTF-8 at every position and random mutations. Each
 * text is copied into a buffer of exactly its length so that ASan catches any
 * read past the end; nothing may crash, leak or hang, and every error names
 * its byte offset, line and column. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/serval.h"

/* Parses len bytes of text from an exact-size copy into a fresh document. */
static sv_status parse(const char *text, size_t len, const sv_json_decode_opts *opts, sv_value *out,
                       sv_error *err)
{
    char *buf = malloc(len ? len : 1);
    assert_non_null(buf);
    memcpy(buf, text, len);
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_value v;
    sv_status st = sv_json_decode(doc, buf, len, opts, &v, err);
    if (out) *out = v; /* scalars only: the document is gone */
    sv_doc_free(doc);
    free(buf);
    return st;
}

static void expect(const char *text, size_t len, const sv_json_decode_opts *opts, sv_status st,
                   uint64_t off, uint32_t line, uint32_t col)
{
    sv_error err;
    sv_status got = parse(text, len, opts, NULL, &err);
    if (got != st || err.byte_offset != off || err.line != line || err.column != col) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        print_error("got %s: %s\n  want %s at %llu (%u:%u)\n", sv_status_name(got), msg,
                    sv_status_name(st), (unsigned long long)off, line, col);
    }
    assert_int_equal(got, st);
    assert_int_equal(err.byte_offset, off);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, col);
    assert_true(err.message[0] != '\0');
}

/* A text made of a repeated piece: prefix, n times piece, suffix. */
static char *repeat(const char *prefix, const char *piece, size_t n, const char *suffix,
                    size_t *len)
{
    size_t a = strlen(prefix), b = strlen(piece), c = strlen(suffix);
    char *s = malloc(a + b * n + c + 1);
    assert_non_null(s);
    memcpy(s, prefix, a);
    for (size_t i = 0; i < n; i++)
        memcpy(s + a + i * b, piece, b);
    memcpy(s + a + b * n, suffix, c);
    s[a + b * n + c] = '\0';
    *len = a + b * n + c;
    return s;
}

/* ---- truncation -------------------------------------------------------------------- */

static const char doc_typed[] =
    "{\"$class\": \"Player\", \"$meta\": {\"v\": 1}, "
    "\"name\": \"Ann \\u00e9\\ud83d\\ude00 \\\"q\\\" \xc3\xa9\xf0\x9f\x90\x89\", "
    "\"hp\": {\"$i32\": -5}, \"pos\": {\"$vector3\": [1.5, -2, 3e1], \"$elem\": \"f64\"}, "
    "\"mesh\": {\"$packed_vector2\": [[1, 2], [3, 4]]}, \"f\": {\"$f32\": \"nan:0x7fc00001\"}, "
    "\"b\": {\"$bytes\": \"AAEC/w==\"}, \"u\": {\"$utf16\": \"a\\udc00\"}, \"r\": {\"$ref\": "
    "null}, "
    "\"m\": {\"$map\": [[1, \"x\"], [[2], {}]], \"$meta\": [true]}, "
    "\"mo\": {\"$map\": {\"k\": 1}, \"$meta\": 2}, "
    "\"a\": {\"$array\": [false, null], \"$meta\": 0}, \"t\": {\"$string_name\": \"jump\"}, "
    "\"n\": [0, -0.0, 1e-7, 18446744073709551615, 123456789012345678901234, -12], "
    "\"$$k\": {\"$u8s\": [1, 2]}, \"id\": {\"$rid\": {\"$u64\": 7}}}";

static const char doc_plain[] =
    "[{\"id\": 1, \"s\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"x\": [[[]]], \"y\": {\"\": {}}}, "
    "true, false, null, -12.5e-3, \"0123456789abcdefghijklmnopqrstuvwxyz\"]";

static const char doc_pretty[] =
    "{\n  // a comment\n  \"a\": [\n    1, /* two */ 2\n  ],\n  \"b\": {\n    \"$f64s\": [1.5, "
    "\"inf\"]\n  }\n}";

/* Every proper prefix must fail as TRUNCATED at its end, with the line and
 * column of the end (lines counted at LF, columns in bytes). */
static void truncate_all(const char *doc, size_t len, const sv_json_decode_opts *opts)
{
    /* the whole document is valid */
    sv_error err;
    assert_int_equal(parse(doc, len, opts, NULL, &err), SV_OK);
    uint32_t line = 1, col = 1;
    for (size_t n = 0; n < len; n++) {
        expect(doc, n, opts, SV_ERR_TRUNCATED, n, line, col);
        if (doc[n] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
}

static void test_truncation_typed(void **state)
{
    (void)state;
    truncate_all(doc_typed, sizeof doc_typed - 1, NULL);
}

static void test_truncation_plain(void **state)
{
    (void)state;
    truncate_all(doc_plain, sizeof doc_plain - 1, NULL);
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.plain = true;
    truncate_all(doc_plain, sizeof doc_plain - 1, &o);
}

static void test_truncation_pretty_comments(void **state)
{
    (void)state;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.allow_comments = true;
    truncate_all(doc_pretty, sizeof doc_pretty - 1, &o);
}

/* ---- nesting --------------------------------------------------------------------------- */

static void test_depth_default(void **state)
{
    (void)state;
    size_t len;
    /* 100000 '[': the 1025th (at byte 1024) is one too deep */
    char *s = repeat("", "[", 100000, "", &len);
    sv_error err;
    assert_int_equal(parse(s, len, NULL, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 1024);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 1025);
    /* the path is 1024 "/0" segments: too long, so it keeps the inner end */
    assert_memory_equal(err.path, "...", 3);
    assert_int_equal(strlen(err.path), SV_ERROR_PATH_MAX - 1);
    assert_string_equal(err.path + strlen(err.path) - 4, "/0/0");
    free(s);

    /* 100000 objects {"a": ...: the 1025th '{' is at byte 1024 * 6 */
    s = repeat("", "{\"a\": ", 100000, "", &len);
    assert_int_equal(parse(s, len, NULL, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 1024 * 6);
    assert_int_equal(err.column, 1024 * 6 + 1);
    assert_string_equal(err.path + strlen(err.path) - 4, "/a/a");
    free(s);

    /* exactly 1024 levels are fine, 1025 are not */
    char *t = malloc(2 * 1025 + 1);
    memset(t, '[', 1024);
    memset(t + 1024, ']', 1024);
    assert_int_equal(parse(t, 2048, NULL, NULL, &err), SV_OK);
    memset(t, '[', 1025);
    memset(t + 1025, ']', 1025);
    assert_int_equal(parse(t, 2050, NULL, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 1024);
    free(t);
}

static void test_depth_forms(void **state)
{
    (void)state;
    size_t len;
    sv_error err;
    /* {"$array": [ is 12 bytes and 2 levels: level 512's '{' (byte 6144) is level 1025 */
    char *s = repeat("", "{\"$array\": [", 100000, "", &len);
    assert_int_equal(parse(s, len, NULL, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 6144);
    free(s);
    /* {"$rid": is 9 bytes, one level each */
    s = repeat("", "{\"$rid\": ", 100000, "", &len);
    assert_int_equal(parse(s, len, NULL, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 9216);
    free(s);
    /* $map pairs: {"$map": [[ is 11 bytes and 3 levels, the pair's key is the next */
    s = repeat("", "{\"$map\": [[", 100000, "", &len);
    assert_int_equal(parse(s, len, NULL, NULL, &err), SV_ERR_DEPTH);
    /* 341 levels make depth 1023; level 342's '{' is 1024, its '[' (byte 9 of it) 1025 */
    assert_int_equal(err.byte_offset, 341 * 11 + 9);
    free(s);

    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.limits.max_depth = 2;
    static const char t1[] = "{\"$vector3\": [1, 2, 3]}";
    assert_int_equal(parse(t1, sizeof t1 - 1, &o, NULL, &err), SV_OK);
    static const char t2[] = "[{\"$vector3\": [1, 2, 3]}]";
    expect(t2, sizeof t2 - 1, &o, SV_ERR_DEPTH, 14, 1, 15);
    static const char t3[] = "{\"$packed_vector3\": [[1, 2, 3]]}";
    expect(t3, sizeof t3 - 1, &o, SV_ERR_DEPTH, 21, 1, 22);
    static const char t4[] = "[[[]]]";
    expect(t4, sizeof t4 - 1, &o, SV_ERR_DEPTH, 2, 1, 3);
    o.limits.max_depth = 1;
    static const char t5[] = "{\"$array\": [1]}";
    expect(t5, sizeof t5 - 1, &o, SV_ERR_DEPTH, 11, 1, 12);
    static const char t6[] = "{\"$i32\": 1}";
    assert_int_equal(parse(t6, sizeof t6 - 1, &o, NULL, &err), SV_OK);
}

/* A limit above SV_MAX_DEPTH_LIMIT is held to it: nesting up to the cap
 * reads (arrays and "$array" forms), and 300,000 levels stop with a depth
 * error at the cap instead of costing the stack of every walk that follows
 * (the writer, conversions). */
static void test_depth_capped(void **state)
{
    (void)state;
    size_t n = 300000, len;
    char *s = malloc(2 * n + 1);
    memset(s, '[', n);
    memset(s + n, ']', n);
    len = 2 * n;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.limits.max_depth = (uint32_t)n;
    sv_error err;
    assert_int_equal(parse(s, len, &o, NULL, &err), SV_ERR_DEPTH);
    size_t cap = SV_MAX_DEPTH_LIMIT;
    memmove(s + cap, s + n, cap); /* cap '[' then cap ']' */
    assert_int_equal(parse(s, 2 * cap, &o, NULL, &err), SV_OK);
    assert_int_equal(parse(s, 2 * cap, NULL, NULL, &err), SV_ERR_DEPTH); /* default 1024 */
    free(s);
    size_t forms = SV_MAX_DEPTH_LIMIT / 2 - 1; /* a form may count twice: its object and its array */
    s = repeat("", "{\"$array\": [", forms, "", &len);
    char *t = malloc(len + forms * 2 + 1);
    memcpy(t, s, len);
    for (size_t i = 0; i < forms; i++)
        memcpy(t + len + 2 * i, "]}", 2);
    assert_int_equal(parse(t, len + 2 * forms, &o, NULL, &err), SV_OK);
    free(s);
    free(t);
}

/* ---- numbers ------------------------------------------------------------------------------ */

static double parse_f64(const char *text, size_t len)
{
    sv_value v;
    sv_error err;
    assert_int_equal(parse(text, len, NULL, &v, &err), SV_OK);
    assert_int_equal(v.kind, SV_FLOAT);
    return v.as.f64;
}

static void test_huge_numbers(void **state)
{
    (void)state;
    size_t len;
    sv_error err;
    char *s = repeat("1", "0", 400, "", &len); /* 10^400 */
    expect(s, len, NULL, SV_ERR_RANGE, 0, 1, 1);
    free(s);
    s = repeat("[-1", "0", 400, "]", &len);
    expect(s, len, NULL, SV_ERR_RANGE, 1, 1, 2);
    free(s);
    s = repeat("1", "0", 308, "", &len); /* 10^308 exactly as an integer literal */
    assert_true(parse_f64(s, len) == 1e308);
    free(s);
    s = repeat("", "1", 100000, "", &len);
    expect(s, len, NULL, SV_ERR_RANGE, 0, 1, 1);
    free(s);
    s = repeat("0.", "0", 100000, "1", &len); /* 10^-100001 */
    assert_true(parse_f64(s, len) == 0.0);
    free(s);
    s = repeat("0.", "3", 100000, "", &len);
    assert_true(parse_f64(s, len) == strtod(s, NULL));
    free(s);
    s = repeat("-", "9", 30, "", &len);
    assert_true(parse_f64(s, len) == strtod(s, NULL));
    free(s);
    /* 10^-1000 * 10^1000 is exactly 1 */
    s = repeat("0.", "0", 999, "1e1000", &len);
    assert_true(parse_f64(s, len) == 1.0);
    free(s);
    s = repeat("1", "0", 25, ".0e-25", &len);
    assert_true(parse_f64(s, len) == 1.0);
    free(s);
    s = repeat("123456789", "0", 10000, "e-10000", &len);
    assert_true(parse_f64(s, len) == 123456789.0);
    free(s);
    static const char e1[] = "1e-99999999999999999999999999";
    assert_true(parse_f64(e1, sizeof e1 - 1) == 0.0);
    static const char e2[] = "-1e99999999999999999999999999";
    expect(e2, sizeof e2 - 1, NULL, SV_ERR_RANGE, 0, 1, 1);

    /* in forms */
    s = repeat("{\"$f32\": 1", "0", 39, "}", &len);
    expect(s, len, NULL, SV_ERR_RANGE, 9, 1, 10);
    free(s);
    s = repeat("{\"$f32\": 0.", "0", 60, "1}", &len);
    assert_int_equal(parse(s, len, NULL, NULL, &err), SV_OK);
    free(s);
    s = repeat("{\"$i64\": ", "9", 100, "}", &len);
    expect(s, len, NULL, SV_ERR_RANGE, 9, 1, 10);
    free(s);
    s = repeat("{\"$u64s\": [", "9", 10000, "]}", &len);
    expect(s, len, NULL, SV_ERR_RANGE, 11, 1, 12);
    free(s);
    static const char f1[] = "{\"$u8s\": [1e400]}";
    expect(f1, sizeof f1 - 1, NULL, SV_ERR_TYPE, 10, 1, 11);
    static const char f2[] = "{\"$f64s\": [1, 1e400]}";
    expect(f2, sizeof f2 - 1, NULL, SV_ERR_RANGE, 14, 1, 15);
    static const char f3[] = "{\"$class\": 18446744073709551616}";
    expect(f3, sizeof f3 - 1, NULL, SV_ERR_RANGE, 11, 1, 12);
}

/* ---- strings and limits --------------------------------------------------------------------- */

static void test_max_string(void **state)
{
    (void)state;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.limits.max_string = 10;
    sv_error err;
    static const char ok1[] = "\"0123456789\"";
    assert_int_equal(parse(ok1, sizeof ok1 - 1, &o, NULL, &err), SV_OK);
    static const char bad1[] = "\"01234567890\"";
    expect(bad1, sizeof bad1 - 1, &o, SV_ERR_LIMIT, 0, 1, 1);
    /* the limit is on decoded bytes: ten "\n" escapes are ten bytes */
    static const char ok2[] = "[\"\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\"]";
    assert_int_equal(parse(ok2, sizeof ok2 - 1, &o, NULL, &err), SV_OK);
    static const char bad2[] = "[\"\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\"]";
    expect(bad2, sizeof bad2 - 1, &o, SV_ERR_LIMIT, 1, 1, 2);
    static const char bad3[] = "{\"01234567890\": 1}";
    expect(bad3, sizeof bad3 - 1, &o, SV_ERR_LIMIT, 1, 1, 2);
    static const char bad4[] = "{\"$class\": \"01234567890\"}";
    expect(bad4, sizeof bad4 - 1, &o, SV_ERR_LIMIT, 11, 1, 12);
    static const char bad5[] = "{\"$utf16\": \"01234567890\"}";
    expect(bad5, sizeof bad5 - 1, &o, SV_ERR_LIMIT, 11, 1, 12);
    /* bytes: the limit is on the decoded bytes, 16 base64 characters hold 10 */
    static const char ok3[] = "{\"$bytes\": \"AAAAAAAAAAAAAA==\"}";
    assert_int_equal(parse(ok3, sizeof ok3 - 1, &o, NULL, &err), SV_OK);
    static const char bad6[] = "{\"$bytes\": \"AAAAAAAAAAAAAAA=\"}";
    expect(bad6, sizeof bad6 - 1, &o, SV_ERR_LIMIT, 11, 1, 12);

    /* a 4 MiB string: fine by default, over a 1000-byte limit on line 2 */
    size_t len;
    char *s = repeat("\n\"", "abcdefgh", 512 * 1024, "\"", &len);
    sv_value v;
    assert_int_equal(parse(s, len, NULL, &v, &err), SV_OK);
    assert_int_equal(v.len, 4u << 20);
    o.limits.max_string = 1000;
    expect(s, len, &o, SV_ERR_LIMIT, 1, 2, 1);
    free(s);
}

static void test_max_alloc(void **state)
{
    (void)state;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.limits.max_alloc = 256 * 1024;
    size_t len;
    sv_error err;
    /* 500001 zeros: 8 MB of values for a 1 MB text */
    char *s = repeat("[", "0,", 500000, "0]", &len);
    test_alloc ta;
    test_alloc_init(&ta, 0);
    sv_doc *doc = sv_doc_new(&ta.alloc);
    sv_value v;
    assert_int_equal(sv_json_decode(doc, s, len, &o, &v, &err), SV_ERR_LIMIT);
    assert_true(err.byte_offset < len);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, err.byte_offset + 1);
    assert_true(sv_doc_allocated(doc) <= o.limits.max_alloc);
    assert_true(ta.peak_bytes <= (int64_t)o.limits.max_alloc + 4096);
    sv_doc_free(doc);
    assert_int_equal(ta.live_bytes, 0);
    free(s);

    /* the same for a packed array and for one long string */
    s = repeat("{\"$f64s\": [", "0,", 500000, "0]}", &len);
    assert_int_equal(parse(s, len, &o, NULL, &err), SV_ERR_LIMIT);
    free(s);
    s = repeat("\"", "a", 1000000, "\"", &len);
    expect(s, len, &o, SV_ERR_LIMIT, 0, 1, 1);
    free(s);
    /* many distinct keys */
    char *t = malloc(40 * 20000 + 16);
    size_t n = 0;
    t[n++] = '{';
    for (int i = 0; i < 20000; i++)
        n += (size_t)sprintf(t + n, "%s\"key%d\": %d", i ? ", " : "", i, i);
    t[n++] = '}';
    assert_int_equal(parse(t, n, &o, NULL, &err), SV_ERR_LIMIT);
    /* and without the limit it all fits */
    assert_int_equal(parse(t, n, NULL, NULL, &err), SV_OK);
    free(t);
}

/* Each allocation of the document failing in turn: NOMEM (or LIMIT from a
 * failed table growth), never a crash, and nothing leaks. */
static void test_failing_allocations(void **state)
{
    (void)state;
    bool reached_ok = false;
    for (long fail_at = 2; fail_at < 200 && !reached_ok; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        sv_doc *doc = sv_doc_new(&ta.alloc);
        assert_non_null(doc);
        sv_value v;
        sv_error err;
        sv_status st = sv_json_decode(doc, doc_typed, sizeof doc_typed - 1, NULL, &v, &err);
        if (st == SV_OK) {
            reached_ok = true;
        } else {
            assert_int_equal(st, SV_ERR_NOMEM);
            assert_true(err.byte_offset < sizeof doc_typed - 1);
            assert_true(err.line == 1);
        }
        sv_doc_free(doc);
        assert_int_equal(ta.live_bytes, 0);
    }
    assert_true(reached_ok);
}

/* ---- invalid UTF-8 everywhere ------------------------------------------------------------------
 */

static void test_invalid_utf8_everywhere(void **state)
{
    (void)state;
    static const char base[] = "{\"key\": [\"value\", \"x\"], \"k2\": \"abc\", \"\": [\"\"]}";
    static const char *const bad[] = {"\xff",
                                      "\xfe",
                                      "\x80",
                                      "\xbf",
                                      "\xc0\xaf",
                                      "\xc1\xbf",
                                      "\xe0\x80\xaf",
                                      "\xed\xa0\x80",
                                      "\xed\xbf\xbf",
                                      "\xf0\x8f\xbf\xbf",
                                      "\xf4\x90\x80\x80",
                                      "\xf8\x88\x80\x80\x80",
                                      "\xc3",
                                      "\xe6\x97",
                                      "\xf0\x9f\x98"};
    size_t blen = sizeof base - 1;
    char buf[128];
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        size_t k = strlen(bad[b]);
        int quotes = 0;
        for (size_t i = 0; i <= blen; i++) {
            memcpy(buf, base, i);
            memcpy(buf + i, bad[b], k);
            memcpy(buf + i + k, base + i, blen - i);
            sv_status want;
            if (quotes % 2)
                want = SV_ERR_UTF8; /* inside a string */
            else if (i == blen)
                want = SV_ERR_TRAILING;
            else
                want = SV_ERR_SYNTAX;
            expect(buf, blen + k, NULL, want, i, 1, (uint32_t)i + 1);
            if (i < blen && base[i] == '"') quotes++;
        }
    }
}

/* ---- random mutations ------------------------------------------------------------------------ */

static uint64_t rng_state = UINT64_C(0x243f6a8885a308d3);

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(0x2545f4914f6cdd1d);
}

static void test_random_mutations(void **state)
{
    (void)state;
    static const char bytes[] = "{}[]\",:\\/*-+.0123456789eEtfnu$ \n\x80\xc3\xff\x00";
    const char *docs[] = {doc_typed, doc_plain, doc_pretty};
    const size_t lens[] = {sizeof doc_typed - 1, sizeof doc_plain - 1, sizeof doc_pretty - 1};
    char buf[2048];
    for (int round = 0; round < 30000; round++) {
        int d = (int)(rnd() % 3);
        size_t len = lens[d];
        memcpy(buf, docs[d], len);
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = len ? (size_t)(rnd() % len) : 0;
            char c = bytes[rnd() % (sizeof bytes - 1)];
            switch (rnd() % 4) {
            case 0: /* replace */
                if (len) buf[at] = c;
                break;
            case 1: /* insert */
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = c;
                    len++;
                }
                break;
            case 2: /* delete */
                if (len) {
                    memmove(buf + at, buf + at + 1, len - at - 1);
                    len--;
                }
                break;
            default: /* truncate */ len = at; break;
            }
        }
        sv_json_decode_opts o;
        sv_json_decode_opts_init(&o);
        o.allow_comments = rnd() % 2;
        o.plain = rnd() % 4 == 0;
        sv_error err;
        sv_status st = parse(buf, len, &o, NULL, &err);
        if (st != SV_OK) {
            assert_true(st == SV_ERR_SYNTAX || st == SV_ERR_UTF8 || st == SV_ERR_RANGE ||
                        st == SV_ERR_TYPE || st == SV_ERR_TRAILING || st == SV_ERR_TRUNCATED);
            assert_true(err.byte_offset <= len);
            assert_true(err.line >= 1 && err.column >= 1);
            assert_true(err.message[0] != '\0');
            if (st == SV_ERR_TRUNCATED) assert_int_equal(err.byte_offset, len);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncation_typed),
        cmocka_unit_test(test_truncation_plain),
        cmocka_unit_test(test_truncation_pretty_comments),
        cmocka_unit_test(test_depth_default),
        cmocka_unit_test(test_depth_forms),
        cmocka_unit_test(test_depth_capped),
        cmocka_unit_test(test_huge_numbers),
        cmocka_unit_test(test_max_string),
        cmocka_unit_test(test_max_alloc),
        cmocka_unit_test(test_failing_allocations),
        cmocka_unit_test(test_invalid_utf8_everywhere),
        cmocka_unit_test(test_random_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
