/* Brotli through Debian's libbrotli (spec resonite A.3.1: .brson payloads are
 * bare RFC 7932 streams; Resonite writes quality 9, lgwin 16). */
#include <brotli/decode.h>
#include <brotli/encode.h>

#include "compress/compress.h"
#include "compress/decomp_out.h"

sv_status sv_brotli_decompress(const uint8_t *in, size_t len, const sv_decomp *d, sv_buf *out,
                               sv_error *err)
{
    BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!s) return sv_error_set(err, SV_ERR_NOMEM, d->format, d->base, "out of memory");
    sv_decomp_out o;
    sv_decomp_out_init(&o, out, d);
    size_t avail_in = len;
    const uint8_t *next_in = in;
    sv_status st = SV_OK;
    for (;;) {
        uint64_t at = d->base + (uint64_t)(len - avail_in);
        size_t room = sv_decomp_out_room(&o, d, &st);
        if (room == SIZE_MAX) {
            st = sv_error_set(err, st, d->format, at, "out of memory");
            break;
        }
        /* With no room left, one more call with a 1-byte scratch tells
         * whether the stream wants to write past the cap. */
        uint8_t probe;
        uint8_t *next_out = room ? out->data + out->len : &probe;
        size_t avail_out = room ? room : 1;
        size_t before = avail_out;
        BrotliDecoderResult r =
            BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
        at = d->base + (uint64_t)(len - avail_in);
        if (!room && avail_out != before) {
            st = sv_decomp_out_over(&o, d, at, err);
            break;
        }
        if (room) out->len += before - avail_out;
        if ((st = sv_decomp_out_check(&o, d, at, err)) != SV_OK) break;
        if (r == BROTLI_DECODER_RESULT_SUCCESS) {
            if (avail_in)
                st = sv_error_set(err, SV_ERR_TRAILING, d->format, at,
                                  "%zu bytes after the end of the Brotli stream", avail_in);
            break;
        }
        if (r == BROTLI_DECODER_RESULT_ERROR) {
            st = sv_error_set(err, SV_ERR_SYNTAX, d->format, at, "invalid Brotli stream: %s",
                              BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s)));
            break;
        }
        if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
            st = sv_error_set(err, SV_ERR_TRUNCATED, d->format, at,
                              "the Brotli stream ends too early");
            break;
        }
        /* NEEDS_MORE_OUTPUT: loop for more room */
    }
    if (st == SV_OK && o.exact && sv_decomp_out_len(&o) != o.cap)
        st = sv_error_set(err, SV_ERR_TRUNCATED, d->format, d->base + len,
                          "the decompressed payload has %llu bytes, its BSON length says %llu",
                          (unsigned long long)sv_decomp_out_len(&o), (unsigned long long)o.cap);
    BrotliDecoderDestroyInstance(s);
    return st;
}

bool sv_brotli_compress(const uint8_t *in, size_t len, int quality, int lgwin, sv_buf *out)
{
    size_t max = BrotliEncoderMaxCompressedSize(len);
    if (max == 0) max = len + 1024; /* 0 = "too large to bound"; the call then fails cleanly */
    if (!sv_buf_reserve(out, max)) return false;
    size_t n = max;
    if (!BrotliEncoderCompress(quality, lgwin, BROTLI_MODE_GENERIC, len, in, &n,
                               out->data + out->len))
        return false;
    out->len += n;
    return true;
}
