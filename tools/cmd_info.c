/*
 * ntidx info TRACE [--json]: what the trace is, from its header and a walk
 * over block headers (event blocks are decoded only where their header
 * time range is missing or untrustworthy), or, when the trace's index is
 * there and current and the trace complete, from the index, which holds the
 * same facts (ntidx_trace_summarize(): the same output; the walk reads every
 * block header, the index a few pages). No index is built or written.
 */
#include <inttypes.h>
#include <string.h>

#include <ntidx/report.h>

#include "cli.h"

const cli_command cli_cmd_info = {
    .name = "info",
    .run = ntidx_cmd_info,
    .summary = "format version, size, completeness, block counts, time span",
    .groups = CLI_TRACE | CLI_STDIN | CLI_JSON,
};

/* A trace cut short: said on stderr, as the other commands say it (the document holds the reason too).
   A second walk over the block headers, for incomplete traces only: a complete one's is read from its index. */
static void warn_if_incomplete(ntidx_trace *t, const char *path)
{
    ntidx_trace_summary s;
    if (ntidx_trace_summarize(t, &s) == NTIDX_OK && !s.complete)
        cli_note("%s: warning: trace is incomplete: %s", path, s.incomplete_reason);
}

int ntidx_cmd_info(int argc, char **argv)
{
    cli_ctx c;
    int rc0 = cli_begin(&cli_cmd_info, argc, argv, &c);
    if (rc0 != CLI_GO_ON)
        return rc0;
    ntidx_trace *t = c.trace;
    const char *path = c.trace_path;
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    int ret = CLI_OK;
    if (c.json) {
        /* the library's document: the Python module's Trace.info() is the same one */
        ntidx_buf b = {0};
        int rc = ntidx_info_json(t, path, &b);
        if (rc < 0) {
            cli_library_error();
            ret = CLI_FAIL;
        }
        if (b.len)
            printf("%s\n", b.data);
        ntidx_buf_free(&b);
        if (rc == NTIDX_OK)
            warn_if_incomplete(t, path);
        return cli_end(&c, ret);
    }
    ntidx_trace_summary sum;
    int damaged = ntidx_trace_summarize(t, &sum) < 0;
    if (damaged) {
        cli_library_error();
        ret = CLI_FAIL;
    }
    const uint64_t *counts = sum.blocks;
    uint64_t unknown = sum.unknown_blocks, blocks = sum.block_total, first_ts = sum.first_ts, last_ts = sum.last_ts;
    int complete = sum.complete;
    const char *note = sum.incomplete_reason;
    int have_events = first_ts != UINT64_MAX;
    char iso[64] = "";
    int have_sync_date = ntidx_ticks_to_iso8601(t, (uint64_t)in->sync_ticks, iso, sizeof iso) == NTIDX_OK;
    printf("file:             %s\n", path);
    printf("format:           %s V%d", in->format_version == 3 ? "NetPerf" : "NetTrace", in->format_version);
    if (in->format_version == 6)
        printf(".%u", in->minor_version);
    printf("\nsize:             %" PRIu64 " bytes\n", in->file_size);
    printf("complete:         %s\n", complete ? "yes"
                                    : damaged ? "no (damaged: the walk over its blocks stopped at an error)"
                                              : "no (no end-of-stream marker)");
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
    if (!complete && !damaged)
        cli_note("%s: warning: trace is incomplete: %s", path, note);
    return cli_end(&c, ret);
}
