/* The typed JSON reader: whitespace, comments and strings.
 *
 * A string is scanned once to find its end, check its escapes and UTF-8 and
 * count its decoded length; then it is copied into the arena in one memcpy
 * when it has no escape (the usual case), or decoded straight into an arena
 * block of exactly the right size. The scan looks at 8 bytes at a time and
 * stops only at '"', '\\', a control byte or a non-ASCII byte. */
#include <string.h>

#include "core/value_internal.h"
#include "formats/json/json_read_internal.h"

/* ---- whitespace and comments ---------------------------------------------------- */

/* p is at '/' and comments are allowed. */
static const char *skip_comment(jr *r, const char *p)
{
    const char *end = r->end;
    if (end - p < 2 || (p[1] != '/' && p[1] != '*')) {
        sv__json_jr_fail(r, p + 1, SV_ERR_SYNTAX, "expected '/' or '*' after '/'");
        return NULL;
    }
    char kind = p[1];
    p += 2;
    /* The text of a comment must be UTF-8 like the rest of the input. */
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (kind == '/' && c == '\n') return p + 1;
        if (kind == '*' && c == '*' && end - p >= 2 && p[1] == '/') return p + 2;
        if (c < 0x80) {
            p++;
            continue;
        }
        int n = sv__json_jr_utf8_seq((const unsigned char *)p, (const unsigned char *)end);
        if (n < 0) break; /* ends inside a sequence */
        if (n == 0) {
            sv__json_jr_fail(r, p, SV_ERR_UTF8, "invalid UTF-8 byte 0x%02x in a comment", c);
            return NULL;
        }
        p += n;
    }
    if (kind == '/') return end; /* a line comment may end the input */
    sv__json_jr_fail(r, end, SV_ERR_TRUNCATED, "unterminated block comment");
    return NULL;
}

const char *sv__json_jr_ws_slow(jr *r, const char *p)
{
    const char *end = r->end;
    while (p < end) {
        char c = *p;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            p++;
            /* Pretty text indents with runs of spaces: take them 8 at a time. */
            while (end - p >= 8 && sv__core_load64(p) == UINT64_C(0x2020202020202020)) p += 8;
            continue;
        }
        if (c == '/' && r->comments) {
            p = skip_comment(r, p);
            if (!p) return NULL;
            continue;
        }
        break;
    }
    return p;
}

/* ---- UTF-8 ---------------------------------------------------------------------------- */

int sv__json_jr_utf8_seq(const unsigned char *p, const unsigned char *end)
{
    /* RFC 3629 §4: the second byte's range depends on the first byte (this
     * excludes overlong forms, UTF-16 surrogates and code points past
     * U+10FFFF); the other continuation bytes are 80..BF. */
    unsigned c = p[0];
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c < 0xC2) return 0; /* continuation byte, or overlong C0/C1 */
    if (c < 0xE0) {
        n = 2;
    } else if (c < 0xF0) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c < 0xF5) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if (p + i >= end) return -1;
        unsigned b = p[i];
        if (b < lo || b > hi) return 0;
        lo = 0x80;
        hi = 0xBF;
    }
    return n;
}

/* ---- escapes ---------------------------------------------------------------------------- */

static inline int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* The code unit of the 4 hex digits at p, or -1 (p has 4 readable bytes). */
static inline long hex4(const char *p)
{
    int a = hexval((unsigned char)p[0]), b = hexval((unsigned char)p[1]);
    int c = hexval((unsigned char)p[2]), d = hexval((unsigned char)p[3]);
    if ((a | b | c | d) < 0) return -1;
    return (long)((a << 12) | (b << 8) | (c << 4) | d);
}

/* Whether the n bytes at p could begin a valid "\uXXXX" escape (n < 6). */
static bool u_escape_prefix(const char *p, size_t n)
{
    if (n >= 1 && p[0] != '\\') return false;
    if (n >= 2 && p[1] != 'u') return false;
    for (size_t i = 2; i < n; i++)
        if (hexval((unsigned char)p[i]) < 0) return false;
    return true;
}

static inline size_t utf8_len(unsigned long cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static inline char *put_utf8(char *d, unsigned long cp)
{
    if (cp < 0x80) {
        *d++ = (char)cp;
    } else if (cp < 0x800) {
        *d++ = (char)(0xC0 | (cp >> 6));
        *d++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        /* also a lone surrogate in WTF-8: ED A0..BF xx */
        *d++ = (char)(0xE0 | (cp >> 12));
        *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *d++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *d++ = (char)(0xF0 | (cp >> 18));
        *d++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *d++ = (char)(0x80 | (cp & 0x3F));
    }
    return d;
}

/* Checks the escape whose backslash is at p. Returns the pointer after it
 * and adds to *shrink the bytes the decoded form saves, or returns NULL. */
static const char *check_escape(jr *r, const char *p, size_t *shrink, bool wtf8)
{
    const char *end = r->end;
    if (end - p < 2) {
        sv__json_jr_fail(r, end, SV_ERR_TRUNCATED, "unterminated string");
        return NULL;
    }
    switch (p[1]) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't': *shrink += 1; return p + 2;
    case 'u': break;
    default: {
        unsigned char c = (unsigned char)p[1];
        if (c >= 0x20 && c < 0x7F)
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "invalid escape '\\%c'", c);
        else
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "invalid escape: byte 0x%02x after '\\'", c);
        return NULL;
    }
    }
    if (end - p < 6) {
        if (u_escape_prefix(p, (size_t)(end - p)))
            sv__json_jr_fail(r, end, SV_ERR_TRUNCATED, "unterminated string");
        else
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "invalid \\u escape: expected 4 hex digits");
        return NULL;
    }
    long cu = hex4(p + 2);
    if (cu < 0) {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "invalid \\u escape: expected 4 hex digits");
        return NULL;
    }
    if (cu < 0xD800 || cu > 0xDFFF) {
        *shrink += 6 - utf8_len((unsigned long)cu);
        return p + 6;
    }
    if (cu <= 0xDBFF) {
        /* A high surrogate pairs with an immediately following low one. */
        const char *q = p + 6;
        size_t avail = (size_t)(end - q);
        if (avail >= 6 && q[0] == '\\' && q[1] == 'u') {
            long lo = hex4(q + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                *shrink += 12 - 4;
                return p + 12;
            }
        } else if (avail < 6 && u_escape_prefix(q, avail)) {
            sv__json_jr_fail(r, end, SV_ERR_TRUNCATED, "unterminated string");
            return NULL;
        }
    }
    if (wtf8) {
        *shrink += 6 - 3;
        return p + 6;
    }
    sv__json_jr_fail(r, p, SV_ERR_UTF8,
                     "lone surrogate \\u%04lx (only a {\"$utf16\": ...} string may hold one)", cu);
    return NULL;
}

void sv__json_jr_unescape(const char *p, const char *q, char *dst, bool wtf8)
{
    (void)wtf8; /* the scan has decided which surrogates are allowed */
    while (p < q) {
        const char *bs = memchr(p, '\\', (size_t)(q - p));
        if (!bs) {
            memcpy(dst, p, (size_t)(q - p));
            return;
        }
        memcpy(dst, p, (size_t)(bs - p));
        dst += bs - p;
        p = bs + 2;
        switch (bs[1]) {
        case 'b': *dst++ = '\b'; break;
        case 'f': *dst++ = '\f'; break;
        case 'n': *dst++ = '\n'; break;
        case 'r': *dst++ = '\r'; break;
        case 't': *dst++ = '\t'; break;
        case 'u': {
            unsigned long cp = (unsigned long)hex4(bs + 2);
            p = bs + 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && q - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                long lo = hex4(p + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)lo - 0xDC00);
                    p += 6;
                }
            }
            dst = put_utf8(dst, cp);
            break;
        }
        default: *dst++ = bs[1]; break; /* '"', '\\', '/' */
        }
    }
}

/* ---- scanning ---------------------------------------------------------------------------- */

const char *sv__json_jr_scan_string(jr *r, const char *p, size_t *dlen, bool *escaped, bool wtf8)
{
    const char *end = r->end;
    const char *s = ++p; /* after the opening quote */
    size_t shrink = 0;
    bool esc = false;
    for (;;) {
#if SV_SWAR
        while (end - p >= 8) {
            uint64_t m = jr_special_bytes(sv__core_load64(p));
            if (m) {
                p += __builtin_ctzll(m) >> 3;
                goto special;
            }
            p += 8;
        }
#endif
        for (;;) {
            if (p >= end) {
                sv__json_jr_fail(r, end, SV_ERR_TRUNCATED, "unterminated string");
                return NULL;
            }
            unsigned char c = (unsigned char)*p;
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
            p++;
        }
#if SV_SWAR
    special :
#endif
    {
        unsigned char c = (unsigned char)*p;
        if (c == '"') break;
        if (c == '\\') {
            esc = true;
            p = check_escape(r, p, &shrink, wtf8);
            if (!p) return NULL;
            continue;
        }
        if (c < 0x20) {
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX,
                             "control character 0x%02x in a string (escape it)", c);
            return NULL;
        }
        /* Non-ASCII: take whole sequences while they come. */
        do {
            int n = sv__json_jr_utf8_seq((const unsigned char *)p, (const unsigned char *)end);
            if (n <= 0) {
                if (n < 0)
                    sv__json_jr_fail(r, end, SV_ERR_TRUNCATED, "unterminated string");
                else
                    sv__json_jr_fail(r, p, SV_ERR_UTF8, "invalid UTF-8 byte 0x%02x",
                                     (unsigned char)*p);
                return NULL;
            }
            p += n;
        } while (p < end && (unsigned char)*p >= 0x80);
    }
    }
    *dlen = (size_t)(p - s) - shrink;
    *escaped = esc;
    return p;
}

static bool check_max_string(jr *r, const char *at, size_t len)
{
    if (len <= r->lim.max_string && len <= UINT32_MAX) return true;
    return sv__json_jr_fail(
        r, at, SV_ERR_LIMIT, "string of %zu bytes is over the limit of %llu", len,
        (unsigned long long)(r->lim.max_string < UINT32_MAX ? r->lim.max_string : UINT32_MAX));
}

const char *sv__json_jr_read_str(jr *r, const char *p, jr_str *out, bool wtf8)
{
    size_t dlen;
    bool esc;
    const char *q = sv__json_jr_scan_string(r, p, &dlen, &esc, wtf8);
    if (!q) return NULL;
    if (!check_max_string(r, p, dlen)) return NULL;
    out->escaped = esc;
    if (!esc) {
        out->s = p + 1;
    } else {
        if (!sv__json_jr_reserve(r, (void **)&r->sbuf, &r->scap, dlen + 1, p)) return NULL;
        sv__json_jr_unescape(p + 1, q, r->sbuf, wtf8);
        out->s = r->sbuf;
    }
    out->len = dlen;
    return q + 1;
}

const char *sv__json_jr_string_value(jr *r, const char *p, sv_value *out, bool wtf8)
{
    size_t dlen;
    bool esc;
    const char *q = sv__json_jr_scan_string(r, p, &dlen, &esc, wtf8);
    if (!q) return NULL;
    if (!check_max_string(r, p, dlen)) return NULL;
    /* Like sv_str, inlined: one arena block of len + 1 bytes. */
    char *dst = sv__json_jr_alloc(r, dlen + 1, p);
    if (!dst) return NULL;
    if (!esc)
        memcpy(dst, p + 1, dlen);
    else
        sv__json_jr_unescape(p + 1, q, dst, wtf8);
    dst[dlen] = '\0';
    *out = sv__core_str_value(dst, (uint32_t)dlen);
    return q + 1;
}
