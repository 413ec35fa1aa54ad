/* KingsIsle encoding into a buffer with a sink (serval/buf.h), as `serval
 * conv` writes a file: deep-mode sizes come before the content they
 * measure, so an encoder that patched them in afterwards had to hold the
 * whole output; written forward, the output reaches the sink in pieces
 * while it is encoded, with the same bytes. And wide strings, whose ASCII
 * text is widened without decoding: the code units checked against UTF-16LE
 * written by hand.
 *
 * Inputs: the hand-made vectors of tests/vectors/kingsisle/ (tiny-deep.bin:
 * stateful flags, a bool, so unaligned fields and padding) and a linked
 * list of two objects assembled from the spec's byte rules (§5.3). */
#include "test_kingsisle_util.h"
#include "kingsisle_hxnode_vector.h"

#define KV "vectors/kingsisle/"

static sv_kingsisle_types *load_text(const char *text, const char *name)
{
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    assert_non_null(t);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_types_add(t, (const uint8_t *)text, strlen(text), name, &err) != SV_OK)
        fail_msg("%s: %s", name, err.message);
    return t;
}

/* What the sink was handed, and how many pieces came before the caller's
 * final flush. */
typedef struct collected {
    uint8_t bytes[4096];
    size_t len;
    unsigned pieces;
} collected;

static sv_status collect(void *ctx, const uint8_t *data, size_t len)
{
    collected *c = ctx;
    assert_true(c->len + len <= sizeof c->bytes);
    memcpy(c->bytes + c->len, data, len);
    c->len += len;
    c->pieces++;
    return SV_OK;
}

/* Decodes bytes, encodes the tree into a sink with a window of 8 bytes and
 * checks that the sink had pieces during the encode and that everything it
 * took is the input. */
static void streams_same_bytes(const sv_kingsisle_opts *opts, const uint8_t *bytes, size_t len,
                               unsigned min_pieces)
{
    sv_kingsisle_opts o = *opts;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, bytes, len, &o, &v, &err) != SV_OK) fail_msg("%s", err.message);
    collected c = {.len = 0};
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_buf_set_sink(&out, collect, &c, 8);
    if (sv_kingsisle_encode(&v, &o, &out, &err) != SV_OK) fail_msg("encode: %s", err.message);
    unsigned during = c.pieces;
    assert_int_equal(sv_buf_flush(&out), SV_OK);
    if (during < min_pieces)
        fail_msg("%u pieces reached the sink during the encode, expected at least %u (the output "
                 "was held whole)",
                 during, min_pieces);
    assert_int_equal(c.len, len);
    assert_memory_equal(c.bytes, bytes, len);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static sv_kingsisle_opts opts_of(const sv_kingsisle_types *t, uint32_t flags)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    o.flags = flags;
    return o;
}

/* tiny-shallow and tiny-deep hold the same object of five properties, with
 * the stored flags word 1 (shallow: property_mask 7). */
static void test_tiny_streams(void **state)
{
    (void)state;
    size_t tl, len, slen;
    uint8_t *types = kt_read(KV "tiny-types.json", &tl);
    uint8_t *bytes = kt_read(KV "tiny-deep.bin", &len);
    uint8_t *shallow = kt_read(KV "tiny-shallow.bin", &slen);
    if (!types || !bytes || !shallow) fail_msg(KV "tiny-types.json or tiny-*.bin is missing");
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_types_add(t, types, tl, "tiny-types.json", &err), SV_OK);
    /* 77 bytes in five properties: a piece at each property's end that
     * finds 8 bytes or more held */
    assert_int_equal(len, 77);
    sv_kingsisle_opts o = opts_of(t, SV_KI_STATEFUL_FLAGS);
    streams_same_bytes(&o, bytes, len, 4);
    /* 33 bytes: no sizes, the properties go as they are written */
    assert_int_equal(slen, 33);
    o.shallow = true;
    o.property_mask = 7;
    streams_same_bytes(&o, shallow, slen, 2);
    sv_kingsisle_types_free(t);
    free(types);
    free(bytes);
    free(shallow);
}


static void test_nested_sizes_stream(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(hxnode, "hxnode.json");
    /* the outer object's size comes first and its content last: patched,
     * nothing could have gone before the end */
    sv_kingsisle_opts o = opts_of(t, 0);
    streams_same_bytes(&o, linked, sizeof linked, 3);
    sv_kingsisle_types_free(t);
}

/* An encode that fails part way (a field no class has) into a sink: an
 * error, not a partial success, and what the buffer still holds is not
 * left as output. */
static void test_failed_encode_into_sink(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(hxnode, "hxnode.json");
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = sv_object(doc, sv_str(doc, "class HxNode", 12), 0);
    sv_map_append_str(doc, &root, "m_value", sv_uint_w(1, 4));
    sv_map_append_str(doc, &root, "m_nope", sv_uint_w(2, 4));
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    collected c = {.len = 0};
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_buf_set_sink(&out, collect, &c, 8);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_encode(&root, &o, &out, &err), SV_ERR_NOT_FOUND);
    assert_string_equal(err.path, "/m_nope");
    assert_int_equal(out.len, 0);
    sv_buf_free(&out);
    sv_doc_free(doc);
    sv_kingsisle_types_free(t);
}

/* A sink that takes 16 bytes, then fails as a full disk would. */
static sv_status full_after_16(void *ctx, const uint8_t *data, size_t len)
{
    (void)data;
    size_t *taken = ctx;
    if (*taken + len > 16) return SV_ERR_IO;
    *taken += len;
    return SV_OK;
}

/* The sink's error ends the encode as that error (not a size that went
 * wrong, not memory): the caller tells a full disk from a bug. */
static void test_sink_error_is_reported(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(hxnode, "hxnode.json");
    sv_kingsisle_opts o = opts_of(t, 0);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, linked, sizeof linked, &o, &v, &err) != SV_OK)
        fail_msg("%s", err.message);
    size_t taken = 0;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_buf_set_sink(&out, full_after_16, &taken, 8);
    assert_int_equal(sv_kingsisle_encode(&v, &o, &out, &err), SV_ERR_IO);
    assert_int_equal(err.status, SV_ERR_IO);
    assert_int_equal(sv_buf_status(&out), SV_ERR_IO);
    sv_buf_free(&out);
    sv_doc_free(doc);
    sv_kingsisle_types_free(t);
}

/* class W (hash 0x01020304) {m_w std::wstring (hash 5)}, shallow, flags 0:
 * the tag, then an aligned u16 count of code units, then the units
 * little-endian (§6.1, §6.3). */
static const char wide_types[] =
    "{\"version\": 2, \"classes\": {\"16909060\": {\"name\": \"class W\", \"hash\": 16909060,"
    " \"properties\": {\"m_w\": {\"type\": \"std::wstring\", \"id\": 0, \"flags\": 31,"
    " \"hash\": 5}}}}}";

static void wide_encodes_to(const sv_kingsisle_types *t, const char *text, const uint8_t *units,
                            size_t nunits)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = sv_object(doc, sv_str(doc, "class W", 7), 0);
    sv_map_append_str(doc, &root, "m_w",
                      sv_with_flags(sv_str(doc, text, strlen(text)), SV_F_UTF16));
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    o.shallow = true;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_encode(&root, &o, &out, &err) != SV_OK) fail_msg("%s", err.message);
    static const uint8_t tag[4] = {0x04, 0x03, 0x02, 0x01};
    assert_int_equal(out.len, 4 + 2 + 2 * nunits);
    assert_memory_equal(out.data, tag, 4);
    assert_int_equal(out.data[4] | out.data[5] << 8, nunits);
    if (nunits) assert_memory_equal(out.data + 6, units, 2 * nunits);
    /* and back: the same text */
    sv_value back;
    if (sv_kingsisle_decode(doc, out.data, out.len, &o, &back, &err) != SV_OK)
        fail_msg("%s", err.message);
    assert_string_equal(sv_get_str(sv_map_getz(&back, "m_w"), NULL), text);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_wide_strings(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(wide_types, "wide.json");
    /* 37 ASCII characters: two 16-byte blocks and a tail of 5 */
    const char *ascii = "The quick brown fox jumps over it 123";
    uint8_t units[2 * 37];
    for (size_t i = 0; i < 37; i++) units[2 * i] = (uint8_t)ascii[i], units[2 * i + 1] = 0;
    wide_encodes_to(t, ascii, units, 37);
    /* one non-ASCII character after 20 ASCII ones: a, é U+00E9, € U+20AC,
     * U+1F600 as the surrogates D83D DE00 */
    const char *mixed = "abcdefghijklmnopqrst\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    uint8_t munits[2 * 24];
    for (size_t i = 0; i < 20; i++) munits[2 * i] = (uint8_t)mixed[i], munits[2 * i + 1] = 0;
    static const uint8_t tail[8] = {0xE9, 0x00, 0xAC, 0x20, 0x3D, 0xD8, 0x00, 0xDE};
    memcpy(munits + 40, tail, 8);
    wide_encodes_to(t, mixed, munits, 24);
    wide_encodes_to(t, "", NULL, 0);
    sv_kingsisle_types_free(t);
}

/* Decoding wide strings: shallow class W as above, built by hand. ASCII
 * units (high byte 0, low byte < 0x80) narrow to their low byte; any other
 * unit anywhere (in a 16-unit block or in the tail) decodes as UTF-16:
 * U+0080 is C2 80, U+0100 is C4 80, U+007F stays 7F. */
static void wide_decodes_to(const sv_kingsisle_types *t, const uint16_t *units, size_t n,
                            const char *want, size_t want_len)
{
    uint8_t bytes[6 + 2 * 64];
    static const uint8_t tag[4] = {0x04, 0x03, 0x02, 0x01};
    memcpy(bytes, tag, 4);
    bytes[4] = (uint8_t)n, bytes[5] = (uint8_t)(n >> 8);
    for (size_t i = 0; i < n; i++)
        bytes[6 + 2 * i] = (uint8_t)units[i], bytes[7 + 2 * i] = (uint8_t)(units[i] >> 8);
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    o.shallow = true;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, bytes, 6 + 2 * n, &o, &v, &err) != SV_OK)
        fail_msg("%zu units: %s", n, err.message);
    size_t len;
    const char *got = sv_get_str(sv_map_getz(&v, "m_w"), &len);
    if (len != want_len || memcmp(got, want, len) != 0)
        fail_msg("%zu units: decoded to %zu bytes, expected %zu", n, len, want_len);
    sv_doc_free(doc);
}

static void test_wide_strings_decode(void **state)
{
    (void)state;
    sv_kingsisle_types *t = load_text(wide_types, "wide.json");
    uint16_t units[64] = {0};
    char want[3 * 64] = {0};
    for (size_t n = 0; n <= 40; n++) {
        for (size_t i = 0; i < n; i++)
            units[i] = (uint16_t)('a' + i % 26), want[i] = (char)units[i];
        wide_decodes_to(t, units, n, want, n);
        if (n) {
            units[n - 1] = 0x7F, want[n - 1] = 0x7F;
            wide_decodes_to(t, units, n, want, n);
        }
        static const size_t at[] = {0, 3, 15, 16, 17, 31, 32, 39};
        for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
            if (at[k] >= n) continue;
            for (int big = 0; big < 2; big++) {
                size_t w = 0;
                for (size_t i = 0; i < n; i++) {
                    units[i] = (uint16_t)('a' + i % 26);
                    if (i != at[k]) {
                        want[w++] = (char)units[i];
                        continue;
                    }
                    units[i] = big ? 0x0100 : 0x0080;
                    want[w++] = (char)(big ? 0xC4 : 0xC2);
                    want[w++] = (char)0x80;
                }
                wide_decodes_to(t, units, n, want, w);
            }
        }
    }
    sv_kingsisle_types_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_streams),
        cmocka_unit_test(test_nested_sizes_stream),
        cmocka_unit_test(test_failed_encode_into_sink),
        cmocka_unit_test(test_sink_error_is_reported),
        cmocka_unit_test(test_wide_strings),
        cmocka_unit_test(test_wide_strings_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
