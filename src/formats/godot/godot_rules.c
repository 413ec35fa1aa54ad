/* Godot 4 engine rules that the byte layout allows to break: a typed
 * container holding a value of another type. The engine's reader drops such
 * an element (Array) or entry (Dictionary) without an error, so the value the
 * game sees is not the one in the file; serval keeps the bytes and reports. */
#include <stdio.h>
#include <string.h>

#include "core/walk.h"
#include "serval/godot.h"

/* Deeper than Godot's own reader nests (its limit is 1024). */
#define RULES_MAX_DEPTH 1024u

typedef struct rules {
    sv_godot_rule_fn fn;
    void *ctx;
    size_t count;
    bool nomem; /* a pointer could not be rendered */
} rules;

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

/* Reports a broken rule at the current value's pointer. */
static void say(rules *r, sv_walker *w, const char *fmt, const char *a)
{
    const char *ptr = sv__core_walker_path(w);
    if (!ptr) {
        r->nomem = true;
        return;
    }
    char msg[256];
    snprintf(msg, sizeof msg, fmt, a);
    r->fn(r->ctx, ptr, msg);
    r->count++;
}

/* The rules a container's type puts on v, one of its items or values. */
static void check_in_parent(rules *r, sv_walker *w, const sv_value *v)
{
    const sv_value *parent = sv__core_walker_parent(w);
    const sv_value *meta = parent ? sv_meta(parent) : NULL;
    if (sv_kind_of(meta) != SV_MAP) return;
    if (sv_kind_of(parent) == SV_ARRAY) {
        const char *t = meta_str(meta, "type");
        if (t && type_mismatch(t, v))
            say(r, w, "element does not match Array[%s]: Godot drops it", t);
        return;
    }
    const char *kt = meta_str(meta, "key");
    const char *vt = meta_str(meta, "value");
    const sv_value *key = sv__core_walker_key(w);
    if (kt && key && type_mismatch(kt, key))
        say(r, w, "key does not match the Dictionary's %s key type: Godot drops the entry", kt);
    else if (vt && type_mismatch(vt, v))
        say(r, w, "value does not match the Dictionary's %s value type: Godot drops the entry", vt);
}

/* Visits one value: first what its container's type says of it, then what
 * its own type says. Objects are not gone into, so a parent is always an
 * Array or a Dictionary. */
static sv_step check_value(void *ctx, sv_walker *w, const sv_value *v, unsigned depth)
{
    rules *r = ctx;
    if (depth > 0) check_in_parent(r, w, v);
    sv_kind k = sv_kind_of(v);
    if (k == SV_OBJECT) return SV_STEP_OVER;
    const sv_value *meta = (k == SV_ARRAY || k == SV_MAP) ? sv_meta(v) : NULL;
    if (sv_kind_of(meta) == SV_MAP) {
        if (k == SV_ARRAY && empty_script(meta, "type"))
            say(r, w,
                "%sscript-typed Array with an empty script path: Godot reads it as "
                "Array[EncodedObjectAsID]",
                "");
        if (k == SV_MAP && (empty_script(meta, "key") || empty_script(meta, "value")))
            say(r, w,
                "%sscript-typed Dictionary with an empty script path: Godot reads that type "
                "as EncodedObjectAsID",
                "");
    }
    return r->nomem ? SV_STEP_STOP : SV_STEP_INTO;
}

sv_status sv_godot_check(const sv_value *root, sv_godot_rule_fn fn, void *ctx, size_t *count)
{
    rules r = {fn, ctx, 0, false};
    sv_walk_end end = sv__core_walk_tree(root, RULES_MAX_DEPTH, NULL, check_value, &r);
    if (count) *count = r.count;
    if (end == SV_WALK_TOO_DEEP) return SV_ERR_DEPTH;
    if (end == SV_WALK_NOMEM || r.nomem) return SV_ERR_NOMEM;
    return SV_OK;
}
