/* KIWAD archives (serval/kiwad.h): the CRC's check values, hand-assembled
 * archives whose every byte is derived in the comments, the writer's layout,
 * repacking, the sample archives (skipped when ../shared/samples is absent)
 * and hostile tables and members. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/kiwad.h"

/* ---- building archives by hand --------------------------------------------- */

typedef struct ent {
    uint32_t offset, size, csize;
    uint8_t flag;
    uint32_t crc;
    const char *name; /* written with name_len = strlen + 1 unless name_len set */
    uint32_t name_len;
    size_t raw_name_len; /* bytes of name to copy (0: strlen + 1) */
} ent;

static size_t put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
    return 4;
}

/* header + table; returns the table end */
static size_t build(uint8_t *buf, uint32_t version, uint32_t count, const ent *e, size_t n)
{
    size_t p = 0;
    memcpy(buf, "KIWAD", 5);
    p = 5;
    p += put32(buf + p, version);
    p += put32(buf + p, count);
    if (version >= 2) buf[p++] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t raw = e[i].raw_name_len ? e[i].raw_name_len : strlen(e[i].name) + 1;
        p += put32(buf + p, e[i].offset);
        p += put32(buf + p, e[i].size);
        p += put32(buf + p, e[i].csize);
        buf[p++] = e[i].flag;
        p += put32(buf + p, e[i].crc);
        p += put32(buf + p, e[i].name_len ? e[i].name_len : (uint32_t)raw);
        memcpy(buf + p, e[i].name, raw);
        p += raw;
    }
    return p;
}

static sv_status open_status(const uint8_t *b, size_t n, sv_error *err)
{
    sv_kiwad *w = NULL;
    sv_error_clear(err);
    sv_status st = sv_kiwad_open(b, n, NULL, &w, err);
    sv_kiwad_close(w);
    return st;
}

/* ---- the CRC ----------------------------------------------------------------- */

static void test_crc_check_values(void **state)
{
    (void)state;
    /* spec §6.1: initial 0, no final xor (standard CRC-32 gives CBF43926) */
    assert_int_equal(sv_kiwad_crc(0, (const uint8_t *)"123456789", 9), 0x2DFD2D88u);
    assert_int_equal(sv_kiwad_crc(0, (const uint8_t *)"KIWAD", 5), 0x381FBD17u);
    assert_int_equal(sv_kiwad_crc(0, NULL, 0), 0u);
    static const uint8_t zeros[64] = {0};
    assert_int_equal(sv_kiwad_crc(0, zeros, sizeof zeros), 0u);
    /* incremental = whole */
    assert_int_equal(sv_kiwad_crc(sv_kiwad_crc(0, (const uint8_t *)"1234", 4),
                                  (const uint8_t *)"56789", 5),
                     0x2DFD2D88u);
}

/* ---- a hand-assembled archive ------------------------------------------------ */

/* Version 1, two members, KingsIsle's layout (sorted, data in table order):
 *   header 13 bytes: "KIWAD" 01000000 02000000
 *   entry "a.mp3": 21 + 6 = 27 bytes; entry "e.txt": 21 + 6 = 27 bytes
 *   table end 13 + 54 = 67: "hi" (stored) at 67, the empty zlib stream
 *   78 DA 03 00 00 00 00 01 (spec §5) at 69, end 77.
 * CRCs from Python's zlib: crc32(x, 0xFFFFFFFF) ^ 0xFFFFFFFF:
 *   "hi" 994A3853; the empty stream 81959416 (also in the samples' manifest). */
static const uint8_t v1_expected[] = {
    'K', 'I', 'W', 'A', 'D', 1, 0, 0, 0, 2, 0, 0, 0,
    /* a.mp3: offset 67, size 2, csize FFFFFFFF, stored, crc, name_len 6 */
    67, 0, 0, 0, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0x53, 0x38, 0x4A, 0x99, 6, 0, 0, 0,
    'a', '.', 'm', 'p', '3', 0,
    /* e.txt: offset 69, size 0, csize 8, zlib, crc, name_len 6 */
    69, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 1, 0x16, 0x94, 0x95, 0x81, 6, 0, 0, 0,
    'e', '.', 't', 'x', 't', 0,
    'h', 'i', 0x78, 0xDA, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01};

static void test_write_v1_layout(void **state)
{
    (void)state;
    /* given out of order: the writer sorts */
    sv_kiwad_entry e[] = {{"e.txt", (const uint8_t *)"", 0}, {"a.mp3", (const uint8_t *)"hi", 2}};
    sv_kiwad_write_opts o;
    sv_kiwad_write_opts_init(&o);
    o.version = 1;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_write(e, 2, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, sizeof v1_expected);
    assert_memory_equal(out.data, v1_expected, sizeof v1_expected);
    sv_buf_free(&out);
}

static void test_read_v1(void **state)
{
    (void)state;
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(v1_expected, sizeof v1_expected, NULL, &w, &err), SV_OK);
    sv_kiwad_info info = sv_kiwad_get_info(w);
    assert_int_equal(info.version, 1);
    assert_int_equal(info.flags, -1);
    assert_int_equal(info.table_end, 67);
    sv_kiwad_member m;
    assert_true(sv_kiwad_member_at(w, 1, &m));
    assert_string_equal(m.name, "e.txt");
    assert_int_equal(m.offset, 69);
    assert_int_equal(m.stored_len, 8);
    assert_true(m.compressed);
    assert_false(m.unpatched);
    size_t i;
    assert_int_equal(sv_kiwad_find(w, "a.mp3", &i), SV_OK);
    assert_int_equal(i, 0);
    assert_int_equal(sv_kiwad_find(w, "a.mp", &i), SV_ERR_NOT_FOUND);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_kiwad_read(w, 0, NULL, true, &b, &err), SV_OK);
    assert_int_equal(b.len, 2);
    assert_memory_equal(b.data, "hi", 2);
    b.len = 0;
    assert_int_equal(sv_kiwad_read(w, 1, NULL, true, &b, &err), SV_OK);
    assert_int_equal(b.len, 0);
    sv_buf_free(&b);
    sv_kiwad_close(w);
}

static void test_write_v2_flags(void **state)
{
    (void)state;
    sv_kiwad_entry e[] = {{"x.ogg", (const uint8_t *)"hi", 2}};
    sv_kiwad_write_opts o;
    sv_kiwad_write_opts_init(&o);
    o.flags = 1;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_write(e, 1, &o, &out, &err), SV_OK);
    /* 14-byte header ending in the flags byte, then the entry at 14, data at
     * 14 + 21 + 6 = 41 */
    static const uint8_t head[] = {'K', 'I', 'W', 'A', 'D', 2, 0, 0, 0, 1, 0, 0, 0, 1, 41, 0, 0, 0};
    assert_int_equal(out.len, 43);
    assert_memory_equal(out.data, head, sizeof head);
    sv_buf_free(&out);
}

/* A version above 2 is read with version 2's layout (spec: every reader
 * takes "version >= 2" as "flags byte present"): v1_expected with version
 * 3, a flags byte 0x01 after the count and both data offsets one further. */
static void test_read_v3_as_v2(void **state)
{
    (void)state;
    uint8_t v3[sizeof v1_expected + 1];
    memcpy(v3, v1_expected, 13);
    v3[5] = 3;
    v3[13] = 1;
    memcpy(v3 + 14, v1_expected + 13, sizeof v1_expected - 13);
    put32(v3 + 14, 68);      /* a.mp3: first entry's offset */
    put32(v3 + 14 + 27, 70); /* e.txt */
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(v3, sizeof v3, NULL, &w, &err), SV_OK);
    sv_kiwad_info info = sv_kiwad_get_info(w);
    assert_int_equal(info.version, 3);
    assert_int_equal(info.flags, 1);
    assert_int_equal(info.table_end, 68);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_kiwad_read(w, 0, NULL, true, &b, &err), SV_OK);
    assert_int_equal(b.len, 2);
    assert_memory_equal(b.data, "hi", 2);
    /* repacked unchanged: the same bytes, version 3 kept */
    sv_kiwad_change keep[2] = {{true, NULL, 0}, {true, NULL, 0}};
    b.len = 0;
    assert_int_equal(sv_kiwad_repack(w, keep, NULL, 0, 9, &b, &err), SV_OK);
    assert_int_equal(b.len, sizeof v3);
    assert_memory_equal(b.data, v3, sizeof v3);
    sv_buf_free(&b);
    sv_kiwad_close(w);
}

/* ---- repack ------------------------------------------------------------------ */

static void test_repack_keep_and_change(void **state)
{
    (void)state;
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(v1_expected, sizeof v1_expected, NULL, &w, &err), SV_OK);
    sv_kiwad_change keep[2] = {{true, NULL, 0}, {true, NULL, 0}};
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_kiwad_repack(w, keep, NULL, 0, 9, &out, &err), SV_OK);
    assert_int_equal(out.len, sizeof v1_expected);
    assert_memory_equal(out.data, v1_expected, sizeof v1_expected);
    /* "a.mp3" grows from 2 to 3 bytes: e.txt's data moves by one, stays zlib */
    sv_kiwad_change ch[2] = {{false, (const uint8_t *)"hey", 3}, {true, NULL, 0}};
    out.len = 0;
    assert_int_equal(sv_kiwad_repack(w, ch, NULL, 0, 9, &out, &err), SV_OK);
    assert_int_equal(out.len, sizeof v1_expected + 1);
    sv_kiwad *w2;
    assert_int_equal(sv_kiwad_open(out.data, out.len, NULL, &w2, &err), SV_OK);
    sv_kiwad_member m;
    assert_true(sv_kiwad_member_at(w2, 1, &m));
    assert_int_equal(m.offset, 70);
    assert_int_equal(m.crc, 0x81959416u);
    sv_buf b;
    sv_buf_init(&b, NULL);
    assert_int_equal(sv_kiwad_read(w2, 0, NULL, true, &b, &err), SV_OK);
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, "hey", 3);
    sv_buf_free(&b);
    sv_kiwad_close(w2);
    sv_buf_free(&out);
    sv_kiwad_close(w);
}

/* ---- hostile tables ---------------------------------------------------------- */

static void test_hostile_header(void **state)
{
    (void)state;
    sv_error err;
    assert_int_equal(open_status((const uint8_t *)"KIWAX\1\0\0\0\0\0\0\0", 13, &err),
                     SV_ERR_SYNTAX);
    assert_string_equal(err.format, "kiwad");
    assert_int_equal(open_status((const uint8_t *)"KIWAD\1\0\0", 8, &err), SV_ERR_TRUNCATED);
    /* version 2 without its flags byte */
    assert_int_equal(open_status((const uint8_t *)"KIWAD\2\0\0\0\0\0\0\0", 13, &err),
                     SV_ERR_TRUNCATED);
    /* version 0: never written, refused */
    assert_int_equal(open_status((const uint8_t *)"KIWAD\0\0\0\0\0\0\0\0", 13, &err),
                     SV_ERR_UNSUPPORTED);
    assert_int_equal(err.byte_offset, 5);
    /* version 3 without its flags byte: read as version 2, so truncated */
    assert_int_equal(open_status((const uint8_t *)"KIWAD\3\0\0\0\0\0\0\0", 13, &err),
                     SV_ERR_TRUNCATED);
    /* a count of 0xFFFFFFFF in a 13-byte file: refused before allocating */
    assert_int_equal(open_status((const uint8_t *)"KIWAD\1\0\0\0\xFF\xFF\xFF\xFF", 13, &err),
                     SV_ERR_TRUNCATED);
    assert_int_equal(err.byte_offset, 9);
    /* an empty archive is valid */
    assert_int_equal(open_status((const uint8_t *)"KIWAD\2\0\0\0\0\0\0\0\0", 14, &err), SV_OK);
}

static void expect_name_refused(const char *name, size_t raw_len, sv_status want)
{
    uint8_t buf[256];
    ent e = {0, 0, 0, 0, 0, name, 0, raw_len};
    size_t n = build(buf, 1, 1, &e, 1);
    /* the member (empty, stored) points at the table end */
    put32(buf + 13, (uint32_t)n);
    sv_error err;
    assert_int_equal(open_status(buf, n, &err), want);
    assert_string_equal(err.format, "kiwad");
    assert_int_equal(err.byte_offset, 13 + 21);
}

static void test_hostile_names(void **state)
{
    (void)state;
    expect_name_refused("../x", 0, SV_ERR_REFUSED);
    expect_name_refused("a/../../x", 0, SV_ERR_REFUSED);
    expect_name_refused("/etc/passwd", 0, SV_ERR_REFUSED);
    expect_name_refused("C:x", 0, SV_ERR_REFUSED);
    expect_name_refused("a\\..\\x", 0, SV_ERR_REFUSED);
    expect_name_refused("a//b", 0, SV_ERR_REFUSED);
    expect_name_refused("a/./b", 0, SV_ERR_REFUSED);
    expect_name_refused("dir/", 0, SV_ERR_REFUSED);
    expect_name_refused("ok\0../x", 8, SV_ERR_REFUSED);      /* NUL inside */
    expect_name_refused("caf\xC3", 0, SV_ERR_REFUSED);        /* cut UTF-8 */
    expect_name_refused("", 0, SV_ERR_SYNTAX);                /* name_len 1 */
    expect_name_refused("abc", 3, SV_ERR_SYNTAX);             /* no NUL */
    /* d..e.txt is an ordinary name */
    uint8_t buf[64];
    ent e = {0, 0, 0, 0, 0, "d..e.txt", 0, 0};
    size_t n = build(buf, 1, 1, &e, 1);
    put32(buf + 13, (uint32_t)n);
    sv_error err;
    assert_int_equal(open_status(buf, n, &err), SV_OK);
}

static void test_hostile_table(void **state)
{
    (void)state;
    uint8_t buf[256];
    sv_error err;
    /* name_len runs past the end */
    ent e = {0, 0, 0, 0, 0, "a", 200, 2};
    size_t n = build(buf, 1, 1, &e, 1);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_TRUNCATED);
    /* count 2, one entry: the table is cut */
    ent one = {0, 0, 0, 0, 0, "a", 0, 0};
    n = build(buf, 1, 2, &one, 1);
    memset(buf + n, 0, 20);
    assert_int_equal(open_status(buf, n + 20, &err), SV_ERR_TRUNCATED);
    /* offset past the end (katsuba's oob.wad: 9999 in 37 bytes) */
    ent oob = {9999, 100, 0, 0, 0, "a", 0, 0};
    n = build(buf, 1, 1, &oob, 1);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_TRUNCATED);
    assert_non_null(strstr(err.message, "'a'"));
    /* offset + size wraps 32 bits */
    ent wrap = {0xFFFFFFF0u, 0x20, 0, 0, 0, "a", 0, 0};
    n = build(buf, 1, 1, &wrap, 1);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_TRUNCATED);
    /* duplicate names, a file that is also a directory, overlapping data */
    ent dup[2] = {{0, 0, 0, 0, 0, "a", 0, 0}, {0, 0, 0, 0, 0, "a", 0, 0}};
    n = build(buf, 1, 2, dup, 2);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_REFUSED);
    ent dir[2] = {{0, 0, 0, 0, 0, "a/b", 0, 0}, {0, 0, 0, 0, 0, "a", 0, 0}};
    n = build(buf, 1, 2, dir, 2);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_REFUSED);
    /* A member that is another's directory, not next to it in name order
     * ('.' sorts before '/'), in a sorted table and deeper down. */
    ent dir2[3] = {{0, 0, 0, 0, 0, "a", 0, 0}, {0, 0, 0, 0, 0, "a.b", 0, 0},
                   {0, 0, 0, 0, 0, "a/c", 0, 0}};
    n = build(buf, 1, 3, dir2, 3);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_REFUSED);
    assert_non_null(strstr(err.message, "'a' is also its directory"));
    ent dir3[3] = {{0, 0, 0, 0, 0, "x/y", 0, 0}, {0, 0, 0, 0, 0, "x/y.q", 0, 0},
                   {0, 0, 0, 0, 0, "x/y/z", 0, 0}};
    n = build(buf, 1, 3, dir3, 3);
    assert_int_equal(open_status(buf, n, &err), SV_ERR_REFUSED);
    assert_non_null(strstr(err.message, "'x/y' is also its directory"));
    /* names sharing directories, sorted and not: fine */
    ent tree[4] = {{0, 0, 0, 0, 0, "d/a", 0, 0}, {0, 0, 0, 0, 0, "d/b", 0, 0},
                   {0, 0, 0, 0, 0, "d/c/e", 0, 0}, {0, 0, 0, 0, 0, "e/f", 0, 0}};
    n = build(buf, 1, 4, tree, 4);
    assert_int_equal(open_status(buf, n, &err), SV_OK);
    ent shuffled[4] = {tree[2], tree[3], tree[0], tree[1]};
    n = build(buf, 1, 4, shuffled, 4);
    assert_int_equal(open_status(buf, n, &err), SV_OK);
    ent ov[2] = {{0, 4, 0, 0, 0, "a", 0, 0}, {2, 4, 0, 0, 0, "b", 0, 0}};
    n = build(buf, 1, 2, ov, 2);
    memset(buf + n, 'x', 8);
    put32(buf + 13, (uint32_t)n);
    put32(buf + 13 + 23, (uint32_t)n + 2);
    ov[0].crc = 0;
    assert_int_equal(open_status(buf, n + 8, &err), SV_ERR_REFUSED);
    assert_non_null(strstr(err.message, "overlaps"));
}

static void test_hostile_members(void **state)
{
    (void)state;
    uint8_t buf[256];
    sv_error err;
    sv_kiwad *w;
    sv_buf b;
    sv_buf_init(&b, NULL);
    /* CRC mismatch: "hi" with CRC 1 */
    ent bad = {0, 2, 0xFFFFFFFFu, 0, 1, "a", 0, 0};
    size_t n = build(buf, 1, 1, &bad, 1);
    put32(buf + 13, (uint32_t)n);
    memcpy(buf + n, "hi", 2);
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(buf, n + 2, NULL, &w, &err), SV_OK);
    assert_int_equal(sv_kiwad_read(w, 0, NULL, true, &b, &err), SV_ERR_SYNTAX);
    assert_non_null(strstr(err.message, "CRC mismatch"));
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_read(w, 0, NULL, false, &b, &err), SV_OK); /* --no-verify */
    sv_kiwad_close(w);
    /* unpatched: zeros with a non-zero CRC; a zero range with CRC 0 is genuine */
    ent up = {0, 4, 0xFFFFFFFFu, 0, 0x1234, "a", 0, 0};
    n = build(buf, 1, 1, &up, 1);
    put32(buf + 13, (uint32_t)n);
    memset(buf + n, 0, 4);
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(buf, n + 4, NULL, &w, &err), SV_OK);
    sv_kiwad_member m;
    sv_kiwad_member_at(w, 0, &m);
    assert_true(m.unpatched);
    assert_int_equal(sv_kiwad_read(w, 0, NULL, true, &b, &err), SV_ERR_REFUSED);
    sv_kiwad_close(w);
    put32(buf + 13 + 13, 0);
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(buf, n + 4, NULL, &w, &err), SV_OK);
    sv_kiwad_member_at(w, 0, &m);
    assert_false(m.unpatched);
    b.len = 0;
    assert_int_equal(sv_kiwad_read(w, 0, NULL, true, &b, &err), SV_OK);
    assert_int_equal(b.len, 4);
    sv_kiwad_close(w);
    /* zlib: "hello hello hello" at level 9 is 16 bytes (Python's zlib),
     * CRC C2EB00BE; declared 17 (true), 5 (a lie: more comes out), 4 GiB-1
     * (a bomb: refused before inflating) */
    static const uint8_t z[] = {0x78, 0xda, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57,
                                0xc8, 0x40, 0x90, 0x00, 0x3a, 0x2e, 0x06, 0x7d};
    const uint32_t sizes[] = {17, 5, 0xFFFFFFFFu};
    const sv_status want[] = {SV_OK, SV_ERR_LIMIT, SV_ERR_LIMIT};
    for (int k = 0; k < 3; k++) {
        ent ze = {0, sizes[k], 16, 1, 0xC2EB00BEu, "a", 0, 0};
        n = build(buf, 1, 1, &ze, 1);
        put32(buf + 13, (uint32_t)n);
        memcpy(buf + n, z, sizeof z);
        sv_error_clear(&err);
        assert_int_equal(sv_kiwad_open(buf, n + sizeof z, NULL, &w, &err), SV_OK);
        b.len = 0;
        sv_error_clear(&err);
        sv_status st = sv_kiwad_read(w, 0, NULL, true, &b, &err);
        if (k == 1)
            assert_int_not_equal(st, SV_OK); /* the inflater's own error */
        else
            assert_int_equal(st, want[k]);
        if (k == 0) assert_memory_equal(b.data, "hello hello hello", 17);
        if (k > 0) assert_string_equal(err.format, "kiwad");
        assert_true(b.len <= 17);
        sv_kiwad_close(w);
    }
    /* declared too large (20): the stream ends first */
    ent sh = {0, 20, 16, 1, 0xC2EB00BEu, "a", 0, 0};
    n = build(buf, 1, 1, &sh, 1);
    put32(buf + 13, (uint32_t)n);
    memcpy(buf + n, z, sizeof z);
    assert_int_equal(sv_kiwad_open(buf, n + sizeof z, NULL, &w, &err), SV_OK);
    sv_error_clear(&err);
    assert_int_not_equal(sv_kiwad_read(w, 0, NULL, true, &b, &err), SV_OK);
    sv_kiwad_close(w);
    sv_buf_free(&b);
}

/* ---- fault injection ---------------------------------------------------- */

/* Open, read every member, write and repack, every allocation from a. */
static sv_status run_all(const sv_alloc *a)
{
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_kiwad_open(v1_expected, sizeof v1_expected, a, &w, &err);
    if (st != SV_OK) return st;
    sv_buf b;
    sv_buf_init(&b, a);
    for (size_t i = 0; i < sv_kiwad_count(w) && st == SV_OK; i++)
        st = sv_kiwad_read(w, i, NULL, true, &b, &err);
    sv_kiwad_entry e[] = {{"e.txt", (const uint8_t *)"text", 4}, {"a.mp3", (const uint8_t *)"hi", 2}};
    if (st == SV_OK) st = sv_kiwad_write(e, 2, NULL, &b, &err);
    sv_kiwad_change ch[2] = {{false, (const uint8_t *)"hey", 3}, {true, NULL, 0}};
    if (st == SV_OK) st = sv_kiwad_repack(w, ch, e + 0, 0, 9, &b, &err);
    sv_kiwad_entry add = {"z.txt", (const uint8_t *)"new", 3};
    if (st == SV_OK) st = sv_kiwad_repack(w, ch, &add, 1, 9, &b, &err);
    if (st != SV_OK) assert_true(err.message[0] != 0);
    sv_buf_free(&b);
    sv_kiwad_close(w);
    return st;
}

static void test_fault_injection(void **state)
{
    (void)state;
    for (long n = 1; n < 10000; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        sv_status st = run_all(&t.alloc);
        if (st != SV_OK) assert_int_equal(st, SV_ERR_NOMEM);
        assert_int_equal(t.live_bytes, 0);
        if (!t.failures) {
            assert_int_equal(st, SV_OK);
            return;
        }
        assert_int_not_equal(st, SV_OK);
    }
    fail_msg("still allocating after 10000 runs");
}

/* ---- samples ----------------------------------------------------------------- */

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return d;
}

#define SAMPLES "../../shared/samples/kiwad/"

/* katsuba's Test.wad (spec §2.4): its table, every CRC checked, and the
 * writer reproduces it from its contents. */
static void test_sample_test_wad(void **state)
{
    (void)state;
    size_t len;
    uint8_t *d = slurp(SAMPLES "katsuba/Test.wad", &len);
    if (!d) {
        print_message("SKIP: " SAMPLES "katsuba/Test.wad not found\n");
        skip();
    }
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_kiwad_open(d, len, NULL, &w, &err), SV_OK);
    assert_int_equal(sv_kiwad_count(w), 4);
    assert_int_equal(sv_kiwad_get_info(w).table_end, 158);
    static const char *const names[] = {"subdir/subdir_text1.txt", "text1.txt", "text2.txt",
                                        "uncompressed.mp3"};
    static const uint32_t offs[] = {158, 185, 205, 225}, sizes[] = {21, 14, 14, 18};
    static const uint32_t crcs[] = {0xBB35AF28u, 0xCF4D7B4Cu, 0xDE76B27Du, 0x65A073D0u};
    sv_buf contents[4];
    sv_kiwad_entry e[4];
    for (size_t i = 0; i < 4; i++) {
        sv_kiwad_member m;
        assert_true(sv_kiwad_member_at(w, i, &m));
        assert_string_equal(m.name, names[i]);
        assert_int_equal(m.offset, offs[i]);
        assert_int_equal(m.size, sizes[i]);
        assert_int_equal(m.crc, crcs[i]);
        sv_buf_init(&contents[i], NULL);
        assert_int_equal(sv_kiwad_read(w, i, NULL, true, &contents[i], &err), SV_OK);
        assert_int_equal(contents[i].len, sizes[i]);
        e[3 - i] = (sv_kiwad_entry){names[i], contents[i].data, contents[i].len};
    }
    sv_kiwad_write_opts o;
    sv_kiwad_write_opts_init(&o);
    o.version = 1;
    sv_buf out;
    sv_buf_init(&out, NULL);
    assert_int_equal(sv_kiwad_write(e, 4, &o, &out, &err), SV_OK);
    assert_int_equal(out.len, len);
    assert_memory_equal(out.data, d, len);
    sv_buf_free(&out);
    for (size_t i = 0; i < 4; i++) sv_buf_free(&contents[i]);
    sv_kiwad_close(w);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc_check_values),
        cmocka_unit_test(test_write_v1_layout),
        cmocka_unit_test(test_read_v1),
        cmocka_unit_test(test_write_v2_flags),
        cmocka_unit_test(test_read_v3_as_v2),
        cmocka_unit_test(test_repack_keep_and_change),
        cmocka_unit_test(test_hostile_header),
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_hostile_table),
        cmocka_unit_test(test_hostile_members),
        cmocka_unit_test(test_fault_injection),
        cmocka_unit_test(test_sample_test_wad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
