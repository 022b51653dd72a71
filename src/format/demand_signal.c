/*
 * Pages filled on first touch through SIGSEGV (demand_signal.h).
 *
 * The registry is a fixed array of slots (a process reads few remote traces
 * at once), each claimed with a compare-and-swap and written under a
 * sequence count (odd while it changes), as map_guard.c's: the handler takes
 * a slot's fields only when the count was even and the same before and after.
 */
#include "demand_signal.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "the SIGSEGV handler needs lock-free atomics");

#define SLOTS 256

struct ntx_sigfill_slot {
    _Atomic int claimed;
    _Atomic unsigned long seq;
    _Atomic uintptr_t base; /* 0: not in use */
    _Atomic size_t len, unit;
    _Atomic int fd;
    _Atomic(_Atomic uint32_t *) count;
};

static struct ntx_sigfill_slot slots[SLOTS];
static struct sigaction previous;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;

static void write_slot(struct ntx_sigfill_slot *s, uintptr_t base, size_t len, size_t unit, int fd,
                       _Atomic uint32_t *count)
{
    unsigned long seq = atomic_load(&s->seq);
    atomic_store(&s->seq, seq + 1);
    atomic_store(&s->base, base);
    atomic_store(&s->len, len);
    atomic_store(&s->unit, unit);
    atomic_store(&s->fd, fd);
    atomic_store(&s->count, count);
    atomic_store(&s->seq, seq + 2);
}

/* A fault at addr in a served mapping: ask for its unit, wait for a fill. 1 when it was ours. */
static int serve(uintptr_t addr)
{
    for (int i = 0; i < SLOTS; i++) {
        struct ntx_sigfill_slot *s = &slots[i];
        unsigned long seq = atomic_load(&s->seq);
        if (seq & 1)
            continue;
        uintptr_t base = atomic_load(&s->base);
        size_t len = atomic_load(&s->len), unit = atomic_load(&s->unit);
        int fd = atomic_load(&s->fd);
        _Atomic uint32_t *count = atomic_load(&s->count);
        if (!base || atomic_load(&s->seq) != seq || addr < base || addr - base >= len || !unit)
            continue;
        uint32_t seen = atomic_load(count);
        size_t u = (addr - base) / unit;
        ssize_t w;
        do
            w = write(fd, &u, sizeof u);
        while (w < 0 && errno == EINTR);
        if (w != (ssize_t)sizeof u)
            return 0; /* the fill thread is gone: not ours to serve any more */
        /* until a fill since the request (this unit's or another's: a read that faults again asks again) */
        syscall(SYS_futex, (uint32_t *)count, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
        return 1;
    }
    return 0;
}

static void pass_on(int sig, siginfo_t *si, void *uc)
{
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) {
            previous.sa_sigaction(sig, si, uc);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    /* the default action: the fault repeats when this returns, and kills the process */
    struct sigaction dfl;
    dfl.sa_handler = SIG_DFL;
    dfl.sa_flags = 0;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (si->si_code <= 0)
        raise(sig);
}

static void on_sigsegv(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* only the kernel's report of an access the protection refused (PROT_NONE), never a kill() */
    if (si && si->si_code == SEGV_ACCERR && serve((uintptr_t)si->si_addr)) {
        errno = saved;
        return;
    }
    errno = saved;
    pass_on(sig, si, uc);
}

static void install(void)
{
    struct sigaction sa;
    sa.sa_sigaction = on_sigsegv;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    installed = sigaction(SIGSEGV, NULL, &previous) == 0 && sigaction(SIGSEGV, &sa, NULL) == 0;
}

struct ntx_sigfill_slot *ntx_sigfill_add(const void *base, size_t len, size_t unit, int request_fd,
                                         _Atomic uint32_t *filled_count)
{
    pthread_once(&install_once, install);
    if (!installed || !base || !len || !unit)
        return NULL;
    for (int i = 0; i < SLOTS; i++) {
        int free_slot = 0;
        if (atomic_compare_exchange_strong(&slots[i].claimed, &free_slot, 1)) {
            write_slot(&slots[i], (uintptr_t)base, len, unit, request_fd, filled_count);
            return &slots[i];
        }
    }
    return NULL;
}

void ntx_sigfill_remove(struct ntx_sigfill_slot *s)
{
    if (!s)
        return;
    write_slot(s, 0, 0, 0, -1, NULL);
    atomic_store(&s->claimed, 0);
}

void ntx_sigfill_done(_Atomic uint32_t *filled_count)
{
    atomic_fetch_add(filled_count, 1);
    syscall(SYS_futex, (uint32_t *)filled_count, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}
