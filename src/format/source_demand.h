/*
 * A source without a mapping of its own as memory, filled on first touch
 * (source_demand.c): what lets the code that reads a trace as memory read a
 * remote trace or an embedder's source.
 */
#ifndef NTIDX_SOURCE_DEMAND_H
#define NTIDX_SOURCE_DEMAND_H

#include "map_guard.h"
#include "source.h"

/* What one fault fills: the HTTP source's smallest request, so that a fault costs at most one. */
#define NTX_DEMAND_UNIT (64u << 10)
/* The most that faults in order read ahead: one request of the HTTP source (source_http.c). */
#define NTX_DEMAND_AHEAD_MAX (8u << 20)
/* The walks in order followed at once. */
#define NTX_DEMAND_STREAMS 16

typedef struct ntx_demand ntx_demand;

/*
 * Map `s` (not owned: it must outlive the mapping). A unit that cannot be read
 * reads as zeros and records its offset in *fault; ntx_demand_error() then
 * gives the source's error. NTIDX_E_UNSUPPORTED when userfaultfd is not to be
 * had (a kernel without it, or a seccomp profile that forbids it).
 */
int ntx_demand_map(ntx_source *s, ntx_fault_word *fault, ntx_demand **out, ntx_err *err);
void ntx_demand_unmap(ntx_demand *d);
/* The mapping's first byte (NULL for an empty source). */
const uint8_t *ntx_demand_base(const ntx_demand *d);
/* The units a fault filled so far (the tests: a prefetched range is put in place without them). */
uint64_t ntx_demand_faults(const ntx_demand *d);
/* 1 when the mapping is served through SIGSEGV (demand_signal.h), without userfaultfd. */
int ntx_demand_by_signal(const ntx_demand *d);
/* [off, off+len) is about to be read: the source is asked for the units not yet filled, and with userfaultfd
   they are copied in as the source's requests bring them (not each at its first touch). */
void ntx_demand_prefetch(ntx_demand *d, uint64_t off, uint64_t len);
/* [off, off+len) will not be read again: its whole units are dropped (read again if touched), but those kept. */
void ntx_demand_release(ntx_demand *d, uint64_t off, uint64_t len);
/* [off, off+len) is read again and again (definitions): every unit it touches is kept from releases. */
void ntx_demand_keep(ntx_demand *d, uint64_t off, uint64_t len);
/* NTIDX_OK, or the code of the first unit that could not be read, its error copied into *err (may be NULL). */
int ntx_demand_error(ntx_demand *d, ntx_err *err);

#endif
