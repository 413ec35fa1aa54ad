/* NoesisGUI to NoesisGUI without the tree, with the registry's "name=value"
 * options, for sv_convert_transcode (src/convert/convert_transcode.c). */
#ifndef SV_NOESIS_TRANSCODE_H
#define SV_NOESIS_TRANSCODE_H

#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"
#include "serval/registry.h"
#include "serval/value.h"

/* Appends to out what encoding the decoded tree would: the same bytes and
 * the same errors (the decoder's, with their offsets and paths, then the
 * encoder's) as sv_noesis_decode with the options in followed by
 * sv_noesis_encode with out_opts, but each instance is written as soon as
 * it is decoded and its values are dropped a MiB or so at a time: the
 * memory is the chunk's framing, not the tree. doc is a scratch document,
 * empty on return. On failure out is left at its old length unless a sink
 * took part of the output. */
sv_status sv__noesis_format_transcode(sv_doc *doc, const uint8_t *data, size_t len,
                                      const sv_options *in, const sv_options *out_opts, sv_buf *out,
                                      sv_error *err);

#endif
