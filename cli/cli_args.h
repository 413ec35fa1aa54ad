/* Command-line parsing shared by the subcommands.
 *
 * Every subcommand takes its options anywhere among its FILE arguments;
 * "--" ends the options and "-" is a FILE (standard input). Values go
 * either after "=" or as the next argument: "--from=json", "--from json",
 * "-O indent=4", "-Oindent=4". */
#ifndef SERVAL_CLI_ARGS_H
#define SERVAL_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "serval/registry.h"
#include "serval/schema.h"

/* Which options a subcommand accepts (--help always). */
enum {
    CLI_OPT_FROM = 1u << 0,    /* --from FMT */
    CLI_OPT_TO = 1u << 1,      /* --to FMT */
    CLI_OPT_OUTPUT = 1u << 2,  /* -o, --output OUT */
    CLI_OPT_COMPACT = 1u << 3, /* --compact */
    CLI_OPT_FORMAT = 1u << 4,  /* -O, --option NAME[=VALUE] */
    CLI_OPT_LIMITS = 1u << 5,  /* --max-depth N, --max-alloc SIZE, --max-input SIZE ... */
    /* -r, -j N, -T N, -q, -v, --[no-]progress: several files (cli_batch.h) */
    CLI_OPT_BATCH = 1u << 6,
    CLI_OPT_OUTPUT_DIR = 1u << 7, /* --output-dir DIR */
    CLI_OPT_STRICT = 1u << 8,     /* --strict */
    CLI_OPT_INPUT = 1u << 9,      /* -I, --input-option NAME[=VALUE] */
    /* -O names the input's options too (dump and validate, which write no
     * other format); without it -O is for the output only (conv). */
    CLI_OPT_FORMAT_READS = 1u << 10,
    CLI_OPT_VERBOSE = 1u << 11,  /* -v alone, for a command without CLI_OPT_BATCH */
    CLI_OPT_MAX_TOTAL = 1u << 12 /* --max-total SIZE (resonite package extract) */
};

/* Format options as a format takes them: slot 0 is kept free for a default
 * the command sets (cli_format_options), so the user's options, in slots
 * 1..count, come after it and win. */
typedef struct cli_optlist {
    const char **names;
    const char **values;
    size_t count;
} cli_optlist;

typedef struct cli_args {
    const char *from, *to, *output; /* NULL when not given */
    bool compact;
    bool strict; /* engine-rule warnings are errors */
    bool help;
    bool recursive;         /* -r: walk the directories among the FILEs */
    bool force;             /* -f, --force: binary output to a terminal */
    const char *output_dir; /* --output-dir DIR, or NULL */
    unsigned jobs;          /* -j N; 0: not given (the number of cores) */
    int threads;            /* -T N; -1: not given */
    int verbosity;          /* -q: -1, default 0, -v: 1 (more -v: more) */
    int progress;           /* --progress 1, --no-progress -1, default 0 */
    sv_limits limits;       /* zero fields: the library's defaults */
    uint64_t max_total;     /* --max-total SIZE; 0: not given */
    uint64_t max_input;     /* --max-input SIZE; 0: not given */

    /* The format options as given, in order: -O ones in out_opts (the
     * output's, and with CLI_OPT_FORMAT_READS the input's too), -I ones in
     * in_only. dec_opts is what the input's decoder gets: -I (and, with
     * CLI_OPT_FORMAT_READS, -O) in command-line order, slot 0 holding
     * "threads=1" for Resonite (cli_decode_options). The strings are owned
     * by the struct. */
    cli_optlist out_opts;
    cli_optlist in_only;
    cli_optlist dec_opts;
    bool format_reads; /* CLI_OPT_FORMAT_READS was given */
    bool output_only;  /* -O is the output's alone: -I takes the input's (conv) */

    char **files; /* the FILE arguments, pointing into argv */
    size_t file_count;

    /* --schema FILE (repeatable, every command): the files, pointing into
     * argv, and the one schema merged from them (NULL when none), which
     * cli_format_options hands to the formats. */
    const char **schema_files;
    size_t schema_file_count;
    sv_schema *schema;
} cli_args;

/* Parses the arguments after the subcommand's name (argv[0] is the name),
 * and loads the --schema files. Returns 0, or 2 after printing a usage
 * error (or the exit code of a schema file that does not load). On 0 the caller must
 * cli_args_free; on 2 nothing is left to free. */
int cli_args_parse(cli_args *a, const char *cmd, int argc, char **argv, unsigned accepted);
void cli_args_free(cli_args *a);

/* For a command that reads FILEs one by one: no FILE means standard input
 * ("-" becomes the one FILE), unless that is a terminal, where nobody is
 * about to type a file (then 2, after a usage error). Returns 0 or 2. */
int cli_files_or_stdin(cli_args *a, const char *cmd);

/* The options to hand the output's encoder (or, for a command that only
 * reads, its decoder): the user's -O options and limits, after a default
 * name=value pair of the command's (def_name NULL: none). The result points
 * into a. Not for use while other threads read a. */
sv_options cli_format_options(cli_args *a, const char *def_name, const char *def_value);

/* The options to hand the decoder of input format f: -I (and, where -O
 * names the input's options too, -O) and limits, after the command's own
 * default for f (Resonite decompresses on a second thread unless -T 0).
 * Safe from several threads; the result points into a. */
sv_options cli_decode_options(const cli_args *a, const sv_format *f);

/* Checks that every -O name is an option of format f1 or f2 (either may be
 * NULL). Returns 0, or 2 after printing a usage error. */
int cli_check_format_options(const cli_args *a, const char *cmd, const sv_format *f1,
                             const sv_format *f2);

/* Checks that every -I name is an option of the input format f. Returns 0,
 * or 2 after printing a usage error naming the format. */
int cli_check_input_options(const cli_args *a, const char *cmd, const sv_format *f);

#endif
