/* One document merged into the Settings Registry at an anchor key, as
 * O3DE's SettingsRegistryImpl::MergeSettingsJsonDocument does it: the
 * anchor is a JSON Pointer that rapidjson's Pointer::Create makes (objects
 * for names, arrays for indices, null padding up to an index), and the
 * document goes over what is there as a JSON Merge Patch (.setreg) or a
 * JSON Patch (.setregpatch). A document that is not an object may not be
 * merge-patched at the root: it would replace every setting. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/doc_internal.h"
#include "o3de_patch_util.h"
#include "o3de_setreg.h"

/* An anchor index larger than this is refused: rapidjson would pad the
 * array with nulls up to it, which a hostile anchor turns into gigabytes. */
#define MAX_ANCHOR_INDEX 65536u

static void line(sv_buf *m, const char *fmt, const char *a)
{
    char buf[1024];
    snprintf(buf, sizeof buf, fmt, a);
    sv_buf_append(m, buf, strlen(buf));
    sv_buf_putc(m, '\n');
}

/* Pointer::Create */
static sv_value *create(sv_doc *d, sv_value *root, const o3p_pointer *ptr, sv_buf *m,
                        const char *anchor)
{
    sv_value *v = root;
    for (size_t i = 0; i < ptr->n; i++) {
        const o3p_token *t = &ptr->tok[i];
        if (sv_kind_of(v) == SV_ARRAY && t->len == 1 && t->name[0] == '-') {
            if (sv_array_append(d, v, sv_null()) != SV_OK) return NULL;
            v = sv_array_at(v, v->len - 1);
            continue;
        }
        if (t->index == O3P_NO_INDEX) {
            if (sv_kind_of(v) != SV_MAP) *v = sv_map(d, 0);
        } else if (sv_kind_of(v) != SV_ARRAY && sv_kind_of(v) != SV_MAP) {
            *v = sv_array(d, 0);
        }
        if (sv_kind_of(v) == SV_ARRAY) {
            if (t->index > MAX_ANCHOR_INDEX) {
                line(m, "Anchor path \"%s\" needs an array longer than 65536 items.", anchor);
                return NULL;
            }
            while (v->len <= t->index)
                if (sv_array_append(d, v, sv_null()) != SV_OK) return NULL;
            v = sv_array_at(v, t->index);
        } else {
            sv_value *m2 = sv_map_get(v, t->name, t->len);
            if (!m2) {
                if (sv_map_append(d, v, sv_str(d, t->name, t->len), sv_null()) != SV_OK)
                    return NULL;
                m2 = sv_val_at(v, v->len - 1);
            }
            v = m2;
        }
    }
    return v;
}

bool o3sr_merge_patch(sv_doc *d, sv_value *target, const sv_value *patch, unsigned depth)
{
    if (depth > 1024) return false;
    if (sv_kind_of(patch) != SV_MAP) {
        *target = sv_copy(d, patch);
        return sv_doc_status(d) == SV_OK;
    }
    if (sv_kind_of(target) != SV_MAP) *target = sv_map(d, 0);
    o3sr_index x;
    memset(&x, 0, sizeof x);
    bool ok = true, nomem = false;
    for (uint32_t i = 0; i < patch->len && ok; i++) {
        const sv_value *ppk = sv_key_at(patch, i);
        const sv_value *ppv = sv_val_at(patch, i);
        size_t kn;
        const char *k = sv_get_str(ppk, &kn);
        sv_value *cur = o3sr_index_get(&x, target, k, kn, &nomem);
        if (nomem) {
            ok = false;
            break;
        }
        const sv_value *pv = ppv;
        if (sv_kind_of(pv) == SV_MAP) {
            if (cur) {
                ok = o3sr_merge_patch(d, cur, pv, depth + 1);
            } else {
                sv_value nv = sv_null();
                ok = o3sr_merge_patch(d, &nv, pv, depth + 1) &&
                     sv_map_append(d, target, sv_str(d, k, kn), nv) == SV_OK;
                o3sr_index_added(&x, target);
            }
        } else if (sv_kind_of(pv) == SV_NULL) {
            if (cur && !o3sr_index_remove_first(&x, target, k, kn)) ok = false;
        } else if (cur) {
            *cur = sv_copy(d, pv);
        } else {
            ok = sv_map_append(d, target, sv_str(d, k, kn), sv_copy(d, pv)) == SV_OK;
            o3sr_index_added(&x, target);
        }
    }
    o3sr_index_compact(&x, target);
    o3sr_index_free(&x);
    return ok && sv_doc_status(d) == SV_OK;
}

bool o3sr_merge_document(sv_doc *d, sv_value *registry, const sv_value *doc, bool json_patch,
                         const char *anchor, sv_buf *messages, sv_status *st, sv_error *err)
{
    *st = SV_OK;
    if (!json_patch && !*anchor && sv_kind_of(doc) != SV_MAP) {
        line(messages,
             "Cannot merge settings registry JSON data due to root element field with a "
             "non-JSON Object using the JSON Merge Patch approach (it would overwrite all "
             "settings); place the settings within a JSON Object '{}'.%s",
             "");
        return false;
    }
    o3p_pointer ptr;
    memset(&ptr, 0, sizeof ptr);
    sv_value *at = registry;
    if (*anchor) {
        if (!o3p_pointer_parse(&ptr, anchor, strlen(anchor), &d->alloc)) {
            *st = sv_error_set(err, SV_ERR_NOMEM, "o3de", SV_ERROR_NO_OFFSET, "out of memory");
            return false;
        }
        if (!ptr.valid) {
            line(messages, "Anchor path \"%s\" is invalid.", anchor);
            o3p_pointer_free(&ptr);
            return false;
        }
        size_t before = messages->len;
        at = create(d, registry, &ptr, messages, anchor);
        o3p_pointer_free(&ptr);
        if (!at) {
            if (messages->len != before) return false;
            *st = sv_error_set(err, sv_doc_status(d) ? sv_doc_status(d) : SV_ERR_NOMEM, "o3de",
                               SV_ERROR_NO_OFFSET, "out of memory");
            return false;
        }
    }
    if (!json_patch) {
        /* a merge patch always completes */
        if (!o3sr_merge_patch(d, at, doc, 0))
            *st = sv_error_set(err, sv_doc_status(d) ? sv_doc_status(d) : SV_ERR_NOMEM, "o3de",
                               SV_ERROR_NO_OFFSET, "out of memory");
        return *st == SV_OK;
    }
    sv_o3de_opts po;
    sv_o3de_opts_init(&po);
    sv_o3de_result r;
    *st = sv_o3de_apply_patch(d, at, doc, SV_O3DE_JSON_PATCH, &po, &r, err);
    if (*st) return false;
    if (sv_o3de_result_processing(r) != SV_O3DE_COMPLETED) {
        sv_buf b;
        sv_buf_init(&b, NULL);
        sv_o3de_result_describe(r, anchor, &b);
        sv_buf_putc(&b, 0);
        static const char head[] = "Failed to fully merge data into registry. ";
        sv_buf_append(messages, head, sizeof head - 1);
        line(messages, "Merge failed with resultCode %s.", b.data ? (const char *)b.data : "");
        sv_buf_free(&b);
        return false;
    }
    return true;
}
