/* Pointers (raw and smart) and "$type": polymorphic loads resolved by UUID
 * or name, "$type" written only when the actual class differs from what the
 * default implies. docs/formats/o3de.md, "What serval follows", Pointers and `$type`. */
#include <ctype.h>
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE
#define RI SV_O3DE_RETRIEVE_INFO

const sv_schema_class *o3_class_of_value(const sv_schema *s, const sv_value *v)
{
    size_t n;
    const char *name = sv_get_str(sv_object_class(v), &n);
    return n ? sv_schema_class_by_name(s, name, n) : NULL;
}

sv_o3de_result sv_o3de_resolve_type(const sv_schema *s, const char *text, size_t len,
                                    const sv_schema_class *base, const sv_schema_class **out)
{
    *out = NULL;
    if (!s || !text) return sv_o3de_result_make(RI, SV_O3DE_UNKNOWN);
    sv_uuid u;
    bool bad;
    if (o3_uuid_search(text, len, &u, &bad)) {
        *out = sv_schema_class_by_uuid(s, &u);
        return sv_o3de_result_make(RI, *out ? SV_O3DE_SUCCESS : SV_O3DE_UNKNOWN);
    }
    while (len && isspace((unsigned char)*text)) text++, len--;
    while (len && isspace((unsigned char)text[len - 1])) len--;
    /* names are compared by the CRC-32 of their lower-cased text, as O3DE
     * does, so differently cased names (and CRC collisions) are the same */
    uint32_t crc = o3_crc32_lower(text, len);
    const sv_schema_class *found = NULL;
    size_t count = 0, derived = 0;
    const sv_schema_class *derived_one = NULL;
    for (size_t i = 0, n = sv_schema_class_count(s); i < n; i++) {
        const sv_schema_class *c = sv_schema_class_at(s, i);
        if (o3_crc32_lower(c->name, strlen(c->name)) != crc) continue;
        count++;
        found = c;
        if (base && sv_schema_is_a(c, base)) {
            derived++;
            derived_one = c;
        }
    }
    if (count == 1) {
        *out = found;
        return sv_o3de_result_make(RI, SV_O3DE_SUCCESS);
    }
    if (count > 1 && base && derived == 1) {
        *out = derived_one;
        return sv_o3de_result_make(RI, SV_O3DE_SUCCESS);
    }
    return sv_o3de_result_make(RI, SV_O3DE_UNKNOWN);
}

/* The "$type" text of a class: its name when no other class shares the
 * name's CRC, else "{UUID} Name". */
sv_value o3_type_text(o3_ctx *c, const sv_schema_class *cls)
{
    size_t nl = strlen(cls->name);
    uint32_t crc = o3_crc32_lower(cls->name, nl);
    size_t same = 0;
    for (size_t i = 0, n = sv_schema_class_count(c->s); i < n; i++) {
        const sv_schema_class *o = sv_schema_class_at(c->s, i);
        if (o3_crc32_lower(o->name, strlen(o->name)) == crc) same++;
    }
    if (same <= 1 || !cls->has_uuid) return sv_str(c->doc, cls->name, nl);
    char buf[40 + 256];
    sv_uuid_format(&cls->uuid, true, buf);
    size_t n = 38;
    buf[n++] = ' ';
    size_t take = nl < 256 ? nl : 255;
    memcpy(buf + n, cls->name, take);
    return sv_str(c->doc, buf, n + take);
}

/* Loads into a pointee of class cls (the class part of dispatch). */
static o3_res load_object(o3_ctx *c, const sv_schema_class *cls, const sv_value *j,
                          const sv_value *cur, sv_value *out)
{
    if (o3_is_explicit_default(j)) {
        *out = *cur;
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Value has an explicit default.");
    }
    c->depth++;
    o3_res r = o3_load_class(c, cls, j, cur, out);
    c->depth--;
    return r;
}

o3_res o3_load_pointer(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                       sv_value *out)
{
    *out = *cur;
    const sv_type *elem = t->params[0];
    bool was_null = sv_kind_of(cur) == SV_NULL;
    if (sv_kind_of(j) == SV_NULL) {
        *out = sv_null();
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "Pointer set to null.");
    }
    sv_value base, nv;
    o3_res r;
    if (elem->kind == SV_TYPE_CLASS) {
        const sv_schema_class *declared = elem->cls, *target = declared;
        bool explicit_type = false;
        const sv_value *tv = sv_kind_of(j) == SV_MAP ? sv_map_get(j, "$type", 5) : NULL;
        if (tv) {
            size_t mark = o3_path_key(c, "$type", 5);
            if (tv->kind != SV_STRING) {
                r = o3_rep(c, RI, SV_O3DE_UNKNOWN, "Unable to determine the type of the pointer.");
                o3_path_pop(c, mark);
                return r;
            }
            const sv_schema_class *found;
            r = sv_o3de_resolve_type(c->s, tv->as.str, tv->len, declared, &found);
            if (!found) {
                r = o3_report(c, r, "Unable to resolve provided type: %.*s.",
                              (int)(tv->len > 200 ? 200 : tv->len), tv->as.str);
                o3_path_pop(c, mark);
                return r;
            }
            o3_path_pop(c, mark);
            if (!sv_schema_is_a(found, declared))
                return o3_rep(c, SV_O3DE_CONVERT, SV_O3DE_TYPE_MISMATCH,
                              "Requested type can't be cast to the type of the target value.");
            target = found;
            explicit_type = true;
        }
        bool is_new = was_null;
        if (!was_null) {
            const sv_schema_class *actual = o3_class_of_value(c->s, cur);
            if (explicit_type && actual != target)
                is_new = true; /* a different class: destroyed and made anew */
            else if (actual)
                target = actual;
        }
        base = is_new ? o3_default_class(c, target) : *cur;
        if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
        r = load_object(c, target, j, &base, &nv);
        if (is_new && !was_null && (o3_halted(r) || o3_altered(r))) nv = *cur;
    } else {
        base = was_null ? o3_default_of(c, elem) : *cur;
        c->depth++;
        r = o3_load(c, elem, j, &base, &nv, was_null);
        c->depth--;
    }
    /* o3de.md, "What serval follows", Pointers and `$type`: a pointer that was null stays null when
     * the load failed */
    if (was_null && (o3_halted(r) || o3_altered(r)))
        *out = sv_null();
    else
        *out = nv;
    return r;
}

o3_res o3_store_pointer(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                        sv_value *j)
{
    const sv_type *elem = t->params[0];
    bool def_null = !def || sv_kind_of(def) == SV_NULL;
    if (sv_kind_of(v) == SV_NULL) {
        *j = sv_null();
        return (c->keep_defaults || !def_null)
                   ? o3_rep(c, WV, SV_O3DE_SUCCESS, "Null pointer stored.")
                   : o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Null pointer is the default.");
    }
    if (elem->kind != SV_TYPE_CLASS) {
        sv_value d = def_null ? o3_default_of(c, elem) : *def;
        c->depth++;
        o3_res r = o3_store(c, elem, v, &d, j);
        c->depth--;
        return r;
    }
    const sv_schema_class *declared = elem->cls;
    const sv_schema_class *actual = o3_class_of_value(c->s, v);
    if (!actual) actual = declared;
    const sv_schema_class *def_actual = def_null ? declared : o3_class_of_value(c->s, def);
    sv_value d;
    if (!def_null && def_actual == actual)
        d = *def;
    else
        d = o3_default_class(c, actual);
    c->depth++;
    o3_res r = o3_store_class(c, actual, v, &d, j);
    c->depth--;
    if (o3_halted(r)) return r;
    if (actual != declared && (actual != def_actual || c->keep_defaults)) {
        /* "$type" goes first: rebuild the object with it in front */
        sv_value obj = sv_map(c->doc, 0);
        (void)sv_map_append_str(c->doc, &obj, "$type", o3_type_text(c, actual));
        if (sv_kind_of(j) == SV_MAP) {
            for (uint32_t i = 0; i < j->len; i++)
                (void)sv_map_append(c->doc, &obj, *sv_key_at(j, i), *sv_val_at(j, i));
        }
        if (sv_doc_status(c->doc) != SV_OK) o3_fail(c, sv_doc_status(c->doc), "out of memory");
        *j = obj;
        r = o3_combine(r, o3_r(WV, SV_O3DE_SUCCESS));
    }
    return r;
}
