/* Options of the typed JSON reader and writer (json/json_opts.h). */
#include "formats/json/json_opts.h"

#include <string.h>

#include "core/opts_tables.h"

SV_OPTS_TABLE(sv__opts_json_decode, sv_json_decode_opts, SV_OPTS_END(sv_json_decode_opts, limits),
              SV_OPTS_END(sv_json_decode_opts, allow_comments),
              SV_OPTS_END(sv_json_decode_opts, plain));

SV_OPTS_TABLE(sv__opts_json_encode, sv_json_encode_opts, SV_OPTS_END(sv_json_encode_opts, indent),
              SV_OPTS_END(sv_json_encode_opts, plain));

void sv_json_decode_opts_init(sv_json_decode_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

void sv_json_encode_opts_init(sv_json_encode_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

sv_status sv__json_decode_opts_read(sv_json_decode_opts *out, const sv_json_decode_opts *opts,
                                    sv_error *err)
{
    sv_json_decode_opts_init(out);
    return sv__core_opts_read(&sv__opts_json_decode, out, opts, "json", err);
}

sv_status sv__json_encode_opts_read(sv_json_encode_opts *out, const sv_json_encode_opts *opts,
                                    sv_error *err)
{
    sv_json_encode_opts_init(out);
    return sv__core_opts_read(&sv__opts_json_encode, out, opts, "json", err);
}
