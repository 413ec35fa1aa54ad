/* The typed JSON writer (sv_json_encode). Every expected text below comes from
 * docs/json.md: the mapping tables, "Numbers", "Strings and bytes" and
 * "Writing" (pretty layout and plain mode), written out by hand or, for
 * repetitive rows, built by a few lines of independent code. */
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
#include "helper_tree.h"
#include "serval/serval.h"

/* ---- helpers -------------------------------------------------------------- */

static void check_with(sv_value v, int indent, bool plain, const char *expected, size_t exp_len)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.indent = indent;
    o.plain = plain;
    sv_status st = sv_json_encode(&v, &o, &b, &err);
    if (st != SV_OK) {
        char msg[400];
        sv_error_format(&err, msg, sizeof msg);
        sv_buf_free(&b);
        fail_msg("write failed: %s (expected %s)", msg, expected);
    }
    if (b.len != exp_len || memcmp(b.data, expected, exp_len) != 0) {
        fprintf(stderr, "got:      %.*s\nexpected: %s\n", (int)b.len, (const char *)b.data,
                expected);
        sv_buf_free(&b);
        fail_msg("output differs");
    }
    sv_buf_free(&b);
}

#define CHECK(v, exp) check_with((v), 0, false, (exp), sizeof(exp) - 1)
#define CHECK_PRETTY(v, n, exp) check_with((v), (n), false, (exp), sizeof(exp) - 1)
#define CHECK_PLAIN(v, exp) check_with((v), 0, true, (exp), sizeof(exp) - 1)
#define CHECK_PLAIN_PRETTY(v, n, exp) check_with((v), (n), true, (exp), sizeof(exp) - 1)

static void check_str(sv_value v, const char *expected)
{
    check_with(v, 0, false, expected, strlen(expected));
}

/* Writes v expecting failure; returns the error (status checked). */
static sv_error expect_fail(sv_value v, bool plain, sv_status expected)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_append(&b, "xyz", 3);
    sv_error err;
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.plain = plain;
    sv_status st = sv_json_encode(&v, &o, &b, &err);
    assert_int_equal(st, expected);
    assert_int_equal(err.status, expected);
    /* the buffer is left as it was */
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, "xyz", 3);
    sv_buf_free(&b);
    return err;
}

static sv_value S(const char *s)
{
    return sv_strz(test_doc, s);
}
static sv_value SN(const char *s, size_t n)
{
    return sv_str(test_doc, s, n);
}

static sv_value with_meta(sv_value c, sv_value meta)
{
    assert_int_equal(sv_meta_set(test_doc, &c, meta), SV_OK);
    return c;
}

static sv_value f64_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return sv_f64(d);
}

static sv_value f32_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return sv_f32(f);
}

static float f32_of(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static sv_value utf16(const char *s, size_t n)
{
    return sv_with_flags(SN(s, n), SV_F_UTF16);
}

static sv_value vec3(float x, float y, float z)
{
    float d[3] = {x, y, z};
    return sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, d);
}

/* ---- scalars ---------------------------------------------------------------- */

static void test_null_bool(void **state)
{
    (void)state;
    CHECK(sv_null(), "null");
    CHECK(sv_bool(true), "true");
    CHECK(sv_bool(false), "false");
}

static void test_ints(void **state)
{
    (void)state;
    CHECK(sv_int(-12), "-12");
    CHECK(sv_int(0), "0");
    /* beyond ±2^53 in a string (docs/json.md, "Integers beyond 2^53") */
    CHECK(sv_int(INT64_MIN), "{\"$int\":\"-9223372036854775808\"}");
    CHECK(sv_int(INT64_MAX), "{\"$int\":\"9223372036854775807\"}");
    CHECK(sv_int_w(-1, 1), "{\"$i8\":-1}");
    CHECK(sv_int_w(-128, 1), "{\"$i8\":-128}");
    CHECK(sv_int_w(300, 2), "{\"$i16\":300}");
    CHECK(sv_int_w(-32768, 2), "{\"$i16\":-32768}");
    CHECK(sv_int_w(5, 4), "{\"$i32\":5}");
    CHECK(sv_int_w(INT32_MIN, 4), "{\"$i32\":-2147483648}");
    CHECK(sv_int_w(5, 8), "{\"$i64\":5}");
    CHECK(sv_int_w(INT64_MIN, 8), "{\"$i64\":\"-9223372036854775808\"}");
    /* a narrow width is kept whether or not it is marked explicit */
    sv_value v = sv_int_w(7, 4);
    v.flags = 0;
    CHECK(v, "{\"$i32\":7}");
}

static void test_uints(void **state)
{
    (void)state;
    CHECK(sv_uint(UINT64_MAX), "{\"$uint\":\"18446744073709551615\"}");
    CHECK(sv_uint(UINT64_C(9223372036854775808)), "{\"$uint\":\"9223372036854775808\"}");
    /* a plain literal would read back as an int; beyond 2^53, $uint */
    CHECK(sv_uint(5), "{\"$u64\":5}");
    CHECK(sv_uint(INT64_MAX), "{\"$u64\":\"9223372036854775807\"}");
    CHECK(sv_uint_w(UINT64_MAX, 8), "{\"$u64\":\"18446744073709551615\"}");
    CHECK(sv_uint_w(255, 1), "{\"$u8\":255}");
    CHECK(sv_uint_w(65535, 2), "{\"$u16\":65535}");
    CHECK(sv_uint_w(4294967295u, 4), "{\"$u32\":4294967295}");
    CHECK(sv_uint_w(0, 4), "{\"$u32\":0}");
}

static void test_float64(void **state)
{
    (void)state;
    CHECK(sv_f64(1.5), "1.5");
    CHECK(sv_f64(-0.0), "-0.0");
    CHECK(sv_f64(0.0), "0.0");
    CHECK(sv_f64(100.0), "100.0");
    CHECK(sv_f64(123.25), "123.25");
    CHECK(sv_f64(0.001), "0.001");
    CHECK(sv_f64(0.1), "0.1");
    CHECK(sv_f64(1e300), "1e+300");
    CHECK(sv_f64(1e21), "1e+21");
    CHECK(sv_f64(5e-324), "5e-324");
    CHECK(sv_f64((double)0.1f), "0.10000000149011612");
    CHECK(sv_with_flags(sv_f64(1.5), SV_F_EXPLICIT), "{\"$f64\":1.5}");
    CHECK(sv_with_flags(sv_f64(-0.0), SV_F_EXPLICIT), "{\"$f64\":-0.0}");
}

static void test_float64_nonfinite(void **state)
{
    (void)state;
    CHECK(f64_bits(UINT64_C(0x7ff8000000000000)), "{\"$f64\":\"nan\"}");
    CHECK(f64_bits(UINT64_C(0x7ff0000000000000)), "{\"$f64\":\"inf\"}");
    CHECK(f64_bits(UINT64_C(0xfff0000000000000)), "{\"$f64\":\"-inf\"}");
    CHECK(f64_bits(UINT64_C(0x7ff8000000000001)), "{\"$f64\":\"nan:0x7ff8000000000001\"}");
    CHECK(f64_bits(UINT64_C(0xfff8000000000000)), "{\"$f64\":\"nan:0xfff8000000000000\"}");
    CHECK(f64_bits(UINT64_C(0x7ff0000000000001)), "{\"$f64\":\"nan:0x7ff0000000000001\"}");
    CHECK(sv_with_flags(f64_bits(UINT64_C(0x7ff0000000000000)), SV_F_EXPLICIT),
          "{\"$f64\":\"inf\"}");
}

static void test_float32(void **state)
{
    (void)state;
    CHECK(sv_f32(0.1f), "{\"$f32\":0.1}");
    CHECK(sv_f32(1.5f), "{\"$f32\":1.5}");
    CHECK(sv_f32(-0.0f), "{\"$f32\":-0.0}");
    CHECK(sv_f32(16777216.0f), "{\"$f32\":16777216.0}");
    CHECK(sv_f32(f32_of(0x7f7fffffu)), "{\"$f32\":3.4028235e+38}");
    CHECK(sv_f32(f32_of(0x00000001u)), "{\"$f32\":1e-45}");
    CHECK(f32_bits(0x7fc00000u), "{\"$f32\":\"nan\"}");
    CHECK(f32_bits(0xffc00000u), "{\"$f32\":\"nan:0xffc00000\"}");
    CHECK(f32_bits(0x7fc00001u), "{\"$f32\":\"nan:0x7fc00001\"}");
    CHECK(f32_bits(0x7f800000u), "{\"$f32\":\"inf\"}");
    CHECK(f32_bits(0xff800000u), "{\"$f32\":\"-inf\"}");
}

static void test_refs(void **state)
{
    (void)state;
    CHECK(sv_ref(12), "{\"$ref\":12}");
    CHECK(sv_ref(UINT64_MAX), "{\"$ref\":\"18446744073709551615\"}");
    CHECK(sv_ref_null(), "{\"$ref\":null}");
}

/* ---- strings and bytes ---------------------------------------------------- */

static void test_strings(void **state)
{
    (void)state;
    CHECK(S(""), "\"\"");
    CHECK(S("text"), "\"text\"");
    CHECK(S("a\"b\\c"), "\"a\\\"b\\\\c\"");
    /* '/', DEL and non-ASCII are written as they are */
    CHECK(S("a/b\x7f"), "\"a/b\x7f\"");
    CHECK(S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    CHECK(SN("a\0b", 3), "\"a\\u0000b\"");
    /* every printable ASCII character but '"' and '\\' is written as it is */
    char all[128], exp[140];
    size_t n = 0, m = 0;
    exp[m++] = '"';
    for (int c = 0x20; c < 0x80; c++) {
        if (c == '"' || c == '\\') continue;
        all[n++] = (char)c;
        exp[m++] = (char)c;
    }
    exp[m++] = '"';
    exp[m] = '\0';
    check_str(SN(all, n), exp);
}

static void test_control_escapes(void **state)
{
    (void)state;
    char ctl[33];
    for (int c = 0; c < 32; c++)
        ctl[c] = (char)c;
    ctl[32] = 0x7f;
    CHECK(SN(ctl, 33), "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
                       "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                       "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                       "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\x7f\"");
}

/* A special character at every position of strings of 1..24 bytes: the
 * 8-byte scan must find it wherever it sits in a word or in the tail. */
static void test_escape_positions(void **state)
{
    (void)state;
    static const char specials[] = {'"', '\\', '\n', 0x01, 0x1f, 0x00};
    static const char *const escaped[] = {"\\\"", "\\\\", "\\n", "\\u0001", "\\u001f", "\\u0000"};
    for (size_t k = 0; k < sizeof specials; k++) {
        for (size_t len = 1; len <= 24; len++) {
            for (size_t pos = 0; pos < len; pos++) {
                char in[32], exp[64];
                memset(in, '!', len); /* '!' = 0x21, next to '"' */
                in[pos] = specials[k];
                size_t m = 0;
                exp[m++] = '"';
                for (size_t i = 0; i < len; i++) {
                    if (i == pos) {
                        memcpy(exp + m, escaped[k], strlen(escaped[k]));
                        m += strlen(escaped[k]);
                    } else {
                        exp[m++] = '!';
                    }
                }
                exp[m++] = '"';
                exp[m] = '\0';
                check_str(SN(in, len), exp);
            }
        }
    }
}

/* Strings of 1 to 40 bytes as array items, as map keys and as values of
 * objects, each with one byte that needs an escape, or one non-ASCII
 * character, at every position: the writer copies short strings without
 * escapes whole (up to 32 bytes, in overlapping pieces) and sends the rest
 * to its escaping loop; every length on either side of each piece size must
 * come out as docs/json.md says. */
static void test_short_string_pieces(void **state)
{
    (void)state;
    static const char *const specials[] = {"\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9"};
    static const char *const written[] = {"\\\"", "\\\\", "\\n", "\\u0001", "\x7f", "\xc3\xa9"};
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
        size_t sn = strlen(specials[k]);
        for (size_t len = 1; len <= 40; len++) {
            for (size_t pos = 0; pos + sn <= len; pos++) {
                char in[48], text[128], exp[256];
                memset(in, 'a' + (char)(len % 26), len);
                memcpy(in + pos, specials[k], sn);
                size_t m = 0;
                text[m++] = '"';
                memset(text + m, 'a' + (char)(len % 26), pos);
                m += pos;
                memcpy(text + m, written[k], strlen(written[k]));
                m += strlen(written[k]);
                memset(text + m, 'a' + (char)(len % 26), len - pos - sn);
                m += len - pos - sn;
                text[m++] = '"';
                text[m] = '\0';
                snprintf(exp, sizeof exp, "[%s,%s]", text, text);
                check_str(tree_arr(2, SN(in, len), SN(in, len)), exp);
                snprintf(exp, sizeof exp, "{%s:1,\"b\":%s}", text, text);
                check_str(tree_map(2, SN(in, len), sv_int(1), S("b"), SN(in, len)), exp);
                snprintf(exp, sizeof exp, "{\"$class\":\"C\",\"s\":%s}", text);
                check_str(tree_obj(S("C"), 1, "s", SN(in, len)), exp);
            }
        }
    }
}

/* Strings of 1 to 40 bytes with every byte different, each in a block of
 * exactly its own size (the sanitizer build then catches a load past its
 * end): strings up to 32 bytes are read and stored in overlapping pieces
 * whose offsets follow from the length, and a piece read or stored at a
 * wrong offset shows as a wrong letter. Written as items of an array and of
 * a small array, as a map key and as an object field; the text is the
 * string in quotes. */
static void test_short_strings_every_length(void **state)
{
    (void)state;
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (size_t len = 1; len <= 40; len++) {
        char *block = malloc(len);
        assert_non_null(block);
        memcpy(block, letters, len);
        sv_value s = SN(block, len);
        s.as.str = block; /* the value reads the block itself */
        char exp[256];
        int n = (int)len;
        snprintf(exp, sizeof exp, "[\"%.*s\",1,\"%.*s\"]", n, letters, n, letters);
        check_str(tree_arr(3, s, sv_int(1), s), exp);
        snprintf(exp, sizeof exp, "[[\"%.*s\",\"%.*s\"],[2,\"%.*s\"]]", n, letters, n, letters, n,
                 letters);
        check_str(tree_arr(2, tree_arr(2, s, s), tree_arr(2, sv_int(2), s)), exp);
        snprintf(exp, sizeof exp, "{\"%.*s\":1,\"b\":\"%.*s\"}", n, letters, n, letters);
        check_str(tree_map(2, s, sv_int(1), S("b"), s), exp);
        snprintf(exp, sizeof exp, "{\"$class\":\"C\",\"s\":\"%.*s\"}", n, letters);
        check_str(tree_obj(S("C"), 1, "s", s), exp);
        free(block);
    }
}

/* true and false as items, small-array items, map values and fields, in
 * runs that change from one to the next (the inline writer picks the text
 * with a mask), compact and pretty. */
static void test_bool_items(void **state)
{
    (void)state;
    sv_value t = sv_bool(true), f = sv_bool(false);
    CHECK(tree_arr(5, t, f, f, t, f), "[true,false,false,true,false]");
    CHECK(tree_arr(2, tree_arr(3, f, t, f), tree_arr(1, t)), "[[false,true,false],[true]]");
    CHECK(tree_map(3, S("a"), f, S("b"), t, S("c"), f), "{\"a\":false,\"b\":true,\"c\":false}");
    CHECK(tree_obj(S("C"), 3, "x", t, "y", f, "z", t),
          "{\"$class\":\"C\",\"x\":true,\"y\":false,\"z\":true}");
    CHECK_PRETTY(tree_arr(3, f, t, f), 1, "[\n false,\n true,\n false\n]");
    CHECK_PLAIN(tree_obj(S("C"), 2, "x", f, "y", t), "{\"x\":false,\"y\":true}");
}

static void test_long_strings(void **state)
{
    (void)state;
    /* longer than the writer's reservation steps, with 6-byte escapes */
    size_t n = 10000;
    char *in = malloc(n), *exp = malloc(n * 6 + 3);
    assert_non_null(in);
    assert_non_null(exp);
    memset(in, 0x01, n);
    exp[0] = '"';
    for (size_t i = 0; i < n; i++)
        memcpy(exp + 1 + i * 6, "\\u0001", 6);
    exp[1 + n * 6] = '"';
    exp[2 + n * 6] = '\0';
    check_str(SN(in, n), exp);

    /* a 3-byte character across 4096, and multibyte text throughout */
    memset(in, 'a', n);
    memcpy(in + 4094, "\xe2\x82\xac", 3);
    for (size_t i = 6000; i + 2 <= n; i += 2)
        memcpy(in + i, "\xc3\xa9", 2);
    exp[0] = '"';
    memcpy(exp + 1, in, n);
    exp[n + 1] = '"';
    exp[n + 2] = '\0';
    check_str(SN(in, n), exp);
    free(in);
    free(exp);
}

static void test_utf8_boundaries(void **state)
{
    (void)state;
    /* the smallest and largest code point of each length, and around the
     * surrogates: all valid, written as they are */
    static const char *const ok[] = {"\xc2\x80",         "\xdf\xbf",         "\xe0\xa0\x80",
                                     "\xed\x9f\xbf",     "\xee\x80\x80",     "\xef\xbf\xbf",
                                     "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf3\xbf\xbf\xbf"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char exp[16];
        snprintf(exp, sizeof exp, "\"%s\"", ok[i]);
        check_str(S(ok[i]), exp);
    }
}

/* Strings that are not UTF-8 take the {"$str": [pieces]} form (docs/json.md):
 * text runs, RFC 2279 characters beyond U+10FFFF by number, other bytes as
 * $u8s. The expected pieces follow from RFC 3629's table of well-formed
 * sequences; the numbers from RFC 2279's bit layout. */
static void test_invalid_utf8(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"\x80", "{\"$u8s\":[128]}"},
        {"\xbf", "{\"$u8s\":[191]}"},
        {"\xc0\x80", "{\"$u8s\":[192,128]}"},
        {"\xc1\xbf", "{\"$u8s\":[193,191]}"},
        {"\xc2", "{\"$u8s\":[194]}"},
        {"\xc2\x41", "{\"$u8s\":[194]},\"A\""},
        {"\xe0\x80\x80", "{\"$u8s\":[224,128,128]}"},
        {"\xe0\x9f\xbf", "{\"$u8s\":[224,159,191]}"},
        /* a surrogate (U+D800, U+DFFF) by its number, never as a \udXXX
         * escape (jq 1.6 refuses a lone one) */
        {"\xed\xa0\x80", "55296"},
        {"\xed\xbf\xbf", "57343"},
        {"\xe1\x80", "{\"$u8s\":[225,128]}"},
        {"\xe1\x41\x80", "{\"$u8s\":[225]},\"A\",{\"$u8s\":[128]}"},
        {"\xf0\x80\x80\x80", "{\"$u8s\":[240,128,128,128]}"},
        {"\xf0\x8f\xbf\xbf", "{\"$u8s\":[240,143,191,191]}"},
        {"\xf4\x90\x80\x80", "1114112"},
        {"\xf5\x80\x80\x80", "1310720"},
        {"\xf1\x80\x80", "{\"$u8s\":[241,128,128]}"},
        {"\xff", "{\"$u8s\":[255]}"},
        {"\xfe", "{\"$u8s\":[254]}"},
        {"\xf8\x88\x80\x80\x80", "2097152"},
        {"\xfd\xbf\xbf\xbf\xbf\xbf", "2147483647"},
        /* a surrogate pair as two 3-byte sequences stays two pieces:
         * U+D83D and U+DE00 */
        {"\xed\xa0\xbd\xed\xb8\x80", "55357,56832"},
        /* low then high, and a high one before a non-surrogate */
        {"\xed\xb8\x80\xed\xa0\xbd", "56832,55357"},
        {"\xed\xa0\x80\xed\x9f\xbf", "55296,\"\xed\x9f\xbf\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (size_t prefix = 0; prefix < 10; prefix++) {
            char in[32], exp[160];
            memset(in, 'a', prefix);
            strcpy(in + prefix, bad[i][0]);
            if (!prefix) /* the pieces alone */
                snprintf(exp, sizeof exp, "{\"$str\":[%s]}", bad[i][1]);
            else if (bad[i][1][0] == '"') /* a text piece right after the prefix joins it */
                snprintf(exp, sizeof exp, "{\"$str\":[\"%.*s%s]}", (int)prefix, in, bad[i][1] + 1);
            else
                snprintf(exp, sizeof exp, "{\"$str\":[\"%.*s\",%s]}", (int)prefix, in, bad[i][1]);
            check_str(S(in), exp);
            /* a string from UTF-16 allows lone surrogates, in the same
             * pieces inside $utf16, and nothing else */
            bool lone = bad[i][0][0] == '\xed' && strcmp(bad[i][0], "\xed\xa0\xbd\xed\xb8\x80") != 0;
            if (lone) {
                char exp16[200];
                snprintf(exp16, sizeof exp16, "{\"$utf16\":%s}", exp);
                check_str(utf16(in, strlen(in)), exp16);
            } else {
                expect_fail(utf16(in, strlen(in)), false, SV_ERR_UTF8);
            }
        }
    }
    /* pretty: one line, like a tuple */
    CHECK_PRETTY(S("a\xff" "b"), 2, "{\"$str\": [\"a\", {\"$u8s\": [255]}, \"b\"]}");
    /* plain: one string, U+FFFD for each piece that is not text */
    CHECK_PLAIN(S("a\xff\xfe" "b\xf4\x90\x80\x80\xed\xa0\x80"),
                "\"a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd\"");
    /* a map key that is not UTF-8 makes the map a list of pairs */
    CHECK(tree_map(2, S("a"), sv_int(1), S("\xff"), sv_int(2)),
          "{\"$map\":[[\"a\",1],[{\"$str\":[{\"$u8s\":[255]}]},2]]}");
    /* tagged strings keep their tag around the form */
    CHECK(sv_with_tag(S("\xed\xb0\x80"), SV_TAG_STRING_NAME), "{\"$string_name\":{\"$str\":[56320]}}");
    /* a key with a lone surrogate, in the pair list like any such key */
    CHECK(tree_map(1, S("k\xed\xa0\x80"), sv_int(1)), "{\"$map\":[[{\"$str\":[\"k\",55296]},1]]}");
}

static void test_utf16_strings(void **state)
{
    (void)state;
    CHECK(utf16("text", 4), "{\"$utf16\":\"text\"}");
    CHECK(utf16("", 0), "{\"$utf16\":\"\"}");
    /* a lone surrogate is an integer piece of a $str payload, never a
     * \udXXX escape (jq 1.6 refuses those): U+D800 is 55296 */
    CHECK(utf16("a\xed\xa0\x80z", 5), "{\"$utf16\":{\"$str\":[\"a\",55296,\"z\"]}}");
    CHECK(utf16("\xed\xaf\xbf", 3), "{\"$utf16\":{\"$str\":[56319]}}");
    CHECK(utf16("\xed\xb0\x80", 3), "{\"$utf16\":{\"$str\":[56320]}}");
    CHECK(utf16("\xed\xbf\xbf", 3), "{\"$utf16\":{\"$str\":[57343]}}");
    /* a low surrogate then a high one are two lone surrogates */
    CHECK(utf16("\xed\xb0\x80\xed\xa0\x80", 6), "{\"$utf16\":{\"$str\":[56320,55296]}}");
    /* a high surrogate before a non-surrogate */
    CHECK(utf16("\xed\xa0\x80\xed\x9f\xbf", 6), "{\"$utf16\":{\"$str\":[55296,\"\xed\x9f\xbf\"]}}");
    /* text around and between, escapes inside the text pieces */
    CHECK(utf16("\"\xed\xa0\x80\xf0\x9f\x98\x80\xed\xb0\x80\n", 12),
          "{\"$utf16\":{\"$str\":[\"\\\"\",55296,\"\xf0\x9f\x98\x80\",56320,\"\\n\"]}}");
    CHECK_PRETTY(utf16("a\xed\xa0\x80", 4), 2, "{\"$utf16\": {\"$str\": [\"a\", 55296]}}");
    /* tagged, and as a map key (a UTF-16 key is always in the pair list) */
    CHECK(sv_with_tag(utf16("\xed\xa0\x80", 3), SV_TAG_NODE_PATH),
          "{\"$node_path\":{\"$utf16\":{\"$str\":[55296]}}}");
    CHECK(tree_map(1, utf16("\xed\xb0\x80", 3), sv_int(1)),
          "{\"$map\":[[{\"$utf16\":{\"$str\":[56320]}},1]]}");
    /* plain: U+FFFD for a lone surrogate, no escape */
    CHECK_PLAIN(utf16("a\xed\xa0\x80z", 5), "\"a\xef\xbf\xbdz\"");
    CHECK(utf16("\xf0\x9f\x98\x80\"\n", 6), "{\"$utf16\":\"\xf0\x9f\x98\x80\\\"\\n\"}");
    /* a high and a low surrogate in a row are a pair: WTF-8 writes a pair as
     * one 4-byte sequence, so this is malformed */
    expect_fail(utf16("\xed\xa0\x80\xed\xb0\x80", 6), false, SV_ERR_UTF8);
    expect_fail(utf16("ab\xed\xaf\xbf\xed\xbf\xbf", 8), false, SV_ERR_UTF8);
}

static void test_bytes(void **state)
{
    (void)state;
    CHECK(sv_bytes(test_doc, "\x00\x01\x02\xff", 4), "{\"$bytes\":\"AAEC/w==\"}");
    CHECK(sv_bytes(test_doc, "", 0), "{\"$bytes\":\"\"}");
    CHECK(sv_bytes(test_doc, "foobar", 6), "{\"$bytes\":\"Zm9vYmFy\"}");
    CHECK(sv_bytes(test_doc, "fooba", 5), "{\"$bytes\":\"Zm9vYmE=\"}");
}

/* Base64 (RFC 4648, section 4) the slow way, six bits at a time: the
 * test's own reference. */
static size_t ref_base64(const uint8_t *in, size_t n, char *out)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t m = 0;
    for (size_t bit = 0; bit < 8 * n; bit += 6) {
        unsigned v = 0;
        for (size_t b = bit; b < bit + 6; b++) {
            unsigned one = b < 8 * n ? (in[b / 8] >> (7 - b % 8)) & 1u : 0u;
            v = v << 1 | one;
        }
        out[m++] = abc[v];
    }
    while (m % 4)
        out[m++] = '=';
    out[m] = '\0';
    return m;
}

/* Bytes of every length from 0 to 60 as array items, as object values, in
 * typed compact and pretty output and in plain output: the short ones
 * (up to 48 bytes) are written inline by the container loops, the others
 * by the bytes writer, and a top-level value by the bytes writer too. */
static void test_bytes_every_length(void **state)
{
    (void)state;
    uint8_t in[64];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i * 37 + 250); /* every bit pattern shows up in a few bytes */
    for (size_t n = 0; n <= 60; n++) {
        char b64[96], exp[512];
        ref_base64(in, n, b64);
        sv_value b = sv_bytes(test_doc, in, n);
        snprintf(exp, sizeof exp, "[{\"$bytes\":\"%s\"},{\"$bytes\":\"%s\"}]", b64, b64);
        check_str(tree_arr(2, b, b), exp);
        snprintf(exp, sizeof exp, "{\"$class\":\"C\",\"b\":{\"$bytes\":\"%s\"}}", b64);
        check_str(tree_obj(S("C"), 1, "b", b), exp);
        snprintf(exp, sizeof exp, "{\"$bytes\":\"%s\"}", b64);
        check_str(b, exp);
        snprintf(exp, sizeof exp, "[\n  {\"$bytes\": \"%s\"}\n]", b64);
        check_with(tree_arr(1, b), 2, false, exp, strlen(exp));
        snprintf(exp, sizeof exp, "[\"%s\"]", b64);
        check_with(tree_arr(1, b), 0, true, exp, strlen(exp));
    }
}

/* ---- containers ------------------------------------------------------------------ */

static void test_arrays(void **state)
{
    (void)state;
    CHECK(tree_arr(0), "[]");
    CHECK(sv_array(test_doc, 0), "[]");
    CHECK(tree_arr(2, sv_int(1), sv_int(2)), "[1,2]");
    CHECK(tree_arr(3, tree_arr(0), tree_arr(1, tree_arr(0)), sv_null()), "[[],[[]],null]");
    /* sv_array(n) holds n nulls */
    CHECK(sv_array(test_doc, 2), "[null,null]");
}

static void test_maps(void **state)
{
    (void)state;
    CHECK(tree_map(0), "{}");
    CHECK(tree_map(2, S("a"), sv_int(1), S("$b"), sv_int(2)), "{\"a\":1,\"$$b\":2}");
    /* every leading '$' gets one more; inner ones stay */
    CHECK(tree_map(4, S("$"), sv_int(1), S("$$c"), sv_int(2), S("x$"), sv_int(3), S(""), sv_int(4)),
          "{\"$$\":1,\"$$$c\":2,\"x$\":3,\"\":4}");
    /* duplicates are kept, in order */
    CHECK(tree_map(2, S("k"), sv_int(1), S("k"), sv_int(2)), "{\"k\":1,\"k\":2}");
    CHECK(tree_map(1, S("a\"\n"), S("v")), "{\"a\\\"\\n\":\"v\"}");
    CHECK(tree_map(1, S("o"), tree_map(1, S("i"), tree_arr(0))), "{\"o\":{\"i\":[]}}");
}

static void test_maps_other_keys(void **state)
{
    (void)state;
    CHECK(tree_map(2, sv_int(1), S("one"), tree_arr(2, sv_int(0), sv_int(1)), S("pair")),
          "{\"$map\":[[1,\"one\"],[[0,1],\"pair\"]]}");
    /* one non-string key makes the whole map a list of pairs */
    CHECK(tree_map(2, S("a"), sv_int(1), sv_null(), sv_int(2)), "{\"$map\":[[\"a\",1],[null,2]]}");
    /* a UTF-16 or tagged string key is not a plain string; no '$' doubling
     * in pairs, since a key there is a value */
    CHECK(tree_map(2, S("$a"), sv_int(1), utf16("b", 1), sv_int(2)),
          "{\"$map\":[[\"$a\",1],[{\"$utf16\":\"b\"},2]]}");
    CHECK(tree_map(1, sv_with_tag(S("jump"), SV_TAG_STRING_NAME), sv_bool(true)),
          "{\"$map\":[[{\"$string_name\":\"jump\"},true]]}");
    CHECK(tree_map(1, sv_f32(1.5f), vec3(1, 2, 3)),
          "{\"$map\":[[{\"$f32\":1.5},{\"$vector3\":[1.0,2.0,3.0]}]]}");
}

/* Maps nested 200 deep, each with a non-string key after the nested one:
 * written once each (a writer that wrote a map optimistically and started
 * again at a bad key would take 2^200 steps here). */
static void test_nested_maps_with_other_keys(void **state)
{
    (void)state;
    enum { DEPTH = 200 };
    sv_value v = sv_int(0);
    for (int d = 0; d < DEPTH; d++)
        v = tree_map(2, S("c"), v, sv_int(1), sv_null());
    static const char open[] = "{\"$map\":[[\"c\",", close[] = "],[1,null]]}";
    char *exp = malloc(DEPTH * (sizeof open + sizeof close) + 2);
    assert_non_null(exp);
    size_t m = 0;
    for (int d = 0; d < DEPTH; d++)
        m += (size_t)sprintf(exp + m, "%s", open);
    exp[m++] = '0';
    for (int d = 0; d < DEPTH; d++)
        m += (size_t)sprintf(exp + m, "%s", close);
    check_str(v, exp);
    free(exp);
}

static void test_objects(void **state)
{
    (void)state;
    CHECK(tree_obj(S("Player"), 2, "name", S("Ann"), "hp", sv_int(5)),
          "{\"$class\":\"Player\",\"name\":\"Ann\",\"hp\":5}");
    CHECK(tree_obj(sv_uint(3735928559u), 1, "m_x", sv_int(1)), "{\"$class\":3735928559,\"m_x\":1}");
    CHECK(tree_obj(S("Empty"), 0), "{\"$class\":\"Empty\"}");
    CHECK(tree_obj(S("X"), 2, "$x", sv_int(1), "$class", sv_int(2)),
          "{\"$class\":\"X\",\"$$x\":1,\"$$class\":2}");
    CHECK(tree_obj(S("Node"), 1, "child", tree_obj(S("Leaf"), 0)),
          "{\"$class\":\"Node\",\"child\":{\"$class\":\"Leaf\"}}");
}

static void test_meta(void **state)
{
    (void)state;
    CHECK(with_meta(tree_arr(2, sv_int(1), sv_int(2)), S("int")),
          "{\"$array\":[1,2],\"$meta\":\"int\"}");
    CHECK(with_meta(tree_arr(0), sv_null()), "{\"$array\":[],\"$meta\":null}");
    CHECK(with_meta(tree_map(1, S("a"), sv_int(1)), sv_int_w(3, 4)),
          "{\"$map\":{\"a\":1},\"$meta\":{\"$i32\":3}}");
    CHECK(with_meta(tree_map(1, S("$a"), sv_int(1)), sv_int(3)), "{\"$map\":{\"$$a\":1},\"$meta\":3}");
    CHECK(with_meta(tree_map(1, sv_int(1), sv_int(2)), tree_arr(2, S("int"), S("int"))),
          "{\"$map\":[[1,2]],\"$meta\":[\"int\",\"int\"]}");
    CHECK(with_meta(tree_map(0), sv_int(0)), "{\"$map\":{},\"$meta\":0}");
    CHECK(with_meta(tree_obj(S("X"), 1, "f", sv_int(1)), tree_map(1, S("v"), sv_int(2))),
          "{\"$class\":\"X\",\"$meta\":{\"v\":2},\"f\":1}");
    CHECK(with_meta(tree_obj(S("X"), 0), sv_bool(true)), "{\"$class\":\"X\",\"$meta\":true}");
    /* meta that is itself a container with meta */
    CHECK(with_meta(tree_arr(0), with_meta(tree_arr(0), sv_int(1))),
          "{\"$array\":[],\"$meta\":{\"$array\":[],\"$meta\":1}}");
}

/* ---- tuples and packed arrays ------------------------------------------------ */

typedef struct shape_row {
    sv_tag tag;
    const char *name;
    unsigned scalars;
    bool ints; /* default element i32, else f32 */
} shape_row;

/* docs/json.md, "Shapes, their scalar counts and default element types" */
static const shape_row shapes[] = {
    {SV_TAG_VECTOR2, "vector2", 2, false},
    {SV_TAG_VECTOR2I, "vector2i", 2, true},
    {SV_TAG_RECT2, "rect2", 4, false},
    {SV_TAG_RECT2I, "rect2i", 4, true},
    {SV_TAG_VECTOR3, "vector3", 3, false},
    {SV_TAG_VECTOR3I, "vector3i", 3, true},
    {SV_TAG_TRANSFORM2D, "transform2d", 6, false},
    {SV_TAG_VECTOR4, "vector4", 4, false},
    {SV_TAG_VECTOR4I, "vector4i", 4, true},
    {SV_TAG_PLANE, "plane", 4, false},
    {SV_TAG_QUATERNION, "quaternion", 4, false},
    {SV_TAG_AABB, "aabb", 6, false},
    {SV_TAG_BASIS, "basis", 9, false},
    {SV_TAG_TRANSFORM3D, "transform3d", 12, false},
    {SV_TAG_PROJECTION, "projection", 16, false},
    {SV_TAG_COLOR, "color", 4, false},
    {SV_TAG_MATRIX3X3, "matrix3x3", 9, false},
    {SV_TAG_MATRIX3X4, "matrix3x4", 12, false},
    {SV_TAG_MATRIX4X4, "matrix4x4", 16, false},
    {SV_TAG_EULER, "euler", 3, false},
};

static void test_tuples_every_shape(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const shape_row *r = &shapes[s];
        float f[16];
        int32_t i32[16];
        char exp[256];
        int m = snprintf(exp, sizeof exp, "{\"$%s\":[", r->name);
        for (unsigned i = 0; i < r->scalars; i++) {
            f[i] = (float)(i + 1) * (i % 2 ? -0.5f : 1.0f); /* 1.0, -1.0, 3.0, -2.0, ... */
            i32[i] = (int32_t)(i + 1) * (i % 2 ? -1 : 1);
            if (r->ints)
                m += snprintf(exp + m, sizeof exp - (size_t)m, "%s%d", i ? "," : "", (int)i32[i]);
            else
                m +=
                    snprintf(exp + m, sizeof exp - (size_t)m, "%s%.1f", i ? "," : "", (double)f[i]);
        }
        snprintf(exp + m, sizeof exp - (size_t)m, "]}");
        sv_value v = r->ints ? sv_tuple(test_doc, r->tag, SV_ELEM_I32, i32)
                             : sv_tuple(test_doc, r->tag, SV_ELEM_F32, f);
        assert_int_equal(v.kind, SV_TUPLE);
        check_str(v, exp);
    }
}

static void test_tuples_other_elems(void **state)
{
    (void)state;
    double d[3] = {1.0, 0.1, -2.5};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F64, d),
          "{\"$vector3\":[1.0,0.1,-2.5],\"$elem\":\"f64\"}");
    int64_t i64[2] = {INT64_MIN, 7};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2I, SV_ELEM_I64, i64),
          "{\"$vector2i\":[\"-9223372036854775808\",7],\"$elem\":\"i64\"}");
    float f[2] = {1.0f, 0.1f};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2I, SV_ELEM_F32, f),
          "{\"$vector2i\":[1.0,0.1],\"$elem\":\"f32\"}");
    int32_t i32[2] = {-1, 2};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_I32, i32),
          "{\"$vector2\":[-1,2],\"$elem\":\"i32\"}");
    uint8_t u8[4] = {0, 128, 255, 1};
    CHECK(sv_tuple(test_doc, SV_TAG_COLOR, SV_ELEM_U8, u8),
          "{\"$color\":[0,128,255,1],\"$elem\":\"u8\"}");
    int8_t i8[2] = {-128, 127};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_I8, i8),
          "{\"$vector2\":[-128,127],\"$elem\":\"i8\"}");
    uint16_t u16[2] = {0, 65535};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_U16, u16),
          "{\"$vector2\":[0,65535],\"$elem\":\"u16\"}");
    int16_t i16[2] = {-32768, 1};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_I16, i16),
          "{\"$vector2\":[-32768,1],\"$elem\":\"i16\"}");
    uint32_t u32[2] = {4294967295u, 0};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_U32, u32),
          "{\"$vector2\":[4294967295,0],\"$elem\":\"u32\"}");
    uint64_t u64[2] = {UINT64_MAX, 0};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_U64, u64),
          "{\"$vector2\":[\"18446744073709551615\",0],\"$elem\":\"u64\"}");
    /* non-finite elements are strings */
    float nf[3] = {f32_of(0x7fc00000u), f32_of(0x7f800000u), f32_of(0xff800000u)};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, nf),
          "{\"$vector3\":[\"nan\",\"inf\",\"-inf\"]}");
    float nf2[2] = {f32_of(0xffc00000u), -0.0f};
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_F32, nf2),
          "{\"$vector2\":[\"nan:0xffc00000\",-0.0]}");
    double nd[2] = {0, 0};
    uint64_t b = UINT64_C(0x7ff8000000000001);
    memcpy(&nd[0], &b, 8);
    b = UINT64_C(0x7ff8000000000000);
    memcpy(&nd[1], &b, 8);
    CHECK(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_F64, nd),
          "{\"$vector2\":[\"nan:0x7ff8000000000001\",\"nan\"],\"$elem\":\"f64\"}");
}

/* Items of arrays, maps and objects: the container loops write the common
 * ones themselves (narrow uints and float32 tuples among them) and the rest
 * through the writers of the tests above; either way an item's text is the
 * one the same value has on its own, compact, pretty and plain. */
static void test_items_inline(void **state)
{
    (void)state;
    float v3[3] = {1.5f, -0.25f, 3.0f};
    float v2[2] = {0.1f, -0.0f};
    sv_value vec3 = sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, v3);
    CHECK(tree_arr(5, sv_uint_w(255, 1), sv_uint_w(65535, 2), sv_uint_w(4294967295u, 4),
                   sv_uint_w(0, 1), sv_uint_w(5, 8)),
          "[{\"$u8\":255},{\"$u16\":65535},{\"$u32\":4294967295},{\"$u8\":0},{\"$u64\":5}]");
    CHECK(tree_arr(2, vec3, sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_F32, v2)),
          "[{\"$vector3\":[1.5,-0.25,3.0]},{\"$vector2\":[0.1,-0.0]}]");
    CHECK(tree_obj(S("E"), 2, "f", sv_uint_w(9, 1), "p", vec3),
          "{\"$class\":\"E\",\"f\":{\"$u8\":9},\"p\":{\"$vector3\":[1.5,-0.25,3.0]}}");
    CHECK(tree_map(1, S("p"), vec3), "{\"p\":{\"$vector3\":[1.5,-0.25,3.0]}}");
    /* a non-finite number after finite ones, an integer shape holding floats */
    float nf[3] = {1.0f, f32_of(0x7fc00000u), 2.0f};
    CHECK(tree_arr(1, sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, nf)),
          "[{\"$vector3\":[1.0,\"nan\",2.0]}]");
    CHECK(tree_arr(1, sv_tuple(test_doc, SV_TAG_VECTOR2I, SV_ELEM_F32, v2)),
          "[{\"$vector2i\":[0.1,-0.0],\"$elem\":\"f32\"}]");
    /* pretty and plain */
    CHECK_PRETTY(tree_arr(2, sv_uint_w(7, 2), vec3), 2,
                 "[\n  {\"$u16\": 7},\n  {\"$vector3\": [1.5, -0.25, 3.0]}\n]");
    CHECK_PLAIN(tree_arr(2, sv_uint_w(200, 1), vec3), "[200,[1.5,-0.25,3.0]]");
    /* a narrow uint too wide for its width is the writer's error, at its index */
    sv_value wide = sv_uint_w(1, 1);
    wide.as.u = 256;
    sv_error err = expect_fail(tree_arr(2, sv_uint_w(1, 1), wide), false, SV_ERR_RANGE);
    assert_string_equal(err.path, "/1");
    /* every shape as an item, 500 times in one array: the output buffer
     * grows between items many times over */
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const shape_row *r = &shapes[s];
        if (r->ints) continue;
        float f[16];
        char one[256];
        int m = snprintf(one, sizeof one, "{\"$%s\":[", r->name);
        for (unsigned i = 0; i < r->scalars; i++) {
            f[i] = (float)(i + 1) * (i % 2 ? -0.5f : 1.0f);
            m += snprintf(one + m, sizeof one - (size_t)m, "%s%.1f", i ? "," : "", (double)f[i]);
        }
        snprintf(one + m, sizeof one - (size_t)m, "]}");
        sv_value item = sv_tuple(test_doc, r->tag, SV_ELEM_F32, f);
        sv_value arr = sv_array(test_doc, 0);
        size_t len = strlen(one), n = 500;
        char *exp = malloc(n * (len + 1) + 2);
        assert_non_null(exp);
        size_t at = 0;
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(sv_array_append(test_doc, &arr, item), SV_OK);
            exp[at++] = k ? ',' : '[';
            memcpy(exp + at, one, len);
            at += len;
        }
        exp[at++] = ']';
        check_with(arr, 0, false, exp, at);
        free(exp);
    }
}

/* Small arrays of float64s, int64s and short strings inside a container are
 * written inline (small_array); anything else in them, or around them, gives
 * the array back to the array writer. Every expected text is worked by hand
 * from docs/json.md; each case nests the array, as only items are written
 * inline. */
static void test_small_arrays(void **state)
{
    (void)state;
    CHECK(tree_arr(1, tree_arr(3, sv_f64(-46.097620814772036), sv_f64(0.5), sv_f64(12.0))),
          "[[-46.097620814772036,0.5,12.0]]");
    CHECK(tree_arr(1, tree_arr(3, S("loot"), sv_int(15), S("hidden"))),
          "[[\"loot\",15,\"hidden\"]]");
    CHECK(tree_map(1, S("v"), tree_arr(1, sv_int(-7))), "{\"v\":[-7]}");
    CHECK(tree_obj(S("E"), 1, "t", tree_arr(2, S("a"), sv_f64(1e21))),
          "{\"$class\":\"E\",\"t\":[\"a\",1e+21]}");
    /* eight items (the most written inline) and nine (the writer) */
    CHECK(tree_arr(1, tree_arr(8, sv_int(1), sv_int(2), sv_int(3), sv_int(4), sv_int(5),
                               sv_int(6), sv_int(7), sv_int(8))),
          "[[1,2,3,4,5,6,7,8]]");
    CHECK(tree_arr(1, tree_arr(9, sv_int(1), sv_int(2), sv_int(3), sv_int(4), sv_int(5),
                               sv_int(6), sv_int(7), sv_int(8), sv_int(9))),
          "[[1,2,3,4,5,6,7,8,9]]");
    /* empty; an item of another kind last, after inline ones were written */
    CHECK(tree_arr(1, tree_arr(0)), "[[]]");
    CHECK(tree_arr(1, tree_arr(3, sv_int(1), S("b"), S("needs \"escape\""))),
          "[[1,\"b\",\"needs \\\"escape\\\"\"]]");
    CHECK(tree_arr(1, tree_arr(3, sv_f64(1.5), sv_int(2), sv_bool(true))), "[[1.5,2,true]]");
    CHECK(tree_arr(1, tree_arr(2, sv_f64(1.5), f64_bits(0x7ff8000000000000ull))),
          "[[1.5,{\"$f64\":\"nan\"}]]");
    CHECK(tree_arr(1, tree_arr(2, sv_int(1), sv_int(INT64_C(9007199254740993)))),
          "[[1,{\"$int\":\"9007199254740993\"}]]");
    CHECK(tree_arr(1, tree_arr(2, sv_int(1), tree_arr(1, sv_int(2)))), "[[1,[2]]]");
    CHECK(tree_arr(1, tree_arr(2, sv_f64(2.5), sv_f32(2.5f))), "[[2.5,{\"$f32\":2.5}]]");
    CHECK(tree_arr(1, tree_arr(1, S("caf\xc3\xa9"))), "[[\"caf\xc3\xa9\"]]");
    /* with "$meta", pretty, plain */
    CHECK(tree_arr(1, with_meta(tree_arr(2, sv_int(1), sv_int(2)), S("m"))),
          "[{\"$array\":[1,2],\"$meta\":\"m\"}]");
    CHECK_PRETTY(tree_arr(1, tree_arr(2, sv_int(1), S("x"))), 2,
                 "[\n  [\n    1,\n    \"x\"\n  ]\n]");
    CHECK_PLAIN(tree_arr(1, tree_arr(2, sv_int(INT64_C(9007199254740993)), sv_f64(0.25))),
                "[[9007199254740993,0.25]]");
    /* a hundred thousand small arrays in one: the output buffer grows while
     * they are written inline */
    sv_value big = sv_array(test_doc, 0);
    size_t n = 100000;
    char *exp = malloc(n * 12 + 2);
    assert_non_null(exp);
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        assert_int_equal(
            sv_array_append(test_doc, &big, tree_arr(2, sv_int((int64_t)(k % 10)), sv_f64(0.5))),
            SV_OK);
        at += (size_t)sprintf(exp + at, "%c[%d,0.5]", k ? ',' : '[', (int)(k % 10));
    }
    exp[at++] = ']';
    check_with(big, 0, false, exp, at);
    free(exp);
}

/* Small arrays whose items are all finite float64s are written as one run
 * of the formatter (sv__core_fmt_f64s); any other item, a non-finite one
 * included, sends the array to the item loop. Texts as docs/json.md
 * lays numbers out (shortest digits, exponents unpadded). */
static void test_small_float_arrays(void **state)
{
    (void)state;
    /* one number; the eight the run takes at most, every layout in one run:
     * 17 digits, a short fraction, a whole number, exponents both ways, the
     * smallest subnormal, the largest double, negative zero */
    CHECK(tree_arr(1, tree_arr(1, sv_f64(0.1))), "[[0.1]]");
    CHECK(tree_arr(1, tree_arr(8, sv_f64(0.1 + 0.2), sv_f64(-2.5), sv_f64(123456789.0),
                               sv_f64(1e300), sv_f64(1e-7), f64_bits(1), f64_bits(0x7fefffffffffffffull),
                               sv_f64(-0.0))),
          "[[0.30000000000000004,-2.5,123456789.0,1e+300,1e-7,5e-324,"
          "1.7976931348623157e+308,-0.0]]");
    /* nine: the array writer, the same text */
    CHECK(tree_arr(1, tree_arr(9, sv_f64(1.5), sv_f64(2.5), sv_f64(3.5), sv_f64(4.5), sv_f64(5.5),
                               sv_f64(6.5), sv_f64(7.5), sv_f64(8.5), sv_f64(1e21))),
          "[[1.5,2.5,3.5,4.5,5.5,6.5,7.5,8.5,1e+21]]");
    /* a non-finite number first, last; another kind last */
    CHECK(tree_arr(1, tree_arr(2, f64_bits(0xfff0000000000000ull), sv_f64(0.75))),
          "[[{\"$f64\":\"-inf\"},0.75]]");
    CHECK(tree_arr(1, tree_arr(3, sv_f64(0.75), sv_f64(-46.097620814772036),
                               f64_bits(0x7ff8000000000000ull))),
          "[[0.75,-46.097620814772036,{\"$f64\":\"nan\"}]]");
    CHECK(tree_arr(1, tree_arr(2, sv_f64(0.75), sv_f32(0.75f))), "[[0.75,{\"$f32\":0.75}]]");
    /* a field's velocity; pretty and plain */
    CHECK(tree_obj(S("E"), 1, "vel", tree_arr(3, sv_f64(-3.25), sv_f64(0.0), sv_f64(49.999))),
          "{\"$class\":\"E\",\"vel\":[-3.25,0.0,49.999]}");
    CHECK_PRETTY(tree_arr(1, tree_arr(2, sv_f64(1.25), sv_f64(-1e-300))), 1,
                 "[\n [\n  1.25,\n  -1e-300\n ]\n]");
    CHECK_PLAIN(tree_arr(1, tree_arr(2, sv_f64(1.25), sv_f64(2.0))), "[[1.25,2.0]]");
}

static void test_packed_flat(void **state)
{
    (void)state;
    uint8_t u8[2] = {0, 255};
    CHECK(sv_packed(test_doc, SV_ELEM_U8, SV_TAG_NONE, u8, 2), "{\"$u8s\":[0,255]}");
    int8_t i8[2] = {-128, 127};
    CHECK(sv_packed(test_doc, SV_ELEM_I8, SV_TAG_NONE, i8, 2), "{\"$i8s\":[-128,127]}");
    uint16_t u16[1] = {65535};
    CHECK(sv_packed(test_doc, SV_ELEM_U16, SV_TAG_NONE, u16, 1), "{\"$u16s\":[65535]}");
    int16_t i16[1] = {-32768};
    CHECK(sv_packed(test_doc, SV_ELEM_I16, SV_TAG_NONE, i16, 1), "{\"$i16s\":[-32768]}");
    uint32_t u32[1] = {4294967295u};
    CHECK(sv_packed(test_doc, SV_ELEM_U32, SV_TAG_NONE, u32, 1), "{\"$u32s\":[4294967295]}");
    int32_t i32[1] = {INT32_MIN};
    CHECK(sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, i32, 1), "{\"$i32s\":[-2147483648]}");
    uint64_t u64[1] = {UINT64_MAX};
    CHECK(sv_packed(test_doc, SV_ELEM_U64, SV_TAG_NONE, u64, 1), "{\"$u64s\":[\"18446744073709551615\"]}");
    int64_t i64[1] = {INT64_MIN};
    CHECK(sv_packed(test_doc, SV_ELEM_I64, SV_TAG_NONE, i64, 1), "{\"$i64s\":[\"-9223372036854775808\"]}");
    float f32[2] = {1.5f, 2.0f};
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_NONE, f32, 2), "{\"$f32s\":[1.5,2.0]}");
    double f64[3] = {0.1, 1e300, -0.0};
    CHECK(sv_packed(test_doc, SV_ELEM_F64, SV_TAG_NONE, f64, 3), "{\"$f64s\":[0.1,1e+300,-0.0]}");
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_NONE, NULL, 0), "{\"$f32s\":[]}");
    float nf[2] = {f32_of(0x7f800000u), 0.1f};
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_NONE, nf, 2), "{\"$f32s\":[\"inf\",0.1]}");
    /* more than one row of numbers: compact output has no line breaks */
    int32_t many[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    CHECK(sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, many, 10), "{\"$i32s\":[1,2,3,4,5,6,7,8,9,10]}");
}

static void test_packed_shaped(void **state)
{
    (void)state;
    float v3[6] = {1, 2, 3, 4, 5, 6};
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, v3, 6),
          "{\"$packed_vector3\":[[1.0,2.0,3.0],[4.0,5.0,6.0]]}");
    double d3[3] = {1, 2, 3};
    CHECK(sv_packed(test_doc, SV_ELEM_F64, SV_TAG_PACKED_VECTOR3, d3, 3),
          "{\"$packed_vector3\":[[1.0,2.0,3.0]],\"$elem\":\"f64\"}");
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, NULL, 0), "{\"$packed_vector3\":[]}");
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR2, v3, 4),
          "{\"$packed_vector2\":[[1.0,2.0],[3.0,4.0]]}");
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_COLOR, v3, 4),
          "{\"$packed_color\":[[1.0,2.0,3.0,4.0]]}");
    CHECK(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR4, v3, 4),
          "{\"$packed_vector4\":[[1.0,2.0,3.0,4.0]]}");
    uint8_t c[8] = {255, 0, 0, 255, 0, 255, 0, 128};
    CHECK(sv_packed(test_doc, SV_ELEM_U8, SV_TAG_PACKED_COLOR, c, 8),
          "{\"$packed_color\":[[255,0,0,255],[0,255,0,128]],\"$elem\":\"u8\"}");
}

/* Many objects with many keys, some repeated, some long, some escaped: the
 * writer remembers recent key texts, which must never change the output. */
static void test_many_keys(void **state)
{
    (void)state;
    enum { OBJECTS = 5, KEYS = 150 };
    sv_value a = sv_array(test_doc, 0);
    char *exp = malloc(OBJECTS * KEYS * 64 + 16);
    assert_non_null(exp);
    size_t m = 0;
    exp[m++] = '[';
    for (int o = 0; o < OBJECTS; o++) {
        sv_value ob = tree_map(0);
        if (o) exp[m++] = ',';
        exp[m++] = '{';
        for (int k = 0; k < KEYS; k++) {
            char key[64];
            const char *shape = k % 5 == 0   ? "$k%d"
                                : k % 5 == 1 ? "a rather long key number %d"
                                : k % 5 == 2 ? "q\"%d"
                                             : "k%d";
            int n = snprintf(key, sizeof key, shape, k);
            /* every third object has fresh (not interned) copies of the keys */
            sv_value kv = o % 3 == 2 ? SN(key, (size_t)n) : sv_str_intern(test_doc, key, (size_t)n);
            assert_int_equal(sv_map_append(test_doc, &ob, kv, sv_int(k)), SV_OK);
            if (k) exp[m++] = ',';
            exp[m++] = '"';
            if (key[0] == '$') exp[m++] = '$';
            for (int i = 0; i < n; i++) {
                if (key[i] == '"') exp[m++] = '\\';
                exp[m++] = key[i];
            }
            m += (size_t)sprintf(exp + m, "\":%d", k);
        }
        exp[m++] = '}';
        assert_int_equal(sv_array_append(test_doc, &a, ob), SV_OK);
    }
    exp[m++] = ']';
    exp[m] = '\0';
    check_str(a, exp);
    free(exp);
}

/* ---- tags ------------------------------------------------------------------- */

static void test_tags(void **state)
{
    (void)state;
    CHECK(sv_with_tag(S("jump"), SV_TAG_STRING_NAME), "{\"$string_name\":\"jump\"}");
    CHECK(sv_with_tag(S("Player/Sprite:modulate"), SV_TAG_NODE_PATH),
          "{\"$node_path\":\"Player/Sprite:modulate\"}");
    CHECK(sv_with_tag(sv_int(42), SV_TAG_RID), "{\"$rid\":42}");
    CHECK(sv_with_tag(sv_int(1700000000000), SV_TAG_DATETIME), "{\"$datetime\":1700000000000}");
    CHECK(sv_with_tag(sv_uint_w(42, 8), SV_TAG_RID), "{\"$rid\":{\"$u64\":42}}");
    CHECK(sv_with_tag(sv_f32(1.5f), SV_TAG_ENUM), "{\"$enum\":{\"$f32\":1.5}}");
    CHECK(sv_with_tag(sv_null(), SV_TAG_MINKEY), "{\"$minkey\":null}");
    CHECK(sv_with_tag(sv_null(), SV_TAG_MAXKEY), "{\"$maxkey\":null}");
    CHECK(sv_with_tag(sv_bytes(test_doc, "\x00\x01\x02\xff", 4), SV_TAG_UUID),
          "{\"$uuid\":{\"$bytes\":\"AAEC/w==\"}}");
    CHECK(sv_with_tag(utf16("x", 1), SV_TAG_STRING_NAME), "{\"$string_name\":{\"$utf16\":\"x\"}}");
    CHECK(sv_with_tag(tree_arr(2, sv_int(1), sv_int(2)), SV_TAG_CALLABLE), "{\"$callable\":[1,2]}");
    CHECK(sv_with_tag(tree_map(1, S("a"), sv_int(1)), SV_TAG_SIGNAL), "{\"$signal\":{\"a\":1}}");
    CHECK(sv_with_tag(sv_ref(3), SV_TAG_OBJECT_ID), "{\"$object_id\":{\"$ref\":3}}");
    uint8_t id[2] = {1, 2};
    CHECK(sv_with_tag(sv_packed(test_doc, SV_ELEM_U8, SV_TAG_NONE, id, 2), SV_TAG_UUID),
          "{\"$uuid\":{\"$u8s\":[1,2]}}");
    /* every tag that applies to any kind, by its name in tags.h / docs/json.md */
    static const struct {
        sv_tag tag;
        const char *name;
    } any[] = {{SV_TAG_RID, "rid"},
               {SV_TAG_CALLABLE, "callable"},
               {SV_TAG_SIGNAL, "signal"},
               {SV_TAG_OBJECT_ID, "object_id"},
               {SV_TAG_DATETIME, "datetime"},
               {SV_TAG_OBJECTID, "objectid"},
               {SV_TAG_REGEX, "regex"},
               {SV_TAG_TIMESTAMP, "timestamp"},
               {SV_TAG_DECIMAL128, "decimal128"},
               {SV_TAG_MINKEY, "minkey"},
               {SV_TAG_MAXKEY, "maxkey"},
               {SV_TAG_UUID, "uuid"},
               {SV_TAG_ENUM, "enum"},
               {SV_TAG_CHAR, "char"}};
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++) {
        char exp[64];
        snprintf(exp, sizeof exp, "{\"$%s\":-7}", any[i].name);
        check_str(sv_with_tag(sv_int(-7), any[i].tag), exp);
    }
    CHECK(sv_with_tag(S("https://x"), SV_TAG_URL), "{\"$url\":\"https://x\"}");
}

/* ---- compact objects ------------------------------------------------------------ */

/* A compact object (its class and field names in a shared shape, its
 * container holding the values alone) is written exactly as the object of
 * the same fields in the pair layout: the text below is docs/json.md's
 * object form, written out by hand. */
static void test_compact_objects(void **state)
{
    (void)state;
    sv_value keys[4] = {sv_str_intern(test_doc, "id", 2), sv_str_intern(test_doc, "name", 4),
                        sv_str_intern(test_doc, "pos", 3), sv_str_intern(test_doc, "flags", 5)};
    const sv_shape *shape = sv_shape_new(test_doc, S("Entity"), keys, 4);
    assert_non_null(shape);
    sv_value fields[4] = {sv_int(7), S("twenty-four bytes long!!"), vec3(1.5f, -0.25f, 3.0f),
                          sv_uint_w(200, 1)};
    sv_value objs[2];
    for (int k = 0; k < 2; k++) {
        objs[k] = sv_object_compact(test_doc, shape);
        assert_ptr_equal(sv_object_shape(&objs[k]), shape);
        for (size_t i = 0; i < 4; i++)
            *sv_val_at(&objs[k], i) = fields[i];
    }
    *sv_val_at(&objs[1], 0) = sv_int(8);
    static const char one[] = "{\"$class\":\"Entity\",\"id\":7,\"name\":\"twenty-four bytes long!!\","
                              "\"pos\":{\"$vector3\":[1.5,-0.25,3.0]},\"flags\":{\"$u8\":200}}";
    check_str(objs[0], one);
    /* the same fields in the pair layout give the same text */
    check_str(tree_obj(S("Entity"), 4, "id", fields[0], "name", fields[1], "pos", fields[2],
                       "flags", fields[3]),
              one);
    /* in an array and a map: the key and class caches see the shape's keys
     * twice */
    CHECK(tree_arr(2, objs[0], objs[1]),
          "[{\"$class\":\"Entity\",\"id\":7,\"name\":\"twenty-four bytes long!!\","
          "\"pos\":{\"$vector3\":[1.5,-0.25,3.0]},\"flags\":{\"$u8\":200}},"
          "{\"$class\":\"Entity\",\"id\":8,\"name\":\"twenty-four bytes long!!\","
          "\"pos\":{\"$vector3\":[1.5,-0.25,3.0]},\"flags\":{\"$u8\":200}}]");
    CHECK_PRETTY(tree_map(1, S("e"), objs[1]), 2,
                 "{\n  \"e\": {\n    \"$class\": \"Entity\",\n    \"id\": 8,\n"
                 "    \"name\": \"twenty-four bytes long!!\",\n"
                 "    \"pos\": {\"$vector3\": [1.5, -0.25, 3.0]},\n"
                 "    \"flags\": {\"$u8\": 200}\n  }\n}");
    CHECK_PLAIN(objs[0], "{\"id\":7,\"name\":\"twenty-four bytes long!!\",\"pos\":[1.5,-0.25,3.0],"
                         "\"flags\":200}");
    /* a failing field is named by its key, which lives in the shape */
    sv_value bad = sv_object_compact(test_doc, shape);
    sv_value wide = sv_uint_w(1, 1);
    wide.as.u = 256;
    *sv_val_at(&bad, 3) = wide;
    sv_error err = expect_fail(tree_arr(1, bad), false, SV_ERR_RANGE);
    assert_string_equal(err.path, "/0/flags");
}

/* Maps of 200 interned keys, more than the writer remembers (64 slots): keys
 * find their home slot taken and sit in a later one, or push another out.
 * Each map is written as an object twice (the second time from the
 * remembered keys), then once more with a last key that is not an object
 * key, which makes it a list of pairs however many of its keys are
 * remembered. Expected: {"k0":0,...,"k199":199} and its pairs, laid out by
 * hand below. */
static void test_map_keys_past_the_cache(void **state)
{
    (void)state;
    enum { KEYS = 200 };
    sv_value m = sv_map(test_doc, 0), with_null = sv_map(test_doc, 0);
    char name[16];
    char *obj = malloc(KEYS * 16 + 8), *pairs = malloc(KEYS * 20 + 32);
    assert_non_null(obj);
    assert_non_null(pairs);
    size_t on = 0, pn = 0;
    pn += (size_t)sprintf(pairs + pn, "{\"$map\":[");
    for (int i = 0; i < KEYS; i++) {
        snprintf(name, sizeof name, "k%d", i);
        assert_int_equal(sv_map_append_str(test_doc, &m, name, sv_int(i)), SV_OK);
        assert_int_equal(sv_map_append_str(test_doc, &with_null, name, sv_int(i)), SV_OK);
        on += (size_t)sprintf(obj + on, "%c\"k%d\":%d", i ? ',' : '{', i, i);
        pn += (size_t)sprintf(pairs + pn, "[\"k%d\",%d],", i, i);
    }
    obj[on++] = '}';
    obj[on] = '\0';
    assert_int_equal(sv_map_append(test_doc, &with_null, sv_null(), sv_int(KEYS)), SV_OK);
    pn += (size_t)sprintf(pairs + pn, "[null,%d]]}", KEYS);
    /* [obj,obj] */
    char *twice = malloc(2 * on + 4);
    assert_non_null(twice);
    sprintf(twice, "[%s,%s]", obj, obj);
    check_str(tree_arr(2, m, m), twice);
    /* [obj,pairs]: the keys remembered from the first map do not make the
     * second an object */
    char *mixed = malloc(on + pn + 4);
    assert_non_null(mixed);
    sprintf(mixed, "[%s,%s]", obj, pairs);
    check_str(tree_arr(2, m, with_null), mixed);
    free(obj);
    free(pairs);
    free(twice);
    free(mixed);
}

/* A decoded typed JSON document whose objects are all made compact
 * (sv_compact_objects) writes back the bytes it was read from. */
static void test_compact_objects_round_trip(void **state)
{
    (void)state;
    static const char text[] =
        "[{\"$class\":\"Entity\",\"id\":1000,\"name\":\"karo_1000\",\"pos\":{\"$vector3\":"
        "[1.5,-2.25,3.0]},\"hp\":{\"$f32\":0.37},\"tags\":[\"npc\",7],\"stats\":{\"str\":3,"
        "\"luck\":-0.125},\"blob\":{\"$bytes\":\"AAEC\"},\"child\":{\"$class\":\"Item\","
        "\"$meta\":{\"x\":1},\"n\":2}},"
        "{\"$class\":\"Entity\",\"id\":1001,\"name\":\"a\\\"b\",\"pos\":{\"$vector3\":"
        "[0.0,0.0,-1.0]},\"hp\":{\"$f32\":1.0},\"tags\":[],\"stats\":{},\"blob\":"
        "{\"$bytes\":\"\"},\"child\":{\"$class\":\"Item\"}},"
        "{\"$class\":\"Empty\"},{\"$class\":\"Other\",\"$$dollar\":true}]";
    sv_value root;
    sv_error err;
    assert_int_equal(sv_json_decode(test_doc, text, sizeof text - 1, NULL, &root, &err), SV_OK);
    assert_int_equal(sv_compact_objects(test_doc, &root), SV_OK);
    /* the objects with fields are compact now (else this test tests nothing) */
    assert_non_null(sv_object_shape(sv_array_at(&root, 0)));
    assert_non_null(sv_object_shape(sv_array_at(&root, 1)));
    assert_non_null(sv_object_shape(sv_array_at(&root, 3)));
    assert_non_null(sv_object_shape(sv_map_getz(sv_array_at(&root, 0), "child")));
    check_with(root, 0, false, text, sizeof text - 1);
}

/* ---- pretty ------------------------------------------------------------------- */

static sv_value sample_document(void)
{
    float pts[6] = {1, 2, 3, 4, 5, 6};
    int32_t ids[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    uint8_t small[2] = {1, 2};
    int32_t v2i[2] = {0, 1};
    double d3[3] = {1, 2, 3};
    sv_value m = sv_map(test_doc, 0);
    sv_map_append_str(test_doc, &m, "name", S("Ann"));
    sv_map_append_str(test_doc, &m, "hp", sv_int_w(5, 4));
    sv_map_append_str(test_doc, &m, "pos", vec3(1, 2, 3));
    sv_map_append_str(test_doc, &m, "tags", tree_arr(2, S("a"), S("b")));
    sv_map_append_str(test_doc, &m, "empty", tree_arr(0));
    sv_map_append_str(test_doc, &m, "none", tree_map(0));
    sv_map_append_str(test_doc, &m, "inv",
                      tree_obj(S("Item"), 2, "id", sv_int(7), "$x", sv_bool(true)));
    sv_map_append_str(test_doc, &m, "pts",
                      sv_packed(test_doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, pts, 6));
    sv_map_append_str(test_doc, &m, "ids", sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, ids, 10));
    sv_map_append_str(test_doc, &m, "small",
                      sv_packed(test_doc, SV_ELEM_U8, SV_TAG_NONE, small, 2));
    sv_map_append_str(test_doc, &m, "dict",
                      tree_map(2, sv_int(1), S("one"),
                               sv_tuple(test_doc, SV_TAG_VECTOR2I, SV_ELEM_I32, v2i),
                               tree_arr(1, sv_bool(true))));
    sv_map_append_str(test_doc, &m, "typed", with_meta(tree_arr(1, sv_int(1)), S("int")));
    sv_map_append_str(test_doc, &m, "rid", sv_with_tag(sv_int(42), SV_TAG_RID));
    sv_map_append_str(test_doc, &m, "call",
                      sv_with_tag(tree_arr(2, sv_int(1), sv_int(2)), SV_TAG_CALLABLE));
    sv_map_append_str(test_doc, &m, "cls", tree_obj(S("Empty"), 0));
    sv_map_append_str(test_doc, &m, "f", f64_bits(UINT64_C(0x7ff8000000000000)));
    sv_map_append_str(test_doc, &m, "v", sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F64, d3));
    sv_map_append_str(test_doc, &m, "b", sv_bytes(test_doc, "\x00\x01\x02\xff", 4));
    sv_map_append_str(test_doc, &m, "r", sv_ref_null());
    sv_map_append_str(test_doc, &m, "u", utf16("\xed\xa0\x80", 3));
    sv_map_append_str(test_doc, &m, "f32", sv_f32(0.1f));
    return m;
}

static void test_pretty_document(void **state)
{
    (void)state;
    CHECK_PRETTY(sample_document(), 2,
                 "{\n"
                 "  \"name\": \"Ann\",\n"
                 "  \"hp\": {\"$i32\": 5},\n"
                 "  \"pos\": {\"$vector3\": [1.0, 2.0, 3.0]},\n"
                 "  \"tags\": [\n"
                 "    \"a\",\n"
                 "    \"b\"\n"
                 "  ],\n"
                 "  \"empty\": [],\n"
                 "  \"none\": {},\n"
                 "  \"inv\": {\n"
                 "    \"$class\": \"Item\",\n"
                 "    \"id\": 7,\n"
                 "    \"$$x\": true\n"
                 "  },\n"
                 "  \"pts\": {\"$packed_vector3\": [\n"
                 "    [1.0, 2.0, 3.0],\n"
                 "    [4.0, 5.0, 6.0]\n"
                 "  ]},\n"
                 "  \"ids\": {\"$i32s\": [\n"
                 "    1, 2, 3, 4, 5, 6, 7, 8,\n"
                 "    9, 10\n"
                 "  ]},\n"
                 "  \"small\": {\"$u8s\": [1, 2]},\n"
                 "  \"dict\": {\"$map\": [\n"
                 "    [1, \"one\"],\n"
                 "    [{\"$vector2i\": [0, 1]}, [\n"
                 "      true\n"
                 "    ]]\n"
                 "  ]},\n"
                 "  \"typed\": {\n"
                 "    \"$array\": [\n"
                 "      1\n"
                 "    ],\n"
                 "    \"$meta\": \"int\"\n"
                 "  },\n"
                 "  \"rid\": {\"$rid\": 42},\n"
                 "  \"call\": {\"$callable\": [\n"
                 "    1,\n"
                 "    2\n"
                 "  ]},\n"
                 "  \"cls\": {\"$class\": \"Empty\"},\n"
                 "  \"f\": {\"$f64\": \"nan\"},\n"
                 "  \"v\": {\"$vector3\": [1.0, 2.0, 3.0], \"$elem\": \"f64\"},\n"
                 "  \"b\": {\"$bytes\": \"AAEC/w==\"},\n"
                 "  \"r\": {\"$ref\": null},\n"
                 "  \"u\": {\"$utf16\": {\"$str\": [55296]}},\n"
                 "  \"f32\": {\"$f32\": 0.1}\n"
                 "}");
}

static void test_pretty_forms(void **state)
{
    (void)state;
    /* scalars and empty containers at the top level */
    CHECK_PRETTY(sv_int(5), 2, "5");
    CHECK_PRETTY(tree_arr(0), 2, "[]");
    CHECK_PRETTY(tree_map(0), 2, "{}");
    CHECK_PRETTY(sv_int_w(5, 4), 2, "{\"$i32\": 5}");
    /* indent 4 */
    CHECK_PRETTY(tree_map(1, S("a"), tree_arr(1, sv_int(1))), 4, "{\n    \"a\": [\n        1\n    ]\n}");
    /* a map with meta and pairs */
    CHECK_PRETTY(with_meta(tree_map(1, sv_int(1), sv_int(2)), sv_int(0)), 2,
                 "{\n"
                 "  \"$map\": [\n"
                 "    [1, 2]\n"
                 "  ],\n"
                 "  \"$meta\": 0\n"
                 "}");
    CHECK_PRETTY(with_meta(tree_map(1, S("a"), sv_int(2)), sv_int(0)), 2,
                 "{\n"
                 "  \"$map\": {\n"
                 "    \"a\": 2\n"
                 "  },\n"
                 "  \"$meta\": 0\n"
                 "}");
    /* an object with meta */
    CHECK_PRETTY(with_meta(tree_obj(S("X"), 1, "f", sv_int(1)), S("m")), 2,
                 "{\n"
                 "  \"$class\": \"X\",\n"
                 "  \"$meta\": \"m\",\n"
                 "  \"f\": 1\n"
                 "}");
    /* a packed array with its element type */
    double d[6] = {1, 2, 3, 4, 5, 6};
    CHECK_PRETTY(sv_packed(test_doc, SV_ELEM_F64, SV_TAG_PACKED_VECTOR3, d, 6), 2,
                 "{\"$packed_vector3\": [\n"
                 "  [1.0, 2.0, 3.0],\n"
                 "  [4.0, 5.0, 6.0]\n"
                 "], \"$elem\": \"f64\"}");
    CHECK_PRETTY(sv_packed(test_doc, SV_ELEM_F64, SV_TAG_PACKED_VECTOR3, NULL, 0), 2,
                 "{\"$packed_vector3\": [], \"$elem\": \"f64\"}");
    /* exactly one row of eight stays on the form's line; sixteen make two rows */
    int32_t i[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    CHECK_PRETTY(sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, i, 8), 2,
                 "{\"$i32s\": [1, 2, 3, 4, 5, 6, 7, 8]}");
    CHECK_PRETTY(sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, i, 16), 2,
                 "{\"$i32s\": [\n"
                 "  1, 2, 3, 4, 5, 6, 7, 8,\n"
                 "  9, 10, 11, 12, 13, 14, 15, 16\n"
                 "]}");
    /* a tag around a map, and tags around tags' payloads */
    CHECK_PRETTY(sv_with_tag(tree_map(1, S("a"), sv_int(1)), SV_TAG_SIGNAL), 2,
                 "{\"$signal\": {\n"
                 "  \"a\": 1\n"
                 "}}");
    CHECK_PRETTY(sv_with_tag(sv_uint_w(1, 4), SV_TAG_RID), 2, "{\"$rid\": {\"$u32\": 1}}");
    CHECK_PRETTY(tree_map(1, sv_null(), tree_arr(0)), 2, "{\"$map\": [\n  [null, []]\n]}");
    /* the same keys again (the writer remembers their text, space included) */
    CHECK_PRETTY(tree_arr(2, tree_obj(S("P"), 2, "x", sv_int(1), "$y", sv_int(2)),
                     tree_obj(S("P"), 2, "x", sv_int(3), "$y", sv_int(4))),
                 2,
                 "[\n"
                 "  {\n    \"$class\": \"P\",\n    \"x\": 1,\n    \"$$y\": 2\n  },\n"
                 "  {\n    \"$class\": \"P\",\n    \"x\": 3,\n    \"$$y\": 4\n  }\n"
                 "]");
}

/* The example of docs/json.md, "Writing", byte for byte. */
static void test_pretty_doc_example(void **state)
{
    (void)state;
    double pts[6] = {1, 2, 3, 4, 5, 6};
    int32_t ids[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    int32_t v2i[2] = {0, 1};
    sv_value m = sv_map(test_doc, 0);
    sv_map_append_str(test_doc, &m, "name", S("Ann"));
    sv_map_append_str(test_doc, &m, "hp", sv_int_w(5, 4));
    sv_map_append_str(test_doc, &m, "pos", vec3(1, 2, 3));
    sv_map_append_str(test_doc, &m, "tags", tree_arr(2, S("a"), S("b")));
    sv_map_append_str(test_doc, &m, "inv", tree_obj(S("Item"), 1, "id", sv_int(7)));
    sv_map_append_str(test_doc, &m, "pts",
                      sv_packed(test_doc, SV_ELEM_F64, SV_TAG_PACKED_VECTOR3, pts, 6));
    sv_map_append_str(test_doc, &m, "ids", sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, ids, 10));
    sv_map_append_str(test_doc, &m, "dict",
                      tree_map(2, sv_int(1), S("one"),
                               sv_tuple(test_doc, SV_TAG_VECTOR2I, SV_ELEM_I32, v2i), tree_arr(0)));
    CHECK_PRETTY(m, 2,
                 "{\n"
                 "  \"name\": \"Ann\",\n"
                 "  \"hp\": {\"$i32\": 5},\n"
                 "  \"pos\": {\"$vector3\": [1.0, 2.0, 3.0]},\n"
                 "  \"tags\": [\n"
                 "    \"a\",\n"
                 "    \"b\"\n"
                 "  ],\n"
                 "  \"inv\": {\n"
                 "    \"$class\": \"Item\",\n"
                 "    \"id\": 7\n"
                 "  },\n"
                 "  \"pts\": {\"$packed_vector3\": [\n"
                 "    [1.0, 2.0, 3.0],\n"
                 "    [4.0, 5.0, 6.0]\n"
                 "  ], \"$elem\": \"f64\"},\n"
                 "  \"ids\": {\"$i32s\": [\n"
                 "    1, 2, 3, 4, 5, 6, 7, 8,\n"
                 "    9, 10\n"
                 "  ]},\n"
                 "  \"dict\": {\"$map\": [\n"
                 "    [1, \"one\"],\n"
                 "    [{\"$vector2i\": [0, 1]}, []]\n"
                 "  ]}\n"
                 "}");
}

/* Deeper than 16 spaces of indentation (the writer copies 16 at a time). */
static void test_pretty_deep(void **state)
{
    (void)state;
    enum { DEPTH = 12 };
    sv_value v = sv_int(1);
    for (int d = 0; d < DEPTH; d++)
        v = tree_arr(1, v);
    for (int indent = 1; indent <= 3; indent++) {
        char exp[2048];
        size_t m = 0;
        for (int d = 0; d < DEPTH; d++) {
            memset(exp + m, ' ', (size_t)(d * indent));
            m += (size_t)(d * indent);
            exp[m++] = '[';
            exp[m++] = '\n';
        }
        memset(exp + m, ' ', (size_t)(DEPTH * indent));
        m += (size_t)(DEPTH * indent);
        exp[m++] = '1';
        for (int d = DEPTH - 1; d >= 0; d--) {
            exp[m++] = '\n';
            memset(exp + m, ' ', (size_t)(d * indent));
            m += (size_t)(d * indent);
            exp[m++] = ']';
        }
        check_with(v, indent, false, exp, m);
    }
}

/* ---- plain ------------------------------------------------------------------ */

static void test_plain_document(void **state)
{
    (void)state;
    CHECK_PLAIN(sample_document(),
                "{\"name\":\"Ann\",\"hp\":5,\"pos\":[1.0,2.0,3.0],\"tags\":[\"a\",\"b\"],"
                "\"empty\":[],\"none\":{},\"inv\":{\"id\":7,\"$x\":true},"
                "\"pts\":[[1.0,2.0,3.0],[4.0,5.0,6.0]],\"ids\":[1,2,3,4,5,6,7,8,9,10],"
                "\"small\":[1,2],\"dict\":[[1,\"one\"],[[0,1],[true]]],\"typed\":[1],"
                "\"rid\":42,\"call\":[1,2],\"cls\":{},\"f\":null,\"v\":[1.0,2.0,3.0],"
                "\"b\":\"AAEC/w==\",\"r\":null,\"u\":\"\xef\xbf\xbd\",\"f32\":0.1}");
}

static void test_plain_scalars(void **state)
{
    (void)state;
    CHECK_PLAIN(sv_int_w(-1, 1), "-1");
    CHECK_PLAIN(sv_uint(5), "5");
    CHECK_PLAIN(sv_uint_w(255, 1), "255");
    CHECK_PLAIN(sv_uint(UINT64_MAX), "18446744073709551615");
    CHECK_PLAIN(sv_with_flags(sv_f64(1.5), SV_F_EXPLICIT), "1.5");
    CHECK_PLAIN(sv_f32(0.1f), "0.1");
    CHECK_PLAIN(f32_bits(0x7fc00000u), "null");
    CHECK_PLAIN(f64_bits(UINT64_C(0xfff0000000000000)), "null");
    CHECK_PLAIN(sv_ref(12), "12");
    CHECK_PLAIN(sv_ref_null(), "null");
    CHECK_PLAIN(utf16("x", 1), "\"x\"");
    CHECK_PLAIN(sv_with_tag(S("jump"), SV_TAG_STRING_NAME), "\"jump\"");
    float nf[2] = {f32_of(0x7f800000u), 0.5f};
    CHECK_PLAIN(sv_tuple(test_doc, SV_TAG_VECTOR2, SV_ELEM_F32, nf), "[null,0.5]");
    CHECK_PLAIN(sv_packed(test_doc, SV_ELEM_F32, SV_TAG_NONE, nf, 2), "[null,0.5]");
    /* keys are not escaped, string keys of any kind make an object */
    CHECK_PLAIN(tree_map(2, S("$a"), sv_int(1), utf16("b", 1), sv_int(2)), "{\"$a\":1,\"b\":2}");
    CHECK_PLAIN(with_meta(tree_map(1, sv_int(1), sv_int(2)), sv_int(0)), "[[1,2]]");
    CHECK_PLAIN(tree_obj(sv_uint(7), 1, "$f", sv_int(1)), "{\"$f\":1}");
    CHECK_PLAIN(with_meta(tree_obj(S("X"), 0), sv_int(1)), "{}");
    CHECK_PLAIN_PRETTY(tree_map(1, sv_int(1), vec3(1, 2, 3)), 2, "[\n  [1, [1.0, 2.0, 3.0]]\n]");
    CHECK_PLAIN_PRETTY(tree_obj(S("X"), 1, "a", sv_int(1)), 2, "{\n  \"a\": 1\n}");
}

/* ---- round trip --------------------------------------------------------------- */

/* Compact output read back by sv_json_decode and written again gives the same
 * bytes, and reading those again gives an equal tree. (The first tree read
 * back can differ from the one written in flags the text does not carry: a
 * NaN or a small uint64 not marked explicit reads back explicit.) */
static void check_round_trip(sv_value v)
{
    sv_buf a, b;
    sv_buf_init(&a, NULL);
    sv_buf_init(&b, NULL);
    sv_error err;
    assert_int_equal(sv_json_encode(&v, NULL, &a, &err), SV_OK);
    sv_doc *d2 = sv_doc_new(NULL);
    assert_non_null(d2);
    sv_value back;
    sv_status st = sv_json_decode(d2, (const char *)a.data, a.len, NULL, &back, &err);
    if (st != SV_OK) {
        char msg[400];
        sv_error_format(&err, msg, sizeof msg);
        fail_msg("reading back %.*s: %s", (int)a.len, (const char *)a.data, msg);
    }
    assert_int_equal(sv_json_encode(&back, NULL, &b, &err), SV_OK);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
        fail_msg("not the same bytes:\n%.*s\n%.*s", (int)a.len, (const char *)a.data, (int)b.len,
                 (const char *)b.data);
    sv_value back2;
    assert_int_equal(sv_json_decode(d2, (const char *)b.data, b.len, NULL, &back2, &err), SV_OK);
    assert_true(sv_equal(&back, &back2));
    sv_doc_free(d2);
    sv_buf_free(&a);
    sv_buf_free(&b);
}

static void test_round_trip(void **state)
{
    (void)state;
    check_round_trip(sample_document());
    char ctl[40];
    for (int c = 0; c < 40; c++)
        ctl[c] = (char)c;
    check_round_trip(tree_arr(4, SN(ctl, 40), S("caf\xc3\xa9 \xf0\x9f\x98\x80 \"\\/"),
                         utf16("a\xed\xa0\x80"
                               "b\xed\xbf\xbf",
                               8),
                         sv_bytes(test_doc, "", 0)));
    check_round_trip(tree_arr(8, sv_int(INT64_MIN), sv_uint(UINT64_MAX), sv_uint(5), sv_int_w(-1, 1),
                         sv_uint_w(7, 2), sv_int_w(5, 8), sv_f64(-0.0), sv_f64(5e-324)));
    check_round_trip(tree_arr(6, f64_bits(UINT64_C(0x7ff8000000000001)), f32_bits(0xffc00000u),
                         f32_bits(0x7f800000u), sv_f32(0.1f),
                         sv_with_flags(sv_f64(2), SV_F_EXPLICIT), sv_f64(1e21)));
    check_round_trip(tree_map(3, S("$"), sv_int(1), S("$$x"), with_meta(tree_arr(0), sv_null()), S(""),
                         with_meta(tree_map(1, sv_int(1), sv_int(2)), S("m"))));
    check_round_trip(with_meta(tree_obj(sv_uint(3735928559u), 1, "$f", sv_ref_null()), sv_ref(4)));
    double d3[3] = {1, 2, 3};
    uint8_t u8[5] = {1, 2, 3, 4, 5};
    check_round_trip(tree_arr(4, sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F64, d3),
                         sv_packed(test_doc, SV_ELEM_F64, SV_TAG_PACKED_VECTOR3, d3, 3),
                         sv_with_tag(sv_packed(test_doc, SV_ELEM_U8, SV_TAG_NONE, u8, 5), SV_TAG_UUID),
                         sv_with_tag(tree_map(0), SV_TAG_SIGNAL)));
}

/* ---- malformed trees and other failures -------------------------------------- */

/* An int wider than its width: a malformed value to find in the error paths. */
static sv_value bad_int(void)
{
    sv_value v = sv_int_w(1, 4);
    v.as.i = INT64_C(1) << 40;
    return v;
}

static void test_error_paths(void **state)
{
    (void)state;
    sv_error err = expect_fail(tree_map(1, S("a"), tree_arr(2, S("ok"), bad_int())), false, SV_ERR_RANGE);
    assert_string_equal(err.path, "/a/1");
    /* JSON Pointer escapes ~ and / in keys */
    err = expect_fail(tree_obj(S("C"), 2, "x", sv_int(1), "f", tree_map(1, S("k~/"), bad_int())), false,
                      SV_ERR_RANGE);
    assert_string_equal(err.path, "/f/k~0~1");
    /* a pair of a map with other keys is named by its position */
    err = expect_fail(tree_map(2, sv_int(1), S("x"), sv_int(2), bad_int()), false, SV_ERR_RANGE);
    assert_string_equal(err.path, "/1");
    /* meta, class, tags and the element of a tagged array */
    err = expect_fail(with_meta(tree_arr(0), tree_arr(1, bad_int())), false, SV_ERR_RANGE);
    assert_string_equal(err.path, "/$meta/0");
    /* a class name has no form for bytes that are not UTF-8 */
    err = expect_fail(tree_arr(1, tree_obj(S("\xc0"), 0)), false, SV_ERR_UTF8);
    assert_string_equal(err.path, "/0/$class");
    err = expect_fail(tree_arr(2, sv_null(), sv_with_tag(tree_arr(1, bad_int()), SV_TAG_CALLABLE)), false,
                      SV_ERR_RANGE);
    assert_string_equal(err.path, "/1/0");
    /* a bad key: the path names the map that holds it */
    err = expect_fail(tree_map(1, S("m"), tree_map(1, bad_int(), sv_int(1))), false, SV_ERR_RANGE);
    assert_string_equal(err.path, "/m");
    /* nor has an object's field name */
    err = expect_fail(tree_map(1, S("m"), tree_obj(S("C"), 1, "ok\xff", sv_int(1))), false, SV_ERR_UTF8);
    assert_string_equal(err.path, "/m");
    /* the error text */
    char text[300];
    err = expect_fail(tree_map(1, S("a"), tree_arr(2, S("ok"), bad_int())), false, SV_ERR_RANGE);
    sv_error_format(&err, text, sizeof text);
    assert_non_null(strstr(text, "/a/1"));
    assert_string_equal(err.format, "json");
}

static void test_malformed(void **state)
{
    (void)state;
    sv_value v = sv_int_w(1, 4);
    v.as.i = INT64_C(1) << 40;
    expect_fail(v, false, SV_ERR_RANGE);
    v = sv_int_w(-129, 1);
    expect_fail(v, false, SV_ERR_RANGE);
    v = sv_uint_w(256, 1);
    expect_fail(v, true, SV_ERR_RANGE);
    v = sv_int(1);
    v.sub = 3;
    expect_fail(v, false, SV_ERR_TYPE);
    v = sv_f64(1);
    v.sub = 2;
    expect_fail(v, false, SV_ERR_TYPE);
    v.kind = 15; /* no such kind */
    expect_fail(v, false, SV_ERR_TYPE);
    /* a tag that does not apply to the kind, or no tag at all */
    expect_fail(sv_with_tag(sv_int(1), SV_TAG_STRING_NAME), false, SV_ERR_TYPE);
    expect_fail(sv_with_tag(sv_int(1), SV_TAG_VECTOR3), false, SV_ERR_TYPE);
    expect_fail(sv_with_tag(sv_int(1), (sv_tag)SV_TAG_COUNT), false, SV_ERR_TYPE);
    v = vec3(1, 2, 3);
    v.len = 2;
    expect_fail(v, false, SV_ERR_TYPE);
    v = vec3(1, 2, 3);
    v.tag = SV_TAG_NONE;
    expect_fail(v, false, SV_ERR_TYPE);
    v = vec3(1, 2, 3);
    v.tag = SV_TAG_PACKED_VECTOR3;
    expect_fail(v, false, SV_ERR_TYPE);
    v = vec3(1, 2, 3);
    v.sub = SV_ELEM_NONE;
    expect_fail(v, false, SV_ERR_TYPE);
    float f[4] = {1, 2, 3, 4};
    v = sv_packed(test_doc, SV_ELEM_F32, SV_TAG_NONE, f, 4);
    v.tag = SV_TAG_PACKED_VECTOR3; /* 4 numbers are not whole vector3 items */
    expect_fail(v, false, SV_ERR_TYPE);
    v.tag = SV_TAG_VECTOR3; /* a tuple shape on a packed array */
    expect_fail(v, false, SV_ERR_TYPE);
    /* object fields and classes */
    sv_value o = tree_obj(S("C"), 0);
    assert_int_equal(sv_map_append(test_doc, &o, sv_int(1), sv_int(2)), SV_OK);
    sv_error err = expect_fail(tree_arr(1, o), false, SV_ERR_TYPE);
    assert_string_equal(err.path, "/0/0");
    o = tree_obj(S("C"), 0);
    assert_int_equal(sv_map_append(test_doc, &o, utf16("f", 1), sv_int(2)), SV_OK);
    expect_fail(o, false, SV_ERR_TYPE);
    o = tree_obj(S("C"), 0);
    ((sv_value *)o.as.box->cls)->kind = SV_INT;
    expect_fail(o, false, SV_ERR_TYPE);
    /* storage missing */
    v = S("abc");
    v.as.str = NULL;
    expect_fail(v, false, SV_ERR_TYPE);
    v = tree_arr(0);
    v.len = 3;
    expect_fail(v, false, SV_ERR_TYPE);
}

static void test_depth(void **state)
{
    (void)state;
    /* 2 x SV_DEFAULT_MAX_DEPTH nested containers are written ... */
    sv_value v = sv_int(1);
    for (unsigned d = 0; d < 2 * SV_DEFAULT_MAX_DEPTH; d++)
        v = tree_arr(1, v);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    assert_int_equal(sv_json_encode(&v, NULL, &b, &err), SV_OK);
    assert_int_equal(b.len, 4 * SV_DEFAULT_MAX_DEPTH + 1);
    assert_int_equal(b.data[0], '[');
    assert_int_equal(b.data[2 * SV_DEFAULT_MAX_DEPTH], '1');
    sv_buf_free(&b);
    /* ... one more is refused */
    v = tree_arr(1, v);
    expect_fail(v, false, SV_ERR_DEPTH);
    v = sv_int(1);
    for (unsigned d = 0; d < 3000; d++)
        v = tree_map(1, S("k"), v);
    expect_fail(v, true, SV_ERR_DEPTH);
}

static void test_append_and_usage(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_append(&b, "xyz", 3);
    sv_value v = tree_arr(2, sv_int(5), S("a"));
    assert_int_equal(sv_json_encode(&v, NULL, &b, NULL), SV_OK); /* err may be NULL */
    assert_int_equal(b.len, 10);
    assert_memory_equal(b.data, "xyz[5,\"a\"]", 10);
    sv_error err;
    assert_int_equal(sv_json_encode(NULL, NULL, &b, &err), SV_ERR_USAGE);
    assert_int_equal(sv_json_encode(&v, NULL, NULL, &err), SV_ERR_USAGE);
    /* indent < 0 is compact */
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.indent = -3;
    b.len = 0;
    assert_int_equal(sv_json_encode(&v, &o, &b, &err), SV_OK);
    assert_int_equal(b.len, 7);
    assert_memory_equal(b.data, "[5,\"a\"]", 7);
    sv_buf_free(&b);
}

/* Out of memory at every allocation of a large output: always SV_ERR_NOMEM,
 * the buffer keeps its old length, and nothing leaks. */
static void test_out_of_memory(void **state)
{
    (void)state;
    size_t n = 300000;
    char *big = malloc(n);
    assert_non_null(big);
    memset(big, 'q', n);
    sv_value v = tree_arr(3, SN(big, n), sv_int(1), SN(big, n));
    free(big);
    for (long fail_at = 1; fail_at < 64; fail_at++) {
        test_alloc ta;
        test_alloc_init(&ta, fail_at);
        sv_buf b;
        sv_buf_init(&b, &ta.alloc);
        sv_error err;
        sv_status st = sv_json_encode(&v, NULL, &b, &err);
        if (st == SV_OK) {
            assert_int_equal(b.len, 2 * n + 9); /* ["..",1,".."] */
            sv_buf_free(&b);
            assert_int_equal(ta.live_bytes, 0);
            assert_true(fail_at > 1);
            return;
        }
        assert_int_equal(st, SV_ERR_NOMEM);
        assert_int_equal(err.status, SV_ERR_NOMEM);
        assert_int_equal(b.len, 0);
        sv_buf_free(&b);
        assert_int_equal(ta.live_bytes, 0);
    }
    fail_msg("never succeeded");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_bool),
        cmocka_unit_test(test_ints),
        cmocka_unit_test(test_uints),
        cmocka_unit_test(test_float64),
        cmocka_unit_test(test_float64_nonfinite),
        cmocka_unit_test(test_float32),
        cmocka_unit_test(test_refs),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_control_escapes),
        cmocka_unit_test(test_escape_positions),
        cmocka_unit_test(test_short_string_pieces),
        cmocka_unit_test(test_short_strings_every_length),
        cmocka_unit_test(test_bool_items),
        cmocka_unit_test(test_long_strings),
        cmocka_unit_test(test_utf8_boundaries),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_utf16_strings),
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_bytes_every_length),
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_maps),
        cmocka_unit_test(test_maps_other_keys),
        cmocka_unit_test(test_nested_maps_with_other_keys),
        cmocka_unit_test(test_objects),
        cmocka_unit_test(test_compact_objects),
        cmocka_unit_test(test_map_keys_past_the_cache),
        cmocka_unit_test(test_compact_objects_round_trip),
        cmocka_unit_test(test_meta),
        cmocka_unit_test(test_tuples_every_shape),
        cmocka_unit_test(test_tuples_other_elems),
        cmocka_unit_test(test_items_inline),
        cmocka_unit_test(test_small_arrays),
        cmocka_unit_test(test_small_float_arrays),
        cmocka_unit_test(test_packed_flat),
        cmocka_unit_test(test_packed_shaped),
        cmocka_unit_test(test_many_keys),
        cmocka_unit_test(test_tags),
        cmocka_unit_test(test_pretty_document),
        cmocka_unit_test(test_pretty_forms),
        cmocka_unit_test(test_pretty_doc_example),
        cmocka_unit_test(test_pretty_deep),
        cmocka_unit_test(test_plain_document),
        cmocka_unit_test(test_plain_scalars),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_error_paths),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_append_and_usage),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, test_doc_setup, test_doc_teardown);
}
