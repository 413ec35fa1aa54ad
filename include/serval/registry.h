/* serval: the format registry.
 *
 * Each format (json, godot4, ...) registers a name, its file extensions, a
 * probe, a decoder, an encoder and the options it understands. The CLI knows
 * formats only through this table. */
#ifndef SERVAL_REGISTRY_H
#define SERVAL_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "buf.h"
#include "error.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options structs are versioned: declare, init (here sv_options_init), then
 * set members. api.h says how struct_size works, for every options struct. */

typedef struct sv_schema sv_schema; /* schema.h */

/* Options handed to a format: the limits plus "name=value" pairs, and the
 * schema (type information) for formats that need one. */
typedef struct sv_options {
    uint32_t struct_size; /* sizeof(sv_options), set by sv_options_init */
    sv_limits limits;
    const char *const *names;  /* count entries */
    const char *const *values; /* count entries ("" for a bare flag) */
    size_t count;
    const sv_schema *schema; /* finalised schema, or NULL (schema.h) */
    /* Decode: the caller keeps the input alive and unchanged for as long as
     * the tree lives, so a format may point the tree's strings and packed
     * number arrays into it instead of copying them (bson: strings; godot:
     * aligned packed arrays and strings followed by a 00 in the input;
     * godot-res: strings, byte arrays and packed arrays wherever they lie,
     * so at any address; sv_is_borrowed tells). Off (the default): nothing
     * is borrowed. */
    bool borrow_input;
} sv_options;

/* No limits (the defaults), no pairs, and struct_size. */
SV_API void sv_options_init(sv_options *o);

/* The value of option name, or NULL when not given. opts may be NULL. */
SV_API const char *sv_options_get(const sv_options *opts, const char *name);
/* An option as a boolean: "", "1", "true", "yes" are true; "0", "false", "no" false. */
SV_API bool sv_options_flag(const sv_options *opts, const char *name, bool def);

typedef struct sv_option_desc {
    const char *name;
    const char *help; /* one line */
} sv_option_desc;

/* A probe's score for input that is a cut-off prefix of what the format
 * reads: its magic or header fits and is consistent, but the body it
 * announces runs past the input's end. Below every real match, so any format
 * the whole input fits wins; with nothing else fitting, detection names the
 * format and its decoder says where the input ends, instead of the input
 * being of no known format. */
#define SV_PROBE_TRUNCATED 1

typedef struct sv_format {
    /* sizeof(sv_format) in the library that made the entry: members are
     * only ever appended, and a member lies beyond struct_size when the
     * library is older than it. */
    uint32_t struct_size;
    const char *name;              /* "json" */
    const char *description;       /* one line */
    const char *const *extensions; /* NULL-terminated, without dot: {"json", NULL} */
    /* How sure the format is that the bytes are its own: 0 (no) to 100 (magic
     * matched), or SV_PROBE_TRUNCATED for the start of a file of the format
     * that the input's end cuts off. May be NULL (never detected by
     * content). */
    int (*probe)(const uint8_t *data, size_t len);
    sv_status (*decode)(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                        sv_value *out, sv_error *err);
    /* May be NULL for read-only formats. */
    sv_status (*encode)(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err);
    const sv_option_desc *options; /* terminated by {NULL, NULL}; may be NULL */
    /* Whether decode would accept the bytes with these options, with the
     * same error when not, without building a tree (faster, and memory for
     * the checker only). May be NULL: decode to find out. */
    sv_status (*validate)(const uint8_t *data, size_t len, const sv_options *opts, sv_error *err);
} sv_format;

/* All registered formats, in a stable order. */
SV_API const sv_format *const *sv_formats(size_t *count);
SV_API const sv_format *sv_format_find(const char *name);
/* The best format for the data: by probe score, then by the file name's
 * extension (filename may be NULL). NULL when nothing fits. It picks one even
 * when another fits as well (see sv_format_detect_all), so a tool that must
 * not guess asks for every candidate instead. */
SV_API const sv_format *sv_format_detect(const uint8_t *data, size_t len, const char *filename);

/* One format that the data may be in, and how sure its probe is: 0 (no) to
 * 100 (a magic number matched). by_extension: the file name fits too. */
typedef struct sv_format_candidate {
    const sv_format *format;
    int score;
    bool by_extension;
} sv_format_candidate;

/* Every format that fits the data, best first (by score, then extension,
 * then table order), up to max of them in out (out may be NULL when max is
 * 0). Returns how many fit, which may exceed max. */
SV_API size_t sv_format_detect_all(const uint8_t *data, size_t len, const char *filename,
                                   sv_format_candidate *out, size_t max);

/* Whether the first two of n candidates (as sv_format_detect_all orders
 * them) fit equally well, by score and by extension: the data does not say
 * which format it is, and a caller should ask rather than pick the first. */
SV_API bool sv_format_candidates_ambiguous(const sv_format_candidate *c, size_t n);

#ifdef __cplusplus
}
#endif
#endif
