/* Resonite's check without a tree (sv_resonite_validate) on payloads large
 * enough for the second Brotli thread and for the checker's reuse of the
 * payload's memory: it accepts what the decoder accepts and, where a
 * failure is found with reuse and reported again without it, gives the
 * decoder's error, path included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_validate.h"
#include "serval/serval.h"

/* A BSON document of about size bytes: {"Children": [{"ID": "...", "Data":
 * "...", "On": true}, ...]}, written by hand so a test can aim a corruption
 * at a known byte. *bool_at is the offset of the last child's bool byte. */
static uint8_t *big_bson(size_t size, size_t *len, size_t *bool_at)
{
    const size_t child = 4 + (1 + 3 + 4 + 9) + (1 + 5 + 4 + 41) + (1 + 3 + 1) + 1;
    size_t n = size / (child + 8) + 1;
    uint8_t *b = malloc(size + child * 2 + 64);
    assert_non_null(b);
    size_t p = 4;
    b[p++] = 0x04;
    memcpy(b + p, "Children", 9);
    p += 9;
    size_t arr = p;
    p += 4;
    for (size_t i = 0; i < n; i++) {
        char key[24];
        int kl = snprintf(key, sizeof key, "%zu", i);
        b[p++] = 0x03;
        memcpy(b + p, key, (size_t)kl + 1);
        p += (size_t)kl + 1;
        size_t start = p;
        p += 4;
        b[p++] = 0x02;
        memcpy(b + p, "ID", 3);
        p += 3;
        b[p] = 9, b[p + 1] = b[p + 2] = b[p + 3] = 0;
        p += 4;
        /* an ID of exactly 8 hex digits (the string's 9 bytes), unique while
         * n stays below 2^32 */
        snprintf((char *)b + p, 9, "%08x", (unsigned)(i & 0xffffffffu));
        p += 9;
        b[p++] = 0x02;
        memcpy(b + p, "Data", 5);
        p += 5;
        b[p] = 41, b[p + 1] = b[p + 2] = b[p + 3] = 0;
        p += 4;
        memset(b + p, 'x', 40);
        b[p + 40] = 0;
        p += 41;
        b[p++] = 0x08;
        memcpy(b + p, "On", 3);
        p += 3;
        *bool_at = p;
        b[p++] = 1;
        b[p++] = 0;
        uint32_t cl = (uint32_t)(p - start);
        memcpy(b + start, &cl, 4); /* little-endian hosts only run this */
    }
    b[p++] = 0;
    uint32_t al = (uint32_t)(p - arr);
    memcpy(b + arr, &al, 4);
    b[p++] = 0;
    uint32_t dl = (uint32_t)p;
    memcpy(b, &dl, 4);
    *len = p;
    return b;
}

/* A 24 MB payload through the Brotli pipeline with the thread: accepted
 * alike; then with a bad bool at its end (found with memory reuse, then
 * reported again without it) and with a payload cut short: the same error
 * as the decoder's, path included. */
static void test_large_brotli_payload(void **state)
{
    (void)state;
    const sv_format *f = sv_format_find("resonite");
    if (!f) {
        skip();
        return;
    }
    const uint16_t one = 1;
    if (*(const uint8_t *)&one != 1) {
        skip(); /* the hand-written BSON above is little-endian */
        return;
    }
    size_t len = 0, bool_at = 0;
    uint8_t *bson = big_bson((size_t)24 << 20, &len, &bool_at);
    sv_options sets[2];
    size_t nsets = validate_option_sets(f, sets);
    assert_int_equal(nsets, 2);
    size_t accepted = 0, refused = 0;
    for (int variant = 0; variant < 3; variant++) {
        if (variant == 1) bson[bool_at] = 2; /* a bool must be 00 or 01 */
        sv_resonite_container c = {SV_RESONITE_FRAMING_LEGACY, SV_RESONITE_BROTLI};
        sv_resonite_opts ro;
        sv_resonite_opts_init(&ro);
        ro.brotli_quality = 1;
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_resonite_wrap(bson, len, &c, &ro, &out, &err), SV_OK);
        size_t n = variant == 2 ? out.len - 16 : out.len;
        for (size_t s = 0; s < nsets; s++)
            validate_same(f, out.data, n, &sets[s], "large payload", &accepted, &refused);
        sv_buf_free(&out);
    }
    free(bson);
    assert_int_equal(accepted, 2);
    assert_int_equal(refused, 4);
}

/* The bad bool's error names its place exactly, with the thread and memory
 * reuse too: the path of the last child and the byte in the payload. */
static void test_large_payload_error_path(void **state)
{
    (void)state;
    const sv_format *f = sv_format_find("resonite");
    const uint16_t one = 1;
    if (!f || *(const uint8_t *)&one != 1) {
        skip();
        return;
    }
    size_t len = 0, bool_at = 0;
    uint8_t *bson = big_bson((size_t)8 << 20, &len, &bool_at);
    bson[bool_at] = 7;
    sv_resonite_container c = {SV_RESONITE_FRAMING_LEGACY, SV_RESONITE_BROTLI};
    sv_resonite_opts ro;
    sv_resonite_opts_init(&ro);
    ro.brotli_quality = 1;
    ro.threads = 1;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_resonite_wrap(bson, len, &c, &ro, &out, &err), SV_OK);
    sv_error_clear(&err);
    assert_int_equal(sv_resonite_validate(out.data, out.len, &ro, &err), SV_ERR_SYNTAX);
    /* children are numbered from 0: the last one's index is their count - 1 */
    size_t children = 0;
    for (size_t p = 0; p + 3 < len; p++)
        if (bson[p] == 0x08 && memcmp(bson + p + 1, "On", 3) == 0) children++;
    char want[64];
    snprintf(want, sizeof want, "/Children/%zu/On", children - 1);
    assert_string_equal(err.path, want);
    assert_int_equal(err.byte_offset, bool_at);
    assert_string_equal(err.format, "resonite");
    sv_buf_free(&out);
    free(bson);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_brotli_payload),
        cmocka_unit_test(test_large_payload_error_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
