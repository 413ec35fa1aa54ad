/* AZStd::any (spec o3de-json §7.6, O3DE's JsonAnySerializer):
 * {"$type": T, "Value": V}. T is resolved against the schema's classes as
 * "$type" is elsewhere (a braced UUID, else the trimmed name); the value
 * is loaded into a fresh default of that class. The any's value in the
 * tree is null when empty, else an object of a schema class.
 *
 * The outcomes are O3DE's, quirks included: a "$type" that names nothing
 * is reported as Unknown, yet the load returns DefaultsUsed and leaves the
 * any as it was; a UUID no class has is read as a type id (Success) and
 * empties the any. */
#include <ctype.h>
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static const char *const created_empty = "JsonAnySerializer::Load created a default, empty AZStd::any";

/* How many schema classes the trimmed name t[0..n) names (by O3DE's
 * lower-cased CRC-32), for telling "none" from "several". */
static size_t classes_named(const sv_schema *s, const char *t, size_t n)
{
    while (n && isspace((unsigned char)*t)) t++, n--;
    while (n && isspace((unsigned char)t[n - 1])) n--;
    uint32_t crc = o3_crc32_lower(t, n);
    size_t count = 0;
    for (size_t i = 0, k = sv_schema_class_count(s); i < k; i++) {
        const sv_schema_class *cls = sv_schema_class_at(s, i);
        if (o3_crc32_lower(cls->name, strlen(cls->name)) == crc) count++;
    }
    return count;
}

/* JsonDeserializer::LoadTypeId without a base class. *cls gets the class,
 * *named_uuid whether the text held a (non-nil) UUID, which is a type id
 * even when no class has it. */
static o3_res load_type_id(o3_ctx *c, const sv_value *tv, const sv_schema_class **cls,
                           bool *named_uuid)
{
    *cls = NULL;
    *named_uuid = false;
    if (tv->kind != SV_STRING)
        return o3_rep(c, RF, SV_O3DE_UNKNOWN, "Unable to find type id with the provided string.");
    sv_uuid u;
    bool bad;
    static const sv_uuid nil;
    if (o3_uuid_search(tv->as.str, tv->len, &u, &bad) && memcmp(&u, &nil, sizeof u) != 0) {
        *named_uuid = true;
        *cls = sv_schema_class_by_uuid(c->s, &u);
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read type id from json value.");
    }
    (void)sv_o3de_resolve_type(c->s, tv->as.str, tv->len, NULL, cls);
    if (*cls) return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read type id from json value.");
    if (classes_named(c->s, tv->as.str, tv->len) > 1)
        return o3_rep(c, RF, SV_O3DE_UNKNOWN,
                      "The provided string points to multiple type ids. Use the uuid of the "
                      "intended class instead.");
    return o3_rep(c, RF, SV_O3DE_UNKNOWN, "Unable to find type id with the provided string.");
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

    const sv_schema_class *cls;
    bool named_uuid;
    o3_res result = o3_combine(sv_o3de_result_none(RF), load_type_id(c, tv, &cls, &named_uuid));
    /* O3DE tests for a type id, not for the result: an unresolved type has
     * been reported, and the any is left alone */
    if (!cls && !named_uuid) return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, created_empty);
    if (!cls) { /* CreateAny of an unregistered type gives an empty any */
        *out = sv_null();
        return o3_report(c, result,
                         "JsonAnySerializer::Load failed to load a value matched the reported AZ "
                         "TypeId. The C++ declaration may have been deleted or changed.");
    }
    sv_value fresh = o3_default_class(c, cls);
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    *out = fresh;
    /* "Value" as O3DE writes it, "value" as it used to */
    const char *name = sv_map_get(j, "Value", 5) ? "Value" : "value";
    const sv_value *vj = sv_map_get(j, name, 5);
    if (!vj) return finish_load(c, o3_combine(result, o3_r(RF, SV_O3DE_DEFAULTS_USED)));
    sv_type ct = {.kind = SV_TYPE_CLASS, .cls = cls};
    size_t mark = o3_path_key(c, name, 5);
    sv_value nv;
    o3_res r = o3_load(c, &ct, vj, &fresh, &nv, false);
    o3_path_pop(c, mark);
    *out = nv;
    return finish_load(c, o3_combine(result, r));
}

o3_res o3_store_any(o3_ctx *c, const sv_value *v, const sv_value *def, sv_value *j)
{
    o3_res result = sv_o3de_result_none(WV);
    if (sv_kind_of(v) != SV_NULL) {
        const sv_schema_class *cls = o3_class_of_value(c->s, v);
        if (!cls)
            return o3_rep(c, WV, SV_O3DE_UNSUPPORTED,
                          "An AZStd::any holds a value of a schema class (an object with its "
                          "\"$class\"), or null when empty.");
        sv_value obj = sv_map(c->doc, 0);
        if (!sv_map_put_str(c->doc, &obj, "$type", o3_type_text(c, cls))) {
            o3_fail(c, SV_ERR_NOMEM, "out of memory");
            return o3_r(WV, SV_O3DE_CATASTROPHIC);
        }
        result = o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
        /* the default counts only when it holds the same type; without one
         * the class is compared with a fresh default, as O3DE's Store does */
        sv_value d = (def && o3_class_of_value(c->s, def) == cls) ? *def : o3_default_class(c, cls);
        if (!o3_ok(c)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
        sv_type ct = {.kind = SV_TYPE_CLASS, .cls = cls};
        sv_value vj = o3_empty_object(c);
        o3_res r = o3_store(c, &ct, v, &d, &vj);
        if (!o3_halted(r) && (c->keep_defaults || o3_out(r) != SV_O3DE_DEFAULTS_USED))
            if (!sv_map_put_str(c->doc, &obj, "Value", vj)) o3_fail(c, SV_ERR_NOMEM, "out of memory");
        result = o3_combine(result, r);
        *j = obj;
    }
    return o3_report(c, result,
                     o3_halted(result) ? "JsonAnySerializer::Store failed to store AZStd::any"
                                       : "JsonAnySerializer::Store finished storing AZStd::any");
}
