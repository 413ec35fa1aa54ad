/* The round-trip property the fuzzers check, on deterministic mutations of
 * the BSON and Resonite vectors: for any bytes x a decoder accepts,
 * encode(decode(x)) succeeds, decode of that equals decode(x) (sv_equal),
 * and encoding again gives the same bytes. Mutations flip, insert and
 * delete bytes (a fixed xorshift), so most are refused; those that are not
 * must keep the property. Registry formats "bson" and "resonite" are used
 * through their sv_format entries, as the fuzzers use them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helper_resonite.h"
#include "serval/serval.h"

static uint64_t rng = 0x5EED5EED12345678u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static bool property(const sv_format *f, const uint8_t *x, size_t n)
{
    sv_doc *d1 = sv_doc_new(NULL);
    sv_value t1;
    sv_error err = {0};
    if (f->decode(d1, x, n, NULL, &t1, &err) != SV_OK) {
        assert_true(err.message[0] != 0);
        sv_doc_free(d1);
        return false;
    }
    sv_buf e1, e2;
    sv_buf_init(&e1, NULL);
    sv_buf_init(&e2, NULL);
    sv_error_clear(&err);
    if (f->encode(&t1, NULL, &e1, &err) != SV_OK)
        fail_msg("%s: a decoded tree does not encode: %s", f->name, err.message);
    sv_doc *d2 = sv_doc_new(NULL);
    sv_value t2;
    sv_error_clear(&err);
    if (f->decode(d2, e1.data, e1.len, NULL, &t2, &err) != SV_OK)
        fail_msg("%s: the encoding of a decoded tree does not decode: %s", f->name, err.message);
    assert_true(sv_equal(&t1, &t2));
    assert_int_equal(f->encode(&t2, NULL, &e2, &err), SV_OK);
    assert_int_equal(e1.len, e2.len);
    assert_memory_equal(e1.data, e2.data, e1.len);
    sv_buf_free(&e1);
    sv_buf_free(&e2);
    sv_doc_free(d1);
    sv_doc_free(d2);
    return true;
}

static void mutate_and_check(const char *format, const char *path, int rounds)
{
    const sv_format *f = sv_format_find(format);
    assert_non_null(f);
    size_t n;
    uint8_t *orig = rs_read_file(path, &n);
    assert_non_null(orig);
    assert_true(property(f, orig, n));
    int accepted = 0;
    for (int i = 0; i < rounds; i++) {
        size_t m = n + 8;
        uint8_t *b = malloc(m);
        memcpy(b, orig, n);
        m = n;
        int edits = 1 + (int)(next() % 3);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(next() % m);
            switch (next() % 4) {
            case 0: b[at] ^= (uint8_t)(1u << (next() % 8)); break;
            case 1: b[at] = (uint8_t)next(); break;
            case 2: /* delete */
                memmove(b + at, b + at + 1, m - at - 1);
                m--;
                break;
            default: /* insert */
                memmove(b + at + 1, b + at, m - at);
                b[at] = (uint8_t)next();
                m++;
                break;
            }
        }
        uint8_t *exact = rs_copy(b, m);
        accepted += property(f, exact, m);
        free(exact);
        free(b);
    }
    print_message("%s %s: %d of %d mutations accepted\n", format, path, accepted, rounds);
    free(orig);
}

static void test_bson_mutations(void **state)
{
    (void)state;
    static const char *const v[] = {"all_types", "doubles", "nesting", "array_keys", "urls"};
    for (size_t i = 0; i < 5; i++) {
        char path[96];
        snprintf(path, sizeof path, "vectors/bson/%s.bson", v[i]);
        mutate_and_check("bson", path, 3000);
    }
}

static void test_resonite_mutations(void **state)
{
    (void)state;
    static const char *const v[] = {"tiny.brson",         "tiny.7zbson",
                                    "tiny.lz4bson",       "tiny-legacy.brson",
                                    "tiny-legacy.7zbson", "tiny-legacy.lz4bson"};
    for (size_t i = 0; i < 6; i++) {
        char path[96];
        snprintf(path, sizeof path, "vectors/resonite/%s", v[i]);
        mutate_and_check("resonite", path, 1500);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bson_mutations),
        cmocka_unit_test(test_resonite_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
