/* NoesisGUI NSDH: what no real sample shows (spec §B.6): big-endian files,
 * the unicode variant, versions 2 and 3, repeated BeginInstance, every
 * command id once. The vectors in tests/vectors/noesis/ were written by
 * make_vectors.py there (an implementation of the layout independent of
 * serval); the values asserted here are the ones that script put in. */
#include "test_noesis_util.h"

#define VEC "vectors/noesis/"

static uint8_t *vec(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, VEC "%s", name);
    uint8_t *d = nt_read(path, len);
    if (!d) fail_msg("missing vector %s", path);
    return d;
}

static const sv_value *chunk0(const sv_value *root)
{
    return nt_at(nt_get(root, "chunks"), 0);
}

/* The values make_vectors.py wrote into instances 0 and 1. */
static void check_all_commands(const sv_value *root, bool unicode)
{
    const sv_value *chunk = chunk0(root);
    assert_int_equal(sv_get_bool(nt_get(root, "unicode")), unicode);
    const sv_value *comps = nt_get(chunk, "components");
    /* Node's classId names the second "Node" entry: the tree says which */
    nt_assert_uint(nt_get(nt_at(comps, 0), "string"), 4, 3);
    assert_null(sv_map_getz(nt_at(comps, 1), "string"));
    const sv_value *objs = nt_get(chunk, "objects");
    assert_int_equal(sv_len(objs), 4);
    const sv_value *o = nt_at(objs, 0);
    assert_string_equal(nt_class(o), "Node");
    nt_assert_uint(nt_get(o, "*version"), 4, 7);
    const sv_value *v = nt_get(o, "i8");
    assert_int_equal(sv_kind_of(v), SV_INT);
    assert_int_equal(sv_width(v), 1);
    assert_int_equal(sv_get_int(v), -5);
    assert_int_equal(sv_get_int(nt_get(o, "i16")), -300);
    assert_int_equal(sv_width(nt_get(o, "i16")), 2);
    assert_int_equal(sv_get_int(nt_get(o, "i32")), -70000);
    assert_int_equal(sv_get_int(nt_get(o, "i64")), INT64_C(-5000000000));
    nt_assert_uint(nt_get(o, "u8"), 1, 200);
    nt_assert_uint(nt_get(o, "u16"), 2, 60000);
    nt_assert_uint(nt_get(o, "u32"), 4, 4000000000u);
    nt_assert_uint(nt_get(o, "u64"), 8, (UINT64_C(1) << 63) + 5);
    assert_true(sv_get_bool(nt_get(o, "flag")));
    assert_true(nt_get(o, "f32")->as.f32 == 1.5f);
    assert_int_equal(sv_width(nt_get(o, "f64")), 8);
    assert_true(nt_get(o, "f64")->as.f64 == -2.25);
    nt_assert_uint(nt_get(o, "c8"), 1, 'A');
    assert_int_equal(sv_tag_of(nt_get(o, "c8")), SV_TAG_CHAR);
    nt_assert_uint(nt_get(o, "c16"), 2, 0x263A);
    nt_assert_str(nt_get(o, "s8"), "h\xc3\xa9llo");
    /* String16 "A", e-acute, U+1F600, a lone U+D800: WTF-8, flagged UTF16 */
    const sv_value *s16 = nt_get(o, "s16");
    assert_int_equal(sv_kind_of(s16), SV_STRING);
    assert_true(s16->flags & SV_F_UTF16);
    const char want16[] = "A\xc3\xa9\xf0\x9f\x98\x80\xed\xa0\x80";
    assert_int_equal(sv_len(s16), sizeof want16 - 1);
    assert_memory_equal(s16->as.str, want16, sizeof want16 - 1);
    assert_int_equal(sv_kind_of(nt_get(o, "buf")), SV_BYTES);
    assert_memory_equal(nt_get(o, "buf")->as.bytes, "\x01\x02\x03", 3);
    nt_assert_ref(nt_get(o, "ref"), 1);
    nt_assert_ref(nt_get(o, "ref#2"), -1);

    o = nt_at(objs, 1);
    assert_string_equal(nt_class(o), "Root");
    const sv_value *items = nt_get(o, "Items");
    nt_assert_uint(nt_get(items, "size"), 4, 3);
    const sv_value *val = nt_get(items, "val");
    assert_int_equal(sv_kind_of(val), SV_ARRAY);
    nt_assert_ref(nt_at(val, 0), 0);
    nt_assert_ref(nt_at(val, 1), -1);
    nt_assert_ref(nt_at(val, 2), 2);
    const sv_value *dict = nt_get(o, "Dict");
    nt_assert_uint(nt_get(dict, "size"), 4, 2);
    const sv_value *item = nt_get(dict, "item");
    assert_int_equal(sv_len(item), 2);
    nt_assert_str(nt_get(nt_at(item, 0), "key"), "one");
    nt_assert_ref(nt_get(nt_at(item, 0), "val"), 0);
    nt_assert_str(nt_get(nt_at(item, 1), "key"), "two");
    nt_assert_ref(nt_get(nt_at(item, 1), "val"), 3);
    const sv_value *f = nt_get(o, "f32");
    assert_int_equal(sv_kind_of(f), SV_PACKED);
    assert_int_equal(sv_elem_of(f), SV_ELEM_F32);
    assert_true(sv_number_at(f, 0) == 0.5 && sv_number_at(f, 1) == -1.0);
    const sv_value *empty = nt_get(o, "Empty");
    assert_int_equal(sv_kind_of(empty), SV_ARRAY);
    assert_int_equal(sv_len(empty), 0);
    const sv_value *pad = nt_get(o, "Pad");
    assert_int_equal(sv_elem_of(pad), SV_ELEM_U8);
    assert_memory_equal(sv_numbers(pad), "\x00\x7f\xff", 3);
    const sv_value *flags = nt_get(o, "flag");
    assert_int_equal(sv_len(flags), 2);
    assert_false(sv_get_bool(nt_at(flags, 0)));
    assert_true(sv_get_bool(nt_at(flags, 1)));
    assert_int_equal(sv_kind_of(nt_get(o, "s8")), SV_BYTES); /* FF FE is not UTF-8 */
    const sv_value *i16 = nt_get(o, "i16");
    assert_int_equal(sv_elem_of(i16), SV_ELEM_I16);
    assert_true(sv_number_at(i16, 0) == -1 && sv_number_at(i16, 1) == 2);
    /* the nested LocalValue keeps its name; the second at one level is #2 */
    nt_assert_uint(nt_get(nt_get(nt_get(o, "LocalValue"), "LocalValue"), "u16"), 2, 9);
    assert_int_equal(sv_len(nt_get(o, "LocalValue#2")), 0);
    /* instances 2 and 3: one BeginInstance with repeat count 2 */
    nt_assert_uint(nt_get(nt_at(objs, 2), "u32"), 4, 10);
    nt_assert_uint(nt_get(nt_at(objs, 3), "u32"), 4, 11);
    assert_string_equal(nt_class(nt_at(objs, 3)), "Node");
}

static void test_little_endian(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d = vec("all-commands.le.v5.nsb", &len);
    assert_memory_equal(d, "HDSN", 4);
    sv_value root;
    sv_doc *doc = nt_decode(d, len, &root);
    nt_assert_str(nt_get(&root, "byte_order"), "little");
    nt_assert_uint(nt_get(&root, "version"), 2, 5);
    check_all_commands(&root, false);
    sv_doc_free(doc);
    nt_round_trip(d, len);
    free(d);
}

/* spec §B.2: "NSDH" on disk = big-endian; every field and value swapped. */
static void test_big_endian(void **state)
{
    (void)state;
    size_t len = 0, le_len = 0;
    uint8_t *d = vec("all-commands.be.v5.nsb", &len);
    uint8_t *le = vec("all-commands.le.v5.nsb", &le_len);
    assert_memory_equal(d, "NSDH\x00\x05\x00\x00\x00\x00\x00\x01", 12);
    sv_value root, le_root;
    sv_doc *doc = nt_decode(d, len, &root);
    sv_doc *le_doc = nt_decode(le, le_len, &le_root);
    nt_assert_str(nt_get(&root, "byte_order"), "big");
    check_all_commands(&root, false);
    /* the same tree as the little-endian file but for the byte order */
    *nt_get(&le_root, "byte_order") = sv_strz(le_doc, "big");
    assert_true(sv_equal(&root, &le_root));
    /* and so the little-endian tree, told "big", writes the big-endian file */
    sv_buf out = nt_encode(&le_root, NULL);
    nt_assert_same_bytes(d, len, &out);
    sv_buf_free(&out);
    sv_doc_free(le_doc);
    sv_doc_free(doc);
    nt_round_trip(d, len);
    free(le);
    free(d);
}

/* spec §B.6 [inferred]: unicode = 1 has 16-bit string lists ending 00 00,
 * offsets in bytes; String8 data stays 8-bit. */
static void test_unicode(void **state)
{
    (void)state;
    const char *names[] = {"all-commands.unicode.le.v5.nsb", "all-commands.unicode.be.v4.nsb"};
    for (int i = 0; i < 2; i++) {
        size_t len = 0;
        uint8_t *d = vec(names[i], &len);
        sv_value root;
        sv_doc *doc = nt_decode(d, len, &root);
        check_all_commands(&root, true);
        const sv_value *s = nt_at(nt_get(chunk0(&root), "strings"), 0);
        nt_assert_str(s, "Root");
        assert_true(s->flags & SV_F_UTF16);
        sv_doc_free(doc);
        nt_round_trip(d, len);
        free(d);
    }
    /* A tree read from an 8-bit file, told unicode = true, writes the
     * unicode file: the lists and every offset into them change. */
    size_t len = 0, u_len = 0;
    uint8_t *d = vec("all-commands.le.v5.nsb", &len);
    uint8_t *u = vec("all-commands.unicode.le.v5.nsb", &u_len);
    assert_int_equal(u[6], 1);
    sv_value root;
    sv_doc *doc = nt_decode(d, len, &root);
    *nt_get(&root, "unicode") = sv_bool(true);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(u, u_len, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(u);
    free(d);
}

/* Versions 2 and 3 (spec §B.2: "last version is 3"; v2 puts the root first):
 * the same layout; the version option writes them. */
static void test_versions(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d5 = vec("all-commands.le.v5.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(d5, len, &root);
    const char *files[] = {"all-commands.le.v2.nsb", "all-commands.le.v3.nsb"};
    const char *vers[] = {"2", "3"};
    for (int i = 0; i < 2; i++) {
        size_t vlen = 0;
        uint8_t *dv = vec(files[i], &vlen);
        assert_int_equal(dv[4], 2 + i);
        sv_value vroot;
        sv_doc *vdoc = nt_decode(dv, vlen, &vroot);
        nt_assert_uint(nt_get(&vroot, "version"), 2, 2 + (uint64_t)i);
        check_all_commands(&vroot, false);
        nt_round_trip(dv, vlen);
        /* the typed option */
        sv_noesis_opts no;
        sv_noesis_opts_init(&no);
        no.version = 2 + i;
        sv_buf out = nt_encode(&root, &no);
        nt_assert_same_bytes(dv, vlen, &out);
        sv_buf_free(&out);
        /* the registry's -O version=N, which the adapter turns into it */
        const char *on[] = {"version"};
        sv_options o;
        sv_options_init(&o);
        o.names = on;
        o.values = &vers[i];
        o.count = 1;
        sv_buf_init(&out, NULL);
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_format_noesis.encode(&root, &o, &out, &err), SV_OK);
        nt_assert_same_bytes(dv, vlen, &out);
        sv_buf_free(&out);
        sv_doc_free(vdoc);
        free(dv);
    }
    sv_noesis_opts no;
    sv_noesis_opts_init(&no);
    no.version = 6;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, &no, &out, &err), SV_ERR_USAGE);
    assert_int_equal(out.len, 0);
    const char *on[] = {"version"}, *bad[] = {"6"};
    sv_options o;
    sv_options_init(&o);
    o.names = on;
    o.values = bad;
    o.count = 1;
    sv_error_clear(&err);
    assert_int_equal(sv_format_noesis.encode(&root, &o, &out, &err), SV_ERR_USAGE);
    assert_int_equal(out.len, 0);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(d5);
}

/* A big-endian v3 file without metadata: the data stays bytes. */
static void test_no_metadata_be(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d = vec("no-metadata.be.v3.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(d, len, &root);
    const sv_value *chunk = chunk0(&root);
    assert_int_equal(sv_kind_of(nt_get(chunk, "metadata")), SV_NULL);
    const sv_value *data = nt_get(chunk, "data");
    assert_int_equal(sv_kind_of(data), SV_BYTES);
    /* the data of instance 0 starts with *version = 7, big-endian */
    assert_memory_equal(data->as.bytes, "\x00\x00\x00\x07\xfb\xfe\xd4", 7);
    const uint32_t *iv = sv_numbers(nt_get(chunk, "instances"));
    assert_int_equal(iv[1], 1);
    sv_doc_free(doc);
    nt_round_trip(d, len);
    free(d);
}

/* Bools stored as 0x7F and 0x80 (make_vectors.py, build_padding_bools): read
 * as true with the byte kept, shown in the typed JSON, and written back. */
static void test_padding_bools(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d = vec("padding-bools.le.v4.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(d, len, &root);
    const sv_value *obj = nt_at(nt_get(chunk0(&root), "objects"), 0);
    const sv_value *desc = nt_get(obj, "Desc");
    assert_int_equal(sv_bool_stored(nt_get(desc, "DepthEnable")), 1);
    const sv_value *pad = nt_get(desc, "__padding__");
    assert_int_equal(sv_len(pad), 3);
    for (size_t i = 0; i < 3; i++) {
        assert_true(sv_get_bool(sv_array_at(pad, i)));
        assert_int_equal(sv_bool_stored(sv_array_at(pad, i)), 0x7F);
    }
    assert_int_equal(sv_bool_stored(nt_get(obj, "Flags")), 0x80);

    /* through typed JSON and back: the same bytes */
    sv_buf js;
    sv_buf_init(&js, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_encode(&root, NULL, &js, &err) != SV_OK) nt_fail_with(&err);
    const char *form = "\"__padding__\":[{\"$bool\":true,\"$raw\":127},";
    bool found = false;
    for (size_t i = 0; !found && i + strlen(form) <= js.len; i++)
        found = memcmp(js.data + i, form, strlen(form)) == 0;
    assert_true(found);
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value back;
    if (sv_json_decode(doc2, (const char *)js.data, js.len, NULL, &back, &err) != SV_OK)
        nt_fail_with(&err);
    sv_buf out = nt_encode(&back, NULL);
    assert_int_equal(out.len, len);
    assert_memory_equal(out.data, d, len);
    sv_buf_free(&out);

    /* a bool set to false by hand is written 00, one set to true 01 */
    *(sv_value *)nt_get(obj, "Flags") = sv_bool(false);
    sv_array_items(pad)[0] = sv_bool(true);
    out = nt_encode(&root, NULL);
    assert_int_equal(out.len, len);
    assert_memory_equal(out.data + len - 5, "\x01\x01\x7f\x7f\x00", 5);
    sv_buf_free(&out);
    sv_buf_free(&js);
    sv_doc_free(doc2);
    sv_doc_free(doc);
    free(d);
}

/* A new file from a tree made by hand: no version given means version 5,
 * little-endian, 8-bit (spec §B.7 writer). The bytes are spelled out. */
static void test_new_file(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = sv_map(doc, 0), chunks = sv_array(doc, 0), chunk = sv_map(doc, 0);
    sv_value strings = sv_array(doc, 0), comps = sv_array(doc, 0), comp = sv_map(doc, 0);
    sv_array_append(doc, &strings, sv_strz(doc, "A"));
    sv_map_append_str(doc, &comp, "class", sv_strz(doc, "A"));
    sv_map_append_str(doc, &comp, "version", sv_int(1)); /* plain ints are fine */
    sv_array_append(doc, &comps, comp);
    sv_value inst = sv_array(doc, 0);
    sv_array_append(doc, &inst, sv_int(0));
    sv_map_append_str(doc, &chunk, "strings", strings);
    sv_map_append_str(doc, &chunk, "components", comps);
    sv_map_append_str(doc, &chunk, "instances", inst);
    sv_map_append_str(doc, &chunk, "data", sv_bytes(doc, "\x2a\0\0\0", 4));
    sv_array_append(doc, &chunks, chunk);
    sv_map_append_str(doc, &root, "chunks", chunks);
    sv_buf out = nt_encode(&root, NULL);
    static const uint8_t want[] = {
        'H', 'D', 'S', 'N', 5, 0, 0, 0, 1,    0, 0, 0,             /* header: v5, 8-bit, 1 chunk */
        58,  0,   0,   0,   0, 0, 0, 0,                            /* chunk size */
        2,   0,   0,   0,   0, 0, 0, 0, 'A',  0,                   /* string list */
        8,   0,   0,   0,   0, 0, 0, 0, 0,    0, 0, 0, 1, 0, 0, 0, /* component A v1 */
        0,   0,   0,   0,   0, 0, 0, 0,                            /* no metadata */
        4,   0,   0,   0,   0, 0, 0, 0, 0,    0, 0, 0,             /* one instance */
        4,   0,   0,   0,   0, 0, 0, 0, 0x2a, 0, 0, 0,             /* data */
    };
    nt_assert_same_bytes(want, sizeof want, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

/* Local values keyed by property name, a colour as "#AARRGGBB"
 * (local-values.le.v4.nsb, make_vectors.py build_local_values). */
static void test_local_values(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d = vec("local-values.le.v4.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(d, len, &root);
    const sv_value *objs = nt_get(chunk0(&root), "objects");
    assert_int_equal(sv_len(objs), 11);
    /* the brush: Color -> Value -> color, the u32 0xFF333333 */
    const sv_value *brush = nt_at(objs, 6);
    assert_string_equal(nt_class(brush), "SolidColorBrush");
    nt_assert_ref(nt_get(nt_get(nt_get(brush, "Color"), "Property"), "Property"), 0);
    sv_value *color = nt_get(nt_get(nt_get(brush, "Color"), "Value"), "color");
    nt_assert_str(color, "#FF333333");
    assert_int_equal(sv_tag_of(color), SV_TAG_COLOR_ARGB);
    /* the ProgressBar: the repeated group is split into Height and Width,
     * in the file's order, then Margin and Foreground */
    const sv_value *bar = nt_at(objs, 7);
    assert_string_equal(nt_class(bar), "ProgressBar");
    static const char *const keys[] = {
        "*version",   "NumLocalValues",     "Height", "Width", "Margin",
        "Foreground", "NumLocalExpressions"};
    assert_int_equal(sv_len(bar), 7);
    for (size_t i = 0; i < 7; i++) nt_assert_str(sv_key_at(bar, i), keys[i]);
    assert_true(nt_get(nt_get(bar, "Height"), "Value")->as.f32 == 18.0f);
    assert_true(nt_get(nt_get(bar, "Width"), "Value")->as.f32 == 150.0f);
    const sv_value *margin = nt_get(nt_get(bar, "Margin"), "Value");
    assert_true(nt_get(margin, "left")->as.f32 == 10.0f);
    assert_true(nt_get(margin, "top")->as.f32 == 5.0f);
    nt_assert_ref(nt_get(nt_get(bar, "Foreground"), "Value"), 6);
    /* a property named "Name" next to a field "Name" keeps the command's name */
    const sv_value *story = nt_at(objs, 8);
    nt_assert_str(nt_get(nt_get(story, "LocalValue"), "Value"), "intro");
    nt_assert_str(nt_get(story, "Name"), "");
    /* the same under BeginArray commands: split, then renamed */
    const sv_value *arrays = nt_at(objs, 9);
    static const char *const akeys[] = {"NumLocalValues", "Width", "Height", "Foreground"};
    assert_int_equal(sv_len(arrays), 4);
    for (size_t i = 0; i < 4; i++) nt_assert_str(sv_key_at(arrays, i), akeys[i]);
    assert_true(nt_get(nt_get(arrays, "Width"), "Value")->as.f32 == 40.0f);
    assert_true(nt_get(nt_get(arrays, "Height"), "Value")->as.f32 == 20.0f);
    nt_assert_ref(nt_get(nt_get(arrays, "Foreground"), "Value"), -1);
    nt_round_trip(d, len);

    /* a colour written back in lower case is the same u32 */
    *color = sv_with_tag(sv_strz(doc, "#ff00ff01"), SV_TAG_COLOR_ARGB);
    sv_buf out = nt_encode(&root, NULL);
    assert_int_equal(out.len, len);
    size_t at = 0;
    for (size_t i = 0; i + 4 <= len; i++)
        if (memcmp(d + i, "\x33\x33\x33\xff", 4) == 0) at = i;
    assert_true(at > 0);
    assert_memory_equal(out.data + at, "\x01\xff\x00\xff", 4);
    sv_buf_free(&out);
    *color = sv_with_tag(sv_strz(doc, "#FF3333"), SV_TAG_COLOR_ARGB);
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, NULL, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/6/Color/Value/color");
    sv_buf_free(&out);
    *color = sv_with_tag(sv_strz(doc, "#FF333333"), SV_TAG_COLOR_ARGB);

    /* a key that names another property than the ref is refused */
    sv_pair_at(bar, 4)->key = sv_strz(doc, "Width");
    sv_buf_init(&out, NULL);
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, NULL, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/7/Width");
    assert_non_null(strstr(err.message, "\"Margin\""));
    sv_buf_free(&out);
    sv_pair_at(bar, 4)->key = sv_strz(doc, "Margin");
    /* so is a split group whose element points at another property */
    nt_get(nt_get(nt_get(bar, "Width"), "Property"), "Property")->as.u = 1;
    sv_buf_init(&out, NULL);
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, NULL, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/7/Width");
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(d);
}

/* w bytes of v at f + *n, in the byte order asked for. */
static void put_n(uint8_t *f, size_t *n, uint64_t v, int w, bool big)
{
    for (int k = 0; k < w; k++) f[*n + (size_t)k] = (uint8_t)(v >> (8 * (big ? w - 1 - k : k)));
    *n += (size_t)w;
}

/* A file of one instance whose UInt32 fields are all named "color":
 * UInt32 "color", UInt32 "color" again, UInt32* 2 "color", in either byte
 * order (big: every number, count and desc big-endian). */
static size_t colour_file(uint8_t *f, bool big)
{
    size_t n = 0;
    put_n(f, &n, 0x4E534448u, 4, big); /* signature: "HDSN" little-endian, "NSDH" big */
    put_n(f, &n, 4, 2, big);           /* version 4 */
    put_n(f, &n, 0, 2, big);           /* 8-bit strings */
    put_n(f, &n, 1, 4, big);           /* one chunk */
    put_n(f, &n, 113, 8, big);         /* chunk size: the five blocks below */
    put_n(f, &n, 2, 8, big);           /* strings */
    f[n++] = 'A';
    f[n++] = 0;
    put_n(f, &n, 8, 8, big); /* components: A (string offset 0), version 1 */
    put_n(f, &n, 0, 4, big);
    put_n(f, &n, 1, 4, big);
    put_n(f, &n, 43, 8, big); /* metadata: 16 + 6 + 21 */
    put_n(f, &n, 6, 8, big);
    memcpy(f + n, "color", 6);
    n += 6;
    put_n(f, &n, 21, 8, big); /* commands */
    f[n++] = 0x00;            /* BeginInstance */
    f[n++] = 0x0D;            /* UInt32 "color" */
    put_n(f, &n, 0, 4, big);
    f[n++] = 0x0D; /* UInt32 "color" again: "color#2" */
    put_n(f, &n, 0, 4, big);
    f[n++] = 0x8D; /* UInt32* 2 "color": "color#3" */
    put_n(f, &n, 2, 4, big);
    put_n(f, &n, 0, 4, big);
    f[n++] = 0x01;           /* EndInstance */
    put_n(f, &n, 4, 8, big); /* instances: component 0 */
    put_n(f, &n, 0, 4, big);
    put_n(f, &n, 16, 8, big); /* data */
    put_n(f, &n, 0xFF336699u, 4, big);
    put_n(f, &n, 7, 4, big);
    put_n(f, &n, 1, 4, big);
    put_n(f, &n, 2, 4, big);
    return n;
}

/* Only a single UInt32 keyed exactly "color" becomes "#AARRGGBB" (the
 * interpreter makes it, on the fast path's fields and the general path's
 * alike); a second use of the name and a repeated UInt32 stay numbers; the
 * bytes come back in both byte orders. */
static void test_colour_fields(void **state)
{
    (void)state;
    for (int big = 0; big <= 1; big++) {
        uint8_t f[256];
        size_t len = colour_file(f, big);
        assert_int_equal(len, 12 + 8 + 113);
        sv_value root;
        sv_doc *doc = nt_decode(f, len, &root);
        const sv_value *obj = nt_at(nt_get(chunk0(&root), "objects"), 0);
        assert_int_equal(sv_len(obj), 3);
        sv_value *color = nt_get(obj, "color");
        nt_assert_str(color, "#FF336699");
        assert_int_equal(sv_tag_of(color), SV_TAG_COLOR_ARGB);
        nt_assert_uint(nt_get(obj, "color#2"), 4, 7);
        const sv_value *packed = nt_get(obj, "color#3");
        assert_int_equal(sv_kind_of(packed), SV_PACKED);
        assert_int_equal(sv_elem_of(packed), SV_ELEM_U32);
        assert_int_equal(sv_len(packed), 2);
        assert_int_equal(sv_number_at(packed, 0), 1);
        assert_int_equal(sv_number_at(packed, 1), 2);
        sv_doc_free(doc);
        nt_round_trip(f, len);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_little_endian),  cmocka_unit_test(test_big_endian),
        cmocka_unit_test(test_unicode),        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_no_metadata_be), cmocka_unit_test(test_padding_bools),
        cmocka_unit_test(test_new_file),       cmocka_unit_test(test_local_values),
        cmocka_unit_test(test_colour_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
