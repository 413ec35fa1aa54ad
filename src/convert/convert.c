/* sv_convert_lower and sv_convert_check: one walk over the whole tree that
 * asks the target's rules about every value (convert_internal.h).
 *
 * The walk keeps going after a refusal so that a caller with a callback
 * hears of every value in one run. A value the rules lower is judged again
 * (a packed_vector4 lowered to an array of vector4 tuples, whose items are
 * lowered in turn where the target has no Vector4) and then walked into,
 * so a field of an object that became a map is judged too. Only containers
 * whose items changed are copied: the rest of the lowered tree is the
 * source's own values. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convert/convert_internal.h"
#include "core/article.h"
#include "core/compiler.h"
#include "core/format_module.h"
#include "core/walk.h"

/* Deeper than any decoder lets a tree grow (their default limit is 1024). */
#define CV_MAX_DEPTH 4096u
/* Lowering rounds for one value (a packed array to tuples to numbers). */
#define CV_MAX_ROUNDS 4

typedef struct cv_walk {
    sv_doc *doc;
    const cv_rules *r;
    bool lossy;
    sv_convert_fn report;
    void *report_ctx;
    sv_error *err;
    size_t lowered;  /* values replaced (lossy) */
    size_t problems; /* values that make the conversion fail */
    size_t inexact;  /* values not exact, whatever the mode */
    sv_status st;    /* SV_ERR_NOMEM, _LIMIT or _DEPTH: the walk is over */
    bool stop;       /* no callback: the first problem ends the walk */
    /* The JSON Pointer of a value that is reported, made from its cv_step
     * chain only then: most values are exact, and keeping a path stack for
     * every value would cost more than the check itself. */
    sv_path path;
} cv_walk;

/* One level of the way from the root to the value being judged, on the
 * walk's own C stack: the entry's key (a string key names the level) or its
 * index. Linking it costs two stores per value; the path is rendered from
 * the chain only when a value is not exact. */
typedef struct cv_step {
    const struct cv_step *up; /* the container's own step; NULL at the root */
    const sv_value *key;      /* a map or object entry's key, or NULL */
    size_t index;
} cv_step;

/* ---- helpers for the judges ---- */

/* sv__core_article, but "a" before the names that start with a "you" sound
 * (uint, uuid, url, u8). */
static const char *article(const char *word)
{
    return word && (word[0] == 'u' || word[0] == 'U') ? "a" : sv__core_article(word);
}

void cv_describe(const sv_value *v, char *buf, size_t size)
{
    sv_kind k = sv_kind_of(v);
    const char *tag = sv_tag_name(sv_tag_of(v));
    if (k == SV_TUPLE) {
        if (*tag)
            snprintf(buf, size, "%s %s", article(tag), tag);
        else
            snprintf(buf, size, "a tuple of %u number%s", (unsigned)v->len, cv_plural(v->len));
    } else if (k == SV_PACKED) {
        unsigned per = sv_tag_scalars(sv_tag_of(v));
        if (*tag && per)
            snprintf(buf, size, "%s %s of %u item%s", article(tag), tag, (unsigned)(v->len / per),
                     cv_plural(v->len / per));
        else
            snprintf(buf, size, "a packed array of %u %s number%s", (unsigned)v->len,
                     sv_elem_name(sv_elem_of(v)), cv_plural(v->len));
    } else if (k == SV_OBJECT) {
        const sv_value *cls = sv_object_class(v);
        if (sv_kind_of(cls) == SV_STRING)
            snprintf(buf, size, "an object of class %.100s", sv_get_str(cls, NULL));
        else
            snprintf(buf, size, "an object of class hash %llu",
                     (unsigned long long)sv_get_uint(cls));
    } else if (k == SV_REF && (v->flags & SV_F_NULLREF)) {
        snprintf(buf, size, "a null ref");
    } else if (*tag) {
        snprintf(buf, size, "%s %s tagged %s", article(sv_kind_name(k)), sv_kind_name(k), tag);
    } else {
        snprintf(buf, size, "%s %s", article(sv_kind_name(k)), sv_kind_name(k));
    }
}

void cv_lower(cv_judgement *j, sv_value lowered, const char *fmt, ...)
{
    j->verdict = CV_LOWER;
    j->lowered = lowered;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->becomes, sizeof j->becomes, fmt, ap);
    va_end(ap);
}

void cv_refuse(cv_judgement *j, const char *fmt, ...)
{
    j->verdict = CV_REFUSE;
    j->why[0] = 0;
    if (!fmt) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->why, sizeof j->why, fmt, ap);
    va_end(ap);
}

sv_value cv_untagged(sv_value v)
{
    return sv_with_tag(v, SV_TAG_NONE);
}

sv_value cv_container_without_meta(sv_doc *doc, const sv_value *v, sv_kind as)
{
    sv_kind k = sv_kind_of(v);
    sv_value c;
    if (k == SV_ARRAY) {
        c = sv_array(doc, v->len);
        if (c.kind != SV_ARRAY) return sv_null();
        if (v->len) memcpy(sv_array_items(&c), sv_array_items(v), v->len * sizeof(sv_value));
    } else {
        if (as == SV_OBJECT) {
            const sv_value *cls = sv_object_class(v);
            c = sv_object(doc, cls ? *cls : sv_null(), v->len);
        } else {
            c = sv_map(doc, v->len);
        }
        if (c.kind != as) return sv_null();
        /* Field by field through the accessors: v may be a compact object
         * (names in a shared shape, no pairs); c is new, in the pair form. */
        const sv_value src = *v;
        sv_pair *dst = sv_pairs(&c);
        for (uint32_t i = 0; i < src.len; i++) {
            dst[i].key = *sv_key_at(&src, i);
            dst[i].val = *sv_val_at(&src, i);
        }
    }
    return c;
}

/* The formats' hooks (core/format_module.h), those that are there. */
#define FOR_EACH_HOOKS(h)                                                                          \
    for (size_t h##_i = 0; h##_i < sv__builtin_registry.hook_count; h##_i++)                       \
        for (const sv_format_hooks *h = sv__builtin_registry.hooks[h##_i]; h; h = NULL)

bool cv_is_file_key(const sv_value *key)
{
    size_t n;
    const char *s = sv_get_str(key, &n);
    if (sv_kind_of(key) != SV_STRING) return false;
    FOR_EACH_HOOKS(h)
    {
        for (const char *const *k = h->file_meta_keys; k && *k; k++)
            if (strlen(*k) == n && !memcmp(*k, s, n)) return true;
    }
    return false;
}

bool cv_is_container_root(const sv_value *v)
{
    const sv_value *cls = sv_object_class(v);
    if (sv_kind_of(v) != SV_OBJECT || sv_kind_of(cls) != SV_STRING) return false;
    const char *name = sv_get_str(cls, NULL);
    FOR_EACH_HOOKS(h)
    {
        if (h->container_root_class && !strcmp(h->container_root_class, name)) return true;
    }
    return false;
}

bool cv_describe_by_formats(const sv_value *v, char *buf, size_t size)
{
    FOR_EACH_HOOKS(h)
    {
        if (h->describe && h->describe(v, buf, size)) return true;
    }
    return false;
}

sv_value cv_filter_meta(sv_doc *doc, const sv_value *v,
                        bool (*keep)(const sv_pair *entry, const void *state), const void *state,
                        size_t *dropped)
{
    *dropped = 0;
    const sv_value *meta = sv_meta(v);
    if (sv_kind_of(meta) != SV_MAP) return *v;
    sv_value rest = sv_map(doc, 0);
    for (uint32_t i = 0; i < meta->len; i++) {
        /* keep() judges a pair; a copy, so the map's layout stays its own */
        const sv_pair entry = {*sv_key_at(meta, i), *sv_val_at(meta, i)};
        if (!keep(&entry, state))
            (*dropped)++;
        else if (sv_map_append(doc, &rest, entry.key, entry.val) != SV_OK)
            return sv_null();
    }
    if (!*dropped) return *v;
    sv_kind k = sv_kind_of(v);
    sv_value c = cv_container_without_meta(doc, v, k);
    if (c.kind != k) return sv_null();
    if (rest.len && sv_meta_set(doc, &c, rest) != SV_OK) return sv_null();
    return sv_with_flags(sv_with_tag(c, sv_tag_of(v)), v->flags);
}

sv_value cv_scalar(const sv_value *v, size_t i)
{
    const uint8_t *p = (const uint8_t *)sv_numbers(v) + i * sv_elem_size(sv_elem_of(v));
    switch (sv_elem_of(v)) {
    case SV_ELEM_F32: {
        float f;
        memcpy(&f, p, 4);
        return sv_f32(f);
    }
    case SV_ELEM_F64: {
        double d;
        memcpy(&d, p, 8);
        return sv_f64(d);
    }
    case SV_ELEM_U64: {
        uint64_t u;
        memcpy(&u, p, 8);
        return sv_uint(u);
    }
    case SV_ELEM_I64: {
        int64_t x;
        memcpy(&x, p, 8);
        return sv_int(x);
    }
    default: return sv_int((int64_t)sv_number_at(v, i)); /* every narrower int fits a double */
    }
}

sv_value cv_numbers_as_array(sv_doc *doc, const sv_value *v, unsigned per)
{
    size_t n = sv_len(v);
    if (per <= 1) {
        sv_value a = sv_array(doc, n);
        if (a.kind != SV_ARRAY) return sv_null();
        sv_value *items = sv_array_items(&a);
        for (size_t i = 0; i < n; i++) items[i] = cv_scalar(v, i);
        return a;
    }
    size_t count = n / per;
    sv_value a = sv_array(doc, count);
    if (a.kind != SV_ARRAY) return sv_null();
    for (size_t i = 0; i < count; i++) {
        sv_value item = sv_array(doc, per);
        if (item.kind != SV_ARRAY) return sv_null();
        for (unsigned s = 0; s < per; s++) sv_array_items(&item)[s] = cv_scalar(v, i * per + s);
        sv_array_items(&a)[i] = item;
    }
    return a;
}

/* ---- the rules of a target ---- */

typedef struct cv_target {
    cv_rules rules;
    bool known; /* false: the target's encoder checks its own types */
    bool all;   /* JSON: every tree is exact */
    _Alignas(8) unsigned char state[CV_STATE_MAX];
} cv_target;

static sv_status target_rules(const sv_format *to, const sv_options *opts, cv_target *t,
                              sv_error *err)
{
    memset(&t->rules, 0, sizeof t->rules);
    t->known = t->all = false;
    const char *name = to ? to->name : "";
    /* The format whose hooks claim the name gives the rules; a format none
     * claims has none, and its encoder checks the types itself. */
    FOR_EACH_HOOKS(h)
    {
        if (!h->convert_rules) continue;
        sv_status st = h->convert_rules(name, opts, &t->rules, t->state, sizeof t->state, err);
        if (st != SV_ERR_NOT_FOUND) {
            t->known = st == SV_OK;
            t->all = t->known && t->rules.all_exact;
            return st;
        }
    }
    return SV_OK;
}

bool sv_convert_knows(const sv_format *to)
{
    cv_target t;
    sv_error e;
    sv_error_clear(&e);
    return to && target_rules(to, NULL, &t, &e) == SV_OK && t.known;
}

/* ---- the walk ---- */

/* Pushes the levels of at, outermost first, onto path. Recursion as deep
 * as the walk's own, which reached this value. */
static bool push_steps(sv_path *path, const cv_step *at)
{
    if (!at) return true;
    return push_steps(path, at->up) && sv__core_path_push_entry(path, at->key, at->index);
}

/* w->path set to the way to the value at at; false when out of memory. */
static bool path_of(cv_walk *w, const cv_step *at)
{
    while (w->path.depth) sv__core_path_pop(&w->path);
    return push_steps(&w->path, at);
}

/* Reports a value that is not exact; a problem when refused or not lossy. */
static void note(cv_walk *w, const cv_judgement *j, const cv_step *at)
{
    bool refused = j->verdict == CV_REFUSE;
    bool problem = refused || !w->lossy;
    char msg[3 * CV_TEXT_MAX + 32];
    if (problem)
        snprintf(msg, sizeof msg, "%s has no %s%s%s", j->what, w->r->noun, j->why[0] ? ": " : "",
                 j->why);
    else
        snprintf(msg, sizeof msg, "%s became %s", j->what, j->becomes);
    const char *path = path_of(w, at) ? sv__core_path_render(&w->path) : NULL;
    if (!path) {
        w->st = sv_error_set(w->err, SV_ERR_NOMEM, w->r->format, 0, "out of memory (path)");
        return;
    }
    w->inexact++;
    if (problem) {
        if (w->problems++ == 0) {
            sv_status st = sv_error_set(w->err, SV_ERR_UNSUPPORTED, w->r->format, 0, "%s", msg);
            (void)st;
            if (w->err) {
                w->err->byte_offset = SV_ERROR_NO_OFFSET;
                sv__core_path_render_into(&w->path, w->err->path, sizeof w->err->path);
            }
        }
        if (!w->report) w->stop = true;
    } else {
        w->lowered++;
    }
    if (w->report) {
        sv_convert_change c = {path, j->what, refused ? NULL : j->becomes, msg, refused};
        w->report(w->report_ctx, &c);
    }
}

static bool walk(cv_walk *w, const sv_value *v, cv_role role, unsigned depth, const cv_step *at,
                 sv_value *out);

/* The items of an array or the pairs of a map/object; a copy of cur is made
 * the first time one of them changes. */
static bool walk_children(cv_walk *w, sv_value *cur, cv_role role, unsigned depth,
                          const cv_step *at)
{
    bool stream = role == CV_ROOT && (w->r->root_array_is_stream ||
                                      (w->r->root_is_stream && w->r->root_is_stream(w->r, cur)));
    cv_role item_role = stream ? CV_ROOT : CV_ITEM;
    sv_kind k = sv_kind_of(cur);
    bool copied = false;
    sv_value copy = sv_null();
    for (size_t i = 0; i < cur->len && !w->stop && w->st == SV_OK; i++) {
        if (k == SV_ARRAY) {
            cv_step step = {at, NULL, i};
            sv_value item;
            bool changed = walk(w, sv_array_at(cur, i), item_role, depth + 1, &step, &item);
            if (!changed) continue;
            if (!copied) {
                copy = cv_container_without_meta(w->doc, cur, SV_ARRAY);
                if (copy.kind != SV_ARRAY) return false;
                copied = true;
            }
            sv_array_items(&copy)[i] = item;
        } else {
            const sv_value *pkey = sv_key_at(cur, i);
            cv_step step = {at, pkey, i};
            sv_value key, val;
            bool kc = walk(w, pkey, CV_KEY, depth + 1, &step, &key);
            bool vc = walk(w, sv_val_at(cur, i), CV_ITEM, depth + 1, &step, &val);
            if (!kc && !vc) continue;
            if (!copied) {
                copy = cv_container_without_meta(w->doc, cur, k);
                if (copy.kind != k) return false;
                copied = true;
            }
            sv_pairs(&copy)[i].key = key;
            sv_pairs(&copy)[i].val = val;
        }
    }
    if (!copied) return true;
    const sv_value *meta = sv_meta(cur);
    if (meta && sv_meta_set(w->doc, &copy, *meta) != SV_OK) return false;
    *cur = sv_with_flags(sv_with_tag(copy, sv_tag_of(cur)), cur->flags);
    return true;
}

/* Judges *cur and lowers it while its rules say so. Its own function, kept
 * out of line, so that the judgement's text buffers are not on the stack of
 * every level of the walk's recursion. Returns false when the walk must not
 * go into the value (refused, stopped or out of memory). */
static SV_NOINLINE bool settle(cv_walk *w, sv_value *cur, cv_role role, const cv_step *at,
                               bool *changed, bool *leaf)
{
    for (int round = 0;; round++) {
        cv_judgement j;
        j.verdict = CV_EXACT;
        j.silent = j.leaf = false;
        j.what[0] = j.becomes[0] = j.why[0] = 0;
        if (round == CV_MAX_ROUNDS) {
            cv_refuse(&j, "its nearest form is not settled");
        } else if (!w->r->judge(w->r, w->doc, cur, role, &j)) {
            w->st = sv_error_set(w->err, SV_ERR_NOMEM, w->r->format, 0, "out of memory");
            return false;
        }
        if (j.verdict == CV_EXACT) {
            *leaf = j.leaf;
            return true;
        }
        /* described only when not exact: most values are, and the text costs */
        if (!j.what[0]) cv_describe(cur, j.what, sizeof j.what);
        if (!(j.verdict == CV_LOWER && j.silent)) note(w, &j, at);
        if (j.verdict == CV_REFUSE || w->stop) return false;
        *cur = j.lowered;
        *changed = true;
    }
}

/* Judges v, lowers it while its rules say so, walks into what it became.
 * Returns whether *out differs from *v. */
static bool walk(cv_walk *w, const sv_value *v, cv_role role, unsigned depth, const cv_step *at,
                 sv_value *out)
{
    *out = *v;
    if (w->stop || w->st != SV_OK) return false;
    if (depth > CV_MAX_DEPTH) {
        w->st = sv_error_set(w->err, SV_ERR_DEPTH, w->r->format, 0, "nesting deeper than %u",
                             CV_MAX_DEPTH);
        return false;
    }
    sv_value cur = *v;
    bool changed = false, leaf = false;
    if (!settle(w, &cur, role, at, &changed, &leaf)) return false;
    sv_kind k = sv_kind_of(&cur);
    if (!leaf && (k == SV_ARRAY || k == SV_MAP || k == SV_OBJECT)) {
        sv_value before = cur;
        if (!walk_children(w, &cur, role, depth, at)) {
            if (w->st == SV_OK)
                w->st = sv_error_set(w->err, SV_ERR_NOMEM, w->r->format, 0, "out of memory");
            return false;
        }
        changed |= memcmp(&before, &cur, sizeof cur) != 0;
    }
    *out = cur;
    return changed;
}

static sv_status run(sv_doc *doc, const sv_format *to, const sv_value *root,
                     const sv_convert_opts *caller, bool lossy_allowed, sv_value *out,
                     size_t *lowered, size_t *inexact, sv_error *err)
{
    if (lowered) *lowered = 0;
    if (inexact) *inexact = 0;
    if (out) *out = root ? *root : sv_null();
    sv_convert_opts o;
    sv_status ost = cv_opts_read(&o, caller, err);
    if (ost != SV_OK) return ost;
    if (!to || !root)
        return sv_error_set(err, SV_ERR_USAGE, "convert", 0, "no target format or no tree");
    cv_target t;
    sv_status st = target_rules(to, o.format_options, &t, err);
    if (st != SV_OK) return st;
    if (!t.known || t.all) return SV_OK;
    if (t.rules.adopt_root) t.rules.adopt_root(&t.rules, t.state, root);

    cv_walk *w = sv_doc_alloc(doc, sizeof *w);
    if (!w) return sv_error_set(err, SV_ERR_NOMEM, to->name, 0, "out of memory");
    memset(w, 0, sizeof *w);
    w->doc = doc;
    w->r = &t.rules;
    w->lossy = lossy_allowed && o.lossy;
    w->report = o.report;
    w->report_ctx = o.report_ctx;
    w->err = err;
    sv__core_path_init(&w->path, NULL);
    sv_value res;
    walk(w, root, CV_ROOT, 0, NULL, &res);
    sv__core_path_free(&w->path);
    if (lowered) *lowered = w->lowered;
    if (inexact) *inexact = w->inexact;
    if (w->st != SV_OK) return w->st;
    if (w->problems) return SV_ERR_UNSUPPORTED;
    if (out) *out = res;
    return SV_OK;
}

sv_status sv_convert_lower(sv_doc *doc, const sv_format *to, const sv_value *root,
                           const sv_convert_opts *opts, sv_value *out, size_t *changes,
                           sv_error *err)
{
    if (!doc || !out) return sv_error_set(err, SV_ERR_USAGE, "convert", 0, "no document or output");
    return run(doc, to, root, opts, true, out, changes, NULL, err);
}

sv_status sv_convert_check(const sv_format *to, const sv_value *root, const sv_convert_opts *opts,
                           size_t *count, sv_error *err)
{
    /* lowered values are made to walk into them, then dropped */
    sv_doc *scratch = sv_doc_new(NULL);
    if (!scratch) return sv_error_set(err, SV_ERR_NOMEM, "convert", 0, "out of memory");
    sv_status st = run(scratch, to, root, opts, false, NULL, NULL, count, err);
    sv_doc_free(scratch);
    return st;
}
