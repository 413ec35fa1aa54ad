/* Raw LZMA1 through Debian's liblzma (spec resonite A.3.2: the .7zbson
 * payload is the 7-Zip SDK layout around a raw LZMA1 stream; the container
 * itself is parsed in src/formats/resonite/). */
#include <lzma.h>
#include <string.h>

#include "compress/codec_alloc.h"
#include "compress/compress.h"
#include "compress/decomp_out.h"

/* LZMA1 property byte limits: (pb * 5 + lp) * 9 + lc with lc <= 8, lp <= 4,
 * pb <= 4. */
#define LZMA_PROPS_MAX 224

/* liblzma's allocator hooks onto an sv_alloc (codec_alloc.h). */
static void *lzma_alloc_fn(void *opaque, size_t nmemb, size_t size)
{
    if (size && nmemb > SIZE_MAX / size) return NULL;
    return sv__compress_codec_malloc(opaque, nmemb * size);
}

static void lzma_free_fn(void *opaque, void *p)
{
    sv__compress_codec_free(opaque, p);
}

static lzma_allocator allocator_for(const sv_alloc *a)
{
    lzma_allocator la = {lzma_alloc_fn, lzma_free_fn, (void *)sv__compress_codec_alloc_or_libc(a)};
    return la;
}

sv_status sv__compress_lzma_raw_decompress(const uint8_t props[5], const uint8_t *in, size_t len,
                                           uint64_t usize, const sv_decomp *d, sv_buf *out,
                                           size_t *consumed, sv_error *err)
{
    *consumed = 0;
    if (props[0] > LZMA_PROPS_MAX)
        return sv_error_set(err, SV_ERR_SYNTAX, d->format, d->base,
                            "invalid LZMA properties byte 0x%02x", props[0]);
    lzma_options_lzma opt;
    memset(&opt, 0, sizeof opt);
    unsigned pbyte = props[0];
    opt.lc = pbyte % 9;
    pbyte /= 9;
    opt.lp = pbyte % 5;
    opt.pb = pbyte / 5;
    uint32_t dict = (uint32_t)props[1] | (uint32_t)props[2] << 8 | (uint32_t)props[3] << 16 |
                    (uint32_t)props[4] << 24;
    /* A dictionary larger than the whole output is never used past the
     * output's size, so it is clamped: a hostile header asking for 4 GiB of
     * dictionary costs no more than the output it really has. */
    if ((uint64_t)dict > usize) dict = (uint32_t)usize;
    if (dict < LZMA_DICT_SIZE_MIN) dict = LZMA_DICT_SIZE_MIN;
    opt.dict_size = dict;
    if (opt.lc + opt.lp > LZMA_LCLP_MAX)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, d->format, d->base,
                            "LZMA properties lc=%u lp=%u are beyond what liblzma decodes", opt.lc,
                            opt.lp);
    /* spec A.3.2: the size is known and the SDK stops after it; liblzma's
     * LZMA1EXT filter takes the size and allows an end marker after it. */
    opt.ext_flags = LZMA_LZMA1EXT_ALLOW_EOPM;
    opt.ext_size_low = (uint32_t)usize;
    opt.ext_size_high = (uint32_t)(usize >> 32);
    lzma_filter filters[2] = {{.id = LZMA_FILTER_LZMA1EXT, .options = &opt},
                              {.id = LZMA_VLI_UNKNOWN, .options = NULL}};
    lzma_allocator la = allocator_for(out->alloc);
    lzma_stream s = LZMA_STREAM_INIT;
    s.allocator = &la;
    lzma_ret started = lzma_raw_decoder(&s, filters);
    if (started != LZMA_OK) {
        lzma_end(&s);
        return sv_error_set(err, started == LZMA_MEM_ERROR ? SV_ERR_NOMEM : SV_ERR_UNSUPPORTED,
                            d->format, d->base, "cannot start the LZMA decoder%s",
                            started == LZMA_MEM_ERROR ? " (out of memory)" : "");
    }
    sv_decomp_out o;
    sv__compress_decomp_out_init(&o, out, d);
    if (usize < o.cap) o.cap = usize; /* liblzma stops there too */
    sv_status st = SV_OK;
    s.next_in = in;
    s.avail_in = len;
    for (;;) {
        uint64_t at = d->base + (uint64_t)(len - s.avail_in);
        size_t room = sv__compress_decomp_out_room(&o, d, &st);
        if (room == SIZE_MAX) {
            st = sv_error_set(err, st, d->format, at, "out of memory");
            break;
        }
        if (room == 0) {
            /* The cap is reached; usize says more is coming. */
            st = sv__compress_decomp_out_over(&o, d, at, err);
            break;
        }
        s.next_out = out->data + out->len;
        s.avail_out = room;
        lzma_ret r = lzma_code(&s, LZMA_FINISH);
        out->len += room - s.avail_out;
        at = d->base + (uint64_t)(len - s.avail_in);
        if ((st = sv__compress_decomp_out_check(&o, d, at, err)) != SV_OK) break;
        if (r == LZMA_STREAM_END) break;
        if (r == LZMA_OK) continue;
        if (r == LZMA_BUF_ERROR)
            st = sv_error_set(err, SV_ERR_TRUNCATED, d->format, at,
                              "the LZMA stream ends after %llu of its %llu bytes",
                              (unsigned long long)sv__compress_decomp_out_len(&o),
                              (unsigned long long)usize);
        else if (r == LZMA_MEM_ERROR)
            st = sv_error_set(err, SV_ERR_NOMEM, d->format, at, "out of memory");
        else
            st = sv_error_set(err, SV_ERR_SYNTAX, d->format, at, "invalid LZMA data");
        break;
    }
    if (st == SV_OK && o.exact && sv__compress_decomp_out_len(&o) != o.cap)
        st = sv_error_set(err, SV_ERR_SYNTAX, d->format, d->base,
                          "the LZMA size field says %llu bytes, the BSON length %llu",
                          (unsigned long long)sv__compress_decomp_out_len(&o),
                          (unsigned long long)o.cap);
    *consumed = len - s.avail_in;
    lzma_end(&s);
    return st;
}

bool sv__compress_lzma_raw_compress(const uint8_t *in, size_t len, uint32_t dict_size, unsigned lc,
                                    unsigned lp, unsigned pb, unsigned nice_len, uint8_t props[5],
                                    sv_buf *out)
{
    lzma_options_lzma opt;
    if (lzma_lzma_preset(&opt, 6)) return false;
    opt.dict_size = dict_size;
    opt.lc = lc;
    opt.lp = lp;
    opt.pb = pb;
    opt.nice_len = nice_len;
    opt.mf = LZMA_MF_BT4;
    opt.mode = LZMA_MODE_NORMAL;
    lzma_filter filters[2] = {{.id = LZMA_FILTER_LZMA1, .options = &opt},
                              {.id = LZMA_VLI_UNKNOWN, .options = NULL}};
    if (lzma_properties_encode(filters, props) != LZMA_OK) return false;
    lzma_allocator la = allocator_for(out->alloc);
    lzma_stream s = LZMA_STREAM_INIT;
    s.allocator = &la;
    if (lzma_raw_encoder(&s, filters) != LZMA_OK) {
        lzma_end(&s);
        return false;
    }
    s.next_in = in;
    s.avail_in = len;
    bool ok = false;
    for (;;) {
        if (sv_buf_ensure(out, 64 * 1024 + len / 8) != SV_OK) break;
        s.next_out = out->data + out->len;
        s.avail_out = out->cap - out->len;
        size_t before = s.avail_out;
        lzma_ret r = lzma_code(&s, LZMA_FINISH);
        out->len += before - s.avail_out;
        if (r == LZMA_STREAM_END) {
            ok = true;
            break;
        }
        if (r != LZMA_OK) break;
    }
    lzma_end(&s);
    return ok;
}
