/* The concrete cases of O3DE's own JSON serialization unit tests
 * (AzCore/Tests/Serialization/Json/: BoolSerializerTests, IntSerializerTests,
 * DoubleSerializerTests, StringSerializerTests, TestCases_Classes,
 * TestCases_Enum, TestCases_Pointers, UuidSerializerTests,
 * MathVectorSerializerTests, ColorSerializerTests, MathMatrixSerializerTests,
 * AnySerializerTests, container and map tests), each with O3DE's exact
 * expected text and result. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_o3de.h"

#define OK SV_O3DE_COMPLETED
#define ALT SV_O3DE_ALTERED
#define PALT SV_O3DE_PARTIAL_ALTER
#define HALT SV_O3DE_HALTED

typedef struct load_vec {
    const char *type, *start, *json, *value;
    sv_o3de_outcome outcome;
    sv_o3de_processing processing;
} load_vec;

static const load_vec primitive_vectors[] = {
    /* BoolSerializerTests */
    {"bool", "true", "\"fALse\"", "false", SV_O3DE_SUCCESS, OK},
    {"bool", NULL, "\"tRuE\"", "true", SV_O3DE_SUCCESS, OK},
    {"bool", "true", "\"0.0f\"", "false", SV_O3DE_SUCCESS, OK},
    {"bool", "true", "\"0eee\"", "false", SV_O3DE_SUCCESS, OK},
    {"bool", NULL, "\"1.0f\"", "true", SV_O3DE_SUCCESS, OK},
    {"bool", NULL, "\"-1.0f\"", "true", SV_O3DE_SUCCESS, OK},
    {"bool", "true", "\"0.5\"", "false", SV_O3DE_SUCCESS, OK},
    {"bool", NULL, "\"ee0\"", "false", SV_O3DE_UNSUPPORTED, ALT},
    {"bool", NULL, "\"\"", "false", SV_O3DE_UNSUPPORTED, ALT},
    {"bool", NULL, "\"   \"", "false", SV_O3DE_UNSUPPORTED, ALT},
    {"bool", NULL, "\"Invalid\"", "false", SV_O3DE_UNSUPPORTED, ALT},
    {"bool", "true", "-0.0", "false", SV_O3DE_SUCCESS, OK},
    {"bool", NULL, "0.0001", "true", SV_O3DE_SUCCESS, OK},
    {"bool", NULL, "[]", "false", SV_O3DE_UNSUPPORTED, ALT},
    {"bool", NULL, "null", "false", SV_O3DE_UNSUPPORTED, ALT},
    {"bool", "true", "{}", "true", SV_O3DE_DEFAULTS_USED, OK},
    /* IntSerializerTests */
    {"i32", NULL, "\"12.6\"", "12", SV_O3DE_SUCCESS, OK},
    {"i32", NULL, "12.6", "12", SV_O3DE_SUCCESS, OK},
    {"i32", NULL, "-12.6", "-12", SV_O3DE_SUCCESS, OK},
    {"u32", NULL, "\"-34\"", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"i32", NULL, "\"-34\"", "-34", SV_O3DE_SUCCESS, OK},
    {"i32", NULL, "\"34 Hello\"", "34", SV_O3DE_SUCCESS, OK},
    {"i32", NULL, "\".5\"", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"i32", NULL, "\"-.5\"", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"i32", NULL, "\"hello 2.4\"", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"i32", NULL, "\"0x1F\"", "31", SV_O3DE_SUCCESS, OK},
    {"i32", NULL, "\"010\"", "8", SV_O3DE_SUCCESS, OK},
    {"i32", NULL, "true", "1", SV_O3DE_SUCCESS, OK},
    {"i8", NULL, "127", "127", SV_O3DE_SUCCESS, OK},
    {"i8", "5", "128", "5", SV_O3DE_UNSUPPORTED, ALT},
    {"i8", NULL, "-128", "-128", SV_O3DE_SUCCESS, OK},
    {"u8", NULL, "255", "255", SV_O3DE_SUCCESS, OK},
    {"u8", "7", "256", "7", SV_O3DE_UNSUPPORTED, ALT},
    {"u8", NULL, "\"255\"", "255", SV_O3DE_SUCCESS, OK},
    {"u16", NULL, "65535", "65535", SV_O3DE_SUCCESS, OK},
    {"i16", NULL, "\"-32768\"", "-32768", SV_O3DE_SUCCESS, OK},
    {"i64", NULL, "-9223372036854775808", "-9223372036854775808", SV_O3DE_SUCCESS, OK},
    {"i64", NULL, "\"9223372036854775807\"", "9223372036854775807", SV_O3DE_SUCCESS, OK},
    {"i64", NULL, "\"9223372036854775808\"", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"u64", NULL, "18446744073709551615", "18446744073709551615", SV_O3DE_SUCCESS, OK},
    {"u64", NULL, "\"18446744073709551615\"", "18446744073709551615", SV_O3DE_SUCCESS, OK},
    {"u32", NULL, "-0.5", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"i32", NULL, "{\"a\":1}", "0", SV_O3DE_UNSUPPORTED, ALT},
    /* DoubleSerializerTests */
    {"f32", "42.0", "1.7976931348623157e308", "42.0", SV_O3DE_UNSUPPORTED, ALT},
    /* 2.4f widened, in O3DE's RapidJSON digits (1.1.0 wrote ...318) */
    {"f32", NULL, "\"2.4 42.0\"", "2.4000000953674316", SV_O3DE_SUCCESS, OK},
    {"f64", NULL, "\"2.4 hello\"", "2.4", SV_O3DE_SUCCESS, OK},
    {"f64", NULL, "\"12.5f\"", "12.5", SV_O3DE_SUCCESS, OK},
    {"f64", NULL, "\"42\"", "42.0", SV_O3DE_SUCCESS, OK},
    {"f64", NULL, "\"hello 2.4\"", "0.0", SV_O3DE_UNSUPPORTED, ALT},
    {"f64", NULL, "\"\"", "0.0", SV_O3DE_UNSUPPORTED, ALT},
    {"f64", NULL, "true", "1.0", SV_O3DE_SUCCESS, OK},
    {"f64",
     NULL,
     "\"1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\"",
     "0.0", SV_O3DE_UNSUPPORTED, ALT},
    /* StringSerializerTests */
    {"string", NULL, "3.1415", "\"3.141500\"", SV_O3DE_SUCCESS, OK},
    {"string", NULL, "true", "\"True\"", SV_O3DE_SUCCESS, OK},
    {"string", NULL, "false", "\"False\"", SV_O3DE_SUCCESS, OK},
    {"string", NULL, "-42", "\"-42\"", SV_O3DE_SUCCESS, OK},
    {"string", "\"keep\"", "{}", "\"keep\"", SV_O3DE_DEFAULTS_USED, OK},
    {"string", NULL, "null", "\"\"", SV_O3DE_UNSUPPORTED, ALT},
    /* UuidSerializerTests */
    {"uuid", NULL, "\"{8651B6DA-9792-407C-A46D-A6E2E39CA900}\"",
     "\"{8651B6DA-9792-407C-A46D-A6E2E39CA900}\"", SV_O3DE_SUCCESS, OK},
    {"uuid", NULL, "\"{8651b6da9792407ca46da6e2e39ca900}\"",
     "\"{8651B6DA-9792-407C-A46D-A6E2E39CA900}\"", SV_O3DE_SUCCESS, OK},
    {"uuid", NULL, "\"Hello{8651B6DA-9792-407C-A46D-A6E2E39CA900}world\"",
     "\"{8651B6DA-9792-407C-A46D-A6E2E39CA900}\"", SV_O3DE_SUCCESS, OK},
    {"uuid", NULL, "\"8651B6DA-9792-407C-A46D-A6E2E39CA900\"",
     "\"{00000000-0000-0000-0000-000000000000}\"", SV_O3DE_UNSUPPORTED, ALT},
    {"uuid", "\"{8651B6DA-9792-407C-A46D-A6E2E39CA900}\"", "\"{8651B6DA-9792-407C-A46D-AXXX39CA900}\"",
     "\"{8651B6DA-9792-407C-A46D-A6E2E39CA900}\"", SV_O3DE_UNSUPPORTED, ALT},
    {"uuid", NULL, "\"{51CD2896-A963-4CA1-AE9039AEBDA72364}\"",
     "\"{00000000-0000-0000-0000-000000000000}\"", SV_O3DE_UNSUPPORTED, ALT},
    {"uuid", NULL, "\"{00000000-0000-0000-0000-000000000000}\"",
     "\"{00000000-0000-0000-0000-000000000000}\"", SV_O3DE_DEFAULTS_USED, OK},
    {"uuid", NULL, "42", "\"{00000000-0000-0000-0000-000000000000}\"", SV_O3DE_UNSUPPORTED, ALT},
    /* MathVectorSerializerTests */
    {"vector3", NULL, "[1.0,2.0,3.0,4.0]", "[1.0,2.0,3.0]", SV_O3DE_SUCCESS, OK},
    {"vector3", NULL, "{\"X\":1.0,\"Z\":3.0}", "[1.0,0.0,3.0]", SV_O3DE_PARTIAL_DEFAULTS, OK},
    {"vector3", NULL, "{\"x\":1.0,\"y\":2.0,\"z\":3.0}", "[1.0,2.0,3.0]", SV_O3DE_SUCCESS, OK},
    {"vector3", NULL, "[1.0,2.0]", "[0.0,0.0,0.0]", SV_O3DE_UNSUPPORTED, ALT},
    {"vector2", NULL, "[\"1.5\",true]", "[1.5,1.0]", SV_O3DE_SUCCESS, OK},
    {"vector4", NULL, "[1.0,2.0,3.0,4.0]", "[1.0,2.0,3.0,4.0]", SV_O3DE_SUCCESS, OK},
    {"quaternion", NULL, "[0.0,0.0,0.0,1.0]", "[0.0,0.0,0.0,1.0]", SV_O3DE_SUCCESS, OK},
    /* ColorSerializerTests */
    {"color", "[0.0,0.0,0.0,0.30000001192092896]", "[1.0,0.1,0.5]",
     "[1.0,0.10000000149011612,0.5,0.30000001192092896]", SV_O3DE_PARTIAL_DEFAULTS, OK},
    {"color", NULL, "[1.0,0.1,0.5,0.8]", "[1.0,0.10000000149011612,0.5,0.800000011920929]",
     SV_O3DE_SUCCESS, OK},
    {"color", NULL, "[1,0,0]", "[0.0,0.0,0.0,0.0]", SV_O3DE_UNSUPPORTED, ALT},
    {"color", NULL, "{\"rGb\":[1.0,0.1,0.5]}", "[1.0,0.10000000149011612,0.5,0.0]", SV_O3DE_SUCCESS,
     OK},
    {"color", NULL, "{\"RGB8\":[255,51,204]}", "[1.0,0.20000000298023224,0.800000011920929,0.0]",
     SV_O3DE_SUCCESS, OK},
    {"color", NULL, "{\"HEX\":\"FF33CC\"}", "[1.0,0.20000000298023224,0.800000011920929,0.0]",
     SV_O3DE_SUCCESS, OK},
    {"color", NULL, "{\"HEXA\":\"FF33CC99\"}",
     "[1.0,0.20000000298023224,0.800000011920929,0.6000000238418579]", SV_O3DE_SUCCESS, OK},
    {"color", NULL, "{\"HEX\":\"FF33\"}", "[0.0,0.0,0.0,0.0]", SV_O3DE_UNSUPPORTED, ALT},
    {"color", NULL, "{\"HEXA\":\"FF33CC99FF33CC and a comment\"}",
     "[1.0,0.20000000298023224,0.800000011920929,0.6000000238418579]", SV_O3DE_SUCCESS, OK},
    {"color", NULL, "{\"HEX\":\"FFXXCC\"}", "[0.0,0.0,0.0,0.0]", SV_O3DE_UNSUPPORTED, ALT},
    {"color", NULL, "{\"RGB\":[1.0,0.9,0.8],\"RGBA\":[1.0,0.1,0.5,0.8],\"Hello\":\"World\"}",
     "[1.0,0.10000000149011612,0.5,0.800000011920929]", SV_O3DE_SUCCESS, OK},
};

static void test_primitive_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof primitive_vectors / sizeof *primitive_vectors; i++) {
        const load_vec *v = &primitive_vectors[i];
        o3t_load_case(v->type, v->start, v->json, v->value, v->outcome, v->processing, false);
    }
}

static const load_vec enum_vectors[] = {
    /* TestCases_Enum.cpp */
    {"U8Enum", NULL, "255", "255", SV_O3DE_SUCCESS, OK},
    {"U8Enum", NULL, "256", "\"A\"", SV_O3DE_UNSUPPORTED, ALT},
    {"U16Enum", NULL, "\"2\"", "2", SV_O3DE_SUCCESS, OK},
    {"U16Enum", NULL, "\"-1\"", "\"Flags0\"", SV_O3DE_UNSUPPORTED, ALT},
    {"U16Enum", NULL, "\"flags3\"", "\"Flags3\"", SV_O3DE_SUCCESS, OK},
    {"U16Enum", NULL, "\"\"", "\"Flags0\"", SV_O3DE_DEFAULTS_USED, OK},
    {"U16Enum", NULL, "1.0", "\"Flags0\"", SV_O3DE_UNSUPPORTED, ALT},
    {"U16Enum", NULL, "\"Johannesburg\"", "\"Flags0\"", SV_O3DE_UNSUPPORTED, ALT},
    {"S16Enum", NULL, "[\"32769\"]", "0", SV_O3DE_UNSUPPORTED, ALT},
    {"S8Enum", NULL, "1", NULL, SV_O3DE_UNKNOWN, HALT},
    {"BitFlagsS64", NULL, "[\"BitFlag1And2\",\"BitFlag2And4\",160]",
     /* 3|10|160 = 171, written back by spec §6.2's algorithm */
     "[\"BitFlag2And4\",\"BitFlag4\",\"BitFlag1And2\",\"BitFlag2\",\"BitFlag1\",160]", SV_O3DE_SUCCESS, OK},
    {"BitFlagsS64", NULL, "[true]", "\"BitFlag0\"", SV_O3DE_UNSUPPORTED, ALT},
    {"BitFlagsS64", NULL, "null", "\"BitFlag0\"", SV_O3DE_UNSUPPORTED, ALT},
    {"BitFlagsS64", NULL, "\"2abc\"", "\"BitFlag2\"", SV_O3DE_SUCCESS, OK},
};

static void test_enum_load(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof enum_vectors / sizeof *enum_vectors; i++) {
        const load_vec *v = &enum_vectors[i];
        o3t_load_case(v->type, v->start, v->json, v->value, v->outcome, v->processing, false);
    }
}

typedef struct store_vec {
    const char *type, *json, *stripped, *kept;
} store_vec;

static const store_vec enum_store[] = {
    /* TestCases_Enum.cpp (ScopedEnumBitFlagsS64) */
    {"BitFlagsS64", "4", "\"BitFlag3\"", "\"BitFlag3\""},
    {"BitFlagsS64", "0", "{}", "\"BitFlag0\""},
    {"NoZeroFlags", "0", "{}", "0"},
    {"BitFlagsS64", "13", "[\"BitFlag4\",\"BitFlag3\",\"BitFlag1\"]", NULL},
    {"BitFlagsS64", "46605", "[\"BitFlag4\",\"BitFlag3\",\"BitFlag1\",46592]", NULL},
    {"BitFlagsS64", "10", "\"BitFlag2And4\"", NULL},
    {"BitFlagsS64", "7", "[\"BitFlag3\",\"BitFlag1And2\",\"BitFlag2\",\"BitFlag1\"]", NULL},
    {"NoZeroFlags", "[\"BitFlagNegative\",13]",
     "[\"BitFlagNegative\",\"BitFlag4\",\"BitFlag3\",\"BitFlag1\"]", NULL},
    /* the documentation's ExampleEnum, as the code writes it (spec §6.2) */
    {"DocEnum", "255", "[\"Flag4\",\"Flag2Flag3Combo\",\"Flag2\",\"Flag1\",240]", NULL},
    {"DocEnum", "10", "[\"Flag4\",\"Flag2\"]", NULL},
    {"DocEnum", "4", "4", NULL},
    {"DocEnum", "9", "[\"Flag4\",\"Flag1\"]", NULL},
    {"DocEnum", "5", "[\"Flag1\",4]", NULL},
    {"DocEnum", "7", "[\"Flag2Flag3Combo\",\"Flag2\",\"Flag1\"]", NULL},
    {"DocEnum", "24", "[\"Flag4\",16]", NULL},
};

static void test_enum_store(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof enum_store / sizeof *enum_store; i++)
        o3t_store_case(enum_store[i].type, enum_store[i].json, enum_store[i].stripped,
                       enum_store[i].kept);
}

static const store_vec class_store[] = {
    /* TestCases_Classes.cpp */
    {"SimpleClass", "{}", "{}", "{\"var1\":42,\"var2\":42.0}"},
    {"SimpleClass", "{\"var1\":88}", "{\"var1\":88}", "{\"var1\":88,\"var2\":42.0}"},
    {"SimpleInheritence", "{\"var1\":88}", "{\"var1\":88}",
     "{\"base_var\":-42.0,\"var1\":88,\"var2\":42.0}"},
    {"MultipleInheritence", "{\"var1\":88,\"base2_var1\":-88.0}", "{\"base2_var1\":-88.0,\"var1\":88}",
     "{\"base_var\":-42.0,\"base2_var1\":-88.0,\"base2_var2\":-233.0,\"base2_var3\":-333.0,\"var1\":88,"
     "\"var2\":42.0}"},
    {"SimpleNested", "{\"nested\":{\"var1\":88}}", "{\"nested\":{\"var1\":88}}",
     "{\"nested\":{\"var1\":88,\"var2\":42.0},\"var_additional\":42}"},
    {"SimpleEnumWrapper", "{\"enumClass\":\"Option2\"}", "{\"enumClass\":\"Option2\"}",
     "{\"enumClass\":\"Option2\",\"rawEnum\":0}"},
    {"NonReflectedEnumWrapper", "{\"enumClass\":2}", "{\"enumClass\":2}",
     "{\"enumClass\":2,\"rawEnum\":0}"},
    /* case-insensitive field names */
    {"SimpleClass", "{\"VAR1\":88}", "{\"var1\":88}", NULL},
    /* TestCases_Pointers.cpp */
    {"ComplexNullInheritedPointer", "{\"pointer\":{\"$type\":\"SimpleInheritence\",\"var2\":88.0}}",
     "{\"pointer\":{\"$type\":\"SimpleInheritence\",\"var2\":88.0}}",
     "{\"pointer\":{\"$type\":\"SimpleInheritence\",\"base_var\":-42.0,\"var1\":42,\"var2\":88.0}}"},
    {"SimpleNullPointer", "{\"pointer2\":88}", "{\"pointer2\":88}",
     "{\"pointer1\":null,\"pointer2\":88}"},
    /* containers (BasicContainer, UnorderedSet, Map, Tuple, Array tests) */
    {"vector<i32>", "[13,42,88]", "[13,42,88]", "[13,42,88]"},
    {"vector<i32>", "[188,0,388]", "[188,{},388]", "[188,0,388]"},
    {"vector<i32>", "[0]", "[{}]", "[0]"},
    {"uset<i32>", "[42,-88,342]", "[-88,42,342]", NULL},
    {"set<i32>", "[342,42,-88]", "[-88,42,342]", NULL},
    {"map<string,f64>", "{\"a\":142.0,\"b\":242.0,\"c\":342.0}", "{\"a\":142.0,\"b\":242.0,\"c\":342.0}",
     NULL},
    {"map<i32,f64>", "[{\"Key\":142,\"Value\":142.0},{\"Key\":242,\"Value\":242.0},{\"Key\":342,\"Value\":342.0}]",
     "[{\"Key\":142,\"Value\":142.0},{\"Key\":242,\"Value\":242.0},{\"Key\":342,\"Value\":342.0}]", NULL},
    {"map<i32,f64>", "{\"{}\":{}}", "{\"{}\":{}}", NULL},
    {"umap<string,string>", "{\"{}\":\"World\"}", "{\"{}\":\"World\"}", NULL},
    {"pair<i32,f64>", "[0,288.0]", "[{},288.0]", NULL},
    {"pair<i32,f64>", "[188,288.0]", "[188,288.0]", NULL},
    {"tuple<i32,f64,f32>", "[0,288.0,0.0]", "[{},288.0,{}]", NULL},
    {"tuple<vector<i32>,pair<i32,string>>", "[[188,288,388],[488,\"hello\"]]",
     "[[188,288,388],[488,\"hello\"]]", NULL},
    {"tuple<vector<i32>,pair<i32,string>>", "[[],[0,\"hello\"]]", "[{},[{},\"hello\"]]", NULL},
    {"array<i32,4>", "[10,0,30,0]", "[10,{},30,{}]", NULL},
    {"vector<SimpleClass>", "[{\"var1\":10},{},{\"var2\":688.0}]", "[{\"var1\":10},{},{\"var2\":688.0}]",
     NULL},
    {"vector<ptr<i32>>", "[42,null,43]", "[42,null,43]", "[42,null,43]"},
    {"vector<ptr<BaseClass>>", "[{\"$type\":\"SimpleInheritence\",\"var2\":88.0},{\"$type\":\"SimpleInheritence\"},null]",
     "[{\"$type\":\"SimpleInheritence\",\"var2\":88.0},{\"$type\":\"SimpleInheritence\"},null]", NULL},
    {"Vec3Holder", "{\"v\":[1.0,2.0,3.0]}", "{\"v\":[1.0,2.0,3.0]}", NULL},
};

static void test_store_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof class_store / sizeof *class_store; i++)
        o3t_store_case(class_store[i].type, class_store[i].json, class_store[i].stripped,
                       class_store[i].kept);
}

static const load_vec class_load[] = {
    {"SimpleClass", NULL, "{}", "{\"var1\":42,\"var2\":42.0}", SV_O3DE_DEFAULTS_USED, OK},
    {"SimpleClass", NULL, "{\"var1\":88}", "{\"var1\":88,\"var2\":42.0}", SV_O3DE_PARTIAL_DEFAULTS, OK},
    {"SimpleClass", NULL, "{\"var1\":88,\"var2\":1.0}", "{\"var1\":88,\"var2\":1.0}", SV_O3DE_SUCCESS, OK},
    {"SimpleClass", NULL, "{\"var1\":88,\"var2\":1.0,\"extra\":1}", "{\"var1\":88,\"var2\":1.0}",
     SV_O3DE_PARTIAL_SKIP, OK},
    {"SimpleClass", NULL, "{\"var1\":[],\"var2\":1.0}", "{\"var1\":42,\"var2\":1.0}",
     SV_O3DE_UNSUPPORTED, PALT},
    {"SimpleClass", NULL, "[]", "{\"var1\":42,\"var2\":42.0}", SV_O3DE_UNSUPPORTED, ALT},
    /* TestCases_Pointers: $type resolution */
    {"ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"BaseClass\"}}",
     "{\"pointer\":{\"base_var\":-42.0}}", SV_O3DE_DEFAULTS_USED, OK},
    {"ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"    SimpleInheritence    \"}}",
     "{\"pointer\":{\"$type\":\"SimpleInheritence\",\"base_var\":-42.0,\"var1\":42,\"var2\":42.0}}",
     SV_O3DE_DEFAULTS_USED, OK},
    {"ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"Invalid\"}}", "{\"pointer\":null}",
     SV_O3DE_UNKNOWN, HALT},
    {"ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"SimpleClass\"}}", "{\"pointer\":null}",
     SV_O3DE_TYPE_MISMATCH, HALT},
    {"ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":42}}", "{\"pointer\":null}",
     SV_O3DE_UNKNOWN, HALT},
    {"ComplexNullInheritedPointer", NULL,
     "{\"pointer\":{\"$type\":\"Some comments {0CC36DD4-2337-40B4-A86C-69C452C48555} Vector3\"}}",
     "{\"pointer\":{\"$type\":\"MultipleInheritence\",\"base_var\":-42.0,\"base2_var1\":-133.0,"
     "\"base2_var2\":-233.0,\"base2_var3\":-333.0,\"var1\":42,\"var2\":42.0}}",
     SV_O3DE_DEFAULTS_USED, OK},
    {"ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"{9E69A37B-0000-4D0A-8E0C-6F8C1C0E4B11}\"}}",
     "{\"pointer\":null}", SV_O3DE_UNKNOWN, HALT},
    /* containers */
    {"vector<i32>", NULL, "[13,42,88]", "[13,42,88]", SV_O3DE_SUCCESS, OK},
    {"vector<i32>", "[1]", "[2]", "[1,2]", SV_O3DE_SUCCESS, OK},
    {"vector<i32>", NULL, "[{}]", "[0]", SV_O3DE_PARTIAL_DEFAULTS, OK},
    {"vector<i32>", NULL, "[]", "[]", SV_O3DE_SUCCESS, OK},
    {"vector<i32>", NULL, "{\"a\":1}", "[]", SV_O3DE_UNSUPPORTED, ALT},
    {"uset<i32>", NULL, "[188,288,288,388]", "[188,288,388]", SV_O3DE_UNAVAILABLE, PALT},
    {"array<i32,2>", NULL, "[1]", "[0,0]", SV_O3DE_UNSUPPORTED, ALT},
    {"array<i32,2>", NULL, "[1,2,3]", "[1,2]", SV_O3DE_PARTIAL_SKIP, OK},
    {"pair<i32,f64>", NULL, "[1]", "[0,0.0]", SV_O3DE_UNSUPPORTED, ALT},
    {"umap<string,string>", NULL, "{\"Hello\":\"World\",\"Hello\":\"Other\"}", "{\"Hello\":\"Other\"}",
     SV_O3DE_SUCCESS, OK},
    {"map<i32,f64>", NULL, "{\"5\":1.0}", "[{\"Key\":5,\"Value\":1.0}]", SV_O3DE_SUCCESS, OK},
    {"map<i32,f64>", NULL, "true", "[]", SV_O3DE_UNSUPPORTED, ALT},
};

static void test_class_and_container_load(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof class_load / sizeof *class_load; i++) {
        const load_vec *v = &class_load[i];
        o3t_load_case(v->type, v->start, v->json, v->value, v->outcome, v->processing, false);
    }
}

static void test_clear_containers(void **state)
{
    (void)state;
    o3t_load_case("vector<i32>", "[1]", "[2]", "[2]", SV_O3DE_SUCCESS, OK, true);
    o3t_load_case("map<string,i32>", "{\"a\":1}", "{\"b\":2}", "{\"b\":2}", SV_O3DE_SUCCESS, OK, true);
}



/* The load cases kept as data in tests/vectors/o3de/cases/ (one JSON
 * object a line: source, type, optional start, json, value, outcome,
 * processing; the JSON texts are strings, as O3DE tells 1 from 1.0):
 * matrix.jsonl holds MathMatrixSerializerTests' 9 object-form loads and 6
 * array loads (from CreateZero(), so a value left alone shows) and more of
 * spec §11.3;
 * any.jsonl AnySerializerTests' and JsonAnySerializer's cases. The CLI runs
 * the same files (tests/cli/cases/o3de-vector-cases). */
#define CASES "vectors/o3de/cases/"

static const char *member_text(const sv_value *line, const char *name)
{
    size_t n;
    const sv_value *m = sv_map_getz(line, name);
    return m ? sv_get_str(m, &n) : NULL;
}

static sv_o3de_outcome outcome_named(const char *name)
{
    for (int o = SV_O3DE_SUCCESS; o <= SV_O3DE_CATASTROPHIC; o++)
        if (strcmp(sv_o3de_outcome_name((sv_o3de_outcome)o), name) == 0) return (sv_o3de_outcome)o;
    fail_msg("unknown outcome %s", name);
    return SV_O3DE_CATASTROPHIC;
}

static sv_o3de_processing processing_named(const char *name)
{
    for (int p = SV_O3DE_COMPLETED; p <= SV_O3DE_HALTED; p++)
        if (strcmp(sv_o3de_processing_name((sv_o3de_processing)p), name) == 0)
            return (sv_o3de_processing)p;
    fail_msg("unknown processing %s", name);
    return SV_O3DE_HALTED;
}

/* Runs every line of the file; returns how many there were. */
static size_t run_case_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (run from tests/)", path);
    char line[4096];
    size_t count = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (len < 2) continue;
        assert_true(line[len - 1] == '\n'); /* no line longer than the buffer */
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v = o3t_json(doc, line);
        const char *type = member_text(&v, "type"), *json = member_text(&v, "json");
        const char *value = member_text(&v, "value"), *outcome = member_text(&v, "outcome");
        const char *processing = member_text(&v, "processing");
        if (!type || !json || !value || !outcome || !processing)
            fail_msg("%s: line %zu lacks a member", path, count + 1);
        o3t_load_case(type, member_text(&v, "start"), json, value, outcome_named(outcome),
                      processing_named(processing), false);
        sv_doc_free(doc);
        count++;
    }
    fclose(f);
    return count;
}

static void test_matrix_load(void **state)
{
    (void)state;
    assert_int_equal(run_case_file(CASES "matrix.jsonl"), 25);
}

static void test_any_load(void **state)
{
    (void)state;
    assert_int_equal(run_case_file(CASES "any.jsonl"), 29);
}

/* Rotations: degrees about X (roll), Y (pitch) and Z (yaw), combined as
 * Rx * Ry * Rz, then scaled and translated. Checked against the rotation
 * matrices themselves within O3DE's own test tolerance (its sin and cos
 * are its own approximations, so the last bits may differ). */
static void check_matrix(const char *type, const char *json, sv_o3de_outcome outcome,
                         const float *want, size_t n)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *t = o3t_type(type);
    sv_value v;
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    sv_o3de_result r;
    sv_value j = o3t_json(doc, json);
    assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_result_outcome(r), outcome);
    assert_int_equal(v.len, n);
    for (size_t i = 0; i < n; i++)
        if (fabs(sv_number_at(&v, i) - want[i]) > 1e-6)
            fail_msg("%s <- %s: element %zu is %.9g, want %g", type, json, i, sv_number_at(&v, i),
                     (double)want[i]);
    sv_doc_free(doc);
}

/* The floats of a math value loaded from json. */
static void load_floats(const char *type, const char *json, float *out, size_t n)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *t = o3t_type(type);
    sv_value v;
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    sv_o3de_result r;
    sv_value j = o3t_json(doc, json);
    assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
    assert_int_equal(v.len, n);
    for (size_t i = 0; i < n; i++) out[i] = (float)sv_number_at(&v, i);
    sv_doc_free(doc);
}

/* O3DE turns degrees into radians with Vector3DegToRad for both the
 * matrix's object form and the quaternion's Euler form, so a roll of d
 * degrees gives the matrix that Matrix3x3::CreateFromQuaternion makes of
 * the quaternion loaded from [d, 0, 0], bit for bit: rows (1, 0, 0),
 * (0, 1 - 2x*x, -2x*w), (0, 2x*w, 1 - 2x*x). The angles are ones where
 * deg * (Pi / 180) and deg * Pi / 180 round apart. */
static void test_matrix_degrees_as_quaternion_degrees(void **state)
{
    (void)state;
    static const int degrees[] = {7, 11, 13, 37, 311, -111, -150, -199};
    for (size_t i = 0; i < sizeof degrees / sizeof *degrees; i++) {
        char qjson[64], mjson[64];
        snprintf(qjson, sizeof qjson, "{\"roll\":%d.0,\"pitch\":0.0,\"yaw\":0.0}", degrees[i]);
        snprintf(mjson, sizeof mjson, "{\"roll\":%d.0}", degrees[i]);
        float q[4], m[9];
        load_floats("quaternion", qjson, q, 4);
        load_floats("matrix3x3", mjson, m, 9);
        float tx = 2.0f * q[0];
        float want[9] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f - tx * q[0], -(tx * q[3]),
                         0.0f, tx * q[3], 1.0f - tx * q[0]};
        for (size_t k = 0; k < 9; k++)
            if (memcmp(&m[k], &want[k], sizeof m[k]) != 0 && !(m[k] == 0.0f && want[k] == 0.0f))
                fail_msg("roll %d: element %zu is %.9g, the quaternion's %.9g", degrees[i], k,
                         (double)m[k], (double)want[k]);
    }
}

static void test_matrix_rotations(void **state)
{
    (void)state;
    static const float rx90[9] = {1, 0, 0, 0, 0, -1, 0, 1, 0};
    check_matrix("matrix3x3", "{\"roll\":90.0}", SV_O3DE_PARTIAL_DEFAULTS, rx90, 9);
    static const float ry90[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    check_matrix("matrix3x3", "{\"pitch\":90.0,\"scale\":1.0}", SV_O3DE_SUCCESS, ry90, 9);
    static const float rz90_scaled[12] = {0, -2, 0, 1, 2, 0, 0, 2, 0, 0, 2, 3};
    check_matrix("matrix3x4", "{\"yaw\":90.0,\"scale\":2.0,\"x\":1.0,\"y\":2.0,\"z\":3.0}",
                 SV_O3DE_SUCCESS, rz90_scaled, 12);
    /* Rx(90) * Rz(90), the product of the rotation matrices */
    static const float rx90_rz90[16] = {0, -1, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    check_matrix("matrix4x4", "{\"Roll\":90.0,\"Yaw\":90.0}", SV_O3DE_PARTIAL_DEFAULTS, rx90_rz90,
                 16);
}

/* MathMatrixSerializer's Store (StoreArray): a row-major array of the
 * floats widened to double, nothing when equal to the default
 * (SaveLoad_Identity_LoadsDefaultMatrixWithIdentity stores the identity
 * against the identity and reads back `{}`: the identity again). */
static const store_vec matrix_store[] = {
    {"matrix3x3", "[1.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,1.0]", "{}",
     "[1.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,1.0]"},
    {"matrix3x4", "[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0]", "{}",
     "[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0]"},
    {"matrix4x4", "[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0]", "{}",
     "[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0]"},
    {"matrix3x4", "[0.1,2.0,3.0,4.0,5.0,6.0,7.0,8.0,9.0,10.0,11.0,-0.5]",
     "[0.10000000149011612,2.0,3.0,4.0,5.0,6.0,7.0,8.0,9.0,10.0,11.0,-0.5]", NULL},
    /* the object form is read, the array form written */
    {"matrix4x4", "{\"scale\":10.0,\"x\":10.0,\"y\":20.0,\"z\":30.0}",
     "[10.0,0.0,0.0,10.0,0.0,10.0,0.0,20.0,0.0,0.0,10.0,30.0,0.0,0.0,0.0,1.0]", NULL},
};

static void test_matrix_store(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof matrix_store / sizeof *matrix_store; i++)
        o3t_store_case(matrix_store[i].type, matrix_store[i].json, matrix_store[i].stripped,
                       matrix_store[i].kept);
}

static const store_vec any_store[] = {
    {"any", "{\"$type\":\"SimpleClass\",\"Value\":{\"var1\":88}}",
     "{\"$type\":\"SimpleClass\",\"Value\":{\"var1\":88}}",
     "{\"$type\":\"SimpleClass\",\"Value\":{\"var1\":88,\"var2\":42.0}}"},
    /* a default value: "$type" alone */
    {"any", "{\"$type\":\"SimpleClass\"}", "{\"$type\":\"SimpleClass\"}",
     "{\"$type\":\"SimpleClass\",\"Value\":{\"var1\":42,\"var2\":42.0}}"},
    {"any", "{}", "{}", "{}"},
    /* a primitive has no default to strip against: written whatever it is */
    {"any", "{\"$type\":\"int\",\"Value\":0}", "{\"$type\":\"int\",\"Value\":0}",
     "{\"$type\":\"int\",\"Value\":0}"},
    {"any", "{\"$type\":\"double\",\"Value\":2.5}", "{\"$type\":\"double\",\"Value\":2.5}", NULL},
    /* AnySerializerTests' conformity types: the class in an any is stored
     * as it is outside one (TestCases_Classes' JSON, in "Value") */
    {"any", "{\"$type\":\"SimpleNested\",\"Value\":{\"nested\":{\"var1\":88}}}",
     "{\"$type\":\"SimpleNested\",\"Value\":{\"nested\":{\"var1\":88}}}",
     "{\"$type\":\"SimpleNested\",\"Value\":{\"nested\":{\"var1\":88,\"var2\":42.0},"
     "\"var_additional\":42}}"},
    {"any", "{\"$type\":\"SimpleEnumWrapper\",\"Value\":{\"enumClass\":\"Option2\"}}",
     "{\"$type\":\"SimpleEnumWrapper\",\"Value\":{\"enumClass\":\"Option2\"}}",
     "{\"$type\":\"SimpleEnumWrapper\",\"Value\":{\"enumClass\":\"Option2\",\"rawEnum\":0}}"},
    {"any", "{\"$type\":\"MultipleInheritence\",\"Value\":{\"var1\":88,\"base2_var1\":-88.0}}",
     "{\"$type\":\"MultipleInheritence\",\"Value\":{\"base2_var1\":-88.0,\"var1\":88}}", NULL},
    {"any", "{\"$type\":\"NonReflectedEnumWrapper\",\"Value\":{\"enumClass\":2}}",
     "{\"$type\":\"NonReflectedEnumWrapper\",\"Value\":{\"enumClass\":2}}",
     "{\"$type\":\"NonReflectedEnumWrapper\",\"Value\":{\"enumClass\":2,\"rawEnum\":0}}"},
    {"any",
     "{\"$type\":\"ComplexNullInheritedPointer\",\"Value\":{\"pointer\":{\"$type\":"
     "\"SimpleInheritence\",\"var2\":88.0}}}",
     "{\"$type\":\"ComplexNullInheritedPointer\",\"Value\":{\"pointer\":{\"$type\":"
     "\"SimpleInheritence\",\"var2\":88.0}}}",
     NULL},
    {"any", "{\"$type\":\"SimpleNullPointer\",\"Value\":{\"pointer2\":88}}",
     "{\"$type\":\"SimpleNullPointer\",\"Value\":{\"pointer2\":88}}",
     "{\"$type\":\"SimpleNullPointer\",\"Value\":{\"pointer1\":null,\"pointer2\":88}}"},
    /* AnySerializerTests Any2JSON_StoreAndLoad_Vector3: a math type by its
     * AZ_TYPE_INFO name, its value as its own serializer writes it */
    {"any", "{\"$type\":\"Vector3\",\"Value\":[9.0,-9.0,-81.0]}",
     "{\"$type\":\"Vector3\",\"Value\":[9.0,-9.0,-81.0]}", NULL},
    /* an empty any is a default field; a set one is written whole */
    {"AnyHolder", "{\"count\":3}", "{\"count\":3}", "{\"thing\":{},\"count\":3}"},
    {"AnyHolder", "{\"thing\":{\"$type\":\"BaseClass\"}}", "{\"thing\":{\"$type\":\"BaseClass\"}}", NULL},
};

static void test_any_store(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof any_store / sizeof *any_store; i++)
        o3t_store_case(any_store[i].type, any_store[i].json, any_store[i].stripped, any_store[i].kept);
}

typedef struct seen_reports {
    char text[2048];
} seen_reports;

static sv_o3de_result record(void *ctx, const char *message, sv_o3de_result result, const char *path)
{
    seen_reports *s = ctx;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s|%s|%s|%s\n", path,
             sv_o3de_task_name(sv_o3de_result_task(result)),
             sv_o3de_outcome_name(sv_o3de_result_outcome(result)), message);
    return result;
}

/* What O3DE reports for an unknown "$type": the Unknown issue, then the
 * DefaultsUsed result; and the matrix's issue at its member. */
static void report_case(const char *type, const char *json, const char *want)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *t = o3t_type(type);
    sv_value v;
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
    seen_reports s = {{0}};
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.report = record;
    o.report_ctx = &s;
    sv_o3de_result r;
    sv_value j = o3t_json(doc, json);
    assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
    assert_string_equal(s.text, want);
    sv_doc_free(doc);
}

static void test_any_and_matrix_reports(void **state)
{
    (void)state;
    report_case("any", "{\"$type\":\"Invalid\"}",
                "|ReadField|Unknown|Unable to find type id with the provided string.\n"
                "|ReadField|DefaultsUsed|JsonAnySerializer::Load created a default, empty AZStd::any\n");
    report_case("any", "{\"$type\":\"{9E69A37B-0000-4D0A-8E0C-6F8C1C0E4B11}\"}",
                "|ReadField|Success|Successfully read type id from json value.\n"
                "|ReadField|Success|JsonAnySerializer::Load failed to load a value matched the "
                "reported AZ TypeId. The C++ declaration may have been deleted or changed.\n");
    report_case("matrix3x3", "{\"scale\":0.0}",
                "/scale|Convert|Success|Successfully read floating point value.\n"
                "|ReadField|Success|Successfully read float.\n"
                "|ReadField|Unsupported|Scale can not be zero.\n");
    /* MathMatrixSerializer.cpp's texts for the array and the other JSON types */
    report_case("matrix3x4", "[1.0,2.0]",
                "|ReadField|Unsupported|Not enough numbers in JSON array to load math matrix from.\n");
    report_case("matrix4x4", "true",
                "|ReadField|Unsupported|Unsupported type. Math matrix can only be read from arrays or "
                "objects.\n");
    report_case("matrix3x3", "{\"scale\":1.0}",
                "/scale|Convert|Success|Successfully read floating point value.\n"
                "|ReadField|Success|Successfully read float.\n"
                "|ReadField|DefaultsUsed|Successfully read float.\n"
                "|ReadField|DefaultsUsed|Successfully read float.\n"
                "|ReadField|DefaultsUsed|Successfully read float.\n"
                "|ReadField|Success|Successfully read math matrix.\n"
                "|ReadField|Success|Successfully read math yaw, pitch, roll, and scale.\n"
                "|ReadField|DefaultsUsed|Using identity matrix for empty object.\n");
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
        cmocka_unit_test(test_primitive_vectors),
        cmocka_unit_test(test_enum_load),
        cmocka_unit_test(test_enum_store),
        cmocka_unit_test(test_store_vectors),
        cmocka_unit_test(test_class_and_container_load),
        cmocka_unit_test(test_clear_containers),
        cmocka_unit_test(test_matrix_load),
        cmocka_unit_test(test_matrix_rotations),
        cmocka_unit_test(test_matrix_degrees_as_quaternion_degrees),
        cmocka_unit_test(test_matrix_store),
        cmocka_unit_test(test_any_load),
        cmocka_unit_test(test_any_store),
        cmocka_unit_test(test_any_and_matrix_reports),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
