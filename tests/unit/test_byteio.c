/* Byte reader and writer: endianness on known bytes, bounds, sticky errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/byteio.h"

static const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                0x00, 0x00, 0xc0, 0x3f, 0x9a, 0x99, 0x99, 0x99,
                                0x99, 0x99, 0xb9, 0x3f};

static void test_reads(void **state)
{
    (void)state;
    sv_reader r;
    sv__core_rd_init(&r, bytes, sizeof bytes, "test", NULL);
    assert_int_equal(sv_rd_u16le(&r), 0x0201);
    assert_int_equal(sv_rd_u16be(&r), 0x0304);
    assert_int_equal(sv_rd_u32le(&r), 0x08070605);
    assert_true(sv__core_rd_f32le(&r) == 1.5f);  /* 00 00 c0 3f */
    assert_true(sv__core_rd_f64le(&r) == 0.1);   /* 9a 99 99 99 99 99 b9 3f */
    assert_int_equal(sv__core_rd_remaining(&r), 0);
    assert_true(sv__core_rd_ok(&r));

    sv__core_rd_init(&r, bytes, sizeof bytes, "test", NULL);
    assert_true(sv_rd_u64le(&r) == UINT64_C(0x0807060504030201));
    sv__core_rd_init(&r, bytes, sizeof bytes, "test", NULL);
    assert_true(sv_rd_u64be(&r) == UINT64_C(0x0102030405060708));
    sv__core_rd_init(&r, "\xff\xff\xff\xff", 4, "test", NULL);
    assert_int_equal(sv__core_rd_i32le(&r), -1);
}

static void test_truncation_is_sticky(void **state)
{
    (void)state;
    sv_error e;
    sv_error_clear(&e);
    sv_reader r;
    sv__core_rd_init(&r, bytes, 6, "godot4", &e);
    assert_int_equal(sv_rd_u32le(&r), 0x04030201);
    assert_int_equal(sv_rd_u32le(&r), 0); /* only 2 bytes left */
    assert_false(sv__core_rd_ok(&r));
    assert_int_equal(e.status, SV_ERR_TRUNCATED);
    assert_int_equal(e.byte_offset, 4);
    assert_string_equal(e.format, "godot4");
    assert_string_equal(e.message, "u32le needs 4 bytes, 2 left");
    assert_int_equal(sv_rd_u8(&r), 0); /* later reads give zeros */
    assert_int_equal(sv__core_rd_remaining(&r), 0);
    assert_null(sv__core_rd_bytes(&r, 0, "x"));
}

static void test_align(void **state)
{
    (void)state;
    sv_reader r;
    sv__core_rd_init(&r, bytes, sizeof bytes, "t", NULL);
    sv__core_rd_skip(&r, 5, "x");
    sv__core_rd_align(&r, 4, "pad");
    assert_int_equal(sv__core_rd_offset(&r), 8);
    sv__core_rd_align(&r, 4, "pad"); /* already aligned */
    assert_int_equal(sv__core_rd_offset(&r), 8);
    sv__core_rd_init(&r, bytes, 6, "t", NULL);
    sv__core_rd_skip(&r, 5, "x");
    sv__core_rd_align(&r, 4, "pad"); /* the padding must be present */
    assert_false(sv__core_rd_ok(&r));
}

static void test_writes(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_put_u16le(&b, 0x0201);
    sv_put_u16be(&b, 0x0304);
    sv_put_u32le(&b, 0x08070605);
    sv__core_put_f32le(&b, 1.5f);
    sv__core_put_f64le(&b, 0.1);
    assert_int_equal(b.len, sizeof bytes);
    assert_memory_equal(b.data, bytes, sizeof bytes);
    sv__core_put_u8(&b, 0xaa);
    sv__core_put_pad(&b, 0, 4);
    assert_int_equal(b.len, 24);
    assert_memory_equal(b.data + 20, "\xaa\0\0\0", 4);
    sv_put_u64be(&b, UINT64_C(0x0102030405060708));
    assert_memory_equal(b.data + 24, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    sv_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads),
        cmocka_unit_test(test_truncation_is_sticky),
        cmocka_unit_test(test_align),
        cmocka_unit_test(test_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
