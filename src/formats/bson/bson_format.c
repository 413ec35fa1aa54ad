/* Plain BSON as a registry format ("bson"): one document, or a stream of
 * documents one after another (as mongodump writes a collection and bsondump
 * reads it). A stream is the tree's root array, one item per document; an
 * input that holds exactly one document is that document. Writing mirrors
 * this: a root array is written as a stream, a root map as one document. */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "core/opts.h"
#include "serval/bson.h"
#include "serval/registry.h"
#include "core/decode_root.h"

/* A BSON document starts with its own length and ends with 00: a file whose
 * first int32 is its size and whose last byte is 0 is almost surely one. */
static bool bson_type_byte(uint8_t t)
{
    return (t >= 0x01 && t <= 0x13) || t == 0x7F || t == 0xFF;
}

/* Whether p[0..left) starts a document that the input's end cuts off: its
 * length runs past the end, and what follows it is the start of an element,
 * a BSON type and a whole key of printable bytes (a Godot store_var frame,
 * whose length may run past a cut too, has a 0 there: no key). */
static bool cut_off_document(const uint8_t *p, size_t left)
{
    if (left < 7) return false;
    uint32_t n = sv__core_load_u32le(p);
    if (n <= left || n > INT32_MAX || !bson_type_byte(p[4])) return false;
    size_t i = 5;
    for (; i < left && p[i]; i++) /* ASCII or bytes UTF-8 may hold */
        if (p[i] < 0x20 || p[i] == 0x7F || p[i] == 0xC0 || p[i] == 0xC1 || p[i] >= 0xF5)
            return false;
    return i > 5 && i < left;
}

/* The whole input must be BSON documents one after another: each length in
 * range, each ending with 00, each first element of a BSON type, the last
 * ending exactly at the input's end. Checking only the first two would take
 * other formats' bytes (a Godot Dictionary, say) for a stream. Documents
 * whose last one is cut off (or, after whole ones, a length cut short) are
 * SV_PROBE_TRUNCATED: the decoder then says where the input ends. */
static int bson_probe(const uint8_t *data, size_t len)
{
    size_t pos = 0, docs = 0;
    while (pos < len) {
        if (cut_off_document(data + pos, len - pos)) return SV_PROBE_TRUNCATED;
        if (len - pos < 4 && docs > 0) return SV_PROBE_TRUNCATED;
        if (len - pos < 5) return 0;
        uint32_t n = sv__core_load_u32le(data + pos);
        if (n < 5 || n > len - pos || data[pos + n - 1] != 0) return 0;
        if (n > 5 && !bson_type_byte(data[pos + 4])) return 0;
        pos += n;
        docs++;
    }
    if (docs == 0) return 0;
    if (docs > 1) return 40;
    return len == 5 ? 30 : 60;
}

/* Puts "/n" in front of an error's path: the document of the stream it is
 * in. A path that no longer fits keeps its end (the part nearest the fault). */
static void prefix_path(sv_error *err, uint32_t n)
{
    char head[16];
    int hl = snprintf(head, sizeof head, "/%u", (unsigned)n);
    size_t pl = strlen(err->path), room = sizeof err->path - 1 - (size_t)hl;
    const char *tail = err->path + (pl > room ? pl - room : 0);
    size_t tl = strlen(tail);
    memmove(err->path + hl, tail, tl + 1);
    memcpy(err->path, head, (size_t)hl);
}

/* Documents one after another until the input ends. An error inside one is
 * reported at its offset in the whole input, under the path "/N". */
static sv_status decode_stream(sv_doc *doc, const uint8_t *data, size_t len, const sv_bson_opts *o,
                               sv_value *out, sv_error *err)
{
    /* doc NULL: only checking (bson_validate) */
    sv_value arr = doc ? sv_array(doc, 0) : sv_null();
    size_t pos = 0;
    for (uint32_t n = 0; pos < len; n++) {
        size_t doc_len = len - pos >= 4 ? sv__core_load_u32le(data + pos) : 0;
        /* A length that runs past the input is the truncation the
         * one-document reader reports, with its own message. */
        if (doc_len < 5 || doc_len > len - pos) doc_len = len - pos;
        sv_value item;
        sv_error sub;
        sv_error_clear(&sub);
        sv_status st = doc ? sv_bson_decode(doc, data + pos, doc_len, o, &item, &sub)
                           : sv_bson_validate(data + pos, doc_len, o, &sub);
        if (st != SV_OK) {
            if (err && err->status == SV_OK) {
                *err = sub;
                err->byte_offset += pos;
                prefix_path(err, n);
            }
            return st;
        }
        if (doc && sv_array_append(doc, &arr, item) != SV_OK) return sv_doc_status(doc);
        pos += doc_len;
    }
    *out = arr;
    return doc ? sv_doc_status(doc) : SV_OK;
}

/* Decodes into doc, or, doc NULL, only checks (the registry's validate). */
static sv_status bson_decode_tree(sv_doc *doc, const uint8_t *data, size_t len,
                                  const sv_options *opts, sv_value *out, sv_error *err)
{
    sv_options ro;
    sv_status st = sv__core_options_read(&ro, opts, "bson", err);
    if (st != SV_OK) return st;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.limits = ro.limits;
    o.resonite_urls = sv_options_flag(&ro, "resonite-urls", false);
    o.borrow_input = ro.borrow_input;
    bool stream = sv_options_flag(&ro, "stream", false);
    if (!stream && (len < 4 || sv__core_load_u32le(data) >= len))
        return doc ? sv_bson_decode(doc, data, len, &o, out, err)
                   : sv_bson_validate(data, len, &o, err);
    return decode_stream(doc, data, len, &o, out, err);
}

/* The entry: the tree decoded becomes the document's root. */
static sv_status bson_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                             sv_value *out, sv_error *err)
{
    sv_status st = bson_decode_tree(doc, data, len, opts, out, err);
    return sv__core_decode_root(doc, st, out, "bson", err);
}

static sv_status bson_validate(const uint8_t *data, size_t len, const sv_options *opts,
                               sv_error *err)
{
    sv_value unused;
    return bson_decode(NULL, data, len, opts, &unused, err);
}

static sv_status bson_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    sv_options ro;
    sv_status st = sv__core_options_read(&ro, opts, "bson", err);
    if (st != SV_OK) return st;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = sv_options_flag(&ro, "resonite-urls", false);
    if (sv_kind_of(v) != SV_ARRAY) return sv_bson_encode(v, &o, out, err);
    for (uint32_t i = 0; i < sv_len(v); i++) {
        st = sv_bson_encode(sv_array_at(v, i), &o, out, err);
        if (st != SV_OK) {
            if (err) prefix_path(err, i);
            return st;
        }
        /* a document is complete once written (its length is patched in
         * at its end): a stream goes to the sink one document at a time */
        sv_buf_release(out);
    }
    return SV_OK;
}

static const char *const bson_extensions[] = {"bson", NULL};

static const sv_option_desc bson_options[] = {
    {"resonite-urls", "Resonite strings: \"@x\" is the URL x, \"@@x\" the text \"@x\""},
    {"stream", "read the input as a stream of documents (an array) even when it holds one"},
    {NULL, NULL},
};

const sv_format sv_format_bson = {
    .struct_size = sizeof(sv_format),
    .name = "bson",
    .description = "BSON document (bsonspec.org 1.1), every element type",
    .extensions = bson_extensions,
    .probe = bson_probe,
    .decode = bson_decode,
    .encode = bson_encode,
    .options = bson_options,
    .validate = bson_validate,
};
