/* serval o3de: O3DE JSON serialization over schema types -- load, store,
 * validate, strip-defaults. */
/* madvise(2) is not POSIX (the build's _POSIX_C_SOURCE): glibc declares it
 * and MADV_DONTNEED under _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "cmd_o3de_import.h"
#include "cmd_o3de_prefab.h"
#include "cmd_o3de_setreg.h"
#include "serval/o3de.h"
#include "serval/serval.h"

static const char help[] =
    "usage: serval o3de load --schema S --type T [--clear-containers]\n"
    "                        [--allow-partial] [--report FILE] IN|-\n"
    "       serval o3de store --schema S --type T [--keep-defaults]\n"
    "                         [--allow-partial] [--report FILE] IN|-\n"
    "       serval o3de validate --schema S --type T FILE...\n"
    "       serval o3de strip-defaults --schema S --type T FILE\n"
    "       serval o3de setreg merge|get|origin ... (see serval o3de setreg --help)\n"
    "       serval o3de prefab check|clean ... (see serval o3de prefab --help)\n"
    "\n"
    "Applies O3DE's JSON serialization rules to the types of serval schema files.\n"
    "\n"
    "  load            load O3DE JSON into type T, starting from T's default\n"
    "                  instance, and print the value as serval typed JSON\n"
    "  store           read a value of type T as typed JSON (as load prints it)\n"
    "                  and print its O3DE JSON, defaults omitted\n"
    "  validate        load each FILE and print every issue with its path\n"
    "  strip-defaults  print FILE without the values equal to their defaults\n"
    "  setreg          merge Settings Registry folders (merge, get, origin)\n"
    "  prefab          check prefab instances' patches against their templates\n"
    "\n"
    "A file wrapped as {\"Type\":\"JsonSerialization\",...,\"ClassName\":...} may\n"
    "leave out --type: its ClassName names the type.\n"
    "\n"
    "load, validate and strip-defaults resolve \"$import\" directives first, as\n"
    "O3DE does: {\"$import\":\"NAME\"} or {\"$import\":{\"filename\":NAME,\"patch\":P}}\n"
    "is replaced by the JSON file NAME (P applied as a JSON Merge Patch), NAME\n"
    "taken relative to the directory of the file holding it (standard input:\n"
    "the current directory). Like O3DE, any regular file the user can read is\n"
    "allowed, \"..\" and absolute names included (devices, FIFOs, directories\n"
    "and sockets are refused); each file is read once however often it is\n"
    "named; --no-imports leaves the directives as they are. strip-defaults puts\n"
    "the input's own directives back in its output.\n"
    "\n"
    "Every issue O3DE would log (a result that is not Completed) goes to\n"
    "standard error with its path. The exit status follows O3DE's result:\n"
    "Success, Skipped, DefaultsUsed and the like exit 0; Unsupported and\n"
    "Unavailable (a value left as it was) and the halting outcomes (Invalid,\n"
    "Catastrophic, ...) exit 1 without writing the output, which\n"
    "--allow-partial writes anyway (exit 0).\n"
    "\n"
    "Options:\n"
    "  --schema FILE       a serval schema file (repeatable)\n"
    "  --type T            the type of the root value (a class or type expression)\n"
    "  --clear-containers  load: empty containers before adding to them\n"
    "  --keep-defaults     store: write values equal to their defaults too\n"
    "  --report FILE       write each reported issue as a JSON line, then the result\n"
    "                      (an issue: every report whose outcome is not Success)\n"
    "  --report-all        with --report: every report, Success ones too\n"
    "  --allow-partial     load, store, strip-defaults: write the output even when\n"
    "                      the result is not Completed, and exit 0\n"
    "  --no-imports        do not resolve \"$import\" directives\n" CLI_HELP_HELP "\n"
    "Exit status: 0 ok, 1 when the result is not Completed (or bad data), 2 usage\n"
    "error, 3 I/O error, 4 unsupported.\n";

typedef struct o3_cli {
    const char *type, *report_path;
    bool keep_defaults, clear_containers;
    bool report_all;    /* --report-all: Success reports too */
    bool no_imports;    /* --no-imports: "$import" left as it is */
    bool allow_partial; /* --allow-partial: output written whatever the result */
    sv_buf report;      /* JSON lines */
    sv_doc *scratch;
    bool validate; /* print issues to stdout as text */
    const char *cmd;
    const char *file;
    unsigned issues;
} o3_cli;

/* O3DE calls its reporting callback for every result, successes included;
 * its default reporter logs only those whose processing is not Completed.
 * An issue here is every report whose outcome is not Success: what was
 * skipped, defaulted, altered or halted (docs/formats/o3de.md, Reporting). */
static bool is_issue(const o3_cli *o, sv_o3de_result r)
{
    return o->report_all || sv_o3de_result_outcome(r) != SV_O3DE_SUCCESS;
}

static void put_json_line(o3_cli *o, const sv_value *v)
{
    sv_error err;
    sv_error_clear(&err);
    if (sv_o3de_write(v, 0, &o->report, &err) == SV_OK) sv_buf_putc(&o->report, '\n');
}

static sv_value text(sv_doc *d, const char *s)
{
    return sv_strz(d, s);
}

static sv_o3de_result on_report(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    o3_cli *o = ctx;
    const char *task = sv_o3de_task_name(sv_o3de_result_task(r));
    const char *proc = sv_o3de_processing_name(sv_o3de_result_processing(r));
    const char *outc = sv_o3de_outcome_name(sv_o3de_result_outcome(r));
    /* what O3DE's default reporter logs: every result not Completed */
    if (!o->validate && sv_o3de_result_processing(r) != SV_O3DE_COMPLETED)
        cli_error("%s: %s: %s: %s/%s/%s: %s", o->cmd, cli_display_name(o->file), *path ? path : "/",
                  task, proc, outc, message);
    if (!is_issue(o, r)) return r;
    o->issues++;
    if (o->validate) {
        printf("%s: %s: %s/%s/%s: %s\n", cli_display_name(o->file), *path ? path : "/", task, proc,
               outc, message);
    }
    if (o->report_path) {
        sv_doc *d = o->scratch;
        sv_value m = sv_map(d, 0);
        sv_map_append_str(d, &m, "path", text(d, path));
        sv_map_append_str(d, &m, "task", text(d, task));
        sv_map_append_str(d, &m, "processing", text(d, proc));
        sv_map_append_str(d, &m, "outcome", text(d, outc));
        sv_map_append_str(d, &m, "message", text(d, message));
        put_json_line(o, &m);
    }
    return r;
}

static void report_result(o3_cli *o, sv_o3de_result r)
{
    if (!o->report_path) return;
    sv_doc *d = o->scratch;
    sv_value in = sv_map(d, 0), m = sv_map(d, 0);
    sv_map_append_str(d, &in, "task", text(d, sv_o3de_task_name(sv_o3de_result_task(r))));
    sv_map_append_str(d, &in, "processing",
                      text(d, sv_o3de_processing_name(sv_o3de_result_processing(r))));
    sv_map_append_str(d, &in, "outcome", text(d, sv_o3de_outcome_name(sv_o3de_result_outcome(r))));
    sv_map_append_str(d, &m, "result", in);
    put_json_line(o, &m);
}

/* Takes this command's own options out of argv (the rest goes to the
 * shared parser). Returns 2 on a usage error. */
static int take_options(o3_cli *o, const char *cmd, int *argc, char **argv)
{
    int w = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        const char *name = NULL;
        if (strcmp(a, "--") == 0) {
            while (i < *argc) argv[w++] = argv[i++];
            break;
        }
        if (strncmp(a, "--type", 6) == 0 && (a[6] == 0 || a[6] == '=')) {
            slot = &o->type;
            name = "--type";
        } else if (strncmp(a, "--report", 8) == 0 && (a[8] == 0 || a[8] == '=')) {
            slot = &o->report_path;
            name = "--report";
        } else if (strcmp(a, "--report-all") == 0) {
            o->report_all = true;
            continue;
        } else if (strcmp(a, "--no-imports") == 0) {
            o->no_imports = true;
            continue;
        } else if (strcmp(a, "--allow-partial") == 0) {
            o->allow_partial = true;
            continue;
        } else if (strcmp(a, "--keep-defaults") == 0) {
            o->keep_defaults = true;
            continue;
        } else if (strcmp(a, "--clear-containers") == 0) {
            o->clear_containers = true;
            continue;
        }
        if (!slot) {
            argv[w++] = argv[i];
            continue;
        }
        size_t n = strlen(name);
        if (a[n] == '=') {
            *slot = a + n + 1;
        } else if (i + 1 < *argc) {
            *slot = argv[++i];
        } else {
            cli_usage_error(cmd, "option '%s' needs a value", name);
            return 2;
        }
    }
    *argc = w;
    return 0;
}

/* The type named by --type, else by the wrapper's ClassName. */
static const sv_type *find_type(cli_args *a, const char *cmd, const char *name, size_t len)
{
    const sv_type *t = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_schema_parse_type(a->schema, name, len, &t, &err) != SV_OK) {
        cli_error("%s: type '%.*s': %s", cmd, (int)len, name, err.message);
        return NULL;
    }
    return t;
}

typedef struct loaded {
    cli_input in;
    sv_doc *doc;
    sv_value root;            /* the whole document, imports resolved */
    sv_o3de_imports *imports; /* its own directives (NULL: none resolved) */
    o3_importer importer;     /* reads the files they name */
    sv_o3de_result import_result;
    sv_value json; /* the class data (unwrapped) */
    const char *class_name;
    size_t class_len;
    bool wrapped;
    bool have_value; /* the load ran (the imports did not stop it) */
    const sv_type *t;
} loaded;

/* The library hands over each joined path; cmd_o3de_import.c decides that
 * any regular file will do, as O3DE's file IO reads any file. */
static sv_o3de_import_opts import_opts(loaded *l, o3_cli *o, const char *path)
{
    sv_o3de_import_opts io;
    sv_o3de_import_opts_init(&io);
    io.load = o3_import_load;
    io.identify = o3_import_identify;
    io.load_ctx = &l->importer;
    io.path = cli_is_stdio(path) ? "" : path;
    io.report = on_report;
    io.report_ctx = o;
    return io;
}

/* pre: the input already read (NULL: read it here). */
static int read_o3de(cli_args *a, o3_cli *o, const char *cmd, const char *path, loaded *l,
                     const cli_input *pre)
{
    memset(l, 0, sizeof *l);
    sv_status st = SV_OK;
    if (pre)
        l->in = *pre;
    else
        st = cli_read_input(path, &l->in);
    if (st) return cli_exit_code(st);
    l->doc = sv_doc_new(NULL);
    if (!l->doc) return 3;
    if (a->limits.max_alloc) sv_doc_set_max_alloc(l->doc, a->limits.max_alloc);
    o3_importer_init(&l->importer, a, l->doc, l->in.len);
    sv_error err;
    sv_error_clear(&err);
    sv_value root;
    st = sv_o3de_read(l->doc, (const char *)l->in.data, l->in.len, &a->limits, &root, &err);
    /* the tree holds copies of everything it needs (sv_o3de_read does not
     * borrow), so the input's pages go now rather than stay through the
     * load and the output */
    cli_input_free(&l->in);
    if (st) {
        cli_report(path, &err);
        return cli_exit_code(st);
    }
    l->import_result = sv_o3de_result_make(SV_O3DE_IMPORT, SV_O3DE_SUCCESS);
    if (!o->no_imports) {
        o->file = path;
        sv_o3de_import_opts io = import_opts(l, o, path);
        l->imports = sv_o3de_imports_new(NULL);
        st = l->imports
                 ? sv_o3de_resolve_imports(l->doc, &root, &io, l->imports, &l->import_result, &err)
                 : sv_error_set(&err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
        if (st) {
            cli_report(path, &err);
            return cli_exit_code(st);
        }
    }
    l->root = root;
    const sv_value *data;
    l->wrapped = sv_o3de_unwrap(&root, &l->class_name, &l->class_len, &data);
    l->json = l->wrapped ? *data : root;
    if (o->type)
        l->t = find_type(a, cmd, o->type, strlen(o->type));
    else if (l->wrapped)
        l->t = find_type(a, cmd, l->class_name, l->class_len);
    else {
        cli_usage_error(cmd, "needs --type (the input is not a JsonSerialization wrapper)");
        return 2;
    }
    return l->t ? 0 : 4;
}

static void free_loaded(loaded *l)
{
    sv_o3de_imports_free(l->imports);
    cli_input_free(&l->in);
    sv_doc_free(l->doc);
}

/* O3DE's AppendToString, as the library gives it, but readable: O3DE
 * writes "an import operation" without the space before what follows. */
static void describe(sv_o3de_result r, sv_buf *b)
{
    sv_o3de_result_describe(r, NULL, b);
    static const char glued[] = "an import operation";
    if (sv_o3de_result_task(r) == SV_O3DE_IMPORT && b->data) {
        const char *at = strstr((const char *)b->data, glued);
        size_t from = at ? (size_t)(at - (const char *)b->data) + sizeof glued - 1 : 0;
        if (at && from < b->len && b->data[from] != ' ') {
            sv_buf t;
            sv_buf_init(&t, NULL);
            sv_buf_append(&t, b->data, from);
            sv_buf_putc(&t, ' ');
            sv_buf_append(&t, b->data + from, b->len - from);
            sv_buf_free(b);
            *b = t;
        }
    }
    sv_buf_putc(b, 0);
}

/* The exit status O3DE's result gives: 0 when Completed (Success, Skipped,
 * DefaultsUsed and their partial forms), else 1 with the result on
 * standard error, and the output is not written unless --allow-partial
 * (then exit 0). *write says whether to write it. */
static int result_exit(const o3_cli *o, const char *path, sv_o3de_result r, bool have_value,
                       bool *write)
{
    *write = true;
    if (sv_o3de_result_processing(r) == SV_O3DE_COMPLETED) return 0;
    bool keep = o->allow_partial && have_value;
    sv_buf b;
    sv_buf_init(&b, NULL);
    describe(r, &b);
    cli_error("%s: %s: %s (%s/%s/%s); %s", o->cmd, cli_display_name(path),
              b.data ? (const char *)b.data : "not completed",
              sv_o3de_task_name(sv_o3de_result_task(r)),
              sv_o3de_processing_name(sv_o3de_result_processing(r)),
              sv_o3de_outcome_name(sv_o3de_result_outcome(r)),
              keep         ? "written as it is (--allow-partial)"
              : have_value ? "nothing written (--allow-partial writes it)"
                           : "nothing written");
    sv_buf_free(&b);
    *write = keep;
    return keep ? 0 : 1;
}

static int write_report(o3_cli *o)
{
    if (!o->report_path) return 0;
    return cli_exit_code(cli_write_output(o->report_path, o->report.data, o->report.len));
}

static sv_o3de_opts make_opts(o3_cli *o)
{
    sv_o3de_opts opts;
    sv_o3de_opts_init(&opts);
    opts.keep_defaults = o->keep_defaults;
    opts.clear_containers = o->clear_containers;
    opts.report = on_report;
    opts.report_ctx = o;
    return opts;
}

/* Loads the file into its type's default; *r gets the result. */
static int load_value(cli_args *a, o3_cli *o, const char *cmd, const char *path, loaded *l,
                      sv_value *v, sv_o3de_result *r, const cli_input *pre)
{
    int rc = read_o3de(a, o, cmd, path, l, pre);
    if (rc) return rc;
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_opts opts = make_opts(o);
    o->file = path;
    *v = sv_null();
    if (sv_o3de_result_processing(l->import_result) == SV_O3DE_HALTED) {
        *r = l->import_result; /* nothing to load: the imports failed */
        return 0;
    }
    sv_status st = sv_o3de_default_value(a->schema, l->t, l->doc, v, &err);
    if (!st) st = sv_o3de_load(a->schema, l->t, &l->json, l->doc, v, &opts, r, &err);
    if (st) {
        cli_report(path, &err);
        return cli_exit_code(st);
    }
    l->have_value = true;
    return 0;
}

/* The typed JSON goes to standard output while it is encoded (the
 * encoder hands over each window of bytes it will not touch again), so a
 * large value's text is never held whole. A failed encode (out of memory)
 * leaves what was written before it, and exits non-zero. */
typedef struct stdout_sink {
    bool failed; /* the write failed: cli_write_output said why */
} stdout_sink;

static sv_status to_stdout(void *ctx, const uint8_t *data, size_t len)
{
    stdout_sink *s = ctx;
    sv_status st = cli_write_output(NULL, data, len);
    if (st) s->failed = true;
    return st;
}

static int print_typed(const sv_value *v, const char *path)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    stdout_sink sink = {false};
    sv_buf_set_sink(&b, to_stdout, &sink, 0);
    sv_json_encode_opts jo;
    sv_json_encode_opts_init(&jo);
    jo.indent = 2;
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_json_encode(v, &jo, &b, &err);
    if (!st) {
        sv_buf_putc(&b, '\n');
        st = sv_buf_flush(&b);
        if (st && !sink.failed) st = sv_error_set(&err, st, "json", 0, "out of memory");
    }
    if (st && !sink.failed) cli_report(path, &err);
    sv_buf_free(&b);
    return cli_exit_code(st);
}

/* Whether the text may be loaded without its whole tree
 * (sv_o3de_load_text): only when read_o3de's steps on the tree would
 * change nothing, that is with no "$import" directive to resolve and no
 * JsonSerialization wrapper to take off. Without a \u escape anywhere,
 * either would be spelled out in the text. */
static bool contains(const cli_input *in, const char *what)
{
    size_t n = strlen(what);
    const uint8_t *p = in->data, *end = in->data + in->len;
    while (p && (size_t)(end - p) >= n) {
        p = memchr(p, what[0], (size_t)(end - p) - n + 1);
        if (!p) return false;
        if (memcmp(p, what, n) == 0) return true;
        p++;
    }
    return false;
}

static bool streamable_text(const o3_cli *o, const cli_input *in)
{
    return !contains(in, "\\u") && !contains(in, "JsonSerialization") &&
           (o->no_imports || !contains(in, "$import"));
}

/* The pages of a mapped input that the load has read for the last time
 * go back to the system as it goes (they are the file's: nothing is lost),
 * so the input and the value it becomes are not held whole at once. */
typedef struct input_pages {
    const cli_input *in;
    size_t dropped; /* bytes from the start already let go */
} input_pages;

static void input_consumed(void *ctx, size_t upto)
{
#ifdef MADV_DONTNEED
    input_pages *ip = ctx;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t to = page ? upto / page * page : 0;
    if (!ip->in->mapped || to <= ip->dropped) return;
    (void)madvise(ip->in->data + ip->dropped, to - ip->dropped, MADV_DONTNEED);
    ip->dropped = to;
#else
    (void)ctx;
    (void)upto;
#endif
}

/* o3de load of a text that needs neither imports nor unwrapping, into a
 * document that ends up holding the value alone: 1 when done (*rc set),
 * 0 when load_value is to take the usual way. */
static int load_streamed(cli_args *a, o3_cli *o, const char *path, cli_input *in, int *rc)
{
    const sv_type *t = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (!o->type || !streamable_text(o, in) ||
        sv_schema_parse_type(a->schema, o->type, strlen(o->type), &t, &err) != SV_OK)
        return 0; /* load_value says why, in its order */
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) {
        *rc = 3;
        return 1;
    }
    if (a->limits.max_alloc) sv_doc_set_max_alloc(doc, a->limits.max_alloc);
    sv_o3de_opts opts = make_opts(o);
    o->file = path;
    sv_value v;
    sv_o3de_result r = 0;
    input_pages pages = {in, 0};
    sv_status st = sv_o3de_default_value(a->schema, t, doc, &v, &err);
    if (!st)
        st = sv_o3de_load_text(a->schema, t, (const char *)in->data, in->len, &a->limits, doc, &v,
                               &opts, &r, input_consumed, &pages, &err);
    cli_input_free(in);
    if (st) {
        cli_report(path, &err);
        *rc = cli_exit_code(st);
    } else {
        report_result(o, r);
        *rc = write_report(o);
        bool write;
        int x = result_exit(o, path, r, true, &write);
        if (!*rc && write) *rc = print_typed(&v, path);
        if (!*rc) *rc = x;
    }
    sv_doc_free(doc);
    return 1;
}

static int run_load(cli_args *a, o3_cli *o, const char *cmd)
{
    cli_input in;
    sv_status st = cli_read_input(a->files[0], &in);
    if (st) return cli_exit_code(st);
    int rc;
    if (load_streamed(a, o, a->files[0], &in, &rc)) return rc;
    loaded l;
    sv_value v;
    sv_o3de_result r;
    rc = load_value(a, o, cmd, a->files[0], &l, &v, &r, &in);
    if (!rc) {
        report_result(o, r);
        rc = write_report(o);
        bool write;
        int x = result_exit(o, a->files[0], r, l.have_value, &write);
        if (!rc && write) rc = print_typed(&v, a->files[0]);
        if (!rc) rc = x;
    }
    free_loaded(&l);
    return rc;
}

static int print_o3de(const sv_value *j, const char *path)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_status st = sv_o3de_write(j, 4, &b, &err);
    sv_buf_putc(&b, '\n');
    if (!st)
        st = cli_write_output(NULL, b.data, b.len);
    else
        cli_report(path, &err);
    sv_buf_free(&b);
    return cli_exit_code(st);
}

static int run_store(cli_args *a, o3_cli *o, const char *cmd)
{
    const char *path = a->files[0];
    if (!o->type) {
        cli_usage_error(cmd, "needs --type");
        return 2;
    }
    const sv_type *t = find_type(a, cmd, o->type, strlen(o->type));
    if (!t) return 4;
    cli_input in;
    sv_status st = cli_read_input(path, &in);
    if (st) return cli_exit_code(st);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_value typed, v, j;
    sv_json_decode_opts jo;
    sv_json_decode_opts_init(&jo);
    jo.limits = a->limits;
    int rc = 0;
    st = doc ? sv_json_decode(doc, (const char *)in.data, in.len, &jo, &typed, &err) : SV_ERR_NOMEM;
    bool decoded = st == SV_OK; /* past the text: what fails now has a path, not a byte */
    if (!st) st = sv_schema_read_value(a->schema, t, &typed, doc, &v, &err);
    sv_o3de_result r = 0;
    sv_o3de_opts opts = make_opts(o);
    o->file = path;
    if (!st) st = sv_o3de_store(a->schema, t, &v, NULL, doc, &j, &opts, &r, &err);
    if (st) {
        if (decoded) err.byte_offset = SV_ERROR_NO_OFFSET;
        cli_report(path, &err);
        rc = cli_exit_code(st);
    } else {
        report_result(o, r);
        rc = write_report(o);
        bool write;
        int x = result_exit(o, path, r, true, &write);
        if (!rc && write) rc = print_o3de(&j, path);
        if (!rc) rc = x;
    }
    sv_doc_free(doc);
    cli_input_free(&in);
    return rc;
}

static int run_validate(cli_args *a, o3_cli *o, const char *cmd)
{
    int worst = 0;
    o->validate = true;
    for (size_t i = 0; i < a->file_count; i++) {
        loaded l;
        sv_value v;
        sv_o3de_result r;
        unsigned before = o->issues;
        int rc = load_value(a, o, cmd, a->files[i], &l, &v, &r, NULL);
        if (!rc) {
            printf("%s: %s/%s/%s%s\n", cli_display_name(a->files[i]),
                   sv_o3de_task_name(sv_o3de_result_task(r)),
                   sv_o3de_processing_name(sv_o3de_result_processing(r)),
                   sv_o3de_outcome_name(sv_o3de_result_outcome(r)),
                   o->issues == before ? ", no issues" : "");
            /* the codes load exits with: only a Completed result passes */
            if (sv_o3de_result_processing(r) != SV_O3DE_COMPLETED) rc = 1;
        }
        free_loaded(&l);
        if (rc > worst) worst = rc;
    }
    return worst;
}

static int run_strip(cli_args *a, o3_cli *o, const char *cmd)
{
    loaded l;
    sv_value v, j;
    sv_o3de_result r;
    int rc = load_value(a, o, cmd, a->files[0], &l, &v, &r, NULL);
    bool write = true;
    int partial = 0; /* the load's exit when --allow-partial goes on */
    if (!rc) partial = result_exit(o, a->files[0], r, l.have_value, &write);
    if (!rc && !write) rc = partial;
    if (!rc) {
        sv_error err;
        sv_error_clear(&err);
        o->keep_defaults = false;
        sv_o3de_opts opts = make_opts(o);
        sv_status st = sv_o3de_store(a->schema, l.t, &v, NULL, l.doc, &j, &opts, &r, &err);
        if (!st && l.wrapped) {
            char *name = malloc(l.class_len + 1);
            if (!name)
                st = SV_ERR_NOMEM;
            else {
                memcpy(name, l.class_name, l.class_len);
                name[l.class_len] = 0;
                st = sv_o3de_wrap(l.doc, name, &j, &j);
                free(name);
            }
        }
        if (!st && sv_o3de_imports_count(l.imports) > 0) {
            /* the input's own directives go back, each with the merge
             * patch from its file to what is left after stripping */
            sv_o3de_import_opts io = import_opts(&l, o, a->files[0]);
            sv_o3de_result ir;
            st = sv_o3de_restore_imports(l.doc, &j, &io, l.imports, &ir, &err);
            if (!st && sv_o3de_result_processing(ir) == SV_O3DE_HALTED) r = ir;
        }
        if (st) {
            cli_report(a->files[0], &err);
            rc = cli_exit_code(st);
        } else {
            rc = result_exit(o, a->files[0], r, true, &write);
            if (write) {
                int w = print_o3de(&j, a->files[0]);
                if (w) rc = w;
            }
        }
    }
    free_loaded(&l);
    return rc;
}

int cmd_o3de(int argc, char **argv)
{
    const char *sub = argc >= 2 ? argv[1] : NULL;
    if (sub && (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)) {
        fputs(help, stdout);
        return 0;
    }
    if (sub && strcmp(sub, "setreg") == 0) return cmd_o3de_setreg(argc - 1, argv + 1);
    if (sub && strcmp(sub, "prefab") == 0) return cmd_o3de_prefab(argc - 1, argv + 1);
    static const char *const subs[] = {"load", "store", "validate", "strip-defaults"};
    int which = -1;
    for (int i = 0; i < 4 && sub; i++)
        if (strcmp(sub, subs[i]) == 0) which = i;
    if (which < 0) {
        cli_usage_error("o3de",
                        sub ? "unknown subcommand '%s' (load, store, validate or strip-defaults)"
                            : "missing subcommand (load, store, validate or strip-defaults)%s",
                        sub ? sub : "");
        return 2;
    }
    char cmd[32];
    snprintf(cmd, sizeof cmd, "o3de %s", subs[which]);
    o3_cli o;
    memset(&o, 0, sizeof o);
    o.cmd = cmd;
    int n = argc - 1;
    char **args = argv + 1;
    int rc = take_options(&o, cmd, &n, args);
    if (rc) return rc;
    cli_args a;
    rc = cli_args_parse(&a, cmd, n, args, CLI_OPT_LIMITS);
    if (rc) return rc;
    sv_buf_init(&o.report, NULL);
    o.scratch = sv_doc_new(NULL);
    if (a.help) {
        fputs(help, stdout);
    } else if (!a.schema) {
        cli_usage_error(cmd, "needs --schema FILE");
        rc = 2;
    } else if (a.file_count == 0 || (which != 2 && a.file_count > 1)) {
        cli_usage_error(cmd, which == 2 ? "needs at least one FILE" : "needs exactly one input");
        rc = 2;
    } else if (!o.scratch) {
        rc = 3;
    } else {
        switch (which) {
        case 0: rc = run_load(&a, &o, cmd); break;
        case 1: rc = run_store(&a, &o, cmd); break;
        case 2: rc = run_validate(&a, &o, cmd); break;
        default: rc = run_strip(&a, &o, cmd); break;
        }
    }
    sv_doc_free(o.scratch);
    sv_buf_free(&o.report);
    cli_args_free(&a);
    return rc;
}
