/* Sorted runs merged on threads (sorted_runs.h). */
#include "sorted_runs.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ntidx/ntidx.h"
#include "search.h"
#include "threads.h"

#define SAMPLES_PER_BUCKET 64
#define MIN_SPLIT 8192 /* fewer records: one bucket, merged by the caller */

typedef struct merger {
    const ntx_sorted_run *runs;
    size_t nruns, size, nbuckets;
    int (*cmp)(const void *, const void *);
    size_t *cut;      /* run r's bucket b: records [cut[r * (nbuckets + 1) + b], cut[... + b + 1]) */
    size_t *start;    /* bucket b's first place in out */
    uint8_t *out;
    atomic_size_t next;
    atomic_int failed;
} merger;

typedef struct key_at {
    const ntx_sorted_run *run;
    size_t size;
    uint64_t (*key)(const void *);
    uint64_t bound;
} key_at;

static int key_before(const void *ctx, uint64_t i)
{
    const key_at *k = ctx;
    return k->key((const uint8_t *)k->run->v + i * k->size) < k->bound;
}

/* The heap's order: the smaller record first, the earlier run on a tie. */
static int heap_less(const merger *m, const size_t *pos, size_t a, size_t b)
{
    int c = m->cmp((const uint8_t *)m->runs[a].v + pos[a] * m->size, (const uint8_t *)m->runs[b].v + pos[b] * m->size);
    return c < 0 || (c == 0 && a < b);
}

static void sift_down(const merger *m, const size_t *pos, size_t *heap, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, s = i;
        if (l < n && heap_less(m, pos, heap[l], heap[s]))
            s = l;
        if (l + 1 < n && heap_less(m, pos, heap[l + 1], heap[s]))
            s = l + 1;
        if (s == i)
            return;
        size_t t = heap[i];
        heap[i] = heap[s];
        heap[s] = t;
        i = s;
    }
}

/* Bucket b: its slice of every run, merged with a heap of the runs not yet used up. */
static int merge_bucket(merger *m, size_t b)
{
    size_t stride = m->nbuckets + 1, nh = 0;
    size_t *pos = malloc(2 * m->nruns * sizeof *pos + 1), *end = malloc(m->nruns * sizeof *end + 1);
    if (!pos || !end) {
        free(pos);
        free(end);
        return NTIDX_E_NOMEM;
    }
    size_t *heap = pos + m->nruns;
    for (size_t r = 0; r < m->nruns; r++) {
        pos[r] = m->cut[r * stride + b];
        end[r] = m->cut[r * stride + b + 1];
        if (pos[r] < end[r])
            heap[nh++] = r;
    }
    for (size_t i = nh / 2; i-- > 0;)
        sift_down(m, pos, heap, nh, i);
    uint8_t *o = m->out + m->start[b] * m->size;
    while (nh) {
        size_t r = heap[0];
        if (nh == 1) { /* the last run left: the rest of its slice at once */
            size_t k = end[r] - pos[r];
            memcpy(o, (const uint8_t *)m->runs[r].v + pos[r] * m->size, k * m->size);
            break;
        }
        memcpy(o, (const uint8_t *)m->runs[r].v + pos[r] * m->size, m->size);
        o += m->size;
        if (++pos[r] == end[r])
            heap[0] = heap[--nh];
        sift_down(m, pos, heap, nh, 0);
    }
    free(pos);
    free(end);
    return 0;
}

static void *merge_work(void *arg)
{
    merger *m = arg;
    for (size_t b; (b = atomic_fetch_add(&m->next, 1)) < m->nbuckets;)
        if (merge_bucket(m, b) < 0)
            atomic_store(&m->failed, 1);
    return NULL;
}

int ntx_merge_runs(const ntx_sorted_run *runs, size_t nruns, size_t size, int (*cmp)(const void *, const void *),
                   uint64_t (*key)(const void *), void *out, unsigned threads)
{
    size_t n = 0;
    for (size_t r = 0; r < nruns; r++)
        n += runs[r].n;
    unsigned nthreads = ntx_thread_count(threads);
    merger m = {.runs = runs, .nruns = nruns, .size = size, .cmp = cmp, .out = out,
                .nbuckets = n < MIN_SPLIT || nruns < 2 ? 1 : 4 * (size_t)nthreads};
    /* the bounds: quantiles of a sample taken across the runs in proportion to their records */
    size_t nsample = m.nbuckets > 1 ? SAMPLES_PER_BUCKET * m.nbuckets : 0, k = 0;
    uint64_t *sample = malloc((nsample + 1) * sizeof *sample), *bounds = malloc(m.nbuckets * sizeof *bounds);
    int rc = sample && bounds ? 0 : NTIDX_E_NOMEM;
    for (size_t r = 0; rc == 0 && r < nruns && nsample; r++) {
        size_t step = n / nsample + 1;
        for (size_t i = 0; i < runs[r].n && k < nsample; i += step)
            sample[k++] = key((const uint8_t *)runs[r].v + i * size);
    }
    if (rc == 0 && k)
        m.nbuckets = ntx_sample_bounds(sample, k, m.nbuckets, bounds) + 1;
    free(sample);
    size_t stride = m.nbuckets + 1;
    m.cut = rc == 0 ? malloc(nruns * stride * sizeof *m.cut + 1) : NULL;
    m.start = rc == 0 ? calloc(stride, sizeof *m.start) : NULL;
    if (rc == 0 && (!m.cut || !m.start))
        rc = NTIDX_E_NOMEM;
    for (size_t r = 0; rc == 0 && r < nruns; r++) {
        size_t *c = &m.cut[r * stride];
        c[0] = 0;
        c[m.nbuckets] = runs[r].n;
        for (size_t b = 1; b < m.nbuckets; b++) { /* bucket b - 1 holds the keys below bounds[b - 1] */
            key_at ka = {&runs[r], size, key, bounds[b - 1]};
            c[b] = (size_t)ntx_lower_bound(runs[r].n, key_before, &ka);
        }
        for (size_t b = 0; b < m.nbuckets; b++)
            m.start[b + 1] += c[b + 1] - c[b];
    }
    for (size_t b = 0; rc == 0 && b < m.nbuckets; b++)
        m.start[b + 1] += m.start[b];
    if (rc == 0) {
        atomic_init(&m.next, 0);
        atomic_init(&m.failed, 0);
        /* through ntx_run_threads() on one thread too: the merge is work more threads divide, timed as such */
        if (n < MIN_SPLIT)
            merge_work(&m);
        else
            ntx_run_threads(nthreads < m.nbuckets ? nthreads : (unsigned)m.nbuckets, merge_work, &m);
        if (atomic_load(&m.failed))
            rc = NTIDX_E_NOMEM;
    }
    free(bounds);
    free(m.cut);
    free(m.start);
    return rc;
}
