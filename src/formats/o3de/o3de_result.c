/* O3DE's result codes (JsonSerializationResult): the packing, the
 * processing derived from an outcome, Combine and AppendToString.
 * docs/formats/o3de.md, "What serval follows" (Results) and "Reporting". */
#include <string.h>

#include "serval/o3de.h"

#define R_TASK(r) ((uint32_t)(r)&0xffu)
#define R_PROC(r) (((uint32_t)(r) >> 8) & 0xffu)
#define R_OUT(r) ((uint32_t)(r) >> 16)

static sv_o3de_result pack(uint32_t task, uint32_t proc, uint32_t outcome)
{
    return (outcome << 16) | (proc << 8) | task;
}

sv_o3de_result sv_o3de_result_make(sv_o3de_task task, sv_o3de_outcome outcome)
{
    uint32_t proc;
    switch (outcome) {
    case SV_O3DE_SUCCESS:
    case SV_O3DE_SKIPPED:
    case SV_O3DE_PARTIAL_SKIP:
    case SV_O3DE_DEFAULTS_USED:
    case SV_O3DE_PARTIAL_DEFAULTS: proc = SV_O3DE_COMPLETED; break;
    case SV_O3DE_UNAVAILABLE:
    case SV_O3DE_UNSUPPORTED: proc = SV_O3DE_ALTERED; break;
    default: proc = SV_O3DE_HALTED; break;
    }
    return pack((uint32_t)task, proc, (uint32_t)outcome);
}

sv_o3de_result sv_o3de_result_none(sv_o3de_task task)
{
    return pack((uint32_t)task, 0, 0);
}

/* o3de.md, "Reporting": the maximum of the codes (outcome dominates, then processing,
 * then task), with three pairs that become "partial" states. */
sv_o3de_result sv_o3de_result_combine(sv_o3de_result a, sv_o3de_result b)
{
    uint32_t r = a > b ? a : b;
    uint32_t oa = R_OUT(a), ob = R_OUT(b), pa = R_PROC(a), pb = R_PROC(b);
    uint32_t out = R_OUT(r), proc = R_PROC(r);
    if ((oa == SV_O3DE_SUCCESS && ob == SV_O3DE_DEFAULTS_USED) ||
        (ob == SV_O3DE_SUCCESS && oa == SV_O3DE_DEFAULTS_USED))
        out = SV_O3DE_PARTIAL_DEFAULTS;
    else if ((oa == SV_O3DE_SUCCESS && ob == SV_O3DE_SKIPPED) ||
             (ob == SV_O3DE_SUCCESS && oa == SV_O3DE_SKIPPED))
        out = SV_O3DE_PARTIAL_SKIP;
    if ((pa == SV_O3DE_COMPLETED && pb == SV_O3DE_ALTERED) ||
        (pb == SV_O3DE_COMPLETED && pa == SV_O3DE_ALTERED))
        proc = SV_O3DE_PARTIAL_ALTER;
    return pack(R_TASK(r), proc, out);
}

sv_o3de_task sv_o3de_result_task(sv_o3de_result r)
{
    return (sv_o3de_task)R_TASK(r);
}

sv_o3de_processing sv_o3de_result_processing(sv_o3de_result r)
{
    return R_PROC(r) ? (sv_o3de_processing)R_PROC(r) : SV_O3DE_COMPLETED;
}

sv_o3de_outcome sv_o3de_result_outcome(sv_o3de_result r)
{
    return R_OUT(r) ? (sv_o3de_outcome)R_OUT(r) : SV_O3DE_DEFAULTS_USED;
}

static const char *const task_names[] = {
    "",          "RetrieveInfo", "CreateDefault", "Convert",     "Clear",
    "ReadField", "WriteValue",   "Merge",         "CreatePatch", "Import"};
static const char *const proc_names[] = {"", "Completed", "Altered", "PartialAlter", "Halted"};
static const char *const outcome_names[] = {"",
                                            "Success",
                                            "Skipped",
                                            "PartialSkip",
                                            "DefaultsUsed",
                                            "PartialDefaults",
                                            "Unavailable",
                                            "Unsupported",
                                            "TypeMismatch",
                                            "TestFailed",
                                            "Missing",
                                            "Invalid",
                                            "Unknown",
                                            "Catastrophic"};

const char *sv_o3de_task_name(sv_o3de_task t)
{
    return (unsigned)t < sizeof task_names / sizeof *task_names ? task_names[t] : "";
}

const char *sv_o3de_processing_name(sv_o3de_processing p)
{
    return (unsigned)p < sizeof proc_names / sizeof *proc_names ? proc_names[p] : "";
}

const char *sv_o3de_outcome_name(sv_o3de_outcome o)
{
    return (unsigned)o < sizeof outcome_names / sizeof *outcome_names ? outcome_names[o] : "";
}

static void puts_buf(sv_buf *out, const char *s)
{
    sv_buf_append(out, s, strlen(s));
}

/* o3de.md, "Reporting", including O3DE's quirks: Clear prints "an unknown operation "
 * and "an import operation" has no trailing space. */
void sv_o3de_result_describe(sv_o3de_result r, const char *path, sv_buf *out)
{
    static const char *const proc_text[] = {
        "has completed ", "has completed ", "has taken an alternative approach for ",
        "has taken a partially alternative approach for ", "has halted during "};
    static const char *const task_text[] = {
        "an unknown operation ",    "a retrieve info operation ", "a create default operation ",
        "a convert operation ",     "an unknown operation ",      "a read field operation ",
        "a write value operation ", "a merge operation ",         "a create patch operation ",
        "an import operation"};
    static const char *const outcome_text[] = {"by using only default values",
                                               "which resulted in success",
                                               "because a field or value was skipped",
                                               "because one or more fields or values were skipped",
                                               "by using only default values",
                                               "by using one or more default values",
                                               "because the target was unavailable",
                                               "because the action was unsupported",
                                               "because the source and target are unrelated types",
                                               "because a test against a value failed",
                                               "because a required field or value was missing",
                                               "because a field or element has an invalid value",
                                               "because information was missing",
                                               "because a catastrophic issue was encountered"};
    uint32_t p = R_PROC(r), t = R_TASK(r), o = R_OUT(r);
    puts_buf(out, "The operation ");
    puts_buf(out, proc_text[p <= 4 ? p : 0]);
    puts_buf(out, task_text[t <= 9 ? t : 0]);
    if (path && *path) {
        puts_buf(out, "for '");
        puts_buf(out, path);
        puts_buf(out, "' ");
    }
    puts_buf(out, outcome_text[o <= 13 ? o : 0]);
}
