/* serval: semantic type tags.
 *
 * A tag says which engine type a value came from when the value's kind alone
 * does not say it: a Godot StringName is a string tagged "string_name", a
 * Godot Vector3 is a tuple of three numbers tagged "vector3". The typed JSON
 * writes a tagged value as {"$<tag name>": <the value>} (docs/json.md).
 *
 * Shape tags (TUPLE and PACKED values) also give the number of scalars in one
 * item and the element type that is assumed when the JSON does not say one.
 *
 * To add a tag, add a row here: X(ENUM, "json name", kind, scalars, elem).
 * kind is the sv_kind the tag applies to; SV_KIND_COUNT means "any kind".
 * Never renumber: the order is part of the library ABI. */
#ifndef SERVAL_TAGS_H
#define SERVAL_TAGS_H

#ifdef __cplusplus
extern "C" {
#endif

#define SV_TAG_LIST(X)                                                                             \
    X(SV_TAG_NONE, "", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                             \
    /* math tuples (kind TUPLE): Godot, KingsIsle, O3DE, Resonite */                               \
    X(SV_TAG_VECTOR2, "vector2", SV_TUPLE, 2, SV_ELEM_F32)                                         \
    X(SV_TAG_VECTOR2I, "vector2i", SV_TUPLE, 2, SV_ELEM_I32)                                       \
    X(SV_TAG_RECT2, "rect2", SV_TUPLE, 4, SV_ELEM_F32)                                             \
    X(SV_TAG_RECT2I, "rect2i", SV_TUPLE, 4, SV_ELEM_I32)                                           \
    X(SV_TAG_VECTOR3, "vector3", SV_TUPLE, 3, SV_ELEM_F32)                                         \
    X(SV_TAG_VECTOR3I, "vector3i", SV_TUPLE, 3, SV_ELEM_I32)                                       \
    X(SV_TAG_TRANSFORM2D, "transform2d", SV_TUPLE, 6, SV_ELEM_F32)                                 \
    X(SV_TAG_VECTOR4, "vector4", SV_TUPLE, 4, SV_ELEM_F32)                                         \
    X(SV_TAG_VECTOR4I, "vector4i", SV_TUPLE, 4, SV_ELEM_I32)                                       \
    X(SV_TAG_PLANE, "plane", SV_TUPLE, 4, SV_ELEM_F32)                                             \
    X(SV_TAG_QUATERNION, "quaternion", SV_TUPLE, 4, SV_ELEM_F32)                                   \
    X(SV_TAG_AABB, "aabb", SV_TUPLE, 6, SV_ELEM_F32)                                               \
    X(SV_TAG_BASIS, "basis", SV_TUPLE, 9, SV_ELEM_F32)                                             \
    X(SV_TAG_TRANSFORM3D, "transform3d", SV_TUPLE, 12, SV_ELEM_F32)                                \
    X(SV_TAG_PROJECTION, "projection", SV_TUPLE, 16, SV_ELEM_F32)                                  \
    X(SV_TAG_COLOR, "color", SV_TUPLE, 4, SV_ELEM_F32)                                             \
    X(SV_TAG_MATRIX3X3, "matrix3x3", SV_TUPLE, 9, SV_ELEM_F32)                                     \
    X(SV_TAG_MATRIX3X4, "matrix3x4", SV_TUPLE, 12, SV_ELEM_F32)                                    \
    X(SV_TAG_MATRIX4X4, "matrix4x4", SV_TUPLE, 16, SV_ELEM_F32)                                    \
    X(SV_TAG_EULER, "euler", SV_TUPLE, 3, SV_ELEM_F32)                                             \
    /* packed arrays of math items (kind PACKED) */                                                \
    X(SV_TAG_PACKED_VECTOR2, "packed_vector2", SV_PACKED, 2, SV_ELEM_F32)                          \
    X(SV_TAG_PACKED_VECTOR3, "packed_vector3", SV_PACKED, 3, SV_ELEM_F32)                          \
    X(SV_TAG_PACKED_COLOR, "packed_color", SV_PACKED, 4, SV_ELEM_F32)                              \
    X(SV_TAG_PACKED_VECTOR4, "packed_vector4", SV_PACKED, 4, SV_ELEM_F32)                          \
    /* engine types carried by an ordinary kind */                                                 \
    X(SV_TAG_STRING_NAME, "string_name", SV_STRING, 0, SV_ELEM_NONE)                               \
    X(SV_TAG_NODE_PATH, "node_path", SV_KIND_COUNT, 0, SV_ELEM_NONE)                               \
    X(SV_TAG_RID, "rid", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                           \
    X(SV_TAG_CALLABLE, "callable", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                 \
    X(SV_TAG_SIGNAL, "signal", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                     \
    X(SV_TAG_OBJECT_ID, "object_id", SV_KIND_COUNT, 0, SV_ELEM_NONE)                               \
    X(SV_TAG_DATETIME, "datetime", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                 \
    X(SV_TAG_OBJECTID, "objectid", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                 \
    X(SV_TAG_REGEX, "regex", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                       \
    X(SV_TAG_TIMESTAMP, "timestamp", SV_KIND_COUNT, 0, SV_ELEM_NONE)                               \
    X(SV_TAG_DECIMAL128, "decimal128", SV_KIND_COUNT, 0, SV_ELEM_NONE)                             \
    X(SV_TAG_MINKEY, "minkey", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                     \
    X(SV_TAG_MAXKEY, "maxkey", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                     \
    X(SV_TAG_UUID, "uuid", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                         \
    X(SV_TAG_ENUM, "enum", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                         \
    X(SV_TAG_URL, "url", SV_STRING, 0, SV_ELEM_NONE)                                               \
    X(SV_TAG_CHAR, "char", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                         \
    /* translation xyz, rotation quaternion xyzw, uniform scale (O3DE) */                          \
    X(SV_TAG_TRANSFORM, "transform", SV_TUPLE, 8, SV_ELEM_F32)                                     \
    /* a colour as the string "#AARRGGBB" (NoesisGUI's u32 0xAARRGGBB) */                          \
    X(SV_TAG_COLOR_ARGB, "color_argb", SV_STRING, 0, SV_ELEM_NONE)                                 \
    /* a Godot binary resource's reference to an external resource (its      \
     * index in the file's table) and to an internal one (as stored) */                     \
    X(SV_TAG_EXT_RESOURCE, "ext", SV_KIND_COUNT, 0, SV_ELEM_NONE)                                  \
    X(SV_TAG_SUB_RESOURCE, "sub", SV_KIND_COUNT, 0, SV_ELEM_NONE)

#ifdef __cplusplus
}
#endif
#endif
