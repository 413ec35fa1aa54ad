/* The metadata command stream (spec §B.4): converting it between the file's
 * form and the tree's canonical form, reading one command, skipping a
 * Begin...End body. The interpreter (noesis_interp.c) and the emitter
 * (noesis_emit.c) both walk the stream with these, so decode and encode agree
 * on every rule.
 *
 * One command: u8 op (bits 0..6 id, bit 7 repeat), [u32 count] when the
 * repeat bit is set, [u32 desc] for every id except 0, 1, 3, 5. In the file
 * both are in the file's byte order and desc is a byte offset into the
 * metadata strings; in the tree (canonical) both are little-endian and desc
 * is the string's index. */
#include <string.h>

#include "formats/noesis/noesis_internal.h"

static const char *const cmd_names[NSB_CMD_COUNT] = {
    "BeginInstance", "EndInstance", "BeginGroup", "EndGroup", "BeginArray", "EndArray",
    "Ref",           "Int8",        "Int16",      "Int32",    "Int64",      "UInt8",
    "UInt16",        "UInt32",      "UInt64",     "Bool",     "Float32",    "Float64",
    "Char8",         "Char16",      "String8",    "String16", "Buffer",
};

const char *nsb_cmd_name(unsigned id)
{
    return id < NSB_CMD_COUNT ? cmd_names[id] : "?";
}

static bool has_desc(unsigned id)
{
    return id != NSB_BEGIN_INSTANCE && id != NSB_END_INSTANCE && id != NSB_END_GROUP &&
           id != NSB_END_ARRAY;
}

/* Why an op byte (with left bytes after it) is not a command. */
static sv_status bad_op(uint8_t op, uint64_t off, size_t left, sv_error *err)
{
    unsigned id = op & 0x7Fu;
    if (id >= NSB_CMD_COUNT)
        return sv_error_set(err, SV_ERR_SYNTAX, NSB_FORMAT, off,
                            "unknown metadata command id %u (op byte 0x%02X)", id, op);
    if ((op & NSB_REPEAT) && nsb_is_end(id))
        return sv_error_set(err, SV_ERR_SYNTAX, NSB_FORMAT, off, "%s has the repeat bit set",
                            nsb_cmd_name(id));
    size_t need = ((op & NSB_REPEAT) ? 4u : 0u) + (has_desc(id) ? 4u : 0u);
    return sv_error_set(err, SV_ERR_TRUNCATED, NSB_FORMAT, off,
                        "%s needs %zu more bytes, the command stream has %zu", nsb_cmd_name(id),
                        need, left);
}

/* The bytes after the op byte (count, desc), or -1 for a bad op. */
static inline int op_fields(uint8_t op)
{
    unsigned id = op & 0x7Fu;
    if (id >= NSB_CMD_COUNT) return -1;
    if (op & NSB_REPEAT) return nsb_is_end(id) ? -1 : (has_desc(id) ? 8 : 4);
    return has_desc(id) ? 4 : 0;
}

static inline sv_status op_shape(uint8_t op, uint64_t off, size_t left, size_t *fields,
                                 sv_error *err)
{
    int n = op_fields(op);
    if (n < 0 || (size_t)n > left) return bad_op(op, off, left, err);
    *fields = (size_t)n;
    return SV_OK;
}

/* op_fields for every op byte (rows of 16): ids 0..22, then -1 for unknown
 * ids; from 0x80 the repeated forms (-1 on an End). The conversion below
 * takes a command's shape from here with one load. */
static const int8_t op_fields_table[256] = {
    0,  0,  4,  0,  4,  0,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, 4,  -1, 8,  -1, 8,  -1, 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
    8,  8,  8,  8,  8,  8,  8,  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

/* Instances repeat their bodies (spec §B.4: each carries its own
 * commands), so most of a stream is runs of bytes converted before. The
 * runs from one BeginInstance to the next are remembered by a hash of their
 * first bytes; a run whose bytes equal a remembered one converts to the
 * same bytes, copied. Bodies of one class often share their first bytes
 * (the same first fields, then others): a set of SEG_WAYS runs per hash
 * keeps them from evicting one another. Runs are compared only up to
 * SEG_MAX bytes, so a miss costs at most SEG_WAYS times that much (hostile
 * input included). */
#define SEG_SETS 256u
#define SEG_WAYS 4u
#define SEG_HASHED 32u
#define SEG_MAX 1024u
typedef struct seg_memo {
    struct seg {
        uint64_t hash;
        size_t start, len;
    } slot[SEG_SETS * SEG_WAYS];
    uint8_t next[SEG_SETS]; /* per set, the way the next run replaces */
    size_t open;            /* start of the run being converted, or SIZE_MAX */
    size_t last_len;        /* the length of the run memo_step found */
} seg_memo;

static void memo_init(seg_memo *m)
{
    memset(m->slot, 0, sizeof m->slot);
    memset(m->next, 0, sizeof m->next);
    m->open = SIZE_MAX;
}

/* At a BeginInstance at i (a command boundary, all before it converted):
 * closes the run being converted, and returns how far back an equal run
 * starts (its length in last_len), or 0 when none is known at or after
 * floor (where the converted bytes still are). */
static size_t memo_step(seg_memo *m, const uint8_t *src, size_t len, size_t i, size_t floor)
{
    if (m->open != SIZE_MAX && i - m->open >= SEG_HASHED && i - m->open <= SEG_MAX) {
        uint64_t h = nsb_hash_bytes(src + m->open, SEG_HASHED, NSB_HASH_SEED);
        const size_t set = h & (SEG_SETS - 1);
        struct seg *s = &m->slot[set * SEG_WAYS + m->next[set]++ % SEG_WAYS];
        s->hash = h;
        s->start = m->open;
        s->len = i - m->open;
    }
    m->open = i;
    if (len - i < SEG_HASHED) return 0;
    uint64_t h = nsb_hash_bytes(src + i, SEG_HASHED, NSB_HASH_SEED);
    const struct seg *s = &m->slot[(h & (SEG_SETS - 1)) * SEG_WAYS];
    for (unsigned w = 0; w < SEG_WAYS; w++, s++) {
        if (s->len == 0 || s->hash != h || s->start < floor || s->len > len - i ||
            memcmp(src + s->start, src + i, s->len) != 0)
            continue;
        m->open = SIZE_MAX; /* known already */
        m->last_len = s->len;
        return i - s->start;
    }
    return 0;
}

sv_status nsb_cmds_from_file(const uint8_t *src, size_t len, bool big, const nsb_strlist *names,
                             uint64_t file_offset, uint8_t *dst, sv_error *err)
{
    size_t i = 0;
    /* The common case (every real file: little-endian, a small string list
     * with its index table): the same checks as the loop below, with the
     * shape from a table and the desc looked up directly. Anything unusual
     * (a bad op, a desc that is not the start of a string, a command cut
     * short) leaves this loop at that command for the general one, which
     * reports it. */
    if (!big && names->index_of) {
        const int8_t *shape = op_fields_table;
        const uint32_t *index_of = names->index_of;
        const size_t names_size = names->size;
        seg_memo memo;
        memo_init(&memo);
        while (i < len) {
            uint8_t op = src[i];
            int n = shape[op];
            if (n < 0 || (size_t)n > len - i - 1) break;
            if (op == NSB_BEGIN_INSTANCE) {
                size_t same = memo_step(&memo, src, len, i, 0);
                if (same) { /* converted before: the same bytes again */
                    memcpy(dst + i, dst + (i - same), memo.last_len);
                    i += memo.last_len;
                    continue;
                }
            }
            dst[i] = op;
            if (n == 0) {
                i++;
                continue;
            }
            if (op & NSB_REPEAT) memcpy(dst + i + 1, src + i + 1, 4); /* count: LE both */
            if (n == 4 && (op & NSB_REPEAT)) {
                i += 5;
                continue;
            }
            size_t k = i + (size_t)n - 3; /* the desc is the last 4 bytes */
            uint32_t desc = sv__core_load_u32le(src + k);
            if (desc >= names_size || index_of[desc] == UINT32_MAX) break;
            sv__core_store_u32le(dst + k, index_of[desc]);
            i = k + 4;
        }
    }
    while (i < len) {
        uint8_t op = src[i];
        size_t fields;
        sv_status st = op_shape(op, file_offset + i, len - i - 1, &fields, err);
        if (st != SV_OK) return st;
        dst[i] = op;
        size_t k = i + 1;
        if (op & NSB_REPEAT) {
            sv__core_store_u32le(dst + k,
                                 big ? sv__core_load_u32be(src + k) : sv__core_load_u32le(src + k));
            k += 4;
        }
        if (has_desc(op & 0x7Fu)) {
            uint32_t desc = big ? sv__core_load_u32be(src + k) : sv__core_load_u32le(src + k);
            int64_t idx = names->index_of
                              ? (desc < names->size ? (int64_t)(int32_t)names->index_of[desc] : -1)
                              : nsb_strlist_find_start(names, desc);
            /* Every real file names whole strings; an offset into the middle
             * of one (a suffix) is refused, as classId's is. */
            if (idx < 0)
                return sv_error_set(err, SV_ERR_RANGE, NSB_FORMAT, file_offset + k,
                                    "%s names metadata string offset %u, which is not the "
                                    "start of a string of the %zu-byte list",
                                    nsb_cmd_name(op & 0x7Fu), desc, names->size);
            sv__core_store_u32le(dst + k, (uint32_t)idx);
            k += 4;
        }
        i = k;
    }
    return SV_OK;
}

sv_status nsb_cmds_to_file(const uint8_t *src, size_t len, bool big, const uint32_t *offsets,
                           uint32_t name_count, sv_buf *out, sv_error *err)
{
    size_t i = 0;
    /* With a sink, a window's worth at a time (so a streamed output holds a
     * window, not the stream); without one, all at once. */
    const size_t piece = out->sink ? (out->window > 64 ? out->window : 64) : SIZE_MAX;
    /* Little-endian: the file form is the canonical bytes with each desc
     * index replaced by its offset. A piece at a time: copy it, then patch the descs of the
     * commands wholly inside it; one that runs past the piece starts the
     * next. A command the table calls bad, or a desc out of range, stops
     * the patching there and the loop below (which reports it) goes on from
     * that command, overwriting the rest. */
    seg_memo *memo = NULL;
    const sv_alloc *a = out->alloc ? out->alloc : sv_alloc_libc();
    if (!big && len >= 4096 && !(memo = a->malloc(a->ctx, sizeof *memo)))
        return sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
    if (memo) memo_init(memo);
    while (!big && i < len) {
        size_t stop = len - i > piece ? i + piece : len;
        if (sv_buf_ensure(out, stop - i) != SV_OK) {
            if (memo) a->free(a->ctx, memo, sizeof *memo);
            return nsb_output_failed(out, err);
        }
        size_t start = out->len;
        uint8_t *dst = out->data + start - i; /* dst[k] is the output of src[k] */
        memcpy(dst + i, src + i, stop - i);
        size_t j = i;
        bool bad = false;
        if (memo) memo->open = SIZE_MAX; /* a run begun in the last piece is not all here */
        while (j < stop) {
            uint8_t op = src[j];
            int n = op_fields_table[op];
            if (n < 0 || (size_t)n > len - j - 1) {
                bad = true;
                break;
            }
            if (j + 1 + (size_t)n > stop) break; /* runs into the next piece */
            if (op == NSB_BEGIN_INSTANCE && memo) {
                /* a run written before in this piece: the same bytes again */
                size_t same = memo_step(memo, src, len, j, i);
                if (same && memo->last_len <= stop - j) {
                    memcpy(dst + j, dst + (j - same), memo->last_len);
                    j += memo->last_len;
                    continue;
                }
                if (same) memo->open = j; /* past the piece: patched below */
            }
            if (n == 0 || (n == 4 && (op & NSB_REPEAT))) {
                j += 1 + (size_t)n;
                continue;
            }
            size_t k = j + (size_t)n - 3; /* the desc is the last 4 bytes */
            uint32_t idx = sv__core_load_u32le(src + k);
            if (idx >= name_count) {
                bad = true;
                break;
            }
            sv__core_store_u32le(dst + k, offsets[idx]);
            j = k + 4;
        }
        out->len = start + (j - i);
        i = j;
        sv_buf_release(out);
        if (bad) break;
    }
    if (memo) a->free(a->ctx, memo, sizeof *memo);
    while (i < len) {
        uint8_t op = src[i];
        size_t fields;
        sv_status st = op_shape(op, i, len - i - 1, &fields, err);
        if (st != SV_OK) return st;
        sv__core_put_u8(out, op);
        size_t k = i + 1;
        if (op & NSB_REPEAT) {
            uint32_t count = sv__core_load_u32le(src + k);
            if (big)
                sv_put_u32be(out, count);
            else
                sv_put_u32le(out, count);
            k += 4;
        }
        if (has_desc(op & 0x7Fu)) {
            uint32_t idx = sv__core_load_u32le(src + k);
            if (idx >= name_count)
                return sv_error_set(err, SV_ERR_RANGE, NSB_FORMAT, k,
                                    "%s names metadata string %u, but there are %u",
                                    nsb_cmd_name(op & 0x7Fu), idx, name_count);
            if (big)
                sv_put_u32be(out, offsets[idx]);
            else
                sv_put_u32le(out, offsets[idx]);
            k += 4;
        }
        i = k;
        sv_buf_release(out);
    }
    return SV_OK;
}

sv_status nsb_cmd_read(const nsb_cmds *cs, const uint8_t **pos, nsb_cmd *cmd)
{
    const uint8_t *p = *pos;
    uint64_t off = cs->offset0 + (uint64_t)(p - cs->begin);
    if (p >= cs->end)
        return sv_error_set(cs->err, SV_ERR_TRUNCATED, NSB_FORMAT, off,
                            "the command stream ends inside an unclosed Begin command");
    uint8_t op = *p++;
    size_t fields;
    sv_status st = op_shape(op, off, (size_t)(cs->end - p), &fields, cs->err);
    if (st != SV_OK) return st;
    cmd->offset = off;
    cmd->id = op & 0x7F;
    cmd->repeat = (op & NSB_REPEAT) != 0;
    cmd->count = 1;
    cmd->desc = UINT32_MAX;
    if (cmd->repeat) {
        cmd->count = sv__core_load_u32le(p);
        p += 4;
    }
    if (has_desc(cmd->id)) {
        cmd->desc = sv__core_load_u32le(p);
        p += 4;
        if (cmd->desc >= cs->name_count)
            return sv_error_set(cs->err, SV_ERR_RANGE, NSB_FORMAT, off,
                                "%s names metadata string %u, but there are %u",
                                nsb_cmd_name(cmd->id), cmd->desc, cs->name_count);
    }
    *pos = p;
    return SV_OK;
}

sv_status nsb_cmd_check_place(const nsb_cmds *cs, const nsb_cmd *cmd, const nsb_cmd *parent)
{
    if (nsb_is_end(cmd->id)) {
        if (parent && cmd->id == nsb_end_of(parent->id)) return SV_OK;
        if (!parent)
            return sv_error_set(cs->err, SV_ERR_SYNTAX, NSB_FORMAT, cmd->offset,
                                "%s without a Begin command", nsb_cmd_name(cmd->id));
        return sv_error_set(cs->err, SV_ERR_SYNTAX, NSB_FORMAT, cmd->offset,
                            "%s closes the %s at byte %llu", nsb_cmd_name(cmd->id),
                            nsb_cmd_name(parent->id), (unsigned long long)parent->offset);
    }
    if (!parent && cmd->id != NSB_BEGIN_INSTANCE)
        return sv_error_set(cs->err, SV_ERR_SYNTAX, NSB_FORMAT, cmd->offset,
                            "%s outside an instance (only BeginInstance may stand there)",
                            nsb_cmd_name(cmd->id));
    if (parent && cmd->id == NSB_BEGIN_INSTANCE)
        return sv_error_set(cs->err, SV_ERR_SYNTAX, NSB_FORMAT, cmd->offset,
                            "BeginInstance inside the %s at byte %llu", nsb_cmd_name(parent->id),
                            (unsigned long long)parent->offset);
    return SV_OK;
}

sv_status nsb_cmd_skip_body(const nsb_cmds *cs, const uint8_t **pos, const nsb_cmd *begin,
                            uint32_t depth, uint32_t max_depth)
{
    if (depth > max_depth)
        return sv_error_set(cs->err, SV_ERR_DEPTH, NSB_FORMAT, begin->offset,
                            "Begin commands nested deeper than %u", max_depth);
    for (;;) {
        nsb_cmd cmd;
        sv_status st = nsb_cmd_read(cs, pos, &cmd);
        if (st == SV_OK) st = nsb_cmd_check_place(cs, &cmd, begin);
        if (st != SV_OK) return st;
        if (nsb_is_end(cmd.id)) return SV_OK;
        if (nsb_is_begin(cmd.id)) {
            st = nsb_cmd_skip_body(cs, pos, &cmd, depth + 1, max_depth);
            if (st != SV_OK) return st;
        }
    }
}

sv_status nsb_cmd_key(const nsb_cmds *cs, const nsb_cmd *cmd, sv_value *key)
{
    sv_value *k = &cs->keys[cmd->desc];
    if (k->kind == SV_STRING) {
        *key = *k;
        return SV_OK;
    }
    /* Keys must be UTF-8: the typed JSON writes object keys as plain strings. */
    const sv_value *name = &cs->names[cmd->desc];
    if (name->kind != SV_STRING || !sv__core_utf8_valid(name->as.bytes, name->len))
        return sv_error_set(cs->err, SV_ERR_UTF8, NSB_FORMAT, cmd->offset,
                            "the name of %s (metadata string %u) is not valid Unicode text",
                            nsb_cmd_name(cmd->id), cmd->desc);
    *k = sv_str_intern(cs->doc, name->as.str, name->len);
    if (k->kind != SV_STRING)
        return sv_error_set(cs->err, sv_doc_status(cs->doc) ? sv_doc_status(cs->doc) : SV_ERR_NOMEM,
                            NSB_FORMAT, cmd->offset, "out of memory");
    *key = *k;
    return SV_OK;
}
