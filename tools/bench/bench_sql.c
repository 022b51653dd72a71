/*
 * SQL benchmark (prints figures, asserts nothing), whole processes, every
 * figure of a pair measured in the same run, alternating, on traces held in
 * the page cache:
 *  - `ntidx sql TRACE "SELECT count(*) FROM events WHERE ts BETWEEN a AND
 *    a + 10 ms"` at random positions against `ntidx query TRACE --from a --to
 *    a + 10 ms` of the same windows: p50 and p99 of each, and the ratio of
 *    the p50s (target: within 1.5x); also `SELECT *` of the same windows in
 *    jsonl, the same output as the query's, for the cost of the rows;
 *  - `ntidx sql GROUP_TRACE "SELECT event_name, count(*) FROM events GROUP
 *    BY 1"` against `ntidx stats GROUP_TRACE --threads 1` (the whole trace;
 *    target: within 3x), median of REPS each.
 *
 * usage: bench_sql NTIDX TRACE [WINDOWS] [GROUP_TRACE] [REPS]
 * (the case: a generated 4 GB V6 TRACE, a 1 GB GROUP_TRACE:
 *  ntidx gen -o g4.nettrace --format-version 6 --size 4G; ... --size 1G)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_spawn.h"

static int must(run r, const char *what)
{
    if (r.status != 0) {
        fprintf(stderr, "bench_sql: %s failed (status %d)\n", what, r.status);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_sql NTIDX TRACE [WINDOWS] [GROUP_TRACE] [REPS]\n");
        return 2;
    }
    char *ntidx = argv[1], *trace = argv[2];
    int windows = argc > 3 ? atoi(argv[3]) : 100;
    char *group_trace = argc > 4 ? argv[4] : NULL;
    int reps = argc > 5 ? atoi(argv[5]) : 3;
    if (windows < 2)
        windows = 2;
    if (reps < 1)
        reps = 1;
    const char *out = access("/dev/shm", W_OK) == 0 ? "/dev/shm/bench_sql.out" : "/tmp/bench_sql.out";

    /* the trace and its index into the page cache, once */
    char *cat[] = {"cat", trace, NULL};
    spawn(cat, NULL);
    char *ix[] = {ntidx, "index", trace, NULL};
    if (must(spawn(ix, NULL), "ntidx index") < 0)
        return 1;
    uint64_t first, last, freq;
    if (trace_span(ntidx, trace, &first, &last, &freq) < 0 || last <= first) {
        fprintf(stderr, "bench_sql: cannot read the time span of %s\n", trace);
        return 1;
    }
    uint64_t w = freq / 100; /* 10 ms */
    double *tq = calloc((size_t)windows, sizeof *tq), *ts = calloc((size_t)windows, sizeof *ts),
           *tr = calloc((size_t)windows, sizeof *tr);
    if (!tq || !ts || !tr)
        return 1;
    uint64_t seed = 12;
    for (int i = 0; i < windows; i++) {
        uint64_t a = first + rnd(&seed) % (last - first - (last - first > w ? w : 0));
        char f[32], t[32], st[256], rows[256];
        snprintf(f, sizeof f, "%" PRIu64, a);
        snprintf(t, sizeof t, "%" PRIu64, a + w);
        snprintf(st, sizeof st, "SELECT count(*) FROM events WHERE ts BETWEEN %" PRIu64 " AND %" PRIu64, a,
                 a + w - 1);
        snprintf(rows, sizeof rows, "SELECT * FROM events WHERE ts BETWEEN %" PRIu64 " AND %" PRIu64 " ORDER BY ts",
                 a, a + w - 1);
        char *q[] = {ntidx, "query", trace, "--from", f, "--to", t, "--format", "jsonl", NULL};
        char *s[] = {ntidx, "sql", trace, st, NULL};
        char *r[] = {ntidx, "sql", trace, rows, "--format", "jsonl", NULL};
        /* the order alternates, so that neither always runs right after the other */
        run a1, a2, a3;
        if (i % 2) {
            a1 = spawn(q, out), a2 = spawn(s, out), a3 = spawn(r, out);
        } else {
            a3 = spawn(r, out), a2 = spawn(s, out), a1 = spawn(q, out);
        }
        if (must(a1, "ntidx query") < 0 || must(a2, "ntidx sql count") < 0 || must(a3, "ntidx sql rows") < 0)
            return 1;
        tq[i] = a1.secs, ts[i] = a2.secs, tr[i] = a3.secs;
    }
    double q50 = pct(tq, windows, 0.5), q99 = pct(tq, windows, 0.99);
    double s50 = pct(ts, windows, 0.5), s99 = pct(ts, windows, 0.99);
    double r50 = pct(tr, windows, 0.5), r99 = pct(tr, windows, 0.99);
    printf("trace: %s, %d random 10 ms windows\n", trace, windows);
    printf("ntidx query (jsonl):           p50 %6.2f ms, p99 %6.2f ms\n", q50 * 1e3, q99 * 1e3);
    printf("ntidx sql count(*):            p50 %6.2f ms, p99 %6.2f ms  p50 = %.2fx query's (target <= 1.5x)\n",
           s50 * 1e3, s99 * 1e3, s50 / q50);
    printf("ntidx sql SELECT * (jsonl):    p50 %6.2f ms, p99 %6.2f ms  p50 = %.2fx query's\n", r50 * 1e3, r99 * 1e3,
           r50 / q50);

    if (group_trace) {
        char *gc[] = {"cat", group_trace, NULL};
        spawn(gc, NULL);
        char *gi[] = {ntidx, "index", group_trace, NULL};
        if (must(spawn(gi, NULL), "ntidx index") < 0)
            return 1;
        double *g = calloc((size_t)reps, sizeof *g), *st = calloc((size_t)reps, sizeof *st);
        if (!g || !st)
            return 1;
        char *sq[] = {ntidx, "sql", group_trace, "SELECT event_name, count(*) FROM events GROUP BY 1", NULL};
        char *ss[] = {ntidx, "stats", group_trace, "--threads", "1", NULL};
        for (int i = 0; i < reps; i++) {
            run a = i % 2 ? spawn(sq, out) : spawn(ss, out);
            run b = i % 2 ? spawn(ss, out) : spawn(sq, out);
            run rs = i % 2 ? a : b, rt = i % 2 ? b : a;
            if (must(rs, "ntidx sql GROUP BY") < 0 || must(rt, "ntidx stats") < 0)
                return 1;
            g[i] = rs.secs, st[i] = rt.secs;
        }
        double gm = pct(g, reps, 0.5), sm = pct(st, reps, 0.5);
        printf("whole trace: %s, median of %d\n", group_trace, reps);
        printf("ntidx stats --threads 1:       %8.1f ms\n", sm * 1e3);
        printf("ntidx sql GROUP BY event_name: %8.1f ms  = %.2fx stats' (target <= 3x)\n", gm * 1e3, gm / sm);
        free(g);
        free(st);
    }
    unlink(out);
    free(tq);
    free(ts);
    free(tr);
    return 0;
}
