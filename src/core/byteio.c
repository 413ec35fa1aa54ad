/* The out-of-line part of the byte reader: recording failures. */
#include "core/byteio.h"

#include <stdarg.h>
#include <stdio.h>

sv_status sv_rd_fail(sv_reader *r, sv_status status, const char *fmt, ...)
{
    if (r->status != SV_OK) return r->status;
    r->status = status;
    char msg[SV_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sv_error_set(r->err, status, r->format, sv_rd_offset(r), "%s", msg);
    r->p = r->end; /* later reads see no bytes */
    return status;
}
