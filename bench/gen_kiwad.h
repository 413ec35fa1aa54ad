/* serval-bench: the generated KIWAD archive of the kiwad workloads. */
#ifndef SERVAL_BENCH_GEN_KIWAD_H
#define SERVAL_BENCH_GEN_KIWAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <serval/buf.h>

#define KIWAD_MEMBERS 10000

typedef struct bench_kiwad {
    sv_buf archive;    /* the .wad's bytes (archive.data, archive.len) */
    uint8_t *content;  /* every member's content, back to back, table order */
    size_t content_len;
    size_t count;
} bench_kiwad;

/* An archive of KIWAD_MEMBERS members of about target bytes, the same on
 * every run and machine. false: msg says why. */
bool bench_gen_kiwad(size_t target, bench_kiwad *k, char *msg, size_t msg_size);
void bench_kiwad_free(bench_kiwad *k);

#endif
