/* KingsIsle ObjectProperty on hostile input: sizes in bits that point
 * outside the data, lengths larger than the bits that remain, unknown type
 * hashes, recursion bombs, zlib bombs, a truncated bit field; each error
 * names the byte and bit offset and the JSON Pointer path. Also the memory a
 * schema-less decode may take, and refused trees on encoding. */
#include "helper_alloc.h"
#include "test_kingsisle_util.h"
#include <zlib.h>

/* class Node (hash 1000): m_next (class Node), m_list (list of u32), m_s
 * (std::string); class Bits (hash 2000): m_b bool, m_x bui5, m_y u24. */
static const char types_json[] =
    "{\"version\": 2, \"classes\": {"
    "\"1000\": {\"name\": \"class Node\", \"hash\": 1000, \"properties\": {"
    "  \"m_next\": {\"type\": \"class Node\", \"id\": 0, \"flags\": 7, \"dynamic\": false, \"hash\": 11},"
    "  \"m_list\": {\"type\": \"unsigned int\", \"id\": 1, \"flags\": 7, \"dynamic\": true, \"hash\": 12},"
    "  \"m_s\": {\"type\": \"std::string\", \"id\": 2, \"flags\": 7, \"dynamic\": false, \"hash\": 13}}},"
    "\"2000\": {\"name\": \"class Bits\", \"hash\": 2000, \"properties\": {"
    "  \"m_b\": {\"type\": \"bool\", \"id\": 0, \"flags\": 7, \"dynamic\": false, \"hash\": 21},"
    "  \"m_x\": {\"type\": \"bui5\", \"id\": 1, \"flags\": 7, \"dynamic\": false, \"hash\": 22},"
    "  \"m_y\": {\"type\": \"u24\", \"id\": 2, \"flags\": 7, \"dynamic\": false, \"hash\": 23}}}}}";

static sv_kingsisle_types *types;

static int setup(void **state)
{
    (void)state;
    types = sv_kingsisle_types_new(NULL);
    sv_error err;
    assert_int_equal(sv_kingsisle_types_add(types, (const uint8_t *)types_json,
                                            sizeof types_json - 1, "t", &err),
                     SV_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sv_kingsisle_types_free(types);
    return 0;
}

typedef struct bytes {
    uint8_t b[1 << 16];
    size_t n;
} bytes;

static void u32(bytes *b, uint32_t v)
{
    for (int i = 0; i < 4; i++) b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

/* Decodes and expects a failure with status, offsets, path and text. */
static void expect(const bytes *in, bool shallow, uint32_t flags, const sv_kingsisle_types *t,
                   uint32_t max_depth, sv_status st, uint64_t byte, int bit, const char *path,
                   const char *text)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.shallow = shallow;
    o.flags = flags;
    o.property_mask = 7;
    o.types = t;
    o.limits.max_depth = max_depth;
    o.limits.max_decompressed = 1u << 20;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    sv_status got = sv_kingsisle_decode(doc, in->b, in->n, &o, &v, &err);
    char msg[512];
    sv_error_format(&err, msg, sizeof msg);
    if (got != st) fail_msg("status %s, expected %s: %s", sv_status_name(got), sv_status_name(st), msg);
    if ((byte != UINT64_MAX && err.byte_offset != byte) || err.bit_offset != bit ||
        (path && strcmp(err.path, path) != 0) ||
        !strstr(err.message, text))
        fail_msg("got '%s' (byte %llu bit %d path '%s'), expected byte %llu bit %d path '%s' and '%s'",
                 msg, (unsigned long long)err.byte_offset, err.bit_offset, err.path,
                 (unsigned long long)byte, bit, path ? path : "*", text);
    sv_doc_free(doc);
}

static void test_sizes_outside_the_data(void **state)
{
    (void)state;
    bytes b = {.n = 0};
    u32(&b, 1000), u32(&b, 0x7FFFFFFF); /* object size far past the end */
    expect(&b, false, 0, types, 0, SV_ERR_TRUNCATED, 4, 0, "", "runs past the data");
    expect(&b, false, 0, NULL, 0, SV_ERR_TRUNCATED, 4, 0, "", "runs past the data");
    b.n = 0;
    u32(&b, 1000), u32(&b, 32 + 64 + 32), u32(&b, 1000), u32(&b, 13), u32(&b, 0);
    expect(&b, false, 0, types, 0, SV_ERR_SYNTAX, 8, 0, "", "runs past its object");
    b.n = 0;
    u32(&b, 1000), u32(&b, 16); /* smaller than its own field */
    expect(&b, false, 0, NULL, 0, SV_ERR_SYNTAX, 4, 0, "", "smaller than its own field");
    /* a property whose value ends before its size: m_s is "" (16 bits) in 96 */
    b.n = 0;
    u32(&b, 1000), u32(&b, 32 + 96), u32(&b, 96), u32(&b, 13), u32(&b, 0);
    expect(&b, false, 0, types, 0, SV_ERR_SYNTAX, 18, 0, "/m_s", "ends 16 bits early");
}

static void test_lengths_beyond_the_bits(void **state)
{
    (void)state;
    bytes b = {.n = 0};
    u32(&b, 1000), u32(&b, 0), u32(&b, 0xFFFFFFF0);
    expect(&b, true, 0, types, 0, SV_ERR_TRUNCATED, 12, 0, "/m_list", "cannot fit");
    b.n = 0;
    u32(&b, 1000), u32(&b, 0), u32(&b, 0), b.b[b.n++] = 0xFF, b.b[b.n++] = 0xFF;
    expect(&b, true, 0, types, 0, SV_ERR_TRUNCATED, 14, 0, "/m_s", "string of 65535 bytes");
    /* compact prefix, 31 bits: 2^31 - 1 elements */
    b.n = 0;
    u32(&b, 1000), u32(&b, 0), u32(&b, 0xFFFFFFFF);
    expect(&b, true, SV_KI_COMPACT_LENGTHS, types, 0, SV_ERR_TRUNCATED, 12, 0, "/m_list", "cannot fit");
    /* nested: the list of the inner Node ends early */
    b.n = 0;
    u32(&b, 1000), u32(&b, 1000), u32(&b, 0), u32(&b, 2), u32(&b, 7), b.b[b.n++] = 1;
    expect(&b, true, 0, types, 0, SV_ERR_TRUNCATED, 20, 0, "/m_next/m_list/1", "32-bit field");
}

static void test_bit_offsets(void **state)
{
    (void)state;
    bytes b = {.n = 0};
    u32(&b, 2000), b.b[b.n++] = 0xFF; /* m_b, m_x, then 2 of m_y's 24 bits */
    expect(&b, true, 0, types, 0, SV_ERR_TRUNCATED, 4, 6, "/m_y", "24-bit field");
}

static void test_unknown_type_hash(void **state)
{
    (void)state;
    bytes b = {.n = 0};
    u32(&b, 999), u32(&b, 32);
    expect(&b, true, 0, types, 0, SV_ERR_NOT_FOUND, 0, 0, "", "unknown type hash 999");
    /* deep mode keeps it (by hash), with a type list that lacks it as
     * without one (test_kingsisle_unknown.c) */
    for (int with_types = 0; with_types < 2; with_types++) {
        sv_kingsisle_opts o;
        sv_kingsisle_opts_init(&o);
        o.types = with_types ? types : NULL;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        assert_int_equal(sv_kingsisle_decode(doc, b.b, b.n, &o, &v, &err), SV_OK);
        assert_int_equal(sv_get_uint(sv_object_class(&v)), 999);
        assert_int_equal(sv_len(&v), 0);
        sv_doc_free(doc);
    }
    /* in a nested object, the path says where */
    b.n = 0;
    u32(&b, 1000), u32(&b, 999);
    expect(&b, true, 0, types, 0, SV_ERR_NOT_FOUND, 4, 0, "/m_next", "unknown type hash 999");
}

static void test_recursion_bombs(void **state)
{
    (void)state;
    static bytes b;
    b.n = 0;
    for (int i = 0; i < 5000; i++) u32(&b, 1000); /* shallow: Node in Node in ... */
    /* the path is cut at its root end: ".../m_next/m_next" */
    expect(&b, true, 0, types, 0, SV_ERR_DEPTH, 4 * 1024, 0, NULL, "deeper than 1024");
    expect(&b, true, 0, types, 10, SV_ERR_DEPTH, 40, 0,
           "/m_next/m_next/m_next/m_next/m_next/m_next/m_next/m_next/m_next/m_next",
           "deeper than 10");
    /* deep: each level's sizes run to the end of the data */
    b.n = 0;
    const int levels = 3000;
    size_t total = (size_t)levels * 16 + 4;
    for (int i = 0; i < levels; i++) {
        size_t at = b.n;
        u32(&b, 1000);
        u32(&b, (uint32_t)((total - at - 4) * 8));
        u32(&b, (uint32_t)((total - at - 8) * 8));
        u32(&b, 11);
    }
    u32(&b, 0);
    expect(&b, false, 0, types, 0, SV_ERR_DEPTH, 16 * 1024, 0, NULL, "deeper than 1024");
}

/* deflate of n zero bytes, the first 4 of them tag (a root's type tag,
 * little-endian; 0: all zeros) */
static size_t tagged_zeros_z(size_t n, uint32_t tag, uint8_t *out, size_t cap)
{
    uint8_t *zero = calloc(n, 1);
    for (int i = 0; i < 4; i++) zero[i] = (uint8_t)(tag >> (8 * i));
    uLongf len = cap;
    assert_int_equal(compress2(out, &len, zero, n, 9), Z_OK);
    free(zero);
    return len;
}

static size_t zeros_z(size_t n, uint8_t *out, size_t cap)
{
    return tagged_zeros_z(n, 0, out, cap);
}

static void test_zlib_bombs(void **state)
{
    (void)state;
    static bytes b;
    /* the marker's stated size over the limit (1 MiB here): refused at once */
    b.n = 0;
    b.b[b.n++] = 1;
    u32(&b, 0x7FFFFFFF);
    /* (a root type tag first, so that the payload's head is a plausible root) */
    b.n += tagged_zeros_z(4u << 20, 1000, b.b + b.n, sizeof b.b - b.n);
    expect(&b, false, SV_KI_WITH_COMPRESSION, NULL, 0, SV_ERR_LIMIT, 5, -1, "", "over the decompressed-size limit");
    /* a stated size that fits, a stream that inflates past it */
    b.b[1] = 0, b.b[2] = 0x10, b.b[3] = 0, b.b[4] = 0; /* 4096 */
    /* (the offset is where in the stream zlib wanted to write more) */
    expect(&b, false, SV_KI_WITH_COMPRESSION, NULL, 0, SV_ERR_SYNTAX, UINT64_MAX, -1, "",
           "more than the 4096 bytes");
    /* the manual wrapper, the same */
    memmove(b.b, b.b + 1, b.n - 1), b.n--;
    b.b[0] = 0xFF, b.b[1] = 0xFF, b.b[2] = 0xFF, b.b[3] = 0x7F;
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.compress = true;
    o.limits.max_decompressed = 1u << 20;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_decode(doc, b.b, b.n, &o, &v, &err), SV_ERR_LIMIT);
    assert_int_equal(err.byte_offset, 4);
    sv_doc_free(doc);
}

/* Decodes b with a counting allocator; the status, *peak the most bytes
 * held at once, err the error. */
static sv_status decode_counted(const bytes *b, bool compress, uint32_t flags, uint64_t max_alloc,
                                int64_t *peak, sv_error *err)
{
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.compress = compress;
    o.flags = flags;
    o.limits.max_decompressed = 64u << 20;
    o.limits.max_alloc = max_alloc;
    sv_value v;
    sv_error_clear(err);
    sv_status st = sv_kingsisle_decode(doc, b->b, b->n, &o, &v, err);
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
    *peak = t.peak_bytes;
    return st;
}

/* A zlib payload is checked on its first bytes before the rest is inflated:
 * 16 MiB of zeros whose size is stated truly (within the 64 MiB limit) is a
 * null root, found after 16 bytes; a stated size over the allocation limit
 * is refused before anything is inflated. Both cost what zlib's state
 * costs, not the 16 MiB. */
static void test_zlib_head_checked_first(void **state)
{
    (void)state;
    static bytes b;
    const uint32_t n = 16u << 20;
    int64_t peak;
    sv_error err;
    /* flag 8: marker 1, u32 size, zlib */
    b.n = 0;
    b.b[b.n++] = 1;
    u32(&b, n);
    b.n += zeros_z(n, b.b + b.n, sizeof b.b - b.n);
    assert_int_equal(decode_counted(&b, false, SV_KI_WITH_COMPRESSION, 0, &peak, &err),
                     SV_ERR_SYNTAX);
    assert_non_null(strstr(err.message, "the root object is null"));
    assert_int_equal(err.byte_offset, 0);
    assert_true(peak < 256 * 1024);
    /* the manual wrapper around a stateful stream: flags word 8, marker 1,
     * and the nested payload's stated size over the limit, seen in the
     * outer payload's head */
    uint8_t inner[9] = {8, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0x7F};
    uLongf zl = sizeof b.b - 4;
    assert_int_equal(compress2(b.b + 4, &zl, inner, sizeof inner, 9), Z_OK);
    b.n = 0;
    u32(&b, sizeof inner);
    b.n += zl;
    assert_int_equal(decode_counted(&b, true, SV_KI_STATEFUL_FLAGS, 0, &peak, &err),
                     SV_ERR_LIMIT);
    assert_non_null(strstr(err.message, "nested zlib payload says it inflates to 2147483647"));
    assert_int_equal(err.byte_offset, 5);
    /* the manual wrapper, all zeros, size stated truly: a null root */
    b.n = 0;
    u32(&b, n);
    b.n += zeros_z(n, b.b + b.n, sizeof b.b - b.n);
    assert_int_equal(decode_counted(&b, true, 0, 0, &peak, &err), SV_ERR_SYNTAX);
    assert_non_null(strstr(err.message, "the root object is null"));
    assert_true(peak < 256 * 1024);
    /* a stated size within max_decompressed, over max_alloc (1 MiB) */
    assert_int_equal(decode_counted(&b, true, 0, 1u << 20, &peak, &err), SV_ERR_LIMIT);
    assert_non_null(strstr(err.message, "over the allocation limit of 1048576"));
    assert_int_equal(err.byte_offset, 4);
    assert_true(peak < 64 * 1024);
}

/* Deep, no type list: 8-byte empty properties are the densest input. */
static void test_schemaless_memory(void **state)
{
    (void)state;
    static bytes b;
    b.n = 0;
    const uint32_t n = 8000;
    u32(&b, 1000), u32(&b, 32 + n * 64);
    for (uint32_t i = 0; i < n; i++) u32(&b, 64), u32(&b, 100 + i);
    test_alloc t;
    test_alloc_init(&t, 0);
    sv_doc *doc = sv_doc_new(&t.alloc);
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_kingsisle_decode(doc, b.b, b.n, &o, &v, &err), SV_OK);
    assert_int_equal(sv_len(&v), n);
    printf("schema-less deep: %zu bytes peaked at %lld bytes (%.1f per input byte)\n", b.n,
           (long long)t.peak_bytes, (double)t.peak_bytes / (double)b.n);
    /* docs/security.md: 48 x the input + 256 KiB */
    assert_true(t.peak_bytes <= 48 * (int64_t)b.n + (256 << 10));
    sv_doc_free(doc);
    assert_int_equal(t.live_bytes, 0);
}

static void test_encode_refusals(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = types;
    o.shallow = true;
    o.property_mask = 7;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_value obj = sv_object(doc, sv_strz(doc, "class Nope"), 0);
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_encode(&obj, &o, &out, &err), SV_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "'class Nope' is not in the type list"));
    obj = sv_object(doc, sv_strz(doc, "class Bits"), 0);
    sv_map_append_str(doc, &obj, "m_b", sv_bool(true));
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_encode(&obj, &o, &out, &err), SV_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "no property 'm_x'"));
    sv_map_append_str(doc, &obj, "m_x", sv_strz(doc, "five"));
    sv_map_append_str(doc, &obj, "m_y", sv_uint(1));
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_encode(&obj, &o, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/m_x");
    sv_value null_root = sv_null();
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_encode(&null_root, &o, &out, &err), SV_ERR_TYPE);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_outside_the_data), cmocka_unit_test(test_lengths_beyond_the_bits),
        cmocka_unit_test(test_bit_offsets),            cmocka_unit_test(test_unknown_type_hash),
        cmocka_unit_test(test_recursion_bombs),        cmocka_unit_test(test_zlib_bombs),
        cmocka_unit_test(test_schemaless_memory),      cmocka_unit_test(test_encode_refusals),
        cmocka_unit_test(test_zlib_head_checked_first),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
