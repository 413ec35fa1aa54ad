/* serval validate: does each file decode? */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_batch.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"
#include "serval/config.h"
#if SERVAL_WITH_KINGSISLE
#include "cmd_kingsisle_check.h"
#endif

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
    CLI_HELP_INPUT_OPTION
    "  -O NAME[=VALUE]     the same as -I\n"
    CLI_HELP_BATCH
    "  --strict            a Godot 4 value that breaks the engine's rules (a\n"
    "                      typed container element of another type, ...) is an\n"
    "                      error (exit 1), not a warning; so is a KingsIsle\n"
    "                      object whose class the type list lacks\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

/* Whether f can check bytes without building their tree (sv_format's
 * validate). --max-alloc limits the tree, so it asks for a real decode. */
static bool checks_without_tree(const cli_args *a, const sv_format *f)
{
    return f->struct_size >= offsetof(sv_format, validate) + sizeof f->validate && f->validate &&
           !a->limits.max_alloc;
}

/* The format's check (validate: sv_format's validate, which applies every
 * rule of the decoder and gives the same error) or its decoder. Returns 0
 * or the exit code, after the error is reported; a decoded tree is left in
 * l for the caller to free. */
static int check_or_decode(cli_args *a, const char *path, cli_loaded *l, bool validate)
{
    const sv_format *f = l->format;
    sv_options opts = cli_decode_options(a, f);
    sv_error err;
    sv_error_clear(&err);
    sv_status st;
    if (validate) {
        st = f->validate(l->in.data, l->in.len, &opts, &err);
    } else {
        l->doc = cli_doc_acquire(a); /* the batch worker's, with --max-alloc */
        if (!l->doc) {
            cli_error("%s: %s", cli_display_name(path), sv_status_str(SV_ERR_NOMEM));
            return cli_exit_code(SV_ERR_NOMEM);
        }
#if SERVAL_WITH_KINGSISLE
        /* KingsIsle also warns about classes the type list lacks */
        if (strcmp(f->name, "kingsisle") == 0)
            return cli_kingsisle_check(l, cli_display_name(path), &opts, a->strict);
#endif
        /* l->in outlives l->doc (cli_loaded_free): the tree may point into
         * it instead of copying its packed arrays, as conv's decode does */
        opts.borrow_input = true;
        st = f->decode(l->doc, l->in.data, l->in.len, &opts, &l->root, &err);
        if (st == SV_OK) st = sv_doc_status(l->doc);
    }
    if (st == SV_OK) return 0;
    if (err.status == SV_OK) st = sv_error_set(&err, st, f->name, 0, "the decoder gave no details");
    cli_report(cli_display_name(path), &err);
    return cli_exit_code(err.status);
}

/* Whether the file decodes: through the format's check when it has one,
 * else by decoding it (and, for Godot 4, applying the engine's rules). */
static int check_file(cli_args *a, const char *path)
{
    cli_loaded l;
    memset(&l, 0, sizeof l);
    /* Before reading anything: a misspelt --from is found at once. */
    if (a->from) {
        int rc = cli_find_format(a->from, &l.format);
        if (rc) return rc;
    }
    sv_status st = cli_read_input(path, &l.in);
    if (st != SV_OK) return cli_exit_code(st);
    int rc = cli_input_format(a->from, path, &l.in, &l.format);
    if (!rc) rc = cli_check_input_options(a, "validate", l.format);
    if (!rc) rc = cli_check_format_options(a, "validate", l.format, NULL);
    if (!rc && !l.format->decode) {
        cli_error("%s: format %s cannot be read", cli_display_name(path), l.format->name);
        rc = cli_exit_code(SV_ERR_UNSUPPORTED);
    }
    if (!rc) rc = check_or_decode(a, path, &l, checks_without_tree(a, l.format));
    if (!rc && l.doc) rc = cli_godot_rules(&l, path, a->strict);
    cli_loaded_free(&l);
    return rc;
}

/* One file: does it decode? "FILE: ok" goes to standard output in input
 * order (not under -q); errors go to standard error as they come. */
static int validate_file(cli_args *a, cli_job *job, void *ctx)
{
    (void)ctx;
    int rc = check_file(a, job->input);
    if (rc) return rc;
    if (cli_verbose(a, 0)) {
        const char *name = cli_display_name(job->input);
        sv_buf_append(&job->out, name, strlen(name));
        sv_buf_append(&job->out, ": ok\n", 5);
    }
    return sv_buf_ok(&job->out) ? 0 : cli_exit_code(SV_ERR_NOMEM);
}

int cmd_validate(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "validate", argc, argv,
                            CLI_OPT_FROM | CLI_OPT_FORMAT | CLI_OPT_FORMAT_READS | CLI_OPT_INPUT |
                                CLI_OPT_LIMITS | CLI_OPT_BATCH | CLI_OPT_STRICT);
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
