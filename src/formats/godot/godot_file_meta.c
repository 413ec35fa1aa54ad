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
 * What the tree alone does not say about the file goes into the root's meta,
 * beside any typed-container meta the root already has: a framing other than
 * raw (and a big-endian prefix), "objects": "full" when an Object was read in
 * full (a null one too: its bytes need the option), and "version" when the
 * bytes have container kind bits that only the 4.x version they were read
 * with ignores. The encoder takes these from there (an -O option wins) and
 * removes them before the Variant is written. A root with no meta of its own
 * (a scalar, an Object, a PackedStringArray) becomes the one item of a
 * {"root": true} stand-in Array that holds them; a single store_var frame
 * found by its bytes becomes a stream of one frame instead: the same bytes. */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_file_meta.h"
#include "formats/godot/godot_internal.h"

static const char *const profile_names[] = {"godot4", "godot3", "godot-doc"};

/* The meta entries this file owns. */
static bool is_file_key(const sv_value *k)
{
    static const char *const names[] = {"format", "framing", "prefix", "objects", "version"};
    size_t n;
    const char *s = sv_get_str(k, &n);
    if (!s || sv_kind_of(k) != SV_STRING) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && !memcmp(names[i], s, n)) return true;
    return false;
}

static bool root_takes_meta(const sv_value *root)
{
    sv_kind k = sv_kind_of(root);
    if ((k != SV_ARRAY && k != SV_MAP) || sv_tag_of(root) != SV_TAG_NONE) return false;
    const sv_value *m = sv_meta(root);
    return !m || sv_kind_of(m) == SV_MAP; /* not a PackedStringArray's string meta */
}

/* What the file's meta records: the facts of the input that its tree
 * alone does not say. */
typedef struct file_facts {
    sv_godot_framing framing;
    bool be;            /* big-endian length prefixes */
    bool framing_given; /* -I framing named it */
    bool full_objects;  /* an Object was read in full */
    int godot4_minor;   /* 2 or 3: kind bits that only this version ignores */
} file_facts;

/* root with the one item v and the meta {"root": true}: the stand-in for a
 * root value that has no meta of its own (godot_records.c). */
static bool stand_in(sv_doc *doc, sv_value *v)
{
    sv_value arr = sv_array(doc, 0);
    sv_value meta = sv_map(doc, 0);
    if (sv_array_append(doc, &arr, *v) != SV_OK ||
        sv_map_append_str(doc, &meta, "root", sv_bool(true)) != SV_OK ||
        sv_meta_set(doc, &arr, meta) != SV_OK)
        return false;
    *v = arr;
    return true;
}

static bool attach_facts(sv_doc *doc, sv_godot_profile profile, file_facts f, sv_value *root)
{
    if (f.framing == SV_GODOT_RAW && !f.full_objects && !f.godot4_minor) return true;
    if (!root_takes_meta(root)) {
        if (f.framing == SV_GODOT_PREFIXED && !f.framing_given) {
            /* found by its bytes: one store_var frame is a stream of one */
            sv_value arr = sv_array(doc, 0);
            if (sv_array_append(doc, &arr, *root) != SV_OK) return false;
            *root = arr;
            f.framing = SV_GODOT_STREAM;
        } else if (!stand_in(doc, root)) {
            return false;
        }
    }
    sv_value meta = sv_map(doc, 0);
    const sv_value *old = sv_meta(root);
    for (uint32_t i = 0; old && i < old->len; i++) {
        const sv_value *pk = sv_key_at(old, i);
        const sv_value *pv = sv_val_at(old, i);
        if (sv_map_append(doc, &meta, *pk, *pv) != SV_OK) return false;
    }
    if (sv_map_append_str(doc, &meta, "format", sv_strz(doc, profile_names[profile])) != SV_OK)
        return false;
    if (f.framing != SV_GODOT_RAW &&
        sv_map_append_str(doc, &meta, "framing",
                          sv_strz(doc, f.framing == SV_GODOT_STREAM ? "stream" : "prefixed")) !=
            SV_OK)
        return false;
    if (f.framing != SV_GODOT_RAW && f.be &&
        sv_map_append_str(doc, &meta, "prefix", sv_strz(doc, "be")) != SV_OK)
        return false;
    if (f.full_objects && sv_map_append_str(doc, &meta, "objects", sv_strz(doc, "full")) != SV_OK)
        return false;
    if (f.godot4_minor &&
        sv_map_append_str(doc, &meta, "version",
                          sv_strz(doc, f.godot4_minor == 2 ? "4.2" : "4.3")) != SV_OK)
        return false;
    return sv_meta_set(doc, root, meta) == SV_OK;
}

/* Adds a hint to a raw decode's error when the input may be a damaged
 * store_var file: its first u32 is the length of the rest, or what was read
 * as a type code is none (a length prefix read as a header). */
static void hint_framing(const uint8_t *data, size_t len, sv_error *err)
{
    if (!err || len < 8) return;
    uint32_t le = sv__core_load_u32le(data), be = sv__core_load_u32be(data);
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

/* What read_raw_first did (no_frames: read_frames_first found that no
 * frames fit, which the probe would ask first): nothing (the probe must answer), the decode
 * (kept), or found the framing of frames cut off (the caller reads them). */
typedef enum raw_first { RAW_NOT_TRIED, RAW_READ, RAW_CUT_FRAMES } raw_first;

/* Without a framing named, the probe (gd_probe_framing) reads the input as
 * store_var frames, then as one raw Variant, and the decoder then reads it
 * again with the framing found: for the usual file, one raw Variant that
 * no frames fit, the same reading twice. Here that reading is made once,
 * into doc with the decode's options, where they read as the probe's do,
 * and the probe's next steps are taken from it:
 *  - it fills the input: the probe says raw (frames fit none), kept;
 *  - else, whole frames and one cut off: the probe names that framing
 *    (RAW_CUT_FRAMES; the caller reads it, and fails where it is cut; the
 *    raw reading's values stay in doc unused);
 *  - else the probe says raw (a Variant cut off) or nothing (raw, the
 *    default): the decode with raw framing is this one, kept with its
 *    error, or with the bytes after it for the trailing rule. */
static raw_first read_raw_first(sv_godot_profile profile, sv_doc *doc, const uint8_t *data,
                                size_t len, const sv_options *opts, sv_godot_opts *o, gd_seen *seen,
                                sv_value *out, size_t *used, sv_status *st, sv_error *err,
                                bool no_frames)
{
    if (!gd_probe_raw_candidate(data, len) || !gd_probe_reads_as(o) ||
        (!no_frames && gd_probe_frames_fit(profile, data, len)))
        return RAW_NOT_TRIED;
    sv_error raw_err;
    sv_error_clear(&raw_err);
    o->framing = SV_GODOT_RAW;
    *st = gd_decode_framed(doc, data, len, o, seen, out, used, &raw_err);
    if (*st == SV_OK && *used == len) return RAW_READ;
    /* Out of memory is the answer whatever the framing: the probe, in a
     * document of its own, would choose one that the caller's allocator
     * then refuses as well. */
    if (*st == SV_ERR_NOMEM) {
        if (err && err->status == SV_OK) *err = raw_err;
        return RAW_READ;
    }
    sv_godot_framing f;
    bool be = false;
    if (gd_probe_frames_cut(profile, data, len, &f, &be)) {
        o->framing = f;
        if (!sv_options_get(opts, "prefix")) o->prefix_big_endian = be;
        *seen = (gd_seen){0};
        *used = 0;
        return RAW_CUT_FRAMES;
    }
    if (*st != SV_OK && err && err->status == SV_OK) *err = raw_err;
    return RAW_READ;
}

/* What read_frames_first did: nothing (the probe must answer), found
 * that no frames fit (the raw reading's turn), or read the frames (kept). */
typedef enum frames_first { FRAMES_NOT_TRIED, FRAMES_NONE, FRAMES_READ } frames_first;

/* The probe's first question, whether the input is store_var frames that
 * each hold exactly one Variant (either prefix byte order), answered by
 * reading them into doc with the decode's options (where they read as the
 * probe's), so that a store_var file is read once: when they fit and the
 * input is not also one raw Variant (gd_probe_framing's ambiguous or raw
 * answers, left to it), they are the decode, with the framing the probe
 * would name (prefixed for one frame, else stream). */
static frames_first read_frames_first(sv_godot_profile profile, sv_doc *doc, const uint8_t *data,
                                      size_t len, const sv_options *opts, sv_godot_opts *o,
                                      gd_seen *seen, sv_value *out, size_t *used)
{
    if (len < 4 || len > GD_PROBE_MAX || !gd_probe_reads_as(o)) return FRAMES_NOT_TRIED;
    gd_rules r;
    gd_rules_init(&r, o);
    r.seen = seen;
    for (int big = 0; big <= 1; big++) {
        sv_value v;
        size_t frames = 0, typed = 0;
        *seen = (gd_seen){0};
        int fit = gd_decode_frames_exact(doc, &r, data, len, big, &v, &frames, &typed);
        if (fit < 0) { /* out of memory: the probe's own answer, then the decode's */
            *seen = (gd_seen){0};
            return FRAMES_NOT_TRIED;
        }
        if (!fit) continue;
        if (gd_probe_raw_fits(profile, data, len)) { /* ambiguous, or raw after all */
            *seen = (gd_seen){0};
            return FRAMES_NOT_TRIED;
        }
        o->framing = frames == 1 ? SV_GODOT_PREFIXED : SV_GODOT_STREAM;
        if (!sv_options_get(opts, "prefix")) o->prefix_big_endian = big;
        *out = frames == 1 ? *sv_array_at(&v, 0) : v;
        *used = len;
        return FRAMES_READ;
    }
    *seen = (gd_seen){0};
    return FRAMES_NONE;
}

sv_status gd_registry_decode(sv_godot_profile profile, sv_doc *doc, const uint8_t *data, size_t len,
                             const sv_options *opts, sv_value *out, sv_error *err)
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
    size_t used = 0;
    gd_seen seen = {0};
    raw_first first = RAW_NOT_TRIED;
    frames_first ff = FRAMES_NOT_TRIED;
    if (!framing_given && data)
        ff = read_frames_first(profile, doc, data, len, opts, &o, &seen, out, &used);
    if (ff == FRAMES_READ)
        first = RAW_READ; /* read, as frames */
    else if (!framing_given && data)
        first = read_raw_first(profile, doc, data, len, opts, &o, &seen, out, &used, &st, err,
                               ff == FRAMES_NONE);
    if (!framing_given && data && first == RAW_NOT_TRIED) {
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
    if (first != RAW_READ) st = gd_decode_framed(doc, data, len, &o, &seen, out, &used, err);
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
    file_facts f = {o.framing, o.prefix_big_endian, framing_given, seen.full_object,
                    seen.version_bits ? o.godot4_minor : 0};
    if (!attach_facts(doc, profile, f, out))
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
            ok = sv_array_append(doc, &c, *sv_array_at(root, i)) == SV_OK;
        } else {
            const sv_value *pk = sv_key_at(root, i);
            const sv_value *pv = sv_val_at(root, i);
            ok = sv_map_append(doc, &c, *pk, *pv) == SV_OK;
        }
        if (!ok) return false;
    }
    sv_value rest = sv_map(doc, 0);
    for (uint32_t i = 0; i < meta->len; i++) {
        const sv_value *pk = sv_key_at(meta, i);
        const sv_value *pv = sv_val_at(meta, i);
        if (!is_file_key(pk) && sv_map_append(doc, &rest, *pk, *pv) != SV_OK) return false;
    }
    if (rest.len && sv_meta_set(doc, &c, rest) != SV_OK) return false;
    *out = c;
    return sv_doc_status(doc) == SV_OK;
}

/* A string entry of meta, or NULL; *bad when it is there but no string. */
static const char *meta_text(const sv_value *meta, const char *name, bool *bad)
{
    const sv_value *v = sv_map_getz(meta, name);
    if (!v) return NULL;
    const char *s = sv_kind_of(v) == SV_STRING ? sv_get_str(v, NULL) : NULL;
    if (!s) *bad = true;
    return s;
}

static sv_status bad_entry(sv_godot_profile profile, const char *name, const char *allowed,
                           sv_error *err)
{
    return sv_error_set(err, SV_ERR_TYPE, profile_names[profile], 0, "$meta %s must be %s", name,
                        allowed);
}

sv_status gd_file_meta_options(sv_godot_profile profile, const sv_value *root,
                               const sv_options *opts, sv_godot_opts *o, bool *found, sv_error *err)
{
    *found = false;
    const sv_value *meta = root && root_takes_meta(root) ? sv_meta(root) : NULL;
    for (uint32_t i = 0; meta && i < meta->len; i++) *found |= is_file_key(sv_key_at(meta, i));
    if (!*found) return SV_OK;
    bool bad = false;
    const char *fs = meta_text(meta, "framing", &bad);
    if (bad) return bad_entry(profile, "framing", "\"raw\", \"prefixed\" or \"stream\"", err);
    if (fs && !sv_options_get(opts, "framing")) {
        if (!strcmp(fs, "prefixed"))
            o->framing = SV_GODOT_PREFIXED;
        else if (!strcmp(fs, "stream"))
            o->framing = SV_GODOT_STREAM;
        else if (!strcmp(fs, "raw"))
            o->framing = SV_GODOT_RAW;
        else
            return bad_entry(profile, "framing", "\"raw\", \"prefixed\" or \"stream\"", err);
    }
    const char *ps = meta_text(meta, "prefix", &bad);
    if (bad || (ps && strcmp(ps, "be") && strcmp(ps, "le")))
        return bad_entry(profile, "prefix", "\"le\" or \"be\"", err);
    if (ps && !sv_options_get(opts, "prefix")) o->prefix_big_endian = !strcmp(ps, "be");
    /* the input's objects were read in full: they are written so again */
    const char *os = meta_text(meta, "objects", &bad);
    if (bad || (os && strcmp(os, "full") && strcmp(os, "id")))
        return bad_entry(profile, "objects", "\"id\" or \"full\"", err);
    if (os && !sv_options_get(opts, "objects")) o->full_objects = !strcmp(os, "full");
    /* the rules of the version the input was read with; another profile
     * has no versions, as it has no use for "format" */
    const char *vs = meta_text(meta, "version", &bad);
    if (bad || (vs && !gd_version_minor(vs)))
        return bad_entry(profile, "version", "a 4.x version (\"4.2\")", err);
    if (vs && profile == SV_GODOT4 && !sv_options_get(opts, "version"))
        o->godot4_minor = gd_version_minor(vs);
    return SV_OK;
}

sv_status gd_registry_encode(sv_godot_profile profile, const sv_value *v, const sv_options *opts,
                             sv_buf *out, sv_error *err)
{
    sv_godot_opts o;
    sv_status st = gd_opts_from_registry(profile, opts, true, &o, err);
    if (st != SV_OK) return st;
    bool found;
    st = gd_file_meta_options(profile, v, opts, &o, &found, err);
    if (st != SV_OK) return st;
    if (!found) return sv_godot_encode(v, &o, out, err);
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
