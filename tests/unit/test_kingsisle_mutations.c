/* KingsIsle with a type list on damaged input: every fixture (with its
 * config and the fixture type list) cut at every length and with every bit
 * flipped. Each run must either fail with a message or succeed; a success
 * must encode, and the encoding must decode to the same tree (the fuzz
 * targets check the same property without a type list). Under the sanitizer
 * build, ASan and UBSan watch every run. */
#include "test_kingsisle_util.h"

static const char *const fixtures[] = {
    "all-scalars-deep",    "all-scalars-shallow",  "binary-string",      "bit-integers-deep",
    "bit-integers-shallow", "bitflags-combined",   "bitflags-empty-string", "bitflags-int",
    "bitflags-string",     "deep-size-boundary",   "delta-encode-absent", "delta-encode-present",
    "deprecated-deep",     "deprecated-shallow",   "empty-string-no-realign", "ends-with-bits-deep",
    "ends-with-bits-shallow", "list-compact",      "list-simple",        "nested-lists",
    "nested-object",       "property-mask",        "scoped-enum-int",    "scoped-enum-string",
    "strings-compact",     "strings-deep",         "strings-shallow",    "with-compression",
};

static long ok_runs, failed_runs;

static void run_one(const uint8_t *data, size_t len, const sv_kingsisle_opts *o, const char *what)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kingsisle_decode(doc, data, len, o, &v, &err) != SV_OK) {
        if (!err.message[0]) fail_msg("%s: a failure without a message", what);
        failed_runs++;
        sv_doc_free(doc);
        return;
    }
    ok_runs++;
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (sv_kingsisle_encode(&v, o, &out, &err) != SV_OK)
        fail_msg("%s: decodes but does not encode: %s", what, err.message);
    sv_value w;
    if (sv_kingsisle_decode(doc, out.data, out.len, o, &w, &err) != SV_OK)
        fail_msg("%s: its encoding does not decode: %s", what, err.message);
    if (!sv_equal(&v, &w)) fail_msg("%s: its encoding decodes to another tree", what);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

static void test_mutations(void **state)
{
    (void)state;
    if (!kt_present()) return;
    sv_kingsisle_types *t = kt_types("types.json");
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char file[128], what[256];
        snprintf(file, sizeof file, "%s.bin", fixtures[i]);
        size_t len;
        uint8_t *bytes = kt_sample(file, &len);
        sv_kingsisle_opts o;
        kt_config(fixtures[i], &o);
        o.types = t;
        o.limits.max_decompressed = 1u << 20;
        uint8_t *copy = malloc(len);
        for (size_t n = 0; n < len; n++) {
            snprintf(what, sizeof what, "%s cut to %zu bytes", fixtures[i], n);
            memcpy(copy, bytes, n);
            run_one(copy, n, &o, what);
        }
        for (size_t bit = 0; bit < len * 8; bit++) {
            memcpy(copy, bytes, len);
            copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            snprintf(what, sizeof what, "%s with bit %zu flipped", fixtures[i], bit);
            run_one(copy, len, &o, what);
        }
        free(copy);
        free(bytes);
    }
    printf("mutations: %ld decoded (and round-tripped), %ld refused with a message\n", ok_runs,
           failed_runs);
    sv_kingsisle_types_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_mutations)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
