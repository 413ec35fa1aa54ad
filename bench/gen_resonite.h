/* serval-bench: the Resonite input (bench/gen_resonite.c). */
#ifndef SERVAL_BENCH_GEN_RESONITE_H
#define SERVAL_BENCH_GEN_RESONITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bench_rs_input {
    uint8_t *bson; /* the scaled BSON document (NUL after it) */
    size_t bson_len;
    uint8_t *brson; /* the same as a .brson file: FrDT + Brotli q9/w16 */
    size_t brson_len;
    size_t copies; /* how many times the sample's Object children appear */
    size_t elements;
    double seconds; /* to make both */
    char sample[256];
} bench_rs_input;

/* The largest Resonite sample (ma-coresys, 284 KB of BSON) with its Object
 * children repeated until the BSON is about target bytes. The sample is
 * looked for in $SERVAL_SAMPLES/brson/, ../shared/samples/brson/ and
 * ../../shared/samples/brson/. false with the reason in msg. */
bool bench_gen_resonite(size_t target, bench_rs_input *out, char *msg, size_t msg_size);

#endif
