/* The registry of the formats built into the library.
 *
 * Its lists come from the format manifest, src/formats/formats.def, which
 * CMake turns into formats_table.inc (the sv_format entries of the formats
 * enabled, in the manifest's order, and each group's hooks). Core's registry
 * functions (core/registry.c) read sv__builtin_registry; nothing else names
 * the formats. To add a format, see formats.def. */
#include <stddef.h>

#include "core/format_module.h"
#include "serval/config.h"
#if SERVAL_WITH_COMPRESS
#include "compress/compress.h"
#endif

#include "formats_table.inc" /* generated: SV_MANIFEST_* and the externs */

static const sv_format *const builtin[] = {SV_MANIFEST_FORMATS};

static const sv_format_hooks *const hooks[] = {SV_MANIFEST_HOOKS};

const sv_registry sv__builtin_registry = {
    .formats = builtin,
    .format_count = sizeof builtin / sizeof builtin[0],
    .hooks = hooks,
    .hook_count = sizeof hooks / sizeof hooks[0],
#if SERVAL_WITH_COMPRESS
    .dependency_versions = sv__compress_versions,
#else
    .dependency_versions = NULL,
#endif
};
