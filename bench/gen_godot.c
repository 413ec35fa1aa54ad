/* serval-bench: the Godot workloads' data. bench/godot/bench.gd builds the
 * same values in GDScript; the workloads check that Godot 3.2.3's var2bytes
 * gives the very bytes serval's godot3 encoder gives for this tree. */
#include "gen_godot.h"

#include <stdio.h>

sv_value bench_gen_godot_vec3(sv_doc *doc)
{
    sv_value v = sv_packed(doc, SV_ELEM_F32, SV_TAG_PACKED_VECTOR3, NULL,
                           (size_t)BENCH_GODOT_VEC3_COUNT * 3);
    float *f = sv_value_buf(&v);
    if (!f) return sv_null();
    for (uint32_t i = 0; i < BENCH_GODOT_VEC3_COUNT; i++) {
        f[3 * i] = (float)(i * 0.5);
        f[3 * i + 1] = (float)(i * -0.25);
        f[3 * i + 2] = (float)(i % 1000);
    }
    return v;
}

sv_value bench_gen_godot_dicts(sv_doc *doc)
{
    sv_value arr = sv_array(doc, BENCH_GODOT_DICT_COUNT);
    sv_value *items = sv_array_items(&arr);
    if (!items) return sv_null();
    for (uint32_t i = 0; i < BENCH_GODOT_DICT_COUNT; i++) {
        char name[32];
        int n = snprintf(name, sizeof name, "entity_%u", i);
        /* -i is an int in GDScript: 0, not -0.0, for i = 0 */
        float pos[3] = {(float)i, (float)(i * 0.5), (float)(0 - (int64_t)i)};
        double hp = (i % 2 == 0) ? (double)(i % 1000) / 8.0 : (double)i * 0.1;
        sv_value tags = sv_array(doc, 3);
        sv_value *t = sv_array_items(&tags);
        sv_value d = sv_map(doc, 0);
        if (!t) return sv_null();
        t[0] = sv_str_intern(doc, "a", 1);
        t[1] = sv_str_intern(doc, "bb", 2);
        t[2] = sv_int(i);
        sv_map_append_str(doc, &d, "id", sv_int(i));
        sv_map_append_str(doc, &d, "name", sv_str(doc, name, (size_t)n));
        sv_map_append_str(doc, &d, "pos", sv_tuple(doc, SV_TAG_VECTOR3, SV_ELEM_F32, pos));
        sv_map_append_str(doc, &d, "hp", sv_f64(hp));
        sv_map_append_str(doc, &d, "tags", tags);
        items[i] = d;
    }
    return arr;
}
