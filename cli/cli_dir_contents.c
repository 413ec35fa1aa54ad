/* The regular files under a directory, read whole (cli_dir_contents.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_diag.h"
#include "cli_dir_contents.h"
#include "cli_dir_files.h"

int cli_dir_contents_read(const char *dir, cli_dir_contents *out)
{
    memset(out, 0, sizeof *out);
    cli_dir_files l;
    int rc = cli_dir_files_list(dir, 64, false, &l);
    if (rc) return rc;
    out->names = l.names;
    out->count = l.count;
    out->files = calloc(out->count ? out->count : 1, sizeof *out->files);
    if (!out->files) rc = cli_exit_code(SV_ERR_NOMEM);
    for (size_t i = 0; !rc && i < out->count; i++) {
        char full[8200];
        snprintf(full, sizeof full, "%s/%s", dir, out->names[i]);
        sv_status st = cli_read_input(full, &out->files[i]);
        if (st != SV_OK) rc = cli_exit_code(st);
    }
    if (rc) cli_dir_contents_free(out);
    return rc;
}

void cli_dir_contents_free(cli_dir_contents *c)
{
    for (size_t i = 0; i < c->count; i++) {
        if (c->files) cli_input_free(&c->files[i]);
        free(c->names[i]);
    }
    free(c->files);
    free(c->names);
    memset(c, 0, sizeof *c);
}

size_t cli_dir_contents_find(const cli_dir_contents *c, const char *name)
{
    size_t lo = 0, hi = c->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(c->names[mid], name);
        if (cmp == 0) return mid;
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}
