/* Detection for the serval command: every candidate format with its score,
 * a refusal (never a pick) when the data fits several equally, and the real
 * reason when nothing fits (an empty file, a byte order mark, a zip). */
#ifndef SERVAL_CLI_DETECT_H
#define SERVAL_CLI_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/registry.h"

/* The most candidates shown or weighed. */
#define CLI_DETECT_MAX 8

/* "godot4 (confidence 30), godot3 (confidence 30)" into buf: the first n. */
const char *cli_detect_list(const sv_format_candidate *c, size_t n, char *buf, size_t size);

/* The format of data for dump, conv and validate (display: the name for
 * messages; filename: for the extension, may be NULL). On 0, *out is the
 * one format that fits best; otherwise the diagnostic is printed and the
 * exit code returned: 1 when the data fits several formats equally or is
 * plainly not what its name says (empty, a byte order mark), 4 when nothing
 * fits. */
int cli_detect_pick(const char *display, const char *filename, const uint8_t *data, size_t len,
                    const sv_format **out);

/* One line for `serval detect`: "FILE: FMT" (" (truncated)" when the input
 * is only the start of such a file), or "FILE: ambiguous: FMT, FMT" (the
 * formats that fit equally), or "FILE: unknown" with the reason when there
 * is one. verbose: every format that fits, each with its confidence. */
void cli_detect_print(const char *display, const char *filename, const uint8_t *data, size_t len,
                      bool verbose);

#endif
