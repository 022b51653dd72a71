/*
 * The CPU analysis: the sample profiler's samples of a window by method,
 * inclusive and exclusive (include/ntidx/analysis.h), as PerfView's CPU
 * Stacks view "By Name" shows them, each frame named by the symbolizer as
 * TraceEvent's stack source names it.
 *
 * Samples are independent of each other: a unit counts its own per frame
 * (and per thread when split; per focus method and caller or callee when
 * asked), and the merge adds the counts. Nothing is ever open, so there is
 * no lookahead. A frame is keyed by the symbolizer's frame_id, equal exactly
 * when the frame names are: "once per sample" is per name, as TraceEvent's
 * stack source counts it.
 *
 * Naming a frame takes the symbolizer, made of every method event of the
 * trace, the rundown at its end included. A run over the whole trace reads
 * those events along with the samples (the driver's take_symbols: one pass
 * over the trace, not two): its units keep each distinct stack with its
 * samples' number and first and last times, and count them once the
 * symbolizer is made, in parallel again (take_symbols()). A stack's samples
 * are counted together when every frame's name holds from the first to the
 * last; when one does not (code unloaded and reused between them, which is
 * rare), the analysis is run again the other way. Any other run has the
 * driver open the symbolizer first (its table saved beside the index, when
 * there is one) and counts as it reads.
 */
#include <math.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "buf.h"
#include "grow.h"
#include "hash.h"
#include "idmap.h"
#include "ops_internal.h"
#include "threads.h"

#define SAMPLER "Microsoft-DotNETCore-SampleProfiler"
#define INTERVAL_MS 1.0 /* TraceLog.SampleProfileInterval: 1 ms for EventPipe traces, whatever the session asked */
#define UNKNOWN_FRAME UINT64_MAX

static const ntx_event_type cpu_types[] = {{SAMPLER, 0}};

/* ---- Counts per frame ---- */

struct focus_pairs;

typedef struct fcount {
    uint64_t frame;            /* the symbolizer's frame_id */
    const char *method, *module; /* the symbolizer's strings (NULL, NULL: "?!?") */
    uint64_t inc, exc;
    uint64_t stamp;            /* the last sample that counted it inclusively (its number + 1) */
    int focus;                 /* -1 not decided yet (units decide when they meet it), 0 no, 1 yes */
    struct focus_pairs *pairs; /* a focus frame's callers and callees */
} fcount;

/* Frames and their counts: frame_id -> entry. */
typedef struct ftab {
    ntx_idmap at; /* frame -> index + 1 */
    fcount *v;
    size_t n, cap;
} ftab;

typedef struct focus_pairs {
    ftab callers, callees;
} focus_pairs;

/* One node of the call tree: a frame reached by one path from an outermost frame. */
typedef struct cnode {
    uint32_t parent;  /* its parent's node + 1; 0: an outermost frame */
    uint32_t frame;   /* its frame's entry in the lane's ftab */
    uint64_t inc, exc;
} cnode;

/* The call tree of a lane (co->tree): nodes in the order they were made, a parent before its children. */
typedef struct ctree {
    cnode *v;
    size_t n, cap;
    ntx_idmap child; /* (parent + 1) << 32 | frame -> node + 1 */
} ctree;

/* The samples of one thread (or of all, when not split). */
typedef struct lane {
    uint64_t thread;
    uint64_t samples, no_stack;
    ftab frames;
    ctree tree;
} lane;

/*
 * The distinct stacks a unit met, each by its lane and bytes (a thread
 * waiting, a loop sampled again and again: whole stacks repeat), with what
 * its frames were found to be: their entries in the lane's table, with the
 * times every frame's answer holds for. A sample of a stack seen before
 * costs a hash, a compare and a count per distinct frame, not a lookup per
 * frame. The bytes are compared, not only hashed: a sample is counted under
 * its own frames or not at all.
 */
typedef struct stack_ent {
    uint64_t hash;
    uint64_t from, to;  /* its frames hold for samples at ts in [from, to); to == 0: not known (yet) */
    uint64_t off;       /* its bytes in the store's */
    size_t idx;         /* its depth entries (leaf first), then nuniq distinct ones, in `idxv`; SIZE_MAX: none */
    uint64_t n, first, last; /* no symbolizer yet: its samples not counted yet, their first and last times */
    uint32_t bytes, lane, nuniq;
} stack_ent;

typedef struct stack_store {
    stack_ent *v;
    size_t n, cap;
    uint32_t *slot;     /* open addressing by hash: stack + 1, 0 empty */
    size_t nslots;
    ntidx_buf bytes;    /* the stacks' bytes, one after the other */
    uint32_t *idxv;
    size_t nidx, capidx;
} stack_store;

typedef struct cpux {
    const ntx_an_ctx *ctx;
    const ntidx_cpu_options *co;
    const ntidx_symbolizer *sym; /* NULL until take_symbols(): samples kept by stack, counted then */
    ntidx_symbolizer *own_sym; /* the merge's: the one take_symbols() handed it */
    int redo;          /* the merge's: a stack's samples could not be counted together (take_symbols()) */
    uint32_t ptr_size;
    lane *lanes;
    size_t nlanes;
    ntx_idmap lane_at; /* thread -> lane + 1 */
    ntx_idmap threads; /* the threads sampled (-> 1) */
    uint64_t sample_no;
    size_t *scratch;   /* a sample's frames (their entries), leaf first */
    size_t scratch_cap;
    ntx_symbol_memo *syms; /* the symbolizer's answers by address */
    stack_store st;
    struct cpux **units; /* the merge's, no symbolizer yet: the units, in time order, waiting for it */
    size_t nunits;
} cpux;

/* The frame of `ip` at `ts`, and [*from, *to), the times the answer holds for (empty: only at ts): through the
   unit's memo, since a sample's frames repeat from stack to stack. */
static void lookup_frame(cpux *c, uint64_t ip, uint64_t ts, uint64_t *frame_id, const char **method,
                         const char **module, uint64_t *from, uint64_t *to)
{
    ntidx_symbol scratch;
    const ntidx_symbol *s = ntx_symbol_memo_lookup(c->syms, c->sym, ip, ts, &scratch, from, to);
    *frame_id = s->frame_id;
    *method = s->method;
    *module = s->module;
}

/* The analysis's arguments (ctx->arg). */
typedef struct cpu_arg {
    const ntidx_cpu_options *co;
    const ntidx_symbolizer *sym;
} cpu_arg;

static void ftab_init(ftab *t) { memset(t, 0, sizeof *t), ntx_idmap_init(&t->at); }

/* The child of `parent` (a node + 1, 0 for none) for frame entry `frame`, made when new: its node, or -1 out of
   memory (or past 2^32 - 2 nodes, which the keys cannot hold). */
static int64_t ctree_child(ctree *t, uint32_t parent, size_t frame)
{
    if (frame > UINT32_MAX)
        return -1;
    uint64_t key = (uint64_t)parent << 32 | frame;
    void *v = ntx_idmap_get(&t->child, key);
    if (v)
        return (int64_t)((uintptr_t)v - 1);
    if (t->n >= UINT32_MAX - 1)
        return -1;
    if (t->n == t->cap) {
        size_t c = t->cap ? t->cap * 2 : 256;
        cnode *nv = realloc(t->v, c * sizeof *nv);
        if (!nv)
            return -1;
        t->v = nv;
        t->cap = c;
    }
    if (ntx_idmap_put(&t->child, key, (void *)(uintptr_t)(t->n + 1)) != 0)
        return -1;
    t->v[t->n] = (cnode){parent, (uint32_t)frame, 0, 0};
    return (int64_t)t->n++;
}

static void ctree_free(ctree *t)
{
    free(t->v);
    ntx_idmap_free(&t->child);
}

static void ftab_free(ftab *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].pairs) {
            ftab_free(&t->v[i].pairs->callers);
            ftab_free(&t->v[i].pairs->callees);
            free(t->v[i].pairs);
        }
    free(t->v);
    ntx_idmap_free(&t->at);
}

/* The entry of `frame`, made with zero counts when new; NULL out of memory. */
static fcount *ftab_get(ftab *t, uint64_t frame, const char *method, const char *module)
{
    void *v = ntx_idmap_get(&t->at, frame);
    if (v)
        return &t->v[(uintptr_t)v - 1];
    if (t->n == t->cap) {
        size_t c = t->cap ? t->cap * 2 : 64;
        fcount *nv = realloc(t->v, c * sizeof *nv);
        if (!nv)
            return NULL;
        t->v = nv;
        t->cap = c;
    }
    if (ntx_idmap_put(&t->at, frame, (void *)(uintptr_t)(t->n + 1)) != 0)
        return NULL;
    t->v[t->n] = (fcount){frame, method, module, 0, 0, 0, -1, NULL};
    return &t->v[t->n++];
}

/* Is a frame named like `want`: its whole name, the part after '!', or that part without the arguments? */
static int names_match(const char *want, const char *method, const char *module)
{
    if (!method)
        return !strcmp(want, "?!?");
    size_t ml = strlen(module), wl = strlen(want);
    if (wl > ml && !strncmp(want, module, ml) && want[ml] == '!' && !strcmp(want + ml + 1, method))
        return 1;
    if (!strcmp(want, method))
        return 1;
    const char *paren = strchr(method, '(');
    return paren && (size_t)(paren - method) == wl && !strncmp(want, method, wl);
}

static int is_focus(const cpux *c, fcount *f)
{
    if (f->focus < 0) {
        const ntidx_cpu_options *co = c->co;
        f->focus = (co->callers && names_match(co->callers, f->method, f->module)) ||
                   (co->callees && names_match(co->callees, f->method, f->module));
    }
    return f->focus;
}

static lane *lane_of(cpux *c, uint64_t thread)
{
    void *v = ntx_idmap_get(&c->lane_at, thread);
    if (v)
        return &c->lanes[(uintptr_t)v - 1];
    lane *nl = realloc(c->lanes, (c->nlanes + 1) * sizeof *nl);
    if (!nl)
        return NULL;
    c->lanes = nl;
    if (ntx_idmap_put(&c->lane_at, thread, (void *)(uintptr_t)(c->nlanes + 1)) != 0)
        return NULL;
    lane *l = &c->lanes[c->nlanes++];
    memset(l, 0, sizeof *l);
    l->thread = thread;
    ftab_init(&l->frames);
    ntx_idmap_init(&l->tree.child);
    return l;
}

static void cpux_free(void *p);

static int cpux_new(const ntx_an_ctx *ctx, void **out)
{
    cpux *c = calloc(1, sizeof *c);
    if (!c)
        return NTIDX_E_NOMEM;
    const cpu_arg *arg = ctx->arg;
    c->ctx = ctx;
    c->co = arg->co;
    c->sym = arg->sym ? arg->sym : ctx->sym;
    c->ptr_size = ntidx_trace_get_info(ctx->t)->pointer_size;
    c->syms = ntx_symbol_memo_new();
    ntx_idmap_init(&c->lane_at);
    ntx_idmap_init(&c->threads);
    *out = c;
    if (!c->syms) {
        cpux_free(c);
        *out = NULL;
        return NTIDX_E_NOMEM;
    }
    return 0;
}

static void cpux_free(void *p)
{
    cpux *c = p;
    for (size_t i = 0; i < c->nlanes; i++) {
        ftab_free(&c->lanes[i].frames);
        ctree_free(&c->lanes[i].tree);
    }
    free(c->lanes);
    ntx_idmap_free(&c->lane_at);
    ntx_idmap_free(&c->threads);
    free(c->scratch);
    ntx_symbol_memo_free(c->syms);
    free(c->st.v);
    free(c->st.slot);
    ntidx_buf_free(&c->st.bytes);
    free(c->st.idxv);
    for (size_t i = 0; i < c->nunits; i++)
        cpux_free(c->units[i]);
    free(c->units);
    ntidx_symbolizer_close(&c->own_sym);
    free(c);
}

/* The stack of lane `li` with these bytes in the unit's store, added when new: its number, or -1 out of memory. */
static int64_t intern_stack(stack_store *st, size_t li, const uint8_t *b, uint32_t n)
{
    uint64_t h = ntx_xxh3_seed(b, n, li);
    if (2 * (st->n + 1) > st->nslots) { /* at most half full: slots doubled, every stack placed again */
        size_t ns = st->nslots ? st->nslots * 2 : 1024;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl)
            return -1;
        for (size_t i = 0; i < st->n; i++) {
            size_t k = st->v[i].hash & (ns - 1);
            while (sl[k])
                k = (k + 1) & (ns - 1);
            sl[k] = (uint32_t)i + 1;
        }
        free(st->slot);
        st->slot = sl;
        st->nslots = ns;
    }
    size_t k = h & (st->nslots - 1);
    for (; st->slot[k]; k = (k + 1) & (st->nslots - 1)) {
        const stack_ent *e = &st->v[st->slot[k] - 1];
        if (e->hash == h && e->lane == li && e->bytes == n && !memcmp(st->bytes.bytes + e->off, b, n))
            return st->slot[k] - 1;
    }
    size_t off = st->bytes.len;
    if (st->n >= UINT32_MAX - 1 || ntx_grow((void **)&st->v, &st->cap, st->n + 1, sizeof *st->v, 256, 0) < 0 ||
        ntx_buf_put(&st->bytes, b, n) < 0)
        return -1;
    st->v[st->n] = (stack_ent){.hash = h, .off = off, .idx = SIZE_MAX, .bytes = n, .lane = (uint32_t)li};
    st->slot[k] = (uint32_t)st->n + 1;
    return (int64_t)st->n++;
}

/* A (focus, other) pair seen in sample `stamp` (of weight w: that many samples of one stack): once per sample;
   exclusive when `leaf`. */
static int count_pair(ftab *t, const fcount *other, uint64_t stamp, int leaf, uint64_t w)
{
    fcount *p = ftab_get(t, other->frame, other->method, other->module);
    if (!p)
        return NTIDX_E_NOMEM;
    if (p->stamp != stamp) {
        p->stamp = stamp;
        p->inc += w;
    }
    if (leaf)
        p->exc += w;
    return 0;
}

/* `w` samples of stack `id` (in c's store) at ts .. last, counted in its lane as one: each distinct frame once
   inclusively, the leaf exclusively, the call tree and the focus pairs. 0; 1 nothing counted: a frame's name
   does not hold from ts to last; < 0 out of memory. */
static int count_samples(cpux *c, size_t id, uint64_t ts, uint64_t last, uint64_t w, ntx_err *err)
{
    stack_store *st = &c->st;
    stack_ent *se = &st->v[id];
    lane *l = &c->lanes[se->lane];
    size_t depth = se->bytes / c->ptr_size;
    if (depth > c->scratch_cap) {
        size_t *ns = realloc(c->scratch, depth * sizeof *ns);
        if (!ns)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        c->scratch = ns;
        c->scratch_cap = depth;
    }
    uint64_t stamp = ++c->sample_no;
    fcount *v;
    if (se->to && ts >= se->from && last < se->to) {
        /* seen before: its frames, and each distinct one counted once */
        const uint32_t *idx = st->idxv + se->idx;
        v = l->frames.v;
        for (size_t i = 0; i < depth; i++)
            c->scratch[i] = idx[i];
        for (uint32_t i = 0; i < se->nuniq; i++) {
            v[idx[depth + i]].stamp = stamp;
            v[idx[depth + i]].inc += w;
        }
    } else {
        /* Every frame's entry first (the table may move while they are made), then the counts. */
        uint64_t from = 0, to = UINT64_MAX;
        const uint8_t *stack = st->bytes.bytes + se->off;
        for (size_t i = 0; i < depth; i++) {
            const uint8_t *p = stack + i * c->ptr_size;
            uint64_t ip = 0;
            for (uint32_t b = 0; b < c->ptr_size; b++)
                ip |= (uint64_t)p[b] << (8 * b);
            uint64_t frame_id, f0, f1;
            const char *method, *module;
            lookup_frame(c, ip, ts, &frame_id, &method, &module, &f0, &f1);
            if (f0 > from)
                from = f0;
            if (f1 < to)
                to = f1;
            fcount *f = ftab_get(&l->frames, frame_id, method, module);
            if (!f)
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
            c->scratch[i] = (size_t)(f - l->frames.v);
        }
        if (last >= to)
            return 1;
        /* kept for the samples to come when every answer holds past ts (room for it made once a stack) */
        int keep = to > from;
        if (keep && se->idx == SIZE_MAX) {
            if (ntx_grow((void **)&st->idxv, &st->capidx, st->nidx + 2 * depth, sizeof *st->idxv, 4096, 0) == 0) {
                se->idx = st->nidx;
                st->nidx += 2 * depth;
            } else {
                keep = 0;
            }
        }
        se->to = 0; /* not known until made whole */
        uint32_t *idx = keep ? st->idxv + se->idx : NULL;
        uint32_t nuniq = 0;
        v = l->frames.v;
        for (size_t i = 0; i < depth; i++) {
            fcount *f = &v[c->scratch[i]];
            if (f->stamp != stamp) {
                f->stamp = stamp;
                f->inc += w;
                if (keep)
                    idx[depth + nuniq++] = (uint32_t)c->scratch[i];
            }
        }
        if (keep) {
            for (size_t i = 0; i < depth; i++)
                idx[i] = (uint32_t)c->scratch[i];
            se->from = from;
            se->to = to;
            se->nuniq = nuniq;
        }
    }
    v[c->scratch[0]].exc += w;
    if (c->co->tree) {
        /* from the outermost frame in: each frame the child of the one that called it */
        uint32_t parent = 0;
        for (size_t i = depth; i-- > 0;) {
            int64_t node = ctree_child(&l->tree, parent, c->scratch[i]);
            if (node < 0)
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory (the call tree)");
            l->tree.v[node].inc += w;
            if (i == 0)
                l->tree.v[node].exc += w;
            parent = (uint32_t)node + 1;
        }
    }
    if (!c->co->callers && !c->co->callees)
        return 0;
    for (size_t i = 0; i < depth; i++) {
        fcount *f = &v[c->scratch[i]];
        if (!is_focus(c, f))
            continue;
        if (!f->pairs) {
            if (!(f->pairs = calloc(1, sizeof *f->pairs)))
                return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
            ftab_init(&f->pairs->callers);
            ftab_init(&f->pairs->callees);
        }
        int rc = 0;
        if (c->co->callers && names_match(c->co->callers, f->method, f->module) && i + 1 < depth)
            rc = count_pair(&f->pairs->callers, &v[c->scratch[i + 1]], stamp, i == 0, w);
        if (rc == 0 && c->co->callees && names_match(c->co->callees, f->method, f->module) && i > 0)
            rc = count_pair(&f->pairs->callees, &v[c->scratch[i - 1]], stamp, i == 1, w);
        if (rc < 0)
            return ntx_err_set(err, rc, "out of memory");
    }
    return 0;
}

static int unit_event(void *unit, const ntx_an_event *e, ntx_err *err)
{
    cpux *c = unit;
    const ntidx_analysis_options *o = c->ctx->o;
    if (o->has_thread && e->thread != o->thread)
        return 0;
    lane *l = lane_of(c, c->co->by_thread ? e->thread : 0);
    if (!l || (!ntx_idmap_get(&c->threads, e->thread) && ntx_idmap_put(&c->threads, e->thread, (void *)1) != 0))
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    l->samples++;
    const ntidx_event *ev = e->ev;
    size_t depth = ev->stack && c->ptr_size ? ev->stack_size / c->ptr_size : 0;
    if (!depth) {
        l->no_stack++;
        return 0;
    }
    /* the whole frames of the stack (a stack is whole pointers; a stray tail byte names nothing) */
    int64_t id = ev->stack_size <= UINT32_MAX
                     ? intern_stack(&c->st, (size_t)(l - c->lanes), ev->stack, (uint32_t)(depth * c->ptr_size))
                     : -1;
    if (id < 0)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (c->sym) {
        int rc = count_samples(c, (size_t)id, e->ts, e->ts, 1, err);
        return rc < 0 ? rc : 0; /* a span always holds at its own time */
    }
    stack_ent *se = &c->st.v[id];
    if (!se->n++ || e->ts < se->first)
        se->first = e->ts;
    if (e->ts > se->last)
        se->last = e->ts;
    return 0;
}

/* ---- The merge: counts added ---- */

static int merge_new(const ntx_an_ctx *ctx, void **out) { return cpux_new(ctx, out); }

static int add_tab(ftab *to, const ftab *from)
{
    for (size_t i = 0; i < from->n; i++) {
        const fcount *f = &from->v[i];
        fcount *t = ftab_get(to, f->frame, f->method, f->module);
        if (!t)
            return NTIDX_E_NOMEM;
        t->inc += f->inc;
        t->exc += f->exc;
        if (!f->pairs)
            continue;
        if (!t->pairs) {
            if (!(t->pairs = calloc(1, sizeof *t->pairs)))
                return NTIDX_E_NOMEM;
            ftab_init(&t->pairs->callers);
            ftab_init(&t->pairs->callees);
        }
        if (add_tab(&t->pairs->callers, &f->pairs->callers) < 0 || add_tab(&t->pairs->callees, &f->pairs->callees) < 0)
            return NTIDX_E_NOMEM;
    }
    return 0;
}

/* The unit lane's call tree added into the merged lane's (whose frames already hold the unit's): each unit
   node, parents first, mapped to the merged node of the same path. */
static int merge_tree(lane *to, const lane *from)
{
    const ctree *ut = &from->tree;
    if (!ut->n)
        return 0;
    uint32_t *map = malloc(ut->n * sizeof *map); /* unit node -> merged node + 1 */
    if (!map)
        return NTIDX_E_NOMEM;
    int rc = 0;
    for (size_t k = 0; k < ut->n && rc == 0; k++) {
        const cnode *u = &ut->v[k];
        void *f = ntx_idmap_get(&to->frames.at, from->frames.v[u->frame].frame);
        int64_t node = f ? ctree_child(&to->tree, u->parent ? map[u->parent - 1] : 0, (uintptr_t)f - 1) : -1;
        if (node < 0) {
            rc = NTIDX_E_NOMEM;
            break;
        }
        to->tree.v[node].inc += u->inc;
        to->tree.v[node].exc += u->exc;
        map[k] = (uint32_t)node + 1;
    }
    free(map);
    return rc;
}

static void add_thread(void *ctx, uint64_t key, void *val)
{
    struct {
        ntx_idmap *to;
        int failed;
    } *add = ctx;
    if (ntx_idmap_put(add->to, key, val) != 0)
        add->failed = 1;
}

/* A unit's frames and call trees added into the merge's lanes (and, with `tallies`, its lanes' counts of
   samples). */
static int merge_counts(cpux *m, const cpux *u, int tallies)
{
    for (size_t i = 0; i < u->nlanes; i++) {
        const lane *ul = &u->lanes[i];
        lane *l = lane_of(m, ul->thread);
        if (!l || add_tab(&l->frames, &ul->frames) < 0 || merge_tree(l, ul) < 0)
            return NTIDX_E_NOMEM;
        if (tallies) {
            l->samples += ul->samples;
            l->no_stack += ul->no_stack;
        }
    }
    return 0;
}

static int merge_unit(void *merged, void *unit, ntx_err *err)
{
    cpux *m = merged, *u = unit;
    struct {
        ntx_idmap *to;
        int failed;
    } add = {&m->threads, 0};
    ntx_idmap_each(&u->threads, add_thread, &add);
    if (add.failed || merge_counts(m, u, 1) < 0)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (u->sym)
        return 0;
    /* Its samples wait for the symbolizer: the unit is taken whole (the driver frees what is left of it). */
    cpux *keep = malloc(sizeof *keep);
    cpux **nu = keep ? realloc(m->units, (m->nunits + 1) * sizeof *nu) : NULL;
    if (!nu) {
        free(keep);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    m->units = nu;
    *keep = *u;
    memset(u, 0, sizeof *u);
    m->units[m->nunits++] = keep;
    return 0;
}

/* The parallel count of the kept units' samples: each worker takes units from `next`. */
typedef struct count_job {
    cpux *m;
    atomic_size_t next;
    atomic_int failed; /* an error, or a stack whose samples cannot be counted together: stop */
    atomic_int redo;
} count_job;

typedef struct count_worker {
    alignas(64) count_job *job;
    int rc;
    ntx_err err;
} count_worker;

static void *count_work(void *arg)
{
    count_worker *w = arg;
    count_job *j = w->job;
    for (size_t k; !atomic_load(&j->failed) && (k = atomic_fetch_add(&j->next, 1)) < j->m->nunits;) {
        cpux *u = j->m->units[k];
        u->sym = j->m->sym;
        int rc = 0;
        for (size_t i = 0; i < u->st.n && rc == 0; i++) {
            const stack_ent *se = &u->st.v[i];
            if (se->n)
                rc = count_samples(u, i, se->first, se->last, se->n, &w->err);
        }
        if (rc > 0)
            atomic_store(&j->redo, 1);
        if (rc != 0) {
            w->rc = rc < 0 ? rc : 0;
            atomic_store(&j->failed, 1);
            break;
        }
    }
    return NULL;
}

/* The symbolizer read along with the samples (the driver's one pass): the kept stacks counted unit by unit in
   parallel, then the units' counts added in time order, as merge_unit() adds them on any other run. A stack
   whose frames' names do not hold from its first sample to its last stops the count: m->redo, and
   ntidx_cpu_analyze() runs the analysis again with this symbolizer, counting sample by sample. */
static int take_symbols(void *merged, ntidx_symbolizer *sym, ntx_err *err)
{
    cpux *m = merged;
    m->own_sym = sym;
    m->sym = sym;
    unsigned n = ntx_thread_count(m->ctx->o->threads);
    if (n > m->nunits)
        n = m->nunits ? (unsigned)m->nunits : 1;
    count_job job = {.m = m};
    count_worker *ws = aligned_alloc(alignof(count_worker), n * sizeof *ws);
    if (!ws)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    memset(ws, 0, n * sizeof *ws);
    for (unsigned i = 0; i < n; i++)
        ws[i].job = &job;
    unsigned ran = ntx_run_threads_each(n, count_work, ws, sizeof *ws);
    int rc = 0;
    for (unsigned i = 0; i < ran && rc == 0; i++)
        if (ws[i].rc < 0) {
            rc = ws[i].rc;
            *err = ws[i].err;
        }
    free(ws);
    m->redo = atomic_load(&job.redo);
    for (size_t k = 0; k < m->nunits && rc == 0 && !m->redo; k++)
        if (merge_counts(m, m->units[k], 0) < 0)
            rc = ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    for (size_t k = 0; k < m->nunits; k++)
        cpux_free(m->units[k]);
    free(m->units);
    m->units = NULL;
    m->nunits = 0;
    return rc;
}

/* ---- The result ---- */

typedef struct cpu_row {
    ntidx_cpu_method pub;
    size_t name;  /* offsets into the result's name pool */
    size_t focus; /* SIZE_MAX: none */
} cpu_row;

/* A node of the call tree as a row of table "cpu_tree". */
typedef struct tree_row {
    uint64_t inc, exc, thread;
    uint32_t depth;
    const char *method;     /* into the pool (set once the pool no longer moves) */
    size_t name;            /* its offset */
    size_t init;            /* its position before the sorts */
    size_t parent_init;     /* the parent's, SIZE_MAX for an outermost frame */
    uint64_t level_rank;    /* its place among the nodes of its depth */
    uint64_t parent_rank;   /* its parent's level_rank (0 for an outermost frame) */
    int64_t parent;         /* the parent's row, -1: none */
} tree_row;

typedef struct cpu_result {
    tree_row *tree; /* cpu_tree */
    size_t ntree;
    cpu_row *rows[3]; /* cpu, cpu_callers, cpu_callees */
    size_t n[3];
    ntidx_cpu_method *methods; /* rows[0]'s public records, for ntidx_cpu_at() */
    char *pool;
    size_t pool_len, pool_cap;
    int by_thread;
    uint64_t samples, no_stack, threads;
    ntidx_symbolizer *redo; /* not a result: the symbolizer to run the analysis again with (take_symbols()) */
} cpu_result;

static void free_result(void *p)
{
    cpu_result *r = p;
    if (!r)
        return;
    for (int k = 0; k < 3; k++)
        free(r->rows[k]);
    free(r->tree);
    free(r->methods);
    free(r->pool);
    ntidx_symbolizer_close(&r->redo);
    free(r);
}

/* "module!method" or "?!?" into the pool: its offset, or SIZE_MAX out of memory. */
static size_t pool_name(cpu_result *r, const char *method, const char *module)
{
    size_t n = method ? strlen(module) + 1 + strlen(method) : 3;
    if (r->pool_len + n + 1 > r->pool_cap) {
        size_t c = r->pool_cap ? r->pool_cap : 4096;
        while (c < r->pool_len + n + 1)
            c *= 2;
        char *np = realloc(r->pool, c);
        if (!np)
            return SIZE_MAX;
        r->pool = np;
        r->pool_cap = c;
    }
    size_t at = r->pool_len;
    if (method) {
        size_t ml = strlen(module);
        memcpy(r->pool + at, module, ml);
        r->pool[at + ml] = '!';
        memcpy(r->pool + at + ml + 1, method, strlen(method) + 1);
    } else {
        memcpy(r->pool + at, "?!?", 4);
    }
    r->pool_len += n + 1;
    return at;
}

static int add_row(cpu_result *r, int k, size_t *cap, const lane *l, const fcount *f, size_t focus)
{
    if (r->n[k] == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        cpu_row *nr = realloc(r->rows[k], c * sizeof *nr);
        if (!nr)
            return NTIDX_E_NOMEM;
        r->rows[k] = nr;
        *cap = c;
    }
    size_t name = pool_name(r, f->method, f->module);
    if (name == SIZE_MAX)
        return NTIDX_E_NOMEM;
    cpu_row *row = &r->rows[k][r->n[k]++];
    memset(row, 0, sizeof *row);
    row->name = name;
    row->focus = focus;
    row->pub.has_thread = r->by_thread;
    row->pub.thread = r->by_thread ? l->thread : 0;
    row->pub.inclusive = f->inc;
    row->pub.exclusive = f->exc;
    row->pub.inclusive_ms = (double)f->inc * INTERVAL_MS;
    row->pub.exclusive_ms = (double)f->exc * INTERVAL_MS;
    double total = (double)r->samples;
    row->pub.inclusive_percent = total > 0 ? (double)f->inc * 100.0 / total : 0.0;
    row->pub.exclusive_percent = total > 0 ? (double)f->exc * 100.0 / total : 0.0;
    return 0;
}

/* By thread, then focus, then the most exclusive samples, the most inclusive, then by name (the names'
   pointers are set: the pool no longer moves). */
static int row_cmp(const void *a, const void *b)
{
    const ntidx_cpu_method *x = &((const cpu_row *)a)->pub, *y = &((const cpu_row *)b)->pub;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->focus != y->focus) {
        int c = strcmp(x->focus, y->focus);
        if (c)
            return c;
    }
    if (x->exclusive != y->exclusive)
        return x->exclusive > y->exclusive ? -1 : 1;
    if (x->inclusive != y->inclusive)
        return x->inclusive > y->inclusive ? -1 : 1;
    return strcmp(x->method, y->method);
}

enum { C_METHOD, C_INC, C_EXC, C_INC_MS, C_EXC_MS, C_INC_PCT, C_EXC_PCT, C_THREAD };

#define METHOD_COLUMNS                                                                                                 \
    {"method", NTIDX_COLUMN_STRING, "the frame: module!Namespace.Name(args) as TraceEvent names it; ?!? unknown"}, \
    {"inclusive", NTIDX_COLUMN_UINT, "samples whose stack holds it (once per sample)"},                              \
    {"exclusive", NTIDX_COLUMN_UINT, "samples whose innermost frame it is"},                                         \
    {"inclusive_ms", NTIDX_COLUMN_DOUBLE, "inclusive x the sampling interval (1 ms)"},                               \
    {"exclusive_ms", NTIDX_COLUMN_DOUBLE, "exclusive x the sampling interval (1 ms)"},                               \
    {"inclusive_percent", NTIDX_COLUMN_DOUBLE, "inclusive as a percentage of the window's samples"},                 \
    {"exclusive_percent", NTIDX_COLUMN_DOUBLE, "exclusive as a percentage of the window's samples"}
#define THREAD_COLUMN {"thread", NTIDX_COLUMN_UINT, "the samples' thread"}
#define FOCUS_COLUMN {"focus", NTIDX_COLUMN_STRING, "the method asked for (one row set per frame it names)"}

static const ntidx_column cpu_columns[] = {METHOD_COLUMNS};
static const ntidx_column cpu_thread_columns[] = {METHOD_COLUMNS, THREAD_COLUMN};
static const ntidx_column pair_columns[] = {FOCUS_COLUMN, METHOD_COLUMNS};
static const ntidx_column pair_thread_columns[] = {FOCUS_COLUMN, METHOD_COLUMNS, THREAD_COLUMN};
#define NCOLS(a) (sizeof a / sizeof a[0])

static void put_double(ntidx_table_cell *out, double v)
{
    out->f = v;
    out->is_null = isnan(v) || isinf(v);
}

static int row_cell(const cpu_result *r, const cpu_row *row, size_t col, ntidx_table_cell *out)
{
    const ntidx_cpu_method *m = &row->pub;
    switch (col) {
    case C_METHOD: out->s = r->pool + row->name; break;
    case C_INC: out->u = m->inclusive; break;
    case C_EXC: out->u = m->exclusive; break;
    case C_INC_MS: put_double(out, m->inclusive_ms); break;
    case C_EXC_MS: put_double(out, m->exclusive_ms); break;
    case C_INC_PCT: put_double(out, m->inclusive_percent); break;
    case C_EXC_PCT: put_double(out, m->exclusive_percent); break;
    default: out->u = m->thread; break;
    }
    return NTIDX_OK;
}

static int cpu_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const cpu_result *r = data;
    return row_cell(r, &r->rows[0][row], col, out);
}

static int pair_cell(const cpu_result *r, int k, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const cpu_row *x = &r->rows[k][row];
    if (col == 0) {
        out->s = r->pool + x->focus;
        return NTIDX_OK;
    }
    return row_cell(r, x, col - 1, out);
}

static int callers_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    return pair_cell(data, 1, row, col, out);
}

static int callees_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    return pair_cell(data, 2, row, col, out);
}

enum { T_NODE, T_PARENT, T_DEPTH, T_METHOD, T_INC, T_EXC, T_INC_MS, T_EXC_MS, T_THREAD };

#define TREE_COLUMNS                                                                                                   \
    {"node", NTIDX_COLUMN_UINT, "the node: its row in this table"},                                                 \
    {"parent", NTIDX_COLUMN_INT, "the row of the frame that called it; -1 for an outermost frame"},                 \
    {"depth", NTIDX_COLUMN_UINT, "frames above it on its path (0: an outermost frame)"},                            \
    {"method", NTIDX_COLUMN_STRING, "the frame: module!Namespace.Name(args) as TraceEvent names it; ?!? unknown"}, \
    {"inclusive", NTIDX_COLUMN_UINT, "samples whose stack holds this path"},                                         \
    {"exclusive", NTIDX_COLUMN_UINT, "samples whose stack ends at this path"},                                       \
    {"inclusive_ms", NTIDX_COLUMN_DOUBLE, "inclusive x the sampling interval (1 ms)"},                               \
    {"exclusive_ms", NTIDX_COLUMN_DOUBLE, "exclusive x the sampling interval (1 ms)"}

static const ntidx_column tree_columns[] = {TREE_COLUMNS};
static const ntidx_column tree_thread_columns[] = {TREE_COLUMNS, THREAD_COLUMN};

static int tree_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    const tree_row *t = &((const cpu_result *)data)->tree[row];
    switch (col) {
    case T_NODE: out->u = row; break;
    case T_PARENT: out->i = t->parent; break;
    case T_DEPTH: out->u = t->depth; break;
    case T_METHOD: out->s = t->method; break;
    case T_INC: out->u = t->inc; break;
    case T_EXC: out->u = t->exc; break;
    case T_INC_MS: put_double(out, (double)t->inc * INTERVAL_MS); break;
    case T_EXC_MS: put_double(out, (double)t->exc * INTERVAL_MS); break;
    default: out->u = t->thread; break;
    }
    return NTIDX_OK;
}

/* The order of a depth's nodes: the most inclusive first, then by name, thread, and their parents' order. */
static int level_cmp(const void *a, const void *b)
{
    const tree_row *x = a, *y = b;
    if (x->inc != y->inc)
        return x->inc > y->inc ? -1 : 1;
    int c = strcmp(x->method, y->method);
    if (c)
        return c;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->parent_rank != y->parent_rank)
        return x->parent_rank < y->parent_rank ? -1 : 1;
    return 0; /* the same path: never two nodes */
}

static int depth_cmp(const void *a, const void *b)
{
    const tree_row *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->init < y->init ? -1 : x->init > y->init;
}

/* The table's order: the most inclusive first; a parent (as inclusive as any child, and shallower) first. */
static int tree_cmp(const void *a, const void *b)
{
    const tree_row *x = a, *y = b;
    if (x->inc != y->inc)
        return x->inc > y->inc ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->level_rank < y->level_rank ? -1 : x->level_rank > y->level_rank;
}

/* The rows of the lanes' call trees, in an order that depends on the paths alone (not on the cut into units
   that made the nodes): `names[l][f]` is the pool offset of lane l's frame entry f. */
static int build_tree(cpux *m, cpu_result *r, size_t *const *names)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nlanes; i++)
        n += m->lanes[i].tree.n;
    if (!n)
        return 0;
    tree_row *t = calloc(n, sizeof *t);
    size_t *pos = malloc(n * sizeof *pos);
    if (!t || !pos) {
        free(t);
        free(pos);
        return NTIDX_E_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < m->nlanes; i++) {
        const lane *l = &m->lanes[i];
        size_t base = k;
        for (size_t j = 0; j < l->tree.n; j++, k++) {
            const cnode *c = &l->tree.v[j];
            tree_row *row = &t[k];
            row->inc = c->inc;
            row->exc = c->exc;
            row->thread = r->by_thread ? l->thread : 0;
            row->name = names[i][c->frame];
            row->method = r->pool + row->name;
            row->init = k;
            row->parent_init = c->parent ? base + c->parent - 1 : SIZE_MAX;
            row->depth = c->parent ? t[base + c->parent - 1].depth + 1 : 0; /* a parent is made first */
        }
    }
    /* depth by depth, each node ranked after its parent's rank is known */
    qsort(t, n, sizeof *t, depth_cmp);
    for (size_t i = 0; i < n; i++)
        pos[t[i].init] = i;
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a; b < n && t[b].depth == t[a].depth; b++)
            t[b].parent_rank = t[b].parent_init == SIZE_MAX ? 0 : t[pos[t[b].parent_init]].level_rank;
        qsort(t + a, b - a, sizeof *t, level_cmp);
        for (size_t i = a; i < b; i++) {
            t[i].level_rank = i - a;
            pos[t[i].init] = i;
        }
    }
    qsort(t, n, sizeof *t, tree_cmp);
    for (size_t i = 0; i < n; i++)
        pos[t[i].init] = i;
    for (size_t i = 0; i < n; i++)
        t[i].parent = t[i].parent_init == SIZE_MAX ? -1 : (int64_t)pos[t[i].parent_init];
    free(pos);
    r->tree = t;
    r->ntree = n;
    return 0;
}

enum { S_SAMPLES, S_NO_STACK, S_THREADS, S_INTERVAL, S_TOTAL_MS, S_METHODS, S_COLUMNS };

static const ntidx_column summary_columns[S_COLUMNS] = {
    {"samples", NTIDX_COLUMN_UINT, "samples in the window (of --thread's)"},
    {"samples_without_stack", NTIDX_COLUMN_UINT, "of which without a stack (in the total only)"},
    {"threads", NTIDX_COLUMN_UINT, "threads sampled"},
    {"interval_ms", NTIDX_COLUMN_DOUBLE, "the sampling interval TraceEvent gives EventPipe traces"},
    {"total_ms", NTIDX_COLUMN_DOUBLE, "samples x interval_ms"},
    {"methods", NTIDX_COLUMN_UINT, "rows of table cpu"},
};

static int summary_cell(const void *data, uint64_t row, size_t col, ntidx_table_cell *out)
{
    (void)row;
    const cpu_result *r = data;
    switch (col) {
    case S_SAMPLES: out->u = r->samples; break;
    case S_NO_STACK: out->u = r->no_stack; break;
    case S_THREADS: out->u = r->threads; break;
    case S_INTERVAL: out->f = INTERVAL_MS; break;
    case S_TOTAL_MS: out->f = (double)r->samples * INTERVAL_MS; break;
    default: out->u = r->n[0]; break;
    }
    return NTIDX_OK;
}

static int lane_cmp(const void *a, const void *b)
{
    uint64_t x = ((const lane *)a)->thread, y = ((const lane *)b)->thread;
    return x < y ? -1 : x > y;
}

static int build_rows(cpux *m, cpu_result *r, size_t *cap, size_t **names);

static int build(cpux *m, cpu_result *r)
{
    size_t cap[3] = {0, 0, 0};
    /* with the tree: each lane frame's name in the pool, which its nodes share */
    size_t **names = m->co->tree ? calloc(m->nlanes ? m->nlanes : 1, sizeof *names) : NULL;
    if (m->co->tree && !names)
        return NTIDX_E_NOMEM;
    int rc = build_rows(m, r, cap, names);
    if (rc == 0 && names)
        rc = build_tree(m, r, names);
    for (size_t i = 0; names && i < m->nlanes; i++)
        free(names[i]);
    free(names);
    return rc;
}

static int build_rows(cpux *m, cpu_result *r, size_t *cap, size_t **names)
{
    for (size_t i = 0; i < m->nlanes; i++) {
        r->samples += m->lanes[i].samples;
        r->no_stack += m->lanes[i].no_stack;
    }
    if (m->nlanes > 1)
        qsort(m->lanes, m->nlanes, sizeof *m->lanes, lane_cmp); /* lane_at is not used after this */
    for (size_t i = 0; i < m->nlanes; i++) {
        const lane *l = &m->lanes[i];
        if (names && !(names[i] = malloc((l->frames.n ? l->frames.n : 1) * sizeof **names)))
            return NTIDX_E_NOMEM;
        for (size_t j = 0; j < l->frames.n; j++) {
            const fcount *f = &l->frames.v[j];
            if (add_row(r, 0, &cap[0], l, f, SIZE_MAX) < 0)
                return NTIDX_E_NOMEM;
            if (names)
                names[i][j] = r->rows[0][r->n[0] - 1].name;
            if (!f->pairs)
                continue;
            size_t focus = pool_name(r, f->method, f->module);
            if (focus == SIZE_MAX)
                return NTIDX_E_NOMEM;
            for (int k = 1; k <= 2; k++) {
                const ftab *t = k == 1 ? &f->pairs->callers : &f->pairs->callees;
                for (size_t q = 0; q < t->n; q++)
                    if (add_row(r, k, &cap[k], l, &t->v[q], focus) < 0)
                        return NTIDX_E_NOMEM;
            }
        }
    }
    r->threads = ntx_idmap_size(&m->threads);
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < r->n[k]; i++) {
            cpu_row *row = &r->rows[k][i];
            row->pub.method = r->pool + row->name;
            row->pub.focus = row->focus == SIZE_MAX ? NULL : r->pool + row->focus;
        }
    for (int k = 0; k < 3; k++)
        if (r->n[k] > 1)
            qsort(r->rows[k], r->n[k], sizeof *r->rows[k], row_cmp);
    r->methods = malloc((r->n[0] ? r->n[0] : 1) * sizeof *r->methods);
    if (!r->methods)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < r->n[0]; i++)
        r->methods[i] = r->rows[0][i].pub;
    return 0;
}

static int finish(void *merged, ntidx_analysis **out, ntx_an_counts *counts, ntx_err *err)
{
    (void)counts; /* nothing pairs, nothing is open */
    cpux *m = merged;
    cpu_result *r = calloc(1, sizeof *r);
    if (!r)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    r->by_thread = m->co->by_thread != 0;
    if (m->redo) { /* no rows: the symbolizer for the run again */
        r->redo = m->own_sym;
        m->own_sym = NULL;
        int rc = ntx_analysis_new("cpu", NTX_ANALYSIS_CPU, r, free_result, out);
        if (rc < 0)
            free_result(r);
        return rc < 0 ? ntx_err_set(err, rc, "out of memory") : 0;
    }
    int rc = build(m, r);
    if (rc == 0)
        rc = ntx_analysis_new("cpu", NTX_ANALYSIS_CPU, r, free_result, out);
    if (rc < 0) {
        free_result(r);
        return ntx_err_set(err, rc, "out of memory");
    }
    const ntidx_column *mc = r->by_thread ? cpu_thread_columns : cpu_columns;
    const ntidx_column *pc = r->by_thread ? pair_thread_columns : pair_columns;
    size_t nm = r->by_thread ? NCOLS(cpu_thread_columns) : NCOLS(cpu_columns);
    size_t np = r->by_thread ? NCOLS(pair_thread_columns) : NCOLS(pair_columns);
    if (ntx_analysis_add_table(*out, "cpu", mc, nm, r->n[0], cpu_cell, r) < 0 ||
        ntx_analysis_add_table(*out, "cpu_summary", summary_columns, S_COLUMNS, 1, summary_cell, r) < 0 ||
        (m->co->callers && ntx_analysis_add_table(*out, "cpu_callers", pc, np, r->n[1], callers_cell, r) < 0) ||
        (m->co->callees && ntx_analysis_add_table(*out, "cpu_callees", pc, np, r->n[2], callees_cell, r) < 0) ||
        (m->co->tree && ntx_analysis_add_table(*out, "cpu_tree", r->by_thread ? tree_thread_columns : tree_columns,
                                               r->by_thread ? NCOLS(tree_thread_columns) : NCOLS(tree_columns),
                                               r->ntree, tree_cell, r) < 0)) {
        ntidx_analysis_free(out);
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "too many tables");
    }
    return 0;
}

/* The definition's fields but for the symbolizer's (the two below differ only by where their frames' names come
   from). */
#define CPU_DEF                                                                                              \
    .name = "cpu", .types = cpu_types, .ntypes = sizeof cpu_types / sizeof cpu_types[0], .no_payload = 1,     \
    .order_free = 1 /* counts per frame */, .unit_new = cpux_new, .unit_event = unit_event,                  \
    .unit_free = cpux_free, .merge_new = merge_new, .merge_unit = merge_unit, .finish = finish,              \
    .merge_free = cpux_free

/* With the caller's symbolizer (ntidx_cpu_options.symbols). */
static const ntx_analysis_def cpu_def = {CPU_DEF};
/* With the trace's own: read along with the samples over the whole trace, else opened by the driver first. */
static const ntx_analysis_def cpu_own_symbols_def = {CPU_DEF, .take_symbols = take_symbols, .needs_symbols = 1};

NTIDX_API void ntidx_cpu_options_defaults(ntidx_cpu_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

NTIDX_API int ntidx_cpu_analyze(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                const ntidx_cpu_options *co, ntidx_analysis **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_cpu_analyze: NULL argument");
    ntidx_cpu_options def;
    if (!co) {
        ntidx_cpu_options_defaults(&def);
        co = &def;
    }
    if (!ntx_reserved_zero(co->reserved, sizeof co->reserved))
        return ntx_failf(NTIDX_E_INVALID_ARG, ntidx_trace_name(t), NTIDX_NO_OFFSET,
                         "cpu options: reserved fields are not zero (fill them with ntidx_cpu_options_defaults())");
    cpu_arg arg = {co, co->symbols};
    int rc = ntx_analysis_run_arg(arg.sym ? &cpu_def : &cpu_own_symbols_def, &arg, t, x, o, out);
    cpu_result *r = rc == 0 ? ntx_analysis_data(*out, NTX_ANALYSIS_CPU) : NULL;
    if (!r || !r->redo)
        return rc;
    /* Code was unloaded and reused between two samples of one stack (take_symbols()): sample by sample,
       with the symbolizer the first run made. */
    ntidx_symbolizer *sym = r->redo;
    r->redo = NULL;
    ntidx_analysis_free(out);
    arg.sym = sym;
    rc = ntx_analysis_run_arg(&cpu_def, &arg, t, x, o, out);
    ntidx_symbolizer_close(&sym);
    return rc;
}

/* The registry's entry point: the CPU analysis with its own options' defaults (all threads together, no
   callers or callees), as the generic doors run every analysis. */
static int cpu_analyze_defaults(ntidx_trace *t, const ntidx_index *x, const ntidx_analysis_options *o,
                                ntidx_analysis **out)
{
    return ntidx_cpu_analyze(t, x, o, NULL, out);
}

static const ntidx_table cpu_tables[] = {{"cpu", sizeof cpu_columns / sizeof cpu_columns[0], cpu_columns, 0},
                                         {"cpu_summary", S_COLUMNS, summary_columns, 0}};

const ntidx_analysis_info ntx_cpu_info = {
    .name = "cpu",
    .summary = "where the CPU went: the sample profiler's samples by method, inclusive and exclusive",
    .analyze = cpu_analyze_defaults,
    .table_count = sizeof cpu_tables / sizeof cpu_tables[0],
    .tables = cpu_tables,
};

NTIDX_API size_t ntidx_cpu_count(const ntidx_analysis *a)
{
    const cpu_result *r = ntx_analysis_data(a, NTX_ANALYSIS_CPU);
    return r ? r->n[0] : 0;
}

NTIDX_API const ntidx_cpu_method *ntidx_cpu_at(const ntidx_analysis *a, size_t i)
{
    const cpu_result *r = ntx_analysis_data(a, NTX_ANALYSIS_CPU);
    return r && i < r->n[0] ? &r->methods[i] : NULL;
}
