/* sv_json_transcode: typed JSON to typed JSON without the whole tree.
 *
 * The reader runs its loop in stream mode (json_read.c): each finished item
 * of an outermost array comes here instead of staying on its value stack,
 * is written at once by the writer exactly as the writer's array loop would
 * write it (its separator, its newline and indentation when pretty, the
 * item at depth 1), and then dropped. Once the document holds more than
 * RESET_AT bytes it is emptied (sv_doc_reset keeps its chunks, so their
 * pages are reused, not faulted in afresh) and both sides forget what they
 * remembered by address (key predictions, interned names, the last class).
 *
 * Every check of the reader stays as it is (the same loop, compiled a second
 * time); only the outermost array's own item list is never built, and its
 * item count is checked against the container limit as the items come. */
#include <string.h>

#include "core/doc_internal.h"
#include "formats/json/json_opts.h"
#include "formats/json/json_read_internal.h"
#include "formats/json/json_write_internal.h"

/* Arena bytes after which the document is emptied: small enough that the
 * chunks stay in the cache-friendly low megabytes, large enough that
 * emptying (the key caches, the intern table) costs nothing measurable. */
#define RESET_AT ((uint64_t)1 << 20)

typedef struct jt {
    sv_jw w;
    sv_error werr; /* the writer's error */
    bool wfail;    /* the writer failed (werr says why) */
} jt;

/* Writes one item of the outermost array (r->shed items came before it). */
static bool write_item(jr *r, const sv_value *v, const char *at)
{
    jt *t = r->item_ctx;
    sv_jw *w = &t->w;
    if (r->shed >= UINT32_MAX) /* the tree's array could not hold it either */
        return sv__json_jr_fail(r, at, SV_ERR_LIMIT, "more than %lu items in one container",
                                (unsigned long)UINT32_MAX);
    sv_status st = SV_OK;
    if (w->buf->sink) st = sv__json_jw_release(w);
    if (st == SV_OK && !sv__json_jw_need(w, 2 + w->indent + SV_JW_NL_SLACK)) st = SV_ERR_NOMEM;
    if (st == SV_OK) {
        *w->p++ = r->shed ? ',' : '[';
        if (w->pretty) w->p = sv__json_jw_nl(w->p, w->indent);
        /* as inside the array: one container open, items one level in */
        w->depth = 1;
        w->ind = w->indent;
        st = sv__json_jw_value(w, v);
        if (st != SV_OK) sv_error_path_index(&t->werr, r->shed);
    }
    if (st != SV_OK) {
        t->wfail = true;
        return false;
    }
    if (sv_doc_allocated(r->doc) >= RESET_AT) {
        sv_doc_reset(r->doc);
        sv__json_jr_forget(r);
        sv__json_jw_forget(w);
    }
    return true;
}

/* The end of the output: the outermost array's closing bracket when its
 * items were written, else the whole root (an empty array, or no array). */
static sv_status write_rest(jt *t, size_t shed, const sv_value *root)
{
    sv_jw *w = &t->w;
    w->depth = 0;
    w->ind = 0;
    if (!shed) return sv__json_jw_value(w, root);
    if (!sv__json_jw_need(w, 2 + SV_JW_NL_SLACK)) return SV_ERR_NOMEM;
    if (w->pretty) w->p = sv__json_jw_nl(w->p, 0);
    *w->p++ = ']';
    return SV_OK;
}

sv_status sv_json_transcode(sv_doc *doc, const char *text, size_t len,
                            const sv_json_decode_opts *dopts, const sv_json_encode_opts *eopts,
                            sv_buf *out, sv_error *err)
{
    sv_error local;
    if (!err) err = &local;
    sv_error_clear(err);
    if (!doc || !out || (!text && len))
        return sv_error_set(err, SV_ERR_USAGE, "json", 0,
                            "sv_json_transcode needs a document, text and an output buffer");
    sv_json_decode_opts o;
    sv_status st = sv__json_decode_opts_read(&o, dopts, err);
    if (st != SV_OK) return st;
    jt t;
    sv_error_clear(&t.werr);
    t.wfail = false;
    if ((st = sv__json_jw_begin(&t.w, eopts, out, &t.werr)) != SV_OK) {
        *err = t.werr;
        return st;
    }
    size_t start = out->len;
    uint64_t flushed = out->flushed;

    jr r;
    sv__json_jr_begin(&r, doc, text, len, &o, err);
    r.item = write_item;
    r.item_ctx = &t;
    sv_value root = sv_null();
    bool ok = sv__json_jr_parse(&r, &root, true);
    if (ok) {
        st = write_rest(&t, r.shed, &root);
        t.wfail = st != SV_OK;
    }
    sv__json_jr_end(&r);
    if (t.wfail) {
        *err = t.werr;
        err->byte_offset = SV_ERROR_NO_OFFSET; /* no input byte caused it */
        st = err->status != SV_OK ? err->status : SV_ERR_NOMEM;
    } else if (!ok) {
        st = err->status;
    } else {
        st = SV_OK;
    }
    sv_doc_reset(doc);
    out->len = st == SV_OK || out->flushed != flushed ? (size_t)(t.w.p - out->data) : start;
    return st;
}
