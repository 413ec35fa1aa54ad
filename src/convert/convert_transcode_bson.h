/* sv_convert_transcode's BSON to BSON and Resonite to Resonite
 * (convert_transcode_bson.c). */
#ifndef SERVAL_CONVERT_TRANSCODE_BSON_H
#define SERVAL_CONVERT_TRANSCODE_BSON_H

#include <stdbool.h>

#include "serval/convert.h"
#include "serval/registry.h"

/* Whether from and to are both bson, or both resonite. */
bool sv__convert_bson_streams(const sv_format *from, const sv_format *to);

/* sv_convert_transcode for those (opts read by cv_opts_read). */
sv_status sv__convert_bson_transcode(sv_doc *doc, const sv_format *from, const sv_format *to,
                                     const uint8_t *data, size_t len, const sv_options *in_opts,
                                     const sv_convert_opts *opts, sv_buf *out, sv_error *err);

#endif
