/* Command-line parsing shared by the subcommands (see cli_args.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "cli_schema.h"

typedef enum opt_id {
    OPT_FROM,
    OPT_TO,
    OPT_OUTPUT,
    OPT_COMPACT,
    OPT_STRICT,
    OPT_FORMAT,
    OPT_INPUT,
    OPT_MAX_DEPTH,
    OPT_MAX_ALLOC,
    OPT_MAX_STRING,
    OPT_MAX_DECOMPRESSED,
    OPT_MAX_TOTAL,
    OPT_MAX_INPUT,
    OPT_HELP,
    OPT_SCHEMA,
    OPT_RECURSIVE,
    OPT_OUTPUT_DIR,
    OPT_JOBS,
    OPT_THREADS,
    OPT_QUIET,
    OPT_VERBOSE,
    OPT_FORCE,
    OPT_SYNC,
    OPT_PROGRESS,
    OPT_NO_PROGRESS
} opt_id;

typedef struct opt_spec {
    opt_id id;
    const char *long_name;
    char short_name; /* 0: none */
    unsigned needs;  /* the CLI_OPT_* flag a command must accept; 0 = always */
    bool takes_value;
} opt_spec;

static const opt_spec specs[] = {
    {OPT_FROM, "from", 0, CLI_OPT_FROM, true},
    {OPT_TO, "to", 0, CLI_OPT_TO, true},
    {OPT_OUTPUT, "output", 'o', CLI_OPT_OUTPUT, true},
    {OPT_COMPACT, "compact", 0, CLI_OPT_COMPACT, false},
    {OPT_STRICT, "strict", 0, CLI_OPT_STRICT, false},
    {OPT_FORMAT, "option", 'O', CLI_OPT_FORMAT, true},
    {OPT_INPUT, "input-option", 'I', CLI_OPT_INPUT, true},
    {OPT_MAX_DEPTH, "max-depth", 0, CLI_OPT_LIMITS, true},
    {OPT_MAX_ALLOC, "max-alloc", 0, CLI_OPT_LIMITS, true},
    {OPT_MAX_STRING, "max-string", 0, CLI_OPT_LIMITS, true},
    {OPT_MAX_DECOMPRESSED, "max-decompressed", 0, CLI_OPT_LIMITS, true},
    {OPT_MAX_TOTAL, "max-total", 0, CLI_OPT_MAX_TOTAL, true},
    {OPT_MAX_INPUT, "max-input", 0, CLI_OPT_LIMITS, true},
    {OPT_HELP, "help", 'h', 0, false},
    {OPT_SCHEMA, "schema", 0, 0, true},
    {OPT_RECURSIVE, "recursive", 'r', CLI_OPT_BATCH, false},
    {OPT_OUTPUT_DIR, "output-dir", 0, CLI_OPT_OUTPUT_DIR, true},
    {OPT_JOBS, "jobs", 'j', CLI_OPT_BATCH, true},
    {OPT_THREADS, "threads", 'T', CLI_OPT_BATCH, true},
    {OPT_QUIET, "quiet", 'q', CLI_OPT_BATCH, false},
    {OPT_VERBOSE, "verbose", 'v', CLI_OPT_BATCH | CLI_OPT_VERBOSE, false},
    {OPT_FORCE, "force", 'f', CLI_OPT_OUTPUT, false},
    {OPT_SYNC, "sync", 0, CLI_OPT_OUTPUT, false},
    {OPT_PROGRESS, "progress", 0, CLI_OPT_BATCH, false},
    {OPT_NO_PROGRESS, "no-progress", 0, CLI_OPT_BATCH, false},
};
#define SPEC_COUNT (sizeof specs / sizeof specs[0])

/* Finds the option arg names. *inline_value gets the text after "=" (long
 * options) or after the letter (short ones), or NULL. */
static const opt_spec *find_spec(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        for (size_t i = 0; i < SPEC_COUNT; i++) {
            if (strlen(specs[i].long_name) == n && memcmp(specs[i].long_name, name, n) == 0) {
                if (eq) *inline_value = eq + 1;
                return &specs[i];
            }
        }
        return NULL;
    }
    for (size_t i = 0; i < SPEC_COUNT; i++) {
        if (specs[i].short_name && specs[i].short_name == arg[1]) {
            if (arg[2]) *inline_value = arg + 2;
            return &specs[i];
        }
    }
    return NULL;
}

/* A decimal count with an optional binary suffix (k, m, g, t: KiB ...),
 * from 1 to max. */
static bool parse_amount(const char *s, bool suffix_ok, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    if (*p && suffix_ok) {
        const char *units = "kmgt";
        const char *u = strchr(units, *p | 0x20);
        if (!u || p[1]) return false;
        for (ptrdiff_t k = 0; k <= u - units; k++) {
            if (v > UINT64_MAX / 1024) return false;
            v *= 1024;
        }
        p++;
    }
    if (*p || v == 0 || v > max) return false;
    *out = v;
    return true;
}

static void optlist_push(cli_optlist *l, const char *name, const char *value)
{
    l->count++;
    l->names[l->count] = name;
    l->values[l->count] = value;
}

/* Stores "-O name[=value]" (input: "-I ...") as owned strings in the next
 * slot of its list, and in the decoder's list when it is for the input. */
static int add_format_option(cli_args *a, const char *cmd, const char *text, bool input)
{
    const char *eq = strchr(text, '=');
    size_t n = eq ? (size_t)(eq - text) : strlen(text);
    if (n == 0) {
        cli_usage_error(cmd, "option '%s' needs NAME or NAME=VALUE, got '%s'", input ? "-I" : "-O",
                        text);
        return 2;
    }
    char *name = strndup(text, n);
    char *value = strdup(eq ? eq + 1 : "");
    if (!name || !value) {
        free(name);
        free(value);
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    optlist_push(input ? &a->in_only : &a->out_opts, name, value);
    if (input || a->format_reads) optlist_push(&a->dec_opts, name, value);
    return 0;
}

static int apply(cli_args *a, const char *cmd, const opt_spec *s, const char *value)
{
    uint64_t n = 0;
    switch (s->id) {
    case OPT_FROM: a->from = value; break;
    case OPT_TO: a->to = value; break;
    case OPT_OUTPUT: a->output = value; break;
    case OPT_COMPACT: a->compact = true; break;
    case OPT_STRICT: a->strict = true; break;
    case OPT_HELP: a->help = true; break;
    case OPT_SCHEMA: a->schema_files[a->schema_file_count++] = value; break;
    case OPT_FORMAT: return add_format_option(a, cmd, value, false);
    case OPT_INPUT: return add_format_option(a, cmd, value, true);
    case OPT_RECURSIVE: a->recursive = true; break;
    case OPT_OUTPUT_DIR: a->output_dir = value; break;
    case OPT_QUIET: a->verbosity = -1; break;
    case OPT_VERBOSE: a->verbosity = a->verbosity < 0 ? 1 : a->verbosity + 1; break;
    case OPT_FORCE: a->force = true; break;
    case OPT_SYNC: cli_set_output_sync(true); break;
    case OPT_PROGRESS: a->progress = 1; break;
    case OPT_NO_PROGRESS: a->progress = -1; break;
    case OPT_JOBS:
    case OPT_THREADS:
        /* -T 0 is allowed: no decompression thread. */
        if (!(s->id == OPT_THREADS && strcmp(value, "0") == 0) &&
            !parse_amount(value, false, 1024, &n)) {
            cli_usage_error(cmd, "--%s needs a whole number from %d to 1024, got '%s'",
                            s->long_name, s->id == OPT_THREADS ? 0 : 1, value);
            return 2;
        }
        if (s->id == OPT_JOBS)
            a->jobs = (unsigned)n;
        else
            a->threads = (int)n;
        break;
    case OPT_MAX_DEPTH:
        /* deeper than the library's cap would only be cut back silently */
        if (!parse_amount(value, false, SV_MAX_DEPTH_LIMIT, &n)) {
            cli_usage_error(cmd, "--max-depth needs a whole number from 1 to %u, got '%s'",
                            SV_MAX_DEPTH_LIMIT, value);
            return 2;
        }
        a->limits.max_depth = (uint32_t)n;
        break;
    case OPT_MAX_ALLOC:
        if (!parse_amount(value, true, UINT64_MAX, &n)) {
            cli_usage_error(cmd,
                            "--max-alloc needs a size in bytes (suffix k, m, g or t for "
                            "KiB, MiB, GiB, TiB), got '%s'",
                            value);
            return 2;
        }
        a->limits.max_alloc = n;
        break;
    case OPT_MAX_STRING:
    case OPT_MAX_DECOMPRESSED:
    case OPT_MAX_TOTAL:
    case OPT_MAX_INPUT:
        if (!parse_amount(value, true, UINT64_MAX, &n)) {
            cli_usage_error(cmd,
                            "--%s needs a size in bytes (suffix k, m, g or t for "
                            "KiB, MiB, GiB, TiB), got '%s'",
                            s->long_name, value);
            return 2;
        }
        if (s->id == OPT_MAX_STRING)
            a->limits.max_string = n;
        else if (s->id == OPT_MAX_TOTAL)
            a->max_total = n;
        else if (s->id == OPT_MAX_INPUT)
            a->max_input = n;
        else
            a->limits.max_decompressed = n;
        break;
    }
    return 0;
}

/* Handles the option at argv[*i]; may consume the next argument as its
 * value. Returns 0, 2 or 3. */
static int parse_option(cli_args *a, const char *cmd, int argc, char **argv, int *i,
                        unsigned accepted)
{
    const char *arg = argv[*i], *value;
    const opt_spec *s = find_spec(arg, &value);
    if (!s || (s->needs && !(accepted & s->needs))) {
        const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
        cli_usage_error(cmd, "unknown option '%.*s'", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
        return 2;
    }
    if (!s->takes_value) {
        if (value) {
            if (arg[1] == '-')
                cli_usage_error(cmd, "option '--%s' takes no value", s->long_name);
            else
                cli_usage_error(cmd, "unknown option '%s'", arg);
            return 2;
        }
        return apply(a, cmd, s, NULL);
    }
    /* The option as written, without any "=value": "--from" or "-o". */
    char shown[32];
    if (arg[1] == '-')
        snprintf(shown, sizeof shown, "--%s", s->long_name);
    else
        snprintf(shown, sizeof shown, "-%c", s->short_name);
    if (!value) {
        if (*i + 1 >= argc) {
            cli_usage_error(cmd, "option '%s' needs a value", shown);
            return 2;
        }
        value = argv[++*i];
    }
    if (!*value) {
        cli_usage_error(cmd, "option '%s' needs a non-empty value", shown);
        return 2;
    }
    return apply(a, cmd, s, value);
}

int cli_args_parse(cli_args *a, const char *cmd, int argc, char **argv, unsigned accepted)
{
    memset(a, 0, sizeof *a);
    a->threads = -1;
    size_t slots = (size_t)(argc > 0 ? argc : 0) + 1;
    a->format_reads = (accepted & CLI_OPT_FORMAT_READS) != 0;
    a->output_only = (accepted & CLI_OPT_INPUT) && !a->format_reads;
    bool lists_ok = true;
    cli_optlist *lists[] = {&a->out_opts, &a->in_only, &a->dec_opts};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        lists[i]->names = calloc(slots, sizeof *lists[i]->names);
        lists[i]->values = calloc(slots, sizeof *lists[i]->values);
        lists_ok = lists_ok && lists[i]->names && lists[i]->values;
    }
    /* the decoder's default: Resonite's Brotli thread (cli_decode_options) */
    if (lists_ok) {
        a->dec_opts.names[0] = "threads";
        a->dec_opts.values[0] = "1";
    }
    a->files = calloc(slots, sizeof *a->files);
    a->schema_files = calloc(slots, sizeof *a->schema_files);
    if (!lists_ok || !a->files || !a->schema_files) {
        cli_args_free(a);
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }

    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        if (only_files || arg[0] != '-' || arg[1] == '\0') {
            a->files[a->file_count++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_files = true;
        } else {
            int rc = parse_option(a, cmd, argc, argv, &i, accepted);
            if (rc) {
                cli_args_free(a);
                return rc;
            }
        }
    }
    /* Every input read from here on (schema files included) has this cap:
     * --max-input, or else the larger of 4 GiB and --max-alloc. */
    uint64_t alloc = a->limits.max_alloc ? a->limits.max_alloc : SV_DEFAULT_MAX_ALLOC;
    cli_set_max_input(a->max_input                    ? a->max_input
                      : alloc > CLI_DEFAULT_MAX_INPUT ? alloc
                                                      : CLI_DEFAULT_MAX_INPUT);
    cli_set_max_buffered(a->limits.max_alloc);
    if (a->schema_file_count && !a->help) {
        int rc = cli_schema_load_merged(a->schema_files, a->schema_file_count, &a->schema, NULL);
        if (rc) {
            cli_args_free(a);
            return rc;
        }
    }
    return 0;
}

int cli_files_or_stdin(cli_args *a, const char *cmd)
{
    static char standard_input[] = "-";
    if (a->file_count) return 0;
    if (isatty(STDIN_FILENO)) {
        cli_usage_error(cmd, "no FILE given and standard input is a terminal");
        return 2;
    }
    a->files[a->file_count++] = standard_input; /* files has room for argc + 1 */
    return 0;
}

void cli_args_free(cli_args *a)
{
    /* Slot 0 holds the command's default, which is not ours; dec_opts
     * points to the strings of the other two. */
    cli_optlist *owners[] = {&a->out_opts, &a->in_only};
    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 1; owners[l]->names && i <= owners[l]->count; i++) {
            free((void *)owners[l]->names[i]);
            free((void *)owners[l]->values[i]);
        }
    }
    cli_optlist *lists[] = {&a->out_opts, &a->in_only, &a->dec_opts};
    for (size_t l = 0; l < 3; l++) {
        free(lists[l]->names);
        free(lists[l]->values);
    }
    free(a->files);
    free(a->schema_files);
    sv_schema_free(a->schema);
    memset(a, 0, sizeof *a);
}

sv_options cli_format_options(cli_args *a, const char *def_name, const char *def_value)
{
    sv_options o;
    sv_options_init(&o);
    o.limits = a->limits;
    o.schema = a->schema;
    cli_optlist *l = &a->out_opts;
    if (def_name) {
        l->names[0] = def_name;
        l->values[0] = def_value ? def_value : "";
        o.names = l->names;
        o.values = l->values;
        o.count = l->count + 1;
    } else {
        o.names = l->names + 1;
        o.values = l->values + 1;
        o.count = l->count;
    }
    return o;
}

static bool format_has_option(const sv_format *f, const char *name)
{
    if (!f || !f->options) return false;
    for (const sv_option_desc *d = f->options; d->name; d++)
        if (strcmp(d->name, name) == 0) return true;
    return false;
}

sv_options cli_decode_options(const cli_args *a, const sv_format *f)
{
    sv_options o;
    sv_options_init(&o);
    o.limits = a->limits;
    o.schema = a->schema;
    /* A decoder that takes a "threads" option (Resonite's, which may
     * decompress Brotli on a second thread) starts none unless asked; the
     * command asks unless -T 0 (a user's -I threads=N, coming after, still
     * wins). */
    size_t skip = a->threads != 0 && format_has_option(f, "threads") ? 0 : 1;
    o.names = a->dec_opts.names + skip;
    o.values = a->dec_opts.values + skip;
    o.count = a->dec_opts.count + 1 - skip;
    return o;
}

int cli_check_format_options(const cli_args *a, const char *cmd, const sv_format *f1,
                             const sv_format *f2)
{
    if (f1 == f2) f2 = NULL;
    if (!f1) {
        f1 = f2;
        f2 = NULL;
    }
    for (size_t i = 1; i <= a->out_opts.count; i++) {
        const char *name = a->out_opts.names[i];
        if (format_has_option(f1, name) || format_has_option(f2, name)) continue;
        /* conv's -O is the output's alone; elsewhere it may be the input's */
        cli_usage_error(cmd, "%s option '%s' is not known to %s%s%s (see 'serval formats')",
                        a->output_only ? "output" : "format", name, f1 ? f1->name : "any format",
                        f2 ? " or " : "", f2 ? f2->name : "");
        return 2;
    }
    return 0;
}

int cli_check_input_options(const cli_args *a, const char *cmd, const sv_format *f)
{
    for (size_t i = 1; i <= a->in_only.count; i++) {
        const char *name = a->in_only.names[i];
        if (format_has_option(f, name)) continue;
        cli_usage_error(cmd, "input option '%s' is not known to %s (see 'serval formats')", name,
                        f ? f->name : "any format");
        return 2;
    }
    return 0;
}
