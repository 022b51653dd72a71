/* The memory-mapped file: the default source of a local trace (source.h). */
#include "source.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "map.h"
#include "ntidx/ntidx.h"

typedef struct {
    ntx_source s;
    ntx_map map;
} mmap_source;

static int mmap_read(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err)
{
    memcpy(buf, (const uint8_t *)((mmap_source *)s)->map.base + off, len);
    return NTIDX_OK;
}

static const uint8_t *mmap_map(ntx_source *s) { return ((mmap_source *)s)->map.base; }

static void mmap_prefetch(ntx_source *s, uint64_t off, uint64_t len)
{
    ntx_map_advise(&((mmap_source *)s)->map, off, len, NTX_ADVISE_WILLNEED);
}

static void mmap_release(ntx_source *s, uint64_t off, uint64_t len)
{
    ntx_map_advise(&((mmap_source *)s)->map, off, len, NTX_ADVISE_DONTNEED);
}

static void mmap_close(ntx_source *s)
{
    mmap_source *m = (mmap_source *)s;
    ntx_map_close(&m->map);
    ntx_source_fini(s);
    free(m);
}

static const struct ntx_source_ops mmap_ops = {mmap_read, mmap_map, mmap_prefetch, mmap_release, mmap_close, NULL};

int ntx_source_open_mmap(ntx_source **out, const char *path, ntx_err *err)
{
    *out = NULL;
    mmap_source *m = calloc(1, sizeof *m);
    if (!m)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    int fd = -1;
    int rc = ntx_source_init(&m->s, &mmap_ops, path, err);
    if (rc == NTIDX_OK)
        rc = ntx_map_open(&m->map, path, NULL, &fd, err);
    if (rc != NTIDX_OK) {
        ntx_source_fini(&m->s);
        free(m);
        return rc;
    }
    struct stat st;
    if (fstat(fd, &st) == 0) {
        m->s.id.inode = (uint64_t)st.st_ino;
        m->s.id.device = (uint64_t)st.st_dev;
    }
    close(fd);
    m->s.id.size = m->map.size;
    m->s.id.mtime_ns = m->map.mtime_ns;
    m->s.id.ctime_ns = m->map.ctime_ns;
    ntx_map_advise(&m->map, 0, m->map.size, NTX_ADVISE_RANDOM); /* nothing reads ahead by itself */
    *out = &m->s;
    return NTIDX_OK;
}
