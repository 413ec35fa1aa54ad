/* KIWAD archives: what the reader and the writers share. */
#ifndef SV_KIWAD_INTERNAL_H
#define SV_KIWAD_INTERNAL_H

#include "serval/kiwad.h"

#define KIWAD_FORMAT "kiwad"
#define KIWAD_ENTRY_FIXED 21u /* offset, size, csize, flag, crc, name_len */
#define KIWAD_STORED_CSIZE 0xFFFFFFFFu

struct sv_kiwad {
    const sv_alloc *alloc;
    const uint8_t *data;
    size_t len;
    sv_kiwad_info info;
    sv_kiwad_member *members; /* table order */
    uint32_t *by_name;        /* indices, names in ascending byte order */
};

static inline void kiwad_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Byte order of two names (memcmp, shorter first on a tie). */
int kiwad_name_cmp(const char *a, size_t an, const char *b, size_t bn);

/* Compresses (zlib at level) or stores one member's content into out and
 * fills the entry fields that follow from it. */
sv_status kiwad_store(const char *name, const uint8_t *data, size_t len, bool compress, int level,
                      sv_buf *out, sv_error *err);

#endif
