/* Decode: instance bodies compiled once and replayed (noesis_interp.c).
 *
 * Every instance carries its own commands (spec §B.4), but a file repeats
 * the same few bodies: the commands of two DoubleAnimations differ only in
 * their data. Running the interpreter over each body again re-reads each
 * command, re-counts names for their "#k" suffixes, re-checks the budget and
 * the nesting per command and builds each container on a stack before
 * copying it into the tree.
 *
 * A plan is what that work leaves: the instance's whole tree laid out in one
 * block (the object's box, then every map and array box under it, each made
 * at its final size), and one step per value or container saying where it
 * goes and what key it has. A body seen a second time (by a hash of its first
 * bytes, then compared byte for byte) is compiled; from then on the same
 * bytes replay the plan. The decoder's replay makes one allocation, copies
 * into it a template of the containers (keys, headers, each value's kind
 * and width) and writes each value's payload from the data ("replaying"
 * below); the encoder's walks the steps over the tree.
 *
 * A plan makes exactly the values the interpreter makes. Anything it does
 * not take (big-endian files, colours, Char and String16 commands, repeated
 * strings, a zero repeat) is left to the interpreter when compiling; any
 * data the interpreter would refuse (short data, a ref out of range, a
 * string over the limit) makes the replay decline, and the interpreter runs
 * the same instance again from the same place, reporting the error as it
 * always did. */
#include <stddef.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "formats/noesis/noesis_plan.h"

enum {
    P_VALUE,  /* one value of a value command */
    P_PACKED, /* a repeated number command: a PACKED array */
    P_REFS,   /* a repeated Ref: an ARRAY of refs */
    P_MAP,    /* a BeginGroup/Array body (or one round of a repeated one) */
    P_ARRAY   /* a repeated BeginGroup/Array: the ARRAY of its rounds' maps */
};

/* Shapes a plan keeps (distinct classes sharing one body). */
#define SHAPES_KEPT 4u

/* The encoder's one switch per field: a value command's id (below
 * OP_MAP), or one of these for the other kinds. */
enum { OP_MAP = NSB_CMD_COUNT, OP_ARRAY, OP_PACKED, OP_REFS };

/* The decoder's replay of a plan: one op per value, in data order. An op
 * reads at src bytes into its segment (the data from the instance's start
 * or from the end of the last string) and writes the payload of the value
 * at dst in the block; the rest of every value (its kind, width and flags,
 * a field's key, a container's header) is in the plan's template, which
 * each replay copies first. Float32 and Float64 are D_U32 and D_U64: the
 * payload is their bits either way. */
enum {
    D_I8,
    D_I16,
    D_I32,
    D_I64,
    D_U8,
    D_U16,
    D_U32,
    D_U64,
    D_BOOL,
    D_REF,
    D_PTR,    /* a container's value: its box at aux (kept apart: fixes) */
    D_PACKED, /* n bytes copied to the area at aux, the value's data */
    D_REFS,   /* n refs: the box at dst and its items */
    D_STR8,   /* a String8: STRING when UTF-8, else BYTES; a segment follows */
    D_BUF     /* a Buffer: BYTES; a segment follows */
};
typedef struct dop {
    uint32_t code, src, dst, aux, n;
} dop;

typedef struct pstep {
    uint8_t kind;
    uint8_t id;     /* the command id */
    uint8_t op;     /* encoder: id for P_VALUE, else OP_* of the kind */
    uint8_t top;    /* 1: a field of the object itself (its key is in the shape) */
    uint8_t pair;   /* 1: the slot is a field (key and value), 0: an array item */
    uint8_t elem;   /* P_PACKED: the sv_elem */
    uint32_t slot;  /* byte offset in the block of the field or the item */
    uint32_t box;   /* P_MAP, P_ARRAY: byte offset of the box in the block */
    uint32_t count; /* fields, items or the repeat count */
    sv_value key;
    const char *seen; /* encoder: a key text found equal to key's */
} pstep;

struct nsb_plan {
    const uint8_t *body; /* the canonical bytes after BeginInstance, End included */
    size_t body_len;
    size_t block;      /* bytes of the instance's containers */
    uint64_t spend;    /* budget the interpreter would spend on the body */
    uint32_t fields;   /* the object's */
    uint32_t name_val; /* byte offset of the value of the field keyed "Name", or UINT32_MAX */
    uint32_t nsteps;
    size_t fixed; /* encoder: output bytes of the body but the strings' and buffers' texts */
    bool compact; /* decoder: the object is made compact (its fields' values only) */
    /* decoder: the shapes of the object for the classes met (one body may
     * serve several components), replaced in turn past SHAPES_KEPT;
     * encoder: the shape of a compact object whose keys were found to be
     * the plan's (shape[0]), so the next of that shape skips the checks */
    const sv_value *shape_cls[SHAPES_KEPT];
    const sv_shape *shape[SHAPES_KEPT];
    uint32_t shape_next;
    size_t bytes; /* of this allocation */
    /* decoder: the replay (below, "replaying"): ops in data order, the
     * offset of each string's length in its segment, the bytes after the
     * last string, and the block as every instance starts it */
    const dop *ops;
    uint32_t nops;
    const dop *fixes; /* the D_PTR ops: they read no data, so they need no
                       * place among the others nor a switch */
    uint32_t nfixes;
    const uint32_t *str_at;
    uint32_t nstr;
    uint32_t last_fixed;
    const uint8_t *tmpl; /* the containers' part of the block; the packed
                          * arrays and ref arrays after it are written whole */
    size_t tmpl_len;
    pstep steps[];
};

/* Bounds on what one plan may hold: real bodies are far smaller. */
#define PLAN_MAX_STEPS 1024u
#define PLAN_MAX_BLOCK (256u * 1024u)
#define PLAN_MAX_FIELDS 256u
/* Bytes hashed to find a body's bucket, and plans kept per bucket. */
#define PLAN_HASH_BYTES 64u
#define PLAN_WAYS 4u
/* Hints remembered (a power of two). */
#define PLAN_RECENT 64u

struct nsb_plans {
    sv_doc *doc;  /* scratch memory for the table and the plans */
    sv_doc *keys; /* encoder: where the "#k" keys are made (the decoder's are in cs->doc) */
    const nsb_cmds *cs;
    uint32_t max_nesting;
    size_t memory, memory_max; /* plan bytes held, and the most allowed */
    struct bucket {
        uint64_t hash;
        uint8_t seen; /* 1: a body of this hash was run; 2: it cannot be planned */
        uint8_t next; /* the way the next plan replaces */
        nsb_plan *plan[PLAN_WAYS];
    } * table;
    uint32_t mask;
    bool nomem; /* an allocation failed: the caller reports it */
    /* per hint (the caller's: an instance's component), the plan last
     * found for it: the next instance of a class most often has the same
     * body, found then by one compare and no hash */
    nsb_plan *recent[PLAN_RECENT];
    bool compact; /* decoder: objects made compact */
};

/* Buckets of the body table: at most TABLE_SIZE, fewer for a file of few
 * instances, whose decode should not pay for a table it cannot fill. */
#define TABLE_SIZE 4096u
#define TABLE_SIZE_MIN 16u

static uint32_t table_size(uint64_t instances)
{
    uint32_t n = TABLE_SIZE_MIN;
    while (n < TABLE_SIZE && n < instances) n *= 2;
    return n;
}

nsb_plans *nsb_plans_new(sv_doc *doc, const nsb_cmds *cs, uint32_t max_nesting, bool compact,
                         uint64_t instances)
{
    const uint32_t buckets = table_size(instances);
    nsb_plans *ps = sv__core_doc_scratch_realloc(doc, NULL, 0, sizeof *ps);
    if (!ps) return NULL;
    memset(ps, 0, sizeof *ps);
    ps->keys = cs->keys ? NULL : doc;
    ps->table = sv__core_doc_scratch_realloc(doc, NULL, 0, buckets * sizeof *ps->table);
    if (!ps->table) {
        sv__core_doc_scratch_free(doc, ps, sizeof *ps);
        return NULL;
    }
    memset(ps->table, 0, buckets * sizeof *ps->table);
    ps->doc = doc;
    ps->cs = cs;
    ps->mask = buckets - 1;
    ps->max_nesting = max_nesting;
    ps->compact = compact;
    /* Distinct bodies are distinct command bytes, so plans stay within a
     * small multiple of the stream; this caps them for any input. */
    ps->memory_max = 16u * 1024u * 1024u;
    return ps;
}

void nsb_plans_free(nsb_plans *ps)
{
    if (!ps) return;
    for (uint32_t b = 0; b <= ps->mask; b++)
        for (uint32_t w = 0; w < PLAN_WAYS; w++)
            if (ps->table[b].plan[w])
                sv__core_doc_scratch_free(ps->doc, ps->table[b].plan[w],
                                          ps->table[b].plan[w]->bytes);
    sv__core_doc_scratch_free(ps->doc, ps->table, ((size_t)ps->mask + 1) * sizeof *ps->table);
    sv__core_doc_scratch_free(ps->doc, ps, sizeof *ps);
}

/* ---- compiling ---- */

/* Each step adds one op, one fix or (a repeated Ref) one of each. */
#define PLAN_MAX_OPS PLAN_MAX_STEPS

typedef struct compiler {
    nsb_cmds cs; /* the stream's, with errors going to a scratch record */
    sv_error scratch_err;
    sv_doc *doc; /* where "#k" keys are interned */
    uint32_t nsteps;
    size_t block;
    uint64_t spend;
    uint32_t max_nesting;
    uint32_t name_val;
    size_t fixed;                            /* as nsb_plan's */
    bool compact;                            /* the object's own box holds values, not pairs */
    uint32_t nops, nfixes, nstr, last_fixed; /* the decoder's replay, as nsb_plan's */
    /* The arrays last and not cleared (each entry is written when it is
     * added): clearing their 90 KB cost more than the rest of a compile. */
    pstep steps[PLAN_MAX_STEPS];
    dop ops[PLAN_MAX_OPS];
    dop fixes[PLAN_MAX_OPS];
    uint32_t str_at[PLAN_MAX_STEPS];
} compiler;

/* A plan's bytes: the plan, its steps, then the decoder's ops, string
 * offsets and template (16-byte aligned) when it has them. */
static size_t plan_size(const compiler *c, size_t tmpl)
{
    size_t n = sizeof(nsb_plan) + (size_t)c->nsteps * sizeof(pstep) +
               ((size_t)c->nops + c->nfixes) * sizeof(dop) + (size_t)c->nstr * sizeof(uint32_t);
    return tmpl ? ((n + 15) & ~(size_t)15) + tmpl : n;
}

static bool supported_single(unsigned id)
{
    switch (id) {
    case NSB_REF:
    case NSB_INT8:
    case NSB_INT16:
    case NSB_INT32:
    case NSB_INT64:
    case NSB_UINT8:
    case NSB_UINT16:
    case NSB_UINT32:
    case NSB_UINT64:
    case NSB_BOOL:
    case NSB_FLOAT32:
    case NSB_FLOAT64:
    case NSB_STRING8:
    case NSB_BUFFER: return true;
    default: return false;
    }
}

/* The fields of the body after begin at pos (nested bodies skipped), or -1
 * when the body is not well formed. */
static int64_t count_fields(compiler *c, const uint8_t *pos, const nsb_cmd *begin)
{
    int64_t n = 0;
    for (;;) {
        nsb_cmd cmd;
        if (nsb_cmd_read(&c->cs, &pos, &cmd) != SV_OK ||
            nsb_cmd_check_place(&c->cs, &cmd, begin) != SV_OK)
            return -1;
        if (nsb_is_end(cmd.id)) return n;
        if (nsb_is_begin(cmd.id) &&
            nsb_cmd_skip_body(&c->cs, &pos, &cmd, 0, c->max_nesting) != SV_OK)
            return -1;
        n++;
    }
}

static bool reserve(compiler *c, size_t bytes, uint32_t *off)
{
    if (c->block > PLAN_MAX_BLOCK - bytes) return false;
    *off = (uint32_t)c->block;
    c->block += bytes;
    return true;
}

static pstep *add_step(compiler *c)
{
    if (c->nsteps == PLAN_MAX_STEPS) return NULL;
    pstep *s = &c->steps[c->nsteps++];
    memset(s, 0, sizeof *s);
    return s;
}

/* The key of the k-th use of a name in one container: the interpreter's
 * (noesis_interp.c, field_key): the name, then "name#k". */
static bool key_of(compiler *c, uint32_t desc, uint32_t k, sv_value *key)
{
    /* decoding: the interpreter's key, made when it ran the body before;
     * encoding: the name itself, which must be UTF-8 (nsb_cmd_key) */
    const sv_value *name = c->cs.keys ? &c->cs.keys[desc] : &c->cs.names[desc];
    if (name->kind != SV_STRING) return false;
    if (!c->cs.keys && !sv__core_utf8_valid(name->as.bytes, name->len)) return false;
    if (k == 1) {
        *key = *name;
        return true;
    }
    char buf[96];
    if (name->len + 12 > sizeof buf) return false;
    memcpy(buf, name->as.str, name->len);
    size_t n = name->len;
    buf[n++] = '#';
    char digits[12];
    size_t d = 0;
    for (uint32_t x = k; x; x /= 10) digits[d++] = (char)('0' + x % 10);
    while (d) buf[n++] = digits[--d];
    *key = sv_str_intern(c->doc, buf, n);
    return key->kind == SV_STRING;
}

static bool is_text(const sv_value *k, const char *s, size_t n)
{
    return k->len == n && memcmp(k->as.str, s, n) == 0;
}

/* One container's body from pos (just after its Begin), its box at box
 * with room for nfields fields. */
static bool compile_body(compiler *c, const uint8_t **pos, const nsb_cmd *begin, uint32_t box,
                         uint32_t nfields, uint32_t nesting)
{
    if (nesting > c->max_nesting || nfields > PLAN_MAX_FIELDS) return false;
    struct {
        uint32_t desc, uses;
    } used[PLAN_MAX_FIELDS];
    uint32_t nused = 0, field = 0;
    for (;;) {
        nsb_cmd cmd;
        if (nsb_cmd_read(&c->cs, pos, &cmd) != SV_OK ||
            nsb_cmd_check_place(&c->cs, &cmd, begin) != SV_OK)
            return false;
        if (nsb_is_end(cmd.id)) return field == nfields;
        if (field == nfields) return false;
        uint32_t k = 1, u = 0;
        for (; u < nused && used[u].desc != cmd.desc; u++) {
        }
        if (u < nused) {
            k = ++used[u].uses;
        } else {
            used[nused].desc = cmd.desc;
            used[nused++].uses = 1;
        }
        sv_value key;
        if (!key_of(c, cmd.desc, k, &key)) return false;
        /* the compact object's own fields: values only */
        const bool values_only = nesting == 1 && c->compact;
        uint32_t slot = box + (uint32_t)sizeof(sv_container) +
                        field * (uint32_t)(values_only ? sizeof(sv_value) : sizeof(sv_pair));
        uint32_t val = values_only ? slot : slot + (uint32_t)offsetof(sv_pair, val);
        if (nesting == 1 && is_text(&key, "Name", 4)) c->name_val = val;
        field++;
        pstep *s = add_step(c);
        if (!s) return false;
        s->id = cmd.id;
        s->pair = values_only ? 0 : 1;
        s->top = nesting == 1;
        s->slot = slot;
        s->key = key;
        s->count = cmd.count;
        if (nsb_is_begin(cmd.id)) {
            if (cmd.repeat && cmd.count == 0) return false;
            int64_t n = count_fields(c, *pos, &cmd);
            if (n < 0 || n > PLAN_MAX_FIELDS) return false;
            size_t map_bytes = sizeof(sv_container) + (size_t)n * sizeof(sv_pair);
            if (!cmd.repeat) {
                c->spend += 1;
                s->kind = P_MAP;
                s->op = OP_MAP;
                s->count = (uint32_t)n;
                if (!reserve(c, map_bytes, &s->box)) return false;
                if (!compile_body(c, pos, &cmd, s->box, (uint32_t)n, nesting + 1)) return false;
                continue;
            }
            c->spend += (uint64_t)cmd.count + 1;
            s->kind = P_ARRAY;
            s->op = OP_ARRAY;
            if (cmd.count > PLAN_MAX_STEPS ||
                !reserve(c, sizeof(sv_container) + (size_t)cmd.count * sizeof(sv_value), &s->box))
                return false;
            uint32_t items = s->box + (uint32_t)sizeof(sv_container);
            const uint8_t *start = *pos;
            for (uint32_t r = 0; r < cmd.count; r++) {
                *pos = start;
                pstep *m = add_step(c);
                if (!m) return false;
                m->kind = P_MAP;
                m->op = OP_MAP;
                m->id = cmd.id;
                m->slot = items + r * (uint32_t)sizeof(sv_value);
                m->count = (uint32_t)n;
                if (!reserve(c, map_bytes, &m->box) ||
                    !compile_body(c, pos, &cmd, m->box, (uint32_t)n, nesting + 1))
                    return false;
            }
            continue;
        }
        c->spend += 1;
        if (!cmd.repeat) {
            /* a "color" UInt32 becomes a string: the interpreter's */
            if (!supported_single(cmd.id) || (cmd.id == NSB_UINT32 && is_text(&key, "color", 5)))
                return false;
            s->kind = P_VALUE;
            s->op = cmd.id;
            c->fixed += nsb_value_min_size(cmd.id); /* a string's: its length */
            continue;
        }
        if (cmd.id == NSB_REF) {
            s->kind = P_REFS;
            s->op = OP_REFS;
        } else if (nsb_packed_elem(cmd.id) != SV_ELEM_NONE) {
            s->kind = P_PACKED;
            s->op = OP_PACKED;
            s->elem = (uint8_t)nsb_packed_elem(cmd.id);
        } else {
            return false;
        }
        c->fixed += (size_t)cmd.count * nsb_value_min_size(cmd.id);
        /* the encoder reserves fixed bytes before checking the tree: a
         * body that would reserve more is left to the interpreter */
        if (c->fixed > PLAN_MAX_BLOCK) return false;
    }
}

/* The plan of the body at pos, or NULL when it cannot be planned. */
static bool build_ops(compiler *c, uint8_t *tmpl);

static nsb_plan *compile(nsb_plans *ps, const uint8_t *pos)
{
    compiler *c = sv__core_doc_scratch_realloc(ps->doc, NULL, 0, sizeof *c);
    if (!c) {
        ps->nomem = true;
        return NULL;
    }
    memset(c, 0, offsetof(compiler, steps));
    c->cs = *ps->cs;
    c->cs.err = &c->scratch_err;
    sv_error_clear(&c->scratch_err);
    c->doc = ps->keys ? ps->keys : ps->cs->doc;
    c->max_nesting = ps->max_nesting;
    c->name_val = UINT32_MAX;
    c->compact = ps->compact;
    nsb_cmd begin;
    memset(&begin, 0, sizeof begin);
    begin.id = NSB_BEGIN_INSTANCE;
    begin.count = 1;
    begin.desc = UINT32_MAX;
    nsb_plan *pl = NULL;
    const uint8_t *p = pos;
    int64_t n = count_fields(c, pos, &begin);
    uint32_t box = 0;
    /* the decoder's replay: its ops once to size the block, then again
     * into the plan with the template */
    const bool decoding = ps->keys == NULL;
    size_t containers = 0, bytes = 0;
    if (n >= 0 && n <= PLAN_MAX_FIELDS &&
        reserve(
            c, sizeof(sv_container) + (size_t)n * (c->compact ? sizeof(sv_value) : sizeof(sv_pair)),
            &box) &&
        compile_body(c, &p, &begin, box, (uint32_t)n, 1) &&
        (containers = c->block, !decoding || build_ops(c, NULL)) &&
        (bytes = plan_size(c, decoding ? containers : 0), ps->memory + bytes <= ps->memory_max)) {
        pl = sv__core_doc_scratch_realloc(ps->doc, NULL, 0, bytes);
        if (pl) {
            uint8_t *tail = (uint8_t *)&pl->steps[c->nsteps];
            pl->bytes = bytes;
            pl->ops = NULL;
            pl->str_at = NULL;
            pl->tmpl = NULL;
            pl->tmpl_len = 0;
            pl->fixes = NULL;
            pl->nops = pl->nfixes = pl->nstr = pl->last_fixed = 0;
            if (decoding) {
                uint8_t *tmpl = (uint8_t *)pl + (bytes - containers);
                memset(tmpl, 0, containers);
                c->block = containers;
                build_ops(c, tmpl); /* the same ops and offsets as before */
                memcpy(tail, c->ops, c->nops * sizeof(dop));
                pl->ops = (const dop *)(const void *)tail;
                tail += c->nops * sizeof(dop);
                memcpy(tail, c->fixes, c->nfixes * sizeof(dop));
                pl->fixes = (const dop *)(const void *)tail;
                pl->nfixes = c->nfixes;
                tail += c->nfixes * sizeof(dop);
                memcpy(tail, c->str_at, c->nstr * sizeof(uint32_t));
                pl->str_at = (const uint32_t *)(const void *)tail;
                pl->nops = c->nops;
                pl->nstr = c->nstr;
                pl->last_fixed = c->last_fixed;
                pl->tmpl = tmpl;
                pl->tmpl_len = containers;
            }
            pl->body = pos;
            pl->body_len = (size_t)(p - pos);
            pl->block = c->block;
            pl->spend = c->spend;
            pl->fields = (uint32_t)n;
            pl->name_val = c->name_val;
            pl->compact = c->compact;
            memset(pl->shape_cls, 0, sizeof pl->shape_cls);
            memset(pl->shape, 0, sizeof pl->shape);
            pl->shape_next = 0;
            pl->nsteps = c->nsteps;
            pl->fixed = c->fixed;
            memcpy(pl->steps, c->steps, c->nsteps * sizeof(pstep));
            ps->memory += bytes;
        } else {
            ps->nomem = true;
        }
    }
    if (sv_doc_status(c->doc) != SV_OK) ps->nomem = true; /* a "#k" key not made */
    sv__core_doc_scratch_free(ps->doc, c, sizeof *c);
    return pl;
}

static nsb_plan *find(nsb_plans *ps, const uint8_t *pos);

nsb_plan *nsb_plans_find(nsb_plans *ps, const uint8_t *pos, uint32_t hint)
{
    nsb_plan **recent = &ps->recent[hint & (PLAN_RECENT - 1)];
    nsb_plan *pl = *recent;
    if (pl && pl->body_len <= (size_t)(ps->cs->end - pos) &&
        memcmp(pl->body, pos, pl->body_len) == 0)
        return pl;
    pl = find(ps, pos);
    if (pl) *recent = pl;
    return pl;
}

static nsb_plan *find(nsb_plans *ps, const uint8_t *pos)
{
    const uint8_t *end = ps->cs->end;
    size_t avail = (size_t)(end - pos);
    size_t hashed = avail < PLAN_HASH_BYTES ? avail : PLAN_HASH_BYTES;
    uint64_t h = nsb_hash_bytes(pos, hashed, NSB_HASH_SEED ^ hashed);
    struct bucket *b = &ps->table[h & ps->mask];
    if (b->hash == h) {
        for (uint32_t w = 0; w < PLAN_WAYS; w++) {
            nsb_plan *pl = b->plan[w];
            if (pl && pl->body_len <= avail && memcmp(pl->body, pos, pl->body_len) == 0) return pl;
        }
        if (b->seen != 1) return NULL;
        /* seen before: compile it (the interpreter made its keys then) */
        nsb_plan *pl = compile(ps, pos);
        if (!pl) {
            if (!b->plan[0]) b->seen = 2;
            return NULL;
        }
        uint32_t w = b->next++ % PLAN_WAYS;
        if (b->plan[w]) {
            for (uint32_t r = 0; r < PLAN_RECENT; r++)
                if (ps->recent[r] == b->plan[w]) ps->recent[r] = NULL;
            ps->memory -= b->plan[w]->bytes;
            sv__core_doc_scratch_free(ps->doc, b->plan[w], b->plan[w]->bytes);
        }
        b->plan[w] = pl;
        return pl;
    }
    if (b->hash == 0 && b->seen == 0) {
        b->hash = h;
        b->seen = 1;
    }
    return NULL;
}

bool nsb_plans_nomem(const nsb_plans *ps)
{
    return ps->nomem;
}

size_t nsb_plan_body_len(const nsb_plan *pl)
{
    return pl->body_len;
}
uint64_t nsb_plan_spend(const nsb_plan *pl)
{
    return pl->spend;
}

/* ---- replaying ---- */

static inline sv_value scalar(sv_kind kind, unsigned width, unsigned flags)
{
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = kind & 0xF;
    v.sub = (uint8_t)width;
    v.flags = flags & 0xF;
    return v;
}

/* One value (noesis_interp.c, read_one_in, little-endian); false where the
 * interpreter would report an error. */
static inline bool read_value(const nsb_plan_run_in *in, const uint8_t **pp, unsigned id,
                              sv_value *out)
{
    const uint8_t *p = *pp;
    size_t left = (size_t)(in->end - p);
    size_t size = nsb_value_min_size(id);
    if (left < size) return false;
    switch (id) {
    case NSB_REF: {
        uint32_t r = sv__core_load_u32le(p);
        if (r == NSB_NULL_REF) {
            *out = scalar(SV_REF, 0, SV_F_NULLREF);
        } else {
            if (r >= in->instance_count) return false;
            *out = scalar(SV_REF, 0, 0);
            out->as.u = r;
        }
        break;
    }
    case NSB_INT8: *out = scalar(SV_INT, 1, SV_F_EXPLICIT), out->as.i = (int8_t)p[0]; break;
    case NSB_INT16:
        *out = scalar(SV_INT, 2, SV_F_EXPLICIT), out->as.i = (int16_t)sv__core_load_u16le(p);
        break;
    case NSB_INT32:
        *out = scalar(SV_INT, 4, SV_F_EXPLICIT), out->as.i = (int32_t)sv__core_load_u32le(p);
        break;
    case NSB_INT64:
        *out = scalar(SV_INT, 8, SV_F_EXPLICIT), out->as.i = (int64_t)sv__core_load_u64le(p);
        break;
    case NSB_UINT8: *out = scalar(SV_UINT, 1, SV_F_EXPLICIT), out->as.u = p[0]; break;
    case NSB_UINT16:
        *out = scalar(SV_UINT, 2, SV_F_EXPLICIT), out->as.u = sv__core_load_u16le(p);
        break;
    case NSB_UINT32:
        *out = scalar(SV_UINT, 4, SV_F_EXPLICIT), out->as.u = sv__core_load_u32le(p);
        break;
    case NSB_UINT64:
        *out = scalar(SV_UINT, 8, SV_F_EXPLICIT), out->as.u = sv__core_load_u64le(p);
        break;
    case NSB_BOOL: *out = sv_bool_raw(p[0]); break;
    case NSB_FLOAT32: {
        uint32_t u = sv__core_load_u32le(p);
        float f;
        memcpy(&f, &u, 4);
        *out = scalar(SV_FLOAT, 4, SV_F_EXPLICIT);
        out->as.f32 = f;
        break;
    }
    case NSB_FLOAT64: {
        uint64_t u = sv__core_load_u64le(p);
        double d;
        memcpy(&d, &u, 8);
        *out = sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        break;
    }
    default: { /* String8, Buffer: u32 length + bytes (read_blob) */
        uint64_t n = sv__core_load_u32le(p);
        if (left - 4 < n || n > in->max_string) return false;
        const uint8_t *s = p + 4;
        if (id == NSB_STRING8 && sv__core_utf8_valid(s, (size_t)n))
            *out = sv_str(in->vdoc, (const char *)s, (size_t)n);
        else
            *out = sv_bytes(in->vdoc, s, (size_t)n);
        if (out->kind == SV_NULL) return false;
        *pp = s + n;
        return true;
    }
    }
    *pp = p + size;
    return true;
}

/* The value id makes of zero bytes: the kind, width and flags a replay
 * keeps (it rewrites the payload). Not for strings and buffers. */
static sv_value zero_value(unsigned id)
{
    static const uint8_t zeros[8];
    const nsb_plan_run_in in = {zeros + sizeof zeros, 1, 0, NULL, NULL};
    const uint8_t *p = zeros;
    sv_value v = scalar(SV_NULL, 0, 0);
    read_value(&in, &p, id, &v);
    return v;
}

static uint32_t value_code(unsigned id)
{
    switch (id) {
    case NSB_INT8: return D_I8;
    case NSB_INT16: return D_I16;
    case NSB_INT32: return D_I32;
    case NSB_INT64: return D_I64;
    case NSB_UINT8: return D_U8;
    case NSB_UINT16: return D_U16;
    case NSB_UINT32:
    case NSB_FLOAT32: return D_U32;
    case NSB_UINT64:
    case NSB_FLOAT64: return D_U64;
    case NSB_BOOL: return D_BOOL;
    case NSB_STRING8: return D_STR8;
    case NSB_BUFFER: return D_BUF;
    default: return D_REF;
    }
}

static bool add_op(compiler *c, uint32_t code, uint32_t src, uint32_t dst, uint32_t aux, uint32_t n)
{
    dop *o;
    if (code == D_PTR) {
        if (c->nfixes == PLAN_MAX_OPS) return false;
        o = &c->fixes[c->nfixes++];
    } else {
        if (c->nops == PLAN_MAX_OPS) return false;
        o = &c->ops[c->nops++];
    }
    o->code = code;
    o->src = src;
    o->dst = dst;
    o->aux = aux;
    o->n = n;
    return true;
}

static void put_tmpl(uint8_t *tmpl, uint32_t at, const sv_value *v)
{
    if (tmpl) memcpy(tmpl + at, v, sizeof *v);
}

static void box_tmpl(uint8_t *tmpl, uint32_t at, uint32_t count)
{
    if (tmpl) sv__core_box_init((sv_container *)(void *)(tmpl + at), count);
}

/* The decoder's ops of the compiled steps, the packed arrays' data and the
 * refs' arrays reserved in the block after the containers; with tmpl, the
 * containers' part of the block as every replay starts it is written there
 * too. (Not the arrays': a few command bytes may ask for a large one, which
 * only data that holds it pays for.) */
static bool build_ops(compiler *c, uint8_t *tmpl)
{
    c->nops = c->nfixes = c->nstr = 0;
    uint32_t seg = 0; /* bytes into the segment */
    for (uint32_t i = 0; i < c->nsteps; i++) {
        const pstep *s = &c->steps[i];
        const uint32_t val = s->pair ? s->slot + (uint32_t)offsetof(sv_pair, val) : s->slot;
        if (s->pair) put_tmpl(tmpl, s->slot, &s->key);
        sv_value v;
        switch (s->kind) {
        case P_VALUE:
            if (s->id == NSB_STRING8 || s->id == NSB_BUFFER) {
                c->str_at[c->nstr++] = seg;
                if (!add_op(c, value_code(s->id), seg, val, 0, 0)) return false;
                seg = 0;
                break;
            }
            v = zero_value(s->id);
            put_tmpl(tmpl, val, &v);
            if (!add_op(c, value_code(s->id), seg, val, 0, 0)) return false;
            seg += (uint32_t)nsb_value_min_size(s->id);
            break;
        case P_MAP:
        case P_ARRAY:
            v = scalar(s->kind == P_MAP ? SV_MAP : SV_ARRAY, 0, 0);
            v.len = s->count;
            put_tmpl(tmpl, val, &v);
            box_tmpl(tmpl, s->box, s->count);
            if (!add_op(c, D_PTR, 0, val, s->box, 0)) return false;
            break;
        case P_PACKED: {
            /* sv_packed's value, its data in the block */
            const uint32_t bytes = s->count * (uint32_t)nsb_value_min_size(s->id);
            uint32_t area;
            if (!reserve(c, ((size_t)bytes + 7) & ~(size_t)7, &area)) return false;
            v = scalar(SV_PACKED, s->elem, 0);
            v.len = s->count;
            put_tmpl(tmpl, val, &v);
            if (!add_op(c, D_PACKED, seg, val, area, bytes)) return false;
            seg += bytes;
            break;
        }
        default: { /* P_REFS: sv_array's value, its box in the block */
            uint32_t box;
            if (!reserve(c, sizeof(sv_container) + (size_t)s->count * sizeof(sv_value), &box))
                return false;
            v = scalar(SV_ARRAY, 0, 0);
            v.len = s->count;
            put_tmpl(tmpl, val, &v);
            if (!add_op(c, D_PTR, 0, val, box, 0) || !add_op(c, D_REFS, seg, box, 0, s->count))
                return false;
            seg += 4 * s->count;
            break;
        }
        }
    }
    c->last_fixed = seg;
    return true;
}

/* The payload of the value at v (its kind and width are the template's). */
static inline void set_payload(uint8_t *v, uint64_t u)
{
    memcpy(v + offsetof(sv_value, as), &u, sizeof u);
}

static inline void set_pointer(uint8_t *v, const void *ptr)
{
    memcpy(v + offsetof(sv_value, as), &ptr, sizeof ptr);
}

/* A ref as read_value makes it: null, or checked against the instances. */
static inline bool set_ref(uint8_t *v, uint32_t r, uint32_t instances)
{
    if (r == NSB_NULL_REF) {
        const sv_value null_ref = scalar(SV_REF, 0, SV_F_NULLREF);
        memcpy(v, &null_ref, sizeof null_ref);
        return true;
    }
    if (r >= instances) return false;
    set_payload(v, r);
    return true;
}

static inline sv_value container_at(uint8_t *block, uint32_t box, sv_kind kind, uint32_t count)
{
    sv_container *b = (sv_container *)(void *)(block + box);
    sv__core_box_init(b, count);
    sv_value v = scalar(kind, 0, 0);
    v.len = count;
    v.as.box = b;
    return v;
}

/* The shape of the plan's object for class cls (the component's; one per
 * class and plan), made the first time the class is met. NULL when memory
 * or a limit fails: the interpreter then makes the instance. */
static const sv_shape *shape_for(nsb_plan *pl, const nsb_plan_run_in *in)
{
    for (uint32_t k = 0; k < SHAPES_KEPT; k++)
        if (pl->shape_cls[k] == in->cls) return pl->shape[k];
    sv_value keys[PLAN_MAX_FIELDS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < pl->nsteps; i++)
        if (pl->steps[i].top) keys[n++] = pl->steps[i].key;
    const sv_shape *shape = sv_shape_new(in->vdoc, *in->cls, keys, n);
    if (!shape) return NULL;
    uint32_t k = pl->shape_next++ % SHAPES_KEPT;
    pl->shape_cls[k] = in->cls;
    pl->shape[k] = shape;
    return shape;
}

/* The bytes the instance's strings and buffers take in the block (each
 * with its NUL), every length checked as read_value checks it and the data
 * checked to hold the whole instance: the ops then read without a check.
 * SIZE_MAX where the interpreter would report an error. */
static inline size_t text_bytes(const nsb_plan *pl, const nsb_plan_run_in *in, const uint8_t *p)
{
    const uint8_t *end = in->end;
    size_t text = 0;
    for (uint32_t k = 0; k < pl->nstr; k++) {
        const size_t at = pl->str_at[k];
        if ((size_t)(end - p) < at + 4) return SIZE_MAX;
        const uint64_t n = sv__core_load_u32le(p + at);
        p += at + 4;
        if ((size_t)(end - p) < n || n > in->max_string) return SIZE_MAX;
        p += n;
        text += (size_t)n + 1;
    }
    return (size_t)(end - p) < pl->last_fixed ? SIZE_MAX : text;
}

bool nsb_plan_run(nsb_plan *pl, const nsb_plan_run_in *in, const uint8_t **data, sv_value *obj,
                  const sv_value **name)
{
    const sv_shape *shape = NULL;
    if (pl->compact) {
        shape = pl->shape_cls[0] == in->cls ? pl->shape[0] : shape_for(pl, in);
        if (!shape) return false;
    }
    const size_t text = text_bytes(pl, in, *data);
    if (text == SIZE_MAX) return false;
    uint8_t *block = sv_doc_alloc(in->vdoc, pl->block + text);
    if (!block) return false;
    memcpy(block, pl->tmpl, pl->tmpl_len);
    for (const dop *o = pl->fixes, *oe = o + pl->nfixes; o < oe; o++)
        set_pointer(block + o->dst, block + o->aux);
    char *tail = (char *)block + pl->block; /* the strings' bytes */
    const uint8_t *q = *data;               /* the segment */
    for (const dop *o = pl->ops, *oe = o + pl->nops; o < oe; o++) {
        const uint8_t *src = q + o->src;
        uint8_t *dst = block + o->dst;
        switch (o->code) {
        case D_I8: set_payload(dst, (uint64_t)(int64_t)(int8_t)src[0]); break;
        case D_I16: set_payload(dst, (uint64_t)(int64_t)(int16_t)sv__core_load_u16le(src)); break;
        case D_I32: set_payload(dst, (uint64_t)(int64_t)(int32_t)sv__core_load_u32le(src)); break;
        case D_U8: set_payload(dst, src[0]); break;
        case D_U16: set_payload(dst, sv__core_load_u16le(src)); break;
        case D_U32: set_payload(dst, sv__core_load_u32le(src)); break;
        case D_I64:
        case D_U64: set_payload(dst, sv__core_load_u64le(src)); break;
        case D_BOOL: { /* sv_bool_raw */
            const uint32_t stored = src[0], len = stored > 1 ? stored : 0;
            set_payload(dst, stored != 0);
            memcpy(dst + offsetof(sv_value, len), &len, sizeof len);
            break;
        }
        case D_REF:
            if (!set_ref(dst, sv__core_load_u32le(src), in->instance_count)) return false;
            break;
        case D_PACKED:
            memcpy(block + o->aux, src, o->n);
            set_pointer(dst, block + o->aux);
            break;
        case D_REFS: { /* sv_array's box, each item read_value's */
            sv__core_box_init((sv_container *)(void *)dst, o->n);
            sv_value *items = (sv_value *)(void *)(dst + sizeof(sv_container));
            for (uint32_t k = 0; k < o->n; k++) {
                const uint32_t r = sv__core_load_u32le(src + 4 * k);
                if (r != NSB_NULL_REF && r >= in->instance_count) return false;
                items[k] = scalar(SV_REF, 0, r == NSB_NULL_REF ? SV_F_NULLREF : 0);
                items[k].as.u = r == NSB_NULL_REF ? 0 : r;
            }
            break;
        }
        default: { /* D_STR8, D_BUF: read_value's, the text in the block */
            const uint32_t n = sv__core_load_u32le(src);
            const uint8_t *s = src + 4;
            memcpy(tail, s, n);
            tail[n] = '\0';
            sv_value v =
                scalar(o->code == D_STR8 && sv__core_utf8_valid(s, n) ? SV_STRING : SV_BYTES, 0, 0);
            v.len = n;
            v.as.str = tail;
            memcpy(dst, &v, sizeof v);
            tail += (size_t)n + 1;
            q = s + n;
            break;
        }
        }
    }
    if (shape) {
        sv_container *box = (sv_container *)(void *)block;
        sv__core_compact_init(box, shape);
        *obj = scalar(SV_OBJECT, 0, 0);
        obj->len = pl->fields;
        obj->as.box = box;
    } else {
        *obj = container_at(block, 0, SV_OBJECT, pl->fields);
        obj->as.box->cls = in->cls;
    }
    *name =
        pl->name_val == UINT32_MAX ? NULL : (const sv_value *)(const void *)(block + pl->name_val);
    *data = q + pl->last_fixed;
    return true;
}

/* ---- replaying for the encoder ---- */

/* (Containers and packed arrays are read directly: each kind is checked
 * before its box or data is.) */

/* The key of a field: the plan's text (the decoder's key for the field).
 * Keys of a decoded tree are interned, so a text once found equal is known
 * by its pointer. Any other key (a property's name, "#k" numbered another
 * way) declines: the emitter decides. */
static inline bool key_ok(pstep *s, const sv_value *key)
{
    if (key->kind != SV_STRING) return false;
    if (key->as.str == s->seen && key->len == s->key.len) return true;
    if (key->len != s->key.len || memcmp(key->as.str, s->key.as.str, key->len) != 0) return false;
    s->seen = key->as.str;
    return true;
}

/* One value as noesis_emit.c's emit_one writes it, for the kinds the
 * decoder makes, at o (room reserved); its bytes, or 0 for any other value
 * (the emitter then decides). Strings and buffers are written by the
 * caller. */
static inline size_t write_fixed(uint8_t *o, unsigned id, const sv_value *v, uint32_t instances)
{
    switch (id) {
    case NSB_REF:
        if (v->kind != SV_REF) return 0;
        if (v->flags & SV_F_NULLREF)
            sv__core_store_u32le(o, NSB_NULL_REF);
        else if (v->as.u < instances)
            sv__core_store_u32le(o, (uint32_t)v->as.u);
        else
            return 0;
        return 4;
    case NSB_INT8:
        if (v->kind != SV_INT || v->as.i < INT8_MIN || v->as.i > INT8_MAX) return 0;
        o[0] = (uint8_t)v->as.i;
        return 1;
    case NSB_INT16:
        if (v->kind != SV_INT || v->as.i < INT16_MIN || v->as.i > INT16_MAX) return 0;
        sv__core_store_u16le(o, (uint16_t)v->as.i);
        return 2;
    case NSB_INT32:
        if (v->kind != SV_INT || v->as.i < INT32_MIN || v->as.i > INT32_MAX) return 0;
        sv__core_store_u32le(o, (uint32_t)v->as.i);
        return 4;
    case NSB_INT64:
        if (v->kind != SV_INT) return 0;
        sv__core_store_u64le(o, (uint64_t)v->as.i);
        return 8;
    case NSB_UINT8:
        if (v->kind != SV_UINT || v->as.u > UINT8_MAX) return 0;
        o[0] = (uint8_t)v->as.u;
        return 1;
    case NSB_UINT16:
        if (v->kind != SV_UINT || v->as.u > UINT16_MAX) return 0;
        sv__core_store_u16le(o, (uint16_t)v->as.u);
        return 2;
    case NSB_UINT32:
        if (v->kind != SV_UINT || v->as.u > UINT32_MAX) return 0;
        sv__core_store_u32le(o, (uint32_t)v->as.u);
        return 4;
    case NSB_UINT64:
        if (v->kind != SV_UINT) return 0;
        sv__core_store_u64le(o, v->as.u);
        return 8;
    case NSB_BOOL: {
        if (v->kind != SV_BOOL) return 0;
        uint32_t b = sv_bool_stored(v);
        o[0] = b <= 0xFF ? (uint8_t)b : 1; /* emit_one's bool_byte */
        return 1;
    }
    case NSB_FLOAT32: {
        if (v->kind != SV_FLOAT) return 0;
        float f = v->sub == 4 ? v->as.f32 : (float)v->as.f64;
        memcpy(o, &f, 4);
        return 4;
    }
    case NSB_FLOAT64: {
        if (v->kind != SV_FLOAT) return 0;
        double d = v->sub == 4 ? (double)v->as.f32 : v->as.f64;
        memcpy(o, &d, 8);
        return 8;
    }
    default: return 0;
    }
}

/* A value command's bytes at the output's end (room reserved), its id a
 * constant where it is called, so each case of emit_fields' one switch
 * is the code of one type. */
#define WRITE_FIXED(ID)                                                                            \
    case ID: {                                                                                     \
        size_t n = write_fixed(out->data + out->len, ID, v, instances);                            \
        if (!n) return false;                                                                      \
        out->len += n;                                                                             \
        break;                                                                                     \
    }

/* The fields of one container by the steps from *sp on. The output has
 * room for the plan's fixed bytes still to come (nsb_plan_emit reserves
 * them; a string reserves its text and them again), so only strings
 * reserve. Fields are read through sv_key_at / sv_val_at on a local copy
 * of the container: their checks then leave the loop. */
static bool emit_fields(const nsb_plan *pl, pstep **sp, const sv_value *container, bool check_keys,
                        uint32_t instances, sv_buf *out)
{
    const sv_value c = *container;
    pstep *s = *sp;
    for (uint32_t f = 0; f < c.len; f++, s++) {
        const sv_value *v = sv_val_at(&c, f);
        if (check_keys && !key_ok(s, sv_key_at(&c, f))) return false;
        switch (s->op) {
            WRITE_FIXED(NSB_REF)
            WRITE_FIXED(NSB_INT8)
            WRITE_FIXED(NSB_INT16)
            WRITE_FIXED(NSB_INT32)
            WRITE_FIXED(NSB_INT64)
            WRITE_FIXED(NSB_UINT8)
            WRITE_FIXED(NSB_UINT16)
            WRITE_FIXED(NSB_UINT32)
            WRITE_FIXED(NSB_UINT64)
            WRITE_FIXED(NSB_BOOL)
            WRITE_FIXED(NSB_FLOAT32)
            WRITE_FIXED(NSB_FLOAT64)
        case NSB_STRING8:
        case NSB_BUFFER:
            if ((v->kind != SV_STRING && v->kind != SV_BYTES) ||
                sv_buf_ensure(out, 4 + (size_t)v->len + pl->fixed) != SV_OK)
                return false;
            sv__core_store_u32le(out->data + out->len, v->len);
            if (v->len) memcpy(out->data + out->len + 4, v->as.bytes, v->len);
            out->len += 4 + (size_t)v->len;
            break;
        case OP_MAP:
            if (v->kind != SV_MAP || v->len != s->count) return false;
            *sp = s + 1;
            if (!emit_fields(pl, sp, v, true, instances, out)) return false;
            s = *sp - 1;
            break;
        case OP_ARRAY: {
            if (v->kind != SV_ARRAY || v->len != s->count) return false;
            const sv_value *items = sv__core_items(v->as.box);
            const uint32_t rounds = s->count; /* s moves on to each round's steps */
            for (uint32_t r = 0; r < rounds; r++) {
                const pstep *m = ++s;
                if (items[r].kind != SV_MAP || items[r].len != m->count) return false;
                *sp = s + 1;
                if (!emit_fields(pl, sp, &items[r], true, instances, out)) return false;
                s = *sp - 1;
            }
            break;
        }
        case OP_PACKED: {
            size_t size = nsb_value_min_size(s->id);
            if (v->kind != SV_PACKED || v->sub != s->elem || v->len != s->count) return false;
            memcpy(out->data + out->len, v->as.data, (size_t)v->len * size);
            out->len += (size_t)v->len * size;
            break;
        }
        case OP_REFS: {
            if (v->kind != SV_ARRAY || v->len != s->count) return false;
            const sv_value *items = sv__core_items(v->as.box);
            for (uint32_t k = 0; k < s->count; k++) {
                if (!write_fixed(out->data + out->len, NSB_REF, &items[k], instances)) return false;
                out->len += 4;
            }
            break;
        }
        default: return false;
        }
    }
    *sp = s;
    return true;
}

#undef WRITE_FIXED

bool nsb_plan_emit(nsb_plan *pl, const sv_value *obj, uint32_t instances, sv_buf *out)
{
    if (obj->kind != SV_OBJECT || obj->len != pl->fields) return false;
    /* a compact object of a shape whose keys were found to be the plan's
     * has them: its fields' keys need no check */
    const sv_shape *shape = sv_object_shape(obj);
    const bool keys_known = shape && shape == pl->shape[0];
    if (sv_buf_ensure(out, pl->fixed) != SV_OK) return false;
    size_t mark = out->len;
    pstep *s = pl->steps;
    if (emit_fields(pl, &s, obj, !keys_known, instances, out)) {
        if (shape) pl->shape[0] = shape;
        return true;
    }
    out->len = mark;
    return false;
}
