/* A raw Godot Variant to the same profile without the whole tree
 * (godot_transcode.c), for sv_convert_transcode. */
#ifndef SV_FORMATS_GODOT_TRANSCODE_H
#define SV_FORMATS_GODOT_TRANSCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/godot.h"
#include "serval/registry.h"

/* Whether the conversion of data[0..len) from profile to itself, read with
 * in_opts and written with out_opts, can go item by item: no option but
 * the limits on either side, an input that the registry's decode reads as
 * one raw Variant (no store_var frames fit it), an outermost Array or
 * Dictionary whose header and count carry nothing the tree keeps in meta.
 * Cheap: the header, the count and the framing probe's first steps. */
bool sv__godot_transcode_fits(sv_godot_profile profile, const uint8_t *data, size_t len,
                              const sv_options *in_opts, const sv_options *out_opts);

/* Appends to out what the registry's encode writes for the registry's
 * decode of data (when sv__godot_transcode_fits), reading and writing the
 * outermost container's items one at a time in doc (emptied on return).
 * SV_OK; or *redo: the input holds what this path leaves to the tree path
 * (an error, keys that may repeat, bytes after the Variant), which must
 * then give the answer (out may hold part of the output, and a sink may
 * have taken some of it); or, *redo false, the sink's error. */
sv_status sv__godot_transcode(sv_godot_profile profile, sv_doc *doc, const uint8_t *data,
                              size_t len, const sv_options *in_opts, const sv_options *out_opts,
                              sv_buf *out, bool *redo, sv_error *err);

#endif
