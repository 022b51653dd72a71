/*
 * Reading one block for the header scan: framing plus the facts the index
 * keeps of it (an event block's time range, a sequence point's timestamp and
 * flags), with no index state. The scan (index_scan.c) turns these into
 * entries; the parallel scan (scan_split.c) reads ahead with the same code on
 * other threads, so that what it read is what the scan would have read.
 */
#ifndef NTIDX_BLOCK_READ_H
#define NTIDX_BLOCK_READ_H

#include <stdint.h>

#include "error.h"
#include "trace_internal.h"

/* A reader's position-independent state: its last pread() and what it has to release. */
typedef struct ntx_block_reader {
    ntidx_trace *t;
    int fd; /* where pread() reads the trace (t->fd, or a helper thread's own descriptor of the same file) */
    /* pread() header scan (else the mapping); pending_tag: a FastSerialization end tag left to check
       with the next read (UINT64_MAX: none) */
    int use_pread;
    uint64_t pending_tag;
    /* the last pread(): win_len bytes of the file from win_at */
    uint64_t win_at, win_len;
    uint8_t win[512];
    int touched;       /* the mapping was read since the last release */
    uint64_t released; /* mapped ranges below this were given back */
    uint64_t ahead;    /* reads of the mapping (V3: every block decoded) asked the kernel for up to here */
    int stream;        /* the whole trace is read, pread() or not: asked of the kernel ahead in large steps */
} ntx_block_reader;

void ntx_block_reader_init(ntx_block_reader *r, ntidx_trace *t, int use_pread, uint64_t released);

/* One block as the scan reads it. */
typedef struct ntx_scan_rec {
    int rc;          /* 1: a block; 0: the end-of-stream marker; NTIDX_E_TRUNCATED: the file ends at `at`;
                        any other negative code: an error (the reader's caller holds the message) */
    uint64_t at;     /* where the read started */
    uint64_t next;   /* the position after the block (rc 1 and 0) */
    ntidx_block blk;
    uint8_t flags;   /* event blocks: NTX_BF_* */
    uint64_t lo, hi; /* event blocks with NTX_BF_RANGE */
    uint64_t sp_ts;  /* sequence points */
    uint32_t sp_flags;
    int framed;      /* rc < 0 from reading a framed block's contents (blk is valid) */
} ntx_scan_rec;

/*
 * Read the block at `at` into *rec (rec->rc is the result, also returned).
 * The result depends only on the file's bytes and r->pending_tag, never on
 * which reads came before: two readers that reach the same position with the
 * same pending tag read the same record (the parallel scan relies on it).
 */
int ntx_block_read(ntx_block_reader *r, uint64_t at, ntx_scan_rec *rec, ntx_err *err);

/* Give back the mapped pages behind pos every so often, when this reader touched any. */
void ntx_block_reader_release(ntx_block_reader *r, uint64_t pos);

/* The blocks from pos to `to` were read by another reader (whose pending tag at `to` is given): go on at `to`. */
void ntx_block_reader_jump(ntx_block_reader *r, uint64_t pos, uint64_t to, uint64_t pending_tag);

#endif
