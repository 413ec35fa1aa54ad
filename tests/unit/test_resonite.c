/* Resonite data trees: the three Resonite-written .brson samples decode and
 * encode back to the same bytes (spec resonite A.8); .7zbson and .lz4bson
 * made from them by serval's encoder have the layouts of spec A.3.2 and
 * A.3.3 and decode back to the same tree; the header cases of A.2.1 and the
 * legacy files of A.2.2. The samples are read from ../../shared/samples;
 * when absent those tests are skipped, the vectors of
 * tests/vectors/resonite/ still run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helper_resonite.h"
#include "serval/bson.h"
#include "serval/resonite.h"
#include "serval/serval.h"

/* spec A.8: the samples, their BSON sizes and engine versions */
static const struct {
    const char *file;
    size_t bson;
    const char *version;
    size_t types; /* 87 for ma-coresys: spec A.8 */
} samples[] = {
    {BRSON_DIR "avatar-root-identification.7c364dcd.brson", 26589, "2026.6.12.557", 0},
    {BRSON_DIR "loading-standin.6ca27cd0.brson", 68443, "2025.6.17.855", 0},
    {BRSON_DIR "ma-coresys.27422500.brson", 284363, "2025.6.17.855", 87},
};

static bool samples_present(void)
{
    size_t n;
    uint8_t *b = rs_read_file(samples[0].file, &n);
    free(b);
    if (!b) printf("skipped: %s not found (the shared samples are absent)\n", samples[0].file);
    return b != NULL;
}

static sv_status decode(sv_doc *doc, const uint8_t *b, size_t n, const sv_resonite_opts *o,
                        sv_value *out, sv_error *err)
{
    sv_error_clear(err);
    sv_status st = sv_resonite_decode(doc, b, n, o, out, err);
    if (st != SV_OK)
        print_message("decode: %s (byte %llu)\n", err->message,
                      (unsigned long long)err->byte_offset);
    return st;
}

static void expect_meta(const sv_value *root, const char *framing, const char *compression)
{
    assert_int_equal(sv_kind_of(root), SV_OBJECT);
    assert_string_equal(sv_get_str(sv_object_class(root), NULL), "resonite.DataTree");
    const sv_value *m = sv_meta(root);
    assert_string_equal(sv_get_str(sv_map_getz(m, "framing"), NULL), framing);
    assert_string_equal(sv_get_str(sv_map_getz(m, "compression"), NULL), compression);
}

/* Same fields (keys, order, values), whatever the container meta says. */
static void expect_same_fields(const sv_value *a, const sv_value *b)
{
    assert_int_equal(sv_len(a), sv_len(b));
    for (size_t i = 0; i < sv_len(a); i++) {
        assert_true(sv_equal(sv_key_at(a, i), sv_key_at(b, i)));
        assert_true(sv_equal(sv_val_at(a, i), sv_val_at(b, i)));
    }
}

static void test_samples_round_trip(void **state)
{
    (void)state;
    if (!samples_present()) skip();
    for (size_t i = 0; i < 3; i++) {
        size_t n;
        uint8_t *b = rs_read_file(samples[i].file, &n);
        assert_non_null(b);
        /* spec A.2.1: the 9 header bytes of every Resonite-written file */
        assert_memory_equal(b, "FrDT\0\0\0\0\x03", 9);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        sv_error err = {0};
        assert_int_equal(decode(doc, b, n, NULL, &root, &err), SV_OK);
        expect_meta(&root, "header", "brotli");
        assert_string_equal(sv_get_str(sv_map_getz(&root, "VersionNumber"), NULL),
                            samples[i].version);
        if (samples[i].types) assert_int_equal(sv_len(sv_map_getz(&root, "Types")), 87);
        /* spec A.6.1 key order */
        static const char *const keys[] = {"VersionNumber", "FeatureFlags", "Types",
                                           "TypeVersions",  "Object",       "Assets"};
        for (size_t k = 0; k < sv_len(&root); k++)
            assert_string_equal(sv_get_str(sv_key_at(&root, k), NULL), keys[k]);
        /* the BSON inside has the size spec A.8 gives */
        sv_buf bson;
        sv_buf_init(&bson, NULL);
        assert_int_equal(sv_resonite_unwrap(b, n, NULL, &bson, NULL, &err), SV_OK);
        assert_int_equal(bson.len, samples[i].bson);
        sv_buf_free(&bson);
        /* and back: the same bytes (BSON re-encode + Brotli q9/w16) */
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_resonite_encode(&root, NULL, &out, &err), SV_OK);
        assert_int_equal(out.len, n);
        assert_memory_equal(out.data, b, n);
        sv_buf_free(&out);
        sv_doc_free(doc);
        free(b);
    }
}

/* Encodes root with the given compression and framing. */
static sv_buf encode_as(const sv_value *root, sv_resonite_compression c, sv_resonite_framing f)
{
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.compression = c;
    o.framing = f;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err = {0};
    sv_error_clear(&err);
    assert_int_equal(sv_resonite_encode(root, &o, &out, &err), SV_OK);
    return out;
}

static uint64_t varint(const uint8_t **p)
{
    uint64_t v = 0;
    for (int s = 0;; s += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) return v;
    }
}

static void test_synthetic_lzma_lz4(void **state)
{
    (void)state;
    if (!samples_present()) skip();
    for (size_t i = 0; i < 3; i++) {
        size_t n;
        uint8_t *b = rs_read_file(samples[i].file, &n);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        sv_error err = {0};
        assert_int_equal(decode(doc, b, n, NULL, &root, &err), SV_OK);

        /* spec A.3.2: header ...02, props 5D 00 00 20 00, int64 usize =
         * the BSON size, int64 csize = the bytes that follow */
        sv_buf z = encode_as(&root, SV_RESONITE_LZMA, SV_RESONITE_FRAMING_HEADER);
        assert_memory_equal(z.data, "FrDT\0\0\0\0\x02\x5d\x00\x00\x20\x00", 14);
        uint64_t usize, csize;
        memcpy(&usize, z.data + 14, 8);
        memcpy(&csize, z.data + 22, 8);
        assert_int_equal(usize, samples[i].bson);
        assert_int_equal(csize, z.len - 30);
        sv_doc *d2 = sv_doc_new(NULL);
        sv_value back;
        assert_int_equal(decode(d2, z.data, z.len, NULL, &back, &err), SV_OK);
        expect_meta(&back, "header", "lzma");
        expect_same_fields(&root, &back);
        sv_doc_free(d2);
        sv_buf_free(&z);

        /* spec A.3.3: header ...01, one chunk (< 1 MiB): flags 03, the BSON
         * size, the compressed size, and nothing after the chunk */
        z = encode_as(&root, SV_RESONITE_LZ4, SV_RESONITE_FRAMING_HEADER);
        assert_memory_equal(z.data, "FrDT\0\0\0\0\x01\x03", 10);
        const uint8_t *p = z.data + 10;
        assert_int_equal(varint(&p), samples[i].bson);
        uint64_t stored = varint(&p);
        assert_int_equal((size_t)(p - z.data) + stored, z.len);
        if (i == 2) assert_memory_equal(z.data + 9, "\x03\xcb\xad\x11", 4); /* spec A.3.3 */
        d2 = sv_doc_new(NULL);
        assert_int_equal(decode(d2, z.data, z.len, NULL, &back, &err), SV_OK);
        expect_meta(&back, "header", "lz4");
        expect_same_fields(&root, &back);
        sv_doc_free(d2);
        sv_buf_free(&z);
        sv_doc_free(doc);
        free(b);
    }
}

/* A tree over 2 MiB of BSON (the largest sample's Object children repeated)
 * is written as 1 MiB chunks plus the rest, each flags 03. */
static void test_lz4_chunks(void **state)
{
    (void)state;
    if (!samples_present()) skip();
    size_t n;
    uint8_t *b = rs_read_file(samples[2].file, &n);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err = {0};
    assert_int_equal(decode(doc, b, n, NULL, &root, &err), SV_OK);
    sv_value *obj = sv_map_getz(&root, "Object");
    sv_value *kids = sv_map_getz(obj, "Children");
    sv_value more = sv_array(doc, 0);
    for (int r = 0; r < 12; r++)
        for (size_t k = 0; k < sv_len(kids); k++)
            assert_int_equal(sv_array_append(doc, &more, *sv_array_at(kids, k)), SV_OK);
    *kids = more;
    sv_buf bson;
    sv_buf_init(&bson, NULL);
    sv_bson_opts bo;
    sv_bson_opts_init(&bo);
    bo.resonite_urls = true;
    assert_int_equal(sv_bson_encode(&root, &bo, &bson, &err), SV_OK);
    assert_true(bson.len > 2u * 1024 * 1024);
    sv_buf z = encode_as(&root, SV_RESONITE_LZ4, SV_RESONITE_FRAMING_LEGACY);
    const uint8_t *p = z.data, *end = z.data + z.len;
    size_t chunks = 0, total = 0;
    while (p < end) {
        uint64_t flags = varint(&p), orig = varint(&p), stored = varint(&p);
        assert_int_equal(flags, 3);
        size_t want = bson.len - total < 1048576 ? bson.len - total : 1048576;
        assert_int_equal(orig, want);
        p += stored;
        total += orig;
        chunks++;
    }
    assert_true(p == end);
    assert_int_equal(total, bson.len);
    assert_int_equal(chunks, (bson.len + 1048575) / 1048576);
    sv_doc *d2 = sv_doc_new(NULL);
    sv_value back;
    assert_int_equal(decode(d2, z.data, z.len, NULL, &back, &err), SV_OK); /* sniffed */
    expect_meta(&back, "legacy", "lz4");
    expect_same_fields(&root, &back);
    sv_doc_free(d2);
    sv_buf_free(&z);
    sv_buf_free(&bson);
    sv_doc_free(doc);
    free(b);
}

/* A chunk that LZ4 cannot shrink is stored raw with flags 02 (spec A.3.3). */
static void test_lz4_stored_chunk(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    uint8_t noise[4000];
    uint64_t x = 7;
    for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        noise[i] = (uint8_t)(x >> 24);
    }
    sv_value root = sv_map(doc, 0);
    sv_map_append_str(doc, &root, "b", sv_bytes(doc, noise, sizeof noise));
    sv_buf z = encode_as(&root, SV_RESONITE_LZ4, SV_RESONITE_FRAMING_HEADER);
    /* BSON: 4 + "\x05b\0" + int32 + subtype + 4000 + 00 = 4013 bytes =
     * varint AD 1F */
    assert_memory_equal(z.data,
                        "FrDT\0\0\0\0\x01\x02\xad\x1f\xad\x0f\x00\x00\x05"
                        "b",
                        18);
    assert_int_equal(z.len, 9 + 3 + 4013);
    assert_memory_equal(z.data + z.len - 4001, noise, 4000);
    sv_value back;
    sv_error err = {0};
    sv_doc *d2 = sv_doc_new(NULL);
    assert_int_equal(decode(d2, z.data, z.len, NULL, &back, &err), SV_OK);
    expect_same_fields(&root, &back);
    sv_doc_free(d2);
    sv_buf_free(&z);
    sv_doc_free(doc);
}

/* The vectors of tests/vectors/resonite/ (made from tiny.json, checked when
 * made against xz and Node's zlib; README there): all six containers hold
 * the same tree, and each comes back byte for byte. */
static void test_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *file, *framing, *compression;
    } v[] = {
        {"tiny.brson", "header", "brotli"},       {"tiny.7zbson", "header", "lzma"},
        {"tiny.lz4bson", "header", "lz4"},        {"tiny-legacy.brson", "legacy", "brotli"},
        {"tiny-legacy.7zbson", "legacy", "lzma"}, {"tiny-legacy.lz4bson", "legacy", "lz4"},
    };
    sv_doc *first = NULL;
    sv_value first_root;
    for (size_t i = 0; i < 6; i++) {
        char path[128];
        snprintf(path, sizeof path, "vectors/resonite/%s", v[i].file);
        size_t n;
        uint8_t *b = rs_read_file(path, &n);
        assert_non_null(b);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        sv_error err = {0};
        assert_int_equal(decode(doc, b, n, NULL, &root, &err), SV_OK);
        expect_meta(&root, v[i].framing, v[i].compression);
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_resonite_encode(&root, NULL, &out, &err), SV_OK);
        assert_int_equal(out.len, n);
        assert_memory_equal(out.data, b, n);
        sv_buf_free(&out);
        /* the Resonite conventions of tiny.json (spec A.5) */
        const sv_value *url = sv_map_getz(
            sv_map_getz(sv_map_getz(sv_array_at(sv_map_getz(&root, "Assets"), 0), "Data"), "URL"),
            "Data");
        assert_int_equal(sv_tag_of(url), SV_TAG_URL);
        assert_string_equal(
            sv_get_str(url, NULL),
            "packdb:///30a0bc21f298c2e75427245468405849b6c7ea67eb9ced14ecbc5dc1ef3eabb3");
        if (first) {
            expect_same_fields(&first_root, &root);
            sv_doc_free(doc);
        } else {
            first = doc;
            first_root = root;
        }
        free(b);
    }
    sv_doc_free(first);
}

static sv_status decode_bytes(const char *bytes, size_t n, const sv_resonite_opts *o, sv_error *err)
{
    uint8_t *b = rs_copy(bytes, n);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error_clear(err);
    sv_status st = sv_resonite_decode(doc, b, n, o, &v, err);
    sv_doc_free(doc);
    free(b);
    return st;
}

/* spec A.2.1 and A.8's suggested cases */
static void test_headers(void **state)
{
    (void)state;
    size_t n;
    uint8_t *tiny = rs_read_file("vectors/resonite/tiny.brson", &n);
    assert_non_null(tiny);
    uint8_t *b = malloc(n + 1);
    sv_error err = {0};
    /* an overlong varint compression 83 00 (= 3) is accepted */
    memcpy(b, "FrDT\0\0\0\0\x83\x00", 10);
    memcpy(b + 10, tiny + 9, n - 9);
    assert_int_equal(decode_bytes((char *)b, n + 1, NULL, &err), SV_OK);
    /* version 1 and -1 (C# accepts negatives; serval only 0) */
    memcpy(b, tiny, n);
    b[4] = 1;
    assert_int_equal(decode_bytes((char *)b, n, NULL, &err), SV_ERR_UNSUPPORTED);
    assert_int_equal(err.byte_offset, 4);
    memset(b + 4, 0xff, 4);
    assert_int_equal(decode_bytes((char *)b, n, NULL, &err), SV_ERR_UNSUPPORTED);
    /* compression 0 refused as Resonite does; 4 unknown */
    memcpy(b, tiny, n);
    b[8] = 0;
    assert_int_equal(decode_bytes((char *)b, n, NULL, &err), SV_ERR_UNSUPPORTED);
    assert_int_equal(err.byte_offset, 8);
    b[8] = 4;
    assert_int_equal(decode_bytes((char *)b, n, NULL, &err), SV_ERR_UNSUPPORTED);
    /* the expected compression (the extension, in Resonite) must match */
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.compression = SV_RESONITE_LZMA;
    assert_int_equal(decode_bytes((char *)tiny, n, &o, &err), SV_ERR_SYNTAX);
    assert_non_null(strstr(err.message, "expected lzma"));
    /* truncated headers */
    assert_int_equal(decode_bytes("FrDT\0\0", 6, NULL, &err), SV_ERR_TRUNCATED);
    assert_int_equal(decode_bytes("FrDT\0\0\0\0", 8, NULL, &err), SV_ERR_TRUNCATED);
    assert_int_equal(decode_bytes("FrDT\0\0\0\0\x83", 9, NULL, &err), SV_ERR_TRUNCATED);
    assert_int_equal(decode_bytes("FrDT\0\0\0\0\x03", 9, NULL, &err), SV_ERR_TRUNCATED);
    /* nothing, or bytes that are no payload: a clear refusal */
    assert_int_equal(decode_bytes("", 0, NULL, &err), SV_ERR_SYNTAX);
    assert_non_null(strstr(err.message, "container="));
    static const char zeros[100] = {0}; /* LoadAuto on 100 zero bytes: null (spec A.7) */
    assert_int_equal(decode_bytes(zeros, sizeof zeros, NULL, &err), SV_ERR_SYNTAX);
    free(b);
    free(tiny);
}

/* Legacy payloads decoded with the compression named (the extension's
 * role, -O container=), and the header-less BSON payload of a wrong kind. */
static void test_legacy_named(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = rs_read_file("vectors/resonite/tiny-legacy.7zbson", &n);
    sv_resonite_opts o;
    sv_resonite_opts_init(&o);
    o.compression = SV_RESONITE_LZMA;
    sv_error err = {0};
    assert_int_equal(decode_bytes((char *)b, n, &o, &err), SV_OK);
    o.compression = SV_RESONITE_BROTLI; /* the wrong decoder: an error, not a crash */
    assert_int_equal(decode_bytes((char *)b, n, &o, &err), SV_ERR_SYNTAX);
    o.compression = SV_RESONITE_LZ4;
    assert_true(decode_bytes((char *)b, n, &o, &err) != SV_OK);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_round_trip),
        cmocka_unit_test(test_synthetic_lzma_lz4),
        cmocka_unit_test(test_lz4_chunks),
        cmocka_unit_test(test_lz4_stored_chunk),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_headers),
        cmocka_unit_test(test_legacy_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
