/*
 * The side index written (docs/index-format.md): serialized whole, into a
 * locked temporary beside the target renamed over it (a device or FIFO is
 * written in place), with stale temporaries of killed writers removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "index_internal.h"

/* Every failure of a public call here is about the index file: it is named as the error's file. */
#define say(path, code, ...) ntx_failf(code, path, NTIDX_NO_OFFSET, __VA_ARGS__)

typedef struct section_out {
    uint32_t id, entry;
    const uint8_t *data;
    uint64_t count;
} section_out;

static int write_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

static uint64_t align8(uint64_t v) { return (v + 7) & ~(uint64_t)7; }

/*
 * Remove the temporaries that writers killed before their rename left beside
 * `path` (PATH.tmp.XXXXXX). A live writer holds an flock() on its temporary
 * until it has renamed it, so only a file nobody holds a lock on is removed,
 * and only if the name still refers to the file that was locked.
 */
static void remove_stale_temporaries(const char *path)
{
    char *dcopy = strdup(path), *bcopy = strdup(path);
    DIR *d = NULL;
    if (!dcopy || !bcopy)
        goto out;
    const char *base = basename(bcopy);
    size_t blen = strlen(base);
    d = opendir(dirname(dcopy));
    if (!d)
        goto out;
    int dfd = dirfd(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (strlen(n) != blen + 5 + 6 || strncmp(n, base, blen) != 0 || strncmp(n + blen, ".tmp.", 5) != 0)
            continue;
        int fd = openat(dfd, n, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat a, b;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && a.st_nlink > 0 &&
            fstatat(dfd, n, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            (void)unlinkat(dfd, n, 0);
        close(fd);
    }
out:
    if (d)
        closedir(d);
    free(dcopy);
    free(bcopy);
}

/*
 * The index's bytes, written to `fd` from where it is. `x` is checked whole. Returns NTIDX_OK,
 * NTIDX_E_NOMEM (said, naming `path`) or NTIDX_E_IO with errno set (a write failed; not said).
 */
static int serialize(const ntidx_index *x, int fd, const char *path)
{
    uint8_t stat[NTX_TRACE_STAT_ENTRY];
    ntx_store64(stat, (uint64_t)x->trace_ctime_ns);
    /* FILTERS is present exactly when FULL, also with no block (a trace with nothing after its trace
       block: the builder then has no filter storage, x->tb.filters is NULL): the loader requires it. */
    int full = (x->tb.flags & NTX_IF_FULL) != 0;
    /* One checksum per region over its block (and filter) entries: loads of large indexes check
       regions on first use (index_check.c). */
    uint8_t *sums = malloc(x->tb.nregions ? (size_t)x->tb.nregions * NTX_REGION_SUM_ENTRY : 1);
    if (!sums)
        return say(path, NTIDX_E_NOMEM, "out of memory");
    for (uint64_t r = 0; r < x->tb.nregions; r++) {
        uint64_t f = ntx_rg_first(x, r), e = ntx_rg_end(x, r);
        ntx_store64(sums + r * NTX_REGION_SUM_ENTRY, ntx_xxh3(x->tb.blocks ? x->tb.blocks + f * x->tb.sb : (const uint8_t *)"",
                                                        (size_t)((e - f) * x->tb.sb)));
        ntx_store64(sums + r * NTX_REGION_SUM_ENTRY + 8,
             x->tb.filters ? ntx_xxh3(x->tb.filters + f * x->tb.sf, (size_t)((e - f) * x->tb.sf)) : 0);
    }
    /* File order (from format 1.4): every section a load reads whole (and every query needs first) right
       after the header, so that one read from the start of the file holds them; BLOCKS and FILTERS, read a
       region at a time, last. The directory lists them in this order. */
    section_out sec[12];
    int nsec = 0;
    sec[nsec++] = (section_out){NTX_SEC_TRACE_STAT, NTX_TRACE_STAT_ENTRY, stat, 1};
    sec[nsec++] = (section_out){NTX_SEC_REGIONS, x->tb.sr, x->tb.regions, x->tb.nregions};
    sec[nsec++] = (section_out){NTX_SEC_SEQPOINTS, x->tb.ss, x->tb.sps, x->tb.nsps};
    sec[nsec++] = (section_out){NTX_SEC_DEFS, x->tb.sd, x->tb.defs, x->tb.ndefs};
    sec[nsec++] = (section_out){NTX_SEC_REGION_SUMS, NTX_REGION_SUM_ENTRY, sums, x->tb.nregions};
    if (x->rstats) {
        sec[nsec++] = (section_out){NTX_SEC_REGION_STATS, x->srst, x->rstats, x->tb.nregions};
        sec[nsec++] = (section_out){NTX_SEC_TYPE_COUNTS, x->stc, x->tcounts, x->ntcounts};
        sec[nsec++] = (section_out){NTX_SEC_THREAD_COUNTS, x->sthc, x->thcounts, x->nthcounts};
        sec[nsec++] = (section_out){NTX_SEC_DROP_COUNTS, x->sdc, x->dcounts, x->ndcounts};
        sec[nsec++] = (section_out){NTX_SEC_STRINGS, NTX_STRING_ENTRY, x->strings, x->strings_len};
    }
    sec[nsec++] = (section_out){NTX_SEC_BLOCKS, x->tb.sb, x->tb.blocks, x->tb.nblocks};
    if (full)
        sec[nsec++] = (section_out){NTX_SEC_FILTERS, x->tb.sf, x->tb.filters, x->tb.nblocks};
    /* The directory and the header's own checksum must fit: 512 bytes hold 11 entries, a --full index
       with region statistics has 12 (header_size is recorded; every reader takes it from there). */
    uint32_t hsize = NTX_IDX_HEADER_SIZE;
    while (hsize < NTX_IH_DIRECTORY + (uint32_t)nsec * NTX_IDX_DIRENT_SIZE + 8)
        hsize += 8;
    uint8_t h[NTX_IDX_HEADER_SIZE + 64];
    memset(h, 0, sizeof h);
    memcpy(h + NTX_IH_MAGIC, NTX_IDX_MAGIC, 8);
    ntx_store16(h + NTX_IH_MAJOR, NTX_IDX_MAJOR);
    ntx_store16(h + NTX_IH_MINOR, NTX_IDX_MINOR);
    ntx_store32(h + NTX_IH_HEADER_SIZE, hsize);
    ntx_store32(h + NTX_IH_FLAGS, x->tb.flags);
    ntx_store32(h + NTX_IH_SECTION_COUNT, (uint32_t)nsec);
    ntx_store64(h + NTX_IH_TRACE_SIZE, x->trace_size);
    ntx_store64(h + NTX_IH_TRACE_MTIME, (uint64_t)x->trace_mtime_ns);
    ntx_store64(h + NTX_IH_HEAD_HASH, x->head_hash);
    ntx_store64(h + NTX_IH_INDEXED_END, x->indexed_end);
    ntx_store64(h + NTX_IH_LAST_BLOCK_OFF, x->last_block_off);
    ntx_store64(h + NTX_IH_LAST_BLOCK_HASH, x->last_block_hash);
    ntx_store32(h + NTX_IH_FORMAT_VERSION, x->format_version);
    ntx_store32(h + NTX_IH_POINTER_SIZE, x->pointer_size);
    ntx_store64(h + NTX_IH_SYNC_TICKS, (uint64_t)x->sync_ticks);
    ntx_store64(h + NTX_IH_TICK_FREQ, (uint64_t)x->tick_frequency);
    ntx_store64(h + NTX_IH_FIRST_TS, x->first_ts);
    ntx_store64(h + NTX_IH_LAST_TS, x->last_ts);
    ntx_store64(h + NTX_IH_EVENTS, x->events);
    ntx_store64(h + NTX_IH_FIRST_BLOCK, x->first_block);
    uint64_t off = hsize;
    for (int i = 0; i < nsec; i++) {
        uint8_t *d = h + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE;
        uint64_t len = sec[i].count * sec[i].entry;
        ntx_store32(d, sec[i].id);
        ntx_store32(d + 4, sec[i].entry);
        ntx_store64(d + 8, off);
        ntx_store64(d + 16, sec[i].count);
        ntx_store64(d + 24, ntx_xxh3(len ? sec[i].data : (const void *)"", (size_t)len));
        off = align8(off + len);
    }
    ntx_store64(h + hsize - 8, ntx_xxh3(h, hsize - 8));

    static const uint8_t zeros[8];
    int bad = write_all(fd, h, hsize);
    uint64_t pos = hsize;
    for (int i = 0; i < nsec && !bad; i++) {
        uint64_t len = sec[i].count * sec[i].entry;
        if (len)
            bad = write_all(fd, sec[i].data, (size_t)len);
        pos += len;
        if (!bad && align8(pos) != pos) {
            bad = write_all(fd, zeros, (size_t)(align8(pos) - pos));
            pos = align8(pos);
        }
    }
    if (!bad)
        bad = write_all(fd, NTX_IDX_FOOTER, 8);
    int e = errno;
    free(sums);
    errno = e;
    return bad ? NTIDX_E_IO : NTIDX_OK;
}

/* An index about to be written, checked whole (a lazily checked one is checked before it is copied anywhere). */
static int ready_to_write(const ntidx_index *x)
{
    ntx_err cerr = {0};
    if (ntx_index_need_all(x, &cerr) < 0)
        return ntx_fail(cerr.code, x->name, &cerr);
    return NTIDX_OK;
}

NTIDX_API int ntidx_index_write_fd(const ntidx_index *x, int fd, const char *name)
{
    if (!x || fd < 0)
        return say(name, NTIDX_E_INVALID_ARG, "ntidx_index_write_fd: NULL index or no descriptor");
    int rc = ready_to_write(x);
    if (rc < 0)
        return rc;
    rc = serialize(x, fd, name);
    if (rc == NTIDX_E_IO)
        return say(name, NTIDX_E_IO, "cannot write: %s", strerror(errno));
    return rc;
}

NTIDX_API int ntidx_index_write(const ntidx_index *x, const char *path)
{
    if (!x || !path)
        return say(path, NTIDX_E_INVALID_ARG, "ntidx_index_write: NULL argument");
    int rc = ready_to_write(x);
    if (rc < 0)
        return rc;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        /* A device or a FIFO: written in place, since a rename over it would replace it with a file. */
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return say(path, NTIDX_E_IO, "cannot write: %s", strerror(errno));
        rc = serialize(x, fd, path);
        int e = errno;
        if (close(fd) != 0 && rc == NTIDX_OK) {
            rc = NTIDX_E_IO;
            e = errno;
        }
        return rc == NTIDX_E_IO ? say(path, NTIDX_E_IO, "cannot write: %s", strerror(e)) : rc;
    }
    /* Temporary file in the same directory, so the rename is atomic. It is locked for as long
       as its name exists: remove_stale_temporaries() removes only unlocked ones. */
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return say(path, NTIDX_E_NOMEM, "out of memory");
    int fd = -1;
    for (int attempt = 0; attempt < 16; attempt++) {
        snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
        fd = mkstemp(tmp);
        if (fd < 0)
            break;
        struct stat st;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &st) == 0 && st.st_nlink > 0)
            break;
        /* Another writer's clean-up took it between mkstemp() and flock(): that writer removes the name. */
        close(fd);
        fd = -1;
        errno = EEXIST;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return say(path, NTIDX_E_IO, "cannot create a temporary file beside it: %s", strerror(e));
    }
    rc = serialize(x, fd, path);
    int bad = rc != NTIDX_OK;
    if (rc == NTIDX_E_NOMEM) {
        unlink(tmp);
        close(fd);
        free(tmp);
        return rc;
    }
    /* an index replaced keeps its permissions; a new one is readable by all, as a trace beside it usually is */
    mode_t mode = 0644;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        mode = st.st_mode & 07777;
    if (!bad)
        bad = fchmod(fd, mode) != 0 || fsync(fd) != 0;
    int e = errno;
    /* Renamed while still locked (the data is on disk: fsync succeeded), then closed. */
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad)
        unlink(tmp);
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        free(tmp);
        return say(path, NTIDX_E_IO, "cannot write: %s", strerror(e));
    }
    free(tmp);
    remove_stale_temporaries(path);
    /* Make the rename itself durable. */
    char *dcopy = strdup(path);
    if (dcopy) {
        int dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dcopy);
    }
    return NTIDX_OK;
}

