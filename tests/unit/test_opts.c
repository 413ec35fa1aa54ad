/* Versioned options structs: init functions, struct_size, and the rule that
 * the library reads only the members that fit in struct_size (members
 * beyond it keep their defaults). A program built against an older header
 * passes a shorter struct; these tests play that program by cutting
 * struct_size short and checking that the member behind the cut has no
 * effect, while the same member inside the cut does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

/* The struct_size that includes member m and everything before it. */
#define END_OF(type, m) ((uint32_t)(offsetof(type, m) + sizeof(((type *)0)->m)))

#if SERVAL_WITH_RESONITE || SERVAL_WITH_NOESIS
static uint8_t *read_vector(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("missing vector %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return d;
}
#endif

static void assert_usage(sv_status st, const sv_error *err, const char *format)
{
    assert_int_equal(st, SV_ERR_USAGE);
    assert_int_equal(err->status, SV_ERR_USAGE);
    assert_string_equal(err->format, format);
    assert_non_null(strstr(err->message, "struct_size"));
}

/* ---- init functions ---------------------------------------------------------- */

static void test_init_fills_defaults(void **state)
{
    (void)state;
    /* every init overwrites whatever the struct held */
    sv_json_decode_opts jd;
    memset(&jd, 0xAB, sizeof jd);
    sv_json_decode_opts_init(&jd);
    assert_int_equal(jd.struct_size, sizeof jd);
    assert_int_equal(jd.limits.max_depth, 0);
    assert_int_equal(jd.limits.max_alloc, 0);
    assert_false(jd.allow_comments);
    assert_false(jd.plain);

    sv_json_encode_opts je;
    memset(&je, 0xAB, sizeof je);
    sv_json_encode_opts_init(&je);
    assert_int_equal(je.struct_size, sizeof je);
    assert_int_equal(je.indent, 0);
    assert_false(je.plain);

#if SERVAL_WITH_BSON
    sv_bson_opts bo;
    memset(&bo, 0xAB, sizeof bo);
    sv_bson_opts_init(&bo);
    assert_int_equal(bo.struct_size, sizeof bo);
    assert_null(bo.format);
    assert_false(bo.resonite_urls);

#endif
#if SERVAL_WITH_GODOT
    sv_godot_opts go;
    memset(&go, 0xAB, sizeof go);
    sv_godot_opts_init(&go, SV_GODOT3);
    assert_int_equal(go.struct_size, sizeof go);
    assert_int_equal(go.profile, SV_GODOT3);
    assert_int_equal(go.godot4_minor, 0);
    assert_false(go.full_objects);
    assert_false(go.real_double);
    assert_int_equal(go.framing, SV_GODOT_RAW);
    assert_false(go.prefix_big_endian);
    assert_int_equal(go.limits.max_depth, 0);

#endif
#if SERVAL_WITH_RESONITE
    sv_resonite_opts ro;
    memset(&ro, 0xAB, sizeof ro);
    sv_resonite_opts_init(&ro);
    assert_int_equal(ro.struct_size, sizeof ro);
    assert_int_equal(ro.compression, SV_RESONITE_AUTO);
    assert_int_equal(ro.framing, SV_RESONITE_FRAMING_AUTO);
    assert_int_equal(ro.brotli_quality, 0);
    assert_int_equal(ro.brotli_window, 0);
    assert_false(ro.raw_strings);
    assert_int_equal(ro.threads, 0);

#endif
#if SERVAL_WITH_NOESIS
    sv_noesis_opts no;
    memset(&no, 0xAB, sizeof no);
    sv_noesis_opts_init(&no);
    assert_int_equal(no.struct_size, sizeof no);
    assert_false(no.raw);
    assert_int_equal(no.version, 0);

#endif
    sv_options o;
    memset(&o, 0xAB, sizeof o);
    sv_options_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    assert_null(o.names);
    assert_null(o.values);
    assert_int_equal(o.count, 0);
}

/* ---- JSON ------------------------------------------------------------------- */

static const char typed_i32[] = "{\"$i32\": 5}";

/* Decodes typed_i32: with plain in effect it is a map, else an int32. */
static sv_status json_decode_with(const sv_json_decode_opts *o, sv_kind *kind, sv_error *err)
{
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_value v;
    sv_error_clear(err);
    sv_status st = sv_json_decode(doc, typed_i32, sizeof typed_i32 - 1, o, &v, err);
    *kind = sv_kind_of(&v);
    sv_doc_free(doc);
    return st;
}

static void test_json_decode_struct_size(void **state)
{
    (void)state;
    sv_error err;
    sv_kind kind;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.plain = true;

    assert_int_equal(json_decode_with(&o, &kind, &err), SV_OK);
    assert_int_equal(kind, SV_MAP); /* plain: "$i32" is an ordinary key */

    /* an older caller whose struct ends before plain: the default, typed */
    o.struct_size = (uint32_t)offsetof(sv_json_decode_opts, plain);
    assert_int_equal(json_decode_with(&o, &kind, &err), SV_OK);
    assert_int_equal(kind, SV_INT);

    /* exactly up to plain: read */
    o.struct_size = END_OF(sv_json_decode_opts, plain);
    assert_int_equal(json_decode_with(&o, &kind, &err), SV_OK);
    assert_int_equal(kind, SV_MAP);

    /* a newer caller with a longer struct: the known members are read */
    struct {
        sv_json_decode_opts o;
        uint64_t later_member;
    } newer;
    memset(&newer, 0, sizeof newer);
    sv_json_decode_opts_init(&newer.o);
    newer.o.struct_size = sizeof newer;
    newer.o.plain = true;
    newer.later_member = 12345;
    assert_int_equal(json_decode_with(&newer.o, &kind, &err), SV_OK);
    assert_int_equal(kind, SV_MAP);

    /* NULL: every default */
    assert_int_equal(json_decode_with(NULL, &kind, &err), SV_OK);
    assert_int_equal(kind, SV_INT);

    /* 0 (never given to its init function) and a size short of the first
     * member are refused */
    o.struct_size = 0;
    assert_usage(json_decode_with(&o, &kind, &err), &err, "json");
    o.struct_size = END_OF(sv_json_decode_opts, limits) - 1;
    assert_usage(json_decode_with(&o, &kind, &err), &err, "json");
    /* the first member alone is enough */
    o.struct_size = END_OF(sv_json_decode_opts, limits);
    assert_int_equal(json_decode_with(&o, &kind, &err), SV_OK);
    assert_int_equal(kind, SV_INT);
}

static void test_json_encode_struct_size(void **state)
{
    (void)state;
    sv_value v = sv_int_w(5, 4);
    sv_json_encode_opts o;
    sv_json_encode_opts_init(&o);
    o.plain = true;
    sv_buf out;
    sv_error err;

    sv_buf_init(&out, NULL);
    assert_int_equal(sv_json_encode(&v, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, 1);
    assert_memory_equal(out.data, "5", 1);
    sv_buf_free(&out);

    o.struct_size = END_OF(sv_json_encode_opts, indent); /* plain behind the cut */
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_json_encode(&v, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, strlen("{\"$i32\":5}"));
    assert_memory_equal(out.data, "{\"$i32\":5}", out.len);
    sv_buf_free(&out);

    o.struct_size = 0;
    sv_buf_init(&out, NULL);
    sv_error_clear(&err);
    assert_usage(sv_json_encode(&v, &o, &out, &err), &err, "json");
    assert_int_equal(out.len, 0);
    sv_buf_free(&out);
}

#if SERVAL_WITH_BSON
/* ---- BSON ------------------------------------------------------------------- */

/* {"s": "@x"}: 15 bytes (bsonspec.org: int32 size, 02 "s" int32 3 "@x", 00) */
static const uint8_t bson_at_x[] = {15, 0, 0, 0, 0x02, 's', 0, 3, 0, 0, 0, '@', 'x', 0, 0};

static void bson_decode_s(const sv_bson_opts *o, sv_status want, const char *text, sv_tag tag)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_bson_decode(doc, bson_at_x, sizeof bson_at_x, o, &v, &err), want);
    if (want == SV_OK) {
        const sv_value *s = sv_map_getz(&v, "s");
        assert_string_equal(sv_get_str(s, NULL), text);
        assert_int_equal(sv_tag_of(s), tag);
    } else {
        assert_usage(want, &err, "bson");
    }
    sv_doc_free(doc);
}

static void test_bson_struct_size(void **state)
{
    (void)state;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = true;
    bson_decode_s(&o, SV_OK, "x", SV_TAG_URL);
    o.struct_size = (uint32_t)offsetof(sv_bson_opts, resonite_urls);
    bson_decode_s(&o, SV_OK, "@x", SV_TAG_NONE);
    bson_decode_s(NULL, SV_OK, "@x", SV_TAG_NONE);
    o.struct_size = 0;
    bson_decode_s(&o, SV_ERR_USAGE, NULL, SV_TAG_NONE);

    sv_doc *doc = sv_doc_new(NULL);
    sv_value m = sv_map(doc, 0);
    assert_int_equal(sv_map_append_str(doc, &m, "s", sv_strz(doc, "@x")), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_usage(sv_bson_encode(&m, &o, &out, &err), &err, "bson");
    sv_bson_opts_init(&o);
    assert_int_equal(sv_bson_encode(&m, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, sizeof bson_at_x);
    assert_memory_equal(out.data, bson_at_x, sizeof bson_at_x);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

#endif
#if SERVAL_WITH_GODOT
/* ---- Godot: a cut in the middle of a member leaves it at its default ------- */

static void godot_encode_5(const sv_godot_opts *o, const uint8_t *want, size_t want_len)
{
    sv_value v = sv_int(5);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_godot_encode(&v, o, &out, &err), SV_OK);
    assert_int_equal(out.len, want_len);
    assert_memory_equal(out.data, want, want_len);
    sv_buf_free(&out);
}

static void test_godot_struct_size(void **state)
{
    (void)state;
    /* Godot 4 var_to_bytes(5): type 2 (INT), then the value as 32 bits;
     * store_var puts the u32 length 8 in front. */
    static const uint8_t raw[] = {2, 0, 0, 0, 5, 0, 0, 0};
    static const uint8_t prefixed[] = {8, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0};
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT4);
    o.framing = SV_GODOT_PREFIXED;
    godot_encode_5(&o, prefixed, sizeof prefixed);
    o.struct_size = (uint32_t)offsetof(sv_godot_opts, framing) + 2; /* half of framing */
    godot_encode_5(&o, raw, sizeof raw);
    o.struct_size = END_OF(sv_godot_opts, framing);
    godot_encode_5(&o, prefixed, sizeof prefixed);

    o.struct_size = 0;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_usage(sv_godot_decode(doc, raw, sizeof raw, &o, &v, NULL, &err), &err, "godot");
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error_clear(&err);
    assert_usage(sv_godot_encode(&v, &o, &out, &err), &err, "godot");
    sv_buf_free(&out);
    sv_doc_free(doc);
}

#endif
#if SERVAL_WITH_RESONITE
/* ---- Resonite ------------------------------------------------------------------ */

static void test_resonite_struct_size(void **state)
{
    (void)state;
    size_t len;
    uint8_t *brson = read_vector("vectors/resonite/tiny.brson", &len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.compression = SV_RESONITE_LZMA; /* the file's header says Brotli */

    sv_error_clear(&err);
    assert_int_equal(sv_resonite_decode(doc, brson, len, &o, &v, &err), SV_ERR_SYNTAX);
    o.struct_size = END_OF(sv_resonite_opts, limits); /* compression behind the cut */
    sv_error_clear(&err);
    assert_int_equal(sv_resonite_decode(doc, brson, len, &o, &v, &err), SV_OK);

    o.struct_size = 0;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error_clear(&err);
    assert_usage(sv_resonite_decode(doc, brson, len, &o, &v, &err), &err, "resonite");
    sv_error_clear(&err);
    assert_usage(sv_resonite_unwrap(brson, len, &o, &out, NULL, &err), &err, "resonite");
    sv_error_clear(&err);
    sv_value m = sv_map(doc, 0);
    assert_usage(sv_resonite_encode(&m, &o, &out, &err), &err, "resonite");
    sv_resonite_container c = {SV_RESONITE_FRAMING_HEADER, SV_RESONITE_BROTLI};
    sv_error_clear(&err);
    assert_usage(sv_resonite_wrap(bson_at_x, sizeof bson_at_x, &c, &o, &out, &err), &err,
                 "resonite");
    assert_int_equal(out.len, 0);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(brson);
}

#endif
#if SERVAL_WITH_NOESIS
/* ---- Noesis: typed options ------------------------------------------------------ */

static void test_noesis_struct_size(void **state)
{
    (void)state;
    size_t len;
    uint8_t *nsb = read_vector("vectors/noesis/all-commands.le.v5.nsb", &len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_noesis_opts o;
    sv_noesis_opts_init(&o);
    o.raw = true;
    o.version = 3;

    sv_error_clear(&err);
    assert_int_equal(sv_noesis_decode(doc, nsb, len, &o, &v, &err), SV_OK);
    const sv_value *chunk = sv_array_at(sv_map_getz(&v, "chunks"), 0);
    assert_null(sv_map_getz(chunk, "objects")); /* raw: the data stays bytes */
    assert_int_equal(sv_kind_of(sv_map_getz(chunk, "data")), SV_BYTES);

    o.struct_size = END_OF(sv_noesis_opts, limits); /* raw behind the cut */
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_decode(doc, nsb, len, &o, &v, &err), SV_OK);
    chunk = sv_array_at(sv_map_getz(&v, "chunks"), 0);
    assert_int_equal(sv_kind_of(sv_map_getz(chunk, "objects")), SV_ARRAY);

    /* the file's header: "HDSN", then u16 version at byte 4 */
    sv_buf out;
    sv_buf_init(&out, NULL);
    o.struct_size = sizeof o;
    assert_int_equal(sv_noesis_encode(&v, &o, &out, &err), SV_OK);
    assert_int_equal(out.data[4], 3);
    out.len = 0;
    o.struct_size = END_OF(sv_noesis_opts, raw); /* version behind the cut: the tree's */
    assert_int_equal(sv_noesis_encode(&v, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, len);
    assert_memory_equal(out.data, nsb, len);

    o.struct_size = 0;
    out.len = 0;
    sv_error_clear(&err);
    assert_usage(sv_noesis_encode(&v, &o, &out, &err), &err, "noesis");
    sv_error_clear(&err);
    assert_usage(sv_noesis_decode(doc, nsb, len, &o, &v, &err), &err, "noesis");
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(nsb);
}

#endif
/* ---- the registry's sv_options and sv_format ------------------------------------ */

static void test_options_struct_size(void **state)
{
    (void)state;
    const char *names[] = {"indent"}, *values[] = {"2"};
    sv_options o;
    sv_options_init(&o);
    o.names = names;
    o.values = values;
    o.count = 1;
    assert_string_equal(sv_options_get(&o, "indent"), "2");

    const sv_format *json = sv_format_find("json");
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0);
    assert_int_equal(sv_array_append(doc, &arr, sv_int(1)), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(json->encode(&arr, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, strlen("[\n  1\n]"));
    assert_memory_equal(out.data, "[\n  1\n]", out.len);

    /* an sv_options that ends before its pairs carries none */
    o.struct_size = END_OF(sv_options, limits);
    assert_null(sv_options_get(&o, "indent"));
    out.len = 0;
    assert_int_equal(json->encode(&arr, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, 3);
    assert_memory_equal(out.data, "[1]", 3);

    o.struct_size = 0;
    out.len = 0;
    assert_usage(json->encode(&arr, &o, &out, &err), &err, "json");
    sv_value v;
    for (size_t i = 0; i < 2; i++) {
        const sv_format *f = sv_format_find(i ? "godot4" : "noesis");
        if (!f) continue; /* a build with the format left out */
        sv_error_clear(&err);
        assert_usage(f->decode(doc, (const uint8_t *)"\0\0\0\0", 4, &o, &v, &err), &err, f->name);
    }
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_format_entries(void **state)
{
    (void)state;
    size_t n = 0;
    const sv_format *const *all = sv_formats(&n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(all[i]->struct_size, sizeof(sv_format));
    /* each format's header declares its registry entry */
    assert_ptr_equal(sv_format_find("json"), &sv_format_json);
#if SERVAL_WITH_BSON
    assert_ptr_equal(sv_format_find("bson"), &sv_format_bson);
#endif
#if SERVAL_WITH_RESONITE
    assert_ptr_equal(sv_format_find("resonite"), &sv_format_resonite);
#endif
#if SERVAL_WITH_NOESIS
    assert_ptr_equal(sv_format_find("noesis"), &sv_format_noesis);
#endif
#if SERVAL_WITH_GODOT
    assert_ptr_equal(sv_format_find("godot4"), &sv_format_godot4);
    assert_ptr_equal(sv_format_find("godot3"), &sv_format_godot3);
    assert_ptr_equal(sv_format_find("godot-doc"), &sv_format_godot_doc);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_fills_defaults),
        cmocka_unit_test(test_json_decode_struct_size),
        cmocka_unit_test(test_json_encode_struct_size),
#if SERVAL_WITH_BSON
        cmocka_unit_test(test_bson_struct_size),
#endif
#if SERVAL_WITH_GODOT
        cmocka_unit_test(test_godot_struct_size),
#endif
#if SERVAL_WITH_RESONITE
        cmocka_unit_test(test_resonite_struct_size),
#endif
#if SERVAL_WITH_NOESIS
        cmocka_unit_test(test_noesis_struct_size),
#endif
        cmocka_unit_test(test_options_struct_size),
        cmocka_unit_test(test_format_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
