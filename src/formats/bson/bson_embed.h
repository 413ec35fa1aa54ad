/* BSON for formats that carry a BSON document inside their own container
 * (Resonite's data trees). This is the only BSON header meant for code
 * outside src/formats/bson/; it exposes two things the public sv_bson_decode
 * cannot do and nothing of the reader's state:
 *
 *   - input that already lives in the document's arena (sv_doc_alloc) and
 *     stays there: string values point into it instead of being copied
 *     (BSON strings end with 00 in place, as tree strings must);
 *   - input still being written by another thread (a decompressor), which
 *     the reader follows through a wait callback. */
#ifndef SV_FORMATS_BSON_EMBED_H
#define SV_FORMATS_BSON_EMBED_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/bson.h"

/* The reader calls wait(ctx, need) whenever it wants bytes before offset
 * need that it has not seen yet; wait blocks until they are there and
 * returns how many bytes are there now (fewer than need: they never will
 * be). start is how many are there when reading begins. */
typedef struct sv__bson_stream {
    size_t (*wait)(void *ctx, size_t need);
    void *ctx;
    size_t start;
    /* Checking only (sv__bson_check), may be NULL: where the checker keeps
     * the offset below which it will read no byte again, so that the
     * producer may reuse that memory. The checker then leaves error paths
     * empty (their keys may be gone): a caller that wants the full error
     * checks again without reuse. */
    _Atomic size_t *low;
} sv__bson_stream;

/* sv_bson_decode of len bytes at data, which doc's arena holds. stream may
 * be NULL (all len bytes are there). */
sv_status sv__bson_decode_in_arena(sv_doc *doc, const uint8_t *data, size_t len,
                                   const sv_bson_opts *opts, const sv__bson_stream *stream,
                                   sv_value *out, sv_error *err);

/* sv_bson_validate of len bytes at data, which may still be streaming in. */
sv_status sv__bson_check(const uint8_t *data, size_t len, const sv_bson_opts *opts,
                         const sv__bson_stream *stream, sv_error *err);

/* sv_bson_encode, which first calls on_total (when not NULL) with the
 * document's byte length when the output streams through out's sink (its
 * lengths known before the first byte, bson_measure.c), or with 0 when it
 * does not (no sink, or a tree written whole): for a compressor behind the
 * sink that wants the size up front. */
sv_status sv__bson_encode_streamed(const sv_value *v, const sv_bson_opts *opts, sv_buf *out,
                                   void (*on_total)(void *ctx, uint64_t total), void *ctx,
                                   sv_error *err);

#endif
