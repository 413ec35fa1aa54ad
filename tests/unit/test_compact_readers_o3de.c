/* O3DE over compact objects. Every piece of the O3DE code that reads the
 * fields of a tree it did not build reads them through sv_key_at /
 * sv_val_at, so a value whose OBJECTs sv_compact_objects rewrote into the
 * compact form (field names in a shared shape, values alone in the object)
 * stores, loads onto, compares and writes as the same value in the pair
 * form does. The expected outputs are the vectors' own: the bytes of the
 * real O3DE files, the values of the load case files and the CLI golden
 * output of `serval o3de store`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_file.h"
#include "helper_o3de.h"
#include "serval/json.h"
#include "serval/o3de.h"
#include "serval/schema.h"
#include "serval/serval.h"

#define REAL "vectors/o3de/real/"
#define CASES "vectors/o3de/cases/"
#define STORE_CASE "cli/cases/o3de-store/"

/* Rewrites every OBJECT of *v into the compact form; the root must then be
 * one (else the test would not be testing the compact form at all). */
static void compact(sv_doc *doc, sv_value *v)
{
    assert_int_equal(sv_compact_objects(doc, v), SV_OK);
    assert_int_equal(sv_kind_of(v), SV_OBJECT);
    assert_non_null(sv_object_shape(v));
}

/* sv_o3de_store then sv_o3de_write (indent as O3DE's files: 4); malloc'd. */
static char *store_text(const sv_schema *s, const sv_type *t, const sv_value *v,
                        const sv_value *def, bool keep_defaults, sv_doc *doc)
{
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.keep_defaults = keep_defaults;
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r = 0;
    sv_value json;
    if (sv_o3de_store(s, t, v, def, doc, &json, &o, &r, &err) != SV_OK)
        fail_msg("store: %s", err.message);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_o3de_write(&json, 4, &b, &err), SV_OK);
    sv_buf_putc(&b, 0);
    char *text = strdup((const char *)b.data);
    sv_buf_free(&b);
    return text;
}

/* The plain O3DE JSON text of a value tree as it is (sv_o3de_write walks
 * OBJECTs as objects); malloc'd. */
static char *tree_text(const sv_value *v)
{
    sv_error err;
    sv_error_clear(&err);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_o3de_write(v, 0, &b, &err), SV_OK);
    sv_buf_putc(&b, 0);
    char *text = strdup((const char *)b.data);
    sv_buf_free(&b);
    return text;
}

static int compare(const sv_value *a, const sv_value *b)
{
    int order = 99;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_compare(NULL, a, b, &order, &err), SV_OK);
    return order;
}

/* One real file of class cls: loaded from the class default, the value
 * compacted stores to the file's bytes; loaded onto a compacted default
 * (the loader copies the starting object's fields), through the tree and
 * through the streamed text loader, it stores to them too; stripped
 * against a compacted default it gives what the pair form gives; it
 * compares equal to the pair form and writes the same plain text. */
static void real_file(const char *schema_file, const char *cls, const char *file,
                      bool keep_defaults)
{
    sv_schema *s = test_load_schema(schema_file);
    size_t len;
    char *text = test_read_file(file, &len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *t = NULL;
    assert_int_equal(sv_schema_parse_type(s, cls, strlen(cls), &t, &err), SV_OK);
    sv_value json, pair, packed, def;
    assert_int_equal(sv_o3de_read(doc, text, len, NULL, &json, &err), SV_OK);
    sv_o3de_result r = 0;

    /* the pair form, as the loader makes it */
    assert_int_equal(sv_o3de_default_value(s, t, doc, &pair, &err), SV_OK);
    assert_int_equal(sv_o3de_load(s, t, &json, doc, &pair, NULL, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    assert_null(sv_object_shape(&pair));

    /* the same value loaded again, then compacted: the writer's reads */
    assert_int_equal(sv_o3de_default_value(s, t, doc, &packed, &err), SV_OK);
    assert_int_equal(sv_o3de_load(s, t, &json, doc, &packed, NULL, &r, &err), SV_OK);
    compact(doc, &packed);
    char *out = store_text(s, t, &packed, NULL, keep_defaults, doc);
    assert_string_equal(out, text);
    free(out);

    /* loading onto a compact starting value */
    sv_value onto;
    assert_int_equal(sv_o3de_default_value(s, t, doc, &onto, &err), SV_OK);
    compact(doc, &onto);
    assert_int_equal(sv_o3de_load(s, t, &json, doc, &onto, NULL, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    out = store_text(s, t, &onto, NULL, keep_defaults, doc);
    assert_string_equal(out, text);
    free(out);

    assert_int_equal(sv_o3de_default_value(s, t, doc, &onto, &err), SV_OK);
    compact(doc, &onto);
    assert_int_equal(sv_o3de_load_text(s, t, text, len, NULL, doc, &onto, NULL, &r, NULL, NULL,
                                       &err),
                     SV_OK);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    out = store_text(s, t, &onto, NULL, keep_defaults, doc);
    assert_string_equal(out, text);
    free(out);

    /* stripped against a compact default: what the pair form gives */
    assert_int_equal(sv_o3de_default_value(s, t, doc, &def, &err), SV_OK);
    char *want = store_text(s, t, &pair, &def, false, doc);
    compact(doc, &def);
    out = store_text(s, t, &packed, &def, false, doc);
    assert_string_equal(out, want);
    free(out);
    free(want);

    /* O3DE's Compare and the plain writer over the typed trees */
    assert_int_equal(compare(&packed, &pair), 0);
    assert_int_equal(compare(&pair, &packed), 0);
    want = tree_text(&pair);
    out = tree_text(&packed);
    assert_string_equal(out, want);
    free(out);
    free(want);

    sv_doc_free(doc);
    free(text);
    sv_schema_free(s);
}

static void test_real_prefab(void **state)
{
    (void)state;
    real_file(REAL "prefab.schema.json", "Prefab", REAL "Empty.prefab", true);
}

static void test_real_setreg(void **state)
{
    (void)state;
    real_file(REAL "setreg.schema.json", "AssetCacheServerRegistry",
              REAL "asset_cache_server_settings.setreg", true);
    real_file(REAL "setreg.schema.json", "PhysXDebugRegistry",
              REAL "physxdebugconfiguration.setreg", true);
}

static const char *member_text(const sv_value *line, const char *name)
{
    size_t n;
    const sv_value *m = sv_map_getz(line, name);
    return m ? sv_get_str(m, &n) : NULL;
}

/* Every load case of a case file (tests/vectors/o3de/cases/) with its
 * starting value compacted: the stored value is the case's. Returns how
 * many cases started from an object (and so read a compact one). */
static size_t run_case_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (run from tests/)", path);
    char line[4096];
    size_t objects = 0, count = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (len < 2) continue;
        assert_true(line[len - 1] == '\n');
        count++;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value c = o3t_json(doc, line);
        const char *type = member_text(&c, "type"), *json = member_text(&c, "json");
        const char *value = member_text(&c, "value"), *start = member_text(&c, "start");
        if (!type || !json || !value) fail_msg("%s: line %zu lacks a member", path, count);
        const sv_type *t = o3t_type(type);
        sv_error err;
        sv_error_clear(&err);
        sv_o3de_opts o;
        sv_o3de_opts_init(&o);
        o.keep_defaults = true;
        sv_o3de_result r = 0;
        sv_value v;
        assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &v, &err), SV_OK);
        if (start) {
            sv_value sj = o3t_json(doc, start);
            assert_int_equal(sv_o3de_load(o3t_schema(), t, &sj, doc, &v, &o, &r, &err), SV_OK);
        }
        assert_int_equal(sv_compact_objects(doc, &v), SV_OK);
        if (sv_object_shape(&v)) objects++;
        sv_value j = o3t_json(doc, json);
        assert_int_equal(sv_o3de_load(o3t_schema(), t, &j, doc, &v, &o, &r, &err), SV_OK);
        assert_int_equal(sv_compact_objects(doc, &v), SV_OK);
        sv_value out;
        assert_int_equal(sv_o3de_store(o3t_schema(), t, &v, NULL, doc, &out, &o, &r, &err), SV_OK);
        const char *got = o3t_text(&out);
        if (strcmp(got, value) != 0)
            fail_msg("%s line %zu: %s <- %s: stored %s, want %s", path, count, type, json, got,
                     value);
        sv_doc_free(doc);
    }
    fclose(f);
    assert_true(count > 0);
    return objects;
}

static void test_case_files(void **state)
{
    (void)state;
    /* matrices are no objects; the "any" cases start from objects */
    (void)run_case_file(CASES "matrix.jsonl");
    assert_true(run_case_file(CASES "any.jsonl") > 0);
}

/* A typed value with $class objects (the CLI case o3de-store): compacted,
 * `serval o3de store` makes the golden output, and O3DE's Compare tells a
 * changed field apart from the pair form. */
static void test_typed_json_store(void **state)
{
    (void)state;
    sv_schema *s = test_load_schema(STORE_CASE "item.schema.json");
    size_t len, want_len;
    char *text = test_read_file(STORE_CASE "value.json", &len);
    char *want = test_read_file(STORE_CASE "stdout", &want_len);
    assert_true(want_len > 0 && want[want_len - 1] == '\n');
    want[want_len - 1] = 0; /* the CLI ends the text with a newline */
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *t = NULL;
    assert_int_equal(sv_schema_parse_type(s, "Item", 4, &t, &err), SV_OK);
    /* as the CLI reads it: typed JSON, then the schema's value of type t */
    sv_value typed, pair, packed;
    assert_int_equal(sv_json_decode(doc, text, len, NULL, &typed, &err), SV_OK);
    assert_int_equal(sv_schema_read_value(s, t, &typed, doc, &pair, &err), SV_OK);
    assert_int_equal(sv_schema_read_value(s, t, &typed, doc, &packed, &err), SV_OK);
    compact(doc, &packed);
    const sv_value *owner = sv_map_getz(&packed, "owner");
    assert_non_null(owner);
    assert_non_null(sv_object_shape(owner));
    char *out = store_text(s, t, &packed, NULL, false, doc);
    assert_string_equal(out, want);
    free(out);
    assert_int_equal(compare(&packed, &pair), 0);
    /* var2 of the owner (0.5 in both) raised in the compact tree only */
    sv_value *var2 = sv_map_getz(owner, "var2");
    assert_non_null(var2);
    *var2 = sv_f64(0.75);
    assert_true(compare(&packed, &pair) > 0);
    assert_true(compare(&pair, &packed) < 0);
    sv_doc_free(doc);
    free(want);
    free(text);
    sv_schema_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_prefab),
        cmocka_unit_test(test_real_setreg),
        cmocka_unit_test(test_case_files),
        cmocka_unit_test(test_typed_json_store),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    o3t_schema_free();
    return r;
}
