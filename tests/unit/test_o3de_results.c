/* O3DE's result codes (JsonSerializationResultTests.cpp), the reporting
 * callback that changes results, and RapidJSON 1.1's text: number layout
 * and Grisu2 digits compared with RapidJSON's own Writer output, string
 * escapes and PrettyWriter indentation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/o3de/o3de_internal.h"
#include "helper_o3de.h"

#define R sv_o3de_result_make

static void test_result_layout_and_combine(void **state)
{
    (void)state;
    /* ResultCode_SizeOf_32bits: outcome << 16 | processing << 8 | task */
    sv_o3de_result r = R(SV_O3DE_READ_FIELD, SV_O3DE_UNSUPPORTED);
    assert_int_equal(r, (7u << 16) | (2u << 8) | 5u);
    assert_int_equal(sv_o3de_result_processing(R(SV_O3DE_CONVERT, SV_O3DE_PARTIAL_DEFAULTS)), SV_O3DE_COMPLETED);
    assert_int_equal(sv_o3de_result_processing(R(SV_O3DE_CONVERT, SV_O3DE_UNAVAILABLE)), SV_O3DE_ALTERED);
    assert_int_equal(sv_o3de_result_processing(R(SV_O3DE_CONVERT, SV_O3DE_TYPE_MISMATCH)), SV_O3DE_HALTED);
    /* no work yet: DefaultsUsed, Completed */
    assert_int_equal(sv_o3de_result_outcome(sv_o3de_result_none(SV_O3DE_MERGE)), SV_O3DE_DEFAULTS_USED);
    assert_int_equal(sv_o3de_result_processing(sv_o3de_result_none(SV_O3DE_MERGE)), SV_O3DE_COMPLETED);
    /* the JsonSerializationResultTests combine cases */
    sv_o3de_result c = sv_o3de_result_combine(R(SV_O3DE_CONVERT, SV_O3DE_SUCCESS),
                                              R(SV_O3DE_WRITE_VALUE, SV_O3DE_CATASTROPHIC));
    assert_int_equal(c, R(SV_O3DE_WRITE_VALUE, SV_O3DE_CATASTROPHIC));
    c = sv_o3de_result_combine(R(SV_O3DE_CONVERT, SV_O3DE_SKIPPED), R(SV_O3DE_READ_FIELD, SV_O3DE_SKIPPED));
    assert_int_equal(sv_o3de_result_task(c), SV_O3DE_READ_FIELD);
    c = sv_o3de_result_combine(R(SV_O3DE_READ_FIELD, SV_O3DE_SUCCESS), R(SV_O3DE_READ_FIELD, SV_O3DE_SKIPPED));
    assert_int_equal(sv_o3de_result_outcome(c), SV_O3DE_PARTIAL_SKIP);
    c = sv_o3de_result_combine(R(SV_O3DE_READ_FIELD, SV_O3DE_SUCCESS), R(SV_O3DE_READ_FIELD, SV_O3DE_UNSUPPORTED));
    assert_int_equal(sv_o3de_result_processing(c), SV_O3DE_PARTIAL_ALTER);
    assert_int_equal(sv_o3de_result_outcome(c), SV_O3DE_UNSUPPORTED);
    c = sv_o3de_result_combine(R(SV_O3DE_READ_FIELD, SV_O3DE_DEFAULTS_USED), R(SV_O3DE_READ_FIELD, SV_O3DE_SUCCESS));
    assert_int_equal(sv_o3de_result_outcome(c), SV_O3DE_PARTIAL_DEFAULTS);
    /* PartialSkip + DefaultsUsed is a plain maximum */
    c = sv_o3de_result_combine(R(SV_O3DE_READ_FIELD, SV_O3DE_PARTIAL_SKIP), R(SV_O3DE_READ_FIELD, SV_O3DE_DEFAULTS_USED));
    assert_int_equal(sv_o3de_result_outcome(c), SV_O3DE_DEFAULTS_USED);
    assert_string_equal(sv_o3de_task_name(SV_O3DE_READ_FIELD), "ReadField");
    assert_string_equal(sv_o3de_processing_name(SV_O3DE_HALTED), "Halted");
    assert_string_equal(sv_o3de_outcome_name(SV_O3DE_DEFAULTS_USED), "DefaultsUsed");
}

/* The walks' inline combine (with its short cut for two completed results
 * of one task) against sv_o3de_result_combine, whose cases are checked
 * above: every pair of tasks 0..10, processings 0..5 and outcomes 0..15. */
static void test_inline_combine_matches(void **state)
{
    (void)state;
    enum { CODES = 16 * 6 * 11 };
    static uint32_t codes[CODES];
    size_t n = 0, mismatches = 0;
    for (uint32_t o = 0; o < 16; o++)
        for (uint32_t p = 0; p < 6; p++)
            for (uint32_t t = 0; t < 11; t++) codes[n++] = o << 16 | p << 8 | t;
    n = 0;
    for (size_t i = 0; i < CODES; i++) {
        for (size_t j = 0; j < CODES; j++) {
            n++;
            if (o3_combine(codes[i], codes[j]) != sv_o3de_result_combine(codes[i], codes[j]))
                mismatches++;
        }
    }
    assert_int_equal(n, (size_t)(16 * 6 * 11) * (16 * 6 * 11));
    assert_int_equal(mismatches, 0);
}

static void test_describe(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    /* o3de/o3de#4787's log line */
    sv_o3de_result_describe(R(SV_O3DE_RETRIEVE_INFO, SV_O3DE_UNKNOWN), "/Entities/E/m_template", &b);
    sv_buf_putc(&b, 0);
    assert_string_equal((const char *)b.data,
                        "The operation has halted during a retrieve info operation for "
                        "'/Entities/E/m_template' because information was missing");
    b.len = 0;
    sv_o3de_result_describe(R(SV_O3DE_CLEAR, SV_O3DE_SUCCESS), NULL, &b);
    sv_buf_putc(&b, 0);
    assert_string_equal((const char *)b.data,
                        "The operation has completed an unknown operation which resulted in success");
    sv_buf_free(&b);
}

/* A callback that turns the first Halted result into PartialSkip. */
static sv_o3de_result soften(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    (void)message;
    int *calls = ctx;
    if (sv_o3de_result_processing(r) == SV_O3DE_HALTED) {
        (*calls)++;
        assert_string_equal(path, "/pointer/$type");
        return R(sv_o3de_result_task(r), SV_O3DE_PARTIAL_SKIP);
    }
    return r;
}

static void test_callback_changes_result(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    const sv_type *t = o3t_type("ComplexNullInheritedPointer");
    sv_value v, j = o3t_json(doc, "{\"pointer\":{\"$type\":\"Invalid\"}}");
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    int calls = 0;
    o.report = soften;
    o.report_ctx = &calls;
    sv_o3de_result r;
    assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
    assert_int_equal(calls, 1);
    assert_int_not_equal(sv_o3de_result_processing(r), SV_O3DE_HALTED);
    sv_doc_free(doc);
}

/* Doubles and their text from RapidJSON's Writer::Double as O3DE has it
 * (the oracle: a small C++ program over rapidjson/writer.h printed these;
 * RapidJSON 1.1 with upstream commit bb06211, whose rounding O3DE's prefabs
 * show: 14 of these end in another digit with 1.1.0). */
static const struct {
    uint64_t bits;
    const char *text;
} rapidjson_doubles[] = {
    {UINT64_C(0xc56cdb34e0000000), "-2.7908077264440773e26"},
    {UINT64_C(0xf30567547a34c162), "-1.169160046526163e246"},
    {UINT64_C(0x3c0d2cf9c0000000), "1.9770213761022048e-19"},
    {UINT64_C(0xe4546c04d9ff7cf6), "-2.0203875408674627e175"},
    {UINT64_C(0xc214fbdba0000000), "-22531205120.0"},
    {UINT64_C(0x0e1a95d201fdd96c), "9.967448324391879e-241"},
    {UINT64_C(0xb9a1d43020000000), "-4.395153159221699e-31"},
    {UINT64_C(0xe694f6378f1c4446), "-1.4251008704872614e186"},
    {UINT64_C(0x3fcdea7c20000000), "0.2337184101343155"},
    {UINT64_C(0xb7c8aabd2e11cae4), "-5.663253786363056e-40"},
    {UINT64_C(0x4256d4e7c0000000), "392244953088.0"},
    {UINT64_C(0x989fd3f3af7be2f1), "-4.464689285462284e-190"},
    {UINT64_C(0xbd1a196de0000000), "-2.318086416992337e-14"},
    {UINT64_C(0x4efbbcebcab6d1fe), "3.0630472498731626e72"},
    {UINT64_C(0x3bd2168300000000), "1.5321078079798392e-20"},
    {UINT64_C(0x4dd3484f06240dc9), "8.122718441546052e66"},
    {UINT64_C(0xc717302da0000000), "-3.0099999548047757e34"},
    {UINT64_C(0xfe600673414c0f81), "-5.365979877976077e300"},
    {UINT64_C(0x39eb5f9d60000000), "1.0796940062585208e-29"},
    {UINT64_C(0x44822da5eb247b16), "1.0730581983089675e22"},
    {UINT64_C(0x3fab0f9f20000000), "0.05285355821251869"},
    {UINT64_C(0x4ad57337daa44d4c), "3.2101697443806217e52"},
    {UINT64_C(0x40c1e40a80000000), "9160.08203125"},
    {UINT64_C(0x089011480bdf99cf), "1.946490635787995e-267"},
    {UINT64_C(0x3e39dce420000000), "6.021665388544761e-9"},
    {UINT64_C(0x2b31804b1892254c), "1.2502243166657435e-100"},
    {UINT64_C(0x3d21e2a3e0000000), "3.177069813286269e-14"},
    {UINT64_C(0x54b802b2f20e27f0), "1.3129269390461396e100"},
    {UINT64_C(0x40632e40e0000000), "153.44541931152344"},
    {UINT64_C(0xa462a1b0e7f4494a), "-2.0507003823145517e-133"},
    {UINT64_C(0x43295a4160000000), "3568055623876608.0"},
    {UINT64_C(0x048f5ad972ed8af4), "1.02957808754557e-286"},
    {UINT64_C(0xbf8fd2bda0000000), "-0.015538674779236317"},
    {UINT64_C(0xb3fdb67858a7ce25), "-2.9584487287603366e-58"},
    {UINT64_C(0xc6eba31180000000), "-4.4843573262087365e33"},
    {UINT64_C(0xe649d53f30174596), "-5.4883541343617675e184"},
    {UINT64_C(0xb88be74720000000), "-2.6240258555958786e-36"},
    {UINT64_C(0x47993742f825e2ff), "8.379408630296456e36"},
    {UINT64_C(0xbb4b9620a0000000), "-4.5637928928984124e-23"},
    {UINT64_C(0xc8e9b89b9c42f9d2), "-1.7925007564028378e43"},
    {UINT64_C(0x3fd3333340000000), "0.30000001192092896"},
    {UINT64_C(0x3fb99999a0000000), "0.10000000149011612"},
    {UINT64_C(0x4045000000000000), "42.0"},
    {UINT64_C(0x444b1ae4d6e2ef50), "1e21"},
    {UINT64_C(0x4480f0cf064dd592), "1e22"},
    {UINT64_C(0x441ac53a7e04bcda), "123456789012345680000.0"},
    {UINT64_C(0x3e7ad7f29abcaf48), "1e-7"},
    {UINT64_C(0x3eb0c6f7a0b5ed8d), "0.000001"},
    {UINT64_C(0x8000000000000000), "-0.0"},
    {UINT64_C(0x0000000000000001), "5e-324"},
    {UINT64_C(0x7fefffffffffffff), "1.7976931348623157e308"},
    {UINT64_C(0x4028ae147ae147ae), "12.34"},
    {UINT64_C(0xbeef75104d551d69), "-0.000015"},
    {UINT64_C(0x3f5437c5692b3cc5), "0.001234"},
};

static void test_number_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rapidjson_doubles / sizeof *rapidjson_doubles; i++) {
        double d;
        memcpy(&d, &rapidjson_doubles[i].bits, sizeof d);
        char buf[40];
        size_t n = sv_o3de_format_double(d, buf);
        buf[n] = 0;
        assert_string_equal(buf, rapidjson_doubles[i].text);
    }
}

static void test_text_layout(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = o3t_json(doc, "/* c */ {\"a\":[1,2.5,{}],\"b\":{},\"c\":[],\"s\":\"q\\\"\\\\\\u0001\\n/\\u00e9\"} // end");
    assert_string_equal(o3t_text(&v), "{\"a\":[1,2.5,{}],\"b\":{},\"c\":[],\"s\":\"q\\\"\\\\\\u0001\\n/\xc3\xa9\"}");
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_write(&v, 4, &b, &err), SV_OK);
    sv_buf_putc(&b, 0);
    assert_string_equal((const char *)b.data,
                        "{\n    \"a\": [\n        1,\n        2.5,\n        {}\n    ],\n    \"b\": {},\n"
                        "    \"c\": [],\n    \"s\": \"q\\\"\\\\\\u0001\\n/\xc3\xa9\"\n}");
    sv_buf_free(&b);
    sv_doc_free(doc);
}

static void test_wrapper(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value data = o3t_json(doc, "{\"var1\":88}"), w;
    assert_int_equal(sv_o3de_wrap(doc, "SimpleClass", &data, &w), SV_OK);
    assert_string_equal(o3t_text(&w), "{\"Type\":\"JsonSerialization\",\"Version\":1,\"ClassName\":"
                                      "\"SimpleClass\",\"ClassData\":{\"var1\":88}}");
    const char *name;
    size_t n;
    const sv_value *back;
    assert_true(sv_o3de_unwrap(&w, &name, &n, &back));
    assert_int_equal(n, 11);
    assert_memory_equal(name, "SimpleClass", 11);
    assert_false(sv_o3de_unwrap(&data, &name, &n, &back));
    sv_doc_free(doc);
}

/* RFC 7386's examples (O3DE's TestCases_Patching.cpp runs all of them). */
static void test_merge_patch(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"},
        {"{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}"},
        {"{\"a\":\"b\"}", "{\"a\":null}", "{}"},
        {"{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}"},
        {"{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"},
        {"{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}"},
        {"{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{\"a\":{\"b\":\"d\"}}"},
        {"{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}", "{\"a\":[1]}"},
        {"[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]"},
        {"{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]"},
        {"{\"a\":\"foo\"}", "null", "null"},
        {"{\"a\":\"foo\"}", "\"bar\"", "\"bar\""},
        {"{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}"},
        {"[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}"},
        {"{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value t = o3t_json(doc, cases[i][0]), p = o3t_json(doc, cases[i][1]);
        sv_o3de_result r;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_o3de_apply_patch(doc, &t, &p, SV_O3DE_MERGE_PATCH, NULL, &r, &err), SV_OK);
        assert_string_equal(o3t_text(&t), cases[i][2]);
        assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
        sv_doc_free(doc);
    }
}

static int teardown(void **state)
{
    (void)state;
    o3t_schema_free();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_result_layout_and_combine),
        cmocka_unit_test(test_inline_combine_matches),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_callback_changes_result),
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_text_layout),
        cmocka_unit_test(test_wrapper),
        cmocka_unit_test(test_merge_patch),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
