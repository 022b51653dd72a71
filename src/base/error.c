/* Error codes, their names, offset-bearing messages, and the per-thread last error. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ntidx/ntidx.h"

static const struct {
    int code;
    const char *name, *text;
} codes[] = {
    {NTIDX_OK, "NTIDX_OK", "success"},
    {NTIDX_E_IO, "NTIDX_E_IO", "input/output error"},
    {NTIDX_E_NOMEM, "NTIDX_E_NOMEM", "out of memory"},
    {NTIDX_E_NOT_A_TRACE, "NTIDX_E_NOT_A_TRACE", "not a nettrace/netperf trace"},
    {NTIDX_E_VERSION, "NTIDX_E_VERSION", "unsupported format version"},
    {NTIDX_E_TRUNCATED, "NTIDX_E_TRUNCATED", "trace is truncated"},
    {NTIDX_E_CORRUPT, "NTIDX_E_CORRUPT", "trace is corrupt"},
    {NTIDX_E_UNDEFINED_REF, "NTIDX_E_UNDEFINED_REF", "reference to an undefined definition"},
    {NTIDX_E_INVALID_ARG, "NTIDX_E_INVALID_ARG", "invalid argument"},
    {NTIDX_E_PAYLOAD, "NTIDX_E_PAYLOAD", "payload does not match its metadata"},
    {NTIDX_E_UNSUPPORTED, "NTIDX_E_UNSUPPORTED", "unsupported feature"},
    {NTIDX_E_WRITE, "NTIDX_E_WRITE", "write failed"},
    {NTIDX_E_INDEX_CORRUPT, "NTIDX_E_INDEX_CORRUPT", "index is corrupt"},
    {NTIDX_E_INDEX_STALE, "NTIDX_E_INDEX_STALE", "index does not match its trace"},
    {NTIDX_E_INDEX_VERSION, "NTIDX_E_INDEX_VERSION", "index format version is newer than this library"},
    {NTIDX_E_CANCELLED, "NTIDX_E_CANCELLED", "cancelled"},
    {NTIDX_E_SHRUNK, "NTIDX_E_SHRUNK", "the file shrank while it was read"},
};

NTIDX_API const char *ntidx_strerror(int code)
{
    if (code <= 0 && code >= NTIDX_E_LAST)
        return codes[-code].text;
    return "unknown error";
}

NTIDX_API const char *ntidx_error_name(int code)
{
    if (code <= 0 && code >= NTIDX_E_LAST)
        return codes[-code].name;
    return "NTIDX_E_UNKNOWN";
}

NTIDX_API const char *ntidx_version(void) { return NTIDX_VERSION_STRING; }

/* ------------------------------------------------------------------ */

static int record(ntx_err *e, int code, int has_offset, uint64_t offset, const char *fmt, va_list ap)
{
    if (!e || e->code)
        return code;
    e->code = code;
    e->offset = has_offset ? offset : 0;
    e->has_offset = has_offset;
    e->what_at = 0;
    e->msg[0] = 0;
    if (has_offset) {
        int n = snprintf(e->msg, sizeof e->msg, "offset %llu (0x%llx): ", (unsigned long long)offset,
                         (unsigned long long)offset);
        if (n < 0 || (size_t)n >= sizeof e->msg)
            return code;
        e->what_at = (unsigned)n;
    }
    vsnprintf(e->msg + e->what_at, sizeof e->msg - e->what_at, fmt, ap);
    return code;
}

int ntx_err_at(ntx_err *e, int code, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(e, code, 1, offset, fmt, ap);
    va_end(ap);
    return code;
}

int ntx_err_set(ntx_err *e, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(e, code, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

int ntx_err_wrap(ntx_err *e, int code, const ntx_err *src, const char *fmt, ...)
{
    if (!e || e->code)
        return code;
    char prefix[NTX_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    const char *what = src && src->code ? src->msg + src->what_at : ntidx_strerror(code);
    if (src && src->code && src->has_offset)
        return ntx_err_at(e, code, src->offset, "%s%s", prefix, what);
    return ntx_err_set(e, code, "%s%s", prefix, what);
}

void ntx_err_clear(ntx_err *e)
{
    e->code = 0;
    e->offset = 0;
    e->has_offset = 0;
    e->what_at = 0;
    e->msg[0] = 0;
}

/* ------------------------------------------------------------------ */
/* The last error of each thread                                       */
/* ------------------------------------------------------------------ */

static _Thread_local struct {
    unsigned long count;
    char file[NTIDX_ERROR_MAX];
    char message[NTIDX_ERROR_MAX];
    ntidx_error_info info;
} last = {.info = {.code = NTIDX_OK, .file = "", .offset = NTIDX_NO_OFFSET, .what = "", .detail = "", .message = ""}};

static int publish(int code, const char *file_in, int has_offset, uint64_t offset, const char *what_in)
{
    /* The inputs may be this thread's last error itself (a caller passing it on): copy them first. */
    char file[NTIDX_ERROR_MAX], what[NTIDX_ERROR_MAX];
    snprintf(file, sizeof file, "%s", file_in ? file_in : "");
    snprintf(what, sizeof what, "%s", what_in ? what_in : "");
    snprintf(last.file, sizeof last.file, "%s", file);
    int n = 0;
    if (last.file[0])
        n = snprintf(last.message, sizeof last.message, "%s: ", last.file);
    size_t detail_at = n >= 0 && (size_t)n < sizeof last.message ? (size_t)n : sizeof last.message - 1;
    if (n >= 0 && (size_t)n < sizeof last.message && has_offset)
        n += snprintf(last.message + n, sizeof last.message - (size_t)n, "offset %llu (0x%llx): ",
                      (unsigned long long)offset, (unsigned long long)offset);
    size_t what_at = n >= 0 && (size_t)n < sizeof last.message ? (size_t)n : sizeof last.message - 1;
    snprintf(last.message + what_at, sizeof last.message - what_at, "%s", what);
    last.count++;
    last.info.code = code;
    last.info.file = last.file;
    last.info.offset = has_offset ? offset : NTIDX_NO_OFFSET;
    last.info.what = last.message + what_at;
    last.info.detail = last.message + detail_at;
    last.info.message = last.message;
    return code;
}

int ntx_fail(int code, const char *file, const ntx_err *e)
{
    if (e && e->code)
        return publish(e->code, file, e->has_offset, e->offset, e->msg + e->what_at);
    return publish(code, file, 0, 0, ntidx_strerror(code));
}

int ntx_failf(int code, const char *file, uint64_t offset, const char *fmt, ...)
{
    char what[NTIDX_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return publish(code, file, offset != NTIDX_NO_OFFSET, offset, what);
}

unsigned long ntx_error_count(void) { return last.count; }

int ntx_err_from_last(ntx_err *e, int code)
{
    if (last.info.code == NTIDX_OK)
        return ntx_err_set(e, code, "%s", ntidx_strerror(code));
    if (last.info.offset != NTIDX_NO_OFFSET)
        return ntx_err_at(e, last.info.code, last.info.offset, "%s", last.info.what);
    return ntx_err_set(e, last.info.code, "%s", last.info.what);
}

NTIDX_API const char *ntidx_last_error(void) { return last.message; }
NTIDX_API const ntidx_error_info *ntidx_last_error_info(void) { return &last.info; }
