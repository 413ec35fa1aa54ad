/* serval conv: decode with one format, encode with another. */
#include <stdio.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval conv [--from FMT] [--to FMT] [-o OUT] [OPTIONS] FILE|-\n"
    "\n"
    "Converts FILE ('-' is standard input) to format FMT, writing to OUT or\n"
    "else to standard output. OUT is replaced only when the whole conversion\n"
    "succeeds: the bytes go to a temporary file that is then renamed over it.\n"
    "JSON output is compact; add -O indent=2 for pretty.\n"
    "\n"
    "Options:\n"
    CLI_HELP_FROM
    "  --to FMT            write format FMT; default: the format the tree's\n"
    "                      root $meta names (\"format\"), as dump writes it\n"
    "  -o, --output OUT    write to OUT instead of standard output\n"
    CLI_HELP_FORMAT_OPTION
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

static int conv(cli_args *a, const char *path)
{
    const sv_format *to = NULL;
    int rc = 0;
    if (a->to) {
        rc = cli_find_format(a->to, &to);
        if (rc) return rc;
        if (!to->encode) {
            cli_error("format %s cannot be written", to->name);
            return cli_exit_code(SV_ERR_UNSUPPORTED);
        }
    }

    cli_loaded l;
    rc = cli_load(a, "conv", path, to, &l);
    if (rc) return rc;
    /* without --to: the format the tree says it came from */
    if (!to) rc = cli_tree_format(a, path, &l.root, &to);
    if (rc) {
        cli_loaded_free(&l);
        return rc;
    }

    sv_options opts = cli_format_options(a, "indent", "0");
    sv_buf out;
    sv_buf_init(&out, NULL);
    rc = cli_encode(to, &l.root, &opts, path, &out);
    /* Only now, with every byte in hand, is the output touched. */
    if (!rc) rc = cli_exit_code(cli_write_output(a->output, out.data, out.len));
    sv_buf_free(&out);
    cli_loaded_free(&l);
    return rc;
}

int cmd_conv(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "conv", argc, argv,
                            CLI_OPT_FROM | CLI_OPT_TO | CLI_OPT_OUTPUT | CLI_OPT_FORMAT |
                                CLI_OPT_LIMITS);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (a.file_count != 1) {
        cli_usage_error("conv", "needs exactly one FILE ('-' for standard input)");
        rc = 2;
    } else {
        rc = conv(&a, a.files[0]);
    }
    cli_args_free(&a);
    return rc;
}
