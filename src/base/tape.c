/* Tapes (tape.h): anonymous mappings grown by mremap, advised into huge pages. */
#include <stdint.h>
#include <sys/mman.h>

#include "ntidx/ntidx.h"
#include "tape.h"

#define TAPE_FIRST (64u << 10)
#define HUGE_PAGE (2u << 20)

static size_t page_round(size_t n) { return (n + 4095) & ~(size_t)4095; }

int ntx_tape_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (!elem || need > SIZE_MAX / 2 / elem)
        return NTIDX_E_NOMEM;
    size_t old_bytes = page_round(*cap * elem), bytes = old_bytes ? old_bytes : TAPE_FIRST;
    while (bytes < need * elem)
        bytes *= 2;
    void *np;
    if (*p) {
        np = mremap(*p, old_bytes, bytes, MREMAP_MAYMOVE);
    } else {
        np = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (np == MAP_FAILED)
        return NTIDX_E_NOMEM;
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE) /* a hint: a kernel without THP refuses it, and pages come 4 KB at a time */
        (void)madvise(np, bytes, MADV_HUGEPAGE);
#endif
    *p = np;
    *cap = bytes / elem;
    return 0;
}

void ntx_tape_free(void *p, size_t cap, size_t elem)
{
    if (p)
        (void)munmap(p, page_round(cap * elem));
}
