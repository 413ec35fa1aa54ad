/* The typed JSON reader (docs/json.md): plain values, every "$" form, the
 * options, and errors with their status, byte offset, line, column and JSON
 * Pointer path. Expected numbers come from IEEE 754 bit patterns worked out by
 * hand (0.1f is 0x3dcccccd) or from glibc's strtod/strtof as an independent
 * oracle; offsets are counted by hand in the texts (noted next to them). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_tree.h"
#include "serval/serval.h"

static sv_value read_opts(const char *text, const sv_json_decode_opts *opts)
{
    sv_value v;
    sv_error err;
    sv_status st = sv_json_decode(test_doc, text, strlen(text), opts, &v, &err);
    if (st != SV_OK) {
        char buf[512];
        sv_error_format(&err, buf, sizeof buf);
        print_error("unexpected failure: %s\n  text: %s\n", buf, text);
    }
    assert_int_equal(st, SV_OK);
    return v;
}

static sv_value rd(const char *text)
{
    return read_opts(text, NULL);
}

static void check_error(const char *text, size_t len, const sv_json_decode_opts *opts, sv_status st,
                        uint64_t off, uint32_t line, uint32_t col, const char *path)
{
    sv_value v = sv_int(7);
    sv_error err;
    sv_status got = sv_json_decode(test_doc, text, len, opts, &v, &err);
    if (got != st || err.byte_offset != off || err.line != line || err.column != col ||
        strcmp(err.path, path) != 0) {
        char buf[512];
        sv_error_format(&err, buf, sizeof buf);
        print_error("text: %s\n  got: %s (%s) path '%s'\n  want: %s at %llu (%u:%u) path '%s'\n",
                    text, buf, sv_status_name(got), err.path, sv_status_name(st),
                    (unsigned long long)off, line, col, path);
    }
    assert_int_equal(got, st);
    assert_int_equal(err.status, st);
    assert_string_equal(err.format, "json");
    assert_int_equal(err.byte_offset, off);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, col);
    assert_string_equal(err.path, path);
    assert_true(err.message[0] != '\0');
    assert_int_equal(sv_kind_of(&v), SV_NULL);
}

/* Errors on one line: column = offset + 1. */
#define ERR1(text, st, off, path)                                                                  \
    check_error(text, sizeof(text) - 1, NULL, st, off, 1, (off) + 1, path)
#define ERR_OPTS(text, opts, st, off, path)                                                        \
    check_error(text, sizeof(text) - 1, opts, st, off, 1, (off) + 1, path)

static uint32_t f32_bits(const sv_value *v)
{
    uint32_t b;
    memcpy(&b, &v->as.f32, 4);
    return b;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static void assert_str(const sv_value *v, const char *bytes, size_t len)
{
    assert_int_equal(sv_kind_of(v), SV_STRING);
    assert_int_equal(sv_len(v), len);
    assert_memory_equal(v->as.str, bytes, len);
    assert_int_equal(v->as.str[len], '\0');
}

/* ---- plain JSON --------------------------------------------------------------------- */

static void test_plain_scalars(void **state)
{
    (void)state;
    sv_value v = rd("null");
    assert_int_equal(sv_kind_of(&v), SV_NULL);
    v = rd("true");
    assert_int_equal(sv_kind_of(&v), SV_BOOL);
    assert_true(sv_get_bool(&v));
    v = rd(" false ");
    assert_false(sv_get_bool(&v));

    v = rd("-12");
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_int_equal(sv_width(&v), 8);
    assert_false(sv_is_explicit(&v));
    assert_true(v.as.i == -12);
    v = rd("-0"); /* an integer literal: int 0 */
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_true(v.as.i == 0);
    v = rd("123456789012345678"); /* 18 digits */
    assert_true(v.as.i == INT64_C(123456789012345678));
    v = rd("9223372036854775807");
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_true(v.as.i == INT64_MAX);
    v = rd("-9223372036854775808");
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_true(v.as.i == INT64_MIN);
    v = rd("9223372036854775808"); /* 2^63: above int64, within uint64 */
    assert_int_equal(sv_kind_of(&v), SV_UINT);
    assert_false(sv_is_explicit(&v));
    assert_true(v.as.u == UINT64_C(9223372036854775808));
    v = rd("18446744073709551615");
    assert_int_equal(sv_kind_of(&v), SV_UINT);
    assert_true(v.as.u == UINT64_MAX);
    v = rd("18446744073709551616"); /* 2^64: nearest double is 2^64 */
    assert_int_equal(sv_kind_of(&v), SV_FLOAT);
    assert_true(v.as.f64 == 18446744073709551616.0);
    v = rd("-9223372036854775809"); /* nearest double is -2^63 */
    assert_int_equal(sv_kind_of(&v), SV_FLOAT);
    assert_true(v.as.f64 == -9223372036854775808.0);
    v = rd("123456789012345678901234567890");
    assert_true(v.as.f64 == strtod("123456789012345678901234567890", NULL));
}

static void test_plain_floats(void **state)
{
    (void)state;
    sv_value v = rd("1.5");
    assert_int_equal(sv_kind_of(&v), SV_FLOAT);
    assert_int_equal(sv_width(&v), 8);
    assert_false(sv_is_explicit(&v));
    assert_true(v.as.f64 == 1.5);
    v = rd("-0.0");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0x8000000000000000));
    v = rd("1e2");
    assert_true(v.as.f64 == 100.0);
    v = rd("1E+2");
    assert_true(v.as.f64 == 100.0);
    v = rd("25e-1");
    assert_true(v.as.f64 == 2.5);
    v = rd("0.1");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0x3fb999999999999a));
    v = rd("5e-324"); /* the smallest subnormal */
    assert_true(f64_bits(v.as.f64) == 1);
    v = rd("1e-400"); /* underflows to zero: accepted */
    assert_true(f64_bits(v.as.f64) == 0);
    v = rd("1.7976931348623157e308");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0x7fefffffffffffff));
    v = rd("0.30000000000000000000000000000000000000001");
    assert_true(v.as.f64 == strtod("0.30000000000000000000000000000000000000001", NULL));
    v = rd("2.2250738585072011e-308");
    assert_true(v.as.f64 == strtod("2.2250738585072011e-308", NULL));

    /* beyond float64: an error, not infinity (see docs/json.md, Reading) */
    ERR1("1e400", SV_ERR_RANGE, 0, "");
    ERR1("[0, -1e400]", SV_ERR_RANGE, 4, "/1");
    ERR1("1.8e308", SV_ERR_RANGE, 0, "");
}

static void test_plain_strings(void **state)
{
    (void)state;
    sv_value v = rd("\"text\"");
    assert_str(&v, "text", 4);
    assert_int_equal(v.flags, 0);
    v = rd("\"\"");
    assert_str(&v, "", 0);
    v = rd("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"");
    assert_str(&v, "\"\\/\b\f\n\r\t", 8);
    v = rd("\"\\u00e9\\u00E9\\u20ac\"");
    assert_str(&v, "\xc3\xa9\xc3\xa9\xe2\x82\xac", 7);
    v = rd("\"a\\u0000b\"");
    assert_str(&v, "a\0b", 3);
    v = rd("\"\\ud83d\\ude00\""); /* U+1F600 from a surrogate pair */
    assert_str(&v, "\xf0\x9f\x98\x80", 4);
    v = rd("\"\xf0\x9f\x98\x80 \xc3\xa9\x7f\""); /* raw UTF-8 and DEL stay as they are */
    assert_str(&v, "\xf0\x9f\x98\x80 \xc3\xa9\x7f", 8);
    /* a string longer than one 8-byte block, with specials at each position */
    v = rd("\"0123456789abcdef\\n0123456789\\t\"");
    assert_str(&v, "0123456789abcdef\n0123456789\t", 28);
}

static void test_plain_containers(void **state)
{
    (void)state;
    sv_value v = rd("[1, \"a\", [], {}, [null]]");
    assert_int_equal(sv_kind_of(&v), SV_ARRAY);
    assert_int_equal(sv_len(&v), 5);
    assert_true(sv_array_at(&v, 0)->as.i == 1);
    assert_str(sv_array_at(&v, 1), "a", 1);
    assert_int_equal(sv_kind_of(sv_array_at(&v, 2)), SV_ARRAY);
    assert_int_equal(sv_len(sv_array_at(&v, 2)), 0);
    assert_int_equal(sv_kind_of(sv_array_at(&v, 3)), SV_MAP);
    assert_int_equal(sv_len(sv_array_at(&v, 3)), 0);
    assert_int_equal(sv_len(sv_array_at(&v, 4)), 1);
    assert_null(sv_meta(&v));

    /* keys in order, duplicates kept, "$$" undoubled */
    v = rd("{\"b\": 1, \"a\": 2, \"b\": 3, \"$$x\": 4, \"y$\": 5, \"$$\": 6}");
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_int_equal(sv_len(&v), 6);
    assert_str(sv_key_at(&v, 0), "b", 1);
    assert_str(sv_key_at(&v, 1), "a", 1);
    assert_str(sv_key_at(&v, 2), "b", 1);
    assert_true(sv_val_at(&v, 2)->as.i == 3);
    assert_str(sv_key_at(&v, 3), "$x", 2);
    assert_str(sv_key_at(&v, 4), "y$", 2);
    assert_str(sv_key_at(&v, 5), "$", 1);
    /* keys are interned: equal keys share one copy */
    assert_ptr_equal(sv_key_at(&v, 0)->as.str, sv_key_at(&v, 2)->as.str);
    /* escaped keys */
    v = rd("{\"\\u0061\\n\": true}");
    assert_str(sv_key_at(&v, 0), "a\n", 2);

    /* nesting and whitespace of all four kinds */
    v = rd(" \t\r\n{\"a\" :\n[ 1 ,\t{ \"b\" : [ ] } ] }\r\n");
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    sv_value *a = sv_map_getz(&v, "a");
    assert_non_null(a);
    assert_int_equal(sv_len(a), 2);
    assert_int_equal(sv_kind_of(sv_map_getz(sv_array_at(a, 1), "b")), SV_ARRAY);
}

/* ---- scalar forms ------------------------------------------------------------------------ */

static void test_int_forms(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        sv_kind kind;
        int width;
        int64_t i;
        uint64_t u;
    } ok[] = {
        {"{\"$i8\": -128}", SV_INT, 1, -128, 0},
        {"{\"$i8\": 127}", SV_INT, 1, 127, 0},
        {"{\"$i16\": -32768}", SV_INT, 2, -32768, 0},
        {"{\"$i32\": 2147483647}", SV_INT, 4, 2147483647, 0},
        {"{\"$i32\": -2147483648}", SV_INT, 4, -2147483647 - 1, 0},
        {"{\"$i64\": -9223372036854775808}", SV_INT, 8, INT64_MIN, 0},
        {"{\"$i64\": 5}", SV_INT, 8, 5, 0},
        {"{\"$u8\": 255}", SV_UINT, 1, 0, 255},
        {"{\"$u8\": -0}", SV_UINT, 1, 0, 0},
        {"{\"$u16\": 65535}", SV_UINT, 2, 0, 65535},
        {"{\"$u32\": 4294967295}", SV_UINT, 4, 0, 4294967295u},
        {"{\"$u64\": 18446744073709551615}", SV_UINT, 8, 0, UINT64_MAX},
        {"{ \"$u64\" : 5 }", SV_UINT, 8, 0, 5},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        sv_value v = rd(ok[i].text);
        assert_int_equal(sv_kind_of(&v), ok[i].kind);
        assert_int_equal(sv_width(&v), ok[i].width);
        assert_true(sv_is_explicit(&v));
        if (ok[i].kind == SV_INT)
            assert_true(v.as.i == ok[i].i);
        else
            assert_true(v.as.u == ok[i].u);
    }
    /* {"$i8": 128}: the number starts at byte 8 */
    ERR1("{\"$i8\": 128}", SV_ERR_RANGE, 8, "/$i8");
    ERR1("{\"$i8\": -129}", SV_ERR_RANGE, 8, "/$i8");
    ERR1("{\"$u8\": 256}", SV_ERR_RANGE, 8, "/$u8");
    ERR1("{\"$u8\": -1}", SV_ERR_RANGE, 8, "/$u8");
    ERR1("{\"$u16\": 65536}", SV_ERR_RANGE, 9, "/$u16");
    ERR1("{\"$i32\": 2147483648}", SV_ERR_RANGE, 9, "/$i32");
    ERR1("{\"$u64\": 18446744073709551616}", SV_ERR_RANGE, 9, "/$u64");
    ERR1("{\"$i64\": 9223372036854775808}", SV_ERR_RANGE, 9, "/$i64");
    ERR1("{\"$i32\": 1.5}", SV_ERR_TYPE, 9, "/$i32");
    ERR1("{\"$i32\": 1e2}", SV_ERR_TYPE, 9, "/$i32");
    ERR1("{\"$i32\": \"5x\"}", SV_ERR_TYPE, 9, "/$i32");
    ERR1("{\"$i32\": [5]}", SV_ERR_TYPE, 9, "/$i32");
    ERR1("{\"$i32\": null}", SV_ERR_TYPE, 9, "/$i32");
    ERR1("{\"$i32\": x}", SV_ERR_SYNTAX, 9, "/$i32");
    /* a single-key form with a second key: at the ',' */
    ERR1("{\"$i32\": 5, \"x\": 1}", SV_ERR_SYNTAX, 10, "");
    ERR1("{\"$i32\": 5 5}", SV_ERR_SYNTAX, 11, "");
    ERR1("{\"$i32\" 5}", SV_ERR_SYNTAX, 8, "");
}

static void test_float_forms(void **state)
{
    (void)state;
    sv_value v = rd("{\"$f32\": 0.1}");
    assert_int_equal(sv_kind_of(&v), SV_FLOAT);
    assert_int_equal(sv_width(&v), 4);
    assert_true(sv_is_explicit(&v));
    assert_int_equal(f32_bits(&v), 0x3dcccccd);
    /* Read from the text, not through a double: this decimal is just above the
     * midpoint between 1 and 1 + 2^-23, but it rounds to the midpoint as a
     * double, which would then round (ties to even) down to 1.0f. */
    v = rd("{\"$f32\": 1.000000059604644775390626}");
    assert_int_equal(f32_bits(&v), 0x3f800001);
    v = rd("{\"$f32\": 1.000000059604644775390625}"); /* the exact midpoint: to even */
    assert_int_equal(f32_bits(&v), 0x3f800000);
    v = rd("{\"$f32\": 3}");
    assert_int_equal(f32_bits(&v), 0x40400000);
    v = rd("{\"$f32\": -0.0}");
    assert_int_equal(f32_bits(&v), 0x80000000);
    v = rd("{\"$f32\": 1e-50}"); /* underflow: zero */
    assert_int_equal(f32_bits(&v), 0);
    v = rd("{\"$f32\": \"nan\"}");
    assert_int_equal(f32_bits(&v), 0x7fc00000);
    v = rd("{\"$f32\": \"inf\"}");
    assert_int_equal(f32_bits(&v), 0x7f800000);
    v = rd("{\"$f32\": \"-inf\"}");
    assert_int_equal(f32_bits(&v), 0xff800000);
    v = rd("{\"$f32\": \"nan:0xffc00001\"}");
    assert_int_equal(f32_bits(&v), 0xffc00001);
    v = rd("{\"$f32\": \"nan:0x7F800001\"}");
    assert_int_equal(f32_bits(&v), 0x7f800001);

    v = rd("{\"$f64\": 1}");
    assert_int_equal(sv_kind_of(&v), SV_FLOAT);
    assert_int_equal(sv_width(&v), 8);
    assert_true(sv_is_explicit(&v));
    assert_true(v.as.f64 == 1.0);
    v = rd("{\"$f64\": 0.1}");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0x3fb999999999999a));
    v = rd("{\"$f64\": \"nan\"}");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0x7ff8000000000000));
    v = rd("{\"$f64\": \"-inf\"}");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0xfff0000000000000));
    v = rd("{\"$f64\": \"nan:0x7ff8000000000001\"}");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0x7ff8000000000001));
    v = rd("{\"$f64\": \"nan:0xfff0000000000001\"}");
    assert_true(f64_bits(v.as.f64) == UINT64_C(0xfff0000000000001));

    ERR1("{\"$f32\": 1e39}", SV_ERR_RANGE, 9, "/$f32");
    ERR1("{\"$f32\": -3.5e38}", SV_ERR_RANGE, 9, "/$f32");
    ERR1("{\"$f64\": 1e309}", SV_ERR_RANGE, 9, "/$f64");
    ERR1("{\"$f32\": \"NaN\"}", SV_ERR_SYNTAX, 9, "/$f32");
    ERR1("{\"$f32\": \"nan:0x7f800000\"}", SV_ERR_SYNTAX, 9, "/$f32"); /* infinity, not a NaN */
    ERR1("{\"$f32\": \"nan:0x3f800000\"}", SV_ERR_SYNTAX, 9, "/$f32");
    ERR1("{\"$f32\": \"nan:0x7ff8000000000000\"}", SV_ERR_SYNTAX, 9, "/$f32"); /* too many digits */
    ERR1("{\"$f64\": \"nan:0x7ff0000000000000\"}", SV_ERR_SYNTAX, 9, "/$f64");
    ERR1("{\"$f64\": \"nan:0x\"}", SV_ERR_SYNTAX, 9, "/$f64");
    ERR1("{\"$f64\": \"nan:0x7ff800000000000g\"}", SV_ERR_SYNTAX, 9, "/$f64");
    ERR1("{\"$f64\": true}", SV_ERR_TYPE, 9, "/$f64");
    ERR1("{\"$f64\": {}}", SV_ERR_TYPE, 9, "/$f64");
}

/* ---- numbers against glibc's strtof / strtod ---------------------------------------- */

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Reads text as {"$f32": text} and as an element of {"$f32s": [...]} and
 * compares the bits with strtof, which glibc rounds correctly. */
static void check_f32_text(const char *text)
{
    char json[256];
    float want = strtof(text, NULL);
    uint32_t wb;
    memcpy(&wb, &want, 4);
    if (isinf(want)) return; /* an error for the reader, checked elsewhere */
    snprintf(json, sizeof json, "{\"$f32\": %s}", text);
    sv_value v = rd(json);
    if (f32_bits(&v) != wb)
        print_error("$f32 %s: got 0x%08x, want 0x%08x\n", text, f32_bits(&v), wb);
    assert_int_equal(f32_bits(&v), wb);
    snprintf(json, sizeof json, "{\"$f32s\": [0, %s]}", text);
    v = rd(json);
    uint32_t got;
    memcpy(&got, (const char *)sv_numbers(&v) + 4, 4);
    assert_int_equal(got, wb);
}

static void test_f32_against_strtof(void **state)
{
    (void)state;
    char text[200];
    for (int i = 0; i < 20000; i++) {
        /* a random finite float (normal or subnormal) */
        uint32_t bits = (uint32_t)rnd();
        if ((bits & 0x7f800000) == 0x7f800000) bits &= 0xbfffffffu;
        float f, g;
        memcpy(&f, &bits, 4);
        /* its shortest-ish text, and the midpoint to the next float up: the
         * exact decimal of the midpoint (a double), and just above and below
         * it, which must round apart */
        snprintf(text, sizeof text, "%.9g", (double)f);
        check_f32_text(text);
        g = nextafterf(f, INFINITY);
        if (isinf(g)) continue;
        double mid = ((double)f + (double)g) / 2;
        snprintf(text, sizeof text, "%.120e", mid);
        check_f32_text(text);
        snprintf(text, sizeof text, "%.17e", mid);
        check_f32_text(text);
        snprintf(text, sizeof text, "%.17e", nextafter(mid, INFINITY));
        check_f32_text(text);
        snprintf(text, sizeof text, "%.17e", nextafter(mid, -INFINITY));
        check_f32_text(text);
        /* random decimals: 1 to 25 digits, an exponent from -50 to 40 */
        int nd = 1 + (int)(rnd() % 25), n = 0;
        if (rnd() & 1) text[n++] = '-';
        text[n++] = (char)('1' + rnd() % 9);
        if (nd > 1) text[n++] = '.';
        for (int k = 1; k < nd; k++)
            text[n++] = (char)('0' + rnd() % 10);
        snprintf(text + n, sizeof text - (size_t)n, "e%d", (int)(rnd() % 91) - 50);
        check_f32_text(text);
    }
    /* hand-picked: the exact midpoint between 1 and 1 + 2^-23 goes to even;
     * a hair above goes up; 7-digit and 9-digit shortest forms */
    check_f32_text("1.000000059604644775390625");
    check_f32_text("1.0000000596046447753906250000001");
    check_f32_text("1.0000000596046447753906249999999");
    check_f32_text("167.87988");
    check_f32_text("0.550471979");
    check_f32_text("3.4028234663852886e38"); /* FLT_MAX */
    check_f32_text("3.4028235e38");
    check_f32_text("1.17549435e-38"); /* FLT_MIN */
    check_f32_text("1.1754942e-38");  /* subnormal */
    check_f32_text("1.4e-45");
    check_f32_text("7.0064923216240854e-46"); /* half the smallest subnormal: to even, 0 */
    check_f32_text("7.0064923216240862e-46"); /* a hair above: the smallest subnormal */
}

static void test_f64_against_strtod(void **state)
{
    (void)state;
    /* json holds text twice plus the brackets, whatever text holds */
    char text[200], json[2 * sizeof text + 32];
    for (int i = 0; i < 20000; i++) {
        int nd = 1 + (int)(rnd() % 25), n = 0;
        if (rnd() & 1) text[n++] = '-';
        text[n++] = (char)('1' + rnd() % 9);
        if (nd > 1) text[n++] = '.';
        for (int k = 1; k < nd; k++)
            text[n++] = (char)('0' + rnd() % 10);
        snprintf(text + n, sizeof text - (size_t)n, "e%d", (int)(rnd() % 700) - 350);
        double want = strtod(text, NULL);
        if (isinf(want)) continue;
        snprintf(json, sizeof json, "[%s, {\"$f64\": %s}]", text, text);
        sv_value v = rd(json);
        assert_true(f64_bits(sv_array_at(&v, 0)->as.f64) == f64_bits(want));
        assert_true(f64_bits(sv_array_at(&v, 1)->as.f64) == f64_bits(want));
    }
}

static void test_string_forms(void **state)
{
    (void)state;
    sv_value v = rd("{\"$bytes\": \"AAEC/w==\"}");
    assert_int_equal(sv_kind_of(&v), SV_BYTES);
    assert_int_equal(sv_len(&v), 4);
    assert_memory_equal(v.as.bytes, "\x00\x01\x02\xff", 4);
    v = rd("{\"$bytes\": \"\"}");
    assert_int_equal(sv_kind_of(&v), SV_BYTES);
    assert_int_equal(sv_len(&v), 0);
    v = rd("{\"$bytes\": \"Zm9vYg==\"}"); /* RFC 4648 §10: "foob" */
    assert_memory_equal(v.as.bytes, "foob", 4);
    assert_int_equal(sv_len(&v), 4);
    v = rd("{\"$bytes\": \"Zm9v\\u0059mFy\"}"); /* escapes are decoded first: "foobar" */
    assert_int_equal(sv_len(&v), 6);
    assert_memory_equal(v.as.bytes, "foobar", 6);
    /* {"$bytes": "AAE"}: wrong length, reported at the end of the text (byte 15) */
    ERR1("{\"$bytes\": \"AAE\"}", SV_ERR_SYNTAX, 15, "/$bytes");
    ERR1("{\"$bytes\": \"A*AA\"}", SV_ERR_SYNTAX, 13, "/$bytes");
    ERR1("{\"$bytes\": 5}", SV_ERR_TYPE, 11, "/$bytes");

    v = rd("{\"$utf16\": \"text\"}");
    assert_str(&v, "text", 4);
    assert_true(v.flags & SV_F_UTF16);
    /* lone surrogates become WTF-8: U+D800 is ED A0 80 */
    v = rd("{\"$utf16\": \"a\\ud800b\"}");
    assert_str(&v,
               "a\xed\xa0\x80"
               "b",
               5);
    v = rd("{\"$utf16\": \"\\udc00\\ud800\"}"); /* low then high: two lone ones */
    assert_str(&v, "\xed\xb0\x80\xed\xa0\x80", 6);
    v = rd("{\"$utf16\": \"\\ud83d\\ude00\"}"); /* a pair is one code point */
    assert_str(&v, "\xf0\x9f\x98\x80", 4);
    v = rd("{\"$utf16\": \"\\udbff\"}");
    assert_str(&v, "\xed\xaf\xbf", 3);
    /* outside $utf16 a lone surrogate is an error, at its backslash */
    ERR1("\"\\ud800\"", SV_ERR_UTF8, 1, "");
    ERR1("[\"ab\\udc00\"]", SV_ERR_UTF8, 4, "/0");
    ERR1("\"\\ud800\\u0041\"", SV_ERR_UTF8, 1, "");
    ERR1("{\"$utf16\": 1}", SV_ERR_TYPE, 11, "/$utf16");
    /* raw UTF-8 must still be valid inside $utf16: ED A0 80 written raw */
    ERR1("{\"$utf16\": \"\xed\xa0\x80\"}", SV_ERR_UTF8, 12, "/$utf16");

    v = rd("{\"$ref\": 12}");
    assert_int_equal(sv_kind_of(&v), SV_REF);
    assert_false(v.flags & SV_F_NULLREF);
    assert_true(v.as.u == 12);
    v = rd("{\"$ref\": null}");
    assert_int_equal(sv_kind_of(&v), SV_REF);
    assert_true(v.flags & SV_F_NULLREF);
    v = rd("{\"$ref\": 18446744073709551615}");
    assert_true(v.as.u == UINT64_MAX);
    ERR1("{\"$ref\": -1}", SV_ERR_RANGE, 9, "/$ref");
    ERR1("{\"$ref\": 1.0}", SV_ERR_TYPE, 9, "/$ref");
    ERR1("{\"$ref\": \"1x\"}", SV_ERR_TYPE, 9, "/$ref");
    ERR1("{\"$ref\": nul}", SV_ERR_SYNTAX, 12, "/$ref");
}

/* ---- containers, objects, meta --------------------------------------------------------------- */

static void test_class_form(void **state)
{
    (void)state;
    sv_value v = rd("{\"$class\": \"Player\", \"name\": \"Ann\", \"hp\": 5, \"$$cash\": 1}");
    assert_int_equal(sv_kind_of(&v), SV_OBJECT);
    assert_int_equal(sv_len(&v), 3);
    const sv_value *cls = sv_object_class(&v);
    assert_non_null(cls);
    assert_str(cls, "Player", 6);
    assert_null(sv_meta(&v));
    assert_str(sv_key_at(&v, 0), "name", 4);
    assert_str(sv_val_at(&v, 0), "Ann", 3);
    assert_str(sv_key_at(&v, 2), "$cash", 5);

    v = rd("{\"$class\": 3735928559, \"m_x\": 1}");
    cls = sv_object_class(&v);
    assert_int_equal(sv_kind_of(cls), SV_UINT);
    assert_true(cls->as.u == 3735928559u);

    v = rd("{\"$class\": \"X\", \"$meta\": {\"v\": 2}, \"f\": 1}");
    assert_int_equal(sv_len(&v), 1);
    assert_non_null(sv_meta(&v));
    assert_int_equal(sv_kind_of(sv_meta(&v)), SV_MAP);
    assert_str(sv_key_at(&v, 0), "f", 1);

    v = rd("{\"$class\": \"Empty\"}");
    assert_int_equal(sv_kind_of(&v), SV_OBJECT);
    assert_int_equal(sv_len(&v), 0);
    v = rd("{\"$class\": \"M\", \"$meta\": null}");
    assert_int_equal(sv_len(&v), 0);
    assert_int_equal(sv_kind_of(sv_meta(&v)), SV_NULL);

    /* {"$class": "X", "$meta": 1, "f": {"$i8": 300}}: 300 is at byte 41 */
    ERR1("{\"$class\": \"X\", \"$meta\": 1, \"f\": {\"$i8\": 300}}", SV_ERR_RANGE, 41, "/f/$i8");
    ERR1("{\"$class\": 1.5}", SV_ERR_TYPE, 11, "/$class");
    ERR1("{\"$class\": -1}", SV_ERR_RANGE, 11, "/$class");
    ERR1("{\"$class\": [\"X\"]}", SV_ERR_TYPE, 11, "/$class");
    /* "$meta" after a field, a second "$meta", a stray "$" key */
    ERR1("{\"$class\": \"X\", \"f\": 1, \"$meta\": 1}", SV_ERR_SYNTAX, 24, "");
    ERR1("{\"$class\": \"X\", \"$meta\": 1, \"$meta\": 1}", SV_ERR_SYNTAX, 28, "");
    ERR1("{\"$class\": \"X\", \"$f\": 1}", SV_ERR_SYNTAX, 16, "");
    ERR1("{\"$class\": \"X\", \"f\": [1, ]}", SV_ERR_SYNTAX, 25, "/f/1");
}

static void test_array_and_map_forms(void **state)
{
    (void)state;
    sv_value v = rd("{\"$array\": [1, 2], \"$meta\": \"m\"}");
    assert_int_equal(sv_kind_of(&v), SV_ARRAY);
    assert_int_equal(sv_len(&v), 2);
    assert_str(sv_meta(&v), "m", 1);
    v = rd("{\"$array\": []}");
    assert_int_equal(sv_kind_of(&v), SV_ARRAY);
    assert_int_equal(sv_len(&v), 0);
    assert_null(sv_meta(&v));

    v = rd("{\"$map\": [[1, \"one\"], [[0, 1], \"pair\"], [{\"$i8\": 2}, null]]}");
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_int_equal(sv_len(&v), 3);
    assert_true(sv_key_at(&v, 0)->as.i == 1);
    assert_str(sv_val_at(&v, 0), "one", 3);
    assert_int_equal(sv_kind_of(sv_key_at(&v, 1)), SV_ARRAY);
    assert_int_equal(sv_len(sv_key_at(&v, 1)), 2);
    assert_int_equal(sv_width(sv_key_at(&v, 2)), 1);
    v = rd("{\"$map\": [[1, 2]], \"$meta\": {\"t\": 1}}");
    assert_int_equal(sv_len(&v), 1);
    assert_int_equal(sv_kind_of(sv_meta(&v)), SV_MAP);
    v = rd("{\"$map\": {\"a\": 1, \"$$b\": 2}, \"$meta\": 5}");
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_int_equal(sv_len(&v), 2);
    assert_str(sv_key_at(&v, 1), "$b", 2);
    assert_true(sv_meta(&v)->as.i == 5);
    v = rd("{\"$map\": []}");
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_int_equal(sv_len(&v), 0);
    v = rd("{\"$map\": {}}");
    assert_int_equal(sv_kind_of(&v), SV_MAP);

    /* {"$map": [[1]]}: ']' at byte 12 where ',' was expected */
    ERR1("{\"$map\": [[1]]}", SV_ERR_SYNTAX, 12, "/$map/0");
    ERR1("{\"$map\": [[1, 2, 3]]}", SV_ERR_SYNTAX, 15, "/$map/0");
    ERR1("{\"$map\": [[1, 2], 3]}", SV_ERR_TYPE, 18, "/$map/1");
    ERR1("{\"$map\": [[1, 2], []]}", SV_ERR_SYNTAX, 19, "/$map/1/0");
    ERR1("{\"$map\": [[1, tru]]}", SV_ERR_SYNTAX, 17, "/$map/0/1");
    ERR1("{\"$map\": {\"$a\": 1}}", SV_ERR_SYNTAX, 10, "/$map");
    ERR1("{\"$map\": {\"a\": x}}", SV_ERR_SYNTAX, 15, "/$map/a");
    ERR1("{\"$map\": 1}", SV_ERR_TYPE, 9, "");
    ERR1("{\"$array\": 5}", SV_ERR_TYPE, 11, "");
    ERR1("{\"$array\": [1], \"x\": 1}", SV_ERR_SYNTAX, 16, "");
    ERR1("{\"$array\": [1, x]}", SV_ERR_SYNTAX, 15, "/$array/1");
    ERR1("{\"$array\": [1], \"$meta\": [x]}", SV_ERR_SYNTAX, 26, "/$meta/0");
    ERR1("{\"$array\": [1], \"$meta\": 1, \"$meta\": 2}", SV_ERR_SYNTAX, 26, "");
    ERR1("{\"$meta\": 1}", SV_ERR_SYNTAX, 1, "");
    ERR1("{\"$elem\": \"f32\"}", SV_ERR_SYNTAX, 1, "");
}

/* ---- tuples and packed arrays ------------------------------------------------------------------
 */

static void test_tuples(void **state)
{
    (void)state;
    sv_value v = rd("{\"$vector3\": [0.1, -2, 3e1]}");
    assert_int_equal(sv_kind_of(&v), SV_TUPLE);
    assert_int_equal(sv_tag_of(&v), SV_TAG_VECTOR3);
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F32);
    assert_int_equal(sv_len(&v), 3);
    const float *f = sv_numbers(&v);
    assert_true(f[0] == 0.1f && f[1] == -2.0f && f[2] == 30.0f);

    v = rd("{\"$vector3\": [0.1, 0.2, 0.3], \"$elem\": \"f64\"}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F64);
    const double *d = sv_numbers(&v);
    assert_true(d[0] == 0.1 && d[1] == 0.2 && d[2] == 0.3);

    v = rd("{\"$vector2i\": [1, -2]}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_I32);
    const int32_t *i = sv_numbers(&v);
    assert_true(i[0] == 1 && i[1] == -2);
    /* out of range for the default i32, fine for the $elem that follows */
    v = rd("{\"$vector2i\": [5000000000, 1], \"$elem\": \"i64\"}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_I64);
    const int64_t *l = sv_numbers(&v);
    assert_true(l[0] == INT64_C(5000000000) && l[1] == 1);
    v = rd("{\"$vector2i\": [1.5, \"nan\"], \"$elem\": \"f32\"}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F32);
    v = rd("{\"$color\": [1, 0.5, \"nan\", \"-inf\"]}");
    f = sv_numbers(&v);
    assert_true(f[1] == 0.5f && isnan(f[2]) && isinf(f[3]) && f[3] < 0);
    v = rd("{\"$vector2\": [1, 2], \"$elem\": \"f32\"}"); /* the default, said aloud */
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F32);
    v = rd("{\"$projection\": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}");
    assert_int_equal(sv_len(&v), 16);
    v = rd("{\"$vector3\": [1, 2, 3], \"$elem\": \"u8\"}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_U8);
    assert_memory_equal(sv_numbers(&v), "\x01\x02\x03", 3);

    /* {"$vector2i": [5000000000, 1]}: the number at byte 15 */
    ERR1("{\"$vector2i\": [5000000000, 1]}", SV_ERR_RANGE, 15, "/$vector2i/0");
    ERR1("{\"$vector2i\": [1, 2.5]}", SV_ERR_TYPE, 18, "/$vector2i/1");
    v = rd("{\"$vector2i\": [1, 2], \"$elem\": \"u8\"}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_U8);
}

static void test_tuple_errors(void **state)
{
    (void)state;
    /* {"$pos": ...} positions: {"$vector3": [ puts the first element at 14 */
    ERR1("{\"$vector3\": [1, 2]}", SV_ERR_SYNTAX, 18, "/$vector3");
    ERR1("{\"$vector3\": [1, 2, 3, 4]}", SV_ERR_SYNTAX, 23, "/$vector3/3");
    ERR1("{\"$vector3\": []}", SV_ERR_SYNTAX, 14, "/$vector3");
    ERR1("{\"$vector3\": [1, 2, \"x\"]}", SV_ERR_SYNTAX, 20, "/$vector3/2");
    ERR1("{\"$vector3\": [1, 2, null]}", SV_ERR_TYPE, 20, "/$vector3/2");
    ERR1("{\"$vector3\": [1, 2, [3]]}", SV_ERR_TYPE, 20, "/$vector3/2");
    ERR1("{\"$vector3\": [1, 2, 1e39]}", SV_ERR_RANGE, 20, "/$vector3/2");
    ERR1("{\"$vector3\": {\"x\": 1}}", SV_ERR_TYPE, 13, "/$vector3");
    ERR1("{\"$vector3\": [1, 2, 3], \"$elem\": \"f16\"}", SV_ERR_SYNTAX, 33, "/$elem");
    ERR1("{\"$vector3\": [1, 2, 3], \"$elem\": 4}", SV_ERR_TYPE, 33, "/$elem");
    ERR1("{\"$vector3\": [1, 2, 3], \"$meta\": 1}", SV_ERR_SYNTAX, 24, "");
    ERR1("{\"$vector3\": [1, 2, 3], \"$elem\": \"f64\", \"x\": 1}", SV_ERR_SYNTAX, 38, "");
    /* with $elem given, its own range applies: 300 is not a u8 */
    ERR1("{\"$vector3\": [1, 300, 3], \"$elem\": \"u8\"}", SV_ERR_RANGE, 17, "/$vector3/1");
    ERR1("{\"$vector3\": [1, 2, 3.5], \"$elem\": \"i8\"}", SV_ERR_TYPE, 20, "/$vector3/2");
}

static void test_packed(void **state)
{
    (void)state;
    sv_value v = rd("{\"$packed_vector3\": [[1, 2, 3], [4, 5, 6.5]]}");
    assert_int_equal(sv_kind_of(&v), SV_PACKED);
    assert_int_equal(sv_tag_of(&v), SV_TAG_PACKED_VECTOR3);
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F32);
    assert_int_equal(sv_len(&v), 6);
    const float *f = sv_numbers(&v);
    assert_true(f[0] == 1.0f && f[5] == 6.5f);
    v = rd("{\"$packed_vector2\": [[1, 2]], \"$elem\": \"f64\"}");
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F64);
    assert_int_equal(sv_len(&v), 2);
    v = rd("{\"$packed_color\": []}");
    assert_int_equal(sv_kind_of(&v), SV_PACKED);
    assert_int_equal(sv_len(&v), 0);

    v = rd("{\"$f32s\": [1.5, 2, \"inf\"]}");
    assert_int_equal(sv_kind_of(&v), SV_PACKED);
    assert_int_equal(sv_tag_of(&v), SV_TAG_NONE);
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F32);
    assert_int_equal(sv_len(&v), 3);
    v = rd("{\"$u8s\": [0, 255, 7]}");
    assert_memory_equal(sv_numbers(&v), "\x00\xff\x07", 3);
    v = rd("{\"$i16s\": [-32768, 32767]}");
    const int16_t *s = sv_numbers(&v);
    assert_true(s[0] == -32768 && s[1] == 32767);
    v = rd("{\"$u64s\": [18446744073709551615]}");
    assert_true(((const uint64_t *)sv_numbers(&v))[0] == UINT64_MAX);
    v = rd("{\"$f64s\": [\"nan\", 0.1]}");
    assert_true(((const double *)sv_numbers(&v))[1] == 0.1);
    v = rd("{\"$i64s\": []}");
    assert_int_equal(sv_len(&v), 0);
    assert_int_equal(sv_elem_of(&v), SV_ELEM_I64);

    ERR1("{\"$packed_vector3\": [[1, 2]]}", SV_ERR_SYNTAX, 26, "/$packed_vector3/0");
    ERR1("{\"$packed_vector3\": [[1, 2, 3, 4]]}", SV_ERR_SYNTAX, 31, "/$packed_vector3/0");
    ERR1("{\"$packed_vector3\": [1, 2, 3]}", SV_ERR_TYPE, 21, "/$packed_vector3/0");
    ERR1("{\"$packed_vector3\": [[1, 2, 3], [4, \"x\", 6]]}", SV_ERR_SYNTAX, 36,
         "/$packed_vector3/1/1");
    ERR1("{\"$u8s\": [1, 256]}", SV_ERR_RANGE, 13, "/$u8s/1");
    ERR1("{\"$u8s\": [1, \"nan\"]}", SV_ERR_TYPE, 13, "/$u8s/1");
    ERR1("{\"$f32s\": [[1]]}", SV_ERR_TYPE, 11, "/$f32s/0");
    ERR1("{\"$f32s\": [1,]}", SV_ERR_SYNTAX, 13, "/$f32s/1");
    ERR1("{\"$f32s\": [1], \"$elem\": \"f64\"}", SV_ERR_SYNTAX, 13, "");
}

/* ---- tags ----------------------------------------------------------------------------------- */

static void test_tags(void **state)
{
    (void)state;
    sv_value v = rd("{\"$string_name\": \"jump\"}");
    assert_str(&v, "jump", 4);
    assert_int_equal(sv_tag_of(&v), SV_TAG_STRING_NAME);
    v = rd("{\"$node_path\": \"Player/Sprite:modulate\"}");
    assert_int_equal(sv_tag_of(&v), SV_TAG_NODE_PATH);
    v = rd("{\"$rid\": 42}");
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_int_equal(sv_tag_of(&v), SV_TAG_RID);
    assert_true(v.as.i == 42);
    v = rd("{\"$rid\": {\"$u64\": 5}}");
    assert_int_equal(sv_kind_of(&v), SV_UINT);
    assert_true(sv_is_explicit(&v));
    assert_int_equal(sv_tag_of(&v), SV_TAG_RID);
    v = rd("{\"$callable\": {\"$array\": [1], \"$meta\": 2}}");
    assert_int_equal(sv_kind_of(&v), SV_ARRAY);
    assert_int_equal(sv_tag_of(&v), SV_TAG_CALLABLE);
    assert_non_null(sv_meta(&v));
    v = rd("{\"$datetime\": {\"$class\": \"D\", \"t\": [1]}}");
    assert_int_equal(sv_kind_of(&v), SV_OBJECT);
    assert_int_equal(sv_tag_of(&v), SV_TAG_DATETIME);
    v = rd("[{\"$enum\": \"x\"}, {\"$uuid\": {\"$bytes\": \"AAAAAAAAAAAAAAAAAAAAAA==\"}}]");
    assert_int_equal(sv_tag_of(sv_array_at(&v, 0)), SV_TAG_ENUM);
    assert_int_equal(sv_tag_of(sv_array_at(&v, 1)), SV_TAG_UUID);
    assert_int_equal(sv_len(sv_array_at(&v, 1)), 16);

    /* {"$string_name": 5}: the wrapped value at byte 17 has the wrong kind */
    ERR1("{\"$string_name\": 5}", SV_ERR_TYPE, 17, "/$string_name");
    ERR1("{\"$url\": [\"x\"]}", SV_ERR_TYPE, 9, "/$url");
    /* one tag per value */
    ERR1("{\"$string_name\": {\"$node_path\": \"x\"}}", SV_ERR_TYPE, 17, "/$string_name");
    ERR1("{\"$rid\": {\"$vector2\": [1, 2]}}", SV_ERR_TYPE, 9, "/$rid");
    ERR1("{\"$rid\": 1, \"x\": 2}", SV_ERR_SYNTAX, 10, "");
    ERR1("{\"$rid\": [1, x]}", SV_ERR_SYNTAX, 13, "/$rid/1");
    ERR1("{\"$rid\": }", SV_ERR_SYNTAX, 9, "/$rid");
}

static void test_unknown_and_stray_keys(void **state)
{
    (void)state;
    ERR1("{\"$foo\": 1}", SV_ERR_SYNTAX, 1, "");
    ERR1("{\"$\": 1}", SV_ERR_SYNTAX, 1, "");
    ERR1("{\"$I32\": 1}", SV_ERR_SYNTAX, 1, "");
    ERR1("{\"$i32s\": [1], \"$elem\": 1}", SV_ERR_SYNTAX, 13, "");
    ERR1("[{\"$type\": \"Foo\", \"x\": 1}]", SV_ERR_SYNTAX, 2, "/0");
    /* a later key with a single '$': {"a": 1, "$b": 2} has it at byte 9 */
    ERR1("{\"a\": 1, \"$b\": 2}", SV_ERR_SYNTAX, 9, "");
    /* an escaped '$' is still a '$' */
    sv_value v = rd("{\"\\u0024i8\": 5}");
    assert_int_equal(sv_kind_of(&v), SV_INT);
    assert_int_equal(sv_width(&v), 1);
}

/* ---- options -------------------------------------------------------------------------------- */

static void test_plain_option(void **state)
{
    (void)state;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.plain = true;
    sv_value v = read_opts("{\"$i32\": 5, \"$$x\": {\"$class\": 1}, \"$\": 2}", &o);
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_int_equal(sv_len(&v), 3);
    assert_str(sv_key_at(&v, 0), "$i32", 4);
    assert_true(sv_val_at(&v, 0)->as.i == 5);
    assert_int_equal(sv_width(sv_val_at(&v, 0)), 8);
    assert_str(sv_key_at(&v, 1), "$$x", 3);
    assert_int_equal(sv_kind_of(sv_val_at(&v, 1)), SV_MAP);
    /* still strict JSON */
    ERR_OPTS("{\"$i32\": 5,}", &o, SV_ERR_SYNTAX, 11, "");
}

static void test_comments_option(void **state)
{
    (void)state;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.allow_comments = true;
    sv_value v = read_opts("// lead\n[1, // one\n 2 /* two */, /**/3/* \xc3\xa9 */]// end", &o);
    assert_int_equal(sv_len(&v), 3);
    assert_true(sv_array_at(&v, 2)->as.i == 3);
    v = read_opts("/* a */ {/**/\"a\"/**/:/**/1/**/}", &o);
    assert_int_equal(sv_len(&v), 1);
    v = read_opts("{\"$vector2\": [1, /* y */ 2], // note\n \"$elem\": \"f64\"}", &o);
    assert_int_equal(sv_elem_of(&v), SV_ELEM_F64);

    /* without the option a comment is an error; "[1, // one" has '/' at 4 */
    ERR1("[1, // one\n2]", SV_ERR_SYNTAX, 4, "/1");
    ERR_OPTS("[1 /* x", &o, SV_ERR_TRUNCATED, 7, "");
    ERR_OPTS("[1 /x]", &o, SV_ERR_SYNTAX, 4, "");
    ERR_OPTS("[1 /", &o, SV_ERR_TRUNCATED, 4, "");
    ERR_OPTS("[1 /* \xff */]", &o, SV_ERR_UTF8, 6, "");
    ERR_OPTS("[1] /* */ x", &o, SV_ERR_TRAILING, 10, "");
}

/* ---- positions ---------------------------------------------------------------------------------
 */

static void test_error_positions(void **state)
{
    (void)state;
    /* line 1 "{", line 2 `  "a": [1,`, line 3 "    2,," (byte 13 starts it) */
    static const char t1[] = "{\n  \"a\": [1,\n    2,,\n  ]\n}";
    check_error(t1, sizeof t1 - 1, NULL, SV_ERR_SYNTAX, 19, 3, 7, "/a/2");
    /* CR does not end a line; LF does */
    static const char t2[] = "[1,\r\n2,\r\n x]";
    check_error(t2, sizeof t2 - 1, NULL, SV_ERR_SYNTAX, 10, 3, 2, "/2");
    /* the column counts bytes: "é" is two */
    static const char t3[] = "[\"\xc3\xa9\", x]";
    check_error(t3, sizeof t3 - 1, NULL, SV_ERR_SYNTAX, 7, 1, 8, "/1");

    ERR1("[1, {\"b\": tru}]", SV_ERR_SYNTAX, 13, "/1/b");
    ERR1("{\"pos\": {\"$vector3\": [1, 2, \"x\"]}}", SV_ERR_SYNTAX, 28, "/pos/$vector3/2");
    ERR1("{\"a/b~c\": [x]}", SV_ERR_SYNTAX, 11, "/a~1b~0c/0");
    ERR1("{\"$$x\": [x]}", SV_ERR_SYNTAX, 9, "/$$x/0");
    ERR1("{\"a\" 1}", SV_ERR_SYNTAX, 5, "/a");
    ERR1("{\"a\": 1 \"b\": 2}", SV_ERR_SYNTAX, 8, "");
    ERR1("[1 2]", SV_ERR_SYNTAX, 3, "");
    ERR1("[1,]", SV_ERR_SYNTAX, 3, "/1");
    ERR1("{\"a\": 1,}", SV_ERR_SYNTAX, 8, "");
    ERR1("[1] x", SV_ERR_TRAILING, 4, "");
    ERR1("[[[[1]]]]]", SV_ERR_TRAILING, 9, "");
    ERR1("[\"a\\qb\"]", SV_ERR_SYNTAX, 3, "/0");
    ERR1("{\"k\\q\": 1}", SV_ERR_SYNTAX, 3, "");
    ERR1("[\"a\tb\"]", SV_ERR_SYNTAX, 3, "/0");
    ERR1("[01]", SV_ERR_SYNTAX, 2, "/0");
    ERR1("[1.]", SV_ERR_SYNTAX, 3, "/0");
    ERR1("[1.5e]", SV_ERR_SYNTAX, 5, "/0");
    ERR1("[-]", SV_ERR_SYNTAX, 2, "/0");
    ERR1("\xef\xbb\xbf[]", SV_ERR_SYNTAX, 0, "");
    ERR1("", SV_ERR_TRUNCATED, 0, "");
    ERR1("[1, [2, ", SV_ERR_TRUNCATED, 8, "/1/1");
    ERR1("{\"a\": {\"b\": \"xy", SV_ERR_TRUNCATED, 15, "/a/b");
}

static void test_usage_and_reuse(void **state)
{
    (void)state;
    sv_value v;
    sv_error err;
    assert_int_equal(sv_json_decode(NULL, "1", 1, NULL, &v, &err), SV_ERR_USAGE);
    assert_int_equal(sv_json_decode(test_doc, NULL, 1, NULL, &v, &err), SV_ERR_USAGE);
    assert_int_equal(sv_json_decode(test_doc, "1", 1, NULL, NULL, &err), SV_ERR_USAGE);
    /* err may be NULL; an empty text with a NULL pointer is just empty */
    assert_int_equal(sv_json_decode(test_doc, "[1]", 3, NULL, &v, NULL), SV_OK);
    assert_int_equal(sv_json_decode(test_doc, NULL, 0, NULL, &v, &err), SV_ERR_TRUNCATED);
    /* an error from an earlier call does not stick */
    assert_int_equal(sv_json_decode(test_doc, "[1]", 3, NULL, &v, &err), SV_OK);
    assert_int_equal(err.status, SV_OK);
    /* the length is honoured: the bytes after it are not read */
    assert_int_equal(sv_json_decode(test_doc, "[1]]", 3, NULL, &v, &err), SV_OK);
    assert_int_equal(sv_json_decode(test_doc, "12", 1, NULL, &v, &err), SV_OK);
    assert_true(v.as.i == 1);
}

/* Lone surrogates (docs/json.md, "Strings and bytes"): the writer puts each
 * in a $str piece as its number (U+D800 is 55296: ED A0 80 in RFC 2279), a
 * UTF-16 string as {"$utf16": {"$str": [...]}}, so that jq 1.6, which
 * refuses a lone \udXXX escape, passes the text through. The reader takes
 * that form and still the escapes older writers put. */
#define SVS(lit) sv_str(test_doc, lit, sizeof(lit) - 1)
static void test_utf16_pieces(void **state)
{
    (void)state;
    sv_value v = rd("{\"$utf16\": {\"$str\": [\"a\", 55296, \"b\"]}}");
    assert_str(&v, "a\xed\xa0\x80" "b", 5);
    assert_true(v.flags & SV_F_UTF16);
    v = rd("{\"$utf16\":{\"$str\":[56320,55296]}}"); /* low then high: two lone ones */
    assert_str(&v, "\xed\xb0\x80\xed\xa0\x80", 6);
    assert_true(v.flags & SV_F_UTF16);
    v = rd("{\"$utf16\": {\"$str\": [\"\\ud800x\", 233, {\"$u8s\": [65]}]}}"); /* old escape */
    assert_str(&v, "\xed\xa0\x80x\xc3\xa9" "A", 7);
    v = rd("{\"$utf16\": {\"$str\": []}}");
    assert_str(&v, "", 0);
    assert_true(v.flags & SV_F_UTF16);
    v = rd("{\"$node_path\": {\"$utf16\": {\"$str\": [57343]}}}");
    assert_int_equal(sv_tag_of(&v), SV_TAG_NODE_PATH);
    assert_str(&v, "\xed\xbf\xbf", 3);
    assert_true(v.flags & SV_F_UTF16);
    v = rd("{\"$map\": [[{\"$utf16\": {\"$str\": [56319]}}, 1]]}");
    assert_str(sv_key_at(&v, 0), "\xed\xaf\xbf", 3);
    assert_true(sv_key_at(&v, 0)->flags & SV_F_UTF16);
    /* a UTF-16 string holds WTF-8 only: a high surrogate then a low one
     * (a pair, which WTF-8 writes as one character), any other non-UTF-8
     * byte or a character beyond U+10FFFF is an error at the payload */
    ERR1("{\"$utf16\": {\"$str\": [55296, 56320]}}", SV_ERR_UTF8, 11, "/$utf16");
    ERR1("{\"$utf16\": {\"$str\": [\"\\ud800\", \"\\udc00\"]}}", SV_ERR_UTF8, 11, "/$utf16");
    ERR1("{\"$utf16\": {\"$str\": [\"a\", {\"$u8s\": [255]}]}}", SV_ERR_UTF8, 11, "/$utf16");
    ERR1("{\"$utf16\": {\"$str\": [1114112]}}", SV_ERR_UTF8, 11, "/$utf16");
    ERR1("{\"$utf16\": {\"$str\": [true]}}", SV_ERR_TYPE, 21, "/$utf16/$str");
    ERR1("{\"$utf16\": {\"$str\": [1], \"x\": 2}}", SV_ERR_SYNTAX, 23, "/$utf16/$str");
    ERR1("{\"$utf16\": {\"$u8s\": [1]}}", SV_ERR_SYNTAX, 12, "/$utf16");
    ERR1("{\"$utf16\": [1]}", SV_ERR_TYPE, 11, "/$utf16");

    /* Round trips: a tree written and read back is equal to it (flags and
     * tags included), and its text holds no \u escape at all. */
    sv_value trees[] = {
        sv_with_flags(SVS("\xed\xa0\x80"), SV_F_UTF16),             /* lone high */
        sv_with_flags(SVS("a\xed\xb0\x80" "b"), SV_F_UTF16),        /* lone low */
        sv_with_flags(SVS("\xed\xb0\x80\xed\xa0\x80"), SV_F_UTF16), /* reversed pair */
        SVS("\xed\xa0\x80"),                                           /* plain string */
        SVS("x\xed\xa0\xbd\xed\xb8\x80y"),                             /* pair in two pieces */
        SVS("\xed\xb8\x80\xed\xa0\xbd"),
        sv_with_tag(sv_with_flags(SVS("\xed\xaf\xbf"), SV_F_UTF16), SV_TAG_STRING_NAME),
        sv_with_tag(SVS("p\xed\xbf\xbf"), SV_TAG_NODE_PATH),
        tree_map(2, sv_with_flags(SVS("\xed\xa0\x80"), SV_F_UTF16), sv_int(1),
                 SVS("k\xed\xb0\x80"), sv_int(2)),
    };
    for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++) {
        for (int indent = 0; indent <= 2; indent += 2) {
            sv_buf out;
            sv_buf_init(&out, NULL);
            sv_json_encode_opts eo;
            sv_json_encode_opts_init(&eo);
            eo.indent = indent;
            sv_error err;
            assert_int_equal(sv_json_encode(&trees[i], &eo, &out, &err), SV_OK);
            char *text = calloc(1, out.len + 1);
            assert_non_null(text);
            memcpy(text, out.data, out.len);
            if (strstr(text, "\\u")) print_error("an escape in %s\n", text);
            assert_null(strstr(text, "\\u"));
            sv_value back = rd(text);
            if (!sv_equal(&back, &trees[i])) print_error("tree %zu came back different: %s\n", i, text);
            assert_true(sv_equal(&back, &trees[i]));
            free(text);
            sv_buf_free(&out);
        }
    }
    /* the old escapes read to the same trees */
    v = rd("{\"$utf16\": \"\\udc00\\ud800\"}");
    assert_true(sv_equal(&v, &trees[2]));
    v = rd("{\"$str\": [\"x\\ud83d\", \"\\ude00y\"]}");
    assert_true(sv_equal(&v, &trees[4]));
    v = rd("{\"$node_path\": {\"$str\": [\"p\\udfff\"]}}");
    assert_true(sv_equal(&v, &trees[7]));
}

/* {"$str": [pieces]} and {"$bool": b, "$raw": n} (docs/json.md). */
static void test_odd_strings_and_bools(void **state)
{
    (void)state;
    sv_value v = rd("{\"$str\": [\"a\\ud800\", {\"$u8s\": [255, 0]}, 1114112, \"\\udc00\", 65, {\"$u8s\": []}]}");
    assert_int_equal(sv_kind_of(&v), SV_STRING);
    /* U+10000 and above in the bytes of RFC 2279: F4 90 80 80; a surrogate
     * pair split over two pieces stays two 3-byte sequences */
    static const char want[] = "a\xed\xa0\x80\xff\x00\xf4\x90\x80\x80\xed\xb0\x80" "A";
    assert_int_equal(sv_len(&v), sizeof want - 1);
    assert_memory_equal(sv_get_str(&v, NULL), want, sizeof want - 1);
    v = rd("{\"$str\":[2147483647]}");
    assert_memory_equal(sv_get_str(&v, NULL), "\xfd\xbf\xbf\xbf\xbf\xbf", 6);
    v = rd("{\"$str\":[]}");
    assert_int_equal(sv_len(&v), 0);
    v = rd("{\"$node_path\": {\"$str\": [\"a\", {\"$u8s\": [128]}]}}");
    assert_int_equal(sv_tag_of(&v), SV_TAG_NODE_PATH);
    assert_memory_equal(sv_get_str(&v, NULL), "a\x80", 2);
    ERR1("{\"$str\":[2147483648]}", SV_ERR_RANGE, 9, "/$str");
    ERR1("{\"$str\":\"a\"}", SV_ERR_TYPE, 8, "/$str");
    ERR1("{\"$str\":[true]}", SV_ERR_TYPE, 9, "/$str");
    ERR1("{\"$str\":[{\"$u8s\":[256]}]}", SV_ERR_RANGE, 18, "/$str");
    ERR1("{\"$str\":[{\"$bytes\":\"\"}]}", SV_ERR_SYNTAX, 10, "/$str");
    ERR1("{\"$str\":[\"a\" \"b\"]}", SV_ERR_SYNTAX, 13, "/$str");

    v = rd("{\"$bool\": true, \"$raw\": 127}");
    assert_int_equal(sv_kind_of(&v), SV_BOOL);
    assert_true(sv_get_bool(&v));
    assert_int_equal(sv_bool_stored(&v), 127);
    v = rd("{\"$bool\":false}");
    assert_false(sv_get_bool(&v));
    assert_int_equal(sv_bool_stored(&v), 0);
    v = rd("{\"$bool\":true,\"$raw\":1}");
    assert_true(sv_equal(&v, &(sv_value){0}) == false);
    sv_value t = sv_bool(true);
    assert_true(sv_equal(&v, &t));
    v = rd("{\"$bool\":true,\"$raw\":4294967295}");
    assert_int_equal(sv_bool_stored(&v), 4294967295u);
    ERR1("{\"$bool\":false,\"$raw\":2}", SV_ERR_RANGE, 22, "/$bool");
    ERR1("{\"$bool\":true,\"$raw\":0}", SV_ERR_RANGE, 21, "/$bool");
    ERR1("{\"$bool\":1}", SV_ERR_TYPE, 9, "/$bool");
    ERR1("{\"$bool\":true,\"$x\":1}", SV_ERR_SYNTAX, 14, "/$bool");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plain_scalars, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_plain_floats, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_plain_strings, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_plain_containers, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_int_forms, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_float_forms, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_f32_against_strtof, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_f64_against_strtod, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_string_forms, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_class_form, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_array_and_map_forms, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_tuples, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_tuple_errors, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_packed, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_tags, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_unknown_and_stray_keys, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_plain_option, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_comments_option, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_error_positions, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_usage_and_reuse, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_odd_strings_and_bools, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_utf16_pieces, test_doc_setup, test_doc_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
