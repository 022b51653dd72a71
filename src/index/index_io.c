/*
 * The side index on disk: serialization with an atomic replace, and a
 * loader that trusts nothing (LMDB/babeltrace discipline): magic and version
 * first, header and section checksums, every offset and count checked
 * against the file before use, structure validated, then the trace's
 * identity compared.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"

#include "index_internal.h"


/* Every failure of a public call here is about the index file: it is named as the error's file. */
#define say(path, code, ...) ntx_failf(code, path, NTIDX_NO_OFFSET, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

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
 * The index's bytes, written to `fd` from where it is. `x` is current and checked whole. Returns NTIDX_OK,
 * NTIDX_E_NOMEM (said, naming `path`) or NTIDX_E_IO with errno set (a write failed; not said).
 */
static int serialize(const ntidx_index *x, int fd, const char *path)
{
    uint8_t stat[NTX_TRACE_STAT_ENTRY];
    ntx_store64(stat, (uint64_t)x->trace_ctime_ns);
    /* FILTERS is present exactly when FULL, also with no block (a trace with nothing after its trace
       block: the builder then has no filter storage, x->filters is NULL): the loader requires it. */
    int full = (x->flags & NTX_IF_FULL) != 0;
    /* One checksum per region over its block (and filter) entries: loads of large indexes check
       regions on first use (index_check.c). */
    uint8_t *sums = malloc(x->nregions ? (size_t)x->nregions * NTX_REGION_SUM_ENTRY : 1);
    if (!sums)
        return say(path, NTIDX_E_NOMEM, "out of memory");
    for (uint64_t r = 0; r < x->nregions; r++) {
        uint64_t f = ntx_rg_first(x, r), e = ntx_rg_end(x, r);
        ntx_store64(sums + r * NTX_REGION_SUM_ENTRY, ntx_xxh3(x->blocks ? x->blocks + f * x->sb : (const uint8_t *)"",
                                                        (size_t)((e - f) * x->sb)));
        ntx_store64(sums + r * NTX_REGION_SUM_ENTRY + 8,
             x->filters ? ntx_xxh3(x->filters + f * x->sf, (size_t)((e - f) * x->sf)) : 0);
    }
    /* File order (from format 1.4): every section a load reads whole (and every query needs first) right
       after the header, so that one read from the start of the file holds them; BLOCKS and FILTERS, read a
       region at a time, last. The directory lists them in this order. */
    section_out sec[12];
    int nsec = 0;
    sec[nsec++] = (section_out){NTX_SEC_TRACE_STAT, NTX_TRACE_STAT_ENTRY, stat, 1};
    sec[nsec++] = (section_out){NTX_SEC_REGIONS, x->sr, x->regions, x->nregions};
    sec[nsec++] = (section_out){NTX_SEC_SEQPOINTS, x->ss, x->sps, x->nsps};
    sec[nsec++] = (section_out){NTX_SEC_DEFS, x->sd, x->defs, x->ndefs};
    sec[nsec++] = (section_out){NTX_SEC_REGION_SUMS, NTX_REGION_SUM_ENTRY, sums, x->nregions};
    if (x->rstats) {
        sec[nsec++] = (section_out){NTX_SEC_REGION_STATS, x->srst, x->rstats, x->nregions};
        sec[nsec++] = (section_out){NTX_SEC_TYPE_COUNTS, x->stc, x->tcounts, x->ntcounts};
        sec[nsec++] = (section_out){NTX_SEC_THREAD_COUNTS, x->sthc, x->thcounts, x->nthcounts};
        sec[nsec++] = (section_out){NTX_SEC_DROP_COUNTS, x->sdc, x->dcounts, x->ndcounts};
        sec[nsec++] = (section_out){NTX_SEC_STRINGS, NTX_STRING_ENTRY, x->strings, x->strings_len};
    }
    sec[nsec++] = (section_out){NTX_SEC_BLOCKS, x->sb, x->blocks, x->nblocks};
    if (full)
        sec[nsec++] = (section_out){NTX_SEC_FILTERS, x->sf, x->filters, x->nblocks};
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
    ntx_store32(h + NTX_IH_FLAGS, x->flags);
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

/* The index to write: the current one of `x`, checked whole (a lazily checked one is checked before it is
   copied anywhere). */
static int ready_to_write(const ntidx_index **x)
{
    *x = ntx_index_current(*x);
    ntx_err cerr = {0};
    if (ntx_index_need_all(*x, &cerr) < 0)
        return ntx_fail(cerr.code, (*x)->name, &cerr);
    return NTIDX_OK;
}

NTIDX_API int ntidx_index_write_fd(const ntidx_index *x, int fd, const char *name)
{
    if (!x || fd < 0)
        return say(name, NTIDX_E_INVALID_ARG, "ntidx_index_write_fd: NULL index or no descriptor");
    int rc = ready_to_write(&x);
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
    int rc = ready_to_write(&x);
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
    tmp[0] = '\0'; /* the temporary's name, once it has one: removed on failure */
    int fd = -1, unnamed = 0;
#ifdef O_TMPFILE
    /* First an unnamed temporary (O_TMPFILE), given a name only once written and synced, just before
       the rename: a writer killed before that leaves nothing behind, so no write has to list the folder
       for what killed writers left (a batch job keeps thousands of indexes in one). Where the file system
       or the kernel has none (EOPNOTSUPP, EISDIR, EINVAL), or it cannot be named, a named one as before. */
    char *dir = strdup(path);
    if (dir) {
        fd = open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        free(dir);
    }
    unnamed = fd >= 0;
    if (unnamed && flock(fd, LOCK_EX | LOCK_NB) != 0) { /* held once named, as a named temporary's */
        close(fd);
        fd = -1;
        unnamed = 0;
    }
named:
#endif
    for (int attempt = 0; !unnamed && attempt < 16; attempt++) {
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
        if (tmp[0])
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
#ifdef O_TMPFILE
    /* The unnamed temporary gets a name of the named ones' pattern (PATH.tmp.XXXXXX, locked), then is
       renamed like them. linkat(AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; /proc/self/fd/N does not. */
    if (unnamed && !bad) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_sec;
        int linked = 0;
        for (int attempt = 0; attempt < 16 && !linked; attempt++) {
            snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
            for (int k = 0; k < 6; k++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                tmp[plen + 5 + k] = digits[(seed >> 33) % 62];
            }
            linked = linkat(fd, "", AT_FDCWD, tmp, AT_EMPTY_PATH) == 0 ||
                     (errno != EEXIST && linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0);
            if (!linked && errno != EEXIST)
                break;
        }
        if (!linked) { /* no way to name it here: written again into a named temporary */
            tmp[0] = '\0';
            close(fd);
            fd = -1;
            unnamed = 0;
            goto named;
        }
    }
#endif
    /* Renamed while still locked (the data is on disk: fsync succeeded), then closed. */
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad && tmp[0])
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
    if (!unnamed) /* an unnamed temporary's writer, killed, left nothing to remove */
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

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

static const uint32_t min_entry[13] = {0,
                                      NTX_BLOCK_ENTRY,
                                      NTX_SP_ENTRY,
                                      NTX_REGION_ENTRY,
                                      NTX_DEF_ENTRY,
                                      NTX_FILTER_ENTRY,
                                      NTX_TRACE_STAT_ENTRY,
                                      NTX_REGION_SUM_ENTRY,
                                      NTX_RSTAT_ENTRY,
                                      NTX_TCOUNT_ENTRY,
                                      NTX_THCOUNT_ENTRY,
                                      NTX_DCOUNT_ENTRY,
                                      NTX_STRING_ENTRY};


/* Whether the file grows past `size` within a few milliseconds (an append in flight). */
static int size_grows(int fd, uint64_t size)
{
    for (int i = 0; fd >= 0 && i < 5; i++) {
        struct stat st;
        if (fstat(fd, &st) != 0)
            return 0;
        if ((uint64_t)st.st_size > size)
            return 1;
        struct timespec ms = {0, 2000000};
        nanosleep(&ms, NULL);
    }
    return 0;
}

/*
 * How long after the trace's last change an index must have been written for
 * its recorded times alone to prove the trace unchanged (below).
 */
#define NTX_SETTLED_NS 2000000000LL

/*
 * Whether the trace's times as recorded prove it unchanged since it was
 * indexed, so that the identity check need not read it: the same size,
 * modification and change time, and an index written well after that change
 * time. Any write moves the change time, which no user can set; file times
 * are coarse (a few ms), so a rewrite within one tick of the indexed state
 * could keep it, which cannot happen once the index was written seconds
 * after it (a trace changed while it was being indexed excepted, as before).
 * Saves reading the first MiB and the last block: on a cold page cache most
 * of what a query reads.
 */
static int times_prove_unchanged(const ntidx_index *x, const ntidx_trace *t)
{
    return t->map && x->has_trace_stat && x->index_written_ns && t->size == x->trace_size &&
           t->mtime_ns == x->trace_mtime_ns && t->ctime_ns == x->trace_ctime_ns &&
           x->index_written_ns - x->trace_ctime_ns >= NTX_SETTLED_NS;
}

/* A hash that differs because the trace shrank while it was hashed (its lost pages read as zeros,
   trace_internal.h): that error, published, rather than a stale index; else 0. */
static int hashed_zeros(const ntidx_trace *t)
{
    ntx_err e = {0};
    int rc = ntx_trace_check(t, &e);
    return rc < 0 ? ntx_fail(rc, t->name, &e) : 0;
}

/* Compare the index's identity with the trace as it is now. */
static int identity(const ntidx_index *x, const ntidx_trace *t, ntidx_index_state *state, const char *path)
{
    if (x->format_version != (uint32_t)t->info.format_version || x->pointer_size != t->info.pointer_size ||
        x->sync_ticks != t->info.sync_ticks || x->tick_frequency != t->info.tick_frequency)
        return say(path, NTIDX_E_INDEX_STALE, "the index describes a different trace (trace header differs)");
    if (t->size < x->trace_size)
        return say(path, NTIDX_E_INDEX_STALE, "the trace shrank from %llu to %llu bytes since it was indexed",
                   (unsigned long long)x->trace_size, (unsigned long long)t->size);
    if (times_prove_unchanged(x, t)) {
        *state = NTIDX_INDEX_CURRENT;
        return NTIDX_OK;
    }
    uint64_t head = x->trace_size < NTX_IDX_HEAD_HASH_BYTES ? x->trace_size : NTX_IDX_HEAD_HASH_BYTES;
    int zeros;
    if (ntx_trace_range_hash(t, 0, head) != x->head_hash)
        return (zeros = hashed_zeros(t)) < 0
                   ? zeros
                   : say(path, NTIDX_E_INDEX_STALE, "the trace's first bytes changed since it was indexed");
    if (x->nblocks &&
        ntx_trace_range_hash(t, x->last_block_off, ntx_blk_size(x, x->nblocks - 1)) != x->last_block_hash)
        return (zeros = hashed_zeros(t)) < 0 ? zeros
                                             : say(path, NTIDX_E_INDEX_STALE,
                                                   "the trace's last indexed block (offset %llu) changed",
                                                   (unsigned long long)x->last_block_off);
    if (t->size == x->trace_size) {
        /* A write appending to the trace moves its times before its size: seen in between, an append
           looks like a rewrite in place. A trace still being written that is seen to grow is GROWN. */
        if ((t->mtime_ns != x->trace_mtime_ns || (x->has_trace_stat && t->ctime_ns != x->trace_ctime_ns)) && t->map &&
            !(x->flags & NTX_IF_COMPLETE) && size_grows(t->fd, x->trace_size)) {
            *state = NTIDX_INDEX_GROWN;
            return NTIDX_OK;
        }
        if (t->mtime_ns != x->trace_mtime_ns && t->map)
            return say(path, NTIDX_E_INDEX_STALE, "the trace was modified in place since it was indexed");
        /* Size and mtime can both be kept by a rewrite (touch -d, cp --preserve): the change time cannot. */
        if (!x->has_trace_stat && t->map)
            return say(path, NTIDX_E_INDEX_STALE,
                       "the index (format 1.0) does not record the trace's change time: cannot tell a rewrite");
        if (t->ctime_ns != x->trace_ctime_ns && t->map)
            return say(path, NTIDX_E_INDEX_STALE,
                       "the trace's change time moved since it was indexed (rewritten in place, or its inode changed)");
        *state = NTIDX_INDEX_CURRENT;
        return NTIDX_OK;
    }
    if (x->flags & NTX_IF_COMPLETE)
        return say(path, NTIDX_E_INDEX_STALE,
                   "the trace grew after its end-of-stream marker: it was rewritten since it was indexed");
    *state = NTIDX_INDEX_GROWN;
    return NTIDX_OK;
}

/* Ask the kernel to read [off, off + len) of the mapped index (clipped to it), without waiting. */
static void willneed(const uint8_t *m, uint64_t len, uint64_t off, uint64_t n)
{
    if (off >= len || !n)
        return;
    if (n > len - off)
        n = len - off;
    uint64_t start = off & ~(uint64_t)4095;
    (void)madvise((void *)(uintptr_t)(m + start), (size_t)(off + n - start), MADV_WILLNEED);
}

/*
 * What a load reads first: a small index whole; a large one's header page
 * and its tail (the footer, and with BLOCKS or FILTERS last the entries of
 * the last region, which a load checks), in two reads that go on together.
 */
static void prefetch_ends(const uint8_t *m, uint64_t len)
{
    if (len <= NTX_IDX_FIRST_READ) {
        willneed(m, len, 0, len);
        return;
    }
    willneed(m, len, 0, 4096);
    willneed(m, len, len - NTX_IDX_TAIL_READ, NTX_IDX_TAIL_READ);
}

/* The entries that checking region r reads (see ntx_index_prefetch_region); clipped to their sections. */
static void prefetch_entries(const ntidx_index *x, uint64_t r)
{
    const uint8_t *m = x->map;
    if (!m || r >= x->nregions)
        return;
    /* The previous region's entries are checked with it (its last entry bounds this region's first). */
    uint64_t f = ntx_rg_first(x, r > 0 ? r - 1 : 0), e = ntx_rg_end(x, r);
    if (e > x->nblocks)
        e = x->nblocks;
    if (f < e && x->blocks) {
        willneed(m, x->map_len, (uint64_t)(x->blocks - m) + f * x->sb, (e - f) * x->sb);
        if (x->filters)
            willneed(m, x->map_len, (uint64_t)(x->filters - m) + f * x->sf, (e - f) * x->sf);
    }
    uint64_t s = r > 0 ? r - 1 : 0;
    if (x->region_sums)
        willneed(m, x->map_len, (uint64_t)(x->region_sums - m) + s * x->srs, (r + 1 - s) * x->srs);
    if (x->sps && r < x->nsps) /* the sequence point that closes it */
        willneed(m, x->map_len, (uint64_t)(x->sps - m) + r * x->ss, x->ss);
}

void ntx_index_prefetch_region(const ntidx_index *x, uint64_t r)
{
    /* 0 -> 3 (unchecked, pages asked for): each region's pages are asked for once */
    uint8_t unchecked = 0;
    if (x->map && x->region_ok && r < x->nregions &&
        __atomic_compare_exchange_n(&x->region_ok[r], &unchecked, (uint8_t)3, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        prefetch_entries(x, r);
}

void ntx_index_prefetch_regions(const ntidx_index *x, uint64_t r0, uint64_t r1)
{
    const uint8_t *m = x->map;
    if (r1 > x->nregions)
        r1 = x->nregions;
    if (!m || !x->region_ok || r0 >= r1)
        return;
    /* one request per section, not three per region; the region before r0 is checked with it */
    uint64_t f = ntx_rg_first(x, r0 > 0 ? r0 - 1 : 0), e = ntx_rg_end(x, r1 - 1);
    if (e > x->nblocks)
        e = x->nblocks;
    if (x->blocks && f < e)
        willneed(m, x->map_len, (uint64_t)(x->blocks - m) + f * x->sb, (e - f) * x->sb);
    if (x->filters && f < e)
        willneed(m, x->map_len, (uint64_t)(x->filters - m) + f * x->sf, (e - f) * x->sf);
    uint64_t s = r0 > 0 ? r0 - 1 : 0;
    if (x->region_sums)
        willneed(m, x->map_len, (uint64_t)(x->region_sums - m) + s * x->srs, (r1 - s) * x->srs);
    if (x->sps && s < x->nsps)
        willneed(m, x->map_len, (uint64_t)(x->sps - m) + s * x->ss, ((r1 < x->nsps ? r1 : x->nsps) - s) * x->ss);
    for (uint64_t r = r0; r < r1; r++) {
        uint8_t unchecked = 0;
        __atomic_compare_exchange_n(&x->region_ok[r], &unchecked, (uint8_t)3, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
}

/*
 * Ask for the sections a lazily checked load reads whole (every one but
 * BLOCKS, FILTERS, REGION_SUMS and SEQPOINTS), merged into as few ranges as their
 * places allow: a plain index's are one run right after the header. Offsets
 * are not trusted yet: a range outside the file is not asked for (the
 * directory check refuses it).
 */
static void prefetch_hot_sections(uint8_t *m, uint64_t len, uint32_t nsec)
{
    uint64_t lo[NTX_IDX_MAX_SECTIONS + 1], hi[NTX_IDX_MAX_SECTIONS + 1];
    int n = 0;
    lo[n] = 0;
    hi[n++] = NTX_IDX_HEADER_SIZE;
    for (uint32_t i = 0; i < nsec && i < NTX_IDX_MAX_SECTIONS; i++) {
        const uint8_t *d = m + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE;
        uint32_t id = ntx_load32(d), entry = ntx_load32(d + 4);
        uint64_t off = ntx_load64(d + 8), count = ntx_load64(d + 16);
        if (!ntx_index_section_hot(id) || off >= len || !entry || count > (len - off) / entry)
            continue;
        if (id == NTX_SEC_REGION_SUMS || id == NTX_SEC_SEQPOINTS) {
            /* read a region at a time; the last two regions' are checked at load */
            uint64_t k = count < 2 ? count : 2;
            willneed(m, len, off + (count - k) * entry, k * entry);
            continue;
        }
        /* insertion by offset (at most 12 sections) */
        int k = n++;
        while (k > 0 && lo[k - 1] > off) {
            lo[k] = lo[k - 1];
            hi[k] = hi[k - 1];
            k--;
        }
        lo[k] = off;
        hi[k] = off + count * entry;
    }
    /* Ranges less than a page apart are read as one. */
    uint64_t a = 0, b = 0;
    for (int k = 0; k <= n; k++) {
        if (k < n && (k == 0 || lo[k] <= b + 4096)) {
            if (k == 0)
                a = lo[k];
            if (hi[k] > b)
                b = hi[k];
            continue;
        }
        uint64_t start = a & ~(uint64_t)4095;
        (void)madvise(m + start, (size_t)(b - start), MADV_WILLNEED);
        if (k < n) {
            a = lo[k];
            b = hi[k];
        }
    }
}

/*
 * Validate `len` bytes at `m` (a mapping of `path`, or the caller's memory)
 * as an index of `t`. On success *out owns nothing of `m`'s storage unless
 * `own_map` (then it unmaps it on close).
 */
static int load_bytes(ntidx_trace *t, const char *path, uint8_t *m, uint64_t len, int own_map, int64_t written_ns,
                      ntidx_index_verify verify, ntidx_index **out, ntidx_index_state *state)
{
    if (len < NTX_IDX_HEADER_SIZE + 8) {
        if (own_map)
            munmap(m, (size_t)len);
        return say(path, NTIDX_E_INDEX_CORRUPT, "%llu bytes, too short to be an index", (unsigned long long)len);
    }
    ntidx_index *x = calloc(1, sizeof *x);
    if (!x) {
        if (own_map)
            munmap(m, (size_t)len);
        return say(path, NTIDX_E_NOMEM, "out of memory");
    }
    if (own_map) {
        x->map = m;
        x->map_len = len;
    }
    int rc = NTIDX_E_INDEX_CORRUPT;
    /* the path, for the messages of later checks and for recoveries, which save where it came from */
    x->name = strdup(path);
    x->from_file = own_map;
    if (!x->name) {
        rc = say(path, NTIDX_E_NOMEM, "out of memory");
        goto fail;
    }
#define FAIL(code, ...)                                                                                \
    do {                                                                                               \
        rc = say(path, code, __VA_ARGS__);                                                             \
        goto fail;                                                                                     \
    } while (0)
    if (memcmp(m + NTX_IH_MAGIC, NTX_IDX_MAGIC, 8) != 0)
        FAIL(NTIDX_E_INDEX_CORRUPT, "not an ntidx index (bad magic)");
    uint16_t major = ntx_load16(m + NTX_IH_MAJOR), minor = ntx_load16(m + NTX_IH_MINOR);
    if (major > NTX_IDX_MAJOR)
        FAIL(NTIDX_E_INDEX_VERSION, "index format %u.%u is newer than this ntidx reads (%d.x)", major, minor,
             NTX_IDX_MAJOR);
    if (major < NTX_IDX_MAJOR)
        FAIL(NTIDX_E_INDEX_CORRUPT, "unknown index format %u.%u", major, minor);
    uint32_t hsize = ntx_load32(m + NTX_IH_HEADER_SIZE);
    if (hsize < NTX_IDX_HEADER_SIZE || hsize % 8 || hsize > len - 8)
        FAIL(NTIDX_E_INDEX_CORRUPT, "header size %u is invalid", hsize);
    if (ntx_xxh3(m, hsize - 8) != ntx_load64(m + hsize - 8))
        FAIL(NTIDX_E_INDEX_CORRUPT, "header checksum mismatch");
    x->minor = minor;
    x->flags = ntx_load32(m + NTX_IH_FLAGS);
    if ((x->flags & ~NTX_IF_KNOWN) && ntx_index_strict(x))
        FAIL(NTIDX_E_INDEX_CORRUPT, "reserved header flags set (0x%x)", x->flags);
    x->trace_size = ntx_load64(m + NTX_IH_TRACE_SIZE);
    x->trace_mtime_ns = (int64_t)ntx_load64(m + NTX_IH_TRACE_MTIME);
    x->head_hash = ntx_load64(m + NTX_IH_HEAD_HASH);
    x->indexed_end = ntx_load64(m + NTX_IH_INDEXED_END);
    x->last_block_off = ntx_load64(m + NTX_IH_LAST_BLOCK_OFF);
    x->last_block_hash = ntx_load64(m + NTX_IH_LAST_BLOCK_HASH);
    x->format_version = ntx_load32(m + NTX_IH_FORMAT_VERSION);
    x->pointer_size = ntx_load32(m + NTX_IH_POINTER_SIZE);
    x->sync_ticks = (int64_t)ntx_load64(m + NTX_IH_SYNC_TICKS);
    x->tick_frequency = (int64_t)ntx_load64(m + NTX_IH_TICK_FREQ);
    x->first_ts = ntx_load64(m + NTX_IH_FIRST_TS);
    x->last_ts = ntx_load64(m + NTX_IH_LAST_TS);
    x->events = ntx_load64(m + NTX_IH_EVENTS);
    x->first_block = ntx_load64(m + NTX_IH_FIRST_BLOCK);
    uint32_t nsec = ntx_load32(m + NTX_IH_SECTION_COUNT);
    if (nsec > (hsize - 8 - NTX_IH_DIRECTORY) / NTX_IDX_DIRENT_SIZE || nsec > NTX_IDX_MAX_SECTIONS)
        FAIL(NTIDX_E_INDEX_CORRUPT, "%u sections do not fit the header", nsec);
    /* The unused directory entries and the rest of the header are reserved: zero. */
    for (uint64_t b = NTX_IH_DIRECTORY + (uint64_t)nsec * NTX_IDX_DIRENT_SIZE; ntx_index_strict(x) && b < hsize - 8; b++)
        if (m[b])
            FAIL(NTIDX_E_INDEX_CORRUPT, "reserved header byte %llu is not zero", (unsigned long long)b);
    /* Lazy checking: with per-region checksums and a large block table (or when asked), BLOCKS and
       FILTERS are hashed region by region on first use instead of whole here (index_check.c). */
    int lazy = 0;
    uint64_t sums_count = 0, rstats_count = 0;
    if (verify != NTIDX_VERIFY_ALL) {
        int has_sums = 0;
        uint64_t block_bytes = 0;
        for (uint32_t i = 0; i < nsec; i++) {
            const uint8_t *d = m + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE;
            uint32_t id = ntx_load32(d);
            has_sums |= id == NTX_SEC_REGION_SUMS;
            if (id == NTX_SEC_BLOCKS)
                block_bytes = ntx_load64(d + 16) * ntx_load32(d + 4);
        }
        lazy = has_sums && (verify == NTIDX_VERIFY_ON_USE || block_bytes > NTX_IDX_EAGER_BLOCK_BYTES);
    }
    if (own_map && !lazy) {
        /* Read whole: one read of the file, then mapped in one call rather than fault by fault. */
        (void)madvise(m, (size_t)len, MADV_WILLNEED);
#ifdef MADV_POPULATE_READ
        (void)madvise(m, (size_t)len, MADV_POPULATE_READ);
#endif
    } else if (own_map) {
        /* Lazily checked: exactly the sections a load reads whole are asked for now, in as few reads as
           they allow (from format 1.4 they follow the header); BLOCKS, FILTERS, REGION_SUMS and SEQPOINTS
           are read a region at a time as regions are checked and used (ntx_index_prefetch_region). */
        prefetch_hot_sections(m, len, nsec);
    }
    if (memcmp(m + len - 8, NTX_IDX_FOOTER, 8) != 0)
        FAIL(NTIDX_E_INDEX_CORRUPT, "footer missing (the file was cut short)");
    int seen[13] = {0};
    uint64_t data_end = len - 8;
    for (uint32_t i = 0; i < nsec; i++) {
        const uint8_t *d = m + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE;
        uint32_t id = ntx_load32(d), entry = ntx_load32(d + 4);
        uint64_t off = ntx_load64(d + 8), count = ntx_load64(d + 16), sum = ntx_load64(d + 24);
        if (off < hsize || off % 8 || off > data_end || entry == 0 || count > (data_end - off) / entry)
            FAIL(NTIDX_E_INDEX_CORRUPT, "section %u (id %u) lies outside the file", i, id);
        uint64_t bytes = count * entry;
        /* The padding to the next 8-byte boundary is reserved: zero (no checksum covers it). */
        for (uint64_t b = off + bytes; ntx_index_strict(x) && b % 8 && b < data_end; b++)
            if (m[b])
                FAIL(NTIDX_E_INDEX_CORRUPT, "padding byte %llu after section %u is not zero", (unsigned long long)b, i);
        /* Lazily checked: BLOCKS and FILTERS are checked region by region against REGION_SUMS, and each
           REGION_SUMS entry by the region it sums (a damaged entry fails its region); the sections are
           hashed whole by ntidx_index_verify_all() (ntx_index_need_all). */
        int later = lazy && (id == NTX_SEC_BLOCKS || id == NTX_SEC_FILTERS || id == NTX_SEC_REGION_SUMS ||
                             id == NTX_SEC_SEQPOINTS);
        if (!later && ntx_xxh3(m + off, (size_t)bytes) != sum)
            FAIL(NTIDX_E_INDEX_CORRUPT, "section %u (id %u) checksum mismatch", i, id);
        if (id == 0 || id > NTX_SEC_STRINGS)
            continue; /* a later minor version's section: checked, then skipped */
        if (seen[id]++)
            FAIL(NTIDX_E_INDEX_CORRUPT, "section id %u appears twice", id);
        if (entry < min_entry[id])
            FAIL(NTIDX_E_INDEX_CORRUPT, "section id %u entries of %u bytes are smaller than %u", id, entry,
                 min_entry[id]);
        switch (id) {
        case NTX_SEC_BLOCKS: x->blocks = m + off; x->nblocks = count; x->sb = entry; break;
        case NTX_SEC_SEQPOINTS:
            x->sps = m + off;
            x->nsps = count;
            x->ss = entry;
            x->sps_hash_later = later;
            x->sps_hash = sum;
            break;
        case NTX_SEC_REGIONS: x->regions = m + off; x->nregions = count; x->sr = entry; break;
        case NTX_SEC_DEFS: x->defs = m + off; x->ndefs = count; x->sd = entry; break;
        case NTX_SEC_FILTERS: x->filters = m + off; x->sf = entry; break;
        case NTX_SEC_TRACE_STAT:
            if (count != 1)
                FAIL(NTIDX_E_INDEX_CORRUPT, "the trace stat section has %llu entries", (unsigned long long)count);
            x->trace_ctime_ns = (int64_t)ntx_load64(m + off);
            x->has_trace_stat = 1;
            break;
        case NTX_SEC_REGION_STATS: x->rstats = m + off; x->srst = entry; rstats_count = count; break;
        case NTX_SEC_TYPE_COUNTS: x->tcounts = m + off; x->ntcounts = count; x->stc = entry; break;
        case NTX_SEC_THREAD_COUNTS: x->thcounts = m + off; x->nthcounts = count; x->sthc = entry; break;
        case NTX_SEC_DROP_COUNTS: x->dcounts = m + off; x->ndcounts = count; x->sdc = entry; break;
        case NTX_SEC_STRINGS:
            x->strings = m + off;
            x->strings_len = count;
            if (entry > 1) {
                /* A later minor version's longer entries: the first byte of each is the pool's byte. */
                uint8_t *pool = malloc(count ? (size_t)count : 1);
                if (!pool)
                    FAIL(NTIDX_E_NOMEM, "out of memory");
                for (uint64_t k = 0; k < count; k++)
                    pool[k] = m[off + k * entry];
                free(x->strings_copy);
                x->strings_copy = pool;
                x->strings = pool;
            }
            break;
        case NTX_SEC_REGION_SUMS:
            if (lazy) {
                x->region_sums = m + off;
                x->srs = entry;
                x->region_sums_hash = sum;
                sums_count = count;
            }
            break;
        }
        if (id == NTX_SEC_FILTERS && count != x->nblocks && seen[NTX_SEC_BLOCKS])
            FAIL(NTIDX_E_INDEX_CORRUPT, "filters cover %llu of %llu blocks", (unsigned long long)count,
                 (unsigned long long)x->nblocks);
    }
    if (!seen[NTX_SEC_BLOCKS] || !seen[NTX_SEC_SEQPOINTS] || !seen[NTX_SEC_REGIONS] || !seen[NTX_SEC_DEFS])
        FAIL(NTIDX_E_INDEX_CORRUPT, "a required section is missing");
    if (!!seen[NTX_SEC_FILTERS] != !!(x->flags & NTX_IF_FULL))
        FAIL(NTIDX_E_INDEX_CORRUPT, "full flag and filter section disagree");
    int nstat = seen[NTX_SEC_REGION_STATS] + seen[NTX_SEC_TYPE_COUNTS] + seen[NTX_SEC_THREAD_COUNTS] +
                seen[NTX_SEC_DROP_COUNTS] + seen[NTX_SEC_STRINGS];
    if (nstat != 0 && (nstat != 5 || !(x->flags & NTX_IF_FULL)))
        FAIL(NTIDX_E_INDEX_CORRUPT, "region statistics sections are incomplete or without FULL");
    if (nstat && rstats_count != x->nregions)
        FAIL(NTIDX_E_INDEX_CORRUPT, "%llu region statistics for %llu regions", (unsigned long long)rstats_count, (unsigned long long)x->nregions);
    if (minor < 6 && rstats_count) {
        /* Before 1.6 the stored statistics named some event types otherwise than TraceEvent (1.2: without the
           opcode suffix; 1.3 and 1.4: EventSource's Start/Stop names and runtime events TraceEvent does not
           name or names otherwise; 1.5: an event nothing names as "", not EventID(N)) and counted the dropped
           events of a V6 region otherwise than a read of the whole trace (1.5): decoded regions would give
           other numbers, so they are not used (docs/index-format.md, 1.3, 1.5 and 1.6). */
        x->rstats = x->tcounts = x->thcounts = x->dcounts = x->strings = NULL;
        x->ntcounts = x->nthcounts = x->ndcounts = x->strings_len = 0;
        rstats_count = 0;
    }
    if (lazy && sums_count != x->nregions)
        FAIL(NTIDX_E_INDEX_CORRUPT, "%llu region checksums for %llu regions", (unsigned long long)sums_count, (unsigned long long)x->nregions);
    if (x->filters) {
        /* the filters' count was checked against blocks only if blocks came first */
        const uint8_t *d = NULL;
        for (uint32_t i = 0; i < nsec; i++)
            if (ntx_load32(m + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE) == NTX_SEC_FILTERS)
                d = m + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE;
        if (!d || ntx_load64(d + 16) != x->nblocks)
            FAIL(NTIDX_E_INDEX_CORRUPT, "filters do not cover every block");
    }
    x->index_written_ns = written_ns;
    /* The identity check below hashes the trace's last indexed block unless the trace's times prove it
       unchanged: then nothing of the trace is read for it. Else ask for the block now, so that its read
       overlaps the index's (it ends at or before indexed_end; a range that makes no sense is not asked). */
    if (x->nregions && x->regions && !times_prove_unchanged(x, t) && x->last_block_off < x->indexed_end &&
        x->indexed_end <= t->size && x->indexed_end - x->last_block_off <= (16u << 20))
        ntx_trace_prefetch(t, x->last_block_off, x->indexed_end - x->last_block_off);
    /* The last region's entries are checked below: ask for their pages now, while the tables are checked
       (nothing is trusted yet: clipped to the sections). */
    if (own_map && lazy && x->nregions)
        prefetch_entries(x, x->nregions - 1);
    char why[400];
    /* The table starts after the trace block. */
    uint64_t first = t->info.first_block_offset;
    ntidx_block tb;
    ntx_err walk = {0};
    if (ntx_next_block(t, &first, &tb, &walk) != 1)
        FAIL(NTIDX_E_INDEX_STALE, "the trace has no trace block now");
    for (uint64_t r = 0; minor < 3 && r < x->nregions; r++)
        if (ntx_rg_ts_min(x, r) <= ntx_rg_ts_max(x, r) && ntx_rg_ts_max(x, r) == UINT64_MAX)
            FAIL(NTIDX_E_INDEX_STALE,
                 "region %llu ends at timestamp 0xFFFFFFFFFFFFFFFF: an index before format 1.3 took a block's "
                 "all-ones maximum for a timestamp",
                 (unsigned long long)r);
    if ((rc = ntx_index_check_tables(x, first, why, sizeof why)) < 0 ||
        (rc = ntx_index_check_summaries(x, why, sizeof why)) < 0)
        FAIL(rc, "%s", why);
    if (lazy && x->nregions) {
        /* Later checks are per region on first use; the identity check below reads the last block. */
        x->region_ok = calloc((size_t)x->nregions, 1);
        if (!x->region_ok)
            FAIL(NTIDX_E_NOMEM, "out of memory");
        uint64_t last = x->nregions - 1;
        if ((rc = ntx_index_check_region_now(x, last, why, sizeof why)) < 0)
            FAIL(rc, "%s", why);
        x->region_ok[last] = 1;
    } else {
        for (uint64_t r = 0; r < x->nregions; r++)
            if ((rc = ntx_index_check_region_now(x, r, why, sizeof why)) < 0)
                FAIL(rc, "%s", why);
    }
    if ((rc = identity(x, t, state, path)) < 0)
        goto fail; /* said by identity() */
    x->info.bytes = len;
    ntx_index_fill_info(x);
    *out = x;
    return NTIDX_OK;
fail:
    ntidx_index_close(&x);
    return rc;
#undef FAIL
}

NTIDX_API int ntidx_index_load(ntidx_trace *t, const char *path, ntidx_index_verify verify, ntidx_index **out,
                               ntidx_index_state *state)
{
    if (out)
        *out = NULL;
    if (!t || !path || !out || (unsigned)verify > NTIDX_VERIFY_ON_USE)
        return say(path, NTIDX_E_INVALID_ARG, "ntidx_index_load: NULL argument or unknown verify mode %d", (int)verify);
    ntidx_index_state st_dummy;
    if (!state)
        state = &st_dummy;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return say(path, NTIDX_E_IO, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return say(path, NTIDX_E_IO, "cannot stat: %s", strerror(e));
    }
    int64_t written_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    /* The identity check may hash the trace's first MiB: its read goes on while the index is read, unless
       the trace settled long before the index was written (then its times may prove it unchanged, and the
       read would be wasted: times_prove_unchanged() decides once the index is read). */
    if (!t->map || written_ns - t->ctime_ns < NTX_SETTLED_NS)
        ntx_trace_prefetch(t, 0, t->size < NTX_IDX_HEAD_HASH_BYTES ? t->size : NTX_IDX_HEAD_HASH_BYTES);
    uint64_t len = (uint64_t)st.st_size;
    if (len < NTX_IDX_HEADER_SIZE + 8) {
        close(fd);
        return say(path, NTIDX_E_INDEX_CORRUPT, "%llu bytes, too short to be an index", (unsigned long long)len);
    }
    uint8_t *m = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return say(path, NTIDX_E_IO, "cannot map: %s", strerror(errno));
    /* What a load reads is said explicitly (load_bytes): no page fault pulls in read-ahead around it. A
       small index is read whole; a large one's header and tail first (the footer, and the last region's
       entries, which the load checks), then exactly the sections the header's directory says the load
       reads whole (docs/index-format.md). ntidx_index_prefetch() may have asked for them already. */
    (void)madvise(m, (size_t)len, MADV_RANDOM);
    prefetch_ends(m, len);
    return load_bytes(t, path, m, len, 1, written_ns, verify, out, state);
}

/* Ask the kernel to start reading what a load of the index file at `path` reads first (prefetch_ends).
   0, or -1 when there is no such file to read. */
static int prefetch_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        uint64_t len = (uint64_t)st.st_size;
        if (len <= NTX_IDX_FIRST_READ) {
            (void)posix_fadvise(fd, 0, (off_t)len, POSIX_FADV_WILLNEED);
        } else {
            (void)posix_fadvise(fd, 0, 4096, POSIX_FADV_WILLNEED);
            (void)posix_fadvise(fd, (off_t)(len - NTX_IDX_TAIL_READ), NTX_IDX_TAIL_READ, POSIX_FADV_WILLNEED);
        }
    }
    close(fd);
    return 0;
}

NTIDX_API void ntidx_index_prefetch(const char *trace_path, const char *index_path)
{
    if (index_path) {
        (void)prefetch_file(index_path);
        return;
    }
    if (!trace_path)
        return;
    /* TRACE.ntidx beside the trace: where the index is, or where ntidx_index_open() looks first when new
       indexes go to the index directory. Only without one is the index directory's name worked out
       (a realpath(): a readlink() per component of the path). */
    char *beside = ntidx_index_default_path(trace_path);
    int found = beside && prefetch_file(beside) == 0;
    free(beside);
    if (found)
        return;
    char *own = NULL;
    int in_dir = 0, private_dir = 0;
    if (ntx_index_locate(trace_path, &own, &in_dir, &private_dir) == 0 && in_dir)
        (void)prefetch_file(own);
    free(own);
}

NTIDX_API int ntidx_index_load_memory(ntidx_trace *t, const void *data, size_t size, const char *name,
                                      ntidx_index_verify verify, ntidx_index **out, ntidx_index_state *state)
{
    if (out)
        *out = NULL;
    if (!t || (!data && size) || !out || (unsigned)verify > NTIDX_VERIFY_ON_USE)
        return say(name, NTIDX_E_INVALID_ARG, "ntidx_index_load_memory: NULL argument or unknown verify mode");
    ntidx_index_state st_dummy;
    return load_bytes(t, name ? name : "(memory)", (uint8_t *)(uintptr_t)data, size, 0, 0, verify, out,
                      state ? state : &st_dummy);
}

NTIDX_API int ntidx_index_verify_all(const ntidx_index *x)
{
    if (!x)
        return say(NULL, NTIDX_E_INVALID_ARG, "ntidx_index_verify_all: NULL index");
    x = ntx_index_current(x);
    ntx_err e = {0};
    int rc = ntx_index_need_all(x, &e);
    return rc < 0 ? ntx_fail(rc, x->name, &e) : NTIDX_OK;
}
