/* The registry entries: godot4, godot3 and godot-doc.
 *
 * Detection by content is weak for this format: the bytes carry no magic and
 * the 3.x and 4.x numberings overlap (spec §8: "auto-detection cannot be
 * reliable"). So the probe says 10 (a guess) only when the whole input is
 * exactly one Variant of the profile, godot4 first; godot3 only when godot4
 * does not fit. godot-doc is never detected (spec §3.4.1: it must be chosen). */
#include "formats/godot/godot_internal.h"

/* Inputs above this are not probed (the probe decodes). */
#define GD_PROBE_MAX (UINT64_C(64) << 20)

/* A lone nil (00000000) fits every profile and says nothing: a file of
 * zeros is not named Godot, so the probe wants at least one typed value. */
static bool exact_fit(sv_godot_profile profile, const uint8_t *data, size_t len)
{
    if (len < 8 || len > GD_PROBE_MAX || (len & 3) || (data[0] == 0)) return false;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return false;
    sv_godot_opts o;
    sv_godot_opts_init(&o, profile);
    size_t used = 0;
    sv_value v;
    bool ok = sv_godot_decode(doc, data, len, &o, &v, &used, NULL) == SV_OK && used == len;
    sv_doc_free(doc);
    return ok;
}

static int godot4_probe(const uint8_t *data, size_t len)
{
    return exact_fit(SV_GODOT4, data, len) ? 10 : 0;
}

static int godot3_probe(const uint8_t *data, size_t len)
{
    return exact_fit(SV_GODOT3, data, len) && !exact_fit(SV_GODOT4, data, len) ? 10 : 0;
}

#define GD_FORMAT_FUNCS(prefix, profile)                                                           \
    static sv_status prefix##_decode(sv_doc *doc, const uint8_t *data, size_t len,                 \
                                     const sv_options *opts, sv_value *out, sv_error *err)         \
    {                                                                                              \
        sv_godot_opts o;                                                                           \
        sv_status st = gd_opts_from_registry(profile, opts, false, &o, err);                       \
        if (st != SV_OK) return st;                                                                \
        return sv_godot_decode(doc, data, len, &o, out, NULL, err);                                \
    }                                                                                              \
    static sv_status prefix##_encode(const sv_value *v, const sv_options *opts, sv_buf *out,       \
                                     sv_error *err)                                                \
    {                                                                                              \
        sv_godot_opts o;                                                                           \
        sv_status st = gd_opts_from_registry(profile, opts, true, &o, err);                        \
        if (st != SV_OK) return st;                                                                \
        return sv_godot_encode(v, &o, out, err);                                                   \
    }

GD_FORMAT_FUNCS(godot4, SV_GODOT4)
GD_FORMAT_FUNCS(godot3, SV_GODOT3)
GD_FORMAT_FUNCS(godot_doc, SV_GODOT_DOC)

static const char *const no_extensions[] = {NULL};

#define GD_COMMON_OPTIONS                                                                          \
    {"objects",                                                                                    \
     "id (default) or full: full objects (class + properties) are refused unless full"},           \
        {"framing", "raw (var_to_bytes, default), prefixed (store_var/put_var) or stream (many)"}, \
    {                                                                                              \
        "prefix", "le (default) or be: byte order of the length prefix (StreamPeer.big_endian)"    \
    }

static const sv_option_desc godot4_options[] = {
    GD_COMMON_OPTIONS,
    {"real", "write: float (default) or double: a real_t=double build, 64-bit math types"},
    {"version", "4.0 .. 4.x (default latest): 4.0-4.2 untyped containers, 4.3 typed arrays"},
    {NULL, NULL},
};

static const sv_option_desc godot3_options[] = {GD_COMMON_OPTIONS, {NULL, NULL}};

const sv_format sv_format_godot4 = {
    .struct_size = sizeof(sv_format),
    .name = "godot4",
    .description = "Godot 4.x Variant binary (var_to_bytes, store_var, put_var)",
    .extensions = no_extensions,
    .probe = godot4_probe,
    .decode = godot4_decode,
    .encode = godot4_encode,
    .options = godot4_options,
};

const sv_format sv_format_godot3 = {
    .struct_size = sizeof(sv_format),
    .name = "godot3",
    .description = "Godot 3.x Variant binary (var2bytes, store_var, put_var)",
    .extensions = no_extensions,
    .probe = godot3_probe,
    .decode = godot3_decode,
    .encode = godot3_encode,
    .options = godot3_options,
};

const sv_format sv_format_godot_doc = {
    .struct_size = sizeof(sv_format),
    .name = "godot-doc",
    .description = "Variant binary in the outdated docs' numbering (@gd-com/utils 5.x)",
    .extensions = no_extensions,
    .probe = NULL,
    .decode = godot_doc_decode,
    .encode = godot_doc_encode,
    .options = godot3_options,
};
