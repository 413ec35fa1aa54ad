/* Creating JSON Patch and JSON Merge Patch documents as O3DE's JsonMerger
 * does (task CreatePatch). JSON Patch: objects member by member ("add" for
 * new members in the target's order, then "remove" for the missing ones),
 * arrays index by index (no longest-common-subsequence: extra entries are
 * added, surplus ones removed from the last down), anything else "replace"d
 * when not equal by RapidJSON's operator==. Merge Patch: the target's
 * members, null for removed ones; a null in the target cannot be written.
 * docs/formats/o3de.md, "JSON Patch and JSON Merge Patch". */
#include <string.h>

#include "o3de_patch_util.h"

static o3_res rep(o3p_ctx *p, sv_o3de_outcome o, const char *msg)
{
    return o3p_report(p, o3_r(SV_O3DE_CREATE_PATCH, o), NULL, msg);
}

static bool deeper(o3p_ctx *p)
{
    if (p->depth >= SV_DEFAULT_MAX_DEPTH) {
        p->too_deep = true;
        return false;
    }
    p->depth++;
    return true;
}

/* {"op": op, "path": <current path>[, "value": copy of value]} */
static void push_op(o3p_ctx *p, sv_value *patch, const char *op, const sv_value *value)
{
    sv_value e = sv_map(p->doc, 0);
    (void)sv_map_append_str(p->doc, &e, "op", sv_strz(p->doc, op));
    (void)sv_map_append_str(p->doc, &e, "path", sv_strz(p->doc, o3p_path(p)));
    if (value) (void)sv_map_append_str(p->doc, &e, "value", sv_copy(p->doc, value));
    (void)sv_array_append(p->doc, patch, e);
}

static o3_res json_patch(o3p_ctx *p, sv_value *patch, const sv_value *src, const sv_value *dst)
{
    if (!deeper(p)) return o3_r(SV_O3DE_CREATE_PATCH, SV_O3DE_CATASTROPHIC);
    o3_res rc = sv_o3de_result_none(SV_O3DE_CREATE_PATCH);
    if (sv_kind_of(src) == SV_MAP && sv_kind_of(dst) == SV_MAP) {
        for (uint32_t i = 0; i < dst->len; i++) {
            const sv_value *tv = sv_val_at(dst, i);
            size_t kn;
            const char *k = sv_get_str(sv_key_at(dst, i), &kn);
            size_t mark = o3p_push_key(p, k, kn);
            const sv_value *sf = sv_map_get(src, k, kn);
            if (sf) {
                rc = o3_combine(rc, json_patch(p, patch, sf, tv));
                if (o3_halted(rc)) {
                    o3p_pop(p, mark);
                    p->depth--;
                    return rc;
                }
            } else {
                push_op(p, patch, "add", tv);
                rc = o3_combine(rc, rep(p, SV_O3DE_SUCCESS,
                                        "Successfully completed add operation for new member "
                                        "value in JSON Patch."));
            }
            o3p_pop(p, mark);
        }
        for (uint32_t i = 0; i < src->len; i++) {
            size_t kn;
            const char *k = sv_get_str(sv_key_at(src, i), &kn);
            if (sv_map_get(dst, k, kn)) continue;
            size_t mark = o3p_push_key(p, k, kn);
            push_op(p, patch, "remove", NULL);
            rc = o3_combine(rc,
                            rep(p, SV_O3DE_SUCCESS, "Removed member from object in JSON Patch."));
            o3p_pop(p, mark);
        }
    } else if (sv_kind_of(src) == SV_ARRAY && sv_kind_of(dst) == SV_ARRAY) {
        uint32_t count = src->len < dst->len ? src->len : dst->len;
        for (uint32_t i = 0; i < count; i++) {
            size_t mark = o3p_push_index(p, i);
            rc = o3_combine(rc, json_patch(p, patch, sv_array_at(src, i), sv_array_at(dst, i)));
            o3p_pop(p, mark);
            if (o3_halted(rc)) {
                p->depth--;
                return rc;
            }
        }
        for (uint32_t i = count; i < dst->len; i++) {
            size_t mark = o3p_push_index(p, i);
            push_op(p, patch, "add", sv_array_at(dst, i));
            rc = o3_combine(rc, rep(p, SV_O3DE_SUCCESS, "Added entry to array in JSON Patch."));
            o3p_pop(p, mark);
        }
        for (uint32_t i = src->len; i > count; i--) {
            size_t mark = o3p_push_index(p, i - 1);
            push_op(p, patch, "remove", NULL);
            rc =
                o3_combine(rc, rep(p, SV_O3DE_SUCCESS, "Removed member from array in JSON Patch."));
            o3p_pop(p, mark);
        }
    } else if (!o3p_rj_equal(src, dst, 0)) {
        push_op(p, patch, "replace", dst);
        rc = rep(p, SV_O3DE_SUCCESS,
                 "Successfully completed replace operation for value to JSON Patch.");
    } else {
        rc = rep(p, SV_O3DE_DEFAULTS_USED,
                 "Values are identical so no operation was not added to JSON Patch.");
    }
    p->depth--;
    return rc;
}

static o3_res merge_patch(o3p_ctx *p, sv_value *patch, const sv_value *src, const sv_value *dst)
{
    if (!deeper(p)) return o3_r(SV_O3DE_CREATE_PATCH, SV_O3DE_CATASTROPHIC);
    o3_res rc;
    static const sv_value null_value = {0};
    if (sv_kind_of(dst) == SV_MAP) {
        rc = sv_o3de_result_none(SV_O3DE_CREATE_PATCH);
        sv_value out = sv_map(p->doc, 0);
        bool src_obj = sv_kind_of(src) == SV_MAP;
        for (uint32_t i = 0; i < dst->len; i++) {
            const sv_value *tv = sv_val_at(dst, i);
            size_t kn;
            const char *k = sv_get_str(sv_key_at(dst, i), &kn);
            size_t mark = o3p_push_key(p, k, kn);
            if (!src_obj && sv_kind_of(tv) == SV_NULL) {
                /* tested here as null also stands for "no source" below */
                o3_res r =
                    rep(p, SV_O3DE_UNSUPPORTED, "JSON Merge Patch can't be used to write nulls.");
                o3p_pop(p, mark);
                p->depth--;
                return r;
            }
            const sv_value *sf = src_obj ? sv_map_get(src, k, kn) : NULL;
            sv_value v = sv_null();
            o3_res r = merge_patch(p, &v, sf ? sf : &null_value, tv);
            /* an unchanged member (DefaultsUsed) stays out, nested objects too */
            if (o3_out(r) == SV_O3DE_SUCCESS || o3_out(r) == SV_O3DE_PARTIAL_DEFAULTS) {
                (void)sv_map_append(p->doc, &out, sv_str(p->doc, k, kn), v);
                rc = o3_combine(
                    rc, o3p_report(p, r, NULL, "Added new member to object in JSON Merge Patch."));
            } else if (o3_proc(r) != SV_O3DE_COMPLETED) {
                o3p_pop(p, mark);
                p->depth--;
                return r;
            } else {
                rc = o3_combine(rc, r);
            }
            o3p_pop(p, mark);
        }
        if (!src_obj && dst->len == 0)
            rc = o3_combine(rc, rep(p, SV_O3DE_SUCCESS, "Added empty object to JSON Merge Patch."));
        if (src_obj) {
            for (uint32_t i = 0; i < src->len; i++) {
                size_t kn;
                const char *k = sv_get_str(sv_key_at(src, i), &kn);
                if (sv_map_get(dst, k, kn)) continue;
                size_t mark = o3p_push_key(p, k, kn);
                (void)sv_map_append(p->doc, &out, sv_str(p->doc, k, kn), sv_null());
                rc = o3_combine(
                    rc, rep(p, SV_O3DE_SUCCESS, "Removed member from object in JSON Merge Patch."));
                o3p_pop(p, mark);
            }
        }
        *patch = out;
    } else if (!o3p_rj_equal(src, dst, 0)) {
        if (sv_kind_of(dst) == SV_NULL) {
            rc = rep(p, SV_O3DE_UNSUPPORTED, "JSON Merge Patch can't be used to write nulls.");
        } else {
            *patch = sv_copy(p->doc, dst);
            rc = rep(p, SV_O3DE_SUCCESS, "Value successfully added to JSON Merge Patch.");
        }
    } else {
        rc = rep(p, SV_O3DE_DEFAULTS_USED,
                 "Values are identical so value was not added to JSON Merge Patch.");
    }
    p->depth--;
    return rc;
}

sv_status sv_o3de_create_patch(sv_doc *doc, const sv_value *source, const sv_value *target,
                               sv_o3de_patch_kind kind, sv_value *patch, const sv_o3de_opts *opts,
                               sv_o3de_result *result, sv_error *err)
{
    if (result) *result = o3_r(SV_O3DE_CREATE_PATCH, SV_O3DE_CATASTROPHIC);
    if (!doc || !source || !target || !patch ||
        (kind != SV_O3DE_JSON_PATCH && kind != SV_O3DE_MERGE_PATCH))
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_create_patch");
    sv_o3de_opts o;
    sv_status ost = o3_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    o3p_ctx p;
    o3p_init(&p, doc, &o);
    o3_res r;
    if (kind == SV_O3DE_JSON_PATCH) {
        *patch = sv_array(doc, 0);
        r = json_patch(&p, patch, source, target);
    } else {
        /* O3DE starts from a null value: an identical scalar leaves null */
        *patch = sv_null();
        r = merge_patch(&p, patch, source, target);
    }
    bool path_ok = sv_buf_ok(&p.path);
    o3p_free(&p);
    if (p.too_deep) return sv_error_set(err, SV_ERR_DEPTH, "o3de", 0, "JSON nested too deeply");
    if (sv_doc_status(doc) != SV_OK || !path_ok)
        return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    if (result) *result = r;
    return SV_OK;
}
