/* The member tables of the versioned options structs (core/opts_tables.h)
 * and the one reader that uses them (core/opts.c).
 *
 * Each table is checked against its struct's members as the compiler lays
 * them out (offsetof, sizeof and alignment of each member, written out here
 * member by member): one entry per member after struct_size, in order, each
 * ending where its member ends, and nothing but padding between members or
 * after the last. A member appended to a public struct without its table
 * entry fails here (the tail is no longer padding).
 *
 * The reader is then driven through every table with a synthetic caller
 * struct: each older size (the end of each member) copies exactly the
 * members before it, a size ending inside a member leaves that member at its
 * default, 0 and sizes short of the first member are SV_ERR_USAGE, and a
 * size larger than this build's struct (a newer header) is read up to the
 * last member, its non-zero tail never copied. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/opts_tables.h"
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

/* One member as the compiler laid it out. */
typedef struct member {
    const char *name;
    size_t offset, size, align;
} member;

#define M(type, m)                                                                                 \
    {#m, offsetof(type, m), sizeof(((type *)0)->m), __alignof__(((type *)0)->m)}

typedef struct expected {
    const sv__opts_table *table;
    const char *type_name;
    size_t size, align;
    const member *members; /* every member after struct_size, in order */
    size_t n;
} expected;

#define EXPECT(tbl, type, ...)                                                                     \
    do {                                                                                           \
        static const member ms_[] = {__VA_ARGS__};                                                 \
        expected e_ = {&(tbl), #type, sizeof(type), __alignof__(type), ms_,                        \
                       sizeof ms_ / sizeof ms_[0]};                                                \
        fn(&e_);                                                                                   \
    } while (0)

/* Calls fn once for every options struct this build has. */
static void each_struct(void (*fn)(const expected *e))
{
    EXPECT(sv__opts_options, sv_options, M(sv_options, limits), M(sv_options, names),
           M(sv_options, values), M(sv_options, count), M(sv_options, schema),
           M(sv_options, borrow_input));
    EXPECT(sv__opts_json_decode, sv_json_decode_opts, M(sv_json_decode_opts, limits),
           M(sv_json_decode_opts, allow_comments), M(sv_json_decode_opts, plain));
    EXPECT(sv__opts_json_encode, sv_json_encode_opts, M(sv_json_encode_opts, indent),
           M(sv_json_encode_opts, plain));
    EXPECT(sv__opts_convert, sv_convert_opts, M(sv_convert_opts, lossy),
           M(sv_convert_opts, report), M(sv_convert_opts, report_ctx),
           M(sv_convert_opts, format_options));
#if SERVAL_WITH_GODOT
    EXPECT(sv__opts_godot, sv_godot_opts, M(sv_godot_opts, profile),
           M(sv_godot_opts, godot4_minor), M(sv_godot_opts, full_objects),
           M(sv_godot_opts, real_double), M(sv_godot_opts, framing),
           M(sv_godot_opts, prefix_big_endian), M(sv_godot_opts, limits),
           M(sv_godot_opts, borrow_input));
    EXPECT(sv__opts_godot_pck_write, sv_godot_pck_write_opts,
           M(sv_godot_pck_write_opts, format_version), M(sv_godot_pck_write_opts, major),
           M(sv_godot_pck_write_opts, minor), M(sv_godot_pck_write_opts, patch),
           M(sv_godot_pck_write_opts, alignment));
#endif
#if SERVAL_WITH_BSON
    EXPECT(sv__opts_bson, sv_bson_opts, M(sv_bson_opts, limits), M(sv_bson_opts, format),
           M(sv_bson_opts, resonite_urls),
           M(sv_bson_opts, borrow_input));
#endif
#if SERVAL_WITH_RESONITE
    EXPECT(sv__opts_resonite, sv_resonite_opts, M(sv_resonite_opts, limits),
           M(sv_resonite_opts, compression), M(sv_resonite_opts, framing),
           M(sv_resonite_opts, brotli_quality), M(sv_resonite_opts, brotli_window),
           M(sv_resonite_opts, raw_strings), M(sv_resonite_opts, threads));
#endif
#if SERVAL_WITH_NOESIS
    EXPECT(sv__opts_noesis, sv_noesis_opts, M(sv_noesis_opts, limits), M(sv_noesis_opts, raw),
           M(sv_noesis_opts, version));
#endif
#if SERVAL_WITH_KINGSISLE
    EXPECT(sv__opts_kingsisle, sv_kingsisle_opts, M(sv_kingsisle_opts, shallow),
           M(sv_kingsisle_opts, compress), M(sv_kingsisle_opts, flags),
           M(sv_kingsisle_opts, property_mask), M(sv_kingsisle_opts, skip_deprecated),
           M(sv_kingsisle_opts, zlib_level), M(sv_kingsisle_opts, types),
           M(sv_kingsisle_opts, limits), M(sv_kingsisle_opts, given),
           M(sv_kingsisle_opts, skip_unknown_types), M(sv_kingsisle_opts, warn),
           M(sv_kingsisle_opts, warn_ctx));
    EXPECT(sv__opts_kiwad_write, sv_kiwad_write_opts, M(sv_kiwad_write_opts, version),
           M(sv_kiwad_write_opts, flags), M(sv_kiwad_write_opts, level));
#endif
#if SERVAL_WITH_O3DE
    EXPECT(sv__opts_o3de, sv_o3de_opts, M(sv_o3de_opts, keep_defaults),
           M(sv_o3de_opts, clear_containers), M(sv_o3de_opts, report),
           M(sv_o3de_opts, report_ctx), M(sv_o3de_opts, max_depth), M(sv_o3de_opts, limits));
    EXPECT(sv__opts_o3de_import, sv_o3de_import_opts, M(sv_o3de_import_opts, load),
           M(sv_o3de_import_opts, load_ctx), M(sv_o3de_import_opts, path),
           M(sv_o3de_import_opts, nested), M(sv_o3de_import_opts, max_chain),
           M(sv_o3de_import_opts, max_imports), M(sv_o3de_import_opts, max_depth),
           M(sv_o3de_import_opts, report), M(sv_o3de_import_opts, report_ctx),
           M(sv_o3de_import_opts, identify));
#endif
#if SERVAL_WITH_PICKLE
    EXPECT(sv__opts_pickle, sv_pickle_opts, M(sv_pickle_opts, limits),
           M(sv_pickle_opts, module));
#endif
}

/* ---- the tables match the layouts ------------------------------------------- */

static size_t n_checked;

static void check_table(const expected *e)
{
    const sv__opts_table *t = e->table;
    n_checked++;
    assert_string_equal(t->type_name, e->type_name);
    assert_int_equal(t->size, e->size);
    if (t->n_ends != e->n)
        fail_msg("%s: the table has %zu entries, the struct %zu members after struct_size",
                 e->type_name, t->n_ends, e->n);
    size_t end = sizeof(uint32_t); /* struct_size */
    for (size_t i = 0; i < e->n; i++) {
        const member *m = &e->members[i];
        /* between the previous member and this one: padding only */
        if (m->offset < end || m->offset - end >= m->align)
            fail_msg("%s.%s at %zu: more than padding after the member ending at %zu",
                     e->type_name, m->name, m->offset, end);
        if (t->ends[i] != m->offset + m->size)
            fail_msg("%s: entry %zu is %zu, member %s ends at %zu", e->type_name, i, t->ends[i],
                     m->name, m->offset + m->size);
        if (i > 0 && t->ends[i] <= t->ends[i - 1])
            fail_msg("%s: entry %zu does not increase", e->type_name, i);
        end = m->offset + m->size;
    }
    /* after the last member: the trailing padding only */
    if (e->size < end || e->size - end >= e->align)
        fail_msg("%s: the last member ends at %zu, sizeof is %zu: a member is missing",
                 e->type_name, end, e->size);
}

static void test_every_table_covers_its_struct(void **state)
{
    (void)state;
    n_checked = 0;
    each_struct(check_table);
    size_t want = 4; /* sv_options, json decode and encode, convert */
#if SERVAL_WITH_GODOT
    want += 2;
#endif
    want += SERVAL_WITH_BSON + SERVAL_WITH_RESONITE + SERVAL_WITH_NOESIS;
#if SERVAL_WITH_KINGSISLE
    want += 2;
#endif
#if SERVAL_WITH_O3DE
    want += 2;
#endif
    want += SERVAL_WITH_PICKLE;
    assert_int_equal(n_checked, want);
}

/* ---- the reader, through every table ---------------------------------------- */

#define TAIL 64      /* bytes of a newer header's members beyond this build's struct */
#define SRC_BYTE 0xA5 /* the caller's members */
#define DEF_BYTE 0x11 /* the defaults */

/* A caller's struct of struct_size size: members SRC_BYTE, then TAIL more
 * bytes (non-zero) as a newer header would have them. */
static uint8_t *caller_struct(const expected *e, uint32_t size)
{
    uint8_t *p = malloc(e->size + TAIL);
    assert_non_null(p);
    memset(p, SRC_BYTE, e->size + TAIL);
    memcpy(p, &size, sizeof size);
    return p;
}

/* Reads a struct of struct_size size over defaults of DEF_BYTE and checks
 * that exactly [4, copied) came from the caller; dst has TAIL guard bytes. */
static void read_and_check(const expected *e, uint32_t size, sv_status want_status, size_t copied)
{
    uint8_t *src = caller_struct(e, size);
    uint8_t *dst = malloc(e->size + TAIL);
    assert_non_null(dst);
    memset(dst, DEF_BYTE, e->size + TAIL);
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv__core_opts_read(e->table, dst, src, "test", &err);
    if (st != want_status)
        fail_msg("%s with struct_size %u: status %d, expected %d", e->type_name, size, st,
                 want_status);
    if (st != SV_OK) {
        assert_int_equal(err.status, SV_ERR_USAGE);
        assert_non_null(strstr(err.message, e->type_name));
        assert_non_null(strstr(err.message, "struct_size"));
    }
    for (size_t i = 0; i < e->size + TAIL; i++) {
        uint8_t want = (i >= sizeof(uint32_t) && i < copied) ? SRC_BYTE : DEF_BYTE;
        if (dst[i] != want)
            fail_msg("%s with struct_size %u: byte %zu is %#x, expected %#x", e->type_name, size,
                     i, dst[i], want);
    }
    free(src);
    free(dst);
}

static void check_reader(const expected *e)
{
    const sv__opts_table *t = e->table;
    /* not made by the init function, or short of the first member */
    read_and_check(e, 0, SV_ERR_USAGE, 0);
    read_and_check(e, sizeof(uint32_t), SV_ERR_USAGE, 0);
    read_and_check(e, (uint32_t)t->ends[0] - 1, SV_ERR_USAGE, 0);
    /* each older size copies the members it holds; a size stopping inside
     * the next member (or its padding) copies no more */
    for (size_t i = 0; i < t->n_ends; i++) {
        read_and_check(e, (uint32_t)t->ends[i], SV_OK, t->ends[i]);
        size_t next = i + 1 < t->n_ends ? t->ends[i + 1] : e->size;
        for (size_t s = t->ends[i] + 1; s < next; s++)
            read_and_check(e, (uint32_t)s, SV_OK, t->ends[i]);
    }
    /* this build's size, and a newer header's with a non-zero tail */
    size_t last = t->ends[t->n_ends - 1];
    read_and_check(e, (uint32_t)e->size, SV_OK, last);
    read_and_check(e, (uint32_t)(e->size + TAIL), SV_OK, last);
    read_and_check(e, UINT32_MAX, SV_OK, last);
    /* NULL: every default */
    uint8_t *dst = malloc(e->size);
    assert_non_null(dst);
    memset(dst, DEF_BYTE, e->size);
    assert_int_equal(sv__core_opts_read(t, dst, NULL, "test", NULL), SV_OK);
    for (size_t i = 0; i < e->size; i++)
        assert_int_equal(dst[i], DEF_BYTE);
    free(dst);
}

static void test_reader_takes_whole_members_only(void **state)
{
    (void)state;
    each_struct(check_reader);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_table_covers_its_struct),
        cmocka_unit_test(test_reader_takes_whole_members_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
