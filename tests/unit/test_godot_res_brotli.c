/* godot-res: RSCC with Brotli blocks (FileAccessCompressed mode 4, which
 * Godot 4 reads and never writes).
 *
 * The vectors (tests/vectors/godot-res/brotli4/, made by make_brotli.py
 * there from Godot 4.6's own all_types.res; res4_brotli.sh has Godot 4.6
 * load them) hold that resource in one 4096-byte block and in three
 * 1024-byte blocks compressed at another quality than serval's:
 *  - each decodes to the tree of the uncompressed resource (the same
 *    resources and header, written back as RSRC it gives all_types.res),
 *    and encodes back to its own bytes, directly and through typed JSON;
 *  - an edit recompresses only the block it changes: the others keep the
 *    generator's bytes, and the file reads back with the edit;
 *  - hostile blocks (a bomb past the block's size, a truncated stream,
 *    garbage, a total past the decompressed-size limit) fail with the
 *    offset of the block or field.
 * A build without libbrotli refuses mode 4 at offset 4 instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compress/compress.h"
#include "core/byteio.h"
#include "serval/config.h"
#include "serval/serval.h"
#include "test_godot_util.h"

#define DIR "vectors/godot-res/brotli4"
#define ENGINE "vectors/godot-res/v4/all_types_compressed.res" /* zstd blocks */

static sv_status decode_with(sv_doc *doc, const uint8_t *p, size_t n, const sv_options *o,
                             sv_value *out, sv_error *err)
{
    sv_error_clear(err);
    return sv_format_find("godot-res")->decode(doc, p, n, o, out, err);
}

/* Reads the file at path into *data (the caller frees it) and decodes it. */
static sv_status decode_file(sv_doc *doc, const char *path, uint8_t **data, size_t *n,
                             sv_value *out, sv_error *err)
{
    *data = tg_read_file(path, n);
    assert_non_null(*data);
    return decode_with(doc, *data, *n, NULL, out, err);
}

#if SERVAL_HAVE_BROTLI

static sv_status encode(const sv_value *v, sv_buf *out, sv_error *err)
{
    sv_error_clear(err);
    return sv_format_find("godot-res")->encode(v, NULL, out, err);
}

/* meta without its container facts ("container", "compression") */
static sv_value header_only(sv_doc *doc, const sv_value *meta)
{
    sv_value m = sv_map(doc, 0);
    for (uint32_t i = 0; i < sv_len(meta); i++) {
        const sv_value *k = sv_key_at(meta, i);
        if ((k->len == 9 && !memcmp(k->as.str, "container", 9)) ||
            (k->len == 11 && !memcmp(k->as.str, "compression", 11)))
            continue;
        assert_int_equal(
            sv_map_append(doc, &m, sv_copy(doc, k), sv_copy(doc, sv_val_at(meta, i))), SV_OK);
    }
    return m;
}

static void check_vector(const char *file, int64_t block_size, uint32_t blocks)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", DIR, file);
    size_t n = 0, pn = 0;
    uint8_t *data, *plain;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value b, p;
    sv_error err;
    assert_int_equal(decode_file(doc, path, &data, &n, &b, &err), SV_OK);
    assert_int_equal(decode_file(doc, ENGINE, &plain, &pn, &p, &err), SV_OK);
    assert_int_equal(sv__core_load_u32le(data + 4), 4); /* Brotli */

    const sv_value *comp = sv_map_getz(sv_meta(&b), "compression");
    assert_string_equal(sv_get_str(sv_map_getz(comp, "mode"), NULL), "brotli");
    assert_int_equal(sv_get_int(sv_map_getz(comp, "block_size")), block_size);
    assert_int_equal(sv_len(sv_map_getz(comp, "blocks")), blocks);
    assert_string_equal(sv_get_str(sv_map_getz(sv_meta(&b), "container"), NULL), "RSCC");

    /* back to its own bytes, directly and through typed JSON */
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&b, &out, &err), SV_OK);
    assert_int_equal(out.len, n);
    assert_memory_equal(out.data, data, n);
    sv_buf_free(&out);
    char *json = tg_json(&b);
    sv_value back;
    assert_int_equal(sv_json_decode(doc, json, strlen(json), NULL, &back, &err), SV_OK);
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&back, &out, &err), SV_OK);
    assert_int_equal(out.len, n);
    assert_memory_equal(out.data, data, n);
    sv_buf_free(&out);
    free(json);

    /* the engine's zstd file's tree: same header, same resources */
    sv_value bh = header_only(doc, sv_meta(&b)), ph = header_only(doc, sv_meta(&p));
    assert_true(sv_equal(&bh, &ph));
    assert_int_equal(sv_meta_set(doc, &b, ph), SV_OK);
    assert_int_equal(sv_meta_set(doc, &p, ph), SV_OK);
    assert_true(sv_equal(&b, &p));
    sv_doc_free(doc);
    free(data);
    free(plain);
}

static void test_vectors_decode_to_the_engines_tree(void **state)
{
    (void)state;
    check_vector("all_types_brotli.res", 4096, 1);
    check_vector("all_types_brotli_1k.res", 1024, 3);
}

/* The main resource's "bytes" (a PackedByteArray near the end of the
 * stream, in the last 1024-byte block) edited in place: block 2 is
 * compressed again (by serval, at quality 11: other bytes than the
 * generator's quality 5), blocks 0 and 1 are copied. */
static void test_edit_recompresses_only_its_block(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *data;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode_file(doc, DIR "/all_types_brotli_1k.res", &data, &n, &t, &err), SV_OK);
    sv_value *internal = sv_map_getz(&t, "internal");
    sv_value *main_res = (sv_value *)sv_array_at(internal, sv_len(internal) - 1);
    sv_value *bytes = sv_map_getz(main_res, "bytes");
    assert_int_equal(sv_len(bytes), 5);
    sv_value edited = sv_bytes(doc, bytes->as.bytes, bytes->len);
    uint8_t *p = sv_value_buf(&edited);
    p[4] = 0x99;
    *bytes = edited;
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(encode(&t, &out, &err), SV_OK);
    assert_int_equal(sv__core_load_u32le(out.data + 12), sv__core_load_u32le(data + 12));
    size_t at = 16 + 3 * 4;
    for (int i = 0; i < 2; i++) {
        uint32_t cs = sv__core_load_u32le(data + 16 + 4 * i);
        assert_int_equal(sv__core_load_u32le(out.data + 16 + 4 * i), cs);
        assert_memory_equal(out.data + at, data + at, cs);
        at += cs;
    }
    uint32_t old2 = sv__core_load_u32le(data + 24), new2 = sv__core_load_u32le(out.data + 24);
    assert_true(old2 != new2 || memcmp(out.data + at, data + at, old2) != 0);
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value t2;
    assert_int_equal(decode_with(doc2, out.data, out.len, NULL, &t2, &err), SV_OK);
    const sv_value *in2 = sv_map_getz(&t2, "internal");
    const sv_value *b2 = sv_map_getz(sv_array_at(in2, sv_len(in2) - 1), "bytes");
    assert_int_equal(sv_len(b2), 5);
    assert_memory_equal(b2->as.bytes, "\x01\x02\x03\x04\x99", 5);
    /* and the new file writes back to itself */
    sv_buf again;
    sv_buf_init(&again, NULL);
    assert_int_equal(encode(&t2, &again, &err), SV_OK);
    assert_int_equal(again.len, out.len);
    assert_memory_equal(again.data, out.data, out.len);
    sv_buf_free(&again);
    sv_doc_free(doc2);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(data);
}

/* An RSCC file of mode 4 around the given blocks (total: what the header
 * claims). */
static size_t make_rscc(uint8_t *buf, uint32_t block_size, uint32_t total, const uint8_t *const *b,
                        const size_t *len, uint32_t count)
{
    memcpy(buf, "RSCC", 4);
    sv__core_store_u32le(buf + 4, 4);
    sv__core_store_u32le(buf + 8, block_size);
    sv__core_store_u32le(buf + 12, total);
    size_t at = 16 + 4 * (size_t)count;
    for (uint32_t i = 0; i < count; i++) {
        sv__core_store_u32le(buf + 16 + 4 * i, (uint32_t)len[i]);
        memcpy(buf + at, b[i], len[i]);
        at += len[i];
    }
    memcpy(buf + at, "RSCC", 4);
    return at + 4;
}

static void expect_error(const uint8_t *p, size_t n, const sv_options *o, sv_status want,
                         uint64_t offset, const char *text)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode_with(doc, p, n, o, &t, &err), want);
    assert_int_equal(err.byte_offset, offset);
    if (!strstr(err.message, text)) fail_msg("message \"%s\" lacks \"%s\"", err.message, text);
    assert_string_equal(err.format, "godot-res");
    sv_doc_free(doc);
}

static void test_hostile_blocks(void **state)
{
    (void)state;
    /* a bomb: 64 MiB of zeros in a Brotli stream of a few bytes, in a file
     * whose header says 100 bytes; stops at the block's 100 bytes */
    size_t big = 64u << 20;
    uint8_t *zeros = calloc(big, 1);
    assert_non_null(zeros);
    sv_buf bomb;
    sv_buf_init(&bomb, NULL);
    assert_true(sv__compress_brotli_compress(zeros, big, 5, 22, &bomb));
    free(zeros);
    assert_true(bomb.len < 1024);
    uint8_t file[4096];
    const uint8_t *blocks[1] = {bomb.data};
    size_t lens[1] = {bomb.len};
    size_t n = make_rscc(file, 4096, 100, blocks, lens, 1);
    expect_error(file, n, NULL, SV_ERR_SYNTAX, 20, "more bytes than the block holds");
    sv_buf_free(&bomb);

    /* the real block, cut short by 5 bytes (the table says so too) */
    size_t vn = 0;
    uint8_t *v = tg_read_file(DIR "/all_types_brotli.res", &vn);
    assert_non_null(v);
    uint32_t total = sv__core_load_u32le(v + 12), cs = sv__core_load_u32le(v + 16);
    blocks[0] = v + 20;
    lens[0] = cs - 5;
    uint8_t *cut = malloc(vn);
    n = make_rscc(cut, 4096, total, blocks, lens, 1);
    expect_error(cut, n, NULL, SV_ERR_SYNTAX, 20, "ends too early");

    /* garbage where the stream goes */
    uint8_t junk[64];
    memset(junk, 0xFF, sizeof junk);
    blocks[0] = junk;
    lens[0] = sizeof junk;
    n = make_rscc(cut, 4096, total, blocks, lens, 1);
    expect_error(cut, n, NULL, SV_ERR_SYNTAX, 20, "RSCC brotli block 0");

    /* the real file under a decompressed-size limit smaller than its total */
    sv_options o;
    sv_options_init(&o);
    o.limits.max_decompressed = 1000;
    expect_error(v, vn, &o, SV_ERR_LIMIT, 12, "decompressed-size limit");
    free(cut);
    free(v);
}

#else /* no libbrotli */

static void test_refused_without_libbrotli(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *data;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value t;
    sv_error err;
    assert_int_equal(decode_file(doc, DIR "/all_types_brotli.res", &data, &n, &t, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(err.byte_offset, 4);
    assert_non_null(strstr(err.message, "libbrotli"));
    sv_doc_free(doc);
    free(data);
}

#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#if SERVAL_HAVE_BROTLI
        cmocka_unit_test(test_vectors_decode_to_the_engines_tree),
        cmocka_unit_test(test_edit_recompresses_only_its_block),
        cmocka_unit_test(test_hostile_blocks),
#else
        cmocka_unit_test(test_refused_without_libbrotli),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
