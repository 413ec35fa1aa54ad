/* Instance bodies compiled once and replayed by the decoder and the
 * encoder (noesis_plan.c; internal). Little-endian files on a
 * little-endian host only. */
#ifndef SV_FORMATS_NOESIS_PLAN_H
#define SV_FORMATS_NOESIS_PLAN_H

#include "formats/noesis/noesis_internal.h"

typedef struct nsb_plan nsb_plan;
typedef struct nsb_plans nsb_plans;

/* The plans of one decode or encode, over the canonical stream of cs
 * (decoding: cs->keys are the interpreter's; encoding, cs->keys NULL: the
 * keys are made in doc); scratch memory of doc. compact (decoding into a
 * document that outlives the decode): each instance a plan makes is a
 * compact object, one sv_shape per class and plan, made in the values'
 * document. instances: how many the file says it holds (UINT64_MAX when
 * unknown), which sizes the table of bodies. NULL when out of memory. */
nsb_plans *nsb_plans_new(sv_doc *doc, const nsb_cmds *cs, uint32_t max_nesting, bool compact,
                         uint64_t instances);
void nsb_plans_free(nsb_plans *ps);

/* The plan of the instance body at pos (just after its BeginInstance), or
 * NULL: not seen before, or not one a plan takes. Compiles a body the
 * second time it is seen; call only before the interpreter runs it. hint
 * (the instance's component) picks the plan tried first: the one last
 * found with the same hint. */
nsb_plan *nsb_plans_find(nsb_plans *ps, const uint8_t *pos, uint32_t hint);
/* Whether an allocation for a plan failed (find then returns NULL): the
 * caller reports it as out of memory, as for any other allocation. */
bool nsb_plans_nomem(const nsb_plans *ps);
/* The body's bytes (its EndInstance included) and the budget it spends. */
size_t nsb_plan_body_len(const nsb_plan *pl);
uint64_t nsb_plan_spend(const nsb_plan *pl);

typedef struct nsb_plan_run_in {
    const uint8_t *end; /* end of the data section */
    uint32_t instance_count;
    uint64_t max_string;
    sv_doc *vdoc;        /* where the values go */
    const sv_value *cls; /* the object's class */
} nsb_plan_run_in;

/* Makes the instance from the data at *data into *obj (compact when the
 * plans are) and advances *data;
 * *name is the value of its field "Name" (NULL: none). false, with *data
 * unchanged, where the interpreter would report an error: it must then run
 * the body itself. */
bool nsb_plan_run(nsb_plan *pl, const nsb_plan_run_in *in, const uint8_t **data, sv_value *obj,
                  const sv_value **name);

/* Writes the data of instance obj as the emitter would (noesis_emit.c),
 * refs checked against instances. false, with out as it was, for anything
 * the plan does not take as it is: a key that is not the decoder's, a value
 * of another kind or out of range, a split group; the emitter then runs the
 * body itself (and reports any error). */
bool nsb_plan_emit(nsb_plan *pl, const sv_value *obj, uint32_t instances, sv_buf *out);

#endif
