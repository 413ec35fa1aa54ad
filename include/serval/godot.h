/* serval: Godot's Variant binary serialization (var_to_bytes / bytes_to_var,
 * FileAccess.store_var, StreamPeer.put_var, PacketPeer.put_var).
 *
 * Three profiles share one decoder and one encoder (docs/formats/godot.md):
 *  - SV_GODOT4:    Godot 4.0 to 4.4+ type numbering (39 types), typed
 *                  containers (4.3 arrays, 4.4 dictionaries);
 *  - SV_GODOT3:    Godot 3.0 to 3.6 numbering (27 types), Pool arrays;
 *  - SV_GODOT_DOC: the numbering of the outdated docs page, which the npm
 *                  package @gd-com/utils 5.x writes.
 * The registry names them "godot4", "godot3" and "godot-doc". */
#ifndef SERVAL_GODOT_H
#define SERVAL_GODOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "buf.h"
#include "error.h"
#include "registry.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_godot_profile { SV_GODOT4 = 0, SV_GODOT3, SV_GODOT_DOC } sv_godot_profile;

typedef enum sv_godot_framing {
    SV_GODOT_RAW = 0,  /* var_to_bytes, PacketPeer: one Variant, no prefix */
    SV_GODOT_PREFIXED, /* store_var, StreamPeer.put_var: u32 length + one Variant */
    SV_GODOT_STREAM    /* several length-prefixed Variants <-> an array of them */
} sv_godot_framing;

/* Versioned: fill with sv_godot_opts_init, then set members (api.h). */
typedef struct sv_godot_opts {
    uint32_t struct_size; /* set by sv_godot_opts_init */
    sv_godot_profile profile;
    /* SV_GODOT4 only: the 4.x minor version whose rules apply (2 = 4.0 to
     * 4.2: no typed containers, no PackedVector4Array; 3 = 4.3: typed arrays;
     * 4 = 4.4+: typed dictionaries too). 0 means the latest (4). */
    int godot4_minor;
    /* Decode: accept full objects (class + properties), as
     * bytes_to_var_with_objects does; off = refused, as the engine refuses.
     * Encode: write object values in full (var_to_bytes_with_objects); off =
     * refused, because serval's tree has no instance id for them. */
    bool full_objects;
    /* Encode, SV_GODOT4 only: a double-precision (real_t = double) build:
     * every real math type gets the 64-bit flag and f64 fields. */
    bool real_double;
    sv_godot_framing framing;
    bool prefix_big_endian; /* length prefixes are big-endian (StreamPeer.big_endian) */
    sv_limits limits;       /* max_depth: nesting (default 1024, as the engine) */
    /* Decode: a packed number array (PackedInt32Array ... PackedVector3Array,
     * PackedColorArray) whose bytes in the input are aligned to its element
     * size, and a String value (not a key or a name) of plain ASCII whose
     * first padding byte is 00, point into the input instead of being
     * copied, so the input must outlive the tree and not change. Such a
     * value is read-only
     * (sv_is_borrowed; sv_value_buf gives NULL); sv_copy copies it. Only on
     * little-endian hosts, where the bytes are already the tree's. */
    bool borrow_input;
} sv_godot_opts;

/* Default options for a profile (raw framing, objects as ids, float build,
 * the latest 4.x rules, default limits). */
SV_API void sv_godot_opts_init(sv_godot_opts *o, sv_godot_profile profile);

/* Decodes data into doc. Raw framing decodes the first Variant and ignores
 * trailing bytes, as the engine does; *consumed (may be NULL) gets the bytes
 * the Variant used (the engine's r_len: a PackedByteArray's padding counts
 * even when the input ends before it). On failure err names the format, the
 * byte offset and the path of the failing value. */
/* The tree does not borrow the input unless opts->borrow_input: every string,
 * byte string and packed array is copied into the document, so the input may
 * be freed as soon as the call returns. */
SV_API SV_NODISCARD sv_status sv_godot_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                              const sv_godot_opts *opts, sv_value *out,
                                              size_t *consumed, sv_error *err);

/* Appends the encoding of v to out. Trees that no Godot Variant matches
 * (a reference, a tuple of an unknown shape, a type the profile lacks) are
 * refused with an error naming the path; nothing useful is left in out then. */
SV_API SV_NODISCARD sv_status sv_godot_encode(const sv_value *v, const sv_godot_opts *opts,
                                              sv_buf *out, sv_error *err);

/* The registry entries ("godot4", "godot3", "godot-doc"). */
SV_API extern const sv_format sv_format_godot4;
SV_API extern const sv_format sv_format_godot3;
SV_API extern const sv_format sv_format_godot_doc;

/* Engine rules a decoded Godot 4 tree may break, found by sv_godot_check:
 * the engine reads such bytes without error but changes the value. */
typedef void (*sv_godot_rule_fn)(void *ctx, const char *pointer, const char *message);

/* Walks root and calls fn once per broken rule with the JSON Pointer of the
 * offending value and what the engine does: a typed Array[int] or
 * Array[String] element of another type (dropped), a typed Dictionary key
 * of another type than its String or int key type (the entry dropped), a
 * script-typed container with an empty path (read as
 * Array[EncodedObjectAsID]). *count gets the number found. SV_ERR_DEPTH
 * for a tree nested deeper than the engine's 1024 levels, SV_ERR_NOMEM when
 * a pointer could not be made. */
SV_API SV_NODISCARD sv_status sv_godot_check(const sv_value *root, sv_godot_rule_fn fn, void *ctx,
                                             size_t *count);

#ifdef __cplusplus
}
#endif
#endif
