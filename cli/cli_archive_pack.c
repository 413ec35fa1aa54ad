/* pack for the archive commands (cli_archive_pack.h). */
#include <stdlib.h>
#include <string.h>

#include "cli_archive_pack.h"
#include "cli_diag.h"
#include "cli_io.h"

int cli_archive_report(const char *path, const sv_error *err)
{
    cli_report(cli_display_name(path), err);
    return cli_exit_code(err->status);
}

/* Whether member i of the original has exactly the content in. Returns 0
 * (same in *same) or an exit code after a message. */
static int same_content(const cli_archive_original *o, size_t i, const cli_input *in,
                        sv_buf *content, bool *same)
{
    content->len = 0;
    int rc = o->read(o->ctx, i, content);
    if (rc) return rc;
    *same = content->len == in->len && (!in->len || !memcmp(content->data, in->data, in->len));
    return 0;
}

/* What becomes of each member of the original (ch), and which files are
 * new (used[f] false). Returns 0 or an exit code after a message. */
static int match_members(const cli_archive_original *o, const cli_dir_contents *fl,
                         cli_archive_change *ch, bool *used)
{
    sv_buf content;
    sv_buf_init(&content, NULL);
    int rc = 0;
    cli_archive_member m;
    for (size_t i = 0; !rc && o->member_at(o->ctx, i, &m); i++) {
        if (m.skip && !o->skipped_takes_file) { /* extract never writes it */
            ch[i].keep = true;
            continue;
        }
        size_t f = cli_dir_contents_find(fl, m.name);
        if (f == SIZE_MAX) {
            if (m.skip) { /* extract skipped it: keep it as it was */
                ch[i].keep = true;
                continue;
            }
            cli_error("%s: member '%s' is not in the directory (pack --like keeps every member)",
                      cli_display_name(o->path), m.shown);
            rc = 1;
            break;
        }
        used[f] = true;
        const cli_input *in = &fl->files[f];
        ch[i] = (cli_archive_change){false, in->data, in->len};
        /* Same size: compare with the original content, so that an
         * unchanged member keeps its exact stored bytes. */
        if (!m.skip && in->len == m.size) rc = same_content(o, i, in, &content, &ch[i].keep);
    }
    sv_buf_free(&content);
    return rc;
}

/* --like: the original rewritten with the directory's files. */
static int pack_like(const cli_archive_original *o, const cli_dir_contents *fl, sv_buf *out)
{
    size_t n = 0;
    cli_archive_member m;
    while (o->member_at(o->ctx, n, &m)) n++;
    cli_archive_change *ch = calloc(n ? n : 1, sizeof *ch);
    bool *used = calloc(fl->count ? fl->count : 1, sizeof *used);
    size_t *added = calloc(fl->count ? fl->count : 1, sizeof *added);
    int rc = (!ch || !used || !added) ? cli_exit_code(SV_ERR_NOMEM) : 0;
    if (!rc) rc = match_members(o, fl, ch, used);
    size_t nadded = 0;
    for (size_t f = 0; !rc && f < fl->count; f++)
        if (!used[f] && !(o->left_out && o->left_out(o->ctx, fl->names[f]))) added[nadded++] = f;
    if (!rc) rc = o->repack(o->ctx, ch, fl, added, nadded, out);
    free(ch);
    free(used);
    free(added);
    return rc;
}

int cli_archive_pack(const cli_archive_packer *p, const cli_args *a)
{
    const char *dir = a->files[0];
    cli_dir_contents fl;
    int rc = cli_dir_contents_read(dir, &fl);
    if (rc) return rc;
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (!p->like) {
        rc = p->write(p->ctx, dir, &fl, &out);
    } else {
        cli_archive_original o;
        memset(&o, 0, sizeof o);
        rc = p->open_like(p->ctx, p->like, &o);
        if (!rc) {
            rc = pack_like(&o, &fl, &out);
            p->close_like(p->ctx);
        }
    }
    if (!rc) rc = cli_exit_code(cli_write_output(a->output, out.data, out.len));
    sv_buf_free(&out);
    cli_dir_contents_free(&fl);
    return rc;
}
