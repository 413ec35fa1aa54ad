/* serval: status codes and error details.
 *
 * Every fallible function returns an sv_status. Functions that decode data also
 * fill an sv_error with where it went wrong: the format, the byte (and bit)
 * offset in the input, a JSON Pointer path in the value tree and a message. */
#ifndef SERVAL_ERROR_H
#define SERVAL_ERROR_H

#include "api.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The numbers are part of the ABI: a status keeps its value forever, and a
 * new status takes the next free number (and moves SV_STATUS_COUNT). */
typedef enum sv_status {
    SV_OK = 0,
    SV_ERR_TRUNCATED = 1,    /* input ends too early */
    SV_ERR_SYNTAX = 2,       /* malformed input */
    SV_ERR_UTF8 = 3,         /* invalid UTF-8 */
    SV_ERR_RANGE = 4,        /* value out of range */
    SV_ERR_TYPE = 5,         /* unexpected value kind */
    SV_ERR_TRAILING = 6,     /* trailing data after the value */
    SV_ERR_DEPTH = 7,        /* nesting deeper than the depth limit */
    SV_ERR_LIMIT = 8,        /* input exceeds a configured limit */
    SV_ERR_REFUSED = 9,      /* refused by policy (see the decoder's options) */
    SV_ERR_NOMEM = 10,       /* out of memory */
    SV_ERR_IO = 11,          /* input/output error */
    SV_ERR_USAGE = 12,       /* invalid argument */
    SV_ERR_UNSUPPORTED = 13, /* unsupported feature or format */
    SV_ERR_NOT_FOUND = 14,   /* not found */
    SV_STATUS_COUNT = 15     /* one more than the highest status */
} sv_status;

/* A short, static, human-readable text for a status. Never NULL. */
SV_API const char *sv_status_str(sv_status status);
/* The identifier of a status, e.g. "SV_ERR_TRUNCATED". Never NULL. */
SV_API const char *sv_status_name(sv_status status);

#define SV_ERROR_PATH_MAX 256
#define SV_ERROR_MSG_MAX 160

/* Where and why a decode or encode failed. All fields are plain data: the
 * struct lives on the caller's stack and needs no cleanup. */
/* byte_offset of an error that no input byte caused (an encoder's: the
 * value's path says where); sv_error_format then names no byte. */
#define SV_ERROR_NO_OFFSET UINT64_MAX

typedef struct sv_error {
    sv_status status;
    const char *format;           /* "json", "godot4", ...; static string */
    uint64_t byte_offset;         /* offset of the failing byte in the input */
    int bit_offset;               /* bit inside that byte (0..7), or -1 */
    uint32_t line, column;        /* 1-based, text formats only (0 = unknown) */
    char path[SV_ERROR_PATH_MAX]; /* JSON Pointer into the tree, "" = root */
    char message[SV_ERROR_MSG_MAX];
} sv_error;

/* Resets an error to SV_OK with no position. */
SV_API void sv_error_clear(sv_error *err);

/* Records a failure unless one is already recorded (the first error wins).
 * Returns the error's status (the first one). printf-style message. */
SV_API SV_NODISCARD sv_status sv_error_set(sv_error *err, sv_status status, const char *format,
                                           uint64_t byte_offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Same, with a bit offset (bit readers). */
SV_API SV_NODISCARD sv_status sv_error_set_bits(sv_error *err, sv_status status, const char *format,
                                                uint64_t byte_offset, int bit_offset,
                                                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* The va_list form of sv_error_set_bits (bit_offset -1 = none), for readers
 * that wrap it in printf-style functions of their own. */
SV_API SV_NODISCARD sv_status sv_error_vset(sv_error *err, sv_status status, const char *format,
                                            uint64_t byte_offset, int bit_offset, const char *fmt,
                                            va_list ap);

/* Paths are built while a failure unwinds: each level of a recursive decoder
 * that sees a child fail prepends its own segment, so the success path costs
 * nothing. Keys are escaped as JSON Pointer says (~ as ~0, / as ~1). If the
 * path grows past SV_ERROR_PATH_MAX the outermost part is replaced by "...". */
SV_API void sv_error_path_index(sv_error *err, uint64_t index);
SV_API void sv_error_path_key(sv_error *err, const char *key, size_t len);

/* Formats the error as one line:
 *   "json: malformed input at byte 12 (line 1, column 13) at /a/0: expected ','"
 * Returns the number of characters that the full text needs (like snprintf). */
SV_API int sv_error_format(const sv_error *err, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
