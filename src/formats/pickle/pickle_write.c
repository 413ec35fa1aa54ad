/* The pickle writer (include/serval/pickle.h, docs/formats/pickle.md): the
 * entry point, frames, the opcodes of scalars and strings, the module's
 * classes, and the dispatch on a value's kind and tag. Containers are in
 * pickle_containers.c, tuples and packed arrays in pickle_numbers.c.
 *
 * Which values are plain and which take a wrapper follows the typed JSON
 * writer exactly (src/formats/json/json_write*.c): a value is plain in Python where
 * it is plain in typed JSON, and a "$" form becomes the wrapper of the same
 * name, so that writing the Python values back as typed JSON gives the same
 * tree. */
#include <stdlib.h>

#include "core/error_record.h"
#include "core/opts_tables.h"
#include "formats/pickle/pickle_internal.h"
#include "formats/json/json_write_internal.h"

static const char *const fixed_names[PKC_TAG0] = {
    [PKC_I8] = "I8",   [PKC_I16] = "I16",       [PKC_I32] = "I32",
    [PKC_I64] = "I64", [PKC_U8] = "U8",         [PKC_U16] = "U16",
    [PKC_U32] = "U32", [PKC_U64] = "U64",       [PKC_F32] = "F32",
    [PKC_F64] = "F64", [PKC_BOOL] = "Bool",     [PKC_UTF16] = "UTF16",
    [PKC_STR] = "Str", [PKC_ARRAY] = "Array",   [PKC_DICT] = "Dict",
    [PKC_MAP] = "Map", [PKC_OBJECT] = "Object", [PKC_OBJECT_PAIRS] = "ObjectPairs",
    [PKC_REF] = "Ref",
};

/* By tag: the Python class of a tuple or packed array of that shape, or of
 * a value carrying that engine type. A tag added to tags.h without a row
 * here is refused (the writer names it), never written wrongly. */
static const char *const tag_names[SV_TAG_COUNT] = {
    [SV_TAG_VECTOR2] = "Vector2",
    [SV_TAG_VECTOR2I] = "Vector2i",
    [SV_TAG_RECT2] = "Rect2",
    [SV_TAG_RECT2I] = "Rect2i",
    [SV_TAG_VECTOR3] = "Vector3",
    [SV_TAG_VECTOR3I] = "Vector3i",
    [SV_TAG_TRANSFORM2D] = "Transform2D",
    [SV_TAG_VECTOR4] = "Vector4",
    [SV_TAG_VECTOR4I] = "Vector4i",
    [SV_TAG_PLANE] = "Plane",
    [SV_TAG_QUATERNION] = "Quaternion",
    [SV_TAG_AABB] = "AABB",
    [SV_TAG_BASIS] = "Basis",
    [SV_TAG_TRANSFORM3D] = "Transform3D",
    [SV_TAG_PROJECTION] = "Projection",
    [SV_TAG_COLOR] = "Color",
    [SV_TAG_MATRIX3X3] = "Matrix3x3",
    [SV_TAG_MATRIX3X4] = "Matrix3x4",
    [SV_TAG_MATRIX4X4] = "Matrix4x4",
    [SV_TAG_EULER] = "Euler",
    [SV_TAG_PACKED_VECTOR2] = "PackedVector2",
    [SV_TAG_PACKED_VECTOR3] = "PackedVector3",
    [SV_TAG_PACKED_COLOR] = "PackedColor",
    [SV_TAG_PACKED_VECTOR4] = "PackedVector4",
    [SV_TAG_STRING_NAME] = "StringName",
    [SV_TAG_NODE_PATH] = "NodePath",
    [SV_TAG_RID] = "RID",
    [SV_TAG_CALLABLE] = "Callable",
    [SV_TAG_SIGNAL] = "Signal",
    [SV_TAG_OBJECT_ID] = "ObjectID",
    [SV_TAG_DATETIME] = "DateTime",
    [SV_TAG_OBJECTID] = "BsonObjectId",
    [SV_TAG_REGEX] = "Regex",
    [SV_TAG_TIMESTAMP] = "Timestamp",
    [SV_TAG_DECIMAL128] = "Decimal128",
    [SV_TAG_MINKEY] = "MinKey",
    [SV_TAG_MAXKEY] = "MaxKey",
    [SV_TAG_UUID] = "UUID",
    [SV_TAG_ENUM] = "Enum",
    [SV_TAG_URL] = "URL",
    [SV_TAG_CHAR] = "Char",
    [SV_TAG_TRANSFORM] = "Transform",
    [SV_TAG_COLOR_ARGB] = "ColorARGB",
    [SV_TAG_EXT_RESOURCE] = "ExtResource",
    [SV_TAG_SUB_RESOURCE] = "SubResource",
};

static const char *const elem_names[SV_ELEM_COUNT] = {
    [SV_ELEM_U8] = "U8s",   [SV_ELEM_I8] = "I8s",   [SV_ELEM_U16] = "U16s", [SV_ELEM_I16] = "I16s",
    [SV_ELEM_U32] = "U32s", [SV_ELEM_I32] = "I32s", [SV_ELEM_U64] = "U64s", [SV_ELEM_I64] = "I64s",
    [SV_ELEM_F32] = "F32s", [SV_ELEM_F64] = "F64s",
};

const char *sv__pickle_pk_class_name(unsigned c)
{
    if (c < PKC_TAG0) return fixed_names[c];
    if (c < PKC_ELEM0) return tag_names[c - PKC_TAG0];
    if (c < PKC_COUNT) return elem_names[c - PKC_ELEM0];
    return NULL;
}

/* ---- opcodes -------------------------------------------------------------- */

sv_status sv__pickle_pk_nomem(sv_pk *w)
{
    return sv_error_set(w->err, SV_ERR_NOMEM, SV_PK_FORMAT, 0,
                        "cannot grow the output beyond %zu bytes", w->b->len);
}

sv_status sv__pickle_pk_malformed(sv_pk *w, const char *what, const sv_value *v)
{
    return sv_error_set(w->err, SV_ERR_TYPE, SV_PK_FORMAT, 0, "malformed tree: %s (kind %s)", what,
                        sv_kind_name((sv_kind)v->kind));
}

bool sv__pickle_pk_op(sv_pk *w, uint8_t op)
{
    uint8_t *p = sv__pickle_pk_room(w, 1);
    if (!p) return false;
    *p++ = op;
    sv__pickle_pk_done(w, p);
    return true;
}

bool sv__pickle_pk_int(sv_pk *w, int64_t i)
{
    uint8_t *p = sv__pickle_pk_room(w, 10);
    if (!p) return false;
    if (i >= 0 && i < 256) {
        *p++ = PK_BININT1;
        *p++ = (uint8_t)i;
    } else if (i >= 0 && i < 65536) {
        *p++ = PK_BININT2;
        p = sv__pickle_pk_le(p, (uint64_t)i, 2);
    } else if (i >= INT32_MIN && i <= INT32_MAX) {
        *p++ = PK_BININT;
        p = sv__pickle_pk_le(p, (uint64_t)i, 4);
    } else {
        /* LONG1: little-endian two's complement, as few bytes as keep the sign */
        int n = 8;
        uint64_t u = (uint64_t)i;
        while (n > 1) {
            uint8_t top = (uint8_t)(u >> (8 * (n - 1))), next = (uint8_t)(u >> (8 * (n - 2)));
            if ((top == 0 && !(next & 0x80)) || (top == 0xFF && (next & 0x80)))
                n--;
            else
                break;
        }
        *p++ = PK_LONG1;
        *p++ = (uint8_t)n;
        p = sv__pickle_pk_le(p, u, n);
    }
    sv__pickle_pk_done(w, p);
    return true;
}

bool sv__pickle_pk_uint(sv_pk *w, uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX) return sv__pickle_pk_int(w, (int64_t)u);
    uint8_t *p = sv__pickle_pk_room(w, 11);
    if (!p) return false;
    *p++ = PK_LONG1;
    *p++ = 9; /* eight bytes and a zero byte: positive */
    p = sv__pickle_pk_le(p, u, 8);
    *p++ = 0;
    sv__pickle_pk_done(w, p);
    return true;
}

bool sv__pickle_pk_f64_bits(sv_pk *w, uint64_t bits)
{
    uint8_t *p = sv__pickle_pk_room(w, 9);
    if (!p) return false;
    *p++ = PK_BINFLOAT; /* big-endian */
    for (int i = 7; i >= 0; i--) *p++ = (uint8_t)(bits >> (8 * i));
    sv__pickle_pk_done(w, p);
    return true;
}

uint64_t sv__pickle_pk_f32_as_f64(uint32_t bits)
{
    if ((bits & 0x7f800000u) != 0x7f800000u) {
        float f;
        memcpy(&f, &bits, 4);
        double d = (double)f; /* exact */
        uint64_t out;
        memcpy(&out, &d, 8);
        return out;
    }
    /* infinity or NaN: the same sign and payload, moved to the top of the
     * double's mantissa; the bindings take the float32 back the same way */
    return (uint64_t)(bits >> 31) << 63 | UINT64_C(0x7ff0000000000000) |
           (uint64_t)(bits & 0x007fffffu) << 29;
}

static bool sized(sv_pk *w, uint8_t op1, uint8_t op4, uint8_t op8, const void *s, size_t len)
{
    uint8_t *p = sv__pickle_pk_room(w, 9 + len);
    if (!p) return false;
    if (len < 256) {
        *p++ = op1;
        *p++ = (uint8_t)len;
    } else if (len <= UINT32_MAX) {
        *p++ = op4;
        p = sv__pickle_pk_le(p, len, 4);
    } else {
        *p++ = op8;
        p = sv__pickle_pk_le(p, len, 8);
    }
    if (len) memcpy(p, s, len);
    sv__pickle_pk_done(w, p + len);
    return true;
}

bool sv__pickle_pk_unicode(sv_pk *w, const char *s, size_t len)
{
    /* the unpickler decodes with "surrogatepass": WTF-8 lone surrogates of a
     * string from UTF-16 come out as the same surrogate code points */
    return sized(w, PK_SHORT_BINUNICODE, PK_BINUNICODE, PK_BINUNICODE8, s, len);
}

bool sv__pickle_pk_bytes(sv_pk *w, const void *s, size_t len)
{
    return sized(w, PK_SHORT_BINBYTES, PK_BINBYTES, PK_BINBYTES8, s, len);
}

bool sv__pickle_pk_get(sv_pk *w, uint32_t i)
{
    uint8_t *p = sv__pickle_pk_room(w, 5);
    if (!p) return false;
    if (i < 256) {
        *p++ = PK_BINGET;
        *p++ = (uint8_t)i;
    } else {
        *p++ = PK_LONG_BINGET;
        p = sv__pickle_pk_le(p, i, 4);
    }
    sv__pickle_pk_done(w, p);
    return true;
}

sv_status sv__pickle_pk_class(sv_pk *w, unsigned c)
{
    if (w->cls_memo[c] >= 0)
        return sv__pickle_pk_get(w, (uint32_t)w->cls_memo[c]) ? SV_OK : sv__pickle_pk_nomem(w);
    const char *name = sv__pickle_pk_class_name(c);
    if (!name)
        return sv_error_set(w->err, SV_ERR_UNSUPPORTED, SV_PK_FORMAT, 0,
                            "no Python class for this value (class %u)", c);
    if (!sv__pickle_pk_unicode(w, w->module, w->module_len) ||
        !sv__pickle_pk_unicode(w, name, strlen(name)) || !sv__pickle_pk_op(w, PK_STACK_GLOBAL) ||
        !sv__pickle_pk_op(w, PK_MEMOIZE))
        return sv__pickle_pk_nomem(w);
    w->cls_memo[c] = w->memo_next++;
    return SV_OK;
}

bool sv__pickle_pk_state_begin(sv_pk *w, const char *name)
{
    return sv__pickle_pk_op(w, PK_EMPTY_DICT) && sv__pickle_pk_op(w, PK_MARK) &&
           sv__pickle_pk_unicode(w, name, strlen(name));
}

bool sv__pickle_pk_state_end(sv_pk *w)
{
    return sv__pickle_pk_op(w, PK_SETITEMS) && sv__pickle_pk_op(w, PK_BUILD);
}

/* ---- frames ------------------------------------------------------------- */

static bool frame_open(sv_pk *w)
{
    uint8_t *p = sv__pickle_pk_room(w, 9);
    if (!p) return false;
    w->frame_at = w->b->len;
    *p = PK_FRAME;
    memset(p + 1, 0, 8);
    sv__pickle_pk_done(w, p + 9);
    return true;
}

static void frame_close(sv_pk *w)
{
    sv__pickle_pk_le(w->b->data + w->frame_at + 1, w->b->len - w->frame_at - 9, 8);
}

/* Called where a value starts (an opcode boundary). */
static inline bool frame_check(sv_pk *w)
{
    if (w->b->len - w->frame_at < SV_PK_FRAME_SIZE) return true;
    frame_close(w);
    return frame_open(w);
}

/* ---- scalars and strings ------------------------------------------------- */

/* cls(x): the class, x (already written by the caller after this), then
 * TUPLE1 NEWOBJ in wrap_end. NEWOBJ calls cls.__new__(cls, x): the wrappers
 * of ints, floats, strings and bytes are subclasses of those types. */
static sv_status wrap_end(sv_pk *w, bool ok, uint8_t how)
{
    if (!ok || !sv__pickle_pk_op(w, PK_TUPLE1) || !sv__pickle_pk_op(w, how))
        return sv__pickle_pk_nomem(w);
    return SV_OK;
}

static sv_status write_int(sv_pk *w, const sv_value *v)
{
    static const uint8_t by_width[9] = {0, PKC_I8, PKC_I16, 0, PKC_I32, 0, 0, 0, PKC_I64};
    unsigned width = v->sub;
    if (width != 1 && width != 2 && width != 4 && width != 8)
        return sv__pickle_pk_malformed(w, "an int whose width is not 1, 2, 4 or 8", v);
    int64_t i = v->as.i;
    if (width < 8) {
        int64_t lim = (int64_t)1 << (8 * width - 1);
        if (i < -lim || i >= lim)
            return sv_error_set(w->err, SV_ERR_RANGE, SV_PK_FORMAT, 0,
                                "malformed tree: %lld does not fit an int of %u bytes",
                                (long long)i, width);
    }
    if (width == 8 && !(v->flags & SV_F_EXPLICIT))
        return sv__pickle_pk_int(w, i) ? SV_OK : sv__pickle_pk_nomem(w);
    sv_status st = sv__pickle_pk_class(w, by_width[width]);
    if (st) return st;
    return wrap_end(w, sv__pickle_pk_int(w, i), PK_NEWOBJ);
}

static sv_status write_uint(sv_pk *w, const sv_value *v)
{
    static const uint8_t by_width[9] = {0, PKC_U8, PKC_U16, 0, PKC_U32, 0, 0, 0, PKC_U64};
    unsigned width = v->sub;
    if (width != 1 && width != 2 && width != 4 && width != 8)
        return sv__pickle_pk_malformed(w, "a uint whose width is not 1, 2, 4 or 8", v);
    uint64_t u = v->as.u;
    if (width < 8 && (u >> (8 * width)) != 0)
        return sv_error_set(w->err, SV_ERR_RANGE, SV_PK_FORMAT, 0,
                            "malformed tree: %llu does not fit a uint of %u bytes",
                            (unsigned long long)u, width);
    /* plain only above int64's range, where a Python int reads back as a uint */
    if (width == 8 && !(v->flags & SV_F_EXPLICIT) && u > (uint64_t)INT64_MAX)
        return sv__pickle_pk_uint(w, u) ? SV_OK : sv__pickle_pk_nomem(w);
    sv_status st = sv__pickle_pk_class(w, by_width[width]);
    if (st) return st;
    return wrap_end(w, sv__pickle_pk_uint(w, u), PK_NEWOBJ);
}

static sv_status write_float(sv_pk *w, const sv_value *v)
{
    if (v->sub == 8) {
        uint64_t bits;
        memcpy(&bits, &v->as.f64, 8);
        bool finite = (bits & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
        if (finite && !(v->flags & SV_F_EXPLICIT))
            return sv__pickle_pk_f64_bits(w, bits) ? SV_OK : sv__pickle_pk_nomem(w);
        sv_status st = sv__pickle_pk_class(w, PKC_F64);
        if (st) return st;
        return wrap_end(w, sv__pickle_pk_f64_bits(w, bits), PK_NEWOBJ);
    }
    if (v->sub != 4) return sv__pickle_pk_malformed(w, "a float whose width is not 4 or 8", v);
    uint32_t bits;
    memcpy(&bits, &v->as.f32, 4);
    sv_status st = sv__pickle_pk_class(w, PKC_F32);
    if (st) return st;
    return wrap_end(w, sv__pickle_pk_f64_bits(w, sv__pickle_pk_f32_as_f64(bits)), PK_NEWOBJ);
}

static sv_status write_bool(sv_pk *w, const sv_value *v)
{
    if (v->len) {
        /* a stored value other than 0 and 1: Bool(raw), an int subclass */
        if (!v->as.b) return sv__pickle_pk_malformed(w, "a false bool with a stored value", v);
        sv_status st = sv__pickle_pk_class(w, PKC_BOOL);
        if (st) return st;
        return wrap_end(w, sv__pickle_pk_uint(w, v->len), PK_NEWOBJ);
    }
    return sv__pickle_pk_op(w, v->as.b ? PK_NEWTRUE : PK_NEWFALSE) ? SV_OK : sv__pickle_pk_nomem(w);
}

static sv_status write_string(sv_pk *w, const sv_value *v)
{
    if (!v->as.str && v->len) return sv__pickle_pk_malformed(w, "a string without storage", v);
    if (v->flags & SV_F_UTF16) {
        if (!sv__json_jw_text_ok(v->as.str, v->len, true))
            return sv_error_set(w->err, SV_ERR_UTF8, SV_PK_FORMAT, 0,
                                "malformed tree: a string from UTF-16 that is not WTF-8");
        sv_status st = sv__pickle_pk_class(w, PKC_UTF16);
        if (st) return st;
        return wrap_end(w, sv__pickle_pk_unicode(w, v->as.str, v->len), PK_NEWOBJ);
    }
    if (sv__json_jw_text_ok(v->as.str, v->len, false))
        return sv__pickle_pk_unicode(w, v->as.str, v->len) ? SV_OK : sv__pickle_pk_nomem(w);
    /* not UTF-8 (a Godot 3 string with a lone surrogate, a stray byte): its
     * bytes, as Str, a bytes subclass */
    sv_status st = sv__pickle_pk_class(w, PKC_STR);
    if (st) return st;
    return wrap_end(w, sv__pickle_pk_bytes(w, v->as.str, v->len), PK_NEWOBJ);
}

static sv_status write_bytes(sv_pk *w, const sv_value *v)
{
    if (!v->as.bytes && v->len) return sv__pickle_pk_malformed(w, "bytes without storage", v);
    return sv__pickle_pk_bytes(w, v->as.bytes, v->len) ? SV_OK : sv__pickle_pk_nomem(w);
}

static sv_status write_ref(sv_pk *w, const sv_value *v)
{
    sv_status st = sv__pickle_pk_class(w, PKC_REF);
    if (st) return st;
    bool ok =
        (v->flags & SV_F_NULLREF) ? sv__pickle_pk_op(w, PK_NONE) : sv__pickle_pk_uint(w, v->as.u);
    return wrap_end(w, ok, PK_REDUCE);
}

static sv_status write_untagged(sv_pk *w, const sv_value *v)
{
    switch (v->kind) {
    case SV_NULL: return sv__pickle_pk_op(w, PK_NONE) ? SV_OK : sv__pickle_pk_nomem(w);
    case SV_BOOL: return write_bool(w, v);
    case SV_INT: return write_int(w, v);
    case SV_UINT: return write_uint(w, v);
    case SV_FLOAT: return write_float(w, v);
    case SV_STRING: return write_string(w, v);
    case SV_BYTES: return write_bytes(w, v);
    case SV_ARRAY: return sv__pickle_pk_array(w, v);
    case SV_MAP: return sv__pickle_pk_map(w, v);
    case SV_OBJECT: return sv__pickle_pk_object(w, v);
    case SV_TUPLE: return sv__pickle_pk_tuple(w, v);
    case SV_PACKED: return sv__pickle_pk_packed(w, v);
    case SV_REF: return write_ref(w, v);
    default:
        return sv_error_set(w->err, SV_ERR_TYPE, SV_PK_FORMAT, 0, "malformed tree: unknown kind %u",
                            (unsigned)v->kind);
    }
}

sv_status sv__pickle_pk_value(sv_pk *w, const sv_value *v)
{
    if (!frame_check(w)) return sv__pickle_pk_nomem(w);
    unsigned tag = v->tag, kind = v->kind;
    if (tag == 0) return write_untagged(w, v);
    if (tag >= SV_TAG_COUNT)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_PK_FORMAT, 0, "malformed tree: unknown tag %u",
                            tag);
    sv_kind tkind = sv_tag_kind((sv_tag)tag);
    /* a shape is part of the tuple's or packed array's own class */
    if (kind == SV_TUPLE || (kind == SV_PACKED && tkind == SV_PACKED)) return write_untagged(w, v);
    if (tkind != SV_KIND_COUNT && tkind != kind)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_PK_FORMAT, 0,
                            "malformed tree: tag %s does not apply to a %s",
                            sv_tag_name((sv_tag)tag), sv_kind_name((sv_kind)kind));
    /* Tag(value): the wrapper of the engine type around the untagged value */
    sv_status st = sv__pickle_pk_class(w, PKC_TAG0 + tag);
    if (st) return st;
    sv_value inner = *v;
    inner.tag = 0;
    if ((st = write_untagged(w, &inner)) != SV_OK) return st;
    return wrap_end(w, true, PK_REDUCE);
}

/* ---- entry point ---------------------------------------------------------- */

SV_OPTS_TABLE(sv__opts_pickle, sv_pickle_opts, SV_OPTS_END(sv_pickle_opts, limits),
              SV_OPTS_END(sv_pickle_opts, module));

void sv_pickle_opts_init(sv_pickle_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

sv_status sv_pickle_encode(const sv_value *v, const char *module, sv_buf *out, sv_error *err)
{
    sv_pickle_opts o;
    sv_pickle_opts_init(&o);
    o.module = module;
    return sv_pickle_write(v, &o, out, err);
}

sv_status sv_pickle_write(const sv_value *v, const sv_pickle_opts *opts, sv_buf *out, sv_error *err)
{
    sv_error_clear(err);
    sv_pickle_opts o;
    sv_pickle_opts_init(&o);
    sv_status ost = sv__core_opts_read(&sv__opts_pickle, &o, opts, SV_PK_FORMAT, err);
    if (ost != SV_OK) return ost;
    if (!v || !out)
        return sv_error_set(err, SV_ERR_USAGE, SV_PK_FORMAT, 0, "no value or no output buffer");
    const char *module = o.module ? o.module : "serval";
    size_t module_len = strlen(module);
    if (!module_len || module_len > 255)
        return sv_error_set(err, SV_ERR_USAGE, SV_PK_FORMAT, 0,
                            "the module name must be 1 to 255 bytes");
    if (!sv_buf_ok(out))
        return sv_error_set(err, SV_ERR_NOMEM, SV_PK_FORMAT, 0, "cannot allocate the output");
    sv_pk *w = (sv_pk *)calloc(1, sizeof *w);
    if (!w) return sv_error_set(err, SV_ERR_NOMEM, SV_PK_FORMAT, 0, "cannot allocate the writer");
    w->b = out;
    w->err = err;
    w->module = module;
    w->module_len = module_len;
    w->max_depth = o.limits.max_depth && o.limits.max_depth < SV_MAX_DEPTH_LIMIT
                       ? o.limits.max_depth
                       : SV_MAX_DEPTH_LIMIT;
    for (size_t i = 0; i < PKC_COUNT; i++) w->cls_memo[i] = -1;
    size_t start = out->len;
    sv_status st = SV_OK;
    uint8_t *p = sv__pickle_pk_room(w, 2);
    if (!p) {
        st = sv__pickle_pk_nomem(w);
    } else {
        p[0] = PK_PROTO;
        p[1] = 4;
        sv__pickle_pk_done(w, p + 2);
        if (!frame_open(w)) st = sv__pickle_pk_nomem(w);
    }
    if (st == SV_OK) st = sv__pickle_pk_value(w, v);
    if (st == SV_OK && !sv__pickle_pk_op(w, PK_STOP)) st = sv__pickle_pk_nomem(w);
    if (st == SV_OK) frame_close(w);
    if (st != SV_OK) out->len = start;
    free(w->slots);
    free(w);
    return st;
}
