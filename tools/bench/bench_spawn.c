/* Whole-process timing for the benchmarks (bench_spawn.h). */
#include "bench_spawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run argv with stdout to `out` (NULL: /dev/null) and stderr to /dev/null. */
run spawn(char *const argv[], const char *out)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, out ? "/dev/null" : "/dev/null", O_WRONLY, 0);
    run r = {0};
    double t0 = now();
    pid_t pid;
    if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
        r.status = -1;
        return r;
    }
    struct rusage ru;
    wait4(pid, &r.status, 0, &ru);
    r.secs = now() - t0;
    r.maxrss_kb = ru.ru_maxrss;
    r.minflt = ru.ru_minflt;
    r.inblock = ru.ru_inblock;
    posix_spawn_file_actions_destroy(&fa);
    return r;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    int i = (int)(p * (n - 1) + 0.5);
    return v[i];
}

uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Read two numbers from a `stats --json` line: first_ts, last_ts, tick_frequency. */
int trace_span(const char *ntidx, const char *trace, uint64_t *first, uint64_t *last, uint64_t *freq)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' info '%s' --json", ntidx, trace);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = 0;
    pclose(p);
    char *a = strstr(buf, "\"first_ts\":"), *b = strstr(buf, "\"last_ts\":"), *c = strstr(buf, "\"tick_frequency\":");
    if (!a || !b || !c)
        return -1;
    *first = strtoull(a + 11, NULL, 10);
    *last = strtoull(b + 10, NULL, 10);
    *freq = strtoull(c + 17, NULL, 10);
    return 0;
}

