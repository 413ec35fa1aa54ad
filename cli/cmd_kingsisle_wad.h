/* serval kingsisle wad (internal): options, the open archive, and pack. */
#ifndef SERVAL_CMD_KINGSISLE_WAD_H
#define SERVAL_CMD_KINGSISLE_WAD_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_archive_extract.h"
#include "cli_args.h"
#include "cli_io.h"
#include "serval/kiwad.h"

/* What a member's CRC mismatch is: not looked for, a warning (the member
 * is read all the same), or an error. */
typedef enum wad_crc { WAD_CRC_OFF, WAD_CRC_WARN, WAD_CRC_ERROR } wad_crc;

/* The options of this command that cli_args does not know. */
typedef struct wad_opts {
    bool verify, no_verify, decode;
    long version, flags, level;
    const char *like;
} wad_opts;

/* An archive read whole and opened. */
typedef struct wad {
    cli_input in;
    sv_kiwad *w;
    const char *path;
} wad;

/* Reads and opens the archive at path. A version above 2 is read as
 * version 2 with a warning, or refused (exit 4) when strict. Returns 0 or an
 * exit code after a message. */
int wad_open(const char *path, bool strict, wad *k);
void wad_close(wad *k);

/* Member i's content into b, a CRC mismatch treated as crc says. Returns 0
 * or an exit code after a message. */
int wad_read_member(wad *k, size_t i, const cli_args *a, wad_crc crc, sv_buf *b);

/* Member i as extract and pack --like see it (cli_archive_extract.h): an
 * unpatched member skipped. */
bool wad_member_view(const wad *k, size_t i, cli_archive_member *out);

/* serval kingsisle wad pack DIR -o FILE [--like ORIGINAL]. Returns 0 or an
 * exit code after a message. */
int wad_pack(const cli_args *a, const wad_opts *o);

#endif
