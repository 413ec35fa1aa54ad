/* The typed JSON writer's fast paths (src/formats/json/json_write_containers.c and
 * the helpers in json_write_internal.h): scalars written inline inside
 * containers must give the same text as written alone, and the text
 * docs/json.md asks for; integer digits (checked against glibc's printf);
 * base64 (RFC 4648 §10 vectors, and every 12-bit group decoded back by
 * core/base64.c); the key and class caches (values that share bytes but
 * not kind, flags, tag or length must not share text); and the buffer
 * growing at every position inside an item. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/base64.h"
#include "helper_bits.h"
#include "helper_tree.h"
#include "serval/serval.h"

/* ---- helpers -------------------------------------------------------------- */

/* Writes v after prefix (kept) and compares what follows with expected. */
static void check_after(sv_value v, int indent, bool plain, const char *prefix,
                        const char *expected, size_t exp_len)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    size_t pre = strlen(prefix);
    sv_buf_append(&b, prefix, pre);
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
        fail_msg("write failed: %s", msg);
    }
    if (b.len != pre + exp_len || memcmp(b.data, prefix, pre) != 0 ||
        memcmp(b.data + pre, expected, exp_len) != 0) {
        fprintf(stderr, "got:      %.*s\nexpected: %s%.*s\n", (int)b.len, (const char *)b.data,
                prefix, (int)exp_len, expected);
        sv_buf_free(&b);
        fail_msg("output differs");
    }
    sv_buf_free(&b);
}

static void check_opts(sv_value v, int indent, bool plain, const char *expected)
{
    check_after(v, indent, plain, "", expected, strlen(expected));
}

static void check(sv_value v, const char *expected)
{
    check_opts(v, 0, false, expected);
}

static sv_error expect_fail(sv_value v, bool plain, sv_status expected)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.plain = plain;
    assert_int_equal(sv_json_encode(&v, &o, &b, &err), expected);
    assert_int_equal(b.len, 0);
    sv_buf_free(&b);
    return err;
}

static sv_value S(const char *s)
{
    return sv_strz(test_doc, s);
}

static sv_value K(const char *s)
{
    return sv_str_intern(test_doc, s, strlen(s));
}

static sv_value obj1(sv_value cls, sv_value key, sv_value val)
{
    sv_value o = sv_object(test_doc, cls, 0);
    assert_int_equal(sv_map_append(test_doc, &o, key, val), SV_OK);
    return o;
}

/* A growing text for expected outputs. */
typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void add(text *t, const char *s)
{
    size_t k = strlen(s);
    if (t->n + k + 1 > t->cap) {
        t->cap = (t->n + k + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->n, s, k + 1);
    t->n += k;
}

/* ---- every scalar inside containers ------------------------------------------- */

/* v alone and as an item of arrays, maps and objects (compact): the
 * container loops write the common scalars themselves, and must agree with
 * the general writer, which writes a value alone. */
static void check_everywhere(sv_value v, const char *exp)
{
    char buf[512];
    check(v, exp);
    snprintf(buf, sizeof buf, "[%s]", exp);
    check(tree_arr(1, v), buf);
    snprintf(buf, sizeof buf, "[%s,%s,%s]", exp, exp, exp);
    check(tree_arr(3, v, v, v), buf);
    snprintf(buf, sizeof buf, "{\"k\":%s,\"k2\":%s}", exp, exp);
    check(tree_map(2, K("k"), v, K("k2"), v), buf);
    snprintf(buf, sizeof buf, "{\"$class\":\"C\",\"k\":%s}", exp);
    check(obj1(K("C"), K("k"), v), buf);
    if (v.kind == SV_STRING && v.tag == 0 && !(v.flags & SV_F_UTF16)) return;
    snprintf(buf, sizeof buf, "{\"$map\":[[%s,%s]]}", exp, exp);
    check(tree_map(1, v, v), buf); /* not a string key: the list of pairs */
}

static void test_scalars_everywhere(void **state)
{
    (void)state;
    check_everywhere(sv_null(), "null");
    check_everywhere(sv_bool(true), "true");
    check_everywhere(sv_bool(false), "false");
    /* a bool stored as neither 0 nor 1 keeps the stored value */
    check_everywhere(sv_bool_raw(0x7F), "{\"$bool\":true,\"$raw\":127}");
    check_everywhere(sv_bool_raw(1), "true");
    /* flags that mean nothing for a kind change nothing */
    check_everywhere(sv_with_flags(sv_bool(true), SV_F_EXPLICIT), "true");
    check_everywhere(sv_with_flags(sv_null(), SV_F_NULLREF), "null");
    check_everywhere(sv_with_flags(sv_f64(2.5), SV_F_NULLREF), "2.5");
    check_everywhere(sv_int(0), "0");
    check_everywhere(sv_int(-7), "-7");
    check_everywhere(sv_int(123456789), "123456789");
    check_everywhere(sv_int(INT64_MIN), "{\"$int\":\"-9223372036854775808\"}");
    check_everywhere(sv_int(INT64_C(9007199254740992)), "9007199254740992");
    check_everywhere(sv_with_tag(sv_uint_w(UINT64_MAX, 8), SV_TAG_RID),
                     "{\"$rid\":{\"$u64\":\"18446744073709551615\"}}");
    check_everywhere(sv_with_flags(sv_int(5), SV_F_EXPLICIT), "{\"$i64\":5}");
    check_everywhere(sv_int_w(-5, 2), "{\"$i16\":-5}");
    check_everywhere(sv_uint_w(200, 1), "{\"$u8\":200}");
    check_everywhere(sv_uint(5), "{\"$u64\":5}");
    check_everywhere(sv_uint(UINT64_MAX), "{\"$uint\":\"18446744073709551615\"}");
    check_everywhere(sv_f64(1.5), "1.5");
    check_everywhere(sv_f64(-0.0), "-0.0");
    check_everywhere(sv_f64(1e300), "1e+300");
    check_everywhere(sv_f64(f64_from_bits(UINT64_C(0x7ff8000000000000))), "{\"$f64\":\"nan\"}");
    check_everywhere(sv_f64(f64_from_bits(UINT64_C(0xfff0000000000000))), "{\"$f64\":\"-inf\"}");
    check_everywhere(sv_with_flags(sv_f64(1.5), SV_F_EXPLICIT), "{\"$f64\":1.5}");
    check_everywhere(sv_f32(0.5f), "{\"$f32\":0.5}");
    check_everywhere(sv_f32(0.1f), "{\"$f32\":0.1}");
    check_everywhere(sv_f32(f32_from_bits(0x7f7fffffu)), "{\"$f32\":3.4028235e+38}");
    check_everywhere(sv_f32(f32_from_bits(0x7f800000u)), "{\"$f32\":\"inf\"}");
    check_everywhere(sv_f32(f32_from_bits(0x7fc00000u)), "{\"$f32\":\"nan\"}");
    sv_value f = sv_f32(2.0f);
    f.flags = 0; /* a float32 is a float32 whether or not marked explicit */
    check_everywhere(f, "{\"$f32\":2.0}");
    check_everywhere(sv_ref(12), "{\"$ref\":12}");
    check_everywhere(sv_ref_null(), "{\"$ref\":null}");
    check_everywhere(sv_bytes(test_doc, "foob", 4), "{\"$bytes\":\"Zm9vYg==\"}");
    check_everywhere(sv_with_tag(S("jump"), SV_TAG_STRING_NAME), "{\"$string_name\":\"jump\"}");
    check_everywhere(sv_with_tag(sv_int(42), SV_TAG_RID), "{\"$rid\":42}");
    check_everywhere(sv_with_tag(sv_null(), SV_TAG_MINKEY), "{\"$minkey\":null}");
    check_everywhere(sv_with_tag(sv_bool(true), SV_TAG_ENUM), "{\"$enum\":true}");
    check_everywhere(sv_with_tag(sv_f64(0.25), SV_TAG_DATETIME), "{\"$datetime\":0.25}");
    check_everywhere(sv_with_flags(S("ab"), SV_F_UTF16), "{\"$utf16\":\"ab\"}");
    float v3[3] = {1.0f, -2.5f, 0.1f};
    check_everywhere(sv_tuple(test_doc, SV_TAG_VECTOR3, SV_ELEM_F32, v3),
                     "{\"$vector3\":[1.0,-2.5,0.1]}");
    check_everywhere(tree_arr(0), "[]");
    check_everywhere(tree_map(0), "{}");
}

/* Strings of every length around the inline limit (16 bytes) with a byte
 * that needs an escape, or is not ASCII, at every position. */
static void test_strings_everywhere(void **state)
{
    (void)state;
    static const char *const odd[] = {"\"", "\\", "\n", "\x1f", "\xc3\xa9", "\xe2\x82\xac"};
    static const char *const odd_text[] = {"\\\"",    "\\\\",     "\\n",
                                           "\\u001f", "\xc3\xa9", "\xe2\x82\xac"};
    for (size_t len = 0; len <= 20; len++) {
        char in[64], exp[128];
        for (size_t i = 0; i < len; i++)
            in[i] = (char)('a' + i);
        in[len] = '\0';
        snprintf(exp, sizeof exp, "\"%s\"", in);
        check_everywhere(S(in), exp);
        for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
            for (size_t pos = 0; pos < len; pos++) {
                /* in[pos] replaced by odd[k] */
                char in2[64];
                snprintf(in2, sizeof in2, "%.*s%s%s", (int)pos, in, odd[k], in + pos + 1);
                snprintf(exp, sizeof exp, "\"%.*s%s%s\"", (int)pos, in, odd_text[k], in + pos + 1);
                check_everywhere(S(in2), exp);
            }
        }
    }
    /* an invalid byte inside a short string is found inside containers too:
     * the string takes the $str form */
    check_everywhere(S("ab\xff"), "{\"$str\":[\"ab\",{\"$u8s\":[255]}]}");
}

/* The inline float32 form and containers in pretty and plain mode. */
static void test_pretty_and_plain_items(void **state)
{
    (void)state;
    sv_value a = tree_arr(4, sv_f32(0.5f), sv_int(3), S("x"), sv_bool(false));
    check_opts(a, 2, false, "[\n  {\"$f32\": 0.5},\n  3,\n  \"x\",\n  false\n]");
    check_opts(a, 0, true, "[0.5,3,\"x\",false]");
    check_opts(a, 3, true, "[\n   0.5,\n   3,\n   \"x\",\n   false\n]");
    sv_value m = tree_map(2, K("a"), sv_f32(1.5f), K("b"), tree_arr(1, sv_null()));
    check_opts(m, 2, false, "{\n  \"a\": {\"$f32\": 1.5},\n  \"b\": [\n    null\n  ]\n}");
    check_opts(m, 0, true, "{\"a\":1.5,\"b\":[null]}");
    /* a wide indentation: each line's spaces are written 16 at a time */
    check_opts(tree_arr(1, tree_arr(1, sv_int(1))), 20, false,
               "[\n                    [\n                                        1\n"
               "                    ]\n]");
}

/* ---- integer digits ------------------------------------------------------------ */

static void add_int(text *t, const char *fmt_open, int64_t i)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt_open, i);
    add(t, buf);
}

/* Writes the int64s xs[0..n) as plain numbers (inline), as {"$i64": n}
 * forms (the general writer) and negated, and compares with printf. */
/* Beyond ±2^53 an integer is written as a string (docs/json.md, "Integers
 * beyond 2^53"): the expected texts of a width-less and an explicit int. */
static bool beyond_2_53(int64_t x)
{
    return x > (INT64_C(1) << 53) || x < -(INT64_C(1) << 53);
}

static void add_int_forms(text *bare, text *form, int64_t x)
{
    if (beyond_2_53(x)) {
        add_int(bare, "{\"$int\":\"%" PRId64 "\"}", x);
        add_int(form, "{\"$i64\":\"%" PRId64 "\"}", x);
    } else {
        add_int(bare, "%" PRId64, x);
        add_int(form, "{\"$i64\":%" PRId64 "}", x);
    }
}

static void check_ints(const int64_t *xs, size_t n)
{
    sv_value plain = sv_array(test_doc, n), forms = sv_array(test_doc, n), neg = sv_array(test_doc, n);
    sv_value *pi = sv_array_items(&plain), *fi = sv_array_items(&forms), *ni = sv_array_items(&neg);
    text e1 = {0}, e2 = {0}, e3 = {0};
    add(&e1, "[");
    add(&e2, "[");
    add(&e3, "[");
    for (size_t i = 0; i < n; i++) {
        const char *sep = i ? "," : "";
        add(&e1, sep);
        add(&e2, sep);
        add(&e3, sep);
        pi[i] = sv_int(xs[i]);
        fi[i] = sv_int_w(xs[i], 8);
        ni[i] = sv_int(xs[i] == INT64_MIN ? INT64_MAX : -xs[i]);
        add_int_forms(&e1, &e2, xs[i]);
        text unused = {0};
        add_int_forms(&e3, &unused, xs[i] == INT64_MIN ? INT64_MAX : -xs[i]);
        free(unused.s);
    }
    add(&e1, "]");
    add(&e2, "]");
    add(&e3, "]");
    check(plain, e1.s);
    check(forms, e2.s);
    check(neg, e3.s);
    free(e1.s);
    free(e2.s);
    free(e3.s);
}

static void test_int_digits(void **state)
{
    (void)state;
    /* every number of up to five digits */
    enum { SMALL = 100000 };
    int64_t *xs = malloc(SMALL * sizeof *xs);
    assert_non_null(xs);
    for (int64_t i = 0; i < SMALL; i++)
        xs[i] = i;
    check_ints(xs, SMALL);
    /* five to eight digits are made as two 4-digit halves: every value of
     * the upper half with the lower half 0, equal to it, and its
     * complement, which covers every value of the lower half too */
    size_t n = 0;
    for (int64_t h = 1; h < 10000; h++) {
        xs[n++] = h * 10000;
        xs[n++] = h * 10000 + h;
        xs[n++] = h * 10000 + (9999 - h);
    }
    check_ints(xs, n);
    /* around every power of ten, and the extremes */
    n = 0;
    for (int64_t p = 1; p <= INT64_MAX / 10; p *= 10) {
        xs[n++] = p * 10 - 1;
        xs[n++] = p * 10;
        xs[n++] = p * 10 + 1;
    }
    xs[n++] = INT64_MAX;
    xs[n++] = INT64_MIN;
    xs[n++] = INT64_MIN + 1;
    check_ints(xs, n);
    free(xs);
    /* width-less uints beyond 2^53 are $uint strings, the others $u64 forms */
    check(tree_arr(4, sv_uint(UINT64_C(9999999999999999999)), sv_uint(UINT64_C(10000000000000000000)),
              sv_uint(UINT64_C(9223372036854775807)), sv_uint(UINT64_C(9007199254740992))),
          "[{\"$uint\":\"9999999999999999999\"},{\"$uint\":\"10000000000000000000\"},"
          "{\"$u64\":\"9223372036854775807\"},{\"$u64\":9007199254740992}]");
    check(tree_arr(4, sv_uint_w(0, 1), sv_uint_w(9, 2), sv_uint_w(10, 4), sv_uint_w(99999999, 4)),
          "[{\"$u8\":0},{\"$u16\":9},{\"$u32\":10},{\"$u32\":99999999}]");
    check(tree_arr(3, sv_int_w(-1, 1), sv_int_w(-10000, 2), sv_int_w(-100000000, 4)),
          "[{\"$i8\":-1},{\"$i16\":-10000},{\"$i32\":-100000000}]");
    /* packed integers use the same digits */
    int32_t p[6] = {0, -1, 10, -9999, 123456789, INT32_MIN};
    check(sv_packed(test_doc, SV_ELEM_I32, SV_TAG_NONE, p, 6),
          "{\"$i32s\":[0,-1,10,-9999,123456789,-2147483648]}");
}

/* ---- base64 --------------------------------------------------------------------- */

static void test_base64(void **state)
{
    (void)state;
    /* RFC 4648 §10 */
    check(sv_bytes(test_doc, "", 0), "{\"$bytes\":\"\"}");
    check(sv_bytes(test_doc, "f", 1), "{\"$bytes\":\"Zg==\"}");
    check(sv_bytes(test_doc, "fo", 2), "{\"$bytes\":\"Zm8=\"}");
    check(sv_bytes(test_doc, "foo", 3), "{\"$bytes\":\"Zm9v\"}");
    check(sv_bytes(test_doc, "foob", 4), "{\"$bytes\":\"Zm9vYg==\"}");
    check(sv_bytes(test_doc, "fooba", 5), "{\"$bytes\":\"Zm9vYmE=\"}");
    check(sv_bytes(test_doc, "foobar", 6), "{\"$bytes\":\"Zm9vYmFy\"}");
    check_opts(sv_bytes(test_doc, "foobar", 6), 0, true, "\"Zm9vYmFy\"");
    check_opts(sv_bytes(test_doc, "fo", 2), 2, false, "{\"$bytes\": \"Zm8=\"}");
    /* the last two characters of the alphabet */
    check(sv_bytes(test_doc, "\xfb\xff\xbf", 3), "{\"$bytes\":\"+/+/\"}");
    /* every 12-bit value as the first and the second half of a 3-byte
     * group, and tails of one and two bytes: decoded back by core/base64.c */
    enum { GROUPS = 4096 };
    uint8_t *in = malloc(3 * GROUPS + 2);
    assert_non_null(in);
    for (unsigned x = 0; x < GROUPS; x++) {
        uint32_t g = (uint32_t)x << 12 | x;
        in[3 * x] = (uint8_t)(g >> 16);
        in[3 * x + 1] = (uint8_t)(g >> 8);
        in[3 * x + 2] = (uint8_t)g;
    }
    in[3 * GROUPS] = 0xfe;
    in[3 * GROUPS + 1] = 0x01;
    for (size_t n = 3 * GROUPS; n <= 3 * GROUPS + 2; n++) {
        sv_value v = sv_bytes(test_doc, in, n);
        sv_buf b;
        sv_buf_init(&b, NULL);
        assert_int_equal(sv_json_encode(&v, NULL, &b, NULL), SV_OK);
        /* {"$bytes":" ... "} */
        assert_true(b.len > 13);
        assert_memory_equal(b.data, "{\"$bytes\":\"", 11);
        assert_memory_equal(b.data + b.len - 2, "\"}", 2);
        size_t enc = b.len - 13;
        assert_int_equal(enc, (n + 2) / 3 * 4);
        uint8_t *out = malloc(enc / 4 * 3);
        assert_non_null(out);
        size_t out_len = 0;
        assert_true(sv__core_base64_decode((const char *)b.data + 11, enc, out, &out_len, NULL));
        assert_int_equal(out_len, n);
        assert_memory_equal(out, in, n);
        free(out);
        sv_buf_free(&b);
    }
    free(in);
}

/* ---- the key and class caches --------------------------------------------------- */

/* Keys that share their bytes but differ in length, flags or tag are
 * different keys, whatever was written before them. */
static void test_key_cache_identity(void **state)
{
    (void)state;
    sv_value name = K("name");
    sv_value na = name;
    na.len = 2; /* the same bytes, shorter */
    sv_value m = tree_map(2, name, sv_int(1), na, sv_int(2));
    check(tree_arr(3, m, m, m), "[{\"name\":1,\"na\":2},{\"name\":1,\"na\":2},{\"name\":1,\"na\":2}]");
    /* the same bytes from UTF-16: not an object key in typed mode */
    sv_value wide = sv_with_flags(name, SV_F_UTF16);
    check(tree_arr(3, tree_map(1, name, sv_int(1)), tree_map(1, wide, sv_int(2)), tree_map(1, name, sv_int(3))),
          "[{\"name\":1},{\"$map\":[[{\"$utf16\":\"name\"},2]]},{\"name\":3}]");
    /* plain mode writes it as a key */
    check_opts(tree_arr(2, tree_map(1, name, sv_int(1)), tree_map(1, wide, sv_int(2))), 0, true,
               "[{\"name\":1},{\"name\":2}]");
    /* tagged: not a key either */
    sv_value tagged = sv_with_tag(name, SV_TAG_STRING_NAME);
    check(tree_arr(2, tree_map(1, name, sv_int(1)), tree_map(1, tagged, sv_int(2))),
          "[{\"name\":1},{\"$map\":[[{\"$string_name\":\"name\"},2]]}]");
    /* an object field with such a name is an error, after the same bytes
     * were written as a valid key */
    sv_value o = obj1(K("C"), wide, sv_int(1));
    sv_error err = expect_fail(tree_arr(2, obj1(K("C"), name, sv_int(1)), o), false, SV_ERR_TYPE);
    assert_string_equal(err.path, "/1/0");
    /* a leading '$' is doubled in typed mode only */
    sv_value dk = K("$k");
    check(tree_arr(2, tree_map(1, dk, sv_int(1)), tree_map(1, dk, sv_int(2))), "[{\"$$k\":1},{\"$$k\":2}]");
    check_opts(tree_arr(2, tree_map(1, dk, sv_int(1)), tree_map(1, dk, sv_int(2))), 0, true,
               "[{\"$k\":1},{\"$k\":2}]");
    /* keys with escapes, empty keys (with and without storage) */
    sv_value q = K("a\"b"), empty = K(""), nostore = K("");
    nostore.as.str = NULL;
    sv_value m2 = tree_map(3, q, sv_int(1), empty, sv_int(2), nostore, sv_int(3));
    check(tree_arr(2, m2, m2), "[{\"a\\\"b\":1,\"\":2,\"\":3},{\"a\\\"b\":1,\"\":2,\"\":3}]");
    /* pretty: the remembered text has its space */
    check_opts(tree_arr(2, tree_map(1, name, sv_int(1)), tree_map(1, name, sv_int(2))), 1, false,
               "[\n {\n  \"name\": 1\n },\n {\n  \"name\": 2\n }\n]");
}

/* Many more keys than the cache holds, some too long for it, met in
 * different orders: every one is written right. */
static void test_key_cache_many(void **state)
{
    (void)state;
    enum { KEYS = 300, ROUNDS = 4 };
    static char names[KEYS][48];
    sv_value keys[KEYS];
    for (int i = 0; i < KEYS; i++) {
        if (i % 7 == 3)
            snprintf(names[i], sizeof names[i], "a key far too long to be remembered %d", i);
        else
            snprintf(names[i], sizeof names[i], "k%d", i);
        keys[i] = K(names[i]);
    }
    sv_value a = sv_array(test_doc, 0);
    text e = {0};
    add(&e, "[");
    for (int r = 0; r < ROUNDS; r++) {
        sv_value m = sv_map(test_doc, 0);
        add(&e, r ? ",{" : "{");
        for (int j = 0; j < KEYS; j++) {
            /* forwards, backwards, then two strides */
            int i = r == 0 ? j : r == 1 ? KEYS - 1 - j : (j * (r == 2 ? 7 : 11)) % KEYS;
            assert_int_equal(sv_map_append(test_doc, &m, keys[i], sv_int(i)), SV_OK);
            char buf[96];
            snprintf(buf, sizeof buf, "%s\"%s\":%d", j ? "," : "", names[i], i);
            add(&e, buf);
        }
        add(&e, "}");
        assert_int_equal(sv_array_append(test_doc, &a, m), SV_OK);
    }
    add(&e, "]");
    check(a, e.s);
    free(e.s);
}

/* An object field whose name cannot be a key is reported by its index, on
 * both layouts (pairs, and a compact object's shape), past the first field:
 * the members loop walks the fields by pointer and works the index out
 * again only then. */
static void test_bad_field_name_index(void **state)
{
    (void)state;
    sv_value wide = sv_with_flags(K("c"), SV_F_UTF16);
    sv_value pairs = sv_object(test_doc, K("C"), 0);
    assert_int_equal(sv_map_append(test_doc, &pairs, K("a"), sv_int(1)), SV_OK);
    assert_int_equal(sv_map_append(test_doc, &pairs, K("b"), sv_int(2)), SV_OK);
    assert_int_equal(sv_map_append(test_doc, &pairs, wide, sv_int(3)), SV_OK);
    sv_error err = expect_fail(tree_arr(2, obj1(K("C"), K("a"), sv_int(0)), pairs), false, SV_ERR_TYPE);
    assert_string_equal(err.path, "/1/2");

    sv_value keys[4] = {K("a"), K("b"), K("d"), wide};
    const sv_shape *shape = sv_shape_new(test_doc, K("D"), keys, 4);
    assert_non_null(shape);
    sv_value compact = sv_object_compact(test_doc, shape);
    for (size_t i = 0; i < 4; i++)
        *sv_val_at(&compact, i) = sv_int((int64_t)i);
    err = expect_fail(tree_arr(1, compact), false, SV_ERR_TYPE);
    assert_string_equal(err.path, "/0/3");
}

static void test_class_cache(void **state)
{
    (void)state;
    sv_value a = K("A"), b = K("B"), q = K("q\"t"),
             long_cls = K("a class name far too long to be remembered");
    sv_value h = sv_uint(7);
    sv_value list =
        tree_arr(9, obj1(a, K("x"), sv_int(1)), obj1(a, K("x"), sv_int(2)), obj1(b, K("x"), sv_int(3)),
            obj1(a, K("x"), sv_int(4)), obj1(h, K("x"), sv_int(5)), obj1(h, K("x"), sv_int(6)),
            obj1(q, K("x"), sv_int(7)), obj1(long_cls, K("x"), sv_int(8)),
            obj1(long_cls, K("x"), sv_int(9)));
    check(list, "[{\"$class\":\"A\",\"x\":1},{\"$class\":\"A\",\"x\":2},"
                "{\"$class\":\"B\",\"x\":3},{\"$class\":\"A\",\"x\":4},"
                "{\"$class\":7,\"x\":5},{\"$class\":7,\"x\":6},"
                "{\"$class\":\"q\\\"t\",\"x\":7},"
                "{\"$class\":\"a class name far too long to be remembered\",\"x\":8},"
                "{\"$class\":\"a class name far too long to be remembered\",\"x\":9}]");
    check_opts(tree_arr(2, obj1(a, K("x"), sv_int(1)), obj1(a, K("x"), sv_int(2))), 2, false,
               "[\n  {\n    \"$class\": \"A\",\n    \"x\": 1\n  },\n"
               "  {\n    \"$class\": \"A\",\n    \"x\": 2\n  }\n]");
    /* a class with the bytes of a remembered one but from UTF-16, or
     * tagged: still refused */
    sv_value wide = obj1(a, K("x"), sv_int(2));
    sv_value tagged = obj1(a, K("x"), sv_int(3));
    sv_value bad_wide = sv_with_flags(a, SV_F_UTF16), bad_tag = sv_with_tag(a, SV_TAG_NODE_PATH);
    /* the class lives in the container: point it at the bad values */
    sv_value *wcls = sv_doc_alloc(test_doc, sizeof *wcls), *tcls = sv_doc_alloc(test_doc, sizeof *tcls);
    assert_non_null(wcls);
    assert_non_null(tcls);
    *wcls = bad_wide;
    *tcls = bad_tag;
    wide.as.box->cls = wcls;
    tagged.as.box->cls = tcls;
    sv_error err = expect_fail(tree_arr(2, obj1(a, K("x"), sv_int(1)), wide), false, SV_ERR_TYPE);
    assert_string_equal(err.path, "/1");
    err = expect_fail(tree_arr(2, obj1(a, K("x"), sv_int(1)), tagged), false, SV_ERR_TYPE);
    assert_string_equal(err.path, "/1");
}

/* ---- the buffer growing inside an item ------------------------------------------- */

/* The output starts after prefixes of every length from 0 to 80 bytes, so
 * that the buffer fills up at a different place in the items each time. */
static void test_growth_positions(void **state)
{
    (void)state;
    sv_value a = sv_array(test_doc, 0);
    text e = {0}, ep = {0};
    add(&e, "[");
    add(&ep, "[");
    for (int i = 0; i < 400; i++) {
        sv_value o = sv_object(test_doc, K("Thing"), 0);
        assert_int_equal(sv_map_append(test_doc, &o, K("name"), S("abcdefghijk")), SV_OK);
        assert_int_equal(sv_map_append(test_doc, &o, K("n"), sv_int(12345 + i)), SV_OK);
        assert_int_equal(sv_map_append(test_doc, &o, K("f"), sv_f64(0.125)), SV_OK);
        assert_int_equal(sv_map_append(test_doc, &o, K("v"),
                                       tree_arr(2, sv_f32(1.5f), S("a longer string value"))),
                         SV_OK);
        assert_int_equal(sv_array_append(test_doc, &a, o), SV_OK);
        char buf[256];
        snprintf(buf, sizeof buf,
                 "%s{\"$class\":\"Thing\",\"name\":\"abcdefghijk\",\"n\":%d,\"f\":0.125,"
                 "\"v\":[{\"$f32\":1.5},\"a longer string value\"]}",
                 i ? "," : "", 12345 + i);
        add(&e, buf);
        snprintf(buf, sizeof buf,
                 "%s\n {\n  \"$class\": \"Thing\",\n  \"name\": \"abcdefghijk\",\n  \"n\": %d,\n"
                 "  \"f\": 0.125,\n  \"v\": [\n   {\"$f32\": 1.5},\n   \"a longer string value\"\n"
                 "  ]\n }",
                 i ? "," : "", 12345 + i);
        add(&ep, buf);
    }
    add(&e, "]");
    add(&ep, "\n]");
    char prefix[81];
    for (size_t pre = 0; pre <= 80; pre++) {
        memset(prefix, 'p', pre);
        prefix[pre] = '\0';
        check_after(a, 0, false, prefix, e.s, e.n);
        check_after(a, 1, false, prefix, ep.s, ep.n);
    }
    free(e.s);
    free(ep.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars_everywhere),
        cmocka_unit_test(test_strings_everywhere),
        cmocka_unit_test(test_pretty_and_plain_items),
        cmocka_unit_test(test_int_digits),
        cmocka_unit_test(test_base64),
        cmocka_unit_test(test_key_cache_identity),
        cmocka_unit_test(test_key_cache_many),
        cmocka_unit_test(test_bad_field_name_index),
        cmocka_unit_test(test_class_cache),
        cmocka_unit_test(test_growth_positions),
    };
    return cmocka_run_group_tests(tests, test_doc_setup, test_doc_teardown);
}
