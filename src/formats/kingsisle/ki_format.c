/* KingsIsle as registry formats: "kingsisle" (the binary stream) and
 * "kingsisle-xml" (XML object files), their options (the names of katsuba's
 * fixture configs) and their probes. */
#include <stdlib.h>
#include <string.h>

#include "core/byteio.h"
#include "core/opts.h"
#include "formats/kingsisle/ki_internal.h"
#include "serval/schema.h"
#include "core/decode_root.h"

static sv_status bad_option(sv_error *err, const char *name, const char *v, const char *want)
{
    return sv_error_set(err, SV_ERR_USAGE, KI_FORMAT, 0, "option %s=%s: %s", name, v, want);
}

static sv_status opt_u32(const sv_options *opts, const char *name, uint32_t *out, sv_error *err)
{
    const char *v = sv_options_get(opts, name);
    if (!v) return SV_OK;
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (!*v || *end || v[0] == '-' || x > UINT32_MAX)
        return bad_option(err, name, v, "expected an integer from 0 to 4294967295");
    *out = (uint32_t)x;
    return SV_OK;
}

static sv_status opt_bool(const sv_options *opts, const char *name, bool *out, sv_error *err)
{
    const char *v = sv_options_get(opts, name);
    if (!v) return SV_OK;
    if (!strcmp(v, "") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
        *out = true;
    else if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
        *out = false;
    else
        return bad_option(err, name, v, "expected true or false");
    return SV_OK;
}

/* The codec's options from the registry's, and the type list from the
 * schema (*owned is freed by the caller). */
sv_status sv_kingsisle_opts_from_options(const sv_options *opts, sv_kingsisle_opts *o,
                                         sv_kingsisle_types **owned, sv_error *err)
{
    sv_kingsisle_opts_init(o);
    *owned = NULL;
    sv_options reg; /* the registry's struct, read as versioned */
    sv_status rst = sv__core_options_read(&reg, opts, KI_FORMAT, err);
    if (rst != SV_OK || !opts) return rst;
    o->limits = reg.limits;
    uint32_t level = 9;
    sv_status st = opt_bool(opts, "shallow", &o->shallow, err);
    if (!st) st = opt_bool(opts, "compress", &o->compress, err);
    if (!st) st = opt_u32(opts, "flags", &o->flags, err);
    if (!st) st = opt_u32(opts, "property_mask", &o->property_mask, err);
    if (!st) st = opt_bool(opts, "skip_deprecated", &o->skip_deprecated, err);
    if (!st) st = opt_u32(opts, "zlib_level", &level, err);
    if (!st) st = opt_bool(opts, "skip_unknown_types", &o->skip_unknown_types, err);
    /* which were given, so that the encoder knows them from the tree's */
    static const struct {
        const char *name;
        uint32_t bit;
    } given[] = {
        {"shallow", SV_KI_OPT_SHALLOW},
        {"compress", SV_KI_OPT_COMPRESS},
        {"flags", SV_KI_OPT_FLAGS},
        {"property_mask", SV_KI_OPT_PROPERTY_MASK},
        {"skip_deprecated", SV_KI_OPT_SKIP_DEPRECATED},
        {"skip_unknown_types", SV_KI_OPT_SKIP_UNKNOWN_TYPES},
    };
    for (size_t i = 0; i < sizeof given / sizeof *given; i++)
        if (sv_options_get(opts, given[i].name)) o->given |= given[i].bit;
    if (!st && level > 9)
        st = bad_option(err, "zlib_level", sv_options_get(opts, "zlib_level"), "expected 0 to 9");
    o->zlib_level = (int)level;
    if (!st && reg.schema) {
        st = sv_kingsisle_types_from_schema(NULL, reg.schema, owned, err);
        o->types = *owned;
    }
    return st;
}

/* BINd is certain, even with the rest cut off (the decoder then says where
 * it ends); a bare stream has no magic, so only --from picks it. */
static int ki_probe(const uint8_t *data, size_t len)
{
    if (len >= 4 && sv__core_load_u32le(data) == KI_BIND_MAGIC) return 100;
    return 0;
}

static sv_status ki_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                           sv_value *out, sv_error *err)
{
    sv_kingsisle_opts o;
    sv_kingsisle_types *t;
    sv_status st = sv_kingsisle_opts_from_options(opts, &o, &t, err);
    if (!st) st = sv_kingsisle_decode(doc, data, len, &o, out, err);
    sv_kingsisle_types_free(t);
    return sv__core_decode_root(doc, st, out, "kingsisle", err);
}

static sv_status ki_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    sv_kingsisle_opts o;
    sv_kingsisle_types *t;
    sv_status st = sv_kingsisle_opts_from_options(opts, &o, &t, err);
    if (!st) st = sv_kingsisle_encode(v, &o, out, err);
    sv_kingsisle_types_free(t);
    return st;
}

static const char *const ki_extensions[] = {"bin", NULL};

static const sv_option_desc ki_options[] = {
    {"shallow", "true: shallow mode; false (default): deep mode, sizes in bits"},
    {"compress", "true: the manual zlib wrapper (u32 size + zlib) around the stream"},
    {"flags",
     "serializer flags, default 0 (1 stateful, 2 compact, 4 string enums, 8 zlib, 16 no delta)"},
    {"property_mask", "a property is written when (flags & mask) == mask (default 24)"},
    {"skip_deprecated", "shallow: skip DEPRECATED properties (default: keep them)"},
    {"zlib_level", "write: zlib level 0 to 9 for new compressed payloads (default 9)"},
    {"skip_unknown_types",
     "read, deep: objects of classes not in the type list become null (lossy)"},
    {NULL, NULL},
};

const sv_format sv_format_kingsisle = {
    .struct_size = sizeof(sv_format),
    .name = "kingsisle",
    .description = "KingsIsle ObjectProperty binary (Wizard101, Pirate101; BINd files)",
    .extensions = ki_extensions,
    .probe = ki_probe,
    .decode = ki_decode,
    .encode = ki_encode,
    .options = ki_options,
};

/* ---- XML object files ---- */

static int kx_probe(const uint8_t *data, size_t len)
{
    size_t lim = len < 512 ? len : 512;
    for (size_t i = 0; i + 8 <= lim; i++)
        if (memcmp(data + i, "<Objects", 8) == 0) return 90;
    return 0;
}

static sv_status kx_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                           sv_value *out, sv_error *err)
{
    sv_kingsisle_opts o;
    sv_kingsisle_types *t;
    sv_status st = sv_kingsisle_opts_from_options(opts, &o, &t, err);
    if (!st) st = sv_kingsisle_xml_decode(doc, data, len, &o, out, err);
    sv_kingsisle_types_free(t);
    return sv__core_decode_root(doc, st, out, "kingsisle-xml", err);
}

static sv_status kx_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    sv_kingsisle_opts o;
    sv_kingsisle_types *t;
    sv_status st = sv_kingsisle_opts_from_options(opts, &o, &t, err);
    if (!st) st = sv_kingsisle_xml_encode(v, &o, out, err);
    sv_kingsisle_types_free(t);
    return st;
}

static const char *const kx_extensions[] = {"xml", NULL};

const sv_format sv_format_kingsisle_xml = {
    .struct_size = sizeof(sv_format),
    .name = "kingsisle-xml",
    .description = "KingsIsle XML object files (<Objects><Class Name=...>)",
    .extensions = kx_extensions,
    .probe = kx_probe,
    .decode = kx_decode,
    .encode = kx_encode,
    .options = NULL,
};
