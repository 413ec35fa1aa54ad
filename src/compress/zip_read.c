/* The zip reader (zip.h says what it checks and why). Section numbers are
 * APPNOTE.TXT 6.3.10's. */
#include <stdlib.h>
#include <string.h>

#include "compress/compress.h"
#include "compress/zip.h"
#include "core/byteio.h"

#define SIG_LOCAL 0x04034b50u         /* 4.3.7 */
#define SIG_CENTRAL 0x02014b50u       /* 4.3.12 */
#define SIG_END 0x06054b50u           /* 4.3.16 */
#define SIG_ZIP64_LOCATOR 0x07064b50u /* 4.3.15 */
#define LOCAL_SIZE 30u
#define CENTRAL_SIZE 46u
#define END_SIZE 22u
#define FLAG_ENCRYPTED 0x0001u
/* Deflate's longest match codes 258 bytes in as little as 1 bit, so a
 * deflate stream expands at most ~1032 times (zlib's zlib_tech.html); a
 * member that claims more is refused before its room is made. */
#define DEFLATE_MAX_RATIO 1032u

/* 4.3.16: the end record is the last thing in the archive, followed only by
 * its comment (at most 65535 bytes); the last record whose comment length
 * reaches exactly the end of the input is the one. */
static bool find_end(const uint8_t *d, size_t len, size_t *at)
{
    if (len < END_SIZE) return false;
    size_t lowest = len - END_SIZE > 65535u ? len - END_SIZE - 65535u : 0;
    for (size_t i = len - END_SIZE + 1; i-- > lowest;) {
        if (sv__core_load_u32le(d + i) == SIG_END &&
            i + END_SIZE + sv__core_load_u16le(d + i + 20) == len) {
            *at = i;
            return true;
        }
    }
    return false;
}

static void *zalloc(const sv_alloc *a, size_t n)
{
    return n ? a->malloc(a->ctx, n) : NULL;
}

static int by_offset(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Member data may not overlap (an archive whose members share bytes makes
 * a small file expand many times over). spans: count pairs (start, end). */
static bool spans_disjoint(uint64_t *spans, size_t count)
{
    if (count < 2) return true;
    qsort(spans, count, 2 * sizeof *spans, by_offset);
    for (size_t i = 1; i < count; i++)
        if (spans[2 * i] < spans[2 * i - 1]) return false;
    return true;
}

/* The local header of e (at off) against its central entry (4.3.7, 4.4). */
static sv_status check_local(sv_zip *z, sv_zip_entry *e, uint64_t off, uint64_t dir_at,
                             sv_error *err)
{
    const uint8_t *d = z->data;
    if (off > dir_at || dir_at - off < LOCAL_SIZE || sv__core_load_u32le(d + off) != SIG_LOCAL)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, off,
                            "member %s: no local header where the central directory says", e->name);
    const uint8_t *h = d + off;
    uint64_t n = sv__core_load_u16le(h + 26), x = sv__core_load_u16le(h + 28);
    if (sv__core_load_u16le(h + 8) != e->method || n != e->name_len ||
        (dir_at - off - LOCAL_SIZE) < n || memcmp(h + LOCAL_SIZE, e->name, (size_t)n) != 0)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, off,
                            "member %s: the local header does not match the central directory",
                            e->name);
    e->data_off = off + LOCAL_SIZE + n + x;
    if (e->data_off > dir_at || dir_at - e->data_off < e->csize)
        return sv_error_set(err, SV_ERR_TRUNCATED, z->format, off,
                            "member %s: %u stored bytes do not fit before the central directory",
                            e->name, e->csize);
    return SV_OK;
}

/* One central directory entry at *p (4.3.12): fills e, copying its name to
 * *names (names_left bytes of room), and moves *p to the next entry. */
static sv_status read_central(sv_zip *z, size_t *p_io, size_t dir_end, sv_zip_entry *e,
                              char **names, size_t names_left, uint64_t *local_off, sv_error *err)
{
    const uint8_t *d = z->data;
    size_t p = *p_io;
    if (dir_end - p < CENTRAL_SIZE || sv__core_load_u32le(d + p) != SIG_CENTRAL)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, p,
                            "a central directory entry is missing");
    const uint8_t *c = d + p;
    size_t n = sv__core_load_u16le(c + 28), x = sv__core_load_u16le(c + 30),
           k = sv__core_load_u16le(c + 32);
    if (dir_end - p - CENTRAL_SIZE < n + x + k)
        return sv_error_set(err, SV_ERR_TRUNCATED, z->format, p,
                            "a central directory entry runs past the directory");
    /* The name room assumes every one of the entries the end record counts
     * takes at least CENTRAL_SIZE bytes; an entry that eats into the room of
     * those after it (a long extra field or comment) breaks that. */
    if (n + 1 > names_left)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, p,
                            "the central directory entries do not fit the directory's size");
    e->flags = sv__core_load_u16le(c + 8);
    e->method = sv__core_load_u16le(c + 10);
    e->crc = sv__core_load_u32le(c + 16);
    e->csize = sv__core_load_u32le(c + 20);
    e->usize = sv__core_load_u32le(c + 24);
    *local_off = sv__core_load_u32le(c + 42);
    if (e->csize == UINT32_MAX || e->usize == UINT32_MAX || *local_off == UINT32_MAX)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, z->format, p,
                            "zip64 members are not supported");
    if (memchr(c + CENTRAL_SIZE, 0, n))
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, p + CENTRAL_SIZE,
                            "a member name holds a 00");
    memcpy(*names, c + CENTRAL_SIZE, n);
    (*names)[n] = 0;
    e->name = *names;
    e->name_len = (uint32_t)n;
    *names += n + 1;
    *p_io = p + CENTRAL_SIZE + n + x + k;
    return SV_OK;
}

static sv_status read_directory(sv_zip *z, size_t dir_at, size_t dir_end, sv_error *err)
{
    const sv_alloc *a = z->alloc;
    /* every entry costs 46 bytes of the directory, and every name byte one:
     * the tables cannot be larger than the input justifies */
    z->entries = zalloc(a, z->count * sizeof *z->entries);
    z->names_size = dir_end - dir_at - z->count * CENTRAL_SIZE + z->count;
    z->names = zalloc(a, z->names_size);
    uint64_t *spans = zalloc(a, z->count * 2 * sizeof *spans);
    sv_status st = SV_OK;
    if (z->count && (!z->entries || !z->names || !spans)) {
        st = sv_error_set(err, SV_ERR_NOMEM, z->format, dir_at, "out of memory");
        goto done;
    }
    char *names = z->names;
    size_t p = dir_at;
    for (size_t i = 0; i < z->count; i++) {
        sv_zip_entry *e = &z->entries[i];
        uint64_t local_off = 0;
        size_t names_left = z->names_size - (size_t)(names - z->names);
        if ((st = read_central(z, &p, dir_end, e, &names, names_left, &local_off, err)) != SV_OK)
            goto done;
        if ((st = check_local(z, e, local_off, dir_at, err)) != SV_OK) goto done;
        spans[2 * i] = local_off;
        spans[2 * i + 1] = e->data_off + e->csize;
    }
    if (p != dir_end)
        st = sv_error_set(err, SV_ERR_SYNTAX, z->format, p,
                          "the central directory has bytes after its %zu entries", z->count);
    else if (!spans_disjoint(spans, z->count))
        st = sv_error_set(err, SV_ERR_SYNTAX, z->format, dir_at,
                          "two members share bytes (an overlapping archive)");
done:
    if (spans) a->free(a->ctx, spans, z->count * 2 * sizeof *spans);
    return st;
}

sv_status sv__compress_zip_open(sv_zip *z, const uint8_t *data, size_t len, const sv_alloc *a,
                                const char *format, sv_error *err)
{
    memset(z, 0, sizeof *z);
    z->alloc = a ? a : sv_alloc_libc();
    z->format = format;
    z->data = data;
    z->len = len;
    size_t end;
    if (!find_end(data, len, &end))
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, len,
                            "not a zip archive: no end of central directory record");
    const uint8_t *r = data + end;
    size_t count = sv__core_load_u16le(r + 10);
    uint64_t dir_size = sv__core_load_u32le(r + 12), dir_at = sv__core_load_u32le(r + 16);
    if (end >= 20 && sv__core_load_u32le(data + end - 20) == SIG_ZIP64_LOCATOR)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, z->format, end - 20,
                            "zip64 archives are not supported");
    if (sv__core_load_u16le(r + 4) != 0 || sv__core_load_u16le(r + 6) != 0 ||
        sv__core_load_u16le(r + 8) != count)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, z->format, end + 4,
                            "multi-disk (spanned) archives are not supported");
    if (dir_at > end || end - dir_at != dir_size)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, end + 12,
                            "the central directory's size and offset do not meet the end record");
    if (count > dir_size / CENTRAL_SIZE)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, end + 10,
                            "%zu members cannot fit in a %llu-byte central directory", count,
                            (unsigned long long)dir_size);
    z->count = count;
    sv_status st = read_directory(z, (size_t)dir_at, end, err);
    if (st != SV_OK) sv__compress_zip_close(z);
    return st;
}

void sv__compress_zip_close(sv_zip *z)
{
    const sv_alloc *a = z->alloc;
    if (z->entries) a->free(a->ctx, z->entries, z->count * sizeof *z->entries);
    if (z->names) a->free(a->ctx, z->names, z->names_size);
    z->entries = NULL;
    z->names = NULL;
    z->count = 0;
}

sv_status sv__compress_zip_find(const sv_zip *z, const char *name, size_t *index)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < z->count; i++) {
        if (z->entries[i].name_len == n && memcmp(z->entries[i].name, name, n) == 0) {
            *index = i;
            return SV_OK;
        }
    }
    return SV_ERR_NOT_FOUND;
}

/* What member i can be read as (4.4.4, 4.4.5). */
static sv_status check_readable(const sv_zip *z, const sv_zip_entry *e, sv_error *err)
{
    if (e->flags & FLAG_ENCRYPTED)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, z->format, e->data_off,
                            "member %s is encrypted", e->name);
    if (e->method == SV_ZIP_STORED && e->csize != e->usize)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, e->data_off,
                            "stored member %s has %u bytes but says %u", e->name, e->csize,
                            e->usize);
    if (e->method != SV_ZIP_STORED && e->method != SV_ZIP_DEFLATED)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, z->format, e->data_off,
                            "member %s uses compression method %u (only 0 stored and 8 "
                            "deflate are read)",
                            e->name, e->method);
    return SV_OK;
}

sv_status sv__compress_zip_read(const sv_zip *z, size_t i, uint64_t max, sv_buf *out, sv_error *err)
{
    if (i >= z->count) return sv_error_set(err, SV_ERR_NOT_FOUND, z->format, 0, "no member %zu", i);
    const sv_zip_entry *e = &z->entries[i];
    sv_status st = check_readable(z, e, err);
    if (st != SV_OK) return st;
    if (e->usize > max)
        return sv_error_set(err, SV_ERR_LIMIT, z->format, e->data_off,
                            "member %s has %u bytes, over the limit of %llu", e->name, e->usize,
                            (unsigned long long)max);
    if (e->method == SV_ZIP_DEFLATED &&
        (uint64_t)e->usize > (uint64_t)e->csize * DEFLATE_MAX_RATIO + 1)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, e->data_off,
                            "member %s: %u deflated bytes cannot expand to %u", e->name, e->csize,
                            e->usize);
    if (sv_buf_ensure(out, e->usize) != SV_OK)
        return sv_error_set(err, SV_ERR_NOMEM, z->format, e->data_off, "out of memory");
    const uint8_t *src = z->data + e->data_off;
    uint8_t none; /* an empty member into a buffer that has no memory yet */
    uint8_t *dst = out->data ? out->data + out->len : &none;
    if (e->method == SV_ZIP_STORED) {
        if (e->usize) memcpy(dst, src, e->usize);
    } else {
        size_t got;
        const char *why;
        st = sv__compress_zlib_inflate_into(src, e->csize, SV_ZLIB_RAW, dst, e->usize, z->alloc,
                                            &got, &why);
        if (st == SV_OK && got != e->usize) {
            st = SV_ERR_TRUNCATED;
            why = "it ends early";
        }
        if (st != SV_OK)
            return sv_error_set(err, st, z->format, e->data_off, "member %s: %s", e->name,
                                st == SV_ERR_LIMIT ? "it holds more bytes than it says" : why);
    }
    uint32_t crc = sv__compress_crc32(0, dst, e->usize);
    if (crc != e->crc)
        return sv_error_set(err, SV_ERR_SYNTAX, z->format, e->data_off,
                            "member %s: CRC-32 %08x, the directory says %08x", e->name, crc,
                            e->crc);
    out->len += e->usize;
    return SV_OK;
}

sv_status sv__compress_zip_head(const sv_zip *z, size_t i, uint8_t *first, size_t n, size_t *got,
                                sv_error *err)
{
    *got = 0;
    if (i >= z->count) return sv_error_set(err, SV_ERR_NOT_FOUND, z->format, 0, "no member %zu", i);
    const sv_zip_entry *e = &z->entries[i];
    sv_status st = check_readable(z, e, err);
    if (st != SV_OK) return st;
    if (n > e->usize) n = e->usize;
    const uint8_t *src = z->data + e->data_off;
    if (e->method == SV_ZIP_STORED) {
        memcpy(first, src, n);
        *got = n;
        return SV_OK;
    }
    const char *why;
    st = sv__compress_zlib_inflate_into(src, e->csize, SV_ZLIB_RAW, first, n, z->alloc, got, &why);
    if (st == SV_ERR_LIMIT || (st == SV_OK && *got == n)) return SV_OK; /* there is more */
    if (st == SV_OK) {
        st = SV_ERR_TRUNCATED;
        why = "it ends early";
    }
    return sv_error_set(err, st, z->format, e->data_off, "member %s: %s", e->name, why);
}
