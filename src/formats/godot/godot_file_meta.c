/* Reading and writing whole Godot files through the registry (see
 * godot_file_meta.h).
 *
 * Framing: without -O framing, the decoder uses the framing the probe finds
 * (raw, one store_var frame, or a stream of them), so a .save file written
 * with FileAccess.store_var reads as it is; an input that fits a raw and a
 * framed reading with different values is refused with a request for one. Raw
 * and prefixed framing must end at the input's end: bytes after the Variant
 * or the frame are an error unless trailing=allow (the engine ignores them,
 * but a file with more bytes than its Variant is more likely in another
 * framing or profile than padded, and writing it back would drop them).
 *
 * The framing of a file that is not raw goes into the root's meta, beside
 * any typed-container meta the root already has; the encoder takes it from
 * there (an -O option wins) and removes it before the Variant is written. A
 * single store_var frame whose Variant is not an Array or Dictionary has no
 * meta to hold it, so it is read as a stream of one frame: the same bytes. */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_file_meta.h"
#include "formats/godot/godot_internal.h"

static const char *const profile_names[] = {"godot4", "godot3", "godot-doc"};

/* The meta entries this file owns. */
static bool is_file_key(const sv_value *k)
{
    size_t n;
    const char *s = sv_get_str(k, &n);
    if (!s || sv_kind_of(k) != SV_STRING) return false;
    return (n == 6 && !memcmp(s, "format", 6)) || (n == 7 && !memcmp(s, "framing", 7)) ||
           (n == 6 && !memcmp(s, "prefix", 6));
}

static bool root_takes_meta(const sv_value *root)
{
    sv_kind k = sv_kind_of(root);
    if ((k != SV_ARRAY && k != SV_MAP) || sv_tag_of(root) != SV_TAG_NONE) return false;
    const sv_value *m = sv_meta(root);
    return !m || sv_kind_of(m) == SV_MAP; /* not a PackedStringArray's string meta */
}

static bool attach_framing(sv_doc *doc, sv_godot_profile profile, sv_godot_framing framing, bool be,
                           bool framing_given, sv_value *root)
{
    if (framing == SV_GODOT_PREFIXED && !root_takes_meta(root)) {
        /* asked for by name, the framing is the caller's to give again */
        if (framing_given) return true;
        sv_value arr = sv_array(doc, 0);
        if (!sv_array_push(doc, &arr, *root)) return false;
        *root = arr;
        framing = SV_GODOT_STREAM;
    }
    sv_value meta = sv_map(doc, 0);
    const sv_value *old = sv_meta(root);
    for (uint32_t i = 0; old && i < old->len; i++) {
        const sv_pair *p = sv_pair_at(old, i);
        if (!sv_map_put(doc, &meta, p->key, p->val)) return false;
    }
    if (!sv_map_put_str(doc, &meta, "format", sv_strz(doc, profile_names[profile])) ||
        !sv_map_put_str(doc, &meta, "framing",
                        sv_strz(doc, framing == SV_GODOT_STREAM ? "stream" : "prefixed")))
        return false;
    if (be && !sv_map_put_str(doc, &meta, "prefix", sv_strz(doc, "be"))) return false;
    return sv_set_meta(doc, root, meta);
}

/* Adds a hint to a raw decode's error when the input may be a damaged
 * store_var file: its first u32 is the length of the rest, or what was read
 * as a type code is none (a length prefix read as a header). */
static void hint_framing(const uint8_t *data, size_t len, sv_error *err)
{
    if (!err || len < 8) return;
    uint32_t le = sv_load_u32le(data), be = sv_load_u32be(data);
    if (le != len - 4 && be != len - 4 && !strstr(err->message, "unknown type")) return;
    size_t used = strlen(err->message);
    if (used + 1 < sizeof err->message)
        snprintf(err->message + used, sizeof err->message - used,
                 "; if this is a store_var/put_var file, try -I framing=prefixed or "
                 "-I framing=stream");
}

static bool trailing_allowed(const sv_options *opts)
{
    const char *v = sv_options_get(opts, "trailing");
    return v && (!strcmp(v, "allow") || sv_options_flag(opts, "trailing", false));
}

sv_status gd_registry_decode(sv_godot_profile profile, sv_doc *doc, const uint8_t *data,
                             size_t len, const sv_options *opts, sv_value *out, sv_error *err)
{
    sv_godot_opts o;
    sv_status st = gd_opts_from_registry(profile, opts, false, &o, err);
    if (st != SV_OK) return st;
    bool framing_given = sv_options_get(opts, "framing") != NULL;
    const char *tv = sv_options_get(opts, "trailing");
    if (tv && strcmp(tv, "allow") && !sv_options_flag(opts, "trailing", false) &&
        sv_options_flag(opts, "trailing", true))
        return sv_error_set(err, SV_ERR_USAGE, profile_names[profile], 0,
                            "option trailing=%s: expected allow", tv);
    if (!framing_given && data) {
        sv_godot_framing f;
        bool be = false, ambiguous = false;
        int score = gd_probe_framing(profile, data, len, &f, &be, &ambiguous);
        if (ambiguous)
            return sv_error_set(err, SV_ERR_REFUSED, profile_names[profile], 0,
                                "ambiguous framing: the %zu bytes are one raw Variant and also "
                                "store_var frames; name it: -I framing=raw|prefixed|stream",
                                len);
        if (score > 0) {
            o.framing = f;
            if (!sv_options_get(opts, "prefix")) o.prefix_big_endian = be;
        }
    }
    size_t used = 0;
    st = sv_godot_decode(doc, data, len, &o, out, &used, err);
    if (st != SV_OK) {
        if (o.framing == SV_GODOT_RAW && !framing_given) hint_framing(data, len, err);
        return st;
    }
    if (o.framing == SV_GODOT_RAW && used < len && !trailing_allowed(opts))
        return sv_error_set(err, SV_ERR_TRAILING, profile_names[profile], used,
                            "%zu bytes after the Variant (raw framing ends at the input's end; "
                            "-I trailing=allow ignores them, -I framing=prefixed|stream reads "
                            "store_var files)",
                            len - used);
    /* One frame read from a longer input: the bytes after it are not the
     * file's (a raw blob read as a frame, or several frames), and a writer
     * would drop them. */
    if (o.framing == SV_GODOT_PREFIXED && used < len && !trailing_allowed(opts))
        return sv_error_set(err, SV_ERR_TRAILING, profile_names[profile], used,
                            "%zu bytes after the store_var frame (framing=prefixed reads one "
                            "frame; -I trailing=allow ignores them, -I framing=stream reads "
                            "them as more frames)",
                            len - used);
    if (o.framing != SV_GODOT_RAW &&
        !attach_framing(doc, profile, o.framing, o.prefix_big_endian, framing_given, out))
        return sv_error_set(err, sv_doc_status(doc) ? sv_doc_status(doc) : SV_ERR_NOMEM,
                            profile_names[profile], 0, "out of memory");
    return SV_OK;
}

/* A copy of root, in doc, without the file entries of its meta. */
static bool strip_file_meta(sv_doc *doc, const sv_value *root, sv_value *out)
{
    const sv_value *meta = sv_meta(root);
    bool arr = sv_kind_of(root) == SV_ARRAY;
    sv_value c = arr ? sv_array(doc, 0) : sv_map(doc, 0);
    for (uint32_t i = 0; i < root->len; i++) {
        bool ok;
        if (arr) {
            ok = sv_array_push(doc, &c, *sv_array_at(root, i));
        } else {
            const sv_pair *p = sv_pair_at(root, i);
            ok = sv_map_put(doc, &c, p->key, p->val);
        }
        if (!ok) return false;
    }
    sv_value rest = sv_map(doc, 0);
    for (uint32_t i = 0; i < meta->len; i++) {
        const sv_pair *p = sv_pair_at(meta, i);
        if (!is_file_key(&p->key) && !sv_map_put(doc, &rest, p->key, p->val)) return false;
    }
    if (rest.len && !sv_set_meta(doc, &c, rest)) return false;
    *out = c;
    return sv_doc_status(doc) == SV_OK;
}

sv_status gd_registry_encode(sv_godot_profile profile, const sv_value *v, const sv_options *opts,
                             sv_buf *out, sv_error *err)
{
    sv_godot_opts o;
    sv_status st = gd_opts_from_registry(profile, opts, true, &o, err);
    if (st != SV_OK) return st;
    const sv_value *meta = v && root_takes_meta(v) ? sv_meta(v) : NULL;
    const sv_value *framing = meta ? sv_map_getz(meta, "framing") : NULL;
    if (!framing) return sv_godot_encode(v, &o, out, err);

    const sv_value *prefix = sv_map_getz(meta, "prefix");
    const char *fs = sv_kind_of(framing) == SV_STRING ? sv_get_str(framing, NULL) : NULL;
    const char *ps = NULL;
    if (prefix && (sv_kind_of(prefix) != SV_STRING || !(ps = sv_get_str(prefix, NULL))))
        return sv_error_set(err, SV_ERR_TYPE, profile_names[profile], 0,
                            "$meta prefix must be \"le\" or \"be\"");
    if (!sv_options_get(opts, "framing")) {
        if (fs && !strcmp(fs, "prefixed"))
            o.framing = SV_GODOT_PREFIXED;
        else if (fs && !strcmp(fs, "stream"))
            o.framing = SV_GODOT_STREAM;
        else if (fs && !strcmp(fs, "raw"))
            o.framing = SV_GODOT_RAW;
        else
            return sv_error_set(err, SV_ERR_TYPE, profile_names[profile], 0,
                                "$meta framing must be \"raw\", \"prefixed\" or \"stream\"");
    }
    if (!sv_options_get(opts, "prefix") && ps) {
        if (strcmp(ps, "be") && strcmp(ps, "le"))
            return sv_error_set(err, SV_ERR_TYPE, profile_names[profile], 0,
                                "$meta prefix must be \"le\" or \"be\"");
        o.prefix_big_endian = !strcmp(ps, "be");
    }
    sv_doc *tmp = sv_doc_new(NULL);
    sv_value root;
    if (!tmp || !strip_file_meta(tmp, v, &root)) {
        if (tmp) sv_doc_free(tmp);
        return sv_error_set(err, SV_ERR_NOMEM, profile_names[profile], 0, "out of memory");
    }
    st = sv_godot_encode(&root, &o, out, err);
    sv_doc_free(tmp);
    return st;
}
