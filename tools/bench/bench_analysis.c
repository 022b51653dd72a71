/*
 * Analysis benchmark: each analysis of a whole trace (ntidx_gc_analyze,
 * ntidx_jit_analyze, ntidx_alloc_analyze, ntidx_exceptions_analyze,
 * ntidx_contention_analyze, ntidx_activities_analyze, ntidx_cpu_analyze; or
 * the one -a names) through a plain index and a --full one (built in memory
 * first, not timed), on 1 thread and on N, each the median of REPS runs,
 * beside what the machine does with the same file: reading all its bytes
 * (the page cache's speed, a `cat`).
 *
 * Prints one line per run: "ANALYSIS INDEX THREADS ROWS SECONDS MB_READ
 * EVENT_BLOCKS" (ROWS: rows of its first table, the GCs, methods, types...;
 * MB_READ: MB of trace the analysis read, ntidx_analysis_stats.bytes_read:
 * the exceptions analysis's method names are read apart and not counted;
 * cpu adds "(symbolizer SECONDS, N method events)": the symbolizer opened
 * once, before, and its time apart), then "read-file MB SECONDS". Asserts
 * nothing (zstd -b style).
 *
 * usage: bench_analysis [-r REPS] [-t N] [-a gc|jit|alloc|exceptions|contention|activities|cpu] TRACE
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ntidx/analysis.h>

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

typedef int (*analyze_fn)(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out);

static const struct {
    const char *name;
    analyze_fn fn;
} analyses[] = {
    {"gc", ntidx_gc_analyze},
    {"jit", ntidx_jit_analyze},
    {"alloc", ntidx_alloc_analyze},
    {"exceptions", ntidx_exceptions_analyze},
    {"contention", ntidx_contention_analyze},
    {"activities", ntidx_activities_analyze},
};

static int bench(const char *analysis, analyze_fn fn, ntidx_trace *t, ntidx_index *x, const char *name,
                 unsigned threads, int reps)
{
    double *secs = calloc((size_t)reps, sizeof *secs);
    if (!secs)
        return -1;
    ntidx_analysis_stats st = {0};
    uint64_t rows = 0;
    for (int r = 0; r < reps; r++) {
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.threads = threads;
        ntidx_analysis *a;
        double t0 = now();
        if (fn(t, x, &o, &a) < 0) {
            fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
            free(secs);
            return -1;
        }
        secs[r] = now() - t0;
        st = *ntidx_analysis_get_stats(a);
        ntidx_table tb;
        rows = ntidx_analysis_table(a, 0, &tb) == NTIDX_OK ? tb.rows : 0;
        ntidx_analysis_free(&a);
    }
    qsort(secs, (size_t)reps, sizeof *secs, cmp_d);
    printf("%s %s %u %" PRIu64 " %.6f %.3f %" PRIu64 "\n", analysis, name, st.threads, rows, secs[reps / 2],
           (double)st.bytes_read / 1e6, st.event_blocks_read);
    free(secs);
    return 0;
}

/* The CPU analysis of the whole trace: the samples alone, with a symbolizer opened before and kept (not
   timed: "symbolizer" is that, the method and module events of the whole trace read once). */
static int bench_cpu(ntidx_trace *t, ntidx_index *x, const char *name, unsigned threads, int reps)
{
    double *secs = calloc((size_t)reps, sizeof *secs);
    ntidx_symbolizer *sym = NULL;
    double s0 = now();
    if (!secs || ntidx_symbolizer_open(t, x, &sym) < 0) {
        fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
        free(secs);
        return -1;
    }
    double sym_secs = now() - s0;
    ntidx_analysis_stats st = {0};
    size_t methods = 0;
    for (int r = 0; r < reps; r++) {
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.threads = threads;
        ntidx_cpu_options co;
        ntidx_cpu_options_defaults(&co);
        co.symbols = sym;
        ntidx_analysis *a;
        double t0 = now();
        if (ntidx_cpu_analyze(t, x, &o, &co, &a) < 0) {
            fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
            free(secs);
            ntidx_symbolizer_close(&sym);
            return -1;
        }
        secs[r] = now() - t0;
        st = *ntidx_analysis_get_stats(a);
        methods = ntidx_cpu_count(a);
        ntidx_analysis_free(&a);
    }
    qsort(secs, (size_t)reps, sizeof *secs, cmp_d);
    printf("cpu %s %u %zu %.6f %.3f %" PRIu64 " (symbolizer %.6f s, %" PRIu64 " method events)\n", name, st.threads,
           methods, secs[reps / 2], (double)st.bytes_read / 1e6, st.event_blocks_read, sym_secs,
           ntidx_symbolizer_method_count(sym));
    ntidx_symbolizer_close(&sym);
    free(secs);
    return 0;
}

/* The file's bytes read through, as `cat` would (after the runs above: from the page cache). */
static void read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    static char buf[1 << 20];
    uint64_t total = 0;
    double t0 = now();
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        total += (uint64_t)n;
    printf("read-file %.3f %.6f\n", (double)total / 1e6, now() - t0);
    close(fd);
}

int main(int argc, char **argv)
{
    int reps = 5;
    unsigned threads = 0;
    const char *only = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "-a") && i + 1 < argc)
            only = argv[++i];
        else
            break;
    }
    if (i != argc - 1 || reps < 1) {
        fprintf(stderr, "usage: bench_analysis [-r REPS] [-t N] [-a gc|jit|alloc|exceptions|contention|activities|cpu] TRACE\n");
        return 2;
    }
    const char *path = argv[i];
    ntidx_trace *t;
    ntidx_index *plain, *full;
    ntidx_index_options fo;
    ntidx_index_options_defaults(&fo);
    fo.full = 1;
    if (ntidx_trace_open(path, &t) < 0 || ntidx_index_build(t, NULL, &plain) < 0 ||
        ntidx_index_build(t, &fo, &full) < 0) {
        fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
        return 1;
    }
    int rc = 0, ran = 0;
    unsigned counts[2] = {1, threads};
    for (size_t n = 0; n < sizeof analyses / sizeof analyses[0]; n++) {
        if (only && strcmp(only, analyses[n].name))
            continue;
        ran = 1;
        for (int k = 0; k < 2 && rc == 0; k++) {
            rc |= bench(analyses[n].name, analyses[n].fn, t, plain, "plain", counts[k], reps);
            rc |= bench(analyses[n].name, analyses[n].fn, t, full, "full", counts[k], reps);
        }
    }
    if (!only || !strcmp(only, "cpu")) {
        ran = 1;
        for (int k = 0; k < 2 && rc == 0; k++) {
            rc |= bench_cpu(t, plain, "plain", counts[k], reps);
            rc |= bench_cpu(t, full, "full", counts[k], reps);
        }
    }
    if (!ran)
        fprintf(stderr, "bench_analysis: no analysis %s\n", only);
    read_file(path);
    ntidx_index_close(&full);
    ntidx_index_close(&plain);
    ntidx_trace_close(&t);
    return rc || !ran ? 1 : 0;
}
