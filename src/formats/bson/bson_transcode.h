/* BSON and Resonite data trees converted to themselves without the tree
 * (internal; sv_convert_transcode in src/convert/ calls these). */
#ifndef SV_FORMATS_BSON_TRANSCODE_H
#define SV_FORMATS_BSON_TRANSCODE_H

#include <stdbool.h>

#include "serval/registry.h"

/* BSON to BSON: when the input passes the reader's every check and both
 * sides read "@" strings alike (resonite-urls), appends the input to out in
 * window-sized pieces, which is what decoding it and encoding the tree
 * writes (bson.md, "What is not kept"), and returns true (out's status then
 * says whether its sink took the bytes). false: nothing was written; the
 * tree path says what the input gives (its error, or its bytes). */
bool sv__bson_transcode_self(const uint8_t *data, size_t len, const sv_options *in_opts,
                             const sv_options *out_opts, sv_buf *out);

#endif
