/* Two-word keys to values (keymap.h). */
#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "ntidx/ntidx.h"

static size_t home(const ntx_kmap *m, uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return (size_t)h & (m->cap - 1);
}

/* The slot of (a, b), or the empty slot where it would go (the table is never full). */
static size_t find(const ntx_kmap *m, uint64_t a, uint64_t b)
{
    size_t i = home(m, a, b);
    while (m->slots[i].used && !(m->slots[i].a == a && m->slots[i].b == b))
        i = (i + 1) & (m->cap - 1);
    return i;
}

void ntx_kmap_free(ntx_kmap *m)
{
    free(m->slots);
    ntx_kmap_init(m);
}

int ntx_kmap_get(const ntx_kmap *m, uint64_t a, uint64_t b, uint64_t *val)
{
    if (!m->n)
        return 0;
    const ntx_kmap_slot *s = &m->slots[find(m, a, b)];
    if (!s->used)
        return 0;
    *val = s->val;
    return 1;
}

/* Room for one more key: at most three quarters full. */
static int reserve(ntx_kmap *m)
{
    if (m->cap && (m->n + 1) * 4 <= m->cap * 3)
        return NTIDX_OK;
    size_t old_cap = m->cap, cap = old_cap ? old_cap * 2 : 16;
    ntx_kmap_slot *old = m->slots, *ns = calloc(cap, sizeof *ns);
    if (!ns)
        return NTIDX_E_NOMEM;
    m->slots = ns;
    m->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].used)
            m->slots[find(m, old[i].a, old[i].b)] = old[i];
    free(old);
    return NTIDX_OK;
}

int ntx_kmap_put(ntx_kmap *m, uint64_t a, uint64_t b, uint64_t val)
{
    if (reserve(m) < 0)
        return NTIDX_E_NOMEM;
    ntx_kmap_slot *s = &m->slots[find(m, a, b)];
    if (!s->used)
        m->n++;
    *s = (ntx_kmap_slot){a, b, val, 1};
    return NTIDX_OK;
}

uint64_t *ntx_kmap_find(const ntx_kmap *m, uint64_t a, uint64_t b)
{
    if (!m->n)
        return NULL;
    ntx_kmap_slot *s = &m->slots[find(m, a, b)];
    return s->used ? &s->val : NULL;
}

uint64_t *ntx_kmap_ref(ntx_kmap *m, uint64_t a, uint64_t b)
{
    if (m->n) { /* there already: no room needed */
        ntx_kmap_slot *s = &m->slots[find(m, a, b)];
        if (s->used)
            return &s->val;
    }
    if (reserve(m) < 0)
        return NULL;
    ntx_kmap_slot *s = &m->slots[find(m, a, b)];
    *s = (ntx_kmap_slot){a, b, 0, 1};
    m->n++;
    return &s->val;
}

int ntx_kmap_remove(ntx_kmap *m, uint64_t a, uint64_t b)
{
    if (!m->n)
        return 0;
    size_t i = find(m, a, b), j = i;
    if (!m->slots[i].used)
        return 0;
    m->n--;
    for (;;) {
        memset(&m->slots[i], 0, sizeof m->slots[i]);
        for (;;) {
            j = (j + 1) & (m->cap - 1);
            if (!m->slots[j].used)
                return 1;
            size_t h = home(m, m->slots[j].a, m->slots[j].b);
            /* j's entry may move to i when its home does not lie cyclically in (i, j] */
            if ((i <= j) ? (h <= i || h > j) : (h <= i && h > j))
                break;
        }
        m->slots[i] = m->slots[j];
        i = j;
    }
}
