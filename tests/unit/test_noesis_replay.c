/* NoesisGUI NSDH: the decoder's replay of a plan (noesis_plan.c) writes
 * each value's payload into a copy of a template and checks the data of
 * the whole instance (each string's length, then what follows the last
 * one) before it reads any of it. These files repeat one body of every
 * width, signed and unsigned, two strings in a row (one empty, one UTF-8
 * that is not ASCII), a Buffer, a packed Int16 repeat, a repeated Ref and
 * a value after them all: the values of a replayed instance are the ones
 * worked out by hand below, and data cut short at any byte of a replayed
 * instance gives the error the interpreter gives for the same cut in an
 * instance it runs itself. One chunk, little-endian, version 4. */
#include "test_noesis_util.h"

/* metadata strings and their byte offsets */
static const char md[] = "a\0b\0c\0r";
enum { A = 0, B = 2, C = 4, R = 6 };

/* The body after BeginInstance (file form: desc = byte offset). */
static void body(bld *c)
{
    u8(c, 0x07), u32(c, A);            /* Int8 a          data  0 */
    u8(c, 0x08), u32(c, A);            /* Int16 a#2             1 */
    u8(c, 0x09), u32(c, A);            /* Int32 a#3             3 */
    u8(c, 0x0A), u32(c, A);            /* Int64 a#4             7 */
    u8(c, 0x0B), u32(c, B);            /* UInt8 b              15 */
    u8(c, 0x0C), u32(c, B);            /* UInt16 b#2           16 */
    u8(c, 0x0E), u32(c, B);            /* UInt64 b#3           18 */
    u8(c, 0x11), u32(c, C);            /* Float64 c            26 */
    u8(c, 0x0F), u32(c, C);            /* Bool c#2             34 */
    u8(c, 0x0F), u32(c, C);            /* Bool c#3             35 */
    u8(c, 0x14), u32(c, C);            /* String8 c#4 ""       36 */
    u8(c, 0x14), u32(c, C);            /* String8 c#5 "é"      40 */
    u8(c, 0x0D), u32(c, A);            /* UInt32 a#5           46 */
    u8(c, 0x16), u32(c, B);            /* Buffer b#4 00 FF     50 */
    u8(c, 0x88), u32(c, 3), u32(c, A); /* Int16* 3 a#6         56 */
    u8(c, 0x86), u32(c, 2), u32(c, R); /* Ref* 2 r             62 */
    u8(c, 0x10), u32(c, C);            /* Float32 c#6          70 */
    u8(c, 0x01);                       /* EndInstance */
}

#define INSTANCE_BYTES 74u

/* One instance's data, its refs ref0 and null. */
static void data(bld *d, uint32_t ref0)
{
    u8(d, 0xFE);                           /* -2 */
    raw(d, "\xD4\xFE", 2);                 /* -300 = 0xFED4 */
    raw(d, "\x90\xEE\xFE\xFF", 4);         /* -70000 = 0xFFFEEE90 */
    u64(d, UINT64_C(0x0102030405060708));  /* */
    u8(d, 0xFF);                           /* 255 */
    raw(d, "\xFF\xFF", 2);                 /* 65535 */
    u64(d, UINT64_C(0x8000000000000001));  /* */
    u64(d, UINT64_C(0xBFE0000000000000));  /* -0.5 */
    u8(d, 1), u8(d, 0);                    /* true, false */
    u32(d, 0);                             /* "" */
    u32(d, 2), raw(d, "\xC3\xA9", 2);      /* "é" */
    u32(d, 0xDEADBEEF);                    /* */
    u32(d, 2), raw(d, "\x00\xFF", 2);      /* bytes 00 FF */
    raw(d, "\x01\x00\xFF\xFF\xFF\x7F", 6); /* 1, -1, 32767 */
    u32(d, ref0), u32(d, 0xFFFFFFFF);      /* refs */
    raw(d, "\x00\x00\x40\x3F", 4);         /* 0.75f = 0x3F400000 */
}

/* n instances of the body, the last one's data cut to keep bytes (all of
 * it when keep >= INSTANCE_BYTES) and its first ref ref0 (the others' 0).
 * *data_at: the file offset of the data section's first byte. */
static void build(bld *f, uint32_t n, size_t keep, uint32_t ref0, size_t *data_at)
{
    static bld c, d;
    c.n = d.n = 0;
    for (uint32_t i = 0; i < n; i++) {
        u8(&c, 0x00);
        body(&c);
        data(&d, i + 1 == n ? ref0 : 0);
    }
    assert_int_equal(d.n, (size_t)n * INSTANCE_BYTES);
    if (keep < INSTANCE_BYTES) d.n -= INSTANCE_BYTES - keep;
    *data_at = nt_thing_file(f, md, sizeof md, &c, &d, n) + 8;
}

static void assert_int(const sv_value *v, int width, int64_t want)
{
    assert_int_equal(sv_kind_of(v), SV_INT);
    assert_int_equal(v->sub, width);
    assert_true(sv_get_int(v) == want);
}

/* Instance i's values, as the data above says. */
static void assert_values(const sv_value *o)
{
    assert_string_equal(nt_class(o), "Thing");
    assert_int_equal(sv_len(o), 17);
    assert_int(nt_get(o, "a"), 1, -2);
    assert_int(nt_get(o, "a#2"), 2, -300);
    assert_int(nt_get(o, "a#3"), 4, -70000);
    assert_int(nt_get(o, "a#4"), 8, INT64_C(0x0102030405060708));
    nt_assert_uint(nt_get(o, "b"), 1, 255);
    nt_assert_uint(nt_get(o, "b#2"), 2, 65535);
    nt_assert_uint(nt_get(o, "b#3"), 8, UINT64_C(0x8000000000000001));
    const sv_value *c = nt_get(o, "c");
    assert_int_equal(sv_kind_of(c), SV_FLOAT);
    assert_int_equal(c->sub, 8);
    assert_true(sv_get_f64(c) == -0.5);
    assert_int_equal(sv_kind_of(nt_get(o, "c#2")), SV_BOOL);
    assert_int_equal(sv_bool_stored(nt_get(o, "c#2")), 1);
    assert_int_equal(sv_bool_stored(nt_get(o, "c#3")), 0);
    nt_assert_str(nt_get(o, "c#4"), "");
    nt_assert_str(nt_get(o, "c#5"), "\xC3\xA9");
    nt_assert_uint(nt_get(o, "a#5"), 4, 0xDEADBEEF);
    const sv_value *buf = nt_get(o, "b#4");
    assert_int_equal(sv_kind_of(buf), SV_BYTES);
    assert_int_equal(sv_len(buf), 2);
    assert_memory_equal(buf->as.bytes, "\x00\xFF\x00", 3); /* with its NUL */
    const sv_value *packed = nt_get(o, "a#6");
    assert_int_equal(sv_kind_of(packed), SV_PACKED);
    assert_int_equal(packed->sub, SV_ELEM_I16);
    assert_int_equal(sv_len(packed), 3);
    const int16_t want16[3] = {1, -1, 32767};
    assert_memory_equal(packed->as.data, want16, sizeof want16);
    const sv_value *refs = nt_get(o, "r");
    assert_int_equal(sv_kind_of(refs), SV_ARRAY);
    assert_int_equal(sv_len(refs), 2);
    nt_assert_ref(nt_at(refs, 0), 0);
    nt_assert_ref(nt_at(refs, 1), -1);
    const sv_value *f = nt_get(o, "c#6");
    assert_int_equal(sv_kind_of(f), SV_FLOAT);
    assert_int_equal(f->sub, 4);
    assert_true(sv_get_f64(f) == 0.75);
}

/* Instances 1 and 2 are the plan's (compact; the interpreter's first is
 * not): the values by hand, the interpreter's typed JSON, the file's bytes
 * back. */
static void test_replayed_values_of_every_width(void **state)
{
    (void)state;
    static bld f;
    size_t data_at;
    build(&f, 3, INSTANCE_BYTES, 0, &data_at);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    sv_value *objs = nt_get(nt_at(nt_get(&root, "chunks"), 0), "objects");
    assert_int_equal(sv_len(objs), 3);
    assert_null(sv_object_shape(nt_at(objs, 0)));
    char *first = nt_json_of(nt_at(objs, 0));
    for (size_t i = 0; i < 3; i++) {
        if (i) assert_non_null(sv_object_shape(nt_at(objs, i)));
        assert_values(nt_at(objs, i));
        char *other = nt_json_of(nt_at(objs, i));
        assert_string_equal(first, other);
        free(other);
    }
    free(first);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

typedef struct outcome {
    sv_status st;
    uint64_t at; /* the error's offset from the data section's start */
    char message[256];
} outcome;

static outcome decode_outcome(const bld *f, size_t data_at)
{
    sv_doc *doc = sv_doc_new(NULL);
    assert_non_null(doc);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    outcome o;
    memset(&o, 0, sizeof o);
    o.st = sv_noesis_decode(doc, f->b, f->n, NULL, &v, &err);
    if (o.st != SV_OK) {
        o.at = err.byte_offset - data_at;
        snprintf(o.message, sizeof o.message, "%s", err.message);
    }
    sv_doc_free(doc);
    return o;
}

/* A message naming "command at byte N" with N moved by shift (the third
 * instance's commands are two bodies further on than the first's). */
static void shift_command_offset(char *message, size_t size, size_t shift)
{
    static const char mark[] = "command at byte ";
    char *p = strstr(message, mark);
    if (!p) return;
    p += sizeof mark - 1;
    char *rest;
    unsigned long long n = strtoull(p, &rest, 10);
    char tail[256];
    snprintf(tail, sizeof tail, "%s", rest);
    snprintf(p, size - (size_t)(p - message), "%llu%s", n + shift, tail);
}

/* The data cut short at every byte of the third (replayed) instance: the
 * error of the same cut in a file of that one instance (the interpreter's),
 * at the same place in the instance. Worked by hand: a cut inside the last
 * Float32 (at 72) and inside the text of "é" (at 45). */
static void test_cut_anywhere_in_a_replayed_instance(void **state)
{
    (void)state;
    static bld one, three, scratch;
    scratch.n = 0;
    u8(&scratch, 0x00);
    body(&scratch);
    size_t at1, at3;
    for (size_t keep = 0; keep < INSTANCE_BYTES; keep++) {
        build(&one, 1, keep, 0, &at1);
        build(&three, 3, keep, 0, &at3);
        outcome want = decode_outcome(&one, at1), got = decode_outcome(&three, at3);
        shift_command_offset(want.message, sizeof want.message, 2 * scratch.n);
        if (got.st != want.st || got.at != want.at + 2 * INSTANCE_BYTES ||
            strcmp(got.message, want.message) != 0)
            fail_msg("cut at %zu: expected %s at %llu (%s), got %s at %llu (%s)", keep,
                     sv_status_name(want.st), (unsigned long long)(want.at + 2 * INSTANCE_BYTES),
                     want.message, sv_status_name(got.st), (unsigned long long)got.at, got.message);
        assert_int_not_equal(got.st, SV_OK);
    }
    build(&three, 3, 72, 0, &at3);
    nt_decode_fails(three.b, three.n, SV_ERR_TRUNCATED, at3 + 2 * INSTANCE_BYTES + 70,
                    "needs 4 bytes of data, 2 left");
    build(&three, 3, 45, 0, &at3);
    nt_decode_fails(three.b, three.n, SV_ERR_TRUNCATED, at3 + 2 * INSTANCE_BYTES + 40,
                    "needs 6 bytes of data, 5 left");
}

/* A repeated Ref out of range in a replayed instance: the interpreter's
 * error at that ref (data offset 62 of the third instance); a null ref
 * there is taken as the second one is. */
static void test_ref_array_out_of_range_in_a_replay(void **state)
{
    (void)state;
    static bld f;
    size_t at;
    build(&f, 3, INSTANCE_BYTES, 3, &at);
    nt_decode_fails(f.b, f.n, SV_ERR_RANGE, at + 2 * INSTANCE_BYTES + 62,
                    "Ref to instance 3, but the instance list has 3");
    build(&f, 3, INSTANCE_BYTES, 0xFFFFFFFF, &at);
    sv_value root;
    sv_doc *doc = nt_decode(f.b, f.n, &root);
    const sv_value *o = nt_at(nt_get(nt_at(nt_get(&root, "chunks"), 0), "objects"), 2);
    assert_non_null(sv_object_shape(o));
    nt_assert_ref(nt_at(nt_get(o, "r"), 0), -1);
    nt_assert_ref(nt_at(nt_get(o, "r"), 1), -1);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(f.b, f.n, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replayed_values_of_every_width),
        cmocka_unit_test(test_cut_anywhere_in_a_replayed_instance),
        cmocka_unit_test(test_ref_array_out_of_range_in_a_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
