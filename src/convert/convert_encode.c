/* sv_convert_encode: the whole of `serval conv` after the decode, in the
 * library, so that the command and the fuzz targets that hold conv to its
 * promise (every tree a decoder accepts comes back byte for byte) run the
 * same code. */
#include <string.h>

#include "convert/convert_internal.h"
#include "core/opts.h"
#include "serval/convert.h"

sv_status sv_convert_encode(const sv_format *from, const sv_format *to, const sv_value *root,
                            const sv_convert_opts *opts, sv_buf *out, size_t *changes,
                            sv_error *err)
{
    if (changes) *changes = 0;
    if (!to || !root || !out)
        return sv_error_set(err, SV_ERR_USAGE, "convert", 0, "no target format, tree or buffer");
    if (!to->encode)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, to->name, 0, "format %s cannot be written",
                            to->name);
    sv_convert_opts o;
    sv_status ost = cv_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    const sv_options *fo = o.format_options;
    const sv_value *tree = root;
    sv_value lowered;
    sv_doc *doc = NULL;
    /* A tree a format's decoder made is one its encoder writes exactly, with
     * the same options (the round-trip fuzz targets hold every format to
     * it), so a conversion within one format needs no walk. */
    if (from != to && sv_convert_knows(to)) {
        doc = sv_doc_new(NULL);
        if (!doc) return sv_error_set(err, SV_ERR_NOMEM, to->name, 0, "out of memory");
        sv_options fl; /* the format options' limits, read as versioned */
        if ((ost = sv__core_options_read(&fl, fo, to->name, err)) != SV_OK) {
            sv_doc_free(doc);
            return ost;
        }
        if (fl.limits.max_alloc) sv_doc_set_max_alloc(doc, fl.limits.max_alloc);
        sv_status st = sv_convert_lower(doc, to, root, opts, &lowered, changes, err);
        if (st != SV_OK) {
            sv_doc_free(doc);
            return st;
        }
        tree = &lowered;
    }
    sv_status st = to->encode(tree, fo, out, err);
    if (st == SV_OK && !sv_buf_ok(out))
        st = sv_error_set(err, sv_buf_status(out), to->name, 0, "%s",
                          sv_buf_status(out) == SV_ERR_NOMEM ? "no memory for the output"
                                                             : "the output's sink failed");
    if (doc) sv_doc_free(doc);
    return st;
}
