/* Detection for the serval command (see cli_detect.h). */
#include <stdio.h>
#include <string.h>

#include "cli_detect.h"
#include "cli_diag.h"

const char *cli_detect_list(const sv_format_candidate *c, size_t n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s (confidence %d)", i ? ", " : "",
                         c[i].format->name, c[i].score);
        if (w < 0) break;
        used += (size_t)w;
    }
    return buf;
}

/* Why nothing fits, when the bytes say: NULL otherwise. */
static const char *no_format_reason(const char *filename, const uint8_t *data, size_t len)
{
    if (len == 0) return "the input is empty";
    if (len >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
        return "the input starts with a UTF-8 byte order mark, which JSON does not allow "
               "(remove the first 3 bytes)";
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    if (i == len) return "the input holds only white space";
    (void)filename;
    return NULL;
}

/* A .resonitepackage (a zip) is read by its own command. */
static bool is_package(const char *filename, const uint8_t *data, size_t len)
{
    const char *ext = ".resonitepackage";
    size_t n = filename ? strlen(filename) : 0, e = strlen(ext);
    if (n > e && strcmp(filename + n - e, ext) == 0) return true;
    return len >= 4 && memcmp(data, "PK\x03\x04", 4) == 0;
}

int cli_detect_pick(const char *display, const char *filename, const uint8_t *data, size_t len,
                    const sv_format **out)
{
    sv_format_candidate c[CLI_DETECT_MAX];
    size_t n = sv_format_detect_all(data, len, filename, c, CLI_DETECT_MAX);
    if (n > CLI_DETECT_MAX) n = CLI_DETECT_MAX;
    char list[512];
    if (n > 0 && !sv_format_candidates_ambiguous(c, n)) {
        *out = c[0].format;
        return 0;
    }
    *out = NULL;
    if (n > 0) {
        /* the ones that tie with the first */
        size_t tied = 1;
        while (tied < n && c[tied].score == c[0].score && c[tied].by_extension == c[0].by_extension)
            tied++;
        cli_error("%s: the format is ambiguous: %s; name it with --from %s (or --from %s)",
                  display, cli_detect_list(c, tied, list, sizeof list), c[0].format->name,
                  c[1].format->name);
        return 1;
    }
    if (is_package(filename, data, len)) {
        cli_error("%s: a .resonitepackage (zip) is not one data tree; use 'serval resonite "
                  "package list|dump|extract %s' (and 'serval resonite package pack DIR -o "
                  "FILE' to write one)",
                  display, display);
        return 4;
    }
    const char *why = no_format_reason(filename, data, len);
    if (why) {
        cli_error("%s: cannot tell the format: %s", display, why);
        return 1;
    }
    size_t count = 0;
    const sv_format *const *all = sv_formats(&count);
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < count && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", all[i]->name);
        if (w < 0) break;
        used += (size_t)w;
    }
    cli_error("%s: cannot tell the format; name it with --from (known formats: %s)", display,
              list);
    return 4;
}

void cli_detect_print(const char *display, const char *filename, const uint8_t *data, size_t len)
{
    sv_format_candidate c[CLI_DETECT_MAX];
    size_t n = sv_format_detect_all(data, len, filename, c, CLI_DETECT_MAX);
    if (n > CLI_DETECT_MAX) n = CLI_DETECT_MAX;
    char list[512];
    if (n == 0) {
        const char *why = is_package(filename, data, len)
                              ? "a .resonitepackage; see 'serval resonite package'"
                              : no_format_reason(filename, data, len);
        if (why)
            printf("%s: unknown (%s)\n", display, why);
        else
            printf("%s: unknown\n", display);
    } else if (sv_format_candidates_ambiguous(c, n)) {
        printf("%s: ambiguous: %s\n", display, cli_detect_list(c, n, list, sizeof list));
    } else {
        printf("%s: %s\n", display, cli_detect_list(c, n, list, sizeof list));
    }
}
