/*
 * Many threads over one trace and one index, as the Python module lets
 * them (the GIL released around every call): queries, seeks, batches,
 * statistics and type lists at once, each giving the single-threaded
 * answer. The index is loaded from its file and checked region by region
 * on first use (NTIDX_VERIFY_ON_USE), so the threads race on those checks
 * too; one round starts from an index with a damaged region: every call
 * that needs it fails with NTIDX_E_INDEX_CORRUPT on every thread, and
 * nothing changes under the others (the index is never rebuilt behind their
 * backs: each answer either fails so or is the single-threaded one); then
 * ntidx_index_recover() makes a new index, over which every thread gets the
 * single-threaded answers again, and which was saved.
 *
 * Built twice by tests/batch/meson.build: against the library, and from the
 * library's sources with -fsanitize=thread (the ThreadSanitizer run).
 *
 * usage: test_threads [EVENTS [ROUNDS]]  (exit 0 when every answer matched; the sanitized run takes fewer)
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/writer.h>

#define THREADS 6

static ntidx_trace *trace;
static ntidx_index *index_;
static uint64_t t0s[4], t1s[4];

/* A digest of a query's events (offsets, timestamps, fields' JSON lengths). */
typedef struct answer {
    uint64_t events, digest, batch_rows, batch_digest, stats_events, stats_dropped, seek_offset, types;
} answer;

static answer expected[4];
static int failures;
static int damaged_round;     /* the index has a damaged region: NTIDX_E_INDEX_CORRUPT is an answer */
static int corrupt_met;       /* how often it was (under fail_lock) */
static _Thread_local int hit; /* this thread's answer met the damage */
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int k)
{
    pthread_mutex_lock(&fail_lock);
    if (damaged_round && ntidx_last_error_info()->code == NTIDX_E_INDEX_CORRUPT) {
        corrupt_met++;
        hit = 1;
    } else {
        failures++;
        fprintf(stderr, "test_threads: window %d: %s (%s)\n", k, what, ntidx_last_error());
    }
    pthread_mutex_unlock(&fail_lock);
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

static void compute(int k, answer *a)
{
    memset(a, 0, sizeof *a);
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.t0 = t0s[k];
    o.t1 = t1s[k];
    ntidx_query *q;
    if (ntidx_query_open(trace, index_, &o, &q) < 0) {
        fail("query_open", k);
        return;
    }
    const ntidx_event *e;
    int rc;
    ntidx_buf json = {0};
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        a->events++;
        json.len = 0;
        int jrc = ntidx_event_fields_json(trace, e, &json);
        a->digest = mix(mix(mix(a->digest, e->offset), e->timestamp), jrc == NTIDX_OK ? json.len : 7);
    }
    if (rc < 0)
        fail("query_next", k);
    ntidx_buf_free(&json);
    ntidx_query_close(&q);

    static const char *const names[] = {"TypeName", "Count", "Id", "Value"};
    ntidx_batch_options bo;
    ntidx_batch_options_defaults(&bo);
    bo.fields = names;
    bo.field_count = 4;
    bo.all_fields = k % 2;
    bo.rows = 999;
    ntidx_batch *b;
    if (ntidx_batch_open(trace, index_, &o, &bo, &b) < 0) {
        fail("batch_open", k);
        return;
    }
    const ntidx_columns *c;
    size_t n;
    while ((rc = ntidx_batch_next(b, &c, &n)) == 1)
        for (size_t i = 0; i < n; i++) {
            a->batch_rows++;
            a->batch_digest = mix(mix(a->batch_digest, c->offset[i]), c->timestamp[i]);
            for (size_t f = 0; f < 4 && f < ntidx_batch_field_count(b); f++)
                a->batch_digest = mix(a->batch_digest, c->fields[f].kind[i] == NTIDX_BATCH_MISSING
                                                           ? 1
                                                           : c->fields[f].cell[i].u + c->fields[f].kind[i]);
        }
    if (rc < 0)
        fail("batch_next", k);
    ntidx_batch_close(&b);

    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.t0 = o.t0;
    so.t1 = o.t1;
    so.threads = 2;
    ntidx_stats *s;
    if (ntidx_stats_indexed(trace, index_, &so, &s) < 0) {
        fail("stats", k);
        return;
    }
    a->stats_events = s->events;
    a->stats_dropped = s->dropped_events;
    ntidx_stats_free(&s);

    ntidx_query_options so2;
    ntidx_query_options_seek(&so2, o.t0 + (o.t1 - o.t0) / 3);
    if (ntidx_query_open(trace, index_, &so2, &q) < 0) {
        fail("seek", k);
        return;
    }
    rc = ntidx_query_next(q, &e);
    a->seek_offset = rc == 1 ? e->offset : UINT64_MAX;
    ntidx_query_close(&q);

    ntidx_type_list *l;
    if (ntidx_index_types(trace, index_, &l) < 0) {
        fail("types", k);
        return;
    }
    a->types = ntidx_type_list_count(l);
    ntidx_type_list_free(&l);
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < 4; i++) {
        int k = (id + i) % 4;
        answer a;
        hit = 0;
        compute(k, &a);
        if (!hit && memcmp(&a, &expected[k], sizeof a) != 0)
            fail("an answer differs from the single-threaded one", k);
    }
    return NULL;
}

/* Flip a bit of the middle entry of the block table of an index file (its time range's maximum): the region
   that holds it fails its checksum on first use (docs/index-format.md: the directory, BLOCKS). */
static void damage(const char *path)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    uint8_t head[512];
    if (fread(head, 1, sizeof head, f) == sizeof head) {
        uint32_t nsec;
        memcpy(&nsec, head + 20, 4);
        for (uint32_t i = 0; i < nsec && 160 + 32 * i <= sizeof head; i++) {
            uint32_t id, entry;
            uint64_t off, count;
            memcpy(&id, head + 128 + 32 * i, 4);
            memcpy(&entry, head + 132 + 32 * i, 4);
            memcpy(&off, head + 136 + 32 * i, 8);
            memcpy(&count, head + 144 + 32 * i, 8);
            if (id != 1 || !count)
                continue;
            long at = (long)(off + count / 2 * entry + 33);
            fseek(f, at, SEEK_SET);
            int c = fgetc(f);
            fseek(f, at, SEEK_SET);
            fputc(c ^ 0x40, f);
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    uint64_t events = argc > 1 ? strtoull(argv[1], NULL, 10) : 40000;
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    if (rounds < 1)
        rounds = 1;
    char dir[] = "/tmp/ntidx-threads-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[256], ipath[300];
    snprintf(path, sizeof path, "%s/t.nettrace", dir);
    snprintf(ipath, sizeof ipath, "%s/t.nettrace.ntidx", dir);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = events;
    g.seed = 77;
    g.drop_rate = 0.01;
    g.metadata_flush_every = 5;
    if (ntidx_generate_file(path, &g) < 0 || ntidx_trace_open(path, &trace) < 0) {
        fprintf(stderr, "test_threads: %s\n", ntidx_last_error());
        return 1;
    }
    ntidx_index *built;
    if (ntidx_index_build(trace, NULL, &built) < 0 || ntidx_index_write(built, ipath) < 0) {
        fprintf(stderr, "test_threads: %s\n", ntidx_last_error());
        return 1;
    }
    const ntidx_index_info *ii = ntidx_index_get_info(built);
    uint64_t span = ii->last_ts - ii->first_ts + 1;
    for (int k = 0; k < 4; k++) {
        t0s[k] = k == 0 ? 0 : ii->first_ts + span * (uint64_t)k / 7;
        t1s[k] = k == 0 ? UINT64_MAX : t0s[k] + span / 3;
    }
    /* the single-threaded answers, over the index as built */
    index_ = built;
    for (int k = 0; k < 4; k++)
        compute(k, &expected[k]);
    ntidx_index_close(&built);
    if (failures)
        return 1;
    for (int round = 0; round < rounds; round++) {
        int damaged = round == rounds - 1; /* the last round: a damaged region, met by every thread, then recovered */
        if (damaged) {
            ntidx_index *x;
            ntidx_index_state st;
            if (ntidx_index_build(trace, NULL, &x) < 0 || ntidx_index_write(x, ipath) < 0)
                return 1;
            ntidx_index_close(&x);
            damage(ipath);
            if (ntidx_index_load(trace, ipath, NTIDX_VERIFY_ALL, &x, &st) == NTIDX_OK) {
                fprintf(stderr, "test_threads: the damaged index still loads\n");
                return 1;
            }
        }
        ntidx_index_options io;
        ntidx_index_options_defaults(&io);
        io.verify = NTIDX_VERIFY_ON_USE;
        ntidx_index_state st;
        if (ntidx_index_load(trace, ipath, NTIDX_VERIFY_ON_USE, &index_, &st) < 0) {
            /* damage the loader catches at once: an index opened (rebuilt) the usual way, nothing lazy left */
            damaged_round = damaged = 0;
            if (ntidx_index_open(trace, ipath, &io, &index_, NULL) < 0) {
                fprintf(stderr, "test_threads: %s\n", ntidx_last_error());
                return 1;
            }
        }
        pthread_t th[THREADS];
        damaged_round = damaged;
        corrupt_met = 0;
        for (int i = 0; i < THREADS; i++)
            pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
        for (int i = 0; i < THREADS; i++)
            pthread_join(th[i], NULL);
        damaged_round = 0;
        if (damaged) {
            int met = corrupt_met;
            /* every thread met the damage (each answer reads the damaged region), and it is still there */
            if (met < THREADS) {
                fprintf(stderr, "test_threads: the damaged region was met %d times, by %d threads\n", met, THREADS);
                return 1;
            }
            if (ntidx_index_verify_all(index_) != NTIDX_E_INDEX_CORRUPT) {
                fprintf(stderr, "test_threads: the damaged index changed under its readers\n");
                return 1;
            }
            /* the recovery, made once, explicitly: the threads over the new index answer as before */
            ntidx_index *nx = NULL;
            if (ntidx_index_recover(trace, index_, NULL, &nx) != NTIDX_OK) {
                fprintf(stderr, "test_threads: %s\n", ntidx_last_error());
                return 1;
            }
            ntidx_index_close(&index_);
            index_ = nx;
            for (int i = 0; i < THREADS; i++)
                pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
            for (int i = 0; i < THREADS; i++)
                pthread_join(th[i], NULL);
        }
        ntidx_index_close(&index_);
        if (round == rounds - 1 && ntidx_index_load(trace, ipath, NTIDX_VERIFY_ALL, &index_, &st) != NTIDX_OK) {
            fprintf(stderr, "test_threads: the damaged index was not rebuilt and saved: %s\n", ntidx_last_error());
            return 1;
        }
        ntidx_index_close(&index_);
    }
    ntidx_trace_close(&trace);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    printf("test_threads: %d threads x %d rounds over %" PRIu64 " events: %s (the damaged region failed %d calls)\n",
           THREADS, rounds, events, failures ? "FAILED" : "every answer matched", corrupt_met);
    return failures ? 1 : 0;
}
