/* The data tree container: the optional FrDT header, the choice of
 * decompressor, and back (spec resonite A.2). */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "formats/resonite/resonite_internal.h"
#include "formats/resonite/resonite_opts.h"

static const uint8_t frdt_magic[4] = {'F', 'r', 'D', 'T'};

bool sv__resonite_rs_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    const uint8_t *q = *p;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (q >= end) return false;
        uint8_t b = *q++;
        if (shift == 63 && b > 1) return false; /* past 64 bits */
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return true;
        }
    }
    return false;
}

void sv__resonite_rs_put_varint(sv_buf *b, uint64_t v)
{
    while (v >= 0x80) {
        sv_buf_putc(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    sv_buf_putc(b, (uint8_t)v);
}

uint64_t sv__resonite_rs_bson_size(const uint8_t *first4)
{
    uint32_t n = sv__core_load_u32le(first4);
    return n >= 5 && n <= INT32_MAX ? n : 0;
}

uint64_t sv__resonite_rs_bson_head(const uint8_t *head, const char **why)
{
    uint64_t n = sv__resonite_rs_bson_size(head);
    if (n == 0) {
        *why = "the decompressed payload does not start with a plausible BSON document length";
        return 0;
    }
    /* what the BSON reader accepts at byte 4: an element type, or the end
     * of the document when it is the empty one */
    uint8_t t = head[4];
    if (t == 0 && n != 5) {
        *why = "the decompressed BSON document ends at byte 4, but its length says more";
        return 0;
    }
    if (t != 0 && !((t >= 0x01 && t <= 0x13) || t == 0x7F || t == 0xFF)) {
        *why = "the decompressed BSON document's first element has an unknown type (byte 4)";
        return 0;
    }
    return n;
}

const char *sv_resonite_compression_name(sv_resonite_compression c)
{
    switch (c) {
    case SV_RESONITE_NONE: return "none";
    case SV_RESONITE_LZ4: return "lz4";
    case SV_RESONITE_LZMA: return "lzma";
    case SV_RESONITE_BROTLI: return "brotli";
    default: return "";
    }
}

bool sv_resonite_compression_parse(const char *s, sv_resonite_compression *out)
{
    if (!s) return false;
    if (!strcmp(s, "brotli") || !strcmp(s, "brson"))
        *out = SV_RESONITE_BROTLI;
    else if (!strcmp(s, "lzma") || !strcmp(s, "7zbson"))
        *out = SV_RESONITE_LZMA;
    else if (!strcmp(s, "lz4") || !strcmp(s, "lz4bson"))
        *out = SV_RESONITE_LZ4;
    else if (!strcmp(s, "auto"))
        *out = SV_RESONITE_AUTO;
    else
        return false;
    return true;
}

void sv__resonite_rs_note_bson_error(sv_error *err)
{
    if (!err || err->status == SV_OK) return;
    char msg[SV_ERROR_MSG_MAX + 32];
    snprintf(msg, sizeof msg, "in the decompressed BSON: %s", err->message);
    memcpy(err->message, msg, SV_ERROR_MSG_MAX - 1);
    err->message[SV_ERROR_MSG_MAX - 1] = 0;
}

/* spec A.2.2: without a header, Resonite goes by the extension; serval has
 * only the bytes (or the compression option), so it tells the three
 * payloads apart by what each must start with. */
static sv_status sniff_legacy(const uint8_t *data, size_t len, const sv_alloc *a,
                              sv_resonite_compression *out)
{
    *out = SV_RESONITE_NONE;
    /* a cut-off payload counts: its decoder then says where it ends */
    if (sv__resonite_rs_lzma_sniff(data, len, NULL)) {
        *out = SV_RESONITE_LZMA;
    } else if (sv__resonite_rs_lz4net_sniff(data, len, NULL)) {
        *out = SV_RESONITE_LZ4;
    } else {
        sv_status st = sv__resonite_rs_brotli_sniff(data, len, a);
        if (st == SV_ERR_NOMEM) return st;
        if (st == SV_OK) *out = SV_RESONITE_BROTLI;
    }
    return SV_OK;
}

sv_status sv__resonite_rs_container(const uint8_t *data, size_t len, const sv_resonite_opts *opts,
                                    const sv_alloc *a, sv_resonite_container *out, size_t *off_out,
                                    sv_error *err)
{
    sv_resonite_container c = {SV_RESONITE_FRAMING_LEGACY, SV_RESONITE_NONE};
    size_t off = 0;
    if (len >= 4 && memcmp(data, frdt_magic, 4) == 0) {
        /* spec A.2.1: magic, int32 version (0), varint compression */
        if (len < 8)
            return sv_error_set(err, SV_ERR_TRUNCATED, RESONITE_FORMAT, len,
                                "the FrDT header needs a 4-byte version after the magic");
        int32_t version = (int32_t)sv__core_load_u32le(data + 4);
        if (version != 0)
            return sv_error_set(err, SV_ERR_UNSUPPORTED, RESONITE_FORMAT, 4,
                                "FrDT version %d; only version 0 exists", version);
        const uint8_t *p = data + 8;
        uint64_t kind;
        if (!sv__resonite_rs_varint(&p, data + len, &kind))
            return sv_error_set(err, SV_ERR_TRUNCATED, RESONITE_FORMAT, 8,
                                "the FrDT header's compression varint is cut off or too long");
        if (kind == SV_RESONITE_NONE)
            return sv_error_set(err, SV_ERR_UNSUPPORTED, RESONITE_FORMAT, 8,
                                "compression 0 (none) is refused, as Resonite refuses it");
        if (kind > SV_RESONITE_BROTLI)
            return sv_error_set(err, SV_ERR_UNSUPPORTED, RESONITE_FORMAT, 8,
                                "unknown compression %llu (1 LZ4, 2 LZMA, 3 Brotli)",
                                (unsigned long long)kind);
        if (opts->compression != SV_RESONITE_AUTO && (int)kind != (int)opts->compression)
            return sv_error_set(err, SV_ERR_SYNTAX, RESONITE_FORMAT, 8,
                                "expected %s compression, but the header says %s",
                                sv_resonite_compression_name(opts->compression),
                                sv_resonite_compression_name((sv_resonite_compression)kind));
        c.framing = SV_RESONITE_FRAMING_HEADER;
        c.compression = (sv_resonite_compression)kind;
        off = (size_t)(p - data);
    } else {
        c.compression = opts->compression;
        if (c.compression == SV_RESONITE_AUTO &&
            sniff_legacy(data, len, a, &c.compression) != SV_OK)
            return sv_error_set(err, SV_ERR_NOMEM, RESONITE_FORMAT, 0, "out of memory");
        if (c.compression == SV_RESONITE_NONE)
            return sv_error_set(err, SV_ERR_SYNTAX, RESONITE_FORMAT, 0,
                                "no FrDT header, and not a legacy LZMA, LZ4 or Brotli data "
                                "tree (name it with -I container=brotli|lzma|lz4)");
    }
    *out = c;
    *off_out = off;
    return SV_OK;
}

sv_status sv_resonite_unwrap(const uint8_t *data, size_t len, const sv_resonite_opts *opts,
                             sv_buf *bson, sv_resonite_container *info, sv_error *err)
{
    sv_resonite_opts o;
    sv_status ost = sv__resonite_rs_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    opts = &o;
    sv_limits lim = sv_limits_resolve(&opts->limits);
    sv_resonite_container c = {SV_RESONITE_FRAMING_AUTO, SV_RESONITE_AUTO};
    size_t off = 0; /* gcc 12 -O3 cannot see sv__resonite_rs_container set it */
    sv_status hst = sv__resonite_rs_container(data, len, opts, bson->alloc, &c, &off, err);
    if (hst != SV_OK) return hst;
    sv_decomp d = {.max_out = lim.max_decompressed,
                   .format = RESONITE_FORMAT,
                   .base = off,
                   .size_from_head = sv__resonite_rs_bson_head,
                   .max_alloc = lim.max_alloc};
    const uint8_t *in = data + off;
    size_t n = len - off;
    sv_status st;
    switch (c.compression) {
    case SV_RESONITE_BROTLI: st = sv__compress_brotli_decompress(in, n, &d, bson, err); break;
    case SV_RESONITE_LZMA: st = sv__resonite_rs_lzma_decode(in, n, &d, bson, err); break;
    case SV_RESONITE_LZ4: st = sv__resonite_rs_lz4net_decode(in, n, &d, bson, err); break;
    default: st = sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0, "no compression chosen");
    }
    if (st == SV_OK && info) *info = c;
    return st;
}

void sv__resonite_rs_brotli_params(const sv_resonite_opts *o, int *quality, int *window)
{
    /* 0 = Resonite's quality 9; an explicit quality 0 arrives as -1 */
    int q = o->brotli_quality ? o->brotli_quality : 9;
    *quality = q < 0 ? 0 : q;
    *window = o->brotli_window ? o->brotli_window : 16;
}

void sv__resonite_rs_put_header(sv_buf *out, const sv_resonite_container *c)
{
    if (c->framing == SV_RESONITE_FRAMING_LEGACY) return;
    /* spec A.2.1: writers emit exactly these 9 bytes */
    sv_buf_append(out, frdt_magic, 4);
    sv_put_u32le(out, 0);
    sv__resonite_rs_put_varint(out, (uint64_t)c->compression);
}

sv_status sv_resonite_wrap(const uint8_t *bson, size_t len, const sv_resonite_container *c,
                           const sv_resonite_opts *opts, sv_buf *out, sv_error *err)
{
    sv_resonite_opts o;
    sv_status ost = sv__resonite_rs_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    int q, w;
    sv__resonite_rs_brotli_params(&o, &q, &w);
    sv__resonite_rs_put_header(out, c);
    bool ok;
    switch (c->compression) {
    case SV_RESONITE_BROTLI: ok = sv__compress_brotli_compress(bson, len, q, w, out); break;
    case SV_RESONITE_LZMA: ok = sv__resonite_rs_lzma_encode(bson, len, out); break;
    case SV_RESONITE_LZ4: ok = sv__resonite_rs_lz4net_encode(bson, len, out); break;
    default:
        return sv_error_set(err, SV_ERR_USAGE, RESONITE_FORMAT, 0,
                            "compression %d cannot be written (1 LZ4, 2 LZMA, 3 Brotli)",
                            (int)c->compression);
    }
    if (!ok || !sv_buf_ok(out))
        return sv_error_set(err, SV_ERR_NOMEM, RESONITE_FORMAT, 0,
                            "%s compression failed (out of memory)",
                            sv_resonite_compression_name(c->compression));
    return SV_OK;
}
