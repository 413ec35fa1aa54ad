/* The last step of every format's decode entry (sv_format.decode): the tree
 * it made becomes the document's root (internal). */
#ifndef SV_CORE_DECODE_ROOT_H
#define SV_CORE_DECODE_ROOT_H

#include "serval/error.h"
#include "serval/value.h"

/* st is the decoder's status. On success the tree at out becomes the
 * document's root, so that calls given the document alone (sv_doc_root,
 * sv_get_path with root NULL) find what was decoded. doc may be NULL (a
 * format that validates without a document). */
static inline sv_status sv__core_decode_root(sv_doc *doc, sv_status st, const sv_value *out,
                                             const char *format, sv_error *err)
{
    if (st != SV_OK || !doc) return st;
    st = sv_doc_set_root(doc, *out);
    if (st != SV_OK)
        return sv_error_set(err, st, format, 0, "the decoded tree is incomplete (%s)",
                            sv_status_str(st));
    return SV_OK;
}

#endif
