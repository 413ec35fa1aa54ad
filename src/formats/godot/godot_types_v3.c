/* Godot 3.0 to 3.6: the type numbering (spec §3.2, verified on 3.2.3:
 * TYPE_MAX = 27). Payloads are the 4.x ones of the same types, with math
 * types always f32, RID header-only and no typed containers (spec §5.2). */
#include "formats/godot/godot_internal.h"

static const uint8_t v3_to_gd[27] = {
    GD_NIL,            /* 0 NIL */
    GD_BOOL,           /* 1 BOOL */
    GD_INT,            /* 2 INT */
    GD_FLOAT,          /* 3 REAL */
    GD_STRING,         /* 4 STRING */
    GD_VECTOR2,        /* 5 VECTOR2 */
    GD_RECT2,          /* 6 RECT2 */
    GD_VECTOR3,        /* 7 VECTOR3 */
    GD_TRANSFORM2D,    /* 8 TRANSFORM2D */
    GD_PLANE,          /* 9 PLANE */
    GD_QUATERNION,     /* 10 QUAT */
    GD_AABB,           /* 11 AABB */
    GD_BASIS,          /* 12 BASIS */
    GD_TRANSFORM3D,    /* 13 TRANSFORM */
    GD_COLOR,          /* 14 COLOR */
    GD_NODE_PATH,      /* 15 NODE_PATH */
    GD_RID,            /* 16 _RID */
    GD_OBJECT,         /* 17 OBJECT */
    GD_DICTIONARY,     /* 18 DICTIONARY */
    GD_ARRAY,          /* 19 ARRAY */
    GD_PACKED_BYTE,    /* 20 POOL_BYTE_ARRAY */
    GD_PACKED_INT32,   /* 21 POOL_INT_ARRAY */
    GD_PACKED_FLOAT32, /* 22 POOL_REAL_ARRAY */
    GD_PACKED_STRING,  /* 23 POOL_STRING_ARRAY */
    GD_PACKED_VECTOR2, /* 24 POOL_VECTOR2_ARRAY */
    GD_PACKED_VECTOR3, /* 25 POOL_VECTOR3_ARRAY */
    GD_PACKED_COLOR,   /* 26 POOL_COLOR_ARRAY */
};

const gd_profile gd_profile_godot3 = {"godot3", 27, v3_to_gd, false};
