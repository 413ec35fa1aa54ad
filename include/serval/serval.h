/* serval: read and write game-engine serialization formats through one value
 * tree. The umbrella header. */
#ifndef SERVAL_H
#define SERVAL_H

#include "api.h"
#include "alloc.h"
#include "bson.h"
#include "buf.h"
#include "error.h"
#include "godot.h"
#include "json.h"
#include "noesis.h"
#include "registry.h"
#include "resonite.h"
#include "value.h"
#include "serval/version.h" /* generated into the build tree */

#endif
