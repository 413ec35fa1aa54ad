/* FileAccessEncrypted blocks: reading, decrypting and writing (see
 * godot_gdec.h). The MD5 check is the engine's own: it is how a wrong key
 * shows, as the engine has nothing else to tell it by. */
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_crypto.h"
#include "formats/godot/godot_gdec.h"

#define MAGIC "GDEC"

size_t gd_gdec_header_size(int version, bool magic)
{
    return version == 3 ? 32 : (magic ? 44 : 40);
}

static uint64_t round16(uint64_t n)
{
    return n > UINT64_MAX - 15 ? 0 : (n + 15) & ~(uint64_t)15;
}

static bool fits(const uint8_t *d, size_t len, int version, bool magic, uint64_t *total)
{
    size_t h = gd_gdec_header_size(version, magic);
    if (len < h) return false;
    uint64_t length = sv__core_load_u64le(d + (version == 3 ? 24 : (magic ? 20 : 16)));
    uint64_t c = round16(length);
    if (length && !c) return false;
    *total = h + c;
    return c <= len - h;
}

sv_status gd_gdec_parse(const uint8_t *data, size_t len, bool magic, int version, const char *fmt,
                        uint64_t base, gd_gdec *g, sv_error *err)
{
    memset(g, 0, sizeof *g);
    if (magic && (len < 4 || memcmp(data, MAGIC, 4)))
        return sv_error_set(err, SV_ERR_SYNTAX, fmt, base, "not a GDEC file (no \"GDEC\" magic)");
    if (version == 0) {
        /* the two layouts' sizes differ by 12 modulo 16: at most one fits
         * a whole file exactly */
        uint64_t t3 = 0, t4 = 0;
        bool f3 = fits(data, len, 3, true, &t3) && t3 == len && sv__core_load_u32le(data + 4) == 1;
        bool f4 = fits(data, len, 4, true, &t4) && t4 == len;
        if (f3)
            version = 3;
        else if (f4)
            version = 4;
        else if (len < 44)
            return sv_error_set(err, SV_ERR_TRUNCATED, fmt, base + len,
                                "GDEC header cut off: %zu bytes, a header needs 32 (3.x) or "
                                "44 (4.x)",
                                len);
        else
            return sv_error_set(
                err, SV_ERR_SYNTAX, fmt, base,
                "the GDEC length fields fit neither layout: 3.x (mode 1, length "
                "%llu: %llu bytes) nor 4.x (length %llu: %llu bytes) gives the "
                "file's %zu bytes",
                (unsigned long long)sv__core_load_u64le(data + 24), (unsigned long long)t3,
                (unsigned long long)sv__core_load_u64le(data + 20), (unsigned long long)t4, len);
    }
    size_t h = gd_gdec_header_size(version, magic);
    if (len < h)
        return sv_error_set(err, SV_ERR_TRUNCATED, fmt, base + len,
                            "encrypted block cut off: its header needs %zu bytes, %zu left", h,
                            len);
    const uint8_t *p = data + (magic ? 4 : 0);
    g->version = version;
    g->magic = magic;
    if (version == 3) {
        g->mode = sv__core_load_u32le(p);
        p += 4;
        if (g->mode != 1)
            return sv_error_set(err, SV_ERR_SYNTAX, fmt, base + 4,
                                "GDEC mode %u: the engine reads only 1 (AES-256)", g->mode);
    }
    memcpy(g->md5, p, 16);
    g->length = sv__core_load_u64le(p + 16);
    if (version == 4) memcpy(g->iv, p + 24, 16);
    g->cipher_len = round16(g->length);
    if (g->length && !g->cipher_len)
        return sv_error_set(err, SV_ERR_RANGE, fmt, base + (uint64_t)(p + 16 - data),
                            "encrypted length %llu is impossible", (unsigned long long)g->length);
    if (g->cipher_len > len - h)
        return sv_error_set(err, SV_ERR_TRUNCATED, fmt, base + len,
                            "encrypted data cut off: the length %llu needs %llu bytes of "
                            "ciphertext, %zu are there",
                            (unsigned long long)g->length, (unsigned long long)g->cipher_len,
                            len - h);
    g->cipher = data + h;
    g->total = h + g->cipher_len;
    return SV_OK;
}

sv_status gd_gdec_decrypt(const gd_gdec *g, const uint8_t key[32], uint64_t max_alloc,
                          const char *fmt, uint64_t base, sv_buf *out, sv_error *err)
{
    if (max_alloc && g->cipher_len > max_alloc)
        return sv_error_set(err, SV_ERR_LIMIT, fmt, base,
                            "the encrypted data's %llu bytes are over --max-alloc (%llu)",
                            (unsigned long long)g->cipher_len, (unsigned long long)max_alloc);
    if (g->cipher_len > SIZE_MAX - out->len || sv_buf_ensure(out, (size_t)g->cipher_len) != SV_OK)
        return sv_error_set(err, SV_ERR_NOMEM, fmt, base, "out of memory");
    size_t n = (size_t)g->cipher_len;
    if (n == 0) { /* nothing to decrypt; the MD5 is that of no bytes */
        uint8_t md5[16];
        gd_md5(NULL, 0, md5);
        return memcmp(md5, g->md5, 16)
                   ? sv_error_set(err, SV_ERR_SYNTAX, fmt, base,
                                  "wrong key or damaged file: the MD5 of the decrypted data does "
                                  "not match the one stored")
                   : SV_OK;
    }
    uint8_t *dst = out->data + out->len;
    sv_status st = g->version == 3
                       ? gd_aes256_ecb(key, false, g->cipher, dst, n, fmt, err)
                       : gd_aes256_cfb128(key, g->iv, false, g->cipher, dst, n, fmt, err);
    if (st != SV_OK) return st;
    uint8_t md5[16];
    gd_md5(dst, (size_t)g->length, md5);
    if (memcmp(md5, g->md5, 16))
        return sv_error_set(err, SV_ERR_SYNTAX, fmt, base,
                            "wrong key or damaged file: the MD5 of the decrypted data does not "
                            "match the one stored");
    out->len += n;
    return SV_OK;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

sv_status gd_gdec_encrypt(int version, bool magic, uint32_t mode, const uint8_t key[32],
                          const uint8_t iv[16], const uint8_t *p, size_t len, const uint8_t *pad,
                          size_t pad_len, const char *fmt, sv_buf *out, sv_error *err)
{
    size_t clen = (size_t)round16(len);
    if (len && !clen) return sv_error_set(err, SV_ERR_RANGE, fmt, 0, "plaintext too large");
    if (pad && pad_len != clen - len)
        return sv_error_set(err, SV_ERR_RANGE, fmt, 0,
                            "the padding kept is %zu bytes; the plaintext needs %zu", pad_len,
                            clen - len);
    size_t h = gd_gdec_header_size(version, magic);
    if (clen > SIZE_MAX - h || sv_buf_ensure(out, h + clen) != SV_OK)
        return sv_error_set(err, SV_ERR_NOMEM, fmt, 0, "out of memory");
    uint8_t *d = out->data + out->len, *q = d;
    if (magic) memcpy(q, MAGIC, 4), q += 4;
    if (version == 3) put_u32(q, mode), q += 4;
    gd_md5(p, len, q);
    put_u64(q + 16, len);
    q += 24;
    if (version == 4) memcpy(q, iv, 16), q += 16;
    if (len) memcpy(q, p, len);
    if (clen > len) {
        if (pad)
            memcpy(q + len, pad, clen - len);
        else
            memset(q + len, 0, clen - len);
    }
    sv_status st = version == 3 ? gd_aes256_ecb(key, true, q, q, clen, fmt, err)
                                : gd_aes256_cfb128(key, iv, true, q, q, clen, fmt, err);
    if (st != SV_OK) return st;
    out->len += h + clen;
    return SV_OK;
}
