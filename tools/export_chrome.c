/*
 * ntidx export --format chrome: Chrome Trace Event JSON, Object Format
 * (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
 * which the Perfetto UI and chrome://tracing open.
 *
 *   {"traceEvents":[
 *     {"name":"GC/AllocationTick","cat":"Microsoft-Windows-DotNETRuntime","ph":"i","s":"t",
 *      "pid":60178,"tid":1464618,"ts":1234.567,"args":{...fields...,"stack_id":3}},
 *     {"name":"thread_name","ph":"M","pid":4242,"tid":15617,"args":{"name":".NET TP Worker #1"}},
 *     ...],
 *    "displayTimeUnit":"ms",
 *    "otherData":{"exporter":"ntidx 0.1.0","trace":"...","format_version":4,...,"events":N}}
 *
 * One instant event (thread scope) per event of the query, in time order.
 * `ts` is microseconds since the trace's sync time (the origin of PerfView's
 * MSec column), to the nanosecond. `pid` is the V6 thread's OS process id when
 * it has one, else the trace's process id; `tid` the OS thread id. `args` are
 * the decoded fields (ntidx_event_fields_json()), plus `stack_id` when the
 * event has a stack, or `field_error` when the payload does not decode.
 * Metadata events name V6 threads that have names (`thread_name`) and the
 * process (`process_name`: a V6 "ProcessName" key, else the program of the
 * EventPipe's ProcessInfo event, looked for in the window and then near the
 * end of the trace, where the runtime's rundown writes it: find_process_info()).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "u64map.h"

#define EVENTPIPE_PROVIDER "Microsoft-DotNETCore-EventPipe"
#define PROCESS_INFO_ID 1

/*
 * The (pid, tid) pairs already named: the tools' hash map from the thread id to
 * the first of its pairs, and the pairs of one thread id chained (a thread id
 * seen in two processes of a V6 trace is two pairs).
 */
typedef struct named_set {
    u64map by_tid;
    struct named_pair {
        uint64_t pid;
        uint32_t next; /* UINT32_MAX: the last pair of this thread id */
    } *pairs;
    size_t n, cap;
} named_set;

/* 1: newly added, 0: already there, -1: out of memory. */
static int named_add(named_set *s, uint64_t pid, uint64_t tid)
{
    int found;
    uint32_t *head = u64map_slot(&s->by_tid, tid, &found);
    if (!head)
        return -1;
    for (uint32_t i = found ? *head : UINT32_MAX; i != UINT32_MAX; i = s->pairs[i].next)
        if (s->pairs[i].pid == pid)
            return 0;
    if (s->n == s->cap || s->n >= UINT32_MAX - 1) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct named_pair *p = s->n < UINT32_MAX - 1 ? realloc(s->pairs, cap * sizeof *p) : NULL;
        if (!p) {
            if (!found)
                *head = UINT32_MAX; /* keep the slot empty */
            return -1;
        }
        s->pairs = p;
        s->cap = cap;
    }
    s->pairs[s->n] = (struct named_pair){pid, found ? *head : UINT32_MAX};
    *head = (uint32_t)s->n++;
    if (!found)
        s->by_tid.count++;
    return 1;
}

static void write_metadata(FILE *f, int *first, const char *what, uint64_t pid, uint64_t tid, const char *name)
{
    fputs(*first ? "\n" : ",\n", f);
    *first = 0;
    fprintf(f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"args\":{\"name\":", what, pid,
            tid);
    cli_json_str(f, name);
    fputs("}}", f);
}

static int is_process_info(const ntidx_metadata *m)
{
    return m->event_id == PROCESS_INFO_ID && !strcmp(m->provider, EVENTPIPE_PROVIDER);
}

/* The CommandLine of a ProcessInfo event into `cmd` (1), 0 when it has none, <0 out of memory. */
static int process_info_cmdline(const ntidx_trace *t, const ntidx_event *e, ntidx_values *v, ntidx_buf *cmd)
{
    int rc = ntidx_values_decode(v, t, e);
    if (rc == NTIDX_E_NOMEM)
        return rc;
    const ntidx_value *c = rc == NTIDX_OK ? ntidx_values_find(v, "CommandLine") : NULL;
    if (!c || c->kind != NTIDX_VALUE_STRING)
        return 0;
    cmd->len = 0;
    return ntidx_buf_append(cmd, c->str, c->len) < 0 ? NTIDX_E_NOMEM : 1;
}

/*
 * Look for ProcessInfo where the window did not: with a --full index the whole
 * trace (its per-block type filters skip the blocks without one); else the end
 * of the trace, where the rundown writes it, in steps growing fourfold from
 * 1/4096 of the time span up to 1/16 (a trace without one costs 1/16 of a scan).
 */
static int find_process_info(export_job *job, ntidx_values *fields, ntidx_buf *cmd)
{
    const ntidx_index_info *xi = ntidx_index_get_info(job->index);
    if (xi->first_ts > xi->last_ts)
        return 0;
    uint64_t span = xi->last_ts - xi->first_ts, max = span / 16 ? span / 16 : span;
    const ntidx_query_options *w = &job->query;
    if (!job->has_filter && !w->has_thread && !w->limit && w->t0 <= xi->last_ts - max && w->t1 > xi->last_ts)
        return 0; /* the window covered the end of the trace */
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.provider = EVENTPIPE_PROVIDER;
    o.has_event_id = 1;
    o.event_id = PROCESS_INFO_ID;
    o.limit = 1;
    uint64_t d = span >> 12 ? span >> 12 : 1, read_from = UINT64_MAX; /* [read_from, end) was read */
    for (int last = 0; !last; d *= 4) {
        if (xi->full) {
            last = 1;
        } else {
            if (d >= max) {
                d = max;
                last = 1;
            }
            o.t0 = xi->last_ts - d;
            o.t1 = read_from;
            if (o.t0 >= o.t1)
                continue;
            read_from = o.t0;
        }
        ntidx_query *q;
        if (ntidx_query_open(job->trace, job->index, &o, &q) < 0)
            return 0; /* a name is a nicety: no error */
        const ntidx_event *e;
        int rc = 0;
        if (ntidx_query_next(q, &e) == 1)
            rc = process_info_cmdline(job->trace, e, fields, cmd);
        ntidx_query_close(&q);
        if (rc)
            return rc;
    }
    return 0;
}

int export_chrome(export_job *job, uint64_t *events_written)
{
    ntidx_trace *t = job->trace;
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    FILE *f = job->out;
    ntidx_query *q = NULL;
    int rc = ntidx_query_open(t, job->index, &job->query, &q);
    if (rc < 0) {
        cli_library_error();
        return -1;
    }
    ntidx_buf fields = {0}, cmd = {0};
    ntidx_values *scratch = NULL;
    if (ntidx_values_new(&scratch) < 0) {
        cli_library_error();
        ntidx_query_close(&q);
        return -1;
    }
    named_set named = {0};
    int first = 1, have_cmd = 0, ret = -1;
    uint64_t n = 0, field_errors = 0;
    char namebuf[64];
    const ntidx_event *e;

    fputs("{\"traceEvents\":[", f);
    /* a write that failed stops the events; cli_output_commit() says what failed */
    export_progress_begin(job, &job->query);
    while (!ferror(f) && (rc = ntidx_query_next(q, &e)) == 1) {
        const ntidx_metadata *m = e->metadata;
        uint64_t pid = e->thread && e->thread->has_os_process_id ? e->thread->os_process_id : in->process_id;
        if (e->thread && e->thread->name && e->thread->name[0]) {
            int added = named_add(&named, pid, e->thread_id);
            if (added < 0) {
                rc = NTIDX_E_NOMEM;
                break;
            }
            if (added)
                write_metadata(f, &first, "thread_name", pid, e->thread_id, e->thread->name);
        }
        if (!have_cmd && is_process_info(m)) {
            int c = process_info_cmdline(t, e, scratch, &cmd);
            if (c < 0) {
                rc = c;
                break;
            }
            have_cmd = c;
        }
        fields.len = 0;
        int frc = ntidx_event_fields_json(t, e, &fields);
        if (frc == NTIDX_E_NOMEM) {
            rc = frc;
            break;
        }
        fputs(first ? "\n" : ",\n", f);
        first = 0;
        const char *name = export_event_name(m, namebuf, sizeof namebuf);
        fputs("{\"name\":", f);
        cli_json_str(f, name);
        fputs(",\"cat\":", f);
        cli_json_str(f, m->provider);
        fprintf(f, ",\"ph\":\"i\",\"s\":\"t\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"ts\":%.3Lf,\"args\":", pid,
                e->thread_id, export_ticks_to_us(in, e->timestamp));
        if (frc < 0) {
            field_errors++;
            fputs("{\"field_error\":", f);
            cli_json_str(f, ntidx_last_error_info()->what);
            if (e->stack_id)
                fprintf(f, ",\"stack_id\":%u", e->stack_id);
            fputc('}', f);
        } else if (e->stack_id) {
            /* The fields object with one more member: drop its closing brace. */
            if (fields.len > 2)
                fwrite(fields.data, 1, fields.len - 1, f);
            fprintf(f, "%s\"stack_id\":%u}", fields.len > 2 ? "," : "{", e->stack_id);
        } else {
            fwrite(fields.data, 1, fields.len, f);
        }
        fputc('}', f);
        export_progress(job, q, ++n);
    }
    if (rc < 0) {
        cli_library_error();
        goto out;
    }
    if (!have_cmd) {
        int c = find_process_info(job, scratch, &cmd);
        if (c < 0) {
            fprintf(stderr, "ntidx: out of memory\n");
            goto out;
        }
        have_cmd = c;
    }
    char pname[512];
    export_process_name(in, have_cmd ? cmd.data : NULL, pname, sizeof pname);
    if (pname[0])
        write_metadata(f, &first, "process_name", in->process_id, 0, pname);

    /* A sync time that is no date leaves the field empty ("sync_time_utc":""): the export does not depend on it. */
    char sync[64] = "";
    if (ntidx_ticks_to_iso8601(t, (uint64_t)in->sync_ticks, sync, sizeof sync) < 0)
        sync[0] = '\0';
    fprintf(f, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"exporter\":\"ntidx %s\",\"trace\":", ntidx_version());
    cli_json_str(f, job->trace_path);
    fprintf(f,
            ",\"format_version\":%d,\"process_id\":%u,\"pointer_size\":%u,\"sync_time_utc\":\"%s\",\"sync_ticks\":%" PRId64
            ",\"tick_frequency\":%" PRId64 ",\"from_ticks\":%" PRIu64 ",\"to_ticks\":%" PRIu64 ",\"ts_unit\":\"us since "
            "sync_time_utc\",\"events\":%" PRIu64 ",\"field_errors\":%" PRIu64 "}}\n",
            in->format_version, in->process_id, in->pointer_size, sync, in->sync_ticks, in->tick_frequency,
            job->query.t0, job->query.t1, n, field_errors);
    if (field_errors)
        cli_note("%s: warning: %" PRIu64 " events have payloads that do not match their metadata", job->trace_path,
                 field_errors);
    *events_written = n;
    ret = 0;
out:
    u64map_free(&named.by_tid);
    free(named.pairs);
    ntidx_buf_free(&fields);
    ntidx_buf_free(&cmd);
    ntidx_values_free(&scratch);
    ntidx_query_close(&q);
    return ret;
}
