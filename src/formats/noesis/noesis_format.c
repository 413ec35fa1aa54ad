/* NoesisGUI NSDH files as a registry format: probe by signature, options. */
#include "formats/noesis/noesis_internal.h"
#include "serval/noesis.h"

/* spec §B.2: "HDSN" on disk for little-endian files, "NSDH" for big-endian. */
static int noesis_probe(const uint8_t *data, size_t len)
{
    if (len < 4) return 0;
    if (sv_load_u32le(data) != NSB_SIGNATURE && sv_load_u32be(data) != NSB_SIGNATURE) return 0;
    return 100;
}

sv_status sv_noesis_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                           sv_value *out, sv_error *err)
{
    return nsb_decode(doc, data, len, opts, out, err);
}

sv_status sv_noesis_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    return nsb_encode(v, opts, out, err);
}

static const char *const noesis_extensions[] = {"nsb", NULL};

static const sv_option_desc noesis_options[] = {
    {"raw", "read: keep the data section as bytes even when metadata describes it"},
    {"version", "write: the file version, 2 to 5 (default: the tree's, else 5)"},
    {NULL, NULL},
};

const sv_format sv_format_noesis = {
    .name = "noesis",
    .description = "NoesisGUI 1.x serialization files (NSDH, .nsb)",
    .extensions = noesis_extensions,
    .probe = noesis_probe,
    .decode = sv_noesis_decode,
    .encode = sv_noesis_encode,
    .options = noesis_options,
};
