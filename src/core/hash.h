/* A fast non-cryptographic hash for short strings (intern tables, lookups).
 * Reads 8 bytes at a time and mixes with 64-bit multiplies; not for hostile
 * collision resistance beyond what a randomless table needs (the intern table
 * bounds its probe length and falls back to storing a duplicate). */
#ifndef SV_CORE_HASH_H
#define SV_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t sv__core_hash_mix(uint64_t a, uint64_t b)
{
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t sv__core_hash_bytes(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (len * 0xff51afd7ed558ccdull);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = sv__core_hash_mix(h ^ w, 0xa0761d6478bd642full);
        p += 8;
        len -= 8;
    }
    if (len) {
        uint64_t w = 0;
        memcpy(&w, p, len);
        h = sv__core_hash_mix(h ^ w, 0xe7037ed1a0b428dbull);
    }
    return sv__core_hash_mix(h, 0x8ebc6af09c88c6e3ull);
}

#endif
