/* BSON reader and writer internals shared by their files. */
#ifndef SV_FORMATS_BSON_INTERNAL_H
#define SV_FORMATS_BSON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/utf8.h"
#include "formats/bson/bson_embed.h"
#include "serval/bson.h"

/* BSON element types (bsonspec.org 1.1). */
enum {
    BSON_DOUBLE = 0x01,
    BSON_STRING = 0x02,
    BSON_DOCUMENT = 0x03,
    BSON_ARRAY = 0x04,
    BSON_BINARY = 0x05,
    BSON_UNDEFINED = 0x06,
    BSON_OBJECTID = 0x07,
    BSON_BOOL = 0x08,
    BSON_DATETIME = 0x09,
    BSON_NULL = 0x0A,
    BSON_REGEX = 0x0B,
    BSON_DBPOINTER = 0x0C,
    BSON_CODE = 0x0D,
    BSON_SYMBOL = 0x0E,
    BSON_CODE_W_SCOPE = 0x0F,
    BSON_INT32 = 0x10,
    BSON_TIMESTAMP = 0x11,
    BSON_INT64 = 0x12,
    BSON_DECIMAL128 = 0x13,
    BSON_MAXKEY = 0x7F,
    BSON_MINKEY = 0xFF
};

/* Binary subtypes with a shape of their own. */
enum { BSON_SUB_GENERIC = 0x00, BSON_SUB_OLD_BINARY = 0x02, BSON_SUB_UUID = 0x04 };

/* The classes of OBJECT values that stand for BSON element types without a
 * tree kind of their own (bson.h). */
#define BSON_CLASS_BINARY "bson.binary"
#define BSON_CLASS_UNDEFINED "bson.undefined"
#define BSON_CLASS_DBPOINTER "bson.dbpointer"
#define BSON_CLASS_CODE "bson.code"
#define BSON_CLASS_SYMBOL "bson.symbol"
#define BSON_CLASS_CODE_W_SCOPE "bson.code_w_scope"

/* Nesting the reader and writer accept whatever the limits say: both
 * recurse, and the typed JSON writer stops at 2048 levels anyway. */
#define BSON_MAX_NESTING 2048u

/* Lower-case hex of n bytes into out (2n chars, no NUL); parsing back,
 * either case. */
void sv__bson_hex(const uint8_t *in, size_t n, char *out);
bool sv__bson_unhex(const char *in, size_t n, uint8_t *out);
/* The 36-character UUID text "8-4-4-4-12" of 16 bytes, and back. */
void sv__bson_uuid_text(const uint8_t in[16], char out[36]);
bool sv__bson_uuid_parse(const char *in, size_t n, uint8_t out[16]);

/* The conversion rules of BSON (bson_convert_rules.c), and of a Resonite
 * data tree (a BSON document in a container: resonite true), for the
 * registry hooks (core/format_module.h). */
struct cv_rules;
sv_status bson_convert_rules_for(bool resonite, const sv_options *opts, struct cv_rules *r,
                                 void *state, size_t state_size);

#endif
