/* BSON options (formats/bson/bson_opts.h). */
#include "formats/bson/bson_opts.h"

#include <string.h>

#include "core/opts.h"

static const size_t bson_opts_ends[] = {
    SV_OPTS_END(sv_bson_opts, limits),
    SV_OPTS_END(sv_bson_opts, format),
    SV_OPTS_END(sv_bson_opts, resonite_urls),
};

void sv_bson_opts_init(sv_bson_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

sv_status sv__bson_opts_read(sv_bson_opts *out, const sv_bson_opts *opts, sv_error *err)
{
    sv_bson_opts_init(out);
    /* the caller's format name, if it fits, names the errors of its struct */
    const char *format =
        opts && opts->struct_size >= SV_OPTS_END(sv_bson_opts, format) && opts->format
            ? opts->format
            : "bson";
    return SV_OPTS_READ(out, opts, bson_opts_ends, "sv_bson_opts", format, err);
}
