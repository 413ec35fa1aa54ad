/* Compiler and host facts every module shares (internal): branch hints,
 * inlining, the host's byte order, and unaligned loads and stores.
 *
 * Loads and stores go through memcpy, which compilers turn into one move
 * on hosts that allow unaligned access, and which is defined behaviour
 * everywhere (a cast pointer would not be). The _le forms give
 * little-endian order on every host; the plain forms the host's own. */
#ifndef SV_CORE_COMPILER_H
#define SV_CORE_COMPILER_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define SV_LIKELY(x) __builtin_expect(!!(x), 1)
#define SV_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* for functions: `static SV_ALWAYS_INLINE int f(void)` */
#define SV_ALWAYS_INLINE inline __attribute__((always_inline))
#define SV_NOINLINE __attribute__((noinline))
#define SV_COLD __attribute__((noinline, cold))
#define SV_MAYBE_UNUSED __attribute__((unused))
#define SV_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
/* Asks for the cache line at address a, to read or to write soon: a hint,
 * which never faults whatever the address (so it may name bytes past an
 * input or a buffer). */
#define SV_PREFETCH_READ(a) __builtin_prefetch((const void *)(a), 0, 3)
#define SV_PREFETCH_WRITE(a) __builtin_prefetch((const void *)(a), 1, 3)
#else
#define SV_LIKELY(x) (x)
#define SV_UNLIKELY(x) (x)
#define SV_ALWAYS_INLINE inline
#define SV_NOINLINE
#define SV_COLD
#define SV_MAYBE_UNUSED
#define SV_PRINTF(fmt, args)
#define SV_PREFETCH_READ(a) ((void)(a))
#define SV_PREFETCH_WRITE(a) ((void)(a))
#endif

/* The host's byte order; a host that says neither is taken as big-endian,
 * so that code for little-endian hosts only runs where it is known true. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SV_LITTLE_ENDIAN 1
#else
#define SV_LITTLE_ENDIAN 0
#endif

/* Word-at-a-time (SWAR) code: little-endian words and __builtin_ctzll. */
#if SV_LITTLE_ENDIAN && (defined(__GNUC__) || defined(__clang__))
#define SV_SWAR 1
#else
#define SV_SWAR 0
#endif

static inline uint64_t sv__core_bswap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    v = (v >> 32) | (v << 32);
    v = ((v & UINT64_C(0xFFFF0000FFFF0000)) >> 16) | ((v & UINT64_C(0x0000FFFF0000FFFF)) << 16);
    return ((v & UINT64_C(0xFF00FF00FF00FF00)) >> 8) | ((v & UINT64_C(0x00FF00FF00FF00FF)) << 8);
#endif
}

static inline uint32_t sv__core_bswap32(uint32_t v)
{
    return (uint32_t)(sv__core_bswap64(v) >> 32);
}

/* 8 or 4 bytes at p in the host's order. */
static inline uint64_t sv__core_load64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t sv__core_load32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* 8 bytes at p as a little-endian number (byte 0 lowest) on any host. */
static inline uint64_t sv__core_load64le(const void *p)
{
    uint64_t v = sv__core_load64(p);
    return SV_LITTLE_ENDIAN ? v : sv__core_bswap64(v);
}

/* Stores so that the lowest byte of v lands at p, on any host. */
static inline void sv__core_store64le(void *p, uint64_t v)
{
    if (!SV_LITTLE_ENDIAN) v = sv__core_bswap64(v);
    memcpy(p, &v, 8);
}

static inline void sv__core_store32le(void *p, uint32_t v)
{
    if (!SV_LITTLE_ENDIAN) v = sv__core_bswap32(v);
    memcpy(p, &v, 4);
}

#endif
