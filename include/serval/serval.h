/* serval: read and write game-engine serialization formats through one value
 * tree. The umbrella header. */
#ifndef SERVAL_H
#define SERVAL_H

#define SERVAL_VERSION_MAJOR 0
#define SERVAL_VERSION_MINOR 1
#define SERVAL_VERSION_PATCH 0
#define SERVAL_VERSION_STRING "0.1.0"

#include "alloc.h"
#include "bson.h"
#include "buf.h"
#include "error.h"
#include "godot.h"
#include "json.h"
#include "kingsisle.h"
#include "noesis.h"
#include "registry.h"
#include "resonite.h"
#include "schema.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string, e.g. "0.1.0". */
const char *sv_version(void);

#ifdef __cplusplus
}
#endif
#endif
