/* Raw deflate (RFC 1951) and CRC-32 through zlib, for zip members. zlib's
 * zalloc/zfree get the caller's sv_alloc (codec_alloc.h); zip sizes are
 * 32-bit (no zip64), which is also zlib's uInt. */
#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "compress/codec_alloc.h"
#include "compress/compress.h"

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    if (size && items > SIZE_MAX / size) return Z_NULL;
    return sv_codec_malloc(opaque, (size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
    sv_codec_free(opaque, p);
}

static void z_init(z_stream *z, const sv_alloc *a)
{
    memset(z, 0, sizeof *z);
    z->zalloc = z_alloc;
    z->zfree = z_free;
    z->opaque = (voidpf)sv_codec_alloc_or_libc(a);
}

uint32_t sv_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
    uLong c = crc;
    while (n) {
        uInt step = n > UINT_MAX ? UINT_MAX : (uInt)n;
        c = crc32(c, p, step);
        p += step;
        n -= step;
    }
    return (uint32_t)c;
}

sv_status sv_inflate_raw(const uint8_t *in, size_t len, uint8_t *dst, size_t cap, const sv_alloc *a,
                         size_t *produced, const char **why)
{
    *produced = 0;
    *why = "";
    if (len > UINT_MAX || cap > UINT_MAX) {
        *why = "a deflate stream over 4 GiB";
        return SV_ERR_LIMIT;
    }
    z_stream z;
    z_init(&z, a);
    int r = inflateInit2(&z, -MAX_WBITS); /* raw: no zlib header, 32 KiB window */
    if (r != Z_OK) {
        *why = "out of memory";
        return r == Z_MEM_ERROR ? SV_ERR_NOMEM : SV_ERR_SYNTAX;
    }
    z.next_in = (Bytef *)(uintptr_t)in; /* zlib does not write through next_in */
    z.avail_in = (uInt)len;
    z.next_out = dst;
    z.avail_out = (uInt)cap;
    r = inflate(&z, Z_FINISH);
    *produced = cap - z.avail_out;
    sv_status st = SV_OK;
    if (r == Z_BUF_ERROR && z.avail_out == 0) {
        /* dst is full: does the stream end here, or want more room? */
        uint8_t probe;
        z.next_out = &probe;
        z.avail_out = 1;
        r = inflate(&z, Z_FINISH);
        if (z.avail_out == 0) {
            st = SV_ERR_LIMIT;
            *why = "the deflate stream holds more bytes than there is room for";
        }
    }
    if (st == SV_OK) {
        switch (r) {
        case Z_STREAM_END:
            if (z.avail_in) {
                st = SV_ERR_TRAILING;
                *why = "bytes after the end of the deflate stream";
            }
            break;
        case Z_MEM_ERROR:
            st = SV_ERR_NOMEM;
            *why = "out of memory";
            break;
        case Z_BUF_ERROR:
            st = SV_ERR_TRUNCATED;
            *why = "the deflate stream ends too early";
            break;
        default: st = SV_ERR_SYNTAX; *why = z.msg ? z.msg : "invalid deflate data";
        }
    }
    inflateEnd(&z);
    return st;
}

bool sv_deflate_raw(const uint8_t *in, size_t len, int level, sv_buf *out)
{
    if (len > UINT_MAX) return false;
    z_stream z;
    z_init(&z, out->alloc);
    if (deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
    uLong bound = deflateBound(&z, (uLong)len);
    bool ok = bound <= UINT_MAX && sv_buf_reserve(out, (size_t)bound);
    if (ok) {
        z.next_in = (Bytef *)(uintptr_t)in;
        z.avail_in = (uInt)len;
        z.next_out = out->data + out->len;
        z.avail_out = (uInt)bound;
        ok = deflate(&z, Z_FINISH) == Z_STREAM_END;
        if (ok) out->len += (size_t)z.total_out;
    }
    deflateEnd(&z);
    return ok;
}
