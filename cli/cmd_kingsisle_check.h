/* validate for a KingsIsle stream: a decode that reports what the type list
 * lacks (each object of an unknown class) as it goes. */
#ifndef SERVAL_CLI_CMD_KINGSISLE_CHECK_H
#define SERVAL_CLI_CMD_KINGSISLE_CHECK_H

#include <stdbool.h>

#include "cli_doc.h"
#include "serval/registry.h"

/* Decodes l->in (format kingsisle) into l->doc and l->root with opts, and
 * prints one line per object whose class the type list lacks: a warning, or
 * with strict an error. Returns 0, the exit code of a failed decode (after
 * its message), or 1 when strict and anything was found. */
int cli_kingsisle_check(cli_loaded *l, const char *name, const sv_options *opts, bool strict);

#endif
