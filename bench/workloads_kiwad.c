/* serval-bench: the kiwad workloads, on a generated archive of 10,000
 * members, half zlib streams, half stored (gen_kiwad.c; 4 x --size-mb MB,
 * so 200 MB by default).
 *
 * kiwad.list     open the archive and print the list `serval kingsisle wad
 *                list` prints (into memory): sv_kiwad_open, which checks
 *                every name, range and overlap, against a plain loop over
 *                the file table that reads each entry and prints the same
 *                lines, checking nothing.
 * kiwad.extract  every member's content written to a file under a fresh
 *                directory: sv_kiwad_read (CRC checked, inflated to the
 *                declared size) against zlib's own inflate of the same
 *                members (no CRC), both writing the same files the same way
 *                (open, write, close; directories made as needed). The files
 *                are removed after each step, untimed.
 *
 * Setup checks the answers: the two lists are the same text, 10,000 lines,
 * and every extracted file of either is the generated content. */
/* nftw, to empty the output directory between steps, is an XSI function. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <serval/kiwad.h>

#include "gen_kiwad.h"
#include "harness.h"
#include "workloads.h"

static bench_kiwad kw;
static bool kw_tried, kw_ok;
static char kw_msg[BENCH_MSG_MAX];

static bool kw_input(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size)
{
    if (!kw_tried) {
        kw_tried = true;
        double t0 = bench_now();
        kw_ok = bench_gen_kiwad((size_t)(4 * opts->size_mb * 1e6), &kw, kw_msg, sizeof kw_msg);
        if (kw_ok)
            printf("input: KIWAD archive, %zu bytes (%.1f MB), %zu members (half zlib, half "
                   "stored), %.1f MB of content, generated in %.2f s\n",
                   kw.archive.len, (double)kw.archive.len / 1e6, kw.count,
                   (double)kw.content_len / 1e6, bench_now() - t0);
    }
    if (!kw_ok) {
        snprintf(msg, msg_size, "%s", kw_msg);
        return false;
    }
    in->text = (const char *)kw.archive.data;
    in->len = kw.archive.len;
    return true;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One line of `serval kingsisle wad list`. */
static void list_line(sv_buf *out, const char *name, size_t name_len, uint32_t size,
                      uint32_t stored, bool z, uint32_t crc, bool unpatched)
{
    char line[96];
    int n = snprintf(line, sizeof line, "\t%u\t%u\t%s\t%08X%s\n", size, stored,
                     z ? "zlib" : "stored", crc, unpatched ? "\tunpatched" : "");
    sv_buf_append(out, name, name_len);
    sv_buf_append(out, line, (size_t)n);
}

/* ---- list ------------------------------------------------------------------- */

static sv_buf list_out;

static bool serval_list_step(bench_ctx *ctx)
{
    sv_buf_init(&list_out, ctx->alloc);
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open((const uint8_t *)ctx->in->text, ctx->in->len, ctx->alloc, &w, &err) !=
        SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_kiwad_open: %s", why);
    }
    sv_kiwad_member m;
    for (size_t i = 0; sv_kiwad_member_at(w, i, &m); i++)
        list_line(&list_out, m.name, m.name_len, m.size, m.stored_len, m.compressed, m.crc,
                  m.unpatched);
    sv_kiwad_close(w);
    ctx->out_size = list_out.len;
    return sv_buf_ok(&list_out) || bench_fail(ctx, "out of memory");
}

/* The plain loop: header, then each entry's fixed fields and name, trusted. */
static bool table_list_step(bench_ctx *ctx)
{
    sv_buf_init(&list_out, NULL);
    const uint8_t *d = (const uint8_t *)ctx->in->text;
    uint32_t version = rd32(d + 5), count = rd32(d + 9);
    size_t pos = version >= 2 ? 14 : 13;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = d + pos;
        uint32_t name_len = rd32(e + 17);
        bool z = e[12] != 0;
        list_line(&list_out, (const char *)e + 21, name_len - 1, rd32(e + 4),
                  z ? rd32(e + 8) : rd32(e + 4), z, rd32(e + 13), false);
        pos += 21 + (size_t)name_len;
    }
    ctx->out_size = list_out.len;
    return sv_buf_ok(&list_out) || bench_fail(ctx, "out of memory");
}

static void list_after(bench_ctx *ctx)
{
    (void)ctx;
    sv_buf_free(&list_out);
}

/* Both lists must be the same text, one line per member. */
static bool check_list(bench_ctx *ctx, bool (*step)(bench_ctx *))
{
    if (!step(ctx)) return false;
    size_t lines = 0;
    for (size_t i = 0; i < list_out.len; i++) lines += list_out.data[i] == '\n';
    sv_buf other;
    bool serval = step == serval_list_step;
    sv_buf mine = list_out;
    if (!(serval ? table_list_step(ctx) : serval_list_step(ctx))) return false;
    other = list_out;
    bool same = mine.len == other.len && memcmp(mine.data, other.data, mine.len) == 0;
    sv_buf_free(&mine);
    sv_buf_free(&other);
    ctx->out_size = 0;
    if (lines != kw.count) return bench_fail(ctx, "%zu lines for %zu members", lines, kw.count);
    return same || bench_fail(ctx, "sv_kiwad_open's list and the table loop's differ");
}

static bool serval_list_setup(bench_ctx *ctx) { return check_list(ctx, serval_list_step); }
static bool table_list_setup(bench_ctx *ctx) { return check_list(ctx, table_list_step); }

static const bench_impl serval_list = {"serval", BENCH_MEM_ALLOC, serval_list_setup,
                                       serval_list_step, list_after};
static const bench_impl table_list = {"table-loop", BENCH_MEM_RSS, table_list_setup,
                                      table_list_step, list_after};

/* ---- extract ---------------------------------------------------------------- */

static char out_dir[64];

/* Creates the directories of name under out_dir (mkdir -p of its parents). */
static bool make_parents(char *path, size_t root_len)
{
    for (char *p = path + root_len + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        bool ok = mkdir(path, 0777) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok) return false;
    }
    return true;
}

static bool write_member(bench_ctx *ctx, const char *name, const uint8_t *data, size_t len)
{
    char path[256];
    int n = snprintf(path, sizeof path, "%s/%s", out_dir, name);
    if (n < 0 || (size_t)n >= sizeof path) return bench_fail(ctx, "%s: path too long", name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0 && errno == ENOENT && make_parents(path, strlen(out_dir)))
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return bench_fail(ctx, "%s: %s", path, strerror(errno));
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            close(fd);
            return bench_fail(ctx, "%s: write failed", path);
        }
        done += (size_t)w;
    }
    return close(fd) == 0 || bench_fail(ctx, "%s: close failed", path);
}

static bool fresh_dir(bench_ctx *ctx)
{
    if (!out_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(out_dir, sizeof out_dir, "%.40s/kiwad-bench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(out_dir)) return bench_fail(ctx, "mkdtemp: %s", strerror(errno));
        return true;
    }
    return mkdir(out_dir, 0777) == 0 || bench_fail(ctx, "%s: %s", out_dir, strerror(errno));
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void extract_after(bench_ctx *ctx)
{
    (void)ctx;
    if (out_dir[0]) nftw(out_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static sv_buf member;

static bool serval_extract_step(bench_ctx *ctx)
{
    if (!fresh_dir(ctx)) return false;
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open((const uint8_t *)ctx->in->text, ctx->in->len, ctx->alloc, &w, &err) !=
        SV_OK) {
        char why[BENCH_MSG_MAX];
        sv_error_format(&err, why, sizeof why);
        return bench_fail(ctx, "sv_kiwad_open: %s", why);
    }
    sv_buf_init(&member, ctx->alloc);
    sv_kiwad_member m;
    bool ok = true;
    for (size_t i = 0; ok && sv_kiwad_member_at(w, i, &m); i++) {
        member.len = 0;
        if (sv_kiwad_read(w, i, NULL, true, &member, &err) != SV_OK) {
            char why[BENCH_MSG_MAX];
            sv_error_format(&err, why, sizeof why);
            ok = bench_fail(ctx, "sv_kiwad_read: %s", why);
        } else {
            ok = write_member(ctx, m.name, member.data, member.len);
        }
    }
    sv_buf_free(&member);
    sv_kiwad_close(w);
    return ok;
}

/* zlib alone: each compressed member inflated into a buffer of its size. */
static bool zlib_extract_step(bench_ctx *ctx)
{
    if (!fresh_dir(ctx)) return false;
    const uint8_t *d = (const uint8_t *)ctx->in->text;
    uint32_t count = rd32(d + 9);
    size_t pos = rd32(d + 5) >= 2 ? 14 : 13;
    uint8_t *buf = NULL;
    size_t cap = 0;
    bool ok = true;
    for (uint32_t i = 0; ok && i < count; i++) {
        const uint8_t *e = d + pos;
        uint32_t offset = rd32(e), size = rd32(e + 4), csize = rd32(e + 8);
        uint32_t name_len = rd32(e + 17);
        const char *name = (const char *)e + 21;
        pos += 21 + (size_t)name_len;
        if (!e[12]) {
            ok = write_member(ctx, name, d + offset, size);
            continue;
        }
        if (size > cap) {
            free(buf);
            cap = size;
            buf = malloc(cap);
            if (!buf) return bench_fail(ctx, "out of memory");
        }
        uLongf got = size;
        if (uncompress(buf, &got, d + offset, csize) != Z_OK || got != size)
            ok = bench_fail(ctx, "%s: inflate failed", name);
        else
            ok = write_member(ctx, name, buf, size);
    }
    free(buf);
    return ok;
}

/* Extracts once and compares every file with the generated content. */
static bool check_extract(bench_ctx *ctx, bool (*step)(bench_ctx *))
{
    if (!step(ctx)) return false;
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open(kw.archive.data, kw.archive.len, NULL, &w, &err) != SV_OK)
        return bench_fail(ctx, "sv_kiwad_open failed");
    const uint8_t *want = kw.content;
    size_t checked = 0;
    sv_kiwad_member m;
    uint8_t *got = NULL;
    bool ok = true;
    for (size_t i = 0; ok && sv_kiwad_member_at(w, i, &m); i++, want += m.size) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", out_dir, m.name);
        FILE *f = fopen(path, "rb");
        got = realloc(got, m.size + 1);
        size_t n = f && got ? fread(got, 1, m.size + 1, f) : 0;
        if (f) fclose(f);
        if (n != m.size || memcmp(got, want, m.size) != 0)
            ok = bench_fail(ctx, "%s: not the generated content", m.name);
        checked++;
    }
    free(got);
    sv_kiwad_close(w);
    extract_after(ctx);
    if (ok && checked != kw.count) ok = bench_fail(ctx, "%zu members checked", checked);
    return ok;
}

static bool serval_extract_setup(bench_ctx *ctx) { return check_extract(ctx, serval_extract_step); }
static bool zlib_extract_setup(bench_ctx *ctx) { return check_extract(ctx, zlib_extract_step); }

static const bench_impl serval_extract = {"serval", BENCH_MEM_ALLOC, serval_extract_setup,
                                          serval_extract_step, extract_after};
static const bench_impl zlib_extract = {"zlib+write", BENCH_MEM_RSS, zlib_extract_setup,
                                        zlib_extract_step, extract_after};

const bench_workload bench_workloads_kiwad[] = {
    {"kiwad.list",
     "list a 10,000-member .wad (sv_kiwad_open, every check) vs a plain loop over its table",
     kw_input,
     {&serval_list, &table_list, NULL}},
    {"kiwad.extract",
     "write every member of the .wad to files (sv_kiwad_read) vs zlib's inflate + the same writes",
     kw_input,
     {&serval_extract, &zlib_extract, NULL}},
    {NULL, NULL, NULL, {NULL}},
};
