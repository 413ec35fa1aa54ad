/* Every positive finite float, widened to a double: the text o3_ftoa gives
 * (the float's entry: its short cuts, then o3de_dtoa.c's exact-float path,
 * then Grisu2 for what that path leaves) must be Grisu2's digit-by-digit
 * text (o3_dtoa_grisu) byte for byte. Counts how many the exact-float path
 * wrote. With --all, also o3_dtoa (the double's entry), o3_ftoa of the
 * negative and the exact-float path alone (o3_dtoa_float_digits), which
 * takes about twice as long.
 *
 *   o3de-ftoa-exhaustive [--all] [FIRST LAST]
 *       FIRST LAST: float bit patterns in hex; default every one from 0 to
 *       0x7f7fffff (give halves of the range to two processes to use two
 *       cores)
 *
 * A non-default target (cmake --build BUILD --target o3de-ftoa-exhaustive):
 * it takes minutes. Exit status 0 when every text matched. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/o3de/o3de_internal.h"

static uint64_t wrong;

static void differ(uint32_t u, const char *what, const char *got, size_t ngot, const char *want,
                   size_t nwant)
{
    if (wrong++ < 20) {
        float f;
        memcpy(&f, &u, sizeof f);
        printf("0x%08" PRIx32 " (%.9g): %s '%.*s', Grisu2 '%.*s'\n", u, (double)f, what, (int)ngot,
               got, (int)nwant, want);
    }
}

int main(int argc, char **argv)
{
    bool all = argc > 1 && strcmp(argv[1], "--all") == 0;
    int rest = argc - (all ? 2 : 1);
    uint32_t first = 0, last = 0x7f7fffff;
    if (rest == 2) {
        first = (uint32_t)strtoul(argv[argc - 2], NULL, 16);
        last = (uint32_t)strtoul(argv[argc - 1], NULL, 16);
    } else if (rest != 0) {
        fprintf(stderr, "usage: %s [--all] [FIRST LAST]\n", argv[0]);
        return 2;
    }
    if (last > 0x7f7fffff) last = 0x7f7fffff;
    uint64_t checked = 0, by_path = 0;
    for (uint64_t bits = first; bits <= last; bits++) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, sizeof f);
        char got[40], want[40];
        checked++;
        if (u == 0) { /* zero is written before Grisu2 (which does not take it) */
            size_t n = o3_ftoa(f, got);
            if (n != 3 || memcmp(got, "0.0", 3) != 0) differ(u, "o3_ftoa", got, n, "0.0", 3);
            n = o3_ftoa(-f, got);
            if (n != 4 || memcmp(got, "-0.0", 4) != 0) differ(u, "o3_ftoa(-f)", got, n, "-0.0", 4);
            continue;
        }
        size_t nw = o3_dtoa_grisu((double)f, want);
        size_t n = o3_ftoa(f, got);
        if (n != nw || memcmp(got, want, nw) != 0) differ(u, "o3_ftoa", got, n, want, nw);
        if (all) {
            n = o3_dtoa((double)f, got);
            if (n != nw || memcmp(got, want, nw) != 0) differ(u, "o3_dtoa", got, n, want, nw);
            n = o3_ftoa(-f, got);
            if (n != nw + 1 || got[0] != '-' || memcmp(got + 1, want, nw) != 0)
                differ(u, "o3_ftoa(-f)", got, n, want, nw);
        }
        n = o3_dtoa_float_digits(f, got);
        if (n) {
            by_path++;
            if (all && (n != nw || memcmp(got, want, nw) != 0))
                differ(u, "exact-float path", got, n, want, nw);
        }
        if ((u & 0x0fffffff) == 0x0fffffff) {
            printf("up to 0x%08" PRIx32 ": %" PRIu64 " checked, %" PRIu64 " wrong\n", u, checked,
                   wrong);
            fflush(stdout);
        }
    }
    printf("floats 0x%08" PRIx32 "..0x%08" PRIx32 ": %" PRIu64 " checked%s, %" PRIu64
           " written by the exact-float path, %" PRIu64 " wrong\n",
           first, last, checked, all ? " (--all)" : "", by_path, wrong);
    return wrong ? 1 : 0;
}
