/* Recording a failure in an sv_error without taking a status back.
 *
 * sv_error_set returns the status that err now holds, and SV_NODISCARD makes
 * every caller look at it. A few failure paths carry their status another
 * way -- a reader's own status field, a NULL or false return that tells the
 * caller to read err -- and only want err filled in. They call these, which
 * record exactly as sv_error_vset / sv_error_set do (the first error wins). */
#ifndef SERVAL_CORE_ERROR_RECORD_H
#define SERVAL_CORE_ERROR_RECORD_H

#include <stdarg.h>
#include <stdint.h>

#include "serval/error.h"

void sv__core_error_vrecord(sv_error *err, sv_status status, const char *format,
                            uint64_t byte_offset, int bit_offset, const char *fmt, va_list ap);

void sv__core_error_record(sv_error *err, sv_status status, const char *format,
                           uint64_t byte_offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
