/* Shared helpers of the BSON and Resonite tests: files relative to tests/,
 * the shared samples (skipped with a message when absent). */
#ifndef SV_TEST_HELPER_RESONITE_H
#define SV_TEST_HELPER_RESONITE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRSON_DIR "../../shared/samples/brson/"
#define PACKAGE_DIR "../../shared/samples/resonitepackage/"

/* The whole file, malloc'd (exactly len bytes, so ASan sees overreads);
 * NULL when it cannot be read. */
static inline uint8_t *rs_read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long n = ftell(f);
    rewind(f);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    if (!d || fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return d;
}

/* An exact-size copy of bytes. */
static inline uint8_t *rs_copy(const void *p, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (d && n) memcpy(d, p, n);
    return d;
}

/* n text-like bytes that compress well but not trivially (a fixed
 * xorshift over the words of a Resonite tree), malloc'd. */
static inline uint8_t *rs_text_bytes(size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (uint8_t)("Slot Component ID Data "[x % 23]);
    }
    return b;
}

#endif
