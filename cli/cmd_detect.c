/* serval detect: which format each file is, by content and extension. */
#include <stdio.h>

#include "cli_args.h"
#include "cli_batch.h"
#include "cli_cmds.h"
#include "cli_detect.h"
#include "cli_diag.h"
#include "cli_io.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval detect [-v] [FILE...]\n"
    "\n"
    "Prints 'FILE: FORMAT' for each FILE (none, or '-': standard input), with\n"
    "'(truncated)' after it when the input is only the start of such a file;\n"
    "'FILE: ambiguous:' and the formats when several fit equally (dump and\n"
    "conv then want --from); 'FILE: unknown' when no format recognises it.\n"
    "The content decides; the file extension breaks ties. An unknown format\n"
    "is not an error.\n"
    "\n"
    "Options:\n"
    "  -v, --verbose       every format that fits, best first, each with its\n"
    "                      confidence (0 to 100; 1: the start of a file)\n"
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

/* Returns the exit code for one file. */
static int detect_one(const char *path, bool verbose)
{
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st != SV_OK) return cli_exit_code(st);
    cli_detect_print(cli_display_name(path), cli_is_stdio(path) ? NULL : path, in.data, in.len,
                     verbose);
    fflush(stdout); /* in order with any error that follows, under 2>&1 */
    cli_input_free(&in);
    return 0;
}

int cmd_detect(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "detect", argc, argv, CLI_OPT_VERBOSE);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (!(rc = cli_files_or_stdin(&a, "detect"))) {
        /* Every file is looked at; the exit code is the worst seen. */
        for (size_t i = 0; i < a.file_count; i++) {
            int one = detect_one(a.files[i], cli_verbose(&a, 1));
            rc = cli_worse_exit(rc, one);
        }
    }
    cli_args_free(&a);
    return rc;
}
