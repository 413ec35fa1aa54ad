/* Options: defaults, the rules of one run, and name=value pairs from the
 * registry / CLI (-O objects=full, -O framing=stream, ...). */
#include <string.h>

#include "core/opts_tables.h"
#include "formats/godot/godot_internal.h"

SV_OPTS_TABLE(sv__opts_godot, sv_godot_opts, SV_OPTS_END(sv_godot_opts, profile),
              SV_OPTS_END(sv_godot_opts, godot4_minor), SV_OPTS_END(sv_godot_opts, full_objects),
              SV_OPTS_END(sv_godot_opts, real_double), SV_OPTS_END(sv_godot_opts, framing),
              SV_OPTS_END(sv_godot_opts, prefix_big_endian), SV_OPTS_END(sv_godot_opts, limits),
              SV_OPTS_END(sv_godot_opts, borrow_input));

void sv_godot_opts_init(sv_godot_opts *o, sv_godot_profile profile)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->profile = profile;
    o->framing = SV_GODOT_RAW;
}

sv_status gd_opts_read(sv_godot_opts *out, const sv_godot_opts *opts, sv_error *err)
{
    sv_godot_opts_init(out, SV_GODOT4);
    return sv__core_opts_read(&sv__opts_godot, out, opts, "godot", err);
}

void gd_rules_init(gd_rules *r, const sv_godot_opts *opts)
{
    memset(r, 0, sizeof *r);
    r->prof = opts->profile == SV_GODOT3      ? &gd_profile_godot3
              : opts->profile == SV_GODOT_DOC ? &gd_profile_doc
                                              : &gd_profile_godot4;
    r->fmt = r->prof->name;
    r->variant_max = r->prof->variant_max;
    if (r->prof->godot4_rules) {
        int minor = opts->godot4_minor ? opts->godot4_minor : 4;
        /* spec §3.1, §8: PackedVector4Array (38) and typed arrays from 4.3,
         * typed dictionaries from 4.4 */
        if (minor < 3) r->variant_max = 38;
        r->typed_arrays = minor >= 3;
        r->typed_dicts = minor >= 4;
        r->real_double = opts->real_double;
    }
    r->full_objects = opts->full_objects;
    r->borrow_input = opts->borrow_input;
    sv_limits lim = sv_limits_resolve(&opts->limits);
    r->max_depth = lim.max_depth;
    r->max_string = lim.max_string;
    memset(r->to_wire, 0xFF, sizeof r->to_wire);
    for (unsigned c = 0; c < r->variant_max; c++) r->to_wire[r->prof->to_gd[c]] = (uint8_t)c;
}

int gd_version_minor(const char *v)
{
    /* "4.N": 4.0 to 4.2 share rules, as do 4.4 and later */
    if (v[0] == '4' && v[1] == '.' && v[2] >= '0' && v[2] <= '9' &&
        (v[3] == 0 || (v[3] >= '0' && v[3] <= '9' && v[4] == 0))) {
        int minor = v[2] - '0';
        if (v[3]) minor = minor * 10 + (v[3] - '0');
        return minor < 3 ? 2 : minor == 3 ? 3 : 4;
    }
    return 0;
}

static sv_status bad_value(sv_error *err, const char *fmt, const char *name, const char *value,
                           const char *allowed)
{
    return sv_error_set(err, SV_ERR_USAGE, fmt, 0, "option %s=%s: expected %s", name, value,
                        allowed);
}

sv_status gd_opts_from_registry(sv_godot_profile profile, const sv_options *opts, bool encode,
                                sv_godot_opts *out, sv_error *err)
{
    static const char *const names[] = {"godot4", "godot3", "godot-doc"};
    const char *fmt = names[profile];
    sv_godot_opts_init(out, profile);
    sv_options ro;
    sv_status st = sv__core_options_read(&ro, opts, fmt, err);
    if (st != SV_OK) return st;
    const sv_options *o = &ro;
    out->limits = o->limits;
    out->borrow_input = o->borrow_input;
    const char *v;
    if ((v = sv_options_get(o, "objects"))) {
        if (!strcmp(v, "full"))
            out->full_objects = true;
        else if (strcmp(v, "id"))
            return bad_value(err, fmt, "objects", v, "id or full");
    }
    if ((v = sv_options_get(o, "framing"))) {
        if (!strcmp(v, "raw"))
            out->framing = SV_GODOT_RAW;
        else if (!strcmp(v, "prefixed"))
            out->framing = SV_GODOT_PREFIXED;
        else if (!strcmp(v, "stream"))
            out->framing = SV_GODOT_STREAM;
        else
            return bad_value(err, fmt, "framing", v, "raw, prefixed or stream");
    }
    if ((v = sv_options_get(o, "prefix"))) {
        if (!strcmp(v, "be"))
            out->prefix_big_endian = true;
        else if (strcmp(v, "le"))
            return bad_value(err, fmt, "prefix", v, "le or be");
    }
    if ((v = sv_options_get(o, "real"))) {
        if (profile != SV_GODOT4)
            return sv_error_set(err, SV_ERR_USAGE, fmt, 0,
                                "option real: only godot4 has double-precision builds");
        if (!strcmp(v, "double"))
            out->real_double = true;
        else if (strcmp(v, "float"))
            return bad_value(err, fmt, "real", v, "float or double");
        (void)encode;
    }
    if ((v = sv_options_get(o, "version"))) {
        if (profile != SV_GODOT4)
            return sv_error_set(err, SV_ERR_USAGE, fmt, 0, "option version: only for godot4");
        out->godot4_minor = gd_version_minor(v);
        if (!out->godot4_minor) return bad_value(err, fmt, "version", v, "4.0 to 4.x");
    }
    return SV_OK;
}
