/* Plain BSON as a registry format ("bson"): one document, the whole input. */
#include "core/byteio.h"
#include "core/opts.h"
#include "serval/bson.h"
#include "serval/registry.h"

/* A BSON document starts with its own length and ends with 00: a file whose
 * first int32 is its size and whose last byte is 0 is almost surely one. */
static int bson_probe(const uint8_t *data, size_t len)
{
    if (len < 5 || data[len - 1] != 0) return 0;
    if (sv_load_u32le(data) != len) return 0;
    if (len == 5) return 30;
    /* the first element's type byte must be a BSON type */
    uint8_t t = data[4];
    return (t >= 0x01 && t <= 0x13) || t == 0x7F || t == 0xFF ? 60 : 0;
}

static sv_status bson_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                             sv_value *out, sv_error *err)
{
    sv_options ro;
    sv_status st = sv__options_read(&ro, opts, "bson", err);
    if (st != SV_OK) return st;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.limits = ro.limits;
    o.resonite_urls = sv_options_flag(&ro, "resonite-urls", false);
    return sv_bson_decode(doc, data, len, &o, out, err);
}

static sv_status bson_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    sv_options ro;
    sv_status st = sv__options_read(&ro, opts, "bson", err);
    if (st != SV_OK) return st;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = sv_options_flag(&ro, "resonite-urls", false);
    return sv_bson_encode(v, &o, out, err);
}

static const char *const bson_extensions[] = {"bson", NULL};

static const sv_option_desc bson_options[] = {
    {"resonite-urls", "Resonite strings: \"@x\" is the URL x, \"@@x\" the text \"@x\""},
    {NULL, NULL},
};

const sv_format sv_format_bson = {
    .struct_size = sizeof(sv_format),
    .name = "bson",
    .description = "BSON document (bsonspec.org 1.1), every element type",
    .extensions = bson_extensions,
    .probe = bson_probe,
    .decode = bson_decode,
    .encode = bson_encode,
    .options = bson_options,
};
