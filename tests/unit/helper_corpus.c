#include "helper_corpus.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add_file(corpus *c, const char *path, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    uint8_t *data = malloc(len ? len : 1);
    if (!data || fread(data, 1, len, f) != len) {
        free(data);
        fclose(f);
        return;
    }
    fclose(f);
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        corpus_file *nf = realloc(c->files, cap * sizeof *nf);
        if (!nf) {
            free(data);
            return;
        }
        c->files = nf;
        c->cap = cap;
    }
    c->files[c->count].path = strdup(path);
    c->files[c->count].data = data;
    c->files[c->count].len = len;
    c->count++;
}

static int walk(corpus *c, const char *path, size_t max_len, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (S_ISREG(st.st_mode)) {
        if ((size_t)st.st_size <= max_len) add_file(c, path, (size_t)st.st_size);
        return 1;
    }
    if (!S_ISDIR(st.st_mode) || depth > 8) return 1;
    DIR *d = opendir(path);
    if (!d) return 1;
    /* readdir order is the file system's; sort for a stable test order. */
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) break;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++) {
        size_t need = strlen(path) + strlen(names[i]) + 2;
        char *child = malloc(need);
        if (child) {
            snprintf(child, need, "%s/%s", path, names[i]);
            walk(c, child, max_len, depth + 1);
            free(child);
        }
        free(names[i]);
    }
    free(names);
    return 1;
}

void corpus_load_default(corpus *c, size_t max_len)
{
    memset(c, 0, sizeof *c);
    walk(c, "vectors", max_len, 0);
    c->samples_present = walk(c, "../../shared/samples", max_len, 0);
    if (!c->samples_present)
        printf("note: ../shared/samples is absent; only the repository's vectors are used\n");
    walk(c, "../fuzz/regressions", max_len, 0);
}

void corpus_free(corpus *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->files[i].path);
        free(c->files[i].data);
    }
    free(c->files);
    memset(c, 0, sizeof *c);
}

corpus test_corpus;

int test_corpus_setup(void **state)
{
    (void)state;
    corpus_load_default(&test_corpus, 4u << 20);
    return 0;
}

int test_corpus_teardown(void **state)
{
    (void)state;
    corpus_free(&test_corpus);
    return 0;
}
