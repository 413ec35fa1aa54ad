/* borrow_input: a Godot decode asked to borrow points aligned packed number
 * arrays into the input instead of copying them; everything else about the
 * tree stays as a copying decode makes it.
 *
 * The input is a Godot 3 PoolVector3Array (type 25) of two Vector3, as
 * var2bytes writes it: header 19000000, count 02000000, then six float32
 * (1, 2, 3, 4, 5, 6: 0000803f 00000040 00004040 00008040 0000a040 0000c040). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

static const uint8_t pool_vector3[] = {
    0x19, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, /* PoolVector3Array, 2 items */
    0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40,
    0x00, 0x00, 0x80, 0x40, 0x00, 0x00, 0xa0, 0x40, 0x00, 0x00, 0xc0, 0x40,
};
#define PAYLOAD_AT 8

/* The input at an address that is a multiple of 8 plus shift. */
typedef struct placed {
    _Alignas(8) uint8_t space[sizeof pool_vector3 + 8];
    const uint8_t *data;
} placed;

static void place(placed *p, size_t shift)
{
    memcpy(p->space + shift, pool_vector3, sizeof pool_vector3);
    p->data = p->space + shift;
}

static sv_value decode3(sv_doc *doc, const uint8_t *data, bool borrow)
{
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    o.borrow_input = borrow;
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    size_t used = 0;
    assert_int_equal(sv_godot_decode(doc, data, sizeof pool_vector3, &o, &v, &used, &err), SV_OK);
    assert_int_equal(used, sizeof pool_vector3);
    assert_int_equal(sv_kind_of(&v), SV_PACKED);
    assert_int_equal(sv_tag_of(&v), SV_TAG_PACKED_VECTOR3);
    assert_int_equal(sv_len(&v), 6);
    return v;
}

static void assert_floats(const sv_value *v)
{
    static const float want[6] = {1, 2, 3, 4, 5, 6};
    assert_memory_equal(v->as.data, want, sizeof want);
}

/* The default copies; borrow_input on an aligned payload points into it. */
static void test_aligned_borrows(void **state)
{
    (void)state;
    placed p;
    place(&p, 0);
    sv_doc *doc = sv_doc_new(NULL);

    sv_value copied = decode3(doc, p.data, false);
    assert_false(sv_is_borrowed(&copied));
    assert_ptr_not_equal(copied.as.data, p.data + PAYLOAD_AT);
    assert_non_null(sv_value_buf(&copied));

    sv_value borrowed = decode3(doc, p.data, true);
    assert_true(sv_is_borrowed(&borrowed));
    assert_ptr_equal(borrowed.as.data, p.data + PAYLOAD_AT);
    assert_null(sv_value_buf(&borrowed)); /* read-only */
    assert_floats(&borrowed);
    assert_true(sv_equal(&copied, &borrowed));

    /* Encoding reads through the pointer: the same bytes come back. */
    sv_godot_opts o;
    sv_godot_opts_init(&o, SV_GODOT3);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_godot_encode(&borrowed, &o, &b, &err), SV_OK);
    assert_int_equal(b.len, sizeof pool_vector3);
    assert_memory_equal(b.data, pool_vector3, sizeof pool_vector3);
    sv_buf_free(&b);

    /* A copy is the document's own: writable, and not in the input. */
    sv_value c = sv_copy(doc, &borrowed);
    assert_false(sv_is_borrowed(&c));
    assert_ptr_not_equal(c.as.data, p.data + PAYLOAD_AT);
    assert_non_null(sv_value_buf(&c));
    assert_floats(&c);
    assert_true(sv_equal(&c, &borrowed));
    sv_doc_free(doc);
}

/* A payload that is not 4-aligned is copied even when borrowing is allowed. */
static void test_misaligned_copies(void **state)
{
    (void)state;
    for (size_t shift = 1; shift < 4; shift++) {
        placed p;
        place(&p, shift);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v = decode3(doc, p.data, true);
        assert_false(sv_is_borrowed(&v));
        assert_ptr_not_equal(v.as.data, p.data + PAYLOAD_AT);
        assert_floats(&v);
        sv_doc_free(doc);
    }
}

/* Through the registry: sv_options.borrow_input reaches the decoder. */
static void test_registry_option(void **state)
{
    (void)state;
    placed p;
    place(&p, 0);
    const sv_format *f = sv_format_find("godot3");
    assert_non_null(f);
    for (int borrow = 0; borrow <= 1; borrow++) {
        sv_options o;
        sv_options_init(&o);
        o.borrow_input = borrow;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(f->decode(doc, p.data, sizeof pool_vector3, &o, &v, &err), SV_OK);
        /* the registry wraps nothing around a raw root */
        assert_int_equal(sv_kind_of(&v), SV_PACKED);
        assert_int_equal(sv_is_borrowed(&v), borrow);
        assert_int_equal(v.as.data == p.data + PAYLOAD_AT, borrow);
        assert_floats(&v);
        sv_doc_free(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aligned_borrows),
        cmocka_unit_test(test_misaligned_copies),
        cmocka_unit_test(test_registry_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
