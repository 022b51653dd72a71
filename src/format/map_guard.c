/*
 * The SIGBUS guard of mapped files (map_guard.h).
 *
 * The registry is a list of chunks of slots that only grows: a chunk, once
 * linked, is never freed, so the handler can walk it at any moment without a
 * lock. A slot is claimed with a compare-and-swap; its fields are written
 * under a sequence count (odd while they change), and the handler takes a
 * slot's fields only when the count was even and the same before and after
 * reading them. The mapping that faulted is registered before anything
 * reads it and removed only when nothing reads it any more, so its slot is
 * stable while the handler looks: a torn or changing slot is someone else's.
 *
 * What the handler calls is async-signal-safe: atomics (lock-free, asserted
 * below), the mmap system call made directly, sigaction() and raise().
 */
#include "map_guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2 && ATOMIC_LONG_LOCK_FREE == 2,
               "the SIGBUS handler needs lock-free atomics");

struct ntx_guard_slot {
    _Atomic int claimed;
    _Atomic unsigned long seq;  /* odd while the fields below change */
    _Atomic uintptr_t base;     /* 0: not in use */
    _Atomic size_t len;
    _Atomic(ntx_fault_word *) fault;
};

#define SLOTS_PER_CHUNK 64
struct chunk {
    struct ntx_guard_slot slot[SLOTS_PER_CHUNK];
    _Atomic(struct chunk *) next;
};

static struct chunk first_chunk;
static struct sigaction previous; /* written once, before the handler is installed */
static uintptr_t page_size;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;

void ntx_fault_note(ntx_fault_word *w, uint64_t offset)
{
    uint64_t mark = offset + 1, old = atomic_load_explicit(w, memory_order_relaxed);
    while ((old == 0 || mark < old) &&
           !atomic_compare_exchange_weak_explicit(w, &old, mark, memory_order_seq_cst, memory_order_relaxed))
        ;
}

/* The slot's fields when it is stable and in use: 1, else 0. (Sequentially consistent loads and stores
   throughout: the registry changes at a trace's open and close only, and the handler runs on faults only.) */
static int read_slot(struct ntx_guard_slot *s, uintptr_t *base, size_t *len, ntx_fault_word **fault)
{
    unsigned long seq = atomic_load(&s->seq);
    if (seq & 1)
        return 0;
    *base = atomic_load(&s->base);
    *len = atomic_load(&s->len);
    *fault = atomic_load(&s->fault);
    return *base && atomic_load(&s->seq) == seq;
}

/* A fault at `addr` inside a guarded mapping: zero pages from its page to the mapping's end. 1 when handled. */
static int handle_fault(uintptr_t addr)
{
    for (struct chunk *c = &first_chunk; c; c = atomic_load_explicit(&c->next, memory_order_acquire)) {
        for (int i = 0; i < SLOTS_PER_CHUNK; i++) {
            uintptr_t base;
            size_t len;
            ntx_fault_word *fault;
            if (!read_slot(&c->slot[i], &base, &len, &fault) || addr < base || addr - base >= len)
                continue;
            uintptr_t from = addr & ~(page_size - 1);
            uintptr_t end = base + ((len + page_size - 1) & ~(page_size - 1));
            /* The record first: a thread that reads the zeros without a fault of its own finds it. */
            ntx_fault_note(fault, addr - base);
            /* The system call itself, not a libc or sanitizer wrapper: nothing but the kernel runs here. */
            long p = syscall(SYS_mmap, (void *)from, (size_t)(end - from), PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0L);
            return p == (long)from;
        }
    }
    return 0;
}

/* Hand a signal that is not ours to the handler installed before, or to the default action. */
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
    if (previous.sa_handler == SIG_IGN && si->si_code <= 0)
        return; /* sent with kill() and ignored before us */
    /* The default action, as if no handler had been installed: a fault repeats when this returns, a signal
       sent with kill() is sent again (it stays blocked until the handler returns). */
    struct sigaction dfl;
    dfl.sa_handler = SIG_DFL;
    dfl.sa_flags = 0;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (si->si_code <= 0)
        raise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* Only the kernel's report of a page that cannot be read (a file truncated under its mapping, or an
       I/O error reading it); never a SIGBUS sent with kill(), whose address means nothing. */
    if (si && (si->si_code == BUS_ADRERR || si->si_code == BUS_OBJERR) && handle_fault((uintptr_t)si->si_addr)) {
        errno = saved;
        return;
    }
    errno = saved;
    pass_on(sig, si, uc);
}

static void install(void)
{
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction sa;
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    installed = sigaction(SIGBUS, NULL, &previous) == 0 && sigaction(SIGBUS, &sa, NULL) == 0;
}

static struct ntx_guard_slot *claim(void)
{
    for (struct chunk *c = &first_chunk;;) {
        for (int i = 0; i < SLOTS_PER_CHUNK; i++) {
            int free_slot = 0;
            if (atomic_compare_exchange_strong(&c->slot[i].claimed, &free_slot, 1))
                return &c->slot[i];
        }
        struct chunk *next = atomic_load_explicit(&c->next, memory_order_acquire);
        if (!next) {
            struct chunk *fresh = calloc(1, sizeof *fresh);
            if (!fresh)
                return NULL;
            if (atomic_compare_exchange_strong(&c->next, &next, fresh))
                next = fresh;
            else
                free(fresh); /* another thread linked one first: next is that one */
        }
        c = next;
    }
}

/* Write a claimed slot's fields under its sequence count. */
static void write_slot(struct ntx_guard_slot *s, uintptr_t base, size_t len, ntx_fault_word *fault)
{
    unsigned long seq = atomic_load(&s->seq);
    atomic_store(&s->seq, seq + 1);
    atomic_store(&s->base, base);
    atomic_store(&s->len, len);
    atomic_store(&s->fault, fault);
    atomic_store(&s->seq, seq + 2);
}

struct ntx_guard_slot *ntx_guard_add(const void *base, size_t len, ntx_fault_word *fault)
{
    pthread_once(&install_once, install);
    if (!installed || !base || !len)
        return NULL;
    struct ntx_guard_slot *s = claim();
    if (s)
        write_slot(s, (uintptr_t)base, len, fault);
    return s;
}

void ntx_guard_remove(struct ntx_guard_slot *s)
{
    if (!s)
        return;
    write_slot(s, 0, 0, NULL);
    atomic_store(&s->claimed, 0);
}
