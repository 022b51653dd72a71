/*
 * ntidx slice TRACE --from T --to T -o OUT [--provider P] [--event ID|NAME]
 *   [--thread TID] [--index PATH] [--no-copy] [--stats]
 * Write the events of [from, to) that pass the filters, with the
 * definitions they reference, as a new trace in the input's format version
 * (include/ntidx/slice.h). The window and filters select what
 * `ntidx query` would print.
 */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include <ntidx/slice.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx slice TRACE --from T --to T -o OUT [--provider P] [--event ID|NAME] [--thread TID]\n"
               "                   [--index PATH] [--no-copy] [--stats]\n"
               "T: ticks (integer), time since the trace start (1.5s, 250ms, 40us, 100ns), or ISO-8601 UTC (...Z)\n"
               "--no-copy: re-encode every event instead of copying whole event blocks byte for byte\n"
               "--stats: print what was written and the bytes of the trace read on stderr\n");
}

int ntidx_cmd_slice(int argc, char **argv)
{
    const char *from = NULL, *to = NULL, *event = NULL, *index_path = NULL, *thread = NULL, *out = NULL;
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    ntidx_slice_options so;
    ntidx_slice_options_defaults(&so);
    int show_stats = 0;
    static const struct option opts[] = {{"from", required_argument, 0, 'f'},     {"to", required_argument, 0, 't'},
                                         {"output", required_argument, 0, 'o'},   {"provider", required_argument, 0, 'p'},
                                         {"event", required_argument, 0, 'e'},    {"thread", required_argument, 0, 'T'},
                                         {"index", required_argument, 0, 'i'},    {"no-copy", no_argument, 0, 'N'},
                                         {"stats", no_argument, 0, 'S'},          {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': from = optarg; break;
        case 't': to = optarg; break;
        case 'o': out = optarg; break;
        case 'p': o.provider = optarg; break;
        case 'e': event = optarg; break;
        case 'T': thread = optarg; break;
        case 'i': index_path = optarg; break;
        case 'N': so.copy_blocks = 0; break;
        case 'S': show_stats = 1; break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1 || !out) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (thread && cli_parse_u64(thread, &o.thread, 0) < 0) {
        usage(stderr);
        return CLI_USAGE;
    }
    o.has_thread = thread != NULL;
    if (event) {
        uint64_t id;
        if (cli_parse_u64(event, &id, 0) == 0 && id <= UINT32_MAX) {
            o.has_event_id = 1;
            o.event_id = (uint32_t)id;
        } else {
            o.event_name = event;
        }
    }
    const char *path = argv[optind];
    ntidx_trace *t;
    if (cli_open_trace(path, &t) < 0)
        return CLI_FAIL;
    int ret = CLI_FAIL;
    ntidx_index *x = NULL;
    if ((from && cli_parse_time(t, from, &o.t0) < 0) || (to && cli_parse_time(t, to, &o.t1) < 0)) {
        ret = CLI_USAGE;
        goto done;
    }
    if (cli_index(t, path, index_path, 0, &x) < 0)
        goto done;
    ntidx_slice_stats st;
    char err[600];
    int rc = ntidx_slice(t, x, &o, &so, out, &st, err, sizeof err);
    if (rc == NTIDX_E_INDEX_CORRUPT && cli_index_recover(t, path, index_path, &x, err) == 0)
        rc = ntidx_slice(t, x, &o, &so, out, &st, err, sizeof err); /* the index is checked before anything is written */
    if (rc < 0) {
        cli_error("%s: %s", path, err[0] ? err : ntidx_strerror(rc));
        ret = rc == NTIDX_E_INVALID_ARG ? CLI_USAGE : CLI_FAIL;
        goto done;
    }
    if (show_stats)
        fprintf(stderr,
                "slice: %" PRIu64 " events (%" PRIu64 " in %" PRIu64 " blocks copied whole), %" PRIu64
                " sequence points, %" PRIu64 " metadata, %" PRIu64 " threads, %" PRIu64 " stacks, %" PRIu64
                " label lists; %" PRIu64 " bytes written; %" PRIu64 " bytes of the trace read (query %" PRIu64 ")\n",
                st.events, st.events_copied, st.blocks_copied, st.sequence_points, st.metadata, st.threads, st.stacks,
                st.label_lists, st.bytes_written, st.bytes_read, st.query_bytes_read);
    ret = CLI_OK;
done:
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return ret;
}
