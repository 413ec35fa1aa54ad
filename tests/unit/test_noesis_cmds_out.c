/* NoesisGUI NSDH: the metadata commands' file form, written by the encoder
 * while it writes the data (noesis_cmds_out.c).
 *
 * A body equal to one converted before is copied from that one's converted
 * bytes. These files hold bodies of one length and one component that
 * differ only in which name each command has, so a copy of the wrong body,
 * or a desc left as the tree's index instead of the file's offset, gives
 * other bytes than the file's. The metadata strings are "zz", "a", "b" at
 * offsets 0, 3, 5 (indices 0, 1, 2): every desc's index differs from its
 * offset. Files are laid out by hand below (one chunk, little-endian,
 * version 4, spec §B.2, §B.3). */
#include "test_noesis_util.h"

static const char md[] = "zz\0a\0b"; /* 7 bytes with the last terminator */
enum { A = 3, B = 5 };

/* Body x: UInt32 a, UInt32 b; body y: UInt32 b, UInt32 a (file form). */
static void body(bld *c, bool x)
{
    u8(c, 0x0D), u32(c, x ? A : B);
    u8(c, 0x0D), u32(c, x ? B : A);
    u8(c, 0x01);
}

/* The file: instances of bodies x, y, x, y, x, y (one BeginInstance
 * each), then one BeginInstance repeated twice over a body x. Instance i
 * holds the values 10 i and 10 i + 1. */
static void build(bld *f)
{
    static bld c, d;
    c.n = d.n = 0;
    for (int i = 0; i < 6; i++) {
        u8(&c, 0x00);
        body(&c, i % 2 == 0);
    }
    u8(&c, 0x80), u32(&c, 2);
    body(&c, true);
    for (uint32_t i = 0; i < 8; i++) u32(&d, 10 * i), u32(&d, 10 * i + 1);
    nt_thing_file(f, md, sizeof md, &c, &d, 8);
}

/* The file's bytes come back, from the decoder's tree and from every
 * object in the pair layout; the repeated instances read their values. */
static void test_equal_length_bodies_are_not_mixed_up(void **state)
{
    (void)state;
    static bld f;
    build(&f);
    assert_int_equal(f.n, 281); /* 12 + 8 + 14 + 16 + 16 + 7 + 8 + 88 + 40 + 8 + 64 */
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    sv_value *objs = nt_get(nt_at(nt_get(&root, "chunks"), 0), "objects");
    assert_int_equal(sv_len(objs), 8);
    nt_assert_uint(nt_get(nt_at(objs, 1), "b"), 4, 10);
    nt_assert_uint(nt_get(nt_at(objs, 7), "b"), 4, 71);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    for (size_t i = 0; i < sv_len(objs); i++)
        assert_int_equal(sv_object_expand(doc, nt_at(objs, i)), SV_OK);
    out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    /* into a buffer that held other bytes: every byte of the file is written */
    memset(out.data, 0xAA, out.len);
    out.len = 0;
    sv_error err;
    sv_error_clear(&err);
    if (sv_noesis_encode(&root, NULL, &out, &err) != SV_OK) nt_fail_with(&err);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

/* A desc out of range in the tree's commands is reported as the commands'
 * error, at the desc's offset in the stream, before any error of the data
 * written with them. */
static void test_a_bad_desc_is_the_commands_error(void **state)
{
    (void)state;
    static bld f;
    build(&f);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    const sv_value *cmds = nt_get(nt_get(chunk, "metadata"), "commands");
    assert_int_equal(cmds->len, 88);
    /* the fifth instance's second desc: 4 x 12 bytes of instances before
     * it, then 00 and the first command (5 bytes), then the op */
    uint8_t *bytes = (uint8_t *)(uintptr_t)cmds->as.bytes;
    const size_t at = 4 * 12 + 1 + 5 + 1;
    assert_int_equal(bytes[at], 2); /* index of "b" */
    bytes[at] = 9;
    /* and a value the data cannot hold, in the first instance */
    *nt_get(nt_at(nt_get(chunk, "objects"), 0), "a") = sv_int(-1);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, NULL, &out, &err), SV_ERR_RANGE);
    assert_string_equal(err.path, "/chunks/0/metadata/commands");
    assert_non_null(strstr(err.message, "names metadata string 9, but there are 3"));
    assert_int_equal(err.byte_offset, at);
    assert_int_equal(out.len, 0);
    /* the commands right again: the data's error */
    bytes[at] = 2;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&root, NULL, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/0/a");
    sv_buf_free(&out);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_length_bodies_are_not_mixed_up),
        cmocka_unit_test(test_a_bad_desc_is_the_commands_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
