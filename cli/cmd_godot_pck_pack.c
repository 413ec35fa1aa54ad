/* serval godot pck: its options, and pack --like. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_diag.h"
#include "cli_dir_contents.h"
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

int pck_like(const sv_godot_pck *orig, const char *orig_path, const cli_dir_contents *fl,
             const cli_args *a, sv_buf *out)
{
    size_t n = sv_godot_pck_count(orig);
    sv_godot_pck_change *ch = calloc(n ? n : 1, sizeof *ch);
    bool *used = calloc(fl->count ? fl->count : 1, sizeof *used);
    sv_godot_pck_entry *added = calloc(fl->count ? fl->count : 1, sizeof *added);
    int rc = (!ch || !used || !added) ? cli_exit_code(SV_ERR_NOMEM) : 0;
    sv_buf content;
    sv_buf_init(&content, NULL);
    sv_godot_pck_member m;
    for (size_t i = 0; !rc && sv_godot_pck_member_at(orig, i, &m); i++) {
        if (m.flags & SV_GODOT_PCK_FILE_REMOVAL) { /* extract skipped it */
            ch[i].keep = true;
            continue;
        }
        size_t f = cli_dir_contents_find(fl, m.name);
        if (f == SIZE_MAX) {
            cli_error("%s: member '%s' is not in the directory (pack --like keeps every member)",
                      cli_display_name(orig_path), m.path);
            rc = 1;
            break;
        }
        used[f] = true;
        const cli_input *in = &fl->files[f];
        ch[i].data = in->data;
        ch[i].len = in->len;
        if (in->len != m.size) continue; /* changed */
        /* same size: compare with the original content, so that an
         * unchanged member keeps its stored bytes (an encrypted one its
         * ciphertext) */
        content.len = 0;
        sv_error err;
        sv_error_clear(&err);
        if (sv_godot_pck_read(orig, i, &a->limits, false, &content, &err) != SV_OK) {
            cli_report(cli_display_name(orig_path), &err);
            rc = cli_exit_code(err.status);
            break;
        }
        ch[i].keep =
            content.len == in->len && (!in->len || !memcmp(content.data, in->data, in->len));
    }
    size_t nadded = 0;
    for (size_t f = 0; !rc && f < fl->count; f++)
        if (!used[f])
            added[nadded++] =
                (sv_godot_pck_entry){fl->names[f], fl->files[f].data, fl->files[f].len};
    if (!rc) {
        sv_error err;
        sv_error_clear(&err);
        if (sv_godot_pck_repack(orig, ch, added, nadded, out, &err) != SV_OK) {
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
