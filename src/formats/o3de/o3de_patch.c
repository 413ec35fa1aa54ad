/* Applying JSON Patch (RFC 6902) and JSON Merge Patch (RFC 7386) as O3DE's
 * JsonMerger does: in place, with its results, messages and paths (task
 * Merge). The first Halted operation stops a JSON Patch unless the
 * reporting callback turns it into something else; operations done before
 * it stay done. docs/formats/o3de.md, "JSON Patch and JSON Merge Patch". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"
#include "o3de_patch_util.h"

static const o3_res MERGE_OK =
    (o3_res)SV_O3DE_SUCCESS << 16 | SV_O3DE_COMPLETED << 8 | SV_O3DE_MERGE;

static o3_res fail(o3p_ctx *p, sv_o3de_outcome o, const char *msg)
{
    return o3p_report(p, o3_r(SV_O3DE_MERGE, o), NULL, msg);
}
/* The same with the element path extended by one member name (the field of
 * the entry at fault), as O3DE's ScopedStackedString does. */
static o3_res fail_at(o3p_ctx *p, const char *field, sv_o3de_outcome o, const char *msg)
{
    size_t mark = o3p_push_key(p, field, strlen(field));
    o3_res r = fail(p, o, msg);
    o3p_pop(p, mark);
    return r;
}

static o3_res done(o3p_ctx *p, const char *path, const char *msg)
{
    return o3p_report(p, MERGE_OK, path, msg);
}

static sv_value member_key(sv_doc *doc, const o3p_token *t)
{
    return sv_str(doc, t->name, t->len);
}

/* ApplyPatch_AddValue: value goes to path (object member added or replaced,
 * array element inserted or appended with "-"). */
static o3_res add_value(o3p_ctx *p, sv_value *target, const o3p_pointer *ptr, const char *path,
                        sv_value value)
{
    if (ptr->n == 0) {
        *target = value;
        return done(p, path, "Successfully applied \"add\" operation.");
    }
    sv_value *parent = o3p_get(target, ptr, ptr->n - 1);
    if (!parent)
        return fail(p, SV_O3DE_INVALID, "The target path for \"add\" operation does not exist.");
    const o3p_token *t = &ptr->tok[ptr->n - 1];
    if (sv_kind_of(parent) == SV_MAP) {
        sv_value *m = sv_map_get(parent, t->name, t->len);
        if (m)
            *m = value;
        else
            (void)sv_map_append(p->doc, parent, member_key(p->doc, t), value);
    } else if (sv_kind_of(parent) == SV_ARRAY) {
        if (t->index == O3P_NO_INDEX) {
            if (!(t->len == 1 && t->name[0] == '-'))
                return fail(p, SV_O3DE_INVALID,
                            "The target path for \"add\" operation is not an index value.");
            (void)sv_array_append(p->doc, parent, value);
        } else if (t->index < parent->len) {
            uint32_t count = parent->len;
            if (sv_array_append(p->doc, parent, sv_null()) == SV_OK) {
                sv_value *items = sv_array_items(parent);
                memmove(items + t->index + 1, items + t->index, (count - t->index) * sizeof *items);
                items[t->index] = value;
            }
        } else if (t->index == parent->len) {
            (void)sv_array_append(p->doc, parent, value);
        } else {
            return fail(p, SV_O3DE_INVALID,
                        "The target path for \"add\" operation is not a valid index.");
        }
    } else {
        return fail(p, SV_O3DE_TYPE_MISMATCH,
                    "The target for \"add\" operation is not an object or array.");
    }
    return done(p, path, "Successfully applied \"add\" operation.");
}

static o3_res op_remove(o3p_ctx *p, sv_value *target, const o3p_pointer *ptr, const char *path)
{
    if (ptr->n == 0)
        return fail(p, SV_O3DE_INVALID,
                    "The target path for \"remove\" operation can't point at the root.");
    sv_value *parent = o3p_get(target, ptr, ptr->n - 1);
    if (!parent)
        return fail(p, SV_O3DE_INVALID, "The target path for \"remove\" operation does not exist.");
    const o3p_token *t = &ptr->tok[ptr->n - 1];
    if (sv_kind_of(parent) == SV_MAP) {
        sv_value *m = sv_map_get(parent, t->name, t->len);
        if (!m)
            return fail(p, SV_O3DE_INVALID,
                        "The \"remove\" operation failed to remove member from object.");
        (void)o3_map_remove_at(parent, o3_field_index(parent, m));
    } else if (sv_kind_of(parent) == SV_ARRAY) {
        if (t->index == O3P_NO_INDEX || t->index >= parent->len)
            return fail(p, SV_O3DE_INVALID,
                        "The target path for \"remove\" operation has an invalid index.");
        sv_value *items = sv_array_items(parent);
        memmove(items + t->index, items + t->index + 1,
                (parent->len - t->index - 1) * sizeof *items);
        parent->len--;
    } else {
        return fail(p, SV_O3DE_TYPE_MISMATCH,
                    "The target for \"remove\" operation is not an object or array.");
    }
    return done(p, path, "Successfully applied \"remove\" operation.");
}

/* "from" of move and copy: present, a string, a valid pointer, existing. */
static o3_res get_from(o3p_ctx *p, sv_value *target, const sv_value *entry, o3p_pointer *from,
                       sv_value **value, const sv_value **text)
{
    const sv_value *f = sv_map_get(entry, "from", 4);
    if (!f)
        return fail_at(p, "from", SV_O3DE_MISSING,
                       "The required field \"from\" is missing in entry of JSON Patch.");
    if (sv_kind_of(f) != SV_STRING)
        return fail_at(p, "from", SV_O3DE_TYPE_MISMATCH, "The value for \"from\" is not a string.");
    size_t n;
    const char *s = sv_get_str(f, &n);
    if (!o3p_pointer_parse(from, s, n, &p->doc->alloc)) {
        p->nomem = true;
        return o3_r(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
    }
    if (!from->valid)
        return fail_at(p, "from", SV_O3DE_INVALID,
                       "The value for \"from\" is not a valid JSON Pointer.");
    *value = o3p_get(target, from, from->n);
    if (!*value)
        return fail_at(p, "from", SV_O3DE_INVALID, "The path specified in \"from\" doesn't exist.");
    *text = f;
    return MERGE_OK;
}

static o3_res apply_entry(o3p_ctx *p, sv_value *target, const sv_value *entry, const char *op,
                          size_t op_len, const o3p_pointer *ptr, const char *path)
{
    const sv_value *value = sv_map_get(entry, "value", 5);
#define OP_IS(s) (op_len == sizeof(s) - 1 && memcmp(op, s, op_len) == 0)
    if (OP_IS("add")) {
        if (!value)
            return fail_at(p, "value", SV_O3DE_MISSING,
                           "The required field \"value\" for \"add\" operation is missing.");
        return add_value(p, target, ptr, path, sv_copy(p->doc, value));
    }
    if (OP_IS("remove")) return op_remove(p, target, ptr, path);
    if (OP_IS("replace")) {
        if (!value)
            return fail_at(p, "value", SV_O3DE_MISSING,
                           "The required field \"value\" for \"replace\" operation is missing.");
        sv_value *m = o3p_get(target, ptr, ptr->n);
        if (!m)
            return fail(p, SV_O3DE_INVALID, "The target for \"replace\" operation doesn't exist.");
        *m = sv_copy(p->doc, value);
        return done(p, path, "Successfully applied \"replace\" operation.");
    }
    if (OP_IS("move") || OP_IS("copy")) {
        bool move = op[0] == 'm';
        o3p_pointer from;
        memset(&from, 0, sizeof from);
        sv_value *fv = NULL;
        const sv_value *ftext = NULL;
        o3_res r = get_from(p, target, entry, &from, &fv, &ftext);
        if (!o3_halted(r) && fv) {
            if (move) {
                /* as O3DE: the value is moved out (leaving null), its slot
                 * removed, then added at path */
                sv_value moved = *fv;
                *fv = sv_null();
                size_t n;
                const char *ft = sv_get_str(ftext, &n);
                char *fpath = sv__core_mem_calloc(&p->doc->alloc, n + 1, 1);
                if (!fpath) {
                    p->nomem = true;
                    o3p_pointer_free(&from);
                    return o3_r(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
                }
                memcpy(fpath, ft, n);
                fpath[n] = 0;
                r = o3_combine(r, op_remove(p, target, &from, fpath));
                sv__core_mem_free(&p->doc->alloc, fpath, n + 1, 1);
                r = o3_combine(r, add_value(p, target, ptr, path, moved));
            } else {
                r = o3_combine(r, add_value(p, target, ptr, path, sv_copy(p->doc, fv)));
            }
        }
        o3p_pointer_free(&from);
        return r;
    }
    if (OP_IS("test")) {
        if (!value)
            return fail_at(p, "value", SV_O3DE_MISSING,
                           "The required field \"value\" for \"test\" operation is missing.");
        const sv_value *cur = o3p_get(target, ptr, ptr->n);
        if (!cur)
            return fail_at(p, "path", SV_O3DE_INVALID,
                           "The path specified in \"path\" for the \"test\" operation doesn't "
                           "exist.");
        o3_cmp k = {&p->doc->alloc, false};
        int order = o3_compare(&k, cur, value);
        if (k.nomem) {
            p->nomem = true;
            return o3_r(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
        }
        if (order != 0)
            return fail(p, SV_O3DE_TEST_FAILED,
                        "The values for the \"test\" operation are not equal.");
        return done(p, NULL, "Successfully applied \"test\" operation.");
    }
#undef OP_IS
    return MERGE_OK; /* not reached: unknown operations are caught before */
}

static bool known_op(const char *op, size_t n)
{
    static const char *const ops[] = {"add", "remove", "replace", "move", "copy", "test"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strlen(ops[i]) == n && memcmp(ops[i], op, n) == 0) return true;
    return false;
}

static o3_res apply_json_patch(o3p_ctx *p, sv_value *target, const sv_value *patch)
{
    if (sv_kind_of(patch) != SV_ARRAY)
        return fail(p, SV_O3DE_TYPE_MISMATCH, "JSON Patch only supports arrays at the root.");
    o3_res result = sv_o3de_result_none(SV_O3DE_MERGE);
    for (uint32_t i = 0; i < patch->len; i++) {
        const sv_value *entry = sv_array_at(patch, i);
        size_t mark = o3p_push_index(p, i);
        o3_res r;
        if (sv_kind_of(entry) != SV_MAP) {
            r = fail(p, SV_O3DE_TYPE_MISMATCH, "Entry in JSON Patch is not an object.");
            o3p_pop(p, mark);
            return r;
        }
        const sv_value *op = sv_map_get(entry, "op", 2);
        const sv_value *path = sv_map_get(entry, "path", 4);
        const char *early = NULL, *field = NULL;
        sv_o3de_outcome eo = SV_O3DE_MISSING;
        if (!op) {
            field = "op", early = "The required field \"op\" is missing in entry of JSON Patch.";
        } else if (sv_kind_of(op) != SV_STRING) {
            field = "op", early = "The value for \"op\" is not a string.",
            eo = SV_O3DE_TYPE_MISMATCH;
        } else if (!path) {
            field = "path",
            early = "The required field \"path\" is missing in entry of JSON Patch.";
        } else if (sv_kind_of(path) != SV_STRING) {
            field = "path", early = "The value for \"path\" is not a string.",
            eo = SV_O3DE_TYPE_MISMATCH;
        }
        if (early) {
            r = fail_at(p, field, eo, early);
            o3p_pop(p, mark);
            return r;
        }
        size_t plen, oplen;
        const char *ptext = sv_get_str(path, &plen), *optext = sv_get_str(op, &oplen);
        o3p_pointer ptr;
        if (!o3p_pointer_parse(&ptr, ptext, plen, &p->doc->alloc)) {
            p->nomem = true;
            o3p_pop(p, mark);
            return o3_r(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
        }
        if (!ptr.valid) {
            r = fail_at(p, "path", SV_O3DE_INVALID,
                        "The value for \"path\" is not a valid JSON Pointer.");
            o3p_pointer_free(&ptr);
            o3p_pop(p, mark);
            return r;
        }
        if (!known_op(optext, oplen)) {
            /* as O3DE: returned as the callback leaves it, whatever came before */
            char msg[300];
            snprintf(msg, sizeof msg, "Unknown operation \"%.*s\".",
                     (int)(oplen > 200 ? 200 : oplen), optext);
            r = fail(p, SV_O3DE_UNKNOWN, msg);
            o3p_pointer_free(&ptr);
            o3p_pop(p, mark);
            return r;
        }
        r = apply_entry(p, target, entry, optext, oplen, &ptr, ptext);
        o3p_pointer_free(&ptr);
        o3p_pop(p, mark);
        result = o3_combine(result, r);
        if (o3_halted(result)) return result;
    }
    return o3_combine(result, MERGE_OK);
}

/* ---- JSON Merge Patch ---- */

static o3_res merge(o3p_ctx *p, sv_value *target, const sv_value *patch)
{
    o3_res result = sv_o3de_result_none(SV_O3DE_MERGE);
    if (++p->depth > SV_DEFAULT_MAX_DEPTH) {
        p->too_deep = true;
        p->depth--;
        return o3_r(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
    }
    if (sv_kind_of(patch) == SV_MAP) {
        if (sv_kind_of(target) != SV_MAP) *target = sv_map(p->doc, 0);
        for (uint32_t i = 0; i < patch->len && !p->too_deep; i++) {
            size_t kn;
            const char *k = sv_get_str(sv_key_at(patch, i), &kn);
            sv_value *cur = sv_map_get(target, k, kn);
            size_t mark = o3p_push_key(p, k, kn);
            char msg[160];
            const sv_value *pv = sv_val_at(patch, i);
            if (sv_kind_of(pv) == SV_MAP) {
                if (cur) {
                    result = o3_combine(result, merge(p, cur, pv));
                } else {
                    sv_value nv = sv_null();
                    result = o3_combine(result, merge(p, &nv, pv));
                    (void)sv_map_append(p->doc, target, sv_str(p->doc, k, kn), nv);
                }
            } else if (sv_kind_of(pv) == SV_NULL) {
                if (cur) {
                    (void)o3_map_remove_at(target, o3_field_index(target, cur));
                    snprintf(msg, sizeof msg,
                             "Successfully removed member from \"%.100s\" using JSON Merge Patch",
                             o3p_path(p));
                    result = o3_combine(result, done(p, NULL, msg));
                }
            } else if (cur) {
                *cur = sv_copy(p->doc, pv);
                snprintf(msg, sizeof msg,
                         "Successfully updated JSON field \"%.100s\" using JSON Merge Patch",
                         o3p_path(p));
                result = o3_combine(result, done(p, NULL, msg));
            } else {
                (void)sv_map_append(p->doc, target, sv_str(p->doc, k, kn), sv_copy(p->doc, pv));
                snprintf(msg, sizeof msg,
                         "Successfully added JSON field \"%.100s\" using JSON Merge Patch",
                         o3p_path(p));
                result = o3_combine(result, done(p, NULL, msg));
            }
            o3p_pop(p, mark);
        }
    } else {
        *target = sv_copy(p->doc, patch);
    }
    p->depth--;
    return o3_combine(
        result, done(p, NULL, "Successfully applied patch to target using JSON Merge Patch."));
}

sv_status sv_o3de_apply_patch(sv_doc *doc, sv_value *target, const sv_value *patch,
                              sv_o3de_patch_kind kind, const sv_o3de_opts *opts,
                              sv_o3de_result *result, sv_error *err)
{
    if (result) *result = o3_r(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
    if (!doc || !target || !patch || (kind != SV_O3DE_JSON_PATCH && kind != SV_O3DE_MERGE_PATCH))
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_apply_patch");
    sv_o3de_opts o;
    sv_status ost = o3_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    o3p_ctx p;
    o3p_init(&p, doc, &o);
    o3_res r =
        kind == SV_O3DE_JSON_PATCH ? apply_json_patch(&p, target, patch) : merge(&p, target, patch);
    bool path_ok = sv_buf_ok(&p.path);
    o3p_free(&p);
    if (p.too_deep) return sv_error_set(err, SV_ERR_DEPTH, "o3de", 0, "patch nested too deeply");
    if (sv_doc_status(doc) != SV_OK || !path_ok || p.nomem)
        return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    if (result) *result = r;
    return SV_OK;
}
