/* The typed JSON writer: strings (escaping and UTF-8 / WTF-8 checks) and
 * bytes (base64). Escapes follow docs/json.md, "Strings and bytes".
 *
 * Strings are scanned 8 bytes at a time (SWAR): one 64-bit word tells whether
 * any of its bytes is a control, '"', '\\' or non-ASCII. Clean words are
 * stored whole; only the flagged byte takes the slow path. */
#include "core/base64.h"
#include "formats/json/json_write_internal.h"

/* Input bytes handled per reservation: the output of n input bytes is at most
 * 6n (a control becomes \u00XX), so a long string is reserved piecewise. */
#define STR_CHUNK 4096
/* Slack beyond 6n: the 8-byte word stores, quotes, '$', ':' and a space. */
#define STR_SLACK 32

/* Index of the first special byte of the word loaded from s (one is there).
 * On little-endian machines the first byte in memory is the lowest. */
static inline size_t first_special(uint64_t mask, const uint8_t *s)
{
#if SV_SWAR
    (void)s;
    return (size_t)__builtin_ctzll(mask) >> 3;
#else
    (void)mask;
    size_t k = 0;
    while (!(s[k] < 0x20 || s[k] == '"' || s[k] == '\\' || s[k] >= 0x80)) k++;
    return k;
#endif
}

/* Escapes of the controls U+0000..U+001F (docs/json.md): the five short ones
 * and \u00XX with lower-case hex for the others. */
static const char ctl_escape[32][8] = {
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
    "\\b",     "\\t",     "\\n",     "\\u000b", "\\f",     "\\r",     "\\u000e", "\\u000f",
    "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
    "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
};
static const uint8_t ctl_escape_len[32] = {6, 6, 6, 6, 6, 6, 6, 6, 2, 2, 2, 6, 2, 2, 6, 6,
                                           6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};

static inline bool cont(uint8_t c)
{
    return (c & 0xC0) == 0x80;
}

/* Length of the UTF-8 sequence at s (s[0] >= 0x80, rem bytes left), or 0 if
 * it is invalid (RFC 3629: no overlongs, no surrogates, nothing above
 * U+10FFFF). With wtf8, an encoded surrogate U+D800..U+DFFF is accepted
 * (3 bytes, *lone set) unless it is a high one directly followed by a low
 * one: WTF-8 encodes such a pair as one 4-byte sequence, never as two. */
static size_t utf8_seq(const uint8_t *s, size_t rem, bool wtf8, bool *lone)
{
    uint8_t c = s[0];
    if (c < 0xC2) return 0;
    if (c < 0xE0) return rem >= 2 && cont(s[1]) ? 2 : 0;
    if (c < 0xF0) {
        if (rem < 3 || !cont(s[1]) || !cont(s[2])) return 0;
        if (c == 0xE0 && s[1] < 0xA0) return 0; /* overlong */
        if (c == 0xED && s[1] >= 0xA0) {        /* a surrogate */
            if (!wtf8) return 0;
            if (s[1] < 0xB0 && rem >= 6 && s[3] == 0xED && s[4] >= 0xB0 && s[4] <= 0xBF) return 0;
            *lone = true;
        }
        return 3;
    }
    if (c < 0xF5) {
        if (rem < 4 || !cont(s[1]) || !cont(s[2]) || !cont(s[3])) return 0;
        if (c == 0xF0 && s[1] < 0x90) return 0;  /* overlong */
        if (c == 0xF4 && s[1] >= 0x90) return 0; /* above U+10FFFF */
        return 4;
    }
    return 0;
}

sv_status sv__json_jw_string_any(sv_jw *w, const char *str, size_t len, unsigned flags)
{
    const uint8_t *s = (const uint8_t *)str, *start = s, *e = s + len;
    size_t first = len < STR_CHUNK ? len : STR_CHUNK;
    if (!sv__json_jw_need(w, first * 6 + STR_SLACK)) return SV_ERR_NOMEM;
    bool wtf8 = (flags & SV_JW_STR_WTF8) != 0;
    uint8_t *p = w->p;
    *p++ = '"';
    if ((flags & SV_JW_STR_DOLLAR) && len && s[0] == '$') *p++ = '$';
    const uint8_t *seg_end = s + first;
    for (;;) {
        while (s < seg_end) {
            size_t rem = (size_t)(e - s);
            uint64_t x = rem >= 8 ? sv__core_load64(s) : sv__json_jw_load_tail(e, rem, start);
            uint64_t mask = sv__json_jw_special(x);
            memcpy(p, &x, 8); /* room: reserved with slack */
            if (!mask) {
                size_t k = rem < 8 ? rem : 8;
                p += k;
                s += k;
                continue;
            }
            size_t k = first_special(mask, s);
            p += k;
            s += k;
            uint8_t c = *s;
            if (c < 0x20) {
                memcpy(p, ctl_escape[c], 8);
                p += ctl_escape_len[c];
                s++;
            } else if (c < 0x80) { /* '"' or '\\' */
                p[0] = '\\';
                p[1] = c;
                p += 2;
                s++;
            } else {
                bool lone = false;
                size_t n = utf8_seq(s, (size_t)(e - s), wtf8, &lone);
                if (n == 0)
                    return sv_error_set(w->err, SV_ERR_UTF8, SV_JW_FORMAT, (uint64_t)(s - start),
                                        "%s at byte %zu of a %s: 0x%02x",
                                        wtf8 ? "invalid WTF-8" : "invalid UTF-8",
                                        (size_t)(s - start),
                                        (flags & SV_JW_STR_KEY) ? "key" : "string", (unsigned)c);
                if (lone) {
                    /* Only plain output gets here (typed output writes a
                     * lone surrogate as a $str piece): U+FFFD, the same 3
                     * bytes long. A \udXXX escape is avoided: jq 1.6 and
                     * other strict readers refuse one. */
                    p[0] = 0xEF;
                    p[1] = 0xBF;
                    p[2] = 0xBD;
                    p += 3;
                } else {
                    p[0] = s[0];
                    p[1] = s[1];
                    if (n > 2) p[2] = s[2];
                    if (n > 3) p[3] = s[3];
                    p += n;
                }
                s += n;
            }
        }
        if (s >= e) break;
        size_t next = (size_t)(e - s) < STR_CHUNK ? (size_t)(e - s) : STR_CHUNK;
        seg_end = s + next;
        w->p = p;
        if (!sv__json_jw_need(w, next * 6 + STR_SLACK)) return SV_ERR_NOMEM;
        p = w->p;
    }
    *p++ = '"';
    if (flags & SV_JW_STR_KEY) {
        *p++ = ':';
        if (w->pretty) *p++ = ' ';
    }
    w->p = p;
    return SV_OK;
}

/* ---- bytes: base64 --------------------------------------------------------- */

sv_status sv__json_jw_bytes(sv_jw *w, const sv_value *v)
{
    size_t n = v->len;
    if (!v->as.bytes && n)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0,
                            "malformed tree: bytes without storage");
    if (n > (SIZE_MAX - 64) / 4 * 3) /* (a 32-bit size_t) */
        return sv_error_set(w->err, SV_ERR_NOMEM, SV_JW_FORMAT, 0, "bytes too long to encode");
    if (!sv__json_jw_need(w, n / 3 * 4 + 24)) return SV_ERR_NOMEM;
    uint8_t *p = w->p;
    if (!w->plain) {
        memcpy(p, "{\"$bytes\": ", 11); /* the space is kept when pretty */
        p += 10 + w->pretty;
    }
    *p++ = '"';
    sv__core_base64_encode(v->as.bytes, n, (char *)p);
    p += sv__core_base64_encoded_len(n);
    *p++ = '"';
    if (!w->plain) *p++ = '}';
    w->p = p;
    return SV_OK;
}

/* ---- strings that are not UTF-8: {"$str": [pieces]} ------------------------- */

/* Whether s[0..len) is written as an ordinary string: UTF-8, or WTF-8 with
 * wtf8 (a string from UTF-16). */
bool sv__json_jw_text_ok(const char *str, size_t len, bool wtf8)
{
    if (!len) return true; /* (an empty key may have no storage) */
    const uint8_t *s = (const uint8_t *)str, *e = s + len;
    while (s < e) {
        if (e - s >= 8 && !(sv__core_load64(s) & UINT64_C(0x8080808080808080))) {
            s += 8;
            continue;
        }
        if (*s < 0x80) {
            s++;
            continue;
        }
        bool lone = false;
        size_t n = utf8_seq(s, (size_t)(e - s), wtf8, &lone);
        if (!n) return false;
        s += n;
    }
    return true;
}

/* A character in the original UTF-8 of RFC 2279 (up to 6 bytes, 31 bits)
 * that RFC 3629 no longer allows: 4 bytes above U+10FFFF, or 5 and 6 bytes,
 * each in its shortest form (Godot 3 writes these). Returns its length and
 * the code point, or 0. */
static size_t long_seq(const uint8_t *s, size_t rem, uint32_t *cp)
{
    uint8_t c = s[0];
    size_t n = c >= 0xF0 && c <= 0xF7   ? 4
               : c >= 0xF8 && c <= 0xFB ? 5
               : c >= 0xFC && c <= 0xFD ? 6
                                        : 0;
    if (!n || rem < n) return 0;
    uint32_t u = c & (0x7Fu >> n);
    for (size_t k = 1; k < n; k++) {
        if (!cont(s[k])) return 0;
        u = u << 6 | (s[k] & 0x3Fu);
    }
    static const uint32_t min[7] = {0, 0, 0, 0, 0x110000, 0x200000, 0x4000000};
    if (u < min[n]) return 0; /* valid UTF-8 or an overlong form */
    *cp = u;
    return n;
}

/* A UTF-16 surrogate U+D800..U+DFFF encoded on its own (ED A0..BF xx, its
 * WTF-8 or RFC 2279 form): its length 3 and the code point, or 0. */
static size_t surrogate_seq(const uint8_t *s, size_t rem, uint32_t *cp)
{
    if (rem < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || !cont(s[2])) return 0;
    *cp = 0xD000u | (uint32_t)(s[1] & 0x3F) << 6 | (uint32_t)(s[2] & 0x3F);
    return 3;
}

/* The end of the run of UTF-8 text at s (RFC 3629: no surrogates). A
 * surrogate ends the run: it becomes an integer piece, never a \udXXX
 * escape, which jq 1.6 and other strict JSON readers refuse. */
static const uint8_t *text_run(const uint8_t *s, const uint8_t *e)
{
    while (s < e) {
        if (*s < 0x80) {
            s++;
            continue;
        }
        bool lone = false;
        size_t n = utf8_seq(s, (size_t)(e - s), false, &lone);
        if (!n) return s;
        s += n;
    }
    return s;
}

/* Bytes that neither text nor a character piece can carry, from s on. */
static const uint8_t *bad_run(const uint8_t *s, const uint8_t *e)
{
    while (s < e) {
        bool lone = false;
        uint32_t cp;
        size_t rem = (size_t)(e - s);
        if (*s < 0x80 || utf8_seq(s, rem, false, &lone) || surrogate_seq(s, rem, &cp) ||
            long_seq(s, rem, &cp))
            return s;
        s++;
    }
    return s;
}

/* {"$str": ["text", 55296, 1114112, {"$u8s": [255]}, ...]} (docs/json.md):
 * runs of UTF-8 text as strings, surrogates and RFC 2279 characters beyond
 * U+10FFFF as their code points, other bytes as $u8s. Plain mode writes one
 * string instead, with U+FFFD for every piece that is not text. */
sv_status sv__json_jw_string_pieces(sv_jw *w, const char *str, size_t len)
{
    const uint8_t *s = (const uint8_t *)str, *e = s + len;
    if (!sv__json_jw_need(w, 16)) return SV_ERR_NOMEM;
    if (w->plain) {
        *w->p++ = '"';
    } else {
        sv__json_jw_put(w, "{\"$str\":", 8);
        if (w->pretty) *w->p++ = ' ';
        *w->p++ = '[';
    }
    bool first = true;
    while (s < e) {
        const uint8_t *q = text_run(s, e);
        if (q > s) {
            if (!w->plain && !first) {
                if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
                *w->p++ = ',';
                if (w->pretty) *w->p++ = ' ';
            }
            first = false;
            size_t at = (size_t)(w->p - w->buf->data); /* an offset: the buffer may move */
            sv_status st = sv__json_jw_string_any(w, (const char *)s, (size_t)(q - s), 0);
            if (st) return st;
            if (w->plain) { /* the run inside the one string: drop its quotes */
                uint8_t *open = w->buf->data + at;
                size_t inner = (size_t)(w->p - open) - 2;
                memmove(open, open + 1, inner);
                w->p = open + inner;
            }
            s = q;
            continue;
        }
        uint32_t cp = 0;
        size_t n = surrogate_seq(s, (size_t)(e - s), &cp);
        if (!n) n = long_seq(s, (size_t)(e - s), &cp);
        q = n ? s + n : bad_run(s, e);
        if (!sv__json_jw_need(w, 24 + (size_t)(q - s) * 5)) return SV_ERR_NOMEM;
        if (w->plain) {
            sv__json_jw_put(w, "\xEF\xBF\xBD", 3);
            s = q;
            continue;
        }
        if (!first) {
            *w->p++ = ',';
            if (w->pretty) *w->p++ = ' ';
        }
        first = false;
        if (n) {
            w->p += sv__json_jw_fmt_u64(cp, w->p);
        } else {
            sv__json_jw_put(w, "{\"$u8s\":", 8);
            if (w->pretty) *w->p++ = ' ';
            *w->p++ = '[';
            for (const uint8_t *b = s; b < q; b++) {
                if (b > s) {
                    *w->p++ = ',';
                    if (w->pretty) *w->p++ = ' ';
                }
                w->p += sv__json_jw_fmt_u64(*b, w->p);
            }
            sv__json_jw_put(w, "]}", 2);
        }
        s = q;
    }
    if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
    if (w->plain) {
        *w->p++ = '"';
    } else {
        sv__json_jw_put(w, "]}", 2);
    }
    return SV_OK;
}
