/* serval: schemas -- classes, fields and enums, for C structs and for type
 * lists loaded at run time.
 *
 * Some formats do not describe themselves: their bytes mean nothing without
 * the type information of the program that wrote them. A schema holds that
 * information once, for every format:
 *
 *  - classes: name, optional 32-bit hash, optional UUID, optional version,
 *    base classes in order, ordered fields;
 *  - fields: name, optional hash and id, a type, flags (a u32 that the format
 *    interprets), an optional default value, and for C binding an offset and
 *    a size;
 *  - enums: an underlying integer type, plain or bit-flag, named values in
 *    registration order;
 *  - types: parsed type expressions (sv_type), made of primitives, enum and
 *    class names and generic forms such as vector<T> or map<K,V>.
 *
 * A schema is built (from files, from C descriptor tables, or call by call),
 * then finalised: sv_schema_finalize resolves names, checks bases, types and
 * defaults, and builds the lookup tables. Name lookups work at any time;
 * hash and UUID lookups, resolved field lists and is_a need a finalised
 * schema. A finalised schema is read-only and may be shared between threads.
 *
 * A schema owns all of its memory (one arena plus its hash tables, through
 * the sv_alloc given to sv_schema_new); every pointer it hands out lives
 * until sv_schema_free. Names are interned: two lookups of the same name give
 * the same pointer.
 *
 * Example: a schema from a file, then a C struct through it.
 *
 *     #include <serval/serval.h>
 *
 *     typedef struct Item { uint32_t kind; uint32_t id; } Item;
 *     typedef struct Bag {
 *         char *owner;
 *         Item *items; size_t n_items;   // vector<Item>: pointer and count
 *         int32_t slots[4];              // array<i32,4>
 *         float weight; bool has_weight; // optional<f32>
 *     } Bag;
 *
 *     #define ITEM_FIELDS(X)                         \
 *         X(Item, PLAIN, kind, _, "u32")             \
 *         X(Item, PLAIN, id, _, "u32")
 *     #define BAG_FIELDS(X)                          \
 *         X(Bag, PLAIN, owner, _, "string")          \
 *         X(Bag, COUNTED, items, n_items, "vector<Item>") \
 *         X(Bag, PLAIN, slots, _, "array<i32,4>")    \
 *         X(Bag, OPTIONAL, weight, has_weight, "optional<f32>")
 *     static const sv_cfield item_fields[] = {ITEM_FIELDS(SV_CFIELD_X)};
 *     static const sv_cfield bag_fields[] = {BAG_FIELDS(SV_CFIELD_X)};
 *     static const sv_cclass item_class = SV_CCLASS(Item, NULL, item_fields);
 *     static const sv_cclass bag_class = SV_CCLASS(Bag, NULL, bag_fields);
 *
 *     sv_error err;
 *     sv_schema *s = sv_schema_new(NULL);
 *     if (sv_schema_bind(s, &item_class, &err) || sv_schema_bind(s, &bag_class, &err) ||
 *         sv_schema_finalize(s, &err)) { ...report err... }
 *
 *     Bag bag = {...};
 *     sv_doc *doc = sv_doc_new(NULL);
 *     sv_value v;
 *     const sv_schema_class *bc = sv_schema_class_by_name(s, "Bag", 3);
 *     if (sv_struct_to_value(s, bc, &bag, doc, &v, &err) == SV_OK) {
 *         // v is {"$class": "Bag", "owner": ..., "items": [...], ...}:
 *         // write it with sv_json_encode, or any format's encoder.
 *     }
 *     Bag back;
 *     if (sv_value_to_struct(s, bc, &v, NULL, &back, &err) == SV_OK)
 *         sv_struct_free(s, bc, &back, NULL);
 *     sv_doc_free(doc);
 *     sv_schema_free(s);
 *
 * The serval schema file (JSON) is described in docs/schema.md. */
#ifndef SERVAL_SCHEMA_H
#define SERVAL_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "api.h"
#include "buf.h"
#include "error.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_schema sv_schema;
typedef struct sv_schema_class sv_schema_class;
typedef struct sv_schema_field sv_schema_field;
typedef struct sv_schema_enum sv_schema_enum;
typedef struct sv_schema_enum_value sv_schema_enum_value;
typedef struct sv_type sv_type;
typedef struct sv_cfield sv_cfield;
typedef struct sv_cclass sv_cclass;

/* ---- UUIDs --------------------------------------------------------------- */

/* 16 bytes in the order they are written in text (big-endian fields). */
typedef struct sv_uuid {
    uint8_t b[16];
} sv_uuid;

/* Parses "8-4-4-4-12" hex, with or without braces around it, either case.
 * Returns false (and leaves *out alone) on anything else. */
SV_API bool sv_uuid_parse(const char *text, size_t len, sv_uuid *out);
/* Writes "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}" (braces, upper case: 38
 * characters) or, with braces false, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
 * (lower case: 36 characters), plus a NUL. buf must hold 39 bytes. */
SV_API void sv_uuid_format(const sv_uuid *u, bool braces, char buf[39]);

/* ---- type expressions ---------------------------------------------------- */

/* Primitive types: X(enum, name). The order is part of the ABI. */
#define SV_PRIM_LIST(X)                                                                            \
    X(SV_PRIM_BOOL, "bool")                                                                        \
    X(SV_PRIM_I8, "i8")                                                                            \
    X(SV_PRIM_I16, "i16")                                                                          \
    X(SV_PRIM_I32, "i32")                                                                          \
    X(SV_PRIM_I64, "i64")                                                                          \
    X(SV_PRIM_U8, "u8")                                                                            \
    X(SV_PRIM_U16, "u16")                                                                          \
    X(SV_PRIM_U32, "u32")                                                                          \
    X(SV_PRIM_U64, "u64")                                                                          \
    X(SV_PRIM_F32, "f32")                                                                          \
    X(SV_PRIM_F64, "f64")                                                                          \
    X(SV_PRIM_STRING, "string")                                                                    \
    X(SV_PRIM_WSTRING, "wstring")                                                                  \
    X(SV_PRIM_BYTES, "bytes")                                                                      \
    X(SV_PRIM_UUID, "uuid")                                                                        \
    X(SV_PRIM_VECTOR2, "vector2")                                                                  \
    X(SV_PRIM_VECTOR3, "vector3")                                                                  \
    X(SV_PRIM_VECTOR4, "vector4")                                                                  \
    X(SV_PRIM_QUATERNION, "quaternion")                                                            \
    X(SV_PRIM_COLOR, "color")                                                                      \
    X(SV_PRIM_MATRIX3X3, "matrix3x3")                                                              \
    X(SV_PRIM_MATRIX3X4, "matrix3x4")                                                              \
    X(SV_PRIM_MATRIX4X4, "matrix4x4")                                                              \
    X(SV_PRIM_TRANSFORM, "transform")                                                              \
    X(SV_PRIM_ANY, "any")

typedef enum sv_prim {
#define SV_X_PRIM(id, name) id,
    SV_PRIM_LIST(SV_X_PRIM)
#undef SV_X_PRIM
        SV_PRIM_COUNT
} sv_prim;

/* Generic forms: X(enum, name, parameter count). -1 = one or more types
 * (tuple); array<T,N> has one type parameter plus its length N. */
#define SV_GENERIC_LIST(X)                                                                         \
    X(SV_GEN_VECTOR, "vector", 1)                                                                  \
    X(SV_GEN_LIST, "list", 1)                                                                      \
    X(SV_GEN_SET, "set", 1)                                                                        \
    X(SV_GEN_USET, "uset", 1)                                                                      \
    X(SV_GEN_ARRAY, "array", 1)                                                                    \
    X(SV_GEN_PAIR, "pair", 2)                                                                      \
    X(SV_GEN_TUPLE, "tuple", -1)                                                                   \
    X(SV_GEN_MAP, "map", 2)                                                                        \
    X(SV_GEN_UMAP, "umap", 2)                                                                      \
    X(SV_GEN_OPTIONAL, "optional", 1)                                                              \
    X(SV_GEN_PTR, "ptr", 1)                                                                        \
    X(SV_GEN_SHARED, "shared", 1)                                                                  \
    X(SV_GEN_UNIQUE, "unique", 1)

typedef enum sv_generic {
#define SV_X_GEN(id, name, params) id,
    SV_GENERIC_LIST(SV_X_GEN)
#undef SV_X_GEN
        SV_GEN_COUNT
} sv_generic;

typedef enum sv_type_kind {
    SV_TYPE_PRIM = 0, /* prim says which */
    SV_TYPE_ENUM,     /* enm is the enum */
    SV_TYPE_CLASS,    /* cls is the class (a value of it, not a pointer) */
    SV_TYPE_GENERIC,  /* gen says which; params (and array_len) its arguments */
    SV_TYPE_NAME      /* a name not resolved yet: only before sv_schema_finalize */
} sv_type_kind;

/* A parsed type expression. Types are interned per schema: equal
 * expressions give the same pointer, so types compare with ==. */
struct sv_type {
    sv_type_kind kind;
    sv_prim prim;       /* SV_TYPE_PRIM */
    sv_generic gen;     /* SV_TYPE_GENERIC */
    uint32_t nparams;   /* SV_TYPE_GENERIC: type parameters (array: 1) */
    uint32_t array_len; /* SV_GEN_ARRAY: N */
    const sv_type *const *params;
    const sv_schema_class *cls; /* SV_TYPE_CLASS */
    const sv_schema_enum *enm;  /* SV_TYPE_ENUM */
    const char *name;           /* CLASS, ENUM, NAME: the name; PRIM: the primitive's name */
    const char *text;           /* canonical text, no spaces: "map<string,i32>" */
};

SV_API const char *sv_prim_name(sv_prim p);       /* "u32"; "" when out of range */
SV_API const char *sv_generic_name(sv_generic g); /* "vector"; "" when out of range */
/* Lookups by name; SV_PRIM_COUNT / SV_GEN_COUNT when unknown. */
SV_API sv_prim sv_prim_by_name(const char *name, size_t len);
SV_API sv_generic sv_generic_by_name(const char *name, size_t len);
/* For integer primitives: width in bytes (1/2/4/8) and signedness; 0 for others. */
SV_API int sv_prim_int_width(sv_prim p);
SV_API bool sv_prim_is_signed(sv_prim p);

/* Parses a type expression (spaces allowed between tokens) and interns it in
 * the schema. Names that are not primitives resolve to an enum or class when
 * the schema is finalised; parsing after sv_schema_finalize resolves them at
 * once and fails on an unknown name (SV_ERR_NOT_FOUND). Syntax errors are
 * SV_ERR_SYNTAX with the byte offset in the expression. */
SV_API SV_NODISCARD sv_status sv_schema_parse_type(sv_schema *s, const char *text, size_t len,
                                                   const sv_type **out, sv_error *err);

/* ---- the schema's parts (read-only to callers) ---------------------------- */

struct sv_schema_enum_value {
    const char *name;
    /* The value's bits, sign-extended to 64 for signed underlying types
     * (so -1 in an i8 enum is UINT64_MAX); read it as (int64_t) for those. */
    uint64_t value;
};

struct sv_schema_enum {
    const char *name;
    sv_prim underlying; /* an integer primitive */
    bool bits;          /* a bit-flag enum: values combine with | */
    uint32_t nvalues;
    const sv_schema_enum_value *values;         /* in registration order */
    const char *source;                         /* where it was loaded from ("" if not given) */
    uint32_t index;                             /* position in the schema's enum list */
    const struct sv_schema__enum_index *index_; /* internal */
};

struct sv_schema_field {
    const char *name;
    const sv_type *type;
    uint32_t flags; /* interpreted by the format */
    bool has_hash, has_id;
    uint32_t hash;
    uint32_t id;
    const sv_value *def;          /* default value (a natural value of type), or NULL */
    const sv_schema_class *owner; /* the class that declares the field */
    uint32_t index;               /* position among the owner's own fields */
    /* C binding (sv_schema_bind); c == NULL when not bound. */
    const sv_cfield *c;
    size_t c_offset, c_size;
    /* The type as the source type list spelled it ("unsigned int", "bui4"),
     * for formats whose encoding depends on more than the serval type; ""
     * when not given. */
    const char *native;
};

struct sv_schema_class {
    const char *name;
    bool has_hash, has_uuid, has_version;
    uint32_t hash;
    uint32_t version;
    sv_uuid uuid;
    uint32_t nbases;
    const sv_schema_class *const *bases; /* in declaration order (after finalize) */
    uint32_t nfields;
    const sv_schema_field *fields; /* own fields, declaration order */
    const char *source;            /* where it was loaded from ("" if not given) */
    uint32_t index;                /* position in the schema's class list */
    /* C binding (sv_schema_bind); c == NULL when not bound. */
    const sv_cclass *c;
    const struct sv_schema__class_index *index_; /* internal */
};

/* ---- building ------------------------------------------------------------ */

/* A new empty schema. alloc may be NULL (libc). NULL when out of memory. */
SV_API sv_schema *sv_schema_new(const sv_alloc *alloc);
SV_API void sv_schema_free(sv_schema *s);

/* The source name recorded on enums and classes added from now on (a file
 * name, say); merge conflicts name it. Copied. */
SV_API SV_NODISCARD sv_status sv_schema_set_source(sv_schema *s, const char *source);

/* Adds an enum. A duplicate name is SV_ERR_SYNTAX; a non-integer underlying
 * type is SV_ERR_TYPE. The pointer stays valid until sv_schema_free. */
SV_API SV_NODISCARD sv_status sv_schema_add_enum(sv_schema *s, const char *name, sv_prim underlying,
                                                 bool bits, sv_schema_enum **out, sv_error *err);
/* Adds a named value; value is read as the underlying type's integer
 * (sign-extended bits for signed types) and must fit it (SV_ERR_RANGE).
 * A duplicate name in the enum is reported by sv_schema_finalize. */
SV_API SV_NODISCARD sv_status sv_schema_enum_add(sv_schema *s, sv_schema_enum *e, const char *name,
                                                 uint64_t value, sv_error *err);

/* Adds a class (a duplicate name is an error). Set hash, UUID, version,
 * bases and fields with the calls below before sv_schema_finalize. */
SV_API SV_NODISCARD sv_status sv_schema_add_class(sv_schema *s, const char *name,
                                                  sv_schema_class **out, sv_error *err);
SV_API void sv_schema_class_set_hash(sv_schema_class *c, uint32_t hash);
SV_API void sv_schema_class_set_uuid(sv_schema_class *c, const sv_uuid *uuid);
SV_API void sv_schema_class_set_version(sv_schema_class *c, uint32_t version);
/* Appends a base class by name (resolved, and checked for duplicates and
 * cycles, when the schema is finalised). */
SV_API SV_NODISCARD sv_status sv_schema_class_add_base(sv_schema *s, sv_schema_class *c,
                                                       const char *base, sv_error *err);
/* Appends a field of the given type expression (parsed now; names resolved
 * at finalize). A duplicate field name in the class is reported by
 * sv_schema_finalize. The field pointer stays valid until the next field is
 * added to the same class (the class's fields are one array). */
SV_API SV_NODISCARD sv_status sv_schema_class_add_field(sv_schema *s, sv_schema_class *c,
                                                        const char *name, const char *type,
                                                        sv_schema_field **out, sv_error *err);
SV_API void sv_schema_field_set_hash(sv_schema_field *f, uint32_t hash);
SV_API void sv_schema_field_set_id(sv_schema_field *f, uint32_t id);
SV_API void sv_schema_field_set_flags(sv_schema_field *f, uint32_t flags);
/* The type as the source type list spelled it (copied). */
SV_API SV_NODISCARD sv_status sv_schema_field_set_native(sv_schema *s, sv_schema_field *f,
                                                         const char *native, sv_error *err);
/* The default, as written in serval's typed JSON (any document): copied into
 * the schema now, read against the field's type at finalize (1.5 for an f32
 * field becomes a float32; "Ice" names a value of an enum field). */
SV_API SV_NODISCARD sv_status sv_schema_field_set_default(sv_schema *s, sv_schema_field *f,
                                                          const sv_value *def, sv_error *err);

/* Resolves base and type names, checks for cycles of bases, reads the
 * defaults against their types, checks hashes and UUIDs for clashes and
 * builds the lookup tables. Errors carry the JSON Pointer of the bad part in
 * the order things were added, as in a schema file: "/classes/1/bases/0",
 * "/classes/1/fields/0/type", "/enums/0/values/2". Finalising twice is a
 * no-op; nothing may be added after. */
SV_API SV_NODISCARD sv_status sv_schema_finalize(sv_schema *s, sv_error *err);
SV_API bool sv_schema_is_final(const sv_schema *s);

/* Adds everything in src (finalised) to dst (not finalised yet; finalise it
 * after the last merge). Merging is linear in src's size. An enum or class
 * that dst already has must be defined the same way; anything else is a
 * conflict (SV_ERR_SYNTAX) whose message names both sources, as are the
 * same class hash or UUID on two classes:
 *   "class 'Weapon' has hash 1 in 'a.json' and hash 2 in 'b.json'". */
SV_API SV_NODISCARD sv_status sv_schema_merge(sv_schema *dst, const sv_schema *src, sv_error *err);

/* ---- loading schema files --------------------------------------------------- */

/* Reads the serval schema file (JSON, docs/schema.md) into s (not
 * finalised; call sv_schema_finalize after). source names the file in
 * merge conflicts. Errors have the JSON Pointer of the bad member. */
SV_API SV_NODISCARD sv_status sv_schema_decode(sv_schema *s, const char *text, size_t len,
                                               const char *source, sv_error *err);

/* A reader of one kind of type list. probe scores the bytes 0 (not mine)
 * to 100 (certainly mine); load adds their contents to a fresh schema. */
typedef struct sv_schema_loader {
    const char *name; /* "serval" */
    const char *description;
    int (*probe)(const uint8_t *data, size_t len);
    sv_status (*load)(sv_schema *s, const uint8_t *data, size_t len, const char *source,
                      sv_error *err);
} sv_schema_loader;

/* Every loader serval knows, in a stable order. */
SV_API const sv_schema_loader *const *sv_schema_loaders(size_t *count);

/* Loads one type list of any known kind (picked by content: the loader with
 * the highest probe score) into a new finalised schema. *out is NULL on
 * failure. An unrecognised input is SV_ERR_UNSUPPORTED. */
SV_API SV_NODISCARD sv_status sv_schema_load(const sv_alloc *alloc, const uint8_t *data, size_t len,
                                             const char *source, sv_schema **out, sv_error *err);

/* ---- lookups ------------------------------------------------------------- */

SV_API size_t sv_schema_class_count(const sv_schema *s);
SV_API const sv_schema_class *sv_schema_class_at(const sv_schema *s, size_t i);
SV_API size_t sv_schema_enum_count(const sv_schema *s);
SV_API const sv_schema_enum *sv_schema_enum_at(const sv_schema *s, size_t i);

/* O(1) lookups; NULL when absent. By hash and UUID need a finalised schema. */
SV_API const sv_schema_class *sv_schema_class_by_name(const sv_schema *s, const char *name,
                                                      size_t len);
SV_API const sv_schema_class *sv_schema_class_by_hash(const sv_schema *s, uint32_t hash);
SV_API const sv_schema_class *sv_schema_class_by_uuid(const sv_schema *s, const sv_uuid *uuid);
SV_API const sv_schema_enum *sv_schema_enum_by_name(const sv_schema *s, const char *name,
                                                    size_t len);

/* The class's full field list, bases first (each base's own full list, in
 * declaration order, a base reached twice counted once), then its own
 * fields. Needs a finalised schema (else NULL, count 0). */
SV_API const sv_schema_field *const *sv_schema_class_fields(const sv_schema_class *c,
                                                            size_t *count);
/* Fields of the full list by name, hash or id, O(1). When a name appears in
 * a base and in the class, the class's own field wins. */
SV_API const sv_schema_field *sv_schema_field_by_name(const sv_schema_class *c, const char *name,
                                                      size_t len);
SV_API const sv_schema_field *sv_schema_field_by_hash(const sv_schema_class *c, uint32_t hash);
SV_API const sv_schema_field *sv_schema_field_by_id(const sv_schema_class *c, uint32_t id);

/* True when derived is base or has it among its bases, at any depth. */
SV_API bool sv_schema_is_a(const sv_schema_class *derived, const sv_schema_class *base);

/* An enum's value by name (O(1)), and the first value registered with the
 * given bits (O(1)); NULL when absent. */
SV_API const sv_schema_enum_value *sv_schema_enum_value_by_name(const sv_schema_enum *e,
                                                                const char *name, size_t len);
SV_API const sv_schema_enum_value *sv_schema_enum_value_by_value(const sv_schema_enum *e,
                                                                 uint64_t value);

/* ---- values of a type ------------------------------------------------------
 *
 * The natural value of each type in the value tree (what sv_struct_to_value
 * makes, and what defaults become):
 *   bool -> BOOL; iN/uN -> INT/UINT of width N/8, explicit; f32/f64 -> FLOAT;
 *   string -> STRING; wstring -> STRING flagged UTF16; bytes -> BYTES;
 *   uuid -> STRING "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" tagged uuid;
 *   vector2/3/4, quaternion, color, matrix3x3/3x4/4x4 -> TUPLE of f32 with
 *   the tag of that name; transform -> TUPLE of 8 f32 tagged transform
 *   (translation x y z, rotation quaternion x y z w, uniform scale);
 *   any -> any value;
 *   enum -> the underlying integer (as above) tagged enum;
 *   class -> OBJECT of that class name with every field of the full list;
 *   vector/list/set/uset/array/pair/tuple -> ARRAY; map/umap -> MAP;
 *   optional<T> -> null or T; ptr<T>, shared<T>, unique<T> -> null or T (for a class
 *   T, an OBJECT of T or of a class derived from it). */

/* Reads v (as the typed JSON reader gives it: plain numbers, strings, ...)
 * against type t and makes its natural value in doc. Plain JSON is taken
 * where it is unambiguous: 1.5 for f32, 3 for u8 (range-checked), an enum
 * value's name ("Ice"; "A|B" for bit-flag enums) or number, [1.0, 2.0, 3.0]
 * for vector3, a string for uuid. Errors carry the path inside v. */
SV_API SV_NODISCARD sv_status sv_schema_read_value(const sv_schema *s, const sv_type *t,
                                                   const sv_value *v, sv_doc *doc, sv_value *out,
                                                   sv_error *err);

/* The zero value of a type (0, "", empty containers, null pointers, an
 * object whose fields have their defaults or zero values). */
SV_API SV_NODISCARD sv_status sv_schema_zero_value(const sv_schema *s, const sv_type *t,
                                                   sv_doc *doc, sv_value *out, sv_error *err);

/* ---- C structs --------------------------------------------------------------
 *
 * A C struct is described by a table of sv_cfield rows built with X-macros
 * and offsetof (no code generator), and registered with sv_schema_bind.
 * The C form of each type:
 *   bool -> bool; iN/uN -> intN_t/uintN_t; f32 -> float; f64 -> double;
 *   string, wstring -> char * (UTF-8, NUL-terminated; NULL reads as "");
 *   bytes -> sv_cbytes; uuid -> sv_uuid; vector2..matrix4x4, color,
 *   quaternion, transform -> float[n]; enum -> the underlying integer;
 *   class -> the struct bound to it (a derived struct starts with its base
 *   struct as its first member);
 *   array<T,N> -> T[N];
 *   vector/list/set/uset<T> -> T * plus a size_t count member (COUNTED);
 *   optional<T> -> T plus a bool presence member (OPTIONAL);
 *   ptr<T>, shared<T>, unique<T> -> T * (NULL allowed). For a class T bound with a
 *   class id member, the pointee's actual class is found by the id stored
 *   in that member, so a pointer to a base can hold any derived struct;
 *   pair<A,B>, tuple<A,...> -> a struct of those members, in order, laid
 *   out as the C compiler lays out a struct;
 *   map/umap<K,V> -> a pointer to {K key; V value;} structs plus a size_t
 *   count member (COUNTED).
 *   any has no C form; sv_schema_finalize refuses it in a bound struct. */

typedef struct sv_cbytes {
    uint8_t *data;
    size_t size;
} sv_cbytes;

#define SV_CFIELD_NO_AUX ((size_t)-1)

struct sv_cfield {
    const char *name; /* field name (the member's name with SV_CFIELD_X) */
    const char *type; /* type expression */
    size_t offset;    /* offsetof the member */
    size_t size;      /* sizeof the member */
    size_t aux;       /* COUNTED (vector, list, set, uset, map, umap): offset of
                         the size_t count; OPTIONAL: of the bool presence
                         flag; else SV_CFIELD_NO_AUX */
};

struct sv_cclass {
    const char *name;        /* class name */
    const char *base;        /* base class name (its struct is the first member), or NULL */
    size_t size;             /* sizeof the struct */
    size_t align;            /* alignment of the struct */
    const sv_cfield *fields; /* own fields (not the base's) */
    size_t nfields;
    /* Polymorphism: id_field names a u32 field of this class or a base that
     * holds the actual class's id (NULL: none); class_id is this class's id. */
    const char *id_field;
    uint32_t class_id;
};

/* One row of a field table. KIND is PLAIN, COUNTED or OPTIONAL; aux is the
 * count member (COUNTED) or presence member (OPTIONAL), ignored for PLAIN
 * (write _). Use as X in a list macro: X(S, KIND, member, aux, "type"). */
#define SV_CFIELD_X(S, KIND, member, aux, type) SV_CFIELD_##KIND(S, member, aux, type),
#define SV_CFIELD_PLAIN(S, member, aux, type)                                                      \
    {                                                                                              \
#member, type, offsetof(S, member), sizeof(((S *)0)->member), SV_CFIELD_NO_AUX             \
    }
#define SV_CFIELD_COUNTED(S, member, aux, type)                                                    \
    {                                                                                              \
#member, type, offsetof(S, member), sizeof(((S *)0)->member), offsetof(S, aux)             \
    }
#define SV_CFIELD_OPTIONAL(S, member, aux, type)                                                   \
    {                                                                                              \
#member, type, offsetof(S, member), sizeof(((S *)0)->member), offsetof(S, aux)             \
    }

/* A class descriptor for struct S (the class is named #S). */
#define SV_CCLASS(S, base, fields)                                                                 \
    {                                                                                              \
#S, base, sizeof(S), _Alignof(S), fields, sizeof(fields) / sizeof((fields)[0]), NULL, 0    \
    }
/* The same with polymorphism: id_field holds the class id, this class's is id. */
#define SV_CCLASS_ID(S, base, fields, id_field, id)                                                \
    {                                                                                              \
#S, base, sizeof(S), _Alignof(S), fields, sizeof(fields) / sizeof((fields)[0]), id_field,  \
            id                                                                                     \
    }

/* Adds a class bound to a C struct (before sv_schema_finalize). The
 * descriptor is used in place: it must outlive the schema. Sizes are
 * checked against the types at finalize (a float[3] member for vector3 ...). */
SV_API SV_NODISCARD sv_status sv_schema_bind(sv_schema *s, const sv_cclass *c, sv_error *err);

/* The natural value of the struct at st (of bound class c) in doc. */
SV_API SV_NODISCARD sv_status sv_struct_to_value(const sv_schema *s, const sv_schema_class *c,
                                                 const void *st, sv_doc *doc, sv_value *out,
                                                 sv_error *err);

/* Fills the struct at st (c->c->size bytes, overwritten) from v, which is a
 * natural value of c or plain typed JSON of it (read as sv_schema_read_value
 * reads). Strings, arrays and pointees are allocated with alloc (NULL =
 * libc); free them with sv_struct_free and the same allocator. On failure
 * nothing stays allocated and st is zeroed. */
SV_API SV_NODISCARD sv_status sv_value_to_struct(const sv_schema *s, const sv_schema_class *c,
                                                 const sv_value *v, const sv_alloc *alloc, void *st,
                                                 sv_error *err);

/* Frees what sv_value_to_struct allocated inside st (not st itself) and
 * zeroes st. */
SV_API void sv_struct_free(const sv_schema *s, const sv_schema_class *c, void *st,
                           const sv_alloc *alloc);

/* ---- printing ------------------------------------------------------------- */

/* Appends a readable description of a class with its resolved fields (for
 * `serval schema show`): hash, UUID, version, bases, then one field a line. */
SV_API SV_NODISCARD sv_status sv_schema_describe_class(const sv_schema *s, const sv_schema_class *c,
                                                       sv_buf *out);

#ifdef __cplusplus
}
#endif
#endif
