/* Malformed schema files: each is refused with the expected status, message
 * and JSON Pointer of the member at fault (table-driven). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

typedef struct bad_case {
    const char *json;
    sv_status status;
    const char *path;
    const char *message;
} bad_case;

#define HEAD "{\"serval_schema\": 1, "
#define E(x) HEAD "\"enums\": [" x "]}"
#define C(x) HEAD "\"classes\": [" x "]}"
#define EC(e, c) HEAD "\"enums\": [" e "], \"classes\": [" c "]}"
#define ENUM_E "{\"name\": \"E\", \"underlying\": \"u8\", \"values\": [[\"Fire\", 0], [\"Ice\", 1]]}"
#define FIELD(type) "{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"" type "\"}]}"

static const bad_case cases[] = {
    /* the file */
    {"[]", SV_ERR_TYPE, "", "a schema file must be a JSON object, not an array"},
    {"{}", SV_ERR_SYNTAX, "", "missing member 'serval_schema'"},
    {"{\"serval_schema\": 2}", SV_ERR_UNSUPPORTED, "/serval_schema",
     "unsupported 'serval_schema' version (this reader knows 1)"},
    {"{\"serval_schema\": \"1\"}", SV_ERR_UNSUPPORTED, "/serval_schema",
     "unsupported 'serval_schema' version (this reader knows 1)"},
    /* enums */
    {HEAD "\"enums\": {}}", SV_ERR_TYPE, "/enums", "'enums' must be an array, not an object"},
    {E("1"), SV_ERR_TYPE, "/enums/0", "an enum must be an object, not an integer"},
    {E("{\"underlying\": \"u8\"}"), SV_ERR_SYNTAX, "/enums/0", "an enum needs a 'name'"},
    {E("{\"name\": 5}"), SV_ERR_TYPE, "/enums/0/name", "'name' must be a string, not an integer"},
    {E("{\"name\": \"E\", \"underlying\": \"f32\"}"), SV_ERR_TYPE, "/enums/0/underlying",
     "enum 'E': underlying type 'f32' is not an integer type"},
    {E("{\"name\": \"E\", \"underlying\": \"u128\"}"), SV_ERR_TYPE, "/enums/0/underlying",
     "enum 'E': underlying type 'u128' is not an integer type"},
    {E("{\"name\": \"E\", \"bits\": \"yes\"}"), SV_ERR_TYPE, "/enums/0/bits",
     "'bits' must be true or false, not a string"},
    {E("{\"name\": \"E\", \"values\": {}}"), SV_ERR_TYPE, "/enums/0/values",
     "'values' must be an array, not an object"},
    {E("{\"name\": \"E\", \"values\": [[\"A\"]]}"), SV_ERR_TYPE, "/enums/0/values/0",
     "an enum value must be a [name, value] pair"},
    {E("{\"name\": \"E\", \"values\": [[1, 2]]}"), SV_ERR_TYPE, "/enums/0/values/0/0",
     "an enum value's name must be a string, not an integer"},
    {E("{\"name\": \"E\", \"underlying\": \"u8\", \"values\": [[\"A\", 255], [\"B\", 256]]}"),
     SV_ERR_RANGE, "/enums/0/values/1/1", "enum 'E': value 256 of 'B' does not fit u8"},
    {E("{\"name\": \"E\", \"underlying\": \"u8\", \"values\": [[\"A\", -1]]}"), SV_ERR_RANGE,
     "/enums/0/values/0/1", "enum 'E': value -1 of 'A' does not fit u8"},
    {E("{\"name\": \"E\", \"underlying\": \"i8\", \"values\": [[\"A\", -128], [\"B\", -129]]}"),
     SV_ERR_RANGE, "/enums/0/values/1/1", "enum 'E': value -129 of 'B' does not fit i8"},
    {E("{\"name\": \"E\", \"underlying\": \"i32\", \"values\": [[\"A\", 2147483648]]}"), SV_ERR_RANGE,
     "/enums/0/values/0/1", "enum 'E': value 2147483648 of 'A' does not fit i32"},
    {E("{\"name\": \"E\", \"values\": [[\"A\", 1.5]]}"), SV_ERR_TYPE, "/enums/0/values/0/1",
     "enum 'E': value of 'A' must be an integer, not a number"},
    {E("{\"name\": \"E\", \"values\": [[\"A\", 0], [\"B\", 1], [\"A\", 2]]}"), SV_ERR_SYNTAX,
     "/enums/0/values/2/0", "enum 'E': duplicate value name 'A'"},
    {E(ENUM_E ", " ENUM_E), SV_ERR_SYNTAX, "/enums/1/name", "duplicate name 'E': already an enum"},
    /* classes */
    {HEAD "\"classes\": \"A\"}", SV_ERR_TYPE, "/classes", "'classes' must be an array, not a string"},
    {C("{\"fields\": []}"), SV_ERR_SYNTAX, "/classes/0", "a class needs a 'name'"},
    {C("{\"name\": \"u32\"}"), SV_ERR_SYNTAX, "/classes/0/name",
     "class name 'u32' is a built-in type name"},
    {C("{\"name\": \"vector\"}"), SV_ERR_SYNTAX, "/classes/0/name",
     "class name 'vector' is a built-in type name"},
    {C("{\"name\": \"A<B>\"}"), SV_ERR_SYNTAX, "/classes/0/name",
     "class name 'A<B>' has a character a type expression cannot hold"},
    {C("{\"name\": \"\"}"), SV_ERR_SYNTAX, "/classes/0/name", "class name is empty"},
    {C("{\"name\": \"A\"}, {\"name\": \"B\"}, {\"name\": \"A\"}"), SV_ERR_SYNTAX, "/classes/2/name",
     "duplicate name 'A': already a class"},
    {EC(ENUM_E, "{\"name\": \"E\"}"), SV_ERR_SYNTAX, "/classes/0/name",
     "duplicate name 'E': already an enum"},
    {C("{\"name\": \"A\", \"hash\": -1}"), SV_ERR_RANGE, "/classes/0/hash",
     "'hash' is out of range (0 to 4294967295)"},
    {C("{\"name\": \"A\", \"hash\": 4294967296}"), SV_ERR_RANGE, "/classes/0/hash",
     "'hash' is out of range (0 to 4294967295)"},
    {C("{\"name\": \"A\", \"hash\": \"12\"}"), SV_ERR_TYPE, "/classes/0/hash",
     "'hash' must be an integer, not a string"},
    {C("{\"name\": \"A\", \"uuid\": \"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F0}\"}"), SV_ERR_SYNTAX,
     "/classes/0/uuid", "class 'A': '{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F0}' is not a UUID"},
    {C("{\"name\": \"A\", \"version\": 1.0}"), SV_ERR_TYPE, "/classes/0/version",
     "'version' must be an integer, not a number"},
    {C("{\"name\": \"A\", \"bases\": \"B\"}"), SV_ERR_TYPE, "/classes/0/bases",
     "'bases' must be an array, not a string"},
    {C("{\"name\": \"A\", \"bases\": [\"Nope\"]}"), SV_ERR_NOT_FOUND, "/classes/0/bases/0",
     "class 'A': unknown base 'Nope'"},
    {EC(ENUM_E, "{\"name\": \"A\", \"bases\": [\"E\"]}"), SV_ERR_TYPE, "/classes/0/bases/0",
     "class 'A': base 'E' is an enum"},
    {C("{\"name\": \"B\"}, {\"name\": \"A\", \"bases\": [\"B\", \"B\"]}"), SV_ERR_SYNTAX,
     "/classes/1/bases/1", "class 'A': base 'B' listed twice"},
    {C("{\"name\": \"A\", \"bases\": [\"A\"]}"), SV_ERR_SYNTAX, "/classes/0/bases/0",
     "cycle of bases: A -> A"},
    {C("{\"name\": \"A\", \"bases\": [\"B\"]}, {\"name\": \"B\", \"bases\": [\"C\"]}, "
       "{\"name\": \"C\", \"bases\": [\"A\"]}"),
     SV_ERR_SYNTAX, "/classes/2/bases/0", "cycle of bases: A -> B -> C -> A"},
    /* fields */
    {C("{\"name\": \"A\", \"fields\": {}}"), SV_ERR_TYPE, "/classes/0/fields",
     "'fields' must be an array, not an object"},
    {C("{\"name\": \"A\", \"fields\": [{\"type\": \"u32\"}]}"), SV_ERR_SYNTAX, "/classes/0/fields/0",
     "a field of class 'A' needs a 'name'"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": 7, \"type\": \"u32\"}]}"), SV_ERR_TYPE,
     "/classes/0/fields/0/name", "'name' must be a string, not an integer"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\"}]}"), SV_ERR_SYNTAX, "/classes/0/fields/0",
     "field 'x' needs a 'type'"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"u32\"}, {\"name\": \"x\", "
       "\"type\": \"u8\"}]}"),
     SV_ERR_SYNTAX, "/classes/0/fields/1/name", "class 'A': duplicate field name 'x'"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"u32\", \"flags\": -1}]}"),
     SV_ERR_RANGE, "/classes/0/fields/0/flags", "'flags' is out of range (0 to 4294967295)"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"u32\", \"id\": true}]}"),
     SV_ERR_TYPE, "/classes/0/fields/0/id", "'id' must be an integer, not a boolean"},
    /* types */
    {C(FIELD("Foo")), SV_ERR_NOT_FOUND, "/classes/0/fields/0/type", "unknown type 'Foo'"},
    {C(FIELD("vector<map<string,Foo>>")), SV_ERR_NOT_FOUND, "/classes/0/fields/0/type",
     "unknown type 'Foo'"},
    {C(FIELD("vector<u32")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'vector<u32': expected '>' at offset 10"},
    {C(FIELD("map<string>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'map<string>': map takes 2 type parameters"},
    {C(FIELD("vector")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'vector': 'vector' needs type parameters"},
    {C(FIELD("foo<u32>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'foo<u32>': unknown generic 'foo'"},
    {C(FIELD("array<u32>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'array<u32>': array takes a type and a length at offset 9"},
    {C(FIELD("array<u32,x>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'array<u32,x>': expected an array length at offset 10"},
    {C(FIELD("array<u32,2000000>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'array<u32,2000000>': array length out of range at offset 16"},
    {C(FIELD("u32>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'u32>': unbalanced '>' at offset 3"},
    {C(FIELD("")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type '': expected a type name at offset 0"},
    {C(FIELD("pair<u32,,u8>")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "type 'pair<u32,,u8>': expected a type name at offset 9"},
    {C(FIELD("A")), SV_ERR_SYNTAX, "/classes/0/fields/0/type",
     "class 'A' contains itself by value (field 'x' of 'A')"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"b\", \"type\": \"array<B,2>\"}]}, "
       "{\"name\": \"B\", \"fields\": [{\"name\": \"a\", \"type\": \"pair<u8,A>\"}]}"),
     SV_ERR_SYNTAX, "/classes/1/fields/0/type",
     "class 'A' contains itself by value (field 'a' of 'B')"},
    /* defaults */
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"f32\", \"default\": \"1.5\"}]}"),
     SV_ERR_TYPE, "/classes/0/fields/0/default", "expected f32, got string"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"u8\", \"default\": 300}]}"),
     SV_ERR_RANGE, "/classes/0/fields/0/default", "value 300 does not fit u8"},
    {EC(ENUM_E, "{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"E\", \"default\": "
                "\"Fog\"}]}"),
     SV_ERR_NOT_FOUND, "/classes/0/fields/0/default", "'Fog' is not a value of enum 'E'"},
    {C("{\"name\": \"A\", \"fields\": [{\"name\": \"x\", \"type\": \"vector<i32>\", \"default\": "
       "[1, \"a\"]}]}"),
     SV_ERR_TYPE, "/classes/0/fields/0/default/1", "expected i32, got string"},
    {C("{\"name\": \"B\", \"fields\": [{\"name\": \"y\", \"type\": \"u8\"}]}, {\"name\": \"A\", "
       "\"fields\": [{\"name\": \"x\", \"type\": \"B\", \"default\": {\"zz\": 1}}]}"),
     SV_ERR_NOT_FOUND, "/classes/1/fields/0/default/zz", "class 'B' has no field 'zz'"},
    /* clashes */
    {C("{\"name\": \"A\", \"hash\": 5}, {\"name\": \"B\", \"hash\": 5}"), SV_ERR_SYNTAX,
     "/classes/1/hash", "classes 'A' (in 't.json') and 'B' (in 't.json') have the same hash 5"},
    {C("{\"name\": \"A\", \"uuid\": \"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\"}, {\"name\": \"B\", "
       "\"uuid\": \"e5b8a6a2-0f7b-4d7f-9c7e-2b5d7c1a9f01\"}"),
     SV_ERR_SYNTAX, "/classes/1/uuid",
     "classes 'A' (in 't.json') and 'B' (in 't.json') have the same UUID "
     "{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}"},
};

static void test_bad_schemas(void **state)
{
    (void)state;
    size_t n = sizeof cases / sizeof cases[0];
    assert_true(n >= 40);
    for (size_t i = 0; i < n; i++) {
        const bad_case *c = &cases[i];
        sv_schema *s = (sv_schema *)1;
        sv_error err;
        sv_status st = sv_schema_load(NULL, (const uint8_t *)c->json, strlen(c->json), "t.json", &s,
                                      &err);
        if (st != c->status || strcmp(err.path, c->path) != 0 || strcmp(err.message, c->message) != 0)
            fail_msg("case %zu: %s\n  got %s at '%s': %s\n  want %s at '%s': %s", i, c->json,
                     sv_status_name(st), err.path, err.message, sv_status_name(c->status), c->path,
                     c->message);
        assert_null(s);
        assert_string_equal(err.format, "schema");
    }
}

/* JSON that does not parse: the reader's error, with its byte offset. */
static void test_not_json(void **state)
{
    (void)state;
    static const char text[] = "{\"serval_schema\": 1, \"classes\": [}";
    sv_schema *s;
    sv_error err;
    assert_int_equal(sv_schema_load(NULL, (const uint8_t *)text, sizeof text - 1, "t.json", &s, &err),
                     SV_ERR_SYNTAX);
    assert_int_equal(err.byte_offset, 33);
    assert_string_equal(err.format, "schema");
    /* bytes no loader knows */
    assert_int_equal(sv_schema_load(NULL, (const uint8_t *)"PNG", 3, "x", &s, &err),
                     SV_ERR_UNSUPPORTED);
    assert_null(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_schemas),
        cmocka_unit_test(test_not_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
