/* The pickle writer: math tuples and packed arrays.
 *
 * A tuple is an instance of its shape's class (serval.Vector3, ...), a list
 * subclass holding the numbers; a packed array with a shape is one of
 * PackedVector2/3/4 or PackedColor, a list subclass of one list per item;
 * one without a shape is a list subclass named after its element type
 * (serval.F32s, serval.U16s, ...). Floats are Python floats with the exact
 * bits (a float32 moved into a double, NaN payloads kept); an element type
 * other than the shape's default goes into the instance's `elem`. */
#include "formats/pickle/pickle_internal.h"

static bool number(sv_pk *w, const uint8_t *d, unsigned elem)
{
    switch (elem) {
    case SV_ELEM_U8: return sv__pickle_pk_int(w, d[0]);
    case SV_ELEM_I8: return sv__pickle_pk_int(w, (int8_t)d[0]);
    case SV_ELEM_U16: {
        uint16_t x;
        memcpy(&x, d, 2);
        return sv__pickle_pk_int(w, x);
    }
    case SV_ELEM_I16: {
        int16_t x;
        memcpy(&x, d, 2);
        return sv__pickle_pk_int(w, x);
    }
    case SV_ELEM_U32: {
        uint32_t x;
        memcpy(&x, d, 4);
        return sv__pickle_pk_int(w, x);
    }
    case SV_ELEM_I32: {
        int32_t x;
        memcpy(&x, d, 4);
        return sv__pickle_pk_int(w, x);
    }
    case SV_ELEM_U64: {
        uint64_t x;
        memcpy(&x, d, 8);
        return sv__pickle_pk_uint(w, x);
    }
    case SV_ELEM_I64: {
        int64_t x;
        memcpy(&x, d, 8);
        return sv__pickle_pk_int(w, x);
    }
    case SV_ELEM_F32: {
        uint32_t x;
        memcpy(&x, d, 4);
        return sv__pickle_pk_f64_bits(w, sv__pickle_pk_f32_as_f64(x));
    }
    default: { /* SV_ELEM_F64 (the callers check the type) */
        uint64_t x;
        memcpy(&x, d, 8);
        return sv__pickle_pk_f64_bits(w, x);
    }
    }
}

/* MARK n numbers APPENDS */
static bool numbers(sv_pk *w, const uint8_t *d, size_t n, unsigned elem)
{
    if (n == 0) return true;
    size_t size = sv_elem_size((sv_elem)elem);
    if (!sv__pickle_pk_op(w, PK_MARK)) return false;
    for (size_t i = 0; i < n; i++)
        if (!number(w, d + i * size, elem)) return false;
    return sv__pickle_pk_op(w, PK_APPENDS);
}

static sv_status new_empty(sv_pk *w, unsigned cls)
{
    sv_status st = sv__pickle_pk_class(w, cls);
    if (st) return st;
    return sv__pickle_pk_op(w, PK_EMPTY_TUPLE) && sv__pickle_pk_op(w, PK_NEWOBJ)
               ? SV_OK
               : sv__pickle_pk_nomem(w);
}

/* {'elem': 'f64'} BUILD, when the type is not the shape's default */
static sv_status elem_state(sv_pk *w, unsigned elem, unsigned def)
{
    if (elem == def) return SV_OK;
    const char *name = sv_elem_name((sv_elem)elem);
    if (!sv__pickle_pk_state_begin(w, "elem") || !sv__pickle_pk_unicode(w, name, strlen(name)) ||
        !sv__pickle_pk_state_end(w))
        return sv__pickle_pk_nomem(w);
    return SV_OK;
}

sv_status sv__pickle_pk_tuple(sv_pk *w, const sv_value *v)
{
    unsigned tag = v->tag, elem = v->sub;
    if (tag == 0 || tag >= SV_TAG_COUNT || sv_tag_kind((sv_tag)tag) != SV_TUPLE)
        return sv__pickle_pk_malformed(w, "a tuple without a shape tag", v);
    if (elem == SV_ELEM_NONE || elem >= SV_ELEM_COUNT)
        return sv__pickle_pk_malformed(w, "a tuple without an element type", v);
    if (v->len != sv_tag_scalars((sv_tag)tag) || !v->as.data)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_PK_FORMAT, 0,
                            "malformed tree: a %s tuple holds %u numbers, not %u",
                            sv_tag_name((sv_tag)tag), v->as.data ? (unsigned)v->len : 0u,
                            sv_tag_scalars((sv_tag)tag));
    sv_status st = new_empty(w, PKC_TAG0 + tag);
    if (st) return st;
    if (!numbers(w, v->as.data, v->len, elem)) return sv__pickle_pk_nomem(w);
    return elem_state(w, elem, sv_tag_default_elem((sv_tag)tag));
}

sv_status sv__pickle_pk_packed(sv_pk *w, const sv_value *v)
{
    unsigned tag = v->tag, elem = v->sub;
    if (elem == SV_ELEM_NONE || elem >= SV_ELEM_COUNT)
        return sv__pickle_pk_malformed(w, "a packed array without an element type", v);
    if (!v->as.data && v->len)
        return sv__pickle_pk_malformed(w, "a packed array without storage", v);
    const uint8_t *d = v->as.data;
    size_t size = sv_elem_size((sv_elem)elem);
    if (tag == 0 || sv_tag_kind((sv_tag)tag) != SV_PACKED) {
        /* no shape (a tag that is not a shape is written around it) */
        sv_status st = new_empty(w, PKC_ELEM0 + elem);
        if (st) return st;
        return numbers(w, d, v->len, elem) ? SV_OK : sv__pickle_pk_nomem(w);
    }
    unsigned k = sv_tag_scalars((sv_tag)tag);
    if (v->len % k)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_PK_FORMAT, 0,
                            "malformed tree: a %s array of %u numbers, not whole items of %u",
                            sv_tag_name((sv_tag)tag), (unsigned)v->len, k);
    sv_status st = new_empty(w, PKC_TAG0 + tag);
    if (st) return st;
    size_t items = v->len / k;
    if (items) {
        if (!sv__pickle_pk_op(w, PK_MARK)) return sv__pickle_pk_nomem(w);
        for (size_t i = 0; i < items; i++)
            if (!sv__pickle_pk_op(w, PK_EMPTY_LIST) || !numbers(w, d + i * k * size, k, elem))
                return sv__pickle_pk_nomem(w);
        if (!sv__pickle_pk_op(w, PK_APPENDS)) return sv__pickle_pk_nomem(w);
    }
    return elem_state(w, elem, sv_tag_default_elem((sv_tag)tag));
}
