/* UTF-16 <-> WTF-8, for the formats whose strings are 16-bit units (NoesisGUI's
 * unicode variant, KingsIsle's wide strings). WTF-8 keeps a lone surrogate as
 * its 3-byte form, so any sequence of units comes back unchanged (the tree
 * flags such strings UTF16, docs/json.md). Units are little-endian, or
 * big-endian when big is true. */
#ifndef SV_CORE_UTF16_H
#define SV_CORE_UTF16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"

/* Bytes of WTF-8 that n UTF-16 code units make (at most 3 per unit). */
size_t sv__core_utf16_wtf8_len(const uint8_t *units, size_t n, bool big);
/* Converts n units into dst (room for sv__core_utf16_wtf8_len bytes). */
void sv__core_utf16_to_wtf8(const uint8_t *units, size_t n, bool big, uint8_t *dst);
/* Appends the UTF-16 form of WTF-8 text s; false if s is not WTF-8 (or
 * holds a surrogate pair spelled as two 3-byte sequences). */
bool sv__core_wtf8_to_utf16(sv_buf *out, const uint8_t *s, size_t n, bool big);

#endif
