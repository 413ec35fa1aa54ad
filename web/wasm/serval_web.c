/* The library's entry points for the browser viewer, as plain C functions
 * that JavaScript calls through the WebAssembly exports.
 *
 * The viewer never walks the value tree itself: a file is decoded and handed
 * over as serval's typed JSON (lossless), and typed JSON comes back to be
 * encoded into a format. Results go to one output buffer, read with
 * svw_out_ptr/svw_out_len and released with svw_out_free; a failure leaves
 * its message (format, byte offset, JSON Pointer path) in svw_error.
 *
 * A KingsIsle type list, once loaded (svw_types_load), is kept and drives
 * every kingsisle and kingsisle-xml decode and encode until it is cleared,
 * so a file is written back with the types it was read with. */
#include <emscripten/emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/serval.h>
#if SERVAL_WITH_GODOT
#include <serval/godot_pck.h>
#endif

static sv_buf g_out;
static bool g_out_ready;
static char g_error[1024];

static void out_reset(void)
{
    if (g_out_ready) sv_buf_free(&g_out);
    sv_buf_init(&g_out, NULL);
    g_out_ready = true;
}

static bool out_str(const char *s)
{
    sv_buf_append(&g_out, s, strlen(s));
    return sv_buf_ok(&g_out);
}

/* A JSON string literal: the names and descriptions of the registry are
 * short UTF-8 text, so only the characters JSON must escape are escaped. */
static bool out_json_string(const char *s)
{
    if (!out_str("\"")) return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            snprintf(esc, sizeof esc, "\\%c", *p);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
        } else {
            esc[0] = (char)*p;
            esc[1] = 0;
        }
        if (!out_str(esc)) return false;
    }
    return out_str("\"");
}

/* The library's message, after where unless the message already starts with
 * it (it names its format). */
static void set_error(const char *where, const sv_error *err)
{
    char msg[900];
    sv_error_format(err, msg, sizeof msg);
    if (err->format && strcmp(err->format, where) == 0)
        snprintf(g_error, sizeof g_error, "%s", msg);
    else
        snprintf(g_error, sizeof g_error, "%s: %s", where, msg);
}

EMSCRIPTEN_KEEPALIVE uint8_t *svw_out_ptr(void)
{
    return g_out_ready ? g_out.data : NULL;
}

EMSCRIPTEN_KEEPALIVE size_t svw_out_len(void)
{
    return g_out_ready ? g_out.len : 0;
}

EMSCRIPTEN_KEEPALIVE void svw_out_free(void)
{
    if (g_out_ready) sv_buf_free(&g_out);
    g_out_ready = false;
}

EMSCRIPTEN_KEEPALIVE const char *svw_error(void)
{
    return g_error;
}

/* Every format of this build as a JSON array:
 * [{"name", "description", "extensions": [...], "writes": bool, "detects": bool}]. */
EMSCRIPTEN_KEEPALIVE int svw_formats(void)
{
    out_reset();
    size_t n = 0;
    const sv_format *const *all = sv_formats(&n);
    bool ok = out_str("[");
    for (size_t i = 0; ok && i < n; i++) {
        const sv_format *f = all[i];
        ok = out_str(i ? ",{\"name\":" : "{\"name\":") && out_json_string(f->name) &&
             out_str(",\"description\":") && out_json_string(f->description ? f->description : "") &&
             out_str(",\"extensions\":[");
        for (size_t e = 0; ok && f->extensions && f->extensions[e]; e++) {
            ok = (e == 0 || out_str(",")) && out_json_string(f->extensions[e]);
        }
        ok = ok && out_str("],\"writes\":") && out_str(f->encode ? "true" : "false") &&
             out_str(",\"detects\":") && out_str(f->probe ? "true" : "false") && out_str("}");
    }
    ok = ok && out_str("]");
    if (!ok) snprintf(g_error, sizeof g_error, "out of memory");
    return ok ? 0 : 1;
}

typedef struct candidate {
    const sv_format *format;
    int score;
} candidate;

/* Every format whose probe claims the bytes (score > 0), in registry order.
 * This is the one place that asks the registry for candidates: a library
 * call that lists them can replace the loop without touching the rest. */
static size_t detect_candidates(const uint8_t *data, size_t len, candidate *out, size_t max)
{
    size_t n = 0, count = 0;
    const sv_format *const *all = sv_formats(&count);
    for (size_t i = 0; i < count && n < max; i++) {
        int score = all[i]->probe ? all[i]->probe(data, len) : 0;
        if (score > 0) out[n++] = (candidate){all[i], score};
    }
    return n;
}

/* The candidates as a JSON array, best first:
 * [{"name", "score"}], where sv_format_detect's choice (which also weighs
 * the file name's extension) leads among equal scores. */
EMSCRIPTEN_KEEPALIVE int svw_detect(const uint8_t *data, size_t len, const char *filename)
{
    candidate c[64];
    size_t n = detect_candidates(data, len, c, sizeof c / sizeof c[0]);
    const sv_format *best = sv_format_detect(data, len, filename);
    /* Sort by score, highest first; ties: the library's pick, then registry order. */
    for (size_t i = 1; i < n; i++) {
        candidate x = c[i];
        size_t j = i;
        while (j > 0 && (c[j - 1].score < x.score ||
                         (c[j - 1].score == x.score && x.format == best))) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = x;
    }
    out_reset();
    bool ok = out_str("[");
    for (size_t i = 0; ok && i < n; i++) {
        char score[32];
        snprintf(score, sizeof score, ",\"score\":%d}", c[i].score);
        ok = out_str(i ? ",{\"name\":" : "{\"name\":") && out_json_string(c[i].format->name) &&
             out_str(score);
    }
    ok = ok && out_str("]");
    if (!ok) snprintf(g_error, sizeof g_error, "out of memory");
    return ok ? 0 : 1;
}

#if SERVAL_WITH_KINGSISLE
/* The type list in use, or NULL (schema-less). */
static sv_kingsisle_types *g_types;

/* Replaces the type list in use with the files given (count of them: their
 * bytes, lengths and names, as arrays), merged in that order: a class in a
 * later file replaces the one of the same hash before it, as the command's
 * repeated --schema does. On failure the one in use stays and svw_error has
 * the library's reason (the file's name, format, byte offset). On success
 * the output buffer has {"classes": N, "kinds": ["wiztype-v2", ...]}. */
EMSCRIPTEN_KEEPALIVE int svw_types_load(const uint8_t *const *data, const size_t *lens,
                                        const char *const *names, size_t count)
{
    if (count == 0) {
        snprintf(g_error, sizeof g_error, "type list: no file given");
        return 1;
    }
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    if (!t) {
        snprintf(g_error, sizeof g_error, "out of memory");
        return 1;
    }
    sv_error err;
    sv_error_clear(&err);
    for (size_t i = 0; i < count; i++) {
        if (sv_kingsisle_types_add(t, data[i], lens[i], names[i], &err) != SV_OK) {
            char where[300];
            snprintf(where, sizeof where, "type list %s", names[i]);
            set_error(where, &err);
            sv_kingsisle_types_free(t);
            return 1;
        }
    }
    char head[64];
    snprintf(head, sizeof head, "{\"classes\":%zu,\"kinds\":[", sv_kingsisle_types_class_count(t));
    out_reset();
    bool ok = out_str(head);
    for (size_t i = 0; ok && i < count; i++) {
        const char *kind = "";
        sv_kingsisle_types_probe(data[i], lens[i], &kind);
        ok = (i == 0 || out_str(",")) && out_json_string(kind);
    }
    ok = ok && out_str("]}");
    if (!ok) {
        snprintf(g_error, sizeof g_error, "out of memory");
        sv_kingsisle_types_free(t);
        return 1;
    }
    sv_kingsisle_types_free(g_types);
    g_types = t;
    return 0;
}

/* Back to schema-less KingsIsle decoding. */
EMSCRIPTEN_KEEPALIVE void svw_types_clear(void)
{
    sv_kingsisle_types_free(g_types);
    g_types = NULL;
}

/* The KingsIsle codec with the type list in use, for the two KingsIsle
 * formats when one is loaded; false otherwise (the registry's codec runs).
 * The viewer passes no format options, so the codec's defaults stand, as
 * they do in the registry's call. */
static bool typed_kingsisle(const sv_format *f)
{
    return g_types && (f == &sv_format_kingsisle || f == &sv_format_kingsisle_xml);
}
#endif

static sv_status decode_with(const sv_format *f, sv_doc *doc, const uint8_t *data, size_t len,
                             sv_value *root, sv_error *err)
{
#if SERVAL_WITH_KINGSISLE
    if (typed_kingsisle(f)) {
        sv_kingsisle_opts ko;
        sv_kingsisle_opts_init(&ko);
        ko.types = g_types;
        return f == &sv_format_kingsisle ? sv_kingsisle_decode(doc, data, len, &ko, root, err)
                                         : sv_kingsisle_xml_decode(doc, data, len, &ko, root, err);
    }
#endif
    sv_options opts;
    sv_options_init(&opts);
    return f->decode(doc, data, len, &opts, root, err);
}

static sv_status encode_with(const sv_format *f, const sv_value *root, sv_buf *out, sv_error *err)
{
#if SERVAL_WITH_KINGSISLE
    if (typed_kingsisle(f)) {
        sv_kingsisle_opts ko;
        sv_kingsisle_opts_init(&ko);
        ko.types = g_types;
        return f == &sv_format_kingsisle ? sv_kingsisle_encode(root, &ko, out, err)
                                         : sv_kingsisle_xml_encode(root, &ko, out, err);
    }
#endif
    sv_options opts;
    sv_options_init(&opts);
    return f->encode(root, &opts, out, err);
}

/* Decodes data as format fmt and leaves its compact typed JSON in the
 * output buffer. */
EMSCRIPTEN_KEEPALIVE int svw_decode(const char *fmt, const uint8_t *data, size_t len)
{
    const sv_format *f = sv_format_find(fmt);
    if (!f || !f->decode) {
        snprintf(g_error, sizeof g_error, "this build cannot read the format '%s'", fmt);
        return 1;
    }
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) {
        snprintf(g_error, sizeof g_error, "out of memory");
        return 1;
    }
    sv_error err;
    sv_error_clear(&err);
    sv_value root;
    int rc = 1;
    if (decode_with(f, doc, data, len, &root, &err) != SV_OK) {
        set_error(f->name, &err);
    } else {
        out_reset();
        if (sv_json_encode(&root, NULL, &g_out, &err) != SV_OK) {
            set_error("json", &err);
        } else {
            rc = 0;
        }
    }
    sv_doc_free(doc);
    return rc;
}

/* Reads typed JSON text and encodes it as format fmt into the output buffer.
 * indent applies when fmt is "json" (0: compact). */
EMSCRIPTEN_KEEPALIVE int svw_encode(const char *fmt, const char *json, size_t len, int indent)
{
    const sv_format *f = sv_format_find(fmt);
    if (!f || !f->encode) {
        snprintf(g_error, sizeof g_error, "this build cannot write the format '%s'", fmt);
        return 1;
    }
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) {
        snprintf(g_error, sizeof g_error, "out of memory");
        return 1;
    }
    sv_error err;
    sv_error_clear(&err);
    sv_value root;
    int rc = 1;
    if (sv_json_decode(doc, json, len, NULL, &root, &err) != SV_OK) {
        set_error("typed JSON", &err);
    } else {
        out_reset();
        sv_status st;
        if (strcmp(f->name, "json") == 0) {
            sv_json_encode_opts jo;
            sv_json_encode_opts_init(&jo);
            jo.indent = indent;
            st = sv_json_encode(&root, &jo, &g_out, &err);
        } else {
            st = encode_with(f, &root, &g_out, &err);
        }
        if (st != SV_OK) {
            set_error(f->name, &err);
        } else {
            rc = 0;
        }
    }
    sv_doc_free(doc);
    return rc;
}

#if SERVAL_WITH_RESONITE
/* The members of a .resonitepackage (a zip) as a JSON array:
 * [{"name", "size", "tree": bool}], tree when the member is a data tree
 * (FrDT). Fails with the library's reason when data is not a package. */
EMSCRIPTEN_KEEPALIVE int svw_package_list(const uint8_t *data, size_t len)
{
    sv_resonite_package *p = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_package_open(data, len, NULL, &p, &err) != SV_OK) {
        set_error("resonitepackage", &err);
        return 1;
    }
    out_reset();
    bool ok = out_str("[");
    size_t n = sv_resonite_package_count(p);
    for (size_t i = 0; ok && i < n; i++) {
        sv_resonite_member m;
        if (sv_resonite_package_member(p, i, &m, &err) != SV_OK) {
            set_error("resonitepackage", &err);
            sv_resonite_package_close(p);
            return 1;
        }
        char tail[64];
        snprintf(tail, sizeof tail, ",\"size\":%llu,\"tree\":%s}", (unsigned long long)m.size,
                 m.is_data_tree ? "true" : "false");
        ok = out_str(i ? ",{\"name\":" : "{\"name\":") && out_json_string(m.name) && out_str(tail);
    }
    ok = ok && out_str("]");
    sv_resonite_package_close(p);
    if (!ok) snprintf(g_error, sizeof g_error, "out of memory");
    return ok ? 0 : 1;
}

/* The bytes of member i of the package in data, in the output buffer
 * (its CRC-32 checked, the default decompressed-size limit applied). */
EMSCRIPTEN_KEEPALIVE int svw_package_read(const uint8_t *data, size_t len, size_t i)
{
    sv_resonite_package *p = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_package_open(data, len, NULL, &p, &err) != SV_OK) {
        set_error("resonitepackage", &err);
        return 1;
    }
    out_reset();
    int rc = 0;
    if (sv_resonite_package_read(p, i, 0, &g_out, &err) != SV_OK) {
        set_error("resonitepackage", &err);
        rc = 1;
    }
    sv_resonite_package_close(p);
    return rc;
}
#endif

#if SERVAL_WITH_KINGSISLE
/* The members of a KIWAD archive (.wad) as JSON:
 * {"version", "flags" (-1: none), "members": [{"name", "size", "stored",
 * "zlib": bool, "unpatched": bool}]} in table order. The library checks the
 * whole table first (names, ranges, overlaps), so a list is only ever of an
 * archive that can be read; otherwise svw_error has its reason. */
EMSCRIPTEN_KEEPALIVE int svw_wad_list(const uint8_t *data, size_t len)
{
    sv_kiwad *w = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open(data, len, NULL, &w, &err) != SV_OK) {
        set_error("kiwad", &err);
        return 1;
    }
    sv_kiwad_info info = sv_kiwad_get_info(w);
    char head[96];
    snprintf(head, sizeof head, "{\"version\":%u,\"flags\":%d,\"members\":[", info.version,
             info.flags);
    out_reset();
    bool ok = out_str(head);
    sv_kiwad_member m;
    for (size_t i = 0; ok && sv_kiwad_member_at(w, i, &m); i++) {
        char tail[128];
        snprintf(tail, sizeof tail, ",\"size\":%u,\"stored\":%u,\"zlib\":%s,\"unpatched\":%s}",
                 m.size, m.stored_len, m.compressed ? "true" : "false",
                 m.unpatched ? "true" : "false");
        /* Names are checked UTF-8 without NUL, as out_json_string needs. */
        ok = out_str(i ? ",{\"name\":" : "{\"name\":") && out_json_string(m.name) && out_str(tail);
    }
    ok = ok && out_str("]}");
    sv_kiwad_close(w);
    if (!ok) snprintf(g_error, sizeof g_error, "out of memory");
    return ok ? 0 : 1;
}

/* The content of member i of the archive in data, in the output buffer: its
 * CRC checked, inflated to exactly its declared size under the default
 * limits. An unpatched member (not downloaded: all zero) has none and is
 * refused with the library's reason. */
EMSCRIPTEN_KEEPALIVE int svw_wad_read(const uint8_t *data, size_t len, size_t i)
{
    sv_kiwad *w = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open(data, len, NULL, &w, &err) != SV_OK) {
        set_error("kiwad", &err);
        return 1;
    }
    out_reset();
    int rc = 0;
    if (sv_kiwad_read(w, i, NULL, true, &g_out, &err) != SV_OK) {
        set_error("kiwad", &err);
        rc = 1;
    }
    sv_kiwad_close(w);
    return rc;
}
#endif

#if SERVAL_WITH_GODOT
static void out_hex(const uint8_t *p, size_t n, char *dst)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = digits[p[i] >> 4];
        dst[2 * i + 1] = digits[p[i] & 15];
    }
    dst[2 * n] = 0;
}

/* The members of a Godot PCK archive (a .pck, or an executable with a pack
 * appended) as JSON: {"version" (pack format 1, 2 or 3), "godot": "x.y.z",
 * "embedded": bool, "members": [{"name", "size", "md5", "encrypted": bool,
 * "removal": bool}]} in directory order, name as stored ("res://" kept).
 * md5 is the stored one, or, where 3.x stored zeros, the content's (as
 * serval godot pck list prints it). The viewer has no key: a pack whose
 * directory is encrypted fails here with the library's "a key is needed". */
EMSCRIPTEN_KEEPALIVE int svw_pck_list(const uint8_t *data, size_t len)
{
    sv_godot_pck *p = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_pck_open(data, len, NULL, NULL, &p, &err) != SV_OK) {
        set_error("godot-pck", &err);
        return 1;
    }
    sv_godot_pck_info info = sv_godot_pck_get_info(p);
    char head[160];
    snprintf(head, sizeof head, "{\"version\":%u,\"godot\":\"%u.%u.%u\",\"embedded\":%s,\"members\":[",
             info.format_version, info.major, info.minor, info.patch,
             info.embedded ? "true" : "false");
    out_reset();
    bool ok = out_str(head);
    static const uint8_t zero[16];
    sv_godot_pck_member m;
    for (size_t i = 0; ok && sv_godot_pck_member_at(p, i, &m); i++) {
        bool enc = m.flags & SV_GODOT_PCK_FILE_ENCRYPTED;
        bool removal = m.flags & SV_GODOT_PCK_FILE_REMOVAL;
        uint8_t digest[16];
        memcpy(digest, m.md5, 16);
        if (!memcmp(m.md5, zero, 16) && !enc && !removal) {
            size_t n = 0;
            const uint8_t *stored = sv_godot_pck_stored(p, i, &n);
            sv_godot_md5(n ? stored : NULL, n, digest);
        }
        char md5[33], tail[160];
        out_hex(digest, 16, md5);
        snprintf(tail, sizeof tail, ",\"size\":%llu,\"md5\":\"%s\",\"encrypted\":%s,\"removal\":%s}",
                 (unsigned long long)m.size, md5, enc ? "true" : "false",
                 removal ? "true" : "false");
        /* Paths are checked UTF-8 without NUL by the open, as out_json_string needs. */
        ok = out_str(i ? ",{\"name\":" : "{\"name\":") && out_json_string(m.path) && out_str(tail);
    }
    ok = ok && out_str("]}");
    sv_godot_pck_close(p);
    if (!ok) snprintf(g_error, sizeof g_error, "out of memory");
    return ok ? 0 : 1;
}

/* The content of member i of the pack in data, in the output buffer, its
 * stored MD5 checked. An encrypted member needs the key the viewer does not
 * take: refused with the library's reason. */
EMSCRIPTEN_KEEPALIVE int svw_pck_read(const uint8_t *data, size_t len, size_t i)
{
    sv_godot_pck *p = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_pck_open(data, len, NULL, NULL, &p, &err) != SV_OK) {
        set_error("godot-pck", &err);
        return 1;
    }
    out_reset();
    int rc = 0;
    if (sv_godot_pck_read(p, i, NULL, true, &g_out, &err) != SV_OK) {
        set_error("godot-pck", &err);
        rc = 1;
    }
    sv_godot_pck_close(p);
    return rc;
}
#endif
