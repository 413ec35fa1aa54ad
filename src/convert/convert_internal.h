/* The rules of one target format for sv_convert_lower (convert.c walks the
 * tree, a rules module judges each value).
 *
 * A judge looks at one value and says whether the target writes it exactly,
 * which nearer form the target has (a lowered value built in the walk's
 * document, which the walk judges again and walks into), or that there is
 * none. It judges the value itself, not its children: the walk visits those.
 * A container's own meta (typed-container data, array keys) and tag are the
 * container's, so the judge of the container handles them. */
#ifndef SERVAL_CONVERT_INTERNAL_H
#define SERVAL_CONVERT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "serval/convert.h"
#include "serval/registry.h"
#include "serval/value.h"

typedef enum cv_role {
    CV_ROOT, /* the whole tree */
    CV_ITEM, /* an array item or a map/object value */
    CV_KEY   /* a map key (object field names are keys too) */
} cv_role;

typedef enum cv_verdict { CV_EXACT, CV_LOWER, CV_REFUSE } cv_verdict;

#define CV_TEXT_MAX 160

typedef struct cv_judgement {
    cv_verdict verdict;
    /* The value, as messages name it: "" for the walk's own description
     * (cv_describe), or the judge's. */
    char what[CV_TEXT_MAX];
    char becomes[CV_TEXT_MAX]; /* CV_LOWER: its nearer form */
    char why[CV_TEXT_MAX];     /* CV_REFUSE: optional reason after "has no ..." */
    sv_value lowered;          /* CV_LOWER: the nearer form */
    /* CV_LOWER that changes no value, so is not reported: a number put in
     * the target's wider type, or the source file's container data in the
     * root's meta (framing, compression), which the target does not use. */
    bool silent;
    /* CV_EXACT of a container the target writes as one value, not as a
     * container of values (a Godot Signal: a name and an unsigned object
     * id): the walk does not judge its items on their own. */
    bool leaf;
} cv_judgement;

typedef struct cv_rules cv_rules;
struct cv_rules {
    const char *format; /* the target's name, for errors */
    const char *noun;   /* "Godot type": "<what> has no <noun>" */
    /* Judges v (j->what starts empty). Returns false
     * only when memory ran out. */
    bool (*judge)(const cv_rules *r, sv_doc *doc, const sv_value *v, cv_role role, cv_judgement *j);
    const void *state; /* the module's own settings */
    /* A root array is a stream of roots (BSON documents one after the
     * other): its items are judged as CV_ROOT. */
    bool root_array_is_stream;
    /* The same asked of one tree, when the target decides it per tree (a
     * Godot root whose meta says framing "stream"); may be NULL. */
    bool (*root_is_stream)(const cv_rules *r, const sv_value *root);
    /* Called once before the walk, with the module's state: the target
     * takes what the tree's root says about the file (a Godot root whose
     * meta says "objects": "full"); may be NULL. */
    void (*adopt_root)(cv_rules *r, void *state, const sv_value *root);
    /* Every tree is exact (typed JSON writes everything): no walk. */
    bool all_exact;
};

/* ---- helpers for the judges (convert.c) ---- */

/* "an int tagged datetime", "a vector3", "an object of class Player". */
void cv_describe(const sv_value *v, char *buf, size_t size);
/* Sets j to CV_LOWER to `lowered`, described printf-style. */
void cv_lower(cv_judgement *j, sv_value lowered, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Sets j to CV_REFUSE with an optional reason (fmt may be NULL). */
void cv_refuse(cv_judgement *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "s" unless n is 1, for counts in messages. */
static inline const char *cv_plural(size_t n)
{
    return n == 1 ? "" : "s";
}
/* v without its tag. */
sv_value cv_untagged(sv_value v);
/* A copy of a container (array, map or object) with its items, without its
 * meta (and for an object: as a map of its fields). NULL-kind on no memory. */
sv_value cv_container_without_meta(sv_doc *doc, const sv_value *v, sv_kind as);
/* The scalars of a tuple or packed value as an array of numbers, per items
 * grouped in arrays of `per` (per 0 or 1: flat), each number made in elem
 * (F32/F64 as floats, others as ints). */
sv_value cv_numbers_as_array(sv_doc *doc, const sv_value *v, unsigned per);
/* Whether key (a meta entry's key) names data about a file's container
 * rather than a value: one of the keys the formats' hooks list (format,
 * framing, compression, ...). */
bool cv_is_file_key(const sv_value *key);
/* Whether v is a root object whose class only marks a file's container (a
 * format's hooks name such classes): it marks the container, not a value. */
bool cv_is_container_root(const sv_value *v);
/* The name a format gives v by its own meta ("a PackedStringArray"), into
 * buf; false when no format's hooks name it. */
bool cv_describe_by_formats(const sv_value *v, char *buf, size_t size);
/* A copy of the container v whose meta keeps only the entries that keep()
 * accepts (without meta when none is left); *dropped gets how many went.
 * v itself when none went. NULL-kind on no memory. */
sv_value cv_filter_meta(sv_doc *doc, const sv_value *v,
                        bool (*keep)(const sv_pair *entry, const void *state), const void *state,
                        size_t *dropped);
/* One scalar of a tuple or packed value as a value of its element type. */
sv_value cv_scalar(const sv_value *v, size_t i);

/* ---- options ---- */

/* *out = the defaults, overlaid with the members of opts (NULL: none) that
 * fit in its struct_size (core/opts.h). SV_ERR_USAGE for one too small. */
sv_status cv_opts_read(sv_convert_opts *out, const sv_convert_opts *opts, sv_error *err);

/* ---- conversions without a tree (convert_transcode*.c) ---- */

/* What a transcoder falls back on: decode data into doc (borrowing the
 * input, as the command's decode does), then sv_convert_encode with opts
 * (read by cv_opts_read), with the errors `serval conv` reports for that
 * path: the decoder's with its offset, the encoder's without one. doc is
 * a scratch document, empty on return. */
sv_status sv__convert_via_tree(sv_doc *doc, const sv_format *from, const sv_format *to,
                               const uint8_t *data, size_t len, const sv_options *in_opts,
                               const sv_convert_opts *opts, sv_buf *out, sv_error *err);

/* ---- the rules modules ---- */

/* Each format's rules are its hooks' convert_rules (core/format_module.h):
 * it fills *r for the named format and returns SV_OK, SV_ERR_USAGE (a bad
 * format option, err set), or SV_ERR_NOT_FOUND when the name is not its. */

/* Room any module needs for its state. */
#define CV_STATE_MAX 256

#endif
