/* serval kingsisle wad pack --like: the original archive with the directory's
 * files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_diag.h"
#include "cli_dir_contents.h"
#include "cmd_kingsisle_wad.h"

/* NAME.json beside a member NAME is what extract --decode wrote. */
static bool decode_output(const sv_kiwad *orig, const char *name)
{
    size_t n = strlen(name), i;
    if (n <= 5 || strcmp(name + n - 5, ".json") != 0) return false;
    char base[4096];
    if (n - 5 >= sizeof base) return false;
    memcpy(base, name, n - 5);
    base[n - 5] = 0;
    return sv_kiwad_find(orig, base, &i) == SV_OK;
}

int wad_like(const sv_kiwad *orig, const char *orig_path, const cli_dir_contents *fl,
             const cli_args *a, int level, sv_buf *out)
{
    size_t n = sv_kiwad_count(orig);
    sv_kiwad_change *ch = calloc(n ? n : 1, sizeof *ch);
    bool *used = calloc(fl->count ? fl->count : 1, sizeof *used);
    sv_kiwad_entry *added = calloc(fl->count ? fl->count : 1, sizeof *added);
    int rc = (!ch || !used || !added) ? cli_exit_code(SV_ERR_NOMEM) : 0;
    sv_buf content;
    sv_buf_init(&content, NULL);
    sv_kiwad_member m;
    for (size_t i = 0; !rc && sv_kiwad_member_at(orig, i, &m); i++) {
        size_t f = cli_dir_contents_find(fl, m.name);
        if (f == SIZE_MAX) {
            if (m.unpatched) { /* extract skipped it: keep the placeholder */
                ch[i].keep = true;
                continue;
            }
            cli_error("%s: member '%s' is not in the directory (pack --like keeps every member)",
                      cli_display_name(orig_path), m.name);
            rc = 1;
            break;
        }
        used[f] = true;
        const cli_input *in = &fl->files[f];
        ch[i].data = in->data;
        ch[i].len = in->len;
        if (m.unpatched || in->len != m.size) continue; /* changed */
        /* Same size: compare with the original content, so that an
         * unchanged member keeps its exact stored bytes. */
        content.len = 0;
        sv_error err;
        sv_error_clear(&err);
        if (sv_kiwad_read(orig, i, &a->limits, false, &content, &err) != SV_OK) {
            cli_report(cli_display_name(orig_path), &err);
            rc = cli_exit_code(err.status);
            break;
        }
        ch[i].keep =
            content.len == in->len && (!in->len || !memcmp(content.data, in->data, in->len));
    }
    size_t nadded = 0;
    for (size_t f = 0; !rc && f < fl->count; f++)
        if (!used[f] && !decode_output(orig, fl->names[f]))
            added[nadded++] = (sv_kiwad_entry){fl->names[f], fl->files[f].data, fl->files[f].len};
    if (!rc) {
        sv_error err;
        sv_error_clear(&err);
        if (sv_kiwad_repack(orig, ch, added, nadded, level, out, &err) != SV_OK) {
            cli_report(cli_display_name(orig_path), &err);
            rc = cli_exit_code(err.status);
        }
    }
    sv_buf_free(&content);
    free(ch);
    free(used);
    free(added);
    return rc;
}
