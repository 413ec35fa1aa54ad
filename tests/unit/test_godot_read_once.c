/* A Godot file decoded through the registry (as the command decodes it,
 * with no framing named) is read once: the framing probe's reading of a raw
 * Variant is the decode's, not a first pass before it. And the answers the
 * probe gives stay the same: store_var frames, the trailing-bytes rule, the
 * ambiguous input, frames cut off, a raw Variant cut off.
 *
 * The inputs are Godot 3 bytes from spec §1-§5 (3.x numbering: 2 INT,
 * 4 STRING, 18 DICTIONARY, 19 ARRAY):
 *   dict_a2: {"a": 2} as var2bytes writes it,
 *     12000000 01000000  04000000 01000000 61000000  02000000 02000000
 *   (its first word read as a store_var prefix is 18, not a whole number of
 *   words, so no frame fits and the probe tries the raw reading). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/godot/godot_internal.h"
#include "serval/serval.h"

static const uint8_t dict_a2[] = {
    0x12, 0, 0, 0, 0x01, 0, 0, 0,               /* Dictionary, 1 pair */
    0x04, 0, 0, 0, 0x01, 0, 0, 0, 'a', 0, 0, 0, /* "a" */
    0x02, 0, 0, 0, 0x02, 0, 0, 0,               /* 2 */
};

/* The registry's godot3 decode with options "name=value" (NULL: none). */
static sv_status decode3(sv_doc *doc, const uint8_t *p, size_t n, const char *name,
                         const char *value, sv_value *out, sv_error *err)
{
    const char *names[1] = {name}, *values[1] = {value};
    sv_options o;
    sv_options_init(&o);
    if (name) {
        o.names = names;
        o.values = values;
        o.count = 1;
    }
    o.borrow_input = true; /* as the command decodes */
    sv_error_clear(err);
    return sv_format_find("godot3")->decode(doc, p, n, &o, out, err);
}

static void assert_dict_a2(const sv_value *v)
{
    assert_int_equal(sv_kind_of(v), SV_MAP);
    assert_int_equal(sv_len(v), 1);
    const sv_value *a = sv_map_getz(v, "a");
    assert_non_null(a);
    assert_int_equal(sv_kind_of(a), SV_INT);
    assert_int_equal(a->as.i, 2);
    assert_null(sv_meta(v)); /* raw framing: no file meta */
}

/* One raw Variant, framing found by the bytes: one reading, the right tree. */
static void test_raw_read_once(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    unsigned long before = gd_variants_read();
    assert_int_equal(decode3(doc, dict_a2, sizeof dict_a2, NULL, NULL, &v, &err), SV_OK);
    assert_int_equal(gd_variants_read() - before, 1);
    assert_dict_a2(&v);
    sv_doc_free(doc);
}

/* Bytes after the raw Variant: still the trailing-bytes error at byte 28,
 * and with trailing=allow the Variant, both read once. */
static void test_raw_trailing(void **state)
{
    (void)state;
    uint8_t in[sizeof dict_a2 + 4];
    memcpy(in, dict_a2, sizeof dict_a2);
    memset(in + sizeof dict_a2, 0, 4);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    unsigned long before = gd_variants_read();
    assert_int_equal(decode3(doc, in, sizeof in, NULL, NULL, &v, &err), SV_ERR_TRAILING);
    assert_int_equal(err.byte_offset, sizeof dict_a2);
    assert_non_null(strstr(err.message, "4 bytes after the Variant"));
    assert_int_equal(gd_variants_read() - before, 1);
    before = gd_variants_read();
    assert_int_equal(decode3(doc, in, sizeof in, "trailing", "allow", &v, &err), SV_OK);
    assert_int_equal(gd_variants_read() - before, 1);
    assert_dict_a2(&v);
    sv_doc_free(doc);
}

/* A raw Variant cut off: the decoder's error where the bytes end (the
 * value 2 needs 4 more bytes at offset 24), with the store_var hint. */
static void test_raw_cut(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(decode3(doc, dict_a2, sizeof dict_a2 - 4, NULL, NULL, &v, &err),
                     SV_ERR_TRUNCATED);
    assert_int_equal(err.byte_offset, 24);
    assert_string_equal(err.path, "/a");
    sv_doc_free(doc);
}

/* A store_var file: frames still win over the raw reading. The prefix
 * 1c000000 (28) is read raw as type 28, which 3.x does not have. */
static void test_prefixed_still_found(void **state)
{
    (void)state;
    uint8_t in[4 + sizeof dict_a2] = {0x1c, 0, 0, 0};
    memcpy(in + 4, dict_a2, sizeof dict_a2);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(decode3(doc, in, sizeof in, NULL, NULL, &v, &err), SV_OK);
    /* found by its bytes: the Dictionary with the framing in its meta */
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_int_equal(sv_len(&v), 1);
    const sv_value *framing = sv_map_getz(sv_meta(&v), "framing");
    assert_non_null(framing);
    assert_string_equal(sv_get_str(framing, NULL), "prefixed");
    sv_doc_free(doc);
}

/* A store_var file is read once too: its frames are the decode, not a
 * probe's reading before it (and the raw reading of its prefix 1c000000,
 * type 28, which 3.x does not have, reads nothing). A stream of two frames
 * is two Variants read, and the framing found is kept in the meta. */
static void test_framed_read_once(void **state)
{
    (void)state;
    uint8_t one[4 + sizeof dict_a2] = {0x1c, 0, 0, 0};
    memcpy(one + 4, dict_a2, sizeof dict_a2);
    uint8_t two[2 * sizeof one];
    memcpy(two, one, sizeof one);
    memcpy(two + sizeof one, one, sizeof one);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    unsigned long before = gd_variants_read();
    assert_int_equal(decode3(doc, one, sizeof one, NULL, NULL, &v, &err), SV_OK);
    assert_int_equal(gd_variants_read() - before, 1);
    assert_int_equal(sv_kind_of(&v), SV_MAP);
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(&v), "framing"), NULL), "prefixed");
    assert_int_equal(sv_map_getz(&v, "a")->as.i, 2);

    before = gd_variants_read();
    assert_int_equal(decode3(doc, two, sizeof two, NULL, NULL, &v, &err), SV_OK);
    assert_int_equal(gd_variants_read() - before, 2);
    assert_int_equal(sv_kind_of(&v), SV_ARRAY);
    assert_int_equal(sv_len(&v), 2);
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(&v), "framing"), NULL), "stream");
    assert_int_equal(sv_map_getz(sv_array_at(&v, 1), "a")->as.i, 2);

    /* big-endian prefixes: the little-endian reading (a prefix of
     * 0x1c000000 runs past the end) reads nothing either */
    one[0] = 0;
    one[3] = 0x1c;
    before = gd_variants_read();
    assert_int_equal(decode3(doc, one, sizeof one, NULL, NULL, &v, &err), SV_OK);
    assert_int_equal(gd_variants_read() - before, 1);
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(&v), "prefix"), NULL), "be");
    sv_doc_free(doc);
}

/* Whole frames and then one cut off: the stream is named and the decoder
 * says where the cut frame's prefix runs past the end (byte 32), although
 * a raw reading was tried first. The input: the frame of dict_a2, then a
 * prefix of 28 with only the first 20 bytes of dict_a2 after it (up to
 * the value's header: the probe wants more than 8 bytes of a cut Variant). */
static void test_frames_cut(void **state)
{
    (void)state;
    uint8_t in[4 + sizeof dict_a2 + 4 + 20] = {0x1c, 0, 0, 0};
    memcpy(in + 4, dict_a2, sizeof dict_a2);
    in[32] = 0x1c;
    memcpy(in + 36, dict_a2, 20);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(decode3(doc, in, sizeof in, NULL, NULL, &v, &err), SV_ERR_TRUNCATED);
    assert_int_equal(err.byte_offset, 32);
    assert_string_equal(err.path, "/1");
    assert_non_null(strstr(err.message, "length prefix says 28 bytes, 20 left"));
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_read_once), cmocka_unit_test(test_raw_trailing),
        cmocka_unit_test(test_raw_cut),       cmocka_unit_test(test_prefixed_still_found),
        cmocka_unit_test(test_frames_cut),    cmocka_unit_test(test_framed_read_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
