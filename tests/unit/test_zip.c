/* serval's zip reader and writer (src/compress/zip.h).
 *
 * Oracles: the CRC-32 check value of "123456789" (0xCBF43926, the CRC
 * catalogue's ISO-HDLC entry); Python's zipfile module and Info-ZIP's
 * unzip, which must read what the writer writes (skipped with a message
 * when absent); the shared .resonitepackage samples, whose members'
 * sizes and CRCs below are the ones `unzip -lv` lists for them. Hostile
 * archives are built by hand from APPNOTE.TXT's layouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compress/compress.h"
#include "compress/zip.h"
#include "core/byteio.h"
#include "helper_alloc.h"
#include "helper_resonite.h"

static const char digits[] = "123456789";

/* An archive of four members: stored digits, a deflated text, an empty
 * stored member and a UTF-8 name. */
static void write_sample(sv_buf *out, const uint8_t *text, size_t text_len)
{
    sv_zip_writer w;
    sv_error err;
    sv_error_clear(&err);
    sv__compress_zip_writer_init(&w, out, 0, "zip");
    assert_int_equal(
        sv__compress_zip_writer_add(&w, "digits.txt", (const uint8_t *)digits, 9, SV_ZIP_STORED, 0, &err),
        SV_OK);
    assert_int_equal(sv__compress_zip_writer_add(&w, "Assets/text", text, text_len, SV_ZIP_DEFLATED, 9, &err),
                     SV_OK);
    assert_int_equal(sv__compress_zip_writer_add(&w, "empty", NULL, 0, SV_ZIP_STORED, 0, &err), SV_OK);
    assert_int_equal(
        sv__compress_zip_writer_add(&w, "caf\xc3\xa9", (const uint8_t *)"x", 1, SV_ZIP_DEFLATED, -1, &err),
        SV_OK);
    assert_int_equal(sv__compress_zip_writer_finish(&w, &err), SV_OK);
    sv__compress_zip_writer_free(&w);
}

static void test_crc32(void **state)
{
    (void)state;
    assert_int_equal(sv__compress_crc32(0, (const uint8_t *)digits, 9), 0xCBF43926u);
    /* in two pieces, continuing */
    assert_int_equal(
        sv__compress_crc32(sv__compress_crc32(0, (const uint8_t *)digits, 4), (const uint8_t *)digits + 4, 5),
        0xCBF43926u);
}

static void test_write_then_read(void **state)
{
    (void)state;
    size_t text_len = 200000;
    uint8_t *text = rs_text_bytes(text_len);
    sv_buf out;
    sv_buf_init(&out, NULL);
    write_sample(&out, text, text_len);
    sv_zip z;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv__compress_zip_open(&z, out.data, out.len, NULL, "zip", &err), SV_OK);
    assert_int_equal(z.count, 4);
    assert_string_equal(z.entries[0].name, "digits.txt");
    assert_int_equal(z.entries[0].crc, 0xCBF43926u);
    assert_int_equal(z.entries[0].method, SV_ZIP_STORED);
    assert_int_equal(z.entries[1].method, SV_ZIP_DEFLATED);
    assert_true(z.entries[1].csize < text_len * 3 / 4);    /* ~4 bits of entropy a byte */
    assert_int_equal(z.entries[3].flags & 0x0800, 0x0800); /* UTF-8 name */
    size_t i;
    assert_int_equal(sv__compress_zip_find(&z, "Assets/text", &i), SV_OK);
    assert_int_equal(i, 1);
    assert_int_equal(sv__compress_zip_find(&z, "Assets", &i), SV_ERR_NOT_FOUND);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv__compress_zip_read(&z, 1, UINT64_MAX, &b, &err), SV_OK);
    assert_int_equal(b.len, text_len);
    assert_memory_equal(b.data, text, text_len);
    b.len = 0;
    assert_int_equal(sv__compress_zip_read(&z, 0, 9, &b, &err), SV_OK);
    assert_memory_equal(b.data, digits, 9);
    b.len = 0;
    assert_int_equal(sv__compress_zip_read(&z, 0, 8, &b, &err), SV_ERR_LIMIT);
    b.len = 0;
    assert_int_equal(sv__compress_zip_read(&z, 2, 0, &b, &err), SV_OK);
    assert_int_equal(b.len, 0);
    uint8_t head[4];
    size_t got;
    assert_int_equal(sv__compress_zip_head(&z, 1, head, 4, &got, &err), SV_OK);
    assert_int_equal(got, 4);
    assert_memory_equal(head, text, 4);
    assert_int_equal(sv__compress_zip_head(&z, 3, head, 4, &got, &err), SV_OK);
    assert_int_equal(got, 1);
    sv_buf_free(&b);
    sv__compress_zip_close(&z);
    sv_buf_free(&out);
    free(text);
}

/* Runs cmd and returns its whole stdout (malloc'd), or NULL. */
static char *run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - 1 - n, p)) > 0)
        n += k;
    s[n] = 0;
    if (pclose(p) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* Python's zipfile and Info-ZIP's unzip read the writer's archive: names,
 * sizes, methods, CRCs (testzip) and the bytes. */
static void test_other_readers(void **state)
{
    (void)state;
    size_t text_len = 200000;
    uint8_t *text = rs_text_bytes(text_len);
    sv_buf out;
    sv_buf_init(&out, NULL);
    write_sample(&out, text, text_len);
    char path[] = "/tmp/serval-zip-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, out.data, out.len), (ssize_t)out.len);
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import sys, zipfile, zlib\n"
             "z = zipfile.ZipFile(sys.argv[1])\n"
             "assert z.testzip() is None\n"
             "for i in z.infolist():\n"
             "    d = z.read(i)\n"
             "    print(i.filename, i.file_size, i.compress_type, \"%%08x\" %% zlib.crc32(d))\n"
             "' %s 2>&1",
             path);
    char *py = run(cmd);
    if (!py) {
        printf("skipped: python3 with zipfile is not available\n");
    } else {
        char want[512];
        snprintf(want, sizeof want,
                 "digits.txt 9 0 cbf43926\nAssets/text %zu 8 %08x\nempty 0 0 00000000\n"
                 "caf\xc3\xa9 1 8 8cdc1683\n",
                 text_len, sv__compress_crc32(0, text, text_len));
        assert_string_equal(py, want);
        free(py);
    }
    snprintf(cmd, sizeof cmd, "unzip -tq %s", path);
    char *t = run(cmd);
    if (!t) {
        printf("skipped: unzip is not available or failed\n");
        assert_true(access("/usr/bin/unzip", X_OK) != 0); /* failed only if absent */
    } else {
        assert_non_null(strstr(t, "No errors detected"));
        free(t);
        snprintf(cmd, sizeof cmd, "unzip -l %s | tail -1", path);
        char *l = run(cmd);
        assert_non_null(l);
        char want[64];
        snprintf(want, sizeof want, "%zu", text_len + 9 + 0 + 1);
        assert_non_null(strstr(l, want));
        assert_non_null(strstr(l, "4 files"));
        free(l);
    }
    unlink(path);
    sv_buf_free(&out);
    free(text);
}

/* The samples, as `unzip -lv` lists them. */
static void test_samples(void **state)
{
    (void)state;
    size_t n;
    uint8_t *data = rs_read_file(PACKAGE_DIR "loading_standin.resonitepackage", &n);
    if (!data) {
        printf("skipped: the shared .resonitepackage samples are absent\n");
        skip();
    }
    static const struct {
        const char *name;
        uint32_t size, csize, crc;
    } want[] = {
        {"Assets/30a0bc21f298c2e75427245468405849b6c7ea67eb9ced14ecbc5dc1ef3eabb3", 2976, 1827,
         0xaa109661},
        {"Metadata/30a0bc21f298c2e75427245468405849b6c7ea67eb9ced14ecbc5dc1ef3eabb3.bitmap", 577,
         302, 0x55b9500a},
        {"Assets/6ca27cd0f61e6490eb7bcbedd54fb7907c75aeffffce816508972243058a82cd", 6780, 6785,
         0x6185e32e},
        {"R-Main.record", 783, 450, 0x44068fea},
    };
    sv_zip z;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv__compress_zip_open(&z, data, n, NULL, "zip", &err), SV_OK);
    assert_int_equal(z.count, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(z.entries[i].name, want[i].name);
        assert_int_equal(z.entries[i].usize, want[i].size);
        assert_int_equal(z.entries[i].csize, want[i].csize);
        assert_int_equal(z.entries[i].crc, want[i].crc);
        sv_buf b;
        sv_buf_init(&b, NULL);
        assert_int_equal(sv__compress_zip_read(&z, i, UINT64_MAX, &b, &err), SV_OK); /* CRC checked */
        assert_int_equal(b.len, want[i].size);
        sv_buf_free(&b);
    }
    sv__compress_zip_close(&z);
    free(data);
}

/* ---- hostile archives ----------------------------------------------------------- */

static sv_status open_read_all(const uint8_t *d, size_t n)
{
    uint8_t *copy = rs_copy(d, n); /* exact size: ASan sees any overread */
    sv_zip z;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv__compress_zip_open(&z, copy, n, NULL, "zip", &err);
    if (st == SV_OK) {
        for (size_t i = 0; i < z.count && st == SV_OK; i++) {
            sv_buf b;
            sv_buf_init(&b, NULL);
            st = sv__compress_zip_read(&z, i, 1 << 20, &b, &err);
            sv_buf_free(&b);
        }
        sv__compress_zip_close(&z);
    }
    if (st != SV_OK) assert_true(err.message[0] != 0);
    free(copy);
    return st;
}

/* The sample archive with one field changed; returns its status. */
static sv_status patched(const sv_buf *orig, size_t at, const void *bytes, size_t n)
{
    uint8_t *d = rs_copy(orig->data, orig->len);
    memcpy(d + at, bytes, n);
    sv_status st = open_read_all(d, orig->len);
    free(d);
    return st;
}

static void test_hostile(void **state)
{
    (void)state;
    size_t text_len = 5000;
    uint8_t *text = rs_text_bytes(text_len);
    sv_buf a;
    sv_buf_init(&a, NULL);
    write_sample(&a, text, text_len);
    assert_int_equal(open_read_all(a.data, a.len), SV_OK);
    /* every truncation fails cleanly (the end record is the last 22 bytes) */
    for (size_t n = 0; n < a.len; n++)
        assert_int_not_equal(open_read_all(a.data, n), SV_OK);
    /* every byte changed, one at a time: a status, never a crash or a leak
     * (ASan watches); inside the stored member or the CRCs, a failure */
    size_t crc0 = sv__core_load_u32le(a.data + a.len - 22 + 16) + 16;
    for (size_t at = 0; at < a.len; at++) {
        uint8_t flipped = a.data[at] ^ 0xA5;
        sv_status st = patched(&a, at, &flipped, 1);
        bool stored_data = at >= 30 + 10 && at < 30 + 10 + 9; /* "digits.txt", 9 bytes */
        if (stored_data || (at >= crc0 && at < crc0 + 4)) assert_int_not_equal(st, SV_OK);
    }
    size_t end = a.len - 22, dir_at = sv__core_load_u32le(a.data + end + 16);
    /* a member count the directory cannot hold: refused before allocating */
    uint8_t many[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    assert_int_equal(patched(&a, end + 8, many, 4), SV_ERR_SYNTAX);
    /* a stored member's byte changed: the CRC says so */
    uint8_t x = 'X';
    size_t data0 = 30 + strlen("digits.txt");
    assert_int_equal(patched(&a, data0, &x, 1), SV_ERR_SYNTAX);
    /* the deflated member claims 100 MB: over the reader's 1 MiB limit */
    size_t c1 = dir_at + 46 + strlen("digits.txt");
    uint8_t big[4] = {0x00, 0xE1, 0xF5, 0x05};
    assert_int_equal(patched(&a, c1 + 24, big, 4), SV_ERR_LIMIT);
    /* ... and with a limit above that, more than deflate can expand to */
    {
        uint8_t *d = rs_copy(a.data, a.len);
        memcpy(d + c1 + 24, big, 4);
        sv_zip z;
        sv_error err;
        sv_error_clear(&err);
        assert_int_equal(sv__compress_zip_open(&z, d, a.len, NULL, "zip", &err), SV_OK);
        sv_buf b;
        sv_buf_init(&b, NULL);
        assert_int_equal(sv__compress_zip_read(&z, 1, UINT64_MAX, &b, &err), SV_ERR_SYNTAX);
        assert_int_equal(b.cap, 0); /* nothing was allocated for it */
        sv__compress_zip_close(&z);
        free(d);
    }
    /* encrypted, another method, zip64 sizes */
    uint8_t enc[2] = {0x01, 0x00}, m12[2] = {12, 0};
    assert_int_equal(patched(&a, dir_at + 8, enc, 2), SV_ERR_UNSUPPORTED);
    assert_int_equal(patched(&a, dir_at + 10, m12, 2), SV_ERR_SYNTAX); /* local says 0 */
    assert_int_equal(patched(&a, dir_at + 20, many, 4), SV_ERR_UNSUPPORTED);
    /* the second member's local header offset pointed at the first's:
     * overlapping members */
    uint8_t zero[4] = {0};
    size_t c1_off = dir_at + 46 + strlen("digits.txt") + 42;
    assert_int_not_equal(patched(&a, c1_off, zero, 4), SV_OK);
    /* multi-disk */
    uint8_t one[2] = {1, 0};
    assert_int_equal(patched(&a, end + 4, one, 2), SV_ERR_UNSUPPORTED);
    /* garbage after the archive: no end record whose comment reaches the end */
    sv_buf g;
    sv_buf_init(&g, NULL);
    sv_buf_append(&g, a.data, a.len);
    sv_buf_append(&g, "junk", 4);
    assert_int_equal(open_read_all(g.data, g.len), SV_ERR_SYNTAX);
    sv_buf_free(&g);
    sv_buf_free(&a);
    free(text);
}

static void test_writer_limits(void **state)
{
    (void)state;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_zip_writer w;
    sv_error err;
    sv_error_clear(&err);
    sv__compress_zip_writer_init(&w, &out, 0, "zip");
    assert_int_equal(sv__compress_zip_writer_add(&w, "", (const uint8_t *)"x", 1, SV_ZIP_STORED, 0, &err),
                     SV_ERR_USAGE);
    assert_int_equal(sv__compress_zip_writer_add(&w, "a", (const uint8_t *)"x", 1, 12, 0, &err),
                     SV_ERR_USAGE);
    sv__compress_zip_writer_free(&w);
    /* the same members give the same bytes (a fixed DOS time) */
    sv_buf a, b;
    sv_buf_init(&a, NULL);
    sv_buf_init(&b, NULL);
    uint8_t *text = rs_text_bytes(1000);
    write_sample(&a, text, 1000);
    write_sample(&b, text, 1000);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    /* 1980-01-01 00:00: date 0x0021, time 0 in the first local header */
    assert_int_equal(sv__core_load_u16le(a.data + 10), 0);
    assert_int_equal(sv__core_load_u16le(a.data + 12), 0x0021);
    free(text);
    sv_buf_free(&a);
    sv_buf_free(&b);
    sv_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),         cmocka_unit_test(test_write_then_read),
        cmocka_unit_test(test_other_readers), cmocka_unit_test(test_samples),
        cmocka_unit_test(test_hostile),       cmocka_unit_test(test_writer_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
