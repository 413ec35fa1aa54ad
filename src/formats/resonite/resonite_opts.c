/* Resonite options (formats/resonite/resonite_opts.h). */
#include "formats/resonite/resonite_opts.h"

#include <string.h>

#include "core/opts_tables.h"
#include "formats/resonite/resonite_internal.h"

SV_OPTS_TABLE(sv__opts_resonite, sv_resonite_opts, SV_OPTS_END(sv_resonite_opts, limits),
              SV_OPTS_END(sv_resonite_opts, compression), SV_OPTS_END(sv_resonite_opts, framing),
              SV_OPTS_END(sv_resonite_opts, brotli_quality),
              SV_OPTS_END(sv_resonite_opts, brotli_window),
              SV_OPTS_END(sv_resonite_opts, raw_strings), SV_OPTS_END(sv_resonite_opts, threads));

void sv_resonite_opts_init(sv_resonite_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->compression = SV_RESONITE_AUTO;
    o->framing = SV_RESONITE_FRAMING_AUTO;
}

sv_status sv__resonite_rs_opts_read(sv_resonite_opts *out, const sv_resonite_opts *opts,
                                    sv_error *err)
{
    sv_resonite_opts_init(out);
    return sv__core_opts_read(&sv__opts_resonite, out, opts, RESONITE_FORMAT, err);
}
