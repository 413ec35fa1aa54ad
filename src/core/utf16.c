/* UTF-16 <-> WTF-8 (utf16.h). */
#include "core/utf16.h"

#include "core/byteio.h"

static uint32_t unit_at(const uint8_t *u, size_t i, bool big)
{
    return big ? sv__core_load_u16be(u + 2 * i) : sv__core_load_u16le(u + 2 * i);
}

static bool is_high(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}
static bool is_low(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

size_t sv__core_utf16_wtf8_len(const uint8_t *units, size_t n, bool big)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = unit_at(units, i, big);
        if (u < 0x80)
            len += 1;
        else if (u < 0x800)
            len += 2;
        else if (is_high(u) && i + 1 < n && is_low(unit_at(units, i + 1, big)))
            len += 4, i++;
        else
            len += 3;
    }
    return len;
}

void sv__core_utf16_to_wtf8(const uint8_t *units, size_t n, bool big, uint8_t *d)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u = unit_at(units, i, big);
        if (is_high(u) && i + 1 < n && is_low(unit_at(units, i + 1, big))) {
            u = 0x10000 + ((u - 0xD800) << 10) + (unit_at(units, i + 1, big) - 0xDC00);
            i++;
        }
        if (u < 0x80) {
            *d++ = (uint8_t)u;
        } else if (u < 0x800) {
            *d++ = (uint8_t)(0xC0 | u >> 6);
            *d++ = (uint8_t)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            *d++ = (uint8_t)(0xE0 | u >> 12);
            *d++ = (uint8_t)(0x80 | (u >> 6 & 0x3F));
            *d++ = (uint8_t)(0x80 | (u & 0x3F));
        } else {
            *d++ = (uint8_t)(0xF0 | u >> 18);
            *d++ = (uint8_t)(0x80 | (u >> 12 & 0x3F));
            *d++ = (uint8_t)(0x80 | (u >> 6 & 0x3F));
            *d++ = (uint8_t)(0x80 | (u & 0x3F));
        }
    }
}

static void put_unit(sv_buf *out, uint32_t u, bool big)
{
    if (big)
        sv_put_u16be(out, (uint16_t)u);
    else
        sv_put_u16le(out, (uint16_t)u);
}

bool sv__core_wtf8_to_utf16(sv_buf *out, const uint8_t *s, size_t n, bool big)
{
    bool prev_high = false; /* a high surrogate just written as its own unit */
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t need;
        uint32_t cp, min;
        if (c < 0x80)
            need = 0, cp = c, min = 0;
        else if ((c & 0xE0) == 0xC0)
            need = 1, cp = c & 0x1Fu, min = 0x80;
        else if ((c & 0xF0) == 0xE0)
            need = 2, cp = c & 0x0Fu, min = 0x800;
        else if ((c & 0xF8) == 0xF0)
            need = 3, cp = c & 0x07u, min = 0x10000;
        else
            return false;
        if (n - i <= need) return false;
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF) return false;
        /* A high surrogate followed by a low one would read back as one
         * code point: that spelling is not WTF-8. */
        if (prev_high && is_low(cp)) return false;
        prev_high = is_high(cp);
        if (cp >= 0x10000) {
            put_unit(out, 0xD800 + ((cp - 0x10000) >> 10), big);
            put_unit(out, 0xDC00 + ((cp - 0x10000) & 0x3FF), big);
        } else {
            put_unit(out, cp, big);
        }
        i += need + 1;
    }
    return true;
}
