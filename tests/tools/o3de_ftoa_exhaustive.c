/* Every positive finite float, widened to a double, printed through
 * o3de_dtoa.c's exact-float path and through Grisu2 digit by digit
 * (o3_dtoa_grisu): the two texts must be the same byte for byte. Also
 * checks o3_dtoa (the double's entry) and o3_ftoa (the float's), their
 * short cuts included, against Grisu2 for the same number, o3_ftoa for its
 * negative too, and counts the floats the exact-float path leaves to
 * Grisu2.
 *
 *   o3de-ftoa-exhaustive [FIRST LAST]   (float bit patterns, hex; default
 *                                        every one from 0 to 0x7f7fffff)
 *
 * A non-default target (cmake --build BUILD --target o3de-ftoa-exhaustive):
 * it takes minutes. Exit status 0 when every text matched. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/o3de/o3de_internal.h"

int main(int argc, char **argv)
{
    uint32_t first = 0, last = 0x7f7fffff;
    if (argc == 3) {
        first = (uint32_t)strtoul(argv[1], NULL, 16);
        last = (uint32_t)strtoul(argv[2], NULL, 16);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [FIRST LAST]\n", argv[0]);
        return 2;
    }
    if (last > 0x7f7fffff) last = 0x7f7fffff;
    uint64_t checked = 0, decided = 0, left = 0, wrong = 0;
    for (uint64_t bits = first; bits <= last; bits++) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, sizeof f);
        char fast[40], slow[40], whole[40];
        size_t nw = o3_dtoa((double)f, whole);
        if (u == 0) { /* zero is written before Grisu2 (which does not take it) */
            char z[40], nz[40];
            size_t n0 = o3_ftoa(0.0f, z), n1 = o3_ftoa(-0.0f, nz);
            if (nw != 3 || memcmp(whole, "0.0", 3) != 0 || n0 != 3 || memcmp(z, "0.0", 3) != 0 ||
                n1 != 4 || memcmp(nz, "-0.0", 4) != 0)
                wrong++;
            checked++;
            continue;
        }
        size_t ns = o3_dtoa_grisu((double)f, slow);
        size_t nf = o3_dtoa_float_digits(f, fast);
        if (nf) {
            decided++;
            if (nf != ns || memcmp(fast, slow, ns) != 0) {
                if (wrong < 20)
                    printf("0x%08" PRIx32 " (%.9g): exact-float path '%.*s', Grisu2 '%.*s'\n", u,
                           (double)f, (int)nf, fast, (int)ns, slow);
                wrong++;
            }
        } else if ((u >> 23) != 0) {
            left++;
        }
        char viaf[40], neg[40];
        size_t nv = o3_ftoa(f, viaf), nn = o3_ftoa(-f, neg);
        if (nv != ns || memcmp(viaf, slow, ns) != 0 || nn != ns + 1 || neg[0] != '-' ||
            memcmp(neg + 1, slow, ns) != 0) {
            if (wrong < 20)
                printf("0x%08" PRIx32 " (%.9g): o3_ftoa '%.*s' and '%.*s', Grisu2 '%.*s'\n", u,
                       (double)f, (int)nv, viaf, (int)nn, neg, (int)ns, slow);
            wrong++;
        }
        if (nw != ns || memcmp(whole, slow, ns) != 0) {
            if (wrong < 20)
                printf("0x%08" PRIx32 " (%.9g): o3_dtoa '%.*s', Grisu2 '%.*s'\n", u, (double)f,
                       (int)nw, whole, (int)ns, slow);
            wrong++;
        }
        checked++;
        if ((u & 0x0fffffff) == 0x0fffffff) {
            printf("up to 0x%08" PRIx32 ": %" PRIu64 " checked, %" PRIu64 " wrong\n", u, checked,
                   wrong);
            fflush(stdout);
        }
    }
    printf("floats 0x%08" PRIx32 "..0x%08" PRIx32 ": %" PRIu64 " checked, %" PRIu64
           " by the exact-float path, %" PRIu64 " normal ones left to Grisu2, %" PRIu64 " wrong\n",
           first, last, checked, decided, left, wrong);
    return wrong ? 1 : 0;
}
