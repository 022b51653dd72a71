/*
 * ntidx top TRACE [--from T] [--to T] [--by type|thread|provider] [-n N]
 *   [--json] [--threads N] [--index PATH]
 * The busiest event types, threads or providers of a window, as a table for
 * people or JSON for scripts.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ntidx/index.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx top TRACE [--from T] [--to T] [--by type|thread|provider] [-n N] [--json] [--threads N]\n"
               "                 [--index PATH]\n");
}

typedef struct item {
    char name[512];
    uint64_t count;
} item;

static int by_count(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

int ntidx_cmd_top(int argc, char **argv)
{
    const char *from = NULL, *to = NULL, *index_path = NULL, *by = "type", *n_arg = NULL, *threads = NULL;
    int json = 0;
    static const struct option opts[] = {{"from", required_argument, 0, 'f'}, {"to", required_argument, 0, 't'},
                                         {"by", required_argument, 0, 'b'},   {"json", no_argument, 0, 'j'},
                                         {"threads", required_argument, 0, 'T'}, {"index", required_argument, 0, 'i'},
                                         {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': from = optarg; break;
        case 't': to = optarg; break;
        case 'b': by = optarg; break;
        case 'n': n_arg = optarg; break;
        case 'j': json = 1; break;
        case 'T': threads = optarg; break;
        case 'i': index_path = optarg; break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    uint64_t n = 10, nthreads = 0;
    if (optind != argc - 1 || (strcmp(by, "type") && strcmp(by, "thread") && strcmp(by, "provider")) ||
        (n_arg && (cli_parse_u64(n_arg, &n, 0) < 0 || !n)) ||
        (threads && (cli_parse_u64(threads, &nthreads, 0) < 0 || !nthreads || nthreads > 64))) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *path = argv[optind];
    ntidx_trace *t;
    if (cli_open_trace(path, &t) < 0)
        return CLI_FAIL;
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.threads = (unsigned)nthreads;
    if ((from && cli_parse_time(t, from, &so.t0) < 0) || (to && cli_parse_time(t, to, &so.t1) < 0)) {
        ntidx_trace_close(&t);
        return CLI_USAGE;
    }
    ntidx_index *x = NULL;
    if (cli_index(t, path, index_path, 0, &x) < 0) {
        ntidx_trace_close(&t);
        return CLI_FAIL;
    }
    ntidx_stats *s = NULL;
    char err[600] = "";
    int rc = ntidx_stats_indexed(t, x, &so, &s, err, sizeof err);
    if (rc == NTIDX_E_INDEX_CORRUPT && cli_index_recover(t, path, index_path, &x, err) == 0)
        rc = ntidx_stats_indexed(t, x, &so, &s, err, sizeof err); /* over the rebuilt index */
    ntidx_index_close(&x);
    if (rc < 0) {
        cli_error("%s: %s", path, err[0] ? err : ntidx_strerror(rc));
        ntidx_trace_close(&t);
        return CLI_FAIL;
    }
    size_t cap = s->type_count + s->thread_count + 1, k = 0;
    item *it = calloc(cap, sizeof *it);
    if (!it) {
        cli_error("out of memory");
        ntidx_stats_free(&s);
        ntidx_trace_close(&t);
        return CLI_FAIL;
    }
    if (!strcmp(by, "thread")) {
        for (size_t i = 0; i < s->thread_count; i++, k++) {
            snprintf(it[k].name, sizeof it[k].name, "%" PRIu64, s->threads[i].thread);
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
    ntidx_trace_close(&t);
    return CLI_OK;
}
