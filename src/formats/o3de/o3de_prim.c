/* Booleans, integers, floats, strings and byte streams: O3DE's conversions
 * between JSON types and the exact range checks. docs/formats/o3de.md, "What serval follows", Conversions. */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base64.h"
#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define CV SV_O3DE_CONVERT
#define WV SV_O3DE_WRITE_VALUE

static bool prim_is_int(sv_prim p)
{
    return sv_prim_int_width(p) != 0;
}

static sv_value make_int(sv_prim p, int64_t i, uint64_t u)
{
    int w = sv_prim_int_width(p);
    return sv_prim_is_signed(p) ? sv_int_w(i, w) : sv_uint_w(u, w);
}

static void int_range(sv_prim p, int64_t *lo, uint64_t *hi)
{
    int w = sv_prim_int_width(p);
    if (sv_prim_is_signed(p)) {
        *lo = w == 8 ? INT64_MIN : -((int64_t)1 << (w * 8 - 1));
        *hi = w == 8 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (w * 8 - 1)) - 1;
    } else {
        *lo = 0;
        *hi = w == 8 ? UINT64_MAX : ((uint64_t)1 << (w * 8)) - 1;
    }
}

static o3_res cast_fail(o3_ctx *c, const char *from, sv_prim to)
{
    return o3_report(c, o3_r(CV, SV_O3DE_UNSUPPORTED),
                     "Casted value could not be fitted in destination type %s -> %s", from,
                     sv_prim_name(to));
}

/* JsonNumericCast from a signed, unsigned or double source (o3de.md, "What serval follows",
 * Conversions): Convert/Success or Convert/Unsupported with the target untouched. */
static o3_res cast_i64(o3_ctx *c, sv_prim p, int64_t v, sv_value *out)
{
    int64_t lo;
    uint64_t hi;
    int_range(p, &lo, &hi);
    if (v < lo || (v > 0 && (uint64_t)v > hi)) return cast_fail(c, "int64", p);
    *out = make_int(p, v, (uint64_t)v);
    return o3_r(CV, SV_O3DE_SUCCESS);
}

static o3_res cast_u64(o3_ctx *c, sv_prim p, uint64_t v, sv_value *out)
{
    int64_t lo;
    uint64_t hi;
    int_range(p, &lo, &hi);
    if (v > hi) return cast_fail(c, "uint64", p);
    *out = make_int(p, (int64_t)v, v);
    return o3_r(CV, SV_O3DE_SUCCESS);
}

static o3_res cast_f64(o3_ctx *c, sv_prim p, double v, sv_value *out)
{
    int64_t lo;
    uint64_t hi;
    int_range(p, &lo, &hi);
    /* rejected when above (double)max or below (double)lowest; the 64-bit
     * maxima round up to 2^63 / 2^64, which no integer holds */
    double dhi = (double)hi, dlo = (double)lo;
    if (!(v <= dhi) || v < dlo || (sv_prim_int_width(p) == 8 && v >= dhi))
        return cast_fail(c, "double", p);
    double t = trunc(v);
    if (sv_prim_is_signed(p))
        *out = make_int(p, (int64_t)t, 0);
    else
        *out = make_int(p, 0, (uint64_t)t);
    return o3_r(CV, SV_O3DE_SUCCESS);
}

static o3_res load_int_number(o3_ctx *c, sv_prim p, const sv_value *j, sv_value *out)
{
    o3_res r;
    if (j->kind == SV_INT)
        r = cast_i64(c, p, j->as.i, out);
    else if (j->kind == SV_FLOAT)
        r = cast_f64(c, p, j->as.f64, out);
    else
        r = cast_u64(c, p, j->as.u, out);
    return o3_report(c, r,
                     o3_out(r) == SV_O3DE_SUCCESS
                         ? "Successfully read integer value from number field."
                         : "Failed to read integer value from number field.");
}

/* strtoll/strtoull with base 0 (so "0x1F" is 31 and "010" is 8), trailing
 * text ignored (o3de.md, "What serval follows", Conversions). */
static o3_res load_int_text(o3_ctx *c, sv_prim p, const char *s, sv_value *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (end == s)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Failed to extract an integer from the string.");
    if (sv_prim_is_signed(p)) {
        if (errno == ERANGE)
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "Integer is too big or too small to fit in the target.");
        o3_res r = cast_i64(c, p, v, out);
        return o3_report(c, r, "Successfully read integer value from string.");
    }
    if (v < 0 && errno != ERANGE)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Unable to read negative integer into an unsigned integer.");
    if (v < 0)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Integer is too big or too small to fit in the target.");
    errno = 0;
    unsigned long long u = strtoull(s, &end, 0);
    if (errno == ERANGE)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Integer is too big or too small to fit in the target.");
    o3_res r = cast_u64(c, p, u, out);
    return o3_report(c, r, "Successfully read integer value from string.");
}

static o3_res load_bool(o3_ctx *c, const sv_value *j, sv_value *out)
{
    switch (sv_kind_of(j)) {
    case SV_BOOL:
        *out = sv_bool(j->as.b);
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read boolean.");
    case SV_INT: *out = sv_bool(j->as.i != 0); break;
    case SV_UINT: *out = sv_bool(j->as.u != 0); break;
    case SV_FLOAT: *out = sv_bool(j->as.f64 != 0.0); break;
    case SV_STRING: {
        size_t n = j->len;
        const char *s = j->as.str;
        if (n == 0)
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "The string used to read a boolean from was empty.");
        if (n == 4 && strncasecmp(s, "true", 4) == 0) {
            *out = sv_bool(true);
            return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read boolean from string.");
        }
        if (n == 5 && strncasecmp(s, "false", 5) == 0) {
            *out = sv_bool(false);
            return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read boolean from string.");
        }
        /* any integer prefix counts, overflow ignored: "0.5" is false */
        char *end;
        long long v = strtoll(s, &end, 0);
        if (end == s)
            return o3_rep(
                c, RF, SV_O3DE_UNSUPPORTED,
                "The string didn't contain anything that can be interpreted as a boolean.");
        *out = sv_bool(v != 0);
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read boolean from string with number.");
    }
    default:
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Unsupported type. Booleans can't be read from arrays, objects or null.");
    }
    return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read boolean from number.");
}

static sv_value make_float(sv_prim p, double d)
{
    return p == SV_PRIM_F32 ? sv_f32((float)d) : sv_f64(d);
}

static o3_res load_float(o3_ctx *c, sv_prim p, const sv_value *j, sv_value *out)
{
    double d;
    switch (sv_kind_of(j)) {
    case SV_BOOL:
        *out = make_float(p, j->as.b ? 1.0 : 0.0);
        return o3_rep(c, RF, SV_O3DE_SUCCESS,
                      "Successfully converted boolean to floating point value.");
    case SV_INT: d = (double)j->as.i; break;
    case SV_UINT: d = (double)j->as.u; break;
    case SV_FLOAT: d = j->as.f64; break;
    case SV_STRING: {
        char *end;
        errno = 0;
        d = strtod(j->as.str, &end);
        if (end == j->as.str)
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "Failed to extract a floating point number from the string.");
        if (errno == ERANGE)
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "Floating point number is too big or too small to fit in the target.");
        break;
    }
    default:
        return o3_rep(
            c, RF, SV_O3DE_UNSUPPORTED,
            "Unsupported type. Floating point values can't be read from arrays, objects or null.");
    }
    if (p == SV_PRIM_F32 && (d > FLT_MAX || d < -FLT_MAX))
        return o3_report(c, cast_fail(c, "double", p), "Failed to read floating point value.");
    *out = make_float(p, d);
    return o3_rep(c, CV, SV_O3DE_SUCCESS, "Successfully read floating point value.");
}

static o3_res load_string(o3_ctx *c, const sv_value *j, sv_value *out)
{
    char num[64];
    int n;
    switch (sv_kind_of(j)) {
    case SV_STRING: *out = *j; return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read string.");
    case SV_BOOL: n = snprintf(num, sizeof num, "%s", j->as.b ? "True" : "False"); break;
    case SV_INT: n = snprintf(num, sizeof num, "%" PRId64, j->as.i); break;
    case SV_UINT: n = snprintf(num, sizeof num, "%" PRIu64, j->as.u); break;
    case SV_FLOAT: {
        /* "%f" of a huge double is up to 317 characters */
        char big[400];
        n = snprintf(big, sizeof big, "%f", j->as.f64);
        *out = sv_str(c->doc, big, (size_t)n);
        if (out->kind != SV_STRING) o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read string from number.");
    }
    default:
        return o3_rep(
            c, RF, SV_O3DE_UNSUPPORTED,
            "Unsupported type. String values can't be read from arrays, objects or null.");
    }
    *out = sv_str(c->doc, num, (size_t)n);
    if (out->kind != SV_STRING) o3_fail(c, SV_ERR_NOMEM, "out of memory");
    return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read string.");
}

static o3_res load_bytes(o3_ctx *c, const sv_value *j, sv_value *out)
{
    if (sv_kind_of(j) != SV_STRING)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Byte streams can only be read from strings.");
    size_t cap = j->len / 4 * 3 + 3, n = 0, pos = 0;
    sv_value b = sv_bytes_uninit(c->doc, cap);
    if (b.kind != SV_BYTES) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return o3_r(RF, SV_O3DE_CATASTROPHIC);
    }
    if (!sv__core_base64_decode(j->as.str, j->len, sv_value_buf(&b), &n, &pos))
        return o3_rep(c, RF, SV_O3DE_INVALID, "Failed to decode base64 text of a byte stream.");
    b.len = (uint32_t)n;
    *out = b;
    return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read byte stream.");
}

o3_res o3_load_prim(o3_ctx *c, sv_prim p, const sv_value *j, const sv_value *cur, sv_value *out)
{
    *out = *cur;
    if (p == SV_PRIM_BOOL) return load_bool(c, j, out);
    if (prim_is_int(p)) {
        switch (sv_kind_of(j)) {
        case SV_BOOL:
            *out = make_int(p, j->as.b, j->as.b);
            return o3_rep(c, RF, SV_O3DE_SUCCESS,
                          "Successfully converted boolean to integer value.");
        case SV_INT:
        case SV_UINT:
        case SV_FLOAT: return load_int_number(c, p, j, out);
        case SV_STRING: return load_int_text(c, p, j->as.str, out);
        default:
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "Unsupported type. Integers can't be read from arrays, objects or null.");
        }
    }
    if (p == SV_PRIM_F32 || p == SV_PRIM_F64) return load_float(c, p, j, out);
    if (p == SV_PRIM_STRING || p == SV_PRIM_WSTRING) {
        o3_res r = load_string(c, j, out);
        if (p == SV_PRIM_WSTRING && out->kind == SV_STRING) *out = sv_with_flags(*out, SV_F_UTF16);
        return r;
    }
    if (p == SV_PRIM_BYTES) return load_bytes(c, j, out);
    return o3_report(c, o3_r(RF, SV_O3DE_UNSUPPORTED),
                     "Reading into targets of type '%s' is not supported.", sv_prim_name(p));
}

/* o3de.md, "What serval follows", Load: bool, integers and strings compare with !=, floats with an
 * absolute epsilon (AZ::IsClose with numeric_limits<T>::epsilon()). */
static bool prim_is_default(sv_prim p, const sv_value *v, const sv_value *d)
{
    if (!d) return false;
    if (p == SV_PRIM_BOOL) return sv_get_bool(v) == sv_get_bool(d);
    if (prim_is_int(p))
        return sv_prim_is_signed(p) ? sv_get_int(v) == sv_get_int(d)
                                    : sv_get_uint(v) == sv_get_uint(d);
    if (p == SV_PRIM_F32) {
        float a = (float)sv_get_f64(v), b = (float)sv_get_f64(d);
        return fabsf(a - b) <= FLT_EPSILON;
    }
    if (p == SV_PRIM_F64) return fabs(sv_get_f64(v) - sv_get_f64(d)) <= DBL_EPSILON;
    size_t la, lb;
    const char *a = sv_get_str(v, &la), *b = sv_get_str(d, &lb);
    return la == lb && memcmp(a, b, la) == 0;
}

o3_res o3_store_prim(o3_ctx *c, sv_prim p, const sv_value *v, const sv_value *def, sv_value *j)
{
    /* IntSerializer.cpp's texts; the other kinds have serval's own */
    if (!c->keep_defaults && prim_is_default(p, v, def))
        return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED,
                      prim_is_int(p) ? "Skipped integer value because default was used."
                                     : "Default value used.");
    if (p == SV_PRIM_BOOL) {
        *j = sv_bool(sv_get_bool(v));
    } else if (prim_is_int(p)) {
        *j = sv_prim_is_signed(p) ? sv_int(sv_get_int(v)) : sv_uint(sv_get_uint(v));
    } else if (p == SV_PRIM_F32) {
        *j = sv_f64((double)(float)sv_get_f64(v)); /* widened, as SetDouble((double)f) */
    } else if (p == SV_PRIM_F64) {
        *j = sv_f64(sv_get_f64(v));
    } else if (p == SV_PRIM_STRING || p == SV_PRIM_WSTRING) {
        size_t n;
        const char *s = sv_get_str(v, &n);
        *j = sv_str(c->doc, s, n);
    } else if (p == SV_PRIM_BYTES) {
        size_t n;
        const char *s = sv_get_str(v, &n);
        size_t m = sv__core_base64_encoded_len(n);
        *j = sv_str_uninit(c->doc, m);
        if (j->kind == SV_STRING) sv__core_base64_encode((const uint8_t *)s, n, sv_value_buf(j));
    } else {
        return o3_report(c, o3_r(WV, SV_O3DE_UNSUPPORTED),
                         "Storing values of type '%s' is not supported.", sv_prim_name(p));
    }
    if (c->doc && sv_doc_status(c->doc) != SV_OK)
        o3_fail(c, sv_doc_status(c->doc), "out of memory");
    return o3_rep(c, WV, SV_O3DE_SUCCESS,
                  prim_is_int(p) ? "Successfully stored integer value."
                                 : "Successfully stored value.");
}
