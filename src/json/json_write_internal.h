/* The typed JSON writer's shared state and helpers (internal).
 *
 * The writer keeps a raw cursor (p, end) into the output sv_buf and writes
 * with plain stores: every emitter first asks sv__jw_need() for an upper
 * bound of what it is about to write, then stores without further checks.
 * The buffer's len is synchronised only when it has to grow and at the end. */
#ifndef SV_JSON_WRITE_INTERNAL_H
#define SV_JSON_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/value_internal.h"
#include "serval/json.h"

#define SV_JW_FORMAT "json"

/* Indentation lines are written 16 spaces at a time (whole chunks, so the
 * copy has a constant size); every reservation that precedes a newline
 * includes this much slack. */
#define SV_JW_NL_SLACK 16

/* Object keys repeat (every object of a class has the same field names, and
 * they are interned): the writer remembers the text of recent short keys by
 * the address of their bytes, which is stable while it runs. */
#define SV_JW_KEY_CACHE_BITS 6
#define SV_JW_KEY_CACHE (1 << SV_JW_KEY_CACHE_BITS)
#define SV_JW_KEY_TEXT 24
typedef struct sv_jw_key {
    const char *str; /* the key's bytes, NULL = empty slot */
    uint32_t len;
    uint32_t n; /* bytes of text: "key": and a space when pretty */
    uint8_t text[SV_JW_KEY_TEXT];
} sv_jw_key;

typedef struct sv_jw {
    uint8_t *p;   /* next byte to write */
    uint8_t *end; /* end of the reserved room (the buffer's capacity) */
    sv_buf *buf;
    sv_error *err;
    size_t indent;  /* spaces per level; 0 = compact */
    size_t ind;     /* indentation of the line the current value starts on */
    unsigned depth; /* containers open */
    bool pretty;
    bool plain;
    uint32_t key_mask, key_want; /* see object_key() in json_write.c */
    sv_jw_key keys[SV_JW_KEY_CACHE];
} sv_jw;

/* One row per tag (tags.h): the typed JSON opening of its form and what the
 * tag applies to. */
#define SV_JW_OPEN_MAX 24 /* the longest, {"$packed_vector4":, has 19 */
typedef struct sv_jw_tag {
    char open[SV_JW_OPEN_MAX]; /* {"$name":, copied whole (a constant-size copy) */
    uint8_t open_len;
    uint8_t kind;    /* sv_kind, SV_KIND_COUNT = any */
    uint8_t scalars; /* shapes: scalars per item */
    uint8_t elem;    /* shapes: default element type */
} sv_jw_tag;

extern const sv_jw_tag sv__jw_tags[SV_TAG_COUNT];

/* Slow path of sv__jw_need: grows the buffer (in large steps). On failure
 * records SV_ERR_NOMEM and returns false. */
bool sv__jw_grow(sv_jw *w, size_t n);

static inline bool sv__jw_need(sv_jw *w, size_t n)
{
    if ((size_t)(w->end - w->p) >= n) return true;
    return sv__jw_grow(w, n);
}

/* '\n' and ind spaces. Room: ind + 1 + SV_JW_NL_SLACK. */
static inline uint8_t *sv__jw_nl(uint8_t *p, size_t ind)
{
    *p++ = '\n';
    for (size_t k = 0; k < ind; k += 16)
        memcpy(p + k, "                ", 16);
    return p + ind;
}

/* ---- prefetching ---------------------------------------------------------- */

/* Asks for the memory behind a value ahead of its turn: a large tree does
 * not fit the caches, and without this each container and string costs a
 * wait for memory when the writer reaches it. */
#if defined(__GNUC__)
#define SV_JW_PREFETCH(addr) __builtin_prefetch(addr)
#else
#define SV_JW_PREFETCH(addr) ((void)0)
#endif
#define SV_JW_PREFETCH_AHEAD 8

static inline void sv__jw_prefetch(const sv_value *v)
{
    unsigned k = v->kind;
    if (k < SV_STRING || k > SV_PACKED) return;
    const char *p = v->as.data;
    if (!p) return;
    SV_JW_PREFETCH(p);
    if (k >= SV_ARRAY && k <= SV_OBJECT) {
        /* the header and the first items span several lines (up to 8) */
        size_t size = sizeof(sv_container) + (size_t)v->len * (k == SV_ARRAY ? 16 : 32);
        size_t end = size < 512 ? size : 512;
        for (size_t off = 64; off < end; off += 64)
            SV_JW_PREFETCH(p + off);
    }
}

/* For a container whose own memory was asked for earlier: asks for what its
 * first items point to (nested containers, strings, numbers). */
static inline void sv__jw_prefetch_items(const sv_value *v)
{
    unsigned k = v->kind;
    if (k < SV_ARRAY || k > SV_OBJECT || !v->as.box) return;
    /* (the container is not checked yet: stay within its room) */
    uint32_t n = v->len < v->as.box->cap ? v->len : v->as.box->cap;
    if (n > 16) n = 16;
    if (k == SV_ARRAY) {
        const sv_value *items = sv__items(v->as.box);
        for (uint32_t i = 0; i < n; i++)
            sv__jw_prefetch(&items[i]);
    } else {
        const sv_pair *pairs = sv__pairs(v->as.box);
        for (uint32_t i = 0; i < n; i++)
            sv__jw_prefetch(&pairs[i].val);
    }
}

/* String flags for sv__jw_string. */
enum {
    SV_JW_STR_WTF8 = 1,   /* lone surrogates allowed (written as \udXXX) */
    SV_JW_STR_DOLLAR = 2, /* a leading '$' is doubled (typed map keys) */
    SV_JW_STR_KEY = 4     /* followed by ':' (and a space when pretty) */
};

/* ---- strings: 8 bytes at a time ----------------------------------------- */

#define SV_JW_ONES UINT64_C(0x0101010101010101)
#define SV_JW_HIGHS UINT64_C(0x8080808080808080)

/* Bit 7 of each byte of the result is set for a byte that is < 0x20, '"',
 * '\\' or >= 0x80. Subtraction borrows can also flag a byte above a flagged
 * one, never below, so the lowest flagged byte is exact. Without the usual
 * "& ~x" masks the tests also flag bytes >= 0x80, which are flagged anyway. */
static inline uint64_t sv__jw_special(uint64_t x)
{
    uint64_t ctl = x - SV_JW_ONES * 0x20;
    uint64_t quote = (x ^ (SV_JW_ONES * '"')) - SV_JW_ONES;
    uint64_t bslash = (x ^ (SV_JW_ONES * '\\')) - SV_JW_ONES;
    return (x | ctl | quote | bslash) & SV_JW_HIGHS;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define SV_JW_LE 1
#endif

static inline uint64_t sv__jw_load64(const uint8_t *s)
{
    uint64_t x;
    memcpy(&x, s, 8);
    return x;
}

/* The last rem (1..7) bytes of a string ending at e, as a word whose unused
 * high bytes are 'A' (a byte that needs no escape). Built from whole loads:
 * a small memcpy into a stack word would stall the load that follows it. */
static inline uint64_t sv__jw_load_tail(const uint8_t *e, size_t rem, const uint8_t *start)
{
    uint64_t x;
#ifdef SV_JW_LE
    if ((size_t)(e - start) >= 8) {
        x = sv__jw_load64(e - 8) >> (8 * (8 - rem)); /* bytes already written drop out */
    } else if (rem >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, e - rem, 4);
        memcpy(&hi, e - 4, 4);
        x = (uint64_t)lo | (uint64_t)hi << (8 * (rem - 4)); /* overlap ORs equal bytes */
    } else {
        const uint8_t *s = e - rem;
        x = (uint64_t)s[0] | (uint64_t)s[rem / 2] << (8 * (rem / 2)) |
            (uint64_t)s[rem - 1] << (8 * (rem - 1));
    }
    return x | (SV_JW_ONES * 'A') << (8 * rem);
#else
    (void)start;
    x = SV_JW_ONES * 'A';
    memcpy(&x, e - rem, rem);
    return x;
#endif
}

/* Writes a quoted, escaped string. Invalid UTF-8 (or invalid WTF-8 with
 * SV_JW_STR_WTF8) is SV_ERR_UTF8, with the offset of the bad byte in the
 * string as the error's byte offset. */
sv_status sv__jw_string_any(sv_jw *w, const char *s, size_t len, unsigned flags);

/* The same; strings of up to 16 bytes with nothing to escape (most keys and
 * short values) are stored inline here, in one or two words. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline sv_status
sv__jw_string(sv_jw *w, const char *str, size_t len, unsigned flags)
{
    const uint8_t *s = (const uint8_t *)str;
    if (len - 1 < 16 && (size_t)(w->end - w->p) >= 24 &&
        !((flags & SV_JW_STR_DOLLAR) && s[0] == '$')) {
        uint8_t *p = w->p;
        if (len <= 8) {
            uint64_t a = len == 8 ? sv__jw_load64(s) : sv__jw_load_tail(s + len, len, s);
            if (sv__jw_special(a)) goto slow;
            memcpy(p + 1, &a, 8);
        } else {
            uint64_t a = sv__jw_load64(s);
            uint64_t b = len == 16 ? sv__jw_load64(s + 8) : sv__jw_load_tail(s + len, len - 8, s);
            if (sv__jw_special(a) | sv__jw_special(b)) goto slow;
            memcpy(p + 1, &a, 8);
            memcpy(p + 9, &b, 8);
        }
        p[0] = '"';
        p += 1 + len;
        *p++ = '"';
        if (flags & SV_JW_STR_KEY) {
            *p++ = ':';
            if (w->pretty) *p++ = ' ';
        }
        w->p = p;
        return SV_OK;
    }
slow:
    return sv__jw_string_any(w, str, len, flags);
}

/* BYTES: {"$bytes": "base64"} (plain: the base64 string). */
sv_status sv__jw_bytes(sv_jw *w, const sv_value *v);

/* INT, UINT and FLOAT scalars in every width. */
sv_status sv__jw_int(sv_jw *w, const sv_value *v);
sv_status sv__jw_uint(sv_jw *w, const sv_value *v);
sv_status sv__jw_float(sv_jw *w, const sv_value *v);
/* TUPLE and PACKED values. */
sv_status sv__jw_tuple(sv_jw *w, const sv_value *v);
sv_status sv__jw_packed(sv_jw *w, const sv_value *v);

#endif
