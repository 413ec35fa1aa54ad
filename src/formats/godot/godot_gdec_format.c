/* The registry entry "godot-enc": files Godot's FileAccessEncrypted wrote
 * (File.open_encrypted, open_encrypted_with_pass; magic "GDEC").
 *
 * The file is a container: decoding decrypts it with the key the caller
 * gives (-I key=HEX, or -I password=TEXT, from which the key is derived as
 * the engine derives it) and decodes the plaintext with an inner format:
 * godot3 for a 3.x file, godot4 for a 4.x one, godot-res for a resource
 * (RSRC/RSCC plaintext, when that format is built), or the one -I inner=
 * names (bytes: the plaintext as one byte string). The tree is
 *
 *   {"data": <the inner tree>, "$meta": {"format": "godot-enc", "gdec": 3|4,
 *    "inner": NAME, "mode": 1 (3.x), "iv": bytes (4.x), "padding": bytes}}
 *
 * where "padding" appears only when the plaintext's last block was not
 * padded with zeros. Encoding encrypts the inner format's bytes again with
 * the key given (-O key= or -O password=) and the IV -O iv= gives, else the
 * recorded one (so an unchanged tree gives the same file), else a random
 * one (a new file). The key is never put in the tree. */
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "formats/godot/godot_crypto.h"
#include "formats/godot/godot_gdec.h"
#include "serval/registry.h"
#include "core/decode_root.h"

#define FMT "godot-enc"

static const char *const no_extensions[] = {NULL};

static const sv_option_desc options[] = {
    {"key", "the 32-byte key as 64 hex digits (File.open_encrypted); never stored"},
    {"password", "the password (File.open_encrypted_with_pass derives the key); never stored"},
    {"iv", "encode, 4.x files: the 16-byte IV as 32 hex digits (default: $meta.iv, the one "
           "read; without it 16 random bytes, as the engine draws them)"},
    {"inner", "decode: the plaintext's format: godot3, godot4, godot-res or bytes (default: "
              "godot3 for a 3.x file, godot4 for 4.x, godot-res for a resource)"},
    {NULL, NULL}};

static int probe(const uint8_t *data, size_t len)
{
    if (len < 4 || memcmp(data, "GDEC", 4)) return 0;
    gd_gdec g;
    return gd_gdec_parse(data, len, true, 0, FMT, 0, &g, NULL) == SV_OK ? 100 : SV_PROBE_TRUNCATED;
}

/* The key from key= or password=; SV_ERR_USAGE when neither (or both). */
static sv_status get_key(const sv_options *opts, const char *flag, uint8_t key[32], sv_error *err)
{
    const char *hex = sv_options_get(opts, "key"), *pass = sv_options_get(opts, "password");
    if (hex && pass)
        return sv_error_set(err, SV_ERR_USAGE, FMT, 0, "give key= or password=, not both");
    if (hex) {
        if (!gd_key_from_hex(hex, key))
            return sv_error_set(err, SV_ERR_USAGE, FMT, 0,
                                "option key: expected 64 hex digits (a 32-byte key)");
        return SV_OK;
    }
    if (pass) {
        gd_key_from_password(pass, strlen(pass), key);
        return SV_OK;
    }
    /* Refused, not a usage error: in a batch (-r) an encrypted file without
     * its key is that file's failure, and the files after it still run. */
    return sv_error_set(err, SV_ERR_REFUSED, FMT, 0,
                        "an encrypted file: a key is needed (%s key=HEX, 64 hex digits, or %s "
                        "password=TEXT)",
                        flag, flag);
}

static sv_options inner_options(const sv_options *opts)
{
    sv_options o;
    sv_options_init(&o);
    if (opts) o.limits = opts->limits;
    return o;
}

static bool is_resource(const uint8_t *p, size_t n)
{
    return n >= 4 && (!memcmp(p, "RSRC", 4) || !memcmp(p, "RSCC", 4));
}

static sv_status decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                        sv_value *out, sv_error *err)
{
    if (sv_options_get(opts, "iv"))
        return sv_error_set(err, SV_ERR_USAGE, FMT, 0,
                            "option iv is for writing (-O iv=HEX): a file's IV is in its header");
    gd_gdec g;
    sv_status st = gd_gdec_parse(data, len, true, 0, FMT, 0, &g, err);
    if (st != SV_OK) return st;
    uint8_t key[32];
    st = get_key(opts, "-I", key, err);
    if (st != SV_OK) return st;
    sv_limits lim = sv_limits_resolve(opts ? &opts->limits : NULL);
    sv_buf plain;
    sv_buf_init(&plain, NULL);
    st = gd_gdec_decrypt(&g, key, lim.max_alloc, FMT, 0, &plain, err);
    memset(key, 0, sizeof key);
    if (st != SV_OK) {
        sv_buf_free(&plain);
        return st;
    }
    size_t n = (size_t)g.length;
    const char *inner = sv_options_get(opts, "inner");
    if (!inner)
        inner = is_resource(plain.data, n) ? "godot-res" : g.version == 3 ? "godot3" : "godot4";
    sv_value val = sv_null();
    if (!strcmp(inner, "bytes")) {
        val = sv_bytes(doc, plain.data, n);
    } else {
        const sv_format *f = sv_format_find(inner);
        if (!f || !f->decode || !strcmp(inner, FMT)) {
            st = sv_error_set(err, SV_ERR_UNSUPPORTED, FMT, 0,
                              "inner format '%s' is not one this serval reads (godot3, godot4, "
                              "godot-res, bytes)",
                              inner);
        } else {
            sv_options io = inner_options(opts);
            /* An empty plaintext holds no store_var value (the engine's
             * get_var() loop reads none): with the default Variant format it
             * is a stream of none, written back as no bytes. */
            static const char *const stream_name[] = {"framing"}, *const stream_value[] = {
                                                                      "stream"};
            if (n == 0 && !sv_options_get(opts, "inner") && strcmp(inner, "godot-res")) {
                io.names = stream_name;
                io.values = stream_value;
                io.count = 1;
            }
            st = f->decode(doc, plain.data, n, &io, &val, err);
            if (st != SV_OK && err) {
                size_t used = strlen(err->message);
                if (used + 1 < sizeof err->message)
                    snprintf(err->message + used, sizeof err->message - used,
                             " (in the decrypted %s data; -I inner=bytes keeps it as bytes)",
                             inner);
            }
        }
    }
    bool zero_pad = true;
    for (size_t i = n; i < plain.len; i++) zero_pad = zero_pad && plain.data[i] == 0;
    sv_value root = sv_map(doc, 0), meta = sv_map(doc, 0);
    bool ok =
        st == SV_OK && sv_map_append_str(doc, &root, "data", val) == SV_OK &&
        sv_map_append_str(doc, &meta, "format", sv_strz(doc, FMT)) == SV_OK &&
        sv_map_append_str(doc, &meta, "gdec", sv_int(g.version)) == SV_OK &&
        sv_map_append_str(doc, &meta, "inner", sv_strz(doc, inner)) == SV_OK &&
        (g.version != 3 || sv_map_append_str(doc, &meta, "mode", sv_int(g.mode)) == SV_OK) &&
        (g.version != 4 || sv_map_append_str(doc, &meta, "iv", sv_bytes(doc, g.iv, 16)) == SV_OK) &&
        (zero_pad || sv_map_append_str(doc, &meta, "padding",
                                       sv_bytes(doc, plain.data + n, plain.len - n)) == SV_OK) &&
        sv_meta_set(doc, &root, meta) == SV_OK;
    sv_buf_free(&plain);
    if (st != SV_OK) return st;
    if (!ok) return sv_error_set(err, SV_ERR_NOMEM, FMT, 0, "out of memory");
    *out = root;
    return sv__core_decode_root(doc, SV_OK, out, FMT, err);
}

static const sv_value *meta_get(const sv_value *meta, const char *k)
{
    return meta ? sv_map_get(meta, k, strlen(k)) : NULL;
}

/* A 4.x file's IV: -O iv=HEX, else the one read ($meta.iv, so an unchanged
 * tree gives the same file), else 16 random bytes, as the engine draws a
 * new one for every file opened without an IV. */
static sv_status choose_iv(const sv_value *meta, const sv_options *opts, uint8_t iv[16],
                           sv_error *err)
{
    const char *hex = sv_options_get(opts, "iv");
    if (hex)
        return gd_bytes_from_hex(hex, iv, 16)
                   ? SV_OK
                   : sv_error_set(err, SV_ERR_USAGE, FMT, 0,
                                  "option iv: expected 32 hex digits (a 16-byte IV)");
    const sv_value *ivv = meta_get(meta, "iv");
    if (!ivv) return gd_random_bytes(iv, 16, FMT, err);
    size_t n = 0;
    const char *p = sv_kind_of(ivv) == SV_BYTES ? sv_get_str(ivv, &n) : NULL;
    if (!p || n != 16)
        return sv_error_set(err, SV_ERR_TYPE, FMT, 0,
                            "$meta iv: expected the 16 bytes of the file's IV");
    memcpy(iv, p, 16);
    return SV_OK;
}

static sv_status encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    const sv_value *meta = sv_kind_of(v) == SV_MAP ? sv_meta(v) : NULL;
    if (meta && sv_kind_of(meta) != SV_MAP) meta = NULL;
    const sv_value *ver = meta_get(meta, "gdec"), *inner_v = meta_get(meta, "inner");
    const sv_value *data = sv_kind_of(v) == SV_MAP ? sv_map_get(v, "data", 4) : NULL;
    if (!ver || !inner_v || !data || sv_kind_of(ver) != SV_INT)
        return sv_error_set(err, SV_ERR_TYPE, FMT, 0,
                            "expected the tree godot-enc decodes: {\"data\": ..., \"$meta\": "
                            "{\"gdec\": 3|4, \"inner\": ..., ...}}");
    int version = (int)sv_get_int(ver);
    if (version != 3 && version != 4)
        return sv_error_set(err, SV_ERR_RANGE, FMT, 0, "$meta gdec %d: expected 3 or 4", version);
    uint32_t mode = 1;
    uint8_t iv[16] = {0};
    if (version == 3 && meta_get(meta, "mode")) mode = (uint32_t)sv_get_int(meta_get(meta, "mode"));
    sv_status st = version == 4 ? choose_iv(meta, opts, iv, err)
                   : sv_options_get(opts, "iv")
                       ? sv_error_set(err, SV_ERR_USAGE, FMT, 0,
                                      "option iv: a Godot 3 file (gdec 3, AES-ECB) has no IV")
                       : SV_OK;
    if (st != SV_OK) return st;
    size_t il = 0;
    const char *inner = sv_get_str(inner_v, &il);
    uint8_t key[32];
    st = get_key(opts, "-O", key, err);
    if (st != SV_OK) return st;
    sv_buf plain;
    sv_buf_init(&plain, NULL);
    if (inner && il == 5 && !memcmp(inner, "bytes", 5)) {
        size_t n = 0;
        const char *p = sv_kind_of(data) == SV_BYTES ? sv_get_str(data, &n) : NULL;
        if (!p)
            st = sv_error_set(err, SV_ERR_TYPE, FMT, 0, "inner bytes: /data must be bytes");
        else
            sv_buf_append(&plain, p, n);
    } else {
        char name[32];
        const sv_format *f = NULL;
        if (inner && il < sizeof name) {
            memcpy(name, inner, il);
            name[il] = 0;
            f = strcmp(name, FMT) ? sv_format_find(name) : NULL;
        }
        if (!f || !f->encode) {
            st = sv_error_set(err, SV_ERR_UNSUPPORTED, FMT, 0,
                              "$meta inner: no format '%.*s' to write", (int)(il < 32 ? il : 32),
                              inner ? inner : "");
        } else {
            sv_options io = inner_options(opts);
            st = f->encode(data, &io, &plain, err);
        }
    }
    const sv_value *padv = meta_get(meta, "padding");
    size_t pad_len = 0;
    const char *pad = padv && sv_kind_of(padv) == SV_BYTES ? sv_get_str(padv, &pad_len) : NULL;
    if (st == SV_OK && !sv_buf_ok(&plain))
        st = sv_error_set(err, SV_ERR_NOMEM, FMT, 0, "out of memory");
    if (st == SV_OK && pad && pad_len != (16 - plain.len % 16) % 16) pad = NULL; /* data changed */
    if (st == SV_OK)
        st = gd_gdec_encrypt(version, true, mode, key, iv, plain.data, plain.len,
                             (const uint8_t *)pad, pad ? pad_len : 0, FMT, out, err);
    memset(key, 0, sizeof key);
    sv_buf_free(&plain);
    return st;
}

const sv_format sv_format_godot_enc = {
    .struct_size = sizeof(sv_format),
    .name = FMT,
    .description =
        "Godot encrypted file (GDEC: File.open_encrypted), around godot3/godot4/godot-res",
    .extensions = no_extensions,
    .probe = probe,
    .decode = decode,
    .encode = encode,
    .options = options,
};
