/* serval-bench: runs named workloads (all by default) and prints, for each,
 * one line per implementation and one line of ratios. What is measured and
 * how: README.md and harness.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <serval/serval.h>

#include "gen_json.h"
#if SERVAL_WITH_KINGSISLE
#include "gen_kiwad.h"
#endif
#include "harness.h"
#include "heap_count.h"
#include "peers/peers.h"
#include "targets.h"
#include "workloads.h"

#ifndef SERVAL_BENCH_BUILD_TYPE
#define SERVAL_BENCH_BUILD_TYPE "unknown"
#endif
#if defined(__clang__)
#define BENCH_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "an unknown compiler"
#endif

#define MAX_WORKLOADS 64

static const bench_workload *workloads[MAX_WORKLOADS];
static size_t workload_count;

/* What each workload gave, kept for the target check at the end. */
typedef struct workload_run {
    bool ran;       /* selected, and its input could be built */
    size_t in_len;  /* input bytes, for MB/s */
    size_t n;       /* implementations */
    bench_result res[BENCH_MAX_IMPLS];
} workload_run;
static workload_run runs_done[MAX_WORKLOADS];

static void collect_workloads(void)
{
#define BENCH_COLLECT(group)                                                                       \
    for (const bench_workload *w = bench_workloads_##group; w->name; w++)                          \
        if (workload_count < MAX_WORKLOADS) workloads[workload_count++] = w;
    BENCH_WORKLOAD_GROUPS(BENCH_COLLECT)
#undef BENCH_COLLECT
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: serval-bench [--runs N] [--size-mb N] [--verbose] [--no-targets] "
            "[workload...]\n"
            "       serval-bench --list\n"
            "       serval-bench [--size-mb N] --save FILE\n"
            "       serval-bench [--size-mb N] --save-kiwad FILE\n"
            "       serval-bench [--size-mb N] --save-input WORKLOAD FILE\n"
            "       serval-bench --save-types FILE\n"
            "  --runs N      timed runs per measurement (default 7, at most %d)\n"
            "  --size-mb N   size of generated inputs in MB of 10^6 bytes (default 50)\n"
            "  --verbose     also print every run's time\n"
            "  --no-targets  do not check the speed targets (exit 0 even when one is\n"
            "                missed); they are still printed\n"
            "  --list        print the workloads and exit\n"
            "  --save FILE   write the generated JSON document to FILE and exit\n"
            "  --save-kiwad FILE  write the kiwad workloads' archive (4 x --size-mb MB)\n"
            "                to FILE and exit\n"
            "  --save-input WORKLOAD FILE  write the input of WORKLOAD (the bytes it\n"
            "                decodes) to FILE and exit\n"
            "  --save-types FILE  write the kingsisle workloads' type list (wiztype JSON)\n"
            "                to FILE and exit\n"
            "  workload      a name from --list, or a group prefix (\"json\" = json.*);\n"
            "                default: all\n"
            "exit: 0 ok; 1 a measurement failed or a target was missed; 2 bad argument\n",
            BENCH_MAX_RUNS);
}

/* "json.parse" matches itself and the group name "json". */
static bool name_matches(const char *arg, const char *name)
{
    size_t n = strlen(arg);
    return strcmp(arg, name) == 0 || (strncmp(arg, name, n) == 0 && name[n] == '.');
}

static bool parse_number(const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

static void print_cpu(void)
{
    char line[256], model[200] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(model, sizeof model, "%s", colon + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    }
    if (f) fclose(f);
    /* The load says whether other work shared the machine during the run. */
    double load = -1;
    f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &load) != 1) load = -1;
    if (f) fclose(f);
    printf("cpu: %s, %ld online, load average %.2f at start\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), load);
}

static void print_header(const bench_opts *opts)
{
    /* __clang_version__ ends with a space; drop it. */
    int compiler_len = (int)strlen(BENCH_COMPILER);
    while (compiler_len > 0 && BENCH_COMPILER[compiler_len - 1] == ' ')
        compiler_len--;
    printf("serval-bench: serval %s (%s, %.*s)", sv_version(), SERVAL_BENCH_BUILD_TYPE,
           compiler_len, BENCH_COMPILER);
#ifdef SERVAL_BENCH_RAPIDJSON
    printf(", RapidJSON %s", bench_rj_version());
#else
    printf(", RapidJSON not built (rapidjson-dev or a C++ compiler missing)");
#endif
#ifdef SERVAL_BENCH_SIMDJSON
    printf(", simdjson %s", bench_sj_version());
#else
    printf(", simdjson not built (libsimdjson-dev or a C++ compiler missing)");
#endif
#ifdef SERVAL_BENCH_JANSSON
    printf(", jansson %s", bench_jansson_version());
#else
    printf(", jansson not built (libjansson-dev missing)");
#endif
    printf("\n");
    print_cpu();
    printf("speed: input bytes / median time of %d runs, MB = 10^6 bytes; "
           "ratio = peer median time / serval median time (> 1: serval is faster)\n",
           opts->runs);
    printf("memory: alloc = serval's peak bytes held, through a counting sv_alloc; "
           "rss = ru_maxrss growth of the forked child over its size at fork (peers; "
           "shown for serval too)\n");
    if (bench_heap_counting())
        printf("traffic, per timed run: heap = most bytes malloc held at once above the level "
               "at the start of the runs (every allocation of the process counted); faults = "
               "minor page faults; cpu = user + system time (getrusage)\n");
    else
        printf("traffic, per timed run: faults = minor page faults; cpu = user + system time "
               "(getrusage); heap not counted in this build\n");
}

/* The memory traffic and CPU split of one implementation, per timed run. */
static void print_traffic(const bench_workload *w, const bench_impl *impl, const bench_result *r)
{
    printf("%-12s %-10s ", w->name, impl->name);
    if (r->external) {
        printf("traffic not measured: the work runs in another process\n");
        return;
    }
    double runs = r->runs > 0 ? r->runs : 1;
    if (r->heap_counted) printf("heap +%.1f MB, ", (double)r->heap_growth / 1e6);
    printf("%.0f faults (%.1f MB of pages), cpu %.1f user + %.1f sys ms\n",
           (double)r->minflt / runs, (double)r->minflt / runs * (double)sysconf(_SC_PAGESIZE) / 1e6,
           r->user_s / runs * 1e3, r->sys_s / runs * 1e3);
}

static void print_result(const bench_workload *w, const bench_impl *impl, const bench_input *in,
                         const bench_result *r, bool verbose)
{
    printf("%-12s %-10s ", w->name, impl->name);
    if (!r->ok) {
        printf("%s%s\n", r->unavailable ? "" : "FAILED: ", r->msg);
        return;
    }
    const char *reset = r->rss_reset ? "" : " (high-water mark not reset)";
    printf("%9.1f MB/s  (median of %d: %.1f ms, min %.1f ms; ",
           bench_mb_per_s(in->len, r->median_s), r->runs, r->median_s * 1e3, r->min_s * 1e3);
    if (r->mem == BENCH_MEM_ALLOC)
        printf("peak %.1f MB alloc, rss +%.1f MB%s", (double)r->alloc_peak / 1e6,
               (double)r->rss_growth / 1e6, reset);
    else
        printf("peak +%.1f MB rss%s", (double)r->rss_growth / 1e6, reset);
    if (r->out_size) printf("; out %llu bytes", (unsigned long long)r->out_size);
    printf(")\n");
    print_traffic(w, impl, r);
    if (!verbose) return;
    printf("%-12s %-10s runs (ms, in order):", w->name, impl->name);
    for (int i = 0; i < r->runs; i++)
        printf(" %.1f", r->seconds[i] * 1e3);
    printf("\n");
}

static void print_ratios(const bench_workload *w, const bench_result *res, size_t n)
{
    if (n < 2) return;
    printf("%-12s ", w->name);
    if (!res[0].ok) {
        printf("no ratios: %s failed\n", w->impls[0]->name);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        const char *sep = i > 1 ? "   " : "";
        if (res[i].ok)
            printf("%s%s / %s = %.2fx", sep, w->impls[0]->name, w->impls[i]->name,
                   res[i].median_s / res[0].median_s);
        else
            printf("%s%s / %s = n/a", sep, w->impls[0]->name, w->impls[i]->name);
    }
    printf("\n");
}

/* Runs one workload; returns the number of failed measurements. */
static int run_workload(const bench_workload *w, const bench_opts *opts, workload_run *done)
{
    bench_input in;
    char msg[BENCH_MSG_MAX];
    if (!w->input(opts, &in, msg, sizeof msg)) {
        printf("%-12s FAILED: %s\n", w->name, msg);
        return 1;
    }
    bench_result *res = done->res;
    size_t n = 0;
    while (n < BENCH_MAX_IMPLS && w->impls[n])
        n++;
    done->ran = true;
    done->in_len = in.len;
    done->n = n;
    int failed = bench_measure(w->impls, n, &in, opts->runs, res);
    for (size_t i = 0; i < n; i++)
        print_result(w, w->impls[i], &in, &res[i], opts->verbose);
    print_ratios(w, res, n);
    fflush(stdout);
    return failed;
}

/* One row of the target table: prints it and says whether it was missed.
 * A row whose workload or peer did not run here is "not measured". */
static bool check_target(const bench_target *t, size_t wi)
{
    const workload_run *done = &runs_done[wi];
    const bench_workload *w = workloads[wi];
    char goal[64];
    /* the serval row compared: the workload's first unless the row names one */
    size_t me = 0;
    while (t->self && me < done->n && strcmp(w->impls[me]->name, t->self) != 0)
        me++;
    if (t->kind == BENCH_TARGET_RATIO && t->self)
        snprintf(goal, sizeof goal, "%s >= %.3gx %s", t->self, t->min, t->peer);
    else if (t->kind == BENCH_TARGET_RATIO)
        snprintf(goal, sizeof goal, ">= %.3gx %s", t->min, t->peer);
    else
        snprintf(goal, sizeof goal, ">= %.0f MB/s", t->min);
    printf("target %-22s %-20s ", t->workload, goal);
    if (!done->ran || me == done->n || !done->res[me].ok) {
        printf("not measured: %s %s\n", t->self ? t->self : "serval",
               !done->ran ? "did not run" : me == done->n ? "is not built in" : "failed");
        return false;
    }
    double value = bench_mb_per_s(done->in_len, done->res[me].median_s);
    if (t->kind == BENCH_TARGET_RATIO) {
        size_t p = 1;
        while (p < done->n && strcmp(w->impls[p]->name, t->peer) != 0)
            p++;
        if (p == done->n) {
            printf("not measured: %s is not built in\n", t->peer);
            return false;
        }
        if (!done->res[p].ok) {
            printf("not measured: %s\n", done->res[p].msg);
            return false;
        }
        value = done->res[p].median_s / done->res[me].median_s;
        printf("%.2fx  ", value);
    } else {
        printf("%.0f MB/s  ", value);
    }
    bool met = value >= t->min;
    printf("%s\n", met ? "target met" : "MISSED");
    return !met;
}

/* Prints the target summary for the workloads that ran (selected == NULL:
 * all of them); returns the number missed. */
static int check_targets(const bool *selected)
{
    int missed = 0;
    bool header = false;
    for (size_t t = 0; t < bench_target_count; t++) {
        const bench_target *target = &bench_targets[t];
        size_t i = 0;
        while (i < workload_count && strcmp(workloads[i]->name, target->workload) != 0)
            i++;
        if (selected && (i == workload_count || !selected[i])) continue;
        if (!header) printf("targets (bench/targets.c; 2-core VM class):\n");
        header = true;
        if (i == workload_count)
            printf("target %-22s not measured: its format is not built in\n", target->workload);
        else
            missed += check_target(target, i);
    }
    return missed;
}

static int save_json(const bench_opts *opts, const char *path)
{
    bench_json_doc doc;
    char msg[BENCH_MSG_MAX];
    if (!bench_gen_json((size_t)(opts->size_mb * 1e6), &doc, msg, sizeof msg)) {
        fprintf(stderr, "serval-bench: %s\n", msg);
        return 1;
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(doc.text, 1, doc.len, f) == doc.len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "serval-bench: cannot write %s\n", path);
    } else {
        printf("wrote %s: %zu bytes, %zu Entity objects\n", path, doc.len, doc.entities);
    }
    bench_json_doc_free(&doc);
    return ok ? 0 : 3;
}

static bool write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "serval-bench: cannot write %s\n", path);
    return ok;
}

/* Writes a workload's input bytes: the whole-process script converts them. */
static int save_input(const bench_opts *opts, const char *name, const char *path)
{
    for (size_t i = 0; i < workload_count; i++) {
        if (strcmp(workloads[i]->name, name) != 0) continue;
        bench_input in;
        char msg[BENCH_MSG_MAX];
        if (!workloads[i]->input(opts, &in, msg, sizeof msg)) {
            fprintf(stderr, "serval-bench: %s: %s\n", name, msg);
            return 1;
        }
        if (!write_file(path, in.text, in.len)) return 3;
        printf("wrote %s: %zu bytes, the input of %s\n", path, in.len, name);
        return 0;
    }
    fprintf(stderr, "serval-bench: no workload '%s' (see --list)\n", name);
    return 2;
}

#if SERVAL_WITH_KINGSISLE
bool bench_kingsisle_type_list(sv_buf *out);

static int save_types(const char *path)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    int rc = bench_kingsisle_type_list(&b) ? 0 : 1;
    if (rc) fprintf(stderr, "serval-bench: out of memory\n");
    if (!rc && !write_file(path, b.data, b.len)) rc = 3;
    sv_buf_free(&b);
    return rc;
}

static int save_kiwad(const bench_opts *opts, const char *path)
{
    bench_kiwad k;
    char msg[BENCH_MSG_MAX];
    if (!bench_gen_kiwad((size_t)(4 * opts->size_mb * 1e6), &k, msg, sizeof msg)) {
        fprintf(stderr, "serval-bench: %s\n", msg);
        return 1;
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(k.archive.data, 1, k.archive.len, f) == k.archive.len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok)
        fprintf(stderr, "serval-bench: cannot write %s\n", path);
    else
        printf("wrote %s: %zu bytes, %zu members, %zu bytes of content\n", path, k.archive.len,
               k.count, k.content_len);
    bench_kiwad_free(&k);
    return ok ? 0 : 3;
}
#endif

int main(int argc, char **argv)
{
    bench_opts opts = {7, 50.0, false};
    const char *save_path = NULL, *save_kiwad_path = NULL, *save_types_path = NULL;
    const char *save_input_name = NULL, *save_input_path = NULL;
    bool list = false, check = true;
    const char *names[MAX_WORKLOADS];
    size_t name_count = 0;

    collect_workloads();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        double v = 0;
        if (strcmp(a, "--runs") == 0 && parse_number(argv[i + 1], 1, BENCH_MAX_RUNS, &v) &&
            v == (int)v) {
            opts.runs = (int)v;
            i++;
        } else if (strcmp(a, "--size-mb") == 0 && parse_number(argv[i + 1], 0.001, 2000, &v)) {
            opts.size_mb = v;
            i++;
        } else if (strcmp(a, "--save") == 0 && argv[i + 1]) {
            save_path = argv[++i];
        } else if (strcmp(a, "--save-input") == 0 && argv[i + 1] && argv[i + 2]) {
            save_input_name = argv[++i];
            save_input_path = argv[++i];
        } else if (strcmp(a, "--save-types") == 0 && argv[i + 1]) {
            save_types_path = argv[++i];
        } else if (strcmp(a, "--save-kiwad") == 0 && argv[i + 1]) {
            save_kiwad_path = argv[++i];
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            opts.verbose = true;
        } else if (strcmp(a, "--no-targets") == 0) {
            check = false;
        } else if (strcmp(a, "--list") == 0) {
            list = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] != '-' && name_count < MAX_WORKLOADS) {
            names[name_count++] = a;
        } else {
            fprintf(stderr, "serval-bench: bad argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }

    if (list) {
        for (size_t i = 0; i < workload_count; i++)
            printf("%-12s %s\n", workloads[i]->name, workloads[i]->what);
        return 0;
    }
    if (save_path) return save_json(&opts, save_path);
    if (save_input_name) return save_input(&opts, save_input_name, save_input_path);
    if (save_types_path) {
#if SERVAL_WITH_KINGSISLE
        return save_types(save_types_path);
#else
        fprintf(stderr, "serval-bench: built without KingsIsle: no type list\n");
        return 2;
#endif
    }
    if (save_kiwad_path) {
#if SERVAL_WITH_KINGSISLE
        return save_kiwad(&opts, save_kiwad_path);
#else
        fprintf(stderr, "serval-bench: built without KingsIsle: no kiwad archive\n");
        return 2;
#endif
    }

    bool selected[MAX_WORKLOADS] = {false};
    for (size_t k = 0; k < name_count; k++) {
        bool any = false;
        for (size_t i = 0; i < workload_count; i++)
            if (name_matches(names[k], workloads[i]->name)) selected[i] = any = true;
        if (!any) {
            fprintf(stderr, "serval-bench: no workload '%s' (see --list)\n", names[k]);
            return 2;
        }
    }

    print_header(&opts);
    int failed = 0;
    for (size_t i = 0; i < workload_count; i++)
        if (name_count == 0 || selected[i])
            failed += run_workload(workloads[i], &opts, &runs_done[i]);
    if (failed) printf("%d measurement(s) failed\n", failed);
    int missed = check_targets(name_count == 0 ? NULL : selected);
    if (missed && check) printf("%d target(s) missed\n", missed);
    return failed || (missed && check) ? 1 : 0;
}
