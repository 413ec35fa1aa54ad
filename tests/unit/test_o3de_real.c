/* Real O3DE files (tests/vectors/o3de/real/, copied from the o3de/o3de
 * repository): each is loaded against a serval schema written for its types,
 * from the type's default instance, and must load with nothing skipped or
 * altered; storing the loaded value back and writing it as O3DE writes files
 * (RapidJSON's PrettyWriter, four spaces) gives the file's bytes again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_file.h"
#include "serval/o3de.h"
#include "serval/schema.h"
#include "serval/serval.h"

#define REAL "vectors/o3de/real/"

/* Loads file into class cls; expects outcome/processing; stores it back
 * (keep_defaults as given) and expects the file's bytes. */
static void round_trip(const char *schema_file, const char *cls, const char *file,
                       bool keep_defaults, sv_o3de_outcome outcome)
{
    sv_schema *s = test_load_schema(schema_file);
    size_t len;
    char *text = test_read_file(file, &len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_schema_class *c = sv_schema_class_by_name(s, cls, strlen(cls));
    assert_non_null(c);
    const sv_type *t = NULL;
    assert_int_equal(sv_schema_parse_type(s, cls, strlen(cls), &t, &err), SV_OK);
    sv_value json, value, back;
    assert_int_equal(sv_o3de_read(doc, text, len, NULL, &json, &err), SV_OK);
    assert_int_equal(sv_o3de_default_value(s, t, doc, &value, &err), SV_OK);
    sv_o3de_result r = 0;
    assert_int_equal(sv_o3de_load(s, t, &json, doc, &value, NULL, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_result_outcome(r), outcome);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.keep_defaults = keep_defaults;
    assert_int_equal(sv_o3de_store(s, t, &value, NULL, doc, &back, &o, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_o3de_write(&back, 4, &out, &err), SV_OK);
    sv_buf_putc(&out, 0);
    assert_string_equal((const char *)out.data, text);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(text);
    sv_schema_free(s);
}

static void test_empty_prefab(void **state)
{
    (void)state;
    /* every member is a field of its class: Success. "Parent Entity": ""
     * equals the string default and the file keeps it, so it is stored with
     * keep_defaults ("$type" comes first in each component, in its
     * "{UUID} Name" form for the TransformComponent name conflict) */
    round_trip(REAL "prefab.schema.json", "Prefab", REAL "Empty.prefab", true, SV_O3DE_SUCCESS);
}

static void test_empty_prefab_stripped(void **state)
{
    (void)state;
    /* Stripped, the only difference is the default "Parent Entity". */
    sv_schema *s = test_load_schema(REAL "prefab.schema.json");
    size_t len;
    char *text = test_read_file(REAL "Empty.prefab", &len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    const sv_type *t = NULL;
    assert_int_equal(sv_schema_parse_type(s, "Prefab", 6, &t, &err), SV_OK);
    sv_value json, value, back;
    assert_int_equal(sv_o3de_read(doc, text, len, NULL, &json, &err), SV_OK);
    assert_int_equal(sv_o3de_default_value(s, t, doc, &value, &err), SV_OK);
    sv_o3de_result r = 0;
    assert_int_equal(sv_o3de_load(s, t, &json, doc, &value, NULL, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_store(s, t, &value, NULL, doc, &back, NULL, &r, &err), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_o3de_write(&back, 4, &out, &err), SV_OK);
    sv_buf_putc(&out, 0);
    const char *tc = "                \"Id\": 4584354821622104079,\n"
                     "                \"Parent Entity\": \"\"\n";
    char *want = malloc(len + 1);
    char *at = strstr(text, tc);
    assert_non_null(at);
    size_t head = (size_t)(at - text);
    memcpy(want, text, head);
    const char *repl = "                \"Id\": 4584354821622104079\n";
    strcpy(want + head, repl);
    strcat(want, at + strlen(tc));
    assert_string_equal((const char *)out.data, want);
    free(want);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(text);
    sv_schema_free(s);
}

static void test_setreg_files(void **state)
{
    (void)state;
    round_trip(REAL "setreg.schema.json", "AssetCacheServerRegistry",
               REAL "asset_cache_server_settings.setreg", true, SV_O3DE_SUCCESS);
    /* "PhysXDebugConfiguration": {} is O3DE's explicit default: that field
     * reports DefaultsUsed, which counts as loaded (only Altered does not),
     * so every enclosing class passes DefaultsUsed up unchanged; stored
     * with keep_defaults the class without fields is written as {} */
    round_trip(REAL "setreg.schema.json", "PhysXDebugRegistry",
               REAL "physxdebugconfiguration.setreg", true, SV_O3DE_DEFAULTS_USED);
}

/* The prefabs with instances, read as plain JSON and written as O3DE writes
 * files (four spaces), give their bytes back: every number included, so
 * the doubles come out with O3DE's digits (10.100000381469728 and
 * -2.3734049797058105, which RapidJSON 1.1.0 wrote otherwise). */
static void test_prefabs_plain_rewrite(void **state)
{
    (void)state;
    static const char *const files[] = {
        "prefab/AutomatedTesting/Levels/Physics/ForceRegion_PrefabInstantiates/ForceRegionEntity.prefab",
        "prefab/AutomatedTesting/Levels/Physics/ForceRegion_PrefabInstantiates/"
        "ForceRegion_PrefabInstantiates.prefab",
        "prefab/AutomatedTesting/Levels/Physics/ScriptCanvas_SpawnEntityWithPhysComponents/Ball_0.prefab",
        "prefab/AutomatedTesting/Levels/Physics/ScriptCanvas_SpawnEntityWithPhysComponents/"
        "ScriptCanvas_SpawnEntityWithPhysComponents.prefab",
        "prefab/Gems/MotionMatching/Assets/AutomaticDemo/MotionMatching_AutoDemoCharacter.prefab",
        "prefab/Gems/MotionMatching/Assets/Levels/MotionMatching_AutomaticDemo/"
        "MotionMatching_AutomaticDemo.prefab",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s", REAL, files[i]);
        size_t len;
        char *text = test_read_file(path, &len);
        sv_doc *doc = sv_doc_new(NULL);
        sv_error err;
        sv_error_clear(&err);
        sv_value v;
        if (sv_o3de_read(doc, text, len, NULL, &v, &err) != SV_OK) fail_msg("%s: %s", path, err.message);
        sv_buf out;
        sv_buf_init(&out, NULL);
        if (sv_o3de_write(&v, 4, &out, &err) != SV_OK) fail_msg("%s: %s", path, err.message);
        size_t k = 0;
        while (k < len && k < out.len && text[k] == (char)out.data[k]) k++;
        if (k != len || out.len != len)
            fail_msg("%s: differs at byte %zu: file '%.24s', written '%.*s'", path, k, text + k,
                     (int)(out.len - k < 24 ? out.len - k : 24), (const char *)out.data + k);
        sv_buf_free(&out);
        sv_doc_free(doc);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_prefab),
        cmocka_unit_test(test_empty_prefab_stripped),
        cmocka_unit_test(test_setreg_files),
        cmocka_unit_test(test_prefabs_plain_rewrite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
