/*
 * ntidx stats TRACE [--json]: counts per provider, event type and thread,
 * time span, dropped events. JSON keys are a contract (scripts read them):
 * format_version, complete, events, first_ts, last_ts, sync_ticks,
 * tick_frequency, providers, types, threads, dropped_events.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/index.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx stats TRACE [--from T] [--to T] [--json] [--threads N] [--buckets N | --bucket DURATION]\n"
               "                   [--index PATH | --no-index]\n");
}

static void print_json(const char *path, const ntidx_stats *s)
{
    printf("{\"file\":");
    cli_json_str(stdout, path);
    printf(",\"format_version\":%d,\"complete\":%s,\"events\":%" PRIu64 ",\"first_ts\":%" PRIu64
           ",\"last_ts\":%" PRIu64 ",\"sync_ticks\":%" PRId64 ",\"tick_frequency\":%" PRId64
           ",\"duration_s\":%.9f,\"payload_bytes\":%" PRIu64,
           s->format_version, s->complete ? "true" : "false", s->events, s->first_ts, s->last_ts, s->sync_ticks,
           s->tick_frequency, s->events ? (double)(s->last_ts - s->first_ts) / (double)s->tick_frequency : 0.0,
           s->payload_bytes);
    /* providers: types are sorted by provider, so equal names are adjacent */
    printf(",\"providers\":{");
    for (size_t i = 0; i < s->type_count;) {
        uint64_t n = 0;
        size_t j = i;
        for (; j < s->type_count && !strcmp(s->types[j].provider, s->types[i].provider); j++)
            n += s->types[j].count;
        if (i)
            putchar(',');
        cli_json_str(stdout, s->types[i].provider);
        printf(":%" PRIu64, n);
        i = j;
    }
    printf("},\"types\":[");
    for (size_t i = 0; i < s->type_count; i++) {
        const ntidx_type_stat *t = &s->types[i];
        printf("%s{\"provider\":", i ? "," : "");
        cli_json_str(stdout, t->provider);
        printf(",\"event_id\":%u,\"event_name\":", t->event_id);
        cli_json_str(stdout, t->event_name);
        printf(",\"version\":%u,\"count\":%" PRIu64 ",\"first_ts\":%" PRIu64 ",\"payload_bytes\":%" PRIu64 "}",
               t->version, t->count, t->first_ts, t->payload_bytes);
    }
    printf("],\"threads\":[");
    for (size_t i = 0; i < s->thread_count; i++)
        printf("%s{\"thread\":%" PRIu64 ",\"count\":%" PRIu64 "}", i ? "," : "", s->threads[i].thread,
               s->threads[i].count);
    printf("],\"dropped_events\":%" PRIu64 ",\"dropped_by_thread\":[", s->dropped_events);
    for (size_t i = 0; i < s->dropped_count; i++)
        printf("%s{\"capture_thread\":%" PRIu64 ",\"thread\":%" PRIu64 ",\"dropped\":%" PRIu64 "}", i ? "," : "",
               s->dropped[i].capture_thread, s->dropped[i].capture_thread_id, s->dropped[i].dropped);
    printf("],\"histogram\":[");
    for (size_t i = 0; i < s->bucket_count; i++)
        printf("%s{\"start_ts\":%" PRIu64 ",\"end_ts\":%" PRIu64 ",\"events\":%" PRIu64 "}", i ? "," : "",
               s->histogram[i].start_ts, s->histogram[i].end_ts, s->histogram[i].events);
    printf("],\"blocks\":{");
    for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
        printf("%s\"%s\":%" PRIu64, k > 1 ? "," : "", ntidx_block_kind_name(k), s->reader.blocks[k]);
    printf("},\"regions_from_index\":%" PRIu64, s->regions_from_index);
    if (!s->complete) {
        printf(",\"incomplete_reason\":");
        cli_json_str(stdout, s->incomplete_reason);
    }
    printf("}\n");
}

static int cmp_count_desc(const void *a, const void *b)
{
    const ntidx_type_stat *x = *(const ntidx_type_stat *const *)a, *y = *(const ntidx_type_stat *const *)b;
    return x->count > y->count ? -1 : x->count < y->count;
}

static void print_text(const char *path, const ntidx_stats *s)
{
    printf("file:           %s\n", path);
    printf("format:         V%d%s\n", s->format_version, s->complete ? "" : " (incomplete)");
    if (!s->complete && s->incomplete_reason[0])
        printf("                %s\n", s->incomplete_reason);
    printf("events:         %" PRIu64 "\n", s->events);
    if (s->events)
        printf("time span:      %" PRIu64 " .. %" PRIu64 " ticks (%.6f s)\n", s->first_ts, s->last_ts,
               (double)(s->last_ts - s->first_ts) / (double)s->tick_frequency);
    printf("dropped events: %" PRIu64 "\n", s->dropped_events);
    for (size_t i = 0; i < s->dropped_count; i++)
        printf("  capture thread %" PRIu64 " (os %" PRIu64 "): %" PRIu64 "\n", s->dropped[i].capture_thread,
               s->dropped[i].capture_thread_id, s->dropped[i].dropped);
    const ntidx_type_stat **order = malloc((s->type_count + 1) * sizeof *order);
    if (!order)
        return;
    for (size_t i = 0; i < s->type_count; i++)
        order[i] = &s->types[i];
    qsort(order, s->type_count, sizeof *order, cmp_count_desc);
    printf("\n%12s  %s\n", "count", "event type");
    for (size_t i = 0; i < s->type_count; i++) {
        const ntidx_type_stat *t = order[i];
        if (t->event_name[0])
            printf("%12" PRIu64 "  %s/%s", t->count, t->provider, t->event_name);
        else
            printf("%12" PRIu64 "  %s/EventID(%u)", t->count, t->provider, t->event_id);
        printf(t->version ? " v%u\n" : "\n", t->version);
    }
    free(order);
    printf("\n%12s  %s\n", "count", "thread");
    for (size_t i = 0; i < s->thread_count; i++)
        printf("%12" PRIu64 "  %" PRIu64 "\n", s->threads[i].count, s->threads[i].thread);
    if (s->bucket_count) {
        printf("\n%12s  %s\n", "events", "bucket (seconds since the trace start)");
        uint64_t max = 1;
        for (size_t i = 0; i < s->bucket_count; i++)
            max = s->histogram[i].events > max ? s->histogram[i].events : max;
        for (size_t i = 0; i < s->bucket_count; i++) {
            const ntidx_bucket *b = &s->histogram[i];
            printf("%12" PRIu64 "  %.6f .. %.6f  ", b->events, (double)((int64_t)(b->start_ts - (uint64_t)s->sync_ticks)) / (double)s->tick_frequency,
                   (double)((int64_t)(b->end_ts - (uint64_t)s->sync_ticks)) / (double)s->tick_frequency);
            for (uint64_t k = 0; k < b->events * 40 / max; k++)
                putchar('#');
            putchar('\n');
        }
    }
}

int ntidx_cmd_stats(int argc, char **argv)
{
    int json = 0, no_index = 0;
    const char *from = NULL, *to = NULL, *index_path = NULL, *threads = NULL, *buckets = NULL, *bucket = NULL;
    static const struct option opts[] = {{"json", no_argument, 0, 'j'},        {"from", required_argument, 0, 'f'},
                                         {"to", required_argument, 0, 't'},    {"index", required_argument, 0, 'i'},
                                         {"no-index", no_argument, 0, 'N'},    {"threads", required_argument, 0, 'T'},
                                         {"buckets", required_argument, 0, 'b'}, {"bucket", required_argument, 0, 'B'},
                                         {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else if (c == 'f')
            from = optarg;
        else if (c == 't')
            to = optarg;
        else if (c == 'i')
            index_path = optarg;
        else if (c == 'N')
            no_index = 1;
        else if (c == 'T')
            threads = optarg;
        else if (c == 'b')
            buckets = optarg;
        else if (c == 'B')
            bucket = optarg;
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
    ntidx_stats *s;
    char err[600] = "";
    int rc;
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    uint64_t v;
    if ((threads && (cli_parse_u64(threads, &v, 0) < 0 || v > 64 || !(so.threads = (unsigned)v))) ||
        (buckets && (cli_parse_u64(buckets, &so.buckets, 0) < 0 || !so.buckets))) {
        usage(stderr);
        ntidx_trace_close(&t);
        return CLI_USAGE;
    }
    if ((from && cli_parse_time(t, from, &so.t0) < 0) || (to && cli_parse_time(t, to, &so.t1) < 0)) {
        ntidx_trace_close(&t);
        return CLI_USAGE;
    }
    if (bucket) {
        /* a duration: ticks, or a number with a unit, measured from the sync time */
        uint64_t at;
        if (cli_parse_time(t, bucket, &at) < 0) {
            ntidx_trace_close(&t);
            return CLI_USAGE;
        }
        int64_t sync = ntidx_trace_get_info(t)->sync_ticks;
        uint64_t all_digits = strspn(bucket, "0123456789") == strlen(bucket);
        so.bucket_ticks = all_digits ? at : at - (uint64_t)sync;
        if (!so.bucket_ticks) {
            cli_error("bucket width '%s' is zero ticks", bucket);
            ntidx_trace_close(&t);
            return CLI_USAGE;
        }
    }
    if (no_index) {
        if (from || to || buckets || bucket || threads) {
            cli_error("--no-index reads the whole trace in one pass: it takes no window, histogram or threads");
            ntidx_trace_close(&t);
            return CLI_USAGE;
        }
        rc = ntidx_stats_compute(t, &s, err, sizeof err);
    } else {
        /* Through the side index: regions decoded in parallel, only those the window needs. */
        ntidx_index *x = NULL;
        if (cli_index(t, path, index_path, 0, &x) < 0) {
            ntidx_trace_close(&t);
            return CLI_FAIL;
        }
        rc = ntidx_stats_indexed(t, x, &so, &s, err, sizeof err);
        if (rc == NTIDX_E_INDEX_CORRUPT && cli_index_recover(t, path, index_path, &x, err) == 0)
            rc = ntidx_stats_indexed(t, x, &so, &s, err, sizeof err); /* over the rebuilt index */
        ntidx_index_close(&x);
    }
    if (rc < 0) {
        cli_error("%s: %s", path, err[0] ? err : ntidx_strerror(rc));
        ntidx_trace_close(&t);
        return CLI_FAIL;
    }
    if (json)
        print_json(path, s);
    else
        print_text(path, s);
    if (!s->complete)
        fprintf(stderr, "ntidx: %s: warning: trace is incomplete: %s\n", path, s->incomplete_reason);
    ntidx_stats_free(&s);
    ntidx_trace_close(&t);
    return CLI_OK;
}
