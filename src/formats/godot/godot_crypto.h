/* The cryptography of Godot's encrypted files and packs (internal): MD5
 * (written here, so that PCK archives are read and written in every build)
 * and AES-256 in the two modes FileAccessEncrypted uses, ECB (3.x) and
 * CFB128 (4.x), which come from OpenSSL's libcrypto when serval is built
 * with it (SERVAL_HAVE_OPENSSL) and are otherwise SV_ERR_UNSUPPORTED. */
#ifndef SV_FORMATS_GODOT_CRYPTO_H
#define SV_FORMATS_GODOT_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/error.h"

void gd_md5(const uint8_t *p, size_t n, uint8_t out[16]);

/* Whether AES is built in. */
bool gd_aes_available(void);

/* n (a multiple of 16) bytes from in to out; in may equal out. fmt names
 * the format in errors. */
sv_status gd_aes256_ecb(const uint8_t key[32], bool encrypt, const uint8_t *in, uint8_t *out,
                        size_t n, const char *fmt, sv_error *err);
sv_status gd_aes256_cfb128(const uint8_t key[32], const uint8_t iv[16], bool encrypt,
                           const uint8_t *in, uint8_t *out, size_t n, const char *fmt,
                           sv_error *err);

/* n bytes from 2n hex digits (either case): false when it is not that. */
bool gd_bytes_from_hex(const char *hex, uint8_t *out, size_t n);
/* A key from 64 hex digits (either case): false when it is not that. */
bool gd_key_from_hex(const char *hex, uint8_t key[32]);
/* n bytes from the system's cryptographic random generator (libcrypto's
 * RAND_bytes): a new 4.x file's IV, as the engine draws one. */
sv_status gd_random_bytes(uint8_t *out, size_t n, const char *fmt, sv_error *err);
/* The key open_encrypted_with_pass derives: the 32 ASCII bytes of the
 * lowercase hex MD5 of the password's UTF-8 (String::md5_text). */
void gd_key_from_password(const char *pass, size_t len, uint8_t key[32]);

#endif
