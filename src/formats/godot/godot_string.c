/* Strings as the engine reads them: String::parse_utf8 (spec §4).
 *
 * Both engines skip one leading UTF-8 BOM and stop at the first NUL byte
 * (verified on 3.2.3: "efbbbf6162" is "ab", "a\0b" is "a"). They differ in
 * what they refuse:
 *  - 4.x refuses anything that is not RFC 3629 UTF-8 (bad or missing
 *    continuation bytes, overlong forms, surrogates, code points above
 *    U+10FFFF); spec §4, 4.x core/string/ustring.cpp.
 *  - 3.x (verified on 3.2.3) decodes 1- to 6-byte sequences into 31-bit
 *    characters and refuses only: a byte that starts no sequence, a missing
 *    or bad continuation byte, C0/C1 leads, and a sequence whose first two
 *    continuation bytes carry no payload bits (its peculiar overlong test).
 *    So surrogates, code points above U+10FFFF and some overlong 4- to 6-byte
 *    forms pass; String::utf8() then writes each character in its shortest
 *    form, which is what serval keeps in the tree (so decode, encode, decode
 *    gives the same string, as it does in the engine). */
#include <string.h>

#include "formats/godot/godot_internal.h"

/* Length of the leading run of ASCII bytes (8 at a time). */
static size_t ascii_prefix(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i + 8 <= len) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & UINT64_C(0x8080808080808080)) break;
        i += 8;
    }
    while (i < len && s[i] < 0x80) i++;
    return i;
}

/* Length of the leading run of ASCII bytes that are not NUL. */
static size_t ascii_nonzero_prefix(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i + 8 <= len) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t zero = (w - UINT64_C(0x0101010101010101)) & ~w & UINT64_C(0x8080808080808080);
        if ((w & UINT64_C(0x8080808080808080)) | zero) break;
        i += 8;
    }
    while (i < len && s[i] && s[i] < 0x80) i++;
    return i;
}

/* RFC 3629 sequence length at s[i] (0 = invalid), 4.x rules. */
static size_t utf8_strict_seq(const unsigned char *s, size_t i, size_t len)
{
    unsigned c = s[i];
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        if (i + 1 < len && (s[i + 1] & 0xC0) == 0x80) return 2;
        return 0;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if (i + 2 >= len) return 0;
        unsigned c1 = s[i + 1];
        if ((c1 & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80) return 0;
        if (c == 0xE0 && c1 < 0xA0) return 0;  /* overlong */
        if (c == 0xED && c1 >= 0xA0) return 0; /* surrogate */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (i + 3 >= len) return 0;
        unsigned c1 = s[i + 1];
        if ((c1 & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80 || (s[i + 3] & 0xC0) != 0x80) return 0;
        if (c == 0xF0 && c1 < 0x90) return 0;  /* overlong */
        if (c == 0xF4 && c1 >= 0x90) return 0; /* above U+10FFFF */
        return 4;
    }
    return 0;
}

/* 3.x: the sequence at s[i]; returns its length (0 = refused) and the
 * character in *cp. Mirrors 3.2.3's two passes of String::parse_utf8. */
static size_t utf8_v3_seq(const unsigned char *s, size_t i, size_t len, uint32_t *cp)
{
    unsigned c = s[i];
    size_t n;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0)
        n = 2;
    else if ((c & 0xF0) == 0xE0)
        n = 3;
    else if ((c & 0xF8) == 0xF0)
        n = 4;
    else if ((c & 0xFC) == 0xF8)
        n = 5;
    else if ((c & 0xFE) == 0xFC)
        n = 6;
    else
        return 0;                            /* "invalid skip" */
    if (n == 2 && (c & 0x1E) == 0) return 0; /* "overlong rejected" */
    if (n > len - i) return 0;               /* "no space left" */
    uint32_t u = (0xFFu >> (n + 1)) & c;
    for (size_t k = 1; k < n; k++) {
        unsigned b = s[i + k];
        if ((b & 0xC0) != 0x80) return 0;                               /* "invalid utf8" */
        if (u == 0 && k == 2 && ((b & 0x7F) >> (7 - n)) == 0) return 0; /* "overlong" */
        u = (u << 6) | (b & 0x3F);
    }
    *cp = u;
    return n;
}

/* 3.x String::utf8(): bytes for one character, 1 to 6. */
static size_t utf8_v3_len(uint32_t c)
{
    return c <= 0x7F        ? 1
           : c <= 0x7FF     ? 2
           : c <= 0xFFFF    ? 3
           : c <= 0x1FFFFF  ? 4
           : c <= 0x3FFFFFF ? 5
                            : 6;
}

static size_t utf8_v3_put(unsigned char *d, uint32_t c)
{
    size_t n = utf8_v3_len(c);
    if (n == 1) {
        d[0] = (unsigned char)c;
        return 1;
    }
    static const unsigned char lead[7] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
    for (size_t k = n - 1; k > 0; k--) {
        d[k] = (unsigned char)(0x80 | (c & 0x3F));
        c >>= 6;
    }
    d[0] = (unsigned char)(lead[n] | c);
    return n;
}

/* Validates s[0..len) (no NUL inside); *canonical = false when some 3.x
 * sequence is not in its shortest form. Returns false with *bad_at. */
static bool validate(const unsigned char *s, size_t len, bool godot4, bool *canonical,
                     size_t *bad_at)
{
    *canonical = true;
    size_t i = ascii_prefix(s, len);
    while (i < len) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t n;
        if (godot4) {
            n = utf8_strict_seq(s, i, len);
        } else {
            uint32_t cp = 0;
            n = utf8_v3_seq(s, i, len, &cp);
            if (n && utf8_v3_len(cp) != n) *canonical = false;
        }
        if (!n) {
            *bad_at = i;
            return false;
        }
        i += n;
    }
    return true;
}

bool gd_string_make(sv_doc *doc, const char *str, size_t len, bool godot4, bool intern,
                    sv_value *out, size_t *bad_at)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t skip = 0;
    /* spec §4: one leading BOM is skipped */
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) skip = 3;
    s += skip;
    len -= skip;
    /* spec §4: decoding stops at the first NUL. The common case, plain
     * ASCII without NUL, is checked 8 bytes at a time first. */
    size_t plain = ascii_nonzero_prefix(s, len);
    if (plain == len) {
        *out =
            intern ? sv_str_intern(doc, (const char *)s, len) : sv_str(doc, (const char *)s, len);
        return true;
    }
    const unsigned char *nul = memchr(s + plain, 0, len - plain);
    if (nul) len = (size_t)(nul - s);
    bool canonical;
    if (!validate(s, len, godot4, &canonical, bad_at)) {
        *bad_at += skip;
        return false;
    }
    if (canonical) {
        *out =
            intern ? sv_str_intern(doc, (const char *)s, len) : sv_str(doc, (const char *)s, len);
        return true;
    }
    /* 3.x: rewrite every character in its shortest form (never longer). */
    sv_value v = sv_str_uninit(doc, len);
    unsigned char *d = sv_value_buf(&v);
    if (!d) {
        *out = v;
        return true; /* the document's status says out of memory */
    }
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        i += utf8_v3_seq(s, i, len, &cp);
        o += utf8_v3_put(d + o, cp);
    }
    d[o] = 0;
    v.len = (uint32_t)o;
    *out = v;
    return true;
}

bool gd_string_is_plain(const char *s, size_t len)
{
    return ascii_nonzero_prefix((const unsigned char *)s, len) == len;
}

bool gd_string_writable(const char *str, size_t len, bool godot4, size_t *bad_at)
{
    const unsigned char *s = (const unsigned char *)str;
    if (ascii_nonzero_prefix(s, len) == len) return true;
    const unsigned char *nul = len ? memchr(s, 0, len) : NULL;
    if (nul) {
        *bad_at = (size_t)(nul - s);
        return false;
    }
    bool canonical;
    if (!validate(s, len, godot4, &canonical, bad_at)) return false;
    if (!canonical) {
        *bad_at = 0;
        return false;
    }
    return true;
}
