/* Diagnostics of the serval command: always on standard error, always one
 * line starting with "serval: ", so scripts can tell them from data. */
#ifndef SERVAL_CLI_DIAG_H
#define SERVAL_CLI_DIAG_H

#include "serval/error.h"

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* "serval: <message>\n" */
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);

/* "serval: <cmd>: <message>\nTry 'serval <cmd> --help'.\n" (cmd NULL: top
 * level). For mistakes on the command line; the caller then exits with 2. */
void cli_usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);

/* "serval: <file>: <the error as sv_error_format writes it>\n" */
void cli_report(const char *file, const sv_error *err);

/* The command's exit status for a library status: 0 ok, 1 bad data, 2 usage,
 * 3 input/output or memory, 4 unsupported or not found. */
int cli_exit_code(sv_status status);

/* Of two exit codes, the more severe, for commands over several files:
 * usage (2), then input/output (3), then unsupported (4), then bad data (1). */
int cli_worse_exit(int a, int b);

#endif
