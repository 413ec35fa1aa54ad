/* The out-of-line part of the byte reader: recording failures. */
#include "core/byteio.h"
#include "core/error_record.h"

#include <stdarg.h>

sv_status sv__core_rd_fail(sv_reader *r, sv_status status, const char *fmt, ...)
{
    if (r->status != SV_OK) return r->status;
    r->status = status;
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(r->err, status, r->format, sv__core_rd_offset(r), -1, fmt, ap);
    va_end(ap);
    r->p = r->end; /* later reads see no bytes */
    return status;
}
