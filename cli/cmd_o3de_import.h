/* How serval o3de reads the files "$import" names: regular files only,
 * each named by its device and inode so the library loads it once, their
 * bytes counted against the allocation limit. */
#ifndef SERVAL_CMD_O3DE_IMPORT_H
#define SERVAL_CMD_O3DE_IMPORT_H

#include <stdint.h>

#include "cli_args.h"
#include "serval/o3de.h"

typedef struct o3_importer {
    const cli_args *args;
    sv_doc *doc;   /* where the imported documents go */
    uint64_t used; /* bytes read so far: the input, then every imported file */
} o3_importer;

/* Starts counting with the input's own length. */
void o3_importer_init(o3_importer *im, const cli_args *a, sv_doc *doc, uint64_t input_len);

/* The sv_o3de_import_opts callbacks; ctx is an o3_importer. */
sv_status o3_import_identify(void *ctx, const char *path, char *key, size_t size, sv_error *err);
sv_status o3_import_load(void *ctx, const char *path, sv_doc *doc, sv_value *out, sv_error *err);

#endif
