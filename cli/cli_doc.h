/* The steps dump, conv and validate share: find a format by name or by
 * content, read a file and decode it into a document. Each step prints its
 * own diagnostic and returns a CLI exit code (0 = success). */
#ifndef SERVAL_CLI_DOC_H
#define SERVAL_CLI_DOC_H

#include "cli_args.h"
#include "cli_io.h"
#include "serval/buf.h"
#include "serval/registry.h"
#include "serval/value.h"

/* The format called name, or exit code 4 with the list of known formats. */
int cli_find_format(const char *name, const sv_format **out);

/* The format whose extensions include path's ("out.bson": bson), or NULL. */
const sv_format *cli_format_by_extension(const char *path);

/* Whether f writes text (JSON), which a terminal shows and which ends with a
 * newline; the others write binary. */
bool cli_format_is_text(const sv_format *f);

/* --from's format when given, else the one detected from the bytes and the
 * file name; exit code 4 when nothing fits. */
int cli_input_format(const char *from, const char *path, const cli_input *in,
                     const sv_format **out);

/* Documents for decoded files. A batch worker (cli_batch.c) brackets its
 * files with cli_doc_worker_begin and _end: its thread then gets one
 * document, reset between files (sv_doc_reset), so that a batch of many
 * files reuses the memory the first ones touched. cli_doc_acquire gives that
 * document (or, outside a worker or when it is taken, a new one), with
 * a's --max-alloc; NULL when out of memory. cli_doc_release resets the
 * worker's document or frees another one; NULL is ignored. */
void cli_doc_worker_begin(void);
void cli_doc_worker_end(void);
sv_doc *cli_doc_acquire(const cli_args *a);
void cli_doc_release(sv_doc *doc);

/* A decoded file: the bytes, the document and its root value. */
typedef struct cli_loaded {
    cli_input in;
    const sv_format *format;
    sv_doc *doc;
    sv_value root;
} cli_loaded;

/* Reads path, picks its format (from a->from or by detection), checks the -I
 * options against it (and, where -O names the input's options too, the -O
 * options against it and out_format, NULL: none), and decodes with the
 * input's options (cli_decode_options). On any
 * failure prints the diagnostic and returns its exit code with nothing left
 * to free; on 0 the caller must cli_loaded_free. */
int cli_load(cli_args *a, const char *cmd, const char *path, const sv_format *out_format,
             cli_loaded *out);
void cli_loaded_free(cli_loaded *l);
/* cli_load in two steps: cli_open_input reads, picks the format and checks
 * the options (out->doc stays NULL); cli_decode_loaded then decodes. Each
 * frees *l on failure, as cli_load does. */
int cli_open_input(cli_args *a, const char *cmd, const char *path, const sv_format *out_format,
                   cli_loaded *out);
int cli_decode_loaded(cli_args *a, const char *path, cli_loaded *l);

/* The format root's meta names ({"format": "godot3", ...}), for conv
 * without --to; checks the -O options against it. Exit code 2 (usage: name
 * it with --to) when the tree names none. */
int cli_tree_format(cli_args *a, const char *path, const sv_value *root, const sv_format **out);

/* Encodes root with format f into out (which the caller owns and frees).
 * path names the input in diagnostics. */
int cli_encode(const sv_format *f, const sv_value *root, const sv_options *opts, const char *path,
               sv_buf *out);

/* For a Godot 4 document: warns on stderr, per value that breaks an engine
 * rule (sv_godot_check), with its JSON Pointer and what the engine does.
 * Returns 0, or 1 when strict and anything was found. */
int cli_godot_rules(const cli_loaded *l, const char *path, bool strict);

#endif
