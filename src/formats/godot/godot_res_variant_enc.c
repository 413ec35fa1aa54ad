/* godot-res: writing one Variant of the resource format (spec §4), the
 * inverse of godot_res_variant_dec.c. A plain integer or float gets the type
 * id the engine's saver picks from its value (§4.3, §4.4), an explicit one
 * the id it was read with; anything the format has no id for is refused
 * with the path to it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_internal.h"
#include "formats/godot/godot_res_internal.h"

static void put_bits32(gr_enc *e, float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    gr_put_u32(e, b);
}

static void put_bits64(gr_enc *e, double x)
{
    uint64_t b;
    memcpy(&b, &x, 8);
    gr_put_u64(e, b);
}

/* The scalars of a tuple or packed value as elem (f32, f64, i32 or i64),
 * each checked to fit. */
static sv_status put_scalars(gr_enc *e, const sv_value *v, sv_elem elem)
{
    sv_elem have = sv_elem_of(v);
    const uint8_t *src = sv_numbers(v);
    size_t w = sv_elem_size(elem);
    if (have == elem && !e->c.be) {
        gr_put(e, src, (size_t)v->len * w);
        return SV_OK;
    }
    for (uint32_t i = 0; i < v->len; i++) {
        if (have == elem) {
            if (w == 4)
                gr_put_u32(e, sv__core_load_u32le(src + (size_t)i * 4));
            else
                gr_put_u64(e, sv__core_load_u64le(src + (size_t)i * 8));
            continue;
        }
        double x = sv_number_at(v, i);
        switch (elem) {
        case SV_ELEM_F32:
            if (!isnan(x) && (double)(float)x != x)
                return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                    "a number that float32 does not hold");
            put_bits32(e, (float)x);
            break;
        case SV_ELEM_F64: put_bits64(e, x); break;
        case SV_ELEM_I32:
            if (x != floor(x) || x < INT32_MIN || x > INT32_MAX)
                return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                    "a number that int32 does not hold");
            gr_put_u32(e, (uint32_t)(int32_t)x);
            break;
        default:
            if (have == SV_ELEM_U64 || have == SV_ELEM_F32 || have == SV_ELEM_F64)
                return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                    "an int64 array of other numbers");
            gr_put_u64(e, (uint64_t)(int64_t)x); /* i8..u32: exact */
            break;
        }
    }
    return SV_OK;
}

static sv_elem real_elem(const gr_enc *e)
{
    return e->c.real64 ? SV_ELEM_F64 : SV_ELEM_F32;
}

static sv_status write_tuple(gr_enc *e, const sv_value *v)
{
    static const struct {
        uint16_t tag;
        uint8_t id;
        uint8_t kind; /* 0 real, 1 f32, 2 i32 */
    } rows[] = {
        {SV_TAG_VECTOR2, GR_VECTOR2, 0},
        {SV_TAG_RECT2, GR_RECT2, 0},
        {SV_TAG_VECTOR3, GR_VECTOR3, 0},
        {SV_TAG_PLANE, GR_PLANE, 0},
        {SV_TAG_QUATERNION, GR_QUAT, 0},
        {SV_TAG_AABB, GR_AABB, 0},
        {SV_TAG_BASIS, GR_BASIS, 0},
        {SV_TAG_TRANSFORM3D, GR_TRANSFORM3D, 0},
        {SV_TAG_TRANSFORM2D, GR_TRANSFORM2D, 0},
        {SV_TAG_COLOR, GR_COLOR, 1},
        {SV_TAG_VECTOR2I, GR_VECTOR2I, 2},
        {SV_TAG_RECT2I, GR_RECT2I, 2},
        {SV_TAG_VECTOR3I, GR_VECTOR3I, 2},
        {SV_TAG_VECTOR4, GR_VECTOR4, 0},
        {SV_TAG_VECTOR4I, GR_VECTOR4I, 2},
        {SV_TAG_PROJECTION, GR_PROJECTION, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].tag != v->tag) continue;
        if (v->len != sv_tag_scalars(v->tag))
            return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                "a tuple of the wrong size");
        gr_put_u32(e, rows[i].id);
        sv_elem el = rows[i].kind == 0   ? real_elem(e)
                     : rows[i].kind == 1 ? SV_ELEM_F32
                                         : SV_ELEM_I32;
        return put_scalars(e, v, el);
    }
    return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                        "a tuple the resource format has no type for");
}

static sv_status write_packed(gr_enc *e, const sv_value *v)
{
    sv_elem have = sv_elem_of(v);
    uint32_t id;
    sv_elem el;
    switch (v->tag) {
    case SV_TAG_NONE:
        switch (have) {
        case SV_ELEM_I32:
        case SV_ELEM_I16:
        case SV_ELEM_I8:
        case SV_ELEM_U16:
        case SV_ELEM_U8:
            id = GR_INT32_ARRAY;
            el = SV_ELEM_I32;
            break;
        case SV_ELEM_I64:
        case SV_ELEM_U32:
        case SV_ELEM_U64:
            id = GR_INT64_ARRAY;
            el = SV_ELEM_I64;
            break;
        case SV_ELEM_F32:
            id = GR_FLOAT32_ARRAY;
            el = SV_ELEM_F32;
            break;
        default:
            id = GR_FLOAT64_ARRAY;
            el = SV_ELEM_F64;
            break;
        }
        break;
    case SV_TAG_PACKED_COLOR:
        id = GR_COLOR_ARRAY;
        el = SV_ELEM_F32;
        break;
    case SV_TAG_PACKED_VECTOR2:
        id = GR_VECTOR2_ARRAY;
        el = real_elem(e);
        break;
    case SV_TAG_PACKED_VECTOR3:
        id = GR_VECTOR3_ARRAY;
        el = real_elem(e);
        break;
    case SV_TAG_PACKED_VECTOR4:
        id = GR_VECTOR4_ARRAY;
        el = real_elem(e);
        break;
    default:
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a packed array the resource format has no type for");
    }
    unsigned per = v->tag == SV_TAG_NONE ? 1 : sv_tag_scalars(v->tag);
    if (v->len % per)
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a packed array of part items");
    gr_put_u32(e, id);
    gr_put_u32(e, v->len / per);
    return put_scalars(e, v, el);
}

/* spec §4.6: names, then subnames, each the index of its text in the
 * string table or, when the table does not hold it, inline. */
typedef struct np_ctx {
    gd_np_part *parts; /* room for every component */
    uint32_t n[2];     /* names, subnames */
    gd_np_part *sub;   /* subnames, after the names' room */
    size_t room;
} np_ctx;

static void np_count(void *ctx, bool sub, const char *s, size_t len)
{
    (void)s;
    (void)len;
    ((np_ctx *)ctx)->n[sub]++;
}

static void np_part(void *ctx, bool sub, const char *s, size_t len)
{
    np_ctx *c = ctx;
    gd_np_part *p = sub ? &c->sub[c->n[1]++] : &c->parts[c->n[0]++];
    p->s = s;
    p->len = len;
}

static void put_strref(gr_enc *e, const gd_np_part *p)
{
    uint32_t idx = gr_strtab_find(e->strings, p->s, p->len);
    if (idx != UINT32_MAX) {
        gr_put_u32(e, idx);
    } else {
        gr_put_u32(e, 0x80000000u | (uint32_t)(p->len + 1));
        gr_put(e, p->s, p->len);
        gr_putc(e, 0);
    }
}

static sv_status write_nodepath(gr_enc *e, const sv_value *v)
{
    np_ctx c;
    memset(&c, 0, sizeof c);
    size_t len;
    const char *s = sv_get_str(v, &len);
    bool absolute = gd_nodepath_split(s, len, np_count, &c);
    uint32_t nn = c.n[0], ns = c.n[1];
    if (nn > 0xFFFF || ns > (e->c.ver_format < 3 ? 0x8000u : 0x7FFFu))
        return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a NodePath of more names or subnames than its counts hold");
    if (e->c.ver_format < 3 && ns == 0)
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a format-1/2 NodePath needs its property subname");
    c.parts = malloc(((size_t)nn + ns + 1) * sizeof *c.parts);
    if (!c.parts)
        return sv_error_set(e->err, SV_ERR_NOMEM, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "out of memory");
    c.sub = c.parts + nn;
    c.n[0] = c.n[1] = 0;
    gd_nodepath_split(s, len, np_part, &c);
    gr_put_u32(e, GR_NODE_PATH);
    uint16_t stored = (uint16_t)(e->c.ver_format < 3 ? ns - 1 : ns);
    uint16_t sc = (uint16_t)(stored | (absolute ? 0x8000u : 0));
    uint8_t b[4];
    if (e->c.be) {
        sv__core_store_u16be(b, (uint16_t)nn);
        sv__core_store_u16be(b + 2, sc);
    } else {
        sv__core_store_u16le(b, (uint16_t)nn);
        sv__core_store_u16le(b + 2, sc);
    }
    gr_put(e, b, 4);
    for (uint32_t i = 0; i < nn + ns; i++) put_strref(e, &c.parts[i]);
    free(c.parts);
    return SV_OK;
}

static bool meta_shared(const sv_value *v)
{
    const sv_value *m = sv_meta(v);
    return m && sv_kind_of(m) == SV_MAP && sv_get_bool(sv_map_getz(m, "shared"));
}

static sv_status write_image(gr_enc *e, const sv_value *v)
{
    if (e->c.ver_format > 3)
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a legacy Image in a format-4+ file");
    const sv_value *enc = sv_map_getz(v, "encoding");
    int64_t k = sv_get_int(enc);
    if (sv_kind_of(enc) != SV_INT || k < 0 || k > 3)
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "an Image without an encoding 0 to 3");
    gr_put_u32(e, GR_IMAGE);
    gr_put_u32(e, (uint32_t)k);
    if (k == 1) {
        static const char *const f[] = {"width", "height", "mipmaps", "format"};
        for (int i = 0; i < 4; i++) gr_put_u32(e, (uint32_t)sv_get_int(sv_map_getz(v, f[i])));
    }
    if (k != 0) {
        const sv_value *data = sv_map_getz(v, "data");
        if (sv_kind_of(data) != SV_BYTES)
            return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                "an Image without data bytes");
        gr_put_u32(e, data->len);
        gr_put(e, data->as.bytes, data->len);
        for (uint32_t p = data->len; p & 3; p++) gr_putc(e, 0);
    }
    return SV_OK;
}

static sv_status write_ref(gr_enc *e, const sv_value *v)
{
    gr_put_u32(e, GR_OBJECT);
    if (v->kind == SV_REF) {
        if (!(v->flags & SV_F_NULLREF))
            return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                "a $ref other than null");
        gr_put_u32(e, GR_OBJ_EMPTY);
        return SV_OK;
    }
    if (v->kind == SV_MAP) {
        const sv_value *t = sv_map_getz(v, "type"), *p = sv_map_getz(v, "path");
        if (sv_kind_of(t) != SV_STRING || sv_kind_of(p) != SV_STRING || v->len != 2)
            return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                "an $ext by path needs exactly \"type\" and \"path\"");
        gr_put_u32(e, GR_OBJ_EXT_PATH);
        gr_put_ustring(e, t->as.str, t->len);
        gr_put_ustring(e, p->as.str, p->len);
        return SV_OK;
    }
    int64_t i = sv_get_int(v);
    if ((v->kind != SV_INT && v->kind != SV_UINT) || i < 0 || i > UINT32_MAX)
        return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a resource reference that is not 0 to 4294967295");
    gr_put_u32(e, v->tag == SV_TAG_SUB_RESOURCE ? GR_OBJ_INTERNAL : GR_OBJ_EXT_INDEX);
    gr_put_u32(e, (uint32_t)i);
    return SV_OK;
}

static sv_status write_int(gr_enc *e, const sv_value *v)
{
    int64_t i;
    if (v->kind == SV_UINT) {
        if (v->as.u > INT64_MAX)
            return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                "an integer above int64");
        i = (int64_t)v->as.u;
    } else {
        i = v->as.i;
    }
    bool wide = sv_is_explicit(v) ? v->sub == 8 : (i < INT32_MIN || i > INT32_MAX);
    if (!wide && (i < INT32_MIN || i > INT32_MAX))
        return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a 32-bit integer out of range");
    gr_put_u32(e, wide ? GR_INT64 : GR_INT);
    if (wide)
        gr_put_u64(e, (uint64_t)i);
    else
        gr_put_u32(e, (uint32_t)(int32_t)i);
    return SV_OK;
}

static sv_status write_float(gr_enc *e, const sv_value *v)
{
    if (v->sub == 4) { /* a float32: a REAL (as f64 in a double file) */
        gr_put_u32(e, GR_REAL);
        if (e->c.real64)
            put_bits64(e, (double)v->as.f32);
        else
            put_bits32(e, v->as.f32);
        return SV_OK;
    }
    double x = v->as.f64;
    bool dbl =
        e->c.real64 ? sv_is_explicit(v) : (sv_is_explicit(v) || isnan(x) || (double)(float)x != x);
    gr_put_u32(e, dbl ? GR_DOUBLE : GR_REAL);
    if (dbl || e->c.real64)
        put_bits64(e, x);
    else
        put_bits32(e, (float)x);
    return SV_OK;
}

sv_status gr_write_variant(gr_enc *e, const sv_value *v, unsigned depth)
{
    if (depth > e->c.max_depth)
        return sv_error_set(e->err, SV_ERR_DEPTH, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "nesting too deep");
    switch ((sv_kind)v->kind) {
    case SV_NULL:
        gr_put_u32(e, v->tag == SV_TAG_CALLABLE ? GR_CALLABLE
                      : v->tag == SV_TAG_SIGNAL ? GR_SIGNAL
                                                : GR_NIL);
        return SV_OK;
    case SV_BOOL:
        gr_put_u32(e, GR_BOOL);
        gr_put_u32(e, sv_bool_stored(v));
        return SV_OK;
    case SV_INT:
    case SV_UINT:
        if (v->tag == SV_TAG_EXT_RESOURCE || v->tag == SV_TAG_SUB_RESOURCE) return write_ref(e, v);
        if (v->tag == SV_TAG_RID) {
            uint64_t id = sv_get_uint(v);
            if (id > UINT32_MAX)
                return sv_error_set(e->err, SV_ERR_RANGE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                    "an RID above 32 bits");
            gr_put_u32(e, GR_RID);
            gr_put_u32(e, (uint32_t)id);
            return SV_OK;
        }
        return write_int(e, v);
    case SV_FLOAT: return write_float(e, v);
    case SV_STRING:
        if (v->tag == SV_TAG_NODE_PATH) return write_nodepath(e, v);
        gr_put_u32(e, v->tag == SV_TAG_STRING_NAME ? GR_STRING_NAME : GR_STRING);
        gr_put_ustring(e, v->as.str, v->len);
        return SV_OK;
    case SV_BYTES:
        gr_put_u32(e, GR_BYTE_ARRAY);
        gr_put_u32(e, v->len);
        gr_put(e, v->as.bytes, v->len);
        for (uint32_t p = v->len; p & 3; p++) gr_putc(e, 0);
        return SV_OK;
    case SV_REF: return write_ref(e, v);
    case SV_TUPLE: return write_tuple(e, v);
    case SV_PACKED: return write_packed(e, v);
    case SV_OBJECT: {
        const sv_value *cls = sv_object_class(v);
        size_t n;
        const char *name = sv_get_str(cls, &n);
        if (n == 5 && !memcmp(name, "Image", 5)) return write_image(e, v);
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "an object in a value (a resource is referred to with {\"$sub\": N} or "
                            "{\"$ext\": N})");
    }
    case SV_ARRAY: {
        const sv_value *m = sv_meta(v);
        if (m && sv_kind_of(m) == SV_STRING) { /* PackedStringArray */
            gr_put_u32(e, GR_STRING_ARRAY);
            gr_put_u32(e, v->len);
            for (uint32_t i = 0; i < v->len; i++) {
                const sv_value *s = sv_array_at(v, i);
                if (sv_kind_of(s) != SV_STRING) {
                    sv_error_path_index(e->err, i);
                    return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                                        "a PackedStringArray item that is not a string");
                }
                gr_put_ustring(e, s->as.str, s->len);
            }
            return SV_OK;
        }
        gr_put_u32(e, GR_ARRAY);
        gr_put_u32(e, v->len | (meta_shared(v) ? 0x80000000u : 0));
        for (uint32_t i = 0; i < v->len; i++) {
            sv_status st = gr_write_variant(e, sv_array_at(v, i), depth + 1);
            if (st != SV_OK) {
                sv_error_path_index(e->err, i);
                return st;
            }
        }
        return SV_OK;
    }
    case SV_MAP: {
        if (v->tag == SV_TAG_EXT_RESOURCE) return write_ref(e, v);
        gr_put_u32(e, GR_DICTIONARY);
        gr_put_u32(e, v->len | (meta_shared(v) ? 0x80000000u : 0));
        for (uint32_t i = 0; i < v->len; i++) {
            const sv_value *pk = sv_key_at(v, i);
            const sv_value *pv = sv_val_at(v, i);
            sv_status st = gr_write_variant(e, pk, depth + 1);
            if (st == SV_OK) st = gr_write_variant(e, pv, depth + 1);
            if (st != SV_OK) {
                if (pk->kind == SV_STRING)
                    sv_error_path_key(e->err, pk->as.str, pk->len);
                else
                    sv_error_path_index(e->err, i);
                return st;
            }
        }
        return SV_OK;
    }
    default:
        return sv_error_set(e->err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET, "%s",
                            "a value the resource format has no type for");
    }
}
