/* Paths into value trees and the one tree walker (internal).
 *
 * Every JSON Pointer serval prints (errors, walks, conversion reports, rule
 * checks, O3DE reports) is escaped here, by sv__core_pointer_escape, as RFC 6901
 * says: "~" as "~0", "/" as "~1".
 *
 * An sv_path is the way to a value as a stack of segments (a key's bytes, or
 * an index), pushed and popped as a walk goes down and up. Nothing is
 * rendered until somebody asks: most walks never print a path, and those
 * that do (one per value) pay for one segment per value, because the text of
 * the levels above is kept from the last time it was asked for. */
#ifndef SV_CORE_WALK_H
#define SV_CORE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/alloc.h"
#include "serval/buf.h"
#include "serval/value.h"

/* Escapes key[0..len) as one JSON Pointer reference token into dst (no "/"
 * in front, no NUL after). Writes at most cap bytes, and only whole
 * characters (never "~" without its digit); returns the bytes written. */
size_t sv__core_pointer_escape(char *dst, size_t cap, const char *key, size_t len);
/* The bytes the whole escaped token takes. */
size_t sv__core_pointer_escaped_len(const char *key, size_t len);

/* Appends the escaped token to b (sticky failure as sv_buf's); the one with
 * "/" in front is a whole segment. */
void sv__core_pointer_append_escaped(sv_buf *b, const char *key, size_t len);
void sv__core_pointer_append(sv_buf *b, const char *key, size_t len);

/* One level of a path: key (len bytes, not copied: it must live while the
 * segment is on the stack) or, when key is NULL, index. */
typedef struct sv_path_seg {
    const char *key;
    size_t len;
    uint64_t index;
    size_t at; /* where its text starts in the rendered pointer */
} sv_path_seg;

typedef struct sv_path {
    sv_path_seg *seg;
    size_t depth, cap;
    size_t rendered; /* segments whose text text holds */
    sv_buf text;     /* the pointer, NUL-terminated after rendered segments */
    const sv_alloc *alloc;
    bool nomem; /* a push or a rendering failed */
} sv_path;

void sv__core_path_init(sv_path *p, const sv_alloc *alloc); /* alloc NULL = libc */
void sv__core_path_free(sv_path *p);
/* false (and p->nomem) when the stack cannot grow; nothing is pushed then. */
bool sv__core_path_push_key(sv_path *p, const char *key, size_t len);
bool sv__core_path_push_index(sv_path *p, uint64_t index);
/* The key of a map or object entry: its text when a string, else index. */
bool sv__core_path_push_entry(sv_path *p, const sv_value *key, uint64_t index);
void sv__core_path_pop(sv_path *p);
/* The JSON Pointer of the whole stack ("" at the root); NULL when out of
 * memory. Valid until the next push, pop or render. */
const char *sv__core_path_render(sv_path *p);
/* The pointer into dst (size bytes, NUL-terminated); one too long keeps its
 * innermost part after "...", as error paths do. */
void sv__core_path_render_into(sv_path *p, char *dst, size_t size);

/* ---- the walker ---- */

/* What a visit asks of the walk next. */
typedef enum sv_step {
    SV_STEP_INTO, /* go on, into this value's children */
    SV_STEP_OVER, /* go on, but not into this value's children */
    SV_STEP_STOP  /* end the walk */
} sv_step;

typedef enum sv_walk_end {
    SV_WALK_DONE,     /* every value visited */
    SV_WALK_STOPPED,  /* a visit said SV_STEP_STOP */
    SV_WALK_TOO_DEEP, /* a value deeper than max_depth (not visited) */
    SV_WALK_NOMEM     /* the path or the walk's own stack could not grow */
} sv_walk_end;

typedef struct sv_walker sv_walker;

/* Visits v, depth levels below the root (0: the root). The path, the
 * parent and the key are asked of w. */
typedef sv_step (*sv_walker_fn)(void *ctx, sv_walker *w, const sv_value *v, unsigned depth);

struct sv_walker {
    sv_path path;
    /* the containers being walked and the next child of each */
    struct sv_walk_frame {
        const sv_value *box;
        uint32_t next;
    } * frames;
    size_t nframes, cap;
};

/* Pre-order walk of root: arrays' items and maps' and objects' values, in
 * order (a map's key is the path segment of its value, not visited). Does
 * not recurse: the depth costs heap, not C stack. */
sv_walk_end sv__core_walk_tree(const sv_value *root, unsigned max_depth, const sv_alloc *alloc,
                               sv_walker_fn fn, void *ctx);

/* The current value's JSON Pointer (NULL: out of memory). */
const char *sv__core_walker_path(sv_walker *w);
/* The container holding the current value (NULL at the root), and the
 * current value's key in it (NULL in an array or at the root). */
const sv_value *sv__core_walker_parent(const sv_walker *w);
const sv_value *sv__core_walker_key(const sv_walker *w);

#endif
