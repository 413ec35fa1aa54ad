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

typedef struct sv_schema sv_schema; /* schema.h */

/* Options structs are versioned. Each begins with struct_size, which its
 * init function (here sv_options_init) sets to sizeof the struct, and each
 * gets its defaults from that function: declare, init, then set members.
 * The library reads only the members that fit in struct_size, so a program
 * built against an older header keeps working; a struct_size of 0 (a struct
 * never given to its init function) is refused with SV_ERR_USAGE. A NULL
 * options pointer means every default. */

/* Options handed to a format: the limits plus "name=value" pairs, and the
 * schema (type information) for formats that need one. */
typedef struct sv_options {
    uint32_t struct_size; /* sizeof(sv_options), set by sv_options_init */
    sv_limits limits;
    const char *const *names;  /* count entries */
    const char *const *values; /* count entries ("" for a bare flag) */
    size_t count;
    const sv_schema *schema;   /* finalised schema, or NULL (schema.h) */
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

typedef struct sv_format {
    /* sizeof(sv_format) in the library that made the entry: members are
     * only ever appended, and a member lies beyond struct_size when the
     * library is older than it. */
    uint32_t struct_size;
    const char *name;            /* "json" */
    const char *description;     /* one line */
    const char *const *extensions; /* NULL-terminated, without dot: {"json", NULL} */
    /* How sure the format is that the bytes are its own: 0 (no) to 100 (magic
     * matched). May be NULL (never detected by content). */
    int (*probe)(const uint8_t *data, size_t len);
    sv_status (*decode)(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                        sv_value *out, sv_error *err);
    /* May be NULL for read-only formats. */
    sv_status (*encode)(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err);
    const sv_option_desc *options; /* terminated by {NULL, NULL}; may be NULL */
} sv_format;

/* All registered formats, in a stable order. */
SV_API const sv_format *const *sv_formats(size_t *count);
SV_API const sv_format *sv_format_find(const char *name);
/* The best format for the data: by probe score, then by the file name's
 * extension (filename may be NULL). NULL when nothing fits. */
SV_API const sv_format *sv_format_detect(const uint8_t *data, size_t len, const char *filename);

#ifdef __cplusplus
}
#endif
#endif
