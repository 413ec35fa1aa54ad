/* NoesisGUI NSDH: instance bodies replayed from a plan (noesis_plan.c).
 *
 * The decoder and the encoder run a body themselves the first time they see
 * it and replay a compiled plan from the second time on. These files repeat
 * one body that uses every kind of step a plan has (values of each width,
 * a name used twice, a group, a repeated array of groups, a packed repeat, a
 * repeated Ref, a Bool byte 7F, a String8 that is not UTF-8, the instance's
 * Name), so the first instance is the interpreter's and the later ones the
 * plan's: they must be the same values, and the errors must be the
 * interpreter's wherever the data goes wrong. Offsets are computed from the
 * builder below (one chunk, little-endian, version 4). */
#include "test_noesis_util.h"

static void f32(bld *f, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    u32(f, u);
}

/* metadata strings and their byte offsets */
static const char md[] = "a\0b\0g\0Name\0items";
enum { A = 0, B = 2, G = 4, NAME = 6, ITEMS = 11 };

/* The body after BeginInstance (file form: desc = byte offset). */
static size_t body(bld *c)
{
    size_t start = c->n;
    u8(c, 0x0D), u32(c, A);                /* UInt32 a */
    u8(c, 0x0D), u32(c, A);                /* UInt32 a#2 */
    u8(c, 0x06), u32(c, B);                /* Ref b */
    u8(c, 0x14), u32(c, NAME);             /* String8 Name */
    u8(c, 0x02), u32(c, G);                /* BeginGroup g */
    u8(c, 0x0F), u32(c, A);                /*   Bool a */
    u8(c, 0x10), u32(c, B);                /*   Float32 b */
    u8(c, 0x0A), u32(c, A);                /*   Int64 a#2 */
    u8(c, 0x03);                           /* EndGroup */
    u8(c, 0x84), u32(c, 2), u32(c, ITEMS); /* BeginArray* 2 items */
    u8(c, 0x14), u32(c, A);                /*   String8 a */
    u8(c, 0x0B), u32(c, B);                /*   UInt8 b */
    u8(c, 0x05);                           /* EndArray */
    u8(c, 0x90), u32(c, 3), u32(c, B);     /* Float32* 3 b#2 */
    u8(c, 0x86), u32(c, 2), u32(c, A);     /* Ref* 2 a#3 */
    u8(c, 0x16), u32(c, G);                /* Buffer g#2 */
    u8(c, 0x01);                           /* EndInstance */
    return c->n - start;
}

/* One instance's data; ref is the value of its Ref "b". Returns the
 * offset of that ref within the instance's data. */
static size_t data(bld *d, uint32_t ref)
{
    size_t start = d->n;
    u32(d, 7);
    u32(d, 8);
    size_t at = d->n - start;
    u32(d, ref);
    u32(d, 2), raw(d, "n1", 2);
    u8(d, 0x7F);
    f32(d, 1.5f);
    u64(d, (uint64_t)-5);
    u32(d, 1), raw(d, "x", 1);
    u8(d, 200);
    u32(d, 1), u8(d, 0xFF); /* not UTF-8: bytes */
    u8(d, 0);
    f32(d, 0.25f), f32(d, -2.0f), f32(d, 3.0f);
    u32(d, 0), u32(d, 0xFFFFFFFF);
    u32(d, 3), raw(d, "\x01\x02\x03", 3);
    return at;
}

static size_t data_size_at; /* of the last file built */

static void set_u64(bld *f, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; i++) f->b[at + i] = (uint8_t)(v >> (8 * i));
}

/* n instances of one body; instance bad (if < n) has Ref b = bad_ref.
 * *ref_at: the file offset of that ref. */
static void build(bld *f, uint32_t n, uint32_t bad, uint32_t bad_ref, size_t *ref_at)
{
    static bld c, d;
    c.n = d.n = 0;
    size_t bad_at = 0;
    for (uint32_t i = 0; i < n; i++) {
        u8(&c, 0x00);
        body(&c);
        size_t base = d.n;
        size_t at = data(&d, i == bad ? bad_ref : 0);
        if (i == bad) bad_at = base + at;
    }
    data_size_at = nt_thing_file(f, md, sizeof md, &c, &d, n);
    if (ref_at) *ref_at = data_size_at + 8 + bad_at;
}

static sv_value *objects_of(sv_value *root)
{
    return nt_get(nt_at(nt_get(root, "chunks"), 0), "objects");
}

/* Instance 0 is the interpreter's; 1 and later the plan's: the same typed
 * JSON, and the values the data says. */
static void test_replayed_instances_are_the_interpreters(void **state)
{
    (void)state;
    static bld f;
    build(&f, 4, 99, 0, NULL);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    sv_value *objs = objects_of(&root);
    assert_int_equal(sv_len(objs), 4);
    char *first = nt_json_of(nt_at(objs, 0));
    for (size_t i = 1; i < 4; i++) {
        char *other = nt_json_of(nt_at(objs, i));
        assert_string_equal(first, other);
        free(other);
    }
    free(first);
    const sv_value *o = nt_at(objs, 3);
    assert_string_equal(nt_class(o), "Thing");
    assert_int_equal(sv_len(o), 9);
    nt_assert_uint(nt_get(o, "a"), 4, 7);
    nt_assert_uint(nt_get(o, "a#2"), 4, 8);
    nt_assert_ref(nt_get(o, "b"), 0);
    nt_assert_str(nt_get(o, "Name"), "n1");
    const sv_value *g = nt_get(o, "g");
    assert_int_equal(sv_kind_of(nt_get(g, "a")), SV_BOOL);
    assert_int_equal(sv_bool_stored(nt_get(g, "a")), 0x7F);
    assert_true(sv_get_f64(nt_get(g, "b")) == 1.5);
    assert_int_equal(sv_get_int(nt_get(g, "a#2")), -5);
    const sv_value *items = nt_get(o, "items");
    assert_int_equal(sv_kind_of(items), SV_ARRAY);
    assert_int_equal(sv_len(items), 2);
    nt_assert_str(nt_get(nt_at(items, 0), "a"), "x");
    nt_assert_uint(nt_get(nt_at(items, 0), "b"), 1, 200);
    assert_int_equal(sv_kind_of(nt_get(nt_at(items, 1), "a")), SV_BYTES);
    const sv_value *floats = nt_get(o, "b#2");
    assert_int_equal(sv_kind_of(floats), SV_PACKED);
    assert_int_equal(sv_len(floats), 3);
    const sv_value *refs = nt_get(o, "a#3");
    assert_int_equal(sv_len(refs), 2);
    nt_assert_ref(nt_at(refs, 0), 0);
    nt_assert_ref(nt_at(refs, 1), -1);
    assert_int_equal(sv_kind_of(nt_get(o, "g#2")), SV_BYTES);
    /* back to the same bytes, from the tree and from its typed JSON */
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    char *text = nt_json_of(&root);
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value back;
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_decode(doc2, text, strlen(text), NULL, &back, &err) != SV_OK) nt_fail_with(&err);
    out = nt_encode(&back, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    sv_doc_free(doc2);
    free(text);
    sv_doc_free(doc);
}

/* A Ref out of range in a replayed instance: the interpreter's error, at
 * the ref's offset. */
static void test_replay_declines_to_the_interpreters_error(void **state)
{
    (void)state;
    static bld f;
    size_t at = 0;
    build(&f, 4, 3, 4, &at);
    nt_decode_fails(f.b, f.n, SV_ERR_RANGE, at, "Ref to instance 4, but the instance list has 4");
    build(&f, 4, 0, 4, &at);
    nt_decode_fails(f.b, f.n, SV_ERR_RANGE, at, "Ref to instance 4, but the instance list has 4");
    /* data cut short inside the last (replayed) instance: its Buffer's
     * 3 bytes are not there */
    build(&f, 4, 99, 0, NULL);
    f.n -= 3;
    set_u64(&f, data_size_at, f.n - data_size_at - 8);
    set_u64(&f, 12, f.n - 20);
    nt_decode_fails(f.b, f.n, SV_ERR_TRUNCATED, f.n - 4, "needs 7 bytes of data, 4 left");
}

/* Encoding: a value the plan does not take as it is declines to the
 * emitter, which writes it or reports it exactly as for the first instance. */
static void encode_error(sv_value *root, size_t instance, char *msg, size_t size)
{
    sv_value *o = nt_at(objects_of(root), instance);
    sv_value *b = nt_get(nt_at(nt_get(o, "items"), 1), "b");
    const sv_value was = *b;
    *b = sv_uint(300);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(root, NULL, &out, &err), SV_ERR_TYPE);
    sv_error_format(&err, msg, size);
    sv_buf_free(&out);
    *b = was;
}

static void test_encode_declines_to_the_emitter(void **state)
{
    (void)state;
    static bld f;
    build(&f, 4, 99, 0, NULL);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    char first[512], last[512];
    encode_error(&root, 0, first, sizeof first);
    encode_error(&root, 3, last, sizeof last);
    assert_non_null(strstr(first, "cannot be written as UInt8"));
    assert_non_null(
        strstr(first, "at /chunks/0/objects/0/items/1/b: a uint value cannot be written as UInt8"));
    assert_non_null(strstr(last, "cannot be written as UInt8"));
    assert_non_null(
        strstr(last, "at /chunks/0/objects/3/items/1/b: a uint value cannot be written as UInt8"));
    /* a key numbered another way than the decoder's: the emitter takes it
     * (renaming needs the object's own keys: the pair layout) */
    sv_value *o = nt_at(objects_of(&root), 3);
    assert_int_equal(sv_object_expand(doc, o), SV_OK);
    sv_pair *pairs = (sv_pair *)sv_pairs(o);
    assert_non_null(pairs);
    assert_true(pairs[1].key.len == 3 && memcmp(pairs[1].key.as.str, "a#2", 3) == 0);
    pairs[1].key = sv_str_intern(doc, "a#9", 3);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    /* a value of another kind that fits: an INT for the UInt32 */
    *nt_get(o, "a") = sv_int(7);
    out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

/* The plan's instances are compact objects of one shape per class (the
 * interpreter's first one keeps its pairs), with the decoder's keys. */
static void test_replayed_instances_are_compact(void **state)
{
    (void)state;
    static bld f;
    build(&f, 4, 99, 0, NULL);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    sv_value *objs = objects_of(&root);
    assert_null(sv_object_shape(nt_at(objs, 0)));
    const sv_shape *shape = sv_object_shape(nt_at(objs, 1));
    assert_non_null(shape);
    for (size_t i = 2; i < 4; i++) assert_ptr_equal(sv_object_shape(nt_at(objs, i)), shape);
    static const char *const keys[] = {"a", "a#2", "b", "Name", "g", "items", "b#2", "a#3", "g#2"};
    assert_int_equal(shape->count, 9);
    for (size_t k = 0; k < 9; k++) {
        nt_assert_str(&sv_shape_keys(shape)[k], keys[k]);
        nt_assert_str(sv_key_at(nt_at(objs, 0), k), keys[k]);
    }
    assert_string_equal(nt_class(nt_at(objs, 2)), "Thing");
    /* the values are where the accessors say, as in the pair layout */
    nt_assert_uint(nt_get(nt_at(objs, 2), "a#2"), 4, 8);
    nt_assert_str(nt_get(nt_at(objs, 2), "Name"), "n1");
    sv_doc_free(doc);
}

/* The same values in either layout encode to the file's bytes: the
 * decoder's mix (pairs, then compact), every object expanded to pairs,
 * and every object compacted again by sv_compact_objects (another shape
 * than the plan's: the encoder checks its keys once). */
static void test_compact_and_pairs_encode_the_same(void **state)
{
    (void)state;
    static bld f;
    build(&f, 5, 99, 0, NULL);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    sv_value *objs = objects_of(&root);
    for (size_t i = 0; i < sv_len(objs); i++) {
        assert_int_equal(sv_object_expand(doc, nt_at(objs, i)), SV_OK);
        assert_null(sv_object_shape(nt_at(objs, i)));
    }
    out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    assert_int_equal(sv_compact_objects(doc, &root), SV_OK);
    for (size_t i = 0; i < sv_len(objs); i++) assert_non_null(sv_object_shape(nt_at(objs, i)));
    out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    /* a compact object whose value does not fit: the emitter's error, with
     * its path, as for pairs */
    char msg[512];
    encode_error(&root, 4, msg, sizeof msg);
    assert_non_null(
        strstr(msg, "at /chunks/0/objects/4/items/1/b: a uint value cannot be written as UInt8"));
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replayed_instances_are_the_interpreters),
        cmocka_unit_test(test_replay_declines_to_the_interpreters_error),
        cmocka_unit_test(test_encode_declines_to_the_emitter),
        cmocka_unit_test(test_replayed_instances_are_compact),
        cmocka_unit_test(test_compact_and_pairs_encode_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
