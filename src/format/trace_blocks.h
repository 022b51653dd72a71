/*
 * What the layers above the readers (src/ops) use of a trace besides its
 * public API: a block by offset with the framing's error kept as an ntx_err
 * (ntidx_trace_next_block() publishes it), and the checkpoint that says
 * whether the file shrank while it was read. The trace itself (struct
 * ntidx_trace: its bytes, generation, mapping) is trace_internal.h's, for
 * the layers that decode it (decode, reader, index).
 */
#ifndef NTIDX_TRACE_BLOCKS_H
#define NTIDX_TRACE_BLOCKS_H

#include <stdint.h>
#include <sys/stat.h>

#include "error.h"
#include "ntidx/ntidx.h"

/* Read the block at *pos and advance past it (as ntidx_trace_next_block()), the error recorded into *err. */
int ntx_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out, ntx_err *err);

/*
 * The end of a read (and its errors): NTIDX_OK, or NTIDX_E_SHRUNK (the file
 * shrank while it was read: whatever was read may come from zeros) or
 * NTIDX_E_IO, replacing what *err held (trace_internal.h says more).
 */
int ntx_trace_check_end(const ntidx_trace *t, ntx_err *err);

/* 1 when the trace was mapped from the file `st` describes (same device and inode), else 0 (also for a
   trace in memory): an output must never be the input it is read from. */
int ntx_trace_is_file(const ntidx_trace *t, const struct stat *st);

/* Whether the trace is read through a byte source (a URL, an embedder's callbacks), where every request is a round
   trip: what is about to be read is best announced at once. */
int ntx_trace_through_source(const ntidx_trace *t);
/* [off, off+len) is about to be read (a hint: trace_internal.h). */
void ntx_trace_prefetch(const ntidx_trace *t, uint64_t off, uint64_t len);
/* The hints between begin = 1 and begin = 0 are one burst: a remote source asks for them together. */
void ntx_trace_prefetch_batch(const ntidx_trace *t, int begin);
/*
 * Before a write() straight from the trace's memory of [off, off+len) (a slice's copied block): a trace read
 * through a source (remote, an embedder's) has its memory filled when this process first reads it, and where
 * only the process's own reads are served (SIGSEGV without userfaultfd, userfaultfd's user-mode-only kind) the
 * kernel's read of a part nobody read yet fails with EFAULT. This reads a byte of every page of the range, so
 * that the whole of it is filled, then checks for a range that could not be read (its error in *err, as
 * ntx_trace_check()). Nothing to do for a file's mapping or bytes in memory.
 */
int ntx_trace_fill(const ntidx_trace *t, uint64_t off, uint64_t len, ntx_err *err);

#endif
