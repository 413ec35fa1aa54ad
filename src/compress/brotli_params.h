/* The parameters every serval Brotli encoder is given (internal): those
 * BrotliEncoderCompress sets. The one-call compressor (brotli.c) and the
 * .brson window writer (resonite/brotli_sink.c) must make the same bytes
 * for the same input, so they set them here, in one place. */
#ifndef SV_COMPRESS_BROTLI_PARAMS_H
#define SV_COMPRESS_BROTLI_PARAMS_H

#include <brotli/encode.h>
#include <stdint.h>

/* quality 0 to 11, lgwin 10 to 24 (above BROTLI_MAX_WINDOW_BITS: the
 * large-window extension); size_hint: the bytes the encoder will be given. */
void sv__compress_brotli_set_params(BrotliEncoderState *s, int quality, int lgwin,
                                    uint64_t size_hint);

#endif
