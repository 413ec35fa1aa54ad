/* Finding formats and decoding files for dump, conv and validate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_detect.h"
#include "cli_diag.h"
#include "cli_doc.h"
#include "serval/config.h"
#include "serval/godot.h"

/* "json, godot4, ..." into buf (truncated if it must be). */
static const char *format_names(char *buf, size_t size)
{
    size_t count = 0, used = 0;
    const sv_format *const *all = sv_formats(&count);
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", all[i]->name);
        if (n < 0) break;
        used += (size_t)n;
    }
    return buf;
}

int cli_find_format(const char *name, const sv_format **out)
{
    char names[512];
    *out = sv_format_find(name);
    if (*out) return 0;
    /* a name on the command line: a usage error */
    cli_error("unknown format '%s' (known formats: %s)", name, format_names(names, sizeof names));
    return cli_exit_code(SV_ERR_USAGE);
}

const sv_format *cli_format_by_extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot || !dot[1]) return NULL;
    size_t count = 0;
    const sv_format *const *all = sv_formats(&count);
    for (size_t i = 0; i < count; i++)
        for (const char *const *e = all[i]->extensions; e && *e; e++)
            if (strcasecmp(*e, dot + 1) == 0) return all[i];
    return NULL;
}

bool cli_format_is_text(const sv_format *f)
{
    return strcmp(f->name, "json") == 0;
}

int cli_input_format(const char *from, const char *path, const cli_input *in, const sv_format **out)
{
    if (from) return cli_find_format(from, out);
    /* an input that fits several formats equally is refused, not guessed */
    return cli_detect_pick(cli_display_name(path), cli_is_stdio(path) ? NULL : path, in->data,
                           in->len, out);
}

/* The status to report for a failed codec call: the one err recorded, or,
 * when the codec failed without saying why, st with a line that says so. */
static sv_status ensure_error(sv_error *err, sv_status st, const sv_format *f, const char *what)
{
    if (err->status != SV_OK) return err->status;
    return sv_error_set(err, st, f->name, 0, "%s", what);
}

/* ---- one document per batch worker ---------------------------------------------- */

/* The document of the thread's batch worker, reset between its files, and
 * whether a file's tree is in it now. */
static _Thread_local sv_doc *worker_doc;
static _Thread_local bool worker_doc_busy;
static _Thread_local bool worker_active;

void cli_doc_worker_begin(void)
{
    worker_active = true;
}

void cli_doc_worker_end(void)
{
    sv_doc_free(worker_doc);
    worker_doc = NULL;
    worker_doc_busy = false;
    worker_active = false;
}

sv_doc *cli_doc_acquire(const cli_args *a)
{
    sv_doc *doc = NULL;
    if (worker_active && !worker_doc_busy) {
        if (!worker_doc) worker_doc = sv_doc_new(NULL);
        doc = worker_doc;
        worker_doc_busy = doc != NULL;
    } else {
        doc = sv_doc_new(NULL);
    }
    /* The decoder sees the limit too, but the document enforces it for
     * every allocation, whichever code makes it (0: the default). */
    if (doc) sv_doc_set_max_alloc(doc, a->limits.max_alloc);
    return doc;
}

void cli_doc_release(sv_doc *doc)
{
    if (!doc) return;
    if (doc != worker_doc) {
        sv_doc_free(doc);
        return;
    }
    /* emptied now, not at the next file: memory past the kept chunks goes
     * back while the worker waits */
    sv_doc_reset(doc);
    worker_doc_busy = false;
}

/* ---- decoding ------------------------------------------------------------------- */

/* SERVAL_DEBUG_COMPACT=1: every decoded tree has its objects turned into the
 * compact layout (sv_compact_objects) before anything reads it, so that the
 * test suites drive every encoder and command over both layouts. */
static bool debug_compact_objects(void)
{
    const char *e = getenv("SERVAL_DEBUG_COMPACT");
    return e && e[0] == '1' && !e[1];
}

static int decode_with(cli_args *a, const char *path, cli_loaded *l, const sv_options *opts)
{
    sv_error err;
    sv_error_clear(&err);

    l->doc = cli_doc_acquire(a);
    if (!l->doc) {
        cli_error("%s: %s", cli_display_name(path), sv_status_str(SV_ERR_NOMEM));
        return cli_exit_code(SV_ERR_NOMEM);
    }

    /* l->in lives as long as l->doc (cli_loaded_free), so the tree may point
     * into it instead of copying large packed arrays. */
    sv_options o = *opts;
    o.borrow_input = true;
    sv_status st = l->format->decode(l->doc, l->in.data, l->in.len, &o, &l->root, &err);
    if (st == SV_OK) st = sv_doc_status(l->doc);
    if (st == SV_OK && debug_compact_objects()) {
        st = sv_compact_objects(l->doc, &l->root);
        if (st != SV_OK)
            st = ensure_error(&err, st, l->format, "compacting the tree's objects failed");
    }
    if (st == SV_OK) return 0;
    st = ensure_error(&err, st, l->format, "the decoder gave no details");
    cli_report(cli_display_name(path), &err);
    return cli_exit_code(st);
}

int cli_open_input(cli_args *a, const char *cmd, const char *path, const sv_format *out_format,
                   cli_loaded *out)
{
    memset(out, 0, sizeof *out);
    /* Before reading anything: a misspelt --from is found at once. */
    if (a->from) {
        int rc = cli_find_format(a->from, &out->format);
        if (rc) return rc;
    }
    sv_status st = cli_read_input(path, &out->in);
    if (st != SV_OK) return cli_exit_code(st);

    int rc = cli_input_format(a->from, path, &out->in, &out->format);
    if (!rc) rc = cli_check_input_options(a, cmd, out->format);
    if (!rc && a->format_reads) rc = cli_check_format_options(a, cmd, out->format, out_format);
    if (!rc && !out->format->decode) {
        cli_error("%s: format %s cannot be read", cli_display_name(path), out->format->name);
        rc = cli_exit_code(SV_ERR_UNSUPPORTED);
    }
    if (rc) cli_loaded_free(out);
    return rc;
}

int cli_decode_loaded(cli_args *a, const char *path, cli_loaded *l)
{
    sv_options opts = cli_decode_options(a, l->format);
    int rc = decode_with(a, path, l, &opts);
    if (rc) cli_loaded_free(l);
    return rc;
}

int cli_load(cli_args *a, const char *cmd, const char *path, const sv_format *out_format,
             cli_loaded *out)
{
    int rc = cli_open_input(a, cmd, path, out_format, out);
    return rc ? rc : cli_decode_loaded(a, path, out);
}

int cli_tree_format(cli_args *a, const char *path, const sv_value *root, const sv_format **out)
{
    const sv_value *meta = sv_meta(root);
    const sv_value *name = sv_kind_of(meta) == SV_MAP ? sv_map_getz(meta, "format") : NULL;
    const char *s = sv_kind_of(name) == SV_STRING ? sv_get_str(name, NULL) : NULL;
    *out = s ? sv_format_find(s) : NULL;
    if (!*out || !(*out)->encode) {
        cli_usage_error("conv",
                        "%s: the tree does not say which format it came from; needs --to FMT",
                        cli_display_name(path));
        return 2;
    }
    return cli_check_format_options(a, "conv", *out, NULL);
}

void cli_loaded_free(cli_loaded *l)
{
    cli_doc_release(l->doc); /* before the input its tree may borrow from */
    cli_input_free(&l->in);
    memset(l, 0, sizeof *l);
}

int cli_encode(const sv_format *f, const sv_value *root, const sv_options *opts, const char *path,
               sv_buf *out)
{
    sv_error err;
    sv_error_clear(&err);
    sv_status st = f->encode(root, opts, out, &err);
    if (st == SV_OK && !sv_buf_ok(out)) st = sv_buf_status(out);
    if (st == SV_OK) return 0;
    /* an output file that could not take the bytes: its writer says why */
    if (sv_buf_status(out) == SV_ERR_IO) return cli_exit_code(SV_ERR_IO);
    st = ensure_error(&err, st, f,
                      st == SV_ERR_NOMEM ? "no memory for the output"
                                         : "the encoder gave no details");
    /* no input byte caused it: the value's path says where */
    err.byte_offset = SV_ERROR_NO_OFFSET;
    cli_report(cli_display_name(path), &err);
    return cli_exit_code(st);
}

#if SERVAL_WITH_GODOT
typedef struct rules_ctx {
    const char *name;
    bool strict;
} rules_ctx;

static void rule_broken(void *ctx, const char *pointer, const char *message)
{
    const rules_ctx *r = ctx;
    fprintf(stderr, "serval: %s: %s at '%s': %s\n", r->name, r->strict ? "error" : "warning",
            pointer, message);
}
#endif

int cli_godot_rules(const cli_loaded *l, const char *path, bool strict)
{
#if SERVAL_WITH_GODOT
    if (!l->format || strcmp(l->format->name, "godot4") != 0) return 0;
    rules_ctx r = {cli_display_name(path), strict};
    size_t n = 0;
    sv_status st = sv_godot_check(&l->root, rule_broken, &r, &n);
    if (st != SV_OK) return 0; /* a tree too deep to walk was refused by the decoder already */
    return strict && n ? 1 : 0;
#else
    (void)l, (void)path, (void)strict;
    return 0; /* no Godot in this build: no Godot tree to check */
#endif
}
