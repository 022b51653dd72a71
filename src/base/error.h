/*
 * Errors inside the library, and how they reach a client.
 *
 * Inside, every handle that can fail owns an ntx_err: a code plus a message
 * that names the file offset and what was wrong; the first error wins (later
 * ones are usually consequences). At the public API's edge, a call that
 * fails publishes its error as the calling thread's last error
 * (ntidx_last_error(), ntidx_last_error_info()) with the file it is about:
 * that is the one way a client learns why.
 */
#ifndef NTIDX_ERROR_H
#define NTIDX_ERROR_H

#include <stddef.h>
#include <stdint.h>

#define NTX_ERRMSG_MAX 512

typedef struct ntx_err {
    int code;          /* ntidx_error, 0 when none */
    uint64_t offset;   /* the byte it is about, when has_offset */
    int has_offset;
    unsigned what_at;  /* msg + what_at: the message without its "offset N (0xN): " prefix */
    char msg[NTX_ERRMSG_MAX];
} ntx_err;

#if defined(__GNUC__)
#define NTX_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NTX_PRINTF(a, b)
#endif

/* Record an error at a file offset: "offset N (0xN): <message>". Returns code. */
int ntx_err_at(ntx_err *e, int code, uint64_t offset, const char *fmt, ...) NTX_PRINTF(4, 5);
/* Record an error with no offset. Returns code. */
int ntx_err_set(ntx_err *e, int code, const char *fmt, ...) NTX_PRINTF(3, 4);
/* Record `src` under a prefix ("statistics of region 3: <src's message>"), keeping its offset. Returns code. */
int ntx_err_wrap(ntx_err *e, int code, const ntx_err *src, const char *fmt, ...) NTX_PRINTF(4, 5);
void ntx_err_clear(ntx_err *e);
/* How many errors this thread has published: a wrapper that calls other public functions publishes its own
   message only when they did not (the count did not move). */
unsigned long ntx_error_count(void);
/* Record this thread's last published error into `e` (to carry it to another thread); `code` when none. */
int ntx_err_from_last(ntx_err *e, int code);

/*
 * Publish an error as this thread's last error, about `file` (a trace or an
 * index path; NULL or "" when none). Return the code, so that a public
 * function ends with `return ntx_fail(...)`.
 *  - ntx_fail(): the recorded error `e`; when `e` holds none, `code` with
 *    ntidx_strerror()'s text.
 *  - ntx_failf(): a message made here, at `offset` (NTIDX_NO_OFFSET: none).
 */
int ntx_fail(int code, const char *file, const ntx_err *e);
int ntx_failf(int code, const char *file, uint64_t offset, const char *fmt, ...) NTX_PRINTF(4, 5);

/* Whether an options struct's reserved space is all zero (see Conventions in ntidx.h). */
static inline int ntx_reserved_zero(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

#endif
