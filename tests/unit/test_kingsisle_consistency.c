/* KingsIsle: one tree whichever form the data came in, and every form
 * written back as it was.
 *
 *  - An enum the type list names reads as its name from a binary integer
 *    (§6.4: u32), a binary string (flag 4: the option's name as a
 *    std::string) and XML text (§8: "Enums: variant names"); a value the
 *    list does not name is its number from binary and from XML digits, and
 *    a name the list lacks stays the text XML wrote.
 *  - A compact length prefix (§6.3: 1 bit is_large, then 7 or 31 bits) in
 *    the 31-bit form for a length below 0x80 is not what a writer following
 *    "is_large = (n >= 0x80)" makes; it comes back in the form it was read.
 *
 * The streams are written out below from the spec's tables with the hashes
 * of tests/vectors/kingsisle/tiny-types.json (class Tiny, enum Kind: A = 0,
 * B = 1) and unknown-types.json (class Names); the same bytes are that
 * folder's enum-named.bin, long-length.bin and long-length-list.bin. */
#include "test_kingsisle_util.h"

#define KV "vectors/kingsisle/"

/* deep, flags 0: Tiny{m_kind: 1} */
static const uint8_t enum_int[] = {
    0x86, 0xE1, 0x13, 0x05, /* tag 85188998: class Tiny */
    0x80, 0x00, 0x00, 0x00, /* object_bits 128 */
    0x60, 0x00, 0x00, 0x00, /* prop_bits 96 */
    0xDE, 0x7E, 0x3C, 0x23, /* hash 591167198: m_kind */
    0x01, 0x00, 0x00, 0x00, /* 1: B */
};

/* deep, flags 4 (string enums): Tiny{m_kind: "B"} */
static const uint8_t enum_str[] = {
    0x86, 0xE1, 0x13, 0x05, /* class Tiny */
    0x78, 0x00, 0x00, 0x00, /* object_bits 120 = 32 + 88 */
    0x58, 0x00, 0x00, 0x00, /* prop_bits 88 = 64 + 16 + 8 */
    0xDE, 0x7E, 0x3C, 0x23, /* m_kind */
    0x01, 0x00, 0x42,       /* u16 length 1, "B" */
};

/* shallow, stored flags 3 (stateful + compact lengths), mask 7, id order:
 * Tiny{m_id 7, m_on true, m_name "hi", m_pos (1, 2, 3), m_kind 1} with the
 * length of "hi" in the 31-bit form. */
static const uint8_t long_len[] = {
    0x03, 0x00, 0x00, 0x00, /* flags word 3 */
    0x86, 0xE1, 0x13, 0x05, /* class Tiny */
    0x07, 0x00, 0x00, 0x00, /* m_id 7 */
    0x0B,                   /* bit 0 m_on 1; bit 1 is_large 1; bits 2-7 length bits 0-5 (2) */
    0x00, 0x00, 0x00,       /* length bits 6-29 */
    0x00,                   /* bit 0 length bit 30, then 7 bits of padding */
    0x68, 0x69,             /* "hi" */
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40, /* m_pos */
    0x01, 0x00, 0x00, 0x00, /* m_kind 1 */
};

/* The same object with the length in its 7-bit form: what the writer
 * makes of a tree that does not say otherwise. */
static const uint8_t short_len[] = {
    0x03, 0x00, 0x00, 0x00, 0x86, 0xE1, 0x13, 0x05, 0x07, 0x00, 0x00, 0x00,
    0x09,                   /* m_on 1; is_large 0; length bits 0-5 */
    0x00,                   /* length bit 6, padding */
    0x68, 0x69, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40,
    0x01, 0x00, 0x00, 0x00,
};

/* shallow, flags 2 (compact, no stored word), mask 7: Names{m_names:
 * ["a", "b"]}, the count and "b" short, the length of "a" long: the
 * second prefix of the object (ordinal 1). */
static const uint8_t long_len_list[] = {
    0xEA, 0x03, 0x00, 0x00, /* tag 1002: class Names */
    0x04,                   /* is_large 0, count 2 */
    0x03, 0x00, 0x00, 0x00, /* is_large 1, length 1 (31 bits) */
    0x61,                   /* "a" */
    0x02,                   /* is_large 0, length 1 */
    0x62,                   /* "b" */
};

static sv_kingsisle_types *tiny, *names;

static sv_kingsisle_types *load(const char *file)
{
    char path[256];
    snprintf(path, sizeof path, KV "%s", file);
    size_t len;
    uint8_t *data = kt_read(path, &len);
    if (!data) fail_msg("%s is missing", path);
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    assert_non_null(t);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_types_add(t, data, len, file, &err), SV_OK);
    free(data);
    return t;
}

static int setup(void **state)
{
    (void)state;
    tiny = load("tiny-types.json");
    names = load("unknown-types.json");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sv_kingsisle_types_free(tiny);
    sv_kingsisle_types_free(names);
    return 0;
}

static sv_kingsisle_opts opts_of(const sv_kingsisle_types *t, uint32_t flags, bool shallow)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    o.flags = flags;
    o.shallow = shallow;
    o.property_mask = 7;
    return o;
}

static sv_doc *decode_bin(const uint8_t *b, size_t n, const sv_kingsisle_opts *o, sv_value *root)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, b, n, o, root, &err) != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fail_msg("decode: %s", msg);
    }
    return doc;
}

static sv_doc *decode_xml(const char *text, const sv_kingsisle_types *t, sv_value *root)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_xml_decode(doc, (const uint8_t *)text, strlen(text), &o, root, &err) != SV_OK)
        fail_msg("xml decode: %s", err.message);
    return doc;
}

/* A value as compact typed JSON. */
static char *typed(const sv_value *v)
{
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_encode(v, NULL, &out, &err), SV_OK);
    sv_buf_putc(&out, '\0');
    return (char *)out.data;
}

static void expect_typed(const sv_value *v, const char *want)
{
    char *got = typed(v);
    assert_string_equal(got, want);
    free(got);
}

/* Encodes root (types only, flags from the tree) and compares with want. */
static void expect_bin(const sv_value *root, const sv_kingsisle_types *t, const uint8_t *want,
                       size_t n)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_encode(root, &o, &out, &err) != SV_OK) fail_msg("encode: %s", err.message);
    assert_int_equal(out.len, n);
    assert_memory_equal(out.data, want, n);
    sv_buf_free(&out);
}

static char *xml_of(const sv_value *root, const sv_kingsisle_types *t)
{
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.types = t;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_xml_encode(root, &o, &out, &err) != SV_OK) fail_msg("xml: %s", err.message);
    sv_buf_putc(&out, '\0');
    return (char *)out.data;
}

#define TINY_XML(kind)                                                                             \
    "<Objects><Class Name=\"class Tiny\"><m_kind>" kind "</m_kind></Class></Objects>"

static void test_enum_binary_and_xml_agree(void **state)
{
    (void)state;
    sv_value bin, str, xml;
    sv_kingsisle_opts o = opts_of(tiny, 0, false);
    sv_doc *d1 = decode_bin(enum_int, sizeof enum_int, &o, &bin);
    o = opts_of(tiny, SV_KI_STRING_ENUMS, false);
    sv_doc *d2 = decode_bin(enum_str, sizeof enum_str, &o, &str);
    sv_doc *d3 = decode_xml(TINY_XML("B"), tiny, &xml);
    const char *want = "{\"$enum\":\"B\"}";
    expect_typed(kt_field(&bin, "m_kind"), want);
    expect_typed(kt_field(&str, "m_kind"), want);
    expect_typed(kt_field(&xml, "m_kind"), want);
    /* each written back as it was: the number, the name, the text */
    expect_bin(&bin, tiny, enum_int, sizeof enum_int);
    expect_bin(&str, tiny, enum_str, sizeof enum_str);
    char *x = xml_of(&xml, tiny);
    assert_non_null(strstr(x, "<m_kind>B</m_kind>"));
    free(x);
    /* and across: the XML tree as the integer stream */
    sv_kingsisle_opts w;
    sv_kingsisle_opts_init(&w);
    w.types = tiny;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kingsisle_encode(&xml, &w, &out, &err), SV_OK);
    assert_int_equal(out.len, sizeof enum_int);
    assert_memory_equal(out.data, enum_int, sizeof enum_int);
    sv_buf_free(&out);
    sv_doc_free(d1), sv_doc_free(d2), sv_doc_free(d3);
}

static void test_enum_unnamed_value(void **state)
{
    (void)state;
    uint8_t b[sizeof enum_int];
    memcpy(b, enum_int, sizeof b);
    b[16] = 7; /* no option of Kind is 7 */
    sv_value bin, xml, odd;
    sv_kingsisle_opts o = opts_of(tiny, 0, false);
    sv_doc *d1 = decode_bin(b, sizeof b, &o, &bin);
    sv_doc *d2 = decode_xml(TINY_XML("7"), tiny, &xml);
    const char *want = "{\"$enum\":{\"$u32\":7}}";
    expect_typed(kt_field(&bin, "m_kind"), want);
    expect_typed(kt_field(&xml, "m_kind"), want);
    expect_bin(&bin, tiny, b, sizeof b);
    char *x = xml_of(&xml, tiny);
    assert_non_null(strstr(x, "<m_kind>7</m_kind>"));
    free(x);
    /* a name the list lacks is kept as XML wrote it */
    sv_doc *d3 = decode_xml(TINY_XML("C"), tiny, &odd);
    expect_typed(kt_field(&odd, "m_kind"), "{\"$enum\":\"C\"}");
    x = xml_of(&odd, tiny);
    assert_non_null(strstr(x, "<m_kind>C</m_kind>"));
    free(x);
    /* XML digits the list names read as the name, as binary's do */
    sv_value one;
    sv_doc *d4 = decode_xml(TINY_XML("1"), tiny, &one);
    expect_typed(kt_field(&one, "m_kind"), "{\"$enum\":\"B\"}");
    sv_doc_free(d1), sv_doc_free(d2), sv_doc_free(d3), sv_doc_free(d4);
}

/* Without a type list there are no names: the number, as before. */
static void test_enum_without_list(void **state)
{
    (void)state;
    sv_value v;
    sv_kingsisle_opts o = opts_of(NULL, 0, false);
    sv_doc *d = decode_bin(enum_int, sizeof enum_int, &o, &v);
    assert_int_equal(sv_kind_of(kt_field(&v, "591167198")), SV_MAP); /* raw bits */
    sv_doc_free(d);
}

static void test_long_length_kept(void **state)
{
    (void)state;
    sv_value root;
    sv_kingsisle_opts o = opts_of(tiny, SV_KI_STATEFUL_FLAGS, true);
    sv_doc *doc = decode_bin(long_len, sizeof long_len, &o, &root);
    size_t n;
    assert_string_equal(sv_get_str(kt_field(&root, "m_name"), &n), "hi");
    expect_typed(sv_map_getz(sv_meta(&root), "long_lengths"), "{\"$u32s\":[0]}");
    expect_bin(&root, tiny, long_len, sizeof long_len);
    /* through typed JSON, as dump | conv takes it */
    char *json = typed(&root);
    sv_doc *d2 = sv_doc_new(NULL);
    sv_value back;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_json_decode(d2, json, strlen(json), NULL, &back, &err), SV_OK);
    expect_bin(&back, tiny, long_len, sizeof long_len);
    free(json);
    sv_doc_free(d2);
    sv_doc_free(doc);

    /* the short form reads with no such note, and is written short */
    doc = decode_bin(short_len, sizeof short_len, &o, &root);
    assert_null(sv_map_getz(sv_meta(&root), "long_lengths"));
    expect_bin(&root, tiny, short_len, sizeof short_len);
    sv_doc_free(doc);
}

static void test_long_length_in_list(void **state)
{
    (void)state;
    sv_value root;
    sv_kingsisle_opts o = opts_of(names, SV_KI_COMPACT_LENGTHS, true);
    sv_doc *doc = decode_bin(long_len_list, sizeof long_len_list, &o, &root);
    expect_typed(kt_field(&root, "m_names"), "[\"a\",\"b\"]");
    expect_typed(sv_map_getz(sv_meta(&root), "long_lengths"), "{\"$u32s\":[1]}");
    expect_bin(&root, names, long_len_list, sizeof long_len_list);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enum_binary_and_xml_agree),
        cmocka_unit_test(test_enum_unnamed_value),
        cmocka_unit_test(test_enum_without_list),
        cmocka_unit_test(test_long_length_kept),
        cmocka_unit_test(test_long_length_in_list),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
