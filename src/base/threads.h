/*
 * How many threads a parallel operation runs: as many as the caller asked
 * for, else one per online core, and never more than NTX_MAX_THREADS (the
 * "at most 64" of the public options). Shared by the index scan's helpers,
 * the --full build's workers and the parallel statistics.
 */
#ifndef NTIDX_THREADS_H
#define NTIDX_THREADS_H

#include <stddef.h>
#include <unistd.h>

#define NTX_MAX_THREADS 64

static inline unsigned ntx_thread_count(unsigned asked)
{
    if (!asked) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        asked = c > 0 ? (unsigned)c : 1;
    }
    return asked > NTX_MAX_THREADS ? NTX_MAX_THREADS : asked;
}

/* fn(arg) on `n` threads (at most NTX_MAX_THREADS), the caller's among them, then every one joined: for work
   that each thread takes piece by piece from a counter in `arg` until none is left, so that a thread the
   system refuses to start only leaves its share to the others. Timed as a parallel section (phases.h). */
void ntx_run_threads(unsigned n, void *(*fn)(void *), void *arg);
/* The same with a worker's own argument each: thread i runs fn(args + i * stride), the caller being thread 0.
   Returns the threads that ran (fewer than n when the system refused one: the workers after it did not run,
   so theirs are still as the caller left them). */
unsigned ntx_run_threads_each(unsigned n, void *(*fn)(void *), void *args, size_t stride);

#endif
