/* Running one command over many files: dump, conv and validate hand their
 * per-file function to cli_batch_run, which expands the FILE arguments
 * (standard input when there are none; the files under a directory with -r),
 * names each output (--output-dir), runs the files on -j N threads, prints
 * what each file sends to standard output in the order of the inputs, shows
 * a progress line on a terminal, and returns the highest exit code. */
#ifndef SERVAL_CLI_BATCH_H
#define SERVAL_CLI_BATCH_H

#include <stdbool.h>

#include "cli_args.h"
#include "serval/buf.h"

/* One input file and where its result goes. */
typedef struct cli_job {
    const char *input;  /* a path, or "-" (standard input) */
    const char *output; /* a path, or NULL: the file's result goes to out */
    sv_buf out;         /* bytes for standard output, written in input order */
    int rc;             /* the file's exit code */
} cli_job;

/* The work of a command on one file. May run on any thread, several at once
 * (each with its own job); prints its diagnostics itself with cli_error /
 * cli_report and returns the file's exit code. out is initialised and empty;
 * the driver frees it. */
typedef int (*cli_file_fn)(cli_args *a, cli_job *job, void *ctx);

typedef struct cli_batch {
    const char *cmd; /* "dump", for messages */
    cli_file_fn run; /* the per-file work */
    void *ctx;       /* handed to run */
    /* With --output-dir: the extension the outputs get ("json"), or NULL to
     * keep the input's name as it is. */
    const char *out_ext;
    /* Whether the outputs, when they go to standard output, are binary (a
     * terminal then refuses them without -o - or --force). */
    bool binary;
} cli_batch;

/* Runs b over a's FILE arguments. Returns the highest exit code of the files
 * (a usage error, 2, stops the batch), or 2/3 for an argument error before
 * any file ran. */
int cli_batch_run(cli_args *a, const cli_batch *b);

/* The number of online processors (at least 1): -j's default. */
unsigned cli_cpu_count(void);

/* Whether messages of level lvl are shown under a's -q/-v (0: normal
 * messages, 1: -v, -1: even under -q). */
bool cli_verbose(const cli_args *a, int lvl);

#endif
