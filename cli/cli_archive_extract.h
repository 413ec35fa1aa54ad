/* extract for the archive commands (godot pck, kingsisle wad): the members
 * the patterns select, checked against --max-total before anything is
 * written, each written under the output directory by its relative name.
 * The archive is seen through a few functions, so that every archive
 * extracts with the same checks and messages. */
#ifndef SERVAL_CLI_ARCHIVE_EXTRACT_H
#define SERVAL_CLI_ARCHIVE_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_args.h"
#include "serval/buf.h"

/* One member as extract sees it. */
typedef struct cli_archive_member {
    /* Where it goes under the directory: a relative path the archive's
     * reader has already checked. */
    const char *name;
    /* Another spelling a PATTERN may match (a pack's res:// path), or NULL. */
    const char *alt;
    const char *shown; /* the member as messages name it */
    uint64_t size;     /* the size the archive states */
    bool skip;         /* matched but not extracted (no content to write) */
} cli_archive_member;

typedef struct cli_archive {
    const char *path; /* the archive file, for messages */
    void *ctx;
    /* Member i into m; false past the last. */
    bool (*member_at)(void *ctx, size_t i, cli_archive_member *m);
    /* Reads member i into the empty buffer b. Returns 0 or an exit code
     * after a message. */
    int (*read)(void *ctx, size_t i, sv_buf *b);
    /* Writes a member's content to target; NULL: a new file is written
     * unnamed (O_TMPFILE) and linked to its name once complete, anything else
     * replaced through cli_write_output. Returns
     * 0 or an exit code after a message. */
    int (*write)(const char *target, const uint8_t *data, size_t len);
    /* After member m is written to target, or NULL: returns 0 or an exit
     * code after a message, which does not stop the extraction (the worst
     * one is extract's result when nothing else failed). */
    int (*written)(void *ctx, const cli_archive_member *m, const char *target,
                   const sv_buf *content);
    /* The warning for a skipped member: "skipping <before>'<shown>'<after>". */
    const char *skip_before, *skip_after;
    /* A skipped member that a PATTERN matches counts as found (no "no member
     * matches the patterns" error). */
    bool skipped_counts_as_found;
    /* Warn about selected members whose names differ only in ASCII case:
     * on a case-insensitive file system one file would replace the other.
     * Needs the names member_at gives to stay valid while ar is open. */
    bool warn_case;
} cli_archive;

/* The default of --max-total: 4 GiB. */
#define CLI_ARCHIVE_MAX_TOTAL ((uint64_t)4 << 30)

/* serval ... extract FILE -o DIR [PATTERN...]: a->files[1..] are the
 * patterns (fnmatch; none: every member), a->output the directory (made
 * when missing), a->max_total the cap on the stated sizes of the selected
 * members. Returns 0 or an exit code after a message: 1 past --max-total
 * (nothing written), 4 when patterns select nothing. */
int cli_archive_extract(const cli_archive *ar, const cli_args *a);

#endif
