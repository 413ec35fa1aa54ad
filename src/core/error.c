/* Status texts and the error detail (sv_error). */
#include "serval/error.h"

#include "core/error_record.h"
#include "core/walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Indexed by status; a value without an entry is unknown. */
static const struct status_info {
    const char *name, *text;
} statuses[] = {
    [SV_OK] = {"SV_OK", "ok"},
    [SV_ERR_TRUNCATED] = {"SV_ERR_TRUNCATED", "input ends too early"},
    [SV_ERR_SYNTAX] = {"SV_ERR_SYNTAX", "malformed input"},
    [SV_ERR_UTF8] = {"SV_ERR_UTF8", "invalid UTF-8"},
    [SV_ERR_RANGE] = {"SV_ERR_RANGE", "value out of range"},
    [SV_ERR_TYPE] = {"SV_ERR_TYPE", "unexpected value kind"},
    [SV_ERR_TRAILING] = {"SV_ERR_TRAILING", "trailing data after the value"},
    [SV_ERR_DEPTH] = {"SV_ERR_DEPTH", "nesting deeper than the depth limit"},
    [SV_ERR_LIMIT] = {"SV_ERR_LIMIT", "input exceeds a configured limit"},
    [SV_ERR_REFUSED] = {"SV_ERR_REFUSED", "refused by policy (see the decoder's options)"},
    [SV_ERR_NOMEM] = {"SV_ERR_NOMEM", "out of memory"},
    [SV_ERR_IO] = {"SV_ERR_IO", "input/output error"},
    [SV_ERR_USAGE] = {"SV_ERR_USAGE", "invalid argument"},
    [SV_ERR_UNSUPPORTED] = {"SV_ERR_UNSUPPORTED", "unsupported feature or format"},
    [SV_ERR_NOT_FOUND] = {"SV_ERR_NOT_FOUND", "not found"},
};

static const struct status_info *status_info(sv_status status)
{
    if ((unsigned)status >= sizeof statuses / sizeof statuses[0]) return NULL;
    return statuses[status].name ? &statuses[status] : NULL;
}

const char *sv_status_str(sv_status status)
{
    const struct status_info *i = status_info(status);
    return i ? i->text : "unknown status";
}

const char *sv_status_name(sv_status status)
{
    const struct status_info *i = status_info(status);
    return i ? i->name : "SV_UNKNOWN";
}

void sv_error_clear(sv_error *err)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->status = SV_OK;
    err->format = "";
    err->bit_offset = -1;
}

void sv__core_error_vrecord(sv_error *err, sv_status status, const char *format,
                            uint64_t byte_offset, int bit_offset, const char *fmt, va_list ap)
{
    if (!err || err->status != SV_OK) return; /* the first error wins */
    err->status = status;
    err->format = format ? format : "";
    err->byte_offset = byte_offset;
    err->bit_offset = bit_offset;
    err->line = err->column = 0;
    err->path[0] = '\0';
    if (fmt) {
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    } else {
        err->message[0] = '\0';
    }
}

void sv__core_error_record(sv_error *err, sv_status status, const char *format,
                           uint64_t byte_offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(err, status, format, byte_offset, -1, fmt, ap);
    va_end(ap);
}

sv_status sv_error_vset(sv_error *err, sv_status status, const char *format, uint64_t byte_offset,
                        int bit_offset, const char *fmt, va_list ap)
{
    if (!err) return status;
    sv__core_error_vrecord(err, status, format, byte_offset, bit_offset, fmt, ap);
    return err->status;
}

sv_status sv_error_set(sv_error *err, sv_status status, const char *format, uint64_t byte_offset,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sv_status s = sv_error_vset(err, status, format, byte_offset, -1, fmt, ap);
    va_end(ap);
    return s;
}

sv_status sv_error_set_bits(sv_error *err, sv_status status, const char *format,
                            uint64_t byte_offset, int bit_offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sv_status s = sv_error_vset(err, status, format, byte_offset, bit_offset, fmt, ap);
    va_end(ap);
    return s;
}

/* Puts seg (n bytes) in front of the current path. When the result would not
 * fit, the path keeps its innermost part and starts with "..." so the reader
 * still sees where in the deepest level it failed. */
static void path_prepend(sv_error *err, const char *seg, size_t n)
{
    size_t cur = strlen(err->path);
    const size_t cap = SV_ERROR_PATH_MAX - 1;
    if (cur >= 3 && memcmp(err->path, "...", 3) == 0) return; /* already truncated */
    if (n + cur > cap) {
        static const char dots[] = "...";
        size_t keep = cur;
        if (keep > cap - 3) keep = cap - 3;
        memmove(err->path + 3, err->path + (cur - keep), keep);
        memcpy(err->path, dots, 3);
        err->path[3 + keep] = '\0';
        return;
    }
    memmove(err->path + n, err->path, cur + 1);
    memcpy(err->path, seg, n);
}

void sv_error_path_index(sv_error *err, uint64_t index)
{
    if (!err || err->status == SV_OK) return;
    char seg[24];
    int n = snprintf(seg, sizeof seg, "/%llu", (unsigned long long)index);
    path_prepend(err, seg, (size_t)n);
}

void sv_error_path_key(sv_error *err, const char *key, size_t len)
{
    if (!err || err->status == SV_OK) return;
    char seg[SV_ERROR_PATH_MAX];
    seg[0] = '/';
    /* a key too long for the path is cut here; path_prepend keeps what fits */
    size_t n = sv__core_pointer_escape(seg + 1, sizeof seg - 1, key, len);
    path_prepend(err, seg, 1 + n);
}

int sv_error_format(const sv_error *err, char *buf, size_t size)
{
    if (!err) return snprintf(buf, size, "no error");
    char where[96] = "";
    if (err->status != SV_OK && err->status != SV_ERR_NOMEM && err->status != SV_ERR_USAGE &&
        err->status != SV_ERR_IO && err->byte_offset != SV_ERROR_NO_OFFSET) {
        int n =
            snprintf(where, sizeof where, " at byte %llu", (unsigned long long)err->byte_offset);
        if (err->bit_offset >= 0 && n > 0 && (size_t)n < sizeof where)
            n += snprintf(where + n, sizeof where - (size_t)n, " bit %d", err->bit_offset);
        if (err->line > 0 && n > 0 && (size_t)n < sizeof where)
            snprintf(where + n, sizeof where - (size_t)n, " (line %u, column %u)", err->line,
                     err->column);
    }
    const char *fmt = err->format && err->format[0] ? err->format : "serval";
    return snprintf(buf, size, "%s: %s%s%s%s%s%s", fmt, sv_status_str(err->status), where,
                    err->path[0] ? " at " : "", err->path, err->message[0] ? ": " : "",
                    err->message);
}
