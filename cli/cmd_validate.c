/* serval validate: does each file decode? */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_batch.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval validate [OPTIONS] [FILE...]\n"
    "\n"
    "Decodes each FILE (none, or '-': standard input) and prints 'FILE: ok'\n"
    "(not with -q), or the error on standard error. Every file is checked; the\n"
    "exit status is the most severe of the files': usage 2, then input/output\n"
    "3, then unsupported 4, then bad data 1.\n"
    "\n"
    "Options:\n"
    CLI_HELP_FROM
    CLI_HELP_FORMAT_OPTION
    CLI_HELP_BATCH
    "  --strict            a Godot 4 value that breaks the engine's rules (a\n"
    "                      typed container element of another type, ...) is an\n"
    "                      error (exit 1), not a warning\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

/* One file: does it decode? "FILE: ok" goes to standard output in input
 * order (not under -q); errors go to standard error as they come. */
static int validate_file(cli_args *a, cli_job *job, void *ctx)
{
    (void)ctx;
    cli_loaded l;
    int rc = cli_load(a, "validate", job->input, NULL, &l);
    if (rc) return rc;
    rc = cli_godot_rules(&l, job->input, a->strict);
    if (rc) {
        cli_loaded_free(&l);
        return rc;
    }
    if (cli_verbose(a, 0)) {
        const char *name = cli_display_name(job->input);
        sv_buf_append(&job->out, name, strlen(name));
        sv_buf_append(&job->out, ": ok\n", 5);
    }
    cli_loaded_free(&l);
    return sv_buf_ok(&job->out) ? 0 : cli_exit_code(SV_ERR_NOMEM);
}

int cmd_validate(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "validate", argc, argv,
                            CLI_OPT_FROM | CLI_OPT_FORMAT | CLI_OPT_LIMITS | CLI_OPT_BATCH |
                                CLI_OPT_STRICT);
    if (rc) return rc;
    const sv_format *from = NULL;
    if (a.help) {
        fputs(help, stdout);
    } else if (!a.from || !(rc = cli_find_format(a.from, &from))) {
        /* An unknown --from is said once, above, not once per file. */
        cli_batch b = {.cmd = "validate", .run = validate_file};
        rc = cli_batch_run(&a, &b);
    }
    cli_args_free(&a);
    return rc;
}
