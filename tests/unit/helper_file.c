#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_file.h"
#include "serval/serval.h"

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (the tests run from tests/)", path);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) fail_msg("cannot size %s", path);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) fail_msg("cannot read %s", path);
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

sv_schema *test_load_schema(const char *path)
{
    size_t len;
    char *text = test_read_file(path, &len);
    sv_schema *s = NULL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_schema_load(NULL, (const uint8_t *)text, len, path, &s, &err) != SV_OK)
        fail_msg("%s: %s", path, err.message);
    free(text);
    return s;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int test_each_file(const char *dir, const char *const *suffixes,
                   void (*fn)(const char *path, const uint8_t *data, size_t len, void *ctx),
                   void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int want = 0;
        for (const char *const *s = suffixes; *s && !want; s++) want = has_suffix(e->d_name, *s);
        if (!want) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *data = test_read_file(path, &len);
        fn(path, (const uint8_t *)data, len, ctx);
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

int test_each_row(const char *path, void (*fn)(const char *input, const char *want, void *ctx),
                  void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s (the tests run from tests/)", path);
    char line[256];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tab = strchr(line, '\t');
        if (!tab) fail_msg("%s: no tab in '%s'", path, line);
        *tab = 0;
        char *want = tab + 1;
        want[strcspn(want, "\r\n")] = 0;
        fn(line, want, ctx);
        rows++;
    }
    fclose(f);
    return rows;
}
