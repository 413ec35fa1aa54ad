/* NoesisGUI NSDH files as a registry format: probe by signature, options. */
#include <string.h>

#include "core/opts_tables.h"
#include "formats/noesis/noesis_internal.h"
#include "serval/noesis.h"
#include "core/decode_root.h"

/* spec §B.2: "HDSN" on disk for little-endian files, "NSDH" for big-endian. */
static int noesis_probe(const uint8_t *data, size_t len)
{
    if (len < 4) return 0;
    if (sv__core_load_u32le(data) != NSB_SIGNATURE && sv__core_load_u32be(data) != NSB_SIGNATURE)
        return 0;
    return 100;
}

/* ---- typed options ---------------------------------------------------------- */

SV_OPTS_TABLE(sv__opts_noesis, sv_noesis_opts, SV_OPTS_END(sv_noesis_opts, limits),
              SV_OPTS_END(sv_noesis_opts, raw), SV_OPTS_END(sv_noesis_opts, version));

void sv_noesis_opts_init(sv_noesis_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

sv_status sv_noesis_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_noesis_opts *opts,
                           sv_value *out, sv_error *err)
{
    sv_noesis_opts o;
    sv_noesis_opts_init(&o);
    sv_status st = sv__core_opts_read(&sv__opts_noesis, &o, opts, NSB_FORMAT, err);
    if (st != SV_OK) return st;
    st = nsb_decode(doc, data, len, &o, out, err);
    return sv__core_decode_root(doc, st, out, "noesis", err);
}

sv_status sv_noesis_encode(const sv_value *v, const sv_noesis_opts *opts, sv_buf *out,
                           sv_error *err)
{
    sv_noesis_opts o;
    sv_noesis_opts_init(&o);
    sv_status st = sv__core_opts_read(&sv__opts_noesis, &o, opts, NSB_FORMAT, err);
    if (st != SV_OK) return st;
    return nsb_encode(v, &o, out, err);
}

/* ---- the registry adapter: "name=value" strings to sv_noesis_opts ----------- */

sv_status nsb_registry_opts(const sv_options *opts, sv_noesis_opts *out, sv_error *err)
{
    sv_options o;
    sv_status st = sv__core_options_read(&o, opts, NSB_FORMAT, err);
    if (st != SV_OK) return st;
    sv_noesis_opts_init(out);
    out->limits = o.limits;
    out->raw = sv_options_flag(&o, "raw", false);
    const char *v = sv_options_get(&o, "version");
    if (v) {
        if (!((v[0] >= '2' && v[0] <= '5') && v[1] == 0))
            return sv_error_set(err, SV_ERR_USAGE, NSB_FORMAT, 0,
                                "option version=%s: expected 2, 3, 4 or 5", v);
        out->version = v[0] - '0';
    }
    return SV_OK;
}

static sv_status noesis_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                               sv_value *out, sv_error *err)
{
    sv_noesis_opts o;
    sv_status st = nsb_registry_opts(opts, &o, err);
    if (st != SV_OK) return st;
    return nsb_decode(doc, data, len, &o, out, err);
}

static sv_status noesis_encode(const sv_value *v, const sv_options *opts, sv_buf *out,
                               sv_error *err)
{
    sv_noesis_opts o;
    sv_status st = nsb_registry_opts(opts, &o, err);
    if (st != SV_OK) return st;
    return nsb_encode(v, &o, out, err);
}

static const char *const noesis_extensions[] = {"nsb", NULL};

static const sv_option_desc noesis_options[] = {
    {"raw", "read: keep the data section as bytes even when metadata describes it"},
    {"version", "write: the file version, 2 to 5 (default: the tree's, else 5)"},
    {NULL, NULL},
};

const sv_format sv_format_noesis = {
    .struct_size = sizeof(sv_format),
    .name = "noesis",
    .description = "NoesisGUI 1.x serialization files (NSDH, .nsb)",
    .extensions = noesis_extensions,
    .probe = noesis_probe,
    .decode = noesis_decode,
    .encode = noesis_encode,
    .options = noesis_options,
};
