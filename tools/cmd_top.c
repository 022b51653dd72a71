/*
 * ntidx top TRACE [--from T] [--to T] [--by type|thread|provider] [-n N]
 *   [--json] [--threads N] [--index PATH]
 * The busiest event types, threads or providers of a window, as a table for
 * people or JSON for scripts.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/index.h>

#include "cli.h"

typedef struct item {
    char name[512];
    uint64_t count;
    uint64_t thread;            /* --by thread */
    const ntidx_type_stat *type; /* --by type: the type; --by provider: one of the provider's types */
} item;

static int by_count(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

static const cli_option options[] = {
    {"by", 0, "type|thread|provider", "what to rank (default type)"},
    {"n", 'n', "N", "how many (default 10)"},
    {"skip-damaged", 0, NULL, "leave out a region that cannot be read (said on stderr) instead of failing"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_top = {
    .name = "top",
    .run = ntidx_cmd_top,
    .summary = "the busiest event types, threads or providers of a window",
    .groups = CLI_TRACE | CLI_STDIN | CLI_WINDOW | CLI_JSON | CLI_THREADS | CLI_INDEX,
    .pass = CLI_PASS_STATS,
    .options = options,
};

int ntidx_cmd_top(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_top, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    const char *by = cli_opt(&c, "by") ? cli_opt(&c, "by") : "type", *n_arg = cli_opt(&c, "n");
    uint64_t n = 10;
    if (strcmp(by, "type") && strcmp(by, "thread") && strcmp(by, "provider"))
        return cli_end(&c, cli_bad_usage(c.cmd, "--by %s: type, thread or provider", by));
    if (n_arg && (cli_parse_u64(n_arg, &n, 0) < 0 || !n))
        return cli_end(&c, cli_bad_usage(c.cmd, "-n %s: a count", n_arg));
    int json = c.json;
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.threads = c.threads;
    so.t0 = c.query.t0;
    so.t1 = c.query.t1;
    ntidx_stats *s = NULL;
    size_t skipped = 0;
    rc = cli_opt(&c, "skip-damaged") ? cli_stats_skipping(&c, &so, &s, &skipped)
                                     : ntidx_stats_indexed(c.trace, c.index, &so, &s);
    if (cli_recover(&c, rc))
        rc = ntidx_stats_indexed(c.trace, c.index, &so, &s);
    if (rc < 0) {
        cli_library_error();
        return cli_end(&c, CLI_FAIL);
    }
    size_t cap = s->type_count + s->thread_count + 1, k = 0;
    item *it = calloc(cap, sizeof *it);
    if (!it) {
        cli_error("out of memory");
        ntidx_stats_free(&s);
        return cli_end(&c, CLI_FAIL);
    }
    if (!strcmp(by, "thread")) {
        for (size_t i = 0; i < s->thread_count; i++, k++) {
            snprintf(it[k].name, sizeof it[k].name, "%" PRIu64, s->threads[i].thread);
            it[k].thread = s->threads[i].thread;
            it[k].count = s->threads[i].count;
        }
    } else {
        for (size_t i = 0; i < s->type_count; i++) {
            const ntidx_type_stat *ty = &s->types[i];
            if (!strcmp(by, "provider")) {
                if (k && !strcmp(it[k - 1].name, ty->provider)) { /* types are sorted by provider */
                    it[k - 1].count += ty->count;
                    continue;
                }
                snprintf(it[k].name, sizeof it[k].name, "%s", ty->provider);
            } else if (ty->event_name[0]) {
                snprintf(it[k].name, sizeof it[k].name, "%s/%s", ty->provider, ty->event_name);
            } else {
                snprintf(it[k].name, sizeof it[k].name, "%s/EventID(%u)", ty->provider, ty->event_id);
            }
            it[k].type = ty;
            it[k++].count = ty->count;
        }
    }
    qsort(it, k, sizeof *it, by_count);
    double secs = s->events ? (double)(s->last_ts - s->first_ts) / (double)s->tick_frequency : 0;
    if (n > k)
        n = k;
    if (json) {
        printf("{\"by\":\"%s\",\"events\":%" PRIu64 ",\"duration_s\":%.9f,\"items\":[", by, s->events, secs);
        for (size_t i = 0; i < n; i++) {
            printf("%s{\"name\":", i ? "," : "");
            cli_json_str(stdout, it[i].name);
            /* what the item is, under the keys and types `stats --json` gives it: a thread is a number there,
               a type its provider, id, name and version ("name" is the text the table shows) */
            if (!strcmp(by, "thread")) {
                printf(",\"thread\":%" PRIu64, it[i].thread);
            } else {
                printf(",\"provider\":");
                cli_json_str(stdout, it[i].type->provider);
                if (!strcmp(by, "type")) {
                    printf(",\"event_id\":%u,\"event_name\":", it[i].type->event_id);
                    cli_json_str(stdout, it[i].type->event_name);
                    printf(",\"version\":%u", it[i].type->version);
                }
            }
            printf(",\"count\":%" PRIu64 ",\"percent\":%.4f}", it[i].count,
                   s->events ? 100.0 * (double)it[i].count / (double)s->events : 0.0);
        }
        printf("]}\n");
    } else {
        printf("%" PRIu64 " events over %.3f s; the busiest %ss:\n\n", s->events, secs, by);
        printf("%4s %12s %7s %12s  %s\n", "#", "events", "%", "per second", by);
        for (size_t i = 0; i < n; i++)
            printf("%4zu %12" PRIu64 " %6.2f%% %12.1f  %s\n", i + 1, it[i].count,
                   s->events ? 100.0 * (double)it[i].count / (double)s->events : 0.0,
                   secs > 0 ? (double)it[i].count / secs : 0.0, it[i].name);
    }
    free(it);
    ntidx_stats_free(&s);
    cli_skip_damaged_total(&c, skipped, "counts");
    return cli_end(&c, CLI_OK);
}
