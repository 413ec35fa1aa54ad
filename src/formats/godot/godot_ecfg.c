/* The registry entry "godot-project": project.binary, the settings of an
 * exported Godot project (magic "ECFG", ProjectSettings::_save_settings_binary).
 *
 *   "ECFG", u32 count, count x {key, u32 value_len, value}
 *
 * The key is a u32 length and UTF-8 bytes; Godot 4 writes the byte count,
 * Godot 3 the character count (wrong for non-ASCII keys, which its own
 * reader then misreads; serval writes what the engine writes). Each value is
 * one marshalls Variant (var2bytes with objects), in godot3's or godot4's
 * numbering. The tree is a map of the settings in file order, with the meta
 * {"format": "godot-project", "engine": 3|4}: the numbering the values were
 * read in, found by trying 4 then 3 (the first that reads every value to its
 * exact length) unless -I engine= names it. */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "core/utf8.h"
#include "serval/godot.h"
#include "serval/registry.h"
#include "core/decode_root.h"

#define FMT "godot-project"

static const char *const extensions[] = {"binary", NULL};

static const sv_option_desc options[] = {
    {"engine", "3 or 4: the Variant numbering of the values (default: found from the values)"},
    {NULL, NULL}};

static int probe(const uint8_t *data, size_t len)
{
    if (len < 4 || memcmp(data, "ECFG", 4)) return 0;
    return len >= 8 ? 100 : SV_PROBE_TRUNCATED;
}

/* UTF-8 characters in s (what Godot 3's String::length() counts). */
static uint32_t char_count(const char *s, size_t n)
{
    uint32_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((uint8_t)s[i] & 0xC0) != 0x80;
    return c;
}

static sv_status read_all(sv_doc *doc, const uint8_t *data, size_t len, int engine,
                          const sv_options *opts, sv_value *out, sv_error *err)
{
    sv_reader r;
    sv__core_rd_init(&r, data, len, FMT, err);
    sv__core_rd_skip(&r, 4, "magic");
    uint32_t count = sv_rd_u32le(&r);
    if (!sv__core_rd_ok(&r)) return r.status;
    if (count > (len - 8) / 8)
        return sv_error_set(err, SV_ERR_SYNTAX, FMT, 4,
                            "entry count %u is more than the %zu bytes after it can hold", count,
                            len - 8);
    sv_godot_opts go;
    sv_godot_opts_init(&go, engine == 3 ? SV_GODOT3 : SV_GODOT4);
    go.full_objects = true;
    if (opts) go.limits = opts->limits;
    sv_value map = sv_map(doc, 0);
    for (uint32_t i = 0; i < count; i++) {
        size_t at = sv__core_rd_offset(&r);
        uint32_t kl = sv_rd_u32le(&r);
        const uint8_t *k = sv__core_rd_bytes(&r, kl, "key");
        uint32_t vl = sv_rd_u32le(&r);
        const uint8_t *v = sv__core_rd_bytes(&r, vl, "value");
        if (!sv__core_rd_ok(&r)) return r.status;
        if (!sv__core_utf8_valid(k, kl))
            return sv_error_set(err, SV_ERR_UTF8, FMT, at + 4, "entry %u: the key is not UTF-8", i);
        if (engine == 3 && char_count((const char *)k, kl) != kl)
            return sv_error_set(err, SV_ERR_UNSUPPORTED, FMT, at + 4,
                                "entry %u: a non-ASCII key in a Godot 3 file (its length is in "
                                "characters: the engine misreads it too)",
                                i);
        sv_value val;
        size_t used = 0;
        sv_status st = sv_godot_decode(doc, v, vl, &go, &val, &used, err);
        if (st == SV_OK && used != vl)
            st = sv_error_set(err, SV_ERR_TRAILING, FMT, at + 12 + kl + used,
                              "entry %u '%.*s': the value takes %zu of its %u bytes", i,
                              (int)(kl > 100 ? 100 : kl), (const char *)k, used, vl);
        if (st != SV_OK) {
            if (err && st != SV_ERR_TRAILING) {
                err->byte_offset += at + 8 + kl;
                snprintf(err->path, sizeof err->path, "/%.*s", (int)(kl > 200 ? 200 : kl),
                         (const char *)k);
            }
            return st;
        }
        if (sv_map_append(doc, &map, sv_str(doc, (const char *)k, kl), val) != SV_OK)
            return sv_error_set(err, SV_ERR_NOMEM, FMT, at, "out of memory");
    }
    if (sv__core_rd_remaining(&r))
        return sv_error_set(err, SV_ERR_TRAILING, FMT, sv__core_rd_offset(&r),
                            "%zu bytes after the last entry", sv__core_rd_remaining(&r));
    sv_value meta = sv_map(doc, 0);
    if (sv_map_append_str(doc, &meta, "format", sv_strz(doc, FMT)) != SV_OK ||
        sv_map_append_str(doc, &meta, "engine", sv_int(engine)) != SV_OK ||
        sv_meta_set(doc, &map, meta) != SV_OK)
        return sv_error_set(err, SV_ERR_NOMEM, FMT, 0, "out of memory");
    *out = map;
    return SV_OK;
}

static int engine_option(const sv_options *opts, sv_error *err, sv_status *st)
{
    const char *e = sv_options_get(opts, "engine");
    *st = SV_OK;
    if (!e) return 0;
    if (!strcmp(e, "3")) return 3;
    if (!strcmp(e, "4")) return 4;
    *st = sv_error_set(err, SV_ERR_USAGE, FMT, 0, "option engine=%s: expected 3 or 4", e);
    return -1;
}

static sv_status decode_tree(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                             sv_value *out, sv_error *err)
{
    if (len < 4 || memcmp(data, "ECFG", 4))
        return sv_error_set(err, SV_ERR_SYNTAX, FMT, 0, "not a project.binary (no \"ECFG\" magic)");
    sv_status st;
    int engine = engine_option(opts, err, &st);
    if (st != SV_OK) return st;
    if (engine) return read_all(doc, data, len, engine, opts, out, err);
    /* 4 first; a failed try leaves only garbage in doc, which it frees */
    sv_error e4;
    sv_error_clear(&e4);
    if (read_all(doc, data, len, 4, opts, out, &e4) == SV_OK) return SV_OK;
    if (e4.status == SV_ERR_NOMEM || e4.status == SV_ERR_LIMIT) {
        if (err) *err = e4;
        return e4.status;
    }
    sv_error e3;
    sv_error_clear(&e3);
    st = read_all(doc, data, len, 3, opts, out, &e3);
    if (st == SV_OK) return SV_OK;
    /* neither numbering reads it: report the reading that got further,
     * unless the second ran out of memory or past a limit */
    const sv_error *e =
        (st != SV_ERR_NOMEM && st != SV_ERR_LIMIT && e4.byte_offset > e3.byte_offset) ? &e4 : &e3;
    if (err) *err = *e;
    return e->status;
}

/* The entry: the tree decoded becomes the document's root. */
static sv_status decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                        sv_value *out, sv_error *err)
{
    sv_status st = decode_tree(doc, data, len, opts, out, err);
    return sv__core_decode_root(doc, st, out, FMT, err);
}

static void put32(sv_buf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sv_buf_append(b, t, 4);
}

static sv_status encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    if (sv_kind_of(v) != SV_MAP)
        return sv_error_set(err, SV_ERR_TYPE, FMT, 0, "expected a map of settings");
    sv_status st;
    int engine = engine_option(opts, err, &st);
    if (st != SV_OK) return st;
    const sv_value *meta = sv_meta(v);
    const sv_value *ev = meta && sv_kind_of(meta) == SV_MAP ? sv_map_get(meta, "engine", 6) : NULL;
    if (!engine && ev && sv_kind_of(ev) == SV_INT) engine = (int)sv_get_int(ev);
    if (engine != 3 && engine != 4)
        return sv_error_set(err, SV_ERR_USAGE, FMT, 0,
                            "which engine's numbering: the tree's $meta engine (3 or 4) or -O "
                            "engine=3|4");
    sv_godot_opts go;
    sv_godot_opts_init(&go, engine == 3 ? SV_GODOT3 : SV_GODOT4);
    go.full_objects = true;
    if (opts) go.limits = opts->limits;
    sv_buf_append(out, "ECFG", 4);
    put32(out, v->len);
    sv_buf val;
    sv_buf_init(&val, NULL);
    for (uint32_t i = 0; i < v->len && st == SV_OK; i++) {
        const sv_value *pk = sv_key_at(v, i);
        const sv_value *pv = sv_val_at(v, i);
        size_t kl = 0;
        const char *k = sv_get_str(pk, &kl);
        if (!k || sv_kind_of(pk) != SV_STRING || kl > UINT32_MAX) {
            st = sv_error_set(err, SV_ERR_TYPE, FMT, 0, "setting %u: the key must be a string", i);
            break;
        }
        put32(out, engine == 3 ? char_count(k, kl) : (uint32_t)kl);
        sv_buf_append(out, k, kl);
        val.len = 0;
        st = sv_godot_encode(pv, &go, &val, err);
        if (st != SV_OK) {
            if (err) snprintf(err->path, sizeof err->path, "/%.*s", (int)(kl > 200 ? 200 : kl), k);
            break;
        }
        put32(out, (uint32_t)val.len);
        sv_buf_append(out, val.data, val.len);
    }
    sv_buf_free(&val);
    if (st == SV_OK && !sv_buf_ok(out))
        st = sv_error_set(err, SV_ERR_NOMEM, FMT, 0, "out of memory");
    return st;
}

const sv_format sv_format_godot_project = {
    .struct_size = sizeof(sv_format),
    .name = FMT,
    .description = "Godot project.binary (ECFG): an exported project's settings",
    .extensions = extensions,
    .probe = probe,
    .decode = decode,
    .encode = encode,
    .options = options,
};
