/* Every field of the values the BSON reader makes, all 16 bytes of each,
 * against values set field by field here from the mapping in bson.h: kind,
 * flags, width, tag, length and payload, unused bits zero. The reader builds
 * a value as two machine words instead of field by field, so a shift or a
 * flag put in the wrong place shows here even where a round trip would not
 * look (a borrowed flag, a tag the writer ignores). The input is built here
 * byte by byte after bsonspec.org 1.1. And every byte of strings of every
 * length up to 80 goes through the string check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/bson.h"
#include "serval/serval.h"

/* ---- a BSON builder (little-endian, as the spec says) ------------------ */

typedef struct bb {
    uint8_t b[512];
    size_t n;
    size_t open[8]; /* where each open document's length goes */
    size_t depth;
} bb;

static void put(bb *w, const void *p, size_t n)
{
    assert_true(w->n + n <= sizeof w->b);
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

static void put_u32(bb *w, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, x, 4);
}

static void put_u64(bb *w, uint64_t v)
{
    put_u32(w, (uint32_t)v);
    put_u32(w, (uint32_t)(v >> 32));
}

static void begin(bb *w)
{
    w->open[w->depth++] = w->n;
    put_u32(w, 0);
}

static void end(bb *w)
{
    uint8_t z = 0;
    put(w, &z, 1);
    size_t at = w->open[--w->depth];
    uint32_t len = (uint32_t)(w->n - at);
    for (int i = 0; i < 4; i++) w->b[at + (size_t)i] = (uint8_t)(len >> (8 * i));
}

static void elem(bb *w, uint8_t type, const char *key)
{
    put(w, &type, 1);
    put(w, key, strlen(key) + 1);
}

/* A string element; returns the offset of its text. */
static size_t str(bb *w, const char *key, const char *s)
{
    elem(w, 0x02, key);
    put_u32(w, (uint32_t)strlen(s) + 1);
    size_t at = w->n;
    put(w, s, strlen(s) + 1);
    return at;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* ---- expected values -------------------------------------------------------- */

static sv_value make(sv_kind kind, unsigned flags, unsigned sub, unsigned tag, uint32_t len)
{
    sv_value v;
    memset(&v, 0, sizeof v); /* every unused bit too */
    v.kind = kind & 0xF;
    v.flags = flags & 0xF;
    v.sub = (uint8_t)sub;
    v.tag = (uint16_t)tag;
    v.len = len;
    return v;
}

static void same(const sv_value *got, sv_value want)
{
    assert_non_null(got);
    assert_memory_equal(got, &want, sizeof want);
}

/* A string value: its fields, its text, and whether it points into the input. */
static void same_str(const sv_value *got, unsigned flags, unsigned tag, const char *text,
                     const uint8_t *in_input)
{
    size_t n = strlen(text);
    sv_value want = make(SV_STRING, flags, 0, tag, (uint32_t)n);
    want.as.str = got->as.str; /* the pointer is checked below */
    same(got, want);
    assert_memory_equal(got->as.str, text, n + 1); /* with its NUL */
    if (in_input)
        assert_ptr_equal(got->as.str, in_input);
    else
        assert_true(got->as.str != NULL);
}

/* ---- the test ---------------------------------------------------------------- */

typedef struct sample {
    bb w;
    size_t at_s, at_u, at_c; /* offsets of string texts */
} sample;

/* {"s": "ab", "u": "@x", "d": 1.5, "w": 2.0, "i": int32 -2, "l": int64 5,
 *  "t": datetime 7, "b": true, "n": null, "m": {"k": false}, "a": [int32 3,
 *  "c"], "e": {}} */
static void build(sample *s)
{
    memset(s, 0, sizeof *s);
    bb *w = &s->w;
    begin(w);
    s->at_s = str(w, "s", "ab");
    s->at_u = str(w, "u", "@x");
    elem(w, 0x01, "d");
    put_u64(w, dbits(1.5));
    elem(w, 0x01, "w");
    put_u64(w, dbits(2.0));
    elem(w, 0x10, "i");
    put_u32(w, (uint32_t)-2);
    elem(w, 0x12, "l");
    put_u64(w, 5);
    elem(w, 0x09, "t");
    put_u64(w, 7);
    elem(w, 0x08, "b");
    put(w, "\x01", 1);
    elem(w, 0x0A, "n");
    elem(w, 0x03, "m");
    begin(w);
    elem(w, 0x08, "k");
    put(w, "\x00", 1);
    end(w);
    elem(w, 0x04, "a");
    begin(w);
    elem(w, 0x10, "0");
    put_u32(w, 3);
    s->at_c = str(w, "1", "c");
    end(w);
    elem(w, 0x03, "e");
    begin(w);
    end(w);
    end(w);
}

static const char *const keys[] = {"s", "u", "d", "w", "i", "l", "t", "b", "n", "m", "a", "e"};

static void check(bool borrow)
{
    sample s;
    build(&s);
    sv_doc *doc = sv_doc_new(NULL);
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.resonite_urls = true;
    o.borrow_input = borrow;
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_bson_decode(doc, s.w.b, s.w.n, &o, &root, &err), SV_OK);

    sv_value want = make(SV_MAP, 0, 0, 0, 12);
    want.as.box = root.as.box;
    same(&root, want);
    for (size_t i = 0; i < 12; i++) same_str(sv_key_at(&root, i), 0, SV_TAG_NONE, keys[i], NULL);

    unsigned str_flags = borrow ? SV_F_BORROWED : 0;
    const uint8_t *in = s.w.b;
    same_str(sv_val_at(&root, 0), str_flags, SV_TAG_NONE, "ab", borrow ? in + s.at_s : NULL);
    /* "@x" is the URL x (spec resonite A.5): the text after the "@" */
    same_str(sv_val_at(&root, 1), str_flags, SV_TAG_URL, "x", borrow ? in + s.at_u + 1 : NULL);

    sv_value d = make(SV_FLOAT, 0, 8, SV_TAG_NONE, 0);
    d.as.f64 = 1.5;
    same(sv_val_at(&root, 2), d);
    sv_value whole = make(SV_FLOAT, SV_F_EXPLICIT, 8, SV_TAG_NONE, 0); /* {"$f64": 2.0} */
    whole.as.f64 = 2.0;
    same(sv_val_at(&root, 3), whole);
    sv_value i32 = make(SV_INT, SV_F_EXPLICIT, 4, SV_TAG_NONE, 0);
    i32.as.i = -2;
    same(sv_val_at(&root, 4), i32);
    sv_value i64 = make(SV_INT, 0, 8, SV_TAG_NONE, 0);
    i64.as.i = 5;
    same(sv_val_at(&root, 5), i64);
    sv_value date = make(SV_INT, 0, 8, SV_TAG_DATETIME, 0);
    date.as.i = 7;
    same(sv_val_at(&root, 6), date);
    sv_value t = make(SV_BOOL, 0, 0, SV_TAG_NONE, 0);
    t.as.b = true;
    same(sv_val_at(&root, 7), t);
    same(sv_val_at(&root, 8), make(SV_NULL, 0, 0, SV_TAG_NONE, 0));

    const sv_value *m = sv_val_at(&root, 9);
    sv_value mw = make(SV_MAP, 0, 0, SV_TAG_NONE, 1);
    mw.as.box = m->as.box;
    same(m, mw);
    same_str(sv_key_at(m, 0), 0, SV_TAG_NONE, "k", NULL);
    sv_value f = make(SV_BOOL, 0, 0, SV_TAG_NONE, 0);
    f.as.b = false;
    same(sv_val_at(m, 0), f);

    const sv_value *a = sv_val_at(&root, 10);
    sv_value aw = make(SV_ARRAY, 0, 0, SV_TAG_NONE, 2);
    aw.as.box = a->as.box;
    same(a, aw);
    assert_null(sv_meta(a)); /* canonical keys "0", "1": no meta */
    sv_value three = make(SV_INT, SV_F_EXPLICIT, 4, SV_TAG_NONE, 0);
    three.as.i = 3;
    same(sv_array_at(a, 0), three);
    same_str(sv_array_at(a, 1), str_flags, SV_TAG_NONE, "c", borrow ? in + s.at_c : NULL);

    const sv_value *e = sv_val_at(&root, 11);
    sv_value ew = make(SV_MAP, 0, 0, SV_TAG_NONE, 0);
    ew.as.box = e->as.box;
    same(e, ew);

    /* and the same bytes back */
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_bson_encode(&root, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, s.w.n);
    assert_memory_equal(out.data, s.w.b, s.w.n);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_values_copied(void **state)
{
    (void)state;
    check(false);
}

static void test_values_borrowed(void **state)
{
    (void)state;
    check(true);
}

/* A root of 12 elements read twice into one document, reset between: the
 * second tree is the same, field for field (the reader's state, key cache
 * and blocks start again). */
static void test_values_after_reset(void **state)
{
    (void)state;
    sample s;
    build(&s);
    sv_doc *doc = sv_doc_new(NULL);
    sv_doc_set_reset_keep(doc, UINT64_MAX);
    sv_bson_opts o;
    sv_bson_opts_init(&o);
    o.borrow_input = true;
    sv_error err;
    sv_error_clear(&err);
    sv_value first, second;
    assert_int_equal(sv_bson_decode(doc, s.w.b, s.w.n, &o, &first, &err), SV_OK);
    sv_value kept[12];
    for (size_t i = 0; i < 12; i++) kept[i] = *sv_val_at(&first, i);
    sv_doc_reset(doc);
    assert_int_equal(sv_bson_decode(doc, s.w.b, s.w.n, &o, &second, &err), SV_OK);
    assert_int_equal(sv_len(&second), 12);
    for (size_t i = 0; i < 12; i++) {
        const sv_value *v = sv_val_at(&second, i);
        /* scalars and borrowed strings are the same words; containers are
         * new boxes of the same kind and length */
        assert_int_equal(v->kind, kept[i].kind);
        assert_int_equal(v->len, kept[i].len);
        if (v->kind != SV_MAP && v->kind != SV_ARRAY) assert_memory_equal(v, &kept[i], sizeof *v);
    }
    sv_doc_free(doc);
}

/* {"s": text} with text n bytes of 'a' and bad at i (bad2 at i + 1 when not
 * 0): the text starts at byte 11. */
static sv_status decode_text(size_t n, size_t i, uint8_t bad, uint8_t bad2, sv_error *err)
{
    bb w;
    memset(&w, 0, sizeof w);
    char text[128];
    assert_true(n < sizeof text);
    memset(text, 'a', n);
    text[n] = 0;
    text[i] = (char)bad;
    if (bad2) text[i + 1] = (char)bad2;
    begin(&w);
    size_t at = str(&w, "s", text);
    end(&w);
    assert_int_equal(at, 11);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error_clear(err);
    sv_status st = sv_bson_decode(doc, w.b, w.n, NULL, &root, err);
    if (st == SV_OK) {
        size_t len = 0;
        const char *got = sv_get_str(sv_map_getz(&root, "s"), &len);
        assert_int_equal(len, n);
        assert_memory_equal(got, text, n);
    }
    sv_doc_free(doc);
    return st;
}

/* Strings are checked for ASCII a word at a time, in overlapping words
 * for lengths up to 64 (a 36-byte GUID is the most common value): a byte
 * that is not ASCII anywhere in a string of any length up to 80 must be
 * seen. A lone continuation byte (80) is not UTF-8 (RFC 3629) and fails
 * at the string's first byte; a whole two-byte sequence (C3 A9, e acute)
 * at the same place is kept. */
static void test_every_byte_of_a_string_is_checked(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 80; n++) {
        for (size_t i = 0; i < n; i++) {
            sv_error err;
            sv_status st = decode_text(n, i, 0x80, 0, &err);
            if (st != SV_ERR_UTF8)
                fail_msg("length %zu, 80 at %zu: got %s, want SV_ERR_UTF8", n, i,
                         sv_status_name(st));
            assert_int_equal(err.byte_offset, 11);
            assert_string_equal(err.message, "the string is not valid UTF-8");
            assert_string_equal(err.path, "/s");
            if (i + 1 < n) assert_int_equal(decode_text(n, i, 0xC3, 0xA9, &err), SV_OK);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_copied),
        cmocka_unit_test(test_values_borrowed),
        cmocka_unit_test(test_values_after_reset),
        cmocka_unit_test(test_every_byte_of_a_string_is_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
