/*
 * The header scan on several threads (scan_split.c).
 *
 * A header scan is a chain: each block's size says where the next one
 * starts, so one thread cannot skip ahead. Helper threads guess instead:
 * each takes a later part of the trace, looks for something that frames as a
 * block there (a plausible event block, two more blocks after it) and reads
 * on from it, block by block, with the scan's own reader, into records. The
 * scan itself goes on alone from the start; when its position equals a
 * record's position it replays that helper's records from there instead of
 * reading, and goes on after them. A wrong guess only costs time: its
 * records are never met, or met where the true chain joins it, and a record
 * read from a position is the record the scan would read there
 * (ntx_block_read). So the index is the same, byte for byte, with any number
 * of threads, and so are its errors.
 */
#ifndef NTIDX_SCAN_SPLIT_H
#define NTIDX_SCAN_SPLIT_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "block_read.h"

typedef struct ntx_scan_part ntx_scan_part;

typedef struct ntx_scan_split {
    ntx_scan_part *parts;
    unsigned nparts, next; /* next: the first part the scan has not passed */
    int stop;              /* set (atomically) when the scan ends early: helpers stop reading */
    cpu_set_t cpus;        /* where the process may run (has_cpus): helpers go back to it once started */
    int has_cpus;
} ntx_scan_split;

/*
 * Start helpers on [start, t->size) of a trace read with pread(): `threads`
 * readers in all, the scan included, each part at least min_part bytes.
 * Returns the number of helpers started (0: the scan reads alone; nothing to
 * free).
 */
unsigned ntx_scan_split_start(ntx_scan_split *s, ntidx_trace *t, uint64_t start, unsigned threads, uint64_t min_part);

/*
 * The records helpers read from position `pos` on, when a helper read a
 * block there: *n records from the returned one, the last of them either an
 * end (rc != 1; its error in *end_err) or followed by position *end_pos with
 * pending tag *end_tag. NULL: the scan reads `pos` itself. Waits for the
 * helper of the part `pos` lies in. Each part is handed out at most once.
 */
const ntx_scan_rec *ntx_scan_split_take(ntx_scan_split *s, uint64_t pos, size_t *n, const ntx_err **end_err,
                                        uint64_t *end_pos, uint64_t *end_tag);

/* How many guesses the helpers read from and gave up (tests: the wrong guesses were met). Waits for them. */
unsigned ntx_scan_split_wrong_guesses(ntx_scan_split *s);

/* Stop the helpers, wait for them and free what they read. */
void ntx_scan_split_end(ntx_scan_split *s);

#endif
