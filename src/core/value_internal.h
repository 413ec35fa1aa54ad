/* Inside the library: direct access to containers and fast constructors.
 * Formats use these in hot loops; the public value.h functions are the same
 * operations with checks. */
#ifndef SV_CORE_VALUE_INTERNAL_H
#define SV_CORE_VALUE_INTERNAL_H

#include <string.h>

#include "serval/value.h"

_Static_assert(sizeof(sv_value) == 16, "sv_value must stay 16 bytes");
/* 24 bytes with 64-bit pointers, 16 with 32-bit ones (WebAssembly): either
 * way the items that follow the header stay aligned. */
_Static_assert(sizeof(sv_container) % _Alignof(sv_value) == 0,
               "items follow the container header, aligned");

static inline sv_value *sv__core_items(sv_container *box)
{
    return (sv_value *)(void *)(box + 1);
}

static inline sv_pair *sv__core_pairs(sv_container *box)
{
    return (sv_pair *)(void *)(box + 1);
}

static inline sv_value sv__core_make(sv_kind kind, unsigned sub, unsigned flags)
{
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = kind & 0xF;
    v.flags = flags & 0xF;
    v.sub = (uint8_t)sub;
    return v;
}

/* A STRING value over bytes that already live in the document (NUL after). */
static inline sv_value sv__core_str_value(const char *s, uint32_t len)
{
    sv_value v = sv__core_make(SV_STRING, 0, 0);
    v.len = len;
    v.as.str = s;
    return v;
}

/* An ARRAY of exactly n items copied from items (n may be 0).
 * Returns a null value (and sets the doc status) on failure. */
sv_value sv__core_array_from(sv_doc *doc, const sv_value *items, size_t n);
/* A MAP (kind SV_MAP) or OBJECT (kind SV_OBJECT, cls set later) of exactly n
 * pairs copied from pairs. */
sv_value sv__core_pairs_from(sv_doc *doc, sv_kind kind, const sv_pair *pairs, size_t n);
/* A container of room for cap items of item_size bytes, count 0. */
sv_container *sv__core_box_new(sv_doc *doc, size_t item_size, size_t cap);
/* A packed value whose count scalars stay at data, in the caller's input
 * (SV_F_BORROWED): for decoders asked to borrow_input. */
sv_value sv__core_packed_borrowed(sv_doc *doc, sv_elem elem, sv_tag shape, const void *data,
                                  size_t count);

/* The header of a container with room for cap items, no meta and no class:
 * for decoders that carve containers from their own blocks (cap fits u32). */
static inline void sv__core_box_init(sv_container *box, size_t cap)
{
    box->cap = (uint32_t)cap;
    box->layout = SV_LAYOUT_PAIRS;
    box->meta = NULL;
    box->cls = NULL;
}

/* The header of a compact object of shape (its values, shape->count of
 * them, follow at sv__core_items(box)): for decoders that carve objects from
 * their own blocks. The value itself is an SV_OBJECT of len shape->count. */
static inline void sv__core_compact_init(sv_container *box, const sv_shape *shape)
{
    box->cap = shape->count;
    box->layout = SV_LAYOUT_COMPACT;
    box->meta = NULL;
    box->cls = &shape->cls;
}

static inline bool sv__core_is_compact(const sv_value *v)
{
    return v->kind == SV_OBJECT && v->as.box->layout == SV_LAYOUT_COMPACT;
}

/* Turns a compact object into the pair layout with room for cap >= len
 * fields (edit.c and appends, before they move or add pairs). */
sv_status sv__core_expand(sv_doc *doc, sv_value *obj, size_t cap);

#endif
