/*
 * A source without a mapping of its own (a remote object, an embedder's
 * callbacks) as memory: an anonymous mapping of the object's size whose
 * pages the source fills when they are first touched (source.h,
 * ntx_demand_map()).
 *
 * The mapping is registered with userfaultfd in "missing" mode: a read of
 * a page no one filled stops the reading thread until the handler thread
 * has read the page's unit (NTX_DEMAND_UNIT bytes, aligned) from the source
 * and copied it in (UFFDIO_COPY). What a plan is about to read it asks for
 * with ntx_demand_prefetch(), which the source turns into large requests;
 * what they bring is copied in as it comes, on the source's threads
 * (arrived(), ntx_source_on_arrival()), so the readers rarely stop; a fault
 * that comes first waits for the request and copies from it. What nobody
 * announced but is read in order (a walk over the blocks' headers) is read
 * ahead as the kernel reads a file ahead: two faults that each cost a
 * request, the second a little past the first, open a read-ahead window
 * after it, asked of the source as a hint; a fault past the middle of the
 * window opens the next one, twice as large, up to NTX_DEMAND_AHEAD_MAX.
 * Up to NTX_DEMAND_STREAMS such walks are followed at once (the threads of
 * parallel statistics each walk regions of their own).
 * Faults in ranges the caller announced change nothing. A local trace's
 * mapping reads nothing ahead by itself (docs/architecture.md): a page
 * fault costs a disk read there, a request costs a round trip here. A unit that
 * cannot be read is mapped as zeros and its offset recorded in the fault
 * word (map_guard.h), with the source's error kept for the checkpoint that
 * reports it (ntx_demand_error()): every byte of a trace is bounds-checked
 * as untrusted, so decoding zeros is safe, and the operation fails at its
 * next checkpoint as it does for a file that shrank under its mapping.
 * Units the caller keeps (ntx_demand_keep(): the definitions that regions are
 * primed with) stay when a release covers them, and a fault's request that a
 * release made stale (the unit filled, its reader past it, then released) is
 * not filled again: parallel statistics ask for each byte of a trace once.
 *
 * Where userfaultfd cannot be had (a seccomp profile that refuses it, as
 * Docker's default one does; a kernel without it), or NTIDX_NO_USERFAULTFD=1
 * asks so (the tests), the same mapping is served through SIGSEGV
 * (demand_signal.h): the units nobody filled are PROT_NONE, a read of one
 * sends its number to this handler thread and waits, and the thread puts the
 * filled unit in place with mremap() of a private copy, atomically for every
 * other reader. Prefetch, read-ahead, release and errors are the same; what
 * differs is that a read of the mapping by the kernel (a write() from it) of a
 * unit nobody touched yet fails with EFAULT instead of waiting, as with the
 * user-mode-only kind of userfaultfd (a slice's copied blocks are read first:
 * ntx_trace_fill()).
 */
#include "source_demand.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "demand_signal.h"
#include "ntidx/ntidx.h"

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

/* A unit's mark while a prefetch's arrival copies it in (arrived()): neither filled nor free to fill. */
#define UNIT_PLACING 2

struct ntx_demand {
    ntx_source *src;
    uint8_t *base;
    size_t len;        /* of the mapping: the size rounded up to units */
    int uffd;
    int stop_pipe[2];
    /* without userfaultfd: the faults' requests (unit numbers), their slot, the count of fills they wait on */
    int sig_mode;
    int req_pipe[2];
    struct ntx_sigfill_slot *slot;
    _Atomic uint32_t fill_count;
    pthread_t thread;
    int thread_started;
    pthread_mutex_t mu;
    uint8_t *filled;   /* one byte per unit: 1 once copied in, UNIT_PLACING while arrived() copies it in */
    uint8_t *kept;     /* one byte per unit: 1 when releases leave it (ntx_demand_keep()) */
    uint8_t *dropped;  /* one byte per unit: 1 when released after it was filled (or announced), until filled */
    uint8_t *announced; /* one byte per unit: 1 while a caller's prefetch of it is under way (not read-ahead's) */
    size_t units;
    uint8_t *buf;      /* the handler's unit buffer */
    ntx_fault_word *fault;
    /* the handler's read-ahead, per stream of faults in order (threads reading regions in parallel each
       walk their own): its last fault's unit, its window [ra_start, ra_end) and the window's size (units) */
    struct ra_stream {
        size_t last_unit, ra_start, ra_end, ra_size;
        uint64_t used;
    } streams[NTX_DEMAND_STREAMS];
    uint64_t clock;
    _Atomic uint64_t n_faults; /* units a fault filled (ntx_demand_faults()) */
    ntx_err first_err; /* the first unit that could not be read */
    int has_err;
};

/* With userfaultfd: the readers stopped in [off, off+len) of the mapping woken, its pages as they are (one that
   finds its page still missing faults again). */
static void wake_range(ntx_demand *d, uint64_t off, uint64_t len)
{
    struct uffdio_range r = {.start = (uintptr_t)(d->base + off), .len = len};
    (void)ioctl(d->uffd, UFFDIO_WAKE, &r);
}

/* Copy `len` bytes (whole units) from `src` into the mapping at `off` and wake whoever waits on them. Pages that
   exist already are left as they are: they hold the same bytes, copied by an earlier fault or by a prefetch's
   arrival (arrived(), on the source's threads, at the same time as this handler's faults), and a unit can be
   partly present when ntx_demand_release() zapped it while a copy into it was under way (another thread read
   definitions in a region its owner had released). UFFDIO_COPY stops at such a page: with EEXIST when it is the
   first, with EAGAIN and the bytes copied before it otherwise; it also says EAGAIN while the address space
   changes. 0, or the errno of a copy that cannot be made. */
static int copy_range(ntx_demand *d, uint64_t off, const uint8_t *src, uint64_t len)
{
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t done = 0;
    int again = 0;
    while (done < len) {
        struct uffdio_copy copy = {.dst = (uintptr_t)(d->base + off + done),
                                   .src = (uintptr_t)(src + done),
                                   .len = len - done};
        if (ioctl(d->uffd, UFFDIO_COPY, &copy) == 0)
            break;
        int e = errno;
        if (copy.copy > 0) /* part copied (and woken) before a page that exists or a change of the mapping */
            done += (uint64_t)copy.copy;
        else if (e == EEXIST)
            done += page; /* this page exists: the next one */
        else if ((e == EAGAIN || e == EINTR || e == ENOENT) && ++again < 10000)
            sched_yield(); /* the mappings are changing: try again */
        else
            return e;
    }
    /* a page that existed was not woken by a copy: wake the whole range (cheap, and nobody is left waiting) */
    wake_range(d, off, len);
    return 0;
}

static int copy_unit(ntx_demand *d, size_t unit)
{
    return copy_range(d, (uint64_t)unit * NTX_DEMAND_UNIT, d->buf, NTX_DEMAND_UNIT);
}

/* Without userfaultfd: put d->buf in the unit's place, readable, in one step for every other reader (a private
   copy moved over it), and mark it filled in the same hold of the lock that ntx_demand_release() takes (a unit
   marked filled is readable). The caller wakes the readers that wait. 0, or the errno of what failed. */
static int place_unit(ntx_demand *d, size_t unit)
{
    uint8_t *dst = d->base + (uint64_t)unit * NTX_DEMAND_UNIT;
    void *copy = mmap(NULL, NTX_DEMAND_UNIT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int e = 0;
    if (copy == MAP_FAILED)
        e = errno;
    else {
        memcpy(copy, d->buf, NTX_DEMAND_UNIT);
        if (mprotect(copy, NTX_DEMAND_UNIT, PROT_READ) != 0)
            e = errno;
    }
    pthread_mutex_lock(&d->mu);
    if (!e && mremap(copy, NTX_DEMAND_UNIT, NTX_DEMAND_UNIT, MREMAP_MAYMOVE | MREMAP_FIXED, dst) == MAP_FAILED)
        e = errno;
    if (e) /* zeros, readable, rather than a reader stopped for ever (the caller records the error) */
        (void)mmap(dst, NTX_DEMAND_UNIT, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    d->filled[unit] = 1;
    d->dropped[unit] = 0;
    pthread_mutex_unlock(&d->mu);
    if (e && copy != MAP_FAILED)
        munmap(copy, NTX_DEMAND_UNIT);
    return e;
}

/* A unit that cannot be read: the error first, then the fault word (a checkpoint that sees the fault finds the
   error), both before the reader that waits for the unit is woken. */
static void note_error(ntx_demand *d, size_t unit, const ntx_err *e)
{
    pthread_mutex_lock(&d->mu);
    if (!d->has_err) {
        d->first_err = *e;
        d->has_err = 1;
    }
    pthread_mutex_unlock(&d->mu);
    ntx_fault_note(d->fault, (uint64_t)unit * NTX_DEMAND_UNIT);
}

static int fill_unit(ntx_demand *d, size_t unit)
{
    uint64_t off = (uint64_t)unit * NTX_DEMAND_UNIT;
    uint64_t n = d->src->id.size - off < NTX_DEMAND_UNIT ? d->src->id.size - off : NTX_DEMAND_UNIT;
    ntx_err e;
    memset(&e, 0, sizeof e);
    int rc = n ? ntx_source_read(d->src, off, d->buf, (size_t)n, &e) : NTIDX_OK;
    if (rc != NTIDX_OK) {
        memset(d->buf, 0, NTX_DEMAND_UNIT);
        /* recorded before the zeros are copied in: the copy wakes the reader, whose next checkpoint must find
           the fault (else it reports what it made of the zeros) */
        note_error(d, unit, &e);
    } else if (n < NTX_DEMAND_UNIT)
        memset(d->buf + n, 0, NTX_DEMAND_UNIT - n); /* past the end: zeros, as a file's last page */
    int copy_errno = d->sig_mode ? place_unit(d, unit) : copy_unit(d, unit);
    if (rc == NTIDX_OK && copy_errno) {
        memset(&e, 0, sizeof e);
        (void)ntx_err_at(&e, NTIDX_E_IO, off, "cannot fill the pages of bytes %llu-%llu of the mapping: %s",
                         (unsigned long long)off, (unsigned long long)(off + NTX_DEMAND_UNIT - 1),
                         strerror(copy_errno));
        note_error(d, unit, &e); /* before the handler wakes the reader with zeros */
    }
    if (d->sig_mode) { /* placed (zeros if it could not be) and marked filled: wake the readers, the error noted */
        ntx_sigfill_done(&d->fill_count);
        return copy_errno ? -1 : 0;
    }
    if (copy_errno)
        return -1;
    pthread_mutex_lock(&d->mu);
    d->filled[unit] = 1;
    d->dropped[unit] = 0;
    pthread_mutex_unlock(&d->mu);
    return 0;
}

static void prefetch_units(ntx_demand *d, int announce, uint64_t off, uint64_t len);
static int arrived(void *ctx, uint64_t off, const uint8_t *buf, uint64_t len);

/* The stream a fault at `unit` continues (in its window, or a little past its last fault), else NULL. */
static struct ra_stream *stream_of(ntx_demand *d, size_t unit)
{
    for (int i = 0; i < NTX_DEMAND_STREAMS; i++) {
        struct ra_stream *r = &d->streams[i];
        if (r->used && ((unit >= r->ra_start && unit < r->ra_end) ||
                        (unit > r->last_unit && unit - r->last_unit <= 4)))
            return r;
    }
    return NULL;
}

/* After a fault at `unit` (`missed`: it cost a request): open or move a read-ahead window. */
static void read_ahead(ntx_demand *d, size_t unit, int missed)
{
    const size_t max = NTX_DEMAND_AHEAD_MAX / NTX_DEMAND_UNIT;
    struct ra_stream *r = stream_of(d, unit);
    size_t start;
    if (r && unit >= r->ra_start && unit < r->ra_end) {
        r->last_unit = unit;
        r->used = ++d->clock;
        if (unit < r->ra_start + (r->ra_end - r->ra_start) / 2 || r->ra_end >= d->units)
            return; /* the window still holds enough ahead */
        r->ra_size = r->ra_size * 2 < max ? r->ra_size * 2 : max;
        start = r->ra_end;
    } else if (r && missed) {
        r->ra_size = 4; /* two misses in order: a walk */
        start = unit + 1;
    } else {
        if (!missed)
            return; /* in a range the caller announced */
        /* a new stream, in the place of the least recently used */
        struct ra_stream *lru = &d->streams[0];
        for (int i = 1; i < NTX_DEMAND_STREAMS; i++)
            if (d->streams[i].used < lru->used)
                lru = &d->streams[i];
        *lru = (struct ra_stream){.last_unit = unit, .used = ++d->clock};
        return;
    }
    r->last_unit = unit;
    r->used = ++d->clock;
    if (start >= d->units)
        return;
    r->ra_start = start;
    r->ra_end = start + r->ra_size < d->units ? start + r->ra_size : d->units;
    prefetch_units(d, 0, (uint64_t)r->ra_start * NTX_DEMAND_UNIT,
                        (uint64_t)(r->ra_end - r->ra_start) * NTX_DEMAND_UNIT);
}

/* The readers stopped at `unit` woken, its pages as they are. */
static void wake_readers(ntx_demand *d, size_t unit)
{
    if (d->sig_mode)
        ntx_sigfill_done(&d->fill_count);
    else
        wake_range(d, (uint64_t)unit * NTX_DEMAND_UNIT, NTX_DEMAND_UNIT);
}

/*
 * A fault's request for a unit that was filled and then released since is
 * likely stale: asked for before the fill (a reader that faulted again while
 * it waited asks again; without userfaultfd, the first fill of it answers
 * both), the reader long past it, and filling it would ask the source for a
 * range nobody reads (and read ahead of it). Its readers are woken instead: one
 * that still needs the unit faults again and asks again, and that request is
 * served (the mark is gone). 1 when the request was answered so.
 */
static int wake_if_stale(ntx_demand *d, size_t unit)
{
    pthread_mutex_lock(&d->mu);
    int stale = d->dropped[unit] && !d->filled[unit];
    d->dropped[unit] = 0;
    pthread_mutex_unlock(&d->mu);
    if (!stale)
        return 0;
    wake_readers(d, unit);
    return 1;
}

/* Every page of `unit` is in the mapping (mincore(); 0 when it cannot tell). */
static int unit_present(const ntx_demand *d, size_t unit)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), n = NTX_DEMAND_UNIT / page;
    unsigned char vec[NTX_DEMAND_UNIT / 4096 + 1];
    if (n > sizeof vec || mincore(d->base + (uint64_t)unit * NTX_DEMAND_UNIT, NTX_DEMAND_UNIT, vec) != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(vec[i] & 1))
            return 0;
    return 1;
}

/* A fault at `unit`: fill it, then read ahead of a walk. */
static void serve_fault(ntx_demand *d, size_t unit)
{
    if (wake_if_stale(d, unit))
        return;
    pthread_mutex_lock(&d->mu);
    int was_filled = d->filled[unit];
    pthread_mutex_unlock(&d->mu);
    /* Being copied in by its prefetch's arrival (arrived()): the copy wakes its readers, whenever this fault
       was taken. Filling it here would ask the source again for bytes it hands over as the copy ends. */
    if (was_filled == UNIT_PLACING)
        return;
    /* Filled since it was asked for: two readers, a request after a fill, or a prefetch whose bytes the mapping
       took (arrived()) while this fault waited in line, after which the source keeps no copy and reading the unit
       again would cost a request of its own. Wake the readers. (With userfaultfd only while its pages are there:
       a reader that gave read bytes back to the kernel (MADV_DONTNEED) faults on a unit still marked filled.) */
    if (was_filled && (d->sig_mode || unit_present(d, unit))) {
        wake_readers(d, unit);
        return;
    }
    /* a unit a caller announced is read by a plan that asks for its own blocks ahead of itself: no walk to read
       ahead of (a window opened from its faults, where every unit faults (SIGSEGV), ran 8 MiB past the plan's
       blocks, into regions another thread had read and released already, and asked for them again) */
    pthread_mutex_lock(&d->mu);
    int announced = d->announced[unit];
    pthread_mutex_unlock(&d->mu);
    uint64_t requests = __atomic_load_n(&d->src->n_requests, __ATOMIC_RELAXED);
    d->n_faults++;
    int filled = fill_unit(d, unit) == 0;
    int missed = __atomic_load_n(&d->src->n_requests, __ATOMIC_RELAXED) != requests;
    if (!announced)
        read_ahead(d, unit, missed);
    if (!filled && !d->sig_mode) {
        /* the copy itself failed: wake the reader with zeros rather than leave it stopped */
        struct uffdio_zeropage z = {.range = {.start = (uintptr_t)d->base + unit * NTX_DEMAND_UNIT,
                                              .len = NTX_DEMAND_UNIT}};
        (void)ioctl(d->uffd, UFFDIO_ZEROPAGE, &z); /* fill_unit() recorded the error and the fault */
    }
}

/* The fill threads' wait: 1 when `fd` has something to read, 0 when the thread is to stop (or poll fails). */
static int wait_input(ntx_demand *d, int fd)
{
    struct pollfd p[2] = {{fd, POLLIN, 0}, {d->stop_pipe[0], POLLIN, 0}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        return !p[1].revents;
    }
}

/* Without userfaultfd: the requests waiting in the pipe appended to q (n of them), up to `cap`; the new count. */
static size_t drain_requests(ntx_demand *d, size_t *q, size_t n, size_t cap)
{
    while (n < cap) {
        ssize_t got = read(d->req_pipe[0], q + n, (cap - n) * sizeof *q); /* (the read end does not block) */
        if (got <= 0)
            break;
        n += (size_t)got / sizeof *q;
    }
    return n;
}

/* Whether the thread is asked to stop, without waiting. */
static int stop_asked(ntx_demand *d)
{
    struct pollfd p = {d->stop_pipe[0], POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

/*
 * Without userfaultfd: the units the SIGSEGV handler asks for (demand_signal.c), in order. A reader that waits
 * for its unit is woken by every fill and asks again while its unit is not in place, so the pipe holds the same
 * unit many times: the requests for a unit waiting when it is served are answered by that one service (its
 * fill, or the wake of a stale request, wakes every reader that made them: demand_signal.c's readers wait for
 * a fill since they asked), rather than left to a time when the unit may have been released again, when each
 * would ask the source for it again.
 */
#define REQUEST_QUEUE 4096
static void *sig_handler_thread(void *arg)
{
    ntx_demand *d = arg;
    size_t q[REQUEST_QUEUE], n = 0;
    for (;;) {
        n = drain_requests(d, q, n, REQUEST_QUEUE);
        if (n == 0) {
            if (!wait_input(d, d->req_pipe[0]))
                break;
            continue;
        }
        if (stop_asked(d))
            break;
        size_t unit = q[0], kept = 0;
        for (size_t i = 1; i < n; i++)
            if (q[i] != unit)
                q[kept++] = q[i];
        n = kept;
        if (unit < d->units)
            serve_fault(d, unit);
    }
    return NULL;
}

static void *handler(void *arg)
{
    ntx_demand *d = arg;
    while (wait_input(d, d->uffd)) {
        struct uffd_msg msg;
        ssize_t n = read(d->uffd, &msg, sizeof msg);
        if (n != (ssize_t)sizeof msg || msg.event != UFFD_EVENT_PAGEFAULT)
            continue;
        uint64_t at = msg.arg.pagefault.address - (uintptr_t)d->base;
        if (at >= d->len)
            continue;
        serve_fault(d, (size_t)(at / NTX_DEMAND_UNIT));
    }
    return NULL;
}

static int open_uffd(void)
{
    /* Kernel-mode reads of the mapping (a write() from it) are served only without UFFD_USER_MODE_ONLY,
       which needs the privilege vm.unprivileged_userfaultfd grants; the user-mode-only kind works for
       anyone since Linux 5.11. */
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    return fd;
}

int ntx_demand_map(ntx_source *s, ntx_fault_word *fault, ntx_demand **out, ntx_err *err)
{
    *out = NULL;
    ntx_demand *d = calloc(1, sizeof *d);
    if (!d)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    d->src = s;
    d->fault = fault;
    d->uffd = -1;
    d->stop_pipe[0] = d->stop_pipe[1] = -1;
    d->req_pipe[0] = d->req_pipe[1] = -1;
    pthread_mutex_init(&d->mu, NULL);
    d->units = (size_t)((s->id.size + NTX_DEMAND_UNIT - 1) / NTX_DEMAND_UNIT);
    d->len = d->units * NTX_DEMAND_UNIT;
    if (d->len == 0) {
        *out = d;
        return NTIDX_OK;
    }
    d->filled = calloc(d->units, 1);
    d->kept = calloc(d->units, 1);
    d->dropped = calloc(d->units, 1);
    d->announced = calloc(d->units, 1);
    d->buf = malloc(NTX_DEMAND_UNIT);
    void *p = mmap(NULL, d->len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (!d->filled || !d->kept || !d->dropped || !d->announced || !d->buf || p == MAP_FAILED) {
        if (p != MAP_FAILED)
            munmap(p, d->len);
        ntx_demand_unmap(d);
        return ntx_err_set(err, NTIDX_E_NOMEM, "cannot reserve %zu bytes of address space", d->len);
    }
    d->base = p;
    if (pipe2(d->stop_pipe, O_CLOEXEC) != 0) {
        ntx_demand_unmap(d);
        return ntx_err_set(err, NTIDX_E_NOMEM, "cannot make a pipe: %s", strerror(errno));
    }
    /* userfaultfd, unless it is refused (or NTIDX_NO_USERFAULTFD=1 says not to try): then SIGSEGV */
    const char *no = getenv("NTIDX_NO_USERFAULTFD");
    int uffd_errno = ENOSYS;
    if (!(no && *no && strcmp(no, "0") != 0)) {
        d->uffd = open_uffd();
        uffd_errno = errno;
        struct uffdio_api api = {.api = UFFD_API};
        struct uffdio_register reg = {.range = {.start = (uintptr_t)d->base, .len = d->len},
                                      .mode = UFFDIO_REGISTER_MODE_MISSING};
        if (d->uffd >= 0 && (ioctl(d->uffd, UFFDIO_API, &api) != 0 || ioctl(d->uffd, UFFDIO_REGISTER, &reg) != 0)) {
            uffd_errno = errno;
            close(d->uffd);
            d->uffd = -1;
        }
    }
    if (d->uffd < 0) {
        d->sig_mode = 1;
        if (mprotect(d->base, d->len, PROT_NONE) != 0 || pipe2(d->req_pipe, O_CLOEXEC) != 0 ||
            fcntl(d->req_pipe[0], F_SETFL, O_NONBLOCK) != 0 ||
            !(d->slot = ntx_sigfill_add(d->base, d->len, NTX_DEMAND_UNIT, d->req_pipe[1], &d->fill_count))) {
            ntx_demand_unmap(d);
            return ntx_err_set(err, NTIDX_E_UNSUPPORTED,
                               "reading a remote trace needs userfaultfd (%s) or, without it, a SIGSEGV handler "
                               "of its own (too many remote traces open, or the handler could not be installed)",
                               strerror(uffd_errno));
        }
    }
    if (pthread_create(&d->thread, NULL, d->sig_mode ? sig_handler_thread : handler, d) != 0) {
        ntx_demand_unmap(d);
        return ntx_err_set(err, NTIDX_E_NOMEM, "cannot start the page-fill thread");
    }
    d->thread_started = 1;
    if (!d->sig_mode) /* (without userfaultfd, a unit is put in place by its fault only) */
        ntx_source_on_arrival(s, arrived, d);
    *out = d;
    return NTIDX_OK;
}

const uint8_t *ntx_demand_base(const ntx_demand *d) { return d->base; }
uint64_t ntx_demand_faults(const ntx_demand *d) { return d->n_faults; }
int ntx_demand_by_signal(const ntx_demand *d) { return d->sig_mode; }

/* Ask the source for the units of [off, off+len) not filled yet; `announce`: a caller's (ntx_demand_prefetch()),
   whose units are put in place as soon as they arrive, rather than read-ahead's (read_ahead()), whose units
   are left to the faults that move the walk's window on. */
static void prefetch_units(ntx_demand *d, int announce, uint64_t off, uint64_t len)
{
    /* units already filled need nothing: ask the source only for the rest */
    if (!d->len || off >= d->src->id.size)
        return;
    if (len > d->src->id.size - off)
        len = d->src->id.size - off;
    size_t u0 = (size_t)(off / NTX_DEMAND_UNIT), u1 = (size_t)((off + len - 1) / NTX_DEMAND_UNIT);
    pthread_mutex_lock(&d->mu);
    while (u0 <= u1 && d->filled[u0])
        u0++;
    while (u1 > u0 && d->filled[u1])
        u1--;
    if (announce && u0 <= u1)
        memset(d->announced + u0, 1, u1 - u0 + 1);
    pthread_mutex_unlock(&d->mu);
    if (u0 > u1)
        return;
    uint64_t a = (uint64_t)u0 * NTX_DEMAND_UNIT, b = (uint64_t)(u1 + 1) * NTX_DEMAND_UNIT;
    ntx_source_prefetch(d->src, a, b - a);
}

void ntx_demand_prefetch(ntx_demand *d, uint64_t off, uint64_t len) { prefetch_units(d, 1, off, len); }

/*
 * A prefetch brought [off, off+len) (the source's thread, ntx_source_on_arrival()): the whole units of it that a
 * caller announced and nobody filled yet are copied in now, each run of them in one call, so the readers find
 * them in place instead of each stopping at a fault for the handler thread to fill its unit. The object's last
 * unit, when partial, is left to its fault (its tail is zeros, which the source's bytes do not hold). Units
 * released meanwhile (no longer announced) are not marked filled: copied in or not, a read of them is served.
 * 1 when every byte of the range is in place now (whole units, each filled).
 */
static int arrived(void *ctx, uint64_t off, const uint8_t *buf, uint64_t len)
{
    ntx_demand *d = ctx;
    uint64_t u = (off + NTX_DEMAND_UNIT - 1) / NTX_DEMAND_UNIT, end = (off + len) / NTX_DEMAND_UNIT;
    if (end > d->src->id.size / NTX_DEMAND_UNIT)
        end = d->src->id.size / NTX_DEMAND_UNIT;
    while (u < end) {
        pthread_mutex_lock(&d->mu);
        while (u < end && !(d->announced[u] && !d->filled[u]))
            u++;
        uint64_t s = u;
        while (u < end && d->announced[u] && !d->filled[u])
            d->filled[u++] = UNIT_PLACING;
        pthread_mutex_unlock(&d->mu);
        if (u == s)
            break;
        int e = copy_range(d, s * NTX_DEMAND_UNIT, buf + (s * NTX_DEMAND_UNIT - off), (u - s) * NTX_DEMAND_UNIT);
        pthread_mutex_lock(&d->mu);
        for (uint64_t k = s; k < u; k++)
            if (d->filled[k] == UNIT_PLACING) { /* (not released meanwhile: drop_units() zeroes the mark) */
                d->filled[k] = e ? 0 : 1;
                if (!e) {
                    d->dropped[k] = 0;
                    d->announced[k] = 0;
                }
            }
        pthread_mutex_unlock(&d->mu);
        if (e) { /* the faults fill them as before: the readers the handler left to this copy fault again */
            wake_range(d, s * NTX_DEMAND_UNIT, (u - s) * NTX_DEMAND_UNIT);
            return 0;
        }
    }
    if (off % NTX_DEMAND_UNIT || (off + len) % NTX_DEMAND_UNIT || !len)
        return 0;
    int all = 1;
    pthread_mutex_lock(&d->mu);
    for (uint64_t k = off / NTX_DEMAND_UNIT; all && k < (off + len) / NTX_DEMAND_UNIT; k++)
        all = d->filled[k];
    pthread_mutex_unlock(&d->mu);
    return all;
}

/* Units [a, b) dropped (mu held): zeros again in the mapping, read again from the source if touched. */
static void drop_units(ntx_demand *d, uint64_t a, uint64_t b)
{
    for (uint64_t u = a; u < b; u++) /* (an announced unit may be being copied in by its arrival) */
        d->dropped[u] |= d->filled[u] | d->announced[u];
    memset(d->filled + a, 0, (size_t)(b - a));
    memset(d->announced + a, 0, (size_t)(b - a));
    if (d->sig_mode) /* inaccessible again: the next read faults and fills it */
        (void)mmap(d->base + a * NTX_DEMAND_UNIT, (size_t)((b - a) * NTX_DEMAND_UNIT), PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    else
        (void)madvise(d->base + a * NTX_DEMAND_UNIT, (size_t)((b - a) * NTX_DEMAND_UNIT), MADV_DONTNEED);
}

void ntx_demand_release(ntx_demand *d, uint64_t off, uint64_t len)
{
    if (!d->len || !len)
        return;
    /* whole units only: a unit partly outside the range may still be read */
    uint64_t a = (off + NTX_DEMAND_UNIT - 1) / NTX_DEMAND_UNIT, b = (off + len) / NTX_DEMAND_UNIT;
    if (b > d->units)
        b = d->units;
    if (a >= b)
        return;
    /* each run of units not kept: dropped; the source's copy of the whole range with them (a kept unit's bytes
       are in the mapping) */
    pthread_mutex_lock(&d->mu);
    for (uint64_t u = a; u < b;) {
        while (u < b && d->kept[u])
            u++;
        uint64_t s = u;
        while (u < b && !d->kept[u])
            u++;
        if (u > s)
            drop_units(d, s, u);
    }
    pthread_mutex_unlock(&d->mu);
    ntx_source_release(d->src, a * NTX_DEMAND_UNIT, (b - a) * NTX_DEMAND_UNIT);
}

void ntx_demand_keep(ntx_demand *d, uint64_t off, uint64_t len)
{
    if (!d->len || !len || off >= d->src->id.size)
        return;
    if (len > d->src->id.size - off)
        len = d->src->id.size - off;
    size_t u0 = (size_t)(off / NTX_DEMAND_UNIT), u1 = (size_t)((off + len - 1) / NTX_DEMAND_UNIT);
    pthread_mutex_lock(&d->mu);
    memset(d->kept + u0, 1, u1 - u0 + 1);
    pthread_mutex_unlock(&d->mu);
}

int ntx_demand_error(ntx_demand *d, ntx_err *err)
{
    pthread_mutex_lock(&d->mu);
    int has = d->has_err;
    if (has && err)
        *err = d->first_err;
    pthread_mutex_unlock(&d->mu);
    return has ? d->first_err.code : NTIDX_OK;
}

void ntx_demand_unmap(ntx_demand *d)
{
    if (!d)
        return;
    ntx_sigfill_remove(d->slot); /* nothing reads the mapping any more */
    if (d->len && !d->sig_mode && d->thread_started)
        ntx_source_on_arrival(d->src, NULL, NULL); /* no arrival is copied in from here on */
    if (d->thread_started) {
        char c = 1;
        ssize_t w = write(d->stop_pipe[1], &c, 1);
        (void)w;
        pthread_join(d->thread, NULL);
    }
    if (d->uffd >= 0)
        close(d->uffd);
    for (int i = 0; i < 2; i++) {
        if (d->stop_pipe[i] >= 0)
            close(d->stop_pipe[i]);
        if (d->req_pipe[i] >= 0)
            close(d->req_pipe[i]);
    }
    if (d->base)
        munmap(d->base, d->len);
    pthread_mutex_destroy(&d->mu);
    free(d->filled);
    free(d->kept);
    free(d->dropped);
    free(d->announced);
    free(d->buf);
    free(d);
}
