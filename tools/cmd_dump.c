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

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx dump TRACE [--order file|time] [--format text|jsonl]\n");
}

/* One event as a JSON line (shared shape with `query`). */
static int print_jsonl(const ntidx_trace *t, const ntidx_event *e, ntidx_buf *fields)
{
    const ntidx_metadata *m = e->metadata;
    char err[300];
    fields->len = 0;
    int rc = ntidx_event_fields_json(t, e, fields, err, sizeof err);
    printf("{\"ts\":%" PRIu64 ",\"provider\":", e->timestamp);
    cli_json_str(stdout, m->provider);
    printf(",\"event_id\":%u,\"event_name\":", m->event_id);
    cli_json_str(stdout, m->event_name);
    printf(",\"version\":%u,\"thread\":%" PRIu64 ",\"capture_thread\":%" PRIu64 ",\"seq\":%u,\"stack_id\":%u"
           ",\"offset\":%" PRIu64,
           m->version, e->thread_id, e->capture_thread_id, e->sequence_number, e->stack_id, e->offset);
    if (rc == NTIDX_OK) {
        fputs(",\"fields\":", stdout);
        fwrite(fields->data, 1, fields->len, stdout);
    } else {
        fputs(",\"field_error\":", stdout);
        cli_json_str(stdout, err);
    }
    fputs("}\n", stdout);
    return rc;
}

static int print_text(const ntidx_trace *t, const ntidx_event *e, ntidx_buf *fields)
{
    char name[512], err[300];
    ntidx_event_display_name(e->metadata, name, sizeof name);
    fields->len = 0;
    int rc = ntidx_event_fields_text(t, e, fields, err, sizeof err);
    printf("%.6f %" PRIu64 " %s thread=%" PRIu64 " seq=%u", ntidx_ticks_to_seconds(t, e->timestamp), e->timestamp,
           name, e->thread_id, e->sequence_number);
    if (e->stack_id)
        printf(" stack=%u", e->stack_id);
    if (rc == NTIDX_OK) {
        if (fields->len) {
            putchar(' ');
            fwrite(fields->data, 1, fields->len, stdout);
        }
    } else {
        printf(" field_error=\"%s\"", err);
    }
    putchar('\n');
    return rc;
}

int ntidx_cmd_dump(int argc, char **argv)
{
    int jsonl = 0;
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
        else if (c == 'f' && !strcmp(optarg, "text"))
            jsonl = 0;
        else if (c == 'f' && !strcmp(optarg, "jsonl"))
            jsonl = 1;
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
    const ntidx_event *e;
    int rc;
    uint64_t field_errors = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        int frc = jsonl ? print_jsonl(t, e, &fields) : print_text(t, e, &fields);
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
