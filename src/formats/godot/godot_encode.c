/* The Variant encoder: tree -> bytes, for every profile (spec §5, §6).
 *
 * It makes the engine's choices (spec §6): int32 unless the value needs 64
 * bits, float32 iff (double)(float)d == d, zero padding, PackedStringArray
 * elements with their NUL, dictionary pairs in the tree's (insertion) order,
 * null objects as nil. Where the tree records a width the engine's rule
 * would not choose (an int or float decoded with the 64-bit flag although
 * it fits 32 bits, an f32 NaN, f64 math types), that width is written, so
 * every decoded tree encodes back to its bytes. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/byteio.h"
#include "core/compiler.h"
#include "core/mem.h"
#include "core/article.h"
#include "formats/godot/godot_internal.h"

/* Strings that were checked already, by address: a decoded or JSON-read
 * tree shares one copy of each repeated key (interned), so a dictionary key
 * is checked once per encode, not once per dictionary. */
#define GD_CHECKED_SLOTS 64

typedef struct gd_enc {
    sv_buf *out;
    const gd_rules *r;
    sv_error *err;
    bool godot4;
    const char *checked[GD_CHECKED_SLOTS];
    uint32_t checked_len[GD_CHECKED_SLOTS];
    gd_rec_ctx rc; /* bytes kept from the source (godot_records.c) */
    /* With a sink: whether the output may be handed over at the start of a
     * value and between pieces of a packed array (sv_buf_release). Only a
     * raw Variant streams (a frame's length is patched in after it), and
     * not while a Dictionary's bytes are to be read back (pinned > 0). */
    bool release;
    unsigned pinned;
} gd_enc;

/* sv_buf_release where the output so far is final. */
static inline void release(gd_enc *e)
{
    if (e->release && !e->pinned) sv_buf_release(e->out);
}

static inline void put32(sv_buf *b, uint32_t v)
{
    sv_put_u32le(b, v);
}

/* The meta value of a container (value.h's sv_container, read inline: the
 * encoder asks for it on every Array and Dictionary). */
static inline const sv_value *meta_of(const sv_value *v)
{
    return v->as.box ? v->as.box->meta : NULL;
}

/* The wire code of t, or an error when the profile has no such type. */
static inline bool wire(gd_enc *e, unsigned t, uint32_t *code)
{
    uint8_t c = e->r->to_wire[t];
    if (SV_UNLIKELY(c == 0xFF || c >= e->r->variant_max)) {
        sv_status st = sv_error_set(e->err, SV_ERR_UNSUPPORTED, e->r->fmt, 0, "%s has no %s",
                                    e->r->fmt, gd_type_name(t));
        (void)st;
        return false;
    }
    *code = c;
    return true;
}

static inline bool header(gd_enc *e, unsigned t, uint32_t flags)
{
    uint32_t code;
    if (!wire(e, t, &code)) return false;
    put32(e->out, code | flags);
    return true;
}

/* spec §4: u32 length, bytes, zero padding. extra = 1 adds the NUL of a
 * PackedStringArray element (counted in the length). A string that starts
 * with a BOM gets a second one, because the reader drops the first. */
static sv_status put_string(gd_enc *e, const sv_value *v, int extra)
{
    if (sv_kind_of(v) != SV_STRING)
        return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0, "expected a string, found %s",
                            sv_kind_name(sv_kind_of(v)));
    const char *s = v->as.str;
    size_t len = v->len, bad = 0;
    unsigned slot = (unsigned)(((uintptr_t)s >> 3) ^ ((uintptr_t)s >> 11)) & (GD_CHECKED_SLOTS - 1);
    if (e->checked[slot] != s || e->checked_len[slot] != v->len) {
        if (!gd_string_writable(s, len, e->godot4, &bad))
            return sv_error_set(e->err, SV_ERR_UTF8, e->r->fmt, 0,
                                "string byte %zu: a NUL or invalid UTF-8 (the engine would read it "
                                "differently)",
                                bad);
        e->checked[slot] = s;
        e->checked_len[slot] = v->len;
    }
    bool bom = len >= 3 && (uint8_t)s[0] == 0xEF && (uint8_t)s[1] == 0xBB && (uint8_t)s[2] == 0xBF;
    size_t n = len + (bom ? 3 : 0) + (size_t)extra;
    if (n > INT32_MAX)
        return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0, "string of %zu bytes is too long",
                            n);
    size_t pad = (4 - (n & 3)) & 3;
    if (sv_buf_ensure(e->out, 4 + n + pad) != SV_OK)
        return sv_error_set(e->err, SV_ERR_NOMEM, e->r->fmt, 0, "out of memory");
    uint8_t *p = e->out->data + e->out->len;
    sv__core_store_u32le(p, (uint32_t)n);
    p += 4;
    /* zero the last word first: the NUL and the padding, whatever n is */
    if (n + pad >= 4) sv__core_store_u32le(p + n + pad - 4, 0);
    if (bom) {
        memcpy(p, "\xEF\xBB\xBF", 3);
        p += 3;
    }
    memcpy(p, s, len);
    if (n + pad < 4) memset(p + len, 0, (size_t)extra + pad);
    e->out->len += 4 + n + pad;
    return SV_OK;
}

static sv_status encode_rec(gd_enc *e, const sv_value *v, unsigned depth);

/* ---- numbers ---- */

static sv_status enc_int(gd_enc *e, const sv_value *v)
{
    int64_t i;
    if (v->kind == SV_UINT) {
        if (v->as.u > (uint64_t)INT64_MAX)
            return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0,
                                "%llu does not fit a Godot int (int64)",
                                (unsigned long long)v->as.u);
        i = (int64_t)v->as.u;
    } else {
        i = v->as.i;
    }
    /* spec §6.1, plus an explicit 64-bit width kept from the source */
    bool wide = i > INT32_MAX || i < INT32_MIN || (sv_is_explicit(v) && v->sub == 8);
    if (!header(e, GD_INT, wide ? GD_FLAG_64 : 0)) return e->err->status;
    if (wide)
        sv_put_u64le(e->out, (uint64_t)i);
    else
        put32(e->out, (uint32_t)(int32_t)i);
    return SV_OK;
}

static sv_status enc_float(gd_enc *e, const sv_value *v)
{
    bool wide;
    double d = 0;
    float f = 0;
    if (v->sub == 4) {
        f = v->as.f32;
        wide = false;
    } else {
        d = v->as.f64;
        f = (float)d;
        /* spec §6.2: f32 iff it round-trips; NaN != NaN gives f64 */
        wide = sv_is_explicit(v) || (double)f != d;
    }
    if (!header(e, GD_FLOAT, wide ? GD_FLAG_64 : 0)) return e->err->status;
    if (wide)
        sv__core_put_f64le(e->out, d);
    else
        sv__core_put_f32le(e->out, f);
    return SV_OK;
}

/* ---- math tuples and packed numbers ---- */

/* Room for n more bytes. A big packed array is copied into memory the
 * kernel has not handed out yet; the buffer, which owns that memory, asks
 * for huge pages there (core/mem.h). */
static bool reserve_big(gd_enc *e, size_t n)
{
    return sv__core_buf_reserve_large(e->out, n);
}

/* Writes scalars first .. first + n - 1 of src (elem) as f32, f64 or i32
 * (to). */
static sv_status put_scalar_run(gd_enc *e, const sv_value *v, sv_elem to, size_t first, size_t n)
{
    sv_elem from = (sv_elem)v->sub;
    size_t es = sv_elem_size(to);
    if (!reserve_big(e, n * es)) {
        sv_status st = sv_buf_status(e->out); /* a sink's error, else NOMEM */
        return sv_error_set(e->err, st, e->r->fmt, 0, "%s",
                            st == SV_ERR_IO ? "the output could not be written" : "out of memory");
    }
    uint8_t *p = e->out->data + e->out->len;
    if (from == to && SV_LITTLE_ENDIAN) {
        if (n) memcpy(p, (const char *)v->as.data + first * es, n * es);
    } else {
        for (size_t j = 0; j < n; j++) {
            size_t i = first + j;
            double x = sv_number_at(v, i);
            if (to == SV_ELEM_F64) {
                uint64_t u;
                if (from == SV_ELEM_F64)
                    memcpy(&u, (const char *)v->as.data + 8 * i, 8);
                else
                    memcpy(&u, &x, 8);
                sv__core_store_u64le(p + 8 * j, u);
            } else if (to == SV_ELEM_F32) {
                float f = (float)x;
                uint32_t u;
                if (from == SV_ELEM_F32) memcpy(&f, (const char *)v->as.data + 4 * i, 4);
                memcpy(&u, &f, 4);
                sv__core_store_u32le(p + 4 * j, u);
            } else if (to == SV_ELEM_I32) {
                if (!(x >= INT32_MIN && x <= INT32_MAX && x == floor(x)))
                    return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0,
                                        "element %zu (%g) is not an int32", i, x);
                sv__core_store_u32le(p + 4 * j, (uint32_t)(int32_t)x);
            } else { /* I64 */
                int64_t k;
                if (from == SV_ELEM_I64 || from == SV_ELEM_U64)
                    memcpy(&k, (const char *)v->as.data + 8 * i, 8);
                else if (x >= -9223372036854775808.0 && x < 9223372036854775808.0 && x == floor(x))
                    k = (int64_t)x;
                else
                    return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0,
                                        "element %zu (%g) is not an int64", i, x);
                sv__core_store_u64le(p + 8 * j, (uint64_t)k);
            }
        }
    }
    e->out->len += n * es;
    return SV_OK;
}

/* Writes n scalars of src (elem) as f32, f64 or i32 (to): streamed, a
 * window's worth at a time. */
static sv_status put_scalars(gd_enc *e, const sv_value *v, sv_elem to)
{
    size_t n = v->len, es = sv_elem_size(to);
    if (n > (SIZE_MAX - 64) / 8)
        return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0, "array too large");
    size_t step = e->release && !e->pinned && e->out->sink ? e->out->window / es + 1 : n + 1;
    size_t first = 0;
    do {
        size_t run = n - first < step ? n - first : step;
        sv_status st = put_scalar_run(e, v, to, first, run);
        if (st != SV_OK) return st;
        first += run;
        if (first < n) release(e);
    } while (first < n);
    return SV_OK;
}

/* Real fields: f64 with the 64-bit flag when the tree has f64 elements or a
 * double build is asked for (godot4 only, spec §6.3); else f32. */
static bool real_wide(const gd_enc *e, const sv_value *v)
{
    return e->godot4 && (v->sub == SV_ELEM_F64 || e->r->real_double);
}

static sv_status enc_tuple(gd_enc *e, const sv_value *v)
{
    unsigned t = gd_type_of_tuple_tag((sv_tag)v->tag);
    if (t == GD_NONE)
        return sv_error_set(
            e->err, SV_ERR_UNSUPPORTED, e->r->fmt, 0, "%s %s tuple has no Godot type",
            sv__core_article(sv_tag_name((sv_tag)v->tag)), sv_tag_name((sv_tag)v->tag));
    const gd_math *m = gd_math_of(t);
    if (v->len != m->scalars)
        return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0, "%s %s needs %u numbers, found %u",
                            sv__core_article(gd_type_name(t)), gd_type_name(t), m->scalars, v->len);
    bool wide = m->real && real_wide(e, v);
    if (!header(e, t, wide ? GD_FLAG_64 : 0)) return e->err->status;
    return put_scalars(e, v, m->ints ? SV_ELEM_I32 : wide ? SV_ELEM_F64 : SV_ELEM_F32);
}

static sv_status enc_packed(gd_enc *e, const sv_value *v)
{
    unsigned t;
    sv_elem to;
    bool wide = false;
    switch ((sv_tag)v->tag) {
    case SV_TAG_NONE:
        switch ((sv_elem)v->sub) {
        case SV_ELEM_I32: t = GD_PACKED_INT32; break;
        case SV_ELEM_I64: t = GD_PACKED_INT64; break;
        case SV_ELEM_F32: t = GD_PACKED_FLOAT32; break;
        case SV_ELEM_F64: t = GD_PACKED_FLOAT64; break;
        case SV_ELEM_U8: t = GD_PACKED_BYTE; break;
        default:
            return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                                "packed %s numbers have no Godot array type",
                                sv_elem_name((sv_elem)v->sub));
        }
        to = (t == GD_PACKED_BYTE) ? SV_ELEM_U8 : (sv_elem)v->sub;
        break;
    case SV_TAG_PACKED_VECTOR2: t = GD_PACKED_VECTOR2; break;
    case SV_TAG_PACKED_VECTOR3: t = GD_PACKED_VECTOR3; break;
    case SV_TAG_PACKED_VECTOR4: t = GD_PACKED_VECTOR4; break;
    case SV_TAG_PACKED_COLOR: t = GD_PACKED_COLOR; break;
    default:
        return sv_error_set(
            e->err, SV_ERR_UNSUPPORTED, e->r->fmt, 0, "%s %s array has no Godot type",
            sv__core_article(sv_tag_name((sv_tag)v->tag)), sv_tag_name((sv_tag)v->tag));
    }
    if (v->tag != SV_TAG_NONE) {
        wide = t != GD_PACKED_COLOR && real_wide(e, v);
        to = wide ? SV_ELEM_F64 : SV_ELEM_F32;
    }
    unsigned per = v->tag != SV_TAG_NONE ? sv_tag_scalars((sv_tag)v->tag) : 1;
    if (!header(e, t, wide ? GD_FLAG_64 : 0)) return e->err->status;
    size_t count = v->len / per;
    if (count > INT32_MAX / (sv_elem_size(to) * per))
        return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0, "%zu items are too many for %s %s",
                            count, sv__core_article(gd_type_name(t)), gd_type_name(t));
    put32(e->out, (uint32_t)count);
    if (t == GD_PACKED_BYTE) {
        sv_buf_append(e->out, v->as.data, count);
        sv__core_put_pad(e->out, e->out->len - count, 4);
        return SV_OK;
    }
    return put_scalars(e, v, to);
}

/* ---- typed containers (spec §5.1, §6.5) ---- */

/* Kind and block of one container element type from the meta value mt. */
static sv_status ctype_of(gd_enc *e, const sv_value *mt, unsigned *kind, const sv_value **block,
                          uint32_t *builtin)
{
    if (sv_kind_of(mt) == SV_STRING) {
        unsigned t = gd_type_by_name(mt->as.str, mt->len);
        if (t == GD_NONE)
            return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0, "\"%.*s\" is no Godot type name",
                                (int)mt->len, mt->as.str);
        if (!wire(e, t, builtin)) return e->err->status;
        *kind = GD_KIND_BUILTIN;
        return SV_OK;
    }
    if (sv_kind_of(mt) == SV_MAP && mt->len == 1) {
        const sv_value *val = sv_val_at(mt, 0);
        size_t kl;
        const char *k = sv_get_str(sv_key_at(mt, 0), &kl);
        if (sv_kind_of(val) == SV_STRING && kl == 5 && !memcmp(k, "class", 5))
            *kind = GD_KIND_CLASS;
        else if (sv_kind_of(val) == SV_STRING && kl == 6 && !memcmp(k, "script", 6))
            *kind = GD_KIND_SCRIPT;
        else
            goto bad;
        *block = val;
        return SV_OK;
    }
bad:
    return sv_error_set(
        e->err, SV_ERR_TYPE, e->r->fmt, 0,
        "a container element type is a type name, {\"class\": name} or {\"script\": path}");
}

/* kept: the name's bytes as they were read (meta "blocks"), used while
 * they still hold the name */
static sv_status put_ctype(gd_enc *e, unsigned kind, const sv_value *block, uint32_t builtin,
                           const sv_value *kept)
{
    if (kind == GD_KIND_BUILTIN) {
        put32(e->out, builtin);
    } else if (kind) {
        int k = kept ? gd_rec_emit(&e->rc, e->r, kept, block, true, e->out) : 0;
        if (k < 0) return sv_error_set(e->err, SV_ERR_NOMEM, e->r->fmt, 0, "out of memory");
        if (!k) return put_string(e, block, 0);
    }
    return SV_OK;
}

/* Item i of a container: its recorded bytes when they still hold its value
 * (godot_records.c), else the value itself. part: -1 item, 0 key, 1 value. */
static inline sv_status enc_item(gd_enc *e, gd_extra *x, uint32_t i, int part, const sv_value *v,
                                 unsigned depth)
{
    const sv_value *rec = x->raw ? gd_extra_record(x, i, part) : NULL;
    if (SV_UNLIKELY(rec != NULL)) {
        int k = gd_rec_emit(&e->rc, e->r, rec, v, false, e->out);
        if (k < 0) return sv_error_set(e->err, SV_ERR_NOMEM, e->r->fmt, 0, "out of memory");
        if (k) return SV_OK;
    }
    return encode_rec(e, v, depth);
}

/* The header and count words: canonical, plus what the source had in bits
 * the reader ignores (meta "header", "count"). */
static uint32_t kept_header(const gd_enc *e, const gd_extra *x, unsigned t, uint32_t bits)
{
    if (!x->has_header) return bits;
    return bits | (x->header & ~(GD_TYPE_MASK | gd_header_used(e->r, t)));
}

static uint32_t kept_count(const gd_extra *x, uint32_t len)
{
    return x->has_count && (x->count & 0x7FFFFFFFu) == len ? x->count : len;
}

static sv_status meta_error(gd_enc *e, const char *why)
{
    return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0, "%s", why);
}

/* A container's meta, read once; most containers have none. */
static inline bool read_extra(const sv_value *meta, gd_extra *x, const char **why)
{
    if (SV_LIKELY(!meta)) {
        memset(x, 0, sizeof *x);
        return true;
    }
    return gd_extra_read(meta, x, why);
}

/* Items of an Array or pairs of a Dictionary without meta, the usual case:
 * as the engine writes them, nothing kept to look up. */
static sv_status enc_items_plain(gd_enc *e, const sv_value *v, unsigned depth)
{
    put32(e->out, v->len);
    if (v->kind == SV_ARRAY) {
        const sv_value *items = sv_array_items(v);
        for (uint32_t i = 0; i < v->len; i++) {
            if (encode_rec(e, &items[i], depth + 1) != SV_OK) {
                sv_error_path_index(e->err, i);
                return e->err->status;
            }
        }
        return SV_OK;
    }
    const sv_value m = *v; /* a local copy: the accessors' checks leave the loop */
    for (uint32_t i = 0; i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        if (encode_rec(e, key, depth + 1) != SV_OK ||
            encode_rec(e, sv_val_at(&m, i), depth + 1) != SV_OK) {
            if (key->kind == SV_STRING)
                sv_error_path_key(e->err, key->as.str, key->len);
            else
                sv_error_path_index(e->err, i);
            return e->err->status;
        }
    }
    return SV_OK;
}

static sv_status enc_array(gd_enc *e, const sv_value *v, unsigned depth)
{
    const sv_value *meta = meta_of(v);
    if (SV_LIKELY(!meta)) {
        if (!header(e, GD_ARRAY, 0)) return e->err->status;
        return enc_items_plain(e, v, depth);
    }
    unsigned kind = 0;
    const sv_value *block = NULL;
    uint32_t builtin = 0;
    gd_extra x;
    const char *why = NULL;
    if (!read_extra(meta, &x, &why)) return meta_error(e, why);
    if (meta) {
        if (x.key || x.value || x.packed || (x.root && x.type))
            return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                                "Array meta is {\"type\": ...} or \"PackedStringArray\"");
        if (x.type && ctype_of(e, x.type, &kind, &block, &builtin) != SV_OK) return e->err->status;
        if (!e->r->typed_arrays) kind = 0; /* 3.x and 4.0-4.2 write typed arrays untyped */
        if (x.root) {
            /* the stand-in for a root value that is no container */
            if (depth != 0 || v->len != 1)
                return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                                    "an Array with meta root is the one-item root");
            return enc_item(e, &x, 0, -1, sv_array_items(v), depth);
        }
    }
    if (!header(e, GD_ARRAY, kept_header(e, &x, GD_ARRAY, kind << GD_ARRAY_KIND_SHIFT)))
        return e->err->status;
    if (kind && put_ctype(e, kind, block, builtin, gd_extra_block(&x, "type")) != SV_OK)
        return e->err->status;
    put32(e->out, kept_count(&x, v->len));
    const sv_value *items = sv_array_items(v);
    for (uint32_t i = 0; i < v->len; i++) {
        sv_status st = SV_LIKELY(!x.raw) ? encode_rec(e, &items[i], depth + 1)
                                         : enc_item(e, &x, i, -1, &items[i], depth + 1);
        if (st != SV_OK) {
            sv_error_path_index(e->err, i);
            return e->err->status;
        }
    }
    return SV_OK;
}

static sv_status enc_psa(gd_enc *e, const sv_value *v)
{
    gd_extra x;
    const char *why = NULL;
    if (!read_extra(meta_of(v), &x, &why)) return meta_error(e, why);
    if (x.type || x.key || x.value || x.root)
        return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                            "PackedStringArray meta is {\"packed\": ..., \"raw\": ...}");
    if (!header(e, GD_PACKED_STRING, kept_header(e, &x, GD_PACKED_STRING, 0)))
        return e->err->status;
    /* a negative count reads as no strings */
    put32(e->out, x.has_count && v->len == 0 && (int32_t)x.count < 0 ? x.count : v->len);
    const sv_value *items = sv_array_items(v);
    for (uint32_t i = 0; i < v->len; i++) {
        const sv_value *rec = x.raw ? gd_extra_record(&x, i, -1) : NULL;
        if (SV_UNLIKELY(rec != NULL)) {
            int k = gd_rec_emit(&e->rc, e->r, rec, &items[i], true, e->out);
            if (k < 0) return sv_error_set(e->err, SV_ERR_NOMEM, e->r->fmt, 0, "out of memory");
            if (k) continue;
        }
        if (put_string(e, &items[i], 1) != SV_OK) { /* spec §4: with the NUL */
            sv_error_path_index(e->err, i);
            return e->err->status;
        }
    }
    return SV_OK;
}

/* The pairs of a Dictionary whose source repeated keys (meta "dups",
 * godot_records.c): the tree's entries with their first values, and the
 * later pairs as they were, each at its place. 1 written (the caller checks
 * that it reads back as v), 0 the records do not fit v, -1 an error. */
static int enc_dict_dups(gd_enc *e, const sv_value *v, gd_extra *x, unsigned depth)
{
    const sv_value *dups = x->dups;
    uint64_t total = (uint64_t)v->len + dups->len;
    if (total > INT32_MAX) return 0;
    for (uint32_t k = 0; k < dups->len; k++) {
        const sv_value *rec = sv_array_at(dups, k);
        const sv_value *it = sv_kind_of(rec) == SV_ARRAY ? sv_array_items(rec) : NULL;
        if (!it || rec->len != 2 || sv_kind_of(&it[0]) != SV_INT || it[0].as.i < 0 ||
            (uint64_t)it[0].as.i >= total || sv_kind_of(&it[1]) != SV_BYTES ||
            (k && it[0].as.i <= sv_array_items(sv_array_at(dups, k - 1))[0].as.i))
            return 0;
    }
    put32(e->out, kept_count(x, (uint32_t)total));
    uint32_t k = 0, j = 0;
    for (uint32_t at = 0; at < total; at++) {
        const sv_value *it = k < dups->len ? sv_array_items(sv_array_at(dups, k)) : NULL;
        if (it && (uint64_t)it[0].as.i == at) {
            sv_buf_append(e->out, it[1].as.bytes, it[1].len);
            k++;
            continue;
        }
        if (j >= v->len) return 0;
        if (enc_item(e, x, j, 0, sv_key_at(v, j), depth + 1) != SV_OK) return -1;
        const sv_value *first = gd_extra_record(x, j, 1); /* checked with the whole */
        if (first)
            sv_buf_append(e->out, first->as.bytes, first->len);
        else if (encode_rec(e, sv_val_at(v, j), depth + 1) != SV_OK)
            return -1;
        j++;
    }
    return 1;
}

static sv_status enc_dict(gd_enc *e, const sv_value *v, unsigned depth)
{
    const sv_value *meta = meta_of(v);
    if (SV_LIKELY(!meta)) {
        if (!header(e, GD_DICTIONARY, 0)) return e->err->status;
        return enc_items_plain(e, v, depth);
    }
    unsigned kk = 0, vk = 0;
    const sv_value *kb = NULL, *vb = NULL;
    uint32_t kt = 0, vt = 0;
    gd_extra x;
    const char *why = NULL;
    if (!read_extra(meta, &x, &why)) return meta_error(e, why);
    if (meta) {
        const sv_value *km = x.key, *vm = x.value;
        if (sv_kind_of(meta) != SV_MAP || !meta->len || x.type || x.packed || x.root)
            return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                                "Dictionary meta is {\"key\": ..., \"value\": ...}");
        if (km && ctype_of(e, km, &kk, &kb, &kt) != SV_OK) return e->err->status;
        if (vm && ctype_of(e, vm, &vk, &vb, &vt) != SV_OK) return e->err->status;
        if (!e->r->typed_dicts) kk = vk = 0; /* before 4.4: untyped */
    }
    size_t start = e->out->len;
again:
    if (!header(
            e, GD_DICTIONARY,
            kept_header(e, &x, GD_DICTIONARY, kk << GD_DICT_KEY_SHIFT | vk << GD_DICT_VALUE_SHIFT)))
        return e->err->status;
    if ((kk && put_ctype(e, kk, kb, kt, gd_extra_block(&x, "key")) != SV_OK) ||
        (vk && put_ctype(e, vk, vb, vt, gd_extra_block(&x, "value")) != SV_OK))
        return e->err->status;
    if (SV_UNLIKELY(x.dups != NULL)) {
        /* the pairs are read back from start: nothing may be handed over */
        e->pinned++;
        int k = enc_dict_dups(e, v, &x, depth);
        e->pinned--;
        if (k < 0) return e->err->status;
        if (k > 0) {
            k = gd_rec_check_map(&e->rc, e->r, start, v, e->out);
            if (k < 0) return sv_error_set(e->err, SV_ERR_NOMEM, e->r->fmt, 0, "out of memory");
            if (k > 0) return SV_OK;
        }
        /* the tree was edited: its pairs, as the engine writes them */
        e->out->len = start;
        if (e->rc.trim_end > e->out->flushed + start) e->rc.trim = 0;
        x.dups = NULL;
        x.raw_at = 0;
        goto again;
    }
    put32(e->out, kept_count(&x, v->len));
    const sv_value m = *v; /* a local copy: the accessors' checks leave the loop */
    for (uint32_t i = 0; i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        sv_value *val = sv_val_at(&m, i);
        sv_status st = SV_LIKELY(!x.raw) ? encode_rec(e, key, depth + 1)
                                         : enc_item(e, &x, i, 0, key, depth + 1);
        if (st == SV_OK)
            st = SV_LIKELY(!x.raw) ? encode_rec(e, val, depth + 1)
                                   : enc_item(e, &x, i, 1, val, depth + 1);
        if (st != SV_OK) {
            if (key->kind == SV_STRING)
                sv_error_path_key(e->err, key->as.str, key->len);
            else
                sv_error_path_index(e->err, i);
            return e->err->status;
        }
    }
    return SV_OK;
}

static sv_status enc_object(gd_enc *e, const sv_value *v, unsigned depth)
{
    if (!e->r->full_objects)
        return sv_error_set(e->err, SV_ERR_REFUSED, e->r->fmt, 0,
                            "a full object is written only with the option objects=full "
                            "(var_to_bytes_with_objects)");
    const sv_value *cls = sv_object_class(v);
    if (sv_kind_of(cls) != SV_STRING || cls->len == 0)
        return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                            "a Godot object's class is a non-empty name");
    if (!header(e, GD_OBJECT, 0) || put_string(e, cls, 0) != SV_OK) return e->err->status;
    put32(e->out, v->len);
    const sv_value m = *v; /* a local copy: the accessors' checks leave the loop */
    for (uint32_t i = 0; i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        if (put_string(e, key, 0) != SV_OK || encode_rec(e, sv_val_at(&m, i), depth + 1) != SV_OK) {
            if (key->kind == SV_STRING)
                sv_error_path_key(e->err, key->as.str, key->len);
            else
                sv_error_path_index(e->err, i);
            return e->err->status;
        }
    }
    return SV_OK;
}

/* spec §5.3 */
typedef struct np_collect {
    gd_np_part parts[2][64];
    uint32_t n[2];
    bool overflow;
} np_collect;

static void np_part(void *ctx, bool sub, const char *s, size_t len)
{
    np_collect *c = ctx;
    if (c->n[sub] == 64) {
        c->overflow = true;
        return;
    }
    c->parts[sub][c->n[sub]].s = s;
    c->parts[sub][c->n[sub]++].len = len;
}

/* The padding put_string writes after a component (a leading BOM is doubled). */
static size_t np_pad(const gd_np_part *part)
{
    const uint8_t *s = (const uint8_t *)part->s;
    bool bom = part->len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF;
    return (4 - ((part->len + (bom ? 3 : 0)) & 3)) & 3;
}

/* A NodePath is its text (a string tagged node_path), or, when the bytes it
 * came from had stale padding or odd flag bits, an array tagged node_path
 * holding the text, with meta {"padding": bytes, "flags": u32}
 * (godot_decode.c, nodepath_extra). Padding of another length than the
 * text needs (the text was edited) is not used: the padding is zeros. */
static sv_status enc_nodepath(gd_enc *e, const sv_value *v)
{
    const sv_value *padding = NULL, *flags_v = NULL;
    if (v->kind == SV_ARRAY) {
        const sv_value *meta = meta_of(v);
        if (v->len != 1 || sv_array_at(v, 0)->kind != SV_STRING || sv_array_at(v, 0)->tag)
            return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                                "a NodePath array holds one untagged string, its text");
        padding = sv_map_getz(meta, "padding");
        flags_v = sv_map_getz(meta, "flags");
        if ((padding && padding->kind != SV_BYTES) ||
            (flags_v && flags_v->kind != SV_UINT && flags_v->kind != SV_INT))
            return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0,
                                "a NodePath's meta has bytes \"padding\" and int \"flags\"");
        v = sv_array_at(v, 0);
    }
    np_collect c;
    c.n[0] = c.n[1] = 0;
    c.overflow = false;
    bool absolute = gd_nodepath_split(v->as.str, v->len, np_part, &c);
    if (c.overflow)
        return sv_error_set(e->err, SV_ERR_LIMIT, e->r->fmt, 0,
                            "NodePath with more than 64 names or subnames");
    uint32_t flags = absolute ? 1 : 0, subs = c.n[1];
    if (flags_v) {
        uint32_t f = (uint32_t)flags_v->as.u;
        /* bit 1, the obsolete property flag, counts one of the subnames */
        if (!(f & 2) || subs > 0) {
            flags = (f & ~1u) | flags;
            if (f & 2) subs--;
        }
    }
    size_t npad = 0;
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < c.n[k]; i++) npad += np_pad(&c.parts[k][i]);
    const uint8_t *pad = padding && padding->len == npad ? padding->as.bytes : NULL;
    if (!header(e, GD_NODE_PATH, 0)) return e->err->status;
    put32(e->out, c.n[0] | 0x80000000u);
    put32(e->out, subs);
    put32(e->out, flags);
    for (int k = 0; k < 2; k++) {
        for (uint32_t i = 0; i < c.n[k]; i++) {
            sv_value s = sv_null();
            s.kind = SV_STRING;
            s.len = (uint32_t)c.parts[k][i].len;
            s.as.str = c.parts[k][i].s;
            if (put_string(e, &s, 0) != SV_OK) return e->err->status;
            size_t n = np_pad(&c.parts[k][i]);
            if (pad && n) {
                memcpy(e->out->data + e->out->len - n, pad, n);
                pad += n;
            }
        }
    }
    return SV_OK;
}

/* spec §5.1: RID u64 id (4.x); header only (3.x). */
static sv_status enc_rid(gd_enc *e, const sv_value *v)
{
    if (!header(e, GD_RID, 0)) return e->err->status;
    if (e->godot4) sv_put_u64le(e->out, v->kind == SV_NULL ? 0 : v->as.u);
    return SV_OK;
}

static sv_status enc_signal(gd_enc *e, const sv_value *v)
{
    const sv_value *it = sv_array_items(v);
    if (v->len != 2 || it[0].kind != SV_STRING || (it[1].kind != SV_INT && it[1].kind != SV_UINT))
        return sv_error_set(e->err, SV_ERR_TYPE, e->r->fmt, 0, "a signal is [name, object id]");
    if (!header(e, GD_SIGNAL, 0) || put_string(e, &it[0], 0) != SV_OK) return e->err->status;
    sv_put_u64le(e->out, it[1].as.u);
    return SV_OK;
}

static sv_status encode_rec(gd_enc *e, const sv_value *v, unsigned depth)
{
    /* spec §7: "Potential infinite recursion detected" past MAX_RECURSION_DEPTH */
    if (depth > e->r->max_depth)
        return sv_error_set(e->err, SV_ERR_DEPTH, e->r->fmt, 0, "nesting deeper than %u",
                            e->r->max_depth);
    release(e);
    sv_tag tag = (sv_tag)v->tag;
    switch ((sv_kind)v->kind) {
    case SV_NULL:
        if (tag == SV_TAG_RID) return enc_rid(e, v);
        if (tag == SV_TAG_CALLABLE) return header(e, GD_CALLABLE, 0) ? SV_OK : e->err->status;
        if (tag != SV_TAG_NONE) break;
        put32(e->out, 0);
        return SV_OK;
    case SV_BOOL:
        if (tag != SV_TAG_NONE) break;
        if (!header(e, GD_BOOL, 0)) return e->err->status;
        put32(e->out, sv_bool_stored(v)); /* 1, or the value the source stored */
        return SV_OK;
    case SV_INT:
    case SV_UINT:
        if (tag == SV_TAG_RID) return enc_rid(e, v);
        if (tag == SV_TAG_OBJECT_ID) {
            if (!header(e, GD_OBJECT, GD_FLAG_OBJECT_ID)) return e->err->status;
            sv_put_u64le(e->out, v->as.u);
            return SV_OK;
        }
        if (tag != SV_TAG_NONE) break;
        return enc_int(e, v);
    case SV_FLOAT:
        if (tag != SV_TAG_NONE) break;
        return enc_float(e, v);
    case SV_STRING:
        if (tag == SV_TAG_NODE_PATH) return enc_nodepath(e, v);
        if (tag != SV_TAG_NONE && tag != SV_TAG_STRING_NAME) break;
        if (!header(e, tag == SV_TAG_STRING_NAME ? GD_STRING_NAME : GD_STRING, 0))
            return e->err->status;
        return put_string(e, v, 0);
    case SV_BYTES:
        if (tag != SV_TAG_NONE) break;
        if (!header(e, GD_PACKED_BYTE, 0)) return e->err->status;
        if (v->len > INT32_MAX)
            return sv_error_set(e->err, SV_ERR_RANGE, e->r->fmt, 0, "byte array too long");
        put32(e->out, v->len);
        sv_buf_append(e->out, v->as.bytes, v->len);
        sv__core_put_pad(e->out, e->out->len - v->len, 4);
        return SV_OK;
    case SV_ARRAY:
        if (tag == SV_TAG_SIGNAL) return enc_signal(e, v);
        if (tag == SV_TAG_NODE_PATH) return enc_nodepath(e, v);
        if (tag != SV_TAG_NONE) break;
        return gd_is_psa(v) ? enc_psa(e, v) : enc_array(e, v, depth);
    case SV_MAP:
        if (tag != SV_TAG_NONE) break;
        return enc_dict(e, v, depth);
    case SV_OBJECT: return enc_object(e, v, depth);
    case SV_TUPLE: return enc_tuple(e, v);
    case SV_PACKED: return enc_packed(e, v);
    default: break;
    }
    if (tag != SV_TAG_NONE)
        return sv_error_set(e->err, SV_ERR_UNSUPPORTED, e->r->fmt, 0,
                            "%s %s tagged %s has no Godot type",
                            sv__core_article(sv_kind_name(sv_kind_of(v))),
                            sv_kind_name(sv_kind_of(v)), sv_tag_name(tag));
    return sv_error_set(e->err, SV_ERR_UNSUPPORTED, e->r->fmt, 0, "%s %s has no Godot type",
                        sv__core_article(sv_kind_name(sv_kind_of(v))), sv_kind_name(sv_kind_of(v)));
}

sv_status gd_encode_value(const gd_rules *r, const sv_value *v, sv_buf *out, sv_error *err)
{
    return gd_encode_value_ex(r, v, false, out, err);
}

sv_status gd_encode_value_ex(const gd_rules *r, const sv_value *v, bool stream, sv_buf *out,
                             sv_error *err)
{
    sv_error local;
    if (!err) {
        sv_error_clear(&local);
        err = &local;
    }
    gd_enc e;
    memset(&e, 0, sizeof e);
    e.out = out;
    e.r = r;
    e.err = err;
    e.godot4 = r->prof->godot4_rules;
    e.release = stream;
    sv_status st = encode_rec(&e, v, 0);
    gd_rec_finish(&e.rc, out);
    gd_rec_ctx_free(&e.rc);
    if (st == SV_OK && !sv_buf_ok(out))
        st = sv_error_set(err, sv_buf_status(out), r->fmt, 0, "%s",
                          sv_buf_status(out) == SV_ERR_IO ? "the output could not be written"
                                                          : "out of memory");
    return st;
}

/* ---- one item at a time (godot_transcode.c) ---- */

struct gd_item_enc {
    gd_enc e;
};

gd_item_enc *gd_item_enc_open(const gd_rules *r, bool stream, sv_buf *out, sv_error *err)
{
    gd_item_enc *w = sv__core_mem_calloc(out->alloc, 1, sizeof *w);
    if (!w) return NULL;
    w->e.out = out;
    w->e.r = r;
    w->e.err = err;
    w->e.godot4 = r->prof->godot4_rules;
    w->e.release = stream;
    return w;
}

sv_status gd_item_enc_put(gd_item_enc *w, const sv_value *v, const sv_value *rec, unsigned depth)
{
    gd_enc *e = &w->e;
    if (SV_UNLIKELY(rec != NULL)) {
        /* as enc_item does with the container's record of this item */
        int k = gd_rec_emit(&e->rc, e->r, rec, v, false, e->out);
        if (k < 0) return sv_error_set(e->err, SV_ERR_NOMEM, e->r->fmt, 0, "out of memory");
        if (k) return SV_OK;
    }
    return encode_rec(e, v, depth);
}

void gd_item_enc_forget(gd_item_enc *w)
{
    memset(w->e.checked, 0, sizeof w->e.checked);
    memset(w->e.checked_len, 0, sizeof w->e.checked_len);
}

void gd_item_enc_close(gd_item_enc *w, bool finish)
{
    if (!w) return;
    if (finish) gd_rec_finish(&w->e.rc, w->e.out);
    gd_rec_ctx_free(&w->e.rc);
    sv__core_mem_free(w->e.out->alloc, w, 1, sizeof *w);
}
