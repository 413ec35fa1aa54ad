/* zlib through Debian's zlib1g (see zlib_adapter.h). */
#include "compress/zlib_adapter.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "compress/codec_alloc.h"

#define FIRST_ROOM (64u * 1024u)

/* zlib counts in uInt: feed it at most this much at a time. */
#define ZCHUNK ((size_t)UINT_MAX)

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    if (size && items > SIZE_MAX / size) return Z_NULL;
    return sv__compress_codec_malloc(opaque, (size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
    sv__compress_codec_free(opaque, p);
}

/* The one z_stream set-up: the caller's allocator (libc when a is NULL). */
static void z_init(z_stream *z, const sv_alloc *a)
{
    memset(z, 0, sizeof *z);
    z->zalloc = z_alloc;
    z->zfree = z_free;
    z->opaque = (voidpf)sv__compress_codec_alloc_or_libc(a);
}

/* zlib's windowBits: negative means raw deflate; 15 is a 32 KiB window. */
static int window_bits(sv_zlib_wrap wrap)
{
    return wrap == SV_ZLIB_RAW ? -MAX_WBITS : wrap == SV_ZLIB_GZIP ? MAX_WBITS + 16 : MAX_WBITS;
}

static const char *stream_name(sv_zlib_wrap wrap)
{
    return wrap == SV_ZLIB_RAW ? "deflate" : wrap == SV_ZLIB_GZIP ? "gzip" : "zlib";
}

uint32_t sv__compress_crc32(uint32_t crc, const uint8_t *p, size_t n)
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

sv_status sv__compress_zlib_inflate_into(const uint8_t *in, size_t len, sv_zlib_wrap wrap,
                                         uint8_t *dst, size_t cap, const sv_alloc *a,
                                         size_t *produced, const char **why)
{
    *produced = 0;
    *why = "";
    if (len > UINT_MAX || cap > UINT_MAX) {
        *why = wrap == SV_ZLIB_RAW ? "a deflate stream over 4 GiB" : "a zlib stream over 4 GiB";
        return SV_ERR_LIMIT;
    }
    z_stream z;
    z_init(&z, a);
    int r = inflateInit2(&z, window_bits(wrap));
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
            *why = wrap == SV_ZLIB_RAW
                       ? "the deflate stream holds more bytes than there is room for"
                       : "the zlib stream holds more bytes than there is room for";
        }
    }
    if (st == SV_OK) {
        switch (r) {
        case Z_STREAM_END:
            if (z.avail_in) {
                st = SV_ERR_TRAILING;
                *why = wrap == SV_ZLIB_RAW ? "bytes after the end of the deflate stream"
                                           : "bytes after the end of the zlib stream";
            }
            break;
        case Z_MEM_ERROR:
            st = SV_ERR_NOMEM;
            *why = "out of memory";
            break;
        case Z_BUF_ERROR:
            st = SV_ERR_TRUNCATED;
            *why = wrap == SV_ZLIB_RAW ? "the deflate stream ends too early"
                                       : "the zlib stream ends too early";
            break;
        default:
            st = SV_ERR_SYNTAX;
            *why = z.msg ? z.msg
                         : (wrap == SV_ZLIB_RAW ? "invalid deflate data" : "invalid zlib data");
        }
    }
    inflateEnd(&z);
    return st;
}

sv_status sv__compress_zlib_inflate_exact(const uint8_t *in, size_t len, sv_zlib_wrap wrap,
                                          uint64_t size, uint64_t max_out, const char *format,
                                          uint64_t base, sv_buf *out, sv_error *err)
{
    const char *name = stream_name(wrap);
    if (size > max_out)
        return sv_error_set(err, SV_ERR_LIMIT, format, base,
                            "the %s payload says it inflates to %llu bytes, over the "
                            "decompressed-size limit of %llu",
                            name, (unsigned long long)size, (unsigned long long)max_out);
    z_stream z;
    z_init(&z, out->alloc);
    int r0 = inflateInit2(&z, window_bits(wrap));
    if (r0 != Z_OK) return sv_error_set(err, SV_ERR_NOMEM, format, base, "out of memory");
    size_t start = out->len;
    size_t in_left = len;
    const uint8_t *next_in = in;
    sv_status st = SV_OK;
    uint8_t probe;
    for (;;) {
        uint64_t have = out->len - start;
        size_t room = 0;
        if (have < size) {
            uint64_t want = have < FIRST_ROOM ? FIRST_ROOM : have;
            if (want > size - have) want = size - have;
            if (want > ZCHUNK) want = ZCHUNK;
            if (sv_buf_ensure(out, (size_t)want) != SV_OK) {
                st = sv_error_set(err, SV_ERR_NOMEM, format, base + (len - in_left),
                                  "out of memory");
                break;
            }
            room = (size_t)want;
        }
        /* With the stated size reached, a 1-byte scratch tells whether the
         * stream wants to write more. */
        z.next_out = room ? out->data + out->len : &probe;
        z.avail_out = room ? (uInt)room : 1u;
        if (!z.avail_in) {
            z.next_in = (Bytef *)(uintptr_t)next_in;
            z.avail_in = (uInt)(in_left > ZCHUNK ? ZCHUNK : in_left);
            next_in += z.avail_in;
            in_left -= z.avail_in;
        }
        uInt before = z.avail_out;
        int r = inflate(&z, Z_NO_FLUSH);
        uint64_t at = base + (uint64_t)(len - in_left - z.avail_in);
        if (!room && z.avail_out != before) {
            st = sv_error_set(err, size == max_out ? SV_ERR_LIMIT : SV_ERR_SYNTAX, format, at,
                              "the %s payload inflates to more than the %llu bytes it states", name,
                              (unsigned long long)size);
            break;
        }
        if (room) out->len += before - z.avail_out;
        if (r == Z_STREAM_END) {
            if (z.avail_in || in_left)
                st = sv_error_set(err, SV_ERR_TRAILING, format, at,
                                  "%llu bytes after the end of the %s stream",
                                  (unsigned long long)(z.avail_in + in_left), name);
            else if (out->len - start != size)
                st = sv_error_set(err, SV_ERR_SYNTAX, format, at,
                                  "the %s payload inflates to %llu bytes, it states %llu", name,
                                  (unsigned long long)(out->len - start), (unsigned long long)size);
            break;
        }
        if (r == Z_NEED_DICT || r == Z_DATA_ERROR) {
            st = sv_error_set(err, SV_ERR_SYNTAX, format, at, "invalid %s stream: %s", name,
                              z.msg ? z.msg : "bad data");
            break;
        }
        if (r == Z_MEM_ERROR) {
            st = sv_error_set(err, SV_ERR_NOMEM, format, at, "out of memory");
            break;
        }
        if (r == Z_BUF_ERROR && !z.avail_in && !in_left) {
            st = sv_error_set(err, SV_ERR_TRUNCATED, format, at, "the %s stream ends too early",
                              name);
            break;
        }
    }
    inflateEnd(&z);
    if (st != SV_OK) out->len = start;
    return st;
}

bool sv__compress_zlib_deflate(const uint8_t *in, size_t len, int level, sv_zlib_wrap wrap,
                               sv_buf *out)
{
    if (len > UINT_MAX) return false;
    z_stream z;
    z_init(&z, out->alloc);
    /* memLevel 8 and the default strategy: what zlib's compress2 uses */
    if (deflateInit2(&z, level, Z_DEFLATED, window_bits(wrap), 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
    uLong bound = deflateBound(&z, (uLong)len);
    bool ok = bound <= UINT_MAX && sv_buf_ensure(out, (size_t)bound) == SV_OK;
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
