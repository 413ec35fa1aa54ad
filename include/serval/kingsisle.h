/* serval: KingsIsle ObjectProperty (PropertyClass) serialization, as used by
 * Wizard101 and Pirate101 game data and network messages.
 *
 * The binary form is a bit stream of objects driven by a type list (which
 * classes exist, their properties, types and flags). serval reads and writes
 * every mode byte for byte: shallow and deep, the serializer flags (stateful
 * flags, compact lengths, string enums, zlib compression, forced dirty), the
 * manual zlib wrapper and BINd files. Without a type list, deep-mode data
 * still decodes losslessly: type and property hashes stand in for names and
 * values are kept as raw bit strings with their sizes.
 *
 * The tree and its typed JSON are described in docs/formats/kingsisle.md.
 * The same functions are reachable through the registry as the formats
 * "kingsisle" (binary) and "kingsisle-xml" (XML object files).
 *
 * Type lists: wiztype JSON (version 1 and 2) and KingsIsle's class-list XML.
 * They load into a compiled sv_kingsisle_types, and as schema loaders
 * (schema.h) so that any serval schema can drive the codec too. */
#ifndef SERVAL_KINGSISLE_H
#define SERVAL_KINGSISLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "api.h"
#include "buf.h"
#include "error.h"
#include "registry.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serializer flags (the "flags" option and the stateful flags word). */
#define SV_KI_STATEFUL_FLAGS 0x01u   /* a u32 flags word starts the stream */
#define SV_KI_COMPACT_LENGTHS 0x02u  /* 1-bit + 7/31-bit length prefixes */
#define SV_KI_STRING_ENUMS 0x04u     /* enums written as their names */
#define SV_KI_WITH_COMPRESSION 0x08u /* marker byte, then maybe zlib */
#define SV_KI_FORBID_DELTA 0x10u     /* optional properties must be present */

/* Property flags of the type list that the codec looks at. */
#define SV_KI_PROP_DEPRECATED (1u << 6)
#define SV_KI_PROP_DELTA_ENCODE (1u << 8)
#define SV_KI_PROP_BITS (1u << 20)
#define SV_KI_PROP_ENUM (1u << 21)

/* A compiled type list: classes by hash and name, properties by id, hash and
 * name, each property's encoding resolved once. Read-only once built. */
typedef struct sv_kingsisle_types sv_kingsisle_types;
typedef struct sv_schema sv_schema; /* schema.h */

/* Versioned: fill with sv_kingsisle_opts_init, then set members (api.h);
 * a struct never given to it (struct_size 0) is SV_ERR_USAGE. */
typedef struct sv_kingsisle_opts {
    uint32_t struct_size;   /* sizeof(sv_kingsisle_opts): set by sv_kingsisle_opts_init */
    bool shallow;           /* shallow mode (default false: deep) */
    bool compress;          /* the manual zlib wrapper: u32 size + zlib stream */
    uint32_t flags;         /* serializer flags (default 0) */
    uint32_t property_mask; /* a property is written when (flags & mask) == mask (default 24) */
    bool skip_deprecated;   /* shallow: skip DEPRECATED properties (default false: keep) */
    int zlib_level;         /* write: 0..9 for new compressed payloads (default 9) */
    const sv_kingsisle_types *types; /* NULL: schema-less (deep mode only) */
    sv_limits limits;
    /* SV_KI_OPT_* bits: options the caller chose even where they equal the
     * default. Encoding takes an option from the caller when its bit is set or
     * its value differs from the default, else from what the tree's root
     * recorded when it was decoded (shallow, compress, flags, property_mask,
     * skip_deprecated in its meta), else the default. */
    uint32_t given;
    /* Deep mode with a type list: an object whose class the list lacks
     * decodes as null (katsuba's --ignore-unknown-types), not as raw bits.
     * Lossy: the object is lost. The root object stays raw bits. */
    bool skip_unknown_types;
    /* Decode: called for each object whose class the type list lacks, with w
     * filled as an error would be (byte and bit of its type tag, its JSON
     * Pointer, the hash); the decode goes on. NULL (the default): not called. */
    void (*warn)(void *ctx, const sv_error *w);
    void *warn_ctx;
} sv_kingsisle_opts;

/* Bits of sv_kingsisle_opts.given. */
#define SV_KI_OPT_SHALLOW 0x01u
#define SV_KI_OPT_COMPRESS 0x02u
#define SV_KI_OPT_FLAGS 0x04u
#define SV_KI_OPT_PROPERTY_MASK 0x08u
#define SV_KI_OPT_SKIP_DEPRECATED 0x10u
#define SV_KI_OPT_SKIP_UNKNOWN_TYPES 0x20u

SV_API void sv_kingsisle_opts_init(sv_kingsisle_opts *o);

/* The codec's options from the registry's: the option names the "kingsisle"
 * format lists (shallow, flags, skip_unknown_types, ...), the limits, and
 * the type list compiled from opts->schema into *types (NULL without one;
 * the caller frees it with sv_kingsisle_types_free, after the decode). */
SV_API SV_NODISCARD sv_status sv_kingsisle_opts_from_options(const sv_options *opts,
                                                             sv_kingsisle_opts *out,
                                                             sv_kingsisle_types **types,
                                                             sv_error *err);

/* Decodes a stream (or a BINd file, detected by its magic, whose stored flags
 * and deep mode then apply). The root object and everything a re-encode
 * needs (the options that decide the bytes where they are not the defaults,
 * stored flags, padding bits that are not zero, original compressed
 * payloads) go into the tree. */
SV_API SV_NODISCARD sv_status sv_kingsisle_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                                  const sv_kingsisle_opts *opts, sv_value *out,
                                                  sv_error *err);

/* Encodes a tree of the shape sv_kingsisle_decode makes, appending to out.
 * The mode and serializer options the root's meta recorded apply where the
 * caller chose none (see sv_kingsisle_opts.given). */
SV_API SV_NODISCARD sv_status sv_kingsisle_encode(const sv_value *v, const sv_kingsisle_opts *opts,
                                                  sv_buf *out, sv_error *err);

/* XML object files (<Objects><Class Name="...">...</Class></Objects>). The
 * type list gives the property types; without one, values stay text. */
SV_API SV_NODISCARD sv_status sv_kingsisle_xml_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                                      const sv_kingsisle_opts *opts, sv_value *out,
                                                      sv_error *err);
SV_API SV_NODISCARD sv_status sv_kingsisle_xml_encode(const sv_value *v,
                                                      const sv_kingsisle_opts *opts, sv_buf *out,
                                                      sv_error *err);

/* ---- hashes ------------------------------------------------------------- */

/* KingsIsle's StringID of a name (the type tag of "class Foo"). */
SV_API uint32_t sv_kingsisle_string_id(const char *s, size_t len);
/* The modified djb2 of a property name (31 bits). */
SV_API uint32_t sv_kingsisle_djb2(const char *s, size_t len);
/* A property's hash: string_id(type) + djb2(name), mod 2^32. */
SV_API uint32_t sv_kingsisle_property_hash(const char *type, size_t type_len, const char *name,
                                           size_t name_len);

/* ---- type lists ---------------------------------------------------------- */

/* An empty type list (alloc NULL = libc). NULL when memory ran out. */
SV_API sv_kingsisle_types *sv_kingsisle_types_new(const sv_alloc *alloc);
SV_API void sv_kingsisle_types_free(sv_kingsisle_types *t);

/* Adds one type list file: wiztype JSON v1 or v2, or class-list XML (told
 * apart by content). A class already present (by hash) is replaced: the last
 * file wins. source names the file in errors. */
SV_API SV_NODISCARD sv_status sv_kingsisle_types_add(sv_kingsisle_types *t, const uint8_t *data,
                                                     size_t len, const char *source, sv_error *err);

/* A compiled type list from a finalised schema (any schema: one loaded from
 * a type list by the loaders below, or a serval schema file). */
SV_API SV_NODISCARD sv_status sv_kingsisle_types_from_schema(const sv_alloc *alloc,
                                                             const sv_schema *s,
                                                             sv_kingsisle_types **out,
                                                             sv_error *err);

/* Adds the type list's classes and enums to a schema (not finalised) through
 * the schema building calls. */
SV_API SV_NODISCARD sv_status sv_kingsisle_types_to_schema(const sv_kingsisle_types *t,
                                                           sv_schema *s, sv_error *err);

/* 0 (not a type list) to 100: which kind of type list the bytes are.
 * *kind gets "wiztype-v1", "wiztype-v2", "class-list-xml" or "". */
SV_API int sv_kingsisle_types_probe(const uint8_t *data, size_t len, const char **kind);

/* What a type list holds, for summaries. */
typedef struct sv_kingsisle_class_info {
    const char *name;
    uint32_t hash;
    uint32_t nprops;
} sv_kingsisle_class_info;
typedef struct sv_kingsisle_prop_info {
    const char *name;
    const char *type; /* as the list spells it */
    uint32_t hash, id, flags;
    bool dynamic;
    uint32_t nenum; /* enum options (without __DEFAULT and __BASECLASS) */
} sv_kingsisle_prop_info;

SV_API size_t sv_kingsisle_types_class_count(const sv_kingsisle_types *t);
/* Classes in the order they were added; false when i is out of range. */
SV_API bool sv_kingsisle_types_class_at(const sv_kingsisle_types *t, size_t i,
                                        sv_kingsisle_class_info *out);
/* Property j of class i, in id order. */
SV_API bool sv_kingsisle_types_prop_at(const sv_kingsisle_types *t, size_t i, size_t j,
                                       sv_kingsisle_prop_info *out);

SV_API extern const sv_format sv_format_kingsisle;
SV_API extern const sv_format sv_format_kingsisle_xml;

#ifdef __cplusplus
}
#endif
#endif
