/* Decode with metadata: run the command stream over the data section and
 * build the typed tree (spec §B.4, "Interpreter").
 *
 *   BeginInstance        the next instance of the instance list: an OBJECT whose
 *                        class is its component's class name
 *   BeginGroup / Array   a field holding a MAP of the body's fields
 *   value commands       a field holding the value (width kept: UInt32 -> u32, ...)
 *   repeat bit, count N  Begin: the body runs N times, the field is an ARRAY of N
 *                        MAPs; numbers: a PACKED array of N; others: an ARRAY of N
 *
 * The walk is straight over the command bytes (no copy of the stream): a
 * repeated body is re-read from its start for each round. The data must be
 * consumed exactly and the instances visited exactly, else the error names
 * the offset where the two diverge. */
#include <stdio.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "formats/noesis/noesis_internal.h"
#include "formats/noesis/noesis_plan.h"

typedef struct interp {
    sv_doc *doc;  /* the keys and the interpreter's own tables */
    sv_doc *vdoc; /* the values: doc, or in->values when transcoding */
    const nsb_cmds *cs;
    const uint8_t *base; /* file start, for offsets */
    const uint8_t *p, *end;
    bool big, swap; /* swap: the file's byte order is not the host's */
    const nsb_interp_in *in;
    sv_value *objects; /* items of the ARRAY being filled */
    uint32_t next_instance;
    uint64_t budget; /* commands and rounds still allowed (bounds zero-byte repeats) */
    uint32_t max_nesting;
    uint64_t max_string;
    sv_error *err;
    /* Duplicate names in one container (three LocalValue groups in a row,
     * spec §B.4) get the keys "LocalValue", "LocalValue#2", "LocalValue#3",
     * so that jq, which keeps one of equal keys, loses nothing. seen[desc]
     * says in which open container a name was last used and how often; a
     * container's first use of a name is logged and undone when it closes. */
    struct nsb_seen {
        uint32_t container, count;
    } * seen;
    struct nsb_undo {
        uint32_t desc;
        struct nsb_seen old;
    } * undo;
    uint32_t undo_len, undo_cap, undo_max, containers;
    sv_value *variants;     /* per name, the keys "name#2" ... (repeated_key) */
    uint32_t variant_names; /* names with a row in variants (the first 1024) */
    /* The fields of the open containers, so each container is made once at
     * its final size (growing maps field by field costs copies). */
    sv_pair *stack;
    size_t top, stack_cap;
    /* Per name, 1 when it is "color" (a UInt32 of that name is written as
     * a colour string, noesis_view.c); NULL when no name is. */
    uint8_t *colour;
    sv_value **names; /* *names: per instance, its "Name" (nsb_interp_run); NULL: none yet */
    uint64_t max_alloc;
    nsb_plans *plans; /* bodies seen twice, replayed (noesis_plan.c); NULL: none */
} interp;

static uint64_t off_of(const interp *it, const uint8_t *p)
{
    return (uint64_t)(p - it->base);
}

static bool host_is_big(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 0;
}

static sv_status nomem(interp *it)
{
    sv_status st = sv_doc_status(it->vdoc) ? sv_doc_status(it->vdoc) : sv_doc_status(it->doc);
    return sv_error_set(it->err, st ? st : SV_ERR_NOMEM, NSB_FORMAT, off_of(it, it->p),
                        "out of memory building the tree");
}

static sv_status spend(interp *it, const nsb_cmd *cmd, uint64_t n)
{
    if (n <= it->budget) {
        it->budget -= n;
        return SV_OK;
    }
    return sv_error_set(it->err, SV_ERR_LIMIT, NSB_FORMAT, cmd->offset,
                        "the repeat counts would make more values than the file's size "
                        "allows (%s with count %u)",
                        nsb_cmd_name(cmd->id), cmd->count);
}

/* Values made in place (the hot path makes millions of them). */
static inline sv_value mk(sv_kind kind, unsigned width, unsigned flags)
{
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = kind & 0xF;
    v.sub = (uint8_t)width;
    v.flags = flags & 0xF;
    return v;
}

static sv_status short_data(interp *it, const nsb_cmd *cmd, uint64_t need)
{
    return sv_error_set(it->err, SV_ERR_TRUNCATED, NSB_FORMAT, off_of(it, it->p),
                        "%s (command at byte %llu) needs %llu bytes of data, %zu left",
                        nsb_cmd_name(cmd->id), (unsigned long long)cmd->offset,
                        (unsigned long long)need, (size_t)(it->end - it->p));
}

/* it->big is tested once per value: read_one is made twice, for each
 * byte order (read_value), and these fold to plain loads. */
#define ld16(it, p) (big ? sv__core_load_u16be(p) : sv__core_load_u16le(p))
#define ld32(it, p) (big ? sv__core_load_u32be(p) : sv__core_load_u32le(p))
#define ld64(it, p) (big ? sv__core_load_u64be(p) : sv__core_load_u64le(p))

/* A string or buffer: u32 length, then length units of unit bytes. */
static sv_status read_blob(interp *it, const nsb_cmd *cmd, sv_value *out)
{
    const bool big = it->big;
    if (it->end - it->p < 4) return short_data(it, cmd, 4);
    uint64_t n = ld32(it, it->p);
    uint64_t bytes = cmd->id == NSB_STRING16 ? n * 2 : n;
    if ((uint64_t)(it->end - it->p - 4) < bytes) return short_data(it, cmd, 4 + bytes);
    if (bytes > it->max_string)
        return sv_error_set(it->err, SV_ERR_LIMIT, NSB_FORMAT, off_of(it, it->p),
                            "a %s of %llu bytes exceeds the string limit", nsb_cmd_name(cmd->id),
                            (unsigned long long)bytes);
    const uint8_t *s = it->p + 4;
    it->p = s + bytes;
    if (cmd->id == NSB_STRING16) {
        size_t len = sv__core_utf16_wtf8_len(s, (size_t)n, it->big);
        *out = sv_str_uninit(it->vdoc, len);
        if (out->kind != SV_STRING) return nomem(it);
        sv__core_utf16_to_wtf8(s, (size_t)n, it->big, sv_value_buf(out));
        *out = sv_with_flags(*out, SV_F_UTF16);
        return SV_OK;
    }
    /* spec §B.4: String8 = u32 length + bytes, no terminator. Text that is
     * not UTF-8 stays bytes; the command says it is a String8 on the way back. */
    if (cmd->id == NSB_STRING8 && sv__core_utf8_valid(s, (size_t)n))
        *out = sv_str(it->vdoc, (const char *)s, (size_t)n);
    else
        *out = sv_bytes(it->vdoc, s, (size_t)n);
    return out->kind == SV_NULL ? nomem(it) : SV_OK;
}

/* One value of a value command; the caller checked that min_size bytes are there. */
static inline sv_status read_one_in(interp *it, const nsb_cmd *cmd, sv_value *out, const bool big)
{
    const uint8_t *p = it->p;
    switch (cmd->id) {
    case NSB_REF: {
        /* spec §B.4: u32 instance-list index, 0xFFFFFFFF = null */
        uint32_t r = ld32(it, p);
        if (r == NSB_NULL_REF) {
            *out = mk(SV_REF, 0, SV_F_NULLREF);
        } else if (r >= it->in->instance_count) {
            return sv_error_set(it->err, SV_ERR_RANGE, NSB_FORMAT, off_of(it, p),
                                "Ref to instance %u, but the instance list has %u", r,
                                it->in->instance_count);
        } else {
            *out = mk(SV_REF, 0, 0);
            out->as.u = r;
        }
        it->p += 4;
        return SV_OK;
    }
    case NSB_INT8: *out = mk(SV_INT, 1, SV_F_EXPLICIT), out->as.i = (int8_t)p[0]; break;
    case NSB_INT16: *out = mk(SV_INT, 2, SV_F_EXPLICIT), out->as.i = (int16_t)ld16(it, p); break;
    case NSB_INT32: *out = mk(SV_INT, 4, SV_F_EXPLICIT), out->as.i = (int32_t)ld32(it, p); break;
    case NSB_INT64: *out = mk(SV_INT, 8, SV_F_EXPLICIT), out->as.i = (int64_t)ld64(it, p); break;
    case NSB_UINT8: *out = mk(SV_UINT, 1, SV_F_EXPLICIT), out->as.u = p[0]; break;
    case NSB_UINT16: *out = mk(SV_UINT, 2, SV_F_EXPLICIT), out->as.u = ld16(it, p); break;
    case NSB_UINT32: *out = mk(SV_UINT, 4, SV_F_EXPLICIT), out->as.u = ld32(it, p); break;
    case NSB_UINT64: *out = mk(SV_UINT, 8, SV_F_EXPLICIT), out->as.u = ld64(it, p); break;
    case NSB_BOOL:
        /* spec §B.4: 1 byte, 00/01. Real files store other bytes too (0x7F
         * in the Bool "__padding__" fields of DepthStencilStates); such a
         * byte is true and kept, to be written back as it was. */
        *out = sv_bool_raw(p[0]);
        break;
    case NSB_FLOAT32: {
        uint32_t u = ld32(it, p);
        float f;
        memcpy(&f, &u, 4);
        *out = mk(SV_FLOAT, 4, SV_F_EXPLICIT);
        out->as.f32 = f;
        break;
    }
    case NSB_FLOAT64: {
        uint64_t u = ld64(it, p);
        double d;
        memcpy(&d, &u, 8);
        *out = sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        break;
    }
    case NSB_CHAR8: *out = sv_with_tag(sv_uint_w(p[0], 1), SV_TAG_CHAR); break;
    case NSB_CHAR16: *out = sv_with_tag(sv_uint_w(ld16(it, p), 2), SV_TAG_CHAR); break;
    default: return read_blob(it, cmd, out);
    }
    it->p += nsb_value_min_size(cmd->id);
    return SV_OK;
}

static sv_status read_one(interp *it, const nsb_cmd *cmd, sv_value *out)
{
    return it->big ? read_one_in(it, cmd, out, true) : read_one_in(it, cmd, out, false);
}

/* A UInt32 field named "color" as the STRING "#AARRGGBB" tagged
 * color_argb (docs/formats/noesis.md, "Property names and colours"). */
static sv_status colour_value(interp *it, sv_value *v)
{
    static const char hex[] = "0123456789ABCDEF";
    char text[9];
    text[0] = '#';
    for (int k = 0; k < 8; k++) text[1 + k] = hex[(v->as.u >> (28 - 4 * k)) & 15];
    sv_value s = sv_str(it->vdoc, text, 9);
    if (s.kind != SV_STRING) return nomem(it);
    *v = sv_with_tag(s, SV_TAG_COLOR_ARGB);
    return SV_OK;
}

static bool is_colour_key(const sv_value *key)
{
    return key->kind == SV_STRING && key->len == 5 && memcmp(key->as.str, "color", 5) == 0;
}

/* A repeated value command: numbers as one PACKED array (one memcpy when
 * the byte orders agree), everything else as an ARRAY. */
static sv_status read_repeated(interp *it, const nsb_cmd *cmd, sv_value *out)
{
    size_t size = nsb_value_min_size(cmd->id);
    uint64_t need = (uint64_t)cmd->count * size;
    if ((uint64_t)(it->end - it->p) < need) return short_data(it, cmd, need);
    sv_elem elem = nsb_packed_elem(cmd->id);
    if (elem != SV_ELEM_NONE) {
        *out = sv_packed(it->vdoc, elem, SV_TAG_NONE, it->swap ? NULL : it->p, cmd->count);
        if (out->kind != SV_PACKED) return nomem(it);
        if (it->swap) {
            uint8_t *d = sv_value_buf(out);
            for (uint32_t i = 0; i < cmd->count; i++)
                for (size_t k = 0; k < size; k++) d[i * size + k] = it->p[i * size + size - 1 - k];
        }
        it->p += need;
        return SV_OK;
    }
    *out = sv_array(it->vdoc, cmd->count); /* count * 16 <= 4 * the data checked above */
    if (out->kind != SV_ARRAY) return nomem(it);
    sv_value *items = sv_array_items(out);
    for (uint32_t i = 0; i < cmd->count; i++) {
        if (it->end - it->p < (ptrdiff_t)size) return short_data(it, cmd, size);
        sv_status st = read_one(it, cmd, &items[i]);
        if (st != SV_OK) {
            sv_error_path_index(it->err, i);
            return st;
        }
    }
    return SV_OK;
}

/* The key of a field whose name was already used in this container: the
 * name and "#k" for its k-th use. Keys for k = 2..NSB_VARIANTS+1 are made
 * once per document and kept in it->variants (a DependencyObject's
 * LocalValue#2 recurs in every instance); later ones are made each time. */
#define NSB_VARIANTS 4
static sv_status repeated_key(interp *it, const nsb_cmd *cmd, struct nsb_seen *s, sv_value *key)
{
    uint32_t k = ++s->count;
    sv_value *cached = k - 2 < NSB_VARIANTS && cmd->desc < it->variant_names
                           ? &it->variants[(size_t)cmd->desc * NSB_VARIANTS + k - 2]
                           : NULL;
    if (cached && cached->kind == SV_STRING) {
        *key = *cached;
        return SV_OK;
    }
    char buf[64];
    const char *name = key->as.str;
    size_t n = key->len;
    char *tmp = n + 12 <= sizeof buf ? buf : sv_doc_alloc(it->doc, n + 12);
    if (!tmp) return nomem(it);
    memcpy(tmp, name, n);
    int m = snprintf(tmp + n, 12, "#%u", k);
    *key = sv_str_intern(it->doc, tmp, n + (size_t)m);
    if (key->kind != SV_STRING) return nomem(it);
    if (cached) *cached = *key;
    return SV_OK;
}

/* Room for more open fields: scratch, doubled, freed when the decode ends.
 * Open fields are at most one per command with a desc (5 bytes each); the
 * log grows with the fields that are open at once, not with the file. */
static bool grow_undo(interp *it)
{
    size_t cap = it->undo_cap ? 2 * (size_t)it->undo_cap : 64;
    if (cap > it->undo_max) cap = it->undo_max;
    if (cap <= it->undo_cap) return false;
    struct nsb_undo *n =
        sv__core_doc_scratch_realloc(it->doc, it->undo, it->undo_cap * sizeof *n, cap * sizeof *n);
    if (!n) return false;
    it->undo = n;
    it->undo_cap = (uint32_t)cap;
    return true;
}

/* The key of a field: its name, "#k" added for the k-th use in one container. */
static inline sv_status field_key(interp *it, const nsb_cmd *cmd, uint32_t container, sv_value *key)
{
    struct nsb_seen *s = &it->seen[cmd->desc];
    if (s->container == container) return repeated_key(it, cmd, s, key);
    if (it->undo_len == it->undo_cap && !grow_undo(it))
        return sv_error_set(it->err, SV_ERR_NOMEM, NSB_FORMAT, cmd->offset,
                            "out of memory for the open fields");
    it->undo[it->undo_len].desc = cmd->desc;
    it->undo[it->undo_len].old = *s;
    it->undo_len++;
    s->container = container;
    s->count = 1;
    return SV_OK;
}

static sv_status run_fields(interp *it, const uint8_t **pos, const nsb_cmd *begin, uint32_t nesting,
                            uint32_t id);

/* One container: its fields are run onto the stack, then moved into a MAP
 * (or the OBJECT *container, when it is one) of their number. Name counts
 * (field_key) are the container's own. */
static sv_status run_body(interp *it, const uint8_t **pos, const nsb_cmd *begin,
                          sv_value *container, const sv_value *cls, uint32_t nesting)
{
    uint32_t mark = it->undo_len;
    size_t base = it->top;
    sv_status st = run_fields(it, pos, begin, nesting, ++it->containers);
    while (it->undo_len > mark) {
        it->undo_len--;
        it->seen[it->undo[it->undo_len].desc] = it->undo[it->undo_len].old;
    }
    if (st == SV_OK) {
        const sv_pair *fields = it->stack ? it->stack + base : NULL; /* NULL: none yet */
        *container =
            sv__core_pairs_from(it->vdoc, cls ? SV_OBJECT : SV_MAP, fields, it->top - base);
        if (container->kind == SV_NULL)
            st = nomem(it);
        else if (cls)
            container->as.box->cls = cls; /* shared by the component's instances */
    }
    it->top = base;
    return st;
}

/* A Begin command inside an instance: a MAP, or an ARRAY of MAPs when repeated. */
static sv_status run_begin(interp *it, const uint8_t **pos, const nsb_cmd *cmd, sv_value *out,
                           uint32_t nesting)
{
    sv_status st = spend(it, cmd, cmd->repeat ? (uint64_t)cmd->count + 1 : 1);
    if (st != SV_OK) return st;
    if (!cmd->repeat) {
        return run_body(it, pos, cmd, out, NULL, nesting + 1);
    }
    /* Room for count maps, but no more than the data could fill (a body
     * may take no data; the budget bounds those rounds, the array grows). */
    size_t left = (size_t)(it->end - it->p);
    size_t cap = cmd->count <= left + 16 ? cmd->count : left + 16;
    *out = sv_array(it->vdoc, cap);
    if (out->kind != SV_ARRAY) return nomem(it);
    out->len = 0;
    if (cmd->count == 0) return nsb_cmd_skip_body(it->cs, pos, cmd, nesting + 1, it->max_nesting);
    const uint8_t *start = *pos;
    for (uint32_t i = 0; i < cmd->count; i++) {
        *pos = start;
        sv_value m;
        st = run_body(it, pos, cmd, &m, NULL, nesting + 1);
        if (st == SV_OK && sv_array_append(it->vdoc, out, m) != SV_OK) st = nomem(it);
        if (st != SV_OK) {
            sv_error_path_index(it->err, i);
            return st;
        }
    }
    return SV_OK;
}

static sv_status fail_at_key(interp *it, sv_status st, const sv_value *key)
{
    sv_error_path_key(it->err, key->as.str, key->len);
    return st;
}

/* Room for one more field on the stack (doubling; scratch, freed when the
 * decode ends). */
static sv_status grow_stack(interp *it)
{
    size_t cap = it->stack_cap ? 2 * it->stack_cap : 256;
    sv_pair *n = sv__core_doc_scratch_realloc(it->doc, it->stack, it->stack_cap * sizeof *n,
                                              cap * sizeof *n);
    if (!n) return nomem(it);
    it->stack = n;
    it->stack_cap = cap;
    return SV_OK;
}

/* The value part of each value command's tree value (read_one_in makes the
 * same), for the fast path of run_fields. */
#define T(kind, width, flags)                                                                      \
    {                                                                                              \
        (kind), (flags), (width), 0, 0,                                                            \
        {                                                                                          \
            0                                                                                      \
        }                                                                                          \
    }
static const sv_value plain_template[NSB_CMD_COUNT] = {
    [NSB_REF] = T(SV_REF, 0, 0),
    [NSB_INT32] = T(SV_INT, 4, SV_F_EXPLICIT),
    [NSB_INT64] = T(SV_INT, 8, SV_F_EXPLICIT),
    [NSB_UINT8] = T(SV_UINT, 1, SV_F_EXPLICIT),
    [NSB_UINT32] = T(SV_UINT, 4, SV_F_EXPLICIT),
    [NSB_BOOL] = T(SV_BOOL, 0, 0),
    [NSB_FLOAT32] = T(SV_FLOAT, 4, SV_F_EXPLICIT),
};
static const sv_value null_ref_template = T(SV_REF, 0, SV_F_NULLREF);
#undef T

/* The table of instance Names, made at the first one (scratch memory,
 * counted against the allocation limit: 16 bytes per instance). */
static sv_status make_names(interp *it)
{
    size_t size = nsb_names_size(it->in->instance_count);
    if (size > it->max_alloc || sv_doc_allocated(it->doc) > it->max_alloc - size)
        return sv_error_set(it->err, SV_ERR_LIMIT, NSB_FORMAT, off_of(it, it->p),
                            "%u instance names need more memory than the allocation limit allows",
                            it->in->instance_count);
    *it->names = sv__core_doc_scratch_realloc(it->doc, NULL, 0, size);
    if (!*it->names) return nomem(it);
    memset(*it->names, 0, size); /* all null (kind 0) */
    return SV_OK;
}

/* One command of a body the general way (any command: Begins, repeats,
 * strings, big-endian values, and every error). Returns SV_OK with *done
 * set when it was the body's End. */
static sv_status run_command(interp *it, const uint8_t **pos, const nsb_cmd *begin,
                             uint32_t nesting, uint32_t id, bool *done)
{
    nsb_cmd cmd;
    sv_status st;
    const nsb_cmds *cs = it->cs;
    st = nsb_cmd_read(cs, pos, &cmd);
    if (st == SV_OK) st = nsb_cmd_check_place(cs, &cmd, begin);
    if (st != SV_OK) return st;
    if (nsb_is_end(cmd.id)) {
        *done = true;
        return SV_OK;
    }
    sv_value key = cs->keys[cmd.desc];
    if (key.kind != SV_STRING && (st = nsb_cmd_key(cs, &cmd, &key)) != SV_OK) return st;
    if ((st = field_key(it, &cmd, id, &key)) != SV_OK) return st;
    if (it->top == it->stack_cap && (st = grow_stack(it)) != SV_OK)
        return fail_at_key(it, st, &key);
    if (nsb_is_begin(cmd.id)) {
        sv_value val;
        st = run_begin(it, pos, &cmd, &val, nesting);
        if (st != SV_OK) return fail_at_key(it, st, &key);
        /* the body's fields came and went above top: the room is still there */
        it->stack[it->top].key = key;
        it->stack[it->top].val = val;
        it->top++;
        return SV_OK;
    }
    if (it->budget == 0) return fail_at_key(it, spend(it, &cmd, 1), &key);
    it->budget--;
    /* The value goes straight into its slot on the stack. */
    sv_pair *slot = &it->stack[it->top];
    slot->key = key;
    if (cmd.repeat)
        st = read_repeated(it, &cmd, &slot->val);
    else if (it->end - it->p < (ptrdiff_t)nsb_value_min_size(cmd.id))
        st = short_data(it, &cmd, nsb_value_min_size(cmd.id));
    else
        st = read_one(it, &cmd, &slot->val);
    /* a repeated UInt32 is a packed array: only single ones are colours */
    if (st == SV_OK && !cmd.repeat && cmd.id == NSB_UINT32 && is_colour_key(&key))
        st = colour_value(it, &slot->val);
    if (st != SV_OK) return fail_at_key(it, st, &key);
    /* an instance's own Name (a string: never on the fast path) */
    if (nesting == 1 && !it->in->each && key.len == 4 && memcmp(key.as.str, "Name", 4) == 0 &&
        nsb_is_name(&slot->val)) {
        if (!*it->names && (st = make_names(it)) != SV_OK) return fail_at_key(it, st, &key);
        (*it->names)[it->next_instance] = slot->val;
    }
    it->top++;
    return SV_OK;
}

/* The commands after a Begin up to its End, pushing fields onto the stack.
 *
 * The fast path takes the commands every file is made of: a value command
 * without the repeat bit (op, u32 desc; the canonical stream was checked
 * when it was made, nsb_cmds_from_file) of a fixed-size number, ref or bool
 * in a little-endian file, whose name is ready and not yet used in this
 * container, with its data there and valid. It works on local copies of
 * the data pointer, the stack and the counters (stores into the tree may
 * alias the interp struct, so the compiler would reload them after each
 * one). Anything else, and any check that fails, goes to run_command with
 * the state written back; it makes the same values and all the errors. */
static sv_status run_fields(interp *it, const uint8_t **pos, const nsb_cmd *begin, uint32_t nesting,
                            uint32_t id)
{
    if (nesting > it->max_nesting)
        return sv_error_set(it->err, SV_ERR_DEPTH, NSB_FORMAT, begin->offset,
                            "Begin commands nested deeper than %u", it->max_nesting);
    const nsb_cmds *cs = it->cs;
    const uint8_t end_op = (uint8_t)nsb_end_of(begin->id);
    const bool fast = !it->big;
    const uint8_t *const cend = cs->end;
    const uint8_t *const dend = it->end;
    const sv_value *const keys = cs->keys;
    const uint32_t names = cs->name_count;
    const uint32_t instances = it->in->instance_count;
    struct nsb_seen *const seen = it->seen;
    const uint8_t *const colour = it->colour;
    struct nsb_undo *undo = it->undo; /* both reloaded when the log may have grown */
    uint32_t undo_cap = it->undo_cap;
    const uint8_t *cp = *pos, *dp = it->p;
    sv_pair *stack = it->stack;
    size_t top = it->top, cap = it->stack_cap;
    uint64_t budget = it->budget;
    uint32_t undo_len = it->undo_len;
    for (;;) {
        if (fast && cp < cend) {
            const uint8_t op = cp[0];
            if (op == end_op) { /* the End of this body */
                cp++;
                break;
            }
            if (op >= NSB_BEGIN_GROUP && op < NSB_CMD_COUNT && op != NSB_END_GROUP &&
                op != NSB_END_ARRAY && cend - cp >= 5) {
                const uint32_t desc = sv__core_load_u32le(cp + 1);
                if (desc < names && keys[desc].kind == SV_STRING && seen[desc].container != id &&
                    undo_len < undo_cap && top < cap) {
                    uint64_t bits = 0;
                    const ptrdiff_t left = dend - dp;
                    bool ok = budget > 0;
                    switch (op) {
                    case NSB_BEGIN_GROUP:
                    case NSB_BEGIN_ARRAY: ok = false; break;
                    case NSB_REF: {
                        /* spec §B.4: u32 instance-list index, 0xFFFFFFFF = null */
                        uint32_t r = left >= 4 ? sv__core_load_u32le(dp) : 0;
                        ok = ok && left >= 4 && (r == NSB_NULL_REF || r < instances);
                        bits = r == NSB_NULL_REF ? 0 : r;
                        break;
                    }
                    case NSB_UINT32:
                        /* a "color" becomes a string: the general path */
                        ok = ok && left >= 4 && !(colour && colour[desc]);
                        if (ok) bits = sv__core_load_u32le(dp);
                        break;
                    case NSB_FLOAT32: /* the f32 bits are the union's first 4 bytes (LE host) */
                        ok = ok && left >= 4;
                        if (ok) bits = sv__core_load_u32le(dp);
                        break;
                    case NSB_INT32:
                        ok = ok && left >= 4;
                        if (ok) bits = (uint64_t)(int64_t)(int32_t)sv__core_load_u32le(dp);
                        break;
                    case NSB_INT64:
                        ok = ok && left >= 8;
                        if (ok) bits = sv__core_load_u64le(dp);
                        break;
                    case NSB_UINT8:
                        ok = ok && left >= 1;
                        if (ok) bits = dp[0];
                        break;
                    case NSB_BOOL:
                        /* spec §B.4: 00 or 01; any other byte takes the
                         * general path, which keeps it */
                        ok = ok && left >= 1 && dp[0] <= 1;
                        if (ok) bits = dp[0];
                        break;
                    default: ok = false; break;
                    }
                    if (ok) {
                        /* the value as its two 8-byte halves: the template's
                         * header (kind, flags, width) and the payload */
                        uint64_t head;
                        memcpy(&head, &plain_template[op], 8);
                        if (op == NSB_REF && sv__core_load_u32le(dp) == NSB_NULL_REF)
                            memcpy(&head, &null_ref_template, 8);
                        dp += nsb_value_min_size(op);
                        undo[undo_len].desc = desc;
                        undo[undo_len].old = seen[desc];
                        undo_len++;
                        seen[desc].container = id;
                        seen[desc].count = 1;
                        sv_pair *slot = &stack[top];
                        slot->key = keys[desc];
                        memcpy(&slot->val, &head, 8);
                        memcpy((uint8_t *)&slot->val + 8, &bits, 8);
                        top++;
                        budget--;
                        cp += 5;
                        continue;
                    }
                    if (op == NSB_BEGIN_GROUP || op == NSB_BEGIN_ARRAY) {
                        /* a group or array without the repeat bit: its body
                         * is a MAP, made by run_body through run_begin */
                        nsb_cmd cmd;
                        cmd.id = op;
                        cmd.repeat = false;
                        cmd.count = 1;
                        cmd.desc = desc;
                        cmd.offset = cs->offset0 + (uint64_t)(cp - cs->begin);
                        undo[undo_len].desc = desc;
                        undo[undo_len].old = seen[desc];
                        undo_len++;
                        seen[desc].container = id;
                        seen[desc].count = 1;
                        it->p = dp;
                        it->top = top;
                        it->budget = budget;
                        it->undo_len = undo_len;
                        *pos = cp + 5;
                        sv_value val;
                        sv_status st = run_begin(it, pos, &cmd, &val, nesting);
                        if (st != SV_OK) return fail_at_key(it, st, &keys[desc]);
                        cp = *pos;
                        dp = it->p;
                        stack = it->stack;
                        cap = it->stack_cap;
                        budget = it->budget;
                        undo = it->undo;
                        undo_cap = it->undo_cap;
                        undo_len = it->undo_len;
                        /* the body's fields came and went above top */
                        stack[top].key = keys[desc];
                        stack[top].val = val;
                        top++;
                        continue;
                    }
                }
            }
        }
        /* the general path, with the state written back and read again */
        it->p = dp;
        it->top = top;
        it->budget = budget;
        it->undo_len = undo_len;
        *pos = cp;
        bool done = false;
        sv_status st = run_command(it, pos, begin, nesting, id, &done);
        if (st != SV_OK) return st;
        if (done) return SV_OK;
        cp = *pos;
        dp = it->p;
        stack = it->stack;
        top = it->top;
        cap = it->stack_cap;
        budget = it->budget;
        undo = it->undo;
        undo_cap = it->undo_cap;
        undo_len = it->undo_len;
    }
    it->p = dp;
    it->top = top;
    it->budget = budget;
    it->undo_len = undo_len;
    *pos = cp;
    return SV_OK;
}

/* Instance next_instance by a plan: what run_body makes of the same body,
 * the budget spent and the instance's Name noted as it does. false (and
 * nothing spent) when the plan declines: run_body then runs the body. */
static bool replay(interp *it, nsb_plan *plan, const sv_value *cls, sv_value *obj)
{
    if (it->budget < nsb_plan_spend(plan)) return false;
    const nsb_plan_run_in in = {it->end, it->in->instance_count, it->max_string, it->vdoc, cls};
    const uint8_t *p = it->p;
    const sv_value *name;
    if (!nsb_plan_run(plan, &in, &p, obj, &name)) return false;
    if (name && !it->in->each && nsb_is_name(name)) {
        if (!*it->names && make_names(it) != SV_OK) return false;
        (*it->names)[it->next_instance] = *name;
    }
    it->p = p;
    it->budget -= nsb_plan_spend(plan);
    return true;
}

/* A BeginInstance at the top of the stream: count instances with the same body. */
static sv_status run_instances(interp *it, const uint8_t **pos, const nsb_cmd *cmd)
{
    sv_status st = spend(it, cmd, (uint64_t)cmd->count);
    if (st != SV_OK) return st;
    if (cmd->count == 0) return nsb_cmd_skip_body(it->cs, pos, cmd, 1, it->max_nesting);
    const uint8_t *start = *pos;
    for (uint32_t i = 0; i < cmd->count; i++) {
        uint32_t n = it->next_instance;
        if (n >= it->in->instance_count)
            return sv_error_set(it->err, SV_ERR_SYNTAX, NSB_FORMAT, cmd->offset,
                                "the commands describe more instances than the %u of the "
                                "instance list",
                                it->in->instance_count);
        *pos = start;
        sv_value obj;
        const sv_value *cls = &it->in->classes[it->in->instances[n]];
        nsb_plan *plan = it->plans ? nsb_plans_find(it->plans, start, it->in->instances[n]) : NULL;
        if (it->plans && nsb_plans_nomem(it->plans)) return nomem(it);
        if (plan && !replay(it, plan, cls, &obj)) plan = NULL; /* the interpreter says why */
        if (plan) {
            *pos = start + nsb_plan_body_len(plan);
        } else if ((st = run_body(it, pos, cmd, &obj, cls, 1)) != SV_OK) {
            sv_error_path_index(it->err, n);
            return st;
        }
        it->next_instance = n + 1;
        if (!it->in->each) {
            it->objects[n] = obj;
        } else if ((st = it->in->each(it->in->each_ctx, n, cmd, start, &obj)) != SV_OK) {
            return st;
        }
    }
    return SV_OK;
}

static sv_status run_all(interp *it, sv_doc *doc, const nsb_interp_in *in, sv_value *objects,
                         sv_value **names);

sv_status nsb_interp_run(sv_doc *doc, const nsb_interp_in *in, sv_value *objects, sv_value **names)
{
    *names = NULL;
    interp it;
    memset(&it, 0, sizeof it);
    sv_status st = run_all(&it, doc, in, objects, names);
    sv__core_doc_scratch_free(doc, it.undo, it.undo_cap * sizeof *it.undo);
    sv__core_doc_scratch_free(doc, it.stack, it.stack_cap * sizeof *it.stack);
    nsb_plans_free(it.plans);
    if (st != SV_OK && *names) {
        sv__core_doc_scratch_free(doc, *names, nsb_names_size(in->instance_count));
        *names = NULL;
    }
    return st;
}

static sv_status run_all(interp *it, sv_doc *doc, const nsb_interp_in *in, sv_value *objects,
                         sv_value **names)
{
    it->doc = doc;
    it->vdoc = in->each ? in->values : doc;
    it->names = names;
    const nsb_cmds *cs = in->cmds;
    it->cs = cs;
    it->base = in->file;
    it->p = in->data;
    it->end = in->data + in->data_size;
    it->big = in->big;
    it->swap = in->big != host_is_big();
    it->in = in;
    it->err = cs->err;
    it->max_alloc = in->max_alloc;
    /* Every value takes at least one data byte; only Begin rounds and
     * zero-count repeats take none. This many executions is far beyond
     * what real files need (the 303 of spec §B.4 stay under 1x) and keeps
     * a hostile count from building a tree out of nothing. */
    it->budget = 8 * ((uint64_t)in->data_size + (uint64_t)(cs->end - cs->begin)) + 4096;
    /* Tree levels: root, chunks, chunk, objects, instance, then up to two
     * per Begin level (an ARRAY of MAPs when repeated) and one for a
     * repeated value. */
    it->max_nesting = in->max_depth > 8 ? (in->max_depth - 6) / 2 : 1;
    it->max_string = in->max_string;
    it->undo_max = (uint32_t)((cs->end - cs->begin) / 5 + 1); /* grow_undo */
    it->seen = sv_doc_alloc(doc, ((size_t)cs->name_count + 1) * sizeof *it->seen);
    /* Rows for the first 1024 names only: 64 bytes a name would be more
     * than a hostile list of empty names justifies. */
    it->variant_names = cs->name_count < 1024 ? cs->name_count : 1024;
    it->variants =
        sv_doc_alloc(doc, ((size_t)it->variant_names + 1) * NSB_VARIANTS * sizeof(sv_value));
    if (!it->seen || !it->variants || !grow_undo(it)) return nomem(it);
    uint32_t colours = 0;
    for (uint32_t i = 0; i < cs->name_count; i++) colours += is_colour_key(&cs->names[i]);
    if (colours) {
        it->colour = sv_doc_alloc(doc, cs->name_count);
        if (!it->colour) return nomem(it);
        for (uint32_t i = 0; i < cs->name_count; i++) it->colour[i] = is_colour_key(&cs->names[i]);
    }
    memset(it->seen, 0, ((size_t)cs->name_count + 1) * sizeof *it->seen);
    memset(it->variants, 0, ((size_t)it->variant_names + 1) * NSB_VARIANTS * sizeof(sv_value));
    /* Plans read little-endian values straight into the host's: both
     * must be little-endian (every real file is). Their instances are
     * compact objects, the shapes in the document, except when each
     * instance goes to a callback whose document of values may be emptied
     * between instances (it would take the shapes with it). */
    if (!in->big && !host_is_big() &&
        !(it->plans =
              nsb_plans_new(doc, cs, it->max_nesting, in->each == NULL, in->instance_count)))
        return nomem(it);
    *objects = sv_null();
    if (!in->each) {
        *objects = sv_array(doc, in->instance_count);
        if (objects->kind != SV_ARRAY) return nomem(it);
        it->objects = sv_array_items(objects);
    }
    const uint8_t *pos = cs->begin;
    while (pos < cs->end) {
        nsb_cmd cmd;
        sv_status st = nsb_cmd_read_top(cs, &pos, &cmd);
        if (st == SV_OK) st = run_instances(it, &pos, &cmd);
        if (st != SV_OK) return st;
    }
    if (it->next_instance != in->instance_count)
        return sv_error_set(cs->err, SV_ERR_SYNTAX, NSB_FORMAT,
                            cs->offset0 + (uint64_t)(cs->end - cs->begin),
                            "the commands describe %u instances, the instance list has %u",
                            it->next_instance, in->instance_count);
    if (it->p != it->end)
        return sv_error_set(cs->err, SV_ERR_TRAILING, NSB_FORMAT, off_of(it, it->p),
                            "the commands consumed %zu of the %zu data bytes",
                            (size_t)(it->p - in->data), in->data_size);
    return SV_OK;
}
