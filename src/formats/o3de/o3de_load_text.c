/* Loading O3DE JSON text into a value without the text's whole tree
 * (sv_o3de_load_text).
 *
 * sv_o3de_read then sv_o3de_load holds the text's tree and the loaded value
 * at once, each about twice the text. Here, when the type is a class and
 * the text an object, the root object's members are read one at a time,
 * and a member for a vector or list one element at a time: each piece is
 * parsed into a scratch document, loaded there, and the loaded value
 * copied into the caller's document, so what is held is the value and one
 * piece. The walk is o3_load's for the root class (o3de_class.c) and
 * load_sequence's for the streamed members (o3de_containers.c), step for
 * step, with the same reports in the same order and the same result.
 *
 * A first pass parses every piece (and drops it) before anything is
 * loaded: a text the reader refuses, or one whose shape the scanner below
 * does not take (a comment, an empty root object, nothing to stream),
 * goes whole through the tree path, which gives the answer and the error
 * with its byte offset. The scanner only finds where pieces begin and end;
 * the reader checks each piece, and pieces are parsed with a lower depth
 * limit than the whole text would have, so that nothing is accepted here
 * that the tree path refuses. */
#include <string.h>

#include "core/mem.h"
#include "core/value_internal.h"
#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
/* the scratch document is emptied once it has allocated this much */
#define SCRATCH_MAX ((uint64_t)4 << 20)

/* the text of the elements parsed at a time (a few hundred KB of tree) */
#define CHUNK ((size_t)128 << 10)
/* field names copied into the caller's document, by their scratch address */
#define KEY_CACHE 64

/* One member of the root object: its key (kept for the whole load: the
 * path and the field lookup hold its address) and where its value is. */
typedef struct lt_member {
    sv_value key;
    size_t v0, v1;
    bool streamed;         /* a vector or list read by runs of elements */
    size_t chunk0, nchunk; /* its runs (streamed) */
    size_t count;          /* its elements (streamed) */
} lt_member;

/* A run of consecutive elements [a, b) of a streamed member, parsed as
 * one array. */
typedef struct lt_chunk {
    size_t a, b, count;
} lt_chunk;

typedef struct lt_key {
    const char *src;
    sv_value dst;
} lt_key;

typedef struct lt {
    o3_ctx *c;
    const char *p;
    size_t n;
    uint32_t max_depth; /* the whole text's depth limit */
    sv_limits limits;
    sv_doc *out;     /* the caller's document: the loaded value */
    sv_doc *scratch; /* one piece's JSON and what its load makes */
    sv_doc *keys;    /* the root members' keys */
    lt_member *m;
    size_t nm, capm;
    lt_chunk *ch;
    size_t nch, capch;
    sv_buf piece; /* one run as an array: '[' elements ']' */
    lt_key keys_kept[KEY_CACHE];
    void (*consumed)(void *ctx, size_t upto);
    void *consumed_ctx;
} lt;

/* ---- the scanner: where pieces begin and end ---- */

static size_t skip_ws(const char *p, size_t i, size_t n)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
    return i;
}

/* Past the string whose opening quote is at i; SIZE_MAX when unterminated. */
static size_t string_end(const char *p, size_t i, size_t n)
{
    for (i++; i < n; i++) {
        const char *q = memchr(p + i, '"', n - i);
        if (!q) return SIZE_MAX;
        size_t at = (size_t)(q - p), bs = 0;
        while (at - bs > i && p[at - bs - 1] == '\\') bs++;
        if (bs % 2 == 0) return at + 1;
        i = at;
    }
    return SIZE_MAX;
}

/* The bytes value_end stops at: 1 a quote, 2 a slash, 3 an opening
 * bracket, 4 a closing one, 5 a comma. */
static const uint8_t stops[256] = {
    ['"'] = 1, ['/'] = 2, ['['] = 3, ['{'] = 3, [']'] = 4, ['}'] = 4, [','] = 5};

/* The end of the value starting at i: the first ',', ']' or '}' outside
 * strings and brackets, or n. SIZE_MAX on a comment or an unterminated
 * string (the tree path decides those). */
static size_t value_end(const char *p, size_t i, size_t n)
{
    size_t depth = 0;
    for (;;) {
        while (i < n && !stops[(uint8_t)p[i]]) i++;
        if (i >= n) return n;
        switch (stops[(uint8_t)p[i]]) {
        case 1:
            i = string_end(p, i, n);
            if (i == SIZE_MAX) return SIZE_MAX;
            continue;
        case 2: return SIZE_MAX;
        case 3: depth++; break;
        case 4:
            if (depth == 0) return i;
            depth--;
            break;
        default:
            if (depth == 0) return i;
        }
        i++;
    }
}

static size_t trim_end(const char *p, size_t a, size_t b)
{
    while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t' || p[b - 1] == '\n' || p[b - 1] == '\r'))
        b--;
    return b;
}

/* The next element of the array whose items start at *pos (just past '['
 * or a ','): its span [*v0, *v1). 0 at the closing ']', 1 for an element,
 * -1 when the text is not shaped so. */
static int next_element(const lt *x, size_t *pos, size_t *v0, size_t *v1)
{
    size_t i = skip_ws(x->p, *pos, x->n);
    if (i < x->n && x->p[i] == ']') {
        *pos = i;
        return 0;
    }
    size_t e = value_end(x->p, i, x->n);
    if (e == SIZE_MAX || e >= x->n) return -1;
    *v0 = i;
    *v1 = trim_end(x->p, i, e);
    if (*v1 == i) return -1;
    *pos = x->p[e] == ',' ? e + 1 : e;
    if (x->p[e] == ',') {
        /* a trailing comma before ']'; the text may also end right after
         * the comma (no byte to look at: the next call finds no element) */
        size_t j = skip_ws(x->p, e + 1, x->n);
        if (j < x->n && x->p[j] == ']') return -1;
    }
    return x->p[e] == '}' ? -1 : 1;
}

/* ---- pieces ---- */

static void clear_seen(o3_ctx *c)
{
    for (size_t i = 0; i < c->nclasses; i++)
        if (c->classes[i].seen)
            memset((void *)c->classes[i].seen, 0, c->classes[i].nfields * sizeof(char *));
}

/* Empties the scratch document once it is large. The field lookup's
 * memory of key addresses goes with it: the addresses are reused. */
static void scratch_done(lt *x, bool always)
{
    if (!always && sv_doc_allocated(x->scratch) < SCRATCH_MAX) return;
    sv_doc_reset(x->scratch);
    clear_seen(x->c);
    memset(x->keys_kept, 0, sizeof x->keys_kept);
}

/* Parses [a, b) into d; levels: how deep in the whole text the piece
 * starts, plus one to spare. */
static bool parse(lt *x, sv_doc *d, size_t a, size_t b, uint32_t levels, sv_value *out)
{
    if (x->max_depth <= levels) return false;
    sv_limits l = x->limits;
    l.max_depth = x->max_depth - levels;
    sv_error e;
    sv_error_clear(&e);
    return sv_o3de_read(d, x->p + a, b - a, &l, out, &e) == SV_OK;
}

/* Parses run k as an array into the scratch document: its items are the
 * elements (one level deeper in the text than in the run, and one to
 * spare). */
static bool parse_run(lt *x, const lt_chunk *k, sv_value *arr)
{
    sv_buf *b = &x->piece;
    b->len = 0;
    sv_buf_putc(b, '[');
    sv_buf_append(b, x->p + k->a, k->b - k->a);
    sv_buf_putc(b, ']');
    if (!sv_buf_ok(b) || x->max_depth <= 2) return false;
    sv_limits l = x->limits;
    l.max_depth = x->max_depth - 2;
    sv_error e;
    sv_error_clear(&e);
    return sv_o3de_read(x->scratch, (const char *)b->data, b->len, &l, arr, &e) == SV_OK &&
           arr->kind == SV_ARRAY && arr->len == k->count;
}

/* Notes the run [a, b) of count elements, and parses it once. */
static bool add_run(lt *x, size_t a, size_t b, size_t count)
{
    if (!sv__core_mem_grow(x->c->alloc, (void **)&x->ch, &x->capch, x->nch + 1, sizeof *x->ch))
        return false;
    x->ch[x->nch] = (lt_chunk){a, b, count};
    sv_value arr;
    bool ok = parse_run(x, &x->ch[x->nch], &arr);
    x->nch++;
    scratch_done(x, true);
    return ok;
}

/* The elements of the array whose '[' is at i, noted as runs of about
 * CHUNK bytes; *end: past its ']'. */
static bool survey_array(lt *x, lt_member *m, size_t i, size_t *end)
{
    size_t pos = i + 1, a, b, from = 0, last = 0, count = 0;
    int got;
    m->chunk0 = x->nch;
    while ((got = next_element(x, &pos, &a, &b)) == 1) {
        if (count == 0) from = a;
        last = b;
        count++;
        m->count++;
        if (last - from >= CHUNK) {
            if (!add_run(x, from, last, count)) return false;
            count = 0;
        }
    }
    if (got < 0 || (count && !add_run(x, from, last, count))) return false;
    m->nchunk = x->nch - m->chunk0;
    *end = pos + 1;
    return true;
}

static bool streamable(const sv_type *t)
{
    return t && t->kind == SV_TYPE_GENERIC && (t->gen == SV_GEN_VECTOR || t->gen == SV_GEN_LIST);
}

/* The first pass: the root object's members noted, every piece parsed
 * once. false: the tree path loads the text. */
static bool survey(lt *x, const sv_schema_class *cls)
{
    const char *p = x->p;
    size_t n = x->n, i = skip_ws(p, 0, n);
    if (i >= n || p[i] != '{') return false;
    i = skip_ws(p, i + 1, n);
    if (i >= n || p[i] == '}') return false; /* {}: the tree path's explicit default */
    const o3_class_info *ci = o3_class(x->c, cls);
    bool any = false;
    for (;;) {
        if (i >= n || p[i] != '"') return false;
        size_t k1 = string_end(p, i, n);
        if (k1 == SIZE_MAX) return false;
        sv_value key;
        if (!parse(x, x->keys, i, k1, 2, &key) || key.kind != SV_STRING) return false;
        i = skip_ws(p, k1, n);
        if (i >= n || p[i] != ':') return false;
        i = skip_ws(p, i + 1, n);
        lt_member m;
        memset(&m, 0, sizeof m);
        m.key = key;
        m.v0 = i;
        long f = i < n ? o3_find_field(ci, key.as.str, key.len) : -1;
        m.streamed = f >= 0 && p[i] == '[' && streamable(ci->fields[f]->type);
        size_t e;
        if (m.streamed) {
            if (!survey_array(x, &m, i, &m.v1)) return false;
            e = skip_ws(p, m.v1, n);
            if (e >= n || (p[e] != ',' && p[e] != '}')) return false;
            any = true;
        } else {
            e = value_end(p, i, n);
            if (e == SIZE_MAX || e >= n || p[e] == ']') return false;
            m.v1 = trim_end(p, i, e);
            if (m.v1 == m.v0) return false;
            sv_value j;
            if (!parse(x, x->scratch, m.v0, m.v1, 2, &j)) return false;
            scratch_done(x, true);
        }
        if (!sv__core_mem_grow(x->c->alloc, (void **)&x->m, &x->capm, x->nm + 1, sizeof *x->m))
            return false;
        x->m[x->nm++] = m;
        i = e;
        if (p[i] == '}') break;
        i = skip_ws(p, i + 1, n); /* past ',' */
    }
    /* nothing but white space after the root object */
    if (skip_ws(p, i + 1, n) != n) return false;
    scratch_done(x, true);
    return any;
}

/* ---- the copy into the caller's document ---- */

/* A class or field name interned in the caller's document, once per
 * address it has in the scratch document (the same address holds the same
 * text until the scratch document is emptied). */
static sv_value name_of(lt *x, const sv_value *k)
{
    lt_key *e = &x->keys_kept[((uintptr_t)k->as.str >> 3) % KEY_CACHE];
    if (e->src == k->as.str && e->dst.len == k->len) return e->dst;
    e->src = k->as.str;
    e->dst = sv_str_intern(x->out, k->as.str, k->len);
    return e->dst;
}

/* v (made in the scratch document, or shared from the starting value)
 * copied into d: strings and scalars copied, field names interned as the
 * default instance has them. */
static sv_value keep(lt *x, const sv_value *v, unsigned depth)
{
    sv_doc *d = x->out;
    if (depth > SV_MAX_DEPTH_LIMIT + 8) {
        o3_fail(x->c, SV_ERR_DEPTH, "value nests too deeply");
        return sv_null();
    }
    sv_value r = *v;
    r.flags = v->flags & ~SV_F_BORROWED & 0x0F;
    switch (v->kind) {
    case SV_STRING:
    case SV_BYTES:
    case SV_TUPLE:
    case SV_PACKED: {
        size_t len = v->kind == SV_STRING || v->kind == SV_BYTES
                         ? (size_t)v->len + 1
                         : (size_t)v->len * sv_elem_size((sv_elem)v->sub);
        uint8_t *q = sv_doc_alloc(d, len ? len : 1);
        if (!q) return sv_null();
        if (v->kind == SV_STRING || v->kind == SV_BYTES) {
            memcpy(q, v->as.str, v->len);
            q[v->len] = 0;
        } else if (len) {
            memcpy(q, v->as.data, len);
        }
        r.as.data = q;
        return r;
    }
    case SV_ARRAY:
    case SV_MAP:
    case SV_OBJECT: {
        bool arr = v->kind == SV_ARRAY;
        sv_container *box = sv__core_box_new(d, arr ? sizeof(sv_value) : sizeof(sv_pair), v->len);
        if (!box) return sv_null();
        /* the meta and class through the accessors: a compact object keeps
         * its class in its shape */
        const sv_value *meta = sv_meta(v);
        const sv_value *cls = v->kind == SV_OBJECT ? sv_object_class(v) : NULL;
        if (meta) {
            sv_value *mv = sv_doc_alloc(d, sizeof *mv);
            if (!mv) return sv_null();
            *mv = keep(x, meta, depth + 1);
            box->meta = mv;
        }
        if (cls) {
            sv_value *cv = sv_doc_alloc(d, sizeof *cv);
            if (!cv) return sv_null();
            *cv = cls->kind == SV_STRING ? name_of(x, cls) : *cls;
            box->cls = cv;
        }
        /* a local copy: the accessors' checks leave the loop */
        const sv_value from = *v;
        const sv_value *items = arr ? sv_array_items(&from) : NULL;
        for (uint32_t i = 0; i < from.len && o3_ok(x->c); i++) {
            if (arr) {
                sv__core_items(box)[i] = keep(x, &items[i], depth + 1);
                continue;
            }
            /* v's fields through the accessors (either layout); the copy
             * is a new container in the pair layout */
            const sv_value *fk = sv_key_at(&from, i);
            sv_pair *q = &sv__core_pairs(box)[i];
            q->key = from.kind == SV_OBJECT && fk->kind == SV_STRING ? name_of(x, fk)
                                                                     : keep(x, fk, depth + 1);
            q->val = keep(x, sv_val_at(&from, i), depth + 1);
        }
        r.as.box = box;
        return r;
    }
    default: return r;
    }
}

static sv_value kept(lt *x, const sv_value *v)
{
    sv_value r = keep(x, v, 0);
    if (sv_doc_status(x->out) != SV_OK) o3_fail(x->c, sv_doc_status(x->out), "out of memory");
    return r;
}

/* ---- the second pass: the load ---- */

/* A member read whole: its value parsed, loaded in the scratch document. */
static o3_res load_whole(lt *x, const sv_type *t, const lt_member *m, const sv_value *cur,
                         sv_value *out)
{
    o3_ctx *c = x->c;
    sv_value j;
    *out = *cur;
    if (!parse(x, x->scratch, m->v0, m->v1, 2, &j)) {
        o3_fail(c, sv_doc_status(x->scratch) ? sv_doc_status(x->scratch) : SV_ERR_NOMEM,
                "out of memory");
        return o3_r(RF, SV_O3DE_CATASTROPHIC);
    }
    sv_value nv;
    c->doc = x->scratch;
    o3_res r = o3_load(c, t, &j, cur, &nv, false);
    c->doc = x->out;
    if (o3_ok(c) && sv_doc_status(x->scratch) != SV_OK)
        o3_fail(c, sv_doc_status(x->scratch), "out of memory");
    if (o3_ok(c)) *out = kept(x, &nv);
    scratch_done(x, true);
    if (x->consumed) x->consumed(x->consumed_ctx, m->v1);
    return r;
}

static sv_value copy_array(lt *x, const sv_value *cur, bool clear)
{
    size_t n = (!clear && sv_kind_of(cur) == SV_ARRAY) ? cur->len : 0;
    sv_value a = sv_array(x->out, n);
    if (a.kind != SV_ARRAY) {
        o3_fail(x->c, SV_ERR_NOMEM, "out of memory");
        return a;
    }
    if (n) memcpy(sv_array_items(&a), sv_array_items(cur), n * sizeof(sv_value));
    return a;
}

/* A vector or list read element by element: o3_load, o3_load_container
 * and load_sequence (o3de_containers.c) for a JSON array. */
static o3_res load_streamed(lt *x, const sv_type *t, const lt_member *m, const sv_value *cur,
                            sv_value *out)
{
    o3_ctx *c = x->c;
    *out = *cur;
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, RF, SV_O3DE_CATASTROPHIC, "The JSON is nested too deeply to load.");
    c->depth++;
    o3_res result = sv_o3de_result_none(RF);
    bool clear = false;
    if (c->clear_containers && sv_kind_of(cur) == SV_ARRAY && cur->len) {
        o3_res cr = o3_rep(c, SV_O3DE_CLEAR, SV_O3DE_SUCCESS, "Clearing basic container.");
        if (o3_halted(cr)) {
            c->depth--;
            return cr;
        }
        clear = o3_out(cr) == SV_O3DE_SUCCESS;
    }
    sv_value arr = copy_array(x, cur, clear);
    if (!o3_ok(c)) {
        c->depth--;
        return o3_r(RF, SV_O3DE_CATASTROPHIC);
    }
    const sv_type *elem = t->params[0];
    size_t added = 0, i = 0;
    for (size_t ck = 0; ck < m->nchunk && o3_ok(c); ck++) {
        const lt_chunk *k = &x->ch[m->chunk0 + ck];
        sv_value run;
        if (!parse_run(x, k, &run)) {
            o3_fail(c, sv_doc_status(x->scratch) ? sv_doc_status(x->scratch) : SV_ERR_NOMEM,
                    "out of memory");
            break;
        }
        const sv_value *items = sv_array_items(&run);
        for (size_t e = 0; e < run.len && o3_ok(c); e++) {
            size_t mark = o3_path_index(c, i++);
            sv_value nv;
            c->doc = x->scratch;
            sv_value fresh = o3_default_of(c, elem);
            if (fresh.kind == SV_OBJECT) c->fresh = fresh.as.box;
            o3_res r = o3_load(c, elem, &items[e], &fresh, &nv, true);
            c->fresh = NULL;
            c->doc = x->out;
            if (o3_ok(c) && sv_doc_status(x->scratch) != SV_OK)
                o3_fail(c, sv_doc_status(x->scratch), "out of memory");
            if (o3_halted(r)) {
                /* O3DE returns what it gathered so far, without the halting code */
                o3_path_pop(c, mark);
                *out = arr;
                c->depth--;
                return result;
            }
            if (o3_altered(r)) {
                result = o3_combine(result, r);
                o3_path_pop(c, mark);
                continue;
            }
            sv_value kv = kept(x, &nv);
            if (o3_ok(c) && sv_array_append(x->out, &arr, kv) != SV_OK)
                o3_fail(c, SV_ERR_NOMEM, "out of memory");
            added++;
            result = o3_combine(result, r);
            o3_path_pop(c, mark);
        }
        scratch_done(x, true);
        if (x->consumed) x->consumed(x->consumed_ctx, k->b);
    }
    *out = arr;
    o3_res r;
    if (m->count == 0)
        r = o3_rep(c, RF, SV_O3DE_SUCCESS, "No values provided for basic container.");
    else {
        if (added) result = o3_combine(result, o3_r(RF, SV_O3DE_SUCCESS));
        r = o3_report(c, result, "Loaded basic container.");
    }
    c->depth--;
    return r;
}

/* o3_load, o3_load_class and o3_load_members (o3de_class.c,
 * o3de_internal.h) for the root object, member by member. */
static o3_res load_root(lt *x, const sv_schema_class *cls, const sv_value *cur, sv_value *out)
{
    o3_ctx *c = x->c;
    *out = *cur;
    if (!o3_ok(c)) return o3_r(RF, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, RF, SV_O3DE_CATASTROPHIC, "The JSON is nested too deeply to load.");
    c->depth++;
    c->fresh = NULL;
    const o3_class_info *ci = o3_class(c, cls);
    sv_value obj = o3_writable_object(c, cls, ci, cur, false);
    if (!o3_ok(c)) {
        c->depth--;
        return o3_r(RF, SV_O3DE_CATASTROPHIC);
    }
    o3_res result = sv_o3de_result_none(RF);
    size_t loads = 0;
    for (size_t i = 0; i < x->nm; i++) {
        const lt_member *m = &x->m[i];
        const char *k = m->key.as.str;
        size_t kn = m->key.len;
        if (kn == 5 && memcmp(k, "$type", 5) == 0) continue;
        size_t mark = o3_path_key(c, k, kn);
        long f = o3_find_field(ci, k, kn);
        if (f < 0) {
            result = o3_combine(
                result, o3_rep(c, RF, SV_O3DE_SKIPPED,
                               "Skipping field as there's no matching variable in the target."));
            o3_path_pop(c, mark);
            continue;
        }
        const sv_type *ft = ci->fields[f]->type;
        sv_value nv, *slot = sv_val_at(&obj, (size_t)f);
        o3_res r =
            m->streamed ? load_streamed(x, ft, m, slot, &nv) : load_whole(x, ft, m, slot, &nv);
        *slot = nv;
        if (o3_halted(r)) {
            r = o3_report(c, r, "Loading of element has failed.");
            o3_path_pop(c, mark);
            *out = obj;
            c->depth--;
            return r;
        }
        o3_path_pop(c, mark);
        if (!o3_altered(r)) loads++;
        result = o3_combine(result, r);
    }
    if (ci->nfields > loads)
        result = o3_combine(
            result, o3_r(RF, loads == 0 ? SV_O3DE_DEFAULTS_USED : SV_O3DE_PARTIAL_DEFAULTS));
    *out = obj;
    c->depth--;
    return result;
}

/* ---- entry point ---- */

/* 1 when loaded here (st holds the status), 0 when the tree path is to
 * load the text (nothing was reported). */
static int load_streaming(const sv_schema *s, const sv_type *t, const char *text, size_t len,
                          const sv_limits *limits, sv_doc *doc, sv_value *value,
                          const sv_o3de_opts *opts, sv_o3de_result *result, sv_error *err,
                          void (*consumed)(void *, size_t), void *consumed_ctx, sv_status *st)
{
    if (t->kind != SV_TYPE_CLASS) return 0;
    if (limits && limits->max_depth > SV_MAX_DEPTH_LIMIT) return 0; /* the reader's to refuse */
    o3_ctx c;
    *st = o3_ctx_init(&c, s, doc, opts, false, err);
    if (*st != SV_OK) return 1;
    lt x;
    memset(&x, 0, sizeof x);
    x.c = &c;
    x.p = text;
    x.n = len;
    if (limits) x.limits = *limits;
    x.max_depth = x.limits.max_depth ? x.limits.max_depth : SV_DEFAULT_MAX_DEPTH;
    x.out = doc;
    x.consumed = consumed;
    x.consumed_ctx = consumed_ctx;
    sv_buf_init(&x.piece, c.alloc);
    x.scratch = sv_doc_new(c.alloc);
    x.keys = sv_doc_new(c.alloc);
    int done = 0;
    if (x.scratch && x.keys && survey(&x, t->cls)) {
        clear_seen(&c);
        done = 1;
        sv_value cur = *value, out;
        o3_res r = load_root(&x, t->cls, &cur, &out);
        *value = out;
        if (result) *result = r;
        *st = c.st;
        if (*st == SV_OK && sv_doc_status(doc) != SV_OK)
            *st = sv_error_set(err, sv_doc_status(doc), "o3de", 0, "out of memory");
    }
    sv__core_mem_free(c.alloc, x.m, x.capm, sizeof *x.m);
    sv__core_mem_free(c.alloc, x.ch, x.capch, sizeof *x.ch);
    sv_buf_free(&x.piece);
    sv_doc_free(x.scratch);
    sv_doc_free(x.keys);
    o3_ctx_free(&c);
    return done;
}

sv_status sv_o3de_load_text(const sv_schema *s, const sv_type *t, const char *text, size_t len,
                            const sv_limits *limits, sv_doc *doc, sv_value *value,
                            const sv_o3de_opts *opts, sv_o3de_result *result,
                            void (*consumed)(void *ctx, size_t upto), void *consumed_ctx,
                            sv_error *err)
{
    if (result) *result = sv_o3de_result_make(SV_O3DE_READ_FIELD, SV_O3DE_CATASTROPHIC);
    if (!s || !t || (!text && len) || !doc || !value)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_load_text");
    sv_status st = SV_OK;
    if (text && load_streaming(s, t, text, len, limits, doc, value, opts, result, err, consumed,
                               consumed_ctx, &st))
        return st;
    sv_value json;
    st = sv_o3de_read(doc, text ? text : "", len, limits, &json, err);
    if (st != SV_OK) return st;
    return sv_o3de_load(s, t, &json, doc, value, opts, result, err);
}
