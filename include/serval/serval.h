/* serval: read and write game-engine serialization formats through one value
 * tree. The umbrella header.
 *
 * It includes the core headers and the header of every format this copy of
 * the library was built with: serval/config.h (generated at configure time)
 * says which, as SERVAL_WITH_GODOT, SERVAL_WITH_BSON, SERVAL_WITH_RESONITE and
 * SERVAL_WITH_NOESIS (1 or 0). Test those macros before using a format that
 * a build may leave out. */
#ifndef SERVAL_H
#define SERVAL_H

#define SERVAL_VERSION_MAJOR 0
#define SERVAL_VERSION_MINOR 1
#define SERVAL_VERSION_PATCH 0
#define SERVAL_VERSION_STRING "0.1.0"

#include "serval/config.h" /* generated: build tree or install prefix */

#include "alloc.h"
#include "buf.h"
#include "error.h"
#include "json.h"
#include "registry.h"
#include "value.h"

#if SERVAL_WITH_GODOT
#include "godot.h"
#endif
#if SERVAL_WITH_BSON
#include "bson.h"
#endif
#if SERVAL_WITH_RESONITE
#include "resonite.h"
#endif
#if SERVAL_WITH_NOESIS
#include "noesis.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string, e.g. "0.1.0". */
const char *sv_version(void);

#ifdef __cplusplus
}
#endif
#endif
