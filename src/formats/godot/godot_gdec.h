/* FileAccessEncrypted blocks (internal): the GDEC files of File.open_encrypted
 * and the encrypted members and directories of 4.x packs.
 *
 *   3.x: "GDEC", u32 mode (1), md5[16], u64 length, AES-256-ECB ciphertext
 *   4.x: ["GDEC"], md5[16], u64 length, iv[16], AES-256-CFB128 ciphertext
 *
 * The ciphertext is the plaintext zero-padded to a multiple of 16. Inside a
 * pack the 4.x block has no magic. */
#ifndef SV_FORMATS_GODOT_GDEC_H
#define SV_FORMATS_GODOT_GDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"

typedef struct gd_gdec {
    int version; /* 3 or 4 */
    bool magic;
    uint32_t mode; /* 3.x: the mode word as written */
    uint8_t md5[16];
    uint64_t length; /* plaintext bytes */
    uint8_t iv[16];  /* 4.x */
    const uint8_t *cipher;
    uint64_t cipher_len; /* length rounded up to 16 */
    uint64_t total;      /* the block's bytes, header included */
} gd_gdec;

/* The header's size: 3.x 32, 4.x 44 with magic, 40 without. */
size_t gd_gdec_header_size(int version, bool magic);

/* Reads a block's header at data (len bytes available) and checks that its
 * ciphertext fits. version 0: tell 3.x from 4.x (magic files only) by which
 * layout the length gives exactly len bytes. Errors name fmt and base + the
 * offset in the block. */
sv_status gd_gdec_parse(const uint8_t *data, size_t len, bool magic, int version, const char *fmt,
                        uint64_t base, gd_gdec *g, sv_error *err);

/* Decrypts g with key into out (cipher_len bytes: the plaintext and its
 * padding), refused past max_alloc, and checks the MD5: a mismatch is
 * SV_ERR_SYNTAX, "wrong key or damaged file". */
sv_status gd_gdec_decrypt(const gd_gdec *g, const uint8_t key[32], uint64_t max_alloc,
                          const char *fmt, uint64_t base, sv_buf *out, sv_error *err);

/* Appends a block of the plaintext p (len bytes) to out: version 3 with
 * mode, or 4 with iv; pad (pad_len bytes, up to the next multiple of 16)
 * fills the last block, zeros when NULL, as the engine pads. */
sv_status gd_gdec_encrypt(int version, bool magic, uint32_t mode, const uint8_t key[32],
                          const uint8_t iv[16], const uint8_t *p, size_t len, const uint8_t *pad,
                          size_t pad_len, const char *fmt, sv_buf *out, sv_error *err);

#endif
