/* serval: the command-line tool. Finds the subcommand and runs it; each
 * subcommand lives in its own cmd_<name>.c. A format's own subcommands are
 * there only when the library was built with that format (the manifest). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "serval/serval.h"
#include "serval/version.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static int cmd_version(int argc, char **argv);

/* The commands of every format, then the formats' own (a format's
 * subcommand, from the manifest src/formats/formats.def: cli_commands.inc is
 * generated for the formats built). */
#define SERVAL_COMMAND(name, fn, summary) int fn(int argc, char **argv);
#include "cli_commands.inc"
#undef SERVAL_COMMAND

static const command commands[] = {
    {"formats", cmd_formats, "list the formats serval reads and writes"},
    {"detect", cmd_detect, "tell the format of each file"},
    {"dump", cmd_dump, "print a file as typed JSON"},
    {"conv", cmd_conv, "convert a file from one format to another"},
    {"validate", cmd_validate, "check that files decode"},
    {"schema", cmd_schema, "check schema files, show their classes"},
#define SERVAL_COMMAND(name, fn, summary) {name, fn, summary},
#include "cli_commands.inc"
#undef SERVAL_COMMAND
    {"version", cmd_version, "print the versions of serval and its libraries"},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* serval version, serval --version: the command's version first (scripts
 * read the first line), then the library's build and the libraries it uses,
 * as they report their versions at run time. */
static int cmd_version(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs("usage: serval version\n\nPrints the version of serval, how the library was "
              "built, and the\nversions of the compression libraries it runs with.\n",
              stdout);
        return 0;
    }
    if (argc > 1) {
        cli_usage_error("version", "takes no arguments");
        return 2;
    }
    char deps[256];
    sv_dependency_versions(deps, sizeof deps);
    printf("serval %s\n", SERVAL_VERSION_STRING);
    printf("library: libserval %s (%s)\n", sv_version(), sv_build_info());
    if (deps[0]) printf("uses: %s\n", deps);
    return 0;
}

static void print_help(void)
{
    fputs("usage: serval COMMAND [OPTIONS] [FILE...]\n"
          "\n"
          "Reads and writes game-engine serialization formats through one value\n"
          "tree and one lossless typed JSON.\n"
          "\n"
          "Commands:\n",
          stdout);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        printf("  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "Options:\n"
          "  -h, --help  show this help ('serval COMMAND --help': a command's)\n"
          "  --version   print the versions (as 'serval version')\n"
          "  --schema FILE\n"
          "              load a schema for the formats that need one (classes,\n"
          "              fields, enums); repeatable, the files are merged. Goes\n"
          "              before or after the command\n"
          "\n"
          "No FILE, or '-', is standard input. Data goes to standard output,\n"
          "messages to standard error. The manual: 'man serval'; the typed JSON\n"
          "and each format: json.md and formats/ in share/doc/serval.\n"
          "\n" CLI_HELP_EXIT,
          stdout);
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* Output that could not be written is an I/O error even when all else went
 * well (serval formats > /dev/full). */
static int finish(int rc)
{
    int e = 0;
    if (fflush(stdout) != 0)
        e = errno;
    else if (ferror(stdout))
        e = EIO;
    if (!e) return rc;
    cli_error("<stdout>: %s", strerror(e));
    return rc ? rc : 3;
}

static int run(int argc, char **argv);

/* "serval --schema A --schema=B dump F" runs as "serval dump --schema A
 * --schema=B F": the global option goes to the command, which loads it. */
static int run_with_schema_first(int argc, char **argv)
{
    int k = 1; /* argv[1..k) are the leading --schema options */
    while (k < argc && (strcmp(argv[k], "--schema") == 0 || strncmp(argv[k], "--schema=", 9) == 0))
        k += strcmp(argv[k], "--schema") == 0 ? 2 : 1;
    if (k >= argc) {
        if (k > argc)
            cli_usage_error(NULL, "option '--schema' needs a value");
        else
            cli_usage_error(NULL, "missing command after '--schema'");
        return 2;
    }
    if (argv[k][0] == '-') {
        cli_usage_error(NULL, "missing command after '--schema'");
        return 2;
    }
    char **moved = malloc((size_t)(argc + 1) * sizeof *moved);
    if (!moved) {
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    int n = 0;
    moved[n++] = argv[0];
    moved[n++] = argv[k];
    for (int i = 1; i < k; i++) moved[n++] = argv[i];
    for (int i = k + 1; i < argc; i++) moved[n++] = argv[i];
    moved[n] = NULL;
    int rc = run(argc, moved);
    free(moved);
    return rc;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        char names[256];
        size_t used = 0;
        for (size_t i = 0; i < COMMAND_COUNT && used < sizeof names; i++) {
            int n = snprintf(names + used, sizeof names - used, "%s%s",
                             i == 0                   ? ""
                             : i + 1 == COMMAND_COUNT ? " or "
                                                      : ", ",
                             commands[i].name);
            if (n < 0) break;
            used += (size_t)n;
        }
        cli_usage_error(NULL, "missing command (%s)", names);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_help();
        return 0;
    }
    if (strcmp(name, "--version") == 0) return cmd_version(argc - 1, argv + 1);
    if (strcmp(name, "help") == 0) {
        /* "serval help dump" is "serval dump --help". */
        if (argc < 3) {
            print_help();
            return 0;
        }
        const command *c = find_command(argv[2]);
        if (!c) {
            cli_usage_error(NULL, "unknown command '%s'", argv[2]);
            return 2;
        }
        char help_flag[] = "--help";
        char *sub_argv[] = {argv[2], help_flag, NULL};
        return c->run(2, sub_argv);
    }
    const command *c = find_command(name);
    if (c) return c->run(argc - 1, argv + 1);
    if (strcmp(name, "--schema") == 0 || strncmp(name, "--schema=", 9) == 0)
        return run_with_schema_first(argc, argv);
    if (name[0] == '-')
        cli_usage_error(NULL, "unknown option '%s'", name);
    else
        cli_usage_error(NULL, "unknown command '%s'", name);
    return 2;
}

int main(int argc, char **argv)
{
    cli_io_init();
    return finish(run(argc, argv));
}
