/* What the whole-process benchmarks share: running a command and timing it, percentiles, a PRNG. */
#ifndef NTIDX_BENCH_SPAWN_H
#define NTIDX_BENCH_SPAWN_H

#include <stdint.h>

typedef struct run {
    double secs;
    long maxrss_kb;
    long minflt;
    long inblock; /* 512-byte units read from disk on the process's behalf (read-ahead included) */
    int status;
} run;

double now(void);
/* Run argv with stdout to `out` (NULL: /dev/null) and stderr to /dev/null; its wall time and resources. */
run spawn(char *const argv[], const char *out);
/* The p-quantile (0..1) of v[0..n) (sorts v). */
double pct(double *v, int n, double p);
/* splitmix64 */
uint64_t rnd(uint64_t *s);
/* A trace's first_ts, last_ts and tick_frequency, from `ntidx info --json`. */
int trace_span(const char *ntidx, const char *trace, uint64_t *first, uint64_t *last, uint64_t *freq);

#endif
