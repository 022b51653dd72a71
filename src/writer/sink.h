/*
 * Where the writer's bytes go: a file written in large chunks, or a growing
 * memory buffer. Blocks are assembled elsewhere and handed over whole, so
 * the sink sees a few large appends per block, never one per event.
 */
#ifndef NTIDX_WRITER_SINK_H
#define NTIDX_WRITER_SINK_H

#include <stddef.h>
#include <stdint.h>

/* File output is handed to write() in chunks of this size. */
#define NTIDX_W_SINK_CHUNK (4u << 20)

typedef struct ntidx_w_sink {
    int fd;           /* -1: memory sink */
    int owns_fd;      /* opened here (closed at the end), or the caller's (left open) */
    uint8_t *buf;     /* file: one chunk; memory: the whole trace */
    size_t len, cap;
    uint64_t flushed; /* bytes already given to write() (file sinks) */
    int err;          /* first error (NTIDX_E_*), sticky */
    int saved_errno;  /* errno of a failed write, for messages */
} ntidx_w_sink;

/** @return NTIDX_OK, NTIDX_E_IO (open failed, errno kept), NTIDX_E_NOMEM. */
int ntidx_w_sink_open_file(ntidx_w_sink *s, const char *path);
int ntidx_w_sink_open_memory(ntidx_w_sink *s);
/** The caller's descriptor, written from where it is and left open by ntidx_w_sink_close(). */
int ntidx_w_sink_open_fd(ntidx_w_sink *s, int fd);

/** Append bytes. @return 0 or the sticky error (NTIDX_E_WRITE, NTIDX_E_NOMEM). */
int ntidx_w_sink_write(ntidx_w_sink *s, const void *data, size_t n);

/** A piece of a block for ntidx_w_sink_writev(). */
typedef struct ntidx_w_piece {
    const void *p;
    size_t n;
} ntidx_w_piece;

/**
 * Append several pieces (a block's framing, header and body). Large blocks
 * of a file sink go straight to writev() instead of through the chunk.
 */
int ntidx_w_sink_writev(ntidx_w_sink *s, const ntidx_w_piece *pieces, int count);

/** Hand buffered bytes to the kernel (file sinks; no-op in memory). */
int ntidx_w_sink_flush(ntidx_w_sink *s);

/** Flush, close the file (one opened here), free the buffer. @return the first error seen. */
int ntidx_w_sink_close(ntidx_w_sink *s);

/** Absolute offset of the next byte: V5 alignment is relative to this. */
static inline uint64_t ntidx_w_sink_offset(const ntidx_w_sink *s)
{
    return s->flushed + s->len;
}

#endif /* NTIDX_WRITER_SINK_H */
