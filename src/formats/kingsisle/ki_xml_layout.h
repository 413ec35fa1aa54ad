/* The white space between the tags of a KingsIsle XML object file, kept so
 * that a file written in another layout than serval's (two-space indents,
 * properties inline on their <Class> line, ...) is written back byte for
 * byte.
 *
 * A layout is one gap per kind and nesting level: the white space before an
 * opening tag at level L ("open", <Objects> is level 0, a top <Class> 1, its
 * properties 2, a nested <Class> 3, ...), the white space before a closing
 * tag at level L of an element that holds elements ("close"), and the white
 * space after </Objects> ("end"); plus whether the XML declaration is there.
 * The writer's own layout is "\n" and L tabs before each tag, "\n" at the
 * end, the declaration first. The reader records a layout in the root's meta
 * ("xml_layout") only when every gap of a kind and level is the same and
 * something differs from the writer's own; the writer uses it where it has a
 * level and its own layout elsewhere. */
#ifndef SERVAL_KI_XML_LAYOUT_H
#define SERVAL_KI_XML_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/doc_internal.h"
#include "serval/buf.h"

#define KX_LAYOUT_META "xml_layout"
#define KX_DECLARATION "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
/* Longest gap kept: longer runs of white space are not a layout. */
#define KX_GAP_MAX 256
/* Deepest level a record may describe (the writer's own depth limit). */
#define KX_LEVELS_MAX 8192

typedef struct kx_gap {
    const char *s; /* NULL: not seen (reading) or not recorded (writing) */
    size_t n;
} kx_gap;

typedef struct kx_layout {
    const sv_alloc *alloc;
    kx_gap *open, *close;
    size_t open_cap, close_cap; /* entries allocated (and zeroed) */
    size_t nlevels;             /* levels seen or recorded */
    kx_gap end;
    bool no_declaration;
    bool irregular; /* reading: a gap that is no white space or disagrees */
} kx_layout;

void kx_layout_init(kx_layout *l, const sv_alloc *a);
void kx_layout_free(kx_layout *l);

/* Reading: the gap s[0..n) before an opening (close=false) or closing tag at
 * level. False only when out of memory. */
bool kx_layout_note(kx_layout *l, bool close, size_t level, const char *s, size_t n);
/* Reading: the gap after </Objects>. */
void kx_layout_note_end(kx_layout *l, const char *s, size_t n);
/* Reading: the record for the root's meta, or null when the layout is the
 * writer's own or irregular. */
sv_value kx_layout_record(const kx_layout *l, sv_doc *doc);

/* Writing: the layout from the root's meta (none: the writer's own). A
 * record that is malformed is an error naming its path under /$meta. */
sv_status kx_layout_from_meta(kx_layout *l, const sv_value *root, sv_error *err);
/* Writing: the gap before a tag at level. */
void kx_layout_put(const kx_layout *l, bool close, size_t level, sv_buf *out);
void kx_layout_put_end(const kx_layout *l, sv_buf *out);

#endif
