/*
 * ntidx gen --shape one-collect: a synthetic V6 trace shaped like what
 * microsoft/one-collect writes (its exporter, one_collect/src/helpers/
 * exporting/formats/nettrace.rs, behind `dotnet-trace collect-linux`), the
 * one real V6 writer. Written from a reading of its format, not its code:
 *
 * - Trace block: sync time, tick frequency 1 GHz, pointer size 8, the keys
 *   HardwareThreadCount and ExpectedCPUSamplingRate (ns between samples).
 * - One metadata block, never flushed (its header size 0): Universal.Events
 *   sample kinds ("cpu", "cswitch": meta id = event id = 1, 2; one VarUInt
 *   field, Value) and Universal.System's process events (ExistingProcess,
 *   ProcessCreate, ProcessExit, ProcessMapping, ProcessSymbol,
 *   ProcessMappingMetadata: event ids 0-5), whose strings the metadata types
 *   UTF8CodeUnit (23) while the payload holds a 16-bit length and UTF-8
 *   bytes, as one-collect writes them (TraceEvent decodes them by its
 *   Universal parsers, and so does ntidx); optional metadata empty.
 * - Events in time order on one capture thread (index 0): every header field
 *   present (flags 223: IsSorted on every event), sequence delta 0, the CPU
 *   as processor number, the (pid, tid) thread index, the stack and label
 *   list ids of the block (0: none), the timestamp as a delta from the
 *   previous event of the block (the first one's from 0).
 * - Every ~1 MiB of rows: a sequence point (flags 1: flush threads, no
 *   threads, its time the previous block's last event, the sync time at
 *   first), then fresh stack, thread and label-list blocks whose ids restart
 *   at 1 (thread index 0 is the capture thread, pid 0 tid 0), then the event
 *   block (header 20 bytes, flags 1, minimum the previous block's last
 *   timestamp, maximum its own last event's).
 * - The end: the last block's maximum is the end of capture, or all ones
 *   when it is not known (unknown_end); a sequence point at that time; the
 *   end-of-stream marker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "generator_internal.h"
#include "ntidx/writer.h"

#define OC_BLOCK_BYTES 1048576u      /* one-collect flushes its event rows at 1 MiB */
#define OC_SYNC ((uint64_t)NTIDX_W_OC_SYNC) /* the sync time: a boot-time clock 1000 s in */
#define OC_PROCESSES 6u
#define OC_THREADS_MAX 24u
#define OC_STACK_SHAPES 96u
#define OC_LABEL_SETS 10u
#define OC_CPUS 8u
#define OC_SAMPLE_NS 1000000u        /* 1 kHz per CPU */
#define OC_MAPPINGS 5u
#define OC_SYMBOLS 4u

enum { META_CPU = 1, META_CSWITCH = 2, META_EXISTING, META_CREATE, META_EXIT, META_MAPPING, META_SYMBOL,
       META_MAPPING_META };

typedef struct oc_proc {
    uint32_t pid, ntids;
    uint32_t tids[OC_THREADS_MAX];
    int alive;
} oc_proc;

/* A small open-addressing map from a 64-bit key to an id of the current block (0: empty slot). */
typedef struct oc_map {
    uint64_t *keys;
    uint32_t *ids;
    uint32_t cap, n;
} oc_map;

typedef struct oc {
    ntidx_writer *w;
    const ntidx_gen_options *o;
    ntidx_w_rng rng;
    ntidx_buf rows;   /* the pending event block's rows */
    ntidx_buf blk;    /* a block's payload */
    ntidx_buf pay;    /* an event's payload */
    uint64_t flush_time, last_time, now, events, target_events;
    oc_proc procs[OC_PROCESSES];
    uint64_t stack_ips[OC_STACK_SHAPES][12];
    uint32_t stack_len[OC_STACK_SHAPES];
    /* this block's definitions, in id order */
    oc_map threads, stacks, labels;
    uint64_t *thread_keys; /* index -> (pid << 32 | tid) */
    uint32_t *stack_shapes, *label_sets;
    uint32_t nthreads, nstacks, nlabels, cap_threads, cap_stacks, cap_labels;
    uint32_t sym_id;
    uint64_t progress_mark; /* ntidx_w_gen_progress() */
    int done;
    int rc;
} oc;

static int map_init(oc_map *m)
{
    m->cap = 1024;
    m->n = 0;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->ids = calloc(m->cap, sizeof *m->ids);
    return m->keys && m->ids ? 0 : NTIDX_E_NOMEM;
}

static void map_clear(oc_map *m)
{
    memset(m->ids, 0, m->cap * sizeof *m->ids);
    m->n = 0;
}

static void map_free(oc_map *m)
{
    free(m->keys);
    free(m->ids);
}

/* The id of `key` in m, or 0 after inserting it under `next` (the caller's next id). */
static uint32_t map_get_or_put(oc_map *m, uint64_t key, uint32_t next, int *nomem)
{
    if ((m->n + 1) * 2 > m->cap) {
        oc_map g = {calloc(m->cap * 2, sizeof *m->keys), calloc(m->cap * 2, sizeof *m->ids), m->cap * 2, 0};
        if (!g.keys || !g.ids) {
            free(g.keys);
            free(g.ids);
            *nomem = 1;
            return 0;
        }
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->ids[i]) {
                uint32_t j = (uint32_t)((m->keys[i] * 0x9E3779B97F4A7C15ull) >> 40) & (g.cap - 1);
                while (g.ids[j])
                    j = (j + 1) & (g.cap - 1);
                g.keys[j] = m->keys[i];
                g.ids[j] = m->ids[i];
                g.n++;
            }
        map_free(m);
        *m = g;
    }
    uint32_t j = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (m->cap - 1);
    while (m->ids[j]) {
        if (m->keys[j] == key)
            return m->ids[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key;
    m->ids[j] = next;
    m->n++;
    return 0;
}

static int grow(uint32_t **a, uint32_t *cap, uint32_t need)
{
    if (need <= *cap)
        return 0;
    uint32_t n = *cap ? *cap * 2 : 256;
    while (n < need)
        n *= 2;
    uint32_t *p = realloc(*a, n * sizeof *p);
    if (!p)
        return NTIDX_E_NOMEM;
    *a = p;
    *cap = n;
    return 0;
}

/* UTF-8 with a varint length (metadata, labels) and with a 16-bit length (Universal.System payloads). */
static void put_utf8(ntidx_buf *b, const char *s)
{
    size_t n = strlen(s);
    ntx_buf_varuint(b, n);
    ntx_buf_put(b, s, n);
}

static void put_short_utf8(ntidx_buf *b, const char *s)
{
    size_t n = strlen(s);
    ntx_buf_u16(b, (uint16_t)n);
    ntx_buf_put(b, s, n);
}

static int block(oc *c, ntidx_block_kind kind)
{
    if (c->blk.err)
        return c->blk.err;
    int rc = ntidx_writer_add_raw_block(c->w, kind, c->blk.bytes, c->blk.len);
    c->blk.len = 0;
    return rc;
}

/* ---- metadata ---- */

typedef struct oc_field {
    const char *name;
    uint8_t type;
} oc_field;

static void meta_row(ntidx_buf *b, uint32_t meta_id, const char *provider, uint32_t event_id, const char *name,
                     const oc_field *f, uint16_t n)
{
    ntidx_buf row = {0};
    ntx_buf_varuint(&row, meta_id);
    put_utf8(&row, provider);
    ntx_buf_varuint(&row, event_id);
    put_utf8(&row, name);
    ntx_buf_u16(&row, n);
    for (uint16_t i = 0; i < n; i++) {
        size_t len = strlen(f[i].name);
        /* FieldSize: the name (varint length + bytes) and the type byte; it does not count itself */
        ntx_buf_u16(&row, (uint16_t)(len + (len < 128 ? 1 : 2) + 1));
        put_utf8(&row, f[i].name);
        ntx_buf_u8(&row, f[i].type);
    }
    ntx_buf_u16(&row, 0); /* no optional metadata */
    ntx_buf_u16(b, (uint16_t)row.len);
    ntx_buf_put(b, row.bytes, row.len);
    if (row.err)
        b->err = row.err;
    ntidx_buf_free(&row);
}

static int write_metadata(oc *c)
{
    enum { VARUINT = 21, UTF8 = 23 };
    static const oc_field value[] = {{"Value", VARUINT}};
    static const oc_field create[] = {{"NamespaceId", VARUINT}, {"Name", UTF8}, {"NamespaceName", UTF8}};
    static const oc_field mapping[] = {{"Id", VARUINT},         {"StartAddress", VARUINT}, {"EndAddress", VARUINT},
                                       {"FileOffset", VARUINT}, {"FileName", UTF8},        {"MetadataId", VARUINT}};
    static const oc_field symbol[] = {{"Id", VARUINT}, {"MappingId", VARUINT}, {"StartAddress", VARUINT},
                                      {"EndAddress", VARUINT}, {"Name", UTF8}};
    static const oc_field mapping_meta[] = {{"Id", VARUINT}, {"SymbolMetadata", UTF8}, {"VersionMetadata", UTF8}};
    ntidx_buf *b = &c->blk;
    ntx_buf_u16(b, 0); /* header size: none */
    meta_row(b, META_CPU, "Universal.Events", META_CPU, "cpu", value, 1);
    meta_row(b, META_CSWITCH, "Universal.Events", META_CSWITCH, "cswitch", value, 1);
    meta_row(b, META_EXISTING, "Universal.System", 0, "ExistingProcess", create, 3);
    meta_row(b, META_CREATE, "Universal.System", 1, "ProcessCreate", create, 3);
    meta_row(b, META_EXIT, "Universal.System", 2, "ProcessExit", NULL, 0);
    meta_row(b, META_MAPPING, "Universal.System", 3, "ProcessMapping", mapping, 6);
    meta_row(b, META_SYMBOL, "Universal.System", 4, "ProcessSymbol", symbol, 5);
    meta_row(b, META_MAPPING_META, "Universal.System", 5, "ProcessMappingMetadata", mapping_meta, 3);
    return block(c, NTIDX_BLOCK_METADATA);
}

/* ---- blocks ---- */

static void reset_block_tables(oc *c)
{
    map_clear(&c->threads);
    map_clear(&c->stacks);
    map_clear(&c->labels);
    c->nthreads = c->nstacks = c->nlabels = 0;
    /* thread index 0 is the capture thread: pid 0, tid 0 */
    int nomem = 0;
    map_get_or_put(&c->threads, 0, 0x80000000u, &nomem);
    c->thread_keys[0] = 0;
    c->nthreads = 1;
}

static const char *const LABEL_KEYS[] = {"comm", "container", "cgroup", "runtime.version"};
static const char *const LABEL_VALUES[] = {"dotnet", "web-frontend", "worker", "10.0.0", "api"};

static void put_label_set(ntidx_buf *b, uint32_t set)
{
    /* 1-3 labels: key/string (kind 5) and key/int (kind 6, a varint as one-collect writes it) */
    uint32_t n = 1 + set % 3;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t last = i + 1 == n ? 0x80 : 0;
        if ((set + i) % 2 == 0) {
            ntx_buf_u8(b, last | 5);
            put_utf8(b, LABEL_KEYS[(set + i) % 4]);
            put_utf8(b, LABEL_VALUES[(set * 3 + i) % 5]);
        } else {
            ntx_buf_u8(b, last | 6);
            put_utf8(b, LABEL_KEYS[(set + i) % 4]);
            ntx_buf_varuint(b, 1000 + set * 17 + i);
        }
    }
}

/* The sequence point, stacks, threads and label lists of the pending rows, then their event block. */
static int flush_block(oc *c, uint64_t start, uint64_t end)
{
    int rc;
    ntidx_buf *b = &c->blk;
    /* sequence point: its time, flags 1 (flush threads), no threads */
    ntx_buf_u64(b, start);
    ntx_buf_u32(b, 1);
    ntx_buf_u32(b, 0);
    if ((rc = block(c, NTIDX_BLOCK_SEQUENCE_POINT)))
        return rc;
    /* stacks: first id 1; each a 32-bit size and its instruction pointers */
    ntx_buf_u32(b, 1);
    ntx_buf_u32(b, c->nstacks);
    for (uint32_t i = 0; i < c->nstacks; i++) {
        uint32_t s = c->stack_shapes[i];
        ntx_buf_u32(b, c->stack_len[s] * 8);
        for (uint32_t k = 0; k < c->stack_len[s]; k++)
            ntx_buf_u64(b, c->stack_ips[s][k]);
    }
    if ((rc = block(c, NTIDX_BLOCK_STACK)))
        return rc;
    /* threads: per row a 16-bit size, the index, then kind 2 (pid) and kind 3 (tid), varints */
    for (uint32_t i = 0; i < c->nthreads; i++) {
        uint64_t pid = c->thread_keys[i] >> 32, tid = c->thread_keys[i] & 0xffffffffu;
        ntidx_buf row = {0};
        ntx_buf_varuint(&row, i);
        ntx_buf_u8(&row, 2);
        ntx_buf_varuint(&row, pid);
        ntx_buf_u8(&row, 3);
        ntx_buf_varuint(&row, tid);
        ntx_buf_u16(b, (uint16_t)row.len);
        ntx_buf_put(b, row.bytes, row.len);
        if (row.err)
            b->err = row.err;
        ntidx_buf_free(&row);
    }
    if ((rc = block(c, NTIDX_BLOCK_THREAD)))
        return rc;
    /* label lists: first id 1 */
    ntx_buf_u32(b, 1);
    ntx_buf_u32(b, c->nlabels);
    for (uint32_t i = 0; i < c->nlabels; i++)
        put_label_set(b, c->label_sets[i]);
    if ((rc = block(c, NTIDX_BLOCK_LABEL_LIST)))
        return rc;
    /* the event block: header size 20, flags 1 (compressed), minimum, maximum */
    ntx_buf_u16(b, 20);
    ntx_buf_u16(b, 1);
    ntx_buf_u64(b, start);
    ntx_buf_u64(b, end);
    ntx_buf_put(b, c->rows.bytes, c->rows.len);
    if ((rc = block(c, NTIDX_BLOCK_EVENT)))
        return rc;
    c->rows.len = 0;
    c->flush_time = end;
    c->last_time = 0;
    reset_block_tables(c);
    return 0;
}

/* ---- events ---- */

static uint32_t thread_index(oc *c, uint32_t pid, uint32_t tid)
{
    int nomem = 0;
    uint64_t key = (uint64_t)pid << 32 | tid;
    uint32_t got = map_get_or_put(&c->threads, key, c->nthreads, &nomem);
    if (nomem) {
        c->rc = NTIDX_E_NOMEM;
        return 0;
    }
    if (key == 0)
        return 0;
    if (got)
        return got;
    if (c->nthreads == c->cap_threads) {
        uint32_t n = c->cap_threads * 2;
        uint64_t *p = realloc(c->thread_keys, n * sizeof *p);
        if (!p) {
            c->rc = NTIDX_E_NOMEM;
            return 0;
        }
        c->thread_keys = p;
        c->cap_threads = n;
    }
    c->thread_keys[c->nthreads] = key;
    return c->nthreads++;
}

static uint32_t block_id(oc *c, oc_map *m, uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t value)
{
    int nomem = 0;
    uint32_t got = map_get_or_put(m, value + 1, *n + 1, &nomem);
    if (nomem) {
        c->rc = NTIDX_E_NOMEM;
        return 0;
    }
    if (got)
        return got;
    if (grow(list, cap, *n + 1) < 0) {
        c->rc = NTIDX_E_NOMEM;
        return 0;
    }
    (*list)[(*n)++] = value;
    return *n;
}

/* One event row (flags 223: every field, IsSorted); a block flush when the rows pass 1 MiB. */
static void emit(oc *c, uint32_t meta, uint32_t cpu, uint32_t pid, uint32_t tid, int stack, int labels, uint64_t ts)
{
    if (c->done || c->rc)
        return;
    if (ts < OC_SYNC)
        ts = OC_SYNC; /* one-collect never writes a time before the sync time */
    uint64_t prev = c->last_time;
    if (ts < prev)
        ts = prev;
    uint32_t t = thread_index(c, pid, tid);
    uint32_t sid = stack >= 0 ? block_id(c, &c->stacks, &c->stack_shapes, &c->nstacks, &c->cap_stacks, (uint32_t)stack) : 0;
    uint32_t lid = labels >= 0 ? block_id(c, &c->labels, &c->label_sets, &c->nlabels, &c->cap_labels, (uint32_t)labels) : 0;
    ntidx_buf *r = &c->rows;
    ntx_buf_u8(r, 223);
    ntx_buf_varuint(r, meta);
    ntx_buf_varuint(r, 0); /* sequence number delta: every event is the next */
    ntx_buf_varuint(r, 0); /* the capture thread */
    ntx_buf_varuint(r, cpu);
    ntx_buf_varuint(r, t);
    ntx_buf_varuint(r, sid);
    ntx_buf_varuint(r, ts - prev);
    ntx_buf_varuint(r, lid);
    ntx_buf_varuint(r, c->pay.len);
    ntx_buf_put(r, c->pay.bytes, c->pay.len);
    c->pay.len = 0;
    c->last_time = ts;
    c->now = ts;
    c->events++;
    if (r->err) {
        c->rc = r->err;
        return;
    }
    if (r->len >= OC_BLOCK_BYTES && (c->rc = flush_block(c, c->flush_time, c->last_time)))
        return;
    if (c->target_events ? c->events >= c->target_events
                         : ntidx_writer_bytes(c->w) + c->rows.len >= c->o->target_bytes)
        c->done = 1;
}

static void process_events(oc *c, oc_proc *p, uint32_t meta, uint64_t ts)
{
    char name[32];
    snprintf(name, sizeof name, "proc-%u", p->pid);
    ntx_buf_varuint(&c->pay, 0); /* namespace pid */
    put_short_utf8(&c->pay, name);
    put_short_utf8(&c->pay, "Unknown");
    emit(c, meta, 0, p->pid, 0, -1, -1, ts);
}

/* Mappings and their symbols, as one-collect replays them when a process appears. */
static void mapping_events(oc *c, oc_proc *p, uint64_t ts)
{
    static const char *const files[] = {"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/share/dotnet/dotnet",
                                        "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/libcoreclr.so",
                                        "/tmp/perf-4242.map", "[vdso]"};
    for (uint32_t m = 0; m < OC_MAPPINGS; m++) {
        uint64_t start = 0x7f0000000000ull + (uint64_t)p->pid * 0x10000000ull + m * 0x1000000ull;
        uint32_t meta_id = m + 1;
        /* ProcessMappingMetadata first, once per mapping (id, symbol and version metadata) */
        ntx_buf_varuint(&c->pay, meta_id);
        put_short_utf8(&c->pay, "{\"type\":\"elf\",\"build_id\":\"8d3f\"}");
        put_short_utf8(&c->pay, "");
        emit(c, META_MAPPING_META, 0, p->pid, 0, -1, -1, ts);
        ntx_buf_varuint(&c->pay, m + 1);
        ntx_buf_varuint(&c->pay, start);
        ntx_buf_varuint(&c->pay, start + 0x800000);
        ntx_buf_varuint(&c->pay, (uint64_t)m * 0x1000);
        put_short_utf8(&c->pay, files[m]);
        ntx_buf_varuint(&c->pay, meta_id);
        /* one-collect writes the symbol and version metadata again after the six fields */
        put_short_utf8(&c->pay, "{\"type\":\"elf\",\"build_id\":\"8d3f\"}");
        put_short_utf8(&c->pay, "");
        emit(c, META_MAPPING, 0, p->pid, 0, -1, -1, ts);
        for (uint32_t k = 0; k < OC_SYMBOLS; k++) {
            char sym[48];
            snprintf(sym, sizeof sym, "Func_%u_%u(int, char const*)", m, k);
            ntx_buf_varuint(&c->pay, c->sym_id++);
            ntx_buf_varuint(&c->pay, m + 1);
            ntx_buf_varuint(&c->pay, start + 0x1000 * (k + 1));
            ntx_buf_varuint(&c->pay, start + 0x1000 * (k + 1) + 0x7ff);
            put_short_utf8(&c->pay, sym);
            emit(c, META_SYMBOL, 0, p->pid, 0, -1, -1, ts);
        }
    }
}

static void new_process(oc *c, oc_proc *p, uint32_t slot)
{
    p->pid = 4000 + slot * 97 + ntidx_w_rng_below(&c->rng, 50);
    p->ntids = 2 + ntidx_w_rng_below(&c->rng, OC_THREADS_MAX - 1);
    for (uint32_t i = 0; i < p->ntids; i++)
        p->tids[i] = p->pid + 1 + i * 3;
    p->alive = 1;
}

static void run(oc *c)
{
    /* the processes that exist at the start, each with its mappings */
    for (uint32_t i = 0; i < OC_PROCESSES; i++) {
        new_process(c, &c->procs[i], i);
        process_events(c, &c->procs[i], META_EXISTING, OC_SYNC - 1000);
        mapping_events(c, &c->procs[i], OC_SYNC);
    }
    uint64_t t = OC_SYNC + 1000;
    while (!c->done && !c->rc) {
        if ((c->rc = ntidx_w_gen_progress(c->o, c->w, c->events, &c->progress_mark)) < 0)
            break;
        uint64_t x = ntidx_w_rng_next(&c->rng);
        /* samples arrive about OC_SAMPLE_NS / OC_CPUS apart */
        t += (OC_SAMPLE_NS / OC_CPUS) / 2 + (x & 0xffff) % (OC_SAMPLE_NS / OC_CPUS);
        oc_proc *p = &c->procs[(x >> 16) % OC_PROCESSES];
        if (((x >> 24) & 0x3fff) == 0) {
            /* now and then a process ends and another starts in its place */
            emit(c, META_EXIT, 0, p->pid, 0, -1, -1, t);
            new_process(c, p, (uint32_t)(p - c->procs) + (uint32_t)(x >> 40) % 50);
            process_events(c, p, META_CREATE, t);
            mapping_events(c, p, t);
            continue;
        }
        uint32_t tid = p->tids[(x >> 38) % p->ntids];
        int cswitch = ((x >> 44) & 7) == 0;
        ntx_buf_varuint(&c->pay, cswitch ? 1000 + ((x >> 47) & 0xfffff) : OC_SAMPLE_NS);
        int stack = (int)((x >> 50) % OC_STACK_SHAPES);
        int labels = ((x >> 57) & 3) == 0 ? -1 : (int)(((x >> 59) + p->pid) % OC_LABEL_SETS);
        emit(c, cswitch ? META_CSWITCH : META_CPU, (uint32_t)(x >> 32) % OC_CPUS, p->pid, tid, stack, labels, t);
    }
}

int ntidx_w_generate_one_collect(ntidx_writer *w, const ntidx_gen_options *o, ntidx_w_gen_stats *st)
{
    oc *c = calloc(1, sizeof *c);
    if (!c)
        return NTIDX_E_NOMEM;
    c->w = w;
    c->o = o;
    c->target_events = o->target_bytes ? 0 : (o->events ? o->events : 100000);
    ntidx_w_rng_seed(&c->rng, o->seed);
    c->flush_time = OC_SYNC;
    int rc = map_init(&c->threads);
    if (!rc)
        rc = map_init(&c->stacks);
    if (!rc)
        rc = map_init(&c->labels);
    c->cap_threads = 64;
    c->thread_keys = malloc(c->cap_threads * sizeof *c->thread_keys);
    if (!rc && !c->thread_keys)
        rc = NTIDX_E_NOMEM;
    if (!rc) {
        /* call stacks: a leaf IP, then callers, deeper for some */
        for (uint32_t s = 0; s < OC_STACK_SHAPES; s++) {
            c->stack_len[s] = 2 + ntidx_w_rng_below(&c->rng, 11);
            for (uint32_t k = 0; k < c->stack_len[s]; k++)
                c->stack_ips[s][k] = 0x7f0000000000ull + 0x10000000ull * (s % OC_PROCESSES) +
                                     0x1000000ull * (k % OC_MAPPINGS) + 0x1000 * (1 + (s + k) % OC_SYMBOLS) +
                                     ntidx_w_rng_below(&c->rng, 0x7f0);
        }
        reset_block_tables(c);
        rc = write_metadata(c);
    }
    if (!rc) {
        run(c);
        rc = c->rc;
    }
    if (!rc && o->finish) {
        /* the end of capture: a little after the last event, or not known (all ones) */
        uint64_t end = o->unknown_end ? UINT64_MAX : c->now + 250000;
        if (c->rows.len)
            rc = flush_block(c, c->flush_time, end);
        if (!rc) {
            ntx_buf_u64(&c->blk, end);
            ntx_buf_u32(&c->blk, 1);
            ntx_buf_u32(&c->blk, 0);
            rc = block(c, NTIDX_BLOCK_SEQUENCE_POINT);
        }
    } else if (!rc && c->rows.len) {
        rc = flush_block(c, c->flush_time, c->last_time); /* the last block, then nothing: no end */
    }
    if (!rc && o->finish)
        rc = ntidx_writer_finish(w);
    if (st) {
        memset(st, 0, sizeof *st);
        st->events = c->events;
        st->sorted_marks = c->events;
    }
    ntidx_buf_free(&c->rows);
    ntidx_buf_free(&c->blk);
    ntidx_buf_free(&c->pay);
    map_free(&c->threads);
    map_free(&c->stacks);
    map_free(&c->labels);
    free(c->thread_keys);
    free(c->stack_shapes);
    free(c->label_sets);
    free(c);
    return rc;
}
