/*
 * ntidx info TRACE [--json]: what the trace is, from its header and a walk
 * over block headers (event blocks are decoded only where their header
 * time range is missing or untrustworthy), or, when the trace's index
 * (TRACE.ntidx) is there and current and the trace complete, from the index,
 * which holds the same facts (the same output; the walk reads every block
 * header, the index a few pages). No index is built or written.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const cli_command cli_cmd_info = {
    .name = "info",
    .run = ntidx_cmd_info,
    .summary = "format version, size, completeness, block counts, time span",
    .groups = CLI_TRACE | CLI_JSON,
};

/*
 * The walk's answers from the trace's own index, when it is current and says
 * the trace is complete (an incomplete trace's reason is found by the walk).
 * 1, or 0 (no such index: walk).
 */
static int from_index(ntidx_trace *t, const char *path, uint64_t counts[NTIDX_BLOCK_KIND_COUNT], uint64_t *unknown,
                      uint64_t *blocks, uint64_t *first_ts, uint64_t *last_ts, uint64_t *end)
{
    char *ipath = ntidx_index_default_path(path);
    ntidx_index *x = NULL;
    ntidx_index_state st;
    int ok = ipath && access(ipath, R_OK) == 0 && ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &x, &st) == NTIDX_OK &&
             st == NTIDX_INDEX_CURRENT && ntidx_index_get_info(x)->complete &&
             ntidx_index_block_counts(x, counts, unknown) == NTIDX_OK;
    if (ok) {
        const ntidx_index_info *xi = ntidx_index_get_info(x);
        counts[NTIDX_BLOCK_TRACE] = 1; /* read at open; not listed in the index */
        *blocks = xi->blocks + 1;
        *first_ts = xi->first_ts;
        *last_ts = xi->last_ts;
        *end = xi->indexed_end;
    }
    ntidx_index_close(&x);
    free(ipath);
    return ok;
}

int ntidx_cmd_info(int argc, char **argv)
{
    cli_ctx c;
    int rc0 = cli_begin(&cli_cmd_info, argc, argv, &c);
    if (rc0 != CLI_GO_ON)
        return rc0;
    ntidx_trace *t = c.trace;
    const char *path = c.trace_path;
    int json = c.json;
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    uint64_t counts[NTIDX_BLOCK_KIND_COUNT] = {0}, unknown = 0, blocks = 0;
    uint64_t first_ts = UINT64_MAX, last_ts = 0, end = in->first_block_offset;
    uint64_t pos = in->first_block_offset;
    ntidx_block b;
    int rc, ret = CLI_OK;
    char note[600] = "";
    if (from_index(t, path, counts, &unknown, &blocks, &first_ts, &last_ts, &end)) {
        rc = 0; /* complete: an index is taken only for a trace whose end-of-stream marker it indexed */
        pos = end;
    } else {
        rc = 1;
    }
    while (rc == 1 && (rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        blocks++;
        end = pos;
        if (b.kind < NTIDX_BLOCK_KIND_COUNT)
            counts[b.kind]++;
        else
            unknown++;
        if (b.kind != NTIDX_BLOCK_EVENT)
            continue;
        uint64_t lo, hi;
        int r = ntidx_event_block_time_range(t, &b, &lo, &hi, NULL);
        if (r < 0) {
            cli_library_error();
            ret = CLI_FAIL;
            break;
        }
        if (r == 1) {
            if (lo < first_ts)
                first_ts = lo;
            if (hi > last_ts)
                last_ts = hi;
        }
    }
    int complete = rc == 0;
    if (rc == NTIDX_E_TRUNCATED) /* not an error: the trace ends early, and here is where and why */
        snprintf(note, sizeof note, "%s", ntidx_last_error_info()->detail);
    else if (rc < 0) {
        cli_library_error();
        ret = CLI_FAIL;
    }
    if (complete)
        end = pos;
    int have_events = first_ts != UINT64_MAX;
    char iso[64] = "";
    int have_sync_date = ntidx_ticks_to_iso8601(t, (uint64_t)in->sync_ticks, iso, sizeof iso) == NTIDX_OK;
    if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        printf(",\"format_version\":%d,\"minor_version\":%u,\"trace_object_version\":%u,\"size\":%" PRIu64
               ",\"complete\":%s,\"indexed_end\":%" PRIu64 ",\"pointer_size\":%u,\"tick_frequency\":%" PRId64
               ",\"sync_ticks\":%" PRId64 ",\"sync_time_utc\":%s%s%s,\"process_id\":%u,\"number_of_processors\":%u",
               in->format_version, in->minor_version, in->trace_object_version, in->file_size,
               complete ? "true" : "false", end, in->pointer_size, in->tick_frequency, in->sync_ticks,
               have_sync_date ? "\"" : "", have_sync_date ? iso : "null", have_sync_date ? "\"" : "",
               in->process_id, in->number_of_processors);
        printf(",\"blocks\":{");
        for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
            printf("%s\"%s\":%" PRIu64, k > 1 ? "," : "", ntidx_block_kind_name(k), counts[k]);
        printf(",\"unknown\":%" PRIu64 "},\"block_total\":%" PRIu64, unknown, blocks);
        if (have_events)
            printf(",\"first_ts\":%" PRIu64 ",\"last_ts\":%" PRIu64 ",\"duration_s\":%.9f", first_ts, last_ts,
                   (double)(last_ts - first_ts) / (double)in->tick_frequency);
        else
            printf(",\"first_ts\":null,\"last_ts\":null,\"duration_s\":0");
        printf(",\"keyvalues\":{");
        for (size_t i = 0; i < in->keyvalue_count; i++) {
            if (i)
                putchar(',');
            cli_json_str(stdout, in->keyvalues[i].key);
            putchar(':');
            cli_json_str(stdout, in->keyvalues[i].value);
        }
        printf("}");
        if (note[0]) {
            printf(",\"incomplete_reason\":");
            cli_json_str(stdout, note);
        }
        printf("}\n");
    } else {
        printf("file:             %s\n", path);
        printf("format:           %s V%d", in->format_version == 3 ? "NetPerf" : "NetTrace", in->format_version);
        if (in->format_version == 6)
            printf(".%u", in->minor_version);
        printf("\nsize:             %" PRIu64 " bytes\n", in->file_size);
        printf("complete:         %s\n", complete ? "yes" : "no (no end-of-stream marker)");
        if (note[0])
            printf("                  %s\n", note);
        printf("pointer size:     %u\n", in->pointer_size);
        printf("tick frequency:   %" PRId64 " Hz\n", in->tick_frequency);
        printf("sync time:        %s (%" PRId64 " ticks)\n", have_sync_date ? iso : "(not a valid date)", in->sync_ticks);
        if (in->process_id)
            printf("process id:       %u\n", in->process_id);
        for (size_t i = 0; i < in->keyvalue_count; i++)
            printf("  %s = %s\n", in->keyvalues[i].key, in->keyvalues[i].value);
        printf("blocks:           %" PRIu64 "\n", blocks);
        for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
            if (counts[k])
                printf("  %-16s%" PRIu64 "\n", ntidx_block_kind_name(k), counts[k]);
        if (unknown)
            printf("  %-16s%" PRIu64 "\n", "unknown", unknown);
        if (have_events) {
            char a[64] = "(not a valid date)", z[64] = "(not a valid date)";
            if (ntidx_ticks_to_iso8601(t, first_ts, a, sizeof a) < 0)
                snprintf(a, sizeof a, "(not a valid date)");
            if (ntidx_ticks_to_iso8601(t, last_ts, z, sizeof z) < 0)
                snprintf(z, sizeof z, "(not a valid date)");
            printf("first event:      %" PRIu64 " ticks, %.6f s, %s\n", first_ts, ntidx_ticks_to_seconds(t, first_ts), a);
            printf("last event:       %" PRIu64 " ticks, %.6f s, %s\n", last_ts, ntidx_ticks_to_seconds(t, last_ts), z);
            printf("duration:         %.6f s\n", (double)(last_ts - first_ts) / (double)in->tick_frequency);
        } else {
            printf("events:           none\n");
        }
    }
    return cli_end(&c, ret);
}
