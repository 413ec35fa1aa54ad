/* serval: BSON (bsonspec.org 1.1) to and from the value tree.
 *
 * The reader keeps every element type, keys in order and the exact bytes:
 * encoding a tree that came from sv_bson_decode gives back the input bytes.
 * The mapping (docs/formats/bson.md):
 *
 *   double 01           FLOAT, width 8                  1.5
 *   string 02           STRING                          "text"
 *   document 03         MAP with string keys            {...}
 *   array 04            ARRAY (keys "0","1",...; other keys are kept in the
 *                       array's meta, an ARRAY of the key strings)
 *   binary 05 sub 0     BYTES                           {"$bytes": "..."}
 *   binary 05 sub 4     STRING tagged uuid (16 bytes)   {"$uuid": "8-4-4-4-12 hex"}
 *   binary 05 other     OBJECT class "bson.binary" {subtype: u8, data: BYTES}
 *   undefined 06        OBJECT class "bson.undefined"
 *   ObjectId 07         STRING tagged objectid          {"$objectid": "24 hex"}
 *   bool 08             BOOL
 *   datetime 09         INT width 8 tagged datetime     {"$datetime": ms}
 *   null 0A             NULL
 *   regex 0B            ARRAY [pattern, options] tagged regex
 *   DBPointer 0C        OBJECT "bson.dbpointer" {namespace, id: objectid}
 *   code 0D             OBJECT "bson.code" {code}
 *   symbol 0E           OBJECT "bson.symbol" {symbol}
 *   code w/ scope 0F    OBJECT "bson.code_w_scope" {code, scope}
 *   int32 10            INT width 4 (explicit)          {"$i32": 5}
 *   timestamp 11        UINT width 8 tagged timestamp
 *   int64 12            INT width 8                     5
 *   decimal128 13       BYTES (16, little-endian as stored) tagged decimal128
 *   min key FF, max 7F  NULL tagged minkey / maxkey
 *
 * With the Resonite string convention (spec resonite A.5), a string value
 * "@x" is a URL (STRING tagged url, without the "@") and "@@x" is the plain
 * string "@x". */
#ifndef SERVAL_BSON_H
#define SERVAL_BSON_H

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

/* Versioned: fill with sv_bson_opts_init, then set members (api.h). */
typedef struct sv_bson_opts {
    uint32_t struct_size; /* set by sv_bson_opts_init */
    sv_limits limits;     /* reading: depth, string length, allocation */
    const char *format;   /* names the format in errors; NULL = "bson" */
    bool resonite_urls;   /* the Resonite "@" string convention, both ways */
    /* Decode: the caller keeps the input alive and unchanged for as long as
     * the tree lives, so string values point at their bytes in the input
     * (a BSON string ends with 00 there, as a tree string must) instead of
     * being copied. Such a value is read-only (sv_is_borrowed; sv_value_buf
     * gives NULL); sv_copy copies it. Keys are interned copies either way. */
    bool borrow_input;
} sv_bson_opts;

/* Defaults: the default limits, format "bson", plain strings. */
SV_API void sv_bson_opts_init(sv_bson_opts *o);

/* Decodes one BSON document that fills data exactly. opts may be NULL. */
/* The tree does not borrow the input unless opts->borrow_input: every
 * string and byte string is copied into the document, so the input may be
 * freed as soon as the call returns. */
SV_API SV_NODISCARD sv_status sv_bson_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                             const sv_bson_opts *opts, sv_value *out,
                                             sv_error *err);

/* Whether sv_bson_decode would accept data, with the same error (status,
 * byte offset, JSON Pointer path and message) when not, without building a
 * tree: every rule of the reader is applied, nothing is allocated but the
 * checker's own few hundred bytes. The limits on depth and string length
 * apply; the allocation limit does not (no tree is made). opts may be NULL. */
SV_API SV_NODISCARD sv_status sv_bson_validate(const uint8_t *data, size_t len,
                                               const sv_bson_opts *opts, sv_error *err);

/* Appends the BSON of v (a MAP with string keys, or an OBJECT whose fields
 * become the document) to out. opts may be NULL. */
SV_API SV_NODISCARD sv_status sv_bson_encode(const sv_value *v, const sv_bson_opts *opts,
                                             sv_buf *out, sv_error *err);

/* The registry entry ("bson"): option "resonite-urls". */
SV_API extern const sv_format sv_format_bson;

#ifdef __cplusplus
}
#endif
#endif
