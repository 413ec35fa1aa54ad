/* A small, bounded zip archive reader and writer (internal), enough for
 * .resonitepackage archives: stored and deflated members, no encryption, no
 * zip64, no multi-disk archives (APPNOTE.TXT 6.3, sections 4.3 and 4.4).
 *
 * The reader works on bytes in memory and trusts nothing: the end of
 * central directory record is searched for within the last 64 KiB + 22
 * bytes, the member count is checked against the central directory's size
 * (46 bytes a member at least) before the table is allocated, every local
 * header is checked against its central entry at open, member data may not
 * overlap, a member's size is checked against the caller's limit and, for
 * deflate, against what its compressed bytes can expand to before its room
 * is made, and the CRC-32 is checked after reading. Every allocation goes
 * through the sv_alloc given at open (zlib's too). */
#ifndef SV_COMPRESS_ZIP_H
#define SV_COMPRESS_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"

enum { SV_ZIP_STORED = 0, SV_ZIP_DEFLATED = 8 };

typedef struct sv_zip_entry {
    const char *name; /* NUL-terminated, in the archive's name block */
    uint32_t name_len;
    uint16_t method;
    uint16_t flags;
    uint32_t crc;
    uint32_t csize, usize;
    uint64_t data_off; /* where the member's bytes start (after its local header) */
} sv_zip_entry;

typedef struct sv_zip {
    const sv_alloc *alloc;
    const char *format; /* names the format in errors */
    const uint8_t *data;
    size_t len;
    sv_zip_entry *entries;
    size_t count;
    char *names;
    size_t names_size;
} sv_zip;

/* Reads the directory of the archive in data (which must outlive z). a NULL:
 * libc. On failure z holds nothing to free. */
sv_status sv__compress_zip_open(sv_zip *z, const uint8_t *data, size_t len, const sv_alloc *a,
                                const char *format, sv_error *err);
void sv__compress_zip_close(sv_zip *z);
/* The index of the member called name: SV_OK, or SV_ERR_NOT_FOUND. */
sv_status sv__compress_zip_find(const sv_zip *z, const char *name, size_t *index);
/* Member i's bytes appended to out, at most max bytes (else SV_ERR_LIMIT). */
sv_status sv__compress_zip_read(const sv_zip *z, size_t i, uint64_t max, sv_buf *out,
                                sv_error *err);
/* Up to n (<= 64) first bytes of member i into first; *got says how many
 * (fewer when the member is shorter). The CRC is not checked. */
sv_status sv__compress_zip_head(const sv_zip *z, size_t i, uint8_t *first, size_t n, size_t *got,
                                sv_error *err);

/* The writer: members appended to out one by one, then the central
 * directory. Names are stored as given (UTF-8, flag bit 11 set when not
 * ASCII); every member gets the one DOS date and time given (0: 1980-01-01
 * 00:00, so that the same members give the same bytes). */
typedef struct sv_zip_writer {
    sv_buf *out;
    size_t start; /* out->len when the archive began */
    sv_buf dir;   /* the central directory, built as members come */
    size_t count;
    uint32_t dos_time; /* date << 16 | time, MS-DOS format */
    const char *format;
} sv_zip_writer;

void sv__compress_zip_writer_init(sv_zip_writer *w, sv_buf *out, uint32_t dos_time,
                                  const char *format);
/* method SV_ZIP_STORED or SV_ZIP_DEFLATED (at zlib's level, -1 default). */
sv_status sv__compress_zip_writer_add(sv_zip_writer *w, const char *name, const uint8_t *data,
                                      size_t len, int method, int level, sv_error *err);
/* Writes the central directory and its end record. */
sv_status sv__compress_zip_writer_finish(sv_zip_writer *w, sv_error *err);
/* Frees the writer's own memory (not out); after finish or to give up. */
void sv__compress_zip_writer_free(sv_zip_writer *w);

#endif
