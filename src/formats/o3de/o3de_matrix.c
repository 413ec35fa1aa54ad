/* The object form of Matrix3x3, 3x4 and 4x4 (docs/formats/o3de.md, "Matrices", O3DE's
 * MathMatrixSerializer LoadObject): {"roll","pitch","yaw"} in degrees about
 * X, Y and Z, a uniform "scale" (default 1) and, for 3x4 and 4x4, an "x",
 * "y", "z" translation. Each name is tried in lower case, then capitalised.
 * The rotation is qx * qy * qz made into a matrix, then scaled, then
 * translated, all in float as O3DE computes it. */
#include <math.h>
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD

/* O3DE's Constants::Pi and Constants::Tolerance (AzCore MathUtils.h). */
#define O3_PI_F 3.14159265358979323846f
#define O3_TOLERANCE_F 0.001f

/* One member (name, else alt_name) through the float serializer; a missing
 * member keeps *dst and counts as DefaultsUsed (LoadFloatFromObject). */
static o3_res member_float(o3_ctx *c, const sv_value *obj, const char *name, const char *alt_name,
                           float *dst)
{
    const char *used = name;
    const sv_value *m = sv_map_get(obj, name, strlen(name));
    if (!m) m = sv_map_get(obj, used = alt_name, strlen(alt_name));
    o3_res result;
    if (!m) {
        result = o3_r(RF, SV_O3DE_DEFAULTS_USED);
    } else {
        size_t mark = o3_path_key(c, used, strlen(used));
        sv_value cur = sv_f32(*dst), nv;
        o3_res r = o3_load_prim(c, SV_PRIM_F32, m, &cur, &nv);
        o3_path_pop(c, mark);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
        *dst = nv.as.f32;
        result = o3_r(RF, SV_O3DE_SUCCESS);
    }
    return o3_report(c, result, "Successfully read float.");
}

/* Three members into v (LoadVector3FromObject): a missing one keeps its
 * value, and the result is Success either way, as in O3DE. */
static o3_res member_vector3(o3_ctx *c, const sv_value *obj, const char *const names[6], float v[3])
{
    float tmp[3] = {v[0], v[1], v[2]};
    for (int i = 0; i < 3; i++) {
        o3_res r = member_float(c, obj, names[2 * i], names[2 * i + 1], &tmp[i]);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
    }
    memcpy(v, tmp, sizeof tmp);
    return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read math matrix.");
}

/* The 3x3 rotation of the unit quaternion q (x, y, z, w), row-major. */
static void rotation_from_quaternion(const float q[4], float m[9])
{
    float tx = q[0] * 2.0f, ty = q[1] * 2.0f, tz = q[2] * 2.0f;
    float twx = tx * q[3], twy = ty * q[3], twz = tz * q[3];
    float txx = tx * q[0], txy = tx * q[1], txz = tx * q[2];
    float tyy = ty * q[1], tyz = ty * q[2], tzz = tz * q[2];
    m[0] = 1.0f - (tyy + tzz), m[1] = txy - twz, m[2] = txz + twy;
    m[3] = txy + twz, m[4] = 1.0f - (txx + tzz), m[5] = tyz - twx;
    m[6] = txz - twy, m[7] = tyz + twx, m[8] = 1.0f - (txx + tyy);
}

static void quaternion_multiply(const float a[4], const float b[4], float out[4])
{
    out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/* Degrees about X, Y, Z to qx * qy * qz (the rotations applied z, y, x). */
static void quaternion_from_degrees(const float deg[3], float q[4])
{
    /* Vector3DegToRad multiplies by the one float Pi / 180 (as the
     * quaternion's Euler form does, o3de_math.c): (deg * Pi) / 180 rounds
     * differently for 598 of the whole degrees from -720 to 720 */
    const float deg_to_rad = O3_PI_F / 180.0f;
    float axis[3][4];
    for (int i = 0; i < 3; i++) {
        float half = 0.5f * (deg[i] * deg_to_rad);
        memset(axis[i], 0, sizeof axis[i]);
        axis[i][i] = sinf(half);
        axis[i][3] = cosf(half);
    }
    float xy[4];
    quaternion_multiply(axis[0], axis[1], xy);
    quaternion_multiply(xy, axis[2], q);
}

static void identity(size_t rows, size_t cols, float *m)
{
    memset(m, 0, rows * cols * sizeof *m);
    for (size_t i = 0; i < rows && i < cols; i++) m[i * cols + i] = 1.0f;
}

o3_res o3_load_matrix_object(o3_ctx *c, sv_prim p, const sv_value *j, float *out)
{
    size_t rows = p == SV_PRIM_MATRIX4X4 ? 4 : 3, cols = p == SV_PRIM_MATRIX3X3 ? 3 : 4;
    /* O3DE assigns the identity before reading, so a failure leaves it */
    identity(rows, cols, out);

    /* LoadQuaternionAndScale */
    float scale = 1.0f;
    o3_res r = member_float(c, j, "scale", "Scale", &scale);
    if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
    o3_res rotation = sv_o3de_result_none(RF);
    rotation = o3_combine(rotation, r);
    if (fabsf(scale - 0.0f) <= O3_TOLERANCE_F)
        return o3_report(c, o3_combine(rotation, o3_r(RF, SV_O3DE_UNSUPPORTED)),
                         "Scale can not be zero.");
    static const char *const angle_names[6] = {"roll", "Roll", "pitch", "Pitch", "yaw", "Yaw"};
    float degrees[3] = {0.0f, 0.0f, 0.0f};
    r = member_vector3(c, j, angle_names, degrees);
    if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
    rotation = o3_report(c, o3_combine(rotation, r),
                         "Successfully read math yaw, pitch, roll, and scale.");
    if (o3_proc(rotation) != SV_O3DE_COMPLETED) return rotation;
    o3_res result = o3_combine(sv_o3de_result_none(RF), rotation);

    float translation[3] = {0.0f, 0.0f, 0.0f};
    if (p != SV_PRIM_MATRIX3X3) {
        static const char *const axis_names[6] = {"x", "X", "y", "Y", "z", "Z"};
        r = member_vector3(c, j, axis_names, translation);
        if (o3_proc(r) != SV_O3DE_COMPLETED) return r;
        result = o3_combine(result, r);
    }

    float q[4], rot[9], m[16];
    quaternion_from_degrees(degrees, q);
    rotation_from_quaternion(q, rot);
    identity(rows, cols, m);
    for (size_t row = 0; row < 3; row++)
        for (size_t col = 0; col < 3; col++) m[row * cols + col] = rot[row * 3 + col] * scale;
    if (cols == 4)
        for (size_t row = 0; row < 3; row++) m[row * cols + 3] = translation[row];

    /* operator== compares values: -0.0 equals 0.0 */
    float ident[16];
    identity(rows, cols, ident);
    bool is_identity = true;
    for (size_t i = 0; i < rows * cols; i++) is_identity = is_identity && m[i] == ident[i];
    if (is_identity)
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Using identity matrix for empty object.");
    memcpy(out, m, rows * cols * sizeof *m);
    return o3_report(c, result, "Successfully read math matrix.");
}
