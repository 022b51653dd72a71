/*
 * Whether a loaded index still describes its trace (docs/index-format.md,
 * Identity): the trace header's facts, its size, the hashes of its first
 * bytes and of its last indexed block, its recorded times; CURRENT, GROWN
 * (appended to since), or stale.
 */
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "index_internal.h"

/* Every failure here is about the index file: it is named as the error's file. */
#define say(path, code, ...) ntx_failf(code, path, NTIDX_NO_OFFSET, __VA_ARGS__)

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
int ntx_index_times_prove_unchanged(const ntidx_index *x, const ntidx_trace *t)
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
int ntx_index_identity(const ntidx_index *x, const ntidx_trace *t, ntidx_index_state *state, const char *path)
{
    if (x->format_version != (uint32_t)t->info.format_version || x->pointer_size != t->info.pointer_size ||
        x->sync_ticks != t->info.sync_ticks || x->tick_frequency != t->info.tick_frequency)
        return say(path, NTIDX_E_INDEX_STALE, "the index describes a different trace (trace header differs)");
    if (t->size < x->trace_size)
        return say(path, NTIDX_E_INDEX_STALE, "the trace shrank from %llu to %llu bytes since it was indexed",
                   (unsigned long long)x->trace_size, (unsigned long long)t->size);
    if (ntx_index_times_prove_unchanged(x, t)) {
        *state = NTIDX_INDEX_CURRENT;
        return NTIDX_OK;
    }
    uint64_t head = x->trace_size < NTX_IDX_HEAD_HASH_BYTES ? x->trace_size : NTX_IDX_HEAD_HASH_BYTES;
    int zeros;
    if (ntx_trace_range_hash(t, 0, head) != x->head_hash)
        return (zeros = hashed_zeros(t)) < 0
                   ? zeros
                   : say(path, NTIDX_E_INDEX_STALE, "the trace's first bytes changed since it was indexed");
    if (x->tb.nblocks &&
        ntx_trace_range_hash(t, x->last_block_off, ntx_blk_size(x, x->tb.nblocks - 1)) != x->last_block_hash)
        return (zeros = hashed_zeros(t)) < 0 ? zeros
                                             : say(path, NTIDX_E_INDEX_STALE,
                                                   "the trace's last indexed block (offset %llu) changed",
                                                   (unsigned long long)x->last_block_off);
    if (t->size == x->trace_size) {
        /* A write appending to the trace moves its times before its size: seen in between, an append
           looks like a rewrite in place. A trace still being written that is seen to grow is GROWN. */
        if ((t->mtime_ns != x->trace_mtime_ns || (x->has_trace_stat && t->ctime_ns != x->trace_ctime_ns)) && t->map &&
            !(x->tb.flags & NTX_IF_COMPLETE) && size_grows(t->fd, x->trace_size)) {
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
    if (x->tb.flags & NTX_IF_COMPLETE)
        return say(path, NTIDX_E_INDEX_STALE,
                   "the trace grew after its end-of-stream marker: it was rewritten since it was indexed");
    *state = NTIDX_INDEX_GROWN;
    return NTIDX_OK;
}

