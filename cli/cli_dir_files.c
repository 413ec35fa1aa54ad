/* The regular files under a directory, sorted by their relative names (the
 * order both archive writers put their tables in). */
#include "cli_dir_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_diag.h"
#include "serval/error.h"

static int add_name(cli_dir_files *l, const char *name)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **n = realloc(l->names, cap * sizeof *n);
        if (!n) return 1;
        l->names = n;
        l->cap = cap;
    }
    size_t len = strlen(name);
    char *copy = malloc(len + 1);
    if (!copy) return 1;
    memcpy(copy, name, len + 1);
    l->names[l->count++] = copy;
    return 0;
}

typedef struct walk_ctx {
    const char *root;
    int max_depth;
    bool follow_links;
    cli_dir_files *out;
} walk_ctx;

static int walk(const walk_ctx *w, const char *rel, int depth)
{
    char dir[4096];
    if ((size_t)snprintf(dir, sizeof dir, "%s%s%s", w->root, *rel ? "/" : "", rel) >= sizeof dir) {
        cli_error("%s: the path is too long", w->root);
        return 3;
    }
    if (depth > w->max_depth) {
        cli_error("%s: directories nested too deeply", dir);
        return 3;
    }
    DIR *d = opendir(dir);
    if (!d) {
        cli_error("%s: %s", dir, strerror(errno));
        return 3;
    }
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char name[4096], full[8200];
        if ((size_t)snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >=
            sizeof name) {
            cli_error("%s: the path for '%s' is too long", w->root, e->d_name);
            rc = 3;
            break;
        }
        snprintf(full, sizeof full, "%s/%s", w->root, name);
        struct stat sb;
        if ((w->follow_links ? stat(full, &sb) : lstat(full, &sb)) != 0) {
            cli_error("%s: %s", full, strerror(errno));
            rc = 3;
        } else if (S_ISLNK(sb.st_mode)) {
            cli_error("warning: %s: a symbolic link, not packed", full);
        } else if (S_ISDIR(sb.st_mode)) {
            rc = walk(w, name, depth + 1);
        } else if (S_ISREG(sb.st_mode)) {
            if (add_name(w->out, name)) rc = cli_exit_code(SV_ERR_NOMEM);
        }
    }
    closedir(d);
    return rc;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_dir_files_list(const char *dir, int max_depth, bool follow_links, cli_dir_files *out)
{
    memset(out, 0, sizeof *out);
    walk_ctx w = {dir, max_depth, follow_links, out};
    int rc = walk(&w, "", 0);
    if (rc) {
        cli_dir_files_free(out);
        return rc;
    }
    /* strcmp orders by unsigned bytes */
    if (out->count) qsort(out->names, out->count, sizeof *out->names, name_cmp);
    return 0;
}

void cli_dir_files_free(cli_dir_files *l)
{
    for (size_t i = 0; i < l->count; i++) free(l->names[i]);
    free(l->names);
    memset(l, 0, sizeof *l);
}

int cli_make_parents(const char *dir, const char *rel)
{
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s/%s", dir, rel);
    if (n < 0 || (size_t)n >= sizeof buf) {
        cli_error("%s/%s: the path is too long", dir, rel);
        return 3;
    }
    for (char *p = buf + strlen(dir) + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        struct stat sb;
        if (lstat(buf, &sb) != 0) {
            if (errno != ENOENT || mkdir(buf, 0777) != 0) {
                cli_error("%s: %s", buf, strerror(errno));
                return 3;
            }
        } else if (!S_ISDIR(sb.st_mode)) {
            cli_error("%s: not a directory (a symbolic link or file is in the way); nothing "
                      "is written through it",
                      buf);
            return 3;
        }
        *p = '/';
    }
    return 0;
}
