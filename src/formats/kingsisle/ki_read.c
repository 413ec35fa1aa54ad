/* Reading objects and values from the bit stream (§5, §6): shallow and deep
 * objects, every leaf type, containers, enums, and the padding bits that are
 * not zero (kept per object so that a rewrite gives back the same bytes). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/utf8.h"
#include "core/error_record.h"
#include "core/utf16.h"
#include "core/value_internal.h"
#include "formats/kingsisle/ki_internal.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

sv_status ki_dec_fail(ki_dec *d, sv_status st, const char *fmt, ...)
{
    if (d->br.status != SV_OK) return d->br.status;
    d->br.status = st;
    va_list ap;
    va_start(ap, fmt);
    sv__core_error_vrecord(d->br.err, st, KI_FORMAT, (d->br.pos >> 3) + d->base,
                           (int)(d->br.pos & 7), fmt, ap);
    va_end(ap);
    return st;
}

/* A failed arena allocation as an error with a message. */
static sv_status doc_check(ki_dec *d)
{
    sv_status st = sv_doc_status(d->doc);
    return st == SV_OK ? SV_OK : ki_dec_fail(d, st, "out of memory (or over max_alloc)");
}

static bool u32s_push(ki_dec *d, ki_u32s *s, const uint32_t *add, size_t n)
{
    if (s->n + n > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint32_t *v =
            sv__core_doc_scratch_realloc(d->doc, s->v, s->cap * sizeof *v, cap * sizeof *v);
        if (!v) {
            s->failed = true;
            return false;
        }
        s->v = v;
        s->cap = cap;
    }
    for (size_t i = 0; i < n; i++) s->v[s->n++] = add[i];
    return true;
}

static bool pads_push2(ki_dec *d, uint32_t a, uint32_t b)
{
    uint32_t v[2] = {a, b};
    return u32s_push(d, &d->pads, v, 2);
}

/* §3: whole-byte quantities start at a byte boundary. The skipped bits mean
 * nothing, but they are not always zero: those that are not are remembered
 * with the ordinal of their alignment point in the current object. */
void ki_dec_align(ki_dec *d)
{
    unsigned n = (unsigned)((8 - (d->br.pos & 7)) & 7);
    if (n == 0 || d->br.status != SV_OK) return;
    uint32_t bits = (uint32_t)sv__core_br_read(&d->br, n);
    uint32_t ord = d->pad_count++;
    if (bits && !pads_push2(d, ord, bits)) ki_dec_fail(d, SV_ERR_NOMEM, "out of memory");
}

static inline uint32_t rd_u32(ki_dec *d)
{
    ki_dec_align(d);
    return (uint32_t)sv__core_br_read(&d->br, 32);
}

static inline uint64_t left(const ki_dec *d)
{
    return d->br.bit_len - d->br.pos;
}

/* §6.3: compact (1 bit is_large, then 7 or 31 bits, unaligned) or plain
 * (aligned u16 for strings, u32 for containers). */
static uint32_t rd_len(ki_dec *d, bool container)
{
    if (d->flags & SV_KI_COMPACT_LENGTHS) {
        uint32_t ord = d->len_count++;
        unsigned large = (unsigned)sv__core_br_read(&d->br, 1);
        uint32_t n = (uint32_t)sv__core_br_read(&d->br, large ? 31 : 7);
        /* the 31-bit form of a length that fits 7 bits: remembered by its
         * ordinal in the object, so that the rewrite uses the same form */
        if (large && n < 0x80 && d->br.status == SV_OK && !u32s_push(d, &d->longs, &ord, 1))
            ki_dec_fail(d, SV_ERR_NOMEM, "out of memory");
        return n;
    }
    ki_dec_align(d);
    return (uint32_t)sv__core_br_read(&d->br, container ? 32 : 16);
}

/* A string's bytes: aligned only when there are any (§6.3). */
static sv_status rd_string(ki_dec *d, sv_value *out)
{
    uint32_t n = rd_len(d, false);
    if (d->br.status != SV_OK) return d->br.status;
    if (n == 0) {
        *out = sv_str(d->doc, "", 0);
        return SV_OK;
    }
    ki_dec_align(d);
    if ((uint64_t)n * 8 > left(d))
        return ki_dec_fail(d, SV_ERR_TRUNCATED, "string of %u bytes, only %llu bits left", n,
                           (unsigned long long)left(d));
    if (n > d->max_string)
        return ki_dec_fail(d, SV_ERR_LIMIT, "string of %u bytes is over the string limit", n);
    const uint8_t *p = d->br.data + (d->br.pos >> 3);
    /* text when it is UTF-8; binary strings (BLOB, §6.1) become bytes */
    *out = sv__core_utf8_valid(p, n) ? sv_str(d->doc, (const char *)p, n) : sv_bytes(d->doc, p, n);
    d->br.pos += (uint64_t)n * 8;
    return doc_check(d);
}

/* Whether the n UTF-16LE code units at p are all ASCII (< 0x80). Wide
 * strings mostly are; each unit is then its low byte, and the length pass
 * and the decoding of the general case are not needed. */
static bool units_ascii(const uint8_t *p, size_t n)
{
    size_t i = 0;
    uint64_t any = 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t w[4];
        memcpy(w, p + 2 * i, 32);
        any |= w[0] | w[1] | w[2] | w[3];
    }
    for (; i + 4 <= n; i += 4) {
        uint64_t w;
        memcpy(&w, p + 2 * i, 8);
        any |= w;
    }
    for (; i < n; i++) any |= (uint64_t)p[2 * i] | (uint64_t)p[2 * i + 1] << 8;
    return (any & UINT64_C(0xFF80FF80FF80FF80)) == 0;
}

/* n ASCII code units (units_ascii) as n bytes at d. */
static void narrow_ascii(uint8_t *d, const uint8_t *p, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * i + 16));
        _mm_storeu_si128((__m128i *)(void *)(d + i), _mm_packus_epi16(a, b));
    }
#endif
    for (; i < n; i++) d[i] = p[2 * i];
}

static sv_status rd_wstring(ki_dec *d, sv_value *out)
{
    uint32_t n = rd_len(d, false);
    if (d->br.status != SV_OK) return d->br.status;
    if (n == 0) {
        *out = sv_with_flags(sv_str(d->doc, "", 0), SV_F_UTF16);
        return SV_OK;
    }
    ki_dec_align(d);
    if ((uint64_t)n * 16 > left(d))
        return ki_dec_fail(d, SV_ERR_TRUNCATED, "wide string of %u units, only %llu bits left", n,
                           (unsigned long long)left(d));
    if ((uint64_t)n * 3 > d->max_string)
        return ki_dec_fail(d, SV_ERR_LIMIT, "wide string of %u units is over the string limit", n);
    const uint8_t *p = d->br.data + (d->br.pos >> 3);
    bool ascii = units_ascii(p, n);
    size_t len = ascii ? n : sv__core_utf16_wtf8_len(p, n, false);
    sv_value v = sv_str_uninit(d->doc, len);
    if (v.kind != SV_STRING) return doc_check(d);
    if (ascii)
        narrow_ascii(sv_value_buf(&v), p, n);
    else
        sv__core_utf16_to_wtf8(p, n, false, sv_value_buf(&v));
    *out = sv_with_flags(v, SV_F_UTF16);
    d->br.pos += (uint64_t)n * 16;
    return SV_OK;
}

/* n aligned scalars of elem type into a tuple of the given shape. */
static sv_status rd_tuple(ki_dec *d, sv_tag shape, sv_elem elem, unsigned n, sv_value *out)
{
    ki_dec_align(d);
    unsigned bits = (unsigned)sv_elem_size(elem) * 8;
    if ((uint64_t)n * bits > left(d))
        return ki_dec_fail(d, SV_ERR_TRUNCATED, "%s needs %u bits, %llu left", sv_tag_name(shape),
                           n * bits, (unsigned long long)left(d));
    union {
        uint8_t u8[16];
        uint32_t u32[16];
    } buf;
    for (unsigned i = 0; i < n; i++) {
        uint64_t x = sv__core_br_read(&d->br, bits);
        if (bits == 8)
            buf.u8[i] = (uint8_t)x;
        else
            buf.u32[i] = (uint32_t)x;
    }
    *out = sv_tuple(d->doc, shape, elem, &buf);
    if (sv_tag_scalars(shape) != n) return ki_dec_fail(d, SV_ERR_TYPE, "bad tuple shape");
    return doc_check(d);
}

static sv_status rd_enum(ki_dec *d, const ki_prop *p, sv_value *out)
{
    /* §6.4: with string enums, the option names as a std::string */
    if (d->flags & SV_KI_STRING_ENUMS) {
        sv_status st = rd_string(d, out);
        *out = sv_with_tag(*out, SV_TAG_ENUM);
        return st;
    }
    uint32_t v = rd_u32(d); /* aligned: §11 item 2 */
    if (d->br.status != SV_OK) return d->br.status;
    *out = ki_enum_value(d->doc, p, v); /* its name when the list has one, as from XML */
    return doc_check(d);
}

/* One value of p's element type. */
static sv_status rd_elem(ki_dec *d, const ki_prop *p, sv_value *out)
{
    sv_bitreader *r = &d->br;
    switch ((ki_kind)p->kind) {
    case KI_BOOL: *out = sv_bool(sv__core_br_read(r, 1) != 0); break;
    case KI_I8:
        ki_dec_align(d);
        *out = sv_int_w((int8_t)sv__core_br_read(r, 8), 1);
        break;
    case KI_U8:
        ki_dec_align(d);
        *out = sv_uint_w(sv__core_br_read(r, 8), 1);
        break;
    case KI_I16:
        ki_dec_align(d);
        *out = sv_int_w((int16_t)sv__core_br_read(r, 16), 2);
        break;
    case KI_U16:
        ki_dec_align(d);
        *out = sv_uint_w(sv__core_br_read(r, 16), 2);
        break;
    case KI_WCHAR:
        ki_dec_align(d);
        *out = sv_with_tag(sv_uint_w(sv__core_br_read(r, 16), 2), SV_TAG_CHAR);
        break;
    case KI_I32: *out = sv_int_w((int32_t)rd_u32(d), 4); break;
    case KI_U32: *out = sv_uint_w(rd_u32(d), 4); break;
    case KI_F32: {
        uint32_t b = rd_u32(d);
        float f;
        memcpy(&f, &b, 4);
        *out = sv_f32(f);
        break;
    }
    case KI_F64: {
        ki_dec_align(d);
        uint64_t b = sv__core_br_read(r, 64);
        double f;
        memcpy(&f, &b, 8);
        *out = sv_with_flags(sv_f64(f), SV_F_EXPLICIT);
        break;
    }
    case KI_I64:
        ki_dec_align(d);
        *out = sv_int_w((int64_t)sv__core_br_read(r, 64), 8);
        break;
    case KI_U64:
        ki_dec_align(d);
        *out = sv_uint_w(sv__core_br_read(r, 64), 8);
        break;
    case KI_BITS_S: /* §3: bit integers are never aligned */
        *out = sv_int_w(sv__core_br_read_signed(r, p->bits), p->bits <= 7 ? 1 : 4);
        break;
    case KI_BITS_U: *out = sv_uint_w(sv__core_br_read(r, p->bits), p->bits <= 7 ? 1 : 4); break;
    case KI_STR: return rd_string(d, out);
    case KI_WSTR: return rd_wstring(d, out);
    case KI_COLOR: {
        /* §11 item 4: stored B, G, R, A; the tuple is r, g, b, a */
        sv_status st = rd_tuple(d, SV_TAG_COLOR, SV_ELEM_U8, 4, out);
        if (st == SV_OK) {
            uint8_t *c = sv_value_buf(out);
            uint8_t b = c[0];
            c[0] = c[2];
            c[2] = b;
        }
        return st;
    }
    case KI_VEC3: return rd_tuple(d, SV_TAG_VECTOR3, SV_ELEM_F32, 3, out);
    case KI_EULER: return rd_tuple(d, SV_TAG_EULER, SV_ELEM_F32, 3, out);
    case KI_QUAT: return rd_tuple(d, SV_TAG_QUATERNION, SV_ELEM_F32, 4, out);
    case KI_MAT3: return rd_tuple(d, SV_TAG_MATRIX3X3, SV_ELEM_F32, 9, out);
    case KI_SIZE_I:
    case KI_POINT_I: return rd_tuple(d, SV_TAG_VECTOR2I, SV_ELEM_I32, 2, out);
    case KI_POINT_F: return rd_tuple(d, SV_TAG_VECTOR2, SV_ELEM_F32, 2, out);
    case KI_POINT_U8: return rd_tuple(d, SV_TAG_VECTOR2I, SV_ELEM_U8, 2, out);
    case KI_POINT_U32: return rd_tuple(d, SV_TAG_VECTOR2I, SV_ELEM_U32, 2, out);
    case KI_RECT_I: return rd_tuple(d, SV_TAG_RECT2I, SV_ELEM_I32, 4, out);
    case KI_RECT_F: return rd_tuple(d, SV_TAG_RECT2, SV_ELEM_F32, 4, out);
    case KI_ENUM: return rd_enum(d, p, out);
    case KI_OBJECT: return ki_read_object(d, out);
    case KI_OPAQUE:
    default: return ki_dec_fail(d, SV_ERR_UNSUPPORTED, "type '%s' has no known encoding", p->type);
    }
    return r->status;
}

/* The fewest bits one element can take: bounds a container's count before
 * anything is allocated. */
static unsigned min_elem_bits(const ki_prop *p)
{
    switch ((ki_kind)p->kind) {
    case KI_BOOL: return 1;
    case KI_BITS_S:
    case KI_BITS_U: return p->bits;
    case KI_OBJECT: return 32; /* at least a type tag */
    default: return 8;         /* a byte, or a compact length prefix */
    }
}

static sv_status rd_value(ki_dec *d, const ki_prop *p, sv_value *out)
{
    if (!p->dynamic) return rd_elem(d, p, out);
    uint32_t n = rd_len(d, true);
    if (d->br.status != SV_OK) return d->br.status;
    if ((uint64_t)n * min_elem_bits(p) > left(d))
        return ki_dec_fail(d, SV_ERR_TRUNCATED,
                           "a list of %u elements cannot fit in the %llu bits left", n,
                           (unsigned long long)left(d));
    sv_value arr = sv_array(d->doc, n);
    if (sv_doc_status(d->doc) != SV_OK) return doc_check(d);
    sv_value *items = sv_array_items(&arr);
    for (uint32_t i = 0; i < n; i++) {
        if (d->warn) d->frames[d->depth].index = i;
        sv_status st = rd_elem(d, p, &items[i]);
        if (st != SV_OK) {
            sv_error_path_index(d->br.err, i);
            return st;
        }
    }
    if (d->warn) d->frames[d->depth].index = -1;
    *out = arr;
    return SV_OK;
}

/* Fields collect on a scratch stack and move into the object at its end,
 * so an object is allocated once, at its final size. */
static bool push_field(ki_dec *d, sv_value key, sv_value val)
{
    if (d->nfields == d->fields_cap) {
        size_t cap = d->fields_cap ? d->fields_cap * 2 : 64;
        sv_pair *f = sv__core_doc_scratch_realloc(d->doc, d->fields, d->fields_cap * sizeof *f,
                                                  cap * sizeof *f);
        if (!f) return false;
        d->fields = f;
        d->fields_cap = cap;
    }
    d->fields[d->nfields].key = key;
    d->fields[d->nfields++].val = val;
    return true;
}

static sv_value prop_key(ki_dec *d, const ki_prop *p)
{
    sv_value *k = &d->keys[p->gidx];
    if (k->kind != SV_STRING) *k = sv_str_intern(d->doc, p->name, p->name_len);
    return *k;
}

static sv_value hash_key(ki_dec *d, uint32_t hash)
{
    char buf[11];
    size_t n = ki_hash_key(hash, buf);
    return sv_str(d->doc, buf, n); /* not interned: hashes rarely repeat in one object */
}

static sv_status fail_in(ki_dec *d, sv_status st, const sv_value *key)
{
    size_t n;
    const char *s = sv_get_str(key, &n);
    sv_error_path_key(d->br.err, s, n);
    return st;
}

/* The field the current object reads next, for a warning's path. */
static void at_field(ki_dec *d, const sv_value *key)
{
    ki_frame *f = &d->frames[d->depth];
    f->key = sv_get_str(key, &f->key_len);
    f->index = -1;
}

/* Reports an object whose class the type list lacks (its tag read at bit
 * tag_at), with the path of the field that holds it. */
static void warn_unknown(ki_dec *d, uint32_t tag, uint64_t tag_at)
{
    sv_error w;
    sv_error_clear(&w);
    sv_status st = sv_error_set_bits(
        &w, SV_ERR_NOT_FOUND, KI_FORMAT, (tag_at >> 3) + d->base, (int)(tag_at & 7),
        "class hash %u (0x%08x) is not in the type list: %s", tag, tag,
        d->skip_unknown && d->depth > 0 ? "read as null (skip_unknown_types)" : "kept as raw bits");
    (void)st;
    for (uint32_t k = d->depth; k > 0; k--) { /* each prepends: innermost first */
        const ki_frame *f = &d->frames[k];
        if (f->index >= 0) sv_error_path_index(&w, (uint64_t)f->index);
        if (f->key) sv_error_path_key(&w, f->key, f->key_len);
    }
    d->warn(d->warn_ctx, &w);
}

/* Deep mode, skip_unknown_types: the object after its tag is skipped by its
 * size (whole, as katsuba does) and reads as null. */
static sv_status skip_object(ki_dec *d, sv_value *out)
{
    uint64_t start = d->br.pos;
    uint32_t obj_bits = (uint32_t)sv__core_br_read(&d->br, 32);
    if (d->br.status != SV_OK) return d->br.status;
    if (obj_bits < 32 || obj_bits > d->br.bit_len - start) {
        d->br.pos = start;
        return ki_dec_fail(d, obj_bits < 32 ? SV_ERR_SYNTAX : SV_ERR_TRUNCATED,
                           "object size of %u bits %s (%llu bits left)", obj_bits,
                           obj_bits < 32 ? "is smaller than its own field" : "runs past the data",
                           (unsigned long long)(d->br.bit_len - start));
    }
    d->br.pos = start + obj_bits;
    *out = sv_null();
    return SV_OK;
}

/* §5.2: the masked properties in id order, nothing in between. */
static sv_status rd_shallow(ki_dec *d, const ki_class *c)
{
    for (uint32_t i = 0; i < c->nprops; i++) {
        const ki_prop *p = &c->props[i];
        if ((p->flags & d->mask) != d->mask) continue;
        if ((p->flags & SV_KI_PROP_DEPRECATED) && d->skip_deprecated) continue;
        if (p->flags & SV_KI_PROP_DELTA_ENCODE) { /* §5.2: 1 presence bit */
            if (!sv__core_br_read(&d->br, 1)) {
                if (d->br.status != SV_OK) return d->br.status;
                if (d->flags & SV_KI_FORBID_DELTA)
                    return ki_dec_fail(d, SV_ERR_SYNTAX,
                                       "optional property '%s' of '%s' is absent, but the "
                                       "flags forbid delta encoding (0x10)",
                                       p->name, c->name);
                d->all_known = false; /* not the class's full field list */
                continue;             /* absent: not in the tree */
            }
        }
        sv_value key = prop_key(d, p), v;
        if (d->warn) at_field(d, &key);
        sv_status st = rd_value(d, p, &v);
        if (st != SV_OK) return fail_in(d, st, &key);
        if (!push_field(d, key, v)) return ki_dec_fail(d, SV_ERR_NOMEM, "out of memory");
    }
    return d->br.status;
}

/* §5.3: u32 object_bits, then {align; u32 prop_bits; u32 hash; value}. A
 * property the list does not know (or every property, without a list) is
 * kept as raw bits, skipped by its size. */
static sv_status rd_deep(ki_dec *d, const ki_class *c)
{
    uint64_t start = d->br.pos;
    uint32_t obj_bits = (uint32_t)sv__core_br_read(&d->br, 32);
    if (d->br.status != SV_OK) return d->br.status;
    if (obj_bits < 32 || obj_bits > d->br.bit_len - start) {
        d->br.pos = start;
        return ki_dec_fail(d, obj_bits < 32 ? SV_ERR_SYNTAX : SV_ERR_TRUNCATED,
                           "object size of %u bits %s (%llu bits left)", obj_bits,
                           obj_bits < 32 ? "is smaller than its own field" : "runs past the data",
                           (unsigned long long)(d->br.bit_len - start));
    }
    uint64_t end = start + obj_bits;
    while (d->br.pos < end) {
        uint64_t before = d->br.pos;
        ki_dec_align(d);
        uint64_t at = d->br.pos;
        uint32_t size = (uint32_t)sv__core_br_read(&d->br, 32);
        uint32_t hash = (uint32_t)sv__core_br_read(&d->br, 32);
        if (d->br.status != SV_OK) return d->br.status;
        uint64_t head = d->br.pos - before;
        if (size < head || size > end - before) {
            d->br.pos = at;
            return ki_dec_fail(d, SV_ERR_SYNTAX,
                               "property size of %u bits %s (%llu bits left in the object)", size,
                               size < head ? "is smaller than its header" : "runs past its object",
                               (unsigned long long)(end - before));
        }
        const ki_prop *p = c ? ki_prop_by_hash(c, hash) : NULL;
        if (!p) d->all_known = false; /* a key by hash: not in any shape */
        sv_value key = p ? prop_key(d, p) : hash_key(d, hash), v;
        if (d->warn) at_field(d, &key);
        sv_status st;
        if (p && p->kind != KI_OPAQUE) {
            /* the value is read in the limits of its size */
            uint64_t saved = d->br.bit_len;
            d->br.bit_len = before + size;
            st = rd_value(d, p, &v);
            d->br.bit_len = saved;
            if (st == SV_OK && d->br.pos != before + size)
                st = ki_dec_fail(d, SV_ERR_SYNTAX,
                                 "property '%s' says %u bits, its value ends %lld bits %s", p->name,
                                 size, (long long)(before + size - d->br.pos), "early");
        } else {
            st = ki_read_raw(d, before + size - d->br.pos, &v);
        }
        if (st != SV_OK) return fail_in(d, st, &key);
        if (!push_field(d, key, v)) return ki_dec_fail(d, SV_ERR_NOMEM, "out of memory");
    }
    return d->br.status;
}

/* The shape of an object of class c whose n fields are on the scratch
 * stack from first, or NULL when they are not the class's field list in
 * this document (the object keeps the pair layout). The first object of
 * the class with no unknown or absent property gives the class its shape;
 * later ones are compact when their keys are that shape's, in order (keys
 * are interned: the same text at the same address). */
static const sv_shape *shape_of(ki_dec *d, const ki_class *c, size_t first, size_t n)
{
    const sv_pair *f = d->fields + first;
    const sv_shape *s = d->shapes[c->index];
    if (s) {
        if (s->count != n) return NULL;
        const sv_value *k = sv_shape_keys(s);
        for (size_t i = 0; i < n; i++)
            if (k[i].as.str != f[i].key.as.str || k[i].len != f[i].key.len) return NULL;
        return s;
    }
    sv_value *keys = n ? sv__core_doc_scratch_realloc(d->doc, NULL, 0, n * sizeof *keys) : NULL;
    if (n && !keys) return NULL; /* (the pair layout needs no more) */
    for (size_t i = 0; i < n; i++) keys[i] = f[i].key;
    s = sv_shape_new(d->doc, sv_str_intern(d->doc, c->name, c->name_len), keys, n);
    sv__core_doc_scratch_free(d->doc, keys, n * sizeof *keys);
    d->shapes[c->index] = s;
    return s;
}

/* The object of the n fields on the scratch stack from first: compact when
 * they are its class's field list (shape_of), else pairs. */
static sv_value make_object(ki_dec *d, const ki_class *c, uint32_t tag, size_t first, size_t n)
{
    const sv_shape *s = c && d->shapes && d->all_known ? shape_of(d, c, first, n) : NULL;
    if (s) { /* carved here: its values are copied in, not zeroed first */
        sv_container *box = sv__core_box_new(d->doc, sizeof(sv_value), n);
        if (!box) return sv_null(); /* (the document failed: doc_check says so) */
        sv__core_compact_init(box, s);
        sv_value *vals = sv__core_items(box);
        for (size_t i = 0; i < n; i++) vals[i] = d->fields[first + i].val;
        sv_value obj = sv__core_make(SV_OBJECT, 0, 0);
        obj.len = (uint32_t)n;
        obj.as.box = box;
        return obj;
    }
    sv_value cls = c ? sv_str_intern(d->doc, c->name, c->name_len)
                     : sv_uint(tag); /* as typed JSON reads "$class": N */
    sv_value obj = sv_object(d->doc, cls, n);
    if (obj.kind == SV_OBJECT && n) memcpy(sv_pairs(&obj), d->fields + first, n * sizeof(sv_pair));
    return obj;
}

sv_status ki_read_object(ki_dec *d, sv_value *out)
{
    uint32_t tag = rd_u32(d);
    if (d->br.status != SV_OK) return d->br.status;
    if (tag == 0) { /* §5.1: null, nothing follows even in deep mode */
        *out = sv_null();
        return SV_OK;
    }
    const ki_class *c = d->types ? ki_class_by_hash(d->types, tag) : NULL;
    if (!c && d->shallow) { /* shallow data cannot be skipped without its class */
        d->br.pos -= 32;
        return ki_dec_fail(d, SV_ERR_NOT_FOUND, "unknown type hash %u (0x%08x)%s", tag, tag,
                           d->types ? " in the type list" : ": shallow mode needs a type list");
    }
    /* deep mode: a class the list lacks reads as without a list (hashes
     * and raw bits), or as null with skip_unknown_types (not the root) */
    if (!c && d->types && d->warn) warn_unknown(d, tag, d->br.pos - 32);
    if (!c && d->types && d->skip_unknown && d->depth > 0) return skip_object(d, out);
    if (++d->depth > d->max_depth) {
        d->br.pos -= 32;
        return ki_dec_fail(d, SV_ERR_DEPTH, "objects nested deeper than %u", d->max_depth);
    }
    if (d->warn && d->depth >= d->frames_cap) {
        size_t cap = d->frames_cap ? d->frames_cap * 2 : 32;
        while (cap <= d->depth) cap *= 2;
        ki_frame *f = sv__core_doc_scratch_realloc(d->doc, d->frames, d->frames_cap * sizeof *f,
                                                   cap * sizeof *f);
        if (!f) return ki_dec_fail(d, SV_ERR_NOMEM, "out of memory");
        d->frames = f;
        d->frames_cap = cap;
    }
    if (d->warn) d->frames[d->depth] = (ki_frame){NULL, 0, -1};
    uint32_t saved_count = d->pad_count, saved_lens = d->len_count;
    size_t saved_n = d->pads.n, saved_longs = d->longs.n;
    d->pad_count = 0;
    d->len_count = 0;
    size_t first = d->nfields;
    bool saved_known = d->all_known;
    d->all_known = true;
    sv_status st = d->shallow ? rd_shallow(d, c) : rd_deep(d, c);
    if (st == SV_OK) st = doc_check(d);
    sv_value obj = st == SV_OK ? make_object(d, c, tag, first, d->nfields - first) : sv_null();
    if (st == SV_OK) st = doc_check(d);
    d->nfields = first;
    d->all_known = saved_known;
    if (st == SV_OK && (d->pads.failed || d->longs.failed))
        st = ki_dec_fail(d, SV_ERR_NOMEM, "out of memory");
    bool has_pads = d->pads.n > saved_n, has_longs = d->longs.n > saved_longs;
    if (st == SV_OK && (has_pads || has_longs)) {
        sv_value meta = sv_map(d->doc, (uint32_t)has_pads + (uint32_t)has_longs);
        sv_pair *mp = sv_pairs(&meta);
        if (mp && has_pads) {
            mp->key = sv_str_intern(d->doc, KI_META_PADDING, strlen(KI_META_PADDING));
            mp++->val = sv_packed(d->doc, SV_ELEM_U32, SV_TAG_NONE, d->pads.v + saved_n,
                                  d->pads.n - saved_n);
        }
        if (mp && has_longs) {
            mp->key = sv_str_intern(d->doc, KI_META_LONG_LENGTHS, strlen(KI_META_LONG_LENGTHS));
            mp->val = sv_packed(d->doc, SV_ELEM_U32, SV_TAG_NONE, d->longs.v + saved_longs,
                                d->longs.n - saved_longs);
        }
        sv_meta_set(d->doc, &obj, meta);
        st = doc_check(d);
    }
    d->pads.n = saved_n;
    d->pad_count = saved_count;
    d->longs.n = saved_longs;
    d->len_count = saved_lens;
    d->depth--;
    *out = obj;
    return st;
}
