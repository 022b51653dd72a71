/*
 * The JSON documents of `ntidx info --json` and `ntidx stats --json`
 * (include/ntidx/report.h): one producer for the command and every binding,
 * so their keys and values cannot drift apart. The bytes are the command's
 * as they were when it printed them itself (tests/cli_test.py holds them).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "error.h"
#include "index_build.h"
#include "ntidx/index.h"
#include "ntidx/report.h"

/*
 * The walk's answers from the trace's own index, when it is current and says
 * the trace is complete (an incomplete trace's reason is found by the walk):
 * the same facts from a few pages of the index instead of every block header
 * of the trace. 1, or 0 (no such index: walk). Nothing is built or written.
 */
static int summary_from_index(ntidx_trace *t, ntidx_trace_summary *out)
{
    char *ipath = NULL; /* where ntidx_index_open() keeps it (a remote trace's: named after its ETag) */
    int in_dir = 0, private_dir = 0;
    if (ntx_index_locate_trace(t, &ipath, &in_dir, &private_dir) < 0)
        ipath = NULL;
    ntidx_index *x = NULL;
    ntidx_index_state st;
    int ok = ipath && access(ipath, R_OK) == 0 && ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &x, &st) == NTIDX_OK &&
             st == NTIDX_INDEX_CURRENT && ntidx_index_get_info(x)->complete &&
             ntidx_index_block_counts(x, out->blocks, &out->unknown_blocks) == NTIDX_OK;
    if (ok) {
        const ntidx_index_info *xi = ntidx_index_get_info(x);
        out->blocks[NTIDX_BLOCK_TRACE] = 1; /* read at open; not listed in the index */
        out->block_total = xi->blocks + 1;
        out->first_ts = xi->first_ts;
        out->last_ts = xi->last_ts;
        out->end = xi->indexed_end;
        out->complete = 1; /* an index is taken only for a trace whose end-of-stream marker it indexed */
    }
    ntidx_index_close(&x);
    free(ipath);
    return ok;
}

NTIDX_API int ntidx_trace_summarize(ntidx_trace *t, ntidx_trace_summary *out)
{
    if (!t || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_trace_summarize: NULL argument");
    memset(out, 0, sizeof *out);
    if (summary_from_index(t, out))
        return NTIDX_OK;
    memset(out, 0, sizeof *out); /* a failed attempt may have counted some blocks */
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    uint64_t pos = in->first_block_offset;
    out->first_ts = UINT64_MAX;
    out->end = in->first_block_offset;
    ntidx_block b;
    int rc, failed = 0;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        out->block_total++;
        out->end = pos;
        if (b.kind < NTIDX_BLOCK_KIND_COUNT)
            out->blocks[b.kind]++;
        else
            out->unknown_blocks++;
        if (b.kind != NTIDX_BLOCK_EVENT)
            continue;
        uint64_t lo, hi;
        int r = ntidx_event_block_time_range(t, &b, &lo, &hi, NULL);
        if (r < 0) { /* said; the walk stops here, not complete */
            failed = r;
            break;
        }
        if (r == 1) {
            if (lo < out->first_ts)
                out->first_ts = lo;
            if (hi > out->last_ts)
                out->last_ts = hi;
        }
    }
    if (failed || rc < 0) /* where and why the walk stopped: a trace cut short, or damaged (an error too) */
        snprintf(out->incomplete_reason, sizeof out->incomplete_reason, "%s", ntidx_last_error_info()->detail);
    if (failed)
        return failed;
    out->complete = rc == 0;
    if (out->complete)
        out->end = pos;
    if (rc == NTIDX_E_TRUNCATED) /* not an error: the trace ends early */
        return NTIDX_OK;
    return rc < 0 ? rc : NTIDX_OK;
}

NTIDX_API int ntidx_info_json(ntidx_trace *t, const char *file, ntidx_buf *b)
{
    if (!t || !b)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_info_json: NULL argument");
    if (!file)
        file = ntidx_trace_name(t);
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    ntidx_trace_summary s;
    int rc = ntidx_trace_summarize(t, &s);
    ntx_err saved = {0};
    char saved_file[NTIDX_ERROR_MAX] = "";
    if (rc < 0) { /* the formatting below may fail calls of its own (a sync time that is no date) */
        ntx_err_from_last(&saved, rc);
        snprintf(saved_file, sizeof saved_file, "%s", ntidx_last_error_info()->file);
    }
    int have_events = s.first_ts != UINT64_MAX;
    char iso[64] = "";
    int have_sync_date = ntidx_ticks_to_iso8601(t, (uint64_t)in->sync_ticks, iso, sizeof iso) == NTIDX_OK;
    ntx_buf_puts(b, "{\"file\":");
    ntx_buf_json_str(b, file, strlen(file));
    ntx_buf_printf(b,
                   ",\"format_version\":%d,\"minor_version\":%u,\"trace_object_version\":%u,\"size\":%" PRIu64
                   ",\"complete\":%s,\"indexed_end\":%" PRIu64 ",\"pointer_size\":%u,\"tick_frequency\":%" PRId64
                   ",\"sync_ticks\":%" PRId64 ",\"sync_time_utc\":%s%s%s,\"process_id\":%u,\"number_of_processors\":%u",
                   in->format_version, in->minor_version, in->trace_object_version, in->file_size,
                   s.complete ? "true" : "false", s.end, in->pointer_size, in->tick_frequency, in->sync_ticks,
                   have_sync_date ? "\"" : "", have_sync_date ? iso : "null", have_sync_date ? "\"" : "",
                   in->process_id, in->number_of_processors);
    ntx_buf_puts(b, ",\"blocks\":{");
    for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
        ntx_buf_printf(b, "%s\"%s\":%" PRIu64, k > 1 ? "," : "", ntidx_block_kind_name(k), s.blocks[k]);
    ntx_buf_printf(b, ",\"unknown\":%" PRIu64 "},\"block_total\":%" PRIu64, s.unknown_blocks, s.block_total);
    if (have_events)
        ntx_buf_printf(b, ",\"first_ts\":%" PRIu64 ",\"last_ts\":%" PRIu64 ",\"duration_s\":%.9f", s.first_ts,
                       s.last_ts, (double)(s.last_ts - s.first_ts) / (double)in->tick_frequency);
    else
        ntx_buf_puts(b, ",\"first_ts\":null,\"last_ts\":null,\"duration_s\":0.000000000"); /* as stats and top */
    ntx_buf_puts(b, ",\"keyvalues\":{");
    for (size_t i = 0; i < in->keyvalue_count; i++) {
        if (i)
            ntx_buf_puts(b, ",");
        const char *k = in->keyvalues[i].key ? in->keyvalues[i].key : "";
        const char *v = in->keyvalues[i].value ? in->keyvalues[i].value : "";
        ntx_buf_json_str(b, k, strlen(k));
        ntx_buf_puts(b, ":");
        ntx_buf_json_str(b, v, strlen(v));
    }
    ntx_buf_puts(b, "}");
    if (s.incomplete_reason[0]) {
        ntx_buf_puts(b, ",\"incomplete_reason\":");
        ntx_buf_json_str(b, s.incomplete_reason, strlen(s.incomplete_reason));
    }
    ntx_buf_puts(b, "}");
    if (b->err)
        return ntx_failf(NTIDX_E_NOMEM, file, NTIDX_NO_OFFSET, "out of memory");
    if (rc < 0)
        return ntx_fail(rc, saved_file[0] ? saved_file : NULL, &saved);
    return NTIDX_OK;
}

NTIDX_API int ntidx_stats_json(const ntidx_stats *s, const char *file, ntidx_buf *b)
{
    if (!s || !b)
        return ntx_failf(NTIDX_E_INVALID_ARG, file, NTIDX_NO_OFFSET, "ntidx_stats_json: NULL argument");
    if (!file)
        file = "";
    ntx_buf_puts(b, "{\"file\":");
    ntx_buf_json_str(b, file, strlen(file));
    ntx_buf_printf(b,
                   ",\"format_version\":%d,\"complete\":%s,\"events\":%" PRIu64 ",\"first_ts\":%" PRIu64
                   ",\"last_ts\":%" PRIu64 ",\"sync_ticks\":%" PRId64 ",\"tick_frequency\":%" PRId64
                   ",\"duration_s\":%.9f,\"payload_bytes\":%" PRIu64,
                   s->format_version, s->complete ? "true" : "false", s->events, s->first_ts, s->last_ts,
                   s->sync_ticks, s->tick_frequency,
                   s->events ? (double)(s->last_ts - s->first_ts) / (double)s->tick_frequency : 0.0, s->payload_bytes);
    /* providers: types are sorted by provider, so equal names are adjacent */
    ntx_buf_puts(b, ",\"providers\":{");
    for (size_t i = 0; i < s->type_count;) {
        uint64_t n = 0;
        size_t j = i;
        for (; j < s->type_count && !strcmp(s->types[j].provider, s->types[i].provider); j++)
            n += s->types[j].count;
        if (i)
            ntx_buf_puts(b, ",");
        ntx_buf_json_str(b, s->types[i].provider, strlen(s->types[i].provider));
        ntx_buf_printf(b, ":%" PRIu64, n);
        i = j;
    }
    ntx_buf_puts(b, "},\"types\":[");
    for (size_t i = 0; i < s->type_count; i++) {
        const ntidx_type_stat *t = &s->types[i];
        ntx_buf_puts(b, i ? ",{\"provider\":" : "{\"provider\":");
        ntx_buf_json_str(b, t->provider, strlen(t->provider));
        ntx_buf_printf(b, ",\"event_id\":%u,\"event_name\":", t->event_id);
        ntx_buf_json_str(b, t->event_name, strlen(t->event_name));
        ntx_buf_printf(b, ",\"version\":%u,\"count\":%" PRIu64 ",\"first_ts\":%" PRIu64 ",\"payload_bytes\":%" PRIu64 "}",
                       t->version, t->count, t->first_ts, t->payload_bytes);
    }
    ntx_buf_puts(b, "],\"threads\":[");
    for (size_t i = 0; i < s->thread_count; i++)
        ntx_buf_printf(b, "%s{\"thread\":%" PRIu64 ",\"count\":%" PRIu64 "}", i ? "," : "", s->threads[i].thread,
                       s->threads[i].count);
    ntx_buf_printf(b, "],\"dropped_events\":%" PRIu64 ",\"dropped_by_thread\":[", s->dropped_events);
    for (size_t i = 0; i < s->dropped_count; i++)
        ntx_buf_printf(b, "%s{\"capture_thread\":%" PRIu64 ",\"thread\":%" PRIu64 ",\"dropped\":%" PRIu64 "}",
                       i ? "," : "", s->dropped[i].capture_thread, s->dropped[i].capture_thread_id,
                       s->dropped[i].dropped);
    ntx_buf_puts(b, "],\"histogram\":[");
    for (size_t i = 0; i < s->bucket_count; i++)
        ntx_buf_printf(b, "%s{\"start_ts\":%" PRIu64 ",\"end_ts\":%" PRIu64 ",\"events\":%" PRIu64 "}", i ? "," : "",
                       s->histogram[i].start_ts, s->histogram[i].end_ts, s->histogram[i].events);
    ntx_buf_puts(b, "],\"blocks\":{");
    for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
        ntx_buf_printf(b, "%s\"%s\":%" PRIu64, k > 1 ? "," : "", ntidx_block_kind_name(k), s->reader.blocks[k]);
    /* "unknown" as `info --json` has it: one key, one shape in every document that has "blocks" */
    ntx_buf_printf(b, ",\"unknown\":%" PRIu64 "},\"regions_from_index\":%" PRIu64, s->reader.unknown_blocks,
                   s->regions_from_index);
    if (!s->complete) {
        const char *r = s->incomplete_reason ? s->incomplete_reason : "";
        ntx_buf_puts(b, ",\"incomplete_reason\":");
        ntx_buf_json_str(b, r, strlen(r));
    }
    ntx_buf_puts(b, "}");
    return b->err ? ntx_failf(NTIDX_E_NOMEM, file, NTIDX_NO_OFFSET, "out of memory") : NTIDX_OK;
}
