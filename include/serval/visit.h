/* Streaming decode: a format's input as events, without a tree.
 *
 * For a caller that builds its own objects (the Python module's loads): the
 * decoder reads the input and hands each container's start (with its item
 * count), each value that is not an Array or Dictionary (as the sv_value the
 * tree would hold, valid only for the call) and each container's end to a
 * visitor. Arrays and Dictionaries are told in order; a Dictionary's items
 * come as key, value, key, value. A Dictionary whose keys repeat is the
 * visitor's to notice (the tree keeps every pair; the decoder does not
 * look for repeats).
 *
 * Only the plain shapes are streamed: the decoder declines (returns
 * SV_ERR_UNSUPPORTED) any input whose tree would hold more than those events
 * say (meta data on a container, bytes kept in records, options other than
 * the limits, framing other than one raw value) and any
 * input it cannot read. The caller then decodes into a tree with the
 * format's decode, which gives the value or the error (format, offset,
 * path); events already told are to be dropped. The limits of opts apply
 * as in the tree decoder. Formats: godot4, godot3 (raw Variant binary) and
 * bson (one document). */
#ifndef SERVAL_VISIT_H
#define SERVAL_VISIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/api.h"
#include "serval/error.h"
#include "serval/registry.h"
#include "serval/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The count of a container whose bytes do not say it (bson). */
#define SV_VISIT_COUNT_UNKNOWN UINT32_MAX

/* Each call returns 0 to go on; anything else stops the decode, which then
 * returns SV_ERR_UNSUPPORTED. */
typedef struct sv_visitor {
    void *ctx;
    int (*begin_array)(void *ctx, uint32_t count);
    int (*begin_map)(void *ctx, uint32_t count);
    /* key: v is a Dictionary key. Strings, bytes and packed data may point
     * into the input or into memory that lives until the decode returns. */
    int (*value)(void *ctx, const sv_value *v, bool key);
    int (*end)(void *ctx);
} sv_visitor;

/* Streams data[0..len) of format f to vis (see above): SV_OK when every
 * event was told, else SV_ERR_UNSUPPORTED (decode into a tree instead). */
SV_API sv_status sv_visit_decode(const sv_format *f, const uint8_t *data, size_t len,
                                 const sv_options *opts, const sv_visitor *vis);

#ifdef __cplusplus
}
#endif

#endif
