/* The out-of-line part of the bit reader: recording failures. */
#include "core/bitio.h"
#include "core/error_record.h"

#include <stdarg.h>

sv_status sv__core_br_fail(sv_bitreader *r, sv_status status, const char *fmt, ...)
{
    if (r->status != SV_OK) return r->status;
    r->status = status;
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(r->err, status, r->format, r->pos >> 3, (int)(r->pos & 7), fmt, ap);
    va_end(ap);
    return status;
}
