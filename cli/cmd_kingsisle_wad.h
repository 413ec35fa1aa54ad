/* serval kingsisle wad: the directory side of pack (internal). */
#ifndef SERVAL_CMD_KINGSISLE_WAD_H
#define SERVAL_CMD_KINGSISLE_WAD_H

#include <stddef.h>

#include "cli_args.h"
#include "cli_io.h"
#include "serval/kiwad.h"

/* The regular files under a directory, names relative and '/'-separated,
 * in ascending byte order, each read whole. */
typedef struct wad_files {
    char **names;
    cli_input *files;
    size_t count, cap;
} wad_files;

/* Reads every regular file under dir (symbolic links are skipped with a
 * warning). Returns 0 or an exit code after a message; fl is then empty. */
int wad_walk(const char *dir, wad_files *fl);
void wad_files_free(wad_files *fl);

/* Rewrites the archive orig (read from orig_path) with the files of fl:
 * members whose file has the same content keep their stored bytes, others
 * are recompressed as before, new files are added. Returns 0 or an exit
 * code after a message. */
int wad_like(const sv_kiwad *orig, const char *orig_path, const wad_files *fl, const cli_args *a,
             int level, sv_buf *out);

#endif
