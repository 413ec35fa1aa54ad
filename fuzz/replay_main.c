/* The replay driver: runs a fuzz target's LLVMFuzzerTestOneInput on files,
 * without libFuzzer, so the corpus and the saved crash inputs become
 * regression tests under any compiler (CTest runs it with gcc, and with
 * clang under ASan+UBSan).
 *
 *   fuzz-replay-<format>-<kind> PATH...
 *
 * A PATH is a file or a folder (read recursively, dot files skipped). A
 * PATH that does not exist is skipped with a message, so a test can name
 * ../shared/samples/... and still run where that folder is absent. A broken
 * property aborts inside the target; reaching the end means every input
 * passed. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* Inputs larger than this are not fuzz inputs; skip them rather than spend
 * the test's time (the samples are far smaller). */
#define REPLAY_MAX_INPUT (64u << 20)

static long g_files;

static int replay_file(const char *path, off_t size)
{
    if (size < 0 || (uint64_t)size > REPLAY_MAX_INPUT) {
        printf("replay: skipping %s (%lld bytes)\n", path, (long long)size);
        return 0;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t n = (size_t)size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf || fread(buf, 1, n, f) != n) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        fclose(f);
        free(buf);
        return 1;
    }
    fclose(f);
    /* A copy of exactly n bytes, so ASan sees a read past the input. */
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    g_files++;
    return 0;
}

static int replay_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (depth == 0) printf("replay: %s is absent, skipped\n", path);
        return 0;
    }
    if (S_ISREG(st.st_mode)) return replay_file(path, st.st_size);
    if (!S_ISDIR(st.st_mode) || depth > 8) return 0;
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t need = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(need);
        if (!child) {
            rc = 1;
            break;
        }
        snprintf(child, need, "%s/%s", path, e->d_name);
        rc |= replay_path(child, depth + 1);
        free(child);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= replay_path(argv[i], 0);
    /* An input that breaks a property aborts before this line; what is
     * left to fail here is a file that could not be read. */
    printf("%ld passed, %d failed\n", g_files, rc ? 1 : 0);
    return rc;
}
