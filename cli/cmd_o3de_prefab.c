/* serval o3de prefab: each instance's patches checked against its template
 * (check), and the ones that no longer apply removed (clean). The file is
 * edited as text, only the removed operations cut out, so every other byte
 * stays as it was. */
/* realpath(3) is an XSI function: POSIX alone (the build's _POSIX_C_SOURCE)
 * does not declare it. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "cmd_o3de_import.h"
#include "cmd_o3de_prefab.h"
#include "formats/o3de/o3de_prefab.h"
#include "formats/o3de/o3de_setreg.h"
#include "serval/o3de.h"

static const char help[] =
    "usage: serval o3de prefab check [--templates DIR] FILE\n"
    "       serval o3de prefab clean [--templates DIR] [--dry-run] [-o OUT] FILE\n"
    "\n"
    "Applies each instance's patches (\"Patches\") to its template (\"Source\"), one\n"
    "operation at a time, as O3DE does when it loads the prefab.\n"
    "\n"
    "  check  list every operation that does not apply: the instance, the\n"
    "         operation's place, its JSON Pointer and why\n"
    "  clean  remove those operations and write the prefab (FILE itself, or OUT)\n"
    "\n"
    "An operation fails when it names an entity, component or instance the\n"
    "template does not have, or when what it names is there and it still does\n"
    "not apply. One that goes through a field the template's file leaves out is\n"
    "listed as unverified and kept: O3DE writes prefabs without default values\n"
    "and fills them in when it loads one, which needs the component's type.\n"
    "Nested instances of a template are expanded first.\n"
    "\n"
    "Options:\n"
    "  --templates DIR  where \"Source\" paths start (default: FILE's folder or the\n"
    "                   nearest folder above it that holds the template)\n"
    "  --dry-run        clean: list what would be removed, write nothing\n"
    "  -o, --output OUT clean: write to OUT instead of FILE (written whole, then\n"
    "                   renamed over it)\n" CLI_HELP_HELP "\n"
    "Exit status: 0 every operation applies (clean: written), 1 some do not (check)\n"
    "or a template is missing, 2 usage error, 3 I/O error.\n";

typedef struct prefab_cli {
    const char *cmd;
    const char *templates; /* --templates, or NULL */
    char *file_dir;        /* FILE's folder, its real path when it has one */
    bool dry_run;
    o3_importer importer;
} prefab_cli;

/* FILE's folder and the folders above it, the nearest first, the first
 * that holds source; or --templates alone. */
static sv_status load_template(void *ctx, const char *source, sv_doc *doc, sv_value *out,
                               sv_error *err)
{
    prefab_cli *p = ctx;
    char *dir = strdup(p->templates ? p->templates : p->file_dir);
    if (!dir) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    sv_status st = SV_ERR_IO;
    for (;;) {
        size_t n = strlen(dir) + strlen(source) + 2;
        char *path = malloc(n);
        if (!path) {
            st = sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
            break;
        }
        snprintf(path, n, "%s/%s", dir, source);
        struct stat sb;
        bool here = stat(path, &sb) == 0;
        if (here) st = o3_import_load(&p->importer, path, doc, out, err);
        free(path);
        if (here || p->templates) break;
        /* up one folder, the root "/" included */
        char *slash = strrchr(dir, '/');
        if (!slash || (slash == dir && !dir[1])) break;
        slash[slash == dir] = 0;
    }
    if (st == SV_ERR_IO && !err->message[0])
        st = sv_error_set(err, SV_ERR_IO, "o3de", 0, "not found under %s",
                          p->templates ? p->templates : "the file's folder or those above it");
    free(dir);
    return st;
}

static const char *kind_name(o3pf_kind k)
{
    return k == O3PF_FAILS ? "fails" : k == O3PF_UNVERIFIED ? "unverified" : "no template";
}

static void print_findings(const char *file, const o3pf_report *r, bool cleaning)
{
    for (size_t i = 0; i < r->n; i++) {
        const o3pf_finding *f = &r->f[i];
        if (f->kind == O3PF_NO_TEMPLATE) {
            printf("%s: %s (%s): %s\n", file, f->instance, f->source, f->reason);
        } else {
            printf("%s: %s (%s): patch %zu: %s %s: %s%s: %s\n", file, f->instance, f->source,
                   f->index, f->op, f->path, kind_name(f->kind),
                   cleaning && f->kind == O3PF_FAILS ? ", removed" : "", f->reason);
        }
    }
}

static size_t count(const o3pf_report *r, o3pf_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) n += r->f[i].kind == k;
    return n;
}

/* The range to cut for operation k of the array at `arr`: with the comma
 * and the line before it, or, for the first, the one after it; the whole
 * inside of the brackets when every operation goes. */
static bool cut_range(const char *text, size_t len, const char *arr, size_t k, size_t total,
                      size_t *from, size_t *to)
{
    char ptr[448];
    size_t s, e;
    snprintf(ptr, sizeof ptr, "%s/%zu", arr, k);
    if (!o3sr_find_span(text, len, ptr, &s, &e)) return false;
    if (k > 0) {
        size_t ps, pe;
        snprintf(ptr, sizeof ptr, "%s/%zu", arr, k - 1);
        if (!o3sr_find_span(text, len, ptr, &ps, &pe)) return false;
        *from = pe;
        *to = e;
    } else if (total > 1) {
        size_t ns, ne;
        snprintf(ptr, sizeof ptr, "%s/1", arr);
        if (!o3sr_find_span(text, len, ptr, &ns, &ne)) return false;
        *from = s;
        *to = ns;
    } else {
        size_t as, ae;
        if (!o3sr_find_span(text, len, arr, &as, &ae)) return false;
        *from = as + 1;
        *to = ae - 1;
    }
    return true;
}

static int run_clean(prefab_cli *p, const cli_args *a, const cli_input *in, const sv_value *root,
                     const o3pf_report *r)
{
    const char *text = (const char *)in->data;
    size_t len = in->len;
    /* the cuts, per instance from the last operation back, so that the
     * places found before each cut stay right: collected first, applied
     * from the end of the text */
    size_t ncut = 0;
    size_t(*cuts)[2] = calloc(r->n ? r->n : 1, sizeof *cuts);
    if (!cuts) return 3;
    for (size_t i = 0; i < r->n; i++) {
        const o3pf_finding *f = &r->f[i];
        if (f->kind != O3PF_FAILS) continue;
        char arr[400];
        snprintf(arr, sizeof arr, "%s/Patches", f->instance);
        /* what is left of the array decides the cut: every operation gone
         * empties it */
        const sv_value *inst = sv_map_getz(sv_map_getz(root, "Instances"), f->instance + 11);
        size_t total = sv_len(sv_map_getz(inst, "Patches"));
        size_t failing = 0;
        for (size_t j = 0; j < r->n; j++)
            failing += r->f[j].kind == O3PF_FAILS && strcmp(r->f[j].instance, f->instance) == 0;
        size_t from, to;
        if (failing == total) {
            size_t as, ae;
            if (!o3sr_find_span(text, len, arr, &as, &ae)) {
                free(cuts);
                cli_error("%s: cannot find %s in the text", p->cmd, arr);
                return 1;
            }
            from = as + 1;
            to = ae - 1;
        } else if (!cut_range(text, len, arr, f->index, total, &from, &to)) {
            free(cuts);
            cli_error("%s: cannot find %s/%zu in the text", p->cmd, arr, f->index);
            return 1;
        }
        bool dup = false;
        for (size_t j = 0; j < ncut; j++) dup |= cuts[j][0] == from && cuts[j][1] == to;
        if (!dup) {
            cuts[ncut][0] = from;
            cuts[ncut][1] = to;
            ncut++;
        }
    }
    /* a first operation's cut runs to the next one's start, which a second
     * cut (of that next one, with the line before it) overlaps: merged */
    sv_buf b;
    sv_buf_init(&b, NULL);
    size_t at = 0;
    for (;;) {
        size_t best = (size_t)-1;
        for (size_t j = 0; j < ncut; j++)
            if (cuts[j][0] >= at && (best == (size_t)-1 || cuts[j][0] < cuts[best][0])) best = j;
        if (best == (size_t)-1) break;
        sv_buf_append(&b, text + at, cuts[best][0] - at);
        size_t end = cuts[best][1];
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t j = 0; j < ncut; j++)
                if (cuts[j][0] < end && cuts[j][1] > end) {
                    end = cuts[j][1];
                    grew = true;
                }
        }
        at = end;
    }
    sv_buf_append(&b, text + at, len - at);
    free(cuts);
    int rc = 0;
    if (!sv_buf_ok(&b))
        rc = 3;
    else if (!p->dry_run)
        rc = cli_exit_code(cli_write_output(a->output ? a->output : a->files[0], b.data, b.len));
    sv_buf_free(&b);
    return rc;
}

int cmd_o3de_prefab(int argc, char **argv)
{
    const char *sub = argc >= 2 ? argv[1] : NULL;
    if (sub && (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)) {
        fputs(help, stdout);
        return 0;
    }
    bool clean = sub && strcmp(sub, "clean") == 0;
    if (!sub || (!clean && strcmp(sub, "check") != 0)) {
        if (sub)
            cli_usage_error("o3de prefab", "unknown subcommand '%s' (check or clean)", sub);
        else
            cli_usage_error("o3de prefab", "missing subcommand (check or clean)");
        return 2;
    }
    char cmd[32];
    snprintf(cmd, sizeof cmd, "o3de prefab %s", sub);
    prefab_cli p;
    memset(&p, 0, sizeof p);
    p.cmd = cmd;
    /* own options out of argv */
    int n = 0;
    char **args = argv + 1;
    for (int i = 0; i < argc - 1; i++) {
        const char *s = args[i];
        if (strcmp(s, "--") == 0) {
            while (i < argc - 1) args[n++] = args[i++];
            break;
        }
        if (strcmp(s, "--dry-run") == 0 && clean) {
            p.dry_run = true;
        } else if (strncmp(s, "--templates", 11) == 0 && (s[11] == 0 || s[11] == '=')) {
            if (s[11] == '=')
                p.templates = s + 12;
            else if (i + 2 < argc)
                p.templates = args[++i];
            else {
                cli_usage_error(cmd, "option '--templates' needs a value");
                return 2;
            }
        } else {
            args[n++] = args[i];
        }
    }
    cli_args a;
    int rc = cli_args_parse(&a, cmd, n, args, CLI_OPT_LIMITS | (clean ? CLI_OPT_OUTPUT : 0));
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
        cli_args_free(&a);
        return 0;
    }
    if (a.file_count != 1 || cli_is_stdio(a.files[0])) {
        cli_usage_error(cmd, "needs exactly one FILE");
        cli_args_free(&a);
        return 2;
    }
    const char *file = a.files[0];
    const char *slash = strrchr(file, '/');
    p.file_dir = slash ? strndup(file, (size_t)(slash - file) + (slash == file)) : strdup(".");
    /* the folders above a relative FILE's ("." for a file named alone) are
     * searched too: climb from the folder's real path */
    char *real = p.file_dir ? realpath(p.file_dir, NULL) : NULL;
    if (real) {
        free(p.file_dir);
        p.file_dir = real;
    }
    cli_input in;
    memset(&in, 0, sizeof in);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    o3pf_report r;
    memset(&r, 0, sizeof r);
    sv_value root;
    sv_status st = !p.file_dir || !doc ? SV_ERR_NOMEM : cli_read_input(file, &in);
    if (st) {
        rc = cli_exit_code(st);
        goto out;
    }
    if (a.limits.max_alloc) sv_doc_set_max_alloc(doc, a.limits.max_alloc);
    o3_importer_init(&p.importer, &a, doc, in.len);
    st = sv_o3de_read(doc, (const char *)in.data, in.len, &a.limits, &root, &err);
    if (!st && sv_kind_of(&root) != SV_MAP)
        st = sv_error_set(&err, SV_ERR_TYPE, "o3de", SV_ERROR_NO_OFFSET,
                          "a prefab is a JSON object");
    if (!st) st = o3pf_check(doc, &root, load_template, &p, &r, &err);
    if (st) {
        cli_report(file, &err);
        rc = cli_exit_code(st);
        goto out;
    }
    const char *shown = cli_display_name(file);
    print_findings(shown, &r, clean && !p.dry_run);
    size_t fails = count(&r, O3PF_FAILS), missing = count(&r, O3PF_NO_TEMPLATE);
    size_t unverified = count(&r, O3PF_UNVERIFIED);
    fprintf(stderr,
            "serval: %s: %s: %zu instance(s), %zu patch operation(s): %zu fail, %zu unverified%s\n",
            cmd, shown, r.instances, r.patches, fails, unverified,
            missing ? ", some templates missing" : "");
    if (missing) {
        if (clean) cli_error("%s: %s: a template is missing; nothing written", cmd, shown);
        rc = 1;
    } else if (clean) {
        rc = run_clean(&p, &a, &in, &root, &r);
    } else {
        rc = fails ? 1 : 0;
    }
out:
    o3pf_report_free(&r);
    cli_input_free(&in);
    sv_doc_free(doc);
    free(p.file_dir);
    cli_args_free(&a);
    return rc;
}
