/* Schemas for the serval command: loading and merging schema files. */
#include "cli_schema.h"

#include <stdio.h>
#include <string.h>

#include "cli_diag.h"
#include "cli_io.h"

void cli_schema_report(const char *file, const sv_error *err)
{
    if (err->line > 0 || err->status == SV_ERR_NOMEM || err->status == SV_ERR_IO) {
        cli_report(file, err); /* a JSON syntax error: byte, line and column */
        return;
    }
    cli_error("%s: schema: %s%s%s%s%s", file, sv_status_str(err->status),
              err->path[0] ? " at " : "", err->path, err->message[0] ? ": " : "", err->message);
}

/* A schema that names what it lacks (an unknown type or base) is bad data
 * (exit 1), not an unsupported format. */
static int exit_code(sv_status st)
{
    return st == SV_ERR_NOT_FOUND ? 1 : cli_exit_code(st);
}

int cli_schema_load_one(const char *path, sv_schema **out)
{
    *out = NULL;
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st) return cli_exit_code(st);
    sv_error err;
    const char *name = cli_display_name(path);
    st = sv_schema_load(NULL, in.data, in.len, name, out, &err);
    cli_input_free(&in);
    if (st) {
        cli_schema_report(name, &err);
        return exit_code(st);
    }
    return 0;
}

int cli_schema_load_merged(const char *const *paths, size_t count, sv_schema **out,
                           void (*each)(const char *path, const sv_schema *s))
{
    *out = NULL;
    sv_schema *merged = sv_schema_new(NULL);
    if (!merged) {
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        sv_schema *one;
        int r = cli_schema_load_one(paths[i], &one);
        if (r) {
            if (r > rc) rc = r;
            continue;
        }
        if (each) each(paths[i], one);
        sv_error err;
        sv_status st = rc ? SV_OK : sv_schema_merge(merged, one, &err);
        sv_schema_free(one);
        if (st) {
            cli_schema_report(cli_display_name(paths[i]), &err);
            rc = exit_code(st);
        }
    }
    if (!rc) {
        sv_error err;
        sv_status st = sv_schema_finalize(merged, &err);
        if (st) {
            cli_schema_report(count == 1 ? cli_display_name(paths[0]) : "<merged schemas>", &err);
            rc = exit_code(st);
        }
    }
    if (rc) {
        sv_schema_free(merged);
        return rc;
    }
    *out = merged;
    return 0;
}

size_t cli_schema_field_count(const sv_schema *s)
{
    size_t n = 0;
    for (size_t i = 0; i < sv_schema_class_count(s); i++) n += sv_schema_class_at(s, i)->nfields;
    return n;
}
