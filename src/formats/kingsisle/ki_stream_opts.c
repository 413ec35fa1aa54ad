/* The serializer options of an encode when the caller leaves them out: the
 * decoder records in the root's meta every option that decides the bytes
 * (where it is not the default), so that a tree dumped with options is
 * written back to the same bytes without them. An option the caller chose
 * wins over the record: it is how a tree is re-encoded another way. */
#include <string.h>

#include "formats/kingsisle/ki_internal.h"

static sv_status bad_meta(const char *key, const char *want, sv_error *err)
{
    sv_status st =
        sv_error_set(err, SV_ERR_TYPE, KI_FORMAT, 0, "the root's meta %s must be %s", key, want);
    sv_error_path_key(err, key, strlen(key));
    sv_error_path_key(err, "$meta", 5);
    return st;
}

/* *out from meta[key] when it is there (a bool), else unchanged. */
static sv_status meta_bool(const sv_value *meta, const char *key, bool *out, sv_error *err)
{
    const sv_value *v = sv_map_getz(meta, key);
    if (!v) return SV_OK;
    if (sv_kind_of(v) != SV_BOOL) return bad_meta(key, "true or false", err);
    *out = sv_get_bool(v);
    return SV_OK;
}

/* *out from meta[key] when it is there (an integer from 0 to 2^32-1). */
static sv_status meta_u32(const sv_value *meta, const char *key, uint32_t *out, sv_error *err)
{
    const sv_value *v = sv_map_getz(meta, key);
    if (!v) return SV_OK;
    sv_kind k = sv_kind_of(v);
    bool ok = (k == SV_UINT && sv_get_uint(v) <= UINT32_MAX) ||
              (k == SV_INT && sv_get_int(v) >= 0 && sv_get_int(v) <= (int64_t)UINT32_MAX);
    if (!ok) return bad_meta(key, "an integer from 0 to 4294967295", err);
    *out = k == SV_UINT ? (uint32_t)sv_get_uint(v) : (uint32_t)sv_get_int(v);
    return SV_OK;
}

sv_status ki_opts_from_meta(sv_kingsisle_opts *o, const sv_value *meta, sv_error *err)
{
    if (sv_kind_of(meta) != SV_MAP) return SV_OK;
    sv_kingsisle_opts def;
    sv_kingsisle_opts_init(&def);
    sv_status st = SV_OK;
    if (!(o->given & SV_KI_OPT_SHALLOW) && o->shallow == def.shallow)
        st = meta_bool(meta, KI_META_SHALLOW, &o->shallow, err);
    if (!st && !(o->given & SV_KI_OPT_COMPRESS) && o->compress == def.compress)
        st = meta_bool(meta, KI_META_COMPRESS, &o->compress, err);
    if (!st && !(o->given & SV_KI_OPT_PROPERTY_MASK) && o->property_mask == def.property_mask)
        st = meta_u32(meta, KI_META_PROPERTY_MASK, &o->property_mask, err);
    if (!st && !(o->given & SV_KI_OPT_SKIP_DEPRECATED) && o->skip_deprecated == def.skip_deprecated)
        st = meta_bool(meta, KI_META_SKIP_DEPRECATED, &o->skip_deprecated, err);
    if (st || (o->given & SV_KI_OPT_FLAGS) || o->flags != def.flags) return st;

    /* A stored word means the stream has one (its value is written by the
     * encoder itself); flags without a stored word are recorded apart. */
    bool stored = sv_map_getz(meta, KI_META_FLAGS) != NULL;
    uint32_t plain = 0;
    if ((st = meta_u32(meta, KI_META_OPTION_FLAGS, &plain, err)) != SV_OK) return st;
    if (sv_map_getz(meta, KI_META_OPTION_FLAGS) && (stored || (plain & SV_KI_STATEFUL_FLAGS)))
        return bad_meta(
            KI_META_OPTION_FLAGS,
            "flags without bit 1 (stateful), and cannot stand beside a stored word (flags)", err);
    o->flags = stored ? SV_KI_STATEFUL_FLAGS : plain;
    return SV_OK;
}
