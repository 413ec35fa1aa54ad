/* godot-res: the tree borrowing the input, and the writer streaming.
 *
 *  - With borrow_input, packed number arrays, byte arrays and strings point
 *    into the input, wherever they lie: a hand-built Godot 3 file puts a
 *    PackedFloat32Array at an address 2 mod 4 (its strings are not padded)
 *    and the tree's array is that address, read right by every reader (the
 *    value API, sv_copy, the typed JSON, the encoder). Without the option
 *    nothing is borrowed.
 *  - Every vector of tests/vectors/godot-res decodes to the same tree with
 *    and without borrowing, and encodes back to its bytes from both.
 *  - The writer sizes the bodies before writing the offset table, so with a
 *    sink the output never sits whole in the buffer: a 1.2 MB resource goes
 *    through a 4 KiB window, also with many bodies, byte for byte. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"
#include "test_godot_util.h"

/* ---- building a Godot 3 resource by hand (spec §2, §4) ---- */

typedef struct rb {
    uint8_t *b;
    size_t n, cap;
} rb;

static void rb_put(rb *h, const void *p, size_t n)
{
    while (h->n + n > h->cap) {
        h->cap = h->cap ? 2 * h->cap : 4096;
        h->b = realloc(h->b, h->cap);
        assert_non_null(h->b);
    }
    memcpy(h->b + h->n, p, n);
    h->n += n;
}
static void rb_u32(rb *h, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    rb_put(h, b, 4);
}
static void rb_u64(rb *h, uint64_t v)
{
    rb_u32(h, (uint32_t)v);
    rb_u32(h, (uint32_t)(v >> 32));
}
static void rb_str(rb *h, const char *s)
{
    rb_u32(h, (uint32_t)strlen(s) + 1);
    rb_put(h, s, strlen(s) + 1);
}

/* A format-3 file (3.2): string table {"label", "data"}, bodies resources
 * of class Resource, each {label: String text, data: PackedFloat32Array of
 * count floats f(i) = i * 0.5 + body}. *data_at gets the offset of the
 * last body's first float. */
static void build_res(rb *h, unsigned bodies, const char *text, uint32_t count, size_t *data_at)
{
    h->n = 0;
    rb_put(h, "RSRC", 4);
    rb_u32(h, 0); /* little-endian */
    rb_u32(h, 0); /* use_real64 */
    rb_u32(h, 3);
    rb_u32(h, 2);
    rb_u32(h, 3);
    rb_str(h, "Resource");
    rb_u64(h, 0);                             /* import metadata offset */
    for (int i = 0; i < 14; i++) rb_u32(h, 0); /* flags, uid, 11 reserved */
    rb_u32(h, 2);
    rb_str(h, "label");
    rb_str(h, "data");
    rb_u32(h, 0); /* no external resources */
    rb_u32(h, bodies);
    size_t table = h->n;
    char path[32];
    for (unsigned k = 0; k < bodies; k++) {
        snprintf(path, sizeof path, "local://%u", k + 1);
        rb_str(h, path);
        rb_u64(h, 0); /* patched below */
    }
    for (unsigned k = 0; k < bodies; k++) {
        /* the k-th table entry's offset: its path ("local://N", a NUL) then 8 bytes */
        size_t entry = table;
        for (unsigned j = 0; j < k; j++) {
            snprintf(path, sizeof path, "local://%u", j + 1);
            entry += 4 + strlen(path) + 1 + 8;
        }
        snprintf(path, sizeof path, "local://%u", k + 1);
        uint64_t at = h->n;
        for (int b = 0; b < 8; b++) h->b[entry + 4 + strlen(path) + 1 + b] = (uint8_t)(at >> 8 * b);
        rb_str(h, "Resource");
        rb_u32(h, 2);
        rb_u32(h, 0); /* "label" */
        rb_u32(h, 5); /* String */
        rb_str(h, text);
        rb_u32(h, 1);  /* "data" */
        rb_u32(h, 33); /* FLOAT32_ARRAY */
        rb_u32(h, count);
        *data_at = h->n;
        for (uint32_t i = 0; i < count; i++) {
            float f = (float)i * 0.5f + (float)k;
            uint32_t u;
            memcpy(&u, &f, 4);
            rb_u32(h, u);
        }
    }
    rb_put(h, "RSRC", 4);
}

static sv_status decode_res(sv_doc *doc, const uint8_t *p, size_t n, bool borrow, sv_value *out)
{
    sv_options o;
    sv_options_init(&o);
    o.borrow_input = borrow;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_format_find("godot-res")->decode(doc, p, n, &o, out, &err);
    if (st != SV_OK) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "decode: %s\n", msg);
    }
    return st;
}

static const sv_value *body_field(const sv_value *root, uint32_t body, const char *name)
{
    const sv_value *inl = sv_map_getz(root, "internal");
    return sv_map_getz(sv_array_at(inl, body), name);
}

/* The typed JSON text of v, read back into doc. */
static sv_value via_json(sv_doc *doc, const sv_value *v)
{
    const sv_format *json = sv_format_find("json");
    sv_buf text;
    sv_buf_init(&text, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(json->encode(v, NULL, &text, &err), SV_OK);
    sv_value back;
    assert_int_equal(json->decode(doc, text.data, text.len, NULL, &back, &err), SV_OK);
    sv_buf_free(&text);
    return back;
}

static void test_unaligned_packed_array_is_borrowed(void **state)
{
    (void)state;
    rb h = {0};
    size_t at = 0;
    /* the string's length moves the array: find the text that puts its
     * floats at 2 mod 4 in the file (and in memory: malloc aligns to 16) */
    const char *texts[] = {"a", "ab", "abc", "abcd"};
    const char *text = NULL;
    for (int i = 0; i < 4 && !text; i++) {
        build_res(&h, 1, texts[i], 5, &at);
        if (at % 4 == 2) text = texts[i];
    }
    assert_non_null(text);
    assert_int_equal((uintptr_t)(h.b + at) % 4, 2);

    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    assert_int_equal(decode_res(doc, h.b, h.n, true, &root), SV_OK);
    const sv_value *data = body_field(&root, 0, "data");
    assert_int_equal(sv_kind_of(data), SV_PACKED);
    assert_int_equal(sv_elem_of(data), SV_ELEM_F32);
    assert_true(sv_is_borrowed(data));
    assert_ptr_equal(sv_numbers(data), h.b + at);
    assert_null(sv_value_buf((sv_value *)data)); /* read-only */
    assert_int_equal(sv_len(data), 5);
    for (uint32_t i = 0; i < 5; i++) assert_true(sv_number_at(data, i) == i * 0.5);
    const sv_value *label = body_field(&root, 0, "label");
    size_t n;
    const char *s = sv_get_str(label, &n);
    assert_true(sv_is_borrowed(label));
    assert_true((const uint8_t *)s > h.b && (const uint8_t *)s < h.b + h.n);
    assert_int_equal(n, strlen(text));
    assert_string_equal(s, text); /* the file's NUL ends it */

    /* a copy is the document's own, aligned, and equal */
    sv_doc *other = sv_doc_new(NULL);
    sv_value copy = sv_copy(other, &root);
    assert_true(sv_equal(&copy, &root));
    const sv_value *cdata = body_field(&copy, 0, "data");
    assert_false(sv_is_borrowed(cdata));
    assert_int_equal((uintptr_t)sv_numbers(cdata) % 4, 0);

    /* the typed JSON of the borrowed tree reads back to the same tree, and
     * both encode to the file's bytes */
    sv_value back = via_json(other, &root);
    assert_true(sv_equal(&back, &root));
    const sv_value *trees[] = {&root, &copy, &back};
    for (int t = 0; t < 3; t++) {
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv_format_find("godot-res")->encode(trees[t], NULL, &out, &err), SV_OK);
        assert_int_equal(out.len, h.n);
        assert_memory_equal(out.data, h.b, h.n);
        sv_buf_free(&out);
    }
    sv_doc_free(other);

    /* without borrow_input the tree owns everything */
    sv_doc_reset(doc);
    assert_int_equal(decode_res(doc, h.b, h.n, false, &root), SV_OK);
    assert_false(sv_is_borrowed(body_field(&root, 0, "data")));
    assert_false(sv_is_borrowed(body_field(&root, 0, "label")));
    assert_int_equal((uintptr_t)sv_numbers(body_field(&root, 0, "data")) % 4, 0);
    sv_doc_free(doc);
    free(h.b);
}

/* ---- every vector, borrowed or not ---- */

static sv_status collect_sink(void *ctx, const uint8_t *data, size_t len)
{
    return sv_buf_append(ctx, data, len);
}

/* Encodes v through a sink of the given window: the bytes the sink got in
 * *all (caller frees), and the room the encoder's buffer grew to. */
static sv_status encode_sink(const sv_value *v, size_t window, sv_buf *all, size_t *max_cap)
{
    sv_buf out, got;
    sv_buf_init(&out, NULL);
    sv_buf_init(&got, NULL);
    sv_buf_set_sink(&out, collect_sink, &got, window);
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_format_find("godot-res")->encode(v, NULL, &out, &err);
    if (st == SV_OK) st = sv_buf_flush(&out);
    *max_cap = out.cap;
    sv_buf_free(&out);
    *all = got;
    return st;
}

static int check_vector(const char *path)
{
    size_t len = 0;
    uint8_t *data = tg_read_file(path, &len);
    if (!data) return 0;
    sv_doc *a = sv_doc_new(NULL), *b = sv_doc_new(NULL);
    sv_value ta, tb;
    sv_status st = decode_res(b, data, len, false, &tb);
    if (st == SV_ERR_UNSUPPORTED) {
        /* a compression this build leaves out (Brotli) */
        sv_doc_free(a);
        sv_doc_free(b);
        free(data);
        return 0;
    }
    assert_int_equal(st, SV_OK);
    assert_int_equal(decode_res(a, data, len, true, &ta), SV_OK);
    if (!sv_equal(&ta, &tb)) fail_msg("%s: the borrowed tree differs", path);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_format_find("godot-res")->encode(&ta, NULL, &out, &err), SV_OK);
    if (out.len != len || memcmp(out.data, data, len))
        fail_msg("%s: the borrowed tree encodes to other bytes", path);
    sv_buf_free(&out);
    sv_buf all;
    size_t cap;
    assert_int_equal(encode_sink(&tb, 64, &all, &cap), SV_OK);
    if (all.len != len || memcmp(all.data, data, len))
        fail_msg("%s: the encode through a 64-byte window gives other bytes", path);
    sv_buf_free(&all);
    sv_doc_free(a);
    sv_doc_free(b);
    free(data);
    return 1;
}

static void test_vectors_borrowed_and_streamed(void **state)
{
    (void)state;
    const char *dirs[] = {"vectors/godot-res/v3", "vectors/godot-res/v4",
                          "vectors/godot-res/brotli4"};
    int files = 0;
    for (int k = 0; k < 3; k++) {
        DIR *d = opendir(dirs[k]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".res")) continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
            files += check_vector(path);
        }
        closedir(d);
    }
    assert_true(files >= 10); /* the folders are part of the repository */
}

/* ---- the writer hands its output over as it goes ---- */

static void test_encode_streams_through_the_sink(void **state)
{
    (void)state;
    rb h = {0};
    size_t at;
    for (unsigned bodies = 1; bodies <= 40; bodies += 39) {
        /* 1.2 MB in one body; 40 bodies of 30,000 floats */
        build_res(&h, bodies, "streamed", bodies == 1 ? 300000 : 30000, &at);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        assert_int_equal(decode_res(doc, h.b, h.n, true, &root), SV_OK);
        sv_buf all;
        size_t cap;
        assert_int_equal(encode_sink(&root, 4096, &all, &cap), SV_OK);
        assert_int_equal(all.len, h.n);
        assert_memory_equal(all.data, h.b, h.n);
        /* a window and one piece, never the whole output */
        assert_true(cap <= 64 * 1024);
        sv_buf_free(&all);
        sv_doc_free(doc);
    }
    free(h.b);
}

int main(void)
{
    if (!sv_format_find("godot-res")) {
        printf("SKIP: godot-res is not built\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unaligned_packed_array_is_borrowed),
        cmocka_unit_test(test_vectors_borrowed_and_streamed),
        cmocka_unit_test(test_encode_streams_through_the_sink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
