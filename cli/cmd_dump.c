/* serval dump: any file as typed JSON on standard output. */
#include <stdio.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval dump [OPTIONS] FILE|-\n"
    "\n"
    "Prints FILE ('-' is standard input) as serval's typed JSON (docs/json.md),\n"
    "pretty with two spaces per level unless --compact, and a final newline.\n"
    "\n"
    "Options:\n"
    CLI_HELP_FROM
    "  --compact           no whitespace at all (same bytes as 'conv --to json')\n"
    CLI_HELP_FORMAT_OPTION
    "  --strict            a Godot 4 value that breaks the engine's rules (a\n"
    "                      typed container element of another type, ...) is an\n"
    "                      error (exit 1), not a warning\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

static int dump(cli_args *a, const char *path)
{
    const sv_format *json = NULL;
    int rc = cli_find_format("json", &json);
    if (rc) return rc;

    cli_loaded l;
    rc = cli_load(a, "dump", path, json, &l);
    if (rc) return rc;
    rc = cli_godot_rules(&l, path, a->strict);
    if (rc) {
        cli_loaded_free(&l);
        return rc;
    }

    /* The user's -O indent=N, coming after this default, wins over it. */
    sv_options opts = cli_format_options(a, "indent", a->compact ? "0" : "2");
    sv_buf out;
    sv_buf_init(&out, NULL);
    rc = cli_encode(json, &l.root, &opts, path, &out);
    if (!rc) {
        sv_buf_putc(&out, '\n');
        if (!sv_buf_ok(&out)) {
            cli_error("%s: %s", cli_display_name(path), sv_status_str(SV_ERR_NOMEM));
            rc = cli_exit_code(SV_ERR_NOMEM);
        } else {
            rc = cli_exit_code(cli_write_output(NULL, out.data, out.len));
        }
    }
    sv_buf_free(&out);
    cli_loaded_free(&l);
    return rc;
}

int cmd_dump(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "dump", argc, argv,
                            CLI_OPT_FROM | CLI_OPT_COMPACT | CLI_OPT_FORMAT | CLI_OPT_LIMITS |
                                CLI_OPT_STRICT);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (a.file_count != 1) {
        cli_usage_error("dump", "needs exactly one FILE ('-' for standard input)");
        rc = 2;
    } else {
        rc = dump(&a, a.files[0]);
    }
    cli_args_free(&a);
    return rc;
}
