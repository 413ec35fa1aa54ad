/* Names and properties of kinds, element types and tags. */
#include <string.h>

#include "serval/serval.h"

static const char *const kind_names[SV_KIND_COUNT] = {
    "null",  "bool", "int",    "uint",  "float",  "string", "bytes",
    "array", "map",  "object", "tuple", "packed", "ref",
};

const char *sv_kind_name(sv_kind kind)
{
    return (unsigned)kind < SV_KIND_COUNT ? kind_names[kind] : "?";
}

static const char *const elem_names[SV_ELEM_COUNT] = {
    "", "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64",
};
static const unsigned char elem_sizes[SV_ELEM_COUNT] = {0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

const char *sv_elem_name(sv_elem elem)
{
    return (unsigned)elem < SV_ELEM_COUNT ? elem_names[elem] : "";
}

size_t sv_elem_size(sv_elem elem)
{
    return (unsigned)elem < SV_ELEM_COUNT ? elem_sizes[elem] : 0;
}

sv_elem sv_elem_by_name(const char *name, size_t len)
{
    for (int e = 1; e < SV_ELEM_COUNT; e++) {
        if (strlen(elem_names[e]) == len && memcmp(elem_names[e], name, len) == 0)
            return (sv_elem)e;
    }
    return SV_ELEM_NONE;
}

typedef struct tag_info {
    const char *name;
    unsigned char name_len;
    unsigned char kind;
    unsigned char scalars;
    unsigned char elem;
} tag_info;

static const tag_info tags[SV_TAG_COUNT] = {
#define SV_X_TAG(id, name, kind, scalars, elem) {name, sizeof(name) - 1, kind, scalars, elem},
    SV_TAG_LIST(SV_X_TAG)
#undef SV_X_TAG
};

const char *sv_tag_name(sv_tag tag)
{
    return (unsigned)tag < SV_TAG_COUNT ? tags[tag].name : "";
}

sv_kind sv_tag_kind(sv_tag tag)
{
    return (unsigned)tag < SV_TAG_COUNT ? (sv_kind)tags[tag].kind : SV_KIND_COUNT;
}

unsigned sv_tag_scalars(sv_tag tag)
{
    return (unsigned)tag < SV_TAG_COUNT ? tags[tag].scalars : 0;
}

sv_elem sv_tag_default_elem(sv_tag tag)
{
    return (unsigned)tag < SV_TAG_COUNT ? (sv_elem)tags[tag].elem : SV_ELEM_NONE;
}

sv_tag sv_tag_by_name(const char *name, size_t len)
{
    if (!name || len == 0) return SV_TAG_NONE;
    for (int t = 1; t < SV_TAG_COUNT; t++) {
        if (tags[t].name_len == len && tags[t].name[0] == name[0] &&
            memcmp(tags[t].name, name, len) == 0)
            return (sv_tag)t;
    }
    return SV_TAG_NONE;
}
