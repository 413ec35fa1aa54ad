/* The regular files under a directory, each read whole, for the commands
 * that pack a directory into an archive (godot pck pack, kingsisle wad
 * pack), and a lookup by name for their --like. */
#ifndef SERVAL_CLI_DIR_CONTENTS_H
#define SERVAL_CLI_DIR_CONTENTS_H

#include <stddef.h>

#include "cli_io.h"

typedef struct cli_dir_contents {
    char **names;     /* relative, '/'-separated, in ascending byte order */
    cli_input *files; /* files[i] holds the content of names[i] */
    size_t count;
} cli_dir_contents;

/* Reads every regular file under dir, at most 64 directories deep (symbolic
 * links are skipped with a warning: cli_dir_files_list). Returns 0 or an
 * exit code after a message; out is then empty. */
int cli_dir_contents_read(const char *dir, cli_dir_contents *out);
void cli_dir_contents_free(cli_dir_contents *c);

/* The index of the file named name (a binary search of the sorted names),
 * or SIZE_MAX. */
size_t cli_dir_contents_find(const cli_dir_contents *c, const char *name);

#endif
