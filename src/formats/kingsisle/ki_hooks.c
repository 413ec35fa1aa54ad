/* KingsIsle's registry hooks (core/format_module.h): the type-list loader
 * sv_schema_load may pick (wiztype JSON and class-list XML, ki_schema.c). */
#include <stddef.h>

#include "core/format_module.h"
#include "formats/kingsisle/ki_internal.h"

static const sv_schema_loader *const ki_loaders[] = {&sv_schema_loader_kingsisle, NULL};

const sv_format_hooks sv_format_hooks_kingsisle = {.schema_loaders = ki_loaders};
