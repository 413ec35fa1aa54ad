/* The pickle writer (serval/pickle.h): streams checked byte for byte against
 * the opcode layouts of pickle protocol 4 (PEP 3154; Lib/pickletools.py
 * documents each opcode's argument), assembled here by hand, and its refusals
 * of malformed trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static bool contains(const uint8_t *s, size_t n, const char *what, size_t k)
{
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, what, k) == 0) return true;
    return false;
}

/* PROTO 4, then FRAME with the 8-byte little-endian length of the rest. */
static void expect_stream(const sv_value *v, const uint8_t *body, size_t n)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    assert_int_equal(sv_pickle_encode(v, NULL, &b, &err), SV_OK);
    assert_int_equal(b.len, 11 + n);
    const uint8_t head[11] = {0x80, 4, 0x95, (uint8_t)n, (uint8_t)(n >> 8), 0, 0, 0, 0, 0, 0};
    assert_memory_equal(b.data, head, 11);
    assert_memory_equal(b.data + 11, body, n);
    sv_buf_free(&b);
}

static void test_scalars(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value five = sv_int(5);
    const uint8_t int5[] = {'K', 5, '.'}; /* BININT1 5, STOP */
    expect_stream(&five, int5, sizeof int5);

    sv_value arr = sv_array(doc, 0);
    sv_array_append(doc, &arr, sv_int(-1));
    sv_array_append(doc, &arr, sv_uint(UINT64_MAX));
    sv_array_append(doc, &arr, sv_int(INT64_C(1) << 40));
    sv_array_append(doc, &arr, sv_int(300));
    sv_array_append(doc, &arr, sv_f64(1.5));
    sv_array_append(doc, &arr, sv_strz(doc, "a"));
    sv_array_append(doc, &arr, sv_null());
    sv_array_append(doc, &arr, sv_bool(true));
    sv_array_append(doc, &arr, sv_bytes(doc, "\x01", 1));
    const uint8_t body[] = {
        ']', '(',                                     /* EMPTY_LIST, MARK */
        'J', 0xff, 0xff, 0xff, 0xff,                  /* BININT -1 */
        0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, /* LONG1 2^64-1 */
        0x8a, 6, 0, 0, 0, 0, 0, 1,                    /* LONG1 2^40 */
        'M', 0x2c, 0x01,                              /* BININT2 300 */
        'G', 0x3f, 0xf8, 0, 0, 0, 0, 0, 0,            /* BINFLOAT 1.5, big-endian */
        0x8c, 1, 'a',                                 /* SHORT_BINUNICODE */
        'N', 0x88,                                    /* NONE, NEWTRUE */
        'C', 1, 1,                                    /* SHORT_BINBYTES */
        'e', '.'};                                    /* APPENDS, STOP */
    expect_stream(&arr, body, sizeof body);
    sv_doc_free(doc);
}

/* A wrapper is the module's class (STACK_GLOBAL, memoized), its argument as a
 * 1-tuple, NEWOBJ; the second use of the class fetches it from the memo. */
static void test_wrappers_and_memo(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    sv_array_append(doc, &arr, sv_f32(1.0f));
    uint32_t snan = 0x7f800001u; /* a signalling NaN: its payload is kept */
    float f;
    memcpy(&f, &snan, 4);
    sv_array_append(doc, &arr, sv_f32(f));
    const uint8_t body[] = {
        ']', '(',
        0x8c, 6, 's', 'e', 'r', 'v', 'a', 'l', 0x8c, 3, 'F', '3', '2', 0x93, 0x94,
        'G', 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x85, 0x81,   /* F32(1.0) */
        'h', 0,                                            /* BINGET 0: F32 */
        'G', 0x7f, 0xf0, 0, 0, 0x20, 0, 0, 0, 0x85, 0x81, /* payload 1 << 29 */
        'e', '.'};
    expect_stream(&arr, body, sizeof body);

    /* dict keys are memoized: the second map's key is BINGET */
    sv_value two = sv_array(doc, 0), m1 = sv_map(doc, 0), m2 = sv_map(doc, 0);
    sv_map_append_str(doc, &m1, "k", sv_int(1));
    sv_map_append_str(doc, &m2, "k", sv_int(2));
    sv_array_append(doc, &two, m1);
    sv_array_append(doc, &two, m2);
    const uint8_t dicts[] = {']', '(', '}', '(', 0x8c, 1, 'k', 0x94, 'K', 1, 'u',
                             '}', '(', 'h', 0, 'K', 2, 'u', 'e', '.'};
    expect_stream(&two, dicts, sizeof dicts);
    sv_doc_free(doc);
}

/* A key twice: not a dict but a Map of 2-tuples. */
static void test_duplicate_keys(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value m = sv_map(doc, 0);
    sv_map_append_str(doc, &m, "a", sv_int(1));
    sv_map_append_str(doc, &m, "a", sv_int(2));
    const uint8_t body[] = {0x8c, 6, 's', 'e', 'r', 'v', 'a', 'l', 0x8c, 3, 'M', 'a', 'p', 0x93,
                            0x94, ')', 0x81, '(', 0x8c, 1, 'a', 'K', 1, 0x86, 0x8c, 1, 'a', 'K',
                            2, 0x86, 'e', '.'};
    expect_stream(&m, body, sizeof body);
    /* a large map takes the hash table: 40 distinct keys then a repeat */
    sv_value big = sv_map(doc, 0);
    char key[8];
    for (int i = 0; i < 40; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        sv_map_append(doc, &big, sv_str(doc, key, (size_t)n), sv_int(i));
    }
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    assert_int_equal(sv_pickle_encode(&big, NULL, &b, &err), SV_OK);
    assert_false(contains(b.data, b.len, "Map", 3));
    sv_map_append(doc, &big, sv_str(doc, "k7", 2), sv_int(0));
    b.len = 0;
    assert_int_equal(sv_pickle_encode(&big, NULL, &b, &err), SV_OK);
    assert_true(contains(b.data, b.len, "\x8c\x03Map", 5));
    sv_buf_free(&b);
    sv_doc_free(doc);
}

static void test_refusals(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_buf_append(&b, "xy", 2);
    sv_error err;
    /* a Vector3 tuple holding two numbers, at /1 */
    sv_value arr = sv_array(doc, 0);
    sv_value bad = sv_tuple(doc, SV_TAG_VECTOR3, SV_ELEM_F32, NULL);
    bad.len = 2;
    sv_array_append(doc, &arr, sv_int(0));
    sv_array_append(doc, &arr, bad);
    assert_int_equal(sv_pickle_encode(&arr, NULL, &b, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/1");
    assert_string_equal(err.format, "pickle");
    assert_int_equal(b.len, 2); /* left as it was */
    /* an i8 holding 300 */
    sv_value wide = sv_int_w(300, 1);
    wide.as.i = 300;
    assert_int_equal(sv_pickle_encode(&wide, NULL, &b, &err), SV_ERR_RANGE);
    /* nesting beyond twice the default depth limit */
    sv_value v = sv_array(doc, 0);
    for (int i = 0; i < 3000; i++) {
        sv_value outer = sv_array(doc, 0);
        sv_array_append(doc, &outer, v);
        v = outer;
    }
    assert_int_equal(sv_pickle_encode(&v, NULL, &b, &err), SV_ERR_DEPTH);
    assert_int_equal(sv_pickle_encode(NULL, NULL, &b, &err), SV_ERR_USAGE);
    assert_int_equal(sv_pickle_encode(&arr, "", &b, &err), SV_ERR_USAGE);
    assert_int_equal(b.len, 2);
    sv_buf_free(&b);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_wrappers_and_memo),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
