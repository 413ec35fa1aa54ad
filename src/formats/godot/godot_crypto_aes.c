/* AES-256 for FileAccessEncrypted: ECB (Godot 3.x) and CFB128 (Godot 4.x,
 * mbedTLS aes_crypt_cfb128, the standard mode), from OpenSSL's libcrypto. A
 * build without it refuses with SV_ERR_UNSUPPORTED, naming what is missing. */
#include "formats/godot/godot_crypto.h"
#include "serval/config.h"

#if SERVAL_HAVE_OPENSSL
#include <limits.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

bool gd_aes_available(void)
{
    return true;
}

static sv_status run(const EVP_CIPHER *cipher, const uint8_t key[32], const uint8_t *iv,
                     bool encrypt, const uint8_t *in, uint8_t *out, size_t n, const char *fmt,
                     sv_error *err)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx) return sv_error_set(err, SV_ERR_NOMEM, fmt, 0, "out of memory (cipher context)");
    bool ok = EVP_CipherInit_ex(ctx, cipher, NULL, key, iv, encrypt ? 1 : 0) == 1 &&
              EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
    size_t done = 0;
    while (ok && done < n) {
        /* EVP takes an int length: go in chunks a multiple of 16 */
        size_t step = n - done > (size_t)(INT_MAX & ~15) ? (size_t)(INT_MAX & ~15) : n - done;
        int got = 0;
        ok = EVP_CipherUpdate(ctx, out + done, &got, in + done, (int)step) == 1 &&
             (size_t)got == step;
        done += step;
    }
    int fin = 0;
    if (ok) ok = EVP_CipherFinal_ex(ctx, out + done, &fin) == 1 && fin == 0;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? SV_OK
              : sv_error_set(err, SV_ERR_UNSUPPORTED, fmt, 0, "AES-256 failed in libcrypto");
}

sv_status gd_aes256_ecb(const uint8_t key[32], bool encrypt, const uint8_t *in, uint8_t *out,
                        size_t n, const char *fmt, sv_error *err)
{
    return run(EVP_aes_256_ecb(), key, NULL, encrypt, in, out, n, fmt, err);
}

sv_status gd_aes256_cfb128(const uint8_t key[32], const uint8_t iv[16], bool encrypt,
                           const uint8_t *in, uint8_t *out, size_t n, const char *fmt,
                           sv_error *err)
{
    return run(EVP_aes_256_cfb128(), key, iv, encrypt, in, out, n, fmt, err);
}

sv_status gd_random_bytes(uint8_t *out, size_t n, const char *fmt, sv_error *err)
{
    if (n <= INT_MAX && RAND_bytes(out, (int)n) == 1) return SV_OK;
    return sv_error_set(err, SV_ERR_UNSUPPORTED, fmt, 0, "no random bytes from libcrypto");
}

#else

bool gd_aes_available(void)
{
    return false;
}

static sv_status missing(const char *fmt, sv_error *err)
{
    return sv_error_set(err, SV_ERR_UNSUPPORTED, fmt, 0,
                        "encrypted Godot files are unavailable: this serval was built without "
                        "OpenSSL (libcrypto)");
}

sv_status gd_aes256_ecb(const uint8_t key[32], bool encrypt, const uint8_t *in, uint8_t *out,
                        size_t n, const char *fmt, sv_error *err)
{
    (void)key, (void)encrypt, (void)in, (void)out, (void)n;
    return missing(fmt, err);
}

sv_status gd_aes256_cfb128(const uint8_t key[32], const uint8_t iv[16], bool encrypt,
                           const uint8_t *in, uint8_t *out, size_t n, const char *fmt,
                           sv_error *err)
{
    (void)key, (void)iv, (void)encrypt, (void)in, (void)out, (void)n;
    return missing(fmt, err);
}

sv_status gd_random_bytes(uint8_t *out, size_t n, const char *fmt, sv_error *err)
{
    (void)out, (void)n;
    return missing(fmt, err);
}

#endif
