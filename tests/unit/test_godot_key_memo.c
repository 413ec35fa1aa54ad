/* Dictionaries in a row with the same keys (godot_decoder.h, gd_kmemo): the
 * repeated-key check runs for the first one only, and nothing else changes:
 * a repeated key, a key whose bytes differ (other text, padding that is not
 * zero), the same keys at another depth and errors after remembered keys
 * give what they gave before. Every input goes back to its bytes.
 *
 * Godot 3 bytes from spec §1-§5 (3.x numbering: 2 INT, 4 STRING,
 * 18 DICTIONARY, 19 ARRAY); one pair per line below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/godot/godot_internal.h"
#include "serval/serval.h"

#include "test_godot_util.h"

#define ARR3 "13000000 03000000 "
#define ARR2 "13000000 02000000 "
#define DICT2 "12000000 02000000 "
#define KEY_A "04000000 01000000 61000000 "
#define KEY_B "04000000 01000000 62000000 "
#define KEY_C "04000000 01000000 63000000 "
#define INT(x) "02000000 0" #x "000000 "

typedef struct decoded {
    sv_doc *doc;
    sv_value v;
    unsigned long checks; /* repeated-key checks the decode ran */
} decoded;

/* Decodes hex (godot3, borrow_input as the command decodes), checks that
 * encoding gives the bytes back. */
static decoded decode_hex(const char *hex)
{
    static uint8_t in[512];
    long n = tg_hex(hex, in, sizeof in);
    assert_true(n > 0);
    decoded r = {sv_doc_new(NULL), sv_null(), 0};
    assert_non_null(r.doc);
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    o.borrow_input = true;
    sv_error err;
    sv_error_clear(&err);
    unsigned long before = gd_key_checks();
    assert_int_equal(sv_godot_decode(r.doc, in, (size_t)n, &o, &r.v, NULL, &err), SV_OK);
    r.checks = gd_key_checks() - before;
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_godot_encode(&r.v, &o, &b, &err), SV_OK);
    assert_int_equal(b.len, (size_t)n);
    assert_memory_equal(b.data, in, (size_t)n);
    sv_buf_free(&b);
    return r;
}

static int64_t int_at(const sv_value *map, const char *key)
{
    const sv_value *v = sv_map_getz(map, key);
    assert_non_null(v);
    assert_int_equal(sv_kind_of(v), SV_INT);
    return v->as.i;
}

/* Three Dictionaries of keys "a", "b": one check, the right values. */
static void test_same_keys_checked_once(void **state)
{
    (void)state;
    decoded r = decode_hex(ARR3 DICT2 KEY_A INT(1) KEY_B INT(2) /**/
                           DICT2 KEY_A INT(3) KEY_B INT(4)      /**/
                           DICT2 KEY_A INT(5) KEY_B INT(6));
    assert_int_equal(r.checks, 1);
    assert_int_equal(sv_len(&r.v), 3);
    for (uint32_t i = 0; i < 3; i++) {
        const sv_value *m = sv_array_at(&r.v, i);
        assert_int_equal(sv_len(m), 2);
        assert_int_equal(int_at(m, "a"), 2 * i + 1);
        assert_int_equal(int_at(m, "b"), 2 * i + 2);
    }
    sv_doc_free(r.doc);
}

/* {"a": 3, "a": 4} after {"a", "b"}: still one key, the last value (spec
 * §6.4), and the dropped pair kept for the bytes. */
static void test_repeated_key_after_memo(void **state)
{
    (void)state;
    decoded r = decode_hex(ARR2 DICT2 KEY_A INT(1) KEY_B INT(2) /**/
                           DICT2 KEY_A INT(3) KEY_A INT(4));
    assert_int_equal(r.checks, 2);
    const sv_value *m = sv_array_at(&r.v, 1);
    assert_int_equal(sv_len(m), 1);
    assert_int_equal(int_at(m, "a"), 4);
    sv_doc_free(r.doc);
}

/* Another key, and the same text with a padding byte that is not zero: both
 * decoded afresh, the padding kept as a record. */
static void test_other_key_bytes(void **state)
{
    (void)state;
    decoded r = decode_hex(ARR3 DICT2 KEY_A INT(1) KEY_B INT(2) /**/
                           DICT2 KEY_A INT(3) KEY_C INT(4)      /**/
                           DICT2 KEY_A INT(5) "04000000 01000000 62010000 " INT(6));
    assert_int_equal(r.checks, 3);
    assert_int_equal(int_at(sv_array_at(&r.v, 1), "c"), 4);
    const sv_value *m = sv_array_at(&r.v, 2);
    assert_int_equal(int_at(m, "b"), 6);
    assert_non_null(sv_meta(m)); /* the record of the odd key */
    sv_doc_free(r.doc);
}

/* {"a": {"a": 1, "b": 2}, "b": {"a": 3, "b": 4}}: the outer keys are at
 * another depth than the inner ones. */
static void test_other_depth(void **state)
{
    (void)state;
    decoded r = decode_hex(DICT2 KEY_A DICT2 KEY_A INT(1) KEY_B INT(2) /**/
                           KEY_B DICT2 KEY_A INT(3) KEY_B INT(4));
    assert_int_equal(r.checks, 2);
    assert_int_equal(sv_len(&r.v), 2);
    assert_int_equal(int_at(sv_map_getz(&r.v, "a"), "b"), 2);
    assert_int_equal(int_at(sv_map_getz(&r.v, "b"), "a"), 3);
    sv_doc_free(r.doc);
}

/* A value cut off after remembered keys: the same error, offset and path. */
static void test_error_after_memo(void **state)
{
    (void)state;
    uint8_t in[128];
    long n = tg_hex(ARR2 DICT2 KEY_A INT(1) KEY_B INT(2) /**/
                    DICT2 KEY_A INT(3) KEY_B "02000000 0400",
                    in, sizeof in);
    assert_true(n > 0);
    sv_doc *doc = sv_doc_new(NULL);
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    sv_error err;
    sv_error_clear(&err);
    sv_value v;
    assert_int_equal(sv_godot_decode(doc, in, (size_t)n, &o, &v, NULL, &err), SV_ERR_TRUNCATED);
    assert_int_equal(err.byte_offset, 100); /* after the int's header: 2 bytes left */
    assert_string_equal(err.path, "/1/b");
    sv_doc_free(doc);
}

/* The String {04000000, n, text, zero padding} at out; its length. */
static size_t string_bytes(uint8_t *out, const uint8_t *text, uint32_t n)
{
    size_t pad = (4 - (n & 3)) & 3;
    memcpy(out, "\x04\0\0\0", 4);
    for (int i = 0; i < 4; i++) out[4 + i] = (uint8_t)(n >> (8 * i));
    memcpy(out + 8, text, n);
    memset(out + 8 + n, 0, pad);
    return 8 + n + pad;
}

/* Texts of 1 to 20 bytes with one byte that is not plain ASCII at each
 * place, read as the command reads them (borrow_input, where a text with
 * padding may point into the input): a NUL ends the text (spec §4), 0xFF is
 * invalid UTF-8 at its own offset, "é" is kept; the plain test that decides
 * borrowing reads the text by words, whose last one overlaps. */
static void test_text_bytes_at_every_place(void **state)
{
    (void)state;
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    o.borrow_input = true;
    for (uint32_t n = 1; n <= 20; n++) {
        for (uint32_t k = 0; k < n; k++) {
            for (int kind = 0; kind < 3; kind++) {
                uint8_t text[24], in[40];
                memset(text, 'x', sizeof text);
                if (kind == 0) text[k] = 0;
                if (kind == 1) text[k] = 0xFF;
                if (kind == 2) {
                    if (k + 1 >= n) continue;
                    text[k] = 0xC3;
                    text[k + 1] = 0xA9;
                }
                size_t len = string_bytes(in, text, n);
                sv_doc *doc = sv_doc_new(NULL);
                sv_error err;
                sv_error_clear(&err);
                sv_value v;
                sv_status st = sv_godot_decode(doc, in, len, &o, &v, NULL, &err);
                if (kind == 1) {
                    assert_int_equal(st, SV_ERR_UTF8);
                    assert_int_equal(err.byte_offset, 8 + k);
                } else {
                    assert_int_equal(st, SV_OK);
                    const sv_value *s = &v;
                    if (sv_kind_of(s) == SV_ARRAY) s = sv_array_at(&v, 0); /* the root record */
                    assert_int_equal(sv_kind_of(s), SV_STRING);
                    assert_int_equal(sv_len(s), kind == 0 ? k : n);
                    assert_memory_equal(s->as.str, text, sv_len(s));
                }
                sv_doc_free(doc);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_keys_checked_once),
        cmocka_unit_test(test_repeated_key_after_memo),
        cmocka_unit_test(test_other_key_bytes),
        cmocka_unit_test(test_other_depth),
        cmocka_unit_test(test_error_after_memo),
        cmocka_unit_test(test_text_bytes_at_every_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
