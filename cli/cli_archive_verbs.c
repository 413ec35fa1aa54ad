/* The verbs of the archive commands (cli_archive_verbs.h). */
#include <string.h>

#include "cli_archive_verbs.h"
#include "cli_diag.h"

bool cli_archive_verb_parse(const char *command, const char *name, cli_archive_verb *verb,
                            unsigned *accepted)
{
    static const char *const names[] = {"list", "cat", "extract", "pack"};
    for (unsigned v = 0; v < sizeof names / sizeof names[0]; v++) {
        if (strcmp(name, names[v])) continue;
        *verb = (cli_archive_verb)v;
        *accepted = CLI_OPT_LIMITS;
        if (v == CLI_ARCHIVE_EXTRACT) *accepted |= CLI_OPT_OUTPUT | CLI_OPT_MAX_TOTAL;
        if (v == CLI_ARCHIVE_PACK) *accepted |= CLI_OPT_OUTPUT;
        return true;
    }
    cli_usage_error(command, "unknown action '%s' (list, cat, extract or pack)", name);
    return false;
}

bool cli_archive_operands_ok(const char *cmd, cli_archive_verb verb, const cli_args *a)
{
    const char *need = NULL;
    switch (verb) {
    case CLI_ARCHIVE_LIST:
        if (a->file_count != 1) need = "needs one FILE";
        break;
    case CLI_ARCHIVE_CAT:
        if (a->file_count != 2) need = "needs one FILE and one MEMBER";
        break;
    case CLI_ARCHIVE_EXTRACT:
        if (a->file_count < 1 || !a->output) need = "needs one FILE and -o DIR";
        break;
    case CLI_ARCHIVE_PACK:
        if (a->file_count != 1 || !a->output) need = "needs one DIR and -o FILE";
        break;
    }
    if (need) cli_usage_error(cmd, "%s", need);
    return !need;
}
