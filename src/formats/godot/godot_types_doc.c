/* The godot-doc profile: the numbering of the outdated "Binary serialization
 * API" docs page (godot-docs @ 1935d067), which the npm package
 * @gd-com/utils 5.x writes. It matches no engine version (spec §3.4): codes
 * 0-21 are 3.x's, 22-28 are int64/float32/float64/string/vector2/vector3/
 * color arrays, VARIANT_MAX is 29. Payloads follow 3.x (spec §3.4.1). */
#include "formats/godot/godot_internal.h"

static const uint8_t doc_to_gd[29] = {
    GD_NIL,            /* 0 null */
    GD_BOOL,           /* 1 bool */
    GD_INT,            /* 2 int */
    GD_FLOAT,          /* 3 float */
    GD_STRING,         /* 4 string */
    GD_VECTOR2,        /* 5 vector2 */
    GD_RECT2,          /* 6 rect2 */
    GD_VECTOR3,        /* 7 vector3 */
    GD_TRANSFORM2D,    /* 8 transform2d */
    GD_PLANE,          /* 9 plane */
    GD_QUATERNION,     /* 10 quat */
    GD_AABB,           /* 11 aabb */
    GD_BASIS,          /* 12 basis */
    GD_TRANSFORM3D,    /* 13 transform */
    GD_COLOR,          /* 14 color */
    GD_NODE_PATH,      /* 15 node path */
    GD_RID,            /* 16 rid (header only, as 3.x) */
    GD_OBJECT,         /* 17 object */
    GD_DICTIONARY,     /* 18 dictionary */
    GD_ARRAY,          /* 19 array */
    GD_PACKED_BYTE,    /* 20 raw array */
    GD_PACKED_INT32,   /* 21 int32 array */
    GD_PACKED_INT64,   /* 22 int64 array */
    GD_PACKED_FLOAT32, /* 23 float32 array */
    GD_PACKED_FLOAT64, /* 24 float64 array */
    GD_PACKED_STRING,  /* 25 string array */
    GD_PACKED_VECTOR2, /* 26 vector2 array */
    GD_PACKED_VECTOR3, /* 27 vector3 array */
    GD_PACKED_COLOR,   /* 28 color array */
};

const gd_profile gd_profile_doc = {"godot-doc", 29, doc_to_gd, false};
