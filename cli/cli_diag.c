/* Diagnostics on standard error (see cli_diag.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_diag.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("serval: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("serval: ", stderr);
    if (cmd) fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'serval%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
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
