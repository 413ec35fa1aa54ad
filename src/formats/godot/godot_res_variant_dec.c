/* godot-res: reading one Variant of the resource format (spec §4).
 *
 * Every value becomes the tree value that the writer (godot_res_variant_enc.c)
 * turns back into the same type id and bytes:
 *  - INT (i32) is a plain integer; INT64 is a plain integer when it does not
 *    fit i32 (the saver's choice, §4.3), else an explicit 64-bit one;
 *  - REAL is a plain float (the f32's value as a double) and DOUBLE an
 *    explicit f64 when float32 holds it, else a plain one (§4.4); a NaN in a
 *    REAL stays a float32, keeping its bits; in a REAL_T_IS_DOUBLE file
 *    REAL is plain and DOUBLE always explicit;
 *  - math types are tuples whose "real" scalars are f32, or f64 in a
 *    REAL_T_IS_DOUBLE file; COLOR is f32 always;
 *  - Objects are references: {"$ext": index}, {"$sub": id as stored},
 *    {"$ref": null} for the null one, {"$ext": {"type", "path"}} for the
 *    old by-path form; the legacy IMAGE is an object of class "Image".
 * A count's bit 31 (the old "shared" flag) becomes the container's meta
 * {"shared": true}. */
#include <math.h>
#include <string.h>

#include "core/byteio.h"
#include "core/value_internal.h"
#include "formats/godot/godot_internal.h"
#include "formats/godot/godot_res_internal.h"

static sv_status doc_status(gr_dec *d, size_t at)
{
    sv_status st = sv_doc_status(d->doc);
    return st == SV_OK ? SV_OK : gr_fail(d, at, st, "no memory for the value");
}

/* n scalars of elem (4 or 8 bytes) in the file's order, into a tuple or a
 * packed array: the file's bytes themselves when the decoder borrows (a
 * packed array only: tuples are small), else one copy (little-endian) or
 * a byte swap per scalar. */
static sv_status read_scalars(gr_dec *d, sv_elem elem, sv_tag tag, bool tuple, uint64_t n,
                              const char *what, sv_value *out)
{
    size_t at = d->pos;
    size_t w = sv_elem_size(elem);
    if (n > (d->len - d->pos) / w) {
        gr_fail(d, at, SV_ERR_TRUNCATED, "%s of %llu numbers needs %llu bytes, %zu left", what,
                (unsigned long long)n, (unsigned long long)(n * w), d->len - d->pos);
        return d->err->status;
    }
    const uint8_t *src = d->base + d->pos;
    sv_value v;
    if (!tuple && d->borrow && !d->c.be && SV_LITTLE_ENDIAN && n) {
        v = sv__core_packed_borrowed(d->doc, elem, tag, src, (size_t)n);
    } else if (!d->c.be) {
        v = tuple ? sv_tuple(d->doc, tag, elem, src) : sv_packed(d->doc, elem, tag, src, (size_t)n);
    } else {
        v = tuple ? sv_tuple(d->doc, tag, elem, NULL)
                  : sv_packed(d->doc, elem, tag, NULL, (size_t)n);
        uint8_t *dst = sv_value_buf(&v);
        for (size_t i = 0; dst && i < (size_t)n; i++)
            for (size_t k = 0; k < w; k++) dst[i * w + k] = src[i * w + (w - 1 - k)];
    }
    if (v.kind != (tuple ? SV_TUPLE : SV_PACKED)) {
        sv_status st = doc_status(d, at);
        return st != SV_OK ? st : gr_fail(d, at, SV_ERR_NOMEM, "no memory for the %s", what);
    }
    d->pos += (size_t)n * w;
    *out = v;
    return SV_OK;
}

static sv_elem real_elem(const gr_dec *d)
{
    return d->c.real64 ? SV_ELEM_F64 : SV_ELEM_F32;
}

/* A tuple of a math type (spec §4.1's table). */
static bool tuple_of(uint32_t id, sv_tag *tag, bool *real, bool *f32)
{
    static const struct {
        uint8_t id;
        uint16_t tag;
        bool real;
    } rows[] = {
        {GR_VECTOR2, SV_TAG_VECTOR2, true},
        {GR_RECT2, SV_TAG_RECT2, true},
        {GR_VECTOR3, SV_TAG_VECTOR3, true},
        {GR_PLANE, SV_TAG_PLANE, true},
        {GR_QUAT, SV_TAG_QUATERNION, true},
        {GR_AABB, SV_TAG_AABB, true},
        {GR_BASIS, SV_TAG_BASIS, true},
        {GR_TRANSFORM3D, SV_TAG_TRANSFORM3D, true},
        {GR_TRANSFORM2D, SV_TAG_TRANSFORM2D, true},
        {GR_COLOR, SV_TAG_COLOR, false},
        {GR_VECTOR2I, SV_TAG_VECTOR2I, false},
        {GR_RECT2I, SV_TAG_RECT2I, false},
        {GR_VECTOR3I, SV_TAG_VECTOR3I, false},
        {GR_VECTOR4, SV_TAG_VECTOR4, true},
        {GR_VECTOR4I, SV_TAG_VECTOR4I, false},
        {GR_PROJECTION, SV_TAG_PROJECTION, true},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].id == id) {
            *tag = (sv_tag)rows[i].tag;
            *real = rows[i].real;
            *f32 = id == GR_COLOR;
            return true;
        }
    }
    return false;
}

/* Packed numeric arrays: element type, shape, whether the element is "real". */
static bool packed_of(uint32_t id, sv_elem *elem, sv_tag *tag, bool *real)
{
    *tag = SV_TAG_NONE;
    *real = false;
    switch (id) {
    case GR_INT32_ARRAY: *elem = SV_ELEM_I32; return true;
    case GR_FLOAT32_ARRAY: *elem = SV_ELEM_F32; return true;
    case GR_INT64_ARRAY: *elem = SV_ELEM_I64; return true;
    case GR_FLOAT64_ARRAY: *elem = SV_ELEM_F64; return true;
    case GR_COLOR_ARRAY:
        *elem = SV_ELEM_F32;
        *tag = SV_TAG_PACKED_COLOR;
        return true;
    case GR_VECTOR2_ARRAY:
        *tag = SV_TAG_PACKED_VECTOR2;
        *real = true;
        return true;
    case GR_VECTOR3_ARRAY:
        *tag = SV_TAG_PACKED_VECTOR3;
        *real = true;
        return true;
    case GR_VECTOR4_ARRAY:
        *tag = SV_TAG_PACKED_VECTOR4;
        *real = true;
        return true;
    default: return false;
    }
}

static bool fits_f32(double x)
{
    return (double)(float)x == x;
}

/* A string reference of a NodePath component: an index into the string
 * table, or 0x80000000|n and n inline bytes (the last a NUL). The saver
 * writes the index whenever the text is in the table (its first entry), so
 * that is all the writer can give back; anything else is refused. */
static sv_status read_strref(gr_dec *d, gd_np_part *part)
{
    size_t at = d->pos;
    if (!gr_need(d, 4, "NodePath component")) return d->err->status;
    uint32_t r = gr_u32(d);
    if (r & 0x80000000u) {
        uint32_t n = r & 0x7FFFFFFFu;
        if (n == 0 || !gr_need(d, n, "inline NodePath component")) {
            if (n == 0)
                return gr_fail(d, at, SV_ERR_UNSUPPORTED, "inline NodePath component of length 0");
            return d->err->status;
        }
        const char *s = (const char *)d->base + d->pos;
        if (s[n - 1] != 0)
            return gr_fail(d, at, SV_ERR_UNSUPPORTED,
                           "inline NodePath component does not end with its NUL byte");
        if (gr_strtab_find(&d->strings, s, n - 1) != UINT32_MAX)
            return gr_fail(
                d, at, SV_ERR_UNSUPPORTED,
                "inline NodePath component \"%.*s\" that the string table holds (a saver "
                "writes its index)",
                (int)(n - 1 > 40 ? 40 : n - 1), s);
        part->s = s;
        part->len = n - 1;
        d->pos += n;
        return SV_OK;
    }
    if (r >= d->strings.count)
        return gr_fail(d, at, SV_ERR_RANGE, "NodePath component: string %u of a table of %u", r,
                       d->strings.count);
    part->s = d->strings.s[r];
    part->len = d->strings.len[r];
    if (gr_strtab_find(&d->strings, part->s, part->len) != r)
        return gr_fail(d, at, SV_ERR_UNSUPPORTED,
                       "NodePath component refers to string %u, a repeat of an earlier entry", r);
    return SV_OK;
}

/* spec §4.6 */
static sv_status read_nodepath(gr_dec *d, sv_value *out)
{
    size_t at = d->pos;
    if (!gr_need(d, 4, "NodePath counts")) return d->err->status;
    const uint8_t *p = d->base + d->pos;
    uint16_t nn = d->c.be ? sv__core_load_u16be(p) : sv__core_load_u16le(p);
    uint16_t sc = d->c.be ? sv__core_load_u16be(p + 2) : sv__core_load_u16le(p + 2);
    d->pos += 4;
    bool absolute = sc & 0x8000u;
    uint32_t ns = sc & 0x7FFFu;
    if (d->c.ver_format < 3) ns++; /* the old separate "property" part */
    uint32_t total = (uint32_t)nn + ns;
    if (total > (d->len - d->pos) / 4)
        return gr_fail(d, at, SV_ERR_TRUNCATED,
                       "NodePath of %u components needs %u bytes, %zu left", total, total * 4,
                       d->len - d->pos);
    gd_np_part *parts = sv_doc_alloc(d->doc, (size_t)(total ? total : 1) * sizeof *parts);
    if (!parts) return doc_status(d, at);
    for (uint32_t i = 0; i < total; i++) {
        sv_status st = read_strref(d, &parts[i]);
        if (st != SV_OK) return st;
    }
    const char *why = NULL;
    if (!gd_nodepath_representable(parts, nn, parts + nn, ns, &why))
        return gr_fail(d, at, SV_ERR_UNSUPPORTED, "NodePath with %s has no text form", why);
    size_t n = gd_nodepath_text_len(parts, nn, parts + nn, ns, absolute);
    sv_value v = sv_str_uninit(d->doc, n);
    char *buf = sv_value_buf(&v);
    if (!buf) return doc_status(d, at);
    gd_nodepath_text(buf, parts, nn, parts + nn, ns, absolute);
    *out = sv_with_tag(v, SV_TAG_NODE_PATH);
    return SV_OK;
}

static sv_status shared_meta(gr_dec *d, uint32_t count, sv_value *container)
{
    if (!(count & 0x80000000u)) return SV_OK;
    sv_value m = sv_map(d->doc, 0);
    sv_map_append_str(d->doc, &m, "shared", sv_bool(true));
    sv_meta_set(d->doc, container, m);
    return doc_status(d, d->pos);
}

/* spec §4.9 */
static sv_status read_object(gr_dec *d, size_t at, sv_value *out)
{
    if (!gr_need(d, 4, "Object kind")) return d->err->status;
    uint32_t kind = gr_u32(d);
    switch (kind) {
    case GR_OBJ_EMPTY: *out = sv_ref_null(); return SV_OK;
    case GR_OBJ_INTERNAL:
    case GR_OBJ_EXT_INDEX:
        if (!gr_need(d, 4, "Object reference")) return d->err->status;
        *out = sv_with_tag(sv_int(gr_u32(d)),
                           kind == GR_OBJ_INTERNAL ? SV_TAG_SUB_RESOURCE : SV_TAG_EXT_RESOURCE);
        return SV_OK;
    case GR_OBJ_EXT_PATH: {
        sv_value type, path;
        sv_status st = gr_read_ustring(d, "external resource type", &type);
        if (st == SV_OK) st = gr_read_ustring(d, "external resource path", &path);
        if (st != SV_OK) return st;
        sv_value m = sv_map(d->doc, 0);
        sv_map_append_str(d->doc, &m, "type", type);
        sv_map_append_str(d->doc, &m, "path", path);
        *out = sv_with_tag(m, SV_TAG_EXT_RESOURCE);
        return doc_status(d, at);
    }
    default: return gr_fail(d, at, SV_ERR_SYNTAX, "Object of kind %u (0 to 3 exist)", kind);
    }
}

/* spec §4.10: the 3.x loader's legacy Image, as an object of class Image
 * holding the fields as read (the padding is zero; other padding is refused). */
static sv_status read_image(gr_dec *d, size_t at, sv_value *out)
{
    if (d->c.ver_format > 3)
        return gr_fail(d, at, SV_ERR_SYNTAX, "type 21 (legacy Image) in a format %u file",
                       d->c.ver_format);
    if (!gr_need(d, 4, "Image encoding")) return d->err->status;
    uint32_t enc = gr_u32(d);
    sv_value o = sv_object(d->doc, sv_str_intern(d->doc, "Image", 5), 0);
    sv_map_append_str(d->doc, &o, "encoding", sv_int(enc));
    if (enc == 1) {
        static const char *const f[] = {"width", "height", "mipmaps", "format"};
        if (!gr_need(d, 16, "Image header")) return d->err->status;
        for (int i = 0; i < 4; i++) sv_map_append_str(d->doc, &o, f[i], sv_int(gr_u32(d)));
    } else if (enc != 0 && enc != 2 && enc != 3) {
        return gr_fail(d, at, SV_ERR_SYNTAX, "Image encoding %u (0 to 3 exist)", enc);
    }
    if (enc != 0) {
        size_t lat = d->pos;
        if (!gr_need(d, 4, "Image data length")) return d->err->status;
        uint32_t n = gr_u32(d);
        size_t pad = (4 - (n & 3)) & 3;
        if (n > d->c.max_string) return gr_fail(d, lat, SV_ERR_LIMIT, "Image data of %u bytes", n);
        if (!gr_need(d, (size_t)n + pad, "Image data")) return d->err->status;
        sv_map_append_str(d->doc, &o, "data", sv_bytes(d->doc, d->base + d->pos, n));
        for (size_t k = 0; k < pad; k++)
            if (d->base[d->pos + n + k])
                return gr_fail(d, d->pos + n + k, SV_ERR_UNSUPPORTED, "non-zero Image padding");
        d->pos += n + pad;
    }
    *out = o;
    return doc_status(d, at);
}

static sv_status read_container(gr_dec *d, uint32_t id, unsigned depth, size_t at, sv_value *out)
{
    if (!gr_need(d, 4, "count")) return d->err->status;
    uint32_t raw = gr_u32(d), n = raw & 0x7FFFFFFFu;
    bool dict = id == GR_DICTIONARY;
    /* every item takes 4 bytes at least (its type id) */
    if (n > (d->len - d->pos) / (dict ? 8 : 4))
        return gr_fail(d, at, SV_ERR_TRUNCATED, "%s of %u items runs past the end",
                       dict ? "Dictionary" : "Array", n);
    sv_value c = dict ? sv_map(d->doc, n) : sv_array(d->doc, n);
    if (c.kind != (dict ? SV_MAP : SV_ARRAY)) return doc_status(d, at);
    for (uint32_t i = 0; i < n; i++) {
        sv_status st;
        if (dict) {
            sv_pair *p = sv_pair_at(&c, i);
            st = gr_read_variant(d, depth + 1, &p->key);
            if (st == SV_OK) st = gr_read_variant(d, depth + 1, &p->val);
        } else {
            st = gr_read_variant(d, depth + 1, sv_array_at(&c, i));
        }
        if (st != SV_OK) {
            sv_error_path_index(d->err, i);
            return st;
        }
    }
    sv_status st = shared_meta(d, raw, &c);
    *out = c;
    return st;
}

static sv_status read_string_array(gr_dec *d, size_t at, sv_value *out)
{
    if (!gr_need(d, 4, "PackedStringArray count")) return d->err->status;
    uint32_t n = gr_u32(d);
    if (n > (d->len - d->pos) / 5)
        return gr_fail(d, at, SV_ERR_TRUNCATED, "PackedStringArray of %u strings runs past the end",
                       n);
    sv_value a = sv_array(d->doc, n);
    if (a.kind != SV_ARRAY) return doc_status(d, at);
    for (uint32_t i = 0; i < n; i++) {
        sv_status st = gr_read_ustring(d, "PackedStringArray string", sv_array_at(&a, i));
        if (st != SV_OK) {
            sv_error_path_index(d->err, i);
            return st;
        }
    }
    sv_meta_set(d->doc, &a, sv_str_intern(d->doc, GR_PSA_META, sizeof GR_PSA_META - 1));
    *out = a;
    return doc_status(d, at);
}

static sv_status read_bytes(gr_dec *d, size_t at, sv_value *out)
{
    if (!gr_need(d, 4, "PackedByteArray length")) return d->err->status;
    uint32_t n = gr_u32(d);
    size_t pad = (4 - (n & 3)) & 3;
    if (n > d->c.max_string) return gr_fail(d, at, SV_ERR_LIMIT, "PackedByteArray of %u bytes", n);
    if (!gr_need(d, (size_t)n + pad, "PackedByteArray")) return d->err->status;
    for (size_t k = 0; k < pad; k++)
        if (d->base[d->pos + n + k])
            return gr_fail(d, d->pos + n + k, SV_ERR_UNSUPPORTED,
                           "non-zero padding after a PackedByteArray (the saver writes zeros)");
    if (d->borrow && n) {
        sv_value b = sv__core_make(SV_BYTES, 0, SV_F_BORROWED);
        b.len = n;
        b.as.bytes = d->base + d->pos;
        *out = b;
    } else {
        *out = sv_bytes(d->doc, d->base + d->pos, n);
    }
    d->pos += n + pad;
    return doc_status(d, at);
}

sv_status gr_read_variant(gr_dec *d, unsigned depth, sv_value *out)
{
    size_t at = d->pos;
    if (depth > d->c.max_depth)
        return gr_fail(d, at, SV_ERR_DEPTH, "nesting deeper than %u", d->c.max_depth);
    if (!gr_need(d, 4, "Variant type")) return d->err->status;
    uint32_t id = gr_u32(d);
    sv_tag tag;
    sv_elem elem;
    bool real, f32;
    if (tuple_of(id, &tag, &real, &f32)) {
        sv_elem e = f32 ? SV_ELEM_F32 : real ? real_elem(d) : SV_ELEM_I32;
        return read_scalars(d, e, tag, true, sv_tag_scalars(tag), sv_tag_name(tag), out);
    }
    if (packed_of(id, &elem, &tag, &real)) {
        if (real) elem = real_elem(d);
        if (!gr_need(d, 4, "packed array count")) return d->err->status;
        uint64_t n = gr_u32(d);
        if (tag != SV_TAG_NONE) n *= sv_tag_scalars(tag);
        return read_scalars(d, elem, tag, false, n, "packed array", out);
    }
    switch (id) {
    case GR_NIL: *out = sv_null(); return SV_OK;
    case GR_BOOL:
        if (!gr_need(d, 4, "bool")) return d->err->status;
        *out = sv_bool_raw(gr_u32(d));
        return SV_OK;
    case GR_INT:
        if (!gr_need(d, 4, "int")) return d->err->status;
        *out = sv_int((int32_t)gr_u32(d));
        return SV_OK;
    case GR_INT64: {
        if (!gr_need(d, 8, "int64")) return d->err->status;
        int64_t v = (int64_t)gr_u64(d);
        *out = v >= INT32_MIN && v <= INT32_MAX ? sv_int_w(v, 8) : sv_int(v);
        return SV_OK;
    }
    case GR_REAL:
        /* NaN, the infinities and whole numbers stay float32: the typed
         * JSON writes a plain f64 NaN as {"$f64": ...}, which reads back
         * explicit, and a plain whole one as 1.0, which jq 1.6 prints as
         * 1, an integer (docs/json.md) */
        if (d->c.real64) {
            if (!gr_need(d, 8, "real")) return d->err->status;
            uint64_t bits = gr_u64(d);
            double x;
            memcpy(&x, &bits, 8);
            if (isfinite(x) && x != floor(x)) {
                *out = sv_f64(x);
                return SV_OK;
            }
            float f = (float)x;
            double back = (double)f;
            if (memcmp(&back, &x, 8))
                return gr_fail(d, at, SV_ERR_UNSUPPORTED,
                               "a 64-bit REAL that float32 does not hold, whole or NaN (the tree "
                               "keeps those as float32)");
            *out = sv_f32(f);
        } else {
            if (!gr_need(d, 4, "real")) return d->err->status;
            uint32_t bits = gr_u32(d);
            float x;
            memcpy(&x, &bits, 4);
            *out = isfinite(x) && x != floorf(x) ? sv_f64((double)x) : sv_f32(x);
        }
        return SV_OK;
    case GR_DOUBLE: {
        if (!gr_need(d, 8, "double")) return d->err->status;
        uint64_t bits = gr_u64(d);
        double x;
        memcpy(&x, &bits, 8);
        sv_value v = sv_f64(x);
        /* explicit where the saver would have chosen REAL, and where the
         * typed JSON would not keep a plain f64 plain (NaN, inf, whole) */
        if (d->c.real64 || !isfinite(x) || fits_f32(x) || x == floor(x))
            v = sv_with_flags(v, SV_F_EXPLICIT);
        *out = v;
        return SV_OK;
    }
    case GR_STRING:
    case GR_STRING_NAME: {
        sv_status st = gr_read_ustring(d, id == GR_STRING ? "String" : "StringName", out);
        if (st == SV_OK && id == GR_STRING_NAME) *out = sv_with_tag(*out, SV_TAG_STRING_NAME);
        return st;
    }
    case GR_NODE_PATH: return read_nodepath(d, out);
    case GR_RID:
        if (!gr_need(d, 4, "RID")) return d->err->status;
        *out = sv_with_tag(sv_uint_w(gr_u32(d), 4), SV_TAG_RID);
        return SV_OK;
    case GR_OBJECT: return read_object(d, at, out);
    case GR_IMAGE: return read_image(d, at, out);
    case GR_DICTIONARY:
    case GR_ARRAY: return read_container(d, id, depth, at, out);
    case GR_BYTE_ARRAY: return read_bytes(d, at, out);
    case GR_STRING_ARRAY: return read_string_array(d, at, out);
    case GR_CALLABLE: *out = sv_with_tag(sv_null(), SV_TAG_CALLABLE); return SV_OK;
    case GR_SIGNAL: *out = sv_with_tag(sv_null(), SV_TAG_SIGNAL); return SV_OK;
    default:
        return gr_fail(d, at, SV_ERR_SYNTAX, "Variant type %u (not a resource-format type)", id);
    }
}
