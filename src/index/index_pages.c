/*
 * What an index asks the kernel for (docs/architecture.md, "Memory and
 * I/O"): a loaded index is mapped advised random access, and what a load,
 * a region's check or a command about to load reads is asked for exactly,
 * without waiting, instead of page fault after page fault.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "index_internal.h"

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
void ntx_index_prefetch_ends(const uint8_t *m, uint64_t len)
{
    if (len <= NTX_IDX_FIRST_READ) {
        willneed(m, len, 0, len);
        return;
    }
    willneed(m, len, 0, 4096);
    willneed(m, len, len - NTX_IDX_TAIL_READ, NTX_IDX_TAIL_READ);
}

/* The entries that checking region r reads (see ntx_index_prefetch_region); clipped to their sections. */
void ntx_index_prefetch_entries(const ntidx_index *x, uint64_t r)
{
    const uint8_t *m = x->map;
    if (!m || r >= x->tb.nregions)
        return;
    /* The previous region's entries are checked with it (its last entry bounds this region's first). */
    uint64_t f = ntx_rg_first(x, r > 0 ? r - 1 : 0), e = ntx_rg_end(x, r);
    if (e > x->tb.nblocks)
        e = x->tb.nblocks;
    if (f < e && x->tb.blocks) {
        willneed(m, x->map_len, (uint64_t)(x->tb.blocks - m) + f * x->tb.sb, (e - f) * x->tb.sb);
        if (x->tb.filters)
            willneed(m, x->map_len, (uint64_t)(x->tb.filters - m) + f * x->tb.sf, (e - f) * x->tb.sf);
    }
    uint64_t s = r > 0 ? r - 1 : 0;
    if (x->region_sums)
        willneed(m, x->map_len, (uint64_t)(x->region_sums - m) + s * x->srs, (r + 1 - s) * x->srs);
    if (x->tb.sps && r < x->tb.nsps) /* the sequence point that closes it */
        willneed(m, x->map_len, (uint64_t)(x->tb.sps - m) + r * x->tb.ss, x->tb.ss);
}

void ntx_index_prefetch_region(const ntidx_index *x, uint64_t r)
{
    /* 0 -> 3 (unchecked, pages asked for): each region's pages are asked for once */
    uint8_t unchecked = 0;
    if (x->map && x->tb.region_ok && r < x->tb.nregions &&
        __atomic_compare_exchange_n(&x->tb.region_ok[r], &unchecked, (uint8_t)3, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ntx_index_prefetch_entries(x, r);
}

void ntx_index_prefetch_regions(const ntidx_index *x, uint64_t r0, uint64_t r1)
{
    const uint8_t *m = x->map;
    if (r1 > x->tb.nregions)
        r1 = x->tb.nregions;
    if (!m || !x->tb.region_ok || r0 >= r1)
        return;
    /* one request per section, not three per region; the region before r0 is checked with it */
    uint64_t f = ntx_rg_first(x, r0 > 0 ? r0 - 1 : 0), e = ntx_rg_end(x, r1 - 1);
    if (e > x->tb.nblocks)
        e = x->tb.nblocks;
    if (x->tb.blocks && f < e)
        willneed(m, x->map_len, (uint64_t)(x->tb.blocks - m) + f * x->tb.sb, (e - f) * x->tb.sb);
    if (x->tb.filters && f < e)
        willneed(m, x->map_len, (uint64_t)(x->tb.filters - m) + f * x->tb.sf, (e - f) * x->tb.sf);
    uint64_t s = r0 > 0 ? r0 - 1 : 0;
    if (x->region_sums)
        willneed(m, x->map_len, (uint64_t)(x->region_sums - m) + s * x->srs, (r1 - s) * x->srs);
    if (x->tb.sps && s < x->tb.nsps)
        willneed(m, x->map_len, (uint64_t)(x->tb.sps - m) + s * x->tb.ss, ((r1 < x->tb.nsps ? r1 : x->tb.nsps) - s) * x->tb.ss);
    for (uint64_t r = r0; r < r1; r++) {
        uint8_t unchecked = 0;
        __atomic_compare_exchange_n(&x->tb.region_ok[r], &unchecked, (uint8_t)3, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
}

/*
 * Ask for the sections a lazily checked load reads whole (every one but
 * BLOCKS, FILTERS, REGION_SUMS and SEQPOINTS), merged into as few ranges as their
 * places allow: a plain index's are one run right after the header. Offsets
 * are not trusted yet: a range outside the file is not asked for (the
 * directory check refuses it).
 */
void ntx_index_prefetch_hot_sections(uint8_t *m, uint64_t len, uint32_t nsec)
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

/* Ask the kernel to start reading what a load of the index file at `path` reads first (ntx_index_prefetch_ends()).
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

