/* KingsIsle XML object files (§8), read with expat and written as text:
 *
 *   <Objects>
 *     <Class Name="class Example">
 *       <m_someInt>1337</m_someInt>
 *       <m_someObject><Class Name="class SomeObject">...</Class></m_someObject>
 *       <m_list>A</m_list><m_list>B</m_list>
 *     </Class>
 *   </Objects>
 *
 * One <Class> gives an object, several an array of objects. With a type list
 * the text becomes typed values (numbers, bools, tuples from "x,y,z", colours
 * from AARRGGBB, enum names, lists for dynamic properties), the same values
 * the binary decoder makes, so a file converts between the two forms;
 * without one, text stays text and repeated elements become arrays. An
 * empty element is null ("leave at default", or a null object). The white
 * space between tags is noted as the layout (ki_xml_layout.h) and recorded in
 * the root's meta when it is not the writer's own. */
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "core/doc_internal.h"
#include "core/mem.h"
#include "formats/kingsisle/ki_internal.h"
#include "formats/kingsisle/ki_xml_layout.h"
#include "core/numconv.h"

#define KX_FORMAT "kingsisle-xml"

typedef struct kx_frame {
    bool is_class;
    const ki_class *cls; /* a Class frame with a type list */
    sv_value name;       /* Class: the Name; property: the element name */
    size_t first_field;  /* Class: where its fields start on the field stack */
    size_t text_start;   /* property: where its text starts in the text buffer */
    sv_value child;      /* property: the nested object, if any */
    bool has_child;
} kx_frame;

typedef struct kx_ctx {
    sv_doc *doc;
    const sv_kingsisle_types *types;
    sv_error *err;
    XML_Parser p;
    sv_status st;
    kx_frame *stack;
    size_t depth, cap, max_depth;
    sv_pair *fields;
    size_t nfields, fields_cap;
    sv_value *roots;
    size_t nroots, roots_cap;
    sv_buf text;
    bool seen_root;
    const char *data; /* the input: the gaps of the layout point into it */
    size_t len;
    size_t last_end; /* the byte after the last tag */
    kx_layout layout;
} kx_ctx;

static void kx_fail(kx_ctx *c, sv_status st, const char *fmt, const char *a, const char *b)
{
    if (c->st != SV_OK) return;
    char msg[SV_ERROR_MSG_MAX];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    c->st = sv_error_set(c->err, st, KX_FORMAT, (uint64_t)XML_GetCurrentByteIndex(c->p), "%s", msg);
    c->err->line = (uint32_t)XML_GetCurrentLineNumber(c->p);
    c->err->column = (uint32_t)XML_GetCurrentColumnNumber(c->p) + 1;
    XML_StopParser(c->p, XML_FALSE);
}

/* ---- text to values ------------------------------------------------------------ */

static bool parse_i64(const char *s, int64_t *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end) return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (*s == '-') return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end) return false;
    *out = v;
    return true;
}

/* n numbers separated by commas (spaces allowed around them). */
static bool parse_list(const char *s, double *out, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        char *end;
        while (*s == ' ') s++;
        out[i] = strtod(s, &end);
        if (end == s) return false;
        s = end;
        while (*s == ' ') s++;
        if (i + 1 < n) {
            if (*s != ',') return false;
            s++;
        }
    }
    return *s == 0;
}

static sv_value tuple_of(kx_ctx *c, sv_tag shape, sv_elem elem, const double *x, unsigned n)
{
    union {
        uint8_t u8[16];
        int32_t i32[16];
        uint32_t u32[16];
        float f32[16];
    } b;
    for (unsigned i = 0; i < n; i++) {
        if (elem == SV_ELEM_U8)
            b.u8[i] = (uint8_t)x[i];
        else if (elem == SV_ELEM_I32)
            b.i32[i] = (int32_t)x[i];
        else if (elem == SV_ELEM_U32)
            b.u32[i] = (uint32_t)x[i];
        else
            b.f32[i] = (float)x[i];
    }
    return sv_tuple(c->doc, shape, elem, &b);
}

static bool typed_value(kx_ctx *c, const ki_prop *p, const char *s, size_t n, sv_value *out)
{
    int64_t i;
    uint64_t u;
    double x[9];
    switch ((ki_kind)p->kind) {
    case KI_BOOL:
        if (!strcmp(s, "true") || !strcmp(s, "false"))
            *out = sv_bool(s[0] == 't');
        else if (parse_i64(s, &i))
            *out = sv_bool(i != 0);
        else
            return false;
        return true;
    case KI_I8:
        return parse_i64(s, &i) && i >= INT8_MIN && i <= INT8_MAX && (*out = sv_int_w(i, 1), true);
    case KI_U8: return parse_u64(s, &u) && u <= UINT8_MAX && (*out = sv_uint_w(u, 1), true);
    case KI_I16:
        return parse_i64(s, &i) && i >= INT16_MIN && i <= INT16_MAX &&
               (*out = sv_int_w(i, 2), true);
    case KI_U16: return parse_u64(s, &u) && u <= UINT16_MAX && (*out = sv_uint_w(u, 2), true);
    case KI_WCHAR:
        return parse_u64(s, &u) && u <= UINT16_MAX &&
               (*out = sv_with_tag(sv_uint_w(u, 2), SV_TAG_CHAR), true);
    case KI_I32:
        return parse_i64(s, &i) && i >= INT32_MIN && i <= INT32_MAX &&
               (*out = sv_int_w(i, 4), true);
    case KI_U32: return parse_u64(s, &u) && u <= UINT32_MAX && (*out = sv_uint_w(u, 4), true);
    case KI_I64: return parse_i64(s, &i) && (*out = sv_int_w(i, 8), true);
    case KI_U64: return parse_u64(s, &u) && (*out = sv_uint_w(u, 8), true);
    case KI_BITS_S:
        return parse_i64(s, &i) && i >= -(INT64_C(1) << (p->bits - 1)) &&
               i < (INT64_C(1) << (p->bits - 1)) &&
               (*out = sv_int_w(i, p->bits <= 7 ? 1 : 4), true);
    case KI_BITS_U:
        return parse_u64(s, &u) && u < (UINT64_C(1) << p->bits) &&
               (*out = sv_uint_w(u, p->bits <= 7 ? 1 : 4), true);
    case KI_F32:
    case KI_F64: {
        char *end;
        double d = strtod(s, &end);
        if (!*s || *end) return false;
        *out = p->kind == KI_F32 ? sv_f32((float)d) : sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        return true;
    }
    case KI_STR: *out = sv_str(c->doc, s, n); return true;
    case KI_WSTR: *out = sv_with_flags(sv_str(c->doc, s, n), SV_F_UTF16); return true;
    case KI_COLOR: { /* §8: AARRGGBB */
        char *end;
        if (n != 8) return false;
        unsigned long v = strtoul(s, &end, 16);
        if (*end) return false;
        x[0] = (double)((v >> 16) & 0xFF), x[1] = (double)((v >> 8) & 0xFF);
        x[2] = (double)(v & 0xFF), x[3] = (double)(v >> 24);
        *out = tuple_of(c, SV_TAG_COLOR, SV_ELEM_U8, x, 4);
        return true;
    }
#define TUP(K, SHAPE, ELEM, N)                                                                     \
    case K:                                                                                        \
        if (!parse_list(s, x, N)) return false;                                                    \
        *out = tuple_of(c, SHAPE, ELEM, x, N);                                                     \
        return true;
        TUP(KI_VEC3, SV_TAG_VECTOR3, SV_ELEM_F32, 3)
        TUP(KI_EULER, SV_TAG_EULER, SV_ELEM_F32, 3)
        TUP(KI_QUAT, SV_TAG_QUATERNION, SV_ELEM_F32, 4)
        TUP(KI_MAT3, SV_TAG_MATRIX3X3, SV_ELEM_F32, 9)
        TUP(KI_SIZE_I, SV_TAG_VECTOR2I, SV_ELEM_I32, 2)
        TUP(KI_POINT_I, SV_TAG_VECTOR2I, SV_ELEM_I32, 2)
        TUP(KI_POINT_F, SV_TAG_VECTOR2, SV_ELEM_F32, 2)
        TUP(KI_POINT_U8, SV_TAG_VECTOR2I, SV_ELEM_U8, 2)
        TUP(KI_POINT_U32, SV_TAG_VECTOR2I, SV_ELEM_U32, 2)
        TUP(KI_RECT_I, SV_TAG_RECT2I, SV_ELEM_I32, 4)
        TUP(KI_RECT_F, SV_TAG_RECT2, SV_ELEM_F32, 4)
#undef TUP
    case KI_ENUM: /* names as text, or a number: named as binary's are (ki_enum_value) */
        if (parse_u64(s, &u) && u <= UINT32_MAX)
            *out = ki_enum_value(c->doc, p, (uint32_t)u);
        else
            *out = sv_with_tag(sv_str(c->doc, s, n), SV_TAG_ENUM);
        return true;
    default: return false;
    }
}

/* ---- expat callbacks ------------------------------------------------------------ */

static const char *attr(const char **a, const char *name)
{
    for (; a[0]; a += 2)
        if (strcmp(a[0], name) == 0) return a[1];
    return NULL;
}

static kx_frame *push(kx_ctx *c)
{
    if (c->depth >= c->max_depth) {
        kx_fail(c, SV_ERR_DEPTH, "elements nested deeper than the depth limit%s%s", NULL, NULL);
        return NULL;
    }
    if (!sv__core_mem_grow(&c->doc->alloc, (void **)&c->stack, &c->cap, c->depth + 1,
                           sizeof *c->stack)) {
        kx_fail(c, SV_ERR_NOMEM, "out of memory%s%s", NULL, NULL);
        return NULL;
    }
    kx_frame *f = &c->stack[c->depth++];
    memset(f, 0, sizeof *f);
    return f;
}

/* The white space from the end of the last tag to the tag being read, a gap
 * of the layout at level; then the tag's end is the last. */
static void note_gap(kx_ctx *c, bool close, size_t level)
{
    size_t at = (size_t)XML_GetCurrentByteIndex(c->p);
    size_t end = at + (size_t)XML_GetCurrentByteCount(c->p);
    if (at >= c->last_end && at <= c->len &&
        !kx_layout_note(&c->layout, close, level, c->data + c->last_end, at - c->last_end))
        kx_fail(c, SV_ERR_NOMEM, "out of memory%s%s", NULL, NULL);
    if (end > c->last_end) c->last_end = end;
}

/* Past a tag that has no gap of its own (a property's text or an empty
 * element's end). */
static void skip_tag(kx_ctx *c)
{
    size_t end = (size_t)XML_GetCurrentByteIndex(c->p) + (size_t)XML_GetCurrentByteCount(c->p);
    if (end > c->last_end) c->last_end = end;
}

static void on_start(void *ud, const char *el, const char **a)
{
    kx_ctx *c = ud;
    if (c->st != SV_OK) return;
    kx_frame *top = c->depth ? &c->stack[c->depth - 1] : NULL;
    if (!c->seen_root) {
        c->seen_root = true;
        if (strcmp(el, "Objects") != 0)
            return kx_fail(c, SV_ERR_SYNTAX, "the root element is <%s>, not <Objects>", el, NULL);
        /* the prolog: serval's declaration or none, then white space */
        size_t dl = strlen(KX_DECLARATION);
        if (c->len >= dl && memcmp(c->data, KX_DECLARATION, dl) == 0)
            c->last_end = dl;
        else
            c->layout.no_declaration = true;
        note_gap(c, false, 0);
        return;
    }
    if (!top || top->is_class == false) {
        /* inside <Objects> or a property element: only <Class> */
        if (strcmp(el, "Class") != 0)
            return kx_fail(c, SV_ERR_SYNTAX, "<%s> where a <Class> belongs", el, NULL);
        if (top && top->has_child)
            return kx_fail(c, SV_ERR_SYNTAX, "a second <Class> in <%s>",
                           sv_get_str(&top->name, NULL), NULL);
        const char *name = attr(a, "Name");
        if (!name) return kx_fail(c, SV_ERR_SYNTAX, "a <Class> without a Name%s%s", NULL, NULL);
        note_gap(c, false, c->depth + 1);
        kx_frame *f = push(c);
        if (!f) return;
        f->is_class = true;
        f->cls = ki_class_by_name(c->types, name, strlen(name));
        if (c->types && !f->cls)
            return kx_fail(c, SV_ERR_NOT_FOUND, "class '%s' is not in the type list%s", name, NULL);
        f->name = sv_str_intern(c->doc, name, strlen(name));
        f->first_field = c->nfields;
        return;
    }
    /* a property of the class on top */
    note_gap(c, false, c->depth + 1);
    kx_frame *f = push(c);
    if (!f) return;
    f->name = sv_str_intern(c->doc, el, strlen(el));
    f->text_start = c->text.len;
}

static void on_text(void *ud, const char *s, int len)
{
    kx_ctx *c = ud;
    if (c->st != SV_OK || !c->depth || c->stack[c->depth - 1].is_class) return;
    sv_buf_append(&c->text, s, (size_t)len);
}

static bool add_field(kx_ctx *c, sv_value key, sv_value val, bool dynamic, size_t first)
{
    /* a repeated element: the field becomes (or grows) a list */
    size_t kl;
    const char *k = sv_get_str(&key, &kl);
    for (size_t i = first; i < c->nfields; i++) {
        if (c->fields[i].key.as.str != k) continue; /* keys are interned */
        sv_value *old = &c->fields[i].val;
        /* text values are never arrays: an array here came from repetition */
        if (sv_kind_of(old) != SV_ARRAY) {
            sv_value arr = sv_array(c->doc, 0);
            if (sv_array_append(c->doc, &arr, *old) != SV_OK) return false;
            *old = arr;
        }
        return sv_array_append(c->doc, old, val) == SV_OK;
    }
    if (dynamic) {
        sv_value arr = sv_array(c->doc, 0);
        if (sv_array_append(c->doc, &arr, val) != SV_OK) return false;
        val = arr;
    }
    if (!sv__core_mem_grow(&c->doc->alloc, (void **)&c->fields, &c->fields_cap, c->nfields + 1,
                           sizeof *c->fields))
        return false;
    c->fields[c->nfields].key = key;
    c->fields[c->nfields++].val = val;
    return true;
}

static void end_property(kx_ctx *c, kx_frame *f, kx_frame *cls)
{
    size_t n = c->text.len - f->text_start;
    sv_buf_putc(&c->text, 0);
    if (!sv_buf_ok(&c->text) || !c->text.data) { /* the text buffer's allocation failed */
        kx_fail(c, SV_ERR_NOMEM, "out of memory", NULL, NULL);
        return;
    }
    const char *s = (const char *)c->text.data + f->text_start;
    size_t kl;
    const char *key = sv_get_str(&f->name, &kl);
    const ki_prop *p = cls->cls ? ki_prop_by_name(cls->cls, key, kl) : NULL;
    if (cls->cls && !p)
        return kx_fail(c, SV_ERR_NOT_FOUND, "'%s' is not a property of '%s'", key, cls->cls->name);
    sv_value v;
    /* white space around a nested <Class> or in an empty element is layout */
    size_t a = 0, b = n;
    while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r' || s[a] == '\n')) a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r' || s[b - 1] == '\n'))
        b--;
    if (f->has_child) {
        if (b > a) return kx_fail(c, SV_ERR_SYNTAX, "text next to a <Class> in <%s>%s", key, NULL);
        v = f->child;
    } else if (a == b && (!p || (p->kind != KI_STR && p->kind != KI_WSTR && p->kind != KI_ENUM))) {
        v = sv_null(); /* "leave at default" (§8), or a null object */
    } else if (p) {
        if (p->kind != KI_STR && p->kind != KI_WSTR) s += a, n = b - a, ((char *)s)[n] = 0;
        if (p->kind == KI_OBJECT || !typed_value(c, p, s, n, &v))
            return kx_fail(c, SV_ERR_SYNTAX, "'%s' is not a value of type %s", s, p->type);
    } else {
        v = sv_str(c->doc, s, n);
    }
    c->text.len = f->text_start;
    if (!add_field(c, f->name, v, p && p->dynamic, cls->first_field))
        kx_fail(c, SV_ERR_NOMEM, "out of memory%s%s", NULL, NULL);
}

static void on_end(void *ud, const char *el)
{
    kx_ctx *c = ud;
    (void)el;
    if (c->st != SV_OK) return;
    if (!c->depth) { /* </Objects> */
        if (XML_GetCurrentByteCount(c->p) > 0) note_gap(c, true, 0);
        return;
    }
    kx_frame *f = &c->stack[--c->depth];
    kx_frame *parent = c->depth ? &c->stack[c->depth - 1] : NULL;
    /* an element that holds elements has a gap before its end tag */
    if ((f->is_class || f->has_child) && XML_GetCurrentByteCount(c->p) > 0)
        note_gap(c, true, c->depth + 1);
    else
        skip_tag(c);
    if (!f->is_class) return end_property(c, f, parent);
    size_t n = c->nfields - f->first_field;
    sv_value obj = sv_object(c->doc, f->name, n);
    if (sv_doc_status(c->doc) != SV_OK)
        return kx_fail(c, SV_ERR_NOMEM, "out of memory%s%s", NULL, NULL);
    if (n) memcpy(sv_pairs(&obj), c->fields + f->first_field, n * sizeof(sv_pair));
    c->nfields = f->first_field;
    if (parent) {
        parent->child = obj;
        parent->has_child = true;
    } else {
        if (!sv__core_mem_grow(&c->doc->alloc, (void **)&c->roots, &c->roots_cap, c->nroots + 1,
                               sizeof *c->roots))
            return kx_fail(c, SV_ERR_NOMEM, "out of memory%s%s", NULL, NULL);
        c->roots[c->nroots++] = obj;
    }
}

sv_status sv_kingsisle_xml_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                  const sv_kingsisle_opts *opts, sv_value *out, sv_error *err)
{
    sv_kingsisle_opts o;
    sv_status ost = ki_opts_read(&o, opts, KX_FORMAT, err);
    if (ost != SV_OK) return ost;
    kx_ctx c;
    memset(&c, 0, sizeof c);
    c.doc = doc;
    c.types = o.types;
    c.err = err;
    sv_limits lim = sv_limits_resolve(&o.limits);
    c.max_depth = lim.max_depth;
    sv_buf_init(&c.text, &doc->alloc);
    c.data = data ? (const char *)data : "";
    c.len = data ? len : 0;
    kx_layout_init(&c.layout, &doc->alloc);
    if (len > INT32_MAX) return sv_error_set(err, SV_ERR_LIMIT, KX_FORMAT, 0, "input over 2 GiB");
    c.p = XML_ParserCreate("UTF-8");
    if (!c.p) return sv_error_set(err, SV_ERR_NOMEM, KX_FORMAT, 0, "out of memory");
    XML_SetUserData(c.p, &c);
    XML_SetElementHandler(c.p, on_start, on_end);
    XML_SetCharacterDataHandler(c.p, on_text);
    if (XML_Parse(c.p, data ? (const char *)data : "", (int)len, XML_TRUE) == XML_STATUS_ERROR &&
        c.st == SV_OK) {
        c.st = sv_error_set(err, SV_ERR_SYNTAX, KX_FORMAT, (uint64_t)XML_GetCurrentByteIndex(c.p),
                            "%s", XML_ErrorString(XML_GetErrorCode(c.p)));
        err->line = (uint32_t)XML_GetCurrentLineNumber(c.p);
        err->column = (uint32_t)XML_GetCurrentColumnNumber(c.p) + 1;
    }
    if (c.st == SV_OK && !sv_buf_ok(&c.text))
        c.st = sv_error_set(err, SV_ERR_NOMEM, KX_FORMAT, 0, "out of memory");
    if (c.st == SV_OK && c.nroots == 0)
        c.st = sv_error_set(err, SV_ERR_SYNTAX, KX_FORMAT, 0, "no <Class> in <Objects>");
    if (c.st == SV_OK) {
        if (c.nroots == 1) {
            *out = c.roots[0];
        } else {
            *out = sv_array(doc, c.nroots);
            if (sv_doc_status(doc) == SV_OK)
                memcpy(sv_array_items(out), c.roots, c.nroots * sizeof *c.roots);
            c.st = sv_doc_status(doc);
        }
    }
    if (c.st == SV_OK) { /* a layout other than the writer's, in the root's meta */
        kx_layout_note_end(&c.layout, c.data + c.last_end, c.len - c.last_end);
        sv_value rec = kx_layout_record(&c.layout, doc);
        if (sv_kind_of(&rec) == SV_MAP) {
            sv_value meta = sv_map(doc, 0);
            sv_map_append_str(doc, &meta, KX_LAYOUT_META, rec);
            sv_meta_set(doc, out, meta);
        }
    }
    if (c.st == SV_OK && sv_doc_status(doc) != SV_OK) c.st = sv_doc_status(doc);
    if (c.st != SV_OK)
        c.st = sv_error_set(err, c.st, KX_FORMAT, 0, "%s",
                            c.st == SV_ERR_NOMEM ? "out of memory" : sv_status_str(c.st));
    XML_ParserFree(c.p);
    sv__core_mem_free(&doc->alloc, c.stack, c.cap, sizeof *c.stack);
    sv__core_mem_free(&doc->alloc, c.fields, c.fields_cap, sizeof *c.fields);
    sv__core_mem_free(&doc->alloc, c.roots, c.roots_cap, sizeof *c.roots);
    sv_buf_free(&c.text);
    kx_layout_free(&c.layout);
    return c.st;
}
