/* The typed JSON reader's fast paths (src/formats/json/json_read_fast.h and the
 * key prediction in json_read.c): each takes the common shape of something
 * and leaves the rest to the general code, so these tests put every fast
 * path next to its edges. Numbers are checked against glibc's strtod,
 * strtof, strtoll and strtoull as the oracle, in the middle of a long text
 * (the fast scanners) and at its very end (the careful ones); keys, classes
 * and forms are checked for what the text says, whatever came before. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/value_internal.h"
#include "formats/json/json_read_internal.h"
#include "helper_tree.h"
#include "serval/serval.h"

static sv_value read_len(const char *text, size_t len, const sv_json_decode_opts *opts)
{
    sv_value v;
    sv_error err;
    sv_status st = sv_json_decode(test_doc, text, len, opts, &v, &err);
    if (st != SV_OK) {
        char buf[512];
        sv_error_format(&err, buf, sizeof buf);
        print_error("unexpected failure: %s\n  text: %.300s\n", buf, text);
    }
    assert_int_equal(st, SV_OK);
    return v;
}

static sv_value rd(const char *text)
{
    return read_len(text, strlen(text), NULL);
}

static sv_status rd_err(const char *text, sv_error *err)
{
    sv_value v;
    return sv_json_decode(test_doc, text, strlen(text), NULL, &v, err);
}

static uint64_t s_rnd = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rnd(void)
{
    s_rnd ^= s_rnd << 13;
    s_rnd ^= s_rnd >> 7;
    s_rnd ^= s_rnd << 17;
    return s_rnd;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint32_t tuple_bits(const sv_value *v, size_t i)
{
    uint32_t b;
    memcpy(&b, (const char *)sv_numbers(v) + 4 * i, 4);
    return b;
}

/* Text that keeps every number well inside the input (40+ bytes follow). */
#define PAD ",\"........................................................\"]"

/* ---- value words ---------------------------------------------------------------------- */

/* jr_value builds the two words of a value; they must be the bytes that
 * value.h's fields give (the bit-field layout, json_read_internal.h). */
static void test_value_words(void **state)
{
    (void)state;
    static const char text[] = "abc";
    sv_value a = sv__core_make(SV_INT, 8, 0), b;
    a.as.i = -5;
    b = jr_value(jr_hdr(SV_INT, 0, 8, 0, 0), (uint64_t)-5);
    assert_memory_equal(&a, &b, sizeof a);

    a = sv__core_make(SV_UINT, 1, SV_F_EXPLICIT);
    a.as.u = 200;
    b = jr_value(jr_hdr(SV_UINT, SV_F_EXPLICIT, 1, 0, 0), 200);
    assert_memory_equal(&a, &b, sizeof a);

    a = sv_f32(1.5f);
    b = jr_value(jr_hdr(SV_FLOAT, SV_F_EXPLICIT, 4, 0, 0), jr_f32_word(1.5f));
    assert_memory_equal(&a, &b, sizeof a);

    a = sv__core_str_value(text, 3);
    b = jr_value(jr_hdr(SV_STRING, 0, 0, 0, 3), jr_ptr_word(text));
    assert_memory_equal(&a, &b, sizeof a);

    a = sv__core_make(SV_TUPLE, SV_ELEM_F32, 0);
    a.tag = SV_TAG_VECTOR3;
    a.len = 3;
    a.as.data = text;
    b = jr_value(jr_hdr(SV_TUPLE, 0, SV_ELEM_F32, SV_TAG_VECTOR3, 3), jr_ptr_word(text));
    assert_memory_equal(&a, &b, sizeof a);

    a = sv_bool(true);
    b = jr_value(jr_hdr(SV_BOOL, 0, 0, 0, 0), jr_bool_word(true));
    assert_memory_equal(&a, &b, sizeof a);

    a = sv_ref_null();
    b = jr_value(jr_hdr(SV_REF, SV_F_NULLREF, 0, 0, 0), 0);
    assert_memory_equal(&a, &b, sizeof a);
    a = sv_with_flags(sv_str(test_doc, "x", 1), SV_F_UTF16);
    b = jr_value(jr_hdr(SV_STRING, SV_F_UTF16, 0, 0, 1), jr_ptr_word(a.as.str));
    assert_memory_equal(&a, &b, sizeof a);
}

/* ---- numbers ------------------------------------------------------------------------ */

/* A random decimal without exponent: sign, 1 to 20 integer digits (or 0),
 * 0 to 21 digits after the point. */
static void random_decimal(char *out, int frac_min)
{
    int n = 0;
    if (rnd() & 1) out[n++] = '-';
    int ni = (int)(rnd() % 8) == 0 ? 1 + (int)(rnd() % 20) : 1 + (int)(rnd() % 4);
    if (rnd() % 5 == 0) {
        out[n++] = '0';
    } else {
        out[n++] = (char)('1' + rnd() % 9);
        for (int k = 1; k < ni; k++)
            out[n++] = (char)('0' + rnd() % 10);
    }
    int nf = frac_min + (int)(rnd() % (unsigned)(22 - frac_min));
    if (nf) {
        out[n++] = '.';
        for (int k = 0; k < nf; k++)
            out[n++] = (char)('0' + rnd() % 10);
    }
    out[n] = '\0';
}

/* The same decimal inside a long text and at the end of one. */
static void check_f64(const char *num)
{
    char json[256];
    double want = strtod(num, NULL);
    if (isinf(want)) return;
    snprintf(json, sizeof json, "[%s" PAD, num);
    sv_value v = rd(json);
    const sv_value *x = sv_array_at(&v, 0);
    bool is_int = !strchr(num, '.');
    if (is_int && sv_kind_of(x) != SV_FLOAT) return; /* integers: check_int */
    if (f64_bits(x->as.f64) != f64_bits(want)) print_error("%s inside a text\n", num);
    assert_true(f64_bits(x->as.f64) == f64_bits(want));
    if (!is_int) {
        snprintf(json, sizeof json, "%s", num);
        v = rd(json);
        assert_true(f64_bits(v.as.f64) == f64_bits(want));
    }
}

static void check_f32(const char *num)
{
    char json[256];
    errno = 0;
    float want = strtof(num, NULL);
    if (isinf(want) || errno == ERANGE) return;
    snprintf(json, sizeof json, "[{\"$f32\":%s}" PAD, num);
    sv_value v = rd(json);
    assert_true(f32_bits(sv_array_at(&v, 0)->as.f32) == f32_bits(want));
    snprintf(json, sizeof json, "{\"$f32\":%s}", num);
    v = rd(json);
    assert_true(f32_bits(v.as.f32) == f32_bits(want));
    snprintf(json, sizeof json, "[{\"$vector3\":[%s,1.5,%s]}" PAD, num, num);
    v = rd(json);
    const sv_value *t = sv_array_at(&v, 0);
    assert_int_equal(sv_kind_of(t), SV_TUPLE);
    assert_int_equal(sv_tag_of(t), SV_TAG_VECTOR3);
    assert_true(tuple_bits(t, 0) == f32_bits(want));
    assert_true(tuple_bits(t, 1) == f32_bits(1.5f));
    assert_true(tuple_bits(t, 2) == f32_bits(want));
}

static void test_decimals_against_strtod(void **state)
{
    (void)state;
    char num[64];
    for (int i = 0; i < 40000; i++) {
        random_decimal(num, 0);
        check_f64(num);
        check_f32(num);
    }
    /* long mantissas with 5 to 19 digits after the point (jr_lemire) */
    for (int i = 0; i < 40000; i++) {
        int n = 0, nd = 16 + (int)(rnd() % 4), nf = 5 + (int)(rnd() % 15);
        if (rnd() & 1) num[n++] = '-';
        if (nf >= nd) {
            num[n++] = '0';
            num[n++] = '.';
            for (int k = nd; k < nf; k++)
                num[n++] = '0';
        }
        for (int k = 0; k < nd; k++) {
            if (nf < nd && k == nd - nf) num[n++] = '.';
            num[n++] = (char)((k == 0 ? '1' + rnd() % 9 : '0' + rnd() % 10));
        }
        num[n] = '\0';
        check_f64(num);
    }
    /* exact doubles with many digits: a * 5^nf is a / 2^nf in decimal */
    for (int i = 0; i < 20000; i++) {
        unsigned nf = 5 + (unsigned)(rnd() % 15);
        uint64_t p5 = 1;
        for (unsigned k = 0; k < nf; k++)
            p5 *= 5;
        uint64_t lim = UINT64_C(9999999999999999999) / p5;
        if (!lim) continue;
        uint64_t m = (1 + rnd() % lim) * p5;
        char digits[32];
        int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)m);
        if ((int)nf >= nd) continue;
        snprintf(num, sizeof num, "%.*s.%s", nd - (int)nf, digits, digits + nd - (int)nf);
        check_f64(num);
    }
    /* hand-picked: halfway between 2^53 and its neighbours (to even), the
     * float midpoint above 1, and the shortest forms of the bench data */
    check_f64("9007199254740993.0");
    check_f64("9007199254740995.0");
    check_f64("90071992547409930.0");
    check_f64("0.1");
    check_f64("-0.0");
    check_f64("132.1511658573162");
    check_f64("-18.033993412112093");
    check_f64("0.01762890742189338");
    check_f32("1.0000000596046448");
    check_f32("1.00000005960464477539");
    check_f32("16777217.0");
    check_f32("-772.7038");
    check_f32("2.6938953");
    check_f32("0.107826516");
    /* signed zeros keep their sign (the sign is applied as a bit) */
    check_f64("-0.000");
    check_f32("-0.0");
    check_f32("-0");
    check_f32("0.0");
}

static void check_int(const char *num)
{
    char json[256];
    snprintf(json, sizeof json, "[%s" PAD, num);
    sv_value v = rd(json);
    const sv_value *x = sv_array_at(&v, 0);
    errno = 0;
    long long s = strtoll(num, NULL, 10);
    if (errno == 0) {
        assert_int_equal(sv_kind_of(x), SV_INT);
        assert_true(x->as.i == s);
        return;
    }
    errno = 0;
    unsigned long long u = strtoull(num, NULL, 10);
    if (errno == 0 && num[0] != '-') {
        assert_int_equal(sv_kind_of(x), SV_UINT);
        assert_true(x->as.u == u);
        return;
    }
    assert_int_equal(sv_kind_of(x), SV_FLOAT); /* beyond both: the nearest double */
    assert_true(f64_bits(x->as.f64) == f64_bits(strtod(num, NULL)));
}

/* Integer forms: the value when it fits the width, else SV_ERR_RANGE. */
static void check_int_form(const char *form, long long lo, unsigned long long hi, const char *num)
{
    char json[256];
    sv_error err;
    snprintf(json, sizeof json, "[{\"%s\":%s}" PAD, form, num);
    errno = 0;
    bool neg = num[0] == '-';
    long long s = strtoll(num, NULL, 10);
    bool fits_s = errno == 0;
    errno = 0;
    unsigned long long u = strtoull(num, NULL, 10);
    bool fits_u = errno == 0 && !neg;
    bool fits = neg ? fits_s && s >= lo : fits_u && u <= hi;
    if (neg && fits_s && s == 0) fits = true; /* -0 */
    sv_status st = rd_err(json, &err);
    if (!fits) {
        assert_int_equal(st, SV_ERR_RANGE);
        return;
    }
    assert_int_equal(st, SV_OK);
    sv_value v = read_len(json, strlen(json), NULL);
    const sv_value *x = sv_array_at(&v, 0);
    assert_true(sv_is_explicit(x));
    if (neg)
        assert_true(x->as.i == s);
    else
        assert_true(x->as.u == u);
}

static void test_integers(void **state)
{
    (void)state;
    static const char *const fixed[] = {
        "0", "-0", "7", "255", "256", "-128", "-129", "65535", "65536", "-32768", "-32769",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "12345678",
        "123456789", "1000"};
    char num[64];
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] + 20000; i++) {
        if (i < sizeof fixed / sizeof fixed[0]) {
            snprintf(num, sizeof num, "%s", fixed[i]);
        } else {
            int n = 0, nd = 1 + (int)(rnd() % 20);
            if (rnd() & 1) num[n++] = '-';
            num[n++] = (char)('1' + rnd() % 9);
            for (int k = 1; k < nd; k++)
                num[n++] = (char)('0' + rnd() % 10);
            num[n] = '\0';
        }
        check_int(num);
        check_int_form("$u8", 0, UINT8_MAX, num);
        check_int_form("$i8", INT8_MIN, INT8_MAX, num);
        check_int_form("$u16", 0, UINT16_MAX, num);
        check_int_form("$i32", INT32_MIN, INT32_MAX, num);
        check_int_form("$u64", 0, UINT64_MAX, num);
        check_int_form("$i64", INT64_MIN, INT64_MAX, num);
    }
}

/* ---- keys and classes ---------------------------------------------------------------- */

static const sv_value *key_of(const sv_value *map, size_t i)
{
    return sv_key_at(map, i);
}

static void assert_key(const sv_value *map, size_t i, const char *key, int64_t val)
{
    const sv_value *k = sv_key_at(map, i);
    assert_non_null(k);
    assert_int_equal(sv_len(k), strlen(key));
    assert_memory_equal(k->as.str, key, strlen(key));
    assert_int_equal(sv_get_int(sv_val_at(map, i)), val);
}

static void test_key_prediction(void **state)
{
    (void)state;
    /* the same shape, another order, a new key, a missing one */
    sv_value v = rd("[{\"a\":1,\"b\":2},{\"a\":3,\"b\":4},{\"b\":5,\"a\":6},{\"a\":7,\"c\":8},"
                    "{\"a\":9},{\"a\":10,\"b\":11}]");
    assert_key(sv_array_at(&v, 0), 1, "b", 2);
    assert_key(sv_array_at(&v, 1), 1, "b", 4);
    assert_key(sv_array_at(&v, 2), 0, "b", 5);
    assert_key(sv_array_at(&v, 2), 1, "a", 6);
    assert_key(sv_array_at(&v, 3), 1, "c", 8);
    assert_int_equal(sv_len(sv_array_at(&v, 4)), 1);
    assert_key(sv_array_at(&v, 5), 1, "b", 11);
    /* one interned copy of each key */
    assert_ptr_equal(key_of(sv_array_at(&v, 0), 0)->as.str, key_of(sv_array_at(&v, 5), 0)->as.str);

    /* a longer key, a shorter one, spaces, an escape for a predicted key */
    v = rd("[{\"ab\":1},{\"abc\":2},{\"ab\":3},{\"a\":4},{\"ab\" : 5},{\"a\\u0062\":6},{\"ab\":7}]");
    assert_key(sv_array_at(&v, 1), 0, "abc", 2);
    assert_key(sv_array_at(&v, 2), 0, "ab", 3);
    assert_key(sv_array_at(&v, 3), 0, "a", 4);
    assert_key(sv_array_at(&v, 4), 0, "ab", 5);
    assert_key(sv_array_at(&v, 5), 0, "ab", 6);
    assert_key(sv_array_at(&v, 6), 0, "ab", 7);

    /* keys around the 13-byte limit of prediction, and non-ASCII */
    v = rd("[{\"abcdefghijklm\":1,\"abcdefghijklmn\":2,\"\xc3\xa9t\xc3\xa9\":3},"
           "{\"abcdefghijklm\":4,\"abcdefghijklmn\":5,\"\xc3\xa9t\xc3\xa9\":6}]");
    assert_key(sv_array_at(&v, 1), 0, "abcdefghijklm", 4);
    assert_key(sv_array_at(&v, 1), 1, "abcdefghijklmn", 5);
    assert_key(sv_array_at(&v, 1), 2, "\xc3\xa9t\xc3\xa9", 6);

    /* "$$x" is the key "$x"; a predicted "$x" must never stand for a
     * "$x" in the text, which is a form (here unknown) */
    v = rd("[{\"$$x\":1,\"y\":2},{\"$$x\":3,\"y\":4}]");
    assert_key(sv_array_at(&v, 1), 0, "$x", 3);
    sv_error err;
    assert_int_equal(rd_err("[{\"y\":1,\"$$x\":2},{\"y\":3,\"$x\":4}]", &err), SV_ERR_SYNTAX);
    assert_string_equal(err.path, "/1");
    /* with plain, "$x" is a key like any other, predicted too */
    sv_json_decode_opts plain;
    sv_json_decode_opts_init(&plain);
    plain.plain = true;
    static const char ptext[] = "[{\"$x\":1,\"$y\":2},{\"$x\":3,\"$y\":4}]";
    v = read_len(ptext, sizeof ptext - 1, &plain);
    assert_key(sv_array_at(&v, 1), 1, "$y", 4);

    /* nested maps and arrays of maps predict their first keys */
    v = rd("[{\"p\":{\"q\":1,\"r\":[{\"s\":2},{\"s\":3}]}},{\"p\":{\"q\":4,\"r\":[{\"s\":5},"
           "{\"t\":6}]}}]");
    const sv_value *p1 = sv_map_getz(sv_array_at(&v, 1), "p");
    assert_key(p1, 0, "q", 4);
    const sv_value *r1 = sv_map_getz(p1, "r");
    assert_key(sv_array_at(r1, 0), 0, "s", 5);
    assert_key(sv_array_at(r1, 1), 0, "t", 6);
    /* an error's path after predicted keys */
    assert_int_equal(rd_err("[{\"p\":{\"q\":1}},{\"p\":{\"q\":tru}}]", &err), SV_ERR_SYNTAX);
    assert_string_equal(err.path, "/1/p/q");
}

static void test_class_prediction(void **state)
{
    (void)state;
    sv_value v = rd("[{\"$class\":\"A\",\"x\":1},{\"$class\":\"A\",\"x\":2},{\"$class\":\"AB\",\"x\":3},"
                    "{\"$class\":\"A\",\"y\":4},{\"$class\":\"A\\u0042\",\"x\":5},"
                    "{\"$class\":7,\"x\":6},{\"$class\":\"A\",\"x\":7}]");
    static const char *const cls[] = {"A", "A", "AB", "A", "AB", NULL, "A"};
    for (size_t i = 0; i < 7; i++) {
        const sv_value *o = sv_array_at(&v, i);
        assert_int_equal(sv_kind_of(o), SV_OBJECT);
        const sv_value *c = sv_object_class(o);
        if (cls[i]) {
            assert_int_equal(sv_kind_of(c), SV_STRING);
            assert_string_equal(c->as.str, cls[i]);
        } else {
            assert_int_equal(sv_kind_of(c), SV_UINT);
            assert_int_equal(c->as.u, 7);
        }
    }
    assert_key(sv_array_at(&v, 3), 0, "y", 4);
    /* "A": is not the class "A" followed by a field */
    sv_error err;
    assert_int_equal(rd_err("[{\"$class\":\"A\",\"x\":1},{\"$class\":\"A\":1}]", &err),
                     SV_ERR_SYNTAX);
    assert_int_equal(err.byte_offset, 35); /* the ':' after "A" */
}

/* ---- forms ---------------------------------------------------------------------------- */

static void test_form_fast_paths(void **state)
{
    (void)state;
    sv_error err;
    /* a cached form name, then names that only start like it */
    assert_int_equal(rd_err("[{\"$f32\":1.5},{\"$f3\":1}]", &err), SV_ERR_SYNTAX);
    assert_int_equal(err.byte_offset, 15);
    assert_int_equal(rd_err("[{\"$f32\":1.5},{\"$f32x\":1}]", &err), SV_ERR_SYNTAX);
    sv_value v = rd("[{\"$vector3\":[1,2,3]},{\"$vector3i\":[1,-2,3]},{\"$f32\" : 2.5},"
                    "{\"$f32\": 3.5},{\"$f3\\u0032\":4.5},{\"$vector3\": [1.5, 2.5, 3.5]}]");
    assert_int_equal(sv_elem_of(sv_array_at(&v, 0)), SV_ELEM_F32);
    assert_int_equal(sv_elem_of(sv_array_at(&v, 1)), SV_ELEM_I32);
    assert_int_equal(((const int32_t *)sv_numbers(sv_array_at(&v, 1)))[1], -2);
    assert_true(f32_bits(sv_array_at(&v, 2)->as.f32) == f32_bits(2.5f));
    assert_true(f32_bits(sv_array_at(&v, 3)->as.f32) == f32_bits(3.5f));
    assert_true(f32_bits(sv_array_at(&v, 4)->as.f32) == f32_bits(4.5f));
    assert_true(tuple_bits(sv_array_at(&v, 5), 2) == f32_bits(3.5f));

    /* tuples the fast path leaves to the general one */
    v = rd("[{\"$vector3\":[1,2,3],\"$elem\":\"f64\"},{\"$vector3\":[\"nan\",2,3]},"
           "{\"$vector2i\":[1,2],\"$elem\":\"i64\"},{\"$vector3\":[1e1,2,3]}]");
    assert_int_equal(sv_elem_of(sv_array_at(&v, 0)), SV_ELEM_F64);
    assert_true(sv_number_at(sv_array_at(&v, 0), 2) == 3.0);
    assert_true(tuple_bits(sv_array_at(&v, 1), 0) == 0x7fc00000u);
    assert_int_equal(sv_elem_of(sv_array_at(&v, 2)), SV_ELEM_I64);
    assert_true(sv_number_at(sv_array_at(&v, 3), 0) == 10.0);
    assert_int_equal(rd_err("[{\"$vector3\":[1,2]}]", &err), SV_ERR_SYNTAX);
    assert_string_equal(err.path, "/0/$vector3");
    assert_int_equal(rd_err("[{\"$vector2i\":[1,2.5]}]", &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/0/$vector2i/1");
    assert_int_equal(rd_err("[{\"$vector2i\":[1,2147483648]}]", &err), SV_ERR_RANGE);

    /* bytes and refs */
    v = rd("[{\"$bytes\":\"AAEC/w==\"},{\"$bytes\":\"\"},{\"$bytes\":\"AAE\\u0043\"},{\"$ref\":12},"
           "{\"$ref\":null},{\"$ref\":-0}]");
    assert_int_equal(sv_len(sv_array_at(&v, 0)), 4);
    assert_memory_equal(sv_array_at(&v, 0)->as.bytes, "\x00\x01\x02\xff", 4);
    assert_int_equal(sv_len(sv_array_at(&v, 1)), 0);
    assert_int_equal(sv_len(sv_array_at(&v, 2)), 3);
    assert_int_equal(sv_array_at(&v, 3)->as.u, 12);
    assert_true(sv_array_at(&v, 4)->flags & SV_F_NULLREF);
    assert_int_equal(sv_kind_of(sv_array_at(&v, 5)), SV_REF);
    assert_int_equal(rd_err("[{\"$bytes\":\"AAE\"}]", &err), SV_ERR_SYNTAX);
    assert_int_equal(rd_err("[{\"$ref\":-1}]", &err), SV_ERR_RANGE);
}

/* Tuples of the longest numbers the fast path takes (21 bytes: a sign, 19
 * digits and a point), ", " between them, with the text ending at every
 * distance after them: the fast path checks the room for the whole tuple
 * once, and near the end the general path must give the same values. */
static void test_tuple_text_ends(void **state)
{
    (void)state;
    static const char *const nums[] = {"-0.000000000000000001", "-1234.56789012345678",
                                       "0.5"};
    static const char *const seps[] = {",", ", "};
    char text[256];
    for (size_t ni = 0; ni < sizeof nums / sizeof nums[0]; ni++) {
        const char *num = nums[ni];
        uint32_t want = f32_bits(strtof(num, NULL));
        for (size_t si = 0; si < 2; si++) {
            for (int pad = 0; pad <= 90; pad++) {
                int n = snprintf(text, sizeof text, "[{\"$vector3\":[%s%s%s%s%s]}%*s]", num,
                                 seps[si], num, seps[si], num, pad, "");
                assert_true(n > 0 && (size_t)n < sizeof text);
                sv_value v = read_len(text, (size_t)n, NULL);
                const sv_value *t = sv_array_at(&v, 0);
                assert_int_equal(sv_kind_of(t), SV_TUPLE);
                for (size_t i = 0; i < 3; i++)
                    assert_true(tuple_bits(t, i) == want);
            }
        }
    }
    /* a tuple cut short at the end of the text: SV_ERR_TRUNCATED (docs/json.md), never a
     * read past it */
    sv_error err;
    assert_int_equal(rd_err("{\"$vector3\":[1.5,2.5,3.5]", &err), SV_ERR_TRUNCATED);
    assert_int_equal(rd_err("{\"$vector3\":[1.5,2.5,3.5", &err), SV_ERR_TRUNCATED);
    assert_int_equal(rd_err("{\"$vector3\":[1.5,2.5,", &err), SV_ERR_TRUNCATED);
}

/* Many forms in a row: the reader's arena blocks run out at every kind of
 * value, where the fast paths hand over to the general ones. */
static void test_arena_block_ends(void **state)
{
    (void)state;
    enum { N = 3000 };
    size_t cap = (size_t)N * 96 + 16, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    text[n++] = '[';
    for (int i = 0; i < N; i++) {
        n += (size_t)snprintf(text + n, cap - n,
                              "%s{\"$vector3\":[%d.5,-%d,%d.25]},{\"$bytes\":\"%.*s\"},\"s%d\"",
                              i ? "," : "", i, i + 1, i % 7, (i % 5) * 4, "QUJDREVGR0hJSktMTU5PUFFS",
                              i);
    }
    text[n++] = ']';
    sv_value v = read_len(text, n, NULL);
    assert_int_equal(sv_len(&v), 3 * N);
    for (int i = 0; i < N; i++) {
        const sv_value *t = sv_array_at(&v, (size_t)3 * i);
        assert_true(tuple_bits(t, 0) == f32_bits((float)i + 0.5f));
        assert_true(tuple_bits(t, 1) == f32_bits((float)-(i + 1)));
        assert_true(tuple_bits(t, 2) == f32_bits((float)(i % 7) + 0.25f));
        assert_int_equal(sv_len(sv_array_at(&v, (size_t)3 * i + 1)), (size_t)(i % 5) * 3);
        char s[16];
        snprintf(s, sizeof s, "s%d", i);
        assert_string_equal(sv_array_at(&v, (size_t)3 * i + 2)->as.str, s);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_value_words, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_decimals_against_strtod, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_integers, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_key_prediction, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_class_prediction, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_form_fast_paths, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_tuple_text_ends, test_doc_setup, test_doc_teardown),
        cmocka_unit_test_setup_teardown(test_arena_block_ends, test_doc_setup, test_doc_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
