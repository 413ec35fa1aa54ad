/* serval dump: any file as typed JSON on standard output. */
#include <stdio.h>

#include "cli_args.h"
#include "cli_batch.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"
#include "cli_io.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval dump [OPTIONS] [FILE...]\n"
    "\n"
    "Prints each FILE as serval's typed JSON (man serval, json.md), pretty with\n"
    "two spaces per level unless --compact, and a final newline. No FILE, or\n"
    "'-', is standard input.\n"
    "\n"
    "Options:\n"
    CLI_HELP_FROM
    "  -o, --output OUT    write to OUT instead of standard output\n"
    "  --sync              fsync OUT before the rename, to survive a power loss\n"
    "  --compact           no whitespace at all (as 'conv --to json' writes)\n"
    CLI_HELP_INPUT_OPTION
    "  -O NAME[=VALUE]     an option of the input's format, as -I, or of the\n"
    "                      JSON written (-O indent=4)\n"
    CLI_HELP_OUTPUT_DIR
    CLI_HELP_BATCH
    "  --strict            a Godot 4 value that breaks the engine's rules (a\n"
    "                      typed container element of another type, ...) is an\n"
    "                      error (exit 1), not a warning\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

typedef struct dump_ctx {
    const sv_format *json;
    sv_options opts;
} dump_ctx;

/* One file: decode, then typed JSON and a newline to job->output or to
 * standard output (job->out). */
static int dump_file(cli_args *a, cli_job *job, void *ctx)
{
    dump_ctx *d = ctx;
    cli_loaded l;
    int rc = cli_load(a, "dump", job->input, d->json, &l);
    if (rc) return rc;
    rc = cli_godot_rules(&l, job->input, a->strict);
    if (rc) {
        cli_loaded_free(&l);
        return rc;
    }

    /* A file is written while it is encoded (cli_output); standard output
     * gets the whole dump or nothing. */
    sv_buf file;
    sv_buf_init(&file, NULL);
    sv_buf *out = job->output ? &file : &job->out;
    cli_output o;
    if (job->output && cli_output_begin(&o, job->output, out) != SV_OK) {
        cli_loaded_free(&l);
        return cli_exit_code(SV_ERR_IO);
    }
    size_t start = out->len;
    rc = cli_encode(d->json, &l.root, &d->opts, job->input, out);
    if (rc) out->len = start; /* nothing of a failed dump reaches standard output */
    if (!rc) {
        sv_buf_putc(out, '\n');
        if (!sv_buf_ok(out)) {
            cli_error("%s: %s", cli_display_name(job->input), sv_status_str(SV_ERR_NOMEM));
            rc = cli_exit_code(SV_ERR_NOMEM);
        }
    }
    if (job->output) {
        sv_status st = cli_output_end(&o, out, rc == 0);
        if (!rc && st != SV_OK) rc = cli_exit_code(st);
    }
    sv_buf_free(&file);
    cli_loaded_free(&l);
    return rc;
}

int cmd_dump(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "dump", argc, argv,
                            CLI_OPT_FROM | CLI_OPT_COMPACT | CLI_OPT_FORMAT | CLI_OPT_FORMAT_READS |
                                CLI_OPT_INPUT | CLI_OPT_LIMITS | CLI_OPT_OUTPUT | CLI_OPT_BATCH |
                                CLI_OPT_OUTPUT_DIR | CLI_OPT_STRICT);
    if (rc) return rc;
    dump_ctx d = {0};
    if (a.help) {
        fputs(help, stdout);
    } else if (!(rc = cli_find_format("json", &d.json))) {
        /* The user's -O indent=N, coming after this default, wins over it. */
        d.opts = cli_format_options(&a, "indent", a.compact ? "0" : "2");
        cli_batch b = {.cmd = "dump", .run = dump_file, .ctx = &d, .out_ext = "json"};
        rc = cli_batch_run(&a, &b);
    }
    cli_args_free(&a);
    return rc;
}
