/* serval: decoding a file from disk. */
#ifndef SERVAL_FILE_H
#define SERVAL_FILE_H

#include "api.h"
#include "error.h"
#include "registry.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the file at path and decodes it with format fmt, or, when fmt is
 * NULL, with the format sv_format_detect finds from the bytes and the name.
 * The bytes are read into the document's arena, so they count against its
 * allocation limit and live as long as it. opts may be NULL. Errors:
 * SV_ERR_IO (the message says why), SV_ERR_UNSUPPORTED (no format fits, or
 * it cannot be read), or the decoder's. On success *out is also the
 * document's root (sv_doc_root). */
SV_API SV_NODISCARD sv_status sv_file_decode(sv_doc *doc, const char *path, const sv_format *fmt,
                                             const sv_options *opts, sv_value *out, sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
