/* The zip writer (zip.h). Each member is a local header with its sizes and
 * CRC-32 already known (no data descriptor), then its bytes; the central
 * directory is collected in a second buffer and appended at the end
 * (APPNOTE.TXT 6.3.10, 4.3.7, 4.3.12, 4.3.16). Version 2.0 (20) is what
 * deflate needs and what Resonite's own packages say. */
#include <string.h>

#include "compress/compress.h"
#include "compress/zip.h"
#include "core/byteio.h"

#define VERSION 20u
#define FLAG_UTF8 0x0800u                                 /* 4.4.4 bit 11: the name is UTF-8 */
#define DOS_EPOCH ((uint32_t)(0 << 9 | 1 << 5 | 1) << 16) /* 1980-01-01 00:00:00 */

void sv__compress_zip_writer_init(sv_zip_writer *w, sv_buf *out, uint32_t dos_time,
                                  const char *format)
{
    w->out = out;
    w->start = out->len;
    sv_buf_init(&w->dir, out->alloc);
    w->count = 0;
    w->dos_time = dos_time ? dos_time : DOS_EPOCH;
    w->format = format;
}

void sv__compress_zip_writer_free(sv_zip_writer *w)
{
    sv_buf_free(&w->dir);
}

static bool ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

/* The fields local and central headers share, from "version needed" on
 * (4.3.7: 26 bytes). */
static void put_common(sv_buf *b, uint16_t flags, uint16_t method, uint32_t dos_time, uint32_t crc,
                       uint32_t csize, uint32_t usize, uint16_t name_len)
{
    sv_put_u16le(b, VERSION);
    sv_put_u16le(b, flags);
    sv_put_u16le(b, method);
    sv_put_u16le(b, (uint16_t)dos_time);         /* time */
    sv_put_u16le(b, (uint16_t)(dos_time >> 16)); /* date */
    sv_put_u32le(b, crc);
    sv_put_u32le(b, csize);
    sv_put_u32le(b, usize);
    sv_put_u16le(b, name_len);
    sv_put_u16le(b, 0); /* extra field length */
}

sv_status sv__compress_zip_writer_add(sv_zip_writer *w, const char *name, const uint8_t *data,
                                      size_t len, int method, int level, sv_error *err)
{
    size_t n = strlen(name);
    sv_buf *out = w->out;
    uint64_t local_off = out->len - w->start;
    if (method != SV_ZIP_STORED && method != SV_ZIP_DEFLATED)
        return sv_error_set(err, SV_ERR_USAGE, w->format, local_off,
                            "zip method %d cannot be written (0 stored, 8 deflate)", method);
    if (n == 0 || n > UINT16_MAX)
        return sv_error_set(err, SV_ERR_USAGE, w->format, local_off,
                            "a member name must have 1 to 65535 bytes");
    /* no zip64: 65535 members, 4 GiB members and offsets at most (4.4.1.4) */
    if (w->count >= UINT16_MAX || len >= UINT32_MAX || local_off >= UINT32_MAX)
        return sv_error_set(err, SV_ERR_LIMIT, w->format, local_off,
                            "the archive would need zip64, which is not written");
    uint16_t flags = ascii(name, n) ? 0 : FLAG_UTF8;
    uint32_t crc = sv__compress_crc32(0, data, len);
    size_t header_at = out->len;
    sv_put_u32le(out, 0x04034b50u);
    put_common(out, flags, 0, 0, 0, 0, 0, 0); /* filled in below, once the sizes are known */
    sv_buf_append(out, name, n);
    size_t data_at = out->len;
    if (method == SV_ZIP_DEFLATED) {
        if (!sv__compress_zlib_deflate(data, len, level, SV_ZLIB_RAW, out))
            return sv_error_set(err, SV_ERR_NOMEM, w->format, local_off, "out of memory");
    } else {
        sv_buf_append(out, data, len);
    }
    if (!sv_buf_ok(out))
        return sv_error_set(err, SV_ERR_NOMEM, w->format, local_off, "out of memory");
    size_t csize = out->len - data_at;
    if (csize >= UINT32_MAX)
        return sv_error_set(err, SV_ERR_LIMIT, w->format, local_off,
                            "the archive would need zip64, which is not written");
    /* the local header, now that the sizes are known */
    sv_buf local = {.data = out->data + header_at + 4, .cap = 26};
    put_common(&local, flags, (uint16_t)method, w->dos_time, crc, (uint32_t)csize, (uint32_t)len,
               (uint16_t)n);
    /* its central directory entry */
    sv_buf *d = &w->dir;
    sv_put_u32le(d, 0x02014b50u);
    sv_put_u16le(d, VERSION); /* made by: MS-DOS (0), version 2.0 */
    put_common(d, flags, (uint16_t)method, w->dos_time, crc, (uint32_t)csize, (uint32_t)len,
               (uint16_t)n);
    sv_put_u16le(d, 0); /* comment length */
    sv_put_u16le(d, 0); /* disk number */
    sv_put_u16le(d, 0); /* internal attributes */
    sv_put_u32le(d, 0); /* external attributes */
    sv_put_u32le(d, (uint32_t)local_off);
    sv_buf_append(d, name, n);
    if (!sv_buf_ok(d))
        return sv_error_set(err, SV_ERR_NOMEM, w->format, local_off, "out of memory");
    w->count++;
    return SV_OK;
}

sv_status sv__compress_zip_writer_finish(sv_zip_writer *w, sv_error *err)
{
    sv_buf *out = w->out;
    uint64_t dir_at = out->len - w->start;
    if (dir_at >= UINT32_MAX || w->dir.len >= UINT32_MAX)
        return sv_error_set(err, SV_ERR_LIMIT, w->format, dir_at,
                            "the archive would need zip64, which is not written");
    sv_buf_append(out, w->dir.data, w->dir.len);
    sv_put_u32le(out, 0x06054b50u);
    sv_put_u16le(out, 0); /* this disk */
    sv_put_u16le(out, 0); /* the disk the directory starts on */
    sv_put_u16le(out, (uint16_t)w->count);
    sv_put_u16le(out, (uint16_t)w->count);
    sv_put_u32le(out, (uint32_t)w->dir.len);
    sv_put_u32le(out, (uint32_t)dir_at);
    sv_put_u16le(out, 0); /* comment length */
    if (!sv_buf_ok(out)) return sv_error_set(err, SV_ERR_NOMEM, w->format, dir_at, "out of memory");
    return SV_OK;
}
