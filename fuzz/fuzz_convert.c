/* The libFuzzer target of conversions (fuzz/CMakeLists.txt builds it as the
 * "convert" entry). The input is read as typed JSON, the form that can hold
 * any tree, and handed to every target format that sv_convert_knows:
 *
 *   SV_FUZZ_ROUNDTRIP  0: sv_convert_check and sv_convert_lower (not lossy)
 *                      agree, and the encoder finds no value without a
 *                      form in a tree they pass (they promise the target
 *                      writes it exactly).
 *                      1: nor in a tree sv_convert_lower makes in lossy
 *                      mode, which must pass sv_convert_check in turn.
 *
 * Besides, neither call may crash, leak or report an error without a
 * message. A broken property aborts, which libFuzzer and the replay driver
 * report as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/serval.h"

#ifndef SV_FUZZ_ROUNDTRIP
#define SV_FUZZ_ROUNDTRIP 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void fail(const char *target, const char *what, const sv_error *err)
{
    char msg[512];
    if (err)
        sv_error_format(err, msg, sizeof msg);
    else
        msg[0] = '\0';
    fprintf(stderr, "fuzz convert to %s: %s%s%s\n", target, what, err ? ": " : "", msg);
    abort();
}

/* An encoder may still refuse a tree for its size or depth, or a tagged
 * value of the wrong shape (a $signal that is not [name, id]: bad data, not
 * a value without a form), but never say it has no form for a value the
 * check let through. */
static void encode_or_die(const sv_format *f, const sv_value *v, const char *what)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_options o;
    sv_options_init(&o);
    o.limits.max_alloc = UINT64_C(64) << 20;
    sv_status st = f->encode(v, &o, &b, &err);
    if (st == SV_ERR_UNSUPPORTED || (st != SV_OK && err.message[0] == '\0'))
        fail(f->name, what, &err);
    sv_buf_free(&b);
}

static void one_target(const sv_format *f, const sv_value *tree)
{
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    sv_error err;
    sv_error_clear(&err);
#if SV_FUZZ_ROUNDTRIP
    co.lossy = true;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) abort();
    sv_doc_set_max_alloc(doc, UINT64_C(64) << 20);
    sv_value low;
    sv_status st = sv_convert_lower(doc, f, tree, &co, &low, NULL, &err);
    if (st == SV_OK) {
        encode_or_die(f, &low, "a lossy lowered tree does not encode");
        sv_error e2;
        sv_error_clear(&e2);
        if (sv_convert_check(f, &low, NULL, NULL, &e2) != SV_OK)
            fail(f->name, "a lossy lowered tree does not pass the check", &e2);
    } else if (err.message[0] == '\0') {
        fail(f->name, "an error without a message", NULL);
    }
    sv_doc_free(doc);
#else
    /* Lowering without lossy changes no value: it only moves numbers into a
     * type the target has (float64s that float32 holds, for Godot 3) */
    sv_status st = sv_convert_check(f, tree, &co, NULL, &err);
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) abort();
    sv_doc_set_max_alloc(doc, UINT64_C(64) << 20);
    sv_value low;
    sv_error e2;
    sv_error_clear(&e2);
    sv_status st2 = sv_convert_lower(doc, f, tree, &co, &low, NULL, &e2);
    if ((st == SV_OK) != (st2 == SV_OK) && st2 != SV_ERR_NOMEM && st2 != SV_ERR_LIMIT)
        fail(f->name, "the check and the lowering disagree", st == SV_OK ? &e2 : &err);
    if (st2 == SV_OK)
        encode_or_die(f, &low, "a tree the check passed does not encode");
    else if (err.message[0] == '\0' || e2.message[0] == '\0')
        fail(f->name, "an error without a message", NULL);
    sv_doc_free(doc);
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 0;
    sv_doc_set_max_alloc(doc, UINT64_C(64) << 20);
    sv_value tree;
    sv_error err;
    if (sv_json_decode(doc, (const char *)data, len, NULL, &tree, &err) == SV_OK) {
        static const char *const targets[] = {"godot4", "godot3", "godot-doc", "bson"};
        for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
            const sv_format *f = sv_format_find(targets[i]);
            if (f && f->encode && sv_convert_knows(f)) one_target(f, &tree);
        }
    }
    sv_doc_free(doc);
    return 0;
}
