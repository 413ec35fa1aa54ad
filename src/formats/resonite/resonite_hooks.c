/* The Resonite data tree's registry hooks (core/format_module.h): its
 * conversion rules are BSON's for a document in a container, its root object
 * (resonite.DataTree) only marks that container, and the container's kind is
 * root meta about the file (resonite_format.c). */
#include <string.h>

#include "convert/convert_internal.h"
#include "core/format_module.h"
#include "formats/bson/bson_internal.h"
#include "formats/resonite/resonite_internal.h"

static sv_status resonite_convert_rules(const char *name, const sv_options *opts, cv_rules *r,
                                        void *state, size_t state_size, sv_error *err)
{
    (void)err;
    if (strcmp(name, "resonite") != 0) return SV_ERR_NOT_FOUND;
    return bson_convert_rules_for(true, opts, r, state, state_size);
}

static const char *const resonite_file_keys[] = {"framing", "compression", NULL};

const sv_format_hooks sv_format_hooks_resonite = {
    .convert_rules = resonite_convert_rules,
    .file_meta_keys = resonite_file_keys,
    .container_root_class = RESONITE_CLASS,
};
