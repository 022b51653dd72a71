#include "map.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older kernels refuse it (EINVAL), and pages fault in as before */
#endif
#include <sys/stat.h>
#include <unistd.h>

#include "ntidx/ntidx.h"

int ntx_map_open(ntx_map *m, const char *path, ntx_fault_word *fault, int *fd_out, ntx_err *err)
{
    memset(m, 0, sizeof *m);
    if (fd_out)
        *fd_out = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ntx_err_set(err, NTIDX_E_IO, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return ntx_err_set(err, NTIDX_E_IO, "cannot stat: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return ntx_err_set(err, NTIDX_E_IO, "not a regular file");
    }
    m->size = (uint64_t)st.st_size;
    m->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    m->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
    if (m->size > 0) {
        if (m->size > (uint64_t)SIZE_MAX) {
            close(fd);
            return ntx_err_set(err, NTIDX_E_IO, "file too large to map on this platform");
        }
        void *p = mmap(NULL, (size_t)m->size, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return ntx_err_set(err, NTIDX_E_IO, "cannot map: %s", strerror(e));
        }
        m->base = p;
        if (fault)
            m->guard = ntx_guard_add(p, (size_t)m->size, fault);
    }
    if (fd_out)
        *fd_out = fd;
    else
        close(fd);
    return NTIDX_OK;
}

void ntx_map_close(ntx_map *m)
{
    ntx_guard_remove(m->guard); /* first: once unmapped, the address may be another mapping's */
    if (m->base)
        munmap(m->base, (size_t)m->size);
    memset(m, 0, sizeof *m);
}

void ntx_map_advise(const ntx_map *m, uint64_t off, uint64_t len, enum ntx_advice a)
{
    if (!m->base || off >= m->size)
        return;
    if (len > m->size - off)
        len = m->size - off;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t start = off & ~(page - 1);
    uint64_t end = off + len;
    static const int advice[] = {[NTX_ADVISE_SEQUENTIAL] = MADV_SEQUENTIAL, [NTX_ADVISE_RANDOM] = MADV_RANDOM,
                                 [NTX_ADVISE_DONTNEED] = MADV_DONTNEED, [NTX_ADVISE_WILLNEED] = MADV_WILLNEED,
                                 [NTX_ADVISE_POPULATE] = MADV_POPULATE_READ, [NTX_ADVISE_HUGEPAGE] = MADV_HUGEPAGE};
    int adv = advice[a];
    (void)madvise((char *)m->base + start, (size_t)(end - start), adv);
}
