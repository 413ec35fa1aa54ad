/* Fuzz target for serval's zip reader (src/compress/zip_read.c), which reads
 * .resonitepackage archives (docs/security.md). Decode only: the directory
 * is read, every member is looked up by its name, its first bytes taken and
 * its bytes inflated under a limit, as the Resonite package code does.
 *
 * Properties checked: no crash, no leak (the sanitizers), a member read
 * either fails with an error that names the format or gives exactly the
 * size its directory entry states; looking a member up by its own name
 * finds a member of that name. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress/zip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* What one member may inflate to here: far above the seeds, small enough
 * that a bomb costs little. */
#define FUZZ_MAX_MEMBER (8u << 20)

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz-zip: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    sv_zip z;
    sv_error err;
    sv_error_clear(&err);
    if (sv__compress_zip_open(&z, data, len, NULL, "zip", &err) != SV_OK) {
        check(err.message[0] != 0, "open failed without a message");
        return 0;
    }
    for (size_t i = 0; i < z.count; i++) {
        const sv_zip_entry *e = &z.entries[i];
        size_t found;
        if (sv__compress_zip_find(&z, e->name, &found) == SV_OK) {
            check(found < z.count, "find gave an index past the directory");
            check(strcmp(z.entries[found].name, e->name) == 0, "find gave another name");
        }
        uint8_t head[64];
        size_t got = 0;
        sv_error_clear(&err);
        if (sv__compress_zip_head(&z, i, head, sizeof head, &got, &err) == SV_OK)
            check(got <= sizeof head, "head gave more than asked");
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error_clear(&err);
        sv_status st = sv__compress_zip_read(&z, i, FUZZ_MAX_MEMBER, &out, &err);
        if (st == SV_OK)
            check(out.len == e->usize, "a member read gave another size than its entry states");
        else
            check(err.message[0] != 0, "a member read failed without a message");
        sv_buf_free(&out);
    }
    sv__compress_zip_close(&z);
    return 0;
}
