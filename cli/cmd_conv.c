/* serval conv: decode with one format, encode with another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_batch.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"
#include "cli_io.h"
#include "serval/convert.h"

/* One line of source per line of output. */
/* clang-format off */
static const char help[] =
    "usage: serval conv [--from FMT] [--to FMT] [-o OUT] [OPTIONS] [FILE...]\n"
    "\n"
    "Converts each FILE (none, or '-': standard input) to format FMT, writing\n"
    "to OUT, to one file per input under --output-dir, or to standard output.\n"
    "Without --to, FMT is the format of OUT's extension (.json, .bson, ...), or\n"
    "else the format the tree says it came from.\n"
    "OUT is replaced only when the whole conversion succeeds: the bytes go to a\n"
    "temporary file that is then renamed over it. JSON output is compact with a\n"
    "final newline; add -O indent=2 for pretty. Binary output is not written to\n"
    "a terminal unless -o - or --force.\n"
    "\n"
    "Options:\n"
    CLI_HELP_FROM
    "  --to FMT            write format FMT; default: OUT's extension, else the\n"
    "                      format the tree's root $meta names, as dump writes it\n"
    "  -o, --output OUT    write to OUT ('-': standard output)\n"
    "  -f, --force         write binary output to a terminal all the same\n"
    "  --sync              fsync OUT before the rename, to survive a power loss\n"
    "  --lossy             write the nearest form of each value FMT cannot hold\n"
    "                      (a Vector3 as an array in BSON, say), with a warning\n"
    "                      naming its path; without it such a value is an error;\n"
    "                      also needed for an -I option that drops data\n"
    "                      (kingsisle's skip_unknown_types)\n"
    "  --report-all        list every value FMT cannot hold, not just the first\n"
    "                      (with --lossy: every change)\n"
    CLI_HELP_OUTPUT_DIR
    "  -O NAME[=VALUE]     an option of the output's format (FMT), repeatable;\n"
    "                      the input's options come from what was detected,\n"
    "                      --from and -I; e.g. -O key=HEX -O iv=HEX for\n"
    "                      godot-enc (the IV of a new Godot 4 encrypted file)\n"
    CLI_HELP_INPUT_OPTION
    CLI_HELP_BATCH
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    "What each format holds of the others, and what --lossy makes of the rest:\n"
    "conversions.md in share/doc/serval (under the install prefix).\n"
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

typedef struct conv_ctx {
    const sv_format *to;
    sv_options opts;
    bool lossy;      /* --lossy */
    bool report_all; /* --report-all */
} conv_ctx;

typedef struct change_ctx {
    const char *file; /* as messages name it */
    const char *format;
    const conv_ctx *c;
    size_t listed; /* errors print_change wrote (--report-all) */
} change_ctx;

/* One line per value: a warning for a value written in its nearest form,
 * with --report-all an error for each value that stops the conversion (else
 * only the first, from the returned error). */
static void print_change(void *ctx, const sv_convert_change *ch)
{
    change_ctx *x = ctx;
    bool problem = ch->refused || !x->c->lossy;
    if (!problem) {
        fprintf(stderr, "serval: %s: warning: %s%s%s\n", x->file, ch->pointer,
                *ch->pointer ? ": " : "", ch->message);
    } else if (x->c->report_all) {
        sv_error e;
        sv_error_clear(&e);
        sv_status st =
            sv_error_set(&e, SV_ERR_UNSUPPORTED, x->format, SV_ERROR_NO_OFFSET, "%s", ch->message);
        (void)st;
        snprintf(e.path, sizeof e.path, "%.*s", (int)(sizeof e.path - 1), ch->pointer);
        cli_report(x->file, &e);
        x->listed++;
    }
}

/* The tree in the target format, through sv_convert_encode (the path the
 * round-trip fuzz targets check): every value the target cannot hold is
 * reported (print_change), and with --lossy written in its nearest form. */
static int convert(const conv_ctx *c, const sv_format *to, const cli_loaded *l, const char *input,
                   sv_buf *out)
{
    change_ctx x = {cli_display_name(input), to->name, c, 0};
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.lossy = c->lossy;
    co.format_options = &c->opts; /* --max-alloc holds for the lowered copy too */
    if (c->lossy || c->report_all) {
        co.report = print_change;
        co.report_ctx = &x;
    }
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_convert_encode(l->format, to, &l->root, &co, out, NULL, &err);
    if (st == SV_OK) return 0;
    /* the output file could not take the bytes: cli_output_end says why */
    if (sv_buf_status(out) == SV_ERR_IO) return cli_exit_code(SV_ERR_IO);
    /* --report-all has listed every refused value already */
    if (st == SV_ERR_UNSUPPORTED && x.listed) return cli_exit_code(st);
    if (err.status == SV_OK)
        st = sv_error_set(&err, st, to->name, 0, "%s",
                          st == SV_ERR_NOMEM ? "no memory for the output"
                                             : "the encoder gave no details");
    /* no input byte caused it: the value's path says where */
    err.byte_offset = SV_ERROR_NO_OFFSET;
    cli_report(x.file, &err);
    return cli_exit_code(st);
}

/* A format to itself without the tree (sv_convert_transcode; which ones:
 * sv_convert_streams): typed JSON and Godot Variants item by item, BSON and
 * Resonite checked and written back, NoesisGUI instance by instance, so the
 * process holds the input and the output's window, not the tree. The same
 * bytes, the same errors (with the input's offsets) as convert() after a
 * decode. */
static int convert_stream(cli_args *a, const conv_ctx *c, const sv_format *to, const cli_loaded *l,
                          const char *input, sv_buf *out)
{
    sv_doc *doc = cli_doc_acquire(a);
    if (!doc) {
        cli_error("%s: %s", cli_display_name(input), sv_status_str(SV_ERR_NOMEM));
        return cli_exit_code(SV_ERR_NOMEM);
    }
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = &c->opts;
    sv_options in = cli_decode_options(a, l->format);
    sv_error err;
    sv_error_clear(&err);
    sv_status st =
        sv_convert_transcode(doc, l->format, to, l->in.data, l->in.len, &in, &co, out, &err);
    cli_doc_release(doc);
    if (st == SV_OK) return 0;
    /* the output file could not take the bytes: cli_output_end says why */
    if (sv_buf_status(out) == SV_ERR_IO) return cli_exit_code(SV_ERR_IO);
    if (err.status == SV_OK)
        st = sv_error_set(&err, st, to->name, SV_ERROR_NO_OFFSET, "%s", sv_status_str(st));
    cli_report(cli_display_name(input), &err);
    return cli_exit_code(st);
}

/* Decode options that drop data: the tree they make is not the input, so
 * conv takes them only with --lossy (dump and validate take them freely). */
static const struct {
    const char *format, *option, *loses;
} lossy_reads[] = {
    {"kingsisle", "skip_unknown_types", "objects whose class the type list lacks"},
};

/* 0, or exit code 2 after the message when a lossy decode option of the
 * input's format is on without --lossy. */
static int check_lossy_reads(const conv_ctx *c, const cli_args *a, const sv_format *from,
                             const char *input)
{
    if (c->lossy) return 0;
    sv_options opts = cli_decode_options(a, from);
    for (size_t i = 0; i < sizeof lossy_reads / sizeof *lossy_reads; i++) {
        if (strcmp(from->name, lossy_reads[i].format) != 0) continue;
        if (!sv_options_flag(&opts, lossy_reads[i].option, false)) continue;
        cli_usage_error(
            "conv",
            "%s: -I %s=true drops %s (they read as null); add --lossy to convert all the same",
            cli_display_name(input), lossy_reads[i].option, lossy_reads[i].loses);
        return 2;
    }
    return 0;
}

/* One file: decode, encode with the target format (JSON gets a final
 * newline) into the output file's temporary file, renamed over it only
 * once every byte is written. */
static int conv_file(cli_args *a, cli_job *job, void *ctx)
{
    conv_ctx *c = ctx;
    const sv_format *to = c->to;
    cli_loaded l;
    int rc = cli_open_input(a, "conv", job->input, to, &l);
    if (rc) return rc;
    rc = check_lossy_reads(c, a, l.format, job->input);
    /* --max-alloc keeps its meaning, the size of the tree: with it, the tree */
    bool stream = !rc && to && sv_convert_streams(l.format, to) && !a->limits.max_alloc;
    if (stream) { /* a Godot input streams by its first words (sv_convert_streams_input) */
        sv_options in = cli_decode_options(a, l.format);
        sv_convert_opts co;
        sv_convert_opts_init(&co);
        co.format_options = &c->opts;
        stream = sv_convert_streams_input(l.format, to, l.in.data, l.in.len, &in, &co);
    }
    if (!rc && !stream && (rc = cli_decode_loaded(a, job->input, &l)) != 0) return rc;
    /* without --to or an extension: the format the tree says it came from */
    if (!rc && !to) rc = cli_tree_format(a, job->input, &l.root, &to);
    if (rc) {
        cli_loaded_free(&l);
        return rc;
    }

    /* A file is written while it is encoded (cli_output); standard output
     * gets the whole conversion or nothing. */
    sv_buf file;
    sv_buf_init(&file, NULL);
    sv_buf *out = job->output ? &file : &job->out;
    cli_output o;
    if (job->output && cli_output_begin(&o, job->output, out) != SV_OK) {
        cli_loaded_free(&l);
        return cli_exit_code(SV_ERR_IO);
    }
    size_t start = out->len;
    rc = stream ? convert_stream(a, c, to, &l, job->input, out)
                : convert(c, to, &l, job->input, out);
    if (!rc && cli_format_is_text(to)) {
        sv_buf_putc(out, '\n');
        if (!sv_buf_ok(out)) {
            cli_error("%s: %s", cli_display_name(job->input), sv_status_str(SV_ERR_NOMEM));
            rc = cli_exit_code(SV_ERR_NOMEM);
        }
    }
    /* a failed encode leaves nothing behind on standard output either */
    if (rc) out->len = start;
    if (job->output) {
        sv_status st = cli_output_end(&o, out, rc == 0);
        if (!rc && st != SV_OK) rc = cli_exit_code(st);
    }
    sv_buf_free(&file);
    cli_loaded_free(&l);
    return rc;
}

/* --to, or else the format whose extension -o's name has ("s.bson": bson);
 * NULL when neither says, and each tree then names its own (conv_file). */
static int target_format(const cli_args *a, const sv_format **to)
{
    *to = NULL;
    if (a->to) {
        int rc = cli_find_format(a->to, to);
        if (rc) return rc;
    } else if (a->output && !cli_is_stdio(a->output)) {
        *to = cli_format_by_extension(a->output);
    }
    if (!*to && a->output_dir) {
        cli_usage_error("conv", "needs --to FMT with --output-dir");
        return 2;
    }
    if (*to && !(*to)->encode) {
        cli_error("format %s cannot be written", (*to)->name);
        return cli_exit_code(SV_ERR_UNSUPPORTED);
    }
    return 0;
}

/* Takes conv's own flags (--lossy, --report-all) out of argv, up to "--",
 * so that the shared parser sees only the options it knows. */
static int take_flags(int argc, char **argv, conv_ctx *c)
{
    int n = 0;
    bool options = true;
    for (int i = 0; i < argc; i++) {
        if (options && i > 0 && !strcmp(argv[i], "--")) options = false;
        if (options && i > 0 && !strcmp(argv[i], "--lossy")) {
            c->lossy = true;
            continue;
        }
        if (options && i > 0 && !strcmp(argv[i], "--report-all")) {
            c->report_all = true;
            continue;
        }
        argv[n++] = argv[i];
    }
    return n;
}

int cmd_conv(int argc, char **argv)
{
    conv_ctx c = {0};
    argc = take_flags(argc, argv, &c);
    cli_args a;
    int rc =
        cli_args_parse(&a, "conv", argc, argv,
                       CLI_OPT_FROM | CLI_OPT_TO | CLI_OPT_OUTPUT | CLI_OPT_FORMAT | CLI_OPT_INPUT |
                           CLI_OPT_LIMITS | CLI_OPT_BATCH | CLI_OPT_OUTPUT_DIR);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (!(rc = target_format(&a, &c.to)) &&
               !(rc = c.to ? cli_check_format_options(&a, "conv", c.to, NULL) : 0)) {
        c.opts = cli_format_options(&a, "indent", "0");
        const char *ext = !c.to                                     ? NULL
                          : c.to->extensions && c.to->extensions[0] ? c.to->extensions[0]
                                                                    : c.to->name;
        /* a format known only from each tree may be binary: treated as such */
        cli_batch b = {.cmd = "conv",
                       .run = conv_file,
                       .ctx = &c,
                       .out_ext = ext,
                       .binary = !c.to || !cli_format_is_text(c.to)};
        rc = cli_batch_run(&a, &b);
    }
    cli_args_free(&a);
    return rc;
}
