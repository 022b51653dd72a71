/* Helpers of ntidx export: progress, tick conversion, event and process names. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"

void export_progress_begin(export_job *job, const ntidx_query_options *o)
{
    ntidx_query_cost cost;
    job->progress_total = ntidx_query_estimate(job->trace, job->index, o, &cost) == NTIDX_OK ? cost.bytes : 0;
    cli_progress_label("ntidx: exporting");
}

void export_progress(const export_job *job, const ntidx_query *q, uint64_t events)
{
    if ((events & 4095) == 0 && job->progress_total)
        cli_progress(NULL, ntidx_query_get_stats(q)->bytes_read, job->progress_total);
}

long double export_ticks_to_us(const ntidx_trace_info *in, uint64_t ticks)
{
    /* Subtract in integers first: ticks are ~1e14-1e18 and a long double has 64 mantissa bits. */
    long double d = ticks >= (uint64_t)in->sync_ticks ? (long double)(ticks - (uint64_t)in->sync_ticks)
                                                       : -(long double)((uint64_t)in->sync_ticks - ticks);
    return d * 1e6L / (long double)in->tick_frequency;
}

const char *export_event_name(const ntidx_metadata *m, char *buf, size_t buflen)
{
    if (m->event_name && m->event_name[0])
        return m->event_name;
    snprintf(buf, buflen, "EventID(%u)", m->event_id);
    return buf;
}

void export_process_name(const ntidx_trace_info *in, const char *cmdline, char *buf, size_t buflen)
{
    buf[0] = 0;
    for (size_t i = 0; i < in->keyvalue_count; i++) {
        if (in->keyvalues[i].key && in->keyvalues[i].value && !strcmp(in->keyvalues[i].key, "ProcessName") &&
            in->keyvalues[i].value[0]) {
            snprintf(buf, buflen, "%s", in->keyvalues[i].value);
            return;
        }
    }
    if (!cmdline || !*cmdline)
        return;
    /* The program: the first word of the command line (quoted or not), without its directory. */
    const char *p = cmdline, *e;
    while (*p == ' ')
        p++;
    if (*p == '"') {
        p++;
        e = strchr(p, '"');
        if (!e)
            e = p + strlen(p);
    } else {
        e = p;
        while (*e && *e != ' ')
            e++;
    }
    const char *base = p;
    for (const char *q = p; q < e; q++)
        if (*q == '/' || *q == '\\')
            base = q + 1;
    if (base == e) /* ends in a separator: keep the whole word */
        base = p;
    snprintf(buf, buflen, "%.*s", (int)(e - base), base);
}
