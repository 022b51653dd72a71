/*
 * Full-decode benchmark: what `ntidx stats` does without an index (every
 * event header decoded, its metadata and thread resolved, payloads not
 * decoded), on one core, against `cat FILE > /dev/null` of the same
 * page-cached file timed in the same run. Prints figures, asserts nothing
 * (zstd -b style); the peak resident memory of this process so far is
 * printed beside each trace's figures.
 *
 * usage: bench_decode [-r REPS] [-p] [-t THREADS] [-n] FILE...
 *
 * -p: decode every event's payload too (ntidx_values_decode: each field's
 * value, as TraceEvent's full pass reads every payload value), in file order
 * on one thread, instead of the statistics' header-only decode.
 * -t THREADS (with -p): decode the payloads on THREADS threads (0: one per
 * online core) over the sequence-point regions of the trace's index, as
 * `ntidx stats` does: workers take runs of regions from a shared counter and
 * read each run through one query. The index beside the trace is loaded
 * (read only; built in memory when there is none or it does not match), in
 * the timed part. Every event is decoded once whatever the thread count:
 * the events and values counted are the same as with one thread.
 * -n: no `cat` pass (neither the warm-up nor the timed one), so that the
 * whole process's wall time is the decode's: what a benchmark that times this
 * process from outside (tools/bench/conformance_bench.sh) wants. The page
 * cache is then the caller's to warm.
 */
#include <inttypes.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include <ntidx/index.h>
#include <ntidx/ntidx.h>

extern char **environ;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds this process has used (user + system): on a shared machine, what the decode itself cost. */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

/* Time `cat path > /dev/null` as a process, like a user would run it. */
static double time_cat(const char *path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"cat", (char *)path, NULL};
    double t0 = now();
    pid_t pid;
    if (posix_spawnp(&pid, "cat", &fa, NULL, argv, environ) != 0)
        return -1;
    int st;
    waitpid(pid, &st, 0);
    double t = now() - t0;
    posix_spawn_file_actions_destroy(&fa);
    return t;
}

/* Every event and its payload's values, file order, one thread; returns the events or -1. */
static int64_t decode_payloads(ntidx_trace *t, uint64_t *values)
{
    ntidx_reader *r;
    ntidx_values *v;
    if (ntidx_reader_open(t, NULL, &r) != NTIDX_OK || ntidx_values_new(&v) != NTIDX_OK)
        return -1;
    const ntidx_event *e;
    int64_t n = 0;
    int rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        n++;
        if (ntidx_values_decode(v, t, e) == NTIDX_OK)
            *values += ntidx_values_count(v);
    }
    ntidx_values_free(&v);
    ntidx_reader_close(&r);
    return rc < 0 ? -1 : n;
}

/* Regions a worker takes at a time: one query reads on through them, primed once. */
#define REGIONS_PER_RUN 16

typedef struct par {
    ntidx_trace *t;
    const ntidx_index *x;
    uint64_t regions;
    atomic_uint_fast64_t next; /* the first region of the next run */
    atomic_int failed;
} par;

typedef struct par_worker {
    par *p;
    int64_t events;
    uint64_t values;
    pthread_t tid;
} par_worker;

static void *par_work(void *arg)
{
    par_worker *w = arg;
    par *p = w->p;
    ntidx_values *v;
    if (ntidx_values_new(&v) != NTIDX_OK) {
        atomic_store(&p->failed, 1);
        return NULL;
    }
    uint64_t list[REGIONS_PER_RUN];
    for (;;) {
        uint64_t first = atomic_fetch_add(&p->next, REGIONS_PER_RUN);
        if (first >= p->regions || atomic_load(&p->failed))
            break;
        size_t n = 0;
        for (uint64_t r = first; r < p->regions && n < REGIONS_PER_RUN; r++)
            list[n++] = r;
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.order = NTIDX_ORDER_FILE;
        o.regions = list;
        o.region_count = n;
        ntidx_query *q;
        const ntidx_event *e;
        int rc = ntidx_query_open(p->t, p->x, &o, &q);
        /* Counted in locals: the workers' records share a cache line, and a store per event
         * from each thread would bounce it between the cores. */
        int64_t events = 0;
        uint64_t values = 0;
        if (rc == NTIDX_OK)
            while ((rc = ntidx_query_next(q, &e)) == 1) {
                events++;
                if (ntidx_values_decode(v, p->t, e) == NTIDX_OK)
                    values += ntidx_values_count(v);
            }
        w->events += events;
        w->values += values;
        if (rc < 0) {
            fprintf(stderr, "%s\n", ntidx_last_error());
            atomic_store(&p->failed, 1);
        }
        ntidx_query_close(&q);
    }
    ntidx_values_free(&v);
    return NULL;
}

/* Every event and its payload's values on `threads` threads over the index's regions; the events or -1. */
static int64_t decode_payloads_parallel(ntidx_trace *t, const char *path, int threads, uint64_t *values)
{
    ntidx_index *x = NULL;
    char *ip = ntidx_index_default_path(path);
    ntidx_index_state st;
    if (!ip || ntidx_index_load(t, ip, NTIDX_VERIFY_AUTO, &x, &st) != NTIDX_OK || st != NTIDX_INDEX_CURRENT) {
        ntidx_index_close(&x);
        if (ntidx_index_build(t, NULL, &x) != NTIDX_OK) {
            free(ip);
            return -1;
        }
    }
    free(ip);
    par p = {.t = t, .x = x, .regions = ntidx_index_region_count(x)};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, 0);
    par_worker *w = calloc((size_t)threads, sizeof *w);
    int started = 0;
    for (; w && started < threads; started++) {
        w[started].p = &p;
        if (pthread_create(&w[started].tid, NULL, par_work, &w[started]) != 0)
            break;
    }
    int64_t events = 0;
    for (int k = 0; k < started; k++) {
        pthread_join(w[k].tid, NULL);
        events += w[k].events;
        *values += w[k].values;
    }
    int failed = !w || started == 0 || atomic_load(&p.failed);
    free(w);
    ntidx_index_close(&x);
    return failed ? -1 : events;
}

int main(int argc, char **argv)
{
    int reps = 5, i = 1, payloads = 0, threads = -1, no_cat = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p"))
            payloads = 1;
        else if (!strcmp(argv[i], "-n"))
            no_cat = 1;
        else if ((!strcmp(argv[i], "-t") || !strcmp(argv[i], "--threads")) && i + 1 < argc)
            threads = atoi(argv[++i]);
        else
            break;
    }
    if (i >= argc || reps < 1 || reps > 1000 || threads > 256 || (threads >= 0 && !payloads)) {
        fprintf(stderr, "usage: bench_decode [-r REPS] [-p] [-t THREADS] [-n] FILE...\n");
        return 2;
    }
    if (threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    }
    if (payloads)
        printf("payload values decoded on %s%d thread%s\n", threads > 0 ? "" : "the reader's ", threads > 0 ? threads : 1,
               threads == 1 ? " over the index's regions" : threads > 1 ? "s over the index's regions" : "");
    double *tc = calloc((size_t)reps, sizeof *tc), *td = calloc((size_t)reps, sizeof *td);
    double *tu = calloc((size_t)reps, sizeof *tu);
    FILE *la = fopen("/proc/loadavg", "r");
    char load[16] = "?";
    if (la) {
        if (fscanf(la, "%15s", load) != 1)
            strcpy(load, "?");
        fclose(la);
    }
    printf("load average %s\n", load);
    printf("%-58s %10s %10s %9s %9s %9s %12s %7s %9s %8s\n", "trace", "MB", "events", "cat ms", "decode ms", "GB/s",
           "Mevents/s", "x cat", "Mev/cpu-s", "RSS MB");
    for (; i < argc; i++) {
        const char *path = argv[i];
        if (!no_cat)
            time_cat(path); /* warm the page cache */
        uint64_t events = 0, size = 0, values = 0;
        for (int r = 0; r < reps; r++) {
            tc[r] = no_cat ? 0 : time_cat(path);
            double t0 = now(), u0 = cpu_now();
            ntidx_trace *t;
            if (ntidx_trace_open(path, &t) != NTIDX_OK) {
                fprintf(stderr, "%s\n", ntidx_last_error());
                return 1;
            }
            if (payloads) {
                values = 0;
                int64_t n = threads > 0 ? decode_payloads_parallel(t, path, threads, &values) : decode_payloads(t, &values);
                if (n < 0) {
                    fprintf(stderr, "%s\n", ntidx_last_error());
                    return 1;
                }
                events = (uint64_t)n;
            } else {
                ntidx_stats *s;
                if (ntidx_stats_compute(t, &s) != NTIDX_OK) {
                    fprintf(stderr, "%s\n", ntidx_last_error());
                    return 1;
                }
                events = s->events;
                ntidx_stats_free(&s);
            }
            ntidx_trace_data(t, &size);
            ntidx_trace_close(&t);
            td[r] = now() - t0;
            tu[r] = cpu_now() - u0;
        }
        double c = median(tc, reps), d = median(td, reps), u = median(tu, reps);
        const char *base = strrchr(path, '/');
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("%-58s %10.1f %10" PRIu64 " %9.2f %9.2f %9.2f %12.1f %7.2f %9.1f %8.1f\n", base ? base + 1 : path,
               (double)size / 1e6, events, c * 1e3, d * 1e3, (double)size / d / 1e9, (double)events / d / 1e6,
               c > 0 ? d / c : 0.0, u > 0 ? (double)events / u / 1e6 : 0.0, (double)ru.ru_maxrss / 1024);
        if (payloads)
            printf("  %" PRIu64 " top-level payload values\n", values);
    }
    printf("(median of %d runs; 'x cat' = decode time / cat time, lower is better; cat includes process start;\n"
           " Mev/cpu-s = events per CPU second the decode used, the per-core rate on a shared machine; RSS: this\n"
           " process's peak so far)\n",
           reps);
    free(tc);
    free(td);
    free(tu);
    return 0;
}
