/* JSON Pointer escaping, path stacks and the tree walker (see walk.h). */
#include "core/walk.h"

#include <string.h>

#include "core/mem.h"
#include "core/value_internal.h"

size_t sv__core_pointer_escape(char *dst, size_t cap, const char *key, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = key[i];
        if (c == '~' || c == '/') {
            if (cap - n < 2) break;
            dst[n++] = '~';
            dst[n++] = c == '~' ? '0' : '1';
        } else {
            if (cap - n < 1) break;
            dst[n++] = c;
        }
    }
    return n;
}

size_t sv__core_pointer_escaped_len(const char *key, size_t len)
{
    size_t n = len;
    for (size_t i = 0; i < len; i++) n += key[i] == '~' || key[i] == '/';
    return n;
}

void sv__core_pointer_append_escaped(sv_buf *b, const char *key, size_t len)
{
    /* twice the key is the most it can take; one pass writes it */
    if (len > SIZE_MAX / 2 || sv_buf_ensure(b, 2 * len) != SV_OK) {
        b->failed = true;
        return;
    }
    b->len += sv__core_pointer_escape((char *)b->data + b->len, b->cap - b->len, key, len);
}

void sv__core_pointer_append(sv_buf *b, const char *key, size_t len)
{
    sv_buf_putc(b, '/');
    sv__core_pointer_append_escaped(b, key, len);
}

/* ---- path stacks ---- */

void sv__core_path_init(sv_path *p, const sv_alloc *alloc)
{
    memset(p, 0, sizeof *p);
    p->alloc = alloc ? alloc : sv_alloc_libc();
    sv_buf_init(&p->text, p->alloc);
}

void sv__core_path_free(sv_path *p)
{
    sv__core_mem_free(p->alloc, p->seg, p->cap, sizeof *p->seg);
    sv_buf_free(&p->text);
    p->seg = NULL;
    p->depth = p->cap = p->rendered = 0;
}

bool sv__core_path_push_key(sv_path *p, const char *key, size_t len)
{
    if (p->depth == p->cap &&
        !sv__core_mem_grow(p->alloc, (void **)&p->seg, &p->cap, p->depth + 1, sizeof *p->seg)) {
        p->nomem = true;
        return false;
    }
    sv_path_seg *s = &p->seg[p->depth++];
    s->key = key;
    s->len = len;
    s->index = 0;
    return true;
}

bool sv__core_path_push_index(sv_path *p, uint64_t index)
{
    if (!sv__core_path_push_key(p, NULL, 0)) return false;
    p->seg[p->depth - 1].index = index;
    return true;
}

bool sv__core_path_push_entry(sv_path *p, const sv_value *key, uint64_t index)
{
    if (key && key->kind == SV_STRING) return sv__core_path_push_key(p, key->as.str, key->len);
    return sv__core_path_push_index(p, index);
}

void sv__core_path_pop(sv_path *p)
{
    if (!p->depth) return;
    p->depth--;
    if (p->rendered > p->depth) {
        p->rendered = p->depth;
        p->text.len = p->seg[p->depth].at;
    }
}

/* Appends "/" and the decimal digits of v. */
static void append_index(sv_buf *b, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (sv_buf_ensure(b, n + 1) != SV_OK) return;
    b->data[b->len++] = '/';
    while (n) b->data[b->len++] = digits[--n];
}

const char *sv__core_path_render(sv_path *p)
{
    for (; p->rendered < p->depth; p->rendered++) {
        sv_path_seg *s = &p->seg[p->rendered];
        s->at = p->text.len;
        if (s->key)
            sv__core_pointer_append(&p->text, s->key, s->len);
        else
            append_index(&p->text, s->index);
    }
    sv_buf_putc(&p->text, 0);
    if (!sv_buf_ok(&p->text)) {
        /* the text is dropped; the next call starts again from the root */
        p->nomem = true;
        p->rendered = 0;
        p->text.len = 0;
        p->text.failed = false;
        return NULL;
    }
    p->text.len--;
    return (const char *)p->text.data;
}

void sv__core_path_render_into(sv_path *p, char *dst, size_t size)
{
    if (!size) return;
    const char *s = sv__core_path_render(p);
    size_t len = s ? p->text.len : 0;
    if (!s) s = "";
    if (len < size) {
        memcpy(dst, s, len + 1);
    } else if (size > 3) {
        size_t keep = size - 4;
        memcpy(dst, "...", 3);
        memcpy(dst + 3, s + len - keep, keep + 1);
    } else {
        dst[0] = 0;
    }
}

/* ---- the walker ---- */

const char *sv__core_walker_path(sv_walker *w)
{
    return sv__core_path_render(&w->path);
}

const sv_value *sv__core_walker_parent(const sv_walker *w)
{
    return w->nframes ? w->frames[w->nframes - 1].box : NULL;
}

const sv_value *sv__core_walker_key(const sv_walker *w)
{
    if (!w->nframes) return NULL;
    const struct sv_walk_frame *f = &w->frames[w->nframes - 1];
    if (f->box->kind == SV_ARRAY || !f->next) return NULL;
    return sv_key_at(f->box, f->next - 1);
}

static bool has_children(const sv_value *v)
{
    return (v->kind == SV_ARRAY || v->kind == SV_MAP || v->kind == SV_OBJECT) && v->len > 0;
}

sv_walk_end sv__core_walk_tree(const sv_value *root, unsigned max_depth, const sv_alloc *alloc,
                               sv_walker_fn fn, void *ctx)
{
    if (!root || !fn) return SV_WALK_DONE;
    sv_walker w;
    memset(&w, 0, sizeof w);
    sv__core_path_init(&w.path, alloc);
    sv_walk_end end = SV_WALK_DONE;
    const sv_value *v = root; /* the value to visit next, its segment pushed */
    for (;;) {
        if (v) {
            sv_step step = fn(ctx, &w, v, (unsigned)w.nframes);
            if (step == SV_STEP_STOP) {
                end = SV_WALK_STOPPED;
                break;
            }
            if (step == SV_STEP_INTO && has_children(v)) {
                if (w.nframes == w.cap &&
                    !sv__core_mem_grow(w.path.alloc, (void **)&w.frames, &w.cap, w.nframes + 1,
                                       sizeof *w.frames)) {
                    end = SV_WALK_NOMEM;
                    break;
                }
                w.frames[w.nframes].box = v;
                w.frames[w.nframes++].next = 0;
            } else if (w.nframes) {
                sv__core_path_pop(&w.path); /* a leaf: its segment goes */
            }
            v = NULL;
        }
        if (!w.nframes) break;
        struct sv_walk_frame *f = &w.frames[w.nframes - 1];
        if (f->next == f->box->len) {
            w.nframes--;
            if (w.nframes) sv__core_path_pop(&w.path); /* the container's own segment */
            continue;
        }
        if (w.nframes > max_depth) {
            end = SV_WALK_TOO_DEEP;
            break;
        }
        uint32_t i = f->next++;
        bool pushed;
        if (f->box->kind == SV_ARRAY) {
            v = &sv__core_items(f->box->as.box)[i];
            pushed = sv__core_path_push_index(&w.path, i);
        } else {
            v = sv_val_at(f->box, i);
            pushed = sv__core_path_push_entry(&w.path, sv_key_at(f->box, i), i);
        }
        if (!pushed) {
            end = SV_WALK_NOMEM;
            break;
        }
    }
    if (end == SV_WALK_DONE && w.path.nomem) end = SV_WALK_NOMEM;
    sv__core_mem_free(w.path.alloc, w.frames, w.cap, sizeof *w.frames);
    sv__core_path_free(&w.path);
    return end;
}
