/* See helper_validate.h. */
#include "helper_validate.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

typedef struct outcome {
    sv_status st;
    sv_error err;
} outcome;

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

void validate_same(const sv_format *f, const uint8_t *data, size_t len, const sv_options *o,
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
size_t validate_option_sets(const sv_format *f, sv_options sets[2])
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
