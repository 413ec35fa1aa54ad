/* KingsIsle's two hashes (§2): StringID for type tags and the modified djb2
 * for property names. */
#include "formats/kingsisle/ki_internal.h"

/* §2.1, the grimoire form: unsigned bytes, shift left then arithmetic shift
 * right for the bits that wrap. Written without signed overflow: the shifts
 * run on uint32_t and the arithmetic shift is spelled out. */
uint32_t ki_string_id(const uint8_t *s, size_t n)
{
    uint32_t r = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t v = (int32_t)s[i] - 32;
        unsigned sh = (unsigned)(i * 5) & 31u;
        r ^= (uint32_t)v << sh;
        if (sh > 24) {
            unsigned k = 32 - sh; /* 1..7 */
            uint32_t uv = (uint32_t)v >> k;
            if (v < 0) uv |= ~(UINT32_MAX >> k); /* sign fill */
            r ^= uv;
        }
    }
    /* |r| as uint32; |INT32_MIN| = 0x80000000 */
    return (r & 0x80000000u) ? 0u - r : r;
}

/* §2.2: h = h * 33 + c from 5381, masked to 31 bits at the end. */
uint32_t ki_djb2(const uint8_t *s, size_t n)
{
    uint32_t h = 5381;
    for (size_t i = 0; i < n; i++) h = h * 33u + s[i];
    return h & 0x7FFFFFFFu;
}

uint32_t sv_kingsisle_string_id(const char *s, size_t len)
{
    return ki_string_id((const uint8_t *)s, s ? len : 0);
}

uint32_t sv_kingsisle_djb2(const char *s, size_t len)
{
    return ki_djb2((const uint8_t *)s, s ? len : 0);
}

/* §2.3: the sum wraps modulo 2^32. */
uint32_t sv_kingsisle_property_hash(const char *type, size_t type_len, const char *name,
                                    size_t name_len)
{
    return sv_kingsisle_string_id(type, type_len) + sv_kingsisle_djb2(name, name_len);
}

size_t ki_hash_key(uint32_t hash, char buf[11])
{
    char tmp[10];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + hash % 10);
        hash /= 10;
    } while (hash);
    for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return n;
}

bool ki_parse_hash_key(const char *s, size_t n, uint32_t *hash)
{
    if (n == 0 || n > 10) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > UINT32_MAX || (n > 1 && s[0] == '0')) return false;
    *hash = (uint32_t)v;
    return true;
}
