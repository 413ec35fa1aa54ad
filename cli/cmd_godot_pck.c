/* serval godot pck: Godot PCK archives (.pck, or appended to an executable).
 *
 *   serval godot pck list [--key HEX] FILE
 *   serval godot pck cat [--key HEX] FILE MEMBER
 *   serval godot pck extract [--key HEX] FILE -o DIR [PATTERN...]
 *   serval godot pck pack DIR -o FILE --format-version N --godot X.Y.Z
 *   serval godot pck pack DIR -o FILE --like ORIGINAL [--key HEX]
 *
 * The pack is read by sv_godot_pck_open (serval/godot_pck.h), which checks
 * the whole directory, paths included, before anything is listed or
 * written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_archive_extract.h"
#include "cli_archive_verbs.h"
#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "cmd_godot_pck.h"
#include "serval/godot_pck.h"

/* clang-format off */
static const char help[] =
    "usage: serval godot pck list [--key HEX] FILE\n"
    "       serval godot pck cat [OPTIONS] FILE MEMBER\n"
    "       serval godot pck extract [OPTIONS] FILE -o DIR [PATTERN...]\n"
    "       serval godot pck pack DIR -o FILE --format-version N --godot X.Y.Z\n"
    "       serval godot pck pack DIR -o FILE --like ORIGINAL [--key HEX]\n"
    "\n"
    "Godot PCK archives: .pck files and executables with a pack appended.\n"
    "Pack format 1 is Godot 3.x's, 2 Godot 4.0 to 4.4's, 3 Godot 4.5 and later's.\n"
    "\n"
    "  list     one line per member, in directory order:\n"
    "           PATH<TAB>SIZE<TAB>MD5[<TAB>FLAGS]\n"
    "           (PATH as stored, 'res://' included when the pack has it; MD5\n"
    "           in hex: the directory's, or, where the directory stores zeros\n"
    "           as Godot 3's PCKPacker does, the MD5 of the content with the\n"
    "           flag 'md5-unset'; FLAGS also 'encrypted', 'removal', 'delta')\n"
    "  cat      writes one member's content to standard output\n"
    "  extract  writes every member (or those whose path matches a PATTERN,\n"
    "           a shell glob) under DIR without 'res://', each file\n"
    "           atomically and unchanged\n"
    "  pack     writes the regular files under DIR as a pack that the given\n"
    "           engine loads (ProjectSettings.load_resource_pack), laid out as\n"
    "           its PCKPacker lays it out: format 1 with 'res://' paths, zero\n"
    "           MD5s and no padding (--alignment 0); formats 2 and 3 with\n"
    "           paths without 'res://', real MD5s and 32-byte alignment\n"
    "\n"
    "Every path is checked before anything is written: absolute paths, '.',\n"
    "'..' or empty components, backslashes, NUL bytes, invalid UTF-8,\n"
    "duplicates and overlapping data are refused. cat and extract check each\n"
    "member's MD5 when the directory has one; a mismatch is an error (exit 1).\n"
    "\n"
    "Options:\n"
    "  -o, --output PATH   extract: the directory; pack: the pack\n"
    "  --key HEX           the 32-byte key (64 hex digits) of a 4.x pack with an\n"
    "                      encrypted directory or members\n"
    "  --no-verify         cat, extract: do not check the MD5s\n"
    "  --max-total SIZE    extract: refuse, before writing anything, members\n"
    "                      whose sizes add up to more (suffix k, m, g or t;\n"
    "                      default 4g)\n"
    "  --format-version N  pack: the pack format, 1, 2 or 3\n"
    "  --godot X.Y.Z       pack: the engine version written in the header\n"
    "                      (3.x for format 1, 4.x for 2 and 3)\n"
    "  --alignment N       pack: pad each member to N bytes (default: format\n"
    "                      1: 0, none; 2 and 3: 32, as PCKPacker)\n"
    "  --like ORIGINAL     pack: reproduce ORIGINAL's layout: its header words,\n"
    "                      flags, directory order, path fields, data order and\n"
    "                      padding, every unchanged member's stored bytes kept,\n"
    "                      so that pack after extract gives ORIGINAL byte for\n"
    "                      byte (an executable with a pack: all of it); files\n"
    "                      not in ORIGINAL are added\n"
    "  --sync              extract, pack: fsync each file before its rename\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

#define CMD "godot pck"

static int report(const char *path, const sv_error *err)
{
    cli_report(cli_display_name(path), err);
    return cli_exit_code(err->status);
}

int pck_open(const char *path, const pck_opts *o, pck_handle *k)
{
    memset(k, 0, sizeof *k);
    k->path = path;
    sv_status st = cli_read_input(path, &k->in);
    if (st != SV_OK) return cli_exit_code(st);
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_pck_open(k->in.data, k->in.len, o->have_key ? o->key : NULL, NULL, &k->p, &err) !=
        SV_OK) {
        cli_input_free(&k->in);
        return report(path, &err);
    }
    return 0;
}

void pck_close(pck_handle *k)
{
    sv_godot_pck_close(k->p);
    cli_input_free(&k->in);
}

static void hex(const uint8_t *p, size_t n, char *out)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) out[2 * i] = d[p[i] >> 4], out[2 * i + 1] = d[p[i] & 15];
    out[2 * n] = 0;
}

int pck_read_member(pck_handle *k, size_t i, const cli_args *a, bool verify, sv_buf *b)
{
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_pck_read(k->p, i, &a->limits, verify, b, &err) != SV_OK)
        return report(k->path, &err);
    return 0;
}

/* ---- list, cat -------------------------------------------------------------- */

static int do_list(const cli_args *a, const pck_opts *o)
{
    pck_handle k;
    int rc = pck_open(a->files[0], o, &k);
    if (rc) return rc;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_godot_pck_member m;
    static const uint8_t zero[16];
    for (size_t i = 0; sv_godot_pck_member_at(k.p, i, &m) && !rc; i++) {
        char md5[33], line[160];
        const char *unset = "";
        hex(m.md5, 16, md5);
        bool removal = m.flags & SV_GODOT_PCK_FILE_REMOVAL;
        bool enc = m.flags & SV_GODOT_PCK_FILE_ENCRYPTED;
        if (!memcmp(m.md5, zero, 16) && !removal && !enc) {
            /* 3.x PCKPacker stores no MD5: give the content's, from the
             * pack's own bytes (no copy, whatever the member's size) */
            size_t n = 0;
            const uint8_t *stored = sv_godot_pck_stored(k.p, i, &n);
            uint8_t d[16];
            sv_godot_md5(n ? stored : NULL, n, d);
            hex(d, 16, md5);
            unset = "\tmd5-unset";
        }
        int n = snprintf(line, sizeof line, "\t%llu\t%s%s%s%s%s\n", (unsigned long long)m.size, md5,
                         unset, enc ? "\tencrypted" : "", removal ? "\tremoval" : "",
                         (m.flags & SV_GODOT_PCK_FILE_DELTA) ? "\tdelta" : "");
        sv_buf_append(&out, m.path, m.path_len);
        sv_buf_append(&out, line, (size_t)n);
    }
    if (!rc)
        rc = sv_buf_ok(&out) ? cli_exit_code(cli_write_output(NULL, out.data, out.len))
                             : cli_exit_code(SV_ERR_NOMEM);
    sv_buf_free(&out);
    pck_close(&k);
    return rc;
}

static int do_cat(const cli_args *a, const pck_opts *o)
{
    pck_handle k;
    int rc = pck_open(a->files[0], o, &k);
    if (rc) return rc;
    size_t i;
    if (sv_godot_pck_find(k.p, a->files[1], &i) != SV_OK) {
        cli_error("%s: no member '%s'", cli_display_name(k.path), a->files[1]);
        pck_close(&k);
        return 4;
    }
    sv_buf b;
    sv_buf_init(&b, NULL);
    rc = pck_read_member(&k, i, a, !o->no_verify, &b);
    if (!rc) rc = cli_exit_code(cli_write_output(NULL, b.data, b.len));
    sv_buf_free(&b);
    pck_close(&k);
    return rc;
}

/* ---- extract ---------------------------------------------------------------- */

/* The reading side of extract (cli_archive_extract.h). */
typedef struct pck_extract {
    pck_handle *k;
    const cli_args *a;
    bool verify;
} pck_extract;

bool pck_member_view(const pck_handle *k, size_t i, cli_archive_member *out)
{
    sv_godot_pck_member m;
    if (!sv_godot_pck_member_at(k->p, i, &m)) return false;
    *out = (cli_archive_member){.name = m.name,
                                .alt = m.path,
                                .shown = m.path,
                                .size = m.size,
                                .skip = (m.flags & SV_GODOT_PCK_FILE_REMOVAL) != 0};
    return true;
}

static bool extract_member_at(void *ctx, size_t i, cli_archive_member *out)
{
    pck_extract *x = ctx;
    return pck_member_view(x->k, i, out);
}

static int extract_read(void *ctx, size_t i, sv_buf *b)
{
    pck_extract *x = ctx;
    return pck_read_member(x->k, i, x->a, x->verify, b);
}

static int do_extract(cli_args *a, const pck_opts *o)
{
    pck_handle k;
    int rc = pck_open(a->files[0], o, &k);
    if (rc) return rc;
    pck_extract x = {&k, a, !o->no_verify};
    cli_archive ar = {
        .path = k.path,
        .ctx = &x,
        .member_at = extract_member_at,
        .read = extract_read,
        .skip_after = ": a removal entry (a patch deletes this path; no content)",
    };
    rc = cli_archive_extract(&ar, a);
    pck_close(&k);
    return rc;
}

/* ---- dispatch ---------------------------------------------------------------- */

int cmd_godot_pck(int argc, char **argv)
{
    /* argv[0] is "pck", argv[1] the action */
    if (argc < 2) {
        cli_usage_error(CMD, "needs list, cat, extract or pack");
        return 2;
    }
    const char *verb = argv[1];
    if (!strcmp(verb, "--help") || !strcmp(verb, "-h")) {
        fputs(help, stdout);
        return 0;
    }
    cli_archive_verb v;
    unsigned accepted;
    if (!cli_archive_verb_parse(CMD, verb, &v, &accepted)) return 2;
    bool list = v == CLI_ARCHIVE_LIST, cat = v == CLI_ARCHIVE_CAT;
    bool extract = v == CLI_ARCHIVE_EXTRACT, pack = v == CLI_ARCHIVE_PACK;
    char cmd[64];
    snprintf(cmd, sizeof cmd, CMD " %s", verb);
    pck_opts o;
    memset(&o, 0, sizeof o);
    o.alignment = -1;
    int n = argc - 1;
    int rc = pck_take_options(cmd, &n, argv + 1, &o);
    if (rc) return rc;
    bool pack_only = o.format_version || o.godot || o.alignment >= 0 || o.like;
    if ((o.no_verify && !cat && !extract) || (pack_only && !pack) ||
        (o.have_key && pack && !o.like)) {
        cli_usage_error(cmd, "an option given is not one of %s's (see --help)", cmd);
        return 2;
    }
    cli_args a;
    rc = cli_args_parse(&a, cmd, n, argv + 1, accepted);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (!cli_archive_operands_ok(cmd, v, &a)) {
        rc = 2;
    } else if (pack && o.like && (o.format_version || o.godot || o.alignment >= 0)) {
        cli_usage_error(cmd, "--like takes the format, version and alignment from the original");
        rc = 2;
    } else if (pack && !o.like && (!o.format_version || !o.godot)) {
        cli_usage_error(cmd, "needs --format-version N and --godot X.Y.Z (or --like ORIGINAL)");
        rc = 2;
    } else if (pack && !o.like && (o.format_version == 1) != (o.major == 3)) {
        cli_usage_error(cmd, "format %ld is Godot %s's, not %u.%u.%u's", o.format_version,
                        o.format_version == 1 ? "3.x" : "4.x", o.major, o.minor, o.patch);
        rc = 2;
    } else if (list) {
        rc = do_list(&a, &o);
    } else if (cat) {
        rc = do_cat(&a, &o);
    } else if (extract) {
        rc = do_extract(&a, &o);
    } else {
        rc = pck_pack(&a, &o);
    }
    cli_args_free(&a);
    return rc;
}
