/* Standard base64 (RFC 4648 §4: alphabet A-Z a-z 0-9 + /, '=' padding).
 *
 * Used by the typed JSON for {"$bytes": "..."}. Decoding is strict, so that
 * one byte string has exactly one accepted text: characters outside the
 * alphabet, missing or misplaced padding, and non-zero bits in the unused
 * low bits of the last character (RFC 4648 §3.5) are all rejected. */
#ifndef SV_CORE_BASE64_H
#define SV_CORE_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters of the encoding of n bytes: 4 * ceil(n / 3). No NUL counted.
 * n must be below SIZE_MAX / 4 * 3 (any real buffer is). */
size_t sv__core_base64_encoded_len(size_t n);

/* Writes sv__core_base64_encoded_len(n) characters to out (no NUL terminator). */
void sv__core_base64_encode(const uint8_t *in, size_t n, char *out);

/* Decodes len characters of in into out, which needs room for len / 4 * 3
 * bytes; *out_len gets the number of bytes produced. Returns false on invalid
 * input (len not a multiple of 4, a character outside the alphabet, '=' other
 * than as the last one or two characters, non-zero trailing bits); then
 * *err_pos (if err_pos is not NULL) is the offset of the first offending
 * character in in (len itself when the text only ends too early), and the
 * contents of out and *out_len are unspecified. The empty text decodes to
 * zero bytes. */
bool sv__core_base64_decode(const char *in, size_t len, uint8_t *out, size_t *out_len,
                            size_t *err_pos);

#endif
