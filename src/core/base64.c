/* Standard base64 with padding (RFC 4648 §4), strict decoding (§3.3, §3.5). */
#include "core/base64.h"

#include <string.h>

/* 6-bit value of each alphabet character; 0xFF for everything else ('='
 * included: padding is handled by position, never by the table). */
/* clang-format off */
static const uint8_t b64_value[256] = {
#define R16 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
    R16, R16,
    /* 0x20 - 0x2F: '+' = 62, '/' = 63 */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 62, 0xFF, 0xFF, 0xFF, 63,
    /* 0x30 - 0x3F: '0'..'9' = 52..61 */
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    /* 0x40 - 0x5F: 'A'..'Z' = 0..25 */
    0xFF, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    /* 0x60 - 0x7F: 'a'..'z' = 26..51 */
    0xFF, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    /* 0x80 - 0xFF */
    R16, R16, R16, R16, R16, R16, R16, R16
#undef R16
};
/* clang-format on */

size_t sv__core_base64_encoded_len(size_t n)
{
    return (n / 3 + (n % 3 != 0)) * 4;
}

/* The encoder writes two characters per 12 input bits, from a table of the
 * 4096 character pairs built by the preprocessor: two loads and two stores
 * per 3 bytes (the typed JSON writes every bytes value through it). */
#define B64(v)                                                                                     \
    ((v) < 26    ? 'A' + (v)                                                                       \
     : (v) < 52  ? 'a' + (v)-26                                                                    \
     : (v) < 62  ? '0' + (v)-52                                                                    \
     : (v) == 62 ? '+'                                                                             \
                 : '/')
#define B64_PAIR(i) B64((i) >> 6), B64((i)&63)
#define B64_4(i) B64_PAIR(i), B64_PAIR((i) + 1), B64_PAIR((i) + 2), B64_PAIR((i) + 3)
#define B64_16(i) B64_4(i), B64_4((i) + 4), B64_4((i) + 8), B64_4((i) + 12)
#define B64_64(i) B64_16(i), B64_16((i) + 16), B64_16((i) + 32), B64_16((i) + 48)
#define B64_256(i) B64_64(i), B64_64((i) + 64), B64_64((i) + 128), B64_64((i) + 192)
#define B64_1024(i) B64_256(i), B64_256((i) + 256), B64_256((i) + 512), B64_256((i) + 768)
static const char b64_pairs[2 * 4096] = {B64_1024(0), B64_1024(1024), B64_1024(2048),
                                         B64_1024(3072)};
#undef B64_1024
#undef B64_256
#undef B64_64
#undef B64_16
#undef B64_4
#undef B64_PAIR
#undef B64

void sv__core_base64_encode(const uint8_t *in, size_t n, char *out)
{
    for (; n >= 3; n -= 3, in += 3, out += 4) {
        uint32_t x = (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
        memcpy(out, b64_pairs + 2 * (x >> 12), 2);
        memcpy(out + 2, b64_pairs + 2 * (x & 0xFFF), 2);
    }
    if (n) {
        /* one or two bytes left: two or three characters and '=' padding */
        uint32_t x = (uint32_t)in[0] << 16 | (n == 2 ? (uint32_t)in[1] << 8 : 0);
        memcpy(out, b64_pairs + 2 * (x >> 12), 2);
        out[2] = n == 2 ? b64_pairs[2 * (x & 0xFFF)] : '=';
        out[3] = '=';
    }
}

/* The offset in q[0..4) of the first character that is not in the alphabet. */
static size_t first_bad(const char *q)
{
    size_t i = 0;
    while (i < 4 && b64_value[(uint8_t)q[i]] != 0xFF) i++;
    return i;
}

static bool fail(size_t *err_pos, size_t pos)
{
    if (err_pos) *err_pos = pos;
    return false;
}

bool sv__core_base64_decode(const char *in, size_t len, uint8_t *out, size_t *out_len,
                            size_t *err_pos)
{
    const char *start = in;
    uint8_t *o = out;
    bool whole = len % 4 == 0;
    /* Quads that must hold four alphabet characters: all but a final one. */
    size_t full = whole && len ? len / 4 - 1 : len / 4;
    *out_len = 0;
    for (size_t qi = 0; qi < full; qi++, in += 4) {
        uint32_t a = b64_value[(uint8_t)in[0]], b = b64_value[(uint8_t)in[1]];
        uint32_t c = b64_value[(uint8_t)in[2]], d = b64_value[(uint8_t)in[3]];
        if ((a | b | c | d) & 0x80) /* only the invalid marker has bit 7 */
            return fail(err_pos, (size_t)(in - start) + first_bad(in));
        uint32_t w = a << 18 | b << 12 | c << 6 | d;
        o[0] = (uint8_t)(w >> 16);
        o[1] = (uint8_t)(w >> 8);
        o[2] = (uint8_t)w;
        o += 3;
    }
    if (!whole) {
        /* a stray character in the tail is named; else the text ends early */
        for (size_t i = full * 4; i < len; i++)
            if (b64_value[(uint8_t)start[i]] == 0xFF && start[i] != '=') return fail(err_pos, i);
        return fail(err_pos, len);
    }
    if (len == 0) return true;
    size_t base = (size_t)(in - start);
    /* The final quad: "xxxx", "xxx=" or "xx==" (RFC 4648 §4). */
    uint32_t a = b64_value[(uint8_t)in[0]], b = b64_value[(uint8_t)in[1]];
    uint32_t c = b64_value[(uint8_t)in[2]], d = b64_value[(uint8_t)in[3]];
    if (a == 0xFF) return fail(err_pos, base);
    if (b == 0xFF) return fail(err_pos, base + 1);
    if (c == 0xFF) {
        if (in[2] != '=') return fail(err_pos, base + 2);
        if (in[3] != '=') return fail(err_pos, base + 3);
        /* one byte: the low 4 bits of b are not part of the data (§3.5) */
        if (b & 0x0F) return fail(err_pos, base + 1);
        o[0] = (uint8_t)(a << 2 | b >> 4);
        o += 1;
    } else if (d == 0xFF) {
        if (in[3] != '=') return fail(err_pos, base + 3);
        /* two bytes: the low 2 bits of c are not part of the data */
        if (c & 0x03) return fail(err_pos, base + 2);
        uint32_t w = a << 18 | b << 12 | c << 6;
        o[0] = (uint8_t)(w >> 16);
        o[1] = (uint8_t)(w >> 8);
        o += 2;
    } else {
        uint32_t w = a << 18 | b << 12 | c << 6 | d;
        o[0] = (uint8_t)(w >> 16);
        o[1] = (uint8_t)(w >> 8);
        o[2] = (uint8_t)w;
        o += 3;
    }
    *out_len = (size_t)(o - out);
    return true;
}
