/* LSB-first bit reader and writer, with the examples of
 * docs/formats/kingsisle.md, "Bits" (from katsuba's old bit-buf tests). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/bitio.h"

static void test_spec_reader_example(void **state)
{
    (void)state;
    /* bytes DE C0 AD DE read as 16, 8, 8 bits give 0xC0DE, 0xAD, 0xDE */
    const uint8_t in[] = {0xDE, 0xC0, 0xAD, 0xDE};
    sv_bitreader r;
    sv__core_br_init(&r, in, sizeof in, "kingsisle", NULL);
    assert_int_equal(sv__core_br_read(&r, 16), 0xC0DE);
    assert_int_equal(sv__core_br_read(&r, 8), 0xAD);
    assert_int_equal(sv__core_br_read(&r, 8), 0xDE);
    assert_int_equal(sv__core_br_remaining(&r), 0);
}

static void test_spec_writer_example(void **state)
{
    (void)state;
    /* writing 0xFF (8 bits), 0xDEAD (16), 0xFF (8) gives FF AD DE FF */
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_bitwriter w;
    sv__core_bw_init(&w, &b);
    sv__core_bw_write(&w, 0xFF, 8);
    sv__core_bw_write(&w, 0xDEAD, 16);
    sv__core_bw_write(&w, 0xFF, 8);
    sv__core_bw_flush(&w);
    assert_int_equal(b.len, 4);
    assert_memory_equal(b.data, "\xFF\xAD\xDE\xFF", 4);
    sv_buf_free(&b);
}

static void test_bit_order_and_signed(void **state)
{
    (void)state;
    /* bit k is (buf[k>>3] >> (k&7)) & 1: 0b10110101 read 1,2,5 bits */
    const uint8_t in[] = {0xB5, 0x02};
    sv_bitreader r;
    sv__core_br_init(&r, in, sizeof in, "t", NULL);
    assert_int_equal(sv__core_br_read(&r, 1), 1);        /* bit 0 */
    assert_int_equal(sv__core_br_read(&r, 2), 0x2);      /* bits 1..2 = 0,1 -> 0b10 */
    assert_int_equal(sv__core_br_read(&r, 5), 0x16);     /* bits 3..7 = 0,1,1,0,1 -> 0b10110 */
    /* bi2 raw 0b10 is -2 (spec §3) */
    assert_int_equal(sv__core_br_read_signed(&r, 2), -2);
    assert_int_equal(sv__core_br_byte_offset(&r), 1);
    assert_int_equal(sv__core_br_bit_offset(&r), 2);
    /* align skips the 6 remaining bits of byte 1 and returns them */
    assert_int_equal(sv__core_br_align(&r), 0);
    assert_int_equal(sv__core_br_remaining(&r), 0);
}

static void test_wide_fields_across_bytes(void **state)
{
    (void)state;
    uint8_t in[16];
    for (int i = 0; i < 16; i++) in[i] = (uint8_t)(0x11 * (i + 1));
    sv_bitreader r;
    sv__core_br_init(&r, in, sizeof in, "t", NULL);
    assert_int_equal(sv__core_br_read(&r, 3), 0x11 & 7);
    /* a 64-bit field at bit 3 spans 9 bytes */
    uint64_t expect = 0;
    for (int k = 0; k < 64; k++) {
        int bit = 3 + k;
        expect |= (uint64_t)((in[bit >> 3] >> (bit & 7)) & 1) << k;
    }
    assert_true(sv__core_br_read(&r, 64) == expect);
    /* writer round trip of odd widths */
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_bitwriter w;
    sv__core_bw_init(&w, &b);
    sv__core_bw_write(&w, 5, 3);
    sv__core_bw_write(&w, expect, 64);
    sv__core_bw_write(&w, 0x7F, 7);
    sv__core_bw_align(&w, 0);
    sv__core_bw_write(&w, 0xABCD, 16);
    sv__core_bw_flush(&w);
    sv__core_br_init(&r, b.data, b.len, "t", NULL);
    assert_int_equal(sv__core_br_read(&r, 3), 5);
    assert_true(sv__core_br_read(&r, 64) == expect);
    assert_int_equal(sv__core_br_read(&r, 7), 0x7F);
    sv__core_br_align(&r);
    assert_int_equal(sv__core_br_read(&r, 16), 0xABCD);
    assert_int_equal(sv__core_br_remaining(&r), 0);
    sv_buf_free(&b);
}

static void test_truncation_reports_bit(void **state)
{
    (void)state;
    const uint8_t in[] = {0xFF, 0x01};
    sv_error e;
    sv_error_clear(&e);
    sv_bitreader r;
    sv__core_br_init(&r, in, sizeof in, "kingsisle", &e);
    sv__core_br_read(&r, 11);
    assert_int_equal(sv__core_br_read(&r, 7), 0); /* 5 bits left */
    assert_false(sv__core_br_ok(&r));
    assert_int_equal(e.status, SV_ERR_TRUNCATED);
    assert_int_equal(e.byte_offset, 1);
    assert_int_equal(e.bit_offset, 3);
    assert_string_equal(e.message, "7-bit field needs 7 bits, 5 left");
    assert_int_equal(sv__core_br_read(&r, 1), 0); /* sticky */
}

static void test_align_keeps_padding_bits(void **state)
{
    (void)state;
    /* spec §3: padding contents are undefined (0x30 in delta-encode-present.bin);
     * align returns them so a lossless writer can put them back */
    const uint8_t in[] = {0x31};
    sv_bitreader r;
    sv__core_br_init(&r, in, 1, "t", NULL);
    assert_int_equal(sv__core_br_read(&r, 1), 1);
    unsigned pad = sv__core_br_align(&r);
    assert_int_equal(pad, 0x30 >> 1);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_bitwriter w;
    sv__core_bw_init(&w, &b);
    sv__core_bw_write(&w, 1, 1);
    sv__core_bw_align(&w, pad);
    assert_int_equal(b.len, 1);
    assert_int_equal(b.data[0], 0x31);
    sv_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_reader_example),
        cmocka_unit_test(test_spec_writer_example),
        cmocka_unit_test(test_bit_order_and_signed),
        cmocka_unit_test(test_wide_fields_across_bytes),
        cmocka_unit_test(test_truncation_reports_bit),
        cmocka_unit_test(test_align_keeps_padding_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
