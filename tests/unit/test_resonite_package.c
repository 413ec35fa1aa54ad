/* .resonitepackage archives (spec resonite A.6.6) and the slot view.
 *
 * Oracles: the samples' READMEs (member names; the main blob of each
 * package is the .brson sample of the same hash, byte for byte) and, for
 * the slot view, counts taken with Node's zlib.brotliDecompressSync and the
 * bson npm package (6.10.4) over the same files: slots, components (Type
 * entries of every slot's Components.Data), assets, the root slot's name and
 * the Types table size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helper_resonite.h"
#include "serval/resonite.h"
#include "serval/serval.h"

#define AVATAR_HASH "7c364dcd1910149df94772cab146b38c42f6e31f1c8859e71f3429b6055c5ecb"
#define STANDIN_HASH "6ca27cd0f61e6490eb7bcbedd54fb7907c75aeffffce816508972243058a82cd"
#define ASSET_HASH "30a0bc21f298c2e75427245468405849b6c7ea67eb9ced14ecbc5dc1ef3eabb3"

static const struct {
    const char *pkg, *brson;
    size_t members;
    const char *names[4];
} packages[] = {
    {PACKAGE_DIR "AvatarRootIdentification.resonitepackage",
     BRSON_DIR "avatar-root-identification.7c364dcd.brson",
     2,
     {"R-Main.record", "Assets/" AVATAR_HASH}},
    {PACKAGE_DIR "loading_standin.resonitepackage",
     BRSON_DIR "loading-standin.6ca27cd0.brson",
     4,
     {"R-Main.record", "Assets/" STANDIN_HASH, "Assets/" ASSET_HASH,
      "Metadata/" ASSET_HASH ".bitmap"}},
};

static bool present(void)
{
    size_t n;
    uint8_t *b = rs_read_file(packages[0].pkg, &n);
    free(b);
    if (!b) printf("skipped: %s not found (the shared samples are absent)\n", packages[0].pkg);
    return b != NULL;
}

static void test_packages(void **state)
{
    (void)state;
    if (!present()) skip();
    for (size_t i = 0; i < 2; i++) {
        size_t n, bn;
        uint8_t *zip = rs_read_file(packages[i].pkg, &n);
        uint8_t *brson = rs_read_file(packages[i].brson, &bn);
        assert_non_null(zip);
        assert_non_null(brson);
        sv_resonite_package *p;
        sv_error err = {0};
        sv_error_clear(&err);
        assert_int_equal(sv_resonite_package_open(zip, n, NULL, &p, &err), SV_OK);
        assert_int_equal(sv_resonite_package_count(p), packages[i].members);
        for (size_t k = 0; k < packages[i].members; k++) {
            size_t at;
            if (sv_resonite_package_find(p, packages[i].names[k], &at) != SV_OK)
                fail_msg("no member %s", packages[i].names[k]);
            sv_resonite_member m;
            assert_int_equal(sv_resonite_package_member(p, at, &m, &err), SV_OK);
            assert_string_equal(m.name, packages[i].names[k]);
            assert_int_equal(m.is_data_tree, k == 1); /* only the main blob is FrDT */
        }
        /* the main blob is the .brson sample, byte for byte, and decodes */
        size_t main_i;
        assert_int_equal(sv_resonite_package_find(p, packages[i].names[1], &main_i), SV_OK);
        sv_buf b;
        sv_buf_init(&b, NULL);
        assert_int_equal(sv_resonite_package_read(p, main_i, 0, &b, &err), SV_OK);
        assert_int_equal(b.len, bn);
        assert_memory_equal(b.data, brson, bn);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        assert_int_equal(sv_resonite_decode(doc, b.data, b.len, NULL, &root, &err), SV_OK);
        sv_doc_free(doc);
        /* a member read stops at the limit given */
        b.len = 0;
        assert_int_equal(sv_resonite_package_read(p, main_i, 100, &b, &err), SV_ERR_LIMIT);
        sv_buf_free(&b);
        size_t none = 12345;
        assert_int_equal(sv_resonite_package_find(p, "nope", &none), SV_ERR_NOT_FOUND);
        assert_int_equal(none, 12345); /* untouched */
        sv_resonite_package_close(p);
        free(zip);
        free(brson);
    }
}

static void test_not_a_package(void **state)
{
    (void)state;
    sv_resonite_package *p = NULL;
    sv_error err = {0};
    sv_error_clear(&err);
    static const uint8_t junk[64] = "PK\x03\x04 but nothing else";
    assert_int_equal(sv_resonite_package_open(junk, sizeof junk, NULL, &p, &err), SV_ERR_SYNTAX);
    assert_null(p);
    assert_true(err.message[0] != 0);
}

/* Counts of the Node oracle (file header comment). */
static const struct {
    const char *file, *root, *first_line, *last_line;
} trees[] = {
    {BRSON_DIR "avatar-root-identification.7c364dcd.brson", "Avatar Root Identification",
     "version 2026.6.12.557, brotli with FrDT header, 20 types\n",
     "13 slots, 29 components, 0 assets\n"},
    {BRSON_DIR "loading-standin.6ca27cd0.brson", "LoadingStandin - Thumbnail v1.3.1",
     "version 2025.6.17.855, brotli with FrDT header, 49 types\n",
     "36 slots, 58 components, 0 assets\n"},
    {BRSON_DIR "ma-coresys.27422500.brson",
     "<color=cyan>Modular Avatar</color> - Core Systems v1.1.0",
     "version 2025.6.17.855, brotli with FrDT header, 87 types\n",
     "189 slots, 227 components, 1 assets\n"},
};

static void test_tree_view(void **state)
{
    (void)state;
    if (!present()) skip();
    for (size_t i = 0; i < 3; i++) {
        size_t n;
        uint8_t *b = rs_read_file(trees[i].file, &n);
        sv_doc *doc = sv_doc_new(NULL);
        sv_value root;
        sv_error err = {0};
        sv_error_clear(&err);
        assert_int_equal(sv_resonite_decode(doc, b, n, NULL, &root, &err), SV_OK);
        sv_buf out;
        sv_buf_init(&out, NULL);
        assert_int_equal(sv_resonite_tree_print(&root, &out, &err), SV_OK);
        sv_buf_putc(&out, 0);
        const char *text = (const char *)out.data;
        size_t fl = strlen(trees[i].first_line), ll = strlen(trees[i].last_line);
        assert_memory_equal(text, trees[i].first_line, fl);
        char want[160];
        snprintf(want, sizeof want, "slot \"%s\"\n", trees[i].root);
        assert_memory_equal(text + fl, want, strlen(want));
        assert_string_equal(text + out.len - 1 - ll, trees[i].last_line);
        sv_buf_free(&out);
        sv_doc_free(doc);
        free(b);
    }
    /* the Node oracle: ma-coresys' one asset is a PBS_Metallic */
    size_t n;
    uint8_t *b = rs_read_file(trees[2].file, &n);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err = {0};
    assert_int_equal(sv_resonite_decode(doc, b, n, NULL, &root, &err), SV_OK);
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_resonite_tree_print(&root, &out, &err), SV_OK);
    sv_buf_putc(&out, 0);
    assert_non_null(strstr((const char *)out.data, "assets (1)\n  asset PBS_Metallic\n"));
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(b);
}

/* The view takes any tree: wrong shapes print "?" or nothing, never fail. */
static void test_tree_view_odd_trees(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root = sv_map(doc, 0);
    sv_value slot = sv_map(doc, 0);
    sv_value comps = sv_map(doc, 0);
    sv_value list = sv_array(doc, 0);
    sv_value c = sv_map(doc, 0);
    sv_map_append_str(doc, &c, "Type", sv_int_w(5, 4)); /* no Types table */
    sv_array_append(doc, &list, c);
    sv_map_append_str(doc, &comps, "Data", list);
    sv_map_append_str(doc, &slot, "Components", comps);
    sv_map_append_str(doc, &slot, "Children", sv_int(3));
    sv_map_append_str(doc, &root, "Object", slot);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err = {0};
    sv_error_clear(&err);
    assert_int_equal(sv_resonite_tree_print(&root, &out, &err), SV_OK);
    sv_buf_putc(&out, 0);
    assert_string_equal((const char *)out.data, "version ?, 0 types\n"
                                                "slot (no name)\n"
                                                "  component <type #5?>\n"
                                                "1 slots, 1 components, 0 assets\n");
    sv_buf_free(&out);
    sv_value num = sv_int(1);
    assert_int_equal(sv_resonite_tree_print(&num, &out, &err), SV_ERR_TYPE);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packages),
        cmocka_unit_test(test_not_a_package),
        cmocka_unit_test(test_tree_view),
        cmocka_unit_test(test_tree_view_odd_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
