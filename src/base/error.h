/*
 * Error reports: a code plus a message that names the file offset and what
 * was wrong. Every handle that can fail owns one ntx_err; the first error
 * wins (later ones are usually consequences).
 */
#ifndef NTIDX_ERROR_H
#define NTIDX_ERROR_H

#include <stdint.h>

#define NTX_ERRMSG_MAX 512

typedef struct ntx_err {
    int code;      /* ntidx_error, 0 when none */
    uint64_t offset;
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
void ntx_err_clear(ntx_err *e);

#endif
