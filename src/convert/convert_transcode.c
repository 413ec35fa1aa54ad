/* sv_convert_transcode: the conversions that need no tree (serval/convert.h).
 *
 * Typed JSON to typed JSON: its decoder's every tree is one its encoder
 * writes exactly (no lowering walk), and its reader can hand an outermost
 * array's items on one at a time (sv_json_transcode).
 *
 * BSON to BSON and Resonite to Resonite (convert_transcode_bson.c): the
 * input checked by the reader and its BSON written back.
 *
 * NoesisGUI to NoesisGUI (sv__noesis_format_transcode): each instance
 * written as soon as it is decoded.
 *
 * Godot Variant (godot4, godot3) to the same profile: for a raw outermost
 * Array or Dictionary read and written with no option but the limits
 * (sv__godot_transcode_fits), item by item; whatever that path leaves to
 * the tree (an error, keys that may repeat), and every other input, is
 * decoded into a tree and written by sv_convert_encode here, with the
 * errors the command reports for that path. */
#include <string.h>

#include "convert/convert_internal.h"
#include "convert/convert_transcode_bson.h"
#include "formats/json/json_transcode.h"
#include "formats/noesis/noesis_transcode.h"
#include "serval/convert.h"
#include "serval/config.h"
#include "serval/json.h"

#if SERVAL_WITH_GODOT
#include "formats/godot/godot_transcode.h"
#include "serval/godot.h"
#endif

/* Whether from and to are both the format called name. */
static bool both(const sv_format *from, const sv_format *to, const char *name)
{
    return from && to && from->name && to->name && !strcmp(from->name, name) &&
           !strcmp(to->name, name);
}

static bool noesis_pair(const sv_format *from, const sv_format *to)
{
    return SERVAL_WITH_NOESIS && both(from, to, "noesis");
}

/* The pairs that convert every input without a tree. */
static bool whole_pair(const sv_format *from, const sv_format *to)
{
    return both(from, to, sv_format_json.name) || noesis_pair(from, to) ||
           sv__convert_bson_streams(from, to); /* convert_transcode_bson.c */
}

#if SERVAL_WITH_GODOT
/* The profile of a Godot format that converts to itself item by item. */
static bool godot_pair(const sv_format *from, const sv_format *to, sv_godot_profile *profile)
{
    if (!from || !to || !from->name || !to->name || strcmp(from->name, to->name) != 0) return false;
    if (!strcmp(from->name, sv_format_godot4.name))
        *profile = SV_GODOT4;
    else if (!strcmp(from->name, sv_format_godot3.name))
        *profile = SV_GODOT3;
    else
        return false;
    return true;
}
#endif

bool sv_convert_streams(const sv_format *from, const sv_format *to)
{
#if SERVAL_WITH_GODOT
    sv_godot_profile p;
    if (godot_pair(from, to, &p)) return true;
#endif
    return whole_pair(from, to);
}

bool sv_convert_streams_input(const sv_format *from, const sv_format *to, const uint8_t *data,
                              size_t len, const sv_options *in_opts, const sv_convert_opts *opts)
{
#if SERVAL_WITH_GODOT
    sv_godot_profile p;
    if (godot_pair(from, to, &p))
        return !(opts && opts->lossy) &&
               sv__godot_transcode_fits(p, data, len, in_opts, opts ? opts->format_options : NULL);
#else
    (void)data, (void)len, (void)in_opts;
#endif
    (void)opts;
    return whole_pair(from, to);
}

static sv_status sink_error(const sv_format *to, sv_buf *out, sv_error *err)
{
    return sv_error_set(err, sv_buf_status(out), to->name, SV_ERROR_NO_OFFSET, "%s",
                        sv_buf_status(out) == SV_ERR_NOMEM ? "no memory for the output"
                                                           : "the output's sink failed");
}

/* convert_internal.h. What `serval conv` does without this file. */
sv_status sv__convert_via_tree(sv_doc *doc, const sv_format *from, const sv_format *to,
                               const uint8_t *data, size_t len, const sv_options *in_opts,
                               const sv_convert_opts *opts, sv_buf *out, sv_error *err)
{
    sv_error none;
    if (!err) err = &none; /* the caller may not want the details */
    sv_options o;
    if (in_opts)
        o = *in_opts;
    else
        sv_options_init(&o);
    o.borrow_input = true; /* data outlives the tree, as the command's input */
    sv_value root;
    sv_error_clear(err);
    sv_status st = from->decode(doc, data, len, &o, &root, err);
    if (st == SV_OK) st = sv_doc_status(doc);
    if (st != SV_OK) {
        if (err->status == SV_OK)
            st = sv_error_set(err, st, from->name, 0, "%s", "the decoder gave no details");
        sv_doc_reset(doc);
        return err->status;
    }
    st = sv_convert_encode(from, to, &root, opts, out, NULL, err);
    if (st != SV_OK && sv_buf_status(out) != SV_ERR_IO) {
        if (err->status == SV_OK)
            st = sv_error_set(err, st, to->name, 0, "%s",
                              st == SV_ERR_NOMEM ? "no memory for the output"
                                                 : "the encoder gave no details");
        err->byte_offset = SV_ERROR_NO_OFFSET; /* no input byte caused it */
    }
    sv_doc_reset(doc);
    return st;
}

#if SERVAL_WITH_GODOT
static sv_status godot_transcode(sv_doc *doc, sv_godot_profile profile, const sv_format *f,
                                 const uint8_t *data, size_t len, const sv_options *in_opts,
                                 const sv_convert_opts *opts, sv_buf *out, sv_error *err)
{
    size_t start = out->len;
    uint64_t flushed = out->flushed;
    if (!sv_convert_streams_input(f, f, data, len, in_opts, opts))
        return sv__convert_via_tree(doc, f, f, data, len, in_opts, opts, out, err);
    bool redo = false;
    sv_error_clear(err);
    sv_status st = sv__godot_transcode(profile, doc, data, len, in_opts, opts->format_options, out,
                                       &redo, err);
    if (!redo) {
        if (st != SV_OK) out->len = out->flushed == flushed ? start : 0;
        return st;
    }
    out->len = out->flushed == flushed ? start : 0;
    if (out->flushed == flushed)
        return sv__convert_via_tree(doc, f, f, data, len, in_opts, opts, out, err);
    /* the sink has part of the output: only the tree path's error fits */
    sv_buf scratch;
    sv_buf_init(&scratch, NULL);
    st = sv__convert_via_tree(doc, f, f, data, len, in_opts, opts, &scratch, err);
    sv_buf_free(&scratch);
    if (st == SV_OK)
        st = sv_error_set(err, SV_ERR_UNSUPPORTED, f->name, SV_ERROR_NO_OFFSET, "%s",
                          "the conversion item by item stopped where the tree's did not "
                          "(a bug: convert with --max-alloc to take the tree path)");
    return st;
}
#endif

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
#if SERVAL_WITH_GODOT
    sv_godot_profile profile;
    if (godot_pair(from, to, &profile)) {
        if (!doc || !out || (!data && len))
            return sv_error_set(err, SV_ERR_USAGE, from->name, 0,
                                "sv_convert_transcode needs a document, data and an output buffer");
        st = godot_transcode(doc, profile, from, data, len, in_opts, &o, out, err);
        if (st == SV_OK && !sv_buf_ok(out)) st = sink_error(to, out, err);
        return st;
    }
#endif
    if (sv__convert_bson_streams(from, to))
        st = sv__convert_bson_transcode(doc, from, to, data, len, in_opts, &o, out, err);
    else if (noesis_pair(from, to))
        st = sv__noesis_format_transcode(doc, data, len, in_opts, o.format_options, out, err);
    else
        st = sv__json_format_transcode(doc, data, len, in_opts, o.format_options, out, err);
    if (st == SV_OK && !sv_buf_ok(out)) st = sink_error(to, out, err);
    return st;
}
