/* Godot 4 engine rules that the byte layout allows to break: a typed
 * container holding a value of another type. The engine's reader drops such
 * an element (Array) or entry (Dictionary) without an error, so the value the
 * game sees is not the one in the file; serval keeps the bytes and reports. */
#include <stdio.h>
#include <string.h>

#include "serval/godot.h"

#define PTR_MAX 4096

typedef struct walk {
    sv_godot_rule_fn fn;
    void *ctx;
    size_t count;
    char ptr[PTR_MAX];
} walk;

/* Whether the engine would drop v from a container typed t (only the types
 * whose rule is checked: int and String). Unknown names are not judged. */
static int type_mismatch(const char *t, const sv_value *v)
{
    sv_kind k = sv_kind_of(v);
    /* The engine converts what Variant::can_convert_strict allows (a float
     * or bool into an int) and drops the rest. */
    if (!strcmp(t, "int")) return k != SV_INT && k != SV_UINT && k != SV_FLOAT && k != SV_BOOL;
    if (!strcmp(t, "String")) return k != SV_STRING;
    return 0;
}

static const char *meta_str(const sv_value *meta, const char *key)
{
    const sv_value *v = sv_map_get(meta, key, strlen(key));
    return sv_kind_of(v) == SV_STRING ? sv_get_str(v, NULL) : NULL;
}

static int empty_script(const sv_value *meta, const char *key)
{
    const sv_value *v = sv_map_get(meta, key, strlen(key));
    if (sv_kind_of(v) != SV_MAP) return 0;
    const sv_value *s = sv_map_get(v, "script", 6);
    return sv_kind_of(s) == SV_STRING && sv_len(s) == 0;
}

static void say(walk *w, const char *fmt, const char *a)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, a);
    w->fn(w->ctx, w->ptr, msg);
    w->count++;
}

static sv_status visit(walk *w, const sv_value *v, int depth);

/* Appends /seg (escaped as RFC 6901 says) to the pointer, visits c, restores. */
static sv_status visit_at(walk *w, const sv_value *c, const char *seg, int depth)
{
    size_t n = strlen(w->ptr), at = n;
    if (at + 1 >= PTR_MAX) return SV_ERR_LIMIT;
    w->ptr[at++] = '/';
    for (const char *s = seg; *s; s++) {
        const char *rep = *s == '~' ? "~0" : *s == '/' ? "~1" : NULL;
        size_t k = rep ? 2 : 1;
        if (at + k >= PTR_MAX) return SV_ERR_LIMIT;
        if (rep) memcpy(w->ptr + at, rep, 2);
        else w->ptr[at] = *s;
        at += k;
    }
    w->ptr[at] = 0;
    sv_status st = visit(w, c, depth + 1);
    w->ptr[n] = 0;
    return st;
}

static sv_status visit(walk *w, const sv_value *v, int depth)
{
    if (depth > 1024) return SV_ERR_DEPTH;
    sv_kind k = sv_kind_of(v);
    const sv_value *meta = (k == SV_ARRAY || k == SV_MAP) ? sv_meta(v) : NULL;
    if (sv_kind_of(meta) != SV_MAP) meta = NULL;
    char seg[32];
    if (k == SV_ARRAY) {
        const char *t = meta ? meta_str(meta, "type") : NULL;
        if (meta && empty_script(meta, "type"))
            say(w, "%sscript-typed Array with an empty script path: Godot reads it as "
                   "Array[EncodedObjectAsID]", "");
        for (uint32_t i = 0; i < sv_len(v); i++) {
            const sv_value *e = sv_array_at(v, i);
            snprintf(seg, sizeof seg, "%u", (unsigned)i);
            if (t && type_mismatch(t, e)) {
                size_t n = strlen(w->ptr);
                snprintf(w->ptr + n, PTR_MAX - n, "/%s", seg);
                say(w, "element does not match Array[%s]: Godot drops it", t);
                w->ptr[n] = 0;
            }
            sv_status st = visit_at(w, e, seg, depth);
            if (st != SV_OK) return st;
        }
    } else if (k == SV_MAP) {
        const char *kt = meta ? meta_str(meta, "key") : NULL;
        const char *vt = meta ? meta_str(meta, "value") : NULL;
        if (meta && (empty_script(meta, "key") || empty_script(meta, "value")))
            say(w, "%sscript-typed Dictionary with an empty script path: Godot reads that type "
                   "as EncodedObjectAsID", "");
        for (uint32_t i = 0; i < sv_len(v); i++) {
            const sv_pair *p = sv_pair_at(v, i);
            const char *name = sv_kind_of(&p->key) == SV_STRING ? sv_get_str(&p->key, NULL) : NULL;
            if (!name) {
                snprintf(seg, sizeof seg, "%u", (unsigned)i);
                name = seg;
            }
            if ((kt && type_mismatch(kt, &p->key)) || (vt && type_mismatch(vt, &p->val))) {
                size_t n = strlen(w->ptr);
                snprintf(w->ptr + n, PTR_MAX - n, "/%s", name);
                say(w, kt && type_mismatch(kt, &p->key)
                           ? "key does not match the Dictionary's %s key type: Godot drops the entry"
                           : "value does not match the Dictionary's %s value type: Godot drops the entry",
                    kt && type_mismatch(kt, &p->key) ? kt : vt);
                w->ptr[n] = 0;
            }
            sv_status st = visit_at(w, &p->val, name, depth);
            if (st != SV_OK) return st;
        }
    }
    return SV_OK;
}

sv_status sv_godot_check(const sv_value *root, sv_godot_rule_fn fn, void *ctx, size_t *count)
{
    walk w;
    w.fn = fn;
    w.ctx = ctx;
    w.count = 0;
    w.ptr[0] = 0;
    sv_status st = visit(&w, root, 0);
    if (count) *count = w.count;
    return st;
}
