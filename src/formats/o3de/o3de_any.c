/* AZStd::any (docs/formats/o3de.md, "`AZStd::any`", O3DE's JsonAnySerializer):
 * {"$type": T, "Value": V}. T is resolved as "$type" is elsewhere (a braced
 * UUID anywhere in the text, else the trimmed name) against the schema's
 * classes and the types every O3DE SerializeContext registers (bool, int,
 * float, ..., Vector3, Matrix3x3, AZ::Uuid, ...: their AzTypeInfo names and
 * UUIDs); the value is loaded into a fresh default of that type. The any's
 * value in the tree is null when empty, else an object of a schema class,
 * a number or bool of the primitive's width, a UUID or a math value.
 *
 * The outcomes are O3DE's, quirks included: a "$type" that names nothing
 * is reported as Unknown, yet the load returns DefaultsUsed and leaves the
 * any as it was; a UUID no type has is read as a type id (Success) and
 * empties the any. */
#include <ctype.h>
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static const char *const created_empty =
    "JsonAnySerializer::Load created a default, empty AZStd::any";

/* The primitives O3DE registers by AzTypeInfo (TypeInfoSimple.h), with
 * their serval types; a store writes the first name of a type ("long" and
 * "unsigned long" are 8 bytes on the LP64 systems O3DE runs on). i8 is left
 * out: "char" and "AZ::s8" are both one signed byte. */
typedef struct any_prim {
    const char *name, *uuid;
    sv_prim prim;
} any_prim;

static const any_prim prims[] = {
    {"bool", "{A0CA880C-AFE4-43cb-926C-59AC48496112}", SV_PRIM_BOOL},
    {"short", "{B8A56D56-A10D-4dce-9F63-405EE243DD3C}", SV_PRIM_I16},
    {"int", "{72039442-EB38-4d42-A1AD-CB68F7E0EEF6}", SV_PRIM_I32},
    {"AZ::s64", "{70D8A282-A1EA-462d-9D04-51EDE81FAC2F}", SV_PRIM_I64},
    {"long", "{8F24B9AD-7C51-46cf-B2F8-277356957325}", SV_PRIM_I64},
    {"unsigned char", "{72B9409A-7D1A-4831-9CFE-FCB3FADD3426}", SV_PRIM_U8},
    {"unsigned short", "{ECA0B403-C4F8-4b86-95FC-81688D046E40}", SV_PRIM_U16},
    {"unsigned int", "{43DA906B-7DEF-4ca8-9790-854106D3F983}", SV_PRIM_U32},
    {"AZ::u64", "{D6597933-47CD-4fc8-B911-63F3E2B0993A}", SV_PRIM_U64},
    {"unsigned long", "{5EC2D6F7-6859-400f-9215-C106F5B10E53}", SV_PRIM_U64},
    {"float", "{EA2C3E90-AFBE-44d4-A90D-FAAF79BAF93D}", SV_PRIM_F32},
    {"double", "{110C4B14-11A8-4e9d-8638-5051013A56AC}", SV_PRIM_F64},
    /* the math types SerializeContext's constructor reflects (MathReflect:
     * their AZ_TYPE_INFO names and UUIDs), stored by their own serializers */
    {"Vector2", "{3D80F623-C85C-4741-90D0-E4E66164E6BF}", SV_PRIM_VECTOR2},
    {"Vector3", "{8379EB7D-01FA-4538-B64B-A6543B4BE73D}", SV_PRIM_VECTOR3},
    {"Vector4", "{0CE9FA36-1E3A-4C06-9254-B7C73A732053}", SV_PRIM_VECTOR4},
    {"Quaternion", "{73103120-3DD3-4873-BAB3-9713FA2804FB}", SV_PRIM_QUATERNION},
    {"Color", "{7894072A-9050-4F0F-901B-34B1A0D29417}", SV_PRIM_COLOR},
    {"Matrix3x3", "{15A4332F-7C3F-4A58-AC35-50E1CE53FB9C}", SV_PRIM_MATRIX3X3},
    {"Matrix3x4", "{1906D8A5-7DEC-4DE3-A606-9E53BB3459E7}", SV_PRIM_MATRIX3X4},
    {"Matrix4x4", "{157193C7-B673-4A2B-8B43-5681DCC3DEC3}", SV_PRIM_MATRIX4X4},
    {"Transform", "{5D9958E9-9F1E-4985-B532-FFFDE75FEDFD}", SV_PRIM_TRANSFORM},
    {"AZ::Uuid", "{E152C105-A133-4d03-BBF8-3D4B2FBA3E2A}", SV_PRIM_UUID},
};
#define NPRIMS (sizeof prims / sizeof *prims)

/* What "$type" named: a class, a primitive, or nothing. */
typedef struct any_type {
    const sv_schema_class *cls;
    const any_prim *prim;
} any_type;

static const any_prim *prim_by_uuid(const sv_uuid *u)
{
    for (size_t i = 0; i < NPRIMS; i++) {
        sv_uuid p;
        bool bad;
        if (o3_uuid_search(prims[i].uuid, strlen(prims[i].uuid), &p, &bad) &&
            memcmp(&p, u, sizeof p) == 0)
            return &prims[i];
    }
    return NULL;
}

/* The types the trimmed name t[0..n) names by O3DE's lower-cased CRC-32:
 * their count, and the primitive when one is among them. */
static size_t types_named(const sv_schema *s, const char *t, size_t n, const any_prim **prim)
{
    while (n && isspace((unsigned char)*t)) t++, n--;
    while (n && isspace((unsigned char)t[n - 1])) n--;
    uint32_t crc = o3_crc32_lower(t, n);
    size_t count = 0;
    *prim = NULL;
    for (size_t i = 0, k = sv_schema_class_count(s); i < k; i++) {
        const sv_schema_class *cls = sv_schema_class_at(s, i);
        if (o3_crc32_lower(cls->name, strlen(cls->name)) == crc) count++;
    }
    for (size_t i = 0; i < NPRIMS; i++)
        if (o3_crc32_lower(prims[i].name, strlen(prims[i].name)) == crc) {
            count++;
            *prim = &prims[i];
        }
    return count;
}

/* JsonDeserializer::LoadTypeId without a base class. *named_uuid says the
 * text held a (non-nil) UUID, which is a type id even when no type has it. */
static o3_res load_type_id(o3_ctx *c, const sv_value *tv, any_type *out, bool *named_uuid)
{
    static const char found[] = "Successfully read type id from json value.";
    out->cls = NULL;
    out->prim = NULL;
    *named_uuid = false;
    if (tv->kind != SV_STRING)
        return o3_rep(c, RF, SV_O3DE_UNKNOWN, "Unable to find type id with the provided string.");
    sv_uuid u;
    bool bad;
    static const sv_uuid nil;
    if (o3_uuid_search(tv->as.str, tv->len, &u, &bad) && memcmp(&u, &nil, sizeof u) != 0) {
        *named_uuid = true;
        out->cls = sv_schema_class_by_uuid(c->s, &u);
        if (!out->cls) out->prim = prim_by_uuid(&u);
        return o3_rep(c, RF, SV_O3DE_SUCCESS, found);
    }
    const any_prim *prim;
    size_t count = types_named(c->s, tv->as.str, tv->len, &prim);
    if (count == 1) {
        out->prim = prim;
        if (!prim) (void)sv_o3de_resolve_type(c->s, tv->as.str, tv->len, NULL, &out->cls);
        if (out->cls || out->prim) return o3_rep(c, RF, SV_O3DE_SUCCESS, found);
    }
    if (count > 1)
        return o3_rep(c, RF, SV_O3DE_UNKNOWN,
                      "The provided string points to multiple type ids. Use the uuid of the "
                      "intended class instead.");
    return o3_rep(c, RF, SV_O3DE_UNKNOWN, "Unable to find type id with the provided string.");
}

/* A number held by an any keeps its width in typed JSON ({"$f64": 0.0},
 * not 0.0): nothing else says which primitive it is, and a tool on the way
 * (jq 1.6 prints 0.0 as 0) must not turn a double into an integer. */
static void out_explicit(sv_value *v)
{
    if (v->kind == SV_INT || v->kind == SV_UINT || v->kind == SV_FLOAT) v->flags |= SV_F_EXPLICIT;
}

static o3_res finish_load(o3_ctx *c, o3_res result)
{
    return o3_report(c, result,
                     o3_halted(result) ? "JsonAnySerializer::Load failed to load AZStd::any"
                                       : "JsonAnySerializer::Load finished loading AZStd::any");
}

o3_res o3_load_any(o3_ctx *c, const sv_value *j, const sv_value *cur, sv_value *out)
{
    *out = *cur;
    if (sv_kind_of(j) != SV_MAP)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "JsonAnySerializer::Load only supports rapidjson::kObjectType");
    const sv_value *tv = sv_map_get(j, "$type", 5);
    if (!tv) return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, created_empty);

    any_type at;
    bool named_uuid;
    o3_res result = o3_combine(sv_o3de_result_none(RF), load_type_id(c, tv, &at, &named_uuid));
    /* O3DE tests for a type id, not for the result: an unresolved type has
     * been reported, and the any is left alone */
    if (!at.cls && !at.prim && !named_uuid)
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, created_empty);
    if (!at.cls && !at.prim) { /* CreateAny of an unregistered type gives an empty any */
        *out = sv_null();
        return o3_report(c, result,
                         "JsonAnySerializer::Load failed to load a value matched the reported AZ "
                         "TypeId. The C++ declaration may have been deleted or changed.");
    }
    sv_type t = at.cls ? (sv_type){.kind = SV_TYPE_CLASS, .cls = at.cls}
                       : (sv_type){.kind = SV_TYPE_PRIM, .prim = at.prim->prim};
    sv_value fresh = o3_default_of(c, &t);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    *out = fresh;
    out_explicit(out);
    /* "Value" as O3DE writes it, "value" as it used to */
    const char *name = sv_map_get(j, "Value", 5) ? "Value" : "value";
    const sv_value *vj = sv_map_get(j, name, 5);
    if (!vj) return finish_load(c, o3_combine(result, o3_r(RF, SV_O3DE_DEFAULTS_USED)));
    size_t mark = o3_path_key(c, name, 5);
    sv_value nv;
    o3_res r = o3_load(c, &t, vj, &fresh, &nv, false);
    o3_path_pop(c, mark);
    *out = nv;
    out_explicit(out);
    return finish_load(c, o3_combine(result, r));
}

/* The registered type a number, bool, UUID or math value of the tree is,
 * or NULL. */
static const any_prim *prim_of_value(const sv_value *v)
{
    sv_prim p;
    switch (sv_kind_of(v)) {
    case SV_BOOL: p = SV_PRIM_BOOL; break;
    case SV_INT:
        p = sv_width(v) == 2   ? SV_PRIM_I16
            : sv_width(v) == 4 ? SV_PRIM_I32
            : sv_width(v) == 8 ? SV_PRIM_I64
                               : SV_PRIM_ANY;
        break;
    case SV_UINT:
        p = sv_width(v) == 1   ? SV_PRIM_U8
            : sv_width(v) == 2 ? SV_PRIM_U16
            : sv_width(v) == 4 ? SV_PRIM_U32
                               : SV_PRIM_U64;
        break;
    case SV_FLOAT: p = sv_width(v) == 4 ? SV_PRIM_F32 : SV_PRIM_F64; break;
    case SV_STRING:
        if (sv_tag_of(v) != SV_TAG_UUID) return NULL;
        p = SV_PRIM_UUID;
        break;
    case SV_TUPLE:
        switch (sv_tag_of(v)) {
        case SV_TAG_VECTOR2: p = SV_PRIM_VECTOR2; break;
        case SV_TAG_VECTOR3: p = SV_PRIM_VECTOR3; break;
        case SV_TAG_VECTOR4: p = SV_PRIM_VECTOR4; break;
        case SV_TAG_QUATERNION: p = SV_PRIM_QUATERNION; break;
        case SV_TAG_COLOR: p = SV_PRIM_COLOR; break;
        case SV_TAG_MATRIX3X3: p = SV_PRIM_MATRIX3X3; break;
        case SV_TAG_MATRIX3X4: p = SV_PRIM_MATRIX3X4; break;
        case SV_TAG_MATRIX4X4: p = SV_PRIM_MATRIX4X4; break;
        case SV_TAG_TRANSFORM: p = SV_PRIM_TRANSFORM; break;
        default: return NULL;
        }
        break;
    default: return NULL;
    }
    for (size_t i = 0; i < NPRIMS; i++)
        if (prims[i].prim == p) return &prims[i];
    return NULL;
}

o3_res o3_store_any(o3_ctx *c, const sv_value *v, const sv_value *def, sv_value *j)
{
    o3_res result = sv_o3de_result_none(WV);
    if (sv_kind_of(v) != SV_NULL) {
        const sv_schema_class *cls = sv_kind_of(v) == SV_OBJECT ? o3_class_of_value(c->s, v) : NULL;
        const any_prim *prim = cls ? NULL : prim_of_value(v);
        if (!cls && !prim)
            return o3_rep(c, WV, SV_O3DE_UNSUPPORTED,
                          "An AZStd::any holds an object of a schema class, a bool, a number of "
                          "a registered width (not i8), a UUID or a math type, or null when "
                          "empty.");
        sv_value obj = sv_map(c->doc, 0);
        sv_value type_text =
            cls ? o3_type_text(c, cls) : sv_str(c->doc, prim->name, strlen(prim->name));
        if (sv_map_append_str(c->doc, &obj, "$type", type_text) != SV_OK) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            return o3_r(WV, SV_O3DE_CATASTROPHIC);
        }
        result = o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
        sv_type t = cls ? (sv_type){.kind = SV_TYPE_CLASS, .cls = cls}
                        : (sv_type){.kind = SV_TYPE_PRIM, .prim = prim->prim};
        /* the default counts only when it holds the same type; without one
         * a class is compared with a fresh default, as O3DE's Store does,
         * and a primitive is written whatever its value */
        const sv_value *d = NULL;
        sv_value fresh;
        if (cls) {
            if (def && sv_kind_of(def) == SV_OBJECT && o3_class_of_value(c->s, def) == cls) {
                d = def;
            } else {
                fresh = o3_default_class(c, cls);
                d = &fresh;
            }
        } else if (def && prim_of_value(def) == prim) {
            d = def;
        }
        if (!o3_ok(c)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
        sv_value vj = o3_empty_object(c);
        o3_res r = o3_store(c, &t, v, d, &vj);
        if (!o3_halted(r) && (c->keep_defaults || o3_out(r) != SV_O3DE_DEFAULTS_USED))
            if (sv_map_append_str(c->doc, &obj, "Value", vj) != SV_OK)
                o3_fail(c, SV_ERR_NOMEM, "out of memory");
        result = o3_combine(result, r);
        *j = obj;
    }
    return o3_report(c, result,
                     o3_halted(result) ? "JsonAnySerializer::Store failed to store AZStd::any"
                                       : "JsonAnySerializer::Store finished storing AZStd::any");
}
