/* Every public mutator of the value tree and the output buffer returns an
 * sv_status that says what went wrong: a missing document or container
 * (SV_ERR_USAGE), a value of the wrong kind (SV_ERR_TYPE), an index or key
 * that is not there (SV_ERR_RANGE, SV_ERR_NOT_FOUND), and a refused
 * allocation (SV_ERR_NOMEM from the fault-injecting allocator, SV_ERR_LIMIT
 * from a document's allocation cap). And every format's decoder makes the
 * tree it decodes the document's root (sv_doc_root).
 *
 * Expected values: the statuses the headers document for each call, and the
 * save tests/godot/gen.gd writes (examples/player.godot3: gold 1250, as a
 * store_var blob) and examples/player.json (the same save as typed JSON).
 * Run from tests/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/serval.h"

/* ---- append ------------------------------------------------------------------ */

static void append_ok_and_kinds(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value arr = sv_array(doc, 0), map = sv_map(doc, 0), num = sv_int(1);
    assert_int_equal(sv_array_append(doc, &arr, sv_int(7)), SV_OK);
    assert_int_equal(sv_len(&arr), 1);
    assert_int_equal(sv_get_int(sv_array_at(&arr, 0)), 7);
    /* append does not look at the keys: the same key twice is kept twice */
    assert_int_equal(sv_map_append_str(doc, &map, "k", sv_int(1)), SV_OK);
    assert_int_equal(sv_map_append_str(doc, &map, "k", sv_int(2)), SV_OK);
    assert_int_equal(sv_map_append(doc, &map, sv_int(5), sv_int(3)), SV_OK);
    assert_int_equal(sv_len(&map), 3);
    assert_int_equal(sv_get_int(sv_val_at(&map, 1)), 2);

    assert_int_equal(sv_array_append(doc, &map, sv_int(1)), SV_ERR_TYPE);
    assert_int_equal(sv_array_append(doc, &num, sv_int(1)), SV_ERR_TYPE);
    assert_int_equal(sv_map_append(doc, &arr, sv_int(1), sv_int(1)), SV_ERR_TYPE);
    assert_int_equal(sv_map_append_str(doc, &arr, "k", sv_int(1)), SV_ERR_TYPE);
    assert_int_equal(sv_meta_set(doc, &num, sv_int(1)), SV_ERR_TYPE);

    assert_int_equal(sv_array_append(NULL, &arr, sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_array_append(doc, NULL, sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_map_append(NULL, &map, sv_int(1), sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_map_append(doc, NULL, sv_int(1), sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_map_append_str(doc, &map, NULL, sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_map_append_str(NULL, &map, "k", sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_meta_set(NULL, &arr, sv_int(1)), SV_ERR_USAGE);
    assert_int_equal(sv_meta_set(doc, NULL, sv_int(1)), SV_ERR_USAGE);
    /* nothing changed by the refused calls */
    assert_int_equal(sv_len(&arr), 1);
    assert_int_equal(sv_len(&map), 3);

    assert_int_equal(sv_meta_set(doc, &arr, sv_int(42)), SV_OK);
    assert_int_equal(sv_get_int(sv_meta(&arr)), 42);
    assert_int_equal(sv_doc_status(doc), SV_OK);
    sv_doc_free(doc);
}

/* Each growing call, with every allocation it makes refused in turn: the
 * refused one says SV_ERR_NOMEM, and the container keeps what it had. */
typedef sv_status (*grow_fn)(sv_doc *doc, sv_value *c);

static sv_status grow_array(sv_doc *doc, sv_value *c)
{
    return sv_array_append(doc, c, sv_int(9));
}
static sv_status grow_map(sv_doc *doc, sv_value *c)
{
    return sv_map_append(doc, c, sv_int(1), sv_int(9));
}
static sv_status grow_map_str(sv_doc *doc, sv_value *c)
{
    return sv_map_append_str(doc, c, "a-key-not-interned-yet", sv_int(9));
}
static sv_status grow_meta(sv_doc *doc, sv_value *c)
{
    return sv_meta_set(doc, c, sv_int(9));
}

static void nomem_case(grow_fn fn, sv_kind kind)
{
    bool refused = false;
    for (long fail_at = 1; fail_at < 64; fail_at++) {
        test_alloc t;
        test_alloc_init(&t, fail_at);
        sv_doc *doc = sv_doc_new(&t.alloc);
        if (!doc) continue; /* the document's first chunk was refused */
        sv_value c = kind == SV_ARRAY ? sv_array(doc, 0) : sv_map(doc, 0);
        if (sv_kind_of(&c) != kind) { /* making the container was refused */
            sv_doc_free(doc);
            assert_int_equal(t.live_bytes, 0);
            continue;
        }
        sv_status st = SV_OK;
        uint32_t before = 0;
        /* enough items to outgrow the first arena chunk */
        for (int i = 0; i < 100000 && st == SV_OK; i++) {
            before = sv_len(&c);
            st = fn(doc, &c);
        }
        if (t.failures) {
            assert_int_equal(st, SV_ERR_NOMEM);
            assert_int_equal(sv_doc_status(doc), SV_ERR_NOMEM);
            if (fn != grow_meta) assert_int_equal(sv_len(&c), before);
            refused = true;
        }
        sv_doc_free(doc);
        assert_int_equal(t.live_bytes, 0);
    }
    assert_true(refused);
}

static void append_nomem(void **state)
{
    (void)state;
    nomem_case(grow_array, SV_ARRAY);
    nomem_case(grow_map, SV_MAP);
    nomem_case(grow_map_str, SV_MAP);
    nomem_case(grow_meta, SV_ARRAY);
}

/* A document's allocation cap: growing past it is SV_ERR_LIMIT. */
static void append_limit(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    assert_int_equal(sv_doc_set_max_alloc(doc, 256 << 10), SV_OK);
    sv_value arr = sv_array(doc, 0);
    sv_status st = SV_OK;
    for (int i = 0; i < 1000000 && st == SV_OK; i++) st = sv_array_append(doc, &arr, sv_int(i));
    assert_int_equal(st, SV_ERR_LIMIT);
    assert_int_equal(sv_doc_status(doc), SV_ERR_LIMIT);
    assert_int_equal(sv_doc_set_max_alloc(NULL, 1), SV_ERR_USAGE);
    sv_doc_free(doc);
}

/* ---- removals ---------------------------------------------------------------- */

static void removals(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value map = sv_map(doc, 0), arr = sv_array(doc, 0), num = sv_int(3);
    assert_int_equal(sv_map_append_str(doc, &map, "a", sv_int(1)), SV_OK);
    assert_int_equal(sv_map_append_str(doc, &map, "b", sv_int(2)), SV_OK);
    assert_int_equal(sv_array_append(doc, &arr, sv_int(10)), SV_OK);
    assert_int_equal(sv_array_append(doc, &arr, sv_int(11)), SV_OK);

    assert_int_equal(sv_map_remove_key(&map, "a"), SV_OK);
    assert_int_equal(sv_len(&map), 1);
    assert_int_equal(sv_get_int(sv_map_getz(&map, "b")), 2);
    assert_int_equal(sv_map_remove_key(&map, "a"), SV_ERR_NOT_FOUND);
    assert_int_equal(sv_map_remove_key(&map, NULL), SV_ERR_TYPE);
    assert_int_equal(sv_map_remove_key(&arr, "a"), SV_ERR_TYPE);
    assert_int_equal(sv_map_remove_key(NULL, "a"), SV_ERR_TYPE);

    assert_int_equal(sv_array_remove_at(&arr, 0), SV_OK);
    assert_int_equal(sv_len(&arr), 1);
    assert_int_equal(sv_get_int(sv_array_at(&arr, 0)), 11);
    assert_int_equal(sv_array_remove_at(&arr, 1), SV_ERR_RANGE);
    assert_int_equal(sv_array_remove_at(&map, 0), SV_ERR_TYPE);
    assert_int_equal(sv_array_remove_at(&num, 0), SV_ERR_TYPE);
    assert_int_equal(sv_array_remove_at(NULL, 0), SV_ERR_TYPE);
    sv_doc_free(doc);
}

/* ---- the root ------------------------------------------------------------------ */

static void set_root(void **state)
{
    (void)state;
    assert_int_equal(sv_doc_set_root(NULL, sv_int(1)), SV_ERR_USAGE);
    sv_doc *doc = sv_doc_new(NULL);
    assert_int_equal(sv_kind_of(sv_doc_root(doc)), SV_NULL);
    assert_int_equal(sv_doc_set_root(doc, sv_int(5)), SV_OK);
    assert_int_equal(sv_get_int(sv_doc_root(doc)), 5);
    sv_doc_free(doc);

    /* after a refused allocation the tree may have holes: the root stays */
    test_alloc t;
    test_alloc_init(&t, 0);
    doc = sv_doc_new(&t.alloc);
    assert_int_equal(sv_doc_set_root(doc, sv_int(5)), SV_OK);
    t.fail_at = t.calls + 1;
    sv_value big = sv_bytes_uninit(doc, 1 << 20);
    assert_int_equal(sv_kind_of(&big), SV_NULL);
    assert_int_equal(sv_doc_set_root(doc, sv_int(6)), SV_ERR_NOMEM);
    assert_int_equal(sv_get_int(sv_doc_root(doc)), 5);
    sv_doc_free(doc);
}

static size_t read_file(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    assert_true(n < cap);
    return n;
}

/* A format's decode entry leaves the tree as the document's root. */
static void root_after(const char *format, const char *path, const char *opt,
                       const char *pointer, int64_t want)
{
    const sv_format *f = sv_format_find(format);
    if (!f) {
        print_message("format %s not built: skipped\n", format);
        return;
    }
    static uint8_t buf[1 << 16];
    size_t n = read_file(path, buf, sizeof buf);
    sv_options o;
    sv_options_init(&o);
    const char *names[] = {"framing", NULL}, *values[] = {opt, NULL};
    if (opt) {
        o.names = names;
        o.values = values;
        o.count = 1;
    }
    sv_doc *doc = sv_doc_new(NULL);
    sv_value out;
    sv_error err;
    sv_error_clear(&err);
    if (f->decode(doc, buf, n, &o, &out, &err) != SV_OK) fail_msg("%s: %s", path, err.message);
    assert_true(sv_equal(sv_doc_root(doc), &out));
    /* the root as the document's: root NULL */
    assert_int_equal(sv_get_int(sv_get_path(doc, NULL, pointer)), want);
    sv_doc_free(doc);
}

static void decoders_set_root(void **state)
{
    (void)state;
    root_after("json", "../examples/player.json", NULL, "/player/gold", 1250);
    root_after("godot3", "../examples/player.godot3", "prefixed", "/player/gold", 1250);
    root_after("godot4", "../examples/player.godot4", NULL, "/player/gold", 1250);
}

/* sv_file_decode through the registry: the root too. */
static void file_decode_sets_root(void **state)
{
    (void)state;
    if (!sv_format_find("bson")) {
        print_message("built without BSON: skipped\n");
        return;
    }
    sv_doc *doc = sv_doc_new(NULL);
    sv_value out;
    sv_error err;
    sv_error_clear(&err);
    if (sv_file_decode(doc, "../examples/players.bson", NULL, NULL, &out, &err) != SV_OK)
        fail_msg("%s", err.message);
    assert_true(sv_equal(sv_doc_root(doc), &out));
    assert_int_not_equal(sv_kind_of(sv_doc_root(doc)), SV_NULL);
    sv_doc_free(doc);
}

/* ---- the output buffer ---------------------------------------------------------- */

static void buffer(void **state)
{
    (void)state;
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_buf_append(&b, "ab", 2), SV_OK);
    assert_int_equal(sv_buf_putc(&b, 'c'), SV_OK);
    assert_int_equal(sv_buf_ensure(&b, 10), SV_OK);
    assert_int_equal(sv_buf_expand(&b, 10000), SV_OK);
    assert_true(b.cap >= 10003);
    assert_memory_equal(b.data, "abc", 3);
    /* a size that cannot be added to the length */
    assert_int_equal(sv_buf_expand(&b, SIZE_MAX), SV_ERR_NOMEM);
    /* sticky: everything after fails and writes nothing */
    assert_int_equal(sv_buf_ensure(&b, 1), SV_ERR_NOMEM);
    assert_int_equal(sv_buf_putc(&b, 'd'), SV_ERR_NOMEM);
    assert_int_equal(sv_buf_append(&b, "e", 1), SV_ERR_NOMEM);
    assert_int_equal(b.len, 3);
    assert_false(sv_buf_ok(&b));
    sv_buf_free(&b);

    /* the allocator refuses: the first growth fails */
    test_alloc t;
    test_alloc_init(&t, 1);
    sv_buf_init(&b, &t.alloc);
    assert_int_equal(sv_buf_putc(&b, 'x'), SV_ERR_NOMEM);
    assert_int_equal(b.len, 0);
    sv_buf_free(&b);
    test_alloc_init(&t, 1);
    sv_buf_init(&b, &t.alloc);
    assert_int_equal(sv_buf_append(&b, "xy", 2), SV_ERR_NOMEM);
    sv_buf_free(&b);
    test_alloc_init(&t, 2); /* the first block, then its growth */
    sv_buf_init(&b, &t.alloc);
    assert_int_equal(sv_buf_putc(&b, 'x'), SV_OK);
    assert_int_equal(sv_buf_expand(&b, 1 << 20), SV_ERR_NOMEM);
    assert_int_equal(b.len, 1);
    sv_buf_free(&b);
    assert_int_equal(t.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(append_ok_and_kinds),
        cmocka_unit_test(append_nomem),
        cmocka_unit_test(append_limit),
        cmocka_unit_test(removals),
        cmocka_unit_test(set_root),
        cmocka_unit_test(decoders_set_root),
        cmocka_unit_test(file_decode_sets_root),
        cmocka_unit_test(buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
