/* A Resonite data tree converted to one without the tree (internal;
 * sv_convert_transcode in src/convert/ calls it). */
#ifndef SV_FORMATS_RESONITE_TRANSCODE_H
#define SV_FORMATS_RESONITE_TRANSCODE_H

#include <stdbool.h>

#include "serval/registry.h"

/* When the input's container unpacks and its BSON passes the reader's every
 * check, and both sides read "@" strings alike (raw-strings), writes to out
 * what decoding it and encoding the tree with out_opts write, holding the
 * BSON but no tree, sets *st (SV_OK, or the writer's error in err) and
 * returns true. false: nothing was written, and no document was touched;
 * the tree path says what the input gives. */
bool sv__resonite_transcode_self(const uint8_t *data, size_t len, const sv_options *in_opts,
                                 const sv_options *out_opts, sv_buf *out, sv_status *st,
                                 sv_error *err);

#endif
