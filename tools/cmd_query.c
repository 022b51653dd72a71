/*
 * ntidx query TRACE --from T --to T [--provider P] [--event ID|NAME]
 *   [--thread TID] [--order time|file] [--format text|jsonl|csv] [--limit N]
 *   [--index PATH]
 * The events of a time window, through the side index (built if missing).
 * jsonl keys as in `ntidx dump`.
 */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include <ntidx/index.h>

#include "cli.h"
#include "cli_query.h"
#include "event_print.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx query TRACE --from T --to T [--provider P] [--event ID|NAME] [--thread TID]\n"
               "                   [--order time|file] [--format text|jsonl|csv] [--limit N] [--index PATH] [--stats]\n"
               "T: ticks (integer), time since the trace start (1.5s, 250ms, 40us, 100ns), or ISO-8601 UTC (...Z)\n");
}

int ntidx_cmd_query(int argc, char **argv)
{
    const char *from = NULL, *to = NULL, *event = NULL, *index_path = NULL, *thread = NULL, *limit = NULL;
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    int fmt = EVENT_TEXT, show_stats = 0;
    static const struct option opts[] = {{"stats", no_argument, 0, 'S'}, {"from", required_argument, 0, 'f'},  {"to", required_argument, 0, 't'},
                                         {"provider", required_argument, 0, 'p'}, {"event", required_argument, 0, 'e'},
                                         {"thread", required_argument, 0, 'T'}, {"order", required_argument, 0, 'o'},
                                         {"format", required_argument, 0, 'F'}, {"limit", required_argument, 0, 'l'},
                                         {"index", required_argument, 0, 'i'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': from = optarg; break;
        case 't': to = optarg; break;
        case 'p': o.provider = optarg; break;
        case 'e': event = optarg; break;
        case 'T': thread = optarg; break;
        case 'l': limit = optarg; break;
        case 'i': index_path = optarg; break;
        case 'S': show_stats = 1; break;
        case 'o':
            if (!strcmp(optarg, "time"))
                o.order = NTIDX_ORDER_TIME;
            else if (!strcmp(optarg, "file"))
                o.order = NTIDX_ORDER_FILE;
            else {
                usage(stderr);
                return CLI_USAGE;
            }
            break;
        case 'F':
            if ((fmt = event_format_parse(optarg, 1)) < 0) {
                usage(stderr);
                return CLI_USAGE;
            }
            break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return CLI_USAGE;
    }
    if ((limit && cli_parse_u64(limit, &o.limit, 0) < 0) || (thread && cli_parse_u64(thread, &o.thread, 0) < 0)) {
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
    cli_query cq = {0};
    if ((from && cli_parse_time(t, from, &o.t0) < 0) || (to && cli_parse_time(t, to, &o.t1) < 0)) {
        ret = CLI_USAGE;
        goto out;
    }
    if (cli_index(t, path, index_path, 0, &x) < 0)
        goto out;
    int rc = cli_query_open(&cq, t, path, index_path, &x, &o);
    if (rc < 0)
        goto out;
    cli_fast_stdout();
    event_print_header((enum event_format)fmt);
    ntidx_buf b = {0};
    const ntidx_event *e;
    uint64_t field_errors = 0;
    while ((rc = cli_query_next(&cq, &e)) == 1) {
        int prc = event_print(t, e, (enum event_format)fmt, &b);
        if (prc == NTIDX_E_NOMEM) {
            rc = prc;
            break;
        }
        field_errors += prc != NTIDX_OK;
    }
    fflush(stdout);
    ntidx_buf_free(&b);
    if (field_errors)
        fprintf(stderr, "ntidx: %s: warning: %" PRIu64 " events have payloads that do not match their metadata\n", path,
                field_errors);
    if (rc < 0) {
        cli_error("%s: %s", path, rc == NTIDX_E_NOMEM ? "out of memory" : cli_query_error(&cq));
        goto out;
    }
    if (show_stats) {
        const ntidx_query_stats *qs = cli_query_stats(&cq);
        fprintf(stderr, "query: %" PRIu64 " regions, %" PRIu64 " blocks (%" PRIu64 " event blocks), %" PRIu64
                        " bytes of the trace read\n",
                qs->regions_visited, qs->blocks_read, qs->event_blocks_read, qs->bytes_read);
    }
    ret = CLI_OK;
out:
    cli_query_close(&cq);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return ret;
}
