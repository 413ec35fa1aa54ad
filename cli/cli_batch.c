/* Running one command over many files (see cli_batch.h). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_batch.h"
#include "cli_diag.h"
#include "cli_doc.h"
#include "cli_io.h"

unsigned cli_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 1024 ? 1024u : (unsigned)n;
}

bool cli_verbose(const cli_args *a, int lvl)
{
    return a->verbosity >= lvl;
}

/* ---- the list of inputs -------------------------------------------------------- */

typedef struct job_list {
    cli_job *jobs;
    char **owned; /* strings the jobs point to, freed at the end */
    size_t count, cap, owned_count, owned_cap;
    /* For each job, the part of its path under the directory it was found
     * in with -r (its output's name under --output-dir), or NULL. */
    const char **rel;
} job_list;

static bool keep_string(job_list *l, char *s)
{
    if (!s) return false;
    if (l->owned_count == l->owned_cap) {
        size_t cap = l->owned_cap ? l->owned_cap * 2 : 16;
        char **o = realloc(l->owned, cap * sizeof *o);
        if (!o) {
            free(s);
            return false;
        }
        l->owned = o;
        l->owned_cap = cap;
    }
    l->owned[l->owned_count++] = s;
    return true;
}

static bool add_job(job_list *l, const char *input, const char *rel)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        cli_job *j = realloc(l->jobs, cap * sizeof *j);
        if (!j) return false;
        l->jobs = j;
        const char **r = realloc(l->rel, cap * sizeof *r);
        if (!r) return false;
        l->rel = r;
        l->cap = cap;
    }
    cli_job *j = &l->jobs[l->count];
    memset(j, 0, sizeof *j);
    j->input = input;
    l->rel[l->count++] = rel;
    return true;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Adds the regular files under dir, in name order, so that a batch gives the
 * same output every time. Symbolic links to directories are not followed
 * (no cycles); links to files are. root_len: the length of the directory
 * argument plus its slash, which rel paths leave out. Returns 0 or 3. */
static int walk(job_list *l, const char *dir, size_t root_len, unsigned depth)
{
    if (depth > 256) {
        cli_error("%s: directories nested too deep", dir);
        return 3;
    }
    DIR *d = opendir(dir);
    if (!d) {
        cli_error("%s: %s", dir, strerror(errno));
        return 3;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **more = realloc(names, cap * sizeof *more);
            if (!more) {
                rc = 3;
                break;
            }
            names = more;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = 3;
            break;
        }
        n++;
    }
    closedir(d);
    if (!rc) qsort(names, n, sizeof *names, cmp_names);
    size_t dlen = strlen(dir);
    bool slash = dlen && dir[dlen - 1] == '/';
    for (size_t i = 0; i < n && !rc; i++) {
        size_t plen = dlen + 1 + strlen(names[i]) + 1;
        char *path = malloc(plen);
        if (!path) {
            rc = 3;
            break;
        }
        snprintf(path, plen, "%s%s%s", dir, slash ? "" : "/", names[i]);
        struct stat st;
        if (lstat(path, &st) != 0) {
            cli_error("%s: %s", path, strerror(errno));
            free(path);
            rc = 3;
        } else if (S_ISDIR(st.st_mode)) {
            rc = walk(l, path, root_len, depth + 1);
            free(path);
        } else if (S_ISREG(st.st_mode) ||
                   (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode))) {
            if (!keep_string(l, path) || !add_job(l, path, path + root_len)) rc = 3;
        } else {
            free(path);
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    if (rc == 3 && errno == ENOMEM) cli_error("%s", sv_status_str(SV_ERR_NOMEM));
    return rc;
}

static int collect(cli_args *a, job_list *l)
{
    if (a->file_count == 0) {
        /* As jq and zstd do: no FILE means standard input, unless that is a
         * terminal, where nobody is about to type a binary file. */
        if (isatty(STDIN_FILENO)) {
            cli_usage_error(NULL, "no FILE given and standard input is a terminal");
            return 2;
        }
        return add_job(l, "-", NULL) ? 0 : 3;
    }
    for (size_t i = 0; i < a->file_count; i++) {
        const char *f = a->files[i];
        struct stat st;
        if (a->recursive && !cli_is_stdio(f) && stat(f, &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t len = strlen(f);
            int rc = walk(l, f, len + (len && f[len - 1] != '/'), 0);
            if (rc) return rc;
        } else if (!add_job(l, f, NULL)) {
            return 3;
        }
    }
    return 0;
}

/* ---- output names -------------------------------------------------------------- */

/* Makes every directory on the way to path's last slash. Returns 0 or an errno. */
static int make_parents(char *path)
{
    for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        int e = mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : errno;
        *p = '/';
        if (e) return e;
    }
    return 0;
}

/* DIR/REL with REL's extension replaced by ext: a file named on the command
 * line keeps only its base name, one found with -r its path under the
 * directory, so that a tree comes out as the same tree. */
static int name_output(const cli_args *a, const cli_batch *b, job_list *l, size_t i)
{
    cli_job *j = &l->jobs[i];
    if (cli_is_stdio(j->input)) {
        cli_usage_error(b->cmd, "--output-dir needs named files, not standard input");
        return 2;
    }
    const char *rel = l->rel[i];
    if (!rel) {
        const char *slash = strrchr(j->input, '/');
        rel = slash ? slash + 1 : j->input;
    }
    size_t stem = strlen(rel);
    const char *dot = strrchr(rel, '.');
    const char *slash = strrchr(rel, '/');
    if (b->out_ext && dot && dot != rel && (!slash || dot > slash + 1)) stem = (size_t)(dot - rel);
    size_t len = strlen(a->output_dir) + 1 + stem + 1 + (b->out_ext ? strlen(b->out_ext) : 0) + 1;
    char *out = malloc(len);
    if (!keep_string(l, out)) return 3;
    snprintf(out, len, "%s/%.*s%s%s", a->output_dir, (int)stem, rel, b->out_ext ? "." : "",
             b->out_ext ? b->out_ext : "");
    j->output = out;
    return 0;
}

/* ---- outputs that clash ----------------------------------------------------------- */

typedef struct named {
    const char *path;
    size_t job;
} named;

static int cmp_named(const void *x, const void *y)
{
    const named *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : (a->job > b->job) - (a->job < b->job);
}

typedef struct file_id {
    dev_t dev;
    ino_t ino;
    size_t job;
} file_id;

static int cmp_file_id(const void *x, const void *y)
{
    const file_id *a = x, *b = y;
    if (a->dev != b->dev) return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino) return a->ino < b->ino ? -1 : 1;
    return (a->job > b->job) - (a->job < b->job);
}

/* Before anything is written: two inputs whose outputs have one name
 * (x.bson and x.brson both make x.json) would leave the one that finishes
 * last, a different one from run to run under -j; an output that is
 * another input would change what that input's job reads. Both are usage
 * errors naming the files. An output that is its own input is fine: the
 * input is read whole before the output replaces it, as with -o. All
 * outputs are built as DIR/REL, so equal names are equal strings. Returns
 * 0, 2 or 3. */
static int check_outputs(const cli_batch *b, const job_list *l)
{
    size_t n = l->count;
    named *outs = malloc((n ? n : 1) * sizeof *outs);
    file_id *ins = malloc((n ? n : 1) * sizeof *ins);
    if (!outs || !ins) {
        free(outs);
        free(ins);
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) outs[i] = (named){l->jobs[i].output, i};
    qsort(outs, n, sizeof *outs, cmp_named);
    for (size_t i = 1; i < n && !rc; i++) {
        if (strcmp(outs[i - 1].path, outs[i].path) == 0) {
            cli_usage_error(b->cmd,
                            "%s and %s would both be written to %s (run them with "
                            "different --output-dir)",
                            l->jobs[outs[i - 1].job].input, l->jobs[outs[i].job].input,
                            outs[i].path);
            rc = 2;
        }
    }
    /* the inputs by identity, to look each existing output up */
    size_t kept = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        struct stat st;
        if (stat(l->jobs[i].input, &st) == 0) ins[kept++] = (file_id){st.st_dev, st.st_ino, i};
    }
    qsort(ins, kept, sizeof *ins, cmp_file_id);
    for (size_t i = 0; i < n && !rc; i++) {
        struct stat st;
        if (stat(l->jobs[i].output, &st) != 0) continue;
        file_id key = {st.st_dev, st.st_ino, 0};
        /* the first input with this identity, then every one after it */
        size_t lo = 0, hi = kept;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ins[mid].dev < key.dev || (ins[mid].dev == key.dev && ins[mid].ino < key.ino))
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < kept && ins[lo].dev == key.dev && ins[lo].ino == key.ino; lo++) {
            if (ins[lo].job == i) continue;
            cli_usage_error(b->cmd, "the output of %s would be written over %s, another input",
                            l->jobs[i].input, l->jobs[ins[lo].job].input);
            rc = 2;
            break;
        }
    }
    free(outs);
    free(ins);
    return rc;
}

/* ---- running ---------------------------------------------------------------------- */

typedef struct runner {
    cli_args *a;
    const cli_batch *b;
    job_list *l;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next; /* the next job to start */
    size_t done; /* jobs finished, in any order */
    bool *finished;
    bool stop; /* a usage error: start no more jobs */
} runner;

static void run_one(runner *r, size_t i)
{
    cli_job *j = &r->l->jobs[i];
    j->rc = r->b->run(r->a, j, r->b->ctx);
}

static void *worker(void *arg)
{
    runner *r = arg;
    cli_doc_worker_begin(); /* one document for all of this thread's files */
    pthread_mutex_lock(&r->mu);
    while (!r->stop && r->next < r->l->count) {
        size_t i = r->next++;
        pthread_mutex_unlock(&r->mu);
        run_one(r, i);
        pthread_mutex_lock(&r->mu);
        r->finished[i] = true;
        r->done++;
        if (r->l->jobs[i].rc == 2) r->stop = true;
        pthread_cond_broadcast(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
    cli_doc_worker_end();
    return NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct progress {
    bool on, forced; /* forced: --progress, shown from the start */
    double start, last;
    int width; /* characters of the last line, to blank it out */
} progress;

static void progress_show(progress *p, const char *cmd, size_t done, size_t total)
{
    double t = now();
    /* Short batches show nothing; a long one refreshes ten times a second. */
    if (!p->on || (!p->forced && (t - p->start < 0.5 || t - p->last < 0.1))) return;
    p->last = t;
    p->width = fprintf(stderr, "\rserval: %s: %zu/%zu files", cmd, done, total) - 1;
    fflush(stderr);
}

static void progress_clear(progress *p)
{
    if (!p->on || p->width <= 0) return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    p->width = 0;
}

/* Writes job i's standard output and, with -v, says what was done (for the
 * jobs that succeeded). */
static int finish_job(runner *r, size_t i, progress *p)
{
    cli_job *j = &r->l->jobs[i];
    int rc = j->rc;
    if (j->out.len) {
        /* on a terminal, stdout and stderr share the line the progress is on */
        progress_clear(p);
        sv_status st = cli_write_output(NULL, j->out.data, j->out.len);
        if (st != SV_OK && rc < 3) rc = 3;
    }
    if (cli_verbose(r->a, 1) && rc == 0) { /* a failure has said so already */
        progress_clear(p);
        cli_error("%s: %s%s%s", r->b->cmd, cli_display_name(j->input), j->output ? " -> " : "",
                  j->output ? j->output : "");
    }
    sv_buf_free(&j->out);
    return rc;
}

/* ---- signals while workers run ------------------------------------------------------ */

/* The signals that end the process by default, which a worker writing a
 * temporary file holds back (cli_io.c) until the file is renamed or
 * removed. A process-directed signal goes to any thread that does not
 * block it: with workers, that may be the main thread or a worker between
 * files, and the default action would end the process under the other
 * workers' temporary files. So while workers run, they block these signals
 * for good and only the main thread takes them, with a handler that tells
 * the writers to stop (cli_io_interrupt); once every worker has stopped and
 * every temporary file is gone, the signal is raised again with its
 * default action, so the exit status says what ended the process. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSTOP (sizeof stop_signals / sizeof *stop_signals)

typedef struct signal_state {
    struct sigaction old[NSTOP];
    bool caught[NSTOP]; /* a handler was installed (not for an ignored signal) */
} signal_state;

static void on_stop_signal(int sig)
{
    cli_io_interrupt(sig);
}

static void stop_signals_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < NSTOP; i++) sigaddset(set, stop_signals[i]);
}

/* Installs the handler for each signal that is not ignored (nohup's SIGHUP,
 * a background job's SIGINT stay ignored). */
static void catch_stop_signals(signal_state *s)
{
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_stop_signal;
    stop_signals_set(&act.sa_mask);
    for (size_t i = 0; i < NSTOP; i++) {
        s->caught[i] = false;
        if (sigaction(stop_signals[i], NULL, &s->old[i]) != 0) continue;
        if (s->old[i].sa_handler == SIG_IGN) continue;
        s->caught[i] = sigaction(stop_signals[i], &act, NULL) == 0;
    }
}

static void restore_stop_signals(const signal_state *s)
{
    for (size_t i = 0; i < NSTOP; i++)
        if (s->caught[i]) sigaction(stop_signals[i], &s->old[i], NULL);
}

/* After an interrupt: the signal again, with its default action (which ends
 * the process; were it to return, exit with the shell's code for it). */
static void reraise(int sig)
{
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static int run_all(runner *r, unsigned threads)
{
    size_t total = r->l->count;
    progress p = {0};
    p.on = r->a->verbosity >= 0 && total > 1 &&
           (r->a->progress > 0 || (r->a->progress == 0 && isatty(STDERR_FILENO)));
    p.forced = r->a->progress > 0;
    p.start = p.last = now();
    int worst = 0;
    size_t flushed = 0;

    if (threads <= 1) {
        cli_doc_worker_begin();
        for (size_t i = 0; i < total && !r->stop; i++) {
            run_one(r, i);
            int rc = finish_job(r, i, &p);
            flushed++;
            worst = cli_worse_exit(worst, rc);
            if (rc == 2) r->stop = true;
            progress_show(&p, r->b->cmd, i + 1, total);
        }
        cli_doc_worker_end();
        progress_clear(&p);
        return worst;
    }

    pthread_t *tids = calloc(threads, sizeof *tids);
    r->finished = calloc(total, sizeof *r->finished);
    if (!tids || !r->finished) {
        free(tids);
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
        return 3;
    }
    /* the workers are created with the stop signals blocked (a new thread
     * inherits the mask), then the main thread takes them again */
    signal_state sigs;
    catch_stop_signals(&sigs);
    sigset_t stops, saved;
    stop_signals_set(&stops);
    pthread_sigmask(SIG_BLOCK, &stops, &saved);
    unsigned started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tids[started], NULL, worker, r) != 0) break;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (started == 0) worker(r); /* no thread to be had: do it here */

    pthread_mutex_lock(&r->mu);
    for (;;) {
        if (cli_io_interrupted()) r->stop = true; /* no more jobs; running ones stop writing */
        while (flushed < total && r->finished[flushed]) {
            pthread_mutex_unlock(&r->mu);
            int rc = finish_job(r, flushed, &p);
            worst = cli_worse_exit(worst, rc);
            pthread_mutex_lock(&r->mu);
            flushed++;
        }
        bool all_started_done = r->done == r->next && (r->stop || r->next == total);
        if (flushed == total || (all_started_done && flushed == r->done)) break;
        size_t done = r->done;
        pthread_mutex_unlock(&r->mu);
        progress_show(&p, r->b->cmd, done, total);
        pthread_mutex_lock(&r->mu);
        if (!(flushed < total && r->finished[flushed])) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 100 * 1000 * 1000;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&r->cv, &r->mu, &until);
        }
    }
    pthread_mutex_unlock(&r->mu);
    for (unsigned t = 0; t < started; t++) pthread_join(tids[t], NULL);
    /* Jobs that finished out of order after a stop: their exit codes count,
     * their output is dropped with the batch. */
    for (size_t i = flushed; i < total; i++) {
        if (r->finished[i]) worst = cli_worse_exit(worst, r->l->jobs[i].rc);
        sv_buf_free(&r->l->jobs[i].out);
    }
    progress_clear(&p);
    free(tids);
    free(r->finished);
    restore_stop_signals(&sigs);
    return worst;
}

static bool refuse_terminal(const cli_args *a, const cli_batch *b, const job_list *l)
{
    if (!b->binary || a->force || cli_is_stdio(a->output) || !isatty(STDOUT_FILENO)) return false;
    for (size_t i = 0; i < l->count; i++) {
        if (!l->jobs[i].output) {
            cli_usage_error(b->cmd, "will not write binary data to a terminal; use -o FILE, "
                                    "-o - or --force");
            return true;
        }
    }
    return false;
}

int cli_batch_run(cli_args *a, const cli_batch *b)
{
    job_list l = {0};
    int rc = collect(a, &l);
    if (!rc && a->output && !cli_is_stdio(a->output) && l.count != 1) {
        cli_usage_error(b->cmd, "-o takes one input (%zu given); use --output-dir DIR", l.count);
        rc = 2;
    }
    if (!rc && a->output && a->output_dir) {
        cli_usage_error(b->cmd, "-o and --output-dir do not go together");
        rc = 2;
    }
    for (size_t i = 0; i < l.count && !rc; i++) {
        sv_buf_init(&l.jobs[i].out, NULL);
        if (a->output_dir)
            rc = name_output(a, b, &l, i);
        else if (a->output && !cli_is_stdio(a->output))
            l.jobs[i].output = a->output;
    }
    if (!rc && a->output_dir) rc = check_outputs(b, &l);
    /* only now, with every name known to be free of clashes, any directory */
    for (size_t i = 0; i < l.count && !rc && a->output_dir; i++) {
        char *out = (char *)l.jobs[i].output; /* one of l.owned */
        int e = make_parents(out);
        if (e) {
            cli_error("%s: %s", out, strerror(e));
            rc = 3;
        }
    }
    if (!rc && refuse_terminal(a, b, &l)) rc = 2;
    if (!rc) {
        unsigned threads = a->jobs ? a->jobs : cli_cpu_count();
        if (threads > l.count) threads = (unsigned)l.count;
        runner r = {.a = a, .b = b, .l = &l};
        pthread_mutex_init(&r.mu, NULL);
        pthread_cond_init(&r.cv, NULL);
        rc = run_all(&r, threads);
        pthread_cond_destroy(&r.cv);
        pthread_mutex_destroy(&r.mu);
    } else if (rc == 3 && l.count == 0) {
        cli_error("%s", sv_status_str(SV_ERR_NOMEM));
    }
    for (size_t i = 0; i < l.owned_count; i++) free(l.owned[i]);
    free(l.owned);
    free(l.jobs);
    free(l.rel);
    /* every worker has stopped and removed its temporary file */
    int sig = cli_io_interrupted();
    if (sig) reraise(sig);
    return rc;
}
