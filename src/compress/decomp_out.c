/* Output room for the decompressors: grows with the output, never past the
 * limit (compress.h says why). */
#include "compress/decomp_out.h"

#define FIRST_ROOM (64u * 1024u)

void sv__compress_decomp_out_init(sv_decomp_out *o, sv_buf *buf, const sv_decomp *d)
{
    o->buf = buf;
    o->start = buf->len;
    o->cap = d->max_out;
    o->exact = false;
    o->prefix_seen = d->size_from_head == NULL;
}

size_t sv__compress_decomp_out_room(sv_decomp_out *o, const sv_decomp *d, sv_status *st)
{
    (void)d;
    uint64_t have = sv__compress_decomp_out_len(o);
    if (have >= o->cap) return 0;
    uint64_t want = have < FIRST_ROOM ? FIRST_ROOM : have; /* doubling */
    if (!o->prefix_seen && want > 4096) want = 4096;       /* until the size is known */
    if (want > o->cap - have) want = o->cap - have;
    if (want > SIZE_MAX / 4) want = SIZE_MAX / 4;
    size_t free_now = o->buf->cap - o->buf->len;
    if (free_now >= want) return free_now < o->cap - have ? free_now : (size_t)(o->cap - have);
    if (sv_buf_ensure(o->buf, (size_t)want) != SV_OK) {
        *st = SV_ERR_NOMEM;
        return SIZE_MAX;
    }
    free_now = o->buf->cap - o->buf->len;
    return free_now < o->cap - have ? free_now : (size_t)(o->cap - have);
}

sv_status sv__compress_decomp_declared(const sv_decomp *d, uint64_t size, uint64_t at,
                                       const char *what, sv_error *err)
{
    if (size > d->max_out)
        return sv_error_set(err, SV_ERR_LIMIT, d->format, at,
                            "%s says %llu bytes, over the decompressed-size limit of %llu", what,
                            (unsigned long long)size, (unsigned long long)d->max_out);
    if (d->max_alloc && size > d->max_alloc)
        return sv_error_set(err, SV_ERR_LIMIT, d->format, at,
                            "%s says %llu bytes, over the allocation limit of %llu", what,
                            (unsigned long long)size, (unsigned long long)d->max_alloc);
    return SV_OK;
}

sv_status sv__compress_decomp_head_size(const sv_decomp *d, const uint8_t *head, uint64_t have,
                                        uint64_t at, uint64_t *size, sv_error *err)
{
    const char *why = "the decompressed payload cannot start this way";
    uint64_t n = d->size_from_head(head, &why);
    if (n == 0) return sv_error_set(err, SV_ERR_SYNTAX, d->format, at, "%s", why);
    sv_status st = sv__compress_decomp_declared(d, n, at, "the payload's BSON length", err);
    if (st != SV_OK) return st;
    if (have > n)
        return sv_error_set(err, SV_ERR_TRAILING, d->format, at,
                            "the decompressed payload is longer than the %llu bytes its BSON "
                            "length says",
                            (unsigned long long)n);
    *size = n;
    return SV_OK;
}

sv_status sv__compress_decomp_out_check(sv_decomp_out *o, const sv_decomp *d, uint64_t at,
                                        sv_error *err)
{
    if (o->prefix_seen || sv__compress_decomp_out_len(o) < SV_DECOMP_HEAD) return SV_OK;
    o->prefix_seen = true;
    uint64_t n = 0;
    sv_status st = sv__compress_decomp_head_size(d, o->buf->data + o->start,
                                                 sv__compress_decomp_out_len(o), at, &n, err);
    if (st != SV_OK) return st;
    /* a cap below the limit is a size the container declared (LZMA's) */
    if (n > o->cap)
        return sv_error_set(err, SV_ERR_SYNTAX, d->format, at,
                            "the payload's BSON length says %llu bytes, more than the %llu its "
                            "container declares",
                            (unsigned long long)n, (unsigned long long)o->cap);
    o->cap = n;
    o->exact = true;
    return SV_OK;
}

sv_status sv__compress_decomp_out_over(const sv_decomp_out *o, const sv_decomp *d, uint64_t at,
                                       sv_error *err)
{
    if (o->exact)
        return sv_error_set(err, SV_ERR_TRAILING, d->format, at,
                            "the decompressed payload is longer than the %llu bytes its BSON "
                            "length says",
                            (unsigned long long)o->cap);
    return sv_error_set(err, SV_ERR_LIMIT, d->format, at,
                        "decompressed data exceeds the limit of %llu bytes",
                        (unsigned long long)o->cap);
}
