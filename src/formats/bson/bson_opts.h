/* BSON options: defaults and the versioned copy of a caller's struct. */
#ifndef SERVAL_BSON_OPTS_H
#define SERVAL_BSON_OPTS_H

#include "serval/bson.h"

/* *out = the defaults, overlaid with the members of opts (NULL: none) that
 * fit in its struct_size (core/opts.h). SV_ERR_USAGE for one too small. */
sv_status sv__bson_opts_read(sv_bson_opts *out, const sv_bson_opts *opts, sv_error *err);

#endif
