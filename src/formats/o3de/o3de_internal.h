/* O3DE JSON serialization: what the load and store files share (internal).
 *
 * A load walks the JSON and the schema type together and makes a new value
 * (values are immutable: "left untouched" means the old value is returned).
 * A store walks the value and its default and makes a plain JSON tree. Both
 * carry one context with the reporting callback, the path of the current
 * node (kept only when someone listens) and a sticky hard failure (out of
 * memory), which is apart from O3DE's result codes. */
#ifndef SV_O3DE_INTERNAL_H
#define SV_O3DE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"
#include "core/walk.h"
#include "serval/o3de.h"

typedef sv_o3de_result o3_res;

/* Per class: its full field list (bases first) with the CRC-32 of each
 * lower-cased name, how O3DE finds fields (o3de.md, "What serval follows", Load). */
typedef struct o3_class_info {
    bool ready;
    const sv_schema_field *const *fields;
    size_t nfields;
    uint32_t *crc;
    /* The JSON key (its address) last found to name each field: a key
     * interned by the reader is then matched without hashing. Valid for
     * one load, as long as the JSON is. */
    const char **seen;
} o3_class_info;

typedef struct o3_ctx {
    const sv_schema *s;
    sv_doc *doc;
    sv_o3de_report_fn report;
    void *report_ctx;
    bool keep_defaults;
    bool clear_containers;
    bool storing; /* paths are dotted context paths */
    uint32_t depth, max_depth;
    sv_path path;  /* the current element's way (only with report) */
    sv_buf dotted; /* storing: the path rendered as "a.b.0" */
    sv_status st;  /* hard failure, sticky */
    sv_error *err;
    o3_class_info *classes; /* indexed by sv_schema_class.index */
    size_t nclasses;
    const sv_alloc *alloc; /* the document's: field tables, paths, scratch */
    /* Load: the storage of an object the load itself just made as a new
     * container element's default, which nothing else refers to, so that
     * o3_load_class fills it in place rather than copying it first (a copy
     * per element is a third of a large load's memory). NULL: none. */
    const sv_container *fresh;
} o3_ctx;

/* ---- context, paths, reporting (o3de_context.c) ---- */
/* ---- options (o3de_opts.c) ---- */
/* *out = the defaults, overlaid with the members of opts (NULL: none) that
 * fit in its struct_size (core/opts.h). SV_ERR_USAGE for one too small (0:
 * never given to its init function). */
sv_status o3_opts_read(sv_o3de_opts *out, const sv_o3de_opts *opts, sv_error *err);
sv_status o3_import_opts_read(sv_o3de_import_opts *out, const sv_o3de_import_opts *opts,
                              sv_error *err);
/* The nesting a walk may go to: max_depth, else limits.max_depth, else
 * 1024; at most SV_MAX_DEPTH_LIMIT. o is complete (o3_opts_read made it). */
uint32_t o3_opts_max_depth(const sv_o3de_opts *o);

sv_status o3_ctx_init(o3_ctx *c, const sv_schema *s, sv_doc *doc, const sv_o3de_opts *opts,
                      bool storing, sv_error *err);
void o3_ctx_free(o3_ctx *c);
void o3_fail(o3_ctx *c, sv_status st, const char *msg);
static inline bool o3_ok(const o3_ctx *c)
{
    return c->st == SV_OK;
}

/* Push a member name (not copied: it must live until popped) or an index;
 * each returns the mark o3_path_pop goes back to. */
size_t o3_path_key(o3_ctx *c, const char *key, size_t len);
size_t o3_path_index(o3_ctx *c, size_t index);
void o3_path_pop(o3_ctx *c, size_t mark);
/* The mark of the current path, for a push made only sometimes. */
static inline size_t o3_path_mark(const o3_ctx *c)
{
    return c->path.depth;
}

/* sv_o3de_result_make, inline so that constant results fold (the same
 * table as o3de_result.c) */
static inline o3_res o3_r(sv_o3de_task t, sv_o3de_outcome o)
{
    uint32_t proc;
    switch (o) {
    case SV_O3DE_SUCCESS:
    case SV_O3DE_SKIPPED:
    case SV_O3DE_PARTIAL_SKIP:
    case SV_O3DE_DEFAULTS_USED:
    case SV_O3DE_PARTIAL_DEFAULTS: proc = SV_O3DE_COMPLETED; break;
    case SV_O3DE_UNAVAILABLE:
    case SV_O3DE_UNSUPPORTED: proc = SV_O3DE_ALTERED; break;
    default: proc = SV_O3DE_HALTED; break;
    }
    return ((uint32_t)o << 16) | (proc << 8) | (uint32_t)t;
}
/* Combining a result with itself gives it back; that is the usual case. */
static inline o3_res o3_combine(o3_res a, o3_res b)
{
    if (a == b) return a;
    /* Both completed with the same task (the walks' usual pair: success,
     * defaults used and the partial one they make): the larger outcome,
     * except success with defaults used or skipped, which make the partial
     * one. Those are exactly the pairs whose outcomes OR to 5 or 3 (1|4 and
     * 1|2; 1|5, 4|5, 1|3, 2|3 and 0 with either are already the larger),
     * and nothing of the processing pairs applies. test_o3de_results
     * compares every pair with sv_o3de_result_combine. */
    if (((a ^ b) & 0xffffu) == 0 && (a & 0xff00u) == (uint32_t)SV_O3DE_COMPLETED << 8) {
        uint32_t ao = (uint32_t)a >> 16, bo = (uint32_t)b >> 16, o = ao | bo;
        uint32_t m = ao > bo ? ao : bo;
        if (o == SV_O3DE_PARTIAL_DEFAULTS || o == SV_O3DE_PARTIAL_SKIP) m = o;
        return (m << 16) | ((uint32_t)a & 0xffffu);
    }
    if (((a ^ b) & 0xffu) == 0 && ((uint32_t)a >> 8) == 0)
        return b; /* a is no result yet (sv_o3de_result_none): b is the larger */
    /* sv_o3de_result_combine, inline: the larger code, with the outcome and
     * processing pairs that make a partial one */
    uint32_t r = a > b ? a : b;
    uint32_t oa = (uint32_t)a >> 16, ob = (uint32_t)b >> 16;
    uint32_t pa = ((uint32_t)a >> 8) & 0xffu, pb = ((uint32_t)b >> 8) & 0xffu;
    uint32_t out = r >> 16, proc = (r >> 8) & 0xffu;
    if ((oa == SV_O3DE_SUCCESS && ob == SV_O3DE_DEFAULTS_USED) ||
        (ob == SV_O3DE_SUCCESS && oa == SV_O3DE_DEFAULTS_USED))
        out = SV_O3DE_PARTIAL_DEFAULTS;
    else if ((oa == SV_O3DE_SUCCESS && ob == SV_O3DE_SKIPPED) ||
             (ob == SV_O3DE_SUCCESS && oa == SV_O3DE_SKIPPED))
        out = SV_O3DE_PARTIAL_SKIP;
    if ((pa == SV_O3DE_COMPLETED && pb == SV_O3DE_ALTERED) ||
        (pb == SV_O3DE_COMPLETED && pa == SV_O3DE_ALTERED))
        proc = SV_O3DE_PARTIAL_ALTER;
    return (out << 16) | (proc << 8) | (r & 0xffu);
}
static inline sv_o3de_processing o3_proc(o3_res r)
{
    uint32_t p = ((uint32_t)r >> 8) & 0xffu;
    return p ? (sv_o3de_processing)p : SV_O3DE_COMPLETED;
}
static inline sv_o3de_outcome o3_out(o3_res r)
{
    uint32_t o = (uint32_t)r >> 16;
    return o ? (sv_o3de_outcome)o : SV_O3DE_DEFAULTS_USED;
}
static inline bool o3_halted(o3_res r)
{
    return o3_proc(r) == SV_O3DE_HALTED;
}
static inline bool o3_altered(o3_res r)
{
    return o3_proc(r) == SV_O3DE_ALTERED;
}

/* Reports r with a printf message; returns what the callback makes of it. */
o3_res o3_report(o3_ctx *c, o3_res r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static inline o3_res o3_rep(o3_ctx *c, sv_o3de_task t, sv_o3de_outcome o, const char *msg)
{
    return o3_report(c, o3_r(t, o), "%s", msg);
}

const o3_class_info *o3_class(o3_ctx *c, const sv_schema_class *cls);
uint32_t o3_crc32_lower(const char *s, size_t n);

/* ---- the member walk of a class load (O3DE's JsonDeserializer::LoadClass) ----
 * One copy of the rules for the load into a value (o3de_class.c) and into
 * a C struct (o3de_struct.c). Always inlined, with the field loader a
 * constant at each call, so each walk gets its own copy with the loader
 * inlined into it: the struct path pays no call for the sharing. */
#if defined(__GNUC__)
#define O3_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define O3_ALWAYS_INLINE inline
#endif

/* The field a JSON key names (lower-cased CRC-32, derived fields before
 * base ones, o3de.md, "What serval follows", Load), trying first the field whose key last had the
 * same address: within one load the same address holds the same text. */
static O3_ALWAYS_INLINE long o3_find_field(const o3_class_info *ci, const char *key, size_t len)
{
    for (size_t i = 0; i < ci->nfields; i++)
        if (ci->seen[i] == key) return (long)i;
    uint32_t crc = o3_crc32_lower(key, len);
    for (size_t i = ci->nfields; i-- > 0;) {
        if (ci->crc[i] == crc) {
            ci->seen[i] = key;
            return (long)i;
        }
    }
    return -1;
}

/* What comes before the members: a non-object is Unsupported, {} an
 * explicit default. false (with *r) when there are no members to walk. */
static O3_ALWAYS_INLINE bool o3_class_members_start(o3_ctx *c, const sv_schema_class *cls,
                                                    const sv_value *j, o3_res *r)
{
    if (sv_kind_of(j) != SV_MAP) {
        *r = o3_report(c, o3_r(SV_O3DE_READ_FIELD, SV_O3DE_UNSUPPORTED),
                       "Reading into targets of type '%s' is not supported.", cls->name);
        return false;
    }
    if (j->len == 0) {
        *r = o3_rep(c, SV_O3DE_READ_FIELD, SV_O3DE_DEFAULTS_USED, "Value has an explicit default.");
        return false;
    }
    return true;
}

/* Loads one member's value j into field number index. */
typedef o3_res (*o3_field_load_fn)(void *state, size_t index, const sv_value *j);

/* Each member of the object j to its field through load: "$type" passed
 * over, unknown names Skipped, the first halted field stops the walk
 * ("Loading of element has failed."), and fields no member loaded (Altered
 * ones count as not loaded) give DefaultsUsed or PartialDefaults. */
static O3_ALWAYS_INLINE o3_res o3_load_members(o3_ctx *c, const o3_class_info *ci,
                                               const sv_value *j, o3_field_load_fn load,
                                               void *state)
{
    /* a local copy of the container, so that the accessors' kind and range
     * checks are hoisted out of the loop */
    const sv_value jm = *j;
    o3_res result = sv_o3de_result_none(SV_O3DE_READ_FIELD);
    size_t loads = 0;
    for (uint32_t i = 0; i < jm.len; i++) {
        const sv_value *key = sv_key_at(&jm, i);
        size_t kn = key->len;
        const char *k = key->kind == SV_STRING ? key->as.str : sv_get_str(key, &kn);
        if (kn == 5 && memcmp(k, "$type", 5) == 0) continue;
        size_t mark = o3_path_key(c, k, kn);
        long f = o3_find_field(ci, k, kn);
        if (f < 0) {
            result = o3_combine(
                result, o3_rep(c, SV_O3DE_READ_FIELD, SV_O3DE_SKIPPED,
                               "Skipping field as there's no matching variable in the target."));
            o3_path_pop(c, mark);
            continue;
        }
        o3_res r = load(state, (size_t)f, sv_val_at(&jm, i));
        if (o3_halted(r)) {
            r = o3_report(c, r, "Loading of element has failed.");
            o3_path_pop(c, mark);
            return r;
        }
        o3_path_pop(c, mark);
        if (!o3_altered(r)) loads++;
        result = o3_combine(result, r);
    }
    /* o3de.md, "What serval follows", Load: fields the JSON did not mention kept their defaults */
    if (ci->nfields > loads)
        result =
            o3_combine(result, o3_r(SV_O3DE_READ_FIELD,
                                    loads == 0 ? SV_O3DE_DEFAULTS_USED : SV_O3DE_PARTIAL_DEFAULTS));
    return result;
}

/* The object o3_load_class fills: cur itself when fresh (the load's own
 * new default), else a new object holding cur's field values. */
sv_value o3_writable_object(o3_ctx *c, const sv_schema_class *cls, const o3_class_info *ci,
                            const sv_value *cur, bool fresh);

/* ---- JSON tree helpers ---- */

/* The index of the field whose value is *val (a pointer sv_map_get or
 * sv_val_at gave for this map), or sv_len(map) when none is. */
static inline size_t o3_field_index(const sv_value *map, const sv_value *val)
{
    const sv_value m = *map;
    size_t i = 0;
    while (i < m.len && sv_val_at(&m, i) != val) i++;
    return i;
}

/* Removes field i of a MAP of a JSON tree, the fields after it moving down
 * one. Only OBJECTs have a compact form, a MAP always holds its pairs
 * (sv_pairs answers NULL for anything else, which is then left alone). */
static inline bool o3_map_remove_at(sv_value *map, size_t i)
{
    sv_pair *pairs = sv_kind_of(map) == SV_MAP ? sv_pairs(map) : NULL;
    if (!pairs || i >= map->len) return false;
    memmove(pairs + i, pairs + i + 1, (map->len - i - 1) * sizeof *pairs);
    map->len--;
    return true;
}
static inline bool o3_is_explicit_default(const sv_value *j)
{
    return sv_kind_of(j) == SV_MAP && j->len == 0;
}
sv_value o3_empty_object(o3_ctx *c);
bool o3_json_is_number(const sv_value *j);
bool o3_json_is_string(const sv_value *j);

/* ---- type facts ---- */
bool o3_type_init_new(const sv_type *t);       /* InitializeNewInstance serializers */
bool o3_type_manual_default(const sv_type *t); /* ManualDefault serializers */
const char *o3_type_label(const sv_type *t);   /* for messages */

/* ---- defaults (o3de_default.c) ---- */
sv_value o3_default_of(o3_ctx *c, const sv_type *t);
sv_value o3_default_class(o3_ctx *c, const sv_schema_class *cls);
bool o3_value_equal(o3_ctx *c, const sv_type *t, const sv_value *a, const sv_value *b);

/* ---- dispatch (o3de_load.c / o3de_store.c) ---- */
/* Loads json into cur (type t); *out is the new value (cur when untouched). */
o3_res o3_load(o3_ctx *c, const sv_type *t, const sv_value *json, const sv_value *cur,
               sv_value *out, bool is_new);
/* Stores v against def (NULL: none) into *json, which starts as {}. */
o3_res o3_store(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                sv_value *json);

/* ---- the per-kind serializers ---- */
o3_res o3_load_prim(o3_ctx *c, sv_prim p, const sv_value *j, const sv_value *cur, sv_value *out);
o3_res o3_store_prim(o3_ctx *c, sv_prim p, const sv_value *v, const sv_value *def, sv_value *j);
o3_res o3_load_math(o3_ctx *c, sv_prim p, const sv_value *j, const sv_value *cur, sv_value *out,
                    bool is_new);
o3_res o3_store_math(o3_ctx *c, sv_prim p, const sv_value *v, const sv_value *def, sv_value *j);
/* A matrix from {"roll","pitch","yaw","scale"[,"x","y","z"]} (o3de_matrix.c):
 * out (rows * columns floats, row-major) gets the identity first, then the
 * matrix unless the load failed. Reports its own result. */
o3_res o3_load_matrix_object(o3_ctx *c, sv_prim p, const sv_value *j, float *out);
/* AZStd::any (o3de_any.c): {"$type": T, "Value": V}; the value is null
 * (empty) or a value of a schema class. */
o3_res o3_load_any(o3_ctx *c, const sv_value *j, const sv_value *cur, sv_value *out);
o3_res o3_store_any(o3_ctx *c, const sv_value *v, const sv_value *def, sv_value *j);
o3_res o3_load_uuid(o3_ctx *c, const sv_value *j, const sv_value *cur, sv_value *out);
o3_res o3_store_uuid(o3_ctx *c, const sv_value *v, const sv_value *def, sv_value *j);
bool o3_uuid_search(const char *s, size_t n, sv_uuid *out, bool *bad);
o3_res o3_load_enum(o3_ctx *c, const sv_schema_enum *e, const sv_value *j, const sv_value *cur,
                    sv_value *out);
o3_res o3_store_enum(o3_ctx *c, const sv_schema_enum *e, const sv_value *v, const sv_value *def,
                     sv_value *j);
o3_res o3_load_class(o3_ctx *c, const sv_schema_class *cls, const sv_value *j, const sv_value *cur,
                     sv_value *out);
o3_res o3_store_class(o3_ctx *c, const sv_schema_class *cls, const sv_value *v, const sv_value *def,
                      sv_value *j);
o3_res o3_load_pointer(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                       sv_value *out);
/* The class of an object value (its "$class"), NULL when it has none the
 * schema knows; and a class's "$type" text (o3de_pointer.c). */
const sv_schema_class *o3_class_of_value(const sv_schema *s, const sv_value *v);
sv_value o3_type_text(o3_ctx *c, const sv_schema_class *cls);
o3_res o3_store_pointer(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                        sv_value *j);
o3_res o3_load_container(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                         sv_value *out, bool is_new);
o3_res o3_store_container(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                          sv_value *j);
o3_res o3_load_map(o3_ctx *c, const sv_type *t, const sv_value *j, const sv_value *cur,
                   sv_value *out);
o3_res o3_store_map(o3_ctx *c, const sv_type *t, const sv_value *v, const sv_value *def,
                    sv_value *j);

/* Bound C structs without a tree in between (o3de_struct.c): whether the
 * class (and everything it holds) has a plain C form the direct path
 * takes, and the two walks, with the tree path's rules and results. */
/* 1: cls takes the direct path, 0: the tree path, -1: out of memory (alloc). */
int o3_struct_direct(const sv_schema *s, const sv_schema_class *cls, const sv_alloc *alloc);
o3_res o3_load_struct_direct(o3_ctx *c, const sv_schema_class *cls, const sv_value *json, void *st,
                             const sv_alloc *alloc);
o3_res o3_store_struct_direct(o3_ctx *c, const sv_schema_class *cls, const void *st, sv_buf *out,
                              int indent);
/* The tree path for the same calls (o3de_api.c): struct -> value -> rules
 * -> struct, and struct -> value -> JSON tree -> text. */
sv_status o3_load_struct_tree(const sv_schema *s, const sv_schema_class *cls, const sv_value *json,
                              void *st, const sv_alloc *alloc, const sv_o3de_opts *opts,
                              sv_o3de_result *result, sv_error *err);
sv_status o3_store_struct_tree_text(const sv_schema *s, const sv_schema_class *cls, const void *st,
                                    int indent, sv_buf *out, const sv_o3de_opts *opts,
                                    sv_o3de_result *result, sv_error *err);

/* O3DE's JsonSerialization::Compare (o3de_compare.c), its scratch memory
 * (for large objects) from alloc: on failure nomem is set and 0 returned. */
typedef struct o3_cmp {
    const sv_alloc *alloc;
    bool nomem;
} o3_cmp;
int o3_compare(o3_cmp *k, const sv_value *a, const sv_value *b);
/* The same inside a load or store: out of memory fails c. */
int o3_compare_c(o3_ctx *c, const sv_value *a, const sv_value *b);
/* A stable merge sort with a context for cmp; false when alloc fails. */
bool o3_sort(void *base, size_t n, size_t size, int (*cmp)(void *, const void *, const void *),
             void *ctx, const sv_alloc *alloc);
/* Sorts an array of JSON values with o3_compare (stable). */
void o3_sort_json(o3_ctx *c, sv_value *items, size_t n); /* out of memory: fails c */

/* The text writer (o3de_write.c), shared with the struct-direct store. */
typedef struct o3_writer {
    sv_buf *out;
    int indent; /* 0: compact; n: RapidJSON's PrettyWriter with n spaces */
    sv_error *err;
    bool bad;
    sv_status st; /* the first failure, as sv_error_set returned it */
} o3_writer;
void o3_write_value(o3_writer *w, const sv_value *v, unsigned level);
void o3_write_string(o3_writer *w, const char *s, size_t n);
void o3_write_newline(o3_writer *w, unsigned level);

/* Grisu2 as RapidJSON 1.1 prints doubles (o3de_dtoa.c). */
size_t o3_dtoa(double d, char *buf);
/* o3_dtoa((double)f, buf), the same text, by a path made for floats. */
size_t o3_ftoa(float f, char *buf);
/* The n floats' texts one after the other with a comma between, as
 * o3_ftoa writes them (one call for a vector's components: the saved
 * registers once, not per number); at most 33 bytes stored per number. */
size_t o3_ftoa_list(const float *f, size_t n, char *buf);
/* "00" to "99", for writing integers two digits at a time */
extern const char o3_digit_pairs[201];
/* The eight decimal digits of v < 10^8 (leading zeros included) as ASCII
 * in one word, the first digit in the lowest byte: two 4-digit lanes, then
 * four 2-digit ones, then eight digits, side by side; the divisions by 100
 * and 10 are multiplications by 10486 / 2^20 and 103 / 2^10, exact below
 * 10^4 and 10^2. */
static inline uint64_t o3_eight_digits(uint32_t v)
{
    uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32;
    uint64_t hund = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
    x = hund | (x - hund * 100) << 16;
    uint64_t tens = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
    return (tens | (x - tens * 10) << 8) + UINT64_C(0x3030303030303030);
}
/* Writes the decimal digits of v (below 10^8) from start, storing eight
 * bytes (start needs room for eight); returns their count (v 0: none).
 * The count is eight less the leading '0' bytes of the word. */
static inline size_t o3_put_digits(char *start, uint32_t v)
{
    if (v == 0) return 0;
    uint64_t x = o3_eight_digits(v);
    unsigned zeros = (unsigned)__builtin_ctzll(x ^ UINT64_C(0x3030303030303030)) / 8;
    sv__core_store64le(start, x >> (8 * zeros));
    return 8 - zeros;
}
/* The same through Grisu2 always (no short cut), for the tests. */
size_t o3_dtoa_grisu(double d, char *buf);
/* A normal float's text through o3de_dtoa.c's exact-float path alone (no
 * short cut before it, no fallback after it): 0 when that path leaves the
 * float to grisu2(); for the tests and tests/tools/o3de_ftoa_exhaustive.c. */
size_t o3_dtoa_float_digits(float f, char *buf);

#endif
