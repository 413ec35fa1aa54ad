/* The lz4net chunk stream of .lz4bson payloads (spec resonite A.3.3): per
 * chunk a varint of flags (bit 0 compressed, bit 1 high compression, bits
 * 2..4 "passes" which must be 0), a varint of the chunk's original length
 * and, when compressed, a varint of the compressed length; then the bytes,
 * an LZ4 *block* or raw. No magic, no checksums, no end marker: this is not
 * the LZ4 frame format. */
#include <string.h>

#include "core/byteio.h"
#include "formats/resonite/resonite_internal.h"

enum { CHUNK_COMPRESSED = 1, CHUNK_HIGH = 2, CHUNK_PASSES = 0x1C };

/* One chunk's header at *p; false with the reason in *why. */
static bool chunk_header(const uint8_t **p, const uint8_t *end, uint64_t *flags, uint64_t *orig,
                         uint64_t *stored, const char **why)
{
    if (!sv__resonite_rs_varint(p, end, flags)) {
        *why = "a chunk's flags varint is cut off";
        return false;
    }
    if (*flags & CHUNK_PASSES) {
        *why = "a chunk has a pass count (flags bits 2..4), which lz4net refuses";
        return false;
    }
    if (!sv__resonite_rs_varint(p, end, orig)) {
        *why = "a chunk's length varint is cut off";
        return false;
    }
    *stored = *orig;
    if ((*flags & CHUNK_COMPRESSED) && !sv__resonite_rs_varint(p, end, stored)) {
        *why = "a chunk's compressed-length varint is cut off";
        return false;
    }
    return true;
}

sv_status sv__resonite_rs_lz4net_decode(const uint8_t *in, size_t len, const sv_decomp *d,
                                        sv_buf *out, sv_error *err)
{
    const uint8_t *p = in, *end = in + len;
    size_t start = out->len;
    uint64_t cap = d->max_out, total = 0;
    bool sized = false;
    if (len == 0)
        return sv_error_set(err, SV_ERR_TRUNCATED, d->format, d->base, "the LZ4 stream is empty");
    while (p < end) {
        uint64_t at = d->base + (uint64_t)(p - in);
        uint64_t flags, orig, stored;
        const char *why;
        if (!chunk_header(&p, end, &flags, &orig, &stored, &why))
            return sv_error_set(err, SV_ERR_SYNTAX, d->format, at, "%s", why);
        uint64_t data_at = d->base + (uint64_t)(p - in);
        if (stored > (uint64_t)(end - p))
            return sv_error_set(err, SV_ERR_TRUNCATED, d->format, data_at,
                                "a chunk of %llu bytes, %zu left", (unsigned long long)stored,
                                (size_t)(end - p));
        if (orig == 0) continue; /* never written; lz4net skips them */
        /* The payload's head, read from the first chunk before the chunk is
         * decompressed: a 1 GiB first chunk whose head is no BSON root costs
         * 5 bytes, not 1 GiB. */
        if (!sized && total == 0 && orig >= SV_DECOMP_HEAD && d->size_from_head) {
            uint8_t head[SV_DECOMP_HEAD];
            if (flags & CHUNK_COMPRESSED) {
                if (!sv__compress_lz4_block_head(p, (size_t)stored, head, sizeof head))
                    return sv_error_set(err, SV_ERR_SYNTAX, d->format, data_at,
                                        "invalid LZ4 block (its first bytes do not decode)");
            } else {
                memcpy(head, p, sizeof head);
            }
            uint64_t n = 0;
            sv_status st = sv__compress_decomp_head_size(d, head, 0, data_at, &n, err);
            if (st != SV_OK) return st;
            cap = n;
            sized = true;
        }
        /* Checked before any room is made: the limit, and what an LZ4 block
         * of this size can produce at all (a bomb's claim is refused here). */
        if (orig > cap - total) {
            if (sized)
                return sv_error_set(err, SV_ERR_TRAILING, d->format, at,
                                    "the chunks hold more than the %llu bytes the BSON length "
                                    "says",
                                    (unsigned long long)cap);
            return sv_error_set(err, SV_ERR_LIMIT, d->format, at,
                                "decompressed data exceeds the limit of %llu bytes",
                                (unsigned long long)cap);
        }
        if (d->max_alloc && orig > d->max_alloc - (total < d->max_alloc ? total : d->max_alloc))
            return sv_error_set(err, SV_ERR_LIMIT, d->format, at,
                                "a chunk of %llu bytes takes the payload over the allocation "
                                "limit of %llu",
                                (unsigned long long)orig, (unsigned long long)d->max_alloc);
        if (flags & CHUNK_COMPRESSED) {
            if (stored > orig)
                return sv_error_set(err, SV_ERR_SYNTAX, d->format, at,
                                    "a compressed chunk is larger than its data (lz4net "
                                    "refuses it)");
            if (orig > sv__compress_lz4_max_expansion(stored))
                return sv_error_set(err, SV_ERR_SYNTAX, d->format, at,
                                    "a chunk of %llu LZ4 bytes cannot expand to %llu",
                                    (unsigned long long)stored, (unsigned long long)orig);
            sv_decomp cd = *d;
            cd.base = data_at;
            sv_status st =
                sv__compress_lz4_block_decompress(p, (size_t)stored, (size_t)orig, &cd, out, err);
            if (st != SV_OK) return st;
        } else {
            sv_buf_append(out, p, (size_t)orig);
            if (!sv_buf_ok(out))
                return sv_error_set(err, SV_ERR_NOMEM, d->format, data_at, "out of memory");
        }
        p += stored;
        total += orig;
        if (!sized && total >= SV_DECOMP_HEAD && d->size_from_head) {
            uint64_t n = 0;
            sv_status st =
                sv__compress_decomp_head_size(d, out->data + start, total, data_at, &n, err);
            if (st != SV_OK) return st;
            cap = n;
            sized = true;
        }
    }
    if (sized && total != cap)
        return sv_error_set(err, SV_ERR_TRUNCATED, d->format, d->base + len,
                            "the chunks hold %llu bytes, the BSON length says %llu",
                            (unsigned long long)total, (unsigned long long)cap);
    return SV_OK;
}

bool sv__resonite_rs_lz4net_encode(const uint8_t *in, size_t len, sv_buf *out)
{
    /* spec A.3.3: 1 MiB chunks, HC; flags 03 when the block shrank, else 02
     * with the chunk stored raw (lz4net's EncodeHC with outputLength =
     * inputLength, and its reader refuses compressed > original). */
    sv_lz4_hc *hc = sv__compress_lz4_hc_new(out->alloc);
    if (!hc) return false;
    for (size_t off = 0; off < len; off += LZ4NET_CHUNK) {
        size_t n = len - off < LZ4NET_CHUNK ? len - off : LZ4NET_CHUNK;
        if (sv_buf_ensure(out, 3 * 5 + n) != SV_OK) break;
        /* header room: 1 + 5 + 5 bytes at most; data after it */
        uint8_t *dst = out->data + out->len + 11;
        size_t c = sv__compress_lz4_block_compress_hc(hc, in + off, n, dst, n - 1, 9);
        if (c) {
            uint8_t tmp[11];
            sv_buf hdr = {.data = tmp, .cap = sizeof tmp};
            sv__resonite_rs_put_varint(&hdr, CHUNK_COMPRESSED | CHUNK_HIGH);
            sv__resonite_rs_put_varint(&hdr, n);
            sv__resonite_rs_put_varint(&hdr, c);
            memmove(out->data + out->len + hdr.len, dst, c);
            memcpy(out->data + out->len, tmp, hdr.len);
            out->len += hdr.len + c;
        } else {
            sv__resonite_rs_put_varint(out, CHUNK_HIGH);
            sv__resonite_rs_put_varint(out, n);
            sv_buf_append(out, in + off, n);
        }
    }
    sv__compress_lz4_hc_free(hc);
    return sv_buf_ok(out);
}

bool sv__resonite_rs_lz4net_sniff(const uint8_t *in, size_t len, bool *cut)
{
    const uint8_t *p = in, *end = in + len;
    uint64_t flags, orig, stored;
    const char *why;
    if (cut) *cut = false;
    if (!chunk_header(&p, end, &flags, &orig, &stored, &why)) return false;
    if (flags > 3 || orig < 4 || orig > INT32_MAX) return false;
    /* a first chunk the input's end cuts off: a weaker sign, so only a
     * compressed one (lz4net stores a chunk raw only when LZ4 cannot
     * shrink it, never the start of a BSON document), whose start must
     * still give a BSON length */
    size_t there = (size_t)(end - p);
    bool cut_off = stored > there;
    if (cut_off && !(flags & CHUNK_COMPRESSED)) return false;
    size_t have = cut_off ? there : (size_t)stored;
    uint8_t first[4];
    if (flags & CHUNK_COMPRESSED) {
        if (stored > orig || !sv__compress_lz4_block_head(p, have, first, 4)) return false;
    } else {
        if (have < 4) return false;
        memcpy(first, p, 4);
    }
    if (sv__resonite_rs_bson_size(first) == 0) return false;
    if (cut) *cut = cut_off;
    return true;
}
