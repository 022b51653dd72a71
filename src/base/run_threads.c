/*
 * One piece of work run on several threads at once (threads.h): the shape of
 * every parallel step whose workers take their pieces from a shared counter,
 * written once. It is a parallel section for the benchmarks (phases.h).
 */
#include <pthread.h>

#include "phases.h"
#include "threads.h"

unsigned ntx_run_threads_each(unsigned n, void *(*fn)(void *), void *args, size_t stride)
{
    if (n < 1)
        n = 1;
    if (n > NTX_MAX_THREADS)
        n = NTX_MAX_THREADS;
    pthread_t tids[NTX_MAX_THREADS];
    unsigned started = 0;
    double ph = ntx_phase_begin();
    /* a thread the system refuses is not an error: the others (the caller at least) take its pieces */
    while (started + 1 < n && pthread_create(&tids[started], NULL, fn, (char *)args + (started + 1) * stride) == 0)
        started++;
    fn(args);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    ntx_phase_end(ph);
    return started + 1;
}

void ntx_run_threads(unsigned n, void *(*fn)(void *), void *arg) { (void)ntx_run_threads_each(n, fn, arg, 0); }
