/* extract for the archive commands (cli_archive_extract.h). */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_archive_extract.h"
#include "cli_diag.h"
#include "cli_dir_files.h"
#include "cli_io.h"

static bool matches(const cli_args *a, const cli_archive_member *m)
{
    if (a->file_count < 2) return true;
    for (size_t f = 1; f < a->file_count; f++)
        if (fnmatch(a->files[f], m->name, 0) == 0 ||
            (m->alt && fnmatch(a->files[f], m->alt, 0) == 0))
            return true;
    return false;
}

/* The stated sizes of the selected members against --max-total, before
 * anything is written (the readers then keep each member to its stated
 * size), and whether the patterns find anything. */
static int check_selection(const cli_archive *ar, const cli_args *a)
{
    uint64_t cap = a->max_total ? a->max_total : CLI_ARCHIVE_MAX_TOTAL, total = 0;
    size_t selected = 0, skipped = 0;
    cli_archive_member m;
    for (size_t i = 0; ar->member_at(ar->ctx, i, &m); i++) {
        if (!matches(a, &m)) continue;
        if (m.skip) {
            skipped++;
            continue;
        }
        selected++;
        if (m.size > cap - total) {
            cli_error("%s: member '%s' (%llu bytes) takes the extracted total past --max-total "
                      "of %llu bytes; nothing was extracted",
                      cli_display_name(ar->path), m.shown, (unsigned long long)m.size,
                      (unsigned long long)cap);
            return 1;
        }
        total += m.size;
    }
    if (a->file_count > 1 && !selected && !(ar->skipped_counts_as_found && skipped)) {
        cli_error("%s: no member matches the patterns", cli_display_name(ar->path));
        return 4;
    }
    return 0;
}

static int fold_cmp(const void *a, const void *b)
{
    const unsigned char *x = *(const unsigned char *const *)a;
    const unsigned char *y = *(const unsigned char *const *)b;
    for (;; x++, y++) {
        int cx = *x >= 'A' && *x <= 'Z' ? *x + 32 : *x;
        int cy = *y >= 'A' && *y <= 'Z' ? *y + 32 : *y;
        if (cx != cy || !cx) return cx - cy;
    }
}

/* Writes a new member file at target, atomically: the bytes go to an
 * unnamed file in target's directory (O_TMPFILE), which gets its name only
 * once complete, and only if the name is free (linkat does not replace).
 * Creating a named temporary file and renaming it costs two directory
 * changes and a chmod per member; on ext4 that doubled the system time of
 * extracting 10,000 members (KIWAD), and a 1,000-member PCK took twice
 * cp -r's time. Anything else (a file or link already there,
 * no O_TMPFILE, no /proc, --sync) goes through cli_write_output, which
 * replaces atomically. 0 or an exit code. */
static int write_new_member(const char *target, const uint8_t *data, size_t len)
{
#if defined(O_TMPFILE) && defined(AT_SYMLINK_FOLLOW)
    if (!cli_output_sync()) {
        char dir[4300];
        const char *slash = strrchr(target, '/');
        int n = slash ? snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target)
                      : snprintf(dir, sizeof dir, ".");
        int fd = n > 0 && (size_t)n < sizeof dir ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666)
                                                 : -1;
        if (fd >= 0) {
            size_t done = 0;
            while (done < len) {
                ssize_t w = write(fd, data + done, len - done);
                if (w < 0 && errno == EINTR) continue;
                if (w <= 0) break;
                done += (size_t)w;
            }
            if (done < len) {
                int e = errno ? errno : EIO;
                close(fd); /* the unnamed file goes with it */
                cli_error("%s: %s", target, strerror(e));
                return 3;
            }
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            int linked = linkat(AT_FDCWD, proc, AT_FDCWD, target, AT_SYMLINK_FOLLOW);
            close(fd);
            if (linked == 0) return 0;
        }
    }
#endif
    return cli_exit_code(cli_write_output(target, data, len));
}

/* The selected names sorted with ASCII case folded: names that differ only
 * in case end up next to each other. A warning per such pair; nothing is
 * refused (they are distinct files where the file system tells case). */
static void warn_case_collisions(const cli_archive *ar, const cli_args *a)
{
    size_t n = 0, k = 0;
    cli_archive_member m;
    while (ar->member_at(ar->ctx, n, &m)) n++;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names) return; /* a warning only: not worth failing for */
    for (size_t i = 0; i < n && ar->member_at(ar->ctx, i, &m); i++)
        if (!m.skip && matches(a, &m)) names[k++] = m.name;
    qsort(names, k, sizeof *names, fold_cmp);
    for (size_t i = 1; i < k; i++)
        if (!fold_cmp(&names[i - 1], &names[i]))
            cli_error("warning: %s: members '%s' and '%s' differ only in case: on a "
                      "case-insensitive file system one replaces the other",
                      cli_display_name(ar->path), names[i - 1], names[i]);
    free(names);
}

static int extract_one(const cli_archive *ar, const char *dir, size_t i,
                       const cli_archive_member *m, int *later_rc)
{
    int rc = cli_make_parents(dir, m->name);
    if (rc) return rc;
    char target[4200];
    int tw = snprintf(target, sizeof target, "%s/%s", dir, m->name);
    if (tw < 0 || (size_t)tw >= sizeof target) {
        cli_error("%s/%s: the path is too long", dir, m->name);
        return 3;
    }
    sv_buf b;
    sv_buf_init(&b, NULL);
    rc = ar->read(ar->ctx, i, &b);
    if (!rc)
        rc = ar->write ? ar->write(target, b.data, b.len) : write_new_member(target, b.data, b.len);
    if (!rc && ar->written) {
        int w = ar->written(ar->ctx, m, target, &b);
        if (w) *later_rc = cli_worse_exit(*later_rc, w);
    }
    sv_buf_free(&b);
    return rc;
}

int cli_archive_extract(const cli_archive *ar, const cli_args *a)
{
    const char *dir = a->output;
    int rc = check_selection(ar, a);
    if (rc) return rc;
    if (ar->warn_case) warn_case_collisions(ar, a);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: %s", dir, strerror(errno));
        return 3;
    }
    int later_rc = 0;
    cli_archive_member m;
    for (size_t i = 0; !rc && ar->member_at(ar->ctx, i, &m); i++) {
        if (!matches(a, &m)) continue;
        if (m.skip) {
            cli_error("warning: %s: skipping %s'%s'%s", cli_display_name(ar->path),
                      ar->skip_before ? ar->skip_before : "", m.shown,
                      ar->skip_after ? ar->skip_after : "");
            continue;
        }
        rc = extract_one(ar, dir, i, &m, &later_rc);
    }
    return rc ? rc : later_rc;
}
