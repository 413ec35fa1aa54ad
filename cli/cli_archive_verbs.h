/* The verbs of the archive commands (godot pck, kingsisle wad): list, cat,
 * extract and pack, with the options each takes and the operands each
 * needs, so that every archive command reads its verb and checks its
 * operands with the same words. */
#ifndef SERVAL_CLI_ARCHIVE_VERBS_H
#define SERVAL_CLI_ARCHIVE_VERBS_H

#include <stdbool.h>

#include "cli_args.h"

typedef enum cli_archive_verb {
    CLI_ARCHIVE_LIST,
    CLI_ARCHIVE_CAT,
    CLI_ARCHIVE_EXTRACT,
    CLI_ARCHIVE_PACK,
} cli_archive_verb;

/* The verb called name into *verb, and the cli_args options every archive
 * command takes with it into *accepted; false after a usage error naming
 * command when name is none of the four. */
bool cli_archive_verb_parse(const char *command, const char *name, cli_archive_verb *verb,
                            unsigned *accepted);

/* Whether a holds the operands verb needs (list FILE, cat FILE MEMBER,
 * extract FILE -o DIR [PATTERN...], pack DIR -o FILE); false after a usage
 * error naming cmd. */
bool cli_archive_operands_ok(const char *cmd, cli_archive_verb verb, const cli_args *a);

#endif
