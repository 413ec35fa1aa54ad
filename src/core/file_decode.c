/* sv_file_decode: read a file into the document and decode it (edit.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "serval/edit.h"

#define CHUNK ((size_t)1 << 20)

sv_status sv_file_decode(sv_doc *doc, const char *path, const sv_format *fmt,
                         const sv_options *opts, sv_value *out, sv_error *err)
{
    if (!doc || !path || !out)
        return sv_error_set(err, SV_ERR_USAGE, "file", 0, "no document, path or output");
    FILE *f = fopen(path, "rb");
    if (!f) return sv_error_set(err, SV_ERR_IO, "file", 0, "%s: %s", path, strerror(errno));
    /* The bytes go into the arena, grown in place one chunk at a time (the
     * last block of an arena grows without a copy), so a tree that refers
     * to them lives exactly as long. */
    size_t cap = CHUNK, len = 0;
    uint8_t *buf = sv_doc_alloc(doc, cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0 || len < cap) {
            if (ferror(f)) {
                int e = errno;
                fclose(f);
                return sv_error_set(err, SV_ERR_IO, "file", len, "%s: %s", path, strerror(e));
            }
            if (feof(f)) break;
            continue;
        }
        buf = sv_doc_realloc(doc, buf, cap, cap * 2);
        cap *= 2;
    }
    fclose(f);
    if (!buf)
        return sv_error_set(err, sv_doc_status(doc), "file", len, "%s: no memory for the file",
                            path);
    if (!fmt) fmt = sv_format_detect(buf, len, path);
    if (!fmt || !fmt->decode)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, fmt ? fmt->name : "file", 0,
                            fmt ? "%s: this format cannot be read" : "%s: cannot tell the format",
                            path);
    return fmt->decode(doc, buf, len, opts, out, err);
}
