/* serval kingsisle wad pack: a directory as a KIWAD archive, laid out as
 * KingsIsle's writer lays one out, or (--like) as an original rewritten with
 * the directory's files (cli_archive_pack.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_archive_pack.h"
#include "cli_diag.h"
#include "cmd_kingsisle_wad.h"

typedef struct wad_packer {
    const cli_args *a;
    const wad_opts *o;
    wad orig; /* --like: the original */
} wad_packer;

/* The files fl->names[pick[k]] (pick NULL: every file) as entries to write;
 * NULL when out of memory. */
static sv_kiwad_entry *entries_of(const cli_dir_contents *fl, const size_t *pick, size_t n)
{
    sv_kiwad_entry *e = calloc(n ? n : 1, sizeof *e);
    for (size_t k = 0; e && k < n; k++) {
        size_t f = pick ? pick[k] : k;
        e[k] = (sv_kiwad_entry){fl->names[f], fl->files[f].data, fl->files[f].len};
    }
    return e;
}

static int write_new(void *ctx, const char *dir, const cli_dir_contents *fl, sv_buf *out)
{
    wad_packer *p = ctx;
    sv_kiwad_entry *e = entries_of(fl, NULL, fl->count);
    if (!e) return cli_exit_code(SV_ERR_NOMEM);
    sv_kiwad_write_opts wo;
    sv_kiwad_write_opts_init(&wo);
    wo.version = (uint32_t)p->o->version;
    wo.flags = (uint8_t)p->o->flags;
    wo.level = (int)p->o->level;
    sv_error err;
    sv_error_clear(&err);
    int rc =
        sv_kiwad_write(e, fl->count, &wo, out, &err) != SV_OK ? cli_archive_report(dir, &err) : 0;
    free(e);
    return rc;
}

/* ---- the original of --like ------------------------------------------------ */

static bool orig_member_at(void *ctx, size_t i, cli_archive_member *out)
{
    wad_packer *p = ctx;
    return wad_member_view(&p->orig, i, out);
}

static int orig_read(void *ctx, size_t i, sv_buf *b)
{
    wad_packer *p = ctx;
    return wad_read_member(&p->orig, i, p->a, WAD_CRC_OFF, b);
}

/* NAME.json beside a member NAME is what extract --decode wrote. */
static bool decode_output(void *ctx, const char *name)
{
    wad_packer *p = ctx;
    size_t n = strlen(name), i;
    if (n <= 5 || strcmp(name + n - 5, ".json") != 0) return false;
    char base[4096];
    if (n - 5 >= sizeof base) return false;
    memcpy(base, name, n - 5);
    base[n - 5] = 0;
    return sv_kiwad_find(p->orig.w, base, &i) == SV_OK;
}

static int orig_repack(void *ctx, const cli_archive_change *ch, const cli_dir_contents *fl,
                       const size_t *added, size_t nadded, sv_buf *out)
{
    wad_packer *p = ctx;
    size_t n = sv_kiwad_count(p->orig.w);
    sv_kiwad_change *c = calloc(n ? n : 1, sizeof *c);
    sv_kiwad_entry *e = entries_of(fl, added, nadded);
    int rc = (!c || !e) ? cli_exit_code(SV_ERR_NOMEM) : 0;
    for (size_t i = 0; !rc && i < n; i++)
        c[i] = (sv_kiwad_change){ch[i].keep, ch[i].data, ch[i].len};
    sv_error err;
    sv_error_clear(&err);
    if (!rc && sv_kiwad_repack(p->orig.w, c, e, nadded, (int)p->o->level, out, &err) != SV_OK)
        rc = cli_archive_report(p->orig.path, &err);
    free(c);
    free(e);
    return rc;
}

static int open_like(void *ctx, const char *path, cli_archive_original *o)
{
    wad_packer *p = ctx;
    int rc = wad_open(path, false, &p->orig);
    if (rc) return rc;
    *o = (cli_archive_original){
        .path = p->orig.path,
        .ctx = p,
        .member_at = orig_member_at,
        .read = orig_read,
        .left_out = decode_output,
        .repack = orig_repack,
        .skipped_takes_file = true, /* an unpatched member downloaded since */
    };
    return 0;
}

static void close_like(void *ctx)
{
    wad_packer *p = ctx;
    wad_close(&p->orig);
}

int wad_pack(const cli_args *a, const wad_opts *o)
{
    wad_packer p = {.a = a, .o = o};
    cli_archive_packer packer = {
        .ctx = &p,
        .like = o->like,
        .write = write_new,
        .open_like = open_like,
        .close_like = close_like,
    };
    return cli_archive_pack(&packer, a);
}
