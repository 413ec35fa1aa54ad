/* Brotli through Debian's libbrotli (spec resonite A.3.1: .brson payloads are
 * bare RFC 7932 streams; Resonite writes quality 9, lgwin 16; Godot 4 reads
 * the blocks of compressed resources in mode 4 as such streams too). The
 * encoder and decoder states come from the caller's sv_alloc
 * (codec_alloc.h). */
#include <brotli/decode.h>
#include <brotli/encode.h>
#include <setjmp.h>
#include <stdint.h>

#include "compress/block_codecs.h"
#include "compress/brotli_mem.h"
#include "compress/brotli_params.h"
#include "compress/codec_alloc.h"
#include "compress/compress.h"
#include "compress/decomp_out.h"

static void *brotli_alloc(void *opaque, size_t size)
{
    return sv__compress_codec_malloc(opaque, size);
}

static void brotli_free(void *opaque, void *p)
{
    sv__compress_codec_free(opaque, p);
}

/* ---- the streaming decoder ---------------------------------------------------- */

struct sv_brotli_stream {
    BrotliDecoderState *s;
};

/* The stream is libbrotli's state itself, so a step costs no indirection. */
sv_brotli_stream *sv__compress_brotli_stream_new(const sv_alloc *a)
{
    void *opaque = (void *)sv__compress_codec_alloc_or_libc(a);
    return (sv_brotli_stream *)BrotliDecoderCreateInstance(brotli_alloc, brotli_free, opaque);
}

sv_brotli_result sv__compress_brotli_stream_step(sv_brotli_stream *s, const uint8_t **in,
                                                 size_t *avail_in, uint8_t **out, size_t *avail_out)
{
    BrotliDecoderState *st = (BrotliDecoderState *)s;
    switch (BrotliDecoderDecompressStream(st, avail_in, in, avail_out, out, NULL)) {
    case BROTLI_DECODER_RESULT_SUCCESS: return SV_BROTLI_DONE;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: return SV_BROTLI_MORE_OUTPUT;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return SV_BROTLI_MORE_INPUT;
    default: break;
    }
    /* libbrotli reports a failed allocation as an error code of its own */
    BrotliDecoderErrorCode c = BrotliDecoderGetErrorCode(st);
    return c >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES &&
                   c <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES
               ? SV_BROTLI_NOMEM
               : SV_BROTLI_BAD;
}

const char *sv__compress_brotli_stream_error(const sv_brotli_stream *s)
{
    return BrotliDecoderErrorString(BrotliDecoderGetErrorCode((const BrotliDecoderState *)s));
}

void sv__compress_brotli_stream_free(sv_brotli_stream *s)
{
    if (s) BrotliDecoderDestroyInstance((BrotliDecoderState *)s);
}

sv_status sv__compress_brotli_head(const uint8_t *in, size_t len, uint8_t *first, size_t n,
                                   const sv_alloc *a)
{
    sv_brotli_stream *s = sv__compress_brotli_stream_new(a);
    if (!s) return SV_ERR_NOMEM;
    size_t avail_in = len, avail_out = n;
    const uint8_t *next_in = in;
    uint8_t *next_out = first;
    sv_brotli_result r =
        sv__compress_brotli_stream_step(s, &next_in, &avail_in, &next_out, &avail_out);
    sv__compress_brotli_stream_free(s);
    if (r == SV_BROTLI_NOMEM) return SV_ERR_NOMEM;
    return avail_out == 0 && (r == SV_BROTLI_DONE || r == SV_BROTLI_MORE_OUTPUT) ? SV_OK
                                                                                 : SV_ERR_SYNTAX;
}

/* ---- one block of a known size (Godot's RSCC) ------------------------------------ */

bool sv__compress_brotli_decompress_exact(const uint8_t *in, size_t len, uint8_t *dst, size_t size,
                                          const char **why)
{
    sv_brotli_stream *s = sv__compress_brotli_stream_new(NULL);
    if (!s) {
        *why = "out of memory";
        return false;
    }
    const uint8_t *next_in = in;
    size_t avail_in = len, avail_out = size;
    uint8_t *next_out = dst;
    sv_brotli_result r =
        sv__compress_brotli_stream_step(s, &next_in, &avail_in, &next_out, &avail_out);
    if (r == SV_BROTLI_MORE_OUTPUT) {
        /* dst is full: one byte of scratch room tells a stream that ends
         * here from one that would give more (a bomb stops after one byte) */
        uint8_t probe;
        size_t room = 1;
        next_out = &probe;
        r = sv__compress_brotli_stream_step(s, &next_in, &avail_in, &next_out, &room);
        if (room == 0) r = SV_BROTLI_MORE_OUTPUT;
    }
    bool ok = false;
    switch (r) {
    case SV_BROTLI_DONE:
        if (avail_in)
            *why = "bytes after the end of the Brotli stream";
        else if (avail_out)
            *why = "the stream gives fewer bytes than the block holds";
        else
            ok = true;
        break;
    case SV_BROTLI_MORE_OUTPUT: *why = "the stream gives more bytes than the block holds"; break;
    case SV_BROTLI_MORE_INPUT: *why = "the Brotli stream ends too early"; break;
    case SV_BROTLI_NOMEM: *why = "out of memory"; break;
    default: *why = sv__compress_brotli_stream_error(s); break;
    }
    sv__compress_brotli_stream_free(s);
    return ok;
}

/* ---- one call ----------------------------------------------------------------- */

sv_status sv__compress_brotli_decompress(const uint8_t *in, size_t len, const sv_decomp *d,
                                         sv_buf *out, sv_error *err)
{
    sv_brotli_stream *s = sv__compress_brotli_stream_new(out->alloc);
    if (!s) return sv_error_set(err, SV_ERR_NOMEM, d->format, d->base, "out of memory");
    sv_decomp_out o;
    sv__compress_decomp_out_init(&o, out, d);
    size_t avail_in = len;
    const uint8_t *next_in = in;
    sv_status st = SV_OK;
    for (;;) {
        uint64_t at = d->base + (uint64_t)(len - avail_in);
        size_t room = sv__compress_decomp_out_room(&o, d, &st);
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
        sv_brotli_result r =
            sv__compress_brotli_stream_step(s, &next_in, &avail_in, &next_out, &avail_out);
        at = d->base + (uint64_t)(len - avail_in);
        if (!room && avail_out != before) {
            st = sv__compress_decomp_out_over(&o, d, at, err);
            break;
        }
        if (room) out->len += before - avail_out;
        if ((st = sv__compress_decomp_out_check(&o, d, at, err)) != SV_OK) break;
        if (r == SV_BROTLI_DONE) {
            if (avail_in)
                st = sv_error_set(err, SV_ERR_TRAILING, d->format, at,
                                  "%zu bytes after the end of the Brotli stream", avail_in);
            break;
        }
        if (r == SV_BROTLI_NOMEM) {
            st = sv_error_set(err, SV_ERR_NOMEM, d->format, at, "out of memory");
            break;
        }
        if (r == SV_BROTLI_BAD) {
            st = sv_error_set(err, SV_ERR_SYNTAX, d->format, at, "invalid Brotli stream: %s",
                              sv__compress_brotli_stream_error(s));
            break;
        }
        if (r == SV_BROTLI_MORE_INPUT) {
            st = sv_error_set(err, SV_ERR_TRUNCATED, d->format, at,
                              "the Brotli stream ends too early");
            break;
        }
        /* SV_BROTLI_MORE_OUTPUT: loop for more room */
    }
    if (st == SV_OK && o.exact && sv__compress_decomp_out_len(&o) != o.cap)
        st = sv_error_set(err, SV_ERR_TRUNCATED, d->format, d->base + len,
                          "the decompressed payload has %llu bytes, its BSON length says %llu",
                          (unsigned long long)sv__compress_decomp_out_len(&o),
                          (unsigned long long)o.cap);
    sv__compress_brotli_stream_free(s);
    return st;
}

/* Blocks carry their list links in a header of 32 bytes: sizeof the links,
 * rounded up to keep the encoder's pointers 16-byte aligned. */
struct sv__compress_brotli_block {
    sv__compress_brotli_block *prev, *next;
    size_t total; /* bytes of the whole block, this header included */
};
#define BLOCK_HEADER 32u

void *sv__compress_brotli_mem_alloc(void *opaque, size_t size)
{
    sv__compress_brotli_mem *m = opaque;
    const sv_alloc *a = m->alloc;
    sv__compress_brotli_block *b =
        size <= SIZE_MAX - BLOCK_HEADER ? a->malloc(a->ctx, size + BLOCK_HEADER) : NULL;
    if (!b) longjmp(m->refused, 1);
    b->total = size + BLOCK_HEADER;
    b->prev = NULL;
    b->next = m->blocks;
    if (m->blocks) m->blocks->prev = b;
    m->blocks = b;
    return (unsigned char *)b + BLOCK_HEADER;
}

void sv__compress_brotli_mem_free(void *opaque, void *p)
{
    if (!p) return;
    sv__compress_brotli_mem *m = opaque;
    sv__compress_brotli_block *b =
        (sv__compress_brotli_block *)(void *)((unsigned char *)p - BLOCK_HEADER);
    if (b->prev)
        b->prev->next = b->next;
    else
        m->blocks = b->next;
    if (b->next) b->next->prev = b->prev;
    m->alloc->free(m->alloc->ctx, b, b->total);
}

void sv__compress_brotli_mem_free_all(sv__compress_brotli_mem *m)
{
    while (m->blocks) {
        sv__compress_brotli_block *b = m->blocks;
        m->blocks = b->next;
        m->alloc->free(m->alloc->ctx, b, b->total);
    }
}

void sv__compress_brotli_set_params(BrotliEncoderState *s, int quality, int lgwin,
                                    uint64_t size_hint)
{
    /* the parameters BrotliEncoderCompress sets */
    BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t)quality);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, (uint32_t)lgwin);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_MODE, BROTLI_MODE_GENERIC);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT,
                              size_hint > UINT32_MAX ? UINT32_MAX : (uint32_t)size_hint);
    if (lgwin > BROTLI_MAX_WINDOW_BITS)
        BrotliEncoderSetParameter(s, BROTLI_PARAM_LARGE_WINDOW, BROTLI_TRUE);
}

/* The encoder's run; the state is created and destroyed inside so that a
 * jump back from the allocator leaves nothing of it outside the list (brotli_mem.h). */
static bool encode_stream(sv__compress_brotli_mem *m, const uint8_t *in, size_t len, int quality,
                          int lgwin, uint8_t *dst, size_t max, size_t *total)
{
    BrotliEncoderState *s =
        BrotliEncoderCreateInstance(sv__compress_brotli_mem_alloc, sv__compress_brotli_mem_free, m);
    if (!s) return false;
    sv__compress_brotli_set_params(s, quality, lgwin, len);
    size_t avail_in = len, avail_out = max;
    const uint8_t *next_in = in;
    uint8_t *next_out = dst;
    bool ok = BrotliEncoderCompressStream(s, BROTLI_OPERATION_FINISH, &avail_in, &next_in,
                                          &avail_out, &next_out, total) &&
              BrotliEncoderIsFinished(s);
    BrotliEncoderDestroyInstance(s);
    return ok;
}

bool sv__compress_brotli_compress(const uint8_t *in, size_t len, int quality, int lgwin,
                                  sv_buf *out)
{
    if (len == 0) {
        /* an empty stream: ISLAST, ISLASTEMPTY (BrotliEncoderCompress's byte) */
        sv_buf_putc(out, 6);
        return sv_buf_ok(out);
    }
    size_t max = BrotliEncoderMaxCompressedSize(len);
    if (max == 0) return false; /* too large to bound */
    if (sv_buf_ensure(out, max) != SV_OK) return false;
    sv__compress_brotli_mem m;
    m.alloc = out->alloc;
    m.blocks = NULL;
    size_t total = 0;
    if (setjmp(m.refused)) {
        sv__compress_brotli_mem_free_all(&m);
        return false;
    }
    bool ok = encode_stream(&m, in, len, quality, lgwin, out->data + out->len, max, &total);
    sv__compress_brotli_mem_free_all(&m); /* nothing, unless libbrotli forgot a block */
    if (!ok || total > max) return false;
    out->len += total;
    return true;
}
