/* The formats built into the library: the one place that lists them.
 *
 * Which formats are compiled in is decided at configure time (the CMake
 * options SERVAL_WITH_GODOT, SERVAL_WITH_BSON, SERVAL_WITH_RESONITE and
 * SERVAL_WITH_NOESIS and SERVAL_WITH_KINGSISLE, recorded in the generated serval/config.h); JSON is
 * always there. The searching itself is core's (core/format_table.h).
 *
 * To add a format: define `const sv_format sv_format_<name>` in
 * src/formats/<name>/, then add its extern line and its address below, under
 * its SERVAL_WITH_ switch. The order of the table is the order
 * `serval formats` prints and the tie-break order of detection, so append,
 * do not insert. */
#include <stddef.h>
#include <stdint.h>

#include "core/format_table.h"
#include "serval/config.h"
#include "serval/registry.h"
#include "serval/schema.h"

extern const sv_format sv_format_json;
#if SERVAL_WITH_GODOT
extern const sv_format sv_format_godot4;
extern const sv_format sv_format_godot3;
extern const sv_format sv_format_godot_doc;
extern const sv_format sv_format_godot_res;
extern const sv_format sv_format_godot_enc;
extern const sv_format sv_format_godot_project;
#endif
#if SERVAL_WITH_RESONITE
extern const sv_format sv_format_resonite;
#endif
#if SERVAL_WITH_BSON
extern const sv_format sv_format_bson;
#endif
#if SERVAL_WITH_NOESIS
extern const sv_format sv_format_noesis;
#endif
#if SERVAL_WITH_KINGSISLE
extern const sv_format sv_format_kingsisle;
extern const sv_format sv_format_kingsisle_xml;
#endif

static const sv_format *const builtin[] = {
    &sv_format_json,
#if SERVAL_WITH_GODOT
    &sv_format_godot4,
    &sv_format_godot3,
    &sv_format_godot_doc,
#endif
#if SERVAL_WITH_RESONITE
    &sv_format_resonite,
#endif
#if SERVAL_WITH_BSON
    &sv_format_bson,
#endif
#if SERVAL_WITH_NOESIS
    &sv_format_noesis,
#endif
#if SERVAL_WITH_KINGSISLE
    &sv_format_kingsisle,
    &sv_format_kingsisle_xml,
#endif
#if SERVAL_WITH_GODOT
    &sv_format_godot_res,
    &sv_format_godot_enc,
    &sv_format_godot_project,
#endif
};

#define BUILTIN_COUNT (sizeof builtin / sizeof builtin[0])

const sv_format *const *sv_formats(size_t *count)
{
    if (count) *count = BUILTIN_COUNT;
    return builtin;
}

const sv_format *sv_format_find(const char *name)
{
    return sv__format_table_find(builtin, BUILTIN_COUNT, name);
}

const sv_format *sv_format_detect(const uint8_t *data, size_t len, const char *filename)
{
    return sv__format_table_detect(builtin, BUILTIN_COUNT, data, len, filename);
}

size_t sv_format_detect_all(const uint8_t *data, size_t len, const char *filename,
                            sv_format_candidate *out, size_t max)
{
    return sv__format_table_detect_all(builtin, BUILTIN_COUNT, data, len, filename, out, max);
}

bool sv_format_candidates_ambiguous(const sv_format_candidate *c, size_t n)
{
    return c && n >= 2 && c[0].score == c[1].score && c[0].by_extension == c[1].by_extension;
}

/* ---- type-list loaders (sv_schema_load picks one by content) -------------- */

extern const sv_schema_loader sv__schema_loader_serval; /* src/schema/schema_file.c */
#if SERVAL_WITH_KINGSISLE
extern const sv_schema_loader sv_schema_loader_kingsisle; /* src/formats/kingsisle/ */
#endif

static const sv_schema_loader *const loaders[] = {
    &sv__schema_loader_serval,
#if SERVAL_WITH_KINGSISLE
    &sv_schema_loader_kingsisle,
#endif
};

const sv_schema_loader *const *sv_schema_loaders(size_t *count)
{
    if (count) *count = sizeof loaders / sizeof loaders[0];
    return loaders;
}
