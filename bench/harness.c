/* serval-bench: timing, forked measurements and the counting allocator
 * (see harness.h for what is measured and why). */
#include "harness.h"
#include "heap_count.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the counting allocator ------------------------------------------------ */

/* One counter per process is enough: each measurement has a child to itself.
 * Locked, since the threaded .brson decoder allocates from its second
 * thread too (the Brotli decoder's memory). */
static uint64_t count_current;
static uint64_t count_peak;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_add(uint64_t grow, uint64_t shrink)
{
    pthread_mutex_lock(&count_lock);
    count_current = count_current + grow - shrink;
    if (count_current > count_peak) count_peak = count_current;
    pthread_mutex_unlock(&count_lock);
}

static void *count_malloc(void *ctx, size_t size)
{
    (void)ctx;
    void *p = malloc(size);
    if (p) count_add(size, 0);
    return p;
}

static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    void *p = realloc(ptr, new_size);
    if (p) count_add(new_size, ptr ? old_size : 0);
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (!ptr) return;
    free(ptr);
    count_add(0, size);
}

static const sv_alloc counting_alloc = {count_malloc, count_realloc, count_free, NULL};

const sv_alloc *bench_counting_alloc(void)
{
    return &counting_alloc;
}
uint64_t bench_alloc_current(void)
{
    return count_current;
}
uint64_t bench_alloc_peak(void)
{
    return count_peak;
}
void bench_alloc_reset_peak(void)
{
    count_peak = count_current;
}

/* ---- small helpers ------------------------------------------------------------ */

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool bench_fail(bench_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    va_end(ap);
    return false;
}

double bench_mb_per_s(size_t bytes, double seconds)
{
    return seconds > 0 ? (double)bytes / 1e6 / seconds : 0.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summarise(bench_result *res)
{
    double sorted[BENCH_MAX_RUNS];
    int n = res->runs;
    memcpy(sorted, res->seconds, (size_t)n * sizeof sorted[0]);
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_double);
    res->min_s = sorted[0];
    res->median_s = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* ---- resident-set figures (Linux /proc) ------------------------------------------ */

/* Resident bytes now: the second field of /proc/self/statm, in pages. */
static uint64_t rss_now(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long size = 0, resident = 0;
    if (!f) return 0;
    if (fscanf(f, "%llu %llu", &size, &resident) != 2) resident = 0;
    fclose(f);
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Resets the kernel's resident high-water mark (what ru_maxrss reports) to
 * the current resident size: "5" to /proc/self/clear_refs (Linux >= 4.0). */
static bool reset_rss_high_water(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return false;
    bool ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

static uint64_t rss_peak(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (uint64_t)ru.ru_maxrss * 1024u; /* Linux reports kilobytes */
}

/* ---- the child ------------------------------------------------------------------ */

/* What a child sends back: after setup, after each step, and at the end. */
typedef struct reply {
    bool ok;
    bool external;       /* setup */
    bool unavailable;    /* setup */
    double seconds;      /* step */
    uint64_t out_size;   /* step */
    double user_s, sys_s; /* step */
    uint64_t minflt;     /* step */
    uint64_t alloc_peak; /* end */
    uint64_t heap_growth; /* end */
    uint64_t rss_growth; /* end */
    bool rss_reset;      /* end */
    char msg[BENCH_MSG_MAX];
} reply;

enum { CMD_STEP = 'S', CMD_END = 'E' };

static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

static bool read_all(int fd, void *p, size_t n)
{
    char *c = p;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, c + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        got += (size_t)k;
    }
    return true;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static void child_step(const bench_impl *impl, bench_ctx *ctx, reply *rep)
{
    ctx->made = NULL;
    ctx->self_seconds = 0;
    alarm(BENCH_CHILD_TIMEOUT_S);
    /* getrusage is outside the clock: it is a system call of its own. */
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    double t0 = bench_now();
    bool ok = impl->step(ctx);
    double t1 = bench_now();
    getrusage(RUSAGE_SELF, &ru1);
    rep->user_s = tv_seconds(ru1.ru_utime) - tv_seconds(ru0.ru_utime);
    rep->sys_s = tv_seconds(ru1.ru_stime) - tv_seconds(ru0.ru_stime);
    rep->minflt = (uint64_t)(ru1.ru_minflt - ru0.ru_minflt);
    rep->ok = ok;
    rep->seconds = ctx->self_seconds > 0 ? ctx->self_seconds : t1 - t0;
    if (!ok) {
        snprintf(rep->msg, sizeof rep->msg, "run failed: %.200s", ctx->msg);
        return;
    }
    if (impl->after_step) impl->after_step(ctx);
    rep->out_size = ctx->out_size; /* after_step may be the one that measures it */
}

/* Sets up, answers, then does one step per CMD_STEP until CMD_END. */
static void child_main(const bench_impl *impl, const bench_input *in, int cmd_fd, int reply_fd)
{
    bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.in = in;
    ctx.alloc = bench_counting_alloc();
    uint64_t rss_at_fork = rss_now();
    reply rep;
    memset(&rep, 0, sizeof rep);

    alarm(BENCH_CHILD_TIMEOUT_S);
    rep.ok = impl->setup(&ctx);
    if (!rep.ok)
        snprintf(rep.msg, sizeof rep.msg, "%s: %.200s",
                 ctx.unavailable ? "not measured" : "setup failed", ctx.msg);
    rep.external = ctx.external;
    rep.unavailable = ctx.unavailable;
    bool rss_reset = reset_rss_high_water();
    bench_alloc_reset_peak();
    bench_heap_reset_peak();
    uint64_t heap_at_start = bench_heap_current();
    if (!write_all(reply_fd, &rep, sizeof rep) || !rep.ok) _exit(0);
    alarm(0); /* waiting for the others is not this child's time */

    char cmd;
    while (read_all(cmd_fd, &cmd, 1)) {
        memset(&rep, 0, sizeof rep);
        if (cmd == CMD_STEP) {
            child_step(impl, &ctx, &rep);
            alarm(0);
        } else {
            uint64_t peak = rss_peak();
            rep.ok = true;
            rep.alloc_peak = bench_alloc_peak();
            uint64_t heap_peak = bench_heap_peak();
            rep.heap_growth = heap_peak > heap_at_start ? heap_peak - heap_at_start : 0;
            rep.rss_growth = peak > rss_at_fork ? peak - rss_at_fork : 0;
            rep.rss_reset = rss_reset;
        }
        if (!write_all(reply_fd, &rep, sizeof rep) || !rep.ok || cmd != CMD_STEP) break;
    }
    _exit(0);
}

/* ---- the parent ---------------------------------------------------------------- */

typedef struct child {
    pid_t pid;
    int cmd_fd;   /* parent writes commands */
    int reply_fd; /* parent reads replies */
    bool alive;
} child;

/* Says why a child gave no answer. */
static void describe_exit(int status, bench_result *res)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(res->msg, sizeof res->msg, "timed out after %d s", BENCH_CHILD_TIMEOUT_S);
    else if (WIFSIGNALED(status))
        snprintf(res->msg, sizeof res->msg, "crashed: %s (signal %d)", strsignal(WTERMSIG(status)),
                 WTERMSIG(status));
    else
        snprintf(res->msg, sizeof res->msg, "child ended (exit %d) without an answer",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Closes a child's pipes and waits for it; if why_from_status, the result's
 * message says how it ended. */
static void reap(child *k, bench_result *res, bool why_from_status)
{
    close(k->cmd_fd);
    close(k->reply_fd);
    int status = 0;
    while (waitpid(k->pid, &status, 0) < 0 && errno == EINTR) {
    }
    k->alive = false;
    if (why_from_status) describe_exit(status, res);
}

static void spawn(child *kids, size_t idx, const bench_impl *impl, const bench_input *in,
                  bench_result *res)
{
    int cmd[2], rep[2];
    kids[idx].alive = false;
    if (pipe(cmd) != 0) {
        snprintf(res->msg, sizeof res->msg, "pipe: %s", strerror(errno));
        return;
    }
    if (pipe(rep) != 0) {
        snprintf(res->msg, sizeof res->msg, "pipe: %s", strerror(errno));
        close(cmd[0]);
        close(cmd[1]);
        return;
    }
    /* Anything buffered would otherwise be printed twice, once by the child. */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        for (size_t j = 0; j < idx; j++) {
            if (!kids[j].alive) continue;
            close(kids[j].cmd_fd);
            close(kids[j].reply_fd);
        }
        close(cmd[1]);
        close(rep[0]);
        child_main(impl, in, cmd[0], rep[1]);
    }
    close(cmd[0]);
    close(rep[1]);
    if (pid < 0) {
        snprintf(res->msg, sizeof res->msg, "fork: %s", strerror(errno));
        close(cmd[1]);
        close(rep[0]);
        return;
    }
    kids[idx] = (child){pid, cmd[1], rep[0], true};
}

/* Sends cmd to a child and reads its reply; on any failure the child is
 * reaped and res says why. */
static bool ask(child *k, char cmd, reply *rep, bench_result *res)
{
    bool sent = cmd == 0 || write_all(k->cmd_fd, &cmd, 1);
    if (!sent || !read_all(k->reply_fd, rep, sizeof *rep)) {
        reap(k, res, true);
        return false;
    }
    if (!rep->ok) {
        snprintf(res->msg, sizeof res->msg, "%s", rep->msg);
        reap(k, res, false);
        return false;
    }
    return true;
}

int bench_measure(const bench_impl *const *impls, size_t n, const bench_input *in, int runs,
                  bench_result *res)
{
    child kids[BENCH_MAX_IMPLS];
    reply rep;
    if (n > BENCH_MAX_IMPLS) n = BENCH_MAX_IMPLS;
    if (runs < 1) runs = 1;
    if (runs > BENCH_MAX_RUNS) runs = BENCH_MAX_RUNS;
    /* A write to a child that died must be an error, not the end of the bench. */
    signal(SIGPIPE, SIG_IGN);

    for (size_t i = 0; i < n; i++) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].runs = runs;
        res[i].mem = impls[i]->mem;
        spawn(kids, i, impls[i], in, &res[i]);
    }
    /* The setups run side by side; nothing is timed until all are done. */
    for (size_t i = 0; i < n; i++) {
        if (!kids[i].alive) continue;
        memset(&rep, 0, sizeof rep);
        bool ok = ask(&kids[i], 0, &rep, &res[i]);
        res[i].external = rep.external;
        res[i].unavailable = !ok && rep.unavailable;
    }

    for (int r = 0; r < runs; r++) {
        for (size_t j = 0; j < n; j++) {
            size_t i = (j + (size_t)r) % n;
            if (!kids[i].alive || !ask(&kids[i], CMD_STEP, &rep, &res[i])) continue;
            res[i].seconds[r] = rep.seconds;
            res[i].out_size = rep.out_size;
            res[i].user_s += rep.user_s;
            res[i].sys_s += rep.sys_s;
            res[i].minflt += rep.minflt;
        }
    }

    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (kids[i].alive && ask(&kids[i], CMD_END, &rep, &res[i])) {
            res[i].alloc_peak = rep.alloc_peak;
            res[i].rss_growth = rep.rss_growth;
            res[i].rss_reset = rep.rss_reset;
            res[i].heap_growth = rep.heap_growth;
            res[i].heap_counted = bench_heap_counting() && !res[i].external;
            reap(&kids[i], &res[i], false);
            summarise(&res[i]);
            res[i].ok = true;
        }
        failed += !res[i].ok && !res[i].unavailable;
    }
    return failed;
}

/* ---- the memcpy yardstick ----------------------------------------------------
 * For formats with no peer that can run here: copying the same bytes once. */

static bool memcpy_setup(bench_ctx *ctx)
{
    ctx->state = malloc(ctx->in->len ? ctx->in->len : 1);
    if (!ctx->state) return bench_fail(ctx, "out of memory");
    memcpy(ctx->state, ctx->in->text, ctx->in->len); /* warm-up: touch every page */
    return true;
}

static bool memcpy_step(bench_ctx *ctx)
{
    memcpy(ctx->state, ctx->in->text, ctx->in->len);
    ctx->out_size =
        ((volatile uint8_t *)ctx->state)[ctx->in->len / 2] ? ctx->in->len : ctx->in->len;
    return true;
}

const bench_impl bench_memcpy_impl = {"memcpy", BENCH_MEM_RSS, memcpy_setup, memcpy_step, NULL};
