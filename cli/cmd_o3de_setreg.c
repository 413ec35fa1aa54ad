/* serval o3de setreg: the Settings Registry's merged view -- merge, get,
 * origin. The folders and files are merged in the order given, each folder
 * as O3DE's MergeSettingsFolder merges it (src/formats/o3de/o3de_setreg*.c
 * has the rules). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "cmd_o3de_import.h"
#include "cmd_o3de_setreg.h"
#include "formats/o3de/o3de_setreg.h"
#include "serval/edit.h"
#include "serval/o3de.h"

static const char help[] =
    "usage: serval o3de setreg merge [OPTION]... DIR|FILE...\n"
    "       serval o3de setreg get KEY [OPTION]... DIR|FILE...\n"
    "       serval o3de setreg origin KEY [OPTION]... DIR|FILE...\n"
    "\n"
    "Merges O3DE Settings Registry files as O3DE's SettingsRegistryMergeUtils does.\n"
    "\n"
    "  merge   print the merged registry (JSON, as O3DE dumps it)\n"
    "  get     print the merged value at KEY, a JSON Pointer such as /Amazon/AzCore\n"
    "  origin  print each value at or under KEY with the file and line that set it\n"
    "\n"
    "Each DIR is merged in the order given, its own .setreg and .setregpatch files\n"
    "(not those of its subfolders) sorted by name and specialization:\n"
    "NAME.setreg first, then NAME.TAG.setreg files (fewer tags first, then in the\n"
    "order the tags were given), a file whose tags are not all given being left\n"
    "out. A .setreg file is merged as a JSON Merge Patch, a .setregpatch file\n"
    "applied as a JSON Patch. \"$import\" directives are resolved in member order:\n"
    "members before one are overridden by the imported file, members after it\n"
    "override it. A FILE argument is merged by itself. Comments and trailing\n"
    "commas are allowed, and text after the first JSON value is ignored, as\n"
    "O3DE allows them.\n"
    "\n"
    "Options:\n"
    "  --specialization TAG  select a specialization (repeatable, at most 15; the\n"
    "                        order given is their priority)\n"
    "  --platform NAME       also merge each DIR's Platform/NAME/ files, each right\n"
    "                        after the DIR's own file of the same name and tags\n"
    "  --anchor KEY          merge every file under KEY instead of at the root\n" CLI_HELP_HELP "\n"
    "Exit status: 0 ok, 1 when a file cannot be merged (every problem is printed;\n"
    "nothing is written) or KEY has no value, 2 usage error, 3 I/O error.\n";

/* One merged file: kept for origin, which finds the lines in its text. */
typedef struct step {
    char *path;
    char *text;
    size_t len;
    bool patch;
    o3sr_imported *imports;
    size_t nimports;
    /* for origin, parsed once on first use (in its scratch document) */
    bool parsed;
    bool raw_ok;
    sv_value raw;
    o3sr_origins raw_leaves; /* raw's leaves by pointer, for finding values fast */
    struct imported_text {
        cli_input in;
        bool ok;
        sv_value doc;
        o3sr_origins leaves;
    } * imp;
} step;

typedef struct setreg {
    cli_args *a;
    const char *cmd;
    o3sr_specs specs;
    const char *anchor;
    const char *platform; /* --platform NAME, "" when not given */
    sv_doc *doc;
    sv_value reg;
    o3_importer importer;
    bool track; /* origin: keep the steps and the origins */
    step *steps;
    size_t nsteps;
    o3sr_origins origins;
    unsigned failures;
} setreg;

static void fail(setreg *s, const char *path, const char *msg)
{
    cli_error("%s: %s: %s", s->cmd, path, msg);
    s->failures++;
}

static void print_messages(setreg *s, const char *path, sv_buf *m)
{
    if (!m->len) return;
    sv_buf_putc(m, 0);
    char *p = (char *)m->data;
    while (*p) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        cli_error("%s: %s: %s", s->cmd, cli_display_name(path), p);
        if (!nl) break;
        p = nl + 1;
    }
    m->len = 0;
}

/* MergeSettingsFileInternal: read, parse with O3DE's flags, resolve the
 * imports in order, merge. Returns an exit code for hard failures. */
static int merge_file(setreg *s, const char *path, bool patch)
{
    if (!*path) { /* not standard input: O3DE refuses an empty path */
        cli_error("%s: Path provided for MergeSettingsFile is empty.", s->cmd);
        s->failures++;
        return 0;
    }
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st) {
        s->failures++;
        return cli_exit_code(st) == 3 ? 0 : cli_exit_code(st);
    }
    int rc = 0;
    char *text = malloc(in.len + 1);
    sv_buf msgs;
    sv_buf_init(&msgs, NULL);
    o3sr_import_ctx ic;
    memset(&ic, 0, sizeof ic);
    sv_error err;
    sv_error_clear(&err);
    if (!text) {
        rc = 3;
        goto out;
    }
    if (in.len) memcpy(text, in.data, in.len);
    text[in.len] = 0;
    if (in.len == 0) {
        fail(s, path, "Registry file is 0 bytes in length. There is no nothing to merge");
        goto out;
    }
    size_t used = o3sr_prepare_text(text, in.len);
    sv_value raw;
    st = sv_o3de_read(s->doc, text, used, &s->a->limits, &raw, &err);
    if (st == SV_ERR_NOMEM || st == SV_ERR_LIMIT) {
        cli_report(path, &err);
        rc = cli_exit_code(st);
        goto out;
    }
    if (st) {
        cli_report(path, &err);
        s->failures++;
        goto out;
    }
    ic.doc = s->doc;
    ic.load = o3_import_load;
    ic.load_ctx = &s->importer;
    ic.messages = &msgs;
    ic.err = &err;
    sv_value doc = sv_null();
    sv_o3de_result r = o3sr_resolve_in_order(&ic, path, &raw, &doc);
    if (ic.st) {
        cli_report(path, &err);
        rc = cli_exit_code(ic.st);
        goto out;
    }
    if (sv_o3de_result_processing(r) != SV_O3DE_COMPLETED) {
        print_messages(s, path, &msgs);
        s->failures++;
        goto out;
    }
    msgs.len = 0;
    sv_value before = s->track ? sv_copy(s->doc, &s->reg) : sv_null();
    if (!o3sr_merge_document(s->doc, &s->reg, &doc, patch, s->anchor, &msgs, &st, &err)) {
        if (st) {
            cli_report(path, &err);
            rc = cli_exit_code(st);
            goto out;
        }
        print_messages(s, path, &msgs);
        s->failures++;
        goto out;
    }
    if (s->track) {
        step *n = realloc(s->steps, (s->nsteps + 1) * sizeof *n);
        if (!n || !o3sr_origins_update(&s->origins, &before, &s->reg, s->nsteps)) {
            if (n) s->steps = n;
            rc = 3;
            goto out;
        }
        s->steps = n;
        step *t = &n[s->nsteps++];
        memset(t, 0, sizeof *t);
        t->path = strdup(path);
        t->text = text;
        t->len = used;
        t->patch = patch;
        t->imports = ic.files;
        t->nimports = ic.nfiles;
        text = NULL;
        ic.files = NULL;
        ic.nfiles = 0;
    }
out:
    o3sr_import_free(&ic);
    sv_buf_free(&msgs);
    free(text);
    cli_input_free(&in);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the names of the regular files in dir to *names (sorted among
 * themselves: readdir's order is the file system's, and name order makes
 * the listing, and so a collision's message, the same everywhere). A
 * folder that cannot be opened is an error unless missing_ok (a platform
 * folder that is not there has no files, as in O3DE). */
static int list_files(setreg *s, const char *dir, bool missing_ok, char ***names, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (missing_ok) return 0;
        cli_error("%s: %s: cannot open the folder", s->cmd, dir);
        return 3;
    }
    size_t first = *n;
    int rc = 0;
    struct dirent *e;
    size_t dlen = strlen(dir);
    while ((e = readdir(d)) != NULL) {
        char *full = malloc(dlen + strlen(e->d_name) + 2);
        if (!full) {
            rc = 3;
            break;
        }
        sprintf(full, "%s/%s", dir, e->d_name);
        struct stat sb;
        bool file = stat(full, &sb) == 0 && S_ISREG(sb.st_mode);
        free(full);
        if (!file) continue;
        if (*n >= 65536) {
            cli_error("%s: %s: too many files in the folder", s->cmd, dir);
            rc = 1;
            break;
        }
        char **g = realloc(*names, (*n + 1) * sizeof *g);
        if (!g || !(g[*n] = strdup(e->d_name))) {
            if (g) *names = g;
            rc = 3;
            break;
        }
        *names = g;
        (*n)++;
    }
    closedir(d);
    if (!rc && *n > first) qsort(*names + first, *n - first, sizeof **names, by_name);
    return rc;
}

/* MergeSettingsFolder: the folder's own files and, with --platform NAME,
 * those of its Platform/NAME subfolder, described, sorted, merged. */
static int merge_folder(setreg *s, const char *dir)
{
    size_t dlen = strlen(dir);
    /* O3DE refuses a folder whose search pattern ("DIR/" "*", or
     * "DIR/Platform/NAME/" "*") would not fit its 1024-byte paths */
    size_t extra = 3 + (*s->platform ? sizeof "Platform" + strlen(s->platform) + 2 : 0);
    if (dlen + extra > 1024) {
        cli_error("%s: Folder path for the Setting Registry is too long: %s", s->cmd, dir);
        s->failures++;
        return 0;
    }
    char *pdir = NULL;
    if (*s->platform) {
        pdir = malloc(dlen + strlen(s->platform) + sizeof "/Platform/");
        if (!pdir) return 3;
        sprintf(pdir, "%s/Platform/%s", dir, s->platform);
    }
    char **names = NULL;
    size_t n = 0;
    int rc = list_files(s, dir, false, &names, &n);
    size_t nown = n;
    if (!rc && pdir) rc = list_files(s, pdir, true, &names, &n);
    o3sr_file *files = rc ? NULL : calloc(n ? n : 1, sizeof *files);
    size_t nf = 0;
    if (!rc && !files) rc = 3;
    for (size_t i = 0; !rc && i < n; i++) {
        const char *why;
        if (o3sr_describe(names[i], &s->specs, &files[nf], &why)) files[nf++].platform = i >= nown;
        if (nf > O3SR_MAX_FOLDER_FILES) {
            cli_error("%s: %s: Too many files in registry folder. The limit is 128", s->cmd, dir);
            s->failures++;
            nf = 0;
            break;
        }
    }
    size_t x, y;
    if (!rc && nf && !o3sr_sort(files, nf, &s->specs, &x, &y)) {
        cli_error(
            "%s: Two registry files in \"%s\" point to the same specialization: \"%s\" and \"%s\"",
            s->cmd, dir, files[x].name, files[y].name);
        s->failures++;
        nf = 0;
    }
    for (size_t i = 0; !rc && i < nf; i++) {
        const char *from = files[i].platform ? pdir : dir;
        char *full = malloc(strlen(from) + strlen(files[i].name) + 2);
        if (!full) {
            rc = 3;
            break;
        }
        sprintf(full, "%s/%s", from, files[i].name);
        rc = merge_file(s, full, files[i].patch);
        free(full);
    }
    free(files);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    free(pdir);
    return rc;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static int merge_all(setreg *s)
{
    for (size_t i = 0; i < s->a->file_count; i++) {
        const char *p = s->a->files[i];
        struct stat sb;
        int rc;
        if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            rc = merge_folder(s, p);
        else
            rc = merge_file(s, p, ends_with(p, ".setregpatch"));
        if (rc) return rc;
    }
    return s->failures ? 1 : 0;
}

static int print_json(const sv_value *v)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_o3de_write(v, 4, &b, &err);
    sv_buf_putc(&b, '\n');
    if (!st) st = cli_write_output(NULL, b.data, b.len);
    sv_buf_free(&b);
    return cli_exit_code(st);
}

/* The value at a JSON Pointer, or NULL (and a message) when there is none. */
static const sv_value *lookup(setreg *s, const char *key)
{
    if (*key && *key != '/') {
        cli_usage_error(s->cmd, "KEY must be a JSON Pointer (\"\" or starting with '/'): '%s'",
                        key);
        return NULL;
    }
    const sv_value *v = sv_get_path(s->doc, &s->reg, key);
    if (!v) cli_error("%s: no value at '%s'", s->cmd, key);
    return v;
}

/* Parses a step's file and the files it imported, once. */
static void parse_step(step *t, sv_doc *scratch, const cli_args *a)
{
    if (t->parsed) return;
    t->parsed = true;
    sv_error err;
    sv_error_clear(&err);
    t->raw_ok = sv_o3de_read(scratch, t->text, t->len, &a->limits, &t->raw, &err) == SV_OK &&
                o3sr_origins_update(&t->raw_leaves, NULL, &t->raw, 0);
    t->imp = t->nimports ? calloc(t->nimports, sizeof *t->imp) : NULL;
    for (size_t i = 0; t->imp && i < t->nimports; i++) {
        struct imported_text *m = &t->imp[i];
        if (cli_read_input(t->imports[i].path, &m->in) != SV_OK) continue;
        m->ok = sv_o3de_read(scratch, (const char *)m->in.data, m->in.len, &a->limits, &m->doc,
                             &err) == SV_OK &&
                o3sr_origins_update(&m->leaves, NULL, &m->doc, 0);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The leaf at pointer p in a tree's leaf table, or NULL. */
static const sv_value *leaf_at(const o3sr_origins *o, const char *p)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(o->leaf[mid].pointer, p);
        if (c == 0) return o->leaf[mid].value;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* o3sr_find_lines for pointers in any order, repeats allowed. */
static bool lines_for(const char *text, size_t len, const char **rel, size_t m, unsigned *out)
{
    const char **u = malloc((m ? m : 1) * sizeof *u);
    unsigned *ul = malloc((m ? m : 1) * sizeof *ul);
    if (!u || !ul) {
        free(u);
        free(ul);
        return false;
    }
    memcpy(u, rel, m * sizeof *u);
    qsort(u, m, sizeof *u, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (k == 0 || strcmp(u[k - 1], u[i]) != 0) u[k++] = u[i];
    o3sr_find_lines(text, len, u, k, ul);
    for (size_t i = 0; i < m; i++) {
        const char **hit = bsearch(&rel[i], u, k, sizeof *u, cmp_str);
        out[i] = hit ? ul[hit - u] : 0;
    }
    free(u);
    free(ul);
    return true;
}

/* Where the m values a step set come from: for a merge patch, the line in
 * its own text when the value there is the one merged, else the last of
 * the files it imported that holds the same value at that pointer, else
 * its own line; for a JSON Patch, the line of the last operation whose
 * path leads to the value. */
static bool origins_of(step *t, const char **rel, const sv_value **now, size_t m, const char **file,
                       unsigned *line, sv_doc *scratch, const cli_args *a)
{
    parse_step(t, scratch, a);
    for (size_t i = 0; i < m; i++) {
        file[i] = t->path;
        line[i] = 0;
    }
    if (t->patch) {
        if (!t->raw_ok) return true;
        char(*idx)[24] = malloc((m ? m : 1) * sizeof *idx);
        const char **ip = malloc((m ? m : 1) * sizeof *ip);
        bool ok = idx && ip;
        size_t k = 0;
        for (size_t i = 0; ok && i < m; i++) {
            for (size_t j = sv_len(&t->raw); j-- > 0;) {
                const sv_value *p = sv_map_getz(sv_array_at(&t->raw, j), "path");
                size_t n;
                const char *ps = sv_get_str(p, &n);
                if (sv_kind_of(p) == SV_STRING && strncmp(rel[i], ps, n) == 0 &&
                    (rel[i][n] == 0 || rel[i][n] == '/')) {
                    snprintf(idx[i], sizeof idx[i], "/%zu", j);
                    break;
                }
            }
            ip[k++] = idx[i];
        }
        unsigned *l = ok ? malloc((m ? m : 1) * sizeof *l) : NULL;
        ok = ok && l && lines_for(t->text, t->len, ip, k, l);
        for (size_t i = 0; ok && i < m; i++) line[i] = idx[i][0] ? l[i] : 0;
        free(l);
        free(ip);
        free(idx);
        return ok;
    }
    unsigned *own = malloc((m ? m : 1) * sizeof *own);
    bool *done = calloc(m ? m : 1, sizeof *done);
    const char **left = malloc((m ? m : 1) * sizeof *left);
    size_t *at = malloc((m ? m : 1) * sizeof *at);
    unsigned *l = malloc((m ? m : 1) * sizeof *l);
    bool ok = own && done && left && at && l && lines_for(t->text, t->len, rel, m, own);
    for (size_t i = 0; ok && i < m; i++) {
        const sv_value *v = t->raw_ok ? leaf_at(&t->raw_leaves, rel[i]) : NULL;
        line[i] = own[i];
        done[i] = v && sv_equal(v, now[i]);
    }
    for (size_t j = t->nimports; ok && t->imp && j-- > 0;) {
        struct imported_text *im = &t->imp[j];
        if (!im->ok) continue;
        size_t k = 0;
        for (size_t i = 0; i < m; i++) {
            if (done[i]) continue;
            const sv_value *v = leaf_at(&im->leaves, rel[i]);
            if (v && sv_equal(v, now[i])) {
                left[k] = rel[i];
                at[k++] = i;
            }
        }
        if (!k) continue;
        ok = lines_for((const char *)im->in.data, im->in.len, left, k, l);
        for (size_t i = 0; ok && i < k; i++) {
            file[at[i]] = t->imports[j].path;
            line[at[i]] = l[i];
            done[at[i]] = true;
        }
    }
    free(own);
    free(done);
    free(left);
    free(at);
    free(l);
    return ok;
}

static int run_origin(setreg *s, const char *key)
{
    if (!lookup(s, key)) return 1;
    sv_doc *scratch = sv_doc_new(NULL);
    size_t klen = strlen(key), alen = strlen(s->anchor), n = s->origins.n;
    const char **rel = malloc((n ? n : 1) * sizeof *rel);
    const sv_value **now = malloc((n ? n : 1) * sizeof *now);
    const char **file = malloc((n ? n : 1) * sizeof *file);
    unsigned *line = malloc((n ? n : 1) * sizeof *line);
    size_t *pick = malloc((n ? n : 1) * sizeof *pick);
    const char **f2 = malloc((n ? n : 1) * sizeof *f2);
    unsigned *l2 = malloc((n ? n : 1) * sizeof *l2);
    int rc = scratch && rel && now && file && line && pick && f2 && l2 ? 0 : 3;
    /* the values under KEY, step by step */
    for (size_t st = 0; !rc && st < s->nsteps; st++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            const o3sr_leaf *l = &s->origins.leaf[i];
            if (l->step != st || strncmp(l->pointer, key, klen) != 0 ||
                (l->pointer[klen] && l->pointer[klen] != '/'))
                continue;
            rel[m] = strncmp(l->pointer, s->anchor, alen) == 0 ? l->pointer + alen : l->pointer;
            now[m] = l->value;
            pick[m++] = i;
        }
        if (m && !origins_of(&s->steps[st], rel, now, m, f2, l2, scratch, s->a)) rc = 3;
        for (size_t j = 0; !rc && j < m; j++) {
            file[pick[j]] = f2[j];
            line[pick[j]] = l2[j] + 1; /* 0: not chosen */
        }
    }
    for (size_t i = 0; !rc && i < n; i++) {
        /* every leaf not under KEY was left out above */
        const o3sr_leaf *l = &s->origins.leaf[i];
        if (strncmp(l->pointer, key, klen) != 0 || (l->pointer[klen] && l->pointer[klen] != '/'))
            continue;
        const char *ptr = *l->pointer ? l->pointer : "\"\"";
        if (line[i] > 1)
            printf("%s\t%s:%u\n", ptr, cli_display_name(file[i]), line[i] - 1);
        else
            printf("%s\t%s\n", ptr, cli_display_name(file[i]));
    }
    free(rel);
    free(now);
    free(file);
    free(line);
    free(pick);
    free(f2);
    free(l2);
    sv_doc_free(scratch);
    if (rc) return rc;
    return fflush(stdout) == 0 ? 0 : 3;
}

/* Takes --specialization, --anchor and --platform out of argv. */
static int take_options(setreg *s, int *argc, char **argv)
{
    int w = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < *argc) argv[w++] = argv[i++];
            break;
        }
        const char *name =
            strncmp(a, "--specialization", 16) == 0 && (a[16] == 0 || a[16] == '=')
                ? "--specialization"
            : strncmp(a, "--anchor", 8) == 0 && (a[8] == 0 || a[8] == '=')      ? "--anchor"
            : strncmp(a, "--platform", 10) == 0 && (a[10] == 0 || a[10] == '=') ? "--platform"
                                                                                : NULL;
        if (!name) {
            argv[w++] = argv[i];
            continue;
        }
        size_t n = strlen(name);
        const char *v;
        if (a[n] == '=') {
            v = a + n + 1;
        } else if (i + 1 < *argc) {
            v = argv[++i];
        } else {
            cli_usage_error(s->cmd, "option '%s' needs a value", name);
            return 2;
        }
        if (name[2] == 'a') {
            s->anchor = v;
        } else if (name[2] == 'p') {
            s->platform = v;
        } else {
            const char *why;
            if (!o3sr_specs_add(&s->specs, v, &why)) {
                cli_usage_error(s->cmd, "--specialization '%s': %s", v, why);
                return 2;
            }
        }
    }
    *argc = w;
    return 0;
}

int cmd_o3de_setreg(int argc, char **argv)
{
    const char *sub = argc >= 2 ? argv[1] : NULL;
    if (sub && (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)) {
        fputs(help, stdout);
        return 0;
    }
    static const char *const subs[] = {"merge", "get", "origin"};
    int which = -1;
    for (int i = 0; i < 3 && sub; i++)
        if (strcmp(sub, subs[i]) == 0) which = i;
    if (which < 0) {
        if (sub)
            cli_usage_error("o3de setreg", "unknown subcommand '%s' (merge, get or origin)", sub);
        else
            cli_usage_error("o3de setreg", "missing subcommand (merge, get or origin)");
        return 2;
    }
    char cmd[32];
    snprintf(cmd, sizeof cmd, "o3de setreg %s", subs[which]);
    setreg s;
    memset(&s, 0, sizeof s);
    s.cmd = cmd;
    s.anchor = "";
    s.platform = "";
    s.track = which == 2;
    int n = argc - 1;
    char **args = argv + 1;
    int rc = take_options(&s, &n, args);
    if (rc) return rc;
    cli_args a;
    rc = cli_args_parse(&a, cmd, n, args, CLI_OPT_LIMITS);
    if (rc) return rc;
    s.a = &a;
    size_t need = which == 0 ? 1 : 2;
    if (a.help) {
        fputs(help, stdout);
        cli_args_free(&a);
        return 0;
    }
    if (a.file_count < need) {
        cli_usage_error(cmd, which == 0 ? "needs at least one DIR or FILE"
                                        : "needs KEY and at least one DIR or FILE");
        cli_args_free(&a);
        return 2;
    }
    const char *key = which == 0 ? NULL : a.files[0];
    if (key) {
        a.files++;
        a.file_count--;
    }
    s.doc = sv_doc_new(NULL);
    if (!s.doc) rc = 3;
    if (!rc && a.limits.max_alloc) sv_doc_set_max_alloc(s.doc, a.limits.max_alloc);
    if (!rc) {
        s.reg = sv_map(s.doc, 0);
        o3_importer_init(&s.importer, &a, s.doc, 0);
        rc = merge_all(&s);
        if (rc == 1) {
            cli_error("%s: %u file(s) could not be merged; nothing written", cmd, s.failures);
        } else if (!rc && which == 0) {
            rc = print_json(&s.reg);
        } else if (!rc && which == 1) {
            const sv_value *v = lookup(&s, key);
            rc = v ? print_json(v) : (*key && *key != '/') ? 2 : 1;
        } else if (!rc) {
            rc = run_origin(&s, key);
            if (rc == 1 && *key && *key != '/') rc = 2;
        }
    }
    if (key) {
        a.files--;
        a.file_count++;
    }
    for (size_t i = 0; i < s.nsteps; i++) {
        free(s.steps[i].path);
        free(s.steps[i].text);
        for (size_t j = 0; j < s.steps[i].nimports; j++) {
            free(s.steps[i].imports[j].path);
            if (s.steps[i].imp) {
                cli_input_free(&s.steps[i].imp[j].in);
                o3sr_origins_free(&s.steps[i].imp[j].leaves);
            }
        }
        free(s.steps[i].imports);
        free(s.steps[i].imp);
        o3sr_origins_free(&s.steps[i].raw_leaves);
    }
    free(s.steps);
    o3sr_origins_free(&s.origins);
    sv_doc_free(s.doc);
    cli_args_free(&a);
    return rc;
}
