/* serval noesis: NoesisGUI NSDH tools. "serval noesis info FILE..." prints
 * the header, each chunk's classes with their versions and instance counts,
 * and whether metadata describes the data (docs/formats/noesis.md). */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "serval/noesis.h"

/* clang-format off */
static const char help[] =
    "usage: serval noesis info [OPTIONS] [FILE...]\n"
    "\n"
    "Prints what each NSDH FILE (NoesisGUI 1.x, .nsb; none, or '-': standard\n"
    "input) holds: the header (byte order, version, string width), and per\n"
    "chunk the classes of the component list with their versions and\n"
    "instance counts, the instance count, the root instance, and whether\n"
    "metadata describes the data section (then it is checked that the\n"
    "commands consume every data byte).\n"
    "\n"
    "Options:\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

static void print_text(const sv_value *v)
{
    size_t n;
    const char *s = sv_get_str(v, &n);
    if (sv_kind_of(v) == SV_STRING)
        printf("%.*s", (int)n, s);
    else
        printf("<%zu bytes, not UTF-8>", n);
}

static void print_chunk(const sv_value *chunk, uint32_t index, uint64_t version,
                        const char *md_result)
{
    const sv_value *comps = sv_map_getz(chunk, "components");
    const sv_value *inst = sv_map_getz(chunk, "instances");
    const sv_value *md = sv_map_getz(chunk, "metadata");
    const sv_value *data = sv_map_getz(chunk, "data");
    const uint32_t *iv = sv_numbers(inst);
    uint32_t n_inst = sv_len(inst);
    printf("chunk %u:\n", index);
    printf("  strings:    %u\n", sv_len(sv_map_getz(chunk, "strings")));
    printf("  components: %u\n", sv_len(comps));
    for (uint32_t c = 0; c < sv_len(comps); c++) {
        const sv_value *comp = sv_array_at(comps, c);
        uint32_t count = 0;
        for (uint32_t i = 0; i < n_inst; i++) count += iv[i] == c;
        printf("    %3u  ", c);
        print_text(sv_map_getz(comp, "class"));
        printf("  version %llu, %u instance%s\n",
               (unsigned long long)sv_get_uint(sv_map_getz(comp, "version")), count,
               count == 1 ? "" : "s");
    }
    printf("  instances:  %u\n", n_inst);
    if (n_inst) {
        /* spec §B.3: the root is first in version 2, last from version 3 on */
        uint32_t root = version <= 2 ? 0 : n_inst - 1;
        printf("  root:       #%u ", root);
        print_text(sv_map_getz(sv_array_at(comps, iv[root]), "class"));
        printf("\n");
    }
    if (sv_kind_of(md) == SV_MAP)
        printf("  metadata:   yes (%u strings, %u command bytes): %s\n",
               sv_len(sv_map_getz(md, "strings")), sv_len(sv_map_getz(md, "commands")), md_result);
    else
        printf("  metadata:   no\n");
    printf("  data:       %u bytes\n", sv_len(data));
}

static int info_file(cli_args *a, const char *path)
{
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st != SV_OK) return cli_exit_code(st);
    const char *name = cli_display_name(path);
    /* First the container, with the data kept whole (its size is shown),
     * then the whole file, to say whether the metadata describes the data.
     * Through the registry entry, which reads the user's -O options. */
    sv_options raw = cli_format_options(a, "raw", "");
    sv_options full = cli_format_options(a, NULL, NULL);
    sv_doc *doc = sv_doc_new(NULL), *full_doc = sv_doc_new(NULL);
    sv_value root, full_root;
    sv_error err, full_err;
    sv_error_clear(&err);
    sv_error_clear(&full_err);
    int rc = 0;
    if (!doc || !full_doc) {
        cli_error("%s: %s", name, sv_status_str(SV_ERR_NOMEM));
        rc = cli_exit_code(SV_ERR_NOMEM);
    } else if (sv_format_noesis.decode(doc, in.data, in.len, &raw, &root, &err) != SV_OK) {
        cli_report(name, &err);
        rc = cli_exit_code(err.status);
    } else {
        bool full_ok = sv_format_noesis.decode(full_doc, in.data, in.len, &full, &full_root,
                                               &full_err) == SV_OK;
        char md_result[SV_ERROR_MSG_MAX + 64];
        if (full_ok)
            snprintf(md_result, sizeof md_result, "describes every data byte");
        else
            sv_error_format(&full_err, md_result, sizeof md_result);
        const sv_value *chunks = sv_map_getz(&root, "chunks");
        uint64_t version = sv_get_uint(sv_map_getz(&root, "version"));
        printf("%s: NoesisGUI NSDH, version %llu, %s-endian, %s strings, %u chunk%s\n", name,
               (unsigned long long)version,
               strcmp(sv_get_str(sv_map_getz(&root, "byte_order"), NULL), "big") == 0 ? "big"
                                                                                      : "little",
               sv_get_bool(sv_map_getz(&root, "unicode")) ? "16-bit" : "8-bit", sv_len(chunks),
               sv_len(chunks) == 1 ? "" : "s");
        for (uint32_t i = 0; i < sv_len(chunks); i++)
            print_chunk(sv_array_at(chunks, i), i, version, md_result);
        if (!full_ok) rc = cli_exit_code(full_err.status);
    }
    if (doc) sv_doc_free(doc);
    if (full_doc) sv_doc_free(full_doc);
    cli_input_free(&in);
    return rc;
}

int cmd_noesis(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "info") != 0 && argv[1][0] != '-')) {
        cli_usage_error("noesis", argc < 2 ? "missing subcommand (info)"
                                           : "unknown subcommand (info is the one there is)");
        return 2;
    }
    if (argv[1][0] == '-') { /* "serval noesis --help" */
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        cli_usage_error("noesis", "missing subcommand (info) before '%s'", argv[1]);
        return 2;
    }
    cli_args a;
    int rc = cli_args_parse(&a, "noesis info", argc - 1, argv + 1, CLI_OPT_LIMITS);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (!(rc = cli_files_or_stdin(&a, "noesis info"))) {
        for (size_t i = 0; i < a.file_count; i++) {
            int r = info_file(&a, a.files[i]);
            fflush(stdout);
            if (r > rc) rc = r;
        }
    }
    cli_args_free(&a);
    return rc;
}
