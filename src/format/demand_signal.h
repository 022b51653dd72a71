/*
 * Pages filled on first touch without userfaultfd (the fallback of
 * source_demand.c where the system call is refused: a seccomp profile such as
 * Docker's default one, or a kernel without it).
 *
 * The mapping's units that hold nothing yet are PROT_NONE. A read of one
 * raises SIGSEGV; one process-wide handler, installed on first use, finds the
 * mapping in a lock-free registry, writes the unit's number to the mapping's
 * request pipe and waits on its fill counter (a futex) until the fill thread
 * has read the unit and put it in place (mremap() of a filled private copy:
 * no other thread ever sees a unit half copied), then returns and the read is
 * made again. A signal that is not ours goes to the handler installed before.
 *
 * What the handler calls is async-signal-safe: atomics, write() and the futex
 * system call. It takes no lock: the fill thread never waits on a thread that
 * reads the mapping, so a reader stopped in the handler holding any lock of its
 * own holds up nobody the fill needs.
 */
#ifndef NTIDX_DEMAND_SIGNAL_H
#define NTIDX_DEMAND_SIGNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct ntx_sigfill_slot;

/*
 * Serve faults in [base, base + len) (units of `unit` bytes): a fault writes
 * its unit's number (a size_t) to `request_fd` and waits until *filled_count
 * changes (ntx_sigfill_done()). NULL when the handler cannot be installed or
 * every slot is taken.
 */
struct ntx_sigfill_slot *ntx_sigfill_add(const void *base, size_t len, size_t unit, int request_fd,
                                         _Atomic uint32_t *filled_count);
/* Stop serving (before the mapping is unmapped). Accepts NULL. */
void ntx_sigfill_remove(struct ntx_sigfill_slot *slot);
/* A unit was filled (or found filled): wake every reader that waits. */
void ntx_sigfill_done(_Atomic uint32_t *filled_count);

#endif
