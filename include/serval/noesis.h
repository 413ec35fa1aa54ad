/* serval: NoesisGUI 1.x serialization files ("NSDH", .nsb).
 *
 * The byte layout, the tree and its typed JSON are described in
 * docs/formats/noesis.md. In short: a map with the header
 * ("byte_order", "version", "unicode") and "chunks", each chunk with its
 * string list, components, metadata (strings and the command stream, kept
 * as bytes), instance list and, when metadata describes the data, one typed
 * object per instance ("objects"), else the data section as bytes ("data").
 *
 * The same functions are reachable through the registry as format "noesis". */
#ifndef SERVAL_NOESIS_H
#define SERVAL_NOESIS_H

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

/* Versioned: fill with sv_noesis_opts_init, then set members (api.h). */
typedef struct sv_noesis_opts {
    uint32_t struct_size; /* set by sv_noesis_opts_init */
    sv_limits limits;     /* decoding: depth, string length, allocation */
    /* Decoding: keep each chunk's data section as bytes ("data") even when
     * its metadata describes the objects. */
    bool raw;
    /* Encoding: the file version to write, 2 to 5; 0 = the tree's "version",
     * else 5. */
    int version;
} sv_noesis_opts;

/* Defaults: the default limits, objects typed, the tree's version. */
SV_API void sv_noesis_opts_init(sv_noesis_opts *o);

/* Decodes an NSDH file. opts may be NULL. */
/* The tree does not borrow the input: every string, byte string and packed
 * array is copied into the document, so the input may be freed as soon as
 * the call returns. */
SV_API SV_NODISCARD sv_status sv_noesis_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                               const sv_noesis_opts *opts, sv_value *out,
                                               sv_error *err);

/* Encodes a tree of the shape sv_noesis_decode makes, appending to out.
 * opts may be NULL. */
SV_API SV_NODISCARD sv_status sv_noesis_encode(const sv_value *v, const sv_noesis_opts *opts,
                                               sv_buf *out, sv_error *err);

/* The registry entry ("noesis"): options "raw" and "version". */
SV_API extern const sv_format sv_format_noesis;

#ifdef __cplusplus
}
#endif
#endif
