/*
 * The side index loaded (docs/index-format.md): a loader that trusts nothing
 * (LMDB/babeltrace discipline): magic and version first, header and section
 * checksums, every offset and count checked against the file before use,
 * structure validated (index_check.c), then the trace's identity compared
 * (index_identity.c). What the load asks the kernel for is index_pages.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "index_internal.h"

/* Every failure of a public call here is about the index file: it is named as the error's file. */
#define say(path, code, ...) ntx_failf(code, path, NTIDX_NO_OFFSET, __VA_ARGS__)

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

/* A directory entry of the header. */
typedef struct dirent_view {
    uint32_t id, entry;
    uint64_t off, count, sum;
} dirent_view;

static dirent_view dirent_at(const uint8_t *m, uint32_t i)
{
    const uint8_t *d = m + NTX_IH_DIRECTORY + i * NTX_IDX_DIRENT_SIZE;
    return (dirent_view){ntx_load32(d), ntx_load32(d + 4), ntx_load64(d + 8), ntx_load64(d + 16), ntx_load64(d + 24)};
}

/*
 * The header: magic, version, its size and checksum, the facts it records,
 * and the directory's size (*hsize, *nsec). 0, or an error (said).
 */
static int read_header(ntidx_index *x, const char *path, const uint8_t *m, uint64_t len, uint32_t *hsize,
                       uint32_t *nsec)
{
    if (memcmp(m + NTX_IH_MAGIC, NTX_IDX_MAGIC, 8) != 0)
        return say(path, NTIDX_E_INDEX_CORRUPT, "not an ntidx index (bad magic)");
    uint16_t major = ntx_load16(m + NTX_IH_MAJOR), minor = ntx_load16(m + NTX_IH_MINOR);
    if (major > NTX_IDX_MAJOR)
        return say(path, NTIDX_E_INDEX_VERSION, "index format %u.%u is newer than this ntidx reads (%d.x)", major,
                   minor, NTX_IDX_MAJOR);
    if (major < NTX_IDX_MAJOR)
        return say(path, NTIDX_E_INDEX_CORRUPT, "unknown index format %u.%u", major, minor);
    uint32_t hs = ntx_load32(m + NTX_IH_HEADER_SIZE);
    if (hs < NTX_IDX_HEADER_SIZE || hs % 8 || hs > len - 8)
        return say(path, NTIDX_E_INDEX_CORRUPT, "header size %u is invalid", hs);
    if (ntx_xxh3(m, hs - 8) != ntx_load64(m + hs - 8))
        return say(path, NTIDX_E_INDEX_CORRUPT, "header checksum mismatch");
    x->minor = minor;
    x->tb.flags = ntx_load32(m + NTX_IH_FLAGS);
    if ((x->tb.flags & ~NTX_IF_KNOWN) && ntx_index_strict(x))
        return say(path, NTIDX_E_INDEX_CORRUPT, "reserved header flags set (0x%x)", x->tb.flags);
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
    uint32_t n = ntx_load32(m + NTX_IH_SECTION_COUNT);
    if (n > (hs - 8 - NTX_IH_DIRECTORY) / NTX_IDX_DIRENT_SIZE || n > NTX_IDX_MAX_SECTIONS)
        return say(path, NTIDX_E_INDEX_CORRUPT, "%u sections do not fit the header", n);
    /* The unused directory entries and the rest of the header are reserved: zero. */
    for (uint64_t b = NTX_IH_DIRECTORY + (uint64_t)n * NTX_IDX_DIRENT_SIZE; ntx_index_strict(x) && b < hs - 8; b++)
        if (m[b])
            return say(path, NTIDX_E_INDEX_CORRUPT, "reserved header byte %llu is not zero", (unsigned long long)b);
    *hsize = hs;
    *nsec = n;
    return 0;
}

/*
 * Lazy checking: with per-region checksums and a large block table (or when
 * asked), BLOCKS and FILTERS are hashed region by region on first use
 * instead of whole at load (index_check.c).
 */
static int checks_lazily(const uint8_t *m, uint32_t nsec, ntidx_index_verify verify)
{
    if (verify == NTIDX_VERIFY_ALL)
        return 0;
    int has_sums = 0;
    uint64_t block_bytes = 0;
    for (uint32_t i = 0; i < nsec; i++) {
        dirent_view d = dirent_at(m, i);
        has_sums |= d.id == NTX_SEC_REGION_SUMS;
        if (d.id == NTX_SEC_BLOCKS)
            block_bytes = d.count * d.entry;
    }
    return has_sums && (verify == NTIDX_VERIFY_ON_USE || block_bytes > NTX_IDX_EAGER_BLOCK_BYTES);
}

/* What the directory's walk learns besides the sections it binds. */
typedef struct sections_seen {
    int seen[13];
    uint64_t sums_count, rstats_count;
} sections_seen;

/* Section `d` (i of the directory, its bytes checked to lie in the file) bound to the index. */
static int bind_section(ntidx_index *x, const char *path, const uint8_t *m, const dirent_view *d, int later,
                        int lazy, sections_seen *s)
{
    uint64_t off = d->off, count = d->count;
    uint32_t entry = d->entry;
    switch (d->id) {
    case NTX_SEC_BLOCKS: x->tb.blocks = m + off; x->tb.nblocks = count; x->tb.sb = entry; break;
    case NTX_SEC_SEQPOINTS:
        x->tb.sps = m + off;
        x->tb.nsps = count;
        x->tb.ss = entry;
        x->sps_hash_later = later;
        x->sps_hash = d->sum;
        break;
    case NTX_SEC_REGIONS: x->tb.regions = m + off; x->tb.nregions = count; x->tb.sr = entry; break;
    case NTX_SEC_DEFS: x->tb.defs = m + off; x->tb.ndefs = count; x->tb.sd = entry; break;
    case NTX_SEC_FILTERS: x->tb.filters = m + off; x->tb.sf = entry; break;
    case NTX_SEC_TRACE_STAT:
        if (count != 1)
            return say(path, NTIDX_E_INDEX_CORRUPT, "the trace stat section has %llu entries", (unsigned long long)count);
        x->trace_ctime_ns = (int64_t)ntx_load64(m + off);
        x->has_trace_stat = 1;
        break;
    case NTX_SEC_REGION_STATS: x->rstats = m + off; x->srst = entry; s->rstats_count = count; break;
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
                return say(path, NTIDX_E_NOMEM, "out of memory");
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
            x->region_sums_hash = d->sum;
            s->sums_count = count;
        }
        break;
    }
    if (d->id == NTX_SEC_FILTERS && count != x->tb.nblocks && s->seen[NTX_SEC_BLOCKS])
        return say(path, NTIDX_E_INDEX_CORRUPT, "filters cover %llu of %llu blocks", (unsigned long long)count,
                   (unsigned long long)x->tb.nblocks);
    return 0;
}

/*
 * The directory: each section inside the file, its padding zero, its
 * checksum (but those a lazily checked index checks region by region), its
 * entries large enough, bound to the index. 0, or an error (said).
 */
static int read_directory(ntidx_index *x, const char *path, const uint8_t *m, uint64_t len, uint32_t hsize,
                          uint32_t nsec, int lazy, sections_seen *s)
{
    uint64_t data_end = len - 8;
    for (uint32_t i = 0; i < nsec; i++) {
        dirent_view d = dirent_at(m, i);
        if (d.off < hsize || d.off % 8 || d.off > data_end || d.entry == 0 || d.count > (data_end - d.off) / d.entry)
            return say(path, NTIDX_E_INDEX_CORRUPT, "section %u (id %u) lies outside the file", i, d.id);
        uint64_t bytes = d.count * d.entry;
        /* The padding to the next 8-byte boundary is reserved: zero (no checksum covers it). */
        for (uint64_t b = d.off + bytes; ntx_index_strict(x) && b % 8 && b < data_end; b++)
            if (m[b])
                return say(path, NTIDX_E_INDEX_CORRUPT, "padding byte %llu after section %u is not zero",
                           (unsigned long long)b, i);
        /* Lazily checked: BLOCKS and FILTERS are checked region by region against REGION_SUMS, and each
           REGION_SUMS entry by the region it sums (a damaged entry fails its region); the sections are
           hashed whole by ntidx_index_verify_all() (ntx_index_need_all). */
        int later = lazy && (d.id == NTX_SEC_BLOCKS || d.id == NTX_SEC_FILTERS || d.id == NTX_SEC_REGION_SUMS ||
                             d.id == NTX_SEC_SEQPOINTS);
        if (!later && ntx_xxh3(m + d.off, (size_t)bytes) != d.sum)
            return say(path, NTIDX_E_INDEX_CORRUPT, "section %u (id %u) checksum mismatch", i, d.id);
        if (d.id == 0 || d.id > NTX_SEC_STRINGS)
            continue; /* a later minor version's section: checked, then skipped */
        if (s->seen[d.id]++)
            return say(path, NTIDX_E_INDEX_CORRUPT, "section id %u appears twice", d.id);
        if (d.entry < min_entry[d.id])
            return say(path, NTIDX_E_INDEX_CORRUPT, "section id %u entries of %u bytes are smaller than %u", d.id,
                       d.entry, min_entry[d.id]);
        int rc = bind_section(x, path, m, &d, later, lazy, s);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The sections together: the required ones, FULL and its sections, counts that agree. 0, or an error (said). */
static int check_sections(ntidx_index *x, const char *path, const uint8_t *m, uint32_t nsec, int lazy,
                          sections_seen *s)
{
    const int *seen = s->seen;
    if (!seen[NTX_SEC_BLOCKS] || !seen[NTX_SEC_SEQPOINTS] || !seen[NTX_SEC_REGIONS] || !seen[NTX_SEC_DEFS])
        return say(path, NTIDX_E_INDEX_CORRUPT, "a required section is missing");
    if (!!seen[NTX_SEC_FILTERS] != !!(x->tb.flags & NTX_IF_FULL))
        return say(path, NTIDX_E_INDEX_CORRUPT, "full flag and filter section disagree");
    int nstat = seen[NTX_SEC_REGION_STATS] + seen[NTX_SEC_TYPE_COUNTS] + seen[NTX_SEC_THREAD_COUNTS] +
                seen[NTX_SEC_DROP_COUNTS] + seen[NTX_SEC_STRINGS];
    if (nstat != 0 && (nstat != 5 || !(x->tb.flags & NTX_IF_FULL)))
        return say(path, NTIDX_E_INDEX_CORRUPT, "region statistics sections are incomplete or without FULL");
    if (nstat && s->rstats_count != x->tb.nregions)
        return say(path, NTIDX_E_INDEX_CORRUPT, "%llu region statistics for %llu regions",
                   (unsigned long long)s->rstats_count, (unsigned long long)x->tb.nregions);
    if (x->minor < 6 && s->rstats_count) {
        /* Before 1.6 the stored statistics named some event types otherwise than TraceEvent (1.2: without the
           opcode suffix; 1.3 and 1.4: EventSource's Start/Stop names and runtime events TraceEvent does not
           name or names otherwise; 1.5: an event nothing names as "", not EventID(N)) and counted the dropped
           events of a V6 region otherwise than a read of the whole trace (1.5): decoded regions would give
           other numbers, so they are not used (docs/index-format.md, 1.3, 1.5 and 1.6). */
        x->rstats = x->tcounts = x->thcounts = x->dcounts = x->strings = NULL;
        x->ntcounts = x->nthcounts = x->ndcounts = x->strings_len = 0;
        s->rstats_count = 0;
    }
    if (lazy && s->sums_count != x->tb.nregions)
        return say(path, NTIDX_E_INDEX_CORRUPT, "%llu region checksums for %llu regions",
                   (unsigned long long)s->sums_count, (unsigned long long)x->tb.nregions);
    if (x->tb.filters) {
        /* the filters' count was checked against blocks only if blocks came first */
        int found = 0;
        for (uint32_t i = 0; i < nsec; i++) {
            dirent_view d = dirent_at(m, i);
            if (d.id == NTX_SEC_FILTERS)
                found = d.count == x->tb.nblocks;
        }
        if (!found)
            return say(path, NTIDX_E_INDEX_CORRUPT, "filters do not cover every block");
    }
    return 0;
}

/*
 * The tables against the trace: the trace block they start after, the
 * structure (index_check.c), the regions (all, or the last one when the
 * rest are checked on first use), then the trace's identity. 0, or an error
 * (said).
 */
static int check_against_trace(ntidx_index *x, ntidx_trace *t, const char *path, int own_map, int lazy,
                               ntidx_index_state *state)
{
    /* The identity check hashes the trace's last indexed block unless the trace's times prove it
       unchanged: then nothing of the trace is read for it. Else ask for the block now, so that its read
       overlaps the index's (it ends at or before indexed_end; a range that makes no sense is not asked). */
    if (x->tb.nregions && x->tb.regions && !ntx_index_times_prove_unchanged(x, t) &&
        x->last_block_off < x->indexed_end && x->indexed_end <= t->size &&
        x->indexed_end - x->last_block_off <= (16u << 20))
        ntx_trace_prefetch(t, x->last_block_off, x->indexed_end - x->last_block_off);
    /* The last region's entries are checked below: ask for their pages now, while the tables are checked
       (nothing is trusted yet: clipped to the sections). */
    if (own_map && lazy && x->tb.nregions)
        ntx_index_prefetch_entries(x, x->tb.nregions - 1);
    char why[400];
    int rc;
    /* The table starts after the trace block. */
    uint64_t first = t->info.first_block_offset;
    ntidx_block tb;
    ntx_err walk = {0};
    if (ntx_next_block(t, &first, &tb, &walk) != 1)
        return say(path, NTIDX_E_INDEX_STALE, "the trace has no trace block now");
    for (uint64_t r = 0; x->minor < 3 && r < x->tb.nregions; r++)
        if (ntx_rg_ts_min(x, r) <= ntx_rg_ts_max(x, r) && ntx_rg_ts_max(x, r) == UINT64_MAX)
            return say(path, NTIDX_E_INDEX_STALE,
                       "region %llu ends at timestamp 0xFFFFFFFFFFFFFFFF: an index before format 1.3 took a block's "
                       "all-ones maximum for a timestamp",
                       (unsigned long long)r);
    if ((rc = ntx_index_check_tables(x, first, why, sizeof why)) < 0 ||
        (rc = ntx_index_check_summaries(x, why, sizeof why)) < 0)
        return say(path, rc, "%s", why);
    if (lazy && x->tb.nregions) {
        /* Later checks are per region on first use; the identity check below reads the last block. */
        x->tb.region_ok = calloc((size_t)x->tb.nregions, 1);
        if (!x->tb.region_ok)
            return say(path, NTIDX_E_NOMEM, "out of memory");
        uint64_t last = x->tb.nregions - 1;
        if ((rc = ntx_index_check_region_now(x, last, why, sizeof why)) < 0)
            return say(path, rc, "%s", why);
        x->tb.region_ok[last] = 1;
    } else {
        for (uint64_t r = 0; r < x->tb.nregions; r++)
            if ((rc = ntx_index_check_region_now(x, r, why, sizeof why)) < 0)
                return say(path, rc, "%s", why);
    }
    return ntx_index_identity(x, t, state, path);
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
    /* the path, for the messages of later checks and for recoveries, which save where it came from */
    x->name = strdup(path);
    x->from_file = own_map;
    x->index_written_ns = written_ns;
    uint32_t hsize = 0, nsec = 0;
    int rc = x->name ? read_header(x, path, m, len, &hsize, &nsec) : say(path, NTIDX_E_NOMEM, "out of memory");
    if (rc < 0)
        goto fail;
    int lazy = checks_lazily(m, nsec, verify);
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
        ntx_index_prefetch_hot_sections(m, len, nsec);
    }
    if (memcmp(m + len - 8, NTX_IDX_FOOTER, 8) != 0) {
        rc = say(path, NTIDX_E_INDEX_CORRUPT, "footer missing (the file was cut short)");
        goto fail;
    }
    sections_seen seen = {{0}, 0, 0};
    if ((rc = read_directory(x, path, m, len, hsize, nsec, lazy, &seen)) < 0 ||
        (rc = check_sections(x, path, m, nsec, lazy, &seen)) < 0 ||
        (rc = check_against_trace(x, t, path, own_map, lazy, state)) < 0)
        goto fail;
    x->info.bytes = len;
    ntx_index_fill_info(x);
    *out = x;
    return NTIDX_OK;
fail:
    ntidx_index_close(&x);
    return rc;
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
    ntx_index_prefetch_ends(m, len);
    return load_bytes(t, path, m, len, 1, written_ns, verify, out, state);
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
    ntx_err e = {0};
    int rc = ntx_index_need_all(x, &e);
    return rc < 0 ? ntx_fail(rc, x->name, &e) : NTIDX_OK;
}
