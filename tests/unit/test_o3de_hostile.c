/* Hostile input to the O3DE JSON layer: deep nesting, enormous numbers,
 * wrong JSON types in every kind of field, "$type" naming unknown or
 * unrelated classes, and schemas whose bases form a cycle. Each case gives
 * the result O3DE's serializers give for it (spec: primitives §8, classes
 * §4.1, enums §6.1, pointers §7.1, math §11) and leaves the value as O3DE
 * leaves it; nothing crashes, hangs or leaks (the sanitizer build runs this
 * too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_o3de.h"

#define OK SV_O3DE_COMPLETED
#define ALT SV_O3DE_ALTERED
#define PALT SV_O3DE_PARTIAL_ALTER
#define HALT SV_O3DE_HALTED

static const char simple_default[] = "{\"var1\":42,\"var2\":42.0}";

/* A class read from anything but an object: "Reading into targets of type
 * 'SimpleClass' is not supported." (Unsupported, value untouched). */
static void test_wrong_root_types(void **state)
{
    (void)state;
    static const char *const inputs[] = {"[1,2]", "\"str\"", "null", "true", "42", "-0.5", "[]", "[{}]"};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
        o3t_load_case("SimpleClass", NULL, inputs[i], simple_default, SV_O3DE_UNSUPPORTED, ALT, false);
}

static void test_wrong_field_types(void **state)
{
    (void)state;
    /* {} is the explicit default (DefaultsUsed, counts as loaded); [] into
     * an int is Unsupported: Completed + Altered = PartialAlter */
    o3t_load_case("SimpleClass", NULL, "{\"var1\":{},\"var2\":[]}", simple_default, SV_O3DE_UNSUPPORTED,
                  PALT, false);
    /* nested arrays into an int: one Unsupported, nothing else loaded */
    o3t_load_case("SimpleClass", NULL, "{\"var1\":[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}", simple_default,
                  SV_O3DE_UNSUPPORTED, PALT, false);
    o3t_load_case("SimpleClass", NULL, "{\"var1\":null,\"var2\":{\"a\":1}}", simple_default,
                  SV_O3DE_UNSUPPORTED, PALT, false);
    /* enums: an object is "Unsupported type. Enums must be read from an
     * array, string or number"; a bool in an array is Unsupported for that
     * element */
    o3t_load_case("SimpleEnumWrapper", NULL, "{\"enumClass\":{\"a\":1},\"rawEnum\":true}",
                  "{\"enumClass\":\"Option1\",\"rawEnum\":0}", SV_O3DE_UNSUPPORTED, PALT, false);
    /* math: vectors from a string, colours from a HEX that is a number */
    o3t_load_case("Vec3Holder", NULL, "{\"v\":\"abc\"}", "{\"v\":[0.0,0.0,0.0]}", SV_O3DE_UNSUPPORTED,
                  PALT, false);
    o3t_load_case("Vec3Holder", NULL, "{\"v\":[1.0,2.0]}", "{\"v\":[0.0,0.0,0.0]}",
                  SV_O3DE_UNSUPPORTED, PALT, false);
    o3t_load_case("ColorHolder", NULL, "{\"c\":{\"HEX\":42}}", "{\"c\":[0.0,0.0,0.0,0.0]}",
                  SV_O3DE_UNSUPPORTED, PALT, false);
    /* a pointer to int from an array */
    o3t_load_case("SimpleNullPointer", NULL, "{\"pointer1\":[1]}", "{\"pointer1\":null,\"pointer2\":null}",
                  SV_O3DE_UNSUPPORTED, PALT, false);
}

static void test_enormous_numbers(void **state)
{
    (void)state;
    /* beyond int32 as a number (a double for RapidJSON), beyond uint64, and
     * as text (strtoll's ERANGE): Convert/Unsupported, var1 untouched */
    o3t_load_case("SimpleClass", NULL, "{\"var1\":1e20}", simple_default, SV_O3DE_UNSUPPORTED, PALT, false);
    o3t_load_case("SimpleClass", NULL, "{\"var1\":99999999999999999999999}", simple_default,
                  SV_O3DE_UNSUPPORTED, PALT, false);
    o3t_load_case("SimpleClass", NULL, "{\"var1\":\"99999999999999999999\"}", simple_default,
                  SV_O3DE_UNSUPPORTED, PALT, false);
    o3t_load_case("SimpleClass", NULL, "{\"var1\":2147483648}", simple_default, SV_O3DE_UNSUPPORTED,
                  PALT, false);
    /* DBL_MAX-sized into a float: Unsupported, untouched */
    o3t_load_case("SimpleClass", NULL, "{\"var2\":1e300}", simple_default, SV_O3DE_UNSUPPORTED, PALT,
                  false);
    /* the extremes that do fit; -FLT_MAX widened to double is written
     * -3.4028234663852886e38 by O3DE's RapidJSON Writer (RapidJSON 1.1.0,
     * before upstream commit bb06211, wrote ...887e38) */
    o3t_load_case("SimpleClass", NULL, "{\"var1\":-2147483648,\"var2\":-3.4028234663852886e38}",
                  "{\"var1\":-2147483648,\"var2\":-3.4028234663852886e38}", SV_O3DE_SUCCESS, OK, false);
    /* a 500-digit number text into a float: strtod's ERANGE is Unsupported */
    char in[600];
    int n = snprintf(in, sizeof in, "{\"var2\":\"1");
    for (int i = 0; i < 500; i++) in[n++] = '0';
    snprintf(in + n, sizeof in - (size_t)n, "\"}");
    o3t_load_case("SimpleClass", NULL, in, simple_default, SV_O3DE_UNSUPPORTED, PALT, false);

    /* the reader: numbers beyond double (RapidJSON: "Number too big to be
     * stored in double") are refused, as O3DE's file reader refuses them */
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_read(doc, "[1e400]", 7, NULL, &v, &err), SV_ERR_RANGE);
    char big[420];
    big[0] = '[';
    for (int i = 1; i < 410; i++) big[i] = '9';
    big[410] = ']';
    assert_int_equal(sv_o3de_read(doc, big, 411, NULL, &v, &err), SV_ERR_RANGE);
    sv_doc_free(doc);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* 100000 nested arrays: refused by the reader's depth limit, no stack
     * exhaustion */
    size_t depth = 100000;
    char *text = malloc(2 * depth);
    assert_non_null(text);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_read(doc, text, 2 * depth, NULL, &v, &err), SV_ERR_DEPTH);
    /* 1000 levels (within the reader's limit) into an int field: one
     * Unsupported, nothing walked below */
    size_t d2 = 1000;
    char *t2 = malloc(2 * d2 + 32);
    assert_non_null(t2);
    size_t k = (size_t)sprintf(t2, "{\"var1\":");
    memset(t2 + k, '[', d2);
    memset(t2 + k + d2, ']', d2);
    strcpy(t2 + k + 2 * d2, "}");
    o3t_load_case("SimpleClass", NULL, t2, simple_default, SV_O3DE_UNSUPPORTED, PALT, false);
    /* the same depth as an explicit-default chain is one DefaultsUsed */
    free(t2);
    free(text);
    sv_doc_free(doc);
}

static void test_type_names(void **state)
{
    (void)state;
    /* unknown name, unrelated class, a UUID nobody registered, a name that
     * is not a string: the pointer stays null and the load halts */
    o3t_load_case("ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"NoSuchClass\",\"var1\":1}}",
                  "{\"pointer\":null}", SV_O3DE_UNKNOWN, HALT, false);
    o3t_load_case("ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"Unrelated\",\"x\":1}}",
                  "{\"pointer\":null}", SV_O3DE_TYPE_MISMATCH, HALT, false);
    o3t_load_case("ComplexNullInheritedPointer", NULL,
                  "{\"pointer\":{\"$type\":\"{00000000-0000-0000-0000-0000000000AB}\"}}", "{\"pointer\":null}",
                  SV_O3DE_UNKNOWN, HALT, false);
    o3t_load_case("ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":[\"BaseClass\"]}}",
                  "{\"pointer\":null}", SV_O3DE_UNKNOWN, HALT, false);
    o3t_load_case("ComplexNullInheritedPointer", NULL, "{\"pointer\":{\"$type\":\"\"}}", "{\"pointer\":null}",
                  SV_O3DE_UNKNOWN, HALT, false);
    /* a halted pointer load leaves a pointer set earlier as it was */
    o3t_load_case("ComplexNullInheritedPointer", "{\"pointer\":{\"$type\":\"BaseClass\",\"base_var\":1.0}}",
                  "{\"pointer\":{\"$type\":\"Unrelated\"}}", "{\"pointer\":{\"base_var\":1.0}}",
                  SV_O3DE_TYPE_MISMATCH, HALT, false);
    /* the resolver alone */
    const sv_schema_class *out = (const sv_schema_class *)1;
    sv_o3de_result r = sv_o3de_resolve_type(o3t_schema(), "NoSuchClass", 11, NULL, &out);
    assert_null(out);
    assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_UNKNOWN);
    r = sv_o3de_resolve_type(o3t_schema(), "{51CD2896-A963-4CA1-AE9039AEBDA72364}", 38, NULL, &out);
    assert_null(out);
}

/* A schema whose bases form a cycle is refused before anything loads
 * against it (O3DE's reflection cannot express one). */
static void test_cyclic_bases(void **state)
{
    (void)state;
    static const char *const schemas[] = {
        "{\"serval_schema\":1,\"classes\":[{\"name\":\"A\",\"bases\":[\"A\"]}]}",
        "{\"serval_schema\":1,\"classes\":[{\"name\":\"A\",\"bases\":[\"B\"]},{\"name\":\"B\",\"bases\":[\"A\"]}]}",
        ("{\"serval_schema\":1,\"classes\":[{\"name\":\"A\",\"bases\":[\"B\"]},{\"name\":\"B\",\"bases\":[\"C\"]},"
         "{\"name\":\"C\",\"bases\":[\"A\"],\"fields\":[{\"name\":\"p\",\"type\":\"ptr<A>\"}]}]}"),
    };
    for (size_t i = 0; i < sizeof schemas / sizeof *schemas; i++) {
        sv_schema *s = NULL;
        sv_error err;
        sv_error_clear(&err);
        sv_status st = sv_schema_load(NULL, (const uint8_t *)schemas[i], strlen(schemas[i]), "cyclic", &s, &err);
        assert_int_not_equal(st, SV_OK);
        assert_null(s);
        assert_non_null(strstr(err.message, "cycl"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrong_root_types),
        cmocka_unit_test(test_wrong_field_types),
        cmocka_unit_test(test_enormous_numbers),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_type_names),
        cmocka_unit_test(test_cyclic_bases),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    o3t_schema_free();
    return rc;
}
