/* validate for a KingsIsle stream: the codec decodes as the registry's
 * decoder does, with a warning hook that names each object of a class the
 * type list lacks (read as raw bits, or as null with skip_unknown_types). */
#include "cmd_kingsisle_check.h"

#include <stdio.h>

#include "cli_diag.h"
#include "serval/kingsisle.h"

typedef struct check_ctx {
    const char *name;
    bool strict;
    size_t count;
} check_ctx;

/* Warnings printed per file; the rest are counted (a stream of a million
 * unknown objects would otherwise print a million lines). */
#define MAX_WARNINGS 20

static void print_warning(void *ctx, const sv_error *w)
{
    check_ctx *x = ctx;
    if (x->count++ >= MAX_WARNINGS) return;
    char where[64] = "";
    if (w->byte_offset != SV_ERROR_NO_OFFSET)
        snprintf(where, sizeof where, " at byte %llu bit %d", (unsigned long long)w->byte_offset,
                 w->bit_offset < 0 ? 0 : w->bit_offset);
    cli_error("%s: %s: %s%s%s%s: %s", x->name, x->strict ? "error" : "warning",
              w->format ? w->format : "kingsisle", where, *w->path ? " at " : "", w->path,
              w->message);
}

int cli_kingsisle_check(cli_loaded *l, const char *name, const sv_options *opts, bool strict)
{
    check_ctx x = {name, strict, 0};
    sv_kingsisle_opts o;
    sv_kingsisle_types *types = NULL;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_kingsisle_opts_from_options(opts, &o, &types, &err);
    o.warn = print_warning;
    o.warn_ctx = &x;
    if (st == SV_OK) st = sv_kingsisle_decode(l->doc, l->in.data, l->in.len, &o, &l->root, &err);
    if (st == SV_OK) st = sv_doc_status(l->doc);
    sv_kingsisle_types_free(types);
    if (x.count > MAX_WARNINGS)
        cli_error("%s: %s: %zu more objects of classes the type list lacks", name,
                  strict ? "error" : "warning", x.count - MAX_WARNINGS);
    if (st != SV_OK) {
        if (err.status == SV_OK)
            st = sv_error_set(&err, st, "kingsisle", 0, "the decoder gave no details");
        cli_report(name, &err);
        return cli_exit_code(err.status);
    }
    return strict && x.count ? 1 : 0; /* as the Godot rules under --strict */
}
