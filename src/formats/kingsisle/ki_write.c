/* Writing objects and values to the bit stream (§5, §6): the mirror of
 * ki_read.c. Deep-mode sizes are patched in once a property or object ends;
 * padding is zero unless the object's meta remembers other bits for that
 * alignment point. */
#include <stdarg.h>
#include <string.h>

#include "serval/buf_seekable.h"

#include "core/compiler.h"
#include "core/error_record.h"
#include "core/utf16.h"
#include "core/value_internal.h"
#include "formats/kingsisle/ki_internal.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

/* How many elements ahead a list of objects has its next objects' headers
 * loaded: a decoded tree's objects are far apart, and reaching each one's
 * class and fields is otherwise a cache miss the encoder waits for. */
#define KI_PREFETCH_AHEAD 4

sv_status ki_enc_fail(ki_enc *e, sv_status st, const char *fmt, ...)
{
    if (e->status != SV_OK) return e->status;
    e->status = st;
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(e->err, st, KI_FORMAT, 0, -1, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- bits ------------------------------------------------------------------ */

static inline void w_bits(ki_enc *e, uint64_t v, unsigned n)
{
    sv__core_bw_write(&e->bw, v, n);
}

static inline void w_align(ki_enc *e)
{
    if (!e->bw.nacc) return;
    uint32_t ord = e->pad_count++, bits = 0;
    if (e->pad_next < e->npads && e->pads[2 * e->pad_next] == ord) {
        bits = e->pads[2 * e->pad_next + 1];
        e->pad_next++;
    }
    w_bits(e, bits, 8 - e->bw.nacc);
}

static inline void w_u32(ki_enc *e, uint32_t v)
{
    w_align(e);
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sv__core_bw_bytes(&e->bw, b, 4);
}

static inline void w_u64(ki_enc *e, uint64_t v)
{
    w_u32(e, (uint32_t)v);
    w_u32(e, (uint32_t)(v >> 32));
}

/* Bits written so far, those handed to a sink included. */
static inline uint64_t bit_pos(const ki_enc *e)
{
    return sv__core_bw_bit_len(&e->bw) + e->out->flushed * 8u;
}

/* Writes v little-endian at output offset at (a field written earlier): in
 * the buffer while it holds the field, else through a sink that can patch
 * (the encoder streams past unpatched fields only into such a sink). */
static void patch_u32(ki_enc *e, uint64_t at, uint64_t v)
{
    sv_buf *b = e->out;
    if (!sv_buf_ok(b)) return;
    if (v > UINT32_MAX) {
        ki_enc_fail(e, SV_ERR_RANGE, "an object of more than 2^32 bits");
        return;
    }
    if (at >= b->flushed) {
        sv__core_store32le(b->data + (at - b->flushed), (uint32_t)v);
        return;
    }
    uint8_t le[4];
    sv__core_store32le(le, (uint32_t)v);
    sv_status st = sv_buf_patch(b, at, le, sizeof le);
    if (st != SV_OK) ki_enc_fail(e, st, "the output's sink could not rewrite a size field");
}

/* ---- values ---------------------------------------------------------------- */

static sv_status type_error(ki_enc *e, const ki_prop *p, const sv_value *v)
{
    return ki_enc_fail(e, SV_ERR_TYPE, "'%s' (%s) cannot hold a %s", p->name, p->type,
                       sv_kind_name(sv_kind_of(v)));
}

static void w_len(ki_enc *e, uint32_t n, bool container)
{
    if (e->flags & SV_KI_COMPACT_LENGTHS) { /* §6.3 */
        uint32_t ord = e->len_count++;
        bool large = n >= 0x80;
        /* the 31-bit form where the stream read had it for a short length */
        while (e->long_next < e->nlongs && e->longs[e->long_next] < ord) e->long_next++;
        if (e->long_next < e->nlongs && e->longs[e->long_next] == ord) {
            large = true;
            e->long_next++;
        }
        w_bits(e, large, 1);
        w_bits(e, n, large ? 31 : 7);
        return;
    }
    w_align(e);
    w_bits(e, n, container ? 32 : 16);
}

static sv_status w_string(ki_enc *e, const ki_prop *p, const sv_value *v)
{
    sv_kind k = sv_kind_of(v);
    if (k != SV_STRING && k != SV_BYTES) return type_error(e, p, v);
    size_t n = v->len;
    const char *s = v->as.str;
    if (!(e->flags & SV_KI_COMPACT_LENGTHS) ? n > 0xFFFF : n > 0x7FFFFFFF)
        return ki_enc_fail(e, SV_ERR_RANGE, "'%s': a string of %zu bytes is too long", p->name, n);
    w_len(e, (uint32_t)n, false);
    if (n) {
        w_align(e);
        sv__core_bw_bytes(&e->bw, s, n);
    }
    return e->status;
}

/* UTF-16 code units of WTF-8 text: two for a 4-byte sequence, else one per
 * lead byte. */
static size_t utf16_units(const uint8_t *s, size_t n)
{
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if ((s[i] & 0xC0) == 0x80) continue;
        u += (s[i] >= 0xF0) ? 2 : 1;
    }
    return u;
}

/* Whether the n bytes at s are all ASCII (wide strings mostly are: then
 * each byte is one code unit, and no decoding is needed). */
static bool all_ascii(const uint8_t *s, size_t n)
{
    size_t i = 0;
    uint64_t any = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, s + i, 32);
        any |= w[0] | w[1] | w[2] | w[3];
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        any |= w;
    }
    for (; i < n; i++) any |= s[i];
    return (any & UINT64_C(0x8080808080808080)) == 0;
}

/* n ASCII bytes as n little-endian UTF-16 code units at d (2n bytes). */
static void widen_ascii(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        _mm_storeu_si128((__m128i *)(void *)(d + 2 * i), _mm_unpacklo_epi8(x, zero));
        _mm_storeu_si128((__m128i *)(void *)(d + 2 * i + 16), _mm_unpackhi_epi8(x, zero));
    }
#endif
    for (; i < n; i++) {
        d[2 * i] = s[i];
        d[2 * i + 1] = 0;
    }
}

static sv_status w_wstring(ki_enc *e, const ki_prop *p, const sv_value *v)
{
    if (sv_kind_of(v) != SV_STRING) return type_error(e, p, v);
    size_t n;
    const uint8_t *s = (const uint8_t *)sv_get_str(v, &n);
    if (all_ascii(s, n)) {
        if (!(e->flags & SV_KI_COMPACT_LENGTHS) ? n > 0xFFFF : n > 0x7FFFFFFF)
            return ki_enc_fail(e, SV_ERR_RANGE, "'%s': a wide string too long", p->name);
        w_len(e, (uint32_t)n, false);
        if (n) {
            w_align(e); /* aligned: the code units go straight to the output */
            if (sv_buf_ensure(e->out, 2 * n) != SV_OK) return e->status;
            widen_ascii(e->out->data + e->out->len, s, n);
            e->out->len += 2 * n;
        }
        return e->status;
    }
    size_t units = utf16_units(s, n);
    if (!(e->flags & SV_KI_COMPACT_LENGTHS) ? units > 0xFFFF : units > 0x7FFFFFFF)
        return ki_enc_fail(e, SV_ERR_RANGE, "'%s': a wide string too long", p->name);
    w_len(e, (uint32_t)units, false);
    if (units) {
        w_align(e);
        size_t at = e->out->len; /* aligned: the code units go straight to the output */
        if (!sv__core_wtf8_to_utf16(e->out, s, n, false) || (e->out->len - at) != units * 2) {
            e->out->len = at;
            return ki_enc_fail(e, SV_ERR_UTF8, "'%s': not WTF-8 text", p->name);
        }
    }
    return e->status;
}

static sv_status w_tuple(ki_enc *e, const ki_prop *p, const sv_value *v, unsigned n, sv_elem as)
{
    if (sv_kind_of(v) != SV_TUPLE || sv_len(v) != n) return type_error(e, p, v);
    w_align(e);
    sv_elem have = sv_elem_of(v);
    const uint8_t *raw = sv_numbers(v);
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (p->kind == KI_COLOR) ? (i == 0 ? 2 : i == 2 ? 0 : i) : i; /* B,G,R,A */
        if (have == as) { /* the usual case: the bits as they are */
            size_t sz = sv_elem_size(as);
            uint64_t x = 0;
            memcpy(&x, raw + k * sz, sz);
            w_bits(e, x, (unsigned)sz * 8);
            continue;
        }
        double x = sv_number_at(v, k);
        if (as == SV_ELEM_F32) {
            float f = (float)x;
            uint32_t b;
            memcpy(&b, &f, 4);
            w_bits(e, b, 32);
        } else if (as == SV_ELEM_U8) {
            w_bits(e, (uint8_t)x, 8);
        } else {
            w_bits(e, (uint32_t)(int64_t)x, 32);
        }
    }
    return e->status;
}

static sv_status w_enum(ki_enc *e, const ki_prop *p, const sv_value *v)
{
    sv_kind k = sv_kind_of(v);
    if (e->flags & SV_KI_STRING_ENUMS) {
        if (k == SV_STRING || k == SV_BYTES) return w_string(e, p, v);
        if (k != SV_INT && k != SV_UINT) return type_error(e, p, v);
        sv_buf names;
        sv_buf_init(&names, e->out->alloc);
        if (!ki_enum_names(p, (uint32_t)sv_get_uint(v), &names)) {
            sv_buf_free(&names);
            return ki_enc_fail(e, SV_ERR_RANGE, "'%s': %llu is not a value of %s", p->name,
                               (unsigned long long)sv_get_uint(v), p->type);
        }
        sv_value s = {.kind = SV_STRING, .len = (uint32_t)names.len};
        s.as.str = names.len ? (const char *)names.data : "";
        sv_status st = w_string(e, p, &s);
        sv_buf_free(&names);
        return st;
    }
    uint32_t x;
    if (k == SV_INT || k == SV_UINT) {
        x = (uint32_t)sv_get_int(v);
    } else if (k == SV_STRING) {
        size_t n;
        const char *s = sv_get_str(v, &n);
        if (!ki_enum_parse(p, s, n, &x))
            return ki_enc_fail(e, SV_ERR_RANGE, "'%s': \"%.*s\" is not a value of %s", p->name,
                               (int)(n > 60 ? 60 : n), s, p->type);
    } else {
        return type_error(e, p, v);
    }
    w_u32(e, x);
    return e->status;
}

static sv_status w_int(ki_enc *e, const ki_prop *p, const sv_value *v, unsigned bits, bool align)
{
    sv_kind k = sv_kind_of(v);
    if (k != SV_INT && k != SV_UINT && k != SV_BOOL) return type_error(e, p, v);
    if (align) w_align(e);
    /* sv_get_int / sv_get_uint of these kinds, without the calls */
    uint64_t x = k == SV_INT ? (uint64_t)v->as.i : k == SV_UINT ? v->as.u : (uint64_t)v->as.b;
    if (bits == 64) {
        w_bits(e, (uint32_t)x, 32);
        w_bits(e, (uint32_t)(x >> 32), 32);
    } else {
        w_bits(e, x, bits);
    }
    return e->status;
}

static sv_status w_elem(ki_enc *e, const ki_prop *p, const sv_value *v)
{
    switch ((ki_kind)p->kind) {
    case KI_BOOL:
        if (sv_kind_of(v) != SV_BOOL && sv_kind_of(v) != SV_INT && sv_kind_of(v) != SV_UINT)
            return type_error(e, p, v);
        /* sv_get_bool || sv_get_uint != 0, without the calls */
        w_bits(e, v->kind == SV_BOOL ? v->as.b : v->kind == SV_INT ? v->as.i > 0 : v->as.u != 0, 1);
        return e->status;
    case KI_I8:
    case KI_U8: return w_int(e, p, v, 8, true);
    case KI_I16:
    case KI_U16:
    case KI_WCHAR: return w_int(e, p, v, 16, true);
    case KI_I32:
    case KI_U32: return w_int(e, p, v, 32, true);
    case KI_I64:
    case KI_U64: return w_int(e, p, v, 64, true);
    case KI_BITS_S:
    case KI_BITS_U: return w_int(e, p, v, p->bits, false);
    case KI_F32: {
        if (sv_kind_of(v) != SV_FLOAT && sv_kind_of(v) != SV_INT && sv_kind_of(v) != SV_UINT)
            return type_error(e, p, v);
        float f =
            (sv_kind_of(v) == SV_FLOAT && sv_width(v) == 4) ? v->as.f32 : (float)sv_get_f64(v);
        uint32_t b;
        memcpy(&b, &f, 4);
        w_u32(e, b);
        return e->status;
    }
    case KI_F64: {
        if (sv_kind_of(v) != SV_FLOAT && sv_kind_of(v) != SV_INT && sv_kind_of(v) != SV_UINT)
            return type_error(e, p, v);
        double f = sv_get_f64(v);
        uint64_t b;
        memcpy(&b, &f, 8);
        w_u64(e, b);
        return e->status;
    }
    case KI_STR: return w_string(e, p, v);
    case KI_WSTR: return w_wstring(e, p, v);
    case KI_COLOR: return w_tuple(e, p, v, 4, SV_ELEM_U8);
    case KI_VEC3:
    case KI_EULER: return w_tuple(e, p, v, 3, SV_ELEM_F32);
    case KI_QUAT: return w_tuple(e, p, v, 4, SV_ELEM_F32);
    case KI_MAT3: return w_tuple(e, p, v, 9, SV_ELEM_F32);
    case KI_SIZE_I:
    case KI_POINT_I: return w_tuple(e, p, v, 2, SV_ELEM_I32);
    case KI_POINT_F: return w_tuple(e, p, v, 2, SV_ELEM_F32);
    case KI_POINT_U8: return w_tuple(e, p, v, 2, SV_ELEM_U8);
    case KI_POINT_U32: return w_tuple(e, p, v, 2, SV_ELEM_U32);
    case KI_RECT_I: return w_tuple(e, p, v, 4, SV_ELEM_I32);
    case KI_RECT_F: return w_tuple(e, p, v, 4, SV_ELEM_F32);
    case KI_ENUM: return w_enum(e, p, v);
    case KI_OBJECT: return ki_write_object(e, v);
    case KI_OPAQUE:
    default: return ki_enc_fail(e, SV_ERR_UNSUPPORTED, "type '%s' has no known encoding", p->type);
    }
}

static sv_status w_value(ki_enc *e, const ki_prop *p, const sv_value *v)
{
    if (!p->dynamic) return w_elem(e, p, v);
    if (sv_kind_of(v) != SV_ARRAY) return type_error(e, p, v);
    uint32_t n = sv_len(v);
    if ((e->flags & SV_KI_COMPACT_LENGTHS) && n > 0x7FFFFFFF)
        return ki_enc_fail(e, SV_ERR_RANGE, "'%s': too many elements", p->name);
    w_len(e, n, true);
    const sv_value *items = sv__core_items(v->as.box);
    bool objects = p->kind == KI_OBJECT;
    for (uint32_t i = 0; i < n; i++) {
        if (objects && i + KI_PREFETCH_AHEAD < n) {
            const sv_value *ahead = &items[i + KI_PREFETCH_AHEAD];
            if (ahead->kind == SV_OBJECT) {
                SV_PREFETCH_READ(ahead->as.box);
                SV_PREFETCH_READ((const char *)ahead->as.box + 64); /* its first fields */
            }
        }
        sv_status st = w_elem(e, p, &items[i]);
        if (st != SV_OK) {
            sv_error_path_index(e->err, i);
            return st;
        }
        if (e->streams) sv_buf_release(e->out); /* (see w_deep) */
    }
    return e->status;
}

/* ---- raw bits (ki_raw.c's values) -------------------------------------------- */

sv_status ki_write_raw(ki_enc *e, const sv_value *v)
{
    const sv_value *bits = sv_map_getz(v, "bits"), *data = sv_map_getz(v, "data");
    if (sv_kind_of(v) != SV_MAP || !bits || sv_kind_of(data) != SV_BYTES)
        return ki_enc_fail(
            e, SV_ERR_TYPE,
            "a property with no type in the list must be {\"bits\": N, \"data\": bytes}");
    uint64_t n = sv_get_uint(bits);
    size_t have;
    const uint8_t *p = (const uint8_t *)sv_get_str(data, &have);
    if (n > (uint64_t)have * 8 || (n + 7) / 8 != have)
        return ki_enc_fail(e, SV_ERR_RANGE, "%llu raw bits do not match %zu data bytes",
                           (unsigned long long)n, have);
    if (!e->bw.nacc) {
        sv__core_bw_bytes(&e->bw, p, (size_t)(n / 8));
    } else {
        for (uint64_t i = 0; i < n / 8; i++) w_bits(e, p[i], 8);
    }
    if (n & 7) w_bits(e, p[n / 8], (unsigned)(n & 7));
    return e->status;
}

/* ---- objects ---------------------------------------------------------------- */

static const ki_prop *prop_of_key(const ki_class *c, const sv_value *key, uint32_t *hash)
{
    size_t n;
    const char *s = sv_get_str(key, &n);
    const ki_prop *p = c ? ki_prop_by_name(c, s, n) : NULL;
    if (p) {
        *hash = p->hash;
        return p;
    }
    if (!ki_parse_hash_key(s, n, hash)) return NULL;
    return c ? ki_prop_by_hash(c, *hash) : NULL;
}

/* prop_of_key through the encoder's cache: a property found by name is
 * remembered by the address and length of the key's text (the same text,
 * so the same answer); keys by hash and misses are looked up each time. */
static const ki_prop *cached_prop_of_key(ki_enc *e, const ki_class *c, const sv_value *key,
                                         uint32_t *hash)
{
    if (key->kind != SV_STRING || !c) return prop_of_key(c, key, hash);
    uint64_t h = ((uint64_t)(uintptr_t)key->as.str ^ ((uint64_t)(uintptr_t)c << 20) ^ key->len) *
                 UINT64_C(0x9E3779B97F4A7C15);
    struct ki_prop_slot *slot = &e->prop_cache[h >> 56]; /* 256 slots */
    if (slot->key == key->as.str && slot->len == key->len && slot->cls == c) {
        *hash = slot->prop->hash;
        return slot->prop;
    }
    const ki_prop *p = ki_prop_by_name(c, key->as.str, key->len);
    if (!p) return prop_of_key(c, key, hash);
    slot->key = key->as.str;
    slot->len = key->len;
    slot->cls = c;
    slot->prop = p;
    *hash = p->hash;
    return p;
}

/* ki_class_by_name, cached the same way. */
static const ki_class *cached_class_by_name(ki_enc *e, const char *s, size_t n)
{
    uint64_t h = ((uint64_t)(uintptr_t)s ^ n) * UINT64_C(0x9E3779B97F4A7C15);
    struct ki_class_slot *slot = &e->class_cache[h >> 58]; /* 64 slots */
    if (slot->name == s && slot->len == n && slot->cls) return slot->cls;
    const ki_class *c = ki_class_by_name(e->types, s, n);
    if (c) {
        slot->name = s;
        slot->len = n;
        slot->cls = c;
    }
    return c;
}

static sv_status fail_at(ki_enc *e, sv_status st, const sv_value *key)
{
    size_t n;
    const char *s = sv_get_str(key, &n);
    sv_error_path_key(e->err, s, n);
    return st;
}

/* The field of p in the object: the hinted pair first (trees usually keep
 * the id order), else a search by name. */
static const sv_value *field_of(const sv_value *obj, const ki_prop *p, uint32_t *hint)
{
    const sv_value o = *obj; /* local: the accessors' checks leave the loop */
    uint32_t n = o.len;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = (*hint + k) % n;
        size_t len;
        const char *s = sv_get_str(sv_key_at(&o, i), &len);
        if (len == p->name_len && memcmp(s, p->name, len) == 0) {
            *hint = i + 1;
            return sv_val_at(&o, i);
        }
    }
    return NULL;
}

static sv_status w_shallow(ki_enc *e, const ki_class *c, const sv_value *obj)
{
    uint32_t hint = 0, used = 0;
    for (uint32_t i = 0; i < c->nprops && e->status == SV_OK; i++) {
        const ki_prop *p = &c->props[i];
        if ((p->flags & e->mask) != e->mask) continue;
        if ((p->flags & SV_KI_PROP_DEPRECATED) && e->skip_deprecated) continue;
        const sv_value *v = field_of(obj, p, &hint);
        if (p->flags & SV_KI_PROP_DELTA_ENCODE) { /* §5.2: the presence bit */
            if (!v && (e->flags & SV_KI_FORBID_DELTA))
                return ki_enc_fail(e, SV_ERR_NOT_FOUND,
                                   "'%s' of '%s' is absent, but the flags forbid delta encoding",
                                   p->name, c->name);
            w_bits(e, v != NULL, 1);
            if (!v) continue;
        } else if (!v) {
            return ki_enc_fail(e, SV_ERR_NOT_FOUND, "'%s' has no property '%s' (%s)", c->name,
                               p->name, p->type);
        }
        used++;
        sv_status st = w_value(e, p, v);
        if (st != SV_OK) {
            sv_error_path_key(e->err, p->name, p->name_len);
            return st;
        }
        if (e->streams) sv_buf_release(e->out); /* nothing is patched in shallow mode */
    }
    if (e->status == SV_OK && used != sv_len(obj)) {
        /* a field that is not written would be lost without a word */
        for (uint32_t i = 0; i < sv_len(obj); i++) {
            const sv_value *key = sv_key_at(obj, i);
            uint32_t h;
            const ki_prop *p = prop_of_key(c, key, &h);
            bool written = p && (p->flags & e->mask) == e->mask &&
                           !((p->flags & SV_KI_PROP_DEPRECATED) && e->skip_deprecated);
            if (!written)
                return fail_at(e,
                               ki_enc_fail(e, SV_ERR_REFUSED,
                                           "not a property that shallow mode writes with "
                                           "property_mask %u",
                                           e->mask),
                               key);
        }
    }
    return e->status;
}

/* A deep size field (aligned) whose value is known only once the content
 * after it is written: its slot in the list of sizes when they go forward,
 * else its offset in the output, to patch. */
static inline uint64_t size_begin(ki_enc *e)
{
    if (!e->sizing && !e->forward) {
        uint64_t at = sv_buf_pos(e->out); /* (aligned: no bits pending) */
        w_bits(e, 0, 32);
        return at;
    }
    size_t slot = e->size_next++;
    if (e->sizing) {
        if (slot == e->sizes_cap) {
            size_t cap = e->sizes_cap ? e->sizes_cap * 2 : 1024;
            const sv_alloc *a = e->out->alloc;
            uint32_t *more = e->sizes ? a->realloc(a->ctx, e->sizes, e->sizes_cap * sizeof *more,
                                                   cap * sizeof *more)
                                      : a->malloc(a->ctx, cap * sizeof *more);
            if (!more) {
                ki_enc_fail(e, SV_ERR_NOMEM, "out of memory");
                return slot;
            }
            e->sizes = more;
            e->sizes_cap = cap;
        }
        e->nsizes = slot + 1;
        w_bits(e, 0, 32);
    } else {
        w_bits(e, slot < e->nsizes ? e->sizes[slot] : 0, 32);
    }
    return slot;
}

/* The size of what began at size_begin (bits, from start): patched,
 * recorded, or checked against what the sizing pass recorded. */
static inline void size_end(ki_enc *e, uint64_t at, uint64_t bits)
{
    /* (a failed buffer drops bytes, so its sizes mean nothing: the caller
     * reports its status) */
    if (e->status != SV_OK || !sv_buf_ok(e->out)) return;
    if (bits > UINT32_MAX) {
        ki_enc_fail(e, SV_ERR_RANGE, "an object of more than 2^32 bits");
        return;
    }
    if (e->sizing) {
        if (at < e->nsizes) e->sizes[at] = (uint32_t)bits;
    } else if (e->forward) {
        /* both passes ran the same code over the same tree: a difference
         * would be a bug, never written as a wrong size */
        if (at >= e->nsizes || e->sizes[at] != bits)
            ki_enc_fail(e, SV_ERR_RANGE, "internal: a size differs between the two passes");
    } else {
        patch_u32(e, at, bits);
    }
}

void ki_enc_free_shapes(ki_enc *e, const sv_alloc *alloc)
{
    for (size_t i = 0; i < sizeof e->shape_cache / sizeof e->shape_cache[0]; i++) {
        struct ki_shape_slot *slot = &e->shape_cache[i];
        if (slot->props)
            alloc->free(alloc->ctx, (void *)slot->props, slot->cap * sizeof *slot->props);
        slot->props = NULL;
        slot->cap = 0;
    }
}

/* The properties of the fields of a compact object of shape s and class c,
 * in field order, or NULL when a key is no property of c (then each field
 * goes its own way, and the one that is not reports itself). */
static const ki_prop *const *shape_props(ki_enc *e, const ki_class *c, const sv_shape *s)
{
    uint64_t h =
        ((uint64_t)(uintptr_t)s ^ ((uint64_t)(uintptr_t)c << 20)) * UINT64_C(0x9E3779B97F4A7C15);
    struct ki_shape_slot *slot = &e->shape_cache[h >> 59]; /* 32 slots */
    if (slot->shape == s && slot->cls == c) return slot->ok ? slot->props : NULL;
    if (s->count > slot->cap) {
        const sv_alloc *a = e->out->alloc;
        if (slot->props) a->free(a->ctx, (void *)slot->props, slot->cap * sizeof *slot->props);
        slot->props = a->malloc(a->ctx, s->count * sizeof *slot->props);
        slot->cap = slot->props ? s->count : 0;
        slot->shape = NULL;
        if (!slot->props) return NULL; /* (the per-field lookups need no memory) */
    }
    slot->shape = s;
    slot->cls = c;
    slot->ok = true;
    const sv_value *keys = sv_shape_keys(s);
    for (uint32_t i = 0; i < s->count && slot->ok; i++) {
        uint32_t hash;
        slot->props[i] = cached_prop_of_key(e, c, &keys[i], &hash);
        slot->ok = slot->props[i] != NULL;
    }
    return slot->ok ? slot->props : NULL;
}

/* §5.3: every field of the tree in its order, each size before its content
 * (size_begin / size_end). */
static sv_status w_deep(ki_enc *e, const ki_class *c, const sv_value *obj)
{
    uint64_t start = bit_pos(e); /* aligned: right after the tag */
    uint64_t size_at = size_begin(e);
    const sv_value o = *obj; /* local: the accessors' checks leave the loop */
    const sv_shape *shape = c && sv__core_is_compact(&o) ? sv_object_shape(&o) : NULL;
    const ki_prop *const *props = shape ? shape_props(e, c, shape) : NULL;
    for (uint32_t i = 0; i < o.len && e->status == SV_OK; i++) {
        const sv_value *key = sv_key_at(&o, i), *val = sv_val_at(&o, i);
        uint32_t hash;
        const ki_prop *p;
        if (props) { /* the shape's keys, looked up once */
            p = props[i];
            hash = p->hash;
        } else {
            p = cached_prop_of_key(e, c, key, &hash);
        }
        if (!p && !ki_parse_hash_key(sv_get_str(key, NULL), sv_len(key), &hash))
            return fail_at(e,
                           ki_enc_fail(e, SV_ERR_NOT_FOUND, "'%s' has no such property",
                                       c ? c->name : "this class"),
                           key);
        uint64_t before = bit_pos(e);
        w_align(e);
        uint64_t at = size_begin(e);
        w_bits(e, hash, 32);
        sv_status st = (p && p->kind != KI_OPAQUE) ? w_value(e, p, val) : ki_write_raw(e, val);
        if (st != SV_OK) return fail_at(e, st, key);
        size_end(e, at, bit_pos(e) - before);
        /* every byte so far is final when sizes go forward (no patching),
         * or can still be patched through the sink */
        if (e->streams) sv_buf_release(e->out);
    }
    size_end(e, size_at, bit_pos(e) - start);
    return e->status;
}

sv_status ki_write_object(ki_enc *e, const sv_value *v)
{
    if (sv_kind_of(v) == SV_NULL) { /* §5.1 */
        w_u32(e, 0);
        return e->status;
    }
    if (sv_kind_of(v) != SV_OBJECT)
        return ki_enc_fail(e, SV_ERR_TYPE, "expected an object, not a %s",
                           sv_kind_name(sv_kind_of(v)));
    const sv_value *cls = v->as.box->cls;
    const ki_class *c = NULL;
    uint32_t tag;
    if (sv_kind_of(cls) == SV_STRING) {
        size_t n = cls->len;
        const char *s = cls->as.str;
        c = cached_class_by_name(e, s, n);
        if (!c)
            return ki_enc_fail(e, SV_ERR_NOT_FOUND, "class '%.*s' is not in the type list%s",
                               (int)(n > 80 ? 80 : n), s, e->types ? "" : " (none given)");
        tag = c->hash;
    } else {
        tag = (uint32_t)sv_get_uint(cls);
        if (sv_kind_of(cls) != SV_UINT || sv_get_uint(cls) > UINT32_MAX || tag == 0)
            return ki_enc_fail(e, SV_ERR_TYPE, "an object's class must be a name or a 32-bit hash");
        c = ki_class_by_hash(e->types, tag);
        if (!c && e->shallow)
            return ki_enc_fail(e, SV_ERR_NOT_FOUND, "type hash %u: shallow mode needs its class",
                               tag);
    }
    if (++e->depth > 100000) return ki_enc_fail(e, SV_ERR_DEPTH, "objects nested too deeply");

    w_align(e); /* the tag's padding belongs to the enclosing object, as on reading */
    const uint32_t *saved_pads = e->pads, *saved_longs = e->longs;
    size_t saved_n = e->npads, saved_next = e->pad_next;
    size_t saved_nlongs = e->nlongs, saved_long_next = e->long_next;
    uint32_t saved_count = e->pad_count, saved_lens = e->len_count;
    const sv_value *meta = v->as.box->meta; /* mostly none: no lookups */
    const sv_value *pads = meta ? sv_map_getz(meta, KI_META_PADDING) : NULL;
    if (sv_kind_of(pads) == SV_PACKED && sv_elem_of(pads) == SV_ELEM_U32) {
        e->pads = sv_numbers(pads);
        e->npads = sv_len(pads) / 2;
    } else {
        e->pads = NULL;
        e->npads = 0;
    }
    const sv_value *longs = meta ? sv_map_getz(meta, KI_META_LONG_LENGTHS) : NULL;
    if (sv_kind_of(longs) == SV_PACKED && sv_elem_of(longs) == SV_ELEM_U32) {
        e->longs = sv_numbers(longs);
        e->nlongs = sv_len(longs);
    } else {
        e->longs = NULL;
        e->nlongs = 0;
    }
    e->pad_next = 0;
    e->pad_count = 0;
    e->long_next = 0;
    e->len_count = 0;

    w_u32(e, tag);
    sv_status st = e->shallow ? w_shallow(e, c, v) : w_deep(e, c, v);

    e->pads = saved_pads;
    e->npads = saved_n;
    e->pad_next = saved_next;
    e->pad_count = saved_count;
    e->longs = saved_longs;
    e->nlongs = saved_nlongs;
    e->long_next = saved_long_next;
    e->len_count = saved_lens;
    e->depth--;
    return st;
}

/* The rest of the last byte, with the bits the root's meta remembers. */
void ki_write_tail(ki_enc *e, uint32_t bits)
{
    sv__core_bw_align(&e->bw, bits);
}
