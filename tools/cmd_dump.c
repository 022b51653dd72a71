/*
 * ntidx dump TRACE [--order file|time] [--format text|jsonl]: every event,
 * one per line. jsonl keys are a contract: ts, provider, event_id,
 * event_name, thread, capture_thread, seq, stack_id, offset, and fields (or
 * field_error when the payload does not fit its metadata).
 */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "event_print.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx dump TRACE [--order file|time] [--format text|jsonl|csv]\n");
}

int ntidx_cmd_dump(int argc, char **argv)
{
    int fmt = EVENT_TEXT;
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    static const struct option opts[] = {{"order", required_argument, 0, 'o'},
                                         {"format", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:f:h", opts, NULL)) != -1) {
        if (c == 'o' && !strcmp(optarg, "file"))
            o.order = NTIDX_ORDER_FILE;
        else if (c == 'o' && !strcmp(optarg, "time"))
            o.order = NTIDX_ORDER_TIME;
        else if (c == 'f' && event_format_parse(optarg, 1) >= 0)
            fmt = event_format_parse(optarg, 1);
        else if (c == 'h') {
            usage(stdout);
            return CLI_OK;
        } else {
            usage(stderr);
            return CLI_USAGE;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *path = argv[optind];
    ntidx_trace *t;
    if (cli_open_trace(path, &t) < 0)
        return CLI_FAIL;
    ntidx_reader *r;
    if (ntidx_reader_open(&r, t, &o) < 0) {
        cli_error("%s: out of memory", path);
        ntidx_trace_close(&t);
        return CLI_FAIL;
    }
    cli_fast_stdout();
    ntidx_buf fields = {0};
    event_print_header((enum event_format)fmt);
    const ntidx_event *e;
    int rc;
    uint64_t field_errors = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        int frc = event_print(t, e, (enum event_format)fmt, &fields);
        if (frc == NTIDX_E_NOMEM) {
            rc = frc;
            break;
        }
        field_errors += frc != NTIDX_OK;
    }
    fflush(stdout);
    int ret = CLI_OK;
    if (field_errors)
        fprintf(stderr, "ntidx: %s: warning: %" PRIu64 " events have payloads that do not match their metadata "
                        "(listed with field_error)\n", path, field_errors);
    if (rc == NTIDX_E_NOMEM) {
        cli_error("%s: out of memory", path);
        ret = CLI_FAIL;
    } else if (rc < 0) {
        cli_error("%s: %s", path, ntidx_reader_error(r));
        ret = CLI_FAIL;
    } else if (!ntidx_reader_complete(r)) {
        fprintf(stderr, "ntidx: %s: warning: trace is incomplete: %s\n", path, ntidx_reader_error(r));
    }
    ntidx_buf_free(&fields);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    return ret;
}
