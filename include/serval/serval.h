/* serval: read and write game-engine serialization formats through one value
 * tree. The umbrella header.
 *
 * It includes the core headers and the header of every format this copy of
 * the library was built with: serval/config.h (generated at configure time)
 * says which, as SERVAL_WITH_GODOT, SERVAL_WITH_BSON, SERVAL_WITH_RESONITE,
 * SERVAL_WITH_NOESIS, SERVAL_WITH_KINGSISLE, SERVAL_WITH_O3DE and
 * SERVAL_WITH_PICKLE (1 or 0), and serval/formats.h (generated too) includes
 * their headers. Test those macros before using a format that a build may
 * leave out. */
#ifndef SERVAL_H
#define SERVAL_H

#include "api.h"
#include "serval/config.h" /* generated: build tree or install prefix */

#include "alloc.h"
#include "buf.h"
#include "buf_seekable.h"
#include "convert.h"
#include "edit.h"
#include "error.h"
#include "file.h"
#include "json.h"
#include "registry.h"
#include "schema.h"
#include "value.h"
#include "visit.h"
#include "serval/version.h" /* generated into the build tree */

/* generated from the format manifest: the headers of the formats built */
#include "serval/formats.h"
#endif
