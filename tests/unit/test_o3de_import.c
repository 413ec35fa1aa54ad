/* "$import" resolved and restored as O3DE's JsonImportResolver does: the
 * cases of O3DE's TestCases_Importing.cpp (their documents, inputs and
 * expected texts, in RapidJSON's member order), then the rules its
 * JsonImporter.cpp fixes (names joined to the importing file's directory,
 * members beside the directive dropped, the cycle and failed-load reports)
 * and the bounds serval adds against hostile sets of files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "helper_o3de.h"

/* ---- the documents of TestCases_Importing.cpp ----------------------------- */

typedef struct named {
    const char *name, *text;
} named;

static const named o3de_docs[] = {
    {"object.json",
     "{\"field_1\" : \"value_1\", \"field_2\" : \"value_2\", \"field_3\" : \"value_3\"}"},
    {"array.json", "[{ \"element_1\" : \"value_1\" }, { \"element_2\" : \"value_2\" },"
                   " { \"element_3\" : \"value_3\" }]"},
    {"nested_import.json", "{\"desc\" : \"Nested Import\", \"obj\" : {\"$import\" : \"object.json\"}}"},
    {"nested_import_c1.json",
     "{\"desc\" : \"Nested Import Cycle 1\", \"obj\" : {\"$import\" : \"nested_import_c2.json\"}}"},
    {"nested_import_c2.json",
     "{\"desc\" : \"Nested Import Cycle 2\", \"obj\" : {\"$import\" : \"nested_import_c1.json\"}}"},
    {NULL, NULL},
};

typedef struct files {
    const named *docs;
    char asked[64][128]; /* every path the resolver asked for */
    int nasked;
    /* generated documents for the hostile cases: 0 none */
    int chain;  /* "cN.json" imports "c(N+1).json" */
    int fanout; /* "f.json" is an array of fanout imports of "f.json"'s leaf */
    int nest;   /* each "c" document wraps its import in this many objects */
    int levels; /* "lN.json" is ten imports of "l(N+1).json", down to object.json */
    int identified; /* calls of identify_by_base_name */
} files;

static sv_status load_named(void *ctx, const char *path, sv_doc *doc, sv_value *out, sv_error *err)
{
    files *f = ctx;
    if (f->nasked < 64) snprintf(f->asked[f->nasked++], sizeof f->asked[0], "%s", path);
    char gen[4096];
    const char *text = NULL;
    int n;
    if (f->chain && sscanf(path, "c%d.json", &n) == 1) {
        size_t k = 0;
        for (int i = 0; i < f->nest; i++) k += (size_t)snprintf(gen + k, sizeof gen - k, "{\"a\":");
        k += (size_t)snprintf(gen + k, sizeof gen - k, "{\"$import\":\"c%d.json\"}", n + 1);
        for (int i = 0; i < f->nest; i++) gen[k++] = '}';
        gen[k] = 0;
        text = gen;
    } else if (f->levels && sscanf(path, "l%d.json", &n) == 1) {
        size_t k = (size_t)snprintf(gen, sizeof gen, "[");
        for (int i = 0; i < 10; i++)
            k += (size_t)snprintf(gen + k, sizeof gen - k, "%s{\"$import\":\"l%d.json\"}",
                                  i ? "," : "", n + 1);
        snprintf(gen + k, sizeof gen - k, "]");
        text = n < f->levels ? gen : o3de_docs[0].text;
    } else if (f->fanout && !strcmp(path, "f.json")) {
        size_t k = (size_t)snprintf(gen, sizeof gen, "[");
        for (int i = 0; i < f->fanout; i++)
            k += (size_t)snprintf(gen + k, sizeof gen - k, "%s{\"$import\":\"f.json\"}", i ? "," : "");
        snprintf(gen + k, sizeof gen - k, "]");
        text = gen;
    }
    for (const named *d = f->docs; !text && d && d->name; d++)
        if (!strcmp(d->name, path)) text = d->text;
    if (!text) return sv_error_set(err, SV_ERR_IO, "test", 0, "no such file");
    return sv_o3de_read(doc, text, strlen(text), NULL, out, err);
}

typedef struct log {
    char lines[8][300];
    int n;
} log_t;

static sv_o3de_result on_report(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    log_t *l = ctx;
    if (l->n < 8)
        snprintf(l->lines[l->n++], sizeof l->lines[0], "%s|%s|%s", path,
                 sv_o3de_outcome_name(sv_o3de_result_outcome(r)), message);
    return r;
}

static sv_o3de_import_opts opts_for(files *f, log_t *l, const char *path)
{
    sv_o3de_import_opts o;
    sv_o3de_import_opts_init(&o);
    o.load = load_named;
    o.load_ctx = f;
    o.path = path;
    o.report = on_report;
    o.report_ctx = l;
    return o;
}

/* TestImportLoadStore: resolving gives expected, restoring gives input back. */
static void load_store_case(const char *input, const char *expected)
{
    sv_doc *doc = sv_doc_new(NULL);
    files f = {.docs = o3de_docs};
    log_t l = {0};
    sv_o3de_import_opts o = opts_for(&f, &l, NULL);
    sv_value j = o3t_json(doc, input), want = o3t_json(doc, expected), orig = o3t_json(doc, input);
    sv_o3de_imports *found = sv_o3de_imports_new(NULL);
    assert_non_null(found);
    sv_o3de_result r = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_resolve_imports(doc, &j, &o, found, &r, &err), SV_OK);
    assert_int_equal(r, sv_o3de_result_make(SV_O3DE_IMPORT, SV_O3DE_SUCCESS));
    char text[1024];
    snprintf(text, sizeof text, "%s", o3t_text(&want));
    assert_string_equal(o3t_text(&j), text);
    assert_int_equal(sv_o3de_restore_imports(doc, &j, &o, found, &r, &err), SV_OK);
    assert_int_equal(r, sv_o3de_result_make(SV_O3DE_IMPORT, SV_O3DE_SUCCESS));
    snprintf(text, sizeof text, "%s", o3t_text(&orig));
    assert_string_equal(o3t_text(&j), text);
    assert_int_equal(l.n, 0);
    sv_o3de_imports_free(found);
    sv_doc_free(doc);
}

static void test_import_simple_object(void **state)
{
    (void)state;
    load_store_case("{\"name\" : \"simple_object_import\", \"object\": {\"$import\" : \"object.json\"}}",
                    "{\"name\" : \"simple_object_import\", \"object\": {\"field_1\" : \"value_1\","
                    " \"field_2\" : \"value_2\", \"field_3\" : \"value_3\"}}");
}

static void test_import_simple_object_patch(void **state)
{
    (void)state;
    load_store_case("{\"name\" : \"simple_object_import\", \"object\": {\"$import\" : {"
                    " \"filename\" : \"object.json\", \"patch\" : { \"field_2\" : \"patched_value\" }}}}",
                    "{\"name\" : \"simple_object_import\", \"object\": {\"field_1\" : \"value_1\","
                    " \"field_2\" : \"patched_value\", \"field_3\" : \"value_3\"}}");
}

static void test_import_simple_array(void **state)
{
    (void)state;
    load_store_case("{\"name\" : \"simple_array_import\", \"object\": {\"$import\" : \"array.json\"}}",
                    "{\"name\" : \"simple_array_import\", \"object\": [{ \"element_1\" : \"value_1\" },"
                    " { \"element_2\" : \"value_2\" }, { \"element_3\" : \"value_3\" }]}");
}

static void test_import_simple_array_patch(void **state)
{
    (void)state;
    load_store_case("{\"name\" : \"simple_array_import\", \"object\": {\"$import\" : {"
                    " \"filename\" : \"array.json\", \"patch\" : [ { \"element_1\" : \"patched_value\" } ]}}}",
                    "{\"name\" : \"simple_array_import\", \"object\": [{ \"element_1\" : \"patched_value\" }]}");
}

static void test_nested_import(void **state)
{
    (void)state;
    load_store_case("{\"name\" : \"nested_import\", \"object\": {\"$import\" : \"nested_import.json\"}}",
                    "{\"name\" : \"nested_import\", \"object\": {\"desc\" : \"Nested Import\","
                    " \"obj\" : {\"field_1\" : \"value_1\", \"field_2\" : \"value_2\","
                    " \"field_3\" : \"value_3\"}}}");
}

static void test_nested_import_patch(void **state)
{
    (void)state;
    load_store_case("{\"name\" : \"nested_import\", \"object\": {\"$import\" : {"
                    " \"filename\" : \"nested_import.json\","
                    " \"patch\" : { \"obj\" : { \"field_3\" : \"patched_value\" } }}}}",
                    "{\"name\" : \"nested_import\", \"object\": {\"desc\" : \"Nested Import\","
                    " \"obj\" : {\"field_1\" : \"value_1\", \"field_2\" : \"value_2\","
                    " \"field_3\" : \"patched_value\"}}}");
}

/* Resolves input; returns the result, the text in *text (may be NULL). */
static sv_o3de_result resolve(files *f, log_t *l, const char *path, const char *input,
                              sv_o3de_imports *found, char *text, size_t cap,
                              void (*tweak)(sv_o3de_import_opts *))
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_o3de_import_opts o = opts_for(f, l, path);
    if (tweak) tweak(&o);
    sv_value j = o3t_json(doc, input);
    sv_o3de_result r = 0;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_resolve_imports(doc, &j, &o, found, &r, &err), SV_OK);
    if (text) snprintf(text, cap, "%s", o3t_text(&j));
    sv_doc_free(doc);
    return r;
}

#define CATASTROPHIC sv_o3de_result_make(SV_O3DE_IMPORT, SV_O3DE_CATASTROPHIC)
#define SUCCESS sv_o3de_result_make(SV_O3DE_IMPORT, SV_O3DE_SUCCESS)

static void test_nested_import_cycle(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    sv_o3de_result r = resolve(&f, &l, NULL,
                               "{\"name\" : \"nested_import_cycle\","
                               " \"object\": {\"$import\" : \"nested_import_c1.json\"}}",
                               NULL, NULL, 0, NULL);
    assert_int_equal(r, CATASTROPHIC);
    /* reported where c2 imports c1 again, with JsonImporter.cpp's message */
    assert_int_equal(l.n, 1);
    assert_string_equal(l.lines[0], "/obj|Catastrophic|'nested_import_c1.json' was already imported "
                                    "in this chain. This indicates a cyclic dependency.");
}

static void test_insert_new_import(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    files f = {.docs = o3de_docs};
    log_t l = {0};
    sv_o3de_import_opts o = opts_for(&f, &l, NULL);
    sv_value j = o3t_json(doc, "{\"name\" : \"simple_object_import\","
                               " \"object_1\": {\"$import\" : \"object.json\"},"
                               " \"object_2\": {\"field_1\" : \"other_value\", \"field_2\" : \"value_2\","
                               " \"field_3\" : \"value_3\"}}");
    sv_value want = o3t_json(doc, "{\"name\" : \"simple_object_import\","
                                  " \"object_1\": {\"$import\" : \"object.json\"},"
                                  " \"object_2\": {\"$import\" : {\"filename\" : \"object.json\","
                                  " \"patch\" : { \"field_1\" : \"other_value\" }}}}");
    sv_o3de_imports *found = sv_o3de_imports_new(NULL);
    sv_o3de_result r;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_resolve_imports(doc, &j, &o, found, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_imports_add(found, "/object_2", "object.json"), SV_OK);
    assert_int_equal(sv_o3de_imports_add(found, "/object_2", "object.json"), SV_OK); /* once */
    assert_int_equal(sv_o3de_imports_count(found), 2);
    assert_int_equal(sv_o3de_restore_imports(doc, &j, &o, found, &r, &err), SV_OK);
    assert_int_equal(r, SUCCESS);
    char text[512];
    snprintf(text, sizeof text, "%s", o3t_text(&want));
    assert_string_equal(o3t_text(&j), text);
    sv_o3de_imports_free(found);
    sv_doc_free(doc);
}

/* ---- JsonImporter.cpp's rules ---------------------------------------------- */

static const named tree_docs[] = {
    {"game/settings/sub/a.json", "{\"from\":\"a\",\"next\":{\"$import\":\"b.json\"}}"},
    {"game/settings/sub/b.json", "{\"from\":\"b\"}"},
    {"/abs/c.json", "[1,2]"},
    {NULL, NULL},
};

static void test_names_join_the_importing_files_directory(void **state)
{
    (void)state;
    files f = {.docs = tree_docs};
    log_t l = {0};
    sv_o3de_imports *found = sv_o3de_imports_new(NULL);
    char text[512];
    sv_o3de_result r = resolve(&f, &l, "game/settings/root.setreg",
                               "{\"x\":{\"$import\":\"sub/a.json\"},\"y\":[{\"$import\":\"/abs/c.json\"}],"
                               "\"z\":{\"$import\":\"./sub//b.json\"}}",
                               found, text, sizeof text, NULL);
    assert_int_equal(r, SUCCESS);
    assert_string_equal(text, "{\"x\":{\"from\":\"a\",\"next\":{\"from\":\"b\"}},\"y\":[[1,2]],"
                              "\"z\":{\"from\":\"b\"}}");
    assert_int_equal(f.nasked, 3); /* b.json, named twice, is loaded once */
    assert_string_equal(f.asked[0], "game/settings/sub/a.json");
    assert_string_equal(f.asked[1], "game/settings/sub/b.json"); /* a's own directory */
    assert_string_equal(f.asked[2], "/abs/c.json");
    /* the document's own directives to restore, every file as a dependency */
    assert_int_equal(sv_o3de_imports_count(found), 3);
    const char *ptr, *name, *res;
    assert_true(sv_o3de_imports_at(found, 0, &ptr, &name, &res));
    assert_string_equal(ptr, "/x");
    assert_string_equal(name, "sub/a.json");
    assert_string_equal(res, "game/settings/sub/a.json");
    assert_true(sv_o3de_imports_at(found, 1, &ptr, &name, &res));
    assert_string_equal(ptr, "/y/0");
    assert_true(sv_o3de_imports_at(found, 2, &ptr, &name, &res));
    assert_string_equal(name, "./sub//b.json");
    assert_false(sv_o3de_imports_at(found, 3, &ptr, &name, &res));
    assert_int_equal(sv_o3de_imports_file_count(found), 3);
    assert_string_equal(sv_o3de_imports_file_at(found, 0), "game/settings/sub/a.json");
    assert_string_equal(sv_o3de_imports_file_at(found, 1), "game/settings/sub/b.json");
    assert_string_equal(sv_o3de_imports_file_at(found, 2), "/abs/c.json");
    assert_null(sv_o3de_imports_file_at(found, 3));
    sv_o3de_imports_free(found);
}

static void test_members_beside_the_directive_are_dropped(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    char text[512];
    /* ResolveImport copies the imported document over the whole object */
    sv_o3de_result r = resolve(&f, &l, NULL,
                               "{\"o\":{\"before\":{\"$import\":\"array.json\"},\"$import\":\"object.json\","
                               "\"after\":1}}",
                               NULL, text, sizeof text, NULL);
    assert_int_equal(r, SUCCESS);
    assert_string_equal(text, "{\"o\":{\"field_1\":\"value_1\",\"field_2\":\"value_2\","
                              "\"field_3\":\"value_3\"}}");
    /* the import inside "before" was resolved first, then dropped */
    assert_int_equal(f.nasked, 2);
    assert_string_equal(f.asked[0], "array.json");
}

static void test_patch_only_when_a_non_empty_object_or_array(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    char text[512];
    const char *whole = "{\"field_1\":\"value_1\",\"field_2\":\"value_2\",\"field_3\":\"value_3\"}";
    assert_int_equal(resolve(&f, &l, NULL, "{\"$import\":{\"filename\":\"object.json\",\"patch\":5}}",
                             NULL, text, sizeof text, NULL),
                     SUCCESS);
    assert_string_equal(text, whole);
    assert_int_equal(resolve(&f, &l, NULL, "{\"$import\":{\"filename\":\"object.json\",\"patch\":[]}}",
                             NULL, text, sizeof text, NULL),
                     SUCCESS);
    assert_string_equal(text, whole);
    /* a merge patch removes with null */
    assert_int_equal(resolve(&f, &l, NULL,
                             "{\"$import\":{\"filename\":\"object.json\",\"patch\":{\"field_1\":null}}}",
                             NULL, text, sizeof text, NULL),
                     SUCCESS);
    assert_string_equal(text, "{\"field_2\":\"value_2\",\"field_3\":\"value_3\"}");
    assert_int_equal(l.n, 0);
}

static void test_failed_load_is_catastrophic_at_the_files_path(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    char text[512];
    sv_o3de_result r = resolve(&f, &l, "dir/root.json",
                               "{\"a\":{\"$import\":\"object.json\"},\"b\":{\"$import\":\"missing.json\"},"
                               "\"c\":{\"$import\":\"object.json\"}}",
                               NULL, text, sizeof text, NULL);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.lines[0], "dir/object.json|Catastrophic|Failed to import file "
                                    "'dir/object.json'. Reason: 'no such file'");
    /* the first failure stops the walk */
    assert_int_equal(f.nasked, 1);
    /* an object directive without "filename" names the directory */
    l.n = 0;
    f.nasked = 0;
    r = resolve(&f, &l, "dir/root.json", "{\"$import\":{\"patch\":{}}}", NULL, NULL, 0, NULL);
    assert_int_equal(r, CATASTROPHIC);
    assert_string_equal(f.asked[0], "dir");
    /* neither a name nor an object */
    l.n = 0;
    r = resolve(&f, &l, NULL, "[{\"$import\":5}]", NULL, NULL, 0, NULL);
    assert_int_equal(r, CATASTROPHIC);
    assert_string_equal(l.lines[0], "/0|Catastrophic|The \"$import\" directive is neither a file "
                                    "name nor an object whose \"filename\" is a string.");
}

static void no_nesting(sv_o3de_import_opts *o) { o->nested = false; }

static void test_nested_off_leaves_inner_directives(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    char text[512];
    sv_o3de_result r = resolve(&f, &l, NULL, "{\"$import\":\"nested_import_c1.json\"}", NULL, text,
                               sizeof text, no_nesting);
    assert_int_equal(r, SUCCESS);
    assert_string_equal(text, "{\"desc\":\"Nested Import Cycle 1\","
                              "\"obj\":{\"$import\":\"nested_import_c2.json\"}}");
}

/* ---- hostile sets of files ------------------------------------------------ */

static void test_self_import_spelled_differently_is_a_cycle(void **state)
{
    (void)state;
    static const named self[] = {{"d/self.json", "{\"$import\":\"./self.json\"}"}, {NULL, NULL}};
    files f = {.docs = self};
    log_t l = {0};
    sv_o3de_result r = resolve(&f, &l, "d/self.json", "{\"$import\":\"self.json\"}", NULL, NULL, 0,
                               NULL);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(f.nasked, 1);
    assert_string_equal(l.lines[0], "|Catastrophic|'d/self.json' was already imported in this "
                                    "chain. This indicates a cyclic dependency.");
}

static void test_endless_chain_stops_at_the_chain_limit(void **state)
{
    (void)state;
    files f = {.chain = 1};
    log_t l = {0};
    sv_o3de_result r = resolve(&f, &l, NULL, "{\"$import\":\"c0.json\"}", NULL, NULL, 0, NULL);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(f.nasked, 33); /* the root plus 32 nested */
    assert_string_equal(l.lines[0], "|Catastrophic|Importing 'c32.json' nests imports more than 32 deep.");
}

static void long_chain(sv_o3de_import_opts *o) { o->max_chain = 256; }

static void test_nesting_through_imports_is_bounded(void **state)
{
    (void)state;
    files f = {.chain = 1, .nest = 100};
    log_t l = {0};
    sv_o3de_result r = resolve(&f, &l, NULL, "{\"$import\":\"c0.json\"}", NULL, NULL, 0, long_chain);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(l.n, 1);
    assert_non_null(strstr(l.lines[0], "|Catastrophic|The JSON is nested more than 1024 deep with "
                                       "its imports."));
    assert_int_equal(f.nasked, 11); /* 10 files of 100 levels, then the 11th goes past */
}

static void test_fan_out_loads_each_file_once(void **state)
{
    (void)state;
    /* f.json is 40 imports of itself: a cycle only once a leaf nests, so
     * ask for no nesting: 30 directives, one load */
    files f = {.fanout = 40};
    log_t l = {0};
    char input[2048];
    size_t k = (size_t)snprintf(input, sizeof input, "[");
    for (int i = 0; i < 30; i++)
        k += (size_t)snprintf(input + k, sizeof input - k, "%s{\"$import\":\"f.json\"}", i ? "," : "");
    snprintf(input + k, sizeof input - k, "]");
    sv_o3de_result r = resolve(&f, &l, NULL, input, NULL, NULL, 0, no_nesting);
    assert_int_equal(r, SUCCESS);
    assert_int_equal(f.nasked, 1);
    /* with nesting every f.json imports f.json: a cycle, found at once,
     * without loading f.json a second time */
    f.nasked = 0;
    r = resolve(&f, &l, NULL, input, NULL, NULL, 0, NULL);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(f.nasked, 1);
    assert_string_equal(l.lines[0], "/0|Catastrophic|'f.json' was already imported in this chain. "
                                    "This indicates a cyclic dependency.");
}

static void few_imports(sv_o3de_import_opts *o)
{
    o->max_imports = 10;
    o->nested = false;
}

/* The limit counts files loaded, not directives: eleven directives naming
 * one file are one import, eleven files are too many. */
static void test_import_count_limit(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs, .chain = 1};
    log_t l = {0};
    char input[2048];
    size_t k = (size_t)snprintf(input, sizeof input, "[");
    for (int i = 0; i < 11; i++)
        k += (size_t)snprintf(input + k, sizeof input - k, "%s{\"$import\":\"object.json\"}", i ? "," : "");
    snprintf(input + k, sizeof input - k, "]");
    sv_o3de_result r = resolve(&f, &l, NULL, input, NULL, NULL, 0, few_imports);
    assert_int_equal(r, SUCCESS);
    assert_int_equal(f.nasked, 1);
    assert_int_equal(l.n, 0);

    f.nasked = 0;
    k = (size_t)snprintf(input, sizeof input, "[");
    for (int i = 0; i < 11; i++)
        k += (size_t)snprintf(input + k, sizeof input - k, "%s{\"$import\":\"c%d.json\"}", i ? "," : "", i);
    snprintf(input + k, sizeof input - k, "]");
    r = resolve(&f, &l, NULL, input, NULL, NULL, 0, few_imports);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(f.nasked, 10);
    assert_string_equal(l.lines[0], "/10|Catastrophic|Importing 'c10.json' goes past the limit of "
                                    "10 imported files.");
}

/* ---- each file loaded once per call ----------------------------------------- */

/* A file named by several directives is loaded and resolved once; each
 * directive still gets the whole document, and a patch changes only its
 * own directive's value. */
static void test_a_file_named_again_is_loaded_once_and_patched_per_directive(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    char text[2048];
    sv_o3de_result r = resolve(&f, &l, NULL,
                               "[{\"$import\":\"nested_import.json\"},"
                               "{\"$import\":{\"filename\":\"nested_import.json\","
                               "\"patch\":{\"obj\":{\"field_3\":\"p\"},\"desc\":null}}},"
                               "{\"$import\":\"nested_import.json\"},{\"$import\":\"object.json\"}]",
                               NULL, text, sizeof text, NULL);
    assert_int_equal(r, SUCCESS);
#define OBJ "{\"field_1\":\"value_1\",\"field_2\":\"value_2\",\"field_3\":\"value_3\"}"
    assert_string_equal(text, "[{\"desc\":\"Nested Import\",\"obj\":" OBJ "},"
                              "{\"obj\":{\"field_1\":\"value_1\",\"field_2\":\"value_2\",\"field_3\":\"p\"}},"
                              "{\"desc\":\"Nested Import\",\"obj\":" OBJ "}," OBJ "]");
#undef OBJ
    /* object.json is named by nested_import.json and by the last directive */
    assert_int_equal(f.nasked, 2);
    assert_string_equal(f.asked[0], "nested_import.json");
    assert_string_equal(f.asked[1], "object.json");
}

/* The identify callback names files: two names of one file, one load. */
static sv_status identify_by_base_name(void *ctx, const char *path, char *key, size_t size,
                                       sv_error *err)
{
    files *f = ctx;
    f->identified++;
    if (strstr(path, "refused")) return sv_error_set(err, SV_ERR_IO, "test", 0, "not a regular file");
    const char *slash = strrchr(path, '/');
    snprintf(key, size, "%s", slash ? slash + 1 : path);
    return SV_OK;
}

static void by_base_name(sv_o3de_import_opts *o) { o->identify = identify_by_base_name; }

static void test_identify_names_one_file_by_two_paths(void **state)
{
    (void)state;
    files f = {.docs = o3de_docs};
    log_t l = {0};
    char text[512];
    sv_o3de_result r = resolve(&f, &l, NULL,
                               "[{\"$import\":\"array.json\"},{\"$import\":\"x/../array.json\"}]",
                               NULL, text, sizeof text, by_base_name);
    assert_int_equal(r, SUCCESS);
    assert_int_equal(f.identified, 2);
    assert_int_equal(f.nasked, 1);
    assert_string_equal(f.asked[0], "array.json");
    assert_string_equal(text, "[[{\"element_1\":\"value_1\"},{\"element_2\":\"value_2\"},"
                              "{\"element_3\":\"value_3\"}],[{\"element_1\":\"value_1\"},"
                              "{\"element_2\":\"value_2\"},{\"element_3\":\"value_3\"}]]");
    /* a file identify refuses is never loaded: a failed import */
    f.nasked = 0;
    r = resolve(&f, &l, NULL, "{\"a\":{\"$import\":\"refused.json\"}}", NULL, NULL, 0, by_base_name);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(f.nasked, 0);
    assert_string_equal(l.lines[0], "refused.json|Catastrophic|Failed to import file 'refused.json'. "
                                    "Reason: 'not a regular file'");
}

/* Six levels of ten directives: a million copies of object.json in the
 * result, seven files loaded. Sharing makes that cheap to resolve, but
 * whatever reads the result whole would not be: the size it expands to is
 * held to the document's allocation limit. */
static void test_expansion_is_bounded_by_the_allocation_limit(void **state)
{
    (void)state;
    files f = {.levels = 6};
    log_t l = {0};
    sv_o3de_result r = resolve(&f, &l, NULL, "{\"$import\":\"l0.json\"}", NULL, NULL, 0, NULL);
    assert_int_equal(r, SUCCESS); /* under the default limit of 4 GiB */
    assert_int_equal(f.nasked, 7);

    f.nasked = 0;
    sv_doc *doc = sv_doc_new(NULL);
    sv_doc_set_max_alloc(doc, 1u << 20);
    sv_o3de_import_opts o = opts_for(&f, &l, NULL);
    sv_value j = o3t_json(doc, "{\"$import\":\"l0.json\"}");
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_resolve_imports(doc, &j, &o, NULL, &r, &err), SV_OK);
    assert_int_equal(r, CATASTROPHIC);
    assert_int_equal(f.nasked, 7);
    assert_string_equal(l.lines[0], "/6|Catastrophic|The imports expand the document past 1048576 "
                                    "bytes, the allocation limit.");
    sv_doc_free(doc);
}

/* Every allocation failing in turn: resolving and restoring end in SV_OK
 * or SV_ERR_NOMEM, and nothing stays allocated. */
static void test_allocation_failures(void **state)
{
    (void)state;
    const char *input = "{\"a\":{\"$import\":{\"filename\":\"nested_import.json\","
                        "\"patch\":{\"obj\":{\"field_3\":\"p\"}}}},\"b\":[{\"$import\":\"array.json\"}]}";
    int nomem = 0, ok = 0;
    for (long n = 1; n < 400; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        sv_doc *doc = sv_doc_new(&t.alloc);
        sv_o3de_imports *found = doc ? sv_o3de_imports_new(&t.alloc) : NULL;
        if (doc && found) {
            files f = {.docs = o3de_docs};
            log_t l = {0};
            sv_o3de_import_opts o = opts_for(&f, &l, NULL);
            sv_error err;
            sv_error_clear(&err);
            sv_value j;
            sv_o3de_result r;
            sv_status st = sv_o3de_read(doc, input, strlen(input), NULL, &j, &err);
            if (st == SV_OK) st = sv_o3de_resolve_imports(doc, &j, &o, found, &r, &err);
            /* a load that ran out of memory is a failed import, reported */
            if (st == SV_OK && sv_o3de_result_outcome(r) == SV_O3DE_SUCCESS)
                st = sv_o3de_restore_imports(doc, &j, &o, found, &r, &err);
            assert_true(st == SV_OK || st == SV_ERR_NOMEM);
            if (st == SV_OK) ok++;
            else nomem++;
        }
        sv_o3de_imports_free(found);
        sv_doc_free(doc);
        assert_int_equal(t.live_bytes, 0);
        if (t.failures == 0) break; /* the whole run fitted before allocation n */
    }
    assert_true(nomem > 0);
    assert_true(ok > 0);
}

static void test_options_are_required(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value j = o3t_json(doc, "{}");
    sv_o3de_import_opts o;
    memset(&o, 0, sizeof o);
    sv_o3de_result r;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_o3de_resolve_imports(doc, &j, &o, NULL, &r, &err), SV_ERR_USAGE);
    sv_o3de_import_opts_init(&o); /* no load callback */
    assert_int_equal(sv_o3de_resolve_imports(doc, &j, &o, NULL, &r, &err), SV_ERR_USAGE);
    assert_int_equal(sv_o3de_restore_imports(doc, &j, &o, NULL, &r, &err), SV_ERR_USAGE);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_simple_object),
        cmocka_unit_test(test_import_simple_object_patch),
        cmocka_unit_test(test_import_simple_array),
        cmocka_unit_test(test_import_simple_array_patch),
        cmocka_unit_test(test_nested_import),
        cmocka_unit_test(test_nested_import_patch),
        cmocka_unit_test(test_nested_import_cycle),
        cmocka_unit_test(test_insert_new_import),
        cmocka_unit_test(test_names_join_the_importing_files_directory),
        cmocka_unit_test(test_members_beside_the_directive_are_dropped),
        cmocka_unit_test(test_patch_only_when_a_non_empty_object_or_array),
        cmocka_unit_test(test_failed_load_is_catastrophic_at_the_files_path),
        cmocka_unit_test(test_nested_off_leaves_inner_directives),
        cmocka_unit_test(test_self_import_spelled_differently_is_a_cycle),
        cmocka_unit_test(test_endless_chain_stops_at_the_chain_limit),
        cmocka_unit_test(test_nesting_through_imports_is_bounded),
        cmocka_unit_test(test_fan_out_loads_each_file_once),
        cmocka_unit_test(test_import_count_limit),
        cmocka_unit_test(test_a_file_named_again_is_loaded_once_and_patched_per_directive),
        cmocka_unit_test(test_identify_names_one_file_by_two_paths),
        cmocka_unit_test(test_expansion_is_bounded_by_the_allocation_limit),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_options_are_required),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
