/* The typed JSON's registry hooks (core/format_module.h): it writes every
 * tree exactly, so a conversion to it lowers nothing. */
#include <string.h>

#include "convert/convert_internal.h"
#include "core/format_module.h"

static sv_status json_convert_rules(const char *name, const sv_options *opts, cv_rules *r,
                                    void *state, size_t state_size, sv_error *err)
{
    (void)opts, (void)state, (void)state_size, (void)err;
    if (strcmp(name, "json") != 0) return SV_ERR_NOT_FOUND;
    r->format = "json";
    r->all_exact = true;
    return SV_OK;
}

const sv_format_hooks sv_format_hooks_json = {.convert_rules = json_convert_rules};
