/*
 * The header scan on several threads (scan_split.h): helpers that guess a
 * block boundary in a later part of the trace and read on from it.
 */
#include <fcntl.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "le.h"
#include "event_header.h"
#include "scan_split.h"

/* How far past its part's start a helper looks for a block before it leaves the part to the scan. */
#define SEARCH_LIMIT (4ull << 20)
#define SEARCH_STEP 4096
#define SEARCH_OVERLAP 128 /* bytes read past each step: a candidate's header is seen whole */
/* Blocks that must frame one after another from a guess (the guess included) before a helper trusts it:
   in a 1 GB one-collect trace (1 MiB event blocks of stacks and addresses) chains of 3 were found that ran
   on for up to 11 blocks before they broke. */
#define CHAIN 8
/* A chain from a guess that ends (not at the file's end) within this many blocks was a wrong guess. */
#define RECHECK 64
/* Records all helpers may hold (about 100 bytes each): a trace of tiny blocks leaves the rest to the scan. */
#define MAX_RECORDS (512u << 10)

struct ntx_scan_part {
    ntx_scan_split *s;
    ntidx_trace *t;
    uint64_t from, stop; /* look for a block from `from`; read the blocks that start before `stop` */
    ntx_scan_rec *recs;
    size_t n, cap, max;
    uint64_t end_pos, end_tag; /* where the helper stopped, and its reader's pending tag there */
    ntx_err err;               /* the last record's error */
    unsigned wrong; /* guesses given up after reading from them */
    int fd; /* the helper's own descriptor of the trace (see part_open) */
    pthread_t th;
    int running;
};

/*
 * Whether an event block's payload starts with a plausible header (its first
 * `have` bytes at p): a header size of 20 to 1024 bytes (the runtime writes
 * 20), no flag but compression (the only one defined), a time range or 0/0.
 * Stricter than the format, to reject guesses cheaply: a later writer's
 * blocks that fail it are only not guessed at (the scan reads them itself).
 */
static int plausible_event_header(const uint8_t *p, uint64_t have, uint64_t payload_size)
{
    if (have < 20 || payload_size < 20)
        return 0;
    uint16_t hs = ntx_load16(p), flags = ntx_load16(p + 2);
    if (hs < 20 || hs > 1024 || hs > payload_size || flags > 1)
        return 0;
    uint64_t lo = ntx_load64(p + 4), hi = ntx_load64(p + 12);
    return (lo == 0 && hi == 0) || ntx_block_range_known(lo, hi);
}

/*
 * Frame the block at `at` from the bytes p (have of them) for a guess: 1 a
 * block of a kind a trace's body holds (an event block with a plausible
 * header), 0 the end-of-stream marker where the file ends, -1 anything else.
 * *next: the position after it; *tag: a FastSerialization end tag outside p.
 */
static int guess_frame(const ntidx_trace *t, const uint8_t *p, uint64_t have, uint64_t at, uint64_t *next,
                       uint64_t *tag)
{
    ntidx_block b;
    ntx_err e;
    *tag = UINT64_MAX;
    int rc = t->gen == NTX_GEN_V6 ? ntx_v6_frame(p, have, at, t->size, next, &b, &e)
                                  : ntx_fastser_frame(p, have, at, t->size, next, &b, tag, &e);
    if (rc == 0)
        return *next == t->size ? 0 : -1;
    if (rc != 1 || b.kind == NTIDX_BLOCK_UNKNOWN || b.kind == NTIDX_BLOCK_TRACE)
        return -1;
    if (b.kind == NTIDX_BLOCK_EVENT) {
        uint64_t ho = b.payload_offset - at;
        if (ho >= have || !plausible_event_header(p + ho, have - ho, b.payload_size))
            return -1;
    }
    return 1;
}

/*
 * Whether the bytes at p (have of them, file offset at) start an event block
 * with a plausible header: the guesses a helper checks further. Event blocks
 * are most of any trace, and their headers constrain many bytes.
 */
static int looks_like_event_block(const ntidx_trace *t, const uint8_t *p, size_t have, uint64_t at)
{
    if (t->gen == NTX_GEN_V6) {
        /* Everything checked here, before any framing (whose failures format messages): most positions of a
           megabyte of payload fail at the kind byte or the header. */
        if (have < 24 || p[3] != NTIDX_BLOCK_EVENT)
            return 0;
        uint32_t size = ntx_load32(p) & 0xffffffu;
        if (size > t->size - at - 4 || !plausible_event_header(p + 4, have - 4, size))
            return 0;
    } else if (have < 3 || p[0] != 5 || p[1] != 5 || p[2] != 1) {
        /* FastSerialization: BeginPrivateObject, its type's BeginPrivateObject and NullReference, ... */
        return 0;
    }
    uint64_t next, tag;
    return guess_frame(t, p, have, at, &next, &tag) == 1;
}

/*
 * Whether CHAIN blocks frame one after another from `at` (or fewer, then the
 * end of the file), each read with one small pread() and framed only: a
 * guess is checked without touching the mapping or decoding anything.
 */
static int chain_holds(ntidx_trace *t, int fd, uint64_t at)
{
    uint8_t buf[192];
    for (int i = 0; i < CHAIN; i++) {
        uint64_t len = t->size - at < sizeof buf ? t->size - at : sizeof buf;
        if (!len || pread(fd, buf, (size_t)len, (off_t)at) != (ssize_t)len)
            return 0;
        uint64_t next, tag;
        int rc = guess_frame(t, buf, len, at, &next, &tag);
        if (rc <= 0)
            return rc == 0;
        uint8_t end;
        if (tag != UINT64_MAX && (pread(fd, &end, 1, (off_t)tag) != 1 || end != 6))
            return 0;
        at = next;
    }
    return 1;
}

/* The first position in [from, limit) that looks like a block boundary, or UINT64_MAX. */
static uint64_t find_boundary(ntx_scan_part *p, uint64_t from, uint64_t limit)
{
    ntidx_trace *t = p->t;
    uint8_t buf[SEARCH_STEP + SEARCH_OVERLAP];
    for (uint64_t off = from; off < limit && off < t->size; off += SEARCH_STEP) {
        if (__atomic_load_n(&p->s->stop, __ATOMIC_RELAXED))
            return UINT64_MAX;
        size_t len = t->size - off < sizeof buf ? (size_t)(t->size - off) : sizeof buf;
        ssize_t got = pread(p->fd, buf, len, (off_t)off);
        if (got <= 0)
            return UINT64_MAX;
        size_t n = (size_t)got < SEARCH_STEP ? (size_t)got : SEARCH_STEP;
        if (n > limit - off)
            n = (size_t)(limit - off);
        for (size_t i = 0; i < n; i++)
            if (looks_like_event_block(t, buf + i, (size_t)got - i, off + i) && chain_holds(t, p->fd, off + i))
                return off + i;
    }
    return UINT64_MAX;
}

/* Read blocks from `pos` into p->recs until the part's end, a record limit or a block that ends the chain. */
static uint64_t read_chain(ntx_scan_part *p, ntx_block_reader *r, uint64_t pos)
{
    while (pos < p->stop && p->n < p->max && !__atomic_load_n(&p->s->stop, __ATOMIC_RELAXED)) {
        if (p->n == p->cap) {
            size_t cap = p->cap ? p->cap * 2 : 1024;
            if (cap > p->max)
                cap = p->max;
            ntx_scan_rec *nr = realloc(p->recs, cap * sizeof *nr);
            if (!nr)
                break; /* the scan reads the rest itself */
            p->recs = nr;
            p->cap = cap;
        }
        ntx_block_reader_release(r, pos);
        ntx_scan_rec *rec = &p->recs[p->n++];
        ntx_err e = {0}; /* a message of its own for each read, as the scan's (the first message recorded wins) */
        if (ntx_block_read(r, pos, rec, &e) != 1) {
            p->err = e;
            break;
        }
        pos = rec->next;
    }
    return pos;
}

/* Whether a helper's chain ended soon after its guess, other than at the file's end: a wrong guess. */
static int ended_early(const ntx_scan_part *p)
{
    const ntx_scan_rec *last = &p->recs[p->n - 1];
    return p->n <= RECHECK && last->rc != 1 && !(last->rc == 0 && last->next == p->t->size);
}

/*
 * A descriptor of its own for a helper: once threads share the file table,
 * every pread() takes and drops a reference on its file, and a file that
 * all threads read through has that count bounce between their cores. The
 * same open file, reopened through /proc, or else the shared one.
 */
static int part_open(const ntidx_trace *t)
{
    char path[64];
    struct stat a, b;
    snprintf(path, sizeof path, "/proc/self/fd/%d", t->fd);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOATIME);
    if (fd < 0)
        fd = open(path, O_RDONLY | O_CLOEXEC); /* O_NOATIME: only for the file's owner */
    if (fd < 0)
        return t->fd;
    if (fstat(fd, &a) || fstat(t->fd, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        close(fd);
        return t->fd;
    }
    return fd;
}

static void *part_run(void *arg)
{
    ntx_scan_part *p = arg;
    ntidx_trace *t = p->t;
    if (p->s->has_cpus)
        pthread_setaffinity_np(pthread_self(), sizeof p->s->cpus, &p->s->cpus);
    p->fd = part_open(t);
    uint64_t limit = p->from + SEARCH_LIMIT < p->stop ? p->from + SEARCH_LIMIT : p->stop;
    uint64_t guess = find_boundary(p, p->from, limit), pos = UINT64_MAX;
    ntx_block_reader r;
    ntx_block_reader_init(&r, t, 1, p->from & ~(uint64_t)4095);
    r.fd = p->fd;
    r.touched = 0;
    while (guess != UINT64_MAX) {
        /* The end tag before the guessed block is checked by its first read, as the scan would check it. */
        r.pending_tag = t->gen == NTX_GEN_V6 ? UINT64_MAX : guess - 1;
        pos = read_chain(p, &r, guess);
        if (!p->n || !ended_early(p))
            break;
        p->n = 0; /* a chain that breaks (or an end-of-stream marker in mid-file) soon after the guess: look on */
        pos = UINT64_MAX;
        p->wrong++;
        guess = find_boundary(p, guess + 1, limit);
    }
    p->end_pos = pos;
    p->end_tag = r.pending_tag;
    if (r.touched && pos != UINT64_MAX && pos > r.released)
        ntx_trace_release(t, r.released, pos - r.released);
    if (p->fd != t->fd)
        close(p->fd);
    return NULL;
}

unsigned ntx_scan_split_start(ntx_scan_split *s, ntidx_trace *t, uint64_t start, unsigned threads, uint64_t min_part)
{
    memset(s, 0, sizeof *s);
    if (threads < 2 || t->fd < 0 || t->gen == NTX_GEN_NETPERF || start >= t->size || !min_part)
        return 0;
    uint64_t span = t->size - start;
    if (span / threads < min_part)
        threads = (unsigned)(span / min_part);
    if (threads < 2)
        return 0;
    unsigned nparts = threads - 1;
    s->parts = calloc(nparts, sizeof *s->parts);
    if (!s->parts)
        return 0; /* the scan reads alone */
    s->nparts = nparts;
    /*
     * Helpers start on the other cores. Placed on the scan's own core, a new
     * thread has been seen to take it from the scan for a scheduler tick (4 ms,
     * a third of a 1 GB trace's scan) before either moved. Once running, a
     * helper may go anywhere the process may (part_run).
     */
    pthread_attr_t others;
    int have_others = 0, me = sched_getcpu();
    if (me >= 0 && sched_getaffinity(0, sizeof s->cpus, &s->cpus) == 0 && CPU_ISSET(me, &s->cpus) &&
        CPU_COUNT(&s->cpus) > 1 && pthread_attr_init(&others) == 0) {
        cpu_set_t elsewhere = s->cpus;
        CPU_CLR(me, &elsewhere);
        have_others = 1;
        s->has_cpus = pthread_attr_setaffinity_np(&others, sizeof elsewhere, &elsewhere) == 0;
    }
    unsigned started = 0;
    for (unsigned k = 0; k < nparts; k++) {
        ntx_scan_part *p = &s->parts[k];
        p->s = s;
        p->t = t;
        p->from = start + span / threads * (k + 1);
        p->stop = k + 1 < nparts ? start + span / threads * (k + 2) : UINT64_MAX;
        p->max = MAX_RECORDS / nparts;
        p->end_pos = UINT64_MAX;
        p->running = pthread_create(&p->th, have_others ? &others : NULL, part_run, p) == 0;
        started += (unsigned)p->running;
    }
    if (have_others)
        pthread_attr_destroy(&others);
    return started;
}

static void part_join(ntx_scan_part *p)
{
    if (p->running) {
        pthread_join(p->th, NULL);
        p->running = 0;
    }
}

const ntx_scan_rec *ntx_scan_split_take(ntx_scan_split *s, uint64_t pos, size_t *n, const ntx_err **end_err,
                                        uint64_t *end_pos, uint64_t *end_tag)
{
    while (s->next < s->nparts) {
        ntx_scan_part *p = &s->parts[s->next];
        if (pos < p->from)
            return NULL;
        part_join(p);
        if (!p->n || pos > p->recs[p->n - 1].at) {
            s->next++; /* passed: the helper's guess never joined the chain the scan follows */
            continue;
        }
        size_t lo = 0, hi = p->n; /* records are in file order: the first at or after pos */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (p->recs[mid].at < pos)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (p->recs[lo].at != pos)
            return NULL;
        s->next++;
        *n = p->n - lo;
        *end_err = &p->err;
        *end_pos = p->end_pos;
        *end_tag = p->end_tag;
        return &p->recs[lo];
    }
    return NULL;
}

unsigned ntx_scan_split_wrong_guesses(ntx_scan_split *s)
{
    unsigned n = 0;
    for (unsigned k = 0; k < s->nparts; k++) {
        part_join(&s->parts[k]);
        n += s->parts[k].wrong;
    }
    return n;
}

void ntx_scan_split_end(ntx_scan_split *s)
{
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
    for (unsigned k = 0; k < s->nparts; k++) {
        part_join(&s->parts[k]);
        free(s->parts[k].recs);
    }
    free(s->parts);
    memset(s, 0, sizeof *s);
}
