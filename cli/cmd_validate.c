/* serval validate: does each file decode? */
#include <stdio.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval validate [OPTIONS] FILE...\n"
    "\n"
    "Decodes each FILE ('-' is standard input) and prints 'FILE: ok', or the\n"
    "error on standard error. Every file is checked; the exit status is the\n"
    "most severe of the files': usage 2, then input/output 3, then\n"
    "unsupported 4, then bad data 1.\n"
    "\n"
    "Options:\n"
    CLI_HELP_FROM
    CLI_HELP_FORMAT_OPTION
    "  --strict            a Godot 4 value that breaks the engine's rules (a\n"
    "                      typed container element of another type, ...) is an\n"
    "                      error (exit 1), not a warning\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

/* Returns the highest exit code of the files. */
static int validate_files(cli_args *a)
{
    /* An unknown --from is said once, not once per file. */
    const sv_format *from = NULL;
    if (a->from) {
        int rc = cli_find_format(a->from, &from);
        if (rc) return rc;
    }
    int worst = 0;
    for (size_t i = 0; i < a->file_count; i++) {
        cli_loaded l;
        int rc = cli_load(a, "validate", a->files[i], NULL, &l);
        if (rc == 0) rc = cli_godot_rules(&l, a->files[i], a->strict);
        if (rc == 1) cli_loaded_free(&l);
        if (rc == 0) {
            printf("%s: ok\n", cli_display_name(a->files[i]));
            /* Keeps the lines in order with the errors when both streams go
             * to one place (2>&1). */
            fflush(stdout);
            cli_loaded_free(&l);
        }
        worst = cli_worse_exit(worst, rc);
        /* A usage error is about the command line: the same for every file. */
        if (rc == 2) break;
    }
    return worst;
}

int cmd_validate(int argc, char **argv)
{
    cli_args a;
    int rc =
        cli_args_parse(&a, "validate", argc, argv, CLI_OPT_FROM | CLI_OPT_FORMAT | CLI_OPT_LIMITS |
                                CLI_OPT_STRICT);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (a.file_count == 0) {
        cli_usage_error("validate", "needs at least one FILE");
        rc = 2;
    } else {
        rc = validate_files(&a);
    }
    cli_args_free(&a);
    return rc;
}
