/* The key cache of the readers (internal): a small two-way table in front of
 * the document's intern table (sv_str_intern), since documents repeat a few
 * keys many times (every Resonite slot has "ID" and "Data", every JSON
 * entity an "id"). The typed JSON reader and the BSON reader both use it;
 * the JSON reader keeps its key predictions in a table of its own indexed
 * like this one.
 *
 * A key is known by two words and its length: for keys of up to 16 bytes,
 * a and b are its bytes (zero padded), so a hit costs three compares and
 * never touches the string; longer keys keep their first and last 8 bytes
 * there and are compared in full. A key goes to slot h or h ^ 1 (h its
 * hash): two hot keys that share a slot ("Tag" and "OrderOffset" in every
 * Resonite slot) would otherwise evict each other. */
#ifndef SV_CORE_KEY_CACHE_H
#define SV_CORE_KEY_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"

typedef struct sv_key_slot {
    uint64_t a, b;
    const char *str; /* the document's interned copy; NULL: empty */
    uint32_t len;    /* UINT32_MAX: empty (matches no key) */
} sv_key_slot;

/* count slots, all empty. */
static inline void sv__core_key_cache_init(sv_key_slot *slots, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        slots[i].a = slots[i].b = UINT64_MAX;
        slots[i].str = NULL;
        slots[i].len = UINT32_MAX;
    }
}

/* The first n bytes of the little-endian word w (all of it when n >= 8). */
static inline uint64_t sv__core_key_keep(uint64_t w, size_t n)
{
    return n >= 8 ? w : w & ((UINT64_C(1) << (8 * n)) - 1);
}

/* The words of the key of n bytes at s. wide: 16 bytes at s may be read
 * (the key's own and what follows it in the input), so short keys take
 * whole loads; else they are read a byte at a time. */
static SV_ALWAYS_INLINE void sv__core_key_words(const uint8_t *s, size_t n, bool wide, uint64_t *a,
                                                uint64_t *b)
{
    if (n > 16) {
        *a = sv__core_load64le(s);
        *b = sv__core_load64le(s + n - 8);
    } else if (wide) {
        *a = sv__core_key_keep(sv__core_load64le(s), n);
        *b = n > 8 ? sv__core_key_keep(sv__core_load64le(s + 8), n - 8) : 0;
    } else {
        uint64_t w[2] = {0, 0};
        for (size_t i = 0; i < n; i++) w[i >> 3] |= (uint64_t)s[i] << (8 * (i & 7));
        *a = w[0];
        *b = w[1];
    }
}

/* The home slot of a key, for a table of mask + 1 slots (a power of two). */
static inline uint32_t sv__core_key_hash(uint64_t a, uint64_t b, size_t n, uint32_t mask)
{
    uint64_t h = (a * UINT64_C(0x9E3779B97F4A7C15)) ^ (b * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ n;
    return (uint32_t)(h >> 40) & mask;
}

/* x[0..n) == y[0..n), a word at a time (n >= 8: the tail overlaps). */
static SV_ALWAYS_INLINE bool sv__core_key_same_bytes(const uint8_t *x, const uint8_t *y, size_t n)
{
    if (n < 8) return memcmp(x, y, n) == 0;
    uint64_t diff = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) diff |= sv__core_load64(x + i) ^ sv__core_load64(y + i);
    return (diff | (sv__core_load64(x + n - 8) ^ sv__core_load64(y + n - 8))) == 0;
}

/* The slot holding a key of n <= 16 bytes (known by its words alone), or
 * NULL. */
static SV_ALWAYS_INLINE sv_key_slot *sv__core_key_find_short(sv_key_slot *slots, uint32_t h,
                                                             uint64_t a, uint64_t b, size_t n)
{
    sv_key_slot *x = &slots[h];
    if (x->a == a && x->b == b && x->len == n) return x;
    x = &slots[h ^ 1];
    if (x->a == a && x->b == b && x->len == n) return x;
    return NULL;
}

/* The slot holding the key s[0..n), or NULL. */
static SV_ALWAYS_INLINE sv_key_slot *sv__core_key_find(sv_key_slot *slots, uint32_t h, uint64_t a,
                                                       uint64_t b, const uint8_t *s, size_t n)
{
    if (n <= 16) return sv__core_key_find_short(slots, h, a, b, n);
    for (uint32_t way = 0; way < 2; way++) {
        sv_key_slot *x = &slots[h ^ way];
        if (x->a == a && x->b == b && x->len == n && x->str &&
            sv__core_key_same_bytes((const uint8_t *)x->str, s, n))
            return x;
    }
    return NULL;
}

/* Records a key that was not found (str: its interned copy) and returns its
 * slot: the home slot while it is empty, else the other way. */
static inline sv_key_slot *sv__core_key_put(sv_key_slot *slots, uint32_t h, uint64_t a, uint64_t b,
                                            const char *str, size_t n)
{
    sv_key_slot *x = slots[h].str ? &slots[h ^ 1] : &slots[h];
    x->a = a;
    x->b = b;
    x->str = str;
    x->len = (uint32_t)n;
    return x;
}

#endif
