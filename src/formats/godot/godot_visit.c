/* The streaming decoder for godot4 and godot3 (serval/visit.h): one raw
 * Variant told as events, Arrays and Dictionaries read here, every other
 * value read by the tree decoder's own item reader (gd_dec_item), so each
 * value, check and limit is the tree decoder's.
 *
 * It declines (SV_ERR_UNSUPPORTED) where the tree would hold more than the
 * events say: header flag bits on a container (typed containers, ignored
 * bits), a count with the old "shared" bit, a container as a Dictionary key,
 * any value with bytes the encoder would not write (gd_dec.odd: the tree
 * keeps them in records), a full Object, and a file whose framing is not
 * one raw Variant that fills the input; and on every error, which the tree
 * decoder then reports with its offset and path. */
#include "core/visit_decode.h"
#include "formats/godot/godot_decoder.h"
#include "formats/godot/godot_file_meta.h"

typedef struct gv {
    gd_dec d;
    const sv_visitor *vis;
} gv;

static sv_status visit_item(gv *g, unsigned depth, bool key);

/* The count after a container's header; 0 with *ok false: declined. */
static uint32_t read_count(gv *g, size_t min_item, bool *ok)
{
    gd_dec *d = &g->d;
    *ok = false;
    if (dleft(d) < 4) return 0;
    uint32_t count = du32(d);
    /* the "shared" bit is kept in the tree's meta; too many items for the
     * bytes left is the tree decoder's error to report */
    if ((count & 0x80000000u) || count > dleft(d) / min_item) return 0;
    *ok = true;
    return count;
}

static sv_status visit_array(gv *g, unsigned depth)
{
    bool ok;
    uint32_t count = read_count(g, 4, &ok);
    if (!ok || g->vis->begin_array(g->vis->ctx, count)) return SV_ERR_UNSUPPORTED;
    for (uint32_t i = 0; i < count; i++)
        if (visit_item(g, depth + 1, false) != SV_OK) return SV_ERR_UNSUPPORTED;
    return g->vis->end(g->vis->ctx) ? SV_ERR_UNSUPPORTED : SV_OK;
}

static sv_status visit_dict(gv *g, unsigned depth)
{
    bool ok;
    uint32_t count = read_count(g, 8, &ok);
    if (!ok || g->vis->begin_map(g->vis->ctx, count)) return SV_ERR_UNSUPPORTED;
    for (uint32_t i = 0; i < count; i++)
        if (visit_item(g, depth + 1, true) != SV_OK || visit_item(g, depth + 1, false) != SV_OK)
            return SV_ERR_UNSUPPORTED;
    return g->vis->end(g->vis->ctx) ? SV_ERR_UNSUPPORTED : SV_OK;
}

static sv_status visit_item(gv *g, unsigned depth, bool key)
{
    gd_dec *d = &g->d;
    if (dleft(d) >= 4) {
        uint32_t hdr = sv__core_load_u32le(d->rd.p);
        unsigned code = hdr & GD_TYPE_MASK;
        unsigned t = code < d->r->variant_max ? d->r->prof->to_gd[code] : GD_NIL;
        if (code < d->r->variant_max && (t == GD_ARRAY || t == GD_DICTIONARY)) {
            /* flag bits: typed-container kinds or ignored bits, both meta */
            if (key || hdr > GD_TYPE_MASK || depth > d->r->max_depth) return SV_ERR_UNSUPPORTED;
            d->rd.p += 4;
            return t == GD_ARRAY ? visit_array(g, depth) : visit_dict(g, depth);
        }
    }
    sv_value v;
    if (gd_dec_item(d, depth, key, &v) != SV_OK || d->odd || sv_doc_status(d->doc) != SV_OK)
        return SV_ERR_UNSUPPORTED;
    return g->vis->value(g->vis->ctx, &v, key) ? SV_ERR_UNSUPPORTED : SV_OK;
}

sv_status sv__godot_visit(bool godot4, const uint8_t *data, size_t len, const sv_options *opts,
                          const sv_visitor *vis)
{
    sv_godot_profile profile = godot4 ? SV_GODOT4 : SV_GODOT3;
    /* any option but the limits changes what the bytes mean or how the file
     * is framed: the tree decoder's */
    if (opts && (opts->count || opts->schema)) return SV_ERR_UNSUPPORTED;
    /* a raw Variant fills the input in whole words, and one starting 00 is
     * not probed as raw (godot_format.c) */
    if (len < 4 || (len & 3) || data[0] == 0) return SV_ERR_UNSUPPORTED;
    sv_error err;
    sv_error_clear(&err);
    sv_godot_opts o;
    if (gd_opts_from_registry(profile, opts, false, &o, &err) != SV_OK) return SV_ERR_UNSUPPORTED;
    sv_limits lim = sv_limits_resolve(&o.limits);
    /* The tree of n input bytes takes a few times n bytes (a 16-byte value
     * for a 4-byte nil, a container box for an 8-byte empty Array); below
     * max_alloc / 16 it cannot reach the cap that would make the tree
     * decoder fail where this one does not. */
    if (len > lim.max_alloc / 16) return SV_ERR_UNSUPPORTED;
    /* the input outlives every value told: packed numbers and plain
     * strings point into it rather than being copied */
    o.borrow_input = true;
    gd_rules r;
    gd_rules_init(&r, &o);
    gd_seen seen = {0};
    r.seen = &seen;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return SV_ERR_UNSUPPORTED;
    sv_doc_set_max_alloc(doc, lim.max_alloc);
    gv g;
    g.vis = vis;
    gd_dec_init(&g.d, doc, &r, data, data, len, &err);
    g.d.borrow_text = true;
    sv_status st = visit_item(&g, 0, false);
    /* the file facts (godot_file_meta.c) and a value that is not all of the
     * input, or that is also store_var frames, are the tree's */
    if (st == SV_OK && (seen.full_object || seen.version_bits || g.d.overrun || dleft(&g.d) != 0 ||
                        gd_probe_frames_fit(profile, data, len)))
        st = SV_ERR_UNSUPPORTED;
    sv_doc_free(doc);
    return st;
}
