/* The options structs that became versioned (sv_kiwad_write_opts,
 * sv_godot_pck_write_opts), the new one (sv_pickle_opts) and the limits
 * O3DE took in: each is refused when never given to its init function
 * (struct_size 0), reads only the members inside its struct_size, and does
 * what its members say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"
#if SERVAL_WITH_GODOT
#include "serval/godot_pck.h"
#endif
#if SERVAL_WITH_KINGSISLE
#include "serval/kiwad.h"
#endif
#if SERVAL_WITH_PICKLE
#include "serval/pickle.h"
#endif
#if SERVAL_WITH_O3DE
#include "helper_o3de.h"
#include "serval/o3de.h"
#endif

#define END_OF(type, m) ((uint32_t)(offsetof(type, m) + sizeof(((type *)0)->m)))

static void assert_usage(sv_status st, const sv_error *err, const char *type_name)
{
    assert_int_equal(st, SV_ERR_USAGE);
    char want[96];
    snprintf(want, sizeof want, "%s.struct_size is 0", type_name);
    if (!strstr(err->message, want)) fail_msg("message '%s' lacks '%s'", err->message, want);
}

/* Whether needle occurs in data. */
static bool contains(const uint8_t *data, size_t len, const char *needle, size_t n)
{
    for (size_t i = 0; i + n <= len; i++)
        if (!memcmp(data + i, needle, n)) return true;
    return false;
}

/* The rule itself, on the oldest versioned struct: 0 is refused. */
static void test_json_zeroed_is_refused(void **state)
{
    (void)state;
    sv_json_decode_opts zero;
    memset(&zero, 0, sizeof zero);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    assert_usage(sv_json_decode(doc, "1", 1, &zero, &v, &err), &err, "sv_json_decode_opts");
    sv_doc_free(doc);
}

/* ---- KIWAD ------------------------------------------------------------------ */

#if SERVAL_WITH_KINGSISLE
static const sv_kiwad_entry wad_entries[] = {{"a.txt", (const uint8_t *)"hello", 5}};

static void wad_write(const sv_kiwad_write_opts *o, sv_status want, sv_buf *out)
{
    sv_error err;
    sv_error_clear(&err);
    sv_buf_init(out, NULL);
    assert_int_equal(sv_kiwad_write(wad_entries, 1, o, out, &err), want);
    if (want == SV_ERR_USAGE) assert_usage(want, &err, "sv_kiwad_write_opts");
}

static void test_kiwad_write_opts(void **state)
{
    (void)state;
    sv_kiwad_write_opts o;
    memset(&o, 0xEE, sizeof o);
    sv_kiwad_write_opts_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    assert_int_equal(o.version, 2);
    assert_int_equal(o.flags, 0);
    assert_int_equal(o.level, 9);

    sv_buf def, b;
    wad_write(NULL, SV_OK, &def);
    /* "KIWAD", version 2 (u32 LE), one file (u32 LE), flags */
    assert_memory_equal(def.data, "KIWAD\x02\x00\x00\x00\x01\x00\x00\x00\x00", 14);
    wad_write(&o, SV_OK, &b);
    assert_int_equal(b.len, def.len);
    assert_memory_equal(b.data, def.data, def.len);
    sv_buf_free(&b);

    /* flags inside struct_size are written; beyond it they are not read */
    o.flags = 1;
    wad_write(&o, SV_OK, &b);
    assert_int_equal(b.data[13], 1);
    sv_buf_free(&b);
    o.struct_size = END_OF(sv_kiwad_write_opts, version);
    wad_write(&o, SV_OK, &b);
    assert_memory_equal(b.data, def.data, def.len);
    sv_buf_free(&b);

    sv_kiwad_write_opts zero;
    memset(&zero, 0, sizeof zero);
    wad_write(&zero, SV_ERR_USAGE, &b);
    assert_int_equal(b.len, 0);
    sv_buf_free(&b);
    sv_buf_free(&def);
}
#endif

/* ---- Godot PCK -------------------------------------------------------------- */

#if SERVAL_WITH_GODOT
static const sv_godot_pck_entry pck_entries[] = {{"a.txt", (const uint8_t *)"hello", 5}};

static void pck_write(const sv_godot_pck_write_opts *o, sv_status want, sv_buf *out)
{
    sv_error err;
    sv_error_clear(&err);
    sv_buf_init(out, NULL);
    assert_int_equal(sv_godot_pck_write(pck_entries, 1, o, out, &err), want);
    if (want == SV_ERR_USAGE) assert_usage(want, &err, "sv_godot_pck_write_opts");
}

static void test_godot_pck_write_opts(void **state)
{
    (void)state;
    sv_godot_pck_write_opts o;
    memset(&o, 0xEE, sizeof o);
    sv_godot_pck_write_opts_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    assert_int_equal(o.format_version, 3);
    assert_int_equal(o.major, 0);
    assert_int_equal(o.minor, 0);
    assert_int_equal(o.patch, 0);
    assert_int_equal(o.alignment, 0);

    sv_buf def, b;
    pck_write(NULL, SV_OK, &def);
    /* "GDPC", format 3, engine 0.0.0 (u32 LE each) */
    assert_memory_equal(def.data, "GDPC\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                                  "\x00\x00\x00\x00", 20);
    pck_write(&o, SV_OK, &b);
    assert_int_equal(b.len, def.len);
    assert_memory_equal(b.data, def.data, def.len);
    sv_buf_free(&b);

    /* the engine version inside struct_size is written, beyond it not read */
    o.major = 4;
    o.minor = 3;
    pck_write(&o, SV_OK, &b);
    assert_memory_equal(b.data + 8, "\x04\x00\x00\x00\x03\x00\x00\x00", 8);
    sv_buf_free(&b);
    o.struct_size = END_OF(sv_godot_pck_write_opts, format_version);
    pck_write(&o, SV_OK, &b);
    assert_int_equal(b.len, def.len);
    assert_memory_equal(b.data, def.data, def.len);
    sv_buf_free(&b);

    sv_godot_pck_write_opts zero;
    memset(&zero, 0, sizeof zero);
    pck_write(&zero, SV_ERR_USAGE, &b);
    assert_int_equal(b.len, 0);
    sv_buf_free(&b);
    sv_buf_free(&def);
}
#endif

/* ---- pickle ----------------------------------------------------------------- */

#if SERVAL_WITH_PICKLE
/* [[[]]] : three containers deep. */
static sv_value nest3(sv_doc *doc)
{
    sv_value inner = sv_array(doc, 0), mid = sv_array(doc, 1), top = sv_array(doc, 1);
    sv_array_items(&mid)[0] = inner;
    sv_array_items(&top)[0] = mid;
    return top;
}

static void test_pickle_opts(void **state)
{
    (void)state;
    sv_pickle_opts o;
    memset(&o, 0xEE, sizeof o);
    sv_pickle_opts_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    assert_int_equal(o.limits.max_depth, 0);
    assert_null(o.module);

    sv_doc *doc = sv_doc_new(NULL);
    sv_value v = nest3(doc);
    sv_error err;
    sv_buf def, b;
    sv_buf_init(&def, NULL), sv_buf_init(&b, NULL);
    /* PROTO 4, FRAME, EMPTY_LIST, ...: the same stream with NULL and the defaults */
    assert_int_equal(sv_pickle_write(&v, NULL, &def, &err), SV_OK);
    assert_memory_equal(def.data, "\x80\x04\x95", 3);
    assert_int_equal(sv_pickle_write(&v, &o, &b, &err), SV_OK);
    assert_int_equal(b.len, def.len);
    assert_memory_equal(b.data, def.data, def.len);
    b.len = 0;

    /* limits.max_depth bounds the containers nested */
    o.limits.max_depth = 2;
    sv_error_clear(&err);
    assert_int_equal(sv_pickle_write(&v, &o, &b, &err), SV_ERR_DEPTH);
    assert_int_equal(b.len, 0);
    o.limits.max_depth = 3;
    assert_int_equal(sv_pickle_write(&v, &o, &b, &err), SV_OK);
    b.len = 0;

    /* the module names the wrapper classes; the deprecated entry point
     * writes the same stream as the options do */
    sv_value f = sv_f32(1.5f);
    sv_pickle_opts_init(&o);
    o.module = "mymod";
    assert_int_equal(sv_pickle_write(&f, &o, &b, &err), SV_OK);
    assert_true(contains(b.data, b.len, "\x8c\x05mymod", 7));
    sv_buf old;
    sv_buf_init(&old, NULL);
    assert_int_equal(sv_pickle_encode(&f, "mymod", &old, &err), SV_OK);
    assert_int_equal(old.len, b.len);
    assert_memory_equal(old.data, b.data, b.len);
    sv_buf_free(&old);
    b.len = 0;

    /* an older struct without the module: "serval" */
    o.struct_size = END_OF(sv_pickle_opts, limits);
    assert_int_equal(sv_pickle_write(&f, &o, &b, &err), SV_OK);
    assert_false(contains(b.data, b.len, "mymod", 5));
    assert_true(contains(b.data, b.len, "\x8c\x06serval", 8));
    b.len = 0;

    sv_pickle_opts zero;
    memset(&zero, 0, sizeof zero);
    sv_error_clear(&err);
    assert_usage(sv_pickle_write(&f, &zero, &b, &err), &err, "sv_pickle_opts");
    assert_int_equal(b.len, 0);
    sv_buf_free(&b), sv_buf_free(&def);
    sv_doc_free(doc);
}
#endif

/* ---- O3DE limits ------------------------------------------------------------ */

#if SERVAL_WITH_O3DE
/* Loads {"nested": {"var1": 7}} into SimpleNested's default. */
static sv_status o3de_nested_load(const sv_o3de_opts *o, sv_o3de_result *r, sv_error *err)
{
    sv_doc *doc = sv_doc_new(NULL);
    const sv_type *t = o3t_type("SimpleNested");
    sv_value value, json = o3t_json(doc, "{\"nested\": {\"var1\": 7}}");
    assert_int_equal(sv_o3de_default_value(o3t_schema(), t, doc, &value, err), SV_OK);
    sv_error_clear(err);
    sv_status st = sv_o3de_load(o3t_schema(), t, &json, doc, &value, o, r, err);
    sv_doc_free(doc);
    return st;
}

static void test_o3de_limits(void **state)
{
    (void)state;
    sv_o3de_opts o;
    memset(&o, 0xEE, sizeof o);
    sv_o3de_opts_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    assert_int_equal(o.max_depth, 0);
    assert_int_equal(o.limits.max_depth, 0);
    assert_int_equal(o.limits.max_alloc, 0);

    sv_o3de_result ok, r;
    sv_error err;
    assert_int_equal(o3de_nested_load(&o, &ok, &err), SV_OK);
    assert_int_equal(sv_o3de_result_processing(ok), SV_O3DE_COMPLETED);

    /* the depth of the common limits, as max_depth gives it */
    o.max_depth = 1;
    sv_o3de_result by_field;
    sv_status st_field = o3de_nested_load(&o, &by_field, &err);
    assert_int_not_equal(sv_o3de_result_processing(by_field), SV_O3DE_COMPLETED);
    o.max_depth = 0;
    o.limits.max_depth = 1;
    assert_int_equal(o3de_nested_load(&o, &r, &err), st_field);
    assert_int_equal(r, by_field);
    /* max_depth, when set, is the one that counts */
    o.max_depth = 8;
    assert_int_equal(o3de_nested_load(&o, &r, &err), SV_OK);
    assert_int_equal(r, ok);
    /* an older struct (without limits) does not read them */
    o.max_depth = 0;
    o.struct_size = END_OF(sv_o3de_opts, max_depth);
    assert_int_equal(o3de_nested_load(&o, &r, &err), SV_OK);
    assert_int_equal(r, ok);

    sv_o3de_opts zero;
    memset(&zero, 0, sizeof zero);
    sv_error_clear(&err);
    assert_usage(o3de_nested_load(&zero, &r, &err), &err, "sv_o3de_opts");
    o3t_schema_free();
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_zeroed_is_refused),
#if SERVAL_WITH_KINGSISLE
        cmocka_unit_test(test_kiwad_write_opts),
#endif
#if SERVAL_WITH_GODOT
        cmocka_unit_test(test_godot_pck_write_opts),
#endif
#if SERVAL_WITH_PICKLE
        cmocka_unit_test(test_pickle_opts),
#endif
#if SERVAL_WITH_O3DE
        cmocka_unit_test(test_o3de_limits),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
