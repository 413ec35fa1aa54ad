/* The registry's side of the Godot format: framing found by content, the
 * trailing-bytes rule of raw framing, and the file's framing kept in the
 * tree as meta on the root ({"format": "godot3", "framing": "prefixed"}), so
 * that the tree alone says how to write the file back. */
#ifndef SV_FORMATS_GODOT_FILE_META_H
#define SV_FORMATS_GODOT_FILE_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/godot.h"

/* Inputs above this are not probed for framing (the probe decodes): they
 * are read raw unless a framing is named. */
#define GD_PROBE_MAX (UINT64_C(64) << 20)

/* How well data fits the profile as a whole file: 0 (not at all) or a probe
 * score, with the framing and prefix byte order that fit. *ambiguous is set
 * when the input reads both as one raw Variant and as store_var frames, with
 * different values: its framing must then be named. */
int gd_probe_framing(sv_godot_profile profile, const uint8_t *data, size_t len,
                     sv_godot_framing *framing, bool *be, bool *ambiguous);

/* Whether data reads as store_var frames (either prefix byte order) where
 * gd_probe_framing would look for them: an input that is also one raw
 * Variant then needs gd_probe_framing's full answer (framed, or ambiguous).
 * The streaming decoder (godot_visit.c) asks this once it has read the input
 * as one raw Variant, instead of reading it into a tree again. */
bool gd_probe_frames_fit(sv_godot_profile profile, const uint8_t *data, size_t len);

/* The probe's steps, for a decoder that reads the raw Variant itself and
 * keeps it (gd_registry_decode) instead of having the probe read it first:
 *  - gd_probe_raw_candidate: whether the probe would try the input as one
 *    raw Variant at all (whole words, not too large, not starting 00);
 *  - gd_probe_reads_as: whether a decode with o reads every input as the
 *    probe's (default options) does: same types, limits and object rule;
 *  - gd_probe_frames_cut: the probe's answer for an input that fits no
 *    framing whole: whole frames and then one cut off (its framing and
 *    prefix byte order), which the probe prefers to a raw Variant cut off. */
bool gd_probe_raw_candidate(const uint8_t *data, size_t len);
bool gd_probe_reads_as(const sv_godot_opts *o);
bool gd_probe_frames_cut(sv_godot_profile profile, const uint8_t *data, size_t len,
                         sv_godot_framing *framing, bool *be);

/* Whether data is one raw Variant that fills it, as the probe reads it
 * (a typed value: not starting 00), for a decoder that read it as store_var
 * frames first: such an input is ambiguous, or raw (gd_probe_framing). */
bool gd_probe_raw_fits(sv_godot_profile profile, const uint8_t *data, size_t len);

/* *o with what the file entries of root's meta name (framing, prefix,
 * objects, version), where opts (the caller's options) do not name them.
 * *found: root has file entries, which the encoder takes out of the tree
 * before the Variant is written. An entry of the wrong form is an error. */
sv_status gd_file_meta_options(sv_godot_profile profile, const sv_value *root,
                               const sv_options *opts, sv_godot_opts *o, bool *found,
                               sv_error *err);

/* The registry's decode and encode (sv_format.decode / .encode). */
sv_status gd_registry_decode(sv_godot_profile profile, sv_doc *doc, const uint8_t *data, size_t len,
                             const sv_options *opts, sv_value *out, sv_error *err);
sv_status gd_registry_encode(sv_godot_profile profile, const sv_value *v, const sv_options *opts,
                             sv_buf *out, sv_error *err);

#endif
