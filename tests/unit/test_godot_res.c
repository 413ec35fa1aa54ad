/* godot-res: Godot binary resources (RSRC, RSCC).
 *
 *  - The Godot 3.2.3 and 4.6 vectors (tests/vectors/godot-res/v3 and v4,
 *    written by tests/godot/regen_res3.sh and regen_res4.sh; brotli4, the
 *    Brotli files Godot 4.6 loaded, res4_brotli.sh): each file decodes, encodes back to the same
 *    bytes directly and through typed JSON, and every property of every
 *    internal resource equals what the engine read back from the file
 *    (<name>.json; references resolved to the paths the engine reports).
 *  - The spec's worked example (§2.7) field by field, and the 4.6 sample
 *    (../shared/samples/godot-res, skipped when absent).
 *  - Edits change only what they must: one int in place; in an RSCC file
 *    only the block that holds the edit is compressed again.
 *  - The block codecs against the engine's blocks: FastLZ, deflate and gzip
 *    compress each plaintext block to the engine's bytes. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compress/block_codecs.h"
#include "compress/zlib_adapter.h"
#include "core/byteio.h"
#include "serval/config.h"
#include "serval/serval.h"
#include "test_godot_util.h"

#define V3_DIR "vectors/godot-res/v3"
#define SAMPLES "../../shared/samples/godot-res"

static int failures;

static void vfail(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

static sv_status decode(sv_doc *doc, const uint8_t *p, size_t n, sv_value *out, sv_error *err)
{
    sv_error_clear(err);
    return sv_format_find("godot-res")->decode(doc, p, n, NULL, out, err);
}

static sv_status encode(const sv_value *v, sv_buf *out, sv_error *err)
{
    sv_error_clear(err);
    return sv_format_find("godot-res")->encode(v, NULL, out, err);
}

/* ---- comparing a decoded value with the engine's readback ---- */

typedef struct rb_ctx {
    const sv_value *external; /* the tree's external list */
    const sv_value *internal; /* the tree's internal list */
    bool named;               /* 4.x flags bit 1: $sub is an index into internal */
    const char *file;         /* the file's res:// path */
    char path[512];           /* where the difference is */
} rb_ctx;

static bool same_num(double a, double b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

/* {"$resource": path} (the key's "$" doubled in the JSON) */
static const char *resource_path(const sv_value *b)
{
    if (sv_kind_of(b) != SV_MAP || b->len != 1) return NULL;
    const sv_value *p = sv_map_getz(b, "$resource");
    return sv_kind_of(p) == SV_STRING ? p->as.str : NULL;
}

static bool same_value(rb_ctx *c, const sv_value *a, const sv_value *b);

static bool same_ref(rb_ctx *c, const sv_value *a, const sv_value *b)
{
    const char *want = resource_path(b);
    char buf[600];
    if (a->tag == SV_TAG_EXT_RESOURCE) {
        const sv_value *x = sv_array_at(c->external, (size_t)sv_get_int(a));
        if (!x) return sv_kind_of(b) == SV_NULL; /* a broken index reads as null */
        snprintf(buf, sizeof buf, "%s", sv_map_getz(x, "path")->as.str);
    } else if (c->named) {
        const sv_value *o = sv_array_at(c->internal, (size_t)sv_get_int(a));
        const char *lp = o ? sv_get_str(sv_map_getz(sv_meta(o), "path"), NULL) : "";
        snprintf(buf, sizeof buf, "%s::%s", c->file, strncmp(lp, "local://", 8) ? lp : lp + 8);
    } else {
        snprintf(buf, sizeof buf, "%s::%lld", c->file, (long long)sv_get_int(a));
    }
    return want && !strcmp(want, buf);
}

static bool same_value(rb_ctx *c, const sv_value *a, const sv_value *b)
{
    switch ((sv_kind)a->kind) {
    case SV_NULL: return sv_kind_of(b) == SV_NULL;
    case SV_REF: return (a->flags & SV_F_NULLREF) && sv_kind_of(b) == SV_NULL;
    case SV_BOOL: return sv_kind_of(b) == SV_BOOL && sv_get_bool(a) == sv_get_bool(b);
    case SV_INT:
    case SV_UINT:
        if (a->tag == SV_TAG_EXT_RESOURCE || a->tag == SV_TAG_SUB_RESOURCE)
            return same_ref(c, a, b);
        /* an RID is read back as an int (spec §4.8) */
        return (sv_kind_of(b) == SV_INT || sv_kind_of(b) == SV_UINT) &&
               sv_get_int(a) == sv_get_int(b);
    case SV_FLOAT:
        return sv_kind_of(b) == SV_FLOAT
                   ? same_num(sv_get_f64(a), sv_get_f64(b))
                   : (sv_kind_of(b) == SV_INT && sv_get_f64(a) == (double)sv_get_int(b));
    case SV_STRING:
        if (sv_kind_of(b) != SV_STRING || a->len != b->len || memcmp(a->as.str, b->as.str, a->len))
            return false;
        return (a->tag == SV_TAG_NODE_PATH) == (b->tag == SV_TAG_NODE_PATH);
    case SV_BYTES:
        return sv_kind_of(b) == SV_BYTES && a->len == b->len &&
               (!a->len || !memcmp(a->as.bytes, b->as.bytes, a->len));
    case SV_TUPLE:
    case SV_PACKED:
        if ((sv_kind_of(b) != SV_TUPLE && sv_kind_of(b) != SV_PACKED) || a->len != b->len ||
            (a->tag != b->tag))
            return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!same_num(sv_number_at(a, i), sv_number_at(b, i))) return false;
        return true;
    case SV_ARRAY:
        if (sv_kind_of(b) != SV_ARRAY || a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!same_value(c, sv_array_at(a, i), sv_array_at(b, i))) return false;
        return true;
    case SV_MAP:
        if (sv_kind_of(b) != SV_MAP || a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++) {
            if (!same_value(c, sv_key_at(a, i), sv_key_at(b, i)) ||
                !same_value(c, sv_val_at(a, i), sv_val_at(b, i)))
                return false;
        }
        return true;
    default: return false;
    }
}

/* Every property of every internal resource against the readback. */
static void check_readback(const char *name, const sv_value *tree, const sv_value *rb, int *props)
{
    rb_ctx c;
    memset(&c, 0, sizeof c);
    c.external = sv_map_getz(tree, "external");
    c.internal = sv_map_getz(tree, "internal");
    c.named = sv_get_int(sv_map_getz(sv_meta(tree), "flags")) & 1;
    c.file = sv_get_str(sv_map_getz(rb, "file"), NULL);
    const sv_value *res = sv_map_getz(rb, "resources");
    const sv_value *inl = sv_map_getz(tree, "internal");
    for (uint32_t i = 0; i < sv_len(inl); i++) {
        const sv_value *o = sv_array_at(inl, i);
        const char *lp = sv_get_str(sv_map_getz(sv_meta(o), "path"), NULL);
        char path[600];
        if (i + 1 == inl->len)
            snprintf(path, sizeof path, "%s", c.file);
        else if (!strncmp(lp, "local://", 8))
            snprintf(path, sizeof path, "%s::%s", c.file, lp + 8);
        else
            snprintf(path, sizeof path, "%s", lp);
        const sv_value *r = sv_map_getz(res, path);
        if (!r) {
            vfail(name, "internal resource %u (%s) is not in the readback", i, path);
            continue;
        }
        const char *cls = sv_get_str(sv_object_class(o), NULL);
        if (strcmp(cls, sv_get_str(sv_map_getz(r, "class"), NULL)))
            vfail(name, "%s: class %s, the engine read %s", path, cls,
                  sv_get_str(sv_map_getz(r, "class"), NULL));
        const sv_value *props_rb = sv_map_getz(r, "properties");
        for (uint32_t k = 0; k < o->len; k++) {
            const sv_value *key = sv_key_at(o, k), *val = sv_val_at(o, k);
            const sv_value *want = sv_map_get(props_rb, key->as.str, key->len);
            (*props)++;
            if (!want) {
                vfail(name, "%s: property %s is not in the readback", path, key->as.str);
            } else if (!same_value(&c, val, want)) {
                char *got = tg_json(val), *exp = tg_json(want);
                vfail(name, "%s: property %s is %.300s, the engine read %.300s", path,
                      key->as.str, got, exp);
                free(got);
                free(exp);
            }
        }
    }
}

/* Decode, encode (directly and through typed JSON), compare with the
 * readback of rb_name. */
static void check_file(const char *dir, const char *file, const char *rb_name, int *props)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t n = 0;
    uint8_t *data = tg_read_file(path, &n);
    if (!data) {
        vfail(file, "cannot read");
        return;
    }
    sv_doc *doc = sv_doc_new(NULL);
    sv_value tree;
    sv_error err;
    if (decode(doc, data, n, &tree, &err) != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        vfail(file, "decode: %s", msg);
        goto done;
    }
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (encode(&tree, &out, &err) != SV_OK || out.len != n || memcmp(out.data, data, n))
        vfail(file, "encode does not give the file back (%zu bytes, want %zu)", out.len, n);
    sv_buf_free(&out);
    /* dump | conv */
    char *json = tg_json(&tree);
    sv_value back;
    sv_buf_init(&out, NULL);
    if (sv_json_decode(doc, json, strlen(json), NULL, &back, &err) != SV_OK ||
        encode(&back, &out, &err) != SV_OK || out.len != n || memcmp(out.data, data, n))
        vfail(file, "the typed JSON does not give the file back");
    sv_buf_free(&out);
    free(json);
    if (rb_name) {
        snprintf(path, sizeof path, "%s/%s.json", dir, rb_name);
        size_t jn = 0;
        char *text = (char *)tg_read_file(path, &jn);
        sv_value rb;
        if (!text || sv_json_decode(doc, text, jn, NULL, &rb, &err) != SV_OK)
            vfail(file, "cannot read the readback %s", path);
        else
            check_readback(file, &tree, &rb, props);
        free(text);
    }
done:
    sv_doc_free(doc);
    free(data);
}

static void check_dir(const char *dir, int min_files)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0, props = 0;
    failures = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".res") && strcmp(dot, ".scn"))) continue;
        char rb[256];
        snprintf(rb, sizeof rb, "%.*s", (int)(dot - e->d_name), e->d_name);
        /* The engine reads the packed arrays of a big-endian file
         * byte-reversed (spec §4.11); serval reads the file as written,
         * which is what the engine read from the same resource saved
         * little-endian. */
        if (strstr(rb, "_be")) snprintf(rb, sizeof rb, "all_types");
        check_file(dir, e->d_name, rb, &props);
        files++;
    }
    closedir(d);
    fprintf(stderr, "godot-res %s: %d files, %d properties checked against the engine\n", dir,
            files, props);
    assert_true(files >= min_files);
    assert_true(props > 50);
    assert_int_equal(failures, 0);
}

static void test_v3_vectors(void **state)
{
    (void)state;
    check_dir(V3_DIR, 16);
}

/* Godot 4.6's own files (tests/godot/regen_res4.sh): format 6, flags 11
 * (named ids, uids, script class), typed containers written untyped. */
static void test_v4_vectors(void **state)
{
    (void)state;
    check_dir("vectors/godot-res/v4", 8);
}

/* Brotli blocks (mode 4, which Godot 4 reads and never writes): the files
 * of tests/godot/res4_brotli.sh, which Godot 4.6 loaded; <name>.json is what
 * it read back. */
static void test_brotli_vectors(void **state)
{
    (void)state;
#if SERVAL_HAVE_BROTLI
    check_dir("vectors/godot-res/brotli4", 2);
#else
    skip(); /* built without libbrotli: test_godot_res_brotli checks the refusal */
#endif
}

/* ---- the spec's worked example, §2.7 ---- */

static void test_spec_worked_example(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *data = tg_read_file(SAMPLES "/sample3_leaf.res", &n);
    if (!data) {
        skip(); /* ../shared/samples absent */
        return;
    }
    assert_int_equal(n, 427);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode(doc, data, n, &t, &err), SV_OK);
    const sv_value *m = sv_meta(&t);
    assert_string_equal(sv_get_str(sv_map_getz(m, "container"), NULL), "RSRC");
    assert_int_equal(sv_get_int(sv_map_getz(m, "big_endian")), 0);
    assert_int_equal(sv_get_int(sv_map_getz(m, "use_real64")), 0);
    assert_int_equal(sv_get_int(sv_map_getz(m, "ver_major")), 3);
    assert_int_equal(sv_get_int(sv_map_getz(m, "ver_minor")), 2);
    assert_int_equal(sv_get_int(sv_map_getz(m, "ver_format")), 3);
    assert_string_equal(sv_get_str(sv_map_getz(m, "type"), NULL), "Resource");
    assert_int_equal(sv_get_int(sv_map_getz(m, "import_offset")), 0);
    static const char *const strings[] = {
        "resource_local_to_scene", "resource_name", "script", "label", "value", "next"};
    const sv_value *s = sv_map_getz(m, "strings");
    assert_int_equal(sv_len(s), 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(sv_get_str(sv_array_at(s, i), NULL), strings[i]);
    const sv_value *ext = sv_map_getz(&t, "external");
    assert_int_equal(sv_len(ext), 1);
    assert_string_equal(sv_get_str(sv_map_getz(sv_array_at(ext, 0), "type"), NULL), "Script");
    assert_string_equal(sv_get_str(sv_map_getz(sv_array_at(ext, 0), "path"), NULL),
                        "res://leaf.gd");
    const sv_value *inl = sv_map_getz(&t, "internal");
    assert_int_equal(sv_len(inl), 2);
    const sv_value *child = sv_array_at(inl, 0), *main = sv_array_at(inl, 1);
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(child), "path"), NULL), "local://1");
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(main), "path"), NULL), "local://2");
    assert_string_equal(sv_get_str(sv_object_class(child), NULL), "Resource");
    assert_int_equal(sv_len(child), 4);
    const sv_value *script = sv_map_getz(child, "script");
    assert_int_equal(sv_tag_of(script), SV_TAG_EXT_RESOURCE);
    assert_int_equal(sv_get_int(script), 0);
    assert_string_equal(sv_get_str(sv_map_getz(child, "label"), NULL), "child");
    assert_int_equal(sv_get_int(sv_map_getz(child, "value")), -1);
    assert_int_equal(sv_kind_of(sv_map_getz(child, "next")), SV_NULL);
    const sv_value *next = sv_map_getz(main, "next");
    assert_int_equal(sv_tag_of(next), SV_TAG_SUB_RESOURCE);
    assert_int_equal(sv_get_int(next), 1);
    assert_string_equal(sv_get_str(sv_map_getz(main, "label"), NULL), "sample");
    assert_int_equal(sv_get_int(sv_map_getz(main, "value")), 7);
    /* written back: the same 427 bytes, with the body offsets the spec
     * gives (0x110, 0x157) at their places in the internal table */
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&t, &out, &err), SV_OK);
    assert_int_equal(out.len, 427);
    assert_memory_equal(out.data, data, 427);
    assert_int_equal(out.data[0xf2] | out.data[0xf3] << 8, 0x110);
    assert_int_equal(out.data[0x108] | out.data[0x109] << 8, 0x157);
    assert_memory_equal(out.data + 0x1a7, "RSRC", 4);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(data);
}

/* The 4.6 sample: RSCC (zstd) around format 6, flags 3, uid -1. */
static void test_sample4(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *data = tg_read_file(SAMPLES "/sample4_curve_compressed.res", &n);
    if (!data) {
        skip();
        return;
    }
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode(doc, data, n, &t, &err), SV_OK);
    const sv_value *m = sv_meta(&t);
    assert_string_equal(sv_get_str(sv_map_getz(m, "container"), NULL), "RSCC");
    assert_int_equal(sv_get_int(sv_map_getz(m, "ver_format")), 6);
    assert_int_equal(sv_get_int(sv_map_getz(m, "flags")), 3);
    assert_int_equal(sv_get_int(sv_map_getz(m, "uid")), -1);
    const sv_value *comp = sv_map_getz(m, "compression");
    assert_string_equal(sv_get_str(sv_map_getz(comp, "mode"), NULL), "zstd");
    assert_int_equal(sv_get_int(sv_map_getz(comp, "block_size")), 4096);
    const sv_value *inl = sv_map_getz(&t, "internal");
    assert_int_equal(sv_len(inl), 1);
    const sv_value *curve = sv_array_at(inl, 0);
    assert_string_equal(sv_get_str(sv_object_class(curve), NULL), "Curve");
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(curve), "path"), NULL),
                        "local://Curve_8kxxx");
    assert_int_equal(sv_get_int(sv_map_getz(curve, "point_count")), 2);
    assert_int_equal(sv_kind_of(sv_map_getz(curve, "script")), SV_NULL);
    const sv_value *pts = sv_map_getz(curve, "_data");
    assert_int_equal(sv_len(pts), 10);
    assert_int_equal(sv_tag_of(sv_array_at(pts, 0)), SV_TAG_VECTOR2);
    assert_true(sv_number_at(sv_array_at(pts, 0), 1) == 1.0);
    assert_true(sv_number_at(sv_array_at(pts, 5), 0) == 1.0);
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&t, &out, &err), SV_OK);
    assert_int_equal(out.len, n);
    assert_memory_equal(out.data, data, n);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(data);
}

/* ---- edits ---- */

static sv_value *main_resource(sv_value *t)
{
    sv_value *inl = sv_map_getz(t, "internal");
    return sv_array_at(inl, inl->len - 1);
}

/* leaf.res: value 1 -> 2 changes the one i32 and nothing else. */
static void test_edit_int_in_place(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *data = tg_read_file(V3_DIR "/leaf.res", &n);
    assert_non_null(data);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode(doc, data, n, &t, &err), SV_OK);
    sv_value *v = sv_map_getz(main_resource(&t), "value");
    assert_int_equal(sv_get_int(v), 1);
    *v = sv_int(2);
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&t, &out, &err), SV_OK);
    assert_int_equal(out.len, n);
    size_t diff = 0, at = 0;
    for (size_t i = 0; i < n; i++)
        if (out.data[i] != data[i]) {
            diff++;
            at = i;
        }
    assert_int_equal(diff, 1);
    assert_int_equal(data[at], 1);
    assert_int_equal(out.data[at], 2);
    assert_int_equal(data[at - 4], 3); /* type id INT */
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(data);
}

/* big_zstd.res (4 blocks of zstd 1.4.4, which Debian's zstd does not
 * reproduce): an edit of the last byte of the PackedByteArray, the main
 * resource's last property, leaves every block before the last two as the
 * engine compressed it, and the file reads back with the edit. */
static void test_edit_rscc_copies_unchanged_blocks(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *data = tg_read_file(V3_DIR "/big_zstd.res", &n);
    assert_non_null(data);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode(doc, data, n, &t, &err), SV_OK);
    uint32_t bc = sv__core_load_u32le(data + 12) / 4096 + 1;
    assert_true(bc >= 3);
    sv_value *bytes = sv_map_getz(main_resource(&t), "bytes");
    assert_int_equal(sv_len(bytes), 10000);
    sv_value edited = sv_bytes(doc, bytes->as.bytes, bytes->len);
    uint8_t *p = sv_value_buf(&edited);
    p[9999] ^= 0xFF;
    *bytes = edited;
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&t, &out, &err), SV_OK);
    size_t at = 16 + 4 * (size_t)bc;
    for (uint32_t i = 0; i + 2 < bc; i++) {
        uint32_t cs = sv__core_load_u32le(data + 16 + 4 * i);
        assert_int_equal(sv__core_load_u32le(out.data + 16 + 4 * i), cs);
        assert_memory_equal(data + at, out.data + at, cs);
        at += cs;
    }
    assert_memory_not_equal(out.data + 16, data + 16, 4 * (size_t)bc); /* something was redone */
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value t2;
    assert_int_equal(decode(doc2, out.data, out.len, &t2, &err), SV_OK);
    const sv_value *b2 = sv_map_getz(main_resource(&t2), "bytes");
    assert_int_equal(b2->as.bytes[9999], p[9999]);
    sv_doc_free(doc2);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(data);
}

/* ---- the block codecs against the engine's blocks ---- */

static void check_blocks(const char *file, int mode)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", V3_DIR, file);
    size_t n = 0;
    uint8_t *data = tg_read_file(path, &n);
    assert_non_null(data);
    assert_int_equal(sv__core_load_u32le(data + 4), (uint32_t)mode);
    uint32_t bs = sv__core_load_u32le(data + 8), total = sv__core_load_u32le(data + 12);
    uint32_t bc = total / bs + 1;
    size_t at = 16 + 4 * (size_t)bc;
    uint8_t *plain = malloc(bs > 16 ? bs : 16);
    for (uint32_t i = 0; i < bc; i++) {
        uint32_t cs = sv__core_load_u32le(data + 16 + 4 * i);
        size_t size = i + 1 < bc ? bs : total % bs, got = 0;
        const char *why = "";
        sv_buf z;
        sv_buf_init(&z, NULL);
        if (mode == 0) {
            size_t want = size < 16 ? 16 : size;
            assert_true(sv__compress_fastlz_decompress(data + at, cs, plain, want, &got));
            assert_int_equal(got, want);
            assert_true(sv__compress_fastlz1_compress(plain, want, &z));
        } else {
            sv_zlib_wrap w = mode == 1 ? SV_ZLIB_WRAPPED : SV_ZLIB_GZIP;
            assert_int_equal(
                sv__compress_zlib_inflate_into(data + at, cs, w, plain, size, NULL, &got, &why),
                SV_OK);
            assert_int_equal(got, size);
            assert_true(sv__compress_zlib_deflate(plain, size, -1, w, &z));
        }
        assert_int_equal(z.len, cs);
        assert_memory_equal(z.data, data + at, cs);
        sv_buf_free(&z);
        at += cs;
    }
    free(plain);
    free(data);
}

static void test_fastlz_blocks_are_the_engines(void **state)
{
    (void)state;
    check_blocks("big_fastlz.res", 0);
    check_blocks("all_types_fastlz.res", 0);
}

static void test_deflate_gzip_blocks_are_the_engines(void **state)
{
    (void)state;
    check_blocks("big_deflate.res", 1);
    check_blocks("big_gzip.res", 3);
    check_blocks("all_types_gzip.res", 3);
}

/* ---- 4.x header forms, built by hand from the spec's tables ---- */

typedef struct hb {
    uint8_t b[2048];
    size_t n;
} hb;

static void hb_u32(hb *h, uint32_t v)
{
    for (int i = 0; i < 4; i++) h->b[h->n++] = (uint8_t)(v >> (8 * i));
}
static void hb_u64(hb *h, uint64_t v)
{
    hb_u32(h, (uint32_t)v);
    hb_u32(h, (uint32_t)(v >> 32));
}
static void hb_f32(hb *h, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    hb_u32(h, u);
}
static void hb_f64(hb *h, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    hb_u64(h, u);
}
static void hb_str(hb *h, const char *s)
{
    size_t n = strlen(s) + 1;
    hb_u32(h, (uint32_t)n);
    memcpy(h->b + h->n, s, n);
    h->n += n;
}

/* A format-6 file as Godot 4.x writes one (spec §2.1, §2.3, §2.4, §4.1,
 * §4.9): flags NAMED_SCENE_IDS | UIDS | HAS_SCRIPT_CLASS (| REAL_T_IS_DOUBLE
 * when real64), a uid, the script class, one external resource with its
 * uid, a sub-resource and the main resource referring to it by its index
 * in the internal table, and 4.x values. */
static size_t build_v4(hb *h, bool real64)
{
    h->n = 0;
    memcpy(h->b, "RSRC", 4);
    h->n = 4;
    hb_u32(h, 0);
    hb_u32(h, 0);
    hb_u32(h, 4);
    hb_u32(h, 6);
    hb_u32(h, 6);
    hb_str(h, "Resource");
    hb_u64(h, 0);
    hb_u32(h, 1 | 2 | 8 | (real64 ? 4 : 0));
    hb_u64(h, UINT64_C(0x1234567890abcdef));
    hb_str(h, "GresAllTypes");
    for (int i = 0; i < 11; i++) hb_u32(h, 0);
    hb_u32(h, 3); /* strings */
    hb_str(h, "script");
    hb_str(h, "name");
    hb_str(h, "values");
    hb_u32(h, 1); /* externals */
    hb_str(h, "Script");
    hb_str(h, "res://all.gd");
    hb_u64(h, UINT64_MAX); /* uid -1: none */
    hb_u32(h, 2);          /* internals */
    hb_str(h, "local://Resource_7vuq0");
    size_t off0 = h->n;
    hb_u64(h, 0);
    hb_str(h, "local://Resource_main1");
    size_t off1 = h->n;
    hb_u64(h, 0);
    size_t body0 = h->n;
    hb_str(h, "Resource");
    hb_u32(h, 2);
    hb_u32(h, 1); /* name = StringName "sub" */
    hb_u32(h, 44);
    hb_str(h, "sub");
    hb_u32(h, 0); /* script = NIL (4.x always writes it) */
    hb_u32(h, 1);
    size_t body1 = h->n;
    hb_str(h, "Resource");
    hb_u32(h, 2);
    hb_u32(h, 0); /* script = external 0 */
    hb_u32(h, 24);
    hb_u32(h, 3);
    hb_u32(h, 0);
    hb_u32(h, 2); /* values = [...] */
    hb_u32(h, 30);
    hb_u32(h, 7);
    hb_u32(h, 24); /* the sub-resource: internal table index 0 */
    hb_u32(h, 2);
    hb_u32(h, 0);
    hb_u32(h, 45); /* Vector2i(3, -4) */
    hb_u32(h, 3);
    hb_u32(h, (uint32_t)-4);
    hb_u32(h, 10); /* Vector2(0.5, -2): real */
    if (real64) {
        hb_f64(h, 0.5);
        hb_f64(h, -2.0);
    } else {
        hb_f32(h, 0.5f);
        hb_f32(h, -2.0f);
    }
    hb_u32(h, 20); /* Color: f32 always */
    hb_f32(h, 1.0f);
    hb_f32(h, 0.5f);
    hb_f32(h, 0.25f);
    hb_f32(h, 1.0f);
    hb_u32(h, 48); /* PackedInt64Array [2^40] */
    hb_u32(h, 1);
    hb_u64(h, UINT64_C(1) << 40);
    hb_u32(h, 53); /* PackedVector4Array, one item */
    hb_u32(h, 1);
    for (int i = 1; i <= 4; i++) {
        if (real64)
            hb_f64(h, i);
        else
            hb_f32(h, (float)i);
    }
    hb_u32(h, 42); /* Callable: no payload */
    memcpy(h->b + h->n, "RSRC", 4);
    h->n += 4;
    for (int i = 0; i < 8; i++) {
        h->b[off0 + i] = (uint8_t)(body0 >> (8 * i));
        h->b[off1 + i] = (uint8_t)(body1 >> (8 * i));
    }
    return h->n;
}

static void test_v4_header_forms(void **state)
{
    (void)state;
    for (int real64 = 0; real64 <= 1; real64++) {
        hb h;
        size_t n = build_v4(&h, real64);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value t;
        sv_error err;
        assert_int_equal(decode(doc, h.b, n, &t, &err), SV_OK);
        const sv_value *m = sv_meta(&t);
        assert_int_equal(sv_get_int(sv_map_getz(m, "flags")), 11 + (real64 ? 4 : 0));
        assert_true((uint64_t)sv_get_int(sv_map_getz(m, "uid")) == UINT64_C(0x1234567890abcdef));
        assert_string_equal(sv_get_str(sv_map_getz(m, "script_class"), NULL), "GresAllTypes");
        const sv_value *x = sv_array_at(sv_map_getz(&t, "external"), 0);
        assert_int_equal(sv_get_int(sv_map_getz(x, "uid")), -1);
        const sv_value *inl = sv_map_getz(&t, "internal");
        const sv_value *sub = sv_array_at(inl, 0), *main = sv_array_at(inl, 1);
        assert_string_equal(sv_get_str(sv_map_getz(sv_meta(sub), "path"), NULL),
                            "local://Resource_7vuq0");
        const sv_value *name = sv_map_getz(sub, "name");
        assert_int_equal(sv_tag_of(name), SV_TAG_STRING_NAME);
        assert_string_equal(sv_get_str(name, NULL), "sub");
        assert_int_equal(sv_kind_of(sv_map_getz(sub, "script")), SV_NULL);
        const sv_value *vals = sv_map_getz(main, "values");
        assert_int_equal(sv_len(vals), 7);
        assert_int_equal(sv_tag_of(sv_array_at(vals, 0)), SV_TAG_SUB_RESOURCE);
        assert_int_equal(sv_get_int(sv_array_at(vals, 0)), 0);
        const sv_value *v2i = sv_array_at(vals, 1), *v2 = sv_array_at(vals, 2);
        assert_int_equal(sv_tag_of(v2i), SV_TAG_VECTOR2I);
        assert_true(sv_number_at(v2i, 1) == -4.0);
        assert_int_equal(sv_elem_of(v2), real64 ? SV_ELEM_F64 : SV_ELEM_F32);
        assert_true(sv_number_at(v2, 0) == 0.5 && sv_number_at(v2, 1) == -2.0);
        assert_int_equal(sv_elem_of(sv_array_at(vals, 3)), SV_ELEM_F32); /* Color */
        const sv_value *p64 = sv_array_at(vals, 4);
        assert_int_equal(sv_elem_of(p64), SV_ELEM_I64);
        assert_true(((const int64_t *)sv_numbers(p64))[0] == INT64_C(1) << 40);
        const sv_value *p4 = sv_array_at(vals, 5);
        assert_int_equal(sv_tag_of(p4), SV_TAG_PACKED_VECTOR4);
        assert_int_equal(sv_elem_of(p4), real64 ? SV_ELEM_F64 : SV_ELEM_F32);
        assert_true(sv_number_at(p4, 3) == 4.0);
        assert_int_equal(sv_tag_of(sv_array_at(vals, 6)), SV_TAG_CALLABLE);
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(encode(&t, &out, &err), SV_OK);
        assert_int_equal(out.len, n);
        assert_memory_equal(out.data, h.b, n);
        /* and through typed JSON */
        char *json = tg_json(&t);
        sv_value back;
        assert_int_equal(sv_json_decode(doc, json, strlen(json), NULL, &back, &err), SV_OK);
        out.len = 0;
        assert_int_equal(encode(&back, &out, &err), SV_OK);
        assert_int_equal(out.len, n);
        assert_memory_equal(out.data, h.b, n);
        free(json);
        sv_buf_free(&out);
        sv_doc_free(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v3_vectors),
        cmocka_unit_test(test_v4_vectors),
        cmocka_unit_test(test_brotli_vectors),
        cmocka_unit_test(test_spec_worked_example),
        cmocka_unit_test(test_sample4),
        cmocka_unit_test(test_edit_int_in_place),
        cmocka_unit_test(test_edit_rscc_copies_unchanged_blocks),
        cmocka_unit_test(test_fastlz_blocks_are_the_engines),
        cmocka_unit_test(test_deflate_gzip_blocks_are_the_engines),
        cmocka_unit_test(test_v4_header_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
