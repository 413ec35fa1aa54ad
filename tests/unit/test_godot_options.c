/* Godot options and framing through the registry entries: objects, real_t
 * double builds, the 4.x version tiers, raw / prefixed / stream framing with
 * either prefix byte order, option errors, detection; and a few tree rules
 * (String/StringName keys, NodePaths without a text form, a leading BOM).
 * Expected bytes come from the spec (sections cited per case). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"
#include "test_godot_util.h"

/* JSON text -> tree -> encode(fmt, opts); compares with hex (NULL: must fail with st). */
static void enc_case(const char *fmt, const char *opts, const char *json, const char *hex,
                     sv_status st)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_decode(doc, json, strlen(json), NULL, &v, &err), SV_OK);
    tg_opts o;
    tg_opts_parse(&o, opts);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_status got = tg_encode(fmt, &o, &v, &b, &err);
    if (hex) {
        uint8_t want[512];
        long n = tg_hex(hex, want, sizeof want);
        if (got != SV_OK) fprintf(stderr, "%s: %s\n", json, err.message);
        assert_int_equal(got, SV_OK);
        char *h = tg_to_hex(b.data, b.len);
        if (b.len != (size_t)n || memcmp(b.data, want, (size_t)n))
            fprintf(stderr, "%s: got %s\n", json, h);
        free(h);
        assert_int_equal(b.len, (size_t)n);
        assert_memory_equal(b.data, want, (size_t)n);
    } else {
        assert_int_equal(got, st);
    }
    sv_buf_free(&b);
    sv_doc_free(doc);
}

/* hex -> decode(fmt, opts) -> compact typed JSON == json (NULL: must fail with st). */
static void dec_case(const char *fmt, const char *opts, const char *hex, const char *json,
                     sv_status st)
{
    uint8_t in[512];
    long n = tg_hex(hex, in, sizeof in);
    assert_true(n >= 0);
    tg_opts o;
    tg_opts_parse(&o, opts);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_status got = tg_decode(fmt, &o, doc, in, (size_t)n, &v, &err);
    if (json) {
        if (got != SV_OK) fprintf(stderr, "%s: %s\n", hex, err.message);
        assert_int_equal(got, SV_OK);
        char *text = tg_json(&v);
        assert_string_equal(text, json);
        free(text);
    } else {
        assert_int_equal(got, st);
    }
    sv_doc_free(doc);
}

/* spec §5.4, §11.7: full objects are refused unless asked for, both ways */
static void test_objects(void **state)
{
    (void)state;
    const char *obj = "18000000 04000000 4e6f6465 01000000 02000000 68700000 02000000 05000000";
    dec_case("godot4", "-", obj, NULL, SV_ERR_REFUSED);
    dec_case("godot4", "objects=id", obj, NULL, SV_ERR_REFUSED);
    /* the root Object has no meta: a stand-in records the mode (godot.md) */
    dec_case("godot4", "objects=full", obj,
             "{\"$array\":[{\"$class\":\"Node\",\"hp\":5}],\"$meta\":{\"root\":true,"
             "\"format\":\"godot4\",\"objects\":\"full\"}}",
             SV_OK);
    enc_case("godot4", "-", "{\"$class\":\"Node\",\"hp\":5}", NULL, SV_ERR_REFUSED);
    enc_case("godot4", "objects=full", "{\"$class\":\"Node\",\"hp\":5}", obj, SV_OK);
    /* as-ID is always allowed */
    dec_case("godot4", "-", "18000100 2a000000 00000000", "{\"$object_id\":42}", SV_OK);
    enc_case("godot4", "-", "{\"$object_id\":42}", "18000100 2a000000 00000000", SV_OK);
}

/* spec §6.3: a double build flags real math types and writes f64 */
static void test_real_double(void **state)
{
    (void)state;
    enc_case("godot4", "real=double", "{\"$vector2\":[1.0,2.0]}",
             "05000100 000000000000f03f 0000000000000040", SV_OK);
    enc_case("godot4", "real=double", "{\"$color\":[1.0,0.0,0.0,1.0]}",
             "14000000 0000803f 00000000 00000000 0000803f", SV_OK); /* Color stays f32 */
    enc_case("godot4", "real=double", "{\"$vector2i\":[1,2]}", "06000000 01000000 02000000", SV_OK);
    enc_case("godot4", "real=double", "{\"$packed_vector2\":[[1.0,2.0]]}",
             "23000100 01000000 000000000000f03f 0000000000000040", SV_OK);
    enc_case("godot4", "real=double", "{\"$packed_color\":[[1.0,0.0,0.0,1.0]]}",
             "25000000 01000000 0000803f 00000000 00000000 0000803f", SV_OK);
    enc_case("godot4", "real=double", "{\"$f32s\":[1.5]}", "20000000 01000000 0000c03f", SV_OK);
    /* a float build's decoder reads double data (spec §6.3) */
    dec_case("godot4", "-",
             "0c000100 000000000000f03f 0000000000000040 0000000000000840 0000000000001040",
             "{\"$vector4\":[1.0,2.0,3.0,4.0],\"$elem\":\"f64\"}", SV_OK);
    /* 3.x has no double builds: the option is refused, f64 trees are narrowed */
    enc_case("godot3", "real=double", "{\"$vector2\":[1.0,2.0]}", NULL, SV_ERR_USAGE);
    enc_case("godot3", "-", "{\"$vector2\":[1.5,2.0],\"$elem\":\"f64\"}",
             "05000000 0000c03f 00000040", SV_OK);
}

/* spec §6.5, §8: 4.0-4.2 write typed containers untyped, 4.3 typed arrays only */
static void test_versions(void **state)
{
    (void)state;
    const char *typed = "{\"$array\":[7],\"$meta\":{\"type\":\"int\"}}";
    enc_case("godot4", "-", typed, "1c000100 02000000 01000000 02000000 07000000", SV_OK);
    enc_case("godot4", "version=4.3", typed, "1c000100 02000000 01000000 02000000 07000000", SV_OK);
    enc_case("godot4", "version=4.2", typed, "1c000000 01000000 02000000 07000000", SV_OK);
    const char *tdict = "{\"$map\":{},\"$meta\":{\"key\":\"String\",\"value\":\"int\"}}";
    enc_case("godot4", "version=4.4", tdict, "1b000500 04000000 02000000 00000000", SV_OK);
    enc_case("godot4", "version=4.3", tdict, "1b000000 00000000", SV_OK);
    enc_case("godot4", "version=4.2", "{\"$packed_vector4\":[]}", NULL, SV_ERR_UNSUPPORTED);
    enc_case("godot4", "version=4.6", "{\"$packed_vector4\":[]}", "26000000 00000000", SV_OK);
    enc_case("godot4", "version=5.0", "null", NULL, SV_ERR_USAGE);
    enc_case("godot3", "version=4.2", "null", NULL, SV_ERR_USAGE);
    /* script-typed and class-typed containers keep their names (spec §5.1) */
    enc_case("godot4", "-", "{\"$array\":[],\"$meta\":{\"type\":{\"script\":\"res://a.gd\"}}}",
             "1c000300 0a000000 7265733a 2f2f612e 67640000 00000000", SV_OK);
    dec_case("godot4", "-", "1c000300 0a000000 7265733a 2f2f612e 67640000 00000000",
             "{\"$array\":[],\"$meta\":{\"type\":{\"script\":\"res://a.gd\"}}}", SV_OK);
    dec_case("godot4", "-", "1c000100 27000000 00000000", NULL, SV_ERR_TYPE); /* builtin 39 */
}

/* spec §1: the length prefixes of store_var / put_var */
static void test_framing(void **state)
{
    (void)state;
    const char *two = "08000000 02000000 2a000000 0c000000 04000000 02000000 68690000";
    /* a stream keeps its framing in the root's meta */
    dec_case("godot3", "framing=stream", two, "{\"$array\":[42,\"hi\"],\"$meta\":{\"format\":\"godot3\",\"framing\":\"stream\"}}", SV_OK);
    /* without options, the framing that fits the whole input */
    const char *three = "08000000 02000000 2a000000 10000000 04000000 05000000 68656c6c 6f000000";
    dec_case("godot3", NULL, three, "{\"$array\":[42,\"hello\"],\"$meta\":{\"format\":\"godot3\",\"framing\":\"stream\"}}", SV_OK);
    /* one frame of a lone int: a stream of one, so the framing has a place in the tree */
    dec_case("godot4", NULL, "08000000 02000000 2a000000",
             "{\"$array\":[42],\"$meta\":{\"format\":\"godot4\",\"framing\":\"stream\"}}", SV_OK);
    /* two fits both ways: a stream of 42 and "hi", and a raw Transform2D
     * (28 bytes); the decoder asks for the framing instead of guessing */
    dec_case("godot3", NULL, two, NULL, SV_ERR_REFUSED);
    /* frames that hold only nils do not outweigh a raw reading: this is
     * var_to_bytes(""), and store_var(null) must be named */
    dec_case("godot4", NULL, "04000000 00000000", "\"\"", SV_OK);
    /* named, the framing of a root scalar is kept by a root stand-in */
    dec_case("godot4", "framing=prefixed", "04000000 00000000",
             "{\"$array\":[null],\"$meta\":{\"root\":true,\"format\":\"godot4\","
             "\"framing\":\"prefixed\"}}",
             SV_OK);
    dec_case("godot4", NULL, "04000000 00000000 04000000 00000000",
             "{\"$array\":[null,null],\"$meta\":{\"format\":\"godot4\",\"framing\":\"stream\"}}", SV_OK);
    dec_case("godot3", "framing=prefixed,trailing=allow", two,
             "{\"$array\":[42],\"$meta\":{\"root\":true,\"format\":\"godot3\","
             "\"framing\":\"prefixed\"}}",
             SV_OK); /* the first frame */
    /* raw, the prefix 8 is read as a type: a 3.x Transform2D (spec §3.2) */
    {
        uint8_t raw[64];
        long rn = tg_hex(two, raw, sizeof raw);
        sv_doc *d = sv_doc_new(NULL);
        sv_value t;
        sv_error e;
        tg_opts ro;
        tg_opts_parse(&ro, "framing=raw");
        assert_int_equal(tg_decode("godot3", &ro, d, raw, (size_t)rn, &t, &e), SV_OK);
        assert_int_equal(sv_tag_of(&t), SV_TAG_TRANSFORM2D);
        sv_doc_free(d);
    }
    dec_case("godot3", "framing=stream", "", "{\"$array\":[],\"$meta\":{\"format\":\"godot3\",\"framing\":\"stream\"}}", SV_OK);
    dec_case("godot3", "framing=stream", "08000000 02000000 2a000000 0c00", NULL, SV_ERR_TRUNCATED);
    dec_case("godot3", "framing=stream", "09000000 02000000 2a000000", NULL, SV_ERR_TRUNCATED);
    /* a frame longer than its Variant: the rest of the frame is skipped, as get_var does */
    dec_case("godot3", "framing=stream", "0c000000 02000000 2a000000 ffffffff 04000000 00000000",
             "{\"$array\":[42,null],\"$meta\":{\"format\":\"godot3\",\"framing\":\"stream\"}}", SV_OK);
    dec_case("godot3", "framing=stream,prefix=be", "00000008 02000000 2a000000",
             "{\"$array\":[42],\"$meta\":{\"format\":\"godot3\",\"framing\":\"stream\",\"prefix\":\"be\"}}",
             SV_OK);
    enc_case("godot3", "framing=stream", "[42,\"hi\"]", two, SV_OK);
    enc_case("godot3", "framing=prefixed,prefix=be", "42", "00000008 02000000 2a000000", SV_OK);
    enc_case("godot3", "framing=stream", "42", NULL, SV_ERR_TYPE);
    enc_case("godot3", "framing=sideways", "42", NULL, SV_ERR_USAGE);
    enc_case("godot3", "prefix=middle", "42", NULL, SV_ERR_USAGE);
    enc_case("godot3", "objects=maybe", "42", NULL, SV_ERR_USAGE);
    /* the error inside the second frame names the frame */
    uint8_t in[64];
    long n = tg_hex("08000000 02000000 2a000000 08000000 04000000 01000000", in, sizeof in);
    tg_opts o;
    tg_opts_parse(&o, "framing=stream");
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(tg_decode("godot3", &o, doc, in, (size_t)n, &v, &err), SV_ERR_TRUNCATED);
    assert_string_equal(err.path, "/1");
    assert_int_equal(err.byte_offset, 20); /* the string length of frame 1 */
    sv_doc_free(doc);
}

/* spec §6.4 (4.x StringLikeVariantComparator), §5.3, §4 */
static void test_tree_rules(void **state)
{
    (void)state;
    /* {"a": 1, &"a": 2} is one key in 4.x; the first key stays. The value
     * the tree drops (02000000 01000000) and the later pair (15000000 ...)
     * are kept as meta, so the bytes come back */
    const char *dup = "1b000000 02000000 04000000 01000000 61000000 02000000 01000000 "
                      "15000000 01000000 61000000 02000000 02000000";
    const char *dup_json = "{\"$map\":{\"a\":2},\"$meta\":{\"raw\":[[0,\"value\","
                           "{\"$bytes\":\"AgAAAAEAAAA=\"}]],\"dups\":[[1,{\"$bytes\":"
                           "\"FQAAAAEAAABhAAAAAgAAAAIAAAA=\"}]]}}";
    dec_case("godot4", "-", dup, dup_json, SV_OK);
    enc_case("godot4", "-", dup_json, dup, SV_OK);
    /* edited, the kept pairs no longer hold: the engine's form of the value */
    enc_case("godot4", "-",
             "{\"$map\":{\"a\":3},\"$meta\":{\"raw\":[[0,\"value\","
             "{\"$bytes\":\"AgAAAAEAAAA=\"}]],\"dups\":[[1,{\"$bytes\":"
             "\"FQAAAAEAAABhAAAAAgAAAAIAAAA=\"}]]}}",
             "1b000000 01000000 04000000 01000000 61000000 02000000 03000000", SV_OK);
    /* a NodePath name holding ':' has no text form: refused, not mangled */
    dec_case("godot4", "-", "16000000 01000080 00000000 00000000 03000000 613a6200", NULL,
             SV_ERR_UNSUPPORTED);
    /* a string that starts with U+FEFF keeps it: a second BOM is written */
    enc_case("godot4", "-", "\"\\ufeffa\"", "04000000 07000000 efbbbfef bbbf6100", SV_OK);
    dec_case("godot4", "-", "04000000 07000000 efbbbfef bbbf6100",
             "\"\xef\xbb\xbf"
             "a\"",
             SV_OK);
    /* ints: the engine's 32/64-bit rule, an explicit width kept (spec §6.1) */
    enc_case("godot4", "-", "{\"$i32\":5}", "02000000 05000000", SV_OK);
    enc_case("godot4", "-", "{\"$u64\":5}", "02000100 05000000 00000000", SV_OK);
    enc_case("godot4", "-", "{\"$u8\":5}", "02000000 05000000", SV_OK);
    /* packed u8 numbers are a PackedByteArray, padded */
    enc_case("godot4", "-", "{\"$u8s\":[1,2,3]}", "1d000000 03000000 01020300", SV_OK);
}

static void test_registry(void **state)
{
    (void)state;
    const sv_format *g4 = sv_format_find("godot4"), *g3 = sv_format_find("godot3"),
                    *gd = sv_format_find("godot-doc");
    assert_non_null(g4);
    assert_non_null(g3);
    assert_non_null(gd);
    uint8_t in[64];
    /* a whole 4.x Dictionary {"a":1} */
    long n =
        tg_hex("1b000000 01000000 04000000 01000000 61000000 02000000 01000000", in, sizeof in);
    assert_ptr_equal(sv_format_detect(in, (size_t)n, NULL), g4);
    /* a 3.x Dictionary {"a":1}: 18 is a 4.x Transform3D, which needs 48 bytes */
    n = tg_hex("12000000 01000000 04000000 01000000 61000000 02000000 01000000", in, sizeof in);
    assert_ptr_equal(sv_format_detect(in, (size_t)n, NULL), g3);
    /* JSON text is not a Variant */
    assert_ptr_equal(sv_format_detect((const uint8_t *)"{\"a\":1}", 7, NULL),
                     sv_format_find("json"));
    assert_null(gd->probe); /* godot-doc must be chosen (spec §3.4.1) */
    /* a lone nil fits every profile and names none */
    static const uint8_t nil[8] = {0};
    assert_int_equal(g4->probe(nil, 4), 0);
    assert_int_equal(g4->probe(nil, 8), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects),    cmocka_unit_test(test_real_double),
        cmocka_unit_test(test_versions),   cmocka_unit_test(test_framing),
        cmocka_unit_test(test_tree_rules), cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
