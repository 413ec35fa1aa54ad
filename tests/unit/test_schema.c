/* Schemas: the schema file of docs/schema.md, lookups by name, hash and
 * UUID, full field lists through bases, is_a, type expressions, defaults
 * read against their types, values of a type, merging and its conflicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

/* The example of docs/schema.md, as given. */
static const char example[] =
    "{\"serval_schema\": 1,\n"
    " \"enums\": [{\"name\": \"Element\", \"underlying\": \"u8\", \"bits\": false,\n"
    "            \"values\": [[\"Fire\", 0], [\"Ice\", 1], [\"Storm\", 2]]}],\n"
    " \"classes\": [{\"name\": \"Item\", \"uuid\": \"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\",\n"
    "              \"fields\": [{\"name\": \"id\", \"type\": \"u32\"}]},\n"
    "             {\"name\": \"Weapon\", \"bases\": [\"Item\"], \"hash\": 1534054483, \"version\": "
    "2,\n"
    "              \"fields\": [{\"name\": \"damage\", \"type\": \"f32\", \"default\": 1.5},\n"
    "                         {\"name\": \"element\", \"type\": \"Element\", \"default\": "
    "\"Ice\"},\n"
    "                         {\"name\": \"tags\", \"type\": \"vector<string>\"},\n"
    "                         {\"name\": \"stats\", \"type\": \"map<string,i32>\", \"flags\": 7, "
    "\"hash\": 221725407, \"id\": 3},\n"
    "                         {\"name\": \"owner\", \"type\": \"ptr<Item>\"}]}]}\n";

static sv_schema *load(const char *text, const char *source)
{
    sv_schema *s = NULL;
    sv_error err;
    sv_status st = sv_schema_load(NULL, (const uint8_t *)text, strlen(text), source, &s, &err);
    if (st) fail_msg("%s at %s: %s", sv_status_name(st), err.path, err.message);
    return s;
}

static void test_example(void **state)
{
    (void)state;
    sv_schema *s = load(example, "example.json");
    assert_int_equal(sv_schema_class_count(s), 2);
    assert_int_equal(sv_schema_enum_count(s), 1);

    const sv_schema_enum *el = sv_schema_enum_by_name(s, "Element", 7);
    assert_non_null(el);
    assert_int_equal(el->underlying, SV_PRIM_U8);
    assert_false(el->bits);
    assert_int_equal(el->nvalues, 3);
    assert_string_equal(el->values[2].name, "Storm");
    assert_int_equal(sv_schema_enum_value_by_name(el, "Ice", 3)->value, 1);
    assert_string_equal(sv_schema_enum_value_by_value(el, 2)->name, "Storm");
    assert_null(sv_schema_enum_value_by_value(el, 3));

    const sv_schema_class *item = sv_schema_class_by_name(s, "Item", 4);
    const sv_schema_class *weapon = sv_schema_class_by_name(s, "Weapon", 6);
    assert_non_null(item);
    assert_non_null(weapon);
    assert_string_equal(weapon->source, "example.json");
    assert_ptr_equal(sv_schema_class_by_hash(s, 1534054483u), weapon);
    assert_null(sv_schema_class_by_hash(s, 1534054484u));
    sv_uuid u;
    assert_true(sv_uuid_parse("e5b8a6a2-0f7b-4d7f-9c7e-2b5d7c1a9f01", 36, &u));
    assert_int_equal(u.b[0], 0xe5);
    assert_int_equal(u.b[15], 0x01);
    assert_ptr_equal(sv_schema_class_by_uuid(s, &u), item);
    assert_true(weapon->has_version);
    assert_int_equal(weapon->version, 2);
    assert_false(item->has_hash);

    /* the full list: the base's field first */
    size_t n;
    const sv_schema_field *const *all = sv_schema_class_fields(weapon, &n);
    assert_int_equal(n, 6);
    const char *names[] = {"id", "damage", "element", "tags", "stats", "owner"};
    for (size_t i = 0; i < n; i++)
        assert_string_equal(all[i]->name, names[i]);
    assert_ptr_equal(all[0]->owner, item);
    assert_ptr_equal(sv_schema_field_by_name(weapon, "id", 2), all[0]);
    assert_ptr_equal(sv_schema_field_by_hash(weapon, 221725407u), all[4]);
    assert_ptr_equal(sv_schema_field_by_id(weapon, 3), all[4]);
    assert_int_equal(all[4]->flags, 7);
    assert_null(sv_schema_field_by_name(item, "damage", 6));

    /* defaults, read against the field's type */
    assert_int_equal(sv_kind_of(all[1]->def), SV_FLOAT);
    assert_int_equal(sv_width(all[1]->def), 4);
    assert_true(all[1]->def->as.f32 == 1.5f);
    assert_int_equal(sv_kind_of(all[2]->def), SV_UINT);
    assert_int_equal(sv_width(all[2]->def), 1);
    assert_int_equal(sv_tag_of(all[2]->def), SV_TAG_ENUM);
    assert_int_equal(sv_get_uint(all[2]->def), 1);
    assert_null(all[3]->def);

    /* parsed types */
    const sv_type *t = all[4]->type;
    assert_int_equal(t->kind, SV_TYPE_GENERIC);
    assert_int_equal(t->gen, SV_GEN_MAP);
    assert_int_equal(t->nparams, 2);
    assert_int_equal(t->params[0]->kind, SV_TYPE_PRIM);
    assert_int_equal(t->params[0]->prim, SV_PRIM_STRING);
    assert_int_equal(t->params[1]->prim, SV_PRIM_I32);
    assert_string_equal(t->text, "map<string,i32>");
    assert_int_equal(all[2]->type->kind, SV_TYPE_ENUM);
    assert_ptr_equal(all[2]->type->enm, el);
    assert_int_equal(all[5]->type->gen, SV_GEN_PTR);
    assert_int_equal(all[5]->type->params[0]->kind, SV_TYPE_CLASS);
    assert_ptr_equal(all[5]->type->params[0]->cls, item);

    assert_true(sv_schema_is_a(weapon, item));
    assert_true(sv_schema_is_a(weapon, weapon));
    assert_false(sv_schema_is_a(item, weapon));
    sv_schema_free(s);
}

static void test_type_expressions(void **state)
{
    (void)state;
    sv_schema *s = sv_schema_new(NULL);
    sv_error err;
    const sv_type *a, *b, *c;
    assert_int_equal(sv_schema_parse_type(s, " map < string , vector<u8> > ", 29, &a, &err), SV_OK);
    assert_string_equal(a->text, "map<string,vector<u8>>");
    assert_int_equal(sv_schema_parse_type(s, "map<string,vector<u8>>", 22, &b, &err), SV_OK);
    assert_ptr_equal(a, b); /* interned */
    assert_int_equal(
        sv_schema_parse_type(s, "array<tuple<f32,class Foo,wstring>, 16>", 39, &c, &err), SV_OK);
    assert_string_equal(c->text, "array<tuple<f32,class Foo,wstring>,16>");
    assert_int_equal(c->gen, SV_GEN_ARRAY);
    assert_int_equal(c->array_len, 16);
    assert_int_equal(c->nparams, 1);
    const sv_type *tu = c->params[0];
    assert_int_equal(tu->gen, SV_GEN_TUPLE);
    assert_int_equal(tu->nparams, 3);
    assert_int_equal(tu->params[1]->kind, SV_TYPE_NAME);
    assert_string_equal(tu->params[1]->name, "class Foo");
    assert_int_equal(tu->params[2]->prim, SV_PRIM_WSTRING);
    /* every primitive and generic name */
    for (int p = 0; p < SV_PRIM_COUNT; p++) {
        const char *name = sv_prim_name((sv_prim)p);
        assert_int_equal(sv_schema_parse_type(s, name, strlen(name), &a, &err), SV_OK);
        assert_int_equal(a->kind, SV_TYPE_PRIM);
        assert_int_equal(a->prim, p);
    }
    static const char *const gens[] = {"vector<u8>",  "list<u8>",     "set<u8>",   "uset<u8>",
                                       "array<u8,3>", "pair<u8,i8>",  "tuple<u8>", "map<u8,i8>",
                                       "umap<u8,i8>", "optional<u8>", "ptr<u8>",   "shared<u8>",
                                       "unique<u8>"};
    for (int g = 0; g < SV_GEN_COUNT; g++) {
        assert_int_equal(sv_schema_parse_type(s, gens[g], strlen(gens[g]), &a, &err), SV_OK);
        assert_int_equal(a->gen, g);
        assert_string_equal(a->text, gens[g]);
    }
    /* after finalize, names resolve at once */
    sv_schema_class *foo;
    assert_int_equal(sv_schema_add_class(s, "class Foo", &foo, &err), SV_OK);
    assert_int_equal(sv_schema_finalize(s, &err), SV_OK);
    assert_int_equal(tu->params[1]->kind, SV_TYPE_CLASS);
    assert_int_equal(sv_schema_parse_type(s, "ptr<class Foo>", 14, &a, &err), SV_OK);
    assert_ptr_equal(a->params[0]->cls, foo);
    assert_int_equal(sv_schema_parse_type(s, "ptr<Bar>", 8, &a, &err), SV_ERR_NOT_FOUND);
    assert_string_equal(err.message, "unknown type 'Bar'");
    sv_schema_free(s);
}

/* Bases through several levels, multiple bases and a diamond: each base's
 * fields once, bases first; a derived field hides a base's of that name. */
static void test_bases(void **state)
{
    (void)state;
    static const char text[] =
        "{\"serval_schema\": 1, \"classes\": ["
        "{\"name\": \"D\", \"bases\": [\"B\", \"C\"], \"fields\": [{\"name\": \"d\", \"type\": "
        "\"u8\"},"
        " {\"name\": \"a\", \"type\": \"string\"}]},"
        "{\"name\": \"B\", \"bases\": [\"A\"], \"fields\": [{\"name\": \"b\", \"type\": \"u8\"}]},"
        "{\"name\": \"C\", \"bases\": [\"A\"], \"fields\": [{\"name\": \"c\", \"type\": \"u8\"}]},"
        "{\"name\": \"A\", \"fields\": [{\"name\": \"a\", \"type\": \"u8\"}, {\"name\": \"a2\", "
        "\"type\": \"u8\"}]},"
        "{\"name\": \"E\", \"bases\": [\"D\"]}]}";
    sv_schema *s = load(text, "bases.json");
    const sv_schema_class *a = sv_schema_class_by_name(s, "A", 1),
                          *d = sv_schema_class_by_name(s, "D", 1),
                          *e = sv_schema_class_by_name(s, "E", 1),
                          *c = sv_schema_class_by_name(s, "C", 1);
    size_t n;
    const sv_schema_field *const *all = sv_schema_class_fields(e, &n);
    const char *want[] = {"a", "a2", "b", "c", "d", "a"};
    assert_int_equal(n, 6);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(all[i]->name, want[i]);
    assert_ptr_equal(sv_schema_field_by_name(e, "a", 1), all[5]);
    assert_ptr_equal(sv_schema_field_by_name(e, "a", 1)->owner, d);
    assert_true(sv_schema_is_a(e, a));
    assert_true(sv_schema_is_a(e, c));
    assert_false(sv_schema_is_a(c, d));
    sv_schema_free(s);
}

/* A class with many fields uses the hash-table index; lookups agree with the list. */
static void test_large_class(void **state)
{
    (void)state;
    sv_schema *s = sv_schema_new(NULL);
    sv_error err;
    sv_schema_class *c;
    assert_int_equal(sv_schema_add_class(s, "Big", &c, &err), SV_OK);
    char name[16];
    for (int i = 0; i < 100; i++) {
        sv_schema_field *f;
        snprintf(name, sizeof name, "f%d", i);
        assert_int_equal(sv_schema_class_add_field(s, c, name, "u16", &f, &err), SV_OK);
        sv_schema_field_set_hash(f, 1000u + (uint32_t)i);
        sv_schema_field_set_id(f, (uint32_t)i * 7);
    }
    sv_schema_enum *e;
    assert_int_equal(sv_schema_add_enum(s, "Many", SV_PRIM_I16, true, &e, &err), SV_OK);
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "V%d", i);
        assert_int_equal(sv_schema_enum_add(s, e, name, (uint64_t)(int64_t)(i - 20), &err), SV_OK);
    }
    assert_int_equal(sv_schema_finalize(s, &err), SV_OK);
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "f%d", i);
        const sv_schema_field *f = sv_schema_field_by_name(c, name, strlen(name));
        assert_non_null(f);
        assert_int_equal(f->index, i);
        assert_ptr_equal(sv_schema_field_by_hash(c, 1000u + (uint32_t)i), f);
        assert_ptr_equal(sv_schema_field_by_id(c, (uint32_t)i * 7), f);
    }
    assert_null(sv_schema_field_by_name(c, "f100", 4));
    assert_null(sv_schema_field_by_id(c, 1));
    assert_string_equal(sv_schema_enum_value_by_value(e, (uint64_t)-3)->name, "V17");
    assert_int_equal((int64_t)sv_schema_enum_value_by_name(e, "V0", 2)->value, -20);
    sv_schema_free(s);
}

static sv_value json(sv_doc *doc, const char *text)
{
    sv_value v;
    sv_error err;
    if (sv_json_decode(doc, text, strlen(text), NULL, &v, &err)) fail_msg("%s", err.message);
    return v;
}

static char *to_json(const sv_value *v, sv_buf *b)
{
    sv_error err;
    b->len = 0;
    assert_int_equal(sv_json_encode(v, NULL, b, &err), SV_OK);
    sv_buf_putc(b, 0);
    return (char *)b->data;
}

/* A field hidden by a derived one of the same name: reading by name fills
 * it with its default; a read value lists both keys (hidden first) and reads
 * again, by position, as the same value, also as a default of another class
 * after a merge (the merge re-reads defaults). */
static void test_hidden_field(void **state)
{
    (void)state;
    static const char text[] =
        "{\"serval_schema\": 1, \"classes\": ["
        "{\"name\": \"A\", \"fields\": [{\"name\": \"c\", \"type\": \"u8\", \"default\": 7}]},"
        "{\"name\": \"B\", \"bases\": [\"A\"], \"fields\": [{\"name\": \"c\", \"type\": "
        "\"string\"}]},"
        "{\"name\": \"H\", \"fields\": [{\"name\": \"p\", \"type\": \"ptr<A>\", \"default\": "
        "{\"$class\": \"B\", \"c\": \"x\"}}]}]}";
    sv_schema *s = load(text, "hidden.json");
    sv_doc *doc = sv_doc_new(NULL);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    const sv_type *t;
    assert_int_equal(sv_schema_parse_type(s, "B", 1, &t, &err), SV_OK);
    sv_value in = json(doc, "{\"c\": \"x\"}"), once, twice;
    assert_int_equal(sv_schema_read_value(s, t, &in, doc, &once, &err), SV_OK);
    assert_string_equal(to_json(&once, &b), "{\"$class\":\"B\",\"c\":{\"$u8\":7},\"c\":\"x\"}");
    assert_int_equal(sv_schema_read_value(s, t, &once, doc, &twice, &err), SV_OK);
    assert_true(sv_equal(&once, &twice));
    sv_schema *m = sv_schema_new(NULL);
    assert_int_equal(sv_schema_merge(m, s, &err), SV_OK);
    assert_int_equal(sv_schema_finalize(m, &err), SV_OK);
    const sv_schema_field *p = sv_schema_field_by_name(sv_schema_class_by_name(m, "H", 1), "p", 1);
    assert_string_equal(to_json(p->def, &b), "{\"$class\":\"B\",\"c\":{\"$u8\":7},\"c\":\"x\"}");
    sv_schema_free(m);
    sv_buf_free(&b);
    sv_doc_free(doc);
    sv_schema_free(s);
}

/* Plain JSON read against types, into the natural values of docs/schema.md. */
static void test_read_value(void **state)
{
    (void)state;
    static const char text[] =
        "{\"serval_schema\": 1, \"enums\": [{\"name\": \"F\", \"underlying\": \"u16\", \"bits\": "
        "true,"
        " \"values\": [[\"A\", 1], [\"B\", 2], [\"C\", 4]]}], \"classes\": ["
        "{\"name\": \"P\", \"fields\": [{\"name\": \"x\", \"type\": \"i16\", \"default\": -2},"
        " {\"name\": \"f\", \"type\": \"F\"}]},"
        "{\"name\": \"Q\", \"bases\": [\"P\"], \"fields\": [{\"name\": \"q\", \"type\": "
        "\"bool\"}]}]}";
    sv_schema *s = load(text, "v.json");
    sv_doc *doc = sv_doc_new(NULL);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    static const struct {
        const char *type, *in, *out;
    } rows[] = {
        {"u8", "255", "{\"$u8\":255}"},
        {"i64", "-5", "{\"$i64\":-5}"},
        {"f32", "1", "{\"$f32\":1.0}"},
        {"f64", "0.1", "0.1"},
        {"wstring", "\"h\\u00e9\"", "{\"$utf16\":\"h\xc3\xa9\"}"},
        {"uuid", "\"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\"",
         "{\"$uuid\":\"e5b8a6a2-0f7b-4d7f-9c7e-2b5d7c1a9f01\"}"},
        {"vector3", "[1, 2.5, -3]", "{\"$vector3\":[1.0,2.5,-3.0]}"},
        {"color", "{\"$color\": [1.0, 0.5, 0.0, 1.0]}", "{\"$color\":[1.0,0.5,0.0,1.0]}"},
        {"transform", "[1,2,3, 0,0,0,1, 2]", "{\"$transform\":[1.0,2.0,3.0,0.0,0.0,0.0,1.0,2.0]}"},
        {"F", "\"A|C\"", "{\"$enum\":{\"$u16\":5}}"},
        {"F", "\"\"", "{\"$enum\":{\"$u16\":0}}"},
        {"F", "6", "{\"$enum\":{\"$u16\":6}}"},
        {"array<u8,2>", "[1, 2]", "[{\"$u8\":1},{\"$u8\":2}]"},
        {"pair<string,bool>", "[\"a\", true]", "[\"a\",true]"},
        {"map<i32,string>", "{\"5\": \"five\", \"-1\": \"m\"}",
         "{\"$map\":[[{\"$i32\":5},\"five\"],[{\"$i32\":-1},\"m\"]]}"},
        {"optional<u8>", "null", "null"},
        {"P", "{\"f\": \"B\"}",
         "{\"$class\":\"P\",\"x\":{\"$i16\":-2},\"f\":{\"$enum\":{\"$u16\":2}}}"},
        {"ptr<P>", "{\"$class\": \"Q\", \"q\": true}",
         "{\"$class\":\"Q\",\"x\":{\"$i16\":-2},\"f\":{\"$enum\":{\"$u16\":0}},\"q\":true}"},
        {"ptr<P>", "null", "null"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const sv_type *t;
        assert_int_equal(sv_schema_parse_type(s, rows[i].type, strlen(rows[i].type), &t, &err),
                         SV_OK);
        sv_value in = json(doc, rows[i].in), out;
        sv_status st = sv_schema_read_value(s, t, &in, doc, &out, &err);
        if (st) fail_msg("row %zu: %s", i, err.message);
        const char *got = to_json(&out, &b);
        if (strcmp(got, rows[i].out) != 0) fail_msg("row %zu: got %s want %s", i, got, rows[i].out);
        /* natural values read back as themselves */
        sv_value again;
        assert_int_equal(sv_schema_read_value(s, t, &out, doc, &again, &err), SV_OK);
        assert_true(sv_equal(&out, &again));
    }
    /* refusals, with the path inside the value */
    static const struct {
        const char *type, *in, *path, *msg;
    } bad[] = {
        {"ptr<Q>", "{\"$class\": \"P\"}", "", "expected an object of class 'Q', got 'P'"},
        {"P", "{\"$class\": \"Q\"}", "", "expected an object of class 'P', got 'Q'"},
        {"P", "{\"x\": 1, \"x\": 2}", "/x", "field 'x' given twice"},
        {"map<u8,u8>", "{\"300\": 1}", "/300", "value 300 does not fit u8"},
        {"F", "\"A|D\"", "", "'D' is not a value of enum 'F'"},
        {"array<u8,2>", "[1]", "", "expected array<u8,2>: 2 items, got 1"},
        {"vector2", "[1]", "", "expected vector2: 2 numbers, got 1"},
        {"vector<vector<u8>>", "[[], [1, -1]]", "/1/1", "value -1 does not fit u8"},
        {"ptr<P>", "{\"$class\": \"Nope\"}", "", "unknown class 'Nope'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const sv_type *t;
        assert_int_equal(sv_schema_parse_type(s, bad[i].type, strlen(bad[i].type), &t, &err),
                         SV_OK);
        sv_value in = json(doc, bad[i].in), out;
        assert_int_not_equal(sv_schema_read_value(s, t, &in, doc, &out, &err), SV_OK);
        if (strcmp(err.message, bad[i].msg) || strcmp(err.path, bad[i].path))
            fail_msg("bad %zu: got '%s' at '%s'", i, err.message, err.path);
    }
    /* zero values */
    const sv_type *t;
    sv_value z;
    assert_int_equal(
        sv_schema_parse_type(s, "tuple<Q,vector<u8>,optional<i8>,color>", 38, &t, &err), SV_OK);
    assert_int_equal(sv_schema_zero_value(s, t, doc, &z, &err), SV_OK);
    assert_string_equal(
        to_json(&z, &b),
        "[{\"$class\":\"Q\",\"x\":{\"$i16\":-2},\"f\":{\"$enum\":{\"$u16\":0}},\"q\":false},"
        "[],null,{\"$color\":[0.0,0.0,0.0,0.0]}]");
    sv_buf_free(&b);
    sv_doc_free(doc);
    sv_schema_free(s);
}

static sv_status load_merge(sv_schema *dst, const char *text, const char *source, sv_error *err)
{
    sv_schema *one;
    sv_status st = sv_schema_load(NULL, (const uint8_t *)text, strlen(text), source, &one, err);
    if (st) return st;
    st = sv_schema_merge(dst, one, err);
    sv_schema_free(one);
    return st;
}

static void test_merge(void **state)
{
    (void)state;
    sv_error err;
    sv_schema *m = sv_schema_new(NULL);
    assert_int_equal(load_merge(m, example, "a.json", &err), SV_OK);
    /* the same definitions again merge silently */
    assert_int_equal(load_merge(m, example, "b.json", &err), SV_OK);
    static const char more[] =
        "{\"serval_schema\": 1, \"classes\": [{\"name\": \"Shield\", \"bases\": [\"Item\"], "
        "\"hash\": 7}, {\"name\": \"Item\", \"uuid\": \"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\","
        "\"fields\": [{\"name\": \"id\", \"type\": \"u32\"}]}]}";
    assert_int_equal(load_merge(m, more, "c.json", &err), SV_OK);
    assert_int_equal(sv_schema_finalize(m, &err), SV_OK);
    assert_int_equal(sv_schema_class_count(m), 3);
    const sv_schema_class *shield = sv_schema_class_by_hash(m, 7);
    assert_non_null(shield);
    assert_string_equal(shield->source, "c.json");
    assert_string_equal(sv_schema_class_by_name(m, "Weapon", 6)->source, "a.json");
    assert_true(sv_schema_is_a(shield, sv_schema_class_by_name(m, "Item", 4)));
    size_t n;
    sv_schema_class_fields(sv_schema_class_by_name(m, "Weapon", 6), &n);
    assert_int_equal(n, 6);
    sv_schema_free(m);

    /* conflicts name both sources */
    static const struct {
        const char *a, *b, *msg;
    } rows[] = {
        {"{\"serval_schema\": 1, \"classes\": [{\"name\": \"W\", \"hash\": 1}]}",
         "{\"serval_schema\": 1, \"classes\": [{\"name\": \"W\", \"hash\": 2}]}",
         "class 'W' has hash 1 in 'a.json' and hash 2 in 'b.json'"},
        {"{\"serval_schema\": 1, \"classes\": [{\"name\": \"W\", \"fields\": [{\"name\": \"x\", "
         "\"type\": "
         "\"u8\"}]}]}",
         "{\"serval_schema\": 1, \"classes\": [{\"name\": \"W\", \"fields\": [{\"name\": \"x\", "
         "\"type\": "
         "\"u16\"}]}]}",
         "class 'W' has a different field 'x' in 'a.json' and in 'b.json'"},
        {"{\"serval_schema\": 1, \"enums\": [{\"name\": \"E\", \"values\": [[\"A\", 1]]}]}",
         "{\"serval_schema\": 1, \"enums\": [{\"name\": \"E\", \"values\": [[\"A\", 2]]}]}",
         "enum 'E' has different values in 'a.json' and in 'b.json'"},
        {"{\"serval_schema\": 1, \"enums\": [{\"name\": \"E\"}]}",
         "{\"serval_schema\": 1, \"classes\": [{\"name\": \"E\"}]}",
         "class 'E' is also an enum in 'b.json' and in 'a.json'"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        m = sv_schema_new(NULL);
        assert_int_equal(load_merge(m, rows[i].a, "a.json", &err), SV_OK);
        assert_int_equal(load_merge(m, rows[i].b, "b.json", &err), SV_ERR_SYNTAX);
        assert_string_equal(err.message, rows[i].msg);
        sv_schema_free(m);
    }
    /* the same UUID on two classes of two files: found when the merge is finalised */
    m = sv_schema_new(NULL);
    assert_int_equal(load_merge(m,
                                "{\"serval_schema\": 1, \"classes\": [{\"name\": \"A\", \"uuid\": "
                                "\"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\"}]}",
                                "a.json", &err),
                     SV_OK);
    assert_int_equal(load_merge(m,
                                "{\"serval_schema\": 1, \"classes\": [{\"name\": \"B\", \"uuid\": "
                                "\"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\"}]}",
                                "b.json", &err),
                     SV_OK);
    assert_int_equal(sv_schema_finalize(m, &err), SV_ERR_SYNTAX);
    assert_string_equal(err.message,
                        "classes 'A' (in 'a.json') and 'B' (in 'b.json') have the same "
                        "UUID {E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}");
    sv_schema_free(m);
}

static void test_uuid_text(void **state)
{
    (void)state;
    sv_uuid u;
    char buf[39];
    assert_true(sv_uuid_parse("{8651B6DA-9792-407C-A46D-A6E2E39CA900}", 38, &u));
    sv_uuid_format(&u, true, buf);
    assert_string_equal(buf, "{8651B6DA-9792-407C-A46D-A6E2E39CA900}");
    sv_uuid_format(&u, false, buf);
    assert_string_equal(buf, "8651b6da-9792-407c-a46d-a6e2e39ca900");
    assert_false(sv_uuid_parse("8651B6DA9792407CA46DA6E2E39CA900", 32, &u));
    assert_false(sv_uuid_parse("{8651B6DA-9792-407C-A46D-A6E2E39CA90}", 37, &u));
    assert_false(sv_uuid_parse("8651B6DA-9792-407C-A46D-A6E2E39CA9G0", 36, &u));
}

static void test_describe(void **state)
{
    (void)state;
    sv_schema *s = load(example, "example.json");
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_schema_describe_class(s, sv_schema_class_by_name(s, "Weapon", 6), &b),
                     SV_OK);
    sv_buf_putc(&b, 0);
    assert_string_equal((char *)b.data,
                        "class Weapon\n"
                        "  source: example.json\n"
                        "  hash: 1534054483\n"
                        "  version: 2\n"
                        "  bases: Item\n"
                        "  fields (6):\n"
                        "    id: u32  (from Item)\n"
                        "    damage: f32  default={\"$f32\":1.5}\n"
                        "    element: Element  default={\"$enum\":{\"$u8\":1}}\n"
                        "    tags: vector<string>\n"
                        "    stats: map<string,i32>  flags=7  hash=221725407  id=3\n"
                        "    owner: ptr<Item>\n");
    sv_buf_free(&b);
    sv_schema_free(s);
}

/* The complete example of docs/schema.md loads, and means what it says. */
static void test_docs_example(void **state)
{
    (void)state;
    FILE *f = fopen("../docs/schema.md", "rb");
    if (!f) {
        skip(); /* run from the source tree's tests/ folder */
        return;
    }
    static char doc[65536];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    char *start = strstr(doc, "```json\n");
    assert_non_null(start);
    start += 8;
    char *end = strstr(start, "```");
    assert_non_null(end);
    *end = '\0';
    sv_schema *s = load(start, "docs");
    const sv_schema_class *w = sv_schema_class_by_name(s, "Weapon", 6);
    const sv_schema_field *traits = sv_schema_field_by_name(w, "traits", 6);
    assert_int_equal(sv_get_uint(traits->def), 3);
    assert_int_equal(sv_width(traits->def), 4);
    const sv_schema_field *grip = sv_schema_field_by_name(w, "grip", 4);
    assert_int_equal(sv_kind_of(grip->def), SV_TUPLE);
    assert_int_equal(sv_tag_of(grip->def), SV_TAG_VECTOR3);
    assert_true(sv_number_at(grip->def, 1) == 0.25);
    size_t count;
    sv_schema_class_fields(w, &count);
    assert_int_equal(count, 9);
    assert_string_equal(sv_schema_field_by_name(w, "charges", 7)->native, "bui4");
    assert_string_equal(sv_schema_field_by_name(w, "grip", 4)->native, "");
    sv_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example),      cmocka_unit_test(test_type_expressions),
        cmocka_unit_test(test_bases),        cmocka_unit_test(test_hidden_field),
        cmocka_unit_test(test_large_class),
        cmocka_unit_test(test_read_value),   cmocka_unit_test(test_merge),
        cmocka_unit_test(test_uuid_text),    cmocka_unit_test(test_describe),
        cmocka_unit_test(test_docs_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
