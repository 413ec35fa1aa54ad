/* The registry of the formats built in, as core sees it: a table it is
 * handed, never a format it knows by name.
 *
 * The formats layer (src/formats/builtin_formats.c, its lists generated from
 * the manifest src/formats/formats.def) defines sv__builtin_registry. Core's
 * registry functions (sv_formats, sv_format_detect, sv_dependency_versions),
 * sv_schema_loaders (schema/schema_file.c) and the generic conversion code
 * read only this table and the hooks in it. */
#ifndef SERVAL_CORE_FORMAT_MODULE_H
#define SERVAL_CORE_FORMAT_MODULE_H

#include <stdbool.h>
#include <stddef.h>

#include "serval/registry.h"
#include "serval/schema.h"

struct cv_rules; /* convert/convert_internal.h */

/* What a group of formats (one manifest line) tells the generic code about
 * itself. Every member may be NULL. */
typedef struct sv_format_hooks {
    /* The rules sv_convert_lower applies when the target is one of the
     * group's formats (convert/convert_internal.h): fills *r and returns
     * SV_OK, SV_ERR_USAGE for a bad option (err set), or SV_ERR_NOT_FOUND
     * when name is not the group's. */
    sv_status (*convert_rules)(const char *name, const sv_options *opts, struct cv_rules *r,
                               void *state, size_t state_size, sv_error *err);
    /* The root $meta keys the group's decoders write about the file's
     * container rather than about a value (framing, compression, ...), which
     * another target drops without a word. NULL-terminated. */
    const char *const *file_meta_keys;
    /* The class of a root object that only marks the group's container (a
     * Resonite data tree's "resonite.DataTree"): another target writes its
     * fields as a plain map. */
    const char *container_root_class;
    /* The name messages give a value by its group's own meta (a Godot
     * PackedStringArray: an array whose meta is that string), written into
     * buf; false when the value is not one the group names. */
    bool (*describe)(const sv_value *v, char *buf, size_t size);
    /* Type-list loaders sv_schema_load may pick. NULL-terminated. */
    const sv_schema_loader *const *schema_loaders;
} sv_format_hooks;

typedef struct sv_registry {
    const sv_format *const *formats; /* registry order */
    size_t format_count;
    const sv_format_hooks *const *hooks; /* one per group that has hooks */
    size_t hook_count;
    /* The versions of the libraries the formats use, as sv_dependency_versions
     * reports them; NULL when they use none. */
    size_t (*dependency_versions)(char *buf, size_t size);
} sv_registry;

extern const sv_registry sv__builtin_registry;

#endif
