/* The registry entry of godot-res: Godot binary resources (.res, .scn and
 * any other extension), RSRC and its compressed form RSCC, told apart by
 * the magic at offset 0 (spec §1). The compression facts of an RSCC file go
 * to the root's meta as "compression", so that writing the tree back gives
 * an RSCC file again; without them the output is a plain RSRC file. */
#include <string.h>

#include "formats/godot/godot_res_internal.h"
#include "core/decode_root.h"

static int res_probe(const uint8_t *data, size_t len)
{
    if (len < 4) return 0;
    if (!memcmp(data, "RSRC", 4)) return len >= 32 ? 100 : SV_PROBE_TRUNCATED;
    if (!memcmp(data, "RSCC", 4)) return len >= 24 ? 100 : SV_PROBE_TRUNCATED;
    return 0;
}

static sv_status res_decode_tree(sv_doc *doc, const uint8_t *data, size_t len,
                                 const sv_options *opts, sv_value *out, sv_error *err)
{
    if (len >= 4 && !memcmp(data, "RSCC", 4)) {
        const uint8_t *plain;
        size_t plain_len;
        sv_value cmeta;
        sv_status st = gr_rscc_open(doc, data, len, opts, &plain, &plain_len, &cmeta, err);
        if (st != SV_OK) return st;
        st = gr_decode_stream(doc, plain, plain_len, true, opts, out, err);
        if (st != SV_OK) return st;
        sv_value *meta = (sv_value *)sv_meta(out);
        if (!meta || sv_map_append_str(doc, meta, "compression", cmeta) != SV_OK)
            return sv_error_set(err, SV_ERR_NOMEM, GR_FORMAT, 0, "no memory for the tree");
        return SV_OK;
    }
    return gr_decode_stream(doc, data, len, false, opts, out, err);
}

/* The entry: the tree decoded becomes the document's root. */
static sv_status res_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                            sv_value *out, sv_error *err)
{
    sv_status st = res_decode_tree(doc, data, len, opts, out, err);
    return sv__core_decode_root(doc, st, out, GR_FORMAT, err);
}

static sv_status res_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    (void)opts;
    const sv_value *meta = sv_meta(v);
    const sv_value *comp = sv_map_getz(meta, "compression");
    const sv_value *container = sv_map_getz(meta, "container");
    size_t n;
    const char *c = sv_get_str(container, &n);
    bool rscc = comp != NULL;
    if (container && !(n == 4 && !memcmp(c, rscc ? "RSCC" : "RSRC", 4)))
        return sv_error_set(err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET,
                            "$meta.container is \"RSCC\" with $meta.compression, else \"RSRC\"");
    if (!rscc) {
        uint64_t start = sv_buf_pos(out);
        sv_buf_append(out, "RSRC", 4);
        return gr_encode_stream(v, out, start, err);
    }
    if (sv_kind_of(comp) != SV_MAP)
        return sv_error_set(err, SV_ERR_TYPE, GR_FORMAT, SV_ERROR_NO_OFFSET,
                            "$meta.compression must be a map");
    sv_buf plain;
    sv_buf_init(&plain, out->alloc);
    sv_status st = gr_encode_stream(v, &plain, 0, err);
    if (st == SV_OK) st = gr_rscc_write(plain.data, plain.len, comp, out, err);
    sv_buf_free(&plain);
    return st;
}

static const char *const res_extensions[] = {"res", "scn", NULL};

const sv_format sv_format_godot_res = {
    .struct_size = sizeof(sv_format),
    .name = "godot-res",
    .description =
        "Godot binary resource (.res, .scn): RSRC, and RSCC (compressed), Godot 3.x and 4.x",
    .extensions = res_extensions,
    .probe = res_probe,
    .decode = res_decode,
    .encode = res_encode,
    .options = NULL,
};
