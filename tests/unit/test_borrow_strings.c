/* borrow_input for strings: BSON strings (which end with 00 in the input)
 * and Godot String values whose first padding byte is 00 point into the
 * input instead of being copied. A borrowed tree must equal the copied one
 * (and encode to the same bytes) on every vector and sample, and every
 * borrowed string must lie in the input and end with 00 there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_corpus.h"
#include "serval/serval.h"

#if SERVAL_WITH_BSON
/* {"hello": "world"} (bsonspec.org's first example): the string's bytes
 * start at offset 15. */
static const uint8_t hello_bson[] = {0x16, 0x00, 0x00, 0x00, 0x02, 'h', 'e', 'l', 'l', 'o',  0x00,
                                     0x06, 0x00, 0x00, 0x00, 'w',  'o', 'r', 'l', 'd', 0x00, 0x00};

static void test_bson_string_points_into_input(void **state)
{
    (void)state;
    for (int borrow = 0; borrow < 2; borrow++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_bson_opts o;
        sv_bson_opts_init(&o);
        o.borrow_input = borrow;
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_bson_decode(doc, hello_bson, sizeof hello_bson, &o, &v, &err), SV_OK);
        sv_value *s = sv_map_getz(&v, "hello");
        assert_string_equal(sv_get_str(s, NULL), "world");
        assert_int_equal(sv_is_borrowed(s), borrow);
        if (borrow) {
            assert_ptr_equal(sv_get_str(s, NULL), (const char *)hello_bson + 15);
            assert_null(sv_value_buf(s)); /* read-only */
            /* a copy is the document's own */
            sv_value c = sv_copy(doc, s);
            assert_false(sv_is_borrowed(&c));
            assert_ptr_not_equal(sv_get_str(&c, NULL), sv_get_str(s, NULL));
            assert_true(sv_equal(&c, s));
        } else {
            assert_ptr_not_equal(sv_get_str(s, NULL), (const char *)hello_bson + 15);
        }
        sv_doc_free(doc);
    }
}

#endif

#if SERVAL_WITH_GODOT
/* Godot 3 Strings (spec §4: header 04000000, u32 length, bytes, zero
 * padding to 4): "abc" has a padding byte, its 00, and is borrowed; "abcd"
 * has none (the next bytes are not its 00) and is copied. */
static void test_godot_string_borrowed_only_with_its_00(void **state)
{
    (void)state;
    static const uint8_t abc[] = {0x04, 0, 0, 0, 0x03, 0, 0, 0, 'a', 'b', 'c', 0x00};
    static const uint8_t abcd[] = {0x04, 0, 0, 0, 0x04, 0, 0, 0, 'a', 'b', 'c', 'd'};
    const uint8_t *in[2] = {abc, abcd};
    const size_t len[2] = {sizeof abc, sizeof abcd};
    for (int i = 0; i < 2; i++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_godot_opts o;
        sv_godot_opts_init(&o, SV_GODOT3);
        o.borrow_input = true;
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_godot_decode(doc, in[i], len[i], &o, &v, NULL, &err), SV_OK);
        assert_int_equal(sv_kind_of(&v), SV_STRING);
        assert_string_equal(sv_get_str(&v, NULL), i == 0 ? "abc" : "abcd");
        assert_int_equal(sv_is_borrowed(&v), i == 0);
        if (i == 0) assert_ptr_equal(sv_get_str(&v, NULL), (const char *)abc + 8);
        sv_doc_free(doc);
    }
}

#endif

typedef struct walk_ctx {
    const uint8_t *lo, *hi;
    size_t borrowed;
    bool bad;
} walk_ctx;

static void check_borrowed(walk_ctx *w, const sv_value *v)
{
    if (!sv_is_borrowed(v)) return;
    w->borrowed++;
    if (v->kind != SV_STRING) return; /* packed arrays: test_godot_borrow */
    const uint8_t *p = (const uint8_t *)v->as.str;
    if (p < w->lo || p + v->len >= w->hi || p[v->len] != 0) w->bad = true;
}

static void walk(walk_ctx *w, const sv_value *v)
{
    check_borrowed(w, v);
    switch (sv_kind_of(v)) {
    case SV_ARRAY:
        for (uint32_t i = 0; i < sv_len(v); i++) walk(w, sv_array_at(v, i));
        break;
    case SV_MAP:
    case SV_OBJECT:
        for (uint32_t i = 0; i < sv_len(v); i++) {
            walk(w, sv_key_at(v, i));
            walk(w, sv_val_at(v, i));
        }
        break;
    default: break;
    }
    if (sv_meta(v)) walk(w, sv_meta(v));
}

static bool decode(const sv_format *f, sv_doc *doc, const corpus_file *cf, bool borrow,
                   sv_value *out)
{
    sv_options o;
    sv_options_init(&o);
    o.borrow_input = borrow;
    sv_error err;
    sv_error_clear(&err);
    return f->decode(doc, cf->data, cf->len, &o, out, &err) == SV_OK;
}

static void encode_same(const sv_format *f, const sv_value *a, const sv_value *b, const char *path)
{
    if (!f->encode) return;
    sv_buf ba, bb;
    sv_buf_init(&ba, NULL);
    sv_buf_init(&bb, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_status sa = f->encode(a, NULL, &ba, &err);
    sv_error_clear(&err);
    sv_status sb = f->encode(b, NULL, &bb, &err);
    if (sa != sb || (sa == SV_OK && (ba.len != bb.len || memcmp(ba.data, bb.data, ba.len) != 0)))
        fail_msg("%s (%s): the borrowed tree encodes otherwise", path, f->name);
    sv_buf_free(&ba);
    sv_buf_free(&bb);
}

/* Every vector and sample every format decodes: the borrowed tree equals
 * the copied one, encodes the same, and borrows only 00-ended bytes of the
 * input. BSON and Godot borrow strings from the vectors at all. */
static void test_borrowed_equals_copied_everywhere(void **state)
{
    (void)state;
    static const char *const names[] = {"bson", "godot3", "godot4"};
    size_t borrowed[3] = {0, 0, 0}, decoded[3] = {0, 0, 0};
    for (size_t i = 0; i < test_corpus.count; i++) {
        const corpus_file *cf = &test_corpus.files[i];
        for (size_t k = 0; k < 3; k++) {
            const sv_format *f = sv_format_find(names[k]);
            if (!f || !f->decode) continue;
            sv_doc *copied = sv_doc_new(NULL), *lent = sv_doc_new(NULL);
            sv_value a, b;
            bool ok_a = decode(f, copied, cf, false, &a);
            bool ok_b = decode(f, lent, cf, true, &b);
            if (ok_a != ok_b)
                fail_msg("%s (%s): decodes only %s", cf->path, names[k],
                         ok_a ? "copying" : "borrowing");
            if (ok_a) {
                decoded[k]++;
                if (!sv_equal(&a, &b)) fail_msg("%s (%s): the trees differ", cf->path, names[k]);
                walk_ctx w = {cf->data, cf->data + cf->len, 0, false};
                walk(&w, &b);
                if (w.bad)
                    fail_msg("%s (%s): a borrowed string is not a 00-ended part of the "
                             "input",
                             cf->path, names[k]);
                walk_ctx none = {cf->data, cf->data + cf->len, 0, false};
                walk(&none, &a);
                assert_int_equal(none.borrowed, 0);
                borrowed[k] += w.borrowed;
                encode_same(f, &a, &b, cf->path);
            }
            sv_doc_free(copied);
            sv_doc_free(lent);
        }
    }
    for (size_t k = 0; k < 3; k++) {
        printf("%s: %zu inputs decoded, %zu borrowed values\n", names[k], decoded[k], borrowed[k]);
        if (sv_format_find(names[k])) {
            assert_true(decoded[k] > 0);
            assert_true(borrowed[k] > 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#if SERVAL_WITH_BSON
        cmocka_unit_test(test_bson_string_points_into_input),
#endif
#if SERVAL_WITH_GODOT
        cmocka_unit_test(test_godot_string_borrowed_only_with_its_00),
#endif
        cmocka_unit_test_setup_teardown(test_borrowed_equals_copied_everywhere, test_corpus_setup,
                                        test_corpus_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
