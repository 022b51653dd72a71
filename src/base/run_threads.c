/*
 * One piece of work run on several threads at once (threads.h): the shape of
 * every parallel step whose workers take their pieces from a shared counter,
 * written once. It is a parallel section for the benchmarks (phases.h).
 */
#include <pthread.h>

#include "phases.h"
#include "threads.h"

void ntx_run_threads(unsigned n, void *(*fn)(void *), void *arg)
{
    if (n < 1)
        n = 1;
    if (n > NTX_MAX_THREADS)
        n = NTX_MAX_THREADS;
    pthread_t tids[NTX_MAX_THREADS];
    unsigned started = 0;
    double ph = ntx_phase_begin();
    /* a thread the system refuses is not an error: the others (the caller at least) take its pieces */
    while (started + 1 < n && pthread_create(&tids[started], NULL, fn, arg) == 0)
        started++;
    fn(arg);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    ntx_phase_end(ph);
}
