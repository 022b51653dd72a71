/*
 * ntidx stats TRACE [--json]: counts per provider, event type and thread,
 * time span, dropped events. JSON keys are a contract (scripts read them):
 * format_version, complete, events, first_ts, last_ts, sync_ticks,
 * tick_frequency, providers, types, threads, dropped_events.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/index.h>
#include <ntidx/report.h>

#include "cli.h"

/* The library's document (report.h): the Python module's Trace.stats() is the same one. */
static int print_json(const char *path, const ntidx_stats *s)
{
    ntidx_buf b = {0};
    int rc = ntidx_stats_json(s, path, &b);
    if (rc == NTIDX_OK)
        printf("%s\n", b.data);
    ntidx_buf_free(&b);
    return rc;
}

static int cmp_count_desc(const void *a, const void *b)
{
    const ntidx_type_stat *x = *(const ntidx_type_stat *const *)a, *y = *(const ntidx_type_stat *const *)b;
    return x->count > y->count ? -1 : x->count < y->count;
}

/* Events per provider, most first (the same sums as the JSON's "providers"). */
typedef struct provider_count {
    const char *name;
    uint64_t count;
} provider_count;

static int cmp_provider(const void *a, const void *b)
{
    const provider_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void print_providers(const ntidx_stats *s)
{
    provider_count *p = malloc((s->type_count + 1) * sizeof *p);
    if (!p)
        return;
    size_t n = 0;
    for (size_t i = 0; i < s->type_count; i++) {
        size_t k = 0;
        while (k < n && strcmp(p[k].name, s->types[i].provider) != 0)
            k++;
        if (k == n)
            p[n++] = (provider_count){s->types[i].provider, 0};
        p[k].count += s->types[i].count;
    }
    qsort(p, n, sizeof *p, cmp_provider);
    printf("\n%12s  %s\n", "count", "provider");
    for (size_t i = 0; i < n; i++)
        printf("%12" PRIu64 "  %s\n", p[i].count, p[i].name);
    free(p);
}

static void print_text(const ntidx_trace *trace, const char *path, const ntidx_stats *s)
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
    print_providers(s);
    /* The event id on every line: two types may share a name (a V6 label list renaming events of two
       ids alike, "Activity1//Reply"), and the id tells them apart. */
    printf("\n%12s  %10s  %s\n", "count", "event id", "event type");
    for (size_t i = 0; i < s->type_count; i++) {
        const ntidx_type_stat *t = order[i];
        printf("%12" PRIu64 "  %10u  %s/%s", t->count, t->event_id, t->provider,
               t->event_name[0] ? t->event_name : "?");
        printf(t->version ? " v%u\n" : "\n", t->version);
    }
    free(order);
    printf("\n%12s  %s\n", "count", "thread");
    for (size_t i = 0; i < s->thread_count; i++)
        printf("%12" PRIu64 "  %" PRIu64 "\n", s->threads[i].count, s->threads[i].thread);
    if (s->bucket_count) {
        printf("\n%12s  %s\n", "events", "bucket (seconds since the sync time)");
        uint64_t max = 1;
        for (size_t i = 0; i < s->bucket_count; i++)
            max = s->histogram[i].events > max ? s->histogram[i].events : max;
        for (size_t i = 0; i < s->bucket_count; i++) {
            const ntidx_bucket *b = &s->histogram[i];
            printf("%12" PRIu64 "  %.6f .. %.6f  ", b->events, ntidx_ticks_to_seconds(trace, b->start_ts),
                   ntidx_ticks_to_seconds(trace, b->end_ts));
            for (uint64_t k = 0; k < b->events * 40 / max; k++)
                putchar('#');
            putchar('\n');
        }
    }
}

static const cli_option options[] = {
    {"buckets", 0, "N", "an event-rate histogram of the window in N buckets"},
    {"bucket", 0, "DURATION", "or in buckets of this width (ticks, or 10ms, 1s...)"},
    {"skip-damaged", 0, NULL, "leave out a region that cannot be read (said on stderr) instead of failing"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_stats = {
    .name = "stats",
    .run = ntidx_cmd_stats,
    .summary = "event counts per provider, type and thread; dropped events",
    .groups = CLI_TRACE | CLI_STDIN | CLI_WINDOW | CLI_JSON | CLI_THREADS | CLI_INDEX | CLI_NO_INDEX,
    .pass = CLI_PASS_STATS,
    .options = options,
};

int ntidx_cmd_stats(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_stats, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    const char *buckets = cli_opt(&c, "buckets"), *bucket = cli_opt(&c, "bucket");
    int skip_damaged = cli_opt(&c, "skip-damaged") != NULL;
    size_t skipped = 0;
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.t0 = c.query.t0;
    so.t1 = c.query.t1;
    so.threads = c.threads;
    so.progress = cli_progress;
    if (buckets && (cli_parse_u64(buckets, &so.buckets, 0) < 0 || !so.buckets))
        return cli_end(&c, cli_bad_usage(c.cmd, "--buckets %s: a count", buckets));
    if (bucket) {
        /* a duration: ticks, or a number with a unit; more than 2^64-1 ticks is refused, not wrapped */
        if (ntidx_parse_duration(c.trace, bucket, &so.bucket_ticks) < 0) {
            cli_error("--bucket: %s", ntidx_last_error_info()->what);
            return cli_end(&c, CLI_USAGE);
        }
        if (!so.bucket_ticks) {
            cli_error("bucket width '%s' is zero ticks", bucket);
            return cli_end(&c, CLI_USAGE);
        }
    }
    ntidx_stats *s;
    if (c.no_index) {
        if (c.has_window || buckets || bucket || c.threads || skip_damaged)
            return cli_end(&c, cli_bad_usage(c.cmd, "--no-index reads the whole trace in one pass: "
                                                    "it takes no window, histogram, threads or --skip-damaged"));
        cli_progress_label("ntidx: counting");
        rc = ntidx_stats_compute_progress(c.trace, cli_progress, NULL, &s);
        cli_progress_end();
    } else {
        /* Through the side index: regions decoded in parallel, only those the window needs. */
        cli_progress_label("ntidx: counting");
        rc = skip_damaged ? cli_stats_skipping(&c, &so, &s, &skipped) : ntidx_stats_indexed(c.trace, c.index, &so, &s);
        cli_progress_end();
        if (cli_recover(&c, rc)) {
            cli_progress_label("ntidx: counting");
            rc = ntidx_stats_indexed(c.trace, c.index, &so, &s);
            cli_progress_end();
        }
    }
    if (rc < 0) {
        cli_library_error();
        return cli_end(&c, CLI_FAIL);
    }
    if (c.json) {
        if (print_json(c.trace_path, s) < 0) {
            cli_library_error();
            ntidx_stats_free(&s);
            return cli_end(&c, CLI_FAIL);
        }
    } else
        print_text(c.trace, c.trace_path, s);
    if (!s->complete)
        cli_note("%s: warning: trace is incomplete: %s", c.trace_path, s->incomplete_reason);
    cli_skip_damaged_total(&c, skipped, "statistics");
    ntidx_stats_free(&s);
    return cli_end(&c, CLI_OK);
}
