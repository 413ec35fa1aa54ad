/* serval schema: check schema files, show their classes. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_cmds.h"
#include "cli_diag.h"
#include "cli_io.h"
#include "cli_schema.h"
#include "serval/serval.h"

static const char help[] =
    "usage: serval schema check FILE...\n"
    "       serval schema show FILE [CLASS]\n"
    "\n"
    "Schemas describe the classes, fields and enums of formats that do not\n"
    "describe themselves (the serval schema file is JSON; see docs/schema.md).\n"
    "\n"
    "  check   load each FILE, merge them, and print a summary of each and of\n"
    "          the merged schema\n"
    "  show    list the enums and classes of FILE, or print CLASS (or an enum)\n"
    "          with its full field list, base classes' fields first\n"
    "\n"
    "Options:\n" CLI_HELP_HELP "\n" CLI_HELP_EXIT;

static const char *plural(size_t n, const char *one, const char *many) { return n == 1 ? one : many; }

static void summary(const char *label, const sv_schema *s)
{
    size_t e = sv_schema_enum_count(s), c = sv_schema_class_count(s), f = cli_schema_field_count(s);
    printf("%s: ok, %zu %s, %zu %s, %zu %s\n", label, e, plural(e, "enum", "enums"), c,
           plural(c, "class", "classes"), f, plural(f, "field", "fields"));
}

static void each_file(const char *path, const sv_schema *s) { summary(cli_display_name(path), s); }

static int check(cli_args *a)
{
    sv_schema *merged;
    int rc = cli_schema_load_merged((const char *const *)a->files, a->file_count, &merged, each_file);
    if (!rc && a->file_count > 1) summary("merged", merged);
    sv_schema_free(merged);
    return rc;
}

static void print_enum(const sv_schema_enum *e)
{
    printf("enum %s: %s%s\n", e->name, sv_prim_name(e->underlying), e->bits ? ", bit flags" : "");
    for (uint32_t i = 0; i < e->nvalues; i++) {
        if (sv_prim_is_signed(e->underlying))
            printf("  %s = %lld\n", e->values[i].name, (long long)(int64_t)e->values[i].value);
        else
            printf("  %s = %llu\n", e->values[i].name, (unsigned long long)e->values[i].value);
    }
}

static int show(cli_args *a)
{
    sv_schema *s;
    int rc = cli_schema_load_one(a->files[0], &s);
    if (rc) return rc;
    if (a->file_count == 1) {
        for (size_t i = 0; i < sv_schema_enum_count(s); i++) {
            const sv_schema_enum *e = sv_schema_enum_at(s, i);
            printf("enum %s: %s, %u %s\n", e->name, sv_prim_name(e->underlying), e->nvalues,
                   plural(e->nvalues, "value", "values"));
        }
        for (size_t i = 0; i < sv_schema_class_count(s); i++) {
            const sv_schema_class *c = sv_schema_class_at(s, i);
            size_t n;
            sv_schema_class_fields(c, &n);
            printf("class %s", c->name);
            for (uint32_t b = 0; b < c->nbases; b++) printf("%s%s", b ? ", " : ": ", c->bases[b]->name);
            printf(" (%zu %s)\n", n, plural(n, "field", "fields"));
        }
    } else {
        const char *name = a->files[1];
        const sv_schema_class *c = sv_schema_class_by_name(s, name, strlen(name));
        const sv_schema_enum *e = sv_schema_enum_by_name(s, name, strlen(name));
        if (c) {
            sv_buf out;
            sv_buf_init(&out, NULL);
            sv_status st = sv_schema_describe_class(s, c, &out);
            if (!st) st = cli_write_output(NULL, out.data, out.len);
            else cli_error("%s", sv_status_str(st));
            rc = cli_exit_code(st);
            sv_buf_free(&out);
        } else if (e) {
            print_enum(e);
        } else {
            cli_error("%s: no class or enum named '%s'", cli_display_name(a->files[0]), name);
            rc = cli_exit_code(SV_ERR_NOT_FOUND);
        }
    }
    sv_schema_free(s);
    return rc;
}

int cmd_schema(int argc, char **argv)
{
    const char *sub = argc >= 2 ? argv[1] : NULL;
    if (sub && (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)) {
        fputs(help, stdout);
        return 0;
    }
    bool is_check = sub && strcmp(sub, "check") == 0, is_show = sub && strcmp(sub, "show") == 0;
    if (!is_check && !is_show) {
        cli_usage_error("schema", sub ? "unknown subcommand '%s' (check or show)"
                                      : "missing subcommand (check or show)%s",
                        sub ? sub : "");
        return 2;
    }
    const char *cmd = is_check ? "schema check" : "schema show";
    cli_args a;
    int rc = cli_args_parse(&a, cmd, argc - 1, argv + 1, 0);
    if (rc) return rc;
    if (a.help) {
        fputs(help, stdout);
    } else if (a.file_count == 0 || (is_show && a.file_count > 2)) {
        cli_usage_error(cmd, is_check ? "needs at least one FILE" : "needs FILE and at most one CLASS");
        rc = 2;
    } else {
        rc = is_check ? check(&a) : show(&a);
    }
    cli_args_free(&a);
    return rc;
}
