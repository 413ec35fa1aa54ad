/* The exact error of every cut of one small document: status, byte offset,
 * message and tree path, worked by hand from its bytes (bsonspec.org 1.1)
 * and the reader's rules (each element is read against its document's own
 * end, docs/formats/bson.md). The cut document is made whole again: its
 * first k bytes, a 00, the length patched to k + 1. A cut that falls
 * between elements decodes and writes back the same bytes.
 *
 *  0  39 00 00 00                  root, 57 bytes
 *  4  02 "ID" 00  03 00 00 00 "ab" 00
 * 15  01 "d" 00   1.5 (8 bytes)
 * 26  10 "i" 00   7 (int32)
 * 33  08 "b" 00   01
 * 37  12 "l" 00   9 (int64)
 * 48  03 "m" 00   05 00 00 00 00   (empty document)
 * 56  00 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/bson.h"
#include "serval/serval.h"

static const uint8_t doc57[57] = {
    0x39, 0x00, 0x00, 0x00,                                           /* root length */
    0x02, 'I',  'D',  0x00, 0x03, 0x00, 0x00, 0x00, 'a',  'b',  0x00, /* "ID": "ab" */
    0x01, 'd',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x3F, /* "d": 1.5 */
    0x10, 'i',  0x00, 0x07, 0x00, 0x00, 0x00,                         /* "i": 7 */
    0x08, 'b',  0x00, 0x01,                                           /* "b": true */
    0x12, 'l',  0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* "l": 9 */
    0x03, 'm',  0x00, 0x05, 0x00, 0x00, 0x00, 0x00,                   /* "m": {} */
    0x00};

typedef struct want {
    sv_status st; /* SV_OK: decodes */
    uint64_t off;
    char msg[128];
    const char *path;
} want;

/* What the cut at k (4 <= k <= 55) must give: the document's end (its 00)
 * is at k, so an element that starts before k and needs bytes at or past k
 * fails at its value's first byte (its key's, for a key). */
static want expected(size_t k)
{
    want w = {SV_OK, 0, "", ""};
    const char *key_past = "a key runs past the end of its document";
    /* cuts just after an element (4: the empty document) */
    if (k == 4 || k == 15 || k == 26 || k == 33 || k == 37 || k == 48) return w;
    w.st = SV_ERR_TRUNCATED;
    if (k <= 7) { /* the key "ID" at 5 has no 00 before the end */
        w.off = 5;
        snprintf(w.msg, sizeof w.msg, "%s", key_past);
    } else if (k <= 11) { /* the string's length at 8 */
        w.off = 8;
        w.path = "/ID";
        snprintf(w.msg, sizeof w.msg, "a string length needs 4 bytes");
    } else if (k <= 14) { /* 3 bytes ("ab" 00) from 12; k - 12 left */
        w.off = 8;
        w.path = "/ID";
        snprintf(w.msg, sizeof w.msg,
                 "a string of 3 bytes does not fit in the %zu bytes its document has left", k - 12);
    } else if (k <= 17) {
        w.off = 16;
        snprintf(w.msg, sizeof w.msg, "%s", key_past);
    } else if (k <= 25) {
        w.off = 18;
        w.path = "/d";
        snprintf(w.msg, sizeof w.msg, "a double needs 8 bytes, its document has %zu left", k - 18);
    } else if (k <= 28) {
        w.off = 27;
        snprintf(w.msg, sizeof w.msg, "%s", key_past);
    } else if (k <= 32) {
        w.off = 29;
        w.path = "/i";
        snprintf(w.msg, sizeof w.msg, "an int32 needs 4 bytes, its document has %zu left", k - 29);
    } else if (k <= 35) {
        w.off = 34;
        snprintf(w.msg, sizeof w.msg, "%s", key_past);
    } else if (k == 36) {
        w.off = 36;
        w.path = "/b";
        snprintf(w.msg, sizeof w.msg, "a bool needs 1 bytes, its document has 0 left");
    } else if (k <= 39) {
        w.off = 38;
        snprintf(w.msg, sizeof w.msg, "%s", key_past);
    } else if (k <= 47) {
        w.off = 40;
        w.path = "/l";
        snprintf(w.msg, sizeof w.msg, "an int64 needs 8 bytes, its document has %zu left", k - 40);
    } else if (k <= 50) {
        w.off = 49;
        snprintf(w.msg, sizeof w.msg, "%s", key_past);
    } else if (k <= 54) { /* the empty document's length at 51 */
        w.off = 51;
        w.path = "/m";
        snprintf(w.msg, sizeof w.msg, "a document length needs 4 bytes");
    } else { /* 55: its 5 bytes, 4 left */
        w.off = 51;
        w.path = "/m";
        snprintf(w.msg, sizeof w.msg, "a document of 5 bytes does not fit in the 4 bytes left");
    }
    return w;
}

static void cut_and_check(size_t k, bool borrow)
{
    /* an exact-size copy, so that ASan sees any read past it */
    uint8_t *b = malloc(k + 1);
    assert_non_null(b);
    memcpy(b, doc57, k);
    b[k] = 0;
    b[0] = (uint8_t)(k + 1);
    sv_doc *doc = sv_doc_new(NULL);
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.borrow_input = borrow;
    sv_value tree;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_bson_decode(doc, b, k + 1, &o, &tree, &err);
    want w = expected(k);
    if (st != w.st ||
        (st != SV_OK && (err.byte_offset != w.off || strcmp(err.message, w.msg) != 0 ||
                         strcmp(err.path, w.path) != 0)))
        fail_msg("cut %zu: got %s at %llu '%s' path '%s', want %s at %llu '%s' path '%s'", k,
                 sv_status_name(st), (unsigned long long)err.byte_offset, err.message, err.path,
                 sv_status_name(w.st), (unsigned long long)w.off, w.msg, w.path);
    if (st == SV_OK) {
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_bson_encode(&tree, &o, &out, &err), SV_OK);
        assert_int_equal(out.len, k + 1);
        assert_memory_equal(out.data, b, k + 1);
        sv_buf_free(&out);
    } else {
        assert_string_equal(err.format, "bson");
    }
    sv_doc_free(doc);
    free(b);
}

static void test_every_cut_exact(void **state)
{
    (void)state;
    for (size_t k = 4; k < sizeof doc57 - 1; k++) {
        cut_and_check(k, false);
        cut_and_check(k, true);
    }
}

/* The whole document, and what it holds. */
static void test_whole(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value tree;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_bson_decode(doc, doc57, sizeof doc57, NULL, &tree, &err), SV_OK);
    assert_int_equal(sv_len(&tree), 6);
    size_t n;
    assert_string_equal(sv_get_str(sv_map_getz(&tree, "ID"), &n), "ab");
    assert_true(sv_get_f64(sv_map_getz(&tree, "d")) == 1.5);
    assert_int_equal(sv_get_int(sv_map_getz(&tree, "i")), 7);
    assert_int_equal(sv_get_int(sv_map_getz(&tree, "l")), 9);
    assert_true(sv_bool_stored(sv_map_getz(&tree, "b")) == 1);
    assert_int_equal(sv_len(sv_map_getz(&tree, "m")), 0);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole),
        cmocka_unit_test(test_every_cut_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
