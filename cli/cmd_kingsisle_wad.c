/* serval kingsisle wad: KingsIsle KIWAD archives (.wad).
 *
 *   serval kingsisle wad list FILE                 one line per member
 *   serval kingsisle wad cat FILE MEMBER           one member to stdout
 *   serval kingsisle wad extract FILE -o DIR [PATTERN...]
 *   serval kingsisle wad pack DIR -o FILE [--like ORIGINAL]
 *
 * The archive is read by sv_kiwad_open (serval/kiwad.h), which checks the
 * whole table, names included, before anything is listed or written. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_archive_extract.h"
#include "cli_archive_verbs.h"
#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_doc.h"
#include "cli_io.h"
#include "cmd_kingsisle_wad.h"
#include "serval/kiwad.h"

/* clang-format off */
static const char help[] =
    "usage: serval kingsisle wad list [-v] [--verify | --strict] FILE\n"
    "       serval kingsisle wad cat [OPTIONS] FILE MEMBER\n"
    "       serval kingsisle wad extract [OPTIONS] FILE -o DIR [PATTERN...]\n"
    "       serval kingsisle wad pack [OPTIONS] DIR -o FILE\n"
    "\n"
    "KingsIsle KIWAD archives (.wad), as Wizard101 and Pirate101 ship them.\n"
    "\n"
    "  list     one line per member, in table order:\n"
    "           NAME<TAB>SIZE<TAB>STORED<TAB>zlib|stored<TAB>CRC[<TAB>unpatched]\n"
    "           (SIZE uncompressed, STORED the bytes in the archive, CRC in\n"
    "           hex); 'unpatched' marks a placeholder whose data the game has\n"
    "           not downloaded (all zero); -v first prints a line\n"
    "           '# KIWAD version V, flags 0xFF|no flags byte, N members,\n"
    "           table ends at byte T'\n"
    "  cat      writes one member's content to standard output\n"
    "  extract  writes every member (or those whose name matches a PATTERN,\n"
    "           a shell glob) under DIR, each file atomically; unpatched\n"
    "           members are skipped with a warning, and so are names that\n"
    "           differ only in case (one file on a case-insensitive disk)\n"
    "  pack     writes the regular files under DIR as an archive: table in\n"
    "           name order, data after it in the same order, zlib level 9\n"
    "           for all but .mp3 and .ogg files (stored)\n"
    "\n"
    "Every name is checked before anything is written: absolute names, '.',\n"
    "'..' or empty components, backslashes, NUL bytes, invalid UTF-8,\n"
    "duplicates and overlapping data are refused. cat and extract check each\n"
    "member's CRC, as katsuba does: a mismatch is an error (exit 1) unless\n"
    "--verify makes it a warning; list reads no member data unless --verify\n"
    "(a mismatch is a warning) or --strict (an error) asks. An archive whose\n"
    "version is above 2 (the known 1 and 2) is read as version 2, with a\n"
    "warning (--strict: refused, exit 4).\n"
    "\n"
    "Options:\n"
    "  -o, --output PATH   extract: the directory; pack: the archive\n"
    "  --verify            list: also check every CRC; list, cat, extract: a CRC\n"
    "                      mismatch is a warning (cat and extract write the\n"
    "                      member all the same)\n"
    "  --strict            list, cat, extract: a CRC mismatch is an error (list\n"
    "                      then checks every CRC), and so is a version above 2\n"
    "  --no-verify         cat, extract: do not check the CRCs\n"
    "  --max-total SIZE    extract: refuse, before writing anything, members\n"
    "                      whose sizes add up to more (suffix k, m, g or t;\n"
    "                      default 4g)\n"
    "  --decode            extract: also write NAME.json, the typed JSON of\n"
    "                      each ObjectProperty member (BINd or XML), as\n"
    "                      'serval dump' prints it (with --schema TYPES.json)\n"
    "  --version N         pack: archive version 1 or 2 (default 2)\n"
    "  --flags N           pack: the version 2 flags byte (default 0; Root.wad\n"
    "                      has 1)\n"
    "  --level N           pack: zlib level 1..9 (default 9)\n"
    "  --like ORIGINAL     pack: reproduce ORIGINAL's layout: its version,\n"
    "                      flags, table and data order and compression choices,\n"
    "                      every unchanged member's stored bytes kept, so that\n"
    "                      pack after extract gives ORIGINAL byte for byte;\n"
    "                      files not in ORIGINAL are added\n"
    "  --sync              extract, pack: fsync each file before its rename\n"
    CLI_HELP_LIMITS
    CLI_HELP_HELP
    "\n"
    CLI_HELP_EXIT;
/* clang-format on */

#define CMD "kingsisle wad"

static int report(const char *path, const sv_error *err)
{
    cli_report(cli_display_name(path), err);
    return cli_exit_code(err->status);
}

/* err as a warning: the command goes on. */
static void warn(const char *path, const sv_error *err)
{
    char line[SV_ERROR_PATH_MAX + SV_ERROR_MSG_MAX + 256];
    if (sv_error_format(err, line, sizeof line) < 0)
        snprintf(line, sizeof line, "%s", err->message);
    cli_error("warning: %s: %s", cli_display_name(path), line);
}

int wad_open(const char *path, bool strict, wad *k)
{
    memset(k, 0, sizeof *k);
    k->path = path;
    sv_status st = cli_read_input(path, &k->in);
    if (st != SV_OK) return cli_exit_code(st);
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open(k->in.data, k->in.len, NULL, &k->w, &err) != SV_OK) {
        cli_input_free(&k->in);
        return report(path, &err);
    }
    /* The library reads a later version as version 2, as every known reader
     * does; said here, since the layout might have changed in ways nothing
     * can check. */
    sv_kiwad_info info = sv_kiwad_get_info(k->w);
    if (info.version > 2 && strict) {
        cli_error("%s: KIWAD version %u is not one of the known versions 1 and 2 (--strict)",
                  cli_display_name(path), info.version);
        wad_close(k);
        return 4;
    }
    if (info.version > 2)
        cli_error("warning: %s: KIWAD version %u is not one of the known versions 1 and 2; read "
                  "as version 2",
                  cli_display_name(path), info.version);
    return 0;
}

void wad_close(wad *k)
{
    sv_kiwad_close(k->w);
    cli_input_free(&k->in);
}

/* ---- list, cat -------------------------------------------------------------- */

/* What a CRC mismatch is for the command: list reads no member data unless
 * asked (--verify: a warning, --strict: an error); cat and extract check
 * every member they read and refuse a mismatch, as katsuba and the game's
 * own tools do, unless --verify makes it a warning or --no-verify skips the
 * check. */
static wad_crc crc_policy(const cli_args *a, const wad_opts *o, bool list)
{
    if (a->strict) return WAD_CRC_ERROR;
    if (o->verify) return WAD_CRC_WARN;
    return list || o->no_verify ? WAD_CRC_OFF : WAD_CRC_ERROR;
}

static int do_list(const cli_args *a, const wad_opts *o)
{
    wad k;
    int rc = wad_open(a->files[0], a->strict, &k);
    if (rc) return rc;
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (a->verbosity > 0) { /* -v: the header first, on a line of its own */
        sv_kiwad_info info = sv_kiwad_get_info(k.w);
        char head[128];
        int n = info.flags < 0
                    ? snprintf(head, sizeof head, "# KIWAD version %u, no flags byte", info.version)
                    : snprintf(head, sizeof head, "# KIWAD version %u, flags 0x%02X", info.version,
                               (unsigned)info.flags);
        sv_buf_append(&out, head, (size_t)n);
        n = snprintf(head, sizeof head, ", %u members, table ends at byte %llu\n", info.count,
                     (unsigned long long)info.table_end);
        sv_buf_append(&out, head, (size_t)n);
    }
    sv_kiwad_member m;
    for (size_t i = 0; sv_kiwad_member_at(k.w, i, &m) && !rc; i++) {
        wad_crc crc = crc_policy(a, o, true);
        if (crc != WAD_CRC_OFF && !m.unpatched) {
            sv_error err;
            sv_error_clear(&err);
            if (sv_kiwad_verify(k.w, i, &err) != SV_OK) {
                if (crc == WAD_CRC_ERROR)
                    rc = report(k.path, &err);
                else
                    warn(k.path, &err);
            }
        }
        char line[96];
        int n = snprintf(line, sizeof line, "\t%u\t%u\t%s\t%08X%s\n", m.size, m.stored_len,
                         m.compressed ? "zlib" : "stored", m.crc, m.unpatched ? "\tunpatched" : "");
        sv_buf_append(&out, m.name, m.name_len);
        sv_buf_append(&out, line, (size_t)n);
    }
    if (!rc)
        rc = sv_buf_ok(&out) ? cli_exit_code(cli_write_output(NULL, out.data, out.len))
                             : cli_exit_code(SV_ERR_NOMEM);
    sv_buf_free(&out);
    wad_close(&k);
    return rc;
}

int wad_read_member(wad *k, size_t i, const cli_args *a, wad_crc crc, sv_buf *b)
{
    sv_error err;
    sv_error_clear(&err);
    sv_kiwad_member m;
    if (crc == WAD_CRC_WARN && sv_kiwad_member_at(k->w, i, &m) && !m.unpatched &&
        sv_kiwad_verify(k->w, i, &err) != SV_OK) {
        warn(k->path, &err);
        sv_error_clear(&err);
    }
    if (sv_kiwad_read(k->w, i, &a->limits, crc == WAD_CRC_ERROR, b, &err) != SV_OK)
        return report(k->path, &err);
    return 0;
}

static int do_cat(const cli_args *a, const wad_opts *o)
{
    wad k;
    int rc = wad_open(a->files[0], a->strict, &k);
    if (rc) return rc;
    size_t i;
    if (sv_kiwad_find(k.w, a->files[1], &i) != SV_OK) {
        cli_error("%s: no member '%s'", cli_display_name(k.path), a->files[1]);
        wad_close(&k);
        return 4;
    }
    sv_buf b;
    sv_buf_init(&b, NULL);
    rc = wad_read_member(&k, i, a, crc_policy(a, o, false), &b);
    if (!rc) rc = cli_exit_code(cli_write_output(NULL, b.data, b.len));
    sv_buf_free(&b);
    wad_close(&k);
    return rc;
}

/* ---- extract ---------------------------------------------------------------- */

/* Writes NAME.json beside an ObjectProperty member (BINd or XML). 0 when
 * it is not one; an error is reported and its exit code returned. */
static int decode_member(cli_args *a, const char *target, const char *name, const sv_buf *b)
{
    const char *fname = NULL;
    if (b->len >= 4 && !memcmp(b->data, "BINd", 4)) {
        fname = "kingsisle";
    } else {
        sv_format_candidate c[4];
        size_t n = sv_format_detect_all(b->data, b->len, name, c, 4);
        if (n && !strcmp(c[0].format->name, "kingsisle-xml")) fname = "kingsisle-xml";
    }
    if (!fname) return 0;
    const sv_format *f = sv_format_find(fname);
    if (!f) return 0;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return cli_exit_code(SV_ERR_NOMEM);
    sv_options dopts = cli_decode_options(a, f);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    int rc = 0;
    if (f->decode(doc, b->data, b->len, &dopts, &root, &err) != SV_OK) {
        rc = report(name, &err);
    } else {
        const sv_format *json = sv_format_find("json");
        static const char *const names[] = {"indent"};
        static const char *const values[] = {"2"};
        sv_options jo;
        sv_options_init(&jo);
        jo.names = names;
        jo.values = values;
        jo.count = 1;
        sv_buf out;
        sv_buf_init(&out, NULL);
        rc = cli_encode(json, &root, &jo, name, &out);
        if (!rc) {
            sv_buf_putc(&out, '\n');
            char jpath[4300];
            int w = snprintf(jpath, sizeof jpath, "%s.json", target);
            if (w < 0 || (size_t)w >= sizeof jpath)
                rc = 3;
            else
                rc = sv_buf_ok(&out) ? cli_exit_code(cli_write_output(jpath, out.data, out.len))
                                     : cli_exit_code(SV_ERR_NOMEM);
        }
        sv_buf_free(&out);
    }
    sv_doc_free(doc);
    return rc;
}

/* The reading side of extract (cli_archive_extract.h). */
typedef struct wad_extract {
    wad *k;
    cli_args *a;
    wad_crc crc;
} wad_extract;

bool wad_member_view(const wad *k, size_t i, cli_archive_member *out)
{
    sv_kiwad_member m;
    if (!sv_kiwad_member_at(k->w, i, &m)) return false;
    *out =
        (cli_archive_member){.name = m.name, .shown = m.name, .size = m.size, .skip = m.unpatched};
    return true;
}

static bool extract_member_at(void *ctx, size_t i, cli_archive_member *out)
{
    wad_extract *x = ctx;
    return wad_member_view(x->k, i, out);
}

static int extract_read(void *ctx, size_t i, sv_buf *b)
{
    wad_extract *x = ctx;
    return wad_read_member(x->k, i, x->a, x->crc, b);
}

/* extract --decode: NAME.json beside each member that decodes. */
static int extract_decode(void *ctx, const cli_archive_member *m, const char *target,
                          const sv_buf *content)
{
    wad_extract *x = ctx;
    return decode_member(x->a, target, m->name, content);
}

static int do_extract(cli_args *a, const wad_opts *o)
{
    wad k;
    int rc = wad_open(a->files[0], a->strict, &k);
    if (rc) return rc;
    wad_extract x = {&k, a, crc_policy(a, o, false)};
    cli_archive ar = {
        .path = k.path,
        .ctx = &x,
        .member_at = extract_member_at,
        .read = extract_read,
        .written = o->decode ? extract_decode : NULL,
        .skip_before = "unpatched member ",
        .skip_after = " (its data is all zero: not downloaded)",
        .skipped_counts_as_found = true,
        .warn_case = true,
    };
    rc = cli_archive_extract(&ar, a);
    wad_close(&k);
    return rc;
}

/* ---- dispatch ---------------------------------------------------------------- */

/* Takes this command's own options out of argv (into o), leaving the rest
 * for cli_args_parse. Returns 0 or 2. */
static int take_options(int *argc, char **argv, wad_opts *o)
{
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--")) {
            while (i < *argc) argv[out++] = argv[i++];
            break;
        }
        if (!strcmp(s, "--verify")) {
            o->verify = true;
        } else if (!strcmp(s, "--no-verify")) {
            o->no_verify = true;
        } else if (!strcmp(s, "--decode")) {
            o->decode = true;
        } else if (!strcmp(s, "--version") || !strcmp(s, "--flags") || !strcmp(s, "--level") ||
                   !strcmp(s, "--like") || !strncmp(s, "--version=", 10) ||
                   !strncmp(s, "--flags=", 8) || !strncmp(s, "--level=", 8) ||
                   !strncmp(s, "--like=", 7)) {
            const char *eq = strchr(s, '=');
            size_t nlen = eq ? (size_t)(eq - s) : strlen(s);
            const char *v = eq ? eq + 1 : (i + 1 < *argc ? argv[++i] : NULL);
            if (!v) return cli_usage_error(CMD, "%.*s needs a value", (int)nlen, s), 2;
            if (!strncmp(s, "--like", nlen)) {
                o->like = v;
                continue;
            }
            char *end;
            errno = 0;
            long n = strtol(v, &end, 0);
            long lo = !strncmp(s, "--flags", nlen) ? 0 : 1;
            long hi = !strncmp(s, "--version", nlen) ? 2 : !strncmp(s, "--flags", nlen) ? 255 : 9;
            if (errno || !*v || *end || n < lo || n > hi)
                return cli_usage_error(CMD, "%.*s must be %ld..%ld, not '%s'", (int)nlen, s, lo, hi,
                                       v),
                       2;
            if (!strncmp(s, "--version", nlen))
                o->version = n;
            else if (!strncmp(s, "--flags", nlen))
                o->flags = n;
            else
                o->level = n;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    return 0;
}

int cmd_kingsisle_wad(int argc, char **argv)
{
    /* argv[0] is "wad", argv[1] the action */
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
    if (!pack) accepted |= CLI_OPT_STRICT;
    if (list) accepted |= CLI_OPT_VERBOSE;
    char cmd[64];
    snprintf(cmd, sizeof cmd, CMD " %s", verb);
    wad_opts o = {0};
    int n = argc - 1;
    int rc = take_options(&n, argv + 1, &o);
    if (rc) return rc;
    bool bad = (o.verify && pack) || (o.no_verify && !cat && !extract) || (o.decode && !extract) ||
               ((o.version || o.flags || o.level || o.like) && !pack);
    if (bad) {
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
    } else if (a.strict && o.no_verify) {
        cli_usage_error(cmd, "--strict checks the CRCs that --no-verify skips");
        rc = 2;
    } else if (pack && o.like && (o.version || o.flags)) {
        cli_usage_error(cmd, "--like takes version and flags from the original");
        rc = 2;
    } else if (list) {
        rc = do_list(&a, &o);
    } else if (cat) {
        rc = do_cat(&a, &o);
    } else if (extract) {
        rc = do_extract(&a, &o);
    } else {
        rc = wad_pack(&a, &o);
    }
    cli_args_free(&a);
    return rc;
}
