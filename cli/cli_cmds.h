/* The subcommands of serval, one file each. Each gets the arguments from its
 * own name on (argv[0] is "dump", ...) and returns the process exit code:
 * 0 ok, 1 bad data, 2 usage, 3 I/O, 4 unsupported. */
#ifndef SERVAL_CLI_CMDS_H
#define SERVAL_CLI_CMDS_H

int cmd_formats(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_conv(int argc, char **argv);
int cmd_validate(int argc, char **argv);
/* The commands of one format, built with it (serval/config.h). */
int cmd_noesis(int argc, char **argv);
int cmd_resonite(int argc, char **argv);
int cmd_o3de(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_kingsisle(int argc, char **argv);
int cmd_kingsisle_wad(int argc, char **argv); /* argv[0]: "wad" */
int cmd_godot(int argc, char **argv);
int cmd_godot_pck(int argc, char **argv); /* argv[0]: "pck" */

/* The line every help text ends with. */
#define CLI_HELP_EXIT                                                                              \
    "Exit status: 0 ok, 1 bad data, 2 usage error, 3 I/O error, 4 unsupported format.\n"

/* The help lines of the options several commands share. */
#define CLI_HELP_FROM "  --from FMT          read as format FMT (default: detect it)\n"
#define CLI_HELP_INPUT_OPTION                                                                      \
    "  -I NAME[=VALUE]     an option of the input's format, repeatable (see\n"                     \
    "                      'serval formats'): -I framing=prefixed, ...\n"
#define CLI_HELP_LIMITS                                                                            \
    "  --max-depth N       fail on nesting deeper than N (default 1024, at\n"                      \
    "                      most 2048)\n"                                                           \
    "  --max-alloc SIZE    fail when a document needs more than SIZE bytes\n"                      \
    "                      (suffix k, m, g or t; default 4g)\n"                                    \
    "  --max-string SIZE   fail on a string or byte string longer than SIZE\n"                     \
    "                      (default 256m)\n"                                                       \
    "  --max-decompressed SIZE\n"                                                                  \
    "                      fail when a compressed payload inflates past SIZE\n"                    \
    "                      (default 1g)\n"                                                         \
    "  --max-input SIZE    fail on an input (file, pipe, device) larger than\n"                    \
    "                      SIZE (default: the larger of 4g and --max-alloc)\n"
#define CLI_HELP_BATCH                                                                             \
    "  -r, --recursive     FILEs that are directories: every file under them\n"                    \
    "  -j, --jobs N        N files at a time (default: the number of cores)\n"                     \
    "  -T, --threads N     Resonite: 1 (default) decompresses on a second\n"                       \
    "                      thread, 0 on this one\n"                                                \
    "  -q, --quiet         only errors; no progress line\n"                                        \
    "  -v, --verbose       say which file goes where\n"                                            \
    "  --[no-]progress     the progress line of long batches (default: only\n"                     \
    "                      when standard error is a terminal)\n"
#define CLI_HELP_OUTPUT_DIR                                                                        \
    "  --output-dir DIR    one output per FILE under DIR (same relative path)\n"
#define CLI_HELP_HELP "  -h, --help          show this help\n"

#endif
