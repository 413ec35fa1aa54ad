/* sv_schema_loaders: serval's own loader first, then those the formats'
 * hooks bring (core/format_module.h), in the registry's order. The list is
 * gathered once into a fixed table (pthread_once: callers may be threads). */
#include <pthread.h>
#include <stddef.h>

#include "core/format_module.h"
#include "serval/schema.h"

extern const sv_schema_loader sv__schema_loader_serval; /* schema_file.c */

/* More than the formats bring; the ones past it would be left out. */
#define LOADERS_MAX 16

static const sv_schema_loader *loaders[LOADERS_MAX];
static size_t loader_count;
static pthread_once_t gathered = PTHREAD_ONCE_INIT;

static void gather(void)
{
    loaders[loader_count++] = &sv__schema_loader_serval;
    for (size_t h = 0; h < sv__builtin_registry.hook_count; h++) {
        const sv_format_hooks *hooks = sv__builtin_registry.hooks[h];
        if (!hooks || !hooks->schema_loaders) continue;
        for (const sv_schema_loader *const *l = hooks->schema_loaders; *l; l++)
            if (loader_count < LOADERS_MAX) loaders[loader_count++] = *l;
    }
}

const sv_schema_loader *const *sv_schema_loaders(size_t *count)
{
    pthread_once(&gathered, gather);
    if (count) *count = loader_count;
    return loaders;
}
