/* The registry entries: godot4, godot3 and godot-doc.
 *
 * Detection by content is weak for this format: the bytes carry no magic and
 * the 3.x and 4.x numberings overlap (spec §8: "auto-detection cannot be
 * reliable"). So a probe says yes only when the whole input is exactly what
 * the profile would have written: one raw Variant that ends at the input's
 * end, one length-prefixed Variant (store_var) whose prefix is the rest of
 * the input, or a stream of them. When godot3 and godot4 both fit, both say
 * so with the same score and the caller sees an ambiguous input (registry.h);
 * godot-doc is never detected (spec §3.4.1: it must be chosen).
 *
 * An input that none of these fits but that starts as one of them and is cut
 * off (a frame's prefix or a Variant's sizes run past its end) gets the
 * lowest score, SV_PROBE_TRUNCATED, so that a truncated file is named and
 * its decoder's error reported, rather than no format found.
 *
 * The framing found this way is also what the decoder uses when no
 * -O framing is given, and the framing of a decoded file is kept in the
 * tree (godot_file_meta.c), so that writing it back needs no option. */
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_file_meta.h"
#include "formats/godot/godot_internal.h"
#include "core/decode_root.h"

/* Probe scores: a length prefix that matches the input's size is a better
 * sign than a lone Variant that happens to fill it. */
#define GD_SCORE_RAW 30
#define GD_SCORE_STREAM 50
#define GD_SCORE_PREFIXED 60

/* Whether data[0..len) is exactly one Variant of the profile. A lone nil
 * (00000000) fits every profile and says nothing: a whole file of zeros is
 * not named Godot, so a raw reading wants a typed value. Inside a frame the
 * length prefix is the sign, and nil is a Variant like any other
 * (store_var(null) writes 04000000 00000000). */
static bool exact_fit(sv_doc *doc, sv_godot_profile profile, const uint8_t *data, size_t len,
                      bool nil_ok)
{
    if (len < 4 || (len & 3) || (data[0] == 0 && !nil_ok)) return false;
    sv_godot_opts o;
    sv_godot_opts_init(&o, profile);
    /* The probe's document dies before data: no copy of packed arrays. */
    o.borrow_input = true;
    size_t used = 0;
    sv_value v;
    return sv_godot_decode(doc, data, len, &o, &v, &used, NULL) == SV_OK && used == len;
}

/* Whether data is one or more length-prefixed Variants, each filling its
 * frame, that end exactly at the input's end; *frames gets their number and
 * *typed the number that hold more than a nil. */
static bool frames_fit(sv_doc *doc, sv_godot_profile profile, const uint8_t *data, size_t len,
                       bool be, size_t *frames, size_t *typed)
{
    size_t at = 0, n = 0, t = 0;
    while (at < len) {
        if (len - at < 8) return false;
        uint32_t size = be ? sv__core_load_u32be(data + at) : sv__core_load_u32le(data + at);
        if (size > len - at - 4 || !exact_fit(doc, profile, data + at + 4, size, true))
            return false;
        t += data[at + 4] != 0;
        at += 4 + (size_t)size;
        n++;
    }
    *frames = n;
    *typed = t;
    return n > 0;
}

/* Whether data[0..len) is the start of one Variant of the profile that the
 * input's end cuts off: a type the profile has, read until the bytes run out
 * (SV_ERR_TRUNCATED), not until a byte that does not fit. Running out at the
 * first size (a header, then a count or length too large for the rest) says
 * little: eight bytes of anything do that. So the Variant must have been
 * read past its first 8 bytes. */
static bool cut_fit(sv_doc *doc, sv_godot_profile profile, const uint8_t *data, size_t len)
{
    if (len < 4) return false;
    sv_godot_opts o;
    sv_godot_opts_init(&o, profile);
    o.borrow_input = true;
    size_t used = 0;
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    return sv_godot_decode(doc, data, len, &o, &v, &used, &err) == SV_ERR_TRUNCATED &&
           err.byte_offset != SV_ERROR_NO_OFFSET && err.byte_offset >= 8;
}

/* Whether data is whole frames (each exactly one Variant) and then one that
 * the input's end cuts off: a length prefix that runs past the end, a
 * multiple of 4 as every Variant's size is, and at least the start of a
 * Variant after it (cut_fit). *frames gets the number of whole frames. */
static bool frames_cut(sv_doc *doc, sv_godot_profile profile, const uint8_t *data, size_t len,
                       bool be, size_t *frames)
{
    size_t at = 0, n = 0;
    while (len - at >= 8) {
        uint32_t size = be ? sv__core_load_u32be(data + at) : sv__core_load_u32le(data + at);
        if (size > len - at - 4) {
            if (size < 4 || (size & 3) || size > GD_PROBE_MAX ||
                !cut_fit(doc, profile, data + at + 4, len - at - 4))
                return false;
            *frames = n;
            return true;
        }
        if (!exact_fit(doc, profile, data + at + 4, size, true)) return false;
        at += 4 + (size_t)size;
        n++;
    }
    return false;
}

int gd_probe_framing(sv_godot_profile profile, const uint8_t *data, size_t len,
                     sv_godot_framing *framing, bool *be, bool *ambiguous)
{
    *ambiguous = false;
    if (len < 4 || len > GD_PROBE_MAX) return 0;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 0;
    int score = 0;
    size_t frames = 0, typed = 0;
    /* Frames that each hold exactly one Variant and end at the input's end
     * are the stronger sign: a raw reading of the same bytes takes the first
     * prefix for a type code (08000000 ... reads as a 3.x Transform2D). */
    for (int big = 0; big <= 1 && !score; big++) {
        if (frames_fit(doc, profile, data, len, big, &frames, &typed)) {
            score = frames == 1 ? GD_SCORE_PREFIXED : GD_SCORE_STREAM;
            *framing = frames == 1 ? SV_GODOT_PREFIXED : SV_GODOT_STREAM;
            *be = big;
        }
    }
    /* A few inputs fit both ways with different values (the raw reading
     * takes the frame's length for a type code, so they are short, or have
     * a length with header flag bits). Where the
     * frames hold only nils, the raw reading is taken: 04000000 00000000 is
     * var_to_bytes("") (store_var(null) needs -O framing=prefixed). Any
     * other such input has no framing the bytes can tell, and the decoder
     * asks for one. */
    if (exact_fit(doc, profile, data, len, false)) {
        if (score && typed) {
            *ambiguous = true;
        } else {
            score = GD_SCORE_RAW;
            *framing = SV_GODOT_RAW;
            *be = false;
        }
    }
    /* Nothing whole fits: the start of a file that was cut off? The
     * decoder, given the framing found here, then says where it ends. */
    for (int big = 0; big <= 1 && !score; big++) {
        if (frames_cut(doc, profile, data, len, big, &frames)) {
            score = SV_PROBE_TRUNCATED;
            *framing = frames ? SV_GODOT_STREAM : SV_GODOT_PREFIXED;
            *be = big;
        }
    }
    if (!score && data[0] != 0 && cut_fit(doc, profile, data, len)) {
        score = SV_PROBE_TRUNCATED;
        *framing = SV_GODOT_RAW;
        *be = false;
    }
    sv_doc_free(doc);
    return score;
}

bool gd_probe_frames_cut(sv_godot_profile profile, const uint8_t *data, size_t len,
                         sv_godot_framing *framing, bool *be)
{
    if (len < 4 || len > GD_PROBE_MAX) return false;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return false;
    size_t frames = 0;
    bool cut = false;
    for (int big = 0; big <= 1 && !cut; big++) {
        if (frames_cut(doc, profile, data, len, big, &frames)) {
            cut = true;
            *framing = frames ? SV_GODOT_STREAM : SV_GODOT_PREFIXED;
            *be = big;
        }
    }
    sv_doc_free(doc);
    return cut;
}

bool gd_probe_raw_fits(sv_godot_profile profile, const uint8_t *data, size_t len)
{
    if (len < 4 || len > GD_PROBE_MAX) return false;
    /* a type code the profile lacks: no reading gets past the header */
    sv_godot_opts o;
    sv_godot_opts_init(&o, profile);
    gd_rules r;
    gd_rules_init(&r, &o);
    if (data[0] >= r.variant_max) return false;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return true; /* unknown: the caller asks gd_probe_framing */
    bool fit = exact_fit(doc, profile, data, len, false);
    sv_doc_free(doc);
    return fit;
}

bool gd_probe_raw_candidate(const uint8_t *data, size_t len)
{
    return len >= 4 && len <= GD_PROBE_MAX && !(len & 3) && data[0] != 0;
}

bool gd_probe_reads_as(const sv_godot_opts *o)
{
    sv_godot_opts p;
    sv_godot_opts_init(&p, o->profile);
    gd_rules a, b;
    gd_rules_init(&a, &p);
    gd_rules_init(&b, o);
    return a.variant_max == b.variant_max && a.typed_arrays == b.typed_arrays &&
           a.typed_dicts == b.typed_dicts && a.full_objects == b.full_objects &&
           a.max_depth == b.max_depth && a.max_string == b.max_string;
}

bool gd_probe_frames_fit(sv_godot_profile profile, const uint8_t *data, size_t len)
{
    if (len < 4 || len > GD_PROBE_MAX) return false; /* as gd_probe_framing: not probed */
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return true; /* unknown: the caller takes the tree path */
    size_t frames = 0, typed = 0;
    bool fit = frames_fit(doc, profile, data, len, false, &frames, &typed) ||
               frames_fit(doc, profile, data, len, true, &frames, &typed);
    sv_doc_free(doc);
    return fit;
}

static int godot4_probe(const uint8_t *data, size_t len)
{
    sv_godot_framing f;
    bool be;
    bool ambiguous;
    return gd_probe_framing(SV_GODOT4, data, len, &f, &be, &ambiguous);
}

static int godot3_probe(const uint8_t *data, size_t len)
{
    sv_godot_framing f;
    bool be;
    bool ambiguous;
    return gd_probe_framing(SV_GODOT3, data, len, &f, &be, &ambiguous);
}

#define GD_FORMAT_FUNCS(prefix, profile, name)                                                     \
    static sv_status prefix##_decode(sv_doc *doc, const uint8_t *data, size_t len,                 \
                                     const sv_options *opts, sv_value *out, sv_error *err)         \
    {                                                                                              \
        sv_status st = gd_registry_decode(profile, doc, data, len, opts, out, err);                \
        return sv__core_decode_root(doc, st, out, name, err);                                      \
    }                                                                                              \
    static sv_status prefix##_encode(const sv_value *v, const sv_options *opts, sv_buf *out,       \
                                     sv_error *err)                                                \
    {                                                                                              \
        return gd_registry_encode(profile, v, opts, out, err);                                     \
    }

GD_FORMAT_FUNCS(godot4, SV_GODOT4, "godot4")
GD_FORMAT_FUNCS(godot3, SV_GODOT3, "godot3")
GD_FORMAT_FUNCS(godot_doc, SV_GODOT_DOC, "godot-doc")

static const char *const no_extensions[] = {NULL};

#define GD_COMMON_OPTIONS                                                                          \
    {"objects",                                                                                    \
     "id (default) or full: full objects (class + properties) are refused unless full"},           \
        {"framing", "raw (var_to_bytes), prefixed (store_var/put_var) or stream (many); "          \
                    "read: default what fits, write: default the tree's $meta, else raw"},         \
        {"prefix", "le (default) or be: byte order of the length prefix (StreamPeer.big_endian)"}, \
    {                                                                                              \
        "trailing", "read: allow bytes after the raw Variant or the one frame (ignored, as the "   \
                    "engine does)"                                                                 \
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
