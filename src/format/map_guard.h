/*
 * The guard of mapped files: a file truncated while it is mapped makes a
 * read of its lost pages raise SIGBUS, which kills the process. The guard
 * turns that into an error the library can report.
 *
 * One process-wide SIGBUS handler, installed the first time a mapping is
 * guarded, finds the faulting address in a lock-free registry of the live
 * guarded mappings. When it is in one, the handler maps zero pages over the
 * mapping from the faulting page to its end (so the interrupted read goes on
 * and reads zeros: every byte of a trace is bounds-checked as untrusted, so
 * zeros are safe to decode), records the mapping offset in the owner's fault
 * word, and returns. The owner checks its fault word at its checkpoints and
 * fails there (ntx_trace_check() in trace.c). A fault anywhere else goes to
 * the handler that was installed before (the default one: the process dies,
 * as without the guard). Nothing jumps out of the handler: no lock or
 * allocation of the interrupted code is left behind, on any thread.
 */
#ifndef NTIDX_MAP_GUARD_H
#define NTIDX_MAP_GUARD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* A fault word: 0 while no read of its mapping has faulted, else 1 + the lowest offset that did (so that a
   zeroed struct holds none). */
typedef _Atomic uint64_t ntx_fault_word;

struct ntx_guard_slot;

/*
 * Guard [base, base + len): a fault there zeroes the rest of the mapping and
 * records the faulting offset in *fault (ntx_fault_note()). The handler is installed on the first
 * call. NULL when the guard cannot be had (no memory for the registry, or the
 * handler could not be installed): the mapping then works unguarded.
 */
struct ntx_guard_slot *ntx_guard_add(const void *base, size_t len, ntx_fault_word *fault);

/* Stop guarding (before the mapping is unmapped: its address may be reused). Accepts NULL. */
void ntx_guard_remove(struct ntx_guard_slot *slot);

/* Record a fault at `offset` unless one below it is recorded (the handler's record; also the owner's, when
   it finds the file shorter by itself). */
void ntx_fault_note(ntx_fault_word *w, uint64_t offset);

/* The lowest offset recorded; UINT64_MAX when none. */
static inline uint64_t ntx_fault_offset(const ntx_fault_word *w)
{
    return atomic_load((ntx_fault_word *)w) - 1;
}

/*
 * Whether a read of the mapping has faulted. The fence orders the caller's
 * reads of the mapping before the load: a thread that read zeros another
 * thread's fault had mapped sees that thread's record.
 */
static inline int ntx_fault_seen(const ntx_fault_word *w)
{
#if defined(__SANITIZE_THREAD__)
    return atomic_load((ntx_fault_word *)w) != 0; /* ThreadSanitizer does not model fences */
#else
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit((ntx_fault_word *)w, memory_order_relaxed) != 0;
#endif
}

#endif
