/* The typed JSON reader's and writer's options: defaults and the versioned
 * copy of a caller's struct (core/opts.h). */
#ifndef SERVAL_JSON_OPTS_H
#define SERVAL_JSON_OPTS_H

#include "serval/json.h"

/* *out = the defaults, overlaid with the members of opts (NULL: none) that
 * fit in its struct_size. SV_ERR_USAGE for a struct_size too small. */
sv_status sv__json_decode_opts_read(sv_json_decode_opts *out, const sv_json_decode_opts *opts,
                                    sv_error *err);
sv_status sv__json_encode_opts_read(sv_json_encode_opts *out, const sv_json_encode_opts *opts,
                                    sv_error *err);

#endif
