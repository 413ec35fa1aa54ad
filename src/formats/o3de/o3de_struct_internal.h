/* O3DE JSON: the direct C struct walk's state, shared by the load from a
 * JSON tree (o3de_struct.c) and the streaming load from text
 * (o3de_stream.c), which hands its leaves to the same code (internal). */
#ifndef SV_O3DE_STRUCT_INTERNAL_H
#define SV_O3DE_STRUCT_INTERNAL_H

#include <string.h>

#include "core/native_int.h"
#include "o3de_internal.h"
#include "schema/schema_internal.h"
#include "serval/schema.h"

/* How the store writes one leaf without the serializers: its kind of C
 * memory, decided once per field from its type (o3de_store_plan.c). */
typedef enum o3_op {
    O3_OP_OTHER, /* the general walk (st) decides */
    O3_OP_INT,   /* width 1, 2, 4, 8; sgn */
    O3_OP_F32,
    O3_OP_F64,
    O3_OP_BOOL,
    O3_OP_STRING,
    O3_OP_VEC2,
    O3_OP_VEC3,
    O3_OP_VEC4,
    O3_OP_QUAT,
    O3_OP_COLOR,
    O3_OP_ENUM,
    O3_OP_CLASS, /* sequence elements only */
    O3_OP_SEQ,   /* a counted sequence field (pointer and count) */
    O3_OP_ENUM4  /* O3_OP_ENUM of four bytes with slots by value */
} o3_op;

typedef struct o3_leaf {
    uint8_t op;    /* o3_op */
    uint8_t width; /* O3_OP_INT, and O3_OP_ENUM's underlying integer */
    bool sgn;
    const sv_schema_enum *enm; /* O3_OP_ENUM */
    /* O3_OP_ENUM in a class plan, or NULL: enumerator names as JSON text
     * in slots of O3_ENUM_SLOT bytes (its length, then the text, padded).
     * With by_value 0, one slot per enumerator in the order of enm->values
     * (the walk searches the values); else by_value slots, the one of
     * value v at v * O3_ENUM_SLOT (the first enumerator of that value; a
     * length 0 where no enumerator has it), looked up without a search. */
    const char *names;
    uint32_t by_value;
} o3_leaf;
#define O3_ENUM_SLOT 32
/* enums whose values are all below this get the table by value */
#define O3_ENUM_BY_VALUE 64

/* One field of a class plan: where it is, how it is written, and its key
 * as JSON text with its quotes and colon at keys + key_off. */
typedef struct o3_step {
    o3_leaf leaf;
    uint32_t key_off, key_len;
    uint32_t names_off; /* leaf.names' offset in the key text, or UINT32_MAX */
    /* the member (separator, key and leaf) writes at most the store's
     * per-member room and never grows the buffer itself: a number, a bool,
     * a vector, an enumerator from its slot, with a key of at most
     * O3_KEY_PAD bytes (o3de_store_plan.c) */
    bool bounded;
    /* how many members, from this one, the walk makes room for at once
     * (O3_MEMBER_ROOM each) when it reaches this one with none made: this
     * one and the members after it up to and including the next that is
     * not bounded, at most O3_ROOM_MEMBERS; the bounded ones among them
     * then need no check of their own */
    uint32_t room_n;
    size_t off, aux; /* aux: SV_CFIELD_NO_AUX or the count's offset */
    const sv_type *t;
    /* O3_OP_SEQ: the element type, its size and leaf kind, and (for a leaf
     * element) the fresh default each element is compared with */
    const sv_type *elem;
    size_t elem_size;
    o3_leaf elem_leaf;
    uint8_t elem_default[64];
} o3_step;

/* Per class, resolved once per store: the fields in order, each with its
 * writer and key text (padded with O3_KEY_PAD zero bytes past the end, so
 * that a key is copied in one fixed-size move), so that the walk does no
 * lookup by name or type per field of each object. */
#define O3_KEY_PAD 32
/* What one member of a plain walk may write past the output's end without
 * a check of its own: its separator, its key's fixed-size copy and the
 * longest plain leaf (a vector of four floats, 1 + 4 * 33 bytes); the
 * room the store makes sure of per member, or at once for a run of up to
 * O3_ROOM_MEMBERS members (o3_step.room_n). */
#define O3_MEMBER_ROOM ((size_t)256)
#define O3_ROOM_MEMBERS 16
typedef struct o3_plan {
    bool ready;
    char *keys;
    size_t keys_len, keys_cap; /* the block's size, for the allocator */
    o3_step *steps;
    size_t n;
} o3_plan;

typedef struct o3_sctx {
    o3_ctx *c;
    const sv_alloc *a;
    uint8_t **proto; /* per class: its default instance as a struct (lazily) */
    o3_plan *plans;  /* per class (store only, lazily) */
    o3_writer w;
    size_t ready; /* store: output bytes below this are room already faulted in */
} o3_sctx;

/* The C memory of a leaf, shared by the load and store halves.
 * sv_prim_int_width and sv_prim_is_signed, inline: asked for every leaf */
static inline int o3s_int_width(sv_prim p)
{
    return sv__schema_prim_int_width(p);
}
static inline bool o3s_int_signed(sv_prim p)
{
    return sv__schema_prim_is_signed(p);
}

static inline bool o3s_is_math(sv_prim p)
{
    return p >= SV_PRIM_VECTOR2 && p <= SV_PRIM_TRANSFORM;
}

/* The walk state with its per-class prototype table (alloc NULL: libc);
 * false (c failed) when out of memory. o3s_done frees what it holds. */
bool o3s_init(o3_sctx *x, o3_ctx *c, const sv_alloc *alloc);
/* A class type for the root of a walk. */
void o3s_class_type(sv_type *t, const sv_schema_class *cls);
void o3s_done(o3_sctx *x);

/* The direct load of one JSON value j into the C memory at p (aux: the
 * count of a sequence), with every rule of the tree path. */
o3_res o3s_load(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, uint8_t *aux,
                bool is_new);
/* The value of a leaf at p, as sv_struct_to_value makes it. Strings are
 * not copied: the value points at the C string (read only here). */
sv_value o3s_leaf_value(o3_sctx *x, const sv_type *t, const uint8_t *p);
/* A fresh default of type t at dst; freeing what a value at p owns. */
void o3s_fresh_default(o3_sctx *x, const sv_type *t, uint8_t *dst);
void o3s_free(o3_sctx *x, const sv_type *t, uint8_t *p, const uint8_t *aux);
/* The class's default instance as a struct (NULL: out of memory). */
const uint8_t *o3s_prototype(o3_sctx *x, const sv_schema_class *cls);
/* The direct load's plain leaves (no callback): false when the serializer
 * itself has to decide. */
bool o3s_fast_load(o3_sctx *x, const sv_type *t, const sv_value *j, uint8_t *p, o3_res *r);

/* The store's plan of cls (o3de_store_plan.c), built on first use; NULL
 * (c failed) when out of memory. o3s_plans_free frees every plan. */
const o3_plan *o3s_plan(o3_sctx *x, const sv_schema_class *cls);
void o3s_plans_free(o3_sctx *x);
/* The leaf kind of a type (O3_OP_OTHER: not a plain leaf). */
o3_leaf o3s_leaf_of(const sv_type *t);

/* Loads O3DE JSON text straight into the all-zero struct st when every
 * part of it is plain; false (st all zero again, nothing reported) when
 * anything is not, for the tree path to do it. */
bool o3_load_struct_stream(o3_ctx *c, const sv_schema_class *cls, const char *text, size_t len,
                           void *st, const sv_alloc *alloc, o3_res *result);

#endif
