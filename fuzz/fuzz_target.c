/* One libFuzzer target, compiled once per format and kind (fuzz/CMakeLists.txt):
 *
 *   SV_FUZZ_FORMAT     the registry name of the format ("json", "godot4", ...)
 *   SV_FUZZ_ROUNDTRIP  0: decode only. 1: whatever decodes must come back
 *                      through typed JSON, as `serval dump` then
 *                      `serval conv --from json --to FMT` do it: the tree is
 *                      written as typed JSON (pretty, as dump writes it),
 *                      read back through the json format (an equal tree) and
 *                      written by sv_convert_encode, the function conv calls
 *                      (its conversion check, then the encoder). Those bytes
 *                      must be the input, or, where a documented
 *                      normalisation applies (each format's "What is not
 *                      kept"), what a direct encode of the decoded tree
 *                      gives; and that encoding must decode to an equal tree
 *                      that encodes to the same bytes again. The Godot
 *                      formats have no normalisation for the inputs read
 *                      here (framing not named, no trailing bytes): their
 *                      bytes must come back exactly. JSON, godot4, godot3,
 *                      BSON, Resonite and NoesisGUI also go through
 *                      sv_convert_transcode, which conv calls to convert
 *                      them to themselves: the same bytes or the same
 *                      error as the tree path, for every input.
 *
 * A broken property aborts, which libFuzzer (and the replay driver) report
 * as a crash with the input saved. The limits are tighter than the defaults
 * so that an allocation out of proportion to a small input shows up as a
 * limit error here and as a libFuzzer "malloc limit" crash if it bypasses
 * the document. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/buf_seekable.h"
#include "serval/serval.h"

#ifndef SV_FUZZ_FORMAT
#error "define SV_FUZZ_FORMAT"
#endif
#ifndef SV_FUZZ_ROUNDTRIP
#define SV_FUZZ_ROUNDTRIP 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* 64 MiB per document and decompressed payload: far above what any input
 * of the fuzzer's sizes (at most a few MB) justifies with the documented
 * multiples in docs/security.md, far below libFuzzer's malloc limit. */
static sv_options fuzz_options(void)
{
    sv_options o;
    sv_options_init(&o);
    o.limits.max_alloc = UINT64_C(64) << 20;
    o.limits.max_decompressed = UINT64_C(64) << 20;
    return o;
}

static void fail(const char *what, const sv_error *err)
{
    char msg[512];
    if (err)
        sv_error_format(err, msg, sizeof msg);
    else
        msg[0] = '\0';
    fprintf(stderr, "fuzz %s: %s%s%s\n", SV_FUZZ_FORMAT, what, err ? ": " : "", msg);
    abort();
}

static const sv_format *the_format(void)
{
    static const sv_format *f;
    if (!f) {
        f = sv_format_find(SV_FUZZ_FORMAT);
        if (!f) fail("format not registered", NULL);
    }
    return f;
}

#if SV_FUZZ_ROUNDTRIP
/* Encodes v into b; an encoder that refuses a tree its own decoder made
 * breaks the round-trip property. */
static void encode_or_die(const sv_format *f, const sv_value *v, const sv_options *o, sv_buf *b)
{
    sv_error err;
    memset(&err, 0, sizeof err);
    if (f->encode(v, o, b, &err) != SV_OK) fail("a decoded tree does not encode", &err);
    if (!sv_buf_ok(b)) fail("encoder output buffer failed", NULL);
}

static const sv_format *json_format(void)
{
    static const sv_format *f;
    if (!f) {
        f = sv_format_find("json");
        if (!f) fail("json not registered", NULL);
    }
    return f;
}

/* The tree through typed JSON text and back, as dump | conv do it: dump
 * writes it with indent=2, conv reads it with the json format, borrowing
 * from the text (so *text lives as long as doc). */
static sv_value through_json(sv_doc *doc, const sv_value *v1, sv_buf *text)
{
    sv_error err;
    memset(&err, 0, sizeof err);
    static const char *const names[] = {"indent"}, *const values[] = {"2"};
    sv_options w = fuzz_options();
    w.names = names;
    w.values = values;
    w.count = 1;
    if (json_format()->encode(v1, &w, text, &err) != SV_OK)
        fail("a decoded tree has no typed JSON", &err);
    sv_options r = fuzz_options();
    r.borrow_input = true;
    sv_value v2;
    if (json_format()->decode(doc, text->data, text->len, &r, &v2, &err) != SV_OK)
        fail("the typed JSON of a decoded tree does not read back", &err);
    if (!sv_equal(v1, &v2)) fail("typed JSON reads back as another tree", NULL);
    return v2;
}

/* The sink of conv's output: the bytes appended to the buffer ctx. */
static sv_status append_to(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

/* A patch of bytes append_to gave b (conv's file is rewritten so, with
 * pwrite: serval/buf_seekable.h). */
static sv_status patch_in(void *ctx, uint64_t at, const uint8_t *data, size_t len)
{
    sv_buf *b = ctx;
    if (at > b->len || len > b->len - at) fail("a patch of bytes the sink never took", NULL);
    memcpy(b->data + at, data, len);
    return SV_OK;
}

/* conv --from json --to FMT: sv_convert_encode, as cmd_conv.c calls it
 * (the format options are the encoder's), into a buffer with a sink as
 * conv's output file has one (one that can rewrite what it took), with a
 * small window so that every point where an encoder releases its bytes
 * hands them over; b gets them all. */
static void conv_or_die(const sv_format *f, const sv_value *vj, const sv_options *o, sv_buf *b)
{
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = o;
    sv_error err;
    memset(&err, 0, sizeof err);
    sv_buf piped;
    sv_buf_init(&piped, NULL);
    sv_buf_seekable file = {.write = append_to, .patch = patch_in, .ctx = b};
    sv_buf_set_seekable_sink(&piped, &file, 64);
    if (sv_convert_encode(json_format(), f, vj, &co, &piped, NULL, &err) != SV_OK)
        fail("conv refuses the typed JSON of a decoded tree", &err);
    if (sv_buf_flush(&piped) != SV_OK || !sv_buf_ok(b)) fail("out of memory", NULL);
    sv_buf_free(&piped);
}

static bool same(const sv_buf *b, const uint8_t *data, size_t len)
{
    return b->len == len && (len == 0 || memcmp(b->data, data, len) == 0);
}

/* The options a reader of the re-encoded bytes is given. A Godot file's
 * framing is in the tree, and a few short encodings fit two framings (the
 * decoder then asks for one by name): such a reader names the framing the
 * tree says, as `serval dump -O framing=...` would. */
static sv_options reread_options(const sv_value *v1, const sv_options *o, const char **names,
                                 const char **values)
{
    sv_options r = *o;
    if (strncmp(SV_FUZZ_FORMAT, "godot", 5) != 0) return r;
    const sv_value *meta = sv_meta(v1);
    bool has = meta && sv_kind_of(meta) == SV_MAP;
    const sv_value *fr = has ? sv_map_getz(meta, "framing") : NULL;
    const sv_value *pre = has ? sv_map_getz(meta, "prefix") : NULL;
    const char *s = fr ? sv_get_str(fr, NULL) : NULL;
    const char *p = pre ? sv_get_str(pre, NULL) : NULL;
    names[0] = "framing";
    values[0] = s ? s : "raw";
    r.count = 1;
    if (p) {
        names[1] = "prefix";
        values[1] = p;
        r.count = 2;
    }
    r.names = names;
    r.values = values;
    return r;
}

static void roundtrip(const sv_format *f, const sv_value *v1, const sv_options *o,
                      const uint8_t *in, size_t in_len)
{
    if (!f->encode) return;
    sv_doc *docj = sv_doc_new(NULL);
    if (!docj) abort();
    sv_buf text, bj, b1, b2;
    sv_buf_init(&text, NULL);
    sv_buf_init(&bj, NULL);
    sv_buf_init(&b1, NULL);
    sv_buf_init(&b2, NULL);
    sv_value vj = through_json(docj, v1, &text);
    conv_or_die(f, &vj, o, &bj);
    encode_or_die(f, v1, o, &b1);
    if (!same(&bj, b1.data, b1.len))
        fail("the bytes through typed JSON differ from a direct encode", NULL);
    if (strncmp(SV_FUZZ_FORMAT, "godot", 5) == 0 && !same(&bj, in, in_len))
        fail("a Godot input does not come back byte for byte through dump | conv", NULL);
    if (!same(&b1, in, in_len)) {
        /* SV_FUZZ_STRICT=1 in the environment: stop at the first input
         * that does not come back byte for byte, to audit a format's
         * "What is not kept" list */
        static int strict = -1;
        if (strict < 0) strict = getenv("SV_FUZZ_STRICT") && *getenv("SV_FUZZ_STRICT") == '1';
        if (strict) fail("not kept byte for byte (SV_FUZZ_STRICT)", NULL);
        /* a normalisation: it must be a fixed point */
        sv_doc *doc2 = sv_doc_new(NULL);
        if (!doc2) abort();
        sv_value v2;
        sv_error err;
        memset(&err, 0, sizeof err);
        const char *names[2], *values[2];
        sv_options o2 = reread_options(v1, o, names, values);
        if (f->decode(doc2, b1.data, b1.len, &o2, &v2, &err) != SV_OK)
            fail("the encoding of a decoded tree does not decode", &err);
        if (!sv_equal(v1, &v2)) fail("decode(encode(tree)) differs from tree", NULL);
        encode_or_die(f, &v2, o, &b2);
        if (!same(&b2, b1.data, b1.len))
            fail("encode(decode(encode(tree))) differs from encode(tree)", NULL);
        sv_doc_free(doc2);
    }
    sv_doc_free(docj);
    sv_buf_free(&text);
    sv_buf_free(&bj);
    sv_buf_free(&b1);
    sv_buf_free(&b2);
}
#endif

#if SV_FUZZ_ROUNDTRIP
/* conv from json, bson, resonite, noesis, godot4 or godot3 to itself does
 * not build the tree (sv_convert_transcode, as cmd_conv.c calls it; a Godot
 * input it cannot take item by item goes through a tree inside it, which
 * sv_convert_streams_input tells): for every input it must give what the tree path
 * gives, the decode's status st (tree v) and then sv_convert_encode's bytes,
 * or the decode's error (derr) with the same offset, path and message. A
 * tree over the memory limit may stream all the same (the limit then bounds
 * what the scratch document holds at once). */
static void transcode_agrees(const sv_format *f, const uint8_t *data, size_t len,
                             const sv_options *o, sv_status st, const sv_value *v,
                             const sv_error *derr)
{
    if (!sv_convert_streams(f, f)) return;
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = o;
    sv_buf want, got;
    sv_buf_init(&want, NULL);
    sv_buf_init(&got, NULL);
    sv_error err;
    memset(&err, 0, sizeof err);
    if (st == SV_OK && sv_convert_encode(f, f, v, &co, &want, NULL, &err) != SV_OK)
        fail("conv refuses a decoded tree", &err);
    sv_doc *scratch = sv_doc_new(NULL);
    if (!scratch) abort();
    memset(&err, 0, sizeof err);
    sv_status ts = sv_convert_transcode(scratch, f, f, data, len, o, &co, &got, &err);
    if (st == SV_ERR_LIMIT && ts == SV_OK) {
        /* streamed within the limit: nothing to compare */
    } else if (ts != st) {
        fail("the streaming conv and the tree disagree on the status", &err);
    } else if (st == SV_OK) {
        if (!same(&got, want.data, want.len)) fail("the streaming conv gives other bytes", NULL);
    } else if (err.byte_offset != derr->byte_offset || strcmp(err.path, derr->path) != 0 ||
               strcmp(err.message, derr->message) != 0) {
        fail("the streaming conv gives another error", &err);
    }
    sv_doc_free(scratch);
    sv_buf_free(&want);
    sv_buf_free(&got);
}
#endif

#if SV_FUZZ_ROUNDTRIP && SERVAL_WITH_NOESIS
/* src/formats/noesis/noesis_transcode.h (the fuzz targets see only the
 * public headers; serval_static has the function) */
sv_status sv__noesis_format_transcode(sv_doc *doc, const uint8_t *data, size_t len,
                                      const sv_options *in, const sv_options *out_opts,
                                      sv_buf *out, sv_error *err);
/* conv --from noesis --to noesis without the tree (noesis_transcode.h):
 * for every input the same bytes as the tree path (the decode's status st,
 * tree v, then the encoder), or the decode's error (derr) with the same
 * offset, path and message; once straight into a buffer, once through a
 * sink of a 7-byte window. A tree over the memory limit may stream all the
 * same (the limit then bounds what the values' document holds at once). */
static sv_status fuzz_collect(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

static void noesis_transcode_agrees(const sv_format *f, const uint8_t *data, size_t len,
                                    const sv_options *o, sv_status st, const sv_value *v,
                                    const sv_error *derr)
{
    if (strcmp(f->name, "noesis") != 0) return;
    sv_buf want;
    sv_buf_init(&want, NULL);
    sv_error err;
    memset(&err, 0, sizeof err);
    if (st == SV_OK && f->encode(v, o, &want, &err) != SV_OK)
        fail("noesis refuses a decoded tree", &err);
    for (int sink = 0; sink < 2; sink++) {
        sv_buf got, sunk;
        sv_buf_init(&got, NULL);
        sv_buf_init(&sunk, NULL);
        if (sink) sv_buf_set_sink(&got, fuzz_collect, &sunk, 7);
        sv_doc *scratch = sv_doc_new(NULL);
        if (!scratch) abort();
        memset(&err, 0, sizeof err);
        sv_status ts = sv__noesis_format_transcode(scratch, data, len, o, o, &got, &err);
        if (ts == SV_OK && sink) ts = sv_buf_flush(&got);
        if (st == SV_ERR_LIMIT && ts == SV_OK) {
            /* streamed within the limit: nothing to compare */
        } else if (ts != st) {
            fail("the streaming noesis conv and the tree disagree on the status", &err);
        } else if (st == SV_OK) {
            if (!same(sink ? &sunk : &got, want.data, want.len))
                fail("the streaming noesis conv gives other bytes", NULL);
        } else if (err.byte_offset != derr->byte_offset || strcmp(err.path, derr->path) != 0 ||
                   strcmp(err.message, derr->message) != 0) {
            fail("the streaming noesis conv gives another error", &err);
        }
        sv_doc_free(scratch);
        sv_buf_free(&got);
        sv_buf_free(&sunk);
    }
    sv_buf_free(&want);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    const sv_format *f = the_format();
    sv_options o = fuzz_options();
    /* The round trip reads the input as the command does, borrowing from it
     * where a format can (data outlives doc); decode-only copies. */
    o.borrow_input = SV_FUZZ_ROUNDTRIP;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 0;
    sv_value v;
    sv_error err;
    memset(&err, 0, sizeof err);
    sv_status st = f->decode(doc, data, len, &o, &v, &err);
#if SV_FUZZ_ROUNDTRIP
    transcode_agrees(f, data, len, &o, st, &v, &err);
#endif
#if SV_FUZZ_ROUNDTRIP && SERVAL_WITH_NOESIS
    noesis_transcode_agrees(f, data, len, &o, st, &v, &err);
#endif
    if (st == SV_OK) {
#if SV_FUZZ_ROUNDTRIP
        roundtrip(f, &v, &o, data, len);
#endif
    } else {
        /* Every failure must say what went wrong: a status with text and a
         * message (the CLI prints them). */
        if (err.status != st || err.message[0] == '\0') fail("an error without a message", NULL);
    }
    sv_doc_free(doc);
    return 0;
}
