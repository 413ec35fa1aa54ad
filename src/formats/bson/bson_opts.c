/* BSON options (formats/bson/bson_opts.h). */
#include "formats/bson/bson_opts.h"

#include <string.h>

#include "core/opts_tables.h"

SV_OPTS_TABLE(sv__opts_bson, sv_bson_opts, SV_OPTS_END(sv_bson_opts, limits),
              SV_OPTS_END(sv_bson_opts, format), SV_OPTS_END(sv_bson_opts, resonite_urls),
              SV_OPTS_END(sv_bson_opts, borrow_input));

void sv_bson_opts_init(sv_bson_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

sv_status sv__bson_opts_read(sv_bson_opts *out, const sv_bson_opts *opts, sv_error *err)
{
    sv_bson_opts_init(out);
    /* The only error is a struct_size short of the first member, so the
     * caller's format name (a later member) never names it. */
    return sv__core_opts_read(&sv__opts_bson, out, opts, "bson", err);
}
