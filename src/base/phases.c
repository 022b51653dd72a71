#include "phases.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int enabled;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double parallel_secs;
static unsigned long sections;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report(void)
{
    fprintf(stderr, "ntidx phases: parallel %.6f s in %lu sections\n", parallel_secs, sections);
}

static void setup(void)
{
    enabled = getenv("NTIDX_PHASES") != NULL && atexit(report) == 0;
}

double ntx_phase_begin(void)
{
    pthread_once(&once, setup);
    return enabled ? now() : 0;
}

void ntx_phase_end(double began)
{
    if (!began)
        return;
    double d = now() - began;
    pthread_mutex_lock(&lock);
    parallel_secs += d;
    sections++;
    pthread_mutex_unlock(&lock);
}

double ntx_phase_since(double began) { return began ? now() - began : 0; }

void ntx_phase_serial(double secs)
{
    if (!(secs > 0))
        return;
    pthread_mutex_lock(&lock);
    parallel_secs -= secs;
    pthread_mutex_unlock(&lock);
}
