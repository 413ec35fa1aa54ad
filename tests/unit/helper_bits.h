/* Test helpers shared by the number tests: a fixed-seed generator and
 * float <-> bits conversions. */
#ifndef SV_TEST_HELPER_BITS_H
#define SV_TEST_HELPER_BITS_H

#include <stdint.h>
#include <string.h>

/* Each test program gets its own state, starting at the same seed, so every
 * run tests the same values. */
static uint64_t rng_state = UINT64_C(0x5eed5eed12345678);

/* splitmix64 */
static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline double f64_from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static inline float f32_from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

#endif
