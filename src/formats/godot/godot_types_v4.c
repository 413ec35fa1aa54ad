/* Godot 4.x: the type numbering (spec §3.1), which is also serval's internal
 * numbering, the type names and the math tuple shapes (spec §5.1). */
#include <string.h>

#include "formats/godot/godot_internal.h"

/* spec §3.1: identity; VARIANT_MAX is 39 from 4.3 (PackedVector4Array, GH-85474)
 * and 38 before (gd_rules_init lowers it for godot4_minor < 3). */
static const uint8_t v4_to_gd[GD_TYPE_COUNT] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
};

const gd_profile gd_profile_godot4 = {"godot4", GD_TYPE_COUNT, v4_to_gd, true};

/* Variant::get_type_name() of 4.x. */
static const char *const type_names[GD_TYPE_COUNT] = {
    "Nil",
    "bool",
    "int",
    "float",
    "String",
    "Vector2",
    "Vector2i",
    "Rect2",
    "Rect2i",
    "Vector3",
    "Vector3i",
    "Transform2D",
    "Vector4",
    "Vector4i",
    "Plane",
    "Quaternion",
    "AABB",
    "Basis",
    "Transform3D",
    "Projection",
    "Color",
    "StringName",
    "NodePath",
    "RID",
    "Object",
    "Callable",
    "Signal",
    "Dictionary",
    "Array",
    "PackedByteArray",
    "PackedInt32Array",
    "PackedInt64Array",
    "PackedFloat32Array",
    "PackedFloat64Array",
    "PackedStringArray",
    "PackedVector2Array",
    "PackedVector3Array",
    "PackedColorArray",
    "PackedVector4Array",
};

const char *gd_type_name(unsigned t)
{
    return t < GD_TYPE_COUNT ? type_names[t] : "?";
}

unsigned gd_type_by_name(const char *name, size_t len)
{
    for (unsigned t = 0; t < GD_TYPE_COUNT; t++)
        if (strlen(type_names[t]) == len && memcmp(type_names[t], name, len) == 0) return t;
    return GD_NONE;
}

/* spec §5.1: field counts; "real" fields take the 64-bit flag in 4.x (§6.3);
 * Color is always f32 and never flagged. Basis and Transform3D keep the
 * stream's row-major order (spec §9.3). */
static const gd_math math_table[] = {
    [GD_VECTOR2] = {SV_TAG_VECTOR2, 2, 1, 0},
    [GD_VECTOR2I] = {SV_TAG_VECTOR2I, 2, 0, 1},
    [GD_RECT2] = {SV_TAG_RECT2, 4, 1, 0},
    [GD_RECT2I] = {SV_TAG_RECT2I, 4, 0, 1},
    [GD_VECTOR3] = {SV_TAG_VECTOR3, 3, 1, 0},
    [GD_VECTOR3I] = {SV_TAG_VECTOR3I, 3, 0, 1},
    [GD_TRANSFORM2D] = {SV_TAG_TRANSFORM2D, 6, 1, 0},
    [GD_VECTOR4] = {SV_TAG_VECTOR4, 4, 1, 0},
    [GD_VECTOR4I] = {SV_TAG_VECTOR4I, 4, 0, 1},
    [GD_PLANE] = {SV_TAG_PLANE, 4, 1, 0},
    [GD_QUATERNION] = {SV_TAG_QUATERNION, 4, 1, 0},
    [GD_AABB] = {SV_TAG_AABB, 6, 1, 0},
    [GD_BASIS] = {SV_TAG_BASIS, 9, 1, 0},
    [GD_TRANSFORM3D] = {SV_TAG_TRANSFORM3D, 12, 1, 0},
    [GD_PROJECTION] = {SV_TAG_PROJECTION, 16, 1, 0},
    [GD_COLOR] = {SV_TAG_COLOR, 4, 0, 0},
};

const gd_math *gd_math_of(unsigned t)
{
    if (t >= sizeof math_table / sizeof math_table[0] || !math_table[t].scalars) return NULL;
    return &math_table[t];
}

unsigned gd_type_of_tuple_tag(sv_tag tag)
{
    switch (tag) {
    case SV_TAG_VECTOR2: return GD_VECTOR2;
    case SV_TAG_VECTOR2I: return GD_VECTOR2I;
    case SV_TAG_RECT2: return GD_RECT2;
    case SV_TAG_RECT2I: return GD_RECT2I;
    case SV_TAG_VECTOR3: return GD_VECTOR3;
    case SV_TAG_VECTOR3I: return GD_VECTOR3I;
    case SV_TAG_TRANSFORM2D: return GD_TRANSFORM2D;
    case SV_TAG_VECTOR4: return GD_VECTOR4;
    case SV_TAG_VECTOR4I: return GD_VECTOR4I;
    case SV_TAG_PLANE: return GD_PLANE;
    case SV_TAG_QUATERNION: return GD_QUATERNION;
    case SV_TAG_AABB: return GD_AABB;
    case SV_TAG_BASIS: return GD_BASIS;
    case SV_TAG_TRANSFORM3D: return GD_TRANSFORM3D;
    case SV_TAG_PROJECTION: return GD_PROJECTION;
    case SV_TAG_COLOR: return GD_COLOR;
    default: return GD_NONE;
    }
}
