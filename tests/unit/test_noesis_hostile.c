/* NoesisGUI NSDH: hostile inputs. Every malformed file must fail with a
 * clear error naming the byte offset (and the tree path where there is
 * one), never crash, and never allocate more than the input justifies.
 *
 * Files are built here by a small builder (one chunk, little-endian) so
 * every offset is known:
 *   0  header (12)         12 chunkSize        20 stringListSize   28 "Root\0"
 *   33 componentListSize   41 {classId 0, version 1}
 *   49 metadataSize        57 mdStringsSize    65 "a\0b\0"          69 mdCommandsSize
 *   77 commands (n bytes)  77+n instanceListSize, instances, dataSize, data */
#include "helper_alloc.h"
#include "test_noesis_util.h"

/* One chunk with strings "Root", component {0, 1}, md strings "a", "b",
 * the given commands, n_inst instances of component 0 and the data. */
static void build(bld *f, const uint8_t *cmds, size_t ncmds, uint32_t n_inst, const uint8_t *data,
                  size_t ndata)
{
    f->n = 0;
    raw(f, "HDSN\x04\x00\x00\x00\x01\x00\x00\x00", 12);
    u64(f, 0); /* patched */
    u64(f, 5);
    raw(f, "Root", 5);
    u64(f, 8);
    u32(f, 0);
    u32(f, 1);
    u64(f, 16 + 4 + ncmds);
    u64(f, 4);
    raw(f, "a\0b", 4);
    u64(f, ncmds);
    raw(f, cmds, ncmds);
    u64(f, 4ull * n_inst);
    for (uint32_t i = 0; i < n_inst; i++)
        u32(f, 0);
    u64(f, ndata);
    raw(f, data, ndata);
    for (int i = 0; i < 8; i++)
        f->b[12 + i] = (uint8_t)((uint64_t)(f->n - 20) >> (8 * i));
}

#define CMD_AT 77u
static size_t data_at(size_t ncmds, uint32_t n_inst)
{
    return 77 + ncmds + 8 + 4 * n_inst + 8;
}

/* BeginInstance, UInt32 "a", EndInstance + 4 bytes: a valid base file. */
static const uint8_t ok_cmds[] = {0x00, 0x0D, 0, 0, 0, 0, 0x01};

static void test_builder_is_valid(void **state)
{
    (void)state;
    bld f;
    build(&f, ok_cmds, sizeof ok_cmds, 1, (const uint8_t *)"\x2a\0\0\0", 4);
    sv_value v;
    sv_doc *doc = nt_decode(f.b, f.n, &v);
    sv_value *o = nt_at(nt_get(nt_at(nt_get(&v, "chunks"), 0), "objects"), 0);
    nt_assert_uint(nt_get(o, "a"), 4, 42);
    sv_doc_free(doc);
    nt_round_trip(f.b, f.n);
    /* an instance with no field at all, before any field was read (the
     * fuzzer's first find: an empty field stack) */
    const uint8_t empty[] = {0x00, 0x01};
    build(&f, empty, sizeof empty, 1, NULL, 0);
    doc = nt_decode(f.b, f.n, &v);
    o = nt_at(nt_get(nt_at(nt_get(&v, "chunks"), 0), "objects"), 0);
    assert_int_equal(sv_kind_of(o), SV_OBJECT);
    assert_int_equal(sv_len(o), 0);
    assert_string_equal(nt_class(o), "Root");
    sv_doc_free(doc);
    nt_round_trip(f.b, f.n);
}

static void test_header(void **state)
{
    (void)state;
    bld f;
    build(&f, ok_cmds, sizeof ok_cmds, 1, (const uint8_t *)"\x2a\0\0\0", 4);
    nt_decode_fails(f.b, 11, SV_ERR_TRUNCATED, 0, "12 bytes");
    f.b[0] = 'X';
    nt_decode_fails(f.b, f.n, SV_ERR_SYNTAX, 0, "signature");
    f.b[0] = 'H';
    f.b[4] = 6;
    nt_decode_fails(f.b, f.n, SV_ERR_UNSUPPORTED, 4, "version 6");
    f.b[4] = 1;
    nt_decode_fails(f.b, f.n, SV_ERR_UNSUPPORTED, 4, "version 1");
    f.b[4] = 4;
    f.b[6] = 2;
    nt_decode_fails(f.b, f.n, SV_ERR_SYNTAX, 6, "unicode flag");
    f.b[6] = 0;
    memcpy(f.b + 8, "\xff\xff\xff\xff", 4); /* 4 billion chunks */
    nt_decode_fails(f.b, f.n, SV_ERR_TRUNCATED, 8, "chunks cannot fit");
    memcpy(f.b + 8, "\x00\x00\x00\x00", 4); /* no chunk, then bytes */
    nt_decode_fails(f.b, f.n, SV_ERR_TRAILING, 12, "after the last chunk");
}

static void put64_at(bld *f, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        f->b[at + i] = (uint8_t)(v >> (8 * i));
}

static void test_sizes(void **state)
{
    (void)state;
    bld f;
    build(&f, ok_cmds, sizeof ok_cmds, 1, (const uint8_t *)"\x2a\0\0\0", 4);
    bld g = f;
    put64_at(&g, 12, UINT64_MAX);
    nt_decode_fails(g.b, g.n, SV_ERR_TRUNCATED, 12, "chunk size");
    g = f;
    put64_at(&g, 20, UINT64_MAX); /* would overflow any pointer sum */
    nt_decode_fails(g.b, g.n, SV_ERR_TRUNCATED, 20, "string list size");
    g = f; /* a 7-byte component list (the blocks still add up) */
    memmove(g.b + 48, g.b + 49, g.n - 49);
    g.n--;
    put64_at(&g, 33, 7);
    put64_at(&g, 12, g.n - 20);
    nt_decode_fails(g.b, g.n, SV_ERR_SYNTAX, 33, "multiple of 8");
    g = f;
    put64_at(&g, 57, 3); /* mdStrings 3 + commands do not add up to metadataSize */
    nt_decode_fails(g.b, g.n, SV_ERR_TRUNCATED, 68, "metadata commands size");
    g = f;
    put64_at(&g, 49, 200);
    nt_decode_fails(g.b, g.n, SV_ERR_TRUNCATED, 49, "metadata size");
    g = f; /* the chunk claims one byte more than its blocks */
    put64_at(&g, 12, f.n - 20 - 1);
    nt_decode_fails(g.b, g.n, SV_ERR_TRUNCATED, 77 + 7 + 8 + 4, "data size");
    g = f;
    g.b[g.n++] = 0;
    put64_at(&g, 12, g.n - 20);
    nt_decode_fails(g.b, g.n, SV_ERR_SYNTAX, g.n - 1, "end 1 bytes before");
    /* every truncation fails, none crashes */
    for (size_t n = 0; n < f.n; n++) {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        assert_int_not_equal(sv_noesis_decode(doc, f.b, n, NULL, &v, &err), SV_OK);
        assert_true(err.message[0] != 0);
        sv_doc_free(doc);
    }
}

static void test_strings_and_indices(void **state)
{
    (void)state;
    bld f;
    build(&f, ok_cmds, sizeof ok_cmds, 1, (const uint8_t *)"\x2a\0\0\0", 4);
    bld g = f;
    g.b[32] = 'x'; /* "Rootx": no terminator */
    nt_decode_fails(g.b, g.n, SV_ERR_SYNTAX, 32, "terminator");
    g = f;
    g.b[41] = 2; /* classId 2: inside "Root" */
    nt_decode_fails(g.b, g.n, SV_ERR_RANGE, 41, "classId 2");
    g = f;
    g.b[41] = 9; /* beyond the list */
    nt_decode_fails(g.b, g.n, SV_ERR_RANGE, 41, "classId 9");
    g = f;
    g.b[77 + 7 + 8] = 1; /* instance 0 names component 1 of 1 */
    nt_decode_fails(g.b, g.n, SV_ERR_RANGE, 77 + 7 + 8, "names component 1");
}

static void fails_cmds(const uint8_t *cmds, size_t n, uint32_t n_inst, const uint8_t *data,
                       size_t ndata, sv_status st, uint64_t off, const char *needle)
{
    bld f;
    build(&f, cmds, n, n_inst, data, ndata);
    nt_decode_fails(f.b, f.n, st, off, needle);
}

static void test_commands(void **state)
{
    (void)state;
    const uint8_t four[4] = {0};
    /* unknown command ids */
    const uint8_t unknown[] = {0x00, 0x17, 0, 0, 0, 0, 0x01};
    fails_cmds(unknown, sizeof unknown, 1, four, 4, SV_ERR_SYNTAX, CMD_AT + 1, "id 23");
    const uint8_t unknown2[] = {0x00, 0xFF, 0x01};
    fails_cmds(unknown2, sizeof unknown2, 1, four, 4, SV_ERR_SYNTAX, CMD_AT + 1, "id 127");
    /* desc outside the list, and inside a string */
    const uint8_t desc[] = {0x00, 0x0D, 4, 0, 0, 0, 0x01};
    fails_cmds(desc, sizeof desc, 1, four, 4, SV_ERR_RANGE, CMD_AT + 2, "offset 4");
    const uint8_t mid[] = {0x00, 0x0D, 1, 0, 0, 0, 0x01};
    fails_cmds(mid, sizeof mid, 1, four, 4, SV_ERR_RANGE, CMD_AT + 2, "not the start");
    /* the stream ends inside a command, inside an instance */
    const uint8_t cut[] = {0x00, 0x0D, 0, 0};
    fails_cmds(cut, sizeof cut, 1, four, 4, SV_ERR_TRUNCATED, CMD_AT + 1, "needs 4 more");
    const uint8_t open[] = {0x00, 0x0D, 0, 0, 0, 0};
    fails_cmds(open, sizeof open, 1, four, 4, SV_ERR_TRUNCATED, CMD_AT + 6, "unclosed");
    /* the repeat bit on an End; an End of the wrong kind; misplaced commands */
    const uint8_t rep_end[] = {0x00, 0x81, 1, 0, 0, 0};
    fails_cmds(rep_end, sizeof rep_end, 1, four, 0, SV_ERR_SYNTAX, CMD_AT + 1, "repeat bit");
    const uint8_t wrong_end[] = {0x00, 0x02, 0, 0, 0, 0, 0x05, 0x01};
    fails_cmds(wrong_end, sizeof wrong_end, 1, four, 0, SV_ERR_SYNTAX, CMD_AT + 6,
               "EndArray closes the BeginGroup");
    const uint8_t outside[] = {0x0D, 0, 0, 0, 0};
    fails_cmds(outside, sizeof outside, 0, four, 4, SV_ERR_SYNTAX, CMD_AT, "outside an instance");
    const uint8_t nested[] = {0x00, 0x00, 0x01, 0x01};
    fails_cmds(nested, sizeof nested, 2, four, 0, SV_ERR_SYNTAX, CMD_AT + 1, "inside the");
    /* instances: more described than listed, and fewer */
    fails_cmds(ok_cmds, sizeof ok_cmds, 0, four, 4, SV_ERR_SYNTAX, CMD_AT, "more instances");
    fails_cmds(ok_cmds, sizeof ok_cmds, 2, four, 4, SV_ERR_SYNTAX, CMD_AT + 7, "describe 1");
}

static void test_data(void **state)
{
    (void)state;
    /* data left over / missing: the offset where they diverge */
    uint8_t eight[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    size_t at = data_at(sizeof ok_cmds, 1);
    fails_cmds(ok_cmds, sizeof ok_cmds, 1, eight, 8, SV_ERR_TRAILING, at + 4, "consumed 4 of");
    fails_cmds(ok_cmds, sizeof ok_cmds, 1, eight, 2, SV_ERR_TRUNCATED, at, "needs 4 bytes");
    /* a Ref beyond the instance list */
    const uint8_t ref[] = {0x00, 0x06, 0, 0, 0, 0, 0x01};
    const uint8_t ref1[4] = {1, 0, 0, 0};
    fails_cmds(ref, sizeof ref, 1, ref1, 4, SV_ERR_RANGE, data_at(sizeof ref, 1), "instance 1");
    /* (a Bool that is neither 0 nor 1 is read and kept: test_noesis_variants) */
    /* a String8 longer than the data */
    const uint8_t s[] = {0x00, 0x14, 0, 0, 0, 0, 0x01};
    const uint8_t big_len[6] = {0xff, 0xff, 0xff, 0xff, 'x', 'y'};
    fails_cmds(s, sizeof s, 1, big_len, 6, SV_ERR_TRUNCATED, data_at(sizeof s, 1), "String8");
    /* String16: 2^31 units would overflow a 32-bit byte count */
    const uint8_t s16[] = {0x00, 0x15, 0, 0, 0, 0, 0x01};
    const uint8_t len31[4] = {0, 0, 0, 0x80};
    fails_cmds(s16, sizeof s16, 1, len31, 4, SV_ERR_TRUNCATED, data_at(sizeof s16, 1), "String16");
    /* a name that is not UTF-8 cannot be a key */
    bld f;
    build(&f, ok_cmds, sizeof ok_cmds, 1, eight, 4);
    f.b[65] = 0xff;
    nt_decode_fails(f.b, f.n, SV_ERR_UTF8, CMD_AT + 1, "not valid Unicode");
}

/* Repeat counts must not build a tree out of nothing or allocate for data
 * that is not there. */
static void test_repeat_counts(void **state)
{
    (void)state;
    const uint8_t four[4] = {0};
    /* UInt32* 0xFFFFFFFF over 4 bytes of data: refused before allocating */
    const uint8_t rep[] = {0x00, 0x8D, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0x01};
    fails_cmds(rep, sizeof rep, 1, four, 4, SV_ERR_TRUNCATED, data_at(sizeof rep, 1),
               "needs 17179869180 bytes");
    /* Ref* likewise */
    const uint8_t refs[] = {0x00, 0x86, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0, 0x01};
    fails_cmds(refs, sizeof refs, 1, four, 4, SV_ERR_TRUNCATED, data_at(sizeof refs, 1), "Ref");
    /* BeginGroup* 0xFFFFFFFF with an empty body takes no data at all */
    const uint8_t groups[] = {0x00, 0x82, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0x03, 0x01};
    fails_cmds(groups, sizeof groups, 1, four, 0, SV_ERR_LIMIT, CMD_AT + 1, "repeat counts");
    /* nested repeats multiply: 1000 x 65536 empty groups */
    const uint8_t nest[] = {0x00, 0x82, 0xE8, 0x03, 0, 0, 0, 0, 0,    0,    0x82,
                            0,    0,    1,    0,    2, 0, 0, 0, 0x03, 0x03, 0x01};
    fails_cmds(nest, sizeof nest, 1, four, 0, SV_ERR_LIMIT, CMD_AT + 10, "repeat counts");
    /* BeginInstance* 5 with one instance listed */
    const uint8_t inst[] = {0x80, 5, 0, 0, 0, 0x01};
    fails_cmds(inst, sizeof inst, 1, four, 0, SV_ERR_SYNTAX, CMD_AT, "more instances");
    /* a count-0 repeat still checks its body */
    const uint8_t zero[] = {0x00, 0x82, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0x03, 0x01};
    fails_cmds(zero, sizeof zero, 1, four, 0, SV_ERR_SYNTAX, CMD_AT + 10, "id 127");
}

static void test_depth(void **state)
{
    (void)state;
    static uint8_t cmds[2 + 600 * 6];
    size_t n = 0;
    cmds[n++] = 0x00;
    for (int i = 0; i < 600; i++) {
        cmds[n++] = 0x02;
        n += 4; /* desc 0 */
    }
    fails_cmds(cmds, n, 1, cmds, 0, SV_ERR_DEPTH, CMD_AT + 1 + 5 * 508, "nested deeper");
}

/* Round-trip property on mutated inputs: whatever decodes must encode, and
 * decode again to an equal tree and the same bytes. */
static void mutate_and_check(const uint8_t *src, size_t len, uint32_t seed, int rounds)
{
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    uint32_t x = seed;
    int accepted = 0;
    for (int r = 0; r < rounds; r++) {
        memcpy(buf, src, len);
        int flips = 1 + r % 4;
        for (int k = 0; k < flips; k++) {
            x = x * 1664525u + 1013904223u;
            size_t at = (x >> 8) % len;
            x = x * 1664525u + 1013904223u;
            buf[at] = (uint8_t)(x >> 24);
        }
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        if (sv_noesis_decode(doc, buf, len, NULL, &v, &err) == SV_OK) {
            accepted++;
            sv_buf out = nt_encode(&v, NULL);
            nt_assert_same_bytes(buf, len, &out); /* the decoder keeps every byte */
            sv_buf_free(&out);
        } else {
            assert_true(err.message[0] != 0);
        }
        sv_doc_free(doc);
    }
    printf("mutations: %d of %d accepted, all round-tripped\n", accepted, rounds);
    free(buf);
}

static void test_mutations(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d = nt_read("vectors/noesis/all-commands.le.v5.nsb", &len);
    assert_non_null(d);
    mutate_and_check(d, len, 12345, 3000);
    free(d);
    d = nt_read("vectors/noesis/all-commands.unicode.be.v4.nsb", &len);
    assert_non_null(d);
    mutate_and_check(d, len, 777, 3000);
    free(d);
}

/* Out of memory at every allocation: a status, an error, no leak. */
static void test_fail_nth_alloc(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *d = nt_read("vectors/noesis/all-commands.unicode.le.v5.nsb", &len);
    assert_non_null(d);
    for (long n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        sv_doc *doc = sv_doc_new(&ta.alloc);
        if (!doc) continue;
        sv_value v;
        sv_error err;
        sv_error_clear(&err);
        sv_status st = sv_noesis_decode(doc, d, len, NULL, &v, &err);
        sv_status enc_st = SV_OK;
        if (st == SV_OK) {
            sv_buf out;
            sv_buf_init(&out, &ta.alloc);
            enc_st = sv_noesis_encode(&v, NULL, &out, &err);
            if (enc_st == SV_OK) nt_assert_same_bytes(d, len, &out);
            sv_buf_free(&out);
        }
        sv_doc_free(doc);
        assert_int_equal(ta.live_bytes, 0);
        if (ta.failures == 0) break;
        assert_true(st == SV_ERR_NOMEM || st == SV_ERR_LIMIT || enc_st == SV_ERR_NOMEM);
        assert_true(n < 10000);
    }
    free(d);
}

/* Trees the encoder cannot write: clear errors with the path. */
static void test_encode_errors(void **state)
{
    (void)state;
    bld f;
    build(&f, ok_cmds, sizeof ok_cmds, 1, (const uint8_t *)"\x2a\0\0\0", 4);
    sv_value v;
    sv_doc *doc = nt_decode(f.b, f.n, &v);
    sv_value *obj = nt_at(nt_get(nt_at(nt_get(&v, "chunks"), 0), "objects"), 0);
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    /* a field renamed out of step with its metadata */
    sv_pair *p = sv_pair_at(obj, 0);
    sv_value old_key = p->key;
    p->key = sv_strz(doc, "b");
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&v, NULL, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/0/b");
    assert_non_null(strstr(err.message, "\"a\""));
    assert_int_equal(out.len, 0);
    /* the wrong kind, and a u32 out of range */
    p->key = old_key;
    p->val = sv_strz(doc, "x");
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&v, NULL, &out, &err), SV_ERR_TYPE);
    assert_string_equal(err.path, "/chunks/0/objects/0/a");
    p->val = sv_int(-1);
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&v, NULL, &out, &err), SV_ERR_TYPE);
    assert_non_null(strstr(err.message, "out of range"));
    /* a plain int that fits is fine */
    p->val = sv_int(42);
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&v, NULL, &out, &err), SV_OK);
    nt_assert_same_bytes(f.b, f.n, &out);
    out.len = 0;
    /* not a tree of this format */
    sv_value s = sv_strz(doc, "x");
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_encode(&s, NULL, &out, &err), SV_ERR_TYPE);
    sv_buf_free(&out);
    sv_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder_is_valid),
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_strings_and_indices),
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_data),
        cmocka_unit_test(test_repeat_counts),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_fail_nth_alloc),
        cmocka_unit_test(test_encode_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
