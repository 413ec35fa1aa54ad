/* Resonite options: defaults and the versioned copy of a caller's struct. */
#ifndef SERVAL_RESONITE_OPTS_H
#define SERVAL_RESONITE_OPTS_H

#include "serval/resonite.h"

/* *out = the defaults, overlaid with the members of opts (NULL: none) that
 * fit in its struct_size (core/opts.h). SV_ERR_USAGE for one too small. */
sv_status sv__resonite_rs_opts_read(sv_resonite_opts *out, const sv_resonite_opts *opts,
                                    sv_error *err);

#endif
