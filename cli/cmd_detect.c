/* serval detect: which format each file is, by content and extension. */
#include <stdio.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_detect.h"
#include "cli_diag.h"
#include "cli_io.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval detect FILE...\n"
    "\n"
    "Prints 'FILE: FORMAT (confidence N)' for each FILE ('-' is standard\n"
    "input), then any other format that fits, less well; 'FILE: ambiguous:'\n"
    "and the candidates when several fit equally (dump and conv then want\n"
    "--from); 'FILE: unknown' when no format recognises it. The content\n"
    "decides; the file extension breaks ties. An unknown format is not an\n"
    "error.\n"
    "\n"
    "Options:\n"
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

/* Returns the exit code for one file. */
static int detect_one(const char *path)
{
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st != SV_OK) return cli_exit_code(st);
    cli_detect_print(cli_display_name(path), cli_is_stdio(path) ? NULL : path, in.data, in.len);
    fflush(stdout); /* in order with any error that follows, under 2>&1 */
    cli_input_free(&in);
    return 0;
}

int cmd_detect(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "detect", argc, argv, 0);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (a.file_count == 0) {
        cli_usage_error("detect", "needs at least one FILE");
        rc = 2;
    } else {
        /* Every file is looked at; the exit code is the worst seen. */
        for (size_t i = 0; i < a.file_count; i++) {
            int one = detect_one(a.files[i]);
            rc = cli_worse_exit(rc, one);
        }
    }
    cli_args_free(&a);
    return rc;
}
