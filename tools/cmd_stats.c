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

static void usage(FILE *f) { fprintf(f, "usage: ntidx stats TRACE [--from T] [--to T] [--json] [--index PATH]\n"); }

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
    printf("],\"blocks\":{");
    for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
        printf("%s\"%s\":%" PRIu64, k > 1 ? "," : "", ntidx_block_kind_name(k), s->reader.blocks[k]);
    printf("}");
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
}

int ntidx_cmd_stats(int argc, char **argv)
{
    int json = 0;
    const char *from = NULL, *to = NULL, *index_path = NULL;
    static const struct option opts[] = {{"json", no_argument, 0, 'j'},     {"from", required_argument, 0, 'f'},
                                         {"to", required_argument, 0, 't'}, {"index", required_argument, 0, 'i'},
                                         {"help", no_argument, 0, 'h'},     {0, 0, 0, 0}};
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
    if (from || to) {
        /* A window: through the side index, reading only the blocks that overlap it. */
        uint64_t t0 = 0, t1 = UINT64_MAX;
        ntidx_index *x = NULL;
        if ((from && cli_parse_time(t, from, &t0) < 0) || (to && cli_parse_time(t, to, &t1) < 0)) {
            ntidx_trace_close(&t);
            return CLI_USAGE;
        }
        if (cli_index(t, path, index_path, 0, &x) < 0) {
            ntidx_trace_close(&t);
            return CLI_FAIL;
        }
        rc = ntidx_stats_window(t, x, t0, t1, &s, err, sizeof err);
        ntidx_index_close(&x);
    } else {
        rc = ntidx_stats_compute(t, &s, err, sizeof err);
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
