/*
 * Query benchmark: the C library reading every event of a trace through its
 * index as Trace.frame() reads them (a time-order query over the whole
 * trace), the baseline tools/bench/bench_python.py compares the Python
 * module's data frames with. Three modes, each the median of REPS runs:
 *
 *   events   ntidx_query_next() over every event, its header fields read
 *   batch    the same events into columns (ntidx_batch_fill(), the
 *            caller's arrays reused)
 *   fields   the query, and the payload of each event whose type has one
 *            of up to three fields decoded (ntidx_values_decode()) and the
 *            fields looked up by name
 *
 * Prints one line per mode: "MODE EVENTS SECONDS EVENTS_PER_SECOND".
 * Asserts nothing (zstd -b style).
 *
 * usage: bench_query [-r REPS] [-f F1,F2,F3] TRACE [MODE...]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static volatile uint64_t sink; /* what the loops computed: kept, so the compiler keeps the loops */

static uint64_t run_events(ntidx_trace *t, ntidx_index *x)
{
    ntidx_query *q;
    if (ntidx_query_open(t, x, NULL, &q) < 0)
        return 0;
    const ntidx_event *e;
    uint64_t n = 0, acc = 0;
    while (ntidx_query_next(q, &e) == 1) {
        acc += e->timestamp ^ e->thread_id ^ e->capture_thread_id ^ e->sequence_number ^ e->stack_id ^ e->offset ^
               e->metadata->event_id;
        n++;
    }
    sink = acc;
    ntidx_query_close(&q);
    return n;
}

static uint64_t run_batch(ntidx_trace *t, ntidx_index *x)
{
    enum { ROWS = 65536 };
    static uint64_t ts[ROWS], th[ROWS], cth[ROWS], off[ROWS];
    static uint32_t ty[ROWS], seq[ROWS], stk[ROWS];
    ntidx_batch *b;
    if (ntidx_batch_open(t, x, NULL, NULL, &b) < 0)
        return 0;
    ntidx_columns c = {.capacity = ROWS, .timestamp = ts, .type = ty, .thread = th, .capture_thread = cth,
                       .sequence = seq, .stack_id = stk, .offset = off};
    size_t rows;
    uint64_t n = 0;
    while (ntidx_batch_fill(b, &c, &rows) == 1)
        n += rows;
    sink = ts[0] + off[0];
    ntidx_batch_close(&b);
    return n;
}

static uint64_t run_fields(ntidx_trace *t, ntidx_index *x, char **names, int nnames)
{
    ntidx_query *q;
    ntidx_values *v;
    if (ntidx_query_open(t, x, NULL, &q) < 0 || ntidx_values_new(&v) < 0)
        return 0;
    const ntidx_event *e;
    uint64_t n = 0, acc = 0;
    const ntidx_metadata *last = NULL;
    int wanted = 0;
    while (ntidx_query_next(q, &e) == 1) {
        n++;
        if (e->metadata != last) { /* decode only the types that have one of the fields, as batches do */
            last = e->metadata;
            wanted = 0;
            for (uint32_t k = 0; last->fields && k < last->field_count; k++)
                for (int i = 0; i < nnames; i++)
                    wanted |= last->fields[k].name && !strcmp(last->fields[k].name, names[i]);
        }
        if (!wanted || ntidx_values_decode(v, t, e) != NTIDX_OK)
            continue;
        for (int i = 0; i < nnames; i++) {
            const ntidx_value *f = ntidx_values_find(v, names[i]);
            if (f)
                acc += f->u + (uint64_t)f->i + f->len;
        }
    }
    sink = acc;
    ntidx_values_free(&v);
    ntidx_query_close(&q);
    return n;
}

int main(int argc, char **argv)
{
    int reps = 3, a = 1;
    char fields_arg[256] = "TypeName,AllocationAmount64,Count";
    while (a + 1 < argc && argv[a][0] == '-') {
        if (!strcmp(argv[a], "-r"))
            reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "-f"))
            snprintf(fields_arg, sizeof fields_arg, "%s", argv[a + 1]);
        a += 2;
    }
    if (a >= argc || reps < 1) {
        fprintf(stderr, "usage: bench_query [-r REPS] [-f F1,F2,F3] TRACE [events|batch|fields...]\n");
        return 2;
    }
    char *names[3];
    int nnames = 0;
    for (char *s = strtok(fields_arg, ","); s && nnames < 3; s = strtok(NULL, ","))
        names[nnames++] = s;
    ntidx_trace *t;
    ntidx_index *x;
    if (ntidx_trace_open(argv[a], &t) < 0 || ntidx_index_open(t, NULL, NULL, &x, NULL) < 0) {
        fprintf(stderr, "bench_query: %s\n", ntidx_last_error());
        return 1;
    }
    static const char *const all[] = {"events", "batch", "fields"};
    const char *const *modes = argc > a + 1 ? (const char *const *)&argv[a + 1] : all;
    int nmodes = argc > a + 1 ? argc - a - 1 : 3;
    double *secs = malloc((size_t)reps * sizeof *secs);
    for (int m = 0; m < nmodes && secs; m++) {
        uint64_t n = 0;
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            if (!strcmp(modes[m], "events"))
                n = run_events(t, x);
            else if (!strcmp(modes[m], "batch"))
                n = run_batch(t, x);
            else if (!strcmp(modes[m], "fields"))
                n = run_fields(t, x, names, nnames);
            else {
                fprintf(stderr, "bench_query: no mode %s\n", modes[m]);
                return 2;
            }
            secs[r] = now() - t0;
        }
        qsort(secs, (size_t)reps, sizeof *secs, cmp_d);
        double s = secs[reps / 2];
        printf("%s %" PRIu64 " %.6f %.0f\n", modes[m], n, s, s > 0 ? (double)n / s : 0.0);
    }
    free(secs);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return 0;
}
