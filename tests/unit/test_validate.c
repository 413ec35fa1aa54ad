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
#include "serval/serval.h"

/* Truncations and corruptions are tried on files up to this size (every
 * prefix, every byte): the vectors and small samples. */
#define SMALL_FILE 4096u

typedef struct outcome {
    sv_status st;
    sv_error err;
} outcome;

static bool has_validate(const sv_format *f)
{
    return f->struct_size >= offsetof(sv_format, validate) + sizeof f->validate && f->validate;
}

/* Decodes or checks an exact-size copy (so ASan sees any overread). */
static outcome run(const sv_format *f, const uint8_t *data, size_t len, const sv_options *o,
                   bool check)
{
    outcome r;
    sv_error_clear(&r.err);
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len) memcpy(copy, data, len);
    if (check) {
        r.st = f->validate(copy, len, o, &r.err);
    } else {
        sv_doc *doc = sv_doc_new(NULL);
        assert_non_null(doc);
        sv_value v;
        r.st = f->decode(doc, copy, len, o, &v, &r.err);
        sv_doc_free(doc);
    }
    free(copy);
    return r;
}

static void same(const sv_format *f, const uint8_t *data, size_t len, const sv_options *o,
                 const char *what, size_t *accepted, size_t *refused)
{
    outcome d = run(f, data, len, o, false), c = run(f, data, len, o, true);
    if (d.st != c.st)
        fail_msg("%s (%s, %zu bytes): decode says %s (%s), validate %s (%s)", what, f->name, len,
                 sv_status_name(d.st), d.err.message, sv_status_name(c.st), c.err.message);
    if (d.st == SV_OK) {
        (*accepted)++;
        assert_int_equal(c.err.status, SV_OK);
        return;
    }
    (*refused)++;
    const char *df = d.err.format ? d.err.format : "", *cf = c.err.format ? c.err.format : "";
    if (d.err.status != c.err.status || strcmp(df, cf) != 0 ||
        d.err.byte_offset != c.err.byte_offset || d.err.bit_offset != c.err.bit_offset ||
        strcmp(d.err.path, c.err.path) != 0 || strcmp(d.err.message, c.err.message) != 0)
        fail_msg("%s (%s, %zu bytes): decode: %s %s at %llu/%d '%s' %s; validate: %s %s at "
                 "%llu/%d '%s' %s",
                 what, f->name, len, sv_status_name(d.err.status), df,
                 (unsigned long long)d.err.byte_offset, d.err.bit_offset, d.err.path,
                 d.err.message, sv_status_name(c.err.status), cf,
                 (unsigned long long)c.err.byte_offset, c.err.bit_offset, c.err.path,
                 c.err.message);
}

/* The options each format is tried with: none, and for Resonite the
 * second thread too. */
static size_t option_sets(const sv_format *f, sv_options sets[2])
{
    static const char *const names[] = {"threads"}, *const values[] = {"1"};
    sv_options_init(&sets[0]);
    if (strcmp(f->name, "resonite") != 0) return 1;
    sv_options_init(&sets[1]);
    sets[1].names = names;
    sets[1].values = values;
    sets[1].count = 1;
    return 2;
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
        size_t nsets = option_sets(f, sets);
        for (size_t i = 0; i < test_corpus.count; i++) {
            const corpus_file *cf = &test_corpus.files[i];
            for (size_t s = 0; s < nsets; s++) {
                same(f, cf->data, cf->len, &sets[s], cf->path, &accepted, &refused);
                if (cf->len > SMALL_FILE) continue;
                for (size_t n = 0; n < cf->len; n++)
                    same(f, cf->data, n, &sets[s], cf->path, &accepted, &refused);
                uint8_t *b = malloc(cf->len ? cf->len : 1);
                assert_non_null(b);
                for (size_t at = 0; at < cf->len; at++) {
                    const uint8_t subs[3] = {0x00, 0xFF, (uint8_t)~cf->data[at]};
                    for (int k = 0; k < 3; k++) {
                        memcpy(b, cf->data, cf->len);
                        b[at] = subs[k];
                        same(f, b, cf->len, &sets[s], cf->path, &accepted, &refused);
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
