/* The files "$import" names, for serval o3de: any regular file the user can
 * read (devices, FIFOs, directories and sockets are refused before they are
 * opened for reading, so /dev/zero cannot fill the memory nor a FIFO block
 * for ever), read up to what the allocation limit leaves, and reported
 * without quoting a file that turns out not to be JSON. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_o3de_import.h"
#include "serval/buf.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

void o3_importer_init(o3_importer *im, const cli_args *a, sv_doc *doc, uint64_t input_len)
{
    im->args = a;
    im->doc = doc;
    im->used = input_len;
}

static const char *not_regular(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a file";
}

/* stat, following symbolic links (a link to a regular file is read as
 * O3DE reads it): only a regular file goes on. */
static sv_status regular_file(const char *path, struct stat *st, sv_error *err)
{
    if (stat(path, st) != 0) return sv_error_set(err, SV_ERR_IO, "o3de", 0, "%s", strerror(errno));
    if (!S_ISREG(st->st_mode))
        return sv_error_set(err, SV_ERR_REFUSED, "o3de", 0, "not a regular file (%s)",
                            not_regular(st->st_mode));
    return SV_OK;
}

sv_status o3_import_identify(void *ctx, const char *path, char *key, size_t size, sv_error *err)
{
    (void)ctx;
    struct stat st;
    sv_status s = regular_file(path, &st, err);
    if (s != SV_OK) return s;
    snprintf(key, size, "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
    return SV_OK;
}

/* What the allocation limit leaves for the next file's bytes: the limit
 * less the input, the files read before and what the document holds. */
static uint64_t budget(const o3_importer *im)
{
    uint64_t max = im->args->limits.max_alloc ? im->args->limits.max_alloc : SV_DEFAULT_MAX_ALLOC;
    uint64_t taken = im->used + sv_doc_allocated(im->doc);
    return taken < max ? max - taken : 0;
}

/* Reads the regular file open as fd, at most cap bytes (one more is asked
 * for, to see a file that grew past the cap). */
static sv_status read_capped(int fd, uint64_t cap, sv_buf *b, sv_error *err)
{
    char chunk[65536];
    for (;;) {
        uint64_t room = cap - b->len + 1;
        size_t want = room < sizeof chunk ? (size_t)room : sizeof chunk;
        ssize_t n = read(fd, chunk, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return sv_error_set(err, SV_ERR_IO, "o3de", 0, "%s", strerror(errno));
        if (n == 0) break;
        if (b->len + (uint64_t)n > cap)
            return sv_error_set(err, SV_ERR_LIMIT, "o3de", 0,
                                "larger than the %llu bytes the allocation limit leaves",
                                (unsigned long long)cap);
        sv_buf_append(b, chunk, (size_t)n);
        if (!sv_buf_ok(b)) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    }
    return SV_OK;
}

/* The parser's reason names the byte it saw; a file that is not JSON may be
 * anything the user can read, so only the offset is told. */
static sv_status parse(const o3_importer *im, const sv_buf *b, sv_doc *doc, sv_value *out,
                       sv_error *err)
{
    sv_error perr;
    sv_error_clear(&perr);
    sv_status s = sv_o3de_read(doc, b->data ? (const char *)b->data : "", b->len, &im->args->limits,
                               out, &perr);
    if (s == SV_OK) return SV_OK;
    unsigned long long at = (unsigned long long)perr.byte_offset;
    switch (s) {
    case SV_ERR_SYNTAX:
    case SV_ERR_UTF8:
    case SV_ERR_TRUNCATED:
    case SV_ERR_TRAILING:
    case SV_ERR_TYPE: return sv_error_set(err, s, "o3de", 0, "not JSON at byte %llu", at);
    default: return sv_error_set(err, s, "o3de", 0, "%s at byte %llu", sv_status_str(s), at);
    }
}

sv_status o3_import_load(void *ctx, const char *path, sv_doc *doc, sv_value *out, sv_error *err)
{
    o3_importer *im = ctx;
    struct stat before, now;
    sv_status s = regular_file(path, &before, err);
    if (s != SV_OK) return s;
    uint64_t cap = budget(im);
    if ((uint64_t)before.st_size > cap)
        return sv_error_set(err, SV_ERR_LIMIT, "o3de", 0,
                            "%llu bytes, more than the %llu the allocation limit leaves",
                            (unsigned long long)before.st_size, (unsigned long long)cap);
    /* O_NONBLOCK: should the name now be a FIFO, the open does not wait */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return sv_error_set(err, SV_ERR_IO, "o3de", 0, "%s", strerror(errno));
    if (fstat(fd, &now) != 0) {
        s = sv_error_set(err, SV_ERR_IO, "o3de", 0, "%s", strerror(errno));
    } else if (!S_ISREG(now.st_mode) || now.st_dev != before.st_dev ||
               now.st_ino != before.st_ino) {
        s = sv_error_set(err, SV_ERR_REFUSED, "o3de", 0, "replaced while it was opened");
    }
    sv_buf b;
    sv_buf_init(&b, NULL);
    if (s == SV_OK) s = read_capped(fd, cap, &b, err);
    close(fd);
    if (s == SV_OK) {
        im->used += b.len;
        s = parse(im, &b, doc, out, err);
    }
    sv_buf_free(&b);
    return s;
}
