/*
 * ntidx/source.h: traces that are not files on this machine's disk.
 *
 * A trace is read through one byte source. ntidx_trace_open() takes a path
 * or a URL (http://, https://, az://CONTAINER/BLOB, az://ACCOUNT/CONTAINER/BLOB
 * or an Azure blob's own URL; docs/remote.md) and picks the source itself.
 * A program that holds a trace somewhere else (its own storage client, an
 * archive, a cache) gives the library callbacks instead: ntidx opens the
 * trace through them and reads only the ranges it needs, asking for ranges
 * about to be read with the prefetch hint first.
 */
#ifndef NTIDX_SOURCE_H_PUBLIC
#define NTIDX_SOURCE_H_PUBLIC

#include <stddef.h>
#include <stdint.h>

#include "ntidx/ntidx.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * An embedder's byte source. `read` is required; the others may be NULL.
 * The callbacks may be called from several threads at once (parallel
 * statistics read regions in parallel): `read` must be safe for that.
 */
typedef struct ntidx_source_callbacks {
    /** Passed back to every callback. */
    void *ctx;
    /** The object's size in bytes: ntidx reads nothing at or past it. */
    uint64_t size;
    /**
     * Fill `buf` with exactly `len` bytes at `offset` (offset + len <= size).
     * Return 0, or -1 when they cannot be read (the open or the operation
     * that asked then fails with NTIDX_E_IO, naming the trace and the range).
     */
    int (*read)(void *ctx, uint64_t offset, void *buf, size_t len);
    /** Optional hint: [offset, offset + len) is about to be read (fetch it in the background). */
    void (*prefetch)(void *ctx, uint64_t offset, uint64_t len);
    /** Optional: called once when the trace is closed (or its open failed); ctx is not used after. */
    void (*close)(void *ctx);
    /**
     * Optional: a string that changes whenever the object's bytes do (an
     * ETag, a version id, a content hash). Copied at open. A side index
     * built for this trace records it and is used again only for the same
     * string and size; NULL: the trace is identified by its size alone.
     */
    const char *identity;
    /** Reserved: zero. */
    uint64_t reserved[4];
} ntidx_source_callbacks;

/**
 * Open a trace read through `cb`, named `name` in messages (NULL: "<source>").
 * The trace reads the source as ntidx_trace_open() reads a file: the header
 * and the trace block now, the rest as operations need it.
 *
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (no read callback, non-zero reserved
 *         fields); NTIDX_E_IO (a read failed); what ntidx_trace_open() returns
 *         for the bytes. On failure *out is NULL and `cb->close` was called.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_trace_open_source(const ntidx_source_callbacks *cb, const char *name,
                                                      ntidx_trace **out);

/**
 * Whether `name` is a URL ntidx reads (http://, https://, az://), rather than a path.
 */
NTIDX_API int ntidx_is_url(const char *name);

/**
 * The URL of the index beside the remote trace `trace_url`: ".ntidx" added to
 * its path, its query string (a SAS token) kept after it
 * ("https://a/c/t.nettrace?sv=..." -> "https://a/c/t.nettrace.ntidx?sv=...").
 * NULL when `trace_url` is not a URL, or out of memory. free() it.
 */
NTIDX_API char *ntidx_index_url(const char *trace_url);

/**
 * Upload the local file `path` as the object `url`: an HTTP PUT, or for an
 * Azure blob (az://, a blob URL) a Put Blob with the credentials a read would
 * use (docs/remote.md). `ntidx index URL --upload` puts a remote trace's index
 * beside it this way.
 *
 * @return NTIDX_OK; NTIDX_E_IO (the file cannot be read); NTIDX_E_WRITE (the
 *         store refused it: the message names the URL without its query
 *         string, and the status); NTIDX_E_INVALID_ARG.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_url_upload(const char *url, const char *path);

#ifdef __cplusplus
}
#endif

#endif
