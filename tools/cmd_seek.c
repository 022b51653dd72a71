/*
 * ntidx seek TRACE --at T [--format text|jsonl] [--index PATH]: the first
 * event at or after T (time order), with its file offset.
 */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include <ntidx/index.h>

#include "cli.h"
#include "event_print.h"

static void usage(FILE *f) { fprintf(f, "usage: ntidx seek TRACE --at T [--format text|jsonl] [--index PATH]\n"); }

int ntidx_cmd_seek(int argc, char **argv)
{
    const char *at = NULL, *index_path = NULL;
    int fmt = EVENT_TEXT;
    static const struct option opts[] = {{"at", required_argument, 0, 'a'}, {"format", required_argument, 0, 'F'},
                                         {"index", required_argument, 0, 'i'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'a': at = optarg; break;
        case 'i': index_path = optarg; break;
        case 'F':
            if ((fmt = event_format_parse(optarg, 0)) < 0) {
                usage(stderr);
                return CLI_USAGE;
            }
            break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1 || !at) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *path = argv[optind];
    ntidx_trace *t;
    if (cli_open_trace(path, &t) < 0)
        return CLI_FAIL;
    int ret = CLI_FAIL;
    ntidx_index *x = NULL;
    ntidx_query *q = NULL;
    uint64_t ts;
    if (cli_parse_time(t, at, &ts) < 0) {
        ret = CLI_USAGE;
        goto out;
    }
    if (cli_index(t, path, index_path, 0, &x) < 0)
        goto out;
    const ntidx_event *e;
    int rc = ntidx_seek(t, x, ts, &q, &e);
    if (rc == NTIDX_E_INDEX_CORRUPT) {
        /* A region failed the check it gets on first use: rebuild the index and seek again. */
        char why[700];
        snprintf(why, sizeof why, "%s: %s", path, ntidx_query_error(q));
        ntidx_query_close(&q);
        if (cli_index_recover(t, path, index_path, &x, why) < 0)
            goto out;
        rc = ntidx_seek(t, x, ts, &q, &e);
    }
    if (rc < 0) {
        cli_error("%s: %s", path, q ? ntidx_query_error(q) : ntidx_strerror(rc));
        goto out;
    }
    if (rc == 0) {
        fprintf(stderr, "ntidx: %s: no event at or after %" PRIu64 " ticks\n", path, ts);
        ret = CLI_OK;
        goto out;
    }
    ntidx_buf b = {0};
    if (fmt == EVENT_TEXT)
        printf("offset %" PRIu64 ": ", e->offset);
    event_print(t, e, (enum event_format)fmt, &b);
    ntidx_buf_free(&b);
    ret = CLI_OK;
out:
    ntidx_query_close(&q);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return ret;
}
