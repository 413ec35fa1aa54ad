/* The O3DE test fixture (helper_o3de.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_o3de.h"

/* The classes and enums of O3DE's Json serialization tests, with their
 * defaults (AzCore/Tests/Serialization/Json/TestCases_*.h). */
static const char schema_text[] =
    "{\"serval_schema\": 1,\n"
    " \"enums\": [\n"
    "  {\"name\": \"SimpleEnumClass\", \"underlying\": \"i32\", \"values\": [[\"Option1\", 1], [\"Option2\", 2]]},\n"
    "  {\"name\": \"SimpleRawEnum\", \"underlying\": \"i32\", \"values\": [[\"RawOption1\", 1], [\"RawOption2\", 2]]},\n"
    "  {\"name\": \"BitFlagsS64\", \"underlying\": \"i64\", \"bits\": true, \"values\": [[\"BitFlag0\", 0],\n"
    "     [\"BitFlag1\", 1], [\"BitFlag2\", 2], [\"BitFlag3\", 4], [\"BitFlag4\", 8], [\"BitFlag1And2\", 3],\n"
    "     [\"BitFlag2And4\", 10]]},\n"
    "  {\"name\": \"NoZeroFlags\", \"underlying\": \"i64\", \"bits\": true, \"values\": [\n"
    "     [\"BitFlag1\", 1], [\"BitFlag2\", 2], [\"BitFlag3\", 4], [\"BitFlag4\", 8], [\"BitFlag1And2\", 3],\n"
    "     [\"BitFlag2And4\", 10], [\"BitFlagNegative\", -9223372019658129408]]},\n"
    "  {\"name\": \"DocEnum\", \"underlying\": \"u8\", \"bits\": true, \"values\": [[\"Flag1\", 1], [\"Flag2\", 2],\n"
    "     [\"Flag4\", 8], [\"Flag2Flag3Combo\", 6]]},\n"
    "  {\"name\": \"U8Enum\", \"underlying\": \"u8\", \"values\": [[\"A\", 0]]},\n"
    "  {\"name\": \"U16Enum\", \"underlying\": \"u16\", \"values\": [[\"Flags0\", 0], [\"Flags1\", 1], [\"Flags3\", 3]]},\n"
    "  {\"name\": \"S16Enum\", \"underlying\": \"i16\", \"values\": [[\"One\", 1]]},\n"
    "  {\"name\": \"S8Enum\", \"underlying\": \"i8\", \"values\": [[\"One\", 1]]}\n"
    " ],\n"
    " \"classes\": [\n"
    "  {\"name\": \"SimpleClass\", \"uuid\": \"{8B5CD7E3-3E9E-4E23-8E41-2E0BE5D6E6AD}\", \"fields\": [\n"
    "     {\"name\": \"var1\", \"type\": \"i32\", \"default\": 42},\n"
    "     {\"name\": \"var2\", \"type\": \"f32\", \"default\": 42.0}]},\n"
    "  {\"name\": \"BaseClass\", \"uuid\": \"{E7829F37-C577-4F2B-A85B-6F331548354C}\", \"fields\": [\n"
    "     {\"name\": \"base_var\", \"type\": \"f32\", \"default\": -42.0}]},\n"
    "  {\"name\": \"BaseClass2\", \"uuid\": \"{5E2C4C2E-5F3F-4B12-9B76-D0B0C4B6A102}\", \"fields\": [\n"
    "     {\"name\": \"base2_var1\", \"type\": \"f32\", \"default\": -133.0},\n"
    "     {\"name\": \"base2_var2\", \"type\": \"f32\", \"default\": -233.0},\n"
    "     {\"name\": \"base2_var3\", \"type\": \"f32\", \"default\": -333.0}]},\n"
    "  {\"name\": \"SimpleInheritence\", \"uuid\": \"{9E69A37B-4B8F-4D0A-8E0C-6F8C1C0E4B11}\", \"bases\": [\"BaseClass\"],\n"
    "   \"fields\": [{\"name\": \"var1\", \"type\": \"i32\", \"default\": 42},\n"
    "              {\"name\": \"var2\", \"type\": \"f32\", \"default\": 42.0}]},\n"
    "  {\"name\": \"MultipleInheritence\", \"uuid\": \"{0CC36DD4-2337-40B4-A86C-69C452C48555}\",\n"
    "   \"bases\": [\"BaseClass\", \"BaseClass2\"],\n"
    "   \"fields\": [{\"name\": \"var1\", \"type\": \"i32\", \"default\": 42},\n"
    "              {\"name\": \"var2\", \"type\": \"f32\", \"default\": 42.0}]},\n"
    "  {\"name\": \"SimpleNested\", \"fields\": [\n"
    "     {\"name\": \"nested\", \"type\": \"SimpleClass\"},\n"
    "     {\"name\": \"var_additional\", \"type\": \"i32\", \"default\": 42}]},\n"
    "  {\"name\": \"SimpleEnumWrapper\", \"fields\": [\n"
    "     {\"name\": \"enumClass\", \"type\": \"SimpleEnumClass\", \"default\": \"Option1\"},\n"
    "     {\"name\": \"rawEnum\", \"type\": \"SimpleRawEnum\"}]},\n"
    "  {\"name\": \"NonReflectedEnumWrapper\", \"fields\": [\n"
    "     {\"name\": \"enumClass\", \"type\": \"i32\", \"default\": 1},\n"
    "     {\"name\": \"rawEnum\", \"type\": \"i32\"}]},\n"
    "  {\"name\": \"AnyHolder\", \"fields\": [\n"
    "     {\"name\": \"thing\", \"type\": \"any\"},\n"
    "     {\"name\": \"count\", \"type\": \"i32\"}]},\n"
    "  {\"name\": \"ComplexNullInheritedPointer\", \"fields\": [\n"
    "     {\"name\": \"pointer\", \"type\": \"ptr<BaseClass>\"}]},\n"
    "  {\"name\": \"SimpleNullPointer\", \"fields\": [\n"
    "     {\"name\": \"pointer1\", \"type\": \"ptr<i32>\"},\n"
    "     {\"name\": \"pointer2\", \"type\": \"ptr<i32>\"}]},\n"
    "  {\"name\": \"Unrelated\", \"fields\": [{\"name\": \"x\", \"type\": \"i32\"}]},\n"
    "  {\"name\": \"Vec3Holder\", \"fields\": [{\"name\": \"v\", \"type\": \"vector3\"}]},\n"
    "  {\"name\": \"ColorHolder\", \"fields\": [{\"name\": \"c\", \"type\": \"color\"}]}\n"
    " ]}\n";

static sv_schema *schema;

sv_schema *o3t_schema(void)
{
    if (schema) return schema;
    sv_error err;
    sv_error_clear(&err);
    schema = sv_schema_new(NULL);
    assert_non_null(schema);
    sv_status st = sv_schema_decode(schema, schema_text, sizeof schema_text - 1, "o3de-tests", &err);
    if (st == SV_OK) st = sv_schema_finalize(schema, &err);
    if (st != SV_OK) fail_msg("schema: %s at %s", err.message, err.path);
    return schema;
}

void o3t_schema_free(void)
{
    sv_schema_free(schema);
    schema = NULL;
}

const sv_type *o3t_type(const char *text)
{
    const sv_type *t = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_schema_parse_type(o3t_schema(), text, strlen(text), &t, &err) != SV_OK)
        fail_msg("type %s: %s", text, err.message);
    return t;
}

sv_value o3t_json(sv_doc *doc, const char *text)
{
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_o3de_read(doc, text, strlen(text), NULL, &v, &err) != SV_OK)
        fail_msg("json %s: %s", text, err.message);
    return v;
}

const char *o3t_text(const sv_value *v)
{
    static char out[8192];
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_write(v, 0, &b, &err), SV_OK);
    size_t n = b.len < sizeof out - 1 ? b.len : sizeof out - 1;
    memcpy(out, b.data, n);
    out[n] = 0;
    sv_buf_free(&b);
    return out;
}

void o3t_load_case(const char *type, const char *start_json, const char *json_in,
                   const char *expected_value, sv_o3de_outcome outcome,
                   sv_o3de_processing processing, bool clear_containers)
{
    const sv_type *t = o3t_type(type);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_value v;
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    sv_o3de_result r;
    if (start_json) {
        sv_value sj = o3t_json(doc, start_json);
        assert_int_equal(sv_o3de_load(o3t_schema(), t, &sj, doc, &v, &o, &r, &err), SV_OK);
    }
    o.clear_containers = clear_containers;
    sv_value j = o3t_json(doc, json_in);
    assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
    if (sv_o3de_result_outcome(r) != outcome || sv_o3de_result_processing(r) != processing)
        fail_msg("%s <- %s: got %s/%s, want %s/%s", type, json_in,
                 sv_o3de_processing_name(sv_o3de_result_processing(r)),
                 sv_o3de_outcome_name(sv_o3de_result_outcome(r)),
                 sv_o3de_processing_name(processing), sv_o3de_outcome_name(outcome));
    if (expected_value) {
        sv_o3de_opts k;
        sv_o3de_opts_init(&k);
        k.keep_defaults = true;
        sv_value out;
        assert_int_equal(sv_o3de_store(o3t_schema(), t, &v, NULL, doc, &out, &k, &r, &err), SV_OK);
        const char *got = o3t_text(&out);
        if (strcmp(got, expected_value) != 0)
            fail_msg("%s <- %s: value %s, want %s", type, json_in, got, expected_value);
    }
    sv_doc_free(doc);
}

void o3t_store_case(const char *type, const char *json_in, const char *stripped,
                    const char *kept)
{
    const sv_type *t = o3t_type(type);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_value v;
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    sv_o3de_result r;
    sv_value j = o3t_json(doc, json_in);
    assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
    if (sv_o3de_result_processing(r) == SV_O3DE_HALTED) fail_msg("%s <- %s halted", type, json_in);
    for (int keep = 0; keep < 2; keep++) {
        const char *want = keep ? kept : stripped;
        if (!want) continue;
        o.keep_defaults = keep;
        sv_value out;
        /* as O3DE's serializer tests do, the stripped form is stored
         * against a default instance of the type */
        sv_value def;
        assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &def, &err), SV_OK);
        assert_int_equal(sv_o3de_store(o3t_schema(), t, &v, keep ? NULL : &def, doc, &out, &o, &r, &err),
                         SV_OK);
        const char *got = o3t_text(&out);
        if (strcmp(got, want) != 0)
            fail_msg("%s %s: %s, want %s", type, keep ? "kept" : "stripped", got, want);
    }
    sv_doc_free(doc);
}
