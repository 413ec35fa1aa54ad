/* What a Godot profile (godot4, godot3, godot-doc) writes exactly, and the
 * nearest Variant of what it does not.
 *
 * The answers come from the encoder's own tables (godot_internal.h): which
 * types the profile and -O version= have, whether typed containers are
 * written typed, whether full objects are allowed (-O objects=full, or the
 * root's meta "objects": "full" of a tree read with them), and
 * when math fields are written as float32. So a value judged exact here is
 * one godot_encode.c writes without changing it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "convert/convert_internal.h"
#include "core/article.h"
#include "core/format_module.h"
#include "formats/godot/godot_file_meta.h"
#include "formats/godot/godot_internal.h"

typedef struct gd_cv {
    gd_rules r;
    sv_godot_opts o;           /* the options the rules were made from */
    const sv_options *options; /* the caller's, while the walk runs */
    bool godot4;
    bool framing_option; /* -O framing= given: it decides, not the tree */
    bool stream;         /* -O framing=stream */
} gd_cv;

static bool has(const gd_cv *g, unsigned t)
{
    uint8_t c = g->r.to_wire[t];
    return c != 0xFF && c < g->r.variant_max;
}

/* A double that float32 holds as it is (a NaN is a NaN either way). */
static bool fits_f32(double x)
{
    return x != x || (double)(float)x == x;
}

static bool fits_i32(double x)
{
    return x >= INT32_MIN && x <= INT32_MAX && x == floor(x);
}

/* Whether every scalar of v passes ok(). */
static bool all_scalars(const sv_value *v, bool (*ok)(double))
{
    for (size_t i = 0; i < v->len; i++)
        if (!ok(sv_number_at(v, i))) return false;
    return true;
}

/* v's scalars converted to elem (the values are known to fit, or are
 * rounded to float32 on purpose). */
static sv_value with_elem(sv_doc *doc, const sv_value *v, sv_elem elem)
{
    sv_value c = sv_kind_of(v) == SV_TUPLE ? sv_tuple(doc, sv_tag_of(v), elem, NULL)
                                           : sv_packed(doc, elem, sv_tag_of(v), NULL, v->len);
    if (c.kind != v->kind) return sv_null();
    void *p = sv_value_buf(&c);
    for (size_t i = 0; i < v->len; i++) {
        double x = sv_number_at(v, i);
        if (elem == SV_ELEM_F32) {
            float f = (float)x;
            memcpy((float *)p + i, &f, 4);
        } else if (elem == SV_ELEM_F64) {
            memcpy((double *)p + i, &x, 8);
        } else if (elem == SV_ELEM_I32) {
            int32_t k = (int32_t)x;
            memcpy((int32_t *)p + i, &k, 4);
        } else { /* I64: from a u32/u64/i64 source, read exactly */
            sv_value s = cv_scalar(v, i);
            int64_t k = s.kind == SV_UINT ? (int64_t)s.as.u : s.as.i;
            memcpy((int64_t *)p + i, &k, 8);
        }
    }
    return c;
}

static bool meta_names_type(const gd_cv *g, const sv_value *mt)
{
    if (sv_kind_of(mt) == SV_STRING) {
        unsigned t = gd_type_by_name(mt->as.str, mt->len);
        return t != GD_NONE && has(g, t);
    }
    if (sv_kind_of(mt) == SV_MAP && mt->len == 1) {
        const sv_value *pk = sv_key_at(mt, 0);
        const sv_value *pv = sv_val_at(mt, 0);
        size_t n;
        const char *k = sv_get_str(pk, &n);
        return sv_kind_of(pv) == SV_STRING &&
               ((n == 5 && !memcmp(k, "class", 5)) || (n == 6 && !memcmp(k, "script", 6)));
    }
    return false;
}

/* Root meta entries of another format's file (a Resonite container, say)
 * are not Godot's to write: dropped without a word. */
static bool keep_godot_meta(const sv_pair *e, const void *state)
{
    if (!cv_is_file_key(&e->key)) return true;
    size_t kn, vn;
    const char *k = sv_get_str(&e->key, &kn);
    const char *v = sv_get_str(&e->val, &vn);
    const gd_cv *g = state;
    if (kn == 6 && !memcmp(k, "format", 6)) return true; /* the Godot encoder ignores it */
    if (!v) return false;
    if (kn == 7 && !memcmp(k, "framing", 7))
        return !strcmp(v, "raw") || !strcmp(v, "prefixed") || !strcmp(v, "stream");
    if (kn == 6 && !memcmp(k, "prefix", 6)) return !strcmp(v, "le") || !strcmp(v, "be");
    if (kn == 7 && !memcmp(k, "objects", 7)) return !strcmp(v, "full") || !strcmp(v, "id");
    if (kn == 7 && !memcmp(k, "version", 7)) return g->godot4 && gd_version_minor(v);
    return false;
}

static bool keep_file_entry(const sv_pair *e, const void *state)
{
    (void)state;
    return cv_is_file_key(&e->key);
}

/* v without its meta; the root keeps its file entries (its framing). */
static bool drop_meta(sv_doc *doc, const sv_value *v, bool root, cv_judgement *j,
                      const char *becomes)
{
    size_t dropped;
    sv_value c = root ? cv_filter_meta(doc, v, keep_file_entry, NULL, &dropped)
                      : cv_container_without_meta(doc, v, sv_kind_of(v));
    if (c.kind != v->kind) return false;
    cv_lower(j, c, "%s", becomes);
    return true;
}

/* The root's meta without its file entries (framing, prefix, format), which
 * gd_registry_encode takes out before the Variant is written. NULL when
 * nothing else is left, NULL-kind on no memory. */
static const sv_value *value_meta(sv_doc *doc, const sv_value *v, bool root, sv_value *room)
{
    const sv_value *meta = sv_meta(v);
    if (!root || sv_kind_of(meta) != SV_MAP) return meta;
    *room = sv_map(doc, 0);
    for (uint32_t i = 0; i < meta->len; i++) {
        const sv_value *pk = sv_key_at(meta, i);
        const sv_value *pv = sv_val_at(meta, i);
        if (!cv_is_file_key(pk) && sv_map_append(doc, room, *pk, *pv) != SV_OK) return room;
    }
    return room->len ? room : NULL;
}

/* The meta entries named in `names` (a NULL-ended list) dropped. */
static bool keep_unnamed(const sv_pair *e, const void *state)
{
    size_t n;
    const char *k = sv_get_str(&e->key, &n);
    if (sv_kind_of(&e->key) != SV_STRING) return true;
    for (const char *const *name = state; *name; name++)
        if (strlen(*name) == n && !memcmp(*name, k, n)) return false;
    return true;
}

/* v without the meta entries of its element types ("type", or "key" and
 * "value", and the bytes of their blocks): the rest of its meta (bytes kept
 * beyond the value) still holds for the untyped container. */
static bool drop_types(sv_doc *doc, const sv_value *v, cv_judgement *j, const char *becomes)
{
    static const char *const typed[] = {"type", "key", "value", "blocks", NULL};
    size_t dropped;
    sv_value c = cv_filter_meta(doc, v, keep_unnamed, typed, &dropped);
    if (c.kind != v->kind) return false;
    cv_lower(j, c, "%s", becomes);
    return true;
}

/* What the encoder does with an Array's meta (godot_encode.c, enc_array and
 * enc_psa, which read it with gd_extra_read): the typed-container entries and
 * every record of bytes kept beyond the value (docs/formats/godot.md) are
 * written exactly, since the encoder uses a record only while it still holds
 * the value. Meta it does not read is another format's: dropped. root: the
 * value is written at depth 0 (the tree's root, or a frame of a stream),
 * where a "root" Array stands for its one item. */
static bool judge_array(const gd_cv *g, sv_doc *doc, const sv_value *v, bool root, cv_judgement *j)
{
    sv_value room = sv_null();
    const sv_value *meta = value_meta(doc, v, root, &room);
    if (sv_doc_status(doc) != SV_OK) return false;
    if (!meta) return true;
    gd_extra x;
    const char *why = NULL;
    if (!gd_extra_read(meta, &x, &why)) {
        if (sv_kind_of(meta) == SV_ARRAY)
            return drop_meta(doc, v, root, j, "an Array (its keys dropped)");
        return drop_meta(doc, v, root, j, "an Array (its meta dropped)");
    }
    if (x.packed) { /* a PackedStringArray: the marker and its records */
        if (gd_is_psa(v) && !x.type && !x.key && !x.value && !x.root) return true;
        return drop_meta(doc, v, root, j, "an Array (its meta dropped)");
    }
    if (x.key || x.value || (x.root && x.type) || (x.root && !(root && v->len == 1)))
        return drop_meta(doc, v, root, j, "an Array (its meta dropped)");
    if (!x.type) return true;
    if (!meta_names_type(g, x.type)) return drop_types(doc, v, j, "an untyped Array");
    if (!g->r.typed_arrays) {
        snprintf(j->what, sizeof j->what, "a typed Array");
        snprintf(j->why, sizeof j->why, "%s writes typed arrays untyped", g->r.fmt);
        return drop_types(doc, v, j, "an untyped Array");
    }
    return true;
}

/* The same for a Dictionary (enc_dict): typed-container entries and kept
 * bytes, repeated pairs ("dups") included. */
static bool judge_map(const gd_cv *g, sv_doc *doc, const sv_value *v, bool root, cv_judgement *j)
{
    sv_value room = sv_null();
    const sv_value *meta = value_meta(doc, v, root, &room);
    if (sv_doc_status(doc) != SV_OK) return false;
    if (!meta) return true;
    gd_extra x;
    const char *why = NULL;
    if (!gd_extra_read(meta, &x, &why) || sv_kind_of(meta) != SV_MAP || !meta->len || x.type ||
        x.packed || x.root)
        return drop_meta(doc, v, root, j, "a Dictionary (its meta dropped)");
    if (!x.key && !x.value) return true;
    if ((x.key && !meta_names_type(g, x.key)) || (x.value && !meta_names_type(g, x.value)))
        return drop_types(doc, v, j, "an untyped Dictionary");
    if (!g->r.typed_dicts) {
        snprintf(j->what, sizeof j->what, "a typed Dictionary");
        snprintf(j->why, sizeof j->why, "%s writes typed dictionaries untyped", g->r.fmt);
        return drop_types(doc, v, j, "an untyped Dictionary");
    }
    return true;
}

static bool judge_tuple(const gd_cv *g, sv_doc *doc, const sv_value *v, cv_judgement *j)
{
    unsigned t = gd_type_of_tuple_tag(sv_tag_of(v));
    if (t == GD_NONE || !has(g, t)) {
        sv_value a = cv_numbers_as_array(doc, v, 0);
        if (a.kind != SV_ARRAY) return false;
        cv_lower(j, a, "an Array of %u number%s", (unsigned)v->len, cv_plural(v->len));
        return true;
    }
    const gd_math *m = gd_math_of(t);
    if (v->len != m->scalars) {
        cv_refuse(j, "%s needs %u numbers, not %u", gd_type_name(t), m->scalars, (unsigned)v->len);
        return true;
    }
    if (m->ints) {
        if (!all_scalars(v, fits_i32)) cv_refuse(j, "a number is not an int32");
        return true;
    }
    /* godot_encode.c: f64 fields only for real_t types in 4.x, with f64
     * elements or real=double; everything else is float32 */
    bool wide = m->real && g->godot4 && (sv_elem_of(v) == SV_ELEM_F64 || g->r.real_double);
    if (wide || sv_elem_of(v) == SV_ELEM_F32) return true;
    bool exact = all_scalars(v, fits_f32);
    sv_value c = with_elem(doc, v, SV_ELEM_F32);
    if (c.kind != SV_TUPLE) return false;
    cv_lower(j, c, "%s %s of float32 numbers (rounded)", sv__core_article(gd_type_name(t)),
             gd_type_name(t));
    j->silent = exact;
    return true;
}

/* Item tuple tag of a packed shape. */
static sv_tag item_tag(sv_tag packed)
{
    switch (packed) {
    case SV_TAG_PACKED_VECTOR2: return SV_TAG_VECTOR2;
    case SV_TAG_PACKED_VECTOR3: return SV_TAG_VECTOR3;
    case SV_TAG_PACKED_COLOR: return SV_TAG_COLOR;
    case SV_TAG_PACKED_VECTOR4: return SV_TAG_VECTOR4;
    default: return SV_TAG_NONE;
    }
}

static unsigned packed_type(sv_tag tag)
{
    switch (tag) {
    case SV_TAG_PACKED_VECTOR2: return GD_PACKED_VECTOR2;
    case SV_TAG_PACKED_VECTOR3: return GD_PACKED_VECTOR3;
    case SV_TAG_PACKED_COLOR: return GD_PACKED_COLOR;
    case SV_TAG_PACKED_VECTOR4: return GD_PACKED_VECTOR4;
    default: return GD_NONE;
    }
}

static bool fits_i64(const sv_value *v)
{
    for (size_t i = 0; i < v->len; i++) {
        sv_value s = cv_scalar(v, i);
        if (s.kind == SV_UINT && s.as.u > (uint64_t)INT64_MAX) return false;
    }
    return true;
}

/* An untagged packed array: PackedByte/Int32/Int64/Float32/Float64Array. */
static bool judge_packed_plain(const gd_cv *g, sv_doc *doc, const sv_value *v, cv_judgement *j)
{
    sv_elem e = sv_elem_of(v), to;
    switch (e) {
    case SV_ELEM_U8:
    case SV_ELEM_I32:
    case SV_ELEM_F32: return true;
    case SV_ELEM_I8:
    case SV_ELEM_I16:
    case SV_ELEM_U16: to = SV_ELEM_I32; break;
    case SV_ELEM_F64:
        if (has(g, GD_PACKED_FLOAT64)) return true;
        to = SV_ELEM_F32;
        break;
    default: /* u32, i64, u64 */
        if (e == SV_ELEM_I64 && has(g, GD_PACKED_INT64)) return true;
        if (has(g, GD_PACKED_INT64) && fits_i64(v))
            to = SV_ELEM_I64;
        else if (all_scalars(v, fits_i32))
            to = SV_ELEM_I32;
        else {
            cv_refuse(j, "a number does not fit %s", has(g, GD_PACKED_INT64) ? "int64" : "int32");
            return true;
        }
    }
    bool exact = to != SV_ELEM_F32 || all_scalars(v, fits_f32);
    sv_value c = with_elem(doc, v, to);
    if (c.kind != SV_PACKED) return false;
    cv_lower(j, c, "a %s (rounded)",
             gd_type_name(to == SV_ELEM_F32 ? GD_PACKED_FLOAT32 : GD_PACKED_INT32));
    j->silent = exact; /* the same numbers in the type Godot has */
    return true;
}

static bool judge_packed(const gd_cv *g, sv_doc *doc, const sv_value *v, cv_judgement *j)
{
    sv_tag tag = sv_tag_of(v);
    if (tag == SV_TAG_NONE) return judge_packed_plain(g, doc, v, j);
    unsigned t = packed_type(tag);
    unsigned per = sv_tag_scalars(tag);
    if (t == GD_NONE || !has(g, t)) {
        /* an Array of the item type, which may be lowered in turn */
        size_t count = per ? v->len / per : 0;
        sv_value a = sv_array(doc, count);
        if (a.kind != SV_ARRAY) return false;
        size_t es = sv_elem_size(sv_elem_of(v));
        for (size_t i = 0; i < count; i++) {
            sv_value it = sv_tuple(doc, item_tag(tag), sv_elem_of(v),
                                   (const uint8_t *)sv_numbers(v) + i * per * es);
            if (it.kind != SV_TUPLE) return false;
            sv_array_items(&a)[i] = it;
        }
        cv_lower(j, a, "an Array of %zu %s%s", count, sv_tag_name(item_tag(tag)), cv_plural(count));
        return true;
    }
    bool wide =
        t != GD_PACKED_COLOR && g->godot4 && (sv_elem_of(v) == SV_ELEM_F64 || g->r.real_double);
    if (wide || sv_elem_of(v) == SV_ELEM_F32) return true;
    bool exact = all_scalars(v, fits_f32);
    sv_value c = with_elem(doc, v, SV_ELEM_F32);
    if (c.kind != SV_PACKED) return false;
    cv_lower(j, c, "%s %s of float32 numbers (rounded)", sv__core_article(gd_type_name(t)),
             gd_type_name(t));
    j->silent = exact;
    return true;
}

/* spec §5.1: a Signal is a name and a u64 object id (godot_encode.c,
 * enc_signal), written whole: its id is no Godot int, so it is not judged
 * as one. */
static bool judge_signal(const gd_cv *g, const sv_value *v, cv_judgement *j)
{
    const sv_value *it = sv_array_items(v);
    size_t bad = 0;
    if (v->len != 2 || sv_kind_of(&it[0]) != SV_STRING ||
        (sv_kind_of(&it[1]) != SV_INT && sv_kind_of(&it[1]) != SV_UINT))
        cv_refuse(j, "a Signal is [name, object id]");
    else if (!gd_string_writable(it[0].as.str, it[0].len, g->godot4, &bad))
        cv_refuse(j, "byte %zu of its name is a NUL or invalid UTF-8", bad);
    else
        j->leaf = true;
    return true;
}

static bool judge(const cv_rules *r, sv_doc *doc, const sv_value *v, cv_role role, cv_judgement *j)
{
    const gd_cv *g = r->state;
    sv_kind k = sv_kind_of(v);
    sv_tag tag = sv_tag_of(v);
    if (role == CV_ROOT && cv_is_container_root(v)) {
        sv_value m = cv_container_without_meta(doc, v, SV_MAP);
        if (m.kind != SV_MAP || (sv_meta(v) && sv_meta_set(doc, &m, *sv_meta(v)) != SV_OK))
            return false;
        cv_lower(j, m, "a Dictionary");
        j->silent = true;
        return true;
    }
    if (role == CV_ROOT && (k == SV_MAP || k == SV_ARRAY) && sv_kind_of(sv_meta(v)) == SV_MAP) {
        size_t dropped;
        sv_value c = cv_filter_meta(doc, v, keep_godot_meta, g, &dropped);
        if (c.kind != k) return false;
        if (dropped) {
            cv_lower(j, c, "the same without another format's file data");
            j->silent = true;
            return true;
        }
    }
    switch (k) {
    case SV_NULL:
        if (tag == SV_TAG_NONE || (tag == SV_TAG_RID && has(g, GD_RID)) ||
            (tag == SV_TAG_CALLABLE && has(g, GD_CALLABLE)))
            return true;
        cv_lower(j, cv_untagged(*v), "null");
        return true;
    case SV_BOOL:
        if (tag != SV_TAG_NONE) cv_lower(j, cv_untagged(*v), "a bool");
        return true;
    case SV_INT:
    case SV_UINT:
        /* spec §5.1, §5.4: an RID (4.x) and an object id are u64 on the
         * wire, so every uint is theirs; only a Godot int stops at int64 */
        if (tag == SV_TAG_OBJECT_ID) return true;
        if (tag == SV_TAG_RID && has(g, GD_RID)) {
            if (g->godot4 || v->as.u == 0) return true;
            /* spec §5.1: a 3.x RID is its type code alone */
            snprintf(j->why, sizeof j->why, "%s writes an RID without its id", g->r.fmt);
            cv_lower(j, sv_with_tag(sv_null(), SV_TAG_RID), "an RID without its id");
            return true;
        }
        if (k == SV_UINT && v->as.u > (uint64_t)INT64_MAX) {
            cv_refuse(j, "%llu is above int64", (unsigned long long)v->as.u);
            return true;
        }
        if (tag == SV_TAG_NONE) return true;
        cv_lower(j, cv_untagged(*v), "an int");
        return true;
    case SV_FLOAT:
        if (tag != SV_TAG_NONE) cv_lower(j, cv_untagged(*v), "a float");
        return true;
    case SV_STRING: {
        size_t bad = 0;
        if (!gd_string_writable(v->as.str, v->len, g->godot4, &bad)) {
            cv_refuse(j, "byte %zu is a NUL or invalid UTF-8", bad);
            return true;
        }
        if (tag == SV_TAG_NONE || tag == SV_TAG_NODE_PATH ||
            (tag == SV_TAG_STRING_NAME && has(g, GD_STRING_NAME)))
            return true;
        cv_lower(j, cv_untagged(*v), "a String");
        return true;
    }
    case SV_BYTES:
        if (tag != SV_TAG_NONE) cv_lower(j, cv_untagged(*v), "a PackedByteArray");
        return true;
    case SV_ARRAY:
        if (tag == SV_TAG_SIGNAL && has(g, GD_SIGNAL)) return judge_signal(g, v, j);
        if (tag == SV_TAG_NODE_PATH) return true;
        if (tag != SV_TAG_NONE) {
            cv_lower(j, cv_untagged(*v), "an Array");
            return true;
        }
        return judge_array(g, doc, v, role == CV_ROOT, j);
    case SV_MAP:
        if (tag != SV_TAG_NONE) {
            cv_lower(j, cv_untagged(*v), "a Dictionary");
            return true;
        }
        return judge_map(g, doc, v, role == CV_ROOT, j);
    case SV_OBJECT: {
        const sv_value *cls = sv_object_class(v);
        if (g->r.full_objects && sv_kind_of(cls) == SV_STRING && cls->len) {
            if (sv_meta(v)) return drop_meta(doc, v, false, j, "an Object (its meta dropped)");
            return true;
        }
        sv_value m = cv_container_without_meta(doc, v, SV_MAP);
        if (m.kind != SV_MAP) return false;
        if (!g->r.full_objects)
            snprintf(j->why, sizeof j->why, "a full object is written only with objects=full");
        cv_lower(j, m, "a Dictionary (the class dropped)");
        return true;
    }
    case SV_TUPLE: return judge_tuple(g, doc, v, j);
    case SV_PACKED: return judge_packed(g, doc, v, j);
    case SV_REF:
        if (v->flags & SV_F_NULLREF)
            cv_lower(j, sv_null(), "null");
        else if (v->as.u <= (uint64_t)INT64_MAX)
            cv_lower(j, sv_int((int64_t)v->as.u), "an int");
        else
            cv_refuse(j, NULL);
        return true;
    default: cv_refuse(j, NULL); return true;
    }
}

/* godot_file_meta.c: -O framing=stream, else the root's meta "framing",
 * makes the root an Array of frames, each written as a root (depth 0). */
static bool root_is_stream(const cv_rules *r, const sv_value *root)
{
    const gd_cv *g = r->state;
    if (g->framing_option) return g->stream;
    const sv_value *meta = sv_meta(root);
    const sv_value *f = sv_kind_of(meta) == SV_MAP ? sv_map_getz(meta, "framing") : NULL;
    return sv_kind_of(f) == SV_STRING && !strcmp(sv_get_str(f, NULL), "stream");
}

/* godot_file_meta.c: the root's meta names the framing, the objects mode
 * and the version the encoder uses where no -O option does, so the judge
 * uses them too. An entry the encoder refuses changes nothing here: the
 * judge drops it as another format's file data (keep_godot_meta). */
static void adopt_root(cv_rules *r, void *state, const sv_value *root)
{
    gd_cv *g = state;
    sv_godot_opts o = g->o;
    bool found;
    sv_error e;
    sv_error_clear(&e);
    if (gd_file_meta_options(g->o.profile, root, g->options, &o, &found, &e) != SV_OK || !found)
        return;
    gd_rules_init(&g->r, &o);
    r->format = g->r.fmt;
}

static sv_status godot_convert_rules(const char *name, const sv_options *opts, cv_rules *r,
                                     void *state, size_t state_size, sv_error *err)
{
    sv_godot_profile profile;
    if (!strcmp(name, "godot4"))
        profile = SV_GODOT4;
    else if (!strcmp(name, "godot3"))
        profile = SV_GODOT3;
    else if (!strcmp(name, "godot-doc"))
        profile = SV_GODOT_DOC;
    else
        return SV_ERR_NOT_FOUND;
    _Static_assert(sizeof(gd_cv) <= CV_STATE_MAX, "CV_STATE_MAX is too small for gd_cv");
    if (state_size < sizeof(gd_cv)) return SV_ERR_NOMEM;
    sv_godot_opts o;
    sv_status st = gd_opts_from_registry(profile, opts, true, &o, err);
    if (st != SV_OK) return st;
    gd_cv *g = state;
    gd_rules_init(&g->r, &o);
    g->o = o;
    g->options = opts;
    g->godot4 = g->r.prof->godot4_rules;
    g->framing_option = opts && sv_options_get(opts, "framing") != NULL;
    g->stream = o.framing == SV_GODOT_STREAM;
    r->format = g->r.fmt;
    r->noun = "Godot type";
    r->judge = judge;
    r->root_is_stream = root_is_stream;
    r->adopt_root = adopt_root;
    r->state = g;
    return SV_OK;
}

/* ---- the hooks of the Variant formats (core/format_module.h) ---- */

/* A PackedStringArray is an array whose meta is that type's name (a typed
 * array's meta is a map). */
static bool godot_describe(const sv_value *v, char *buf, size_t size)
{
    const sv_value *meta = sv_meta(v);
    if (sv_kind_of(v) != SV_ARRAY || sv_kind_of(meta) != SV_STRING ||
        strcmp(sv_get_str(meta, NULL), "PackedStringArray") != 0)
        return false;
    snprintf(buf, size, "a PackedStringArray");
    return true;
}

/* The root meta godot_file_meta.c writes about the file, not a value. */
static const char *const godot_file_keys[] = {"format",  "framing", "prefix",
                                              "objects", "version", NULL};

const sv_format_hooks sv_format_hooks_godot = {
    .convert_rules = godot_convert_rules,
    .file_meta_keys = godot_file_keys,
    .describe = godot_describe,
};

/* godot-res, godot-enc, godot-project: the container data their decoders put
 * in the root meta (godot_res_decode.c, godot_gdec_format.c, godot_ecfg.c). */
static const char *const godot_files_keys[] = {"format", "compression", "container", NULL};

const sv_format_hooks sv_format_hooks_godot_files = {.file_meta_keys = godot_files_keys};
