/* Thin adapters over Debian's libbrotli, liblzma, liblz4 and zlib (internal). No
 * file outside src/compress/ includes a compression library's header: the
 * formats call these functions.
 *
 * Every allocation a codec makes goes through an sv_alloc: the output
 * buffer's for the one-call functions, the one given for the streaming
 * decoder (codec_alloc.h).
 *
 * Decompressors write into an sv_buf (its allocator is the caller's, so a
 * document's counting allocator sees the memory) and enforce the
 * decompressed-size limit while they decompress, never after: the output
 * buffer grows with what the decoder has really produced, in steps, and is
 * never made larger than the limit, so a small input that claims or expands
 * to gigabytes stops at the limit with SV_ERR_LIMIT and has cost at most the
 * limit. Errors name the caller's format and the input byte offset (base +
 * bytes consumed so far). */
#ifndef SV_COMPRESS_COMPRESS_H
#define SV_COMPRESS_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"

/* The payload's first bytes a head check reads (sv_decomp.size_from_head):
 * a BSON document's int32 length and its first element's type byte. */
#define SV_DECOMP_HEAD 5

typedef struct sv_decomp {
    uint64_t max_out;   /* bytes the output may hold at most */
    const char *format; /* names the format in errors ("resonite") */
    uint64_t base;      /* offset of the compressed bytes in the file */
    /* Optional: once the output holds SV_DECOMP_HEAD bytes, returns the
     * total size they say the payload has (a BSON document's int32 length),
     * which becomes the exact size the output must reach; 0 with *why set
     * when they cannot start the payload (no plausible length, or no
     * element type after it). Lets a bomb whose first bytes do not fit stop
     * after 5 bytes, and one whose length lies stop at that length. */
    uint64_t (*size_from_head)(const uint8_t *head, const char **why);
    /* 0: none. A size declared in advance (a header's, a block's, the
     * head's) above it is refused before it is inflated: the output goes to
     * memory the caller's allocation limit (max_alloc) counts. */
    uint64_t max_alloc;
} sv_decomp;

/* Checks a size declared before the bytes come (what: who declares it, "the
 * LZMA header") against d's max_out and max_alloc: SV_OK, or SV_ERR_LIMIT
 * recorded in err at offset at. */
sv_status sv__compress_decomp_declared(const sv_decomp *d, uint64_t size, uint64_t at,
                                       const char *what, sv_error *err);
/* d's head check on head (SV_DECOMP_HEAD bytes; have: the bytes out so
 * far): the exact size the payload must reach into *size, checked with
 * sv__compress_decomp_declared and against have. Errors recorded at offset at. */
sv_status sv__compress_decomp_head_size(const sv_decomp *d, const uint8_t *head, uint64_t have,
                                        uint64_t at, uint64_t *size, sv_error *err);

/* Appends the decompressed bytes to out. */
sv_status sv__compress_brotli_decompress(const uint8_t *in, size_t len, const sv_decomp *d,
                                         sv_buf *out, sv_error *err);
/* A bare RFC 7932 stream with BROTLI_MODE_GENERIC at quality/lgwin (the
 * bytes of libbrotli's BrotliEncoderCompress for qualities 0 to 9). */
bool sv__compress_brotli_compress(const uint8_t *in, size_t len, int quality, int lgwin,
                                  sv_buf *out);

/* A Brotli decoder driven step by step, for callers that place the output
 * themselves (the .brson pipeline decompresses into the document's arena
 * while the BSON reader follows). */
typedef struct sv_brotli_stream sv_brotli_stream;
typedef enum sv_brotli_result {
    SV_BROTLI_DONE,        /* the stream has ended */
    SV_BROTLI_MORE_OUTPUT, /* the output room is full: call again with more */
    SV_BROTLI_MORE_INPUT,  /* the input ended before the stream did */
    SV_BROTLI_BAD,         /* invalid data; sv__compress_brotli_stream_error says why */
    SV_BROTLI_NOMEM        /* the allocator refused memory */
} sv_brotli_result;
/* NULL when out of memory. a (NULL: libc) must outlive the stream. */
sv_brotli_stream *sv__compress_brotli_stream_new(const sv_alloc *a);
/* Decompresses from *in (*avail_in bytes) into *out (*avail_out bytes of
 * room), advancing all four. */
sv_brotli_result sv__compress_brotli_stream_step(sv_brotli_stream *s, const uint8_t **in,
                                                 size_t *avail_in, uint8_t **out,
                                                 size_t *avail_out);
const char *sv__compress_brotli_stream_error(const sv_brotli_stream *s);
void sv__compress_brotli_stream_free(sv_brotli_stream *s);
/* The first n bytes a Brotli stream decompresses to, into first: SV_OK;
 * SV_ERR_SYNTAX when the stream is invalid or shorter; SV_ERR_NOMEM. */
sv_status sv__compress_brotli_head(const uint8_t *in, size_t len, uint8_t *first, size_t n,
                                   const sv_alloc *a);

/* Raw LZMA1 data (no header) with its 5 property bytes and known
 * uncompressed size usize; an end-of-payload marker after usize bytes is
 * accepted. *consumed gets the number of input bytes the stream used. */
sv_status sv__compress_lzma_raw_decompress(const uint8_t props[5], const uint8_t *in, size_t len,
                                           uint64_t usize, const sv_decomp *d, sv_buf *out,
                                           size_t *consumed, sv_error *err);
/* Raw LZMA1 (always with an end-of-payload marker, liblzma's way); writes
 * the 5 property bytes to props. dict_size, lc, lp, pb, nice_len as given,
 * match finder BT4, normal mode. */
bool sv__compress_lzma_raw_compress(const uint8_t *in, size_t len, uint32_t dict_size, unsigned lc,
                                    unsigned lp, unsigned pb, unsigned nice_len, uint8_t props[5],
                                    sv_buf *out);

/* One LZ4 block: exactly orig_len bytes must come out of exactly len bytes.
 * Appends to out (whose room the caller has checked against its limit). */
sv_status sv__compress_lz4_block_decompress(const uint8_t *in, size_t len, size_t orig_len,
                                            const sv_decomp *d, sv_buf *out, sv_error *err);
/* The first n bytes of an LZ4 block (n <= 64) into first; false when the
 * block is invalid or shorter. Allocates nothing. */
bool sv__compress_lz4_block_head(const uint8_t *in, size_t len, uint8_t *first, size_t n);
/* LZ4 HC compression state, made once for many blocks. */
typedef struct sv_lz4_hc sv_lz4_hc;
sv_lz4_hc *sv__compress_lz4_hc_new(const sv_alloc *a); /* NULL: out of memory; a must outlive it */
void sv__compress_lz4_hc_free(sv_lz4_hc *hc);
/* LZ4 HC block into dst (capacity cap); returns the size, or 0 when the
 * block does not fit (does not shrink). */
size_t sv__compress_lz4_block_compress_hc(sv_lz4_hc *hc, const uint8_t *in, size_t len,
                                          uint8_t *dst, size_t cap, int level);
/* The most an LZ4 block of len compressed bytes can expand to (LZ4's match
 * length encoding gives at most 255 output bytes per input byte). */
static inline uint64_t sv__compress_lz4_max_expansion(uint64_t len)
{
    return len * 255u + 16u;
}

/* zlib (raw deflate for zip, zlib-wrapped for KingsIsle) and CRC-32. */
#include "compress/zlib_adapter.h"
/* The versions of the compression and XML libraries of the formats built,
 * as they report them at run time ("brotli 1.0.9, liblzma 5.4.1, lz4 1.9.4,
 * expat 2.5.0, zlib 1.2.13"), into buf (as snprintf: NUL-terminated,
 * truncated to size); returns the full length. */
size_t sv__compress_versions(char *buf, size_t size);

#endif
