/* serval formats: the registry's table, with each format's options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "serval/config.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval formats\n"
    "\n"
    "Lists the formats serval knows: name, whether it can read and write it,\n"
    "file extensions and a description, then the format's options for -O.\n"
    "O3DE JSON (when built) is listed last: not a --from/--to format, JSON\n"
    "text read into and written from a schema type by 'serval o3de'.\n"
    "\n"
    "Options:\n"
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

static void print_line(FILE *out, const char *name, const char *can, const char *exts,
                       const char *desc)
{
    fprintf(out, "%-9s %-11s %-11s %s\n", name, can, exts, desc);
}

static void print_format(FILE *out, const sv_format *f)
{
    char exts[128] = "";
    size_t used = 0;
    for (const char *const *e = f->extensions; e && *e && used < sizeof exts; e++) {
        int n = snprintf(exts + used, sizeof exts - used, "%s.%s", used ? " " : "", *e);
        if (n < 0) break;
        used += (size_t)n;
    }
    const char *can = f->decode && f->encode ? "read/write" : f->decode ? "read" : "write";
    print_line(out, f->name, can, used ? exts : "-", f->description);
    for (const sv_option_desc *d = f->options; d && d->name; d++)
        fprintf(out, "  -O %-12s %s\n", d->name, d->help);
}

/* The listing is made in memory and written at once: longer than stdio's
 * buffer, printed piecewise, a write error halfway would leave only "I/O
 * error" at exit instead of its reason (a full disk, a closed pipe). */
static int print_formats(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    size_t count = 0;
    const sv_format *const *all = sv_formats(&count);
    for (size_t i = 0; i < count; i++) print_format(out, all[i]);
#if SERVAL_WITH_O3DE
    /* Not in the codec table: O3DE JSON has no tree of its own, it is
     * JSON read through the types of a schema (docs/formats/o3de.md). */
    print_line(out, "o3de", "load/store", ".prefab .setreg",
               "O3DE JSON serialization through a schema type (serval o3de load, store, "
               "validate, strip-defaults; not for --from/--to)");
#endif
    int rc = 0;
    bool failed = ferror(out) != 0;
    if (fclose(out) != 0) failed = true;
    if (failed) {
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        rc = 3;
    } else if (cli_write_output(NULL, text, len) != SV_OK) {
        rc = 3;
    }
    free(text);
    return rc;
}

int cmd_formats(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "formats", argc, argv, 0);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (a.file_count) {
        cli_usage_error("formats", "takes no arguments");
        rc = 2;
    } else {
        rc = print_formats();
    }
    cli_args_free(&a);
    return rc;
}
