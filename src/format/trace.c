/*
 * Opening a trace: map it, recognise its generation from the first bytes,
 * read the trace block. The block walk is dispatched from here to the
 * framing of the trace's generation. Telling V4 from V5 needs the metadata
 * decoder, a layer up: the public ntidx_trace_open() lives there
 * (src/decode/trace_open.c) and calls ntx_trace_open_file() below first.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "map.h"
#include "source.h"
#include "source_demand.h"
#include "trace_internal.h"

static const char NETTRACE_MAGIC[8] = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e'};
static const char FASTSER_SIG[20] = {'!', 'F', 'a', 's', 't', 'S', 'e', 'r', 'i', 'a',
                                     'l', 'i', 'z', 'a', 't', 'i', 'o', 'n', '.', '1'};
#define V6_SUPPORTED_MAJOR 6

/* "length 20 + !FastSerialization.1" at off? */
static int has_fastser_sig(const ntidx_trace *t, uint64_t off)
{
    return t->size - off >= 24 && ntx_load32(t->data + off) == 20 && !memcmp(t->data + off + 4, FASTSER_SIG, 20);
}

static int detect(ntidx_trace *t, ntx_err *err)
{
    ntidx_trace_info *in = &t->info;
    if (t->size >= 8 && !memcmp(t->data, NETTRACE_MAGIC, 8)) {
        if (has_fastser_sig(t, 8)) {
            t->gen = NTX_GEN_FASTSER;
            in->format_version = 4;
            in->first_block_offset = 32;
            return NTIDX_OK;
        }
        if (t->size < 20)
            return ntx_err_at(err, NTIDX_E_TRUNCATED, 8, "file ends inside the stream header (%llu of 20 bytes)",
                              (unsigned long long)t->size);
        uint32_t reserved = ntx_load32(t->data + 8);
        uint32_t major = ntx_load32(t->data + 12);
        uint32_t minor = ntx_load32(t->data + 16);
        if (reserved != 0)
            return ntx_err_at(err, NTIDX_E_NOT_A_TRACE, 8,
                              "'Nettrace' magic followed by neither a FastSerialization header nor a V6 header "
                              "(reserved field is %u, must be 0)",
                              reserved);
        if (major > V6_SUPPORTED_MAJOR)
            return ntx_err_at(err, NTIDX_E_VERSION, 12,
                              "format major version %u is newer than this reader understands (%d); "
                              "upgrade ntidx to read it",
                              major, V6_SUPPORTED_MAJOR);
        if (major < V6_SUPPORTED_MAJOR)
            return ntx_err_at(err, NTIDX_E_VERSION, 12,
                              "format major version %u in a V6-style header is not a known version", major);
        t->gen = NTX_GEN_V6;
        in->format_version = 6;
        in->minor_version = minor;
        in->first_block_offset = 20;
        return NTIDX_OK;
    }
    if (has_fastser_sig(t, 0)) {
        t->gen = NTX_GEN_NETPERF;
        in->format_version = 3;
        in->first_block_offset = 24;
        return NTIDX_OK;
    }
    if (t->size < 8)
        return ntx_err_at(err, NTIDX_E_NOT_A_TRACE, 0, "file is %llu bytes, too short to be a trace",
                          (unsigned long long)t->size);
    return ntx_err_at(err, NTIDX_E_NOT_A_TRACE, 0,
                      "no 'Nettrace' magic and no '!FastSerialization.1' NetPerf header");
}

/* The file's size now; -1 when it cannot be had (a memory trace, or fstat() failed). */
static int64_t size_now(const ntidx_trace *t)
{
    struct stat st;
    return t->map && t->fd >= 0 && fstat(t->fd, &st) == 0 ? (int64_t)st.st_size : -1;
}

static int fault_error(const ntidx_trace *t, int64_t now, ntx_err *err)
{
    uint64_t at = ntx_fault_offset(&t->fault_at);
    if (err)
        ntx_err_clear(err);
    if (t->demand) { /* a range of the source could not be read: its error, which names the range */
        ntx_err e = {0};
        int code = ntx_demand_error(t->demand, &e);
        if (code == NTIDX_OK)
            return ntx_err_at(err, NTIDX_E_IO, at, "the source could not be read here");
        if (err)
            *err = e;
        return code;
    }
    if (now >= 0 && (uint64_t)now >= t->size)
        return ntx_err_at(err, NTIDX_E_IO, at,
                          "a page of the mapped file could not be read (the file is still %llu bytes: an I/O error?)",
                          (unsigned long long)now);
    if (now < 0)
        return ntx_err_at(err, NTIDX_E_SHRUNK, at, "the file shrank while it was read (it had %llu bytes when opened)",
                          (unsigned long long)t->size);
    return ntx_err_at(err, NTIDX_E_SHRUNK, at,
                      "the file shrank to %llu bytes while it was read (it had %llu bytes when opened)",
                      (unsigned long long)now, (unsigned long long)t->size);
}

int ntx_trace_check(const ntidx_trace *t, ntx_err *err)
{
    return ntx_trace_faulted(t) ? fault_error(t, size_now(t), err) : NTIDX_OK;
}

int ntx_trace_check_end(const ntidx_trace *t, ntx_err *err)
{
    if (t->demand) /* a remote object does not shrink: it changes, which its reads say */
        return ntx_trace_check(t, err);
    if (!t->map)
        return NTIDX_OK;
    int64_t now = size_now(t);
    if (!ntx_trace_faulted(t)) {
        if (now < 0 || (uint64_t)now >= t->size)
            return NTIDX_OK;
        ntx_fault_note((ntx_fault_word *)&t->fault_at, (uint64_t)now); /* where the data stops */
    }
    return fault_error(t, now, err);
}

int ntx_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out, ntx_err *err)
{
    int rc = t->gen == NTX_GEN_V6 ? ntx_v6_next_block(t, pos, out, err) : ntx_fastser_next_block(t, pos, out, err);
    /* Every walk's checkpoint: a block framed from zeros is none, and the end of the file (or an error) may be
       where the file shrank to. */
    if (rc != 1 || ntx_trace_faulted(t)) {
        int c = rc != 1 ? ntx_trace_check_end(t, err) : ntx_trace_check(t, err);
        if (c < 0)
            return c;
    }
    return rc;
}

/* A walk gives back the mapping behind it in steps of this many bytes. */
#define WALK_RELEASE (64ull << 20)

NTIDX_API int ntidx_trace_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out)
{
    if (!t || !pos || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET, "ntidx_trace_next_block: NULL argument");
    ntx_err err = {0};
    int rc = ntx_next_block(t, pos, out, &err);
    if (rc == 1) /* the caller's struct: its reserved tail is zero in this version (docs/abi.md) */
        memset(out->reserved, 0, sizeof out->reserved);
    if (rc == 1 && (t->map || t->demand) && out->offset / WALK_RELEASE != *pos / WALK_RELEASE) {
        /* A block that crosses a step boundary: a walk over the file gives back the two steps before this
           block (its own bytes stay). Stateless, so threads walking one trace need no shared state: a
           page given back is only read again from the page cache if something still touches it. */
        uint64_t step = *pos / WALK_RELEASE * WALK_RELEASE, from = step > 2 * WALK_RELEASE ? step - 2 * WALK_RELEASE : 0;
        uint64_t to = out->offset & ~(uint64_t)4095;
        if (to > from)
            ntx_trace_release(t, from, to - from);
    }
    return rc < 0 ? ntx_fail(rc, t->name, &err) : rc;
}

static int read_trace_block(ntidx_trace *t, ntx_err *err)
{
    ntidx_trace_info *in = &t->info;
    uint64_t pos = in->first_block_offset;
    ntidx_block b;
    int rc = ntx_next_block(t, &pos, &b, err);
    if (rc == 0)
        return ntx_err_at(err, NTIDX_E_CORRUPT, in->first_block_offset, "stream ends before its trace block");
    if (rc < 0)
        return rc;
    if (b.kind != NTIDX_BLOCK_TRACE)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b.offset, "the first block is a %s block, not the trace block",
                          ntidx_block_kind_name(b.kind));
    rc = t->gen == NTX_GEN_V6 ? ntx_parse_trace_block_v6(t, &b, err) : ntx_parse_trace_object_fastser(t, &b, err);
    if (rc < 0)
        return rc;
    if (t->gen == NTX_GEN_NETPERF && in->trace_object_version != 3)
        return ntx_err_at(err, NTIDX_E_VERSION, b.offset,
                          "NetPerf trace object version %u: only version 3 (.NET Core 2.1) is supported",
                          in->trace_object_version);
    if (t->gen == NTX_GEN_FASTSER && (in->trace_object_version < 4 || in->trace_object_version > 5))
        return ntx_err_at(err, NTIDX_E_VERSION, b.offset, "NetTrace trace object version %u is not 4 or 5",
                          in->trace_object_version);
    if (in->tick_frequency <= 0)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b.payload_offset, "tick frequency %lld is not positive",
                          (long long)in->tick_frequency);
    if (in->pointer_size != 4 && in->pointer_size != 8)
        return ntx_err_at(err, NTIDX_E_CORRUPT, b.payload_offset, "pointer size %u is neither 4 nor 8",
                          in->pointer_size);
    if (t->gen == NTX_GEN_FASTSER)
        in->format_version = in->trace_object_version >= 5 ? 5 : 4; /* the decode layer may still say 5 */
    t->after_trace_block = pos;
    return NTIDX_OK;
}

static int finish_open(ntidx_trace *t, ntidx_trace **out, ntx_err *err)
{
    t->info.file_size = t->size;
    int rc = detect(t, err);
    if (rc == NTIDX_OK)
        rc = read_trace_block(t, err);
    if (rc < 0 || ntx_trace_faulted(t)) { /* a file that shrank since it was mapped: not what it seems */
        int c = ntx_trace_check_end(t, err);
        if (c < 0)
            rc = c;
    }
    if (rc < 0) {
        ntidx_trace_close(&t);
        return rc;
    }
    *out = t;
    return NTIDX_OK;
}

static ntidx_trace *new_trace(const char *name)
{
    ntidx_trace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->name = strdup(name ? name : "<memory>");
    if (!t->name) {
        free(t);
        return NULL;
    }
    ntx_arena_init(&t->arena);
    t->fd = -1;
    atomic_init(&t->fault_at, 0);
    static atomic_uint_fast64_t serials;
    t->serial = (uint64_t)atomic_fetch_add(&serials, 1) + 1;
    return t;
}

int ntx_trace_open_source(ntidx_trace **out, ntx_source *src, ntx_err *err)
{
    *out = NULL;
    ntidx_trace *t = new_trace(src->name);
    if (!t) {
        ntx_source_close(src);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    t->src = src;
    int rc = ntx_demand_map(src, &t->fault_at, &t->demand, err);
    if (rc < 0) {
        ntidx_trace_close(&t);
        return rc;
    }
    static const uint8_t empty[1];
    t->data = ntx_demand_base(t->demand) ? ntx_demand_base(t->demand) : empty;
    t->size = src->id.size;
    return finish_open(t, out, err);
}

int ntx_trace_open_file(ntidx_trace **out, const char *path, ntx_err *err)
{
    *out = NULL;
    if (ntx_source_is_url(path)) {
        ntx_source *src;
        int rc = ntx_source_open(&src, path, 0, err);
        return rc < 0 ? rc : ntx_trace_open_source(out, src, err);
    }
    ntidx_trace *t = new_trace(path);
    if (!t)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    ntx_map m;
    int rc = ntx_map_open(&m, path, &t->fault_at, &t->fd, err);
    if (rc < 0) {
        ntidx_trace_close(&t);
        return rc;
    }
    t->map = m.base;
    t->map_len = (size_t)m.size;
    t->guard = m.guard;
    t->mtime_ns = m.mtime_ns;
    t->ctime_ns = m.ctime_ns;
    /* The descriptor the file was mapped from, kept for pread() scans and for the file's size now
       (ntx_trace_check_end()): the mapping's file, where opening the path again could find another (renamed
       over it meanwhile). Without access-time updates where the owner may ask for that (EPERM otherwise):
       mapping the file has updated it already, and each pread() would check it again. */
    int fl = fcntl(t->fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(t->fd, F_SETFL, fl | O_NOATIME);
    /* pread() reads exactly what it asks for (header scans, identity hashes): no read-ahead around it. */
    (void)posix_fadvise(t->fd, 0, 0, POSIX_FADV_RANDOM);
    t->data = m.base;
    t->size = m.size;
    /* No page fault pulls in read-ahead: what is read in bulk is asked for explicitly (walks read ahead of
       themselves, queries read exactly their blocks), so opening a trace that is not in the page cache
       reads its first pages only, not megabytes around them. */
    ntx_map_advise(&m, 0, m.size, NTX_ADVISE_RANDOM);
    t->streamed = calloc((size_t)(m.size / NTX_STREAM_CHUNK / 64 + 1), sizeof *t->streamed);
    return finish_open(t, out, err);
}

int ntx_trace_open_bytes(ntidx_trace **out, const void *data, size_t size, const char *name, ntx_err *err)
{
    *out = NULL;
    ntidx_trace *t = new_trace(name);
    if (!t)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    static const uint8_t empty[1];
    t->data = data ? data : empty;
    t->size = size;
    return finish_open(t, out, err);
}

void ntx_trace_release(ntidx_trace *t, uint64_t off, uint64_t len)
{
    if (t->demand)
        ntx_demand_release(t->demand, off, len);
    if (!t->map)
        return;
    ntx_map m = {.base = t->map, .size = t->map_len};
    ntx_map_advise(&m, off, len, NTX_ADVISE_DONTNEED);
}

void ntx_trace_keep(ntidx_trace *t, uint64_t off, uint64_t len)
{
    if (t->demand)
        ntx_demand_keep(t->demand, off, len);
}

int ntx_trace_fill(const ntidx_trace *t, uint64_t off, uint64_t len, ntx_err *err)
{
    if (!t->demand || off >= t->size || !len)
        return NTIDX_OK;
    if (len > t->size - off)
        len = t->size - off;
    /* the range's units asked for together (a burst of its own, asked for at once), then a read of each page
       (a fault where it is not filled yet) */
    ntx_trace_prefetch_batch(t, 1);
    ntx_demand_prefetch(t->demand, off, len);
    ntx_trace_prefetch_batch(t, 0);
    const uint64_t page = 4096;
    const volatile uint8_t *p = t->data;
    uint8_t sink = 0;
    for (uint64_t at = off; at < off + len; at = (at / page + 1) * page)
        sink ^= p[at];
    sink ^= p[off + len - 1];
    (void)sink;
    return ntx_trace_check(t, err);
}

int ntx_trace_through_source(const ntidx_trace *t) { return t->src != NULL; }

void ntx_trace_prefetch_batch(const ntidx_trace *t, int begin)
{
    if (t->src)
        ntx_source_batch(t->src, begin);
}

void ntx_trace_prefetch(const ntidx_trace *t, uint64_t off, uint64_t len)
{
    if (t->demand) { /* the source's requests: large, several in flight */
        ntx_demand_prefetch(t->demand, off, len);
        return;
    }
    if (!t->map || off >= t->map_len || !len)
        return;
    if (len > t->map_len - off)
        len = t->map_len - off;
    /* Asked whatever the page cache holds: a range that is cached costs a lookup per page (about 10 ms a
       GiB, 1% of decoding it), while one taken for cached by a guess from a few of its pages (after an
       index build, every block's first page is) is read a page fault at a time: 1.5 MB/s cold. */
    ntx_map m = {.base = t->map, .size = t->map_len};
    ntx_map_advise(&m, off, len, NTX_ADVISE_WILLNEED);
}

void ntx_trace_stream(const ntidx_trace *t, uint64_t off, uint64_t len)
{
    /* The chunk bits exist only for a file's own mapping: a demand mapping, a trace in memory, or a file
       with no room for the bits is asked for exactly, as a window is. */
    if (!t->streamed) {
        ntx_trace_prefetch(t, off, len);
        return;
    }
    if (off >= t->map_len || !len)
        return;
    if (len > t->map_len - off)
        len = t->map_len - off;
    ntx_map m = {.base = t->map, .size = t->map_len};
    for (uint64_t c = off / NTX_STREAM_CHUNK; c <= (off + len - 1) / NTX_STREAM_CHUNK; c++) {
        uint64_t bit = 1ull << (c % 64);
        if (atomic_load_explicit(&t->streamed[c / 64], memory_order_relaxed) & bit ||
            atomic_fetch_or(&t->streamed[c / 64], bit) & bit)
            continue;
        ntx_map_advise(&m, c * NTX_STREAM_CHUNK, NTX_STREAM_CHUNK, NTX_ADVISE_SEQUENTIAL); /* read-ahead, async too */
        ntx_map_advise(&m, c * NTX_STREAM_CHUNK, NTX_STREAM_CHUNK, NTX_ADVISE_HUGEPAGE);  /* in 2 MB folios */
    }
}

void ntx_trace_map_now(const ntidx_trace *t, uint64_t off, uint64_t len)
{
    if (!t->map || !len)
        return; /* no page to map (the advice rounds a range down to whole pages; bounds are its own checks); a
                   demand mapping's pages come as they are touched, from what ntx_trace_prefetch() brought */
    ntx_map m = {.base = t->map, .size = t->map_len};
    ntx_map_advise(&m, off, len, NTX_ADVISE_POPULATE);
}

void ntx_trace_walk_ahead(ntidx_trace *t, uint64_t pos, uint64_t *ahead)
{
    /* a remote walk asks further ahead: requests of 8 MiB, several in flight, keep a link busy */
    uint64_t ahead_bytes = t->demand ? 4 * NTX_WALK_AHEAD : NTX_WALK_AHEAD;
    if ((!t->map && !t->demand) || pos + ahead_bytes / 2 <= *ahead)
        return;
    uint64_t from = *ahead > pos ? *ahead : pos;
    *ahead = pos + ahead_bytes;
    ntx_trace_prefetch(t, from, *ahead - from);
}

int ntx_trace_cached(const ntidx_trace *t, uint64_t from)
{
    if (!t->map || t->fd < 0 || from >= t->size)
        return 0;
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), samples = 256;
    const uint64_t span = t->size - from;
    uint64_t missing = 0;
    for (uint64_t i = 0; i < samples && missing <= samples / 16; i++) {
        uint64_t at = (from + span / samples * i) / page * page;
        unsigned char in = 0;
        if (mincore((uint8_t *)t->map + at, page, &in) != 0)
            return 0;
        missing += !(in & 1);
    }
    return missing <= samples / 16;
}

NTIDX_API void ntidx_trace_close(ntidx_trace **tp)
{
    if (!tp || !*tp)
        return;
    ntidx_trace *t = *tp;
    if (t->map) {
        ntx_map m = {.base = t->map, .size = t->map_len, .guard = t->guard};
        ntx_map_close(&m);
    }
    if (t->fd >= 0)
        close(t->fd);
    ntx_demand_unmap(t->demand); /* first: its thread reads the source */
    ntx_source_close(t->src);
    ntx_arena_free(&t->arena);
    free((void *)t->streamed);
    free(t->name);
    free(t);
    *tp = NULL;
}

NTIDX_API const ntidx_trace_info *ntidx_trace_get_info(const ntidx_trace *t) { return t ? &t->info : NULL; }
NTIDX_API const char *ntidx_trace_name(const ntidx_trace *t) { return t ? t->name : ""; }

NTIDX_API const uint8_t *ntidx_trace_data(const ntidx_trace *t, uint64_t *size)
{
    if (size)
        *size = t ? t->size : 0;
    return t ? t->data : NULL;
}

NTIDX_API const char *ntidx_block_kind_name(int kind)
{
    static const char *names[] = {"end_of_stream", "trace",  "event",         "metadata", "sequence_point",
                                  "stack",         "thread", "remove_thread", "label_list"};
    if (kind >= 0 && kind < NTIDX_BLOCK_KIND_COUNT)
        return names[kind];
    return "unknown";
}

int ntx_trace_is_file(const ntidx_trace *t, const struct stat *st)
{
    struct stat a;
    return t->fd >= 0 && fstat(t->fd, &a) == 0 && a.st_dev == st->st_dev && a.st_ino == st->st_ino;
}
