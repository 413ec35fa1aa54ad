/* serval: the value tree.
 *
 * Every format decodes into an sv_doc and encodes from one. A document owns an
 * arena: every value, string and packed array of the document lives in it and
 * is freed at once by sv_doc_free. There is no per-value malloc and no
 * reference counting; values are 16-byte structs copied by value.
 *
 * Kinds (sv_kind) cover all of serval's formats. A value can also carry:
 *  - a width (integers 1/2/4/8 bytes, floats 4/8 bytes) and the EXPLICIT flag,
 *    which says "this width was chosen by the source, keep it" (a Godot int
 *    stored as 64 bits although it fits in 32, for instance);
 *  - a tag (tags.h): the engine type the value stands for (a StringName, a
 *    Vector3, ...), so an encoder can give back the exact bytes;
 *  - for arrays, maps and objects, a "meta" value: format data attached to
 *    the container itself (a Godot typed array's element type, say).
 *
 * Reading functions are NULL-safe: asking a NULL value or a value of another
 * kind returns 0 / NULL / an empty string, never crashes. */
#ifndef SERVAL_VALUE_H
#define SERVAL_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_kind {
    SV_NULL = 0,
    SV_BOOL,
    SV_INT,    /* signed integer, width 1, 2, 4 or 8 bytes */
    SV_UINT,   /* unsigned integer, width 1, 2, 4 or 8 bytes */
    SV_FLOAT,  /* float32 (width 4) or float64 (width 8), kept apart */
    SV_STRING, /* UTF-8 (WTF-8 if it came from UTF-16 with lone surrogates), NUL allowed */
    SV_BYTES,  /* raw bytes */
    SV_ARRAY,  /* ordered values */
    SV_MAP,    /* ordered (key, value) pairs, keys of any kind */
    SV_OBJECT, /* a class instance: class (name or hash) and ordered fields */
    SV_TUPLE,  /* a fixed math tuple (vector3, color, ...): tag = shape */
    SV_PACKED, /* a packed numeric array, contiguous; optional shape tag */
    SV_REF,    /* a reference to another object (index or id), or a null ref */
    SV_KIND_COUNT
} sv_kind;

/* Element types of TUPLE and PACKED values. */
typedef enum sv_elem {
    SV_ELEM_NONE = 0,
    SV_ELEM_U8,
    SV_ELEM_I8,
    SV_ELEM_U16,
    SV_ELEM_I16,
    SV_ELEM_U32,
    SV_ELEM_I32,
    SV_ELEM_U64,
    SV_ELEM_I64,
    SV_ELEM_F32,
    SV_ELEM_F64,
    SV_ELEM_COUNT
} sv_elem;

#include "tags.h"

typedef enum sv_tag {
#define SV_X_TAG(id, name, kind, scalars, elem) id,
    SV_TAG_LIST(SV_X_TAG)
#undef SV_X_TAG
        SV_TAG_COUNT
} sv_tag;

/* Value flags. */
enum {
    SV_F_EXPLICIT = 0x01, /* INT/UINT/FLOAT: the width is the source's choice */
    SV_F_UTF16 = 0x02,    /* STRING: came from UTF-16 (write back as UTF-16) */
    SV_F_NULLREF = 0x04,  /* REF: a null reference */
    /* STRING/BYTES/TUPLE/PACKED: the bytes lie in the decoder's input, not
     * in the document (a decode with borrow_input): read-only. Not part of
     * the value: sv_equal ignores it and sv_copy drops it with the copy. */
    SV_F_BORROWED = 0x08
};

typedef struct sv_value sv_value;
typedef struct sv_pair sv_pair;
typedef struct sv_container sv_container;
typedef struct sv_doc sv_doc;

/* 16 bytes. Treat the fields as read-only outside serval; use the functions. */
struct sv_value {
    uint8_t kind : 4;  /* sv_kind */
    uint8_t flags : 4; /* SV_F_* */
    uint8_t sub;       /* INT/UINT/FLOAT: width in bytes; TUPLE/PACKED: sv_elem */
    uint16_t tag;      /* sv_tag */
    /* STRING/BYTES: byte length; ARRAY/MAP/OBJECT: item count;
     * TUPLE/PACKED: number of scalars (items x scalars per item);
     * BOOL: the value the source stored when it was neither 0 nor 1, else 0. */
    uint32_t len;
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f64;
        float f32;
        const char *str; /* NUL-terminated after len bytes */
        const uint8_t *bytes;
        const void *data;  /* TUPLE/PACKED scalars */
        sv_container *box; /* ARRAY/MAP/OBJECT */
    } as;
};

struct sv_pair {
    sv_value key; /* MAP: any value; OBJECT: the field name (a STRING) */
    sv_value val;
};

/* How a MAP or OBJECT container stores its fields (sv_container.layout). */
enum {
    SV_LAYOUT_PAIRS = 0,  /* sv_pair items: key and value side by side */
    SV_LAYOUT_COMPACT = 1 /* OBJECT only: values alone; the names are in a shared sv_shape */
};

/* The storage of an ARRAY, MAP or OBJECT; items follow it in memory. */
struct sv_container {
    uint32_t cap;         /* items allocated after the header */
    uint32_t layout;      /* SV_LAYOUT_*; arrays: SV_LAYOUT_PAIRS (0) */
    const sv_value *meta; /* format data about the container, or NULL */
    /* OBJECT: class name (STRING) or hash (UINT). A compact object's points
     * at its shape's cls, the first member of the sv_shape. */
    const sv_value *cls;
};

/* The class and field names that every compact object of it shares, made
 * once per document (sv_shape_new). Formats whose objects follow fixed
 * classes (NoesisGUI, KingsIsle) would otherwise store every field name again
 * in every instance. */
typedef struct sv_shape {
    sv_value cls;   /* class name (STRING) or hash (UINT) */
    uint32_t count; /* fields */
    uint32_t unused;
    /* count field names (STRING values) follow: sv_shape_keys */
} sv_shape;

static inline const sv_value *sv_shape_keys(const sv_shape *shape)
{
    return (const sv_value *)(const void *)(shape + 1);
}

/* ---- limits ------------------------------------------------------------ */

/* Limits every decoder honours. Zero in any field means "the default". */
typedef struct sv_limits {
    uint32_t max_depth;        /* nesting depth; default 1024, at most SV_MAX_DEPTH_LIMIT */
    uint64_t max_alloc;        /* bytes a document may allocate; default 4 GiB */
    uint64_t max_string;       /* bytes in one string or bytes value; default 256 MiB */
    uint64_t max_decompressed; /* bytes a decompressor may produce; default 1 GiB */
} sv_limits;

#define SV_DEFAULT_MAX_DEPTH 1024u
/* The deepest max_depth can go: decoders and encoders recurse once per
 * level, and this many levels fit the 8 MB main-thread stack also under
 * AddressSanitizer. A larger max_depth is taken as this one. */
#define SV_MAX_DEPTH_LIMIT 2048u
#define SV_DEFAULT_MAX_ALLOC (UINT64_C(4) << 30)
#define SV_DEFAULT_MAX_STRING (UINT64_C(256) << 20)
#define SV_DEFAULT_MAX_DECOMPRESSED (UINT64_C(1) << 30)

/* Returns lim with every zero field replaced by its default. lim may be NULL. */
SV_API sv_limits sv_limits_resolve(const sv_limits *lim);

/* ---- documents ---------------------------------------------------------- */

/* A new empty document (root is null). alloc may be NULL (libc).
 * Returns NULL if the first allocation fails. */
SV_API sv_doc *sv_doc_new(const sv_alloc *alloc);
SV_API void sv_doc_free(sv_doc *doc);

/* Empties the document for the next decode into it: every value, string
 * and interned string goes (pointers into the old tree dangle), the root is
 * null again, a failed allocation's status is cleared, and
 * sv_doc_allocated starts from zero, so max_alloc limits the next decode as
 * it would a new document's. Unlike sv_doc_free then sv_doc_new, the arena
 * keeps its first chunks (up to sv_doc_set_reset_keep bytes) and hands them
 * out again: a program decoding many inputs one after another reuses
 * memory it has already touched instead of asking the system for fresh
 * pages each time. The allocator, max_alloc and the keep setting stay.
 * NULL is ignored. */
SV_API void sv_doc_reset(sv_doc *doc);
/* How many bytes of chunks sv_doc_reset keeps (default
 * SV_DEFAULT_RESET_KEEP; 0 keeps none, UINT64_MAX keeps all). The kept
 * memory stays allocated until the next decode reuses it or the document is
 * freed. SV_ERR_USAGE when doc is NULL. */
SV_API sv_status sv_doc_set_reset_keep(sv_doc *doc, uint64_t max_bytes);
#define SV_DEFAULT_RESET_KEEP (UINT64_C(16) << 20)

/* Caps the bytes the document may allocate (0 = SV_DEFAULT_MAX_ALLOC).
 * SV_ERR_USAGE when doc is NULL. */
SV_API sv_status sv_doc_set_max_alloc(sv_doc *doc, uint64_t max_bytes);
/* Bytes the document's arena has taken from its allocator so far (since
 * sv_doc_new or the last sv_doc_reset). */
SV_API uint64_t sv_doc_allocated(const sv_doc *doc);
/* SV_OK, or SV_ERR_NOMEM / SV_ERR_LIMIT once an allocation failed (sticky). */
SV_API SV_NODISCARD sv_status sv_doc_status(const sv_doc *doc);

/* The document's root: what the last successful decode into it produced
 * (every decoder sets it), or what sv_doc_set_root put there. */
SV_API sv_value *sv_doc_root(sv_doc *doc);
/* Makes root the document's root. A decoder calls it with the tree it built,
 * so that calls taking the document alone (sv_get_path with root NULL, ...)
 * find it. SV_ERR_USAGE when doc is NULL; the document's status when an
 * allocation failed before (the tree may be incomplete: the root is then
 * left as it was). */
SV_API sv_status sv_doc_set_root(sv_doc *doc, sv_value root);

/* Raw arena memory, 8-byte aligned, freed with the document. NULL on failure
 * (and the document's status becomes SV_ERR_NOMEM or SV_ERR_LIMIT). */
SV_API void *sv_doc_alloc(sv_doc *doc, size_t size);

/* Grows the last block handed out by sv_doc_alloc in place when possible,
 * else copies it. Returns the (possibly moved) block, or NULL on failure. */
SV_API void *sv_doc_realloc(sv_doc *doc, void *ptr, size_t old_size, size_t new_size);

/* ---- making values ------------------------------------------------------ */

SV_API sv_value sv_null(void);
SV_API sv_value sv_bool(bool b);
/* A bool as a source stored it: true for any value but 0, and a stored value
 * other than 0 and 1 (a padding byte 0x7F, say) is kept, so that an encoder
 * can write the same bytes back (sv_bool_stored). */
SV_API sv_value sv_bool_raw(uint32_t stored);
SV_API sv_value sv_int(int64_t i);                /* width 8, not explicit */
SV_API sv_value sv_uint(uint64_t u);              /* width 8, not explicit */
SV_API sv_value sv_int_w(int64_t i, int width);   /* width 1/2/4/8, explicit */
SV_API sv_value sv_uint_w(uint64_t u, int width); /* width 1/2/4/8, explicit */
SV_API sv_value sv_f64(double d);                 /* not explicit */
SV_API sv_value sv_f32(float f);                  /* width 4 (always explicit) */
SV_API sv_value sv_ref(uint64_t target);
SV_API sv_value sv_ref_null(void);
SV_API sv_value sv_with_tag(sv_value v, sv_tag tag);
SV_API sv_value sv_with_flags(sv_value v, unsigned flags);

/* Copies bytes into the arena (strings get a trailing NUL). On failure the
 * returned value is null and the document's status is set. */
SV_API sv_value sv_str(sv_doc *doc, const char *s, size_t len);
SV_API sv_value sv_strz(sv_doc *doc, const char *s);
/* Returns the document's single copy of the string (for keys, class names). */
SV_API sv_value sv_str_intern(sv_doc *doc, const char *s, size_t len);
SV_API sv_value sv_bytes(sv_doc *doc, const void *p, size_t len);
/* A string or bytes value of len bytes to be filled through sv_value_buf. */
SV_API sv_value sv_str_uninit(sv_doc *doc, size_t len);
SV_API sv_value sv_bytes_uninit(sv_doc *doc, size_t len);
/* Writable storage of a string, bytes, tuple or packed value just made;
 * NULL for a value that borrows its scalars from a decoder's input. */
SV_API void *sv_value_buf(sv_value *v);

/* A tuple of the shape's scalar count; data may be NULL (zeros). */
SV_API sv_value sv_tuple(sv_doc *doc, sv_tag shape, sv_elem elem, const void *data);
/* A packed array of count scalars (not items); shape may be SV_TAG_NONE.
 * data may be NULL (zeroed). count * elem size is checked for overflow. */
SV_API sv_value sv_packed(sv_doc *doc, sv_elem elem, sv_tag shape, const void *data, size_t count);

/* Containers of count items, all null until set; cap >= count room. */
SV_API sv_value sv_array(sv_doc *doc, size_t count);
SV_API sv_value sv_map(sv_doc *doc, size_t count);
/* cls is a STRING (class name) or UINT (class hash) value. */
SV_API sv_value sv_object(sv_doc *doc, sv_value cls, size_t count);

/* ---- compact objects (docs/value-tree.md) ----
 * A shape holds a class and its field names once per document; a compact
 * object of it holds only the values. Readers see no difference through
 * sv_key_at / sv_val_at / sv_object_class; sv_pairs gives no pairs there.
 * Appending a field (sv_map_append, sv_map_set of a new key) turns the object
 * into the pair layout first; so does sv_object_expand. */

/* A shape of class cls (STRING or UINT) and count field names (STRING
 * values, copied: the strings themselves must live in doc, e.g. interned).
 * NULL on bad arguments, and with the document's status set when memory or
 * a limit fails. */
SV_API const sv_shape *sv_shape_new(sv_doc *doc, sv_value cls, const sv_value *keys, size_t count);
/* A compact OBJECT of shape's class with shape->count fields, all null: set
 * them through sv_val_at(&obj, i). Null value on failure. */
SV_API sv_value sv_object_compact(sv_doc *doc, const sv_shape *shape);
/* Turns a compact object into the pair layout (same fields, same class and
 * meta); SV_OK and nothing to do for a map or object already in it;
 * SV_ERR_TYPE for other kinds. */
SV_API sv_status sv_object_expand(sv_doc *doc, sv_value *obj);
/* Rewrites every OBJECT of the tree that has a class and string keys into
 * the compact layout, one shape per distinct class and field list. For
 * testing that code reads both layouts, and to shrink a tree built with
 * sv_object. SV_ERR_DEPTH past 4096 levels. */
SV_API sv_status sv_compact_objects(sv_doc *doc, sv_value *root);

/* Appends to an ARRAY (item) / MAP or OBJECT (key, val) without looking at
 * the keys already there (a format that allows a key twice keeps both; use
 * sv_map_set to replace), growing the container in the arena (amortised
 * doubling). SV_OK; SV_ERR_USAGE when doc or the container is NULL;
 * SV_ERR_TYPE when the container is of another kind; SV_ERR_NOMEM or
 * SV_ERR_LIMIT when growing fails. A failed allocation also sets the
 * document's status (sticky, sv_doc_status), so a builder may append many
 * values and check once at the end.
 * Growing may move the items: fill a container through the sv_value you
 * hold, then store that value in its parent (a copy stored earlier would
 * still see the old length and storage). */
SV_API sv_status sv_array_append(sv_doc *doc, sv_value *arr, sv_value item);
SV_API sv_status sv_map_append(sv_doc *doc, sv_value *map, sv_value key, sv_value val);
/* Same, with a C string key (interned). SV_ERR_USAGE when key is NULL. */
SV_API sv_status sv_map_append_str(sv_doc *doc, sv_value *map, const char *key, sv_value val);

/* Attaches a copy of meta to an ARRAY, MAP or OBJECT, replacing any meta it
 * had. SV_ERR_USAGE / SV_ERR_TYPE / SV_ERR_NOMEM / SV_ERR_LIMIT as above. */
SV_API sv_status sv_meta_set(sv_doc *doc, sv_value *container, sv_value meta);

/* Deprecated names of the calls above, kept for one release: they return
 * true for SV_OK. */
SV_API bool sv_array_push(sv_doc *doc, sv_value *arr, sv_value item)
    SV_DEPRECATED("use sv_array_append, which returns sv_status");
SV_API bool sv_map_put(sv_doc *doc, sv_value *map, sv_value key, sv_value val)
    SV_DEPRECATED("use sv_map_append, which returns sv_status");
SV_API bool sv_map_put_str(sv_doc *doc, sv_value *map, const char *key, sv_value val)
    SV_DEPRECATED("use sv_map_append_str, which returns sv_status");
SV_API bool sv_set_meta(sv_doc *doc, sv_value *container, sv_value meta)
    SV_DEPRECATED("use sv_meta_set, which returns sv_status");

/* ---- reading values ----------------------------------------------------- */

static inline sv_kind sv_kind_of(const sv_value *v)
{
    return v ? (sv_kind)v->kind : SV_NULL;
}
static inline sv_tag sv_tag_of(const sv_value *v)
{
    return v ? (sv_tag)v->tag : SV_TAG_NONE;
}
static inline bool sv_is_explicit(const sv_value *v)
{
    return v && (v->flags & SV_F_EXPLICIT);
}
static inline bool sv_is_borrowed(const sv_value *v)
{
    return v && (v->flags & SV_F_BORROWED);
}
static inline int sv_width(const sv_value *v)
{
    return v ? v->sub : 0;
}
static inline uint32_t sv_len(const sv_value *v)
{
    return v ? v->len : 0;
}

SV_API bool sv_get_bool(const sv_value *v);
/* The value a bool stands for in its source: 0 or 1, or what sv_bool_raw
 * kept. 0 for other kinds. */
SV_API uint32_t sv_bool_stored(const sv_value *v);
/* INT, UINT (if it fits), FLOAT (truncated, saturated) or BOOL as int64. */
SV_API int64_t sv_get_int(const sv_value *v);
SV_API uint64_t sv_get_uint(const sv_value *v);
/* INT, UINT or FLOAT as double. */
SV_API double sv_get_f64(const sv_value *v);
/* STRING or BYTES contents (never NULL: "" for other kinds); *len may be NULL. */
SV_API const char *sv_get_str(const sv_value *v, size_t *len);

/* ARRAY: item i, or NULL when out of range. */
SV_API sv_value *sv_array_at(const sv_value *arr, size_t i);
SV_API sv_value *sv_array_items(const sv_value *arr);
/* MAP/OBJECT: the key / the value of field i (0 <= i < sv_len), or NULL when
 * i is out of range or map is NULL or of another kind. These two are THE way
 * to read the fields of a map or object: they keep working on every
 * representation of a container, also a compact object that holds its field
 * names once in a shared shape (docs/value-tree.md). Inline, so a loop over
 * the fields costs what indexing an array of pairs costs. The key is
 * read-only; the value may be changed in place (a value of the document). */
static inline const sv_value *sv_key_at(const sv_value *map, size_t i)
{
    if (!map || (map->kind != SV_MAP && map->kind != SV_OBJECT) || i >= map->len) return NULL;
    const sv_container *box = map->as.box;
    if (box->layout == SV_LAYOUT_COMPACT)
        return &sv_shape_keys((const sv_shape *)(const void *)box->cls)[i];
    return &((const sv_pair *)(const void *)(box + 1))[i].key;
}
static inline sv_value *sv_val_at(const sv_value *map, size_t i)
{
    if (!map || (map->kind != SV_MAP && map->kind != SV_OBJECT) || i >= map->len) return NULL;
    sv_container *box = map->as.box;
    if (box->layout == SV_LAYOUT_COMPACT) return &((sv_value *)(void *)(box + 1))[i];
    return &((sv_pair *)(void *)(box + 1))[i].val;
}
/* MAP/OBJECT in the pair layout: pair i / the first pair, or NULL (also on
 * a compact object, which has no pairs). Read fields with sv_key_at and
 * sv_val_at instead, which answer on both layouts. */
SV_API sv_pair *sv_pair_at(const sv_value *map, size_t i);
SV_API sv_pair *sv_pairs(const sv_value *map);
/* MAP/OBJECT: the value of the first pair whose key is the string key. */
SV_API sv_value *sv_map_get(const sv_value *map, const char *key, size_t key_len);
static inline sv_value *sv_map_getz(const sv_value *map, const char *key)
{
    size_t n = 0;
    while (key && key[n]) n++;
    return sv_map_get(map, key, n);
}
/* ARRAY/MAP/OBJECT: the meta value, or NULL. OBJECT: the class, or NULL. */
SV_API const sv_value *sv_meta(const sv_value *container);
SV_API const sv_value *sv_object_class(const sv_value *obj);
/* The shape of a compact object; NULL for every other value. */
SV_API const sv_shape *sv_object_shape(const sv_value *obj);

/* TUPLE/PACKED: scalar storage, element type and count of scalars. The
 * storage of a borrowed value (sv_is_borrowed) may start at any address
 * (godot-res): read it with memcpy or sv_number_at, not through a float
 * or integer pointer. */
SV_API const void *sv_numbers(const sv_value *v);
SV_API sv_elem sv_elem_of(const sv_value *v);
/* Scalar i of a TUPLE/PACKED as double (0 if out of range). */
SV_API double sv_number_at(const sv_value *v, size_t i);

/* ---- tables -------------------------------------------------------------- */

SV_API const char *sv_kind_name(sv_kind kind); /* "null", "bool", "int", ... */
SV_API const char *sv_elem_name(sv_elem elem); /* "u8", "i8", ..., "f64" */
SV_API size_t sv_elem_size(sv_elem elem);      /* bytes per scalar, 0 for NONE */
SV_API const char *sv_tag_name(sv_tag tag);    /* "vector3", "" for NONE */
SV_API sv_kind sv_tag_kind(sv_tag tag);        /* SV_KIND_COUNT = any kind */
SV_API unsigned sv_tag_scalars(sv_tag tag);    /* scalars per item, shape tags */
SV_API sv_elem sv_tag_default_elem(sv_tag tag);
/* Looks a tag up by name; SV_TAG_NONE when unknown. */
SV_API sv_tag sv_tag_by_name(const char *name, size_t len);
SV_API sv_elem sv_elem_by_name(const char *name, size_t len);

/* ---- whole trees ---------------------------------------------------------- */

/* Deep equality: kinds, widths, flags, tags, meta, class, order and contents
 * (floats compared by bits, so NaN equals the same NaN and 0.0 != -0.0). */
SV_API bool sv_equal(const sv_value *a, const sv_value *b);

/* Deep copy of v (from any document) into doc. */
SV_API sv_value sv_copy(sv_doc *doc, const sv_value *v);

/* Pre-order walk: root, then the items of each array and the values of each
 * map and object, in order. The callback gets its context first (as every
 * serval callback does), then each value with its depth (0: root) and the
 * JSON Pointer to it (RFC 6901: a string key by its text, "~" as "~0" and "/"
 * as "~1"; any other key by its position), valid during the call only;
 * returning false stops the walk. With want_path false the path is "" and
 * costs nothing. The walk does not recurse, so depth costs heap, not stack;
 * a value deeper than 4096 levels is not visited and ends the walk.
 * Returns true when every value was visited; false when the callback stopped
 * it, a value was too deep, or memory for the path ran out. */
typedef bool (*sv_visit_fn)(void *ctx, const sv_value *v, unsigned depth, const char *path);
SV_API bool sv_visit(const sv_value *root, bool want_path, sv_visit_fn fn, void *ctx);

/* Deprecated (to be removed in the next release): sv_visit with the context
 * last. Same walk, same paths, same result. */
typedef bool (*sv_walk_fn)(const sv_value *v, unsigned depth, const char *path, void *ctx);
SV_API bool sv_walk(const sv_value *root, bool want_path, sv_walk_fn fn, void *ctx)
    SV_DEPRECATED("use sv_visit: its callback takes the context first");

#ifdef __cplusplus
}
#endif
#endif
