/* serval resonite: the Resonite-specific views and tools.
 *
 *   serval resonite tree FILE                   the slot hierarchy
 *   serval resonite package list PKG            the members of a .resonitepackage
 *   serval resonite package extract PKG [-o DIR] [MEMBER...]
 *   serval resonite package dump PKG [MEMBER]   a member as typed JSON
 *   serval resonite package pack DIR -o PKG     a package from a directory
 *
 * Data trees are decoded by the "resonite" format (-O options as for dump);
 * packages are read with serval's zip reader through serval/resonite.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_dir_files.h"
#include "cli_doc.h"
#include "serval/json.h"
#include "serval/resonite.h"

/* clang-format off */
static const char help_top[] =
    "usage: serval resonite tree [OPTIONS] FILE|-\n"
    "       serval resonite package list|extract|dump [OPTIONS] PKG ...\n"
    "       serval resonite package pack DIR -o PKG\n"
    "\n"
    "Resonite data trees (.brson, .7zbson, .lz4bson) and .resonitepackage\n"
    "archives. 'serval resonite tree --help' and 'serval resonite package\n"
    "--help' say more. Decoding, dumping and converting data trees is done by\n"
    "the ordinary commands with the 'resonite' format (serval dump FILE.brson).\n"
    "\n"
    "Options:\n"
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;

static const char help_tree[] =
    "usage: serval resonite tree [OPTIONS] FILE|-\n"
    "\n"
    "Prints the slot hierarchy of a data tree: one line per slot (name,\n"
    "inactive, tag), its components below it with their types resolved\n"
    "through the Types table, then the Assets list. FILE may also be a\n"
    ".resonitepackage: its main data tree (R-Main.record's assetUri) is shown.\n"
    "\n"
    "Options:\n"
    "  -O container=C      brotli, lzma or lz4: what a file without header holds\n"
    "                      (it is sniffed when not given)\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;

static const char help_package[] =
    "usage: serval resonite package list PKG\n"
    "       serval resonite package extract PKG [-o DIR] [--max-total SIZE] [MEMBER...]\n"
    "       serval resonite package dump [--compact] PKG [MEMBER]\n"
    "       serval resonite package pack DIR -o PKG\n"
    "\n"
    "A .resonitepackage is a zip of R-Main.record (JSON), Assets/<sha256>\n"
    "(the main data tree and raw asset files) and Metadata/<sha256>.bitmap.\n"
    "\n"
    "  list     one line per member: size, stored size, kind, name\n"
    "  extract  writes the members (all, or those named) under DIR (default\n"
    "           '.'), each atomically; names with '..' or a leading '/' are\n"
    "           refused\n"
    "  dump     prints a member as typed JSON: a data tree decoded, the record\n"
    "           as JSON; default the main data tree\n"
    "  pack     writes the files under DIR (as extract leaves them) as a\n"
    "           package, members in name order, data trees stored and the\n"
    "           others deflated; PKG is written atomically\n"
    "\n"
    "Options:\n"
    "  -o, --output DIR    extract: the directory to write into; pack: the\n"
    "                      package to write\n"
    "  --sync              extract, pack: fsync each file before its rename\n"
    "  --max-total SIZE    extract: refuse to write more than SIZE in all, before\n"
    "                      writing anything (suffix k, m, g or t; default 4g)\n"
    "  --compact           dump: no whitespace\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

#define MAIN_RECORD "R-Main.record"

static int report(const char *path, const sv_error *err)
{
    cli_report(cli_display_name(path), err);
    return cli_exit_code(err->status);
}

/* Typed JSON of root (pretty unless compact) with a final newline, to stdout. */
static int print_json(const sv_value *root, bool compact, const char *path)
{
    const sv_format *json = sv_format_find("json");
    static const char *const names[] = {"indent"};
    const char *const values[] = {compact ? "0" : "2"};
    sv_options opts;
    sv_options_init(&opts);
    opts.names = names;
    opts.values = values;
    opts.count = 1;
    sv_buf out;
    sv_buf_init(&out, NULL);
    int rc = cli_encode(json, root, &opts, path, &out);
    if (!rc) {
        sv_buf_putc(&out, '\n');
        rc = sv_buf_ok(&out) ? cli_exit_code(cli_write_output(NULL, out.data, out.len))
                             : cli_exit_code(SV_ERR_NOMEM);
    }
    sv_buf_free(&out);
    return rc;
}

/* ---- packages -------------------------------------------------------------------- */

typedef struct pkg {
    cli_input in;
    sv_resonite_package *p;
} pkg;

static int pkg_open(const char *path, pkg *k)
{
    memset(k, 0, sizeof *k);
    sv_status st = cli_read_input(path, &k->in);
    if (st != SV_OK) return cli_exit_code(st);
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_package_open(k->in.data, k->in.len, NULL, &k->p, &err) != SV_OK) {
        cli_input_free(&k->in);
        return report(path, &err);
    }
    return 0;
}

static void pkg_close(pkg *k)
{
    sv_resonite_package_close(k->p);
    cli_input_free(&k->in);
}

/* Member i into out, at most max bytes and at most --max-decompressed. */
static int pkg_read_max(pkg *k, const char *path, size_t i, const cli_args *a, uint64_t max,
                        sv_buf *out)
{
    sv_error err;
    sv_error_clear(&err);
    sv_limits lim = sv_limits_resolve(&a->limits);
    if (max > lim.max_decompressed) max = lim.max_decompressed;
    if (sv_resonite_package_read(k->p, i, max, out, &err) != SV_OK) return report(path, &err);
    return 0;
}

static int pkg_read(pkg *k, const char *path, size_t i, const cli_args *a, sv_buf *out)
{
    return pkg_read_max(k, path, i, a, UINT64_MAX, out);
}

/* The main data tree: the member R-Main.record's assetUri names
 * ("packdb:///<sha256>" -> "Assets/<sha256>", spec resonite A.6.6), else
 * the first member with the FrDT magic. false when there is none. */
static bool pkg_main(pkg *k, const char *path, const cli_args *a, size_t *index)
{
    size_t rec;
    if (sv_resonite_package_find(k->p, MAIN_RECORD, &rec) == SV_OK) {
        sv_buf b;
        sv_buf_init(&b, NULL);
        bool found = false;
        if (pkg_read(k, path, rec, a, &b) == 0) {
            sv_doc *doc = sv_doc_new(NULL);
            sv_json_decode_opts ro;
            sv_json_decode_opts_init(&ro);
            ro.plain = true;
            sv_value root;
            sv_error err;
            sv_error_clear(&err);
            if (doc &&
                sv_json_decode(doc, (const char *)b.data, b.len, &ro, &root, &err) == SV_OK) {
                size_t n;
                const char *uri = sv_get_str(sv_map_getz(&root, "assetUri"), &n);
                const char *pfx = "packdb:///";
                if (n > strlen(pfx) && strncmp(uri, pfx, strlen(pfx)) == 0) {
                    char name[512];
                    snprintf(name, sizeof name, "Assets/%s", uri + strlen(pfx));
                    found = sv_resonite_package_find(k->p, name, index) == SV_OK;
                }
            }
            sv_doc_free(doc);
        }
        sv_buf_free(&b);
        if (found) return true;
    }
    for (size_t i = 0; i < sv_resonite_package_count(k->p); i++) {
        sv_resonite_member m;
        sv_error err;
        sv_error_clear(&err);
        if (sv_resonite_package_member(k->p, i, &m, &err) == SV_OK && m.is_data_tree) {
            *index = i;
            return true;
        }
    }
    return false;
}

static int package_list(cli_args *a, const char *path)
{
    pkg k;
    int rc = pkg_open(path, &k);
    if (rc) return rc;
    size_t main_i;
    bool has_main = pkg_main(&k, path, a, &main_i);
    for (size_t i = 0; i < sv_resonite_package_count(k.p); i++) {
        sv_resonite_member m;
        sv_error err;
        sv_error_clear(&err);
        if (sv_resonite_package_member(k.p, i, &m, &err) != SV_OK) {
            rc = report(path, &err);
            break;
        }
        const char *kind = has_main && i == main_i        ? "main-tree"
                           : m.is_data_tree               ? "data-tree"
                           : !strcmp(m.name, MAIN_RECORD) ? "record"
                                                          : "asset";
        printf("%10llu %10llu  %-9s  %s\n", (unsigned long long)m.size, (unsigned long long)m.csize,
               kind, m.name);
    }
    pkg_close(&k);
    return rc;
}

/* A member name that is safe to create under the output directory. */
static bool safe_member_name(const char *name)
{
    if (!*name || name[0] == '/' || strchr(name, '\\')) return false;
    const char *s = name;
    for (;;) {
        const char *slash = strchr(s, '/');
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        if (!slash) return true;
        s = slash + 1;
    }
}

/* mkdir -p of every directory part of path (not the last part). */
static int make_parents(const char *path)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf) return ENAMETOOLONG;
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return errno;
        *p = '/';
    }
    return 0;
}

/* What extract writes in all unless --max-total says otherwise: each member
 * is bounded by --max-decompressed, but a small package of many members
 * could otherwise fill the disk. */
#define DEFAULT_MAX_TOTAL ((uint64_t)4 << 30)

/* Extracts member i; *left: the bytes --max-total still allows, less what
 * this member really wrote. */
static int extract_one(pkg *k, const char *path, size_t i, const char *dir, const cli_args *a,
                       uint64_t *left)
{
    sv_resonite_member m;
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_package_member(k->p, i, &m, &err) != SV_OK) return report(path, &err);
    if (!safe_member_name(m.name)) {
        cli_error("%s: member name '%s' is not safe to extract (absolute, '..' or empty part)",
                  cli_display_name(path), m.name);
        return 1;
    }
    char target[4096];
    if ((size_t)snprintf(target, sizeof target, "%s/%s", dir, m.name) >= sizeof target) {
        cli_error("%s: the path for '%s' is too long", cli_display_name(path), m.name);
        return 3;
    }
    if (m.name[strlen(m.name) - 1] == '/') return 0; /* a directory entry */
    int e = make_parents(target);
    if (e) {
        cli_error("%s: %s", target, strerror(e));
        return 3;
    }
    sv_buf b;
    sv_buf_init(&b, NULL);
    /* The member is read whole, at most what --max-total leaves, before its
     * file is made (atomically), so a refused member leaves no file. The
     * bytes really read are what is counted. */
    int rc = pkg_read_max(k, path, i, a, *left, &b);
    if (!rc) rc = cli_exit_code(cli_write_output(target, b.data, b.len));
    if (!rc) *left -= b.len < *left ? b.len : *left;
    sv_buf_free(&b);
    return rc;
}

/* Adds member i's stated size to *total; false, after saying which member
 * takes the total over cap, when it does. Nothing has been written then. */
static bool within_total(pkg *k, const char *path, size_t i, uint64_t cap, uint64_t *total)
{
    sv_resonite_member m;
    sv_error err;
    sv_error_clear(&err);
    if (sv_resonite_package_member(k->p, i, &m, &err) != SV_OK) return true; /* said later */
    if (m.size <= cap - *total) {
        *total += m.size;
        return true;
    }
    cli_error("%s: member '%s' (%llu bytes) takes the extracted total past --max-total of %llu "
              "bytes; nothing was extracted",
              cli_display_name(path), m.name, (unsigned long long)m.size, (unsigned long long)cap);
    return false;
}

static int package_extract(cli_args *a, const char *path)
{
    pkg k;
    int rc = pkg_open(path, &k);
    if (rc) return rc;
    const char *dir = a->output ? a->output : ".";
    uint64_t cap = a->max_total ? a->max_total : DEFAULT_MAX_TOTAL, total = 0;
    /* First the sizes the directory states, against --max-total: a package
     * that would pass it is refused before anything is written. The reader
     * then keeps each member to its stated size and to what is left. */
    if (a->file_count > 1) {
        for (size_t f = 1; f < a->file_count && !rc; f++) {
            size_t i;
            if (sv_resonite_package_find(k.p, a->files[f], &i) != SV_OK) {
                cli_error("%s: no member '%s'", cli_display_name(path), a->files[f]);
                rc = 4;
            } else if (!within_total(&k, path, i, cap, &total)) {
                rc = 1;
            }
        }
    } else {
        for (size_t i = 0; i < sv_resonite_package_count(k.p) && !rc; i++)
            if (!within_total(&k, path, i, cap, &total)) rc = 1;
    }
    uint64_t left = cap;
    if (a->file_count > 1) {
        for (size_t f = 1; f < a->file_count && !rc; f++) {
            size_t i;
            if (sv_resonite_package_find(k.p, a->files[f], &i) == SV_OK) /* (found above) */
                rc = extract_one(&k, path, i, dir, a, &left);
        }
    } else {
        for (size_t i = 0; i < sv_resonite_package_count(k.p) && !rc; i++)
            rc = extract_one(&k, path, i, dir, a, &left);
    }
    pkg_close(&k);
    return rc;
}

static int package_dump(cli_args *a, const char *path)
{
    pkg k;
    int rc = pkg_open(path, &k);
    if (rc) return rc;
    size_t i;
    const char *member = a->file_count > 1 ? a->files[1] : NULL;
    bool found =
        member ? sv_resonite_package_find(k.p, member, &i) == SV_OK : pkg_main(&k, path, a, &i);
    if (!found) {
        cli_error("%s: %s", cli_display_name(path),
                  member ? "no such member" : "no data tree in the package");
        pkg_close(&k);
        return 4;
    }
    sv_resonite_member m;
    sv_error err;
    sv_error_clear(&err);
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    if (!doc) rc = 3;
    if (!rc && sv_resonite_package_member(k.p, i, &m, &err) != SV_OK) rc = report(path, &err);
    if (!rc) rc = pkg_read(&k, path, i, a, &b);
    if (!rc) {
        sv_status st;
        if (m.is_data_tree) {
            sv_resonite_opts o;
            sv_resonite_opts_init(&o);
            o.limits = a->limits;
            st = sv_resonite_decode(doc, b.data, b.len, &o, &root, &err);
        } else if (!strcmp(m.name, MAIN_RECORD)) {
            sv_json_decode_opts ro;
            sv_json_decode_opts_init(&ro);
            ro.limits = a->limits;
            st = sv_json_decode(doc, (const char *)b.data, b.len, &ro, &root, &err);
        } else {
            st = sv_error_set(&err, SV_ERR_UNSUPPORTED, "resonitepackage", 0,
                              "member '%s' is raw asset data (%zu bytes); use extract", m.name,
                              b.len);
        }
        rc = st == SV_OK ? print_json(&root, a->compact, path) : report(m.name, &err);
    }
    sv_doc_free(doc);
    sv_buf_free(&b);
    pkg_close(&k);
    return rc;
}

/* ---- pack ------------------------------------------------------------------------ */

static int package_pack(cli_args *a, const char *dir)
{
    cli_dir_files l = {0};
    int rc = cli_dir_files_list(dir, 32, true, &l);
    if (!rc && l.count == 0) {
        cli_error("%s: no files to pack", dir);
        rc = 4;
    }
    cli_input *files = NULL;
    sv_resonite_entry *entries = NULL;
    if (!rc) {
        files = calloc(l.count, sizeof *files);
        entries = calloc(l.count, sizeof *entries);
        if (!files || !entries) rc = cli_exit_code(SV_ERR_NOMEM);
    }
    for (size_t i = 0; !rc && i < l.count; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", dir, l.names[i]);
        sv_status st = cli_read_input(full, &files[i]);
        if (st != SV_OK) {
            rc = cli_exit_code(st);
            break;
        }
        entries[i].name = l.names[i];
        entries[i].data = files[i].data;
        entries[i].len = files[i].len;
    }
    if (!rc) {
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error err;
        sv_error_clear(&err);
        if (sv_resonite_package_write(entries, l.count, &out, &err) != SV_OK)
            rc = report(a->output, &err);
        else
            rc = cli_exit_code(cli_write_output(a->output, out.data, out.len));
        sv_buf_free(&out);
    }
    for (size_t i = 0; files && i < l.count; i++) cli_input_free(&files[i]);
    free(files);
    free(entries);
    cli_dir_files_free(&l);
    return rc;
}

/* ---- tree ------------------------------------------------------------------------- */

static int tree(cli_args *a, const char *path)
{
    const sv_format *f = sv_format_find("resonite");
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st != SV_OK) return cli_exit_code(st);
    int rc = cli_check_format_options(a, "resonite tree", f, NULL);
    pkg k = {{0}, NULL};
    const uint8_t *data = in.data;
    size_t len = in.len;
    sv_buf member;
    sv_buf_init(&member, NULL);
    const char *shown = path;
    sv_error err;
    sv_error_clear(&err);
    if (!rc && len >= 4 && memcmp(data, "PK\x03\x04", 4) == 0) {
        /* a .resonitepackage: its main data tree */
        if (sv_resonite_package_open(data, len, NULL, &k.p, &err) != SV_OK) {
            rc = report(path, &err);
        } else {
            size_t i;
            if (!pkg_main(&k, path, a, &i)) {
                cli_error("%s: no data tree in the package", cli_display_name(path));
                rc = 4;
            } else {
                rc = pkg_read(&k, path, i, a, &member);
                data = member.data;
                len = member.len;
            }
        }
    }
    sv_doc *doc = rc ? NULL : sv_doc_new(NULL);
    if (!rc && !doc) rc = 3;
    if (!rc) {
        sv_options opts = cli_format_options(a, NULL, NULL);
        sv_value root;
        st = f->decode(doc, data, len, &opts, &root, &err);
        if (st == SV_OK) {
            sv_buf out;
            sv_buf_init(&out, NULL);
            st = sv_resonite_tree_print(&root, &out, &err);
            rc = st == SV_OK ? cli_exit_code(cli_write_output(NULL, out.data, out.len))
                             : report(shown, &err);
            sv_buf_free(&out);
        } else {
            rc = report(shown, &err);
        }
    }
    sv_doc_free(doc);
    sv_buf_free(&member);
    if (k.p) sv_resonite_package_close(k.p);
    cli_input_free(&in);
    return rc;
}

/* ---- dispatch ------------------------------------------------------------------------ */

static int run_tree(int argc, char **argv)
{
    cli_args a;
    int rc = cli_args_parse(&a, "resonite tree", argc, argv, CLI_OPT_FORMAT | CLI_OPT_LIMITS);
    if (rc) return rc;
    if (a.help) {
        fputs(help_tree, stdout);
    } else if (a.file_count != 1) {
        cli_usage_error("resonite tree", "needs exactly one FILE ('-' for standard input)");
        rc = 2;
    } else {
        rc = tree(&a, a.files[0]);
    }
    cli_args_free(&a);
    return rc;
}

static int run_package(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc < 2) {
            cli_usage_error("resonite package", "needs list, extract, dump or pack");
            return 2;
        }
        fputs(help_package, stdout);
        return 0;
    }
    const char *verb = argv[1];
    unsigned accepted = CLI_OPT_LIMITS;
    if (!strcmp(verb, "extract"))
        accepted |= CLI_OPT_OUTPUT | CLI_OPT_MAX_TOTAL;
    else if (!strcmp(verb, "pack"))
        accepted |= CLI_OPT_OUTPUT;
    else if (!strcmp(verb, "dump"))
        accepted |= CLI_OPT_COMPACT;
    else if (strcmp(verb, "list") != 0 && strcmp(verb, "pack") != 0) {
        cli_usage_error("resonite package", "unknown action '%s' (list, extract, dump or pack)",
                        verb);
        return 2;
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "resonite package %s", verb);
    cli_args a;
    int rc = cli_args_parse(&a, cmd, argc - 1, argv + 1, accepted);
    if (rc) return rc;
    if (a.help) {
        fputs(help_package, stdout);
    } else if (!strcmp(verb, "pack")) {
        if (a.file_count != 1 || !a.output) {
            cli_usage_error(cmd, "needs one DIR and -o PKG");
            rc = 2;
        } else {
            rc = package_pack(&a, a.files[0]);
        }
    } else if (a.file_count < 1 || (!strcmp(verb, "list") && a.file_count != 1) ||
               (!strcmp(verb, "dump") && a.file_count > 2)) {
        cli_usage_error(cmd, "needs one PKG%s",
                        !strcmp(verb, "list")   ? ""
                        : !strcmp(verb, "dump") ? " and at most one MEMBER"
                                                : " and MEMBERs");
        rc = 2;
    } else if (!strcmp(verb, "list")) {
        rc = package_list(&a, a.files[0]);
    } else if (!strcmp(verb, "extract")) {
        rc = package_extract(&a, a.files[0]);
    } else {
        rc = package_dump(&a, a.files[0]);
    }
    cli_args_free(&a);
    return rc;
}

int cmd_resonite(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage_error("resonite", "needs tree or package");
        return 2;
    }
    const char *what = argv[1];
    if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
        fputs(help_top, stdout);
        return 0;
    }
    if (!strcmp(what, "tree")) return run_tree(argc - 1, argv + 1);
    if (!strcmp(what, "package")) return run_package(argc - 1, argv + 1);
    cli_usage_error("resonite", "unknown action '%s' (tree or package)", what);
    return 2;
}
