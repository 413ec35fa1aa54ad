/* The value tree to BSON (bson.h has the mapping; docs/formats/bson.md the
 * rules for trees that did not come from BSON).
 *
 * Into a buffer that holds everything, lengths are back-patched: a document
 * reserves its int32, writes its elements and stores its size when it
 * closes, so the output is written once, front to back. Through a sink
 * (serval/buf.h) the bytes before a document's end may be gone when it
 * closes, so a sizing pass (bson_measure.c) first records every length and
 * the writer puts each one first and hands the bytes on after every element:
 * the output then never needs more than the sink's window. Canonical BSON
 * (what Newtonsoft.Json.Bson writes, spec resonite A.4) comes out of any
 * tree the reader made, byte for byte. */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "core/compiler.h"
#include "core/error_record.h"
#include "core/value_internal.h"
#include "formats/bson/bson_internal.h"
#include "formats/bson/bson_opts.h"
#include "formats/bson/bson_sizes.h"

typedef struct bw {
    sv_buf *out;
    sv_error *err;
    const char *format;
    bool urls;
    sv_status st; /* the first failure */
    /* Streaming: the sizing pass's lengths, taken in order (NULL: patch). */
    const uint32_t *sizes;
    size_t nsizes, next_size;
} bw;

SV_PRINTF(3, 4)
static bool wfail(bw *w, sv_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(w->err, st, w->format, 0, -1, fmt, ap);
    va_end(ap);
    if (w->st == SV_OK) w->st = st;
    return false;
}

static bool write_doc(bw *w, const sv_value *v, uint32_t depth);
static bool write_array(bw *w, const sv_value *v, uint32_t depth);

/* A length-prefixed part being written: where it starts in the output and,
 * streaming, the length the sizing pass gave it. */
typedef struct part {
    uint64_t start;
    uint32_t size;
} part;

static bool sizes_disagree(bw *w)
{
    return wfail(w, SV_ERR_RANGE,
                 "the sizing pass and the written bytes disagree (a bug in the BSON writer)");
}

/* Puts the part's int32 length: the known one when streaming, else 0 to be
 * patched by close_part. */
static bool open_part(bw *w, part *p)
{
    p->start = sv_buf_pos(w->out);
    p->size = 0;
    if (w->sizes) {
        if (w->next_size == w->nsizes) return sizes_disagree(w);
        p->size = w->sizes[w->next_size++];
    }
    sv_put_u32le(w->out, p->size);
    return true;
}

/* Ends the part: its length is checked (streaming) or patched in; what
 * names the part in the error for one over INT32_MAX bytes. */
static bool close_part(bw *w, const part *p, const char *what)
{
    if (!sv_buf_ok(w->out)) return false;
    uint64_t n = sv_buf_pos(w->out) - p->start;
    if (n > INT32_MAX)
        return wfail(w, SV_ERR_RANGE, "%s of %llu bytes is too long", what, (unsigned long long)n);
    if (w->sizes) return n == p->size || sizes_disagree(w);
    /* not streaming: nothing was handed to the sink since the part began */
    sv__core_store_u32le(w->out->data + (size_t)(p->start - w->out->flushed), (uint32_t)n);
    return true;
}

/* After an element: streaming, every byte so far is final. */
static inline void element_done(bw *w)
{
    if (w->sizes) sv_buf_release(w->out);
}

/* type byte + key + NUL */
static inline bool put_head(bw *w, unsigned type, const char *key, size_t klen)
{
    if (memchr(key, 0, klen)) return wfail(w, SV_ERR_TYPE, "a BSON key cannot hold a NUL byte");
    sv_buf *b = w->out;
    if (sv_buf_ensure(b, klen + 2 + 16) != SV_OK) return false;
    b->data[b->len++] = (uint8_t)type;
    memcpy(b->data + b->len, key, klen);
    b->len += klen;
    b->data[b->len++] = 0;
    return true;
}

/* int32 length (with the NUL) + bytes + NUL, with an optional "@" first. */
static bool put_string(bw *w, const char *s, size_t n, bool at)
{
    size_t total = n + (at ? 1 : 0);
    if (total >= INT32_MAX) return wfail(w, SV_ERR_RANGE, "a string of %zu bytes is too long", n);
    sv_put_u32le(w->out, (uint32_t)(total + 1));
    if (at) sv_buf_putc(w->out, '@');
    sv_buf_append(w->out, s, n);
    sv_buf_putc(w->out, 0);
    return true;
}

static bool put_binary(bw *w, unsigned sub, const void *d, size_t n)
{
    size_t total = n + (sub == BSON_SUB_OLD_BINARY ? 4 : 0);
    if (total > INT32_MAX) return wfail(w, SV_ERR_RANGE, "a binary of %zu bytes is too long", n);
    sv_put_u32le(w->out, (uint32_t)total);
    sv_buf_putc(w->out, (uint8_t)sub);
    if (sub == BSON_SUB_OLD_BINARY) sv_put_u32le(w->out, (uint32_t)n);
    sv_buf_append(w->out, d, n);
    return true;
}

static const sv_value *field(const sv_value *obj, const char *name)
{
    return sv_map_get(obj, name, strlen(name));
}

static bool string_field(bw *w, const sv_value *obj, const char *name, const char **s, size_t *n)
{
    const sv_value *f = field(obj, name);
    if (sv_kind_of(f) != SV_STRING)
        return wfail(w, SV_ERR_TYPE, "%s needs a string field \"%s\"",
                     sv_get_str(sv_object_class(obj), NULL), name);
    *s = sv_get_str(f, n);
    return true;
}

static bool put_objectid(bw *w, const char *s, size_t n)
{
    uint8_t id[12] = {0};
    if (n != 24 || !sv__bson_unhex(s, 12, id))
        return wfail(w, SV_ERR_TYPE, "an objectid must be 24 hex digits");
    sv_buf_append(w->out, id, 12);
    return true;
}

/* OBJECT values of the bson.* classes (bson.h); other objects are written as
 * documents of their fields. Returns 0 = not a bson.* class, 1 = written,
 * -1 = failed. */
static int write_bson_object(bw *w, const char *key, size_t klen, const sv_value *v, uint32_t depth)
{
    size_t cn;
    const char *cls = sv_get_str(sv_object_class(v), &cn);
    if (cn < 5 || memcmp(cls, "bson.", 5) != 0) return 0;
    /* initialised for gcc 12 -O3, which cannot see string_field set them */
    const char *s = NULL;
    size_t n = 0;
    if (!strcmp(cls, BSON_CLASS_BINARY)) {
        const sv_value *sub = field(v, "subtype"), *data = field(v, "data");
        sv_kind sk = sv_kind_of(sub);
        if ((sk != SV_INT && sk != SV_UINT) || sv_get_uint(sub) > 255 ||
            sv_kind_of(data) != SV_BYTES)
            return wfail(w, SV_ERR_TYPE, "bson.binary needs subtype (0..255) and data (bytes)")
                       ? 1
                       : -1;
        if (!put_head(w, BSON_BINARY, key, klen)) return -1;
        return put_binary(w, (unsigned)sv_get_uint(sub), data->as.bytes, data->len) ? 1 : -1;
    }
    if (!strcmp(cls, BSON_CLASS_UNDEFINED)) return put_head(w, BSON_UNDEFINED, key, klen) ? 1 : -1;
    if (!strcmp(cls, BSON_CLASS_CODE) || !strcmp(cls, BSON_CLASS_SYMBOL)) {
        bool code = !strcmp(cls, BSON_CLASS_CODE);
        if (!string_field(w, v, code ? "code" : "symbol", &s, &n)) return -1;
        if (!put_head(w, code ? BSON_CODE : BSON_SYMBOL, key, klen)) return -1;
        return put_string(w, s, n, false) ? 1 : -1;
    }
    if (!strcmp(cls, BSON_CLASS_DBPOINTER)) {
        const char *id = NULL;
        size_t idn = 0;
        if (!string_field(w, v, "namespace", &s, &n) || !string_field(w, v, "id", &id, &idn))
            return -1;
        if (!put_head(w, BSON_DBPOINTER, key, klen) || !put_string(w, s, n, false)) return -1;
        return put_objectid(w, id, idn) ? 1 : -1;
    }
    if (!strcmp(cls, BSON_CLASS_CODE_W_SCOPE)) {
        const sv_value *scope = field(v, "scope");
        if (!string_field(w, v, "code", &s, &n)) return -1;
        if (sv_kind_of(scope) != SV_MAP)
            return wfail(w, SV_ERR_TYPE, "bson.code_w_scope needs a scope map") ? 1 : -1;
        if (!put_head(w, BSON_CODE_W_SCOPE, key, klen)) return -1;
        part pt;
        if (!open_part(w, &pt)) return -1;
        if (!put_string(w, s, n, false) || !write_doc(w, scope, depth + 1)) return -1;
        return close_part(w, &pt, "a code_w_scope") ? 1 : -1;
    }
    return 0;
}

static bool write_number_item(bw *w, const char *key, size_t klen, sv_elem e, const void *data,
                              size_t i)
{
    const uint8_t *p = (const uint8_t *)data + i * sv_elem_size(e);
    int64_t iv = 0;
    switch (e) {
    case SV_ELEM_F32: {
        float f;
        memcpy(&f, p, 4);
        if (!put_head(w, BSON_DOUBLE, key, klen)) return false;
        sv__core_put_f64le(w->out, (double)f);
        return true;
    }
    case SV_ELEM_F64: {
        uint64_t u;
        memcpy(&u, p, 8);
        if (!put_head(w, BSON_DOUBLE, key, klen)) return false;
        sv_put_u64le(w->out, u);
        return true;
    }
    case SV_ELEM_U8: iv = *p; break;
    case SV_ELEM_I8: iv = (int8_t)*p; break;
    case SV_ELEM_U16: iv = sv__core_load_u16le(p); break;
    case SV_ELEM_I16: iv = (int16_t)sv__core_load_u16le(p); break;
    case SV_ELEM_I32: iv = (int32_t)sv__core_load_u32le(p); break;
    case SV_ELEM_U32: iv = sv__core_load_u32le(p); break;
    case SV_ELEM_I64: iv = (int64_t)sv__core_load_u64le(p); break;
    case SV_ELEM_U64: {
        uint64_t u = sv__core_load_u64le(p);
        if (u > INT64_MAX) return wfail(w, SV_ERR_RANGE, "a u64 above int64's range");
        iv = (int64_t)u;
        break;
    }
    default: return wfail(w, SV_ERR_TYPE, "unknown element type");
    }
    bool small = e <= SV_ELEM_I32 && e != SV_ELEM_U32;
    if (!put_head(w, small ? BSON_INT32 : BSON_INT64, key, klen)) return false;
    if (small)
        sv_put_u32le(w->out, (uint32_t)(int32_t)iv);
    else
        sv_put_u64le(w->out, (uint64_t)iv);
    return true;
}

/* An array's key i: its meta's key when it has one, else the index. */
static bool write_numbers(bw *w, const sv_value *v)
{
    part pt;
    if (!open_part(w, &pt)) return false;
    char key[24];
    for (size_t i = 0; i < v->len; i++) {
        int kn = snprintf(key, sizeof key, "%zu", i);
        if (!write_number_item(w, key, (size_t)kn, (sv_elem)v->sub, v->as.data, i)) return false;
        element_done(w);
    }
    sv_buf_putc(w->out, 0);
    return close_part(w, &pt, "an array");
}

static bool write_elem(bw *w, const char *key, size_t klen, const sv_value *v, uint32_t depth)
{
    sv_buf *b = w->out;
    switch ((sv_kind)v->kind) {
    case SV_NULL: {
        unsigned t = v->tag == SV_TAG_MINKEY   ? BSON_MINKEY
                     : v->tag == SV_TAG_MAXKEY ? BSON_MAXKEY
                                               : BSON_NULL;
        return put_head(w, t, key, klen);
    }
    case SV_BOOL:
        if (!put_head(w, BSON_BOOL, key, klen)) return false;
        b->data[b->len++] = v->as.b ? 1 : 0;
        return true;
    case SV_INT:
        if (v->tag == SV_TAG_DATETIME || v->sub == 8) {
            if (!put_head(w, v->tag == SV_TAG_DATETIME ? BSON_DATETIME : BSON_INT64, key, klen))
                return false;
            sv__core_store_u64le(b->data + b->len, (uint64_t)v->as.i);
            b->len += 8;
            return true;
        }
        if (v->as.i < INT32_MIN || v->as.i > INT32_MAX)
            return wfail(w, SV_ERR_RANGE, "an int of width %d outside int32", v->sub);
        if (!put_head(w, BSON_INT32, key, klen)) return false;
        sv__core_store_u32le(b->data + b->len, (uint32_t)(int32_t)v->as.i);
        b->len += 4;
        return true;
    case SV_UINT:
        if (v->tag == SV_TAG_TIMESTAMP) {
            if (!put_head(w, BSON_TIMESTAMP, key, klen)) return false;
            sv__core_store_u64le(b->data + b->len, v->as.u);
            b->len += 8;
            return true;
        }
        if (v->sub <= 4 && v->as.u <= INT32_MAX) {
            if (!put_head(w, BSON_INT32, key, klen)) return false;
            sv__core_store_u32le(b->data + b->len, (uint32_t)v->as.u);
            b->len += 4;
            return true;
        }
        if (v->as.u > INT64_MAX) return wfail(w, SV_ERR_RANGE, "a uint above int64's range");
        if (!put_head(w, BSON_INT64, key, klen)) return false;
        sv__core_store_u64le(b->data + b->len, v->as.u);
        b->len += 8;
        return true;
    case SV_FLOAT: {
        double d = v->sub == 4 ? (double)v->as.f32 : v->as.f64;
        if (!put_head(w, BSON_DOUBLE, key, klen)) return false;
        sv__core_put_f64le(b, d);
        return true;
    }
    case SV_STRING:
        if (v->tag == SV_TAG_OBJECTID)
            return put_head(w, BSON_OBJECTID, key, klen) && put_objectid(w, v->as.str, v->len);
        if (v->tag == SV_TAG_UUID) {
            uint8_t id[16];
            if (!sv__bson_uuid_parse(v->as.str, v->len, id))
                return wfail(w, SV_ERR_TYPE, "a uuid must be 8-4-4-4-12 hex digits");
            return put_head(w, BSON_BINARY, key, klen) && put_binary(w, BSON_SUB_UUID, id, 16);
        }
        if (!put_head(w, BSON_STRING, key, klen)) return false;
        if (w->urls && v->tag == SV_TAG_URL) {
            /* spec resonite A.5: a URL is "@" + the URL. One that would read
             * back as something else is refused ("" reads as the string "@",
             * "@x" as the string "@x"); "@" alone is the reader's form of
             * "@@" (bson_read.c). */
            if (v->len == 0 || (v->as.str[0] == '@' && v->len != 1))
                return wfail(w, SV_ERR_TYPE,
                             "a URL cannot be empty or start with '@' (other than \"@\")");
            return put_string(w, v->as.str, v->len, true);
        }
        /* spec resonite A.5: a string that starts with "@" and is longer than
         * one character gets another "@". */
        return put_string(w, v->as.str, v->len, w->urls && v->len > 1 && v->as.str[0] == '@');
    case SV_BYTES:
        if (v->tag == SV_TAG_DECIMAL128) {
            if (v->len != 16) return wfail(w, SV_ERR_TYPE, "a decimal128 must be 16 bytes");
            if (!put_head(w, BSON_DECIMAL128, key, klen)) return false;
            sv_buf_append(b, v->as.bytes, 16);
            return true;
        }
        return put_head(w, BSON_BINARY, key, klen) &&
               put_binary(w, BSON_SUB_GENERIC, v->as.bytes, v->len);
    case SV_ARRAY:
        if (v->tag == SV_TAG_REGEX) {
            const sv_value *p = sv_array_at(v, 0), *o = sv_array_at(v, 1);
            size_t pn, on;
            const char *ps = sv_get_str(p, &pn), *os = sv_get_str(o, &on);
            if (v->len != 2 || sv_kind_of(p) != SV_STRING || sv_kind_of(o) != SV_STRING ||
                memchr(ps, 0, pn) || memchr(os, 0, on))
                return wfail(w, SV_ERR_TYPE, "a regex is [pattern, options] without NUL bytes");
            if (!put_head(w, BSON_REGEX, key, klen)) return false;
            sv_buf_append(b, ps, pn + 1);
            sv_buf_append(b, os, on + 1);
            return true;
        }
        return put_head(w, BSON_ARRAY, key, klen) && write_array(w, v, depth + 1);
    case SV_MAP: return put_head(w, BSON_DOCUMENT, key, klen) && write_doc(w, v, depth + 1);
    case SV_OBJECT: {
        int done = write_bson_object(w, key, klen, v, depth);
        if (done) return done > 0;
        return put_head(w, BSON_DOCUMENT, key, klen) && write_doc(w, v, depth + 1);
    }
    case SV_TUPLE:
    case SV_PACKED: return put_head(w, BSON_ARRAY, key, klen) && write_numbers(w, v);
    default: return wfail(w, SV_ERR_TYPE, "a %s value has no BSON form", sv_kind_name(v->kind));
    }
}

static bool close_doc(bw *w, const part *pt)
{
    sv_buf_putc(w->out, 0);
    return close_part(w, pt, "a document");
}

static bool write_array(bw *w, const sv_value *v, uint32_t depth)
{
    if (depth > BSON_MAX_NESTING)
        return wfail(w, SV_ERR_DEPTH, "nesting deeper than %u", BSON_MAX_NESTING);
    const sv_value *keys = sv_meta(v);
    if (keys && (sv_kind_of(keys) != SV_ARRAY || keys->len != v->len))
        return wfail(w, SV_ERR_TYPE, "an array's meta must be the list of its keys");
    part pt;
    if (!open_part(w, &pt)) return false;
    char key[24];
    const sv_value *items = sv_array_items(v);
    for (size_t i = 0; i < v->len; i++) {
        const char *k = key;
        size_t kn;
        if (keys) {
            const sv_value *kv = sv_array_at(keys, i);
            if (sv_kind_of(kv) != SV_STRING)
                return wfail(w, SV_ERR_TYPE, "an array key must be a string");
            k = sv_get_str(kv, &kn);
        } else if (i < 10) {
            key[0] = (char)('0' + i);
            kn = 1;
        } else {
            kn = (size_t)snprintf(key, sizeof key, "%zu", i);
        }
        if (!write_elem(w, k, kn, &items[i], depth)) {
            sv_error_path_index(w->err, i);
            return false;
        }
        element_done(w);
    }
    return close_doc(w, &pt);
}

static bool write_doc(bw *w, const sv_value *v, uint32_t depth)
{
    if (depth > BSON_MAX_NESTING)
        return wfail(w, SV_ERR_DEPTH, "nesting deeper than %u", BSON_MAX_NESTING);
    part pt;
    if (!open_part(w, &pt)) return false;
    /* a local copy: the compiler sees that the calls below cannot change
     * it, so the accessors' kind and range checks leave the loop */
    const sv_value doc = *v;
    for (size_t i = 0; i < doc.len; i++) {
        const sv_value *k = sv_key_at(&doc, i);
        if (k->kind != SV_STRING) {
            wfail(w, SV_ERR_TYPE, "a BSON document key must be a string, not a %s",
                  sv_kind_name(k->kind));
            sv_error_path_index(w->err, i);
            return false;
        }
        if (!write_elem(w, k->as.str, k->len, sv_val_at(&doc, i), depth)) {
            sv_error_path_key(w->err, k->as.str, k->len);
            return false;
        }
        element_done(w);
    }
    return close_doc(w, &pt);
}

sv_status sv__bson_encode_streamed(const sv_value *v, const sv_bson_opts *caller_opts, sv_buf *out,
                                   void (*on_total)(void *ctx, uint64_t total), void *ctx,
                                   sv_error *err)
{
    sv_bson_opts opts;
    sv_status ost = sv__bson_opts_read(&opts, caller_opts, err);
    if (ost != SV_OK) return ost;
    bw w = {out, err, opts.format ? opts.format : "bson", opts.resonite_urls, SV_OK, NULL, 0, 0};
    size_t start = out->len;
    uint64_t flushed = out->flushed;
    sv_kind k = sv_kind_of(v);
    /* Through a sink, every length is known before the first byte; a tree
     * the sizing pass cannot stream is written whole, as without a sink. */
    sv__bson_sizes sz = {out->alloc, NULL, 0, 0};
    uint64_t total = 0;
    if (out->sink && (k == SV_MAP || k == SV_OBJECT) && sv__bson_measure(v, w.urls, &sz, &total)) {
        w.sizes = sz.v;
        w.nsizes = sz.len;
    }
    if (on_total) on_total(ctx, w.sizes ? total : 0);
    bool ok;
    if (k == SV_MAP || k == SV_OBJECT)
        ok = write_doc(&w, v, 1);
    else
        ok = wfail(&w, SV_ERR_TYPE, "the root of a BSON document must be a map, not a %s",
                   sv_kind_name(k));
    sv__bson_sizes_free(&sz);
    if (!ok || !sv_buf_ok(out)) {
        if (w.st == SV_OK) {
            sv_status bst = sv_buf_status(out);
            if (bst == SV_OK || bst == SV_ERR_NOMEM)
                wfail(&w, SV_ERR_NOMEM, "out of memory");
            else
                wfail(&w, bst, "the output failed");
        }
        /* nothing appended, unless the sink has some of it already */
        if (sv_buf_ok(out) && out->flushed == flushed) out->len = start;
        return w.st;
    }
    return SV_OK;
}

sv_status sv_bson_encode(const sv_value *v, const sv_bson_opts *opts, sv_buf *out, sv_error *err)
{
    return sv__bson_encode_streamed(v, opts, out, NULL, NULL, err);
}
