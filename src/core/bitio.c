/* The out-of-line part of the bit reader: recording failures. */
#include "core/bitio.h"

#include <stdarg.h>
#include <stdio.h>

sv_status sv_br_fail(sv_bitreader *r, sv_status status, const char *fmt, ...)
{
    if (r->status != SV_OK) return r->status;
    r->status = status;
    char msg[SV_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sv_error_set_bits(r->err, status, r->format, r->pos >> 3, (int)(r->pos & 7), "%s", msg);
    return status;
}
