/* The formats' checks without a tree (sv_format.validate: BSON and
 * Resonite) against their decoders: on every test vector, sample and fuzz
 * regression, on every truncation of the small ones and on byte
 * corruptions, both must accept the same inputs and report the same error
 * (status, format, byte and bit offset, JSON Pointer path and message).
 * For Resonite also with the second Brotli thread (test_resonite_validate.c
 * has payloads large enough for it to start). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_corpus.h"
#include "helper_validate.h"
#include "serval/serval.h"

/* Truncations and corruptions are tried on files up to this size (every
 * prefix, every byte): the vectors and small samples. */
#define SMALL_FILE 4096u

static bool has_validate(const sv_format *f)
{
    return f->struct_size >= offsetof(sv_format, validate) + sizeof f->validate && f->validate;
}

/* Every file as it is, with every format that has a check; the small ones
 * also cut at every length and with each byte replaced by 00, FF and its
 * complement. */
static void test_agrees_with_decoder(void **state)
{
    (void)state;
    size_t count = 0, accepted = 0, refused = 0, checked_formats = 0;
    const sv_format *const *all = sv_formats(&count);
    for (size_t fi = 0; fi < count; fi++) {
        const sv_format *f = all[fi];
        if (!has_validate(f)) continue;
        checked_formats++;
        sv_options sets[2];
        size_t nsets = validate_option_sets(f, sets);
        for (size_t i = 0; i < test_corpus.count; i++) {
            const corpus_file *cf = &test_corpus.files[i];
            for (size_t s = 0; s < nsets; s++) {
                validate_same(f, cf->data, cf->len, &sets[s], cf->path, &accepted, &refused);
                if (cf->len > SMALL_FILE) continue;
                for (size_t n = 0; n < cf->len; n++)
                    validate_same(f, cf->data, n, &sets[s], cf->path, &accepted, &refused);
                uint8_t *b = malloc(cf->len ? cf->len : 1);
                assert_non_null(b);
                for (size_t at = 0; at < cf->len; at++) {
                    const uint8_t subs[3] = {0x00, 0xFF, (uint8_t)~cf->data[at]};
                    for (int k = 0; k < 3; k++) {
                        memcpy(b, cf->data, cf->len);
                        b[at] = subs[k];
                        validate_same(f, b, cf->len, &sets[s], cf->path, &accepted, &refused);
                    }
                }
                free(b);
            }
        }
    }
    /* BSON and Resonite have checks; each vector folder holds files they
     * accept, and the cuts and corruptions give plenty they refuse. */
    assert_true(checked_formats >= 2);
    assert_true(accepted >= 10);
    assert_true(refused >= 1000);
    printf("validate agreed with decode on %zu accepted and %zu refused inputs\n", accepted,
           refused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_decoder),
    };
    return cmocka_run_group_tests(tests, test_corpus_setup, test_corpus_teardown);
}
