/* Text helpers of the BSON mapping: hex for ObjectIds and UUIDs. */
#include <string.h>

#include "formats/bson/bson_internal.h"

static const char hexdig[] = "0123456789abcdef";

void sv__bson_hex(const uint8_t *in, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hexdig[in[i] >> 4];
        out[2 * i + 1] = hexdig[in[i] & 15];
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool sv__bson_unhex(const char *in, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        int a = hexval(in[2 * i]), b = hexval(in[2 * i + 1]);
        if (a < 0 || b < 0) return false;
        out[i] = (uint8_t)(a << 4 | b);
    }
    return true;
}

/* Byte groups of the 8-4-4-4-12 form. */
static const uint8_t uuid_groups[5] = {4, 2, 2, 2, 6};

void sv__bson_uuid_text(const uint8_t in[16], char out[36])
{
    size_t o = 0, b = 0;
    for (int g = 0; g < 5; g++) {
        if (g) out[o++] = '-';
        sv__bson_hex(in + b, uuid_groups[g], out + o);
        o += 2u * uuid_groups[g];
        b += uuid_groups[g];
    }
}

bool sv__bson_uuid_parse(const char *in, size_t n, uint8_t out[16])
{
    if (n != 36) return false;
    size_t o = 0, b = 0;
    for (int g = 0; g < 5; g++) {
        if (g && in[o++] != '-') return false;
        if (!sv__bson_unhex(in + o, uuid_groups[g], out + b)) return false;
        o += 2u * uuid_groups[g];
        b += uuid_groups[g];
    }
    return true;
}
