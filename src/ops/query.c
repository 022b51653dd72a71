/*
 * Time-window queries over the side index.
 *
 * Planning: find the regions whose events overlap [t0, t1) (binary search
 * when the index says region ranges are sorted), and in each the event
 * blocks that overlap. A region that does not follow the previous one is
 * entered with a RESET and primed from the index: the metadata blocks of
 * its metadata epoch and the thread blocks of its thread epoch that lie
 * before its first needed block, then the region's own stack and label
 * blocks before that point. From there every definition block and the
 * closing sequence point are visited; event blocks outside the window are
 * skipped. The reader then decodes the plan in file or time order and the
 * query filters events by window, provider, event and thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_summary.h"
#include "index_tables.h"
#include "search.h"
#include "text.h"
#include "ops_internal.h"
#include "query_internal.h"
#include "metadata.h"
#include "trace_blocks.h"

/* Spellings of one provider a query's Bloom keys cover (more: no block is pruned by type). */
#define NTX_MAX_TYPE_KEYS 8
#define VERDICT_BITS 7
#define VERDICT_SLOTS (1u << VERDICT_BITS)

struct ntidx_query {
    ntidx_trace *t;
    const ntidx_index *x;  /* the index in use: after ntidx_query_resume(), the one it was given */
    ntidx_query_options o;
    ntidx_query_cost *cost; /* ntidx_query_estimate(): plan only, adding up what would be read */
    ntidx_reader *r;
    const ntidx_reader_stats *rs; /* r's figures (they live in r) */
    ntx_plan_step *plan;   /* the steps of the region being read */
    size_t plan_len, plan_cap;
    uint64_t next_region;  /* where planning goes on */
    int64_t prev_region;   /* the last region planned, to know whether the next follows it */
    int sorted, planned_all;
    int64_t only_region;   /* >= 0: a work unit of exactly this region (parallel statistics) */
    char *provider, *event_name; /* copies of the options' strings: the caller's may go away */
    uint64_t *chosen;      /* o.regions sorted, without repeats: only these regions (NULL: every region) */
    size_t nchosen, next_chosen;
    int has_chosen;
    int every_block;       /* plan every event block that may hold events, whatever the window (--full builds) */
    /* A run read region by region (ntx_query_open_run): the rows stop at the end of each region, whose
       figures are those of a one-region query over it. */
    int by_region, region_open, paused;
    uint64_t primed_event_blocks; /* the region planned last: event blocks a one-region query primes with */
    ntidx_query_stats stats;
    uint64_t emitted;
    int done;
    /* filter verdicts per metadata definition (its key), direct-mapped: the reader asks for every event of
       the trace, and a trace interleaves a hundred types (one verdict remembered missed most events) */
    uint64_t verdict_key[VERDICT_SLOTS];
    uint8_t verdict[VERDICT_SLOTS];
    int filtered;  /* a provider, event id, name, thread or type-set filter is set: events are matched */
    /* Bloom keys of the provider and event id filter (--full indexes): one per spelling of the provider */
    uint64_t type_keys[NTX_MAX_TYPE_KEYS];
    int ntype_keys; /* 0: blocks are not pruned by that filter */
    ntx_event_type *types; /* ntx_query_restrict_types(): only these types (NULL: any) */
    uint64_t *type_hashes; /* their keys in the type filters of --full indexes */
    size_t ntypes;
    int (*on_metadata)(void *ctx, const ntidx_metadata *m); /* ntx_query_on_metadata(), for every reader */
    void *on_metadata_ctx;
};

NTIDX_API void ntidx_query_options_defaults(ntidx_query_options *o)
{
    memset(o, 0, sizeof *o);
    o->t0 = 0;
    o->t1 = UINT64_MAX;
    o->order = NTIDX_ORDER_TIME;
    o->recover = 1;
}

/* Plan a step over block b (RESET, ORIGIN: no block). An estimate only adds up what the reader would read. */
static int plan_push(ntidx_query *q, uint64_t b, uint8_t op, uint8_t forget)
{
    const ntidx_index *x = q->x;
    const int no_block = op == NTX_OP_RESET || op == NTX_OP_ORIGIN;
    uint64_t offset = no_block ? 0 : ntx_blk_offset(x, b);
    if (q->cost && (op == NTX_OP_BLOCK || op == NTX_OP_CONTEXT)) {
        ntidx_query_cost *c = q->cost;
        c->blocks++;
        c->bytes += ntx_blk_size(x, b);
        if (ntx_blk_kind(x, b) == NTIDX_BLOCK_EVENT) {
            c->event_blocks++;
            if (ntx_index_has_filters(x) && op == NTX_OP_BLOCK && c->events != UINT64_MAX)
                c->events += ntx_blk_events(x, b);
        }
    }
    if (q->plan_len == q->plan_cap) {
        size_t n = q->plan_cap ? q->plan_cap * 2 : 256;
        ntx_plan_step *np = realloc(q->plan, n * sizeof *np);
        if (!np)
            return -1;
        q->plan = np;
        q->plan_cap = n;
    }
    q->plan[q->plan_len++] =
        (ntx_plan_step){.offset = offset, .size = no_block ? 0 : ntx_blk_size(x, b), .op = op, .forget_seq = forget};
    return 0;
}

static int nomem(ntx_err *err) { return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory planning the query"); }

/* Could block i hold an event the query wants? (Bloom filters of --full indexes prune by type and thread.) */
static int block_wanted(const ntidx_query *q, uint64_t i)
{
    const ntidx_index *x = q->x;
    uint8_t f = ntx_blk_flags(x, i);
    if (f & NTX_BF_NO_EVENTS)
        return 0;
    if (q->every_block)
        return 1;
    if ((f & NTX_BF_RANGE) && !ntx_ranges_overlap(ntx_blk_ts_min(x, i), ntx_blk_ts_max(x, i), q->o.t0, q->o.t1))
        return 0;
    const uint8_t *fl = ntx_blk_filter(x, i);
    if (fl) {
        if (ntx_blk_events(x, i) == 0)
            return 0;
        if (q->ntype_keys) {
            int may = 0;
            for (int k = 0; k < q->ntype_keys && !may; k++)
                may = ntx_bloom_may_contain(fl, q->type_keys[k]);
            if (!may)
                return 0;
        }
        if (q->o.has_thread && !ntx_bloom_may_contain(fl + 32, ntx_thread_hash(q->o.thread)))
            return 0;
        if (q->types) {
            size_t k = 0;
            while (k < q->ntypes && !ntx_bloom_may_contain(fl, q->type_hashes[k]))
                k++;
            if (k == q->ntypes)
                return 0;
        }
    }
    return 1;
}

/* First region whose events may reach t0 (regions sorted by time). */
static uint64_t first_region(const ntidx_index *x, uint64_t t0)
{
    uint64_t lo = 0, hi = ntx_index_region_total(x);
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2, m = mid;
        while (m < hi && ntx_rg_ts_min(x, m) > ntx_rg_ts_max(x, m))
            m++; /* empty regions carry no time: look at the next non-empty one */
        if (m == hi) {
            hi = mid;
            continue;
        }
        if (ntx_rg_ts_max(x, m) < t0)
            lo = m + 1;
        else
            hi = mid;
    }
    return lo;
}

struct epochs {
    const ntidx_index *x;
    uint32_t meta, thread;
};

/* Definition i belongs to epochs older than both of e's. */
static int def_before_epochs(const void *ctx, uint64_t i)
{
    const struct epochs *e = ctx;
    return ntx_def_meta_epoch(e->x, i) < e->meta && ntx_def_thread_epoch(e->x, i) < e->thread;
}

/*
 * A region entered by a jump is checked, then primed with the definitions of
 * its epochs, whose block entries lie in other regions, checked in turn: ask
 * for all those entries at once (one wait on a cold page cache instead of
 * one per region). Definitions before the region's end cover those before
 * any block j of it.
 */
static void prefetch_prime(const ntidx_query *q, uint64_t region)
{
    const ntidx_index *x = q->x;
    if (!ntx_index_checks_lazily(x))
        return; /* checked whole at load, or not a file */
    struct epochs e = {x, ntx_rg_meta_epoch(x, region), ntx_rg_thread_epoch(x, region)};
    uint64_t end = ntx_rg_end(x, region), last = UINT64_MAX;
    int asked = 0;
    for (uint64_t d = ntx_lower_bound(ntx_index_def_count(x), def_before_epochs, &e);
         d < ntx_index_def_count(x) && ntx_def_block(x, d) < end && asked < 64; d++) {
        uint8_t k = ntx_def_kind(x, d);
        int is_meta = k == NTIDX_BLOCK_METADATA || k == NTIDX_BLOCK_EVENT;
        if (!((is_meta && ntx_def_meta_epoch(x, d) == e.meta) || (!is_meta && ntx_def_thread_epoch(x, d) == e.thread)))
            continue;
        uint64_t r = ntx_index_region_of(x, ntx_def_block(x, d));
        if (r != last && r != region) {
            ntx_index_prefetch_region(x, r);
            asked++;
        }
        last = r;
    }
}

/* Prime a region entered by a jump: definitions of its epochs before block j, then its stacks and labels. */
static int prime(ntidx_query *q, uint64_t region, uint64_t j, ntx_err *err)
{
    const ntidx_index *x = q->x;
    uint32_t me = ntx_rg_meta_epoch(x, region), te = ntx_rg_thread_epoch(x, region);
    uint64_t first = ntx_rg_first(x, region);
    if (plan_push(q, 0, NTX_OP_RESET, 1) < 0)
        return nomem(err);
    /* The trace's first region: its V6 threads count from 0, as a reader from the start counts them. */
    if (region == 0 && plan_push(q, 0, NTX_OP_ORIGIN, 0) < 0)
        return nomem(err);
    /* A work unit counts dropped events from the sequence point that opens its region, as a
       reader coming from the start would have (the format lists every live thread there). Read after
       the definitions of earlier regions (context: they count nothing), before the region's own. */
    int baseline = (q->only_region >= 0 || q->has_chosen) && region > 0 && (ntx_rg_flags(x, region - 1) & NTX_RF_CLOSED);
    if (baseline) {
        int rc = ntx_index_need_region(x, region - 1, err);
        if (rc < 0)
            return rc;
    }
    /* DEFS are in block order and epochs never decrease: find the first def of either epoch. */
    struct epochs e = {x, me, te};
    for (uint64_t d = ntx_lower_bound(ntx_index_def_count(x), def_before_epochs, &e); d < ntx_index_def_count(x) && ntx_def_block(x, d) < j; d++) {
        uint8_t k = ntx_def_kind(x, d);
        int is_meta = k == NTIDX_BLOCK_METADATA || k == NTIDX_BLOCK_EVENT;
        uint64_t b = ntx_def_block(x, d);
        if (baseline && b >= first) {
            if (plan_push(q, ntx_rg_end(x, region - 1) - 1, NTX_OP_BASELINE, 0) < 0)
                return nomem(err);
            q->plan[q->plan_len - 1].keep = 1; /* the previous region's: another work unit's */
            baseline = 0;
        }
        if ((is_meta && ntx_def_meta_epoch(x, d) == me) || (!is_meta && ntx_def_thread_epoch(x, d) == te)) {
            int rc = ntx_index_need_block(x, b, err);
            if (rc < 0)
                return rc;
            /* The region's own thread definitions and removals are read as its blocks: a thread defined
               here counts from 0, a removal here checks its thread's numbers (as a full read does). */
            uint8_t op = b >= first && !is_meta ? NTX_OP_BLOCK : NTX_OP_CONTEXT;
            if (plan_push(q, b, op, 0) < 0)
                return nomem(err);
            /* an earlier region's definitions: that region's reader releases them, and every region of these
               epochs that is primed reads them again (parallel statistics prime a region per work unit) */
            q->plan[q->plan_len - 1].keep = b < first;
        }
    }
    if (baseline) {
        if (plan_push(q, ntx_rg_end(x, region - 1) - 1, NTX_OP_BASELINE, 0) < 0)
            return nomem(err);
        q->plan[q->plan_len - 1].keep = 1;
    }
    for (uint64_t b = first; b < j; b++) {
        uint8_t k = ntx_blk_kind(x, b);
        if (k == NTIDX_BLOCK_STACK || k == NTIDX_BLOCK_LABEL_LIST)
            if (plan_push(q, b, NTX_OP_CONTEXT, 0) < 0)
                return nomem(err);
    }
    return 0;
}

/* The first region at or after r that the query may enter: r itself, or the next chosen one. */
static uint64_t candidate(ntidx_query *q, uint64_t r)
{
    if (!q->has_chosen)
        return r;
    while (q->next_chosen < q->nchosen && q->chosen[q->next_chosen] < r)
        q->next_chosen++;
    return q->next_chosen < q->nchosen ? q->chosen[q->next_chosen] : UINT64_MAX;
}

/*
 * A pass reads on into the region after r: its blocks are asked of the kernel
 * while r's are read (the reader decides whether it is a pass). Every block
 * of the region, as the plan will take most of them; the offsets of a lazily
 * checked index's entries not checked yet are only a hint here.
 */
static void ask_next_region(ntidx_query *q, uint64_t r)
{
    const ntidx_index *x = q->x;
    if (!q->r)
        return; /* an estimate plans without reading */
    uint64_t n = candidate(q, r + 1);
    if (n >= ntx_index_region_total(x) || (ntx_rg_ts_min(x, n) <= ntx_rg_ts_max(x, n) && ntx_rg_ts_min(x, n) >= q->o.t1))
        return;
    uint64_t first = ntx_rg_first(x, n), end = ntx_rg_end(x, n);
    if (first >= end || end > ntx_index_block_count(x))
        return;
    uint64_t lo = ntx_blk_offset(x, first), hi = ntx_blk_offset(x, end - 1) + ntx_blk_size(x, end - 1);
    if (hi > lo)
        ntx_reader_ask_ahead(q->r, lo, hi - lo);
}

/*
 * A trace read through a source (a remote one): announce the plan's first
 * REMOTE_PLAN_HINT bytes of blocks (half for a query with a limit) at once,
 * adjacent blocks as one range, before the reader's first read-ahead (a
 * quarter of that) asks for them:
 * the source asks for the ranges of one burst of hints in one request
 * (source_http.c), where the reader's read-aheads would each cost one.
 */
#define REMOTE_PLAN_HINT (1u << 20)
static void hint_plan(const ntidx_query *q)
{
    if (!q->r || !ntx_trace_through_source(q->t))
        return;
    /* a seek, or a query with a limit, stops after its first events: those of the blocks about its start */
    uint64_t lo = 0, hi = 0, bytes = 0, most = q->o.limit ? REMOTE_PLAN_HINT / 2 : REMOTE_PLAN_HINT;
    ntx_trace_prefetch_batch(q->t, 1);
    for (size_t i = 0; i < q->plan_len && bytes < most; i++) {
        const ntx_plan_step *st = &q->plan[i];
        if (!st->size)
            continue;
        if (hi > lo && st->offset != hi) {
            ntx_trace_prefetch(q->t, lo, hi - lo);
            lo = hi = 0;
        }
        if (hi == lo)
            lo = st->offset;
        hi = st->offset + st->size;
        bytes += st->size;
    }
    if (hi > lo)
        ntx_trace_prefetch(q->t, lo, hi - lo);
    ntx_trace_prefetch_batch(q->t, 0);
}

/* Plan the next region that holds wanted events; 0 when none is left, < 0 with `err` set. */
static int plan_next_region(ntidx_query *q, ntx_err *err)
{
    const ntidx_index *x = q->x;
    uint64_t t0 = q->o.t0, t1 = q->o.t1;
    q->plan_len = 0;
    if (q->planned_all)
        return 0;
    for (uint64_t r = candidate(q, q->next_region); r < ntx_index_region_total(x); r = candidate(q, r + 1)) {
        if (q->only_region >= 0 && r != (uint64_t)q->only_region)
            break;
        uint64_t lo = ntx_rg_ts_min(x, r), hi = ntx_rg_ts_max(x, r);
        if (lo <= hi && lo >= t1 && q->sorted)
            break; /* every later region is later still */
        if (!q->every_block && !ntx_ranges_overlap(lo, hi, t0, t1))
            continue;
        /* A lazily checked index: this region's block entries are checked before they are trusted. */
        if ((int64_t)r != q->prev_region + 1)
            prefetch_prime(q, r);
        int crc = ntx_index_need_region(x, r, err);
        if (crc < 0)
            return crc;
        uint64_t first = ntx_rg_first(x, r), end = ntx_rg_end(x, r), j = end;
        for (uint64_t b = first; b < end; b++)
            if (ntx_blk_kind(x, b) == NTIDX_BLOCK_EVENT && block_wanted(q, b)) {
                j = b;
                break;
            }
        if (j == end)
            continue;
        q->stats.regions_visited++;
        q->primed_event_blocks = 0;
        if ((int64_t)r == q->prev_region + 1) {
            if (q->by_region) {
                /* As a one-region query (prime()): sequence numbers from the sequence point that opens the
                   region (the reader counts afresh from here), and the definition event blocks of earlier
                   regions that its priming would read again counted as read. */
                if (r > 0 && (ntx_rg_flags(x, r - 1) & NTX_RF_CLOSED) &&
                    plan_push(q, ntx_rg_end(x, r - 1) - 1, NTX_OP_BASELINE, 0) < 0)
                    return nomem(err);
                uint32_t me = ntx_rg_meta_epoch(x, r);
                struct epochs e = {x, me, ntx_rg_thread_epoch(x, r)};
                for (uint64_t d = ntx_lower_bound(ntx_index_def_count(x), def_before_epochs, &e);
                     d < ntx_index_def_count(x) && ntx_def_block(x, d) < first; d++)
                    if (ntx_def_kind(x, d) == NTIDX_BLOCK_EVENT && ntx_def_meta_epoch(x, d) == me)
                        q->primed_event_blocks++;
            }
            /* follows the last region: its definitions before j are all it needs */
            for (uint64_t b = first; b < j; b++) {
                uint8_t k = ntx_blk_kind(x, b);
                if (k != NTIDX_BLOCK_EVENT && k != NTIDX_BLOCK_UNKNOWN) {
                    if (plan_push(q, b, NTX_OP_BLOCK, 0) < 0)
                        return nomem(err);
                } else if (k == NTIDX_BLOCK_EVENT && (ntx_blk_flags(x, b) & NTX_BF_METADATA)) {
                    if (plan_push(q, b, NTX_OP_CONTEXT, 0) < 0)
                        return nomem(err);
                }
            }
        } else {
            int prc = prime(q, r, j, err);
            if (prc < 0)
                return prc;
        }
        /* Sequence numbers only jump when event blocks were passed over, not stacks or labels. */
        int skipped = 0;
        for (uint64_t b = first; b < j; b++)
            if (ntx_blk_kind(x, b) == NTIDX_BLOCK_EVENT && !(ntx_blk_flags(x, b) & NTX_BF_NO_EVENTS))
                skipped = 1;
        for (uint64_t b = j; b < end; b++) {
            uint8_t k = ntx_blk_kind(x, b);
            if (k == NTIDX_BLOCK_UNKNOWN)
                continue;
            if (k == NTIDX_BLOCK_EVENT && !block_wanted(q, b)) {
                if (ntx_blk_flags(x, b) & NTX_BF_METADATA) {
                    if (plan_push(q, b, NTX_OP_CONTEXT, 1) < 0)
                        return nomem(err);
                }
                skipped = 1;
                continue;
            }
            if (plan_push(q, b, NTX_OP_BLOCK, (uint8_t)skipped) < 0)
                return nomem(err);
            skipped = 0;
        }
        /* A work unit of parallel statistics that ends here: the region after it is another unit's, primed with
           this region's last block (the sequence point its dropped events count from): kept for it, else this
           unit's release gives it back and that priming asks for it again when it comes after */
        if ((q->only_region >= 0 || (q->has_chosen && candidate(q, r + 1) != r + 1)) &&
            r + 1 < ntx_index_region_total(x) && q->plan_len > 0 && q->plan[q->plan_len - 1].op == NTX_OP_BLOCK &&
            q->plan[q->plan_len - 1].offset == ntx_blk_offset(x, end - 1))
            q->plan[q->plan_len - 1].keep = 1;
        hint_plan(q);
        q->prev_region = (int64_t)r;
        q->next_region = r + 1;
        if (q->only_region >= 0)
            q->planned_all = 1;
        else
            ask_next_region(q, r);
        return 1;
    }
    q->planned_all = 1;
    return 0;
}

/* The reader ran out of steps: hand it the next region's. */
static int refill(void *ctx, const ntx_plan_step **plan, size_t *len, ntx_err *err)
{
    ntidx_query *q = ctx;
    if (q->region_open) { /* read region by region: the region's end ends the rows until ntx_query_next_region() */
        q->region_open = 0;
        q->paused = 1;
        *plan = q->plan;
        *len = 0;
        return 0;
    }
    int rc = plan_next_region(q, err);
    if (rc < 0)
        return rc;
    q->region_open = rc == 1 && q->by_region;
    *plan = q->plan;
    *len = q->plan_len;
    return rc;
}

/* (Re)start a query over q->x: a reader, and planning from the first region of the window. */
/*
 * The Bloom keys of a provider and event id filter. FILTERS hash provider
 * names as the trace spells them, and the filter matches them without
 * regard to case (as EventPipe does): one key per spelling among the names
 * the index holds (STRINGS of its region statistics), the filter's own among
 * them. An index without those names (before 1.5), or with more spellings
 * than fit, prunes no block by type: never a block that holds a match.
 */
static void set_type_keys(ntidx_query *q)
{
    const ntidx_index *x = q->x;
    q->ntype_keys = 0;
    uint64_t len;
    const char *p = ntx_index_strings(x, &len);
    if (!ntx_index_has_filters(x) || !q->o.provider || !q->o.has_event_id || !p)
        return;
    const char *end = p + len; /* past the check: an index without names has no strings (NULL) */
    q->type_keys[q->ntype_keys++] = ntx_type_hash(q->o.provider, q->o.event_id);
    while (p < end) {
        const char *nul = memchr(p, 0, (size_t)(end - p));
        if (!nul)
            break;
        if (ntx_ascii_ieq(p, q->o.provider) && strcmp(p, q->o.provider)) {
            uint64_t h = ntx_type_hash(p, q->o.event_id);
            int have = 0;
            for (int k = 0; k < q->ntype_keys; k++)
                have |= q->type_keys[k] == h;
            if (!have && q->ntype_keys == NTX_MAX_TYPE_KEYS) {
                q->ntype_keys = 0;
                return;
            }
            if (!have)
                q->type_keys[q->ntype_keys++] = h;
        }
        p = nul + 1;
    }
}

static int type_matches(ntidx_query *q, const ntidx_metadata *m);
static void forget_verdicts(ntidx_query *q);

static int reader_keeps_type(void *ctx, const ntidx_metadata *m) { return type_matches(ctx, m); }

/* Let the reader drop the events of types the query does not take before it copies or sorts them
   (next_event() still tests what it gets: the reader decides only on its fast path). */
static void set_reader_type_filter(ntidx_query *q)
{
    int by_type = q->types || q->o.provider || q->o.has_event_id || q->o.event_name;
    ntx_reader_set_type_filter(q->r, by_type ? reader_keeps_type : NULL, q);
}

static int query_start(ntidx_query *q)
{
    ntidx_reader_close(&q->r);
    const ntidx_index *x = q->x;
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    ro.order = q->o.order;
    int rc = ntidx_reader_open(q->t, &ro, &q->r);
    if (rc < 0)
        return rc;
    q->rs = ntidx_reader_get_stats(q->r);
    q->plan_len = 0;
    q->emitted = 0;
    q->done = 0;
    q->region_open = 0;
    q->paused = 0;
    forget_verdicts(q);
    memset(&q->stats, 0, sizeof q->stats);
    q->sorted = ntx_index_regions_sorted(x);
    q->prev_region = -2;
    q->planned_all = q->o.t0 >= q->o.t1 || !ntx_index_region_total(x);
    q->next_region = q->only_region >= 0 ? (uint64_t)q->only_region
                     : q->sorted && !q->planned_all ? first_region(x, q->o.t0) : 0;
    q->next_chosen = 0;
    set_type_keys(q); /* of this index: ntidx_query_resume() may give another */
    ntx_reader_set_plan(q->r, refill, q);
    set_reader_type_filter(q);
    if (q->on_metadata)
        ntx_reader_on_metadata(q->r, q->on_metadata, q->on_metadata_ctx);
    if (q->o.order == NTIDX_ORDER_TIME)
        ntx_reader_set_time_floor(q->r, q->o.t0); /* next_event() drops what is earlier */
    if (q->o.order == NTIDX_ORDER_TIME && q->o.t1 != UINT64_MAX)
        ntx_reader_set_time_ceiling(q->r, q->o.t1); /* and what is later, but the one that ends the window */
    return NTIDX_OK;
}

/* Take o.regions into q->chosen (sorted, repeats dropped); the caller's array is not kept. */
static int choose_regions(ntidx_query *q, const ntidx_trace *t)
{
    const ntidx_query_options *o = &q->o;
    q->has_chosen = o->regions != NULL;
    if (!o->regions)
        return NTIDX_OK;
    const ntidx_index *x = q->x;
    q->chosen = malloc((o->region_count ? o->region_count : 1) * sizeof *q->chosen);
    if (!q->chosen)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < o->region_count; i++) {
        if (o->regions[i] >= ntx_index_region_total(x))
            return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET, "query options: no region %llu (the index has %llu)",
                             (unsigned long long)o->regions[i], (unsigned long long)ntx_index_region_total(x));
        q->chosen[i] = o->regions[i];
    }
    qsort(q->chosen, o->region_count, sizeof *q->chosen, ntx_u64_cmp);
    size_t n = 0;
    for (size_t i = 0; i < o->region_count; i++)
        if (!n || q->chosen[n - 1] != q->chosen[i])
            q->chosen[n++] = q->chosen[i];
    q->nchosen = n;
    q->o.regions = NULL; /* the caller's array may go away */
    q->o.region_count = 0;
    return NTIDX_OK;
}

static int check_options(const ntidx_trace *t, const ntidx_query_options *o)
{
    if (o->order != NTIDX_ORDER_FILE && o->order != NTIDX_ORDER_TIME)
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET, "query order %d is neither file nor time",
                         (int)o->order);
    if (!ntx_reserved_zero(o->reserved, sizeof o->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "query options: reserved fields are not zero (fill them with ntidx_query_options_defaults())");
    if (o->region_count && !o->regions)
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET, "query options: region_count without regions");
    return NTIDX_OK;
}

static int query_open(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, int64_t only_region,
                      int every_block, ntidx_query **out)
{
    *out = NULL;
    ntidx_query *q = calloc(1, sizeof *q);
    if (!q)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    q->t = t;
    q->x = x;
    if (o)
        q->o = *o;
    else
        ntidx_query_options_defaults(&q->o);
    int rc = check_options(t, &q->o);
    if (rc == NTIDX_OK)
        rc = choose_regions(q, t);
    if (rc == NTIDX_OK && ((q->o.provider && !(q->provider = strdup(q->o.provider))) ||
                           (q->o.event_name && !(q->event_name = strdup(q->o.event_name)))))
        rc = ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    if (rc < 0) {
        free(q->chosen);
        free(q->provider);
        free(q->event_name);
        free(q);
        return rc;
    }
    q->o.provider = q->provider;
    q->o.event_name = q->event_name;
    q->filtered = q->o.provider || q->o.has_event_id || q->o.event_name || q->o.has_thread;
    if (q->o.seek) { /* the first event at or after t0: time order, one event */
        q->o.order = NTIDX_ORDER_TIME;
        q->o.limit = 1;
    }
    q->only_region = only_region;
    q->every_block = every_block;
    if ((rc = query_start(q)) < 0) {
        ntidx_query_close(&q);
        return rc;
    }
    *out = q;
    return NTIDX_OK;
}

NTIDX_API int ntidx_query_open(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o, ntidx_query **out)
{
    if (out)
        *out = NULL;
    if (!out || !t || !x)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_query_open: NULL argument");
    return query_open(t, x, o, -1, 0, out);
}

int ntx_query_open_region(ntidx_query **out, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                          uint64_t region, int every_block)
{
    if (region >= ntx_index_region_total(x))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntx_index_name(x), NTIDX_NO_OFFSET, "no region %llu", (unsigned long long)region);
    return query_open(t, x, o, (int64_t)region, every_block, out);
}

int ntx_query_open_run(ntidx_query **out, ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                       int every_block)
{
    int rc = query_open(t, x, o, -1, every_block, out);
    if (rc == NTIDX_OK)
        (*out)->by_region = 1;
    return rc;
}

int ntx_query_region_end(const ntidx_query *q, uint64_t *region, uint64_t *primed_event_blocks)
{
    if (!q->paused)
        return 0;
    *region = (uint64_t)q->prev_region;
    *primed_event_blocks = q->primed_event_blocks;
    return 1;
}

void ntx_query_on_metadata(ntidx_query *q, int (*fn)(void *ctx, const ntidx_metadata *m), void *ctx)
{
    q->on_metadata = fn;
    q->on_metadata_ctx = ctx;
    if (q->r)
        ntx_reader_on_metadata(q->r, fn, ctx);
}

void ntx_query_next_region(ntidx_query *q)
{
    q->paused = 0;
    q->done = 0;
    ntx_reader_resume(q->r);
}

NTIDX_API void ntidx_query_options_seek(ntidx_query_options *o, uint64_t ts)
{
    ntidx_query_options_defaults(o);
    o->t0 = ts;
    o->seek = 1;
}

NTIDX_API int ntidx_query_estimate(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *o,
                                   ntidx_query_cost *out)
{
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET, "ntidx_query_estimate: NULL argument");
    ntidx_query q;
    memset(&q, 0, sizeof q);
    q.t = t;
    q.x = x;
    if (o)
        q.o = *o;
    else
        ntidx_query_options_defaults(&q.o);
    int rc = check_options(t, &q.o);
    if (rc == NTIDX_OK)
        rc = choose_regions(&q, t);
    if (rc < 0) {
        free(q.chosen);
        return rc;
    }
    memset(out, 0, sizeof *out);
    out->events = ntx_index_has_filters(q.x) ? 0 : UINT64_MAX;
    q.cost = out;
    q.only_region = -1;
    q.sorted = ntx_index_regions_sorted(q.x);
    q.prev_region = -2;
    q.planned_all = q.o.t0 >= q.o.t1 || !ntx_index_region_total(q.x);
    q.next_region = q.sorted && !q.planned_all ? first_region(q.x, q.o.t0) : 0;
    set_type_keys(&q);
    ntx_err err = {0};
    while ((rc = plan_next_region(&q, &err)) == 1)
        ;
    free(q.plan);
    free(q.chosen);
    if (rc < 0)
        return ntx_fail(rc, ntx_index_name(q.x), &err);
    out->regions = q.stats.regions_visited;
    return NTIDX_OK;
}

static void forget_verdicts(ntidx_query *q) { memset(q->verdict_key, 0xff, sizeof q->verdict_key); }

static int type_matches(ntidx_query *q, const ntidx_metadata *m)
{
    uint64_t key = ntx_metadata_key(m);
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - VERDICT_BITS));
    if (q->verdict_key[slot] == key)
        return q->verdict[slot];
    int ok = (!q->o.provider || ntx_ascii_ieq(q->o.provider, m->provider)) && /* as EventPipe compares them */
             (!q->o.has_event_id || m->event_id == q->o.event_id) &&
             (!q->o.event_name || ntidx_metadata_matches_name(m, q->o.event_name));
    if (ok && q->types) {
        size_t k = 0;
        while (k < q->ntypes && !(q->types[k].event_id == m->event_id && !strcmp(q->types[k].provider, m->provider)))
            k++;
        ok = k < q->ntypes;
    }
    q->verdict_key[slot] = key;
    q->verdict[slot] = (uint8_t)ok;
    return ok;
}

/* The query's figures from its reader's. */
static void update_stats(ntidx_query *q)
{
    const ntidx_reader_stats *rs = q->rs;
    /* Once per event: blocks are counted with their bytes (never 0: framing included) and drops as they are
       seen, so unchanged bytes and drops mean unchanged figures. */
    if (rs->bytes_read == q->stats.bytes_read && rs->dropped_events == q->stats.dropped_events)
        return;
    q->stats.bytes_read = rs->bytes_read;
    q->stats.event_blocks_read = rs->blocks[NTIDX_BLOCK_EVENT];
    q->stats.dropped_events = rs->dropped_events;
    uint64_t nb = 0;
    for (int k = 0; k < NTIDX_BLOCK_KIND_COUNT; k++)
        nb += rs->blocks[k];
    q->stats.blocks_read = nb;
}

/* The next event of the plan that the window and the filters take; as ntidx_query_next(). */
static int next_event(ntidx_query *q, const ntidx_event **ev)
{
    if (q->done)
        return 0;
    for (;;) {
        if (q->o.limit && q->emitted >= q->o.limit) {
            q->done = 1;
            return 0;
        }
        const ntidx_event *e;
        int rc = ntx_reader_next(q->r, &e); /* once per event: the internal call, errors published below */
        update_stats(q);
        if (rc <= 0) {
            q->done = 1;
            return rc < 0 ? ntx_fail(rc, ntidx_trace_name(q->t), ntx_reader_error(q->r)) : rc;
        }
        if (e->timestamp < q->o.t0 || e->timestamp >= q->o.t1) {
            /* In time order over sorted regions, the first event past the window ends it. */
            if (q->o.order == NTIDX_ORDER_TIME && e->timestamp >= q->o.t1 && q->sorted) {
                q->done = 1;
                return 0;
            }
            continue;
        }
        if (q->filtered && (!type_matches(q, e->metadata) || (q->o.has_thread && e->thread_id != q->o.thread)))
            continue;
        q->emitted++;
        *ev = e;
        return 1;
    }
}

long ntx_query_rows(ntidx_query *q, ntx_row *rows, size_t cap, uint64_t *block_offset, int unfiltered)
{
    for (;;) {
        if (q->done)
            return 0;
        long n = ntx_reader_rows(q->r, rows, cap, block_offset);
        update_stats(q);
        if (n <= 0) {
            q->done = 1;
            if (n < 0) /* about the index file when a region failed its check, else about the trace */
                return ntx_fail((int)n, n == NTIDX_E_INDEX_CORRUPT ? ntx_index_name(q->x) : ntidx_trace_name(q->t), ntx_reader_error(q->r));
            return 0;
        }
        if (unfiltered) {
            q->emitted += (uint64_t)n;
            return n;
        }
#define ROW_TAKEN(r)                                                                                               \
    ((r)->timestamp >= q->o.t0 && (r)->timestamp < q->o.t1 &&                                                      \
     (!q->filtered || (type_matches(q, (r)->metadata) && (!q->o.has_thread || (r)->thread_id == q->o.thread))))
        /* Mostly every row is taken (whole-trace statistics): the rows stay where they are until one is not.
           Without filters that is one unsigned compare a row: ts - t0 < t1 - t0 is t0 <= ts < t1 (t0 < t1). */
        size_t k = 0;
        if (!q->filtered && q->o.t0 < q->o.t1) {
            const uint64_t t0 = q->o.t0, span = q->o.t1 - q->o.t0;
            const ntx_row *r = rows, *const end = rows + n;
            while (r < end && r->timestamp - t0 < span)
                r++;
            k = (size_t)(r - rows);
        } else {
            while (k < (size_t)n && ROW_TAKEN(&rows[k]))
                k++;
        }
        for (size_t i = k + 1; i < (size_t)n; i++)
            if (ROW_TAKEN(&rows[i]))
                rows[k++] = rows[i];
#undef ROW_TAKEN
        q->emitted += k;
        if (k)
            return (long)k;
    }
}

/* Start again over q->x and pass over the first `skip` events: queries are deterministic (the trace and the
   options fix their events and order, whatever index plans them), so the next event is the one after them. */
static int restart_after(ntidx_query *q, uint64_t skip)
{
    int rc = query_start(q);
    if (rc < 0)
        return rc;
    const ntidx_event *ev;
    for (uint64_t i = 0; i < skip; i++)
        if ((rc = next_event(q, &ev)) != 1) /* an index of the same trace cannot give fewer */
            return rc == NTIDX_E_INDEX_CORRUPT ? ntx_fail(rc, ntx_index_name(q->x), ntx_reader_error(q->r))
                   : rc < 0                    ? rc
                                               : ntx_failf(NTIDX_E_CORRUPT, ntidx_trace_name(q->t), NTIDX_NO_OFFSET,
                                                           "the index gives fewer events than the one it replaced");
    return NTIDX_OK;
}

NTIDX_API int ntidx_query_resume(ntidx_query *q, const ntidx_index *x)
{
    if (!q || !x)
        return ntx_failf(NTIDX_E_INVALID_ARG, q ? ntidx_trace_name(q->t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_query_resume: NULL argument");
    if (q->only_region >= 0 || q->by_region)
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(q->t), NTIDX_NO_OFFSET,
                         "ntidx_query_resume: not for a query of the library's own");
    q->x = x;
    return restart_after(q, q->emitted);
}

int ntx_query_resume_after(ntidx_query *q, const ntidx_index *x, uint64_t skip)
{
    q->x = x;
    return restart_after(q, skip);
}

uint64_t ntx_query_returned(const ntidx_query *q) { return q->emitted; }

NTIDX_API int ntidx_query_next(ntidx_query *q, const ntidx_event **ev)
{
    if (!q || !ev)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_query_next: NULL argument");
    return ntx_query_next(q, ev);
}

int ntx_query_next(ntidx_query *q, const ntidx_event **ev)
{
    int rc = next_event(q, ev);
    /* a region that failed its check is about the index file, not the trace */
    return rc == NTIDX_E_INDEX_CORRUPT ? ntx_fail(rc, ntx_index_name(q->x), ntx_reader_error(q->r)) : rc;
}

NTIDX_API const ntidx_query_stats *ntidx_query_get_stats(const ntidx_query *q) { return q ? &q->stats : NULL; }

NTIDX_API int ntidx_query_dropped(ntidx_query *q, const ntidx_dropped **list, size_t *count)
{
    if (!q)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_query_dropped: NULL query");
    return ntidx_reader_dropped(q->r, list, count);
}

NTIDX_API void ntidx_query_close(ntidx_query **qp)
{
    if (!qp || !*qp)
        return;
    ntidx_query *q = *qp;
    ntidx_reader_close(&q->r);
    free(q->plan);
    free(q->chosen);
    free(q->provider);
    free(q->event_name);
    free(q->types);
    free(q->type_hashes);
    free(q);
    *qp = NULL;
}

int ntx_query_restrict_types(ntidx_query *q, const ntx_event_type *types, size_t n)
{
    ntx_event_type *copy = malloc((n ? n : 1) * sizeof *copy);
    uint64_t *hashes = malloc((n ? n : 1) * sizeof *hashes);
    if (!copy || !hashes) {
        free(copy);
        free(hashes);
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(q->t), NTIDX_NO_OFFSET, "out of memory");
    }
    for (size_t k = 0; k < n; k++) {
        copy[k] = types[k];
        hashes[k] = ntx_type_hash(types[k].provider, types[k].event_id);
    }
    free(q->types);
    free(q->type_hashes);
    q->types = copy;
    q->type_hashes = hashes;
    q->ntypes = n;
    q->filtered = 1;
    forget_verdicts(q); /* verdicts cached before the restriction no longer hold */
    if (q->r)
        set_reader_type_filter(q);
    return NTIDX_OK;
}
