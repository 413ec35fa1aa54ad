/* sv_convert_transcode for BSON to BSON and Resonite to Resonite
 * (serval/convert.h): the input's bytes checked by the reader and written
 * back without a tree (formats/bson/bson_transcode.c,
 * formats/resonite/resonite_transcode.c). Whatever those decline (options
 * that change the bytes, an input the check refuses) goes the tree path
 * here, decode then sv_convert_encode as `serval conv` does, so an error is
 * the decoder's own (message, offset, path) and exit code alike. */
#include <string.h>

#include "convert/convert_internal.h"
#include "convert/convert_transcode_bson.h"
#include "serval/config.h"
#if SERVAL_WITH_BSON
#include "formats/bson/bson_transcode.h"
#endif
#if SERVAL_WITH_RESONITE
#include "formats/resonite/resonite_transcode.h"
#endif

/* Whether f is the format called name (NULL, or unnamed: no). */
static bool named(const sv_format *f, const char *name)
{
    return f && f->name && !strcmp(f->name, name);
}

static bool bson_to_bson(const sv_format *from, const sv_format *to)
{
    return SERVAL_WITH_BSON && named(from, "bson") && named(to, "bson");
}

static bool resonite_to_resonite(const sv_format *from, const sv_format *to)
{
    return SERVAL_WITH_RESONITE && named(from, "resonite") && named(to, "resonite");
}

bool sv__convert_bson_streams(const sv_format *from, const sv_format *to)
{
    return bson_to_bson(from, to) || resonite_to_resonite(from, to);
}

sv_status sv__convert_bson_transcode(sv_doc *doc, const sv_format *from, const sv_format *to,
                                     const uint8_t *data, size_t len, const sv_options *in_opts,
                                     const sv_convert_opts *opts, sv_buf *out, sv_error *err)
{
    const sv_options *out_opts = opts->format_options;
    sv_status st = SV_OK;
    bool done = false;
#if SERVAL_WITH_BSON
    if (bson_to_bson(from, to)) done = sv__bson_transcode_self(data, len, in_opts, out_opts, out);
#endif
#if SERVAL_WITH_RESONITE
    if (resonite_to_resonite(from, to))
        done = sv__resonite_transcode_self(data, len, in_opts, out_opts, out, &st, err);
#endif
    if (!done) st = sv__convert_via_tree(doc, from, to, data, len, in_opts, opts, out, err);
    return st;
}
