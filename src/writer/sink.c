/* Output sink: buffered file writes or a growing memory buffer (see sink.h). */
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <ntidx/ntidx.h>

int ntidx_w_sink_open_file(ntidx_w_sink *s, const char *path)
{
    memset(s, 0, sizeof(*s));
    s->fd = -1;
    s->buf = malloc(NTIDX_W_SINK_CHUNK);
    if (!s->buf)
        return NTIDX_E_NOMEM;
    s->cap = NTIDX_W_SINK_CHUNK;
    s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (s->fd < 0) {
        s->saved_errno = errno;
        free(s->buf);
        s->buf = NULL;
        return NTIDX_E_IO;
    }
    s->owns_fd = 1;
    return NTIDX_OK;
}

int ntidx_w_sink_open_fd(ntidx_w_sink *s, int fd)
{
    memset(s, 0, sizeof(*s));
    s->fd = -1;
    s->buf = malloc(NTIDX_W_SINK_CHUNK);
    if (!s->buf)
        return NTIDX_E_NOMEM;
    s->cap = NTIDX_W_SINK_CHUNK;
    s->fd = fd;
    return NTIDX_OK;
}

int ntidx_w_sink_open_memory(ntidx_w_sink *s)
{
    memset(s, 0, sizeof(*s));
    s->fd = -1;
    s->cap = 1u << 16;
    s->buf = malloc(s->cap);
    return s->buf ? NTIDX_OK : NTIDX_E_NOMEM;
}

static int write_all(ntidx_w_sink *s, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(s->fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            s->saved_errno = errno;
            s->err = NTIDX_E_WRITE;
            return s->err;
        }
        p += k;
        n -= (size_t)k;
        s->flushed += (uint64_t)k;
    }
    return 0;
}

int ntidx_w_sink_flush(ntidx_w_sink *s)
{
    if (s->err)
        return s->err;
    if (s->fd < 0 || s->len == 0)
        return 0;
    int rc = write_all(s, s->buf, s->len);
    s->len = 0;
    return rc;
}

int ntidx_w_sink_write(ntidx_w_sink *s, const void *data, size_t n)
{
    if (s->err)
        return s->err;
    if (n <= s->cap - s->len) {
        memcpy(s->buf + s->len, data, n);
        s->len += n;
        return 0;
    }
    if (s->fd >= 0) {
        if (ntidx_w_sink_flush(s))
            return s->err;
        if (n >= s->cap) /* larger than a chunk: skip the copy */
            return write_all(s, data, n);
        memcpy(s->buf, data, n);
        s->len = n;
        return 0;
    }
    size_t cap = s->cap;
    while (n > cap - s->len) {
        if (cap > SIZE_MAX / 2) {
            s->err = NTIDX_E_NOMEM;
            return s->err;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(s->buf, cap);
    if (!p) {
        s->err = NTIDX_E_NOMEM;
        return s->err;
    }
    s->buf = p;
    s->cap = cap;
    memcpy(s->buf + s->len, data, n);
    s->len += n;
    return 0;
}

/* Blocks at least this large skip the copy into the chunk buffer. */
#define DIRECT_WRITE_MIN (64u << 10)

int ntidx_w_sink_writev(ntidx_w_sink *s, const ntidx_w_piece *pieces, int count)
{
    if (s->err)
        return s->err;
    size_t total = 0;
    for (int i = 0; i < count; i++)
        total += pieces[i].n;
    if (s->fd < 0 || total < DIRECT_WRITE_MIN || count > 8) {
        for (int i = 0; i < count; i++)
            if (pieces[i].n && ntidx_w_sink_write(s, pieces[i].p, pieces[i].n))
                return s->err;
        return 0;
    }
    if (ntidx_w_sink_flush(s))
        return s->err;
    struct iovec iov[8];
    int n = 0;
    for (int i = 0; i < count; i++)
        if (pieces[i].n) {
            iov[n].iov_base = (void *)pieces[i].p;
            iov[n].iov_len = pieces[i].n;
            n++;
        }
    struct iovec *v = iov;
    while (n > 0) {
        ssize_t k = writev(s->fd, v, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            s->saved_errno = errno;
            s->err = NTIDX_E_WRITE;
            return s->err;
        }
        s->flushed += (uint64_t)k;
        /* Partial write: skip what went out and go on with the rest. */
        size_t done = (size_t)k;
        while (n > 0 && done >= v->iov_len) {
            done -= v->iov_len;
            v++;
            n--;
        }
        if (n > 0) {
            v->iov_base = (uint8_t *)v->iov_base + done;
            v->iov_len -= done;
        }
    }
    return 0;
}

int ntidx_w_sink_close(ntidx_w_sink *s)
{
    int rc = 0;
    if (s->fd >= 0) {
        rc = ntidx_w_sink_flush(s);
        if (s->owns_fd && close(s->fd) != 0 && rc == 0) {
            s->saved_errno = errno;
            rc = s->err = NTIDX_E_WRITE;
        }
        s->fd = -1;
    }
    if (rc == 0)
        rc = s->err;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
    return rc;
}
