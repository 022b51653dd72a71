/* Error codes, their names, and offset-bearing messages. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ntidx/ntidx.h"

NTIDX_API const char *ntidx_strerror(int code)
{
    switch (code) {
    case NTIDX_OK: return "success";
    case NTIDX_E_IO: return "input/output error";
    case NTIDX_E_NOMEM: return "out of memory";
    case NTIDX_E_NOT_A_TRACE: return "not a nettrace/netperf trace";
    case NTIDX_E_VERSION: return "unsupported format version";
    case NTIDX_E_TRUNCATED: return "trace is truncated";
    case NTIDX_E_CORRUPT: return "trace is corrupt";
    case NTIDX_E_UNDEFINED_REF: return "reference to an undefined definition";
    case NTIDX_E_INVALID_ARG: return "invalid argument";
    case NTIDX_E_PAYLOAD: return "payload does not match its metadata";
    case NTIDX_E_UNSUPPORTED: return "unsupported feature";
    case NTIDX_E_WRITE: return "write failed";
    default: return "unknown error";
    }
}

NTIDX_API const char *ntidx_version(void) { return NTIDX_VERSION_STRING; }

int ntx_err_at(ntx_err *e, int code, uint64_t offset, const char *fmt, ...)
{
    if (!e || e->code)
        return code;
    e->code = code;
    e->offset = offset;
    int n = snprintf(e->msg, sizeof e->msg, "offset %llu (0x%llx): ", (unsigned long long)offset,
                     (unsigned long long)offset);
    if (n < 0 || (size_t)n >= sizeof e->msg)
        return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + n, sizeof e->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return code;
}

int ntx_err_set(ntx_err *e, int code, const char *fmt, ...)
{
    if (!e || e->code)
        return code;
    e->code = code;
    e->offset = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}

void ntx_err_clear(ntx_err *e)
{
    e->code = 0;
    e->offset = 0;
    e->msg[0] = 0;
}
