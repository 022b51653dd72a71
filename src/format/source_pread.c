/* A local file read with pread(): for a file that may change under the reader, where a mapping
   would fault (source.h). */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ntidx/ntidx.h"

typedef struct {
    ntx_source s;
    int fd;
} pread_source;

static int pread_read(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err)
{
    int fd = ((pread_source *)s)->fd;
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = pread(fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return ntx_err_at(err, NTIDX_E_IO, off, "cannot read: %s", strerror(errno));
        if (n == 0)
            return ntx_err_at(err, NTIDX_E_SHRUNK, off, "the file ends here, it was %llu bytes long when opened",
                              (unsigned long long)s->id.size);
        p += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    return NTIDX_OK;
}

static void pread_prefetch(ntx_source *s, uint64_t off, uint64_t len)
{
    (void)posix_fadvise(((pread_source *)s)->fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
}

static void pread_release(ntx_source *s, uint64_t off, uint64_t len)
{
    (void)posix_fadvise(((pread_source *)s)->fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
}

static void pread_close(ntx_source *s)
{
    pread_source *p = (pread_source *)s;
    if (p->fd >= 0)
        close(p->fd);
    ntx_source_fini(s);
    free(p);
}

static const struct ntx_source_ops pread_ops = {pread_read, NULL, pread_prefetch, pread_release, pread_close, NULL};

int ntx_source_open_pread(ntx_source **out, const char *path, ntx_err *err)
{
    *out = NULL;
    pread_source *p = calloc(1, sizeof *p);
    if (!p)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    p->fd = -1;
    int rc = ntx_source_init(&p->s, &pread_ops, path, err);
    if (rc != NTIDX_OK) {
        free(p);
        return rc;
    }
    struct stat st;
    p->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (p->fd < 0)
        rc = ntx_err_set(err, NTIDX_E_IO, "cannot open: %s", strerror(errno));
    else if (fstat(p->fd, &st) != 0)
        rc = ntx_err_set(err, NTIDX_E_IO, "cannot stat: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = ntx_err_set(err, NTIDX_E_IO, "not a regular file");
    if (rc != NTIDX_OK) {
        pread_close(&p->s);
        return rc;
    }
    (void)posix_fadvise(p->fd, 0, 0, POSIX_FADV_RANDOM);
    p->s.id.size = (uint64_t)st.st_size;
    p->s.id.inode = (uint64_t)st.st_ino;
    p->s.id.device = (uint64_t)st.st_dev;
    p->s.id.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    p->s.id.ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
    *out = &p->s;
    return NTIDX_OK;
}
