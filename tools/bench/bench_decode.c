/*
 * Full-decode benchmark: what `ntidx stats` does without an index (every
 * event header decoded, its metadata and thread resolved, payloads not
 * decoded), on one core, against `cat FILE > /dev/null` of the same
 * page-cached file timed in the same run. Prints figures, asserts nothing
 * (zstd -b style); the peak resident memory of this process so far is
 * printed beside each trace's figures.
 *
 * usage: bench_decode [-r REPS] [-p] FILE...
 *
 * -p: decode every event's payload too (ntidx_values_decode: each field's
 * value, as TraceEvent's full pass reads every payload value), in file order
 * on one thread, instead of the statistics' header-only decode.
 */
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
    int reps = 5, i = 1, payloads = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p"))
            payloads = 1;
        else
            break;
    }
    if (i >= argc || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: bench_decode [-r REPS] [-p] FILE...\n");
        return 2;
    }
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
        time_cat(path); /* warm the page cache */
        uint64_t events = 0, size = 0;
        for (int r = 0; r < reps; r++) {
            tc[r] = time_cat(path);
            double t0 = now(), u0 = cpu_now();
            ntidx_trace *t;
            if (ntidx_trace_open(path, &t) != NTIDX_OK) {
                fprintf(stderr, "%s\n", ntidx_last_error());
                return 1;
            }
            if (payloads) {
                uint64_t values = 0;
                int64_t n = decode_payloads(t, &values);
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
               d / c, u > 0 ? (double)events / u / 1e6 : 0.0, (double)ru.ru_maxrss / 1024);
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
