/* Mapping or reading inputs whole and writing outputs atomically (see
 * cli_io.h). */
/* realpath(3) is an XSI function: POSIX alone (the build's _POSIX_C_SOURCE)
 * does not declare it. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli_diag.h"
#include "cli_io.h"

/* Buffer for inputs of unknown size (pipes, /proc files); doubled as needed. */
#define READ_CHUNK ((size_t)64 * 1024)
/* One read(2) call asks for at most this much: POSIX leaves counts above
 * SSIZE_MAX implementation-defined. */
#define READ_MAX ((size_t)1 << 30)
/* Target names longer than this get a generic temporary name, so that the
 * temporary name cannot exceed NAME_MAX when the target's name does not. */
#define TMP_BASE_MAX 200

void cli_io_init(void)
{
    /* Held back, SIGXFSZ would still kill the process once released; ignored,
     * the write returns EFBIG and we clean up and report it. */
    signal(SIGXFSZ, SIG_IGN);
}

/* Lock-free, so a signal handler may store it (C11 7.14.1.1). */
static atomic_int interrupt_signal;

void cli_io_interrupt(int sig)
{
    atomic_store(&interrupt_signal, sig);
}

int cli_io_interrupted(void)
{
    return atomic_load_explicit(&interrupt_signal, memory_order_relaxed);
}

bool cli_is_stdio(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

const char *cli_display_name(const char *path)
{
    return cli_is_stdio(path) ? "<stdin>" : path;
}

/* ---- input -------------------------------------------------------------------- */

static uint64_t max_input = CLI_DEFAULT_MAX_INPUT;

void cli_set_max_input(uint64_t bytes)
{
    max_input = bytes;
}

/* --max-alloc when it was given, else 0: what a pipe or device is read into
 * is memory like any other, so it counts against that limit too (a mapped
 * regular file does not: it is only --max-input's). */
static uint64_t max_buffered;

void cli_set_max_buffered(uint64_t bytes)
{
    max_buffered = bytes;
}

/* read_path's results for an input larger than max_input, and for one read
 * into memory that is larger than max_buffered (errno values are positive). */
#define TOO_LARGE (-1)
#define TOO_LARGE_IN_MEMORY (-2)

/* A size as the options take it: "1 MiB" for 1m, else in bytes. */
static void size_text(uint64_t n, char *out, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (u < 4 && n >= 1024 && n % 1024 == 0) {
        n /= 1024;
        u++;
    }
    snprintf(out, size, "%llu %s", (unsigned long long)n, units[u]);
}

/* Reads fd to its end. hint is the expected size (0 = unknown). Sized from
 * the hint plus one byte, a regular file takes one allocation and the last,
 * empty read finds the end without growing the buffer. A file that grows
 * while it is read is still read whole, up to max_input: the buffer never
 * grows past max_input + 1 bytes, and holding that one byte more means the
 * input is too large (TOO_LARGE). Returns 0, TOO_LARGE or an errno value. */
static int read_fd(int fd, size_t hint, cli_input *in)
{
    uint64_t most = max_input;
    int too_large = TOO_LARGE;
    if (max_buffered && max_buffered < most) {
        most = max_buffered;
        too_large = TOO_LARGE_IN_MEMORY;
    }
    size_t limit = most < SIZE_MAX - 1 ? (size_t)most + 1 : SIZE_MAX;
    size_t cap = hint ? hint + 1 : READ_CHUNK, len = 0;
    if (cap > limit) cap = limit;
    uint8_t *buf = malloc(cap);
    if (!buf) return ENOMEM;
    for (;;) {
        if (len == cap) {
            if (cap == limit) {
                free(buf);
                return too_large;
            }
            size_t grown = cap <= limit / 2 ? cap * 2 : limit;
            uint8_t *bigger = realloc(buf, grown);
            if (!bigger) {
                free(buf);
                return ENOMEM;
            }
            buf = bigger;
            cap = grown;
        }
        size_t want = cap - len < READ_MAX ? cap - len : READ_MAX;
        ssize_t n = read(fd, buf + len, want);
        if (n < 0) {
            int e = errno;
            if (e == EINTR) continue;
            free(buf);
            return e;
        }
        if (n == 0) break;
        len += (size_t)n;
    }
    if (len > most) {
        free(buf);
        return too_large;
    }
    in->data = buf;
    in->len = len;
    return 0;
}

static int read_path(const char *path, cli_input *in)
{
    int fd = STDIN_FILENO;
    if (!cli_is_stdio(path)) {
        /* Read-only, always: serval never writes to its inputs. */
        fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) return errno;
    }
    int e = 0;
    size_t hint = 0;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        e = errno;
    } else if (S_ISDIR(st.st_mode)) {
        e = EISDIR;
    } else if (S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uintmax_t)st.st_size > max_input)
            e = TOO_LARGE;
        else if ((uintmax_t)st.st_size >= SIZE_MAX)
            e = EFBIG;
        else
            hint = (size_t)st.st_size;
    }
    /* A regular file is mapped rather than copied: the decoders read it in
     * place, and the trees that borrow their input point into the mapping.
     * Pipes, devices and empty files are read. */
    if (!e && hint) {
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE; /* one fault-in up front instead of one per page */
#endif
        void *p = mmap(NULL, hint, PROT_READ, flags, fd, 0);
        if (p != MAP_FAILED) {
            in->data = p;
            in->len = hint;
            in->mapped = true;
            if (fd != STDIN_FILENO) close(fd);
            return 0;
        }
    }
    if (!e) e = read_fd(fd, hint, in);
    if (fd != STDIN_FILENO) close(fd);
    return e;
}

sv_status cli_read_input(const char *path, cli_input *in)
{
    in->data = NULL;
    in->len = 0;
    in->mapped = false;
    int e = read_path(path, in);
    if (!e) return SV_OK;
    if (e == TOO_LARGE) {
        char cap[32];
        size_text(max_input, cap, sizeof cap);
        cli_error("%s: input larger than the --max-input limit of %s", cli_display_name(path), cap);
        return SV_ERR_LIMIT;
    }
    if (e == TOO_LARGE_IN_MEMORY) {
        char cap[32];
        size_text(max_buffered, cap, sizeof cap);
        cli_error("%s: input larger than the --max-alloc limit of %s (what is read from a pipe or "
                  "device is held in memory)",
                  cli_display_name(path), cap);
        return SV_ERR_LIMIT;
    }
    if (e == ENOMEM) {
        cli_error("%s: %s", cli_display_name(path), sv_status_str(SV_ERR_NOMEM));
        return SV_ERR_NOMEM;
    }
    cli_error("%s: %s", cli_display_name(path), strerror(e));
    return SV_ERR_IO;
}

void cli_input_free(cli_input *in)
{
    if (in->mapped)
        munmap(in->data, in->len);
    else
        free(in->data);
    in->mapped = false;
    in->data = NULL;
    in->len = 0;
}

/* ---- output -------------------------------------------------------------------- */

/* Returns 0 or an errno value. */
static int write_all(int fd, const uint8_t *p, size_t len)
{
    while (len > 0) {
        size_t want = len < READ_MAX ? len : READ_MAX;
        ssize_t n = write(fd, p, want);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static sv_status write_stdout(const void *data, size_t len)
{
    /* Anything printf'd before must come first. */
    int e = fflush(stdout) == 0 ? 0 : errno;
    if (!e) e = write_all(STDOUT_FILENO, data, len);
    if (!e) return SV_OK;
    cli_error("<stdout>: %s", strerror(e));
    return SV_ERR_IO;
}

/* The mode a new file gets from open(2) with 0666: what the user expects
 * rather than mkstemp's 0600 (never setuid or setgid). */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static bool output_sync;

void cli_set_output_sync(bool on)
{
    output_sync = on;
}

bool cli_output_sync(void)
{
    return output_sync;
}

/* Best effort: makes the rename itself durable. Some file systems refuse
 * fsync on a directory; the data is already safe then. */
static void sync_dir(const char *tmpl, size_t dir_len)
{
    char *dir = dir_len ? strndup(tmpl, dir_len) : NULL;
    int fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* The temporary file next to target: created (mkstemp) with the signals
 * that would end the process held back until atomic_finish, so that no
 * temporary file is left behind by them. Returns 0 or an errno. */
static int atomic_open(cli_output *o, const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dir_len;
    if (strlen(base) > TMP_BASE_MAX) base = "serval";
    o->tmp = malloc(dir_len + strlen(base) + sizeof "..XXXXXX");
    o->target = strdup(target);
    if (!o->tmp || !o->target) return ENOMEM;
    sprintf(o->tmp, "%.*s.%s.XXXXXX", (int)dir_len, target, base);
    o->dir_len = dir_len;

    sigset_t hold;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGQUIT);
    sigprocmask(SIG_BLOCK, &hold, &o->saved);
    o->held = true;
    o->fd = mkstemp(o->tmp);
    return o->fd < 0 ? errno : 0;
}

/* With e == 0: gives the temporary file its mode, syncs it (--sync),
 * closes it and renames it over the target; else, or when one of these
 * fails, removes it. Then lets the held signals act. Returns 0 or an
 * errno. */
static int atomic_finish(cli_output *o, int e)
{
    if (o->fd >= 0) {
        if (!e && fchmod(o->fd, o->mode) != 0) e = errno;
        if (!e && output_sync && fsync(o->fd) != 0) e = errno;
        if (close(o->fd) != 0 && !e) e = errno;
        o->fd = -1;
        if (!e && cli_io_interrupted()) e = EINTR; /* interrupted: not renamed, removed */
        if (!e && rename(o->tmp, o->target) != 0) e = errno;
        if (e)
            unlink(o->tmp);
        else if (output_sync)
            sync_dir(o->tmp, o->dir_len);
    }
    if (o->held) sigprocmask(SIG_SETMASK, &o->saved, NULL);
    o->held = false;
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    return e;
}

/* Writes through a temporary file in target's directory, then renames it
 * over target (with --sync, after an fsync). Returns 0 or an errno. */
static int write_atomic(const char *target, const void *data, size_t len, mode_t mode)
{
    cli_output o = {.fd = -1, .mode = mode};
    int e = atomic_open(&o, target);
    if (!e) e = write_all(o.fd, data, len);
    return atomic_finish(&o, e);
}

/* For devices and FIFOs: there is nothing to rename over. */
static int write_in_place(const char *target, const void *data, size_t len)
{
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    int e = write_all(fd, data, len);
    if (close(fd) != 0 && !e) e = errno;
    return e;
}

/* How path is written: where (*target, resolved through a symbolic link:
 * free *resolved after), and whether atomically (*mode: the new file's) or
 * in place (a device, a FIFO). 0 or an errno; a dangling link prints its
 * own message and returns -1. */
static int output_target(const char *path, char **resolved, const char **target, bool *atomic,
                         mode_t *mode)
{
    /* Through a symbolic link, replace the file it points to, not the link,
     * as cp does: the temporary file goes next to the resolved target. A
     * link to nothing is refused (as cp refuses it), since there is no
     * file to replace and creating one where the link points is a way to
     * make serval write where the user did not name. */
    *resolved = NULL;
    *target = path;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        *resolved = realpath(path, NULL);
        if (!*resolved) {
            int le = errno;
            if (le == ENOENT) {
                cli_error("%s: not writing through a dangling symbolic link", path);
                return -1;
            }
            return le;
        }
        *target = *resolved;
    }
    *atomic = true;
    if (stat(*target, &st) != 0) {
        if (errno != ENOENT) return errno;
        *mode = new_file_mode();
    } else if (S_ISDIR(st.st_mode)) {
        return EISDIR;
    } else if (!S_ISREG(st.st_mode)) {
        *atomic = false;
    } else {
        /* the old file's permissions, but never setuid, setgid or sticky:
         * new content must not inherit the right to run as the owner */
        *mode = st.st_mode & 0777;
    }
    return 0;
}

sv_status cli_write_output(const char *path, const void *data, size_t len)
{
    if (!path || cli_is_stdio(path)) return write_stdout(data, len);
    char *resolved;
    const char *target;
    bool atomic;
    mode_t mode = 0;
    int e = output_target(path, &resolved, &target, &atomic, &mode);
    if (!e) e = atomic ? write_atomic(target, data, len, mode) : write_in_place(target, data, len);
    free(resolved);
    if (!e) return SV_OK;
    if (e > 0 && !(e == EINTR && cli_io_interrupted())) cli_error("%s: %s", path, strerror(e));
    return SV_ERR_IO;
}

/* ---- streamed output ------------------------------------------------------------ */

/* The sink of a streamed output: the bytes go to the temporary file. */
static sv_status output_sink(void *ctx, const uint8_t *data, size_t len)
{
    cli_output *o = ctx;
    int e = cli_io_interrupted() ? EINTR : write_all(o->fd, data, len);
    if (!e) return SV_OK;
    o->error = e;
    return SV_ERR_IO;
}

/* Rewrites bytes the sink wrote before (an encoder's length placeholder,
 * buf_seekable.h): the temporary file is written from offset 0 by this
 * buffer alone, so output offsets are file offsets. */
static sv_status output_patch(void *ctx, uint64_t at, const uint8_t *data, size_t len)
{
    cli_output *o = ctx;
    int e = 0;
    while (len > 0 && !e) {
        ssize_t n = pwrite(o->fd, data, len, (off_t)at);
        if (n <= 0) {
            if (n == 0 || errno != EINTR) e = n == 0 ? EIO : errno;
            continue;
        }
        data += n, len -= (size_t)n, at += (uint64_t)n;
    }
    if (!e) return SV_OK;
    o->error = e;
    return SV_ERR_IO;
}

sv_status cli_output_begin(cli_output *o, const char *path, sv_buf *b)
{
    *o = (cli_output){.fd = -1, .path = path};
    if (!path || cli_is_stdio(path)) return SV_OK; /* buffered: written whole at the end */
    char *resolved;
    const char *target;
    bool atomic;
    int e = output_target(path, &resolved, &target, &atomic, &o->mode);
    if (!e && atomic) {
        e = atomic_open(o, target);
        if (e)
            atomic_finish(o, e);
        else {
            o->sink = (sv_buf_seekable){.write = output_sink, .patch = output_patch, .ctx = o};
            sv_buf_set_seekable_sink(b, &o->sink, 0);
        }
    }
    free(resolved);
    if (!e) return SV_OK;
    if (e > 0) cli_error("%s: %s", path, strerror(e));
    return SV_ERR_IO;
}

sv_status cli_output_end(cli_output *o, sv_buf *b, bool ok)
{
    int e = 0;
    if (o->fd < 0) {
        /* standard output, a device or a FIFO: the whole output at once */
        if (!ok) return SV_OK;
        return cli_write_output(o->path, b->data, b->len);
    }
    if (ok && sv_buf_flush(b) != SV_OK && !o->error) o->error = ENOMEM;
    if (o->error) e = o->error;
    e = atomic_finish(o, ok ? e : (e ? e : ECANCELED));
    sv_buf_set_sink(b, NULL, NULL, 0);
    /* a failed encode was reported by the encoder; only the file's own
     * errors are reported here */
    if (!e || (!ok && !o->error)) return ok ? SV_OK : SV_ERR_IO;
    if (e == EINTR && cli_io_interrupted()) return SV_ERR_IO; /* said by the signal */
    cli_error("%s: %s", o->path, strerror(e));
    return SV_ERR_IO;
}
