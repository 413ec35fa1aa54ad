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

/* "godot4, godot3" into buf: the names of the first n. */
static const char *name_list(const sv_format_candidate *c, size_t n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", c[i].format->name);
        if (w < 0) break;
        used += (size_t)w;
    }
    return buf;
}

/* How many of the n candidates tie with the first. */
static size_t tied_with_first(const sv_format_candidate *c, size_t n)
{
    size_t tied = 1;
    while (tied < n && c[tied].score == c[0].score && c[tied].by_extension == c[0].by_extension)
        tied++;
    return tied;
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

/* A KingsIsle KIWAD archive (.wad) is read by its own command too. */
static bool is_kiwad(const uint8_t *data, size_t len)
{
    return len >= 5 && memcmp(data, "KIWAD", 5) == 0;
}

/* A Godot PCK archive, standalone or appended to an executable (which
 * then ends in "GDPC"), is read by 'serval godot pck'. 0: not one, 1: a
 * pack, 2: an executable with a pack. */
static int godot_pck_kind(const uint8_t *data, size_t len)
{
    if (len >= 4 && memcmp(data, "GDPC", 4) == 0) return 1;
    if (len >= 16 && memcmp(data + len - 4, "GDPC", 4) == 0) return 2;
    return 0;
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
        size_t tied = tied_with_first(c, n);
        if (c[0].score == SV_PROBE_TRUNCATED)
            cli_error("%s: the input is cut off, and its start fits several formats: %s; name "
                      "it with --from %s (or --from %s)",
                      display, name_list(c, tied, list, sizeof list), c[0].format->name,
                      c[1].format->name);
        else
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
    if (is_kiwad(data, len)) {
        cli_error("%s: a KingsIsle KIWAD archive (.wad) is not one data tree; use 'serval "
                  "kingsisle wad list|cat|extract %s' (and 'serval kingsisle wad pack DIR -o "
                  "FILE' to write one)",
                  display, display);
        return 4;
    }
    if (godot_pck_kind(data, len)) {
        cli_error("%s: a Godot PCK archive%s is not one data tree; use 'serval godot pck "
                  "list|cat|extract %s' (and 'serval godot pck pack DIR -o FILE' to write one)",
                  display, godot_pck_kind(data, len) == 2 ? " (appended to an executable)" : "",
                  display);
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
    cli_error("%s: cannot tell the format; name it with --from (known formats: %s)", display, list);
    return 4;
}

void cli_detect_print(const char *display, const char *filename, const uint8_t *data, size_t len,
                      bool verbose)
{
    sv_format_candidate c[CLI_DETECT_MAX];
    size_t n = sv_format_detect_all(data, len, filename, c, CLI_DETECT_MAX);
    if (n > CLI_DETECT_MAX) n = CLI_DETECT_MAX;
    char list[512];
    if (n == 0 && is_kiwad(data, len)) {
        printf("%s: kiwad (KingsIsle archive; see 'serval kingsisle wad')\n", display);
    } else if (n == 0 && godot_pck_kind(data, len)) {
        printf("%s: godot-pck (Godot PCK archive%s; see 'serval godot pck')\n", display,
               godot_pck_kind(data, len) == 2 ? " appended to an executable" : "");
    } else if (n == 0) {
        const char *why = is_package(filename, data, len)
                              ? "a .resonitepackage; see 'serval resonite package'"
                              : no_format_reason(filename, data, len);
        if (why)
            printf("%s: unknown (%s)\n", display, why);
        else
            printf("%s: unknown\n", display);
    } else if (verbose) {
        /* every candidate, with the score that ranked it */
        printf("%s: %s%s\n", display, sv_format_candidates_ambiguous(c, n) ? "ambiguous: " : "",
               cli_detect_list(c, n, list, sizeof list));
    } else {
        bool ambiguous = sv_format_candidates_ambiguous(c, n);
        printf("%s: %s%s%s\n", display, ambiguous ? "ambiguous: " : "",
               name_list(c, ambiguous ? tied_with_first(c, n) : 1, list, sizeof list),
               c[0].score == SV_PROBE_TRUNCATED ? " (truncated)" : "");
    }
}
