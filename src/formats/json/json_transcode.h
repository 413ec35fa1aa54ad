/* sv_json_transcode with the registry's "name=value" options (json_format.c),
 * for sv_convert_transcode (src/convert/convert_transcode.c). */
#ifndef SV_JSON_TRANSCODE_H
#define SV_JSON_TRANSCODE_H

#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"
#include "serval/registry.h"
#include "serval/value.h"

/* in: the reader's options (as the format's decode takes them), out_opts:
 * the writer's (as its encode takes them). */
sv_status sv__json_format_transcode(sv_doc *doc, const uint8_t *data, size_t len,
                                    const sv_options *in, const sv_options *out_opts, sv_buf *out,
                                    sv_error *err);

#endif
