/* sv_kingsisle_opts: its defaults and the versioned read of a caller's
 * struct (core/opts.h), shared by the binary stream and the XML files. */
#include <string.h>

#include "core/opts_tables.h"
#include "formats/kingsisle/ki_internal.h"

SV_OPTS_TABLE(sv__opts_kingsisle, sv_kingsisle_opts, SV_OPTS_END(sv_kingsisle_opts, shallow),
              SV_OPTS_END(sv_kingsisle_opts, compress), SV_OPTS_END(sv_kingsisle_opts, flags),
              SV_OPTS_END(sv_kingsisle_opts, property_mask),
              SV_OPTS_END(sv_kingsisle_opts, skip_deprecated),
              SV_OPTS_END(sv_kingsisle_opts, zlib_level), SV_OPTS_END(sv_kingsisle_opts, types),
              SV_OPTS_END(sv_kingsisle_opts, limits), SV_OPTS_END(sv_kingsisle_opts, given),
              SV_OPTS_END(sv_kingsisle_opts, skip_unknown_types),
              SV_OPTS_END(sv_kingsisle_opts, warn), SV_OPTS_END(sv_kingsisle_opts, warn_ctx));

void sv_kingsisle_opts_init(sv_kingsisle_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->property_mask = 24; /* TRANSMIT | PRIVILEGED_TRANSMIT, katsuba's default (§5.2) */
    o->zlib_level = 9;     /* katsuba's fixture starts 78 DA (§4.3) */
}

sv_status ki_opts_read(sv_kingsisle_opts *out, const sv_kingsisle_opts *opts, const char *format,
                       sv_error *err)
{
    sv_kingsisle_opts_init(out);
    return sv__core_opts_read(&sv__opts_kingsisle, out, opts, format, err);
}
