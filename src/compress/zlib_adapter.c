/* zlib through Debian's zlib1g (see zlib_adapter.h). */
#include "compress/zlib_adapter.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

#define FIRST_ROOM (64u * 1024u)

/* zlib counts in uInt: feed it at most this much at a time. */
#define ZCHUNK ((size_t)UINT_MAX)

sv_status sv_zlib_inflate_exact(const uint8_t *in, size_t len, uint64_t size, uint64_t max_out,
                                const char *format, uint64_t base, sv_buf *out, sv_error *err)
{
    if (size > max_out)
        return sv_error_set(err, SV_ERR_LIMIT, format, base,
                            "the zlib payload says it inflates to %llu bytes, over the "
                            "decompressed-size limit of %llu",
                            (unsigned long long)size, (unsigned long long)max_out);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return sv_error_set(err, SV_ERR_NOMEM, format, base, "out of memory");
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
            if (!sv_buf_reserve(out, (size_t)want)) {
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
            z.next_in = (Bytef *)next_in;
            z.avail_in = (uInt)(in_left > ZCHUNK ? ZCHUNK : in_left);
            next_in += z.avail_in;
            in_left -= z.avail_in;
        }
        uInt before = z.avail_out;
        int r = inflate(&z, Z_NO_FLUSH);
        uint64_t at = base + (uint64_t)(len - in_left - z.avail_in);
        if (!room && z.avail_out != before) {
            st = sv_error_set(err, size == max_out ? SV_ERR_LIMIT : SV_ERR_SYNTAX, format, at,
                              "the zlib payload inflates to more than the %llu bytes it states",
                              (unsigned long long)size);
            break;
        }
        if (room) out->len += before - z.avail_out;
        if (r == Z_STREAM_END) {
            if (z.avail_in || in_left)
                st = sv_error_set(err, SV_ERR_TRAILING, format, at,
                                  "%llu bytes after the end of the zlib stream",
                                  (unsigned long long)(z.avail_in + in_left));
            else if (out->len - start != size)
                st = sv_error_set(err, SV_ERR_SYNTAX, format, at,
                                  "the zlib payload inflates to %llu bytes, it states %llu",
                                  (unsigned long long)(out->len - start),
                                  (unsigned long long)size);
            break;
        }
        if (r == Z_NEED_DICT || r == Z_DATA_ERROR) {
            st = sv_error_set(err, SV_ERR_SYNTAX, format, at, "invalid zlib stream: %s",
                              z.msg ? z.msg : "bad data");
            break;
        }
        if (r == Z_MEM_ERROR) {
            st = sv_error_set(err, SV_ERR_NOMEM, format, at, "out of memory");
            break;
        }
        if (r == Z_BUF_ERROR && !z.avail_in && !in_left) {
            st = sv_error_set(err, SV_ERR_TRUNCATED, format, at, "the zlib stream ends too early");
            break;
        }
    }
    inflateEnd(&z);
    if (st != SV_OK) out->len = start;
    return st;
}

bool sv_zlib_deflate(const uint8_t *in, size_t len, int level, sv_buf *out)
{
    if (len > ZCHUNK / 2) return false;
    uLong bound = compressBound((uLong)len);
    if (!sv_buf_reserve(out, bound)) return false;
    uLongf n = bound;
    if (compress2(out->data + out->len, &n, in, (uLong)len, level) != Z_OK) return false;
    out->len += n;
    return true;
}
