/* JSON Merge Patch (RFC 7386) as O3DE's JsonMerger applies it (task Merge).
 * spec o3de-json §12. JSON Patch (RFC 6902) and patch creation are not
 * implemented yet: they return SV_ERR_UNSUPPORTED. */
#include <string.h>

#include "o3de_internal.h"

static sv_value merge(sv_doc *doc, const sv_value *target, const sv_value *patch, unsigned depth,
                      bool *bad)
{
    if (depth > SV_DEFAULT_MAX_DEPTH) {
        *bad = true;
        return sv_null();
    }
    if (sv_kind_of(patch) != SV_MAP) return *patch;
    sv_value out = sv_map(doc, 0);
    if (sv_kind_of(target) == SV_MAP) {
        const sv_pair *p = sv_pairs(target);
        for (uint32_t i = 0; i < target->len; i++) (void)sv_map_put(doc, &out, p[i].key, p[i].val);
    }
    const sv_pair *pp = sv_pairs(patch);
    for (uint32_t i = 0; i < patch->len; i++) {
        size_t kn;
        const char *k = sv_get_str(&pp[i].key, &kn);
        sv_pair *cur = NULL;
        sv_pair *op = sv_pairs(&out);
        for (uint32_t j = 0; j < out.len; j++) {
            size_t n;
            const char *ok = sv_get_str(&op[j].key, &n);
            if (n == kn && memcmp(ok, k, n) == 0) {
                cur = &op[j];
                break;
            }
        }
        if (sv_kind_of(&pp[i].val) == SV_NULL) {
            if (cur) { /* remove: shift the rest down */
                uint32_t at = (uint32_t)(cur - op);
                memmove(op + at, op + at + 1, (out.len - at - 1) * sizeof *op);
                out.len--;
            }
            continue;
        }
        sv_value nv = merge(doc, cur ? &cur->val : NULL, &pp[i].val, depth + 1, bad);
        if (cur)
            cur->val = nv;
        else
            (void)sv_map_put(doc, &out, pp[i].key, nv);
    }
    return out;
}

sv_status sv_o3de_apply_patch(sv_doc *doc, sv_value *target, const sv_value *patch,
                              sv_o3de_patch_kind kind, const sv_o3de_opts *opts,
                              sv_o3de_result *result, sv_error *err)
{
    (void)opts;
    if (!doc || !target || !patch)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_apply_patch");
    if (kind != SV_O3DE_MERGE_PATCH)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, "o3de", 0, "JSON Patch is not implemented");
    bool bad = false;
    sv_value out = merge(doc, target, patch, 0, &bad);
    if (bad) {
        if (result) *result = sv_o3de_result_make(SV_O3DE_MERGE, SV_O3DE_CATASTROPHIC);
        return sv_error_set(err, SV_ERR_DEPTH, "o3de", 0, "merge patch nested too deeply");
    }
    if (sv_doc_status(doc) != SV_OK) return sv_error_set(err, sv_doc_status(doc), "o3de", 0, "out of memory");
    *target = out;
    if (result) *result = sv_o3de_result_make(SV_O3DE_MERGE, SV_O3DE_SUCCESS);
    return SV_OK;
}

sv_status sv_o3de_create_patch(sv_doc *doc, const sv_value *source, const sv_value *target,
                               sv_o3de_patch_kind kind, sv_value *patch, const sv_o3de_opts *opts,
                               sv_o3de_result *result, sv_error *err)
{
    (void)doc, (void)source, (void)target, (void)kind, (void)patch, (void)opts;
    if (result) *result = sv_o3de_result_make(SV_O3DE_CREATE_PATCH, SV_O3DE_UNSUPPORTED);
    return sv_error_set(err, SV_ERR_UNSUPPORTED, "o3de", 0, "creating patches is not implemented");
}
