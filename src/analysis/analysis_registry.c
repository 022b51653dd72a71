/*
 * The analyses by name (include/ntidx/analysis.h, "The analyses by name"):
 * the one list the generic doors read (the Python module's methods and
 * ntidx.dask's functions, the SQL tables), so that an analysis added to the
 * library appears in each of them.
 *
 * Adding an analysis here is one line: `&ntx_NAME_info,` in the list below
 * (its ntidx_analysis_info is defined beside its ntx_analysis_def and
 * declared in analysis_internal.h). The order is the documentation's; the
 * commented slots are where the analyses being written go, apart from each
 * other so that their merges do not meet. An analysis whose entry point takes
 * options of its own is listed with a wrapper that passes their defaults.
 */
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

static const ntidx_analysis_info *const analyses[] = {
    &ntx_gc_info,
    /* jit */
    &ntx_jit_info,

    /* cpu */
    &ntx_cpu_info,
    &ntx_cpu_samples_info,

    /* exceptions, alloc */
    &ntx_exceptions_info,
    &ntx_alloc_info,

    /* contention, activities */
    &ntx_contention_info,
    &ntx_activities_info,

};

#define COUNT (sizeof analyses / sizeof analyses[0])

NTIDX_API size_t ntidx_analysis_count(void) { return COUNT; }

NTIDX_API const ntidx_analysis_info *ntidx_analysis_info_at(size_t k) { return k < COUNT ? analyses[k] : NULL; }

NTIDX_API const ntidx_analysis_info *ntidx_analysis_find(const char *name)
{
    for (size_t k = 0; name && k < COUNT; k++)
        if (!strcmp(analyses[k]->name, name))
            return analyses[k];
    return NULL;
}

NTIDX_API int ntidx_analyze(const char *name, ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                            ntidx_analysis **out)
{
    if (out)
        *out = NULL;
    const ntidx_analysis_info *info = ntidx_analysis_find(name);
    if (info)
        return info->analyze(t, x, o, out);
    char known[256] = "";
    size_t n = 0;
    for (size_t k = 0; k < COUNT && n < sizeof known; k++)
        n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", k ? ", " : "", analyses[k]->name);
    return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                     "ntidx_analyze: no analysis named '%s' (the library has: %s)", name ? name : "(null)", known);
}
