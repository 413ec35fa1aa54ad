/* The regular files under a directory, for the commands that pack a
 * directory into an archive (resonite package pack, kingsisle wad pack). */
#ifndef SERVAL_CLI_DIR_FILES_H
#define SERVAL_CLI_DIR_FILES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cli_dir_files {
    char **names; /* relative to the directory, '/'-separated, ascending bytes */
    size_t count, cap;
} cli_dir_files;

/* Lists every regular file under dir, at most max_depth directories deep.
 * follow_links: a symbolic link counts as what it points to; otherwise it is
 * skipped with a warning. Returns 0 or an exit code after a message; out is
 * then empty. */
int cli_dir_files_list(const char *dir, int max_depth, bool follow_links, cli_dir_files *out);
void cli_dir_files_free(cli_dir_files *l);

/* For archive extraction: creates the directories of rel (all but its last
 * part) under dir, refusing to go through anything that is not a real
 * directory (a symbolic link already in dir, a file). rel must already be a
 * checked relative path. Returns 0 or an exit code after a message. */
int cli_make_parents(const char *dir, const char *rel);

#endif
