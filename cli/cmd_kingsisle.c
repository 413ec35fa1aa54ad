/* serval kingsisle: KingsIsle ObjectProperty tools.
 *   serval kingsisle hash NAME...   the two hashes of each name
 *   serval kingsisle types FILE...  what type lists hold (merged, last wins)
 *   serval kingsisle wad ...        KIWAD archives (cmd_kingsisle_wad.c) */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "serval/kingsisle.h"

/* clang-format off */
static const char help[] =
    "usage: serval kingsisle hash NAME...\n"
    "       serval kingsisle types [OPTIONS] FILE...\n"
    "       serval kingsisle wad list|cat|extract|pack ...\n"
    "\n"
    "KingsIsle ObjectProperty (Wizard101, Pirate101) tools.\n"
    "\n"
    "  hash   prints, for each NAME, its string_id (the type tag of a class\n"
    "         name such as 'class Foo') and its djb2 (the name part of a\n"
    "         property hash, which adds string_id of the property's type)\n"
    "  types  reads type lists (wiztype JSON v1 or v2, class-list XML),\n"
    "         merges them (a class in a later file replaces one of the same\n"
    "         hash) and prints each class: hash, name, property count; with\n"
    "         --properties also each property: id, name, type, hash, flags\n"
    "  wad    KIWAD archives (.wad): 'serval kingsisle wad --help'\n"
    "\n"
    "To decode data with a type list: serval dump --from kingsisle\n"
    "--schema TYPES.json -O shallow=true -O flags=1 -O property_mask=7 FILE\n"
    "(see 'serval formats' for the kingsisle options).\n"
    "\n"
    "Options:\n"
    "  --properties        types: list every property too\n"
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

static int do_hash(int argc, char **argv)
{
    if (argc < 1) {
        cli_usage_error("kingsisle hash", "needs at least one NAME");
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]);
        printf("%s: string_id %u, djb2 %u\n", argv[i], sv_kingsisle_string_id(argv[i], n),
               sv_kingsisle_djb2(argv[i], n));
    }
    return 0;
}

static int do_types(int argc, char **argv)
{
    bool props = false;
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--properties"))
            props = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("kingsisle types", "unknown option '%s'", argv[i]), 2;
        else
            nfiles++;
    }
    if (!nfiles) {
        cli_usage_error("kingsisle types", "needs at least one FILE");
        return 2;
    }
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    if (!t) {
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        if (!strcmp(argv[i], "--properties")) continue;
        cli_input in;
        sv_status st = cli_read_input(argv[i], &in);
        if (st != SV_OK) {
            rc = cli_exit_code(st);
            break;
        }
        const char *kind;
        const char *name = cli_display_name(argv[i]);
        sv_kingsisle_types_probe(in.data, in.len, &kind);
        size_t before = sv_kingsisle_types_class_count(t);
        sv_error err;
        sv_error_clear(&err);
        if (sv_kingsisle_types_add(t, in.data, in.len, name, &err) != SV_OK) {
            cli_report(name, &err);
            rc = cli_exit_code(err.status);
        } else {
            size_t added = sv_kingsisle_types_class_count(t) - before;
            printf("%s: %s, %zu class%s added\n", name, kind, added, added == 1 ? "" : "es");
        }
        cli_input_free(&in);
    }
    if (!rc) {
        size_t nc = sv_kingsisle_types_class_count(t), np = 0;
        sv_kingsisle_class_info c;
        for (size_t i = 0; sv_kingsisle_types_class_at(t, i, &c); i++) np += c.nprops;
        printf("%zu class%s, %zu propert%s\n", nc, nc == 1 ? "" : "es", np, np == 1 ? "y" : "ies");
        for (size_t i = 0; sv_kingsisle_types_class_at(t, i, &c); i++) {
            printf("%10u  %s  (%u propert%s)\n", c.hash, c.name, c.nprops,
                   c.nprops == 1 ? "y" : "ies");
            sv_kingsisle_prop_info p;
            for (size_t j = 0; props && sv_kingsisle_types_prop_at(t, i, j, &p); j++) {
                printf("    %3u  %s: %s%s  hash %u  flags 0x%x", p.id, p.name, p.type,
                       p.dynamic ? " (list)" : "", p.hash, p.flags);
                if (p.nenum) printf("  %u options", p.nenum);
                printf("\n");
            }
        }
    }
    sv_kingsisle_types_free(t);
    return rc;
}

int cmd_kingsisle(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "wad")) return cmd_kingsisle_wad(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(help, stdout);
        return 0;
    }
    if (argc < 2) {
        cli_usage_error("kingsisle", "missing subcommand (hash, types or wad)");
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            return 0;
        }
    if (!strcmp(argv[1], "hash")) return do_hash(argc - 2, argv + 2);
    if (!strcmp(argv[1], "types")) return do_types(argc - 2, argv + 2);
    cli_usage_error("kingsisle", "unknown subcommand '%s' (hash, types or wad)", argv[1]);
    return 2;
}
