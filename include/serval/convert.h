/* serval: honest conversions between formats.
 *
 * A tree decoded from one format may hold values another format has no form
 * for: a Godot Vector3 has none in BSON, a BSON datetime none in Godot. An
 * encoder handed such a tree would have to refuse it or change it; serval's
 * conversions do neither silently. Before a tree is written in another
 * format, sv_convert_lower walks all of it and finds every value the target
 * cannot write exactly:
 *  - by default each one is an error (SV_ERR_UNSUPPORTED) naming its JSON
 *    Pointer, and nothing is changed;
 *  - in lossy mode each one is replaced by its nearest form in the target (a
 *    Vector3 by an array of three numbers, a datetime by its int), and the
 *    change is reported. Values that have no form even then (an unsigned
 *    int above int64 in BSON, say) stay errors.
 * The callback, when given, sees every such value in one walk, so a caller
 * can list all of them at once; the walk does not stop at the first.
 *
 * "Exactly" means the target reads the same value back: a number written in
 * a wider type that holds it (a float32 as a BSON double, a u8 as an int32)
 * is exact, a type the target has no tag for is not. Typed JSON holds every
 * tree, so converting to "json" never reports anything. docs/conversions.md
 * has the table for every pair of formats. */
#ifndef SERVAL_CONVERT_H
#define SERVAL_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "registry.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One value the target cannot write exactly. The strings live until the
 * callback returns. */
typedef struct sv_convert_change {
    const char *pointer; /* JSON Pointer of the value in the source tree */
    const char *what;    /* the value: "a vector3 tuple", "an int tagged datetime" */
    /* Its nearest form in the target ("an array of 3 numbers"), or NULL
     * when it has none and is refused even in lossy mode. */
    const char *becomes;
    /* One line for a user: "<what> has no <target> form" when refused,
     * "<what> became <becomes>" when lowered in lossy mode. */
    const char *message;
    bool refused; /* not written: an error in either mode */
} sv_convert_change;

typedef void (*sv_convert_fn)(void *ctx, const sv_convert_change *change);

/* Versioned: fill with sv_convert_opts_init, then set members (api.h). */
typedef struct sv_convert_opts {
    uint32_t struct_size; /* sizeof(sv_convert_opts), set by sv_convert_opts_init */
    /* Write the nearest form of each value the target cannot hold (and
     * report it) instead of refusing the tree. Default false. */
    bool lossy;
    /* Called once per value the target cannot hold exactly, in tree order.
     * May be NULL: then the walk stops at the first refused value. */
    sv_convert_fn report;
    void *report_ctx;
    /* The target format's options (a Godot profile's objects=full and
     * version=, say), as its encoder gets them; may be NULL. */
    const sv_options *format_options;
} sv_convert_opts;

/* Not lossy, no callback, no format options, and struct_size. */
SV_API void sv_convert_opts_init(sv_convert_opts *o);

/* Whether serval knows which values format to writes exactly. False for
 * formats whose encoder checks each value against a type list or schema
 * (kingsisle, kingsisle-xml, noesis): their encoder is the check, and refuses
 * a value of another type with its path. JSON is true (it holds all). */
SV_API bool sv_convert_knows(const sv_format *to);

/* Makes *out, a tree that to's encoder writes exactly. Values it would not
 * are reported through opts->report; without opts->lossy each is refused,
 * with lossy each is replaced in a copy made in doc (unchanged parts are
 * shared with root, so doc and root's document must both outlive *out).
 * Returns SV_OK (and *changes, when not NULL, the number of values lowered),
 * or SV_ERR_UNSUPPORTED with err naming the first value refused (the format
 * is to's name, the path its pointer), SV_ERR_NOMEM, or SV_ERR_USAGE for a
 * bad opts or a format option the target does not accept. When nothing is
 * to be done, *out is *root. */
SV_API SV_NODISCARD sv_status sv_convert_lower(sv_doc *doc, const sv_format *to,
                                               const sv_value *root, const sv_convert_opts *opts,
                                               sv_value *out, size_t *changes, sv_error *err);

/* The check alone: SV_OK when to writes root exactly (given to the encoder
 * as sv_convert_lower makes it: without lossy, that changes no value but may
 * move numbers into a type the target has, such as float64s that float32
 * holds into Godot 3's PoolRealArray), else as
 * sv_convert_lower without lossy (every value reported through opts->report
 * when it is given; opts->lossy is ignored). *count gets the number of values
 * that cannot be written exactly (may be NULL). */
SV_API SV_NODISCARD sv_status sv_convert_check(const sv_format *to, const sv_value *root,
                                               const sv_convert_opts *opts, size_t *count,
                                               sv_error *err);

/* What `serval conv` does with a decoded tree, as one call, so that every
 * caller (the command, the fuzz targets, the tests) takes the same path:
 * the tree to writes exactly is made (sv_convert_lower, in a document of its
 * own that opts->format_options->limits.max_alloc bounds), then to->encode
 * appends it to out with opts->format_options. The walk is left out when
 * from is to (a decoder's tree is one its own encoder writes exactly, with
 * the same options) or when to checks its own values (sv_convert_knows);
 * from may be NULL (not known). Returns SV_OK, the lowering's error (values
 * refused, reported through opts->report when given) or the encoder's; on
 * an error, out may hold part of the output past its old length. */
SV_API SV_NODISCARD sv_status sv_convert_encode(const sv_format *from, const sv_format *to,
                                                const sv_value *root, const sv_convert_opts *opts,
                                                sv_buf *out, size_t *changes, sv_error *err);

/* Whether sv_convert_transcode converts from to to, for some inputs at
 * least, without a tree: typed JSON to typed JSON (sv_json_transcode), BSON
 * to BSON and Resonite to Resonite (the input checked by the reader, its
 * BSON written back), NoesisGUI to NoesisGUI (each instance written as it
 * is decoded), and a Godot Variant (godot4, godot3) to the same profile. */
SV_API bool sv_convert_streams(const sv_format *from, const sv_format *to);

/* Whether sv_convert_transcode converts this input (data[0..len), read
 * with in_opts, written with opts) without a tree: JSON, BSON, Resonite
 * and NoesisGUI to themselves always (an input the BSON or Resonite check
 * refuses then goes through a tree inside); a Godot Variant to the same profile when it is one raw
 * outermost Array or Dictionary with nothing in its header or count that
 * the tree keeps as meta, and neither side has an option but the limits
 * (a cheap look at its first words and framing). */
SV_API bool sv_convert_streams_input(const sv_format *from, const sv_format *to,
                                     const uint8_t *data, size_t len, const sv_options *in_opts,
                                     const sv_convert_opts *opts);

/* What `serval conv` does when sv_convert_streams(from, to): decodes
 * data[0..len) with from's options in_opts and appends to out what
 * sv_convert_encode would write for the decoded tree, in one pass without
 * the whole tree where sv_convert_streams_input says so (doc is a scratch
 * document, empty on return); a Godot input that it does not say so of is
 * decoded into a tree in doc and written by sv_convert_encode. The error
 * is the decoder's (offset and path) or the encoder's (no offset), as for
 * a decode then sv_convert_encode. On failure out is left at its old
 * length unless a sink took part of the output. For other formats:
 * SV_ERR_UNSUPPORTED, nothing written (decode into a tree and call
 * sv_convert_encode). */
SV_API SV_NODISCARD sv_status sv_convert_transcode(sv_doc *doc, const sv_format *from,
                                                   const sv_format *to, const uint8_t *data,
                                                   size_t len, const sv_options *in_opts,
                                                   const sv_convert_opts *opts, sv_buf *out,
                                                   sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
