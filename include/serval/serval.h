/* serval: read and write game-engine serialization formats through one value
 * tree. The umbrella header.
 *
 * It includes the core headers and the header of every format this copy of
 * the library was built with: serval/config.h (generated at configure time)
 * says which, as SERVAL_WITH_GODOT, SERVAL_WITH_BSON, SERVAL_WITH_RESONITE,
 * SERVAL_WITH_NOESIS and SERVAL_WITH_O3DE (1 or 0). Test those macros before using a format that
 * a build may leave out. */
#ifndef SERVAL_H
#define SERVAL_H

#include "api.h"
#include "serval/config.h" /* generated: build tree or install prefix */

#include "alloc.h"
#include "buf.h"
#include "convert.h"
#include "edit.h"
#include "error.h"
#include "json.h"
#include "registry.h"
#include "schema.h"
#include "value.h"
#include "visit.h"
#include "serval/version.h" /* generated into the build tree */

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
#if SERVAL_WITH_KINGSISLE
#include "kingsisle.h"
#include "kiwad.h"
#endif
#if SERVAL_WITH_O3DE
#include "o3de.h"
#endif
#if SERVAL_WITH_PICKLE
#include "pickle.h"
#endif
#endif
