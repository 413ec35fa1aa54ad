/* FastLZ 0.5.0 block format (block_codecs.h), written from its format
 * description: Godot 3.x and 4.x compress FileAccessCompressed blocks with
 * it (mode 0), and Debian has no FastLZ library.
 *
 * A block is a series of instructions, each starting with a control byte:
 *  - ctrl < 32: a literal run of ctrl + 1 bytes that follow;
 *  - else a match: length code L = ctrl >> 5 (7 means "more in the next
 *    byte(s)"), copied len = L + 2 bytes from distance
 *    ((ctrl & 31) << 8 | next byte) + 1 back. Level 2 continues L with
 *    bytes while they are 255, and a distance byte 255 with the high bits
 *    all ones means a 16-bit far distance follows (+ 8191).
 * The first byte's top 3 bits give the level - 1 (its control part is a
 * literal run, whose count uses only the low 5 bits).
 *
 * The compressor is level 1, the one Godot uses for every block under
 * 64 KiB: its output must be FastLZ's own byte for byte, so the match
 * search (hash of 13 bits over 3 bytes, table seeded with the input's
 * start, greedy matching) follows the 0.5.0 algorithm step by step. */
#include <stddef.h>
#include <string.h>

#include "compress/block_codecs.h"

#define FLZ_MAX_COPY 32
#define FLZ_MAX_LEN 264
#define FLZ_MAX_DISTANCE 8192
#define FLZ_HASH_LOG 13
#define FLZ_HASH_SIZE (1u << FLZ_HASH_LOG)

bool sv__compress_fastlz_decompress(const uint8_t *in, size_t len, uint8_t *dst, size_t cap,
                                    size_t *produced)
{
    if (len == 0) return false;
    unsigned level = (in[0] >> 5) + 1;
    if (level != 1 && level != 2) return false;
    size_t ip = 0, op = 0;
    uint32_t ctrl = in[ip++] & 31;
    for (;;) {
        if (ctrl >= 32) {
            size_t n = (ctrl >> 5) - 1;
            size_t dist = (ctrl & 31) << 8;
            if (n == 6) {
                if (level == 1) {
                    if (ip >= len) return false;
                    n += in[ip++];
                } else {
                    uint8_t code;
                    do {
                        if (ip >= len) return false;
                        code = in[ip++];
                        n += code;
                    } while (code == 255);
                }
            }
            if (ip >= len) return false;
            uint8_t code = in[ip++];
            dist += code;
            if (level == 2 && code == 255 && dist == (31u << 8) + 255) {
                if (len - ip < 2) return false;
                dist = ((size_t)in[ip] << 8 | in[ip + 1]) + 8191;
                ip += 2;
            }
            dist += 1;
            n += 3;
            if (dist > op || n > cap - op) return false;
            for (size_t k = 0; k < n; k++, op++) dst[op] = dst[op - dist];
        } else {
            size_t n = ctrl + 1;
            if (n > cap - op || n > len - ip) return false;
            memcpy(dst + op, in + ip, n);
            op += n;
            ip += n;
        }
        if (ip >= len) break;
        ctrl = in[ip++];
    }
    *produced = op;
    return true;
}

static uint32_t flz_hash(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
    v ^= ((uint32_t)p[1] | (uint32_t)p[2] << 8) ^ (v >> (16 - FLZ_HASH_LOG));
    return v & (FLZ_HASH_SIZE - 1);
}

bool sv__compress_fastlz1_compress(const uint8_t *in, size_t length, sv_buf *out)
{
    /* the worst case is 1 control byte per 32 literals */
    if (length >= 65536 || sv_buf_ensure(out, length + length / 32 + 16) != SV_OK) return false;
    uint8_t *const o0 = out->data + out->len;
    uint8_t *op = o0;
    if (length < 4) {
        if (length) {
            *op++ = (uint8_t)(length - 1);
            memcpy(op, in, length);
            op += length;
        }
        out->len += (size_t)(op - o0);
        return true;
    }
    /* positions, not pointers: the limits may lie before the input */
    size_t ip = 0;
    const size_t ip_bound = length - 2;
    const size_t ip_limit = length < 12 ? 0 : length - 12;
    uint32_t htab[FLZ_HASH_SIZE];
    memset(htab, 0, sizeof htab); /* every slot points at the input's start */
    size_t copy = 2;
    *op++ = FLZ_MAX_COPY - 1;
    *op++ = in[ip++];
    *op++ = in[ip++];
    while (ip < ip_limit) {
        size_t anchor = ip;
        uint32_t hval = flz_hash(in + ip);
        size_t ref = htab[hval];
        size_t distance = anchor - ref;
        htab[hval] = (uint32_t)anchor;
        if (distance == 0 || distance >= FLZ_MAX_DISTANCE || in[ref] != in[ip] ||
            in[ref + 1] != in[ip + 1] || in[ref + 2] != in[ip + 2]) {
            /* a literal byte */
            *op++ = in[anchor++];
            ip = anchor;
            copy++;
            if (copy == FLZ_MAX_COPY) {
                copy = 0;
                *op++ = FLZ_MAX_COPY - 1;
            }
            continue;
        }
        ref += 3;
        ip = anchor + 3;
        distance--; /* biased */
        if (!distance) {
            /* a run of the byte before */
            uint8_t x = in[ip - 1];
            while (ip < ip_bound) {
                if (in[ref++] != x) break;
                ip++;
            }
        } else {
            /* the first 8 compares need no bound: ip is 12 before the end */
            int k;
            for (k = 0; k < 8; k++)
                if (in[ref++] != in[ip++]) break;
            if (k == 8)
                while (ip < ip_bound)
                    if (in[ref++] != in[ip++]) break;
        }
        if (copy)
            op[-(ptrdiff_t)copy - 1] = (uint8_t)(copy - 1);
        else
            op--; /* the literal count written in advance */
        copy = 0;
        ip -= 3;
        size_t len = ip - anchor;
        while (len > FLZ_MAX_LEN - 2) {
            *op++ = (uint8_t)((7 << 5) + (distance >> 8));
            *op++ = FLZ_MAX_LEN - 2 - 7 - 2;
            *op++ = (uint8_t)(distance & 255);
            len -= FLZ_MAX_LEN - 2;
        }
        if (len < 7) {
            *op++ = (uint8_t)((len << 5) + (distance >> 8));
            *op++ = (uint8_t)(distance & 255);
        } else {
            *op++ = (uint8_t)((7 << 5) + (distance >> 8));
            *op++ = (uint8_t)(len - 7);
            *op++ = (uint8_t)(distance & 255);
        }
        htab[flz_hash(in + ip)] = (uint32_t)ip;
        ip++;
        htab[flz_hash(in + ip)] = (uint32_t)ip;
        ip++;
        *op++ = FLZ_MAX_COPY - 1;
    }
    /* the rest as literals */
    while (ip <= ip_bound + 1) {
        *op++ = in[ip++];
        copy++;
        if (copy == FLZ_MAX_COPY) {
            copy = 0;
            *op++ = FLZ_MAX_COPY - 1;
        }
    }
    if (copy)
        op[-(ptrdiff_t)copy - 1] = (uint8_t)(copy - 1);
    else
        op--;
    out->len += (size_t)(op - o0);
    return true;
}
