/* The per-format streaming decoders behind sv_visit_decode (serval/visit.h):
 * each returns SV_OK when the whole input went to the visitor, anything
 * else when it declined (the caller then decodes into a tree). */
#ifndef SV_CORE_VISIT_DECODE_H
#define SV_CORE_VISIT_DECODE_H

#include "serval/visit.h"

/* godot4 or godot3 (godot4: true), raw framing (formats/godot/godot_visit.c). */
sv_status sv__godot_visit(bool godot4, const uint8_t *data, size_t len, const sv_options *opts,
                          const sv_visitor *vis);
/* One BSON document (formats/bson/bson_visit.c). */
sv_status sv__bson_visit(const uint8_t *data, size_t len, const sv_options *opts,
                         const sv_visitor *vis);

#endif
