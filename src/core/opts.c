/* Versioned options structs: the one copy every format uses (core/opts.h). */
#include "core/opts.h"

#include <string.h>

#include "core/opts_tables.h"

sv_status sv__core_opts_read(const sv__opts_table *t, void *dst, const void *src,
                             const char *format, sv_error *err)
{
    if (!src) return SV_OK;
    uint32_t size;
    memcpy(&size, src, sizeof size);
    if (t->n_ends == 0 || size < t->ends[0])
        return sv_error_set(err, SV_ERR_USAGE, format, 0,
                            "%s.struct_size is %u, too small for its first member (%zu bytes); "
                            "fill the struct with %s_init",
                            t->type_name, (unsigned)size, t->ends[0], t->type_name);
    size_t copy = t->ends[0];
    for (size_t i = 1; i < t->n_ends && t->ends[i] <= size; i++) copy = t->ends[i];
    /* Everything after struct_size up to the last member that fits; any
     * padding in between is copied too, and nothing reads it. */
    memcpy((char *)dst + sizeof size, (const char *)src + sizeof size, copy - sizeof size);
    return SV_OK;
}

/* ---- the registry's sv_options ------------------------------------------- */

SV_OPTS_TABLE(sv__opts_options, sv_options, SV_OPTS_END(sv_options, limits),
              SV_OPTS_END(sv_options, names), SV_OPTS_END(sv_options, values),
              SV_OPTS_END(sv_options, count), SV_OPTS_END(sv_options, schema),
              SV_OPTS_END(sv_options, borrow_input));

void sv_options_init(sv_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

bool sv__core_options_usable(const sv_options *opts)
{
    return opts && opts->struct_size >= SV_OPTS_END(sv_options, count);
}

sv_status sv__core_options_read(sv_options *out, const sv_options *opts, const char *format,
                                sv_error *err)
{
    sv_options_init(out);
    return sv__core_opts_read(&sv__opts_options, out, opts, format, err);
}
