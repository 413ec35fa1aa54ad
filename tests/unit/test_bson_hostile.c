/* The BSON reader on hostile input: lengths that lie, every truncation of a
 * vector, bad terminators, keys and strings that run off their document,
 * invalid UTF-8, unknown types, deep nesting, the string and allocation
 * limits. Each input is an exact-size copy so ASan sees any overread; every
 * error has a status, a message, the byte offset and the tree path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_resonite.h"
#include "serval/bson.h"
#include "serval/serval.h"

static sv_status decode(const void *bytes, size_t len, const sv_bson_opts *o, sv_error *err)
{
    uint8_t *copy = rs_copy(bytes, len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error_clear(err);
    sv_status st = sv_bson_decode(doc, copy, len, o, &v, err);
    sv_doc_free(doc);
    free(copy);
    return st;
}

static void expect(const char *bytes, size_t len, sv_status st, uint64_t off, const char *path)
{
    sv_error err = {0};
    sv_status got = decode(bytes, len, NULL, &err);
    if (got != st || err.byte_offset != off || strcmp(err.path, path) != 0)
        fail_msg("got %s at %llu path '%s' (%s), want %s at %llu path '%s'", sv_status_name(got),
                 (unsigned long long)err.byte_offset, err.path, err.message, sv_status_name(st),
                 (unsigned long long)off, path);
    assert_string_equal(err.format, "bson");
    assert_true(err.message[0] != 0);
}

#define EXPECT(lit, st, off, path) expect(lit, sizeof lit - 1, st, off, path)

static void test_lengths_that_lie(void **state)
{
    (void)state;
    EXPECT("", SV_ERR_TRUNCATED, 0, "");
    EXPECT("\x05\x00\x00", SV_ERR_TRUNCATED, 0, "");
    EXPECT("\x06\x00\x00\x00\x00", SV_ERR_TRUNCATED, 0, ""); /* says 6, has 5 */
    EXPECT("\x04\x00\x00\x00\x00", SV_ERR_SYNTAX, 0, "");    /* below 5 */
    EXPECT("\xff\xff\xff\xff\x00", SV_ERR_SYNTAX, 0, "");    /* negative */
    EXPECT("\x05\x00\x00\x00\x01", SV_ERR_SYNTAX, 4, "");    /* no 00 at the end */
    EXPECT("\x05\x00\x00\x00\x00\x00", SV_ERR_TRAILING, 5, "");
    /* a 00 type byte before the end the length says */
    EXPECT("\x07\x00\x00\x00\x00\x00\x00", SV_ERR_SYNTAX, 4, "");
    /* key without its NUL inside the document */
    EXPECT("\x08\x00\x00\x00\x0a\x61\x62\x00", SV_ERR_TRUNCATED, 5, "");
    /* string length past its document (says 16, 2 there) */
    EXPECT("\x0f\x00\x00\x00\x02\x73\x00\x10\x00\x00\x00\x61\x00\x00\x00", SV_ERR_TRUNCATED, 7,
           "/s");
    /* string length 0 (the NUL is counted, so 1 is the least) */
    EXPECT("\x0d\x00\x00\x00\x02\x73\x00\x00\x00\x00\x00\x00\x00", SV_ERR_SYNTAX, 7, "/s");
    /* string that does not end with 00 */
    EXPECT("\x0e\x00\x00\x00\x02\x73\x00\x02\x00\x00\x00\x61\x62\x00", SV_ERR_SYNTAX, 12, "/s");
    /* a sub-document longer than what its parent has left */
    EXPECT("\x0e\x00\x00\x00\x03\x64\x00\x09\x00\x00\x00\x00\x00\x00", SV_ERR_TRUNCATED, 7, "/d");
    /* an int64 cut by its document's end */
    EXPECT("\x0c\x00\x00\x00\x12\x6e\x00\x01\x00\x00\x00\x00", SV_ERR_TRUNCATED, 7, "/n");
    /* binary length past the end, negative binary length */
    EXPECT("\x0f\x00\x00\x00\x05\x62\x00\x09\x00\x00\x00\x00\x01\x02\x00", SV_ERR_TRUNCATED, 12,
           "/b");
    EXPECT("\x0d\x00\x00\x00\x05\x62\x00\xff\xff\xff\xff\x00\x00", SV_ERR_SYNTAX, 7, "/b");
    /* subtype 2 whose inner length is not the outer one minus 4 */
    EXPECT("\x14\x00\x00\x00\x05\x62\x00\x07\x00\x00\x00\x02\x05\x00\x00\x00\x01\x02\x03\x00",
           SV_ERR_SYNTAX, 12, "/b");
}

static void test_bad_values(void **state)
{
    (void)state;
    EXPECT("\x09\x00\x00\x00\x08\x62\x00\x02\x00", SV_ERR_SYNTAX, 7, "/b"); /* bool 2 */
    EXPECT("\x08\x00\x00\x00\x14\x78\x00\x00", SV_ERR_SYNTAX, 4,
           ""); /* type 0x14, before its key */
    EXPECT("\x08\x00\x00\x00\x80\x78\x00\x00", SV_ERR_SYNTAX, 4, ""); /* type 0x80 */
    /* invalid UTF-8: a lone continuation byte in a value, an overlong key */
    EXPECT("\x0e\x00\x00\x00\x02\x73\x00\x02\x00\x00\x00\x80\x00\x00", SV_ERR_UTF8, 11, "/s");
    EXPECT("\x09\x00\x00\x00\x0a\xc0\x80\x00\x00", SV_ERR_UTF8, 5, "");
    /* an encoded surrogate (ED A0 80) */
    EXPECT("\x10\x00\x00\x00\x02\x73\x00\x04\x00\x00\x00\xed\xa0\x80\x00\x00", SV_ERR_UTF8, 11,
           "/s");
    /* code_w_scope whose total does not match its parts: it says 18 bytes,
     * its int32 + string "x" (6) + empty scope (5) take 15, ending at 22 */
    EXPECT("\x1e\x00\x00\x00\x0f\x63\x00\x12\x00\x00\x00\x02\x00\x00\x00\x78\x00\x05\x00\x00"
           "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
           SV_ERR_SYNTAX, 22, "/c");
    /* paths through arrays and documents */
    EXPECT("\x18\x00\x00\x00\x04\x61\x00\x10\x00\x00\x00\x0a\x30\x00\x08\x31\x00\x07\x00\x00\x00"
           "\x00\x00\x00",
           SV_ERR_SYNTAX, 17, "/a/1");
}

/* Every cut of a real vector, made a complete document again (length
 * patched, terminator added): either it still decodes (the cut fell between
 * elements) and then writes back the same bytes, or it fails with a message
 * at an offset inside the input. Never anything else. */
static void test_every_cut(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *v = rs_read_file("vectors/bson/all_types.bson", &len);
    assert_non_null(v);
    size_t ok = 0, bad = 0;
    for (size_t k = 4; k < len - 1; k++) {
        uint8_t *b = rs_copy(v, k + 1);
        b[k] = 0;
        b[0] = (uint8_t)(k + 1);
        b[1] = (uint8_t)((k + 1) >> 8);
        b[2] = b[3] = 0;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value tree;
        sv_error err = {0};
        sv_error_clear(&err);
        if (sv_bson_decode(doc, b, k + 1, NULL, &tree, &err) == SV_OK) {
            sv_buf out;
            sv_buf_init(&out, NULL);
            assert_int_equal(sv_bson_encode(&tree, NULL, &out, &err), SV_OK);
            assert_int_equal(out.len, k + 1);
            assert_memory_equal(out.data, b, k + 1);
            sv_buf_free(&out);
            ok++;
        } else {
            assert_true(err.message[0] != 0);
            assert_true(err.byte_offset <= k);
            bad++;
        }
        sv_doc_free(doc);
        free(b);
    }
    /* the cuts at the 25 element boundaries (the first is the empty doc) */
    assert_int_equal(ok, 25);
    assert_true(bad > 300);
    free(v);
}

/* {"a": {"a": ... {}}} nested n deep (the root counts as 1). */
static uint8_t *nested(size_t n, size_t *len)
{
    *len = 5 + (n - 1) * 8;
    uint8_t *b = malloc(*len);
    for (size_t i = 0; i < n - 1; i++) {
        uint32_t l = (uint32_t)(*len - i * 7 - i);
        l = (uint32_t)(5 + (n - 1 - i) * 8);
        memcpy(b + i * 7, &l, 4);
        b[i * 7 + 4] = 0x03;
        b[i * 7 + 5] = 'a';
        b[i * 7 + 6] = 0;
    }
    size_t inner = (n - 1) * 7;
    const uint8_t empty[5] = {5, 0, 0, 0, 0};
    memcpy(b + inner, empty, 5);
    memset(b + inner + 5, 0, n - 1); /* the terminators of the outer levels */
    return b;
}

static void test_depth(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *b = nested(3000, &len);
    sv_error err = {0};
    assert_int_equal(decode(b, len, NULL, &err), SV_ERR_DEPTH);
    assert_int_equal(err.byte_offset, 1024 * 7); /* the 1025th document */
    free(b);
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.limits.max_depth = 10;
    b = nested(10, &len);
    assert_int_equal(decode(b, len, &o, &err), SV_OK);
    free(b);
    b = nested(11, &len);
    assert_int_equal(decode(b, len, &o, &err), SV_ERR_DEPTH);
    assert_string_equal(err.path, "/a/a/a/a/a/a/a/a/a/a"); /* the 11th level */
    free(b);
    /* a limit above the reader's own recursion bound is clamped to it */
    o.limits.max_depth = 1000000;
    b = nested(5000, &len);
    assert_int_equal(decode(b, len, &o, &err), SV_ERR_DEPTH);
    free(b);
}

static void test_limits(void **state)
{
    (void)state;
    /* a 100-byte string against max_string 50 */
    uint8_t s[4 + 3 + 4 + 101 + 1];
    uint32_t total = sizeof s, sl = 101;
    memcpy(s, &total, 4);
    s[4] = 0x02, s[5] = 's', s[6] = 0;
    memcpy(s + 7, &sl, 4);
    memset(s + 11, 'x', 100);
    s[111] = 0;
    s[112] = 0;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.limits.max_string = 50;
    sv_error err = {0};
    assert_int_equal(decode(s, sizeof s, &o, &err), SV_ERR_LIMIT);
    assert_int_equal(err.byte_offset, 7);
    o.limits.max_string = 100;
    assert_int_equal(decode(s, sizeof s, &o, &err), SV_OK);

    /* 100000 nulls in one array against a 1 MiB allocation cap: refused,
     * the peak stays near the cap */
    size_t n = 100000, len = 4 + 3 + 4 + n * 7 + 1 + 1;
    uint8_t *b = malloc(len), *p = b;
    uint32_t l = (uint32_t)len, al = (uint32_t)(len - 7 - 1);
    memcpy(p, &l, 4);
    p += 4;
    *p++ = 0x04, *p++ = 'a', *p++ = 0;
    memcpy(p, &al, 4);
    p += 4;
    for (size_t i = 0; i < n; i++) {
        int k = snprintf((char *)p + 1, 8, "%zu", i);
        *p = 0x0a;
        p += 1 + k + 1;
    }
    *p++ = 0;
    *p++ = 0;
    len = (size_t)(p - b);
    l = (uint32_t)len;
    memcpy(b, &l, 4);
    al = (uint32_t)(len - 7 - 1);
    memcpy(b + 7, &al, 4);
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    o.limits.max_string = 0;
    o.limits.max_alloc = 1 << 20;
    sv_value v;
    sv_error_clear(&err);
    assert_int_equal(sv_bson_decode(doc, b, len, &o, &v, &err), SV_ERR_LIMIT);
    assert_true(t.peak_bytes < (2 << 20));
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
    /* and without the cap it decodes */
    doc = sv_doc_new(NULL);
    o.limits.max_alloc = 0;
    assert_int_equal(sv_bson_decode(doc, b, len, &o, &v, &err), SV_OK);
    assert_int_equal(sv_len(sv_map_getz(&v, "a")), n);
    sv_doc_free(doc);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lengths_that_lie), cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_every_cut),        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
