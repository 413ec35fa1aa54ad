/* Godot Variant vectors: the Godot 3.2.3 oracle (tests/vectors/godot/oracle,
 * written by tests/godot/regen.sh), the Godot 4.6 oracle
 * (tests/vectors/godot/oracle4, written by tests/godot/regen4.sh) and the
 * spec's vectors (engine unit tests,
 * public 4.x vectors, the 3.2.3 appendix, source-derived rows;
 * tests/vectors/godot/spec/index.tsv).
 *
 * For every vector the decoded tree is compared with the expected value
 * given by the oracle or the spec (typed JSON read back into a tree), and
 * encoding must give the engine's bytes: from the decoded tree, from the
 * expected tree, and after a trip through typed JSON (dump | conv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "helper_file.h"
#include "serval/serval.h"
#include "test_godot_util.h"

#define MAX_BIN (1 << 20)

static int failures;
static int checked;
/* Kind "encnp": Godot 3.2.3 leaves the padding after NodePath components
 * unwritten (gen.gd), so they may hold stale bytes. serval keeps them in the
 * decoded tree (as the NodePath's meta) and must give them back exactly; the
 * oracle's expected value is the path alone, which serval writes with zero
 * padding. Only for that tree, a 0 from serval where the engine's byte is
 * not 0 is allowed. */
static bool np_pad_lenient;

static bool same_bytes(const uint8_t *got, size_t n, const uint8_t *want, size_t want_len)
{
    if (n != want_len) return false;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && !(np_pad_lenient && got[i] == 0)) return false;
    return true;
}

static void vfail(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

/* The expected values are written as the engine prints them: a whole float
 * is plain (100.0). The decoder keeps the width of a whole float explicit
 * (f32 when the f32/f64 rule of spec §6.2 picks it, else explicit f64) so
 * that jq 1.6 cannot turn it into an integer; this applies that rule. */
static void whole_floats_explicit(sv_value *v)
{
    switch (sv_kind_of(v)) {
    case SV_FLOAT:
        if (!sv_is_explicit(v)) {
            double d = sv_get_f64(v);
            if (isfinite(d) && d == trunc(d))
                *v = (double)(float)d == d ? sv_f32((float)d)
                                           : sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        }
        break;
    case SV_ARRAY:
        for (uint32_t i = 0; i < v->len; i++) whole_floats_explicit(&sv_array_items(v)[i]);
        break;
    case SV_MAP:
        /* a MAP's keys are values and may hold floats: changed in place
         * through its pairs (only an OBJECT takes the compact form, whose
         * field names are strings in a shared shape) */
        for (uint32_t i = 0; i < v->len; i++) whole_floats_explicit(&sv_pair_at(v, i)->key);
        /* fall through */
    case SV_OBJECT:
        for (uint32_t i = 0; i < v->len; i++) whole_floats_explicit(sv_val_at(v, i));
        break;
    default: break;
    }
}

static bool read_json(sv_doc *doc, const char *text, sv_value *out)
{
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_decode(doc, text, strlen(text), NULL, out, &err) != SV_OK) return false;
    whole_floats_explicit(out);
    return true;
}

/* encode v with fmt/opts and compare with want; false (and a message) if not. */
static bool check_encode(const char *name, const char *what, const char *fmt, const tg_opts *o,
                         const sv_value *v, const uint8_t *want, size_t want_len)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_status st = tg_encode(fmt, o, v, &b, &err);
    bool ok = st == SV_OK && same_bytes(b.data, b.len, want, want_len);
    if (!ok) {
        char msg[256];
        sv_error_format(&err, msg, sizeof msg);
        char *got = st == SV_OK ? tg_to_hex(b.data, b.len) : NULL;
        char *exp = tg_to_hex(want, want_len);
        vfail(name, "%s: encode gave %s, expected %s", what, got ? got : msg, exp);
        free(got);
        free(exp);
    }
    sv_buf_free(&b);
    return ok;
}

/* dump | conv: the tree through typed JSON text and back, then encoded. */
static void check_json_trip(const char *name, const char *fmt, const tg_opts *o, const sv_value *v,
                            const uint8_t *want, size_t want_len)
{
    char *text = tg_json(v);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value back;
    if (!read_json(doc, text, &back))
        vfail(name, "typed JSON %s does not read back", text);
    else if (!sv_equal(&back, v))
        vfail(name, "typed JSON %s reads back as another tree", text);
    else
        check_encode(name, "after typed JSON", fmt, o, &back, want, want_len);
    sv_doc_free(doc);
    free(text);
}

/* The round-trip property: encode(decode(x)) decodes to the same tree. */
static void check_reencode_stable(const char *name, const char *fmt, const tg_opts *o,
                                  const sv_value *tree)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    if (tg_encode(fmt, o, tree, &b, &err) != SV_OK) {
        vfail(name, "the decoded tree does not encode: %s", err.message);
    } else {
        sv_doc *doc = sv_doc_new(NULL);
        sv_value again;
        if (tg_decode(fmt, o, doc, b.data, b.len, &again, &err) != SV_OK || !sv_equal(&again, tree))
            vfail(name, "decode(encode(decode(x))) differs from decode(x)");
        sv_doc_free(doc);
    }
    sv_buf_free(&b);
}

/* The meta entries that keep bytes beyond the value (docs/formats/godot.md,
 * "Bytes kept beyond the value"). */
static bool is_kept_entry(const sv_value *k)
{
    static const char *const names[] = {"raw", "dups", "blocks", "header", "count", "root", "packed"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (sv_kind_of(k) == SV_STRING && k->len == strlen(names[i]) &&
            !memcmp(k->as.str, names[i], k->len))
            return true;
    return false;
}

/* The container's meta without the kept entries: a PackedStringArray's
 * marker string again, the typed-container entries, or none. */
static void strip_kept_meta(sv_doc *doc, sv_value *v)
{
    const sv_value *m = sv_meta(v);
    if (sv_kind_of(m) != SV_MAP) return;
    const sv_value *packed = sv_map_getz(m, "packed");
    sv_value rest = sv_map(doc, 0);
    for (uint32_t i = 0; i < m->len; i++)
        if (!is_kept_entry(sv_key_at(m, i)))
            sv_map_append(doc, &rest, *sv_key_at(m, i), *sv_val_at(m, i));
    sv_value c = sv_kind_of(v) == SV_ARRAY ? sv_array(doc, 0) : sv_map(doc, 0);
    for (uint32_t i = 0; i < sv_len(v); i++) {
        if (sv_kind_of(v) == SV_ARRAY)
            sv_array_append(doc, &c, *sv_array_at(v, i));
        else
            sv_map_append(doc, &c, *sv_key_at(v, i), *sv_val_at(v, i));
    }
    if (packed)
        sv_meta_set(doc, &c, *packed);
    else if (rest.len)
        sv_meta_set(doc, &c, rest);
    *v = c;
}

/* What the engine's value is, without the bytes serval keeps beyond it: a
 * bool's stored value (any nonzero is true), a NodePath's stale padding or
 * odd flags (the array tagged node_path becomes its text), and the records,
 * header and count words in container meta (a root stand-in becomes its
 * item). In place. */
static void strip_kept(sv_doc *doc, sv_value *v)
{
    const sv_value *m;
    switch (sv_kind_of(v)) {
    case SV_BOOL: *v = sv_bool(sv_get_bool(v)); break;
    case SV_ARRAY:
        if (sv_tag_of(v) == SV_TAG_NODE_PATH) {
            *v = sv_with_tag(*sv_array_at(v, 0), SV_TAG_NODE_PATH);
            break;
        }
        m = sv_meta(v);
        if (sv_kind_of(m) == SV_MAP && sv_map_getz(m, "root") && sv_len(v) == 1) {
            *v = *sv_array_at(v, 0);
            strip_kept(doc, v);
            break;
        }
        strip_kept_meta(doc, v);
        for (uint32_t i = 0; i < sv_len(v); i++)
            strip_kept(doc, sv_array_at(v, i));
        break;
    case SV_MAP:
        strip_kept_meta(doc, v);
        /* a MAP's keys are values with kept bytes of their own: changed in
         * place through its pairs (only an OBJECT takes the compact form,
         * whose field names are plain strings in a shared shape) */
        for (uint32_t i = 0; i < sv_len(v); i++) strip_kept(doc, &sv_pair_at(v, i)->key);
        /* fall through */
    case SV_OBJECT:
        for (uint32_t i = 0; i < sv_len(v); i++) strip_kept(doc, sv_val_at(v, i));
        break;
    default: break;
    }
}

/* The registry keeps the file's facts as meta on the root (godot.md, "The
 * file's facts in the root's meta"): framing, prefix, objects, version and
 * the format; the engine's value is the root without them (a root stand-in
 * left with only "root" is then unwrapped by strip_kept). */
static void drop_file_meta(sv_doc *doc, sv_value *v)
{
    static const char *const names[] = {"format", "framing", "prefix", "objects", "version"};
    const sv_value *m = sv_meta(v);
    if (!m || sv_kind_of(m) != SV_MAP) return;
    sv_value rest = sv_map(doc, 0);
    for (uint32_t i = 0; i < m->len; i++) {
        const sv_value *k = sv_key_at(m, i);
        bool file = false;
        for (size_t j = 0; j < sizeof names / sizeof names[0]; j++)
            file |= sv_kind_of(k) == SV_STRING && k->len == strlen(names[j]) &&
                    !memcmp(k->as.str, names[j], k->len);
        if (!file) sv_map_append(doc, &rest, *k, *sv_val_at(m, i));
    }
    if (rest.len == m->len) return;
    sv_value c = sv_kind_of(v) == SV_ARRAY ? sv_array(doc, 0) : sv_map(doc, 0);
    for (uint32_t i = 0; i < sv_len(v); i++) {
        if (sv_kind_of(v) == SV_ARRAY)
            sv_array_append(doc, &c, *sv_array_at(v, i));
        else
            sv_map_append(doc, &c, *sv_key_at(v, i), *sv_val_at(v, i));
    }
    if (rest.len) sv_meta_set(doc, &c, rest);
    *v = c;
}

/* Inputs the engine reads but never writes: one vector for each kind. They
 * must come back byte for byte, directly and through typed JSON, like every
 * other vector; serval keeps what the value does not say as meta (godot.md,
 * "Bytes kept beyond the value"). Each must also be one that needs it: the
 * value alone, written as the engine writes it, gives other bytes. */
static const char *const kept_beyond[] = {
    "dec_object_negative_props",      /* a negative property count */
    "v4_typed_array_in_4_2",          /* header bits the profile ignores */
    "v4_typed_dict_in_4_3",           /* (the same) */
    "v4_color_flag_ignored",          /* the 64-bit flag on a type without it */
    "v4_vector2i_flag_ignored",       /* (the same) */
    "v4_packed_float32_flag_ignored", /* (the same) */
    "v4_string_bom",                  /* a leading BOM is skipped */
    "v4_string_nul",                  /* the bytes after a NUL are dropped */
    "v3_dec_pad_nonzero",             /* a String's padding that is not zero */
    "v3_dec_full_null",               /* a null full object is nil */
    "v3_dec_nil_flag",                /* header bits the type ignores */
    "v3_dec_header_bit24",            /* (the same) */
    "v3_dec_header_bit17",            /* (the same) */
    "v3_dec_vector2_flag",            /* the 64-bit flag on 3.x math types */
    "v3_dec_bom",                     /* a leading BOM is skipped */
    "v3_dec_a_nul_b",                 /* the bytes after a NUL are dropped */
    "v3_dec_psa_no_nul",              /* a PoolStringArray element without its NUL */
    "v3_dec_array_count_bit31",       /* bit 31 of an Array count */
    "v3_dec_pba_no_pad",              /* a PoolByteArray without its tail padding */
    "v3_dec_dict_dup",                /* a repeated Dictionary key */
    "dec_dict_dup_order",             /* (the same, two keys) */
    "dec_str_pad_nonzero",            /* (oracle) a String's padding */
    "dec_object_id_0",                /* (oracle) a null object as id 0 */
    "dec_psa_negative",               /* (oracle) a negative PoolStringArray count */
    "dec_int_bits8_15",               /* (oracle) header bits */
    "dec_dict_shared_bit",            /* (oracle) bit 31 of a Dictionary count */
};

/* Inputs the decoder takes that do not come back byte for byte: each is a
 * normalisation listed in docs/formats/godot.md, "What is not kept". For
 * these, encode(decode(x)) must be what serval writes for the value, and
 * the trip through typed JSON must give the same bytes as the direct one. */
static const char *const not_kept[] = {
    "v3_dec_rid_extra", /* bytes after the Variant (trailing=allow) */
    "v3_dec_trailing",  /* (the same) */
    "dec_rid_extra",    /* (the same, oracle) */
    "dec_int_trailing", /* (the same, oracle) */
    "dec4_rid_trailing", /* (the same, Godot 4.6 oracle) */
};

static int kept_seen;

static bool is_kept_beyond(const char *name)
{
    for (size_t i = 0; i < sizeof kept_beyond / sizeof kept_beyond[0]; i++)
        if (!strcmp(name, kept_beyond[i])) return true;
    return false;
}

static bool is_not_kept(const char *name)
{
    for (size_t i = 0; i < sizeof not_kept / sizeof not_kept[0]; i++)
        if (!strcmp(name, not_kept[i])) return true;
    return false;
}

/* One vector. kind: enc, dec, str, err. */
static void run_vector(const char *name, const char *fmt, const char *opts, const char *kind,
                       const uint8_t *in, size_t in_len, const char *expected, const char *reenc)
{
    checked++;
    np_pad_lenient = !strcmp(kind, "encnp");
    if (np_pad_lenient) kind = "enc";
    tg_opts o;
    tg_opts_parse(&o, opts);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value tree;
    sv_error err;
    sv_status st = tg_decode(fmt, &o, doc, in, in_len, &tree, &err);
    if (!strcmp(kind, "err")) {
        if (st == SV_OK)
            vfail(name, "decoded, but the engine refuses these bytes");
        else if (strncmp(expected, "SV_", 3) == 0 && strcmp(sv_status_name(st), expected) != 0)
            vfail(name, "status %s, expected %s (%s)", sv_status_name(st), expected, err.message);
        else if (!err.format || strcmp(err.format, fmt) != 0 || err.byte_offset > in_len)
            vfail(name, "error without the format or with offset %llu beyond %zu",
                  (unsigned long long)err.byte_offset, in_len);
        sv_doc_free(doc);
        return;
    }
    if (st != SV_OK) {
        char msg[300];
        sv_error_format(&err, msg, sizeof msg);
        vfail(name, "decode failed: %s", msg);
        sv_doc_free(doc);
        return;
    }
    if (!strcmp(kind, "str")) {
        uint8_t want[4096];
        long n = tg_hex(expected + 4, want, sizeof want); /* "hex:..." */
        sv_value str = sv_copy(doc, &tree);
        strip_kept(doc, &str);
        if (sv_kind_of(&str) != SV_STRING || n < 0 || str.len != (uint32_t)n ||
            memcmp(str.as.str, want, (size_t)n) != 0)
            vfail(name, "string differs from the engine's (%s)", expected);
    } else {
        sv_value exp, plain = sv_copy(doc, &tree);
        drop_file_meta(doc, &plain);
        strip_kept(doc, &plain);
        if (!read_json(doc, expected, &exp)) {
            vfail(name, "expected value %s is not typed JSON", expected);
        } else if (!sv_equal(&plain, &exp)) {
            char *got = tg_json(&tree);
            vfail(name, "decoded %s, expected %s", got, expected);
            free(got);
        } else if (!strcmp(kind, "enc")) {
            check_encode(name, "expected tree", fmt, &o, &exp, in, in_len);
        }
        if (reenc && strcmp(reenc, "-") != 0) {
            /* the engine's own re-encoding of what it decoded */
            static uint8_t want[MAX_BIN];
            long n = tg_hex(reenc, want, sizeof want);
            if (n < 0)
                vfail(name, "bad re-encoded hex");
            else
                check_encode(name, "engine re-encoding", fmt, &o, &plain, want, (size_t)n);
        }
    }
    np_pad_lenient = false;
    /* every input the decoder takes comes back byte for byte, directly and
     * through typed JSON (the engine's own re-encoding was checked above on
     * the value alone), except the documented normalisations (godot.md,
     * "What is not kept"), where it gives what serval writes for the value */
    if (!is_not_kept(name)) {
        check_encode(name, "decoded tree", fmt, &o, &tree, in, in_len);
        check_json_trip(name, fmt, &o, &tree, in, in_len);
        if (is_kept_beyond(name)) {
            /* the value alone must not give these bytes: the vector needs
             * what serval keeps beyond it */
            sv_value bare = sv_copy(doc, &tree);
            strip_kept(doc, &bare);
            sv_buf b;
            sv_buf_init(&b, NULL);
            if (tg_encode(fmt, &o, &bare, &b, &err) != SV_OK)
                vfail(name, "the value without its kept bytes does not encode");
            else if (b.len == in_len && memcmp(b.data, in, in_len) == 0)
                vfail(name, "listed as kept beyond the value, but the value alone gives it");
            sv_buf_free(&b);
            kept_seen++;
        }
    } else {
        sv_buf b;
        sv_buf_init(&b, NULL);
        if (tg_encode(fmt, &o, &tree, &b, &err) != SV_OK)
            vfail(name, "the decoded tree does not encode");
        else if (b.len == in_len && memcmp(b.data, in, in_len) == 0)
            vfail(name, "listed as not kept, but comes back byte for byte");
        else
            check_json_trip(name, fmt, &o, &tree, b.data, b.len);
        sv_buf_free(&b);
    }
    check_reencode_stable(name, fmt, &o, &tree);
    sv_doc_free(doc);
}

/* Oracle values through the other profiles: encode with godot-doc / godot4,
 * decode again, same tree (the numbering differs, the values do not). */
static void run_cross_profile(const char *name, const char *opts, const char *expected)
{
    if (strstr(expected, "$rid") || !strncmp(expected, "hex:", 4)) return; /* 3.x RID has no id */
    tg_opts o;
    tg_opts_parse(&o, opts);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value exp;
    if (read_json(doc, expected, &exp)) {
        static const char *const fmts[] = {"godot-doc", "godot4"};
        for (int i = 0; i < 2; i++) {
            sv_buf b;
            sv_buf_init(&b, NULL);
            sv_error err;
            sv_value back;
            if (tg_encode(fmts[i], &o, &exp, &b, &err) != SV_OK)
                vfail(name, "%s cannot encode it: %s", fmts[i], err.message);
            else if (tg_decode(fmts[i], &o, doc, b.data, b.len, &back, &err) != SV_OK)
                vfail(name, "%s cannot decode its own bytes: %s", fmts[i], err.message);
            else {
                /* "objects": "full" and its root stand-in are the file's */
                drop_file_meta(doc, &back);
                strip_kept(doc, &back);
                if (!sv_equal(&back, &exp)) vfail(name, "%s gives back another tree", fmts[i]);
            }
            sv_buf_free(&b);
        }
    }
    sv_doc_free(doc);
}

static void test_oracle(void **state)
{
    (void)state;
    size_t len = 0;
    char *index = test_read_file("vectors/godot/oracle/index.tsv", &len); /* NUL-terminated */
    failures = checked = 0;
    int counts[4] = {0};
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        char *f[6];
        if (tg_split_tabs(line, f, 6) != 6) vfail(line, "index line without 6 fields");
        char path[256];
        snprintf(path, sizeof path, "vectors/godot/oracle/%s.bin", f[0]);
        size_t n = 0;
        uint8_t *bin = tg_read_file(path, &n);
        if (!bin) {
            vfail(f[0], "missing %s", path);
            continue;
        }
        run_vector(f[0], "godot3", f[2], f[1], bin, n, f[3], f[4]);
        if (!strncmp(f[1], "enc", 3) && !strstr(f[2], "framing"))
            run_cross_profile(f[0], f[2], f[3]);
        counts[!strncmp(f[1], "enc", 3) ? 0
               : !strcmp(f[1], "dec")   ? 1
               : !strcmp(f[1], "str")   ? 2
                                        : 3]++;
        free(bin);
    }
    free(index);
    printf("oracle: %d vectors (%d enc, %d dec, %d str, %d err), %d failures\n", checked, counts[0],
           counts[1], counts[2], counts[3], failures);
    assert_true(checked >= 300);
    assert_int_equal(failures, 0);
}

/* The Godot 4.6 oracle: index.tsv lines are name, kind, options, type,
 * expected, re-encoded hex, det, var_to_str, expression; the input is
 * <name>.bin (tests/godot/gen4.gd). Every vector is decoded with godot4,
 * compared with the value the engine described, and encoded back. The type
 * column is the engine's typeof(), which the type code of the bytes must
 * agree with (kind "err": bytes the engine refused, which must fail). */
static void test_oracle4(void **state)
{
    (void)state;
    size_t len = 0;
    char *index = test_read_file("vectors/godot/oracle4/index.tsv", &len); /* NUL-terminated */
    failures = checked = 0;
    int types_seen[39] = {0};
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        char *f[9];
        if (tg_split_tabs(line, f, 9) != 9) {
            vfail(line, "index line without 9 fields");
            continue;
        }
        char path[256];
        snprintf(path, sizeof path, "vectors/godot/oracle4/%s.bin", f[0]);
        size_t n = 0;
        uint8_t *bin = tg_read_file(path, &n);
        if (!bin) {
            vfail(f[0], "missing %s", path);
            continue;
        }
        int type = atoi(f[3]);
        if (type >= 0 && type < 39) types_seen[type]++;
        /* the header's type code is the engine's typeof(), except that a
         * null Object is written as nil (spec §5.4) */
        if (strcmp(f[1], "err") != 0 &&
            (n < 4 || (bin[0] != type && !(type == 24 && bin[0] == 0))))
            vfail(f[0], "type code %d, the engine says typeof %d", n < 4 ? -1 : bin[0], type);
        run_vector(f[0], "godot4", f[2], f[1], bin, n, f[4], f[5]);
        free(bin);
    }
    free(index);
    int missing = 0;
    for (int t = 0; t < 39; t++)
        if (!types_seen[t]) {
            fprintf(stderr, "oracle4: no vector of type %d\n", t);
            missing++;
        }
    printf("oracle4: %d vectors, %d failures\n", checked, failures);
    assert_true(checked >= 900);
    assert_int_equal(missing, 0);
    assert_int_equal(failures, 0);
}

/* An index with the bytes inline: name, profile, options, source, kind, hex, expected. */
static void run_inline_index(const char *path, int min_count)
{
    size_t len = 0;
    char *index = test_read_file(path, &len); /* NUL-terminated */
    failures = checked = 0;
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        char *f[7];
        if (tg_split_tabs(line, f, 7) != 7) {
            vfail(line, "index line without 7 fields");
            continue;
        }
        static uint8_t bin[4096];
        long n = tg_hex(f[5], bin, sizeof bin);
        if (n < 0) {
            vfail(f[0], "bad hex");
            continue;
        }
        run_vector(f[0], f[1], f[2], f[4], bin, (size_t)n, f[6], NULL);
    }
    free(index);
    printf("%s: %d vectors, %d failures\n", path, checked, failures);
    assert_true(checked >= min_count);
    assert_int_equal(failures, 0);
}

static void test_spec(void **state)
{
    (void)state;
    run_inline_index("vectors/godot/spec/index.tsv", 150);
}

/* godot-doc bytes written by @gd-com/utils 5.0.0 (tests/godot/gdcom.sh) */
static void test_gdcom(void **state)
{
    (void)state;
    run_inline_index("vectors/godot/gdcom/index.tsv", 20);
}

/* every vector named in kept_beyond exists and was checked (run last) */
static void test_kept_beyond_seen(void **state)
{
    (void)state;
    assert_int_equal(kept_seen, (int)(sizeof kept_beyond / sizeof kept_beyond[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_oracle4),
        cmocka_unit_test(test_spec),
        cmocka_unit_test(test_gdcom),
        cmocka_unit_test(test_kept_beyond_seen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
