/* The typed JSON (docs/json.md) as a registry format, so the CLI can read and
 * write it like any other: `serval conv --from godot4 --to json`, and dump is
 * just "encode as json, pretty". The reader (json_read*.c) and writer
 * (json_write*.c) are beside it in this folder; this file only maps
 * "name=value" options onto their option structs. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "serval/json.h"
#include "serval/registry.h"
#include "core/decode_root.h"
#include "formats/json/json_transcode.h"

/* Pretty output deeper than this many spaces per level helps nobody and only
 * multiplies the output size. */
#define JSON_MAX_INDENT 16

static bool is_json_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Offset of the first byte that is neither whitespace nor inside a // or
 * / * * / comment (len if there is none). Comments are skipped although the
 * reader takes them only with the comments option: O3DE files start with
 * one, and detection should still name them JSON (the reader then says
 * what is wrong). */
static size_t skip_space_and_comments(const uint8_t *d, size_t len)
{
    size_t i = 0;
    for (;;) {
        while (i < len && is_json_space(d[i])) i++;
        if (i + 1 >= len || d[i] != '/') return i;
        if (d[i + 1] == '/') {
            for (i += 2; i < len && d[i] != '\n'; i++) {
            }
        } else if (d[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(d[i] == '*' && d[i + 1] == '/'); i++) {
            }
            if (i + 1 >= len) return len; /* unterminated: nothing follows */
            i += 2;
        } else {
            return i;
        }
    }
}

/* How sure we are that data is JSON. BOM-less on purpose: the reader refuses
 * a BOM (docs/json.md, "Reading"), so a file that starts with one is not ours.
 * An object or array is the usual document; a bare scalar is valid JSON but
 * also the start of many a text file, hence the low score. */
static int json_probe(const uint8_t *data, size_t len)
{
    size_t i = skip_space_and_comments(data, len);
    if (i == len) return 0;
    switch (data[i]) {
    case '{':
    case '[': return 50;
    case '"':
    case '-':
    case 't':
    case 'f':
    case 'n': return 10;
    default: return (data[i] >= '0' && data[i] <= '9') ? 10 : 0;
    }
}

/* The reader's options from "name=value" options. */
static sv_status decode_opts_of(const sv_options *opts, sv_json_decode_opts *ro, sv_error *err)
{
    sv_options o;
    sv_status st = sv__core_options_read(&o, opts, "json", err);
    if (st != SV_OK) return st;
    sv_json_decode_opts_init(ro);
    ro->limits = o.limits;
    ro->allow_comments = sv_options_flag(&o, "comments", false);
    ro->plain = sv_options_flag(&o, "plain", false);
    return SV_OK;
}

static sv_status json_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                             sv_value *out, sv_error *err)
{
    sv_json_decode_opts ro;
    sv_status st = decode_opts_of(opts, &ro, err);
    if (st != SV_OK) return st;
    st = sv_json_decode(doc, (const char *)data, len, &ro, out, err);
    return sv__core_decode_root(doc, st, out, "json", err);
}

/* "indent=N": N decimal digits, 0 (compact) to JSON_MAX_INDENT. */
static bool parse_indent(const char *s, int *out)
{
    int n = 0;
    if (!s || !*s) return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        n = n * 10 + (*s - '0');
        if (n > JSON_MAX_INDENT) return false;
    }
    *out = n;
    return true;
}

/* The writer's options from "name=value" options. */
static sv_status encode_opts_of(const sv_options *opts, sv_json_encode_opts *wo, sv_error *err)
{
    sv_options o;
    sv_status st = sv__core_options_read(&o, opts, "json", err);
    if (st != SV_OK) return st;
    sv_json_encode_opts_init(wo);
    const char *indent = sv_options_get(&o, "indent");
    if (indent && !parse_indent(indent, &wo->indent))
        return sv_error_set(err, SV_ERR_USAGE, "json", 0,
                            "option indent=%s: expected a number from 0 to %d", indent,
                            JSON_MAX_INDENT);
    wo->plain = sv_options_flag(&o, "plain", false);
    return SV_OK;
}

static sv_status json_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    sv_json_encode_opts wo;
    sv_status st = encode_opts_of(opts, &wo, err);
    if (st != SV_OK) return st;
    return sv_json_encode(v, &wo, out, err);
}

sv_status sv__json_format_transcode(sv_doc *doc, const uint8_t *data, size_t len,
                                    const sv_options *in, const sv_options *out_opts, sv_buf *out,
                                    sv_error *err)
{
    sv_json_decode_opts ro;
    sv_json_encode_opts wo;
    sv_status st = decode_opts_of(in, &ro, err);
    if (st == SV_OK) st = encode_opts_of(out_opts, &wo, err);
    if (st != SV_OK) return st;
    return sv_json_transcode(doc, (const char *)data, len, &ro, &wo, out, err);
}

static const char *const json_extensions[] = {"json", NULL};

static const sv_option_desc json_options[] = {
    {"comments", "read: accept // and /* */ comments as whitespace"},
    {"plain", "read: \"$\" keys are ordinary keys; write: lossy plain JSON, no \"$\" forms"},
    {"indent", "write: spaces per level, 0 (compact) to 16"},
    {NULL, NULL},
};

const sv_format sv_format_json = {
    .struct_size = sizeof(sv_format),
    .name = "json",
    .description = "serval typed JSON (lossless, docs/json.md)",
    .extensions = json_extensions,
    .probe = json_probe,
    .decode = json_decode,
    .encode = json_encode,
    .options = json_options,
};
