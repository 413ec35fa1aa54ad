/* sv_convert_opts: its defaults and the versioned read of a caller's struct
 * (core/opts.h). */
#include <string.h>

#include "convert/convert_internal.h"
#include "core/opts_tables.h"

SV_OPTS_TABLE(sv__opts_convert, sv_convert_opts, SV_OPTS_END(sv_convert_opts, lossy),
              SV_OPTS_END(sv_convert_opts, report), SV_OPTS_END(sv_convert_opts, report_ctx),
              SV_OPTS_END(sv_convert_opts, format_options));

void sv_convert_opts_init(sv_convert_opts *o)
{
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

sv_status cv_opts_read(sv_convert_opts *out, const sv_convert_opts *opts, sv_error *err)
{
    sv_convert_opts_init(out);
    return sv__core_opts_read(&sv__opts_convert, out, opts, "convert", err);
}
