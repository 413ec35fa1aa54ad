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
 * per element), and writes a UInt32 named "color" as a colour string. The
 * bytes do not change: a key is not stored in the file, and the encoder
 * accepts a property key only when the group's ref resolves to that name
 * (nsb_local_value_name), and a colour string for any UInt32. */
#include <string.h>

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

const sv_value *nsb_local_value_name(const sv_value *group, const sv_value *objects)
{
    if (group->kind != SV_MAP || group->len != 2 || objects->kind != SV_ARRAY) return NULL;
    const sv_pair *p = sv_pairs(group);
    if (!key_is(&p[0].key, "Property") || !key_is(&p[1].key, "Value")) return NULL;
    const sv_value *inner = &p[0].val;
    if (inner->kind != SV_MAP || inner->len != 1) return NULL;
    const sv_pair *ip = sv_pairs(inner);
    const sv_value *ref = &ip[0].val;
    if (!key_is(&ip[0].key, "Property") || ref->kind != SV_REF || (ref->flags & SV_F_NULLREF) ||
        ref->as.u >= objects->len)
        return NULL;
    const sv_value *target = &sv_array_items(objects)[ref->as.u];
    if (target->kind != SV_OBJECT) return NULL;
    const sv_value *name = sv_map_get(target, "Name", 4);
    if (!name || name->kind != SV_STRING || name->len == 0 || (name->flags & SV_F_UTF16) ||
        !sv__core_utf8_valid(name->as.bytes, name->len))
        return NULL;
    return name;
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

/* Every UInt32 field named "color" under v, as "#AARRGGBB". */
static bool colour_fields(sv_doc *doc, sv_value *v)
{
    if (v->kind == SV_ARRAY) {
        sv_value *items = sv_array_items(v);
        for (uint32_t i = 0; i < v->len; i++)
            if (!colour_fields(doc, &items[i])) return false;
        return true;
    }
    if (v->kind != SV_MAP && v->kind != SV_OBJECT) return true;
    sv_pair *p = sv_pairs(v);
    for (uint32_t i = 0; i < v->len; i++) {
        sv_value *f = &p[i].val;
        if (f->kind == SV_UINT && f->sub == 4 && f->tag == SV_TAG_NONE &&
            key_is(&p[i].key, "color")) {
            static const char hex[] = "0123456789ABCDEF";
            char text[9];
            text[0] = '#';
            for (int k = 0; k < 8; k++) text[1 + k] = hex[(f->as.u >> (28 - 4 * k)) & 15];
            sv_value s = sv_str(doc, text, 9);
            if (s.kind != SV_STRING) return false;
            *f = sv_with_tag(s, SV_TAG_COLOR_ARGB);
        } else if (!colour_fields(doc, f)) {
            return false;
        }
    }
    return true;
}

/* Whether text n is a key of obj's pairs other than skip, or one of the
 * names already given. */
static bool taken(const sv_pair *pairs, uint32_t count, uint32_t skip, const sv_pair *given,
                  size_t given_count, const sv_value *n)
{
    for (uint32_t i = 0; i < count; i++)
        if (i != skip && pairs[i].key.kind == SV_STRING && pairs[i].key.len == n->len &&
            memcmp(pairs[i].key.as.str, n->as.str, n->len) == 0)
            return true;
    for (size_t i = 0; i < given_count; i++)
        if (given[i].key.len == n->len && memcmp(given[i].key.as.str, n->as.str, n->len) == 0)
            return true;
    return false;
}

/* The fields of one instance, local-value groups renamed (a repeated one
 * split) when every name is free; out has room for the split fields. */
static bool name_fields(sv_doc *doc, sv_value *obj, const sv_value *objects)
{
    uint32_t count = obj->len;
    if (count == 0 || count > VIEW_MAX_FIELDS) return true;
    sv_pair *pairs = sv_pairs(obj);
    size_t total = 0;
    bool changed = false;
    for (uint32_t i = 0; i < count; i++)
        total += pairs[i].val.kind == SV_ARRAY ? (pairs[i].val.len ? pairs[i].val.len : 1) : 1;
    if (total > VIEW_MAX_FIELDS) return true;
    sv_pair *out = sv_doc_alloc(doc, total * sizeof *out);
    if (!out) return false;
    size_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const sv_value *v = &pairs[i].val;
        if (v->kind == SV_MAP) {
            const sv_value *name = nsb_local_value_name(v, objects);
            if (name && !taken(pairs, count, i, out, n, name)) {
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
                const sv_value *name = nsb_local_value_name(&items[k], objects);
                if (!name || taken(pairs, count, i, out, n, name)) break;
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
        out[n++] = pairs[i];
    }
    if (!changed) return true;
    const sv_value *cls = obj->as.box->cls;
    sv_value renamed = sv__core_pairs_from(doc, SV_OBJECT, out, n);
    if (renamed.kind != SV_OBJECT) return false;
    renamed.as.box->cls = cls;
    *obj = renamed;
    return true;
}

sv_status nsb_view_apply(sv_doc *doc, sv_value *objects, sv_error *err)
{
    sv_value *items = sv_array_items(objects);
    /* Names first, over the tree as decoded: a serializer's Name is never a
     * colour, but keep the order obvious. */
    for (uint32_t i = 0; i < objects->len; i++) {
        if (items[i].kind == SV_OBJECT && !name_fields(doc, &items[i], objects)) goto nomem;
        if (!colour_fields(doc, &items[i])) goto nomem;
    }
    return SV_OK;
nomem:
    return sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory naming the fields");
}
