/*
 * Damaged regions: which of the regions a query reads it cannot read (a corrupt or cut block, an undefined
 * reference inside the region), so that a caller that asked to skip damage (`--skip-damaged`, SQL's
 * on_error = 'skip') runs its query over the others only. Plain C over the public API (no SQLite): the
 * events table and the commands share it.
 *
 * Each region the query would enter is read alone first, with the query's window and filters, and its
 * damage is met as the query would meet it; a region that fails is left out whole. So the answer is
 * exactly the answer over the undamaged regions (no row of a damaged region given before its damage was
 * found), at the price of reading the window twice. Damage outside the region read (a definition block
 * that region is primed with, which every later region needs too) is not a region's to leave out: it stays
 * the caller's error.
 */
#ifndef NTIDX_TOOLS_DAMAGED_H
#define NTIDX_TOOLS_DAMAGED_H

#include <stddef.h>
#include <stdint.h>

#include <ntidx/index.h>

/* A region left out: where it is, where the damage was met, and the library's message. */
typedef struct damaged_region {
    uint64_t region, offset, bytes, at;
    int code;
    char *message;
} damaged_region;

typedef struct damaged_scan {
    uint64_t *good;       /* the regions to read (file order): ntidx_query_options.regions */
    size_t ngood;
    damaged_region *bad;  /* those left out (file order) */
    size_t nbad;
} damaged_scan;

/*
 * Read each region that a query with `o` would enter (its regions, or every region whose time span meets
 * the window), alone, with o's window and filters (no seek), in order; with o->limit, only until the regions
 * read whole hold that many events (out->good then ends there: the query needs no more). 0 with *out filled (free it with
 * damaged_scan_free(); out->bad empty: nothing damaged), or the library's error (ntidx_last_error() says
 * it): damage that is not inside the region read, a region of a lazily checked index that failed its check
 * (NTIDX_E_INDEX_CORRUPT: recover and call again), out of memory.
 */
int damaged_scan_run(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, damaged_scan *out);
void damaged_scan_free(damaged_scan *s);

/* Is `code` damage a region can be left out for (NTIDX_E_CORRUPT, NTIDX_E_TRUNCATED, NTIDX_E_UNDEFINED_REF)? */
int damaged_code(int code);

#endif
