/* The format registry's format-free half: lookup by name, detection by
 * content (each format's probe) and by file extension over a table it is
 * handed, and the option helpers. Which formats exist is the registry's
 * table (core/format_module.h), which the formats layer fills from the
 * manifest (src/formats/builtin_formats.c). Options reach a format as
 * "name=value" pairs; the two helpers at the end read them. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/format_module.h"
#include "core/format_table.h"
#include "core/opts.h"
#include "serval/registry.h"

/* ---- lookup and detection ------------------------------------------------- */

const sv_format *sv__core_format_table_find(const sv_format *const *table, size_t count,
                                            const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < count; i++)
        if (strcmp(table[i]->name, name) == 0) return table[i];
    return NULL;
}

static unsigned char ascii_lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Whether filename ends in "." + ext, ignoring ASCII case. Comparing the
 * tail (not the text after the last dot) lets an extension hold a dot of its
 * own ("tar.gz"). A name that is only ".ext" (a hidden file) does not count. */
static bool has_extension(const char *filename, const char *ext)
{
    size_t n = strlen(filename), e = strlen(ext);
    if (e == 0 || n < e + 2) return false;
    const char *tail = filename + n - e;
    if (tail[-1] != '.' || tail[-2] == '/') return false;
    for (size_t i = 0; i < e; i++)
        if (ascii_lower((unsigned char)tail[i]) != ascii_lower((unsigned char)ext[i])) return false;
    return true;
}

static bool matches_extension(const sv_format *f, const char *filename)
{
    if (!filename || !f->extensions) return false;
    for (const char *const *e = f->extensions; *e; e++)
        if (has_extension(filename, *e)) return true;
    return false;
}

/* The content decides first: a format whose probe says 0 is ruled out, even
 * when the extension fits (a ".json" file full of zeros is not JSON). The
 * extension breaks ties between equal scores, and alone picks a format that
 * has no probe. Among full ties the earlier table entry wins. */
const sv_format *sv__core_format_table_detect(const sv_format *const *table, size_t count,
                                              const uint8_t *data, size_t len, const char *filename)
{
    const sv_format *best = NULL;
    int best_score = -1;
    bool best_ext = false;

    for (size_t i = 0; i < count; i++) {
        const sv_format *f = table[i];
        bool ext = matches_extension(f, filename);
        int score = 0;
        if (f->probe) {
            score = f->probe(data ? data : (const uint8_t *)"", data ? len : 0);
            if (score <= 0) continue;
        } else if (!ext) {
            continue;
        }
        if (score > best_score || (score == best_score && ext && !best_ext)) {
            best = f;
            best_score = score;
            best_ext = ext;
        }
    }
    return best;
}

/* Whether a ranks before b: higher score, then the extension. Equal ones
 * keep table order (insertion below is stable). */
static bool ranks_before(const sv_format_candidate *a, const sv_format_candidate *b)
{
    if (a->score != b->score) return a->score > b->score;
    return a->by_extension && !b->by_extension;
}

size_t sv__core_format_table_detect_all(const sv_format *const *table, size_t count,
                                        const uint8_t *data, size_t len, const char *filename,
                                        sv_format_candidate *out, size_t max)
{
    size_t found = 0, kept = 0;
    if (!out) max = 0;
    for (size_t i = 0; i < count; i++) {
        const sv_format *f = table[i];
        sv_format_candidate c = {f, 0, matches_extension(f, filename)};
        if (f->probe) {
            c.score = f->probe(data ? data : (const uint8_t *)"", data ? len : 0);
            if (c.score <= 0) continue;
        } else if (!c.by_extension) {
            continue;
        }
        found++;
        /* insertion into the kept (sorted) list; the worst falls off */
        size_t at = kept;
        while (at > 0 && ranks_before(&c, &out[at - 1])) at--;
        if (at >= max) continue;
        size_t last = kept < max ? kept : max - 1;
        for (size_t j = last; j > at; j--) out[j] = out[j - 1];
        out[at] = c;
        if (kept < max) kept++;
    }
    return found;
}

/* ---- the formats built in (sv__builtin_registry) -------------------------- */

const sv_format *const *sv_formats(size_t *count)
{
    if (count) *count = sv__builtin_registry.format_count;
    return sv__builtin_registry.formats;
}

const sv_format *sv_format_find(const char *name)
{
    return sv__core_format_table_find(sv__builtin_registry.formats,
                                      sv__builtin_registry.format_count, name);
}

const sv_format *sv_format_detect(const uint8_t *data, size_t len, const char *filename)
{
    return sv__core_format_table_detect(sv__builtin_registry.formats,
                                        sv__builtin_registry.format_count, data, len, filename);
}

size_t sv_format_detect_all(const uint8_t *data, size_t len, const char *filename,
                            sv_format_candidate *out, size_t max)
{
    return sv__core_format_table_detect_all(sv__builtin_registry.formats,
                                            sv__builtin_registry.format_count, data, len, filename,
                                            out, max);
}

bool sv_format_candidates_ambiguous(const sv_format_candidate *c, size_t n)
{
    return c && n >= 2 && c[0].score == c[1].score && c[0].by_extension == c[1].by_extension;
}

/* ---- options ---------------------------------------------------------------- */

/* The last occurrence wins, so a caller can put defaults first and let the
 * user's options (appended after them) override them. */
const char *sv_options_get(const sv_options *opts, const char *name)
{
    /* a struct_size that stops before the pairs carries none (core/opts.h) */
    if (!sv__core_options_usable(opts) || !name || !opts->names) return NULL;
    for (size_t i = opts->count; i-- > 0;) {
        if (opts->names[i] && strcmp(opts->names[i], name) == 0) {
            const char *v = opts->values ? opts->values[i] : NULL;
            return v ? v : "";
        }
    }
    return NULL;
}

bool sv_options_flag(const sv_options *opts, const char *name, bool def)
{
    const char *v = sv_options_get(opts, name);
    if (!v) return def;
    if (!strcmp(v, "") || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) return true;
    if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) return false;
    return def;
}
