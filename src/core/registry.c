/* The format registry: one static table of every format serval knows.
 *
 * The CLI (and any embedding program) finds formats only through this table:
 * by name, by content (each format's probe) and by file extension. Options
 * reach a format as "name=value" pairs; the two helpers below read them. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "serval/registry.h"

/* ---- the table ------------------------------------------------------------
 *
 * To add a format: define `const sv_format sv_format_<name>` in
 * src/formats/<name>/, add its extern line here and its address to
 * `formats[]` below. The order of the table is the order `serval formats`
 * prints and the tie-break order of detection, so append, do not insert. */
extern const sv_format sv_format_json;
extern const sv_format sv_format_godot4;
extern const sv_format sv_format_godot3;
extern const sv_format sv_format_godot_doc;
extern const sv_format sv_format_resonite;
extern const sv_format sv_format_bson;
extern const sv_format sv_format_noesis;
extern const sv_format sv_format_kingsisle;
extern const sv_format sv_format_kingsisle_xml;

static const sv_format *const formats[] = {
    &sv_format_json,
    &sv_format_godot4,
    &sv_format_godot3,
    &sv_format_godot_doc,
    &sv_format_resonite,
    &sv_format_bson,
    &sv_format_noesis,
    &sv_format_kingsisle,
    &sv_format_kingsisle_xml,
};

#define FORMAT_COUNT (sizeof formats / sizeof formats[0])

const sv_format *const *sv_formats(size_t *count)
{
    if (count) *count = FORMAT_COUNT;
    return formats;
}

const sv_format *sv_format_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        if (strcmp(formats[i]->name, name) == 0) return formats[i];
    return NULL;
}

/* ---- detection ------------------------------------------------------------ */

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
const sv_format *sv_format_detect(const uint8_t *data, size_t len, const char *filename)
{
    const sv_format *best = NULL;
    int best_score = -1;
    bool best_ext = false;

    for (size_t i = 0; i < FORMAT_COUNT; i++) {
        const sv_format *f = formats[i];
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

/* ---- options ---------------------------------------------------------------- */

/* The last occurrence wins, so a caller can put defaults first and let the
 * user's options (appended after them) override them. */
const char *sv_options_get(const sv_options *opts, const char *name)
{
    if (!opts || !name || !opts->names) return NULL;
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
