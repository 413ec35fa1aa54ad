/* serval godot pck (internal): options, the open pack, and pack. */
#ifndef SERVAL_CMD_GODOT_PCK_H
#define SERVAL_CMD_GODOT_PCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_archive_extract.h"
#include "cli_args.h"
#include "cli_io.h"
#include "serval/godot_pck.h"

/* The options of this command that cli_args does not know. */
typedef struct pck_opts {
    bool no_verify;
    bool have_key;
    uint8_t key[32];
    long format_version; /* 0: not given */
    const char *godot;   /* --godot X.Y.Z as given */
    uint32_t major, minor, patch;
    long alignment; /* -1: not given */
    const char *like;
} pck_opts;

typedef struct pck_handle {
    cli_input in;
    sv_godot_pck *p;
    const char *path;
} pck_handle;

/* Takes the command's own options out of argv (into o), leaving the rest
 * for cli_args_parse. Returns 0 or 2 after a message. */
int pck_take_options(const char *cmd, int *argc, char **argv, pck_opts *o);

/* Reads and opens the pack at path (with o's key). Returns 0 or an exit
 * code after a message. */
int pck_open(const char *path, const pck_opts *o, pck_handle *k);
void pck_close(pck_handle *k);

/* Member i's content into b, its MD5 checked when verify. Returns 0 or an
 * exit code after a message. */
int pck_read_member(pck_handle *k, size_t i, const cli_args *a, bool verify, sv_buf *b);

/* Member i as extract and pack --like see it (cli_archive_extract.h):
 * name without "res://", a removal entry skipped. */
bool pck_member_view(const pck_handle *k, size_t i, cli_archive_member *out);

/* serval godot pck pack DIR -o FILE (--format-version N --godot X.Y.Z, or
 * --like ORIGINAL). Returns 0 or an exit code after a message. */
int pck_pack(const cli_args *a, const pck_opts *o);

#endif
