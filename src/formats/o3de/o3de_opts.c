/* sv_o3de_opts and sv_o3de_import_opts: their defaults and the versioned
 * read of a caller's struct (core/opts.h). */
#include <string.h>

#include "core/opts_tables.h"
#include "o3de_internal.h"

SV_OPTS_TABLE(sv__opts_o3de, sv_o3de_opts, SV_OPTS_END(sv_o3de_opts, keep_defaults),
              SV_OPTS_END(sv_o3de_opts, clear_containers), SV_OPTS_END(sv_o3de_opts, report),
              SV_OPTS_END(sv_o3de_opts, report_ctx), SV_OPTS_END(sv_o3de_opts, max_depth),
              SV_OPTS_END(sv_o3de_opts, limits));

SV_OPTS_TABLE(sv__opts_o3de_import, sv_o3de_import_opts, SV_OPTS_END(sv_o3de_import_opts, load),
              SV_OPTS_END(sv_o3de_import_opts, load_ctx), SV_OPTS_END(sv_o3de_import_opts, path),
              SV_OPTS_END(sv_o3de_import_opts, nested), SV_OPTS_END(sv_o3de_import_opts, max_chain),
              SV_OPTS_END(sv_o3de_import_opts, max_imports),
              SV_OPTS_END(sv_o3de_import_opts, max_depth), SV_OPTS_END(sv_o3de_import_opts, report),
              SV_OPTS_END(sv_o3de_import_opts, report_ctx),
              SV_OPTS_END(sv_o3de_import_opts, identify));

void sv_o3de_opts_init(sv_o3de_opts *opts)
{
    if (!opts) return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = sizeof *opts;
}

void sv_o3de_import_opts_init(sv_o3de_import_opts *opts)
{
    if (!opts) return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = sizeof *opts;
    opts->nested = true;
}

sv_status o3_opts_read(sv_o3de_opts *out, const sv_o3de_opts *opts, sv_error *err)
{
    sv_o3de_opts_init(out);
    return sv__core_opts_read(&sv__opts_o3de, out, opts, "o3de", err);
}

sv_status o3_import_opts_read(sv_o3de_import_opts *out, const sv_o3de_import_opts *opts,
                              sv_error *err)
{
    sv_o3de_import_opts_init(out);
    return sv__core_opts_read(&sv__opts_o3de_import, out, opts, "o3de", err);
}

uint32_t o3_opts_max_depth(const sv_o3de_opts *o)
{
    uint32_t d = o->max_depth ? o->max_depth : sv_limits_resolve(&o->limits).max_depth;
    return d < SV_MAX_DEPTH_LIMIT ? d : SV_MAX_DEPTH_LIMIT;
}
