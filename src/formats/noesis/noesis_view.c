/* The searchable view of a decoded tree (docs/formats/noesis.md, "Property
 * names and colours"). The data section says what Noesis wrote, which makes
 * two common questions hard to ask with jq:
 *
 *  - "what is this element's Margin?": a DependencyObject writes each local
 *    value as a group {Property: {Property: <ref>}, Value: ...} whose ref
 *    names a DependencyPropertySerializer instance elsewhere in the list;
 *  - "which brushes are dark grey?": a colour is a UInt32 0xAARRGGBB.
 *
 * So the decoder renames each local-value group after the property it sets
 * ("Margin" instead of "LocalValue#2"; a repeated group becomes one field
 * per element; here, over the decoded instances), and writes a UInt32 named
 * "color" as a colour string (the interpreter does, as it reads the field:
 * noesis_interp.c). The bytes do not change: a key is not stored in the
 * file, and the encoder accepts a property key only when the group's ref
 * resolves to that name (nsb_local_value_name), and a colour string for any
 * UInt32. */
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "formats/noesis/noesis_internal.h"

/* Objects with more fields than this keep their keys: the name checks below
 * compare every pair with every other, and no real element comes near. */
#define VIEW_MAX_FIELDS 4096u

static bool key_is(const sv_value *k, const char *s)
{
    size_t n = strlen(s);
    return k->kind == SV_STRING && k->len == n && memcmp(k->as.str, s, n) == 0;
}

static bool name_like(const sv_value *v)
{
    return v && v->kind == SV_STRING && v->len != 0 && !(v->flags & SV_F_UTF16) &&
           sv__core_utf8_valid(v->as.bytes, v->len);
}

/* What a local-value group's ref resolves against: the instances, and
 * each one's Name as the interpreter found it (NULL: look it up). */
typedef struct name_table {
    const sv_value *objects;
    const sv_value *names;
} name_table;

static const sv_value *local_value_name(const sv_value *group, const name_table *m)
{
    if (group->kind != SV_MAP || group->len != 2 || m->objects->kind != SV_ARRAY) return NULL;
    if (!key_is(sv_key_at(group, 0), "Property") || !key_is(sv_key_at(group, 1), "Value"))
        return NULL;
    const sv_value *inner = sv_val_at(group, 0);
    if (inner->kind != SV_MAP || inner->len != 1) return NULL;
    const sv_value *ref = sv_val_at(inner, 0);
    if (!key_is(sv_key_at(inner, 0), "Property") || ref->kind != SV_REF ||
        (ref->flags & SV_F_NULLREF) || ref->as.u >= m->objects->len)
        return NULL;
    if (m->names) return m->names[ref->as.u].kind == SV_STRING ? &m->names[ref->as.u] : NULL;
    const sv_value *target = &sv_array_items(m->objects)[ref->as.u];
    if (target->kind != SV_OBJECT) return NULL;
    const sv_value *name = sv_map_get(target, "Name", 4);
    return name_like(name) ? name : NULL;
}

bool nsb_is_name(const sv_value *v)
{
    return name_like(v);
}

const sv_value *nsb_local_value_name(const sv_value *group, const sv_value *objects)
{
    const name_table m = {objects, NULL};
    return local_value_name(group, &m);
}

bool nsb_color_parse(const sv_value *v, uint32_t *argb)
{
    if (v->kind != SV_STRING || v->tag != SV_TAG_COLOR_ARGB || v->len != 9 || v->as.str[0] != '#')
        return false;
    uint32_t x = 0;
    for (int i = 1; i < 9; i++) {
        char c = v->as.str[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                                            : 16u;
        if (d > 15) return false;
        x = x << 4 | d;
    }
    *argb = x;
    return true;
}

/* Whether text n is a key of obj's fields other than skip, or one of the
 * names already given. */
static bool taken(const sv_value *obj, uint32_t skip, const sv_pair *given, size_t given_count,
                  const sv_value *n)
{
    const sv_value c = *obj; /* a local copy: the accessors' checks leave the loop */
    for (uint32_t i = 0; i < c.len; i++) {
        const sv_value *k = sv_key_at(&c, i);
        if (i != skip && k->kind == SV_STRING && k->len == n->len &&
            memcmp(k->as.str, n->as.str, n->len) == 0)
            return true;
    }
    for (size_t i = 0; i < given_count; i++)
        if (given[i].key.len == n->len && memcmp(given[i].key.as.str, n->as.str, n->len) == 0)
            return true;
    return false;
}

/* Room for the renamed fields of one instance, reused from one to the next
 * (scratch memory: only the fields kept go into the tree). */
typedef struct field_room {
    sv_pair *pairs;
    size_t cap;
} field_room;

/* Whether some field of the instance is a local-value group (or a
 * non-empty array whose first element is one) whose ref names a property:
 * most instances have none and are left as they are, untouched. */
static bool has_named_group(const sv_value *obj, const name_table *m)
{
    const sv_value c = *obj;
    for (uint32_t i = 0; i < c.len; i++) {
        const sv_value *v = sv_val_at(&c, i);
        if (v->kind == SV_MAP && local_value_name(v, m)) return true;
        if (v->kind == SV_ARRAY && v->len > 0 && local_value_name(&sv_array_items(v)[0], m))
            return true;
    }
    return false;
}

/* The fields of one instance, local-value groups renamed (a repeated one
 * split) when every name is free. The renamed fields replace the old ones
 * in place when none was split (same count) and the object keeps its keys
 * beside its values, else the instance gets a new box of the new count (a
 * compact object shares its keys with every object of its class). */
static bool name_fields(sv_doc *doc, sv_value *obj, const name_table *m, field_room *room)
{
    const sv_value c = *obj;
    const uint32_t count = c.len;
    if (count == 0 || count > VIEW_MAX_FIELDS) return true;
    if (!has_named_group(&c, m)) return true;
    size_t total = 0;
    bool changed = false;
    for (uint32_t i = 0; i < count; i++) {
        const sv_value *v = sv_val_at(&c, i);
        total += v->kind == SV_ARRAY ? (v->len ? v->len : 1) : 1;
    }
    if (total > VIEW_MAX_FIELDS) return true;
    if (total > room->cap) {
        sv_pair *grown = sv__core_doc_scratch_realloc(doc, room->pairs, room->cap * sizeof *grown,
                                                      VIEW_MAX_FIELDS * sizeof *grown);
        if (!grown) return false;
        room->pairs = grown;
        room->cap = VIEW_MAX_FIELDS;
    }
    sv_pair *out = room->pairs;
    size_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const sv_value *v = sv_val_at(&c, i);
        if (v->kind == SV_MAP) {
            const sv_value *name = local_value_name(v, m);
            if (name && !taken(&c, i, out, n, name)) {
                out[n].key = sv_str_intern(doc, name->as.str, name->len);
                if (out[n].key.kind != SV_STRING) return false;
                out[n++].val = *v;
                changed = true;
                continue;
            }
        } else if (v->kind == SV_ARRAY && v->len > 0) {
            /* A repeated group: split only when every element names a free
             * property, so the encoder can count them back. */
            const sv_value *items = sv_array_items(v);
            size_t first = n;
            uint32_t k = 0;
            for (; k < v->len; k++) {
                const sv_value *name = local_value_name(&items[k], m);
                if (!name || taken(&c, i, out, n, name)) break;
                out[n].key = sv_str_intern(doc, name->as.str, name->len);
                if (out[n].key.kind != SV_STRING) return false;
                out[n++].val = items[k];
            }
            if (k == v->len) {
                changed = true;
                continue;
            }
            n = first;
        }
        out[n].key = *sv_key_at(&c, i);
        out[n++].val = *v;
    }
    if (!changed) return true;
    sv_pair *pairs = sv_pairs(obj); /* NULL: a compact object */
    if (n == count && pairs) {      /* nothing split: the same fields, some keys new */
        memcpy(pairs, out, n * sizeof *out);
        return true;
    }
    const sv_value *cls = sv_object_class(obj);
    sv_value renamed = sv__core_pairs_from(doc, SV_OBJECT, out, n);
    if (renamed.kind != SV_OBJECT) return false;
    renamed.as.box->cls = cls;
    *obj = renamed;
    return true;
}

sv_status nsb_view_apply(sv_doc *doc, sv_value *objects, const sv_value *names, sv_error *err)
{
    sv_value *items = sv_array_items(objects);
    const name_table m = {objects, names};
    field_room room = {NULL, 0};
    bool ok = true;
    for (uint32_t i = 0; ok && i < objects->len; i++)
        if (items[i].kind == SV_OBJECT) ok = name_fields(doc, &items[i], &m, &room);
    sv__core_doc_scratch_free(doc, room.pairs, room.cap * sizeof *room.pairs);
    return ok ? SV_OK
              : sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory naming the fields");
}
