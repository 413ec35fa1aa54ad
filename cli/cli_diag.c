/* Diagnostics on standard error (see cli_diag.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_diag.h"

/* Each message is one locked run of stdio calls, so the workers of a batch
 * (-j) never interleave their lines. */
void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    flockfile(stderr);
    fputs("serval: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
    va_end(ap);
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    flockfile(stderr);
    fputs("serval: ", stderr);
    if (cmd) fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'serval%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
    funlockfile(stderr);
    va_end(ap);
}

void cli_report(const char *file, const sv_error *err)
{
    /* Large enough for any error (path and message are bounded); the
     * fallback only guards against sv_error_format growing. */
    char line[SV_ERROR_PATH_MAX + SV_ERROR_MSG_MAX + 256];
    int need = sv_error_format(err, line, sizeof line);
    if (need >= 0 && (size_t)need >= sizeof line) {
        char *big = malloc((size_t)need + 1);
        if (big) {
            sv_error_format(err, big, (size_t)need + 1);
            cli_error("%s: %s", file, big);
            free(big);
            return;
        }
    }
    cli_error("%s: %s", file, need >= 0 ? line : sv_status_str(err->status));
}

static int severity(int code)
{
    switch (code) {
    case 0: return 0;
    case 1: return 1;
    case 4: return 2;
    case 3: return 3;
    case 2: return 4;
    default: return 1;
    }
}

int cli_worse_exit(int a, int b)
{
    return severity(b) > severity(a) ? b : a;
}

int cli_exit_code(sv_status status)
{
    switch (status) {
    case SV_OK: return 0;
    case SV_ERR_TRUNCATED:
    case SV_ERR_SYNTAX:
    case SV_ERR_UTF8:
    case SV_ERR_RANGE:
    case SV_ERR_TYPE:
    case SV_ERR_TRAILING:
    case SV_ERR_DEPTH:
    case SV_ERR_LIMIT:
    case SV_ERR_REFUSED: return 1;
    case SV_ERR_USAGE: return 2;
    case SV_ERR_NOMEM:
    case SV_ERR_IO: return 3;
    case SV_ERR_UNSUPPORTED:
    case SV_ERR_NOT_FOUND: return 4;
    case SV_STATUS_COUNT: break;
    }
    return 1; /* a status this program does not know: treat as bad data */
}
