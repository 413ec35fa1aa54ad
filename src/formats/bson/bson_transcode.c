/* BSON to BSON without the tree (bson_transcode.h).
 *
 * The writer gives back every document the reader takes, byte for byte:
 * nothing BSON can spell two ways is read (bson.md, "What is not kept"),
 * and the round-trip fuzz target holds the library to it. So the
 * conversion of an input the reader takes is the input itself, and taking
 * it is the reader's own check (sv_bson_validate: the decoder's loop
 * compiled without building values, every rule the same), which holds
 * nothing but the mapped input. The one option that changes what is
 * written, resonite-urls, must be the same on both sides ("@x" read as a
 * URL and written as plain text would lose its "@"); otherwise, and for an
 * input the check refuses, the caller takes the tree path, so the error is
 * the decoder's own to the letter. */
#include <string.h>

#include "core/opts.h"
#include "formats/bson/bson_transcode.h"
#include "serval/bson.h"
#include "serval/buf.h"

/* The resonite-urls flag of opts, false when opts are not ones the format
 * takes (the tree path then reports them). */
static bool urls_flag(const sv_options *opts, bool *urls)
{
    sv_options ro;
    sv_error scratch;
    sv_error_clear(&scratch);
    if (sv__core_options_read(&ro, opts, "bson", &scratch) != SV_OK) return false;
    *urls = sv_options_flag(&ro, "resonite-urls", false);
    return true;
}

bool sv__bson_transcode_self(const uint8_t *data, size_t len, const sv_options *in_opts,
                             const sv_options *out_opts, sv_buf *out)
{
    bool urls_in, urls_out;
    if (!urls_flag(in_opts, &urls_in) || !urls_flag(out_opts, &urls_out) || urls_in != urls_out)
        return false;
    sv_error scratch;
    sv_error_clear(&scratch);
    if (!sv_format_bson.validate || sv_format_bson.validate(data, len, in_opts, &scratch) != SV_OK)
        return false;
    /* a window at a time, so that a sink writes as it goes instead of the
     * buffer holding a second copy of the input */
    size_t step = out->sink && out->window ? out->window : len;
    for (size_t at = 0; at < len && sv_buf_ok(out); at += step) {
        size_t n = len - at < step ? len - at : step;
        sv_buf_append(out, data + at, n);
        sv_buf_release(out);
    }
    return true;
}
