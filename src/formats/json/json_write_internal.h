/* The typed JSON writer's shared state and helpers (internal).
 *
 * The writer keeps a raw cursor (p, end) into the output sv_buf and writes
 * with plain stores: every emitter first makes sure there is room for an
 * upper bound of what it is about to write (sv__json_jw_need, or in the container
 * loops one check per item against a fixed bound), then stores without
 * further checks. The buffer's len is synchronised only when it has to grow
 * and at the end. The container loops keep the cursor in a local variable
 * and hand it back to w->p only around calls that write through w. */
#ifndef SV_JSON_WRITE_INTERNAL_H
#define SV_JSON_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define SV_JW_SSE2 1
#else
#define SV_JW_SSE2 0
#endif
#include "core/value_internal.h"
#include "core/numconv.h"
#include "serval/json.h"

#define SV_JW_FORMAT "json"

/* Indentation lines are written 16 spaces at a time (whole chunks, so the
 * copy has a constant size); every reservation that precedes a newline
 * includes this much slack. */
#define SV_JW_NL_SLACK 16

/* Object keys repeat (every object of a class has the same field names, and
 * they are interned): the writer remembers the text of recent keys by the
 * address of their bytes, which is stable while it runs, and writes a
 * remembered key with one constant-size copy. */
#define SV_JW_KEY_CACHE_BITS 6
#define SV_JW_KEY_CACHE (1 << SV_JW_KEY_CACHE_BITS)
#define SV_JW_KEY_TEXT 32 /* bytes copied for a remembered key: "key": and a space */
typedef struct sv_jw_key {
    const char *str; /* the key's bytes; an empty slot holds sv_jw.keys itself */
    uint64_t head;   /* the key value's first 8 bytes: kind, flags, sub, tag, len */
    uint64_t n;      /* bytes of text */
    uint8_t text[SV_JW_KEY_TEXT];
    uint64_t pad; /* (64 bytes: a slot's offset is its index shifted) */
} sv_jw_key;
_Static_assert(sizeof(sv_jw_key) == 64, "a key slot is 64 bytes");

typedef struct sv_jw {
    uint8_t *p;   /* next byte to write (while no container loop holds it) */
    uint8_t *end; /* end of the reserved room (the buffer's capacity) */
    sv_buf *buf;
    sv_error *err;
    size_t indent;  /* spaces per level; 0 = compact */
    size_t ind;     /* indentation of the line the current value starts on */
    unsigned depth; /* containers open */
    bool pretty;
    bool plain;
    uint32_t key_mask, key_want; /* see sv__json_jw_object_key() */
    /* kind, the UTF16 flag and tag: the mask of a value head (sv__json_jw_head)
     * that tells an untagged UTF-8 string */
    uint32_t mask_string;
    sv_jw_key keys[SV_JW_KEY_CACHE];
    /* the previous object's class (its value's two words; an empty entry
     * holds the address of keys) and its text: "$class": and the class */
    uint64_t cls_words[2];
    size_t cls_n;
    uint8_t cls_text[SV_JW_KEY_TEXT];
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

/* Slow path of sv__json_jw_need: grows the buffer (in large steps). On failure
 * records SV_ERR_NOMEM and returns false. */
bool sv__json_jw_grow(sv_jw *w, size_t n);
/* At the start of a container (no offset into the output is held then):
 * with a sink, hands the output so far to it once a window is full
 * (sv_buf_release). SV_OK, or the sink's error. */
sv_status sv__json_jw_release(sv_jw *w);

/* Readies w to write into out with opts (sv_json_encode's checks). */
sv_status sv__json_jw_begin(sv_jw *w, const sv_json_encode_opts *opts, sv_buf *out, sv_error *err);
/* Forgets the remembered keys and class (by address): for a writer that
 * goes on after the tree it wrote was freed and its memory reused. */
void sv__json_jw_forget(sv_jw *w);

static inline bool sv__json_jw_need(sv_jw *w, size_t n)
{
    if ((size_t)(w->end - w->p) >= n) return true;
    return sv__json_jw_grow(w, n);
}

/* Stores n bytes of s at w->p (room checked by the caller). */
static inline void sv__json_jw_put(sv_jw *w, const char *s, size_t n)
{
    memcpy(w->p, s, n);
    w->p += n;
}

/* Writes s (a literal) and, when pretty, a space: the "key": part of a form. */
static inline void sv__json_jw_put_key_lit(sv_jw *w, const char *s, size_t n)
{
    sv__json_jw_put(w, s, n);
    if (w->pretty) *w->p++ = ' ';
}

/* '\n' and ind spaces. Room: ind + 1 + SV_JW_NL_SLACK. */
static inline uint8_t *sv__json_jw_nl(uint8_t *p, size_t ind)
{
    *p++ = '\n';
    for (size_t k = 0; k < ind; k += 16) memcpy(p + k, "                ", 16);
    return p + ind;
}

/* ---- value heads ---------------------------------------------------------- */

/* The first 4 bytes of a value (kind, flags, sub, tag) as one word, so that
 * "an untagged float64 without flags" is one compare. */
static inline uint32_t sv__json_jw_head(const sv_value *v)
{
    uint32_t h;
    memcpy(&h, v, sizeof h);
    return h;
}

/* The head word of a value with these fields; built through an sv_value so
 * that no bit-field layout is assumed (the compiler folds it to a constant
 * for plain values; masks, with all bits of a bit-field set, are not always
 * folded, and are kept in sv_jw). */
static inline uint32_t sv__json_jw_head_of(unsigned kind, unsigned flags, unsigned sub,
                                           unsigned tag)
{
    sv_value v = sv__core_make((sv_kind)kind, sub, flags);
    v.tag = (uint16_t)tag;
    return sv__json_jw_head(&v);
}

/* An object key: an untagged UTF-8 string in typed mode, any string in
 * plain mode. One masked compare of the value's head (key_mask and key_want
 * are made in sv_json_encode). */
static inline bool sv__json_jw_object_key(const sv_jw *w, const sv_value *k)
{
    return (sv__json_jw_head(k) & w->key_mask) == w->key_want && (k->as.str || !k->len);
}

/* String flags for sv__json_jw_string. */
enum {
    SV_JW_STR_WTF8 = 1,   /* lone surrogates allowed (plain output: as U+FFFD) */
    SV_JW_STR_DOLLAR = 2, /* a leading '$' is doubled (typed map keys) */
    SV_JW_STR_KEY = 4     /* followed by ':' (and a space when pretty) */
};

/* ---- integers: eight digits at once ----------------------------------------- */

#define SV_JW_ONES UINT64_C(0x0101010101010101)

/* The text of each number below 1000: its digits in the first three bytes
 * of its entry, its length in the fourth. */
extern const char sv__jw_digits3[1000][4];

/* The decimal digits of u (no sign, no leading zeros), written with
 * constant-size stores: up to 8 bytes whatever the length (room:
 * SV_FMT_INT_MAX). Numbers below 1000, the commonest in game data (flags,
 * counts, small ids), are one entry of a table: text and length, stored
 * whole, without a test on the number of digits (a flag or a count has a
 * random number of digits, and such tests missed about every other time).
 * Below 10^8 the eight digits are computed side by side in one word (SWAR):
 * u splits into two 4-digit halves in the two 32-bit lanes, each lane into
 * two 2-digit halves, each of those into two digits, one per byte, the most
 * significant digit in the lowest byte (the first in memory on a
 * little-endian machine). The divisions by 100 and 10 are multiplications
 * by 10486 / 2^20 and 103 / 2^10, exact for every lane value that can
 * occur (below 10^4 and 10^2; the unit tests write every one). The leading
 * zero digits are shifted out and the word stored whole. Larger values go
 * to sv__core_fmt_u64. */
static SV_ALWAYS_INLINE size_t sv__json_jw_fmt_u64(uint64_t u, uint8_t *p)
{
    if (u < 1000) {
        memcpy(p, sv__jw_digits3[u], 4); /* (the length byte lands past the text: room only) */
        return (size_t)sv__jw_digits3[u][3];
    }
#if SV_SWAR
    if (u < 100000000) {
        uint32_t u32 = (uint32_t)u; /* (32-bit division: cheaper) */
        uint64_t x = u32 / 10000 | (uint64_t)(u32 % 10000) << 32;
        uint64_t hund = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
        x = hund | (x - hund * 100) << 16;
        uint64_t tens = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
        x = tens | (x - tens * 10) << 8;
        /* u >= 10^3, so x != 0: its lowest non-zero byte is the first digit */
        unsigned zeros = (unsigned)__builtin_ctzll(x) >> 3;
        x = (x >> (8 * zeros)) + SV_JW_ONES * '0';
        memcpy(p, &x, 8);
        return 8 - zeros;
    }
#endif
    return sv__core_fmt_u64(u, (char *)p);
}

static SV_ALWAYS_INLINE size_t sv__json_jw_fmt_i64(int64_t i, uint8_t *p)
{
    if (i >= 0) return sv__json_jw_fmt_u64((uint64_t)i, p);
    *p = '-';
    return 1 + sv__json_jw_fmt_u64(0 - (uint64_t)i, p + 1);
}

/* ---- integers beyond a double ------------------------------------------------ */

/* An integer that a double cannot hold exactly (|n| > 2^53) is written as a
 * decimal string inside its form ({"$i64": "..."}, {"$int": "..."}, a
 * packed element "..."): tools that read JSON numbers as doubles (jq 1.6)
 * would otherwise round it (docs/json.md, "Integers beyond 2^53"). */
#define SV_JW_SAFE_INT (INT64_C(1) << 53)

static inline bool sv__json_jw_wide_i64(int64_t i)
{
    return i > SV_JW_SAFE_INT || i < -SV_JW_SAFE_INT;
}

static inline bool sv__json_jw_wide_u64(uint64_t u)
{
    return u > (uint64_t)SV_JW_SAFE_INT;
}

/* n in typed JSON's number position: its digits, in quotes when it is wide
 * and quote is set (typed, not plain, output). Room: SV_FMT_INT_MAX + 2. */
static SV_ALWAYS_INLINE size_t sv__json_jw_fmt_u64_q(uint64_t u, uint8_t *p, bool quote)
{
    if (!quote || !sv__json_jw_wide_u64(u)) return sv__json_jw_fmt_u64(u, p);
    *p = '"';
    size_t n = sv__json_jw_fmt_u64(u, p + 1);
    p[n + 1] = '"';
    return n + 2;
}

static SV_ALWAYS_INLINE size_t sv__json_jw_fmt_i64_q(int64_t i, uint8_t *p, bool quote)
{
    if (!quote || !sv__json_jw_wide_i64(i)) return sv__json_jw_fmt_i64(i, p);
    *p = '"';
    size_t n = sv__json_jw_fmt_i64(i, p + 1);
    p[n + 1] = '"';
    return n + 2;
}

/* ---- strings: 8 bytes at a time ----------------------------------------- */

#define SV_JW_HIGHS UINT64_C(0x8080808080808080)

/* Bit 7 of each byte of the result is set for a byte that is < 0x20, '"',
 * '\\' or >= 0x80. Subtraction borrows can also flag a byte above a flagged
 * one, never below, so the lowest flagged byte is exact. Without the usual
 * "& ~x" masks the tests also flag bytes >= 0x80, which are flagged anyway. */
static inline uint64_t sv__json_jw_special(uint64_t x)
{
    uint64_t ctl = x - SV_JW_ONES * 0x20;
    uint64_t quote = (x ^ (SV_JW_ONES * '"')) - SV_JW_ONES;
    uint64_t bslash = (x ^ (SV_JW_ONES * '\\')) - SV_JW_ONES;
    return (x | ctl | quote | bslash) & SV_JW_HIGHS;
}

/* The last rem (1..7) bytes of a string ending at e, as a word whose unused
 * high bytes are 'A' (a byte that needs no escape). Built from whole loads:
 * a small memcpy into a stack word would stall the load that follows it. */
static inline uint64_t sv__json_jw_load_tail(const uint8_t *e, size_t rem, const uint8_t *start)
{
    uint64_t x;
#if SV_SWAR
    if ((size_t)(e - start) >= 8) {
        x = sv__core_load64(e - 8) >> (8 * (8 - rem)); /* bytes already written drop out */
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

/* Writes a quoted, escaped string at w->p. Invalid UTF-8 (or invalid WTF-8
 * with SV_JW_STR_WTF8) is SV_ERR_UTF8, with the offset of the bad byte in
 * the string as the error's byte offset. */
sv_status sv__json_jw_string_any(sv_jw *w, const char *s, size_t len, unsigned flags);
/* Whether a string is written as an ordinary JSON string: UTF-8, or WTF-8
 * when wtf8 (from UTF-16). */
bool sv__json_jw_text_ok(const char *s, size_t len, bool wtf8);
/* A string that is not: {"$str": [pieces]} (docs/json.md). */
sv_status sv__json_jw_string_pieces(sv_jw *w, const char *s, size_t len);

static inline uint32_t sv__json_jw_load32(const uint8_t *s)
{
    uint32_t x;
    memcpy(&x, s, 4);
    return x;
}

/* The longest string sv__json_jw_short_string writes, and its room: the
 * string and its quotes. */
#define SV_JW_SHORT_MAX 32
#define SV_JW_SHORT_ROOM (SV_JW_SHORT_MAX + 2)

/* Whether one of the 32 bytes in the words a, b, c, d needs an escape or is
 * not ASCII. */
#if SV_JW_SSE2
static inline bool sv__json_jw_special4x8(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    __m128i lo = _mm_set_epi64x((long long)b, (long long)a);
    __m128i hi = _mm_set_epi64x((long long)d, (long long)c);
    __m128i ctl = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    __m128i bad = _mm_or_si128(
        _mm_or_si128(_mm_cmplt_epi8(lo, ctl), _mm_cmplt_epi8(hi, ctl)),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(lo, quote), _mm_cmpeq_epi8(hi, quote)),
                     _mm_or_si128(_mm_cmpeq_epi8(lo, bslash), _mm_cmpeq_epi8(hi, bslash))));
    return _mm_movemask_epi8(bad) != 0;
}
#else
static inline bool sv__json_jw_special4x8(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return (sv__json_jw_special(a) | sv__json_jw_special(b) | sv__json_jw_special(c) |
            sv__json_jw_special(d)) != 0;
}
#endif

/* The smaller of a and b, without a branch (a cmov). */
static inline size_t sv__json_jw_min(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* The quoted text of a string of 1 to SV_JW_SHORT_MAX bytes with nothing to
 * escape (keys, names, short values) at p; returns the end, or NULL
 * (nothing meaningful written) when the string is not such one. Room:
 * SV_JW_SHORT_ROOM. Bytes >= 0x80 take the slow path, so the UTF-8 check
 * is done there.
 *
 * The length of a name or a tag is data: a test on it (> 16, >= 8, >= 4)
 * went one way or the other at random from one string to the next, and
 * missed about every other time. So there are two cases only, each without
 * a test on the length within it:
 * - 8 to 32 bytes: four 8-byte pieces at offsets 0, min(8, len - 8),
 *   min(16, len - 8) and len - 8. They overlap as much as the string is
 *   shorter than 32 bytes, cover it whole and never read past it; each is
 *   stored at its own offset, so overlapping bytes are written twice with
 *   the same value.
 * - 1 to 7 bytes: the bytes at offsets min(k, len - 1), k = 0..6, gathered
 *   into one word (past the end the last byte repeats, inside the string)
 *   and stored whole: its bytes past the string are overwritten by the
 *   closing quote and what follows it. */
static SV_ALWAYS_INLINE uint8_t *sv__json_jw_short_string(uint8_t *p, const char *str, size_t len)
{
    const uint8_t *s = (const uint8_t *)str;
    if (len - 1 >= SV_JW_SHORT_MAX) return NULL;
    if (len >= 8) {
        size_t last = len - 8;
        size_t o1 = sv__json_jw_min(8, last), o2 = sv__json_jw_min(16, last);
        uint64_t a = sv__core_load64(s), b = sv__core_load64(s + o1);
        uint64_t c = sv__core_load64(s + o2), d = sv__core_load64(s + last);
        if (sv__json_jw_special4x8(a, b, c, d)) return NULL;
        memcpy(p + 1, &a, 8);
        memcpy(p + 1 + o1, &b, 8);
        memcpy(p + 1 + o2, &c, 8);
        memcpy(p + 1 + last, &d, 8);
    } else {
        size_t last = len - 1;
        uint64_t x = (uint64_t)s[0] | (SV_JW_ONES * 'A' << 56); /* the 8th byte: no escape */
        for (size_t k = 1; k < 7; k++) x |= (uint64_t)s[sv__json_jw_min(k, last)] << (8 * k);
        if (sv__json_jw_special(x)) return NULL;
#if SV_LITTLE_ENDIAN
        memcpy(p + 1, &x, 8); /* the first byte lowest */
#else
        for (size_t k = 0; k < 7; k++) p[1 + k] = (uint8_t)(x >> (8 * k));
#endif
    }
    p[0] = '"';
    p[1 + len] = '"';
    return p + 2 + len;
}

/* A string at w->p: the short form above when it applies, else the general
 * one. */
static SV_ALWAYS_INLINE sv_status sv__json_jw_string(sv_jw *w, const char *str, size_t len,
                                                     unsigned flags)
{
    if ((size_t)(w->end - w->p) >= SV_JW_SHORT_ROOM + 2 &&
        !((flags & SV_JW_STR_DOLLAR) && len && str[0] == '$')) {
        uint8_t *p = sv__json_jw_short_string(w->p, str, len);
        if (p) {
            if (flags & SV_JW_STR_KEY) {
                *p++ = ':';
                if (w->pretty) *p++ = ' ';
            }
            w->p = p;
            return SV_OK;
        }
    }
    return sv__json_jw_string_any(w, str, len, flags);
}

/* ---- the writers (each checks its value and its room itself) ----------------- */

/* Any value, tagged or not (json_write.c). */
sv_status sv__json_jw_value(sv_jw *w, const sv_value *v);

/* The writers of untagged values by kind (the shape tags of tuples and
 * packed arrays are part of their own form); 16 rows, one per value of the
 * 4-bit kind field (json_write.c). */
typedef sv_status (*sv_jw_writer)(sv_jw *w, const sv_value *v);
extern const sv_jw_writer sv__jw_by_kind[16];

/* SV_ERR_TYPE "malformed tree: what (kind k)". */
sv_status sv__json_jw_malformed(sv_jw *w, const char *what, const sv_value *v);

/* ARRAY, MAP, OBJECT (json_write_containers.c). */
sv_status sv__json_jw_array(sv_jw *w, const sv_value *v);
sv_status sv__json_jw_map(sv_jw *w, const sv_value *v);
sv_status sv__json_jw_object(sv_jw *w, const sv_value *v);

/* BYTES: {"$bytes": "base64"} (plain: the base64 string). */
sv_status sv__json_jw_bytes(sv_jw *w, const sv_value *v);

/* INT, UINT and FLOAT scalars in every width. */
sv_status sv__json_jw_int(sv_jw *w, const sv_value *v);
sv_status sv__json_jw_uint(sv_jw *w, const sv_value *v);
sv_status sv__json_jw_float(sv_jw *w, const sv_value *v);
/* TUPLE and PACKED values. */
sv_status sv__json_jw_tuple(sv_jw *w, const sv_value *v);
sv_status sv__json_jw_packed(sv_jw *w, const sv_value *v);

#endif
