/* Editing a tree in place and JSON Pointer paths (serval/edit.h). */
#include <stdint.h>
#include <string.h>

#include "core/value_internal.h"
#include "serval/edit.h"

static bool is_keyed(const sv_value *v)
{
    return v && (v->kind == SV_MAP || v->kind == SV_OBJECT);
}

sv_status sv_map_set(sv_doc *doc, sv_value *map, const char *key, sv_value val)
{
    if (!is_keyed(map) || !key) return SV_ERR_TYPE;
    sv_value *old = sv_map_getz(map, key);
    if (old) {
        *old = val;
        return SV_OK;
    }
    return sv_map_append_str(doc, map, key, val);
}

sv_status sv_object_set(sv_doc *doc, sv_value *obj, const char *field, sv_value val)
{
    return sv_map_set(doc, obj, field, val);
}

sv_status sv_array_set(sv_value *arr, size_t i, sv_value val)
{
    if (!arr || arr->kind != SV_ARRAY) return SV_ERR_TYPE;
    if (i >= arr->len) return SV_ERR_RANGE;
    sv_array_items(arr)[i] = val;
    return SV_OK;
}

/* The index of the field whose value is val (val is one of map's). */
static size_t field_index(const sv_value *map, const sv_value *val)
{
    size_t i = 0;
    while (sv_val_at(map, i) != val) i++;
    return i;
}

/* Removes field i of a pair-layout map, keeping the others in order: the
 * step sv_map_remove_key and sv_remove_path share. */
static void remove_field_at(sv_value *map, size_t i)
{
    sv_pair *pairs = sv_pairs(map);
    memmove(&pairs[i], &pairs[i + 1], (map->len - i - 1) * sizeof *pairs);
    map->len--;
}

sv_status sv_map_remove_key(sv_value *map, const char *key)
{
    if (!is_keyed(map) || !key) return SV_ERR_TYPE;
    sv_value *val = sv_map_getz(map, key);
    if (!val) return SV_ERR_NOT_FOUND;
    if (sv__core_is_compact(map)) return SV_ERR_USAGE; /* no document to expand it in */
    remove_field_at(map, field_index(map, val));
    return SV_OK;
}

sv_status sv_array_remove_at(sv_value *arr, size_t i)
{
    if (!arr || arr->kind != SV_ARRAY) return SV_ERR_TYPE;
    if (i >= arr->len) return SV_ERR_RANGE;
    sv_value *items = sv_array_items(arr);
    memmove(&items[i], &items[i + 1], (arr->len - i - 1) * sizeof *items);
    arr->len--;
    return SV_OK;
}

/* Deprecated names (edit.h), kept for one release. */
bool sv_map_remove(sv_value *map, const char *key)
{
    return sv_map_remove_key(map, key) == SV_OK;
}

bool sv_array_remove(sv_value *arr, size_t i)
{
    return sv_array_remove_at(arr, i) == SV_OK;
}

/* ---- JSON Pointer ---------------------------------------------------------------- */

/* The next token of a pointer, unescaped into buf (a token longer than the
 * buffer matches nothing: no key that long is looked up by path). *p moves
 * past it. Returns the token's length, or SIZE_MAX when it is too long or
 * not a token at all: RFC 6901 allows "~" only as "~0" or "~1". */
#define TOKEN_MAX 1024
static size_t next_token(const char **p, char *buf)
{
    const char *s = *p + 1; /* past the '/' */
    size_t n = 0;
    bool too_long = false; /* or a bad escape */
    for (; *s && *s != '/'; s++) {
        char c = *s;
        if (c == '~' && (s[1] == '0' || s[1] == '1'))
            c = *++s == '0' ? '~' : '/';
        else if (c == '~')
            too_long = true;
        if (n < TOKEN_MAX)
            buf[n++] = c;
        else
            too_long = true;
    }
    buf[n] = '\0';
    *p = s;
    return too_long ? SIZE_MAX : n;
}

/* A token as an array index: decimal digits, no leading zero (RFC 6901). */
static bool token_index(const char *t, size_t n, uint64_t *out)
{
    if (n == 0 || n > 19 || (n > 1 && t[0] == '0')) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') return false;
        v = v * 10 + (uint64_t)(t[i] - '0');
    }
    *out = v;
    return true;
}

/* The child of v named by token t, or NULL. */
static sv_value *child(sv_value *v, const char *t, size_t n)
{
    uint64_t idx;
    if (v->kind == SV_ARRAY)
        return token_index(t, n, &idx) && idx < v->len ? sv_array_at(v, idx) : NULL;
    if (!is_keyed(v)) return NULL;
    sv_value *found = sv_map_get(v, t, n);
    if (found || v->kind != SV_MAP) return found;
    /* An integer key, as a Godot Dictionary has: "/7" is the key 7. */
    bool neg = n > 1 && t[0] == '-';
    if (!token_index(t + neg, n - neg, &idx)) return NULL;
    for (uint32_t i = 0; i < v->len; i++) {
        const sv_value *k = sv_key_at(v, i);
        if (k->kind == SV_INT && (neg ? k->as.i < 0 && (uint64_t)(-(k->as.i + 1)) + 1 == idx
                                      : k->as.i >= 0 && (uint64_t)k->as.i == idx))
            return sv_val_at(v, i);
        if (k->kind == SV_UINT && !neg && k->as.u == idx) return sv_val_at(v, i);
    }
    return NULL;
}

sv_value *sv_get_path(sv_doc *doc, sv_value *root, const char *pointer)
{
    sv_value *v = root ? root : (doc ? sv_doc_root(doc) : NULL);
    if (!v || !pointer) return NULL;
    if (*pointer && *pointer != '/') return NULL;
    char tok[TOKEN_MAX + 1];
    const char *p = pointer;
    while (v && *p == '/') {
        size_t n = next_token(&p, tok);
        v = n == SIZE_MAX ? NULL : child(v, tok, n);
    }
    return v;
}

/* Splits pointer into its parent and its last token (unescaped into tok). */
static sv_value *parent_of(sv_doc *doc, sv_value *root, const char *pointer, char *tok,
                           size_t *tok_len)
{
    const char *last = strrchr(pointer, '/');
    if (!last) return NULL;
    char parent_path[TOKEN_MAX * 4];
    size_t plen = (size_t)(last - pointer);
    if (plen >= sizeof parent_path) return NULL;
    memcpy(parent_path, pointer, plen);
    parent_path[plen] = '\0';
    const char *p = last;
    *tok_len = next_token(&p, tok);
    if (*tok_len == SIZE_MAX) return NULL;
    return sv_get_path(doc, root, parent_path);
}

sv_status sv_set_path(sv_doc *doc, sv_value *root, const char *pointer, sv_value val)
{
    if (!pointer) return SV_ERR_USAGE;
    if (!*pointer) {
        sv_value *r = root ? root : sv_doc_root(doc);
        if (!r) return SV_ERR_USAGE;
        *r = val;
        return SV_OK;
    }
    char tok[TOKEN_MAX + 1];
    size_t n = 0;
    sv_value *parent = parent_of(doc, root, pointer, tok, &n);
    if (!parent) return SV_ERR_NOT_FOUND;
    if (parent->kind == SV_ARRAY) {
        if (n == 1 && tok[0] == '-') return sv_array_append(doc, parent, val);
        uint64_t idx;
        if (!token_index(tok, n, &idx) || idx >= parent->len) return SV_ERR_RANGE;
        return sv_array_set(parent, (size_t)idx, val);
    }
    if (!is_keyed(parent)) return SV_ERR_TYPE;
    sv_value *old = child(parent, tok, n);
    if (old) {
        *old = val;
        return SV_OK;
    }
    if (memchr(tok, '\0', n)) return SV_ERR_USAGE;
    return sv_map_set(doc, parent, tok, val);
}

sv_status sv_remove_path(sv_doc *doc, sv_value *root, const char *pointer)
{
    char tok[TOKEN_MAX + 1];
    size_t n = 0;
    sv_value *parent = pointer && *pointer ? parent_of(doc, root, pointer, tok, &n) : NULL;
    sv_value *target = parent ? child(parent, tok, n) : NULL;
    if (!target) return SV_ERR_NOT_FOUND;
    if (parent->kind == SV_ARRAY) {
        sv_value *items = sv_array_items(parent);
        return sv_array_remove_at(parent, (size_t)(target - items));
    }
    size_t i = field_index(parent, target);
    if (sv__core_is_compact(parent)) {
        /* the other objects of its shape keep the field: this one gets pairs */
        sv_status st = sv__core_expand(doc, parent, parent->len);
        if (st != SV_OK) return st;
    }
    remove_field_at(parent, i);
    return SV_OK;
}
