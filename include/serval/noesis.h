/* serval: NoesisGUI 1.x serialization files ("NSDH", .nsb).
 *
 * The tree and its typed JSON are described in docs/formats/noesis.md; the
 * byte layout in ../shared/specs/noesis.md. In short: a map with the header
 * ("byte_order", "version", "unicode") and "chunks", each chunk with its
 * string list, components, metadata (strings and the command stream, kept
 * as bytes), instance list and, when metadata describes the data, one typed
 * object per instance ("objects"), else the data section as bytes ("data").
 *
 * The same functions are reachable through the registry as format "noesis". */
#ifndef SERVAL_NOESIS_H
#define SERVAL_NOESIS_H

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

SV_API extern const sv_format sv_format_noesis;

/* Decodes an NSDH file. Options: "raw" (keep the data section as bytes even
 * with metadata). Limits: opts->limits. */
SV_API SV_NODISCARD sv_status sv_noesis_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                               const sv_options *opts, sv_value *out,
                                               sv_error *err);

/* Encodes a tree of the shape sv_noesis_decode makes, appending to out.
 * Options: "version" = 2..5 (default: the tree's "version", else 5). */
SV_API SV_NODISCARD sv_status sv_noesis_encode(const sv_value *v, const sv_options *opts,
                                               sv_buf *out, sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
