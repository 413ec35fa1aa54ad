/* The Variant decoder: bytes -> tree, for every profile (spec §5, §7).
 *
 * It mirrors decode_variant of core/io/marshalls.cpp: the same checks in
 * the same order, the same leniencies (spec §7: ignored header bits, nonzero
 * bool, unchecked string padding bytes, missing PackedByteArray tail pad,
 * trailing bytes), plus serval's limits: the depth limit, and no container,
 * string or array allocated before its length is checked against the bytes
 * that remain. Errors name the engine's error code in the message.
 *
 * Tree shapes (docs/formats/godot.md): ints and floats keep the width only
 * when the source's choice differs from the engine's rule (spec §6.1, §6.2),
 * math types are tuples (f64 elements when flagged), packed arrays are
 * packed numbers, a PackedStringArray is an array whose meta is
 * "PackedStringArray", typed containers carry their element types as meta. */
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>

#include "core/byteio.h"
#include "core/compiler.h"
#include "core/doc_internal.h"
#include "core/error_record.h"
#include "core/value_internal.h"
#include "formats/godot/godot_internal.h"

#include "formats/godot/godot_decoder.h"

sv_status gd_dfail_at(gd_dec *d, size_t off, sv_status st, const char *fmt, ...)
{
    if (d->rd.status != SV_OK) return d->rd.status;
    d->rd.status = st;
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(d->rd.err, st, d->rd.format, off, -1, fmt, ap);
    va_end(ap);
    d->rd.p = d->rd.end;
    return st;
}

/* The n <= 24 bytes at p as three words, zero past n; p has 24 readable bytes. */
static inline uint64_t low_bytes(uint64_t x, size_t have)
{
    return have >= 8 ? x : have ? x & ((UINT64_C(1) << (8 * have)) - 1) : 0;
}

static inline void scache_words(const uint8_t *p, size_t n, uint64_t w[3])
{
    w[0] = low_bytes(sv__core_load_u64le(p), n);
    if (n <= 8) { /* the usual key */
        w[1] = w[2] = 0;
        return;
    }
    w[1] = low_bytes(sv__core_load_u64le(p + 8), n - 8);
    w[2] = n > 16 ? low_bytes(sv__core_load_u64le(p + 16), n - 16) : 0;
}

/* The first of the two slots (a pair: 2-way) the string may sit in. */
static inline unsigned scache_slot(const uint64_t w[3], size_t n)
{
    uint64_t h = (w[0] ^ (w[1] * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ (w[2] * 31) ^ n) *
                 UINT64_C(0xFF51AFD7ED558CCD);
    h ^= h >> 29; /* fold the well-mixed high bits down */
    return (unsigned)(h * UINT64_C(0xC4CEB9FE1A85EC53) >> 56) & (GD_SCACHE_SIZE - 2);
}

/* spec §4: u32 length, UTF-8 bytes, padding that must be present. */
bool gd_read_string(gd_dec *d, bool intern, sv_value *out)
{
    if (!dneed(d, 4, "string length")) return false;
    size_t at = doff(d);
    int32_t n = (int32_t)du32(d);
    /* ERR_FAIL_ADD_OF / strlen + pad > len: both ERR_FILE_EOF */
    size_t pad = n >= 0 ? (4 - ((uint32_t)n & 3)) & 3 : 0;
    if (n < 0 || (size_t)n + pad > dleft(d)) {
        gd_dfail_at(d, at, SV_ERR_TRUNCATED,
                    "string of %ld bytes (+%zu padding) but %zu left (engine: ERR_FILE_EOF)",
                    (long)n, pad, dleft(d));
        return false;
    }
    if ((uint64_t)n > d->r->max_string) {
        gd_dfail_at(d, at, SV_ERR_LIMIT, "string of %ld bytes is over the limit of %llu", (long)n,
                    (unsigned long long)d->r->max_string);
        return false;
    }
    size_t bad = 0;
    const char *s = (const char *)d->rd.p;
    /* A text that can point into the input is not looked up: taking it
     * costs less than the lookup. */
    if (!intern && (d->borrow_text || (d->r->borrow_input && pad && s[n] == 0)) &&
        gd_plain_text(s, (size_t)n)) {
        /* borrow_text: the streaming decoder's values live only as long as
         * its call, as the input does; borrow_input: its first padding byte
         * is the 00 a tree string ends with, and the input outlives the tree */
        sv_value v = sv__core_make(SV_STRING, 0, d->borrow_text ? 0 : SV_F_BORROWED);
        v.len = (uint32_t)n;
        v.as.str = s;
        *out = v;
        d->odd |= pad_nonzero(d->rd.p, (size_t)n, pad);
        d->rd.p += (size_t)n + pad;
        return true;
    }
    unsigned slot = 0;
    uint64_t w[3];
    bool cacheable = n <= GD_SCACHE_MAX_LEN && dleft(d) >= 24;
    if (cacheable) {
        /* the words take in the padding too, and only strings with zero
         * padding are cached: a hit has nothing to keep (godot_records.c) */
        scache_words(d->rd.p, (size_t)n + pad, w);
        slot = scache_slot(w, (size_t)n);
        for (unsigned k = slot; k < slot + 2; k++) {
            gd_scache_entry *c = &d->scache[k];
            if (c->len1 == (uint32_t)n + 1 && c->w[0] == w[0] && c->w[1] == w[1] &&
                c->w[2] == w[2]) {
                if (c->hits < 64) c->hits++;
                *out = c->v;
                d->rd.p += (size_t)n + pad;
                return true;
            }
        }
    }
    if (!gd_string_make(d->doc, s, (size_t)n, d->godot4, intern, out, &bad)) {
        gd_dfail_at(d, at + 4 + bad, SV_ERR_UTF8,
                    "invalid UTF-8 in a string (engine: ERR_INVALID_DATA)");
        return false;
    }
    /* the encoder writes the text, with a second BOM when it starts with one */
    if (SV_UNLIKELY(out->len != (uint32_t)n) &&
        !(out->len + 3 == (uint32_t)n && out->len >= 3 && !memcmp(out->as.str, "\xEF\xBB\xBF", 3)))
        d->odd = d->odd_text = true;
    bool pad_odd = pad_nonzero(d->rd.p, (size_t)n, pad);
    d->odd |= pad_odd;
    if (cacheable && !pad_odd && out->kind == SV_STRING && out->len == (uint32_t)n) {
        /* same length: no BOM dropped, no NUL cut, no rewrite */
        /* unique strings (names, ids) must not push out the keys that repeat */
        gd_scache_entry *c = &d->scache[slot];
        if (d->scache[slot + 1].hits < c->hits) c = &d->scache[slot + 1];
        if (c->hits) {
            c->hits--;
        } else {
            memcpy(c->w, w, sizeof c->w);
            c->v = *out;
            c->len1 = (uint32_t)n + 1;
        }
    }
    d->rd.p += (size_t)n + pad;
    return true;
}

static sv_value id_value(uint64_t id, sv_tag tag)
{
    sv_value v = id <= (uint64_t)INT64_MAX ? sv_int((int64_t)id) : sv_uint(id);
    return sv_with_tag(v, tag);
}

static sv_status decode_rec(gd_dec *d, unsigned depth, bool key, sv_value *out);

/* ---- small types ---- */

static sv_status dec_int(gd_dec *d, uint32_t hdr, sv_value *out)
{
    if (hdr & GD_FLAG_64) {
        if (!dneed(d, 8, "int64")) return d->rd.status;
        int64_t v = (int64_t)sv__core_load_u64le(d->rd.p);
        d->rd.p += 8;
        /* spec §6.1: the engine writes 64 bits only outside int32; keep the
         * width when the source chose it anyway */
        *out = (v >= INT32_MIN && v <= INT32_MAX) ? sv_int_w(v, 8) : sv_int(v);
    } else {
        if (!dneed(d, 4, "int32")) return d->rd.status;
        *out = sv_int((int32_t)du32(d)); /* sign-extended (spec §7) */
    }
    return SV_OK;
}

/* sv_f64 (with flags) and sv_f32, inline: a float is in most items. */
static inline sv_value f64_value(double v, unsigned flags)
{
    sv_value x = sv__core_make(SV_FLOAT, 8, flags);
    x.as.f64 = v;
    return x;
}

static inline sv_value f32_value(float f)
{
    sv_value x = sv__core_make(SV_FLOAT, 4, SV_F_EXPLICIT);
    x.as.f32 = f;
    return x;
}

static sv_status dec_float(gd_dec *d, uint32_t hdr, sv_value *out)
{
    if (hdr & GD_FLAG_64) {
        if (!dneed(d, 8, "float64")) return d->rd.status;
        uint64_t u = sv__core_load_u64le(d->rd.p);
        d->rd.p += 8;
        double v;
        memcpy(&v, &u, 8);
        /* spec §6.2: f32 iff (double)(float)d == d; an f64 that the rule
         * would have written as f32 keeps its width explicitly. Non-finite
         * values are explicit too: the typed JSON has only the explicit form
         * for them ({"$f64": "nan"}), and for NaN the rule agrees anyway. */
        /* A whole value is explicit too: a plain whole float64 prints as
         * "100.0", which JSON tools that go through a double (jq 1.6) give
         * back as the integer 100 (docs/json.md, "Using it with jq"). */
        *out = f64_value(v, ((double)(float)v == v || isnan(v) || (isfinite(v) && v == trunc(v)))
                                ? SV_F_EXPLICIT
                                : 0);
    } else {
        if (!dneed(d, 4, "float32")) return d->rd.status;
        uint32_t u = du32(d);
        float f;
        memcpy(&f, &u, 4);
        /* finite: a plain float, the rule gives f32 back. A NaN written as
         * f32 is not the rule's choice (NaN != NaN gives f64), and the typed
         * JSON writes infinities only in the explicit form ({"$f32": "inf"}),
         * so non-finite values keep their f32 width explicitly. */
        /* A whole value keeps its f32 width explicitly ({"$f32": 100.0}),
         * which the rule would choose anyway: a plain "100.0" would come back
         * as an integer through jq 1.6. */
        *out = isfinite(f) && f != truncf(f) ? f64_value((double)f, 0) : f32_value(f);
    }
    return SV_OK;
}

/* Math tuples (spec §5.1, §5.2): 4.x honours the 64-bit flag on real types;
 * 3.x ignores it (3.2.3 reads 05000100 0000803f 00000040 as (1, 2)). */
static sv_status dec_math(gd_dec *d, unsigned t, uint32_t hdr, sv_value *out)
{
    const gd_math *m = gd_math_of(t);
    bool wide = m->real && d->godot4 && (hdr & GD_FLAG_64);
    sv_elem elem = m->ints ? SV_ELEM_I32 : wide ? SV_ELEM_F64 : SV_ELEM_F32;
    size_t esz = wide ? 8 : 4, n = (size_t)m->scalars * esz;
    if (SV_UNLIKELY(dleft(d) < n) && !dneed(d, n, gd_type_name(t))) return d->rd.status;
    if (d->rd.status != SV_OK) return d->rd.status;
    double tmp[16];
    const void *src = d->rd.p;
    if (!SV_LITTLE_ENDIAN) {
        for (unsigned i = 0; i < m->scalars; i++) {
            if (esz == 8) {
                uint64_t u = sv__core_load_u64le(d->rd.p + 8 * i);
                memcpy((char *)tmp + 8 * i, &u, 8);
            } else {
                uint32_t u = sv__core_load_u32le(d->rd.p + 4 * i);
                memcpy((char *)tmp + 4 * i, &u, 4);
            }
        }
        src = tmp;
    }
    /* sv_tuple's value, its block taken inline */
    void *dst = sv__core_doc_alloc_fast(d->doc, n);
    if (!dst) return check_doc(d);
    memcpy(dst, src, n);
    sv_value v = sv__core_make(SV_TUPLE, elem, 0);
    v.tag = (uint16_t)m->tag;
    v.len = m->scalars;
    v.as.data = dst;
    *out = v;
    d->rd.p += n;
    return SV_OK;
}

/* What a NodePath's text does not say: padding bytes that are not zero
 * (Godot 3.2.3's encoder leaves whatever was in memory there) and flag bits
 * beyond "absolute" (bit 1, the obsolete property flag, and unused bits).
 * When there is any, the NodePath becomes an array tagged node_path that
 * holds the text, with meta {"padding": bytes of every component's padding
 * in order, "flags": u32}, each only when it is not the canonical one;
 * godot_encode.c writes them back. first: the first component's length. */
static sv_status nodepath_extra(gd_dec *d, const uint8_t *first, const gd_np_part *parts,
                                uint32_t total, uint32_t subs, uint32_t flags, sv_value *out)
{
    size_t npad = 0;
    bool stale = false, same_lengths = true;
    const uint8_t *p = first;
    for (uint32_t i = 0; i < total; i++) {
        uint32_t n = sv__core_load_u32le(p), pad = (4 - (n & 3)) & 3;
        for (uint32_t k = 0; k < pad; k++) stale |= p[4 + n + k] != 0;
        npad += pad;
        p += 4 + (size_t)n + pad;
        /* the length the encoder will write for the part (a leading BOM
         * doubled); a part that was cut at a NUL or lost its BOM has
         * other padding, which then cannot be given back */
        const uint8_t *s = (const uint8_t *)parts[i].s;
        bool bom = parts[i].len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF;
        same_lengths &= parts[i].len + (bom ? 3 : 0) == n;
    }
    stale &= same_lengths;
    /* the property flag counts one subname; with none left (the count
     * wrapped), the encoder could not give it back */
    bool odd_flags = (flags & ~1u) != 0 && (!(flags & 2) || subs > 0);
    if (!stale && !odd_flags) return SV_OK;
    sv_value meta = sv_map(d->doc, 0);
    if (stale) {
        sv_value b = sv_bytes_uninit(d->doc, npad);
        uint8_t *dst = sv_value_buf(&b);
        if (!dst) return check_doc(d);
        p = first;
        for (uint32_t i = 0; i < total; i++) {
            uint32_t n = sv__core_load_u32le(p), pad = (4 - (n & 3)) & 3;
            memcpy(dst, p + 4 + n, pad);
            dst += pad;
            p += 4 + (size_t)n + pad;
        }
        sv_map_append_str(d->doc, &meta, "padding", b);
    }
    if (odd_flags) sv_map_append_str(d->doc, &meta, "flags", sv_uint_w(flags, 4));
    sv_value text = *out;
    text.tag = SV_TAG_NONE;
    sv_value arr = sv_array(d->doc, 1);
    if (arr.kind == SV_ARRAY) sv_array_items(&arr)[0] = text;
    sv_meta_set(d->doc, &arr, meta);
    *out = sv_with_tag(arr, SV_TAG_NODE_PATH);
    return check_doc(d);
}

/* spec §5.3 */
static sv_status dec_nodepath(gd_dec *d, sv_value *out)
{
    size_t at = doff(d);
    if (!dneed(d, 4, "NodePath name count")) return d->rd.status;
    uint32_t nc = sv__core_load_u32le(d->rd.p);
    if (!(nc & 0x80000000u))
        return gd_dfail_at(
            d, at, SV_ERR_SYNTAX,
            "NodePath in the old string format, unsupported (engine: ERR_INVALID_DATA)");
    if (!dneed(d, 12, "NodePath header")) return d->rd.status;
    nc &= 0x7FFFFFFFu;
    uint32_t sc = sv__core_load_u32le(d->rd.p + 4), flags = sv__core_load_u32le(d->rd.p + 8);
    d->rd.p += 12;
    uint64_t wide_total = (uint64_t)nc + sc + (flags & 2 ? 1 : 0);
    if (flags & 2) sc++;      /* obsolete "property" flag: one more subname */
    uint32_t total = nc + sc; /* uint32 arithmetic, as the engine */
    /* counts that wrapped, or component text the encoder writes otherwise
     * (BOM, NUL, overlong): the record of the whole NodePath keeps them.
     * Padding alone is kept in the NodePath's own meta (nodepath_extra). */
    bool outer = d->odd, outer_text = d->odd_text;
    d->odd_text = false;
    if (total > dleft(d) / 4)
        return gd_dfail_at(d, at, SV_ERR_TRUNCATED,
                           "NodePath of %u names needs at least %zu bytes, %zu left", total,
                           (size_t)total * 4, dleft(d));
    if (nc > total) nc = total;
    gd_np_part stack_parts[16];
    gd_np_part *parts = stack_parts;
    if (total > 16) {
        parts = sv_doc_alloc(d->doc, (size_t)total * sizeof *parts);
        if (!parts) return check_doc(d);
    }
    const uint8_t *first = d->rd.p;
    for (uint32_t i = 0; i < total; i++) {
        sv_value s;
        if (!gd_read_string(d, true, &s)) return d->rd.status;
        parts[i].s = s.as.str ? s.as.str : "";
        parts[i].len = s.len;
    }
    d->odd = outer || d->odd_text || wide_total != total;
    d->odd_text = outer_text;
    if (check_doc(d) != SV_OK) return d->rd.status;
    const char *why = NULL;
    if (!gd_nodepath_representable(parts, nc, parts + nc, total - nc, &why))
        return gd_dfail_at(d, at, SV_ERR_UNSUPPORTED,
                           "NodePath with %s has no text form in serval's tree", why);
    size_t n = gd_nodepath_text_len(parts, nc, parts + nc, total - nc, flags & 1);
    sv_value v = sv_str_uninit(d->doc, n);
    char *buf = sv_value_buf(&v);
    if (!buf) return check_doc(d);
    gd_nodepath_text(buf, parts, nc, parts + nc, total - nc, flags & 1);
    *out = sv_with_tag(v, SV_TAG_NODE_PATH);
    return nodepath_extra(d, first, parts, total, total - nc, flags, out);
}

/* spec §5.4 */
static sv_status dec_object(gd_dec *d, unsigned depth, size_t at, uint32_t hdr, sv_value *out)
{
    if (hdr & GD_FLAG_OBJECT_ID) {
        if (!dneed(d, 8, "object id")) return d->rd.status;
        uint64_t id = sv__core_load_u64le(d->rd.p);
        d->rd.p += 8;
        *out = id ? id_value(id, SV_TAG_OBJECT_ID) : sv_null(); /* id 0: a null Object */
        d->odd |= !id; /* the engine writes a null Object as nil */
        return SV_OK;
    }
    if (!d->r->full_objects)
        return gd_dfail_at(d, at, SV_ERR_REFUSED,
                           "a full object (engine: ERR_UNAUTHORIZED); decode with the option "
                           "objects=full to read it (serval never runs its script)");
    if (d->r->seen) d->r->seen->full_object = true;
    sv_value cls;
    if (!gd_read_string(d, true, &cls)) return d->rd.status;
    if (cls.len == 0) {
        *out = sv_null(); /* an empty class name is a null Object */
        d->odd = true;
        return check_doc(d);
    }
    if (!dneed(d, 4, "object property count")) return d->rd.status;
    int32_t count = (int32_t)du32(d);
    d->odd |= count < 0;
    if (count < 0) count = 0; /* the engine's loop runs zero times */
    if ((size_t)count > dleft(d) / 8)
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_TRUNCATED,
                           "object declares %ld properties, at least %zu bytes, %zu left",
                           (long)count, (size_t)count * 8, dleft(d));
    sv_value obj = sv_object(d->doc, cls, (size_t)count);
    if (check_doc(d) != SV_OK) return d->rd.status;
    sv_pair *p = sv_pairs(&obj);
    for (int32_t i = 0; i < count; i++) {
        if (!gd_read_string(d, true, &p[i].key)) {
            sv_error_path_index(d->rd.err, (uint64_t)i);
            return d->rd.status;
        }
        if (decode_rec(d, depth + 1, false, &p[i].val) != SV_OK) {
            sv_error_path_key(d->rd.err, p[i].key.as.str, p[i].key.len);
            return d->rd.status;
        }
    }
    *out = obj;
    return SV_OK;
}

/* An Array or Dictionary of count items whose storage the caller fills
 * completely before anyone reads it (sv_array would zero it first). */
static sv_value new_container(gd_dec *d, sv_kind kind, size_t item_size, uint32_t count)
{
    sv_container *box;
    if (SV_UNLIKELY(count > (SIZE_MAX - sizeof(sv_container)) / item_size)) {
        box = sv__core_box_new(d->doc, item_size, count); /* refuses it, as it should */
    } else {
        box = sv__core_doc_alloc_fast(d->doc, sizeof(sv_container) + count * item_size);
        if (box) sv__core_box_init(box, count);
    }
    if (!box) return sv_null();
    sv_value v = sv__core_make(kind, 0, 0);
    v.len = count;
    v.as.box = box;
    return v;
}

/* Container items are mostly plain ints, strings and floats: those are
 * read here without the general dispatch. The headers 2 (INT, no flag),
 * 3 (FLOAT, with or without the 64-bit flag) and 4 (STRING) mean the same in
 * every profile (spec §3.4). Anything else, or an item past the depth
 * limit, goes through decode_rec. */
static inline int fast_item(gd_dec *d, unsigned depth, bool key, sv_value *out)
{
    if (depth > d->r->max_depth || dleft(d) < 8) return 0;
    uint32_t hdr = sv__core_load_u32le(d->rd.p);
    if (hdr == 2) {
        sv_value v = sv__core_make(SV_INT, 8, 0); /* sv_int, inline */
        v.as.i = (int32_t)sv__core_load_u32le(d->rd.p + 4);
        *out = v;
        d->rd.p += 8;
        return 1;
    }
    if (hdr == 4) {
        d->rd.p += 4;
        return gd_read_string(d, key && sv__core_load_u32le(d->rd.p) <= 64, out) ? 1 : -1;
    }
    if ((hdr & ~GD_FLAG_64) == 3) {
        d->rd.p += 4;
        return dec_float(d, hdr, out) == SV_OK ? 1 : -1;
    }
    return 0;
}

/* ---- typed containers (spec §5.1, 4.3+ / 4.4+) ---- */

/* which: "type", "key" or "value"; a class name or script path whose bytes
 * the encoder would write otherwise is recorded in *blocks as [which, bytes]. */
static bool read_ctype(gd_dec *d, unsigned kind, sv_value *out, sv_value *blocks, const char *which)
{
    if (kind == GD_KIND_BUILTIN) {
        if (!dneed(d, 4, "container element type")) return false;
        int32_t bt = (int32_t)du32(d);
        if (bt < 0 || (unsigned)bt >= d->r->variant_max) {
            gd_dfail_at(d, doff(d) - 4, SV_ERR_TYPE,
                        "container element type %ld is no type (engine: ERR_INVALID_DATA)",
                        (long)bt);
            return false;
        }
        *out = sv_str_intern(d->doc, gd_type_name(d->r->prof->to_gd[bt]),
                             strlen(gd_type_name(d->r->prof->to_gd[bt])));
        return true;
    }
    sv_value s;
    const uint8_t *at = d->rd.p;
    bool outer = d->odd;
    d->odd = false;
    if (!gd_read_string(d, true, &s)) return false;
    if (SV_UNLIKELY(d->odd) && !gd_block_add(d->doc, blocks, which, at, (size_t)(d->rd.p - at)))
        return false;
    d->odd = outer;
    sv_value m = sv_map(d->doc, 0);
    sv_map_append_str(d->doc, &m, kind == GD_KIND_CLASS ? "class" : "script", s);
    *out = m;
    return true;
}

static sv_status dec_array(gd_dec *d, unsigned depth, uint32_t hdr, sv_value *out)
{
    bool outer = d->odd;
    gd_extra_in x = {.header = hdr}; /* all-zero values are null (SV_NULL = 0) */
    x.header_odd =
        hdr > GD_TYPE_MASK && (hdr & ~(GD_TYPE_MASK | gd_header_used(d->r, GD_ARRAY))) != 0;
    sv_value meta = sv_null();
    unsigned kind = d->r->typed_arrays ? (hdr >> GD_ARRAY_KIND_SHIFT) & 3 : 0;
    /* kind bits a later 4.x would read as a type: only this version's
     * rules write them back (godot_file_meta.c records the version) */
    if (d->r->seen && d->godot4 && !d->r->typed_arrays && ((hdr >> GD_ARRAY_KIND_SHIFT) & 3))
        d->r->seen->version_bits = true;
    if (kind) {
        sv_value t;
        if (!read_ctype(d, kind, &t, &x.blocks, "type")) return check_doc(d);
        meta = sv_map(d->doc, 0);
        sv_map_append_str(d->doc, &meta, "type", t);
    }
    if (!dneed(d, 4, "Array count")) return d->rd.status;
    x.count = du32(d);
    uint32_t count = x.count & 0x7FFFFFFFu; /* the old "shared" bit is masked (spec §7) */
    x.count_odd = count != x.count;
    if (count > dleft(d) / 4)
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_TRUNCATED,
                           "Array of %u items needs at least %zu bytes, %zu left", count,
                           (size_t)count * 4, dleft(d));
    sv_value arr = new_container(d, SV_ARRAY, sizeof(sv_value), count);
    if (kind) sv_meta_set(d->doc, &arr, meta);
    if (check_doc(d) != SV_OK) return d->rd.status;
    sv_value *items = sv_array_items(&arr);
    d->odd = false; /* cleared again after each item that set it */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *at = d->rd.p;
        int f = fast_item(d, depth + 1, false, &items[i]);
        if (f < 0 || (f == 0 && decode_rec(d, depth + 1, false, &items[i]) != SV_OK)) {
            sv_error_path_index(d->rd.err, i);
            return d->rd.status;
        }
        if (SV_UNLIKELY(d->odd)) {
            if (!gd_rec_add(d->doc, &x.raw, i, NULL, at, (size_t)(d->rd.p - at)))
                return check_doc(d);
            d->odd = false;
        }
    }
    d->odd = outer;
    if (check_doc(d) != SV_OK) return d->rd.status;
    if (SV_UNLIKELY((x.header_odd | x.count_odd | x.raw.kind | x.blocks.kind) != 0) &&
        !gd_meta_extend(d->doc, &arr, &x))
        return check_doc(d);
    *out = arr;
    return SV_OK;
}

/* Whether the n bytes at a and b are the same (n a multiple of 4). */
static inline bool same_words(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        if (sv__core_load_u64le(a + i) != sv__core_load_u64le(b + i)) return false;
    return i == n || sv__core_load_u32le(a + i) == sv__core_load_u32le(b + i);
}

/* The count pairs of a Dictionary into p, with records of odd bytes in x;
 * off (NULL: not wanted) gets where each key and value starts in pairs.
 * memo (NULL: none): the keys of an earlier Dictionary of count keys; *hit
 * tells whether every key was its key there, *plain whether every key was
 * a String of header 4 whose bytes the encoder writes back. */
static SV_ALWAYS_INLINE sv_status dict_pairs(gd_dec *d, unsigned depth, sv_pair *p, uint32_t count,
                                             gd_extra_in *x, const uint8_t *pairs, uint32_t *off,
                                             const gd_kmemo *memo, bool *hit, bool *plain)
{
    bool from_memo = memo != NULL, all_plain = true;
    d->odd = false; /* cleared again after each item that set it */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *at = d->rd.p;
        const uint8_t *key_at = at;
        if (from_memo) {
            /* the same bytes at the same depth: the same key, no error */
            uint32_t size = memo->size[i];
            if (dleft(d) >= size && same_words(at, memo->at[i], size)) {
                p[i].key = memo->key[i];
                d->rd.p += size;
                goto value;
            }
            from_memo = false;
        }
        all_plain &= dleft(d) >= 4 && sv__core_load_u32le(at) == 4;
        int f = fast_item(d, depth + 1, true, &p[i].key);
        if (f < 0 || (f == 0 && decode_rec(d, depth + 1, true, &p[i].key) != SV_OK)) {
            sv_error_path_index(d->rd.err, i);
            return d->rd.status;
        }
        if (SV_UNLIKELY(d->odd)) {
            all_plain = false;
            if (!gd_rec_add(d->doc, &x->raw, i, "key", at, (size_t)(d->rd.p - at)))
                return check_doc(d);
            d->odd = false;
        }
    value:
        at = d->rd.p;
        if (off) { /* both in one store */
            uint32_t both[2] = {(uint32_t)(key_at - pairs), (uint32_t)(at - pairs)};
            memcpy(&off[2 * i], both, sizeof both);
        }
        f = fast_item(d, depth + 1, false, &p[i].val);
        if (f < 0 || (f == 0 && decode_rec(d, depth + 1, false, &p[i].val) != SV_OK)) {
            if (p[i].key.kind == SV_STRING)
                sv_error_path_key(d->rd.err, p[i].key.as.str, p[i].key.len);
            else
                sv_error_path_index(d->rd.err, i);
            return d->rd.status;
        }
        if (SV_UNLIKELY(d->odd)) {
            if (!gd_rec_add(d->doc, &x->raw, i, "value", at, (size_t)(d->rd.p - at)))
                return check_doc(d);
            d->odd = false;
        }
    }
    *hit = from_memo;
    *plain = all_plain;
    return SV_OK;
}

/* Keeps the count distinct plain keys of the Dictionary just read (p, from
 * pairs, their places in off) for the next one at its depth. */
static void kmemo_note(gd_kmemo *memo, const sv_pair *p, uint32_t count, const uint8_t *pairs,
                       const uint32_t *off)
{
    for (uint32_t i = 0; i < count; i++) {
        memo->at[i] = pairs + off[2 * i];
        memo->size[i] = off[2 * i + 1] - off[2 * i];
        memo->key[i] = p[i].key;
    }
    memo->n = count;
}

static sv_status dec_dict(gd_dec *d, unsigned depth, uint32_t hdr, sv_value *out)
{
    bool outer = d->odd;
    gd_extra_in x = {.header = hdr}; /* all-zero values are null (SV_NULL = 0) */
    x.header_odd =
        hdr > GD_TYPE_MASK && (hdr & ~(GD_TYPE_MASK | gd_header_used(d->r, GD_DICTIONARY))) != 0;
    sv_value kt = sv_null(), vt = sv_null();
    unsigned kk = 0, vk = 0;
    if (d->r->seen && d->godot4 && !d->r->typed_dicts && ((hdr >> GD_DICT_KEY_SHIFT) & 0xF))
        d->r->seen->version_bits = true; /* as for an Array */
    if (d->r->typed_dicts) {
        kk = (hdr >> GD_DICT_KEY_SHIFT) & 3;
        vk = (hdr >> GD_DICT_VALUE_SHIFT) & 3;
        if (kk && !read_ctype(d, kk, &kt, &x.blocks, "key")) return check_doc(d);
        if (vk && !read_ctype(d, vk, &vt, &x.blocks, "value")) return check_doc(d);
    }
    if (!dneed(d, 4, "Dictionary count")) return d->rd.status;
    x.count = du32(d);
    uint32_t count = x.count & 0x7FFFFFFFu;
    x.count_odd = count != x.count;
    if (count > dleft(d) / 8)
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_TRUNCATED,
                           "Dictionary of %u entries needs at least %zu bytes, %zu left", count,
                           (size_t)count * 8, dleft(d));
    sv_value map = new_container(d, SV_MAP, sizeof(sv_pair), count);
    if (kk || vk) {
        sv_value meta = sv_map(d->doc, 0);
        if (kk) sv_map_append_str(d->doc, &meta, "key", kt);
        if (vk) sv_map_append_str(d->doc, &meta, "value", vt);
        sv_meta_set(d->doc, &map, meta);
    }
    if (check_doc(d) != SV_OK) return d->rd.status;
    /* where each pair starts and which entry it goes to, for the records of
     * a repeated key (gd_dups_records): 3 words a pair. Noting them costs a
     * little on every Dictionary; reading a Dictionary again once a key
     * repeats would cost nothing here, but nested ones would be read again
     * at every level. */
    const uint8_t *pairs = d->rd.p;
    uint32_t small[3 * 16], *off = small;
    if (dleft(d) > UINT32_MAX) {
        off = NULL; /* offsets do not fit: a repeated key is not kept */
    } else if (count > 16) {
        off = sv_doc_alloc(d->doc, (size_t)count * 3 * sizeof *off);
        if (!off) return check_doc(d);
    }
    uint32_t *where = off ? off + 2 * (size_t)(count > 16 ? count : 16) : NULL;
    sv_pair *p = sv_pairs(&map);
    gd_kmemo *memo =
        off && count && count <= GD_KMEMO_KEYS && depth < GD_KMEMO_DEPTHS ? &d->kmemo[depth] : NULL;
    bool hit = false, plain = false;
    if (dict_pairs(d, depth, p, count, &x, pairs, off, memo && memo->n == count ? memo : NULL, &hit,
                   &plain) != SV_OK)
        return d->rd.status;
    d->odd = outer;
    if (check_doc(d) != SV_OK) return d->rd.status;
    if (!hit) {
        d->key_checks++;
        if (!gd_map_dedupe(d->doc, &map, d->godot4, where)) return check_doc(d);
        if (memo && plain && map.len == count) kmemo_note(memo, p, count, pairs, off);
    }
    if (SV_UNLIKELY(map.len != count)) {
        /* records name items by their place in the stream, which moved */
        if (!off)
            x.raw = sv_null();
        else if (!gd_dups_records(d->doc, &x, pairs, off, (size_t)(d->rd.p - pairs), where, count))
            return check_doc(d);
    }
    /* null is kind 0: one test for "anything kept" */
    if (SV_UNLIKELY((x.header_odd | x.count_odd | x.raw.kind | x.dups.kind | x.blocks.kind) != 0) &&
        !gd_meta_extend(d->doc, &map, &x))
        return check_doc(d);
    *out = map;
    return SV_OK;
}

/* ---- one Variant ---- */

static sv_status decode_rec(gd_dec *d, unsigned depth, bool key, sv_value *out)
{
    size_t at = doff(d);
    /* spec §7: p_depth > MAX_RECURSION_DEPTH -> ERR_OUT_OF_MEMORY */
    if (depth > d->r->max_depth)
        return gd_dfail_at(
            d, at, SV_ERR_DEPTH,
            "nesting deeper than %u (engine: ERR_OUT_OF_MEMORY, \"Variant is too deep\")",
            d->r->max_depth);
    if (!dneed(d, 4, "Variant header")) return d->rd.status;
    uint32_t hdr = du32(d);
    unsigned code = hdr & GD_TYPE_MASK; /* spec §2: bits 8-31 are flags or ignored */
    if (code >= d->r->variant_max)
        return gd_dfail_at(d, at, SV_ERR_TYPE,
                           "unknown type %u (%s has types 0 to %u; engine: ERR_INVALID_DATA)", code,
                           d->r->fmt, d->r->variant_max - 1);
    unsigned t = d->r->prof->to_gd[code];
    /* bits the type does not use (spec §2): the engine ignores them, the
     * record of the value keeps them; containers keep their own header */
    if (SV_UNLIKELY(hdr > GD_TYPE_MASK) && (hdr & ~(GD_TYPE_MASK | gd_header_used(d->r, t))) &&
        t != GD_ARRAY && t != GD_DICTIONARY && t != GD_PACKED_STRING)
        d->odd = true;
    switch (t) {
    case GD_NIL: *out = sv_null(); return SV_OK;
    case GD_BOOL:
        if (!dneed(d, 4, "bool")) return d->rd.status;
        /* nonzero is true (spec §7); another value than 1 is kept */
        *out = sv_bool_raw(du32(d));
        return SV_OK;
    case GD_INT: return dec_int(d, hdr, out);
    case GD_FLOAT: return dec_float(d, hdr, out);
    case GD_STRING:
        if (!gd_read_string(d, key && dleft(d) >= 4 && sv__core_load_u32le(d->rd.p) <= 64, out))
            return d->rd.status;
        return check_doc(d);
    case GD_STRING_NAME:
        if (!gd_read_string(d, true, out)) return d->rd.status;
        *out = sv_with_tag(*out, SV_TAG_STRING_NAME);
        return check_doc(d);
    case GD_NODE_PATH: return dec_nodepath(d, out);
    case GD_RID:
        if (!d->godot4) { /* 3.x: header only; following bytes are not read (spec §5.2) */
            *out = sv_with_tag(sv_null(), SV_TAG_RID);
            return SV_OK;
        }
        if (!dneed(d, 8, "RID")) return d->rd.status;
        *out = id_value(sv__core_load_u64le(d->rd.p), SV_TAG_RID);
        d->rd.p += 8;
        return SV_OK;
    case GD_OBJECT: return dec_object(d, depth, at, hdr, out);
    case GD_CALLABLE: *out = sv_with_tag(sv_null(), SV_TAG_CALLABLE); return SV_OK;
    case GD_SIGNAL: {
        sv_value name;
        if (!gd_read_string(d, true, &name)) return d->rd.status;
        if (!dneed(d, 8, "Signal object id")) return d->rd.status;
        sv_value arr = sv_array(d->doc, 2);
        sv_value *it = sv_array_items(&arr);
        if (it) {
            it[0] = name;
            it[1] = sv_int((int64_t)sv__core_load_u64le(d->rd.p));
            if (sv__core_load_u64le(d->rd.p) > (uint64_t)INT64_MAX)
                it[1] = sv_uint(sv__core_load_u64le(d->rd.p));
        }
        d->rd.p += 8;
        *out = sv_with_tag(arr, SV_TAG_SIGNAL);
        return check_doc(d);
    }
    case GD_DICTIONARY: return dec_dict(d, depth, hdr, out);
    case GD_ARRAY: return dec_array(d, depth, hdr, out);
    case GD_PACKED_BYTE: return gd_dec_bytes(d, out);
    case GD_PACKED_INT32: return gd_dec_numbers(d, t, SV_ELEM_I32, SV_TAG_NONE, 1, out);
    case GD_PACKED_INT64: return gd_dec_numbers(d, t, SV_ELEM_I64, SV_TAG_NONE, 1, out);
    case GD_PACKED_FLOAT32: return gd_dec_numbers(d, t, SV_ELEM_F32, SV_TAG_NONE, 1, out);
    case GD_PACKED_FLOAT64: return gd_dec_numbers(d, t, SV_ELEM_F64, SV_TAG_NONE, 1, out);
    case GD_PACKED_STRING: return gd_dec_strings(d, hdr, out);
    case GD_PACKED_VECTOR2:
    case GD_PACKED_VECTOR3:
    case GD_PACKED_VECTOR4:
    case GD_PACKED_COLOR: return gd_dec_packed_math(d, t, hdr, out);
    default: return dec_math(d, t, hdr, out);
    }
}

void gd_dec_init(gd_dec *d, sv_doc *doc, const gd_rules *r, const uint8_t *base,
                 const uint8_t *data, size_t len, sv_error *err)
{
    sv__core_rd_init(&d->rd, base, (size_t)(data - base) + len, r->fmt, err);
    d->rd.p = data;
    d->doc = doc;
    d->r = r;
    d->godot4 = r->prof->godot4_rules;
    d->overrun = 0;
    d->odd = d->odd_text = d->borrow_text = false;
    d->key_checks = 0;
    gd_dec_forget(d);
}

void gd_dec_forget(gd_dec *d)
{
    memset(d->scache, 0, sizeof d->scache);
    for (unsigned i = 0; i < GD_KMEMO_DEPTHS; i++) d->kmemo[i].n = 0;
}

sv_status gd_dec_item(gd_dec *d, unsigned depth, bool key, sv_value *out)
{
    int f = fast_item(d, depth, key, out);
    if (f > 0) return SV_OK;
    if (f < 0) return d->rd.status;
    return decode_rec(d, depth, key, out);
}

/* Whole Variants read so far (a raw one, or one per frame): how tests see
 * that a file is read once (godot_file_meta.c), where a second reading
 * would make the same tree and leave no other trace. */
static atomic_ulong variants_read;

unsigned long gd_variants_read(void)
{
    return atomic_load_explicit(&variants_read, memory_order_relaxed);
}

/* Repeated-key checks run by whole-Variant decodes: how tests see that
 * Dictionaries with the keys of the one before skip the check. */
static atomic_ulong key_checks;

unsigned long gd_key_checks(void)
{
    return atomic_load_explicit(&key_checks, memory_order_relaxed);
}

sv_status gd_decode_value(sv_doc *doc, const gd_rules *r, const uint8_t *base, const uint8_t *data,
                          size_t len, sv_value *out, size_t *used, sv_error *err)
{
    atomic_fetch_add_explicit(&variants_read, 1, memory_order_relaxed);
    gd_dec d;
    gd_dec_init(&d, doc, r, base, data, len, err);
    *out = sv_null();
    sv_status st = decode_rec(&d, 0, false, out);
    atomic_fetch_add_explicit(&key_checks, d.key_checks, memory_order_relaxed);
    if (st == SV_OK) st = check_doc(&d);
    /* a root value with bytes of its own and no container to keep them */
    if (st == SV_OK && d.odd && !r->bare_root &&
        !gd_root_wrap(doc, out, data, (size_t)(d.rd.p - data)))
        st = check_doc(&d) != SV_OK ? d.rd.status : SV_ERR_NOMEM;
    if (st != SV_OK) {
        *out = sv_null();
        return st;
    }
    if (used) *used = (size_t)(d.rd.p - data) + d.overrun;
    return SV_OK;
}
