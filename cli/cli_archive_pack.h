/* pack for the archive commands (godot pck, kingsisle wad): the regular files
 * under a directory written as a new archive, or, with --like ORIGINAL, as
 * ORIGINAL rewritten with them (every member whose file has the same
 * content keeps its stored bytes, a changed one takes the file's, files not
 * in ORIGINAL are added). The archive is seen through a few functions, as
 * extract sees it (cli_archive_extract.h), so that both archives pack with
 * the same steps and messages. */
#ifndef SERVAL_CLI_ARCHIVE_PACK_H
#define SERVAL_CLI_ARCHIVE_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_archive_extract.h"
#include "cli_args.h"
#include "cli_dir_contents.h"
#include "serval/buf.h"
#include "serval/error.h"

/* What becomes of one member of the original. */
typedef struct cli_archive_change {
    bool keep;           /* true: its stored bytes, as they are */
    const uint8_t *data; /* otherwise: the new content */
    size_t len;
} cli_archive_change;

/* The original of pack --like, open. */
typedef struct cli_archive_original {
    const char *path; /* the original's file, for messages */
    void *ctx;
    /* Member i into m (name: the file it comes from under the directory;
     * skip: it has no content, an unpatched or removal entry); false past
     * the last. */
    bool (*member_at)(void *ctx, size_t i, cli_archive_member *m);
    /* Reads member i's content, unchecked, into the empty buffer b. Returns
     * 0 or an exit code after a message. */
    int (*read)(void *ctx, size_t i, sv_buf *b);
    /* Whether a file the original lacks is left out rather than added (a
     * file extract wrote beside a member), or NULL: none is. */
    bool (*left_out)(void *ctx, const char *name);
    /* Writes the original with ch[i] for its member i and the files
     * fl->names[added[k]] added, into out. Returns 0 or an exit code after
     * a message. */
    int (*repack)(void *ctx, const cli_archive_change *ch, const cli_dir_contents *fl,
                  const size_t *added, size_t nadded, sv_buf *out);
    /* A skipped member whose file is in the directory takes the file (a
     * KIWAD placeholder the game has since downloaded) instead of being kept
     * as it was (a pack's removal entry, which never has content). */
    bool skipped_takes_file;
} cli_archive_original;

typedef struct cli_archive_packer {
    void *ctx;
    const char *like; /* --like ORIGINAL, or NULL */
    /* Without --like: the files of fl (read from dir) as a new archive into
     * out. Returns 0 or an exit code after a message. */
    int (*write)(void *ctx, const char *dir, const cli_dir_contents *fl, sv_buf *out);
    /* With --like: opens ORIGINAL at path into o, to be closed by
     * close_like. Returns 0 or an exit code after a message. */
    int (*open_like)(void *ctx, const char *path, cli_archive_original *o);
    void (*close_like)(void *ctx);
} cli_archive_packer;

/* Reports err, which a library call for the archive or directory at path
 * returned, and returns its exit code. */
int cli_archive_report(const char *path, const sv_error *err);

/* serval ... pack DIR -o FILE [--like ORIGINAL]: a->files[0] is the
 * directory, a->output the archive, written atomically once complete.
 * Returns 0 or an exit code after a message (1: a member of ORIGINAL that
 * has content is missing from the directory). */
int cli_archive_pack(const cli_archive_packer *p, const cli_args *a);

#endif
