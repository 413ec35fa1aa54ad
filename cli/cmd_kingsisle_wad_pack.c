/* serval kingsisle wad pack: reading the directory, and --like. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_diag.h"
#include "cli_dir_files.h"
#include "cmd_kingsisle_wad.h"

int wad_walk(const char *dir, wad_files *fl)
{
    memset(fl, 0, sizeof *fl);
    cli_dir_files l;
    int rc = cli_dir_files_list(dir, 64, false, &l);
    if (rc) return rc;
    fl->names = l.names;
    fl->count = l.count;
    fl->cap = l.cap;
    fl->files = calloc(fl->count ? fl->count : 1, sizeof *fl->files);
    if (!fl->files) rc = cli_exit_code(SV_ERR_NOMEM);
    for (size_t i = 0; !rc && i < fl->count; i++) {
        char full[8200];
        snprintf(full, sizeof full, "%s/%s", dir, fl->names[i]);
        sv_status st = cli_read_input(full, &fl->files[i]);
        if (st != SV_OK) rc = cli_exit_code(st);
    }
    if (rc) wad_files_free(fl);
    return rc;
}

void wad_files_free(wad_files *fl)
{
    for (size_t i = 0; i < fl->count; i++) {
        if (fl->files) cli_input_free(&fl->files[i]);
        free(fl->names[i]);
    }
    free(fl->files);
    free(fl->names);
    memset(fl, 0, sizeof *fl);
}

static size_t find_file(const wad_files *fl, const char *name)
{
    size_t lo = 0, hi = fl->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(fl->names[mid], name);
        if (c == 0) return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

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

int wad_like(const sv_kiwad *orig, const char *orig_path, const wad_files *fl, const cli_args *a,
             int level, sv_buf *out)
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
        size_t f = find_file(fl, m.name);
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
        ch[i].keep = content.len == in->len && (!in->len || !memcmp(content.data, in->data, in->len));
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
