/* serval kingsisle wad: pack --like (internal). */
#ifndef SERVAL_CMD_KINGSISLE_WAD_H
#define SERVAL_CMD_KINGSISLE_WAD_H

#include <stddef.h>

#include "cli_args.h"
#include "cli_dir_contents.h"
#include "cli_io.h"
#include "serval/kiwad.h"

/* Rewrites the archive orig (read from orig_path) with the files of fl:
 * members whose file has the same content keep their stored bytes, others
 * are recompressed as before, new files are added. Returns 0 or an exit
 * code after a message. */
int wad_like(const sv_kiwad *orig, const char *orig_path, const cli_dir_contents *fl,
             const cli_args *a, int level, sv_buf *out);

#endif
