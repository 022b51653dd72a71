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
 * the exceptions analysis's method names are read apart and not counted,
 * except over the whole trace, where its units read them along;
 * cpu as a user runs it, its symbolizer opened by the analysis on the same
 * threads, after a line "cpu-symbolizer INDEX SECONDS METHOD_EVENTS": the
 * symbolizer alone, once, on every core), then "floor stats plain N SECONDS [vs-traceevent RATIO]" (the
 * statistics through the plain index on N threads: the pass under every analysis of the whole trace, what
 * none of them can beat) and "read-file MB SECONDS". Asserts
 * nothing (zstd -b style).
 *
 * Then the figures of issue 30's item 4, as ratios of this one run:
 *   -T SECONDS  TraceEvent's TraceLoadedDotNetRuntime pass over the same trace (`dumper runtime-pass`,
 *               timed by tools/bench/bench_answers.sh): "vs-traceevent ANALYSIS INDEX SECONDS RATIO",
 *               the analysis of the whole trace on N threads against it (target 20x);
 *   always      "threads ANALYSIS INDEX 1:S1 N:SN SPEEDUP" (target 1.8x on 2 threads);
 *   -w          "window ANALYSIS FRACTION SECONDS MB_READ SECONDS_PER_WHOLE": windows of 1/1000,
 *               1/100, 1/10 and 1/2 of the trace's time span, in its middle, through the full index
 *               on N threads: a window's cost against its size;
 *   -w          also "symbol-table made SECONDS, BYTES", "saved-table ANALYSIS SECONDS VS_TRACEEVENT
 *               VS_MADE" and "window-saved ...": exceptions and cpu through an index in a file, with the
 *               symbolizer's table saved beside it (docs/symbol-cache.md) and mapped back;
 *   always      "gc-bytes full MB_READ BLOCKS plain MB_READ BLOCKS trace MB": what `ntidx gc` reads
 *               with a --full index (only blocks whose type filters can hold GC events) and without.
 *
 * usage: bench_analysis [-r REPS] [-t N] [-T TRACEEVENT_SECONDS] [-w]
 *                       [-a gc|jit|alloc|exceptions|contention|activities|cpu[,...]] TRACE
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ntidx/analysis.h>
#include <ntidx/symbols.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether `name` is among `list` ("gc,jit"; NULL: all). */
static int wanted(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, name, n))
            return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef int (*analyze_fn)(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out);

/* What one run measured, kept for the ratios printed at the end. */
typedef struct figure {
    double secs;
    uint64_t bytes, blocks;
} figure;

static int cpu_default(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o, ntidx_analysis **out)
{
    return ntidx_cpu_analyze(t, x, o, NULL, out);
}

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
                 unsigned threads, int reps, figure *fig)
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
    fflush(stdout);
    *fig = (figure){secs[reps / 2], st.bytes_read, st.event_blocks_read};
    free(secs);
    return 0;
}

/*
 * The CPU analysis of the whole trace as a user runs it: ntidx_cpu_analyze() opening its own symbolizer on the
 * same threads (the method and module events of the whole trace read first), every rep. Before it, for the
 * record, the symbolizer alone, once, on every core: "cpu-symbolizer INDEX SECONDS METHOD_EVENTS". (This
 * bench used to time the symbolizer once on every core and add it to the 1-thread figure too, which made
 * that figure faster than a 1-thread run and the speedup look smaller than it is.)
 */
static int bench_cpu(ntidx_trace *t, ntidx_index *x, const char *name, unsigned threads, int reps, figure *fig)
{
    ntidx_symbolizer *sym = NULL;
    double s0 = now();
    if (ntidx_symbolizer_open(t, x, &sym) < 0) {
        fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
        return -1;
    }
    printf("cpu-symbolizer %s %.6f %" PRIu64 "\n", name, now() - s0, ntidx_symbolizer_method_count(sym));
    ntidx_symbolizer_close(&sym);
    return bench("cpu", cpu_default, t, x, name, threads, reps, fig);
}

/* A window of `fraction` of the trace's span, in its middle: its seconds (median of reps) and bytes read. */
static int bench_window(const char *tag, const char *analysis, analyze_fn fn, ntidx_trace *t, ntidx_index *x,
                        unsigned threads, int reps, double fraction, double whole_secs)
{
    const ntidx_index_info *ii = ntidx_index_get_info(x);
    if (ii->first_ts > ii->last_ts)
        return 0;
    double span = (double)(ii->last_ts - ii->first_ts);
    uint64_t mid = ii->first_ts + (uint64_t)(span / 2), half = (uint64_t)(span * fraction / 2);
    double *secs = calloc((size_t)reps, sizeof *secs);
    if (!secs)
        return -1;
    ntidx_analysis_stats st = {0};
    for (int r = 0; r < reps; r++) {
        ntidx_analysis_options o;
        ntidx_analysis_options_defaults(&o);
        o.threads = threads;
        o.t0 = mid - half;
        o.t1 = mid + half + 1;
        ntidx_analysis *a;
        double t0 = now();
        if (fn(t, x, &o, &a) < 0) {
            fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
            free(secs);
            return -1;
        }
        secs[r] = now() - t0;
        st = *ntidx_analysis_get_stats(a);
        ntidx_analysis_free(&a);
    }
    qsort(secs, (size_t)reps, sizeof *secs, cmp_d);
    printf("%s %s %g %.6f %.3f %.3f\n", tag, analysis, fraction, secs[reps / 2], (double)st.bytes_read / 1e6,
           whole_secs > 0 ? secs[reps / 2] / whole_secs : 0.0);
    fflush(stdout);
    free(secs);
    return 0;
}

/*
 * The symbolizer's table saved beside an index in a file (docs/symbol-cache.md): the --full index written to a
 * temporary folder and opened from there, the table made and saved once ("symbol-table made SECONDS, BYTES"),
 * then the exceptions and cpu windows and whole-trace runs that map it back ("window-saved ...", and
 * "saved-table ANALYSIS SECONDS RATIO_VS_TRACEEVENT RATIO_VS_MADE": against the runs above, which make the
 * table from the trace every time). The folder is removed after.
 */
static int bench_saved_table(ntidx_trace *t, ntidx_index *full, unsigned threads, int reps, double traceevent,
                             double exc_secs, double cpu_secs, int exc, int cpu)
{
    char dir[] = "/tmp/ntidx-bench-XXXXXX", path[64], sym[80];
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/trace.ntidx", dir);
    snprintf(sym, sizeof sym, "%s.sym", path);
    ntidx_index *x = NULL;
    ntidx_symbolizer *s = NULL;
    int rc = -1;
    if (ntidx_index_write(full, path) < 0 || ntidx_index_open(t, path, NULL, &x, NULL) < 0) {
        fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
        goto out;
    }
    double t0 = now();
    if (ntidx_symbolizer_open(t, x, &s) < 0) {
        fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
        goto out;
    }
    double made = now() - t0;
    ntidx_symbolizer_close(&s);
    struct stat st;
    printf("symbol-table made %.6f s, %lld bytes\n", made, stat(sym, &st) == 0 ? (long long)st.st_size : -1LL);
    rc = 0;
    static const double fractions[] = {0.001, 0.01, 0.1, 0.5};
    const struct {
        const char *name;
        analyze_fn fn;
        int on;
        double made_secs;
    } which[] = {{"exceptions", ntidx_exceptions_analyze, exc, exc_secs}, {"cpu", cpu_default, cpu, cpu_secs}};
    for (size_t n = 0; n < 2 && rc == 0; n++) {
        if (!which[n].on)
            continue;
        figure whole = {0};
        rc |= bench(which[n].name, which[n].fn, t, x, "full+table", threads, reps, &whole);
        if (rc == 0)
            printf("saved-table %s %.3f %.1fx %.2fx\n", which[n].name, whole.secs,
                   traceevent > 0 && whole.secs > 0 ? traceevent / whole.secs : 0.0,
                   whole.secs > 0 ? which[n].made_secs / whole.secs : 0.0);
        for (size_t f = 0; f < sizeof fractions / sizeof fractions[0] && rc == 0; f++)
            rc |= bench_window("window-saved", which[n].name, which[n].fn, t, x, threads, reps, fractions[f], whole.secs);
    }
out:
    ntidx_index_close(&x);
    unlink(sym);
    unlink(path);
    rmdir(dir);
    return rc;
}

/* The file's bytes read through, as `cat` would (after the runs above: from the page cache). */
/* The floor under every analysis of the whole trace: the statistics through the plain index on `threads`
   threads (every event header read, no payload decoded), median of `reps`: "floor stats plain N SECONDS"
   and, against TraceEvent, the ratio no analysis of the whole trace can pass on this machine. */
static void floor_stats(ntidx_trace *t, const ntidx_index *plain, unsigned threads, int reps, double traceevent)
{
    double *secs = calloc((size_t)reps, sizeof *secs);
    if (!secs)
        return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned used = threads ? threads : cores > 0 ? (unsigned)cores : 1;
    for (int r = 0; r < reps; r++) {
        ntidx_stats_options so;
        ntidx_stats_options_defaults(&so);
        so.threads = threads;
        ntidx_stats *st = NULL;
        double t0 = now();
        if (ntidx_stats_indexed(t, plain, &so, &st) < 0) {
            fprintf(stderr, "bench_analysis: %s\n", ntidx_last_error());
            free(secs);
            return;
        }
        secs[r] = now() - t0;
        ntidx_stats_free(&st);
    }
    qsort(secs, (size_t)reps, sizeof *secs, cmp_d);
    printf("floor stats plain %u %.6f", used, secs[reps / 2]);
    if (traceevent > 0)
        printf(" vs-traceevent %.1fx", traceevent / secs[reps / 2]);
    printf("\n");
    free(secs);
}

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
    int reps = 5, windows = 0;
    double traceevent = 0;
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
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            traceevent = atof(argv[++i]);
        else if (!strcmp(argv[i], "-w"))
            windows = 1;
        else
            break;
    }
    if (i != argc - 1 || reps < 1) {
        fprintf(stderr, "usage: bench_analysis [-r REPS] [-t N] [-T TRACEEVENT_SECONDS] [-w] "
                        "[-a gc|jit|alloc|exceptions|contention|activities|cpu[,...]] TRACE\n");
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
    enum { NA = sizeof analyses / sizeof analyses[0] + 1 }; /* and cpu, last */
    figure fig[NA][2][2] = {{{{0}}}}; /* [analysis][plain, full][1 thread, N] */
    int done[NA] = {0};
    for (size_t n = 0; n < NA - 1; n++) {
        if (!wanted(only, analyses[n].name))
            continue;
        ran = done[n] = 1;
        for (int k = 0; k < 2 && rc == 0; k++) {
            rc |= bench(analyses[n].name, analyses[n].fn, t, plain, "plain", counts[k], reps, &fig[n][0][k]);
            rc |= bench(analyses[n].name, analyses[n].fn, t, full, "full", counts[k], reps, &fig[n][1][k]);
        }
    }
    if (wanted(only, "cpu")) {
        ran = done[NA - 1] = 1;
        for (int k = 0; k < 2 && rc == 0; k++) {
            rc |= bench_cpu(t, plain, "plain", counts[k], reps, &fig[NA - 1][0][k]);
            rc |= bench_cpu(t, full, "full", counts[k], reps, &fig[NA - 1][1][k]);
        }
    }
    if (!ran)
        fprintf(stderr, "bench_analysis: no analysis %s\n", only);
    static const char *const index_name[2] = {"plain", "full"};
    for (size_t n = 0; rc == 0 && n < NA; n++) {
        if (!done[n])
            continue;
        const char *name = n < NA - 1 ? analyses[n].name : "cpu";
        for (int k = 0; k < 2; k++) {
            const figure *one = &fig[n][k][0], *many = &fig[n][k][1];
            printf("threads %s %s 1:%.3f N:%.3f %.2fx\n", name, index_name[k], one->secs, many->secs,
                   many->secs > 0 ? one->secs / many->secs : 0.0);
            if (traceevent > 0)
                printf("vs-traceevent %s %s %.3f %.1fx\n", name, index_name[k], many->secs,
                       many->secs > 0 ? traceevent / many->secs : 0.0);
        }
    }
    if (rc == 0 && done[0])
        printf("gc-bytes full %.3f MB %" PRIu64 " blocks plain %.3f MB %" PRIu64 " blocks trace %.3f MB\n",
               (double)fig[0][1][1].bytes / 1e6, fig[0][1][1].blocks, (double)fig[0][0][1].bytes / 1e6,
               fig[0][0][1].blocks, (double)ntidx_trace_get_info(t)->file_size / 1e6);
    static const double fractions[] = {0.001, 0.01, 0.1, 0.5};
    for (size_t n = 0; rc == 0 && windows && n < NA; n++) {
        if (!done[n])
            continue;
        analyze_fn fn = n < NA - 1 ? analyses[n].fn : cpu_default;
        const char *name = n < NA - 1 ? analyses[n].name : "cpu";
        for (size_t f = 0; f < sizeof fractions / sizeof fractions[0] && rc == 0; f++)
            rc |= bench_window("window", name, fn, t, full, threads, reps, fractions[f], fig[n][1][1].secs);
    }
    if (rc == 0 && windows && (wanted(only, "exceptions") || wanted(only, "cpu")))
        rc |= bench_saved_table(t, full, threads, reps, traceevent, fig[3][1][1].secs, fig[NA - 1][1][1].secs,
                                wanted(only, "exceptions"), wanted(only, "cpu"));
    if (rc == 0)
        floor_stats(t, plain, threads, reps, traceevent);
    read_file(path);
    ntidx_index_close(&full);
    ntidx_index_close(&plain);
    ntidx_trace_close(&t);
    return rc || !ran ? 1 : 0;
}
