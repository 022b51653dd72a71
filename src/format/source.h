/*
 * A trace's bytes, wherever they live: one byte source under the reader.
 *
 * A source knows its size and an identity (what says it is still the same
 * object: inode, size and mtime for a file; ETag, size and Last-Modified for
 * a URL), reads a range into a buffer, maps it when it can, takes a hint for
 * ranges about to be read (a remote source fetches them in large requests,
 * several in flight) and gives back what was read. Backends, one file each:
 *
 *   source_mmap.c      a local file, mapped (the default for local files)
 *   source_pread.c     a local file read with pread() (a file that may change under the reader)
 *   source_memory.c    bytes the caller holds
 *   source_callback.c  an embedder's callbacks (ntidx_trace_open_source(), <ntidx/source.h>)
 *   source_http.c      HTTP(S) range requests through libcurl
 *   source_azure.c     Azure Blob Storage: az:// names, credentials, Shared Key signing (over source_http.c)
 *
 * Sources are safe to read from several threads at once.
 */
#ifndef NTIDX_SOURCE_H
#define NTIDX_SOURCE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct ntx_source ntx_source;

/* What the open of a V4 trace read through a source asks for past its trace block, to tell V4 from V5 by its
   first metadata blocks (decode/trace_open.c): near its start, within its first few hundred KiB for a runtime's
   trace. A source whose open makes a request (the HTTP source's) takes it in that request. */
#define NTX_SOURCE_V5_PROBE (512u << 10)

/* What says a source is the object it was: compared by the index on every open. */
typedef struct ntx_source_identity {
    uint64_t size;
    /* a local file */
    uint64_t inode, device;
    int64_t mtime_ns, ctime_ns;
    /* a URL: the validator the server gave ("" when none) and its Last-Modified, as sent */
    char etag[128];
    char last_modified[64];
} ntx_source_identity;

struct ntx_source_ops {
    /* Read exactly len bytes at off into buf (off + len <= size: the caller checks). NTIDX_OK or an error in *err. */
    int (*read)(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err);
    /* The whole object as memory, when the backend has it so (NULL: read ranges instead). */
    const uint8_t *(*map)(ntx_source *s);
    /* Hints: [off, off+len) is about to be read / will not be read again. Optional. */
    void (*prefetch)(ntx_source *s, uint64_t off, uint64_t len);
    void (*release)(ntx_source *s, uint64_t off, uint64_t len);
    void (*close)(ntx_source *s);
    /* begin = 1: the hints until the call with begin = 0 are one burst, to be asked for together (nothing of
       it is asked for before that call). Calls nest. Optional. */
    void (*batch)(ntx_source *s, int begin);
};

struct ntx_source {
    const struct ntx_source_ops *ops;
    char *name;  /* for messages: a path, or a URL without its query string (never a secret) */
    ntx_source_identity id;
    int remote;  /* 1: every read is a request (callers coalesce and hint) */
    /* The name it was opened by, credentials included (a SAS token): to open objects beside it (its index)
       the same way. Never printed. NULL for local sources. */
    char *open_name;
    /* counters of a remote source (atomic adds): range requests sent, retries included; body bytes; retries */
    uint64_t n_requests, n_bytes, n_retries;
    /* of the HTTP source: the large prefetch buffers it allocated (each used again and again) */
    uint64_t n_buffers;
    /* who is told of the bytes a prefetch brought (ntx_source_on_arrival()), under the lock's read side */
    pthread_rwlock_t arrival_lock;
    int (*arrival)(void *ctx, uint64_t off, const uint8_t *buf, uint64_t len);
    void *arrival_ctx;
};

/* What a source opened by name may be: whether `name` is a URL this build reads (http://, https://, az://). */
int ntx_source_is_url(const char *name);

/*
 * Open `name`: a local path (mapped; with `pread_only`, read with pread()) or
 * a URL (http://, https://, az://, an Azure blob URL). On failure *out is NULL
 * and err says why. Messages of sources (here and from reads) do not name the
 * source: the caller prefixes them with s->name, or for a failed open with
 * ntx_url_redact(name) (a URL's query string may be a secret).
 */
int ntx_source_open(ntx_source **out, const char *name, int pread_only, ntx_err *err);

/* The backends' own openers. */
int ntx_source_open_mmap(ntx_source **out, const char *path, ntx_err *err);
int ntx_source_open_pread(ntx_source **out, const char *path, ntx_err *err);
int ntx_source_open_memory(ntx_source **out, const void *data, size_t size, const char *name, ntx_err *err);
int ntx_source_open_http(ntx_source **out, const char *url, ntx_err *err);
int ntx_source_open_azure(ntx_source **out, const char *name, ntx_err *err);
/* The callback backend is opened from the public struct (source_callback.c, <ntidx/source.h>). */
struct ntidx_source_callbacks;
int ntx_source_open_callback(ntx_source **out, const struct ntidx_source_callbacks *cb, const char *name, ntx_err *err);

/* Read [off, off+len), checked against the size (a range past the end is NTIDX_E_TRUNCATED at off). */
int ntx_source_read(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err);
static inline const uint8_t *ntx_source_map(ntx_source *s) { return s->ops->map ? s->ops->map(s) : NULL; }
void ntx_source_prefetch(ntx_source *s, uint64_t off, uint64_t len);
void ntx_source_release(ntx_source *s, uint64_t off, uint64_t len);
/* Hints between ntx_source_batch(s, 1) and ntx_source_batch(s, 0) are one burst (source_http.c: one request). */
void ntx_source_batch(ntx_source *s, int begin);
/*
 * Be told of the bytes each prefetch brings, as they come and before any read
 * is served from them (a mapping filled on demand puts them in place at once,
 * instead of when each of its units is first touched: source_demand.c).
 * `fn` runs on the source's own threads, several at once, with [off, off+len)
 * at `buf`, valid for the call only; it returns 1 when it put every byte of it
 * where it is read (the source's copy is then wanted by nobody: its buffer is
 * the first to be used again). fn = NULL stops it; when this returns, no call
 * is under way any more. A backend that fetches nothing ahead never calls it.
 */
void ntx_source_on_arrival(ntx_source *s, int (*fn)(void *ctx, uint64_t off, const uint8_t *buf, uint64_t len),
                           void *ctx);
/* A backend's prefetch brought [off, off+len) at buf: tell who asked (ntx_source_on_arrival()); its answer, or 0. */
int ntx_source_arrived(ntx_source *s, uint64_t off, const uint8_t *buf, uint64_t len);
void ntx_source_close(ntx_source *s);

/* A URL for messages: the same without its query string (a SAS token is a secret) or user:password@. */
char *ntx_url_redact(const char *url);

/*
 * Write `len` bytes as the object `url` (an index beside its remote trace:
 * `ntidx index URL --upload`): an HTTP PUT, or an Azure Put Blob with the
 * same credentials a read would use, to a temporary name first where the
 * store can rename (it cannot: the PUT replaces the object in one step).
 */
int ntx_source_put(const char *url, const void *data, size_t len, ntx_err *err);

/* Fill the common fields of a backend's source (name copied). NTIDX_E_NOMEM on failure. */
int ntx_source_init(ntx_source *s, const struct ntx_source_ops *ops, const char *name, ntx_err *err);
void ntx_source_fini(ntx_source *s);

#endif
