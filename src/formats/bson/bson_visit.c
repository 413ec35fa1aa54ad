/* The streaming decoder for bson (serval/visit.h): one document told as
 * events. Documents and arrays are walked here with the tree reader's
 * checks on their length, terminator and depth; keys and every other
 * element are read by the tree reader's own functions (sv__bson_br_read_key,
 * sv__bson_br_read_element), so each value, check and limit is the tree's.
 *
 * It declines (SV_ERR_UNSUPPORTED) an array whose keys are not "0", "1",
 * ... (the tree keeps them as meta), any option but the limits, and every error, which the tree reader then
 * reports with its offset and path. Counts are not in the bytes: containers
 * begin with SV_VISIT_COUNT_UNKNOWN. */
#include "core/visit_decode.h"
#include "formats/bson/bson_reader.h"

typedef struct bv {
    br *r;
    const sv_visitor *vis;
} bv;

/* The document or array at p within limit (read_doc's checks, in its
 * order); the byte after it, or NULL: declined. */
static const uint8_t *visit_doc(bv *b, const uint8_t *p, const uint8_t *limit, uint32_t depth,
                                bool is_array)
{
    br *r = b->r;
    if (limit - p < 4) return NULL;
    uint32_t n = sv__core_load_u32le(p);
    if (n < 5 || n > INT32_MAX || n > (size_t)(limit - p) || depth > r->max_depth) return NULL;
    const uint8_t *last = p + n - 1;
    if (*last != 0) return NULL;
    const sv_visitor *vis = b->vis;
    if ((is_array ? vis->begin_array : vis->begin_map)(vis->ctx, SV_VISIT_COUNT_UNKNOWN))
        return NULL;
    const uint8_t *q = p + 4;
    index_key idx = {{'0'}, 1};
    while (q < last) {
        unsigned type = *q++;
        if (!bson_type_known(type)) return NULL;
        if (is_array) {
            /* a key other than the index is kept in the tree's meta */
            if ((size_t)(last - q) <= idx.len || q[idx.len] != 0 || !index_matches(&idx, q))
                return NULL;
            q += idx.len + 1;
            index_next(&idx);
        } else {
            sv_value k;
            q = sv__bson_br_read_key(r, q, last, &k);
            if (!q || vis->value(vis->ctx, &k, true)) return NULL;
        }
        if (type == BSON_DOCUMENT || type == BSON_ARRAY) {
            q = visit_doc(b, q, last, depth + 1, type == BSON_ARRAY);
        } else {
            sv_value v;
            q = sv__bson_br_read_element(r, type, q, last, depth, &v);
            if (q && vis->value(vis->ctx, &v, false)) q = NULL;
        }
        if (!q) return NULL;
    }
    return vis->end(vis->ctx) ? NULL : last + 1;
}

/* The documents one after the other, as an array of them (bson_format.c:
 * a first document shorter than the input starts a stream). One reader
 * serves them all; each document is read within its own bytes, as the tree
 * reader reads it. */
static bool visit_stream(bv *b, size_t len)
{
    const sv_visitor *vis = b->vis;
    const uint8_t *p = b->r->base, *end = p + len;
    if (vis->begin_array(vis->ctx, SV_VISIT_COUNT_UNKNOWN)) return false;
    while (p < end) {
        size_t n = end - p >= 4 ? sv__core_load_u32le(p) : 0;
        if (n < 5 || n > (size_t)(end - p) || visit_doc(b, p, p + n, 1, false) != p + n)
            return false;
        p += n;
    }
    return vis->end(vis->ctx) == 0;
}

sv_status sv__bson_visit(const uint8_t *data, size_t len, const sv_options *opts,
                         const sv_visitor *vis)
{
    /* options (resonite-urls, stream) change the tree: the tree reader's */
    if (opts && (opts->count || opts->schema)) return SV_ERR_UNSUPPORTED;
    if (len < 4) return SV_ERR_UNSUPPORTED;
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    if (opts) o.limits = opts->limits;
    /* The tree of n input bytes takes at most about ten times n (a 32-byte
     * pair for a 3-byte null element); below max_alloc / 32 it cannot reach
     * the cap that would make the tree reader fail where this one does not. */
    sv_limits lim = sv_limits_resolve(&o.limits);
    if (len > lim.max_alloc / 32) return SV_ERR_UNSUPPORTED;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return SV_ERR_UNSUPPORTED;
    sv_error err;
    sv_error_clear(&err);
    size_t size = 0;
    sv_status st;
    /* in_arena: the input outlives every value told, so strings point into
     * it (a BSON string ends with its 00 in place) instead of being copied */
    br *r = sv__bson_br_open(doc, data, len, &o, true, false, NULL, &err, &size, &st);
    st = SV_ERR_UNSUPPORTED;
    if (r) {
        bv b = {r, vis};
        bool ok = sv__core_load_u32le(data) < len
                      ? visit_stream(&b, len)
                      : visit_doc(&b, r->base, r->base + len, 1, false) == r->base + len;
        if (ok) st = SV_OK;
        sv__bson_br_close(r, size);
    }
    sv_doc_free(doc);
    return st;
}
