/* serval: the typed JSON reader and writer.
 *
 * The typed JSON is a lossless mapping of the whole value tree (docs/json.md):
 * plain JSON where nothing is lost, and single-key "$" forms such as
 * {"$i32": 5}, {"$f32": 1.5}, {"$bytes": "AAE="}, {"$vector3": [1.0, 2.0, 3.0]}
 * for everything else. With plain=true the reader treats "$" keys as ordinary
 * keys (RFC 8259 JSON into the tree) and the writer never emits "$" forms. */
#ifndef SERVAL_JSON_H
#define SERVAL_JSON_H

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

/* Options structs are versioned: fill one with its _init function, then set
 * members (api.h tells how struct_size works). */
typedef struct sv_json_decode_opts {
    uint32_t struct_size; /* set by sv_json_decode_opts_init */
    sv_limits limits;     /* depth, string length, allocation */
    bool allow_comments;  /* accept // and / * * / comments (O3DE files carry them) */
    bool plain;           /* do not interpret "$" forms */
} sv_json_decode_opts;

/* Defaults: the default limits, no comments, typed JSON. */
SV_API void sv_json_decode_opts_init(sv_json_decode_opts *o);

/* Parses len bytes of UTF-8 JSON text into doc; *out gets the root value
 * (it is not made the document's root). opts may be NULL. On failure err has
 * the byte offset, line and column. */
/* The tree does not borrow the input: every string, byte string and packed
 * array is copied into the document, so the input may be freed as soon as
 * the call returns. */
SV_API SV_NODISCARD sv_status sv_json_decode(sv_doc *doc, const char *text, size_t len,
                                             const sv_json_decode_opts *opts, sv_value *out,
                                             sv_error *err);

typedef struct sv_json_encode_opts {
    uint32_t struct_size; /* set by sv_json_encode_opts_init */
    int indent;           /* 0 = compact; n = pretty with n spaces per level */
    bool plain;           /* lossy plain JSON: no "$" forms (for tools that want them not) */
} sv_json_encode_opts;

/* Defaults: compact typed JSON. */
SV_API void sv_json_encode_opts_init(sv_json_encode_opts *o);

/* Appends the JSON text of v (no trailing newline) to out. opts may be NULL.
 * Fails only on allocation failure or a malformed tree. The writer recurses
 * once per nesting level and refuses trees deeper than 2048 containers
 * (SV_ERR_DEPTH); the deepest tree needs well under 1 MiB of stack in an
 * optimised build. */
SV_API SV_NODISCARD sv_status sv_json_encode(const sv_value *v, const sv_json_encode_opts *opts,
                                             sv_buf *out, sv_error *err);

/* sv_json_decode then sv_json_encode in one pass, without the whole tree:
 * appends to out exactly the bytes that decoding text and encoding the tree
 * would, or fails with exactly the decoder's error (offset, line, column
 * and path) where the decoder would. The items of an outermost array are
 * written as they are read, and doc (a scratch document, empty on return)
 * is emptied between them (sv_doc_reset), so a long array takes the memory
 * of a few items, not of the tree; limits.max_alloc then bounds what doc
 * holds at once. Any other root is decoded whole and written. An error of
 * the writer (no memory for the output, a sink that failed) has no input
 * offset (SV_ERROR_NO_OFFSET). On failure out is left at its old length
 * unless a sink (sv_buf_set_sink) took part of the output: the caller
 * discards it then. */
SV_API SV_NODISCARD sv_status sv_json_transcode(sv_doc *doc, const char *text, size_t len,
                                                const sv_json_decode_opts *dopts,
                                                const sv_json_encode_opts *eopts, sv_buf *out,
                                                sv_error *err);

/* The registry entry ("json"): options "comments", "plain", "indent". */
SV_API extern const sv_format sv_format_json;

#ifdef __cplusplus
}
#endif
#endif
