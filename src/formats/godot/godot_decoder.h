/* The Variant decoder's state, shared by godot_decode.c (one Variant,
 * strings, containers) and godot_decode_packed.c (packed arrays). */
#ifndef SV_FORMATS_GODOT_DECODER_H
#define SV_FORMATS_GODOT_DECODER_H

#include "core/byteio.h"
#include "core/compiler.h"
#include "formats/godot/godot_internal.h"

/* Short strings repeat (dictionary keys, tags, class and property names):
 * a small direct-mapped cache from their raw bytes to the value already
 * made saves the interning hash and the allocation. Only raw bytes that are
 * their own result (no BOM, no NUL, shortest UTF-8) are cached, so a hit
 * gives exactly what decoding the bytes would. The bytes are compared as
 * three zero-padded 8-byte words. */
#define GD_SCACHE_SIZE 256
#define GD_SCACHE_MAX_LEN 24

typedef struct gd_scache_entry {
    uint64_t w[3];
    sv_value v;
    uint32_t len1; /* the string's length + 1; 0: empty */
    uint32_t hits; /* a miss on a used entry takes one off; at 0 it is replaced */
} gd_scache_entry;

/* Dictionaries in a row often share their keys in the same order (records
 * of one kind, the properties of one class). The last Dictionary at each
 * depth whose keys were all plain Strings (header 4, bytes the encoder
 * writes back, no key repeated) leaves its keys here: the next one at that
 * depth whose key bytes are the same, byte for byte, takes the values made
 * then and needs no repeated-key check, since the same bytes decode to the
 * same keys. */
#define GD_KMEMO_DEPTHS 8
#define GD_KMEMO_KEYS 16

typedef struct gd_kmemo {
    uint32_t n;                       /* keys remembered; 0: none */
    const uint8_t *at[GD_KMEMO_KEYS]; /* each key's bytes, header on, in the input */
    uint32_t size[GD_KMEMO_KEYS];     /* header, length, text and padding */
    sv_value key[GD_KMEMO_KEYS];      /* what they decoded to */
} gd_kmemo;

typedef struct gd_dec {
    sv_reader rd;
    sv_doc *doc;
    const gd_rules *r;
    bool godot4;
    size_t overrun; /* PackedByteArray padding counted beyond the input */
    /* The value being read has bytes the encoder would not write for its
     * tree value (godot_records.c): ignored header bits, a string with a BOM,
     * a NUL, overlong UTF-8 (odd_text) or padding that is not zero (odd).
     * The container around it keeps its bytes as a record. */
    bool odd, odd_text;
    /* Strings that are their own text (ASCII, no NUL) point into the input
     * instead of being copied into doc: the streaming decoder's values live
     * only as long as its call, as the input does. */
    bool borrow_text;
    gd_scache_entry scache[GD_SCACHE_SIZE];
    gd_kmemo kmemo[GD_KMEMO_DEPTHS];
    unsigned long key_checks; /* repeated-key checks run (gd_key_checks) */
} gd_dec;

/* Records the first error (with the engine's error in fmt) at byte off. */
sv_status gd_dfail_at(gd_dec *d, size_t off, sv_status st, const char *fmt, ...) SV_PRINTF(4, 5);

static inline size_t doff(const gd_dec *d)
{
    return (size_t)(d->rd.p - d->rd.base);
}
static inline size_t dleft(const gd_dec *d)
{
    return (size_t)(d->rd.end - d->rd.p);
}

/* n more bytes for what, else ERR_INVALID_DATA as the engine's len checks. */
static inline bool dneed(gd_dec *d, size_t n, const char *what)
{
    if (d->rd.status != SV_OK) return false;
    if (dleft(d) >= n) return true;
    gd_dfail_at(d, doff(d), SV_ERR_TRUNCATED,
                "%s needs %zu bytes, %zu left (engine: ERR_INVALID_DATA)", what, n, dleft(d));
    return false;
}

static inline uint32_t du32(gd_dec *d)
{
    uint32_t v = sv__core_load_u32le(d->rd.p);
    d->rd.p += 4;
    return v;
}

static inline sv_status check_doc(gd_dec *d)
{
    sv_status st = sv_doc_status(d->doc);
    if (st != SV_OK && d->rd.status == SV_OK)
        gd_dfail_at(d, doff(d), st,
                    "the document could not allocate (size limit or out of memory)");
    return d->rd.status;
}

/* Whether the pad bytes after the n bytes at p are not all zero. The last
 * word of the string holds them in its high bytes; without padding the mask
 * is 0 (and the word read is at worst the length field before p, which was
 * read already), so there is no branch. */
static inline bool pad_nonzero(const uint8_t *p, size_t n, size_t pad)
{
    static const uint32_t high[4] = {0, 0xFF000000u, 0xFFFF0000u, 0xFFFFFF00u};
    return (sv__core_load_u32le(p + n + pad - 4) & high[pad]) != 0;
}

/* Whether the n bytes at s are ASCII without NUL (gd_string_is_plain,
 * inline for the short texts of keys and names). A word has neither a high
 * bit nor a zero byte when w | (w - 0x01..01) has no high bit: subtracting
 * borrows only past a zero byte, and turns a zero byte into 0xFF. The last
 * word overlaps the one before instead of a byte loop. */
static inline bool gd_plain_text(const char *s, size_t n)
{
    const uint8_t *p = (const uint8_t *)s;
    const uint64_t ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);
    if (n >= 8) {
        uint64_t acc = 0;
        for (size_t i = 0; i + 8 <= n; i += 8) {
            uint64_t w = sv__core_load_u64le(p + i);
            acc |= w | (w - ones);
        }
        uint64_t w = sv__core_load_u64le(p + n - 8);
        return ((acc | w | (w - ones)) & high) == 0;
    }
    if (n >= 4) {
        uint32_t a = sv__core_load_u32le(p), b = sv__core_load_u32le(p + n - 4);
        return ((a | (a - 0x01010101u) | b | (b - 0x01010101u)) & 0x80808080u) == 0;
    }
    bool plain = true;
    for (size_t i = 0; i < n; i++) plain &= p[i] != 0 && p[i] < 0x80;
    return plain;
}

/* spec §4: a string (length, bytes, padding) into *out; false on an error. */
bool gd_read_string(gd_dec *d, bool intern, sv_value *out);

/* A decoder over data[0..len) (base: where offsets count from), strings
 * and other values made in doc. */
void gd_dec_init(gd_dec *d, sv_doc *doc, const gd_rules *r, const uint8_t *base,
                 const uint8_t *data, size_t len, sv_error *err);
/* Forgets the values made so far (the string cache, the remembered keys),
 * as a caller must once it resets the document they live in. */
void gd_dec_forget(gd_dec *d);
/* One Variant at the reader's position, as a container's item is read (key:
 * a Dictionary key); depth counts the containers around it. For the
 * streaming decoder (godot_visit.c), which reads Arrays and Dictionaries
 * itself and everything else through this. */
sv_status gd_dec_item(gd_dec *d, unsigned depth, bool key, sv_value *out);

/* Packed arrays (godot_decode_packed.c). */
sv_status gd_dec_bytes(gd_dec *d, sv_value *out);
sv_status gd_dec_numbers(gd_dec *d, unsigned t, sv_elem elem, sv_tag shape, unsigned per,
                         sv_value *out);
sv_status gd_dec_strings(gd_dec *d, uint32_t hdr, sv_value *out);
sv_status gd_dec_packed_math(gd_dec *d, unsigned t, uint32_t hdr, sv_value *out);

#endif
