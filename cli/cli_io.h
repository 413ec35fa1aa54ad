/* File input and output for the serval command.
 *
 * A regular file given as input is mapped (mmap), other inputs (standard
 * input, pipes, devices) are read whole into memory; an input is never
 * opened for writing. A mapped file that another process shortens while
 * serval reads it ends the process with SIGBUS, as with other tools that map
 * their input. Output to a file is atomic: the
 * bytes go to a temporary file next to the target, which is synced and then
 * renamed over it, so a failed or interrupted run leaves the target as it was
 * and no temporary file behind. */
#ifndef SERVAL_CLI_IO_H
#define SERVAL_CLI_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <signal.h>
#include <sys/types.h>

#include "serval/buf.h"
#include "serval/buf_seekable.h"
#include "serval/error.h"

/* Call once at start: a file size limit (ulimit -f) then makes writes fail
 * with EFBIG, reported as an I/O error, instead of killing the process. */
void cli_io_init(void);

/* Stopping outputs that are being written, for a signal taken while worker
 * threads write them (cli_batch.c). cli_io_interrupt may be called from a
 * signal handler; from then on every temporary file is removed at its next
 * piece or at its end, and none is renamed over its target, quietly (the
 * interrupt is the reason). cli_io_interrupted returns the signal number,
 * 0 until then. */
void cli_io_interrupt(int sig);
int cli_io_interrupted(void);

/* The name to show for an input path in messages: "<stdin>" for "-". */
const char *cli_display_name(const char *path);

/* Whether path means standard input/output ("-"). */
bool cli_is_stdio(const char *path);

typedef struct cli_input {
    uint8_t *data; /* len bytes, mapped or malloc'd; never NULL after a success */
    size_t len;
    bool mapped; /* data is a read-only mapping of the file */
} cli_input;

/* The bytes one input may have (--max-input). A regular file is checked by
 * its size before it is mapped; a pipe or a device while it is read, so
 * endless input stops at the cap. The default, until set, is
 * CLI_DEFAULT_MAX_INPUT. */
#define CLI_DEFAULT_MAX_INPUT (UINT64_C(4) << 30)
/* The --max-alloc given (0: none): a pipe or device is read into memory, so
 * it is capped by that too. */
void cli_set_max_buffered(uint64_t bytes);
void cli_set_max_input(uint64_t bytes);

/* Reads the whole file, or standard input for "-". On failure prints
 * "serval: FILE: reason" and returns SV_ERR_IO, SV_ERR_NOMEM, or
 * SV_ERR_LIMIT for an input larger than the cap (cli_set_max_input). */
sv_status cli_read_input(const char *path, cli_input *in);
void cli_input_free(cli_input *in);

/* Writes data to path atomically, or to standard output when path is NULL or
 * "-". A target that exists and is not a regular file (a device, a FIFO) is
 * written in place, as there is nothing to rename over. On failure prints
 * "serval: FILE: reason", leaves the target untouched and returns SV_ERR_IO. */
sv_status cli_write_output(const char *path, const void *data, size_t len);

/* An output written while it is encoded: to a file, the encoder's buffer
 * hands its bytes to the temporary file a window at a time (the buffer's
 * sink), so the whole output is never held; the rename still happens only
 * once every byte is written. To standard output, a device or a FIFO the
 * output is held whole and written at the end, so that a failed encode
 * writes nothing there. Signals that would end the process are held back
 * from begin to end (as cli_write_output holds them while it writes). */
typedef struct cli_output {
    const char *path; /* as given; NULL or "-": standard output */
    int fd;           /* the temporary file, -1 when buffered */
    int error;        /* errno of a failed write to it, else 0 */
    char *tmp, *target;
    size_t dir_len; /* of tmp's directory part */
    mode_t mode;
    bool held; /* signals held back, saved holds the mask to restore */
    sigset_t saved;
    sv_buf_seekable sink; /* the file's sink: written in order, patched by pwrite */
} cli_output;

/* Starts writing path: a file gets its temporary file and b its sink.
 * On failure prints "serval: FILE: reason" and returns SV_ERR_IO. */
sv_status cli_output_begin(cli_output *o, const char *path, sv_buf *b);
/* Ends the output begun on b: with ok, flushes the rest of b and renames
 * the temporary file over the target (or writes b whole where nothing is
 * streamed); without, removes the temporary file and leaves the target
 * untouched. b loses its sink. SV_OK, or SV_ERR_IO after printing why (a
 * write error: "serval: FILE: No space left on device"). */
sv_status cli_output_end(cli_output *o, sv_buf *b, bool ok);

/* --sync: cli_write_output also flushes each file to the disk (fsync) before
 * the rename, and the directory after it, so the new file survives a power
 * loss too. Off by default, as with cp, gzip and zstd: the rename alone
 * already keeps a failed or killed run from leaving a half-written file. */
void cli_set_output_sync(bool on);
bool cli_output_sync(void);

#endif
