/* sv_convert_transcode: the conversions that need no tree (serval/convert.h).
 * Typed JSON to typed JSON only: its decoder's every tree is one its encoder
 * writes exactly (no lowering walk), and its reader can hand an outermost
 * array's items on one at a time (sv_json_transcode). */
#include <string.h>

#include "convert/convert_internal.h"
#include "convert/convert_transcode_bson.h"
#include "formats/json/json_transcode.h"
#include "serval/convert.h"
#include "serval/json.h"

bool sv_convert_streams(const sv_format *from, const sv_format *to)
{
    if (sv__convert_bson_streams(from, to)) return true; /* convert_transcode_bson.c */
    return from && to && from->name && to->name && !strcmp(from->name, sv_format_json.name) &&
           !strcmp(to->name, sv_format_json.name);
}

sv_status sv_convert_transcode(sv_doc *doc, const sv_format *from, const sv_format *to,
                               const uint8_t *data, size_t len, const sv_options *in_opts,
                               const sv_convert_opts *opts, sv_buf *out, sv_error *err)
{
    if (!sv_convert_streams(from, to))
        return sv_error_set(err, SV_ERR_UNSUPPORTED, to && to->name ? to->name : "convert", 0,
                            "no conversion without a tree from %s to %s",
                            from && from->name ? from->name : "(none)",
                            to && to->name ? to->name : "(none)");
    sv_convert_opts o;
    sv_status st = cv_opts_read(&o, opts, err);
    if (st != SV_OK) return st;
    if (sv__convert_bson_streams(from, to))
        st = sv__convert_bson_transcode(doc, from, to, data, len, in_opts, o.format_options, out,
                                        err);
    else
        st = sv__json_format_transcode(doc, data, len, in_opts, o.format_options, out, err);
    if (st == SV_OK && !sv_buf_ok(out))
        st = sv_error_set(err, sv_buf_status(out), to->name, SV_ERROR_NO_OFFSET, "%s",
                          sv_buf_status(out) == SV_ERR_NOMEM ? "no memory for the output"
                                                             : "the output's sink failed");
    return st;
}
