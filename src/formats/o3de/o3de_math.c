/* Vector2/3/4, Quaternion, Color, Matrix3x3/3x4/4x4 and Transform.
 * docs/formats/o3de.md, "What serval follows", Math; the object form of matrices is in o3de_matrix.c. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "o3de_internal.h"
#include "schema/schema_internal.h" /* sv__schema_prim_tag */

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static size_t scalars(sv_prim p)
{
    switch (p) {
    case SV_PRIM_VECTOR2: return 2;
    case SV_PRIM_VECTOR3: return 3;
    case SV_PRIM_MATRIX3X3: return 9;
    case SV_PRIM_MATRIX3X4: return 12;
    case SV_PRIM_MATRIX4X4: return 16;
    case SV_PRIM_TRANSFORM: return 8;
    default: return 4;
    }
}

/* Matrices report with the texts of O3DE's MathMatrixSerializer. */
static bool is_matrix(sv_prim p)
{
    return p == SV_PRIM_MATRIX3X3 || p == SV_PRIM_MATRIX3X4 || p == SV_PRIM_MATRIX4X4;
}

static void read_floats(o3_ctx *c, sv_prim p, const sv_value *v, float *f)
{
    size_t n = scalars(p);
    if (sv_kind_of(v) != SV_TUPLE || v->len != n) {
        sv_value d = o3_default_of(c, &(sv_type){.kind = SV_TYPE_PRIM, .prim = p});
        v = &d;
        for (size_t i = 0; i < n; i++) f[i] = (float)sv_number_at(v, i);
        return;
    }
    for (size_t i = 0; i < n; i++) f[i] = (float)sv_number_at(v, i);
}

/* The tuple of p from f into *out; false (c failed) when out of memory. */
static bool make_tuple(o3_ctx *c, sv_prim p, const float *f, sv_value *out)
{
    sv_value t = sv_tuple(c->doc, sv__schema_prim_tag(p), SV_ELEM_F32, f);
    if (t.kind != SV_TUPLE) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return false;
    }
    *out = t;
    return true;
}

static o3_res finish(o3_ctx *c, sv_prim p, const float *f, sv_value *out, o3_res r, const char *msg)
{
    if (!make_tuple(c, p, f, out)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    return o3_report(c, r, "%s", msg);
}

/* One float through the float serializer: "1.5" and true are numbers too. */
static o3_res one_float(o3_ctx *c, const sv_value *j, float *dst)
{
    sv_value cur = sv_f32(*dst), nv;
    o3_res r = o3_load_prim(c, SV_PRIM_F32, j, &cur, &nv);
    if (o3_proc(r) == SV_O3DE_COMPLETED) *dst = nv.as.f32;
    return r;
}

static o3_res load_float_array(o3_ctx *c, const sv_value *j, float *f, size_t n)
{
    if (j->len < n)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      n >= 9 ? "Not enough numbers in JSON array to load math matrix from."
                             : "Not enough numbers in array to load math vector from.");
    const sv_value *it = sv_array_items(j);
    float tmp[16];
    memcpy(tmp, f, n * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        size_t mark = o3_path_index(c, i);
        o3_res r = one_float(c, &it[i], &tmp[i]);
        o3_path_pop(c, mark);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
    }
    memcpy(f, tmp, n * sizeof *f);
    return o3_r(RF, SV_O3DE_SUCCESS);
}

static const sv_value *member(const sv_value *obj, const char *name)
{
    return sv_map_get(obj, name, strlen(name));
}

/* o3de.md, "What serval follows", Math: keys "X" then "x", ...; a missing component keeps its
 * value. */
static o3_res load_vector_object(o3_ctx *c, const sv_value *j, float *f, size_t n)
{
    static const char *const up[] = {"X", "Y", "Z", "W"}, *const lo[] = {"x", "y", "z", "w"};
    float tmp[4];
    memcpy(tmp, f, n * sizeof *f);
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = up[i];
        const sv_value *m = member(j, name);
        if (!m) m = member(j, name = lo[i]);
        if (!m) continue;
        size_t mark = o3_path_key(c, name, 1);
        o3_res r = one_float(c, m, &tmp[i]);
        o3_path_pop(c, mark);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
        found++;
    }
    memcpy(f, tmp, n * sizeof *f);
    if (found == n) return o3_r(RF, SV_O3DE_SUCCESS);
    return o3_r(RF, found ? SV_O3DE_PARTIAL_DEFAULTS : SV_O3DE_DEFAULTS_USED);
}

/* o3de.md, "What serval follows", Math: the members are read by position as Euler angles in degrees
 * about X, Y and Z, and combined as q = qx * qy * qz. Only the first three
 * members are read (O3DE writes past its buffer for a fourth). */
static o3_res load_quat_object(o3_ctx *c, const sv_value *j, float *q)
{
    static const char *const names[] = {"yaw", "pitch", "roll"};
    float e[3] = {0, 0, 0};
    for (uint32_t i = 0; i < j->len && i < 3; i++) {
        size_t mark = o3_path_key(c, names[i], strlen(names[i]));
        o3_res r = one_float(c, sv_val_at(j, i), &e[i]);
        o3_path_pop(c, mark);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
    }
    const float d2r = 3.14159265358979323846f / 180.0f;
    float hx = e[0] * d2r * 0.5f, hy = e[1] * d2r * 0.5f, hz = e[2] * d2r * 0.5f;
    float sx = sinf(hx), cx = cosf(hx), sy = sinf(hy), cy = cosf(hy), sz = sinf(hz), cz = cosf(hz);
    q[0] = sx * cy * cz + cx * sy * sz;
    q[1] = cx * sy * cz - sx * cy * sz;
    q[2] = cx * cy * sz + sx * sy * cz;
    q[3] = cx * cy * cz - sx * sy * sz;
    return o3_r(RF, SV_O3DE_SUCCESS);
}

static const char *const channel[] = {"Red", "Green", "Blue", "Alpha"};

/* Colour channels must be decimal literals (RapidJSON IsDouble). */
static o3_res color_floats(o3_ctx *c, const sv_value *arr, float *f, size_t n)
{
    const sv_value *it = sv_array_items(arr);
    for (size_t i = 0; i < n; i++) {
        if (it[i].kind != SV_FLOAT)
            return o3_report(
                c, o3_r(RF, SV_O3DE_UNSUPPORTED),
                "%s channel couldn't be read because the value wasn't a decimal number.",
                channel[i]);
        f[i] = (float)it[i].as.f64;
    }
    return o3_r(RF, SV_O3DE_SUCCESS);
}

static o3_res color_bytes(o3_ctx *c, const sv_value *arr, float *f, size_t n)
{
    const sv_value *it = sv_array_items(arr);
    for (size_t i = 0; i < n; i++) {
        if (it[i].kind != SV_INT && !(it[i].kind == SV_UINT))
            return o3_report(c, o3_r(RF, SV_O3DE_UNSUPPORTED),
                             "%s channel couldn't be read because the value wasn't an integer.",
                             channel[i]);
        int64_t v = it[i].kind == SV_UINT ? 255 : it[i].as.i;
        if (v < 0) v = 0;
        if (v > 255) v = 255;
        f[i] = (float)v / 255.0f;
    }
    return o3_r(RF, SV_O3DE_SUCCESS);
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static o3_res color_hex(o3_ctx *c, const sv_value *s, float *f, size_t n)
{
    if (s->kind != SV_STRING)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Hex color values must be strings.");
    if (s->len < n * 2)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "The hex color value is too short.");
    float tmp[4];
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(s->as.str[2 * i]), lo = hexval(s->as.str[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "The hex color value contains invalid characters.");
        tmp[i] = (float)(hi * 16 + lo) / 255.0f;
    }
    memcpy(f, tmp, n * sizeof *f);
    return o3_r(RF, SV_O3DE_SUCCESS);
}

/* o3de.md, "What serval follows", Math: the last member (scanning backwards) with a known name
 * decides. */
static o3_res load_color_object(o3_ctx *c, const sv_value *j, float *f)
{
    static const char *const names[] = {"RGBA8", "RGB8", "RGBA", "RGB", "HEXA", "HEX"};
    for (uint32_t i = j->len; i-- > 0;) {
        size_t kn;
        const char *k = sv_get_str(sv_key_at(j, i), &kn);
        int which = -1;
        for (int t = 0; t < 6 && which < 0; t++)
            if (strlen(names[t]) == kn && strncasecmp(names[t], k, kn) == 0) which = t;
        if (which < 0) continue;
        const sv_value *v = sv_val_at(j, i);
        size_t need = (which == 0 || which == 2) ? 4 : (which == 4 ? 4 : 3);
        size_t mark = o3_path_key(c, k, kn);
        o3_res r;
        float tmp[4];
        memcpy(tmp, f, sizeof tmp);
        if (which >= 4) {
            r = color_hex(c, v, tmp, need);
        } else if (v->kind != SV_ARRAY) {
            r = o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Color channels must be stored in an array.");
        } else if (v->len < need) {
            r = o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Not enough color channels in the array.");
        } else {
            r = which <= 1 ? color_bytes(c, v, tmp, need) : color_floats(c, v, tmp, need);
        }
        o3_path_pop(c, mark);
        if (o3_out(r) == SV_O3DE_SUCCESS) memcpy(f, tmp, sizeof tmp);
        return r;
    }
    return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "No supported color format found in the object.");
}

static o3_res load_transform(o3_ctx *c, const sv_value *j, float *f)
{
    static const char *const keys[] = {"Translation", "Rotation", "Scale"};
    float tmp[8];
    memcpy(tmp, f, sizeof tmp);
    size_t found = 0;
    for (int k = 0; k < 3; k++) {
        const sv_value *m = member(j, keys[k]);
        if (!m) continue;
        size_t mark = o3_path_key(c, keys[k], strlen(keys[k]));
        o3_res r;
        if (k == 2)
            r = one_float(c, m, &tmp[7]);
        else if (m->kind == SV_ARRAY)
            r = load_float_array(c, m, tmp + (k ? 3 : 0), k ? 4 : 3);
        else if (m->kind == SV_MAP && k == 0)
            r = load_vector_object(c, m, tmp, 3);
        else
            r = o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Transform members must be arrays or numbers.");
        o3_path_pop(c, mark);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
        found++;
    }
    memcpy(f, tmp, sizeof tmp);
    if (found == 3) return o3_r(RF, SV_O3DE_SUCCESS);
    return o3_r(RF, found ? SV_O3DE_PARTIAL_DEFAULTS : SV_O3DE_DEFAULTS_USED);
}

o3_res o3_load_math(o3_ctx *c, sv_prim p, const sv_value *j, const sv_value *cur, sv_value *out,
                    bool is_new)
{
    (void)is_new;
    *out = *cur;
    if (o3_is_explicit_default(j)) { /* a new instance: zero vector, identity */
        *out = o3_default_of(c, &(sv_type){.kind = SV_TYPE_PRIM, .prim = p});
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED,
                      is_matrix(p) ? "Matrix value set to identity matrix."
                                   : "Math value set to its default.");
    }
    float f[16];
    read_floats(c, p, cur, f);
    size_t n = scalars(p);
    o3_res r;
    if (p == SV_PRIM_COLOR) {
        if (j->kind == SV_ARRAY) {
            if (j->len < 3)
                return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                              "Not enough color channels in the array.");
            float tmp[4];
            memcpy(tmp, f, sizeof tmp);
            r = color_floats(c, j, tmp, j->len >= 4 ? 4 : 3);
            if (o3_out(r) != SV_O3DE_SUCCESS) return r;
            memcpy(f, tmp, sizeof tmp);
            r = o3_r(RF, j->len >= 4 ? SV_O3DE_SUCCESS : SV_O3DE_PARTIAL_DEFAULTS);
        } else if (j->kind == SV_MAP) {
            r = load_color_object(c, j, f);
        } else {
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                          "Colors can only be read from arrays or objects.");
        }
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
        return finish(c, p, f, out, r, "Successfully read color.");
    }
    if (p == SV_PRIM_TRANSFORM) {
        if (j->kind != SV_MAP)
            return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Transforms can only be read from objects.");
        r = load_transform(c, j, f);
    } else if (j->kind == SV_ARRAY) {
        r = load_float_array(c, j, f, n);
    } else if (j->kind == SV_MAP &&
               (p == SV_PRIM_VECTOR2 || p == SV_PRIM_VECTOR3 || p == SV_PRIM_VECTOR4)) {
        r = load_vector_object(c, j, f, n);
    } else if (j->kind == SV_MAP && p == SV_PRIM_QUATERNION) {
        r = load_quat_object(c, j, f);
    } else if (j->kind == SV_MAP && is_matrix(p)) {
        /* reports its own result; O3DE sets the identity before reading, so
         * the value changes even when the load fails */
        r = o3_load_matrix_object(c, p, j, f);
        if (!make_tuple(c, p, f, out)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
        return r;
    } else if (is_matrix(p)) {
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Unsupported type. Math matrix can only be read from arrays or objects.");
    } else {
        return o3_report(c, o3_r(RF, SV_O3DE_UNSUPPORTED),
                         "Unsupported JSON type for a %s: use an array of numbers.",
                         sv_prim_name(p));
    }
    if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
    return finish(c, p, f, out, r,
                  is_matrix(p) ? "Successfully read math matrix."
                               : "Successfully read math value.");
}

static sv_value float_array(o3_ctx *c, const float *f, size_t n)
{
    sv_value a = sv_array(c->doc, n);
    if (a.kind != SV_ARRAY) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return a;
    }
    sv_value *it = sv_array_items(&a);
    for (size_t i = 0; i < n; i++) it[i] = sv_f64((double)f[i]);
    return a;
}

o3_res o3_store_math(o3_ctx *c, sv_prim p, const sv_value *v, const sv_value *def, sv_value *j)
{
    size_t n = scalars(p);
    float f[16], d[16];
    read_floats(c, p, v, f);
    if (def) read_floats(c, p, def, d);
    bool same = def && memcmp(f, d, n * sizeof *f) == 0;
    if (def && !same) { /* operator== compares values: 0.0 equals -0.0 */
        same = true;
        for (size_t i = 0; i < n; i++) same = same && f[i] == d[i];
    }
    if (same && !c->keep_defaults)
        return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED,
                      is_matrix(p) ? "Default math Matrix used." : "Default math value used.");
    if (p == SV_PRIM_COLOR) {
        bool alpha_default = def && f[3] == d[3] && !c->keep_defaults;
        *j = float_array(c, f, alpha_default ? 3 : 4);
        return o3_rep(c, WV, alpha_default ? SV_O3DE_PARTIAL_DEFAULTS : SV_O3DE_SUCCESS,
                      "Color stored.");
    }
    if (p == SV_PRIM_TRANSFORM) {
        sv_value obj = sv_map(c->doc, 0);
        bool keep = c->keep_defaults || !def;
        o3_res r = sv_o3de_result_none(WV);
        if (keep || memcmp(f, d, 3 * sizeof *f) != 0) {
            (void)sv_map_append_str(c->doc, &obj, "Translation", float_array(c, f, 3));
            r = o3_combine(r, o3_r(WV, SV_O3DE_SUCCESS));
        } else {
            r = o3_combine(r, o3_r(WV, SV_O3DE_DEFAULTS_USED));
        }
        if (keep || memcmp(f + 3, d + 3, 4 * sizeof *f) != 0) {
            (void)sv_map_append_str(c->doc, &obj, "Rotation", float_array(c, f + 3, 4));
            r = o3_combine(r, o3_r(WV, SV_O3DE_SUCCESS));
        } else {
            r = o3_combine(r, o3_r(WV, SV_O3DE_DEFAULTS_USED));
        }
        if (keep || f[7] != d[7]) {
            (void)sv_map_append_str(c->doc, &obj, "Scale", sv_f64((double)f[7]));
            r = o3_combine(r, o3_r(WV, SV_O3DE_SUCCESS));
        } else {
            r = o3_combine(r, o3_r(WV, SV_O3DE_DEFAULTS_USED));
        }
        *j = obj;
        return o3_report(c, r, "Transform stored.");
    }
    *j = float_array(c, f, n);
    return o3_rep(c, WV, SV_O3DE_SUCCESS,
                  is_matrix(p) ? "Math Matrix successfully stored." : "Math value stored.");
}
