/* serval godot: the Godot files that are not one Variant stream.
 *
 *   serval godot pck ...     PCK archives (cmd_godot_pck.c) */
#include <stdio.h>
#include <string.h>

#include "cli_cmds.h"
#include "cli_diag.h"

static const char help[] = "usage: serval godot pck list|cat|extract|pack ...\n"
                           "\n"
                           "Godot's container files.\n"
                           "\n"
                           "  pck    PCK archives (.pck, and packs appended to an executable):\n"
                           "         'serval godot pck --help'\n"
                           "\n"
                           "Encrypted files (GDEC) and project.binary (ECFG) are formats of\n"
                           "dump and conv: godot-enc and godot-project ('serval formats').\n"
                           "\n" CLI_HELP_EXIT;

int cmd_godot(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "pck")) return cmd_godot_pck(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(help, stdout);
        return 0;
    }
    if (argc < 2) {
        cli_usage_error("godot", "missing subcommand (pck)");
        return 2;
    }
    cli_usage_error("godot", "unknown subcommand '%s' (pck)", argv[1]);
    return 2;
}
