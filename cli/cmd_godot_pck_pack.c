/* serval godot pck: its options, and pack (a directory as a pack, or with
 * --like an original rewritten with its files: cli_archive_pack.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_archive_pack.h"
#include "cli_diag.h"
#include "cmd_godot_pck.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool parse_key(const char *s, uint8_t key[32])
{
    if (strlen(s) != 64) return false;
    for (int i = 0; i < 32; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        key[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

static bool parse_version(const char *s, uint32_t *ma, uint32_t *mi, uint32_t *pa)
{
    unsigned long v[3];
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        char *end;
        if (*p < '0' || *p > '9') return false;
        errno = 0;
        v[i] = strtoul(p, &end, 10);
        if (errno || v[i] > 1000) return false;
        p = end;
        if (i < 2 && *p++ != '.') return false;
    }
    if (*p) return false;
    *ma = (uint32_t)v[0], *mi = (uint32_t)v[1], *pa = (uint32_t)v[2];
    return true;
}

int pck_take_options(const char *cmd, int *argc, char **argv, pck_opts *o)
{
    static const char *const valued[] = {"--key", "--format-version", "--godot", "--alignment",
                                         "--like"};
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--")) {
            while (i < *argc) argv[out++] = argv[i++];
            break;
        }
        if (!strcmp(s, "--no-verify")) {
            o->no_verify = true;
            continue;
        }
        const char *name = NULL;
        size_t nlen = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0] && !name; k++) {
            size_t l = strlen(valued[k]);
            if (!strncmp(s, valued[k], l) && (s[l] == 0 || s[l] == '=')) name = valued[k], nlen = l;
        }
        if (!name) {
            argv[out++] = argv[i];
            continue;
        }
        const char *v = s[nlen] == '=' ? s + nlen + 1 : (i + 1 < *argc ? argv[++i] : NULL);
        if (!v) return cli_usage_error(cmd, "%s needs a value", name), 2;
        if (!strcmp(name, "--key")) {
            if (!parse_key(v, o->key))
                return cli_usage_error(cmd, "--key needs 64 hex digits (a 32-byte key)"), 2;
            o->have_key = true;
        } else if (!strcmp(name, "--like")) {
            o->like = v;
        } else if (!strcmp(name, "--godot")) {
            if (!parse_version(v, &o->major, &o->minor, &o->patch) || o->major < 3 || o->major > 4)
                return cli_usage_error(cmd,
                                       "--godot needs a version X.Y.Z of Godot 3 or 4, not "
                                       "'%s'",
                                       v),
                       2;
            o->godot = v;
        } else {
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            bool fv = !strcmp(name, "--format-version");
            long lo = fv ? 1 : 0, hi = fv ? 3 : 1L << 20;
            if (errno || !*v || *end || n < lo || n > hi)
                return cli_usage_error(cmd, "%s must be %ld..%ld, not '%s'", name, lo, hi, v), 2;
            if (fv)
                o->format_version = n;
            else
                o->alignment = n;
        }
    }
    *argc = out;
    return 0;
}

/* ---- pack ------------------------------------------------------------------ */

typedef struct pck_packer {
    const cli_args *a;
    const pck_opts *o;
    pck_handle orig; /* --like: the original */
} pck_packer;

/* The files fl->names[pick[k]] (pick NULL: every file) as entries to write;
 * NULL when out of memory. */
static sv_godot_pck_entry *entries_of(const cli_dir_contents *fl, const size_t *pick, size_t n)
{
    sv_godot_pck_entry *e = calloc(n ? n : 1, sizeof *e);
    for (size_t k = 0; e && k < n; k++) {
        size_t f = pick ? pick[k] : k;
        e[k] = (sv_godot_pck_entry){fl->names[f], fl->files[f].data, fl->files[f].len};
    }
    return e;
}

static int write_new(void *ctx, const char *dir, const cli_dir_contents *fl, sv_buf *out)
{
    pck_packer *p = ctx;
    sv_godot_pck_entry *e = entries_of(fl, NULL, fl->count);
    if (!e) return cli_exit_code(SV_ERR_NOMEM);
    sv_godot_pck_write_opts wo;
    sv_godot_pck_write_opts_init(&wo);
    wo.format_version = (uint32_t)p->o->format_version;
    wo.major = p->o->major;
    wo.minor = p->o->minor;
    wo.patch = p->o->patch;
    wo.alignment = p->o->alignment < 0 ? 0u : (uint32_t)p->o->alignment;
    sv_error err;
    sv_error_clear(&err);
    int rc = sv_godot_pck_write(e, fl->count, &wo, out, &err) != SV_OK
                 ? cli_archive_report(dir, &err)
                 : 0;
    free(e);
    return rc;
}

static bool orig_member_at(void *ctx, size_t i, cli_archive_member *out)
{
    pck_packer *p = ctx;
    return pck_member_view(&p->orig, i, out);
}

/* Unchecked: an encrypted member's content is compared, its ciphertext
 * kept when unchanged. */
static int orig_read(void *ctx, size_t i, sv_buf *b)
{
    pck_packer *p = ctx;
    return pck_read_member(&p->orig, i, p->a, false, b);
}

static int orig_repack(void *ctx, const cli_archive_change *ch, const cli_dir_contents *fl,
                       const size_t *added, size_t nadded, sv_buf *out)
{
    pck_packer *p = ctx;
    size_t n = sv_godot_pck_count(p->orig.p);
    sv_godot_pck_change *c = calloc(n ? n : 1, sizeof *c);
    sv_godot_pck_entry *e = entries_of(fl, added, nadded);
    int rc = (!c || !e) ? cli_exit_code(SV_ERR_NOMEM) : 0;
    for (size_t i = 0; !rc && i < n; i++)
        c[i] = (sv_godot_pck_change){ch[i].keep, ch[i].data, ch[i].len};
    sv_error err;
    sv_error_clear(&err);
    if (!rc && sv_godot_pck_repack(p->orig.p, c, e, nadded, out, &err) != SV_OK)
        rc = cli_archive_report(p->orig.path, &err);
    free(c);
    free(e);
    return rc;
}

static int open_like(void *ctx, const char *path, cli_archive_original *o)
{
    pck_packer *p = ctx;
    int rc = pck_open(path, p->o, &p->orig);
    if (rc) return rc;
    /* a removal entry has no content and extract writes none: kept */
    *o = (cli_archive_original){.path = p->orig.path,
                                .ctx = p,
                                .member_at = orig_member_at,
                                .read = orig_read,
                                .repack = orig_repack};
    return 0;
}

static void close_like(void *ctx)
{
    pck_packer *p = ctx;
    pck_close(&p->orig);
}

int pck_pack(const cli_args *a, const pck_opts *o)
{
    pck_packer p = {.a = a, .o = o};
    cli_archive_packer packer = {
        .ctx = &p,
        .like = o->like,
        .write = write_new,
        .open_like = open_like,
        .close_like = close_like,
    };
    return cli_archive_pack(&packer, a);
}
