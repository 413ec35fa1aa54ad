/* Reading values: NULL-safe accessors. */
#include <math.h>
#include <string.h>

#include "core/value_internal.h"

bool sv_get_bool(const sv_value *v)
{
    return v && v->kind == SV_BOOL && v->as.b;
}

uint32_t sv_bool_stored(const sv_value *v)
{
    if (!v || v->kind != SV_BOOL) return 0;
    return v->len ? v->len : (uint32_t)v->as.b;
}

static double float_of(const sv_value *v)
{
    return v->sub == 4 ? (double)v->as.f32 : v->as.f64;
}

int64_t sv_get_int(const sv_value *v)
{
    if (!v) return 0;
    switch (v->kind) {
    case SV_BOOL: return v->as.b ? 1 : 0;
    case SV_INT: return v->as.i;
    case SV_UINT: return v->as.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v->as.u;
    case SV_FLOAT: {
        double d = float_of(v);
        if (d != d) return 0;
        if (d >= 9223372036854775808.0) return INT64_MAX;
        if (d < -9223372036854775808.0) return INT64_MIN;
        return (int64_t)d;
    }
    default: return 0;
    }
}

uint64_t sv_get_uint(const sv_value *v)
{
    if (!v) return 0;
    switch (v->kind) {
    case SV_BOOL: return v->as.b ? 1 : 0;
    case SV_INT: return v->as.i < 0 ? 0 : (uint64_t)v->as.i;
    case SV_UINT: return v->as.u;
    case SV_FLOAT: {
        double d = float_of(v);
        if (!(d > 0)) return 0;
        if (d >= 18446744073709551616.0) return UINT64_MAX;
        return (uint64_t)d;
    }
    default: return 0;
    }
}

double sv_get_f64(const sv_value *v)
{
    if (!v) return 0;
    switch (v->kind) {
    case SV_INT: return (double)v->as.i;
    case SV_UINT: return (double)v->as.u;
    case SV_FLOAT: return float_of(v);
    default: return 0;
    }
}

const char *sv_get_str(const sv_value *v, size_t *len)
{
    if (!v || (v->kind != SV_STRING && v->kind != SV_BYTES)) {
        if (len) *len = 0;
        return "";
    }
    if (len) *len = v->len;
    return v->as.str;
}

sv_value *sv_array_items(const sv_value *arr)
{
    if (!arr || arr->kind != SV_ARRAY) return NULL;
    return sv__core_items(arr->as.box);
}

sv_value *sv_array_at(const sv_value *arr, size_t i)
{
    if (!arr || arr->kind != SV_ARRAY || i >= arr->len) return NULL;
    return &sv__core_items(arr->as.box)[i];
}

sv_pair *sv_pairs(const sv_value *map)
{
    if (!map || (map->kind != SV_MAP && map->kind != SV_OBJECT)) return NULL;
    if (map->as.box->layout == SV_LAYOUT_COMPACT) return NULL; /* values only */
    return sv__core_pairs(map->as.box);
}

sv_pair *sv_pair_at(const sv_value *map, size_t i)
{
    if (!map || (map->kind != SV_MAP && map->kind != SV_OBJECT) || i >= map->len) return NULL;
    if (map->as.box->layout == SV_LAYOUT_COMPACT) return NULL;
    return &sv__core_pairs(map->as.box)[i];
}

sv_value *sv_map_get(const sv_value *map, const char *key, size_t key_len)
{
    if (!map || (map->kind != SV_MAP && map->kind != SV_OBJECT) || !key) return NULL;
    for (uint32_t i = 0; i < map->len; i++) {
        const sv_value *k = sv_key_at(map, i);
        if (k->kind == SV_STRING && k->len == key_len && memcmp(k->as.str, key, key_len) == 0)
            return sv_val_at(map, i);
    }
    return NULL;
}

const sv_value *sv_meta(const sv_value *c)
{
    if (!c || (c->kind != SV_ARRAY && c->kind != SV_MAP && c->kind != SV_OBJECT)) return NULL;
    return c->as.box->meta;
}

const sv_value *sv_object_class(const sv_value *obj)
{
    if (!obj || obj->kind != SV_OBJECT) return NULL;
    return obj->as.box->cls;
}

const sv_shape *sv_object_shape(const sv_value *obj)
{
    if (!obj || !sv__core_is_compact(obj)) return NULL;
    return (const sv_shape *)(const void *)obj->as.box->cls;
}

const void *sv_numbers(const sv_value *v)
{
    if (!v || (v->kind != SV_TUPLE && v->kind != SV_PACKED)) return NULL;
    return v->as.data;
}

sv_elem sv_elem_of(const sv_value *v)
{
    if (!v || (v->kind != SV_TUPLE && v->kind != SV_PACKED)) return SV_ELEM_NONE;
    return (sv_elem)v->sub;
}

double sv_number_at(const sv_value *v, size_t i)
{
    if (!v || (v->kind != SV_TUPLE && v->kind != SV_PACKED) || i >= v->len) return 0;
    const uint8_t *p = v->as.data;
    switch ((sv_elem)v->sub) {
    case SV_ELEM_U8: return p[i];
    case SV_ELEM_I8: return (int8_t)p[i];
#define LOAD(T)                                                                                    \
    do {                                                                                           \
        T x;                                                                                       \
        memcpy(&x, p + i * sizeof x, sizeof x);                                                    \
        return (double)x;                                                                          \
    } while (0)
    case SV_ELEM_U16: LOAD(uint16_t);
    case SV_ELEM_I16: LOAD(int16_t);
    case SV_ELEM_U32: LOAD(uint32_t);
    case SV_ELEM_I32: LOAD(int32_t);
    case SV_ELEM_U64: LOAD(uint64_t);
    case SV_ELEM_I64: LOAD(int64_t);
    case SV_ELEM_F32: LOAD(float);
    case SV_ELEM_F64: LOAD(double);
#undef LOAD
    default: return 0;
    }
}
