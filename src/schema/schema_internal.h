/* Schemas (internal): the store behind include/serval/schema.h.
 *
 * Classes and enums are allocated one by one in the schema's arena (an
 * sv_doc), so their addresses never change; the lists of them, and the hash
 * tables, live in memory from the schema's allocator because they are
 * resized. Names are interned in the arena. */
#ifndef SV_SCHEMA_INTERNAL_H
#define SV_SCHEMA_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include "serval/schema.h"

#define SV_SCHEMA_FORMAT "schema"

/* Deepest type expression (pair<vector<map<...>>> ...) and largest
 * array<T,N>: hostile schema files must not make huge or deep values. */
#define SV_TYPE_MAX_DEPTH 64u
#define SV_TYPE_MAX_ARRAY_LEN (1u << 20)
/* Classes with more own fields than this get hash tables for their field
 * lookups; the smaller ones are searched in a short loop (still bounded). */
#define SV_FIELD_SCAN_MAX 16u
/* Bases nest at most this deep, and the full field lists and ancestor lists
 * of all classes hold at most this many entries together: a hostile schema
 * cannot make finalize quadratic. */
#define SV_BASE_MAX_DEPTH 256u
#define SV_RESOLVED_MAX (1u << 24)

/* ---- hash table --------------------------------------------------------------
 * Open addressing, linear probing; a slot holds a 64-bit hash and an item.
 * The caller compares items (names, hashes, UUIDs) itself. */
typedef struct sv__tab_slot {
    uint64_t hash;
    const void *item;
} sv__tab_slot;

typedef struct sv__tab {
    sv__tab_slot *slots;
    uint32_t cap; /* power of two, or 0 */
    uint32_t count;
} sv__tab;

typedef bool (*sv__tab_eq)(const void *item, const void *key);

/* The item stored under (hash, key), or NULL. */
const void *sv__schema_tab_find(const sv__tab *t, uint64_t hash, sv__tab_eq eq, const void *key);
/* Inserts item (which must not be present); false when out of memory. */
bool sv__schema_tab_put(sv__tab *t, const sv_alloc *a, uint64_t hash, const void *item);
void sv__schema_tab_free(sv__tab *t, const sv_alloc *a);

uint64_t sv__schema_hash_str(const char *s, size_t len);
uint64_t sv__schema_hash_u64(uint64_t v);

/* ---- parts ---------------------------------------------------------------- */

/* Per-class data the public struct does not show (index_ points here). */
typedef struct sv_schema__class_index {
    sv_schema_class *pub;
    const char **base_names; /* while building */
    uint32_t base_cap;
    uint32_t field_cap;
    /* after finalize: the ancestors (bases first, each once, then the class
     * itself), the full field list and its lookup tables */
    const sv_schema_class **anc;
    uint32_t *anc_off; /* where each ancestor's own fields start in all[] */
    uint32_t nanc;
    uint32_t mark_class, mark_base; /* finalize: who listed this class last */
    const sv_schema_field **all;
    uint32_t nall;
    uint32_t tab_cap;                    /* 0: search all[] in a loop */
    uint32_t *by_name, *by_hash, *by_id; /* slot -> index in fields[] + 1; 0 = empty */
    uint8_t state;                       /* finalize's walk: 0 new, 1 on the stack, 2 done */
    uint8_t embed_state;
    uint32_t levels;                 /* levels of bases above the class (0: none) */
    const sv_schema_field *id_field; /* C polymorphism: the class id member */
} sv_schema__class_index;

typedef struct sv_schema__enum_index {
    uint32_t value_cap;
    uint32_t tab_cap;
    uint32_t *by_name, *by_value; /* slot -> index in values[] + 1 */
} sv_schema__enum_index;

struct sv_schema {
    sv_alloc alloc;
    sv_doc *doc; /* the arena: names, parts, defaults */
    const char *source;
    sv_schema_class **classes;
    size_t nclasses, class_cap;
    sv_schema_enum **enums;
    size_t nenums, enum_cap;
    sv__tab class_names, enum_names, class_hashes, class_uuids, class_ids, types;
    bool final;
    bool broken; /* a finalize failed: the schema can only be freed */
};

static inline sv_schema__class_index *sv__schema_cls(const sv_schema_class *c)
{
    return (sv_schema__class_index *)c->index_;
}
static inline sv_schema__enum_index *sv__schema_enm(const sv_schema_enum *e)
{
    return (sv_schema__enum_index *)e->index_;
}

/* Interned copy of a string in the schema's arena; NULL when out of memory. */
const char *sv__schema_intern(sv_schema *s, const char *str, size_t len);
/* Arena memory, zeroed; NULL when out of memory. */
void *sv__schema_zalloc(sv_schema *s, size_t size);

/* Records an error of the schema layer; path (may be NULL) is a printf
 * format for the JSON Pointer, message follows. */
sv_status sv__schema_fail(sv_error *err, sv_status st, const char *msg_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Replaces the error's path (the finalizer knows the whole path at once). */
void sv__schema_set_path(sv_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prepends "/classes/i/fields/j" style segments to err's path. */
void sv__schema_path_prefix(sv_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- types ------------------------------------------------------------------ */

/* Resolves the NAME types inside t to classes and enums (finalize). */
sv_status sv__schema_type_resolve(sv_schema *s, const sv_type *t, sv_error *err);
/* The width in bytes of an integer primitive (0 for others) and whether it
 * is signed: inline, as loaders and writers ask for them on every leaf
 * (sv_prim_int_width and sv_prim_is_signed are these). */
static inline int sv__schema_prim_int_width(sv_prim p)
{
    switch (p) {
    case SV_PRIM_I8:
    case SV_PRIM_U8: return 1;
    case SV_PRIM_I16:
    case SV_PRIM_U16: return 2;
    case SV_PRIM_I32:
    case SV_PRIM_U32: return 4;
    case SV_PRIM_I64:
    case SV_PRIM_U64: return 8;
    default: return 0;
    }
}
static inline bool sv__schema_prim_is_signed(sv_prim p)
{
    return p == SV_PRIM_I8 || p == SV_PRIM_I16 || p == SV_PRIM_I32 || p == SV_PRIM_I64;
}
/* The tag of a math primitive's tuple (vector3 -> SV_TAG_VECTOR3), or NONE. */
sv_tag sv__schema_prim_tag(sv_prim p);
/* Number of f32 scalars of a math primitive, 0 for others. */
unsigned sv__schema_prim_scalars(sv_prim p);

/* Room for n own fields in c, so a loader that knows the count makes one
 * block (false when out of memory). */
bool sv__schema_reserve_fields(sv_schema *s, sv_schema_class *c, uint32_t n);

/* Position of a field (by name) in the class's full field list, or SIZE_MAX. */
size_t sv__schema_field_index(const sv_schema_class *c, const char *name, size_t len);

/* Reads v as an object of exactly class c (sv_schema_read_value for a class). */
sv_status sv__schema_read_class(const sv_schema *s, const sv_schema_class *c, const sv_value *v,
                                sv_doc *doc, sv_value *out, sv_error *err);

/* ---- finalize parts --------------------------------------------------------- */

sv_status sv__schema_check_bindings(sv_schema *s, sv_error *err);
sv_status sv__schema_build_field_index(sv_schema *s, sv_schema_class *c);
sv_status sv__schema_build_enum_index(sv_schema *s, sv_schema_enum *e);

/* The bound class whose descriptor has class id id, or NULL. */
const sv_schema_class *sv__schema_class_by_cid(const sv_schema *s, uint32_t id);

/* The C size of a type (bound classes must be known); 0 when it has no C form. */
size_t sv__schema_type_c_size(const sv_type *t);
/* Alignment of a type's C form as a struct member; 0 when it has none. */
size_t sv__schema_type_c_align(const sv_type *t);
/* Lays out params as the members of a C struct (pair, tuple, a map's key
 * and value): offs[i] gets each member's offset (offs may be NULL). Returns
 * the struct's size, 0 when a member has no C form. */
size_t sv__schema_c_members(const sv_type *const *params, uint32_t n, size_t *offs);
/* True when the type needs an aux member (COUNTED or OPTIONAL). */
bool sv__schema_type_needs_aux(const sv_type *t);

#endif
