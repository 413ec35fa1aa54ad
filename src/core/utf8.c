/* UTF-8 validation (utf8.h). */
#include "core/utf8.h"

#include <string.h>

bool sv__core_utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    /* ASCII runs eight bytes at a time: keys, GUIDs and type names are. */
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & UINT64_C(0x8080808080808080)) break;
        i += 8;
    }
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        /* The second byte's range rules out overlong forms, surrogates and
         * code points above U+10FFFF (RFC 3629 §4, the UTF8-2..4 rules). */
        size_t need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        } else {
            return false;
        }
        if (n - i <= need) return false;
        if (s[i + 1] < lo || s[i + 1] > hi) return false;
        for (size_t k = 2; k <= need; k++)
            if ((s[i + k] & 0xC0) != 0x80) return false;
        i += need + 1;
    }
    return true;
}
