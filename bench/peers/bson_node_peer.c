/* serval-bench: the Node peer (bson_peers.h): node runs bench/node/peer.js
 * as a child process and does each timed run when told to over a pipe, so
 * the harness times the run plus one pipe round trip (tens of
 * microseconds). The child's memory is not in the harness's figures. */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bson_peers.h"

#ifndef SERVAL_BENCH_NODE_DIR
#define SERVAL_BENCH_NODE_DIR "bench/node"
#endif

extern char **environ;

struct bench_node {
    pid_t pid;
    FILE *to, *from;
    char path[64]; /* the temporary input file */
};

static bool read_reply(bench_node *n, const char *word, size_t *value, char *msg, size_t msg_size)
{
    char line[128];
    if (!fgets(line, sizeof line, n->from)) {
        snprintf(msg, msg_size, "node peer stopped (is node installed, and 'npm ci' run in %s?)",
                 SERVAL_BENCH_NODE_DIR);
        return false;
    }
    size_t wl = strlen(word);
    if (strncmp(line, word, wl) != 0 || line[wl] != ' ') {
        snprintf(msg, msg_size, "node peer said: %.100s", line);
        return false;
    }
    *value = (size_t)strtoull(line + wl + 1, NULL, 10);
    return true;
}

bench_node *bench_node_start(const char *job, const uint8_t *data, size_t len, size_t *count,
                             char *msg, size_t msg_size)
{
    bench_node *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    snprintf(n->path, sizeof n->path, "/tmp/serval-bench-node-XXXXXX");
    int fd = mkstemp(n->path);
    if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
        snprintf(msg, msg_size, "cannot write the node peer's input to %s", n->path);
        if (fd >= 0) close(fd), unlink(n->path);
        free(n);
        return NULL;
    }
    close(fd);
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) {
        snprintf(msg, msg_size, "pipe failed");
        unlink(n->path);
        free(n);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char script[512];
    snprintf(script, sizeof script, "%s/peer.js", SERVAL_BENCH_NODE_DIR);
    char *argv[] = {"node", script, (char *)job, n->path, NULL};
    int rc = posix_spawnp(&n->pid, "node", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        snprintf(msg, msg_size, "cannot start node (%s)", strerror(rc));
        close(in[1]);
        close(out[0]);
        unlink(n->path);
        free(n);
        return NULL;
    }
    n->to = fdopen(in[1], "w");
    n->from = fdopen(out[0], "r");
    if (!read_reply(n, "ready", count, msg, msg_size)) {
        bench_node_stop(n);
        return NULL;
    }
    return n;
}

bool bench_node_run(bench_node *n, size_t *out_size, char *msg, size_t msg_size)
{
    if (fputs("run\n", n->to) < 0 || fflush(n->to) != 0) {
        snprintf(msg, msg_size, "node peer is gone");
        return false;
    }
    return read_reply(n, "done", out_size, msg, msg_size);
}

void bench_node_stop(bench_node *n)
{
    if (!n) return;
    if (n->to) {
        fputs("quit\n", n->to);
        fclose(n->to);
    }
    if (n->from) fclose(n->from);
    if (n->pid > 0) waitpid(n->pid, NULL, 0);
    unlink(n->path);
    free(n);
}

const char *bench_node_version(void)
{
    static char v[128];
    if (v[0]) return v;
    char cmd[600];
    snprintf(cmd, sizeof cmd,
             "node -e \"process.stdout.write('node ' + process.version + ', bson ' + "
             "JSON.parse(require('fs').readFileSync('%s/node_modules/bson/package.json'))"
             ".version)\" 2>/dev/null",
             SERVAL_BENCH_NODE_DIR);
    FILE *p = popen(cmd, "r");
    if (!p || !fgets(v, sizeof v, p)) snprintf(v, sizeof v, "node peer unavailable");
    if (p) pclose(p);
    return v;
}
