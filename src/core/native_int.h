/* Integers of a C struct's member as the compiler lays them out: width 1,
 * 2, 4 or 8 bytes, host byte order, at any alignment (memcpy). Shared by the
 * schema's struct binding and O3DE's struct load and store, which read and
 * write bound C structs member by member. */
#ifndef SERVAL_CORE_NATIVE_INT_H
#define SERVAL_CORE_NATIVE_INT_H

#include <stdint.h>
#include <string.h>

/* The unsigned integer of width w at p (w other than 1, 2, 4: 8). */
static inline uint64_t sv__core_native_uint(const uint8_t *p, int w)
{
    switch (w) {
    case 1: return *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

/* The signed integer of width w at p, sign-extended. */
static inline int64_t sv__core_native_int(const uint8_t *p, int w)
{
    switch (w) {
    case 1: return (int8_t)*p;
    case 2: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

/* Stores the low w bytes of bits at p (two's complement for signed values). */
static inline void sv__core_native_store(uint8_t *p, int w, uint64_t bits)
{
    switch (w) {
    case 1: *p = (uint8_t)bits; break;
    case 2: {
        uint16_t v = (uint16_t)bits;
        memcpy(p, &v, 2);
        break;
    }
    case 4: {
        uint32_t v = (uint32_t)bits;
        memcpy(p, &v, 4);
        break;
    }
    default: memcpy(p, &bits, 8); break;
    }
}

#endif
