/* Base64 (RFC 4648 §4): the §10 test vectors, the alphabet's last two
 * characters, and strict decoding (bad characters, bad padding, non-zero
 * trailing bits per §3.5) with the offset of the offending character. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/base64.h"

static void check_encode(const char *in, size_t n, const char *expected)
{
    char out[64];
    assert_int_equal(sv__core_base64_encoded_len(n), strlen(expected));
    memset(out, '#', sizeof out);
    sv__core_base64_encode((const uint8_t *)in, n, out);
    assert_memory_equal(out, expected, strlen(expected));
    assert_int_equal(out[strlen(expected)], '#'); /* nothing written past the end */
}

static void check_decode(const char *in, const char *expected, size_t n)
{
    uint8_t out[64];
    size_t out_len = 999, pos = 999;
    assert_true(sv__core_base64_decode(in, strlen(in), out, &out_len, &pos));
    assert_int_equal(out_len, n);
    if (n) assert_memory_equal(out, expected, n);
    assert_int_equal(pos, 999); /* untouched on success */
}

static void check_reject(const char *in, size_t expected_pos)
{
    uint8_t out[64];
    size_t out_len, pos = 999;
    assert_false(sv__core_base64_decode(in, strlen(in), out, &out_len, &pos));
    assert_int_equal(pos, expected_pos);
}

/* RFC 4648 §10 */
static void test_rfc4648_vectors(void **state)
{
    (void)state;
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const coded[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                                        "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        check_encode(plain[i], strlen(plain[i]), coded[i]);
        check_decode(coded[i], plain[i], strlen(plain[i]));
    }
}

static void test_alphabet_edges(void **state)
{
    (void)state;
    /* docs/json.md's example: 00 01 02 ff */
    check_encode("\x00\x01\x02\xff", 4, "AAEC/w==");
    check_decode("AAEC/w==", "\x00\x01\x02\xff", 4);
    /* 0xfb 0xff = 111110 111111 1111(00): '+', '/', '8' */
    check_encode("\xfb\xff", 2, "+/8=");
    check_decode("+/8=", "\xfb\xff", 2);
    check_encode("\xff\xff\xff", 3, "////");
    check_encode("\x00\x00\x00", 3, "AAAA");
    check_decode("AAAA", "\x00\x00\x00", 3);
    check_encode("\xf8\x00\x00", 3, "+AAA"); /* 111110 -> 62 = '+' */
}

static void test_all_bytes_round_trip(void **state)
{
    (void)state;
    uint8_t in[256], back[256 + 3];
    char text[344 + 4];
    for (int i = 0; i < 256; i++)
        in[i] = (uint8_t)i;
    for (size_t n = 0; n <= 256; n++) {
        size_t len = sv__core_base64_encoded_len(n);
        assert_int_equal(len, (n + 2) / 3 * 4);
        sv__core_base64_encode(in, n, text);
        size_t out_len, pos;
        assert_true(sv__core_base64_decode(text, len, back, &out_len, &pos));
        assert_int_equal(out_len, n);
        if (n) assert_memory_equal(back, in, n);
    }
}

static void test_rejects_bad_characters(void **state)
{
    (void)state;
    check_reject("Zm 9", 2);
    check_reject("Zm9v\n", 4);   /* '\n' is not in the alphabet */
    check_reject("Zm9vYm-y", 6); /* URL-safe alphabet is not base64 */
    check_reject("Zm9vYm_y", 6);
    check_reject("Z\x80==", 1);
    check_reject("AAAA\xff"
                 "AAA",
                 4);
    check_reject("Zm9v*mFy", 4);
    /* a NUL inside the text is a bad character like any other */
    uint8_t out[16];
    size_t out_len, pos = 999;
    assert_false(sv__core_base64_decode("QUJD\0QUJD", 9, out, &out_len, &pos));
    assert_int_equal(pos, 4);
    assert_false(sv__core_base64_decode("QUJDQUJD\0", 9, out, &out_len, &pos));
    assert_int_equal(pos, 8);
}

static void test_rejects_bad_padding(void **state)
{
    (void)state;
    check_reject("Zg", 2); /* padding missing: length not a multiple of 4 */
    check_reject("Zg=", 3);
    check_reject("Zm9vY", 5);
    check_reject("====", 0);
    check_reject("Z===", 1);
    check_reject("Zg=a", 3);     /* '=' must be followed by '=' */
    check_reject("Zg==Zg==", 2); /* padding only at the very end */
    check_reject("Zm8=Zm8=", 3);
    check_reject("Zm9vYmFy====", 8);
    check_reject("=Zm9", 0);
}

static void test_rejects_trailing_bits(void **state)
{
    (void)state;
    /* "Zg==" is 'f'; 'h' = 33 = 100001 leaves a 1 in the 4 unused bits */
    check_reject("Zh==", 1);
    check_reject("Zm9=", 2); /* '9' = 61 = 111101: unused bits 01 */
    check_reject("Zm/=", 2);
    check_decode("Zm8=", "fo", 2);
    check_decode("Zg==", "f", 1);
}

static void test_decode_sizes(void **state)
{
    (void)state;
    /* out needs len / 4 * 3 bytes even when padding makes the result smaller */
    uint8_t out[3] = {0xAA, 0xAA, 0xAA};
    size_t out_len;
    assert_true(sv__core_base64_decode("Zg==", 4, out, &out_len, NULL));
    assert_int_equal(out_len, 1);
    assert_int_equal(out[0], 'f');
    assert_true(sv__core_base64_decode("", 0, NULL, &out_len, NULL));
    assert_int_equal(out_len, 0);
    assert_false(sv__core_base64_decode("Zg", 2, out, &out_len, NULL)); /* err_pos may be NULL */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc4648_vectors),      cmocka_unit_test(test_alphabet_edges),
        cmocka_unit_test(test_all_bytes_round_trip), cmocka_unit_test(test_rejects_bad_characters),
        cmocka_unit_test(test_rejects_bad_padding),  cmocka_unit_test(test_rejects_trailing_bits),
        cmocka_unit_test(test_decode_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
